"""Commands that turn evidence into grades and wording: regrade, explain, accept."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import (
    Options,
    artifacts_of,
    command,
    existing_store,
    found_if,
    latest_artifact_runs,
    latest_checks,
    latest_fetches,
    no_evidence_note,
    now,
    options,
    today,
    writable_store,
)
from claimledger.cli.asread import latest_as_read
from claimledger.cli.completion import complete_claims
from claimledger.cli.options import AsJson, ClaimId
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.evidence.store.rows import CheckVerdict
    from claimledger.grading.rules import ArtifactOutcome, Regrade
    from claimledger.ledger.model import Artifact, Ledger
    from claimledger.records import ArtifactRun, AsReadCheck, FetchRecord, RunRecord
    from claimledger.workspace.trust import Standing


@command("regrade")
def regrade_command(
    ctx: typer.Context,
    write: Annotated[
        bool, typer.Option("--write", help="Apply the proposals to the ledger.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if anything is pending (CI).")
    ] = False,
    no_artifacts: Annotated[
        bool,
        typer.Option(
            "--no-artifacts", help="Do not run artifact claims' commands: their grades stand."
        ),
    ] = False,
    allow_artifacts: Annotated[
        bool,
        typer.Option(
            "--allow-artifacts",
            "--run-artifacts",
            help="Run every artifact command this once, trusted or not (see `trust`).",
        ),
    ] = False,
    as_json: AsJson = False,
) -> ExitCode:
    """Propose grade changes from the latest evidence, by named rules.

    The artifact commands you trusted (`claimledger trust`) run first, and each run is
    recorded in the evidence store; one not trusted, or changed since, is skipped and
    said. Exit 1 when a proposal or a notice is pending (after --write: only what is
    left) or an artifact could not run. With --check the gate fails closed: exit 3 when
    nothing is pending but the evidence is incomplete (a claim never checked, a source
    that could not be read, a refresh cut short, an artifact skipped); 0 only when every
    graded quote was read and agrees.
    """
    from claimledger.cli.trusting import standing_json
    from claimledger.grading.artifact import outcome_of
    from claimledger.grading.rules import regrade
    from claimledger.ledger.located import collector_paused
    from claimledger.terminal.lines import evidence_gaps, to_json, unread_sources

    if write and check:
        raise InputError("--write and --check exclude each other")
    if allow_artifacts and no_artifacts:
        raise InputError("--allow-artifacts and --no-artifacts exclude each other")
    opts = options(ctx)
    with collector_paused():  # what is read stays till the end: no collection walks it
        ledger = opts.load()
        checks = _latest_verdicts(opts, ledger)
        as_read = latest_as_read(opts, ledger)  # verdicts on the reading day's copies
        allowed, skipped = _allowed_artifacts(opts, ledger, no_artifacts, allow_artifacts)
        runs = _run_artifacts(opts, allowed)
        artifacts = {claim_id: outcome_of(run) for claim_id, run in runs.items()}
        if write:
            applied = _write_proposals(opts, checks, artifacts, as_read)
            if applied.proposals:
                count = len(applied.proposals)
                changes = "grade change" if count == 1 else "grade changes"
                err.print(f"applied {count} {changes} to {opts.ledger}", markup=False)
            result = dataclasses.replace(applied, proposals=())  # the rest is what stays pending
        else:
            result = regrade(ledger, checks, artifacts, as_read)
        fetches, last, unchecked = _coverage(opts, ledger, checks)
        gaps = evidence_gaps(last, unchecked, ledger) + unread_sources(ledger, checks, fetches)
        if as_json:
            print_json(
                {
                    "has_evidence": result.has_evidence,
                    "proposals": to_json(result.proposals),
                    "stale": to_json(result.notices),
                    "evidence_gaps": gaps,
                    "skipped_artifacts": [standing_json(s) for s in skipped],
                }
            )
        else:
            _print_regrade(opts, result)
            for line in gaps:
                err.print(line, markup=False)
        _report_skipped(skipped)
        failed = _report_failed_runs(runs.values())
        if result.pending or failed:
            return ExitCode.FOUND
        return ExitCode.UNREAD if check and (gaps or skipped) else ExitCode.OK


def _latest_verdicts(opts: Options, ledger: Ledger) -> list[CheckVerdict]:
    """The latest check of each quote the ledger still holds, on each of its sources, in
    the fields the rules weigh (`latest_checks` with every field costs more than the rules)."""
    from claimledger.grading.rules import current_checks

    with existing_store(opts) as store:
        return current_checks(ledger, store.latest_verdicts() if store else [])


def _coverage(
    opts: Options, ledger: Ledger, checks: Sequence[CheckVerdict]
) -> tuple[dict[str, FetchRecord], RunRecord | None, list[str]]:
    """The latest fetches (what a page that could not be read answered), the last run, and
    the claims its evidence does not cover: a gate (`--check`) must not pass on a refresh
    that was cut short."""
    from claimledger.terminal.lines import unchecked_claims

    fetches, last = latest_fetches(opts, ledger)
    return fetches, last, unchecked_claims(ledger, checks)


def _write_proposals(
    opts: Options,
    checks: Sequence[CheckVerdict],
    artifacts: dict[str, ArtifactOutcome],
    as_read: list[AsReadCheck],
) -> Regrade:
    """Apply every proposal to the ledger as it is on disk under the lock, in one write.

    The rules order premises before the claims that rest on them, so one pass proposes
    every change a chain needs: after it, regrading again proposes nothing.
    """

    from claimledger.grading.rules import Regrade, regrade
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    applied = Regrade(proposals=(), notices=(), traces=(), has_evidence=False)
    day = today()

    def change(text: str, fresh: Ledger) -> str:
        nonlocal applied
        applied = regrade(fresh, checks, artifacts, as_read)
        changes = [
            edits.GradeChange(p.claim_id, p.on, p.to_grade, p.by, p.why) for p in applied.proposals
        ]
        return edits.set_grades(text, fresh, changes, date=day)

    ledgerfile.update(opts.ledger, change)
    return applied


def _print_regrade(opts: Options, result: Regrade) -> None:
    from claimledger.terminal.lines import regrade_note
    from claimledger.terminal.views import notices_table, proposals_table

    if not result.has_evidence:
        no_evidence_note(opts)
    if result.proposals:
        out.print(proposals_table(result))
    if result.notices:
        out.print(notices_table(result))
    note = regrade_note(result)
    if note:
        out.print(note, markup=False)


def _allowed_artifacts(
    opts: Options, ledger: Ledger, none: bool, every: bool
) -> tuple[dict[str, Artifact], list[Standing]]:
    """The artifacts this regrade may run, and those it skips for want of the user's
    consent (--no-artifacts skips all without a word: the user said so)."""
    from claimledger.workspace.trust import Consent, standings

    artifacts = artifacts_of(ledger)
    if none or every or not artifacts:
        return ({} if none else artifacts), []
    found = standings(opts.ledger, artifacts)
    allowed = {s.claim_id for s in found if s.consent is Consent.TRUSTED}
    skipped = [s for s in found if s.consent is not Consent.TRUSTED]
    return {claim: artifacts[claim] for claim in artifacts if claim in allowed}, skipped


def _report_skipped(skipped: Sequence[Standing]) -> None:
    """One line for each artifact not run, and how to allow it: a grade that stands on a
    run that did not happen must not pass for one that was checked."""
    from claimledger.workspace.trust import Consent

    for standing in skipped:
        why = (
            "its command, or a file it names, changed since you trusted it"
            if standing.consent is Consent.CHANGED
            else "you have not trusted its command"
        )
        err.print(
            f"claimledger: note: artifact of {standing.claim_id} not run: {why} "
            f"({standing.command}); read it, then `claimledger trust {standing.claim_id}`, "
            "or pass --allow-artifacts for this run",
            markup=False,
        )


def _run_artifacts(opts: Options, artifacts: dict[str, Artifact]) -> dict[str, ArtifactRun]:
    """Run each artifact claim's command beside the ledger, recording each run as it ends
    (a regrade cut short keeps the runs it made). The store is opened, and made when there
    is none yet, only when there is an artifact to run."""

    from claimledger.grading.artifact import execute

    if not artifacts:
        return {}
    runs: dict[str, ArtifactRun] = {}
    with writable_store(opts) as store:
        for claim_id, artifact in artifacts.items():
            runs[claim_id] = execute(claim_id, artifact, opts.home, now())
            store.record_artifact_run(runs[claim_id])
    return runs


def _report_failed_runs(runs: Iterable[ArtifactRun]) -> bool:
    """One line on stderr for each artifact that could not run (it did not start, or timed
    out): that is no evidence, and must not pass for a quiet success. True if there was one."""
    failed = [run for run in runs if not run.ran]
    for run in failed:
        err.print(
            f"claimledger: error: artifact of {run.claim_id} could not run: {run.error}",
            markup=False,
        )
    return bool(failed)


@command("explain")
def explain_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    as_json: AsJson = False,
) -> ExitCode:
    """Why each facet of a claim has its grade: the rule, its verdict, the evidence."""
    from claimledger.grading.artifact import outcome_of
    from claimledger.grading.rules import regrade
    from claimledger.terminal.lines import artifact_run_line, explain_lines, to_json

    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    runs = latest_artifact_runs(opts, ledger)
    outcomes = {run_claim: outcome_of(run) for run_claim, run in runs.items()}
    checks = _latest_verdicts(opts, ledger)
    result = regrade(ledger, checks, outcomes, latest_as_read(opts, ledger))
    traces = [t for t in result.traces if t.claim_id == claim_id]
    last_run = runs.get(claim_id)
    if as_json:
        print_json(
            {
                "claim_id": claim.id,
                "traces": to_json(traces),
                "history": to_json(claim.history),
                "last_artifact_run": to_json(last_run),
            }
        )
        return ExitCode.OK
    for line in explain_lines(claim, traces):
        out.print(line, markup=False)
    if last_run is not None:
        out.print(artifact_run_line(last_run), markup=False)
    elif claim.artifact is not None:
        out.print(f"{claim_id}: its artifact has not run yet (claimledger regrade)", markup=False)
    return ExitCode.OK


@command("accept")
def accept_command(
    ctx: typer.Context,
    claim_ids: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="CLAIM",
            help="Claims whose drifted quotes to adopt.",
            autocompletion=complete_claims,
        ),
    ] = None,
    all_drifted: Annotated[
        bool, typer.Option("--all-drifted", help="Instead of CLAIMs: every drifted quote.")
    ] = False,
    even_if_meaning_changed: Annotated[
        bool,
        typer.Option(
            "--even-if-meaning-changed",
            help="Also adopt wording whose change touched a meaning-carrying word.",
        ),
    ] = False,
) -> ExitCode:
    """Adopt the page's current wording for the drifted quotes of CLAIMs (or all).

    The wording as read goes to the claim's history. A drift that changed meaning (a
    negation, a modal, a number...) is refused unless --even-if-meaning-changed: a
    reversed guarantee must be re-read, not rubber-stamped. A missing quote has no
    wording to adopt. Exit 1 when something was refused.
    """

    from claimledger.grading.accept import accept_plan
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

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
        if adoption.meaning is not None:
            how = "may have changed" if adoption.meaning == "uncertain" else "changed"
            out.print(
                f"  its meaning {how}: {adoption.claim_id} needs review "
                f"(claimledger review {adoption.claim_id})",
                markup=False,
            )
    if not plan.adoptions and not plan.refused:
        out.print("nothing to accept: no drifted quote among the chosen claims", markup=False)
    return found_if(bool(plan.refused))
