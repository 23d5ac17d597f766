"""Politeness: how many requests run at once, in all and per host, and how far apart
their starts are to one host (a gap a robots.txt Crawl-delay can only widen); and how
many URLs are begun ahead of the caller reading their results.

Pure asyncio, no network: the fetcher takes a slot for every request it makes, and asks
`Admission` which URLs may begin.
"""

from __future__ import annotations

import asyncio
import contextlib
import math
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterable, Iterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime

from claimledger.records import FetchPolicy
from claimledger.urls import ascii_host, split


class HostGate:
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


def host_of(url: str) -> str:
    """The host name a URL's requests are limited by, in the one spelling DNS resolves
    (`ascii_host`: `bücher.example` and `xn--bcher-kva.example.` are one host), or ""."""
    parts = split(url)
    return ascii_host(parts.hostname or "") if parts is not None else ""


class Gates:
    """The global limit and one `HostGate` per host name.

    The host slot is taken before the global one, so requests queued behind a busy
    host never sit on global slots that other hosts could use.
    """

    def __init__(self, policy: FetchPolicy) -> None:
        self._global = asyncio.Semaphore(max(policy.concurrency, 1))
        self._hosts: dict[str, HostGate] = {}
        self._policy = policy

    def host(self, url: str) -> HostGate:
        host = host_of(url)
        gate = self._hosts.get(host)
        if gate is None:
            gate = self._hosts[host] = HostGate(
                self._policy.per_host, self._policy.per_host_interval
            )
        return gate

    @asynccontextmanager
    async def slot(
        self, url: str, *, stopping: asyncio.Timeout | None = None
    ) -> AsyncIterator[None]:
        """A turn to request `url`; the deadline `stopping` stands still while it waits
        (a URL queued behind others on its host is not late)."""
        async with contextlib.AsyncExitStack() as turn:
            with _stopped(stopping):
                await turn.enter_async_context(self.host(url).slot())
                await turn.enter_async_context(self._global)
            yield


@contextlib.contextmanager
def _stopped(clock: asyncio.Timeout | None) -> Iterator[None]:
    """Stop a deadline's clock for the time of the block."""
    when = None if clock is None else clock.when()
    if clock is None or when is None:
        yield
        return
    loop = asyncio.get_running_loop()
    left = when - loop.time()
    clock.reschedule(None)
    try:
        yield
    finally:
        clock.reschedule(loop.time() + left)


class Admission:
    """Which URLs may begin: at most `ahead` begun and not yet read by the caller, and at
    most `per_host_ahead` of them on one host, in the order given otherwise.

    A thousand URLs are not a thousand waiting tasks: results never pile up ahead of a
    slow reader (each holds its page), and a URL's wait behind a busy host stays short.
    A host at its share lets the URLs of other hosts begin.
    """

    def __init__(self, urls: Iterable[str], *, ahead: int, per_host_ahead: int) -> None:
        self._waiting: dict[str, deque[str]] = {}
        for url in urls:
            self._waiting.setdefault(host_of(url), deque()).append(url)
        self._ahead = max(ahead, 1)
        self._per_host = max(per_host_ahead, 1)
        self._begun: Counter[str] = Counter()
        self._total = 0

    def begin(self) -> list[str]:
        """The URLs that may begin now (each counts as begun until `read`)."""
        begun = []
        for host, waiting in list(self._waiting.items()):
            if self._total >= self._ahead:
                break
            while waiting and self._begun[host] < self._per_host and self._total < self._ahead:
                begun.append(waiting.popleft())
                self._begun[host] += 1
                self._total += 1
            if not waiting:
                del self._waiting[host]
        return begun

    def read(self, url: str) -> None:
        """The caller has read what `url` gave: room for another URL of its host."""
        host = host_of(url)
        self._begun[host] -= 1
        if not self._begun[host]:
            del self._begun[host]
        self._total -= 1


def retry_after_seconds(value: str | None) -> float | None:
    """Seconds to wait from a Retry-After header (delay-seconds or an HTTP date); None for
    a value that is neither, so the usual backoff applies. A "nan" is no number of seconds:
    waited as such, it never woke, and the URL sat out its whole deadline."""
    if value is None:
        return None
    value = value.strip()
    try:
        seconds = float(value)
    except ValueError:
        pass
    else:
        return None if math.isnan(seconds) else max(seconds, 0.0)
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    return max((when - datetime.now(UTC)).total_seconds(), 0.0)
