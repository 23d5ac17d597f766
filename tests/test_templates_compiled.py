"""Compiled templates kept between renders: in a directory of the user's alone, the
sandbox's apart from our own, and never needed for a report to be written."""

from __future__ import annotations

import stat
from pathlib import Path
from typing import Any

import jinja2
import pytest

from claimledger.cli.reporting import compiled_templates
from claimledger.ledgerfile import load
from claimledger.report import Report, Templates, templates_loader
from test_render import FIXTURE, build, fixture_checks, fixture_previous

NAME = "report.md.j2"


@pytest.fixture(scope="module")
def report() -> Report:
    ledger = load(FIXTURE)
    return build(ledger, fixture_checks(ledger), fixture_previous(ledger))


def test_a_template_is_compiled_once_and_then_read_compiled(
    tmp_path: Path, report: Report, monkeypatch: pytest.MonkeyPatch
) -> None:
    first = Templates(templates_loader(None), tmp_path).render(NAME, report=report)
    kept = [path.name for path in tmp_path.iterdir()]
    assert len(kept) == 1 and kept[0].startswith("ours-")

    def compiled_again(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("the template was compiled again")

    monkeypatch.setattr(jinja2.Environment, "compile", compiled_again)
    again = Templates(templates_loader(None), tmp_path).render(NAME, report=report)
    assert again == first


def test_the_sandbox_keeps_its_compiled_templates_apart(tmp_path: Path, report: Report) -> None:
    """The sandbox compiles `~` to joins it bounds: what it compiled and what our own
    environment compiled are never taken for each other."""
    users = tmp_path / "templates"
    users.mkdir()
    ours = Templates(templates_loader(None)).source(NAME)
    (users / NAME).write_text("{# the user's #}" + ours, "utf-8")
    kept = tmp_path / "kept"
    kept.mkdir()
    theirs = Templates(templates_loader(users), kept).render(NAME, report=report)
    plain = Templates(templates_loader(None), kept).render(NAME, report=report)
    assert theirs == plain
    assert sorted(path.name.split("-")[0] for path in kept.iterdir()) == ["ours", "sandboxed"]


def test_an_edited_template_is_compiled_anew(tmp_path: Path, report: Report) -> None:
    """What is kept is keyed to the template's text: the edit shows at the next render."""
    users, kept = tmp_path / "templates", tmp_path / "kept"
    users.mkdir()
    kept.mkdir()
    (users / NAME).write_text("{{ report.title|md }}: first\n", "utf-8")
    assert (
        Templates(templates_loader(users), kept).render(NAME, report=report).endswith(": first\n")
    )
    (users / NAME).write_text("{{ report.title|md }}: second\n", "utf-8")
    assert (
        Templates(templates_loader(users), kept).render(NAME, report=report).endswith(": second\n")
    )


def test_a_place_that_cannot_keep_them_still_gives_the_report(
    tmp_path: Path, report: Report
) -> None:
    in_the_way = tmp_path / "a-file"
    in_the_way.write_text("not a directory", "utf-8")
    written = Templates(templates_loader(None), in_the_way).render(NAME, report=report)
    assert written == Templates(templates_loader(None)).render(NAME, report=report)


def test_the_directory_is_the_users_alone(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """What it holds is loaded as code: a directory others may write to is not used."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    found = compiled_templates()
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
    assert compiled_templates() == tmp_path / ".cache" / "claimledger" / "templates"
