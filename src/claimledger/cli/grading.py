"""Commands that turn evidence into grades and wording: regrade, explain, accept."""

from __future__ import annotations

import dataclasses
from typing import Annotated

import typer

from claimledger import edits, ledgerfile
from claimledger.accept import accept_plan
from claimledger.artifact import run_artifact
from claimledger.cli.app import (
    Options,
    command,
    err,
    found_if,
    latest_checks,
    latest_fetches,
    no_evidence_note,
    options,
    out,
    print_json,
    today,
)
from claimledger.cli.options import AsJson, ClaimIds
from claimledger.cli.views import (
    evidence_gaps,
    explain_lines,
    notices_table,
    proposals_table,
    regrade_note,
    to_json,
    unchecked_claims,
)
from claimledger.errors import ExitCode, InputError
from claimledger.grade import ArtifactOutcome, Regrade, regrade
from claimledger.ledger import Ledger
from claimledger.records import CheckRecord, RunRecord


@command("regrade")
def regrade_command(
    ctx: typer.Context,
    write: Annotated[
        bool, typer.Option("--write", help="Apply the proposals to the ledger.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if anything is pending (CI).")
    ] = False,
    run_artifacts: Annotated[
        bool, typer.Option("--run-artifacts", help="Re-run artifact claims' commands first.")
    ] = False,
    as_json: AsJson = False,
) -> ExitCode:
    """Propose grade changes from the latest evidence, by named rules.

    Exit 1 when a proposal or a stale facet is pending (after --write: only what is
    left), 0 when nothing is.
    """
    if write and check:
        raise InputError("--write and --check exclude each other")
    opts = options(ctx)
    ledger = opts.load()
    checks = latest_checks(opts, ledger)
    artifacts = _run_artifacts(opts, ledger) if run_artifacts else {}
    if write:
        applied = _write_proposals(opts, checks, artifacts)
        if applied.proposals:
            count = len(applied.proposals)
            err.print(f"applied {count} grade change(s) to {opts.ledger}", markup=False)
        result = dataclasses.replace(applied, proposals=())  # the rest is what stays pending
    else:
        result = regrade(ledger, checks, artifacts)
    last, unchecked = _coverage(opts, ledger, checks)
    gaps = evidence_gaps(last, unchecked if result.has_evidence else [])
    if as_json:
        print_json(
            {
                "has_evidence": result.has_evidence,
                "proposals": to_json(result.proposals),
                "stale": to_json(result.notices),
                "evidence_gaps": gaps,
            }
        )
    else:
        _print_regrade(opts, result)
        for line in gaps:
            err.print(line, markup=False)
    return found_if(result.pending or (check and bool(gaps)))


def _coverage(
    opts: Options, ledger: Ledger, checks: list[CheckRecord]
) -> tuple[RunRecord | None, list[str]]:
    """The last run, and the claims its evidence does not cover: a gate (`--check`) must
    not pass on a refresh that was cut short."""
    _, last = latest_fetches(opts, ledger)
    return last, unchecked_claims(ledger, checks)


def _write_proposals(
    opts: Options, checks: list[CheckRecord], artifacts: dict[str, ArtifactOutcome]
) -> Regrade:
    """Apply every proposal to the ledger as it is on disk under the lock, in one write.

    The rules order premises before the claims that rest on them, so one pass proposes
    every change a chain needs: after it, regrading again proposes nothing.
    """
    applied = Regrade(proposals=(), notices=(), traces=(), has_evidence=False)
    day = today()

    def change(text: str, fresh: Ledger) -> str:
        nonlocal applied
        applied = regrade(fresh, checks, artifacts)
        changes = [
            edits.GradeChange(p.claim_id, p.on, p.to_grade, p.by, p.why) for p in applied.proposals
        ]
        return edits.set_grades(text, fresh, changes, date=day)

    ledgerfile.update(opts.ledger, change)
    return applied


def _print_regrade(opts: Options, result: Regrade) -> None:
    if not result.has_evidence:
        no_evidence_note(opts)
    if result.proposals:
        out.print(proposals_table(result))
    if result.notices:
        out.print(notices_table(result))
    note = regrade_note(result)
    if note:
        out.print(note, markup=False)


def _run_artifacts(opts: Options, ledger: Ledger) -> dict[str, ArtifactOutcome]:
    return {
        claim.id: run_artifact(claim.id, claim.artifact, opts.home)
        for claim in ledger.claims
        if claim.artifact is not None
    }


@command("explain")
def explain_command(
    ctx: typer.Context,
    claim_id: Annotated[str, typer.Argument(metavar="CLAIM")],
    as_json: AsJson = False,
) -> ExitCode:
    """Why each facet of a claim has its grade: the rule, its verdict, the evidence."""
    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    result = regrade(ledger, latest_checks(opts, ledger))
    traces = [t for t in result.traces if t.claim_id == claim_id]
    if as_json:
        print_json({"traces": to_json(traces), "history": to_json(claim.history)})
        return ExitCode.OK
    for line in explain_lines(claim, traces):
        out.print(line, markup=False)
    return ExitCode.OK


@command("accept")
def accept_command(
    ctx: typer.Context,
    claim_ids: ClaimIds = None,
    all_drifted: Annotated[
        bool, typer.Option("--all-drifted", help="Every claim with a drifted quote.")
    ] = False,
    even_if_meaning_changed: Annotated[
        bool,
        typer.Option(
            "--even-if-meaning-changed",
            help="Also adopt wording whose change touched a meaning-carrying word.",
        ),
    ] = False,
) -> ExitCode:
    """Adopt the page's current wording for drifted quotes; the old one goes to history.

    A drift that changed meaning (a negation, a modal, a number...) is refused unless
    --even-if-meaning-changed: a reversed guarantee must be re-read, not rubber-stamped.
    """
    if not claim_ids and not all_drifted:
        raise InputError("name the claims to accept, or pass --all-drifted")
    opts = options(ctx)
    ledger = opts.load()
    for claim_id in claim_ids or ():
        ledger.claim(claim_id)
    chosen = set(claim_ids or ledger.claim_ids)
    plan = accept_plan(
        ledger,
        latest_checks(opts, ledger),
        chosen,
        even_if_meaning_changed=even_if_meaning_changed,
    )
    for refusal in plan.refused:
        err.print(f"refused: {refusal}", markup=False)
    if plan.adoptions:
        day = today()

        def change(text: str, fresh: Ledger) -> str:
            return edits.replace_quotes(text, fresh, plan.adoptions, date=day)

        ledgerfile.update(opts.ledger, change)
    for adoption in plan.adoptions:
        out.print(
            f"accepted {adoption.claim_id} #{adoption.quote_index + 1}: {adoption.new}",
            markup=False,
        )
    if not plan.adoptions and not plan.refused:
        out.print("nothing to accept: no drifted quote among the chosen claims", markup=False)
    return found_if(bool(plan.refused))
