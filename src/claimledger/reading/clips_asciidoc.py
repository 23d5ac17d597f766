"""The part of a partial an AsciiDoc `include::` shows (Asciidoctor; Antora's `partial$`
resources): `lines=` names lines, `tag=` / `tags=` the regions between `tag::name[]` and
`end::name[]` (Antora's docs keep many snippets in one partial and pull in one at a
time). A sentence outside that part is on no page that includes it.

Pure, and as Asciidoctor reads it: `lines` wins over `tag`, `tag` over `tags`, and
`leveloffset` (and any other attribute) changes no words. A value is split on commas
when it holds one, else on semicolons. Asciidoctor's quirks are kept: a line number
below 1 (`lines=0..3`, `lines=..3`) matches no line, so the page shows none of the
partial; a `lines` naming no line at all (`lines=5..3`, `lines=`) leaves the partial
whole. A tag named but not found is warned about by Asciidoctor and its region shows
nothing: `tag=gone` shows none of the partial, `tags=!gone` all of it (less the tag
lines). Bounded against a hostile repository: time linear in the partial's length
(ranges are merged, never expanded line by line; a tag name is at most
`_MAX_TAG_NAME` characters), memory no more than the partial's.
"""

from __future__ import annotations

import io
import re
from collections.abc import Mapping

_MAX_TAG_NAME = 200
"""Characters of a tag name read at most: a longer one is no tag (Asciidoctor reads any;
a line of thousands of `tag::` each scanning to its end took time squared)."""
_TAG_DIRECTIVE = re.compile(
    rf"\b(?:tag|(?P<end>e)nd)::(?P<name>\S{{1,{_MAX_TAG_NAME}}}?)\[\](?=$|[ \r])"
)
_RUBY_INT = re.compile(r"\s*(?P<sign>[+-]?)(?P<digits>\d+(?:_\d+)*)")
_BEYOND = 10**18
"""A line number past any partial's last: a longer one is read as this (Python's `int`
refuses thousands of digits; Ruby's `to_i` reads any)."""


def asciidoc_part(text: str, attributes: Mapping[str, str]) -> str:
    """The part of `text` the include with `attributes` shows."""
    if "lines" in attributes:
        return _by_lines(text, attributes["lines"])
    if "tag" in attributes:
        wanted = _tags([attributes["tag"]])
    elif "tags" in attributes:
        wanted = _tags(_split(attributes["tags"]))
    else:
        return text
    return _by_tags(text, wanted) if wanted else text


def _split(value: str) -> list[str]:
    """Asciidoctor's list value: comma-separated where a comma is, else semicolons; as
    Ruby's `split`, less the empty items at its end (`lines=1;2;` names lines 1 and 2,
    not a line 0 that would show nothing)."""
    items = value.split(",") if "," in value else value.split(";")
    while items and not items[-1]:
        items.pop()
    return items


def _ruby_int(written: str) -> int:
    """Ruby's `to_i`: the leading integer (`1_000` is 1000), 0 where there is none (`x`
    is line 0); one of more than 18 digits is past any partial's last line, either way."""
    found = _RUBY_INT.match(written)
    if found is None:
        return 0
    digits = found["digits"].replace("_", "").lstrip("0") or "0"
    number = int(digits) if len(digits) <= 18 else _BEYOND
    return -number if found["sign"] == "-" else number


def _by_lines(text: str, value: str) -> str:
    """The lines `value` names (`1..5;10`, `12..-1` to the last, numbered from 1).

    Asciidoctor sorts the numbers and walks the partial taking each in turn: an open
    range (`..-1`, `..` with nothing after) takes every line after the last number
    named, once that number is reached; a number below 1 is never reached, nor is any
    after it."""
    spans: list[tuple[int, int]] = []
    is_open = False
    for written in _split(value):
        first, dots, last = written.partition("..")
        if dots and (not last or _ruby_int(last) < 0):
            spans.append((_ruby_int(first), _ruby_int(first)))
            is_open = True
        elif dots:
            spans.append((_ruby_int(first), _ruby_int(last)))
        else:
            spans.append((_ruby_int(written), _ruby_int(written)))
    spans = [(first, last) for first, last in spans if first <= last]
    if not spans:
        return text  # no line named: Asciidoctor includes the whole partial
    lines = _lines(text)
    lowest, highest = min(f for f, _ in spans), max(last for _, last in spans)
    if lowest < 1:
        return ""
    rest = highest + 1 if is_open and highest <= len(lines) else len(lines) + 1
    kept = _covered(sorted(spans), len(lines))
    return "".join(line for n, line in enumerate(lines, 1) if n in kept or n >= rest)


