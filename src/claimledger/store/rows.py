"""Records to rows and back: how each value crosses into SQLite and out again.

A value read back is checked against its type's literals, so a damaged or foreign row
is `StoreDamagedError`, never a record with a status nothing else knows.
"""

from __future__ import annotations

import json
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any, NamedTuple, get_args

from claimledger.errors import StoreDamagedError
from claimledger.records import (
    ArtifactRun,
    Candidate,
    ChangeOp,
    CheckRecord,
    CheckStatus,
    FetchRecord,
    Hop,
    HopVia,
    MatchKind,
    QuoteThere,
    Relocation,
    SavedSnapshot,
    SourceStatus,
    WordChange,
)
from claimledger.urls import redacted

SNAPSHOT_LEVEL = 1
"""zlib's fastest level: a fifth of the time of level 6 for snapshots a quarter larger;
a refresh compresses every new page, a reader decompresses the few it shows."""


def snapshot_zlib(text: str) -> bytes:
    """A snapshot's text as the store keeps it (a worker process may compress it)."""
    return zlib.compress(text.encode("utf-8"), SNAPSHOT_LEVEL)


_LITERALS: dict[int, tuple[Any, frozenset[str]]] = {}
"""Each Literal type (kept) and its values, by the type's id: hashing a Literal type costs
more than reading all of a row's other columns."""


def literal(value: str, kind: Any) -> Any:
    """Check a string read back from SQL (or handed in) against a Literal type."""
    known = _LITERALS.get(id(kind))
    if known is None or known[0] is not kind:
        known = _LITERALS[id(kind)] = (kind, frozenset(get_args(kind)))
    allowed = known[1]
    if value not in allowed:
        raise StoreDamagedError(f"unexpected value {value!r} (expected one of {get_args(kind)})")
    return value


