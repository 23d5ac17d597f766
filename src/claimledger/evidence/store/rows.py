"""Records to rows and back: how each value crosses into SQLite and out again.

A value read back is checked against the type its record declares (text, a whole number,
NULL only where the record allows None), its literals, its JSON's shape and a plausible
time, so a damaged or foreign row is `StoreDamagedError`, never a record with a status
nothing else knows or a number where the report expects text. A committed evidence store
is as hostile as any file in a cloned repository: SQLite's column types are advice only,
and a file can hold anything in any column.
"""

from __future__ import annotations

import json
import math
import sqlite3
from collections.abc import Iterable, Sequence
from datetime import UTC, date, datetime
from typing import Any, NamedTuple, get_args

from claimledger.errors import StoreDamagedError
from claimledger.records import (
    ArtifactRun,
    Candidate,
    ChangeOp,
    CheckRecord,
    CheckStatus,
    Commit,
    FetchRecord,
    Hop,
    HopVia,
    MatchKind,
    QuoteThere,
    Relocation,
    RunRecord,
    SavedSnapshot,
    SourceStatus,
    WordChange,
)
from claimledger.urls import redacted

_LITERALS: dict[int, tuple[Any, frozenset[str]]] = {}
"""Each Literal type (kept) and its values, by the type's id: hashing a Literal type costs
more than reading all of a row's other columns."""


def literal(value: object, kind: Any, name: str = "a value") -> Any:
    """Check a string read back from SQL (or handed in) against a Literal type."""
    known = _LITERALS.get(id(kind))
    if known is None or known[0] is not kind:
        known = _LITERALS[id(kind)] = (kind, frozenset(get_args(kind)))
    allowed = known[1]
    if not isinstance(value, str) or value not in allowed:
        shown = repr(value)[:40]
        raise StoreDamagedError(f"{name} holds {shown}, none of {', '.join(get_args(kind))}")
    return value


# --------------------------------------------------------------------------- typed values

NoneType = type(None)
TEXT = (str,)
MAYBE_TEXT = (str, NoneType)
WHOLE = (int,)
MAYBE_WHOLE = (int, NoneType)
REAL = (int, float)
MAYBE_REAL = (int, float, NoneType)


def typed(values: Sequence[Any], kinds: Sequence[tuple[type, ...]], names: Sequence[str]) -> None:
    """Each value of a row is of the type its column must hold (sqlite3 gives str, int,
    float, bytes or None, whatever the column's declared type)."""
    for value, kind, name in zip(values, kinds, names, strict=True):
        if not isinstance(value, kind):
            raise StoreDamagedError(f"{name} holds {_kind_of(value)}")
        if isinstance(value, float) and not math.isfinite(value):
            raise StoreDamagedError(f"{name} holds a number that is not finite")


def _kind_of(value: object) -> str:
    kinds: tuple[tuple[type, str], ...] = (
        (bool, "true or false"),
        (str, "text"),
        (int, "a whole number"),
        (float, "a number"),
        (bytes, "bytes"),
        (NoneType, "NULL"),
    )
    return next((words for kind, words in kinds if isinstance(value, kind)), "JSON")


def text(value: object, name: str = "a column") -> str:
    if not isinstance(value, str):
        raise StoreDamagedError(f"{name} holds {_kind_of(value)}, not text")
    return value


def maybe_text(value: object, name: str = "a column") -> str | None:
    return None if value is None else text(value, name)


def whole(value: object, name: str = "a column") -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise StoreDamagedError(f"{name} holds {_kind_of(value)}, not a whole number")
    return value


def flag(value: object, name: str = "a column") -> bool:
    """True or false, as JSON or as SQLite's 0 and 1 keep it."""
    if value not in (0, 1) or not isinstance(value, int):
        raise StoreDamagedError(f"{name} holds {_kind_of(value)}, not true or false")
    return bool(value)


def maybe_whole(value: object, name: str = "a column") -> int | None:
    return None if value is None else whole(value, name)


