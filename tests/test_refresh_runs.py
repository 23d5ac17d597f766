"""Long refreshes: on one host no URL late for having waited its turn, no more pages
fetched ahead than a window; and an interrupted or killed run that keeps what it recorded
and leaves no helper process behind. Behaviour only: how fast it is,
benchmarks/bench_refresh.py says."""

from __future__ import annotations

import asyncio
import gc
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from claimledger.evidence.store import EvidenceStore
from claimledger.records import FetchPolicy, FetchResult
from claimledger.services.stores import for_reading
from claimledger.web.fetch import fetch_all, fetch_each, make_client
from cli_runner import Cli, all_on_terminal, installed
from webserver import Exchange, PageServer, stall_after_headers

POLICY = FetchPolicy(allow_private=True, timeout=5, retries=0, per_host_interval=0)
SIDEBAR = "Only the sidebar says that page {page} is fast."


def sentence(page: int, n: int) -> str:
    return f"Page {page} says in sentence {n} that every write on shard {n} is durable."


def page_html(page: int) -> str:
    """A docs page: a heading per section, the sentences the quotes are taken from, a
    sidebar and a script that are not its text."""
    said = [sentence(page, n) for n in range(6)]
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


def serve(server: PageServer, pages: int) -> None:
    for p in range(pages):
        server.set_page(f"/p{p}", page_html(p), headers={"ETag": '"v1"'})


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


