"""The demo's bundled pages, read over the real local server, say what the demo promises.

On `read` every quote of the example ledger is verified on every source it names; on
`later` exactly the drift documented in data/demo/routes.yaml shows, and nothing else.
The pages are fetched, extracted and matched by the product's own pipeline, through
the same `--map` rules the demo uses, so a change to a page or to the pipeline that
breaks the demo's story fails here first.
"""

from __future__ import annotations

import asyncio
import http.client
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from importlib.resources.abc import Traversable
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from claimledger.errors import DemoDataError
from claimledger.ledger.file import load
from claimledger.ledger.model import Ledger
from claimledger.reading.extract import extract_text
from claimledger.reading.match import Match, locate, prepare
from claimledger.records import FetchPolicy, FetchResult, Validators
from claimledger.urls import UrlMap
from claimledger.web.fetch import fetch_all, make_client
from claimledger.workspace.demo import (
    PageServer,
    answer,
    demo_data,
    demo_url_map,
    load_version,
    serve_pages,
)

LEDGER_PATH = Path(__file__).resolve().parents[1] / "claims.yaml"
LEDGER: Ledger = load(LEDGER_PATH)
HOSTS = sorted({urlsplit(source.url).hostname or "" for source in LEDGER.sources.values()})
POLICY = FetchPolicy(allow_private=True, timeout=5.0, retries=0, per_host_interval=0.0)

QuoteKey = tuple[str, int, str]
"""(claim id, quote index, source id): one quote as checked on one of its sources."""

QUOTE_KEYS: list[QuoteKey] = [
    (claim.id, index, source)
    for claim in LEDGER.claims
    for index, quote in enumerate(claim.quotes)
    for source in quote.sources
]

# The planned drift of `later` (see the comments in data/demo/routes.yaml).
REWORDED: QuoteKey = ("one-instance", 0, "do-in-memory-state")
NEGATED: QuoteKey = ("sync-sqlite", 0, "do-state-api")
REMOVED: QuoteKey = ("output-gate", 0, "do-glossary")
MOVED_SOURCE = "agents-store-sync"
MOVED_TO_SOURCE = "agents-state"
GONE_SOURCE = "agents-hitl"


# --- Reading the site as the pipeline does ------------------------------------------------


@dataclass(frozen=True)
class Reading:
    """One pass over every ledger source: the fetches by source id, the matches by quote."""

    base_url: str
    fetches: dict[str, FetchResult]
    matches: dict[QuoteKey, Match | None]


def url_map(server: PageServer | str) -> UrlMap:
    base_url = server if isinstance(server, str) else server.base_url
    return UrlMap.parse(demo_url_map(base_url, HOSTS))


def fetch_sources(
    server: PageServer, validators: Mapping[str, Validators] | None = None
) -> dict[str, FetchResult]:
    """Every source of the ledger fetched once from the demo site, keyed by source id."""
    mapping = url_map(server)
    targets = {sid: mapping.apply(source.url) for sid, source in LEDGER.sources.items()}

    async def run() -> dict[str, FetchResult]:
        async with make_client(POLICY, trust_env=False) as client:
            lookup = None if validators is None else (lambda url, start: validators.get(url))
            return await fetch_all(targets.values(), client, validators=lookup, policy=POLICY)

    results = asyncio.run(run())
    return {sid: results[target] for sid, target in targets.items()}


def read_site(server: PageServer) -> Reading:
    fetches = fetch_sources(server)
    prepared = {
        sid: prepare(extract_text(result.text, result.content_type or ""))
        for sid, result in fetches.items()
        if result.text is not None
    }
    matches: dict[QuoteKey, Match | None] = {}
    for claim_id, index, source in QUOTE_KEYS:
        text = LEDGER.claim(claim_id).quotes[index].text
        page = prepared.get(source)
        matches[(claim_id, index, source)] = None if page is None else locate(text, page)
    return Reading(server.base_url, fetches, matches)


