"""With and without: what each piece of code that exists only for speed buys a command.

Code kept only because it is faster than the plain way (a second reader, a cache, a pool)
costs its keeping: it must buy at least twice the speed on a figure a user feels, or go.
This runs the commands a user runs, each in a new process, on the workloads of the other
benchmarks, as the package is and with speed paths turned off in that process (a patch
applied before the command starts, so the product carries no switch), the arms
alternated run by run so that a busy machine weighs on all alike; it prints the median
of each, and the ratio of each speed path's arm without it to its arm with it.

* `ledger`: `check`, `status` and `regrade` on bench_scale's realistic 5,000-claim
  ledger with its evidence, `check` of its 50,000 plain claims, and `check` of the
  bundled ledger (bench_startup's);
* `refresh`: a cold and a warm refresh of bench_refresh's 200 pages (50 ms latency);
* `render`: `render` of the render fixture to Markdown and HTML, and of the 5,000-claim
  ledger to Markdown.

A speed path whose module the package no longer has is off already: `--at REV` measures
the package at git revision REV instead (its `src/` written to a temporary folder), so
`--at 34dbf25` measures the modules that were removed after it, with and without them.
`--against REV` compares the package as it is with the package at REV: the same
commands, alternated, before and after.

    python tests/benchmarks/speed_paths.py [--runs N] [--at REV | --against REV] [WORKLOAD]...
"""

from __future__ import annotations

import argparse
import contextlib
import io
import itertools
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

BOOT = (
    "import sys; exec(sys.argv[1]); sys.argv = ['claimledger', *sys.argv[2:]]; "
    "from claimledger.cli import main; main()"
)
"""A command run in a new process, after the patch in its first argument."""

NO_LEDGER_CACHE = """
import contextlib
with contextlib.suppress(ImportError):
    import claimledger.ledger.cache as cache
    cache.cache_file = lambda ledger: None
"""
"""Every command reads and checks the ledger (what the faster readers speed is this)."""

FULL_READER = """
import claimledger.ledger.model as model

def read(text, filename="claims.yaml"):
    with model.collector_paused():
        return model._parse_located(text, filename), None

model.read = read
"""
"""Every ledger read as one the plain reader gives up on is: libyaml's composer with
positions, then fastjsonschema (and jsonschema to explain a refusal)."""

FAST_SCHEMA = """
import claimledger.ledger.model as model
import claimledger.ledger.shape as shape
from fastjsonschema import JsonSchemaException

def accepts(data):
    try:
        shape._accepts()(data)
    except JsonSchemaException:
        return False
    return True

model.shape_accepts = accepts
"""
"""The compiled yes/no schema replaced by fastjsonschema, which the loader has anyway."""

INLINE_READERS = """
import contextlib
import claimledger.evidence.pagepool as pagepool

@contextlib.contextmanager
def inline(pages, *, workers=None, first=False):
    yield None

pagepool.page_readers = inline
"""
"""Every page read on the event loop's thread."""

EXECUTOR_READERS = """
import asyncio, contextlib
from concurrent.futures import ProcessPoolExecutor
import claimledger.evidence.pagepool as pagepool
from claimledger.evidence.refresh import read_task

class Executor:
    def __init__(self, workers):
        self.capacity = 2 * workers
        self.executor = ProcessPoolExecutor(workers)

    def read(self, task):
        return asyncio.wrap_future(self.executor.submit(read_task, task))

@contextlib.contextmanager
def executor(pages, *, workers=None, first=False):
    count = min(pagepool.cores(), pagepool.MAX_WORKERS)
    if pages < pagepool.POOL_FROM or count < 2:
        yield None
        return
    readers = Executor(count)
    try:
        yield readers
    finally:
        readers.executor.shutdown(wait=True, cancel_futures=True)

pagepool.page_readers = executor
"""
"""Pages read by a plain ProcessPoolExecutor (the platform's default start method), from
as many pages on as the pool."""

NO_TEMPLATE_CACHE = """
import claimledger.cli.reporting as reporting
reporting.compiled_templates = lambda: None
"""
"""Templates compiled at every render."""

