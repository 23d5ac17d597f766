"""A response's bytes as text: Content-Encoding undone under a cap, the charset read as a
browser reads it, and the media types we can read at all.

Pure: bytes in, text out. A body that cannot be had raises `PageUnreadable`, which the
fetcher reports as an `unreadable` source.
"""

from __future__ import annotations

import codecs
import re
import zlib

from claimledger.errors import PageUnreadable

READABLE_TYPES = frozenset(
    {
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "text/markdown",
        "application/json",
        "application/javascript",
        "text/javascript",
    }
)
MARKUP_TYPES = frozenset({"text/html", "application/xhtml+xml"})


def media_type_of(content_type: str | None) -> str | None:
    """The media type of a Content-Type header, lowercased, without parameters."""
    if content_type is None:
        return None
    media = content_type.split(";", 1)[0].strip().lower()
    return media or None


def charset_of(content_type: str | None) -> str | None:
    if content_type is None:
        return None
    found = re.search(r";\s*charset\s*=\s*[\"']?([^\"';\s]+)", content_type, re.IGNORECASE)
    return found[1] if found else None


def is_readable(media_type: str) -> bool:
    return media_type in READABLE_TYPES or media_type.startswith("text/x-")


_BINARY_SIGNATURES = {
    b"%PDF-": "a PDF",
    b"\x89PNG": "a PNG image",
    b"GIF8": "a GIF image",
    b"\xff\xd8\xff": "a JPEG image",
    b"PK\x03\x04": "a ZIP archive",
    b"\x1f\x8b": "gzip data",
}


def binary_kind(body: bytes) -> str | None:
    """What a body that opens as a binary format does is ("a PDF", "gzip data"), or None.

    No Content-Type makes such bytes text: decoded, they are noise in which every quote
    would look removed (a PDF served as text/html, a page gzipped twice or sent gzipped
    without saying so).
    """
    return next((kind for sign, kind in _BINARY_SIGNATURES.items() if body.startswith(sign)), None)


def looks_binary(body: bytes) -> bool:
    head = body[:4096]
    return binary_kind(head) is not None or b"\x00" in head


_GZIP_MAGIC = b"\x1f\x8b"


class Inflater:
    """Undo a Content-Encoding while counting output, so a bomb stops at the cap.

    zlib's `max_length` bounds every step, so no more than `cap + 1` decoded bytes
    ever exist at once, however well the input compresses. With `cut`, output past the
    cap is dropped and `full` set instead of raising: the caller wants the head alone.

    A gzip body is a series of members (RFC 1952), each read in turn: a page compressed
    in pieces and sent as one body is read whole, never cut at its first member's end,
    where its later quotes would look removed. Bytes after the last member that begin
    none are ignored, as browsers ignore them.
    """

    def __init__(self, encoding: str, cap: int, *, cut: bool = False) -> None:
        self._encoding = encoding
        self._cap = cap
        self._cut = cut
        self.full = False
        self._produced = 0
        self._sniffed = False
        self._zlib: zlib._Decompress | None = None
        self._after = b""  # what came after a member's end, until a next one is known
        self._trailing = False  # what comes after the stream is no member: ignored
        if encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._zlib = zlib.decompressobj()
        elif encoding not in ("", "identity"):
            raise PageUnreadable(f"unsupported Content-Encoding: {encoding}")

    def feed(self, data: bytes) -> bytes:
        if self._zlib is None:
            return self._count(data)
        if self._encoding == "deflate" and not self._sniffed:
            self._sniff_raw_deflate(data)
        out = bytearray()
        while data and not self.full:
            if self._zlib.eof:
                data = self._next_member(data)
                continue
            try:
                out += self._count(self._zlib.decompress(data, self._cap - self._produced + 1))
            except zlib.error as exc:
                raise PageUnreadable(f"corrupt {self._encoding} body: {exc}") from None
            data = self._zlib.unused_data if self._zlib.eof else self._zlib.unconsumed_tail
        return bytes(out)

    def _next_member(self, data: bytes) -> bytes:
        """The bytes to inflate as the next gzip member, once those after a member's end
        are known to begin one (with a new decompressor for it); b"" while that is not
        known yet, or for what follows the stream and begins none (or a deflate stream)."""
        if self._trailing or self._encoding == "deflate":
            return b""
        self._after += data
        if len(self._after) < len(_GZIP_MAGIC):
            return b""
        data, self._after = self._after, b""
        if not data.startswith(_GZIP_MAGIC):
            self._trailing = True
            return b""
        self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        return data

    def finish(self) -> bytes:
        if self._zlib is None or self.full:
            return b""
        tail = self._count(self._zlib.flush())
        if not self._zlib.eof:
            raise PageUnreadable(f"truncated {self._encoding} body")
        return tail

    def _sniff_raw_deflate(self, first: bytes) -> None:
        """Some servers send bare deflate without the zlib header that `deflate` implies."""
        self._sniffed = True
        try:
            zlib.decompressobj().decompress(first, 1)
        except zlib.error:
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)

    def _count(self, chunk: bytes) -> bytes:
        room = self._cap - self._produced
        self._produced += len(chunk)
        if self._produced <= self._cap:
            return chunk
        if not self._cut:
            raise PageUnreadable(f"decompressed body larger than {self._cap} bytes")
        self.full = True
        return chunk[: max(room, 0)]


