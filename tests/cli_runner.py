"""The real command line, run in-process on one ledger, for tests that drive it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from typer.testing import CliRunner

from claimledger.cli import app


class Cli:
    """`claimledger --ledger LEDGER ...`, asserting the exit code when one is expected."""

    def __init__(self, ledger: Path) -> None:
        self.ledger = ledger
        self.runner = CliRunner()

    def __call__(self, *args: str, code: int | None = None) -> Any:
        result = self.runner.invoke(
            app, ["--ledger", str(self.ledger), *args], catch_exceptions=False
        )
        if code is not None:
            assert result.exit_code == code, (result.stdout, result.stderr)
        return result

    def json(self, *args: str, code: int | None = None) -> Any:
        return json.loads(self(*args, "--json", code=code).stdout)