@pytest.fixture(scope="module")
def readings() -> Iterator[dict[str, Reading]]:
    """The site read as on date_read, then, on the same address, as it is later."""
    with serve_pages(demo_data(), "read") as server:
        first = read_site(server)
        address = server.base_url
        server.switch("later")
        assert server.base_url == address
        second = read_site(server)
        assert server.errors == []
    yield {"read": first, "later": second}


def verdict(found: Match | None) -> tuple[str, bool] | None:
    return None if found is None else (found.status, found.meaning_changed)


# --- read: everything verified --------------------------------------------------------------


def test_every_source_of_the_ledger_has_a_page_on_read(readings: dict[str, Reading]) -> None:
    statuses = {
        sid: (f.http_status, f.source_status) for sid, f in readings["read"].fetches.items()
    }
    assert statuses == dict.fromkeys(LEDGER.sources, (200, "ok"))


@pytest.mark.parametrize("key", QUOTE_KEYS, ids=["/".join(map(str, key)) for key in QUOTE_KEYS])
def test_every_quote_is_verified_on_read(readings: dict[str, Reading], key: QuoteKey) -> None:
    found = readings["read"].matches[key]
    assert found is not None
    assert (found.status, found.match) == ("verified", "exact"), found.current


# --- later: exactly the planned drift -------------------------------------------------------


def test_later_shows_exactly_the_planned_quote_drift(readings: dict[str, Reading]) -> None:
    on_gone_page = {key for key in QUOTE_KEYS if key[2] == GONE_SOURCE}
    expected: dict[QuoteKey, tuple[str, bool] | None] = {
        key: None if key in on_gone_page else ("verified", False) for key in QUOTE_KEYS
    }
    expected[REWORDED] = ("drifted", False)
    expected[NEGATED] = ("drifted", True)
    expected[REMOVED] = ("missing", False)
    observed = {key: verdict(found) for key, found in readings["later"].matches.items()}
    assert observed == expected
    assert on_gone_page, "the gone page must carry quotes for the 404 to matter"


def test_the_harmless_rewording_changes_one_plain_word(readings: dict[str, Reading]) -> None:
    found = readings["later"].matches[REWORDED]
    assert found is not None
    assert (
        found.current
        == "All requests sent to that Durable Object are handled by the same instance."
    )
    assert [(w.quote, w.page, w.meaningful) for w in found.changed_words] == [
        ("that", "the", False)
    ]


def test_the_negated_guarantee_flags_its_meaning_words(readings: dict[str, Reading]) -> None:
    found = readings["later"].matches[NEGATED]
    assert found is not None and found.current is not None
    assert "asynchronous and may yield the event loop" in found.current
    changed = {(w.quote, w.page) for w in found.changed_words if w.meaningful}
    assert ("synchronous", "asynchronous") in changed


def test_later_sources_moved_and_gone(readings: dict[str, Reading]) -> None:
    later = readings["later"]
    fetches = later.fetches
    moved = fetches[MOVED_SOURCE]
    assert moved.moved_to is not None
    moved_to = url_map(later.base_url).reverse(moved.moved_to)
    assert (moved.source_status, moved.http_status) == ("moved", 200)
    assert [hop.status for hop in moved.redirects] == [301]
    assert moved_to == LEDGER.sources[MOVED_TO_SOURCE].url
    gone = fetches[GONE_SOURCE]
    assert (gone.source_status, gone.http_status, gone.text) == ("gone", 404, None)
    others = set(LEDGER.sources) - {MOVED_SOURCE, GONE_SOURCE}
    assert {sid: fetches[sid].source_status for sid in others} == dict.fromkeys(others, "ok")


def html_pages(root: Traversable, prefix: str = "") -> list[str]:
    """The `index.html` files under `root`, as slash-separated paths relative to it."""
    found: list[str] = []
    for child in root.iterdir():
        if child.is_dir():
            found += html_pages(child, f"{prefix}{child.name}/")
        elif child.name == "index.html":
            found.append(f"{prefix}{child.name}")
    return sorted(found)


