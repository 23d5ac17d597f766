"""A PDF's text as a reader sees it: whitepapers, compliance reports and RFCs are quoted
from PDFs as often as from pages.

Pure: bytes in, text out (pypdf parses; it does no I/O of its own on bytes in memory).

A PDF lays text out in lines, not sentences: a sentence runs over several lines, a word
is hyphenated at a line's end, and runs of spaces stand for columns. The matcher reads
sentences, so the text is given back as one line a page, in page order, with each
layout line joined to the next by a space and a word hyphenated at a line's end whole
again (``synchro-`` + ``nous``). Before a capital or a digit the hyphen stays and the
words join without a space (``TLS-`` + ``1.3``): a compound broken at its own hyphen;
an en dash at a line's end always does (``FAA–2020–`` + ``0686``), as no word is
hyphenated with one. Footnote marks set small and raised after a word are left out, and
a page's footnotes (smaller than its text, below most of it, opening with their number)
are read after its last full sentence, out of a sentence that runs on to the next page.

The fetcher hands a PDF over as text, one character a byte (``latin-1``, lossless), so
that a PDF travels as every page does, to be read here in the reading step, whose time
the refresh bounds (`evidence.budget`).

Limits, as for HTML, where a page that cannot be read whole is an error rather than a
shortened text whose quotes would look removed: more than `MAX_PAGES` pages or more than
`MAX_CHARS` characters of text is `PageUnreadable`, and so is a PDF that cannot be
parsed, one that needs a password, or one whose streams would inflate past pypdf's
limits (tightened here to the fetcher's cap on a decompressed body).
"""

from __future__ import annotations

import contextvars
import logging
import posixpath
import re
from bisect import bisect_right
from collections import Counter
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from claimledger.errors import PageUnreadable
from claimledger.reading.pdfforms import without_unseen_text

if TYPE_CHECKING:
    from pypdf import PageObject, PdfReader

PDF_TYPES = frozenset({"application/pdf", "application/x-pdf"})
UNTYPED = frozenset({"", "application/octet-stream", "binary/octet-stream"})
"""Media types that say nothing of the body: a PDF served so is known by its address and
its first bytes."""

MAGIC = "%PDF-"
CARRIER = "latin-1"
"""How a PDF's bytes travel as text: one character a byte, and back without loss."""

MAX_PAGES = 2000
MAX_CHARS = 32 * 1024 * 1024
"""The most text a PDF may give: the fetcher's cap on a decompressed body."""

STREAM_LIMIT = 32 * 1024 * 1024
"""The most bytes one stream of the PDF may inflate to (pypdf's own default is 75 MB)."""

_LIMITS: dict[str, Any] = {
    "zlib_maximum_output_length": STREAM_LIMIT,
    "lzw_maximum_output_length": STREAM_LIMIT,
    "run_length_maximum_output_length": STREAM_LIMIT,
    "array_based_stream_maximum_output_length": STREAM_LIMIT,
    "maximum_declared_stream_length": STREAM_LIMIT,
    "stream_decoding_work_maximum_length": 4 * STREAM_LIMIT,
    "jbig2dec_binary": None,  # text only: no image decoder is run, least of all a program
}

_HYPHENATED = re.compile(r"(\w)[-\u2010][ \t]*\n[ \t]*(?=[^\W\d_A-Z])")
_COMPOUND = re.compile(r"(\w[-\u2010])[ \t]*\n[ \t]*(?=[A-Z\d])|(\w\u2013)[ \t]*\n[ \t]*(?=\w)")
_SOFT_HYPHENATED = re.compile(r"(\w)\u00ad[ \t]*\n[ \t]*(?=\w)")
"""A soft hyphen (U+00AD, a word processor's discretionary hyphen) is never part of a
word: at a line's end it always goes, and the word is joined, whatever follows; U+2010
is the hyphen a font's own Unicode map names, read as ``-``."""
_BROKEN_AT_END = re.compile(r"\w[-\u2010\u2013\u00ad]$")
_LAYOUT_SPACE = re.compile(r"\s+")
_DIGITS = re.compile(r"\d+")
_WORD = re.compile(r"[^\W\d_]{2}")


