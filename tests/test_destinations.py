"""Where a request may go: each host resolved once, every address it has checked, and the
connection made to those very addresses, so a name cannot answer a public address to the
check and a private one to the connection (DNS rebinding).

A real name server on 127.0.0.1 (`dns_server.NameServer`) answers as a hostile one does:
SERVFAIL first and 127.0.0.1 next, or a public address and a private one in turn. The
fetcher is handed its resolver (`make_client(resolver=...)`), and a whole command is given
it in place of the system's (the fixtures `dns` and `system_dns`). No address off this
machine is ever connected to: where a test needs a public host, 127.0.0.2 stands for one
(`stand_in`), a page server listening there, and the internal page with the secret on
127.0.0.1, on the same port.
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import json
import socket
import ssl
from collections.abc import Iterator
from dataclasses import replace

import httpx
import pytest
import trustme

from claimledger.addresses import Address, is_public
from claimledger.records import FetchPolicy, FetchResult
from claimledger.web import destinations
from claimledger.web.connect import transports
from claimledger.web.destinations import Guard
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import claimledger
from dns_server import NameServer
from webserver import PageServer

SECRET = "internal-token-7f3a"
QUOTE = "The deployment token of this site is"
INTERNAL = f"<html><body><main><p>{QUOTE} {SECRET}.</p></main></body></html>"
PUBLIC = f"<html><body><main><p>{QUOTE} printed on the public page.</p></main></body></html>"
POLICY = FetchPolicy(timeout=2.0, retries=1, backoff_base=0.01, per_host_interval=0.0)
PUBLIC_STAND_IN = ipaddress.ip_address("127.0.0.2")


@pytest.fixture
def stand_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """127.0.0.2 counts as a public address, so a test has a "public host" on loopback."""

    def public(address: Address) -> bool:
        return address == PUBLIC_STAND_IN or is_public(address)

    monkeypatch.setattr(destinations, "is_public", public)


@pytest.fixture
def internal() -> Iterator[PageServer]:
    """The page no public page may reach: its secret must never be read."""
    with PageServer() as server:
        server.set_page("/page", INTERNAL)
        yield server
    assert server.errors == []


def fetch(url: str, dns: NameServer, policy: FetchPolicy = POLICY) -> FetchResult:
    async def run() -> FetchResult:
        async with make_client(policy, trust_env=False, resolver=dns.resolve) as client:
            return (await fetch_all([url], client, policy=policy))[url]

    return asyncio.run(run())


# --------------------------------------------------------------------------- resolution


def test_a_name_whose_name_server_fails_is_unreachable_and_never_fetched(
    dns: NameServer, internal: PageServer
) -> None:
    """A resolution error used to let the check pass, and the connection resolve anew."""
    dns.script("docs.rebind.dev", "SERVFAIL")
    result = fetch(f"http://docs.rebind.dev:{internal.port}/page", dns)
    assert (result.source_status, result.text) == ("unreachable", None)
    assert "cannot resolve docs.rebind.dev: SERVFAIL" in (result.error or "")
    assert internal.requests == []


def test_a_name_that_does_not_exist_is_asked_once_and_blamed_on_itself(
    system_dns: NameServer, internal: PageServer
) -> None:
    """No such name will not exist a second later: one attempt, and the reason is the
    name, not robots.txt (which the page's site was never asked for)."""
    url = f"http://docs.nowhere.dev:{internal.port}/page"
    answer = json.loads(claimledger("verify", url, QUOTE, "--json", code=1).stdout)
    assert answer["source_status"] == "unreachable"
    assert answer["error"] == "cannot resolve docs.nowhere.dev: NXDOMAIN"
    assert system_dns.asked("docs.nowhere.dev") == 1
    assert internal.requests == []


def test_a_local_address_given_to_verify_is_bad_input_with_its_fix(internal: PageServer) -> None:
    done = claimledger("verify", internal.url("/page"), QUOTE, code=2)
    assert done.stdout == ""
    assert done.stderr.strip() == (
        f"claimledger: error: {internal.url('/page')} is a private or local address: add "
        "--allow-private to read a mirror or a local copy"
    )
    assert internal.requests == []
    claimledger("verify", internal.url("/page"), QUOTE, "--allow-private", code=0)


def test_servfail_then_loopback_never_shows_the_internal_page(
    system_dns: NameServer, internal: PageServer
) -> None:
    system_dns.script("docs.rebind.dev", "SERVFAIL", ["127.0.0.1"])
    url = f"http://docs.rebind.dev:{internal.port}/page"
    shown = claimledger("verify", url, QUOTE, "--json", code=1).stdout
    assert SECRET not in shown
    answer = json.loads(shown)
    assert (answer["source_status"], answer["status"]) == ("refused", None)
    assert "docs.rebind.dev is a private or local address (127.0.0.1)" in answer["error"]
    assert internal.requests == []
    assert system_dns.asked("docs.rebind.dev") == 2  # one attempt failed, one was refused


def test_a_name_that_alternates_public_and_private_is_read_only_where_checked(
    system_dns: NameServer, internal: PageServer, stand_in: None
) -> None:
    """Each connection goes to the address its own resolution checked: the public one is
    read, the private one refused, and the internal page on the same port never reached."""
    with PageServer(host=str(PUBLIC_STAND_IN), port=internal.port) as public:
        public.set_page("/page", PUBLIC)
        system_dns.script("docs.rebind.dev", ["127.0.0.2"], ["127.0.0.1"], cycle=True)
        url = f"http://docs.rebind.dev:{internal.port}/page"
        verified, refused = 0, 1
        answers = [
            claimledger("verify", url, QUOTE, "--json", code=code).stdout
            for code in (verified, refused, verified, refused)
        ]
        for shown in answers:
            assert SECRET not in shown
        statuses = [json.loads(shown)["status"] for shown in answers]
        assert statuses == ["verified", None, "verified", None]
        assert internal.requests == []
        assert {r.headers["host"] for r in public.requests} == {f"docs.rebind.dev:{public.port}"}
        assert system_dns.asked("docs.rebind.dev") == 4  # one a run: one a connection
        assert public.connections_opened == 2


def test_one_resolution_serves_a_connection_and_every_request_on_it(
    dns: NameServer, internal: PageServer
) -> None:
    dns.script("mirror.local.dev", ["127.0.0.1"])
    urls = [f"http://mirror.local.dev:{internal.port}/page?{n}" for n in range(3)]
    policy = replace(POLICY, allow_private=True, per_host=1)

    async def run() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False, resolver=dns.resolve) as client:
            return await fetch_all(urls, client, policy=policy)

    results = asyncio.run(run())
    assert {result.source_status for result in results.values()} == {"ok"}
    assert (dns.asked("mirror.local.dev"), internal.connections_opened) == (1, 1)


