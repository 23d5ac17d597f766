"""A page's source file the repository deleted (or renamed) while the page still answers:
the commit that took the file away is the change, not a version that could not be read.
The shape of a ledger whose `path` names a file etcd-io/website moved in its #543. Real
git repositories, made here."""

from __future__ import annotations

from pathlib import Path

from claimledger.reading.provenance import Version, blame
from claimledger.records import Commit
from cli_runner import Cli
from evidence_site import page
from test_blame import NEW, OLD, PATH, commit, git
from test_history_unread import LEDGER
from webserver import PageServer


def test_the_commit_that_deleted_the_file_is_the_change(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    written = commit(repo, PATH, f"# Guide\n\n{OLD}\n", "Add the guide", "2026-01-05T10:00:00")
    commit(repo, "docs/other.md", f"{NEW}\n", "Add another page", "2026-02-01T10:00:00")
    git(repo, "rm", "-q", PATH, date="2026-03-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Retire the guide (#77)", date="2026-03-01T10:00:00")
    retired = git(repo, "rev-parse", "HEAD")
    page_server.set_page("/guide", page(NEW))  # still answers, from another file
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/guide"), quote=OLD, path=PATH), "utf-8")
    cli = Cli(ledger)
    cli("trust")

    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    (history,) = cli.json("status", code=1)["histories"]

    assert (
        f"history: durable #1 on guide: changed on 2026-03-01 in “Retire the guide (#77)”, "
        f"commit {retired[:7]}, last held in {written[:7]}"
    ) in said
    assert "could not be read" not in said
    assert (history["dropped"]["sha"], history["unread"]) == (retired, [])


def test_a_deleted_version_holds_nothing_and_is_no_unread_one() -> None:
    def at(sha: str) -> Commit:
        return Commit(sha, "2026-01-01", "A", sha, PATH)

    gone, binary, held = at("c3"), at("c2"), at("c1")
    versions = [Version(gone, None, deleted=True), Version(binary, None), Version(held, OLD)]

    said = blame(versions, OLD, "Something else.")

    assert (said.held, said.dropped, said.unread) == (held, gone, (binary,))  # one of them
    plain = blame([versions[0], versions[2]], OLD)
    assert (plain.dropped, plain.unread) == (gone, ())
