"""Shared fixtures: a loopback page server, a clean environment, a fresh evidence store."""

from __future__ import annotations

import ipaddress
import signal
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from claimledger.evidence.store import EvidenceStore
from claimledger.web import destinations
from dns_server import NameServer
from webserver import PageServer

PROXY_VARIABLES = (
    "HTTP_PROXY",
    "HTTPS_PROXY",
    "ALL_PROXY",
    "NO_PROXY",
    "http_proxy",
    "https_proxy",
    "all_proxy",
    "no_proxy",
)


def pytest_configure(config: pytest.Config) -> None:
    """Ctrl-C as a terminal gives it. A suite started in the background of a script
    (`pytest &`) inherits SIGINT ignored, and so would every claimledger it starts: the
    tests that press Ctrl-C on one would wait in vain."""
    signal.signal(signal.SIGINT, signal.default_int_handler)


@pytest.fixture(autouse=True)
def clean_environ(
    monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory
) -> None:
    """No proxy settings from the developer's shell may route loopback traffic elsewhere,
    and what a run keeps for the user (clones for blame, trust) goes to
    directories of the suite's own, never the developer's cache or config."""
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.getbasetemp() / "cache"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path_factory.mktemp("config")))


@pytest.fixture(autouse=True)
def no_internet(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tests never reach the internet: a name looked up in this process that is neither
    this machine's nor reserved for tests (RFC 2606, RFC 6761) is refused as an offline
    machine refuses it, the same on every machine, and fails the test that asked once it
    ends."""
    asked: list[str] = []
    lookup = socket.getaddrinfo

    def local_only(host: object, *args: object, **kwargs: object) -> object:
        name = host.decode() if isinstance(host, bytes) else str(host)
        if not _offline_name(name):
            asked.append(name)
            raise socket.gaierror(socket.EAI_NONAME, f"{name}: tests never reach the internet")
        return lookup(host, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(socket, "getaddrinfo", local_only)
    yield
    assert not asked, f"the test looked up {sorted(set(asked))}: tests never reach the internet"


_RESERVED = (".test", ".example", ".invalid", ".localhost")


def _offline_name(name: str) -> bool:
    """A name no lookup takes off this machine: an address, this machine, or a name
    reserved for tests and examples."""
    name = name.rstrip(".").lower()
    try:
        ipaddress.ip_address(name.strip("[]").split("%")[0])
        return True
    except ValueError:
        pass
    return name in ("", "localhost", "none") or name.endswith(_RESERVED)


@pytest.fixture
def page_server() -> Iterator[PageServer]:
    """A running PageServer on 127.0.0.1; fails the test if a route handler itself broke."""
    with PageServer() as server:
        yield server
    assert server.errors == [], f"page server handler errors: {server.errors}"


@pytest.fixture
def dns() -> Iterator[NameServer]:
    """A scripted name server on 127.0.0.1, and its resolver (`dns.resolve`)."""
    with NameServer() as server:
        yield server


@pytest.fixture
def system_dns(dns: NameServer, monkeypatch: pytest.MonkeyPatch) -> NameServer:
    """The loopback name server in place of the system's resolver, for whole commands: no
    name a test makes up is ever looked up anywhere else."""
    monkeypatch.setattr(destinations, "system_resolver", dns.resolve)
    return dns


@pytest.fixture(scope="session")
def httpserver_listen_address() -> tuple[str, int]:
    """pytest-httpserver on 127.0.0.1 with an ephemeral port (never `localhost`, never ::1)."""
    return ("127.0.0.1", 0)


@pytest.fixture
def evidence_path(tmp_path: Path) -> Path:
    """Where a ledger's evidence store lives by default, under a fresh directory."""
    return tmp_path / "out" / "evidence.sqlite3"


@pytest.fixture
def evidence_store(evidence_path: Path) -> Iterator[EvidenceStore]:
    """An open, empty evidence store, closed after the test."""
    with EvidenceStore.open(evidence_path) as store:
        yield store
