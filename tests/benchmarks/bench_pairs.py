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
    python tests/benchmarks/bench_pairs.py --calibrate

`--cases changed-harmless` (label-said) lists the pairs so judged, with the kinds named.
`--calibrate` asks whether the flag would be surer with fewer kinds of change counted as
strong evidence, chosen on the data: on the corpora in `READ` only, leaving one corpus out
at a time, each strong kind's share of right flags is measured on the others, and on the
one left out a flag stands only when it names a kind whose share reaches the bar. Printed
for each bar: the changes still flagged, the harmless edits still flagged, and the share
of flags that are right, summed over the corpora left out.
The rules were revised after reading the pairs of the corpora in `READ` (see the README
of tests/corpus): their figures are in-sample. The others were labelled and measured,
never read while a rule was written: keep it so, or move them to `READ`.
"""

from __future__ import annotations

import re
import sys
from collections import Counter
from collections.abc import Container, Iterable, Iterator
from pathlib import Path

import yaml

from claimledger.meanings import STRONG_KINDS
from claimledger.reading.match import judge, normalize

PAIRS = Path(__file__).resolve().parents[1] / "corpus" / "pairs"
ROLE = re.compile(r":[a-z:]+:(?=`)")
SAID = ("changed", "uncertain", "harmless")
READ = frozenset({"tigerbeetle", "vector", "cockroach", "foundationdb", "vitess", "opentelemetry"})
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


Judged = tuple[str, frozenset[str] | None]
"""A pair's label, and the strong kinds of its flag (None: not flagged changed)."""

BARS = (0.6, 0.7, 0.8, 0.9)


def corpora(chosen: Container[str] | None = None) -> Iterator[tuple[str, list[dict[str, str]]]]:
    """Each corpus of pairs by name (those `chosen`, else all), with its pairs."""
    for path in sorted(PAIRS.glob("*.yaml")):
        if chosen is None or path.stem in chosen:
            yield path.stem, yaml.safe_load(path.read_text(encoding="utf-8"))["pairs"]


def judged_read_corpora() -> dict[str, list[Judged]]:
    """The pairs of the corpora in `READ`, each as its label and the strong kinds flagged."""
    found = {}
    for name, pairs in corpora(READ):
        rows: list[Judged] = []
        for pair in pairs:
            level, kinds = said(pair["old"], pair["new"])
            strong = frozenset(k for k in kinds if k in STRONG_KINDS)
            rows.append((pair["label"], strong if level == "changed" else None))
        found[name] = rows
    return found


def kinds_reaching(rows: Iterable[Judged], bar: float) -> frozenset[str]:
    """The strong kinds whose flags were right at least `bar` of the time (one right and
    one wrong flag added to each count, so that a kind seen once proves little)."""
    right: Counter[str] = Counter()
    wrong: Counter[str] = Counter()
    for label, strong in rows:
        for kind in strong or ():
            (right if label == "changed" else wrong)[kind] += 1
    return frozenset(k for k in right | wrong if (right[k] + 1) / (right[k] + wrong[k] + 2) >= bar)


def calibrate() -> None:
    corpora = judged_read_corpora()
    print("| strong kinds | changes flagged | harmless flagged | flags right |")
    print("|---|---|---|---|")
    for bar in (None, *BARS):
        counts: Counter[tuple[str, bool]] = Counter()
        for left_out, rows in corpora.items():
            others = [row for name, kept in corpora.items() if name != left_out for row in kept]
            strong = kinds_reaching(others, bar) if bar is not None else STRONG_KINDS
            for label, flagged in rows:
                counts[label, bool(flagged and flagged & strong)] += 1
        changed, same = counts["changed", True], counts["same", True]
        changes, harmless = changed + counts["changed", False], same + counts["same", False]
        share = f"{changed / (changed + same):.0%}" if changed + same else "n/a"
        name = "all (as the matcher has them)" if bar is None else f"right >= {bar:.0%} elsewhere"
        print(f"| {name} | {changed}/{changes} | {same}/{harmless} | {share} |")


def main(argv: list[str]) -> None:
    if "--calibrate" in argv:
        calibrate()
        return
    show = argv[argv.index("--cases") + 1] if "--cases" in argv else None
    names = [a for a in argv if not a.startswith("--") and a != show]
    totals: dict[str, Counter[str]] = {}
    for name, pairs in corpora(names or None):
        counts: Counter[str] = Counter()
        for pair in pairs:
            level, kinds = said(pair["old"], pair["new"])
            counts[f"{pair['label']}-{level}"] += 1
            if show == f"{pair['label']}-{level}":
                print(f"- {pair['id']} [{pair['change']}] {', '.join(kinds)}")
                print(f"    old: {pair['old']}\n    new: {pair['new']}")
        totals[name] = counts
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
