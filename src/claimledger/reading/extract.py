"""Turn a fetched page into the text a reader sees, so quotes are matched against content only.

Pure: strings in, a string out; no network, no disk, no clock.

HTML is parsed once with lxml's HTML parser and walked as lxml events: building
a BeautifulSoup tree over the same parser took ~5x longer on a 128 KiB docs page
(50 ms against 11 ms for the whole extraction), too slow for a refresh of
hundreds of pages. A source's ``select`` is compiled to XPath once by cssselect;
the known content containers are found by three scans of the tree, with no CSS
compiled (a page read by the built-in guesses never loads cssselect).

The content root (a source's ``select``, else a known docs-platform container,
else ``article``, ``[role=main]``, ``main``, else the body) is walked into
lines: block elements break lines, inline elements join without invented
spaces, table rows become ``a | b | c``, ``<pre>`` keeps its lines,
``<sup>2</sup>`` becomes ``^2``. Navigation, headers, footers, forms, scripts,
hidden elements, struck-out words (``<del>``, ``<s>``) and sidebars are dropped.
Outside the content root (or when the body is the root) so are ``<aside>`` sidebars
and consent banners named by a whole class or id (``cookie-banner``, ``consent``,
``onetrust-consent-sdk``); inside it an ``<aside>`` is a callout and a
``#cookie-attributes`` section is content.

A PDF (carried as text by the fetcher, one character a byte) is read by
:mod:`claimledger.reading.pdf`: one line a page, its layout undone.

Plain text, markdown, JSON and source files pass through with only their line
endings normalised; :func:`text_kind` tells the matcher how to read them.

Exceptions: :class:`PageUnreadable` (a ``ValueError``) when a ``select`` is
invalid or matches nothing, or a page cannot be parsed: lxml gives up on a page
nested deeper than it allows (2,048 elements) and keeps only what came before,
so such a page is an error, never an empty or shortened text whose quotes would
look removed.
"""

from __future__ import annotations

import html
import posixpath
import re
from collections.abc import Callable, Iterable, Iterator
from itertools import islice
from urllib.parse import urlsplit

from lxml import etree

from claimledger.errors import PageUnreadable
from claimledger.reading.decoding import media_type_of
from claimledger.reading.match import TextKind
from claimledger.reading.pdf import is_pdf, pdf_text
from claimledger.reading.seen import (
    PAGE,
    Shown,
    breaks_line,
    handed_down,
    hidden_by_markup,
    is_unseen,
    passed_down,
    shown_inside,
    starts_line,
)
from claimledger.versions import EXTRACT

VERSION = EXTRACT  # the reader's version, named by every snapshot and check it made


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_HTML_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_MARKDOWN_TYPES = frozenset({"text/markdown", "text/x-markdown", "text/x-web-markdown"})
_CODE_TYPES = frozenset(
    {"application/javascript", "application/typescript", "application/x-python", "text/javascript"}
)
_NOT_CODE_TYPES = frozenset({"text/x-rst", "text/x-log"}) | _MARKDOWN_TYPES
_MARKDOWN_SUFFIXES = frozenset({".md", ".markdown", ".mdx"})
_CODE_SUFFIXES = _words(
    """.ts .tsx .mts .cts .js .jsx .mjs .cjs .py .pyi .go .rs .java .kt .kts .scala .swift .c .h
    .cc .cpp .hpp .cs .rb .php .sh .bash .zsh .lua .pl .sql .toml .yaml .yml"""
)

