"""Editing YAML text in place: each change touches only the characters it must.

A round-trip dump cannot keep an author's file as written (appending to a mapping moves
the comments and blank lines that trail its last value), so every change here is an
`Edit` computed from one parse of the text, whose node marks index its characters:
a scalar replaced where it stands, an entry inserted after the last line of content of
its collection, a collection item or entry removed with the lines it occupies.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Mapping, Sequence
from typing import Any

import yaml

from claimledger.ledger.model import Ledger
from claimledger.ledger.safeyaml import READER_ONLY_BREAK, compose, core_tag

NodePath = Sequence[str | int]
_TIMESTAMP = "tag:yaml.org,2002:timestamp"


def tree_of(text: str, ledger: Ledger) -> yaml.Node:
    """The node tree of `text`: the one `ledger` was parsed to when it was parsed from this
    very text (as `update` hands it over), else read afresh."""
    parsed = ledger.parsed_from
    if parsed is not None and parsed.text == text and isinstance(parsed.tree, yaml.Node):
        return parsed.tree
    return compose(text)


def node_at(root: yaml.Node, path: NodePath) -> yaml.Node:
    node = root
    for part in path:
        if isinstance(part, int):
            assert isinstance(node, yaml.SequenceNode)
            node = node.value[part]
        else:
            assert isinstance(node, yaml.MappingNode)
            node = next(value for key, value in node.value if key.value == part)
    return node


def has_key(root: yaml.Node, path: NodePath, key: str) -> bool:
    node = node_at(root, path)
    return isinstance(node, yaml.MappingNode) and any(k.value == key for k, _ in node.value)


Edit = tuple[int, int, str]
"""Replace `text[start:end]` with the string: every change of the file is a list of these,
computed on one parse of the text and applied in one pass (`apply_edits`)."""


def apply_edits(text: str, edits: Sequence[Edit]) -> str:
    """The text with every edit made, each at the place it names in the original.

    Edits at one place land in the order given; edits never overlap.
    """
    pieces: list[str] = []
    cursor = len(text)
    ordered = sorted(enumerate(edits), key=lambda item: (item[1][0], item[0]), reverse=True)
    for _, (start, end, replacement) in ordered:
        assert end <= cursor, "edits overlap"
        pieces.append(text[end:cursor])
        pieces.append(replacement)
        cursor = start
    pieces.append(text[:cursor])
    return "".join(reversed(pieces))


def set_scalar(text: str, path: NodePath, value: str) -> str:
    """Replace one scalar value, keeping its quoting style where the value allows it."""
    return apply_edits(text, [scalar_edit(text, node_at(compose(text), path), value)])


def scalar_edit(text: str, node: yaml.Node, value: str) -> Edit:
    """A scalar's new value in its old style: quoted stays quoted, and a block (`|`)
    stays a block at its indentation when the new value has several lines too."""
    assert isinstance(node, yaml.ScalarNode)
    end = _scalar_end(text, node)
    if node.style in ("|", ">") and _as_block(value):
        column = _key_column(text, node)
        rendered = render_block({"_": value}, column)
        return node.start_mark.index, end, rendered[column + 3 :].rstrip("\n")
    style = node.style if node.style in ('"', "'") else None
    return node.start_mark.index, end, _render_scalar(value, style)


def _scalar_end(text: str, node: yaml.ScalarNode) -> int:
    """A block scalar's span swallows the blank lines after it; keep those in place."""
    end = node.end_mark.index
    if node.style in ("|", ">"):
        end = len(text[:end].rstrip())
    return end


def _render_scalar(value: str, style: str | None) -> str:
    """A value replaced where it stands: plain only where it reads back as itself in a
    flow collection too (`a, b` in `{title: a, b}` would be two entries), since the
    scalar may stand in one; else double-quoted. A value of several lines is double-quoted
    even where it was single-quoted: single quotes carry a line break only on a line of
    its own, which the dumper starts at the left edge rather than past the key, and YAML
    1.2 (an editor's language server) then reads the rest of the mapping as broken."""
    if (style != '"' and "\n" in value) or READER_ONLY_BREAK.search(value):
        style = '"'  # where they are escaped: the ledger holds no such break as a character
    dumped = yaml.safe_dump(value, default_style=style, width=2**31 - 1, allow_unicode=True)
    dumped = dumped.removesuffix("\n...\n").removesuffix("\n")
    if style is None and not _reads_back(dumped, value):
        return _render_scalar(value, '"')
    return dumped


