"""Escaping for the report's output formats: everything from a web page or the ledger is
escaped for its target format (GitHub Markdown or HTML) here, in one place, so that no
template or renderer can forget it or do it slightly differently.

* `md_escape` turns plain text into GitHub Markdown that shows exactly that text;
  `md_link`, `md_url`, `md_anchor` and `code_block` build the only links, ids and code
  blocks a Markdown report holds. Their results are `MarkdownText`, which a Markdown
  template prints as it is.
* `author_markdown` and `author_html` write the author's own Markdown (intros, about) out
  from its markdown-it-py parse (raw HTML off, no images, links only to http(s) and
  in-page anchors), as Markdown (by mdformat's renderer) or as HTML.
* `text_fragment_link` links to a quoted sentence on its page; `excerpt` shortens a
  quote to one line.

A link goes only to an in-page `#anchor` or to an http(s) URL, shown as
`claimledger.urls.safe_url` shows it: never with `user:pass@`, never with the value of a
query parameter that looks like a secret.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any

from markdown_it import MarkdownIt
from markdown_it.token import Token
from markupsafe import Markup
from mdformat.renderer import MDRenderer

from claimledger.report.bidi import BIDI_CLASS, BIDI_MARKERS, bidi_marked
from claimledger.report.cimarks import json_marks_escaped
from claimledger.report.jsontext import TERMINAL_CONTROLS, indented_json
from claimledger.urls import has_secrets, redact_urls, safe_url

# --------------------------------------------------------------------------- Markdown escaping


class MarkdownText(str):
    """Text that is already Markdown: the Markdown templates print it as it is."""

    __slots__ = ()


_LINE_BREAK = re.compile(r"[ \t]*(?:\r\n|[\r\n\v\f\x85\u2028\u2029])[ \t]*")
_CONTROL = re.compile(r"[\x00-\x08\x0e-\x1f\x7f-\x84\x86-\x9f]")
_MD_ESCAPES = str.maketrans(
    {
        "\\": "\\\\",
        "`": "\\`",
        "*": "\\*",
        "_": "\\_",
        "[": "\\[",
        "]": "\\]",
        "|": "\\|",
        "~": "\\~",
        "$": "\\$",
        "#": "\\#",
        "@": "\\@",
        "<": "&lt;",
        ">": "&gt;",
        "&": "&amp;",
        **{chr(code): marker for code, marker in BIDI_MARKERS.items()},
    }
)
_SCHEME_COLON = re.compile(r"\b(https?|mailto|xmpp):(?=\S)", re.IGNORECASE)
"""The schemes GitHub turns into links by themselves (its extended autolinks); any other
colon (`rule:quotes`, `note: …`) is plain text and stays unescaped."""
_WWW_DOT = re.compile(r"(www)\.", re.IGNORECASE)
_EMAIL_AT = re.compile(r"(?<=[A-Za-z0-9._+-])\\@")
"""An `@` after what could be an address's local part: GitHub links `name@host` even when
the `@` is escaped, so an invisible word joiner goes between them."""
_LEADING_MARKER = re.compile(r"^(?:([-+=:])|(\d+)([.)]))")
_ESCAPE_NEEDED = re.compile(rf"[\x00-\x1f\x7f-\x9f\u2028\u2029\\`*_\[\]|~$#@<>&{BIDI_CLASS}]")
"""Characters `md_escape` changes (a control character or line break, a character escaped
or turned into an entity, a bidirectional control shown as its marker). With a leading
space or list marker, a trailing space, a scheme's colon and `www.`, that is all it
changes: most text of a report holds none of it, and is Markdown as it is."""
_PLAIN_START = frozenset("-+=: 0123456789")


_OTHER_BREAK = re.compile(r"\r\n?|[\v\f\x85]")
"""The line breaks other than a newline: HTML reads a carriage return as one anyway, but
on a terminal (`render -o -`) it sends the cursor back to overwrite what came before
it, and a vertical tab or NEL is no character an HTML page may hold."""


def without_controls(text: str) -> str:
    """`text` without its control characters (tabs kept, each line break a newline), and
    with each bidirectional control shown as its marker (`⟨U+202E⟩`)."""
    if text.isprintable():  # no control character at all: most of what a report prints
        return text
    return bidi_marked(_newlines_only(text))


def _newlines_only(text: str) -> str:
    """`text` without its control characters, each line break a newline."""
    return _OTHER_BREAK.sub("\n", _CONTROL.sub("", text))


def one_line(text: str) -> str:
    """`text` on one line: line breaks become spaces, control characters go, ends trimmed."""
    flat = _LINE_BREAK.sub(" ", _CONTROL.sub("", str(text))).replace("\t", " ")
    return flat.strip(" ")


def md_escape(text: Any) -> MarkdownText:
    """Plain text as GitHub Markdown that shows exactly that text and nothing else.

    One line (a quote's newline cannot start a heading, a list or a new block quote);
    each bidirectional control shown as its marker (`⟨U+202E⟩`: no override can make the
    words after it read backwards); every character with a meaning inline is escaped
    (emphasis, code, links, tables, strikethrough, math, HTML, entities, mentions); a
    `scheme:` colon, `www.` and an address's `@` are escaped so GitHub does not turn a
    bare address into a link (an `@` by an invisible word joiner); and a leading `-`,
    `+`, `=`, `:` or `1.` cannot start a list, heading underline or table.
    """
    if isinstance(text, MarkdownText):
        return text
    return _md_escaped(text) if type(text) is str else _escaped(text)


@functools.lru_cache(maxsize=16384)
def _md_escaped(text: str) -> MarkdownText:
    """`md_escape` of a str (remembered: a report prints the same labels, dates and titles
    thousands of times)."""
    if (
        (not text or (text[0] not in _PLAIN_START and text[-1] != " "))
        and _ESCAPE_NEEDED.search(text) is None
        and (":" not in text or _SCHEME_COLON.search(text) is None)
        and ("." not in text or _WWW_DOT.search(text) is None)
    ):
        return MarkdownText(text)  # nothing in it that `_escaped` would change
    return _escaped(text)


def _escaped(text: Any) -> MarkdownText:
    """`md_escape` the long way: every step, whatever `text` holds."""
    escaped = one_line("" if text is None else str(text)).translate(_MD_ESCAPES)
    escaped = _WWW_DOT.sub(r"\1\\.", _SCHEME_COLON.sub(r"\1\\:", escaped))
    escaped = _EMAIL_AT.sub("&#x2060;\\\\@", escaped)
    return MarkdownText(_LEADING_MARKER.sub(_escape_leading, escaped, count=1))


def _escape_leading(match: re.Match[str]) -> str:
    if match.group(1):
        return "\\" + match.group(1)
    return f"{match.group(2)}\\{match.group(3)}"


def md_url(url: Any) -> MarkdownText:
    """A link destination: a safe http(s) URL, or an in-page `#anchor`; otherwise empty."""
    text = str(url or "")
    if _ANCHOR.fullmatch(text):
        return MarkdownText(text)
    quoted = _TEXT_FRAGMENT_LINK.fullmatch(text)
    if quoted is None:
        return _destination(text)
    page = _destination(quoted["page"])
    return MarkdownText(page + quoted["directive"]) if page else page


_ANCHOR = re.compile(r"#[a-z0-9._-]+")
_TEXT_FRAGMENT_LINK = re.compile(
    r"(?P<page>https?://[!\"$-~]*)(?P<directive>#:~:text=[\w.~%,-]*)", re.ASCII
)
"""A link to a quoted sentence (`text_fragment_link`): a page's address in printable ASCII
with no fragment, then a text directive of characters `safe_url` leaves as they are and
no `&` or `=`. `safe_url` of the whole is `safe_url` of the page followed by the directive,
so the page's form is worked out once for all the quotes on it."""


@functools.lru_cache(maxsize=4096)
def _destination(text: str) -> MarkdownText:
    """`md_url` of a text (remembered: a report links each source from every quote on it)."""
    return MarkdownText(safe_url(text) or "")


def md_link(text: Any, url: Any) -> MarkdownText:
    """`[text](url)` when `url` is a safe http(s) URL or an in-page `#anchor`, else the text."""
    destination = md_url(url)
    label = md_escape(text)
    return MarkdownText(f"[{label}]({destination})") if destination else label


_NOT_IN_ID = re.compile(r"[^a-z0-9._-]")
"""What an id or anchor may not hold (each such character becomes a `-`)."""


def md_anchor(anchor: Any) -> MarkdownText:
    """An id for `<a id="…">` and `(#…)`: only lowercase letters, digits, '.', '_', '-'."""
    return MarkdownText(_NOT_IN_ID.sub("-", str(anchor).lower()))


def code_block(text: Any, language: str = "") -> MarkdownText:
    """A fenced code block holding `text` literally, its fence longer than any run inside
    (its bidirectional controls shown as their markers)."""
    body = bidi_marked(_newlines_only(str(text))).rstrip("\n")
    longest = max((len(run) for run in re.findall(r"`+", body)), default=0)
    fence = "`" * max(3, longest + 1)
    tag = re.sub(r"[^A-Za-z0-9_+-]", "", language)
    return MarkdownText(f"{fence}{tag}\n{body}\n{fence}")


# --------------------------------------------------------------------------- the author's
# Markdown: parsed once, then written out as Markdown or as HTML


class _AuthorMarkdown(MarkdownIt):
    """CommonMark with raw HTML shown as text, no images (a report that loads a remote
    image tells its host who read it), and links only to http(s) URLs or in-page anchors."""

    def __init__(self) -> None:
        super().__init__("commonmark", {"html": False, "linkify": False, "typographer": False})
        self.disable("image")

    def validateLink(self, url: str) -> bool:
        return url.startswith("#") or safe_url(url) is not None


_AUTHOR_MARKDOWN = _AuthorMarkdown()


_LANGUAGE = re.compile(r"[\w#+.-]*")
"""A code fence's language, as Python-Markdown (MkDocs) reads one: an info string past
it (`~~~`<div>`) is no fence there, and its code would be read as raw HTML."""


def _plain_fence(token: Token) -> None:
    """A code fence as every renderer reads one: its info a language and nothing else, its
    code ending in a line break (a fence left open at the end of the text had none, and its
    closing fence was written on the code's last line, where only CommonMark sees none)."""
    language = _LANGUAGE.match(token.info.strip())
    token.info = language.group() if language else ""
    if not token.content.endswith("\n"):
        token.content += "\n"


def _author_tokens(text: Any) -> list[Token]:
    """The author's text as markdown-it tokens, every URL in it shown as `safe_url` shows it,
    each line break a newline and each bidirectional control as its marker."""
    source = bidi_marked(redact_urls(_newlines_only(str(text)))).strip()
    tokens = _AUTHOR_MARKDOWN.parse(source)
    for token in tokens:
        if token.type == "fence":
            _plain_fence(token)
        for child in token.children or ():
            _referenced_bidi_marked(child)
            href = child.attrGet("href")
            if child.type == "link_open" and isinstance(href, str) and has_secrets(href):
                child.attrSet("href", safe_url(href) or "#")  # user:pass@ in a link
    return tokens


def _referenced_bidi_marked(token: Token) -> None:
    """Each bidirectional control a character reference (`&#x202e;`) wrote into a text or a
    link's title shown as its marker: the parser decodes references after the source's
    own controls were marked, so one written as a reference would come out obeyed."""
    if token.type == "text":
        token.content = bidi_marked(token.content)
    title = token.attrGet("title")
    if isinstance(title, str) and _REFERENCE.search(title):
        del token.attrs["title"]  # written back as it is, the next reader would decode it
    elif isinstance(title, str):
        token.attrSet("title", bidi_marked(title))


_REFERENCE = re.compile(r"&(?:#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")
"""A character reference still in a title once decoded (`&amp;#x202e;` is `&#x202e;`):
the Markdown report writes a title as it is, and its reader decodes that reference."""


_UNESCAPED_AT = re.compile(r"(?<!\\)((?:\\\\)*)@")
_UNESCAPED_PIPE = re.compile(r"(?<!\\)((?:\\\\)*)\|")
_ANGLE = re.compile(r"(?<!\\)((?:\\\\)*)\\?<")
"""A `<` in text, escaped with a backslash or not (an even run of backslashes before it
is their own)."""


class _TextStaysText:
    """An mdformat extension: in text, every `<` is written as `&lt;` and every `@` not
    already escaped is escaped, so that no renderer that lets raw HTML through (as GitHub's
    and MkDocs' do) can read a tag in it, nor turn an address into a mailto: link (an
    address's `@` also gets the word joiner that `md_escape` gives it). A backslash before
    `<` is an escape in CommonMark only: Python-Markdown, which MkDocs renders with, keeps
    the backslash as text and reads the tag after it. Every `|` is escaped too: text that
    is no table to CommonMark (`|` on two lines) is one to Python-Markdown's tables."""

    RENDERERS: Mapping[str, Any] = {}

    @staticmethod
    def _text(text: str, node: Any, context: Any) -> str:
        text = _ANGLE.sub(r"\1&lt;", _UNESCAPED_PIPE.sub(r"\1\\|", text))
        return _EMAIL_AT.sub("&#x2060;\\\\@", _UNESCAPED_AT.sub(r"\1\\@", text))

    POSTPROCESSORS: Mapping[str, Any] = {"text": _text}


def author_markdown(text: Any) -> MarkdownText:
    """The author's own Markdown (intros, about) as Markdown built from its parse: what
    CommonMark reads as text is written back escaped, so no raw HTML, no image and no link
    but to http(s) or an in-page `#` can come out of it, whatever its backticks and
    brackets do. Ordered lists keep their numbers, as the author wrote them."""
    options = {"parser_extension": [_TextStaysText], "mdformat": {"number": True}}
    rendered = MDRenderer().render(_author_tokens(text), options, {})
    return MarkdownText(rendered.rstrip("\n"))


def author_html(text: Any) -> Markup:
    """The author's Markdown as HTML, from the same parse as `author_markdown`."""
    tokens = _author_tokens(text)
    html = _AUTHOR_MARKDOWN.renderer.render(tokens, _AUTHOR_MARKDOWN.options, {})
    return Markup(html.strip())  # rendered by markdown-it with HTML off


# --------------------------------------------------------------------------- JSON in HTML

_IN_SCRIPT = re.compile(f"[<>&\u2028\u2029\x7f-\x9f{BIDI_CLASS}]")
_JSON_ESCAPES = {
    "<": "\\u003c",
    ">": "\\u003e",
    "&": "\\u0026",
    "\u2028": "\\u2028",
    "\u2029": "\\u2029",
    **{chr(code): escape for code, escape in TERMINAL_CONTROLS.items()},
}
"""What JSON in an HTML `<script>` element writes as \\u escapes (one regex finds them all:
`str.translate` walks a report's megabytes of non-ASCII text many times slower)."""


def json_for_html(data: Any) -> str:
    """JSON that can sit inside an HTML `<script>` element as it is: `<`, `>` and `&` are
    written as \\u escapes (so no `</script>` or `<!--` can end or open anything), as are
    the two line separators JavaScript once refused in strings, DEL and the C1 controls
    (a terminal may obey them) and the bidirectional controls (a viewer may reorder the
    text by them), and a CI runner's command marks (`##[`, as JSON output writes them:
    `render -f html -o -` in a job's log). Still the same JSON value."""
    return json_marks_escaped(_IN_SCRIPT.sub(_json_escape, indented_json(data))) + "\n"


def json_for_html_pieces(items: Iterable[Any]) -> Iterator[str]:
    """`json_for_html` of the list of `items`, an item at a time: the same text, never
    whole in memory (a report's ClaimReview for tens of thousands of claims)."""
    empty = True
    for item in items:
        text = ("[" if empty else ",") + "\n  " + indented_json(item).replace("\n", "\n  ")
        yield json_marks_escaped(_IN_SCRIPT.sub(_json_escape, text))
        empty = False
    yield "[]\n" if empty else "\n]\n"


def _json_escape(match: re.Match[str]) -> str:
    return _JSON_ESCAPES[match.group()]


# --------------------------------------------------------------------------- words and ids


def anchor(kind: str, ident: str) -> str:
    """An HTML id / URL fragment that needs no escaping anywhere."""
    return f"{kind}-{_NOT_IN_ID.sub('-', ident.lower())}"


def sentence(text: Any) -> str:
    """`text` ending as a sentence does, without doubling the author's own full stop."""
    words = str(text).rstrip()
    return words if not words or words[-1] in ".!?…:;" else f"{words}."


def upper_first(text: Any) -> str:
    words = str(text)
    return words[:1].upper() + words[1:]


def excerpt(text: str, limit: int = 72) -> str:
    """The start of `text` on one line, cut at a word boundary, with an ellipsis if cut."""
    line = " ".join(text.split())
    if len(line) <= limit:
        return line
    cut = line[:limit].rsplit(" ", 1)[0] or line[:limit]
    return f"{cut}…"


_ARTICLES = frozenset({"a", "an", "the"})


def _gist(text: str) -> tuple[str, ...]:
    """The words of `text` as a comparison reads them: Unicode-folded, case-folded, without
    punctuation or articles (so "AES-256" is "aes 256", and "The gate." is "gate")."""
    words = re.findall(r"\w+", unicodedata.normalize("NFKC", text).casefold())
    return tuple(word for word in words if word not in _ARTICLES)


def statement_beyond_title(title: str, statement: str) -> str:
    """The claim's statement where it says more than its heading, else "": a statement that
    is empty, the title again (up to case, punctuation, articles), or a run of the title's
    own words adds nothing (a claim added with only a title has it as its statement too:
    shown twice, it reads as a stutter)."""
    said, heading = _gist(statement), _gist(title)
    if not said:
        return ""
    runs = (heading[start : start + len(said)] for start in range(len(heading) - len(said) + 1))
    return "" if said in runs else statement


_HEADING_LINE = re.compile(r"^ {0,3}(?:#{1,6}(?:[ \t]|$)|=+[ \t]*$|-+[ \t]*$)", re.MULTILINE)
"""A line that may be (or underline) a Markdown heading: only such text is parsed for them."""


def github_slug(text: str) -> str:
    """The id GitHub gives a heading of `text`: lower case, punctuation and symbols dropped,
    each space a hyphen."""
    lower = text.lower()
    if lower.isascii():  # most titles: one pass of a regex, not a lookup a character
        return _NOT_IN_ASCII_SLUG.sub("", lower).replace(" ", "-")
    kept = "".join(ch for ch in lower if ch in "-_ " or unicodedata.category(ch)[0] in "LNM")
    return kept.replace(" ", "-")


_NOT_IN_ASCII_SLUG = re.compile(r"[^a-z0-9_ -]")


def author_headings(text: Any) -> list[str]:
    """The text of each heading in the author's Markdown, in order."""
    if not _HEADING_LINE.search(str(text)):
        return []
    tokens = _author_tokens(text)
    return [
        "".join(child.content for child in tokens[i + 1].children or () if child.content)
        for i, token in enumerate(tokens)
        if token.type == "heading_open"
    ]


def heading_ids(headings: Sequence[str]) -> list[str]:
    """The id GitHub gives each of these headings of a document, in order: a repeated one
    numbered as it numbers them (`sources`, `sources-1`), past any id an earlier heading
    took ("Foo", "Foo-1", "Foo" are `foo`, `foo-1`, `foo-2`), so that no two share one."""
    count: dict[str, int] = {}
    ids = []
    for heading in headings:
        slug = wanted = github_slug(heading)
        while slug in count:
            count[wanted] += 1
            slug = f"{wanted}-{count[wanted]}"
        count[slug] = 0
        ids.append(slug)
    return ids


# --------------------------------------------------------------------------- links to a quote


def text_fragment_link(url: str, quote: str, on_page: str | None = None) -> str:
    """A link to the quoted sentence itself (`#:~:text=`, the Text Fragments syntax).

    A short quote is matched whole; a long one as a range from its first five words to
    its last five. Each part is percent-encoded, `-`, `&` and `,` included, since those
    are the directive's own syntax. A directive the address holds already (a source added
    from a link that highlighted other words) gives way to the quote's: two would make
    one directive that matches nothing. The words are the page's own (`on_page`, where a
    check found the quote) when they are the quote's, typography aside: a browser matches
    a directive's characters as they are (Chrome folds case, never a curly quote into a
    straight one, nor a dash or an ellipsis), where the quote was found with those folded.
    """
    page, _, fragment = url.partition("#")
    words = on_page if on_page and _same_words(on_page, quote) else quote
    return f"{page}#{fragment.partition(':~:')[0]}:~:text={_text_directive(words)}"


def _same_words(on_page: str, quote: str) -> bool:
    """Whether the page's text is the quote's, once the matcher's folding is done (quote
    marks, dashes, spacing, Unicode forms): never another wording a store holds, nor a
    text file's markup (`**not**`, a backtick), which the page a reader opens shows
    rendered (a GitHub file read raw)."""
    from claimledger.reading.match.normalize import normalize

    return normalize(on_page, markup=False) == normalize(quote, markup=False)


@functools.lru_cache(maxsize=1024)
def _text_directive(quote: str) -> str:
    """The `text=` value for a quote (remembered: a quote is linked on each of its sources)."""
    words = quote.split()
    if len(words) > 12:
        return f"{_fragment_part(words[:5])},{_fragment_part(words[-5:])}"
    return _fragment_part(words)


def _fragment_part(words: Sequence[str]) -> str:
    return _percent_encoded(" ".join(words)).replace("-", "%2D")


_ENCODED = re.compile(r"[^A-Za-z0-9_.~ -]+")
_ASCII_ENCODED = {
    code: f"%{code:02X}" for code in range(128) if not re.fullmatch(r"[A-Za-z0-9_.~-]", chr(code))
}
"""The percent code of each ASCII character `quote` encodes: all but the unreserved ones."""


def _percent_encoded(text: str) -> str:
    """`urllib.parse.quote(text, safe="")`: ASCII text by one table, other text a run of
    characters to encode at a time (the report links every quote it shows)."""
    if text.isascii():
        return text.translate(_ASCII_ENCODED)
    return _ENCODED.sub(_percent_codes, text).replace(" ", "%20")


def _percent_codes(match: re.Match[str]) -> str:
    return "".join(f"%{byte:02X}" for byte in match.group().encode("utf-8"))


__all__ = [
    "MarkdownText",
    "anchor",
    "author_headings",
    "author_html",
    "author_markdown",
    "code_block",
    "excerpt",
    "github_slug",
    "heading_ids",
    "json_for_html",
    "md_anchor",
    "md_escape",
    "md_link",
    "md_url",
    "one_line",
    "sentence",
    "statement_beyond_title",
    "text_fragment_link",
    "upper_first",
    "without_controls",
]
