"""Compiled templates kept between renders: in a directory of the user's alone, signed
with the user's own key, the sandbox's apart from our own, never needed for a report to
be written, and never loaded unless this user's own run wrote them."""

from __future__ import annotations

import marshal
import os
import pickle
import shutil
import stat
from pathlib import Path
from typing import Any

import jinja2
import jinja2.bccache
import pytest

from claimledger.cli.reporting import compiled_templates
from claimledger.ledger.file import load
from claimledger.report.model import Report
from claimledger.report.signedcache import KEY_FILE, SignedCache
from claimledger.report.templates import Templates, templates_loader
from cli_runner import Cli
from test_render import FIXTURE, build, fixture_checks, fixture_previous

NAME = "report.md.j2"
KEY = b"k" * 32


def kept_in(folder: Path) -> SignedCache:
    """A signed cache in `folder`, made for the user alone."""
    folder.mkdir(mode=0o700, exist_ok=True)
    return SignedCache(folder, KEY)


@pytest.fixture(scope="module")
def report() -> Report:
    ledger = load(FIXTURE)
    return build(ledger, fixture_checks(ledger), fixture_previous(ledger))


def test_a_template_is_compiled_once_and_then_read_compiled(
    tmp_path: Path, report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Templates(templates_loader(None), kept_in(tmp_path)).render(NAME, report=report)
    kept = [path.name for path in tmp_path.iterdir()]
    assert len(kept) == 1 and kept[0].startswith("ours-")

    def compiled_again(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the template was compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", compiled_again)
    again = Templates(templates_loader(None), kept_in(tmp_path)).render(NAME, report=report)
    assert again == first


def test_the_sandbox_keeps_its_compiled_templates_apart(tmp_path: Path, report: Report) -> None:
    """The sandbox compiles `~` to joins it bounds: what it compiled and what our own
    environment compiled are never taken for each other."""
    users = tmp_path / "templates"
    users.mkdir()
    ours = Templates(templates_loader(None)).source(NAME)
    (users / NAME).write_text("{# the user's #}" + ours, "utf-8")
    kept = tmp_path / "kept"
    theirs = Templates(templates_loader(users), kept_in(kept)).render(NAME, report=report)
    plain = Templates(templates_loader(None), kept_in(kept)).render(NAME, report=report)
    assert theirs == plain
    assert sorted(path.name.split("-")[0] for path in kept.iterdir()) == ["ours", "sandboxed"]


def test_an_edited_template_is_compiled_anew(tmp_path: Path, report: Report) -> None:
    """What is kept is keyed to the template's text: the edit shows at the next render."""
    users, kept = tmp_path / "templates", kept_in(tmp_path / "kept")
    users.mkdir()
    (users / NAME).write_text("{{ report.title|md }}: first\n", "utf-8")
    first = Templates(templates_loader(users), kept).render(NAME, report=report)
    assert first.endswith(": first\n")
    (users / NAME).write_text("{{ report.title|md }}: second\n", "utf-8")
    second = Templates(templates_loader(users), kept).render(NAME, report=report)
    assert second.endswith(": second\n")


def test_a_place_that_cannot_keep_them_still_gives_the_report(
    tmp_path: Path, report: Report
) -> None:
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a directory", "utf-8")
    written = Templates(templates_loader(None), SignedCache(in_the_way, KEY)).render(
        NAME, report=report
    )
    assert written == Templates(templates_loader(None)).render(NAME, report=report)


def test_the_directory_is_the_users_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What it holds is loaded as code: a directory others may write to is not used."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    kept = compiled_templates()
    assert kept is not None
    found = kept.folder
    assert found == tmp_path / "cache" / "claimledger" / "templates"
    assert stat.S_IMODE(found.stat().st_mode) == 0o700
    found.chmod(0o777)
    assert compiled_templates() is None
    found.rmdir()
    found.symlink_to(tmp_path, target_is_directory=True)
    assert compiled_templates() is None


def test_a_relative_cache_home_is_ignored(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/cache")
    monkeypatch.setenv("HOME", str(tmp_path))
    kept = compiled_templates()
    assert kept is not None and kept.folder == tmp_path / ".cache" / "claimledger" / "templates"


# --------------------------------------------------------------------------- planted code


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The report fixture as a project, with a cache of the test's own."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    project = tmp_path / "project"
    project.mkdir()
    shutil.copyfile(FIXTURE, project / "claims.yaml")
    return project


def rendered(project: Path) -> str:
    return Cli(project / "claims.yaml")("render", "-o", "-").stdout


def warmed(project: Path) -> str:
    """The report as every render after the first prints it, its templates kept compiled."""
    rendered(project)
    return rendered(project)


def kept_files(tmp_path: Path) -> list[Path]:
    folder = tmp_path / "cache" / "claimledger" / "templates"
    files = sorted(folder.iterdir())
    assert [path.name.split("-")[0] for path in files] == ["ours"]
    return files


class Planted:
    """What a planted pickle runs when it is loaded: it leaves a file behind."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


def planted_code(marker: Path) -> bytes:
    return marshal.dumps(compile(f"open({str(marker)!r}, 'w').close()", "<planted>", "exec"))


def test_a_planted_pickle_is_never_unpickled(tmp_path: Path, project: Path) -> None:
    """Jinja's own cache unpickles a file's checksum before it compares it: a file in
    Jinja's format runs what it holds. None is read in that format any more."""
    first = warmed(project)
    marker = tmp_path / "unpickled"
    for path in kept_files(tmp_path):
        path.write_bytes(jinja2.bccache.bc_magic + pickle.dumps(Planted(marker)) + b"\0")
    assert rendered(project) == first
    assert not marker.exists()


def test_code_changed_in_the_cache_is_not_loaded(tmp_path: Path, project: Path) -> None:
    first = warmed(project)
    marker = tmp_path / "loaded"
    (path,) = kept_files(tmp_path)
    signature_and_checksum = path.read_bytes().split(b"\n", 1)[0]
    path.write_bytes(signature_and_checksum + b"\n" + planted_code(marker))
    assert rendered(project) == first
    assert not marker.exists()
    assert path.read_bytes().split(b"\n", 1)[1] != planted_code(marker)  # compiled anew


def test_code_signed_with_another_key_is_not_loaded(tmp_path: Path, project: Path) -> None:
    """Another user's cache, or one copied from elsewhere, is not this user's."""
    first = warmed(project)
    marker = tmp_path / "loaded"
    (path,) = kept_files(tmp_path)
    checksum = path.read_bytes()[32:].split(b"\n", 1)[0]
    SignedCache(path.parent, b"another key".ljust(32)).write(
        path.name, checksum + b"\n" + planted_code(marker)
    )
    assert rendered(project) == first
    assert not marker.exists()


def test_a_link_in_the_cache_is_not_followed(tmp_path: Path, project: Path) -> None:
    first = warmed(project)
    (path,) = kept_files(tmp_path)
    elsewhere = tmp_path / "elsewhere"
    path.rename(elsewhere)
    path.symlink_to(elsewhere)
    assert rendered(project) == first
    assert not path.is_symlink()  # replaced by what this render compiled


def test_a_folder_swapped_after_it_was_chosen_is_not_believed(
    tmp_path: Path, project: Path
) -> None:
    """The folder is checked when it is read, through what was opened, not when chosen:
    a folder put in its place by a link in between is not read."""
    rendered(project)
    store = compiled_templates()
    assert store is not None
    (path,) = kept_files(tmp_path)
    assert store.read(path.name) is not None
    elsewhere = tmp_path / "elsewhere"
    store.folder.rename(elsewhere)
    store.folder.symlink_to(elsewhere, target_is_directory=True)
    assert store.read(path.name) is None
    store.folder.unlink()
    elsewhere.chmod(0o755)  # a real folder now, but one others may read and list
    elsewhere.rename(store.folder)
    assert store.read(path.name) is None


def test_the_key_is_the_users_alone(tmp_path: Path, project: Path) -> None:
    rendered(project)
    key = Path(os.environ["XDG_CONFIG_HOME"]) / "claimledger" / KEY_FILE
    assert stat.S_IMODE(key.stat().st_mode) == 0o600 and len(key.read_bytes()) == 32
    key.chmod(0o622)  # others may write it: no key, so nothing is kept or believed
    assert compiled_templates() is None
    key.chmod(0o600)
    assert compiled_templates() is not None
    moved = tmp_path / "key"
    key.rename(moved)
    key.symlink_to(moved)
    assert compiled_templates() is None
