"""When did the docs change a quote, and in which commit: read from a real git repository
(made here, commit by commit, as a docs repository grows), through the real command."""

from __future__ import annotations

import datetime as dt
import json
import os
import socket
import subprocess
from pathlib import Path

import pytest

from claimledger.errors import InputError
from claimledger.evidence.gitrepo import pinned
from claimledger.evidence.gitrepo import versions as gitrepo_versions
from claimledger.reading.editlinks import parse_file_link, source_file_of
from claimledger.reading.provenance import Version, blame
from claimledger.records import Commit
from cli_runner import Cli
from evidence_site import page
from test_machine_output import validate
from webserver import PageServer

OLD = "Acknowledged writes are never lost, even when a node fails."
NEW = "Acknowledged writes are kept while a majority of nodes is up."
PATH = "docs/durability.md"
GITHUB = "https://github.com/acme/docs"
GITLAB = "https://gitlab.com/group/sub/docs"


def git(repo: Path, *args: str, date: str = "2026-01-01T12:00:00") -> str:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "Ada Writer",
        "GIT_AUTHOR_EMAIL": "ada@example.com",
        "GIT_COMMITTER_NAME": "Ada Writer",
        "GIT_COMMITTER_EMAIL": "ada@example.com",
        "GIT_AUTHOR_DATE": date,
        "GIT_COMMITTER_DATE": date,
    }
    done = subprocess.run(["git", *args], cwd=repo, env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def commit(repo: Path, path: str, text: str, subject: str, date: str) -> str:
    target = repo / path
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(text, encoding="utf-8")
    git(repo, "add", "-A", date=date)
    git(repo, "commit", "-q", "-m", subject, date=date)
    return git(repo, "rev-parse", "HEAD")


@pytest.fixture
def docs_repo(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A docs repository: the sentence written, left alone, renamed with its file, then
    reworded in a pull request, as a vendor's docs history reads."""
    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    text = f"# Durability\n\n**{OLD}**\n"
    shas = {
        "written": commit(repo, "docs/guide.md", text, "Add the guide", "2026-01-05T10:00:00"),
        "touched": commit(
            repo, "docs/guide.md", f"{text}\nSee also.\n", "Link it", "2026-02-01T10:00:00"
        ),
    }
    git(repo, "mv", "docs/guide.md", PATH, date="2026-03-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Move the guide", date="2026-03-01T10:00:00")
    shas["moved"] = git(repo, "rev-parse", "HEAD")
    shas["reworded"] = commit(
        repo, PATH, f"---\ntitle: Durability\n---\n# Durability\n\n{NEW}\n",
        "Rework the durability guide (#181)", "2026-05-15T10:00:00",
    )  # fmt: skip
    return repo, shas


LEDGER = """\
ledger: 1
title: Blame
date_read: 2026-01-10
sections:
  - {{id: main, title: Main}}
sources:
  guide: {{url: "{url}", title: Guide, kind: docs, publisher: example.com}}
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: An acknowledged write survives a node failure.
    quotes:
      - {{text: "{quote}", sources: [guide]}}
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


def test_blame_names_the_commit_that_reworded_the_quote_across_a_rename(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    repo, shas = docs_repo
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=1)  # drifted: the page's wording known

    found = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)
    validate("blame", found)
    (row,) = found["quotes"]
    assert (row["quote_index"], row["source_id"], row["path"]) == (1, "guide", PATH)
    assert row["quote"] == row["quote_index"]  # as it was first named, for readers of it
    assert row["versions_read"] == 4  # the rename followed back to the first commit
    held, dropped = row["found"]["last_held_in"], row["found"]["dropped_in"]
    assert (held["sha"], held["subject"], held["path"]) == (shas["moved"], "Move the guide", PATH)
    assert (dropped["sha"], dropped["date"], dropped["pull_request"]) == (
        shas["reworded"],
        "2026-05-15",
        181,
    )
    assert row["found"]["current_wording_since"] == dropped
    assert dropped["author"] == "Ada Writer"

    # the ledger naming the file by its old name: the rename is followed, never a drop
    renamed = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", "docs/guide.md")
    (row,) = renamed["quotes"]
    assert row["path"] == PATH and row["found"]["dropped_in"]["sha"] == shas["reworded"]
    assert row["file_gone"]["renamed_to"] == PATH

    said = cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH).stdout
    assert f"last held in {shas['moved'][:7]} on 2026-03-01 by Ada Writer: Move" in said
    assert f"reworded or dropped in {shas['reworded'][:7]} on 2026-05-15" in said
    assert "(#181)" in said


def test_blame_finds_the_file_from_the_pages_edit_link_only_on_a_public_host(
    tmp_path: Path, page_server: PageServer
) -> None:
    edit = "https://github.com/acme/docs/edit/main/docs/durability.md"
    page_server.set_page(
        "/durability", page(OLD).replace("</main>", f'<a href="{edit}">Edit this page</a></main>')
    )
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("source", "guide", "--repo", "https://127.0.0.1/acme/docs.git", "--path", PATH)
    refused = cli("blame", "durable", code=2)
    assert "not a public https address" in refused.stderr


def test_a_page_that_names_no_file_is_a_row_of_its_own_schema(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/durability", page(OLD))  # no "Edit this page" link
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    found = Cli(ledger).json("blame", "durable", "--allow-private")
    validate("blame", found)
    assert found["quotes"] == [
        {"claim_id": "durable", "quote_index": 1, "quote": 1, "source_id": "guide",
         "repo": None, "path": None, "found": None},
    ]  # fmt: skip


def test_a_repo_written_as_a_numeric_loopback_address_is_never_contacted(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`2130706433` is 127.0.0.1 to git: a ledger's repo written so reached the machine's
    own services, past the check of a public https address."""
    page_server.set_page("/durability", page(OLD))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    with socket.socket() as listener:
        listener.bind(("127.0.0.1", 0))
        listener.listen()
        listener.setblocking(False)
        port = listener.getsockname()[1]
        cli("source", "guide", "--repo", f"https://2130706433:{port}/acme/docs.git")
        cli("source", "guide", "--path", PATH)

        refused = cli("blame", "durable", code=2)

        assert "not a public https address" in refused.stderr
        with pytest.raises(BlockingIOError):
            listener.accept()  # nobody came


def test_git_is_sent_to_the_addresses_checked_and_never_to_a_private_one() -> None:
    """git resolves names itself: the name is resolved once, and curl handed those very
    addresses, or the repository refused when one is not public."""

    def public(host: str, port: int) -> list[str]:
        return ["140.82.112.3", "2606:50c0:8000::154"]

    def rebound(host: str, port: int) -> list[str]:
        return ["140.82.112.3", "127.0.0.1"]

    options = pinned("https://github.com/acme/docs.git", public)
    assert options == (
        "-c", "http.curloptResolve=github.com:443:140.82.112.3,[2606:50c0:8000::154]",
    )  # fmt: skip
    idn = pinned("https://bücher.example/docs.git", public)
    assert idn[1].startswith("http.curloptResolve=xn--bcher-kva.example:443:")  # curl's name
    assert pinned("https://[2606:4700::1]/docs.git", public) == ()  # nothing to resolve
    with pytest.raises(InputError, match="private or local address"):
        pinned("https://[::ffff:127.0.0.1]/docs.git", public)
    with pytest.raises(InputError, match=r"github.com is a private or local address \(127"):
        pinned("https://u:secret@github.com/acme/docs.git", rebound)
    with pytest.raises(InputError) as refused:
        pinned("https://u:secret@github.com/acme/docs.git", rebound)
    assert "secret" not in str(refused.value)


def test_a_repository_with_a_password_is_not_written_into_the_ledger(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    before = ledger.read_text("utf-8")
    repo = "https://reader:s3cr3t@127.0.0.1/acme/docs.git"
    refused = Cli(ledger)("source", "guide", "--repo", repo, "--path", PATH, code=2)
    (line,) = refused.stderr.splitlines()
    assert line.startswith(
        "claimledger: error: --repo https://127.0.0.1/acme/docs.git holds a user name or password"
    )
    assert "s3cr3t" not in refused.stdout + refused.stderr
    assert ledger.read_text("utf-8") == before


@pytest.mark.parametrize("as_json", [False, True])
def test_a_ledgers_repository_not_cloned_is_named_where_it_is_without_its_password(
    tmp_path: Path, page_server: PageServer, as_json: bool
) -> None:
    """A ledger from elsewhere may hold a password in `repo`: the refusal names the place,
    and the address without it."""
    ledger = tmp_path / "claims.yaml"
    text = LEDGER.format(url=page_server.url("/durability"), quote=OLD)
    held = "guide: {repo: 'https://reader:s3cr3t@127.0.0.1/acme/docs.git', path: docs/a.md, "
    ledger.write_text(text.replace("guide: {", held), "utf-8")
    refused = Cli(ledger)("blame", "durable", *(["--json"] if as_json else []), code=2)
    assert refused.stderr.splitlines() == [
        f"claimledger: error: {ledger}:7:3: source guide: repo "
        "'https://127.0.0.1/acme/docs.git' is not a public https address: give the "
        "repository with --repo and --path to read it"
    ]
    assert "s3cr3t" not in refused.stdout


@pytest.mark.parametrize(
    ("link", "repo", "path"),
    [
        (f"{GITHUB}/edit/main/docs/a.md", f"{GITHUB}.git", "docs/a.md"),
        (f"{GITHUB}/blob/v2/src/content/b.mdx", f"{GITHUB}.git", "src/content/b.mdx"),
        (f"{GITLAB}/-/edit/main/c.md", f"{GITLAB}.git", "c.md"),
    ],
)
def test_an_edit_link_names_the_repository_and_the_file(link: str, repo: str, path: str) -> None:
    found = parse_file_link(link)
    assert found is not None and (found.repo, found.path) == (repo, path)
    html = f"<html><body><main><p>x</p><a href='{link}'>Edit this page</a></main></body></html>"
    assert source_file_of(html, "https://docs.acme.example/a/") == found


def test_a_page_without_an_edit_link_names_no_file() -> None:
    html = "<html><body><a href='https://github.com/acme/docs'>GitHub</a></body></html>"
    assert source_file_of(html, "https://docs.acme.example/") is None


@pytest.mark.parametrize("link", ["https://[x/edit/a", "//[/edit/", "https://a]/blob/x"])
def test_an_edit_link_that_is_no_address_names_no_file(link: str) -> None:
    """A page's link with an unclosed "[" in its host: urllib raised, and the history
    step that looks for the page's edit link with it; now it is a link to no file."""
    html = f"<html><body><a href='{link}'>Edit this page</a></body></html>"
    assert source_file_of(html, "https://docs.acme.example/") is None
    assert parse_file_link(link if "://" in link else f"https:{link}") is None


def test_an_edit_link_to_a_branch_named_like_an_option_names_no_file() -> None:
    assert parse_file_link(f"{GITHUB}/edit/--output=HEAD/docs/a.md") is None
    assert parse_file_link(f"{GITHUB}/edit/-q/docs/a.md") is None


def test_a_quote_still_held_has_no_dropping_commit() -> None:
    first = Commit("a" * 40, "2026-01-01", "A", "Add", "docs/x.md")
    newest = Commit("b" * 40, "2026-02-01", "A", "Touch", "docs/x.md")
    versions = [Version(newest, f"{OLD}\n"), Version(first, f"{OLD}\n")]
    found = blame(versions, OLD)
    assert (found.held, found.dropped) == (newest, None)
    assert blame(versions, "Words nobody wrote here.").held is None
    assert json.dumps(found.versions) == "2"


def test_what_blame_found_is_kept_and_shown_beside_the_change(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    """The history is evidence: kept in the store by `blame`, then said by `diff` and by
    the report beside the quote's change, with no repository read again."""
    repo, shas = docs_repo
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    assert "in the docs' history" not in cli("diff", code=1).stdout  # nothing read yet
    cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)
    (repo / ".git").rename(repo / "gone")  # what is shown next is read from the store

    said = " ".join(cli("diff", "durable", code=1).stdout.split())
    told = cli.json("diff", "durable", code=1)["histories"]
    report = tmp_path / "report.md"
    cli("render", "-o", str(report))

    line = (
        f"in the docs' history: reworded on 2026-05-15 in “Rework the durability guide "
        f"(#181)”, commit {shas['reworded'][:7]}"
    )
    assert line in said
    assert [(h["source_id"], h["dropped"]["sha"]) for h in told] == [("guide", shas["reworded"])]
    (shown,) = [x for x in report.read_text("utf-8").splitlines() if "docs' history" in x]
    assert "reworded on 2026-05-15" in shown and f"commit {shas['reworded'][:7]}" in shown


def test_a_commit_on_a_known_code_host_is_linked() -> None:
    from claimledger.records import QuoteHistory

    commit = Commit("0123456789abcdef", "2026-05-15", "Ada", "Rework (#181)", PATH)

    def history(repo: str) -> QuoteHistory:
        return QuoteHistory(
            "c", "q", "s", repo, PATH, None, None, commit, None, 3, dt.datetime.now(dt.UTC)
        )

    assert history(f"{GITHUB}.git").commit_link(commit) == f"{GITHUB}/commit/0123456789abcdef"
    assert history(f"{GITLAB}.git").commit_link(commit) == f"{GITLAB}/-/commit/0123456789abcdef"
    assert history("https://git.example.org/docs.git").commit_link(commit) is None


def test_status_and_explain_carry_the_kept_history(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    repo, shas = docs_repo
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)

    status = cli.json("status", code=1)["histories"]
    explained = cli.json("explain", "durable")["histories"]
    said = cli("explain", "durable").stdout

    assert [h["dropped"]["sha"] for h in status] == [shas["reworded"]]
    assert explained == status
    assert "changed on 2026-05-15 in “Rework the durability guide (#181)”, commit " in said
    assert f"(last held in {shas['moved'][:7]})" in said


def test_a_renamed_file_proposes_where_its_page_went(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    """The page was built from docs/guide.md; the repository renamed it: blame names the
    commit and proposes the page at the new file's name, as a move to adopt."""
    repo, shas = docs_repo
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/docs/guide/"), quote=OLD), "utf-8")
    cli = Cli(ledger)

    row = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", "docs/guide.md")
    said = cli("blame", "durable", "--repo", repo.as_uri(), "--path", "docs/guide.md").stdout

    gone = row["quotes"][0]["file_gone"]
    assert (gone["in"]["sha"], gone["renamed_to"]) == (shas["moved"], PATH)
    assert gone["page_now"] == page_server.url("/docs/durability/")
    assert f"its file became {PATH} in {shas['moved'][:7]}" in said
    assert f"`claimledger move guide {page_server.url('/docs/durability/')}`" in said


def test_a_deleted_file_is_said_with_its_commit(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    repo, _ = docs_repo
    git(repo, "rm", "-q", PATH, date="2026-06-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Retire the durability guide", date="2026-06-01T10:00:00")
    retired = git(repo, "rev-parse", "HEAD")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)

    found = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)
    validate("blame", found)
    row = found["quotes"][0]
    said = cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH).stdout

    assert row["file_gone"] == {
        "in": {
            "sha": retired, "date": "2026-06-01", "author": "Ada Writer",
            "subject": "Retire the durability guide", "pull_request": None, "path": PATH,
        },
        "renamed_to": None,
        "page_now": None,
    }  # fmt: skip
    assert f"its file was deleted in {retired[:7]} on 2026-06-01" in said


def test_a_file_still_there_has_no_fate(
    tmp_path: Path, page_server: PageServer, docs_repo: tuple[Path, dict[str, str]]
) -> None:
    repo, _ = docs_repo
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    row = Cli(ledger).json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)
    assert row["quotes"][0]["file_gone"] is None


@pytest.mark.parametrize(
    ("url", "old", "new", "now"),
    [
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/durability.md",
         "https://d.test/docs/durability/"),
        ("https://d.test/guide.html#top", "src/guide.rst", "src/wal.rst", "https://d.test/wal.html"),
        ("https://d.test/docs/intro/", "docs/guide.md", "docs/durability.md", None),
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/...md", None),  # not docs/../
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/a?b=c.md", None),
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/wal#x.md", None),
        ("https://d.test/docs/guide/", "docs/guide.md", "docs/write_ahead-log.v2.md",
         "https://d.test/docs/write_ahead-log.v2/"),
    ],
)  # fmt: skip
def test_a_page_follows_its_renamed_file_only_where_the_convention_is_plain(
    url: str, old: str, new: str, now: str | None
) -> None:
    from claimledger.reading.provenance import page_after_rename

    assert page_after_rename(url, old, new) == now