def _reads_back(plain: str, value: str) -> bool:
    """Does a plain scalar read as `value` alone and as an item of a flow collection?"""
    try:
        return bool(yaml.safe_load(plain) == value and yaml.safe_load(f"[{plain}]") == [value])
    except yaml.YAMLError:
        return False


def append_item(text: str, seq_path: NodePath, item: Any) -> str:
    """Append `item` to the block sequence at `seq_path`, as one flow-style line."""
    return apply_edits(text, [append_items_edit(text, node_at(compose(text), seq_path), [item])])


def append_items_edit(text: str, seq: yaml.Node, items: Sequence[Any]) -> Edit:
    """Items appended to a sequence: one flow-style line each in a block sequence, or
    `, item` after the last item of a flow one (touching nothing else)."""
    assert isinstance(seq, yaml.SequenceNode)
    if seq.flow_style:
        flow = ", ".join(render_in_flow(item) for item in items)
        if not seq.value:
            close = text.rindex("]", seq.start_mark.index, seq.end_mark.index)
            return close, close, flow
        after_last = seq.value[-1].end_mark.index
        return after_last, after_last, ", " + flow
    dash_column = _dash_column(text, seq.value[0])
    lines = "".join(" " * dash_column + "- " + render_flow(item) + "\n" for item in items)
    return insert_lines_edit(text, _after_content(text, seq), lines)


def add_key(text: str, map_path: NodePath, key: str, value: Any) -> str:
    """Add `key: value` as the last entry of the mapping at `map_path`.

    A block mapping gains a block entry; a flow mapping (`{a: 1}`) gains `, key: value`
    before its brace; an empty one (`{}`, as an author starts a ledger) becomes a block.
    """
    return apply_edits(text, [add_key_edit(text, node_at(compose(text), map_path), key, value)])


def add_key_edit(
    text: str, mapping: yaml.Node, key: str, value: Any, *, after: Sequence[str] = ()
) -> Edit:
    """`key: value` as a new entry: after the last of the keys `after` that a block
    mapping has (where a reader looks for it), else as its last entry."""
    assert isinstance(mapping, yaml.MappingNode)
    placed = [v for k, v in mapping.value if k.value in after]
    if placed and not mapping.flow_style:
        column = mapping.value[0][0].start_mark.column
        at = _after_content(text, placed[-1])
        return insert_lines_edit(text, at, render_block({key: value}, column))
    if mapping.flow_style and mapping.value:
        close = text.rindex("}", mapping.start_mark.index, mapping.end_mark.index)
        return close, close, ", " + render_in_flow({key: value})[1:-1]
    if not mapping.value:
        column = _key_column(text, mapping) + 2
        block = "\n" + render_block({key: value}, column).rstrip("\n")
        start = len(text[: mapping.start_mark.index].rstrip(" "))
        return start, mapping.end_mark.index, block
    column = mapping.value[0][0].start_mark.column
    return insert_lines_edit(
        text, _after_content(text, mapping), render_block({key: value}, column)
    )


