"""Commands that turn evidence into grades and wording: regrade, explain, accept."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import (
    command,
    existing_store,
    found_if,
    now,
    options,
    say_if_the_checkouts,
    today,
    writable_store,
)
from claimledger.cli.completion import complete_claims
from claimledger.cli.options import AsJson, ClaimId
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.model import Ledger
    from claimledger.services.regrading import Artifacts
    from claimledger.workspace.trust import Standing


@command("regrade")
def regrade_command(
    ctx: typer.Context,
    write: Annotated[
        bool, typer.Option("--write", help="Apply the proposals to the ledger.")
    ] = False,
    check: Annotated[
        bool,
        typer.Option(
            "--check",
            help="Change nothing; exit 1 if anything is pending, 3 if the evidence is "
            "incomplete (CI).",
        ),
    ] = False,
    no_artifacts: Annotated[
        bool,
        typer.Option(
            "--no-artifacts",
            help="Do not run artifact claims' commands: each is lowered only on a recorded "
            "run that printed other than expected; else its grade stands.",
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
    that could not be read or is gone, a refresh cut short, an artifact skipped); 0 only when every
    graded quote was read and agrees.
    """
    from claimledger.cli.trusting import standing_json
    from claimledger.ledger.located import collector_paused
    from claimledger.services.regrading import regrade_ledger
    from claimledger.terminal.lines import evidence_gaps, to_json, unread_sources
    from claimledger.terminal.regrade import print_regrade, report_failed_runs
    from claimledger.terminal.status import say_whose_store

    if write and check:
        raise InputError("--write and --check exclude each other")
    if allow_artifacts and no_artifacts:
        raise InputError("--allow-artifacts and --no-artifacts exclude each other")
    opts = options(ctx)
    which: Artifacts = "none" if no_artifacts else "all" if allow_artifacts else "trusted"
    with collector_paused():  # what is read stays till the end: no collection walks it
        ledger = opts.load()
        with existing_store(opts) as store:
            done = regrade_ledger(
                ledger, opts.ledger, store, open_store=lambda: writable_store(opts),
                artifacts=which, write=write, today=today(), now=now(),
            )  # fmt: skip
        result = done.result
        if done.written:
            changes = "grade change" if done.written == 1 else "grade changes"
            err.print(f"applied {done.written} {changes} to {opts.ledger}", markup=False)
        checked = {check.claim_id for check in done.checks}
        gaps = evidence_gaps(done.last, done.unchecked, ledger, checked)
        gaps += unread_sources(ledger, done.checks, done.fetches)
        gaps += _not_weighed(ledger, which)
        if as_json:
            print_json(
                {
                    "has_evidence": result.has_evidence,
                    "proposals": to_json(result.proposals),
                    "stale": to_json(result.notices),
                    "evidence_gaps": gaps,
                    "skipped_artifacts": [standing_json(s) for s in done.skipped],
                }
            )
        else:
            quotes = any(claim.quotes for claim in ledger.claims) and not done.checks
            print_regrade(
                result,
                opts.store,
                quotes=quotes,
                incomplete=bool(gaps or done.skipped),  # an artifact not run is a gap too
                refreshed=done.last is not None,
            )
            for line in gaps:
                err.print(line, markup=False)
        _report_skipped(done.skipped)
        report_failed_runs(done.runs.values())
        say_whose_store(made_here=done.made_here)
        if result.pending or done.failed_runs:
            return ExitCode.FOUND
        return ExitCode.UNREAD if check and (gaps or done.skipped) else ExitCode.OK


def _not_weighed(ledger: Ledger, which: Artifacts) -> list[str]:
    """What a regrade weighs nothing of, by the ledger's making or the user's word: a
    ledger with neither a quote nor an artifact (a wrong --ledger, or claims: emptied),
    and artifacts not run under --no-artifacts, graded on their recorded runs (one that
    failed lowers a grade: never "kept") or not at all. A gate must not pass over either as
    if it had checked it."""
    from claimledger.terminal.lines import few_of

    lines = []
    held = [claim.id for claim in ledger.claims if claim.artifact is not None]
    if not held and not any(claim.quotes for claim in ledger.claims):
        lines.append("the ledger quotes nothing and runs nothing: no grade rests on evidence")
    if which == "none" and held:
        many = len(held) > 1
        count = f"{len(held)} artifact claims" if many else "1 artifact claim"
        runs = "their last recorded runs" if many else "its last recorded run"
        graded = f"graded on {runs}, if any, not on a run of the files as they are"
        lines.append(f"{count} not run (--no-artifacts): {few_of(held)}, {graded}")
    return lines


