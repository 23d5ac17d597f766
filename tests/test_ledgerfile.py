"""Writing claims.yaml back: minimal diffs, comments kept, no lost update, no torn file.

A grade change must show in `git diff` as the grade line and the new history lines,
nothing else, whatever the author's habits (comments, blank lines, odd quoting, block
scalars, flow lists). Concurrent `claimledger grade` processes must all land (the
read-check-write race the model teardown is about), a writer killed with SIGKILL
must leave the old file or the new one, and an editor that writes behind the lock
must not be overwritten.
"""

from __future__ import annotations

import codecs
import datetime as dt
import difflib
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.errors import ConflictError, InputError
from claimledger.ledger import edits, yamledit
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.file import load
from claimledger.ledger.model import Ledger, parse
from claimledger.ledger.safeyaml import load_located
from claimledger.ledger.vocabulary import Grade
from cli_runner import claimledger

RICH = """\
# yaml-language-server: $schema=https://claimledger.dev/schema/ledger-1.json
# A ledger written by hand, with every habit a hand-written file has.

ledger: 1
title: 'A reading, with odd quoting'
subject: "Example Corp's published design"
date_read: 2026-01-15

sections:
  - id: guarantees   # the promises
    title: The published guarantees
    intro: |
      What the docs promise.

      Each promise is quoted.

  - {id: open, title: "Open questions"}

sources:
  docs:
    url: 'https://example.com/docs'
    title: "Docs"
    kind: docs
    publisher: example
  blog: {url: "https://example.com/blog", title: Blog, kind: blog, publisher: example}

claims:
  # --- the first claim has no history yet
  - id: fresh
    section: guarantees
    title: "A fresh claim"
    kind: guarantee
    statement: >
      The docs say a thing,
      folded over two lines.
    quotes:
      - text: "One thing holds."
        sources: [docs, blog]
    grades:
      - on: wording
        grade: CLAIMED      # as the docs say
        basis: quotes
        why: 'it is on both pages'
      - on: "holds at runtime"
        grade: 'UNKNOWN'
        basis: judgement

  - id: seasoned
    section: guarantees
    title: A claim with a past
    kind: guarantee
    statement: It has been graded before.
    quotes:
      - text: 'Another thing holds.'
        sources:
          - docs
    grades:
      - {on: wording, grade: "DEMONSTRATED", basis: quotes, min_sources: 1}
    history:
      - {date: 2026-01-15, on: wording, from: CLAIMED, to: DEMONSTRATED, by: person, why: read}
      - date: 2026-01-16
        by: person
        why: "a block-style entry"

  # A comment block that follows a claim.
  # It belongs to the gap, and must stay there.

  - id: flow-last
    section: open
    title: A claim whose last value is a flow list
    kind: consequence
    statement: It rests on the others.
    grades:
      - on: holds
        grade: SPECULATIVE
        basis: premises
    depends_on: [fresh,
                 seasoned]
  - id: kept-last
    section: open
    title: A claim whose last value keeps its trailing blank lines
    kind: question
    statement: Does the gate hold at the crash boundary?
    grades: [{on: answer, grade: UNKNOWN, basis: judgement}]
    falsified_if: |+
      A crash test that shows it.


  - id: block-last
    section: open
    title: A claim whose last value is a block scalar
    kind: question
    statement: Nobody can tell yet.
    grades:
      - on: answer
        grade: UNKNOWN
        basis: judgement
    falsified_if: |
      A page that says so.

      Or a test that shows it.


# The scope follows, after two blank lines.
scope:
  did_not: [run anything]
  could_not_see:
    - the runtime
"""

LAST_WITHOUT_NEWLINE = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{id: main, title: Main}]
sources:
  docs: {url: "https://example.com/docs", title: Docs, kind: docs, publisher: example}
claims:
  - id: last
    section: main
    title: The last claim
    kind: guarantee
    statement: It ends the file.
    quotes:
      - {text: "One thing holds.", sources: [docs]}
    grades:
      - on: wording
        grade: CLAIMED
        basis: quotes
        why: the file has no newline after this"""


def many_claims(count: int) -> str:
    """A ledger of `count` claims c0..c{count-1}, each with one facet graded CLAIMED."""
    claims = "".join(
        f"""\
  - id: c{i}
    section: main
    title: Claim {i}
    kind: guarantee
    statement: Claim number {i}.
    grades:
      - on: holds
        grade: CLAIMED
        basis: judgement
