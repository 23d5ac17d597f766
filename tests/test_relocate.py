"""A page that moved without a redirect, found again on its site's sitemap: the sitemap
read as real sites serve it (robots.txt's Sitemap line, an index, a gzipped file), the
candidates ranked by their address and read politely (a bound, robots.txt), the page that
carries the quotes proposed with the evidence, and `move` adopting it. All on loopback."""

from __future__ import annotations

import asyncio
import datetime as dt
import gzip
import string
from pathlib import Path
from typing import Any

import pytest

from claimledger.errors import PageUnreadable
from claimledger.evidence.relocate import (
    MAX_SITE_PAGES,
    Lost,
    choose,
    path_likeness,
    rank,
    recover,
    relocation_json,
    relocation_line,
)
from claimledger.evidence.sitemaps import (
    gunzip,
    parse_sitemap,
    robots_sitemaps,
    same_site,
    sitemap_guesses,
)
from claimledger.evidence.store import EvidenceStore
from claimledger.ledger.file import load
from claimledger.records import Candidate, FetchPolicy, QuoteThere
from claimledger.urls import UrlMap
from claimledger.web.fetch import make_client
from cli_runner import Cli
from webserver import Exchange, Page, PageServer, redirect

WRITES = "Every write is durable before the response is sent to the client."
ORDER = "Messages from one sender are delivered in the order they were sent."
WRITES_REWORDED = "Every write is durable before the reply is sent to the client."

OLD = "/docs/api/alarms"
NEW = "/docs/reference/alarms-api"
DECOY = "/docs/api/alarms-legacy"  # more like the old address than the page that moved
PRIVATE = "/private/docs/api/alarms"  # likest of all, but robots.txt disallows it
ALARM_SINGULAR = "/docs/api/alarm"  # another page more like the old address than the new one

LEDGER = string.Template("""\
ledger: 1
title: Moved pages
date_read: 2026-08-23
sections: [{id: main, title: Main}]
sources:
  alarms: {url: "$alarms", title: Alarms API, kind: docs, publisher: p}
  guide: {url: "$guide", title: Guide, kind: docs, publisher: p}
claims:
  - id: durable
    section: main
    title: Durable
    kind: guarantee
    statement: Writes are durable.
    quotes:
      - {text: "$writes", sources: [alarms, guide]}
      - {text: "$order", sources: [alarms]}
    grades: [{on: wording, grade: CLAIMED, basis: quotes}]
""")

NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def page(title: str, *sentences: str) -> str:
    body = "".join(f"<p>{s} More prose follows.</p>" for s in sentences)
    return (
        f"<html><head><title>{title}</title></head><body><nav>Home</nav>"
        f"<main><h1>{title}</h1>{body}</main><footer>2026</footer></body></html>"
    )


def urlset(*locs: str, namespace: str = NS) -> bytes:
    entries = "".join(f"<url><loc>{loc}</loc><lastmod>2026-01-01</lastmod></url>" for loc in locs)
    xmlns = f' xmlns="{namespace}"' if namespace else ""
    return f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset{xmlns}>{entries}</urlset>'.encode()


def sitemapindex(*locs: str) -> bytes:
    entries = "".join(f"<sitemap><loc>{loc}</loc></sitemap>" for loc in locs)
    return f'<?xml version="1.0"?><sitemapindex xmlns="{NS}">{entries}</sitemapindex>'.encode()


def write_ledger(directory: Path, alarms: str, guide: str) -> Path:
    path = directory / "ledger" / "claims.yaml"
    path.parent.mkdir(exist_ok=True)
    text = LEDGER.substitute(alarms=alarms, guide=guide, writes=WRITES, order=ORDER)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server.url(OLD), page_server.url("/guide"))


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


BLOG = [f"/blog/2026/post-{n}" for n in range(40)]


