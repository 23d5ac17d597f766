"""Side by side with urlwatch 2.29 on bench_refresh's served docs corpus.

Only with `--with-peers`: it installs urlwatch 2.29 with what its BeautifulSoup html2text
filter needs (beautifulsoup4, lxml) into a scratch virtual environment, reused when present
($XDG_CACHE_HOME or ~/.cache, then claimledger-bench/urlwatch-2.29), and never into the
project's. Without the flag it says how to run it and exits 0, so `tests/benchmarks/run.py`
stays quick.

Both tools read the same pages from one PageServer on 127.0.0.1 (50 ms latency, ETags):

- urlwatch: one job per page with `html2text: {method: bs4}` (the whole page), and again
  with `css: main` before it (the page's main element alone: urlwatch's fastest reasonable
  setting), its stdout reporter alone (every other reporter off, so nothing leaves the
  machine), its own cache database in a temporary folder, and its 10 worker threads
  (`MAX_WORKERS = 10` in urlwatch/worker.py: 2.29 has no option for it; the script reads the
  installed value).
- claimledger: `refresh --allow-private` on bench_refresh's ledger, printing its terminal
  summary (the counterpart of urlwatch's stdout report), once at the peer's concurrency
  (`--concurrency 10 --per-host 10 --interval 0`) and once at the benchmark setting of
  bench_refresh (16 and 16).

- httpx alone, the floor of claimledger's HTTP stack: a script that GETs every page through
  one `httpx.AsyncClient` with claimledger's limits at 16 in flight, reads each body and
  keeps each ETag (to send on the warm run as If-None-Match), and does nothing else: no
  ledger, no store, no reading. A figure under it is out of reach while claimledger
  fetches with httpx.

Cold is an empty cache or store; warm is the second run, where every page answers 304
(both tools send If-None-Match). Runs alternate over the rounds (the order rotates) and
the table gives medians of the wall time, of the CPU seconds of each run's whole process
tree and of the peak of the tree's summed PSS, sampled from /proc every 20 ms as
bench_refresh.py samples them (each command started by a launcher process made before the
corpus: see launcher.py). Every run must have requested every page, counted by the server.

The children run in the foreground with SIGINT not ignored: a Python started with SIGINT
ignored skips work at exit that users pay for, so a benchmark run that way reads fast.
Both run with bytecode caching on (the machine may set PYTHONDONTWRITEBYTECODE; installed
packages carry their bytecode, the source checkout would otherwise be compiled every run).

    python tests/benchmarks/bench_peers.py --with-peers [--pages N] [--rounds N]
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from launcher import Launcher

if TYPE_CHECKING:
    from webserver import PageServer

URLWATCH_VERSION = "2.29"
URLWATCH_PACKAGES = [f"urlwatch=={URLWATCH_VERSION}", "beautifulsoup4", "lxml"]
"""urlwatch and what its `html2text: {method: bs4}` filter needs (lxml is its default parser)."""
URLWATCH_FILTERS = {
    "urlwatch": [{"html2text": {"method": "bs4"}}],
    "urlwatch-css": [{"css": "main"}, {"html2text": {"method": "bs4"}}],
}
"""urlwatch's two settings: the whole page to text, and (its fastest reasonable setting)
the page's `main` element alone, as a user who knows the site would set it."""
PEERS = tuple(URLWATCH_FILTERS)
PEER_CONCURRENCY = 10
"""urlwatch 2.29's worker threads (MAX_WORKERS in urlwatch/worker.py); checked at install."""
BENCH_CONCURRENCY = 16
"""claimledger's setting in bench_refresh.py."""
OFF_REPORTERS = [
    "email",
    "pushover",
    "pushbullet",
    "telegram",
    "slack",
    "mattermost",
    "discord",
    "gotify",
    "matrix",
    "mailgun",
    "ifttt",
    "xmpp",
    "prowl",
    "shell",
]
"""urlwatch 2.29's reporters that send anywhere; the config turns each off by name."""
PROXY_VARIABLES = ["http_proxy", "https_proxy", "all_proxy", "no_proxy"]
USAGE = (
    "bench_peers: the side-by-side run against urlwatch 2.29 is opt-in (it installs urlwatch "
    "into a scratch environment): python tests/benchmarks/bench_peers.py --with-peers "
    "[--pages N] [--rounds N]"
)