"""
        for i in range(count)
    )
    return f"""\
# Claims for the concurrent writers.
ledger: 1
title: Many claims
date_read: 2026-01-15
sections: [{{id: main, title: Main}}]
sources: {{}}
claims:
{claims}"""


def plain_data(text: str) -> Any:
    """The document as the ledger loader reads it: keys as text, dates as ISO strings."""
    located, problems = load_located(text)
    assert located is not None and not problems
    return located.data


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_bytes(text.encode("utf-8"))
    return path


def temporaries(directory: Path) -> list[Path]:
    return sorted(directory.glob(".claims.yaml.*.tmp"))


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines a line diff removes and adds."""
    diff = list(difflib.ndiff(before.splitlines(), after.splitlines()))
    removed = [line[2:] for line in diff if line.startswith("- ")]
    added = [line[2:] for line in diff if line.startswith("+ ")]
    return removed, added


def grade_by_hand(path: Path, *args: str) -> None:
    claimledger("--ledger", str(path), "grade", *args)


# --------------------------------------------------------------------------- minimal diffs


def test_a_no_op_update_leaves_the_file_untouched(tmp_path: Path) -> None:
    path = write(tmp_path, RICH)
    before = path.stat()
    ledger = ledgerfile.update(path, lambda text, ledger: text)
    assert path.read_bytes() == RICH.encode("utf-8")
    after = path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    assert ledger.claim_ids == ["fresh", "seasoned", "flow-last", "kept-last", "block-last"]


GRADINGS = [
    # claim, facet (None: the first), new grade, why this one
    pytest.param("fresh", None, "SPECULATIVE", id="no-history-yet-plain-grade-with-comment"),
    pytest.param("fresh", "holds at runtime", "CLAIMED", id="second-facet-single-quoted"),
    pytest.param("seasoned", None, "CLAIMED", id="has-history-flow-facet-double-quoted"),
    pytest.param("flow-last", None, "UNKNOWN", id="last-value-is-a-flow-list"),
    pytest.param("kept-last", None, "CLAIMED", id="last-value-is-a-kept-block-scalar"),
    pytest.param("block-last", None, "SPECULATIVE", id="last-value-is-a-block-scalar"),
]


@pytest.mark.parametrize(("claim_id", "on", "grade"), GRADINGS)
def test_grade_changes_only_the_grade_line_and_adds_only_history(
    tmp_path: Path, claim_id: str, on: str | None, grade: str
) -> None:
    path = write(tmp_path, RICH)
    old = parse(RICH).claim(claim_id)
    facet = old.facet(on)
    first_day = dt.date.today()
    grade_by_hand(
        path, claim_id, grade, "--because", "re-read: the page moved", *(["--on", on] if on else [])
    )
    after = path.read_text(encoding="utf-8")

    removed, added = changed_lines(RICH, after)
    (old_grade_line,) = removed
    assert old_grade_line.count(str(facet.grade)) == 1
    new_grade_line = old_grade_line.replace(str(facet.grade), grade)
    assert added[0] == new_grade_line  # the same line, same quoting, same comment
    history_lines = added[1:]
    if old.history:
        assert len(history_lines) == 1
    else:
        assert [line.strip() for line in history_lines[:1]] == ["history:"]
        history_lines = history_lines[1:]
    (entry_line,) = history_lines
    assert entry_line.lstrip().startswith("- {")
    (entry,) = plain_data(f"x: [{entry_line.strip()[2:]}]")["x"]
    assert first_day <= dt.date.fromisoformat(entry.pop("date")) <= dt.date.today()
    assert entry == {
        "on": facet.on,
        "from": str(facet.grade),
        "to": grade,
        "by": "person",
        "why": "re-read: the page moved",
    }
    assert_same_data_but_the_grade_and_history(RICH, after, claim_id, facet.on, grade)


def assert_same_data_but_the_grade_and_history(
    before: str, after: str, claim_id: str, on: str, grade: str
) -> None:
    """Nothing else changed in meaning: every other value, block scalars included."""
    old, new = plain_data(before), plain_data(after)
    index = [claim["id"] for claim in old["claims"]].index(claim_id)
    old_claim, new_claim = old["claims"][index], new["claims"][index]
    old_history, new_history = old_claim.pop("history", []), new_claim.pop("history")
    assert new_history[:-1] == old_history  # appended to, never rewritten
    (old_facet,) = [f for f in old_claim["grades"] if f["on"] == on]
    (new_facet,) = [f for f in new_claim["grades"] if f["on"] == on]
    assert new_facet.pop("grade") == grade
    old_facet.pop("grade")
    assert new == old


