"""Run every benchmark in this folder and print its figures: `python tests/benchmarks/run.py`.

A benchmark that cannot run here (bench_drift without a built corpus) says why and the
others still run; the exit status is 1 if any of them failed.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def main() -> int:
    here = Path(__file__).resolve().parent
    failed: list[str] = []
    for bench in sorted(here.glob("bench_*.py")):
        print(f"== {bench.stem}", flush=True)
        completed = subprocess.run([sys.executable, str(bench)], check=False)
        if completed.returncode != 0:
            print(f"== {bench.stem} exited {completed.returncode}", flush=True)
            failed.append(bench.stem)
    if failed:
        print(f"failed: {', '.join(failed)}", file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