def serve_site(server: PageServer, *, with_sitemap: bool = True) -> None:
    """The docs site before the move: the page at its old address, and the guide."""
    server.set_page(OLD, page("Alarms API", WRITES, ORDER))
    server.set_page("/guide", page("Guide", WRITES))
    if not with_sitemap:
        return
    server.set_page(
        "/robots.txt",
        f"User-agent: *\nDisallow: /private/\nSitemap: {server.url('/sitemap_index.xml')}\n",
        content_type="text/plain",
    )
    server.set_page(
        "/sitemap_index.xml",
        sitemapindex(server.url("/sitemaps/docs.xml.gz"), server.url("/sitemaps/blog.xml")),
        content_type="application/xml",
    )
    docs = [server.url(path) for path in ("/guide", NEW, DECOY, PRIVATE, OLD)]
    server.set_handler(
        "/sitemaps/docs.xml.gz",
        Page(gzip.compress(urlset(*docs)), 200, {"Content-Type": "application/gzip"}),
    )
    server.set_page(
        "/sitemaps/blog.xml",
        urlset(*(server.url(path) for path in BLOG)),
        content_type="text/xml",
    )


def move_without_redirect(server: PageServer) -> None:
    """The page leaves its address (404) for a new one that nothing points to."""
    server.remove(OLD)
    server.set_page(NEW, page("Alarms API reference", ORDER, "An intro line.", WRITES))
    server.set_page(DECOY, page("Legacy alarms", "Alarms used to be scheduled by hand."))
    server.set_page(PRIVATE, page("Alarms API", WRITES, ORDER))


def candidate_requests(server: PageServer) -> list[str]:
    pages = {NEW, DECOY, PRIVATE, ALARM_SINGULAR, *BLOG}
    return [request.path for request in server.requests if request.path in pages]


# --------------------------------------------------------------------------- the whole story


