"""Refresh benchmark: docs-like pages, 5 labelled quotes each, a real loopback server.

Pages are ~100 KiB of HTML each (a large nav sidebar, inline scripts and styles,
tables, code) served with 50 ms latency and ETags. At each size asked for, each round
runs `claimledger refresh` twice, cold (a new evidence store) then warm (every page
answers 304), and beside each the floor: one httpx client fetching the same pages at the
same requests in flight, keeping ETags for its warm run, and doing nothing else. Which
side goes first alternates round by round; each figure is the median over the rounds.

Every command is started by a small launcher process (see launcher.py) and its whole
process tree sampled from /proc every 20 ms while it runs: the CPU seconds of every
process (the main one, a selection's fork server and its children, multiprocessing's
resource tracker), and the tree's summed PSS, whose peak is reported (PSS counts a page
shared by two processes half to each, so the sum is what the tree takes of the machine).
Each figure is printed beside the floor's as a ratio, with the load average before and
after; with several sizes, each size's peak PSS and CPU a page beside the smallest's, the
peak split into the ledger's own share (`check` on the same ledger, which has five claims
a page) and what the refresh takes beyond it.
Then the status accuracy against the labels (60% verbatim, 20% reworded of which half
change meaning, 20% removed). The refresh runs at 16 requests in flight on the one host
(`--in-flight N`: --concurrency N --per-host N --interval 0; the defaults for real sites
are 16 in all, 4 per host, 50 ms apart), with --allow-private (the corpus is on 127.0.0.1).

First (unless --refresh-only) it times the fetcher's own waits, which tests/test_fetch.py
asserts as behaviour (the waits asked for, the statuses produced) and never by the
clock: the gap between request starts to one host, the wait a Retry-After asks for, how
soon a body trickling past the timeout, a URL past its deadline, and a body declared over
the cap are given up.

    python tests/benchmarks/bench_refresh.py [--pages 200,1000,3000] [--rounds N]
        [--in-flight N] [--refresh-only]
"""

from __future__ import annotations

import asyncio
import itertools
import json
import os
import random
import statistics
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

SIZES = sys.argv[sys.argv.index("--pages") + 1] if "--pages" in sys.argv else "200"
"""Pages served, one size or several (`--pages 200,1000,3000`: whether memory stays flat)."""
PAGES = int(SIZES.split(",")[0])
"""The first size, for the benchmarks that build this corpus."""
ROUNDS = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 3
"""Rounds at each size; each figure is the median (`--rounds N`)."""
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


def build(
    server: PageServer, folder: Path, pages: int | None = None
) -> dict[tuple[str, int], tuple[str, bool]]:
    """Serve the pages, write the ledger; return the expected (status, meaning_changed)."""
    pages = PAGES if pages is None else pages
    rng = random.Random(20260823)
    vocab = vocabulary(rng)
    labels: dict[tuple[str, int], tuple[str, bool]] = {}
    sources, claims = [], []
    for p in range(pages):
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

HTTPX_FLOOR = """
import asyncio, json, sys
from pathlib import Path
sys.modules.setdefault("httpx._main", None)  # httpx's own command line, as claimledger does
import httpx
urls = json.loads(Path(sys.argv[1]).read_text())
in_flight, tags = int(sys.argv[2]), Path(sys.argv[3])
etags = json.loads(tags.read_text()) if tags.exists() else {}
async def main():
    gate = asyncio.Semaphore(in_flight)
    limits = httpx.Limits(max_connections=in_flight, max_keepalive_connections=in_flight)
    async with httpx.AsyncClient(limits=limits, trust_env=False) as client:
        async def get(url):
            headers = {"If-None-Match": etags[url]} if url in etags else {}
            async with gate:
                response = await client.get(url, headers=headers)
            if "etag" in response.headers:
                etags[url] = response.headers["etag"]
            return response.status_code
        statuses = await asyncio.gather(*(get(url) for url in urls))
    tags.write_text(json.dumps(etags))
    print(json.dumps({str(s): statuses.count(s) for s in set(statuses)}))
asyncio.run(main())
"""
"""The floor: every page fetched by one httpx client at the same requests in flight, each
body read and its ETag kept for the warm run, and nothing else."""


@dataclass
class Usage:
    """What a command's process tree used, sampled from /proc while it ran (Linux): the CPU
    seconds (utime + stime) of every process, the main one, the selections' fork server and
    its children, multiprocessing's resource tracker; and the peak of the tree's summed PSS
    (proportional set size: a page shared by two processes counts half to each, so the sum
    is what the tree takes of the machine's memory)."""

    main_pid: int = 0
    wall: float = 0.0
    cpu_seconds: dict[int, float] = field(default_factory=dict)
    """utime + stime of every process of the tree, by pid, as last seen."""
    peak_pss_kib: int = 0
    processes: set[int] = field(default_factory=set)

    def cpu(self) -> float:
        return sum(self.cpu_seconds.values())

    def main_cpu(self) -> float:
        return self.cpu_seconds.get(self.main_pid, 0.0)


TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def descendants(pid: int) -> list[int]:
    """Every process below `pid`."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            parents.setdefault(int(fields[1]), []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:
        children = parents.get(todo.pop(), [])
        found += children
        todo += children
    return found


def pss_kib(pid: int) -> int:
    try:
        rollup = Path(f"/proc/{pid}/smaps_rollup").read_text()
    except OSError:
        return 0
    return next(
        (int(line.split()[1]) for line in rollup.splitlines() if line.startswith("Pss:")), 0
    )


def sample(usage: Usage) -> None:
    """One look at the tree: each process's CPU so far, and the tree's PSS now."""
    total = 0
    for pid in [usage.main_pid, *descendants(usage.main_pid)]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        usage.cpu_seconds[pid] = (int(stat[11]) + int(stat[12])) / TICKS
        usage.processes.add(pid)
        total += pss_kib(pid)
    usage.peak_pss_kib = max(usage.peak_pss_kib, total)


def measured(launcher: Launcher, command: list[str], folder: Path, name: str) -> Usage:
    """Run `command`, sampling its tree every 20 ms; its usage (exit 0 or 1 expected)."""
    usage = Usage()
    stdout, stderr = folder / f"{name}.out", folder / f"{name}.err"
    started = time.perf_counter()
    usage.main_pid = launcher.start(command, stdout=stdout, stderr=stderr, env=environment())
    while True:
        sample(usage)
        ended = launcher.ended(wait=0.02)
        if ended is not None:
            break
    usage.wall = time.perf_counter() - started
    # the main process's own CPU, as wait4 counted it to its end
    usage.cpu_seconds[usage.main_pid] = ended.cpu_seconds
    if ended.code not in (0, 1):
        raise SystemExit(f"{name} failed ({ended.code}): {stderr.read_text()[-2000:]}")
    return usage


def environment() -> dict[str, str]:
    """This environment without proxies (loopback only), with bytecode caching on."""
    return {
        name: value
        for name, value in os.environ.items()
        if not name.lower().endswith("_proxy") and name != "PYTHONDONTWRITEBYTECODE"
    }


def refresh_command(folder: Path, store: Path) -> list[str]:
    return [
        sys.executable,
        "-m",
        "claimledger",
        "--ledger",
        str(folder / "claims.yaml"),
        "--evidence",
        str(store),
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


def check_command(folder: Path) -> list[str]:
    """`check` reads the same ledger and nothing else: its peak is the ledger's own share,
    which grows with the ledger (five claims a page here), not with the pages read."""
    return [sys.executable, "-m", "claimledger", "--ledger", str(folder / "claims.yaml"), "check"]


@dataclass
class Round:
    """One round at one size: a cold and a warm run of each side, alternated."""

    ours: dict[str, Usage] = field(default_factory=dict)
    floor: dict[str, Usage] = field(default_factory=dict)


def one_round(launcher: Launcher, folder: Path, urls: Path, number: int) -> Round:
    """Cold then warm, claimledger and the floor alternated (which goes first rotates)."""
    store, etags = folder / f"evidence-{number}.sqlite3", folder / f"etags-{number}.json"
    floor = [sys.executable, "-c", HTTPX_FLOOR, str(urls), str(IN_FLIGHT), str(etags)]
    result = Round()
    for phase in ("cold", "warm"):
        sides = [("ours", refresh_command(folder, store)), ("floor", floor)]
        for side, command in sides if number % 2 == 0 else sides[::-1]:
            usage = measured(launcher, command, folder, f"{side}-{phase}-{number}")
            getattr(result, side)[phase] = usage
    return result


@dataclass(frozen=True)
class Size:
    """The medians at one size, with the load average over its rounds."""

    pages: int
    figures: dict[str, float]
    load: tuple[float, float]


def median_of(rounds: list[Round], side: str, phase: str, figure: str) -> float:
    values = []
    for r in rounds:
        usage = getattr(r, side)[phase]
        values.append({"wall": usage.wall, "cpu": usage.cpu(), "pss": usage.peak_pss_kib}[figure])
    return float(statistics.median(values))


def measure_size(launcher: Launcher, pages: int, rounds: int, tmp: Path) -> Size:
    folder = tmp / f"pages-{pages}"
    folder.mkdir()
    load_before = os.getloadavg()[0]
    with PageServer(latency=LATENCY) as server:
        labels = build(server, folder, pages)
        urls = folder / "urls.json"
        urls.write_text(json.dumps([server.url(f"/p{p}") for p in range(pages)]))
        size = sum(page_size(server, f"/p{p}") for p in range(pages))
        done = [one_round(launcher, folder, urls, n) for n in range(rounds)]
        server.clear_requests()
    ledger_alone = measured(launcher, check_command(folder), folder, "check").peak_pss_kib
    print(
        f"\npages: {pages:,} ({size / pages / 1024:.0f} KiB of HTML each), {len(labels):,} "
        f"quotes, {LATENCY * 1000:.0f} ms latency, {IN_FLIGHT} in flight, {rounds} rounds "
        f"(medians), {os.cpu_count()} cores"
    )
    accuracy(folder / "ours-cold-0.out", labels)
    warm = json.loads((folder / "ours-warm-0.out").read_text())
    print(f"warm HTTP statuses: {dict(Counter(s['http_status'] for s in warm['sources']))}")
    figures = {
        f"{side} {phase} {figure}": median_of(done, side, phase, figure)
        for side in ("ours", "floor")
        for phase in ("cold", "warm")
        for figure in ("wall", "cpu", "pss")
    }
    figures["ledger alone pss"] = ledger_alone
    return Size(pages, figures, (load_before, os.getloadavg()[0]))


def accuracy(output: Path, labels: dict[tuple[str, int], tuple[str, bool]]) -> None:
    """The status accuracy of a cold run against the labels."""
    report: dict[str, Any] = json.loads(output.read_text())
    checks: list[dict[str, Any]] = report["checks"]
    label = {id(c): labels[(c["claim_id"], c["quote_index"] - 1)] for c in checks}
    right = sum(1 for c in checks if label[id(c)][0] == c["status"])
    flagged = sum(1 for c in checks if label[id(c)][1] == c["meaning_changed"])
    failed = Counter(s["source_status"] for s in report["sources"] if s["source_status"] != "ok")
    print(
        f"status accuracy: {right}/{len(checks)} = {right / len(checks):.1%}; meaning flag as "
        f"labelled: {flagged}/{len(checks)} (the labels call a one-word swap of a content word "
        "harmless; the matcher flags a swapped term as a change)"
        + (f"; sources not read: {dict(failed)}" if failed else "")
    )


def table(size: Size) -> str:
    f, n = size.figures, size.pages
    rows = [
        "| figure | claimledger | httpx floor | claimledger / floor |",
        "|---|---|---|---|",
    ]
    for phase in ("cold", "warm"):
        ours, floor = f[f"ours {phase} wall"], f[f"floor {phase} wall"]
        rows.append(
            f"| {phase} refresh, wall | {ours:.2f} s | {floor:.2f} s | **{ours / floor:.2f}×** |"
        )
    for phase in ("cold", "warm"):
        ours, floor = f[f"ours {phase} cpu"], f[f"floor {phase} cpu"]
        rows.append(
            f"| {phase} refresh, CPU of the whole tree | {ours:.2f} s "
            f"(**{ours / n * 1000:.1f} ms a page**) | {floor:.2f} s ({floor / n * 1000:.1f} ms) "
            f"| {ours / floor:.2f}× |"
        )
    for phase in ("cold", "warm"):
        ours, floor = f[f"ours {phase} pss"] / 1024, f[f"floor {phase} pss"] / 1024
        rows.append(
            f"| {phase} refresh, peak PSS of the whole tree | {ours:.0f} MiB | {floor:.0f} MiB "
            f"| {ours / floor:.2f}× |"
        )
    before, after = size.load
    rows.append(f"| load average (1 min) before / after | {before:.2f} / {after:.2f} | | |")
    return "\n".join(rows)


def growth(sizes: list[Size]) -> str:
    """Each size's peak PSS and CPU a page beside the smallest's, measured in this run; and
    the peak split into the ledger's own share (`check` on the same ledger) and what the
    refresh takes beyond it, which is what the pages read can make grow."""
    first = sizes[0]
    rows = [
        f"| pages | peak PSS, cold | / at {first.pages:,} | `check` alone | refresh beyond it "
        f"| / at {first.pages:,} | CPU a page, cold | / at {first.pages:,} | load average |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    base_beyond = first.figures["ours cold pss"] - first.figures["ledger alone pss"]
    for s in sizes:
        pss, base = s.figures["ours cold pss"], first.figures["ours cold pss"]
        alone = s.figures["ledger alone pss"]
        cpu, base_cpu = (
            s.figures["ours cold cpu"] / s.pages,
            first.figures["ours cold cpu"] / first.pages,
        )
        rows.append(
            f"| {s.pages:,} | {pss / 1024:.0f} MiB | **{pss / base:.2f}×** "
            f"| {alone / 1024:.0f} MiB | {(pss - alone) / 1024:.0f} MiB "
            f"| **{(pss - alone) / base_beyond:.2f}×** "
            f"| {cpu * 1000:.1f} ms | {cpu / base_cpu:.2f}× | {s.load[0]:.2f} / {s.load[1]:.2f} |"
        )
    return "\n".join(rows)


def page_size(server: PageServer, path: str) -> int:
    route = server.route(path)
    assert isinstance(route, Page)
    return len(route.body)


def main() -> None:
    sizes_asked = [int(n) for n in SIZES.split(",")]
    launcher = Launcher()  # started while this process is small: see launcher.py
    if "--refresh-only" not in sys.argv:
        fetch_timings()
    sizes = []
    with launcher, tempfile.TemporaryDirectory() as tmp:
        for pages in sizes_asked:
            size = measure_size(launcher, pages, ROUNDS, Path(tmp))
            print(table(size), flush=True)
            sizes.append(size)
    if len(sizes) > 1:
        print("\nclaimledger at each size, beside the smallest (the same run):")
        print(growth(sizes))


if __name__ == "__main__":
    main()
