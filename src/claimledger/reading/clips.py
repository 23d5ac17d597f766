"""The part of a partial a page shows, its include cut by its options: a sentence outside
that part is on no page that includes it, so the history must not find it there (minio's
docs keep many snippets in one file, each between two marker comments, and pull in one
at a time). Sphinx's `.. include::` and `.. literalinclude::` here (a MyST page's
`{include}` and `{literalinclude}` are the same directives, read as such); an AsciiDoc
`include::`'s in `clips_asciidoc`, an MkDocs snippet's in `clips_snippets`.

Pure. docutils' `include`: `:start-line:` / `:end-line:` (line indexes from 0, negative
from the end, the end left out) cut first, then the text after the first
`:start-after:` and before the first `:end-before:` that follows it, anywhere in a line;
either given no text stands for an empty line (docutils 0.23; before it, no text was an
error). Sphinx's `literalinclude`: from the first line holding `:start-after:` (left
out) or `:start-at:` (kept), to the first holding `:end-before:` (left out; not the first
line) or `:end-at:` (kept), then `:lines:` (`1,3,5-10,20-`, numbered from 1). The build
refuses, and the page shows none of the partial, where a marker is not found, a number
is bad, an option is given twice, a `literalinclude` option needing text has none, or
`start-at` comes with `start-after` (`end-at` with `end-before`): none is guessed at.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from claimledger.reading.clips_asciidoc import asciidoc_part
from claimledger.reading.clips_snippets import snippet_part


@dataclass(frozen=True)
class Clip:
    """A directive that pulls in a partial, and the options written with it, by name:
    Sphinx's or MyST's (`include`, `literalinclude`), AsciiDoc's (`asciidoc`, its
    attributes), an MkDocs snippet's (`snippet`: `lines` or `section`)."""

    directive: str
    options: tuple[tuple[str, str], ...]
    refused: bool = False
    """Whether the build refuses the directive as written (`rst_directives`): the page
    shows an error where the partial would be, none of it."""


_MAX_LINES = 100_000
"""Lines a `:lines:` names at most (a hostile one could name billions)."""


def clipped(text: str, clip: Clip) -> str:
    """The part of the partial `text` the page shows; empty where the build shows none."""
    options = dict(clip.options)
    if clip.refused:
        return ""
    if clip.directive == "asciidoc":
        return asciidoc_part(text, options)
    try:
        if clip.directive == "snippet":
            return snippet_part(text, options.get("lines"), options.get("section"))
        if len(options) < len(clip.options):
            raise ValueError("an option given twice")  # docutils refuses the directive
        if clip.directive == "literalinclude":
            return _literal_part(text, options)
        return _include_part(text, options)
    except ValueError:  # the build refuses: a marker not found, a bad number (`x.md:-`)
        return ""


def _include_part(text: str, options: Mapping[str, str]) -> str:
    """docutils' `include`: the lines kept, then the text between the two markers."""
    first, last = options.get("start-line"), options.get("end-line")
    if first or last is not None:
        text = "\n".join(text.splitlines()[_index(first) : _index(last)])
    if (after := options.get("start-after")) is not None:
        after = after or "\n\n"
        text = text[_found(text, after) + len(after) :]
    if before := options.get("end-before"):
        text = text[: _found(text, before)]
    elif before is not None and (blank := text.find("\n\n")) > 0:
        text = text[: blank + 1]  # up to an empty line: the line before it ends the part
    return text


def _literal_part(text: str, options: Mapping[str, str]) -> str:
    """Sphinx's `literalinclude`: the lines from the start marker's to the end marker's,
    then those `:lines:` names."""
    _refused(options)
    lines = text.splitlines(keepends=True)
    if start := options.get("start-at") or options.get("start-after"):
        at = _line_holding(lines, start)
        lines = lines[at if "start-at" in options else at + 1 :]
    if end := options.get("end-at"):
        lines = lines[: _line_holding(lines, end) + 1]
    elif end := options.get("end-before"):
        lines = lines[: _line_holding(lines, end, after=1)]
    if spec := options.get("lines"):
        lines = [lines[n] for n in _line_numbers(spec, len(lines)) if n < len(lines)]
        if not lines:
            raise ValueError(spec)
    return "".join(lines)


_NEEDS_TEXT = ("start-at", "start-after", "end-at", "end-before", "lines")
"""`literalinclude`'s options that Sphinx refuses to take with no text."""
_EXCLUSIVE = (("start-at", "start-after"), ("end-at", "end-before"))


def _refused(options: Mapping[str, str]) -> None:
    """Raise where Sphinx refuses a `literalinclude` as its options are written."""
    if any(options.get(name) == "" for name in _NEEDS_TEXT):
        raise ValueError("an option with no text")
    if any(one in options and other in options for one, other in _EXCLUSIVE):
        raise ValueError("two options that cannot be used together")


def _index(written: str | None) -> int | None:
    return None if written is None else int(written)


def _found(text: str, marker: str) -> int:
    at = text.find(marker)
    if at < 0:
        raise ValueError(marker)
    return at


def _line_holding(lines: list[str], marker: str, after: int = 0) -> int:
    """The first line (from `after`) holding `marker`: Sphinx's end-before never ends the
    part at its first line, so one marker can open and close it."""
    for at in range(after, len(lines)):
        if marker in lines[at]:
            return at
    raise ValueError(marker)


def _line_numbers(spec: str, total: int) -> list[int]:
    """`:lines:` as indexes from 0: `3`, `5-10`, `-4` (from the first), `20-` (to the
    last), separated by commas, in the order written; a range past the partial's last
    line ends there, and at most `_MAX_LINES` are named (`1-9999999999`)."""
    numbers: list[int] = []
    for part in spec.split(","):
        if len(numbers) >= _MAX_LINES:
            break
        ends = part.strip().split("-")
        if len(ends) == 1:
            numbers.append(int(ends[0]) - 1)
            continue
        if len(ends) != 2 or ends == ["", ""]:
            raise ValueError(spec)
        first = int(ends[0] or "1")
        last = int(ends[1]) if ends[1] else max(first, total)
        if first > last:
            raise ValueError(spec)
        numbers.extend(range(first - 1, min(last, total)))  # none past the partial's end
    return numbers[:_MAX_LINES]
