"""Loading claims.yaml: every bad ledger is refused with all its problems, and nothing else.

The bad ledgers live in tests/data/bad_ledgers.yaml, one case an entry; adding a case is
adding an entry there. Each goes through the real command line (`claimledger check`),
which must exit 2 and print exactly the expected problems, one `FILE:LINE:COL: message`
line each, then a one-line count, and never a traceback. The focused tests below cover
what a table of YAML texts cannot: files that are missing, directories, unreadable or
not text; the time an alias bomb costs; and what a good ledger is built into.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.testing import Result

from claimledger.errors import ExitCode, InputError, LedgerError
from claimledger.ledger.file import MAX_LEDGER_BYTES, load
from claimledger.ledger.model import parse
from claimledger.ledger.safeyaml import load_located
from claimledger.ledger.soundness import find_cycles
from claimledger.ledger.vocabulary import Basis, Grade
from cli_runner import claimledger

CASES_FILE = Path(__file__).parent / "data" / "bad_ledgers.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))

VALID = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections:
  - {id: main, title: Main}
sources:
  docs: {url: "https://example.com/docs", title: Docs, kind: docs, publisher: example}
claims:
  - id: one
    section: main
    title: One
    statement: The docs say one thing.
    kind: guarantee
    quotes:
      - {text: "One thing holds.", sources: [docs]}
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}
"""
"""The valid ledger most table cases spoil in one place (see the table's header)."""


def check(path: Path, code: int = ExitCode.INPUT) -> Result:
    """Run `claimledger --ledger PATH check` in this process, as a user would type it
    (most cases here are ledgers it must refuse: exit 2)."""
    return claimledger("--ledger", str(path), "check", code=code)


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_bytes(text.encode("utf-8"))
    return path


def assert_one_error_line(result: Result, *parts: str) -> None:
    """Nothing on stdout, one line on stderr holding every part, no traceback."""
    assert result.stdout == ""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("claimledger: error: ")
    for part in parts:
        assert part in lines[0]
    assert "Traceback" not in result.output


def assert_problems(stderr: str, path: Path, expect: list[dict[str, Any]]) -> None:
    """Exactly the expected problems, in file order, one line each, then the count."""
    *problem_lines, summary = stderr.splitlines()
    noun = "problem" if len(expect) == 1 else "problems"
    assert summary == f"claimledger: error: {len(expect)} {noun} in the ledger"
    assert len(problem_lines) == len(expect), "\n".join(problem_lines)
    for line, wanted in zip(problem_lines, expect, strict=True):
        prefix = f"{path}:{wanted['line']}:{wanted['col']}: "
        assert line.startswith(prefix), f"{line!r} is not at {prefix!r}"
        assert wanted["message"] in line.removeprefix(prefix), line
    assert "Traceback" not in stderr


# --------------------------------------------------------------------------- the table


def test_the_table_is_big_enough_and_well_formed() -> None:
    names = [case["name"] for case in CASES]
    assert len(CASES) >= 30
    assert len(set(names)) == len(names), "case names are test ids: keep them unique"
    for case in CASES:
        assert set(case) == {"name", "ledger", "expect"}, case["name"]
        assert isinstance(case["ledger"], str) and case["expect"], case["name"]
        for wanted in case["expect"]:
            assert set(wanted) == {"line", "col", "message"}, case["name"]


def test_the_ledger_the_cases_spoil_is_valid() -> None:
    ledger = parse(VALID)
    assert ledger.claim_ids == ["one"]


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_bad_ledger_is_refused_with_every_problem(case: dict[str, Any], tmp_path: Path) -> None:
    path = write(tmp_path, case["ledger"])
    result = check(path)
    assert result.stdout == ""
    assert_problems(result.stderr, path, case["expect"])


SUBPROCESS_CASES = ["python-object-tag", "alias-bomb", "empty-file", "several-problems-at-once"]


