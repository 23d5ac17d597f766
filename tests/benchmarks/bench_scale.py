"""Big ledgers: the everyday commands on 5,000 claims, `check` on 50,000, and
`regrade --write` of 700 proposals on 7,000.

Generates two kinds of ledger:

* plain ones (one quote, one facet a claim, in flow style; no anchors), for the parse
  figures and the write path;
* a realistic one, written as people write ledgers (block style, folded statements,
  literal intros, two or three facets, one or two quotes on one or two of 200 sources,
  notes, premises, history), with an evidence store holding a check of every quote on
  every source (mostly verified; some reworded, reversed, missing, or on pages that
  could not be read) and a fetch of every page.

Prints, each against its goal where it has one, in wall seconds and CPU seconds (a
machine busy with other work stretches the first, hardly the second):

* `claimledger check`, `claimledger regrade` and `claimledger render` on the realistic
  5,000-claim ledger, each as a user runs it: a new process, interpreter start-up
  included (best of three, after one run that leaves the bytecode cached, as an
  installed package has it); goal: at most 1 s each;
* the seconds `parse` takes on 7,000 and on 50,000 plain claims, and `claimledger check`
  on 50,000 as a whole command;
* for 700 grade changes on a 7,000-claim ledger: the seconds `edits.set_grades` takes to
  make them in one pass, and `ledgerfile.update` as `regrade --write` runs it (under
  the lock: read, parse, edit, validate the result, replace the file); goal: 2 s;
* 100 facet changes on a 1,000-claim ledger as `regrade --write` makes them (the goal:
  at most 1 s), every other line kept byte for byte.

    python tests/benchmarks/bench_scale.py
    python tests/benchmarks/bench_scale.py --ratios   # every command, 5,000 and 50,000 claims
    python tests/benchmarks/bench_scale.py --ratios --sizes 5000,50000,100000
"""

from __future__ import annotations

import datetime as dt
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimledger.evidence.store import EvidenceStore
from claimledger.ledger import edits
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.model import parse
from claimledger.ledger.vocabulary import Grade
from claimledger.records import CheckRecord, CheckStatus, FetchResult, WordChange

DAY = dt.date(2026, 12, 1)
NOW = dt.datetime(2026, 11, 29, 12, tzinfo=dt.UTC)
SOURCES = 200
SECTIONS = 25
WORDS = [
    *("object", "request", "storage", "gate", "write", "read", "state", "event", "await"),
    *("message", "delivered", "consistent", "durable", "instance", "cache", "workflow"),
    *("step", "retry", "approval", "limit", "the", "a", "of", "every", "each", "no"),
    *("while", "before", "after", "is", "are", "keeps", "holds", "returns"),
]
EVIDENCE: list[tuple[str, CheckStatus | None, int]] = [
    ("verified", "verified", 92),
    ("drifted", "drifted", 3),
    ("reversed", "drifted", 1),
    ("missing", "missing", 2),
    ("unreadable", None, 2),
]
"""What a refresh finds of each quote on each page: its kind, the status it records, and
how often (in a hundred)."""


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


def sentence(rng: random.Random, words: int) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def realistic_ledger(claims: int) -> tuple[str, list[tuple[str, int, str, str]]]:
    """A ledger as people write them, and each (claim, quote index, quote, source)."""
    rng = random.Random(11)
    lines = [
        "# yaml-language-server: $schema=ledger.schema.json",
        "#",
        "# A generated reading, written the way the bundled ledger is.",
        "ledger: 1",
        'title: "Scale: a generated reading"',
        "subject: Generated subject",
        "date_read: 2026-08-23",
        "about: |",
        *(f"  {sentence(rng, 12)}" for _ in range(6)),
        "",
        "sections:",
    ]
    for s in range(SECTIONS):
        lines += [f"  - id: sec{s}", f"    title: Section {s}", "    intro: |"]
        lines += [f"      {sentence(rng, 12)}" for _ in range(4)]
        lines.append("")
    lines.append("sources:")
    for i in range(SOURCES):
        lines += [
            f"  s{i}:",
            f"    url: https://docs.example.com/page/{i}/",
            f'    title: "Page {i}: {sentence(rng, 4)[:-1]}"',
            "    kind: docs",
            f"    publisher: p{i % 7}",
        ]
        if i % 9 == 0:
            lines += ["    note: >-", f"      {sentence(rng, 10)}"]
    lines += ["", "claims:"]
    quotes = []
    for c in range(claims):
        lines += [
            f"  - id: c{c}",
            f"    section: sec{c % SECTIONS}",
            f"    title: Claim {c}, {sentence(rng, 5)[:-1].lower()}",
            "    kind: guarantee",
            "    statement: >-",
            f"      {sentence(rng, 14)}",
            f"      {sentence(rng, 10)}",
            "    quotes:",
        ]
        for q in range(1 + (c % 3 == 0)):
            text = f"Claim {c} quote {q}: {sentence(rng, 16)}"
            sources = sorted({f"s{rng.randrange(SOURCES)}" for _ in range(1 + c % 2)})
            lines += [f'      - text: "{text}"', f"        sources: [{', '.join(sources)}]"]
            if c % 11 == 0:
                lines += ["        note: >-", f"          {sentence(rng, 9)}"]
            quotes += [(f"c{c}", q, text, source) for source in sources]
        premises = c % 5 == 4
        if premises:
            lines.append(f"    depends_on: [c{c - 1}, c{c - 3}]")
        lines += [
            "    grades:",
            "      - on: the documentation says this",
            "        grade: DEMONSTRATED",
            "        basis: quotes",
            f"        why: {sentence(rng, 6)[:-1].lower()}",
            "      - on: the runtime behaves this way",
            "        grade: CLAIMED",
            "        basis: quotes",
            "        why: the vendor's assertion; nothing was run against the platform",
        ]
        if premises:
            lines += [
                "      - on: follows",
                "        grade: SPECULATIVE",
                "        basis: premises",
                "        why: an inference from its premises",
            ]
        lines.append(f"    falsified_if: {sentence(rng, 9)[:-1].lower()}")
        if c % 10 == 7:
            lines += [
                "    history:",
                "      - date: 2026-08-20",
                "        by: person",
                "        on: the runtime behaves this way",
                "        from: SPECULATIVE",
                "        to: CLAIMED",
                f"        why: {sentence(rng, 7)[:-1].lower()}",
            ]
        lines.append("")
    return "\n".join(lines) + "\n", quotes


