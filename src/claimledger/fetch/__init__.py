"""Fetch the ledger's source pages over HTTP: the only module that touches the network.

Every distinct ledger URL is fetched once per run and becomes one frozen
`FetchResult`. A failure is data, not an exception: a 404, a timeout, a redirect
to `file:` or a gzip bomb each end as a result whose `source_status` says what
happened to the *source*. Fetching never knows about quotes, so a failed fetch
can never be mistaken for evidence that a quote went missing.

What the fetcher guarantees, and why:

* Redirects are followed by hand, so every hop is recorded and a hop to
  another scheme (or from https down to http), a loop or an endless chain is
  refused instead of followed. An alias page whose head holds a meta refresh is
  a redirect too (static hosts move pages that way), under the same rules.
* Validators belong to one URL: a request carries only the ETag and
  Last-Modified stored for exactly the URL it asks for, so a 304 after a redirect
  can only mean "the page you already have *from this address* is unchanged".
* robots.txt is read once per origin and run, and a page it disallows for our
  user agent is not requested; its Crawl-delay spaces the requests to that host.
* One deadline per URL covers every hop, retry and wait; a TLS failure is not
  retried, since asking again cannot fix a certificate.
* Bodies are streamed and counted twice, raw and decompressed, so neither a
  huge page nor a small gzip bomb can exhaust memory.
* Retries back off exponentially with jitter and honour Retry-After, because
  documentation hosts rate-limit crawlers and we want to stay welcome.
* A global and a per-host limit, plus a gap between request starts to one
  host, keep a ledger with fifty pages on one docs site polite.
"""

from __future__ import annotations

import asyncio
import functools
import random
import ssl
import sys
import time
from collections.abc import AsyncGenerator, Callable, Iterable, Mapping
from dataclasses import dataclass, replace

# httpx loads its own command line (click, rich's progress bars, pygments) whenever those
# are installed, as they are beside claimledger: a fifth of its import, for a program we
# never run. A None in sys.modules makes that import fail, which httpx expects and allows.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]

import httpx
from protego import Protego

from claimledger.decoding import (
    MARKUP_TYPES,
    Inflater,
    charset_of,
    decode,
    is_readable,
    looks_binary,
    media_type_of,
)
from claimledger.destinations import private_destination
from claimledger.errors import PageUnreadable
from claimledger.pacing import Admission, Gates, retry_after_seconds
from claimledger.pagehead import head_links
from claimledger.records import (
    DEFAULT_POLICY,
    FetchPolicy,
    FetchResult,
    Hop,
    SourceStatus,
    Validators,
)
from claimledger.urls import (
    fetch_target,
    is_trivial_move,
    is_web_url,
    origin,
    permanently_moved_to,
    redact_urls,
    redirect_refusal,
    resolve,
    shown,
)

REDIRECTS = frozenset({301, 302, 303, 307, 308})

ValidatorLookup = Callable[[str, str], "Validators | None"]
"""`(url, start)`: the validators stored for exactly `url`, about to be requested on the way
from `start` (the chain's first URL, which says who will read the answer), if any."""

Client = httpx.AsyncClient
"""The HTTP client `fetch_all` expects (built by `make_client`)."""


# --- Client and limits --------------------------------------------------------------------


_RAW_LOCATION = "X-Claimledger-Location"


async def _set_location_aside(response: httpx.Response) -> None:
    """Hide Location from httpx, which parses it even when not following redirects.

    A hostile value such as `javascript:alert(1)` makes httpx raise before the
    response reaches us, so the redirect could not be recorded and refused as data.
    """
    location = response.headers.get("location")
    if location is not None:
        del response.headers["location"]
        response.headers[_RAW_LOCATION] = location