def real(value: object, name: str = "a column") -> float:
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise StoreDamagedError(f"{name} holds {_kind_of(value)}, not a number")
    if not math.isfinite(value):
        raise StoreDamagedError(f"{name} holds a number that is not finite")
    return float(value)


def maybe_real(value: object, name: str = "a column") -> float | None:
    return None if value is None else real(value, name)


def stamp(moment: datetime) -> str:
    """UTC ISO-8601 with fixed precision, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError(f"evidence times must be timezone-aware, got {moment.isoformat()}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


EARLIEST_YEAR, LATEST_YEAR = 1970, 9000
"""The years a time in the store may fall in: every time was the clock's, and one near
the calendar's ends would overflow the first sum a command made with it."""


def moment(stamp: object, name: str = "a time") -> datetime:
    """A time as `stamp` kept it: ISO-8601 text, with its zone, in a plausible year."""
    try:
        when = datetime.fromisoformat(text(stamp, name))
    except ValueError:
        raise StoreDamagedError(f"{name} holds {str(stamp)[:40]!r}, not a time") from None
    if when.tzinfo is None or not EARLIEST_YEAR <= when.year <= LATEST_YEAR:
        raise StoreDamagedError(f"{name} holds {str(stamp)[:40]!r}, no time of the evidence")
    return when


def day(value: object, name: str = "a day") -> date:
    """A day as kept (YYYY-MM-DD): a ledger's date_read, any real day."""
    try:
        return date.fromisoformat(text(value, name))
    except ValueError:
        raise StoreDamagedError(f"{name} holds {str(value)[:40]!r}, not a day") from None


def json_list(value: object, name: str) -> list[Any]:
    """A column's JSON array (anything else, or no JSON at all, is damage)."""
    try:
        found = json.loads(text(value, name))
    except (ValueError, RecursionError):
        raise StoreDamagedError(f"{name} is not JSON") from None
    if not isinstance(found, list):
        raise StoreDamagedError(f"{name} is not a JSON list")
    return found


def json_object(value: object, name: str) -> dict[str, Any]:
    try:
        found = json.loads(text(value, name))
    except (ValueError, RecursionError):
        raise StoreDamagedError(f"{name} is not JSON") from None
    if not isinstance(found, dict):
        raise StoreDamagedError(f"{name} is not a JSON object")
    return found


def items(value: object, name: str, least: int, most: int) -> list[Any]:
    """A JSON array's item that is itself an array of `least` to `most` values."""
    if not isinstance(value, list) or not least <= len(value) <= most:
        raise StoreDamagedError(f"{name} holds an item of the wrong shape")
    return value


def changes_json(changes: Iterable[WordChange]) -> str:
    return json.dumps(
        [[c.op, c.quote, c.page, c.meaningful, c.kind] for c in changes], ensure_ascii=False
    )


def word_changes(stored: object) -> tuple[WordChange, ...]:
    """Word changes as stored: `[op, quote, page, meaningful]`, and `kind` since schema 4."""
    if stored == "[]":  # most checks: read a thousand of them without the JSON parser
        return ()
    changes = []
    for item in json_list(stored, "changed_json"):
        op, quote, page, meaningful, *kind = items(item, "changed_json", 4, 5)
        changes.append(
            WordChange(
                literal(op, ChangeOp, "changed_json"),
                text(quote, "changed_json"),
                text(page, "changed_json"),
                flag(meaningful, "changed_json"),
                maybe_text(kind[0], "changed_json") if kind else None,
            )
        )
    return tuple(changes)


def names(stored: object, name: str = "a list of names") -> tuple[str, ...]:
    if stored == "[]":
        return ()
    return tuple(text(item, name) for item in json_list(stored, name))


def hops_json(hops: Iterable[Hop]) -> str:
    return json.dumps([[redacted(hop.url), hop.status, hop.via] for hop in hops])


