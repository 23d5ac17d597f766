"""Extra headers go only to the origin they were given for: `--header` to the site of the
pages the command reads, as named (with pages on several sites, `--header-for ORIGIN`
says which), the settings' `headers` to the ledger's own sites. Never to another origin a
redirect leads to (httpx would drop Authorization there, not `X-Api-Key` or `Cookie`, and
the fetcher follows redirects by hand anyway), nor its robots.txt, nor a mirror.

Two page servers on two ports of 127.0.0.1 are two origins, as two sites are.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_runner import Cli, claimledger
from evidence_site import ALARM, page, serve_v1, write_ledger
from webserver import PageServer, RecordedRequest, redirect

CREDENTIALS = {
    "x-api-key": "key-for-site-a",
    "cookie": "session=for-site-a",
    "authorization": "Bearer for-site-a",
}
GIVEN = [f"--header={name.title()}: {value}" for name, value in CREDENTIALS.items()]


@pytest.fixture
def elsewhere() -> Iterator[PageServer]:
    """Another origin: the same address, another port."""
    with PageServer() as server:
        yield server
    assert server.errors == []


def carried(request: RecordedRequest) -> dict[str, str]:
    return {name: value for name, value in request.headers.items() if name in CREDENTIALS}


def test_a_redirect_to_another_origin_carries_none_of_the_headers(
    page_server: PageServer, elsewhere: PageServer
) -> None:
    page_server.set_handler("/start", redirect(elsewhere.url("/page")))
    elsewhere.set_page("/page", page(ALARM))
    url = page_server.url("/start")
    claimledger("verify", "--allow-private", url, ALARM, *GIVEN, code=0)
    asked = {request.path: carried(request) for request in page_server.requests}
    assert asked == {"/robots.txt": CREDENTIALS, "/start": CREDENTIALS}
    assert [(r.path, carried(r)) for r in elsewhere.requests] == [
        ("/robots.txt", {}),
        ("/page", {}),
    ]


@pytest.fixture
def two_sites(tmp_path: Path, page_server: PageServer, elsewhere: PageServer) -> Cli:
    """The evidence ledger, its `other` source on the second origin."""
    serve_v1(page_server)
    elsewhere.set_page("/other", page(ALARM))
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(page_server.url("/other"), elsewhere.url("/other"))
    ledger.write_text(text, encoding="utf-8")
    return Cli(ledger)


def test_a_header_for_one_of_several_sites_goes_only_where_named(
    two_sites: Cli, page_server: PageServer, elsewhere: PageServer
) -> None:
    refused = two_sites("refresh", "--allow-private", *GIVEN, code=2).stderr
    (line,) = refused.splitlines()
    assert "--header would go to 2 sites" in line and "--header-for ORIGIN" in line
    assert page_server.requests == elsewhere.requests == []

    site = page_server.url("")
    two_sites("refresh", "--allow-private", *GIVEN, "--header-for", site, code=0)
    assert {str(carried(r)) for r in page_server.requests} == {str(CREDENTIALS)}
    assert all(carried(r) == {} for r in elsewhere.requests)


def test_the_settings_headers_go_to_the_ledgers_own_sites_only(
    two_sites: Cli, page_server: PageServer, elsewhere: PageServer
) -> None:
    (two_sites.ledger.parent / "claimledger.toml").write_text(
        'headers = { "X-Reader" = "ledger" }\n', encoding="utf-8"
    )
    two_sites("refresh", "--allow-private", code=0)
    assert {r.headers.get("x-reader") for r in page_server.requests} == {None}
    page_server.clear_requests()
    elsewhere.clear_requests()
    two_sites("trust")  # a cloned settings file's headers wait for the user's word
    two_sites("refresh", "--allow-private", code=0)
    for server in (page_server, elsewhere):
        assert {r.headers.get("x-reader") for r in server.requests} == {"ledger"}
    elsewhere.set_handler("/other", redirect(page_server.url("/moved"), 301))
    page_server.set_page("/moved", page(ALARM))
    two_sites("refresh", "--allow-private", code=1)  # moved: to another of the ledger's sites
    (moved,) = [r for r in page_server.requests if r.path == "/moved"]
    assert moved.headers.get("x-reader") == "ledger"


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ('headers = { "X-Name" = "café" }', "'X-Name': the value must be printable ASCII"),
        ('headers = { "X-Name" = "a\\r\\nHost: b" }', "the value must be printable ASCII"),
        ('headers = { "Bad Name" = "x" }', "'Bad Name' is not a header name"),
        ('headers = { "Host" = "intranet" }', "Host is the fetcher's own to set"),
        ('headers = { "Transfer-Encoding" = "chunked" }', "the fetcher's own to set"),
        ('user_agent = "a\\nb"', "user_agent: the value must be printable ASCII on one line"),
        ('user_agent = "bot é"', "user_agent: the value must be printable ASCII on one line"),
    ],
)
def test_a_header_the_settings_cannot_send_is_exit_2(
    tmp_path: Path, page_server: PageServer, settings: str, message: str
) -> None:
    cli = Cli(write_ledger(tmp_path, page_server))
    (cli.ledger.parent / "claimledger.toml").write_text(settings + "\n", encoding="utf-8")
    (line,) = cli("refresh", "--allow-private", code=2).stderr.splitlines()
    assert line.startswith("claimledger: error: ") and message in line, line
    assert page_server.requests == []


@pytest.mark.parametrize(
    ("arguments", "message"),
    [
        (["--header", "If-None-Match: *"], "If-None-Match is the fetcher's own to set"),
        (["--header", "X-Key: \x1b[2J"], "--header holds a control character (U+001B"),
        (["--header", "X-Key: \u00e9"], "the value must be printable ASCII"),
        (["--user-agent", "a\nb"], "--user-agent: the value must be printable ASCII on one line"),
        (["--header-for", "https://a.example"], "give a --header"),
        (["--header", "X: y", "--header-for", "ftp://a.example"], "expected an origin"),
        (["--header", "X: y", "--header-for", "https://a.example/path"], "expected an origin"),
        (["--header", "X: y", "--header-for", "https://u:p@a.example"], "expected an origin"),
    ],
)
def test_a_header_the_command_line_cannot_send_is_exit_2(
    page_server: PageServer, arguments: list[str], message: str
) -> None:
    url = page_server.url("/doc")
    (line,) = claimledger("verify", url, "words", *arguments, code=2).stderr.splitlines()
    assert line.startswith("claimledger: error: ") and message in line, line
    assert page_server.requests == []


@pytest.mark.parametrize(
    "header",
    [
        "X-Api-Key tok-3f9a7c",
        "Bad Name: tok-3f9a7c",
        "X-Api-Key: tok-3f9a7c\r\nX-Other: 1",
        "X-Api-Key: tok-3f9a7c\x1b",
        "Cookie: session=tok-3f9a7c é",
        "Authorization: Bearer tok-3f9a7c\nX-Other: 1",
        "Content-Length: tok-3f9a7c",
    ],
)
def test_a_header_refused_never_shows_its_value(page_server: PageServer, header: str) -> None:
    """A --header is most often a credential: the error line that refuses it, printed to a
    terminal or a CI job's log, names the header but never shows what it carries."""
    url = page_server.url("/doc")
    refused = claimledger("verify", url, "words", "--header", header, code=2)
    (line,) = refused.stderr.splitlines()
    assert line.startswith("claimledger: error: --header"), line
    assert "tok-3f9a7c" not in refused.stdout + refused.stderr
    assert page_server.requests == []


