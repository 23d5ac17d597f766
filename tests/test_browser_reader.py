"""Pages built by JavaScript: a single-page app on 127.0.0.1 whose words arrive by
`fetch()` after load, read as the server sends it (an empty shell, said so, with the way
round it) and in Chromium (`--browser`, `render: browser`), where every request the page
makes goes through our own fetcher: robots.txt, the private-address guard and the map
hold for the page's scripts as for the page. Skipped, with the reason, only where no
Chromium or no Playwright can be had."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from claimledger.ledger.file import load
from claimledger.records import FetchPolicy, FetchResult
from claimledger.web.fetch import fetch_all, make_client
from cli_runner import Cli, claimledger
from webserver import PageServer, redirect

pytest.importorskip("playwright.async_api", reason="Playwright is not installed")
if not any(shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome")):
    pytest.skip("no Chromium on PATH (Debian's `chromium` package)", allow_module_level=True)

QUOTE = "Each message is stored on three replicas before it is acknowledged."
SHELL = """<!doctype html><html><head><title>Durability</title></head><body>
<div id="app"></div>
<script src="/app.js"></script>
</body></html>"""
APP = """
fetch("/api/page.json").then(r => r.json()).then(page => {
  const main = document.createElement("main");
  for (const text of page.paragraphs) {
    const p = document.createElement("p"); p.textContent = text; main.appendChild(p);
  }
  document.getElementById("app").appendChild(main);
  if (page.extra) fetch(page.extra).catch(() => {});
  document.body.setAttribute("data-ready", "yes");
});
"""


def serve_app(server: PageServer, *paragraphs: str, extra: str | None = None) -> str:
    server.set_page("/durability", SHELL)
    server.set_page("/app.js", APP, content_type="text/javascript")
    payload = {"paragraphs": list(paragraphs), "extra": extra}
    server.set_page("/api/page.json", json.dumps(payload), content_type="application/json")
    return server.url("/durability")


def verified_in_browser(url: str, quote: str = QUOTE, *, code: int = 0) -> Any:
    """`verify --browser` of `quote` on the page at `url`, as JSON."""
    done = claimledger("verify", "--allow-private", "--browser", url, quote, "--json", code=code)
    return json.loads(done.stdout)


def fetched(url: str, policy: FetchPolicy) -> FetchResult:
    """One page fetched, and read in the browser as `policy` says, by the fetcher alone."""

    async def read() -> FetchResult:
        async with make_client(policy, trust_env=False) as client:
            return (await fetch_all([url], client, policy=policy))[url]

    return asyncio.run(read())


def test_a_script_built_page_read_over_http_says_why_it_is_empty_and_what_to_do(
    page_server: PageServer,
) -> None:
    url = serve_app(page_server, QUOTE)
    payload = json.loads(
        claimledger("verify", "--allow-private", url, QUOTE, "--json", code=1).stdout
    )
    assert payload["source_status"] == "unreadable"
    assert "looks built by JavaScript" in payload["error"]
    assert "--browser" in payload["error"] and "render: browser" in payload["error"]
    assert page_server.hits("/api/page.json") == 0  # no script of the page ran


def test_verify_with_browser_reads_the_words_the_scripts_fetched(page_server: PageServer) -> None:
    url = serve_app(page_server, "An opening line.", QUOTE)
    said = claimledger("verify", "--allow-private", "--browser", url, QUOTE).stdout
    assert said.startswith("verified")
    assert page_server.hits("/api/page.json") == 1  # fetched by our fetcher, once
    assert page_server.hits("/durability") == 1  # the document is not asked for twice


def test_the_pages_scripts_are_held_to_the_runs_rules(page_server: PageServer) -> None:
    """A script that asks a path robots.txt disallows, or another site, gets nothing:
    the server never sees the first, and the second is not even tried."""
    page_server.set_page(
        "/robots.txt", "User-agent: *\nDisallow: /private/\n", content_type="text/plain"
    )
    page_server.set_page("/private/secret.json", "{}", content_type="application/json")
    url = serve_app(page_server, QUOTE, extra="/private/secret.json")
    claimledger("verify", "--allow-private", "--browser", url, QUOTE)
    assert page_server.hits("/private/secret.json") == 0
    assert page_server.hits("/api/page.json") == 1


LEDGER = """\
ledger: 1
title: A reading
date_read: 2026-12-01
sections: [{{id: main, title: Main}}]
sources:
  app: {{url: "{url}", title: App, kind: docs, publisher: example.com, allow_private: true,
         render: browser}}
