"""`refresh --save`: each page read is handed to a web archive's Save Page Now, once, and
the snapshot it names is kept. A loopback archive answers as the Wayback Machine does (a
Content-Location, or a redirect to /web/<timestamp>/<url>), and says 429 with Retry-After
first: the wait asked for is what the fetcher waits, read from the sleep it asks for,
never from the clock."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from claimledger.preserve import plan_saves, snapshot_of
from claimledger.records import FetchResult, SavedSnapshot, SourceStatus
from cli_runner import Cli
from evidence_site import serve_v1, write_ledger
from webserver import Page, PageServer, redirect, sequence

STAMP = "20260823120000"


@pytest.fixture
def archive() -> Iterator[PageServer]:
    with PageServer() as server:
        yield server
    assert server.errors == []


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


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


def answer_as_the_wayback_machine(archive: PageServer, server: PageServer) -> None:
    """/guide: 429 with Retry-After first, then a Content-Location; /mirror and /other: a
    redirect to the snapshot."""
    guide = server.url("/guide")
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
        page = server.url(path)
        archive.set_handler(save_path(page), redirect(f"/web/{STAMP}/{page}", 302))


def test_save_asks_the_archive_for_each_page_and_keeps_the_snapshot(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive, page_server)
    result = cli("refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0)
    for path in ("/guide", "/mirror", "/other"):
        page = page_server.url(path)
        assert f"saved {page} in the web archive: {snapshot(archive, page)}" in result.stdout
        assert archive.hits(save_path(page)) == (2 if path == "/guide" else 1)
    assert 7.0 in waits  # the Retry-After of the 429, waited out by the fetcher
    assert archive.hits(f"/web/{STAMP}/{page_server.url('/mirror')}") == 0  # not followed
    assert all(r.headers["user-agent"].startswith("claimledger/") for r in archive.requests)

    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0
    )
    again = {s["url"]: s for s in report["saved"]}
    assert set(again) == {page_server.url(p) for p in ("/guide", "/mirror", "/other")}
    for url, saved in again.items():  # the archive holds these very texts already
        assert (saved["asked"], saved["snapshot_url"]) == (False, snapshot(archive, url))
        assert saved["saved_at"] is not None
    assert archive.hits(save_path(page_server.url("/mirror"))) == 1  # not asked again


def test_a_changed_page_is_saved_again(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive, page_server)
    cli("refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0)
    page_server.set_page("/other", "<main><p>Something else entirely now.</p></main>")
    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=1
    )
    asked = {s["url"] for s in report["saved"] if s["asked"]}
    assert asked == {page_server.url("/other")}
    assert archive.hits(save_path(page_server.url("/other"))) == 2


def test_without_save_nothing_is_sent_to_the_archive(
    cli: Cli, ledger: Path, page_server: PageServer, archive: PageServer
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive, page_server)
    (ledger.parent / "claimledger.toml").write_text(
        f'archive = "{archive.url("")}"\n', encoding="utf-8"
    )
    result = cli("refresh", "--allow-private", code=0)
    assert "saved" not in result.stdout
    report: dict[str, Any] = cli.json("refresh", "--allow-private", code=0)
    assert report["saved"] == []
    assert [r.path for r in archive.requests if r.path.startswith("/save/")] == []


def test_the_archive_of_the_settings_file_is_the_one_asked(
    cli: Cli, ledger: Path, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    answer_as_the_wayback_machine(archive, page_server)
    (ledger.parent / "claimledger.toml").write_text(
        f'archive = "{archive.url("/")}"\n', encoding="utf-8"
    )
    result = cli("refresh", "--allow-private", "--save", code=0)
    assert result.stdout.count("in the web archive: ") == 3


def test_an_archive_that_names_no_snapshot_or_keeps_saying_slow_down(
    cli: Cli, page_server: PageServer, archive: PageServer, waits: list[float]
) -> None:
    serve_v1(page_server)
    archive.set_page(save_path(page_server.url("/guide")), "saving...", content_type="text/html")
    for path in ("/mirror", "/other"):  # more than the fetcher waits: the archive is asked no more
        archive.set_page(
            save_path(page_server.url(path)), "no", status=429, headers={"Retry-After": "3600"}
        )
    report: dict[str, Any] = cli.json(
        "refresh", "--allow-private", "--save", "--archive", archive.url(""), code=0
    )
    saved = {s["url"]: s for s in report["saved"]}
    guide = saved[page_server.url("/guide")]
    assert (guide["snapshot_url"], guide["http_status"]) == (None, 200)
    assert guide["error"] == "the archive answered HTTP 200 without naming a snapshot"
    slowed = [saved[page_server.url(path)] for path in ("/mirror", "/other")]
    assert sorted(s["error"].split(";")[0] for s in slowed) == [
        "HTTP 429 Too Many Requests",
        "not asked: the archive asked us to slow down (HTTP 429)",
    ]
    assert 3600 not in waits
    assert len([r for r in archive.requests if r.path.startswith("/save/")]) == 2


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
