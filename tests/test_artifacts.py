"""Executable evidence that is actually run: `regrade` runs every artifact claim's command,
records the run in the evidence store, fails visibly when a program cannot run, and the
report, `explain` and the rules all read the recorded run.

Every run is a real process (this Python, or a small script), every store a real SQLite
file, every command the real CLI.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import platform
import shlex
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from markdown_it import MarkdownIt

import claimledger
from claimledger.evidence.store import EvidenceStore
from claimledger.evidence.store.schema import MIGRATIONS, SCHEMA_VERSION
from claimledger.grading.artifact import MAX_OUTPUT, describe_runner
from claimledger.ledger.file import load
from claimledger.ledger.vocabulary import Grade
from claimledger.records import ArtifactRun
from cli_runner import Cli

PRINT_SAID = [sys.executable, "-c", "print(open('said.txt').read().strip())"]
"""A toy whose output the test sets: it prints what `said.txt` beside the ledger says."""

HOSTILE = (
    "<script>alert(1)</script>\n"
    "[click me](javascript:alert(2))\n"
    "```\n"
    "<img src=x onerror=alert(3)>\n"
    "**not bold** | not a cell"
)


def write_ledger(
    directory: Path,
    run: list[str] | str,
    *,
    expect: str = "ok\n",
    timeout: float = 30,
    shell: bool = False,
    predicted: bool = False,
    broken: bool = False,
    trusted: bool = True,
) -> Path:
    """A ledger of one artifact claim, `toy`; with `predicted`, a facet graded by judgement
    (what the author predicted) beside the measured one; with `broken`, a second artifact
    claim whose program does not exist. The author's own, so its commands are `trusted`
    unless the test says otherwise."""
    artifact = {"run": run, "expect": expect, "timeout": timeout, "shell": shell}
    prediction = (
        "      - {on: predicted before running it, grade: SPECULATIVE, basis: judgement,"
        " why: inferred from the design}\n"
        if predicted
        else ""
    )
    text = (
        "ledger: 1\n"
        "title: Artifacts\n"
        "date_read: 2026-08-23\n"
        "sections: [{id: s, title: S}]\n"
        "sources: {}\n"
        "claims:\n"
        "  - id: toy\n"
        "    section: s\n"
        "    title: A toy\n"
        "    kind: artifact\n"
        "    statement: The toy prints ok.\n"
        f"    artifact: {json.dumps(artifact)}\n"
        "    grades:\n"
        f"{prediction}"
        "      - {on: measured, grade: DEMONSTRATED, basis: artifact, why: run on every regrade}\n"
    )
    if broken:
        text += (
            "  - {id: broken, section: s, title: Broken, kind: artifact, statement: S.,\n"
            "     artifact: {run: [nonexistent-program-xyz], expect: ok},\n"
            "     grades: [{on: measured, grade: DEMONSTRATED, basis: artifact}]}\n"
        )
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "claims.yaml"
    path.write_text(text, encoding="utf-8")
    if trusted:
        Cli(path)("trust")
    return path


def say(ledger: Path, text: str) -> None:
    """Set what the toy prints, as its author: said.txt is a file of the ledger's
    directory, so its author trusts the workspace again, as it now is."""
    (ledger.parent / "said.txt").write_text(text, encoding="utf-8")
    Cli(ledger)("trust")


def store_path(ledger: Path) -> Path:
    return ledger.parent / "out" / "evidence.sqlite3"


def recorded_rows(ledger: Path) -> list[sqlite3.Row]:
    """Every row of artifact_runs, oldest first, read straight from the file."""
    connection = sqlite3.connect(store_path(ledger))
    connection.row_factory = sqlite3.Row
    try:
        return connection.execute("SELECT * FROM artifact_runs ORDER BY id").fetchall()
    finally:
        connection.close()


def last_run(ledger: Path) -> ArtifactRun:
    with EvidenceStore.open(store_path(ledger), readonly=True) as store:
        return store.latest_artifact_runs()["toy"]


def grade_of(ledger: Path, on: str = "measured") -> Grade:
    return next(facet.grade for facet in load(ledger).claim("toy").grades if facet.on == on)


def could_not_run_lines(stderr: str, claim_id: str = "toy") -> list[str]:
    prefix = f"claimledger: error: artifact of {claim_id} could not run: "
    return [line for line in stderr.splitlines() if line.startswith(prefix)]


@pytest.fixture
def toy(tmp_path: Path) -> Path:
    ledger = write_ledger(tmp_path / "toy", PRINT_SAID)
    say(ledger, "ok\n")
    return ledger


# --------------------------------------------------------------------------- running and recording


def test_regrade_runs_the_artifact_by_default_and_records_the_run(toy: Path) -> None:
    assert not store_path(toy).exists()  # never refreshed: regrade makes the store

    result = Cli(toy)("regrade", code=0)

    assert could_not_run_lines(result.stderr) == []
    rows = recorded_rows(toy)
    assert len(rows) == 1
    row = rows[0]
    assert row["claim_id"] == "toy"
    assert row["command"] == shlex.join(PRINT_SAID)
    assert (row["started"], row["exit_status"], row["matched"]) == (1, 0, 1)
    assert (row["output"], row["expected"], row["error"]) == ("ok\n", "ok\n", None)
    assert row["seconds"] >= 0
    assert row["runner"] == f"{sys.executable} (Python {platform.python_version()})"
    assert row["ran_at"].endswith("+00:00")

    Cli(toy)("regrade", code=0)
    rows = recorded_rows(toy)
    assert len(rows) == 2  # append-only: every run is kept
    assert last_run(toy).ran_at == dt.datetime.fromisoformat(rows[1]["ran_at"])  # the latest


def test_an_artifact_that_ran_and_matched_is_evidence_not_none_yet(toy: Path) -> None:
    cli = Cli(toy)

    text = cli("regrade", code=0).stdout
    report = cli.json("regrade", code=0)

    assert text.strip() == "nothing to propose: every grade agrees with its evidence"
    assert report["has_evidence"] is True
    elsewhere = str(toy.parent / "out" / "other.sqlite3")  # no run recorded there
    assert "no evidence yet" in cli("--evidence", elsewhere, "regrade", "--no-artifacts").stdout


def test_an_artifact_not_run_now_is_graded_on_its_last_run_as_explain_grades_it(
    toy: Path,
) -> None:
    """After a run that printed other than expected, `explain` and the report rated the
    claim lower and told the author to `regrade --write`, while a `regrade` that did not
    run the artifact (not trusted since, `--no-artifacts`) said "no evidence yet" and
    wrote nothing. The last run recorded in the user's own store is its evidence."""
    cli = Cli(toy)
    say(toy, "no\n")
    ran = cli.json("regrade", code=1)["proposals"]
    assert [p["to_grade"] for p in ran] == ["UNKNOWN"]

    skipped = cli.json("regrade", "--no-artifacts", code=1)["proposals"]
    explained = cli.json("explain", "toy")["proposals"]
    cli("regrade", "--no-artifacts", "--write", code=0)

    def lowering(proposals: list[dict[str, object]]) -> list[tuple[object, ...]]:
        return [(p["from_grade"], p["to_grade"], p["rule"]) for p in proposals]

    assert lowering(skipped) == lowering(ran) == lowering(explained)
    assert [p["why"] for p in skipped] == [p["why"] for p in explained] != [ran[0]["why"]]
    assert grade_of(toy) is Grade.UNKNOWN
    assert len(recorded_rows(toy)) == 1  # graded on the run recorded, none made