def _long_history(
    tmp_path: Path, name: str, *, before: int = 0, between: int = 0
) -> tuple[Path, str, str]:
    """A docs repository where `before` commits touch other things, the quote is written,
    `between` more go by, and the sentence is reworded: the sha that wrote it, and the
    sha that reworded it."""
    repo = tmp_path / name
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for n in range(before):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"Setup {n}", date="2024-06-01T10:00")
    written = commit(repo, PATH, f"# Durability\n\n{OLD}\n", "Add the guide", "2025-01-05T10:00")
    for n in range(between):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"Other work {n}", date="2025-06-01T10:00")
    reworded = commit(repo, PATH, f"# Durability\n\n{NEW}\n", "Rework (#9)", "2026-05-15T10:00")
    return repo, written, reworded


def _clone_in_cache(repo: Path) -> Path:
    from claimledger.evidence.gitrepo import clone_folder

    return clone_folder(repo.as_uri())


def _blame_row(tmp_path: Path, page_server: PageServer, repo: Path) -> dict[str, object]:
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / f"ledger-{repo.name}" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)["quotes"]
    return dict(row)


def _held_and_dropped(row: dict[str, object]) -> tuple[str, str]:
    """The commits a blame row names: the last that held the quote, the one that dropped it."""
    found = row["found"]
    assert isinstance(found, dict)
    return found["last_held_in"]["sha"], found["dropped_in"]["sha"]


