"""A reStructuredText page's `.. include::` and `.. literalinclude::` as docutils reads
them: the part of a partial a page shows is the one the build reads from the directive,
not the one its lines look like they name.

Pure, and as docutils 0.23 and Sphinx read a directive. Tabs are spaces to the next
eighth column. The directive is its line and the lines after it indented past its `..`
(a blank line among them): the path (its lines joined), then, from the first line that
begins a field (`:name: value`), its options to the first blank line. A field's value
runs on over the lines indented under it (joined by line ends), its name is read in
lower case. The build refuses the directive, and the page shows an error where the
partial was, where anything follows that blank line (no content is allowed), a line
there is no field and no field's value, an option is unknown to the directive or given
twice, or its value is not one it takes (a number, no text to a flag, text where one
needs it). A directive inside another's lines is that one's text, no directive.
"""

from __future__ import annotations

import codecs
import re
import unicodedata
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from claimledger.reading.clips import Clip

_DIRECTIVE = re.compile(  # the line of one (a list item's, a list-table cell's too)
    r"^(?P<lead>[ \t]*(?:[-*+][ \t]+)*)\.\.[ \t]+"
    r"(?P<name>include|literalinclude)[ \t]?::(?=[ \t]|\r?$)(?P<first>[^\n]*)",
    re.MULTILINE | re.IGNORECASE,
)
_FIELD = re.compile(r":(?![: ])(?P<name>(?:[^:\\]|\\.|:(?!([ `]|$)))*)(?<! ):(?: +|$)")
"""docutils' field marker (`Body.patterns['field_marker']`), at a line's start."""
_ESCAPED = re.compile(r"\\(.)")
_TAB = 8


def flag(value: str | None) -> str:
    """A flag's check: it takes no text."""
    if value:
        raise ValueError("no argument is permitted")
    return ""


def _text(value: str | None) -> str:
    return value or ""


def _required(value: str | None) -> str:
    if not value:
        raise ValueError("argument required but none supplied")
    return value


def _number(value: str | None) -> str:
    return str(int(value or ""))


def _maybe_number(value: str | None) -> str:
    return "" if value is None else _number(value)


def _count(value: str | None) -> str:
    if value is not None and int(value) < 0:
        raise ValueError("negative value")
    return value or ""


def _classes(value: str | None) -> str:
    """docutils' class names: each word must leave an identifier, a letter in it."""
    words = _required(value).split()
    plain = (unicodedata.normalize("NFKD", w.lower()).encode("ascii", "ignore") for w in words)
    if not all(re.search(rb"[a-z]", word) for word in plain):
        raise ValueError("cannot make a class name of it")
    return " ".join(words)


def _encoding(value: str | None) -> str:
    try:
        codecs.lookup(value or "")
    except LookupError:
        raise ValueError("unknown encoding") from None
    return value or ""


Check = Callable[[str | None], str]
"""An option's check: the text it stands for, or ValueError where it cannot take the value."""
OPTION_CHECKS: dict[str, dict[str, Check]] = {
    "include": {  # docutils 0.23 (Sphinx's own is the same)
        "literal": flag, "code": _text, "encoding": _encoding, "parser": _text,
        "tab-width": _number, "start-line": _number, "end-line": _number,
        "start-after": _text, "end-before": _text, "number-lines": _maybe_number,
        "class": _classes, "name": _text,
    },
    "literalinclude": {  # Sphinx 9
        "dedent": _count, "linenos": flag, "lineno-start": _number, "lineno-match": flag,
        "tab-width": _number, "language": _required, "force": flag, "encoding": _encoding,
        "pyobject": _required, "lines": _required, "start-after": _required,
        "end-before": _required, "start-at": _required, "end-at": _required,
        "prepend": _required, "append": _required, "emphasize-lines": _required,
        "caption": _text, "class": _classes, "name": _text, "diff": _required,
    },
}  # fmt: skip
"""Each directive's options, with the check its value must pass (the text it stands for)."""


@dataclass(frozen=True)
class Directive:
    """One include as the page writes it (`written`: its line and its lines, as they
    stand in the page), the path it names, and its options as the build reads them."""

    written: str
    path: str
    clip: Clip


def directives_of(text: str) -> Iterator[Directive]:
    """Each include and literalinclude of the page `text`, in order; none inside another's
    lines, nor one with no path."""
    at = 0
    while (found := _DIRECTIVE.search(text, at)) is not None:
        end = max(found.end(), _block_end(text, found.end(), _column(found["lead"])))
        at = end + 1
        directive = _read(found, text[found.end() : end])
        if directive is not None:
            yield directive


