"""A store that came with a checkout is the checkout's word: a refresh into it reads every
page in full and asks every site for its robots.txt, so nothing planted in it (a forged
page behind the real validators, a permissive robots.txt) is believed; once a refresh has
read every source so, the store is the user's own and conditional requests resume.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import shutil
import sqlite3
from pathlib import Path

import pytest

from archive_server import WebArchive
from claimledger.ledger.file import load
from cli_runner import Cli, claimledger
from evidence_site import ALARM, DURABLE, NOT_DURABLE, ORDERED, page, serve_v1, write_ledger
from webserver import PageServer

READ_ON = dt.date(2026, 8, 23)


def planted(tmp_path: Path, server: PageServer) -> Path:
    """A teardown whose store was made elsewhere, on a /guide that said DURABLE under the
    ETag the live /guide now answers with, and whose robots.txt then let everything in."""
    serve_v1(server, etags=True)
    server.set_page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    (tmp_path / "theirs").mkdir()
    theirs = write_ledger(tmp_path / "theirs", server)
    Cli(theirs)("refresh", "--allow-private", "--no-as-read", code=0)
    clone = tmp_path / "clone"
    shutil.copytree(theirs.parent.parent, clone)
    return clone / "ledger" / "claims.yaml"


def test_a_planted_page_behind_the_live_validators_is_never_believed(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger = planted(tmp_path, page_server)
    page_server.set_page(
        "/guide", page("An opening line.", NOT_DURABLE, ORDERED), headers={"ETag": '"g1"'}
    )
    page_server.clear_requests()

    report = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)

    guide = [r for r in page_server.page_requests if r.path == "/guide"]
    assert guide and all("if-none-match" not in r.headers for r in guide)  # read in full
    durable = [c for c in report["checks"] if c["quote_text"] == DURABLE and "guide" in c["url"]]
    assert [c["status"] for c in durable] == ["drifted"]
    assert durable[0]["meaning_changed"]
    # every source read in full: the store is the user's now, and asks "changed since?"
    page_server.clear_requests()
    Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)
    assert all("if-none-match" in r.headers for r in page_server.page_requests)


def test_a_planted_robots_txt_is_never_believed(tmp_path: Path, page_server: PageServer) -> None:
    ledger = planted(tmp_path, page_server)
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /other\n", content_type="text/plain"
    )
    page_server.clear_requests()

    report = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)

    assert page_server.hits("/robots.txt") == 1 and page_server.hits("/other") == 0
    other = [s for s in report["sources"] if s["url"].endswith("/other")]
    assert [s["source_status"] for s in other] == ["refused"]


def test_status_and_render_say_the_checks_are_the_checkouts_word_until_a_refresh(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger = planted(tmp_path, page_server)
    cli = Cli(ledger)
    said = "the evidence store came with the checkout"

    assert said in " ".join(cli("status", code=0).stderr.split())
    assert cli.json("status", code=0)["evidence_made_here"] is False
    assert said in cli("render", "-o", "-", "--format", "md", code=0).stdout
    rendered = cli("render", "-o", "-", "--format", "json", code=0)
    assert said in " ".join(rendered.stderr.split())
    assert json.loads(rendered.stdout)["evidence_made_here"] is False
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    assert said not in cli("status", code=0).stderr
    assert json.loads(cli("render", "-o", "-", "--format", "json").stdout)["evidence_made_here"]


def test_the_gate_says_its_evidence_is_the_checkouts_word_and_exits_as_it_has_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger = planted(tmp_path, page_server)
    cli = Cli(ledger)
    said = "the evidence store came with the checkout"

    assert said in " ".join(cli("regrade", "--check", code=0).stderr.split())
    assert said in " ".join(cli("regrade", "--write", code=0).stderr.split())
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    assert said not in cli("regrade", "--check", code=0).stderr


def test_a_forged_verified_check_is_never_carried_over(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A check made on the live page's own text, then edited to say "verified", would be
    carried over by a refresh that found the same text: a store that came with the
    checkout carries no check over."""
    ledger = planted(tmp_path, page_server)
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE, ORDERED))
    Cli(tmp_path / "theirs" / "ledger" / "claims.yaml")("refresh", "--allow-private", code=1)
    store = tmp_path / "theirs" / "ledger" / "out" / "evidence.sqlite3"
    with sqlite3.connect(store) as db:  # as a forger would: triggers off, rows edited, back on
        triggers = db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'")
        kept = list(triggers)
        for name, _ in kept:
            db.execute(f"DROP TRIGGER {name}")
        db.execute(
            "UPDATE checks SET status = 'verified', match_kind = 'exact', similarity = 1.0, "
            "current = quote_text, occurrences = 1, closest = NULL, meaning_changed = 0"
        )
        for _, sql in kept:
            db.execute(sql)
    with sqlite3.connect(store) as db:
        db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the whole store in its one file
    clone = ledger.parent / "out" / "evidence.sqlite3"
    shutil.copyfile(store, clone)

    result = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)

    durable = [c for c in result["checks"] if c["quote_text"] == DURABLE and "guide" in c["url"]]
    assert [c["status"] for c in durable] == ["drifted"]


