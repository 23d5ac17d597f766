"""A docs repository is someone else's: its commit messages, authors, file names and the
branch a page's edit link names are read as data, whatever bytes they hold, and never as
git's options. Each repository here is real, made commit by commit."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from claimledger.errors import InputError
from claimledger.evidence.gitrepo import versions
from cli_runner import Cli
from test_blame import LEDGER, NEW, OLD, PATH, commit, git

DAY = "2026-01-05T10:00:00"


def repository(tmp_path: Path) -> Path:
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    return repo


def test_a_subject_holding_separators_is_read_whole(tmp_path: Path) -> None:
    """The log was once cut at bytes \\x1e and \\x1f; a subject holding one ended the
    run with an internal error."""
    repo = repository(tmp_path)
    commit(repo, "docs/a.md", "One.\n", "Add\x1ethe\x1fguide", DAY)
    commit(repo, "docs/a.md", "Two.\n", "Reword it", "2026-02-05T10:00:00")

    found = versions(repo, "docs/a.md", "main")

    assert [(v.commit.subject, v.text) for v in found] == [
        ("Reword it", "Two.\n"),
        ("Add\x1ethe\x1fguide", "One.\n"),
    ]


@pytest.mark.parametrize("name", ["docs/caf\u00e9.md", "docs/guide blob", 'docs/"quoted".md'])
def test_a_file_whose_name_git_would_quote_is_read(tmp_path: Path, name: str) -> None:
    """git quotes a name with non-ASCII letters or quotes where it lists it, and the
    quoted name named no file: every version read as having no text."""
    repo = repository(tmp_path)
    commit(repo, name, "One.\n", "Add it", DAY)
    commit(repo, name, "Two.\n", "Reword it", "2026-02-05T10:00:00")

    assert [v.text for v in versions(repo, name, "main")] == ["Two.\n", "One.\n"]


def test_a_file_named_like_a_missing_object_deleted_and_added_back_is_read(
    tmp_path: Path,
) -> None:
    """`cat-file` says a version that is not there as "<name> missing": a name ending in
    " blob" was read as a blob of size "missing", an internal error."""
    repo = repository(tmp_path)
    commit(repo, "docs/guide blob", "One.\n", "Add it", DAY)
    git(repo, "rm", "-q", "docs/guide blob")
    git(repo, "commit", "-q", "-m", "Drop it")
    commit(repo, "docs/guide blob", "Back.\n", "Bring it back", "2026-03-05T10:00:00")

    texts = [v.text for v in versions(repo, "docs/guide blob", "main")]

    assert texts[0] == "Back.\n" and texts[-1] == "One.\n"


@pytest.mark.parametrize(
    "name",
    ["docs/a\x0cb.md", "docs/a\u2028b.md", "docs/a\x1cb.md", os.fsdecode(b"docs/caf\xe9.md")],
    ids=["form-feed", "line-separator", "file-separator", "latin-1"],
)
def test_a_file_named_with_a_line_end_of_python_or_no_utf8_deleted_twice_is_read(
    tmp_path: Path, name: str
) -> None:
    """git echoes the name of each version not there ("<name> missing"): one holding a
    form feed or U+2028, cut there as a line's end, put every later answer against the
    version before its own (a deletion asked for as a blob, an internal error); one in
    bytes that are no UTF-8 never matched its name, and each deletion was read as a
    version that could not be read, where the change might lie."""
    repo = repository(tmp_path)
    for number, day in enumerate(("2026-01-05", "2026-02-05", "2026-03-05"), start=1):
        if number > 1:
            git(repo, "rm", "-q", "--", name)
            git(repo, "commit", "-q", "-m", f"Drop it ({number})", date=f"{day}T09:00:00")
        commit(repo, name, f"Version {number}.\n", f"Add it ({number})", f"{day}T10:00:00")

    found = versions(repo, name, "main")

    assert [(v.text, v.deleted) for v in found] == [
        ("Version 3.\n", False), (None, True), ("Version 2.\n", False), (None, True),
        ("Version 1.\n", False),
    ]  # fmt: skip
    assert not any(v.unreadable for v in found)


def test_a_file_whose_name_holds_a_line_break_has_no_text_and_breaks_nothing(
    tmp_path: Path,
) -> None:
    repo = repository(tmp_path)
    commit(repo, "docs/a\nb.md", "One.\n", "Add it", DAY)
    commit(repo, "docs/c.md", "Other.\n", "Add another", "2026-02-05T10:00:00")

    assert [v.text for v in versions(repo, "docs/a\nb.md", "main")] == [None]
    assert [v.text for v in versions(repo, "docs/c.md", "main")] == ["Other.\n"]


def test_a_file_whose_name_reads_as_a_pattern_is_that_file_alone(tmp_path: Path) -> None:
    """A dynamic route's page (`docs/[id].md`) was a pattern to git: its history held
    `docs/i.md`'s versions, named as the page's changes, and `docs/i.md` deleted later
    was the page's file deleted."""
    from claimledger.evidence.gitrepo import Repositories

    repo = repository(tmp_path)
    commit(repo, "docs/[id].md", "Page one.\n", "Add the page", DAY)
    commit(repo, "docs/i.md", "Other.\n", "Add another", "2026-02-05T10:00:00")
    commit(repo, "docs/[id].md", "Page two.\n", "Reword the page", "2026-03-05T10:00:00")
    git(repo, "mv", "docs/[id].md", "docs/page.md")
    git(repo, "commit", "-q", "-m", "Rename the page", date="2026-04-05T10:00:00")
    git(repo, "rm", "-q", "docs/i.md")
    git(repo, "commit", "-q", "-m", "Drop the other", date="2026-05-05T10:00:00")

    found = versions(repo, "docs/[id].md", "HEAD~2")
    fate = Repositories().gone(str(repo), "docs/[id].md", "main")

    assert [v.commit.subject for v in found] == ["Reword the page", "Add the page"]
    assert fate is not None
    assert (fate.commit.subject, fate.renamed_to) == ("Rename the page", "docs/page.md")


