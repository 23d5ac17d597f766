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
import codecs
import random
import re
import ssl
import time
import zlib
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime
from typing import Literal
from urllib.parse import SplitResult, urljoin, urlsplit

import charset_normalizer
import httpx
from protego import Protego

from claimledger import __version__
from claimledger.extract import head_links
from claimledger.urls import is_trivial_move, is_web_url, shown

SourceStatus = Literal["ok", "moved", "gone", "unreachable", "refused", "unreadable"]

HTTP_SCHEMES = frozenset({"http", "https"})
PERMANENT_REDIRECTS = frozenset({301, 308})
REDIRECTS = frozenset({301, 302, 303, 307, 308})
READABLE_TYPES = frozenset(
    {
        "text/html",
        "application/xhtml+xml",
        "text/plain",
        "text/markdown",
        "application/json",
        "application/javascript",
        "text/javascript",
    }
)
MARKUP_TYPES = frozenset({"text/html", "application/xhtml+xml"})


@dataclass(frozen=True)
class Validators:
    """What the last snapshot's response said, so the next request can be conditional."""

    etag: str | None
    last_modified: str | None


HopVia = Literal["http", "meta-refresh"]


@dataclass(frozen=True)
class Hop:
    """One redirect on the way to the page: where we were, what it answered, and how it sent
    us on (an HTTP redirect, or a meta refresh in an alias page's head)."""

    url: str
    status: int
    via: HopVia = "http"


ValidatorLookup = Callable[[str, str], "Validators | None"]
"""`(url, start)`: the validators stored for exactly `url`, about to be requested on the way
from `start` (the chain's first URL, which says who will read the answer), if any."""


@dataclass(frozen=True)
class FetchPolicy:
    """Limits and manners of a run; the defaults suit public documentation sites.

    `deadline` bounds one URL whole (its redirects, retries and waits); `timeout` one
    request. A meta refresh of at most `max_refresh_delay` seconds is followed as a
    redirect; a longer one belongs to a page meant to be read first.
    """

    concurrency: int = 16
    per_host: int = 4
    per_host_interval: float = 0.05
    timeout: float = 20.0
    retries: int = 3
    backoff_base: float = 0.5
    retry_after_cap: float = 30.0
    max_body: int = 10 * 1024 * 1024
    max_decompressed: int = 32 * 1024 * 1024
    max_redirects: int = 10
    deadline: float = 30.0
    user_agent: str = f"claimledger/{__version__} (+https://github.com/claimledger/claimledger)"
    headers: tuple[tuple[str, str], ...] = ()
    respect_robots: bool = True
    max_robots_body: int = 512 * 1024
    max_crawl_delay: float = 10.0
    max_refresh_delay: float = 5.0


DEFAULT_POLICY = FetchPolicy()


@dataclass(frozen=True)
class FetchResult:
    """Everything a run learned about one ledger URL; `text` is None unless the body was read.

    `canonical` is the page's `<link rel="canonical">` when it names another address
    (shown, never followed); `conditional` the validators sent to `final_url`, so a
    304 reuses exactly the snapshot they came with.
    """

    url: str
    final_url: str
    http_status: int | None
    source_status: SourceStatus
    redirects: tuple[Hop, ...]
    moved_to: str | None
    etag: str | None
    last_modified: str | None
    content_type: str | None
    text: str | None
    not_modified: bool
    error: str | None
    attempts: int
    elapsed: float
    line_range: tuple[int, int] | None
    canonical: str | None = None
    conditional: Validators | None = None


# --- URLs ---------------------------------------------------------------------------------

_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_GITHUB_BLOB = re.compile(r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)/blob/(?P<rest>.+)$")
_LINE_ANCHOR = re.compile(r"^L(?P<first>\d+)(?:-L?(?P<last>\d+))?$")


