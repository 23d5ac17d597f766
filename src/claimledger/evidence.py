"""The evidence store: an append-only SQLite file of every fetch, snapshot and quote check.

History is the product's memory. "When did this sentence change?" and "what did
that page say in March?" have answers only if nothing is ever overwritten, so rows
are inserted and never updated or deleted (triggers enforce it). Snapshots are the
extracted text of a page, stored once per distinct text (sha256), zlib-compressed.

Durability and concurrency:

* Every insert commits at once (autocommit, WAL), so a refresh killed with
  SIGKILL keeps every check recorded before the kill and the file stays usable.
* One writer per store: `begin_run` takes an exclusive lock on `<store>.lock`
  and a second refresh gets `StoreBusyError` instead of interleaving its rows.
  Readers never take that lock, and WAL lets them read while a run writes.

Validators and snapshots belong to the URL that answered. The validators a
request may carry, and the snapshot a 304 lets us reuse, come only from fetches
whose *final* URL is the URL asked. Stores written before schema 3 may hold
readings that broke this (a 304 after a redirect reused the old address's text):
migration 3 lists them in `misread_fetches`, and neither they nor the checks made
on them are ever evidence, or a source of validators, again.

Times are passed in by the caller (`now`); the store never reads the clock. They
must be timezone-aware and are kept as UTC ISO-8601 text, which sorts in time order.

Exceptions (branches of the tree in claimledger.errors, so the CLI maps them to exit 2):

    errors.StoreError
     └── EvidenceError             the file cannot be used as an evidence store
          └── StoreBusyError       another refresh holds the writer lock
                                   (also an errors.StoreBusyError)
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import zlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, NamedTuple, Protocol, get_args

from filelock import FileLock, Timeout

from claimledger import errors
from claimledger.fetch import FetchResult, Hop, HopVia, SourceStatus, Validators

CheckStatus = Literal["verified", "drifted", "missing", "ambiguous"]
MatchKind = Literal["exact", "normalized"]
ChangeOp = Literal["replace", "insert", "delete"]

LOCK_TIMEOUT = 0.5  # seconds begin_run waits for another writer before giving up
BUSY_TIMEOUT_MS = 5000  # how long one statement waits on SQLite's own short write locks


class EvidenceError(errors.StoreError):
    """The evidence store cannot be used as asked; the message says which file and why."""


class StoreBusyError(EvidenceError, errors.StoreBusyError):
    """Another refresh is writing to the same store."""


# --- Records ------------------------------------------------------------------------------


class WordChangeLike(Protocol):
    """Anything shaped like match.WordChange; the store keeps its fields."""

    @property
    def op(self) -> str: ...
    @property
    def quote(self) -> str: ...
    @property
    def page(self) -> str: ...
    @property
    def meaningful(self) -> bool: ...
    @property
    def kind(self) -> str | None: ...


class StoredWordChange(NamedTuple):
    """One word-level difference between a quote and the page, as kept in the store.

    A plain tuple `(op, quote, page, meaningful)` with the field names of
    match.WordChange, so code reading either needs no conversion.
    """

    op: ChangeOp
    quote: str
    page: str
    meaningful: bool
    kind: str | None = None

    @classmethod
    def of(cls, change: WordChangeLike) -> StoredWordChange:
        return cls(
            _literal(change.op, ChangeOp), change.quote, change.page, change.meaningful, change.kind
        )


@dataclass(frozen=True)
class CheckRecord:
    """One quote checked on one source in one run.

    `status` is None when the source could not be read: a failed fetch says nothing
    about the quote. `changed_words` takes match.WordChange values (or anything of that
    shape) and reads back as `StoredWordChange` tuples. `run_id` is filled in when read
    back from the store; `misread` marks a check made on another address's text (see
    the module docstring), kept in history and never taken as evidence.
    """

    claim_id: str
    quote_index: int
    quote_text: str
    source_id: str
    url: str
    source_status: SourceStatus
    status: CheckStatus | None
    match_kind: MatchKind | None
    similarity: float | None
    current: str | None
    meaning_changed: bool
    changed_words: tuple[WordChangeLike, ...]
    occurrences: int
    context_before: str | None
    context_after: str | None
    snapshot_hash: str | None
    checked_at: datetime
    run_id: int | None = None
    recipe: str = ""
    misread: bool = False
    change_kinds: tuple[str, ...] = ()
    closest: str | None = None
    closest_kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class FetchRecord:
    """One fetch of one ledger URL, as recorded."""

    run_id: int
    url: str
    final_url: str
    http_status: int | None
    source_status: SourceStatus
    redirects: tuple[Hop, ...]
    moved_to: str | None
    etag: str | None
    last_modified: str | None
    content_type: str | None
    error: str | None
    not_modified: bool
    attempts: int
    elapsed: float
    snapshot_hash: str | None
    fetched_at: datetime
    recipe: str = ""
    canonical: str | None = None
    misread: bool = False


@dataclass(frozen=True)
class RunRecord:
    """One refresh run; `finished_at` is None for a run that never finished (or is running)."""

    id: int
    started_at: datetime
    finished_at: datetime | None
    ledger_path: str


# --- Schema -------------------------------------------------------------------------------


def _append_only(table: str) -> tuple[str, str]:
    return (
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END",
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END",
    )


_SOURCE_STATUSES = ", ".join(f"'{status}'" for status in get_args(SourceStatus))

# Each migration is a list of statements applied in one transaction; the schema
# version (PRAGMA user_version) is the number of migrations applied. Append only.
MIGRATIONS: tuple[tuple[str, ...], ...] = (
    (
        """CREATE TABLE runs (
            id INTEGER PRIMARY KEY,
            started_at TEXT NOT NULL,
            ledger_path TEXT NOT NULL
        )""",
        # A run's end is its own row, so that finishing a run is an insert too.
        """CREATE TABLE run_ends (
            run_id INTEGER PRIMARY KEY REFERENCES runs(id),
            finished_at TEXT NOT NULL
        )""",
        """CREATE TABLE snapshots (
            hash TEXT PRIMARY KEY,
            url_first_seen TEXT NOT NULL,
            created_at TEXT NOT NULL,
            size INTEGER NOT NULL,
            text_zlib BLOB NOT NULL
        )""",
        f"""CREATE TABLE fetches (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            url TEXT NOT NULL,
            final_url TEXT NOT NULL,
            http_status INTEGER,
            source_status TEXT NOT NULL CHECK (source_status IN ({_SOURCE_STATUSES})),
            moved_to TEXT,
            redirects_json TEXT NOT NULL,
            etag TEXT,
            last_modified TEXT,
            content_type TEXT,
            error TEXT,
            not_modified INTEGER NOT NULL,
            attempts INTEGER NOT NULL,
            elapsed REAL NOT NULL,
            snapshot_hash TEXT REFERENCES snapshots(hash),
            fetched_at TEXT NOT NULL
        )""",
        "CREATE INDEX fetches_by_url ON fetches(url, id)",
        f"""CREATE TABLE checks (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            claim_id TEXT NOT NULL,
            quote_index INTEGER NOT NULL,
            quote_text TEXT NOT NULL,
            source_id TEXT NOT NULL,
            url TEXT NOT NULL,
            source_status TEXT NOT NULL CHECK (source_status IN ({_SOURCE_STATUSES})),
            status TEXT CHECK (status IN ('verified', 'drifted', 'missing', 'ambiguous')),
            match_kind TEXT CHECK (match_kind IN ('exact', 'normalized')),
            similarity REAL,
            current TEXT,
            meaning_changed INTEGER NOT NULL,
            changed_json TEXT NOT NULL,
            occurrences INTEGER NOT NULL,
            context_before TEXT,
            context_after TEXT,
            snapshot_hash TEXT REFERENCES snapshots(hash),
            checked_at TEXT NOT NULL
        )""",
        "CREATE INDEX checks_by_claim ON checks(claim_id, id)",
        "CREATE INDEX checks_by_quote ON checks(claim_id, quote_text, source_id, id)",
        *_append_only("runs"),
        *_append_only("run_ends"),
        *_append_only("snapshots"),
        *_append_only("fetches"),
        *_append_only("checks"),
    ),
    (
        # How each page was read and judged (extractor and matcher versions, selector),
        # so a snapshot or a verdict is only reused for the same reading.
        "ALTER TABLE fetches ADD COLUMN recipe TEXT NOT NULL DEFAULT ''",
        "ALTER TABLE checks ADD COLUMN recipe TEXT NOT NULL DEFAULT ''",
    ),
    (
        # Validators and snapshots are looked up by the URL that answered.
        "ALTER TABLE fetches ADD COLUMN canonical TEXT",
        "CREATE INDEX fetches_by_final_url ON fetches(final_url, recipe, id)",
        # Readings made before this version that reused another address's snapshot on a
        # 304 after a redirect: a 304 whose text no full read of that same final URL gave.
        """CREATE TABLE misread_fetches (
            fetch_id INTEGER PRIMARY KEY REFERENCES fetches(id)
        )""",
        """INSERT INTO misread_fetches (fetch_id)
            SELECT f.id FROM fetches f
            WHERE f.not_modified = 1 AND f.snapshot_hash IS NOT NULL
            AND NOT EXISTS (
                SELECT 1 FROM fetches g
                WHERE g.not_modified = 0 AND g.id < f.id AND g.final_url = f.final_url
                AND g.recipe = f.recipe AND g.snapshot_hash = f.snapshot_hash
            )""",
        *_append_only("misread_fetches"),
    ),
    (
        # What a rewording did to the meaning, by kind; and for a quote gone, the closest
        # passage still on the page and how it differs.
        "ALTER TABLE checks ADD COLUMN change_kinds_json TEXT NOT NULL DEFAULT '[]'",
        "ALTER TABLE checks ADD COLUMN closest TEXT",
        "ALTER TABLE checks ADD COLUMN closest_kinds_json TEXT NOT NULL DEFAULT '[]'",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
_OUR_TABLES = frozenset({"runs", "run_ends", "snapshots", "fetches", "checks", "misread_fetches"})

_MISREAD = "EXISTS (SELECT 1 FROM misread_fetches m WHERE m.fetch_id = fetches.id)"
"""SQL: this fetch row reused another address's text (see the module docstring)."""