# What urlwatch 2.29 says of itself once installed: version, worker threads, reporters on.
INTROSPECT = """
import json, sys
import bs4, lxml.etree
import urlwatch, urlwatch.worker
from urlwatch.reporters import ReporterBase
from urlwatch.storage import YamlConfigStorage
config = YamlConfigStorage(sys.argv[1]).config
on = sorted(
    kind for kind in ReporterBase.__subclasses__
    if config["report"].get(kind, {}).get("enabled")
)
print(json.dumps({
    "urlwatch": urlwatch.__version__,
    "workers": urlwatch.worker.MAX_WORKERS,
    "reporters_on": on,
    "bs4": bs4.__version__,
    "lxml": ".".join(map(str, lxml.etree.LXML_VERSION)),
}))
"""

# httpx alone: every page fetched as claimledger's client fetches it, and nothing else.
HTTPX_ALONE = """
import asyncio, json, sys
from pathlib import Path
sys.modules.setdefault("httpx._main", None)  # httpx's own command line, as claimledger does
import httpx
urls, in_flight, tags = json.loads(sys.argv[1]), int(sys.argv[2]), Path(sys.argv[3])
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


@dataclass(frozen=True)
class Tool:
    """One side of the comparison: a key, its setting as printed, its requests in flight."""

    key: str
    label: str
    in_flight: int


@dataclass(frozen=True)
class Run:
    tool: str
    phase: str  # "cold" or "warm"
    round: int
    wall: float
    peak_mib: float
    cpu: float
    requested: int  # page requests the server saw (robots.txt apart)
    not_modified: int  # of those, how many carried the page's ETag (answered 304)
    robots: int
    exit_code: int


# --------------------------------------------------------------------------- the child processes


def child_environment(**overrides: str) -> dict[str, str]:
    """The caller's environment without proxies (loopback only) and with bytecode caching."""
    env = {
        name: value
        for name, value in os.environ.items()
        if name.lower() not in PROXY_VARIABLES and name != "PYTHONDONTWRITEBYTECODE"
    }
    env.update(overrides)
    return env