def hops(stored: object) -> tuple[Hop, ...]:
    """Hops as stored: `[url, status]` before meta refreshes were followed, then with `via`."""
    found = []
    for hop in json_list(stored, "redirects_json"):
        url, status, *via = items(hop, "redirects_json", 2, 3)
        how: HopVia = literal(via[0], HopVia, "redirects_json") if via else "http"
        found.append(Hop(text(url, "redirects_json"), whole(status, "redirects_json"), how))
    return tuple(found)


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
    "pdf_page",
)
"""The columns of `checks` that `check_from_row` reads, in its order (then `misread`)."""

_CHECK_KINDS = (
    TEXT, WHOLE, TEXT, TEXT, TEXT, TEXT, MAYBE_TEXT, MAYBE_TEXT, MAYBE_REAL, MAYBE_TEXT, WHOLE,
    TEXT, WHOLE, MAYBE_TEXT, MAYBE_TEXT, MAYBE_TEXT, TEXT, WHOLE, TEXT, TEXT, MAYBE_TEXT, TEXT,
    MAYBE_TEXT, MAYBE_WHOLE, WHOLE,
)  # fmt: skip
_CHECK_NAMES = (*CHECK_COLUMNS, "misread")


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
        pdf_page,
        misread,
    ) = row
    typed(row, _CHECK_KINDS, _CHECK_NAMES)
    return CheckRecord(
        claim_id=claim_id,
        quote_index=quote_index,
        quote_text=quote_text,
        source_id=source_id,
        url=url,
        source_status=literal(source_status, SourceStatus, "source_status"),
        status=None if status is None else literal(status, CheckStatus, "status"),
        match_kind=None if match_kind is None else literal(match_kind, MatchKind, "match_kind"),
        similarity=None if similarity is None else float(similarity),
        current=current,
        meaning_changed=bool(meaning_changed),
        changed_words=word_changes(changed_json),
        occurrences=occurrences,
        context_before=context_before,
        context_after=context_after,
        snapshot_hash=snapshot_hash,
        checked_at=moment(checked_at, "checked_at"),
        run_id=run_id,
        recipe=recipe,
        misread=bool(misread),
        change_kinds=names(change_kinds_json, "change_kinds_json"),
        closest=closest,
        closest_kinds=names(closest_kinds_json, "closest_kinds_json"),
        moved_within=moved_within,
        pdf_page=pdf_page,
    )


