"""Pages read in worker processes: the same checks as inline, the same outcome when a
reading fails, and an interrupted or killed run that keeps what it recorded and leaves no
worker behind; and a long run on one host: no URL late for having waited its turn, no
more pages fetched ahead than a window. Behaviour only: how fast it is,
benchmarks/bench_refresh.py says."""

from __future__ import annotations

import asyncio
import datetime as dt
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from claimledger.errors import EnvironmentProblem
from claimledger.evidence import pagepool
from claimledger.evidence.pagepool import POOL_FROM, PagePool, cores, page_readers
from claimledger.evidence.refresh import PageTask, Readers, Reading, plan, read_task, refresh
from claimledger.evidence.store import EvidenceStore
from claimledger.ledger.model import Ledger, parse
from claimledger.records import CheckRecord, FetchPolicy, FetchResult, check_key
from claimledger.web.fetch import fetch_all, fetch_each, make_client
from webserver import Exchange, PageServer, stall_after_headers

POLICY = FetchPolicy(allow_private=True, timeout=5, retries=0, per_host_interval=0)
NOW = dt.datetime(2026, 11, 30, 12, 0, tzinfo=dt.UTC)
PAGES = 30
SIDEBAR = "Only the sidebar says that page {page} is fast."


def sentence(page: int, n: int) -> str:
    return f"Page {page} says in sentence {n} that every write on shard {n} is durable."


def page_html(page: int, *, later: bool = False) -> str:
    """A docs page: a heading per section, the sentences the quotes are taken from (some
    reworded or negated `later`), a sidebar and a script that are not its text."""
    said = [sentence(page, n) for n in range(6)]
    if later:
        said[1] = said[1].replace("durable", "persistent")  # a harmless rewording
        said[2] = said[2].replace("is durable", "is not durable")  # a change of meaning
        said[3] = "This sentence replaced the old one entirely."
    said.append(said[0])  # a sentence repeated: its neighbourhood decides the place
    sections = "".join(
        f"<h2>Part {n}</h2><p>Before it. {text} After it.</p>" for n, text in enumerate(said)
    )
    return (
        f"<html><head><title>P{page}</title><script>var x = {page};</script></head><body>"
        f"<nav><a href='/'>Home</a> {SIDEBAR.format(page=page)}</nav><main><article>"
        f"<h1>Page {page}</h1>{sections}</article></main><footer>2026</footer></body></html>"
    )


def ledger_text(server: PageServer, pages: int) -> str:
    lines = [
        "ledger: 1",
        "title: T",
        "date_read: 2026-08-23",
        "sections: [{id: s, title: S}]",
        "sources:",
    ]
    for p in range(pages):
        lines.append(
            f"  s{p}: {{url: '{server.url(f'/p{p}')}', title: T, kind: docs, publisher: p}}"
        )
        lines.append(
            f"  t{p}: {{url: '{server.url(f'/p{p}')}', title: T, kind: docs, publisher: q, "
            "select: article}"
        )
    lines.append("claims:")
    for p in range(pages):
        quotes = [
            *(f"      - {{text: '{sentence(p, n)}', sources: [s{p}, t{p}]}}" for n in range(4)),
            f"      - {{text: '{SIDEBAR.format(page=p)}', sources: [s{p}, t{p}]}}",
            f"      - {{text: '{sentence(p, 0)}', sources: [s{p}], under: 'Part 6'}}",
        ]
        lines += [
            f"  - id: c{p}",
            "    section: s",
            "    title: T",
            "    kind: guarantee",
            "    statement: S.",
            "    quotes:",
            *quotes,
            "    grades: [{on: w, grade: CLAIMED, basis: quotes}]",
        ]
    return "\n".join(lines) + "\n"


def serve(server: PageServer, pages: int, *, later: bool = False) -> None:
    for p in range(pages):
        version = "v2" if later and p % 2 else "v1"  # half the pages change
        server.set_page(
            f"/p{p}", page_html(p, later=later and p % 2 == 1), headers={"ETag": f'"{version}"'}
        )


