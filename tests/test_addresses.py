"""Which addresses are public: an IPv6 address that carries an IPv4 one (mapped, translated,
compatible, NAT64, 6to4, Teredo) is judged by the IPv4 address in it, and the deprecated
site-local range is private. Pure: a table, nothing resolved or connected."""

from __future__ import annotations

import ipaddress

import pytest

from claimledger.addresses import is_public


@pytest.mark.parametrize(
    ("address", "public"),
    [
        ("::ffff:127.0.0.1", False),  # IPv4-mapped
        ("::ffff:8.8.8.8", True),
        ("::ffff:0:7f00:1", False),  # IPv4-translated (SIIT)
        ("::ffff:0:808:808", True),
        ("::7f00:1", False),  # IPv4-compatible ::127.0.0.1
        ("::a9fe:a9fe", False),  # ::169.254.169.254, a cloud's metadata endpoint
        ("::808:808", True),
        ("::", False),
        ("::1", False),
        ("64:ff9b::7f00:1", False),  # NAT64, well-known prefix
        ("64:ff9b::a00:1", False),  # 10.0.0.1 through NAT64
        ("64:ff9b::808:808", True),
        ("64:ff9b:1::7f00:1", False),  # local-use NAT64, the /96 reading
        ("64:ff9b:1:7f00:0:100::", False),  # the /48 reading of 127.0.0.1
        ("64:ff9b:1:808:8:808:808:808", True),  # 8.8.8.8 however the prefix is read
        ("2002:7f00:1::", False),  # 6to4 of 127.0.0.1
        ("2002:c0a8:101::1", False),  # 6to4 of 192.168.1.1
        ("2002:808:808::1", True),
        ("2001:0:4136:e378:8000:63bf:80ff:fffe", False),  # Teredo, client 127.0.0.1
        ("2001:0:4136:e378:8000:63bf:f5ff:fffe", False),  # Teredo, client 10.0.0.1
        ("2001:0:4136:e378:8000:63bf:f7f7:f7f7", True),  # Teredo, client 8.8.8.8
        ("fec0::1", False),  # site-local, deprecated
        ("feff::1", False),
        ("fe80::1", False),
        ("fd00::1", False),
        ("ff02::1", False),
        ("2606:4700::1111", True),
        ("93.184.215.14", True),
        ("127.0.0.2", False),
        ("169.254.169.254", False),
    ],
)
def test_an_address_that_embeds_ipv4_is_as_public_as_the_address_it_embeds(
    address: str, public: bool
) -> None:
    assert is_public(ipaddress.ip_address(address)) is public
