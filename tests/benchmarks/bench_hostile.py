"""How fast hostile input is refused: an alias bomb, an endless file, a lock held by another.

`python tests/benchmarks/bench_hostile.py` prints, for each, the seconds it took to give
the user its one-line error (the tests assert the error; the time is measured here).
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimledger.errors import LedgerError
from claimledger.ledger.model import parse


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    rows = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    rows += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    return "\n".join(rows) + "\n"


def timed(label: str, run: object) -> None:
    started = time.perf_counter()
    assert callable(run)
    run()
    print(f"{label:<44} {time.perf_counter() - started:7.3f} s")


def parse_bomb() -> None:
    try:
        parse(billion_laughs())
    except LedgerError:
        return
    raise SystemExit("the alias bomb was not refused")


def command(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", *args], capture_output=True, check=False
    )
    if done.returncode != 2:
        raise SystemExit(f"claimledger {' '.join(args)}: exit {done.returncode}, expected 2")


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        bomb = Path(folder) / "claims.yaml"
        bomb.write_text(billion_laughs(), encoding="utf-8")
        timed("alias bomb, parse()", parse_bomb)
        timed(
            "alias bomb, `claimledger check` (a process)",
            lambda: command("--ledger", str(bomb), "check"),
        )
        if Path("/dev/zero").exists():
            timed(
                "/dev/zero as the ledger (a process)",
                lambda: command("--ledger", "/dev/zero", "check"),
            )


if __name__ == "__main__":
    main()