def make_client(
    policy: FetchPolicy = DEFAULT_POLICY, *, trust_env: bool = True
) -> httpx.AsyncClient:
    """Build the client `fetch_all` expects: no automatic redirects, our User-Agent.

    Only gzip and deflate are offered because the fetcher decodes bodies itself, so
    it can count decompressed bytes as they are produced. Pass `trust_env=False` to
    ignore proxy variables and netrc (tests do).
    """
    connections = max(policy.concurrency, 1)
    return httpx.AsyncClient(
        follow_redirects=False,
        timeout=httpx.Timeout(policy.timeout),
        limits=httpx.Limits(max_connections=connections, max_keepalive_connections=connections),
        headers={
            "User-Agent": policy.user_agent,
            "Accept": "text/html, application/xhtml+xml, text/plain;q=0.9, */*;q=0.5",
            **dict(policy.headers),
            "Accept-Encoding": "gzip, deflate",
        },
        trust_env=trust_env,
        verify=_tls_context(trust_env),
        event_hooks={"response": [_set_location_aside]},
    )


@functools.cache
def _tls_context(trust_env: bool) -> ssl.SSLContext:
    """One for every client of a run (the refresh, the archive's): each new one would read
    the whole CA bundle again."""
    return httpx.create_ssl_context(trust_env=trust_env)


# --- One response -------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    """What one request (or one whole attempt) ended with, before retries are decided."""

    http_status: int | None
    source_status: SourceStatus
    error: str | None = None
    text: str | None = None
    content_type: str | None = None
    etag: str | None = None
    last_modified: str | None = None
    not_modified: bool = False
    retryable: bool = False
    retry_after: float | None = None
    body: bytes | None = None
    content_location: str | None = None


@dataclass(frozen=True)
class _Redirect:
    status: int
    location: str


def _status_line(response: httpx.Response) -> str:
    return f"HTTP {response.status_code} {response.reason_phrase}".strip()


_DRAIN_LIMIT = 64 * 1024


async def _drain(response: httpx.Response) -> None:
    """Read a small non-page body to its end, so the connection can serve the next request
    (a 304 or a redirect left unread closes it); give up quietly on a large or broken one."""
    received = 0
    try:
        async for chunk in response.aiter_raw():
            received += len(chunk)
            if received > _DRAIN_LIMIT:
                return
    except httpx.TransportError:
        return


async def _read_response(response: httpx.Response, policy: FetchPolicy) -> _Outcome | _Redirect:
    """Classify one response by its status, reading the body only when it is the page."""
    status = response.status_code
    headers = response.headers
    if not 200 <= status < 300:
        await _drain(response)
    if status in REDIRECTS:
        location = headers.get(_RAW_LOCATION) or headers.get("location")
        if location:
            return _Redirect(status, location)
        return _Outcome(status, "unreadable", f"{_status_line(response)} without a Location")
    if status == 304:
        return _Outcome(
            status,
            "ok",
            etag=headers.get("etag"),
            last_modified=headers.get("last-modified"),
            not_modified=True,
        )
    if status in (404, 410):
        return _Outcome(status, "gone", _status_line(response))
    if status in (401, 403):
        return _Outcome(status, "refused", _status_line(response))
    if status == 429 or status == 408 or status >= 500:
        return _Outcome(
            status,
            "refused" if status == 429 else "unreachable",
            _status_line(response),
            retryable=True,
            retry_after=retry_after_seconds(headers.get("retry-after")),
        )
    if 400 <= status < 500:
        return _Outcome(status, "refused", _status_line(response))
    if not 200 <= status < 300:
        return _Outcome(status, "unreadable", f"unexpected {_status_line(response)}")
    return await _read_page(response, policy)


async def _read_page(response: httpx.Response, policy: FetchPolicy) -> _Outcome:
    status = response.status_code
    raw_type = response.headers.get("content-type")
    media_type = media_type_of(raw_type)
    page = _Outcome(
        status,
        "ok",
        content_type=raw_type,
        etag=response.headers.get("etag"),
        last_modified=response.headers.get("last-modified"),
        content_location=response.headers.get("content-location"),
    )
    try:
        if media_type is not None and not is_readable(media_type) and not policy.raw:
            raise PageUnreadable(f"content type {media_type} is not text we can read")
        body = await _read_body(response, policy)
        if policy.raw:
            return replace(page, body=body)
        if media_type is None and looks_binary(body):
            raise PageUnreadable("binary body without a Content-Type")
        text = decode(body, media_type, charset_of(raw_type))
    except PageUnreadable as unreadable:
        return replace(page, source_status="unreadable", error=str(unreadable))
    return replace(page, text=text)


