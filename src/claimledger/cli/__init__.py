"""The `claimledger` command line: parse, call the core, print, and map errors to exit codes.

`app` holds the frame (global options, the error mapping); each command group has its
module, and `views` builds what they print.
"""

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
from claimledger.cli.app import app, closed_pipe

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
    """Entry point of the console script (a closed pipe met outside a command, as in
    `claimledger --help | head -1`, ends it as quietly as one met inside)."""
    try:
        app(prog_name="claimledger")
    except BrokenPipeError:
        raise SystemExit(closed_pipe()) from None
