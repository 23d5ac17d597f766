"""Plain data from YAML, with the line and column of every value.

The ledger is the author's file and may come from anywhere, so it is read at the
level of `yaml.safe_load` and stricter still: no tag that would construct an
object, no duplicate keys, no merge keys, and a budget on what aliases expand to, so
an alias bomb costs bounded time and memory while a plain ledger of any size loads.
Every value and key keeps its position so that each problem can be reported as
file:line:col.

Scalars are read by the YAML 1.2 core schema, as editors' language servers read
them: only true/false are booleans (`on`, `yes`, `no` are words), a date is text, and
`0o17` is octal while `017` is seventeen.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from claimledger.errors import ReadingStopped
from claimledger.ledger.located import Located, Path_, collector_paused

MAX_ALIASED = 100_000
"""Nodes that aliases may add by repeating an anchored value: generous for any ledger that
uses an anchor or two, small enough to stop an alias bomb fast."""

MAX_DEPTH = 64
"""A ledger nests a handful of levels; far deeper is hostile, and would exhaust recursion."""

_STR = "tag:yaml.org,2002:str"
_NULL = re.compile(r"~|null|Null|NULL|")
_BOOL = re.compile(r"true|True|TRUE|false|False|FALSE")
_INT = re.compile(r"[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+")
_FLOAT = re.compile(
    r"[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN)"
)
_CORE_TAGS = (
    (_NULL, "tag:yaml.org,2002:null"),
    (_BOOL, "tag:yaml.org,2002:bool"),
    (_INT, "tag:yaml.org,2002:int"),
    (_FLOAT, "tag:yaml.org,2002:float"),
)


_MAYBE_TYPED = frozenset("~nNtTfF-+.0123456789<")
"""The first characters a plain scalar other than a string can start with."""

_WORDLIKE = frozenset("nNtTfF")
"""The first letters of null and of the booleans, which are at most five letters long."""


def core_tag(value: str) -> str:
    """The tag the YAML 1.2 core schema gives a plain scalar (most are words: decided by
    their first character)."""
    if value and (value[0] not in _MAYBE_TYPED or (len(value) > 5 and value[0] in _WORDLIKE)):
        return _STR  # a word, or longer than any null or boolean
    if value == "<<":
        return "tag:yaml.org,2002:merge"  # not core, but said plainly where it is written
    for pattern, tag in _CORE_TAGS:
        if pattern.fullmatch(value):
            return tag
    return _STR


class Composer(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):  # type: ignore[misc]
    """libyaml's composer where it is installed (ten times faster than the pure-Python
    one), resolving tags by the YAML 1.2 core schema."""

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        if kind is yaml.ScalarNode:
            return core_tag(value) if implicit[0] else _STR
        if kind is yaml.SequenceNode:
            return "tag:yaml.org,2002:seq"
        return "tag:yaml.org,2002:map"


_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass(frozen=True)
class YamlProblem:
    """A problem found while reading, with a 1-based position."""

    line: int
    col: int
    message: str


class _Budget:
    """What aliases may add: the first visit of a node is the document itself and costs
    nothing; each visit again (through an alias) costs one."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self._seen: set[int] = set()

    def spend(self, node: yaml.Node) -> None:
        if id(node) not in self._seen:
            self._seen.add(id(node))
            return
        self.left -= 1
        if self.left < 0:
            too_many = f"aliases expand to more than {MAX_ALIASED} nodes (an alias bomb?)"
            raise _stopped(node, too_many)


def _stopped(node: yaml.Node, message: str) -> ReadingStopped:
    return ReadingStopped(node.start_mark.line + 1, node.start_mark.column + 1, message)


def _at(node: yaml.Node | yaml.Mark, message: str) -> YamlProblem:
    mark = node if isinstance(node, yaml.Mark) else node.start_mark
    return YamlProblem(mark.line + 1, mark.column + 1, message)


def load_located(text: str) -> tuple[Located | None, list[YamlProblem]]:
    """Read one YAML document into plain data; return it with every problem found."""
    refused = list(_characters_refused(text))
    if refused:
        return None, refused
    try:
        root = yaml.compose(text, Loader=Composer)
    except RecursionError:
        return None, [YamlProblem(1, 1, f"nested more than {MAX_DEPTH} levels deep")]
    except yaml.MarkedYAMLError as err:
        return None, [_syntax_problem(err, text)]
    except yaml.YAMLError as err:
        return None, [YamlProblem(1, 1, f"YAML error: {err}")]
    if root is None:
        return None, [YamlProblem(1, 1, "the file is empty: expected a ledger mapping")]
    located = Located(data=None, tree=root)
    problems: list[YamlProblem] = []
    try:
        located.data = _convert(root, (), located, problems, _Budget(MAX_ALIASED))
    except ReadingStopped as stop:
        return None, [YamlProblem(stop.line, stop.col, stop.message)]
    return located, problems