PATHS: dict[str, tuple[str, str]] = {
    "ledger cache": ("ledger/cache.py", NO_LEDGER_CACHE),
    "plain reader": ("ledger/plainyaml.py", FULL_READER),
    "strict schema": ("ledger/strictschema.py", FAST_SCHEMA),
    "reader pool": ("evidence/pagepool.py", INLINE_READERS),
    "reader pool for an executor": ("evidence/pagepool.py", EXECUTOR_READERS),
    "template cache": ("report/signedcache.py", NO_TEMPLATE_CACHE),
}
"""Each speed path: its module, and the patch that turns it off."""

Off = frozenset[str]
"""An arm: the speed paths turned off (none: the package as it is)."""


@dataclass(frozen=True)
class Comparison:
    """What a speed path buys: the arm with it against the arm without it."""

    speed_path: str
    with_: Off
    without: Off


def _off(*paths: str) -> Off:
    return frozenset(paths)


COMPARISONS = {
    "ledger": (
        Comparison("ledger/cache.py", _off(), _off("ledger cache")),
        Comparison(
            "ledger/plainyaml.py + strictschema.py",
            _off("ledger cache"),
            _off("ledger cache", "plain reader"),
        ),
        Comparison(
            "ledger/strictschema.py alone",
            _off("ledger cache"),
            _off("ledger cache", "strict schema"),
        ),
        Comparison(
            "ledger/plainyaml.py alone",
            _off("ledger cache", "strict schema"),
            _off("ledger cache", "plain reader"),
        ),
    ),
    "refresh": (
        Comparison("evidence/pagepool.py (vs inline)", _off(), _off("reader pool")),
        Comparison(
            "evidence/pagepool.py (vs a ProcessPoolExecutor)",
            _off(),
            _off("reader pool for an executor"),
        ),
    ),
    "render": (Comparison("report/signedcache.py", _off(), _off("template cache")),),
}
"""What each workload weighs. The ledger's faster readers are weighed with the ledger
cache off, since what they speed is a command that reads the ledger."""


def present(off: Off, source: Path) -> Off:
    """The speed paths of `off` that the package at `source` still has (the others are
    off already)."""
    return frozenset(path for path in off if (source / "claimledger" / PATHS[path][0]).is_file())


def arm_name(off: Off) -> str:
    return "as shipped" if not off else " + ".join(sorted(off)) + " off"


def arms_for(workload: str, source: Path) -> list[Arm]:
    """The distinct arms the workload's comparisons need, on the package at `source`."""
    wanted: dict[Off, None] = {}
    for comparison in COMPARISONS[workload]:
        with_, without = present(comparison.with_, source), present(comparison.without, source)
        if with_ != without:
            wanted.update(dict.fromkeys((with_, without)))
    return [
        Arm(arm_name(off), source, "".join(PATHS[path][1] for path in sorted(off)))
        for off in wanted
    ]


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class Arm:
    """One side of a comparison: a package source and a patch applied before the command."""

    name: str
    source: Path
    patch: str = ""


@dataclass
class Figure:
    """The seconds of one command, per arm: wall (what the user waits) and CPU (of the
    command's process and the helpers it waited for: steadier on a busy machine)."""

    workload: str
    wall: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)

    def median(self, arm: str) -> tuple[float, float]:
        return statistics.median(self.wall[arm]), statistics.median(self.cpu[arm])


class Runner:
    """Runs `claimledger` commands in new processes, each in an environment of its own
    (its own cache and config directories, so nothing of the developer's is read)."""

    def __init__(self, home: Path) -> None:
        self.home = home
        self.environment = {
            name: value
            for name, value in os.environ.items()
            if name not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
        }
        self.environment["XDG_CACHE_HOME"] = str(home / "cache")
        self.environment["XDG_CONFIG_HOME"] = str(home / "config")

    def seconds(
        self, arm: Arm, arguments: Sequence[str], cwd: Path | None = None
    ) -> tuple[float, float]:
        """Wall and CPU seconds of `claimledger ARGUMENTS` run as `arm` (exit 0 or 1)."""
        command = [sys.executable, "-c", BOOT, arm.patch, *arguments]
        environment = {**self.environment, "PYTHONPATH": str(arm.source)}
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(
            command, capture_output=True, text=True, check=False, env=environment, cwd=cwd
        )
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        if done.returncode not in (0, 1):
            raise SystemExit(
                f"{arm.name}: {' '.join(arguments)} exited {done.returncode}:\n"
                f"{done.stderr[-2000:]}"
            )
        cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
        return wall, cpu


