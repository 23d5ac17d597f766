"""claimledger.evidence.store: an append-only SQLite store that survives kills and refuses a second
writer, and lets no sqlite3 error escape."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import zlib
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path

import pytest

from claimledger import errors
from claimledger.errors import (
    ClaimledgerError,
    EnvironmentProblem,
    ExitCode,
    StoreBusyError,
    StoreDamagedError,
    StoreError,
)
from claimledger.evidence.store import EvidenceStore
from claimledger.evidence.store.schema import MIGRATIONS, SCHEMA_VERSION
from claimledger.reading import match
from claimledger.records import (
    CheckRecord,
    FetchResult,
    Hop,
    Validators,
    WordChange,
    check_key,
    snapshot_digest,
)

T0 = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)


def at(minutes: float) -> datetime:
    return T0 + timedelta(minutes=minutes)


def fetched(url: str, **changes: object) -> FetchResult:
    base = FetchResult(
        url=url,
        final_url=url,
        http_status=200,
        source_status="ok",
        redirects=(),
        moved_to=None,
        etag='"v1"',
        last_modified="Wed, 21 Oct 2026 07:28:00 GMT",
        content_type="text/html; charset=utf-8",
        text="the page",
        not_modified=False,
        error=None,
        attempts=1,
        elapsed=0.25,
        line_range=None,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


def checked(claim_id: str = "input-gate", **changes: object) -> CheckRecord:
    base = CheckRecord(
        claim_id=claim_id,
        quote_index=0,
        quote_text="While a storage operation is executing, no events are delivered.",
        source_id="do-glossary",
        url="https://developers.cloudflare.com/durable-objects/reference/glossary/",
        source_status="ok",
        status="verified",
        match_kind="exact",
        similarity=1.0,
        current="While a storage operation is executing, no events are delivered.",
        meaning_changed=False,
        changed_words=(),
        occurrences=1,
        context_before="Input gates. ",
        context_after=" Output gates",
        snapshot_hash=None,
        checked_at=T0,
    )
    return replace(base, **changes)  # type: ignore[arg-type]


# --- opening --------------------------------------------------------------------------------


def test_open_creates_the_directory_and_a_wal_database(evidence_path: Path) -> None:
    assert not evidence_path.parent.exists()
    with EvidenceStore.open(evidence_path):
        pass
    connection = sqlite3.connect(evidence_path)
    try:
        assert connection.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert connection.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        connection.close()


def test_reopening_keeps_everything(evidence_path: Path) -> None:
    with EvidenceStore.open(evidence_path) as store:
        run = store.begin_run(at(0), "claims.yaml")
        digest = store.put_snapshot("page text", "https://a.test/", at(0))
        store.finish_run(run, at(1))
    with EvidenceStore.open(evidence_path) as store:
        assert store.snapshot_text(digest) == "page text"
        assert store.last_run() is not None


def test_a_file_that_is_not_sqlite_is_a_clear_error(evidence_path: Path) -> None:
    evidence_path.parent.mkdir(parents=True)
    evidence_path.write_bytes(b"these are not the bytes of a database\n" * 200)
    with pytest.raises(StoreDamagedError, match="cannot be read as an evidence store"):
        EvidenceStore.open(evidence_path)


def test_a_newer_schema_is_a_clear_error(evidence_path: Path) -> None:
    evidence_path.parent.mkdir(parents=True)
    connection = sqlite3.connect(evidence_path)
    connection.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    connection.close()
    with pytest.raises(StoreDamagedError, match=r"newer claimledger .*upgrade claimledger"):
        EvidenceStore.open(evidence_path)


def test_another_programs_database_is_left_alone(evidence_path: Path) -> None:
    evidence_path.parent.mkdir(parents=True)
    connection = sqlite3.connect(evidence_path)
    connection.execute("CREATE TABLE invoices (id INTEGER)")
    connection.close()
    with pytest.raises(StoreDamagedError, match="tables: invoices"):
        EvidenceStore.open(evidence_path)


def test_a_directory_in_the_way_is_a_clear_error(evidence_path: Path) -> None:
    evidence_path.mkdir(parents=True)
    with pytest.raises(EnvironmentProblem, match="cannot be opened"):
        EvidenceStore.open(evidence_path)


def test_store_errors_belong_to_the_tools_exception_tree() -> None:
    assert issubclass(StoreDamagedError, StoreError)
    assert issubclass(StoreBusyError, StoreError)
    tree: tuple[type[ClaimledgerError], ...] = (
        StoreDamagedError,
        StoreBusyError,
        EnvironmentProblem,
    )
    for error in tree:
        assert issubclass(error, ClaimledgerError)
        assert error.exit_code == ExitCode.INPUT
    assert int(ExitCode.INPUT) == 2
    assert not hasattr(errors, "EvidenceError")


def test_a_readonly_open_creates_nothing_and_writes_nothing(evidence_path: Path) -> None:
    with pytest.raises(EnvironmentProblem, match="cannot be opened"):
        EvidenceStore.open(evidence_path, readonly=True)
    assert not evidence_path.parent.exists()
    with EvidenceStore.open(evidence_path) as store:
        run = store.begin_run(at(0), "claims.yaml")
        store.record_check(run, checked())
        store.finish_run(run, at(1))
    with EvidenceStore.open(evidence_path, readonly=True) as reader:
        assert reader.readonly
        assert [check.claim_id for check in reader.latest_checks()] == ["input-gate"]
        with pytest.raises(ValueError, match="opened for reading only"):
            reader.begin_run(at(2), "claims.yaml")
    with EvidenceStore.open(evidence_path) as store:
        last = store.last_run()
        assert last is not None and last.id == run  # the refused run left no row
        store.begin_run(at(3), "claims.yaml")  # and no writer lock behind


# --- runs and the writer lock ---------------------------------------------------------------


def test_runs_are_recorded_with_their_end(evidence_store: EvidenceStore) -> None:
    assert evidence_store.last_run() is None
    first = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.finish_run(first, at(2))
    second = evidence_store.begin_run(at(10), "other/claims.yaml")
    last = evidence_store.last_run()
    assert last is not None
    assert (last.id, last.started_at, last.finished_at) == (second, at(10), None)
    assert last.ledger_path == "other/claims.yaml"
    evidence_store.finish_run(second, at(11))
    finished = evidence_store.last_run()
    assert finished is not None and finished.finished_at == at(11)


def test_a_second_writer_is_refused_while_readers_read(evidence_path: Path) -> None:
    with EvidenceStore.open(evidence_path) as writer, EvidenceStore.open(evidence_path) as other:
        run = writer.begin_run(at(0), "claims.yaml")
        writer.record_check(run, checked())
        with pytest.raises(StoreBusyError) as busy:
            other.begin_run(at(0), "claims.yaml")
        assert str(busy.value) == (
            f"another refresh is writing to {evidence_path}; wait for it to finish"
        )
        assert len(other.latest_checks()) == 1  # reading never waits for the writer
        writer.finish_run(run, at(1))
        assert other.begin_run(at(2), "claims.yaml") > run


def test_closing_releases_the_writer_lock(evidence_path: Path) -> None:
    writer = EvidenceStore.open(evidence_path)
    writer.begin_run(at(0), "claims.yaml")
    writer.close()
    with EvidenceStore.open(evidence_path) as other:
        other.begin_run(at(1), "claims.yaml")


def test_writes_need_the_run_this_store_opened(evidence_store: EvidenceStore) -> None:
    with pytest.raises(ValueError, match="not open"):
        evidence_store.record_check(1, checked())
    run = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.finish_run(run, at(1))
    with pytest.raises(ValueError, match="not open"):
        evidence_store.record_fetch(run, fetched("https://a.test/"), None, at(2))


def test_naive_times_are_refused(evidence_store: EvidenceStore) -> None:
    with pytest.raises(ValueError, match="timezone-aware"):
        evidence_store.begin_run(datetime(2026, 11, 29, 9, 0), "claims.yaml")


def test_times_in_other_zones_come_back_as_the_same_instant(
    evidence_store: EvidenceStore,
) -> None:
    tokyo = datetime(2026, 11, 29, 18, 0, tzinfo=timezone(timedelta(hours=9)))
    evidence_store.begin_run(tokyo, "claims.yaml")
    last = evidence_store.last_run()
    assert last is not None and last.started_at == T0 and last.started_at.tzinfo is not None


# --- snapshots ------------------------------------------------------------------------------


def test_snapshots_are_deduplicated_and_compressed(
    evidence_store: EvidenceStore, evidence_path: Path
) -> None:
    text = "Durable Objects — “strongly consistent” storage. 入力ゲート\n" * 200
    first = evidence_store.put_snapshot(text, "https://a.test/one", at(0))
    again = evidence_store.put_snapshot(text, "https://a.test/two", at(5))
    assert first == again and len(first) == 64
    assert evidence_store.snapshot_text(first) == text
    connection = sqlite3.connect(evidence_path)
    try:
        rows = connection.execute("SELECT url_first_seen, text_zlib FROM snapshots").fetchall()
    finally:
        connection.close()
    assert len(rows) == 1
    (url_first_seen, blob) = rows[0]
    assert url_first_seen == "https://a.test/one"
    assert len(blob) < len(text.encode()) / 10
    assert zlib.decompress(blob).decode() == text


def test_an_unknown_snapshot_is_a_key_error(evidence_store: EvidenceStore) -> None:
    with pytest.raises(KeyError):
        evidence_store.snapshot_text("0" * 64)


def test_snapshot_at_answers_what_a_page_said_then(evidence_store: EvidenceStore) -> None:
    url = "https://a.test/doc"
    run = evidence_store.begin_run(at(0), "claims.yaml")
    old = evidence_store.put_snapshot("old words", url, at(0))
    evidence_store.record_fetch(run, fetched(url), old, at(0))
    evidence_store.record_fetch(run, fetched(url, source_status="unreachable"), None, at(30))
    new = evidence_store.put_snapshot("new words", url, at(60))
    evidence_store.record_fetch(run, fetched(url), new, at(60))

    assert evidence_store.snapshot_at(url, at(-1)) is None
    assert evidence_store.snapshot_at(url, at(0)) == (at(0), "old words")
    assert evidence_store.snapshot_at(url, at(45)) == (at(0), "old words")
    assert evidence_store.snapshot_at(url, at(90)) == (at(60), "new words")
    assert evidence_store.snapshot_at(url, None) == (at(60), "new words")
    assert evidence_store.snapshot_at("https://a.test/never", None) is None


# --- fetches --------------------------------------------------------------------------------


def test_a_fetch_round_trips(evidence_store: EvidenceStore) -> None:
    url = "https://a.test/old#L3-L9"
    result = fetched(
        url,
        final_url="https://a.test/new",
        source_status="moved",
        moved_to="https://a.test/new",
        redirects=(Hop(url, 301),),
        attempts=2,
    )
    run = evidence_store.begin_run(at(0), "claims.yaml")
    digest = evidence_store.put_snapshot("text", url, at(0))
    evidence_store.record_fetch(run, result, digest, at(1))
    record = evidence_store.latest_fetches()[url]
    assert (record.run_id, record.url, record.final_url) == (run, url, "https://a.test/new")
    assert (record.source_status, record.moved_to) == ("moved", "https://a.test/new")
    assert record.redirects == (Hop(url, 301),)
    assert (record.etag, record.last_modified) == (result.etag, result.last_modified)
    assert (record.http_status, record.content_type, record.error) == (
        200,
        "text/html; charset=utf-8",
        None,
    )
    assert (record.attempts, record.elapsed, record.not_modified) == (2, 0.25, False)
    assert (record.snapshot_hash, record.fetched_at) == (digest, at(1))


def test_latest_fetches_is_the_newest_per_url(evidence_store: EvidenceStore) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_fetch(run, fetched("https://a.test/1"), None, at(0))
    evidence_store.record_fetch(run, fetched("https://a.test/2"), None, at(0))
    gone = fetched("https://a.test/1", source_status="gone", http_status=404, error="HTTP 404")
    evidence_store.record_fetch(run, gone, None, at(1))
    latest = evidence_store.latest_fetches()
    assert sorted(latest) == ["https://a.test/1", "https://a.test/2"]
    assert latest["https://a.test/1"].source_status == "gone"
    assert latest["https://a.test/2"].source_status == "ok"


def test_validators_come_from_the_newest_reading_of_that_very_url(
    evidence_store: EvidenceStore,
) -> None:
    url = "https://a.test/doc"
    assert evidence_store.validators(url, [""]) is None
    run = evidence_store.begin_run(at(0), "claims.yaml")
    digest = evidence_store.put_snapshot("text", url, at(0))
    evidence_store.record_fetch(run, fetched(url, etag='"v1"'), digest, at(0))
    failed = fetched(url, etag=None, last_modified=None, source_status="unreachable")
    evidence_store.record_fetch(run, failed, None, at(1))
    expected = Validators('"v1"', "Wed, 21 Oct 2026 07:28:00 GMT")
    assert evidence_store.validators(url, [""]) == expected
    assert evidence_store.answered_snapshot(url, "", expected) == digest
    assert evidence_store.answered_snapshot(url, "", Validators('"v0"', None)) is None

    bare = fetched(url, etag=None, last_modified=None)
    evidence_store.record_fetch(run, bare, digest, at(2))
    assert evidence_store.validators(url, [""]) is None  # the newest snapshot came without any


def test_validators_belong_to_the_url_that_answered(evidence_store: EvidenceStore) -> None:
    old, new = "https://a.test/old", "https://a.test/new"
    run = evidence_store.begin_run(at(0), "claims.yaml")
    digest = evidence_store.put_snapshot("new text", new, at(0))
    moved = fetched(old, final_url=new, source_status="moved", moved_to=new, etag='"n1"')
    evidence_store.record_fetch(run, moved, digest, at(0))
    assert evidence_store.validators(old, [""]) is None  # the old address answered nothing
    assert evidence_store.validators(new, [""]) == Validators('"n1"', moved.last_modified)
    assert (
        evidence_store.answered_snapshot(old, "", Validators('"n1"', moved.last_modified)) is None
    )


def test_validators_are_offered_only_when_every_reading_has_a_snapshot(
    evidence_store: EvidenceStore,
) -> None:
    url = "https://a.test/doc"
    run = evidence_store.begin_run(at(0), "claims.yaml")
    digest = evidence_store.put_snapshot("text", url, at(0))
    evidence_store.record_fetch(run, fetched(url), digest, at(0), "select main")
    assert evidence_store.validators(url, ["select main"]) is not None
    assert evidence_store.validators(url, ["select main", "select article"]) is None


def test_a_page_is_recorded_whole_in_one_transaction(evidence_store: EvidenceStore) -> None:
    url = "https://a.test/doc"
    run = evidence_store.begin_run(at(0), "claims.yaml")
    with pytest.raises(RuntimeError):  # its check names a snapshot that is not there
        evidence_store.record_page(
            run,
            fetched(url),
            snapshot_hash=None,
            new_snapshot="the page",
            recipe="r",
            checks=[checked(url=url, snapshot_hash="0f" * 32)],
            now=at(0),
        )
    assert evidence_store.latest_fetches() == {}  # no page half recorded
    assert evidence_store.latest_checks() == []
    assert evidence_store.snapshot_at(url, None) is None

    text = "While a storage operation is executing, no events are delivered."
    digest = snapshot_digest(text)
    evidence_store.record_page(
        run,
        fetched(url, text=None),
        snapshot_hash=digest,
        new_snapshot=text,
        recipe="r",
        checks=[checked(url=url, snapshot_hash=digest, recipe="r")],
        now=at(1),
    )
    record = evidence_store.latest_fetches()[url]
    assert (record.snapshot_hash, record.recipe, record.fetched_at) == (digest, "r", at(1))
    assert evidence_store.snapshot_text(digest) == text
    (check,) = evidence_store.latest_checks()
    assert (check.run_id, check.snapshot_hash, check.recipe) == (run, digest, "r")
    assert evidence_store.validators(url, ["r"]) == Validators('"v1"', record.last_modified)


# --- checks ---------------------------------------------------------------------------------


def test_run_checks_are_one_runs_checks_in_the_order_recorded(
    evidence_store: EvidenceStore,
) -> None:
    first = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_check(first, checked("earlier"))
    evidence_store.finish_run(first, at(1))
    run = evidence_store.begin_run(at(2), "claims.yaml")
    made = [checked(name, checked_at=at(3)) for name in ("b-claim", "a-claim", "c-claim")]
    for check in made:
        evidence_store.record_check(run, check)
    streamed = evidence_store.run_checks(run)
    assert next(streamed) == replace(made[0], run_id=run)  # read as asked, not all at once
    assert [c.claim_id for c in streamed] == ["a-claim", "c-claim"]
    assert list(evidence_store.run_checks(run + 1)) == []


def test_a_check_round_trips_with_its_word_changes(evidence_store: EvidenceStore) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    digest = evidence_store.put_snapshot("text", "https://a.test/", at(0))
    check = checked(
        status="drifted",
        match_kind=None,
        similarity=0.96,
        current="While a storage operation is executing, events may be delivered.",
        meaning_changed=True,
        changed_words=(
            WordChange("replace", "no", "may", True, "negation removed"),
            WordChange("insert", "", "be", False),
        ),
        change_kinds=("negation removed",),
        snapshot_hash=digest,
        checked_at=at(3),
    )
    evidence_store.record_check(run, check)
    (back,) = evidence_store.latest_checks()
    assert back.changed_words == (
        WordChange("replace", "no", "may", True, "negation removed"),
        WordChange("insert", "", "be", False),
    )
    assert back.change_kinds == ("negation removed",)
    assert all(type(change) is WordChange for change in back.changed_words)
    assert match.WordChange is WordChange  # the matcher's changes are the ones stored
    assert back == replace(check, run_id=run)


def test_a_check_of_an_unreadable_source_has_no_status(evidence_store: EvidenceStore) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    unread = checked(
        source_status="unreachable",
        status=None,
        match_kind=None,
        similarity=None,
        current=None,
        occurrences=0,
        context_before=None,
        context_after=None,
    )
    evidence_store.record_check(run, unread)
    (back,) = evidence_store.latest_checks()
    assert (back.status, back.source_status, back.similarity) == (None, "unreachable", None)


def test_latest_checks_and_history_across_runs(evidence_store: EvidenceStore) -> None:
    first = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_check(first, checked("input-gate", checked_at=at(0)))
    evidence_store.record_check(first, checked("output-gate", checked_at=at(0)))
    evidence_store.finish_run(first, at(1))
    second = evidence_store.begin_run(at(10), "claims.yaml")
    evidence_store.record_check(
        second, checked("input-gate", status="missing", match_kind=None, checked_at=at(10))
    )
    evidence_store.finish_run(second, at(11))

    latest = {check.claim_id: check for check in evidence_store.latest_checks()}
    assert (latest["input-gate"].status, latest["input-gate"].run_id) == ("missing", second)
    assert (latest["output-gate"].status, latest["output-gate"].run_id) == ("verified", first)

    history = evidence_store.checks_for_claim("input-gate")
    assert [(check.status, check.checked_at) for check in history] == [
        ("verified", at(0)),
        ("missing", at(10)),
    ]
    assert evidence_store.checks_for_claim("no-such-claim") == []


def test_latest_checks_keeps_each_source_of_a_quote(evidence_store: EvidenceStore) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_check(run, checked(source_id="do-glossary"))
    evidence_store.record_check(run, checked(source_id="blog-2021", status="drifted"))
    statuses = {check.source_id: check.status for check in evidence_store.latest_checks()}
    assert statuses == {"do-glossary": "verified", "blog-2021": "drifted"}


def test_a_pages_last_judged_checks_are_those_of_the_whole_store(
    evidence_store: EvidenceStore,
) -> None:
    """A refresh asks for one page's last checks at a time: the same checks as the whole
    store's newest that read their page, past a run in which the page could not be read."""
    quote = checked().quote_text
    first = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_check(first, checked("input-gate", status="drifted"))
    evidence_store.record_check(first, checked("output-gate"))
    evidence_store.record_check(first, checked("output-gate", source_id="blog-2021"))
    evidence_store.finish_run(first, at(1))
    second = evidence_store.begin_run(at(10), "claims.yaml")
    unread = {"source_status": "unreachable", "status": None, "match_kind": None}
    evidence_store.record_check(second, checked("input-gate", **unread))
    evidence_store.record_check(second, checked("output-gate", status="missing"))
    evidence_store.finish_run(second, at(11))
    keys = [("input-gate", quote, "do-glossary"), ("output-gate", quote, "do-glossary")]

    found = evidence_store.latest_judged_checks([*keys, ("never-checked", quote, "do-glossary")])

    assert [(c.claim_id, c.status, c.run_id) for c in found] == [
        ("input-gate", "drifted", first),
        ("output-gate", "missing", second),
    ]
    whole = evidence_store.latest_checks(judged=True)
    assert sorted(found, key=str) == sorted((c for c in whole if check_key(c) in keys), key=str)


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE checks SET status = 'verified'",
        "DELETE FROM checks",
        "UPDATE fetches SET source_status = 'ok'",
        "DELETE FROM snapshots",
        "UPDATE runs SET ledger_path = 'x'",
        "UPDATE robots_reads SET text = ''",
        "DELETE FROM robots_reads",
    ],
)
def test_history_is_append_only(evidence_path: Path, statement: str) -> None:
    with EvidenceStore.open(evidence_path) as store:
        run = store.begin_run(at(0), "claims.yaml")
        digest = store.put_snapshot("text", "https://a.test/", at(0))
        store.record_fetch(run, fetched("https://a.test/"), digest, at(0))
        store.record_check(run, checked(snapshot_hash=digest))
        store.record_robots(run, "https://a.test", "User-agent: *", at(0))
        store.finish_run(run, at(1))
    connection = sqlite3.connect(evidence_path)
    try:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            connection.execute(statement)
    finally:
        connection.close()


