"""Sources whose pages are read in a browser: what `add --browser` and `quote --browser`
record of a page they read there, so that the next refresh reads it as it was verified.
Skipped, with the reason, only where no Chromium or no Playwright can be had."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from claimledger.ledger.file import load
from cli_runner import Cli, claimledger
from webserver import PageServer

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
