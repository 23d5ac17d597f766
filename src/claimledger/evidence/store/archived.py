"""The evidence store's part for the web archive (as read): what the archive said
of each page near the day it was read, the copies read there, and each quote checked on
them (see `claimledger.evidence.asread`).

A capture never changes, so what the archive answered (a capture, or none within the
window) is asked once and kept; a failed lookup is kept as history and asked again. A
copy's text is a snapshot like a live page's, stored once by its hash. Like an artifact
run, these rows are written after their run and take no writer lock.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import sqlite3
from dataclasses import replace
from typing import TYPE_CHECKING

from claimledger.errors import StoreDamagedError
from claimledger.evidence.store.part import StorePart
from claimledger.evidence.store.rows import (
    MAYBE_REAL,
    MAYBE_TEXT,
    MAYBE_WHOLE,
    TEXT,
    WHOLE,
    changes_json,
    day,
    literal,
    moment,
    names,
    stamp,
    typed,
    word_changes,
)
from claimledger.evidence.store.translate import mapped
from claimledger.records import (
    ArchivedCopy,
    ArchiveLookup,
    ArchiveOutcome,
    AsReadCheck,
    CheckStatus,
    MatchKind,
)
from claimledger.urls import encoded_url, redacted

LOOKUP_COLUMNS = (
    "run_id", "url", "read_on", "archive", "window_days", "outcome", "timestamp", "original",
    "snapshot_url", "error", "looked_up_at",
)  # fmt: skip
COPY_COLUMNS = (
    "lookup_id", "recipe", "final_url", "http_status", "content_type", "snapshot_hash", "error",
    "read_at",
)  # fmt: skip
AS_READ_COLUMNS = (
    "run_id", "claim_id", "quote_index", "quote_text", "wording", "source_id", "url", "read_on",
    "snapshot_url", "timestamp", "status", "match_kind", "similarity", "current",
    "meaning_changed", "changed_json", "change_kinds_json", "closest", "snapshot_hash", "recipe",
    "error", "checked_at",
)  # fmt: skip


class ArchiveEvidence(StorePart):
    """The store's methods for the web archive; `EvidenceStore` inherits them."""

    if TYPE_CHECKING:  # EvidenceStore's own, used here as they are there
        damage: dict[str, None]

        def _insert_snapshot(self, text: str, url: str, now: dt.datetime) -> str: ...

        def snapshot_text(self, snapshot_hash: str) -> str: ...

    # lookups

    @mapped
    def record_archive_lookup(self, lookup: ArchiveLookup, run_id: int | None = None) -> int:
        """Keep what the archive said of a page; the row's id, for the copies read there."""
        values = (
            run_id,
            redacted(lookup.url),
            lookup.read_on.isoformat(),
            lookup.archive,
            lookup.window_days,
            lookup.outcome,
            lookup.timestamp,
            lookup.original,
            lookup.snapshot_url,
            lookup.error,
            stamp(lookup.looked_up_at),
        )
        return self._insert_row("archive_lookups", LOOKUP_COLUMNS, values)

    @mapped
    def archive_lookup(
        self, url: str, read_on: dt.date, archive: str, window_days: int
    ) -> tuple[int, ArchiveLookup] | None:
        """The archive's answer for a page and day, asked with this window, when it gave one
        (a capture, or none within the window): with its row id. None: ask it."""
        rows = self._db.execute(
            "SELECT * FROM archive_lookups WHERE url = ? AND read_on = ? AND archive = ? "
            "AND window_days = ? AND outcome IN ('found', 'none') ORDER BY id DESC LIMIT 1",
            (redacted(url), read_on.isoformat(), archive, window_days),
        )
        read = self._readable(
            rows, lambda row: (row["id"], _lookup_from_row(row)), "archive_lookups"
        )
        found = list(read)
        return found[0] if found else None

    @mapped
    def latest_archive_lookups(self) -> dict[str, ArchiveLookup]:
        """The newest lookup of each page (by its address as requested), whatever it said."""
        rows = self._db.execute(
            "SELECT * FROM archive_lookups WHERE id IN "
            "(SELECT MAX(id) FROM archive_lookups GROUP BY url) ORDER BY id"
        )
        found = self._readable(rows, _lookup_from_row, "archive_lookups")
        return {lookup.url: lookup for lookup in found}

    # copies

    @mapped
    def record_archived_copy(self, lookup_id: int, copy: ArchivedCopy, now: dt.datetime) -> None:
        """Keep a capture's copy as read (its text a snapshot, stored once)."""
        digest = None
        if copy.text is not None:
            digest = self._insert_snapshot(copy.text, redacted(copy.final_url), now)
        values = (
            lookup_id,
            copy.recipe,
            redacted(copy.final_url),
            copy.http_status,
            copy.content_type,
            digest,
            copy.error,
            stamp(now),
        )
        self._insert_row("archived_copies", COPY_COLUMNS, values)

    @mapped
    def archived_copy(self, lookup_id: int, recipe: str) -> ArchivedCopy | None:
        """The copy of a lookup's capture as the archive served it (2xx), read this way;
        None: read it (it was not, or the archive could not serve it then, or the row
        that kept it cannot be read)."""
        rows = self._db.execute(
            "SELECT * FROM archived_copies WHERE lookup_id = ? AND recipe = ? "
            "AND http_status BETWEEN 200 AND 299 ORDER BY id DESC LIMIT 1",
            (lookup_id, recipe),
        )
        found = list(self._readable(rows, _copy_from_row, "archived_copies"))
        if not found:
            return None
        copy, digest = found[0]
        if digest is None:
            return copy
        try:
            return replace(copy, text=self.snapshot_text(digest))
        except (KeyError, StoreDamagedError):  # read the copy again
            self.damage[f"archived_copies: snapshot {digest[:16]} cannot be read"] = None
            return None

    # as-read checks

    @mapped
    def record_as_read_check(self, check: AsReadCheck, run_id: int | None = None) -> None:
        """Keep one quote's verdict on the archived copy of the day it was read."""
        values = (
            run_id,
            check.claim_id,
            check.quote_index,
            check.quote_text,
            check.wording,
            check.source_id,
            redacted(check.url),
            check.read_on.isoformat(),
            check.snapshot_url,
            check.timestamp,
            check.status,
            check.match_kind,
            check.similarity,
            check.current,
            int(check.meaning_changed),
            changes_json(check.changed_words),
            json.dumps(list(check.change_kinds)),
            check.closest,
            check.snapshot_hash,
            check.recipe,
            check.error,
            stamp(check.checked_at),
        )
        self._insert_row("as_read_checks", AS_READ_COLUMNS, values)

    @mapped
    def latest_as_read_checks(self) -> list[AsReadCheck]:
        """The newest as-read check of every (claim, quote, source), in recorded order."""
        rows = self._db.execute(
            "SELECT * FROM as_read_checks WHERE id IN (SELECT MAX(id) FROM as_read_checks "
            "GROUP BY claim_id, quote_text, source_id) ORDER BY id"
        )
        return list(self._readable(rows, _as_read_from_row, "as_read_checks"))


