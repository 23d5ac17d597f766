"""A page's sections: the lines under a heading, for a quote placed `under` one.

A heading is a Markdown `#` line (outside a fenced code block), or a line holding one
of an HTML page's `<h1>`-`<h6>` (`html_headings`, read from the page's own markup). On
an HTML page only the latter: a line of its `<pre>` that begins `# ` is a shell comment.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from lxml import etree

from claimledger.reading.extract import normalize_newlines, parse_html

Heading = tuple[int, str]
"""A heading's level (1 for h1 or `#`) and its words."""

_MARKDOWN_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")
_FENCE = re.compile(r" {0,3}(`{3,}|~{3,})")


def html_headings(body: str) -> list[Heading]:
    """The headings of an HTML page, in order: their level and their words."""
    root = parse_html(body)
    if root is None:
        return []
    found: list[Heading] = []
    for element in root.iter(*HEADING_TAGS):
        words = " ".join(_heading_text(element).split())
        if words:
            found.append((int(str(element.tag)[1]), words))
    return found


HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
HEADING_MOST = 1_000
"""The characters of a heading's words that are read: a heading is a line."""


def _heading_text(heading: etree._Element) -> str:
    """A heading's own text, up to `HEADING_MOST` characters: a heading inside it (no
    valid page has one, but the parser keeps them) is a heading of its own, not its words;
    a thousand nested in one another each joined all the text below it."""
    pieces: list[str] = [heading.text or ""]
    length = len(pieces[0])
    stack: list[etree._Element | str] = _children_reversed(heading)
    while stack and length < HEADING_MOST:
        item = stack.pop()
        if isinstance(item, str):
            pieces.append(item)
            length += len(item)
            continue
        pieces.append(item.text or "")
        length += len(pieces[-1])
        stack += _children_reversed(item)
    return "".join(pieces)[:HEADING_MOST]


def _children_reversed(element: etree._Element) -> list[etree._Element | str]:
    """An element's children (but headings) and their tails, last first: a stack to read
    them from in order."""
    items: list[etree._Element | str] = []
    for child in reversed(element):
        if child.tail:
            items.append(child.tail)
        if isinstance(child.tag, str) and child.tag not in HEADING_TAGS:
            items.append(child)
    return items


def section_lines(
    text: str, under: str, headings: list[Heading], *, markdown: bool = True
) -> tuple[int, int, int] | None:
    """The lines (0-based, end excluded) from the heading that begins with `under` to the
    next heading of its level or above, and that level; None when no heading begins so.
    A heading is a line holding one of the page's `headings`, or, unless the page is
    HTML (not `markdown`), a Markdown `#` line outside a fenced code block."""
    levels = {_plain(words): level for level, words in headings}
    lines = normalize_newlines(text).split("\n")
    wanted = _plain(under)
    start = level = None
    for index, heading in _headings_in(lines, levels, markdown):
        if start is None and _begins_with(heading[1], wanted):
            start, level = index, heading[0]
        elif start is not None and level is not None and heading[0] <= level:
            return start, index, level
    return None if start is None or level is None else (start, len(lines), level)


def heading_above(
    text: str, offset: int, headings: list[Heading], level: int = 6, *, markdown: bool = True
) -> str | None:
    """The words of the nearest heading of `level` or above before character `offset`:
    the section a passage now stands in, at the depth the ledger names sections."""
    levels = {_plain(words): level for level, words in headings}
    before = normalize_newlines(text[:offset]).split("\n")
    nearest = None
    for _, heading in _headings_in(before[:-1], levels, markdown):
        if heading[0] <= level:
            nearest = heading[1]
    return nearest


def _headings_in(
    lines: list[str], levels: dict[str, int], markdown: bool
) -> Iterator[tuple[int, Heading]]:
    """The headings among the lines, with their indexes. A fenced code block's lines are
    code (`# install` is a shell comment), read to its closing fence: a fence of the same
    character, at least as long."""
    fence = ""
    for index, line in enumerate(lines):
        opened = _FENCE.match(line) if markdown else None
        if opened and (not fence or _closes(opened.group(1), fence, line)):
            fence = "" if fence else opened.group(1)
            continue
        heading = None if fence else _heading_of(line, levels, markdown)
        if heading is not None:
            yield index, heading


def _closes(marker: str, fence: str, line: str) -> bool:
    return marker[0] == fence[0] and len(marker) >= len(fence) and not line.strip(marker[0] + " \t")


def _heading_of(line: str, levels: dict[str, int], markdown: bool) -> Heading | None:
    marked = _MARKDOWN_HEADING.match(line.strip()) if markdown else None
    if marked:
        return len(marked.group(1)), marked.group(2)
    plain = _plain(line)
    return (levels[plain], line.strip()) if plain in levels else None


def _plain(words: str) -> str:
    return " ".join(words.split()).casefold()


def _begins_with(heading: str, wanted: str) -> bool:
    """`0.3.7` begins `0.3.7 (2026-02-03)`, not `0.3.70`."""
    plain = _plain(heading)
    return plain == wanted or (plain.startswith(wanted) and not plain[len(wanted)].isalnum())