def test_robots_txt_is_recalled_by_origin_newest_first_within_the_day(
    evidence_store: EvidenceStore,
) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    evidence_store.record_robots(run, "https://a.test", "Disallow: /old", at(0))
    evidence_store.record_robots(run, "https://a.test", "Disallow: /new", at(2))
    evidence_store.record_robots(run, "https://b.test", "", at(2))
    assert evidence_store.robots_read_since("https://a.test", at(1), at(5)) == "Disallow: /new"
    assert evidence_store.robots_read_since("https://b.test", at(1), at(5)) == ""  # no rules
    assert evidence_store.robots_read_since("https://a.test", at(3), at(5)) is None
    assert evidence_store.robots_read_since("https://c.test", at(0), at(5)) is None
    # one dated after now was never read: a planted row would keep the rules away for good
    assert evidence_store.robots_read_since("https://a.test", at(0), at(1)) == "Disallow: /old"
    memory = evidence_store.robots_memory(run, lambda: at(3))
    assert memory.recall("https://a.test", at(3) - at(1)) == "Disallow: /new"
    memory.keep("https://c.test", "Disallow: /")
    assert evidence_store.robots_read_since("https://c.test", at(3), at(3)) == "Disallow: /"
    evidence_store.finish_run(run, at(4))
    with pytest.raises(ValueError, match="not open"):  # written under a run's lock only
        memory.keep("https://c.test", "")


