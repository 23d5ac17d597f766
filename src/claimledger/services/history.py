"""A quote's history in the docs' own repository, as evidence: read from the history of
the file its page is built from (a bare clone in the user's cache), kept in the
evidence store, and shown beside the change it explains."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimledger.ledger.model import Ledger
    from claimledger.reading.provenance import FileGone
    from claimledger.records import QuoteHistory
    from claimledger.services.settings import Say


def local_repository(ledger_path: Path, ledger: Ledger, source_id: str, say: Say) -> str:
    """The folder a source's `repo` names on this machine, once the user trusted the
    workspace that names it (a one-line refusal otherwise)."""
    from claimledger.evidence import history
    from claimledger.services.settings import workspace

    trusted = workspace(ledger_path, ledger, say).trusted
    history.refuse_untrusted_repositories(ledger, ledger_path, [source_id], trusted)
    repo = ledger.sources[source_id].repo or ""
    return str(history.local_repository(repo, ledger_path.absolute().parent))


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
