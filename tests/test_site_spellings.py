"""One site is one site. A `--map` prefix reads from its mirror only the pages under it: on
its site (scheme, host, port), its path going on from the prefix's at a `/`, never another
site whose name begins with its host's (`docs.example.com` under `https://docs.example`),
another port, or a folder whose name begins with its folder's (`/v10/` under `/v1`). And
one host however it is spelt, in Unicode or Punycode, with a final dot or without
(`bücher.example`, `xn--bcher-kva.example`, `docs.example.`), is one host for its
robots.txt, the per-host limit and a `--map` prefix, as it is for a page's identity."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from claimledger.records import FetchPolicy, FetchResult
from claimledger.urls import UrlMap, shown, site_of
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import Cli, claimledger
from dns_server import NameServer
from evidence_site import DURABLE, page, serve_v1, write_ledger
from webserver import Exchange, PageServer

MIRROR = "http://mirror.test"
SITE = "https://docs.example=http://mirror.test"
ROOT = "https://docs.example/=http://mirror.test/"
V1 = "https://docs.example/v1=http://mirror.test/v1"
V1_FOLDER = "https://docs.example/v1/=http://mirror.test/v1/"
UNICODE = "https://bücher.example/=http://mirror.test/"
PUNYCODE = "https://xn--bcher-kva.example/=http://mirror.test/"
FINAL_DOT = "https://docs.example./=http://mirror.test/"

# --------------------------------------------------------------------------- a prefix's pages


@pytest.mark.parametrize(
    ("rule", "url", "read_at"),
    [
        (SITE, "https://docs.example/a", f"{MIRROR}/a"),
        (SITE, "https://docs.example", MIRROR),
        (SITE, "https://docs.example:443/a", f"{MIRROR}/a"),
        (SITE, "https://docs.example.com/a", None),
        (SITE, "https://docs.example:8443/a", None),
        (SITE, "http://docs.example/a", None),
        (ROOT, "https://docs.example", f"{MIRROR}/"),
        (ROOT, "https://docs.example?lang=en", f"{MIRROR}/?lang=en"),
        (ROOT, "https://docs.example.com/a", None),
        (V1, "https://docs.example/v1", f"{MIRROR}/v1"),
        (V1, "https://docs.example/v1/a", f"{MIRROR}/v1/a"),
        (V1, "https://docs.example/v1?tab=2", f"{MIRROR}/v1?tab=2"),
        (V1, "https://docs.example/v1#L2", f"{MIRROR}/v1#L2"),
        (V1, "https://docs.example/v10/a", None),
        (V1, "https://docs.example/v1.5", None),
        (V1_FOLDER, "https://docs.example/v1", None),
        (UNICODE, "https://xn--bcher-kva.example/a", f"{MIRROR}/a"),
        (PUNYCODE, "https://BÜCHER.example./a", f"{MIRROR}/a"),
        (FINAL_DOT, "https://docs.example/a", f"{MIRROR}/a"),
        (ROOT, "https://Docs.Example.:443/a", f"{MIRROR}/a"),
    ],
)
def test_a_prefix_maps_the_pages_of_its_site_under_its_path_only(
    rule: str, url: str, read_at: str | None
) -> None:
    assert UrlMap.parse([rule]).apply(url) == (read_at or url)


def test_the_deepest_prefix_of_a_site_wins_however_its_host_is_spelt() -> None:
    """The rule for `/docs/` is the one for `/docs/a`, though the site's rule is written
    longer (its host in Punycode)."""
    rules = [
        "https://xn--bcher-kva.example/=http://mirror.test/",
        "https://bücher.example/docs/=http://copy.test/",
    ]
    url = "https://xn--bcher-kva.example/docs/a"
    assert UrlMap.parse(rules).apply(url) == "http://copy.test/a"


def test_a_mirror_s_address_is_named_back_only_under_its_path() -> None:
    """A redirect the mirror gives to `/v10/` is no page of the v1 docs the rule reads there."""
    url_map = UrlMap.parse(["https://docs.example/v1=http://mirror.test/v1"])
    assert url_map.reverse("http://mirror.test/v1/a") == "https://docs.example/v1/a"
    assert url_map.reverse("http://mirror.test/v10/a") == "http://mirror.test/v10/a"


@pytest.mark.parametrize(
    ("prefix", "copy", "url", "mirror_path"),
    [
        ("https://docs.example", "/copy", "https://docs.example.com/guide", "/copy.com/guide"),
        ("https://docs.example", "/copy", "https://docs.example:8443/guide", "/copy:8443/guide"),
        (
            "https://docs.example/v1",
            "/copy/v1",
            "https://docs.example/v10/guide",
            "/copy/v10/guide",
        ),
    ],
)
def test_a_page_of_another_site_or_folder_is_never_read_at_the_mirror(
    page_server: PageServer,
    system_dns: NameServer,
    prefix: str,
    copy: str,
    url: str,
    mirror_path: str,
) -> None:
    """The mirror holds a page where the prefix, matched as text, would send the URL; it
    is no copy of that page, so it is never read as it: the page is asked of its own site
    (whose name the test's name server does not know)."""
    page_server.set_page(mirror_path, page(DURABLE))
    mirror = page_server.url(copy)
    mapping = f"{prefix}={mirror}"
    said = claimledger("verify", "--allow-private", url, DURABLE, "--map", mapping, code=1)

    assert "not checked: source unreachable" in said.stdout
    assert page_server.hits(mirror_path) == 0
    assert system_dns.asked(urlsplit(url).hostname or "") >= 1


# --------------------------------------------------------------------------- one host's spellings

SPELLINGS = [
    pytest.param("bücher.example", "xn--bcher-kva.example", id="unicode-and-punycode"),
    pytest.param("docs.example.", "docs.example", id="final-dot"),
    pytest.param("Bücher.Example.", "xn--bcher-kva.example", id="all-at-once"),
]
"""Two spellings of one host, the second the one DNS resolves (the test's name server
answers it with this machine's address)."""

POLICY = FetchPolicy(allow_private=True, timeout=5.0, retries=0, per_host_interval=0.0)


def fetched(urls: list[str], dns: NameServer, policy: FetchPolicy = POLICY) -> list[FetchResult]:
    async def run() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False, resolver=dns.resolve) as client:
            return await fetch_all(urls, client, policy=policy)

    return list(asyncio.run(run()).values())


