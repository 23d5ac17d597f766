"""The evidence store's schema: its migrations, applied in order, and the SQL that
names a misread (see the package docstring).

Each migration is a list of statements applied in one transaction; the schema version
(PRAGMA user_version) is the number of migrations applied. Append only: a released
migration is never edited, a change is a new one.
"""

from __future__ import annotations

import re
import sqlite3
from pathlib import Path
from typing import get_args

from claimledger.errors import StoreDamagedError
from claimledger.records import SourceStatus


def _append_only(table: str) -> tuple[str, str]:
    return (
        f"CREATE TRIGGER {table}_no_update BEFORE UPDATE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END",
        f"CREATE TRIGGER {table}_no_delete BEFORE DELETE ON {table} "
        f"BEGIN SELECT RAISE(ABORT, '{table} is append-only'); END",
    )


_SOURCE_STATUSES = ", ".join(f"'{status}'" for status in get_args(SourceStatus))

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
    (
        # A quote found elsewhere on its page than its #L lines or its heading place it.
        "ALTER TABLE checks ADD COLUMN moved_within TEXT",
        # What re-running a claim's artifact printed, and when.
        """CREATE TABLE artifact_runs (
            id INTEGER PRIMARY KEY,
            claim_id TEXT NOT NULL,
            ran_at TEXT NOT NULL,
            command TEXT NOT NULL,
            started INTEGER NOT NULL,
            exit_status INTEGER,
            matched INTEGER NOT NULL,
            output TEXT NOT NULL,
            expected TEXT NOT NULL,
            error TEXT,
            seconds REAL NOT NULL,
            runner TEXT NOT NULL
        )""",
        "CREATE INDEX artifact_runs_by_claim ON artifact_runs(claim_id, id)",
        *_append_only("artifact_runs"),
    ),
    (
        # What each render showed (report.changes.report_state), by format and by where it
        # went, so the next render of the same output can say what changed since.
        """CREATE TABLE render_states (
            id INTEGER PRIMARY KEY,
            format TEXT NOT NULL,
            output TEXT NOT NULL,
            rendered_at TEXT NOT NULL,
            state_json TEXT NOT NULL
        )""",
        "CREATE INDEX render_states_by_output ON render_states(format, output, id)",
        *_append_only("render_states"),
    ),
    (
        # Issue 17, recovery and preservation (relocate.py, preserve.py). A source that went
        # (404/410, an empty page left behind), searched for on its site's sitemap: the page
        # proposed as its new address (NULL: none, `note` says why) and the evidence, as
        # JSON (each quote there, the candidates tried, the sitemaps read). And each page a
        # web archive was asked to snapshot (Save Page Now): the snapshot's URL, or why not.
        # Both are written after their run is recorded, so they name it but hold no lock.
        """CREATE TABLE relocations (
            id INTEGER PRIMARY KEY,
            run_id INTEGER REFERENCES runs(id),
            source_id TEXT NOT NULL,
            url TEXT NOT NULL,
            reason TEXT NOT NULL,
            found_at TEXT,
            quotes_found INTEGER NOT NULL,
            quotes_total INTEGER NOT NULL,
            evidence_json TEXT NOT NULL,
            note TEXT NOT NULL,
            recorded_at TEXT NOT NULL
        )""",
        "CREATE INDEX relocations_by_source ON relocations(source_id, id)",
        *_append_only("relocations"),
        """CREATE TABLE archive_saves (
            id INTEGER PRIMARY KEY,
            run_id INTEGER REFERENCES runs(id),
            url TEXT NOT NULL,
            archive TEXT NOT NULL,
            snapshot_url TEXT,
            http_status INTEGER,
            error TEXT,
            snapshot_hash TEXT,
            saved_at TEXT NOT NULL
        )""",
        "CREATE INDEX archive_saves_by_url ON archive_saves(url, id)",
        *_append_only("archive_saves"),
    ),
    (
        # Issue 17, as read (archive.py, asread.py). The web archive's capture of a page
        # nearest the day it was read (`found`), none within the window (`none`), or no
        # answer (`failed`, asked again): a capture never changes, so an answer is asked once.
        # The capture's copy as read one way (recipe), its text kept in snapshots. And each
        # quote checked on that copy, recorded when its verdict is new. Written after their
        # run is recorded, like an artifact run: they name it but hold no lock.
        """CREATE TABLE archive_lookups (
            id INTEGER PRIMARY KEY,
            run_id INTEGER REFERENCES runs(id),
            url TEXT NOT NULL,
            read_on TEXT NOT NULL,
            archive TEXT NOT NULL,
            window_days INTEGER NOT NULL,
            outcome TEXT NOT NULL CHECK (outcome IN ('found', 'none', 'failed')),
            timestamp TEXT,
            original TEXT,
            snapshot_url TEXT,
            error TEXT,
            looked_up_at TEXT NOT NULL
        )""",
        "CREATE INDEX archive_lookups_by_url ON archive_lookups(url, read_on, archive, id)",
        """CREATE TABLE archived_copies (
            id INTEGER PRIMARY KEY,
            lookup_id INTEGER NOT NULL REFERENCES archive_lookups(id),
            recipe TEXT NOT NULL,
            final_url TEXT NOT NULL,
            http_status INTEGER,
            content_type TEXT,
            snapshot_hash TEXT REFERENCES snapshots(hash),
            error TEXT,
            read_at TEXT NOT NULL
        )""",
        "CREATE INDEX archived_copies_by_lookup ON archived_copies(lookup_id, recipe, id)",
        """CREATE TABLE as_read_checks (
            id INTEGER PRIMARY KEY,
            run_id INTEGER REFERENCES runs(id),
            claim_id TEXT NOT NULL,
            quote_index INTEGER NOT NULL,
            quote_text TEXT NOT NULL,
            wording TEXT NOT NULL,
            source_id TEXT NOT NULL,
            url TEXT NOT NULL,
            read_on TEXT NOT NULL,
            snapshot_url TEXT NOT NULL,
            timestamp TEXT NOT NULL,
            status TEXT CHECK (status IN ('verified', 'drifted', 'missing', 'ambiguous')),
            match_kind TEXT CHECK (match_kind IN ('exact', 'normalized')),
            similarity REAL,
            current TEXT,
            meaning_changed INTEGER NOT NULL,
            changed_json TEXT NOT NULL,
            change_kinds_json TEXT NOT NULL,
            closest TEXT,
            snapshot_hash TEXT REFERENCES snapshots(hash),
            recipe TEXT NOT NULL,
            error TEXT,
            checked_at TEXT NOT NULL
        )""",
        "CREATE INDEX as_read_checks_by_quote "
        "ON as_read_checks(claim_id, quote_text, source_id, id)",
        *_append_only("archive_lookups"),
        *_append_only("archived_copies"),
        *_append_only("as_read_checks"),
    ),
    (
        # robots.txt as each run read it (store/robots.py): a run within a day of the last
        # read uses those rules rather than asking the site again.
        """CREATE TABLE robots_reads (
            id INTEGER PRIMARY KEY,
            run_id INTEGER NOT NULL REFERENCES runs(id),
            origin TEXT NOT NULL,
            text TEXT NOT NULL,
            read_at TEXT NOT NULL
        )""",
        "CREATE INDEX robots_reads_by_origin ON robots_reads(origin, id)",
        *_append_only("robots_reads"),
    ),
    (
        # The page of a PDF a quote stands on, for links that open the PDF there.
        "ALTER TABLE checks ADD COLUMN pdf_page INTEGER",
    ),
    (
        # What the docs' repository says of a quote: the commits that held, dropped and
        # reworded it (`claimledger blame`), the latest of each quote on each source read.
        """CREATE TABLE quote_histories (
            id INTEGER PRIMARY KEY,
            claim_id TEXT NOT NULL,
            quote_text TEXT NOT NULL,
            source_id TEXT NOT NULL,
            repo TEXT NOT NULL,
            path TEXT NOT NULL,
            current TEXT,
            commits_json TEXT NOT NULL,
            versions INTEGER NOT NULL,
            read_at TEXT NOT NULL
        )""",
        "CREATE INDEX quote_histories_by_quote ON quote_histories(claim_id, source_id, id)",
        *_append_only("quote_histories"),
    ),
    (
        # The versions of the file that could not be read (binary, too large) where the
        # quote's history may lie, as a JSON list of commits; NULL in a history kept before
        # they were (not known, so never reused for reading the history again).
        "ALTER TABLE quote_histories ADD COLUMN unread_json TEXT",
    ),
    (
        # The branch or tag whose history was read: another's history may name another
        # change. NULL in a history kept before (never reused for reading it again).
        "ALTER TABLE quote_histories ADD COLUMN ref TEXT",
    ),
    (
        # The version of the reading of the docs' history that made the history
        # (`versions.HISTORY`): one made by another is read again. NULL in a history kept
        # before (never reused for reading it again).
        "ALTER TABLE quote_histories ADD COLUMN history_version INTEGER",
    ),
)

