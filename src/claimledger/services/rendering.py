"""The report as one call: the ledger and its latest evidence built into the report's
views, compared with the last render of the same output, whose state is kept for the next.
The command line only chooses the format and where the text goes."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger
    from claimledger.report.model import Report


def report_of(
    ledger: Ledger,
    store: EvidenceStore | None,
    previous: dict[str, Any] | None,
    today: dt.date,
) -> Report:
    """The report of `ledger` and the latest evidence, compared with the `previous` render."""
    from claimledger.grading.artifact import outcome_of
    from claimledger.grading.rules import regrade
    from claimledger.report.build import build_report
    from claimledger.services.latest import standing

    latest = standing(store, ledger)
    checks, fetches, last, runs = latest.checks, latest.fetches, latest.last, latest.runs
    outcomes = {claim_id: outcome_of(run) for claim_id, run in runs.items()}
    as_read = latest.read_then  # the quotes on the reading day's copies
    return build_report(
        ledger,
        checks,
        fetches,
        regrade(ledger, checks, outcomes, as_read),
        generated_on=today,
        last_refresh=last.started_at if last else None,
        previous=previous,
        artifact_runs=runs,
        as_read=as_read,
        histories=latest.histories,
    )


def remember_render(
    store: EvidenceStore, name: str, target: str, report: Report, now: dt.datetime
) -> None:
    """What this render showed, kept for the next render of `name` to `target` to say
    what changed since."""
    from claimledger.report.changes import report_state

    store.record_render_state(name, target, report_state(report), now)