_LOOKUP_KINDS = (
    MAYBE_WHOLE, TEXT, TEXT, TEXT, WHOLE, TEXT, MAYBE_TEXT, MAYBE_TEXT, MAYBE_TEXT, MAYBE_TEXT,
    TEXT,
)  # fmt: skip
_TIMESTAMP = re.compile(r"[0-9]{4,14}")
_REPOSITORY_VERSION = re.compile(r"file:///[^\s#]*#[0-9a-f]{40}:\S+")
"""A local repository's version of a file, as the history step names it (`file:///REPO#SHA:PATH`);
one on a code host is a web address like any capture's."""


def _lookup_from_row(row: sqlite3.Row) -> ArchiveLookup:
    """A lookup as kept; a capture whose timestamp or address is not one a capture can
    have (an archive's answer kept by an earlier version) is damage, and asked again."""
    typed([row[name] for name in LOOKUP_COLUMNS], _LOOKUP_KINDS, LOOKUP_COLUMNS)
    outcome: ArchiveOutcome = literal(row["outcome"], ArchiveOutcome, "outcome")
    lookup = ArchiveLookup(
        url=row["url"],
        read_on=day(row["read_on"], "read_on"),
        archive=row["archive"],
        window_days=row["window_days"],
        outcome=outcome,
        looked_up_at=moment(row["looked_up_at"], "looked_up_at"),
        timestamp=row["timestamp"],
        original=row["original"],
        snapshot_url=row["snapshot_url"],
        error=row["error"],
    )
    if outcome == "found":
        _capture_named(lookup.timestamp, lookup.original, lookup.snapshot_url)
    return lookup