def append_block_item(
    text: str, seq_path: NodePath, item: Mapping[str, Any], *, gap: bool = True
) -> str:
    """Append a mapping to a block sequence in block style, after a blank line when `gap`
    (as claims and sections are spaced; facets are not).

    A flow sequence with items (`[{id: a}]`) gains the mapping as one more flow item; an
    empty one (`[]`, as an author starts a ledger) becomes a block sequence.
    """
    root = compose(text)
    seq = node_at(root, seq_path)
    assert isinstance(seq, yaml.SequenceNode)
    if seq.flow_style and seq.value:
        return append_item(text, seq_path, dict(item))
    if not seq.value:
        key_column = _key_column(text, seq)
        body = render_block(dict(item), key_column + 4)
        block = "\n" + " " * (key_column + 2) + "- " + body[key_column + 4 :].rstrip("\n")
        return text[: seq.start_mark.index].rstrip(" ") + block + text[seq.end_mark.index :]
    dash_column = _dash_column(text, seq.value[0])
    body = render_block(dict(item), dash_column + 2)
    block = ("\n" if gap else "") + " " * dash_column + "- " + body[dash_column + 2 :]
    at = _after_content(text, seq)
    return _insert_lines(text, at, block)


def remove_item(text: str, seq_path: NodePath, index: int) -> str:
    """Remove item `index` of the sequence at `seq_path` with the lines it occupies (and
    the blank lines after it, so the gaps between the others stay as they were). A block
    sequence left empty becomes `[]`, so its key keeps meaning a list."""
    seq = node_at(compose(text), seq_path)
    assert isinstance(seq, yaml.SequenceNode)
    item = seq.value[index]
    if seq.flow_style:
        return apply_edits(text, [_flow_item_removal(text, seq, index)])
    if len(seq.value) == 1:
        start = len(text[: seq.start_mark.index].rstrip(" \r\n"))
        return apply_edits(text, [(start, _after_content(text, seq), " []\n")])
    start = text.rfind("\n", 0, item.start_mark.index) + 1
    end = _after_content(text, item)
    if index + 1 < len(seq.value):
        end = _past_blank_lines(text, end)
    elif not _keeps_trailing_lines(text, _last_scalar(seq.value[index - 1])):
        start = _before_blank_lines(text, start)  # the last: the blank lines before go too
    else:  # those are the `|+` block's own: the ones after go, or the block would own them
        end = _past_blank_lines(text, end)
    return apply_edits(text, [(start, end, "")])


def remove_key(text: str, map_path: NodePath, key: str) -> str:
    """Remove `key` and its value from the mapping at `map_path`: from a block mapping
    with the lines they occupy (and the blank lines after, as `remove_item` does for an
    item), from a flow one (`{a: 1, b: 2}`) with its comma."""
    mapping = node_at(compose(text), map_path)
    assert isinstance(mapping, yaml.MappingNode)
    pairs = mapping.value
    index = next(i for i, (name, _) in enumerate(pairs) if name.value == key)
    if mapping.flow_style:
        spans = [(name.start_mark.index, value.end_mark.index) for name, value in pairs]
        return apply_edits(text, [_flow_removal(text, spans, index)])
    name, value = pairs[index]
    start = text.rfind("\n", 0, name.start_mark.index) + 1
    end = _after_content(text, value)
    if index + 1 < len(pairs):
        end = _past_blank_lines(text, end)
    elif index == 0 or not _keeps_trailing_lines(text, _last_scalar(pairs[index - 1][1])):
        start = _before_blank_lines(text, start)
    else:  # as in `remove_item`: the blank lines before are the `|+` block's own
        end = _past_blank_lines(text, end)
    return apply_edits(text, [(start, end, "")])


def _past_blank_lines(text: str, at: int) -> int:
    while at < len(text) and not text[at:].split("\n", 1)[0].strip():
        newline = text.find("\n", at)
        at = len(text) if newline < 0 else newline + 1
    return at


def _before_blank_lines(text: str, at: int) -> int:
    while at > 0:
        previous = text.rfind("\n", 0, at - 1) + 1
        if text[previous : at - 1].strip():
            break
        at = previous
    return at


def _flow_item_removal(text: str, seq: yaml.SequenceNode, index: int) -> Edit:
    spans = [(item.start_mark.index, item.end_mark.index) for item in seq.value]
    return _flow_removal(text, spans, index)


_TRAILING_COMMA = re.compile(r"[ \t\r\n]*,")


