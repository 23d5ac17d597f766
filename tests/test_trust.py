"""Consent before code: a ledger's artifact commands run only once the user trusted them,
exactly as they are; a changed command, or a changed file it names, needs trust again.

Each command is a real program that leaves a mark when it runs; the ledger is a real
file, as a cloned teardown would bring it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import Cli

MARK = [sys.executable, "-c", "open('ran', 'a').write('x'); print('ok')"]
"""A command that leaves a mark beside the ledger each time it runs, and prints ok."""


def cloned(directory: Path, run: list[str] | str = MARK, *, shell: bool = False) -> Path:
    """A teardown as somebody else wrote it: one artifact claim, `toy`, nobody trusted."""
    artifact = json.dumps({"run": run, "expect": "ok\n", "shell": shell})
    text = (
        "ledger: 1\ntitle: T\ndate_read: 2026-08-23\nsections: [{id: s, title: S}]\n"
        "sources: {}\nclaims:\n"
        "  - id: toy\n    section: s\n    title: A toy\n    kind: artifact\n"
        f"    statement: The toy prints ok.\n    artifact: {artifact}\n"
        "    grades:\n      - {on: measured, grade: DEMONSTRATED, basis: artifact}\n"
    )
    directory.mkdir(parents=True, exist_ok=True)
    ledger = directory / "claims.yaml"
    ledger.write_text(text, encoding="utf-8")
    return ledger


def runs(ledger: Path) -> int:
    mark = ledger.parent / "ran"
    return len(mark.read_text()) if mark.exists() else 0


def skipped_lines(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if "artifact of toy not run" in line]


def test_a_cloned_ledger_runs_nothing_until_trusted_and_says_what_it_skipped(
    tmp_path: Path,
) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)

    for args, code in ((("regrade",), 0), (("regrade", "--check"), 1), (("regrade", "--write"), 0)):
        result = cli(*args, code=code)
        (line,) = skipped_lines(result.stderr)
        assert "you have not trusted its command" in line and "claimledger trust toy" in line
    assert runs(ledger) == 0

    trusted = cli("trust")
    assert trusted.stdout.startswith("trusted: toy: ")
    result = cli("regrade", "--check", code=0)
    assert skipped_lines(result.stderr) == []
    assert runs(ledger) == 1


def test_a_changed_command_needs_trust_again(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)
    cli("trust")
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(text.replace("print('ok')", "print('ok') or 1"), encoding="utf-8")

    (line,) = skipped_lines(cli("regrade", "--check", code=1).stderr)
    assert "changed since you trusted it" in line
    assert runs(ledger) == 0
    assert cli("trust", "--list").stdout.startswith("changed: toy: ")


def test_a_changed_file_that_the_command_names_needs_trust_again(tmp_path: Path) -> None:
    """Trusting `python3 toy.py` is trusting toy.py as it was read: a pull that changes it
    must not run the new program unasked."""
    (tmp_path / "toy.py").write_text("open('ran', 'a').write('x'); print('ok')\n")
    ledger = cloned(tmp_path, [sys.executable, "toy.py"])
    cli = Cli(ledger)
    cli("trust", "toy")
    cli("regrade", "--check", code=0)
    assert runs(ledger) == 1

    (tmp_path / "toy.py").write_text("open('ran', 'a').write('evil'); print('ok')\n")
    (line,) = skipped_lines(cli("regrade", code=0).stderr)
    assert "or a file it names, changed" in line
    assert runs(ledger) == 1


def test_allow_artifacts_runs_once_and_records_no_trust(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)
    cli("regrade", "--allow-artifacts", "--check", code=0)
    assert runs(ledger) == 1
    assert cli("trust", "--list").stdout.startswith("untrusted: toy: ")
    cli("regrade", "--check", code=1)
    assert runs(ledger) == 1


def test_no_artifacts_skips_without_a_word(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    result = Cli(ledger)("regrade", "--no-artifacts", code=0)
    assert skipped_lines(result.stderr) == []
    assert runs(ledger) == 0


def test_trust_is_for_this_ledger_only(tmp_path: Path) -> None:
    """The same text in another checkout is another workspace: trust does not travel."""
    ledger = cloned(tmp_path / "mine")
    Cli(ledger)("trust")
    other = tmp_path / "theirs"
    shutil.copytree(ledger.parent, other)
    Cli(other / "claims.yaml")("regrade", "--check", code=1)
    assert runs(other / "claims.yaml") == 0


def test_list_shows_the_commands_and_changes_nothing(tmp_path: Path) -> None:
    ledger = cloned(tmp_path, "echo ok; touch ran", shell=True)
    cli = Cli(ledger)
    listed = cli.json("trust", "--list")
    shown = {"claim_id": "toy", "command": "echo ok; touch ran", "consent": "untrusted"}
    assert listed["artifacts"] == [shown]
    cli("regrade", "--check", code=1)
    assert not (tmp_path / "ran").exists()


def test_revoke_withdraws_the_trust(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)
    cli("trust")
    assert cli("trust", "--revoke").stdout == "no longer trusted: toy\n"
    cli("regrade", "--check", code=1)
    assert runs(ledger) == 0
    assert "nothing to revoke" in cli("trust", "--revoke").stdout


def test_a_claim_without_an_artifact_cannot_be_trusted(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    result = Cli(ledger)("trust", "nope", code=2)
    assert "nope" in result.stderr


def test_trust_lives_in_the_users_config_and_a_damaged_file_trusts_nothing(
    tmp_path: Path,
) -> None:
    ledger = cloned(tmp_path / "ws")
    cli = Cli(ledger)
    cli("trust")
    kept = Path(os.environ["XDG_CONFIG_HOME"]) / "claimledger" / "trusted.json"
    assert str(ledger.resolve()) in json.loads(kept.read_text())
    assert sorted(path.name for path in ledger.parent.iterdir()) == ["claims.yaml"]

    kept.write_text("{not json", encoding="utf-8")
    cli("regrade", "--check", code=1)
    assert runs(ledger) == 0
    cli("trust")
    cli("regrade", "--check", code=0)
    assert runs(ledger) == 1


def test_a_config_directory_others_may_write_to_is_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ledger = cloned(tmp_path / "ws")
    cli = Cli(ledger)
    cli("trust")
    (tmp_path / "config" / "claimledger").chmod(0o777)
    cli("regrade", "--check", code=1)
    assert runs(ledger) == 0
    assert "no private config directory" in cli("trust", code=2).stderr


def test_a_real_process_with_a_cloned_ledger_runs_nothing(tmp_path: Path) -> None:
    ledger = cloned(tmp_path / "ws")
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "regrade", "--check"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 1, done.stderr
    assert len(skipped_lines(done.stderr)) == 1
    assert runs(ledger) == 0