@pytest.mark.parametrize("name", SUBPROCESS_CASES)
def test_bad_ledger_is_refused_by_the_installed_command(name: str, tmp_path: Path) -> None:
    """The same, in a process of its own: what a user's shell sees, streams and exit code."""
    (case,) = [case for case in CASES if case["name"] == name]
    path = write(tmp_path, case["ledger"])
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(path), "check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == ExitCode.INPUT, done.stderr
    assert done.stdout == ""
    assert_problems(done.stderr, path, case["expect"])


# --------------------------------------------------------------------------- hostile YAML


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    rows = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    rows += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    return "\n".join(rows) + "\n"


def test_an_alias_bomb_is_refused_at_the_alias_budget() -> None:
    """Refused when what the aliases add passes the budget, not after building it (the
    time it takes is in tests/benchmarks/bench_hostile.py)."""
    with pytest.raises(LedgerError) as caught:
        parse(billion_laughs())
    assert [p.message for p in caught.value.problems] == [
        "aliases expand to more than 100000 nodes (an alias bomb?)"
    ]


def test_a_large_plain_document_spends_none_of_the_alias_budget() -> None:
    """Only repetition through aliases is budgeted: a big ledger with none loads whole."""
    text = "items:\n" + "".join(f"  - {{n: {i}, word: w{i}}}\n" for i in range(40_000))
    located, problems = load_located(text)  # 120,000 nodes, more than the alias budget
    assert problems == [] and located is not None
    assert len(located.data["items"]) == 40_000 and located.data["items"][-1]["n"] == 39_999
    anchored = "a: &a [1, 2, 3]\nb: [*a, *a]\n"  # a few aliases are fine
    assert load_located(anchored)[0] is not None


def test_an_alias_bomb_is_refused_by_the_command(tmp_path: Path) -> None:
    path = write(tmp_path, billion_laughs())
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(path), "check"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == ExitCode.INPUT
    assert "alias bomb" in done.stderr


def test_plain_anchors_and_aliases_are_still_allowed() -> None:
    """The budget stops bombs, not the ordinary use of an alias for a repeated value."""
    text = VALID.replace("title: Main}", "title: &main-title Main}").replace(
        "    title: One\n", "    title: *main-title\n"
    )
    assert text != VALID
    assert parse(text).claims[0].title == "Main"


@pytest.mark.parametrize("depth", [70, 5000])
def test_deep_nesting_is_refused_not_a_crash(depth: int) -> None:
    """5000 is far past Python's recursion limit, were the reader to recurse unguarded."""
    with pytest.raises(LedgerError) as caught:
        parse(f"ledger: 1\ntitle: {'[' * depth}{']' * depth}\n")
    (problem,) = caught.value.problems
    # libyaml has a nesting limit of its own; the Python reader stops at ours
    assert "nested more than 64 levels deep" in problem.message or (
        "maximum nesting depth" in problem.message
    )


def test_a_long_chain_of_premises_is_not_a_crash() -> None:
    """A depends_on chain longer than Python's recursion limit, acyclic and then closed."""
    length = sys.getrecursionlimit() + 500
    chain = {f"c{i}": [f"c{i + 1}"] for i in range(length - 1)} | {f"c{length - 1}": []}
    assert find_cycles(chain) == []
    closed = chain | {f"c{length - 1}": ["c0"]}
    (cycle,) = find_cycles(closed)
    assert cycle == [f"c{i}" for i in range(length)]


def test_every_cycle_is_named_once_from_its_least_id() -> None:
    graph = {"b": ["a"], "a": ["b", "c"], "c": ["d"], "d": ["c", "e"], "e": []}
    assert find_cycles(graph) == [["a", "b"], ["c", "d"]]


def test_a_line_break_in_a_quoted_value_stays_on_the_problem_line() -> None:
    text = VALID.replace("    statement:", '    "stat\\nment":')
    with pytest.raises(LedgerError) as caught:
        parse(text)
    messages = [p.message for p in caught.value.problems]
    assert "unknown key 'stat\\nment' in claims[0] (did you mean 'statement'?)" in messages
    assert all("\n" not in message for message in messages)


