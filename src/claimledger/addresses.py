"""Which IP addresses are public: the only ones a request goes to unless the user says more.

An IPv6 address may carry an IPv4 address inside it, and a packet sent there is handed to
that IPv4 host (by the kernel, a translator or a tunnel). Such an address is only as public
as the one it embeds, whatever its own prefix looks like: `::ffff:127.0.0.1`,
`64:ff9b::7f00:1` and `2002:7f00:1::` all reach this machine's loopback. So each of these
forms is judged by the IPv4 address in it:

* IPv4-mapped `::ffff:a.b.c.d` and IPv4-translated `::ffff:0:a.b.c.d` (SIIT);
* IPv4-compatible `::a.b.c.d` (deprecated; `::` and `::1` embed 0.0.0.0 and 0.0.0.1);
* NAT64 `64:ff9b::/96` (RFC 6052), and the local-use `64:ff9b:1::/48` (RFC 8215), whose
  operator may embed at any prefix length from 48 to 96: every reading must be public;
* 6to4 `2002::/16`, the address in its bits 16 to 47;
* Teredo `2001::/32`, whose client is the inverted last 32 bits.

Site-local `fec0::/10` (deprecated, RFC 3879) is private to its site, though Python counts
it global. And a host written as an address is one in every form git, curl and browsers
read (`127.1`, `0x7f000001`), so none of them hides a private address from the test.
Pure: nothing here resolves or connects.
"""

from __future__ import annotations

import re
from ipaddress import IPv4Address, IPv6Address, IPv6Network, ip_address

Address = IPv4Address | IPv6Address

_MAPPED = IPv6Network("::ffff:0:0/96")
_TRANSLATED = IPv6Network("::ffff:0:0:0/96")
_COMPATIBLE = IPv6Network("::/96")
_NAT64 = IPv6Network("64:ff9b::/96")
_NAT64_LOCAL = IPv6Network("64:ff9b:1::/48")
_NAT64_LOCAL_LENGTHS = (48, 56, 64, 96)
"""The RFC 6052 prefix lengths that fit in the local-use /48."""
_SIX_TO_FOUR = IPv6Network("2002::/16")
_TEREDO = IPv6Network("2001::/32")
_SITE_LOCAL = IPv6Network("fec0::/10")


def is_public(address: Address) -> bool:
    """Is `address` a global unicast address, judged by the IPv4 address it embeds if any?"""
    embedded = embedded_ipv4(address)
    if embedded:
        return all(_is_public_ipv4(inner) for inner in embedded)
    if isinstance(address, IPv6Address) and address in _SITE_LOCAL:
        return False
    return address.is_global and not address.is_multicast


def embedded_ipv4(address: Address) -> tuple[IPv4Address, ...]:
    """The IPv4 addresses an IPv6 address may hand its packets to (each reading of a
    prefix whose layout is not fixed), or none for an address that embeds none."""
    if isinstance(address, IPv4Address):
        return ()
    if address in _NAT64_LOCAL:
        return tuple(_rfc6052(address, length) for length in _NAT64_LOCAL_LENGTHS)
    if address in _TEREDO:
        teredo = address.teredo
        return (teredo[1],) if teredo is not None else ()
    if address in _SIX_TO_FOUR:
        six_to_four = address.sixtofour
        return (six_to_four,) if six_to_four is not None else ()
    if any(address in network for network in (_MAPPED, _TRANSLATED, _COMPATIBLE, _NAT64)):
        return (_last_32_bits(address),)
    return ()


def _is_public_ipv4(address: IPv4Address) -> bool:
    return address.is_global and not address.is_multicast


def _last_32_bits(address: IPv6Address) -> IPv4Address:
    return IPv4Address(int(address) & 0xFFFF_FFFF)


def _rfc6052(address: IPv6Address, prefix_length: int) -> IPv4Address:
    """The IPv4 address embedded after a translator prefix of `prefix_length` bits (RFC 6052
    section 2.2: bits 64 to 71 are always zero and carry none of it)."""
    if prefix_length == 96:
        return _last_32_bits(address)
    bits = int(address)
    without_u = ((bits >> 64) << 56) | (bits & ((1 << 56) - 1))  # 120 bits: the u octet taken out
    return IPv4Address((without_u >> (120 - prefix_length - 32)) & 0xFFFF_FFFF)


_NUMERIC_LABEL = re.compile(r"(?:0x[0-9a-f]*|[0-9]+)", re.IGNORECASE)


def names_an_address(host: str) -> bool:
    """Is `host` written as an address rather than a name? An IPv6 literal, or a host
    whose last label is a number: git, curl and browsers read `127.1`, `2130706433` and
    `0x7f000001` as IPv4 addresses (the WHATWG URL rules), so it is one, or nothing."""
    return ":" in host or _NUMERIC_LABEL.fullmatch(host.rstrip(".").rsplit(".", 1)[-1]) is not None


def address_named(host: str) -> Address | None:
    """The address `host` is written as, in any form git, curl and browsers read (`127.1`,
    `0x7f.1`, `017700000001`: the WHATWG URL rules' IPv4 parser), or None when it is no
    valid address."""
    try:
        return ip_address(host)
    except ValueError:
        pass
    parts = host.rstrip(".").split(".")
    numbers = [_ipv4_number(part) for part in parts]
    if not 1 <= len(parts) <= 4 or None in numbers:
        return None
    *first, last = [n for n in numbers if n is not None]
    if any(n > 255 for n in first) or last >= 256 ** (5 - len(parts)):
        return None
    value = last + sum(n << (8 * (3 - i)) for i, n in enumerate(first))
    return IPv4Address(value)


def _ipv4_number(part: str) -> int | None:
    """One part of an IPv4 address as the WHATWG parser reads it: `0x` hex, a leading `0`
    octal, else decimal."""
    low = part.lower()
    if low.startswith("0x"):
        base, digits = 16, low[2:]
    elif low.startswith("0") and len(low) > 1:
        base, digits = 8, low[1:]
    else:
        base, digits = 10, low
    if digits == "":
        return 0 if base != 10 else None
    try:
        return int(digits, base) if digits.isalnum() else None
    except ValueError:
        return None