def _capture_named(timestamp: str | None, *addresses: str | None) -> None:
    """A capture's timestamp (4 to 14 digits of a real time) and its addresses, each a web
    URL in the encoded form it is kept in."""
    if timestamp is None or not _TIMESTAMP.fullmatch(timestamp):
        raise StoreDamagedError(f"a capture's timestamp {str(timestamp)[:20]!r} is no time")
    try:
        dt.datetime.strptime(timestamp + "00000101000000"[len(timestamp) :], "%Y%m%d%H%M%S")
    except ValueError:
        raise StoreDamagedError(f"a capture's timestamp {timestamp!r} is no time") from None
    for address in addresses:
        if address is None or encoded_url(address) != address:
            raise StoreDamagedError("a capture's address is not a web URL")


_COPY_KINDS = (WHOLE, TEXT, TEXT, MAYBE_WHOLE, MAYBE_TEXT, MAYBE_TEXT, MAYBE_TEXT, TEXT)


def _copy_from_row(row: sqlite3.Row) -> tuple[ArchivedCopy, str | None]:
    """A copy as kept (its text still to read), and the snapshot that holds its text."""
    typed([row[name] for name in COPY_COLUMNS], _COPY_KINDS, COPY_COLUMNS)
    copy = ArchivedCopy(
        final_url=row["final_url"],
        http_status=row["http_status"],
        content_type=row["content_type"],
        recipe=row["recipe"],
        text=None,
        error=row["error"],
    )
    return copy, row["snapshot_hash"]


_AS_READ_KINDS = (
    MAYBE_WHOLE, TEXT, WHOLE, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, TEXT, MAYBE_TEXT, MAYBE_TEXT,
    MAYBE_REAL, MAYBE_TEXT, WHOLE, TEXT, TEXT, MAYBE_TEXT, MAYBE_TEXT, TEXT, MAYBE_TEXT, TEXT,
)  # fmt: skip


def _as_read_from_row(row: sqlite3.Row) -> AsReadCheck:
    typed([row[name] for name in AS_READ_COLUMNS], _AS_READ_KINDS, AS_READ_COLUMNS)
    status: CheckStatus | None = (
        None if row["status"] is None else literal(row["status"], CheckStatus, "status")
    )
    kind: MatchKind | None = (
        None if row["match_kind"] is None else literal(row["match_kind"], MatchKind, "match_kind")
    )
    if row["recipe"].startswith("repository ") and _REPOSITORY_VERSION.fullmatch(
        row["snapshot_url"]
    ):
        _capture_named(row["timestamp"])  # a version of the docs' repository, at its commit
    else:
        _capture_named(row["timestamp"], row["snapshot_url"])
    similarity = row["similarity"]
    return AsReadCheck(
        claim_id=row["claim_id"],
        quote_index=row["quote_index"],
        quote_text=row["quote_text"],
        wording=row["wording"],
        source_id=row["source_id"],
        url=row["url"],
        read_on=day(row["read_on"], "read_on"),
        snapshot_url=row["snapshot_url"],
        timestamp=row["timestamp"],
        status=status,
        match_kind=kind,
        similarity=None if similarity is None else float(similarity),
        current=row["current"],
        meaning_changed=bool(row["meaning_changed"]),
        changed_words=word_changes(row["changed_json"]),
        change_kinds=names(row["change_kinds_json"], "change_kinds_json"),
        closest=row["closest"],
        snapshot_hash=row["snapshot_hash"],
        recipe=row["recipe"],
        error=row["error"],
        checked_at=moment(row["checked_at"], "checked_at"),
    )