class CheckVerdict(NamedTuple):
    """What a check says of its quote, in the fields the grading rules weigh (see
    `claimledger.grading.rules.Check`): a regrade reads every latest check, and all of a record's
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
    snapshot_hash: str | None
    recipe: str = ""  # how the page was read: a check of another reading is not current
    moved_within: str | None = None  # found elsewhere on the page: `explain` says where


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
    "snapshot_hash",
    "recipe",
    "moved_within",
    "match_kind",
    "changed_json",
    "closest_kinds_json",
)
"""The columns `verdict_from_row` reads, in its order: the verdict's, then those it only
checks, so that a row `check_from_row` skips as damaged is skipped here too."""

_VERDICT_KINDS = tuple(_CHECK_KINDS[CHECK_COLUMNS.index(name)] for name in VERDICT_COLUMNS)


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
        snapshot_hash,
        recipe,
        moved_within,
        match_kind,
        changed_json,
        closest_kinds_json,
    ) = row
    typed(row, _VERDICT_KINDS, VERDICT_COLUMNS)
    if match_kind is not None:
        literal(match_kind, MatchKind, "match_kind")
    word_changes(changed_json)
    names(closest_kinds_json, "closest_kinds_json")
    return CheckVerdict(
        claim_id=claim_id,
        quote_text=quote_text,
        source_id=source_id,
        url=url,
        source_status=literal(source_status, SourceStatus, "source_status"),
        status=None if status is None else literal(status, CheckStatus, "status"),
        meaning_changed=bool(meaning_changed),
        change_kinds=names(change_kinds_json, "change_kinds_json"),
        current=current,
        checked_at=moment(checked_at, "checked_at"),
        snapshot_hash=snapshot_hash,
        recipe=recipe,
        moved_within=moved_within,
    )


_FETCH_KINDS = {
    "run_id": WHOLE, "url": TEXT, "final_url": TEXT, "http_status": MAYBE_WHOLE,
    "moved_to": MAYBE_TEXT, "etag": MAYBE_TEXT, "last_modified": MAYBE_TEXT,
    "content_type": MAYBE_TEXT, "error": MAYBE_TEXT, "not_modified": WHOLE, "attempts": WHOLE,
    "elapsed": REAL, "snapshot_hash": MAYBE_TEXT, "recipe": TEXT, "canonical": MAYBE_TEXT,
}  # fmt: skip
"""The columns of `fetches` that `fetch_from_row` reads as they are, and their types."""


def fetch_from_row(row: sqlite3.Row) -> FetchRecord:
    typed([row[name] for name in _FETCH_KINDS], list(_FETCH_KINDS.values()), list(_FETCH_KINDS))
    misread = whole(row["misread"], "misread") if "misread" in row.keys() else 0  # noqa: SIM118
    return FetchRecord(
        run_id=row["run_id"],
        url=row["url"],
        final_url=row["final_url"],
        http_status=row["http_status"],
        source_status=literal(row["source_status"], SourceStatus, "source_status"),
        redirects=hops(row["redirects_json"]),
        moved_to=row["moved_to"],
        etag=row["etag"],
        last_modified=row["last_modified"],
        content_type=row["content_type"],
        error=row["error"],
        not_modified=bool(row["not_modified"]),
        attempts=row["attempts"],
        elapsed=float(row["elapsed"]),
        snapshot_hash=row["snapshot_hash"],
        fetched_at=moment(row["fetched_at"], "fetched_at"),
        recipe=row["recipe"],
        canonical=row["canonical"],
        misread=bool(misread),
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


_ARTIFACT_RUN_KINDS = (
    TEXT, TEXT, TEXT, WHOLE, MAYBE_WHOLE, WHOLE, TEXT, TEXT, MAYBE_TEXT, REAL, TEXT,
)  # fmt: skip


def artifact_run_from_row(row: sqlite3.Row) -> ArtifactRun:
    values = [row[name] for name in ARTIFACT_RUN_COLUMNS]
    typed(values, _ARTIFACT_RUN_KINDS, ARTIFACT_RUN_COLUMNS)
    return ArtifactRun(
        claim_id=row["claim_id"],
        ran_at=moment(row["ran_at"], "ran_at"),
        command=row["command"],
        started=bool(row["started"]),
        exit_status=row["exit_status"],
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
             q.current, q.meaning_changed]
            for q in relocation.quotes
        ],
        "candidates": [
            [redacted(c.url), c.score, c.source_status, c.found, c.title]
            for c in relocation.candidates
        ],
        "sitemaps": [redacted(url) for url in relocation.sitemaps],
        "file": None if relocation.file_commit is None else [
            *(getattr(relocation.file_commit, f) for f in _COMMIT_FIELDS), relocation.renamed_to
        ],
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


_RELOCATION_KINDS = (
    MAYBE_WHOLE, TEXT, TEXT, TEXT, MAYBE_TEXT, WHOLE, WHOLE, TEXT, TEXT, TEXT,
)  # fmt: skip


def relocation_from_row(row: sqlite3.Row) -> Relocation:
    typed([row[name] for name in RELOCATION_COLUMNS], _RELOCATION_KINDS, RELOCATION_COLUMNS)
    evidence = json_object(row["evidence_json"], "evidence_json")
    return Relocation(
        source_id=row["source_id"],
        url=row["url"],
        reason=row["reason"],
        found_at=row["found_at"],
        quotes=tuple(_quote_there(q) for q in _evidence(evidence, "quotes")),
        total=row["quotes_total"],
        candidates=tuple(_candidate(c) for c in _evidence(evidence, "candidates")),
        sitemaps=tuple(text(url, "evidence_json") for url in _evidence(evidence, "sitemaps")),
        note=row["note"],
        run_id=row["run_id"],
        recorded_at=moment(row["recorded_at"], "recorded_at"),
        **_file_fate(evidence.get("file")),
    )


_COMMIT_FIELDS = ("sha", "date", "author", "subject", "path")


def _file_fate(value: object) -> dict[str, Any]:
    """The commit that renamed or deleted the page's file, as `relocation_values` kept it
    (absent from a search recorded before the history step)."""
    if value is None:
        return {}
    *fields, renamed_to = items(value, "evidence_json", 6, 6)
    commit = Commit(*(text(field, "evidence_json") for field in fields))
    return {"file_commit": commit, "renamed_to": maybe_text(renamed_to, "evidence_json")}


def _evidence(evidence: dict[str, Any], key: str) -> list[Any]:
    found = evidence.get(key)
    if not isinstance(found, list):
        raise StoreDamagedError(f"evidence_json has no list of {key}")
    return found


def _quote_there(item: object) -> QuoteThere:
    """A quote as a search found it; one recorded before a meaning change was kept (seven
    values) is one whose meaning is not known to have changed."""
    claim_id, index, quote, status, kind, similarity, current, *rest = items(
        item, "evidence_json", 7, 8
    )
    return QuoteThere(
        claim_id=text(claim_id, "evidence_json"),
        quote_index=whole(index, "evidence_json"),
        quote_text=text(quote, "evidence_json"),
        status=None if status is None else literal(status, CheckStatus, "evidence_json"),
        match_kind=None if kind is None else literal(kind, MatchKind, "evidence_json"),
        similarity=maybe_real(similarity, "evidence_json"),
        current=maybe_text(current, "evidence_json"),
        meaning_changed=rest != [] and flag(rest[0], "evidence_json"),
    )


def _candidate(item: object) -> Candidate:
    url, score, status, found, title = items(item, "evidence_json", 5, 5)
    return Candidate(
        url=text(url, "evidence_json"),
        score=real(score, "evidence_json"),
        source_status=None if status is None else literal(status, SourceStatus, "evidence_json"),
        found=whole(found, "evidence_json"),
        title=maybe_text(title, "evidence_json"),
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


_SAVE_KINDS = (MAYBE_WHOLE, TEXT, TEXT, MAYBE_TEXT, MAYBE_WHOLE, MAYBE_TEXT, MAYBE_TEXT, TEXT)


def save_from_row(row: sqlite3.Row) -> SavedSnapshot:
    typed([row[name] for name in SAVE_COLUMNS], _SAVE_KINDS, SAVE_COLUMNS)
    return SavedSnapshot(
        url=row["url"],
        archive=row["archive"],
        snapshot_url=row["snapshot_url"],
        http_status=row["http_status"],
        error=row["error"],
        snapshot_hash=row["snapshot_hash"],
        run_id=row["run_id"],
        saved_at=moment(row["saved_at"], "saved_at"),
    )


def state_from_row(row: sqlite3.Row) -> dict[str, Any]:
    return json_object(row["state_json"], "state_json")


def run_from_row(row: sqlite3.Row) -> RunRecord:
    finished = row["finished_at"]
    return RunRecord(
        id=whole(row["id"], "id"),
        started_at=moment(row["started_at"], "started_at"),
        finished_at=None if finished is None else moment(finished, "finished_at"),
        ledger_path=text(row["ledger_path"], "ledger_path"),
    )


def validators_from_row(row: sqlite3.Row) -> tuple[str | None, str | None, str | None]:
    """A reading's validators, and the media type its snapshot was read as."""
    etag, modified = (
        maybe_text(row["etag"], "etag"),
        maybe_text(row["last_modified"], "last_modified"),
    )
    return etag, modified, maybe_text(row["content_type"], "content_type")