# --- Bodies -------------------------------------------------------------------------------


async def _read_body(response: httpx.Response, policy: FetchPolicy) -> bytes:
    """The decoded body, refusing a page over the raw or the decompressed cap."""
    too_large = f"body larger than {policy.max_body} bytes"
    declared = response.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > policy.max_body:
        raise PageUnreadable(f"{too_large} (Content-Length {int(declared)})")
    encoding = response.headers.get("content-encoding", "").strip().lower()
    inflater = Inflater(encoding, policy.max_decompressed)
    body = bytearray()
    received = 0
    async for chunk in response.aiter_raw():
        received += len(chunk)
        if received > policy.max_body:
            raise PageUnreadable(too_large)
        body += inflater.feed(chunk)
    body += inflater.finish()
    return bytes(body)


# --- robots.txt ---------------------------------------------------------------------------


class _Robots:
    """robots.txt of each origin, read once per run and shared by every URL on it.

    RFC 9309: a robots.txt that does not exist (4xx) allows everything; one the server
    cannot serve (5xx, 429, no connection) allows nothing for now, since its rules are
    unknown: the page is then reported as the robots.txt request failed (unreachable,
    refused), and asked again on the next attempt. A Crawl-delay spaces the requests to
    that host (up to a cap).
    """

    def __init__(self, client: httpx.AsyncClient, policy: FetchPolicy, gates: Gates) -> None:
        self._client = client
        self._policy = policy
        self._gates = gates
        self._rules: dict[str, asyncio.Task[Protego | _Outcome]] = {}

    @property
    def tasks(self) -> list[asyncio.Task[Protego | _Outcome]]:
        return list(self._rules.values())

    def cancel(self) -> None:
        for task in self._rules.values():
            task.cancel()

    async def refusal(self, url: str) -> _Outcome | None:
        """Why `url` may not be fetched (as an outcome to report), or None when it may."""
        if not self._policy.respect_robots:
            return None
        site = origin(url)
        if site not in self._rules:
            self._rules[site] = asyncio.create_task(self._load(site))
        rules = await asyncio.shield(self._rules[site])
        if isinstance(rules, _Outcome):
            if rules.retryable:
                self._rules.pop(site, None)  # the next attempt asks again
            return rules
        if not rules.can_fetch(url, self._policy.user_agent):
            why = f"blocked by robots.txt ({site}/robots.txt disallows it for our user agent)"
            return _Outcome(None, "refused", why)
        return None

    async def _load(self, origin: str) -> Protego | _Outcome:
        url, seen = f"{origin}/robots.txt", set()
        small = replace(self._policy, max_body=self._policy.max_robots_body, raw=False)
        for _ in range(5):
            seen.add(url)
            async with self._gates.slot(url):
                step = await _request(url, self._client, {}, small)
            if isinstance(step, _Redirect):
                target = resolve(url, step.location)
                if redirect_refusal(url, target, seen, 0, 5) is not None:
                    break  # nowhere we may go: as if there were none
                url = target
                continue
            return self._rules_from(origin, step)
        return Protego.parse("")

    def _rules_from(self, origin: str, outcome: _Outcome) -> Protego | _Outcome:
        status = outcome.http_status
        if outcome.text is not None:
            rules = Protego.parse(outcome.text)
            delay = rules.crawl_delay(self._policy.user_agent)
            if delay:
                self._gates.host(origin).space_at_least(min(delay, self._policy.max_crawl_delay))
            return rules
        if status is None or status == 429 or status >= 500:
            error = f"{origin}/robots.txt could not be read ({outcome.error}): nothing may be"
            return replace(outcome, error=error)
        return Protego.parse("")  # 4xx, or a body we cannot read: no rules


