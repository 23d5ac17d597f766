"""One test per exit code of the command line: 0, 1, 2, 70 and 130.

0 the run worked and found nothing; 1 it worked and found drift; 2 bad input or
usage; 70 an internal error (one line, the traceback only with --debug); 130
interrupted. Each is reached the way a user reaches it: a real ledger, a real
loopback server, a real signal to a real process.
"""

from __future__ import annotations

import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_runner import claimledger
from webserver import PageServer, trickle

QUOTE = "The alarm handler runs at least once for every scheduled alarm time."

LEDGER = """\
ledger: 1
title: Exit codes
date_read: 2026-08-23
sections:
  - id: main
    title: Main
sources:
  doc: {{url: "{url}", title: Doc, kind: docs, publisher: p}}
claims:
  - id: alarms
    section: main
    title: Alarms fire
    kind: guarantee
    statement: Every alarm runs.
    quotes:
      - text: "{quote}"
        sources: [doc]
    grades:
      - {{on: wording, grade: {grade}, basis: quotes}}
"""


def write_ledger(path: Path, url: str, *, grade: str = "DEMONSTRATED") -> Path:
    path.write_text(LEDGER.format(url=url, quote=QUOTE, grade=grade), encoding="utf-8")
    return path


def html(text: str) -> str:
    return f"<html><body><main><p>{text} More prose follows.</p></main></body></html>"


def test_exit_0_when_the_ledger_checks_out(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path / "claims.yaml", "https://docs.example.com/alarms")

    result = claimledger("--ledger", str(ledger), "check", code=0)

    assert "ok: 1 claims, 1 sources, 1 facets" in result.stdout
    assert result.stderr == ""


def test_exit_1_when_refresh_finds_drift(tmp_path: Path, page_server: PageServer) -> None:
    page_server.set_page("/alarms", html(QUOTE.replace("time", "moment")))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))

    result = claimledger("--ledger", str(ledger), "refresh", code=1)

    assert page_server.hits("/alarms") == 1
    assert "claimledger: error" not in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check",), "claims.yaml:19:30: grade 'DEMONSTRATD' is not one of"),
        (("frobnicate",), "No such command 'frobnicate'"),
        (("history",), "Missing argument 'CLAIM'"),
        (("refresh", "--timeout", "soon"), "Invalid value for '--timeout'"),
        (
            ("render", "--format", "pdf"),
            "unknown report format 'pdf': use one of md, html, json, claimreview",
        ),
    ],
    ids=["bad-ledger", "unknown-command", "missing-argument", "bad-option-value", "bad-format"],
)
def test_exit_2_for_bad_input_or_usage(tmp_path: Path, args: tuple[str, ...], message: str) -> None:
    ledger = write_ledger(tmp_path / "claims.yaml", "https://x.example/", grade="DEMONSTRATD")
    if args != ("check",):
        write_ledger(ledger, "https://x.example/")

    result = claimledger("--ledger", str(ledger), *args, code=2)

    assert message in result.stderr
    assert "Traceback" not in result.output


def test_exit_70_for_an_internal_error_one_line_and_a_traceback_with_debug(
    tmp_path: Path, page_server: PageServer
) -> None:
    """No user input explains a lock file that is a directory: an error nobody planned for.

    Every bad path a user can pass (a directory, a FIFO, /dev/null, a path under a
    file, an unwritable report) is a clean exit 2; the evidence store's lock being a
    directory is the unplanned failure left, and it is what exit 70 is for.
    """
    page_server.set_page("/alarms", html(QUOTE))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "evidence.sqlite3.lock").mkdir()

    plain = claimledger("--ledger", str(ledger), "refresh", code=70)
    debug = claimledger("--ledger", str(ledger), "--debug", "refresh", code=70)

    assert plain.stderr.splitlines() == [
        "claimledger: internal error: IsADirectoryError: [Errno 21] Is a directory: "
        f"'{tmp_path / 'out' / 'evidence.sqlite3.lock'}' (run with --debug for the traceback)"
    ]
    assert debug.stderr.startswith("Traceback (most recent call last):")
    assert debug.stderr.splitlines()[-1].startswith(
        "claimledger: internal error: IsADirectoryError: "
    )
    assert "--debug" not in debug.stderr.splitlines()[-1]


@pytest.mark.slow
def test_exit_130_when_interrupted_and_the_store_stays_usable(
    tmp_path: Path, page_server: PageServer
) -> None:
    body = html(QUOTE).encode("utf-8")
    page_server.set_handler("/alarms", trickle(body, every=0.5))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger)]

    with subprocess.Popen(
        [*command, "refresh", "--timeout", "30"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as process:
        wait_for(lambda: page_server.hits("/alarms") > 0, seconds=15)
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=15)

    assert process.returncode == 130
    assert stderr.splitlines() == ["claimledger: interrupted"]
    assert stdout == ""
    page_server.set_page("/alarms", html(QUOTE))
    again = subprocess.run(
        [*command, "refresh"], capture_output=True, text=True, timeout=30, check=False
    )
    assert again.returncode == 0, again.stderr
    status = subprocess.run(
        [*command, "status"], capture_output=True, text=True, timeout=30, check=False
    )
    assert status.returncode == 0, status.stderr


def wait_for(condition: Callable[[], bool], *, seconds: float) -> None:
    """Wait until `condition` holds; the deadline only keeps a broken run from hanging."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)