def test_a_new_clone_is_shallow_when_the_change_is_recent(
    tmp_path: Path, page_server: PageServer
) -> None:
    from claimledger.evidence.gitrepo import SHALLOW_DEPTH

    repo, written, reworded = _long_history(tmp_path, "recent", before=SHALLOW_DEPTH + 40)
    row = _blame_row(tmp_path, page_server, repo)

    assert _held_and_dropped(row) == (written, reworded)
    clone = _clone_in_cache(repo)  # the older history was never needed, nor fetched
    assert (clone / "shallow").is_file()
    assert git(clone, "rev-list", "--count", "--all") == str(SHALLOW_DEPTH)


def test_a_quote_older_than_the_shallow_history_is_found_by_deepening(
    tmp_path: Path, page_server: PageServer
) -> None:
    from claimledger.evidence.gitrepo import SHALLOW_DEPTH

    repo, written, reworded = _long_history(tmp_path, "deep", between=SHALLOW_DEPTH + 40)
    row = _blame_row(tmp_path, page_server, repo)

    assert _held_and_dropped(row) == (written, reworded)
    found = row["found"]
    assert isinstance(found, dict) and found["dropped_in"]["pull_request"] == 9
    total = git(repo, "rev-list", "--count", "--all")
    assert git(_clone_in_cache(repo), "rev-list", "--count", "--all") == total