def test_a_bare_host_for_header_for_means_https(page_server: PageServer) -> None:
    """`--header-for 127.0.0.1:PORT` is https://127.0.0.1:PORT: not this http page's."""
    page_server.set_page("/doc", page(ALARM))
    site = page_server.url("").removeprefix("http://").rstrip("/")
    claimledger(
        "verify", "--allow-private", page_server.url("/doc"), ALARM, *GIVEN, "--header-for", site
    )
    assert all(carried(r) == {} for r in page_server.requests)


def test_a_header_for_a_site_no_page_is_on_is_said(
    two_sites: Cli, page_server: PageServer, elsewhere: PageServer
) -> None:
    """A mistyped --header-for (or the mirror's address, or https for an http site) sends
    the header nowhere: said in one line naming the site, never the header's value."""
    site = page_server.url("").rstrip("/")
    bare = site.removeprefix("http://")
    said = two_sites(
        "refresh", "--allow-private", *GIVEN, "--header-for", site, "--header-for", bare, code=0
    ).stderr
    warned = [line for line in said.splitlines() if "--header-for" in line]
    assert warned == [
        f"claimledger: warning: --header-for https://{bare} is the site of no page this "
        "command reads: its --header goes there only if a page redirects there"
    ]
    assert not any(value in said for value in CREDENTIALS.values())
    assert {str(carried(r)) for r in page_server.requests} == {str(CREDENTIALS)}
