"""Refresh benchmark: 200 docs-like pages, 1,000 labelled quotes, a real loopback server.

Pages are ~100 KiB of HTML each (a large nav sidebar, inline scripts and styles,
tables, code) served with 50 ms latency and ETags. `claimledger refresh` runs in a
subprocess twice: cold, then warm (every page answers 304). Prints wall times,
throughput, the CPU time of the refresh and of any helper process (a selection's fork
server; and how many cores that kept busy), the peak RSS of the refresh process and of
each helper (read from /proc while they run: `getrusage(RUSAGE_CHILDREN)` sees only the
waited-for main process), and the status accuracy against the labels (60% verbatim, 20% reworded
of which half change meaning, 20% removed). The refresh runs at 16 requests in flight
on the one host (`--in-flight N`: --concurrency N --per-host N --interval 0; the
defaults for real sites are 16 in all, 4 per host, 50 ms apart), with --allow-private
(the corpus is on 127.0.0.1).

First it times the fetcher's own waits, which tests/test_fetch.py asserts as behaviour
(the waits asked for, the statuses produced) and never by the clock: the gap between
request starts to one host, the wait a Retry-After asks for, how soon a body trickling
past the timeout, a URL past its deadline, and a body declared over the cap are given up.

    python tests/benchmarks/bench_refresh.py [--pages N] [--in-flight N]
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from launcher import Launcher

from claimledger.records import FetchPolicy, FetchResult
from claimledger.web.fetch import fetch_all, make_client
from webserver import Exchange, Page, PageServer, sequence, stall_after_headers, trickle

PAGES = int(sys.argv[sys.argv.index("--pages") + 1]) if "--pages" in sys.argv else 200
"""Pages served (`--pages N`: 1,000 or 3,000 show whether memory stays flat)."""
IN_FLIGHT = int(sys.argv[sys.argv.index("--in-flight") + 1]) if "--in-flight" in sys.argv else 16
"""Requests in flight to the one host (`--in-flight N`)."""
QUOTES_PER_PAGE = 5
LATENCY = 0.05
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ne",
    "su",
    "ra",
    "ti",
    "vo",
    "pe",
    "da",
    "gu",
    "bi",
    "ze",
    "fo",
    "ly",
    "ch",
    "an",
    "ex",
    "st",
    "or",
]
STOPWORDS = [
    "the",
    "a",
    "of",
    "to",
    "in",
    "and",
    "is",
    "for",
    "on",
    "with",
    "as",
    "by",
    "that",
    "this",
    "from",
    "at",
]


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentence(rng: random.Random, vocab: list[str], words: int) -> list[str]:
    out = []
    for _ in range(words):
        out.append(rng.choice(STOPWORDS) if rng.random() < 0.3 else rng.choice(vocab))
    out[0] = out[0].capitalize()
    return out


def text(words: list[str]) -> str:
    return " ".join(words) + "."


def harmless(rng: random.Random, vocab: list[str], words: list[str]) -> list[str]:
    changed = list(words)
    content = [i for i, w in enumerate(changed) if w.lower() not in STOPWORDS and i > 0]
    changed[rng.choice(content)] = rng.choice(vocab)
    return changed


def negated(words: list[str]) -> list[str]:
    return [*words[:3], "not", *words[3:]]


def boilerplate(rng: random.Random, vocab: list[str]) -> tuple[str, str, str]:
    nav = "".join(
        f"<li><a href='/docs/{rng.choice(vocab)}/'>{rng.choice(vocab)} {rng.choice(vocab)}</a></li>"
        for _ in range(1000)
    )
    script = "var config = " + json.dumps({rng.choice(vocab): rng.random() for _ in range(900)})
    style = "".join(f".c{i} {{ margin: {i}px; color: #{i:06x}; }}\n" for i in range(600))
    return f"<nav><ul>{nav}</ul></nav>", f"<script>{script}</script>", f"<style>{style}</style>"


def page_html(
    rng: random.Random, vocab: list[str], sentences: list[str], chrome: tuple[str, str, str]
) -> str:
    nav, script, style = chrome
    paragraphs = []
    for s in sentences:
        filler = " ".join(text(sentence(rng, vocab, rng.randint(10, 18))) for _ in range(3))
        paragraphs.append(f"<p>{filler} {s} {filler}</p>")
    rows = "".join(
        f"<tr><td>{rng.choice(vocab)}</td><td>{rng.randint(1, 99)} ms</td></tr>" for _ in range(30)
    )
    code = "\n".join(f"const {rng.choice(vocab)} = {rng.randint(0, 999)};" for _ in range(40))
    return (
        f"<!doctype html><html><head><title>Doc</title>{style}{script}</head><body>"
        f"<header>Docs</header>{nav}<main><article><h1>{rng.choice(vocab)}</h1>"
        f"{''.join(paragraphs)}<table>{rows}</table><pre><code>{code}</code></pre>"
        f"</article></main><footer>Last updated 2026</footer></body></html>"
    )


def build(server: PageServer, folder: Path) -> dict[tuple[str, int], tuple[str, bool]]:
    """Serve the pages, write the ledger; return the expected (status, meaning_changed)."""
    rng = random.Random(20260823)
    vocab = vocabulary(rng)
    labels: dict[tuple[str, int], tuple[str, bool]] = {}
    sources, claims = [], []
    for p in range(PAGES):
        chrome = boilerplate(rng, vocab)
        on_page = []
        for q in range(QUOTES_PER_PAGE):
            words = sentence(rng, vocab, rng.randint(12, 20))
            quote = text(words)
            roll = (p * QUOTES_PER_PAGE + q) % 10
            if roll < 6:
                on_page.append(quote)
                labels[(f"c{p}-{q}", 0)] = ("verified", False)
            elif roll == 6:
                on_page.append(text(harmless(rng, vocab, words)))
                labels[(f"c{p}-{q}", 0)] = ("drifted", False)
            elif roll == 7:
                on_page.append(text(negated(words)))
                labels[(f"c{p}-{q}", 0)] = ("drifted", True)
            else:
                labels[(f"c{p}-{q}", 0)] = ("missing", False)
            claims.append((f"c{p}-{q}", f"s{p}", quote))
        html = page_html(rng, vocab, on_page, chrome)
        server.set_page(f"/p{p}", html, headers={"ETag": f'"v1-{p}"'})
        sources.append((f"s{p}", server.url(f"/p{p}")))
    lines = [
        "ledger: 1",
        "title: Benchmark",
        "date_read: 2026-08-23",
        "sections: [{id: main, title: Main}]",
        "sources:",
    ]
    lines += [
        f"  {sid}: {{url: '{url}', title: T, kind: docs, publisher: p{sid}}}"
        for sid, url in sources
    ]
    lines.append("claims:")
    for cid, sid, quote in claims:
        lines += [
            f"  - id: {cid}",
            "    section: main",
            "    title: T",
            "    kind: guarantee",
            "    statement: S",
            "    quotes:",
            f'      - text: "{quote}"',
            f"        sources: [{sid}]",
            "    grades: [{on: wording, grade: DEMONSTRATED, basis: quotes}]",
        ]
    (folder / "claims.yaml").write_text("\n".join(lines) + "\n")
    return labels


# --------------------------------------------------------------------------- the fetcher's waits

QUICK = FetchPolicy(
    allow_private=True, timeout=0.5, retries=0, backoff_base=0.01, per_host_interval=0.0
)


def fetch(urls: Iterable[str], policy: FetchPolicy) -> dict[str, FetchResult]:
    async def run() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False) as client:
            return await fetch_all(urls, client, policy=policy)

    return asyncio.run(run())


def request_gaps(server: PageServer) -> list[float]:
    starts = sorted(request.at for request in server.page_requests)
    return [later - earlier for earlier, later in itertools.pairwise(starts)]


def fetch_timings() -> None:
    interval = 0.1
    with PageServer() as server:
        for n in range(10):
            server.set_page(f"/{n}", "<p>page</p>")
        fetch(
            [server.url(f"/{n}") for n in range(10)],
            replace(QUICK, per_host=4, per_host_interval=interval),
        )
        gaps = request_gaps(server)
    print(
        f"request starts to one host at --interval {interval:g}: gaps min "
        f"{min(gaps) * 1000:.0f} ms, mean {sum(gaps) / len(gaps) * 1000:.0f} ms"
    )

    with PageServer() as server:

        def busy(exchange: Exchange) -> None:
            exchange.respond(429, b"slow down", {"Retry-After": "1"})

        server.set_handler("/doc", sequence(busy, Page(b"<p>page</p>")))
        fetch([server.url("/doc")], replace(QUICK, retries=1))
        (gap,) = request_gaps(server)
    print(f"429 with Retry-After: 1: asked again after {gap:.2f} s")

    with PageServer() as server:
        server.set_handler("/trickle", trickle(b"x" * 100, every=0.1))
        server.set_handler("/stall", stall_after_headers(4096, for_seconds=5))
        server.set_handler("/big", stall_after_headers(20 * 1024 * 1024))
        trickled = fetch([server.url("/trickle")], QUICK)[server.url("/trickle")]
        deadline = replace(QUICK, timeout=0.4, retries=10, deadline=1.0)
        stalled = fetch([server.url("/stall")], deadline)[server.url("/stall")]
        big = fetch([server.url("/big")], replace(QUICK, timeout=5))[server.url("/big")]
    print(
        f"a body trickling past a {QUICK.timeout:g} s timeout: {trickled.source_status} "
        f"after {trickled.elapsed:.2f} s"
    )
    print(
        f"a URL past its {deadline.deadline:g} s deadline ({stalled.attempts} attempts): "
        f"{stalled.source_status} after {stalled.elapsed:.2f} s"
    )
    print(f"a body declared over the cap: {big.source_status} after {big.elapsed:.3f} s")


# --------------------------------------------------------------------------- the refresh


@dataclass
class Usage:
    """What a refresh's processes used: the main process's peak RSS as the kernel kept it
    (wait4, through the launcher), and its CPU time and every helper's (the selections'
    fork server and its children, multiprocessing's resource tracker) sampled from /proc
    while they ran (Linux)."""

    main_pid: int = 0
    main_peak_kib: int = 0
    peaks_kib: dict[int, int] = field(default_factory=dict)
    roles: dict[int, str] = field(default_factory=dict)
    cpu_seconds: dict[int, float] = field(default_factory=dict)
    """utime + stime of every process of the refresh, by pid, as last seen."""

    def cpu(self) -> float:
        return sum(self.cpu_seconds.values())

    def main_cpu(self) -> float:
        return self.cpu_seconds.get(self.main_pid, 0.0)

    def helpers(self) -> str:
        by_role: dict[str, list[int]] = {}
        for pid, kib in sorted(self.peaks_kib.items()):
            by_role.setdefault(self.roles.get(pid, "other"), []).append(kib)
        return "; ".join(
            f"{role} {', '.join(f'{kib / 1024:.0f}' for kib in peaks)} MiB"
            for role, peaks in sorted(by_role.items())
        )


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def descendants(pid: int) -> dict[int, int]:
    """Every process below `pid`, with its parent."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = {}, [pid]
    while todo:
        parent = todo.pop()
        for child in parents.get(parent, []):
            found[child] = parent
            todo.append(child)
    return found


