"""Which hosts a request may go to: public addresses only, unless the user allows more.

A public page can redirect to, or name, a host that resolves to loopback, a private
range or a link-local address (a cloud's metadata endpoint); what answers there would
land in snapshots and reports. So the host of every request is resolved and checked
before the request is made, and refused unless it is a global address, or the policy
allows private ones (`--allow-private`, or the origin of a source marked so).
"""

from __future__ import annotations

import asyncio
import ipaddress
import socket

from claimledger.addresses import is_public
from claimledger.records import FetchPolicy
from claimledger.urls import origin, split


async def private_destination(url: str, policy: FetchPolicy) -> str | None:
    """Why `url` may not be requested because its host is not a public address (checked
    before any packet is sent to it: a name is resolved first, and refused if any of its
    addresses is loopback, private, link-local or otherwise not global), or None."""
    if policy.allow_private or origin(url) in policy.private_origins:
        return None
    parts = split(url)
    host = (parts.hostname or "") if parts is not None else ""
    try:
        addresses = [ipaddress.ip_address(host)]
    except ValueError:
        try:
            infos = await asyncio.get_running_loop().getaddrinfo(
                host, parts.port if parts else None, type=socket.SOCK_STREAM
            )
        except OSError:
            return None  # no such name: the request itself fails and says so
        addresses = [ipaddress.ip_address(info[4][0]) for info in infos]
    private = [address for address in addresses if not is_public(address)]
    if not private:
        return None
    return (
        f"{host} is a private or local address ({private[0]}): not fetched, since a public "
        "page may point there; --allow-private (or a source's allow_private) reads a "
        "mirror or a local copy"
    )
