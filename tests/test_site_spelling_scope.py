"""What is allowed for a site is allowed for it however its host is spelt, as `site_of` has
it: in Unicode or Punycode, in capitals, with a final dot. A source marked `allow_private`
lets its site be read at a private address, a `--header-for` site gets its header, and a
sitemap's pages are the site's, whichever spelling the ledger, the option, the sitemap or
the request writes. Never another host: a header goes to no name but the one given."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from claimledger.records import FetchPolicy, FetchResult
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import Cli, claimledger
from dns_server import NameServer
from evidence_site import DURABLE, ORDERED, page, serve_v1, write_ledger
from webserver import Exchange, PageServer

UNICODE, PUNYCODE = "bücher.example", "xn--bcher-kva.example"
POLICY = FetchPolicy(allow_private=True, timeout=5.0, retries=0, per_host_interval=0.0)


def fetched(urls: list[str], dns: NameServer) -> list[FetchResult]:
    """What the fetcher made of `urls`, in their order, names resolved by `dns`."""

    async def run() -> dict[str, FetchResult]:
        async with make_client(POLICY, trust_env=False, resolver=dns.resolve) as client:
            return await fetch_all(urls, client, policy=POLICY)

    found = asyncio.run(run())
    return [found[url] for url in urls]


# --------------------------------------------------------------------------- allow_private


@pytest.mark.parametrize("written", [UNICODE, PUNYCODE, "Bücher.Example."])
def test_a_source_allowed_private_is_read_however_its_host_is_spelt(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer, written: str
) -> None:
    """The ledger marks its sources on `bücher.example` `allow_private`, and the user
    trusted it: their site, at this machine's address, is read in any spelling (it was
    refused in Unicode, the request naming it in Punycode)."""
    system_dns.script(PUNYCODE, ["127.0.0.1"])
    serve_v1(page_server)
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(page_server.url(""), page_server.url("", written))
    marked = "kind: docs, publisher: p, allow_private: true}"
    ledger.write_text(text.replace("kind: docs, publisher: p}", marked), "utf-8")
    cli = Cli(ledger)
    cli("trust")

    report = cli.json("refresh", "--no-as-read", code=0)

    assert {source["source_status"] for source in report["sources"]} == {"ok"}
    assert {r.path for r in page_server.page_requests} == {"/guide", "/mirror", "/other"}


def test_a_page_given_on_the_command_line_is_allowed_in_any_spelling_of_a_marked_site(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """`add --url` to the site of a source marked `allow_private` is checked before it is
    read: `localhost.` is the marked `localhost`, not a private address to refuse."""
    system_dns.script("localhost", ["127.0.0.1"])
    serve_v1(page_server)
    page_server.set_page("/new", page(ORDERED))
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(page_server.url(""), page_server.url("", "localhost"))
    marked = "kind: docs, publisher: p, allow_private: true}"
    ledger.write_text(text.replace("kind: docs, publisher: p}", marked), "utf-8")
    cli = Cli(ledger)
    cli("trust")

    url = page_server.url("/new", "localhost.")
    cli("add", "ordered-again", "--url", url, "--quote", ORDERED, "--section", "main")

    assert page_server.hits("/new") == 1
    assert url in ledger.read_text("utf-8")


# --------------------------------------------------------------------------- robots.txt


def robots_for_its_own_name(exchange: Exchange) -> None:
    """A server whose site is `docs.example`: a request naming another host, as one naming
    `docs.example.` does, gets its default answer, a 404, which allows everything."""
    if exchange.request_headers.get("host", "").split(":")[0] != "docs.example":
        exchange.respond(404, b"no such site", {"Content-Type": "text/plain"})
        return
    body = b"User-agent: *\nDisallow: /private\n"
    exchange.respond(200, body, {"Content-Type": "text/plain"})


@pytest.mark.parametrize("first", ["docs.example.", "docs.example"])
def test_a_site_s_robots_txt_is_read_in_its_own_spelling_whichever_page_comes_first(
    page_server: PageServer, dns: NameServer, first: str
) -> None:
    """One robots.txt serves both spellings of a host; it was read at the spelling of the
    first page asked, so a page written `docs.example.` first had the server's answer for
    no site of its own (everything allowed) bind `docs.example`, and `/private`, which
    the site's robots.txt disallows, was read. It is read at the site itself."""
    dns.script("docs.example", ["127.0.0.1"])
    page_server.set_handler("/robots.txt", robots_for_its_own_name)
    page_server.set_page("/a", page(DURABLE))
    page_server.set_page("/private", page(DURABLE))
    other = "docs.example" if first.endswith(".") else "docs.example."

    results = fetched([page_server.url("/a", first), page_server.url("/private", other)], dns)

    assert [result.source_status for result in results] == ["ok", "refused"]
    assert page_server.hits("/private") == 0
    assert page_server.hits("/robots.txt") == 1


# --------------------------------------------------------------------------- headers

KEY = "key-for-the-site"


