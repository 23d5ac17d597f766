"""Plain data from YAML, with the line and column of every value.

The ledger is the author's file and may come from anywhere, so it is read at the
level of `yaml.safe_load` and stricter still: no tag that would construct an
object, no duplicate keys, no merge keys, and a budget on nodes so an alias bomb
costs bounded time and memory. Every value and key keeps its position so that
each problem can be reported as file:line:col.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from typing import Any

import yaml

from claimledger.errors import ReadingStopped

Path_ = tuple[str | int, ...]
"""Where a value sits in the document: keys and list indexes from the root."""

MAX_NODES = 200_000
"""Generous for any hand-written ledger, small enough to stop an alias bomb fast."""

MAX_DEPTH = 64
"""A ledger nests a handful of levels; far deeper is hostile, and would exhaust recursion."""

_COMPOSER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
"""libyaml's composer where it is installed (ten times faster), else the pure-Python one."""

_PLAIN_TAGS = {
    "tag:yaml.org,2002:str",
    "tag:yaml.org,2002:int",
    "tag:yaml.org,2002:float",
    "tag:yaml.org,2002:bool",
    "tag:yaml.org,2002:null",
    "tag:yaml.org,2002:timestamp",
    "tag:yaml.org,2002:map",
    "tag:yaml.org,2002:seq",
}


@dataclass(frozen=True)
class YamlProblem:
    """A problem found while reading, with a 1-based position."""

    line: int
    col: int
    message: str


@dataclass
class Located:
    """A document as plain data, plus the position of each value and each key."""

    data: Any
    values: dict[Path_, tuple[int, int]] = field(default_factory=dict)
    keys: dict[Path_, tuple[int, int]] = field(default_factory=dict)

    def where(self, path: Path_, *, key: bool = False) -> tuple[int, int]:
        """Position of the value at `path` (or its key), else of its nearest ancestor."""
        table = self.keys if key else self.values
        probe = path
        while probe:
            if probe in table:
                return table[probe]
            if probe in self.values:
                return self.values[probe]
            probe = probe[:-1]
        return self.values.get((), (1, 1))


class _Budget:
    def __init__(self, limit: int) -> None:
        self.left = limit

    def spend(self, node: yaml.Node) -> None:
        self.left -= 1
        if self.left < 0:
            raise _stopped(
                node, f"document expands to more than {MAX_NODES} nodes (an alias bomb?)"
            )


def _stopped(node: yaml.Node, message: str) -> ReadingStopped:
    return ReadingStopped(node.start_mark.line + 1, node.start_mark.column + 1, message)


def _at(node: yaml.Node | yaml.Mark, message: str) -> YamlProblem:
    mark = node if isinstance(node, yaml.Mark) else node.start_mark
    return YamlProblem(mark.line + 1, mark.column + 1, message)


def load_located(text: str) -> tuple[Located | None, list[YamlProblem]]:
    """Read one YAML document into plain data; return it with every problem found."""
    try:
        root = yaml.compose(text, Loader=_COMPOSER)
    except RecursionError:
        return None, [YamlProblem(1, 1, f"nested more than {MAX_DEPTH} levels deep")]
    except yaml.MarkedYAMLError as err:
        return None, [_syntax_problem(err, text)]
    except yaml.YAMLError as err:
        return None, [YamlProblem(1, 1, f"YAML error: {err}")]
    if root is None:
        return None, [YamlProblem(1, 1, "the file is empty: expected a ledger mapping")]
    located = Located(data=None)
    problems: list[YamlProblem] = []
    try:
        located.data = _convert(root, (), located, problems, _Budget(MAX_NODES))
    except ReadingStopped as stop:
        return None, [YamlProblem(stop.line, stop.col, stop.message)]
    return located, problems


def _syntax_problem(err: yaml.MarkedYAMLError, text: str) -> YamlProblem:
    """One line for a syntax error, as helpful from libyaml as from the Python reader."""
    mark = err.problem_mark or err.context_mark
    line, col = (mark.line, mark.column) if mark else (0, 0)
    what = err.problem or err.context or "not valid YAML"
    start = err.context_mark
    if err.problem and err.context and start and (start.line, start.column) != (line, col):
        what += f" ({err.context} at line {start.line + 1}, column {start.column + 1})"
    if _character_at(text, line, col) == "\t":  # libyaml does not say which character
        what += "; indent with spaces: YAML does not allow tabs there"
    return YamlProblem(line + 1, col + 1, f"YAML syntax error: {what}")


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


_CONSTRUCTOR = yaml.SafeLoader("")


def _convert_scalar(node: yaml.ScalarNode, problems: list[YamlProblem]) -> Any:
    """Scalars as safe_load reads them, except dates, which stay ISO strings."""
    if node.tag == "tag:yaml.org,2002:str":
        return node.value  # most of a ledger; the constructor would only hand it back
    try:
        value = _CONSTRUCTOR.construct_object(node)
    except (ValueError, yaml.constructor.ConstructorError) as err:
        if node.tag == "tag:yaml.org,2002:timestamp" and not node.style:
            # Shaped like a date but not on the calendar (2026-13-45): keep the text,
            # so the one report comes from the field that needs a date.
            return node.value
        problems.append(_at(node, f"'{node.value}' cannot be read: {err}"))
        return None
    if isinstance(value, dt.datetime):
        return value.isoformat()
    if isinstance(value, dt.date):
        return value.isoformat()
    return value