_CHECK_MISREAD = (
    "EXISTS (SELECT 1 FROM misread_fetches m JOIN fetches f ON f.id = m.fetch_id "
    "WHERE f.run_id = checks.run_id AND f.url = checks.url AND f.recipe = checks.recipe)"
)
"""SQL: this check was made on such a reading."""


# --- Conversions --------------------------------------------------------------------------


def _literal(value: str, kind: Any) -> Any:
    """Check a string read back from SQL (or handed in) against a Literal type."""
    if value not in get_args(kind):
        raise EvidenceError(f"unexpected value {value!r} (expected one of {get_args(kind)})")
    return value


def _stamp(moment: datetime) -> str:
    """UTC ISO-8601 with fixed precision, so text order is time order."""
    if moment.tzinfo is None:
        raise ValueError(f"evidence times must be timezone-aware, got {moment.isoformat()}")
    return moment.astimezone(UTC).isoformat(timespec="microseconds")


def _moment(stamp: str) -> datetime:
    return datetime.fromisoformat(stamp)


def _snapshot_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _changes_json(changes: Iterable[WordChangeLike]) -> str:
    return json.dumps([list(StoredWordChange.of(change)) for change in changes], ensure_ascii=False)


def _changes(text: str) -> tuple[StoredWordChange, ...]:
    """Word changes as stored: `[op, quote, page, meaningful]`, and `kind` since schema 4."""
    return tuple(
        StoredWordChange(
            _literal(item[0], ChangeOp),
            item[1],
            item[2],
            bool(item[3]),
            item[4] if len(item) > 4 else None,
        )
        for item in json.loads(text)
    )