def test_a_check_naming_an_unknown_snapshot_is_rejected(evidence_store: EvidenceStore) -> None:
    run = evidence_store.begin_run(at(0), "claims.yaml")
    with pytest.raises(RuntimeError, match="FOREIGN KEY constraint failed") as refused:
        evidence_store.record_check(run, checked(snapshot_hash="f" * 64))
    # our own bad write is a bug (exit 70), never "the store is damaged, move it aside"
    assert not isinstance(refused.value, sqlite3.Error | StoreError)
    assert evidence_store.latest_checks() == []


# --- a refresh killed mid-run ---------------------------------------------------------------

WRITER = textwrap.dedent(
    """
    import sys
    from dataclasses import replace
    from datetime import UTC, datetime
    from pathlib import Path

    from claimledger.records import CheckRecord
    from claimledger.evidence.store import EvidenceStore

    now = datetime(2026, 11, 29, tzinfo=UTC)
    store = EvidenceStore.open(Path(sys.argv[1]))
    run = store.begin_run(now, "claims.yaml")
    digest = store.put_snapshot("page text " * 1000, "https://a.test/", now)
    check = CheckRecord(
        claim_id="c", quote_index=0, quote_text="q", source_id="s", url="https://a.test/",
        source_status="ok", status="verified", match_kind="exact", similarity=1.0,
        current="q", meaning_changed=False, changed_words=(), occurrences=1,
        context_before="", context_after="", snapshot_hash=digest, checked_at=now,
    )
    n = 0
    while True:
        n += 1
        store.record_check(run, replace(check, claim_id=f"claim-{n}"))
        print(n, flush=True)
    """
)


