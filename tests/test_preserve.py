"""`refresh --save`: each page read is handed to a web archive's Save Page Now, once, and
the snapshot it names is kept. A loopback archive answers as the Wayback Machine does (a
Content-Location, or a redirect to /web/<timestamp>/<url>), and says 429 with Retry-After
first: the wait asked for is what the fetcher waits, read from the sleep it asks for,
never from the clock.

Only a public address is ever sent. The ledger names its pages on a public site
(`PUBLIC`, which the loopback name server resolves to a public address, never connected
to) and reads them from the page server through `map`: the archive is sent the ledger's
address, never the copy's, nor a loopback, private or unresolvable one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from archive_server import WebArchive
from claimledger.evidence.preserve import plan_saves, snapshot_of
from claimledger.records import FetchResult, SavedSnapshot, SourceStatus
from cli_runner import Cli
from dns_server import NameServer
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import Page, PageServer, redirect, sequence

STAMP = "20260823120000"
PUBLIC = "https://docs.vendor.dev"
"""Where the ledger says its pages are: a public site, read from the page server."""


@pytest.fixture
def archive() -> Iterator[PageServer]:
    with PageServer() as server:
        yield server
    assert server.errors == []


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer, system_dns: NameServer) -> Path:
    """The evidence ledger, its pages named on `PUBLIC` and read from the page server."""
    system_dns.script("docs.vendor.dev", ["93.184.215.14"])
    ledger = write_ledger(tmp_path, page_server)
    text = ledger.read_text("utf-8").replace(page_server.url(""), PUBLIC)
    ledger.write_text(text, encoding="utf-8")
    settings(ledger, page_server)
    return ledger


def settings(ledger: Path, server: PageServer, more: str = "") -> None:
    """claimledger.toml: `PUBLIC` read from `server`, and `more`; the author's own, so
    trusted."""
    (ledger.parent / "claimledger.toml").write_text(
        f'map = {{ "{PUBLIC}/" = "{server.url("/")}" }}\n{more}', encoding="utf-8"
    )
    Cli(ledger)("trust")


def public(path: str) -> str:
    return f"{PUBLIC}{path}"


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


@pytest.fixture
def waits(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every sleep asked for, answered at once: what the fetcher waits, not how long."""
    asked: list[float] = []
    real = asyncio.sleep

    async def sleep(seconds: float, result: Any = None) -> Any:
        asked.append(seconds)
        return await real(0, result)

    monkeypatch.setattr(asyncio, "sleep", sleep)
    return asked


def save_path(page: str) -> str:
    return f"/save/{page}"


def snapshot(archive: PageServer, page: str) -> str:
    return archive.url(f"/web/{STAMP}/{page}")


def answer_as_the_wayback_machine(archive: PageServer) -> None:
    """/guide: 429 with Retry-After first, then a Content-Location; /mirror and /other: a
    redirect to the snapshot."""
    guide = public("/guide")
    archive.set_handler(
        save_path(guide),
        sequence(
            Page(b"slow down", 429, {"Retry-After": "7", "Content-Type": "text/plain"}),
            Page(
                b"<html>the snapshot, with a toolbar</html>",
                200,
                {"Content-Type": "text/html", "Content-Location": f"/web/{STAMP}/{guide}"},
            ),
        ),
    )
    for path in ("/mirror", "/other"):
        page = public(path)
        archive.set_handler(save_path(page), redirect(f"/web/{STAMP}/{page}", 302))


def test_save_asks_the_archive_for_each_page_and_keeps_the_snapshot(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive)
    result = cli("refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0)
    for path in ("/guide", "/mirror", "/other"):
        page = public(path)
        assert f"saved {page} in the web archive: {snapshot(archive, page)}" in result.stdout
        assert archive.hits(save_path(page)) == (2 if path == "/guide" else 1)
    assert 7.0 in waits  # the Retry-After of the 429, waited out by the fetcher
    assert archive.hits(f"/web/{STAMP}/{public('/mirror')}") == 0  # not followed
    assert all(r.headers["user-agent"].startswith("claimledger/") for r in archive.requests)

    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0
    )
    again = {s["url"]: s for s in report["saved"]}
    assert set(again) == {public(p) for p in ("/guide", "/mirror", "/other")}
    for url, saved in again.items():  # the archive holds these very texts already
        assert (saved["asked"], saved["snapshot_url"]) == (False, snapshot(archive, url))
        assert saved["saved_at"] is not None
    assert archive.hits(save_path(public("/mirror"))) == 1  # not asked again