claims:
  - id: replicas
    section: main
    title: Replicas
    kind: guarantee
    statement: Each message is on three replicas.
    quotes: [{{text: "{quote}", sources: [app]}}]
    grades: [{{on: the documentation says this, grade: DEMONSTRATED, basis: quotes}}]
"""


def test_a_private_address_a_script_asks_is_refused_as_any_page_would_be(
    page_server: PageServer, tmp_path: Path
) -> None:
    """The source may be read on its loopback address (`allow_private`, trusted); what its
    script asks of another loopback address is refused by the private-address guard."""
    other = PageServer().start()
    try:
        other.set_page("/beacon.json", "{}", content_type="application/json")
        url = serve_app(page_server, QUOTE, extra=other.url("/beacon.json", host="localhost"))
        ledger = tmp_path / "claims.yaml"
        ledger.write_text(LEDGER.format(url=url, quote=QUOTE), encoding="utf-8")
        cli = Cli(ledger)
        cli("trust")
        refreshed = cli.json("refresh", "--no-as-read")
        assert [c["status"] for c in refreshed["checks"]] == ["verified"]
        assert page_server.hits("/api/page.json") == 1
        assert other.requests == []
    finally:
        other.stop()


def test_a_source_marked_render_browser_is_refreshed_in_the_browser(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/plain", f"<html><body><main><p>{QUOTE}</p></main></body></html>")
    claimledger("init", str(tmp_path / "reading"))
    cli = Cli(tmp_path / "reading" / "claims.yaml")
    cli(
        "add", "replicas", "--url", page_server.url("/plain"), "--quote", QUOTE,
        "--why", "the docs say so", "--allow-private",
    )  # fmt: skip
    source = next(s for s in load(cli.ledger).sources.values() if s.url.endswith("/plain"))
    cli("source", source.id, "--render", "browser", "--wait-for", "main p")
    assert load(cli.ledger).sources[source.id].render == "browser"
    page_server.set_page("/plain", SHELL)  # the site moved to a script-built page
    page_server.set_page("/app.js", APP, content_type="text/javascript")
    page_server.set_page(
        "/api/page.json", json.dumps({"paragraphs": [QUOTE]}), content_type="application/json"
    )
    refreshed = cli.json("refresh", "replicas", "--no-as-read", "--allow-private")
    assert [c["status"] for c in refreshed["checks"]] == ["verified"]
    assert page_server.hits("/api/page.json") == 1


def test_a_page_whose_scripts_never_go_quiet_ends_at_the_urls_deadline(
    page_server: PageServer,
) -> None:
    url = serve_app(page_server, QUOTE)
    busy = "setInterval(() => fetch('/api/poll.json?' + Date.now()), 50);"
    page_server.set_page("/app.js", APP + busy, content_type="text/javascript")
    page_server.set_page("/api/poll.json", "{}", content_type="application/json")
    # 6 s: room for Chromium's first start on a busy machine, and for the page's polls
    payload = json.loads(
        claimledger(
            "verify", "--allow-private", "--browser", "--deadline", "6", url, QUOTE, "--json",
            code=1,
        ).stdout
    )  # fmt: skip
    assert payload["source_status"] == "unreadable"  # it answered: its reading never ended
    assert payload["error"] == (
        "read in a browser, its scripts were still running or fetching within the 6 s deadline"
    )
    polls = [r for r in page_server.requests if r.path.startswith("/api/poll.json?")]
    assert polls  # it was still polling when the deadline came


def test_a_page_whose_script_never_ends_is_not_said_to_be_fetching(
    page_server: PageServer,
) -> None:
    """A script busy in a loop asks for nothing: the deadline said "its scripts were still
    fetching", and the user looked for a request that was never made."""
    page_server.set_page("/busy", f"<html><body><p>{QUOTE}</p><script>for (;;) {{}}</script>")
    payload = json.loads(
        claimledger(
            "verify", "--allow-private", "--browser", "--deadline", "6", page_server.url("/busy"),
            QUOTE, "--json", code=1,
        ).stdout
    )  # fmt: skip
    assert payload["source_status"] == "unreadable"
    assert payload["error"] == (
        "read in a browser, its scripts were still running or fetching within the 6 s deadline"
    )
    assert [r.path for r in page_server.requests] == ["/robots.txt", "/busy"]