# --- Attempts and retries -----------------------------------------------------------------


@dataclass(frozen=True)
class _Walk:
    """One attempt: the redirect chain walked, where it ended, and what was sent there."""

    outcome: _Outcome
    final_url: str
    hops: tuple[Hop, ...]
    sent: Validators | None = None
    canonical: str | None = None


def _one_line(error: BaseException) -> str:
    text = " ".join(str(error).split())
    return text or type(error).__name__


def _tls_failure(error: BaseException) -> ssl.SSLError | None:
    """The TLS error behind a transport error, if that is what it was."""
    seen: set[int] = set()
    cause: BaseException | None = error
    while cause is not None and id(cause) not in seen:
        if isinstance(cause, ssl.SSLError):
            return cause
        seen.add(id(cause))
        cause = cause.__cause__ or cause.__context__
    return None


async def _request(
    url: str, client: httpx.AsyncClient, headers: Mapping[str, str], policy: FetchPolicy
) -> _Outcome | _Redirect:
    """One GET, turning transport failures into outcomes (retryable where that can help)."""
    try:
        async with asyncio.timeout(policy.timeout):
            private = await private_destination(url, policy)
            if private is not None:
                return _Outcome(None, "refused", private)
            async with client.stream("GET", url, headers=headers) as response:
                return await _read_response(response, policy)
    except (TimeoutError, httpx.TimeoutException):
        return _Outcome(
            None, "unreachable", f"timed out after {policy.timeout:g} s", retryable=True
        )
    except (httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError) as exc:
        tls = _tls_failure(exc)
        if tls is not None:
            reason = getattr(tls, "verify_message", None) or tls.reason or _one_line(tls)
            return _Outcome(None, "unreachable", f"TLS failed: {reason} (not retried)")
        return _Outcome(None, "unreachable", f"connection failed: {_one_line(exc)}", retryable=True)
    except (httpx.UnsupportedProtocol, httpx.LocalProtocolError, httpx.InvalidURL) as exc:
        return _Outcome(None, "refused", f"cannot request {shown(url)}: {_one_line(exc)}")


def _client_redirect(
    outcome: _Outcome, url: str, policy: FetchPolicy
) -> tuple[str | None, str | None]:
    """Where an HTML page's head sends the reader at once (a meta refresh), and its canonical
    address when that is another page; both resolved against `url`."""
    if outcome.text is None or not _is_markup(outcome.content_type):
        return None, None
    head = head_links(outcome.text)
    refresh = None
    delay = head.refresh_delay
    if head.refresh and delay is not None and delay <= policy.max_refresh_delay:
        target = resolve(url, head.refresh)
        refresh = target if target != url else None
    canonical = resolve(url, head.canonical) if head.canonical else None
    if canonical is not None and (canonical == url or is_trivial_move(url, canonical)):
        canonical = None
    return refresh, canonical


def _is_markup(content_type: str | None) -> bool:
    return media_type_of(content_type) in MARKUP_TYPES


async def _walk(
    target: str,
    client: httpx.AsyncClient,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: _Robots,
    tally: _Tally,
) -> _Walk:
    """Follow the redirect chain from `target` by hand, one gated request per hop.

    Each request carries the validators stored for exactly its own URL, never those of
    the URL a redirect came from.
    """
    url = target
    seen = {url}
    hops: list[Hop] = []
    while True:
        refusal = await robots.refusal(url)
        if refusal is not None:
            return _Walk(refusal, url, tuple(hops))
        sent = lookup(url, target) if lookup is not None else None
        async with gates.slot(url, stopping=tally.deadline):
            step = await _request(url, client, _conditional_headers(sent), policy)
        if isinstance(step, _Outcome):
            refresh, canonical = _client_redirect(step, url, policy)
            if refresh is None:
                return _Walk(step, url, tuple(hops), sent, canonical)
            hops.append(Hop(url, step.http_status or 200, "meta-refresh"))
            next_url = refresh
        else:
            hops.append(Hop(url, step.status))
            next_url = resolve(url, step.location)
            if not policy.follow_redirects:  # the redirect is the answer
                return _Walk(_Outcome(step.status, "ok"), next_url, tuple(hops))
        problem = redirect_refusal(url, next_url, seen, len(hops), policy.max_redirects)
        if problem is not None:
            status = hops[-1].status
            return _Walk(_Outcome(status, "refused", problem), url, tuple(hops))
        seen.add(next_url)
        url = next_url


