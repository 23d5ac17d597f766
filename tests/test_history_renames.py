"""A page gone whose source file the repository moved to another folder: the page it
became is proposed where the site's convention is plain, the folders included (etcd-io/
website moved `op-guide/authentication.md` to `op-guide/authentication/rbac.md` in #543,
and renamed its `next` folder to `v3.5` in #363). Real git repositories, made here."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.reading.provenance import page_after_rename
from cli_runner import Cli
from evidence_site import page
from test_blame import OLD, commit, git
from test_history_unread import LEDGER
from webserver import PageServer

BEFORE = "content/en/docs/v3.5/op-guide/authentication.md"
AFTER = "content/en/docs/v3.5/op-guide/authentication/rbac.md"


def test_a_page_whose_file_moved_a_folder_down_is_proposed_there(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/docs/v3.5/op-guide/authentication/rbac/", page(OLD))
    url = page_server.url("/docs/v3.5/op-guide/authentication/")
    cli = _quoting_a_file_moved(tmp_path, url, BEFORE, AFTER, "Move auth pages (#543)")

    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    (relocation,) = cli.json("status", code=1)["relocations"]

    now = page_server.url("/docs/v3.5/op-guide/authentication/rbac/")
    assert relocation["found_at"] == now
    assert (relocation["quotes_found"], relocation["file"]["renamed_to"]) == (1, AFTER)
    assert "adopt it with `claimledger move guide`" in said


def test_a_page_whose_file_became_a_folders_page_is_proposed_at_the_folder(
    tmp_path: Path, page_server: PageServer
) -> None:
    """Hugo serves a section's `_index.md` at its folder's address: a page whose file
    became one (`op-guide/metrics.md` -> `metrics/_index.md`) is proposed at `/metrics/`,
    not at `/metrics/_index/`, where no page is."""
    before = "content/en/docs/v3.5/op-guide/metrics.md"
    after = "content/en/docs/v3.5/metrics/_index.md"
    page_server.set_page("/docs/v3.5/metrics/", page(OLD))
    url = page_server.url("/docs/v3.5/op-guide/metrics/")
    cli = _quoting_a_file_moved(tmp_path, url, before, after, "Make metrics a section (#1139)")

    cli("refresh", "--allow-private", "--no-as-read", code=1)
    (relocation,) = cli.json("status", code=1)["relocations"]

    assert relocation["found_at"] == page_server.url("/docs/v3.5/metrics/")
    assert relocation["file"]["renamed_to"] == after


def _quoting_a_file_moved(tmp_path: Path, url: str, before: str, after: str, why: str) -> Cli:
    """A trusted ledger quoting the page at `url`, built from the file `before`, which a
    docs repository of its own (on the ledger's `repo`) then moved to `after`."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, before, f"# Guide\n\n{OLD}\n", "Add the guide", "2026-01-05T10:00:00")
    (repo / after).parent.mkdir(parents=True)
    git(repo, "mv", before, after)
    git(repo, "commit", "-q", "-m", why, date="2026-02-01T10:00:00")
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=url, quote=OLD, path=before), "utf-8")
    cli = Cli(ledger)
    cli("trust")
    return cli


@pytest.mark.parametrize(
    ("url", "old", "new", "now"),
    [
        ("https://d.test/docs/v3.5/auth/", "content/en/docs/v3.5/auth.md",
         "content/en/docs/v3.5/auth/rbac.md", "https://d.test/docs/v3.5/auth/rbac/"),
        ("https://d.test/docs/next/api/", "content/docs/next/api.md",
         "content/docs/v3.5/api.md", "https://d.test/docs/v3.5/api/"),  # a version's folder
        ("https://d.test/v/guide.html", "src/v/guide.rst", "src/w/wal.rst",
         "https://d.test/w/wal.html"),
        ("https://d.test/docs/guide/", "content/docs/guide.md", "content.md", None),
        ("https://d.test/docs/guide/", "content/docs/guide.md", "site/docs/guide.md", None),
        ("https://d.test/docs/guide/", "docs/guide.md", "../guide.md", None),
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/a b/guide.md", None),
        ("https://d.test/docs/next/", "content/docs/next/_index.md",
         "content/docs/v3.5/_index.md", "https://d.test/docs/v3.5/"),  # a section's own page
        ("https://d.test/docs/auth/", "docs/auth/index.md", "docs/iam/index.md",
         "https://d.test/docs/iam/"),
        ("https://d.test/guide/auth/", "guide/auth/README.md", "guide/iam/README.md",
         "https://d.test/guide/iam/"),
        ("https://d.test/docs/auth/", "docs/auth.md", "docs/auth/index.md", None),  # no move
        ("https://d.test/docs/auth/", "docs/auth.md", "docs/iam/_index.md",
         "https://d.test/docs/iam/"),
        ("https://d.test/docs/auth.html", "docs/auth.rst", "docs/auth/index.rst",
         "https://d.test/docs/auth/index.html"),  # a suffix: the name is the address's
        ("https://d.test/docs/v3.5/op/metrics/", "content/docs/v3.5/op/metrics.md",
         "content/docs/v3.5/metrics/_index.md", "https://d.test/docs/v3.5/metrics/"),  # Hugo
        ("https://d.test/docs/v3.5/metrics/", "content/docs/v3.5/metrics.md",
         "content/docs/v3.5/metrics/_index.md", None),  # etcd #1139: the page stays there
        ("https://d.test/guide/setup/", "docs/guide/setup.md", "docs/setup/index.md",
         "https://d.test/setup/"),  # MkDocs
        ("https://d.test/docs/auth", "docs/auth.md", "docs/security/auth/README.md",
         "https://d.test/docs/security/auth"),  # Docusaurus
        ("https://d.test/docs/metrics/", "content/docs/metrics/_index.md",
         "content/docs/obs/metrics.md", "https://d.test/docs/obs/metrics/"),  # and back
        ("https://d.test/v/guide.html", "src/v/guide.rst", "src/v/guide/index.rst",
         "https://d.test/v/guide/index.html"),  # served by its own name
        ("https://d.test/v/guide.html", "src/v/guide.md", "src/v/guide/_index.md", None),
    ],
)  # fmt: skip
def test_a_page_follows_its_file_into_another_folder_where_the_convention_is_plain(
    url: str, old: str, new: str, now: str | None
) -> None:
    assert page_after_rename(url, old, new) == now
