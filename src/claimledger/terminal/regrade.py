"""What `regrade` prints beside its JSON: the proposals and notices, and each artifact
that could not run."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.terminal.lines import nothing_checked_line, regrade_note
from claimledger.terminal.output import err, out
from claimledger.terminal.views import notices_table, proposals_table

if TYPE_CHECKING:
    from claimledger.grading.rules import Regrade
    from claimledger.records import ArtifactRun


def print_regrade(
    result: Regrade, store: Path, *, quotes: bool, incomplete: bool, refreshed: bool = False
) -> None:
    """The proposals and notices of a regrade, as tables, and its closing line: what it
    could not weigh (`quotes`: the ledger quotes something and no quote of it is checked;
    an artifact that ran is evidence, not a check of its quotes), and whether the
    evidence it weighed is `incomplete` (its gaps are said after). Once the ledger was
    `refreshed`, a store with no check of it as it now reads is not "no evidence yet",
    as `status` says it."""
    if quotes:
        err.print(nothing_checked_line(store, refreshed), markup=False)
    if result.proposals:
        out.print(proposals_table(result))
    if result.notices:
        out.print(notices_table(result))
    note = regrade_note(result, incomplete=incomplete, refreshed=refreshed)
    if note:
        out.print(note, markup=False)


def report_failed_runs(runs: Iterable[ArtifactRun]) -> bool:
    """One line on stderr for each artifact that could not run (it did not start, or timed
    out): that is no evidence, and must not pass for a quiet success. True if there was one."""
    failed = [run for run in runs if not run.ran]
    for run in failed:
        err.print(
            f"claimledger: error: artifact of {run.claim_id} could not run: {run.error}",
            markup=False,
        )
    return bool(failed)