def fetch_target(url: str) -> tuple[str, tuple[int, int] | None]:
    """Map a ledger URL to the URL to request, and the line range its anchor names.

    A GitHub `blob/` page is an HTML viewer around the file; its raw form is the file
    itself, which is what a quote from source code was taken from. A `#L10-L40` (or
    `#L10`) anchor names the lines a quote lives in, on any host; other fragments are
    dropped because servers never see them.
    """
    base, _, fragment = url.partition("#")
    line_range = _line_range(fragment)
    parts = _split(base)
    if parts is None:
        return base, line_range
    blob = _GITHUB_BLOB.match(parts.path)
    if parts.scheme in HTTP_SCHEMES and (parts.hostname or "") in _GITHUB_HOSTS and blob:
        raw = f"https://raw.githubusercontent.com/{blob['owner']}/{blob['repo']}/{blob['rest']}"
        return raw, line_range
    return base, line_range


def _line_range(fragment: str) -> tuple[int, int] | None:
    anchor = _LINE_ANCHOR.match(fragment)
    if anchor is None:
        return None
    first = int(anchor["first"])
    last = int(anchor["last"] or first)
    if min(first, last) < 1:
        return None
    return min(first, last), max(first, last)


def _split(url: str) -> SplitResult | None:
    """urlsplit, or None for a URL it cannot parse (such as an unclosed `[` IPv6 host)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- parsing the port is what validates it
    except ValueError:
        return None
    return parts


def _resolve(url: str, location: str) -> str:
    """The absolute URL a Location header points to (left as is if it cannot be joined)."""
    try:
        return urljoin(url, location).partition("#")[0]
    except ValueError:
        return location


def _redirect_problem(
    current: str, target: str, seen: set[str], hops: int, limit: int
) -> str | None:
    """Why a redirect from `current` to `target` must not be followed, or None if it may."""
    parts = _split(target)
    if parts is None or parts.scheme not in HTTP_SCHEMES:
        return f"redirect to a non-http(s) URL refused: {target}"
    if not parts.hostname:
        return f"redirect to a URL without a host refused: {target}"
    scheme = parts.scheme
    if current.startswith("https:") and scheme == "http":
        return f"redirect from https down to http refused: {target}"
    if target in seen:
        return f"redirect loop: {target} was already visited"
    if hops > limit:
        return f"more than {limit} redirects"
    return None


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
        event_hooks={"response": [_set_location_aside]},
    )


class _HostGate:
    """At most `per_host` requests to one host at once, starts spaced by `interval`."""

    def __init__(self, per_host: int, interval: float) -> None:
        self._slots = asyncio.Semaphore(max(per_host, 1))
        self._spacing = asyncio.Lock()
        self._interval = interval
        self._next_start = 0.0

    def space_at_least(self, interval: float) -> None:
        """Widen the gap between starts (a robots.txt Crawl-delay), never narrow it."""
        self._interval = max(self._interval, interval)

    @asynccontextmanager
    async def slot(self) -> AsyncIterator[None]:
        async with self._slots:
            async with self._spacing:
                loop = asyncio.get_running_loop()
                wait = self._next_start - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                self._next_start = loop.time() + self._interval
            yield


class _Gates:
    """The global limit and one `_HostGate` per host name.

    The host slot is taken before the global one, so requests queued behind a busy
    host never sit on global slots that other hosts could use.
    """

    def __init__(self, policy: FetchPolicy) -> None:
        self._global = asyncio.Semaphore(max(policy.concurrency, 1))
        self._hosts: dict[str, _HostGate] = {}
        self._policy = policy

    def host(self, url: str) -> _HostGate:
        parts = _split(url)
        host = (parts.hostname or "") if parts is not None else ""
        gate = self._hosts.get(host)
        if gate is None:
            gate = self._hosts[host] = _HostGate(
                self._policy.per_host, self._policy.per_host_interval
            )
        return gate

    @asynccontextmanager
    async def slot(self, url: str) -> AsyncIterator[None]:
        async with self.host(url).slot(), self._global:
            yield


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


@dataclass(frozen=True)
class _Redirect:
    status: int
    location: str


class _Unreadable(Exception):
    """The body cannot be turned into text; the message says why (internal only)."""


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
            retry_after=_retry_after(headers.get("retry-after")),
        )
    if 400 <= status < 500:
        return _Outcome(status, "refused", _status_line(response))
    if not 200 <= status < 300:
        return _Outcome(status, "unreadable", f"unexpected {_status_line(response)}")
    return await _read_page(response, policy)


async def _read_page(response: httpx.Response, policy: FetchPolicy) -> _Outcome:
    status = response.status_code
    raw_type = response.headers.get("content-type")
    media_type = _media_type(raw_type)
    page = _Outcome(
        status,
        "ok",
        content_type=raw_type,
        etag=response.headers.get("etag"),
        last_modified=response.headers.get("last-modified"),
    )
    try:
        if media_type is not None and not _is_readable(media_type):
            raise _Unreadable(f"content type {media_type} is not text we can read")
        body = await _read_body(response, policy)
        if media_type is None and _looks_binary(body):
            raise _Unreadable("binary body without a Content-Type")
        text = _decode(body, media_type, _charset_param(raw_type))
    except _Unreadable as unreadable:
        return replace(page, source_status="unreadable", error=str(unreadable))
    return replace(page, text=text)


def _retry_after(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or an HTTP date)."""
    if value is None:
        return None
    value = value.strip()
    try:
        return max(float(value), 0.0)
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)


