"""fetch.py against real servers on 127.0.0.1: every route asserts the recorded status.

No test here reads the wall clock: a wait is asserted as the wait the fetcher asked for
(`sleeps`), spacing as the gaps the pacing gate kept on its own clock, a timeout or a
deadline by the status and message it produced. The figures themselves are measured by
`tests/benchmarks/bench_refresh.py`.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import gzip
import ipaddress
import ssl
import threading
import tracemalloc
import zlib
from collections.abc import (
    AsyncIterator,
    Callable,
    Iterable,
    Iterator,
    Mapping,
)
from contextlib import AbstractAsyncContextManager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from email.utils import format_datetime
from types import ModuleType
from typing import Any

import pytest
import trustme
from pytest_httpserver import HTTPServer

from claimledger import __version__
from claimledger.addresses import is_public
from claimledger.records import FetchPolicy, FetchResult, Hop, Validators
from claimledger.urls import fetch_target, origin, redirect_refusal
from claimledger.web import fetch as fetch_module
from claimledger.web import pacing
from claimledger.web.exchange import Outcome, request
from claimledger.web.fetch import fetch_all, fetch_each, make_client
from claimledger.web.robots import Robots
from webserver import (
    Exchange,
    Handler,
    Page,
    PageServer,
    chunked,
    gzip_bomb,
    gzipped,
    redirect,
    reset_mid_body,
    sequence,
    stall_after_headers,
    trickle,
    unused_port,
)

# Tiny timeouts and backoffs keep the suite fast while exercising every retry path.
FAST = FetchPolicy(
    allow_private=True,  # the pages are served on 127.0.0.1
    timeout=0.5,
    retries=1,
    backoff_base=0.01,
    retry_after_cap=2.0,
    per_host_interval=0.0,
)
PATIENT = replace(FAST, timeout=10.0)
"""For tests that count attempts: a loaded machine may take over half a second to answer on
loopback, and a timed-out first attempt is one more attempt than the test is about."""
PAGE = "<html><body><main><p>Durable Objects are single-threaded.</p></main></body></html>"
# pytest-httpserver answers 500 for a path without a handler, robots.txt included, which
# RFC 9309 reads as "nothing may be fetched": its tests do not ask for robots.txt.
NO_ROBOTS = replace(FAST, respect_robots=False)


def fetch(
    urls: Iterable[str],
    policy: FetchPolicy = FAST,
    *,
    validators: Mapping[str, Validators] | None = None,
    on_result: Callable[[FetchResult], None] | None = None,
) -> dict[str, FetchResult]:
    async def run() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False) as client:
            lookup = None if validators is None else (lambda url, start: validators.get(url))
            return await fetch_all(
                urls, client, validators=lookup, policy=policy, on_result=on_result
            )

    return asyncio.run(run())


def fetch_one(
    url: str,
    policy: FetchPolicy = FAST,
    *,
    validators: Mapping[str, Validators] | None = None,
) -> FetchResult:
    return fetch([url], policy, validators=validators)[url]


class _Asyncio:
    """The asyncio module as one module of ours sees it, with `sleep` recorded (and, when
    `instant`, not waited) and, when `clock` is set, a loop whose time is that clock."""

    def __init__(self, *, instant: bool, clock: list[float] | None = None) -> None:
        self.sleeps: list[float] = []
        self._instant = instant
        self._clock = clock
        self._real_sleep = asyncio.sleep

    def __getattr__(self, name: str) -> Any:
        return getattr(asyncio, name)

    async def sleep(self, delay: float) -> None:
        self.sleeps.append(delay)
        if self._clock is not None:
            self._clock[0] += delay
        await self._real_sleep(0 if self._instant else delay)

    def get_running_loop(self) -> Any:
        if self._clock is None:
            return asyncio.get_running_loop()
        clock = self._clock

        class Loop:
            def time(self) -> float:
                return clock[0]

        return Loop()


def _patch_asyncio(monkeypatch: pytest.MonkeyPatch, module: ModuleType, shim: _Asyncio) -> _Asyncio:
    monkeypatch.setattr(module, "asyncio", shim)
    return shim


@contextlib.asynccontextmanager
async def _recording(
    slot: AbstractAsyncContextManager[None], starts: list[float], clock: list[float]
) -> AsyncIterator[None]:
    """A pacing slot that notes the gate's clock at the moment it lets a request start."""
    async with slot:
        starts.append(clock[0])
        yield


@pytest.fixture
def sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait the fetcher asks for between attempts (Retry-After, backoff), not waited."""
    return _patch_asyncio(monkeypatch, fetch_module, _Asyncio(instant=True)).sleeps


def status(exchange: Exchange, code: int, headers: dict[str, str] | None = None) -> None:
    exchange.respond(code, b"status page", {"Content-Type": "text/html", **(headers or {})})


# --- fetch_target: pure ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "target", "line_range"),
    [
        (
            "https://github.com/cloudflare/workerd/blob/main/src/workerd/io/io-gate.h",
            "https://raw.githubusercontent.com/cloudflare/workerd/main/src/workerd/io/io-gate.h",
            None,
        ),
        (
            "https://github.com/cloudflare/workerd/blob/v1.2/src/a.ts#L10-L40",
            "https://raw.githubusercontent.com/cloudflare/workerd/v1.2/src/a.ts",
            (10, 40),
        ),
        (
            "https://www.github.com/o/r/blob/feature/x/docs/README.md#L7",
            "https://raw.githubusercontent.com/o/r/feature/x/docs/README.md",
            (7, 7),
        ),
        (
            "https://raw.githubusercontent.com/o/r/main/a.py#L3-L1",
            "https://raw.githubusercontent.com/o/r/main/a.py",
            (1, 3),
        ),
        ("https://github.com/o/r/tree/main/src", "https://github.com/o/r/tree/main/src", None),
        (
            "https://developers.cloudflare.com/durable-objects/?lang=en#input-gates",
            "https://developers.cloudflare.com/durable-objects/?lang=en",
            None,
        ),
        ("https://example.com/doc#L0", "https://example.com/doc", None),
        ("https://example.com/doc#Lunch", "https://example.com/doc", None),
        ("ftp://example.com/doc#L2", "ftp://example.com/doc", (2, 2)),
    ],
)
def test_fetch_target(url: str, target: str, line_range: tuple[int, int] | None) -> None:
    assert fetch_target(url) == (target, line_range)


def test_make_client_never_follows_redirects_and_names_the_tool() -> None:
    client = make_client(FAST, trust_env=False)
    try:
        assert client.follow_redirects is False
        assert client.headers["user-agent"].startswith(f"claimledger/{__version__} ")
        assert "br" not in client.headers["accept-encoding"]
    finally:
        asyncio.run(client.aclose())


@pytest.mark.parametrize(
    ("current", "target", "problem"),
    [
        ("https://a.test/x", "http://a.test/y", "from https down to http"),
        ("HTTPS://a.test/x", "http://a.test/y", "from https down to http"),
        ("http://a.test/x", "JavaScript:alert(1)", "non-http(s)"),
        ("http://a.test/x", "file:///etc/passwd", "non-http(s)"),
        ("https://a.test/x", "https://a.test/x", "loop"),
        ("http://a.test/x", "https://a.test/y", None),
    ],
)
def test_redirect_refusal(current: str, target: str, problem: str | None) -> None:
    found = redirect_refusal(current, target, {current}, 1, 10)
    assert found is None if problem is None else problem in (found or "")


# --- statuses -------------------------------------------------------------------------------


def test_200_is_ok_with_the_text_and_metadata(page_server: PageServer) -> None:
    page_server.set_page("/doc", PAGE, headers={"ETag": '"abc"'})
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "ok"
    assert result.http_status == 200
    assert result.text == PAGE
    assert result.etag == '"abc"'
    assert result.content_type == "text/html; charset=utf-8"
    assert (result.redirects, result.moved_to, result.error) == ((), None, None)
    assert (result.attempts, result.not_modified) == (1, False)
    assert result.final_url == result.url == page_server.url("/doc")


def test_a_206_partial_content_is_unreadable_never_the_page(page_server: PageServer) -> None:
    """No Range is sent: a server's part of a page was read as the page, its quotes past
    the part called missing."""
    part = PAGE.encode()[:40]
    headers = {"Content-Type": "text/html", "Content-Range": f"bytes 0-39/{len(PAGE)}"}
    page_server.set_handler("/doc", lambda ex: ex.respond(206, part, headers))
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.http_status, result.text) == ("unreadable", 206, None)
    assert result.error == "HTTP 206 Partial Content: only part of the page"


def test_user_agent_names_the_tool(page_server: PageServer) -> None:
    page_server.set_page("/doc", PAGE)
    fetch_one(page_server.url("/doc"))
    robots, page = page_server.requests
    assert (robots.path, page.path) == ("/robots.txt", "/doc")
    assert page.headers["user-agent"].startswith("claimledger/")
    assert robots.headers["user-agent"] == page.headers["user-agent"]


@pytest.mark.parametrize(("code", "expected"), [(404, "gone"), (410, "gone")])
def test_missing_page_is_gone_without_retry(
    page_server: PageServer, code: int, expected: str
) -> None:
    page_server.set_page("/doc", "not here", status=code)
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.http_status, result.text) == (expected, code, None)
    assert str(code) in (result.error or "")
    assert page_server.hits("/doc") == 1


def test_an_answer_is_said_in_https_own_words_not_the_servers(page_server: PageServer) -> None:
    """A server chooses its reason phrase, and every line that names the answer prints it:
    `##[stop-commands]` there would stop a GitHub runner reading the log's commands."""

    def hostile(exchange: Exchange) -> None:
        exchange._handler.send_response(410, "##[stop-commands]token")
        exchange._handler.send_header("Content-Length", "0")
        exchange._handler.end_headers()

    page_server.set_handler("/doc", hostile)
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.error) == ("gone", "HTTP 410 Gone")