def _report_skipped(skipped: Sequence[Standing]) -> None:
    """One line for each artifact not run, and how to allow it: a grade that stands on a
    run that did not happen must not pass for one that was checked."""
    from claimledger.workspace.trust import Consent

    for standing in skipped:
        why = {
            Consent.CHANGED: "its command, or a file of the ledger's directory, changed "
            "since you trusted it",
            Consent.OLDER: "you trusted it with an older claimledger, which kept your word "
            "in another form, so it is asked again",
        }.get(standing.consent, "you have not trusted its command")
        err.print(
            f"claimledger: note: artifact of {standing.claim_id} not run: {why} "
            f"({standing.command}); read it, then `claimledger trust {standing.claim_id}`, "
            "or pass --allow-artifacts for this run",
            markup=False,
        )


@command("explain")
def explain_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    as_json: AsJson = False,
) -> ExitCode:
    """Why each facet of a claim has its grade: the rule, its verdict, the evidence."""
    from claimledger.services.regrading import explain_claim
    from claimledger.terminal.lines import artifact_run_line, explain_lines, to_json
    from claimledger.terminal.views import history_line

    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    with existing_store(opts) as store:
        say_if_the_checkouts(store)
        why = explain_claim(store, ledger, claim_id)
    if as_json:
        print_json(
            {
                "claim_id": claim.id,
                "traces": to_json(why.traces),
                "proposals": to_json(why.proposals),
                "stale": to_json(why.notices),
                "history": to_json(claim.history),
                "last_artifact_run": to_json(why.last_run),
                "histories": to_json(why.histories),
                "unchecked": [
                    {"quote_index": index, "source_id": source_id}
                    for index, source_id in why.unchecked
                ],
            }
        )
        return ExitCode.OK
    explained = explain_lines(claim, why.traces, why.proposals, why.notices)
    unchecked = [unchecked_line(claim_id, *place) for place in why.unchecked]
    told = [history_line(number, history) for number, history in why.told]
    for line in [*explained, *unchecked, *told]:
        out.print(line, markup=False)
    if why.last_run is not None:
        out.print(artifact_run_line(why.last_run), markup=False)
    elif claim.artifact is not None:
        out.print(f"{claim_id}: its artifact has not run yet (claimledger regrade)", markup=False)
    return ExitCode.OK


def unchecked_line(claim_id: str, index: int, source_id: str) -> str:
    """A quote no check covers as the ledger now says it, named under the rules' traces:
    they weighed only the checks there are, so "every quote verified" leaves it out."""
    return (
        f"{claim_id}: quote {index} not checked on {source_id} as the ledger now says it, "
        "so no rule weighed it there (claimledger refresh)"
    )


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
    reversed guarantee must be re-read, not rubber-stamped; so is, with --all-drifted, a
    wording known only by standing where the quote stood. A missing quote has no wording
    to adopt. Exit 1 when something was refused.
    """

    from claimledger.grading.accept import accept_plan
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.services import latest
    from claimledger.services.authoring import refuse_the_checkouts_word

    if not claim_ids and not all_drifted:
        raise InputError("name the claims to accept, or pass --all-drifted")
    opts = options(ctx)
    ledger = opts.load()
    for claim_id in claim_ids or ():
        ledger.claim(claim_id)
    chosen = set(claim_ids or ledger.claim_ids)
    with existing_store(opts) as store:
        refuse_the_checkouts_word(store, "the wording of the pages it holds")
        checks = latest.checks(store, ledger)
    plan = accept_plan(
        ledger,
        checks,
        chosen,
        even_if_meaning_changed=even_if_meaning_changed,
        in_bulk=not claim_ids,
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
        if unread := plan.unread.get((adoption.claim_id, adoption.quote_index)):
            out.print(unread_line(unread), markup=False)
    if not plan.adoptions and not plan.refused:
        out.print("nothing to accept: no drifted quote among the chosen claims", markup=False)
    return found_if(bool(plan.refused))


def unread_line(unread: Sequence[str]) -> str:
    """An adopted quote's sources that could not be read at the last refresh, named under
    its adoption: the new words were read on the others only, and the gate counts these
    unchecked until a refresh reads them."""
    sources = ", ".join(unread)
    return (
        f"  not read at the last refresh: {sources}; the new wording is unchecked there "
        "until a refresh reads it (claimledger refresh)"
    )
