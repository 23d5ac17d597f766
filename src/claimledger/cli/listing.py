"""The command that lists every claim with its grades and standing: claims (ls)."""

from __future__ import annotations

import functools
from typing import Annotated

import typer

from claimledger.cli.app import command, options, read_latest
from claimledger.cli.completion import one_of
from claimledger.cli.options import GRADES, AsJson, parse_grade
from claimledger.errors import ExitCode
from claimledger.ledger.vocabulary import Grade
from claimledger.terminal.output import out, print_json


@command("claims", aliases=("ls",))
def claims_command(
    ctx: typer.Context,
    grade: Annotated[
        str | None,
        typer.Option(
            "--grade",
            metavar="GRADE",
            help=f"Only claims with a facet graded so ({GRADES}).",
            autocompletion=one_of(Grade),
        ),
    ] = None,
    needs_review: Annotated[
        bool, typer.Option("--needs-review", help="Only the claims that need review.")
    ] = False,
    section: Annotated[
        str | None, typer.Option("--section", metavar="SECTION", help="Only this section's.")
    ] = None,
    as_json: AsJson = False,
) -> ExitCode:
    """Every claim, one a line: its section, its grade on each facet, and its standing.

    The standing is what the latest evidence says of its quotes (verified, drifted,
    missing, unread, not yet checked), or that it needs review, is refuted, or rests on
    no quote. `status` shows only what needs a look; this shows everything.

    Example: claimledger claims --grade UNKNOWN
    """
    from claimledger.grading.rules import unchecked_by_claim
    from claimledger.ledger.located import collector_paused
    from claimledger.services import latest
    from claimledger.terminal.lines import claim_row, claim_standings, evidence_gaps
    from claimledger.terminal.refresh import say

    opts = options(ctx)
    with collector_paused():  # what is read stays till the end: no collection walks it
        ledger = opts.load()
        wanted = None if grade is None else parse_grade(grade)  # in any case, as `grade` takes it
        if section is not None:
            ledger.require_section(section)
        standing = functools.partial(latest.checks_and_run, path=opts.ledger)
        checks, last = read_latest(opts, standing, ledger)
        standings = claim_standings(ledger, checks, unchecked_by_claim(ledger, checks))
        say(evidence_gaps(last, []))  # a refresh that did not finish: the standings are partial
        rows = [
            claim_row(claim, standings[claim.id])
            for claim in ledger.claims
            if (wanted is None or any(f.grade == wanted for f in claim.grades))
            and (not needs_review or claim.review is not None)
            and (section is None or claim.section == section)
        ]
        if as_json:
            print_json({"claims": rows})
        elif rows:
            from claimledger.terminal.views import claims_table

            out.print(claims_table(rows))
        else:
            out.print("no claim matches", markup=False)
    return ExitCode.OK