# --- Bodies -------------------------------------------------------------------------------


def _media_type(content_type: str | None) -> str | None:
    if content_type is None:
        return None
    media = content_type.split(";", 1)[0].strip().lower()
    return media or None


def _charset_param(content_type: str | None) -> str | None:
    if content_type is None:
        return None
    found = re.search(r";\s*charset\s*=\s*[\"']?([^\"';\s]+)", content_type, re.IGNORECASE)
    return found[1] if found else None


def _is_readable(media_type: str) -> bool:
    return media_type in READABLE_TYPES or media_type.startswith("text/x-")


_BINARY_SIGNATURES = (b"%PDF-", b"\x89PNG", b"GIF8", b"\xff\xd8\xff", b"PK\x03\x04", b"\x1f\x8b")


def _looks_binary(body: bytes) -> bool:
    head = body[:4096]
    return head.startswith(_BINARY_SIGNATURES) or b"\x00" in head


class _Inflater:
    """Undo a Content-Encoding while counting output, so a bomb stops at the cap.

    zlib's `max_length` bounds every step, so no more than `cap + 1` decoded bytes
    ever exist at once, however well the input compresses.
    """

    def __init__(self, encoding: str, cap: int) -> None:
        self._encoding = encoding
        self._cap = cap
        self._produced = 0
        self._sniffed = False
        self._zlib: zlib._Decompress | None = None
        if encoding in ("gzip", "x-gzip"):
            self._zlib = zlib.decompressobj(16 + zlib.MAX_WBITS)
        elif encoding == "deflate":
            self._zlib = zlib.decompressobj()
        elif encoding not in ("", "identity"):
            raise _Unreadable(f"unsupported Content-Encoding: {encoding}")

    def feed(self, data: bytes) -> bytes:
        if self._zlib is None:
            return self._count(data)
        if self._encoding == "deflate" and not self._sniffed:
            self._sniff_raw_deflate(data)
        out = bytearray()
        while data:
            try:
                out += self._count(self._zlib.decompress(data, self._cap - self._produced + 1))
            except zlib.error as exc:
                raise _Unreadable(f"corrupt {self._encoding} body: {exc}") from None
            data = self._zlib.unconsumed_tail
        return bytes(out)

    def finish(self) -> bytes:
        if self._zlib is None:
            return b""
        tail = self._count(self._zlib.flush())
        if not self._zlib.eof:
            raise _Unreadable(f"truncated {self._encoding} body")
        return tail

    def _sniff_raw_deflate(self, first: bytes) -> None:
        """Some servers send bare deflate without the zlib header that `deflate` implies."""
        self._sniffed = True
        try:
            zlib.decompressobj().decompress(first, 1)
        except zlib.error:
            self._zlib = zlib.decompressobj(-zlib.MAX_WBITS)

    def _count(self, chunk: bytes) -> bytes:
        self._produced += len(chunk)
        if self._produced > self._cap:
            raise _Unreadable(f"decompressed body larger than {self._cap} bytes")
        return chunk


