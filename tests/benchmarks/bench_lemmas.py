"""Lemma lookups benchmark: simplemma's English table as the trie claimledger keeps in
the user's cache (services/lemmatable.py) beside simplemma's two other forms, each in a
new process as a command meets them.

Each arm imports simplemma, looks up 4,000 words once each (3,000 the table knows, 1,000
it does not: what a refresh of a few hundred pages asks), and reports its CPU seconds
and how much the lookups grew the process's peak (VmHWM). The arms alternate run by
run; each figure is the median of `--runs N` (default 7). The trie's one-off build (a
new cache directory) is timed once. Linux only (VmHWM).

    python tests/benchmarks/bench_lemmas.py [--runs N]
"""

from __future__ import annotations

import os
import random
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

RUNS = int(sys.argv[sys.argv.index("--runs") + 1]) if "--runs" in sys.argv else 7

ARM = """
import re, sys, time
def peak():
    return int(re.search(r"VmHWM:\\s*(\\d+) kB", open("/proc/self/status").read())[1])
import simplemma
import claimledger.reading.match  # the matcher, loaded before it looks a word up
words = open(sys.argv[2]).read().split()
before, start = peak(), time.process_time()
arm = sys.argv[1]
if arm == "trie":
    from claimledger.reading.lemmas import lemma_table
    from claimledger.services.lemmatable import use_trie
    use_trie()
    lookup = lemma_table()
    for word in words:
        lookup.lemmatize(word), lookup.is_known(word)
else:
    low = arm == "stream"
    for word in words:
        simplemma.lemmatize(word, lang="en", low_memory=low)
        simplemma.is_known(word, lang="en", low_memory=low)
print(time.process_time() - start, peak() - before)
"""

ARMS = {
    "trie": "the trie in the user's cache",
    "stream": "simplemma's compressed stream (low_memory)",
    "dict": "simplemma's dict",
}


def word_list(path: Path) -> None:
    """3,000 words of the table, 1,000 made up, written to `path`."""
    from simplemma.strategies.dictionaries import StreamDictionaryFactory

    known = list(StreamDictionaryFactory().get_dictionary("en"))[::60][:3000]
    rng = random.Random(7)
    unknown = ["".join(rng.choice("bcdfghjklmnpqrstvwxz") for _ in range(8)) for _ in range(1000)]
    path.write_text("\n".join(known + unknown))


def run(arm: str, cache: Path) -> tuple[float, int]:
    environment = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    words = str(cache / "words.txt")
    done = subprocess.run(
        [sys.executable, "-c", ARM, arm, words],
        capture_output=True,
        text=True,
        check=True,
        env=environment,
    )
    seconds, growth = done.stdout.split()
    return float(seconds), int(growth)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        cache = Path(folder)
        word_list(cache / "words.txt")
        build_seconds, build_growth = run("trie", cache)
        figures: dict[str, list[tuple[float, int]]] = {arm: [] for arm in ARMS}
        for _ in range(RUNS):
            for arm in ARMS:
                figures[arm].append(run(arm, cache))
    print(f"4,000 words looked up once each, in a new process; medians of {RUNS} runs")
    print("| form | CPU, lookups | peak growth |")
    print("|---|---|---|")
    for arm, label in ARMS.items():
        seconds = statistics.median(s for s, _ in figures[arm])
        growth = statistics.median(g for _, g in figures[arm])
        print(f"| {label} | {seconds * 1000:.0f} ms | {growth / 1024:.1f} MiB |")
    print(
        f"| the trie's one-off build, then its lookups | {build_seconds * 1000:.0f} ms | "
        f"{build_growth / 1024:.1f} MiB |"
    )


if __name__ == "__main__":
    main()
