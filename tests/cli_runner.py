"""The one way tests run the real command line: in-process, strict about the exit code;
and the installed script as a user runs it: in a pipe, in a shell pipeline, on a terminal.

A run that ends with another exit code than the test expects fails, with what the command
printed; a test that expects a failure says which code (`code=2`).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import re
import select
import shlex
import signal
import struct
import subprocess
import sys
import termios
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from claimledger.cli import app


def claimledger(*args: str, code: int = 0, stdin: str | bytes | None = None) -> Result:
    """`claimledger ARGS`; asserts it exits with `code` (0 unless the test says otherwise)."""
    result = CliRunner().invoke(app, list(args), input=stdin, catch_exceptions=False)
    assert result.exit_code == code, (
        f"claimledger {' '.join(args)}: exit {result.exit_code}, expected {code}\n"
        f"stdout:\n{result.stdout}\nstderr:\n{result.stderr}"
    )
    return result


class Cli:
    """`claimledger --ledger LEDGER ...` for tests that drive one ledger."""

    def __init__(self, ledger: Path) -> None:
        self.ledger = ledger

    def __call__(self, *args: str, code: int = 0, stdin: str | bytes | None = None) -> Result:
        return claimledger("--ledger", str(self.ledger), *args, code=code, stdin=stdin)

    def json(self, *args: str, code: int = 0) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)


class AuthorCli(Cli):
    """`Cli` for a ledger whose author writes its templates: each `render` comes after
    `trust`, as the author's own edits are theirs (consent covers the templates' content)."""

    def __call__(self, *args: str, code: int = 0, stdin: str | bytes | None = None) -> Result:
        if "render" in args:
            super().__call__("trust")
        return super().__call__(*args, code=code, stdin=stdin)


# --------------------------------------------------------------------------- the real binary

SCRIPT = Path(sys.executable).with_name("claimledger")
"""The console script pip installed beside this interpreter: the command a user runs."""


def user_environment(**extra: str) -> dict[str, str]:
    """The environment of a user's shell at 80 columns, with no colour forced either way."""
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "NO_COLOR", "TERM")}
    env.update({"COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color", **extra})
    return env


def installed(
    *args: str, cwd: Path, code: int = 0, environment: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The installed `claimledger ARGS`, its stdout a pipe, in a user's environment with
    `environment` added; asserts its exit status."""
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        env=user_environment(**(environment or {})),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == code, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


@dataclass(frozen=True)
class Piped:
    """A pipeline run in a shell: what its reader printed, and claimledger's own exit."""

    status: int
    read: str
    stderr: str


def piped(*args: str, reader: str, cwd: Path) -> Piped:
    """`claimledger ARGS | READER` in a real shell (sh). sh has no PIPESTATUS, so the
    left-hand side writes its exit status to a file of its own."""
    status = cwd / ".piped-status"
    line = shlex.join([str(SCRIPT), *args])
    script = f'{{ {line}; echo $? > "$1"; }} | {reader}'
    done = subprocess.run(
        ["sh", "-c", script, "sh", str(status)],
        cwd=cwd,
        env=user_environment(),
        capture_output=True,
        encoding="utf-8",
        errors="replace",  # `head -c` may stop inside a character
        timeout=120,
        check=True,
    )
    return Piped(int(status.read_text().strip()), done.stdout, done.stderr)


def into_closed_pipe(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed `claimledger ARGS` writing to a pipe whose reader is gone before it
    starts: however little it prints, the first write or flush meets the closed pipe."""
    reader, writer = os.pipe()
    os.close(reader)
    try:
        return subprocess.run(
            [str(SCRIPT), *args],
            cwd=cwd,
            env=user_environment(),
            stdout=writer,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
            check=False,
        )
    finally:
        os.close(writer)


def with_closed(stream: str, *args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The installed `claimledger ARGS` started with its standard `stream` ("stdin" or
    "stdout") closed, as `claimledger ARGS <&-` or `>&-` in a shell starts it."""
    closing = {"stdin": "<&-", "stdout": ">&-"}[stream]
    return subprocess.run(
        ["sh", "-c", f'exec "$0" "$@" {closing}', str(SCRIPT), *args],
        cwd=cwd,
        env=user_environment(),
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        timeout=120,
        check=False,
    )


ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def on_terminal(*args: str, cwd: Path, columns: int = 80) -> str:
    """The installed `claimledger ARGS` with its stdout on a terminal (a pty) `columns`
    wide, as a user sees it (its colours taken out)."""
    return _on_pty(args, cwd=cwd, columns=columns, stderr_too=False)[1]


def all_on_terminal(
    *args: str, cwd: Path, columns: int = 80, environment: dict[str, str] | None = None
) -> tuple[int, str]:
    """The installed `claimledger ARGS` with stdout and stderr on one terminal, as a user
    runs it in a shell (with `environment` added to the user's): its exit status, and what
    the terminal showed (colours out)."""
    return _on_pty(args, cwd=cwd, columns=columns, stderr_too=True, environment=environment)


def _on_pty(
    args: tuple[str, ...],
    *,
    cwd: Path,
    columns: int,
    stderr_too: bool,
    environment: dict[str, str] | None = None,
) -> tuple[int, str]:
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))
    process = subprocess.Popen(
        [str(SCRIPT), *args],
        cwd=cwd,
        env=user_environment(COLUMNS=str(columns), **(environment or {})),
        stdin=subprocess.DEVNULL,
        stdout=follower,
        stderr=follower if stderr_too else subprocess.DEVNULL,
    )
    os.close(follower)
    chunks = []
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # the other end closed (EIO on Linux)
            break
        if not chunk:
            break
        chunks.append(chunk)
    os.close(leader)
    code = process.wait(timeout=60)
    return code, ANSI.sub("", b"".join(chunks).decode("utf-8")).replace("\r\n", "\n")


def typed_on_terminal(
    *args: str,
    cwd: Path,
    keys: Sequence[tuple[str, bytes]],
    environment: dict[str, str] | None = None,
) -> tuple[int, str]:
    """The installed `claimledger ARGS` in the foreground of a terminal, as a shell runs it:
    a pty is its controlling terminal and its stdin, stdout and stderr, so that what is
    typed there reaches it (and every process it starts) as it would a user's: each of
    `keys` is typed once the terminal shows its text (after the text the key before it
    waited for); b"\\x03" is Ctrl-C, which the terminal sends as SIGINT. Its exit status,
    and what the terminal showed (colours out)."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    process = subprocess.Popen(
        [str(SCRIPT), *args],
        cwd=cwd,
        env=user_environment(**(environment or {})),
        stdin=follower,
        stdout=follower,
        stderr=follower,
        start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )
    os.close(follower)
    shown, waiting, seen_to = b"", list(keys), 0
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not select.select([leader], [], [], 0.1)[0]:
            continue
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # every process on the terminal has closed it (EIO on Linux)
            break
        if not chunk:
            break
        shown += chunk
        while waiting and (at := shown.find(waiting[0][0].encode(), seen_to)) >= 0:
            seen_to = at + len(waiting[0][0].encode())
            with contextlib.suppress(OSError):  # a command that has ended reads no more
                os.write(leader, waiting.pop(0)[1])
    else:  # a command still waiting for what its test never types
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
    os.close(leader)
    code = process.wait(timeout=60)
    return code, ANSI.sub("", shown.decode("utf-8")).replace("\r\n", "\n")