def run(ledger: Ledger, store_path: Path, readers: Readers | None) -> list[Reading]:
    """One refresh recorded page by page, as the command line records it."""

    async def go() -> list[Reading]:
        readings = []
        with EvidenceStore.open(store_path) as store:
            run_id = store.begin_run(NOW, "claims.yaml")
            async with make_client(POLICY, trust_env=False) as client:
                loop = refresh(
                    plan(ledger),
                    client=client,
                    earlier=store,
                    now=lambda: NOW,
                    policy=POLICY,
                    readers=readers,
                )
                async for reading in loop:
                    store.record_page(
                        run_id,
                        reading.fetch,
                        snapshot_hash=reading.snapshot_hash,
                        new_snapshot=reading.new_snapshot,
                        new_snapshot_zlib=reading.new_snapshot_zlib,
                        recipe=reading.recipe,
                        checks=reading.checks,
                        now=NOW,
                    )
                    readings.append(reading)
            store.finish_run(run_id, NOW)
        return readings

    return asyncio.run(go())


def by_key(readings: list[Reading]) -> dict[tuple[str, str, str, int], CheckRecord]:
    return {
        (*check_key(check), check.quote_index): check
        for reading in readings
        for check in reading.checks
    }


def pages_of(readings: list[Reading]) -> dict[tuple[str, str], tuple[object, ...]]:
    """Each reading's fetch (but how long it took), snapshot and new text."""
    return {
        (r.fetch.url, r.recipe): (replace(r.fetch, elapsed=0.0), r.snapshot_hash, r.new_snapshot)
        for r in readings
    }


def latest(store: Path) -> list[CheckRecord]:
    with EvidenceStore.open(store, readonly=True) as evidence:
        checks = evidence.latest_checks()
    return sorted(
        (replace(check, run_id=None) for check in checks),
        key=lambda check: (*check_key(check), check.quote_index),
    )


def test_a_long_refresh_through_the_pool_gives_exactly_the_inline_checks(
    page_server: PageServer, tmp_path: Path
) -> None:
    serve(page_server, PAGES)
    ledger = parse(ledger_text(page_server, PAGES))
    inline_store, pooled_store = tmp_path / "inline.sqlite3", tmp_path / "pooled.sqlite3"
    with page_readers(PAGES, workers=2) as readers:
        assert isinstance(readers, PagePool)
        for later in (False, True, True):  # read, then changed (and 304s), then all 304s
            serve(page_server, PAGES, later=later)
            inline = run(ledger, inline_store, None)
            pooled = run(ledger, pooled_store, readers)
            assert len(pooled) == len(inline) == 2 * PAGES
            assert by_key(pooled) == by_key(inline)
            assert pages_of(pooled) == pages_of(inline)
            for reading in pooled:  # compressed in the worker, kept as the store keeps it
                assert (reading.new_snapshot is None) == (reading.new_snapshot_zlib is None)
    statuses = {check.status for check in by_key(inline).values()}
    assert statuses == {"verified", "drifted", "missing"}
    assert latest(pooled_store) == latest(inline_store)
    with EvidenceStore.open(inline_store) as a, EvidenceStore.open(pooled_store) as b:
        for reading in pooled:
            if reading.snapshot_hash is not None:
                text = a.snapshot_text(reading.snapshot_hash)
                assert b.snapshot_text(reading.snapshot_hash) == text


def test_a_short_refresh_starts_no_pool() -> None:
    with page_readers(POOL_FROM - 1) as readers:
        assert readers is None


DEEP = (
    "<html><body><main>"
    + "<div>" * 3000
    + "Deep words."
    + "</div>" * 3000
    + "</main></body></html>"
)