def test_a_wrong_render_is_refused_and_nothing_is_written(tmp_path: Path) -> None:
    claimledger("init", str(tmp_path / "reading"))
    ledger = tmp_path / "reading" / "claims.yaml"
    before = ledger.read_text(encoding="utf-8")
    source = next(iter(load(ledger).sources))
    result = Cli(ledger)("source", source, "--render", "javascript", code=2)
    assert "--render 'javascript': one of http, browser" in result.stderr
    assert ledger.read_text(encoding="utf-8") == before


def test_a_pages_script_sends_no_udp_past_the_guard(page_server: PageServer) -> None:
    """WebRTC sends STUN over UDP to any address a script names, past the interception of
    requests and the proxy (TCP only); from an iframe's window too. Nothing may arrive."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as listener:
        listener.bind(("127.0.0.2", 0))
        port = listener.getsockname()[1]
        stun = f"{{iceServers: [{{urls: 'stun:127.0.0.2:{port}'}}]}}"
        script = (
            "for (const w of [window, document.body.appendChild("
            "document.createElement('iframe')).contentWindow]) {"
            f" try {{ const pc = new w.RTCPeerConnection({stun}); pc.createDataChannel('x');"
            " pc.createOffer().then(o => pc.setLocalDescription(o)); } catch (e) {} }"
        )
        page_server.set_page("/rtc", f"<html><body><p>{QUOTE}</p><script>{script}</script>")
        said = claimledger("verify", "--allow-private", "--browser", page_server.url("/rtc"), QUOTE)
        assert said.stdout.startswith("verified")
        listener.setblocking(False)
        with pytest.raises(BlockingIOError):  # sent while the page was read, if ever
            listener.recvfrom(2048)


def test_a_page_whose_script_sends_the_reader_elsewhere_is_unreadable_not_missing(
    page_server: PageServer,
) -> None:
    """The navigation is not followed, and what the browser is left with is its error page:
    read as the page, the quote was `missing` on a source `ok`."""
    page_server.set_page("/new", f"<html><body><p>{QUOTE}</p></body></html>")
    page_server.set_page("/old", "<html><body><script>location.replace('/new')</script>")
    payload = verified_in_browser(page_server.url("/old"), code=1)
    assert payload["source_status"] == "unreadable"
    assert payload["error"].startswith(f"its script sends the reader to {page_server.url('/new')}")
    assert page_server.hits("/new") == 0


def test_a_page_whose_script_replaces_it_with_a_document_of_its_own_is_unreadable(
    page_server: PageServer,
) -> None:
    """A `blob:` address is navigated to with no request to intercept: its words were read
    as the page's, and the quote called `missing` on a source `ok`."""
    other = "new Blob(['<p>Other words entirely, none about replicas.</p>'], {type: 'text/html'})"
    script = f"location = URL.createObjectURL({other})"
    page_server.set_page("/blob", f"<html><body><p>{QUOTE}</p><script>{script}</script>")
    payload = verified_in_browser(page_server.url("/blob"), code=1)
    assert payload["source_status"] == "unreadable"
    assert payload["error"].startswith("its script replaced the page with another document (blob:)")


def test_a_page_its_scripts_build_past_the_cap_of_any_pages_text_is_unreadable(
    page_server: PageServer,
) -> None:
    """A few bytes of script build any number of bytes of page: the text read (and the
    snapshot stored) was held to none of the caps that hold every body fetched."""
    grow = "document.body.append('word '.repeat(400 * 1024))"  # 2 MiB from 60 bytes
    page_server.set_page("/grown", f"<html><body><p>{QUOTE}</p><script>{grow}</script>")
    policy = FetchPolicy(
        allow_private=True, browser_all=True, max_decompressed=1024 * 1024, per_host_interval=0
    )

    result = fetched(page_server.url("/grown"), policy)
    assert result.source_status == "unreadable"
    assert result.error == f"the page its scripts built is larger than {1024 * 1024} bytes"
    assert result.text is None


