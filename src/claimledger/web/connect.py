"""Connections that go where they were checked to go.

A name resolved twice may answer twice differently: a public address to a check, then
127.0.0.1 to the connection (DNS rebinding). So each connection is opened here, by a
network backend under httpcore's pool, that resolves the host once through the run's
`Guard`, checks every address, and connects to those very addresses: no one else is ever
handed the name to resolve it again. TLS is unchanged: httpcore still gives the URL's host
as SNI and checks the certificate against it, and the Host header is still the URL's, so a
pinned connection is the same request, to the address that was checked.

A proxy from the environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY; NO_PROXY honoured as
httpx honours it) resolves names itself, so there the target is checked just before the
request, and the proxy, which the user chose, is trusted to connect where it resolves.
"""

from __future__ import annotations

import asyncio
import contextlib
import ssl
from collections.abc import (
    AsyncIterable,
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Sequence,
)
from functools import partial

import httpcore
import httpx

# httpx reads the proxy variables so; using its reading keeps NO_PROXY's rules its own.
from httpx._utils import get_environment_proxies

from claimledger.addresses import Address
from claimledger.errors import InputError
from claimledger.urls import redact_urls, shown_raw
from claimledger.web.destinations import Guard

SocketOptions = Iterable[
    tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]
]


NEXT_ADDRESS_AFTER = 0.25
"""Seconds a connection attempt has before the host's next address is tried beside it
(RFC 8305's Connection Attempt Delay)."""

_CONNECT_FAILURES = (httpcore.ConnectError, httpcore.ConnectTimeout)

Stream = httpcore.AsyncNetworkStream


class PinnedBackend(httpcore.AsyncNetworkBackend):
    """Opens each TCP connection to the addresses the guard resolved and checked, and to
    no other: the first of them to answer, as httpcore's own backend would pick among a
    name's addresses (Happy Eyeballs), so a host whose IPv6 route is broken is still
    reached over IPv4."""

    def __init__(self, guard: Guard, inner: httpcore.AsyncNetworkBackend | None = None) -> None:
        self._guard = guard
        self._inner = inner or httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: SocketOptions | None = None,
    ) -> Stream:
        addresses = await self._guard.addresses(host, port)

        async def connect(address: Address) -> Stream:
            return await self._inner.connect_tcp(
                str(address),
                port,
                timeout=timeout,
                local_address=local_address,
                socket_options=socket_options,
            )

        return await first_to_connect([partial(connect, a) for a in addresses])

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


async def first_to_connect(
    attempts: Sequence[Callable[[], Awaitable[Stream]]], delay: float = NEXT_ADDRESS_AFTER
) -> Stream:
    """The stream of the first attempt to connect, each begun `delay` seconds after the one
    before, or as soon as it failed (RFC 8305, in short); the last failure if all fail.
    Attempts still under way are cancelled, and a stream won too late is closed."""
    waiting = list(attempts)
    running: set[asyncio.Task[Stream]] = set()
    failure: BaseException | None = None
    try:
        while waiting or running:
            if waiting:
                running.add(asyncio.ensure_future(waiting.pop(0)()))
            done, _ = await asyncio.wait(
                running, timeout=delay if waiting else None, return_when=asyncio.FIRST_COMPLETED
            )
            running -= done
            for task in done:
                if not isinstance(task.exception(), _CONNECT_FAILURES):
                    running |= done - {task}  # closed below, if they connected
                    return task.result()  # a stream, or an error no other address can mend
                failure = task.exception()
        assert failure is not None  # the guard never answers no address
        raise failure
    finally:
        for task in running:
            task.cancel()
        for outcome in await asyncio.gather(*running, return_exceptions=True):
            if isinstance(outcome, Stream):
                await outcome.aclose()


# --------------------------------------------------------------------------- transports

_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.ProxyError, httpx.ProxyError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
)
"""httpcore's errors as httpx names them, the most specific first (what httpx's own
transport raises, so the fetcher reads failures the same way)."""


