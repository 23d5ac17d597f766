"""Shell completion of claim and source ids, from the ledger a command would use.

Typer's completion runs the whole command line for every Tab press, so what completes
here must be quick and must never fail: the ledger is skimmed (`claimledger.ledger.skim`),
not loaded, and one that cannot be read, or none at all, completes nothing and prints
nothing.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path

import typer

from claimledger.cli.app import find_ledger
from claimledger.ledger.skim import LedgerIds, skim
from claimledger.terminal.output import visible_controls


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
    return [
        (i, _description(title))
        for i, title in ids.items()
        if i.startswith(incomplete) and i not in given
    ]


def _description(title: str) -> str:
    """A title as the shell shows it beside its id, without its backslashes: typer quotes
    a description for zsh, whose `_arguments` evaluates it, escaping its `"` but not its
    backslashes, so a title's `\\"` would end the quoted text and run what follows
    (`<(command)`) at the press of Tab in a cloned repository. Typer then reads the
    description as rich markup for zsh and fish, so each `[tag]` in it is escaped as rich
    escapes one: a `[/b]` that closes nothing would print a traceback at the prompt. Its
    control characters are shown as their pictures (`visible_controls`): the shell prints
    the description to the terminal when Tab lists the ids, and the file is skimmed, not
    read as YAML, so a title the ledger would refuse for its ESC still gets here."""
    return _MARKUP_TAG.sub(r"\\\1", visible_controls(title.replace("\\", "")))


_MARKUP_TAG = re.compile(r"(\[[a-z#/@][^[]*?])")
"""What rich reads as a markup tag (`rich.markup.escape`'s own pattern; rich is not loaded
to complete, which must be quick)."""


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
