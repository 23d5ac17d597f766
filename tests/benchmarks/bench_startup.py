"""Startup: the seconds a command takes before it does anything of its own.

Runs each command as a user does (a new process), five times, and prints the fastest
and the median, beside Python's own start. The goals: `--help` and `--version` within
0.25 s; `check` of the bundled ledger soon after. The package's bytecode is compiled
first and kept, as an install does (PYTHONDONTWRITEBYTECODE is dropped for the runs).

    python tests/benchmarks/bench_startup.py
"""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
BUNDLED = ROOT / "claims.yaml"
ENV = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
RUNS = 5

COMMANDS = {
    "python -c pass (the floor)": [sys.executable, "-c", "pass"],
    "claimledger --version": [sys.executable, "-m", "claimledger", "--version"],
    "claimledger --help": [sys.executable, "-m", "claimledger", "--help"],
    "claimledger check (bundled ledger)": [
        sys.executable,
        "-m",
        "claimledger",
        "--ledger",
        str(BUNDLED),
        "check",
    ],
}


def seconds(command: list[str]) -> list[float]:
    taken = []
    for _ in range(RUNS):
        started = time.perf_counter()
        subprocess.run(command, capture_output=True, check=True, env=ENV)
        taken.append(time.perf_counter() - started)
    return taken


def main() -> None:
    compileall.compile_dir(ROOT / "src" / "claimledger", quiet=1)
    for label, command in COMMANDS.items():
        taken = seconds(command)
        print(
            f"{label:<40} fastest {min(taken):5.2f} s   median {statistics.median(taken):5.2f} s",
            flush=True,
        )


if __name__ == "__main__":
    main()