async def _read_body(response: httpx.Response, policy: FetchPolicy) -> bytes:
    """The decoded body, refusing a page over the raw or the decompressed cap."""
    too_large = f"body larger than {policy.max_body} bytes"
    declared = response.headers.get("content-length", "")
    if declared.strip().isdigit() and int(declared) > policy.max_body:
        raise _Unreadable(f"{too_large} (Content-Length {int(declared)})")
    encoding = response.headers.get("content-encoding", "").strip().lower()
    inflater = _Inflater(encoding, policy.max_decompressed)
    body = bytearray()
    received = 0
    async for chunk in response.aiter_raw():
        received += len(chunk)
        if received > policy.max_body:
            raise _Unreadable(too_large)
        body += inflater.feed(chunk)
    body += inflater.finish()
    return bytes(body)


# Labels browsers read differently from Python's codec of the same name (WHATWG Encoding).
_CHARSET_ALIASES = {
    "iso-8859-1": "cp1252",
    "iso8859-1": "cp1252",
    "latin1": "cp1252",
    "latin-1": "cp1252",
    "l1": "cp1252",
    "us-ascii": "cp1252",
    "ascii": "cp1252",
    "shift_jis": "cp932",
    "shift-jis": "cp932",
    "sjis": "cp932",
    "x-sjis": "cp932",
    "ms_kanji": "cp932",
    "windows-31j": "cp932",
    "gb2312": "gb18030",
    "gbk": "gb18030",
}
_META_CHARSET = re.compile(
    rb"<meta\s[^>]*?charset\s*=\s*[\"']?\s*([A-Za-z0-9_.:-]+)", re.IGNORECASE
)
_XML_ENCODING = re.compile(rb"^<\?xml[^>]*encoding\s*=\s*[\"']([A-Za-z0-9_.:-]+)", re.IGNORECASE)
_BOMS = (
    (codecs.BOM_UTF8, "utf-8-sig"),
    (codecs.BOM_UTF16_LE, "utf-16"),
    (codecs.BOM_UTF16_BE, "utf-16"),
)


def _codec(label: str | bytes | None) -> str | None:
    if label is None:
        return None
    if isinstance(label, bytes):
        label = label.decode("ascii", "replace")
    name = label.strip().strip("\"'").lower()
    try:
        return codecs.lookup(_CHARSET_ALIASES.get(name, name)).name
    except LookupError:
        return None


def _declared_in_markup(body: bytes) -> str | None:
    head = body[:4096]
    found = _XML_ENCODING.match(head) or _META_CHARSET.search(head)
    return _codec(found[1]) if found else None


def _decode(body: bytes, media_type: str | None, header_charset: str | None) -> str:
    """Decode as a browser would: BOM, then header, then the page's own meta, then detection."""
    for bom, codec in _BOMS:
        if body.startswith(bom):
            return body.decode(codec, errors="replace")
    declared = _codec(header_charset)
    if declared is None and (media_type is None or media_type in MARKUP_TYPES):
        declared = _declared_in_markup(body)
    if declared is not None:
        return body.decode(declared, errors="replace")
    try:
        return body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    return _detect(body)


