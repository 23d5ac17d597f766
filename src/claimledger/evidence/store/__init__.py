"""The evidence store: an append-only SQLite file of every fetch, snapshot, quote check,
artifact run and render state (what a report showed, for the next render to compare with),
and of each site's robots.txt as read.

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

URLs are kept as `urls.redacted` gives them: a URL that carries credentials or a token
is stored in its safe form, and every lookup by URL redacts its argument the same way.

Times are passed in by the caller (`now`); the store never reads the clock. They
must be timezone-aware and are kept as UTC ISO-8601 text, which sorts in time order.

A store may come from anywhere (a committed `out/evidence.sqlite3` in a cloned
repository), so nothing in it is trusted. It is opened with SQLite's defensive settings
(no schema-defined function runs, `trusted_schema` off), and a schema that holds a
trigger or a view the migrations did not make is refused. A row that cannot be read (a
value of the wrong type, NULL where a record needs a value, a status no version wrote,
JSON of the wrong shape, a time no clock gave) is treated one of two ways, always the
same way for the same kind of read:

* a row of the evidence a command lists or weighs (checks, fetches, runs, artifact runs,
  searches, saves, lookups, as-read checks, render states) is skipped, and the command
  says once which tables held such rows (`damage`): one bad row never blocks every later
  command, and a refresh asks again what it can no longer read;
* what a command was asked for by name (a snapshot's text) is `StoreDamagedError`, one
  line that names the store and the row.

Every sqlite3 error is turned into the tree of `claimledger.errors` here, at the store's
edge: a damaged or foreign file is `StoreDamagedError`, a full disk or a read-only file
system `EnvironmentProblem`, another writer `StoreBusyError`; nothing outside this module
sees sqlite3.
"""

from __future__ import annotations

import contextlib
import json
import os
import sqlite3
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from datetime import datetime
from pathlib import Path
from types import TracebackType
from typing import TYPE_CHECKING, Any, TypeVar

from claimledger.errors import EnvironmentProblem, StoreBusyError, StoreDamagedError
from claimledger.evidence.store.archived import ArchiveEvidence
from claimledger.evidence.store.compressed import inflated, snapshot_zlib
from claimledger.evidence.store.connection import (
    configure,
    connect,
    made_current,
    outdated,
    refuse_before_writing,
)
from claimledger.evidence.store.histories import HistoryEvidence
from claimledger.evidence.store.identity import IdentityEvidence
from claimledger.evidence.store.robots import RobotsEvidence
from claimledger.evidence.store.rows import (
    ARTIFACT_RUN_COLUMNS,
    CHECK_COLUMNS,
    RELOCATION_COLUMNS,
    SAVE_COLUMNS,
    VERDICT_COLUMNS,
    CheckVerdict,
    artifact_run_from_row,
    artifact_run_values,
    changes_json,
    check_from_row,
    fetch_from_row,
    hops_json,
    moment,
    relocation_from_row,
    relocation_values,
    save_from_row,
    save_values,
    stamp,
    state_from_row,
    text,
    validators_from_row,
    verdict_from_row,
)
from claimledger.evidence.store.runs import RunEvidence
from claimledger.evidence.store.schema import (
    CHECK_MISREAD,
    MISREAD,
    MISREAD_CHECKS,
    refuse_foreign_code,
    rolled_back,
)
from claimledger.evidence.store.translate import mapped as _mapped
from claimledger.evidence.store.translate import translated as _translated
from claimledger.ledger.atomicfile import followed, refuse_links
from claimledger.records import (
    ArtifactRun,
    CheckKey,
    CheckRecord,
    FetchRecord,
    FetchResult,
    Relocation,
    SavedSnapshot,
    Validators,
    snapshot_digest,
)
from claimledger.urls import redacted

if TYPE_CHECKING:  # loaded by a store that writes, only
    from filelock import FileLock

LOCK_TIMEOUT = 0.5  # seconds begin_run waits for another writer before giving up