_DROPPED_TAGS = _words(
    """script style noscript template svg nav footer form button input select textarea
    option label iframe object embed canvas dialog head title meta link del s strike
    noembed noframes video audio annotation annotation-xml desc meter progress datalist rp"""
)
"""Elements whose text is not the page's content. ``<del>``, ``<s>`` and ``<strike>`` are
words struck out, which the page says no longer hold: a quote found only there is not
said by the page, and "within <del>14</del><ins>7</ins> days" reads "within 7 days".
A ``<video>``'s or ``<audio>``'s words, a ``<meter>``'s or ``<progress>``'s (a browser
draws a bar), ``<noembed>`` and ``<noframes>``, are fallbacks a browser does not show, as
it shows no ``<datalist>`` and no ruby's ``<rp>`` (its brackets around a reading); a
formula's ``<annotation>`` is its source (TeX), not shown, and an SVG's ``<desc>``
describes the drawing to assistive software, as its ``<title>`` names it (an image's
``alt``, not its words)."""
_DROPPED_ROLES = frozenset({"navigation", "banner", "contentinfo", "search"})
_BANNER_NAME = re.compile(
    r"""
      cookies? | consent | gdpr | banner
    | (?:[a-z0-9]+[-_])* (?:cookies?|consent|gdpr) [-_]?
      (?:banner|bar|notice|notification|popup|modal|dialog|overlay|prompt|message|wall|consent)
      (?:[-_][a-z0-9]+)*
    | (?:[a-z0-9]+[-_])+ banner (?:[-_][a-z0-9]+)*
    | (?:onetrust|ot-sdk|optanon|cookiebot|cybotcookiebot|cookieyes|cky-consent|didomi
        |usercentrics|truste|osano|termly|qc-cmp|sp_message|cc-window|cc-banner) [\w-]*
    """,
    re.VERBOSE,
)
_SKIP_LINK = re.compile(r"\s*skip\s+to\b", re.IGNORECASE)
_LAYOUT_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_LAYOUT_BREAKS = "\t\n\r\f\v"
_BLANK_RUNS = re.compile(r"\n{3,}")
_MARKUP_BYTES = re.compile(
    r"<!--.*?(?:-->|\Z)|<(script|style)\b.*?(?:</\1\s*>|\Z)|<[^>]*>?", re.DOTALL | re.IGNORECASE
)
_WORD = re.compile(r"\w")
_DOCUMENT_END = re.compile(r"</(?:body|html)[ \t\n\r\f]*>", re.IGNORECASE)
_RESOURCE_LIMIT = etree.ErrorTypes.ERR_RESOURCE_LIMIT  # how lxml reports a page nested too deeply
_UNREADABLE = "the page's text could not be extracted (nested too deeply?)"


_CONTENT_ROOTS: tuple[str, ...] = (
    ".sl-markdown-content",  # Starlight
    ".markdown-body",  # GitHub
    ".theme-doc-markdown",  # Docusaurus
    ".md-content",  # MkDocs
    "div[role=main]",  # Sphinx
    ".document",  # Sphinx, older themes
    "article",
    "[role=main]",
    "main",
)


# --------------------------------------------------------------------------
# Public API
# --------------------------------------------------------------------------


def extract_text(body: str, content_type: str, *, select: str | None = None) -> str:
    """The text a reader sees on the page: one line per block, content only.

    ``select`` (a CSS selector) names the content region and wins over the
    built-in guesses; it is ignored for pages that are not HTML. A page the
    parser could not read to its end (nested too deeply) raises
    :class:`PageUnreadable` rather than reading as empty or cut short; a page
    with no text, or only boilerplate, is "".
    """
    if is_pdf(_media(content_type), body):
        return pdf_text(body)
    if not is_html(content_type, body):
        return normalize_newlines(body)
    root = parse_html(body)
    text = "" if root is None else _content_text(root, select)
    if not text and _parse_lost_text(root, body):
        raise PageUnreadable(_UNREADABLE)
    return text


def narrow_lines(text: str, first: int, last: int) -> str:
    """Lines ``first`` to ``last`` (1-based, inclusive), as a ``#L10-L40`` anchor names them.

    Lines past the end of the text are simply absent, so a shortened file
    yields fewer lines (possibly none).
    """
    if first < 1 or last < first:
        raise PageUnreadable(
            f"line range L{first}-L{last} is not a valid range: use L<first>-L<last>"
        )
    lines = normalize_newlines(text).split("\n")
    return "\n".join(lines[first - 1 : last])


