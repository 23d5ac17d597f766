"""A quote's history in the docs' own repository, as evidence: read from the history of
the file its page is built from (a bare clone in the user's cache), kept in the
evidence store, and shown beside the change it explains."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimledger.reading.provenance import FileGone
    from claimledger.records import QuoteHistory


def file_gone(repo: str, path: str, ref: str) -> FileGone | None:
    """Whether the page's source file is gone from the repository, and where it went (a
    rename is where its page most likely went too)."""
    from claimledger.evidence.gitrepo import clone_of, gone

    return gone(clone_of(repo), path, ref)


def quote_history(
    claim_id: str,
    quote: str,
    source_id: str,
    *,
    repo: str,
    path: str,
    ref: str,
    current: str | None,
    now: dt.datetime,
) -> QuoteHistory:
    """What the history of `path` in `repo` (at `ref`) says of `quote`, and of the page's
    `current` wording."""
    from claimledger.evidence.gitrepo import clone_of, versions
    from claimledger.reading.provenance import blame
    from claimledger.records import QuoteHistory

    found = blame(versions(clone_of(repo), path, ref), quote, current)
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