SCHEMA_VERSION = len(MIGRATIONS)
OUR_TABLES = frozenset(
    {
        "runs",
        "run_ends",
        "snapshots",
        "fetches",
        "checks",
        "misread_fetches",
        "artifact_runs",
        "render_states",
        "relocations",  # recovery
        "archive_saves",  # preservation
        "archive_lookups",  # as read
        "archived_copies",  # as read
        "as_read_checks",  # as read
        "robots_reads",  # robots.txt kept for a day
        "quote_histories",  # the docs' history
    }
)

MISREAD = "EXISTS (SELECT 1 FROM misread_fetches m WHERE m.fetch_id = fetches.id)"
"""SQL: this fetch row reused another address's text (see the module docstring)."""

CHECK_MISREAD = (
    "EXISTS (SELECT 1 FROM misread_fetches m JOIN fetches f ON f.id = m.fetch_id "
    "WHERE f.run_id = checks.run_id AND f.url = checks.url AND f.recipe = checks.recipe)"
)
"""SQL: this check was made on such a reading."""

MISREAD_CHECKS = (
    "SELECT c.id FROM misread_fetches m JOIN fetches f ON f.id = m.fetch_id "
    "JOIN checks c ON c.run_id = f.run_id AND c.url = f.url AND c.recipe = f.recipe"
)
"""SQL: the ids of the checks made on such readings, found once for a whole query (asked
row by row, as CHECK_MISREAD is, it costs a lookup of every check ever made)."""