def _names(text: str) -> tuple[str, ...]:
    return tuple(str(name) for name in json.loads(text))


def _hops_json(hops: Iterable[Hop]) -> str:
    return json.dumps([[hop.url, hop.status, hop.via] for hop in hops])


def _hops(text: str) -> tuple[Hop, ...]:
    """Hops as stored: `[url, status]` before meta refreshes were followed, then with `via`."""
    return tuple(
        Hop(hop[0], int(hop[1]), _literal(hop[2], HopVia) if len(hop) > 2 else "http")
        for hop in json.loads(text)
    )


def _check(row: sqlite3.Row) -> CheckRecord:
    return CheckRecord(
        claim_id=row["claim_id"],
        quote_index=row["quote_index"],
        quote_text=row["quote_text"],
        source_id=row["source_id"],
        url=row["url"],
        source_status=_literal(row["source_status"], SourceStatus),
        status=None if row["status"] is None else _literal(row["status"], CheckStatus),
        match_kind=None if row["match_kind"] is None else _literal(row["match_kind"], MatchKind),
        similarity=row["similarity"],
        current=row["current"],
        meaning_changed=bool(row["meaning_changed"]),
        changed_words=_changes(row["changed_json"]),
        occurrences=row["occurrences"],
        context_before=row["context_before"],
        context_after=row["context_after"],
        snapshot_hash=row["snapshot_hash"],
        checked_at=_moment(row["checked_at"]),
        run_id=row["run_id"],
        recipe=row["recipe"],
        misread=bool(row["misread"]) if "misread" in row.keys() else False,  # noqa: SIM118
        change_kinds=_names(row["change_kinds_json"]),
        closest=row["closest"],
        closest_kinds=_names(row["closest_kinds_json"]),
    )


