"""What `status` prints: the claims that need a look, the sources, the moves found and
the quotes misquoted at reading time; or all of it as JSON. And what `diff` prints."""

from __future__ import annotations

from typing import TYPE_CHECKING

from claimledger.grading.rules import unchecked_by_claim
from claimledger.terminal.lines import STRANGER_STORE, no_evidence_line, nothing_checked_line
from claimledger.terminal.output import out, print_json
from claimledger.terminal.refresh import print_summary, say

if TYPE_CHECKING:
    from collections.abc import Mapping
    from pathlib import Path

    from claimledger.ledger.model import Ledger
    from claimledger.records import (
        AsReadCheck,
        CheckKey,
        CheckRecord,
        LatestEvidence,
        QuoteHistory,
        RunRecord,
    )


def print_status(ledger: Ledger, latest: LatestEvidence, store: Path, *, as_json: bool) -> bool:
    """`status`, as tables or JSON; True when something needs a person: a quote not
    verified, a source failed, an artifact that could not run or printed other than it
    should (its grade then rests on a run that says otherwise), a claim unchecked or in
    review, a refresh that did not finish."""
    from claimledger.terminal.lines import (
        artifact_run_line,
        evidence_gaps,
        is_accepted,
        needs_attention,
    )

    checks, fetches, runs = latest.checks, latest.fetches.values(), latest.runs
    unchecked = unchecked_by_claim(ledger, checks)
    review = [claim for claim in ledger.claims if claim.review is not None]
    if as_json:
        print_status_json(ledger, latest, unchecked)
    elif not any(claim.quotes for claim in ledger.claims):
        say([NOTHING_QUOTED])
    elif not checks:
        say([nothing_checked_line(store, latest.last is not None)])
    else:
        print_status_tables(ledger, latest, unchecked)
    if not as_json:
        for claim_id, run in runs.items():
            out.print(f"artifact of {claim_id}: {artifact_run_line(run)}", markup=False)
        for claim in review:
            out.print(f"{claim.id}: needs review (claimledger review {claim.id})", markup=False)
        checked = {check.claim_id for check in checks}
        say(evidence_gaps(latest.last, list(unchecked) if checks else [], ledger, checked))
        say_whose_store(made_here=latest.made_here)
    failing = any(f.source_status != "ok" and not is_accepted(ledger, f) for f in fetches)
    failing = failing or any(not run.matched for run in runs.values())  # ran, printed `expect`
    attention = needs_attention(ledger, checks, fetches) or failing
    attention = attention or any(check.misquoted for check in latest.read_then)
    return attention or latest.incomplete or bool(unchecked) or bool(review)


NOTHING_QUOTED = "the ledger quotes nothing: there is no quote for `claimledger refresh` to check"
"""What `status` says of a ledger without quotes (an emptied `claims:`, artifacts only), for
which "run `claimledger refresh`", or a quote "adopted, added or moved", would be untrue."""


def say_whose_store(*, made_here: bool) -> None:
    """Say when the evidence store came with the checkout: whatever passes on it passes on
    another's word of what was read, until a refresh of this user's reads every source."""
    if not made_here:
        say([STRANGER_STORE])