_CHECK_SELECT = ", ".join(CHECK_COLUMNS)
_LATEST = (
    "FROM checks WHERE id IN (SELECT MAX(id) FROM checks WHERE {}"
    f"id NOT IN ({MISREAD_CHECKS}) GROUP BY claim_id, quote_text, source_id) ORDER BY id"
)
"""SQL: the newest check of every (claim, quote, source) that is evidence (and meets the
condition put in), oldest first."""
_LATEST_CHECKS, _LATEST_JUDGED = _LATEST.format(""), _LATEST.format("status IS NOT NULL AND ")
_LATEST_JUDGED_OF = (
    f"SELECT {_CHECK_SELECT}, 0 FROM checks WHERE claim_id = ? AND quote_text = ? "
    f"AND source_id = ? AND status IS NOT NULL AND id NOT IN ({MISREAD_CHECKS}) "
    "ORDER BY id DESC LIMIT 1"
)
"""SQL: `_LATEST_JUDGED` of one (claim, quote, source), its newest checks read first."""

_HELD = "snapshot_hash IN (SELECT hash FROM snapshots)"
"""SQL: this fetch left a snapshot that the store holds. A reading whose snapshot is not
there (a store someone edited) offers no validators and no text for a 304: the page is
asked for in full, rather than answered "unchanged" with nothing to read."""

# --- The store ----------------------------------------------------------------------------


T = TypeVar("T")