def _flow_removal(text: str, spans: Sequence[tuple[int, int]], index: int) -> Edit:
    """One entry of a flow collection (its `spans`, start and end), with its comma: from
    it to the next, or from the one before for the last; the only one with the comma an
    author may leave after it (`[x,]`)."""
    if len(spans) == 1:
        comma = _TRAILING_COMMA.match(text, spans[0][1])
        return spans[0][0], comma.end() if comma else spans[0][1], ""
    if index + 1 < len(spans):
        return spans[index][0], spans[index + 1][0], ""
    return spans[index - 1][1], spans[index][1], ""


def _insert_lines(text: str, at: int, lines: str) -> str:
    return apply_edits(text, [insert_lines_edit(text, at, lines)])


def insert_lines_edit(text: str, at: int, lines: str) -> Edit:
    """Insert whole lines at a line start `at`.

    At the end of a file whose last line has no newline, the new lines go after a
    newline of their own, and the file still ends without one, as its author keeps it.
    """
    if at == len(text) and text and not text.endswith("\n"):
        return at, at, "\n" + lines.removesuffix("\n")
    return at, at, lines


def _key_column(text: str, node: yaml.Node) -> int:
    """The column of the key on the line where `node` starts: its indentation, past the
    dashes of a sequence item the key opens (`- intro: |`)."""
    line_start = text.rfind("\n", 0, node.start_mark.index) + 1
    line = text[line_start : node.start_mark.index]
    return len(line) - len(_DASHES.sub("", line))


_DASHES = re.compile(r"^ *(?:-[ ]+)*")


def _dash_column(text: str, item: yaml.Node) -> int:
    """The column of the '- ' that introduces a block sequence item."""
    line_start = text.rfind("\n", 0, item.start_mark.index) + 1
    dash = text.rfind("-", line_start, item.start_mark.index)
    return dash - line_start if dash >= 0 else item.start_mark.column


def _after_content(text: str, node: yaml.Node) -> int:
    """The start of the line after the node's last character of content.

    Trailing blank lines and comments stay after whatever is inserted there, so the
    gap between this node and the next one keeps its place.
    """
    last = _last_scalar(node)
    if _keeps_trailing_lines(text, last):
        return last.end_mark.index  # its blank lines are part of its value, not the gap
    content_end = len(text[: last.end_mark.index].rstrip())
    newline = text.find("\n", content_end)
    return len(text) if newline < 0 else newline + 1


def _last_scalar(node: yaml.Node) -> yaml.Node:
    """The node a block collection ends with: its last value's, all the way down."""
    last = node
    while isinstance(last, yaml.MappingNode | yaml.SequenceNode) and not last.flow_style:
        last = last.value[-1][1] if isinstance(last, yaml.MappingNode) else last.value[-1]
    return last


def _keeps_trailing_lines(text: str, node: yaml.Node) -> bool:
    """A `|+` or `>+` block scalar, whose trailing blank lines belong to its value."""
    if not isinstance(node, yaml.ScalarNode) or node.style not in ("|", ">"):
        return False
    header = text[node.start_mark.index :].split("\n", 1)[0].split("#", 1)[0]
    return "+" in header


def render_flow(value: Any) -> str:
    return _dumped(value, flow=True).removesuffix("\n...\n").strip()


def render_in_flow(value: Any) -> str:
    """`value` as an item inside a flow collection, where `,`, `]` and `}` end a plain
    scalar: dumped as the one item of a list, which the emitter quotes as that needs."""
    return render_flow([value])[1:-1]


def _dumped(value: Any, *, flow: bool) -> str:
    """`value` as the ledger writes YAML: keys in their order, one line however long.

    A regrade writes hundreds of history entries, most of them alike (one date, a few
    rules and reasons): each distinct one is dumped once."""
    try:
        key = (_frozen(value), flow)
    except TypeError:  # not plain data: dumped as it is
        return _dump(value, flow=flow)
    dumped = _DUMPS.get(key)
    if dumped is None:
        if len(_DUMPS) >= _MAX_DUMPS:
            _DUMPS.clear()
        dumped = _DUMPS[key] = _dump(value, flow=flow)
    return dumped