def test_a_page_whose_charset_only_its_header_says_keeps_its_letters_in_the_browser(
    page_server: PageServer,
) -> None:
    """The document went to Chromium as UTF-8 bytes with no charset: read as windows-1252,
    "it’s" became "itâ€™s", and a quote verbatim on the page was called drifted."""
    quote = "Each message is stored on three replicas — before it’s acknowledged, café."
    page = f"<html><head><title>Durability</title></head><body><p>{quote}</p></body></html>"
    page_server.set_page("/utf8", page, content_type="text/html; charset=utf-8")
    url = page_server.url("/utf8")
    payload = json.loads(
        claimledger("verify", "--allow-private", "--browser", url, quote, "--json").stdout
    )
    assert (payload["status"], payload["current"]) == ("verified", quote)


def test_a_page_at_an_address_chromium_escapes_is_read_as_itself(
    page_server: PageServer,
) -> None:
    """Chromium asks for `/café` as `/caf%C3%A9` (and a host in capitals in lower case):
    the page's own request was taken for a script sending the reader elsewhere, refused,
    and the page unreadable ("net::ERR_BLOCKED_BY_CLIENT")."""
    page_server.set_page("/caf%C3%A9", f"<html><body><p>{QUOTE}</p></body></html>")
    url = page_server.url("/café").replace("127.0.0.1", "LOCALHOST")
    payload = json.loads(
        claimledger("verify", "--allow-private", "--browser", url, QUOTE, "--json").stdout
    )
    assert (payload["source_status"], payload["status"]) == ("ok", "verified")


def test_a_page_whose_requests_spent_its_bytes_gets_no_more_fetched(
    page_server: PageServer,
) -> None:
    """Past the page's bytes in all, each request was still fetched whole (up to the cap of
    one body), then thrown away: a page made 100 such downloads."""
    page_server.set_page("/chunk.json", "[" + "1," * 200_000 + "1]", content_type="text/json")
    asks = "for (let i = 0; i < 6; i++) await fetch('/chunk.json?' + i).catch(() => 0);"
    script = f"<script>(async () => {{ {asks} }})()</script>"
    page_server.set_page("/hungry", f"<html><body><p>{QUOTE}</p>{script}</body></html>")
    policy = FetchPolicy(
        allow_private=True, browser_all=True, max_body=1024 * 1024, per_host_interval=0
    )
    assert fetched(page_server.url("/hungry"), policy).source_status == "ok"
    asked = [r for r in page_server.requests if r.path.startswith("/chunk.json?")]
    assert len(asked) == 3  # 400 KB each: the third spends the page's 1 MiB


def test_a_page_empty_even_in_the_browser_does_not_send_the_reader_to_the_browser(
    page_server: PageServer,
) -> None:
    shadow = "<div id=h></div><script>document.getElementById('h').attachShadow({mode: 'open'})"
    shadow += f".innerHTML = '<p>{QUOTE}</p>'</script>"
    page_server.set_page("/shadow", f"<html><body>{shadow}</body></html>")
    url = page_server.url("/shadow")
    error = verified_in_browser(url, code=1)["error"]
    assert "even once its scripts ran" in error and "--browser" not in error


def test_ctrl_c_while_a_page_is_read_in_the_browser_says_one_line_and_leaves_nothing(
    page_server: PageServer, request: pytest.FixtureRequest
) -> None:
    """Ctrl-C reaches the whole process group (Chromium and its driver too): the driver's
    cut connection was reported as "Future exception was never retrieved", and Chromium,
    stopped rather than closed, left its temporary folder."""
    url = serve_app(page_server, QUOTE)
    busy = "setInterval(() => fetch('/api/poll.json?' + Date.now()), 50);"
    page_server.set_page("/app.js", APP + busy, content_type="text/javascript")
    page_server.set_page("/api/poll.json", "{}", content_type="application/json")
    scratch = Path(tempfile.mkdtemp(dir="/tmp"))  # short: Chromium puts a socket in it
    request.addfinalizer(lambda: shutil.rmtree(scratch, ignore_errors=True))
    command = [sys.executable, "-m", "claimledger", "verify", "--allow-private", "--browser"]
    with subprocess.Popen(
        [*command, "--deadline", "60", url, QUOTE],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "TMPDIR": str(scratch)},
        start_new_session=True,
    ) as process:
        while not any(r.path.startswith("/api/poll.json?") for r in page_server.requests):
            assert process.poll() is None, process.communicate()
            time.sleep(0.05)
        os.killpg(process.pid, signal.SIGINT)
        stdout, stderr = process.communicate(timeout=60)
    assert (process.returncode, stderr, stdout) == (130, "claimledger: interrupted\n", "")
    assert list(scratch.iterdir()) == []


