"""One request and its answer: the client every fetch goes through, and a GET turned into
an outcome (a page, a redirect to follow by hand, a failure) with its body read within the
caps. A failure is data here too: nothing below `request` raises to the caller.
"""

from __future__ import annotations

import asyncio
import functools
import ssl
import sys
import threading
from collections.abc import Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from http import HTTPStatus
from http.cookiejar import CookieJar, DefaultCookiePolicy

# httpx loads its own command line (click, rich's progress bars, pygments) whenever those
# are installed, as they are beside claimledger: a fifth of its import, for a program we
# never run. A None in sys.modules makes that import fail, which httpx expects and allows.
sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]
# Likewise httpcore imports trio wherever it is installed (60 ms), to ask later which loop
# runs: the fetcher runs on asyncio alone, so trio stays out unless the process has it.
sys.modules.setdefault("trio", None)  # type: ignore[arg-type]

import httpx

from claimledger.errors import PageUnreadable, PrivateDestination, Unresolvable
from claimledger.reading.decoding import (
    Inflater,
    binary_kind,
    charset_of,
    decode,
    is_readable,
    looks_binary,
    media_type_of,
)
from claimledger.reading.pdf import carried, is_pdf, is_pdf_address
from claimledger.records import DEFAULT_POLICY, FetchPolicy, Header, SourceStatus
from claimledger.urls import exact_origin, shown_raw
from claimledger.web import destinations
from claimledger.web.connect import transports
from claimledger.web.destinations import Guard, Resolver
from claimledger.web.pacing import retry_after_seconds

REDIRECTS = frozenset({301, 302, 303, 307, 308})

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
    policy: FetchPolicy = DEFAULT_POLICY,
    *,
    trust_env: bool = True,
    resolver: Resolver | None = None,
) -> httpx.AsyncClient:
    """Build the client `fetch_all` expects: no automatic redirects, our User-Agent, and
    every connection made to the addresses the policy's guard checked (fetch/connect.py).

    Only gzip and deflate are offered because the fetcher decodes bodies itself, so
    it can count decompressed bytes as they are produced. The policy's extra headers are
    not the client's: `request` adds each to requests to its own origins only. Pass
    `trust_env=False` to ignore proxy variables (tests do), and `resolver` to look names
    up elsewhere than the system's resolver.
    """
    connections = max(policy.concurrency, 1)
    limits = httpx.Limits(max_connections=connections, max_keepalive_connections=connections)
    guard = Guard.of(policy, resolver or destinations.system_resolver)
    transport, mounts = transports(
        guard, _tls_context(trust_env).result(), limits, trust_env=trust_env
    )
    return httpx.AsyncClient(
        follow_redirects=False,
        timeout=httpx.Timeout(policy.timeout),
        headers={
            "User-Agent": policy.user_agent,
            "Accept": "text/html, application/xhtml+xml, text/plain;q=0.9, */*;q=0.5",
            "Accept-Encoding": "gzip, deflate",
        },
        trust_env=trust_env,
        transport=transport,
        mounts=mounts,
        event_hooks={"response": [_set_location_aside]},
        cookies=_no_cookies(),
    )


def _no_cookies() -> CookieJar:
    """A jar that keeps no cookie. httpx's own keeps every Set-Cookie and sends it back by
    the cookie rules, which know no port or scheme: a session a site gave for a header
    meant for its origin alone went to every other port of its host, and a cookie one page
    set changed what the run's next pages said."""
    return CookieJar(DefaultCookiePolicy(allowed_domains=[]))


def headers_for(url: str, headers: tuple[Header, ...]) -> dict[str, str]:
    """The extra headers given for `url`'s own origin: every request asks anew, so a
    redirect to another origin, and that origin's robots.txt, never carry them."""
    site = exact_origin(url)
    chosen = {h.name.lower(): (h.name, h.value) for h in headers if site in h.origins}
    return dict(chosen.values())  # one of each name, the command line's over the settings'