def is_pdf_address(media_type: str | None, url: str) -> bool:
    """May the response to `url` be a PDF: its type says so, or says nothing and the
    address ends in `.pdf`?"""
    if (media_type or "") in PDF_TYPES:
        return True
    suffix = posixpath.splitext(urlsplit(url).path)[1].lower()
    return (media_type or "") in UNTYPED and suffix == ".pdf"


def is_pdf(media_type: str | None, body: str | bytes) -> bool:
    """Is the body read as a PDF: its type says so, or says nothing and the body begins
    with the PDF header?"""
    media = media_type or ""
    if media in PDF_TYPES:
        return True
    head = body[:5] if isinstance(body, str) else body[:5].decode(CARRIER)
    return media in UNTYPED and head == MAGIC


def carried(body: bytes) -> str:
    """A PDF's bytes as the text it travels as to its reader."""
    return body.decode(CARRIER)


def pdf_text(body: str) -> str:
    """The text of a PDF carried as `carried` made it: one line a page, in order.

    Raises `PageUnreadable`, with a one-line reason, for a PDF that cannot be read whole.
    """
    return contextvars.copy_context().run(_read, body.encode(CARRIER))


def _read(data: bytes) -> str:
    """Read under the tightened limits (a context of its own, so they end with it)."""
    from pypdf import overwrite_configuration
    from pypdf.errors import DependencyError, FileNotDecryptedError

    overwrite_configuration(**_LIMITS)
    _quiet()
    try:
        return _pages_text(_opened(data))
    except PageUnreadable:
        raise
    except FileNotDecryptedError:
        raise PageUnreadable("the PDF is encrypted: it needs a password to be read") from None
    except DependencyError as error:
        raise PageUnreadable(f"the PDF cannot be read here: {_one_line(error)}") from None
    except NotImplementedError as error:  # an encryption handler or a filter it lacks
        raise PageUnreadable(f"the PDF cannot be read here: {_one_line(error)}") from None
    except Exception as error:
        # The bytes are a stranger's, and pypdf lets their damage surface as any of
        # Python's own errors (an assertion, an overflow, a key or an index): each is the
        # PDF's fault, never the command's. LimitReachedError too: a bomb, a stream too large.
        raise PageUnreadable(f"the PDF could not be read: {_damage(error)}") from None


def _quiet() -> None:
    """pypdf logs what it repaired as warnings; the reason a PDF is unreadable is said
    once, by the refresh, so its log goes nowhere."""
    log = logging.getLogger("pypdf")
    log.propagate = False
    if not log.handlers:
        log.addHandler(logging.NullHandler())


def _opened(data: bytes) -> PdfReader:
    """The parsed PDF; one encrypted for its owner alone (an empty password opens it for
    reading, as every viewer does) is read, one that needs a password is not."""
    from io import BytesIO

    from pypdf import PdfReader
    from pypdf.errors import FileNotDecryptedError

    if MAGIC.encode() not in data[:1024]:  # pypdf too looks no further for the header
        raise PageUnreadable("not a PDF: no %PDF- header")
    reader = PdfReader(BytesIO(data), strict=False)
    if reader.is_encrypted and not reader.decrypt(""):
        raise FileNotDecryptedError("needs a password")
    return reader


def _pages_text(reader: PdfReader) -> str:
    count = len(reader.pages)
    if count > MAX_PAGES:
        raise PageUnreadable(f"the PDF has {count} pages, more than the {MAX_PAGES} read")
    layouts: list[Layout] = []
    size = 0
    for page in reader.pages:
        layout = _page_layout(_with_word_spacing_as_offsets(without_unseen_text(page)))
        size += len(layout[0]) + len(layout[1]) + 1
        if size > MAX_CHARS:
            raise PageUnreadable(f"the PDF's text is longer than {MAX_CHARS} characters")
        layouts.append(layout)
    bodies = without_running_lines([body for body, _ in layouts])
    notes = [flowed(note) for _, note in layouts]
    pages = [with_notes(flowed(body), note) for body, note in zip(bodies, notes, strict=True)]
    return "\n".join(rejoined_across_pages(pages))  # an empty page stays a line: line N is page N


