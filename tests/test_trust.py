"""Consent before code: a ledger's artifact commands run only once the user trusted them,
exactly as they are; a changed command, or a changed file of the ledger's directory,
needs trust again.

Each command is a real program that leaves a mark when it runs; the ledger is a real
file, as a cloned teardown would bring it.
"""

from __future__ import annotations

import hashlib
import json
import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from cli_runner import Cli, claimledger
from evidence_site import serve_v1, write_ledger
from webserver import PageServer

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

    for args, code in ((("regrade",), 0), (("regrade", "--check"), 3), (("regrade", "--write"), 0)):
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

    (line,) = skipped_lines(cli("regrade", "--check", code=3).stderr)
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
    assert "or a file of the ledger's directory, changed" in line
    assert runs(ledger) == 1


TOY = "open({marks!r}, 'a').write({mark!r}); print('ok')\n"
"""A program that leaves `mark` in `marks`, outside the ledger's directory (a mark
beside the ledger would be a change of its own), and prints ok."""

MAKEFILE = "all:\n\t@{python} -c {program}\n"


def make_runs(clone: Path, mark: str) -> None:
    """A Makefile whose default target runs the toy program, `make` never naming it."""
    program = shlex.quote(TOY.format(marks=str(clone.parent / "ran"), mark=mark).strip())
    makefile = MAKEFILE.format(python=shlex.quote(sys.executable), program=program)
    (clone / "Makefile").write_text(makefile, encoding="utf-8")


PYTHON = shlex.quote(sys.executable)

HIDDEN_PROGRAMS: dict[str, tuple[list[str] | str, bool, str]] = {
    "a shell word holding the file": (f"{PYTHON} toy.py|cat", True, "toy.py"),
    "a file the shell opens": (f"{PYTHON} <toy.py", True, "toy.py"),
    "a package folder": ([sys.executable, "toy"], False, "toy/__main__.py"),
    "a Makefile never named": (["make", "-s"], False, "Makefile"),
}
"""Commands whose program is a file of the ledger's directory that no word of theirs is:
the command, whether a shell runs it, and the program's file."""