LAST_ROW = 2**63 - 1
"""The largest number SQLite gives a row: past it, it numbers new rows below older ones."""


@pytest.mark.parametrize(
    ("table", "newest"),
    [
        ("checks", f"SELECT MAX(id) FROM checks WHERE quote_text = '{ALARM}'"),
        ("fetches", "SELECT MAX(id) FROM fetches"),
    ],
)
def test_a_row_numbered_past_every_row_to_come_is_refused_by_every_command(
    tmp_path: Path, page_server: PageServer, table: str, newest: str
) -> None:
    """SQLite numbers new rows below a planted row numbered 2^63-1, so that row stays the
    newest for good: a "verified" check so numbered outranked every check a refresh made,
    and `status` and `regrade --check` (0) said the quote verified after the refresh had
    found it gone. A store holding a row numbered past counting is refused, as a damaged
    one is, before anything is read or written."""
    ledger = planted(tmp_path, page_server)
    store = ledger.parent / "out" / "evidence.sqlite3"
    with sqlite3.connect(store) as db:
        kept = list(db.execute("SELECT name, sql FROM sqlite_master WHERE type = 'trigger'"))
        for name, _ in kept:
            db.execute(f"DROP TRIGGER {name}")
        db.execute(f"UPDATE {table} SET id = {LAST_ROW} WHERE id = ({newest})")
        for _, sql in kept:
            db.execute(sql)
    page_server.set_page("/other", page("The alarm handler was removed."))
    cli = Cli(ledger)

    for command in (("refresh", "--allow-private", "--no-as-read"), ("regrade", "--check"),
                    ("status",), ("render", "-o", "-")):  # fmt: skip
        (line,) = cli(*command, code=2).stderr.splitlines()
        assert line == (
            f"claimledger: error: {store} holds a {table} row numbered {LAST_ROW}, past any "
            "a store counts to (rows to come would be numbered below it, and it would stay "
            "the newest for good): it is not opened; move it aside and refresh again"
        )
    with sqlite3.connect(store) as db:
        assert db.execute("SELECT COUNT(*) FROM runs").fetchone() == (1,)  # nothing written
    assert page_server.hits("/other") == 1  # nothing read: the planting refresh's reading


