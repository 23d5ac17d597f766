"""A checkout's `templates/` shows nothing of the disk but the files it holds itself.

The folder is the repository's: a template there can be a symbolic link to ~/.ssh/id_rsa
or /proc/self/environ, a linked subfolder, a FIFO, a huge file. `render` reads none of
them into a report: one line naming the file, exit 2, and the secret nowhere.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from claimledger.report.templatefiles import MAX_TEMPLATE_BYTES
from cli_runner import AuthorCli, Cli
from test_render import FIXTURE

SECRET = "-----BEGIN OPENSSH PRIVATE KEY----- s3cr3t"


@pytest.fixture
def project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    shutil.copyfile(FIXTURE, project / "claims.yaml")
    return project


@pytest.fixture
def cli(project: Path) -> Cli:
    return AuthorCli(project / "claims.yaml")  # trusted: the reading of the files is tested


@pytest.fixture
def secret(tmp_path: Path) -> Path:
    """A private file outside the checkout, such as a key in ~/.ssh."""
    path = tmp_path / "home" / ".ssh" / "id_rsa"
    path.parent.mkdir(parents=True)
    path.write_text(SECRET + "\n", "utf-8")
    return path


def refused(cli: Cli, file: Path, says: str) -> None:
    """`render` to stdout fails in one line naming `file`, and prints no secret."""
    result = cli("render", "-o", "-", code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"claimledger: error: {file} {says}"), line
    assert SECRET not in result.stdout + result.stderr
    assert "USER=" not in result.stdout + result.stderr and "PATH=" not in result.stdout


def test_a_template_linked_to_a_secret_is_not_read(cli: Cli, project: Path, secret: Path) -> None:
    link = project / "templates" / "report.md.j2"
    link.symlink_to(secret)
    refused(cli, link, f"is a symbolic link (to {secret})")


def test_a_template_linked_to_the_process_environment_is_not_read(
    cli: Cli, project: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("USER", "someone")
    link = project / "templates" / "report.md.j2"
    link.symlink_to("/proc/self/environ")
    refused(cli, link, "is a symbolic link (to /proc/self/environ)")


def test_a_link_to_another_template_of_the_folder_is_refused_too(cli: Cli, project: Path) -> None:
    """No link is followed, wherever it points: a link's target can change between runs."""
    (project / "templates" / "mine.md.j2").write_text("{{ report.title }}\n", "utf-8")
    link = project / "templates" / "report.md.j2"
    link.symlink_to("mine.md.j2")
    refused(cli, link, "is a symbolic link (to mine.md.j2)")


def test_an_included_link_is_refused(cli: Cli, project: Path, secret: Path) -> None:
    templates = project / "templates"
    (templates / "report.md.j2").write_text('{% include "key.md.j2" %}\n', "utf-8")
    (templates / "key.md.j2").symlink_to(secret)
    refused(cli, templates / "key.md.j2", "is a symbolic link")


def test_an_include_through_a_linked_folder_is_refused(
    cli: Cli, project: Path, secret: Path
) -> None:
    templates = project / "templates"
    (templates / "report.md.j2").write_text('{% include "ssh/id_rsa" %}\n', "utf-8")
    (templates / "ssh").symlink_to(secret.parent, target_is_directory=True)
    refused(cli, templates / "ssh", f"is a symbolic link (to {secret.parent})")


def test_a_linked_templates_folder_is_refused(cli: Cli, project: Path, secret: Path) -> None:
    elsewhere = secret.parent.parent / "templates"
    elsewhere.mkdir()
    (elsewhere / "report.md.j2").write_text('{% include "../.ssh/id_rsa" %}', "utf-8")
    (project / "templates").rmdir()
    (project / "templates").symlink_to(elsewhere, target_is_directory=True)
    refused(cli, project / "templates", "is a symbolic link")


def test_a_fifo_is_refused_without_waiting_for_a_writer(cli: Cli, project: Path) -> None:
    """Opening a FIFO to read waits for a writer: the command must not hang on one (run
    apart, so that a hang fails this test instead of stopping the suite); nor may `trust`,
    which fingerprints the files of templates/."""
    fifo = project / "templates" / "report.md.j2"
    os.mkfifo(fifo)
    cli("trust")
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "render", "-o", "-"],
        cwd=project,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line == (
        f"claimledger: error: {Path('templates') / 'report.md.j2'} is a FIFO, not a template "
        "file: claimledger reads only files"
    )


def test_a_template_larger_than_a_template_may_be_is_not_read(cli: Cli, project: Path) -> None:
    template = project / "templates" / "report.md.j2"
    template.write_text("x" * (MAX_TEMPLATE_BYTES + 1), "utf-8")
    refused(cli, template, f"is over {MAX_TEMPLATE_BYTES:,} bytes")
    template.write_text("{# a template #}" + "x" * (MAX_TEMPLATE_BYTES - 16), "utf-8")
    assert cli("render", "-o", "-").stdout.startswith("xxx")


def test_a_template_that_is_not_utf8_is_one_line(cli: Cli, project: Path) -> None:
    template = project / "templates" / "report.md.j2"
    template.write_bytes("{{ report.title }} – é".encode("latin-1", "replace"))
    (line,) = cli("render", "-o", "-", code=2).stderr.splitlines()
    assert line.startswith(f"claimledger: error: {template}: not UTF-8 text"), line


def test_a_plain_template_file_is_still_read(cli: Cli, project: Path) -> None:
    templates = project / "templates"
    (templates / "parts").mkdir()
    (templates / "parts" / "title.md.j2").write_text("# {{ report.title }}", "utf-8")
    (templates / "report.md.j2").write_text('{% include "parts/title.md.j2" %}\n', "utf-8")
    assert cli("render", "-o", "-").stdout.startswith("# Fixture teardown")