@contextlib.contextmanager
def black_hole(host: str, port: int) -> Iterator[None]:
    """A listener at `host:port` whose queue of connections is full: a new connection's SYN
    is dropped, and connecting waits in vain (as to an address whose route is broken)."""
    with socket.socket() as listener:
        listener.bind((host, port))
        listener.listen(0)
        queued: list[socket.socket] = []
        try:
            while True:
                try:
                    queued.append(socket.create_connection((host, port), timeout=0.5))
                except TimeoutError:
                    break
            yield
        finally:
            for connection in queued:
                connection.close()


def test_an_address_that_never_answers_gives_way_to_the_next(
    dns: NameServer, internal: PageServer
) -> None:
    """The first address of a name answers nothing: the next one is tried beside it a
    moment later (Happy Eyeballs), not after the whole timeout, and the page is read."""
    dns.script("docs.dual.dev", ["127.0.0.3", "127.0.0.1"])
    with black_hole("127.0.0.3", internal.port):
        url = f"http://docs.dual.dev:{internal.port}/page"
        result = fetch(url, dns, replace(POLICY, allow_private=True, retries=0))
    assert (result.source_status, result.attempts) == ("ok", 1)
    assert internal.connections_opened == 1


@pytest.mark.parametrize(
    "host", ["[::ffff:127.0.0.1]", "[::7f00:1]", "[64:ff9b::7f00:1]", "[2002:7f00:1::]"]
)
def test_an_ipv6_address_that_embeds_loopback_is_refused_before_connecting(
    dns: NameServer, internal: PageServer, host: str
) -> None:
    result = fetch(f"http://{host}:{internal.port}/page", dns)
    assert result.source_status == "refused"
    assert "is a private or local address" in (result.error or "")
    assert internal.requests == []


# --------------------------------------------------------------------------- TLS and proxies


def test_tls_names_the_host_though_the_connection_goes_to_its_checked_address(
    dns: NameServer,
) -> None:
    """SNI and the certificate check use the name; the socket uses the address resolved."""
    authority = trustme.CA()
    served = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    authority.issue_cert("docs.pinned.dev").configure_cert(served)
    names: list[str | None] = []
    served.sni_callback = lambda sock, name, context: names.append(name)
    trusted = ssl.create_default_context()
    authority.configure_trust(trusted)
    dns.script("docs.pinned.dev", ["127.0.0.1"])
    dns.script("impostor.pinned.dev", ["127.0.0.1"])
    guard = Guard(dns.resolve, allow_private=True)
    with PageServer(tls=served) as server:
        server.set_page("/doc", PUBLIC)

        async def get(host: str) -> int:
            transport, _ = transports(guard, trusted, httpx.Limits(), trust_env=False)
            async with httpx.AsyncClient(transport=transport) as client:
                response = await client.get(f"https://{host}:{server.port}/doc")
                return response.status_code

        assert asyncio.run(get("docs.pinned.dev")) == 200
        assert server.requests[-1].headers["host"] == f"docs.pinned.dev:{server.port}"
        with pytest.raises(httpx.ConnectError, match="certificate"):
            asyncio.run(get("impostor.pinned.dev"))  # the same address, another name
    assert names == ["docs.pinned.dev", "impostor.pinned.dev"]


def test_a_proxy_from_the_environment_is_asked_only_for_a_checked_target(
    dns: NameServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with PageServer() as proxy:
        proxy.set_page("http://docs.proxied.dev/page", PUBLIC)
        proxy.set_page("http://docs.proxied.dev/robots.txt", "", content_type="text/plain")
        monkeypatch.setenv("HTTP_PROXY", proxy.url(""))
        dns.script("docs.proxied.dev", "SERVFAIL", ["127.0.0.1"])
        url = "http://docs.proxied.dev/page"

        def through_proxy(policy: FetchPolicy) -> FetchResult:
            async def run() -> FetchResult:
                async with make_client(policy, resolver=dns.resolve) as client:
                    return (await fetch_all([url], client, policy=policy))[url]

            return asyncio.run(run())

        unresolved = through_proxy(replace(POLICY, retries=0))
        assert "cannot resolve docs.proxied.dev: SERVFAIL" in (unresolved.error or "")
        private = through_proxy(POLICY)
        assert "docs.proxied.dev is a private or local address" in (private.error or "")
        assert proxy.requests == []
        allowed = through_proxy(replace(POLICY, allow_private=True))
        assert allowed.source_status == "ok"
        assert [r.path for r in proxy.requests] == [
            "http://docs.proxied.dev/robots.txt",
            "http://docs.proxied.dev/page",
        ]