@pytest.mark.parametrize("code", [401, 403])
def test_forbidden_is_refused_without_retry(page_server: PageServer, code: int) -> None:
    page_server.set_page("/doc", "go away", status=code)
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.http_status, result.attempts) == ("refused", code, 1)
    assert page_server.hits("/doc") == 1


def test_429_waits_the_retry_after_seconds_then_succeeds(
    page_server: PageServer, sleeps: list[float]
) -> None:
    page_server.set_handler(
        "/doc",
        sequence(
            lambda ex: status(ex, 429, {"Retry-After": "1"}),
            lambda ex: ex.respond(200, PAGE.encode(), {"Content-Type": "text/html"}),
        ),
    )
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.attempts) == ("ok", 2)
    assert [request.path for request in page_server.page_requests] == ["/doc", "/doc"]
    assert sleeps == [1.0]  # the server's Retry-After, not the (much shorter) backoff


def test_429_with_an_http_date_retry_after_in_the_past_retries_at_once(
    page_server: PageServer, sleeps: list[float]
) -> None:
    past = format_datetime(datetime.now(UTC) - timedelta(hours=1), usegmt=True)
    page_server.set_handler(
        "/doc",
        sequence(
            lambda ex: status(ex, 429, {"Retry-After": past}),
            lambda ex: ex.respond(200, PAGE.encode(), {"Content-Type": "text/html"}),
        ),
    )
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.attempts) == ("ok", 2)
    assert page_server.hits("/doc") == 2
    assert sleeps == [0.0]


def test_a_cookie_a_page_sets_is_never_sent_back(page_server: PageServer) -> None:
    """Cookies know no port: one set by a page on one origin went to every other origin
    of its host, and to the run's next pages on its own."""
    page = PAGE.encode()
    cookie = {"Content-Type": "text/html", "Set-Cookie": "session=SECRET; Path=/"}
    page_server.set_handler("/login", lambda ex: ex.respond(200, page, cookie))
    page_server.set_page("/doc", PAGE)
    policy = replace(FAST, respect_robots=False)
    with PageServer() as other:
        other.set_page("/doc", PAGE)

        async def run() -> None:
            async with make_client(policy, trust_env=False) as client:
                for url in (page_server.url("/login"), page_server.url("/doc"), other.url("/doc")):
                    await fetch_all([url], client, policy=policy)

        asyncio.run(run())
        sent = [request.headers.get("cookie") for request in other.requests]
    sent += [request.headers.get("cookie") for request in page_server.requests]
    assert len(sent) >= 3 and not any(sent), sent  # a retry under load asks once more


@pytest.mark.parametrize("value", ["nan", "NaN", "-nan"])
def test_a_retry_after_of_no_number_waits_the_backoff(
    page_server: PageServer, sleeps: list[float], value: str
) -> None:
    """A "nan" used to be waited as such: the wait never ended, and the URL sat out its
    whole deadline to be called "no answer within the deadline"."""
    page_server.set_handler(
        "/doc",
        sequence(
            lambda ex: status(ex, 503, {"Retry-After": value}),
            lambda ex: ex.respond(200, PAGE.encode(), {"Content-Type": "text/html"}),
        ),
    )
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.attempts) == ("ok", 2)
    assert len(sleeps) == 1 and 0 < sleeps[0] <= PATIENT.backoff_base


def test_429_asking_for_longer_than_the_cap_is_refused_without_waiting(
    page_server: PageServer, sleeps: list[float]
) -> None:
    later = format_datetime(datetime.now(UTC) + timedelta(hours=1), usegmt=True)
    page_server.set_handler("/doc", lambda ex: status(ex, 429, {"Retry-After": later}))
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.http_status, result.attempts) == ("refused", 429, 1)
    assert (result.error or "").startswith("HTTP 429 Too Many Requests; Retry-After asks for ")
    assert (result.error or "").endswith(" s, more than the 2 s cap")
    assert page_server.hits("/doc") == 1
    assert sleeps == []


def test_429_forever_is_refused_after_the_retries(page_server: PageServer) -> None:
    page_server.set_handler("/doc", lambda ex: status(ex, 429))
    policy = FetchPolicy(
        allow_private=True, timeout=10.0, retries=2, backoff_base=0.01, per_host_interval=0
    )
    result = fetch_one(page_server.url("/doc"), policy)
    assert (result.source_status, result.http_status, result.attempts) == ("refused", 429, 3)
    assert page_server.hits("/doc") == 3
    assert "gave up after 3 attempts" in (result.error or "")


def test_500_then_200_is_ok_after_a_retry(httpserver: HTTPServer) -> None:
    httpserver.expect_ordered_request("/flaky").respond_with_data("oops", status=500)
    httpserver.expect_ordered_request("/flaky").respond_with_data(
        "all good", content_type="text/plain"
    )
    result = fetch_one(httpserver.url_for("/flaky"), replace(NO_ROBOTS, timeout=10.0))
    assert (result.source_status, result.http_status, result.attempts) == ("ok", 200, 2)
    assert result.text == "all good"
    httpserver.check_assertions()


def test_503_forever_is_unreachable_after_the_retries(page_server: PageServer) -> None:
    page_server.set_handler("/doc", lambda ex: status(ex, 503))
    result = fetch_one(page_server.url("/doc"), PATIENT)
    assert (result.source_status, result.http_status, result.attempts) == ("unreachable", 503, 2)
    assert page_server.hits("/doc") == FAST.retries + 1


def test_connection_refused_is_unreachable_after_the_retries() -> None:
    result = fetch_one(f"http://127.0.0.1:{unused_port()}/doc")
    assert (result.source_status, result.http_status, result.attempts) == ("unreachable", None, 2)
    assert result.error is not None and "\n" not in result.error


@pytest.mark.slow
def test_a_body_trickling_past_the_timeout_is_unreachable(page_server: PageServer) -> None:
    # Each byte arrives well within the read timeout, and the whole body (10 s) well within
    # the URL's deadline: only the per-request timeout stops it. Were that timeout a mere
    # read timeout, the page would arrive whole and read as ok.
    page_server.set_handler("/slow", trickle(b"x" * 100, every=0.1))
    result = fetch_one(page_server.url("/slow"), FAST)
    assert FAST.deadline > 100 * 0.1
    assert (result.source_status, result.attempts, result.text) == ("unreachable", 2, None)
    assert result.error == "timed out after 0.5 s; gave up after 2 attempts"
    assert page_server.hits("/slow") == 2


def test_a_reset_mid_body_is_unreachable(page_server: PageServer) -> None:
    page_server.set_handler("/reset", reset_mid_body(b"partial", declared=100_000))
    result = fetch_one(page_server.url("/reset"))
    assert (result.source_status, result.attempts, result.text) == ("unreachable", 2, None)
    assert page_server.hits("/reset") == 2


# --- redirects ------------------------------------------------------------------------------


@pytest.mark.parametrize(("code", "expected"), [(301, "moved"), (308, "moved")])
def test_a_permanent_redirect_is_moved_and_still_read(
    page_server: PageServer, code: int, expected: str
) -> None:
    page_server.set_handler("/old", redirect("/new", code))
    page_server.set_page("/new", PAGE)
    result = fetch_one(page_server.url("/old"))
    assert result.source_status == expected
    assert result.moved_to == result.final_url == page_server.url("/new")
    assert result.redirects == (Hop(page_server.url("/old"), code),)
    assert result.text == PAGE