def test_a_file_deleted_before_the_shallow_history_is_found_by_deepening(
    tmp_path: Path, page_server: PageServer
) -> None:
    from claimledger.evidence.gitrepo import SHALLOW_DEPTH

    repo, _, _ = _long_history(tmp_path, "deleted")
    git(repo, "rm", "-q", PATH, date="2026-06-01T10:00")
    git(repo, "commit", "-q", "-m", "Retire the guide", date="2026-06-01T10:00")
    retired = git(repo, "rev-parse", "HEAD")
    for n in range(SHALLOW_DEPTH + 10):
        git(repo, "commit", "-q", "--allow-empty", "-m", f"Later {n}", date="2026-07-01T10:00")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")

    row = Cli(ledger).json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)
    assert row["quotes"][0]["file_gone"]["in"]["sha"] == retired


def test_a_repository_that_is_itself_a_shallow_clone_is_deepened_no_further_than_it_goes(
    tmp_path: Path,
    page_server: PageServer,
    docs_repo: tuple[Path, dict[str, str]],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A CI checkout (`fetch-depth: 1`) holds no more history to give: each deepening
    brought nothing, and the step asked again until the run's time budget ran out."""
    import claimledger.evidence.gitrepo as gitrepo

    repo, _ = docs_repo
    shallow = tmp_path / "checkout"
    subprocess.run(["git", "clone", "-q", "--depth=1", repo.as_uri(), str(shallow)], check=True)
    fetches: list[tuple[str, ...]] = []
    watched = gitrepo._watched

    def counted(where: Path, clone: Path, bounds: gitrepo.Bounds, at: str, *args: str) -> None:
        fetches.append(args)
        assert len(fetches) < 8, "the clone is deepened again and again"
        watched(where, clone, bounds, at, *args)

    monkeypatch.setattr(gitrepo, "_watched", counted)
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")

    said = Cli(ledger).json("blame", "durable", "--repo", shallow.as_uri(), "--path", PATH)

    assert said["quotes"][0]["found"]["last_held_in"] is None  # not in the history there is
    assert len(fetches) <= 3  # the clone, then one deepening that brought nothing


def test_the_versions_are_the_branchs_own_and_dated_as_they_landed(tmp_path: Path) -> None:
    """A branch merged in is one change, at its merge (a plain log leaves merges out, and
    its newest "version" was a branch's commit, still holding words the file had lost);
    a commit written before a day and landed after it is no version of that day."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, PATH, f"{OLD}\n\nOther.\n", "Add the guide", "2026-01-01T10:00:00")
    git(repo, "checkout", "-q", "-b", "side")
    commit(repo, PATH, f"{OLD}\n\nOther, longer.\n", "Expand other", "2026-01-15T10:00:00")
    git(repo, "checkout", "-q", "main")
    reworded = commit(repo, PATH, f"{NEW}\n\nOther.\n", "Reword (#5)", "2026-01-10T10:00:00")
    git(repo, "merge", "-q", "--no-edit", "side", date="2026-01-20T10:00:00")
    late = {**os.environ, "GIT_AUTHOR_DATE": "2026-01-25T10:00:00"}  # landed on 03-10
    (repo / PATH).write_text(f"{NEW} Later.\n\nOther, longer.\n", encoding="utf-8")
    git(repo, "add", "-A", date="2026-03-10T10:00:00")
    subprocess.run(
        ["git", "commit", "-q", "-m", "Late"],
        cwd=repo,
        check=True,
        env={**late, "GIT_COMMITTER_DATE": "2026-03-10T10:00:00", "GIT_AUTHOR_NAME": "Bo",
             "GIT_AUTHOR_EMAIL": "b@x", "GIT_COMMITTER_NAME": "Bo", "GIT_COMMITTER_EMAIL": "b@x"},
    )  # fmt: skip

    found = gitrepo_versions(repo, PATH)

    assert [v.commit.subject for v in found][:3] == ["Late", "Merge branch 'side'", "Reword (#5)"]
    assert found[0].commit.date == "2026-03-10"  # as it landed, not as it was written
    assert "Expand other" not in [v.commit.subject for v in found]
    said = blame(found, OLD, f"{NEW} Later.")
    assert said.dropped is not None and said.dropped.sha == reworded


def test_past_the_versions_read_the_current_wording_has_no_first_commit(tmp_path: Path) -> None:
    """Read to its cap, a long history does not say when the current wording began: the
    oldest version read holds it, and so may every older one; nor that the quote was in
    no version of the file, only in none of those read."""
    from claimledger.evidence.gitrepo import MAX_VERSIONS, Bounds, Repositories

    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    stream = [f"{NEW}\n\nEdit {n}.\n" for n in range(MAX_VERSIONS + 20)]
    marks = "".join(
        f"commit refs/heads/main\ncommitter Bot <b@x> {1767225600 + n * 60} +0000\n"
        f"data 4\nEdit\nM 644 inline {PATH}\ndata {len(text.encode())}\n{text}\n"
        for n, text in enumerate(stream)
    )
    done = subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=repo, input=marks, text=True, capture_output=True
    )
    assert done.returncode == 0, done.stderr

    said = Repositories(Bounds()).blame(repo.as_uri(), PATH, "main", OLD, NEW)

    assert said.versions == MAX_VERSIONS
    assert said.held is None and said.current_since is None


@pytest.mark.parametrize(
    ("suffix", "text"),
    [
        (".rst", "Writes are **always** durable once\nacknowledged by a ``quorum``.\n"),
        (".rst", "Writes are *always* durable once acknowledged by a :term:`quorum`.\n"),
        (".adoc", "Writes are *always* durable once acknowledged by a `quorum`.\n"),
        (".adoc", "Writes are _always_ durable once acknowledged by a link:q.html[quorum].\n"),
    ],
)
def test_a_sentence_under_light_markup_is_held_as_its_page_reads_it(suffix: str, text: str) -> None:
    """A page's sentence written with reStructuredText's or AsciiDoc's inline markup: the
    file was said to hold it in no version, the page in every one."""
    from claimledger.reading.provenance import holds

    assert holds(
        text, f"docs/page{suffix}", "Writes are always durable once acknowledged by a quorum."
    )
    assert holds("snake_case_name is kept.\n", f"docs/p{suffix}", "snake_case_name is kept.")


def test_a_version_that_cannot_be_read_is_never_named_as_the_change(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A version of the file that is binary (or too large to read) between the last that
    held the quote and the rewording: the change lies somewhere in that range, not in the
    version nobody could read, which was named as the commit that dropped the words."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    held = commit(repo, PATH, f"{OLD}\n", "Add the guide", "2026-01-05T10:00:00")
    binary = commit(repo, PATH, "\x00garbled\n", "Break the file", "2026-02-01T10:00:00")
    reworded = commit(repo, PATH, f"{NEW}\n", "Reword (#7)", "2026-03-01T10:00:00")
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "ledger" / "claims.yaml"
    ledger.parent.mkdir()
    ledger.write_text(LEDGER.format(url=page_server.url("/durability"), quote=OLD), "utf-8")
    cli = Cli(ledger)

    (row,) = cli.json("blame", "durable", "--repo", repo.as_uri(), "--path", PATH)["quotes"]
    said = cli("blame", "durable", "--repo", repo.as_uri(), "--path", PATH).stdout

    assert row["found"]["last_held_in"]["sha"] == held
    assert row["found"]["dropped_in"]["sha"] == reworded
    assert [c["sha"] for c in row["unreadable_between"]] == [binary]
    assert f"reworded or dropped by {reworded[:7]}" in said
    assert f"or before it, in a version that could not be read ({binary[:7]})" in said
    newest_unread = blame(
        [Version(Commit("b" * 40, "2026-02-01", "A", "Break", PATH), None),
         Version(Commit("a" * 40, "2026-01-01", "A", "Add", PATH), f"{OLD}\n")],
        OLD,
    )  # fmt: skip
    assert newest_unread.dropped is None and [c.sha for c in newest_unread.unread] == ["b" * 40]


def test_a_commit_dated_the_day_before_its_parent_in_another_time_zone_is_no_backdating(
    tmp_path: Path,
) -> None:
    """Each commit is dated in its committer's own time zone: a child made three hours
    after its parent, in New York after Berlin, is dated the day before it, and is the
    file as it stood on the reading day all the same; one dated days before its parent
    was backdated, and when it landed is unknown."""
    from claimledger.evidence.gitrepo import Bounds, Repositories

    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for text, date in [
        ("One.", "2026-01-01T12:00:00+00:00"),
        ("Two.", "2026-01-06T00:30:00+01:00"),
        ("Three.", "2026-01-05T22:00:00-05:00"),
    ]:
        (repo / PATH).parent.mkdir(parents=True, exist_ok=True)
        (repo / PATH).write_text(text + "\n", "utf-8")
        git(repo, "add", PATH)
        git(repo, "commit", "-qm", text, date=date)
    found = Repositories(Bounds()).version_on(repo.as_uri(), PATH, "main", "2026-01-10")
    assert found is not None and found.text == "Three.\n"

    (repo / PATH).write_text("Four.\n", "utf-8")
    git(repo, "commit", "-qam", "Four.", date="2026-01-03T12:00:00+00:00")
    assert Repositories(Bounds()).version_on(repo.as_uri(), PATH, "main", "2026-01-10") is None


def test_the_version_before_the_current_wording_is_named_as_text(tmp_path: Path) -> None:
    """A file too large to read, under a name that is no UTF-8, renamed to the page's file:
    blame named it, as the version before the current wording, with git's raw byte, which
    `blame --json` printed as is (a clone's file names are its own to choose)."""
    from claimledger.evidence.gitrepo import MAX_FILE_BYTES, Bounds, Repositories

    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    big = f"{NEW}\n" + "x " * (MAX_FILE_BYTES // 2) + "\n"
    small = f"{NEW}\n" + "x " * (MAX_FILE_BYTES // 2 - 1000) + "\n"  # alike: a rename
    stream = (
        "commit refs/heads/main\ncommitter Bot <b@x> 1767225600 +0000\ndata 3\nBig\n"
        f'M 644 inline "docs/\\377.md"\ndata {len(big)}\n{big}\n'
        "commit refs/heads/main\ncommitter Bot <b@x> 1767225660 +0000\ndata 6\nRename\n"
        f'D "docs/\\377.md"\nM 644 inline {PATH}\ndata {len(small)}\n{small}\n'
    )
    done = subprocess.run(
        ["git", "fast-import", "--quiet"], cwd=repo, input=stream.encode(), capture_output=True
    )
    assert done.returncode == 0, done.stderr

    said = Repositories(Bounds()).blame(repo.as_uri(), PATH, "main", OLD, NEW)

    assert said.before_current is not None
    assert said.before_current.path == "docs/\ufffd.md"