def _read(found: re.Match[str], block: str) -> Directive | None:
    """The directive whose line is `found`, its lines `block` (each after a line end)."""
    line = _expanded_line(found.string[found.start() : found.end()])
    first = line[len(_expanded_line(found.string[found.start() : found.start("first")])) :]
    lines = [first.strip(), *_dedented(block.split("\n")[1:])]
    if not lines[0]:
        lines = lines[1:]
    blank = next((n for n, each in enumerate(lines) if not each.strip()), len(lines))
    given, content = lines[:blank], [each for each in lines[blank:] if each.strip()]
    opening = next((n for n, each in enumerate(given) if _FIELD.match(each)), len(given))
    path = "".join(each.strip() for each in given[:opening])
    if not path:
        return None  # no argument: the build refuses it, and no partial is named
    name = found["name"].lower()  # docutils reads a directive's name in lower case
    options = _fields(given[opening:])
    checked = None if options is None or content else _checked(name, options)
    clip = Clip(name, (), refused=True) if checked is None else Clip(name, checked)
    written = found.string[found.start() : found.end() + len(block)]
    return Directive(written.rstrip(" \t\r"), path, clip)


def _fields(lines: list[str]) -> list[tuple[str, str | None]] | None:
    """The options of a field list's lines (each field's value the text on its line and
    those indented under it; None where there is none); None where a line is neither."""
    fields: list[tuple[str, list[str]]] = []
    for line in lines:
        if marker := _FIELD.match(line):
            name = _ESCAPED.sub(r"\1", marker["name"])  # as docutils shows it: unescaped
            fields.append((name, [line[marker.end() :]]))
        elif fields and line[:1] == " ":
            fields[-1][1].append(line)
        else:
            return None
    return [(name, _value(body)) for name, body in fields]


def _value(body: list[str]) -> str | None:
    """A field's value: its first line's text, then the lines under it, less their
    shared indent, joined by line ends (docutils' paragraph of an option)."""
    if len(body) == 1:
        return body[0].strip() or None
    lines = [each for each in [body[0].strip(), *_dedented(body[1:])] if each.strip()]
    return "\n".join(lines) or None


def _checked(name: str, fields: list[tuple[str, str | None]]) -> tuple[tuple[str, str], ...] | None:
    """The options as the directive takes them, each value as it reads it; None where
    the build refuses them (an unknown name, one given twice, a value it cannot take)."""
    spec = OPTION_CHECKS[name]
    options: dict[str, str] = {}
    for written, value in fields:
        option = written.lower()
        if option not in spec or option in options or len(written.split()) != 1:
            return None
        try:
            options[option] = spec[option](value)
        except ValueError:
            return None
    return tuple(options.items())


def _block_end(text: str, start: int, column: int) -> int:
    """Where the lines after the directive's line ending at `start` end: each blank or
    indented past `column`, up to the last of them that holds text (its end, less
    spaces); the line's own end where none follows."""
    end = _trimmed(text, start)
    at = text.find("\n", start)
    while at >= 0:
        stop = text.find("\n", at + 1)
        line = _expanded_line(text[at + 1 : len(text) if stop < 0 else stop])
        if line.strip():
            if len(line) - len(line.lstrip(" ")) <= column:
                break
            end = _trimmed(text, len(text) if stop < 0 else stop)
        at = stop
    return end


def _trimmed(text: str, end: int) -> int:
    """`end`, less the spaces and carriage return before it."""
    while end > 0 and text[end - 1] in " \t\r":
        end -= 1
    return end


def _dedented(lines: list[str]) -> list[str]:
    """`lines`, their tabs spaces, less the indent they share (blank ones as empty)."""
    expanded = [_expanded_line(line).rstrip() for line in lines]
    indents = [len(line) - len(line.lstrip(" ")) for line in expanded if line]
    cut = min(indents, default=0)
    return [line[cut:] for line in expanded]


def _expanded_line(line: str) -> str:
    return line.rstrip("\r").expandtabs(_TAB)


def _column(lead: str) -> int:
    """The column a directive's `..` stands at, after `lead` (its line's start)."""
    return len(_expanded_line(lead))


_LINE_END = re.compile(r"[ \t\r]*(?:\n|\Z)")


def replaced(text: str, written: str, body: str) -> str:
    """`text` with each whole directive written as `written` replaced by `body`: one
    that goes on past it (the same include with options, `:end-before: end-a` before
    `:end-before: end-ab`) is another directive, left to its own."""
    opening = _DIRECTIVE.match(written)
    column = _column(opening["lead"]) if opening else 0
    pieces: list[str] = []
    done = at = 0
    while (found := text.find(written, at)) >= 0:
        end = found + len(written)
        at = found + 1
        at_line_start = found == 0 or text[found - 1] == "\n"
        whole = _LINE_END.match(text, end) is not None and _block_end(text, end, column) <= end
        if at_line_start and whole:
            pieces += [text[done:found], body]
            done = at = end
    return "".join([*pieces, text[done:]])