@pytest.mark.parametrize(
    ("route", "asked", "moved_to"),
    [
        ({"/old": redirect("/new#part", 301)}, "/old", "/new#part"),
        ({"/old": redirect("/mid#part", 301), "/mid": redirect("/new", 308)}, "/old", "/new#part"),
        ({"/old": redirect("/new#part", 301)}, "/old#mine", "/new#part"),
        ({"/old": redirect("/new", 301)}, "/old#mine", "/new#mine"),
        ({"/old": redirect("/new#L2-L3", 301)}, "/old", "/new"),
        ({"/old": redirect("/new#part", 301)}, "/old#L2-L3", "/new#L2-L3"),
        ({"/old": redirect("/new#:~:text=Every", 301)}, "/old", "/new"),
        ({"/old": redirect("/new#top:~:text=Every", 301)}, "/old", "/new#top"),
        ({"/old": redirect("/new#a\tb", 301)}, "/old", "/new#a%09b"),
    ],
    ids=[
        "location",
        "inherited-down-a-chain",
        "location-first",
        "the-urls-own",
        "no-line-range",
        "the-ledgers-line-range-first",
        "no-text-directive",
        "the-fragment-before-a-directive",
        "percent-encoded",
    ],
)
def test_a_page_moved_for_good_keeps_the_fragment_its_redirect_names(
    page_server: PageServer, route: dict[str, Any], asked: str, moved_to: str
) -> None:
    """`/old` sent for good to `/new#part` was adopted as `/new`: a quote's link then opened
    at the top of a long page. A line range is the ledger's to name, never a server's."""
    for path, handler in route.items():
        page_server.set_handler(path, handler)
    page_server.set_page("/new", PAGE)
    result = fetch_one(page_server.url(asked))
    assert (result.source_status, result.moved_to) == ("moved", page_server.url(moved_to))
    assert result.final_url == page_server.url("/new")


@pytest.mark.parametrize(
    ("named", "kept"),
    [("part", "part"), ("a&#x202e;b", "a%E2%80%AEb"), ("a&#x9;b", "a%09b")],
    ids=["as-named", "no-bidi-control", "no-space"],
)
def test_an_alias_page_keeps_the_fragment_its_refresh_names(
    page_server: PageServer, named: str, kept: str
) -> None:
    """Written into the ledger as the page's address: a bidi control or a tab there, as
    the page's markup may write them, would reverse how it reads, or make it unadoptable."""
    page_server.set_page("/old/", alias(f"/new/#{named}"))
    page_server.set_page("/new/", PAGE)
    result = fetch_one(page_server.url("/old/"))
    assert (result.source_status, result.moved_to) == ("moved", page_server.url(f"/new/#{kept}"))


@pytest.mark.parametrize("code", [302, 303, 307])
def test_a_temporary_redirect_is_ok(page_server: PageServer, code: int) -> None:
    page_server.set_handler("/old", redirect(page_server.url("/new"), code))
    page_server.set_page("/new", PAGE)
    result = fetch_one(page_server.url("/old"))
    assert (result.source_status, result.moved_to, result.text) == ("ok", None, PAGE)
    assert result.redirects == (Hop(page_server.url("/old"), code),)


def test_a_chain_of_permanent_redirects_records_every_hop(page_server: PageServer) -> None:
    page_server.set_handler("/a", redirect("/b", 301))
    page_server.set_handler("/b", redirect("/c", 308))
    page_server.set_page("/c", PAGE)
    result = fetch_one(page_server.url("/a"))
    assert result.source_status == "moved"
    assert result.moved_to == page_server.url("/c")
    assert [hop.status for hop in result.redirects] == [301, 308]


def test_moved_to_is_where_the_permanent_head_of_the_chain_leads(
    page_server: PageServer,
) -> None:
    page_server.set_handler("/a", redirect("/b", 301))
    page_server.set_handler("/b", redirect("/login-wall", 302))
    page_server.set_page("/login-wall", PAGE)
    result = fetch_one(page_server.url("/a"))
    assert (result.source_status, result.moved_to) == ("moved", page_server.url("/b"))


def test_a_temporary_hop_first_means_the_ledger_url_did_not_move(
    page_server: PageServer,
) -> None:
    page_server.set_handler("/a", redirect("/b", 302))
    page_server.set_handler("/b", redirect("/c", 301))
    page_server.set_page("/c", PAGE)
    result = fetch_one(page_server.url("/a"))
    assert (result.source_status, result.moved_to) == ("ok", None)
    assert len(result.redirects) == 2


def test_a_redirect_loop_is_refused(page_server: PageServer) -> None:
    page_server.set_handler("/a", redirect("/b", 302))
    page_server.set_handler("/b", redirect("/a", 302))
    result = fetch_one(page_server.url("/a"))
    assert result.source_status == "refused"
    assert "loop" in (result.error or "")
    assert (page_server.hits("/a"), page_server.hits("/b"), result.attempts) == (1, 1, 1)


@pytest.mark.parametrize("code", [301, 308])
def test_a_permanent_redirect_loop_moved_the_page_nowhere(
    page_server: PageServer, code: int
) -> None:
    """A loop's other address is no new home: `status --json` said it as `moved_to`."""
    page_server.set_handler("/a", redirect("/b", code))
    page_server.set_handler("/b", redirect("/a", code))
    result = fetch_one(page_server.url("/a"))
    assert (result.source_status, result.moved_to) == ("refused", None)
    assert "loop" in (result.error or "")


def test_too_many_redirects_is_refused(page_server: PageServer) -> None:
    for step in range(12):
        page_server.set_handler(f"/{step}", redirect(f"/{step + 1}", 302))
    page_server.set_page("/12", PAGE)
    result = fetch_one(
        page_server.url("/0"),
        FetchPolicy(allow_private=True, max_redirects=10, per_host_interval=0),
    )
    assert result.source_status == "refused"
    assert "more than 10 redirects" in (result.error or "")
    assert len(result.redirects) == 11
    assert page_server.hits("/11") == 0


def test_exactly_max_redirects_is_followed(page_server: PageServer) -> None:
    for step in range(3):
        page_server.set_handler(f"/{step}", redirect(f"/{step + 1}", 302))
    page_server.set_page("/3", PAGE)
    result = fetch_one(
        page_server.url("/0"), FetchPolicy(allow_private=True, max_redirects=3, per_host_interval=0)
    )
    assert (result.source_status, len(result.redirects)) == ("ok", 3)


@pytest.mark.parametrize(
    "location", ["file:///etc/passwd", "ftp://127.0.0.1/doc", "javascript:alert(1)", "http://[::1"]
)
def test_a_redirect_to_another_scheme_is_refused(page_server: PageServer, location: str) -> None:
    page_server.set_handler("/doc", redirect(location, 301))
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "refused"
    assert result.error == f"redirect to a non-http(s) URL refused: {location}"
    assert result.text is None


@pytest.mark.parametrize(
    "url", ["ftp://example.com/doc", "file:///etc/passwd", "not a url", "http://[::1", "https://"]
)
def test_a_non_http_url_is_refused_as_data(url: str) -> None:
    result = fetch_one(url)
    assert (result.source_status, result.attempts, result.http_status) == ("refused", 0, None)
    assert "not an http(s) URL" in (result.error or "")


BAD_PUNYCODE = "http://xn--a.example/doc"
"""A host whose Punycode label decodes to no name IDNA allows (U+0080): the HTTP client
cannot name it, and raised where the request was made."""


def test_a_host_in_bad_punycode_is_refused_as_data() -> None:
    result = fetch_one(BAD_PUNYCODE)

    assert (result.source_status, result.attempts) == ("refused", 0)
    assert result.error == (
        f"{BAD_PUNYCODE} names a host whose label 'xn--a' is not a valid internationalised name"
    )


def test_a_redirect_to_a_host_in_bad_punycode_is_refused(page_server: PageServer) -> None:
    page_server.set_handler("/doc", redirect(BAD_PUNYCODE, 302))

    result = fetch_one(page_server.url("/doc"))

    assert result.source_status == "refused"
    assert result.error == (
        f"redirect refused: {BAD_PUNYCODE} names a host whose label 'xn--a' is not a valid "
        "internationalised name"
    )


def test_a_request_the_client_cannot_name_is_refused_as_data() -> None:
    """Past every check, a host the HTTP client's IDNA codec refuses is a refusal, never an
    exception out of the fetch."""
    outcome = asyncio.run(_one_request(BAD_PUNYCODE))

    assert outcome.source_status == "refused"
    assert (outcome.error or "").startswith(f"cannot request {BAD_PUNYCODE}: ")


async def _one_request(url: str) -> Outcome:
    client = make_client(FAST, trust_env=False)
    try:
        found = await request(url, client, {}, FAST)
    finally:
        await client.aclose()
    assert isinstance(found, Outcome)
    return found


# --- bodies ---------------------------------------------------------------------------------


def test_a_declared_length_over_the_cap_is_unreadable_without_reading(
    page_server: PageServer,
) -> None:
    # The server sends headers and then stalls: reading the body would time out instead.
    page_server.set_handler("/big", stall_after_headers(20 * 1024 * 1024))
    result = fetch_one(
        page_server.url("/big"), FetchPolicy(allow_private=True, timeout=5, per_host_interval=0)
    )
    assert (result.source_status, result.attempts) == ("unreadable", 1)
    assert result.error == "body larger than 10485760 bytes (Content-Length 20971520)"
    assert page_server.hits("/big") == 1  # a read would have timed out, and been retried


