"""Versions of a page's file that could not be read (binary, too large), in the docs'
history as the refresh keeps it and every view says it: never more certain than `blame`,
which says the change may lie in one of them. Real git repositories, made here."""

from __future__ import annotations

import html
import json
import sqlite3
from importlib import resources
from pathlib import Path

from claimledger.evidence.store import EvidenceStore
from claimledger.evidence.store.schema import MIGRATIONS, SCHEMA_VERSION
from claimledger.reading.provenance import Version, blame
from claimledger.records import Commit
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER as BLAME_LEDGER
from test_blame import NEW, OLD, PATH, commit, git
from webserver import PageServer

SCHEMAS = resources.files("claimledger") / "data" / "schemas"

BINARY = "\x00garbled\n"

LEDGER = BLAME_LEDGER.replace(
    "publisher: example.com}}", "publisher: example.com, repo: ../docs, path: {path}}}"
)
"""`blame`'s ledger, its source's repository named."""


def _site(tmp_path: Path, page_server: PageServer, texts: list[str]) -> tuple[Cli, list[str]]:
    """A repository whose file went through `texts` (oldest first), its page reading
    NEW, and a trusted ledger quoting OLD from it; with the commits, oldest first."""
    repo = tmp_path / "docs"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    shas = [
        commit(repo, PATH, text, f"Edit {n}", f"2026-0{n + 1}-01T10:00:00")
        for n, text in enumerate(texts)
    ]
    page_server.set_page("/durability", page(NEW))
    ledger = tmp_path / "work" / "claims.yaml"
    ledger.parent.mkdir()
    url = page_server.url("/durability")
    ledger.write_text(LEDGER.format(url=url, path=PATH, quote=OLD), encoding="utf-8")
    cli = Cli(ledger)
    cli("trust")
    return cli, shas


def _views(cli: Cli, tmp_path: Path) -> dict[str, str]:
    """What each view says of the quote's history, by name, on one line each."""
    said = {
        "refresh": cli("refresh", "--allow-private", "--no-as-read", code=1).stdout,
        "explain": cli("explain", "durable").stdout,
        "diff": cli("diff", "durable", code=1).stdout,
        "blame": cli("blame", "durable").stdout,
    }
    for kind in ("md", "html", "json"):
        report = tmp_path / f"report.{kind}"
        cli("render", "-o", str(report))
        said[kind] = report.read_text("utf-8")
    said["html"] = html.unescape(said["html"])
    said["json"] = json.dumps(json.loads(said["json"]), ensure_ascii=False)
    return {name: " ".join(text.split()) for name, text in said.items()}


def test_a_change_after_an_unreadable_version_is_said_as_blame_says_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The quote held, then a version nobody could read, then the rewording: every view
    said the rewording was the change, where blame says it may lie before it."""
    cli, (held, binary, reworded) = _site(tmp_path, page_server, [f"{OLD}\n", BINARY, f"{NEW}\n"])
    said = _views(cli, tmp_path)
    maybe = f"or before it, in a version that could not be read ({binary[:7]})"

    for name in ("refresh", "explain", "diff", "blame", "md", "html", "json"):
        assert maybe in said[name], name
    assert f"commit {reworded[:7]}, {maybe}" in said["md"]
    for args, code in ((["status"], 1), (["explain", "durable"], 0)):
        (kept,) = cli.json(*args, code=code)["histories"]
        assert [c["sha"] for c in kept["unread"]] == [binary], args
        assert (kept["held"]["sha"], kept["dropped"]["sha"]) == (held, reworded)


def test_a_quote_whose_newer_versions_could_not_be_read_is_not_said_still_held(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The newest version cannot be read: nothing says the quote is still there."""
    cli, (held, binary) = _site(tmp_path, page_server, [f"{OLD}\n", BINARY])
    said = _views(cli, tmp_path)

    for name in ("refresh", "explain", "blame"):
        assert "still held" not in said[name], name
    newer = f"the newer versions could not be read ({binary[:7]})"
    assert f"last held in {held[:7]}; {newer}" in said["explain"]
    assert f"last held in {held[:7]} of {PATH}; {newer}" in said["refresh"]
    assert "docs' history" not in said["md"]  # no commit to name as the change