def sample(pid: int, usage: Usage, role: str | None = None) -> None:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
        stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return
    peak = next(
        (int(line.split()[1]) for line in status.splitlines() if line.startswith("VmHWM:")), 0
    )
    if role is not None and peak:
        usage.peaks_kib[pid] = max(usage.peaks_kib.get(pid, 0), peak)
        usage.roles[pid] = role
    usage.cpu_seconds[pid] = (int(stat[11]) + int(stat[12])) / TICKS


def role_of(pid: int, parent: int, main: int) -> str:
    try:
        command = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ")
    except OSError:
        return "other"
    if b"resource_tracker" in command:
        return "resource tracker"
    if parent != main:
        return "selections"
    return "fork server" if b"forkserver" in command else "other"


def refresh(folder: Path, launcher: Launcher) -> tuple[float, dict[str, Any], Usage]:
    command = [
        sys.executable,
        "-m",
        "claimledger",
        "--ledger",
        str(folder / "claims.yaml"),
        "refresh",
        "--json",
        "--allow-private",  # the corpus is served on 127.0.0.1
        "--concurrency",
        str(IN_FLIGHT),
        "--per-host",
        str(IN_FLIGHT),
        "--interval",
        "0",
    ]
    usage = Usage()
    stdout, stderr = folder / "refresh.out", folder / "refresh.err"
    started = time.perf_counter()
    usage.main_pid = launcher.start(command, stdout=stdout, stderr=stderr)
    while True:
        sample(usage.main_pid, usage)
        for child, parent in descendants(usage.main_pid).items():
            sample(child, usage, role_of(child, parent, usage.main_pid))
        ended = launcher.ended(wait=0.02)
        if ended is not None:
            break
    elapsed = time.perf_counter() - started
    usage.main_peak_kib = ended.peak_kib
    if ended.code not in (0, 1):
        raise SystemExit(f"refresh failed: {stderr.read_text()}")
    report: dict[str, Any] = json.loads(stdout.read_text())
    return elapsed, report, usage