def _covered(spans: list[tuple[int, int]], total: int) -> set[int]:
    """The line numbers, up to `total`, that the sorted `spans` cover: each line once,
    however many spans name it (`1..1000000` repeated names no more than the partial)."""
    covered: set[int] = set()
    reached = 0
    for first, last in spans:
        start, end = max(first, reached + 1), min(last, total)
        covered.update(range(start, end + 1))
        reached = max(reached, end)
    return covered


def _tags(written: list[str]) -> dict[str, bool]:
    """Each tag named, to be shown (`name`) or not (`!name`); `!` alone and empty names
    are dropped, as Asciidoctor drops them."""
    wanted: dict[str, bool] = {}
    for name in written:
        if name and name != "!":
            wanted[name.removeprefix("!")] = not name.startswith("!")
    return wanted


def _by_tags(text: str, wanted: dict[str, bool]) -> str:
    """The lines in the regions `wanted` selects, as Asciidoctor walks them: `**` sets
    the lines outside any region, `*` those in any region not named (`_base_and_wildcard`);
    a region not named, and not set by `*`, is as the region around it. A region inside an
    unshown one is unshown by `*`. The tag lines themselves are never shown."""
    wanted = dict(wanted)
    base, wildcard = _base_and_wildcard(wanted)
    regions = _Regions(base)
    kept: list[str] = []
    for line in _lines(text):
        found = _TAG_DIRECTIVE.search(line) if "::" in line and "[]" in line else None
        if found is None:
            if regions.select:
                kept.append(line)
        elif found["end"]:
            regions.close(found["name"], found["name"] in wanted)
        elif found["name"] in wanted:
            regions.open(found["name"], wanted[found["name"]])
        elif wildcard is not None:
            regions.open(found["name"], False if regions.inside_unshown() else wildcard)
    return "".join(kept)


def _base_and_wildcard(wanted: dict[str, bool]) -> tuple[bool, bool | None]:
    """Whether lines outside any region are shown, and those in a region not named (None:
    as the region around it), as Asciidoctor's reader decides; `*` and `**` are taken
    out of `wanted`. Order counts: `!*;a` shows the lines outside, `a;!*` does not; and
    `!**` leaves a region not named as the one around it, unless the first tag named
    after it is unshown (`!**;!a`), when it is shown."""
    if "**" in wanted:
        base = wanted.pop("**")
        if "*" in wanted:
            return base, wanted.pop("*")
        first_unshown = next(iter(wanted.values()), None) is False
        return base, True if not base and first_unshown else None
    if "*" in wanted:
        first = next(iter(wanted))
        wildcard = wanted.pop("*")
        return (not wildcard if first == "*" else False), wildcard
    return not any(wanted.values()), None


class _Regions:
    """The tagged regions open at a line, innermost last, each shown or not. An end tag
    of a named region not innermost closes it where it is (Asciidoctor warns of it)
    without changing what is shown: marked closed, dropped when it comes to the top, so
    each line costs the same however many regions are open."""

    def __init__(self, base: bool) -> None:
        self.base = base
        self.select = base
        self.active: str | None = None
        self._stack: list[tuple[str, bool]] = []
        self._closed: set[int] = set()
        self._at: dict[str, list[int]] = {}

    def inside_unshown(self) -> bool:
        return self.active is not None and not self.select

    def open(self, name: str, select: bool) -> None:
        self._at.setdefault(name, []).append(len(self._stack))
        self._stack.append((name, select))
        self.active, self.select = name, select

    def close(self, name: str, named: bool) -> None:
        if name == self.active:
            self._pop()
            while self._stack and len(self._stack) - 1 in self._closed:
                self._closed.discard(len(self._stack) - 1)
                self._stack.pop()
            self.active, self.select = self._stack[-1] if self._stack else (None, self.base)
        elif named and self._at.get(name):
            self._closed.add(self._at[name].pop())

    def _pop(self) -> None:
        name, _ = self._stack.pop()
        self._at[name].pop()


def _lines(text: str) -> list[str]:
    """`text`'s lines, each with its end, as Ruby's `each_line` reads them: split at a
    line feed alone (Python's `splitlines` splits at a form feed and ten others too, which
    would shift every `lines=` number after one)."""
    return io.StringIO(text, newline="\n").readlines()