@pytest.mark.parametrize(("shared", "read"), [(None, False), ("*", True), ("PAGE", True)])
def test_a_script_reads_another_origins_answer_only_as_a_readers_browser_would(
    page_server: PageServer, shared: str | None, read: bool
) -> None:
    """An answer from another origin is handed to the page's script only where its
    Access-Control-Allow-Origin lets the page read it (Playwright adds that header to an
    answer given without one: the page read words a reader's browser never shows)."""
    with PageServer() as other:
        page = page_server.url("/cross")
        origin = page.removesuffix("/cross")
        headers = (
            {}
            if shared is None
            else {"Access-Control-Allow-Origin": origin if shared == "PAGE" else shared}
        )
        other.set_page("/words.json", json.dumps(QUOTE), content_type="application/json",
                       headers=headers)  # fmt: skip
        script = (
            f"fetch('{other.url('/words.json')}').then(r => r.json())"
            ".then(t => { const p = document.createElement('p'); p.textContent = t;"
            " document.body.append(p); }).catch(() => 0)"
        )
        body = f"<html><body><p>The page's own words stand here.</p><script>{script}</script>"
        page_server.set_page("/cross", body)
        policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

        result = fetched(page, policy)

    assert result.source_status == "ok"
    assert (QUOTE in (result.text or "")) == read


@pytest.mark.parametrize(("shared", "read"), [(None, False), ("*", True)])
def test_a_script_reads_another_origins_answer_its_own_address_redirected_to_only_as_cors_allows(
    page_server: PageServer, shared: str | None, read: bool
) -> None:
    """A script's request to its own origin carries no Origin header: one the fetcher
    followed by a redirect to another origin was handed over as the page's own, and the
    quote verified on words a reader's browser keeps from the page."""
    with PageServer() as other:
        headers = {} if shared is None else {"Access-Control-Allow-Origin": shared}
        other.set_page("/words.json", json.dumps(QUOTE), content_type="application/json",
                       headers=headers)  # fmt: skip
        page_server.set_handler("/hop.json", redirect(other.url("/words.json")))
        script = (
            "fetch('/hop.json').then(r => r.json()).then(t => { const p ="
            " document.createElement('p'); p.textContent = t; document.body.append(p); })"
            ".catch(() => 0)"
        )
        body = f"<html><body><p>The page's own words stand here.</p><script>{script}</script>"
        page_server.set_page("/hop", body)
        policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

        result = fetched(page_server.url("/hop"), policy)

        assert other.hits("/words.json") == 1
    assert result.source_status == "ok"
    assert (QUOTE in (result.text or "")) == read


def test_a_mirrors_redirect_back_to_the_real_site_is_the_pages_own_site(
    page_server: PageServer,
) -> None:
    """A page read at its `--map` mirror whose own-site request the mirror redirects to the
    real site (a part the map does not cover) asks its own site, as a reader at the real
    address does: its answer was withheld as another origin's."""
    with PageServer() as mirror:
        page_server.set_page("/v3/words.json", json.dumps(QUOTE), content_type="application/json")
        mirror.set_handler("/v2/hop.json", redirect(page_server.url("/v3/words.json")))
        script = (
            "fetch('/v2/hop.json').then(r => r.json()).then(t => { const p ="
            " document.createElement('p'); p.textContent = t; document.body.append(p); })"
            ".catch(() => 0)"
        )
        mirror.set_page("/v2/page", f"<html><body><p>Own words.</p><script>{script}</script>")
        maps = ((page_server.url("/v2/"), mirror.url("/v2/")),)
        policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0, maps=maps)

        result = fetched(mirror.url("/v2/page"), policy)  # where a refresh asks for it

    assert result.source_status == "ok"
    assert QUOTE in (result.text or "")