def migrate(connection: sqlite3.Connection, path: Path) -> None:
    """Apply the migrations this file lacks, each in its own transaction."""
    if schema_version(connection, path) == SCHEMA_VERSION:
        return
    connection.execute("BEGIN IMMEDIATE")
    try:
        version = schema_version(connection, path)  # re-read under the write lock
        if version == 0:
            refuse_foreign_tables(connection, path)
        for number, statements in enumerate(MIGRATIONS[version:], start=version + 1):
            for statement in statements:
                if not _column_already_there(connection, statement):
                    connection.execute(statement)
            connection.execute(f"PRAGMA user_version = {number}")
        connection.execute("COMMIT")
    except BaseException:
        rolled_back(connection)
        raise


_ADD_COLUMN = re.compile(r"ALTER TABLE (\w+) ADD COLUMN (\w+)")


def _column_already_there(connection: sqlite3.Connection, statement: str) -> bool:
    """Whether `statement` adds a column the store already has: for a while the first
    migration itself made the `recipe` columns that the second adds, so a store of that
    version holds them at schema 1, and adding them again would refuse the whole store."""
    found = _ADD_COLUMN.match(statement)
    if found is None or found[2] != "recipe":  # that stretch's alone: any other is refused
        return False
    table, column = found[1], found[2]
    return any(row[1] == column for row in connection.execute(f"PRAGMA table_info({table})"))


