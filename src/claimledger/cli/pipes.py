"""A reader of stdout that goes away: `claimledger status --json | head -c 100`.

The command stops where the pipe closed, says nothing, and exits 141 (128 + SIGPIPE), as
git and ripgrep do when SIGPIPE ends them: never an internal error, never a traceback,
and `set -o pipefail` can still tell it from a failure of the command's own. Python
ignores SIGPIPE, so a closed pipe reaches us as BrokenPipeError wherever stdout is
written or flushed: in a command (`app.exit_status`), while the options are read
(`--help`, `--version`: `closed_pipe_exits`), in rich's console (`on_broken_pipe`), or at
the last flush (`claimledger.cli.main`), once every write lands whole (`whole_writes`).
A stdout closed before the start is another matter: `closed_stdout` refuses it (2).
"""

from __future__ import annotations

import codecs
import contextlib
import io
import os
import sys
from collections.abc import Iterator

import typer

from claimledger.errors import ExitCode


def closed_pipe() -> ExitCode:
    """Nothing more is written, and nothing is said: stdout is pointed at /dev/null so that
    the interpreter's last flush finds nowhere to fail."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    return ExitCode.CLOSED_PIPE


def closed_stdout() -> ExitCode | None:
    """Refuse to run with standard output closed (`claimledger status >&-`): exit 2 and
    one line, before anything is read or written.

    This is not a reader that went away after taking what it wanted (141, quietly): no
    reader was ever given, so nothing the command prints can land anywhere, and a caller
    that closed it by mistake is told, as for an output the machine refuses (2). It is
    refused before the command runs, not where the first print fails, because the command
    may have written the ledger by then, and because the next file opened (the ledger, the
    evidence store) would be given the free descriptor 1, and whatever is printed would
    be written into it."""
    if sys.stdout is not None:
        return None
    if sys.stderr is not None:
        sys.stderr.write(
            "claimledger: error: standard output is closed (send it to /dev/null to"
            " discard it); nothing was done\n"
        )
    return ExitCode.INPUT


def output_writable() -> bool:
    """Whether what is written to stdout can still reach it (a full disk or a failing
    device keeps refusing the same buffered bytes at every flush)."""
    try:
        sys.stdout.flush()
    except OSError:
        return False
    return True


def unwritable_output(error: OSError) -> ExitCode:
    """The output could not be written (`> report.xml` on a full disk, `> /dev/full`):
    one line says so, as for any file the machine refuses (2); stdout is pointed at
    /dev/null so that the interpreter's last flush finds nowhere to fail."""
    with contextlib.suppress(OSError, ValueError):
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    reason = error.strerror or str(error)
    sys.stderr.write(f"claimledger: error: the output could not be written: {reason}\n")
    return ExitCode.INPUT


@contextlib.contextmanager
def closed_pipe_exits() -> Iterator[None]:
    """A closed pipe met here exits 141 (click would exit 1, as if drift had been found)."""
    try:
        yield
    except BrokenPipeError:
        raise typer.Exit(closed_pipe()) from None


UNENCODABLE = "claimledger-escape"
"""The error handler that writes a character stdout's encoding lacks as `\\uXXXX`."""


def unencodable_escaped() -> None:
    """Let a stdout whose encoding cannot write every character (`PYTHONIOENCODING=ascii`,
    `LC_ALL=C` without Python's UTF-8 mode) write each one it lacks as `\\uXXXX` (two, a
    surrogate pair, past U+FFFF), where Python would raise UnicodeEncodeError halfway
    through a command's output.

    Set once, here, on the stream, it covers all that is printed (JSON, tables, a
    report on stdout) without each printer knowing the encoding. It is JSON's own escape,
    not Python's `backslashreplace`, whose `\\xe9` and `\\U0001f600` are not JSON: a
    character outside ASCII is only ever inside a JSON string, so `--json` stays valid JSON
    that reads back the same, as `json.dumps` with ensure_ascii writes it; and a person
    reading a table can still tell which character it was. A UTF-8 stdout is left as it is.
    """
    stdout = sys.stdout
    if not isinstance(stdout, io.TextIOWrapper):
        return
    if codecs.lookup(stdout.encoding).name == "utf-8":
        return
    codecs.register_error(UNENCODABLE, _json_escapes)
    stdout.reconfigure(errors=UNENCODABLE)


def _json_escapes(error: UnicodeError) -> tuple[str, int]:
    """The characters `error` could not encode, as JSON writes them escaped."""
    if not isinstance(error, UnicodeEncodeError):
        raise error
    unwritable = error.object[error.start : error.end]
    return "".join(_json_escape(char) for char in unwritable), error.end


def _json_escape(char: str) -> str:
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def whole_writes() -> None:
    """Give an unbuffered stdout (PYTHONUNBUFFERED, `python -u`: common in containers) a
    buffer, flushed at each line as unbuffered output is expected to be.

    Unbuffered, a write goes straight to the pipe, and when the reader leaves halfway
    through a long table the pipe takes part of it and Python drops the rest without a
    word: the command would end 0 with its output cut short. A buffered write lands whole
    or raises BrokenPipeError, which ends the command as every closed pipe does.
    """
    stdout = sys.stdout
    if not isinstance(getattr(stdout, "buffer", None), io.RawIOBase):
        return
    file = io.FileIO(stdout.fileno(), "w", closefd=False)
    sys.stdout = io.TextIOWrapper(
        io.BufferedWriter(file), encoding=stdout.encoding, errors=stdout.errors, line_buffering=True
    )
