"""Opening the evidence store's file: the connection, its settings, and whether its
schema is one this version reads (the store's edge to SQLite, apart from its rows)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from claimledger.errors import EnvironmentProblem, StoreDamagedError
from claimledger.evidence.store.schema import (
    OUR_TABLES,
    SCHEMA_VERSION,
    migrate,
    refuse_rows_past_counting,
    schema_version,
    tables_of,
)
from claimledger.ledger.atomicfile import followed

BUSY_TIMEOUT_MS = 5000  # how long one statement waits on SQLite's own short write locks


def connect(path: Path, readonly: bool) -> sqlite3.Connection:
    """A connection to the file (created, with its directory, to write); read-only, a
    file in a read-only directory is read as an immutable snapshot."""
    if not readonly:
        path.parent.mkdir(parents=True, exist_ok=True)
        return sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
    uri = f"{followed(path).as_uri()}?mode=ro"
    try:
        connection = sqlite3.connect(uri, uri=True, timeout=BUSY_TIMEOUT_MS / 1000)
        connection.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return connection
    except sqlite3.OperationalError:
        # A read-only directory cannot hold the WAL's shared-memory file: read the file as
        # an immutable snapshot instead (nothing else can be writing to it there).
        return sqlite3.connect(f"{uri}&immutable=1", uri=True, timeout=BUSY_TIMEOUT_MS / 1000)


def holds_nothing(path: Path) -> bool:
    """Is the file at `path` a store with nothing in it: empty (0 bytes, as a checkout may
    carry one), or SQLite no one has given a table? A command that reads takes it for no
    evidence and leaves it as it is; only one that records gives it the schema. A -wal
    beside a 0-byte file is none of a store's (SQLite writes a store's header before its
    WAL), and SQLite deletes it on opening the file: it is left unopened too."""
    try:
        if path.stat().st_size == 0:
            return True
    except OSError:
        return False  # the open that follows says what is wrong
    version, tables = _probed(path)
    return version == 0 and tables == frozenset()


def outdated(path: Path) -> bool:
    """Is the store at `path` one of ours of an earlier schema (one that a writable open
    migrates)? Not one that holds nothing, nor a database of something else: a command
    that only reads writes neither, and the readonly open that follows says which it is."""
    version, tables = _probed(path)
    if version is None or version >= SCHEMA_VERSION or not tables <= OUR_TABLES:
        return False
    return version > 0 or bool(tables)


def _probed(path: Path) -> tuple[int | None, frozenset[str]]:
    """The schema version and the tables of the file at `path`, read without writing; no
    version where it cannot be read as SQLite."""
    try:
        connection = connect(path, readonly=True)
    except (OSError, sqlite3.Error):
        return None, frozenset()
    try:
        return int(connection.execute("PRAGMA user_version").fetchone()[0]), tables_of(connection)
    except sqlite3.Error:
        return None, frozenset()
    finally:
        connection.close()


def made_current(connection: sqlite3.Connection, path: Path, *, readonly: bool) -> None:
    """The store brought up to this version's schema (`migrate`), or where it is only read,
    required to be (`require_current`); refused if a row of it is numbered past counting
    (`refuse_rows_past_counting`), whose rows every command believes: before a migration,
    which would write a store that is then not opened."""
    if readonly:
        require_current(connection, path)
        refuse_rows_past_counting(connection, path)
        return
    schema_version(connection, path)  # a newer claimledger's store is said to be one first
    refuse_rows_past_counting(connection, path)
    migrate(connection, path)


def require_current(connection: sqlite3.Connection, path: Path) -> None:
    """A store this version reads as it is: ours (`refuse_another_database`), of this
    schema."""
    version = schema_version(connection, path)
    refuse_another_database(path, version, tables_of(connection))
    if version < SCHEMA_VERSION:
        raise EnvironmentProblem(
            f"{path} was written by an earlier claimledger: run `claimledger refresh` once "
            "where it can be written, to bring it up to date"
        )


def refuse_before_writing(path: Path) -> None:
    """Refuse the file at `path` before a writable connection touches it (setting its
    journal mode alone rewrites its header) when it is a database of something else."""
    version, tables = _probed(path)
    if version is not None and version <= SCHEMA_VERSION:
        refuse_another_database(path, version, tables)


def refuse_another_database(path: Path, version: int, tables: frozenset[str]) -> None:
    """Refuse a SQLite file that is no evidence store: one of an earlier schema holding a
    table of another's, or one of this schema lacking one of ours. It is said so, and
    nothing of it is migrated or written."""
    if version < SCHEMA_VERSION and not tables <= OUR_TABLES:
        other = ", ".join(sorted(tables - OUR_TABLES)[:3])
        raise StoreDamagedError(_ANOTHER_DATABASE.format(path=path, what=f"tables: {other}"))
    if version == SCHEMA_VERSION and not tables >= OUR_TABLES:
        lacking = ", ".join(sorted(OUR_TABLES - tables)[:3])
        raise StoreDamagedError(_ANOTHER_DATABASE.format(path=path, what=f"no {lacking}"))


_ANOTHER_DATABASE = (
    "{path} is a SQLite database of something else ({what}): point the tool at another file"
)


def configure(connection: sqlite3.Connection, readonly: bool) -> None:
    """Defensive, then WAL, foreign keys, a busy timeout; the first statement also proves
    it is SQLite. Defensive: the file may be anyone's, so no SQL kept in its schema may
    call a function with side effects (`trusted_schema`), and no statement may write the
    schema or the file's pages directly (SQLITE_DBCONFIG_DEFENSIVE, from Python 3.12)."""
    defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
    if defensive is not None and hasattr(connection, "setconfig"):
        connection.setconfig(defensive, True)
    connection.execute("PRAGMA trusted_schema = OFF")
    connection.execute("PRAGMA cell_size_check = ON")
    connection.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
    if not readonly:
        connection.execute("PRAGMA journal_mode = WAL").fetchone()
    connection.execute("PRAGMA foreign_keys = ON")
    # NORMAL in WAL mode survives a killed process; only power loss can drop the last commits.
    connection.execute("PRAGMA synchronous = NORMAL")
