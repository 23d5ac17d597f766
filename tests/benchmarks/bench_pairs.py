"""Meaning flags on real sentence edits: pairs of a sentence and the sentence that replaced
it in a later commit of a project's docs, labelled by hand `same` or `changed`.

The pairs (`tests/corpus/pairs/*.yaml`) come from the git history of docs written in
Markdown or reStructuredText, as the source files say them: so both sentences are read
as a raw Markdown page's are (markup reduced), and a reStructuredText role (`:class:`)
is set aside, as a rendered page shows neither. Each sentence is compared whole with
its successor (`judge`), which is what the meaning flag sees once a quote's current
wording is found. For each corpus and in all, the meaning changes flagged changed /
only uncertain / passed as harmless, and the harmless edits flagged changed / uncertain
/ plainly harmless.

    python tests/benchmarks/bench_pairs.py [--cases KIND] [CORPUS ...]

`--cases changed-harmless` (label-said) lists the pairs so judged, with the kinds named.
The rules were revised after reading the pairs of the corpora in `READ` (see the README
of tests/corpus): their figures are in-sample. The others were labelled and measured,
never read while a rule was written: keep it so, or move them to `READ`.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from pathlib import Path

import yaml

from claimledger.reading.match import judge, normalize

PAIRS = Path(__file__).resolve().parents[1] / "corpus" / "pairs"
ROLE = re.compile(r":[a-z:]+:(?=`)")
SAID = ("changed", "uncertain", "harmless")
READ = frozenset({"tigerbeetle", "vector", "cockroach", "foundationdb", "vitess"})
"""The corpora whose pairs were read while the matcher's rules were written."""


def said(old: str, new: str) -> tuple[str, tuple[str, ...]]:
    """The level of the flag on an edit, and the kinds of change it names."""
    found = judge(*(normalize(ROLE.sub("", text)) for text in (old, new)))
    level = (
        "changed"
        if found.meaning_changed
        else "uncertain"
        if found.meaning_uncertain
        else "harmless"
    )
    return level, found.kinds


def main(argv: list[str]) -> None:
    show = argv[argv.index("--cases") + 1] if "--cases" in argv else None
    names = [a for a in argv if not a.startswith("--") and a != show]
    files = sorted(PAIRS.glob("*.yaml"))
    totals: dict[str, Counter[str]] = {}
    for path in files:
        if names and path.stem not in names:
            continue
        corpus = yaml.safe_load(path.read_text(encoding="utf-8"))
        counts: Counter[str] = Counter()
        for pair in corpus["pairs"]:
            level, kinds = said(pair["old"], pair["new"])
            counts[f"{pair['label']}-{level}"] += 1
            if show == f"{pair['label']}-{level}":
                print(f"- {pair['id']} [{pair['change']}] {', '.join(kinds)}")
                print(f"    old: {pair['old']}\n    new: {pair['new']}")
        totals[path.stem] = counts
    read = [counts for name, counts in totals.items() if name in READ]
    unread = [counts for name, counts in totals.items() if name not in READ]
    totals["read while rules were written (in sample)"] = sum(read, Counter())
    totals["never read"] = sum(unread, Counter())
    print("| corpus | changes: flagged / uncertain / harmless | harmless: the same three |")
    print("|---|---|---|")
    for name, counts in totals.items():
        row = [
            " / ".join(str(counts[f"{label}-{level}"]) for level in SAID)
            for label in ("changed", "same")
        ]
        print(f"| {name} | {row[0]} | {row[1]} |")


if __name__ == "__main__":
    main(sys.argv[1:])