def stamp(moment: datetime) -> str:
    """UTC ISO-8601 with fixed precision, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError(f"evidence times must be timezone-aware, got {moment.isoformat()}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)


def changes_json(changes: Iterable[WordChange]) -> str:
    return json.dumps(
        [[c.op, c.quote, c.page, c.meaningful, c.kind] for c in changes], ensure_ascii=False
    )


def word_changes(text: str) -> tuple[WordChange, ...]:
    """Word changes as stored: `[op, quote, page, meaningful]`, and `kind` since schema 4."""
    if text == "[]":  # most checks: read a thousand of them without the JSON parser
        return ()
    return tuple(
        WordChange(
            literal(item[0], ChangeOp),
            item[1],
            item[2],
            bool(item[3]),
            item[4] if len(item) > 4 else None,
        )
        for item in json.loads(text)
    )


def names(text: str) -> tuple[str, ...]:
    if text == "[]":
        return ()
    return tuple(str(name) for name in json.loads(text))


def hops_json(hops: Iterable[Hop]) -> str:
    return json.dumps([[redacted(hop.url), hop.status, hop.via] for hop in hops])


def hops(text: str) -> tuple[Hop, ...]:
    """Hops as stored: `[url, status]` before meta refreshes were followed, then with `via`."""
    return tuple(
        Hop(hop[0], int(hop[1]), literal(hop[2], HopVia) if len(hop) > 2 else "http")
        for hop in json.loads(text)
    )


CHECK_COLUMNS = (
    "claim_id",
    "quote_index",
    "quote_text",
    "source_id",
    "url",
    "source_status",
    "status",
    "match_kind",
    "similarity",
    "current",
    "meaning_changed",
    "changed_json",
    "occurrences",
    "context_before",
    "context_after",
    "snapshot_hash",
    "checked_at",
    "run_id",
    "recipe",
    "change_kinds_json",
    "closest",
    "closest_kinds_json",
    "moved_within",
)
"""The columns of `checks` that `check_from_row` reads, in its order (then `misread`)."""


def check_from_row(row: Sequence[Any]) -> CheckRecord:
    """A check from the values of CHECK_COLUMNS and `misread`, taken by position: a command
    reads ten thousand checks, and by name each costs more than the rules spend on it."""
    (
        claim_id,
        quote_index,
        quote_text,
        source_id,
        url,
        source_status,
        status,
        match_kind,
        similarity,
        current,
        meaning_changed,
        changed_json,
        occurrences,
        context_before,
        context_after,
        snapshot_hash,
        checked_at,
        run_id,
        recipe,
        change_kinds_json,
        closest,
        closest_kinds_json,
        moved_within,
        misread,
    ) = row
    return CheckRecord(
        claim_id=claim_id,
        quote_index=quote_index,
        quote_text=quote_text,
        source_id=source_id,
        url=url,
        source_status=literal(source_status, SourceStatus),
        status=None if status is None else literal(status, CheckStatus),
        match_kind=None if match_kind is None else literal(match_kind, MatchKind),
        similarity=similarity,
        current=current,
        meaning_changed=bool(meaning_changed),
        changed_words=word_changes(changed_json),
        occurrences=occurrences,
        context_before=context_before,
        context_after=context_after,
        snapshot_hash=snapshot_hash,
        checked_at=moment(checked_at),
        run_id=run_id,
        recipe=recipe,
        misread=bool(misread),
        change_kinds=names(change_kinds_json),
        closest=closest,
        closest_kinds=names(closest_kinds_json),
        moved_within=moved_within,
    )


class CheckVerdict(NamedTuple):
    """What a check says of its quote, in the fields the grading rules weigh (see
    `claimledger.grade.Check`): a regrade reads every latest check, and all of a record's
    fields cost more to read than the rules spend on it."""

    claim_id: str
    quote_text: str
    source_id: str
    url: str
    source_status: SourceStatus
    status: CheckStatus | None
    meaning_changed: bool
    change_kinds: tuple[str, ...]
    current: str | None
    checked_at: datetime


VERDICT_COLUMNS = (
    "claim_id",
    "quote_text",
    "source_id",
    "url",
    "source_status",
    "status",
    "meaning_changed",
    "change_kinds_json",
    "current",
    "checked_at",
    "match_kind",
    "changed_json",
    "closest_kinds_json",
)
"""The columns `verdict_from_row` reads, in its order: the verdict's, then those it only
checks, so that a row `check_from_row` skips as damaged is skipped here too."""


def verdict_from_row(row: Sequence[Any]) -> CheckVerdict:
    (
        claim_id,
        quote_text,
        source_id,
        url,
        source_status,
        status,
        meaning_changed,
        change_kinds_json,
        current,
        checked_at,
        match_kind,
        changed_json,
        closest_kinds_json,
    ) = row
    if match_kind is not None:
        literal(match_kind, MatchKind)
    word_changes(changed_json)
    names(closest_kinds_json)
    return CheckVerdict(
        claim_id=claim_id,
        quote_text=quote_text,
        source_id=source_id,
        url=url,
        source_status=literal(source_status, SourceStatus),
        status=None if status is None else literal(status, CheckStatus),
        meaning_changed=bool(meaning_changed),
        change_kinds=names(change_kinds_json),
        current=current,
        checked_at=moment(checked_at),
    )


def fetch_from_row(row: sqlite3.Row) -> FetchRecord:
    return FetchRecord(
        run_id=row["run_id"],
        url=row["url"],
        final_url=row["final_url"],
        http_status=row["http_status"],
        source_status=literal(row["source_status"], SourceStatus),
        redirects=hops(row["redirects_json"]),
        moved_to=row["moved_to"],
        etag=row["etag"],
        last_modified=row["last_modified"],
        content_type=row["content_type"],
        error=row["error"],
        not_modified=bool(row["not_modified"]),
        attempts=row["attempts"],
        elapsed=row["elapsed"],
        snapshot_hash=row["snapshot_hash"],
        fetched_at=moment(row["fetched_at"]),
        recipe=row["recipe"],
        canonical=row["canonical"],
        misread=bool(row["misread"]) if "misread" in row.keys() else False,  # noqa: SIM118
    )


ARTIFACT_RUN_COLUMNS = (
    "claim_id",
    "ran_at",
    "command",
    "started",
    "exit_status",
    "matched",
    "output",
    "expected",
    "error",
    "seconds",
    "runner",
)
"""The columns of `artifact_runs` that `artifact_run_values` fills, in its order."""


def artifact_run_values(run: ArtifactRun) -> tuple[object, ...]:
    """An artifact run as the values of ARTIFACT_RUN_COLUMNS."""
    return (
        run.claim_id,
        stamp(run.ran_at),
        run.command,
        int(run.started),
        run.exit_status,
        int(run.matched),
        run.output,
        run.expected,
        run.error,
        run.seconds,
        run.runner,
    )


def artifact_run_from_row(row: sqlite3.Row) -> ArtifactRun:
    exit_status = row["exit_status"]
    return ArtifactRun(
        claim_id=row["claim_id"],
        ran_at=moment(row["ran_at"]),
        command=row["command"],
        started=bool(row["started"]),
        exit_status=None if exit_status is None else int(exit_status),
        matched=bool(row["matched"]),
        output=row["output"],
        expected=row["expected"],
        error=row["error"],
        seconds=float(row["seconds"]),
        runner=row["runner"],
    )


# ---------------------------------------------------------- the archive, recovery


RELOCATION_COLUMNS = (
    "run_id",
    "source_id",
    "url",
    "reason",
    "found_at",
    "quotes_found",
    "quotes_total",
    "evidence_json",
    "note",
    "recorded_at",
)
"""The columns of `relocations` that `relocation_values` fills, in its order."""


def relocation_values(relocation: Relocation, now: datetime) -> tuple[object, ...]:
    """A search for a source that went, as the values of RELOCATION_COLUMNS; the quotes,
    candidates and sitemaps are its evidence, kept as one JSON object."""
    evidence = {
        "quotes": [
            [q.claim_id, q.quote_index, q.quote_text, q.status, q.match_kind, q.similarity,
             q.current]
            for q in relocation.quotes
        ],
        "candidates": [
            [redacted(c.url), c.score, c.source_status, c.found, c.title]
            for c in relocation.candidates
        ],
        "sitemaps": [redacted(url) for url in relocation.sitemaps],
    }  # fmt: skip
    found_at = relocation.found_at
    return (
        relocation.run_id,
        relocation.source_id,
        redacted(relocation.url),
        relocation.reason,
        None if found_at is None else redacted(found_at),
        relocation.found,
        relocation.total,
        json.dumps(evidence, ensure_ascii=False),
        relocation.note,
        stamp(now),
    )


def relocation_from_row(row: sqlite3.Row) -> Relocation:
    evidence = json.loads(row["evidence_json"])
    quotes = tuple(
        QuoteThere(
            claim_id=str(q[0]),
            quote_index=int(q[1]),
            quote_text=str(q[2]),
            status=None if q[3] is None else literal(q[3], CheckStatus),
            match_kind=None if q[4] is None else literal(q[4], MatchKind),
            similarity=None if q[5] is None else float(q[5]),
            current=q[6],
        )
        for q in evidence["quotes"]
    )
    candidates = tuple(
        Candidate(
            url=str(c[0]),
            score=float(c[1]),
            source_status=None if c[2] is None else literal(c[2], SourceStatus),
            found=int(c[3]),
            title=c[4],
        )
        for c in evidence["candidates"]
    )
    return Relocation(
        source_id=row["source_id"],
        url=row["url"],
        reason=row["reason"],
        found_at=row["found_at"],
        quotes=quotes,
        total=int(row["quotes_total"]),
        candidates=candidates,
        sitemaps=tuple(str(url) for url in evidence["sitemaps"]),
        note=row["note"],
        run_id=row["run_id"],
        recorded_at=moment(row["recorded_at"]),
    )


SAVE_COLUMNS = (
    "run_id",
    "url",
    "archive",
    "snapshot_url",
    "http_status",
    "error",
    "snapshot_hash",
    "saved_at",
)
"""The columns of `archive_saves` that `save_values` fills, in its order."""


def save_values(saved: SavedSnapshot, now: datetime) -> tuple[object, ...]:
    return (
        saved.run_id,
        redacted(saved.url),
        saved.archive,
        saved.snapshot_url,
        saved.http_status,
        saved.error,
        saved.snapshot_hash,
        stamp(now),
    )


def save_from_row(row: sqlite3.Row) -> SavedSnapshot:
    return SavedSnapshot(
        url=row["url"],
        archive=row["archive"],
        snapshot_url=row["snapshot_url"],
        http_status=row["http_status"],
        error=row["error"],
        snapshot_hash=row["snapshot_hash"],
        run_id=row["run_id"],
        saved_at=moment(row["saved_at"]),
    )
