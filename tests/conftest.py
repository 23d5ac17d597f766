"""Shared fixtures: a loopback page server, a clean environment, a fresh evidence store."""

from __future__ import annotations

import signal
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
