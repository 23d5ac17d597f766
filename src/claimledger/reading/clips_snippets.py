"""The part of a partial an MkDocs snippet shows (pymdownx.snippets): `--8<-- "x.md:name"`
the section between `--8<-- [start:name]` and `--8<-- [end:name]` (written in an HTML
comment, as a rule), `--8<-- "x.md:3:6"` lines 3 to 6. A sentence outside that part is
on no page that includes it.

Pure, and as pymdownx reads it: lines are numbered from 1, both ends kept, a negative
one counted from the end, either end left out to run from the first or to the last,
several ranges separated by commas (`x.md:1:3,8:9`); a file ending in a line end has
one more, empty, line. A section not found shows nothing (pymdownx's default; with
`check_paths` the build fails, and the page shows nothing either); one never ended runs
to the partial's end. Section markers are never shown. Bounded against a hostile
repository: a marker is found in time linear in its line, and ranges repeated
(`x.md:1:999999,1:999999,…`) show at most `_MAX_GROWTH` times the partial's text.
"""

from __future__ import annotations

import io
import re

_MAX_GROWTH = 4
"""Times its partial's length one snippet shows at most."""
_SPEC = re.compile(
    r"(?P<path>.*?)(?:(?P<lines>(?::-?[0-9]*){1,2}(?:,(?=[-0-9:])-?[0-9]*(?::-?[0-9]*)?)*)"
    r"|:(?P<section>[a-z][-_0-9a-z]*))?",
    re.IGNORECASE,
)
"""pymdownx's own reading of a snippet's path: a line range or a section name after it."""
_MARKER = re.compile(  # from the dashes' first (no start inside a run): linear in the line
    r"(?<!-)-+8<-+[ \t]+\[[ \t]*(?P<kind>start|end)[ \t]*:[ \t]*"
    r"(?P<name>[a-z][-_0-9a-z]*)[ \t]*\]",
    re.IGNORECASE,
)


def snippet_spec(written: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The path a snippet names, and its cut (`lines` or `section`), as options."""
    found = _SPEC.fullmatch(written)
    if found is None:  # pragma: no cover - the pattern matches any text
        return written, ()
    if found["lines"]:
        return found["path"].strip(), (("lines", found["lines"][1:]),)
    if found["section"]:
        return found["path"].strip(), (("section", found["section"]),)
    return found["path"].strip(), ()


def snippet_part(text: str, lines_spec: str | None, section: str | None) -> str:
    """The part of `text` a snippet cut by `lines_spec` or `section` shows."""
    lines = io.StringIO(text, newline=None).read().split("\n")  # as pymdownx reads a file:
    # at "\n", "\r\n" or "\r" only, never a form feed; a last line end leaves one, empty
    if section is not None:
        return "\n".join(_section(lines, section))
    if lines_spec is not None:
        lines = _ranges(lines, lines_spec, len(text) * _MAX_GROWTH)
    return "\n".join(_unmarked(lines))


def _ranges(lines: list[str], spec: str, most: int) -> list[str]:
    """The lines of each range of `spec` in turn, until `most` characters are shown."""
    total, size = len(lines), 0
    shown: list[str] = []
    for written in spec.split(","):
        ends = written.split(":")
        first = int(ends[0]) if ends[0] else None
        last = int(ends[1]) if len(ends) > 1 and ends[1] else None
        start = first if first is None or first < 0 else max(0, first - 1)
        start = min(max(total + start, 0), total) if start is not None and start < 0 else start
        stop = min(max(total + 1 + last, 0), total) if last is not None and last < 0 else last
        for line in lines[start:stop]:
            if size > most:
                return shown
            shown.append(line)
            size += len(line) + 1
    return shown


def _section(lines: list[str], name: str) -> list[str]:
    """The lines between the section's first start marker and its end; other sections'
    markers inside are left out. An escaped marker (`;--8<--`) is no marker, wherever it
    is (pymdownx's own docs write one before the section they show): inside, it is shown
    unescaped."""
    shown: list[str] = []
    started = False
    for line in lines:
        marker = _MARKER.search(line)
        if marker is not None and _escaped(line, marker):
            if started:
                shown.append(_unescaped(line, marker))
            continue
        if marker is not None and marker["name"] == name:
            if marker["kind"] == "start":  # pymdownx compares as written
                started = True
                continue
            break  # the end, or an end before any start: pymdownx stops there
        if started and marker is None:
            shown.append(line)
    return shown


def _unmarked(lines: list[str]) -> list[str]:
    """`lines` less the section markers (a whole partial, or its lines, shows none)."""
    shown: list[str] = []
    for line in lines:
        marker = _MARKER.search(line)
        if marker is None:
            shown.append(line)
        elif _escaped(line, marker):
            shown.append(_unescaped(line, marker))
    return shown


def _escaped(line: str, marker: re.Match[str]) -> bool:
    return line[: marker.start()].endswith(";")


def _unescaped(line: str, marker: re.Match[str]) -> str:
    before = line[: marker.start()]
    semicolons = len(before) - len(before.rstrip(";"))
    return (
        before[: len(before) - semicolons]
        + before[len(before) - semicolons + 1 :]
        + line[marker.start() :]
    )
