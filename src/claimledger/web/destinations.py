"""Which hosts a request may go to: public addresses only, unless the user allows more.

A public page can redirect to, or name, a host that resolves to loopback, a private
range or a link-local address (a cloud's metadata endpoint); what answers there would
land in snapshots and reports. So every host is resolved, its addresses checked, and the
connection made to those very addresses (`Guard`, used by fetch/connect.py when a
connection is opened): a name is never resolved twice, so it cannot answer a public
address to the check and a private one to the connection (DNS rebinding). A name that
cannot be resolved is a failure, never a pass. Private addresses are allowed only by the
policy (`--allow-private`, or the origin of a source marked so).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

from claimledger.addresses import Address, is_public
from claimledger.errors import PrivateDestination, Unresolvable
from claimledger.records import FetchPolicy
from claimledger.urls import ascii_host, host_and_port, names_public_site

_TRY_AGAIN = frozenset({socket.EAI_AGAIN, getattr(socket, "EAI_SYSTEM", socket.EAI_AGAIN)})
"""getaddrinfo's answers that a later attempt may not repeat: the name server failed."""

Resolver = Callable[[str, int], Awaitable[Sequence[Address]]]
"""`(host, port)`: the host's addresses, or Unresolvable. The system's (`system_resolver`)
unless a client is given another (a test's own name server)."""


async def system_resolver(host: str, port: int) -> list[Address]:
    """`host`'s addresses as the system resolves names (hosts file, DNS), in its order."""
    try:
        infos = await asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        reason = getattr(error, "strerror", None) or str(error) or type(error).__name__
        temporary = isinstance(error, socket.gaierror) and error.errno in _TRY_AGAIN
        raise Unresolvable(f"cannot resolve {host}: {reason}", temporary=temporary) from None
    families = (socket.AF_INET, socket.AF_INET6)
    return [ipaddress.ip_address(info[4][0]) for info in infos if info[0] in families]


@dataclass(frozen=True)
class Guard:
    """Where a client's connections may go: each host resolved once, by `resolver`, and
    every address it has public, unless the run allows private ones everywhere or at that
    host and port (a mirror the ledger marks `allow_private`), however either spells the
    host (`host_and_port`: the request names `bücher.example` in Punycode)."""

    resolver: Resolver
    allow_private: bool = False
    private_places: frozenset[tuple[str, int]] = frozenset()

    @classmethod
    def of(cls, policy: FetchPolicy, resolver: Resolver) -> Guard:
        places = (host_and_port(place) for place in policy.private_origins)
        return cls(resolver, policy.allow_private, frozenset(p for p in places if p is not None))

    async def addresses(self, host: str, port: int) -> list[Address]:
        """The addresses to connect to for `host`, resolved this once; Unresolvable when it
        has none, PrivateDestination when one of them is not public and may not be."""
        found = await resolve(host, port, self.resolver)
        if not self.allow_private and (ascii_host(host), port) not in self.private_places:
            refuse_private(host, found)
        return found


async def resolve(host: str, port: int, resolver: Resolver) -> list[Address]:
    """`host`'s addresses without repeats: itself when it is an address already."""
    try:
        return [ipaddress.ip_address(host)]
    except ValueError:
        pass
    found = list(dict.fromkeys(await resolver(host, port)))
    if not found:
        raise Unresolvable(f"cannot resolve {host}: the name has no address")
    return found


def refuse_private(host: str, addresses: Sequence[Address]) -> None:
    """Raise PrivateDestination when any of `host`'s addresses is not public: one private
    address is enough for a connection to land there."""
    private = [address for address in addresses if not is_public(address)]
    if private:
        raise PrivateDestination(
            f"{host} is a private or local address ({private[0]}): not fetched, since a "
            "public page may point there; --allow-private (or a source's allow_private) "
            "reads a mirror or a local copy"
        )


async def why_not_public(url: str, resolver: Resolver) -> str | None:
    """Why `url` is not the address of a public site, in a few words, or None when it is:
    a name of no special use whose every address is public. What is not public is never
    handed to a third party (a public web archive), which would publish it."""
    parts = host_and_port(url)
    if parts is None or not names_public_site(url):
        return "not the address of a public site"
    host, port = parts
    try:
        refuse_private(host, await resolve(host, port, resolver))
    except Unresolvable as unresolvable:
        return str(unresolvable)
    except PrivateDestination:
        return f"{host} is a private or local address"
    return None