def _media(content_type: str) -> str:
    return media_type_of(content_type) or ""


def text_kind(content_type: str, path: str = "") -> TextKind:
    """How the matcher should read a non-HTML body: prose, raw markdown, or source code.

    ``path`` is the URL or file path the body came from; its suffix wins over a
    generic content type such as ``text/plain`` (raw file hosts serve everything so). An
    HTML page is read as prose whatever its address says: a site renders its
    `README.md` into HTML, and the extracted text is what a reader sees.
    """
    media = _media(content_type)
    if media in _HTML_TYPES:
        return "text"
    suffix = posixpath.splitext(urlsplit(path).path)[1].lower() if path else ""
    if suffix in _MARKDOWN_SUFFIXES or media in _MARKDOWN_TYPES:
        return "markdown"
    if suffix in _CODE_SUFFIXES or media in _CODE_TYPES:
        return "code"
    if media.startswith("text/x-") and media not in _NOT_CODE_TYPES:
        return "code"
    return "text"


# --------------------------------------------------------------------------
# Parsing and choosing the content root
# --------------------------------------------------------------------------


def _content_text(root: etree._Element, select: str | None) -> str:
    if select is not None:
        return _selected_text(root, select)
    for regions in _content_root_candidates(root):
        text = _render(regions, outside_root=False)
        if text:
            return text
    body_element = root.find("body")
    return _render([(root if body_element is None else body_element, PAGE)], outside_root=True)


def _parse_lost_text(root: etree._Element | None, body: str) -> bool:
    """Do the page's bytes show words that its parsed tree holds nowhere (a parse that gave up)?

    A page of boilerplate only, or of nothing, extracts to "" honestly: its
    tree still holds its words (or there were none).
    """
    if not _WORD.search(html.unescape(_MARKUP_BYTES.sub(" ", body))):
        return False
    held = "" if root is None else "".join(t for t in root.itertext() if isinstance(t, str))
    return not _WORD.search(held)


def is_html(content_type: str, body: str) -> bool:
    """Is the page read as HTML (its type says so, or an untyped body looks it)?"""
    media = _media(content_type)
    if media in _HTML_TYPES:
        return True
    if media not in ("", "application/octet-stream"):
        return False
    head = body.lstrip()[:15].lower()
    return head.startswith(("<!doctype html", "<html"))