def sigint_ignored(pid: int) -> bool | None:
    """Whether process `pid` ignores SIGINT, from /proc (None where there is no /proc)."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return None
    match = re.search(r"^SigIgn:\s*([0-9a-f]+)$", status, re.MULTILINE)
    if match is None:
        return None
    return bool(int(match.group(1), 16) & (1 << (signal.SIGINT - 1)))


def timed(
    launcher: Launcher, command: Sequence[str], env: Mapping[str, str], cwd: Path, output: Path
) -> tuple[float, float, float, int]:
    """Run `command` in the foreground: wall seconds, the peak PSS of its process tree in
    MiB, the tree's CPU seconds, and its exit code.

    The tree is sampled from /proc every 20 ms while it runs (bench_refresh.sample); the
    main process's CPU is its own to its end (os.wait4 in the launcher, which started
    small: see launcher.py). Output goes to files, so no pipe can fill and stall it.
    """
    from bench_refresh import Usage, sample

    started = time.perf_counter()
    pid = launcher.start(
        command,
        stdout=output.with_suffix(".out"),
        stderr=output.with_suffix(".err"),
        env=env,
        cwd=cwd,
    )
    ignored = sigint_ignored(pid)
    usage = Usage(main_pid=pid)
    while (ended := launcher.ended(wait=0.02)) is None:
        sample(usage)
    wall = time.perf_counter() - started
    if ignored:
        raise SystemExit(f"{command[0]} started with SIGINT ignored: its times would read fast")
    usage.cpu_seconds[pid] = ended.cpu_seconds
    return wall, usage.peak_pss_kib / 1024, usage.cpu(), ended.code


# --------------------------------------------------------------------------- urlwatch


def cache_home() -> Path:
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "claimledger-bench"


@dataclass(frozen=True)
class Facts:
    """What the installed urlwatch says of itself."""

    urlwatch: str
    workers: int
    reporters_on: list[str]
    bs4: str
    lxml: str


def introspect(python: Path, config: Path) -> Facts | None:
    completed = subprocess.run(
        [str(python), "-c", INTROSPECT, str(config)],
        capture_output=True,
        text=True,
        check=False,
        env=child_environment(),
        restore_signals=True,
    )
    if completed.returncode != 0:
        return None
    return Facts(**json.loads(completed.stdout))


def install_urlwatch(config: Path) -> tuple[Path, Facts]:
    """urlwatch 2.29 in its scratch environment (installed once, then reused)."""
    venv = cache_home() / f"urlwatch-{URLWATCH_VERSION}"
    python = venv / "bin" / "python"
    facts = introspect(python, config) if python.exists() else None
    if facts is None or facts.urlwatch != URLWATCH_VERSION:
        print(f"installing urlwatch {URLWATCH_VERSION} into {venv}", flush=True)
        subprocess.run(
            [sys.executable, "-m", "venv", "--clear", str(venv)],
            check=True,
            restore_signals=True,
        )
        subprocess.run(
            [str(python), "-m", "pip", "install", "--quiet", *URLWATCH_PACKAGES],
            check=True,
            env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"},  # proxies kept: PyPI
            restore_signals=True,
        )
        facts = introspect(python, config)
        if facts is None:
            raise SystemExit(f"urlwatch {URLWATCH_VERSION} did not install into {venv}")
    if facts.urlwatch != URLWATCH_VERSION:
        raise SystemExit(f"expected urlwatch {URLWATCH_VERSION}, found {facts.urlwatch}")
    if facts.workers != PEER_CONCURRENCY:
        raise SystemExit(f"urlwatch runs {facts.workers} workers, not {PEER_CONCURRENCY}")
    if facts.reporters_on != ["stdout"]:
        raise SystemExit(f"urlwatch reporters on besides stdout: {facts.reporters_on}")
    return venv / "bin" / "urlwatch", facts


def write_urlwatch_files(folder: Path, urls: Sequence[str]) -> tuple[dict[str, Path], Path]:
    """A jobs file for each of urlwatch's settings, and the config (JSON is YAML): the
    stdout reporter alone, no colour."""
    jobs = {}
    for key, steps in URLWATCH_FILTERS.items():
        documents = [
            json.dumps({"name": f"page {n}", "url": url, "filter": steps})
            for n, url in enumerate(urls)
        ]
        jobs[key] = folder / f"jobs-{key}.yaml"
        jobs[key].write_text("\n---\n".join(documents) + "\n")
    config = folder / "urlwatch.yaml"
    report: dict[str, object] = {name: {"enabled": False} for name in OFF_REPORTERS}
    report["stdout"] = {"enabled": True, "color": False}
    settings = {
        "display": {"new": True, "error": True, "unchanged": False, "empty-diff": True},
        "report": report,
    }
    config.write_text(json.dumps(settings, indent=2) + "\n")
    return jobs, config


# --------------------------------------------------------------------------- one round


@dataclass
class Bench:
    launcher: Launcher
    server: PageServer
    base: Path  # the ledger and the urlwatch files, written once
    paths: dict[str, str]  # page path -> its ETag
    urlwatch: Path
    jobs: dict[str, Path]  # by tool key: one jobs file for each of urlwatch's settings
    config: Path

    def count(self) -> tuple[int, int, int, set[str]]:
        requested = not_modified = robots = 0
        seen: set[str] = set()
        for request in self.server.requests:
            if request.path == "/robots.txt":
                robots += 1
                continue
            requested += 1
            seen.add(request.path)
            etag = self.paths.get(request.path)
            tags = [tag.strip() for tag in request.headers.get("if-none-match", "").split(",")]
            if etag is not None and etag in tags:
                not_modified += 1
        return requested, not_modified, robots, seen

    def command(self, tool: Tool, folder: Path) -> tuple[list[str], dict[str, str]]:
        if tool.key in PEERS:
            home = folder / "home"  # urlwatch looks for 1.x files to migrate under ~
            home.mkdir(exist_ok=True)
            command = [
                str(self.urlwatch),
                "--urls",
                str(self.jobs[tool.key]),
                "--config",
                str(self.config),
                "--cache",
                str(folder / "cache.db"),
                "--hooks",
                str(folder / "hooks.py"),  # absent: no hooks
            ]
            env = child_environment(
                HOME=str(home),
                XDG_CONFIG_HOME=str(home / ".config"),
                XDG_CACHE_HOME=str(home / ".cache"),
            )
            return command, env
        if tool.key == "httpx":
            urls = json.dumps([self.server.url(path) for path in self.paths])
            etags = folder / "etags.json"
            return [sys.executable, "-c", HTTPX_ALONE, urls, str(tool.in_flight), str(etags)], (
                child_environment()
            )
        command = [
            sys.executable,
            "-m",
            "claimledger",
            "--ledger",
            str(folder / "claims.yaml"),
            "refresh",
            "--allow-private",  # the corpus is served on 127.0.0.1
            "--concurrency",
            str(tool.in_flight),
            "--per-host",
            str(tool.in_flight),
            "--interval",
            "0",
        ]
        return command, child_environment()

    def run(self, tool: Tool, phase: str, round_: int, folder: Path) -> Run:
        command, env = self.command(tool, folder)
        self.server.clear_requests()
        output = folder / f"{tool.key}-{phase}"
        wall, peak, cpu, code = timed(self.launcher, command, env, folder, output)
        requested, not_modified, robots, seen = self.count()
        run = Run(tool.key, phase, round_, wall, peak, cpu, requested, not_modified, robots, code)
        print(
            f"  round {round_} {tool.label:<40} {phase}: {wall:6.2f} s, {peak:4.0f} MiB, "
            f"{cpu:5.2f} CPU-s, {requested} page requests ({not_modified} answered 304)"
            f"{f', {robots} robots.txt' if robots else ''}, exit {code}",
            flush=True,
        )
        self.check(tool, run, seen, folder / f"{tool.key}-{phase}")
        return run

    def check(self, tool: Tool, run: Run, seen: set[str], output: Path) -> None:
        """Every page fetched, a normal exit, and for urlwatch a report of each page."""
        stderr = output.with_suffix(".err").read_text(errors="replace")
        missed = set(self.paths) - seen
        if missed:
            raise SystemExit(
                f"{tool.label} {run.phase} did not request {len(missed)} of {len(self.paths)} "
                f"pages (e.g. {sorted(missed)[:3]}): its figure would not count.\n{stderr[-2000:]}"
            )
        allowed = (0, 1) if tool.key.startswith("claimledger") else (0,)  # 1: a quote not verified
        if run.exit_code not in allowed:
            raise SystemExit(f"{tool.label} {run.phase} exited {run.exit_code}:\n{stderr[-2000:]}")
        if tool.key not in PEERS:
            return
        report = output.with_suffix(".out").read_text(errors="replace")
        verbs = re.findall(r"^\d+\. (NEW|CHANGED|ERROR|UNCHANGED): ", report, re.MULTILINE)
        expected = ["NEW"] * len(self.paths) if run.phase == "cold" else []
        if sorted(verbs) != expected:
            counts = {verb: verbs.count(verb) for verb in set(verbs)}
            raise SystemExit(f"urlwatch {run.phase} reported {counts}:\n{report[-2000:]}")


# --------------------------------------------------------------------------- the table


def median(runs: Sequence[Run], tool: str, phase: str, figure: str) -> float:
    values = [getattr(r, figure) for r in runs if r.tool == tool and r.phase == phase]
    return float(statistics.median(values))


def table(runs: Sequence[Run], tools: Sequence[Tool], pages: int, quotes: int, kib: float) -> str:
    """A row per phase, figure and claimledger setting: its median beside each peer's and
    the floor's, and its ratio to each, all from the same runs."""
    from bench_refresh import LATENCY

    peers = [t for t in tools if t.key in PEERS]
    alone = next(t for t in tools if t.key == "httpx")
    ours = [t for t in tools if t.key.startswith("claimledger")]
    others = [*peers, alone]
    lines = [
        "| figure | claimledger | "
        + " | ".join(t.label for t in others)
        + " | "
        + " | ".join(f"claimledger / {t.label}" for t in others)
        + " |",
        "|---|---|" + "---|" * 2 * len(others),
    ]
    n304 = {
        t.key: min(r.not_modified for r in runs if r.tool == t.key and r.phase == "warm")
        for t in tools
    }
    shown = {"wall": "{:.2f} s", "cpu": "{:.2f} CPU-s", "peak_mib": "{:.0f} MiB"}
    named = {"wall": "wall", "cpu": "CPU of the whole tree", "peak_mib": "peak PSS of the tree"}
    for phase in ("cold", "warm"):
        for figure, form in shown.items():
            theirs = [median(runs, t.key, phase, figure) for t in others]
            for tool in ours:
                mine = median(runs, tool.key, phase, figure)
                what = f"{phase}, {named[figure]}, claimledger at {tool.in_flight} in flight"
                if phase == "warm" and min(n304.values()) < pages:
                    what += f" (answered 304: {', '.join(f'{k} {n}' for k, n in n304.items())})"
                lines.append(
                    f"| {what} | {form.format(mine)} | "
                    + " | ".join(form.format(v) for v in theirs)
                    + " | "
                    + " | ".join(f"**{mine / v:.2f}×**" if v else "—" for v in theirs)
                    + " |"
                )
    settings = sorted({t.in_flight for t in tools})
    floors = ", ".join(f"{pages * LATENCY / n:.2f} s at {n} in flight" for n in settings)
    lines.append(
        f"\n{pages:,} pages of {kib:.0f} KiB, {quotes:,} quotes; the network alone takes "
        f"{pages:,} × {LATENCY * 1000:.0f} ms / requests in flight: {floors}."
    )
    return "\n".join(lines)