def read_page(root: Traversable, relative: str) -> str:
    node = root
    for name in relative.split("/"):
        node = node / name
    return node.read_text(encoding="utf-8")


def test_boilerplate_changed_on_every_html_page_of_later() -> None:
    """The drift around the quotes is real: no HTML page of `later` is byte-identical."""
    read_root, later_root = demo_data() / "read", demo_data() / "later"
    pages = html_pages(later_root)
    # Every source but the four raw GitHub files, the moved page and the gone page.
    assert len(pages) == len(LEDGER.sources) - 6
    assert set(pages) < set(html_pages(read_root))
    for page in pages:
        before, after = read_page(read_root, page), read_page(later_root, page)
        assert before != after, page
        assert "Last updated" in after


# --- HTTP behaviour ---------------------------------------------------------------------------


def test_a_second_fetch_with_the_first_validators_gets_304() -> None:
    with serve_pages(demo_data(), "read") as server:
        first = fetch_sources(server)
        validators = {r.final_url: Validators(r.etag, r.last_modified) for r in first.values()}
        second = fetch_sources(server, validators)
        server.switch("later")
        third = fetch_sources(server, validators)
    assert all(r.etag and r.last_modified for r in first.values())
    assert {sid: r.http_status for sid, r in second.items()} == dict.fromkeys(first, 304)
    assert all(r.not_modified for r in second.values())
    unchanged = {sid for sid, r in third.items() if r.not_modified}
    assert unchanged == {"agents-state-mirror", "agents-source"}


def test_if_modified_since_alone_decides_without_an_etag() -> None:
    site = load_version(demo_data(), "read")
    target = "/developers.cloudflare.com/queues/"
    fresh = answer(site, "http://127.0.0.1:1", target, {})
    assert fresh.status == 200
    since = {"if-modified-since": fresh.headers["Last-Modified"]}
    assert answer(site, "http://127.0.0.1:1", target, since).status == 304
    older = {"if-modified-since": "Mon, 01 Jun 2026 00:00:00 GMT"}
    assert answer(site, "http://127.0.0.1:1", target, older).status == 200
    stale_tag = {"if-none-match": '"0000"', **since}
    assert answer(site, "http://127.0.0.1:1", target, stale_tag).status == 200


def raw_get(
    server: PageServer, target: str, method: str = "GET"
) -> tuple[int, dict[str, str], bytes]:
    """A request sent exactly as written: http.client does not normalise `..` away."""
    parts = urlsplit(server.base_url)
    connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=5)
    try:
        connection.request(method, target)
        response = connection.getresponse()
        return response.status, {k.lower(): v for k, v in response.getheaders()}, response.read()
    finally:
        connection.close()


TRAVERSALS = [
    "/../routes.yaml",
    "/developers.cloudflare.com/../../routes.yaml",
    "/developers.cloudflare.com/queues/../../../routes.yaml",
    "/%2e%2e/routes.yaml",
    "/developers.cloudflare.com/%2E%2E/%2e%2e/routes.yaml",
    "/developers.cloudflare.com/..%2f..%2froutes.yaml",
    "/developers.cloudflare.com/..%5c..%5croutes.yaml",
    "/./routes.yaml",
    "/developers.cloudflare.com//queues/",
    "/developers.cloudflare.com/%00/index.html",
    "/developers.cloudflare.com/%ff%fe",
]


@pytest.mark.parametrize("target", TRAVERSALS)
def test_path_traversal_is_refused(target: str) -> None:
    with serve_pages(demo_data(), "read") as server:
        status, _, body = raw_get(server, target)
        ok, _, page = raw_get(server, "/developers.cloudflare.com/queues/")
        assert server.errors == []
    assert status == 400
    assert b"later:" not in body and b"routes" not in body
    assert ok == 200 and b"guaranteed delivery" in page


def test_one_version_cannot_reach_the_other() -> None:
    with serve_pages(demo_data(), "later") as server:
        status, _, _ = raw_get(server, "/read/developers.cloudflare.com/queues/")
    assert status == 404