def test_explain_says_an_artifacts_different_output_under_its_evidence_line(toy: Path) -> None:
    """`explain` printed the diff of an artifact's output from its second line on at the
    left edge ("+++ actual", "-ok"), where they read as lines of its own."""
    cli = Cli(toy)
    say(toy, "no\nline two\n")
    cli("regrade", code=1)
    said = cli("explain", "toy").stdout.splitlines()
    first = said.index("    different output: --- expected")
    assert said[first + 1 : first + 6] == [
        "      +++ actual",
        "      @@ -1 +1,2 @@",
        "      -ok",
        "      +no",
        "      +line two",
    ]


def test_an_artifact_not_run_is_not_said_to_keep_the_grade_its_recorded_run_lowers(
    toy: Path,
) -> None:
    """`regrade --no-artifacts` lowered the grade on the run recorded, and in the same
    breath said the claim "keeps a grade no run checked"."""
    cli = Cli(toy)
    say(toy, "no\n")
    cli("regrade", code=1)  # run and recorded: it printed other than expected

    report = cli.json("regrade", "--no-artifacts", code=1)

    assert [p["to_grade"] for p in report["proposals"]] == ["UNKNOWN"]
    (proposal,) = report["proposals"]
    assert "its recorded run printed other than expected (not run now)" in json.dumps(proposal)
    (held,) = report["evidence_gaps"]
    assert "keeps a grade" not in held
    assert held.startswith("1 artifact claim not run (--no-artifacts): toy, graded on")


def test_no_artifacts_runs_and_records_nothing(toy: Path) -> None:
    cli = Cli(toy)
    (toy.parent / "said.txt").write_text("changed\n", encoding="utf-8")

    report = cli.json("regrade", "--no-artifacts", code=0)

    assert report["proposals"] == []  # not run: the rule proposes nothing
    assert not store_path(toy).exists()
    cli("regrade", "--no-artifacts", "--allow-artifacts", code=2)


def test_a_gate_that_skipped_an_artifact_does_not_say_every_grade_agrees(toy: Path) -> None:
    """`regrade --check` failed closed (exit 3) on an artifact not trusted since its last
    run, and in the same breath printed "every grade agrees with its evidence"."""
    cli = Cli(toy)
    cli("regrade", code=0)  # run and recorded: it printed what it should
    (toy.parent / "said.txt").write_text("changed\n", encoding="utf-8")  # not trusted since

    result = cli("regrade", "--check", code=3)

    assert "every grade agrees" not in result.stdout
    assert "incomplete" in result.stdout
    assert "claimledger: note: artifact of toy not run" in result.stderr