class EvidenceStore(
    ArchiveEvidence, RobotsEvidence, RunEvidence, HistoryEvidence, IdentityEvidence
):
    """The evidence store of one ledger. Open with `EvidenceStore.open(path)`."""

    def __init__(
        self, path: Path, connection: sqlite3.Connection, *, readonly: bool = False
    ) -> None:
        self.path = path
        self.readonly = readonly
        self._db = connection
        self._lock_path = f"{followed(Path(path))}.lock"
        self._lock: FileLock | None = None
        """The writer lock, made when a run first begins."""
        self._open_run: int | None = None
        self.damage: dict[str, None] = {}
        """Each row skipped because it could not be read, as "TABLE row ID: why", once
        however many reads met it (a dict: in the order met, each said once)."""

    @classmethod
    def open(cls, path: Path, *, readonly: bool = False) -> EvidenceStore:
        """Open (creating it and its directory if needed) and bring the schema up to date.

        `readonly` for a command that only reads: nothing is created, and a store in a
        read-only checkout can still be read. A store written by an earlier version is
        migrated first where it can be written.
        """
        path = Path(path)
        for sidecar in (".lock", "-wal", "-shm", "-journal"):  # files no one names
            refuse_links(path.with_name(path.name + sidecar))
        if readonly and outdated(path) and os.access(path.parent, os.W_OK):
            cls.open(path).close()
        if not readonly and path.exists():
            refuse_before_writing(path)
        created = not readonly and not path.exists()  # a new file holds nothing planted
        try:
            connection = connect(path, readonly)
        except OSError as error:
            raise EnvironmentProblem(f"cannot open {path}: {error.strerror or error}") from None
        except sqlite3.Error as error:
            raise _translated(error, path) from None
        connection.row_factory = sqlite3.Row
        try:
            configure(connection, readonly)
            refuse_foreign_code(connection, path)
            made_current(connection, path, readonly=readonly)
        except sqlite3.Error as error:
            connection.close()
            raise _translated(error, path) from None
        except BaseException:
            connection.close()
            raise
        store = cls(path, connection, readonly=readonly)
        if created:
            store.adopt()
        return store

    def close(self) -> None:
        """Close the file and let another refresh write."""
        self._open_run = None
        self._release_lock()
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

    @_mapped
    def begin_run(self, now: datetime, ledger_path: str) -> int:
        """Start a run, taking the writer lock; StoreBusyError if another run holds it."""
        if self.readonly:
            raise ValueError(f"{self.path} was opened for reading only: no run can start")
        from filelock import FileLock, Timeout  # only a store that writes takes the lock

        if self._lock is None:
            self._lock = FileLock(self._lock_path, thread_local=False)
        try:
            self._lock.acquire(timeout=LOCK_TIMEOUT)
        except Timeout:
            raise StoreBusyError(
                f"another refresh is writing to {self.path}; wait for it to finish"
            ) from None
        except OSError as error:  # the lock cannot be made: a read-only or full disk
            raise EnvironmentProblem.of(error, f"{self.path}.lock") from None
        try:
            cursor = self._write(
                "INSERT INTO runs (started_at, ledger_path) VALUES (?, ?)",
                (stamp(now), ledger_path),
            )
        except BaseException:
            self._release_lock()
            raise
        self._open_run = _row_id(cursor)
        return self._open_run

    @_mapped
    def finish_run(self, run_id: int, now: datetime) -> None:
        """Mark the run finished and release the writer lock."""
        self._require_open(run_id)
        self._write(
            "INSERT INTO run_ends (run_id, finished_at) VALUES (?, ?)", (run_id, stamp(now))
        )
        self._open_run = None
        self._release_lock()

    def _release_lock(self) -> None:
        if self._lock is not None:
            self._lock.release(force=True)

    @property
    def damaged_rows(self) -> int:
        """How many rows were skipped because they could not be read (see `_readable`)."""
        return len(self.damage)

    # snapshots

    @_mapped
    def put_snapshot(self, text: str, url: str, now: datetime) -> str:
        """Keep `text` once (by sha256, compressed) and return its hash."""
        return self._insert_snapshot(text, redacted(url), now)

    @_mapped
    def snapshot_text(self, snapshot_hash: str) -> str:
        """The text of a snapshot; KeyError when the store has no such snapshot."""
        row = self._db.execute(
            "SELECT size, text_zlib FROM snapshots WHERE hash = ?", (snapshot_hash,)
        ).fetchone()
        if row is None:
            raise KeyError(snapshot_hash)
        try:
            return inflated(row["text_zlib"], row["size"])
        except (zlib.error, TypeError, ValueError) as exc:  # a bad UTF-8 byte is one
            raise StoreDamagedError(
                f"snapshot {snapshot_hash} in {self.path} is damaged: {exc}"
            ) from None

    @_mapped
    def answered_snapshot(
        self, final_url: str, recipe: str, validators: Validators | None
    ) -> str | None:
        """The snapshot a 304 from `final_url` lets us reuse: the text of the newest reading
        of that very URL, the same way (`recipe`), that carried the validators we sent."""
        if validators is None:
            return None
        rows = self._db.execute(
            "SELECT id, snapshot_hash FROM fetches WHERE final_url = ? AND recipe = ? "
            f"AND {_HELD} AND NOT {MISREAD} "
            "AND etag IS ? AND last_modified IS ? ORDER BY id DESC LIMIT 1",
            (redacted(final_url), recipe, validators.etag, validators.last_modified),
        )
        found = list(self._readable(rows, lambda row: text(row["snapshot_hash"]), "fetches"))
        return found[0] if found else None

    @_mapped
    def snapshot_at(self, url: str, at: datetime | None) -> tuple[datetime, str] | None:
        """What we extracted from `url` as of `at` (newest if None): when fetched, and the
        text. The newest reading names a snapshot the store must hold: one it lacks is
        damage, said as such."""
        query = (
            "SELECT id, fetched_at, snapshot_hash FROM fetches "
            f"WHERE url = ? AND snapshot_hash IS NOT NULL AND NOT {MISREAD}"
        )
        parameters: tuple[str, ...] = (redacted(url),)
        if at is not None:
            query += " AND fetched_at <= ?"
            parameters = (redacted(url), stamp(at))
        row = self._db.execute(
            f"{query} ORDER BY fetched_at DESC, id DESC LIMIT 1", parameters
        ).fetchone()
        if row is None:
            return None
        unreadable = f"{self.path}: fetches row {row['id']} cannot be read"
        try:
            when = moment(row["fetched_at"], "fetched_at")
            digest = text(row["snapshot_hash"], "snapshot_hash")
        except StoreDamagedError as error:
            raise StoreDamagedError(f"{unreadable}: {error}") from None
        try:
            return when, self.snapshot_text(digest)
        except KeyError:
            missing = f"it names snapshot {digest[:16]}, which the store does not hold"
            raise StoreDamagedError(f"{unreadable}: {missing}") from None

    # fetches

    @_mapped
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
        self._insert_fetch(run_id, result, snapshot_hash, now, recipe)

    @_mapped
    def record_page(
        self,
        run_id: int,
        result: FetchResult,
        *,
        snapshot_hash: str | None,
        new_snapshot: str | None,
        recipe: str,
        checks: Iterable[CheckRecord],
        now: datetime,
    ) -> None:
        """Record one page of a run in one transaction: the snapshot it yielded (when new),
        its fetch, and every check made on it. A run killed part way keeps every page it
        recorded whole, and no page half."""
        self._require_open(run_id)
        with self._transaction():
            if new_snapshot is not None:
                self._insert_snapshot(new_snapshot, redacted(result.url), now)
            self._insert_fetch(run_id, result, snapshot_hash, now, recipe)
            for check in checks:
                self._insert_check(run_id, check)

    @_mapped
    def validators(self, final_url: str, recipes: Iterable[str]) -> Validators | None:
        """The ETag / Last-Modified a request for `final_url` may carry: those of the newest
        reading of that very URL for every way (`recipes`) its answer will be read, when
        each left a snapshot to fall back on and all agree; otherwise ask in full."""
        known = set()
        for recipe in set(recipes):
            rows = self._db.execute(
                "SELECT id, etag, last_modified, content_type FROM fetches WHERE final_url = ? "
                f"AND recipe = ? AND {_HELD} AND NOT {MISREAD} "
                "ORDER BY id DESC LIMIT 1",
                (redacted(final_url), recipe),
            )
            found = list(self._readable(rows, validators_from_row, "fetches"))
            if not found:
                return None
            known.add(found[0])
        if len(known) != 1:
            return None
        etag, last_modified, content_type = known.pop()
        if etag is None and last_modified is None:
            return None
        return Validators(etag=etag, last_modified=last_modified, content_type=content_type)

    @_mapped
    def latest_fetches(self) -> dict[str, FetchRecord]:
        """The newest fetch of every URL ever fetched."""
        rows = self._db.execute(
            f"SELECT *, {MISREAD} AS misread FROM fetches "
            "WHERE id IN (SELECT MAX(id) FROM fetches GROUP BY url) ORDER BY url"
        )
        return {fetch.url: fetch for fetch in self._readable(rows, fetch_from_row, "fetches")}

    # checks

    @_mapped
    def record_check(self, run_id: int, check: CheckRecord) -> None:
        """Record one quote check; committed before this returns."""
        self._require_open(run_id)
        self._insert_check(run_id, check)

    @_mapped
    def latest_checks(self, *, judged: bool = False) -> list[CheckRecord]:
        """The newest check of every (claim, quote, source) that is evidence, in the order
        they were recorded (a check made on another address's text is not); `judged`: of
        those that read the page (what a refresh locates a quote from, so that a page
        that failed once in between is read as if it had not)."""
        rows = self._db.execute(
            f"SELECT {_CHECK_SELECT}, 0 {_LATEST_JUDGED if judged else _LATEST_CHECKS}"
        )
        return list(self._readable(rows, check_from_row, "checks"))

    @_mapped
    def latest_judged_checks(self, keys: Iterable[CheckKey]) -> list[CheckRecord]:
        """`latest_checks(judged=True)` of the (claim, quote, source) keys named: what a
        refresh locates one page's quotes from, asked for a page at a time."""
        rows = [row for key in keys for row in self._db.execute(_LATEST_JUDGED_OF, key)]
        return list(self._readable(rows, check_from_row, "checks"))

    @_mapped
    def latest_verdicts(self) -> list[CheckVerdict]:
        """`latest_checks` in the fields the grading rules weigh (the same rows)."""
        rows = self._db.execute(f"SELECT {', '.join(VERDICT_COLUMNS)} {_LATEST_CHECKS}")
        return list(self._readable(rows, verdict_from_row, "checks"))

    def run_checks(self, run_id: int) -> Iterator[CheckRecord]:
        """Every check one run recorded, in the order recorded, read a row at a time: a
        refresh prints its thousands of checks from here rather than hold them all."""
        rows = self._streamed(
            f"SELECT {_CHECK_SELECT}, 0 FROM checks WHERE run_id = ? ORDER BY id", (run_id,)
        )
        return self._readable(rows, check_from_row, "checks")

    @_mapped
    def checks_for_claim(self, claim_id: str) -> list[CheckRecord]:
        """Every check of a claim's quotes over all runs, oldest first, misread ones marked."""
        rows = self._db.execute(
            f"SELECT {_CHECK_SELECT}, {CHECK_MISREAD} FROM checks WHERE claim_id = ? ORDER BY id",
            (claim_id,),
        )
        return list(self._readable(rows, check_from_row, "checks"))

    # artifact runs

    @_mapped
    def record_artifact_run(self, run: ArtifactRun) -> None:
        """Record one run of a claim's artifact; committed before this returns.

        A run belongs to no refresh, so it takes no writer lock: SQLite's own short lock
        orders it among a refresh's writes.
        """
        if self.readonly:
            raise ValueError(f"{self.path} was opened for reading only: nothing is recorded")
        columns = ", ".join(ARTIFACT_RUN_COLUMNS)
        places = ", ".join("?" for _ in ARTIFACT_RUN_COLUMNS)
        self._write(
            f"INSERT INTO artifact_runs ({columns}) VALUES ({places})", artifact_run_values(run)
        )

    @_mapped
    def latest_artifact_runs(self) -> dict[str, ArtifactRun]:
        """The newest run of each claim's artifact, by claim."""
        rows = self._db.execute(
            "SELECT * FROM artifact_runs WHERE id IN "
            "(SELECT MAX(id) FROM artifact_runs GROUP BY claim_id) ORDER BY id"
        )
        runs = self._readable(rows, artifact_run_from_row, "artifact_runs")
        return {run.claim_id: run for run in runs}

    # render states

    @_mapped
    def record_render_state(
        self, fmt: str, output: str, state: Mapping[str, Any], now: datetime
    ) -> None:
        """Keep what a render of `fmt` to `output` showed; like an artifact run, it takes no
        writer lock (SQLite's own short lock orders it among a refresh's writes)."""
        if self.readonly:
            raise ValueError(f"{self.path} was opened for reading only: nothing is recorded")
        self._write(
            "INSERT INTO render_states (format, output, rendered_at, state_json) "
            "VALUES (?, ?, ?, ?)",
            (fmt, output, stamp(now), json.dumps(state, sort_keys=True, ensure_ascii=False)),
        )

    @_mapped
    def last_render_state(self, fmt: str, output: str) -> dict[str, Any] | None:
        """What the last render of `fmt` to `output` showed; None before the first, or when
        that row cannot be read (then there is only nothing to compare with)."""
        row = self._db.execute(
            "SELECT state_json FROM render_states WHERE format = ? AND output = ? "
            "ORDER BY id DESC LIMIT 1",
            (fmt, output),
        ).fetchone()
        if row is None:
            return None
        states = list(self._readable([row], state_from_row, "render_states"))
        return states[0] if states else None

    # recovery and preservation: written after their run, like an artifact run
    # they take no writer lock

    @_mapped
    def record_relocation(self, relocation: Relocation, now: datetime) -> None:
        """Keep a search for a source that went, and the page it proposes (if any)."""
        self._insert_row("relocations", RELOCATION_COLUMNS, relocation_values(relocation, now))

    @_mapped
    def latest_relocations(self) -> dict[str, Relocation]:
        """The newest search of each source that went, by source id."""
        rows = self._db.execute(
            "SELECT * FROM relocations WHERE id IN "
            "(SELECT MAX(id) FROM relocations GROUP BY source_id) ORDER BY id"
        )
        found = self._readable(rows, relocation_from_row, "relocations")
        return {relocation.source_id: relocation for relocation in found}

    @_mapped
    def record_save(self, saved: SavedSnapshot, now: datetime) -> None:
        """Keep what a web archive answered when asked to snapshot a page."""
        self._insert_row("archive_saves", SAVE_COLUMNS, save_values(saved, now))

    @_mapped
    def latest_saves(self) -> dict[str, SavedSnapshot]:
        """The newest snapshot a web archive took of each page, by URL."""
        rows = self._db.execute(
            "SELECT * FROM archive_saves WHERE id IN (SELECT MAX(id) FROM archive_saves "
            "WHERE snapshot_url IS NOT NULL GROUP BY url) ORDER BY id"
        )
        return {saved.url: saved for saved in self._readable(rows, save_from_row, "archive_saves")}

    def _insert_row(self, table: str, columns: Sequence[str], values: Sequence[object]) -> int:
        """Insert one row outside a run (its id back), refused in a store opened to read."""
        if self.readonly:
            raise ValueError(f"{self.path} was opened for reading only: nothing is recorded")
        places = ", ".join("?" for _ in columns)
        sql = f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({places})"
        return _row_id(self._write(sql, values))

    # internals

    def _readable(
        self, rows: Iterable[sqlite3.Row], read: Callable[[sqlite3.Row], T], table: str
    ) -> Iterator[T]:
        """Each row of `table` as a record; a row that cannot be read (a value of the wrong
        type, bad JSON, a bad time, a value no version wrote) is skipped and kept in
        `damage`, so that one bad row never blocks every later command."""
        for row in rows:
            try:
                yield read(row)
            except (ValueError, TypeError, KeyError, IndexError, StoreDamagedError) as error:
                self.damage[f"{table}{_row_named(row)}: {error}"] = None

    def _streamed(self, sql: str, parameters: Sequence[object]) -> Iterator[sqlite3.Row]:
        """The rows of a query as they are read, with sqlite3's errors translated as every
        other method's are (`_mapped` cannot reach inside a generator)."""
        try:
            yield from self._db.execute(sql, parameters)
        except sqlite3.Error as error:
            raise _translated(error, self.path) from None

    def _require_open(self, run_id: int) -> None:
        """Writes belong to the run this store opened, which holds the writer lock."""
        if self._open_run != run_id:
            raise ValueError(f"run {run_id} is not open in this store (open run: {self._open_run})")

    def _write(self, sql: str, parameters: Sequence[object]) -> sqlite3.Cursor:
        return self._db.execute(sql, parameters)

    @contextlib.contextmanager
    def _transaction(self) -> Iterator[None]:
        """Statements that commit together or not at all (outside one, each commits)."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield
        except BaseException:
            rolled_back(self._db)
            raise
        self._db.execute("COMMIT")

    def _insert_snapshot(self, text: str, url: str, now: datetime) -> str:
        digest = snapshot_digest(text)
        self._write(
            "INSERT OR IGNORE INTO snapshots (hash, url_first_seen, created_at, size, text_zlib) "
            "VALUES (?, ?, ?, ?, ?)",
            (digest, url, stamp(now), len(text), snapshot_zlib(text)),
        )
        return digest

    def _insert_fetch(
        self,
        run_id: int,
        result: FetchResult,
        snapshot_hash: str | None,
        now: datetime,
        recipe: str,
    ) -> None:
        self._write(
            "INSERT INTO fetches (run_id, url, final_url, http_status, source_status, moved_to, "
            "redirects_json, etag, last_modified, content_type, error, not_modified, attempts, "
            "elapsed, snapshot_hash, fetched_at, recipe, canonical) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                redacted(result.url),
                redacted(result.final_url),
                result.http_status,
                result.source_status,
                None if result.moved_to is None else redacted(result.moved_to),
                hops_json(result.redirects),
                result.etag,
                result.last_modified,
                result.content_type,
                result.error,
                int(result.not_modified),
                result.attempts,
                result.elapsed,
                snapshot_hash,
                stamp(now),
                recipe,
                None if result.canonical is None else redacted(result.canonical),
            ),
        )

    def _insert_check(self, run_id: int, check: CheckRecord) -> None:
        self._write(
            "INSERT INTO checks (run_id, claim_id, quote_index, quote_text, source_id, url, "
            "source_status, status, match_kind, similarity, current, meaning_changed, "
            "changed_json, occurrences, context_before, context_after, snapshot_hash, checked_at, "
            "recipe, change_kinds_json, closest, closest_kinds_json, moved_within, pdf_page) "
            "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                run_id,
                check.claim_id,
                check.quote_index,
                check.quote_text,
                check.source_id,
                redacted(check.url),
                check.source_status,
                check.status,
                check.match_kind,
                check.similarity,
                check.current,
                int(check.meaning_changed),
                changes_json(check.changed_words),
                check.occurrences,
                check.context_before,
                check.context_after,
                check.snapshot_hash,
                stamp(check.checked_at),
                check.recipe,
                json.dumps(list(check.change_kinds)),
                check.closest,
                json.dumps(list(check.closest_kinds)),
                check.moved_within,
                check.pdf_page,
            ),
        )


def _row_named(row: object) -> str:
    """ " row 12" for a row that was selected with its id, else nothing."""
    keys = row.keys() if isinstance(row, sqlite3.Row) else ()
    return f" row {row['id']}" if "id" in keys and isinstance(row, sqlite3.Row) else ""


def _row_id(cursor: sqlite3.Cursor) -> int:
    assert cursor.lastrowid is not None
    return cursor.lastrowid
