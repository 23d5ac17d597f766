"""A quote's history in the docs' own repository, as evidence: read from the history of
the file its page is built from (a bare clone in the user's cache), kept in the
evidence store, and shown beside the change it explains."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from claimledger.evidence.gitrepo import Repositories
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.provenance import FileGone
    from claimledger.records import Commit, FetchPolicy, QuoteHistory
    from claimledger.services.settings import Say
    from claimledger.urls import UrlMap


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
            row, found = _blamed(
                claim_id, number, source, quote.text, where, clones, currents, now()
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
    clones: Repositories,
    currents: dict[tuple[int, str], str],
    now: dt.datetime,
) -> tuple[dict[str, Any], QuoteHistory | None]:
    """The quote's history as `blame --json` shows it, and as the store keeps it."""
    source_id, url = source.id, source.url
    row: dict[str, Any] = {
        "claim_id": claim_id,
        "quote_index": number,  # from 1, named as in every other output
        "quote": number,  # as blame first named it, kept for readers of it
        "source_id": source_id,
    }
    if where is None:
        return {**row, "repo": None, "path": None, "found": None}, None
    current = currents.get((number, source_id))
    gone = clones.gone(where.repo, where.path, where.ref)
    if gone is not None and gone.renamed_to:  # its history goes on under its new name, as a
        where = replace(where, path=gone.renamed_to)  # refresh reads it (a rename is no drop)
    found, before_current = quote_history(
        claim_id, quote, source_id, clones, where, current=current, now=now
    )
    shown = {
        **row,
        "repo": where.repo,
        "path": found.path,  # as text (git was given its bytes)
        "named_by": where.said_by,
        "versions_read": found.versions,
        "current": current,
        "found": {
            "last_held_in": _commit_json(found.held),
            "dropped_in": _commit_json(found.dropped),
            "current_wording_since": _commit_json(found.current_since),
        },
        "unreadable_between": [_commit_json(c) for c in found.unread],
        "unreadable_before_current": _commit_json(before_current),
        "file_gone": _gone_json(gone, url),
    }
    return shown, found


def _gone_json(gone: FileGone | None, url: str) -> dict[str, Any] | None:
    """The file's fate when it is no longer in the repository: the commit, and where a
    rename most likely took its page (a move to propose: `claimledger move`)."""
    from claimledger.reading.provenance import name_as_text, page_after_rename

    if gone is None:
        return None
    renamed = gone.renamed_to
    page = (
        page_after_rename(url, gone.commit.path, renamed, gone.generator, gone.site)
        if renamed
        else None
    )
    shown = name_as_text(renamed) if renamed else renamed
    return {"in": _commit_json(gone.commit), "renamed_to": shown, "page_now": page}


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


def where_of(
    ledger_path: Path,
    ledger: Ledger,
    source: Source,
    fetching: Callable[[Source], tuple[FetchPolicy, UrlMap]],
    say: Say,
) -> Where | None:
    """The ledger's `repo` and `path` for the source, else what the page's edit link
    names (the page read with `fetching(source)`'s policy and map). A repository the
    ledger (a checkout's file) or the page names is cloned only from a public https
    address; a local one only once the workspace is trusted."""
    from claimledger.errors import InputError
    from claimledger.urls import names_local_repository, names_public_site

    if source.repo and source.path and names_local_repository(source.repo):
        folder = local_repository(ledger_path, ledger, source.id, say)
        return Where(folder, source.path, "HEAD", "the ledger")
    if source.repo and source.path:
        found: Where | None = Where(source.repo, source.path, "HEAD", "the ledger")
    else:
        found = _named_by_edit_link(source.url, *fetching(source))
    if found is not None and not (
        found.repo.startswith("https://") and names_public_site(found.repo)
    ):
        raise InputError(_not_cloned(found, ledger_path, ledger, source.id))
    return found


def _not_cloned(found: Where, ledger_path: Path, ledger: Ledger, source_id: str) -> str:
    """Why the repository `found` names is not read, and the way to read it; said where
    the ledger names it, when it does, as an editor finds it (FILE:LINE:COL)."""
    fix = "not a public https address: give the repository with --repo and --path to read it"
    if found.said_by != "the ledger":
        return f"{found.said_by} names {found.repo!r}, {fix}"
    line, col = ledger.source_place(source_id) or (1, 1)
    return f"{ledger_path}:{line}:{col}: source {source_id}: repo {found.repo!r} is {fix}"


def _named_by_edit_link(url: str, policy: FetchPolicy, url_map: UrlMap) -> Where | None:
    from claimledger.evidence.service import read_pages_once
    from claimledger.reading.editlinks import source_file_of

    body = read_pages_once([url], policy, url_map)[url].fetch.text
    named = source_file_of(body, url) if body else None
    return (
        None if named is None else Where(named.repo, named.path, named.ref, "the page's edit link")
    )


def local_repository(ledger_path: Path, ledger: Ledger, source_id: str, say: Say) -> str:
    """The folder a source's `repo` names on this machine, once the user trusted the
    workspace that names it (a one-line refusal otherwise)."""
    from claimledger.evidence import history
    from claimledger.services.settings import workspace

    trusted = workspace(ledger_path, ledger, say).trusted
    history.refuse_untrusted_repositories(ledger, ledger_path, [source_id], trusted)
    repo = ledger.sources[source_id].repo or ""
    return str(history.local_repository(repo, ledger_path.absolute().parent))


def quote_history(
    claim_id: str,
    quote: str,
    source_id: str,
    clones: Repositories,
    where: Where,
    *,
    current: str | None,
    now: dt.datetime,
) -> tuple[QuoteHistory, Commit | None]:
    """What the history of the file `where` names (read from its clone in `clones`) says
    of `quote`, and of the page's `current` wording; with the unreadable version just
    before the current wording's run, which may hold it too (shown by `blame`, not kept)."""
    from claimledger import versions
    from claimledger.reading.provenance import name_as_text
    from claimledger.records import QuoteHistory

    found = clones.blame(where.repo, where.path, where.ref, quote, current)
    history = QuoteHistory(
        claim_id=claim_id,
        quote_text=quote,
        source_id=source_id,
        repo=where.repo,
        path=name_as_text(where.path),  # kept and shown as text (git has its bytes)
        current=current,
        held=found.held,
        dropped=found.dropped,
        current_since=found.current_since,
        versions=found.versions,
        unread=found.unread,
        read_at=now,
        history_version=versions.HISTORY,
    )
    return history, found.before_current