@pytest.mark.slow
def test_a_killed_refresh_keeps_every_recorded_check(evidence_path: Path) -> None:
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(evidence_path)],
        stdout=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert writer.stdout is not None
    try:
        recorded = 0
        while recorded < 200:
            line = writer.stdout.readline()
            assert line, f"writer ended early with code {writer.poll()}"
            recorded = int(line)
        # While it writes: a second refresh is refused, a reader still reads.
        with EvidenceStore.open(evidence_path) as other:
            with pytest.raises(StoreBusyError):
                other.begin_run(at(0), "claims.yaml")
            assert len(other.latest_checks()) >= recorded
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=10)
        recorded = max([recorded, *(int(line) for line in writer.stdout.read().split())])
    finally:
        if writer.poll() is None:
            writer.kill()
            writer.wait()
        writer.stdout.close()
    assert writer.returncode == -signal.SIGKILL

    with EvidenceStore.open(evidence_path) as store:
        kept = len(store.latest_checks())
        assert kept >= recorded  # every check reported as recorded survived the kill
        last = store.last_run()
        assert last is not None and last.finished_at is None
        run = store.begin_run(at(1), "claims.yaml")  # the dead writer's lock is gone
        store.record_check(run, checked())
        store.finish_run(run, at(2))
    connection = sqlite3.connect(evidence_path)
    try:
        assert connection.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        assert connection.execute("SELECT COUNT(*) FROM checks").fetchone()[0] == kept + 1
    finally:
        connection.close()


