"""`init` killed between two of the files it writes: the next `init` finishes the set,
when each file there is byte for byte what it would write; a file edited since, or any
other, stops it as before, named, and nothing is written.

The kills are real: a `claimledger init` process sent SIGKILL just before it makes a
given file (the test's own wrapper around the file maker, in that process only)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import Result

from cli_runner import claimledger

KILLED_BEFORE_A_FILE = """
import os, signal, sys
from claimledger.ledger import file as ledgerfile
made, _create, last = [], ledgerfile.create_whole, int(sys.argv[1])
def _create_then_die(path, data):
    if len(made) == last:
        os.kill(os.getpid(), signal.SIGKILL)
    _create(path, data)
    made.append(path)
ledgerfile.create_whole = _create_then_die
import runpy
sys.argv = ["claimledger", "init", *sys.argv[2:]]
runpy.run_module("claimledger", run_name="__main__")
"""


PAUSED_AFTER_THE_LEDGER = """
import sys
from claimledger.ledger import file as ledgerfile
_create = ledgerfile.create_whole
def _create_then_wait(path, data):
    _create(path, data)
    if path.name == "claims.yaml":
        print("paused", file=sys.stderr, flush=True)
        sys.stdin.readline()
ledgerfile.create_whole = _create_then_wait
import runpy
sys.argv = ["claimledger", "init", *sys.argv[1:]]
runpy.run_module("claimledger", run_name="__main__")
"""


def killed_init(files_made: int, *args: str) -> None:
    """`claimledger init ARGS`, killed by SIGKILL once it has made `files_made` files."""
    done = subprocess.run(
        [sys.executable, "-c", KILLED_BEFORE_A_FILE, str(files_made), *args],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL, done.stderr


def files_in(directory: Path) -> dict[str, bytes]:
    """Every file under `directory`, by its path there."""
    return {
        str(path.relative_to(directory)): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def refused(result: Result, *named: Path) -> None:
    """One line of bad input naming each of `named`, no traceback."""
    (line,) = result.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "already exists" in line
    assert all(str(path) in line for path in named), line
    assert "Traceback" not in result.output


@pytest.mark.parametrize(
    ("files_made", "options"),
    [(1, ()), (2, ()), (1, ("--templates",)), (4, ("--templates",))],
    ids=["after-the-ledger", "after-the-schema", "templates-after-the-ledger", "mid-templates"],
)
def test_init_killed_between_two_files_is_finished_by_the_next(
    tmp_path: Path, files_made: int, options: tuple[str, ...]
) -> None:
    whole, killed = tmp_path / "whole", tmp_path / "killed"
    claimledger("init", str(whole), *options)
    killed_init(files_made, str(killed), *options)
    left = files_in(killed)
    assert 0 < len(left) < len(files_in(whole))
    assert all(left[name] == files_in(whole)[name] for name in left)

    done = claimledger("init", str(killed), *options)
    assert files_in(killed) == files_in(whole)
    assert "note: an earlier init stopped before " in done.stdout
    assert done.stderr == ""  # the templates trusted as the user's own, as a whole init's are
    claimledger("--ledger", str(killed / "claims.yaml"), "check")
    standing = [
        claimledger("--ledger", str(home / "claims.yaml"), "trust", "--list").stdout.split(":")[0]
        for home in (whole, killed)
    ]
    assert standing[0] == standing[1]


def test_init_finishes_a_set_whose_first_files_are_as_init_writes_them(tmp_path: Path) -> None:
    whole, begun = tmp_path / "whole", tmp_path / "begun"
    claimledger("init", str(whole))
    begun.mkdir()
    shutil.copyfile(whole / "claims.yaml", begun / "claims.yaml")
    done = claimledger("init", str(begun))
    assert files_in(begun) == files_in(whole)
    made = f"{begun / 'ledger.schema.json'}, {begun / '.gitignore'}"
    assert f"note: an earlier init stopped before {made}: made now" in done.stdout


@pytest.mark.parametrize("changed", ["claims.yaml", "ledger.schema.json"])
def test_init_refuses_a_set_of_which_one_file_is_not_as_it_writes_it(
    tmp_path: Path, changed: str
) -> None:
    """One file edited since (or the author's own of that name): it is no unfinished
    init's, so nothing is finished beside it, nothing overwritten, and it is named."""
    whole, begun = tmp_path / "whole", tmp_path / "begun"
    claimledger("init", str(whole))
    begun.mkdir()
    for name in ("claims.yaml", "ledger.schema.json"):
        shutil.copyfile(whole / name, begun / name)
    edited = begun / changed
    edited.write_bytes(edited.read_bytes().replace(b"\n", b"\r\n", 1))
    before = files_in(begun)

    refused(claimledger("init", str(begun), code=2), edited)
    assert str(
        begun / ("ledger.schema.json" if changed == "claims.yaml" else "claims.yaml")
    ) not in (claimledger("init", str(begun), code=2).stderr)
    assert files_in(begun) == before


def test_init_refuses_a_whole_set_as_before(tmp_path: Path) -> None:
    """Nothing missing: there is nothing unfinished to finish, whatever the files hold."""
    claimledger("init", str(tmp_path))
    before = files_in(tmp_path)
    refused(claimledger("init", str(tmp_path), code=2), tmp_path / "claims.yaml")
    assert files_in(tmp_path) == before


def test_init_takes_another_day_s_ledger_for_the_author_s(tmp_path: Path) -> None:
    """A ledger dated another day (or by another author) is not what init writes today:
    it is left, and named, however the set was begun."""
    whole, begun = tmp_path / "whole", tmp_path / "begun"
    claimledger("init", str(whole))
    begun.mkdir()
    shutil.copyfile(whole / "claims.yaml", begun / "claims.yaml")
    refused(claimledger("init", str(begun), "--author", "Ada", code=2), begun / "claims.yaml")
    assert files_in(begun) == {"claims.yaml": files_in(whole)["claims.yaml"]}


AS_ROOT = pytest.mark.skipif(os.getuid() != 0, reason="giving a file away takes root")
OTHER_USER = 4242


@AS_ROOT
@pytest.mark.parametrize("options", [(), ("--templates",)], ids=["plain", "templates"])
def test_a_file_another_user_owns_is_no_unfinished_init_s(
    tmp_path: Path, options: tuple[str, ...]
) -> None:
    """A claims.yaml byte for byte as init writes it, but another user's (planted in a
    shared folder): no init of ours left it. It stops init, named, and nothing is made
    or trusted: finishing beside it would record the user's consent to a ledger its
    owner can rewrite at any time."""
    whole, begun = tmp_path / "whole", tmp_path / "begun"
    claimledger("init", str(whole), *options)
    begun.mkdir()
    shutil.copyfile(whole / "claims.yaml", begun / "claims.yaml")
    os.chown(begun / "claims.yaml", OTHER_USER, OTHER_USER)
    before = files_in(begun)

    done = claimledger("init", str(begun), *options, code=2)
    (line,) = done.stderr.splitlines()
    assert str(begun / "claims.yaml") in line and "Traceback" not in done.output
    assert files_in(begun) == before
    checked = claimledger("--ledger", str(begun / "claims.yaml"), "check", code=2)
    assert f"owned by another user (uid {OTHER_USER}), so not used" in checked.stderr


def test_two_inits_racing_in_one_folder_leave_one_whole_reading(tmp_path: Path) -> None:
    """An init run while another was between two of its files took the other's ledger for
    an unfinished init's and finished the set, saying so; the first, finding its next
    file made, undid its own: the ledger the second had just reported made was gone. The
    second now fails at once, in one line, and writes nothing; the first makes them all."""
    whole, raced = tmp_path / "whole", tmp_path / "raced"
    claimledger("init", str(whole))
    first = subprocess.Popen(
        [sys.executable, "-c", PAUSED_AFTER_THE_LEDGER, str(raced)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert first.stderr is not None and first.stderr.readline() == "paused\n"
        second = subprocess.run(
            [sys.executable, "-m", "claimledger", "init", str(raced)],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        out, err = first.communicate("go on\n", timeout=60)
    finally:
        first.kill()
        first.wait()

    assert (second.returncode, first.returncode) == (2, 0), (second.stderr, err)
    (line,) = second.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and str(raced) in line, line
    assert "another claimledger init" in line and "Traceback" not in second.stderr
    assert f"created {raced / 'claims.yaml'}" in out
    assert files_in(raced) == files_in(whole)


def test_an_init_that_cannot_make_its_folder_leaves_none_of_those_it_made(
    tmp_path: Path,
) -> None:
    """`init new/deeper/<a name longer than the system takes>` made `new` and `new/deeper`
    before the last name failed, and left them behind: an init that fails writes
    nothing, so each folder it made on the way is removed again."""
    target = tmp_path / "new" / "deeper" / ("n" * 300)

    done = claimledger("init", str(target), code=2)

    (line,) = done.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "Traceback" not in done.output
    assert sorted(tmp_path.iterdir()) == []
