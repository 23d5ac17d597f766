"""A page gone whose source file the repository moved to another folder: the page it
became is proposed where the site's convention is plain, the folders included (etcd-io/
website moved `op-guide/authentication.md` to `op-guide/authentication/rbac.md` in #543,
and renamed its `next` folder to `v3.5` in #363). Real git repositories, made here."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.reading.generators import Site, config_files, site_of
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


@pytest.mark.parametrize(
    ("configs", "before", "after", "old", "now"),
    [
        (("website/docusaurus.config.js",), "website/docs/auth.md",
         "website/docs/security/security.md", "/docs/auth/", "/docs/security/"),
        (("website/docusaurus.config.ts",), "website/docs/auth/auth.md",
         "website/docs/iam/iam.md", "/docs/auth/", "/docs/iam/"),
        (("hugo.toml",), "content/docs/auth.md", "content/docs/security/README.md",
         "/docs/auth/", "/docs/security/readme/"),
        (("mkdocs.yml",), "docs/auth.md", "docs/security/README.md", "/auth/", "/security/"),
        (("docusaurus.config.js",), "docs/intro.md", "docs/docs.md", "/docs/intro/",
         "/docs/docs/"),  # named as the docs' own folder: no category's page
        (("hugo.toml", "content/docs/guide/conf.py"), "content/docs/auth.md",
         "content/docs/guide/_index.md", "/docs/auth/", "/docs/guide/"),  # a page's file
    ],
)  # fmt: skip
def test_a_page_whose_file_moved_is_proposed_where_its_sites_generator_serves_it(
    tmp_path: Path,
    page_server: PageServer,
    configs: tuple[str, ...],
    before: str,
    after: str,
    old: str,
    now: str,
) -> None:
    """Docusaurus serves a doc named as its folder (`security/security.md`) at the
    folder's address, as `index.md` and `README.md`, but not one named as the folder of
    its docs (`docs/docs.md`, at `/docs/docs/`); Hugo serves a `README.md` as a page of
    its own, at `…/readme/`, and a `conf.py` kept in its `content` folder configures no
    site there; MkDocs serves a `README.md` at its folder's address."""
    page_server.set_page(now, page(OLD))
    url = page_server.url(old)
    cli = _quoting_a_file_moved(tmp_path, url, before, after, "Regroup the pages", configs)

    cli("refresh", "--allow-private", "--no-as-read", code=1)
    (relocation,) = cli.json("status", code=1)["relocations"]

    assert relocation["found_at"] == page_server.url(now)
    assert relocation["file"]["renamed_to"] == after


