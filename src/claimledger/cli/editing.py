"""Commands that shape the ledger without reading a page: section, facet, set, remove,
refute. Each is one locked, compared, atomic edit (see `claimledger.ledgerfile`)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import command, options, out, today
from claimledger.cli.options import BASES, GRADES, ClaimId, Premises, parse_basis, parse_grade
from claimledger.errors import ExitCode, InputError
from claimledger.vocabulary import LEDGER_FIELDS

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger import Ledger


@command("section")
def section_command(
    ctx: typer.Context,
    section_id: Annotated[str, typer.Argument(metavar="ID", help="The new section's id.")],
    title: Annotated[str, typer.Argument(metavar="TITLE", help="Its heading in the report.")],
    intro: Annotated[
        str | None,
        typer.Option("--intro", metavar="MARKDOWN", help="What the section is about."),
    ] = None,
) -> ExitCode:
    """Add a section to the report; claims join it with `add --section ID`.

    Example: claimledger section limits "What the limits are" --intro "Each documented cap."
    """

    from claimledger import edits, ledgerfile

    def change(text: str, ledger: Ledger) -> str:
        return edits.add_section(text, ledger, section_id, title, intro or "")

    ledgerfile.update(options(ctx).ledger, change)
    out.print(f"added section {section_id}: {title}", markup=False)
    return ExitCode.OK


@command("facet")
def facet_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    on: Annotated[str, typer.Argument(metavar="FACET", help="What is graded, in words.")],
    grade: Annotated[str, typer.Option("--grade", metavar="GRADE", help=f"One of {GRADES}.")],
    why: Annotated[str, typer.Option("--why", metavar="TEXT", help="Why it has that grade.")],
    basis: Annotated[
        str, typer.Option("--basis", metavar="BASIS", help=f"What it rests on: {BASES}.")
    ] = "quotes",
    depends_on: Premises = None,
) -> ExitCode:
    """Add a graded facet to a claim ("the page says X" and "X holds at runtime" are two).

    A facet on basis premises rests on --depends-on claims (default: the claim's own).

    Example: claimledger facet input-gate "holds across a crash" --grade UNKNOWN
    --basis judgement --why "no page says what happens to a gate at a crash"
    """

    from claimledger import edits, ledgerfile

    if not why.strip():
        raise InputError("--why must say why")
    facet = edits.NewFacet(
        on=on,
        grade=parse_grade(grade),
        basis=parse_basis(basis),
        why=why,
        depends_on=tuple(depends_on or ()),
    )
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        return edits.add_facet(text, ledger, claim_id, facet, date=day)

    ledgerfile.update(options(ctx).ledger, change)
    out.print(f"{claim_id}: added facet {on!r} ({facet.grade})", markup=False)
    return ExitCode.OK


@command("set")
def set_command(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(metavar="FIELD", help=f"One of {', '.join(LEDGER_FIELDS)}."),
    ],
    value: Annotated[
        str,
        typer.Argument(
            metavar="VALUE", help="The new value; '-' reads it from standard input (for about)."
        ),
    ],
) -> ExitCode:
    """Set the reading's own title, subject, author, date read (YYYY-MM-DD) or about.

    Example: claimledger set date_read 2026-08-23
    """

    from claimledger import edits, ledgerfile

    text = sys.stdin.read() if value == "-" else value
    if not text.strip():
        raise InputError(f"{name} needs a value")

    def change(old: str, ledger: Ledger) -> str:
        return edits.set_field(old, ledger, name, text)

    ledgerfile.update(options(ctx).ledger, change)
    shown = text if "\n" not in text.strip() else f"{len(text.splitlines())} lines"
    out.print(f"{name}: {shown.strip()}", markup=False)
    return ExitCode.OK


@command("remove")
def remove_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    quote: Annotated[
        int | None,
        typer.Option("--quote", metavar="N", min=1, help="Remove only its Nth quote (1: first)."),
    ] = None,
    facet: Annotated[
        str | None, typer.Option("--facet", metavar="FACET", help="Remove only this facet.")
    ] = None,
) -> ExitCode:
    """Remove a claim, or one of its quotes or facets (noted in the claim's history).

    A claim another claim rests on is refused until that one no longer names it.

    Example: claimledger remove output-gate --quote 2
    """

    from claimledger import edits, ledgerfile

    if quote is not None and facet is not None:
        raise InputError("give --quote or --facet, not both")
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        if quote is not None:
            return edits.remove_quote(text, ledger, claim_id, quote, date=day)
        if facet is not None:
            return edits.remove_facet(text, ledger, claim_id, facet, date=day)
        return edits.remove_claim(text, ledger, claim_id)

    ledgerfile.update(options(ctx).ledger, change)
    what = f"quote {quote} of " if quote else f"facet {facet!r} of " if facet else ""
    out.print(f"removed {what}{claim_id}", markup=False)
    return ExitCode.OK


@command("refute")
def refute_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    because: Annotated[
        str,
        typer.Option("--because", metavar="TEXT", help="What was seen: the falsifier met."),
    ],
) -> ExitCode:
    """Record that a claim's falsifier fired: the report shows the claim refuted.

    The next regrade caps every facet that rests on it at UNKNOWN.

    Example: claimledger refute output-gate --because "the glossary now says messages may
    leave before the write is durable"
    """

    from claimledger import edits, ledgerfile

    if not because.strip():
        raise InputError("--because must say why")
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        return edits.refute(text, ledger, claim_id, why=because, by="person", date=day)

    ledgerfile.update(options(ctx).ledger, change)
    out.print(f"{claim_id}: refuted; next: claimledger regrade --write", markup=False)
    return ExitCode.OK
