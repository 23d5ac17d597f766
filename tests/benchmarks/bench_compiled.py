"""Compiled templates kept between renders: what the cache saves a `render`.

Two measures, each to Markdown and to HTML, of the report fixture:

* in one process, the first render of a new `Templates` (as each `render` command makes
  one) with no compiled templates kept, and with them kept in a warm signed cache (read,
  checked and loaded as every render does): best of RUNS;
* `claimledger render` run as a user runs it (a new process each time), with the cache
  warm and with none (a cache directory others may write to, which render does not
  use), the two alternated so that the machine's load falls on both alike: fastest and
  median of RUNS.

The cache is code that exists only for speed: it stays while it saves a render a share
of its time worth its keeping (tens of milliseconds of a command of some 0.3 s).

    python tests/benchmarks/bench_compiled.py
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from datetime import date
from pathlib import Path

from claimledger.grading.rules import regrade
from claimledger.ledger.file import load
from claimledger.report.build import build_report
from claimledger.report.formats import format_for
from claimledger.report.model import Report
from claimledger.report.signedcache import SignedCache
from claimledger.report.templates import Templates, templates_loader

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "tests" / "data" / "render_fixture.yaml"
RUNS = 15
FORMATS = ("md", "html")


def fixture_report() -> Report:
    ledger = load(FIXTURE)
    return build_report(
        ledger,
        [],
        {},
        regrade(ledger, []),
        generated_on=date(2026, 12, 1),
        last_refresh=None,
        previous=None,
    )


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def first_renders(base: Path) -> None:
    """The first render of a new Templates, compiled or read from a warm cache."""
    report = fixture_report()
    folder = base / "in-process"
    folder.mkdir(mode=0o700)
    store = SignedCache(folder, os.urandom(32))

    def first(fmt: str, kept: SignedCache | None) -> Callable[[], object]:
        return lambda: format_for(fmt, Templates(templates_loader(None), kept)).render(report)

    print(f"first render of a new Templates, in one process (best of {RUNS}):")
    for fmt in FORMATS:
        first(fmt, store)()  # warm the cache
        compiled = best_of(RUNS, first(fmt, None))
        kept = best_of(RUNS, first(fmt, store))
        print(
            f"  {fmt:>4}: compiled {compiled * 1000:6.1f} ms, from the cache "
            f"{kept * 1000:6.1f} ms, saved {(compiled - kept) * 1000:6.1f} ms"
        )


def command_seconds(project: Path, fmt: str, cache_home: Path) -> float:
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache_home)}
    environment["XDG_CONFIG_HOME"] = str(project.parent / "config")
    command = [sys.executable, "-m", "claimledger", "render", "-o", f"report.{fmt}"]
    started = time.perf_counter()
    subprocess.run(command, cwd=project, env=environment, capture_output=True, check=True)
    return time.perf_counter() - started


def commands(base: Path) -> None:
    """`claimledger render` in new processes, with a warm cache and with none."""
    project = base / "project"
    project.mkdir()
    (project / "claims.yaml").write_bytes(FIXTURE.read_bytes())
    warm, unusable = base / "warm", base / "unusable"
    (unusable / "claimledger" / "templates").mkdir(parents=True)
    (unusable / "claimledger" / "templates").chmod(0o777)  # others may write: not used
    print(f"claimledger render, a new process each (fastest / median of {RUNS}):")
    for fmt in FORMATS:
        command_seconds(project, fmt, warm)  # compile once, keep
        taken: dict[Path, list[float]] = {warm: [], unusable: []}
        for _ in range(RUNS):
            for home in taken:
                taken[home].append(command_seconds(project, fmt, home))
        kept, none = taken[warm], taken[unusable]
        saved = statistics.median(none) - statistics.median(kept)
        print(
            f"  {fmt:>4}: kept {min(kept):.3f} / {statistics.median(kept):.3f} s, "
            f"none {min(none):.3f} / {statistics.median(none):.3f} s, "
            f"saved {saved * 1000:.0f} ms ({saved / statistics.median(none):.0%}) a render"
        )


def main() -> None:
    with tempfile.TemporaryDirectory() as temporary:
        base = Path(temporary)
        first_renders(base)
        commands(base)


if __name__ == "__main__":
    main()
