"""Shell completion of claim and source ids, from the ledger a command would use.

Typer's completion runs the whole command line for every Tab press, so what completes
here must be quick and must never fail: the ledger is not loaded (no YAML parser, no
schema) but skimmed line by line for the ids its block style writes (`- id: X` under
`claims:`, keys under `sources:`), each with its title as the hint zsh and fish show.
A ledger written otherwise (flow style), one that cannot be read, or none at all
completes nothing, and prints nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

import typer

from claimledger.cli.app import find_ledger
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


def complete_claims(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """The ledger's claim ids that start with what is typed, less those already given."""
    return _matching(_ids(ctx).claims, ctx, incomplete)


def complete_sources(ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    """The ledger's source ids that start with what is typed."""
    return _matching(_ids(ctx).sources, ctx, incomplete)


def one_of(values: Iterable[str]) -> Callable[[str], list[str]]:
    """Completion of a closed set of values (grades, bases, kinds, formats, fields)."""
    choices = tuple(values)

    def complete(incomplete: str) -> list[str]:
        return [value for value in choices if value.startswith(incomplete)]

    return complete


def _matching(ids: dict[str, str], ctx: typer.Context, incomplete: str) -> list[tuple[str, str]]:
    given = _given(ctx)
    return [(i, title) for i, title in ids.items() if i.startswith(incomplete) and i not in given]


def _given(ctx: typer.Context) -> set[str]:
    """The words the command's parameters already hold (`refresh a b` holds a and b)."""
    given: set[str] = set()
    for value in ctx.params.values():
        if isinstance(value, str):
            given.add(value)
        elif isinstance(value, list | tuple):
            given.update(v for v in value if isinstance(v, str))
    return given


def _ids(ctx: typer.Context) -> LedgerIds:
    try:
        return skim(_ledger_path(ctx))
    except Exception:  # completion must never fail or print: it completes nothing instead
        return LedgerIds()


def _ledger_path(ctx: typer.Context) -> Path:
    """The ledger as the command would find it: --ledger after the command, before it (or
    CLAIMLEDGER_LEDGER), else claims.yaml here or in the nearest directory above."""
    context: typer.Context | None = ctx
    while context is not None:
        for name in ("ledger_after_command", "ledger"):
            given = context.params.get(name)
            if given:
                return Path(given)
        context = context.parent  # type: ignore[assignment]
    return find_ledger(Path())


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
