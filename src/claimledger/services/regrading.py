"""A regrade as one call: the latest verdicts read, the artifact commands the user allowed
run (each run recorded as it ends), the rules applied and, with `write`, written under
the ledger's lock, and what the evidence does not cover found, so that a gate fails
closed. The command line only chooses and shows."""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from collections.abc import Callable
    from contextlib import AbstractContextManager

    from claimledger.evidence.store import EvidenceStore
    from claimledger.evidence.store.rows import CheckVerdict
    from claimledger.grading.rules import ArtifactOutcome, Regrade, Trace
    from claimledger.grading.verdicts import Notice, Proposal
    from claimledger.ledger.model import Artifact, Ledger
    from claimledger.records import (
        ArtifactRun,
        AsReadCheck,
        FetchRecord,
        QuoteHistory,
        RunRecord,
    )
    from claimledger.workspace.trust import Standing

    StoreOpener = Callable[[], AbstractContextManager[EvidenceStore]]

Artifacts = Literal["trusted", "all", "none"]
"""Which artifact commands a regrade runs: those the user trusted, all this once, none."""


@dataclass(frozen=True)
class RegradeOutcome:
    """What a regrade found: what stays pending (after a write, what is left), how many
    proposals it wrote, the evidence it weighed, and the artifacts it ran or skipped."""

    result: Regrade
    written: int
    checks: list[CheckVerdict]
    fetches: dict[str, FetchRecord]
    last: RunRecord | None
    unchecked: list[str]
    skipped: list[Standing]
    runs: dict[str, ArtifactRun]
    made_here: bool = True
    """False: the store came with the checkout, not from a refresh of this user's."""

    @property
    def failed_runs(self) -> list[ArtifactRun]:
        """The artifacts that could not run (did not start, timed out): no evidence."""
        return [run for run in self.runs.values() if not run.ran]


def regrade_ledger(
    ledger: Ledger,
    ledger_path: Path,
    store: EvidenceStore | None,
    *,
    open_store: StoreOpener,
    artifacts: Artifacts = "trusted",
    write: bool = False,
    today: dt.date,
    now: dt.datetime,
) -> RegradeOutcome:
    """Regrade `ledger` (read from `ledger_path`) on the evidence in `store`; the store to
    record artifact runs in is opened by `open_store` only when one runs. An artifact not
    run now (not trusted, `--no-artifacts`) whose last run recorded in this user's store
    printed other than expected is graded lower on it, as `explain` and the report rate it
    (`weighed_runs`)."""
    from claimledger.grading.quotes import read_elsewhere
    from claimledger.grading.rules import regrade, unchecked_by_claim
    from claimledger.ledger.file import refuse_uneditable
    from claimledger.services import latest

    if write:
        refuse_uneditable(ledger_path)  # before an artifact runs, not after
    made_here = latest.store_made_here(store)  # as it came, before any run is recorded
    checks = latest.verdicts(store, ledger)
    as_read = latest.as_read(store, ledger)  # verdicts on the reading day's copies
    fetches, last = latest.fetches(store, ledger, path=ledger_path)
    read_at = read_elsewhere(ledger, fetches)
    allowed, skipped = allowed_artifacts(ledger_path, ledger, artifacts)
    runs = run_artifacts(allowed, ledger_path.parent, open_store, now)
    if artifacts == "trusted":
        from claimledger.workspace.trust import renew

        renew(ledger_path, allowed)  # what they wrote beside the ledger is theirs
    outcomes = weighed_runs(latest.artifact_runs(store, ledger), runs, made_here=made_here)
    written = 0
    if write:
        applied = write_proposals(ledger_path, checks, outcomes, as_read, today, read_at)
        written = len(applied.proposals)
        result = dataclasses.replace(applied, proposals=())  # the rest is what stays pending
    else:
        result = regrade(ledger, checks, outcomes, as_read, read_at)
    unchecked = list(unchecked_by_claim(ledger, checks))
    return RegradeOutcome(
        result, written, checks, fetches, last, unchecked, skipped, runs, made_here
    )


def weighed_runs(
    recorded: dict[str, ArtifactRun], made: dict[str, ArtifactRun], *, made_here: bool
) -> dict[str, ArtifactOutcome]:
    """What the rules weigh of each artifact: the run `made` now, else its last run
    `recorded` in this user's own store (a clone's store is its word). A recorded run that
    printed other than expected lowers a grade; one that matched raises none, the files it
    ran may have changed since (the reason the artifact is not run now). `regrade`,
    `explain` and the report weigh them alike, so none rates what another does not."""
    from claimledger.grading.artifact import outcome_of

    before = recorded if made_here else {}
    outcomes = {claim_id: outcome_of(run, recorded=True) for claim_id, run in before.items()}
    return outcomes | {claim_id: outcome_of(run) for claim_id, run in made.items()}


def write_proposals(
    ledger_path: Path,
    checks: Sequence[CheckVerdict],
    artifacts: dict[str, ArtifactOutcome],
    as_read: list[AsReadCheck],
    today: dt.date,
    read_at: dict[str, tuple[str, ...]] | None = None,
) -> Regrade:
    """Apply every proposal to the ledger as it is on disk under the lock, in one write.

    The rules order premises before the claims that rest on them, so one pass proposes
    every change a chain needs: after it, regrading again proposes nothing.
    """
    from claimledger.grading.rules import Regrade, regrade
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    applied = Regrade(proposals=(), notices=(), traces=(), has_evidence=False)

    def change(text: str, fresh: Ledger) -> str:
        nonlocal applied
        applied = regrade(fresh, checks, artifacts, as_read, read_at)
        changes = [
            edits.GradeChange(p.claim_id, p.on, p.to_grade, p.by, p.why) for p in applied.proposals
        ]
        return edits.set_grades(text, fresh, changes, date=today)

    ledgerfile.update(ledger_path, change)
    return applied


