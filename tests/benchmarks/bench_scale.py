"""Big ledgers: `check` on 50,000 claims, and `regrade --write` of 700 proposals on 7,000.

Generates plain ledgers (one quote, one facet a claim; no anchors), then prints:

* the seconds `parse` takes on 7,000 and on 50,000 claims, and `claimledger check` on
  50,000 as a whole command;
* for 700 grade changes on a 7,000-claim ledger: the seconds `edits.set_grades`
  takes to make them in one pass, and `ledgerfile.update` as `regrade --write` runs it
  (under the lock: read, parse, edit, validate the result, replace the file);
* 100 facet changes on a 1,000-claim ledger as `regrade --write` makes them (the goal:
  at most 1 s), every other line kept byte for byte.

    python tests/benchmarks/bench_scale.py
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimledger import edits, ledgerfile
from claimledger.ledger import parse
from claimledger.vocabulary import Grade

DAY = dt.date(2026, 12, 1)


def ledger_text(claims: int) -> str:
    lines = [
        "ledger: 1",
        "title: Scale",
        "date_read: 2026-08-23",
        "sections: [{id: main, title: Main}]",
        "sources:",
    ]
    lines += [
        f"  s{i}: {{url: 'https://docs.example/{i}', title: S{i}, kind: docs, publisher: p{i}}}"
        for i in range(50)
    ]
    lines.append("claims:")
    for c in range(claims):
        lines += [
            f"  - id: c{c}",
            "    section: main",
            f"    title: Claim {c}",
            "    kind: guarantee",
            f"    statement: The docs say thing {c}.",
            "    quotes:",
            f'      - {{text: "Quote number {c} holds.", sources: [s{c % 50}]}}',
            "    grades:",
            "      - {on: wording, grade: DEMONSTRATED, basis: quotes}",
        ]
    return "\n".join(lines) + "\n"


def timed(label: str, seconds: float) -> None:
    print(f"{label:<58} {seconds:7.2f} s", flush=True)


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        for claims in (7_000, 50_000):
            text = ledger_text(claims)
            started = time.perf_counter()
            ledger = parse(text)
            timed(f"parse, {claims:,} claims", time.perf_counter() - started)
            assert len(ledger.claims) == claims
        big = Path(folder) / "big.yaml"
        big.write_text(ledger_text(50_000), encoding="utf-8")
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "claimledger", "--ledger", str(big), "check"],
            capture_output=True,
            text=True,
            check=False,
        )
        timed("`claimledger check`, 50,000 claims (a process)", time.perf_counter() - started)
        assert done.returncode == 0, done.stderr

        path = Path(folder) / "claims.yaml"
        path.write_text(ledger_text(7_000), encoding="utf-8")
        ledger = ledgerfile.load(path)
        changes = [
            edits.GradeChange(f"c{c}", None, Grade.UNKNOWN, "rule:quotes", "gone")
            for c in range(0, 7_000, 10)
        ]
        text = path.read_text(encoding="utf-8")
        started = time.perf_counter()
        edited = edits.set_grades(text, ledger, changes, date=DAY)
        timed("set_grades: 700 changes on 7,000 claims, one pass", time.perf_counter() - started)
        started = time.perf_counter()
        written = ledgerfile.update(
            path, lambda text, fresh: edits.set_grades(text, fresh, changes, date=DAY)
        )
        timed("update: the same as `regrade --write` writes it", time.perf_counter() - started)
        assert path.read_text(encoding="utf-8") == edited
        assert sum(1 for c in written.claims if c.grades[0].grade is Grade.UNKNOWN) == 700
        hundred_changes_on_a_thousand_claims(Path(folder) / "thousand.yaml")


def hundred_changes_on_a_thousand_claims(path: Path) -> None:
    """The write-back target: 100 facet changes on a 1,000-claim ledger in at most 1 s,
    as `regrade --write` makes them (locked, parsed, edited, validated, replaced), with
    every line that is not a changed grade or a new history entry kept byte for byte."""
    text = ledger_text(1_000)
    path.write_text(text, encoding="utf-8")
    changes = [
        edits.GradeChange(f"c{c}", "wording", Grade.CLAIMED, "rule:quotes", "drifted")
        for c in range(0, 1_000, 10)
    ]
    started = time.perf_counter()
    ledgerfile.update(path, lambda old, fresh: edits.set_grades(old, fresh, changes, date=DAY))
    timed("update: 100 facet changes on 1,000 claims (goal <= 1 s)", time.perf_counter() - started)
    after = path.read_text(encoding="utf-8").splitlines()
    new_history = [line for line in after if line == "    history:" or "rule:quotes" in line]
    assert len(new_history) == 2 * len(changes)
    undone = [
        line.replace("grade: CLAIMED", "grade: DEMONSTRATED")
        for line in after
        if line not in new_history
    ]
    assert undone == text.splitlines(), "a line other than a grade or its history changed"


if __name__ == "__main__":
    main()
