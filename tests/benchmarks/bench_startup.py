"""Startup: the seconds a command takes before it does anything of its own.

Runs each command as a user does (a new process), five times, and prints the fastest
and the median, beside Python's own start. The goals: `--help` and `--version` within
0.25 s; `check` of the bundled ledger soon after; `verify` of one quote on a 1 MB page
(served on 127.0.0.1) at most 0.3 s more than `--help`. The package's bytecode is
compiled first and kept, as an install does (PYTHONDONTWRITEBYTECODE is dropped for the
runs).

    python tests/benchmarks/bench_startup.py
"""

from __future__ import annotations

import compileall
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests"))

from webserver import PageServer  # noqa: E402

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


QUOTE = "While a storage operation is executing, no events are delivered to the object."


def megabyte_page() -> str:
    """A docs page of 1 MB: paragraphs of ordinary words, the quote halfway down."""
    chooser = random.Random(3)
    words = ["the", "a", "of", "to", "write", "read", "storage", "event", "object", "cache"]
    paragraphs = [
        "<p>" + " ".join(chooser.choice(words) for _ in range(60)).capitalize() + ".</p>"
        for _ in range(3_400)
    ]
    paragraphs.insert(1_700, f"<p>{QUOTE}</p>")
    return "<html><body><main>" + "\n".join(paragraphs) + "</main></body></html>"


def main() -> None:
    compileall.compile_dir(ROOT / "src" / "claimledger", quiet=1)
    with PageServer() as server:
        page = megabyte_page()
        server.set_page("/big", page)
        commands = {
            **COMMANDS,
            f"claimledger verify, one quote on a {len(page) / 1e6:.1f} MB page": [
                sys.executable,
                "-m",
                "claimledger",
                "verify",
                "--allow-private",
                server.url("/big"),
                QUOTE,
            ],
        }
        for label, command in commands.items():
            taken = seconds(command)
            print(
                f"{label:<44} fastest {min(taken):5.2f} s   median "
                f"{statistics.median(taken):5.2f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