def test_versions_that_could_not_be_read_are_not_counted_as_read(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli, (binary, _, _) = _site(tmp_path, page_server, [BINARY, "Other words.\n", f"{NEW}\n"])
    said = _views(cli, tmp_path)

    unread = f"none of the 2 versions read ({binary[:7]} could not be read)"
    assert f"its words are in {unread}" in said["explain"]
    assert f"its words are in {unread}" in said["blame"]
    assert "3 versions read" not in said["blame"]  # one of the three could not be read
    assert (
        f"none of the 2 versions of {PATH} read ({binary[:7]} could not be read)"
        in (said["refresh"])
    )


def test_the_current_wording_is_not_said_to_begin_at_an_unreadable_version() -> None:
    """The page's wording in the two newest versions, then one that cannot be read: the
    wording may be older than the oldest read that holds it."""

    def version(n: int, text: str | None) -> Version:
        return Version(Commit(str(n) * 40, f"2026-0{n}-01", "A", f"Edit {n}", PATH), text)

    found = blame(
        [version(4, f"{NEW}\n"), version(3, f"{NEW}\n"), version(2, None), version(1, f"{NEW}\n")],
        OLD,
        NEW,
    )
    assert found.current_since is not None and found.current_since.sha == "3" * 40
    assert found.before_current is not None and found.before_current.sha == "2" * 40
    readable = blame([version(2, f"{NEW}\n"), version(1, "Other.\n")], OLD, NEW)
    assert readable.before_current is None


def test_blame_says_the_current_wording_may_be_older_than_it_read(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli, (_, binary, since) = _site(tmp_path, page_server, [f"{NEW}\n", BINARY, f"{NEW}\n"])
    cli("refresh", "--allow-private", "--no-as-read", code=1)

    said = " ".join(cli("blame", "durable").stdout.split())
    (row,) = cli.json("blame", "durable")["quotes"]

    assert f"the current wording since {since[:7]}" in said
    assert f"or earlier: the version before it could not be read ({binary[:7]})" in said
    assert row["unreadable_before_current"]["sha"] == binary


BEFORE_UNREAD = 11
"""The store's schema before it kept a history's unreadable versions."""


def test_a_history_kept_before_unreadable_versions_were_is_read_again(tmp_path: Path) -> None:
    """A store of the schema before: upgraded in place, its history kept and shown, but
    never reused for reading the repository again (it may hide unreadable versions)."""
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for migration in MIGRATIONS[:BEFORE_UNREAD]:
        for statement in migration:
            old.execute(statement)
    changed = ["a" * 40, "2026-03-01", "A", "S", PATH]
    commits = json.dumps({"held": changed, "dropped": changed, "current_since": None})
    old.execute(
        "INSERT INTO quote_histories (claim_id, quote_text, source_id, repo, path, current, "
        "commits_json, versions, read_at) VALUES ('durable', ?, 'guide', '/r', ?, NULL, ?, 3, "
        "'2026-08-23T00:00:00+00:00')",
        (OLD, PATH, commits),
    )
    old.execute(f"PRAGMA user_version = {BEFORE_UNREAD}")
    old.commit()
    old.close()

    with EvidenceStore.open(path) as store:
        (shown,) = store.latest_quote_histories().values()
        assert shown.dropped is not None and shown.unread == ()
        assert store.latest_quote_histories(reusable=True) == {}
    upgraded = sqlite3.connect(path)
    assert upgraded.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    upgraded.close()


def test_the_json_views_of_a_history_with_versions_not_read_meet_their_schemas(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`unread` was written into every history of `status`, `explain` and `diff --json`
    while their published schemas, closed to keys they do not name, did not name it."""
    import jsonschema

    cli, _ = _site(tmp_path, page_server, [OLD, BINARY, NEW])
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    for name, args, code in [
        ("status", ("status",), 1),
        ("explain", ("explain", "durable"), 0),
        ("diff", ("diff", "durable"), 1),
    ]:
        shown = cli.json(*args, code=code)
        assert [h["unread"] for h in shown["histories"]], name
        schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
        jsonschema.Draft202012Validator(schema).validate(shown)
