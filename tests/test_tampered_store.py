"""A tampered evidence store: a committed `out/evidence.sqlite3` is a file of the cloned
repository, and SQLite's column types are advice only, so any column of any row may hold
anything. Every command that reads the store must either skip such a row and say so
(the evidence it lists or weighs) or stop with one line that names the store and the row
(what it was asked for by name), never exit 70. And the store itself is opened
defensively: no SQL of someone else's (a trigger, a view) runs on it.

The store is made by a real refresh of a loopback site, with a search, a lookup in the
archive, an as-read check and an artifact run recorded beside it; each test then writes
one bad value into one row the way a hostile file would hold it (its table's types and
constraints taken off first), and runs the real command line on it.
"""

from __future__ import annotations

import datetime as dt
import shutil
import sqlite3
import zlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from claimledger.cli import app
from claimledger.evidence.store import EvidenceStore
from claimledger.records import (
    ArchiveLookup,
    ArtifactRun,
    AsReadCheck,
    Candidate,
    Commit,
    QuoteHistory,
    QuoteThere,
    Relocation,
)
from cli_runner import Cli
from evidence_site import ALARM, serve_v1, write_ledger
from webserver import PageServer

NOW = dt.datetime(2026, 9, 1, 12, tzinfo=dt.UTC)
CAPTURE = "20260821093000"