def test_a_refreshs_lines_come_in_the_ledgers_order_whichever_page_answers_first(
    page_server: PageServer, tmp_path: Path
) -> None:
    """The line a page gets on stderr came as the pages answered, so the same refresh
    printed its lines in another order run to run (the demo's, a CI log). The ledger's
    first page here answers only once the other two are recorded, both readings of each:
    its lines still come first."""
    serve(page_server, 3)
    store = tmp_path / "out" / "evidence.sqlite3"

    def last(exchange: Exchange) -> None:
        while recorded_checks(store) < 20 and not page_server.errors:  # ten a page
            exchange.pause(0.01)
        exchange.respond(200, page_html(0).encode(), {"Content-Type": "text/html"})

    page_server.set_handler("/p0", last)
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ledger_text(page_server, 3))

    done = Cli(ledger)("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    said = [line.split()[-1] for line in done.stderr.splitlines()]
    assert said == [page_server.url(f"/p{p}") for p in (0, 0, 1, 1, 2, 2)], done.stderr


@pytest.mark.slow
def test_a_refresh_on_a_terminal_reads_its_pages_and_says_them_in_the_ledgers_order(
    page_server: PageServer, tmp_path: Path
) -> None:
    """On a terminal a refresh stopped before it read a page, "internal error: TypeError"
    (exit 70): the progress bar takes its console with `with`, which the console opened
    on its first use did not answer. It reads every page, and with --verbose says each
    in the ledger's order above the bar."""
    serve(page_server, 3)
    (tmp_path / "claims.yaml").write_text(ledger_text(page_server, 3))

    refresh = ("-v", "refresh", "--allow-private", "--no-as-read", "--no-history")
    code, shown = all_on_terminal(*refresh, cwd=tmp_path, columns=200)

    assert code == 1 and "internal error" not in shown, shown
    lines = shown.replace("\r", "\n").splitlines()
    said = [line.split()[1] for line in lines if line.startswith("ok ")]
    assert said == [f"{page_server.url(f'/p{p}')}:" for p in (0, 0, 1, 1, 2, 2)], shown
    assert recorded_checks(tmp_path / "out" / "evidence.sqlite3") == 30


@pytest.mark.slow
def test_a_refresh_on_a_dumb_terminal_says_each_page_as_it_would_to_a_pipe(
    page_server: PageServer, tmp_path: Path
) -> None:
    """A dumb terminal (TERM=dumb: an editor's shell buffer) cannot redraw a progress bar:
    a refresh there said nothing while it read, and then printed a blank line. It says
    each page read, a line each in the ledger's order, as it does to a pipe."""
    serve(page_server, 3)
    (tmp_path / "claims.yaml").write_text(ledger_text(page_server, 3))

    refresh = ("refresh", "--allow-private", "--no-as-read", "--no-history")
    code, shown = all_on_terminal(*refresh, cwd=tmp_path, environment={"TERM": "dumb"})

    assert code == 1, shown
    lines = shown.splitlines()
    said = [line.split() for line in lines[:6]]
    assert said == [["ok", page_server.url(f"/p{p}")] for p in (0, 0, 1, 1, 2, 2)], shown
    assert lines[6].startswith("Refresh: "), shown


@pytest.mark.slow
def test_force_color_colours_a_refresh_in_a_pipe_but_draws_no_progress_bar_there(
    page_server: PageServer, tmp_path: Path
) -> None:
    """FORCE_COLOR (a CI log in colour) made rich take a pipe for a terminal: a refresh
    wrote every frame of its progress bar into the log, with the codes that hide the
    cursor and erase lines, and none of the lines a page read gets. Those lines are
    written, and no frame."""
    serve(page_server, 3)
    (tmp_path / "claims.yaml").write_text(ledger_text(page_server, 3))

    refresh = ("refresh", "--allow-private", "--no-as-read", "--no-history")
    done = installed(*refresh, cwd=tmp_path, code=1, environment={"FORCE_COLOR": "1"})

    assert "fetching" not in done.stderr and "\x1b[?25l" not in done.stderr, done.stderr
    said = [line.split() for line in done.stderr.splitlines()]
    assert said == [["ok", page_server.url(f"/p{p}")] for p in (0, 0, 1, 1, 2, 2)], done.stderr


def test_a_page_held_back_for_the_ledgers_order_keeps_only_its_lines(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Behind a slow first page every later page's line waits; the reading it came from
    was kept meanwhile, its page's text and all, so a ledger of thousands of pages kept
    each page read after a slow first one in memory. Only its lines wait now."""
    from claimledger.evidence.refresh import Reading
    from claimledger.terminal.refresh import progress

    def read(url: str) -> Reading:
        fetched = FetchResult(url, url, 200, "ok", (), None, None, None, "text/html", None,
                              False, None, 1, 0.0, None)  # fmt: skip
        return Reading(fetched, "hash", "Every write is durable. " * 10_000, "text", ())

    first, second = "https://docs.example/first", "https://docs.example/second"
    with progress([first, second], quiet=False) as tick:
        later = read(second)
        kept = weakref.ref(later)
        tick(later)
        del later
        gc.collect()
        assert kept() is None, "the reading of a page held back is kept"
        tick(read(first))

    said = [line.split()[-1] for line in capsys.readouterr().err.splitlines()]
    assert said == [first, second]


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
    """The checks the running refresh has recorded, read as a command that only reads
    does: none while the store it is making holds nothing yet (no schema written)."""
    with for_reading(store, lambda said: None) as evidence:
        return 0 if evidence is None else len(evidence.latest_checks())


FAST = 48  # pages that answer at once; as many again stall until the signal


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


@pytest.mark.slow
@needs_proc
@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGKILL], ids=["ctrl-c", "killed"])
def test_a_stopped_run_keeps_the_pages_it_recorded_and_leaves_no_helper(
    page_server: PageServer, tmp_path: Path, stop: signal.Signals
) -> None:
    store = tmp_path / "out" / "evidence.sqlite3"
    with start_a_long_refresh(page_server, tmp_path) as process:
        # every reading of the pages that answer (two a page: one through a selector, in a
        # process of its own, may come a little after the other); the stalled pages wait on
        wait_for(lambda: recorded_checks(store) == 10 * FAST, seconds=120)
        helpers = descendants(process.pid)  # the selections' fork server
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
