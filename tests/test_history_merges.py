"""The docs' history where a pull request is merged with a merge commit, as most vendors'
docs repositories land theirs: the published branch changed at the merge, not at the
branch's own commits. Real git repositories, made here."""

from __future__ import annotations

from pathlib import Path

from cli_runner import Cli
from test_blame import LEDGER, NEW, OLD, PATH, commit, git
from webserver import PageServer

MERGE = "Merge pull request #543 from acme/move-pages"


def _merged_rename(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """docs/guide.md renamed to PATH on a branch, which main merges nine days later (the
    shape of etcd-io/website's #543, which moved a page a folder down)."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = {"written": commit(repo, "docs/guide.md", f"{OLD}\n", "Add", "2026-01-05T10:00:00")}
    git(repo, "checkout", "-q", "-b", "move-pages")
    git(repo, "mv", "docs/guide.md", PATH, date="2026-02-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Move the guide", date="2026-02-01T10:00:00")
    shas["branch"] = git(repo, "rev-parse", "HEAD")
    git(repo, "checkout", "-q", "main")
    commit(repo, "docs/other.md", "Other.\n", "Other page", "2026-02-05T10:00:00")
    git(repo, "merge", "-q", "--no-ff", "-m", MERGE, "move-pages", date="2026-02-10T10:00:00")
    shas["merge"] = git(repo, "rev-parse", "HEAD")
    return repo, shas


def test_a_file_renamed_in_a_merged_branch_left_at_the_merge(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo, shas = _merged_rename(tmp_path)
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/docs/guide/"), quote=OLD), "utf-8")
    cli = Cli(ledger)

    args = ("blame", "durable", "--repo", repo.as_uri(), "--path", "docs/guide.md")
    gone = cli.json(*args)["quotes"][0]["file_gone"]
    said = cli(*args).stdout

    assert gone["in"] == {
        "sha": shas["merge"], "date": "2026-02-10", "author": "Ada Writer", "subject": MERGE,
        "pull_request": 543, "path": "docs/guide.md",
    }  # fmt: skip
    assert gone["renamed_to"] == PATH
    assert f"its file became {PATH} in {shas['merge'][:7]} on 2026-02-10" in said
    assert shas["branch"][:7] not in said


def test_a_file_deleted_in_a_merged_branch_left_at_the_merge(
    tmp_path: Path, page_server: PageServer
) -> None:
    repo, _ = _merged_rename(tmp_path)
    git(repo, "checkout", "-q", "-b", "retire")
    git(repo, "rm", "-q", PATH, date="2026-03-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Retire the guide", date="2026-03-01T10:00:00")
    git(repo, "checkout", "-q", "main")
    commit(repo, "docs/other.md", "Other, again.\n", "Other again", "2026-03-02T10:00:00")
    subject = "Merge pull request #600 from acme/retire"
    git(repo, "merge", "-q", "--no-ff", "-m", subject, "retire", date="2026-03-09T10:00:00")
    merged = git(repo, "rev-parse", "HEAD")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")

    row = Cli(ledger).json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)

    gone = row["quotes"][0]["file_gone"]
    assert (gone["in"]["sha"], gone["in"]["date"]) == (merged, "2026-03-09")
    assert (gone["in"]["pull_request"], gone["renamed_to"]) == (600, None)


def test_a_page_with_a_partial_changed_in_a_merged_branch_changed_at_the_merge(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page that pulls in a partial is read with it, commit by commit: those commits are
    the branch's own too, so a pull request merged with a merge commit is its change there,
    where the page's wording was read as it stood before the merge, at the branch's
    commit, and the merge itself was never read."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "docs/_shared.md", "Shared words.\n", "Add a partial", "2026-01-04T10:00:00")
    text = '# Durability\n\n{}\n\n--8<-- "docs/_shared.md"\n'
    held = commit(repo, PATH, text.format(OLD), "Add the guide", "2026-01-05T10:00:00")
    git(repo, "checkout", "-q", "-b", "soften")
    commit(repo, PATH, text.format(NEW), "Soften the guide", "2026-02-01T10:00:00")
    git(repo, "checkout", "-q", "main")
    commit(repo, "docs/other.md", "Other.\n", "Other page", "2026-02-05T10:00:00")
    subject = "Merge pull request #31 from acme/soften"
    git(repo, "merge", "-q", "--no-ff", "-m", subject, "soften", date="2026-02-10T10:00:00")
    merged = git(repo, "rev-parse", "HEAD")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")

    row = Cli(ledger).json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)

    found = row["quotes"][0]["found"]
    assert (found["last_held_in"]["sha"], found["dropped_in"]["sha"]) == (held, merged)
    assert found["dropped_in"]["pull_request"] == 31