def rejoined_across_pages(pages: list[str]) -> list[str]:
    """The pages with a word hyphenated at a page's end whole again at that end, its rest
    taken from the next page's start (``guaran-`` + ``tee``), as `flowed` makes it whole
    at a line's end: pages stay one line each, and a quote over the break reads whole."""
    out = list(pages)
    for index in range(len(out) - 1):
        if not _BROKEN_AT_END.search(out[index]):
            continue
        head, _, rest = out[index + 1].partition(" ")
        kept, _, tail = out[index].rpartition(" ")
        word = flowed(f"{tail}\n{head}")
        if head and " " not in word:  # joined as at a line's end, not two words
            out[index] = f"{kept} {word}" if kept else word
            out[index + 1] = rest
    return out


Chunk = tuple[str, float, float]
"""A run of text as pypdf hands it over: its text, its baseline and its size on the page."""

Layout = tuple[str, str]
"""A page's layout lines: its body, and its footnotes."""

Line = tuple[str, float, float, bool]
"""A layout line: its text, baseline and size, and whether a note mark stood in it."""

MARK_LEFT = -1.0
"""The size of the blank a note mark leaves, so that its line knows one stood there."""

_NOTE_MARK = re.compile(r"[0-9]{1,3}|[*\u2020\u2021]")
SUPERSCRIPT = 0.8
"""A note mark is set at most this fraction of the text it follows, and raised."""
NOTE_SIZE = 0.95
"""Footnotes are set smaller than the body: at most this fraction of its size."""
NOTE_LOW = 0.8
"""...and below most of it: at least this share of the body's lines stands above them."""

_NOTE_START = re.compile(r"\s*(?:[0-9]{1,3}|[*\u2020\u2021])\s")
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?= |$)")


def _page_layout(page: PageObject) -> Layout:
    """The page's text as pypdf lays it out, its footnotes apart, and without footnote
    marks: "law by1" is a mark set small and raised after "by", not part of the word, and
    a quote that runs over it reads "by President"."""
    chunks: list[Chunk] = []

    def seen(text: str, cm: list[float], tm: list[float], _font: Any, size: float) -> None:
        chunks.append((text, *_placed(cm, tm, size)))

    page.extract_text(visitor_text=seen)
    lines = _lines(_without_note_marks(chunks))
    notes = _footnote_lines(lines)
    body = "".join(line[0] for index, line in enumerate(lines) if index not in notes)
    return body, "".join(lines[index][0] for index in sorted(notes))


def _lines(chunks: list[Chunk]) -> list[Line]:
    """The chunks as layout lines, each with the baseline of its first text and the size
    of its largest."""
    lines: list[Line] = []
    pieces: list[str] = []  # joined once a line ends: a line of 100,000 runs is not copied
    baseline, size, marked, inked = 0.0, 0.0, False, False  # 100,000 times over
    for chunk, at, sized in chunks:
        marked = marked or sized == MARK_LEFT
        for piece in chunk.splitlines(keepends=True):
            if piece.strip():
                baseline = baseline if inked else at
                size, inked = max(size, sized), True
            pieces.append(piece)
            if piece.endswith("\n"):
                lines.append(("".join(pieces), baseline, size, marked))
                pieces, baseline, size, marked, inked = [], 0.0, 0.0, False, False
    if pieces:
        lines.append(("".join(pieces), baseline, size, marked))
    return lines


