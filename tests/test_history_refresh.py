"""The refresh's history step: a quote not found as written is looked up in the history of
its page's source file, read from a real git repository made here commit by commit (a
rewording, a removal, a rename), through the real command, kept, bounded and safe."""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from claimledger.ledger.file import load
from cli_runner import Cli
from evidence_site import page
from test_blame import commit, git
from webserver import PageServer

if TYPE_CHECKING:
    from claimledger.evidence.history import HistoryRun

KEPT = "Each node keeps a write-ahead log on local disk."
OLD = "Acknowledged writes are never lost, even when a node fails."
NEW = "Acknowledged writes are kept while a majority of nodes is up."
CUT = "Snapshots are taken every hour without pausing writes."
PATH = "docs/durability.md"

LEDGER = """\
ledger: 1
title: History
date_read: 2026-01-10
sections:
  - {{id: main, title: Main}}
sources:
  guide: {{url: "{url}", title: Guide, kind: docs, publisher: example.com{extra}}}
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: An acknowledged write survives a node failure.
    quotes:
      - {{text: "{old}", sources: [guide]}}
      - {{text: "{cut}", sources: [guide]}}
      - {{text: "{kept}", sources: [guide]}}
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


def make_docs_repo(repo: Path) -> dict[str, str]:
    """The guide written, moved to its own name, a sentence removed, then reworded in a
    pull request: a vendor's docs history in four commits."""
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    body = f"# Durability\n\n{KEPT}\n\n**{OLD}**\n\n{CUT}\n"
    shas = {"written": commit(repo, "docs/guide.md", body, "Add the guide", "2026-01-05T10:00:00")}
    git(repo, "mv", "docs/guide.md", PATH, date="2026-02-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Move the guide", date="2026-02-01T10:00:00")
    shas["moved"] = git(repo, "rev-parse", "HEAD")
    body = f"# Durability\n\n{KEPT}\n\n**{OLD}**\n"
    shas["removed"] = commit(repo, PATH, body, "Drop the snapshot promise", "2026-03-01T10:00:00")
    body = f"# Durability\n\n{KEPT}\n\n{NEW}\n"
    shas["reworded"] = commit(
        repo, PATH, body, "Rework the durability guide (#181)", "2026-05-15T10:00:00"
    )
    return shas


@pytest.fixture
def site(tmp_path: Path, page_server: PageServer) -> tuple[Cli, Path, dict[str, str]]:
    """The page as it reads now, a ledger quoting it as it read, with its repository named
    as a folder beside the ledger."""
    repo = tmp_path / "docs-repo"
    shas = make_docs_repo(repo)
    page_server.set_page("/durability", page(KEPT, NEW))
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    extra = f", repo: ../docs-repo, path: {PATH}"
    url = page_server.url("/durability")
    ledger.write_text(
        LEDGER.format(url=url, extra=extra, old=OLD, cut=CUT, kept=KEPT), encoding="utf-8"
    )
    return Cli(ledger), repo, shas


def test_refresh_names_the_commits_that_changed_each_quote(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, repo, shas = site
    cli("trust")
    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)

    reworded, removed = shas["reworded"], shas["removed"]
    assert (
        f"history: durable #1 on guide: changed on 2026-05-15 in “Rework the durability guide "
        f"(#181)”, commit {reworded[:7]}, last held in {shas['removed'][:7]}"
    ) in said
    assert (
        f"history: durable #2 on guide: changed on 2026-03-01 in “Drop the snapshot promise”, "
        f"commit {removed[:7]}, last held in {shas['moved'][:7]}"
    ) in said
    assert "#3" not in " ".join(line for line in said.splitlines() if "history:" in line)
    by_quote = {h["quote_text"]: h for h in told["histories"]}
    assert set(by_quote) == {OLD, CUT}
    first = by_quote[OLD]
    assert first["repo"] == str(repo.resolve()) and first["path"] == PATH
    assert first["current"] == NEW and first["versions"] == 4
    assert first["dropped"] == {
        "sha": reworded, "date": "2026-05-15", "author": "Ada Writer",
        "subject": "Rework the durability guide (#181)", "path": PATH,
    }  # fmt: skip
    assert first["current_since"]["sha"] == reworded
    assert first["held"]["sha"] == shas["removed"]
    assert by_quote[CUT]["held"]["sha"] == shas["moved"]  # the rename followed
    assert by_quote[CUT]["dropped"]["sha"] == removed
    assert (told["history_problems"], told["history_stopped"]) == ([], None)

    status = cli.json("status", code=1)["histories"]
    assert {h["dropped"]["sha"] for h in status} == {reworded, removed}
    diff = " ".join(cli("diff", "durable", code=1).stdout.split())
    assert (
        f"reworded on 2026-05-15 in “Rework the durability guide (#181)”, commit {reworded[:7]}"
        in diff
    )


