"""Why no page was proposed for a page gone, said by what was read: the page of its
renamed file's new name, when the docs' repository named one, apart from the site's
sitemap (a hunt on etcd's docs read "no page of its sitemap carries its quotes (1 of its
0 pages read)" where the site had no sitemap). Real git repositories and a real
loopback site, made here."""

from __future__ import annotations

from pathlib import Path

from cli_runner import Cli
from evidence_site import page
from test_blame import OLD, commit, git
from test_history_unread import LEDGER
from test_relocate import urlset
from webserver import PageServer, redirect

BEFORE = "content/en/docs/v3.5/op-guide/authentication.md"
AFTER = "content/en/docs/v3.5/op-guide/security.md"


def _renamed_away(tmp_path: Path, page_server: PageServer) -> Cli:
    """A ledger quoting a page gone, whose file the repository renamed; the page of the
    new name is gone too (the site was not rebuilt, or serves it elsewhere)."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, BEFORE, f"# Auth\n\n{OLD}\n", "Add the auth guide", "2026-01-05T10:00:00")
    git(repo, "mv", BEFORE, AFTER)
    git(repo, "commit", "-q", "-m", "Rename auth (#543)", date="2026-02-01T10:00:00")
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    url = page_server.url("/docs/v3.5/op-guide/authentication/")
    ledger.write_text(LEDGER.format(url=url, quote=OLD, path=BEFORE), "utf-8")
    cli = Cli(ledger)
    cli("trust")
    return cli


def test_with_no_sitemap_the_note_names_the_renamed_files_page_and_the_missing_sitemap(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli = _renamed_away(tmp_path, page_server)

    cli("refresh", "--allow-private", "--no-as-read", code=1)
    (relocation,) = cli.json("status", code=1)["relocations"]

    renamed = page_server.url("/docs/v3.5/op-guide/security/")
    assert relocation["found_at"] is None
    assert relocation["note"].startswith(
        f"the page of its file's new name, {renamed}, gave no page (HTTP 404 Not Found); "
        f"no sitemap on {page_server.url('')}"
    )
    assert "pages read" not in relocation["note"]


def test_the_sitemaps_pages_are_counted_apart_from_the_renamed_files_page(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli = _renamed_away(tmp_path, page_server)
    paths = [f"/docs/v3.5/{name}/" for name in ("install", "tuning")]
    for path in paths:
        page_server.set_page(path, page("Nothing quoted here."))
    others = [page_server.url(path) for path in paths]
    page_server.set_page("/sitemap.xml", urlset(*others), content_type="application/xml")

    cli("refresh", "--allow-private", "--no-as-read", code=1)
    (relocation,) = cli.json("status", code=1)["relocations"]

    renamed = page_server.url("/docs/v3.5/op-guide/security/")
    assert relocation["note"] == (
        f"the page of its file's new name, {renamed}, gave no page (HTTP 404 Not Found); "
        "no page of its sitemap carries its quotes (2 of its 2 pages read)"
    )


def test_the_renamed_files_page_moved_on_is_proposed_where_it_moved(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The page of the file's new name answers with a 301 to a page that carries none of
    the quotes as written (reworded): it gave a page, so that page is proposed, as one
    answering at the new name's address is, not said to have "gave no page (HTTP 200)"."""
    cli = _renamed_away(tmp_path, page_server)
    moved_to = page_server.url("/docs/v3.5/security/")
    page_server.set_handler("/docs/v3.5/op-guide/security/", redirect(moved_to, 301))
    page_server.set_page("/docs/v3.5/security/", page("Security is set up per cluster."))

    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    (relocation,) = cli.json("status", code=1)["relocations"]

    assert relocation["found_at"] == moved_to
    assert "gave no page" not in said
