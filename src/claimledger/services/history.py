"""A quote's history in the docs' own repository, as evidence: read from the history of
the file its page is built from (a bare clone in the user's cache), kept in the
evidence store, and shown beside the change it explains."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.provenance import FileGone
    from claimledger.records import Commit, QuoteHistory
    from claimledger.services.settings import Say


@dataclass(frozen=True)
class Where:
    """A source's page, as a file of a repository, and how that was learnt."""

    repo: str
    path: str
    ref: str
    said_by: str


def blame_claim(
    ledger: Ledger,
    claim_id: str,
    numbers: Sequence[int],
    where_of: Callable[[Source], Where | None],
    store: EvidenceStore,
    now: Callable[[], dt.datetime],
) -> list[dict[str, Any]]:
    """What the docs' history says of quotes `numbers` of a claim on each of their pages,
    as `blame --json` shows it; each history found is kept in `store` as evidence."""
    from claimledger.evidence.gitrepo import Repositories

    claim = ledger.claim(claim_id)
    currents = _current_wordings(store, ledger, claim_id)
    clones = Repositories()  # each repository fetched once for the whole command
    rows = []
    for number in numbers:
        quote = claim.quotes[number - 1]
        for source_id in quote.sources:
            source = ledger.source(source_id)
            where = where_of(source)
            clone = clones.clone(where.repo) if where is not None else None
            row, found = _blamed(
                claim_id, number, source, quote.text, where, clone, currents, now()
            )
            rows.append(row)
            if found is not None:
                store.record_quote_history(found)
    return rows


def _current_wordings(
    store: EvidenceStore | None, ledger: Ledger, claim_id: str
) -> dict[tuple[int, str], str]:
    """The page's own wording of each quote that drifted, by (quote number, source)."""
    from claimledger.services import latest

    return {
        (check.quote_index + 1, check.source_id): check.current
        for check in latest.checks(store, ledger)
        if check.claim_id == claim_id and check.current and check.status == "drifted"
    }


def _blamed(
    claim_id: str,
    number: int,
    source: Source,
    quote: str,
    where: Where | None,
    clone: Path | None,
    currents: dict[tuple[int, str], str],
    now: dt.datetime,
) -> tuple[dict[str, Any], QuoteHistory | None]:
    """The quote's history as `blame --json` shows it, and as the store keeps it."""
    source_id, url = source.id, source.url
    row: dict[str, Any] = {"claim_id": claim_id, "quote": number, "source_id": source_id}
    if where is None or clone is None:
        return {**row, "repo": None, "path": None, "found": None}, None
    current = currents.get((number, source_id))
    found = quote_history(
        claim_id, quote, source_id, clone, repo=where.repo, path=where.path, ref=where.ref,
        current=current, now=now,
    )  # fmt: skip
    shown = {
        **row,
        "repo": where.repo,
        "path": where.path,
        "named_by": where.said_by,
        "versions_read": found.versions,
        "current": current,
        "found": {
            "last_held_in": _commit_json(found.held),
            "dropped_in": _commit_json(found.dropped),
            "current_wording_since": _commit_json(found.current_since),
        },
        "file_gone": _gone_json(file_gone(clone, where.path, where.ref), url),
    }
    return shown, found


def _gone_json(gone: FileGone | None, url: str) -> dict[str, Any] | None:
    """The file's fate when it is no longer in the repository: the commit, and where a
    rename most likely took its page (a move to propose: `claimledger move`)."""
    from claimledger.reading.provenance import page_after_rename

    if gone is None:
        return None
    renamed = gone.renamed_to
    page = page_after_rename(url, gone.commit.path, renamed) if renamed else None
    return {"in": _commit_json(gone.commit), "renamed_to": renamed, "page_now": page}


def _commit_json(commit: Commit | None) -> dict[str, Any] | None:
    if commit is None:
        return None
    return {
        "sha": commit.sha,
        "date": commit.date,
        "author": commit.author,
        "subject": commit.subject,
        "pull_request": commit.pull_request,
        "path": commit.path,
    }


def local_repository(ledger_path: Path, ledger: Ledger, source_id: str, say: Say) -> str:
    """The folder a source's `repo` names on this machine, once the user trusted the
    workspace that names it (a one-line refusal otherwise)."""
    from claimledger.evidence import history
    from claimledger.services.settings import workspace

    trusted = workspace(ledger_path, ledger, say).trusted
    history.refuse_untrusted_repositories(ledger, ledger_path, [source_id], trusted)
    repo = ledger.sources[source_id].repo or ""
    return str(history.local_repository(repo, ledger_path.absolute().parent))


def file_gone(clone: Path, path: str, ref: str) -> FileGone | None:
    """Whether the page's source file is gone from the repository (its local `clone`), and
    where it went (a rename is where its page most likely went too)."""
    from claimledger.evidence.gitrepo import gone

    return gone(clone, path, ref)


def quote_history(
    claim_id: str,
    quote: str,
    source_id: str,
    clone: Path,
    *,
    repo: str,
    path: str,
    ref: str,
    current: str | None,
    now: dt.datetime,
) -> QuoteHistory:
    """What the history of `path` in `repo` (at `ref`, read from its local `clone`) says of
    `quote`, and of the page's `current` wording."""
    from claimledger.evidence.gitrepo import versions
    from claimledger.reading.provenance import blame
    from claimledger.records import QuoteHistory

    found = blame(versions(clone, path, ref), quote, current)
    return QuoteHistory(
        claim_id=claim_id,
        quote_text=quote,
        source_id=source_id,
        repo=repo,
        path=path,
        current=current,
        held=found.held,
        dropped=found.dropped,
        current_since=found.current_since,
        versions=found.versions,
        read_at=now,
    )