@pytest.mark.parametrize("command", [("status",), ("refresh", "--allow-private")])
def test_a_store_of_an_earlier_schema_numbered_past_counting_is_refused_unwritten(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """A store of an earlier schema holding a row numbered past counting was migrated to
    this version's schema (by `status`, which only reads, too) before it was refused as
    "not opened": the refused file was rewritten. It is refused as it is, unwritten."""
    from claimledger.evidence.store.schema import MIGRATIONS

    ledger = tmp_path / "claims.yaml"
    claimledger("init", str(tmp_path))
    store = tmp_path / "out" / "evidence.sqlite3"
    store.parent.mkdir()
    with contextlib.closing(sqlite3.connect(store)) as db:
        for statement in MIGRATIONS[0]:
            db.execute(statement)
        db.execute(
            "INSERT INTO runs (id, started_at, ledger_path) VALUES (?, ?, ?)",
            (LAST_ROW, "2026-08-23T00:00:00+00:00", str(ledger)),
        )
        db.execute("PRAGMA user_version = 1")
        db.commit()
        before = schema_of(db)

    (line,) = Cli(ledger)(*command, code=2).stderr.splitlines()

    assert line.startswith(f"claimledger: error: {store} holds a runs row numbered {LAST_ROW}")
    with contextlib.closing(sqlite3.connect(store)) as db:
        assert schema_of(db) == before  # no table, column or version added


def schema_of(db: sqlite3.Connection) -> tuple[int, list[tuple[str, str]]]:
    """A store's schema version, and each of its tables and indexes as made."""
    (version,) = db.execute("PRAGMA user_version").fetchone()
    return version, list(db.execute("SELECT name, sql FROM sqlite_master ORDER BY name"))


def test_a_refresh_that_read_no_page_leaves_the_store_a_strangers(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page not read keeps the checkout's validators: were the store taken for the
    user's, the next refresh would send them, and believe the planted copy on a 304."""
    ledger = planted(tmp_path, page_server)
    cli = Cli(ledger)
    for path in ("/guide", "/mirror", "/other"):
        page_server.set_page(path, "gone", status=404)
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    page_server.set_page(
        "/guide", page("An opening line.", NOT_DURABLE, ORDERED), headers={"ETag": '"g1"'}
    )
    serve_the_rest_as_before(page_server)
    page_server.clear_requests()

    report = cli.json("refresh", "--allow-private", "--no-as-read", code=1)

    assert all("if-none-match" not in r.headers for r in page_server.page_requests)
    durable = [c for c in report["checks"] if c["quote_text"] == DURABLE and "guide" in c["url"]]
    assert [c["status"] for c in durable] == ["drifted"]


def serve_the_rest_as_before(server: PageServer) -> None:
    server.set_page("/mirror", page(DURABLE), headers={"ETag": '"m1"'})
    server.set_page("/other", page(ALARM), headers={"ETag": '"o1"'})


def test_the_checkouts_web_archive_answers_are_never_believed(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A capture the checkout's store names for the reading day, with a copy saying other
    words, would make a quote "misquoted at reading time" and fill the source's
    `archived` with the forged address: the archive is asked, and the store stays a
    stranger's, since what it kept of the archive no refresh supersedes."""
    ledger = planted(tmp_path, page_server)
    archive = WebArchive(page_server)
    guide = page_server.url("/guide")
    archive.add(guide, "20260820120000", page("An opening line.", DURABLE, ORDERED))
    forged = f"{archive.base}/web/20260822120000/{guide}"
    plant_capture(ledger.parent / "out" / "evidence.sqlite3", guide, archive.base, forged)
    cli = Cli(ledger)

    report = cli.json("refresh", "--allow-private", "--archive", archive.base, code=0)

    assert archive.asked("cdx") and archive.asked("id_")
    checks = [c for c in report["as_read"]["checks"] if c["quote_text"] == DURABLE]
    assert checks and all(c["status"] == "verified" for c in checks if "guide" in c["url"])
    assert forged not in ledger.read_text(encoding="utf-8")
    assert cli.json("status", code=0)["evidence_made_here"] is False


def plant_capture(store: Path, url: str, archive: str, capture: str) -> None:
    """As a forger would, with claimledger's own store: a capture of the reading day whose
    copy does not say what the page said."""
    from claimledger.evidence.store import EvidenceStore
    from claimledger.recipes import recipe
    from claimledger.records import ArchivedCopy, ArchiveLookup

    when = dt.datetime(2026, 8, 24, tzinfo=dt.UTC)
    kept = EvidenceStore.open(store)
    try:
        lookup = ArchiveLookup(
            url=url, read_on=READ_ON, archive=archive, window_days=30, outcome="found",
            looked_up_at=when, timestamp=capture.split("/web/")[1][:14], original=url,
            snapshot_url=capture,
        )  # fmt: skip
        found = kept.record_archive_lookup(lookup)
        copy = ArchivedCopy(capture, 200, "text/html", recipe(None), NOT_DURABLE)
        kept.record_archived_copy(found, copy, when)
    finally:
        kept.close()


def test_move_never_takes_a_new_address_from_the_checkouts_store(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A redirect or a search kept by the checkout's store would be written into the ledger
    as the source's address: `move` asks for the address instead."""
    ledger = planted(tmp_path, page_server)
    before = ledger.read_text(encoding="utf-8")

    refused = Cli(ledger)("move", "guide", code=2)

    assert "came with the checkout" in refused.stderr and "give NEW_URL" in refused.stderr
    assert ledger.read_text(encoding="utf-8") == before


def test_accept_never_takes_a_pages_wording_from_the_checkouts_store(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A drifted check kept by the checkout's store holds the page's words as it says it
    read them: `accept` would write a planted wording into the ledger as the quote."""
    serve_v1(page_server)
    (tmp_path / "theirs").mkdir()
    theirs = write_ledger(tmp_path / "theirs", page_server)
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE, ORDERED))
    Cli(theirs)("refresh", "--allow-private", "--no-as-read", code=1)
    shutil.copytree(theirs.parent.parent, tmp_path / "clone")
    ledger = tmp_path / "clone" / "ledger" / "claims.yaml"
    before = ledger.read_text(encoding="utf-8")

    refused = Cli(ledger)("accept", "--all-drifted", "--even-if-meaning-changed", code=2)

    said = " ".join(refused.stderr.split())
    assert "came with the checkout, so the wording of the pages it holds is its word" in said
    assert ledger.read_text(encoding="utf-8") == before


def test_the_views_of_what_the_checkouts_store_holds_say_whose_word_it_is(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`claims`, `explain`, `history`, `diff` and `snapshot` show what the store says was
    read ("verified", a page's words): each says, on stderr, that it is the checkout's."""
    ledger = planted(tmp_path, page_server)
    cli = Cli(ledger)
    said = "the evidence store came with the checkout"
    claim = load(ledger).claims[0]

    for args in (
        ["claims"],
        ["claims", "--json"],
        ["explain", claim.id],
        ["history", claim.id],
        ["diff"],
        ["snapshot", "guide"],
    ):
        done = cli(*args)
        assert said in " ".join(done.stderr.split()), args
        assert said not in done.stdout, args
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    assert said not in cli("claims").stderr


def test_a_store_its_user_made_with_an_older_claimledger_is_taken_as_theirs_on_their_word(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A store made before stores were marked reads as one a clone brought, for good once it
    holds the archive's answers: `accept` refused it, and every view said whose word it
    was. `trust --store` takes it as the user's; nothing else does."""
    ledger = planted(tmp_path, page_server)  # as an older claimledger left it: no mark
    cli = Cli(ledger)
    said = "the evidence store came with the checkout"
    assert said in " ".join(cli("status").stderr.split())
    assert "trust --store" not in cli("status").stderr  # never urged on a clone's store

    taken = cli("trust", "--store")

    assert "is yours now" in taken.stdout
    assert said not in cli("status").stderr and said not in cli("claims").stderr
    assert "is yours already" in cli("trust", "--store").stdout
    cli("trust", "--store", "--list", code=2)
    cli("trust", "--store", "--json", code=2)


def test_trust_store_without_a_store_takes_nothing(tmp_path: Path) -> None:
    claimledger("init", str(tmp_path / "reading"))
    refused = Cli(tmp_path / "reading" / "claims.yaml")("trust", "--store", code=2)
    assert "there is no evidence store at" in refused.stderr
    assert not (tmp_path / "reading" / "out" / "evidence.sqlite3").exists()