# Single-byte Latin code pages: on a short page, detection picks among these almost at
# random (they differ only in accented letters), so we read them as windows-1252,
# which is also what browsers assume for an undeclared Western page.
_LATIN_GUESSES = frozenset(
    {"cp1250", "cp1252", "cp1254", "cp1257", "latin_1", "mac_latin2", "mac_roman", "cp775"}
    | {"cp437", "cp850", "cp858"}
    | {f"iso8859_{n}" for n in (2, 3, 4, 9, 10, 13, 14, 15, 16)}
)


def _detect(body: bytes) -> str:
    """Guess the encoding of a body that declares none and is not UTF-8."""
    best = charset_normalizer.from_bytes(body).best()
    if best is None:
        return body.decode("cp1252", errors="replace")
    if best.encoding in _LATIN_GUESSES:
        return body.decode("cp1252", errors="replace")
    return str(best)


# --- robots.txt ---------------------------------------------------------------------------


class _Robots:
    """robots.txt of each origin, read once per run and shared by every URL on it.

    RFC 9309: a robots.txt that does not exist (4xx) allows everything; one the server
    cannot serve (5xx, 429, no connection) allows nothing for now, since its rules are
    unknown: the page is then reported as the robots.txt request failed (unreachable,
    refused), and asked again on the next attempt. A Crawl-delay spaces the requests to
    that host (up to a cap).
    """

    def __init__(self, client: httpx.AsyncClient, policy: FetchPolicy, gates: _Gates) -> None:
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
        origin = _origin(url)
        if origin not in self._rules:
            self._rules[origin] = asyncio.create_task(self._load(origin))
        rules = await asyncio.shield(self._rules[origin])
        if isinstance(rules, _Outcome):
            if rules.retryable:
                self._rules.pop(origin, None)  # the next attempt asks again
            return rules
        if not rules.can_fetch(url, self._policy.user_agent):
            why = f"blocked by robots.txt ({origin}/robots.txt disallows it for our user agent)"
            return _Outcome(None, "refused", why)
        return None

    async def _load(self, origin: str) -> Protego | _Outcome:
        url, seen = f"{origin}/robots.txt", set()
        small = replace(self._policy, max_body=self._policy.max_robots_body)
        for _ in range(5):
            seen.add(url)
            async with self._gates.slot(url):
                step = await _request(url, self._client, {}, small)
            if isinstance(step, _Redirect):
                target = _resolve(url, step.location)
                if _redirect_problem(url, target, seen, 0, 5) is not None:
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


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2]}"


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
        target = _resolve(url, head.refresh)
        refresh = target if target != url else None
    canonical = _resolve(url, head.canonical) if head.canonical else None
    if canonical is not None and (canonical == url or is_trivial_move(url, canonical)):
        canonical = None
    return refresh, canonical


def _is_markup(content_type: str | None) -> bool:
    return _media_type(content_type) in MARKUP_TYPES


