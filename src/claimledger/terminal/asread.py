"""What the as-read step (the quotes on the web archive's copies of the reading day) is
shown as: a few lines after a refresh, a line under a quote's diff, and its JSON."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # the core loads where a command uses it
    from rich.text import Text

    from claimledger.evidence.asread import AsReadRun
    from claimledger.evidence.service import RefreshOutcome
    from claimledger.ledger.model import Ledger
    from claimledger.records import ArchiveLookup, AsReadCheck, CheckRecord


def archived_lines(outcome: RefreshOutcome) -> list[str]:
    """The sources whose empty `archived` got the capture nearest the reading day, or why the
    ledger was not written (the evidence is kept: say so)."""
    filled = outcome.archived
    if filled.problem is not None:
        return [f"claimledger: warning: archived not filled: {filled.problem}"]
    if not filled.count:
        return []
    sources = "source" if filled.count == 1 else "sources"
    nearest = "the capture nearest the reading day"
    return [f"archived: filled for {filled.count} {sources} with {nearest}"]


def as_read_lines(found: AsReadRun, ledger: Ledger, *, verbose: bool = False) -> list[str]:
    """The step in a few lines: what was checked where, each quote misquoted at reading
    time, and the pages it could not check (one line for each kind of failure; a line
    each with `verbose`). Nothing when it had nothing to check and nothing went wrong."""
    from claimledger.urls import shown

    day = ledger.date_read.isoformat()
    lookups = list(found.lookups.values())
    repository_lines = _repository_lines(found, day)
    if not lookups:
        count = len(set(found.skipped) - {check.source_id for check in found.checks})
        return repository_lines + [misquote_line(c) for c in found.misquoted] + ([
            f"as read: not checked ({count} source{'s' if count != 1 else ''} read through "
            "--map or from a local address: name an archive with --archive to check them)"
        ] if count > 0 and verbose else [])  # fmt: skip
    kept = "" if found.asked else " (the archive's answers kept from an earlier run)"
    copies = sum(1 for lookup in lookups if lookup.outcome == "found")
    lines = []
    if copies or verbose:
        on_copies = [check for check in found.checks if not from_repository(check)]
        lines.append(
            f"As read on {day}: {_counted(len(on_copies), 'quote check')} on "
            f"{_counted(copies, 'archived copy', 'archived copies')}{kept}; "
            f"{sum(1 for check in on_copies if check.misquoted)} misquoted at reading time"
        )
    lines += repository_lines
    lines += [misquote_line(check) for check in found.misquoted]
    unread = {check.snapshot_url: check for check in found.checks if check.status is None}
    lines += [
        f"as read: the capture {shown(url)} holds no text we can read ({check.error})"
        for url, check in unread.items()
    ]
    none = [lookup for lookup in lookups if lookup.outcome == "none"]
    failed = [lookup for lookup in lookups if lookup.outcome == "failed"]
    if verbose or len(none) == 1:
        lines += [
            f"as read: no snapshot within {lookup.window_days} days of {day} for "
            f"{shown(lookup.url)}"
            for lookup in none
        ]
    elif none:
        lines.append(
            f"as read: no snapshot within {none[0].window_days} days of {day} for "
            f"{len(none)} pages (-v names them)"
        )
    if verbose or len(failed) == 1:
        lines += [
            f"as read: the archive could not be asked about {shown(lookup.url)}: {lookup.error}"
            for lookup in failed
        ]
    elif failed:
        lines.append(
            f"as read: the archive could not be asked about {len(failed)} pages "
            f"({failed[0].error}; -v names them)"
        )
    return lines


def from_repository(check: AsReadCheck) -> bool:
    """Made on the docs' repository's version of the file at the reading day, for want of
    an archived copy (the refresh's history step), not on a capture."""
    return check.recipe.startswith("repository ")


def _repository_lines(found: AsReadRun, day: str) -> list[str]:
    checks = [check for check in found.checks if from_repository(check)]
    if not checks:
        return []
    misquoted = sum(1 for check in checks if check.misquoted)
    return [
        f"As read on {day}: {_counted(len(checks), 'quote check')} on the docs' repository's "
        f"version of the file at that day, for want of an archived copy; {misquoted} "
        "misquoted at reading time"
    ]


def _where_then(check: AsReadCheck) -> str:
    """The copy of the reading day a verdict was made on, in words."""
    from claimledger.urls import shown

    if from_repository(check):
        sha = check.recipe.split()[1].rstrip(";")[:7]
        day = f"{check.timestamp[:4]}-{check.timestamp[4:6]}-{check.timestamp[6:8]}"
        return f"in the docs' repository's version of {day}, commit {sha}"
    return f"on the capture of {check.timestamp[:8]}, {shown(check.snapshot_url)}"


def _counted(count: int, noun: str, nouns: str | None = None) -> str:
    return f"{count} {noun if count == 1 else nouns or noun + 's'}"


def misquote_line(check: AsReadCheck) -> str:
    """One quote misquoted at reading time, on one line: where, on which capture, what the
    copy says instead."""
    said = f": the copy says “{check.current}”" if check.current else ""
    return (
        f"misquoted at reading time: {check.claim_id} #{check.quote_index + 1} on "
        f"{check.source_id} ({check.status} {_where_then(check)}){said}"
    )


def as_read_text(check: AsReadCheck, *, now: str | None = None) -> Text:
    """A quote's verdict on the copy nearest the reading day, for `diff`: one line under the
    quote's live diff, or alone, for a quote misquoted then whose live check (`now`, its
    status) shows no diff of its own: headed by both statuses, now and then."""
    from rich.text import Text

    from claimledger.evidence.archive import captured_at
    from claimledger.terminal.views import STATUS_STYLE, diff_text
    from claimledger.urls import shown

    when = f"the capture of {captured_at(check.timestamp).date().isoformat()}"
    if from_repository(check):
        when = _where_then(check).removeprefix("in ")
    status = check.status or f"unread ({check.error})"
    if now is None:
        text = Text(f"  as read ({when}): ")
        text.append(status, style=STATUS_STYLE.get(check.status, "dim"))
        if check.current:
            text.append(": ")
            text.append(check.current)
        return text
    where = "" if from_repository(check) else f" ({shown(check.snapshot_url)})"
    text = diff_text(_as_check(check), page="then:  ", said=f"{now} now, {status} on {when}")
    text.append("\n  misquoted at reading time: ", style="bold red")
    text.append(f"{when}{where} does not carry it as quoted")
    return text


def _as_check(check: AsReadCheck) -> CheckRecord:
    """An as-read verdict in the shape `diff_text` prints (the copy for the page)."""
    from claimledger.records import CheckRecord

    return CheckRecord(
        claim_id=check.claim_id,
        quote_index=check.quote_index,
        quote_text=check.wording,
        source_id=check.source_id,
        url=check.url,
        source_status="ok",
        status=check.status,
        match_kind=check.match_kind,
        similarity=check.similarity,
        current=check.current,
        meaning_changed=check.meaning_changed,
        changed_words=check.changed_words,
        occurrences=0,
        context_before=None,
        context_after=None,
        snapshot_hash=check.snapshot_hash,
        checked_at=check.checked_at,
        change_kinds=check.change_kinds,
        closest=check.closest,
    )


def as_read_json(
    found: AsReadRun | None = None,
    *,
    checks: Sequence[AsReadCheck] = (),
    lookups: Sequence[ArchiveLookup] = (),
) -> dict[str, Any]:
    """The as-read verdicts and the archive's lookups, as `refresh --json` prints a run's
    (`found`) and `status --json` the latest."""
    from claimledger.terminal.lines import to_json

    asked = {}
    if found is not None:
        checks, lookups = found.checks, tuple(found.lookups.values())
        asked = {"lookups_asked": found.asked, "copies_read": found.read}
    return {
        "checks": [
            {
                **to_json(check),
                "misquoted": check.misquoted,
                "from_repository": from_repository(check),
            }
            for check in checks
        ],
        "lookups": to_json(list(lookups)),
        **asked,
    }