def test_a_whole_number_too_long_to_read_is_said_by_its_length(tmp_path: Path) -> None:
    """Past Python's 4,300 digits the number was said to be no int, and its digits made
    the problem's line: the line says how long it is, at its place, and stays short."""
    path = write(tmp_path, VALID.replace("ledger: 1", "ledger: 1" + "0" * 5000))
    result = check(path)
    assert result.stderr.splitlines() == [
        f"{path}:1:9: a whole number of 5001 characters is too long to read as one",
        "claimledger: error: 1 problem in the ledger",
    ]


@pytest.mark.parametrize("mark", ['"', "'"])
def test_an_unclosed_quote_is_placed_where_it_opens_not_at_the_end(
    mark: str, tmp_path: Path
) -> None:
    """The reader only notices at the end of the file; the author needs the opening."""
    text = VALID.replace("title: A reading", f"title: {mark}A reading")
    path = write(tmp_path, text)
    expect = {"line": 2, "col": 8, "message": "this quoted value is not closed on its line"}
    assert_problems(check(path).stderr, path, [expect])


# --------------------------------------------------------------------------- files


def test_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nowhere" / "claims.yaml"
    assert_one_error_line(check(path), str(path), "no such file", "claimledger init")


def test_a_directory(tmp_path: Path) -> None:
    assert_one_error_line(check(tmp_path), str(tmp_path), "is a directory")


def test_a_file_that_is_not_utf8(tmp_path: Path) -> None:
    data = VALID.replace("A reading", "Une lecture \xe9t\xe9").encode("latin-1")
    path = tmp_path / "claims.yaml"
    path.write_bytes(data)
    first_bad_byte = data.index(b"\xe9")
    line = data.count(b"\n", 0, first_bad_byte) + 1
    col = first_bad_byte - data.rfind(b"\n", 0, first_bad_byte)
    result = check(path)
    assert result.stderr.splitlines() == [
        f"{path}:{line}:{col}: not UTF-8 text (byte {first_bad_byte})",
        "claimledger: error: 1 problem in the ledger",
    ]
    as_json = json.loads(claimledger("--ledger", str(path), "check", "--json", code=2).stdout)
    assert (as_json["valid"], as_json["problems"][0]["line"]) == (False, line)