def test_refresh_browser_waits_for_what_a_source_names_without_render_browser(
    page_server: PageServer, tmp_path: Path
) -> None:
    """A source naming `wait_for` without `render: browser` is read by `refresh --browser`
    once that selector matches, as it says: the selector was written and then ignored, and
    words a script shows after the network went quiet were called missing."""
    late = "setTimeout(() => { const p = document.createElement('p'); p.id = 'late';"
    late += f" p.textContent = {json.dumps(QUOTE)}; document.body.append(p); }}, 1500)"
    page_server.set_page("/late", f"<html><body><p>Opening words.</p><script>{late}</script>")
    ledger = tmp_path / "claims.yaml"
    text = LEDGER.format(url=page_server.url("/late"), quote=QUOTE)
    ledger.write_text(text.replace("render: browser", "wait_for: '#late'"), encoding="utf-8")

    refreshed = Cli(ledger).json("refresh", "--browser", "--no-as-read", "--allow-private")

    assert [c["status"] for c in refreshed["checks"]] == ["verified"]


def test_a_wait_for_that_never_matches_is_named_at_the_deadline(
    page_server: PageServer, tmp_path: Path
) -> None:
    """A source whose `wait_for` nothing on its page matches ends at the deadline saying
    so, not "no answer" (the server answered at once): the selector is what to mend."""
    page_server.set_page("/quiet", f"<html><body><p>{QUOTE}</p></body></html>")
    ledger = tmp_path / "claims.yaml"
    text = LEDGER.format(url=page_server.url("/quiet"), quote=QUOTE)
    ledger.write_text(text.replace("render: browser", "wait_for: '#never'"), encoding="utf-8")

    refreshed = Cli(ledger).json(
        "refresh", "--browser", "--no-as-read", "--allow-private", "--deadline", "6", code=1
    )

    (source,) = refreshed["sources"]
    assert source["source_status"] == "unreadable"
    assert source["error"] == (
        "read in a browser, nothing on it matched its wait_for '#never' within the 6 s deadline"
    )
    assert [c["status"] for c in refreshed["checks"]] == [None]  # no verdict either way


def test_a_page_whose_script_rewords_it_after_the_network_went_quiet_is_read_as_reworded(
    page_server: PageServer,
) -> None:
    """The text was taken once the network went quiet: a timer that replaced the words a
    moment later left the quote verified on words the reader no longer sees."""
    later = "setTimeout(() => document.getElementById('q').textContent = 'Other words.', 1000)"
    page = f"<html><body><p id=q>{QUOTE}</p><script>{later}</script></body></html>"
    page_server.set_page("/reworded", page)
    policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

    result = fetched(page_server.url("/reworded"), policy)

    assert result.source_status == "ok"
    assert "Other words." in (result.text or "") and QUOTE not in (result.text or "")


def test_a_page_that_reloads_itself_once_while_it_settles_is_read_once_reloaded(
    page_server: PageServer,
) -> None:
    """A reload replaces the document the settling wait runs in: the wait was cut with
    "Execution context was destroyed", and the page called unreadable."""
    once = "if (!sessionStorage.seen) { sessionStorage.seen = 1;"
    once += " setTimeout(() => location.reload(), 1000); }"
    page_server.set_page("/reloads", f"<html><body><p>{QUOTE}</p><script>{once}</script>")
    policy = FetchPolicy(allow_private=True, browser_all=True, per_host_interval=0)

    result = fetched(page_server.url("/reloads"), policy)

    assert (result.source_status, result.error) == ("ok", None)
    assert QUOTE in (result.text or "")


def test_a_page_with_a_live_counter_is_read_as_it_stands_after_the_settling_waits(
    page_server: PageServer,
) -> None:
    """A counter ticking beside the quote never lets the page's text settle: the page was
    unreadable at the deadline, every refresh, though the quote never changed."""
    tick = "let n = 0; setInterval(() => document.getElementById('q').textContent = n++, 200)"
    page = f"<html><body><p>{QUOTE}</p><p id=q></p><script>{tick}</script></body></html>"
    page_server.set_page("/ticking", page)
    payload = json.loads(
        claimledger(
            "verify", "--allow-private", "--browser", "--deadline", "20",
            page_server.url("/ticking"), QUOTE, "--json", code=0,
        ).stdout
    )  # fmt: skip
    assert (payload["source_status"], payload["status"]) == ("ok", "verified")


