"""A reader of a command's output that goes away (`claimledger status --json | head -c
100`), met as a user meets it: the installed script in a real shell pipeline, or writing to
a pipe whose reader is already gone. The command stops, says nothing and exits 141, as git
and ripgrep do when SIGPIPE ends them; never an internal error, a traceback, or exit 1.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from cli_runner import installed, into_closed_pipe, piped, with_closed
from evidence_site import serve_v1, write_ledger
from webserver import PageServer


@pytest.fixture
def home(tmp_path: Path, page_server: PageServer) -> Path:
    """A small reading's directory, its pages served as quoted."""
    serve_v1(page_server)
    return write_ledger(tmp_path, page_server).parent


@pytest.fixture(scope="module")
def big(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A ledger of 5,000 claims: every listing of it is more than a pipe holds."""
    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    from bench_scale import ledger_text

    home = tmp_path_factory.mktemp("big")
    (home / "claims.yaml").write_text(ledger_text(5_000), encoding="utf-8")
    return home


@pytest.mark.parametrize(
    ("command", "opening"),
    [
        (("status", "--json"), '{\n  "schema_version": 2,\n  "last_refresh": null'),
        (("claims", "--json"), '{\n  "schema_version": 2,\n  "claims": [\n    {\n'),
        (("claims",), "5000 claims\n┏━"),
        (("ls", "--plain"), "claim\tsection\tgrades\tquotes\tstanding\nc0\tmain\t"),
    ],
)
def test_head_ends_a_long_output_quietly_with_141(
    big: Path, command: tuple[str, ...], opening: str
) -> None:
    """`claimledger status --json | head -c 100`: head reads its 100 bytes and goes; the
    command stops there, says nothing and exits 141, as git or ripgrep killed by SIGPIPE."""
    done = piped(*command, reader="head -c 100", cwd=big)
    assert (done.status, done.stderr) == (141, "")
    assert done.read.startswith(opening) and len(done.read) <= 100


@pytest.mark.parametrize(
    "command",
    [
        ("--help",),
        ("--version",),
        ("status", "--help"),
        ("schema",),
        ("check", "--json"),
        ("status",),
        ("history", "durable"),
        ("history", "durable", "--json"),
        ("diff", "--json"),
        ("explain", "durable", "--json"),
        ("regrade", "--json"),
        ("trust", "--list", "--json"),
        ("demo", "tour"),
    ],
)
def test_a_pipe_closed_before_the_first_byte_ends_any_command_quietly(
    home: Path, command: tuple[str, ...]
) -> None:
    """However little a command prints (help, the version, a line), a reader already gone
    is met at its first write or last flush: 141 and silence, never exit 1 or 120. The
    demo stops there too, before its report."""
    installed("refresh", "--allow-private", cwd=home)
    done = into_closed_pipe(*command, cwd=home)
    assert (done.returncode, done.stderr) == (141, "")
    assert not (home / "tour" / "out" / "report.md").exists()


@pytest.mark.parametrize(
    "command",
    [
        ("status",),
        ("claims", "--json"),
        ("check",),
        ("schema",),
        ("diff",),
        ("render", "-o", "-"),
        ("explain", "durable", "--json"),
        ("set", "title", "written with no stdout"),
    ],
)
def test_a_stdout_closed_from_the_start_is_refused_in_one_line_before_anything_is_done(
    home: Path, command: tuple[str, ...]
) -> None:
    """`claimledger status >&-`: no reader was ever given, so the run is refused (2) in one
    line, never an internal error with a traceback; `set` leaves the ledger as it was."""
    ledger = (home / "claims.yaml").read_bytes()
    done = with_closed("stdout", *command, cwd=home)
    assert done.returncode == 2, done.stderr
    assert done.stderr == (
        "claimledger: error: standard output is closed (send it to /dev/null to discard"
        " it); nothing was done\n"
    )
    assert (home / "claims.yaml").read_bytes() == ledger
