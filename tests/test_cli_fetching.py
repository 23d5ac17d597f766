"""Reading pages from the command line as a careful user would: moves adopted with `move`,
tidy redirects that are no drift, sites that answer bots with 403, settings beside the
ledger, robots.txt, extra headers, and `--map` on every command that reads a page."""

from __future__ import annotations

import datetime as dt
import json
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.evidence.store import EvidenceStore
from claimledger.ledger.file import load
from cli_runner import Cli, claimledger
from evidence_site import ALARM, DURABLE, ORDERED, page, serve_v1, write_ledger
from webserver import PageServer, redirect


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def refresh_json(cli: Cli, *args: str, code: int) -> dict[str, Any]:
    """`refresh --json`, which must exit with `code`."""
    report: dict[str, Any] = cli.json("refresh", "--allow-private", *args, code=code)
    return report


def test_move_adopts_the_address_a_refresh_was_redirected_to(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_handler("/other", redirect("/alarms/", 301))
    page_server.set_page("/alarms/", page(ALARM))
    result = cli("refresh", "--allow-private", code=1)
    assert f"source moved: other ({page_server.url('/other')})" in result.stdout
    assert "claimledger move other" in result.stdout
    row = next(
        line for line in cli("status", "--plain", code=1).stdout.splitlines() if "\tmoved\t" in line
    )
    assert "\t301 -> 200\t" in row  # the move, then what the page answered

    moved = cli("move", "other", code=0)
    assert f"moved other: {page_server.url('/other')} -> {page_server.url('/alarms/')}" in (
        moved.stdout
    )
    source = load(ledger).sources["other"]
    assert source.url == page_server.url("/alarms/")
    assert [(h.moved_from, h.by) for h in source.history] == [(page_server.url("/other"), "move")]
    assert "this comment must survive every write" in ledger.read_text("utf-8")
    cli(
        "refresh", "--allow-private", code=0
    )  # the quotes now verify at the new address, and nothing moved
    cli("render", code=0)
    report = (ledger.parent / "out" / "report.md").read_text("utf-8")
    assert "moved on " in report and "from http" in report


def test_move_refuses_when_there_is_nowhere_to_move(cli: Cli, page_server: PageServer) -> None:
    assert "has not been fetched yet" in cli("move", "other", code=2).stderr
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    assert "did not move at the last refresh" in cli("move", "other", code=2).stderr
    assert "did you mean 'other'" in cli("move", "othr", code=2).stderr
    assert "not an http(s) URL" in cli("move", "other", "ftp://x/y", code=2).stderr


def test_move_adopts_no_redirect_that_led_to_no_page(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A 301 that loops moved the page nowhere, and one to a page gone neither: `move`
    adopts the page the refresh proposed from the site's sitemap, or refuses."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_handler("/other", redirect("/loop", 301))
    page_server.set_handler("/loop", redirect("/other", 301))
    cli("refresh", "--allow-private", code=1)
    assert "did not move at the last refresh (refused" in cli("move", "other", code=2).stderr

    page_server.set_handler("/other", redirect("/new/other", 301))  # a 404 there
    page_server.set_page(
        "/robots.txt", f"Sitemap: {page_server.url('/sitemap.txt')}\n", content_type="text/plain"
    )
    page_server.set_page("/sitemap.txt", page_server.url("/docs/other"), content_type=None)
    page_server.set_page("/docs/other", page(ALARM))
    proposed = cli("refresh", "--allow-private", code=1)
    assert f"found at {page_server.url('/docs/other')}" in proposed.stdout

    moved = cli("move", "other", code=0)
    assert f"-> {page_server.url('/docs/other')}" in moved.stdout
    assert load(ledger).sources["other"].url == page_server.url("/docs/other")


def test_move_adopts_a_redirect_to_a_page_it_could_not_read(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A 301 to a page that answered but could not be read (a damaged PDF, a `select:` that
    no longer matches) moved the source there: `move` said it "did not move"."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_handler("/other", redirect("/new/other.pdf", 301))
    page_server.set_page("/new/other.pdf", "%PDF-1.7 damaged", content_type="application/pdf")
    cli("refresh", "--allow-private", code=1)

    moved = cli("move", "other", code=0)

    assert f"-> {page_server.url('/new/other.pdf')}" in moved.stdout


def test_move_adopts_no_redirect_to_a_private_address(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A 301 to a private address refused as one: `move` wrote that address (a cloud's
    metadata service, a router's page) into the ledger as the source's."""
    serve_v1(page_server)
    text = ledger.read_text("utf-8").replace(
        "kind: docs, publisher: p}", "kind: docs, publisher: p, allow_private: true}"
    )
    ledger.write_text(text, "utf-8")
    cli("trust")
    cli("refresh", code=0)
    elsewhere = page_server.url("/x").replace("127.0.0.1", "127.0.0.2")
    page_server.set_handler("/other", redirect(elsewhere, 301))
    cli("refresh", code=1)

    refused = cli("move", "other", code=2)

    assert "did not move at the last refresh (refused" in refused.stderr
    assert load(ledger).sources["other"].url == page_server.url("/other")


def test_move_and_add_keep_the_fragment_a_redirect_names(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A page sent for good to `/docs#alarms` was adopted at `/docs`: its quotes' links
    opened at the top of a long page, not where the site said the words now are."""
    serve_v1(page_server)
    page_server.set_page("/docs", page("An opening line.", ALARM))
    page_server.set_handler("/other", redirect("/docs#alarms", 301))
    page_server.set_handler("/old", redirect("/docs#alarms", 301))
    cli("refresh", "--allow-private", code=1)

    cli("move", "other", code=0)
    cli("add", "fires", "--url", page_server.url("/old"), "--quote", ALARM, "--allow-private")

    sources = load(ledger).sources
    assert sources["other"].url == page_server.url("/docs#alarms")
    assert load(ledger).claim("fires").quotes[0].sources == ("other",)


def test_move_to_an_address_with_a_space_is_refused_in_one_line(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A space in NEW_URL, or in the Location of the redirect a refresh followed, is no
    address a ledger holds: `move` exited 70, an internal error."""
    serve_v1(page_server)
    page_server.set_handler("/other", redirect("/alarms?page=a b", 301))
    page_server.set_page("/alarms", page(ALARM))
    cli("refresh", "--allow-private", code=1)
    before = ledger.read_bytes()

    for args in (["other"], ["other", page_server.url("/a b")]):
        refused = cli("move", *args, code=2)
        assert "has a space in it" in refused.stderr
    assert ledger.read_bytes() == before


def test_move_to_an_address_given_by_hand(cli: Cli, ledger: Path, page_server: PageServer) -> None:
    serve_v1(page_server)
    new = page_server.url("/elsewhere")
    cli("move", "other", new, "--why", "the site was reorganised", code=0)
    (entry,) = load(ledger).sources["other"].history
    assert (entry.moved_from, entry.why) == (page_server.url("/other"), "the site was reorganised")


@pytest.mark.parametrize("path", ["/guide", "/guide/", "/guide#top"])
def test_move_to_a_page_another_source_has_is_refused_with_the_merge(
    cli: Cli, ledger: Path, page_server: PageServer, path: str
) -> None:
    """A page is one source: `move` does not make two sources of it, it names the merge,
    however the address spells the page (as `add` finds the page's source)."""
    before = ledger.read_text("utf-8")
    result = cli("move", "other", page_server.url(path), code=2)
    assert "is already source 'guide'" in result.stderr
    assert "claimledger source other --merge-into guide" in result.stderr
    assert ledger.read_text("utf-8") == before


def test_a_move_onto_another_source_s_page_is_adopted_by_the_merge(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_handler("/other", redirect("/guide", 301))
    page_server.set_page("/guide", page(DURABLE, ORDERED, ALARM))  # the pages made one

    text = cli("refresh", "--allow-private", code=1).stdout
    github = cli("refresh", "--allow-private", "--format", "github", code=1).stdout

    merge = "adopt it with `claimledger source other --merge-into guide`"
    assert merge in " ".join(text.split())
    assert merge in github
    said = cli("source", "other", "--merge-into", "guide", code=0).stdout
    assert said == "other: merged into guide (its quotes rest on guide)\n"  # one page: no word


def test_a_trailing_slash_redirect_is_shown_but_is_no_drift(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_handler("/other", redirect("/other/", 301))
    page_server.set_page("/other/", page(ALARM))
    result = cli("refresh", "--allow-private", code=0)
    assert "source redirected: other" in result.stdout
    assert "the same page at a tidier address" in result.stdout


def test_an_accepted_403_is_neither_failure_nor_evidence(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_page("/other", "Are you a robot?", status=403)
    cli("refresh", "--allow-private", code=1)  # not accepted yet: a failing source
    text = ledger.read_text("utf-8").replace("other: {url: ", "other: {accept_status: [403], url: ")
    ledger.write_text(text, encoding="utf-8")
    report = refresh_json(cli, code=0)
    statuses = {(c["claim_id"], c["status"]) for c in report["checks"]}
    assert ("alarms", None) in statuses
    cli("status", code=0)
    assert cli.json("regrade", code=0)["proposals"] == []  # no evidence: nothing proposed


@pytest.mark.parametrize("fmt", ["text", "github", "junit"])
def test_a_page_read_is_evidence_whatever_status_its_source_accepts(
    cli: Cli, ledger: Path, page_server: PageServer, fmt: str
) -> None:
    """A source with `accept_status: [200]` hid every drift on its page: `refresh` and
    `status` exited 0, no annotation, the JUnit case `skipped`. A status a source accepts
    is one that left its page unread; a page read is evidence."""
    serve_v1(page_server)
    page_server.set_page("/other", page(ALARM.replace("at least", "at most")))
    text = ledger.read_text("utf-8").replace("other: {url: ", "other: {accept_status: [200], url: ")
    ledger.write_text(text, encoding="utf-8")

    result = cli("refresh", "--allow-private", "--format", fmt, code=1)

    if fmt == "github":
        assert "::error file=" in result.stdout
    if fmt == "junit":
        assert "<failure" in result.stdout and 'skipped="1"' not in result.stdout
    cli("status", code=1)


def test_settings_beside_the_ledger_map_every_url(
    ledger: Path, page_server: PageServer, tmp_path: Path
) -> None:
    """The ledger names pages on a public host; its settings send them to the local copy,
    and their headers go to the sites as the ledger names them: never to the copy."""
    serve_v1(page_server)
    public = "https://docs.example.test"
    text = ledger.read_text("utf-8").replace(page_server.url(""), public)
    ledger.write_text(text, encoding="utf-8")
    (ledger.parent / "claimledger.toml").write_text(
        f'map = {{ "{public}/" = "{page_server.url("/")}" }}\n'
        'user_agent = "teardown-bot/1.0"\nheaders = { "X-Reader" = "ledger" }\n',
        encoding="utf-8",
    )
    Cli(ledger)("trust")  # the user's own settings: honoured once trusted
    report = refresh_json(Cli(ledger), code=0)
    assert {c["url"] for c in report["checks"]} == {
        f"{public}/guide",
        f"{public}/mirror",
        f"{public}/other",
    }
    sent = page_server.page_requests[-1].headers
    assert (sent["user-agent"], "x-reader" in sent) == ("teardown-bot/1.0", False)


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ("timeout = [1\n", "claimledger.toml:1:"),
        ("timout = 5\n", "unknown setting (did you mean 'timeout'?)"),
        ("per_host = 0\n", "per_host: must be a whole number of at least 1"),
        ('map = ["https://a.test/"]\n', "expected PREFIX=REPLACEMENT"),
    ],
)
def test_bad_settings_are_exit_2_with_where(
    cli: Cli, ledger: Path, settings: str, message: str
) -> None:
    (ledger.parent / "claimledger.toml").write_text(settings, encoding="utf-8")
    result = cli("refresh", "--allow-private", code=2)
    assert message in result.stderr
    assert "Traceback" not in result.stderr


@pytest.mark.parametrize(
    ("name", "settings", "message"),
    [
        (
            "claimledger.toml",
            "concurrency = " + "9" * 5_000 + "\n",
            "claimledger.toml: cannot be read as TOML: Exceeds the limit (4300 digits)",
        ),
        (
            "claimledger.toml",
            "x = " + "[" * 100_000 + "]" * 100_000 + "\n",
            "claimledger.toml: cannot be read as TOML: nested too deeply",
        ),
        (
            "pyproject.toml",
            "tool = " + "{a=" * 100_000 + "1" + "}" * 100_000 + "\n",
            "pyproject.toml: cannot be read as TOML: nested too deeply",
        ),
        (
            "claimledger.toml",
            '"time\\nout" = 1\n',
            "claimledger.toml: 'time\\nout': unknown setting (did you mean 'timeout'?)",
        ),
        (
            "claimledger.toml",
            'map = {"https://a.test/" = "file:///etc/passwd"}\n',
            "claimledger.toml: map: 'https://a.test/=file:///etc/passwd': 'file:///etc/passwd' "
            "is not an http(s) URL with a host",
        ),
        (
            "claimledger.toml",
            'archive = "ftp://archive.test/"\n',
            "claimledger.toml: archive: 'ftp://archive.test/' is not an http(s) URL with a host",
        ),
    ],
    ids=["number-past-4300-digits", "arrays-nested-deep", "tables-nested-deep",
         "key-with-a-line-break", "map-to-a-file", "archive-off-the-web"],
)  # fmt: skip
def test_a_hostile_settings_file_is_one_line_and_exit_2(
    cli: Cli, ledger: Path, name: str, settings: str, message: str
) -> None:
    """A settings file a cloned repository may hold: `check` says what is wrong with it
    on one line, where Python's own limits once ended it with an internal error (exit 70)
    and a map to a local file, or an archive not on the web, was found only by the run that
    would fetch through it (as `--archive`, an option never typed)."""
    (ledger.parent / name).write_text(settings, encoding="utf-8")

    (line,) = cli("check", code=2).stderr.splitlines()

    assert line.startswith("claimledger: error: ")
    assert message in line


@pytest.mark.parametrize("tool", ['"x"', "[1]", "1"])
def test_a_pyproject_whose_tool_is_no_table_has_no_settings_for_us(
    cli: Cli, ledger: Path, tool: str
) -> None:
    """Another tool's file, not ours to judge: its `tool` that is not a table holds no
    claimledger settings, where reading it ended `check` with an internal error."""
    (ledger.parent / "pyproject.toml").write_text(f"tool = {tool}\n", encoding="utf-8")

    assert cli("check", code=0).stderr == ""


def test_every_wrong_setting_is_named_at_once_and_check_names_them_too(
    cli: Cli, ledger: Path
) -> None:
    """A settings file a scheduled refresh would refuse is refused by `check` before the
    merge, with every wrong setting on its one line, not one a run."""
    settings = "colour = 1\ntimout = 5\nper_host = 0\n"
    (ledger.parent / "claimledger.toml").write_text(settings, encoding="utf-8")

    for command in (("check",), ("refresh", "--allow-private")):
        (line,) = cli(*command, code=2).stderr.splitlines()
        assert "colour: unknown setting" in line
        assert "timout: unknown setting (did you mean 'timeout'?)" in line
        assert "per_host: must be a whole number of at least 1" in line


@pytest.mark.parametrize(
    ("setting", "message"),
    [
        ("interval = 1e308", "interval: must be a number of seconds, at least 0 and at most 60"),
        (
            "archive_window = 999999999",
            "archive_window: must be a whole number of days, at least 0 and at most 3650",
        ),
        ("timeout = inf", "timeout: must be a number of seconds, more than 0 and at most 600"),
        ("deadline = nan", "deadline: must be a number of seconds, more than 0 and at most 3600"),
        ("timeout = 0", "timeout: must be a number of seconds, more than 0 and at most 600"),
        (
            "concurrency = 100000",
            "concurrency: must be a whole number of at least 1 and at most 256",
        ),
        ("per_host = 65", "per_host: must be a whole number of at least 1 and at most 64"),
        (
            "recover_candidates = 51",
            "recover_candidates: must be a whole number of at least 1 and at most 50",
        ),
        ("interval = -0.5", "interval: must be a number of seconds, at least 0 and at most 60"),
    ],
)
def test_a_setting_out_of_range_is_one_line_and_nothing_is_fetched(
    cli: Cli, ledger: Path, page_server: PageServer, setting: str, message: str
) -> None:
    """Past its maximum a number would stall the run (an interval of 1e308 seconds) or
    overflow a date (a window of a billion days): refused before anything is asked."""
    serve_v1(page_server)
    settings = ledger.parent / "claimledger.toml"
    settings.write_text(f"{setting}\n", encoding="utf-8")
    (line,) = cli("refresh", "--allow-private", code=2).stderr.splitlines()
    assert line == f"claimledger: error: {settings}: {message}"
    assert page_server.requests == []


@pytest.mark.parametrize(
    ("command", "option", "value", "most"),
    [
        ("refresh", "--interval", "1e308", "at most 60"),
        ("refresh", "--archive-window", "999999999", "at most 3650"),
        ("refresh", "--no-as-read --archive-window", "-1", "at least 0 and at most 3650"),
        ("refresh", "--no-as-read --archive", "ftp://archive.test", "with a host"),
        ("refresh", "--timeout", "inf", "at most 600"),
        ("refresh", "--deadline", "nan", "at most 3600"),
        ("refresh", "--concurrency", "100000", "at most 256"),
        ("refresh", "--per-host", "0", "at most 64"),
        ("refresh", "--recover-candidates", "51", "at most 50"),
        ("verify", "--timeout", "1e400", "at most 600"),
    ],
)
def test_an_option_out_of_range_is_one_line_and_nothing_is_fetched(
    cli: Cli, page_server: PageServer, command: str, option: str, value: str, most: str
) -> None:
    serve_v1(page_server)
    where = [page_server.url("/guide"), "words"] if command == "verify" else []
    result = cli(command, "--allow-private", *where, *option.split(), value, code=2)
    (line,) = result.stderr.splitlines()  # a value is checked where its step is skipped too
    named = option.split()[-1]
    assert line.startswith(f"claimledger: error: {named} ") and line.endswith(most), line
    assert page_server.requests == []


def test_settings_in_pyproject_are_read_too(ledger: Path, page_server: PageServer) -> None:
    serve_v1(page_server)
    (ledger.parent / "pyproject.toml").write_text(
        '[project]\nname = "t"\n\n[tool.claimledger]\nuser_agent = "from-pyproject/2"\n',
        encoding="utf-8",
    )
    cli = Cli(ledger)
    untrusted = cli("refresh", "--allow-private", code=0)
    # robots.txt answers by user agent: a workspace's own one is honoured once trusted
    assert page_server.page_requests[-1].headers["user-agent"] != "from-pyproject/2"
    assert "user_agent = from-pyproject/2" in " ".join(untrusted.stderr.split())
    cli("trust")
    cli("refresh", "--allow-private", code=0)
    assert page_server.page_requests[-1].headers["user-agent"] == "from-pyproject/2"


def test_robots_txt_is_respected_and_can_be_ignored_with_a_warning(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /other\n", content_type="text/plain"
    )
    report = refresh_json(cli, code=1)
    other = [s for s in report["sources"] if s["url"].endswith("/other")]
    assert [(s["source_status"], "blocked by robots.txt" in s["error"]) for s in other] == [
        ("refused", True)
    ]
    assert page_server.hits("/other") == 0
    result = cli("refresh", "--allow-private", "--ignore-robots", code=0)
    assert "warning: robots.txt is not respected" in result.stderr
    assert page_server.hits("/other") == 1


def test_robots_txt_read_by_a_refresh_serves_the_refreshes_of_the_next_day(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """Kept in the evidence store, and still obeyed: the second refresh asks the site for
    no robots.txt and still leaves the page it disallows alone."""
    serve_v1(page_server)
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /other\n", content_type="text/plain"
    )
    first = refresh_json(cli, code=1)
    second = refresh_json(cli, code=1)
    assert page_server.hits("/robots.txt") == 1
    assert page_server.hits("/other") == 0
    for report in (first, second):
        other = [s for s in report["sources"] if s["url"].endswith("/other")]
        assert [s["source_status"] for s in other] == ["refused"]
    store = EvidenceStore.open(ledger.parent / "out" / "evidence.sqlite3")
    with store:
        now = dt.datetime.now(dt.UTC)
        kept = store.robots_read_since(
            page_server.url("").rstrip("/"), now - dt.timedelta(hours=1), now
        )
    assert kept == "User-agent: *\nDisallow: /other\n"


@pytest.mark.parametrize("proxy", ["ftp://127.0.0.1:1", "::bad", "ftp://me:secret@127.0.0.1:1"])
def test_a_proxy_variable_httpx_cannot_use_is_an_input_error_and_begins_no_run(
    cli: Cli, ledger: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch, proxy: str
) -> None:
    """It was an internal error (exit 70), after a run had begun: `status` then called the
    evidence partial, of a refresh that never fetched a page."""
    serve_v1(page_server)
    monkeypatch.setenv("HTTP_PROXY", proxy)
    result = cli("refresh", "--allow-private", code=2)
    assert len(result.stderr.splitlines()) == 1
    assert "HTTP_PROXY" in result.stderr and "secret" not in result.stderr
    store = EvidenceStore.open(ledger.parent / "out" / "evidence.sqlite3")
    with store:
        assert store.runs() == []


def test_headers_and_user_agent_from_the_command_line(cli: Cli, page_server: PageServer) -> None:
    serve_v1(page_server)
    cli(
        "refresh",
        "--allow-private",
        "--user-agent",
        "me/1",
        "--header",
        "Accept-Language: en",
        code=0,
    )
    sent = page_server.page_requests[-1].headers
    assert (sent["user-agent"], sent["accept-language"]) == ("me/1", "en")
    assert (
        "expected 'Name: value'"
        in cli("refresh", "--allow-private", "--header", "nonsense", code=2).stderr
    )


def test_verify_and_add_read_through_a_map(cli: Cli, ledger: Path, page_server: PageServer) -> None:
    serve_v1(page_server)
    page_server.set_page(
        "/new-page",
        "<html><head><title>Limits of one object</title></head><body><main>"
        f"<p>{DURABLE}</p></main></body></html>",
    )
    public = "https://docs.example.test/new-page"
    mapping = f"https://docs.example.test/={page_server.url('/')}"
    verified = claimledger(
        "verify", "--allow-private", public, DURABLE, "--map", mapping, "--json", code=0
    )
    assert json.loads(verified.stdout)["url"] == public

    cli(
        "add",
        "--allow-private",
        "limits",
        "--url",
        public,
        "--quote",
        DURABLE,
        "--map",
        mapping,
        code=0,
    )
    data = yaml.safe_load(ledger.read_text("utf-8"))
    (new_source,) = [s for s in data["sources"].values() if s["url"] == public]
    assert (new_source["title"], new_source["publisher"]) == (
        "Limits of one object",
        "example.test",  # the registrable domain: docs. and blog. are one publisher
    )


def test_an_empty_page_is_unreadable_and_moves_no_grade(cli: Cli, page_server: PageServer) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", "<html><body><nav>Home</nav><main></main></body></html>")
    result = cli("refresh", "--allow-private", code=1)
    assert "source unreadable: other" in result.stdout
    assert "no content" in result.stdout
    assert cli.json("regrade", code=0)["proposals"] == []
    for claim in ("durable", "ordered"):  # the quotes on the other pages stayed verified
        assert cli.json("diff", claim, code=0)["checks"] == []