def test_a_store_of_the_first_schema_is_upgraded_in_place(tmp_path: Path) -> None:
    """Evidence is never thrown away: an older store gains the new columns and keeps its rows."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    old.execute(
        "INSERT INTO runs (started_at, ledger_path) VALUES ('2026-08-23T00:00:00+00:00', 'c')"
    )
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    with EvidenceStore.open(path) as store:
        assert store.last_run() is not None
        assert store.validators("https://docs.example/a", ["any reading"]) is None
    upgraded = sqlite3.connect(path)
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    columns = {row[1] for row in upgraded.execute("PRAGMA table_info(checks)")}
    tables = {row[0] for row in upgraded.execute("SELECT name FROM sqlite_master")}
    kept = {row[1] for row in upgraded.execute("PRAGMA table_info(quote_histories)")}
    upgraded.close()
    assert {"recipe", "moved_within"} <= columns
    assert {"unread_json", "ref", "history_version"} <= kept  # the docs' history
    assert "render_states" in tables
    assert {"relocations", "archive_saves"} <= tables  # recovery, preservation
    assert {"archive_lookups", "archived_copies", "as_read_checks"} <= tables  # as read


def test_a_store_whose_first_schema_already_had_the_recipe_is_upgraded(tmp_path: Path) -> None:
    """For a while the first migration made the `recipe` columns itself: such a store, at
    schema 1 with them, is upgraded with its rows, not refused as unreadable."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for statement in MIGRATIONS[0]:
        old.execute(statement)
    for statement in MIGRATIONS[1]:  # as that version's first migration made them
        old.execute(statement)
    old.execute(
        "INSERT INTO runs (started_at, ledger_path) VALUES ('2026-08-23T00:00:00+00:00', 'c')"
    )
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    with EvidenceStore.open(path) as store:
        assert store.last_run() is not None
    upgraded = sqlite3.connect(path)
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    upgraded.close()