def test_a_streamed_20mb_body_is_cut_at_the_cap(page_server: PageServer) -> None:
    pieces = (b"x" * 65536 for _ in range(320))
    page_server.set_handler("/big", chunked(pieces, {"Content-Type": "text/plain"}))
    result = fetch_one(
        page_server.url("/big"), FetchPolicy(allow_private=True, timeout=10, per_host_interval=0)
    )
    assert result.source_status == "unreadable"
    assert result.error == "body larger than 10485760 bytes"


def test_a_20mb_body_under_a_raised_cap_is_read_whole(page_server: PageServer) -> None:
    page_server.set_page("/big", b"y" * (20 * 1024 * 1024), content_type="text/plain")
    policy = FetchPolicy(
        allow_private=True, timeout=10, max_body=32 * 1024 * 1024, per_host_interval=0
    )
    result = fetch_one(page_server.url("/big"), policy)
    assert result.source_status == "ok"
    assert result.text is not None and len(result.text) == 20 * 1024 * 1024


def test_a_gzip_page_is_decoded(page_server: PageServer) -> None:
    page_server.set_handler("/doc", gzipped(PAGE))
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.text) == ("ok", PAGE)


def test_a_raw_deflate_page_is_decoded(page_server: PageServer) -> None:
    packer = zlib.compressobj(6, zlib.DEFLATED, -zlib.MAX_WBITS)
    body = packer.compress(PAGE.encode()) + packer.flush()
    headers = {"Content-Encoding": "deflate"}
    page_server.set_page("/doc", body, headers=headers, content_type="text/html")
    assert fetch_one(page_server.url("/doc")).text == PAGE


def test_a_gzip_bomb_is_unreadable(page_server: PageServer) -> None:
    page_server.set_handler("/bomb", gzip_bomb(64 * 1024 * 1024))
    result = fetch_one(
        page_server.url("/bomb"), FetchPolicy(allow_private=True, timeout=10, per_host_interval=0)
    )
    assert result.source_status == "unreadable"
    assert result.error == f"decompressed body larger than {32 * 1024 * 1024} bytes"


def test_a_gzip_bomb_never_holds_more_than_the_cap(page_server: PageServer) -> None:
    page_server.set_handler("/bomb", gzip_bomb(256 * 1024 * 1024))
    policy = FetchPolicy(
        allow_private=True, timeout=10, max_decompressed=1024 * 1024, per_host_interval=0
    )
    tracemalloc.start()
    try:
        result = fetch_one(page_server.url("/bomb"), policy)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert result.source_status == "unreadable"
    assert peak < 16 * 1024 * 1024, f"peak {peak} bytes while decoding a 256 MB bomb"


def test_a_gzip_body_of_several_members_is_read_whole(page_server: PageServer) -> None:
    """RFC 1952: a gzip body is a series of members; the page is all of them, never the
    first alone (whose end would cut the page short, its later quotes looking removed)."""
    data = PAGE.encode()
    body = gzip.compress(data[:30]) + gzip.compress(data[30:]) + b"trailing junk"
    page_server.set_page("/doc", body, headers={"Content-Encoding": "gzip"})
    assert fetch_one(page_server.url("/doc")).text == PAGE


@pytest.mark.parametrize(
    ("body", "headers", "error"),
    [
        (gzip.compress(gzip.compress(PAGE.encode())), {"Content-Encoding": "gzip"}, "gzip data"),
        (gzip.compress(PAGE.encode()), {}, "gzip data"),
        (b"%PDF-1.4\n" + zlib.compress(PAGE.encode()), {}, "a PDF"),
    ],
    ids=["gzipped-twice", "gzip-undeclared", "pdf"],
)
def test_a_binary_body_under_a_text_type_is_unreadable(
    page_server: PageServer, body: bytes, headers: dict[str, str], error: str
) -> None:
    """Decoded as text, the bytes are noise in which every quote would look removed."""
    page_server.set_page("/doc", body, headers=headers, content_type="text/html")
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.text) == ("unreadable", None)
    assert result.error == f"the body is {error}, not the text/html its Content-Type says"


@pytest.mark.parametrize(
    ("body", "error"),
    [
        (gzip.compress(PAGE.encode())[:-12], "truncated gzip body"),
        (gzip.compress(b"")[:10] + b"\xff" * 50, "corrupt gzip body: "),
    ],
    ids=["truncated", "invalid-block"],
)
def test_broken_gzip_is_unreadable(page_server: PageServer, body: bytes, error: str) -> None:
    page_server.set_page("/doc", body, headers={"Content-Encoding": "gzip"})
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "unreadable"
    assert (result.error or "").startswith(error)


@pytest.mark.parametrize(
    "content_type",
    [
        "text/html; charset=utf-8",
        "application/xhtml+xml",
        "text/plain",
        "text/markdown; charset=utf-8",
        "text/x-python",
        "text/x-c++src",
        "application/json",
        "application/javascript",
        "text/javascript",
    ],
)
def test_text_content_types_are_read(page_server: PageServer, content_type: str) -> None:
    page_server.set_page("/doc", "some text", content_type=content_type)
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.text, result.content_type) == (
        "ok",
        "some text",
        content_type,
    )


@pytest.mark.parametrize(
    "content_type", ["image/png", "application/zip", "application/octet-stream", "video/mp4"]
)
def test_other_content_types_are_unreadable(page_server: PageServer, content_type: str) -> None:
    page_server.set_page("/doc", b"\x89PNG\r\n\x1a\n\0\0", content_type=content_type)
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.text) == ("unreadable", None)
    assert content_type in (result.error or "")


def test_a_missing_content_type_is_sniffed(page_server: PageServer) -> None:
    page_server.set_page("/text", PAGE, content_type=None)
    page_server.set_page("/png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", content_type=None)
    results = fetch([page_server.url("/text"), page_server.url("/png")])
    assert results[page_server.url("/text")].source_status == "ok"
    assert results[page_server.url("/text")].text == PAGE
    assert results[page_server.url("/png")].source_status == "unreadable"


# --- charsets -------------------------------------------------------------------------------

FRENCH = "<p>Les écritures sont durables ; « café », élève, où, déjà, Noël, garçon.</p>"
JAPANESE = "<p>入力ゲートは、ストレージ操作の実行中に他のイベントの配信を防ぎます。</p>"


@pytest.mark.parametrize(
    ("text", "encoding", "declared_by"),
    [
        (FRENCH, "latin-1", "header"),
        (FRENCH, "latin-1", "meta"),
        (FRENCH, "latin-1", "http-equiv"),
        (JAPANESE, "shift_jis", "header"),
        (JAPANESE, "shift_jis", "meta"),
        (JAPANESE, "shift_jis", "http-equiv"),
        (JAPANESE * 4, "shift_jis", "nothing"),
        (FRENCH * 4, "latin-1", "nothing"),
        (JAPANESE, "utf-8", "nothing"),
    ],
)
def test_charsets_decode(
    page_server: PageServer, text: str, encoding: str, declared_by: str
) -> None:
    page, content_type = declared_page(text, encoding, declared_by)
    page_server.set_page("/doc", page.encode(encoding), content_type=content_type)
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "ok"
    assert result.text == page


def declared_page(body: str, charset: str, declared_by: str) -> tuple[str, str]:
    """A page whose charset is declared by its `meta`, its `http-equiv`, its `header`
    (the Content-Type returned beside it) or `nothing`."""
    heads = {
        "meta": f'<meta charset="{charset}">',
        "http-equiv": f'<meta http-equiv="Content-Type" content="text/html; charset={charset}">',
    }
    page = f"<html><head>{heads.get(declared_by, '')}</head><body>{body}</body></html>"
    return page, "text/html" + (f"; charset={charset}" if declared_by == "header" else "")


def test_a_browser_reads_iso_8859_1_as_windows_1252(page_server: PageServer) -> None:
    body = "It’s “durable”".encode("cp1252")
    page_server.set_page("/doc", body, content_type="text/plain; charset=iso-8859-1")
    assert fetch_one(page_server.url("/doc")).text == "It’s “durable”"


@pytest.mark.parametrize(
    ("charset", "declared_by", "body"),
    [
        ("base64", "meta", "<p>hi</p>"),
        ("hex", "header", "<p>hi</p>"),
        ("rot13", "header", "<p>hi</p>"),
        ("zlib", "http-equiv", "<p>hi</p>"),
        ("idna", "header", "<p>hi</p>"),
        ("undefined", "header", "<p>hi</p>"),
        ("punycode", "meta", "<p>caf\u00e9</p>"),
        ("utf-7", "header", "<title>a+2AA-b</title><p>hi</p>"),
        ("unicode_escape", "meta", "<p>hi \\ud800</p>"),
    ],
)
def test_a_charset_no_browser_reads_a_page_in_is_as_none(
    page_server: PageServer, charset: str, declared_by: str, body: str
) -> None:
    """Python's codecs that are no page's (base64, rot13, zlib) raised on the body, and
    UTF-7 or escapes made lone surrogates of it that its head's parser could not take:
    each ended a command with an internal error. A page naming one is read as naming none."""
    page, content_type = declared_page(body, charset, declared_by)
    page_server.set_page("/doc", page.encode("utf-8"), content_type=content_type)

    result = fetch_one(page_server.url("/doc"))

    assert (result.source_status, result.text) == ("ok", page)