PLACEMENTS = [
    # claim, the lines just before the new history lines, the lines just after them
    pytest.param(
        "fresh", ["        basis: judgement"], ["", "  - id: seasoned"], id="before-a-blank-line"
    ),
    pytest.param(
        "seasoned",
        ['        why: "a block-style entry"'],
        ["", "  # A comment block that follows a claim."],
        id="before-a-comment-block",
    ),
    pytest.param(
        "flow-last", ["                 seasoned]"], ["  - id: kept-last"], id="after-a-flow-list"
    ),
    pytest.param(
        "kept-last",
        ["      A crash test that shows it.", "", ""],
        ["  - id: block-last"],
        id="after-the-kept-blank-lines",
    ),
    pytest.param(
        "block-last",
        ["      Or a test that shows it."],
        ["", "", "# The scope follows, after two blank lines."],
        id="after-a-block-scalar",
    ),
]


@pytest.mark.parametrize(("claim_id", "above", "below"), PLACEMENTS)
def test_history_lands_right_after_the_claim(
    tmp_path: Path, claim_id: str, above: list[str], below: list[str]
) -> None:
    """Blank lines and comments between claims stay in the gap, after the new lines."""
    path = write(tmp_path, RICH)
    grade_by_hand(path, claim_id, "CLAIMED", "--because", "placement")
    lines = path.read_text(encoding="utf-8").splitlines()
    (entry_at,) = [i for i, line in enumerate(lines) if "why: placement" in line]
    new_key = not parse(RICH).claim(claim_id).history  # then `history:` comes first
    start = entry_at - 1 if new_key else entry_at
    assert lines[start].strip() == ("history:" if new_key else lines[entry_at].strip())
    assert lines[start - len(above) : start] == above
    assert lines[entry_at + 1 : entry_at + 1 + len(below)] == below


def test_every_claim_graded_in_turn_keeps_the_rest_of_the_file(tmp_path: Path) -> None:
    """All edits together: the only removed lines are grade lines."""
    path = write(tmp_path, RICH)
    for claim_id in ["fresh", "seasoned", "flow-last", "kept-last", "block-last"]:
        grade_by_hand(path, claim_id, "UNKNOWN", "--because", "all at once")
    after = path.read_text(encoding="utf-8")
    removed, added = changed_lines(RICH, after)
    assert all("grade:" in line for line in removed)
    assert len(removed) == 3  # kept-last and block-last were UNKNOWN already
    assert sum(line.strip() == "history:" for line in added) == 4  # seasoned had one
    assert sum("all at once" in line for line in added) == 5
    for comment in [line for line in RICH.splitlines() if line.lstrip().startswith("#")]:
        assert comment in after.splitlines()
    ledger = parse(after)
    assert all(claim.grades[0].grade is Grade.UNKNOWN for claim in ledger.claims)


def test_the_last_claim_of_a_file_without_a_final_newline(tmp_path: Path) -> None:
    path = write(tmp_path, LAST_WITHOUT_NEWLINE)
    grade_by_hand(path, "last", "UNKNOWN", "--because", "gone")
    after = path.read_text(encoding="utf-8")
    removed, added = changed_lines(LAST_WITHOUT_NEWLINE, after)
    assert removed == ["        grade: CLAIMED"]
    assert added[0] == "        grade: UNKNOWN"
    assert added[1] == "    history:"
    assert "from: CLAIMED, to: UNKNOWN" in added[2]
    assert len(added) == 3
    assert not after.endswith("\n"), "the file keeps its author's missing final newline"
    assert load(path).claim("last").history[0].to_grade is Grade.UNKNOWN


def test_a_second_grade_appends_under_the_first(tmp_path: Path) -> None:
    path = write(tmp_path, LAST_WITHOUT_NEWLINE)
    grade_by_hand(path, "last", "UNKNOWN", "--because", "gone")
    grade_by_hand(path, "last", "CLAIMED", "--because", "back")
    history = load(path).claim("last").history
    assert [(h.from_grade, h.to_grade, h.why) for h in history] == [
        (Grade.CLAIMED, Grade.UNKNOWN, "gone"),
        (Grade.UNKNOWN, Grade.CLAIMED, "back"),
    ]