@pytest.mark.parametrize("case", list(HIDDEN_PROGRAMS))
def test_a_changed_program_the_command_does_not_name_needs_trust_again(
    case: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Which files a command reads cannot be told from its words: trusting it is trusting
    the ledger's directory as it was read, and a pull that changes the program there must
    not run it unasked; a run that wrote nothing there leaves the consent as it was."""
    monkeypatch.delenv("PYTHONDONTWRITEBYTECODE", raising=False)  # a run writes none there
    run, shell, program = HIDDEN_PROGRAMS[case]
    clone, marks = tmp_path / "clone", tmp_path / "ran"
    ledger = cloned(clone, run, shell=shell)
    write_program(clone, program, "x")
    cli = Cli(ledger)
    cli("trust")
    cli("regrade", "--check", code=0)
    assert cli("trust", "--list").stdout.startswith("trusted: toy: ")

    write_program(clone, program, "evil")
    (line,) = skipped_lines(cli("regrade", code=0).stderr)
    assert "changed since you trusted it" in line
    assert cli("trust", "--list").stdout.startswith("changed: toy: ")
    assert marks.read_text() == "x"


def test_what_a_trusted_run_writes_beside_the_ledger_is_its_own(tmp_path: Path) -> None:
    """A build's output or a cache a trusted program leaves in the ledger's directory is
    its own doing: it keeps its consent (renewed on the directory as it left it), while a
    change from elsewhere after it still needs the user's word."""
    build = "open('build.txt', 'a').write('x'); print('ok')"
    ledger = cloned(tmp_path / "clone", [sys.executable, "-c", build])
    cli = Cli(ledger)
    cli("trust")

    cli("regrade", "--check", code=0)
    cli("regrade", "--check", code=0)

    assert (ledger.parent / "build.txt").read_text() == "xx"  # it ran both times
    assert cli("trust", "--list").stdout.startswith("trusted: toy: ")
    (ledger.parent / "helper.py").write_text("print('pulled')\n", encoding="utf-8")
    assert cli("trust", "--list").stdout.startswith("changed: toy: ")


@pytest.mark.parametrize("program", ["out/tool.py", ".claims.yaml.x.tmp"])
def test_a_program_the_command_names_among_claimledgers_own_files_is_covered(
    program: str, tmp_path: Path
) -> None:
    """The directory's digest leaves out claimledger's outputs and the ledger's
    temporaries, which change as it is used; a file there that the command names is
    still the program the user trusted."""
    clone, marks = tmp_path / "clone", tmp_path / "ran"
    ledger = cloned(clone, [sys.executable, program])
    (clone / program).parent.mkdir(parents=True, exist_ok=True)
    (clone / program).write_text(TOY.format(marks=str(marks), mark="x"), encoding="utf-8")
    cli = Cli(ledger)
    cli("trust")
    cli("regrade", "--check", code=0)

    (clone / program).write_text(TOY.format(marks=str(marks), mark="evil"), encoding="utf-8")

    assert cli("trust", "--list").stdout.startswith("changed: toy: ")
    cli("regrade", code=0)
    assert marks.read_text() == "x"


@pytest.mark.parametrize("shell", [False, True])
@pytest.mark.parametrize("between", [" ", "<"], ids=["argument", "redirect"])
def test_a_program_named_in_a_line_a_shell_runs_is_covered(
    shell: bool, between: str, tmp_path: Path
) -> None:
    """`sh -c 'python3 out/tool.py'` (or `python3<out/tool.py`, with no space): the file
    is named inside one word of the command, and out/ is left out of the directory's
    digest, so a pull that changed the program there ran it on the consent given to the
    one the user read."""
    clone, marks = tmp_path / "clone", tmp_path / "ran"
    line = f"{shlex.quote(sys.executable)}{between}out/tool.py"
    run: list[str] | str = f"sh -c {shlex.quote(line)}" if shell else ["sh", "-c", line]
    ledger = cloned(clone, run, shell=shell)
    (clone / "out").mkdir()
    (clone / "out" / "tool.py").write_text(TOY.format(marks=str(marks), mark="x"), "utf-8")
    cli = Cli(ledger)
    cli("trust")
    cli("regrade", "--check", code=0)

    (clone / "out" / "tool.py").write_text(TOY.format(marks=str(marks), mark="evil"), "utf-8")

    assert cli("trust", "--list").stdout.startswith("changed: toy: ")
    cli("regrade", code=0)
    assert marks.read_text() == "x"


@pytest.mark.parametrize("named", ["../tools/toy.py", "toy.py"])
def test_a_program_the_command_names_outside_the_ledgers_folder_is_covered(
    named: str, tmp_path: Path
) -> None:
    """A ledger in a subfolder of a repository may run `python3 ../tools/toy.py`, or a
    link beside it to that file: a pull that changes the program there must not run it
    unasked, though it lies outside the ledger's folder."""
    clone, marks = tmp_path / "clone", tmp_path / "ran"
    ledger = cloned(clone / "teardown", [sys.executable, named])
    program = clone / "tools" / "toy.py"
    program.parent.mkdir()
    program.write_text(TOY.format(marks=str(marks), mark="x"), encoding="utf-8")
    if named == "toy.py":
        (ledger.parent / named).symlink_to("../tools/toy.py")
    cli = Cli(ledger)
    cli("trust")
    cli("regrade", "--check", code=0)

    program.write_text(TOY.format(marks=str(marks), mark="evil"), encoding="utf-8")

    assert cli("trust", "--list").stdout.startswith("changed: toy: ")
    cli("regrade", code=0)
    assert marks.read_text() == "x"


def test_an_editors_backup_of_the_ledger_leaves_the_consent(tmp_path: Path) -> None:
    ledger = cloned(tmp_path / "clone", [sys.executable, "-c", "print('ok')"])
    cli = Cli(ledger)
    cli("trust")
    for name in ("claims.yaml~", ".claims.yaml.swp", "#claims.yaml#", ".#claims.yaml"):
        (ledger.parent / name).write_text("being edited\n", encoding="utf-8")

    assert cli("trust", "--list").stdout.startswith("trusted: toy: ")


def write_program(clone: Path, program: str, mark: str) -> None:
    """The toy program at `program` in the clone, leaving `mark` when it runs."""
    if program == "Makefile":
        make_runs(clone, mark)
        return
    path = clone / program
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(TOY.format(marks=str(clone.parent / "ran"), mark=mark), encoding="utf-8")


def test_what_claimledger_and_git_write_beside_the_ledger_leaves_the_consent(
    tmp_path: Path,
) -> None:
    """A refresh's evidence store, a rendered report, the ledger written back with its lock
    and a commit are claimledger's and git's own, and change no consent; the same report
    copied anywhere else in the ledger's directory is a file a command could read."""
    ledger = cloned(tmp_path / "clone", [sys.executable, "-c", "print('ok')"])
    cli = Cli(ledger)
    cli("trust")
    cli("refresh", code=0)
    cli("regrade", "--write", code=0)
    cli("render", code=0)
    git = ["git", "-c", "user.name=A", "-c", "user.email=a@a.test", "-C", str(ledger.parent)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "add", "-A"], check=True)
    subprocess.run([*git, "commit", "-qm", "teardown"], check=True)
    assert {p.name for p in (ledger.parent / "out").iterdir()} >= {"evidence.sqlite3", "report.md"}
    assert cli("trust", "--list").stdout.startswith("trusted: toy: ")
    assert skipped_lines(cli("regrade", "--check", code=0).stderr) == []

    shutil.copy(ledger.parent / "out" / "report.md", ledger.parent / "report.md")
    assert cli("trust", "--list").stdout.startswith("changed: toy: ")


