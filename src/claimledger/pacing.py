"""Politeness: how many requests run at once, in all and per host, and how far apart
their starts are to one host (a gap a robots.txt Crawl-delay can only widen).

Pure asyncio, no network: the fetcher takes a slot for every request it makes.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from claimledger.records import FetchPolicy
from claimledger.urls import split


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
        parts = split(url)
        host = (parts.hostname or "") if parts is not None else ""
        gate = self._hosts.get(host)
        if gate is None:
            gate = self._hosts[host] = HostGate(
                self._policy.per_host, self._policy.per_host_interval
            )
        return gate

    @asynccontextmanager
    async def slot(self, url: str) -> AsyncIterator[None]:
        async with self.host(url).slot(), self._global:
            yield