def test_a_byte_order_mark_and_the_file_mode_are_kept(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    path.write_bytes(codecs.BOM_UTF8 + LAST_WITHOUT_NEWLINE.encode("utf-8"))
    path.chmod(0o640)
    grade_by_hand(path, "last", "UNKNOWN", "--because", "gone")
    data = path.read_bytes()
    assert data.startswith(codecs.BOM_UTF8)
    assert not data[len(codecs.BOM_UTF8) :].startswith(codecs.BOM_UTF8)
    assert path.stat().st_mode & 0o777 == 0o640


def test_an_edit_that_breaks_the_ledger_is_not_written(tmp_path: Path) -> None:
    path = write(tmp_path, RICH)
    with pytest.raises(RuntimeError, match=r"would make it invalid: .*unknown section 'nowhere'"):
        ledgerfile.update(path, lambda text, _: text.replace("section: open", "section: nowhere"))
    assert path.read_bytes() == RICH.encode("utf-8")
    assert temporaries(tmp_path) == []


def test_the_lock_sits_beside_the_ledger(tmp_path: Path) -> None:
    path = write(tmp_path, RICH)
    grade_by_hand(path, "fresh", "UNKNOWN", "--because", "x")
    assert ledgerfile.lock_path(path) == tmp_path / ".claims.yaml.lock"
    assert ledgerfile.lock_path(path).exists()


# --------------------------------------------------------------------------- the lock


LOCK_HOLDER = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
time.sleep(60)
"""


@pytest.fixture
def lock_held_elsewhere(tmp_path: Path) -> Iterator[Path]:
    """A ledger whose lock another process holds, as a long `claimledger grade` would."""
    path = write(tmp_path, RICH)
    holder = subprocess.Popen(
        [sys.executable, "-c", LOCK_HOLDER, str(ledgerfile.lock_path(path))],
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"
        yield path
    finally:
        holder.kill()
        holder.wait()
        if holder.stdout is not None:
            holder.stdout.close()


def test_a_held_lock_makes_the_writer_wait_then_give_up(lock_held_elsewhere: Path) -> None:
    path = lock_held_elsewhere
    with pytest.raises(InputError, match="another claimledger command has held its lock"):
        ledgerfile.update(path, lambda text, _: text + "# mine\n", lock_timeout=0.5)
    assert path.read_bytes() == RICH.encode("utf-8")


# --------------------------------------------------------------------------- concurrency

RACER = """
import sys, time
from pathlib import Path
from claimledger.cli import main

ready, go = Path(sys.argv[1]), Path(sys.argv[2])
ready.touch()
while not go.exists():
    time.sleep(0.001)
sys.argv = ["claimledger", *sys.argv[3:]]
main()
"""
"""`claimledger` itself, imported first, then held at a barrier so all start together."""


def race(
    tmp_path: Path, commands: Sequence[Sequence[str]]
) -> list[subprocess.CompletedProcess[str]]:
    """Run each command line in its own process, released at the same instant."""
    barrier = tmp_path / "barrier"
    barrier.mkdir()
    go = barrier / "go"
    processes = []
    for index, argv in enumerate(commands):
        ready = barrier / f"ready-{index}"
        processes.append(
            subprocess.Popen(
                [sys.executable, "-c", RACER, str(ready), str(go), *argv],
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
            )
        )
    deadline = time.monotonic() + 60
    while len(list(barrier.glob("ready-*"))) < len(commands):
        assert time.monotonic() < deadline, "the racers never got ready"
        assert all(p.poll() is None for p in processes), "a racer died before the start"
        time.sleep(0.01)
    go.touch()
    results = []
    for process, argv in zip(processes, commands, strict=True):
        stdout, stderr = process.communicate(timeout=120)
        results.append(subprocess.CompletedProcess(argv, process.returncode, stdout, stderr))
    return results


@pytest.mark.slow
def test_concurrent_grades_of_different_claims_all_land(tmp_path: Path) -> None:
    path = write(tmp_path, many_claims(8))
    commands = [
        ["--ledger", str(path), "grade", f"c{i}", "UNKNOWN", "--because", f"racer {i}"]
        for i in range(8)
    ]
    for result in race(tmp_path, commands):
        assert result.returncode == 0, result.stderr
    ledger = load(path)
    entries = [(claim.id, entry) for claim in ledger.claims for entry in claim.history]
    assert len(entries) == 8
    assert sorted((claim_id, entry.why) for claim_id, entry in entries) == sorted(
        (f"c{i}", f"racer {i}") for i in range(8)
    )
    for claim in ledger.claims:
        (entry,) = claim.history
        assert (entry.from_grade, entry.to_grade) == (Grade.CLAIMED, Grade.UNKNOWN)
        assert claim.grades[0].grade is Grade.UNKNOWN
    assert temporaries(tmp_path) == []


@pytest.mark.slow
def test_concurrent_grades_of_one_claim_form_a_chain(tmp_path: Path) -> None:
    """Each writer reads what the last one wrote: every `from` is the previous `to`."""
    path = write(tmp_path, many_claims(1))
    targets = [Grade.UNKNOWN, Grade.SPECULATIVE, Grade.DEMONSTRATED, Grade.CLAIMED] * 2
    commands = [
        ["--ledger", str(path), "grade", "c0", str(grade), "--because", f"racer {i}"]
        for i, grade in enumerate(targets)
    ]
    for result in race(tmp_path, commands):
        assert result.returncode == 0, result.stderr
    claim = load(path).claim("c0")
    assert len(claim.history) == 8
    assert sorted(entry.why or "" for entry in claim.history) == sorted(
        f"racer {i}" for i in range(8)
    )
    previous = Grade.CLAIMED
    for entry in claim.history:
        assert entry.from_grade is previous, "a writer graded a stale copy: a lost update"
        assert entry.to_grade is not None
        previous = entry.to_grade
    assert claim.grades[0].grade is previous


# --------------------------------------------------------------------------- SIGKILL

WRITER = """
import datetime as dt, sys
from pathlib import Path
from claimledger.ledger import edits
from claimledger.ledger import file as ledgerfile

path, padding = Path(sys.argv[1]), "x" * int(sys.argv[2])
print("ready", flush=True)
n = 0
while True:
    def change(text, ledger, n=n):
        entry = edits.history_entry(
            date=dt.date(2026, 1, 1), by="rule:writer", why=f"entry {n} {padding}"
        )
        return edits.append_history(text, ledger, "c0", entry)

    ledgerfile.update(path, change)
    print(n, flush=True)
    n += 1
"""
"""Append one long history entry after another, and say after each that it is done."""

PADDING = 20_000


def start_writer(path: Path, *setup: str) -> subprocess.Popen[str]:
    """The writer, after optional lines of setup code (fault injection), once it is ready."""
    code = "\n".join(setup) + WRITER
    writer = subprocess.Popen(
        [sys.executable, "-c", code, str(path), str(PADDING)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    assert writer.stdout.readline() == "ready\n"
    return writer


def killed(writer: subprocess.Popen[str], after: float) -> int:
    """SIGKILL the writer `after` seconds from now; return how many writes it had finished."""
    time.sleep(after)
    writer.send_signal(signal.SIGKILL)
    stdout, _ = writer.communicate(timeout=30)
    assert writer.returncode == -signal.SIGKILL
    return len(stdout.split())


def written_entries(ledger: Ledger) -> list[str]:
    return [entry.why or "" for entry in ledger.claim("c0").history]


def entries_up_to(count: int) -> list[str]:
    return [f"entry {n} {'x' * PADDING}" for n in range(count)]


@pytest.mark.slow
def test_a_writer_killed_at_random_moments_never_leaves_a_torn_file(tmp_path: Path) -> None:
    """After each kill the ledger is the last version written, or the next one, whole.

    A temporary can outlive the kill only when the kill falls in the instant between
    giving the finished new version its name and renaming it over the ledger (about
    one kill in several hundred): then it is that whole version, never a part of one,
    and the next write removes it.
    """
    path = write(tmp_path, many_claims(1))
    base = path.read_bytes()
    seed = random.randrange(2**32)
    delays = random.Random(seed)  # a new schedule each run; the seed replays it
    outcomes = []
    for kill in range(20):
        path.write_bytes(base)
        writer = start_writer(path)
        finished = killed(writer, after=delays.uniform(0.0, 0.4))
        where = f"kill {kill} of the schedule with seed {seed}"
        entries = written_entries(load(path))  # load validates: a whole file, not part of one
        assert len(entries) in (finished, finished + 1), where  # the last finished, or the next
        assert entries == entries_up_to(len(entries)), where
        for left in temporaries(tmp_path):
            unpublished = written_entries(parse(left.read_text(encoding="utf-8")))
            assert unpublished == entries_up_to(len(entries) + 1), where
        ledgerfile.update(path, lambda text, _: text)
        assert temporaries(tmp_path) == [], where
        outcomes.append(len(entries))
    assert max(outcomes) > 0, "the kills all came before the first write; nothing was tested"


def kill_halfway_through_write(nth: int) -> str:
    """Setup code: at the nth big write, write half of it, then SIGKILL this process."""
    return f"""
import os, signal
_write, _big_writes = os.write, 0
def _write_half_of_the_nth_then_die(fd, data):
    global _big_writes
    if len(data) > 10_000:
        _big_writes += 1
        if _big_writes == {nth}:
            _write(fd, bytes(data[: len(data) // 2]))
            os.kill(os.getpid(), signal.SIGKILL)
    return _write(fd, data)
os.write = _write_half_of_the_nth_then_die
"""


KILL_BEFORE_THE_RENAME = """
import os, signal
def _die(*args, **kwargs):
    os.kill(os.getpid(), signal.SIGKILL)
os.replace = _die
"""


@pytest.mark.slow
@pytest.mark.parametrize("nth", [1, 2, 3])
def test_a_writer_killed_halfway_through_a_write_leaves_a_whole_file(
    tmp_path: Path, nth: int
) -> None:
    """The kill lands exactly mid-write: the writer kills itself after half the bytes.

    Every write, not just the first: the data must only ever go to a file that has no
    name yet (O_TMPFILE, on Linux), so no half-written temporary can be left behind.
    """
    path = write(tmp_path, many_claims(1))
    writer = start_writer(path, kill_halfway_through_write(nth))
    assert writer.wait(timeout=60) == -signal.SIGKILL
    assert writer.stdout is not None
    finished = len(writer.stdout.read().split())
    writer.stdout.close()
    entries = written_entries(load(path))
    assert entries == entries_up_to(finished)
    if sys.platform == "linux":
        assert temporaries(tmp_path) == []
    ledgerfile.update(path, lambda text, _: text + "# next write\n")
    assert temporaries(tmp_path) == []


@pytest.mark.slow
def test_a_temporary_left_by_a_kill_before_the_rename_goes_with_the_next_write(
    tmp_path: Path,
) -> None:
    """The one moment a named temporary exists: complete, between its naming and the rename."""
    path = write(tmp_path, many_claims(1))
    before = path.read_bytes()
    writer = start_writer(path, KILL_BEFORE_THE_RENAME)
    assert writer.wait(timeout=60) == -signal.SIGKILL
    if writer.stdout is not None:
        writer.stdout.close()
    assert path.read_bytes() == before
    (left,) = temporaries(tmp_path)
    assert written_entries(parse(left.read_text(encoding="utf-8"))) == entries_up_to(1)
    grade_by_hand(path, "c0", "UNKNOWN", "--because", "after the crash")
    assert temporaries(tmp_path) == []
    assert load(path).claim("c0").history[-1].why == "after the crash"


# --------------------------------------------------------------------------- editors


def add_history(why: str) -> ledgerfile.Change:
    def change(text: str, ledger: Ledger) -> str:
        entry = edits.history_entry(date=dt.date(2026, 1, 2), by="person", why=why)
        return edits.append_history(text, ledger, "c0", entry)

    return change


def test_an_editor_writing_between_read_and_replace_is_not_overwritten(tmp_path: Path) -> None:
    """The edit is redone on top of the editor's version: both survive."""
    path = write(tmp_path, many_claims(2))
    calls = []
    ours = add_history("ours")

    def change(text: str, ledger: Ledger) -> str:
        calls.append(text)
        if len(calls) == 1:  # an editor that ignores the lock saves now
            path.write_text(text.replace("title: Claim 1", "title: Edited by hand"), "utf-8")
        return ours(text, ledger)

    written = ledgerfile.update(path, change)
    assert len(calls) == 2
    assert "Edited by hand" in calls[1]
    on_disk = load(path)
    assert on_disk.claim("c1").title == "Edited by hand"
    assert [entry.why for entry in on_disk.claim("c0").history] == ["ours"]
    assert written == on_disk
    assert temporaries(tmp_path) == []


def test_an_editor_saving_while_the_new_text_is_written_is_not_overwritten(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Writing and fsyncing the new text takes time (a large ledger, a slow disk): an
    editor's save in that time is seen before the rename, and the edit redone on it."""
    from claimledger.ledger import atomicfile

    path = write(tmp_path, many_claims(2))
    write_all = atomicfile._write_all
    saves: list[str] = []

    def write_all_while_an_editor_saves(fd: int, data: Any, mode: int | None) -> None:
        write_all(fd, data, mode)
        if not saves:  # an editor that ignores the lock saves as the temporary is synced
            saves.append(path.read_text("utf-8").replace("title: Claim 1", "title: By hand"))
            path.write_text(saves[0], "utf-8")

    monkeypatch.setattr(atomicfile, "_write_all", write_all_while_an_editor_saves)
    ledgerfile.update(path, add_history("ours"))
    on_disk = load(path)
    assert on_disk.claim("c1").title == "By hand"
    assert [entry.why for entry in on_disk.claim("c0").history] == ["ours"]
    assert temporaries(tmp_path) == []


def test_an_editor_that_keeps_writing_gets_a_conflict_error(tmp_path: Path) -> None:
    path = write(tmp_path, many_claims(1))
    calls = []
    ours = add_history("ours")

    def change(text: str, ledger: Ledger) -> str:
        calls.append(text)
        path.write_text(text + f"# saved by an editor, {len(calls)}\n", "utf-8")
        return ours(text, ledger)

    with pytest.raises(ConflictError, match="keeps changing while being written"):
        ledgerfile.update(path, change)
    assert len(calls) == ledgerfile.COMPARE_RETRIES
    after = path.read_text(encoding="utf-8")
    assert after.endswith(f"# saved by an editor, {ledgerfile.COMPARE_RETRIES}\n")
    assert load(path).claim("c0").history == ()  # ours never overwrote the editor's file
    assert temporaries(tmp_path) == []


def test_stale_temporaries_are_removed_under_the_lock(tmp_path: Path) -> None:
    path = write(tmp_path, many_claims(1))
    stale = tmp_path / ".claims.yaml.4242.deadbeef.tmp"
    stale.write_text("half a ledger", encoding="utf-8")
    unrelated = tmp_path / "notes.tmp"
    unrelated.write_text("mine", encoding="utf-8")
    ledgerfile.update(path, add_history("x"))
    assert not stale.exists()
    assert unrelated.read_text(encoding="utf-8") == "mine"


def test_history_entries_are_written_in_the_ledger_key_order() -> None:
    entry = edits.history_entry(
        date=dt.date(2026, 1, 2),
        by="person",
        why="w",
        on="wording",
        from_grade=Grade.CLAIMED,
        to_grade=Grade.UNKNOWN,
    )
    assert list(entry) == ["date", "on", "from", "to", "by", "why"]
    rendered = edits.append_history(
        many_claims(1), parse(many_claims(1)), "c0", entry
    ).splitlines()[-1]
    assert yaml.safe_load(rendered.strip()[2:])["why"] == "w"
    assert rendered.strip().startswith("- {date: 2026-01-02, on: wording, from: CLAIMED")


# --------------------------------------------------------------------------- review fixes

TODAY = dt.date(2026, 11, 29)

SMALL = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  a: {url: "https://docs.example/a", title: A, kind: docs, publisher: p}
claims:
  - id: folded
    section: s
    title: Folded
    kind: guarantee
    statement: S.
    quotes:
      - text: >-
          A long sentence that the author
          folded over two lines.
        sources: [a]
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}
    history: [{date: 2026-09-01, on: wording, from: DEMONSTRATED, to: CLAIMED, by: person}]
"""


def test_a_folded_quote_is_replaced_without_swallowing_the_next_key(tmp_path: Path) -> None:
    text = yamledit.set_scalar(SMALL, ("claims", 0, "quotes", 0, "text"), "Now one line.")
    assert "      - text: Now one line.\n        sources: [a]\n" in text
    assert parse(text).claim("folded").quotes[0].text == "Now one line."


def test_a_flow_history_keeps_its_entries_and_gains_one(tmp_path: Path) -> None:
    ledger = parse(SMALL)
    text = edits.set_grade(
        SMALL, ledger, "folded", None, Grade.UNKNOWN, by="person", why="x", date=TODAY
    )
    old_entry = "[{date: 2026-09-01, on: wording, from: DEMONSTRATED, to: CLAIMED, by: person}"
    assert old_entry in text  # the author's entry is untouched, byte for byte
    history = parse(text).claim("folded").history
    assert [(h.from_grade, h.to_grade) for h in history] == [
        (Grade.DEMONSTRATED, Grade.CLAIMED),
        (Grade.CLAIMED, Grade.UNKNOWN),
    ]


def test_writing_through_a_symlink_edits_the_file_it_points_to(tmp_path: Path) -> None:
    real = write(tmp_path, SMALL)
    view = tmp_path / "view"
    view.mkdir()
    link = view / "claims.yaml"
    link.symlink_to(real)
    grade_by_hand(link, "folded", "UNKNOWN", "--because", "x")
    assert link.is_symlink()
    assert load(real).claim("folded").grades[0].grade is Grade.UNKNOWN


def test_a_flow_history_with_a_trailing_comma_gains_an_entry(tmp_path: Path) -> None:
    one_line = "{date: 2026-09-01, on: wording, from: DEMONSTRATED, to: CLAIMED, by: person}"
    text = SMALL.replace(
        f"    history: [{one_line}]",
        "    history: [\n      {date: 2026-09-01, on: wording, from: DEMONSTRATED, to: CLAIMED,"
        " by: person},\n    ]",
    )
    edited = edits.set_grade(
        text, parse(text), "folded", None, Grade.UNKNOWN, by="person", why="x", date=TODAY
    )
    assert len(parse(edited).claim("folded").history) == 2


# --------------------------------------------------------------------------- many edits in one pass

DAY = dt.date(2026, 12, 1)


def one_at_a_time(text: str, changes: list[edits.GradeChange]) -> str:
    """The changes made as separate edits, each on a fresh parse of the text before it."""
    for change in changes:
        text = edits.set_grades(text, parse(text), [change], date=DAY)
    return text


def test_many_grade_changes_in_one_pass_are_the_edits_one_at_a_time() -> None:
    """Every shape of claim in the hand-written file (no history yet, a block history, a
    flow list last, trailing blank lines kept, a block scalar last), two facets of one claim
    at once, and the ledger's last claim: one pass writes exactly what separate edits do."""
    changes = [
        edits.GradeChange("fresh", "wording", Grade.UNKNOWN, "rule:quotes", "gone"),
        edits.GradeChange("fresh", "holds at runtime", Grade.CLAIMED, "person", "re-read"),
        edits.GradeChange("seasoned", None, Grade.CLAIMED, "rule:quotes", "one source"),
        edits.GradeChange("flow-last", None, Grade.UNKNOWN, "rule:premises", "capped"),
        edits.GradeChange("kept-last", None, Grade.CLAIMED, "person", "answered"),
        edits.GradeChange("block-last", None, Grade.SPECULATIVE, "person", "a guess"),
    ]
    batched = edits.set_grades(RICH, parse(RICH), changes, date=DAY)
    assert batched == one_at_a_time(RICH, changes)
    written = parse(batched)
    assert [f.grade for f in written.claim("fresh").grades] == [Grade.UNKNOWN, Grade.CLAIMED]
    assert [h.why for h in written.claim("fresh").history] == ["gone", "re-read"]
    assert "&id" not in batched and "*id" not in batched  # a repeated date is written out


def test_many_changes_on_a_file_without_a_final_newline() -> None:
    changes = [edits.GradeChange("last", None, Grade.UNKNOWN, "rule:quotes", "gone")]
    batched = edits.set_grades(LAST_WITHOUT_NEWLINE, parse(LAST_WITHOUT_NEWLINE), changes, date=DAY)
    assert batched == one_at_a_time(LAST_WITHOUT_NEWLINE, changes)
    assert not batched.endswith("\n")


def test_a_ledger_parsed_from_other_text_is_not_trusted_for_places() -> None:
    """The tree a ledger was parsed to is reused only for that very text."""
    other = RICH.replace("# A ledger written by hand", "# A ledger, written by hand")
    change = [edits.GradeChange("seasoned", None, Grade.CLAIMED, "person", "x")]
    assert edits.set_grades(other, parse(RICH), change, date=DAY) == one_at_a_time(other, change)


def test_a_hundred_changes_on_a_big_ledger_are_one_pass() -> None:
    text = many_claims(1000)
    changes = [
        edits.GradeChange(f"c{i}", None, Grade.UNKNOWN, "rule:quotes", f"gone {i}")
        for i in range(0, 1000, 10)
    ]
    batched = edits.set_grades(text, parse(text), changes, date=DAY)
    written = parse(batched)
    assert sum(1 for c in written.claims if c.grades[0].grade is Grade.UNKNOWN) == 100
    assert written.claim("c990").history[0].why == "gone 990"
    assert written.claim("c991").history == ()