def alternated(
    runner: Runner,
    workload: str,
    arms: Sequence[Arm],
    runs: int,
    arguments: Callable[[], Sequence[str]],
    cwd: Path | None = None,
) -> Figure:
    """`runs` rounds, each running every arm once (their order turning round by round),
    after one untimed round that leaves bytecode and caches as a user's second command
    finds them."""
    figure = Figure(workload, {arm.name: [] for arm in arms}, {arm.name: [] for arm in arms})
    for arm in arms:
        runner.seconds(arm, arguments(), cwd)
    for round_ in range(runs):
        for arm in arms if round_ % 2 == 0 else list(reversed(arms)):
            wall, cpu = runner.seconds(arm, arguments(), cwd)
            figure.wall[arm.name].append(wall)
            figure.cpu[arm.name].append(cpu)
    said = (f"{arm.name} {figure.median(arm.name)[0]:.2f} s" for arm in arms)
    print(f"  {workload}: {', '.join(said)}", flush=True)
    return figure


# --------------------------------------------------------------------------- workloads


def always(*arguments: str) -> Callable[[], Sequence[str]]:
    """The same arguments for every run."""
    return lambda: arguments


def ledger_workload(runner: Runner, arms: Sequence[Arm], runs: int) -> list[Figure]:
    """`check`, `status`, `regrade` on 5,000 realistic claims; `check` of bench_scale's
    50,000 plain claims and of the bundled ledger."""
    from bench_scale import fill_store, ledger_text, realistic_ledger

    folder = runner.home / "scale"
    (folder / "out").mkdir(parents=True)
    text, quotes = realistic_ledger(5_000)
    (folder / "claims.yaml").write_text(text, encoding="utf-8")
    fill_store(folder / "out" / "evidence.sqlite3", quotes)
    ledger = str(folder / "claims.yaml")
    figures = [
        alternated(
            runner,
            f"`{command}`, 5,000 claims",
            arms,
            runs,
            always("--ledger", ledger, command),
        )
        for command in ("check", "status", "regrade")
    ]
    big = runner.home / "big.yaml"
    big.write_text(ledger_text(50_000), encoding="utf-8")
    figures.append(
        alternated(
            runner,
            "`check`, 50,000 plain claims",
            arms,
            runs,
            always("--ledger", str(big), "check"),
        )
    )
    bundled = runner.home / "bundled"
    bundled.mkdir()
    shutil.copy(ROOT / "claims.yaml", bundled / "claims.yaml")
    figures.append(
        alternated(
            runner,
            "`check`, the bundled ledger",
            arms,
            runs,
            always("--ledger", str(bundled / "claims.yaml"), "check"),
        )
    )
    return figures


def refresh_workload(runner: Runner, arms: Sequence[Arm], runs: int) -> list[Figure]:
    """A cold refresh (a new evidence store each time) and a warm one (every page 304)."""
    import bench_refresh

    from webserver import PageServer

    folder = runner.home / "refresh"
    folder.mkdir()
    common = ["--allow-private", "--concurrency", "16", "--per-host", "16", "--interval", "0"]
    with PageServer(latency=bench_refresh.LATENCY) as server:
        bench_refresh.build(server, folder)
        ledger = ["--ledger", str(folder / "claims.yaml")]
        counter = itertools.count()

        def cold() -> list[str]:
            store = folder / f"cold-{next(counter)}.sqlite3"
            return [*ledger, "--evidence", str(store), "refresh", "--json", *common]

        figures = [alternated(runner, "cold refresh, 200 pages", arms, runs, cold)]
        warm = [*ledger, "--evidence", str(folder / "warm.sqlite3"), "refresh", "--json", *common]
        figures.append(
            alternated(runner, "warm refresh, 200 pages (304s)", arms, runs, always(*warm))
        )
    return figures