@contextlib.contextmanager
def _named_as_httpx() -> Iterator[None]:
    """Raise httpcore's errors as httpx's, caused by them (a TLS failure stays findable
    behind its cause); anything else, the guard's refusals too, as it is."""
    try:
        yield
    except Exception as error:
        for core, public in _ERRORS:
            if isinstance(error, core):
                raise public(str(error)) from error
        raise


class _Body(httpx.AsyncByteStream):
    """A response body from httpcore, its errors named as httpx names them."""

    def __init__(self, stream: AsyncIterable[bytes]) -> None:
        self._stream = stream

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _named_as_httpx():
            async for chunk in self._stream:
                yield chunk

    async def aclose(self) -> None:
        close = getattr(self._stream, "aclose", None)
        if close is not None:
            await close()


class PinnedTransport(httpx.AsyncBaseTransport):
    """httpx's requests over httpcore's pool and the pinned backend: the client's
    transport for every connection made directly."""

    def __init__(self, pool: httpcore.AsyncConnectionPool) -> None:
        self._pool = pool

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        assert isinstance(request.stream, httpx.AsyncByteStream)
        core = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _named_as_httpx():
            answer = await self._pool.handle_async_request(core)
        assert isinstance(answer.stream, AsyncIterable)
        return httpx.Response(
            status_code=answer.status,
            headers=answer.headers,
            stream=_Body(answer.stream),
            extensions=answer.extensions,
        )

    async def aclose(self) -> None:
        await self._pool.aclose()


class CheckedProxy(httpx.AsyncBaseTransport):
    """A proxy from the environment, asked only once the target passes the guard."""

    def __init__(self, guard: Guard, proxy: httpx.AsyncHTTPTransport) -> None:
        self._guard = guard
        self._proxy = proxy

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        host = request.url.raw_host.decode("ascii")
        port = request.url.port or (443 if request.url.scheme == "https" else 80)
        await self._guard.addresses(host, port)
        return await self._proxy.handle_async_request(request)

    async def aclose(self) -> None:
        await self._proxy.aclose()


def transports(
    guard: Guard, tls: ssl.SSLContext, limits: httpx.Limits, *, trust_env: bool
) -> tuple[PinnedTransport, dict[str, httpx.AsyncBaseTransport | None]]:
    """The client's transport, and its mounts: a checked proxy for each the environment
    names (with `trust_env`), the pinned transport for what NO_PROXY exempts."""
    pool = httpcore.AsyncConnectionPool(
        ssl_context=tls,
        max_connections=limits.max_connections,
        max_keepalive_connections=limits.max_keepalive_connections,
        keepalive_expiry=limits.keepalive_expiry,
        network_backend=PinnedBackend(guard),
    )
    proxies = get_environment_proxies() if trust_env else {}
    mounts: dict[str, httpx.AsyncBaseTransport | None] = {
        pattern: None if proxy is None else _checked_proxy(guard, pattern, proxy, tls, limits)
        for pattern, proxy in proxies.items()
    }
    return PinnedTransport(pool), mounts


def _checked_proxy(
    guard: Guard, pattern: str, proxy: str, tls: ssl.SSLContext, limits: httpx.Limits
) -> CheckedProxy:
    """The proxy the environment names for `pattern`'s requests; an input error when it is
    none httpx can use (`::bad`, `ftp://…`, `socks5://…` without socksio): the user's
    variable, said in one line, never an internal error."""
    try:
        return CheckedProxy(guard, httpx.AsyncHTTPTransport(proxy=proxy, verify=tls, limits=limits))
    except (httpx.InvalidURL, ValueError, ImportError) as error:
        reason = redact_urls(" ".join(str(error).split()))
        raise InputError(
            f"the proxy the environment (HTTP_PROXY, HTTPS_PROXY, ALL_PROXY) names for "
            f"{pattern} requests, {shown_raw(proxy)}, cannot be used: {reason}"
        ) from None
