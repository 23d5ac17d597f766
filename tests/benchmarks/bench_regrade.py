"""Regrade benchmark: a generated ledger of 500 claims with recorded evidence.

Each claim has two quotes on two sources; every fifth claim rests on the one before
it. The evidence store holds one check per quote and source, with a mix of verified,
reworded, reversed, missing and unreadable. Prints the time of `claimledger regrade`
as a whole command and of its parts in-process (load, read evidence, rules).

    python tests/benchmarks/bench_regrade.py
"""

from __future__ import annotations

import datetime as dt
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimledger.evidence.store import EvidenceStore
from claimledger.grading.rules import regrade
from claimledger.ledger.file import load
from claimledger.records import CheckRecord, CheckStatus

CLAIMS = 500
SOURCES = 50
STATUSES = ["verified"] * 14 + ["drifted", "reversed", "missing", "unreadable"]
RECORDED: dict[str, CheckStatus | None] = {
    "verified": "verified",
    "drifted": "drifted",
    "reversed": "drifted",
    "missing": "missing",
    "unreadable": None,
}
"""The status a check records for each kind of evidence drawn (unreadable: none)."""
NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)


def write_ledger(path: Path) -> list[tuple[str, int, str, str]]:
    lines = [
        "ledger: 1",
        "title: Regrade benchmark",
        "date_read: 2026-08-23",
        "sections: [{id: main, title: Main}]",
        "sources:",
    ]
    lines += [
        f"  s{i}: {{url: 'https://docs.example/{i}', title: S{i}, kind: docs, publisher: p{i % 7}}}"
        for i in range(SOURCES)
    ]
    lines.append("claims:")
    quotes = []
    for c in range(CLAIMS):
        sources = [f"s{(c * 2) % SOURCES}", f"s{(c * 2 + 1) % SOURCES}"]
        lines += [
            f"  - id: c{c}",
            "    section: main",
            f"    title: Claim {c}",
            "    kind: guarantee",
            "    statement: Generated.",
            "    quotes:",
        ]
        for q in range(2):
            text = f"Claim {c} quote {q} says the service keeps every write."
            lines += [f'      - text: "{text}"', f"        sources: [{', '.join(sources)}]"]
            quotes += [(f"c{c}", q, text, source) for source in sources]
        lines.append("    grades:")
        lines.append("      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}")
        if c % 5 == 4:
            lines += [
                f"    depends_on: [c{c - 1}]",
                "      - {on: follows, grade: CLAIMED, basis: premises}",
            ]
            lines[-2], lines[-1] = lines[-1], lines[-2]
    path.write_text("\n".join(lines) + "\n")
    return quotes


def fill_store(path: Path, quotes: list[tuple[str, int, str, str]]) -> None:
    rng = random.Random(7)
    with EvidenceStore.open(path) as store:
        run = store.begin_run(NOW, "claims.yaml")
        for claim_id, index, text, source in quotes:
            status = rng.choice(STATUSES)
            unread = status == "unreadable"
            store.record_check(
                run,
                CheckRecord(
                    claim_id=claim_id,
                    quote_index=index,
                    quote_text=text,
                    source_id=source,
                    url=f"https://docs.example/{source[1:]}",
                    source_status="unreadable" if unread else "ok",
                    status=RECORDED[status],
                    match_kind="exact" if status == "verified" else None,
                    similarity=1.0 if status == "verified" else 0.8,
                    current=None
                    if status in ("verified", "missing")
                    else text.replace("every", "no"),
                    meaning_changed=status == "reversed",
                    changed_words=(),
                    occurrences=1,
                    context_before=None,
                    context_after=None,
                    snapshot_hash=None,
                    checked_at=NOW,
                ),
            )
        store.finish_run(run, NOW)


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        ledger_path = folder / "claims.yaml"
        quotes = write_ledger(ledger_path)
        fill_store(folder / "out" / "evidence.sqlite3", quotes)

        started = time.perf_counter()
        ledger = load(ledger_path)
        loaded = time.perf_counter()
        with EvidenceStore.open(folder / "out" / "evidence.sqlite3") as store:
            checks = store.latest_checks()
        read = time.perf_counter()
        result = regrade(ledger, checks)
        ruled = time.perf_counter()

        command = [
            sys.executable,
            "-m",
            "claimledger",
            "--ledger",
            str(ledger_path),
            "regrade",
            "--json",
        ]
        runs = []
        for _ in range(3):
            begun = time.perf_counter()
            done = subprocess.run(command, capture_output=True, check=False)
            runs.append(time.perf_counter() - begun)
            assert done.returncode in (0, 1), done.stderr
    print(
        f"ledger: {CLAIMS} claims, {len(quotes)} quote checks; "
        f"{len(result.proposals)} proposals, {len(result.notices)} notices"
    )
    print(
        f"in-process: load {loaded - started:.3f} s, read evidence {read - loaded:.3f} s, "
        f"rules {ruled - read:.3f} s, total {ruled - started:.3f} s"
    )
    print(
        f"`claimledger regrade --json` as a command: best {min(runs):.2f} s "
        f"of {len(runs)} (includes interpreter start-up)"
    )


if __name__ == "__main__":
    main()