def test_a_changed_page_is_saved_again(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive)
    cli("refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0)
    page_server.set_page("/other", "<main><p>Something else entirely now.</p></main>")
    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=1
    )
    asked = {s["url"] for s in report["saved"] if s["asked"]}
    assert asked == {public("/other")}
    assert archive.hits(save_path(public("/other"))) == 2


def test_without_save_nothing_is_sent_to_the_archive(
    cli: Cli, ledger: Path, page_server: PageServer, archive: PageServer
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive)
    settings(ledger, page_server, f'archive = "{archive.url("")}"\n')
    result = cli("refresh", "--allow-private", code=0)
    assert "saved" not in result.stdout
    report: dict[str, Any] = cli.json("refresh", "--allow-private", code=0)
    assert report["saved"] == []
    assert [r.path for r in archive.requests if r.path.startswith("/save/")] == []


def test_the_archive_of_the_settings_file_is_the_one_asked(
    cli: Cli, ledger: Path, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive)
    settings(ledger, page_server, f'archive = "{archive.url("/")}"\n')
    result = cli("refresh", "--allow-private", "--save", code=0)
    assert result.stdout.count("in the web archive: ") == 3


def test_an_archive_that_names_no_snapshot_or_keeps_saying_slow_down(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    archive.set_page(save_path(public("/guide")), "saving...", content_type="text/html")
    for path in ("/mirror", "/other"):  # more than the fetcher waits: the archive is asked no more
        archive.set_page(save_path(public(path)), "no", status=429, headers={"Retry-After": "3600"})
    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0
    )
    saved = {s["url"]: s for s in report["saved"]}
    guide = saved[public("/guide")]
    assert (guide["snapshot_url"], guide["http_status"]) == (None, 200)
    assert guide["error"] == "the archive answered HTTP 200 without naming a snapshot"
    slowed = [saved[public(path)] for path in ("/mirror", "/other")]
    assert sorted(s["error"].split(";")[0] for s in slowed) == [
        "HTTP 429 Too Many Requests",
        "not asked: the archive asked us to slow down (HTTP 429)",
    ]
    assert 3600 not in waits
    assert len([r for r in archive.requests if r.path.startswith("/save/")]) == 2


def test_only_the_public_address_the_ledger_names_is_ever_sent(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer
) -> None:
    """The guide, named on a public site and read from the local copy, is saved by its
    public address, never the copy's; the mirror, named by a loopback address, is not
    sent; nor a page on an intranet name (one of its addresses is private), nor one whose
    name does not resolve, nor the local address a page moved to."""
    serve_v1(page_server)
    system_dns.script("docs.vendor.dev", ["93.184.215.14"])
    system_dns.script("wiki.vendor.dev", ["93.184.215.14", "10.20.30.40"])
    system_dns.script("gone.vendor.dev", "SERVFAIL")
    system_dns.script("localhost", ["127.0.0.1"])
    ledger = write_ledger(tmp_path, page_server)
    named = {"/guide": public("/guide"), "/other": "https://wiki.vendor.dev/other"}
    text = ledger.read_text("utf-8")
    for path, url in named.items():
        text = text.replace(page_server.url(path), url)
    ledger.write_text(text, encoding="utf-8")
    (ledger.parent / "claimledger.toml").write_text(
        f'map = {{ "{PUBLIC}/" = "{page_server.url("/")}", '
        f'"https://wiki.vendor.dev/" = "{page_server.url("/")}", '
        f'"https://gone.vendor.dev/" = "{page_server.url("/")}" }}\n'
        'headers = { "X-Reader" = "ledger" }\n',
        encoding="utf-8",
    )
    Cli(ledger)("trust")
    with PageServer() as server:
        archive = WebArchive(server)
        archive.take_saves(public("/guide"))
        base = archive.base

        def save(code: int) -> dict[str, str]:
            """What each page not sent is said to be, by its address."""
            report = Cli(ledger).json(
                "refresh", "--allow-private", "--save", "--archive", base, code=code
            )
            return {s["url"]: s["error"] for s in report["saved"] if not s["asked"]}

        assert save(code=0) == {
            page_server.url("/mirror"): "not public: not the address of a public site",
            "https://wiki.vendor.dev/other": (
                "not public: wiki.vendor.dev is a private or local address"
            ),
        }
        assert archive.saves_asked() == [public("/guide")]
        assert [r.path for r in server.requests if "/web/" in r.path] == []  # never read

        local = page_server.url("/alarms", host="localhost")
        page_server.set_handler("/guide", redirect(local, 301))
        page_server.set_page("/alarms", page(ALARM, DURABLE))  # the guide's quote is there
        ledger.write_text(text.replace("wiki.vendor.dev", "gone.vendor.dev"), encoding="utf-8")
        withheld = save(code=1)
        assert withheld[local] == "not public: not the address of a public site"
        assert withheld["https://gone.vendor.dev/other"] == (
            "not public: cannot resolve gone.vendor.dev: SERVFAIL"
        )
        assert archive.saves_asked() == [public("/guide")]  # still the one
        assert all("x-reader" not in r.headers for r in server.requests)


