"""Sources whose pages are read in a browser: what `add --browser` and `quote --browser`
record of a page they read there, so that the next refresh reads it as it was verified;
the region a source selects, which alone must settle; and a frame's words from another
site, which are not the page's. Skipped, with the reason, only where no Chromium or no
Playwright can be had."""

from __future__ import annotations

import asyncio
import shutil
from pathlib import Path

import pytest

from claimledger.ledger.file import load
from claimledger.records import FetchPolicy, FetchResult
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import Cli, claimledger
from test_browser_reader import LEDGER as BROWSER_LEDGER
from test_browser_reader import fetched
from webserver import PageServer, redirect

pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
if not any(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")):
    pytest.skip("no Chromium on PATH (Debian's `chromium` package)", allow_module_level=True)


QUOTE = "Each message is stored on three replicas before it is acknowledged."
OTHER = "A replica that falls behind is rebuilt from the other two."


def script_built(*paragraphs: str) -> str:
    """A page whose words only its script writes: none of them are there over plain HTTP."""
    build = "".join(f"<p>{text}</p>" for text in paragraphs)
    return (
        "<!doctype html><html><head><title>App</title></head><body><div id=app></div>"
        f"<script>document.getElementById('app').innerHTML = '{build}'</script></body></html>"
    )


def test_a_source_add_and_quote_read_in_the_browser_is_refreshed_there(
    page_server: PageServer, tmp_path: Path
) -> None:
    """`add --browser` verified a script-built quote, wrote the new source without `render:
    browser`, and the next refresh, over plain HTTP, found the page empty."""
    page_server.set_page("/app", script_built(QUOTE))
    page_server.set_page("/more", script_built(OTHER))
    claimledger("init", str(tmp_path / "reading"))
    cli = Cli(tmp_path / "reading" / "claims.yaml")

    added = cli(
        "add", "replicas", "--url", page_server.url("/app"), "--quote", QUOTE,
        "--allow-private", "--browser",
    )  # fmt: skip
    quoted = cli(
        "quote", "replicas", OTHER, "--url", page_server.url("/more"),
        "--allow-private", "--browser",
    )  # fmt: skip

    assert "read in a browser, as now (render: browser)" in added.stdout
    assert "read in a browser, as now (render: browser)" in quoted.stdout
    sources = load(cli.ledger).sources.values()
    assert {s.url: s.render for s in sources if "127.0.0.1" in s.url} == {
        page_server.url("/app"): "browser",
        page_server.url("/more"): "browser",
    }
    refreshed = cli.json("refresh", "replicas", "--no-as-read", "--allow-private")
    assert [c["status"] for c in refreshed["checks"]] == ["verified", "verified"]


def test_a_source_added_without_the_browser_is_read_as_the_server_sends_it(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/plain", f"<html><body><p>{QUOTE}</p></body></html>")
    claimledger("init", str(tmp_path / "reading"))
    cli = Cli(tmp_path / "reading" / "claims.yaml")

    added = cli("add", "replicas", "--url", page_server.url("/plain"), "--quote", QUOTE,
                "--allow-private")  # fmt: skip

    assert "render" not in added.stdout
    assert {s.render for s in load(cli.ledger).sources.values()} == {"http"}


def test_a_quote_verified_in_the_browser_on_a_source_read_over_http_is_warned_of(
    page_server: PageServer, tmp_path: Path
) -> None:
    """`add --browser` onto a page the ledger already reads as the server sends it verified
    a script-built quote there, and the next refresh counted it missing without a word:
    the add line says so, and how to read the source in a browser."""
    page_server.set_page("/mixed", f"<html><body><p>{QUOTE}</p></body></html>")
    claimledger("init", str(tmp_path / "reading"))
    cli = Cli(tmp_path / "reading" / "claims.yaml")
    cli("add", "replicas", "--url", page_server.url("/mixed"), "--quote", QUOTE,
        "--allow-private")  # fmt: skip
    page_server.set_page("/mixed", script_built(QUOTE, OTHER))

    added = cli(
        "add", "rebuilt", "--url", page_server.url("/mixed"), "--quote", OTHER,
        "--allow-private", "--browser",
    )  # fmt: skip
    quoted = cli(
        "quote", "replicas", OTHER, "--url", page_server.url("/mixed"),
        "--allow-private", "--browser",
    )  # fmt: skip

    (source,) = [s for s in load(cli.ledger).sources.values() if "127.0.0.1" in s.url]
    advice = f"`claimledger source {source.id} --render browser` reads it in a browser"
    for said in (added.stdout, quoted.stdout):
        assert f"warning: {source.id} is read as the server sends it" in said
        assert advice in " ".join(said.split())
    assert source.render == "http"  # its other quotes are read as they were


LEDGER = BROWSER_LEDGER.replace("render: browser}}", 'render: browser, select: "#doc"}}')
"""A ledger of one source read in the browser through `select: "#doc"`."""


def test_a_clock_beside_the_region_a_source_selects_does_not_hold_its_reading(
    page_server: PageServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settling compared the whole page's text: a source reading only `#doc` waited
    out every settling wait, every refresh, for a clock ticking beside it."""
    from claimledger.web import fetch

    tick = "setInterval(() => document.getElementById('t').textContent = Date.now(), 100)"
    page_server.set_page(
        "/clock",
        f"<html><body><div id=doc><p>{QUOTE}</p></div><div><p>Now: <b id=t>0</b></p></div>"
        f"<script>{tick}</script></body></html>",
    )
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/clock"), quote=QUOTE), encoding="utf-8")
    changes: list[None] = []
    monkeypatch.setattr(fetch._Tally, "changed", lambda self: changes.append(None))
    cli = Cli(ledger)
    cli("trust")

    refreshed = cli.json("refresh", "--no-as-read")

    assert [c["status"] for c in refreshed["checks"]] == ["verified"]
    assert changes == []  # read after the first settling wait


def test_a_page_one_source_reads_whole_settles_whole_though_another_selects_a_region(
    page_server: PageServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where one source reads `#doc` and another the whole page, the page's whole text is
    what must settle: a clock outside `#doc` is on the page the second one reads."""
    from claimledger.web import fetch
    from claimledger.web.browser import SETTLE_WAITS

    tick = "setInterval(() => document.getElementById('t').textContent = Date.now(), 100)"
    other = "Every write is acknowledged by two zones."
    page_server.set_page(
        "/clock",
        f"<html><body><div id=doc><p>{QUOTE}</p></div><div><p>{other}</p>"
        f"<p>Now: <b id=t>0</b></p></div><script>{tick}</script></body></html>",
    )
    url = page_server.url("/clock")
    whole = (
        f'  all: {{url: "{url}", title: All, kind: docs, publisher: example.com,\n'
        "         allow_private: true, render: browser}\n"
    )
    zones = (
        "  - id: zones\n    section: main\n    title: Zones\n    kind: guarantee\n"
        "    statement: Two zones.\n"
        f'    quotes: [{{text: "{other}", sources: [all]}}]\n'
        "    grades: [{on: the documentation says this, grade: DEMONSTRATED, basis: quotes}]\n"
    )
    text = LEDGER.format(url=url, quote=QUOTE).replace("claims:\n", whole + "claims:\n")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(text + zones, encoding="utf-8")
    changes: list[None] = []
    monkeypatch.setattr(fetch._Tally, "changed", lambda self: changes.append(None))
    cli = Cli(ledger)
    cli("trust")

    refreshed = cli.json("refresh", "--no-as-read")

    assert [c["status"] for c in refreshed["checks"]] == ["verified", "verified"]
    assert len(changes) == SETTLE_WAITS  # the clock on the page `all` reads never held still


def test_a_frame_its_own_address_redirected_to_another_site_is_not_the_pages_to_read(
    page_server: PageServer,
) -> None:
    """A same-origin `<iframe>` whose address the fetcher followed to another site was
    handed over at its own origin's address: the page's script copied the other site's
    words out of it, and the quote verified on words a reader's browser keeps apart."""

    with PageServer() as other:
        other.set_page("/words", f"<html><body><p>{QUOTE}</p></body></html>")
        page_server.set_handler("/frame", redirect(other.url("/words")))
        copy = "this.parentNode.append(this.contentDocument.body.textContent)"
        page_server.set_page(
            "/framed",
            "<html><body><main><p>The page's own words stand here.</p>"
            f'<iframe src="/frame" onload="{copy}"></iframe></main></body></html>',
        )
        policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

        result = fetched(page_server.url("/framed"), policy)

    assert result.source_status == "ok"
    assert "The page's own words" in (result.text or "")
    assert QUOTE not in (result.text or "")


def test_a_chromium_that_cannot_start_is_tried_once_a_run(
    page_server: PageServer, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each page of a run started Chromium again where it could not start at all (and,
    once it had died, again and again past its one restart): it is tried once, and every
    page says why it could not be read."""
    started = tmp_path / "started"
    fake = tmp_path / "chromium"
    fake.write_text(f"#!/bin/sh\necho started >> {started}\nexit 1\n", encoding="utf-8")
    fake.chmod(0o755)
    monkeypatch.setenv("CLAIMLEDGER_CHROMIUM", str(fake))
    paths = [f"/app{n}" for n in range(3)]
    for path in paths:
        page_server.set_page(path, script_built(QUOTE))
    urls = [page_server.url(path) for path in paths]
    policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

    async def read() -> dict[str, FetchResult]:
        async with make_client(policy, trust_env=False) as client:
            return await fetch_all(urls, client, policy=policy)

    results = asyncio.run(read())

    assert {r.source_status for r in results.values()} == {"unreadable"}
    assert all("no browser could be started" in (r.error or "") for r in results.values())
    assert started.read_text(encoding="utf-8").count("started") == 1