def _backoff(attempt: int, policy: FetchPolicy) -> float:
    """Exponential backoff with jitter, so retries from many runs do not arrive in step."""
    return float(policy.backoff_base * 2 ** (attempt - 1) * random.uniform(0.5, 1.0))


@dataclass
class _Tally:
    """How far the attempts at one URL got; read when the `deadline` cuts them short."""

    attempts: int = 0
    last: _Walk | None = None
    deadline: asyncio.Timeout | None = None


async def _attempts(
    target: str,
    client: httpx.AsyncClient,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: _Robots,
    tally: _Tally,
) -> _Walk:
    """Walk the chain, retrying transient failures; return the last walk."""
    while True:
        tally.attempts += 1
        walk = tally.last = await _walk(target, client, lookup, policy, gates, robots, tally)
        outcome = walk.outcome
        if not outcome.retryable:
            return walk
        wait = outcome.retry_after
        if wait is not None and wait > policy.retry_after_cap:
            error = (
                f"{outcome.error}; Retry-After asks for {wait:.0f} s, "
                f"more than the {policy.retry_after_cap:g} s cap"
            )
            return replace(walk, outcome=replace(outcome, error=error))
        if tally.attempts > policy.retries:
            tries = f"{tally.attempts} attempts" if tally.attempts > 1 else "1 attempt"
            error = f"{outcome.error}; gave up after {tries}"
            return replace(walk, outcome=replace(outcome, error=error))
        await asyncio.sleep(wait if wait is not None else _backoff(tally.attempts, policy))


def _past_deadline(target: str, tally: _Tally, policy: FetchPolicy) -> _Walk:
    tries = "1 attempt" if tally.attempts == 1 else f"{tally.attempts} attempts"
    error = f"no answer within the {policy.deadline:g} s deadline for this URL ({tries})"
    last = tally.last
    hops = last.hops if last is not None else ()
    return _Walk(_Outcome(None, "unreachable", error), target, hops)


def _result(
    url: str, walk: _Walk, attempts: int, elapsed: float, line_range: tuple[int, int] | None
) -> FetchResult:
    outcome = walk.outcome
    moved_to = permanently_moved_to(fetch_target(url)[0], walk.hops, walk.final_url)
    status: SourceStatus = outcome.source_status
    if status == "ok" and moved_to is not None:
        status = "moved"
    return FetchResult(
        url=url,
        final_url=walk.final_url,
        http_status=outcome.http_status,
        source_status=status,
        redirects=walk.hops,
        moved_to=moved_to,
        etag=outcome.etag,
        last_modified=outcome.last_modified,
        content_type=outcome.content_type,
        text=outcome.text,
        not_modified=outcome.not_modified,
        error=None if outcome.error is None else redact_urls(outcome.error),  # shown everywhere
        attempts=attempts,
        elapsed=elapsed,
        line_range=line_range,
        canonical=walk.canonical,
        conditional=walk.sent,
        body=outcome.body,
        content_location=outcome.content_location,
    )


def _conditional_headers(sent: Validators | None) -> dict[str, str]:
    if sent is None:
        return {}
    headers: dict[str, str] = {}
    if sent.etag:
        headers["If-None-Match"] = sent.etag
    if sent.last_modified:
        headers["If-Modified-Since"] = sent.last_modified
    return headers


def _keep_validators(walk: _Walk) -> _Walk:
    """A 304 need not repeat the validators; keep the ones we sent so the next run can
    ask again instead of downloading the page in full."""
    outcome, sent = walk.outcome, walk.sent
    if not outcome.not_modified or sent is None:
        return walk
    kept = replace(
        outcome,
        etag=outcome.etag or sent.etag,
        last_modified=outcome.last_modified or sent.last_modified,
    )
    return replace(walk, outcome=kept)