def _footnote_lines(lines: list[Line]) -> set[int]:
    """The lines of the page's footnotes: a run of lines set smaller than the body's
    text, below most of it, that opens with a note's number (a smaller aside amid the
    body, a small heading or a printer's line at the foot stays where it is)."""
    weights: Counter[float] = Counter()
    for text, _, size, _ in lines:
        weights[round(size, 1)] += len(text.strip())
    weights.pop(0.0, None)
    if not weights:
        return set()
    body = weights.most_common(1)[0][0]
    body_lines = sorted(
        line[1] for line in lines if line[0].strip() and line[2] >= NOTE_SIZE * body
    )
    notes: set[int] = set()
    run: list[int] = []
    for index, (text, _, size, _) in enumerate([*lines, ("end", 0.0, body, False)]):
        if (run and not text.strip()) or (text.strip() and 0 < size < NOTE_SIZE * body):
            run.append(index)  # a blank line inside a run of notes is one of them
        elif run:
            if _are_notes([lines[line] for line in run if lines[line][0].strip()], body_lines):
                notes.update(run)
            run = []
    return notes


def _are_notes(run: list[Line], body_lines: list[float]) -> bool:
    """`body_lines`: the body's baselines, sorted, so that those above the run are
    counted by bisection (a page of thousands of small lines amid the body)."""
    text, top, _, marked = run[0]
    low = len(body_lines) - bisect_right(body_lines, top) >= NOTE_LOW * len(body_lines)
    return bool(body_lines) and low and (marked or _NOTE_START.match(text) is not None)


def with_notes(body: str, notes: str) -> str:
    """A page's text with its footnotes after its last full sentence: where a reader
    reads them, and out of a sentence that runs on to the next page."""
    if not notes:
        return body
    ends = list(_SENTENCE_END.finditer(body))
    cut = ends[-1].end() if ends else len(body)
    return " ".join(part for part in (body[:cut], notes, body[cut:].strip()) if part)


def _placed(cm: list[float], tm: list[float], size: float) -> tuple[float, float]:
    """The baseline (page units, upwards) and rendered size of a run."""
    c = tm[2] * cm[0] + tm[3] * cm[2]
    d = tm[2] * cm[1] + tm[3] * cm[3]
    baseline = tm[4] * cm[1] + tm[5] * cm[3] + cm[5]
    return baseline, abs(size) * (c * c + d * d) ** 0.5


def _without_note_marks(chunks: list[Chunk]) -> list[Chunk]:
    out: list[Chunk] = []
    previous: Chunk | None = None
    for chunk in chunks:
        text = chunk[0]
        if previous is not None and _is_raised(chunk, previous):
            mark = text.strip()
            if mark.isdigit() and _is_power(previous[0], mark):
                text = text.replace(mark, f"^{mark}", 1)  # as the matcher writes 10⁹
            else:
                text = text[len(text.rstrip()) :]  # the mark goes, a line break after it stays
                out.append((text, chunk[1], MARK_LEFT))
                continue
        out.append((text, *chunk[1:]))
        if text.strip():
            previous = chunk
    return out


_EXPONENT_BASE = re.compile(r"(?<![\w.,])(?:10|2)$")
"""The figures a raised number after them is the power of: 10⁹, 2³². After any other ("in
2019¹", "Python 3.12²") a raised number is a note's mark, as after a word."""
_NUMBERED = re.compile(
    r"\b(?:table|figure|fig\.|chapter|section|step|version|page|appendix|part|note|item|"
    r"rule|article|clause|line|no\.)\s+(?:10|2)$",
    re.IGNORECASE,
)
"""A 10 or a 2 that numbers a thing ("Table 2³", "chapter 10¹"): a raised number after it
is a note's mark."""


def _is_power(before: str, mark: str) -> bool:
    """Is `mark`, raised after `before`, a power: after a 10 that numbers nothing, or
    after such a 2 when it has two digits (2¹⁶, 2³², 2⁶⁴; "Phase 2¹", "Tier 2²" are a
    label's note marks)?"""
    base = _EXPONENT_BASE.search(before)
    if base is None or _NUMBERED.search(before):
        return False
    return base.group() == "10" or len(mark) >= 2


