"""What `status` prints: the claims that need a look, the sources, the moves found and
the quotes misquoted at reading time; or all of it as JSON."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claimledger.terminal.output import out, print_json
from claimledger.terminal.refresh import print_summary

if TYPE_CHECKING:
    from claimledger.ledger.model import Ledger
    from claimledger.records import LatestEvidence


def print_status_tables(ledger: Ledger, latest: LatestEvidence) -> None:
    """The claims that need a look (one line when none does), the sources, and a line
    for each page found moved and each quote misquoted at reading time."""
    from claimledger.evidence.relocate import relocation_line
    from claimledger.terminal.asread import misquote_line
    from claimledger.terminal.lines import claim_summary
    from claimledger.terminal.views import pages_table

    when = latest.last.started_at.strftime("%Y-%m-%d %H:%M UTC") if latest.last else "never"
    print_summary(claim_summary(ledger, latest.checks), f"Evidence (last refresh {when})")
    out.print(pages_table(ledger, latest.fetches.values()))
    lines = [relocation_line(search) for search in latest.searches]
    lines += [misquote_line(check) for check in latest.read_then if check.misquoted]
    for line in lines:
        out.print(line, markup=False)


def print_status_json(ledger: Ledger, latest: LatestEvidence) -> None:
    """`status --json`: every claim with its grades, standing and latest checks counted,
    every source read by its id, the artifacts' last runs, the moves found, the reading
    day's copies."""
    from claimledger.evidence.relocate import relocation_json
    from claimledger.terminal.asread import as_read_json
    from claimledger.terminal.lines import claim_summary, source_rows, to_json, unchecked_claims

    print_json(
        {
            "last_refresh": to_json(latest.last.started_at) if latest.last else None,
            "last_refresh_finished": None if latest.last is None else not latest.incomplete,
            "unchecked_claims": unchecked_claims(ledger, latest.checks),
            "needs_review": [claim.id for claim in ledger.claims if claim.review is not None],
            "claims": claim_summary(ledger, latest.checks, every=True),
            "sources": list(source_rows(ledger, latest.fetches.values())),
            "artifact_runs": to_json(list(latest.runs.values())),
            "relocations": [relocation_json(search) for search in latest.searches],
            "as_read": as_read_json(checks=latest.read_then, lookups=latest.lookups),
            "histories": to_json(list(latest.histories.values())),
        }
    )