# --------------------------------------------------------------------------- main


def arguments(argv: Sequence[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--with-peers", action="store_true", help="install and run urlwatch")
    parser.add_argument("--pages", type=int, default=200, help="pages served (default 200)")
    parser.add_argument("--rounds", type=int, default=3, help="A/B rounds (default 3)")
    args = parser.parse_args(argv)
    if args.pages < 1 or args.rounds < 1:
        parser.error("--pages and --rounds take a positive number")
    return args


def main(argv: Sequence[str]) -> int:
    args = arguments(argv)
    if not args.with_peers:
        print(USAGE)
        return 0
    # A Python started with SIGINT ignored passes that on to its children through exec
    # (restore_signals resets only SIGPIPE and SIGXFSZ), and they skip work users pay for.
    assert signal.getsignal(signal.SIGINT) is not signal.SIG_IGN, (
        "SIGINT is ignored in this process (started in the background by a shell without job "
        "control?): run the benchmark in the foreground"
    )

    launcher = Launcher()  # before this process grows: see launcher.py
    # Here, not at the top: the usage line above stays instant.
    import bench_refresh

    import claimledger
    from webserver import PageServer

    bench_refresh.PAGES = args.pages
    tools = [
        Tool("claimledger-10", f"claimledger at {PEER_CONCURRENCY} in flight", PEER_CONCURRENCY),
        Tool("claimledger-16", f"claimledger at {BENCH_CONCURRENCY} in flight", BENCH_CONCURRENCY),
        Tool(
            "urlwatch", f"urlwatch {URLWATCH_VERSION}, {PEER_CONCURRENCY} workers", PEER_CONCURRENCY
        ),
        Tool(
            "urlwatch-css",
            f"urlwatch {URLWATCH_VERSION}, css: main, {PEER_CONCURRENCY} workers",
            PEER_CONCURRENCY,
        ),
        Tool("httpx", f"httpx alone at {BENCH_CONCURRENCY} in flight", BENCH_CONCURRENCY),
    ]
    load_before = os.getloadavg()[0]
    runs: list[Run] = []
    with (
        PageServer(latency=bench_refresh.LATENCY) as server,
        tempfile.TemporaryDirectory(prefix="bench-peers-") as tmp,
    ):
        base = Path(tmp) / "corpus"
        base.mkdir()
        labels = bench_refresh.build(server, base)
        paths = {f"/p{p}": f'"v1-{p}"' for p in range(args.pages)}
        for path, etag in paths.items():
            page = server.route(path)
            assert getattr(page, "headers", {}).get("ETag") == etag, f"{path} has no ETag {etag}"
        kib = sum(bench_refresh.page_size(server, path) for path in paths) / len(paths) / 1024
        jobs, config = write_urlwatch_files(base, [server.url(path) for path in paths])
        urlwatch, facts = install_urlwatch(config)
        # Compile the checkout's source once, as an install would: every run then loads it.
        source = Path(claimledger.__file__).parent
        subprocess.run(
            [sys.executable, "-m", "compileall", "-q", str(source)],
            check=True,
            env=child_environment(),
            restore_signals=True,
        )
        bench = Bench(launcher, server, base, paths, urlwatch, jobs, config)
        print(
            f"{args.pages} pages ({kib:.0f} KiB of HTML each), {len(labels)} quotes, "
            f"{bench_refresh.LATENCY * 1000:.0f} ms latency; urlwatch {facts.urlwatch} "
            f"(beautifulsoup4 {facts.bs4}, lxml {facts.lxml}) with "
            f"`html2text: {{method: bs4}}`, alone and after `css: main`, {facts.workers} workers "
            f"(urlwatch.worker.MAX_WORKERS), reporters on: {', '.join(facts.reporters_on)}; "
            f"claimledger refresh --concurrency N --per-host N --interval 0 at "
            f"N = {PEER_CONCURRENCY} and {BENCH_CONCURRENCY}; rounds: {args.rounds}",
            flush=True,
        )
        for round_ in range(1, args.rounds + 1):
            shift = (round_ - 1) % len(tools)
            for tool in [*tools[shift:], *tools[:shift]]:
                folder = Path(tmp) / f"round{round_}-{tool.key}"
                folder.mkdir()
                shutil.copy(base / "claims.yaml", folder / "claims.yaml")
                runs.append(bench.run(tool, "cold", round_, folder))
                runs.append(bench.run(tool, "warm", round_, folder))
                shutil.rmtree(folder)
    launcher.close()
    load_after = os.getloadavg()[0]
    print()
    print(table(runs, tools, args.pages, len(labels), kib))
    print()
    print(
        f"medians of {args.rounds} rounds, the order rotating each round; {os.cpu_count()} CPUs, "
        f"load average {load_before:.1f} before and {load_after:.1f} after (a shared machine: "
        "single runs vary; see the runs above). Each ratio: claimledger's median over the other's."
    )
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main(sys.argv[1:]))
    except KeyboardInterrupt:  # the children had it too; the temporary folders are gone
        sys.exit(130)