@pytest.mark.parametrize(
    ("form", "said"),
    [("anchors", "uses YAML anchors and aliases"), ("lone-cr", "lone carriage return")],
)
def test_a_write_the_ledger_would_refuse_is_refused_before_any_artifact_runs(
    toy: Path, form: str, said: str
) -> None:
    """A ledger written with YAML anchors, or with old Mac line ends, cannot be edited in
    place: `regrade --write` said so only after it had run the artifacts and recorded
    their runs."""
    text = toy.read_text(encoding="utf-8")
    if form == "anchors":
        text = text.replace("      - {on: measured", "      - &m {on: measured")
    else:
        text = text.replace("\n", "\r")
    toy.write_bytes(text.encode("utf-8"))
    say(toy, "changed\n")

    result = Cli(toy)("regrade", "--write", code=2)

    assert said in result.stderr
    assert not store_path(toy).exists()  # nothing ran, nothing was recorded
    assert toy.read_bytes() == text.encode("utf-8")


def test_a_recorded_run_that_matched_raises_no_grade_of_an_artifact_not_run_now(
    toy: Path,
) -> None:
    """A run of files that changed since (why the artifact is not trusted now) raised the
    grade it had lowered: only a run of the files as they are may raise one."""
    cli = Cli(toy)
    say(toy, "no\n")
    cli("regrade", "--write", code=0)
    assert grade_of(toy) is Grade.UNKNOWN
    say(toy, "ok\n")
    cli("regrade", code=1)  # a run that matched, recorded; its raise not written
    (toy.parent / "said.txt").write_text("no\n", encoding="utf-8")  # not trusted since

    cli("regrade", "--write", code=0)  # the artifact skipped, and said so

    assert grade_of(toy) is Grade.UNKNOWN


def test_explain_and_the_report_raise_no_grade_on_a_recorded_run_as_regrade_raises_none(
    toy: Path,
) -> None:
    """`regrade` raised nothing on a recorded run that matched of files changed since,
    while `explain` proposed the raise and the report said "1 grade change proposed" and
    printed the higher grade in its ClaimReview: each weighs the recorded run as
    `regrade` does."""
    cli = Cli(toy)
    say(toy, "no\n")
    cli("regrade", "--write", code=0)
    say(toy, "ok\n")
    cli("regrade", code=1)  # a run that matched, recorded; its raise not written
    (toy.parent / "said.txt").write_text("no\n", encoding="utf-8")  # not trusted since
    report = toy.parent / "out" / "report.json"

    assert cli.json("regrade", code=0)["proposals"] == []
    explained = cli.json("explain", "toy")
    cli("render", "-o", str(report), code=0)

    assert explained["proposals"] == []
    (facet,) = json.loads(report.read_text(encoding="utf-8"))["sections"][0]["claims"][0]["facets"]
    assert (facet["grade"], facet["proposed"]) == ("UNKNOWN", "")
    assert "raises no grade" in facet["evidence"]


def test_the_old_run_artifacts_flag_is_allow_artifacts(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path, PRINT_SAID, trusted=False)
    (tmp_path / "said.txt").write_text("ok\n", encoding="utf-8")
    Cli(ledger)("regrade", "--run-artifacts", code=0)

    assert len(recorded_rows(ledger)) == 1


def test_a_ledger_without_artifacts_opens_no_store_for_writing(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path, PRINT_SAID)
    text = ledger.read_text(encoding="utf-8")
    artifact = text[text.index("    artifact:") : text.index("    grades:")]
    ledger.write_text(text.replace(artifact, "").replace("basis: artifact", "basis: judgement"))

    Cli(ledger)("regrade", code=0)

    assert not store_path(ledger).exists()


def test_the_runner_is_named_but_only_an_interpreter_is_asked_its_version(
    tmp_path: Path,
) -> None:
    calls = tmp_path / "calls.txt"
    script = tmp_path / "toy-tool"
    script.write_text(f'#!/bin/sh\necho "$@" >> {shlex.quote(str(calls))}\necho ok\n')
    script.chmod(0o755)
    ledger = write_ledger(tmp_path, ["./toy-tool", "run"])

    Cli(ledger)("regrade", code=0)

    assert calls.read_text(encoding="utf-8").splitlines() == ["run"]  # never `--version`
    assert last_run(ledger).runner == str(script)
    assert describe_runner("nonexistent-program-xyz", tmp_path) == ""
    assert describe_runner(sys.executable, tmp_path).startswith(f"{sys.executable} (Python ")


# --------------------------------------------------------------------------- failures to run


def test_a_missing_program_is_a_visible_failure(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path, ["nonexistent-program-xyz"])
    cli = Cli(ledger)
    before = ledger.read_bytes()

    checked = cli("regrade", "--check", code=1)
    dry = cli("regrade", code=1)
    written = cli("regrade", "--write", code=1)

    for result in (checked, dry, written):
        lines = could_not_run_lines(result.stderr)
        assert len(lines) == 1 and "nonexistent-program-xyz" in lines[0], result.stderr
    assert ledger.read_bytes() == before  # no evidence: no grade change to write
    run = last_run(ledger)
    assert (run.started, run.exit_status, run.matched, run.runner) == (False, None, False, "")
    assert run.error is not None and "nonexistent-program-xyz" in run.error
    assert len(recorded_rows(ledger)) == 3


def test_write_applies_what_it_can_and_still_fails_for_a_program_that_could_not_run(
    tmp_path: Path,
) -> None:
    ledger = write_ledger(tmp_path, PRINT_SAID, broken=True)
    say(ledger, "changed\n")

    result = Cli(ledger)("regrade", "--write", code=1)

    assert grade_of(ledger) is Grade.UNKNOWN  # the toy's evidence was applied
    assert str(load(ledger).claim("broken").grades[0].grade) == "DEMONSTRATED"  # no evidence
    assert could_not_run_lines(result.stderr, "toy") == []
    assert len(could_not_run_lines(result.stderr, "broken")) == 1