class ChangingPage:
    """A page whose text is another on every read, counting the waits for it to settle."""

    def __init__(self) -> None:
        self.waits = 0

    async def content(self) -> str:
        return f"<html><body><p>{QUOTE}</p><p>{self.waits}</p>"

    async def evaluate(self, script: str, *args: object) -> None:
        self.waits += 1


def test_a_page_that_keeps_changing_is_read_after_the_most_settling_waits() -> None:
    from claimledger.web.browser import SETTLE_WAITS, BrowserReader

    page = ChangingPage()
    changes: list[None] = []
    content = asyncio.run(BrowserReader(FetchPolicy())._settled(page, lambda: changes.append(None)))
    assert page.waits == SETTLE_WAITS == len(changes)
    assert f"<p>{SETTLE_WAITS}</p>" in content  # as it stood at the last read


def test_a_source_read_in_the_browser_is_so_however_its_address_is_spelled() -> None:
    """`add --url https://EXAMPLE.com:443/app/` reaches the source `render: browser` names
    `https://example.com/app` (as its `select` does), and read it over plain HTTP."""
    from claimledger.web.browser import browser_reading

    policy = FetchPolicy(browser_pages=(("https://example.com/app", "main"),))

    assert browser_reading(policy, "https://EXAMPLE.com:443/app/") == (True, "main")
    assert browser_reading(policy, "https://example.com/other") == (False, None)


class StillPage:
    """A page whose content is always the same, counting the waits for it to settle."""

    def __init__(self) -> None:
        self.waits = 0

    async def content(self) -> str:
        return f"<html><body><p>{QUOTE}</p><p class='spinner' style='x: {self.waits}'></p>"

    async def evaluate(self, script: str, *args: object) -> None:
        self.waits += 1


class ReloadingPage:
    """A page that reloads itself four times, each before a second is out, then holds."""

    def __init__(self) -> None:
        self.reloads = 0
        self.waits = 0

    async def content(self) -> str:
        return f"<html><body><p>{QUOTE}</p></body></html>"

    async def evaluate(self, script: str, *args: object) -> None:
        from playwright.async_api import Error

        if self.reloads < 4:
            self.reloads += 1
            raise Error("Execution context was destroyed, most likely because of a navigation")
        self.waits += 1


def test_reloads_use_up_no_settling_wait() -> None:
    """Each reload counted as a settling wait: a page that reloaded four times was read
    straight after the last, its text never compared."""
    from claimledger.web.browser import BrowserReader

    page = ReloadingPage()
    asyncio.run(BrowserReader(FetchPolicy())._settled(page, lambda: None))
    assert (page.reloads, page.waits) == (4, 1)


def test_a_page_that_does_not_change_is_read_after_one_settling_wait() -> None:
    from claimledger.web.browser import BrowserReader

    page = StillPage()
    reader = BrowserReader(FetchPolicy())
    content = asyncio.run(reader._settled(page, lambda: None))
    assert QUOTE in content
    assert page.waits == 1  # a restyled element is no change of its text


def test_a_wait_for_the_browser_refuses_is_named_in_one_line(page_server: PageServer) -> None:
    """A `wait_for` Chromium refuses (`check` refuses those it knows of; a newer draft's
    pseudo-class is another): the user read "Page.wait_for_selector: SyntaxError: Failed
    to execute 'querySelectorAll' on 'Document'…", Playwright's words, not which setting to
    mend."""
    page_server.set_page("/plain", f"<html><body><p>{QUOTE}</p></body></html>")
    url = page_server.url("/plain")
    policy = FetchPolicy(allow_private=True, browser_pages=((url, "#1a"),), per_host_interval=0)

    result = fetched(url, policy)

    assert result.source_status == "unreadable"
    assert result.error == "its wait_for '#1a' is not a selector the browser accepts"


