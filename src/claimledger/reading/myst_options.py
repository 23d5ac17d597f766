"""A MyST directive's options as myst-parser reads them: a page's `{include}` is cut by
what its options say to myst-parser, not by how they look.

Pure. The options are a `---` block opening the directive's body (from its first line,
which begins with `---`, to the next line that does, or to the fence) or its first lines
that begin with `:` (`:start-after: x`, each read less its colon); what follows them is
the directive's content, which an include takes none of (myst-parser warns, and runs it).
Either way they are read as myst-parser's own small YAML: `name: value` a line, the name
starting the line; a value plain (to a ` #` comment, lines indented under it joined by
a space), quoted (`'…'`, `"…"`) or a `|` / `>` block, or on the line below when the
name's line has none. The last of a name given twice is the one read. Options it cannot
read (a line with no colon after its name, a name indented where one should start, a
quote left open) are none: myst-parser warns, and the directive runs without them. Each
option read is then taken as myst-parser takes it: one the directive does not know (a
name in other letters, `Start-After`), or whose value it cannot take (`start-line: x`,
no text where it needs some), is left out with a warning, and the directive runs
without it; a value left empty is none (`start-after:` is an empty line to an include,
as in reStructuredText).
"""

from __future__ import annotations

import re
import textwrap

from claimledger.reading.rst_directives import OPTION_CHECKS, flag

_BLOCK_END = re.compile(r"^-{3,}", re.MULTILINE)
"""The line that ends a `---` block of options: dashes from its first column."""
_COMMENT = re.compile(r"[ \t]#")
_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", '"': '"', "/": "/", "0": "\0", " ": " "}


def myst_options(directive: str, body: str) -> tuple[tuple[str, str], ...]:
    """The options myst-parser gives `directive` (`include`, `literalinclude`) from its
    `body` (the text between its fences), each name once, as the directive takes it."""
    block = _options_block(body)
    read = None if block is None else _mapping(block.splitlines())
    checks = OPTION_CHECKS[directive]
    taken: list[tuple[str, str]] = []
    for name, value in (read or {}).items():
        if (check := checks.get(name)) is None:
            continue  # unknown to the directive: left out
        try:  # a flag takes any text, which myst-parser drops
            taken.append((name, check(None if check is flag else value or None)))
        except ValueError:
            continue
    return tuple(taken)


def _options_block(body: str) -> str | None:
    """The options' text in a directive's `body`, as myst-parser cuts it; None where
    the body holds none."""
    if body.startswith("---"):
        rest = "\n".join(body.splitlines()[1:])
        end = _BLOCK_END.search(rest)
        return textwrap.dedent(rest if end is None else rest[: end.start()])
    if not body.lstrip().startswith(":"):
        return None
    lines = []
    for line in body.splitlines():
        stripped = line.lstrip()
        if not stripped.startswith(":") or stripped.lstrip(":").startswith("{"):
            break
        lines.append(stripped[1:])
    return "\n".join(lines)


def _mapping(lines: list[str]) -> dict[str, str] | None:
    """`name: value` pairs, as myst-parser's tokenizer reads them; None where it fails."""
    read: dict[str, str] = {}
    at = 0
    while at < len(lines):
        line = lines[at]
        if _blank(line):
            at += 1
            continue
        named = None if line[0] in " \t" else _name(line)
        if named is None:
            return None
        name, rest = named
        value, at = _value(rest.lstrip(" \t"), lines, at + 1)
        if value is None:
            return None
        read[name] = value
    return read


def _blank(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _name(line: str) -> tuple[str, str] | None:
    """An option's name (quoted, or up to a colon followed by a space or the line's end)
    and what follows its colon; None where no colon follows the name."""
    if line[0] in "'\"":
        quoted = _quoted(line)
        if quoted is None:
            return None
        name, rest = quoted
    else:
        end = re.search(r"[ \t]|:(?=[ \t]|$)", line)
        cut = len(line) if end is None else end.start()
        name, rest = line[:cut], line[cut:]
    rest = rest.lstrip(" \t")
    return (name, rest[1:]) if rest.startswith(":") else None


def _value(rest: str, lines: list[str], at: int) -> tuple[str | None, int]:
    """The value starting at `rest` (the line's text after the colon), the lines after it
    at `at`; with the index of the line after the value."""
    if not rest or rest.startswith("#"):  # the value, if any, is on a line indented below
        below = next((n for n in range(at, len(lines)) if not _blank(lines[n])), len(lines))
        if below == len(lines) or lines[below][0] not in " \t":
            return "", below
        rest, at = lines[below].lstrip(" \t"), below + 1
    if rest[0] in "|>":
        return _block(rest, lines, at)
    if rest[0] in "'\"":
        quoted = _quoted(rest)
        return (None, at) if quoted is None else (quoted[0], at)
    return _plain(rest, lines, at)


def _plain(rest: str, lines: list[str], at: int) -> tuple[str, int]:
    """A plain value: to its comment, the indented lines under it joined by a space (a
    blank line between them as a line end)."""
    parts = [_COMMENT.split(rest, maxsplit=1)[0].strip()]
    while at < len(lines):
        line = lines[at]
        if line.strip() and (line[0] not in " \t" or line.lstrip().startswith("#")):
            break
        parts.append(_COMMENT.split(line, maxsplit=1)[0].strip() or "\n")
        at += 1
    while parts and parts[-1] == "\n":
        parts.pop()
    return re.sub(r" ?\n ?", "\n", " ".join(parts)), at


def _block(rest: str, lines: list[str], at: int) -> tuple[str, int]:
    """A `|` (its lines as they are) or `>` (joined by a space) block: the lines indented
    under it, ending in a line end (none after `|-` or `>-`)."""
    end = at
    while end < len(lines) and (not lines[end].strip() or lines[end][0] in " \t"):
        end += 1
    body = textwrap.dedent("\n".join(lines[at:end])).strip("\n").split("\n")
    text = "\n".join(body) if rest[0] == "|" else " ".join(body)
    return (text if rest[1:2] == "-" or not text else text + "\n"), end


def _quoted(text: str) -> tuple[str, str] | None:
    """A quoted scalar at the start of `text` (`''` a quote within single quotes, `\\`
    escapes within double), and what follows it; None where it is left open."""
    quote = text[0]
    if quote == "'":
        found = re.match(r"'((?:[^']|'')*)'", text)
        return None if found is None else (found[1].replace("''", "'"), text[found.end() :])
    found = re.match(r'"((?:[^"\\]|\\.)*)"', text)
    if found is None:
        return None
    value = re.sub(r"\\(.)", lambda m: _ESCAPES.get(m[1], m[0]), found[1])
    return value, text[found.end() :]