def _is_raised(chunk: Chunk, previous: Chunk) -> bool:
    """A number or dagger set smaller than the text before it on its line, and raised: a
    note's mark, or a power after its base."""
    text, baseline, size = chunk
    before, base, body = previous
    return (
        _NOTE_MARK.fullmatch(text.strip()) is not None
        and not before.endswith("\n")
        and 0 < size <= SUPERSCRIPT * body
        and baseline > base + 0.1 * body
    )


def _with_word_spacing_as_offsets(page: PageObject) -> PageObject:
    """The page with its word spacing (``Tw``) drawn as offsets after each space.

    Justified text is set by stretching the spaces with ``Tw`` (word processors, groff,
    PDFWriter). pypdf measures a run of text without that stretch, so the next run on the
    line seems to start after a gap, and it puts a space inside a word: "th e", "of fice"
    at a ligature, "imple -" before a hyphen. The same stretch written as a ``TJ`` offset
    after each space draws the same page, and pypdf counts offsets. Only the page's own
    content is rewritten, in memory; text in form XObjects is read as it is.
    """
    from pypdf.generic import NameObject

    contents = page.get("/Contents")
    if contents is None or b"Tw" not in _raw(page):
        return page
    from pypdf.generic import ContentStream

    stream = ContentStream(contents.get_object(), page.pdf, "bytes")
    rewritten = _spacing_rewritten(stream.operations, _multibyte_fonts(page))
    if rewritten is not None:
        stream.operations = rewritten
        page[NameObject("/Contents")] = stream
    return page


def _raw(page: PageObject) -> bytes:
    contents = page.get_contents()
    return b"" if contents is None else contents.get_data()


def _multibyte_fonts(page: PageObject) -> set[str]:
    """Names of the page's composite (Type0) fonts, whose codes ``Tw`` does not stretch."""
    from pypdf.generic import DictionaryObject

    resources = page.get("/Resources")
    resources = resources.get_object() if resources is not None else None
    fonts = resources.get("/Font") if isinstance(resources, DictionaryObject) else None
    fonts = fonts.get_object() if fonts is not None else None
    if not isinstance(fonts, DictionaryObject):
        return set()
    return {
        str(name)
        for name, font in fonts.items()
        if not isinstance(font.get_object(), DictionaryObject)  # unknown: leave its text be
        or font.get_object().get("/Subtype") == "/Type0"
    }


def _number(value: Any) -> float:
    """An operand as a number; anything else (a damaged stream) as 0, which rewrites nothing."""
    return float(value) if isinstance(value, (int, float)) else 0.0


Operation = tuple[list[Any], bytes]


def _spacing_rewritten(operations: list[Operation], multibyte: set[str]) -> list[Operation] | None:
    """The operations with every text shown under a non-zero ``Tw`` as a ``TJ`` whose
    spaces are followed by the offset ``Tw`` stands for; None when nothing was stretched."""
    spacing, size, font, saved = 0.0, 0.0, "", []
    out: list[Operation] = []
    changed = False
    for operands, operator in operations:
        if operator == b"q":
            saved.append(spacing)
        elif operator == b"Q" and saved:
            spacing = saved.pop()
        elif operator == b"Tw" and operands:
            spacing = _number(operands[0])
        elif operator == b"Tf" and len(operands) == 2:
            font, size = str(operands[0]), _number(operands[1])
        elif spacing and size and font not in multibyte and _shows_text(operator, operands):
            out.extend(_shown_with_offsets(operands, operator, spacing, size))
            changed = True
            continue
        out.append((operands, operator))
        if operator == b'"' and operands:
            spacing = _number(operands[0])
    return out if changed else None


def _shows_text(operator: bytes, operands: list[Any]) -> bool:
    if not operands:
        return False
    if operator == b"TJ":
        return isinstance(operands[0], list)
    return operator in (b"Tj", b"'") and isinstance(operands[0], (str, bytes))


