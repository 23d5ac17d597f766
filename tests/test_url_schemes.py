"""A page's address whose scheme is written in capitals (`HTTP://`, `Https://`) is that
address: case is no part of a scheme (RFC 3986 §3.1). `check`, `add`, `quote` and
`refresh` take it, and keep, compare and fetch it in lower case; no other scheme, in any
case, gets through, nor does a capital get a page past a guard."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.ledger.file import load
from cli_runner import Cli
from dns_server import NameServer
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import PageServer, redirect


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def capitalised(url: str, scheme: str = "HTTP") -> str:
    """`url` with its scheme written as `scheme`."""
    return f"{scheme}:{url.partition(':')[2]}"


def rewritten(ledger: Path, old: str, new: str) -> None:
    ledger.write_text(ledger.read_text("utf-8").replace(old, new), encoding="utf-8")


def sources(ledger: Path) -> dict[str, Any]:
    found: dict[str, Any] = yaml.safe_load(ledger.read_text("utf-8"))["sources"]
    return found


def test_a_ledger_whose_schemes_are_in_capitals_is_valid_and_read_in_lower_case(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    guide, other = page_server.url("/guide"), page_server.url("/other")
    rewritten(ledger, f'"{guide}"', f'"{capitalised(guide)}"')
    rewritten(ledger, f'"{other}"', f'"{capitalised(other, "Http")}"')
    assert "ok: 3 claims, 3 sources" in cli("check", code=0).stdout
    read = load(ledger).sources
    assert (read["guide"].url, read["other"].url) == (guide, other)

    serve_v1(page_server)
    report = cli.json("refresh", "--allow-private", code=0)
    assert {check["url"] for check in report["checks"]} == {
        guide,
        page_server.url("/mirror"),
        other,
    }
    status = cli.json("status", code=0)
    assert {source["url"] for source in status["sources"]} >= {guide, other}


def test_add_and_quote_take_a_page_given_in_capitals_as_one_source_in_lower_case(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_page("/limits", page(DURABLE, ALARM))
    limits = page_server.url("/limits")
    cli("add", "limits", "--url", capitalised(limits), "--quote", DURABLE, "--allow-private")
    (new,) = [sid for sid, source in sources(ledger).items() if source["url"] == limits]
    cli("quote", "limits", ALARM, "--url", capitalised(limits, "Http"), "--allow-private")
    assert [sid for sid, source in sources(ledger).items() if "limits" in source["url"]] == [new]
    assert [quote.sources for quote in load(ledger).claim("limits").quotes] == [(new,), (new,)]


def test_a_capital_takes_no_page_past_the_private_address_guard(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    page_server.set_page("/limits", page(DURABLE))
    before = ledger.read_bytes()
    given = capitalised(page_server.url("/limits"), "HtTp")
    refused = cli("add", "limits", "--url", given, "--quote", DURABLE, code=2)
    assert "is a private or local address" in refused.stderr
    assert "Traceback" not in refused.stderr + refused.stdout
    assert ledger.read_bytes() == before
    assert page_server.page_requests == []


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("JavaScript:alert(1)", "is not an http(s) URL"),
        ("FILE:///etc/passwd", "is not an http(s) URL"),
        ("Data:text/html,hello", "is not an http(s) URL"),
        ("HTTP:///guide", "is not an http(s) URL with a host"),
        ("HTTPS://", "is not an http(s) URL"),
    ],
)
def test_no_other_scheme_and_no_hostless_address_gets_through_in_capitals(
    cli: Cli, ledger: Path, page_server: PageServer, url: str, said: str
) -> None:
    rewritten(ledger, f'"{page_server.url("/other")}"', f'"{url}"')
    refused = cli("check", code=2)
    assert f"url '{url}' {said}" in refused.stderr
    assert "Traceback" not in refused.stderr + refused.stdout


@pytest.mark.parametrize("url", ["JAVASCRIPT:alert(1)", "File:///etc/passwd", "HTTP:///x"])
def test_add_refuses_another_scheme_or_no_host_in_capitals(
    cli: Cli, ledger: Path, url: str
) -> None:
    before = ledger.read_bytes()
    refused = cli("add", "x", "--url", url, "--quote", DURABLE, "--allow-private", code=2)
    assert "is not an http(s) URL with a host" in refused.stderr
    assert ledger.read_bytes() == before


def test_a_map_whose_prefix_is_in_capitals_maps_the_ledger_s_pages(
    cli: Cli, ledger: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """The ledger names a public host, which the test's name server knows nothing of: a
    page read is one read from the mirror the map names, with the scheme of either in
    any case."""
    serve_v1(page_server)
    public = "https://docs.example.test"
    rewritten(ledger, page_server.url(""), public)
    rewritten(ledger, f'"{public}/guide"', '"HTTPS://docs.example.test/guide"')
    mapping = f"HTTPS://docs.example.test/={capitalised(page_server.url('/'))}"
    report = cli.json("refresh", "--allow-private", "--map", mapping, code=0)
    assert {check["url"] for check in report["checks"]} == {
        f"{public}/guide",
        f"{public}/mirror",
        f"{public}/other",
    }
    assert {request.path for request in page_server.page_requests} == {
        "/guide",
        "/mirror",
        "/other",
    }


def test_verify_and_snapshot_take_a_page_in_capitals_as_its_lower_case_address(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    guide = page_server.url("/guide")
    verified = cli.json("verify", "--allow-private", capitalised(guide), DURABLE, code=0)
    assert verified["url"] == guide
    cli("refresh", "--allow-private", code=0)
    assert DURABLE in cli("snapshot", capitalised(guide), code=0).stdout


def test_move_writes_the_address_a_redirect_spelt_in_capitals_in_lower_case(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A redirect to `HTTPS://LOCALHOST:…/alarms/` (a Location in capitals, kept so in the
    store) was adopted by `move` as written: the ledger held `HTTPS://LOCALHOST`, where
    `move` with the address typed, `add` and `quote` write the scheme in lower case. A
    server's spelling is written with its scheme and host in lower case."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    spelt = page_server.url("/alarms/").replace("http://127.0.0.1", "HTTPS://LOCALHOST")
    page_server.set_handler("/other", redirect(spelt, 301))
    cli("refresh", "--allow-private", code=1)  # moved, and no TLS there: unread

    cli("move", "other", code=0)

    written = page_server.url("/alarms/").replace("http://127.0.0.1", "https://localhost")
    assert sources(ledger)["other"]["url"] == written