@pytest.mark.parametrize("charset", ["utf-16", "UTF-16LE", "utf-16be"])
@pytest.mark.parametrize("declared_by", ["meta", "http-equiv"])
def test_a_page_declaring_utf_16_in_itself_is_read_as_utf_8(
    page_server: PageServer, charset: str, declared_by: str
) -> None:
    """A declaration one can read as ASCII is in no UTF-16: browsers read such a page as
    UTF-8 (WHATWG), where decoding it as UTF-16 made noise of it, every quote missing."""
    page, content_type = declared_page(FRENCH, charset, declared_by)
    page_server.set_page("/doc", page.encode("utf-8"), content_type=content_type)

    result = fetch_one(page_server.url("/doc"))

    assert (result.source_status, result.text) == ("ok", page)


def test_a_page_of_unclosed_meta_tags_is_read_by_its_first_bytes(page_server: PageServer) -> None:
    """1 MB of `<meta ` never closed, then a byte that is not UTF-8: its declaration is
    looked for in its first 16 KiB and its encoding guessed from its first 64 KiB, where
    both searches once ran over a twentieth of it in time that grew with its square (6 MB:
    36 s; `python tests/benchmarks/bench_hostile.py` times it)."""
    body = b"<meta " * 180_000 + b"caf\xe9"
    page_server.set_page("/doc", body, content_type="text/html")

    result = fetch_one(page_server.url("/doc"))

    assert result.source_status == "ok"
    assert result.text == body.decode("cp1252")


# --- conditional requests -------------------------------------------------------------------


def test_an_etag_answered_with_304_is_not_modified(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/doc", headers={"If-None-Match": '"v1"'}).respond_with_data(
        "", status=304, headers={"ETag": '"v1"'}
    )
    url = httpserver.url_for("/doc")
    known = {url: Validators(etag='"v1"', last_modified=None)}
    result = fetch_one(url, NO_ROBOTS, validators=known)
    assert (result.source_status, result.http_status, result.not_modified) == ("ok", 304, True)
    assert (result.text, result.etag) == (None, '"v1"')
    httpserver.check_assertions()


def test_a_bare_304_keeps_the_validators_that_were_sent(httpserver: HTTPServer) -> None:
    httpserver.expect_request("/doc").respond_with_data("", status=304)
    url = httpserver.url_for("/doc")
    sent = Validators(etag='"v1"', last_modified="Wed, 21 Oct 2026 07:28:00 GMT")
    result = fetch_one(url, NO_ROBOTS, validators={url: sent})
    assert result.not_modified is True
    assert (result.etag, result.last_modified) == (sent.etag, sent.last_modified)


def test_a_validator_no_header_can_carry_is_not_sent(page_server: PageServer) -> None:
    """A server's `ETag: "café"`, stored, made every later request of its page a "cannot
    request" refusal, after the server mended it too: the page is asked for in full."""
    page_server.set_page("/doc", PAGE)
    url = page_server.url("/doc")
    since = "Mon, 01 Jan 2024 00:00:00 GMT"
    result = fetch_one(url, validators={url: Validators('"caf\u00e9"', since)})
    assert (result.source_status, result.text) == ("ok", PAGE)
    [asked] = page_server.page_requests
    assert "if-none-match" not in asked.headers
    assert asked.headers["if-modified-since"] == since


def test_validators_from_a_first_fetch_make_the_second_a_304(page_server: PageServer) -> None:
    modified = "Wed, 21 Oct 2026 07:28:00 GMT"
    page_server.set_page("/doc", PAGE, headers={"ETag": '"v1"', "Last-Modified": modified})
    url = page_server.url("/doc")
    first = fetch_one(url)
    assert (first.not_modified, first.etag, first.last_modified) == (False, '"v1"', modified)

    second = fetch_one(url, validators={url: Validators(first.etag, first.last_modified)})
    assert (second.source_status, second.http_status, second.not_modified) == ("ok", 304, True)
    sent = page_server.page_requests[-1].headers
    assert (sent["if-none-match"], sent["if-modified-since"]) == ('"v1"', modified)

    page_server.set_page("/doc", PAGE + "<p>new</p>", headers={"ETag": '"v2"'})
    third = fetch_one(url, validators={url: Validators(first.etag, first.last_modified)})
    assert (third.http_status, third.not_modified, third.etag) == (200, False, '"v2"')


def test_last_modified_alone_makes_a_304(page_server: PageServer) -> None:
    modified = "Wed, 21 Oct 2026 07:28:00 GMT"
    page_server.set_page("/doc", PAGE, headers={"Last-Modified": modified})
    url = page_server.url("/doc")
    result = fetch_one(url, validators={url: Validators(None, modified)})
    assert (result.not_modified, result.source_status) == (True, "ok")
    assert "if-none-match" not in page_server.requests[-1].headers


def test_connections_are_reused_across_304s_and_redirects(page_server: PageServer) -> None:
    for n in range(6):
        page_server.set_page(f"/{n}", PAGE, headers={"ETag": '"v1"'})
        page_server.set_handler(f"/old/{n}", redirect(f"/{n}", 301))
    urls = [page_server.url(f"/old/{n}") for n in range(6)]
    policy = FetchPolicy(allow_private=True, per_host=1, per_host_interval=0)
    known = {page_server.url(f"/{n}"): Validators('"v1"', None) for n in range(6)}
    results = fetch(urls, policy, validators=known)
    assert {(result.source_status, result.not_modified) for result in results.values()} == {
        ("moved", True)
    }
    assert page_server.connections_opened == 1


# --- runs: dedup, anchors, limits -----------------------------------------------------------


def test_each_distinct_url_is_fetched_once(page_server: PageServer) -> None:
    page_server.set_page("/a", PAGE)
    page_server.set_page("/b", PAGE)
    urls = [page_server.url("/a"), page_server.url("/b"), page_server.url("/a")]
    seen: list[str] = []
    results = fetch(urls, on_result=lambda result: seen.append(result.url))
    assert list(results) == [page_server.url("/a"), page_server.url("/b")]
    assert (page_server.hits("/a"), page_server.hits("/b")) == (1, 1)
    assert sorted(seen) == sorted(results)


def test_line_anchors_share_one_request_of_a_raw_source_file(page_server: PageServer) -> None:
    source = "// header\nexport class InputGate {\n  lock(): void {}\n}\n"
    page_server.set_page("/owner/repo/main/src/gate.ts", source, content_type="text/plain")
    lines = page_server.url("/owner/repo/main/src/gate.ts#L2-L3")
    line = page_server.url("/owner/repo/main/src/gate.ts#L4")
    results = fetch([lines, line])
    assert page_server.hits("/owner/repo/main/src/gate.ts") == 1
    assert (results[lines].line_range, results[line].line_range) == ((2, 3), (4, 4))
    assert results[lines].text == results[line].text == source
    assert results[lines].url == lines


def test_anchors_with_different_validators_fetch_in_full(page_server: PageServer) -> None:
    page_server.set_page("/f.ts", "x\ny\n", content_type="text/plain", headers={"ETag": '"1"'})
    known, fresh = page_server.url("/f.ts#L1"), page_server.url("/f.ts#L2")
    results = fetch([known, fresh], validators={known: Validators('"1"', None)})
    assert "if-none-match" not in page_server.requests[-1].headers
    assert results[known].not_modified is False
    assert results[fresh].text == "x\ny\n"


def _counting_handler(delay: float) -> tuple[Callable[[Exchange], None], Callable[[], int]]:
    """A route that holds each request `delay` s and remembers the most in flight at once."""
    lock = threading.Lock()
    in_flight = 0
    peak = 0

    def handle(exchange: Exchange) -> None:
        nonlocal in_flight, peak
        with lock:
            in_flight += 1
            peak = max(peak, in_flight)
        exchange.pause(delay)
        with lock:
            in_flight -= 1
        exchange.respond(200, b"ok", {"Content-Type": "text/plain"})

    return handle, lambda: peak


def test_the_per_host_limit_holds(page_server: PageServer) -> None:
    handle, peak = _counting_handler(0.1)
    for n in range(10):
        page_server.set_handler(f"/{n}", handle)
    policy = FetchPolicy(allow_private=True, concurrency=16, per_host=3, per_host_interval=0)
    results = fetch([page_server.url(f"/{n}") for n in range(10)], policy)
    assert {result.source_status for result in results.values()} == {"ok"}
    assert peak() == 3


