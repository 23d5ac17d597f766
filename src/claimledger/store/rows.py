"""Records to rows and back: how each value crosses into SQLite and out again.

A value read back is checked against its type's literals, so a damaged or foreign row
is `StoreDamagedError`, never a record with a status nothing else knows.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any, get_args

from claimledger.errors import StoreDamagedError
from claimledger.records import (
    ArtifactRun,
    ChangeOp,
    CheckRecord,
    CheckStatus,
    FetchRecord,
    Hop,
    HopVia,
    MatchKind,
    SourceStatus,
    WordChange,
)
from claimledger.urls import redacted


def literal(value: str, kind: Any) -> Any:
    """Check a string read back from SQL (or handed in) against a Literal type."""
    if value not in get_args(kind):
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
    return tuple(str(name) for name in json.loads(text))


def hops_json(hops: Iterable[Hop]) -> str:
    return json.dumps([[redacted(hop.url), hop.status, hop.via] for hop in hops])


def hops(text: str) -> tuple[Hop, ...]:
    """Hops as stored: `[url, status]` before meta refreshes were followed, then with `via`."""
    return tuple(
        Hop(hop[0], int(hop[1]), literal(hop[2], HopVia) if len(hop) > 2 else "http")
        for hop in json.loads(text)
    )


def check_from_row(row: sqlite3.Row) -> CheckRecord:
    return CheckRecord(
        claim_id=row["claim_id"],
        quote_index=row["quote_index"],
        quote_text=row["quote_text"],
        source_id=row["source_id"],
        url=row["url"],
        source_status=literal(row["source_status"], SourceStatus),
        status=None if row["status"] is None else literal(row["status"], CheckStatus),
        match_kind=None if row["match_kind"] is None else literal(row["match_kind"], MatchKind),
        similarity=row["similarity"],
        current=row["current"],
        meaning_changed=bool(row["meaning_changed"]),
        changed_words=word_changes(row["changed_json"]),
        occurrences=row["occurrences"],
        context_before=row["context_before"],
        context_after=row["context_after"],
        snapshot_hash=row["snapshot_hash"],
        checked_at=moment(row["checked_at"]),
        run_id=row["run_id"],
        recipe=row["recipe"],
        misread=bool(row["misread"]) if "misread" in row.keys() else False,  # noqa: SIM118
        change_kinds=names(row["change_kinds_json"]),
        closest=row["closest"],
        closest_kinds=names(row["closest_kinds_json"]),
        moved_within=row["moved_within"],
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