def read_trust_soon(trust_env: bool = True) -> None:
    """Begin reading the CA bundle now, on a thread of its own: it takes 20 ms, nearly all
    of them in OpenSSL, which lets go of the GIL, so the command loads what else it needs
    meanwhile; `make_client` waits for it (and raises what reading it raised)."""
    _tls_context(trust_env)


@functools.cache
def _tls_context(trust_env: bool) -> Future[ssl.SSLContext]:
    """One for every client of a run (the refresh, the archive's): each new one would read
    the whole CA bundle again."""
    context: Future[ssl.SSLContext] = Future()

    def read() -> None:
        try:
            context.set_result(httpx.create_ssl_context(trust_env=trust_env))
        except BaseException as error:  # raised again where the client is made
            context.set_exception(error)

    threading.Thread(target=read, name="claimledger-trust", daemon=True).start()
    return context


# --- One response -------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
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
    allowed_origin: str | None = None
    """The answer's Access-Control-Allow-Origin: which pages' scripts a browser lets read it
    from another origin (the browser reader holds a page's requests to it)."""


@dataclass(frozen=True)
class Redirect:
    status: int
    location: str


def _status_line(response: httpx.Response) -> str:
    """`HTTP 503 Service Unavailable`: the status and HTTP's own phrase for it, never the
    server's, which is its text to choose; every line, annotation and report that names the
    answer prints it (`##[stop-commands]…` there would silence a GitHub runner's log)."""
    try:
        phrase = HTTPStatus(response.status_code).phrase
    except ValueError:
        phrase = ""
    return f"HTTP {response.status_code} {phrase}".strip()


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


async def _read_response(response: httpx.Response, policy: FetchPolicy) -> Outcome | Redirect:
    """Classify one response by its status, reading the body only when it is the page."""
    status = response.status_code
    headers = response.headers
    if not 200 <= status < 300:
        await _drain(response)
    if status in REDIRECTS:
        location = headers.get(_RAW_LOCATION) or headers.get("location")
        if location:
            return Redirect(status, location)
        return Outcome(status, "unreadable", f"{_status_line(response)} without a Location")
    if status == 304:
        return Outcome(
            status,
            "ok",
            etag=headers.get("etag"),
            last_modified=headers.get("last-modified"),
            not_modified=True,
        )
    if status in (404, 410):
        return Outcome(status, "gone", _status_line(response))
    if status in (401, 403):
        return Outcome(status, "refused", _status_line(response))
    if status == 429 or status == 408 or status >= 500:
        return Outcome(
            status,
            "refused" if status == 429 else "unreachable",
            _status_line(response),
            retryable=True,
            retry_after=retry_after_seconds(headers.get("retry-after")),
        )
    if 400 <= status < 500:
        return Outcome(status, "refused", _status_line(response))
    if not 200 <= status < 300:
        return Outcome(status, "unreadable", f"unexpected {_status_line(response)}")
    if status == 206:  # no Range is ever sent: a part would read as a page whose end is gone
        return Outcome(status, "unreadable", f"{_status_line(response)}: only part of the page")
    return await _read_page(response, policy)


async def _read_page(response: httpx.Response, policy: FetchPolicy) -> Outcome:
    status = response.status_code
    raw_type = response.headers.get("content-type")
    media_type = media_type_of(raw_type)
    page = Outcome(
        status,
        "ok",
        content_type=raw_type,
        etag=response.headers.get("etag"),
        last_modified=response.headers.get("last-modified"),
        content_location=response.headers.get("content-location"),
        allowed_origin=response.headers.get("access-control-allow-origin"),
    )
    maybe_pdf = is_pdf_address(media_type, str(response.url))
    try:
        if (
            media_type is not None
            and not is_readable(media_type)
            and not maybe_pdf
            and not policy.raw
        ):
            raise PageUnreadable(f"content type {media_type} is not text we can read")
        body = await _read_body(response, policy)
        if policy.raw:
            return replace(page, body=body)
        text = _text_of(body, media_type, raw_type, maybe_pdf=maybe_pdf)
    except PageUnreadable as unreadable:
        return replace(page, source_status="unreadable", error=str(unreadable))
    return replace(page, text=text)


