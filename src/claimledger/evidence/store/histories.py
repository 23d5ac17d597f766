"""What the docs' repository says of a quote (`QuoteHistory`), as a row of
`quote_histories` and back, checked as every row is (see `rows`), and the store's methods
that keep and read it."""

from __future__ import annotations

import json
import sqlite3

from claimledger.errors import StoreDamagedError
from claimledger.evidence.store.part import StorePart
from claimledger.evidence.store.rows import (
    MAYBE_TEXT,
    MAYBE_WHOLE,
    TEXT,
    WHOLE,
    json_object,
    moment,
    stamp,
    text,
    typed,
)
from claimledger.evidence.store.translate import mapped
from claimledger.records import CheckKey, Commit, QuoteHistory

HISTORY_COLUMNS = (
    "claim_id",
    "quote_text",
    "source_id",
    "repo",
    "path",
    "current",
    "commits_json",
    "versions",
    "read_at",
    "unread_json",
    "ref",
    "history_version",
)
"""The columns of `quote_histories`, in the order of `history_values`."""

_HISTORY_KINDS = (TEXT,) * 5 + (MAYBE_TEXT, TEXT, WHOLE, TEXT, MAYBE_TEXT, MAYBE_TEXT, MAYBE_WHOLE)
_COMMIT_FIELDS = ("sha", "date", "author", "subject", "path")
_HISTORY_COMMITS = ("held", "dropped", "current_since")


def history_values(history: QuoteHistory) -> tuple[object, ...]:
    """A quote's history as the values of HISTORY_COLUMNS (its commits as one JSON object)."""
    commits = {
        name: None if commit is None else _commit_values(commit)
        for name in _HISTORY_COMMITS
        for commit in [getattr(history, name)]
    }
    return (
        history.claim_id,
        history.quote_text,
        history.source_id,
        history.repo,
        history.path,
        history.current,
        json.dumps(commits),
        history.versions,
        stamp(history.read_at),
        json.dumps([_commit_values(commit) for commit in history.unread]),
        history.ref,
        history.history_version,
    )


def history_from_row(row: sqlite3.Row) -> QuoteHistory:
    typed([row[name] for name in HISTORY_COLUMNS], _HISTORY_KINDS, HISTORY_COLUMNS)
    commits = json_object(row["commits_json"], "commits_json")
    found = {name: _commit(commits.get(name)) for name in _HISTORY_COMMITS}
    return QuoteHistory(
        claim_id=row["claim_id"],
        quote_text=row["quote_text"],
        source_id=row["source_id"],
        repo=row["repo"],
        path=row["path"],
        current=row["current"],
        held=found["held"],
        dropped=found["dropped"],
        current_since=found["current_since"],
        versions=row["versions"],
        read_at=moment(row["read_at"], "read_at"),
        unread=_unread(row["unread_json"]),
        ref=row["ref"],
        history_version=row["history_version"],
    )


def _commit_values(commit: Commit) -> list[str]:
    return [getattr(commit, field) for field in _COMMIT_FIELDS]


def _unread(value: str | None) -> tuple[Commit, ...]:
    """The unreadable versions as `history_values` kept them: a list of commits (none
    known in a history kept before they were)."""
    if value is None:
        return ()
    try:
        found = json.loads(value)
    except (ValueError, RecursionError):
        found = None
    commits = [_commit(item) for item in found] if isinstance(found, list) else [None]
    if None in commits:
        raise StoreDamagedError("unread_json is not a list of commits")
    return tuple(commit for commit in commits if commit is not None)


def _commit(value: object) -> Commit | None:
    """A commit as `history_values` kept it: five texts, or null."""
    if value is None:
        return None
    if not isinstance(value, list) or len(value) != len(_COMMIT_FIELDS):
        raise StoreDamagedError("commits_json holds a commit that is not five fields")
    return Commit(*(text(field, "commits_json") for field in value))


class HistoryEvidence(StorePart):
    """The store's methods for quote histories; `EvidenceStore` inherits them."""

    @mapped
    def record_quote_history(self, history: QuoteHistory) -> None:
        """Keep what the docs' repository says of one quote on one source."""
        self._insert_row("quote_histories", HISTORY_COLUMNS, history_values(history))

    @mapped
    def latest_quote_histories(self, *, reusable: bool = False) -> dict[CheckKey, QuoteHistory]:
        """The newest history of each quote on each source, by its check key; `reusable`:
        only one that kept its unreadable versions (an older one may hide them)."""
        kept = "WHERE unread_json IS NOT NULL " if reusable else ""
        rows = self._db.execute(
            "SELECT * FROM quote_histories WHERE id IN (SELECT MAX(id) FROM quote_histories "
            f"{kept}GROUP BY claim_id, quote_text, source_id) ORDER BY id"
        )
        found = self._readable(rows, history_from_row, "quote_histories")
        return {(h.claim_id, h.quote_text, h.source_id): h for h in found}