def test_a_branch_named_like_an_option_is_never_read_as_one(tmp_path: Path) -> None:
    """An edit link's branch (`/edit/--output=HEAD/docs/a.md`) went to `git log` before
    its `--`: git wrote its log over the clone's HEAD. It is a revision name now, and
    no such revision is there."""
    repo = repository(tmp_path)
    commit(repo, "docs/a.md", "One.\n", "Add it", DAY)
    head = (repo / ".git" / "HEAD").read_bytes()

    with pytest.raises(InputError, match="git log"):
        versions(repo, "docs/a.md", "--output=HEAD")

    assert (repo / ".git" / "HEAD").read_bytes() == head


def test_the_history_budget_counts_the_reading_of_each_version() -> None:
    """A hostile page's every version may take seconds to render (markdown of 400 KB of
    `[`: 7 s): the run's time for the history is asked before each version is read,
    where only git's own time was counted and 400 versions ran for hours."""
    from claimledger.errors import HistoryStopped
    from claimledger.evidence.gitrepo import Bounds, Repositories
    from claimledger.reading.provenance import Version, blame
    from claimledger.records import Commit

    spent = Repositories(bounds=Bounds(deadline=0.0))
    read: list[int] = []

    def in_time() -> None:
        read.append(1)
        spent.in_time()

    old = [
        Version(Commit(f"{n:040x}", "2026-01-01", "Ada", "Edit", "a.md"), "Text.\n")
        for n in range(5)
    ]
    with pytest.raises(HistoryStopped, match="history_budget"):
        blame(old, "A sentence never written.", before_each=in_time)
    assert read == [1]


def test_a_file_once_named_in_bytes_that_are_no_utf8_is_blamed_and_kept(tmp_path: Path) -> None:
    """A file's old name in Latin-1 (`caf\\xe9.md`): the commit that last held the quote
    there was named with it, and keeping or printing the name was an internal error."""
    repo = repository(tmp_path)
    latin1 = os.fsdecode(b"docs/caf\xe9.md")
    kept = "".join(f"Line {n} of the guide stays as it was.\n\n" for n in range(20))
    written = commit(repo, latin1, f"{kept}{OLD}\n", "Add the guide", DAY)
    git(repo, "rm", "-q", "--cached", latin1)
    (repo / latin1).unlink()
    reworded = commit(repo, PATH, f"{kept}{NEW}\n", "Rename and reword", "2026-02-05T10:00:00")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url="https://docs.example.com/durability", quote=OLD), "utf-8")
    cli = Cli(ledger)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)["quotes"]
    said = cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH).stdout

    held, dropped = row["found"]["last_held_in"], row["found"]["dropped_in"]
    assert (held["sha"], held["path"]) == (written, "docs/caf\ufffd.md")
    assert dropped["sha"] == reworded
    assert f"last held in {written[:7]}" in said