_DUMPS: dict[Any, str] = {}
_MAX_DUMPS = 4096
_SCALARS = (str, int, bool, float, dt.date, type(None))


def _frozen(value: Any) -> Any:
    """A key for `value` that tells apart what dumps differently: the kinds of its
    collections (FlowMap, dict) and of its scalars (True, 1; a date, its text)."""
    kind = type(value)
    if kind is float:
        return kind, repr(value)  # -0.0 is 0.0, and dumps otherwise
    if kind in _SCALARS:
        return kind, value
    if isinstance(value, dict):
        return kind, tuple((_frozen(k), _frozen(v)) for k, v in value.items())
    if isinstance(value, list | tuple):
        return kind, tuple(_frozen(item) for item in value)
    raise TypeError(kind)


def _dump(value: Any, *, flow: bool) -> str:
    return yaml.dump(
        value,
        Dumper=IndentedDumper,
        default_flow_style=flow,
        sort_keys=False,
        width=2**31 - 1,
        allow_unicode=True,
        indent=2,
    )


class IndentedDumper(yaml.SafeDumper):
    """Indent block sequences under their key (`key:\\n  - item`), as ledgers are written,
    never write anchors (a value repeated, one date in several history entries, is
    written out each time, since a ledger is read by people), and quote a string only
    where the YAML 1.2 core schema the ledger is read by needs it (`on: x`, not `'on': x`)."""

    def resolve(self, kind: type[yaml.Node], value: str, implicit: tuple[bool, bool]) -> str:
        tag: str = super().resolve(kind, value, implicit)  # type: ignore[no-untyped-call]
        if kind is yaml.ScalarNode and implicit[0] and tag != _TIMESTAMP:
            return core_tag(value)  # dates stay plain: the ledger reads them as dates
        return tag

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)

    def ignore_aliases(self, data: Any) -> bool:
        return True


def _represent_text(dumper: yaml.SafeDumper, data: str) -> yaml.Node:
    """Text of several lines as a literal block (`|`), as an author writes an intro; the
    emitter falls back to a quoted scalar where a block cannot stand (inside a flow).
    Text holding a line break that only YAML counts (U+0085, U+2028, U+2029) is double-
    quoted, where it is escaped: the emitter writes it raw elsewhere, and it reads back
    as a break folded to a space."""
    style = "|" if _as_block(data) else '"' if READER_ONLY_BREAK.search(data) else None
    return dumper.represent_scalar("tag:yaml.org,2002:str", data, style=style)


def _as_block(text: str) -> bool:
    """Is text written as a literal block? Several lines, and none that a block cannot
    keep: spaces at a line's end, blank lines at its end (kept only by `|+`, which then
    owns every blank line after it), breaks only YAML counts."""
    return (
        "\n" in text.strip("\n")
        and not text.endswith("\n\n")
        and not READER_ONLY_BREAK.search(text)
        and all(line == line.rstrip(" \t") for line in text.split("\n"))
    )


IndentedDumper.add_representer(str, _represent_text)


def render_block(value: dict[str, Any], column: int) -> str:
    dumped = _dumped(value, flow=False)
    pad = " " * column
    return "".join(pad + line if line.strip() else line for line in dumped.splitlines(True))


class FlowMap(dict[str, Any]):
    """A mapping that renders on one line, as history entries are written."""


def _represent_flow_map(dumper: yaml.SafeDumper, data: FlowMap) -> yaml.Node:
    return dumper.represent_mapping("tag:yaml.org,2002:map", data.items(), flow_style=True)


IndentedDumper.add_representer(FlowMap, _represent_flow_map)


class FlowList(list[Any]):
    """A list that renders on one line, as source lists are written."""


def _represent_flow_list(dumper: yaml.SafeDumper, data: FlowList) -> yaml.Node:
    return dumper.represent_sequence("tag:yaml.org,2002:seq", data, flow_style=True)


IndentedDumper.add_representer(FlowList, _represent_flow_list)
