"""The `claimledger` command line: parse, call the core, print, and map errors to exit codes.

`app` holds the frame (global options, the error mapping); each command group has its
module, and `views` builds what they print.
"""

import sys

from claimledger.cli import (
    authoring,
    demo,
    editing,
    evidence,
    grading,
    listing,
    provenance,
    reporting,
    revising,
    trusting,
)
from claimledger.cli.app import app, undecodable_argument
from claimledger.cli.pipes import (
    closed_pipe,
    closed_stdout,
    unencodable_escaped,
    unwritable_output,
    whole_writes,
)
from claimledger.errors import ExitCode
from claimledger.terminal.output import err

__all__ = [
    "app",
    "authoring",
    "demo",
    "editing",
    "evidence",
    "grading",
    "listing",
    "main",
    "provenance",
    "reporting",
    "revising",
    "trusting",
]


def main() -> None:
    """Entry point of the console script. A closed pipe met anywhere ends it as quietly as
    one met in a command (141, see `claimledger.cli.pipes`), and an output the machine
    refuses (a full disk) with one line (2): stdout is flushed here, before the
    interpreter's own last flush would meet it and exit 120 with a warning. A stdout
    closed before the start is refused at once (2, see `closed_stdout`); one that cannot
    encode every character writes each it lacks escaped (`unencodable_escaped`)."""
    if (refused := closed_stdout()) is not None:
        raise SystemExit(refused)
    whole_writes()
    unencodable_escaped()
    status: int | str | None = 0
    if (unreadable := undecodable_argument(sys.argv[1:])) is not None:
        err.error(f"claimledger: error: {unreadable}")
        raise SystemExit(ExitCode.INPUT)
    try:
        app(prog_name="claimledger")
    except SystemExit as done:
        status = done.code
    except BrokenPipeError:
        status = closed_pipe()
    try:
        sys.stdout.flush()
    except BrokenPipeError:
        status = closed_pipe()
    except OSError as error:
        status = unwritable_output(error)
    raise SystemExit(status)