def test_a_page_is_saved_at_its_new_address_and_a_secret_is_never_sent() -> None:
    def fetch(url: str, status: SourceStatus = "ok", moved_to: str | None = None) -> FetchResult:
        return FetchResult(
            url, moved_to or url, 200, status, (), moved_to, None, None, "text/html", None,
            False, None, 1, 0.0, None,
        )  # fmt: skip

    read = [
        (fetch("https://a.test/x#part"), "h1"),
        (fetch("https://a.test/x"), "h2"),  # one page, read through two selectors: once
        (fetch("https://a.test/old", "moved", "https://a.test/new"), "h3"),
        (fetch("https://a.test/gone", "gone"), None),
        (fetch("https://a.test/p?token=s3cret"), "h4"),
        (fetch("https://a.test/same"), "h5"),
    ]
    same = "https://a.test/same"
    earlier = {same: SavedSnapshot(same, "a", "s", 200, None, "h5")}
    to_save, unchanged, secret = plan_saves(read, earlier)
    assert [(p.url, p.snapshot_hash) for p in to_save] == [
        ("https://a.test/new", "h3"),
        ("https://a.test/x", "h1"),
    ]
    assert [s.url for s in unchanged] == ["https://a.test/same"]
    assert secret == ["https://a.test/p?token=s3cret"]


def test_only_a_snapshot_on_the_archive_is_taken_for_one() -> None:
    def answer(status: int, **fields: Any) -> FetchResult:
        base: dict[str, Any] = {
            "url": "https://archive.test/save/https://a.test/x",
            "final_url": "https://archive.test/save/https://a.test/x",
            "http_status": status,
            "source_status": "ok",
            "redirects": (),
            "moved_to": None,
            "etag": None,
            "last_modified": None,
            "content_type": None,
            "text": None,
            "not_modified": False,
            "error": None,
            "attempts": 1,
            "elapsed": 0.0,
            "line_range": None,
        }
        return FetchResult(**{**base, **fields})

    archive = "https://archive.test"
    named = answer(200, content_location="/web/20260101000000/https://a.test/x")
    assert snapshot_of(named, archive) == (
        "https://archive.test/web/20260101000000/https://a.test/x",
        None,
    )
    elsewhere = answer(200, content_location="https://evil.test/web/20260101000000/x")
    assert snapshot_of(elsewhere, archive)[0] is None
    under = "https://archive.test/wayback/web/20260101000000/https://a.test/x"
    assert snapshot_of(answer(200, content_location=under), f"{archive}/wayback/") == (under, None)
    assert snapshot_of(named, f"{archive}/wayback")[0] is None  # not under the archive's base
    assert snapshot_of(answer(502, source_status="unreachable", error="HTTP 502"), archive) == (
        None,
        "HTTP 502",
    )