def test_a_page_whose_reading_fails_in_a_worker_is_recorded_as_inline(
    page_server: PageServer, tmp_path: Path
) -> None:
    serve(page_server, PAGES)
    page_server.set_page("/p3", DEEP)  # nested deeper than the parser reads
    ledger = parse(
        ledger_text(page_server, PAGES).replace("select: article", "select: '#nowhere'", 2)
    )
    with page_readers(PAGES, workers=2) as readers:
        pooled = run(ledger, tmp_path / "pooled.sqlite3", readers)
    inline = run(ledger, tmp_path / "inline.sqlite3", None)
    assert pages_of(pooled) == pages_of(inline)
    assert by_key(pooled) == by_key(inline)
    unread = {(r.fetch.url, r.fetch.error) for r in pooled if r.fetch.source_status == "unreadable"}
    assert len(unread) == 3  # p3 through both readings, and a selector that matches nothing
    assert any("nested too deeply" in (error or "") for _, error in unread)
    assert any("matched nothing" in (error or "") for _, error in unread)


def test_an_exception_in_a_worker_is_raised_as_inline(page_server: PageServer) -> None:
    serve(page_server, 1)
    ledger = parse(ledger_text(page_server, 1))
    job = plan(ledger)[0]
    broken = replace(_fetched(page_server), text=b"<p>bytes, not text</p>")  # type: ignore[arg-type]
    task = PageTask(broken, None, (job,), {}, None, {}, NOW)
    with pytest.raises(AttributeError) as inline:
        read_task(task)

    async def in_a_worker() -> None:
        with page_readers(2, workers=1) as readers:
            assert readers is not None
            await readers.read(task)

    with pytest.raises(AttributeError) as pooled:
        asyncio.run(in_a_worker())
    assert str(pooled.value) == str(inline.value)


class Dies:
    """A value that ends the process unpickling it (a worker killed while reading)."""

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return os._exit, (1,)


def test_a_worker_that_dies_fails_the_run_with_what_happened(page_server: PageServer) -> None:
    serve(page_server, 1)
    task = PageTask(
        _fetched(page_server),
        None,
        tuple(plan(parse(ledger_text(page_server, 1)))),
        {},
        None,
        {},
        NOW,
    )
    dying = replace(task, fetched=replace(task.fetched, text=Dies()))  # type: ignore[arg-type]

    async def read_both() -> None:
        with page_readers(2, workers=1) as readers:
            assert readers is not None
            assert (await readers.read(task)).checks == read_task(task).checks
            await readers.read(dying)

    with pytest.raises(EnvironmentProblem, match="page reader process died"):
        asyncio.run(read_both())


def test_without_worker_processes_the_pool_reads_inline(
    page_server: PageServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def no_processes() -> None:
        raise OSError("this platform lacks a functioning sem_open implementation")

    monkeypatch.setattr(pagepool, "process_context", no_processes)
    serve(page_server, PAGES)
    ledger = parse(ledger_text(page_server, PAGES))
    with page_readers(PAGES, workers=2) as readers:
        pooled = run(ledger, tmp_path / "pooled.sqlite3", readers)
    inline = run(ledger, tmp_path / "inline.sqlite3", None)
    assert by_key(pooled) == by_key(inline)


def _fetched(server: PageServer) -> FetchResult:
    async def go() -> FetchResult:
        async with make_client(POLICY, trust_env=False) as client:
            return (await fetch_all([server.url("/p0")], client, policy=POLICY))[server.url("/p0")]

    return asyncio.run(go())


# --------------------------------------------------------------------------- long runs


def test_a_url_waiting_its_turn_behind_a_slow_host_is_not_past_its_deadline(
    page_server: PageServer,
) -> None:
    def slow(exchange: Exchange) -> None:
        exchange.pause(0.3)
        exchange.respond(200, b"<p>a page</p>", {"Content-Type": "text/html"})

    for n in range(5):
        page_server.set_handler(f"/slow/{n}", slow)
    policy = replace(POLICY, concurrency=1, per_host=1, deadline=0.5)
    urls = [page_server.url(f"/slow/{n}") for n in range(5)]

    async def go() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False) as client:
            return await fetch_all(urls, client, policy=policy)

    results = asyncio.run(go())  # one at a time: the last waits 1.2 s for its turn
    assert [results[url].source_status for url in urls] == ["ok"] * 5