def _shown_with_offsets(
    operands: list[Any], operator: bytes, spacing: float, size: float
) -> list[Operation]:
    from pypdf.generic import ArrayObject, FloatObject

    offset = FloatObject(-spacing * 1000 / size)  # a TJ number is in thousandths of the size
    parts = operands[0] if operator == b"TJ" else [operands[0]]
    array = ArrayObject()
    for part in parts:
        shows_text = isinstance(part, (str, bytes))
        array.extend(_split_after_spaces(part, offset) if shows_text else [part])
    shown: list[Operation] = [([array], b"TJ")]
    return [([], b"T*"), *shown] if operator == b"'" else shown


def _split_after_spaces(part: str | bytes, offset: Any) -> list[Any]:
    """A string shown as pieces that end at a space, the offset after each space. The
    content is parsed as bytes, so a string is the font's own codes (``Tw`` stretches
    code 32)."""
    from pypdf.generic import ByteStringObject

    data = part.encode(CARRIER) if isinstance(part, str) else bytes(part)
    pieces = data.split(b" ")
    out: list[Any] = []
    for index, piece in enumerate(pieces):
        last = index == len(pieces) - 1
        chunk = piece if last else piece + b" "
        if chunk:
            out.append(ByteStringObject(chunk))
        if not last:
            out.append(offset)
    return out


RUNNING_EDGE = 3
"""Lines at the top and at the bottom of a page where a running head or foot stands."""


def without_running_lines(layouts: list[str]) -> list[str]:
    """The pages' layouts without their running heads and feet: a line among the first or
    the last `RUNNING_EDGE` of a page that stands so on most pages, its numbers aside
    ("Page 3", a title, a date). They would otherwise stand inside a sentence that runs
    on to the next page. Such a line with words in it goes wherever it stands on a page,
    since a footnote or a figure drawn before the body pushes a foot up among the lines
    (WordPerfect's PDFs); a bare number, as a page number is, only from the edges, since
    the body has numbers of its own."""
    if len(layouts) < 2:
        return layouts
    pages = [[line for line in layout.splitlines() if line.strip()] for layout in layouts]
    seen = Counter(key for lines in pages for key in {_running_key(x) for x in _edges(lines)})
    most = max(2, -(-3 * len(pages) // 5))  # on three pages in five, and two at least
    running = {key for key, count in seen.items() if count >= most}
    return ["\n".join(_kept(lines, running)) for lines in pages]


def _edges(lines: list[str]) -> list[str]:
    return lines[:RUNNING_EDGE] + lines[RUNNING_EDGE:][-RUNNING_EDGE:]


def _kept(lines: list[str], running: set[str]) -> list[str]:
    """A page's lines but its running ones."""
    last = len(lines) - RUNNING_EDGE
    return [
        line
        for index, line in enumerate(lines)
        if not _is_running(_running_key(line), index < RUNNING_EDGE or index >= last, running)
    ]


def _is_running(key: str, at_edge: bool, running: set[str]) -> bool:
    return key in running and (at_edge or _WORD.search(key) is not None)


def _running_key(line: str) -> str:
    return _DIGITS.sub("#", " ".join(line.split())).casefold()


def flowed(layout: str) -> str:
    """A page's layout lines as one line: hyphenated words joined, whitespace collapsed."""
    lines = layout.replace("\r\n", "\n").replace("\r", "\n")
    lines = _SOFT_HYPHENATED.sub(r"\1", lines)
    joined = _COMPOUND.sub(r"\1\2", _HYPHENATED.sub(r"\1", lines))
    return _LAYOUT_SPACE.sub(" ", joined).strip()


def _one_line(error: BaseException) -> str:
    return " ".join(str(error).split()) or type(error).__name__


def _damage(error: Exception) -> str:
    """What pypdf said of the damage: its own errors speak for themselves; Python's own
    ("mypy", "list index out of range") need their name to mean anything."""
    from pypdf.errors import PyPdfError

    said = _one_line(error)
    named = isinstance(error, PyPdfError) or said == type(error).__name__
    return said if named else f"{type(error).__name__}: {said}"