_READER_ONLY_BREAKS = {
    "\x85": "U+0085 (next line)",
    "\u2028": "U+2028 (line separator)",
    "\u2029": "U+2029 (paragraph separator)",
}
READER_ONLY_BREAK = re.compile("[\x85\u2028\u2029]")
"""The line breaks YAML 1.1 readers (libyaml) count and editors do not."""


_NOT_IN_YAML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x84\x86-\x9f\ud800-\udfff\ufffe\uffff]")
"""The characters YAML does not allow in a file (control characters but tab and the
line breaks, surrogates, two non-characters): the reader stopped at the first and gave
only its offset, which was reported at line 1."""


def _characters_refused(text: str) -> Iterator[YamlProblem]:
    """Each character the reader would refuse or take for what an editor does not show,
    where the editor shows it, one a line: a control character pasted from a page or a
    terminal, and the characters libyaml, reading YAML 1.1, takes for a line break and an
    editor (and YAML 1.2) does not, which made a syntax error at a line no editor shows."""
    said: set[int] = set()
    for found in _REFUSED.finditer(text):
        at = found.start()
        line = text.count("\n", 0, at) + 1
        if line not in said:
            said.add(line)
            col = at - (text.rfind("\n", 0, at) + 1) + 1
            yield YamlProblem(line, col, _why_refused(found.group()))


_REFUSED = re.compile(f"{READER_ONLY_BREAK.pattern}|{_NOT_IN_YAML.pattern}")


def _why_refused(character: str) -> str:
    escaped = f'in a double-quoted value ("\\u{ord(character):04x}")'
    if character in _READER_ONLY_BREAKS:
        name = _READER_ONLY_BREAKS[character]
        return f"{name} is read as a line break: remove it, or write it escaped {escaped}"
    what = "a control character" if unicodedata.category(character) == "Cc" else "no text"
    return (
        f"U+{ord(character):04X} ({what}) is not allowed in YAML: remove it, or write it "
        f"escaped {escaped}"
    )


def _syntax_problem(err: yaml.MarkedYAMLError, text: str) -> YamlProblem:
    """One line for a syntax error, as helpful from libyaml as from the Python reader."""
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line, mark.column) if mark else (0, 0)
    opened = _quote_left_open(text, line) if _lost_in_a_quote(err) else None
    if opened is not None:  # where the reader stopped says nothing: the quote opened here
        return YamlProblem(
            opened[0] + 1,
            opened[1] + 1,
            "YAML syntax error: this quoted value is not closed on its line (YAML reads on "
            "to the next quote in the file): add its closing quote",
        )
    line, col = (mark.line, mark.column) if mark else (0, 0)
    what = err.problem or err.context or "not valid YAML"
    start = err.context_mark
    if err.problem and err.context and start and (start.line, start.column) != (line, col):
        what += f" ({err.context} at line {start.line + 1}, column {start.column + 1})"
    if _character_at(text, line, col) == "\t":  # libyaml does not say which character
        what += "; indent with spaces: YAML does not allow tabs there"
    return YamlProblem(line + 1, col + 1, f"YAML syntax error: {what}")


_OPENING_QUOTE = re.compile(r"""^\s*(?:-\s+)*(?:[^\s"'#][^:#]*:\s+|-\s+)?(["'])""")
"""A line whose value (after `key: ` or `- `) opens with a quote."""


_LOST_IN_A_QUOTE = (
    "end of stream",
    "did not find expected key",
    "expected <block end>",
    "mapping values are not allowed",
    "could not find expected ':'",
)
"""What the reader says when a quote left open swallowed the lines after it."""


def _lost_in_a_quote(err: yaml.MarkedYAMLError) -> bool:
    return any(words in (err.problem or "") for words in _LOST_IN_A_QUOTE)


def _quote_left_open(text: str, before: int) -> tuple[int, int] | None:
    """The line and column of the last quote that opens a value and is not closed on its
    own line, at or before line `before`: a ledger keeps each quoted value on one line,
    so that is where a syntax error after it began."""
    lines = text.split("\n")[: before + 1]
    for number in range(len(lines) - 1, -1, -1):
        found = _OPENING_QUOTE.match(lines[number])
        if found is None:
            continue
        mark, rest = found.group(1), lines[number][found.end() :]
        closed = (
            rest.replace("\\\\", "").replace('\\"', "") if mark == '"' else rest.replace("''", "")
        )
        if mark not in closed:
            return number, found.start(1)
    return None