def fill_store(path: Path, quotes: list[tuple[str, int, str, str]]) -> None:
    """One refresh: every page fetched (a few refused), every quote checked on each."""
    rng = random.Random(7)
    kinds = [kind for kind in EVIDENCE for _ in range(kind[2])]
    by_source: dict[str, list[tuple[str, int, str, str]]] = {}
    for quote in quotes:
        by_source.setdefault(quote[3], []).append(quote)
    with EvidenceStore.open(path) as store:
        run = store.begin_run(NOW, "claims.yaml")
        for i in range(SOURCES):
            source_id, url = f"s{i}", f"https://docs.example.com/page/{i}/"
            refused = i % 37 == 0
            page = FetchResult(
                url=url,
                final_url=url,
                http_status=429 if refused else 200,
                source_status="refused" if refused else "ok",
                redirects=(),
                moved_to=None,
                etag='"v1"',
                last_modified=None,
                content_type="text/html",
                text=None,
                not_modified=False,
                error="HTTP 429" if refused else None,
                attempts=1,
                elapsed=0.1,
                line_range=None,
            )
            checks = []
            for claim_id, index, text, _ in by_source.get(source_id, []):
                kind, status, _ = ("unreadable", None, 0) if refused else rng.choice(kinds)
                reworded = kind in ("drifted", "reversed")
                checks.append(
                    CheckRecord(
                        claim_id=claim_id,
                        quote_index=index,
                        quote_text=text,
                        source_id=source_id,
                        url=url,
                        source_status="refused" if refused else "ok",
                        status=status,
                        match_kind="exact" if kind == "verified" else None,
                        similarity=1.0 if kind == "verified" else 0.8,
                        current=text.replace(" the ", " a ") + " No." if reworded else None,
                        meaning_changed=kind == "reversed",
                        changed_words=(WordChange("replace", "the", "a", False),)
                        if reworded
                        else (),
                        occurrences=1,
                        context_before=None,
                        context_after=None,
                        snapshot_hash=None,
                        checked_at=NOW,
                    )
                )
            store.record_page(
                run, page, snapshot_hash=None, new_snapshot=None, recipe="", checks=checks, now=NOW
            )
        store.finish_run(run, NOW)


def as_a_user_runs_it(ledger: Path, *arguments: str) -> tuple[float, float, int]:
    """Best of three runs of `claimledger ARGUMENTS` in a new process each (after one that
    leaves the bytecode cached): wall seconds, CPU seconds, and the lines it printed."""
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger), *arguments]
    environment = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    walls, cpus, printed = [], [], 0
    for attempt in range(4):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        started = time.perf_counter()
        done = subprocess.run(command, capture_output=True, text=True, check=False, env=environment)
        wall = time.perf_counter() - started
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert done.returncode in (0, 1), done.stderr
        printed = len((done.stdout + done.stderr).splitlines())
        if attempt:
            walls.append(wall)
            cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return min(walls), min(cpus), printed


def everyday_commands(folder: Path, claims: int = 5_000) -> None:
    """`check`, `regrade` and `render` on a realistic ledger with evidence (goal: 1 s each)."""
    ledger = folder / "claims.yaml"
    text, quotes = realistic_ledger(claims)
    ledger.write_text(text, encoding="utf-8")
    fill_store(folder / "out" / "evidence.sqlite3", quotes)
    print(
        f"realistic ledger: {claims:,} claims, {len(text) / 1e6:.1f} MB, "
        f"{text.count(chr(10)):,} lines, {len(quotes):,} quote checks",
        flush=True,
    )
    for arguments in (["check"], ["regrade"], ["render"]):
        wall, cpu, printed = as_a_user_runs_it(ledger, *arguments)
        label = f"`claimledger {' '.join(arguments)}`, {claims:,} claims (goal <= 1 s)"
        print(f"{label:<58} {wall:7.2f} s  (CPU {cpu:.2f} s, {printed} lines printed)", flush=True)


