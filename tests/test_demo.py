"""`claimledger demo` end to end, as a newcomer runs it: a real process, a time limit.

The demo must finish cleanly, and its ledger, evidence and report must show the
drift it was built to show: a moved page, a 404, a guarantee whose wording now
says the opposite, a quote that vanished, and a harmless rewording accepted into
the ledger. It can be run again in the same directory, it refuses a directory it
did not make, and `python -m claimledger` runs it too.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from claimledger.errors import ExitCode
from claimledger.ledger.file import load
from claimledger.ledger.model import ledger_schema
from cli_runner import Cli

TIME_LIMIT = 120  # seconds; the demo takes a few, this only stops a hung run
CONSOLE_SCRIPT = Path(sys.executable).with_name("claimledger")

MOVED_FROM = "https://developers.cloudflare.com/agents/api-reference/store-and-sync-state/"
MOVED_TO = "https://developers.cloudflare.com/agents/runtime/lifecycle/state/"
GONE = "https://developers.cloudflare.com/agents/concepts/agentic-patterns/human-in-the-loop/"
REWORDED_BEFORE = "All requests sent to that Durable Object are handled by that same instance."
REWORDED_AFTER = "All requests sent to that Durable Object are handled by the same instance."
REVERSED = (
    "SQLite storage operations are synchronous and do not yield the event loop, "
    "so they execute atomically without it."
)
VANISHED = (
    "When a storage write operation is in progress, any new outgoing network messages "
    "will be held back until the write has completed."
)


def demo(
    command: list[str], directory: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*command, "demo", str(directory)],
        capture_output=True,
        text=True,
        timeout=TIME_LIMIT,
        check=False,
        env=env,
    )


def git_that_tells(folder: Path) -> dict[str, str]:
    """An environment whose `git` only notes that it ran (in `folder`/git-ran)."""
    bin_dir = folder / "bin"
    bin_dir.mkdir()
    git = bin_dir / "git"
    git.write_text(f'#!/bin/sh\necho "$@" >> "{folder / "git-ran"}"\nexit 1\n', "utf-8")
    git.chmod(0o755)
    return {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}


def evidence(ledger: Path, *args: str, code: int) -> Any:
    """What the demo left in its evidence store, read back through the CLI's JSON; the
    command must exit with `code` (the demo leaves drift behind, so `status` finds some)."""
    return Cli(ledger).json(*args, code=code)


def assert_demo_showed_its_drift(directory: Path) -> None:
    ledger = directory / "claims.yaml"
    written = load(ledger)
    schema = json.loads((directory / "ledger.schema.json").read_text(encoding="utf-8"))
    assert schema == ledger_schema()  # beside the ledger, where its first line points
    # the harmless rewording was accepted; the reversed guarantee was not
    assert written.claim("one-instance").quotes[0].text == REWORDED_AFTER
    assert written.claim("sync-sqlite").quotes[0].text == REVERSED
    assert [(h.by, h.quote_was, h.quote_now) for h in written.claim("one-instance").history] == [
        ("accept", REWORDED_BEFORE, REWORDED_AFTER)
    ]
    assert str(written.claim("output-gate").grades[0].grade) == "UNKNOWN"

    status = evidence(ledger, "status", code=ExitCode.FOUND)
    sources = {s["url"]: s for s in status["sources"]}
    assert sources[MOVED_FROM]["source_status"] == "moved"
    assert sources[MOVED_FROM]["moved_to"] == MOVED_TO
    assert (sources[GONE]["source_status"], sources[GONE]["http_status"]) == ("gone", 404)
    checks = {
        c["quote_text"]: c
        for c in evidence(ledger, "diff", code=ExitCode.FOUND)["checks"]
        if c["status"] != "verified"
    }
    assert checks[REVERSED]["status"] == "drifted"
    assert checks[REVERSED]["meaning_changed"] is True
    assert checks[VANISHED]["status"] == "missing"
    assert REWORDED_AFTER not in checks  # verified since it was adopted

    report = (directory / "out" / "report.md").read_text(encoding="utf-8")
    churn = report.split("## Documentation churn", 1)[1].split("\n## ", 1)[0]
    assert MOVED_FROM in churn and MOVED_TO in churn
    assert GONE in churn and "404" in churn
    assert REVERSED in churn and "asynchronous" in churn
    assert VANISHED in churn
    assert f"> {REWORDED_AFTER}" in report
    assert REWORDED_BEFORE in report  # the claim's history keeps the wording it replaced
    html = (directory / "out" / "report.html").read_text(encoding="utf-8")
    assert html.lstrip().lower().startswith("<!doctype html>")


@pytest.mark.slow
def test_demo_runs_the_whole_loop_twice_in_the_same_directory(tmp_path: Path) -> None:
    directory = tmp_path / "demo"
    assert CONSOLE_SCRIPT.exists(), f"no console script at {CONSOLE_SCRIPT}"

    first = demo([str(CONSOLE_SCRIPT)], directory, env=git_that_tells(tmp_path))

    assert first.returncode == ExitCode.OK, first.stderr
    assert not (tmp_path / "git-ran").exists()  # no repository cloned: the demo is offline
    assert "(that same -> the same)" in first.stdout  # the rewording it says it shows,
    assert "\n      that -> the\n" in first.stdout  # and the one its diff shows
    for step in (
        "1. refresh",
        "2. the pages change",
        "4. allow the ledger",
        "5. what the evidence does",
        "9. render",
    ):
        assert step in first.stdout
    finished = re.search(r"demo finished in ([\d.]+) s; the report is (\S+) ", first.stdout)
    assert finished, first.stdout
    assert Path(finished.group(2)) == directory / "out" / "report.md"
    assert "Traceback" not in first.stderr
    assert_demo_showed_its_drift(directory)
    checks_after_one_run = len(
        evidence(directory / "claims.yaml", "history", "one-instance", code=ExitCode.OK)["checks"]
    )

    second = demo([sys.executable, "-m", "claimledger"], directory)

    assert second.returncode == ExitCode.OK, second.stderr
    assert_demo_showed_its_drift(directory)
    history = evidence(directory / "claims.yaml", "history", "one-instance", code=ExitCode.OK)
    assert len(history["checks"]) == checks_after_one_run  # a fresh copy, not a second layer


def test_demo_refuses_a_directory_it_did_not_make(tmp_path: Path) -> None:
    directory = tmp_path / "mine"
    directory.mkdir()
    (directory / "notes.txt").write_text("my own notes\n", encoding="utf-8")

    result = demo([sys.executable, "-m", "claimledger"], directory)

    assert result.returncode == ExitCode.INPUT
    assert "exists and is not a claimledger demo" in result.stderr
    assert [p.name for p in directory.iterdir()] == ["notes.txt"]
    assert (directory / "notes.txt").read_text(encoding="utf-8") == "my own notes\n"