def test_a_store_holding_a_column_its_schema_has_not_added_yet_is_refused(
    tmp_path: Path,
) -> None:
    """Only that stretch's `recipe` columns are taken as already added: a store at schema 2
    already holding a column schema 3 adds (of any type or constraint, made by something
    else than claimledger) is no store of ours, and is refused, not upgraded around it."""
    path = tmp_path / "odd.sqlite3"
    odd = _schema_two_store(path)
    odd.execute("ALTER TABLE fetches ADD COLUMN canonical BLOB NOT NULL DEFAULT x''")
    odd.commit()
    odd.close()

    with pytest.raises(StoreDamagedError, match="duplicate column name: canonical"):
        EvidenceStore.open(path)


def _schema_two_store(path: Path) -> sqlite3.Connection:
    """A store as version 2 wrote it, before validators were kept per answering URL."""
    db = sqlite3.connect(path)
    for statements in MIGRATIONS[:2]:
        for statement in statements:
            db.execute(statement)
    db.execute("PRAGMA user_version = 2")
    return db


def test_readings_that_reused_another_addresss_snapshot_are_no_evidence(tmp_path: Path) -> None:
    """What version 2 recorded for a moved page: run 1 read the old address whole; run 2 was
    redirected, sent the old address's validators to the new one, got a 304 and reused the
    old text, so a removed sentence read as verified. Those rows stay in history, marked,
    and are never evidence or a source of validators again."""
    path = tmp_path / "v2.sqlite3"
    db = _schema_two_store(path)
    old, new = "https://docs.test/old/", "https://docs.test/new/"
    quote = "While a storage operation is executing, no events are delivered."
    lm = "Wed, 21 Oct 2026 07:28:00 GMT"
    text = zlib.compress(b"old text").hex()
    db.executescript(
        f"""
        INSERT INTO runs (id, started_at, ledger_path) VALUES
          (1, '2026-08-23T00:00:00.000000+00:00', 'c'),
          (2, '2026-09-23T00:00:00.000000+00:00', 'c');
        INSERT INTO snapshots VALUES
          ('h-old', '{old}', '2026-08-23T00:00:00.000000+00:00', 8, x'{text}');
        INSERT INTO fetches (run_id, url, final_url, http_status, source_status, moved_to,
          redirects_json, etag, last_modified, content_type, error, not_modified, attempts,
          elapsed, snapshot_hash, fetched_at, recipe) VALUES
          (1, '{old}', '{old}', 200, 'ok', NULL, '[]', NULL, '{lm}', 'text/html', NULL, 0, 1,
           0.1, 'h-old', '2026-08-23T00:00:00.000000+00:00', 'r'),
          (2, '{old}', '{new}', 304, 'moved', '{new}', '[["{old}", 301]]', NULL, '{lm}',
           NULL, NULL, 1, 1, 0.1, 'h-old', '2026-09-23T00:00:00.000000+00:00', 'r');
        INSERT INTO checks (run_id, claim_id, quote_index, quote_text, source_id, url,
          source_status, status, match_kind, similarity, current, meaning_changed, changed_json,
          occurrences, context_before, context_after, snapshot_hash, checked_at, recipe) VALUES
          (1, 'input-gate', 0, '{quote}', 'glossary', '{old}', 'ok', 'verified', 'exact', 1.0,
           '{quote}', 0, '[]', 1, '', '', 'h-old', '2026-08-23T00:00:00.000000+00:00', 'r'),
          (2, 'input-gate', 0, '{quote}', 'glossary', '{old}', 'moved', 'verified', 'exact', 1.0,
           '{quote}', 0, '[]', 1, '', '', 'h-old', '2026-09-23T00:00:00.000000+00:00', 'r');
        """
    )
    db.commit()
    db.close()
    with EvidenceStore.open(path) as store:
        latest = store.latest_checks()
        assert [(c.run_id, c.status, c.source_status) for c in latest] == [(1, "verified", "ok")]
        assert store.latest_judged_checks([("input-gate", quote, "glossary")]) == latest
        history = store.checks_for_claim("input-gate")
        assert [(c.run_id, c.misread) for c in history] == [(1, False), (2, True)]
        assert store.validators(new, ["r"]) is None  # the misread 304 vouches for nothing
        assert store.answered_snapshot(new, "r", Validators(None, lm)) is None
        assert store.latest_fetches()[old].misread is True
        assert store.snapshot_at(old, None) is not None  # only the honest reading is left