@pytest.fixture(scope="module")
def made(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """A ledger and the store of its refresh, with a row in every table of the evidence."""
    home = tmp_path_factory.mktemp("made")
    with PageServer() as server:
        serve_v1(server)
        ledger = write_ledger(home, server)
        Cli(ledger)("refresh", "--allow-private", "--no-as-read", code=0)
        _record_the_rest(ledger.parent / "out" / "evidence.sqlite3", server.url("/other"))
        yield ledger.parent


def _record_the_rest(store_path: Path, other: str) -> None:
    """A search for a source gone, the archive's capture and a verdict on it, an artifact run."""
    snapshot = f"https://archive.test/web/{CAPTURE}/{other}"
    with EvidenceStore.open(store_path) as store:
        quote = QuoteThere("alarms", 0, ALARM, "verified", "exact", 1.0, None)
        found = Candidate(f"{other}/new", 0.9, "ok", 1, "Alarms")
        store.record_relocation(
            Relocation("other", other, "gone", f"{other}/new", (quote,), 1, (found,), ()), NOW
        )
        lookup = ArchiveLookup(
            other, dt.date(2026, 8, 23), "https://archive.test", 30, "found", NOW,
            CAPTURE, other, snapshot,
        )  # fmt: skip
        store.record_archive_lookup(lookup)
        store.record_as_read_check(
            AsReadCheck(
                "alarms", 0, ALARM, ALARM, "other", other, dt.date(2026, 8, 23), snapshot,
                CAPTURE, "verified", "exact", 1.0, None, False, (), (), None, None, "r", NOW,
            )
        )  # fmt: skip
        store.record_artifact_run(
            ArtifactRun("durable", NOW, "true", True, 0, True, "ok\n", "ok", None, 0.1, "sh")
        )
        commit = Commit("f" * 40, "2026-05-15", "Ada", "Rework (#181)", "docs/alarms.md")
        store.record_quote_history(
            QuoteHistory(
                "alarms", ALARM, "other", "https://github.com/acme/docs.git", "docs/alarms.md",
                None, commit, None, None, 2, NOW,
            )
        )  # fmt: skip


@pytest.fixture
def home(made: Path, tmp_path: Path) -> Path:
    """A fresh copy of the made ledger and store, for one test to tamper with: the user's
    own (a copy elsewhere is a stranger's, and holding the archive's answers, stays one)."""
    copy = tmp_path / "ledger"
    shutil.copytree(made, copy)
    with EvidenceStore.open(copy / STORE) as store:
        store.adopt()
    return copy


def tamper(store: Path, table: str, column: str, sql_value: str, rowid: int | None = None) -> int:
    """Write `sql_value` (SQL: `NULL`, `7`, `'text'`, `x'ff'`) into `column` of the row
    `rowid` of `table` (the newest by default), as a hostile file may hold it: the table
    declared without types or constraints, the append-only triggers lifted for the write
    and put back as they were. The row's rowid."""
    db = sqlite3.connect(store, isolation_level=None)
    try:
        triggers = db.execute(
            "SELECT name, sql FROM sqlite_master WHERE type = 'trigger' AND tbl_name = ?",
            (table,),
        ).fetchall()
        for name, _ in triggers:
            db.execute(f"DROP TRIGGER {name}")
        columns = [row[1] for row in db.execute(f"PRAGMA table_info({table})")]
        keys = {"id", "hash"}
        plain = ", ".join(f"{c} PRIMARY KEY" if c in keys else c for c in columns)
        db.execute("PRAGMA writable_schema = ON")
        db.execute(
            "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = ?",
            (f"CREATE TABLE {table} ({plain})".replace("id PRIMARY", "id INTEGER PRIMARY"), table),
        )
        db.execute("PRAGMA writable_schema = OFF")
    finally:
        db.close()
    db = sqlite3.connect(store, isolation_level=None)
    try:
        if rowid is None:
            (rowid,) = db.execute(f"SELECT MAX(rowid) FROM {table}").fetchone()
        db.execute(f"UPDATE {table} SET {column} = {sql_value} WHERE rowid = ?", (rowid,))
        for _, sql in triggers:
            db.execute(sql)
    finally:
        db.close()
    return int(rowid)


def reading_commands(home: Path) -> list[tuple[str, ...]]:
    """Every command that reads the store, as a reader runs them."""
    url = _guide_url(home)
    return [
        ("status",),
        ("status", "--json"),
        ("diff",),
        ("history", "durable"),
        ("explain", "durable"),
        ("regrade",),
        ("render",),
        ("render", "--output", "-"),
        ("render", "--format", "json", "--output", "-"),
        ("render", "--format", "html", "--output", str(home / "report.html")),
        ("snapshot", url),
    ]


def _guide_url(home: Path) -> str:
    text = (home / "claims.yaml").read_text("utf-8")
    return text.split('guide: {url: "', 1)[1].split('"', 1)[0]


STORE = Path("out") / "evidence.sqlite3"

SKIPPED_ROWS = [
    ("checks", "url", "7"),
    ("checks", "quote_index", "NULL"),
    ("checks", "similarity", "'zzz'"),
    ("checks", "source_id", "x'ff00'"),
    ("checks", "status", "'exploded'"),
    ("checks", "changed_json", "'{not json'"),
    ("checks", "change_kinds_json", "'[[[1]]]'"),
    ("checks", "checked_at", "'9999-12-31T23:59:59.999999+00:00'"),
    ("checks", "moved_within", "x'ff00'"),
    ("fetches", "url", "NULL"),
    ("fetches", "http_status", "'two hundred'"),
    ("fetches", "redirects_json", '\'[["https://a.test", "301"]]\''),
    ("fetches", "canonical", "7"),
    ("runs", "started_at", "'0001-01-01T00:00:00+00:00'"),
    ("artifact_runs", "output", "NULL"),
    ("artifact_runs", "runner", "x'ff00'"),
    ("relocations", "found_at", "7"),
    ("relocations", "evidence_json", "'{\"quotes\": 7}'"),
    ("archive_lookups", "read_on", "'2026-02-31'"),
    ("as_read_checks", "url", "1.5"),
    ("as_read_checks", "similarity", "'high'"),
    ("render_states", "state_json", "'[1, 2]'"),
    ("quote_histories", "commits_json", "'{\"held\": [1]}'"),
    ("quote_histories", "versions", "'many'"),
    ("quote_histories", "history_version", "'the first'"),
]


@pytest.mark.parametrize(("table", "column", "value"), SKIPPED_ROWS)
def test_a_row_that_cannot_be_read_is_skipped_and_said_by_every_command(
    home: Path, table: str, column: str, value: str
) -> None:
    if table == "render_states":
        Cli(home / "claims.yaml")("render", code=0)
    tamper(home / STORE, table, column, value)
    warned = []
    for command in reading_commands(home):
        result = CliRunner().invoke(app, ["--ledger", str(home / "claims.yaml"), *command])
        assert result.exit_code in (0, 1), (command, result.exit_code, result.stderr)
        assert "Traceback" not in result.stderr and "internal error" not in result.stderr
        warned += [line for line in result.stderr.splitlines() if "damaged row" in line]
    assert warned, f"no command said that it skipped the {table} row"
    line = warned[0]
    assert line.startswith(f"claimledger: warning: 1 damaged row of {home / STORE} skipped (")
    assert f"({table}" in line and column in line


def test_diff_reads_only_its_quotes_evidence_so_a_damaged_fetch_row_is_not_its_concern(
    home: Path,
) -> None:
    tamper(home / STORE, "fetches", "url", "NULL")
    ledger = ["--ledger", str(home / "claims.yaml")]
    diff = CliRunner().invoke(app, [*ledger, "diff"])
    status = CliRunner().invoke(app, [*ledger, "status"])
    assert diff.exit_code in (0, 1) and "damaged row" not in diff.stderr
    assert "damaged row" in status.stderr  # the same store, read by a command showing fetches


@pytest.mark.parametrize(
    ("column", "value", "why"),
    [
        ("snapshot_hash", "'0000'", "names snapshot 0000, which the store does not hold"),
        ("snapshot_hash", "7", "snapshot_hash holds a whole number"),
        ("fetched_at", "'yesterday'", "fetched_at holds 'yesterday', not a time"),
    ],
)
def test_a_snapshot_asked_for_by_name_that_cannot_be_read_is_one_line_naming_the_row(
    home: Path, column: str, value: str, why: str
) -> None:
    url = _guide_url(home)
    store = home / STORE
    with sqlite3.connect(store) as db:  # the guide's newest reading: the one `snapshot` shows
        (newest,) = db.execute("SELECT MAX(id) FROM fetches WHERE url = ?", (url,)).fetchone()
    tamper(store, "fetches", column, value, newest)
    result = Cli(home / "claims.yaml")("snapshot", url, code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"claimledger: error: {store}: fetches row {newest} cannot be read")
    assert why in line


def test_a_damaged_snapshot_text_is_one_line_naming_it(home: Path) -> None:
    tamper(home / STORE, "snapshots", "text_zlib", "'not compressed'")
    with sqlite3.connect(home / STORE) as db:
        (digest,) = db.execute("SELECT hash FROM snapshots ORDER BY rowid DESC LIMIT 1").fetchone()
        (url,) = db.execute("SELECT url FROM fetches WHERE snapshot_hash = ?", (digest,)).fetchone()
    result = Cli(home / "claims.yaml")("snapshot", url, code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"claimledger: error: snapshot {digest} in {home / STORE} is damaged")


@pytest.mark.parametrize(
    ("compressed", "size", "why"),
    [
        (zlib.compress(b"a" * 50 * 2**20, 9), None, "is not the"),
        (zlib.compress(b"short"), 10**12, "a size of"),
    ],
    ids=["a-zlib-bomb", "a-size-past-any-page"],
)
def test_a_snapshot_that_inflates_past_its_size_is_damaged(
    home: Path, compressed: bytes, size: int | None, why: str
) -> None:
    """A store from elsewhere whose snapshot inflates to 50 MB of one letter (300 MB took
    3 s and a gigabyte of memory to print): read no further than the size it was stored
    with, and said damaged."""
    tamper(home / STORE, "snapshots", "text_zlib", f"x'{compressed.hex()}'")
    with sqlite3.connect(home / STORE) as db:
        (digest,) = db.execute("SELECT hash FROM snapshots ORDER BY rowid DESC LIMIT 1").fetchone()
        (url,) = db.execute("SELECT url FROM fetches WHERE snapshot_hash = ?", (digest,)).fetchone()
    if size is not None:
        tamper(home / STORE, "snapshots", "size", str(size))
    result = Cli(home / "claims.yaml")("snapshot", url, code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"claimledger: error: snapshot {digest} in {home / STORE} is damaged")
    assert why in line


def test_a_refresh_reads_past_damaged_validators_and_robots_and_records_anew(
    home: Path, page_server: PageServer
) -> None:
    """What a refresh asks of earlier runs (validators to send, robots.txt kept) is skipped
    when it cannot be read: the page is asked in full, and the run recorded as usual."""
    serve_v1(page_server, etags=True)
    ledger = home / "claims.yaml"
    text = ledger.read_text("utf-8")
    old = _guide_url(home).rsplit("/", 1)[0]
    ledger.write_text(text.replace(old, page_server.url("").rstrip("/")), encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    tamper(home / STORE, "fetches", "etag", "x'ff00'")
    tamper(home / STORE, "robots_reads", "text", "7")
    page_server.clear_requests()

    result = cli("refresh", "--allow-private", "--no-as-read", code=0)

    assert "internal error" not in result.stderr
    assert page_server.hits("/robots.txt") == 1  # what was kept is no robots.txt: asked again
    asked = [r.headers.get("if-none-match") for r in page_server.page_requests]
    assert None in asked  # the damaged reading's page asked in full
    assert "damaged row" in result.stderr and "fetches" in result.stderr


def _refreshed_with_etags(home: Path, page_server: PageServer) -> Cli:
    """The made ledger pointed at `page_server`, refreshed once with validators kept."""
    serve_v1(page_server, etags=True)
    ledger = home / "claims.yaml"
    old = _guide_url(home).rsplit("/", 1)[0]
    text = ledger.read_text("utf-8").replace(old, page_server.url("").rstrip("/"))
    ledger.write_text(text, encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    return cli


def _newest_snapshot_of(store: Path, url: str) -> str:
    with sqlite3.connect(store) as db:
        (digest,) = db.execute(
            "SELECT snapshot_hash FROM fetches WHERE url = ? ORDER BY id DESC LIMIT 1", (url,)
        ).fetchone()
    return str(digest)


def _snapshot_rowid(store: Path, digest: str) -> int:
    with sqlite3.connect(store) as db:
        (rowid,) = db.execute("SELECT rowid FROM snapshots WHERE hash = ?", (digest,)).fetchone()
    return int(rowid)


def test_a_snapshot_the_store_lost_is_asked_for_in_full_not_answered_unchanged(
    home: Path, page_server: PageServer
) -> None:
    cli = _refreshed_with_etags(home, page_server)
    guide = page_server.url("/guide")
    digest = _newest_snapshot_of(home / STORE, guide)
    tamper(home / STORE, "snapshots", "hash", "'gone'", _snapshot_rowid(home / STORE, digest))
    page_server.clear_requests()

    report = cli.json("refresh", "--allow-private", "--no-as-read", code=0)

    (asked,) = [r for r in page_server.page_requests if r.path == "/guide"]
    assert "if-none-match" not in asked.headers  # no validators without the text they stand for
    assert {s["url"]: s["source_status"] for s in report["sources"]}[guide] == "ok"


def test_a_304_whose_stored_snapshot_is_damaged_is_unreadable_with_why(
    home: Path, page_server: PageServer
) -> None:
    cli = _refreshed_with_etags(home, page_server)
    guide = page_server.url("/guide")
    digest = _newest_snapshot_of(home / STORE, guide)
    tamper(home / STORE, "snapshots", "text_zlib", "x'00ff'", _snapshot_rowid(home / STORE, digest))
    page_server.set_page("/guide", "a new text, never read", headers={"ETag": '"g1"'})

    report = cli.json("refresh", "--allow-private", "--no-as-read", "--verbose", code=1)

    (source,) = [s for s in report["sources"] if s["url"] == guide]
    assert source["source_status"] == "unreadable"
    assert source["error"].startswith(f"304 from {guide}, whose stored snapshot cannot be read")
    assert f"snapshot {digest}" in source["error"]


# --------------------------------------------------------------------------- defensive


def _add(store: Path, sql: str) -> None:
    with sqlite3.connect(store) as db:
        db.execute(sql)


@pytest.mark.parametrize(
    ("sql", "named"),
    [
        (
            "CREATE TRIGGER spy AFTER INSERT ON checks "
            "BEGIN INSERT INTO robots_reads (run_id, origin, text, read_at) "
            "VALUES (1, 'x', NEW.quote_text, 'x'); END",
            "trigger spy",
        ),
        ("CREATE VIEW checks_shown AS SELECT * FROM checks", "view checks_shown"),
    ],
)
def test_a_store_with_sql_it_did_not_write_is_refused_by_every_command(
    home: Path, sql: str, named: str
) -> None:
    store = home / STORE
    _add(store, sql)
    cli = Cli(home / "claims.yaml")
    for command in (("status",), ("refresh", "--allow-private"), ("render", "--output", "-")):
        (line,) = cli(*command, code=2).stderr.splitlines()[-1:]
        assert line == (
            f"claimledger: error: {store} holds SQL that claimledger did not write ({named}): "
            "it is not opened; move it aside and refresh again"
        )


def test_one_of_our_triggers_rewritten_is_refused_too(home: Path) -> None:
    store = home / STORE
    with sqlite3.connect(store) as db:
        db.execute("DROP TRIGGER checks_no_delete")
        db.execute("CREATE TRIGGER checks_no_delete BEFORE DELETE ON checks BEGIN SELECT 1; END")
    (line,) = Cli(home / "claims.yaml")("status", code=2).stderr.splitlines()
    assert "(trigger checks_no_delete)" in line


def test_the_store_is_opened_with_sqlites_defensive_settings(home: Path) -> None:
    with EvidenceStore.open(home / STORE, readonly=True) as store:
        connection = store._db
        assert connection.execute("PRAGMA trusted_schema").fetchone()[0] == 0
        defensive = getattr(sqlite3, "SQLITE_DBCONFIG_DEFENSIVE", None)
        if defensive is not None and hasattr(connection, "getconfig"):
            assert connection.getconfig(defensive) is True
            with pytest.raises(sqlite3.OperationalError):
                connection.execute("PRAGMA writable_schema = ON")
                connection.execute("UPDATE sqlite_master SET sql = '' WHERE name = 'runs'")