def test_a_link_counts_by_what_it_holds_and_nothing_is_waited_on(tmp_path: Path) -> None:
    """A link beside the ledger is read as its text, never followed (to /dev/zero it would
    never end), and a FIFO is never opened: consent is given at once, and a link that
    points elsewhere afterwards is a change."""
    ledger = cloned(tmp_path / "clone", [sys.executable, "-c", "print('ok')"])
    (ledger.parent / "zero").symlink_to("/dev/zero")
    os.mkfifo(ledger.parent / "pipe")
    cli = Cli(ledger)
    cli("trust")
    assert cli("trust", "--list").stdout.startswith("trusted: toy: ")

    (ledger.parent / "zero").unlink()
    (ledger.parent / "zero").symlink_to("/dev/null")
    assert cli("trust", "--list").stdout.startswith("changed: toy: ")


def test_allow_artifacts_runs_once_and_records_no_trust(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)
    cli("regrade", "--allow-artifacts", "--check", code=0)
    assert runs(ledger) == 1
    assert cli("trust", "--list").stdout.startswith("untrusted: toy: ")
    cli("regrade", "--check", code=3)
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
    Cli(other / "claims.yaml")("regrade", "--check", code=3)
    assert runs(other / "claims.yaml") == 0


def test_a_ledger_linked_from_another_folder_is_another_workspace(tmp_path: Path) -> None:
    """A clone whose claims.yaml links to a ledger the user trusted runs nothing: its own
    files sit beside the link, where the commands would run."""
    ledger = cloned(tmp_path / "mine")
    Cli(ledger)("trust")
    clone = tmp_path / "theirs"
    clone.mkdir()
    (clone / "claims.yaml").symlink_to(ledger)
    Cli(clone / "claims.yaml")("regrade", "--check", code=3)
    assert runs(ledger) == 0 and runs(clone / "claims.yaml") == 0


def test_a_module_dropped_beside_a_trusted_ledger_is_never_imported(tmp_path: Path) -> None:
    """The user trusted `python -c 'import json ...'`, not a json.py a pull put beside it."""
    command = [sys.executable, "-c", "import json; print(json.dumps('ok').strip(chr(34)))"]
    ledger = cloned(tmp_path, command)
    cli = Cli(ledger)
    cli("trust")
    (tmp_path / "json.py").write_text("open('ran', 'a').write('x')\nraise SystemExit(1)\n")
    cli("trust")  # the user read the command, not every module a pull brought
    cli("regrade", "--check", code=0)  # the real json ran, and printed ok
    assert runs(ledger) == 0


def test_list_shows_the_commands_and_changes_nothing(tmp_path: Path) -> None:
    ledger = cloned(tmp_path, "echo ok; touch ran", shell=True)
    cli = Cli(ledger)
    listed = cli.json("trust", "--list")
    shown = {"claim_id": "toy", "command": "echo ok; touch ran", "consent": "untrusted"}
    assert listed["artifacts"] == [shown]
    cli("regrade", "--check", code=3)
    assert not (tmp_path / "ran").exists()