def test_verdicts_are_the_latest_checks_in_the_fields_the_rules_weigh(
    evidence_path: Path,
) -> None:
    """`latest_verdicts` is what a regrade reads: the same rows as `latest_checks`, the
    same damaged rows skipped, each field equal to the record's."""
    with EvidenceStore.open(evidence_path) as store:
        first = store.begin_run(at(0), "claims.yaml")
        store.record_check(first, checked("a"))
        store.record_check(first, checked("b", status="missing", current=None))
        store.finish_run(first, at(1))
        second = store.begin_run(at(2), "claims.yaml")
        store.record_check(
            second,
            checked(
                "a",
                status="drifted",
                meaning_changed=True,
                change_kinds=("negation added",),
                current="no events are ever delivered.",
                checked_at=at(2),
            ),
        )
        store.record_check(second, checked("c", source_status="unreachable", status=None))
        store.finish_run(second, at(3))
    with sqlite3.connect(evidence_path) as db:  # a row no version of claimledger writes
        db.row_factory = sqlite3.Row
        row = dict(db.execute("SELECT * FROM checks WHERE claim_id = 'c'").fetchone())
        row.update(id=None, changed_json="{not json", checked_at=at(4).isoformat())
        marks = ", ".join("?" for _ in row)
        db.execute(f"INSERT INTO checks ({', '.join(row)}) VALUES ({marks})", list(row.values()))
    with EvidenceStore.open(evidence_path, readonly=True) as store:
        checks = store.latest_checks()
        damaged = store.damaged_rows
        verdicts = store.latest_verdicts()
        assert store.damaged_rows == damaged == 1  # the same row met twice, said once
    assert [c.claim_id for c in checks] == ["b", "a"]
    assert len(verdicts) == len(checks)
    for verdict, check in zip(verdicts, checks, strict=True):
        for name in verdict._fields:
            assert getattr(verdict, name) == getattr(check, name), name
