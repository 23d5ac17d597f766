"""What reading a page in a browser costs: `claimledger verify` as a user runs it (a new
process each time) on a plain page over HTTP, and with `--browser` on the same page and
on a single-page app whose words arrive by `fetch()` after load (Chromium through
Playwright; every request of the page answered by claimledger's own fetcher). Prints the
median of five runs of each, served from 127.0.0.1.

    python tests/benchmarks/bench_browser.py
"""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the loopback server

from webserver import PageServer

QUOTE = "Each message is stored on three replicas before it is acknowledged."
SHELL = '<!doctype html><html><body><div id="app"></div><script src="/app.js"></script></body>'
APP = """fetch("/api/page.json").then(r => r.json()).then(page => {
  const main = document.createElement("main");
  main.textContent = page.text; document.getElementById("app").appendChild(main);
});"""
RUNS = 5


def verify(*arguments: str) -> float:
    command = [sys.executable, "-m", "claimledger", "verify", "--allow-private", *arguments]
    started = time.perf_counter()
    done = subprocess.run([*command, QUOTE], capture_output=True, text=True, check=False)
    assert done.stdout.startswith("verified"), done.stdout + done.stderr
    return time.perf_counter() - started


def main() -> None:
    with PageServer() as server:
        server.set_page("/plain", f"<html><body><main><p>{QUOTE}</p></main></body></html>")
        server.set_page("/spa", SHELL)
        server.set_page("/app.js", APP, content_type="text/javascript")
        payload = json.dumps({"text": QUOTE})
        server.set_page("/api/page.json", payload, content_type="application/json")
        cases = {
            "HTTP, a plain page": (server.url("/plain"),),
            "--browser, a plain page": ("--browser", server.url("/plain")),
            "--browser, a page built by a script": ("--browser", server.url("/spa")),
        }
        for label, arguments in cases.items():
            times = [verify(*arguments) for _ in range(RUNS)]
            print(f"{label:<38} {statistics.median(times):5.2f} s  (median of {RUNS})")


if __name__ == "__main__":
    main()