def test_a_kept_history_is_reused_without_reading_the_repository(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, repo, shas = site
    cli("trust")
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    (repo / ".git").rename(repo / "elsewhere")  # unreadable from now on

    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)

    assert told["history_problems"] == []
    assert {h["dropped"]["sha"] for h in told["histories"]} == {shas["reworded"], shas["removed"]}


def test_no_history_and_the_setting_skip_the_step(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, _, _ = site
    cli("trust")
    skipped = cli.json("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    assert skipped["histories"] == []
    (cli.ledger.parent / "claimledger.toml").write_text("history = false\n", "utf-8")
    cli("trust")
    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    assert "history:" not in said
    assert cli.json("status", code=1)["histories"] == []


def test_a_local_repository_is_read_only_once_the_workspace_is_trusted(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, _, _ = site
    refused = cli("refresh", "--allow-private", "--no-as-read", code=2)
    (line,) = refused.stderr.strip().splitlines()[-1:]
    assert "claims.yaml:7:3: source guide: repo '../docs-repo' is a folder of this machine" in line
    assert "claimledger trust" in line and "Traceback" not in refused.stderr
    noted = [said for said in refused.stderr.splitlines() if "not honoured" in said]
    assert not any("docs-repo" in said for said in noted)  # refused, not said to be dropped
    assert not (cli.ledger.parent / ".claimledger").exists()  # nothing written
    blamed = cli("blame", "durable", "--quote", "1", code=2)
    assert "is a folder of this machine" in blamed.stderr
    assert "repo ../docs-repo (a folder of this machine)" in cli("trust", "--list").stdout
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)  # the way round
    cli("trust")
    row = cli.json("blame", "durable", "--quote", "1")["quotes"][0]
    assert row["named_by"] == "the ledger" and row["found"]["dropped_in"] is not None


def test_the_time_budget_stops_the_step_and_the_refresh_stands(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, _, _ = site
    (cli.ledger.parent / "claimledger.toml").write_text("history_budget = 0.000001\n", "utf-8")
    cli("trust")
    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    (stop,) = [line for line in said.splitlines() if line.startswith("history:")]
    assert stop == (
        "history: stopped, the time budget for the docs' history ran out (history_budget); "
        "the rest of the refresh stands"
    )
    checks = cli.json("refresh", "--allow-private", "--no-as-read", code=1)["checks"]
    assert {c["status"] for c in checks} == {"drifted", "missing", "verified"}


def test_a_clone_past_its_size_cap_is_given_up(
    tmp_path: Path, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    cli, repo, _ = site
    commit(
        repo,
        "assets/video.bin",
        os.urandom(3 * 1024 * 1024).hex(),
        "Add a demo",
        "2026-06-01T10:00:00",
    )
    (cli.ledger.parent / "claimledger.toml").write_text("history_clone_mb = 1\n", "utf-8")
    cli("trust")
    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)
    assert told["history_stopped"] == "a clone passed 1 MB and was given up (history_clone_mb)"
    clones = tmp_path.parent.parent / "cache" / "claimledger" / "repositories"
    assert not any(clones.glob("*/HEAD")) if clones.is_dir() else True


def test_a_clone_that_a_fetch_took_past_its_size_cap_is_given_up_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A fetch or a deepening stopped past the cap left the clone there, over it: every
    later run's history stopped at once ("a clone passed 1 MB"), for good. Only a clone
    stopped while it was made was removed."""
    from claimledger.errors import HistoryStopped
    from claimledger.evidence import gitrepo

    repo = tmp_path / "docs-repo"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    commit(repo, "docs/a.md", "One.\n", "Add it", "2026-01-05T10:00:00")
    video = os.urandom(3 * 1024 * 1024).hex()
    commit(repo, "assets/video.bin", video, "Add a demo", "2026-06-01T10:00:00")
    gitrepo.Repositories().clone(str(repo))  # made within the default cap
    monkeypatch.setattr(gitrepo, "_POLL", 0)  # the bounds checked while git still runs

    with pytest.raises(HistoryStopped, match="passed 1 MB"):
        gitrepo.Repositories(gitrepo.Bounds(max_bytes=1024 * 1024)).clone(str(repo))

    assert not gitrepo.clone_folder(str(repo)).exists()


HOOKS = ("post-checkout", "post-merge", "reference-transaction", "pre-push", "post-update")


def write_hooks(folder: Path, marker: Path) -> None:
    folder.mkdir(parents=True, exist_ok=True)
    for hook in HOOKS:
        target = folder / hook
        target.write_text(f"#!/bin/sh\necho {hook} >> {marker}\n", "utf-8")
        target.chmod(0o755)


def test_nothing_the_repository_carries_runs(
    tmp_path: Path, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    """Hooks, a file-system monitor and a filter, set in the served repository: none runs
    when its history is read."""
    cli, repo, _ = site
    marker = tmp_path / "ran"
    script = repo / "evil.sh"
    script.write_text(f'#!/bin/sh\necho "$0" >> {marker}\ncat\n', "utf-8")
    script.chmod(0o755)
    write_hooks(repo / ".git" / "hooks", marker)
    git(repo, "config", "core.fsmonitor", str(script))
    git(repo, "config", "filter.evil.smudge", str(script))
    git(repo, "config", "filter.evil.clean", str(script))
    git(repo, "config", "diff.evil.textconv", str(script))
    git(repo, "config", "uploadpack.packObjectsHook", str(script))
    (repo / ".git" / "info" / "attributes").write_text("* filter=evil diff=evil\n", "utf-8")
    cli("trust")
    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)
    assert len(told["histories"]) == 2 and told["history_problems"] == []
    cli("blame", "durable")
    assert not marker.exists(), marker.read_text("utf-8")
    git(repo, "status")  # the served repository's own git does run them: the test can see it
    assert marker.exists()


def test_the_step_adds_no_line_when_every_quote_is_verified(
    tmp_path: Path, page_server: PageServer, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    cli, _, _ = site
    page_server.set_page("/durability", page(KEPT, OLD, CUT))
    cli("trust")
    told = cli.json("refresh", "--allow-private", "--no-as-read")
    assert told["histories"] == [] and json.dumps(told["history_stopped"]) == "null"


def test_no_hook_template_or_credential_helper_of_the_users_git_runs(
    tmp_path: Path, site: tuple[Cli, Path, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The user's own git configuration (hooks for every repository, a template, a
    credential helper) is not used either: a clone of somebody else's repository runs
    nothing and asks no one for a password."""
    cli, _, _ = site
    marker = tmp_path / "ran"
    write_hooks(tmp_path / "user-hooks", marker)
    write_hooks(tmp_path / "template" / "hooks", marker)
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text(
        f"[core]\n\thooksPath = {tmp_path / 'user-hooks'}\n"
        f"[init]\n\ttemplateDir = {tmp_path / 'template'}\n"
        f"[credential]\n\thelper = !echo helper >> {marker}\n",
        "utf-8",
    )
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("GIT_ASKPASS", str(tmp_path / "user-hooks" / "post-merge"))
    cli("trust")
    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)
    assert len(told["histories"]) == 2
    assert not marker.exists(), marker.read_text("utf-8")


def test_a_page_gone_with_its_renamed_file_is_a_proposed_move(
    tmp_path: Path, page_server: PageServer, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    """The page was built from docs/guide.md; the repository renamed it and the old page
    answers 404: the refresh proposes the page of the new file's name, with the commit."""
    cli, _, shas = site
    cli.ledger.write_text(
        LEDGER.format(
            url=page_server.url("/docs/guide/"), extra=", repo: ../docs-repo, path: docs/guide.md",
            old=OLD, cut=CUT, kept=KEPT,
        ),
        encoding="utf-8",
    )  # fmt: skip
    page_server.set_page("/docs/durability/", page(KEPT, NEW))
    cli("trust")
    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    told = cli.json("refresh", "--allow-private", "--no-as-read", code=1)

    moved = shas["moved"]
    (relocation,) = told["relocations"]
    assert relocation["found_at"] == page_server.url("/docs/durability/")
    assert relocation["file"] == {
        "commit": {
            "sha": moved, "date": "2026-02-01", "author": "Ada Writer",
            "subject": "Move the guide", "pull_request": None, "path": "docs/guide.md",
        },
        "renamed_to": PATH,
    }  # fmt: skip
    # KEPT verbatim; OLD only as NEW, which says something else: not carried there
    assert (relocation["quotes_found"], relocation["quotes_total"]) == (1, 3)
    assert [q["meaning_changed"] for q in relocation["quotes"]].count(True) == 1
    line = next(x for x in said.splitlines() if x.startswith("source guide"))
    assert f"its file docs/guide.md became {PATH} in {moved[:7]} on 2026-02-01" in line
    assert "adopt it with `claimledger move guide`" in line
    by_quote = {h["quote_text"]: h for h in told["histories"]}
    assert by_quote[OLD]["path"] == PATH  # followed under the new name
    assert by_quote[OLD]["dropped"]["sha"] == shas["reworded"]
    status = cli.json("status", code=1)["relocations"]
    assert status[0]["file"]["commit"]["sha"] == moved

    cli("move", "guide")
    kept = " ".join(cli.ledger.read_text("utf-8").split())
    assert page_server.url("/docs/durability/") in kept
    assert f"its file became {PATH} in commit {moved[:7]} on 2026-02-01" in kept  # the why


def test_a_page_gone_with_its_deleted_file_names_the_commit(
    page_server: PageServer, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    cli, repo, _ = site
    git(repo, "rm", "-q", PATH, date="2026-06-01T10:00:00")
    git(repo, "commit", "-q", "-m", "Retire the durability guide", date="2026-06-01T10:00:00")
    retired = git(repo, "rev-parse", "HEAD")
    page_server.remove("/durability")
    cli("trust")
    said = cli("refresh", "--allow-private", "--no-as-read", code=1).stdout
    told = cli.json("status", code=1)["relocations"]

    line = next(x for x in said.splitlines() if x.startswith("source guide"))
    assert f"its file {PATH} was deleted in {retired[:7]} on 2026-06-01" in line
    assert "“Retire the durability guide”" in line and "not found on its site" in line
    assert told[0]["found_at"] is None
    assert told[0]["file"]["commit"]["sha"] == retired and told[0]["file"]["renamed_to"] is None


def test_a_page_names_its_file_with_its_edit_link_and_only_a_public_one_is_cloned(
    tmp_path: Path, page_server: PageServer
) -> None:
    """No `repo:` in the ledger: the page's "Edit this page" link names the repository.
    One on a special-use host (never a public one) is said, not cloned."""
    edit = "https://gitlab.docs.test/acme/docs/-/edit/main/docs/durability.md"
    link = f'<a href="{edit}">Edit this page</a></main>'
    page_server.set_page("/durability", page(KEPT, NEW).replace("</main>", link))
    ledger = tmp_path / "claims.yaml"
    url = page_server.url("/durability")
    ledger.write_text(LEDGER.format(url=url, extra="", old=OLD, cut=CUT, kept=KEPT), "utf-8")
    told = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)
    assert told["histories"] == []
    assert told["history_problems"] == [
        "https://gitlab.docs.test/acme/docs.git (the page's edit link): not a public https "
        "address, so not cloned"
    ]


def test_without_a_capture_of_the_reading_day_the_repository_serves_as_read(
    tmp_path: Path, page_server: PageServer, site: tuple[Cli, Path, dict[str, str]]
) -> None:
    """The page is on a local address, so the public archive is not asked: the file's
    version at date_read serves the as-read check, and the output says so. The ledger
    quotes today's wording as read on 2026-01-10, when the docs said otherwise."""
    cli, repo, shas = site
    text = cli.ledger.read_text("utf-8").replace(f'"{OLD}"', f'"{NEW}"')
    cli.ledger.write_text(text.replace(f'      - {{text: "{CUT}", sources: [guide]}}\n', ""))
    cli("trust")
    said = cli("refresh", "--allow-private", code=1).stdout
    told = cli.json("status", code=1)["as_read"]["checks"]

    written = shas["written"]
    assert (
        "As read on 2026-01-10: 2 quote checks on the docs' repository's version of the file "
        "at that day, for want of an archived copy; 1 misquoted at reading time"
    ) in said
    line = next(x for x in said.splitlines() if x.startswith("misquoted at reading time"))
    assert line.startswith(
        f"misquoted at reading time: durable #1 on guide (drifted in the docs' repository's "
        f"version of 2026-01-05, commit {written[:7]}): the copy says “{OLD}"
    )
    by_quote = {c["quote_text"]: c for c in told}
    assert by_quote[NEW]["misquoted"] is True and by_quote[KEPT]["status"] == "verified"
    assert by_quote[NEW]["snapshot_url"] == f"{repo.resolve().as_uri()}#{written}:docs/guide.md"
    assert by_quote[NEW]["timestamp"] == "20260105"
    assert by_quote[NEW]["from_repository"] is True
    report = tmp_path / "report.md"
    cli("render", "-o", str(report))
    assert "in the docs' repository's version of 2026-01-05" in report.read_text("utf-8")

    again = cli("refresh", "--allow-private", "--no-history", code=0).stdout
    assert "repository's version" not in again  # --no-history: the step is not run


def test_a_commit_dated_past_the_year_9999_is_no_version_of_the_reading_day(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    """git writes such a date `10000-01-01`, which sorted before 2026-01-10 as text: the
    newest version was taken for the reading day's, and a quote the file held that day
    was "misquoted at reading time" in "the docs' repository's version of 1000-00-10"."""
    cli, repo, shas = site
    body = (repo / PATH).read_text("utf-8").replace(KEPT, "Each node keeps a log.")
    (repo / PATH).write_text(body, "utf-8")
    git(repo, "commit", "-qam", "Shorten the log sentence", date="@253402300800 +0000")
    cli("trust")

    said = cli("refresh", "--allow-private", code=1).stdout
    told = {c["quote_text"]: c for c in cli.json("status", code=1)["as_read"]["checks"]}

    assert "1000-00-10" not in said
    assert told[KEPT]["status"] == "verified" and told[KEPT]["timestamp"] == "20260105"
    assert told[KEPT]["snapshot_url"].endswith(f"#{shas['written']}:docs/guide.md")


def test_a_backdated_commit_is_no_version_of_the_reading_day(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    """A commit dated before its own parent (written with a clock set back, or dated so
    on purpose) landed after every version before it, on a day nobody can tell: it was
    taken for the file as it stood on the reading day, and a quote the file held that
    day was "misquoted at reading time" in "the docs' repository's version of 2025-12-01"."""
    cli, repo, _ = site
    body = (repo / PATH).read_text("utf-8").replace(KEPT, "Each node keeps a log.")
    (repo / PATH).write_text(body, "utf-8")
    git(repo, "commit", "-qam", "Shorten the log sentence", date="2025-12-01T10:00:00")
    cli("trust")

    said = cli("refresh", "--allow-private", code=1).stdout
    told = {c["quote_text"]: c for c in cli.json("status", code=1)["as_read"]["checks"]}

    assert "version of 2025-12-01" not in said
    assert KEPT not in told or told[KEPT]["timestamp"] != "20251201"


def test_a_repo_is_set_from_the_command_line_as_an_address_or_a_folder(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, _, _ = site
    cli("source", "guide", "--repo", "../elsewhere", "--path", PATH)
    assert "repo: ../elsewhere" in cli.ledger.read_text("utf-8")
    refused = cli("source", "guide", "--repo", "ssh://git.example.org/docs", code=2)
    assert refused.stderr.strip().endswith(
        "repo 'ssh://git.example.org/docs' is neither an https address nor a folder of this machine"
    )
    assert "repo: ../elsewhere" in cli.ledger.read_text("utf-8")  # nothing written


@pytest.mark.parametrize("written", ["HTTPS://git.example.org/docs", "File:///srv/docs"])
def test_a_repo_whose_scheme_is_in_capitals_is_taken_in_small_letters(
    site: tuple[Cli, Path, dict[str, str]], written: str
) -> None:
    """The scheme of a repository's address is in any case, as a page's is (RFC 3986)."""
    cli, _, _ = site
    scheme, rest = written.split("://", 1)
    cli("source", "guide", "--repo", written, "--path", PATH)
    cli("check")
    assert load(cli.ledger).sources["guide"].repo == f"{scheme.lower()}://{rest}"


def test_a_repo_whose_host_is_in_capitals_is_the_repository_of_its_lower_case_address(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    """A host is in any case too: `https://Git.Example.org/Docs` is the repository
    `https://git.example.org/Docs` is, kept in one clone, its path as written."""
    from claimledger.evidence.gitrepo import clone_folder

    cli, _, _ = site
    cli("source", "guide", "--repo", "HTTPS://Git.Example.ORG/Docs", "--path", PATH)
    cli("check")
    repo = load(cli.ledger).sources["guide"].repo
    assert repo == "https://git.example.org/Docs"
    assert clone_folder(repo) == clone_folder("https://git.example.org/Docs")
    assert "HTTPS://Git.Example.ORG/Docs" in cli.ledger.read_text("utf-8")  # as typed


def test_the_installed_command_says_the_history_as_a_user_sees_it(
    site: tuple[Cli, Path, dict[str, str]],
) -> None:
    from cli_runner import installed

    cli, _, shas = site
    home = cli.ledger.parent
    installed("trust", cwd=home)
    done = installed("refresh", "--allow-private", "--no-as-read", cwd=home, code=1)
    assert (
        f"history: durable #1 on guide: changed on 2026-05-15 in “Rework the durability guide "
        f"(#181)”, commit {shas['reworded'][:7]}"
    ) in done.stdout
    skipped = installed(
        "refresh", "--no-history", "--allow-private", "--no-as-read", cwd=home, code=1
    )
    assert "history:" not in skipped.stdout


def test_a_kept_history_of_one_branch_is_not_reused_for_another(tmp_path: Path) -> None:
    """A page whose edit link names another branch than the history kept (a docs version
    moved to its own branch) had the kept history reused: the change it named is one the
    page's branch may never have had. The other branch's history is read."""
    import datetime as dt

    from claimledger.evidence.gitrepo import Repositories
    from claimledger.evidence.history import read_histories
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.file import load
    from claimledger.reading.editlinks import SourceFile
    from test_store import checked

    repo = tmp_path / "docs-repo"
    shas = make_docs_repo(repo)
    git(repo, "checkout", "-q", "-b", "v2", shas["moved"])
    other = commit(repo, PATH, f"# Durability\n\n{KEPT}\n", "Drop it on v2", "2026-04-01T10:00:00")
    ledger = tmp_path / "claims.yaml"
    url = "https://docs.example.com/durability"
    ledger.write_text(LEDGER.format(url=url, extra="", old=OLD, cut=CUT, kept=KEPT), "utf-8")
    check = checked(
        "durable", quote_text=OLD, source_id="guide", url=url, status="missing", current=None
    )

    def changed_in(ref: str) -> str | None:
        linked = {url: SourceFile(repo=str(repo), ref=ref, path=PATH)}
        with EvidenceStore.open(tmp_path / "evidence.sqlite3") as store:
            found = read_histories(
                load(ledger), tmp_path, [check], linked, (), store, Repositories(),
                lambda: dt.datetime.now(dt.UTC),
            )  # fmt: skip
        (history,) = found.read + found.reused
        return None if history.dropped is None else history.dropped.sha

    assert changed_in("main") == shas["reworded"]
    assert changed_in("main") == shas["reworded"]  # kept, and reused
    assert changed_in("v2") == other


def _history_of_old(tmp_path: Path, repo: Path) -> Callable[[], HistoryRun]:
    """A run of the history step over the guide's first quote (missing from the page),
    its repository named by the page's edit link, on a store kept beside the ledger."""
    import datetime as dt

    from claimledger.evidence.gitrepo import Repositories
    from claimledger.evidence.history import read_histories
    from claimledger.evidence.store import EvidenceStore
    from claimledger.reading.editlinks import SourceFile
    from test_store import checked

    ledger = tmp_path / "claims.yaml"
    url = "https://docs.example.com/durability"
    ledger.write_text(LEDGER.format(url=url, extra="", old=OLD, cut=CUT, kept=KEPT), "utf-8")
    check = checked(
        "durable", quote_text=OLD, source_id="guide", url=url, status="missing", current=None
    )
    linked = {url: SourceFile(repo=str(repo), ref="main", path=PATH)}

    def run() -> HistoryRun:
        with EvidenceStore.open(tmp_path / "evidence.sqlite3") as store:
            return read_histories(
                load(ledger), tmp_path, [check], linked, (), store, Repositories(),
                lambda: dt.datetime.now(dt.UTC),
            )  # fmt: skip

    return run


def test_a_kept_history_read_by_another_version_of_the_reading_is_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A kept history naming the change was reused for good, though the reading that made
    it was older than this one (one that followed fewer partials, or cut them otherwise,
    may name another change): each is kept with the version that read it, and one of
    another version is read again."""
    from claimledger import versions

    repo = tmp_path / "docs-repo"
    shas = make_docs_repo(repo)
    run = _history_of_old(tmp_path, repo)
    assert len(run().read) == 1
    assert [h.dropped.sha for h in run().reused if h.dropped] == [shas["reworded"]]

    monkeypatch.setattr(versions, "HISTORY", getattr(versions, "HISTORY", 1) + 1, raising=False)
    again = run()

    assert again.reused == ()
    assert [(h.dropped.sha, h.history_version) for h in again.read if h.dropped] == [
        (shas["reworded"], versions.HISTORY)
    ]
    assert [h.dropped.sha for h in run().reused if h.dropped] == [shas["reworded"]]


BEFORE_HISTORY_VERSION = 13
"""The store's schema before it kept the version of the reading that made a history."""


def test_a_history_kept_before_its_reading_was_versioned_is_read_again(tmp_path: Path) -> None:
    """A store of the schema before: upgraded in place, and its history, which names a
    change and its branch, is read again from the repository, not reused."""
    from claimledger.evidence.store.schema import MIGRATIONS, SCHEMA_VERSION

    repo = tmp_path / "docs-repo"
    shas = make_docs_repo(repo)
    old = sqlite3.connect(tmp_path / "evidence.sqlite3")
    for migration in MIGRATIONS[:BEFORE_HISTORY_VERSION]:
        for statement in migration:
            old.execute(statement)
    forged = ["f" * 40, "2026-03-01", "A", "Some other change", PATH]
    commits = json.dumps({"held": forged, "dropped": forged, "current_since": None})
    old.execute(
        "INSERT INTO quote_histories (claim_id, quote_text, source_id, repo, path, current, "
        "commits_json, versions, read_at, unread_json, ref) VALUES ('durable', ?, 'guide', ?, "
        "?, NULL, ?, 3, '2026-08-23T00:00:00+00:00', '[]', 'main')",
        (OLD, str(repo), PATH, commits),
    )
    old.execute(f"PRAGMA user_version = {BEFORE_HISTORY_VERSION}")
    old.commit()
    old.close()

    found = _history_of_old(tmp_path, repo)()

    assert found.reused == ()
    assert [h.dropped.sha for h in found.read if h.dropped] == [shas["reworded"]]
    upgraded = sqlite3.connect(tmp_path / "evidence.sqlite3")
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    upgraded.close()