def _quoting_a_file_moved(
    tmp_path: Path, url: str, before: str, after: str, why: str, configs: tuple[str, ...] = ()
) -> Cli:
    """A trusted ledger quoting the page at `url`, built from the file `before`, which a
    docs repository of its own (on the ledger's `repo`, holding the files `configs`,
    which may configure its site) then moved to `after`."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for config in configs:
        commit(repo, config, "# the site's configuration\n", "Add the site", "2026-01-04T10:00:00")
    commit(repo, before, f"# Guide\n\n{OLD}\n", "Add the guide", "2026-01-05T10:00:00")
    (repo / after).parent.mkdir(parents=True, exist_ok=True)
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


@pytest.mark.parametrize(
    ("generator", "url", "old", "new", "now"),
    [
        ("docusaurus", "https://d.test/docs/auth/", "docs/auth/auth.md",
         "docs/security/security.md", "https://d.test/docs/security/"),
        ("docusaurus", "https://d.test/docs/auth/", "docs/auth/Auth.md",
         "docs/iam/auth.md", "https://d.test/docs/iam/auth/"),  # no longer its folder's
        ("docusaurus", "https://d.test/docs/auth/auth/", "docs/auth/auth.md",
         "docs/iam/auth.md", "https://d.test/docs/iam/auth/"),  # its address names it
        (None, "https://d.test/docs/auth/", "docs/auth.md", "docs/iam/iam.md",
         "https://d.test/docs/iam/iam/"),  # no generator known: a page of its own
        ("hugo", "https://d.test/docs/auth/", "content/docs/auth.md",
         "content/docs/iam/README.md", "https://d.test/docs/iam/readme/"),
        ("hugo", "https://d.test/docs/Auth/", "content/docs/Auth.md",
         "content/docs/IAM/index.md", "https://d.test/docs/IAM/"),  # a site kept in capitals
        ("hugo", "https://d.test/docs/auth/", "content/docs/auth.md",
         "content/docs/iam/_index.md", "https://d.test/docs/iam/"),
        ("mkdocs", "https://d.test/auth/", "docs/auth.md", "docs/iam/readme.md",
         "https://d.test/iam/readme/"),  # README only as written
        ("mkdocs", "https://d.test/auth/", "docs/auth.md", "docs/iam/README.md",
         "https://d.test/iam/"),
        ("sphinx", "https://d.test/docs/auth/", "docs/auth.rst", "docs/iam/README.rst",
         "https://d.test/docs/iam/README/"),
        ("sphinx", "https://d.test/docs/auth/", "docs/auth.rst", "docs/iam/index.rst",
         "https://d.test/docs/iam/"),
    ],
)  # fmt: skip
def test_a_folders_own_page_is_the_one_its_sites_generator_serves_there(
    generator: str | None, url: str, old: str, new: str, now: str | None
) -> None:
    assert page_after_rename(url, old, new, generator) == now


@pytest.mark.parametrize(
    ("path", "present", "site"),
    [
        ("website/docs/a/b.md", {"website/docusaurus.config.js", "conf.py"},
         Site("docusaurus", "website")),
        ("docs/a.md", {"mkdocs.yml"}, Site("mkdocs", ".")),
        ("docs/a.md", {"mkdocs.yaml", "docs/conf.py"},
         Site("sphinx", "docs")),  # the nearest configures it
        ("content/en/docs/a.md", {"config.toml"}, Site("hugo", ".")),  # beside its content
        ("docs/a.md", {"config.toml"}, None),  # not Hugo's: no content folder
        ("site/content/a.md", {"site/hugo.yaml", "mkdocs.yml"}, Site("hugo", "site")),
        ("a.md", {"mkdocs.yml"}, Site("mkdocs", ".")),
        ("docs/a.md", set(), None),
        ("content/docs/guide/_index.md", {"hugo.toml", "content/docs/guide/conf.py"},
         Site("hugo", ".")),  # a page's resource, in Hugo's content folder
        ("site/content/a/b.md", {"site/config.toml", "site/content/a/mkdocs.yml"},
         Site("hugo", "site")),
        ("content/a/b.md", {"content/a/hugo.toml"}, Site("hugo", "content/a")),
    ],
)  # fmt: skip
def test_a_sites_generator_is_the_one_configured_nearest_above_its_file(
    path: str, present: set[str], site: Site | None
) -> None:
    assert present <= set(config_files(path)) or site is None  # each asked for
    assert site_of(path, present) == site


@pytest.mark.parametrize(
    ("site", "url", "old", "new", "now"),
    [
        (".", "https://d.test/docs/intro/", "docs/intro.md", "docs/docs.md",
         "https://d.test/docs/docs/"),  # the docs' own folder is no category
        ("website", "https://d.test/docs/intro/", "website/docs/intro.md",
         "website/docs/docs.md", "https://d.test/docs/docs/"),
        ("website", "https://d.test/docs/1.0/intro/",
         "website/versioned_docs/version-1.0/intro.md",
         "website/versioned_docs/version-1.0/version-1.0.md",
         "https://d.test/docs/1.0/version-1.0/"),  # nor is a version's
        (".", "https://d.test/docs/intro/", "docs/intro.md", "docs/guides/guides.md",
         "https://d.test/docs/guides/"),  # a category's
        (".", "https://d.test/docs/intro/", "docs/intro.md", "docs/docs/docs.md",
         "https://d.test/docs/docs/"),  # a category named docs
        ("website", "https://d.test/fr/docs/intro/",
         "website/i18n/fr/docusaurus-plugin-content-docs/current/intro.md",
         "website/i18n/fr/docusaurus-plugin-content-docs/current/current.md",
         "https://d.test/fr/docs/current/"),  # nor is a translation's
    ],
)  # fmt: skip
def test_a_docusaurus_doc_named_as_its_folder_is_its_page_only_in_a_category(
    site: str, url: str, old: str, new: str, now: str | None
) -> None:
    assert page_after_rename(url, old, new, "docusaurus", site) == now