def normalize_newlines(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n")


def parse_html(body: str) -> etree._Element | None:
    """Parse leniently; ``None`` for a page with no markup at all (an empty document).

    A NUL in the page is left out, as a browser's parser leaves it out of the text it
    shows: libxml2 made each one a U+FFFD inside the words, and a quote a reader sees
    whole read as reworded. So are the end tags of ``<body>`` and ``<html>``: libxml2
    dropped every word after ``</html>``, and read those after ``</body>`` outside the
    body, where a browser shows them at the body's end."""
    if not body.strip():
        return None
    parser = etree.HTMLParser(
        encoding="utf-8", remove_comments=True, remove_pis=True, huge_tree=True
    )
    markup = _DOCUMENT_END.sub("", body.replace("\x00", ""))
    try:
        root = etree.fromstring(markup.encode("utf-8", "replace"), parser)
    except etree.LxmlError as error:
        raise PageUnreadable(f"page could not be parsed as HTML: {error}") from error
    if any(error.type == _RESOURCE_LIMIT for error in parser.error_log):
        raise PageUnreadable(_UNREADABLE)  # the parser stopped part way: the rest is lost
    return root


def _content_root_candidates(
    root: etree._Element,
) -> Iterator[list[tuple[etree._Element, Shown]]]:
    """Each known kind of content region present on the page, best first, each with what
    those around it pass down (`Shown`), boilerplate excluded: a region inside
    boilerplate, or one that is itself (an `<article hidden>`, a `<main>` styled
    `display: none`, which no reader sees, and which hid the page's shown text). A kind
    whose every region's own words are hidden (`visibility: hidden`) is passed over too:
    the words shown inside it are read with the page's around it."""
    known = _known_roots(root)
    for select in _CONTENT_ROOTS:
        matched = known[select] if select in known else compiled_selector(select)(root)
        inside = _under_any(matched, lambda a: _is_boilerplate(a) or _is_outside_only(a))
        regions = _outermost(
            [
                el
                for el, bad in zip(matched, inside, strict=True)
                if not bad and not _is_boilerplate(el)
            ]
        )
        passed = list(zip(regions, passed_down(regions), strict=True))
        if any(shown_inside(el, above).words_drawn for el, above in passed):
            yield passed


_ROOT_CLASSES = tuple(select[1:] for select in _CONTENT_ROOTS if re.fullmatch(r"\.[\w-]+", select))
_WITH_ROOT_CLASS = etree.XPath(
    "//@class[" + " or ".join(f"contains(., '{name}')" for name in _ROOT_CLASSES) + "]"
)
_MAIN_ROLE = etree.XPath("//@role[. = 'main']")
_ROOT_TAGS = tuple(select for select in _CONTENT_ROOTS if select.isalpha())
_XML_SPACE = re.compile(r"[ \t\r\n]+")


def _known_roots(root: etree._Element) -> dict[str, list[etree._Element]]:
    """What the selectors of `_CONTENT_ROOTS` match, as cssselect reads them (a class is a
    word of the attribute as normalize-space splits it), in three scans of the tree rather
    than one a selector, and with no CSS compiled (cssselect loads for a source's own)."""
    known: dict[str, list[etree._Element]] = {f".{name}": [] for name in _ROOT_CLASSES}
    for element, value in _owners(_WITH_ROOT_CLASS(root)):
        words = set(_XML_SPACE.split(value))
        for name in _ROOT_CLASSES:
            if name in words:
                known[f".{name}"].append(element)
    mains = [element for element, _ in _owners(_MAIN_ROLE(root))]
    known["[role=main]"] = mains
    known["div[role=main]"] = [element for element in mains if element.tag == "div"]
    known |= {tag: [] for tag in _ROOT_TAGS}
    for element in root.iter(*_ROOT_TAGS):  # the parser writes tag names in lower case
        known[str(element.tag)].append(element)
    return known


def _owners(found: object) -> list[tuple[etree._Element, str]]:
    """The elements whose attributes an XPath found, with each attribute's value."""
    owned = []
    for value in found if isinstance(found, list) else []:
        element = value.getparent() if isinstance(value, etree._ElementUnicodeResult) else None
        if element is not None:
            owned.append((element, str(value)))
    return owned


def _outermost(elements: list[etree._Element]) -> list[etree._Element]:
    chosen = set(elements)
    inside = _under_any(elements, chosen.__contains__)
    return [el for el, within in zip(elements, inside, strict=True) if not within]


def _under_any(
    elements: list[etree._Element], marked: Callable[[etree._Element], bool]
) -> list[bool]:
    """For each element, whether any of its ancestors is `marked` (each judged once)."""
    return handed_down(elements, False, lambda element, within: within or marked(element))


def _selected_text(root: etree._Element, select: str) -> str:
    """The text of what the source's selector names. Elements `visibility: hidden` (or
    inside one) are read for the words of those in them that say `visible`: if there are
    none, the selector named only text no reader sees."""
    regions = _selected(root, select)
    text = _render(regions, outside_root=False)
    if not text and not any(shown_inside(el, above).words_drawn for el, above in regions):
        raise _only_unseen(select)
    return text


def _selected(root: etree._Element, select: str) -> list[tuple[etree._Element, Shown]]:
    """The outermost elements the source's selector names that a reader may see, each with
    what those around it pass down (`Shown`): one hidden, or inside a hidden element, a
    `<template>`, struck-out words or a part of a drawing that draws nothing (`opacity`
    0), shows no reader its text, however plainly the selector names it."""
    regions = _outermost(compiled_selector(select)(root))
    if not regions:
        raise PageUnreadable(
            f"select {select!r} matched nothing on this page: check the selector against the page"
        )
    within = _under_any(regions, is_unseen)
    seen = [
        el for el, under in zip(regions, within, strict=True) if not under and not is_unseen(el)
    ]
    drawn = [
        (el, above)
        for el, above in zip(seen, passed_down(seen), strict=True)
        if not shown_inside(el, above).removed
    ]
    if not drawn:
        raise _only_unseen(select)
    return drawn


def _only_unseen(select: str) -> PageUnreadable:
    return PageUnreadable(
        f"select {select!r} matched only text no reader sees on this page (hidden,"
        " or struck out): check the selector against the page"
    )


Selector = Callable[[etree._Element], list[etree._Element]]


def compiled_selector(select: str) -> Selector:
    """A CSS selector as the XPath it is applied as (translated once: `xpath_of`). Raises
    PageUnreadable for one that is not valid CSS, or cannot be applied.

    The XPath is compiled for each page: lxml 6.2 fails on one holding its CSS functions
    (`:contains()`) when applied to a second document."""
    from claimledger.reading.selectors import xpath_of

    try:
        path = xpath_of(select)
    except ValueError as error:
        raise PageUnreadable(str(error)) from None

    def elements(root: etree._Element) -> list[etree._Element]:
        found = etree.XPath(path)(root)
        return (
            [el for el in found if isinstance(el, etree._Element)]
            if isinstance(found, list)
            else []
        )

    return elements


# --------------------------------------------------------------------------
# Rendering the content root to lines
# --------------------------------------------------------------------------


def _is_boilerplate(element: etree._Element) -> bool:
    """Elements a reader does not read as the page's content, wherever they are."""
    tag = element.tag
    if not isinstance(tag, str):
        return True
    if tag in _DROPPED_TAGS:
        return True
    get = element.get
    role = (get("role") or "").strip().lower()
    hidden = hidden_by_markup(element) or (get("aria-hidden") or "").strip().lower() == "true"
    if hidden and role != "tabpanel":  # see `hidden_by_markup`
        return True
    if role in _DROPPED_ROLES:
        return True
    if tag == "a" and (get("href") or "").startswith("#"):
        return _is_skip_link(element) or _is_permalink(element) or _is_footnote_mark(element)
    return tag == "sup" and _is_footnote_mark(element)


def _left_out(element: etree._Element, outside_root: bool) -> bool:
    """Is the element, and all in it, left out of the text (outside the content root, the
    boilerplate there as well)?"""
    return _is_boilerplate(element) or (outside_root and _is_outside_only(element))


def _is_outside_only(element: etree._Element) -> bool:
    """Boilerplate only outside the content root: sidebars, site headers, consent banners.

    Inside the root an ``<aside>`` is a callout, a ``<header>`` holds the page's title,
    and a page about HTTP cookies has a ``#cookie-attributes`` section; so this is
    never applied there.
    """
    tag = element.tag
    if tag in ("aside", "header"):
        return True
    if tag in ("html", "body"):
        return False
    names = (element.get("class") or "").lower().split()
    names.append((element.get("id") or "").strip().lower())
    return any(_BANNER_NAME.fullmatch(name) for name in names if name)


_PERMALINK_TEXT = frozenset({"", "#", "¶", "§", "🔗", "\u200b", "link", "permalink"})


def _is_permalink(element: etree._Element) -> bool:
    """A heading's anchor link ("#", "¶"): site furniture, not the heading's words."""
    text = "".join(t for t in element.itertext() if isinstance(t, str)).strip().lower()
    return text in _PERMALINK_TEXT


_FOOTNOTE_HREF = re.compile(r"^#(?:fn|footnote|user-content-fn|id\d)", re.IGNORECASE)
_FOOTNOTE_CLASS = re.compile(r"footnote", re.IGNORECASE)


MARK_LINKS = 8
"""A footnote mark's `<sup>` holds a link or a few ("^1,2"): its first links are read."""


def _is_footnote_mark(element: etree._Element) -> bool:
    """A footnote's reference mark ("^1", "[1]") or a back-link ("↩"): not the sentence's
    words. Only a `<sup>`'s first `MARK_LINKS` links are read: each of a thousand nested
    `<sup>`s once read every link below it."""
    links = [element] if element.tag == "a" else islice(element.iter("a"), MARK_LINKS)
    for link in links:
        href, names = link.get("href") or "", link.get("class") or ""
        marked = _FOOTNOTE_HREF.match(href) or _FOOTNOTE_CLASS.search(names)
        text = "".join(t for t in link.itertext() if isinstance(t, str)).strip()
        if marked and (len(text) <= 4 or text in ("↩", "↩︎")):
            return True
    return False


def _is_skip_link(element: etree._Element) -> bool:
    text = "".join(t for t in element.itertext() if isinstance(t, str))
    return bool(_SKIP_LINK.match(text))


class _Lines:
    """Collects text into lines: inline text joins as it comes, blocks break the line."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self._pieces: list[str] = []

    def add(self, text: str | None) -> None:
        if text:
            self._pieces.append(text)

    def add_line(self, line: str) -> None:
        self.end_line()
        self.lines.append(line)

    def end_line(self) -> None:
        if self._pieces:
            line = _collapsed("".join(self._pieces))
            self._pieces = []
            if line:
                self.lines.append(line)


def _collapsed(text: str) -> str:
    """The text with each run of layout whitespace made one space, trimmed. Most lines of
    a page hold single spaces only; telling that by `in` costs a tenth of a substitution
    that puts every one of them back in place."""
    if "  " in text or any(space in text for space in _LAYOUT_BREAKS):
        text = _LAYOUT_SPACE.sub(" ", text)
    return text.strip()


class _Row:
    """A table row being read: its cells' texts, in order."""

    def __init__(self) -> None:
        self.cells: list[str] = []


class _Pre:
    """Preformatted text being read: kept as written."""

    def __init__(self) -> None:
        self.pieces: list[str] = []
        self.depth = 1

    def add(self, text: str | None) -> None:
        if text:
            self.pieces.append(text)

    def break_line(self) -> None:
        if self.pieces and not self.pieces[-1].endswith("\n"):
            self.pieces.append("\n")


class _Renderer:
    """Turns lxml start/end events into lines (an explicit stack: deep pages cannot overflow)."""

    def __init__(self) -> None:
        self.out = _Lines()
        self._stack: list[_Lines | _Row | _Pre] = [self.out]
        self._cells: list[etree._Element] = []
        self._drawn: list[bool] = [True]  # are the open elements' own words drawn?
        self._marks = 0  # open `<sup>`s whose "^" waits for a word drawn in them

    @property
    def top(self) -> _Lines | _Row | _Pre:
        return self._stack[-1]

    def text(self, text: str | None) -> None:
        top = self.top
        if not text or not self._drawn[-1] or isinstance(top, _Row):  # between cells: layout
            return
        if self._marks and not _LAYOUT_SPACE.fullmatch(text):  # space is no word shown
            text = "^" * self._marks + text
            self._marks = 0
        top.add(text)

    def enter(self, region: etree._Element, drawn: bool) -> None:
        """A region's start: its text, and its lines break before."""
        self.out.end_line()
        self._drawn.append(drawn)
        self.text(region.text)

    def leave(self) -> None:
        self._drawn.pop()
        self.out.end_line()

    def start(self, element: etree._Element, drawn: bool) -> None:
        """An element's start; its own words are `drawn`, or only laid out (`visibility:
        hidden`), their place kept, their lines broken."""
        tag, top = element.tag, self.top
        self._drawn.append(drawn)
        if isinstance(top, _Pre):
            self._start_in_pre(element, top)
        elif tag == "br":
            self._lines().end_line()
        elif tag == "pre":
            self._lines().end_line()
            self._stack.append(_Pre())
        elif tag == "tr":
            self._lines().end_line()
            self._stack.append(_Row())
        elif tag in ("td", "th") and isinstance(top, _Row):
            self._cells.append(element)
            self._stack.append(_Lines())
        elif starts_line(element):
            self._lines().end_line()
        if tag == "sup":
            self._marks += 1  # its "^" is written before the first word drawn in it
        self.text(element.text)

    def _start_in_pre(self, element: etree._Element, pre: _Pre) -> None:
        tag = element.tag
        if tag == "br":
            pre.add("\n")
        elif tag == "pre":
            pre.depth += 1
        elif starts_line(element):
            pre.break_line()

    def end(self, element: etree._Element) -> None:
        """An element's end. A row, or preformatted text, none of whose words are drawn is
        no line (as if left out), where one drawn but empty is an empty line."""
        tag, top = element.tag, self.top
        drawn = self._drawn.pop()
        if tag == "sup" and self._marks:
            self._marks -= 1  # none of its words drawn: no mark
        if isinstance(top, _Pre):
            self._end_in_pre(element, top, drawn)
        elif tag == "tr" and isinstance(top, _Row):
            self._stack.pop()
            if drawn or any(top.cells):
                self._lines().add_line(" | ".join(cell for cell in top.cells if cell))
        elif self._cells and element is self._cells[-1] and isinstance(top, _Lines):
            self._cells.pop()
            self._stack.pop()
            top.end_line()
            row = self.top
            if isinstance(row, _Row):
                row.cells.append(" ".join(top.lines))
        elif breaks_line(element):
            self._lines().end_line()

    def _end_in_pre(self, element: etree._Element, pre: _Pre, drawn: bool) -> None:
        if element.tag == "pre":
            pre.depth -= 1
            if pre.depth == 0:
                self._stack.pop()
                lines = self._lines()
                lines.end_line()
                written = "".join(pre.pieces)
                for line in written.strip("\n").split("\n") if drawn or written.strip() else ():
                    lines.add_line(line.rstrip())
        elif breaks_line(element):
            pre.break_line()

    def _lines(self) -> _Lines:
        """The innermost line collector (a row's cell, or the page)."""
        for frame in reversed(self._stack):
            if isinstance(frame, _Lines):
                return frame
        return self.out


def _render(regions: Iterable[tuple[etree._Element, Shown]], *, outside_root: bool) -> str:
    """The regions' text, each region with what those around it pass down to it;
    ``outside_root`` when no content root was found (the body is read)."""
    renderer = _Renderer()
    for region, above in regions:
        walker = etree.iterwalk(region, events=("start", "end"))
        skipped: set[etree._Element] = set()
        passed = [above]  # what each open element passes down to those in it
        for event, element in walker:
            if event == "start":
                shown = shown_inside(element, passed[-1])
                if element is not region and (shown.removed or _left_out(element, outside_root)):
                    skipped.add(element)
                    walker.skip_subtree()
                    continue
                passed.append(shown)
                if element is region:
                    renderer.enter(element, shown.words_drawn)
                else:
                    renderer.start(element, shown.words_drawn)
            elif element is region:
                renderer.leave()
            else:
                if element not in skipped:
                    passed.pop()
                    renderer.end(element)
                renderer.text(element.tail)
    renderer.out.end_line()
    return _BLANK_RUNS.sub("\n\n", "\n".join(renderer.out.lines)).strip("\n")