def test_a_slow_reader_holds_only_a_window_of_pages_fetched_ahead(
    page_server: PageServer,
) -> None:
    for n in range(30):
        page_server.set_page(f"/p{n}", f"<p>page {n}</p>")
    policy = replace(POLICY, concurrency=4, per_host=4)
    ahead = 2 * policy.concurrency  # begun and not yet read

    async def go() -> list[int]:
        asked = []
        async with make_client(policy, trust_env=False) as client:
            urls = [page_server.url(f"/p{n}") for n in range(30)]
            async for _ in fetch_each(urls, client, policy=policy):
                await asyncio.sleep(0.05)  # a slow reader: the fetches run on meanwhile
                asked.append(len(page_server.page_requests))
        return asked

    asked = asyncio.run(go())
    assert len(asked) == 30
    assert all(count <= read + ahead for read, count in enumerate(asked, start=1))


# --------------------------------------------------------------------------- stopped runs


def descendants(pid: int) -> list[int]:
    """Every live process below `pid` (Linux's /proc)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if stat[0] != "Z":
                parents.setdefault(int(stat[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return False
    return stat[0] != "Z"


def wait_for(condition: Callable[[], bool], seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "gave up waiting"
        time.sleep(0.05)


def recorded_checks(store: Path) -> int:
    if not store.exists():
        return 0
    with EvidenceStore.open(store, readonly=True) as evidence:
        return len(evidence.latest_checks())


FAST = POOL_FROM  # pages that answer at once; as many again stall until the signal


def start_a_long_refresh(server: PageServer, folder: Path) -> subprocess.Popen[str]:
    serve(server, 2 * FAST)
    for p in range(FAST, 2 * FAST):
        server.set_handler(f"/p{p}", stall_after_headers(4096, for_seconds=60))
    ledger = folder / "claims.yaml"
    ledger.write_text(ledger_text(server, 2 * FAST))
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "refresh"]
    return subprocess.Popen(
        [*command, "--allow-private", "--timeout", "60"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


needs_proc = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc")
needs_cores = pytest.mark.skipif(cores() < 2, reason="one core: a refresh starts no pool")


@pytest.mark.slow
@needs_proc
@needs_cores
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "killed"])
def test_a_stopped_run_keeps_the_pages_it_recorded_and_leaves_no_worker(
    page_server: PageServer, tmp_path: Path, stop: signal.Signals
) -> None:
    store = tmp_path / "out" / "evidence.sqlite3"
    with start_a_long_refresh(page_server, tmp_path) as process:
        # every reading of the pages that answer (two a page: one through a selector, in a
        # process of its own, may come a little after the other); the stalled pages wait on
        wait_for(lambda: recorded_checks(store) == 10 * FAST, seconds=120)
        helpers = descendants(process.pid)  # the pool's processes
        assert helpers
        process.send_signal(stop)
        _, stderr = process.communicate(timeout=30)
    if stop == signal.SIGINT:
        assert process.returncode == 130
        assert stderr.splitlines()[-1] == "claimledger: interrupted"
    else:
        assert process.returncode == -signal.SIGKILL
    wait_for(lambda: not any(alive(pid) for pid in helpers), seconds=10)
    with EvidenceStore.open(store, readonly=True) as evidence:
        fetches = evidence.latest_fetches()
        checks = evidence.latest_checks()
        run = evidence.last_run()
    assert sorted(fetches) == sorted(page_server.url(f"/p{p}") for p in range(FAST))
    assert {fetch.source_status for fetch in fetches.values()} == {"ok"}
    assert len(checks) == 10 * FAST  # every page recorded whole (ten quotes on two sources)
    assert run is not None and run.finished_at is None  # cut short, and says so
