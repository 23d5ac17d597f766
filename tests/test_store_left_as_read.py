"""A command that only reads the evidence store never writes it. An empty
`out/evidence.sqlite3` that came with a checkout (0 bytes, or SQLite with no table) is
no evidence, and is left byte for byte as it was, its time of change too; only a
command that records gives it the schema. A file that is no evidence store (another
program's database, whatever its schema version, or not SQLite at all) stops every
command, reading or recording, in one line, before anything of it is written."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pytest

from claimledger.evidence.store import EvidenceStore
from claimledger.evidence.store.schema import MIGRATIONS, SCHEMA_VERSION
from cli_runner import Cli
from evidence_site import serve_v1, write_ledger
from webserver import PageServer

LONG_AGO = 1_600_000_000
"""The store's time of change, set before a command runs, to tell whether it wrote."""


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


def store_of(ledger: Path) -> Path:
    return ledger.parent / "out" / "evidence.sqlite3"


def empty_file(path: Path) -> None:
    path.write_bytes(b"")


def sqlite_with_no_table(path: Path) -> None:
    with sqlite3.connect(path) as connection:
        connection.execute("CREATE TABLE t (x)")
        connection.execute("DROP TABLE t")
    connection.close()


def another_programs(version: int) -> Callable[[Path], None]:
    def made(path: Path) -> None:
        with sqlite3.connect(path) as connection:
            connection.execute("CREATE TABLE users (id INTEGER, name TEXT)")
            connection.execute("INSERT INTO users VALUES (1, 'ada')")
            connection.execute(f"PRAGMA user_version = {version}")
        connection.close()

    return made


def not_sqlite(path: Path) -> None:
    path.write_bytes(b"id,name\n1,ada\n")


def placed(ledger: Path, make: Callable[[Path], None]) -> tuple[bytes, int]:
    """The store `make` writes, dated long ago; its bytes and its time of change."""
    path = store_of(ledger)
    path.parent.mkdir(exist_ok=True)
    make(path)
    os.utime(path, ns=(LONG_AGO * 10**9, LONG_AGO * 10**9))
    return path.read_bytes(), path.stat().st_mtime_ns


def left_as_it_was(ledger: Path, before: tuple[bytes, int]) -> None:
    path = store_of(ledger)
    assert (path.read_bytes(), path.stat().st_mtime_ns) == before
    assert sorted(p.name for p in path.parent.iterdir() if p.name.startswith(path.name)) == [
        path.name
    ]


READING = [
    (("status",), 1),
    (("claims",), 0),
    (("history", "durable"), 0),
    (("diff",), 0),
    (("render", "-o", "-", "--format", "md"), 0),
    (("render",), 0),
]


@pytest.mark.parametrize("make", [empty_file, sqlite_with_no_table], ids=["0-bytes", "no-table"])
@pytest.mark.parametrize(("command", "code"), READING, ids=[" ".join(c) for c, _ in READING])
def test_a_store_that_holds_nothing_is_no_evidence_and_left_as_it_was(
    ledger: Path, make: Callable[[Path], None], command: tuple[str, ...], code: int
) -> None:
    before = placed(ledger, make)
    done = Cli(ledger)(*command, code=code)
    assert "came with the checkout" not in done.stderr
    assert "Traceback" not in done.output
    left_as_it_was(ledger, before)


def test_a_refresh_gives_a_store_that_holds_nothing_its_schema(
    ledger: Path, page_server: PageServer
) -> None:
    placed(ledger, empty_file)
    serve_v1(page_server)
    Cli(ledger)("refresh", "--allow-private", code=0)
    assert Cli(ledger)("status", code=0).stdout
    with EvidenceStore.open(store_of(ledger), readonly=True) as store:
        assert store.latest_fetches()


ANOTHER = [
    (another_programs(0), "is a SQLite database of something else (tables: users)"),
    (another_programs(3), "is a SQLite database of something else (tables: users)"),
    (another_programs(SCHEMA_VERSION), "is a SQLite database of something else (no "),
    (not_sqlite, "cannot be read as an evidence store"),
]


@pytest.mark.parametrize(
    ("make", "said"), ANOTHER, ids=["version-0", "an-earlier-version", "this-version", "csv"]
)
@pytest.mark.parametrize(
    "command",
    [*(command for command, _ in READING), ("refresh", "--allow-private")],
    ids=[*(" ".join(c) for c, _ in READING), "refresh"],
)
def test_a_file_that_is_no_evidence_store_stops_every_command_unwritten(
    ledger: Path, make: Callable[[Path], None], said: str, command: tuple[str, ...]
) -> None:
    before = placed(ledger, make)
    done = Cli(ledger)(*command, code=2)
    (line,) = done.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "evidence.sqlite3" in line
    assert said in line
    left_as_it_was(ledger, before)


def an_earlier_claimledger_s_analyzed(path: Path) -> None:
    """A store of the schema before this one, on which ANALYZE ran (a user's sqlite3, a
    browser's "optimize"): SQLite keeps what it learnt in its own table, sqlite_stat1."""
    connection = sqlite3.connect(path, isolation_level=None)
    for number, statements in enumerate(MIGRATIONS[:-1], start=1):
        for statement in statements:
            connection.execute(statement)
        connection.execute(f"PRAGMA user_version = {number}")
    connection.execute("ANALYZE")
    connection.close()


@pytest.mark.parametrize(
    ("command", "code"), [(("status",), 1), (("refresh", "--allow-private"), 0)]
)
def test_sqlite_s_own_tables_make_no_store_another_program_s(
    ledger: Path, page_server: PageServer, command: tuple[str, ...], code: int
) -> None:
    """sqlite_stat1 is SQLite's, in any database: an earlier store that has it is ours,
    brought up to date and read as any other."""
    placed(ledger, an_earlier_claimledger_s_analyzed)
    serve_v1(page_server)
    done = Cli(ledger)(*command, code=code)
    assert "something else" not in done.stderr
    with sqlite3.connect(store_of(ledger)) as connection:
        (version,) = connection.execute("PRAGMA user_version").fetchone()
    connection.close()
    assert version == SCHEMA_VERSION


def a_wal_left_beside(path: Path) -> None:
    """A 0-byte store with a -wal of pages beside it (a crash's leftover, or a checkout's):
    SQLite reads the 0-byte file as an empty database, and deletes that -wal on opening
    it. A real store is never so: its header is written before it is put in WAL mode."""
    source = path.with_name("elsewhere.sqlite3")
    connection = sqlite3.connect(source, isolation_level=None)
    connection.execute("PRAGMA journal_mode = WAL")
    connection.execute("CREATE TABLE runs (id INTEGER PRIMARY KEY)")
    wal = Path(f"{source}-wal").read_bytes()
    connection.close()
    for made in source.parent.glob(f"{source.name}*"):
        made.unlink()
    Path(f"{path}-wal").write_bytes(wal)
    empty_file(path)


@pytest.mark.parametrize(("command", "code"), READING, ids=[" ".join(c) for c, _ in READING])
def test_a_0_byte_store_with_a_wal_beside_it_is_no_evidence_and_both_are_left(
    ledger: Path, command: tuple[str, ...], code: int
) -> None:
    placed(ledger, a_wal_left_beside)
    store = store_of(ledger)

    def store_files() -> dict[str, bytes]:
        return {path.name: path.read_bytes() for path in store.parent.glob(f"{store.name}*")}

    before = store_files()
    assert before[f"{store.name}-wal"]
    done = Cli(ledger)(*command, code=code)
    assert "earlier claimledger" not in done.stderr and "Traceback" not in done.output
    assert store_files() == before
