"""A page's sections: the lines under a heading, for a quote placed `under` one.

A heading is a Markdown `#` line, or a line holding one of an HTML page's `<h1>`-`<h6>`
(`html_headings`, read from the page's own markup).
"""

from __future__ import annotations

import re

from lxml import etree

from claimledger.reading.extract import normalize_newlines, parse_html

Heading = tuple[int, str]
"""A heading's level (1 for h1 or `#`) and its words."""

_MARKDOWN_HEADING = re.compile(r"^(#{1,6})[ \t]+(.*?)[ \t#]*$")


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


def section_lines(text: str, under: str, headings: list[Heading]) -> tuple[int, int, int] | None:
    """The lines (0-based, end excluded) from the heading that begins with `under` to the
    next heading of its level or above, and that level; None when no heading begins so.
    A heading is a Markdown `#` line, or a line holding one of the page's `headings`."""
    levels = {_plain(words): level for level, words in headings}
    lines = normalize_newlines(text).split("\n")
    wanted = _plain(under)
    start = level = None
    for index, line in enumerate(lines):
        heading = _heading_of(line, levels)
        if heading is None:
            continue
        if start is None and _begins_with(heading[1], wanted):
            start, level = index, heading[0]
        elif start is not None and level is not None and heading[0] <= level:
            return start, index, level
    return None if start is None or level is None else (start, len(lines), level)


def heading_above(text: str, offset: int, headings: list[Heading], level: int = 6) -> str | None:
    """The words of the nearest heading of `level` or above before character `offset`:
    the section a passage now stands in, at the depth the ledger names sections."""
    levels = {_plain(words): level for level, words in headings}
    before = normalize_newlines(text[:offset]).split("\n")
    for line in reversed(before[:-1] if len(before) > 1 else []):
        heading = _heading_of(line, levels)
        if heading is not None and heading[0] <= level:
            return heading[1]
    return None


def _heading_of(line: str, levels: dict[str, int]) -> Heading | None:
    marked = _MARKDOWN_HEADING.match(line.strip())
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
