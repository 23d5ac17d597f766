"""Run every benchmark in this folder and print its figures: `python tests/benchmarks/run.py`."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

here = Path(__file__).resolve().parent
for bench in sorted(here.glob("bench_*.py")):
    print(f"== {bench.stem}", flush=True)
    subprocess.run([sys.executable, str(bench)], check=True)