_BYTE_ORDER_MARKS = (b"\xfe\xff", b"\xff\xfe", b"\xef\xbb\xbf", b"\x00\x00\xfe\xff")
"""How every byte order mark bs4 knows begins (a body without one has none to strip)."""

# Labels browsers read differently from Python's codec of the same name (WHATWG Encoding).
_CHARSET_ALIASES = {
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "ms_kanji": "cp932",
    "windows-31j": "cp932",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}


_NO_PAGE_CODECS = frozenset(
    {"utf-7", "unicode-escape", "raw-unicode-escape", "punycode", "idna", "undefined"}
)
"""Python's text codecs no browser reads a page in: they raise on a page's bytes, or make
of them a lone surrogate (`+2AA-` in UTF-7, `\\ud800` escaped) that no later step can
encode. A page that names one is read as if it named none."""


def _codec(label: str | None) -> str | None:
    """The codec a browser uses for a charset label, or None for a label it does not know
    (a page names its charset: base64, rot13 or zlib are Python's, not a page's)."""
    if not label:
        return None
    name = label.strip().strip("\"'").lower()
    try:
        found = codecs.lookup(_CHARSET_ALIASES.get(name, name))
    except LookupError:
        return None
    # Python marks its transforms (base64, zlib) as no text encodings, as str.encode reads it
    readable = getattr(found, "_is_text_encoding", True) and found.name not in _NO_PAGE_CODECS
    return found.name if readable else None


_UTF16 = frozenset({"utf-16", "utf-16-le", "utf-16-be"})


def _in_page(codec: str | None) -> str | None:
    """The codec for a charset the page declares in itself: UTF-16 is read as UTF-8, as
    browsers read it (WHATWG's prescan), since a declaration one can read as ASCII is
    written in no UTF-16; decoded as UTF-16, the page would be noise."""
    return "utf-8" if codec in _UTF16 else codec


def decode(body: bytes, media_type: str | None, header_charset: str | None) -> str:
    """Decode as a browser would: a byte order mark, then the header's charset, then the
    page's own declaration, then detection (bs4's EncodingDetector does the sniffing; an
    undeclared single-byte Western page is read as windows-1252, as browsers do)."""
    if body.startswith(_BYTE_ORDER_MARKS):
        from bs4.dammit import EncodingDetector  # loaded only for a page that needs it

        unmarked, bom = EncodingDetector.strip_byte_order_mark(body)
        if bom:
            return unmarked.decode(bom, errors="replace")
    markup = media_type is None or media_type in MARKUP_TYPES
    declared = _codec(header_charset)
    if declared is None and markup:
        from bs4.dammit import EncodingDetector

        head = body[: min(max(2048, len(body) // 20), DECLARED_WITHIN)]
        found = EncodingDetector.find_declared_encoding(head, True, search_entire_document=True)
        declared = _in_page(_codec(found))
    if declared is not None:
        return body.decode(declared, errors="replace")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    from bs4.dammit import UnicodeDammit

    guessed = UnicodeDammit(_sample(body), is_html=markup, exclude_encodings=["utf-8"])
    encoding = _codec(guessed.original_encoding)
    if encoding is None or encoding in _LATIN_GUESSES:
        return body.decode("cp1252", errors="replace")
    return body.decode(encoding, errors="replace")


DECLARED_WITHIN = 16 * 1024
"""How far into a page its charset declaration is looked for: bs4 looks through the first
twentieth of it, with a search that costs the square of its length on a page of
unclosed `<meta ` (4 MB: 17 s); browsers look through the first 1,024 bytes."""

SNIFFED_WITHIN = 64 * 1024
"""How much of an undeclared page that is not UTF-8 its encoding is guessed from: a
guess from the whole of a page of 6 MB took 36 s."""


def _sample(body: bytes) -> bytes:
    """The page's first `SNIFFED_WITHIN` bytes, cut before a `<` or a line break (never
    the second byte of a character in the multi-byte encodings a guess may name)."""
    if len(body) <= SNIFFED_WITHIN:
        return body
    window = body[:SNIFFED_WITHIN]
    cut = max(window.rfind(b"<"), window.rfind(b"\n"))
    return window[:cut] if cut > 0 else window


# Single-byte Latin code pages: on a short page, detection picks among these almost at
# random (they differ only in accented letters), so we read them as windows-1252,
# which is also what browsers assume for an undeclared Western page.
_LATIN_GUESSES = frozenset(
    {"cp1250", "cp1252", "cp1254", "cp1257", "latin_1", "mac_latin2", "mac_roman", "cp775"}
    | {"cp437", "cp850", "cp858", "iso8859-1", "windows-1252"}
    | {f"iso8859_{n}" for n in (2, 3, 4, 9, 10, 13, 14, 15, 16)}
)