def test_a_utf8_byte_order_mark_is_accepted(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    path.write_bytes(b"\xef\xbb\xbf" + VALID.encode("utf-8"))
    assert load(path).title == "A reading"


def test_an_unreadable_file(tmp_path: Path) -> None:
    path = write(tmp_path, VALID)
    path.chmod(0)
    try:
        if os.access(path, os.R_OK):
            pytest.skip("this user reads files whatever their mode (root)")
        assert_one_error_line(check(path), str(path), "cannot be read", "Permission denied")
    finally:
        path.chmod(0o644)


def test_a_file_too_large_to_be_a_ledger(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    with path.open("wb") as file:
        file.write(VALID.encode())
        file.truncate(MAX_LEDGER_BYTES + 1)  # a sparse file: no disk spent on the padding
    assert_one_error_line(check(path), str(path), f"larger than {MAX_LEDGER_BYTES // 2**20} MiB")


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_an_endless_file_is_read_only_up_to_the_cap() -> None:
    """A device reports size 0 and never ends; reading it whole would exhaust memory."""
    assert_one_error_line(check(Path("/dev/zero")), f"larger than {MAX_LEDGER_BYTES // 2**20} MiB")


def test_a_small_ledger_is_read_without_asking_for_the_caps_memory(tmp_path: Path) -> None:
    """`read(cap + 1)` asks for 128 MiB before a byte is read, whatever the file's size."""
    path = write(tmp_path, VALID)
    tracemalloc.start()
    try:
        load(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 16 * 2**20


def test_load_raises_input_errors_not_os_errors(tmp_path: Path) -> None:
    with pytest.raises(InputError, match="no such file"):
        load(tmp_path / "absent.yaml")


@pytest.mark.parametrize("command", ["check", "status", "refresh"])
def test_a_ledger_with_a_problem_leaves_nothing_beside_it(tmp_path: Path, command: str) -> None:
    """Refused before anything is made: no out/ directory, no store, no lock."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(VALID.replace("grade: CLAIMED", "grade: CLAIMD"), encoding="utf-8")
    claimledger("--ledger", str(ledger), command, code=ExitCode.INPUT)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["claims.yaml"]


# --------------------------------------------------------------------------- a good ledger


GOOD = """\
# A ledger with one of everything the model holds.
ledger: 1
title: "A reading"
subject: Example Corp
date_read: 2026-01-15
sections:
  - id: guarantees
    title: The guarantees
    intro: |
      What is promised.
sources:
  docs: {url: "https://example.com/docs", title: Docs, kind: docs, publisher: example}
  mirror:
    url: https://mirror.example.org/docs
    title: A mirror
    kind: mirror
    publisher: someone-else
    independent: true
    select: main article
claims:
  - id: gate
    section: guarantees
    title: The gate
    statement: The docs say the gate holds.
    kind: guarantee
    quotes:
      - {text: "The gate holds.", sources: [docs, mirror]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
      - {on: holds at runtime, grade: UNKNOWN, basis: judgement}
    history:
      - {date: 2026-01-16, on: wording, from: CLAIMED, to: DEMONSTRATED, by: person, why: read}
  - id: consequence
    section: guarantees
    title: What follows
    statement: If the gate holds, so does this.
    kind: consequence
    depends_on: [gate]
    falsified_if: A page that says the gate can be skipped.
    grades:
      - {on: holds, grade: SPECULATIVE, basis: premises}
  - id: toy
    section: guarantees
    title: The toy
    statement: A toy shows it.
    kind: artifact
    artifact: {run: [node, toy.js], expect: "ok\\n", timeout: 5}
    grades:
      - {on: the toy prints ok, grade: DEMONSTRATED, basis: artifact}
scope:
  did_not: [run anything on the vendor's platform]
  could_not_see: [the runtime]
"""


def test_a_good_ledger_is_built_into_the_model() -> None:
    ledger = parse(GOOD)
    assert ledger.title == "A reading"
    assert ledger.date_read == dt.date(2026, 1, 15)
    assert [s.id for s in ledger.sections] == ["guarantees"]
    assert ledger.sections[0].intro == "What is promised.\n"
    assert ledger.sources["mirror"].select == "main article"
    assert ledger.sources["mirror"].independent
    gate, consequence, toy = ledger.claims
    assert gate.quotes[0].sources == ("docs", "mirror")
    assert [(f.on, f.grade, f.basis) for f in gate.grades] == [
        ("wording", Grade.DEMONSTRATED, Basis.QUOTES),
        ("holds at runtime", Grade.UNKNOWN, Basis.JUDGEMENT),
    ]
    assert gate.grades[0].min_sources == 2
    (entry,) = gate.history
    assert (entry.date, entry.from_grade, entry.to_grade) == (
        "2026-01-16",
        Grade.CLAIMED,
        Grade.DEMONSTRATED,
    )
    assert consequence.depends_on == ("gate",)
    assert toy.artifact is not None
    assert toy.artifact.run == ("node", "toy.js")
    assert toy.artifact.expect == "ok\n"
    assert ledger.scope.could_not_see == ("the runtime",)
    counts = ledger.grade_counts()
    assert list(counts) == list(Grade)
    assert counts == {
        Grade.DEMONSTRATED: 2,
        Grade.CLAIMED: 0,
        Grade.SPECULATIVE: 1,
        Grade.UNKNOWN: 1,
    }


def test_grades_order_strongest_first() -> None:
    strengths = [grade.strength for grade in Grade]
    assert strengths == sorted(strengths, reverse=True)
    assert min(Grade, key=lambda g: g.strength) is Grade.UNKNOWN