def _text_of(body: bytes, media_type: str | None, raw_type: str | None, *, maybe_pdf: bool) -> str:
    """The body as the text its reader takes: a PDF carried whole (read in the reading
    step, whose time is bounded), anything else decoded as a browser would."""
    if maybe_pdf and is_pdf(media_type, body):
        return carried(body)
    if maybe_pdf and media_type is not None:  # a .pdf address answered with other bytes
        raise PageUnreadable(f"content type {media_type} is not text we can read")
    if media_type is None and looks_binary(body):
        raise PageUnreadable("binary body without a Content-Type")
    kind = binary_kind(body)
    if kind is not None:
        raise PageUnreadable(f"the body is {kind}, not the {media_type} its Content-Type says")
    return decode(body, media_type, charset_of(raw_type))


# --- Bodies -------------------------------------------------------------------------------


async def _read_body(response: httpx.Response, policy: FetchPolicy) -> bytes:
    """The decoded body, refusing a page over the raw or the decompressed cap (or, with
    `cut_long_body`, keeping the whole lines within it)."""
    if policy.cut_long_body:
        return await _read_head(response, policy.max_body)
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


async def _read_head(response: httpx.Response, limit: int) -> bytes:
    """The decoded body's first `limit` bytes, cut after the last whole line among them when
    the body goes on; what lies past them is neither read nor inflated."""
    encoding = response.headers.get("content-encoding", "").strip().lower()
    inflater = Inflater(encoding, limit, cut=True)
    body = bytearray()
    received = 0
    async for chunk in response.aiter_raw():
        received += len(chunk)
        body += inflater.feed(chunk)
        if inflater.full or received > limit:
            return _whole_lines(bytes(body))
    body += inflater.finish()
    return bytes(body)


def _whole_lines(head: bytes) -> bytes:
    """`head` up to and with its last line break (CR, LF or both, as RFC 9309 allows): a
    line cut short could say another rule (`Allow: /docs/api` cut to `Allow: /`)."""
    return head[: max(head.rfind(b"\n"), head.rfind(b"\r")) + 1]


def one_line(error: BaseException) -> str:
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


async def request(
    url: str, client: httpx.AsyncClient, headers: Mapping[str, str], policy: FetchPolicy
) -> Outcome | Redirect:
    """One GET, turning transport failures into outcomes (retryable where that can help).

    `headers` go with it, after the policy's own for this URL's origin. A host that is
    not public (unless the client's policy allows it) or has no address is refused where
    the connection would be opened, before any packet is sent to it.
    """
    sent = {**headers_for(url, policy.headers), **headers}
    try:
        async with (
            asyncio.timeout(policy.timeout),
            client.stream("GET", url, headers=sent) as response,
        ):
            return await _read_response(response, policy)
    except PrivateDestination as private:
        return Outcome(None, "refused", str(private))
    except Unresolvable as unresolvable:
        return Outcome(None, "unreachable", str(unresolvable), retryable=unresolvable.temporary)
    except (TimeoutError, httpx.TimeoutException):
        return Outcome(None, "unreachable", f"timed out after {policy.timeout:g} s", retryable=True)
    except (httpx.NetworkError, httpx.RemoteProtocolError, httpx.ProxyError) as exc:
        tls = _tls_failure(exc)
        if tls is not None:
            reason = getattr(tls, "verify_message", None) or tls.reason or one_line(tls)
            return Outcome(None, "unreachable", f"TLS failed: {reason} (not retried)")
        return Outcome(None, "unreachable", f"connection failed: {one_line(exc)}", retryable=True)
    except (
        httpx.UnsupportedProtocol,
        httpx.LocalProtocolError,
        httpx.InvalidURL,
        UnicodeError,  # a host IDNA does not allow, found as the request is made
    ) as exc:  # a URL the client cannot send is no web URL: shown as it came
        return Outcome(None, "refused", f"cannot request {shown_raw(url)}: {one_line(exc)}")
