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
from dns_server import NameServer
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import PageServer, redirect

SITE = "https://docs.example"
"""A public site the ledger cites, read from the loopback server through `--map`: the test's
name server knows nothing of it, so any request sent to it is seen as a look-up."""


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


def on_the_site(ledger: Path, server: PageServer) -> None:
    """The ledger citing the public `SITE` where it cited the loopback server."""
    rewritten(ledger, server.url(""), SITE)


def mirror_of_the_site(server: PageServer) -> str:
    return f"{SITE}/={server.url('/')}"


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


def test_consent_to_a_private_source_kept_before_its_host_was_read_in_lower_case_holds(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A source marked `allow_private` whose host the ledger spells in capitals: the user's
    consent names its address as the file writes it, as the release before kept it. Its
    host now read in lower case, the consent was said to have changed, though nothing had,
    and the source was refused."""
    from claimledger.workspace.trust import trust

    serve_v1(page_server)
    written = at(page_server, "LOCALHOST", "/guide")
    rewritten(ledger, f'"{page_server.url("/guide")}"', f'"{written}", allow_private: true')
    trust(ledger, {}, [f"claims.yaml: source guide ({written}): allow_private"])

    listed = cli.json("trust", "--list")["settings"]
    assert (listed["consent"], listed["asks"]) == (
        "trusted",
        [f"claims.yaml: source guide ({written}): allow_private"],
    )
    refreshed = cli("refresh", "--no-as-read", code=1)  # the others are not allowed
    assert "not honoured" not in refreshed.stderr
    assert page_server.hits("/guide") == 1


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


def test_a_redirect_to_the_page_asked_in_capitals_is_a_loop(page_server: PageServer) -> None:
    """A redirect from a page to its own address, its host in capitals, is a loop: refused
    at once, not followed for one more request of the same page."""
    page_server.set_page("/robots.txt", "", content_type="text/plain")
    page_server.set_handler("/a", redirect(at(page_server, "LOCALHOST", "/a")))
    (result,) = fetched([at(page_server, "localhost", "/a")]).values()
    assert result.source_status == "refused"
    assert "redirect loop" in (result.error or "")
    assert page_server.hits("/a") == 1


# --------------------------------------------------------------------------- a mirror


def test_a_map_names_the_site_in_any_case_and_takes_the_ledger_s_every_spelling(
    cli: Cli, ledger: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    serve_v1(page_server)
    on_the_site(ledger, page_server)
    rewritten(ledger, f'"{SITE}/guide"', '"https://Docs.Example/guide"')
    mapping = f"HTTPS://DOCS.EXAMPLE/={page_server.url('/')}"

    report = cli.json("refresh", "--allow-private", "--map", mapping, code=0)

    assert {check["url"] for check in report["checks"]} == {
        f"{SITE}/guide",
        f"{SITE}/mirror",
        f"{SITE}/other",
    }
    assert sorted(request.path for request in page_server.page_requests) == [
        "/guide",
        "/mirror",
        "/other",
    ]
    assert system_dns.asked("docs.example") == 0


def test_a_redirect_naming_the_mapped_site_in_capitals_is_read_at_the_mirror(
    cli: Cli, ledger: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """A Location of `HTTPS://DOCS.EXAMPLE/alarms` on the mirror names the site the map
    sends to it: read there, never asked of the real site, and adopted in lower case."""
    serve_v1(page_server)
    on_the_site(ledger, page_server)
    page_server.set_page("/alarms", page(ALARM))
    page_server.set_handler("/other", redirect("HTTPS://DOCS.EXAMPLE/alarms", 301))

    report = cli.json(
        "refresh", "--allow-private", "--map", mirror_of_the_site(page_server), code=1
    )

    assert system_dns.asked("docs.example") == 0
    assert page_server.hits("/alarms") == 1
    (other,) = [s for s in report["sources"] if s["url"] == f"{SITE}/other"]
    assert (other["source_status"], other["moved_to"]) == ("moved", f"{SITE}/alarms")
    cli("move", "other", code=0)
    assert sources(ledger)["other"]["url"] == f"{SITE}/alarms"


def test_a_sitemap_naming_the_mapped_site_in_capitals_is_read_at_the_mirror(
    cli: Cli, ledger: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """A page gone without a redirect is looked for among its site's sitemap: an entry
    naming the site in capitals is a page of the site the map sends to the mirror."""
    serve_v1(page_server)
    on_the_site(ledger, page_server)
    page_server.remove("/other")
    page_server.set_page("/alarms", page(ALARM))
    listed = "<urlset><url><loc>HTTPS://Docs.Example/alarms</loc></url></urlset>"
    page_server.set_page("/sitemap.xml", listed, content_type="application/xml")

    cli("refresh", "--allow-private", "--map", mirror_of_the_site(page_server), code=1)

    assert system_dns.asked("docs.example") == 0
    assert page_server.hits("/alarms") == 1
    (relocation,) = cli.json("status", code=1)["relocations"]
    assert relocation["found_at"] == f"{SITE}/alarms", relocation
    cli("move", "other", code=0)
    assert sources(ledger)["other"]["url"] == f"{SITE}/alarms"