@pytest.mark.parametrize(("written", "resolved"), SPELLINGS)
def test_one_host_in_two_spellings_asks_for_one_robots_txt(
    page_server: PageServer, dns: NameServer, written: str, resolved: str
) -> None:
    """Its robots.txt is asked for once and binds the pages of both spellings; the page
    it refuses is said refused by the robots.txt of its site as its address spells it."""
    dns.script(resolved, ["127.0.0.1"])
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /private\n", content_type="text/plain"
    )
    page_server.set_page("/a", page(DURABLE))
    page_server.set_page("/private", page(DURABLE))

    ok, refused = fetched(
        [page_server.url("/a", host=written), page_server.url("/private", host=resolved)], dns
    )

    assert (ok.source_status, refused.source_status) == ("ok", "refused")
    assert page_server.hits("/robots.txt") == 1
    assert page_server.hits("/private") == 0
    assert page_server.url("/robots.txt", host=resolved) in (refused.error or "")


def test_a_robots_txt_kept_for_one_spelling_serves_the_other_on_the_next_run(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """The evidence store keeps a site's robots.txt for a day under one key for every
    spelling: a ledger that now spells the host in Punycode asks no second time."""
    system_dns.script("xn--bcher-kva.example", ["127.0.0.1"])
    serve_v1(page_server)
    page_server.set_page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    ledger = write_ledger(tmp_path, page_server)
    here = page_server.url("")
    ledger.write_text(
        ledger.read_text("utf-8").replace(here, page_server.url("", "bücher.example"))
    )
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    punycode = page_server.url("", "xn--bcher-kva.example")
    ledger.write_text(ledger.read_text("utf-8").replace("bücher.example", "xn--bcher-kva.example"))

    cli("refresh", "--allow-private", "--no-as-read", code=0)

    assert punycode in ledger.read_text("utf-8")
    assert page_server.hits("/robots.txt") == 1
    assert page_server.hits("/guide") == 2


def test_one_site_however_its_host_and_port_are_written() -> None:
    spellings = [
        "https://bücher.example/a",
        "https://XN--BCHER-KVA.example.:443/b",
        "HTTPS://Bücher.Example./",
    ]
    assert {site_of(url) for url in spellings} == {"https://xn--bcher-kva.example"}
    assert site_of("https://bücher.example:8443/") == "https://xn--bcher-kva.example:8443"
    assert site_of("http://bücher.example/") != site_of("https://bücher.example/")


class InFlight:
    """A page that counts the requests the server is answering at once: the first waits
    (up to a while) for a second to arrive, so two let in together are seen together."""

    def __init__(self) -> None:
        self.now = self.most = 0
        self._lock = threading.Lock()
        self._second = threading.Event()

    def __call__(self, exchange: Exchange) -> None:
        with self._lock:
            self.now += 1
            self.most = max(self.most, self.now)
            if self.now > 1:
                self._second.set()
        self._second.wait(2.0)
        with self._lock:
            self.now -= 1
        body = page(DURABLE).encode()
        exchange.respond(200, body, {"Content-Type": "text/html; charset=utf-8"})


@pytest.mark.parametrize(("written", "resolved"), SPELLINGS)
def test_the_per_host_limit_holds_for_one_host_in_two_spellings(
    page_server: PageServer, dns: NameServer, written: str, resolved: str
) -> None:
    """`--per-host 1` lets one request at a time reach the host, whichever way each page
    spells it."""
    dns.script(resolved, ["127.0.0.1"])
    page_server.set_page("/robots.txt", "", content_type="text/plain")
    counting = InFlight()
    page_server.set_handler("/a", counting)
    page_server.set_handler("/b", counting)
    policy = FetchPolicy(
        allow_private=True, timeout=10.0, retries=0, per_host=1, per_host_interval=0.0
    )

    results = fetched(
        [page_server.url("/a", host=written), page_server.url("/b", host=resolved)], dns, policy
    )

    assert [result.source_status for result in results] == ["ok", "ok"]
    assert counting.most == 1


@pytest.mark.parametrize(("written", "resolved"), SPELLINGS)
def test_a_map_prefix_takes_its_host_in_any_spelling(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer, written: str, resolved: str
) -> None:
    """A ledger citing the site in one spelling, the rule naming it in the other: every
    page is read at the mirror, the real site never asked, and the ledger's address kept
    as the ledger writes it."""
    ledger = write_ledger(tmp_path, page_server)
    cited = f"https://{written}"
    ledger.write_text(ledger.read_text("utf-8").replace(page_server.url(""), cited), "utf-8")
    page_server.set_page("/guide", page(DURABLE))
    page_server.set_page("/mirror", page(DURABLE))
    page_server.set_page("/other", page(DURABLE))
    rule = f"https://{resolved}/={page_server.url('/')}"

    report = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", "--map", rule, code=1)

    assert system_dns.asked(resolved) == 0
    assert sorted(request.path for request in page_server.page_requests) == [
        "/guide",
        "/mirror",
        "/other",
    ]
    assert {source["source_status"] for source in report["sources"]} == {"ok"}
    assert {check["url"] for check in report["checks"]} == {
        shown(f"{cited.lower()}/{path}") for path in ("guide", "mirror", "other")
    }