def render_workload(runner: Runner, arms: Sequence[Arm], runs: int) -> list[Figure]:
    """`render` of the fixture to Markdown and HTML, and of 5,000 claims to Markdown."""
    from bench_scale import fill_store, realistic_ledger

    fixture = runner.home / "fixture"
    fixture.mkdir()
    shutil.copy(ROOT / "tests" / "data" / "render_fixture.yaml", fixture / "claims.yaml")
    figures = [
        alternated(
            runner,
            f"`render` of the fixture to {fmt}",
            arms,
            runs,
            always("render", "-o", f"report.{fmt}"),
            cwd=fixture,
        )
        for fmt in ("md", "html")
    ]
    folder = runner.home / "scale-render"
    (folder / "out").mkdir(parents=True)
    text, quotes = realistic_ledger(5_000)
    (folder / "claims.yaml").write_text(text, encoding="utf-8")
    fill_store(folder / "out" / "evidence.sqlite3", quotes)
    figures.append(
        alternated(
            runner,
            "`render`, 5,000 claims, to md",
            arms,
            runs,
            always("render", "-o", "report.md"),
            cwd=folder,
        )
    )
    return figures


WORKLOADS: dict[str, Callable[[Runner, Sequence[Arm], int], list[Figure]]] = {
    "ledger": ledger_workload,
    "refresh": refresh_workload,
    "render": render_workload,
}


# --------------------------------------------------------------------------- comparisons


@contextlib.contextmanager
def source_at(revision: str) -> Iterator[Path]:
    """The package's `src/` as it was at `revision`, in a temporary folder."""
    with tempfile.TemporaryDirectory() as folder:
        archive = subprocess.run(
            ["git", "-C", str(ROOT), "archive", "--format=tar", revision, "src"],
            capture_output=True,
            check=True,
        ).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            tar.extractall(folder, filter="data")
        yield Path(folder) / "src"


def table(rows: Sequence[tuple[str, Figure, str, str]], runs: int) -> None:
    """A Markdown row per (speed path, figure, arm with, arm without): medians, ratio."""
    print(f"\nmedians of {runs} alternated runs, a new process each; wall s (CPU s)\n")
    print("| speed path | workload | with | without | without / with |")
    print("|---|---|---|---|---|")
    for speed_path, figure, with_, without in rows:
        (wall, cpu), (slow_wall, slow_cpu) = figure.median(with_), figure.median(without)
        print(
            f"| {speed_path} | {figure.workload} | {wall:.2f} ({cpu:.2f}) | "
            f"{slow_wall:.2f} ({slow_cpu:.2f}) | {slow_wall / wall:.2f}x "
            f"({slow_cpu / cpu:.2f}x) |"
        )


def rows_of(
    workload: str, figures: Sequence[Figure], source: Path
) -> list[tuple[str, Figure, str, str]]:
    """The table's rows for one workload's figures: each comparison whose arms differ."""
    rows = []
    for comparison in COMPARISONS[workload]:
        with_, without = present(comparison.with_, source), present(comparison.without, source)
        if with_ != without:
            rows += [
                (comparison.speed_path, figure, arm_name(with_), arm_name(without))
                for figure in figures
            ]
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("workloads", nargs="*", metavar="WORKLOAD", help=", ".join(WORKLOADS))
    parser.add_argument("--runs", type=int, default=5, help="alternated rounds (default 5)")
    chosen = parser.add_mutually_exclusive_group()
    chosen.add_argument("--at", metavar="REV", help="measure the package at git revision REV")
    chosen.add_argument("--against", metavar="REV", help="compare with the package at REV")
    options = parser.parse_args()
    unknown = sorted(set(options.workloads) - set(WORKLOADS))
    if unknown:
        parser.error(f"no workload {', '.join(unknown)}; there are {', '.join(WORKLOADS)}")
    rows: list[tuple[str, Figure, str, str]] = []
    with tempfile.TemporaryDirectory() as home, contextlib.ExitStack() as stack:
        runner = Runner(Path(home))
        here = stack.enter_context(source_at(options.at)) if options.at else ROOT / "src"
        before = stack.enter_context(source_at(options.against)) if options.against else None
        for workload in options.workloads or list(WORKLOADS):
            print(f"== {workload}", flush=True)
            if before is not None:
                arms = [Arm("now", here), Arm(options.against, before)]
                figures = WORKLOADS[workload](runner, arms, options.runs)
                rows += [(f"{options.against} -> now", f, options.against, "now") for f in figures]
            else:
                arms = arms_for(workload, here)
                if len(arms) < 2:
                    print("  nothing to compare: its speed paths are gone", flush=True)
                    continue
                figures = WORKLOADS[workload](runner, arms, options.runs)
                rows += rows_of(workload, figures, here)
    table(rows, options.runs)


if __name__ == "__main__":
    main()