def rolled_back(connection: sqlite3.Connection) -> None:
    """End a failed transaction, unless SQLite already did: a full disk (SQLITE_FULL) or
    an I/O error rolls it back itself, and a ROLLBACK then would raise "no transaction is
    active" in place of the error that says what happened."""
    if connection.in_transaction:
        connection.execute("ROLLBACK")


def schema_version(connection: sqlite3.Connection, path: Path) -> int:
    version = int(connection.execute("PRAGMA user_version").fetchone()[0])
    if version > SCHEMA_VERSION:
        raise StoreDamagedError(
            f"{path} was written by a newer claimledger (schema {version}; this version "
            f"reads up to {SCHEMA_VERSION}): upgrade claimledger"
        )
    return version


_TRIGGER_NAME = re.compile(r"CREATE TRIGGER (\w+)")
OUR_TRIGGERS = {
    found[1]: statement
    for migration in MIGRATIONS
    for statement in migration
    if (found := _TRIGGER_NAME.match(statement))
}
"""Every trigger the migrations make, by name, with the statement that made it (SQLite
keeps that text as it was given)."""


def refuse_foreign_code(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a store whose schema holds a trigger or a view the migrations did not make:
    a store can come with a cloned repository, and SQL of someone else's would run on our
    every read or write."""
    rows = connection.execute(
        "SELECT type, name, sql FROM sqlite_master WHERE type IN ('trigger', 'view') ORDER BY name"
    )
    foreign = sorted(
        f"{kind} {name}"
        for kind, name, sql in rows
        if kind != "trigger" or OUR_TRIGGERS.get(name) != sql
    )
    if foreign:
        raise StoreDamagedError(
            f"{path} holds SQL that claimledger did not write ({', '.join(foreign[:3])}): "
            "it is not opened; move it aside and refresh again"
        )


NUMBERED = (
    "runs",
    "fetches",
    "checks",
    "artifact_runs",
    "render_states",
    "relocations",
    "archive_saves",
    "archive_lookups",
    "archived_copies",
    "as_read_checks",
    "robots_reads",
    "quote_histories",
)
"""The tables whose newest row, by number, is the latest of its kind."""

PAST_COUNTING = 2**62
"""A row number no store counts to: SQLite numbers rows one by one, so a row numbered so
high was put there. From its largest number (2^63 - 1) SQLite numbers new rows at random
below it, and a row numbered near that would stay the newest of its kind for good."""


def refuse_rows_past_counting(connection: sqlite3.Connection, path: Path) -> None:
    """Refuse a store that holds a row numbered past counting: the rows every refresh writes
    after it would be numbered below it, so a forged "verified" check so numbered would
    outrank each one and say, for good, what no reading found."""
    present = tables_of(connection)
    for table in NUMBERED:
        if table not in present:
            continue
        (top,) = connection.execute(f"SELECT MAX(id) FROM {table}").fetchone()
        if isinstance(top, int) and top >= PAST_COUNTING:
            raise StoreDamagedError(
                f"{path} holds a {table} row numbered {top}, past any a store counts to "
                "(rows to come would be numbered below it, and it would stay the newest for "
                "good): it is not opened; move it aside and refresh again"
            )


def tables_of(connection: sqlite3.Connection) -> frozenset[str]:
    """The names of the file's tables, but SQLite's own (`sqlite_stat1`, which ANALYZE
    makes in any database): no one else may name a table `sqlite_…`, and one of them says
    nothing of whose the file is."""
    rows = connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
    names = (str(row[0]) for row in rows)
    return frozenset(name for name in names if not name.lower().startswith("sqlite_"))


def refuse_foreign_tables(connection: sqlite3.Connection, path: Path) -> None:
    foreign = sorted(tables_of(connection) - OUR_TABLES)
    if foreign:
        raise StoreDamagedError(
            f"{path} is a SQLite database of something else (tables: {', '.join(foreign)}): "
            "point the tool at another file"
        )