def _fetch(row: sqlite3.Row) -> FetchRecord:
    return FetchRecord(
        run_id=row["run_id"],
        url=row["url"],
        final_url=row["final_url"],
        http_status=row["http_status"],
        source_status=_literal(row["source_status"], SourceStatus),
        redirects=_hops(row["redirects_json"]),
        moved_to=row["moved_to"],
        etag=row["etag"],
        last_modified=row["last_modified"],
        content_type=row["content_type"],
        error=row["error"],
        not_modified=bool(row["not_modified"]),
        attempts=row["attempts"],
        elapsed=row["elapsed"],
        snapshot_hash=row["snapshot_hash"],
        fetched_at=_moment(row["fetched_at"]),
        recipe=row["recipe"],
        canonical=row["canonical"],
        misread=bool(row["misread"]) if "misread" in row.keys() else False,  # noqa: SIM118
    )


# --- The store ----------------------------------------------------------------------------


class EvidenceStore:
    """The evidence store of one ledger. Open with `EvidenceStore.open(path)`."""

    def __init__(self, path: Path, connection: sqlite3.Connection) -> None:
        self.path = path
        self._db = connection
        self._lock = FileLock(f"{path}.lock", thread_local=False)
        self._open_run: int | None = None

    @classmethod
    def open(cls, path: Path) -> EvidenceStore:
        """Open (creating it and its directory if needed) and bring the schema up to date."""
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            connection = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
        except (OSError, sqlite3.Error) as exc:
            raise EvidenceError(f"cannot open evidence store {path}: {exc}") from None
        connection.row_factory = sqlite3.Row
        try:
            _configure(connection, path)
            _migrate(connection, path)
        except BaseException:
            connection.close()
            raise
        return cls(path, connection)

    def close(self) -> None:
        """Close the file and let another refresh write."""
        self._open_run = None
        self._lock.release(force=True)
        self._db.close()

    def __enter__(self) -> EvidenceStore:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    # runs

    def begin_run(self, now: datetime, ledger_path: str) -> int:
        """Start a run, taking the writer lock; StoreBusyError if another run holds it."""
        try:
            self._lock.acquire(timeout=LOCK_TIMEOUT)
        except Timeout:
            raise StoreBusyError(
                f"another refresh is writing to {self.path}; wait for it to finish"
            ) from None
        try:
            cursor = self._write(
                "INSERT INTO runs (started_at, ledger_path) VALUES (?, ?)",
                (_stamp(now), ledger_path),
            )
        except BaseException:
            self._lock.release(force=True)
            raise
        self._open_run = _row_id(cursor)
        return self._open_run

    def finish_run(self, run_id: int, now: datetime) -> None:
        """Mark the run finished and release the writer lock."""
        self._require_open(run_id)
        self._write(
            "INSERT INTO run_ends (run_id, finished_at) VALUES (?, ?)", (run_id, _stamp(now))
        )
        self._open_run = None
        self._lock.release(force=True)

    def last_run(self) -> RunRecord | None:
        row = self._db.execute(
            "SELECT runs.id, started_at, finished_at, ledger_path FROM runs "
            "LEFT JOIN run_ends ON run_ends.run_id = runs.id ORDER BY runs.id DESC LIMIT 1"
        ).fetchone()
        if row is None:
            return None
        finished = row["finished_at"]
        return RunRecord(
            id=row["id"],
            started_at=_moment(row["started_at"]),
            finished_at=None if finished is None else _moment(finished),
            ledger_path=row["ledger_path"],
        )

    # snapshots

    def put_snapshot(self, text: str, url: str, now: datetime) -> str:
        """Keep `text` once (by sha256, compressed) and return its hash."""
        digest = _snapshot_hash(text)
        self._write(
            "INSERT OR IGNORE INTO snapshots (hash, url_first_seen, created_at, size, text_zlib) "
            "VALUES (?, ?, ?, ?, ?)",
            (digest, url, _stamp(now), len(text), zlib.compress(text.encode("utf-8"), 6)),
        )
        return digest

    def snapshot_text(self, snapshot_hash: str) -> str:
        """The text of a snapshot; KeyError when the store has no such snapshot."""
        row = self._db.execute(
            "SELECT text_zlib FROM snapshots WHERE hash = ?", (snapshot_hash,)
        ).fetchone()
        if row is None:
            raise KeyError(snapshot_hash)
        try:
            return zlib.decompress(row["text_zlib"]).decode("utf-8")
        except (zlib.error, UnicodeDecodeError) as exc:
            raise EvidenceError(
                f"snapshot {snapshot_hash} in {self.path} is damaged: {exc}"
            ) from None

    def answered_snapshot(
        self, final_url: str, recipe: str, validators: Validators | None
    ) -> str | None:
        """The snapshot a 304 from `final_url` lets us reuse: the text of the newest reading
        of that very URL, the same way (`recipe`), that carried the validators we sent."""
        if validators is None:
            return None
        row = self._db.execute(
            "SELECT snapshot_hash FROM fetches WHERE final_url = ? AND recipe = ? "
            f"AND snapshot_hash IS NOT NULL AND NOT {_MISREAD} "
            "AND etag IS ? AND last_modified IS ? ORDER BY id DESC LIMIT 1",
            (final_url, recipe, validators.etag, validators.last_modified),
        ).fetchone()
        return None if row is None else str(row["snapshot_hash"])

    def snapshot_at(self, url: str, at: datetime | None) -> tuple[datetime, str] | None:
        """What we extracted from `url` as of `at` (newest if None): when fetched, and the text."""
        query = (
            "SELECT fetched_at, snapshot_hash FROM fetches "
            f"WHERE url = ? AND snapshot_hash IS NOT NULL AND NOT {_MISREAD}"
        )
        parameters: tuple[str, ...] = (url,)
        if at is not None:
            query += " AND fetched_at <= ?"
            parameters = (url, _stamp(at))
        row = self._db.execute(
            f"{query} ORDER BY fetched_at DESC, id DESC LIMIT 1", parameters
        ).fetchone()
        if row is None:
            return None
        return _moment(row["fetched_at"]), self.snapshot_text(row["snapshot_hash"])

    # fetches

    def record_fetch(
        self,
        run_id: int,
        result: FetchResult,
        snapshot_hash: str | None,
        now: datetime,
        recipe: str = "",
    ) -> None:
        """Record one fetch; `snapshot_hash` is the text it yielded (or reused on a 304) when
        read the way `recipe` names (the extractor's version and the source's selector)."""
        self._require_open(run_id)
        self._write(
            "INSERT INTO fetches (run_id, url, final_url, http_status, source_status, moved_to, "
            "redirects_json, etag, last_modified, content_type, error, not_modified, attempts, "
            "elapsed, snapshot_hash, fetched_at, recipe, canonical) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                result.url,
                result.final_url,
                result.http_status,
                result.source_status,
                result.moved_to,
                _hops_json(result.redirects),
                result.etag,
                result.last_modified,
                result.content_type,
                result.error,
                int(result.not_modified),
                result.attempts,
                result.elapsed,
                snapshot_hash,
                _stamp(now),
                recipe,
                result.canonical,
            ),
        )

    def validators(self, final_url: str, recipes: Iterable[str]) -> Validators | None:
        """The ETag / Last-Modified a request for `final_url` may carry: those of the newest
        reading of that very URL for every way (`recipes`) its answer will be read, when
        each left a snapshot to fall back on and all agree; otherwise ask in full."""
        known = set()
        for recipe in set(recipes):
            row = self._db.execute(
                "SELECT etag, last_modified FROM fetches WHERE final_url = ? AND recipe = ? "
                f"AND snapshot_hash IS NOT NULL AND NOT {_MISREAD} ORDER BY id DESC LIMIT 1",
                (final_url, recipe),
            ).fetchone()
            if row is None:
                return None
            known.add((row["etag"], row["last_modified"]))
        if len(known) != 1:
            return None
        etag, last_modified = known.pop()
        if etag is None and last_modified is None:
            return None
        return Validators(etag=etag, last_modified=last_modified)

    def latest_fetches(self) -> dict[str, FetchRecord]:
        """The newest fetch of every URL ever fetched."""
        rows = self._db.execute(
            f"SELECT *, {_MISREAD} AS misread FROM fetches "
            "WHERE id IN (SELECT MAX(id) FROM fetches GROUP BY url) ORDER BY url"
        )
        return {row["url"]: _fetch(row) for row in rows}

    # checks

    def record_check(self, run_id: int, check: CheckRecord) -> None:
        """Record one quote check; committed before this returns."""
        self._require_open(run_id)
        self._write(
            "INSERT INTO checks (run_id, claim_id, quote_index, quote_text, source_id, url, "
            "source_status, status, match_kind, similarity, current, meaning_changed, "
            "changed_json, occurrences, context_before, context_after, snapshot_hash, checked_at, "
            "recipe, change_kinds_json, closest, closest_kinds_json) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                check.claim_id,
                check.quote_index,
                check.quote_text,
                check.source_id,
                check.url,
                check.source_status,
                check.status,
                check.match_kind,
                check.similarity,
                check.current,
                int(check.meaning_changed),
                _changes_json(check.changed_words),
                check.occurrences,
                check.context_before,
                check.context_after,
                check.snapshot_hash,
                _stamp(check.checked_at),
                check.recipe,
                json.dumps(list(check.change_kinds)),
                check.closest,
                json.dumps(list(check.closest_kinds)),
            ),
        )

    def latest_checks(self) -> list[CheckRecord]:
        """The newest check of every (claim, quote, source) that is evidence, in the order
        they were recorded (a check made on another address's text is not)."""
        rows = self._db.execute(
            "SELECT * FROM checks WHERE id IN (SELECT MAX(id) FROM checks "
            f"WHERE NOT {_CHECK_MISREAD} GROUP BY claim_id, quote_text, source_id) ORDER BY id"
        )
        return [_check(row) for row in rows]

    def checks_for_claim(self, claim_id: str) -> list[CheckRecord]:
        """Every check of a claim's quotes over all runs, oldest first, misread ones marked."""
        rows = self._db.execute(
            f"SELECT *, {_CHECK_MISREAD} AS misread FROM checks WHERE claim_id = ? ORDER BY id",
            (claim_id,),
        )
        return [_check(row) for row in rows]

    # internals

    def _require_open(self, run_id: int) -> None:
        """Writes belong to the run this store opened, which holds the writer lock."""
        if self._open_run != run_id:
            raise ValueError(f"run {run_id} is not open in this store (open run: {self._open_run})")

    def _write(self, sql: str, parameters: Sequence[object]) -> sqlite3.Cursor:
        try:
            return self._db.execute(sql, parameters)
        except sqlite3.OperationalError as exc:
            raise EvidenceError(f"cannot write to evidence store {self.path}: {exc}") from None


