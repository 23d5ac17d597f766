"""One test per exit code of the command line: 0, 1, 2, 70 and 130.

0 the run worked and found nothing; 1 it worked and found drift; 2 bad input or
usage; 70 an internal error (one line, the traceback only with --debug); 130
interrupted. Each is reached the way a user reaches it: a real ledger, a real
loopback server, a real signal to a real process.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from cli_runner import claimledger, installed
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

    assert "ok: 1 claim, 1 source, 1 facet" in result.stdout
    assert result.stderr == ""


def test_exit_1_when_refresh_finds_drift(tmp_path: Path, page_server: PageServer) -> None:
    page_server.set_page("/alarms", html(QUOTE.replace("time", "moment")))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))

    result = claimledger("--ledger", str(ledger), "refresh", "--allow-private", code=1)

    assert page_server.hits("/alarms") == 1
    assert "claimledger: error" not in result.stderr


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("check",), "claims.yaml:19:30: grade 'DEMONSTRATD' is not one of"),
        (("frobnicate",), "No such command 'frobnicate'"),
        (("history",), "Missing argument 'CLAIM'"),
        (("refresh", "--allow-private", "--timeout", "soon"), "Invalid value for '--timeout'"),
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
    if args[0] in ("frobnicate", "history", "refresh"):  # click's usage errors: one line too
        (line,) = result.stderr.splitlines()
        assert line.startswith("claimledger: error: ") and line.endswith(" -h`)")


@pytest.mark.parametrize(
    ("evidence", "said"),
    [
        ("", ". is a directory, where the evidence store should be a file"),
        (
            "store.fifo",
            "store.fifo is a FIFO (a named pipe), where the evidence store should be a file",
        ),
        ("./claims.yaml", "--evidence claims.yaml: that is the ledger, not an evidence store"),
    ],
    ids=["empty", "fifo", "the-ledger"],
)
def test_an_evidence_store_that_is_not_a_file_is_refused_unopened(
    tmp_path: Path, evidence: str, said: str
) -> None:
    """`--evidence ''` names the current directory; a FIFO, opened, would wait for a
    writer for ever; the ledger was "no evidence store", to be moved aside. Each is
    refused in one line before anything opens it."""
    write_ledger(tmp_path / "claims.yaml", "https://x.example/")
    os.mkfifo(tmp_path / "store.fifo")
    done = installed("--evidence", evidence, "status", cwd=tmp_path, code=2)
    assert done.stderr == f"claimledger: error: {said}\n"


@pytest.mark.parametrize(
    "environment",
    [{"PYTHONIOENCODING": "ascii"}, {"LC_ALL": "C", "PYTHONUTF8": "0"}],
    ids=["ascii", "c-locale"],
)
def test_a_stdout_that_cannot_encode_a_value_writes_it_escaped(
    tmp_path: Path, environment: dict[str, str]
) -> None:
    """A value beyond ASCII on a stdout that is ASCII: JSON's own escape, so `--json` reads
    back as it does on UTF-8, and a person still sees which character; never exit 70."""
    ledger = write_ledger(tmp_path / "claims.yaml", "https://x.example/")
    text = ledger.read_text(encoding="utf-8").replace("Alarms fire", "Ünï π ≠ 3 😀")
    ledger.write_text(text.replace("basis: quotes}", 'basis: quotes, why: "Ünï π ≠ 3 😀"}'))
    explained = installed("explain", "alarms", cwd=tmp_path, environment=environment)
    assert "\\u00dcn\\u00ef \\u03c0 \\u2260 3 \\ud83d\\ude00" in explained.stdout
    ascii_json = installed("status", "--json", cwd=tmp_path, code=1, environment=environment)
    utf8_json = installed("status", "--json", cwd=tmp_path, code=1)
    assert ascii_json.stdout.isascii()
    assert json.loads(ascii_json.stdout) == json.loads(utf8_json.stdout)
    assert "Ünï π ≠ 3 😀" in utf8_json.stdout


BUGGY = """
import sys
from claimledger.ledger import model as ledger
from claimledger.cli import main