@pytest.mark.parametrize(
    ("named", "reads"),
    [
        (UNICODE, PUNYCODE),
        (PUNYCODE, "Bücher.example"),
        ("docs.example", "docs.example."),
        ("docs.example.", "DOCS.example"),
    ],
)
def test_a_header_for_a_site_goes_to_its_pages_however_its_host_is_spelt(
    page_server: PageServer, system_dns: NameServer, named: str, reads: str
) -> None:
    """`--header-for http://bücher.example:PORT` is the site of the page
    `http://xn--bcher-kva.example:PORT/doc`: its header goes there, with its robots.txt,
    and nothing is said of a site no page is on."""
    for name in (PUNYCODE, "docs.example"):
        system_dns.script(name, ["127.0.0.1"])
    page_server.set_page("/doc", page(DURABLE))
    url = page_server.url("/doc", reads)
    site = page_server.url("", named)

    said = claimledger(
        "verify",
        "--allow-private",
        url,
        DURABLE,
        f"--header=X-Api-Key: {KEY}",
        "--header-for",
        site,
    )

    assert "--header-for" not in said.stderr
    sent = {request.path: request.headers.get("x-api-key") for request in page_server.requests}
    assert sent == {"/robots.txt": KEY, "/doc": KEY}


def test_a_header_goes_to_the_one_site_of_pages_that_spell_its_host_two_ways(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """Without `--header-for`, a header goes to the one site the pages are on: the ledger
    citing `bücher.example` in Unicode and in Punycode is on one site, not two to refuse
    the header for."""
    system_dns.script(PUNYCODE, ["127.0.0.1"])
    serve_v1(page_server)
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(page_server.url(""), page_server.url("", PUNYCODE))
    ledger.write_text(text.replace(PUNYCODE, UNICODE, 1), "utf-8")

    Cli(ledger)("refresh", "--allow-private", "--no-as-read", f"--header=X-Api-Key: {KEY}")

    assert {request.headers.get("x-api-key") for request in page_server.requests} == {KEY}
    assert {request.path for request in page_server.page_requests} == {
        "/guide",
        "/mirror",
        "/other",
    }


@pytest.mark.parametrize(
    "other", ["bucher.example", f"www.{PUNYCODE}", f"{PUNYCODE}.test", "xn--bcher-kva.examples"]
)
def test_a_header_for_a_site_goes_to_no_other_host(
    page_server: PageServer, system_dns: NameServer, other: str
) -> None:
    """A name like the site's (its letter without the umlaut, a `www.` before it, one more
    label after it) is another host, whose pages never get the site's header."""
    system_dns.script(other, ["127.0.0.1"])
    page_server.set_page("/doc", page(DURABLE))
    site = page_server.url("", UNICODE)

    said = claimledger(
        "verify",
        "--allow-private",
        page_server.url("/doc", other),
        DURABLE,
        f"--header=X-Api-Key: {KEY}",
        "--header-for",
        site,
    )

    assert "is the site of no page this command reads" in said.stderr
    assert [request.headers.get("x-api-key") for request in page_server.requests] == [None, None]


# --------------------------------------------------------------------------- sitemaps

LOST = """\
ledger: 1
title: Moved pages
date_read: 2026-08-23
sections: [{{id: main, title: Main}}]
sources:
  alarms: {{url: "{alarms}", title: Alarms, kind: docs, publisher: p}}
  timers: {{url: "{timers}", title: Timers, kind: docs, publisher: p}}
claims:
  - id: durable
    section: main
    title: Durable
    kind: guarantee
    statement: Writes are durable.
    quotes:
      - {{text: "{durable}", sources: [alarms, timers]}}
      - {{text: "{ordered}", sources: [alarms]}}
    grades: [{{on: wording, grade: CLAIMED, basis: quotes}}]
"""


def test_a_sitemap_lists_the_site_s_pages_however_it_spells_its_host(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """Two pages of `bücher.example` are gone, the ledger citing one in Unicode and one in
    Punycode; the site's robots.txt and sitemap name it in Punycode. The site's sitemap is
    read once for both, and the page they moved to is found for each (its pages were all
    dropped as another site's where the ledger spelt the host in Unicode)."""
    system_dns.script(PUNYCODE, ["127.0.0.1"])
    new = page_server.url("/docs/new", PUNYCODE)
    page_server.set_page("/docs/new", page(DURABLE, ORDERED))
    page_server.set_page(
        "/robots.txt",
        f"User-agent: *\nSitemap: {page_server.url('/sitemap.xml', PUNYCODE)}\n",
        content_type="text/plain",
    )
    page_server.set_page(
        "/sitemap.xml", f"<urlset><url><loc>{new}</loc></url></urlset>", content_type="text/xml"
    )
    ledger = tmp_path / "claims.yaml"
    alarms, timers = page_server.url("/docs/alarms", UNICODE), page_server.url("/docs/timers")
    timers = page_server.url("/docs/timers", PUNYCODE)
    text = LOST.format(alarms=alarms, timers=timers, durable=DURABLE, ordered=ORDERED)
    ledger.write_text(text, encoding="utf-8")

    report = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", code=1)

    found = {
        relocation["source_id"]: relocation["found_at"] for relocation in report["relocations"]
    }
    assert found == {"alarms": new, "timers": new}
    assert page_server.hits("/sitemap.xml") == 1
    assert page_server.hits("/docs/new") == 1