async def _walk(
    target: str,
    client: httpx.AsyncClient,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: _Gates,
    robots: _Robots,
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
        async with gates.slot(url):
            step = await _request(url, client, _conditional_headers(sent), policy)
        if isinstance(step, _Outcome):
            refresh, canonical = _client_redirect(step, url, policy)
            if refresh is None:
                return _Walk(step, url, tuple(hops), sent, canonical)
            hops.append(Hop(url, step.http_status or 200, "meta-refresh"))
            next_url = refresh
        else:
            hops.append(Hop(url, step.status))
            next_url = _resolve(url, step.location)
        problem = _redirect_problem(url, next_url, seen, len(hops), policy.max_redirects)
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
    """How far the attempts at one URL got; read when the deadline cuts them short."""

    attempts: int = 0
    last: _Walk | None = None


async def _attempts(
    target: str,
    client: httpx.AsyncClient,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: _Gates,
    robots: _Robots,
    tally: _Tally,
) -> _Walk:
    """Walk the chain, retrying transient failures; return the last walk."""
    while True:
        tally.attempts += 1
        walk = tally.last = await _walk(target, client, lookup, policy, gates, robots)
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


def _moved_to(url: str, hops: tuple[Hop, ...], final_url: str) -> str | None:
    """Where the permanent redirects at the head of the chain lead, if that is a new address.

    Only a chain that *starts* permanent (301, 308, or an alias page's meta refresh)
    says the ledger's URL itself moved; a permanent hop after a temporary one moved
    some intermediate URL instead. A trailing slash added or dropped, or http
    upgraded to https on the same host, is the same page at a tidier address.
    """
    permanent = 0
    while permanent < len(hops) and (
        hops[permanent].status in PERMANENT_REDIRECTS or hops[permanent].via == "meta-refresh"
    ):
        permanent += 1
    if permanent == 0:
        return None
    moved_to = hops[permanent].url if permanent < len(hops) else final_url
    return None if is_trivial_move(url, moved_to) else moved_to


def _result(
    url: str, walk: _Walk, attempts: int, elapsed: float, line_range: tuple[int, int] | None
) -> FetchResult:
    outcome = walk.outcome
    moved_to = _moved_to(fetch_target(url)[0], walk.hops, walk.final_url)
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
        error=outcome.error,
        attempts=attempts,
        elapsed=elapsed,
        line_range=line_range,
        canonical=walk.canonical,
        conditional=walk.sent,
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
    gates: _Gates,
    robots: _Robots,
) -> list[FetchResult]:
    """Fetch one target once, within its deadline, and answer for every ledger URL that
    maps to it."""
    started = time.monotonic()
    tally = _Tally()
    if is_web_url(target):
        try:
            async with asyncio.timeout(policy.deadline):
                walk = await _attempts(target, client, lookup, policy, gates, robots, tally)
        except TimeoutError:
            walk = _past_deadline(target, tally, policy)
        walk = _keep_validators(walk)
    else:
        walk = _Walk(_Outcome(None, "refused", f"not an http(s) URL: {target}"), target, ())
    elapsed = time.monotonic() - started
    return [_result(url, walk, tally.attempts, elapsed, fetch_target(url)[1]) for url in urls]


async def fetch_all(
    urls: Iterable[str],
    client: httpx.AsyncClient,
    *,
    validators: ValidatorLookup | None = None,
    policy: FetchPolicy = DEFAULT_POLICY,
    on_result: Callable[[FetchResult], None] | None = None,
) -> dict[str, FetchResult]:
    """Fetch every distinct URL once, concurrently; one result per URL, in input order.

    URLs that differ only in their fragment share one request. `validators` gives the
    ETag / Last-Modified stored for a URL about to be requested (the start of a chain
    or any hop of it). `on_result` is called from this coroutine as each result arrives
    (for progress display). A failing URL never raises; an exception here is a bug (or
    `on_result`'s own) and cancels the rest.
    """
    groups: dict[str, list[str]] = {}
    for url in dict.fromkeys(urls):
        groups.setdefault(fetch_target(url)[0], []).append(url)
    gates = _Gates(policy)
    robots = _Robots(client, policy, gates)
    tasks = [
        asyncio.create_task(_fetch_group(target, group, client, validators, policy, gates, robots))
        for target, group in groups.items()
    ]
    arrived: dict[str, FetchResult] = {}
    try:
        for next_done in asyncio.as_completed(tasks):
            for result in await next_done:
                arrived[result.url] = result
                if on_result is not None:
                    on_result(result)
    finally:
        for task in tasks:
            task.cancel()
        robots.cancel()
        await asyncio.gather(*tasks, *robots.tasks, return_exceptions=True)
    return {url: arrived[url] for group in groups.values() for url in group}


def fetch_one_sync(
    url: str,
    *,
    policy: FetchPolicy = DEFAULT_POLICY,
    trust_env: bool = True,
) -> FetchResult:
    """Fetch a single URL from synchronous code (the one-off `verify`)."""

    async def fetch() -> FetchResult:
        async with make_client(policy, trust_env=trust_env) as client:
            results = await fetch_all([url], client, policy=policy)
        return results[url]

    return asyncio.run(fetch())