def test_the_global_limit_holds_across_hosts(page_server: PageServer) -> None:
    handle, peak = _counting_handler(0.1)
    for n in range(8):
        page_server.set_handler(f"/{n}", handle)
    urls = [page_server.url(f"/{n}", host) for n in range(8) for host in ("127.0.0.1", "localhost")]
    policy = FetchPolicy(allow_private=True, concurrency=5, per_host=4, per_host_interval=0)
    results = fetch(urls, policy)
    assert {result.source_status for result in results.values()} == {"ok"}
    assert peak() == 5


def test_requests_to_one_host_are_spaced(
    page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The gate's clock only moves when it waits, so its starts are exactly its decisions."""
    clock = [1000.0]
    gate = _patch_asyncio(monkeypatch, pacing, _Asyncio(instant=True, clock=clock))
    starts: list[float] = []
    slot = pacing.HostGate.slot

    def recorded_slot(self: pacing.HostGate) -> AbstractAsyncContextManager[None]:
        return _recording(slot(self), starts, clock)

    monkeypatch.setattr(pacing.HostGate, "slot", recorded_slot)
    for n in range(5):
        page_server.set_page(f"/{n}", PAGE)
    policy = FetchPolicy(allow_private=True, per_host=4, per_host_interval=0.1)
    results = fetch([page_server.url(f"/{n}") for n in range(5)], policy)
    assert {result.source_status for result in results.values()} == {"ok"}
    paths = [request.path for request in page_server.requests]
    assert paths[0] == "/robots.txt" and sorted(paths[1:]) == [f"/{n}" for n in range(5)]
    assert gate.sleeps == pytest.approx([0.1] * 5)  # every start after the first waited
    assert starts == pytest.approx([1000.0 + 0.1 * n for n in range(6)])


def test_one_failing_url_does_not_stop_the_others(page_server: PageServer) -> None:
    page_server.set_page("/ok", PAGE)
    page_server.set_handler("/down", lambda ex: status(ex, 503))
    urls = [page_server.url("/down"), "mailto:someone@example.com", page_server.url("/ok")]
    results = fetch(urls)
    assert [results[url].source_status for url in urls] == ["unreachable", "refused", "ok"]


def test_an_error_in_on_result_propagates(page_server: PageServer) -> None:
    page_server.set_page("/ok", PAGE)

    def explode(result: FetchResult) -> None:
        raise RuntimeError("progress display broke")

    with pytest.raises(RuntimeError, match="progress display broke"):
        fetch([page_server.url("/ok")], on_result=explode)


def test_fetch_each_yields_each_result_as_it_arrives_and_cancels_the_rest(
    page_server: PageServer,
) -> None:
    release = threading.Event()

    def held(exchange: Exchange) -> None:
        release.wait(10)  # only so a broken test cannot hang the server
        status(exchange, 200)

    page_server.set_page("/fast", PAGE)
    page_server.set_handler("/held/1", held)
    page_server.set_handler("/held/2", held)
    policy = replace(FAST, per_host=1, timeout=10.0)
    urls = [page_server.url(path) for path in ("/fast", "/held/1", "/held/2")]

    async def first_only() -> list[FetchResult]:
        arrived: list[FetchResult] = []
        async with make_client(policy, trust_env=False) as client:
            results = fetch_each(urls, client, policy=policy)
            async for result in results:
                arrived.append(result)
                break
            for _ in range(1000):  # until one held request is under way (10 s at most)
                if page_server.hits("/held/1") + page_server.hits("/held/2"):
                    break
                await asyncio.sleep(0.01)
            await results.aclose()
        return arrived

    try:
        (first,) = asyncio.run(first_only())
    finally:
        release.set()
    assert (first.url, first.source_status, first.text) == (urls[0], "ok", PAGE)
    assert page_server.hits("/held/1") + page_server.hits("/held/2") == 1  # the other cancelled


class _Clock:
    """A monotonic clock for the fetcher that notes how many requests the server had seen
    each time it was read."""

    def __init__(self, server: PageServer, ticks: Iterator[float]) -> None:
        self._server = server
        self._ticks = ticks
        self.read_at: list[int] = []

    def monotonic(self) -> float:
        self.read_at.append(len(self._server.page_requests))
        return next(self._ticks)


def test_elapsed_spans_the_whole_fetch_of_a_url(
    page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    page_server.set_handler("/a", redirect("/b", 302))
    page_server.set_page("/b", PAGE)
    clock = _Clock(page_server, iter([100.0, 100.75]))
    monkeypatch.setattr(fetch_module, "time", clock)
    result = fetch_one(page_server.url("/a"))
    assert (result.source_status, len(result.redirects)) == ("ok", 1)
    assert result.elapsed == 0.75
    assert clock.read_at == [0, 2]  # started before the first request, ended after the last


# --- validators belong to one URL -----------------------------------------------------------


def test_a_redirected_request_never_carries_the_old_urls_validators(
    page_server: PageServer,
) -> None:
    modified = "Wed, 21 Oct 2026 07:28:00 GMT"
    page_server.set_handler("/old", redirect("/new", 301))
    page_server.set_page("/new", PAGE, headers={"Last-Modified": modified, "ETag": '"n1"'})
    old = page_server.url("/old")
    result = fetch_one(old, validators={old: Validators('"o1"', modified)})
    to_old, to_new = page_server.page_requests
    assert ("if-none-match" in to_old.headers, "if-modified-since" in to_old.headers) == (
        True,
        True,
    )
    assert "if-none-match" not in to_new.headers and "if-modified-since" not in to_new.headers
    assert (result.source_status, result.not_modified, result.text) == ("moved", False, PAGE)
    assert result.conditional is None


def test_the_new_urls_own_validators_make_a_304_after_the_redirect(
    page_server: PageServer,
) -> None:
    page_server.set_handler("/old", redirect("/new", 301))
    page_server.set_page("/new", PAGE, headers={"ETag": '"n1"'})
    old, new = page_server.url("/old"), page_server.url("/new")
    result = fetch_one(old, validators={new: Validators('"n1"', None)})
    assert page_server.page_requests[-1].headers["if-none-match"] == '"n1"'
    assert (result.final_url, result.not_modified) == (new, True)
    assert result.conditional == Validators('"n1"', None)


def test_the_lookup_is_asked_for_each_hop_with_the_chains_start(page_server: PageServer) -> None:
    page_server.set_handler("/a", redirect("/b", 302))
    page_server.set_page("/b", PAGE)
    asked: list[tuple[str, str]] = []

    def lookup(url: str, start: str) -> Validators | None:
        asked.append((url, start))
        return None

    async def run() -> None:
        async with make_client(FAST, trust_env=False) as client:
            await fetch_all([page_server.url("/a")], client, validators=lookup, policy=FAST)

    asyncio.run(run())
    start = page_server.url("/a")
    assert asked == [(start, start), (page_server.url("/b"), start)]


# --- client-side redirects and canonical links ---------------------------------------------


def alias(target: str, delay: str = "0") -> str:
    return (
        f"<!doctype html><html><head><title>Redirecting</title>"
        f'<meta http-equiv="refresh" content="{delay}; url={target}">'
        f'<link rel="canonical" href="{target}"></head>'
        f'<body><p>This page moved to <a href="{target}">{target}</a>.</p></body></html>'
    )


def test_a_meta_refresh_alias_page_is_followed_and_reported_as_moved(
    page_server: PageServer,
) -> None:
    page_server.set_page("/old/", alias("/new/"))
    page_server.set_page("/new/", PAGE)
    result = fetch_one(page_server.url("/old/"))
    assert (result.source_status, result.text) == ("moved", PAGE)
    assert result.moved_to == result.final_url == page_server.url("/new/")
    assert result.redirects == (Hop(page_server.url("/old/"), 200, "meta-refresh"),)


@pytest.mark.parametrize(
    ("target", "problem"),
    [
        ("javascript:alert(1)", "non-http(s)"),
        ("file:///etc/passwd", "non-http(s)"),
        ("/loop/", "loop"),
    ],
)
def test_a_meta_refresh_obeys_the_redirect_rules(
    page_server: PageServer, target: str, problem: str
) -> None:
    page_server.set_page("/loop/", alias(target))
    result = fetch_one(page_server.url("/loop/"))
    if target == "/loop/":  # a refresh to itself is a reload, not a redirect
        assert (result.source_status, result.redirects) == ("ok", ())
        return
    assert result.source_status == "refused"
    assert problem in (result.error or "")


def test_meta_refreshes_count_against_the_redirect_budget(page_server: PageServer) -> None:
    for n in range(4):
        page_server.set_page(f"/{n}/", alias(f"/{n + 1}/"))
    page_server.set_page("/4/", PAGE)
    result = fetch_one(page_server.url("/0/"), replace(FAST, max_redirects=3))
    assert result.source_status == "refused"
    assert "more than 3 redirects" in (result.error or "")


def test_a_slow_meta_refresh_belongs_to_a_page_that_is_read(page_server: PageServer) -> None:
    page_server.set_page("/doc", alias("/elsewhere", delay="30"))
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.redirects) == ("ok", ())
    assert page_server.hits("/elsewhere") == 0


def test_a_canonical_link_elsewhere_is_recorded_not_followed(page_server: PageServer) -> None:
    page = PAGE.replace("<html>", '<html><head><link rel="canonical" href="/v2/doc"></head>')
    page_server.set_page("/doc", page)
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.text) == ("ok", page)
    assert result.canonical == page_server.url("/v2/doc")
    assert page_server.hits("/v2/doc") == 0