def _row_id(cursor: sqlite3.Cursor) -> int:
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _configure(connection: sqlite3.Connection, path: Path) -> None:
    """WAL, foreign keys, a busy timeout; the first statement also proves it is SQLite."""
    try:
        connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
        connection.execute("PRAGMA journal_mode = WAL").fetchone()
        connection.execute("PRAGMA foreign_keys = ON")
        # NORMAL in WAL mode survives a killed process; only power loss can drop the last commits.
        connection.execute("PRAGMA synchronous = NORMAL")
    except sqlite3.DatabaseError as exc:
        raise EvidenceError(
            f"{path} is not a claimledger evidence store ({exc}): "
            "move it aside or point the tool at another file"
        ) from None


def _migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Apply the migrations this file lacks, each in its own transaction."""
    if _schema_version(connection, path) == SCHEMA_VERSION:
        return
    try:
        connection.execute("BEGIN IMMEDIATE")
        try:
            version = _schema_version(connection, path)  # re-read under the write lock
            if version == 0:
                _refuse_foreign_tables(connection, path)
            for number, statements in enumerate(MIGRATIONS[version:], start=version + 1):
                for statement in statements:
                    connection.execute(statement)
                connection.execute(f"PRAGMA user_version = {number}")
            connection.execute("COMMIT")
        except BaseException:
            connection.execute("ROLLBACK")
            raise
    except sqlite3.DatabaseError as exc:
        raise EvidenceError(f"cannot prepare evidence store {path}: {exc}") from None


def _schema_version(connection: sqlite3.Connection, path: Path) -> int:
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise EvidenceError(
            f"{path} was written by a newer claimledger (schema {version}; this version "
            f"reads up to {SCHEMA_VERSION}): upgrade claimledger"
        )
    return version


def _refuse_foreign_tables(connection: sqlite3.Connection, path: Path) -> None:
    names = {
        str(row[0])
        for row in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    }
    foreign = sorted(names - _OUR_TABLES)
    if foreign:
        raise EvidenceError(
            f"{path} is a SQLite database of something else (tables: {', '.join(foreign)}): "
            "point the tool at another file"
        )