def print_diff(
    checked: list[CheckRecord],
    read_then: list[AsReadCheck],
    histories: dict[CheckKey, QuoteHistory],
    store: Path,
    *,
    as_json: bool,
) -> bool:
    """`diff` of the quotes `checked`: each not found as written, word by word, with the
    commit that changed it and the reading day's copy where known; then each misquoted
    when it was read, though its page carries it now. True when anything differs."""
    from claimledger.records import check_key
    from claimledger.terminal.asread import as_read_text
    from claimledger.terminal.lines import to_json
    from claimledger.terminal.views import changed_in_lines, diff_text

    drifted = [c for c in checked if c.status in ("drifted", "missing", "ambiguous") or _gone(c)]
    then = {check_key(c): c for c in read_then}
    alone = {key for key, c in then.items() if c.misquoted} - {check_key(c) for c in drifted}
    misquoted = [c for c in checked if check_key(c) in alone]
    if as_json:
        told = [histories[key] for c in drifted if (key := check_key(c)) in histories]
        shown = {"checks": to_json(drifted), "as_read": to_json(list(then.values()))}
        print_json(shown | {"histories": to_json(told)})
        return bool(drifted or misquoted)
    if not checked:
        say([no_evidence_line(store)])
    elif not drifted and not misquoted:
        out.print("no drift: every checked quote reads as written", markup=False)
    for check in drifted:
        out.print(diff_text(check))
        for line in changed_in_lines(histories.get(check_key(check)), check):
            out.print(line, markup=False)
        if check_key(check) in then:
            out.print(as_read_text(then[check_key(check)]))
    for check in misquoted:
        out.print(as_read_text(then[check_key(check)], now=check.status))
    return bool(drifted or misquoted)


def _gone(check: CheckRecord) -> bool:
    """Its page is gone (404, 410): the rules count the quote missing, so diff shows it."""
    return check.source_status == "gone"


def print_status_tables(
    ledger: Ledger, latest: LatestEvidence, unchecked: Mapping[str, int]
) -> None:
    """The claims that need a look (one line when none does; `unchecked`: each claim's
    quotes never checked as they now read), the sources, and a line for each page found
    moved and each quote misquoted at reading time."""
    from claimledger.evidence.relocate import relocation_line
    from claimledger.terminal.asread import misquote_line
    from claimledger.terminal.lines import claim_summary, move_lines
    from claimledger.terminal.views import pages_table

    rows = list(claim_summary(ledger, latest.checks, unchecked=unchecked, fetches=latest.fetches))
    print_summary(rows, f"Evidence ({last_refresh_said(latest.last)})")
    out.print(pages_table(ledger, latest.fetches.values()))
    lines = move_lines(ledger, latest.fetches.values())
    lines += [relocation_line(search, ledger.adopting_move) for search in latest.searches]
    lines += [misquote_line(check) for check in latest.read_then if check.misquoted]
    for line in lines:
        out.print(line, markup=False)


def last_refresh_said(last: RunRecord | None) -> str:
    """ "last refresh 2026-05-01 09:30 UTC", and where it did not finish, said in the
    headline: the table under it is what the earlier runs read, not a whole refresh."""
    if last is None:
        return "last refresh never"
    when = last.started_at.strftime("%Y-%m-%d %H:%M UTC")
    return f"last refresh {when}" + (", did not finish" if last.finished_at is None else "")


def print_status_json(ledger: Ledger, latest: LatestEvidence, unchecked: Mapping[str, int]) -> None:
    """`status --json`: every claim with its grades, standing and latest checks counted,
    every source read by its id, the artifacts' last runs, the moves found, the reading
    day's copies."""
    from claimledger.evidence.relocate import relocation_json
    from claimledger.terminal.asread import as_read_json
    from claimledger.terminal.lines import claim_summary, source_rows, to_json

    print_json(
        {
            "last_refresh": to_json(latest.last.started_at) if latest.last else None,
            "last_refresh_finished": None if latest.last is None else not latest.incomplete,
            "evidence_made_here": latest.made_here,
            "unchecked_claims": list(unchecked),
            "needs_review": [claim.id for claim in ledger.claims if claim.review is not None],
            "claims": claim_summary(
                ledger, latest.checks, every=True, unchecked=unchecked, fetches=latest.fetches
            ),
            "sources": list(source_rows(ledger, latest.fetches.values())),
            "artifact_runs": to_json(list(latest.runs.values())),
            "relocations": [relocation_json(search) for search in latest.searches],
            "as_read": as_read_json(checks=latest.read_then, lookups=latest.lookups),
            "histories": to_json(list(latest.histories.values())),
        }
    )