async def _fetch_group(
    target: str,
    urls: list[str],
    client: httpx.AsyncClient,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: _Robots,
) -> list[FetchResult]:
    """Fetch one target once, within its deadline, and answer for every ledger URL that
    maps to it."""
    started = time.monotonic()
    tally = _Tally()
    if is_web_url(target):
        try:
            async with asyncio.timeout(policy.deadline) as tally.deadline:
                walk = await _attempts(target, client, lookup, policy, gates, robots, tally)
        except TimeoutError:
            walk = _past_deadline(target, tally, policy)
        walk = _keep_validators(walk)
    else:
        walk = _Walk(_Outcome(None, "refused", f"not an http(s) URL: {target}"), target, ())
    elapsed = time.monotonic() - started
    return [_result(url, walk, tally.attempts, elapsed, fetch_target(url)[1]) for url in urls]


class Manners:
    """Gates and robots.txt rules shared by the `fetch_each` calls of one task (a page's
    recovery: sitemaps, then candidates): robots.txt read once, each host paced across all."""

    def __init__(self, client: httpx.AsyncClient, policy: FetchPolicy) -> None:
        self.gates = Gates(policy)
        self.robots = _Robots(client, policy, self.gates)

    async def close(self) -> None:
        self.robots.cancel()
        await asyncio.gather(*self.robots.tasks, return_exceptions=True)


async def fetch_each(
    urls: Iterable[str],
    client: httpx.AsyncClient,
    *,
    validators: ValidatorLookup | None = None,
    policy: FetchPolicy = DEFAULT_POLICY,
    manners: Manners | None = None,
) -> AsyncGenerator[FetchResult, None]:
    """Fetch every distinct URL once, concurrently, yielding each result as it arrives.

    URLs that differ only in their fragment share one request. `validators` gives the
    ETag / Last-Modified stored for a URL about to be requested (the start of a chain or
    any hop of it); `manners` shares gates and robots.txt with other calls. A failing URL
    never raises; an exception here is a bug, and closing the iterator early cancels the
    fetches still under way.

    A URL begins only when there is room (`Admission`): twice the requests in flight, in
    all and per host, begun and not yet read by the caller. So a long ledger holds a
    window of pages in memory, never all of them.
    """
    groups: dict[str, list[str]] = {}
    for url in dict.fromkeys(urls):
        groups.setdefault(fetch_target(url)[0], []).append(url)
    own = manners or Manners(client, policy)
    gates, robots = own.gates, own.robots
    admission = Admission(groups, ahead=2 * policy.concurrency, per_host_ahead=2 * policy.per_host)
    running: dict[asyncio.Task[list[FetchResult]], str] = {}

    def begin() -> None:
        for target in admission.begin():
            group = _fetch_group(target, groups[target], client, validators, policy, gates, robots)
            running[asyncio.create_task(group)] = target

    try:
        begin()
        while running:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                target = running.pop(task)
                for result in task.result():
                    yield result
                admission.read(target)
                begin()
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        if manners is None:
            await own.close()


async def fetch_all(
    urls: Iterable[str],
    client: httpx.AsyncClient,
    *,
    validators: ValidatorLookup | None = None,
    policy: FetchPolicy = DEFAULT_POLICY,
    on_result: Callable[[FetchResult], None] | None = None,
) -> dict[str, FetchResult]:
    """Every result of `fetch_each`, one per URL in input order; `on_result` sees each as it
    arrives (an exception from it propagates and cancels the rest)."""
    wanted = list(dict.fromkeys(urls))
    arrived: dict[str, FetchResult] = {}
    async for result in fetch_each(wanted, client, validators=validators, policy=policy):
        arrived[result.url] = result
        if on_result is not None:
            on_result(result)
    return {url: arrived[url] for url in wanted}