def test_a_command_the_shell_cannot_find_is_a_visible_failure(tmp_path: Path) -> None:
    ledger = write_ledger(tmp_path, "nonexistent-program-xyz --flag", shell=True)

    result = Cli(ledger)("regrade", "--check", code=1)

    assert could_not_run_lines(result.stderr) == [
        "claimledger: error: artifact of toy could not run: the shell could not run it (status 127)"
    ]
    assert not last_run(ledger).started


@pytest.mark.slow
def test_a_program_that_times_out_is_a_visible_failure(tmp_path: Path) -> None:
    sleeper = [sys.executable, "-c", "import time; time.sleep(120)"]
    ledger = write_ledger(tmp_path, sleeper, timeout=0.5)

    result = Cli(ledger)("regrade", "--check", code=1)

    assert could_not_run_lines(result.stderr) == [
        "claimledger: error: artifact of toy could not run: timed out after 0.5 s"
    ]
    run = last_run(ledger)
    assert (run.started, run.exit_status, run.matched) == (True, None, False)
    assert grade_of(ledger) is Grade.DEMONSTRATED


def process_is_gone(pid: int) -> bool:
    """No process `pid` runs: it is gone, or a zombie waiting for its parent to reap it."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text(encoding="utf-8")
    except FileNotFoundError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def test_what_a_command_leaves_running_is_killed_and_does_not_hold_the_run(
    tmp_path: Path,
) -> None:
    pid_file = tmp_path / "pid.txt"
    started = f"sleep 1000 & echo $! > {shlex.quote(str(pid_file))}; echo ok"
    ledger = write_ledger(tmp_path / "toy", started, shell=True, timeout=5)

    Cli(ledger)("regrade", "--check", code=0)  # not held until its timeout by the sleep

    run = last_run(ledger)
    assert (run.started, run.exit_status, run.matched, run.error) == (True, 0, True, None)
    assert process_is_gone(int(pid_file.read_text(encoding="utf-8")))


@pytest.mark.slow
def test_a_command_that_times_out_is_killed_with_all_it_started(tmp_path: Path) -> None:
    pid_file = tmp_path / "pid.txt"
    started = f"sleep 1000 & echo $! > {shlex.quote(str(pid_file))}; wait"
    ledger = write_ledger(tmp_path / "toy", started, shell=True, timeout=0.5)

    Cli(ledger)("regrade", "--check", code=1)

    assert last_run(ledger).error == "timed out after 0.5 s"
    assert process_is_gone(int(pid_file.read_text(encoding="utf-8")))


@pytest.mark.parametrize("stop", [signal.SIGTERM, signal.SIGHUP], ids=["terminated", "hung-up"])
def test_a_regrade_terminated_mid_run_takes_the_run_with_it(
    tmp_path: Path, stop: signal.Signals
) -> None:
    """A CI job cancelled, or `timeout`, ends claimledger with SIGTERM: the run, in a
    session of its own, never receives it, and ran on for ever."""
    pid_file = tmp_path / "pid.txt"
    started = f"sleep 1000 & echo $! > {shlex.quote(str(pid_file))}; wait"
    ledger = write_ledger(tmp_path / "toy", started, shell=True, timeout=600)
    source = Path(claimledger.__file__).parents[1]
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "regrade"]
    env = {**os.environ, "PYTHONPATH": str(source)}

    def as_a_job_starts() -> None:  # the signal as a CI job's or a shell's process has it,
        signal.signal(stop, signal.SIG_DFL)  # even where this run ignores it (`nohup`)

    with subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, preexec_fn=as_a_job_starts
    ) as regrade:
        try:
            while not pid_file.exists() or not pid_file.read_text(encoding="utf-8").strip():
                assert regrade.poll() is None, "regrade ended before its artifact started"
                time.sleep(0.05)
            regrade.send_signal(stop)
            assert regrade.wait(timeout=60) == -stop  # it ends of the signal, as it did
        finally:
            if regrade.poll() is None:  # never left waiting on for ever
                regrade.kill()
    sleep = int(pid_file.read_text(encoding="utf-8"))
    for _ in range(200):  # killed at once; gone once the system has reaped it
        if process_is_gone(sleep):
            break
        time.sleep(0.05)
    assert process_is_gone(sleep)


def test_a_flood_of_output_is_kept_to_its_cap_and_never_held_whole(tmp_path: Path) -> None:
    megabyte = "sys.stdout.buffer.write(b'x' * 1_000_000)"
    flood = [sys.executable, "-c", f"import sys\nfor _ in range(400): {megabyte}"]
    ledger = write_ledger(tmp_path, flood)
    source = Path(claimledger.__file__).parents[1]
    measure = (
        "import resource, subprocess, sys; "
        "subprocess.run(sys.argv[1:], check=False, stdout=subprocess.DEVNULL); "
        "print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)"
    )
    command = [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "regrade"]
    done = subprocess.run(
        [sys.executable, "-c", measure, *command],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "PYTHONPATH": str(source)},
    )

    assert int(done.stdout) < 200_000  # KiB: the run's 400 MB were never held in memory
    run = last_run(ledger)
    assert (run.exit_status, len(run.output)) == (0, MAX_OUTPUT)


@pytest.mark.parametrize("timeout", [".inf", ".nan", "1e400", "1" + "0" * 400])
def test_a_timeout_that_is_no_number_of_seconds_is_bad_input(tmp_path: Path, timeout: str) -> None:
    ledger = write_ledger(tmp_path, PRINT_SAID, timeout=30, trusted=False)
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text.replace('"timeout": 30', f'"timeout": {timeout}'), encoding="utf-8")

    result = Cli(ledger)("regrade", "--allow-artifacts", code=2)

    assert "timeout must be a finite number of seconds, not " in result.stderr
    assert "Traceback" not in result.stderr
    assert not store_path(ledger).exists()  # nothing ran


# --------------------------------------------------------------------------- what the rule grades


def test_a_different_output_lowers_the_grade_and_the_same_output_restores_it(toy: Path) -> None:
    cli = Cli(toy)
    say(toy, "changed\n")

    report = cli.json("regrade", code=1)
    result = cli("regrade", "--write", code=0)

    assert could_not_run_lines(result.stderr) == []  # a mismatch is evidence, not a failure
    assert [(p["claim_id"], p["to_grade"], p["rule"]) for p in report["proposals"]] == [
        ("toy", "UNKNOWN", "artifact-changed")
    ]
    assert grade_of(toy) is Grade.UNKNOWN
    run = last_run(toy)
    assert (run.exit_status, run.matched, run.output) == (0, False, "changed\n")

    say(toy, "ok\n")
    restored = cli.json("regrade", code=1)
    assert [(p["to_grade"], p["rule"]) for p in restored["proposals"]] == [
        ("DEMONSTRATED", "artifact-restored")
    ]


def test_a_non_zero_exit_is_evidence_the_rule_grades(tmp_path: Path) -> None:
    failing = [sys.executable, "-c", "import sys; print('ok'); sys.exit(3)"]
    ledger = write_ledger(tmp_path, failing)

    report = Cli(ledger).json("regrade", code=1)

    assert [p["rule"] for p in report["proposals"]] == ["artifact-changed"]
    run = last_run(ledger)
    assert (run.started, run.exit_status, run.error) == (True, 3, "exited with status 3")


def test_status_exits_1_while_the_last_run_printed_other_than_expected(toy: Path) -> None:
    """A run whose output differs is evidence against the claim, as a quote gone from its
    page is: `status` says so and exits 1, as it does for the quote."""
    cli = Cli(toy)
    cli("regrade", code=0)
    cli("status", code=0)
    say(toy, "changed\n")
    cli("regrade", code=1)

    result = cli("status", code=1)

    assert "output differs" in result.stdout


# --------------------------------------------------------------------------- explain and the report


def test_explain_shows_the_last_run(toy: Path) -> None:
    cli = Cli(toy)
    assert "toy: its artifact has not run yet" in cli("explain", "toy", code=0).stdout

    cli("regrade", code=0)
    text = cli("explain", "toy", code=0).stdout
    data = cli.json("explain", "toy", code=0)

    line = next(line for line in text.splitlines() if "artifact last ran" in line)
    assert "exit status 0" in line and sys.executable in line and "output matches" in line
    assert "rule artifact: its recorded run printed what is expected" in text
    assert data["last_artifact_run"]["matched"] is True
    assert data["last_artifact_run"]["runner"].startswith(sys.executable)


def test_a_run_of_an_older_command_is_not_shown_as_this_ones(toy: Path) -> None:
    cli = Cli(toy)
    cli("regrade", code=0)
    toy.write_text(toy.read_text(encoding="utf-8").replace(".strip()", ".rstrip()"), "utf-8")

    assert "its artifact has not run yet" in cli("explain", "toy", code=0).stdout


def hostile_report(ledger: Path, fmt: str) -> str:
    say(ledger, HOSTILE)
    Cli(ledger)("regrade", code=1)
    path = ledger.parent / "out" / f"report.{fmt}"
    Cli(ledger)("render", "-o", str(path), code=0)
    return path.read_text(encoding="utf-8")


def parsed(html: str) -> Any:
    """An HTML page as an lxml tree (Any: lxml's xpath results are a union of everything)."""
    return lxml.html.fromstring(html)


def assert_no_active_content(doc: Any) -> None:
    assert not doc.xpath("//script[not(@type='application/ld+json')] | //img | //iframe")
    assert not doc.xpath("//strong[.='not bold']")
    assert not [href for href in doc.xpath("//a/@href") if not href.startswith(("#", "http"))]


def printed_block(doc: Any) -> str:
    said = doc.xpath("//p[.='It printed:']/following-sibling::pre[1]")
    assert len(said) == 1
    return str(said[0].text_content())


def test_the_markdown_report_shows_the_last_run_and_its_output_as_text(toy: Path) -> None:
    markdown = hostile_report(toy, "md")
    html = MarkdownIt("commonmark", {"html": True}).render(markdown)  # raw HTML let through
    doc = parsed(f"<html><body>{html}</body></html>")

    assert_no_active_content(doc)
    assert printed_block(doc).rstrip("\n") == HOSTILE.rstrip("\n")
    last = next(p.text_content() for p in doc.xpath("//p") if p.text_content().startswith("Last"))
    assert last.startswith("Last run: ran ") and "exit status 0 in " in last
    assert f"by {Path(sys.executable).name} (Python " in last  # by name: not where it lives
    assert sys.executable not in last and "it did not print what is expected" in last
    expected = doc.xpath("//p[.='and expect:']/following-sibling::pre[1]")[0].text_content()
    assert expected == "ok\n"


def test_the_html_report_shows_the_last_run_and_its_output_as_text(toy: Path) -> None:
    doc = parsed(hostile_report(toy, "html"))

    assert_no_active_content(doc)
    assert printed_block(doc) == HOSTILE + "\n"  # exactly what it printed
    last = doc.xpath("//p[@class='artifact-run']")[0].text_content()
    assert last.startswith("Last run: ran ") and f"by {Path(sys.executable).name} (" in last
    assert sys.executable not in last


def test_the_json_report_holds_the_last_run(toy: Path) -> None:
    Cli(toy)("regrade", code=0)
    path = toy.parent / "out" / "report.json"
    Cli(toy)("render", "-o", str(path), code=0)

    claim = json.loads(path.read_text(encoding="utf-8"))["sections"][0]["claims"][0]
    run = claim["artifact"]["last_run"]
    assert set(run) == {
        "ran_on", "exit_status", "error", "seconds", "runner", "matched", "output", "label",
    }  # fmt: skip
    assert (run["exit_status"], run["error"], run["matched"]) == (0, None, True)
    assert run["output"] == "ok\n"


@pytest.mark.parametrize("fmt", ["md", "html", "json", "claimreview.json"])
def test_a_grade_line_says_the_day_of_the_run_it_was_weighed_on(toy: Path, fmt: str) -> None:
    """The report said "at the last regrade: the artifact's output matches" of a run no
    regrade may have made since (not trusted since, `--no-artifacts`, files changed), which
    read as a fresh check: it says the day of that run, and that the report ran nothing."""
    Cli(toy)("regrade", code=0)
    (toy.parent / "said.txt").write_text("no\n", encoding="utf-8")  # not trusted since
    path = toy.parent / "out" / f"report.{fmt}"
    Cli(toy)("render", "-o", str(path), code=0)

    text = path.read_text(encoding="utf-8")
    ran_on = last_run(toy).ran_at.date().isoformat()
    assert "at the last regrade" not in text
    assert f"last run {ran_on}, not re-run for this report: its recorded run printed" in text


def test_a_report_before_any_run_shows_no_last_run(toy: Path) -> None:
    path = toy.parent / "out" / "report.md"
    Cli(toy)("render", "-o", str(path), code=0)

    assert "Last run" not in path.read_text(encoding="utf-8")


# --------------------------------------------------------------------------- predicted, measured


def test_a_predicted_facet_beside_a_measured_artifact_loads_regrades_and_renders(
    tmp_path: Path,
) -> None:
    ledger = write_ledger(tmp_path, PRINT_SAID, predicted=True)
    say(ledger, "ok\n")
    cli = Cli(ledger)
    facets = load(ledger).claim("toy").grades
    assert [(f.on, str(f.grade), str(f.basis)) for f in facets] == [
        ("predicted before running it", "SPECULATIVE", "judgement"),
        ("measured", "DEMONSTRATED", "artifact"),
    ]

    cli("regrade", "--write", code=0)
    say(ledger, "changed\n")
    cli("regrade", "--write", code=0)
    cli("render", code=0)

    assert grade_of(ledger, "predicted before running it") is Grade.SPECULATIVE  # a person's
    assert grade_of(ledger) is Grade.UNKNOWN  # the measurement no longer holds
    report = (ledger.parent / "out" / "report.md").read_text(encoding="utf-8")
    assert "Grade on predicted before running it: SPECULATIVE" in report
    assert "Grade on measured: UNKNOWN" in report
    assert "it did not print what is expected" in report


# --------------------------------------------------------------------------- the store


def a_run(claim_id: str, minute: int, **changes: Any) -> ArtifactRun:
    values: dict[str, Any] = {
        "claim_id": claim_id,
        "ran_at": dt.datetime(2026, 11, 29, 12, minute, tzinfo=dt.UTC),
        "command": "python3 toy.py",
        "started": True,
        "exit_status": 0,
        "matched": True,
        "output": "ok\n",
        "expected": "ok\n",
        "error": None,
        "seconds": 0.25,
        "runner": "/usr/bin/python3 (Python 3.12.1)",
    }
    return ArtifactRun(**{**values, **changes})


def test_runs_round_trip_and_the_latest_of_each_claim_wins(evidence_path: Path) -> None:
    timed_out = a_run("toy", 2, exit_status=None, matched=False, output="", error="timed out")
    other = a_run("other", 1, started=False, exit_status=None, matched=False, runner="")
    with EvidenceStore.open(evidence_path) as store:
        for run in (a_run("toy", 1), other, timed_out):
            store.record_artifact_run(run)
    with EvidenceStore.open(evidence_path, readonly=True) as store:
        assert store.latest_artifact_runs() == {"toy": timed_out, "other": other}
        with pytest.raises(ValueError, match="reading only"):
            store.record_artifact_run(a_run("toy", 3))


def test_artifact_runs_are_append_only(evidence_path: Path) -> None:
    with EvidenceStore.open(evidence_path) as store:
        store.record_artifact_run(a_run("toy", 1))
    connection = sqlite3.connect(evidence_path)
    try:
        for statement in ("UPDATE artifact_runs SET matched = 0", "DELETE FROM artifact_runs"):
            with pytest.raises(sqlite3.IntegrityError, match="append-only"):
                connection.execute(statement)
    finally:
        connection.close()


def test_a_store_of_an_older_schema_is_upgraded_and_records_runs(toy: Path) -> None:
    path = store_path(toy)
    path.parent.mkdir(parents=True)
    old = sqlite3.connect(path)
    for statements in MIGRATIONS[:4]:
        for statement in statements:
            old.execute(statement)
    old.execute("PRAGMA user_version = 4")
    old.commit()
    old.close()

    Cli(toy)("regrade", code=0)

    upgraded = sqlite3.connect(path)
    try:
        assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    finally:
        upgraded.close()
    assert len(recorded_rows(toy)) == 1
    assert last_run(toy).matched


def test_a_secret_of_the_environment_a_command_prints_is_never_kept(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A trusted command that prints its settings printed the user's token into the store
    and every report: the value of a secret-named variable is kept as REDACTED."""
    secret = "ghp_" + "x7" * 12
    monkeypatch.setenv("GITHUB_TOKEN", secret)
    monkeypatch.setenv("TEST_COLOUR", "blue-green")  # no secret by its name
    show = "import os; e = os.environ; print('ok'); print(e['GITHUB_TOKEN'], e['TEST_COLOUR'])"
    ledger = write_ledger(tmp_path / "toy", [sys.executable, "-c", show])
    cli = Cli(ledger)

    cli("regrade", code=1)  # it printed more than is expected

    assert last_run(ledger).output == "ok\nREDACTED blue-green\n"
    for fmt in ("md", "html", "json"):
        assert secret not in cli("render", "-f", fmt, "-o", "-").stdout
    assert secret.encode() not in store_path(ledger).read_bytes()


def test_a_command_killed_by_a_signal_is_said_so(tmp_path: Path) -> None:
    """A run ended by a signal (the kernel short of memory, a person) was said to have
    "exited with status -9": no program exits so; it says which signal ended it."""
    suicide = "import os, signal; print('ok', flush=True); os.kill(os.getpid(), signal.SIGKILL)"
    ledger = write_ledger(tmp_path / "toy", [sys.executable, "-c", suicide])

    Cli(ledger)("regrade", code=1)

    run = last_run(ledger)
    assert (run.exit_status, run.error) == (-9, "killed by signal 9 (SIGKILL)")


def test_a_report_never_says_a_page_was_read_on_an_artifacts_word(toy: Path) -> None:
    """A ledger with an artifact and a quote never checked: once the artifact ran, its
    report said every quote still read as it was read and every page answered."""
    text = toy.read_text(encoding="utf-8").replace(
        "sources: {}",
        'sources:\n  doc: {url: "https://docs.example.com/a", title: A, kind: docs, publisher: x}',
    )
    text += (
        "  - {id: quoted, section: s, title: Quoted, kind: guarantee, statement: S.,\n"
        '     quotes: [{text: "Words never checked.", sources: [doc]}],\n'
        "     grades: [{on: wording, grade: CLAIMED, basis: quotes}]}\n"
    )
    toy.write_text(text, encoding="utf-8")
    cli = Cli(toy)
    cli("trust")
    cli("regrade")  # the artifact ran; the quote was never checked

    report = cli("render", "-o", "-").stdout

    assert "No quote has been checked" in report
    assert "every page answers at its address" not in report


def with_a_quote_never_checked(ledger: Path) -> None:
    """Add to the toy's ledger a claim quoting a page that no refresh has read."""
    text = ledger.read_text(encoding="utf-8").replace(
        "sources: {}",
        'sources:\n  doc: {url: "https://docs.example.com/a", title: A, kind: docs, publisher: x}',
    )
    text += (
        "  - {id: quoted, section: s, title: Quoted, kind: guarantee, statement: S.,\n"
        '     quotes: [{text: "Words never checked.", sources: [doc]}],\n'
        "     grades: [{on: wording, grade: CLAIMED, basis: quotes}]}\n"
    )
    ledger.write_text(text, encoding="utf-8")
    Cli(ledger)("trust")


def rendered(cli: Cli) -> dict[str, str]:
    """The Markdown and HTML reports as text a reader reads, and the JSON report."""
    html = parsed(cli("render", "-f", "html", "-o", "-").stdout).text_content()
    return {
        "md": cli("render", "-f", "md", "-o", "-").stdout,
        "html": " ".join(html.split()),
        "json": cli("render", "-f", "json", "-o", "-").stdout,
    }


def test_a_ledger_of_artifacts_alone_is_never_told_to_refresh_once_they_ran(toy: Path) -> None:
    """A ledger that quotes nothing, its artifact run and matching: the report said "No
    quote has been checked ...: run `claimledger refresh`", which checks no artifact."""
    cli = Cli(toy)
    cli("regrade", code=0)

    texts = rendered(cli)

    for fmt in ("md", "html"):
        assert "No quote has been checked" not in texts[fmt]
        assert "every artifact that ran still prints what is expected" in texts[fmt]
        assert "every page answers at its address" not in texts[fmt]
    data = json.loads(texts["json"])
    assert (data["has_evidence"], data["quotes_checked"]) == (True, False)


def test_a_failing_artifact_is_a_finding_beside_quotes_never_checked(toy: Path) -> None:
    """The quotes were never checked and the artifact no longer printed what is expected:
    the report said only that no quote was checked, and hid the artifact's finding and
    the grade change it proposes."""
    with_a_quote_never_checked(toy)
    say(toy, "changed\n")
    cli = Cli(toy)
    cli("regrade", code=1)

    texts = rendered(cli)

    for fmt in ("md", "html"):
        assert "No quote has been checked against its page" in texts[fmt]
        assert "1 artifact that no longer prints what is expected" in texts[fmt]
        assert "1 grade change proposed" in texts[fmt]
        assert "every page answers at its address" not in texts[fmt]
        assert " verified, " not in texts[fmt]  # no quote counted as checked
    data = json.loads(texts["json"])
    assert (data["has_evidence"], data["quotes_checked"]) == (True, False)
    found = [finding["text"] for finding in data["findings"]]
    assert "artifact that no longer prints what is expected" in found


def test_an_artifact_that_could_not_start_is_a_finding_in_every_format(tmp_path: Path) -> None:
    """A program that cannot be found gives no evidence of the claim, but the JSON listed
    "artifact that no longer prints what is expected" while the Markdown and HTML said
    nothing had been checked and no artifact had run: each lists what the JSON lists."""
    ledger = write_ledger(tmp_path / "gone", ["no-such-program-anywhere"])
    cli = Cli(ledger)
    cli("regrade", code=1)

    texts = rendered(cli)

    data = json.loads(texts["json"])
    assert "artifact that no longer prints what is expected" in [
        finding["text"] for finding in data["findings"]
    ]
    for fmt in ("md", "html"):
        assert "1 artifact that no longer prints what is expected" in texts[fmt]
        assert "no artifact has run" not in texts[fmt]
        assert "; last tried " in texts[fmt] and "; last run " not in texts[fmt]  # never ran


def test_a_report_from_a_store_that_came_with_the_checkout_says_so_before_any_refresh(
    toy: Path, tmp_path: Path
) -> None:
    """A store holding artifact runs alone (no refresh ever made) came with a clone: the
    report said "Last refresh: never" and "every artifact that ran still prints what is
    expected" as its own finding, and only stderr said whose word that was."""
    import shutil

    Cli(toy)("regrade", code=0)
    clone = tmp_path / "clone"
    shutil.copytree(toy.parent, clone)

    texts = rendered(Cli(clone / toy.name))

    for fmt in ("md", "html"):
        assert "the evidence store came with the checkout" in texts[fmt]


def test_a_grade_line_weighs_no_run_a_checkouts_store_records(toy: Path, tmp_path: Path) -> None:
    """A clone's store is its word: the rules weigh none of its runs, and the grade line
    said "last run DATE, not re-run for this report: no recorded run of the artifact yet"
    beside the run it showed."""
    import shutil

    (toy.parent / "said.txt").write_text("no\n", encoding="utf-8")
    Cli(toy)("trust")
    Cli(toy)("regrade", code=1)  # a run that printed other than expected, recorded
    clone = tmp_path / "clone"
    shutil.copytree(toy.parent, clone)

    text = rendered(Cli(clone / toy.name))["md"]

    assert "not re-run for this report" not in text
    assert "checked by re-running its artifact; no run of the artifact made here yet" in text


def test_only_what_a_name_calls_a_secret_is_masked_and_no_piece_of_one_is_kept() -> None:
    """`auth` inside GIT_AUTHOR_EMAIL or XAUTHORITY masked an author's address and falsified
    the output kept; a token cut at the output's cap kept its first characters; a password
    in an address printed was kept."""
    from claimledger.grading.artifact import masked

    environment = {
        "GIT_AUTHOR_EMAIL": "jane@example.org",
        "XAUTHORITY": "/run/user/1000/xauth",
        "SSH_AUTH_SOCK": "/tmp/ssh-agent.sock",
        "AWS_SECRET_ACCESS_KEY": "wJalrXUtnFEMI/K7MDENG",
        "OPENAI_API_KEY": "sk-0123456789abcdef",
        "PGPASSWORD": "correct-horse",
        "REDISCLI_AUTH": "redis-s3cret",
        "githubToken": "ghp_zyxwvutsrq",
    }
    printed = "author jane@example.org /run/user/1000/xauth /tmp/ssh-agent.sock\n"
    printed += "keys sk-0123456789abcdef correct-horse redis-s3cret ghp_zyxwvutsrq\n"
    printed += "FROM python:3.12-slim@sha256:0a1b email:jane@example.org ssh://git@example.org/r\n"
    printed += "db postgres://app:hunter22@db.example/app\ncut at wJalrXUt"

    kept = masked(printed, environment, cut=True)

    assert kept == (
        "author jane@example.org /run/user/1000/xauth /tmp/ssh-agent.sock\n"
        "keys REDACTED REDACTED REDACTED REDACTED\n"
        "FROM python:3.12-slim@sha256:0a1b email:jane@example.org ssh://git@example.org/r\n"
        "db postgres://app:REDACTED@db.example/app\ncut at REDACTED"
    )
    assert masked("ends wJalrXUt", environment) == "ends wJalrXUt"  # not cut: its own words
