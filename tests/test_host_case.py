"""A host written in capitals (`HTTP://LOCALHOST:…`, `https://Docs.Example/`) is that host:
case is no part of a host name (RFC 3986 §3.2.2). A page's address is taken, kept, compared
and fetched with its scheme and host in lower case, its path as written: from the ledger,
the command line, a redirect and a sitemap alike. So one page is one page, one site asks
for its robots.txt once, and a `--map` mirror takes every spelling of the site it names,
never sending a request to the real site the user did not allow."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.ledger.file import load
from claimledger.records import FetchPolicy, FetchResult
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import Cli
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import PageServer


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def rewritten(ledger: Path, old: str, new: str) -> None:
    ledger.write_text(ledger.read_text("utf-8").replace(old, new), encoding="utf-8")


def sources(ledger: Path) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(ledger.read_text("utf-8"))["sources"]
    return found


def at(server: PageServer, host: str, path: str) -> str:
    """The server's page at `path`, its host (this machine) written as `host`."""
    return server.url(path, host=host)


# --------------------------------------------------------------------------- the ledger


def test_add_writes_a_host_typed_in_capitals_in_lower_case_and_quote_finds_it(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_page("/limits", page(DURABLE, ALARM))
    typed = at(page_server, "LOCALHOST", "/limits").replace("http:", "HTTP:")
    cli("add", "limits", "--url", typed, "--quote", DURABLE, "--allow-private")
    limits = at(page_server, "localhost", "/limits")
    (new,) = [sid for sid, source in sources(ledger).items() if source["url"] == limits]

    again = at(page_server, "LocalHost", "/limits")
    cli("quote", "limits", ALARM, "--url", again, "--allow-private")
    assert [sid for sid, source in sources(ledger).items() if "limits" in source["url"]] == [new]
    assert [quote.sources for quote in load(ledger).claim("limits").quotes] == [(new,), (new,)]


def test_a_ledger_s_hosts_in_capitals_are_read_in_lower_case_and_ask_one_robots_txt(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """Three pages of one site, its host spelt three ways in the ledger: one robots.txt
    read, each page read once, and each known by its address in lower case."""
    serve_v1(page_server)
    for path, host in (("/guide", "LOCALHOST"), ("/mirror", "localhost"), ("/other", "LocalHost")):
        rewritten(ledger, f'"{page_server.url(path)}"', f'"{at(page_server, host, path)}"')
    assert "ok: 3 claims, 3 sources" in cli("check", code=0).stdout
    read = load(ledger).sources
    assert read["guide"].url == at(page_server, "localhost", "/guide")

    report = cli.json("refresh", "--allow-private", code=0)

    assert page_server.hits("/robots.txt") == 1
    assert sorted(request.path for request in page_server.page_requests) == [
        "/guide",
        "/mirror",
        "/other",
    ]
    assert {check["url"] for check in report["checks"]} == {
        at(page_server, "localhost", path) for path in ("/guide", "/mirror", "/other")
    }
    assert '"http://LOCALHOST:' in ledger.read_text("utf-8")  # as written by hand


def test_one_page_in_two_spellings_of_its_host_is_one_page_read_once(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """`guide` and `mirror` cite one page, its host in capitals in one of them: one page,
    read once, and one source toward independence though `mirror` says it is another."""
    serve_v1(page_server)
    rewritten(
        ledger, f'"{page_server.url("/guide")}"', f'"{at(page_server, "LOCALHOST", "/guide")}"'
    )
    rewritten(
        ledger, f'"{page_server.url("/mirror")}"', f'"{at(page_server, "localhost", "/guide")}"'
    )
    rewritten(ledger, "kind: mirror, publisher: q}", "kind: docs, publisher: q, independent: true}")

    cli("refresh", "--allow-private", code=0)

    assert page_server.hits("/guide") == 1
    explained = cli("explain", "durable", code=0).stdout
    assert "2 independent" not in " ".join(explained.split())


def test_move_to_the_address_it_has_in_capitals_is_no_move(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    rewritten(
        ledger, f'"{page_server.url("/guide")}"', f'"{at(page_server, "localhost", "/guide")}"'
    )
    before = ledger.read_bytes()
    refused = cli("move", "guide", at(page_server, "LOCALHOST", "/guide"), code=2)
    assert "is already at" in refused.stderr
    assert ledger.read_bytes() == before

    cli("move", "other", "HTTPS://Docs.Example/Alarms/", code=0)
    assert sources(ledger)["other"]["url"] == "https://docs.example/Alarms/"


def test_verify_and_snapshot_take_a_host_in_capitals_as_its_lower_case_address(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    rewritten(
        ledger, f'"{page_server.url("/guide")}"', f'"{at(page_server, "localhost", "/guide")}"'
    )
    typed = at(page_server, "LOCALHOST", "/guide")
    verified = cli.json("verify", "--allow-private", typed, DURABLE, code=0)
    assert verified["url"] == at(page_server, "localhost", "/guide")
    cli("refresh", "--allow-private", code=0)
    assert DURABLE in cli("snapshot", typed, code=0).stdout


# --------------------------------------------------------------------------- the fetcher

POLICY = FetchPolicy(allow_private=True, timeout=5.0, retries=0, per_host_interval=0.0)


def fetched(urls: list[str]) -> dict[str, FetchResult]:
    async def run() -> dict[str, FetchResult]:
        async with make_client(POLICY, trust_env=False) as client:
            return await fetch_all(urls, client, policy=POLICY)

    return asyncio.run(run())


def test_one_host_in_two_spellings_asks_for_one_robots_txt(page_server: PageServer) -> None:
    """Two spellings of one host are one site: its robots.txt is asked for once, and binds
    the pages of both (`/private` is never requested, however its host is written)."""
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /private\n", content_type="text/plain"
    )
    page_server.set_page("/a", page(DURABLE))
    page_server.set_page("/private", page(ALARM))
    results = fetched(
        [at(page_server, "LOCALHOST", "/a"), at(page_server, "localhost", "/private")]
    )
    assert [result.source_status for result in results.values()] == ["ok", "refused"]
    assert page_server.hits("/robots.txt") == 1
    assert page_server.hits("/private") == 0