def broken(*args, **kwargs):
    raise KeyError("a bug of ours")

ledger.ledger_schema = broken  # a bug planted in the code the command runs
sys.argv = ["claimledger", *sys.argv[1:]]
main()
"""
"""`claimledger` with a bug in it: no input a user can write reaches exit 70 any more, so
the one-line report of a bug is tested on a bug put there on purpose."""


def test_exit_70_for_an_internal_error_one_line_and_a_traceback_with_debug() -> None:
    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-c", BUGGY, *args],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )

    plain, debug = run("schema"), run("--debug", "schema")
    assert (plain.returncode, debug.returncode) == (70, 70)
    assert plain.stdout == ""
    assert plain.stderr.splitlines() == [
        "claimledger: internal error: KeyError: 'a bug of ours' (run with --debug for the "
        "traceback)"
    ]
    assert debug.stderr.startswith("Traceback (most recent call last):")
    assert debug.stderr.splitlines()[-1] == "claimledger: internal error: KeyError: 'a bug of ours'"


def test_a_lock_that_cannot_be_made_is_exit_2_not_a_bug(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A directory where the evidence store's lock goes: the machine refuses, plainly."""
    page_server.set_page("/alarms", html(QUOTE))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))
    (tmp_path / "out").mkdir()
    (tmp_path / "out" / "evidence.sqlite3.lock").mkdir()
    result = claimledger("--ledger", str(ledger), "refresh", "--allow-private", code=2)
    assert result.stderr.splitlines() == [
        f"claimledger: error: cannot write {tmp_path / 'out' / 'evidence.sqlite3.lock'}: "
        "a directory stands where the file should be; nothing was written"
    ]


@pytest.mark.slow
def test_exit_130_when_interrupted_and_the_store_stays_usable(
    tmp_path: Path, page_server: PageServer
) -> None:
    body = html(QUOTE).encode("utf-8")
    page_server.set_handler("/alarms", trickle(body, every=0.5))
    ledger = write_ledger(tmp_path / "claims.yaml", page_server.url("/alarms"))
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger)]

    with subprocess.Popen(
        [*command, "refresh", "--allow-private", "--timeout", "30"],
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
    # the cut-short run is no evidence that all is well: status and the gate say so
    for gate, code in ((["status"], 1), (["regrade", "--check"], 3)):
        cut = subprocess.run([*command, *gate], capture_output=True, text=True, timeout=30)
        assert cut.returncode == code, (gate, cut.stderr)
        assert "did not finish" in cut.stderr or "never been checked" in cut.stderr, gate
    page_server.set_page("/alarms", html(QUOTE))
    again = subprocess.run(
        [*command, "refresh", "--allow-private"],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert again.returncode == 0, again.stderr
    status = subprocess.run(
        [*command, "status"], capture_output=True, text=True, timeout=30, check=False
    )
    assert status.returncode == 0, status.stderr


INTERRUPTED_AT = """
import importlib.abc, sys

class Interrupt(importlib.abc.MetaPathFinder):
    \"\"\"Ctrl-C as it lands while {name} loads.\"\"\"
    def find_spec(self, name, path, target=None):
        if name == {name!r}:
            raise KeyboardInterrupt
        return None

sys.meta_path.insert(0, Interrupt())
sys.argv = ["claimledger", "check"]
from claimledger.__main__ import main
main()
"""


@pytest.mark.parametrize("loading", ["typer", "claimledger.cli.options"])
def test_exit_130_in_one_line_when_interrupted_while_the_command_line_loads(
    loading: str,
) -> None:
    """Before a command's own handling begins (the command line loading, typer building
    its commands), a Ctrl-C printed Python's traceback of the import it stopped, and the
    process died of the signal."""
    code = INTERRUPTED_AT.format(name=loading)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert (done.returncode, done.stderr) == (130, "claimledger: interrupted\n")


def wait_for(condition: Callable[[], bool], *, seconds: float) -> None:
    """Wait until `condition` holds; the deadline only keeps a broken run from hanging."""
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)