def test_a_canonical_link_to_the_page_itself_is_not_news(page_server: PageServer) -> None:
    page = PAGE.replace("<html>", '<html><head><link rel="canonical" href="/doc/"></head>')
    page_server.set_page("/doc", page)
    assert fetch_one(page_server.url("/doc")).canonical is None


@pytest.mark.parametrize(("start", "end"), [("/doc", "/doc/"), ("/doc/", "/doc")])
def test_a_trailing_slash_redirect_is_shown_but_no_move(
    page_server: PageServer, start: str, end: str
) -> None:
    page_server.set_handler(start, redirect(end, 301))
    page_server.set_page(end, PAGE)
    result = fetch_one(page_server.url(start))
    assert (result.source_status, result.moved_to) == ("ok", None)
    assert result.final_url == page_server.url(end)
    assert result.redirects == (Hop(page_server.url(start), 301),)


# --- robots.txt -----------------------------------------------------------------------------


def robots(text: str) -> Handler:
    return Page(text.encode(), 200, {"Content-Type": "text/plain"})


def test_a_page_robots_txt_disallows_is_never_requested(page_server: PageServer) -> None:
    page_server.set_handler(
        "/robots.txt",
        robots("User-agent: claimledger\nDisallow: /private/\n\nUser-agent: *\nDisallow: /\n"),
    )
    page_server.set_page("/private/doc", PAGE)
    page_server.set_page("/public/doc", PAGE)
    results = fetch([page_server.url("/private/doc"), page_server.url("/public/doc")])
    private, public = results.values()
    assert (private.source_status, private.attempts) == ("refused", 1)
    assert "blocked by robots.txt" in (private.error or "")
    assert public.source_status == "ok"
    assert page_server.hits("/private/doc") == 0
    assert page_server.hits("/robots.txt") == 1


ROBOTS_LIMIT = FetchPolicy().max_robots_body
FILLER = "# " + "x" * 97 + "\n"  # a comment line of 100 bytes


def long_robots(text: str, encoding: str) -> Handler:
    """robots.txt of `text` and 2 MB of comments after it, as sent with `encoding`."""
    body = text + FILLER * 20_000
    if encoding == "gzip":
        return gzipped(body, content_type="text/plain")
    return robots(body)


@pytest.mark.parametrize("encoding", ["identity", "gzip"])
def test_a_robots_txt_over_500_kib_is_obeyed_for_its_first_500_kib(
    page_server: PageServer, encoding: str
) -> None:
    """RFC 9309 section 2.5: parse at least the first 500 KiB (one over the cap used to
    count as no rules at all)."""
    page_server.set_handler(
        "/robots.txt", long_robots("User-agent: *\nDisallow: /private/\n", encoding)
    )
    page_server.set_page("/private/doc", PAGE)
    page_server.set_page("/public/doc", PAGE)
    private, public = fetch(
        [page_server.url("/private/doc"), page_server.url("/public/doc")]
    ).values()
    assert (private.source_status, public.source_status) == ("refused", "ok")
    assert "blocked by robots.txt" in (private.error or "")
    assert page_server.hits("/private/doc") == 0


def test_a_robots_txt_is_cut_after_its_last_whole_line_within_500_kib(
    page_server: PageServer,
) -> None:
    """A rule the limit cuts in two is dropped: `Allow: /public/docs` cut to `Allow: /`
    would allow every page that `Disallow: /` forbids."""
    head = "User-agent: *\nDisallow: /\n"
    comment = "#" * (ROBOTS_LIMIT - len("Allow: /") - len(head) - 1) + "\n"
    assert len(head + comment + "Allow: /") == ROBOTS_LIMIT
    page_server.set_handler(
        "/robots.txt", long_robots(head + comment + "Allow: /public/docs\n", "")
    )
    page_server.set_page("/elsewhere", PAGE)
    result = fetch_one(page_server.url("/elsewhere"))
    assert result.source_status == "refused" and "blocked by robots.txt" in (result.error or "")
    assert page_server.hits("/elsewhere") == 0


def test_what_lies_past_500_kib_of_robots_txt_is_never_waited_for(page_server: PageServer) -> None:
    """20 MB promised, 600 KB sent, then nothing: the first 500 KiB are enough."""

    def stalls(exchange: Exchange) -> None:
        exchange.start(200, {"Content-Type": "text/plain", "Content-Length": str(20 * 1024**2)})
        exchange.write(("User-agent: *\nDisallow: /private/\n" + FILLER * 6_000).encode())
        exchange.pause(30)

    page_server.set_handler("/robots.txt", stalls)
    result = fetch_one(page_server.url("/private/doc"), replace(FAST, timeout=5))
    assert result.source_status == "refused" and "blocked by robots.txt" in (result.error or "")