def test_revoke_withdraws_the_trust(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    cli = Cli(ledger)
    cli("trust")
    assert cli("trust", "--revoke").stdout == "no longer trusted: toy\n"
    cli("regrade", "--check", code=3)
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
    cli("regrade", "--check", code=3)
    assert runs(ledger) == 0
    cli("trust")
    cli("regrade", "--check", code=0)
    assert runs(ledger) == 1


def test_consent_an_older_claimledger_kept_is_asked_again_and_never_called_a_change(
    tmp_path: Path,
) -> None:
    """Consent kept by a claimledger before the present form (its fingerprint of the
    command, its shell and the ledger's directory alone), nothing changed since: it was
    said to have changed, which sent the user looking for a change nobody made."""
    import hashlib

    from claimledger.workspace.trust import directory_digest

    ledger = cloned(tmp_path / "ws")
    cli = Cli(ledger)
    cli("trust")
    kept = Path(os.environ["XDG_CONFIG_HOME"]) / "claimledger" / "trusted.json"
    data = json.loads(kept.read_text())
    (workspace,) = data.values()
    older = {"run": MARK, "shell": False, "directory": directory_digest(ledger)}
    workspace["artifacts"]["toy"] = hashlib.sha256(
        json.dumps(older, sort_keys=True).encode()
    ).hexdigest()
    kept.write_text(json.dumps(data), encoding="utf-8")

    assert cli.json("trust", "--list")["artifacts"][0]["consent"] == "older"
    (line,) = skipped_lines(cli("regrade", "--check", code=3).stderr)
    assert "changed" not in line and "you trusted it with an older claimledger" in line
    assert runs(ledger) == 0
    cli("trust")
    cli("regrade", "--check", code=0)
    assert runs(ledger) == 1
    edited = ledger.read_text(encoding="utf-8").replace("print('ok')", "print('ok') or 1")
    ledger.write_text(edited, encoding="utf-8")
    assert cli.json("trust", "--list")["artifacts"][0]["consent"] == "changed"


def test_a_config_directory_others_may_write_to_is_not_believed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "config"))
    ledger = cloned(tmp_path / "ws")
    cli = Cli(ledger)
    cli("trust")
    (tmp_path / "config" / "claimledger").chmod(0o777)
    cli("regrade", "--check", code=3)
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
    assert done.returncode == 3, done.stderr
    assert len(skipped_lines(done.stderr)) == 1
    assert runs(ledger) == 0


# --------------------------------------------------------------------------- settings that widen


def mirrored(tmp_path: Path, server: PageServer) -> Path:
    """A cloned ledger naming public pages, whose claimledger.toml maps them to a local
    mirror on a private address and allows private addresses for itself."""
    ledger = write_ledger(tmp_path, server)
    public = "https://docs.example.test"
    ledger.write_text(ledger.read_text("utf-8").replace(server.url(""), public), "utf-8")
    (ledger.parent / "claimledger.toml").write_text(
        f'map = {{ "{public}/" = "{server.url("/")}" }}\nallow_private = true\n',
        encoding="utf-8",
    )
    return ledger