def _character_at(text: str, line: int, col: int) -> str:
    lines = text.split("\n")
    return lines[line][col : col + 1] if line < len(lines) else ""


def _convert(
    node: yaml.Node, path: Path_, out: Located, problems: list[YamlProblem], budget: _Budget
) -> Any:
    budget.spend(node)
    if len(path) > MAX_DEPTH:
        raise _stopped(node, f"nested more than {MAX_DEPTH} levels deep")
    out.values.setdefault(path, (node.start_mark.line + 1, node.start_mark.column + 1))
    if node.tag not in _PLAIN_TAGS:
        problems.append(
            _at(node, f"YAML tag '{node.tag}' is not allowed: the ledger holds plain data only")
        )
        return None
    if isinstance(node, yaml.MappingNode):
        return _convert_mapping(node, path, out, problems, budget)
    if isinstance(node, yaml.SequenceNode):
        return [
            _convert(item, (*path, index), out, problems, budget)
            for index, item in enumerate(node.value)
        ]
    assert isinstance(node, yaml.ScalarNode)
    return _convert_scalar(node, problems)


def _convert_mapping(
    node: yaml.MappingNode,
    path: Path_,
    out: Located,
    problems: list[YamlProblem],
    budget: _Budget,
) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    first_seen: dict[str, int] = {}
    for key_node, value_node in node.value:
        budget.spend(key_node)
        if key_node.tag == "tag:yaml.org,2002:merge":
            problems.append(_at(key_node, "merge keys (<<) are not supported in a ledger"))
            continue
        if not isinstance(key_node, yaml.ScalarNode) or key_node.tag not in _PLAIN_TAGS:
            problems.append(_at(key_node, "a mapping key must be a plain scalar"))
            continue
        key = str(key_node.value)
        if key in first_seen:
            problems.append(
                _at(key_node, f"duplicate key '{key}' (first at line {first_seen[key]})")
            )
            continue
        first_seen[key] = key_node.start_mark.line + 1
        child = (*path, key)
        out.keys[child] = (key_node.start_mark.line + 1, key_node.start_mark.column + 1)
        mapping[key] = _convert(value_node, child, out, problems, budget)
    return mapping


def _convert_scalar(node: yaml.ScalarNode, problems: list[YamlProblem]) -> Any:
    """A scalar's value by its core-schema tag (an explicit !!int or !!float too)."""
    try:
        return _typed(node.value, node.tag)
    except ValueError:
        problems.append(_at(node, _unreadable(node.value, node.tag.rsplit(":", 1)[-1])))
        return None


def _unreadable(value: str, kind: str) -> str:
    """Why a scalar cannot be read as `kind`. A whole number longer than Python converts
    (4,300 digits) is said by its length: it is no mistyped word, and the number itself
    would make the problem's line as long as it."""
    if kind == "int" and _INT.fullmatch(value):
        return f"a whole number of {len(value)} characters is too long to read as one"
    return f"'{value}' cannot be read as {kind}"


def scalar_value(value: str) -> Any:
    """A plain scalar's value by the YAML 1.2 core schema, as a ledger is read: ValueError
    for one that is not plain data (`<<`)."""
    tag = core_tag(value)
    if tag not in _PLAIN_TAGS:
        raise ValueError(value)
    return _typed(value, tag)


def _typed(value: str, tag: str) -> Any:
    if tag == _STR:
        return value  # most of a ledger
    if tag == "tag:yaml.org,2002:null":
        return None
    if tag == "tag:yaml.org,2002:bool":
        return _bool(value)
    if tag == "tag:yaml.org,2002:int":
        return _int(value)
    return _float(value)


def _bool(value: str) -> bool:
    if not _BOOL.fullmatch(value):
        raise ValueError(value)
    return value.lower() == "true"


def _int(value: str) -> int:
    if value.startswith(("0o", "0x")):
        return int(value[2:], 8 if value[1] == "o" else 16)
    return int(value, 10)


def _float(value: str) -> float:
    special = {".inf": "inf", "+.inf": "inf", "-.inf": "-inf", ".nan": "nan"}
    return float(special.get(value.lower(), value))


def compose(text: str) -> yaml.Node:
    """The text's node tree, whose marks index the text's characters: by libyaml, as the
    loader reads it, except for a text holding a byte order mark anywhere, which libyaml
    does not count (the pure-Python composer does)."""
    loader = yaml.SafeLoader if "\ufeff" in text else Composer
    with collector_paused():
        node = yaml.compose(text, Loader=loader)
    assert node is not None  # the text was validated before any edit
    return node
