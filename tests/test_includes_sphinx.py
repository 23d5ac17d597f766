"""A Sphinx page's `.. include:: /includes/x.rst` is read from the source folder, not the
repository's root (minio/docs keeps its pages under `source/` and its partials in
`source/includes/`): the partial is followed there. A real git repository, made here."""

from __future__ import annotations

from pathlib import Path

from claimledger.reading.includes import includes_of
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER, NEW, OLD, commit, git
from webserver import PageServer

PAGE = "source/reference/iam/ldap.rst"


def test_an_include_from_the_source_folder_names_the_partial_under_it() -> None:
    (found,) = includes_of(".. include:: /includes/common.rst\n", PAGE)
    assert "source/includes/common.rst" in found.paths
    assert found.paths[0] == "includes/common.rst"  # the root still first


def test_blame_follows_a_sentence_into_a_partial_of_the_source_folder(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "source/conf.py", "project = 'x'\n", "Add Sphinx", "2026-01-04T10:00")
    commit(
        repo, PAGE, "LDAP\n====\n\n.. include:: /includes/common.rst\n", "Add the page",
        "2026-01-05T10:00",
    )  # fmt: skip
    held = commit(repo, "source/includes/common.rst", f"{OLD}\n", "Add it", "2026-01-06T10:00")
    reworded = commit(
        repo, "source/includes/common.rst", f"{NEW}\n", "Soften it (#12)", "2026-05-15T10:00"
    )
    page_server.set_page("/ldap", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/ldap"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PAGE)["quotes"]

    found = row["found"]
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (held, reworded)
    assert found["dropped_in"]["pull_request"] == 12
