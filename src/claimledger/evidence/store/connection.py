"""Opening the evidence store's file: the connection, its settings, and whether its
schema is one this version reads (the store's edge to SQLite, apart from its rows)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from claimledger.errors import EnvironmentProblem
from claimledger.evidence.store.schema import SCHEMA_VERSION, schema_version
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


def outdated(path: Path) -> bool:
    """Is the store at `path` of an earlier schema (one that a writable open migrates)?"""
    try:
        connection = connect(path, readonly=True)
    except (OSError, sqlite3.Error):
        return False  # the readonly open that follows says what is wrong
    try:
        return int(connection.execute("PRAGMA user_version").fetchone()[0]) < SCHEMA_VERSION
    except sqlite3.Error:
        return False
    finally:
        connection.close()


def require_current(connection: sqlite3.Connection, path: Path) -> None:
    if schema_version(connection, path) < SCHEMA_VERSION:
        raise EnvironmentProblem(
            f"{path} was written by an earlier claimledger: run `claimledger refresh` once "
            "where it can be written, to bring it up to date"
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
