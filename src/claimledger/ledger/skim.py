"""The claim and source ids a ledger names, skimmed line by line for what its block
style writes (`- id: X` under `claims:`, keys under `sources:`), each with its title:
quick, with no YAML parser and no schema, for shell completion on every Tab press. A
ledger written otherwise (flow style) skims to nothing."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from claimledger.ledger.vocabulary import CLAIM_ID

MAX_BYTES = 8 * 1024 * 1024
"""Read no more of a ledger than this to complete from it (a ledger is far smaller)."""

_TOP_KEY = re.compile(r"([A-Za-z_][\w-]*)[ \t]*:(?:[ \t]|$)")
_FLOW_TITLE = re.compile(r"^\{.*?\btitle:[ \t]*(\"[^\"]*\"|'[^']*'|[^,}]*)")
_DOUBLE_QUOTED = re.compile(r'"((?:[^"\\]|\\.)*)"')
_SINGLE_QUOTED = re.compile(r"'((?:[^']|'')*)'")
_ITEM = re.compile(r"( *)-( +)(.*)")
_KEY = re.compile(r"( *)(\"[^\"]*\"|'[^']*'|[^\s#'\"\-{\[][^:#]*?)[ \t]*:(?:[ \t]+(.*))?$")


@dataclass
class LedgerIds:
    """The claim and source ids a ledger names, in its order, each with its title."""

    claims: dict[str, str] = field(default_factory=dict)
    sources: dict[str, str] = field(default_factory=dict)


def skim(path: Path) -> LedgerIds:
    """The ids of the ledger at `path`, read as its block style writes them."""
    found = LedgerIds()
    if not path.is_file():  # none, a directory, a pipe that would never end
        return found
    with path.open("rb") as file:
        text = file.read(MAX_BYTES).decode("utf-8", errors="replace").removeprefix("\ufeff")
    top = ""
    item_column: int | None = None  # where the keys of a claim item begin
    dash_indent: int | None = None
    source_indent: int | None = None
    field_indent: int | None = None  # where the fields of a source begin
    current: str | None = None
    for line in text.splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line[0].isspace():
            key = _TOP_KEY.match(line)
            top = key.group(1) if key else ""
            current = None
            continue
        if top == "claims":
            item = _ITEM.fullmatch(line)
            if item and (dash_indent is None or len(item.group(1)) == dash_indent):
                dash_indent = len(item.group(1))
                item_column = dash_indent + 1 + len(item.group(2))
                current = None
                line = " " * item_column + item.group(3)
            key = _KEY.fullmatch(line)
            if key is None or len(key.group(1)) != item_column:
                continue
            name, value = _scalar(key.group(2)), _scalar(key.group(3) or "")
            if name == "id" and CLAIM_ID.fullmatch(value):
                current = value
                found.claims.setdefault(value, "")
            elif name == "title" and current is not None and not found.claims[current]:
                found.claims[current] = value
        elif top == "sources":
            key = _KEY.fullmatch(line)
            if key is None:
                continue
            indent, name = len(key.group(1)), _scalar(key.group(2))
            if source_indent is None:
                source_indent = indent
            if indent == source_indent:
                current = name if CLAIM_ID.fullmatch(name) else None
                if current is not None:
                    flow = _FLOW_TITLE.search(key.group(3) or "")  # id: {url: ..., title: T}
                    found.sources.setdefault(current, _scalar(flow.group(1)) if flow else "")
                continue
            field_indent = indent if field_indent is None else field_indent
            if indent == field_indent and name == "title" and current is not None:
                found.sources[current] = found.sources[current] or _scalar(key.group(3) or "")
    return found


def _scalar(written: str) -> str:
    """A one-line YAML scalar as written, without its quotes or its trailing comment; a
    block scalar's indicator (`>-`, `|`) is no value of its own here."""
    value = written.strip()
    if quoted := _DOUBLE_QUOTED.match(value):
        return re.sub(r'\\(["\\/])', r"\1", quoted.group(1))
    if quoted := _SINGLE_QUOTED.match(value):
        return quoted.group(1).replace("''", "'")
    value = re.split(r"[ \t]#", value, maxsplit=1)[0].strip()
    return "" if value[:1] in ("|", ">", "&", "*", "!", '"', "'") else value