def describe(name: str, elapsed: float, usage: Usage) -> str:
    return (
        f"{name}: {elapsed:.2f} s  ({PAGES / elapsed:.0f} pages/s); CPU {usage.cpu():.2f} s, "
        f"{usage.main_cpu():.2f} of it in the main process ({usage.cpu() / elapsed:.2f} cores "
        f"busy); peak RSS main {usage.main_peak_kib / 1024:.0f} MiB"
        + (f", {usage.helpers()}" if usage.peaks_kib else ", no helper processes")
    )


def page_size(server: PageServer, path: str) -> int:
    route = server.route(path)
    assert isinstance(route, Page)
    return len(route.body)


def main() -> None:
    fetch_timings()
    with (
        Launcher() as launcher,  # started while this process is small: see launcher.py
        PageServer(latency=LATENCY) as server,
        tempfile.TemporaryDirectory() as tmp,
    ):
        folder = Path(tmp)
        labels = build(server, folder)
        size = sum(page_size(server, f"/p{p}") for p in range(PAGES))
        cold, report, cold_usage = refresh(folder, launcher)
        warm, warm_report, warm_usage = refresh(folder, launcher)
        hits = Counter(s["http_status"] for s in warm_report["sources"])
        checks: list[dict[str, Any]] = report["checks"]
        right = sum(
            1 for c in checks if labels[(c["claim_id"], c["quote_index"])][0] == c["status"]
        )
        flagged = sum(
            1
            for c in checks
            if labels[(c["claim_id"], c["quote_index"])][1] == c["meaning_changed"]
        )
        wrong = [
            (c["claim_id"], labels[(c["claim_id"], c["quote_index"])], c["status"])
            for c in checks
            if labels[(c["claim_id"], c["quote_index"])][0] != c["status"]
        ]
        failed = Counter(
            s["source_status"] for s in report["sources"] if s["source_status"] != "ok"
        )
    quotes = len(labels)
    print(
        f"pages: {PAGES} ({size / PAGES / 1024:.0f} KiB of HTML each), quotes: {quotes}, "
        f"latency {LATENCY * 1000:.0f} ms; refresh --concurrency {IN_FLIGHT} --per-host "
        f"{IN_FLIGHT} --interval 0 --allow-private on {os.cpu_count()} cores"
    )
    print(describe("cold refresh", cold, cold_usage) + f", {quotes / cold:.0f} quotes/s")
    print(describe("warm refresh", warm, warm_usage) + f", HTTP statuses: {dict(hits)}")
    print(f"status accuracy: {right}/{len(checks)} = {right / len(checks):.1%}")
    if failed:
        print(f"  sources not read on the cold run: {dict(failed)}")
    print(
        f"meaning flag as labelled: {flagged}/{len(checks)} (the labels call a one-word "
        "swap of a content word harmless; the matcher flags a swapped term as a change)"
    )
    for miss in wrong[:10]:
        print(f"  wrong: {miss}")


if __name__ == "__main__":
    main()