@pytest.mark.parametrize(
    ("target", "content_type", "needle"),
    [
        ("/developers.cloudflare.com/workflows/", "text/html; charset=utf-8", b"<!doctype html>"),
        ("/developers.cloudflare.com/workflows", "text/html; charset=utf-8", b"<!doctype html>"),
        (
            "/github.com/cloudflare/agents/blob/main/packages/agents/src/index.ts",
            "text/plain; charset=utf-8",
            b"export class Agent",
        ),
        (
            "/raw.githubusercontent.com/cloudflare/agents/main/packages/agents/src/index.ts",
            "text/plain; charset=utf-8",
            b"export class Agent",
        ),
        (
            "/github.com/cloudflare/agents/blob/main/packages/agents/CHANGELOG.md",
            "text/markdown; charset=utf-8",
            b"# agents",
        ),
    ],
)
def test_files_are_served_with_their_content_type(
    target: str, content_type: str, needle: bytes
) -> None:
    with serve_pages(demo_data(), "read") as server:
        status, headers, body = raw_get(server, target)
        head_status, head_headers, head_body = raw_get(server, target, "HEAD")
    assert (status, headers["content-type"]) == (200, content_type)
    assert needle in body
    assert int(headers["content-length"]) == len(body)
    assert headers["etag"].startswith('"') and headers["last-modified"].endswith("GMT")
    assert (head_status, head_body, head_headers["etag"]) == (200, b"", headers["etag"])


def test_redirect_points_at_the_same_server() -> None:
    with serve_pages(demo_data(), "later") as server:
        status, headers, _ = raw_get(
            server, "/developers.cloudflare.com/agents/api-reference/store-and-sync-state/"
        )
        expected = server.url("developers.cloudflare.com", "/agents/runtime/lifecycle/state/")
    assert (status, headers["location"]) == (301, expected)


def test_the_server_logs_nothing(capfd: pytest.CaptureFixture[str]) -> None:
    with serve_pages(demo_data(), "later") as server:
        for target in ["/developers.cloudflare.com/queues/", "/nowhere/", "/../x", "/x%ff"]:
            raw_get(server, target)
        raw_get(server, "/", method="BREW")
    captured = capfd.readouterr()
    assert (captured.out, captured.err) == ("", "")


def test_only_loopback() -> None:
    with serve_pages(demo_data(), "read") as server:
        assert urlsplit(server.base_url).hostname == "127.0.0.1"
        assert urlsplit(server.base_url).port not in (None, 0)


# --- URL map and data -------------------------------------------------------------------------


def test_demo_url_map_sends_each_host_to_its_directory() -> None:
    specs = demo_url_map(
        "http://127.0.0.1:8123/", ["blog.example.org", "docs.example.org", "docs.example.org"]
    )
    assert specs == [
        "https://blog.example.org/=http://127.0.0.1:8123/blog.example.org/",
        "https://docs.example.org/=http://127.0.0.1:8123/docs.example.org/",
    ]
    mapping = UrlMap.parse(specs)
    assert (
        mapping.apply("https://docs.example.org/a/b/")
        == "http://127.0.0.1:8123/docs.example.org/a/b/"
    )


def test_demo_data_is_package_data_with_both_versions() -> None:
    root = demo_data()
    assert root.joinpath("routes.yaml").is_file()
    assert {child.name for child in root.iterdir() if child.is_dir()} == {"read", "later"}
    assert load_version(root, "later").routes


def test_an_unknown_version_is_refused() -> None:
    with pytest.raises(DemoDataError, match="tomorrow"):
        load_version(demo_data(), "tomorrow")


def test_a_malformed_route_is_refused(tmp_path: Path) -> None:
    (tmp_path / "read").mkdir()
    (tmp_path / "routes.yaml").write_text(
        'read:\n  last_modified: "Thu, 20 Aug 2026 14:05:00 GMT"\n'
        "  routes:\n    /a/:\n      status: 301\n",
        encoding="utf-8",
    )
    with pytest.raises(DemoDataError, match="needs a location"):
        load_version(tmp_path, "read")