def test_robots_txt_is_read_for_our_user_agent_only(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", robots("User-agent: otherbot\nDisallow: /\n"))
    page_server.set_page("/doc", PAGE)
    assert fetch_one(page_server.url("/doc")).source_status == "ok"


def test_a_robots_txt_the_server_cannot_serve_forbids_for_now(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", lambda ex: status(ex, 503))
    page_server.set_page("/doc", PAGE)
    result = fetch_one(page_server.url("/doc"))
    assert (result.source_status, result.http_status) == ("unreachable", 503)
    assert "robots.txt could not be read" in (result.error or "")
    assert page_server.hits("/doc") == 0
    assert page_server.hits("/robots.txt") == FAST.retries + 1  # asked again on each attempt


@pytest.mark.parametrize("content_type", ["application/octet-stream", "image/png", None])
def test_a_robots_txt_is_obeyed_whatever_its_content_type(
    page_server: PageServer, content_type: str | None
) -> None:
    """RFC 9309 names no Content-Type: one served as a download was read as no rules."""
    headers = {} if content_type is None else {"Content-Type": content_type}
    page_server.set_handler("/robots.txt", Page(b"User-agent: *\nDisallow: /doc\n", 200, headers))
    page_server.set_page("/doc", PAGE)
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "refused" and "blocked by robots.txt" in (result.error or "")
    assert page_server.hits("/doc") == 0


@pytest.mark.parametrize(
    ("body", "encoding", "why"),
    [
        (gzip.compress(b"User-agent: *\nDisallow: /\n" + b"#" * 500)[:-40], "gzip", "truncated"),
        (b"\x1b\x00User-agent: *", "br", "unsupported Content-Encoding: br"),
    ],
    ids=["broken-gzip", "brotli-not-offered"],
)
def test_a_robots_txt_that_cannot_be_decoded_forbids_for_now(
    page_server: PageServer, body: bytes, encoding: str, why: str
) -> None:
    """A broken body says nothing of what the site allows; it was read as no rules."""
    headers = {"Content-Type": "text/plain", "Content-Encoding": encoding}
    page_server.set_handler("/robots.txt", Page(body, 200, headers))
    page_server.set_page("/doc", PAGE)
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "unreadable"
    assert "robots.txt could not be read" in (result.error or "") and why in (result.error or "")
    assert page_server.hits("/doc") == 0


@pytest.mark.parametrize("location", [BAD_PUNYCODE, "ftp://127.0.0.1/robots.txt"])
def test_a_robots_txt_that_redirects_where_we_may_not_go_forbids_for_now(
    page_server: PageServer, location: str
) -> None:
    """A robots.txt sent where no request may follow (another scheme, a host that cannot
    be named, a private address, down to http) says nothing of what the site allows: it
    was read as no rules, and every page of the site fetched."""
    page_server.set_handler("/robots.txt", redirect(location, 302))
    page_server.set_page("/doc", PAGE)
    result = fetch_one(page_server.url("/doc"))
    assert result.source_status == "refused"
    assert "robots.txt could not be read (redirect" in (result.error or "")
    assert page_server.hits("/doc") == 0


@pytest.mark.parametrize(("hops", "status"), [(5, "refused"), (6, "ok")])
def test_a_robots_txt_is_followed_through_five_redirects(
    page_server: PageServer, hops: int, status: str
) -> None:
    """RFC 9309 asks a crawler to follow at least five: the fifth's rules were never read,
    and the site taken to have none."""
    page_server.set_handler("/robots.txt", redirect("/r1", 301))
    for hop in range(1, hops):
        page_server.set_handler(f"/r{hop}", redirect(f"/r{hop + 1}", 301))
    page_server.set_page(f"/r{hops}", "User-agent: *\nDisallow: /\n", content_type="text/plain")
    page_server.set_page("/doc", PAGE)
    assert fetch_one(page_server.url("/doc")).source_status == status


def test_a_robots_txt_in_a_loop_of_redirects_is_none(page_server: PageServer) -> None:
    """A loop, like more than five redirects, leaves the site without rules (RFC 9309)."""
    page_server.set_handler("/robots.txt", redirect("/robots.txt", 302))
    page_server.set_page("/doc", PAGE)
    assert fetch_one(page_server.url("/doc")).source_status == "ok"


def test_robots_can_be_ignored(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", robots("User-agent: *\nDisallow: /\n"))
    page_server.set_page("/doc", PAGE)
    result = fetch_one(page_server.url("/doc"), replace(FAST, respect_robots=False))
    assert result.source_status == "ok"
    assert page_server.hits("/robots.txt") == 0


def test_a_crawl_delay_widens_the_spacing_to_that_host(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", robots("User-agent: *\nCrawl-delay: 2\n"))
    gates: dict[str, float] = {}

    async def run() -> None:
        async with make_client(FAST, trust_env=False) as client:
            gate_keeper = pacing.Gates(FAST)
            keeper = Robots(client, replace(FAST, max_crawl_delay=1.5), gate_keeper)
            assert await keeper.refusal(page_server.url("/doc")) is None
            gates["interval"] = gate_keeper.host(page_server.url("/doc"))._interval

    asyncio.run(run())
    assert gates["interval"] == 1.5  # the site's 2 s, capped


class Memory:
    """robots.txt as earlier runs read it, by origin, each with the hour it was read; `now`
    moves the clock. Says what was asked of it and what it was told."""

    def __init__(self) -> None:
        self.kept: dict[str, tuple[str, float]] = {}
        self.now = 0.0  # in hours
        self.told: list[tuple[str, str]] = []

    def recall(self, origin: str, within: dt.timedelta) -> str | None:
        text, hour = self.kept.get(origin, ("", -1e9))
        return text if self.now - hour <= within / dt.timedelta(hours=1) else None

    def keep(self, origin: str, text: str) -> None:
        self.kept[origin] = (text, self.now)
        self.told.append((origin, text))


def fetch_remembering(urls: Iterable[str], memory: Memory) -> list[FetchResult]:
    async def run() -> list[FetchResult]:
        async with make_client(FAST, trust_env=False) as client:
            return [result async for result in fetch_each(urls, client, policy=FAST, robots=memory)]

    return asyncio.run(run())


def test_robots_txt_read_in_the_last_day_is_not_asked_again(page_server: PageServer) -> None:
    """RFC 9309 section 2.4: a copy serves a day. Its rules still hold: the page it
    disallows stays unrequested, and the site is asked again once the day is past."""
    page_server.set_handler("/robots.txt", robots("User-agent: *\nDisallow: /private/\n"))
    page_server.set_page("/doc", PAGE)
    page_server.set_page("/private/doc", PAGE)
    urls = [page_server.url("/doc"), page_server.url("/private/doc")]
    memory = Memory()
    first = fetch_remembering(urls, memory)
    assert memory.told == [
        (page_server.url("").rstrip("/"), "User-agent: *\nDisallow: /private/\n")
    ]
    memory.now = 23.9
    again = fetch_remembering(urls, memory)
    assert page_server.hits("/robots.txt") == 1
    for run in (first, again):
        assert sorted(result.source_status for result in run) == ["ok", "refused"]
    assert page_server.hits("/private/doc") == 0
    memory.now = 24.1
    fetch_remembering(urls, memory)
    assert page_server.hits("/robots.txt") == 2


def test_a_site_without_robots_txt_is_kept_as_one_without_rules(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", lambda ex: status(ex, 404))
    page_server.set_page("/doc", PAGE)
    memory = Memory()
    fetch_remembering([page_server.url("/doc")], memory)
    fetch_remembering([page_server.url("/doc")], memory)
    assert [text for _, text in memory.told] == [""]
    assert (page_server.hits("/robots.txt"), page_server.hits("/doc")) == (1, 2)


def test_a_robots_txt_the_server_cannot_serve_is_never_kept(page_server: PageServer) -> None:
    page_server.set_handler("/robots.txt", lambda ex: status(ex, 503))
    page_server.set_page("/doc", PAGE)
    memory = Memory()
    (first,) = fetch_remembering([page_server.url("/doc")], memory)
    fetch_remembering([page_server.url("/doc")], memory)
    assert first.source_status == "unreachable"
    assert memory.told == []
    assert page_server.hits("/robots.txt") == 2 * (FAST.retries + 1)
    assert page_server.hits("/doc") == 0


def test_a_kept_crawl_delay_still_spaces_the_requests(page_server: PageServer) -> None:
    page_server.set_page("/doc", PAGE)
    gates: dict[str, float] = {}
    memory = Memory()
    memory.kept[page_server.url("").rstrip("/")] = ("User-agent: *\nCrawl-delay: 2\n", 0.0)

    async def run() -> None:
        async with make_client(FAST, trust_env=False) as client:
            gate_keeper = pacing.Gates(FAST)
            keeper = Robots(client, replace(FAST, max_crawl_delay=1.5), gate_keeper, memory)
            assert await keeper.refusal(page_server.url("/doc")) is None
            gates["interval"] = gate_keeper.host(page_server.url("/doc"))._interval

    asyncio.run(run())
    assert gates["interval"] == 1.5
    assert page_server.hits("/robots.txt") == 0


# --- deadline and TLS -----------------------------------------------------------------------


def test_one_deadline_covers_every_attempt(page_server: PageServer) -> None:
    page_server.set_handler("/slow", stall_after_headers(4096, for_seconds=5))
    policy = replace(FAST, timeout=0.4, retries=10, deadline=1.0)
    result = fetch_one(page_server.url("/slow"), policy)
    assert result.source_status == "unreachable"
    assert (result.error or "").startswith("no answer within the 1 s deadline for this URL (")
    assert 1 <= page_server.hits("/slow") < policy.retries + 1


def test_a_tls_certificate_failure_is_not_retried() -> None:
    authority = trustme.CA()
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    authority.issue_cert("127.0.0.1").configure_cert(context)
    with PageServer(tls=context) as server:
        server.set_page("/doc", PAGE)
        result = fetch_one(server.url("/doc"), replace(FAST, retries=3))
    assert (result.source_status, result.attempts) == ("unreachable", 1)
    assert "TLS failed" in (result.error or "") and "not retried" in (result.error or "")


# --------------------------------------------------------------------------- private addresses

PUBLIC_ONLY = replace(FAST, allow_private=False)


def test_a_private_destination_is_refused_before_any_packet_is_sent(
    page_server: PageServer,
) -> None:
    page_server.set_page("/doc", "<p>Only on this machine.</p>")
    for url in (page_server.url("/doc"), page_server.url("/doc", host="localhost")):
        result = fetch_one(url, PUBLIC_ONLY)  # a literal loopback address, and a name for one
        assert result.source_status == "refused", url
        assert result.error is not None and "is a private or local address" in result.error
        assert "--allow-private" in result.error and result.text is None
    assert page_server.page_requests == []  # nothing reached the server: checked before connect


def test_a_redirect_to_a_private_address_is_refused_at_that_hop(page_server: PageServer) -> None:
    """The mirror the ledger allows may answer; where it sends the fetcher is checked anew."""
    page_server.set_handler("/start", redirect(page_server.url("/metadata", host="localhost")))
    page_server.set_page("/metadata", "<p>secret-credentials</p>")
    allowed = replace(PUBLIC_ONLY, private_origins=frozenset({origin(page_server.url("/"))}))
    result = fetch_one(page_server.url("/start"), allowed)
    assert result.source_status == "refused"
    assert result.error is not None and "localhost is a private or local address" in result.error
    assert [hop.url for hop in result.redirects] == [page_server.url("/start")]
    assert page_server.hits("/start") == 1 and page_server.hits("/metadata") == 0


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("93.184.215.14", True),
        ("2606:4700::1111", True),
        ("127.0.0.1", False),
        ("10.1.2.3", False),
        ("172.16.0.9", False),
        ("192.168.1.1", False),
        ("169.254.169.254", False),  # a cloud's metadata endpoint
        ("100.64.0.1", False),  # carrier-grade NAT
        ("0.0.0.0", False),
        ("224.0.0.1", False),
        ("::1", False),
        ("fd00::1", False),
        ("fe80::1", False),
        ("::ffff:127.0.0.1", False),  # loopback written as IPv6
        ("::ffff:8.8.8.8", True),
    ],
)
def test_which_addresses_are_public(address: str, public: bool) -> None:
    assert is_public(ipaddress.ip_address(address)) is public