def test_a_cloned_workspace_cannot_widen_what_is_fetched_until_trusted(
    tmp_path: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    ledger = mirrored(tmp_path, page_server)
    cli = Cli(ledger)
    untrusted = cli("refresh", "--no-as-read", "--timeout", "1", code=1)
    assert "this workspace is not trusted, so not honoured: claimledger.toml: map" in (
        untrusted.stderr
    )
    assert "allow_private = true" in untrusted.stderr
    assert page_server.page_requests == []  # neither the map nor private addresses honoured

    listed = cli.json("trust", "--list")
    assert listed["settings"]["consent"] == "untrusted"
    assert any("allow_private = true" in ask for ask in listed["settings"]["asks"])
    cli("trust")
    trusted = cli("refresh", "--no-as-read", code=0)
    assert "not honoured" not in trusted.stderr
    assert {request.path for request in page_server.page_requests} >= {"/guide", "/other"}


def test_an_ask_holding_a_line_break_is_said_on_its_line(tmp_path: Path) -> None:
    """A cloned settings file's map value with a line break in it is one ask, its break
    written as an escape: the note under a command and `trust --list` keep one ask a
    line, so what is asked is never hidden among the lines below it."""
    ledger = cloned(tmp_path)
    settings = 'map = {"https://a.test/" = "https://b.test/\\r\\nallow_private = true"}\n'
    (ledger.parent / "claimledger.toml").write_text(settings, encoding="utf-8")

    notes = Cli(ledger)("refresh").stderr.splitlines()
    listed = Cli(ledger).json("trust", "--list")["settings"]["asks"]

    ask = "claimledger.toml: map https://a.test/=https://b.test/\\r\\nallow_private = true"
    assert listed == [ask]
    (note,) = [line for line in notes if "allow_private" in line]
    assert note.startswith(
        f"claimledger: note: this workspace is not trusted, so not honoured: {ask} ("
    )


def test_a_setting_changed_after_trust_is_not_honoured(
    tmp_path: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    ledger = mirrored(tmp_path, page_server)
    cli = Cli(ledger)
    cli("trust")
    settings = ledger.parent / "claimledger.toml"
    settings.write_text(settings.read_text("utf-8") + 'archive = "http://127.0.0.1:9/"\n')
    result = cli("refresh", "--no-as-read", "--timeout", "1", code=1)
    assert "this workspace is changed since you trusted it" in result.stderr
    assert page_server.page_requests == []


def test_a_header_value_changed_after_trust_needs_consent_again(tmp_path: Path) -> None:
    """Consent to a settings file's header is to its value too: a pull that changes the
    token sent is asked again. The value itself is never shown, a short digest of it is."""
    ledger = cloned(tmp_path)
    settings = ledger.parent / "claimledger.toml"
    settings.write_text('headers = { "Authorization" = "Bearer first-secret" }\n', "utf-8")
    cli = Cli(ledger)
    cli("trust")
    assert cli.json("trust", "--list")["settings"]["consent"] == "trusted"

    settings.write_text('headers = { "Authorization" = "Bearer second-secret" }\n', "utf-8")
    listed = cli.json("trust", "--list")["settings"]
    assert listed["consent"] == "changed"
    (ask,) = listed["asks"]
    assert ask.startswith("claimledger.toml: header Authorization (value ")
    said = cli("trust", "--list").stdout + cli("refresh").stderr
    assert "header Authorization (value " in said and "secret" not in said


def test_a_secrets_fingerprint_is_keyed_by_the_user_and_cannot_be_searched_offline(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The fingerprint printed of a header's value was its bare SHA-256: from a CI log, a
    short password could be found by trying them all. It is keyed by a key of the user's
    own, kept for them alone: the same for them on every run, another for another user."""
    ledger = cloned(tmp_path)
    value = "Bearer hunter2"
    settings = ledger.parent / "claimledger.toml"
    settings.write_text(f'headers = {{ "Authorization" = "{value}" }}\n', "utf-8")
    bare = hashlib.sha256(value.encode()).hexdigest()[:12]

    def shown(config: Path) -> str:
        monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
        (ask,) = Cli(ledger).json("trust", "--list")["settings"]["asks"]
        return str(ask)

    first, again, other = shown(tmp_path / "a"), shown(tmp_path / "a"), shown(tmp_path / "b")

    assert first == again and first != other
    assert first.startswith("claimledger.toml: header Authorization (value ")
    assert bare not in first + other
    key = tmp_path / "a" / "claimledger" / "digest.key"
    assert key.stat().st_mode & 0o777 == 0o600 and len(key.read_bytes()) == 32


def test_a_checkouts_larger_history_budgets_are_honoured_only_once_trusted(
    tmp_path: Path,
) -> None:
    """A cloned settings file could let a refresh clone 100 GB of a repository, or spend an
    hour in git, without a word: budgets above the defaults are asked; smaller ones are not."""
    from claimledger.services.settings import workspace

    ledger = cloned(tmp_path)
    settings = ledger.parent / "claimledger.toml"
    settings.write_text("history_clone_mb = 50000\nhistory_budget = 900\n", "utf-8")
    cli = Cli(ledger)
    said: list[str] = []

    asks = cli.json("trust", "--list")["settings"]["asks"]
    untrusted = workspace(ledger, None, said.append).config

    assert asks == [
        "claimledger.toml: history_budget = 900",
        "claimledger.toml: history_clone_mb = 50000",
    ]
    assert (untrusted.history_budget, untrusted.history_clone_mb) == (None, None)
    (note,) = said
    assert "not honoured: claimledger.toml: history_budget = 900; claimledger.toml: " in note
    cli("trust")
    trusted = workspace(ledger, None, said.append).config
    assert (trusted.history_budget, trusted.history_clone_mb) == (900, 50000)
    settings.write_text("history_clone_mb = 100\nhistory_budget = 5\n", "utf-8")
    assert cli.json("trust", "--list")["settings"]["asks"] == []


def test_consent_kept_in_the_form_before_holds_where_its_asks_read_the_same(
    tmp_path: Path,
) -> None:
    """Consent kept before a secret's fingerprint was keyed: the settings whose asks read
    otherwise now (a header's fingerprint) are older, asked again, never "changed"; an
    artifact's consent, whose form did not change, holds."""
    ledger = cloned(tmp_path)
    (ledger.parent / "claimledger.toml").write_text('headers = { "X-Token" = "abc" }\n', "utf-8")
    cli = Cli(ledger)
    cli("trust")
    kept = Path(os.environ["XDG_CONFIG_HOME"]) / "claimledger" / "trusted.json"
    data = json.loads(kept.read_text())
    (workspace,) = data.values()
    workspace["artifacts"] = {c: "2:" + f[2:] for c, f in workspace["artifacts"].items()}
    workspace["settings"] = "2:" + "0" * 64  # the asks' digest with a bare fingerprint
    kept.write_text(json.dumps(data), encoding="utf-8")

    listed = cli.json("trust", "--list")

    assert listed["settings"]["consent"] == "older"
    assert [a["consent"] for a in listed["artifacts"]] == ["trusted"]


def test_a_key_cut_short_or_no_file_is_made_again_and_consent_then_holds(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A key cut short (an empty file after a power cut) gave each run a key of its own:
    a header's consent never held again. A FIFO there made every command wait for ever."""
    ledger = cloned(tmp_path)
    (ledger.parent / "claimledger.toml").write_text('headers = { "X-Token" = "abc" }\n', "utf-8")
    for planted in ("empty", "fifo"):
        config = tmp_path / planted
        monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
        key = config / "claimledger" / "digest.key"
        key.parent.mkdir(parents=True, mode=0o700)
        key.write_bytes(b"") if planted == "empty" else os.mkfifo(key)
        cli = Cli(ledger)

        cli("trust")

        assert cli.json("trust", "--list")["settings"]["consent"] == "trusted"
        assert key.is_file() and len(key.read_bytes()) == 32


def test_a_mirrors_password_in_a_map_is_never_shown_and_its_change_is_asked(
    tmp_path: Path,
) -> None:
    """A map's mirror with `user:pass@` was shown whole by `trust --list` (the rule as a
    whole is no address to redact), and a pull that changed the password or a token of
    the mirror or the archive kept the consent given for the old one."""
    ledger = cloned(tmp_path)
    settings = ledger.parent / "claimledger.toml"
    mirror = "https://docs.example.com/=https://bob:first-secret@mirror.example.net/"
    settings.write_text(f'map = ["{mirror}"]\narchive = "https://a:b-secret@arc.example.net/"\n')
    cli = Cli(ledger)
    said = cli("trust", "--list").stdout + json.dumps(cli.json("trust", "--list"))
    assert "secret" not in said and "mirror.example.net/ (value " in said
    cli("trust")
    assert cli.json("trust", "--list")["settings"]["consent"] == "trusted"

    settings.write_text(settings.read_text("utf-8").replace("first-secret", "other-secret"))
    assert cli.json("trust", "--list")["settings"]["consent"] == "changed"


def test_a_source_marked_allow_private_is_fetched_only_once_trusted(
    tmp_path: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(
        "kind: docs, publisher: p}", "kind: docs, publisher: p, allow_private: true}"
    )
    ledger.write_text(text, "utf-8")
    cli = Cli(ledger)
    result = cli.json("refresh", "--no-as-read", code=1)
    guide = page_server.url("/guide")
    assert f"claims.yaml: source guide ({guide}): allow_private" in cli("trust", "--list").stdout
    secret = text.replace("/guide", "/guide?token=s3cr3t")
    ledger.write_text(secret, "utf-8")
    assert "s3cr3t" not in cli("trust", "--list").stdout + cli("status", code=1).stderr
    ledger.write_text(text, "utf-8")
    assert {s["source_status"] for s in result["sources"]} == {"refused"}
    assert page_server.page_requests == []
    cli("trust")
    cli("refresh", "--no-as-read", code=0)  # its origin, which the others share, is allowed
    assert {request.path for request in page_server.page_requests} >= {"/guide", "/other"}
    # the consent was to that address: the same source pointed elsewhere asks again
    ledger.write_text(ledger.read_text("utf-8").replace("/guide", "/admin"), "utf-8")
    assert "changed: settings" in cli("trust", "--list").stdout
    before = len(page_server.page_requests)
    cli("refresh", "--no-as-read", code=1)
    assert "/admin" not in {r.path for r in page_server.page_requests[before:]}


def test_a_cloned_workspaces_templates_are_used_only_once_trusted(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger = write_ledger(tmp_path, page_server)
    (ledger.parent / "templates").mkdir()
    (ledger.parent / "templates" / "report.md.j2").write_text("THEIRS {{ report.title }}\n")
    cli = Cli(ledger)
    untrusted = cli("render", "-o", "-")
    assert "THEIRS" not in untrusted.stdout
    assert "not honoured: templates/: report templates" in untrusted.stderr
    cli("trust")
    assert cli("render", "-o", "-").stdout.startswith("THEIRS ")
    # a template edited since (a pull) is not the one allowed
    (ledger.parent / "templates" / "report.md.j2").write_text("LIES {{ report.title }}\n")
    edited = cli("render", "-o", "-")
    assert "LIES" not in edited.stdout and "not honoured" in edited.stderr


def test_the_templates_init_writes_are_the_users_own(tmp_path: Path) -> None:
    claimledger("init", str(tmp_path / "mine"), "--author", "Me")
    result = claimledger("--ledger", str(tmp_path / "mine" / "claims.yaml"), "render", "-o", "-")
    assert "not honoured" not in result.stderr


# --------------------------------------------------------------------------- ownership

AS_ROOT = pytest.mark.skipif(os.getuid() != 0, reason="giving a folder away takes root")
OTHER_USER = 4242


@AS_ROOT
def test_a_ledger_in_a_parent_folder_another_user_owns_is_refused(tmp_path: Path) -> None:
    """git's safe.directory, for ledgers: a claims.yaml planted above the working folder
    (in /tmp, say) is not used, and its commands do not run as the caller."""
    shared = tmp_path / "shared"
    ledger = cloned(shared)
    below = shared / "work" / "mine"
    below.mkdir(parents=True)
    os.chown(shared, OTHER_USER, OTHER_USER)
    os.chown(ledger, OTHER_USER, OTHER_USER)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "claimledger", *args],
            cwd=below,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
            stdin=subprocess.DEVNULL,
        )

    for args in (("check",), ("regrade", "--allow-artifacts")):
        done = run(*args)
        assert done.returncode == 2, done.stderr
        (line,) = done.stderr.splitlines()
        assert f"owned by another user (uid {OTHER_USER}), so not used" in line
        assert "claimledger --ledger" in line and line.endswith("trust`")
    assert runs(ledger) == 0

    assert run("trust").returncode == 0  # the user read it and says so
    assert run("check").returncode == 0
    listed = Cli(ledger).json("trust", "--list")
    assert listed["foreign_owner"] == OTHER_USER


@AS_ROOT
def test_a_settings_file_another_user_owns_is_refused(tmp_path: Path) -> None:
    ledger = cloned(tmp_path)
    settings = tmp_path / "claimledger.toml"
    settings.write_text("allow_private = true\n")
    os.chown(settings, OTHER_USER, OTHER_USER)
    result = Cli(ledger)("verify", "http://127.0.0.1:9/", "q", code=2)
    assert "claimledger.toml: owned by another user" in result.stderr
