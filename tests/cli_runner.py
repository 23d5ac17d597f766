"""The one way tests run the real command line: in-process, strict about the exit code.

A run that ends with another exit code than the test expects fails, with what the command
printed; a test that expects a failure says which code (`code=2`).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner, Result

from claimledger.cli import app


def claimledger(*args: str, code: int = 0, stdin: str | None = None) -> Result:
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

    def __call__(self, *args: str, code: int = 0) -> Result:
        return claimledger("--ledger", str(self.ledger), *args, code=code)

    def json(self, *args: str, code: int = 0) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)