def test_a_page_moved_without_a_redirect_is_found_on_the_sitemap_and_adopted(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    assert page_server.hits("/sitemap_index.xml") == 0  # nothing is looked for while read
    move_without_redirect(page_server)
    page_server.clear_requests()

    result = cli("refresh", "--allow-private", code=1)
    new = page_server.url(NEW)
    assert (
        f"source alarms gone; found at {new} (2 of 2 quotes: durable #1 verified, "
        "durable #2 verified); adopt it with `claimledger move alarms`"
    ) in result.stdout
    tried = candidate_requests(page_server)
    assert tried == [DECOY, NEW]  # best address first, and no further once all verified
    assert page_server.hits(PRIVATE) == 0  # robots.txt disallows it: never requested
    assert page_server.hits("/sitemaps/docs.xml.gz") == 1
    assert page_server.hits("/sitemap_index.xml") == 1

    status = cli("status", code=1)
    assert f"found at {new} (2 of 2 quotes" in status.stdout

    moved = cli("move", "alarms", code=0)
    assert f"moved alarms: {page_server.url(OLD)} -> {new}" in moved.stdout
    source = load(ledger).sources["alarms"]
    assert source.url == new
    (entry,) = source.history
    assert entry.moved_from == page_server.url(OLD)
    assert entry.why is not None and "found on its site's sitemap" in entry.why
    assert "2 of 2 of its quotes" in entry.why

    page_server.clear_requests()
    again = cli("refresh", "--allow-private", code=0)  # every quote verified at its new address
    assert "found at" not in again.stdout
    assert page_server.hits("/sitemap_index.xml") == 0  # nothing lost: nothing looked for
    assert "found at" not in cli("status", code=0).stdout


@pytest.mark.parametrize("twin_says", [(), ("New in this version.",)])
def test_two_pages_carrying_the_quotes_alike_are_both_said_and_neither_adopted(
    cli: Cli, ledger: Path, page_server: PageServer, twin_says: tuple[str, ...]
) -> None:
    """A page whose quotes are on two pages of its site, at addresses as like its old one,
    may have become either (the same words or not): both are said, and `move` adopts
    neither on its own, but either when named."""
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    twins = ("/docs/v1/alarms", "/docs/v2/alarms")
    page_server.remove(OLD)
    page_server.set_page(twins[0], page("Alarms API", WRITES, ORDER))
    page_server.set_page(twins[1], page("Alarms API", WRITES, ORDER, *twin_says))
    sitemap = urlset(*(page_server.url(path) for path in ("/guide", *twins)))
    page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")

    result = cli("refresh", "--allow-private", code=1)

    said = " ".join(result.stdout.split())
    first, second = (page_server.url(path) for path in twins)
    assert f"carried alike by 2 pages, {first} and {second}, and nothing says which" in said
    assert "not found on its site" not in said
    assert "adopt it with `claimledger move alarms`" not in said
    assert "give NEW_URL" in cli("move", "alarms", code=2).stderr
    assert load(ledger).sources["alarms"].url == page_server.url(OLD)
    cli("move", "alarms", second)
    assert load(ledger).sources["alarms"].url == second


@pytest.mark.parametrize(
    ("twin", "twin_page"),
    [
        (f"{NEW}.html", None),  # sent to the page by a 301
        (f"{NEW}/", "same"),  # the same page served at both spellings
        (f"{NEW}?utm_source=feed", "same"),
    ],
)
def test_one_page_at_two_addresses_is_one_candidate(
    cli: Cli, ledger: Path, page_server: PageServer, twin: str, twin_page: str | None
) -> None:
    """A page the sitemap lists at two addresses (one redirected to the other, a trailing
    slash, a tracking query) is one page carrying the quotes: proposed, and adopted."""
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    page_server.remove(OLD)
    moved = page("Alarms API reference", ORDER, WRITES)
    page_server.set_page(NEW, moved)
    if twin_page is None:
        page_server.set_handler(twin, redirect(NEW, 301))
    elif "?" not in twin:
        page_server.set_page(twin, moved)
    sitemap = urlset(*(page_server.url(path) for path in ("/guide", twin, NEW)))
    page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")

    result = cli("refresh", "--allow-private", code=1)

    assert f"found at {page_server.url(NEW)} (2 of 2 quotes" in result.stdout
    cli("move", "alarms")
    assert load(ledger).sources["alarms"].url == page_server.url(NEW)


@pytest.mark.parametrize(
    ("twin", "canonical", "proposed"),
    [
        (f"{NEW}/", None, NEW),  # each reading stamped with its own time
        (f"{NEW}/", f"{NEW}/", f"{NEW}/"),  # the page names its own address
        (f"{NEW}?utm_source=feed", NEW, NEW),
    ],
    ids=["a-timestamp", "its-canonical-with-a-slash", "its-canonical-without-a-query"],
)
def test_one_page_at_two_spellings_is_proposed_at_its_own_address(
    cli: Cli, ledger: Path, page_server: PageServer, twin: str, canonical: str | None, proposed: str
) -> None:
    """A page served at `/x` and `/x/` whose text carries the time it was served read as two
    pages carrying the quotes alike, and nothing was proposed; one of two spellings is
    proposed at the address its canonical link names, else the tidier one."""
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    page_server.remove(OLD)
    head = f'<link rel="canonical" href="{page_server.url(canonical)}">' if canonical else ""
    for path, stamp in ((NEW, "10:00:01"), (twin.split("?")[0], "10:00:02")):
        served = page("Alarms API reference", ORDER, WRITES, f"Served at {stamp}.")
        page_server.set_page(path, served.replace("<head>", f"<head>{head}"))
    sitemap = urlset(*(page_server.url(path) for path in ("/guide", twin, NEW)))
    page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")

    result = cli("refresh", "--allow-private", code=1)

    assert f"found at {page_server.url(proposed)} (2 of 2 quotes" in result.stdout
    cli("move", "alarms")
    assert load(ledger).sources["alarms"].url == page_server.url(proposed)


@pytest.mark.parametrize("named", ["by-the-page-carrying-the-quotes", "by-the-other-page"])
def test_a_canonical_link_between_two_paths_makes_no_one_page_of_them(
    cli: Cli, page_server: PageServer, named: str
) -> None:
    """A canonical link naming another path (a site naming one page canonical for all, or
    a hostile page) folded the page carrying the quotes into the one it named, unread:
    the other page was proposed, carrying one quote of two."""
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    page_server.remove(OLD)
    link = {"by-the-page-carrying-the-quotes": (DECOY, None), "by-the-other-page": (None, NEW)}

    def head(path: str | None) -> str:
        return f'<link rel="canonical" href="{page_server.url(path)}">' if path else ""

    new_names, decoy_names = link[named]
    served = page("Alarms API reference", ORDER, WRITES)
    page_server.set_page(NEW, served.replace("<head>", f"<head>{head(new_names)}"))
    decoy = page("Alarms legacy", "Nothing here about it.")
    page_server.set_page(DECOY, decoy.replace("<head>", f"<head>{head(decoy_names)}"))
    sitemap = urlset(*(page_server.url(path) for path in ("/guide", DECOY, NEW)))
    page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")

    result = cli("refresh", "--allow-private", code=1)

    assert f"found at {page_server.url(NEW)} (2 of 2 quotes" in result.stdout


def test_a_page_already_another_source_is_adopted_by_a_merge(
    cli: Cli, page_server: PageServer
) -> None:
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    page_server.remove(OLD)  # its first quote now only on the guide, another source
    page_server.set_page("/sitemap.xml", urlset(page_server.url("/guide")), content_type="text/xml")
    merge = "adopt it with `claimledger source alarms --merge-into guide`"
    assert merge in cli("refresh", "--allow-private", code=1).stdout
    assert merge in cli("status", code=1).stdout
    refused = cli("move", "alarms", code=2)  # what `move` would answer
    assert "`claimledger source alarms --merge-into guide`" in refused.stderr


def test_the_json_carries_the_proposal_and_its_evidence(cli: Cli, page_server: PageServer) -> None:
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    report: dict[str, Any] = cli.json("refresh", "--allow-private", code=1)
    (found,) = report["relocations"]
    assert (found["source_id"], found["reason"], found["found_at"]) == (
        "alarms",
        "gone",
        page_server.url(NEW),
    )
    assert (found["quotes_found"], found["quotes_total"]) == (2, 2)
    assert {(q["quote_text"], q["status"], q["match"]) for q in found["quotes"]} == {
        (WRITES, "verified", "exact"),
        (ORDER, "verified", "exact"),
    }
    numbered = {(q["claim_id"], q["quote_index"], q["quote_text"]) for q in found["quotes"]}
    assert numbered == {("durable", 1, WRITES), ("durable", 2, ORDER)}  # as `durable #1` says
    assert found["run_id"] == report["run"]
    assert [(c["url"], c["source_status"], c["quotes_found"]) for c in found["candidates"]] == [
        (page_server.url(PRIVATE), "refused", 0),
        (page_server.url(DECOY), "ok", 0),
        (page_server.url(NEW), "ok", 2),
    ]
    assert found["candidates"][2]["title"] == "Alarms API reference"
    assert found["sitemaps"] == [
        page_server.url("/sitemap_index.xml"),
        page_server.url("/sitemaps/docs.xml.gz"),
        page_server.url("/sitemaps/blog.xml"),
    ]
    assert report["saved"] == []
    status: dict[str, Any] = cli.json("status", code=1)
    assert [r["found_at"] for r in status["relocations"]] == [page_server.url(NEW)]


def test_no_sitemap_is_read_once_the_sites_pages_are_had(cli: Cli, page_server: PageServer) -> None:
    """A site's index names two sitemaps of 50,000 pages each: the first gives as many
    pages as are looked among, so the second is not read (each was parsed in full, half
    a second a megabyte, after the bound was reached)."""
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    first = [page_server.url(NEW)] + [page_server.url(f"/docs/p{n}") for n in range(MAX_SITE_PAGES)]
    more = [page_server.url(f"/more/p{n}") for n in range(MAX_SITE_PAGES)]
    index = sitemapindex(page_server.url("/sitemaps/one.xml"), page_server.url("/sitemaps/two.xml"))
    page_server.set_page("/sitemap_index.xml", index, content_type="application/xml")
    page_server.set_page("/sitemaps/one.xml", urlset(*first), content_type="application/xml")
    page_server.set_page("/sitemaps/two.xml", urlset(*more), content_type="application/xml")

    report: dict[str, Any] = cli.json("refresh", "--allow-private", code=1)

    (found,) = report["relocations"]
    assert found["found_at"] == page_server.url(NEW)
    assert found["sitemaps"] == [
        page_server.url("/sitemap_index.xml"),
        page_server.url("/sitemaps/one.xml"),
    ]


def test_no_more_candidates_are_read_than_the_bound(cli: Cli, page_server: PageServer) -> None:
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    page_server.set_page(ALARM_SINGULAR, page("More legacy alarms", "Nothing quoted here."))
    docs = [page_server.url(path) for path in (NEW, DECOY, ALARM_SINGULAR, PRIVATE)]
    page_server.set_handler(
        "/sitemaps/docs.xml.gz",
        Page(gzip.compress(urlset(*docs)), 200, {"Content-Type": "application/gzip"}),
    )
    page_server.clear_requests()
    result = cli("refresh", "--allow-private", "--recover-candidates", "2", code=1)
    assert (
        "no page of its sitemap carries its quotes (2 of its 44 pages read, 1 not asked for "
        "(robots.txt, or an address not public))"
    ) in result.stdout
    assert candidate_requests(page_server) == [ALARM_SINGULAR, DECOY]  # robots.txt's is free
    assert "did not move at the last refresh (gone; its site's sitemap: no page" in (
        cli("move", "alarms", code=2).stderr
    )


def test_the_bound_is_a_setting_beside_the_ledger_and_recovery_can_be_skipped(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    (ledger.parent / "claimledger.toml").write_text("recover_candidates = 1\n", encoding="utf-8")
    page_server.clear_requests()
    result = cli("refresh", "--allow-private", code=1)
    assert "(1 of its" in result.stdout and candidate_requests(page_server) == [DECOY]

    page_server.clear_requests()
    skipped = cli("refresh", "--allow-private", "--no-recover", code=1)
    assert "source alarms gone;" not in skipped.stdout
    assert page_server.hits("/sitemap_index.xml") == page_server.hits("/sitemap.xml") == 0


def test_a_site_with_no_sitemap_says_so(cli: Cli, page_server: PageServer) -> None:
    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    result = cli("refresh", "--allow-private", code=1)
    site = page_server.url("")
    assert f"source alarms gone; not found on its site: no sitemap on {site}" in result.stdout
    assert "robots.txt names no sitemap" in result.stdout
    assert f"{site}/sitemap.xml: HTTP 404" in result.stdout
    assert f"{site}/docs/sitemap.xml: HTTP 404" in result.stdout
    assert candidate_requests(page_server) == []
    refused = cli("move", "alarms", code=2).stderr
    assert "its site's sitemap: no sitemap on" in refused


def test_the_sitemaps_guessed_are_said_in_the_order_asked_whichever_answers_first(
    cli: Cli, page_server: PageServer
) -> None:
    """The note is the same on every run, not in the order the answers happened to come."""

    def slow_not_found(exchange: Exchange) -> None:
        exchange.pause(0.3)
        exchange.respond(404, b"gone")

    serve_site(page_server, with_sitemap=False)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    page_server.set_handler("/sitemap.xml", slow_not_found)  # the root's guess answers last
    result = " ".join(cli("refresh", "--allow-private", code=1).stdout.split())
    site = page_server.url("")
    root, docs = result.index(f"{site}/sitemap.xml: HTTP 404"), result.index(f"{site}/docs/sitemap")
    assert root < docs


def test_an_empty_page_left_behind_is_looked_for_too(cli: Cli, page_server: PageServer) -> None:
    serve_site(page_server)
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    page_server.set_page(OLD, "<html><body><nav>Home</nav><main></main></body></html>")
    result = cli("refresh", "--allow-private", code=1)
    assert f"source alarms left an empty page; found at {page_server.url(NEW)}" in result.stdout
    cli("move", "alarms", code=0)
    cli("refresh", "--allow-private", code=0)


def test_a_mapped_ledger_is_looked_for_on_its_mirror_and_named_as_the_ledger_names_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    public = "https://docs.example.test"
    ledger = write_ledger(tmp_path, f"{public}{OLD}", f"{public}/guide")
    (ledger.parent / "claimledger.toml").write_text(
        f'map = {{ "{public}/" = "{page_server.url("/")}" }}\n', encoding="utf-8"
    )
    serve_site(page_server, with_sitemap=False)
    page_server.set_page(
        "/sitemap.xml", urlset(f"{public}{NEW}", f"{public}{DECOY}"), content_type="text/xml"
    )
    cli = Cli(ledger)
    cli("trust")
    cli("refresh", "--allow-private", code=0)
    move_without_redirect(page_server)
    report: dict[str, Any] = cli.json("refresh", "--allow-private", code=1)
    (found,) = report["relocations"]
    assert found["found_at"] == f"{public}{NEW}"
    cli("move", "alarms", code=0)
    assert load(ledger).sources["alarms"].url == f"{public}{NEW}"
    cli("refresh", "--allow-private", code=0)


# --------------------------------------------------------------------------- the loop itself

POLICY = FetchPolicy(allow_private=True, timeout=2, retries=0, per_host_interval=0)


def test_a_reworded_quote_counts_as_found_and_says_how(page_server: PageServer) -> None:
    page_server.set_page("/sitemap.xml", urlset(page_server.url(NEW)), content_type="text/xml")
    page_server.set_page(NEW, page("Alarms", WRITES_REWORDED, ORDER))
    lost = Lost(
        "alarms",
        page_server.url(OLD),
        "gone",
        (("durable", 0, WRITES), ("durable", 1, ORDER)),
    )

    async def go() -> Any:
        async with make_client(POLICY, trust_env=False) as client:
            return await recover([lost, lost], client=client, policy=POLICY)

    (found,) = asyncio.run(go())  # one search per source, however often it is named
    assert found.found_at == page_server.url(NEW)
    assert [(q.status, q.current is not None) for q in found.quotes] == [
        ("drifted", True),
        ("verified", False),
    ]
    line = relocation_line(found)
    assert "(2 of 2 quotes: durable #1 drifted 0." in line
    assert "durable #2 verified)" in line
    assert page_server.hits(NEW) == 1


def test_a_page_saying_the_quote_otherwise_is_no_home_of_it(
    page_server: PageServer, evidence_store: EvidenceStore
) -> None:
    reversed_ = "Every write is not durable before the response is sent to the client."
    sitemap = urlset(page_server.url(DECOY), page_server.url(NEW))
    page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")
    page_server.set_page(DECOY, page("Alarms", reversed_))  # likest address, meaning reversed
    lost = Lost("alarms", page_server.url(OLD), "gone", (("durable", 0, WRITES),))

    async def go() -> Any:
        async with make_client(POLICY, trust_env=False) as client:
            return await recover([lost], client=client, policy=POLICY)

    (alone,) = asyncio.run(go())  # the only page: likely the one, never said to carry it
    assert (alone.found_at, alone.found) == (page_server.url(DECOY), 0)
    assert alone.candidates[0].found == 0
    line = relocation_line(alone)
    assert "likely at" in line and "found at" not in line
    assert "(none of its 1 quotes found there; durable #1 drifted 0." in line
    assert line.endswith(" with its meaning changed); adopt it with `claimledger move alarms`")
    evidence_store.record_relocation(alone, dt.datetime(2026, 8, 24, tzinfo=dt.UTC))
    assert evidence_store.latest_relocations()["alarms"].quotes == alone.quotes
    assert relocation_json(alone)["quotes"][0]["meaning_changed"] is True

    page_server.set_page(NEW, page("Alarms", WRITES_REWORDED))  # reworded, meaning kept
    (found,) = asyncio.run(go())
    assert (found.found_at, found.found) == (page_server.url(NEW), 1)


# --------------------------------------------------------------------------- the pure core


def test_a_sitemap_is_read_in_any_namespace_or_none_and_junk_is_tolerated() -> None:
    assert parse_sitemap(urlset("https://a.test/x", "https://a.test/y")).pages == (
        "https://a.test/x",
        "https://a.test/y",
    )
    google = "http://www.google.com/schemas/sitemap/0.84"
    assert parse_sitemap(urlset("https://a.test/x", namespace=google)).pages == (
        "https://a.test/x",
    )
    assert parse_sitemap(urlset("https://a.test/x", namespace="")).pages == ("https://a.test/x",)
    index = parse_sitemap(sitemapindex("https://a.test/s1.xml"))
    assert (index.pages, index.sitemaps) == ((), ("https://a.test/s1.xml",))
    broken = b"<urlset><url><loc>https://a.test/ok</loc></url><url><loc>javascript:x</loc>"
    assert parse_sitemap(broken + b"<url><loc> https://a.test/b </loc>").pages == (
        "https://a.test/ok",
        "https://a.test/b",
    )
    assert parse_sitemap(b"https://a.test/1\nhttps://a.test/2\nnot a url\n").pages == (
        "https://a.test/1",
        "https://a.test/2",
    )
    assert parse_sitemap(b"<html><body>Not found</body></html>").problem == (
        "not a sitemap (its root is <html>)"
    )
    assert parse_sitemap(b"").problem == "empty"
    capped = parse_sitemap(urlset(*(f"https://a.test/{n}" for n in range(10))), limit=3)
    assert (len(capped.pages), capped.truncated) == (3, True)


def test_a_sitemap_expands_no_entity_and_fetches_nothing() -> None:
    hostile = (
        b'<?xml version="1.0"?><!DOCTYPE urlset [<!ENTITY x SYSTEM "file:///etc/passwd">'
        b'<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>'
        b"<urlset><url><loc>https://a.test/&x;</loc></url>"
        b"<url><loc>https://a.test/&b;</loc></url></urlset>"
    )
    pages = parse_sitemap(hostile).pages
    assert all("root:" not in url and "aaaaaaaaaa" not in url for url in pages)


def test_a_gzipped_sitemap_is_undone_under_the_cap() -> None:
    xml = urlset("https://a.test/x")
    assert gunzip(gzip.compress(xml), 10_000) == xml
    assert gunzip(xml, 10) == xml  # not gzipped: as it is
    with pytest.raises(PageUnreadable, match="decompressed body larger than 1000 bytes"):
        gunzip(gzip.compress(b"a" * 100_000), 1000)
    with pytest.raises(PageUnreadable, match="truncated"):
        gunzip(gzip.compress(xml)[:20], 10_000)


def test_robots_txt_sitemap_lines_and_the_guesses() -> None:
    robots = (
        "User-agent: *\nDisallow: /x\nSitemap: https://a.test/s.xml\n"
        "sitemap:https://a.test/t.xml.gz\nSitemap: https://a.test/s.xml\nSitemap: not-a-url\n"
    )
    assert robots_sitemaps(robots) == ["https://a.test/s.xml", "https://a.test/t.xml.gz"]
    assert sitemap_guesses("https://a.test/docs/api/x") == [
        "https://a.test/sitemap.xml",
        "https://a.test/docs/sitemap.xml",
    ]
    assert sitemap_guesses("https://a.test/x") == ["https://a.test/sitemap.xml"]


def test_candidates_are_ranked_by_their_path_and_the_old_title() -> None:
    old = "https://a.test/docs/api/alarms"
    urls = [
        "https://a.test/blog/2026/hello",
        "https://a.test/docs/reference/alarms-api",
        "https://a.test/docs/api/alarms/",  # the old address, tidier: never a candidate
        "https://a.test/docs/api/storage",
        "https://a.test/docs/api/alarms-legacy",
    ]
    ranked = [c.url for c in rank(old, urls, limit=3)]
    assert ranked == [
        "https://a.test/docs/api/alarms-legacy",
        "https://a.test/docs/reference/alarms-api",
        "https://a.test/docs/api/storage",
    ]
    assert path_likeness(old, "https://a.test/docs/api/alarms.html") == 1.0
    # the old title says what the page was called, where its address does not
    renamed = ["https://a.test/docs/api/timers", "https://a.test/docs/api/scheduling-handlers"]
    titled = rank(old, renamed, ["Scheduling handlers"], limit=2)
    assert titled[0].url == "https://a.test/docs/api/scheduling-handlers"
    assert rank(old, urls, limit=0) == []


def test_the_page_carrying_the_most_quotes_is_chosen_then_the_most_verbatim() -> None:
    def quotes(*statuses: str | None) -> tuple[QuoteThere, ...]:
        return tuple(QuoteThere("c", i, "q", status) for i, status in enumerate(statuses))  # type: ignore[arg-type]

    tried = [
        (Candidate("https://a.test/1", 0.9), quotes("missing", "missing")),
        (Candidate("https://a.test/2", 0.5), quotes("drifted", "verified")),
        (Candidate("https://a.test/3", 0.4), quotes("verified", "verified")),
        (Candidate("https://a.test/4", 0.8), quotes("verified", "drifted")),
    ]
    assert choose(tried) == 2
    assert choose(tried[:1]) is None
    assert choose([(Candidate("https://a.test/5", 0.1), quotes(None, None))]) is None


def test_nothing_is_searched_on_another_host(page_server: PageServer) -> None:
    other = "http://localhost:1/docs/reference/alarms-api"  # another host: never fetched
    page_server.set_page("/sitemap.xml", urlset(other), content_type="text/xml")
    lost = Lost("alarms", page_server.url(OLD), "gone", (("durable", 0, WRITES),))

    async def go() -> Any:
        async with make_client(POLICY, trust_env=False) as client:
            return await recover([lost], client=client, policy=POLICY, url_map=UrlMap())

    (found,) = asyncio.run(go())
    assert found.found_at is None and found.candidates == ()
    site = page_server.url("")
    assert found.note == f"1 sitemap read on {site}, listing no other page of the site"


def test_a_byte_order_mark_before_robots_txt_or_a_sitemap_is_read_past(
    page_server: PageServer,
) -> None:
    bom = "\ufeff".encode()
    robots = bom + f"Sitemap: {page_server.url('/maps/all.xml')}\n".encode()
    page_server.set_page("/robots.txt", robots, content_type="text/plain")
    page_server.set_page(
        "/maps/all.xml", bom + urlset(page_server.url(NEW)), content_type="text/xml"
    )
    page_server.set_page(NEW, page("Alarms", WRITES))
    lost = Lost("alarms", page_server.url(OLD), "gone", (("durable", 0, WRITES),))

    async def go() -> Any:
        async with make_client(POLICY, trust_env=False) as client:
            return await recover([lost], client=client, policy=POLICY)

    (found,) = asyncio.run(go())
    assert found.found_at == page_server.url(NEW)
    assert found.sitemaps == (page_server.url("/maps/all.xml"),)
    assert parse_sitemap(bom + b"https://a.test/1\nhttps://a.test/2").pages == (
        "https://a.test/1",
        "https://a.test/2",
    )


def test_nothing_is_searched_on_another_port_of_the_same_host(page_server: PageServer) -> None:
    with PageServer() as other:  # another server of the same host: never asked, never found
        other.set_page(NEW, page("Alarms", WRITES))
        sitemap = urlset(other.url(NEW), other.url("/sitemap.xml"))
        page_server.set_page("/robots.txt", f"Sitemap: {other.url('/s.xml')}\n")
        page_server.set_page("/sitemap.xml", sitemap, content_type="text/xml")
        lost = Lost("alarms", page_server.url(OLD), "gone", (("durable", 0, WRITES),))

        async def go() -> Any:
            async with make_client(POLICY, trust_env=False) as client:
                return await recover([lost], client=client, policy=POLICY)

        (found,) = asyncio.run(go())
        assert found.found_at is None and found.candidates == ()
        assert other.requests == []
    assert same_site("http://a.test/x", "https://www.a.test:443/y")
    assert same_site("http://a.test:80/x", "http://a.test/y")
    assert not same_site("https://a.test/x", "https://a.test:8443/y")


def test_a_repository_file_is_not_looked_for_on_a_sitemap() -> None:
    import httpx

    asked: list[str] = []

    def nowhere(request: httpx.Request) -> httpx.Response:
        asked.append(str(request.url))
        raise AssertionError("nothing may be requested")

    lost = Lost("code", "https://github.com/o/r/blob/main/src/a.py#L3-L9", "gone", ())

    async def go() -> Any:
        async with httpx.AsyncClient(transport=httpx.MockTransport(nowhere)) as client:
            return await recover([lost], client=client, policy=POLICY)

    (found,) = asyncio.run(go())
    assert found.found_at is None and "a file of a repository" in found.note
    assert asked == []