def timed(label: str, seconds: float) -> None:
    """One figure: the wall seconds since `started`, and the CPU seconds of this process
    since then (a busy machine stretches the first, hardly the second)."""
    cpu = time.process_time() - _cpu_started[0]
    print(f"{label:<58} {seconds:7.2f} s  (CPU {cpu:.2f} s)", flush=True)


_cpu_started = [0.0]


def start() -> float:
    _cpu_started[0] = time.process_time()
    return time.perf_counter()


def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        everyday_commands(Path(folder))
    with tempfile.TemporaryDirectory() as folder:
        for claims in (7_000, 50_000):
            text = ledger_text(claims)
            started = start()
            ledger = parse(text)
            timed(f"parse, {claims:,} claims", time.perf_counter() - started)
            assert len(ledger.claims) == claims
        big = Path(folder) / "big.yaml"
        big.write_text(ledger_text(50_000), encoding="utf-8")
        wall, cpu, _ = as_a_user_runs_it(big, "check")
        label = "`claimledger check`, 50,000 claims (a process)"
        print(f"{label:<58} {wall:7.2f} s  (CPU {cpu:.2f} s)", flush=True)

        path = Path(folder) / "claims.yaml"
        path.write_text(ledger_text(7_000), encoding="utf-8")
        ledger = ledgerfile.load(path)
        changes = [
            edits.GradeChange(f"c{c}", None, Grade.UNKNOWN, "rule:quotes", "gone")
            for c in range(0, 7_000, 10)
        ]
        text = path.read_text(encoding="utf-8")
        started = start()
        edited = edits.set_grades(text, ledger, changes, date=DAY)
        timed("set_grades: 700 changes on 7,000 claims, one pass", time.perf_counter() - started)
        started = start()
        written = ledgerfile.update(
            path, lambda text, fresh: edits.set_grades(text, fresh, changes, date=DAY)
        )
        timed("update: the same as `regrade --write` (goal <= 2 s)", time.perf_counter() - started)
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
    started = start()
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


RATIO_COMMANDS = (
    ("status",), ("status", "--json"), ("claims",), ("check",), ("regrade",), ("diff",),
    ("render", "-o", "out/report.md"), ("render", "-o", "out/report.html"),
    ("render", "-o", "out/report.json"),
)  # fmt: skip
"""Every command that reads a whole ledger and its evidence."""


def one_run(ledger: Path, arguments: tuple[str, ...]) -> tuple[float, int]:
    """Wall seconds and peak RSS (KiB) of one `claimledger ARGUMENTS` process."""
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger), *arguments]
    started = time.perf_counter()
    child = subprocess.Popen(
        command, cwd=ledger.parent, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    _, status, usage = os.wait4(child.pid, 0)
    child.returncode = os.waitstatus_to_exitcode(status)
    assert child.returncode in (0, 1), f"{arguments}: exit {child.returncode}"
    return time.perf_counter() - started, usage.ru_maxrss


def ratios(sizes: tuple[int, ...] = (5_000, 50_000)) -> None:
    """Each command on realistic ledgers of `sizes` claims (with evidence): wall seconds
    (best of two), peak RSS, and the ratio of the largest to the smallest (goal: at most
    11x for 10x the claims), with the load average beside it. The ledgers are made by a
    process of their own, so that no command inherits this one's peak memory."""
    with tempfile.TemporaryDirectory() as folder:
        ledgers = []
        for claims in sizes:
            here = Path(folder) / str(claims)
            subprocess.run([sys.executable, __file__, "--make", str(here), str(claims)], check=True)
            ledgers.append(here / "claims.yaml")
        print(f"load average {os.getloadavg()[0]:.2f}; sizes {sizes}", flush=True)
        for arguments in RATIO_COMMANDS:
            runs = [min(one_run(ledger, arguments) for _ in range(2)) for ledger in ledgers]
            cells = "  ".join(f"{wall:6.2f} s {rss / 1024:6.0f} MiB" for wall, rss in runs)
            ratio = runs[-1][0] / runs[0][0]
            print(f"{' '.join(arguments):<28} {cells}  {ratio:5.1f}x", flush=True)


def make(folder: Path, claims: int) -> None:
    """A realistic ledger of `claims` claims in `folder`, with its evidence store."""
    (folder / "out").mkdir(parents=True)
    text, quotes = realistic_ledger(claims)
    (folder / "claims.yaml").write_text(text, encoding="utf-8")
    fill_store(folder / "out" / "evidence.sqlite3", quotes)


if __name__ == "__main__":
    if sys.argv[1:2] == ["--make"]:
        make(Path(sys.argv[2]), int(sys.argv[3]))
    elif "--ratios" in sys.argv:
        given = sys.argv[sys.argv.index("--sizes") + 1] if "--sizes" in sys.argv else ""
        ratios(tuple(int(n) for n in given.split(",")) if given else (5_000, 50_000))
    else:
        main()