def allowed_artifacts(
    ledger_path: Path, ledger: Ledger, which: Artifacts
) -> tuple[dict[str, Artifact], list[Standing]]:
    """The artifacts this regrade may run, and those it skips for want of the user's
    consent ("none" skips all without a word: the user said so)."""
    from claimledger.services.latest import artifacts_of
    from claimledger.workspace.trust import Consent, standings

    artifacts = artifacts_of(ledger)
    if which != "trusted" or not artifacts:
        return ({} if which == "none" else artifacts), []
    found = standings(ledger_path, artifacts)
    allowed = {s.claim_id for s in found if s.consent is Consent.TRUSTED}
    skipped = [s for s in found if s.consent is not Consent.TRUSTED]
    return {claim: artifacts[claim] for claim in artifacts if claim in allowed}, skipped


def run_artifacts(
    artifacts: dict[str, Artifact], home: Path, open_store: StoreOpener, now: dt.datetime
) -> dict[str, ArtifactRun]:
    """Run each artifact claim's command beside the ledger, recording each run as it ends
    (a regrade cut short keeps the runs it made). The store is opened, and made when there
    is none yet, only when there is an artifact to run."""
    from claimledger.grading.artifact import execute

    if not artifacts:
        return {}
    runs: dict[str, ArtifactRun] = {}
    with open_store() as store:
        for claim_id, artifact in artifacts.items():
            runs[claim_id] = execute(claim_id, artifact, home, now)
            store.record_artifact_run(runs[claim_id])
    return runs


@dataclass(frozen=True)
class Explanation:
    """Why a claim's facets have their grades: the rules' traces on the latest evidence,
    its artifact's last run, and what the docs' history says of its quotes."""

    traces: list[Trace]
    last_run: ArtifactRun | None
    histories: list[QuoteHistory]
    proposals: list[Proposal] = field(default_factory=list)
    """The grade changes the rules ask of the claim, as `regrade` lists them: a grade the
    evidence no longer holds is never explained as if it stood."""
    notices: list[Notice] = field(default_factory=list)
    unchecked: list[tuple[int, str]] = field(default_factory=list)
    """(quote number from 1, source id) of each quote no check covers as the ledger now
    says it: no rule weighed it, so a trace's "every quote verified" says nothing of it."""
    told: list[tuple[int, QuoteHistory]] = field(default_factory=list)
    """(quote number from 1, history) of each history (`histories`) of a quote not
    verified as last checked: one of a quote verified (`blame` keeps what it read of
    every quote it was asked of) tells nothing the check does not."""


def explain_claim(store: EvidenceStore | None, ledger: Ledger, claim_id: str) -> Explanation:
    """The rules run on the latest evidence as a regrade runs them, for one claim (no
    artifact runs: an explanation only reads)."""
    from claimledger.grading.rules import regrade
    from claimledger.services import latest

    runs = latest.artifact_runs(store, ledger)
    checks, as_read = latest.verdicts(store, ledger), latest.as_read(store, ledger)
    told = [h for h in latest.histories(store, ledger).values() if h.claim_id == claim_id]
    outcomes = weighed_runs(runs, {}, made_here=latest.store_made_here(store))
    result = regrade(ledger, checks, outcomes, as_read, latest.read_elsewhere(store, ledger))
    traces = [t for t in result.traces if t.claim_id == claim_id]
    proposed = [p for p in result.proposals if p.claim_id == claim_id]
    notices = [n for n in result.notices if n.claim_id == claim_id]
    unchecked = unchecked_places(ledger, checks, claim_id)
    news = histories_told(ledger, checks, told)
    return Explanation(traces, runs.get(claim_id), told, proposed, notices, unchecked, news)


def histories_told(
    ledger: Ledger, checks: Sequence[CheckVerdict], histories: Sequence[QuoteHistory]
) -> list[tuple[int, QuoteHistory]]:
    """Each of a claim's `histories` with its quote's number (from 1, as the ledger now
    numbers its quotes), but those of a quote verified as last checked on its source."""
    verified = {
        (check.claim_id, check.quote_text, check.source_id)
        for check in checks
        if check.status == "verified"
    }
    told = []
    for history in histories:
        quotes = [quote.text for quote in ledger.claim(history.claim_id).quotes]
        key = (history.claim_id, history.quote_text, history.source_id)
        if history.quote_text in quotes and key not in verified:
            told.append((quotes.index(history.quote_text) + 1, history))
    return told


def unchecked_places(
    ledger: Ledger, checks: Sequence[CheckVerdict], claim_id: str
) -> list[tuple[int, str]]:
    """Each (quote number from 1, source id) of the claim that none of the current `checks`
    covers: never checked, or given its words or that source since the last refresh, as
    `status` and `claims` count it "not checked"."""
    from claimledger.records import check_key

    checked = {check_key(check) for check in checks}
    claim = ledger.claim(claim_id)
    return [
        (index, source_id)
        for index, quote in enumerate(claim.quotes, start=1)
        for source_id in sorted(set(quote.sources))
        if (claim.id, quote.text, source_id) not in checked
    ]