@pytest.mark.parametrize(
    ("said", "meant"),
    [
        ("Page.goto: Page crashed", "the page crashed in the browser (perhaps out of memory)"),
        (
            "Page.evaluate: Target crashed ",
            "the page crashed in the browser (perhaps out of memory)",
        ),
        (
            "BrowserContext.new_page: Target page, context or browser has been closed\nlogs",
            "the browser closed while the page was read",
        ),
        (
            "Page.goto: net::ERR_ABORTED at http://127.0.0.1/x\nCall log:",
            "the browser could not read it: net::ERR_ABORTED at http://127.0.0.1/x",
        ),
    ],
)
def test_a_browsers_failure_is_said_in_the_products_words(said: str, meant: str) -> None:
    """A page that ate the renderer's memory read "Page.goto: Page crashed"; Chromium gone
    mid-read, "BrowserContext.new_page: Target page, context or browser has been closed"."""
    from claimledger.web.browser import _in_our_words

    assert _in_our_words(said, None) == meant


def chromium_killed() -> None:
    """Kill the Chromium this process drove (its browser process, whose parent is no
    Chromium), as the kernel's out-of-memory killer would."""
    parents = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError):
            pid, rest = stat.read_text().split(" (", 1)
            name, fields = rest.rsplit(") ", 1)
            parents[int(pid)] = (name, int(fields.split()[1]))
    ours = {os.getpid()}
    while grown := {p for p, (_, parent) in parents.items() if parent in ours} - ours:
        ours |= grown
    browsers = [
        pid
        for pid in ours
        if parents.get(pid, ("", 0))[0].startswith("chrom")
        and not parents.get(parents[pid][1], ("", 0))[0].startswith("chrom")
    ]
    assert browsers, "no Chromium of ours is running"
    for browser in browsers:
        os.kill(browser, signal.SIGKILL)


def test_a_browser_killed_mid_run_is_started_again_once_then_the_rest_is_unreadable() -> None:
    """Chromium killed since an earlier page (out of memory): every later page of the run
    was unreadable, "the browser closed while the page was read". It is started again
    once; killed a second time, the rest is unreadable, in one line."""
    from claimledger.errors import PageUnreadable
    from claimledger.web.browser import BrowserReader

    async def fetch(url: str) -> Any:
        raise AssertionError(f"nothing is asked of {url}")

    async def killed(reader: BrowserReader) -> None:
        gone = asyncio.Event()
        reader._browser.on("disconnected", lambda _: gone.set())
        chromium_killed()
        await gone.wait()

    async def read_thrice() -> tuple[str, str]:
        reader = BrowserReader(FetchPolicy(allow_private=True, browser_all=True))
        page = f"<html><body><p>{QUOTE}</p></body></html>"
        try:
            assert QUOTE in await reader.render("http://127.0.0.1:9/one", page, None, fetch)
            await killed(reader)
            again = await reader.render("http://127.0.0.1:9/two", page, None, fetch)
            await killed(reader)
            with pytest.raises(PageUnreadable) as unread:
                await reader.render("http://127.0.0.1:9/three", page, None, fetch)
            return again, str(unread.value)
        finally:
            await reader.close()

    again, unread = asyncio.run(read_thrice())
    assert QUOTE in again
    assert unread == (
        "the browser closed twice in this run (killed, or out of memory), and is not started again"
    )


def test_a_redirect_onto_a_browser_source_is_read_in_the_browser(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`add --url` of an address that redirects for good to a `render: browser` source
    joins it: a sentence its script removes, read over plain HTTP, was recorded verified,
    and the next refresh found it missing."""
    removed = "This retention promise lasts exactly seven days."
    page_server.set_page(
        "/app",
        f"<html><body><main><p>{QUOTE}</p><p id='x'>{removed}</p></main>"
        "<script>document.getElementById('x').remove()</script></body></html>",
    )
    page_server.set_handler("/old-app", redirect("/app", 301))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/app"), quote=QUOTE), encoding="utf-8")
    old = page_server.url("/old-app")

    refused = Cli(ledger)(
        "add", "kept", "--url", old, "--quote", removed, "--allow-private", code=2
    )

    assert "is missing" in refused.stderr
    assert list(load(ledger).sources) == ["app"]