def test_a_file_renamed_to_bytes_that_are_no_utf8_is_followed_under_its_new_name(
    tmp_path: Path,
) -> None:
    """The ledger names the file by its old name; it was renamed to a Latin-1 name and
    reworded there: git is asked for the new name in its own bytes (shown with U+FFFD, it
    named no file, and the history after the rename was silently lost)."""
    repo = repository(tmp_path)
    latin1 = os.fsdecode(b"docs/caf\xe9.md")
    kept = "".join(f"Line {n} of the guide stays as it was.\n\n" for n in range(20))
    commit(repo, PATH, f"{kept}{OLD}\n", "Add the guide", DAY)
    git(repo, "mv", PATH, latin1)
    git(repo, "commit", "-q", "-m", "Rename the guide", date="2026-01-20T10:00:00")
    renamed = git(repo, "rev-parse", "HEAD").strip()
    reworded = commit(repo, latin1, f"{kept}{NEW}\n", "Reword the guide", "2026-02-05T10:00:00")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url="https://docs.example.com/durability", quote=OLD), "utf-8")

    (row,) = Cli(ledger).json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)["quotes"]

    assert row["file_gone"]["renamed_to"] == "docs/caf\ufffd.md"
    held, dropped = row["found"]["last_held_in"], row["found"]["dropped_in"]
    assert (held["sha"], held["path"]) == (renamed, "docs/caf\ufffd.md")
    assert dropped["sha"] == reworded


def test_a_kept_history_of_a_file_named_in_bytes_that_are_no_utf8_is_reused() -> None:
    """The history kept names the file as text (U+FFFD for each byte that is no UTF-8),
    the next run asks for it in git's own bytes: compared so, they never matched, and a
    final history was read from the repository again on every refresh."""
    import datetime as dt

    from claimledger.evidence.history import FileAt, _reusable
    from claimledger.records import Commit, QuoteHistory
    from claimledger.versions import HISTORY

    raw = os.fsdecode(b"docs/caf\xe9.md")
    change = Commit("abc1234", "2026-02-05", "Ada", "Reword", "docs/caf\ufffd.md")
    kept = QuoteHistory(
        "durable", OLD, "guide", "file:///repo", "docs/caf\ufffd.md", NEW, None, change, None, 3,
        dt.datetime(2026, 2, 6, tzinfo=dt.UTC), ref="main", history_version=HISTORY,
    )  # fmt: skip

    assert _reusable(kept, FileAt("file:///repo", raw, "main", "the ledger"), NEW) is kept


@pytest.mark.parametrize(
    ("subject", "number"),
    [
        ("Reword the guide (#" + "9" * 5000 + ")", None),
        ("Merge pull request #" + "9" * 5000 + " from ada/reword", None),
        ("Merge pull request #181 from ada/reword", 181),
    ],
)
def test_a_subject_naming_a_pull_request_of_thousands_of_digits_names_none(
    tmp_path: Path, subject: str, number: int | None
) -> None:
    """Python turns no number of more than 4,300 digits into an int: `blame` of a commit
    whose subject named one as its pull request ended in an internal error (exit 70)."""
    repo = repository(tmp_path)
    commit(repo, PATH, f"{OLD}\n", "Add the guide", DAY)
    commit(repo, PATH, f"{NEW}\n", subject, "2026-02-05T10:00:00")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url="https://docs.example.com/durability", quote=OLD), "utf-8")
    cli = Cli(ledger)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)["quotes"]
    cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)

    assert row["found"]["dropped_in"]["pull_request"] == number


def test_a_file_named_with_a_nul_byte_is_refused_in_one_line(tmp_path: Path) -> None:
    """A ledger's `path: "docs/a\\0b.md"` (or an edit link's `%00`) went to git as an
    argument, which no process can be given: `blame` and `refresh` ended in an internal
    error (exit 70). `blame` refuses it in one line; `refresh` says it and goes on."""
    repo = repository(tmp_path)
    commit(repo, PATH, f"{OLD}\n", "Add the guide", DAY)
    cli = trusted_ledger_naming(tmp_path, f"{repo}", "docs/dur\\0ability.md")

    said = cli("blame", "durable", code=2).stderr

    assert said.strip().splitlines() == [
        "claimledger: error: a repository, branch or path holding a NUL byte: git can read none"
    ]


def test_a_local_repository_named_with_a_nul_byte_is_refused_in_one_line(tmp_path: Path) -> None:
    """A trusted ledger's `repo: "/tmp/x\\0-repo"` reached the file system, which raised
    on the name: `blame` ended in an internal error (exit 70)."""
    cli = trusted_ledger_naming(tmp_path, f"{tmp_path}/x\\0-repo", PATH)
    (line,) = cli("blame", "durable", code=2).stderr.strip().splitlines()
    assert line.startswith("claimledger: error: repo ") and "holds a NUL byte" in line, line


def trusted_ledger_naming(tmp_path: Path, repo: str, path: str) -> Cli:
    """A trusted ledger whose source names `repo` and `path` as YAML escapes them."""
    ledger = tmp_path / "claims.yaml"
    written = LEDGER.format(url="https://docs.example.com/durability", quote=OLD)
    named = f'publisher: example.com, repo: "{repo}", path: "{path}"}}'
    ledger.write_text(written.replace("publisher: example.com}", named), "utf-8")
    cli = Cli(ledger)
    cli("trust")
    return cli
