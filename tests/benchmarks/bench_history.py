"""The refresh's history step: the seconds it adds to a refresh, on a docs repository made
here (one page's file rewritten in `--commits` commits among `--files` other files, a
rename, a rewording and a removal), its page served on 127.0.0.1.

Each refresh runs as a user runs it (a new process, the workspace trusted, `--no-as-read`
so that only the history step differs), `--rounds` times, and the median is printed for:
with a new evidence store each round: a refresh with `--no-history` (the floor), one
whose clone is made in the run (the cache emptied first), one whose clone is only fetched
and whose histories are read; with the store kept: `--no-history` again, and the history
step reusing the histories kept (the clone fetched, no history read).

    python tests/benchmarks/bench_history.py [--commits 300] [--files 200] [--rounds 5]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from evidence_site import page  # noqa: E402
from webserver import PageServer  # noqa: E402

KEPT = "Each node keeps a write-ahead log on local disk."
OLD = "Acknowledged writes are never lost, even when a node fails."
NEW = "Acknowledged writes are kept while a majority of nodes is up."
CUT = "Snapshots are taken every hour without pausing writes."

LEDGER = """\
ledger: 1
title: History benchmark
date_read: 2026-01-10
sections:
  - {{id: main, title: Main}}
sources:
  guide:
    url: "{url}"
    title: Guide
    kind: docs
    publisher: example.com
    repo: ../docs-repo
    path: docs/durability.md
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: An acknowledged write survives a node failure.
    quotes:
      - {{text: "{old}", sources: [guide]}}
      - {{text: "{cut}", sources: [guide]}}
      - {{text: "{kept}", sources: [guide]}}
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


def git(repo: Path, *args: str, stdin: str | None = None) -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada Writer",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada Writer",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
    }
    done = subprocess.run(
        ["git", *args], cwd=repo, env=env, input=stdin, capture_output=True, text=True, check=True
    )
    return done.stdout


def make_repo(repo: Path, commits: int, files: int) -> None:
    """A docs repository whose page's file has `commits` versions (with a rename, a removal
    and a rewording among them), beside `files` other pages."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for number in range(files):
        target = repo / "docs" / f"page-{number}.md"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f"# Page {number}\n\n" + "Some prose here. " * 200, "utf-8")
    guide = repo / "docs" / "guide.md"
    for number in range(commits):
        day = f"2025-{1 + number * 12 // commits:02d}-{1 + number % 28:02d}T10:00:00"
        guide.write_text(f"# Durability\n\n{KEPT}\n\n{OLD}\n\n{CUT}\n\nRevision {number}.\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", f"Revise the guide ({number})", "--date", day)
    git(repo, "mv", "docs/guide.md", "docs/durability.md")
    git(repo, "commit", "-q", "-m", "Move the guide", "--date", "2026-02-01T10:00:00")
    target = repo / "docs" / "durability.md"
    target.write_text(f"# Durability\n\n{KEPT}\n\n{OLD}\n", "utf-8")
    git(repo, "commit", "-qam", "Drop the snapshot promise", "--date", "2026-03-01T10:00:00")
    target.write_text(f"# Durability\n\n{KEPT}\n\n{NEW}\n", "utf-8")
    git(repo, "commit", "-qam", "Rework the guide (#181)", "--date", "2026-05-15T10:00:00")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--commits", type=int, default=300)
    parser.add_argument("--files", type=int, default=200)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temp, PageServer() as server:
        home = Path(temp)
        make_repo(home / "docs-repo", args.commits, args.files)
        server.set_page("/durability", page(KEPT, NEW))
        ledger = home / "work" / "claims.yaml"
        ledger.parent.mkdir()
        url = server.url("/durability")
        ledger.write_text(LEDGER.format(url=url, old=OLD, cut=CUT, kept=KEPT), "utf-8")
        cache = home / "cache"
        env = {**os.environ, "XDG_CACHE_HOME": str(cache), "XDG_CONFIG_HOME": str(home / "c")}
        base = [sys.executable, "-m", "claimledger", "--ledger", str(ledger)]
        subprocess.run([*base, "trust"], env=env, check=True, capture_output=True)
        refresh = [*base, "refresh", "--allow-private", "--no-as-read", "--format", "json"]

        def fresh_store() -> None:
            shutil.rmtree(ledger.parent / "out", ignore_errors=True)

        def cold() -> None:
            fresh_store()
            shutil.rmtree(cache, ignore_errors=True)

        def timed(extra: list[str], before: Callable[[], None] = lambda: None) -> float:
            taken = []
            for _ in range(args.rounds):
                before()
                started = time.perf_counter()
                subprocess.run([*refresh, *extra], env=env, capture_output=True, check=False)
                taken.append(time.perf_counter() - started)
            return statistics.median(taken)

        rows = {
            "new store, --no-history (floor)": timed(["--no-history"], fresh_store),
            "new store, clone made in the run (cold)": timed([], cold),
            "new store, clone fetched, histories read": timed([], fresh_store),
            "store kept, --no-history (floor)": timed(["--no-history"]),
            "store kept, clone fetched, histories reused": timed([]),
        }
        size = sum(
            f.stat().st_size for f in (home / "docs-repo" / ".git").rglob("*") if f.is_file()
        )
    print(
        f"history step: {args.commits} versions of the page's file, {args.files} other "
        f"files, repository {size / 1e6:.1f} MB; median of {args.rounds}"
    )
    floor = 0.0
    for name, seconds in rows.items():
        floor = seconds if "floor" in name else floor
        added = "" if "floor" in name else f"  ({seconds - floor:+.3f} s)"
        print(f"  {name:<45} {seconds:6.3f} s{added}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
