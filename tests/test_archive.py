"""As read: every quote checked on the web archive's copy of the reading day.

A loopback web archive (`archive_server.WebArchive`: the availability, CDX and `id_`
endpoints) holds two captures of a page at different dates, the one nearest the
ledger's `date_read` with a misquote; the real CLI refreshes a ledger against it and
the live page, both on 127.0.0.1. Nothing here reaches the internet: the default public
archive is never asked about a loopback page, and the tests that show so point it at a
loopback server that counts what it is asked.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import json
import string
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import claimledger.evidence.archive as archive_module
import claimledger.web.fetch as fetch_module
from archive_server import WebArchive
from claimledger.errors import InputError
from claimledger.evidence.archive import (
    Capture,
    archive_settings,
    captured_at,
    nearest,
    parse_availability,
    parse_cdx,
    same_page,
    snapshot_parts,
)
from claimledger.evidence.asread import check_as_read
from claimledger.evidence.refresh import plan
from claimledger.evidence.store import EvidenceStore
from claimledger.grading.rules import regrade
from claimledger.ledger.config import Config
from claimledger.ledger.file import load
from claimledger.ledger.model import parse
from claimledger.ledger.vocabulary import Grade
from claimledger.records import (
    DEFAULT_POLICY,
    ArchiveLookup,
    AsReadCheck,
    CheckRecord,
    CheckStatus,
)
from claimledger.urls import names_public_site
from claimledger.web.fetch import make_client
from cli_runner import Cli
from evidence_site import page
from webserver import Exchange, PageServer, redirect

QUOTE = "Every write is acknowledged only after it reaches two replicas."
MISQUOTE = "Every write is acknowledged only after it reaches a replica."
OTHER = "Reads are served from the nearest replica."

EARLY = "20260801101500"  # three weeks before the reading: the quote verbatim
NEAR = "20260821093000"  # two days before: the page words it otherwise
FAR = "20260101000000"  # months before: outside the 30-day window

LEDGER = string.Template("""\
# A ledger read on 2026-08-23.
ledger: 1
title: As read
date_read: 2026-08-23

sections:
  - id: main
    title: Main

sources:
  docs:
    url: "$docs"
    title: Docs
    kind: docs
    publisher: p
  other: {url: "$other", title: Other, kind: docs, publisher: q}

claims:
  - id: replicas
    section: main
    title: Two replicas
    kind: guarantee
    statement: A write is on two replicas before it is acknowledged.
    quotes:
      - text: "$quote"
        sources: [docs]
    grades:
      - {on: the documentation says this, grade: DEMONSTRATED, basis: quotes}

  - id: nearest
    section: main
    title: Nearest replica
    kind: guarantee
    statement: Reads come from the nearest replica.
    quotes:
      - text: "$other_quote"
        sources: [other]
    grades:
      - {on: the documentation says this, grade: CLAIMED, basis: quotes}
""")


@pytest.fixture
def archive(page_server: PageServer) -> WebArchive:
    return WebArchive(page_server)


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_text(
        LEDGER.substitute(
            docs=page_server.url("/docs"),
            other=page_server.url("/other"),
            quote=QUOTE,
            other_quote=OTHER,
        ),
        encoding="utf-8",
    )
    return path


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def serve(page_server: PageServer, archive: WebArchive) -> None:
    """The live pages (the misquoted words still there), and the archive's captures."""
    page_server.set_page("/docs", page(MISQUOTE))
    page_server.set_page("/other", page(OTHER))
    docs, other = page_server.url("/docs"), page_server.url("/other")
    archive.add(docs, EARLY, page(QUOTE), toolbar_words=QUOTE)
    archive.add(docs, NEAR, page(MISQUOTE), toolbar_words=QUOTE)
    archive.add(other, NEAR, page(OTHER))


def refresh(cli: Cli, archive: WebArchive, *more: str, code: int = 1) -> Any:
    return cli.json("refresh", "--allow-private", "--archive", archive.base, *more, code=code)


def as_read(report: Any) -> dict[str, dict[str, Any]]:
    """claim id -> its as-read check, from `refresh --json` or `status --json`."""
    return {check["claim_id"]: check for check in report["as_read"]["checks"]}


# --------------------------------------------------------------------------- the archive's API


def test_cdx_rows_are_read_by_their_header_and_only_200s_kept() -> None:
    text = (
        '[["timestamp","original","statuscode"],'
        '["20260821093000","https://a.example/x","200"],'
        '["20260822000000","https://a.example/x","301"]]'
    )
    assert parse_cdx(text) == [Capture("20260821093000", "https://a.example/x")]
    assert parse_cdx("[]") == parse_cdx("") == []
    with pytest.raises(ValueError):
        parse_cdx('[["urlkey"],["x"]]')


def test_the_availability_answer_names_its_capture() -> None:
    text = (
        '{"archived_snapshots": {"closest": {"available": true, "status": "200", '
        '"timestamp": "20130919044612", '
        '"url": "http://web.archive.org/web/20130919044612/http://example.com/"}}}'
    )
    assert parse_availability(text) == [Capture("20130919044612", "http://example.com/")]
    assert parse_availability('{"archived_snapshots": {}}') == []


def test_two_captures_taken_at_one_second_are_no_error() -> None:
    """The archive lists a page's http and https copies taken in the same second; the
    tie was settled by comparing the captures, which cannot be ordered: an internal
    error. The first listed is chosen."""
    day = dt.date(2026, 8, 23)
    http, https = Capture(NEAR, "http://a.test/p"), Capture(NEAR, "https://a.test/p")
    assert nearest([http, https], day, 30) == http
    assert nearest([https, http], day, 30) == https


def test_the_capture_nearest_the_reading_day_is_chosen_within_the_window() -> None:
    day = dt.date(2026, 8, 23)
    captures = [Capture(EARLY, "u"), Capture(NEAR, "u"), Capture("20260825", "u")]
    # taken by the day's end first, though one after is nearer (2 days against 2.1): a
    # copy from after may carry a change made after the reading
    assert nearest(captures, day, 30) == Capture(NEAR, "u")
    assert nearest([Capture("20260823180000", "u"), Capture(NEAR, "u")], day, 30) == Capture(
        "20260823180000", "u"
    )  # the day itself, its evening too
    assert nearest([Capture("20260825", "u"), Capture("20260901", "u")], day, 30) == Capture(
        "20260825", "u"
    )  # none before: the nearest after
    assert nearest([Capture(EARLY, "u"), Capture(NEAR, "u")], day, 30) == Capture(NEAR, "u")
    assert nearest([Capture("20260724000000", "u")], day, 30) is not None  # day - 30
    assert nearest([Capture("20260723235959", "u")], day, 30) is None
    assert nearest([Capture("20260922235959", "u")], day, 30) is not None
    assert nearest([Capture("20260923000000", "u")], day, 30) is None  # day + 31
    assert nearest([Capture(FAR, "u")], day, 30) is None
    assert nearest([Capture(FAR, "u")], day, 365) == Capture(FAR, "u")
    assert nearest([Capture("2026x", "u")], day, 30) is None  # not a timestamp: no capture


@pytest.mark.parametrize(
    ("original", "same"),
    [
        ("http://www.docs.example.com:80/guide/", True),  # as the archive lists old captures
        ("https://docs.example.com:443/guide", True),
        ("http://docs.example.com:443/guide", False),  # not http's own port
        ("https://docs.example.com:8443/guide", False),
    ],
)
def test_a_capture_listed_with_its_schemes_own_port_is_the_page(original: str, same: bool) -> None:
    """The CDX server lists many an http capture as `http://host:80/page`: each was taken
    for another page, and the reading day's copy was said to be none within the window."""
    assert same_page(original, "https://docs.example.com/guide") is same


def test_capture_addresses_and_times_are_read_in_either_form() -> None:
    assert snapshot_parts(
        "https://web.archive.org/web/20260821093000id_/https://a.example/x?y=1"
    ) == (
        "20260821093000",
        "https://a.example/x?y=1",
    )
    assert snapshot_parts("https://web.archive.org/web/2026/https://a.example/") == (
        "2026",
        "https://a.example/",
    )
    assert snapshot_parts("https://web.archive.org/about") is None
    assert captured_at("2026") == dt.datetime(2026, 1, 1, tzinfo=dt.UTC)
    assert captured_at(NEAR) == dt.datetime(2026, 8, 21, 9, 30, tzinfo=dt.UTC)


def test_the_archive_is_the_options_then_the_settings_then_the_default() -> None:
    assert archive_settings(Config()).base == "https://web.archive.org"
    assert not archive_settings(Config()).explicit
    chosen = archive_settings(Config(archive="http://127.0.0.1:9/a/", archive_window=7))
    assert (chosen.base, chosen.window_days, chosen.explicit) == ("http://127.0.0.1:9/a", 7, True)
    assert archive_settings(Config(archive="http://x.test"), "http://y.test", 3).base == (
        "http://y.test"
    )
    with pytest.raises(InputError, match="not an http"):
        archive_settings(Config(), "ftp://x")


@pytest.mark.parametrize(
    ("url", "public"),
    [
        ("https://developers.cloudflare.com/x", True),
        ("http://127.0.0.1:8000/x", False),
        ("http://localhost:8000/x", False),
        ("http://[::1]/x", False),
        ("http://10.0.0.2/x", False),
        ("https://docs.example.com/x", False),
        ("https://a.test/x", False),
        ("https://printer.local/x", False),
        ("https://8.8.8.8/x", True),
        ("https://2130706433:8443/x", False),  # 127.0.0.1, as curl, git and browsers read it
        ("https://127.1/x", False),
        ("https://0x7f000001/x", False),
        ("https://017700000001/x", False),
        ("https://0x0a.1/x", False),  # 10.0.0.1
        ("https://134744072/x", True),  # 8.8.8.8
        ("https://999.1/x", False),  # no address at all
        ("https://123.vendor.net/x", True),  # a name: its last label is a word
    ],
)
def test_only_a_public_site_is_looked_up_in_the_default_archive(url: str, public: bool) -> None:
    assert names_public_site(url) is public


# --------------------------------------------------------------------------- refresh


def test_the_capture_nearest_date_read_is_read_raw_and_the_misquote_is_named(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)

    report = refresh(cli, archive)
    text = cli("refresh", "--allow-private", "--archive", archive.base, code=1).stdout

    check = as_read(report)["replicas"]
    assert (check["status"], check["timestamp"], check["misquoted"]) == ("drifted", NEAR, True)
    assert check["current"] == MISQUOTE  # the copy's own words, not the toolbar's
    assert check["snapshot_url"] == f"{archive.base}/web/{NEAR}/{page_server.url('/docs')}"
    assert as_read(report)["nearest"]["status"] == "verified"
    assert archive.asked("toolbar") == []  # only the raw (id_) form was read
    assert "misquoted at reading time: replicas #1 on docs (drifted on the capture of 20260821" in (
        " ".join(text.split())
    )


def test_the_archive_is_asked_once_per_page_and_not_at_all_on_the_next_run(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)

    refresh(cli, archive)
    first = (len(archive.asked("cdx")), len(archive.asked("id_")), len(archive.asked("available")))
    page_server.clear_requests()
    again = refresh(cli, archive)
    text = cli("refresh", "--allow-private", "--archive", archive.base, code=1).stdout

    assert first == (2, 2, 0)  # one lookup and one copy per page
    assert archive.hits == 0  # the answers and the copies are kept
    assert (again["as_read"]["lookups_asked"], again["as_read"]["copies_read"]) == (0, 0)
    assert as_read(again)["replicas"]["status"] == "drifted"
    assert "kept from an earlier run" in text


def test_an_archive_named_with_its_host_in_capitals_keeps_its_answers_for_either_spelling(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """`--archive HTTP://LOCALHOST:…` is the archive `http://localhost:…` is: what it
    answered one run is kept for the next, however the next names it."""
    serve(page_server, archive)
    shouted = archive.base.replace("http://127.0.0.1", "HTTP://LOCALHOST")
    first = cli.json("refresh", "--allow-private", "--archive", shouted, code=1)
    assert first["as_read"]["lookups_asked"] == 2

    page_server.clear_requests()
    quiet = archive.base.replace("127.0.0.1", "localhost")
    again = cli.json("refresh", "--allow-private", "--archive", quiet, code=1)

    assert archive.hits == 0
    assert (again["as_read"]["lookups_asked"], again["as_read"]["copies_read"]) == (0, 0)
    assert as_read(again)["replicas"]["status"] == "drifted"


def test_a_429_from_the_archive_is_waited_out_as_its_retry_after_asks(
    cli: Cli, page_server: PageServer, archive: WebArchive, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(page_server, archive)
    archive.throttle(1, retry_after="7")
    sleeps = _record_sleeps(monkeypatch)

    report = refresh(cli, archive)

    assert 7.0 in sleeps  # the wait the archive asked for, not waited here
    assert as_read(report)["replicas"]["status"] == "drifted"  # asked again, then answered
    assert len(archive.asked("cdx")) == 3


def test_an_archive_that_keeps_refusing_is_not_asked_more_and_is_asked_next_run(
    cli: Cli, page_server: PageServer, archive: WebArchive, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(page_server, archive)
    archive.throttle(100, retry_after="1")
    _record_sleeps(monkeypatch)

    report = refresh(cli, archive, "--per-host", "1")  # one request to the archive at a time

    assert report["as_read"]["checks"] == []
    assert {lookup["outcome"] for lookup in report["as_read"]["lookups"]} == {"failed"}
    assert archive.asked("id_") == archive.asked("available") == []
    assert len(archive.asked("cdx")) == 4  # one page's four attempts; the other never asked
    assert "slow down (HTTP 429)" in " ".join(str(x["error"]) for x in report["as_read"]["lookups"])
    archive.throttle(0)
    assert as_read(refresh(cli, archive))["replicas"]["misquoted"] is True


def test_no_capture_within_the_window_is_a_clear_answer_kept_like_one(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    page_server.set_page("/docs", page(QUOTE))
    page_server.set_page("/other", page(OTHER))
    archive.add(page_server.url("/docs"), FAR, page(QUOTE))

    report = refresh(cli, archive, code=0)
    text = cli("refresh", "--allow-private", "--archive", archive.base, code=0).stdout
    named = cli("-v", "refresh", "--allow-private", "--archive", archive.base, code=0).stdout
    wide = refresh(cli, archive, "--archive-window", "365", code=0)

    lookups = {lookup["url"]: lookup["outcome"] for lookup in report["as_read"]["lookups"]}
    assert lookups == {page_server.url("/docs"): "none", page_server.url("/other"): "none"}
    assert report["as_read"]["checks"] == []
    assert "as read: no snapshot within 30 days of 2026-08-23 for 2 pages (-v names them)" in text
    assert f"no snapshot within 30 days of 2026-08-23 for {page_server.url('/docs')}" in named
    assert as_read(wide)["replicas"]["timestamp"] == FAR


def test_a_capture_before_the_day_is_found_past_many_taken_soon_after_it(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """A page the archive took every hour after the reading day: the CDX server's nearest
    rows were all after it, the copy of three days before was never listed, and a change
    made after the reading was called a misquote at reading time."""
    page_server.set_page("/docs", page(MISQUOTE))
    page_server.set_page("/other", page(OTHER))
    docs = page_server.url("/docs")
    archive.add(docs, "20260820100000", page(QUOTE))
    for hour in range(30):
        archive.add(docs, f"202608{24 + hour // 24}{hour % 24:02d}0000", page(MISQUOTE))

    report = refresh(cli, archive)

    check = as_read(report)["replicas"]
    assert (check["timestamp"], check["status"], check["misquoted"]) == (
        "20260820100000",
        "verified",
        False,
    )


def test_the_widest_window_round_the_calendars_last_days_is_no_overflow(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    """A ledger read at the end of the calendar, with the widest window there is: the
    window closes on the calendar's last day, and the archive is asked within it."""
    serve(page_server, archive)
    ledger.write_text(
        ledger.read_text("utf-8").replace("date_read: 2026-08-23", "date_read: 9999-12-30"),
        encoding="utf-8",
    )

    report = refresh(cli, archive, "--archive-window", "3650")

    assert {lookup["outcome"] for lookup in report["as_read"]["lookups"]} == {"none"}
    queries = archive.asked("cdx")
    assert any("from=99900101" in query and "to=99991230" in query for query in queries)
    assert any("from=99991231" in query and "to=99991231" in query for query in queries)


def test_an_archive_without_cdx_is_asked_through_its_availability_api(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)
    archive.break_cdx()

    report = refresh(cli, archive)

    assert as_read(report)["replicas"]["timestamp"] == NEAR
    assert len(archive.asked("available")) == 2


def test_the_sources_archived_field_is_filled_when_empty_and_kept_when_given(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    given = "https://web.archive.org/web/2026/https://other.example/"
    text = ledger.read_text("utf-8").replace(
        "publisher: q}", f'publisher: q, archived: "{given}"}}'
    )
    ledger.write_text(text, encoding="utf-8")
    serve(page_server, archive)

    result = cli("refresh", "--allow-private", "--archive", archive.base, code=1)

    sources = load(ledger).sources
    assert sources["docs"].archived == f"{archive.base}/web/{NEAR}/{page_server.url('/docs')}"
    assert sources["other"].archived == given
    assert "# A ledger read on 2026-08-23." in ledger.read_text("utf-8")  # comments kept
    assert "archived: filled for 1 source" in result.stderr


def test_a_source_given_another_page_while_the_refresh_ran_gets_no_capture_of_the_old(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    """The author points `docs` at another page while the archive is being asked about the
    old one: its `archived` was filled with the old page's capture, an archived copy of a
    page the source no longer names."""
    serve(page_server, archive)
    moved = page_server.url("/docs/v2")
    page_server.set_page("/docs/v2", page(QUOTE))
    asked = archive._cdx

    def repointed_while_asked(exchange: Exchange) -> None:
        text = ledger.read_text("utf-8")
        ledger.write_text(text.replace(f'"{page_server.url("/docs")}"', f'"{moved}"'), "utf-8")
        asked(exchange)

    page_server.set_handler(f"{archive.prefix}/cdx/search/cdx", repointed_while_asked)

    result = cli("refresh", "--allow-private", "--archive", archive.base, code=1)

    sources = load(ledger).sources
    assert (sources["docs"].url, sources["docs"].archived) == (moved, None)
    assert sources["other"].archived == f"{archive.base}/web/{NEAR}/{page_server.url('/other')}"
    assert "archived: filled for 1 source with" in result.stderr


CDX_HEADER = ["timestamp", "original", "statuscode"]


def test_a_capture_address_holding_a_quote_is_kept_encoded_and_every_refresh_goes_on(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    """An archive's answer is text from elsewhere: an address with a `"` and a tag in it
    once filled `archived` with what no ledger may hold, and every later refresh failed."""
    serve(page_server, archive)
    docs = page_server.url("/docs")
    odd = f'{docs}?q="><img src=x onerror=alert(1)>'
    kept = f"{docs}?q=%22%3E%3Cimg%20src=x%20onerror=alert%281%29%3E"
    archive.answer_cdx(docs, [CDX_HEADER, [NEAR, odd, "200"]])
    archive.add(kept, NEAR, page(QUOTE))  # the copy, where its encoded address asks for it

    first = refresh(cli, archive)
    again = refresh(cli, archive)

    # a capture of another address (the page with a query) is no capture of the page
    assert "replicas" not in as_read(first) and "replicas" not in as_read(again)
    assert [lookup["outcome"] for lookup in first["as_read"]["lookups"]] == ["none", "found"]
    assert load(ledger).sources["docs"].archived is None
    cli("check", code=0)
    cli("render", code=0)
    cli("render", "--format", "html", code=0)
    for report in ("report.md", "report.html"):
        assert "<img" not in (ledger.parent / "out" / report).read_text("utf-8")


@pytest.mark.parametrize("original", ["javascript:alert(1)", '"><img src=x>', "http:///nohost"])
def test_a_cdx_answer_that_names_no_web_address_is_skipped_for_the_availability_api(
    cli: Cli, page_server: PageServer, archive: WebArchive, original: str
) -> None:
    serve(page_server, archive)
    docs = page_server.url("/docs")
    archive.answer_cdx(docs, [CDX_HEADER, [NEAR, original, "200"]])

    report = refresh(cli, archive)

    lookup = {found["url"]: found for found in report["as_read"]["lookups"]}[docs]
    assert lookup["snapshot_url"] == f"{archive.base}/web/{NEAR}/{docs}"
    assert len(archive.asked("available")) == 1  # for docs only: its CDX answer was skipped


def test_an_archive_that_names_no_web_address_at_all_is_a_note_and_asked_again(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)
    docs = page_server.url("/docs")
    archive.answer_cdx(docs, [CDX_HEADER, [NEAR, "javascript:alert(1)", "200"]])
    closest = {"available": True, "status": "200", "timestamp": NEAR, "url": "javascript:x"}
    answer = json.dumps({"archived_snapshots": {"closest": closest}}).encode()
    page_server.set_handler(
        "/archive/wayback/available",
        lambda exchange: exchange.respond(200, answer, {"Content-Type": "application/json"}),
    )

    report = refresh(cli, archive)
    refresh(cli, archive)

    lookup = {found["url"]: found for found in report["as_read"]["lookups"]}[docs]
    assert (lookup["outcome"], lookup["snapshot_url"]) == ("failed", None)
    assert "not an answer we can read" in lookup["error"]
    assert len([q for q in archive.asked("cdx") if "docs" in q]) == 2  # asked on each run


def test_a_capture_kept_unencoded_by_an_earlier_version_is_skipped_and_asked_again(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)
    docs = page_server.url("/docs")
    odd = f'{docs}"><img src=x>'
    store = ledger.parent / "out" / "evidence.sqlite3"
    with EvidenceStore.open(store) as kept:
        kept.record_archive_lookup(
            ArchiveLookup(
                docs, dt.date(2026, 8, 23), archive.base, 30, "found",
                dt.datetime(2026, 9, 1, tzinfo=dt.UTC), NEAR, odd,
                f"{archive.base}/web/{NEAR}/{odd}",
            )
        )  # fmt: skip

    result = cli("refresh", "--allow-private", "--archive", archive.base, code=1)

    assert "damaged row of" in result.stderr and "archive_lookups row 1" in result.stderr
    assert len([q for q in archive.asked("cdx") if "docs" in q]) == 1  # asked again
    assert load(ledger).sources["docs"].archived == f"{archive.base}/web/{NEAR}/{docs}"


def test_regrade_proposes_the_downgrade_by_the_misquote_rule(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)
    refresh(cli, archive)

    proposals = cli.json("regrade", code=1)["proposals"]

    assert [(p["claim_id"], p["to_grade"], p["rule"]) for p in proposals] == [
        ("replicas", "UNKNOWN", "misquoted-as-read")
    ]
    why = proposals[0]["why"]
    assert "misquoted at reading time (not so on the archived copy of docs nearest" in why
    cli("regrade", "--write", code=0)
    assert load(cli.ledger).claim("replicas").grades[0].grade == "UNKNOWN"


def test_status_diff_and_the_report_show_the_wording_as_read(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    serve(page_server, archive)
    refresh(cli, archive)

    status = cli.json("status", code=1)
    diff = " ".join(cli("diff", "replicas", code=1).stdout.split())
    cli("render", code=0)
    cli("render", "--format", "html", code=0)
    report = (cli.ledger.parent / "out" / "report.md").read_text("utf-8")
    html = (cli.ledger.parent / "out" / "report.html").read_text("utf-8")

    assert as_read(status)["replicas"]["misquoted"] is True
    assert f"as read (the capture of 2026-08-21): drifted: {MISQUOTE}" in diff
    assert "misquoted at reading time" in report
    assert f"/web/{NEAR}/" in report and "archived 2026-08-21" in report
    assert "the archived copy of 2026-08-21 says: “Every write is acknowledged only after" in (
        report
    )
    assert 'class="status status-misquoted"' in html and "archived 2026-08-21</a>" in html


def test_diff_heads_a_quote_misquoted_then_but_verified_now_with_both_statuses(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """The live page carries the quote; the capture nearest the reading day did not: the
    block says so in its own first line, never "drifted" alone, as if the page had."""
    serve(page_server, archive)
    page_server.set_page("/docs", page(QUOTE))
    refresh(cli, archive)

    lines = cli("diff", "replicas", code=1).stdout.splitlines()

    assert lines[0] == (
        "replicas #1 on docs: verified now, drifted on the capture of 2026-08-21"
        "  MEANING CHANGED: number changed"
    )
    assert lines[1:3] == [f"  quote: {QUOTE}", f"  then:  {MISQUOTE}"]
    assert lines[-1].startswith("  misquoted at reading time: the capture of 2026-08-21 (")
    assert lines[-1].endswith(") does not carry it as quoted")


def test_an_adopted_rewording_is_checked_in_the_words_that_were_read(
    cli: Cli, ledger: Path, page_server: PageServer, archive: WebArchive
) -> None:
    page_server.set_page("/docs", page(QUOTE))
    page_server.set_page("/other", page(OTHER))
    archive.add(page_server.url("/docs"), NEAR, page(QUOTE))
    archive.add(page_server.url("/other"), NEAR, page(OTHER))
    refresh(cli, archive, code=0)
    page_server.set_page("/docs", page(MISQUOTE))  # reworded after the reading
    refresh(cli, archive)
    cli("accept", "replicas", "--even-if-meaning-changed", code=0)

    report = refresh(cli, archive, code=0)

    check = as_read(report)["replicas"]
    assert (check["quote_text"], check["wording"], check["status"]) == (MISQUOTE, QUOTE, "verified")
    assert archive.asked("id_") and len(archive.asked("cdx")) == 2  # from the first run only


# --------------------------------------------------------------------------- never the internet


def test_a_loopback_page_is_never_looked_up_in_the_default_archive(
    cli: Cli, page_server: PageServer, archive: WebArchive, monkeypatch: pytest.MonkeyPatch
) -> None:
    serve(page_server, archive)
    monkeypatch.setattr(archive_module, "DEFAULT_ARCHIVE", archive.base)  # would count a hit

    report = cli.json("refresh", "--allow-private", code=1)

    assert archive.hits == 0
    assert report["as_read"] == {"checks": [], "lookups": [], "lookups_asked": 0, "copies_read": 0}


def test_no_as_read_asks_no_archive(cli: Cli, page_server: PageServer, archive: WebArchive) -> None:
    serve(page_server, archive)

    report = refresh(cli, archive, "--no-as-read")

    assert archive.hits == 0
    assert report["as_read"] is None


def _record_sleeps(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """Every wait the fetcher asks for (Retry-After, backoff), recorded and not waited."""
    sleeps: list[float] = []
    real = asyncio.sleep

    class Shim:
        def __getattr__(self, name: str) -> Any:
            return getattr(asyncio, name)

        async def sleep(self, delay: float) -> None:
            sleeps.append(delay)
            await real(0)

    monkeypatch.setattr(fetch_module, "asyncio", Shim())
    return sleeps


def test_none_within_a_window_still_open_is_asked_again_until_it_closes(
    ledger: Path, page_server: PageServer, archive: WebArchive, evidence_store: EvidenceStore
) -> None:
    read = load(ledger)
    policy = replace(DEFAULT_POLICY, allow_private=True, per_host_interval=0.0)
    settings = archive_settings(Config(), archive.base)

    def check(day: dt.date) -> None:
        async def run() -> None:
            async with make_client(policy, trust_env=False) as client:
                await check_as_read(
                    read,
                    plan(read),
                    client=client,
                    store=evidence_store,
                    policy=policy,
                    settings=settings,
                    now=lambda: dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC),
                )

        asyncio.run(run())

    asked = []
    for day in ("2026-08-26", "2026-08-27", "2026-10-01", "2026-10-02"):
        check(dt.date.fromisoformat(day))
        asked.append(len(archive.asked("cdx")))

    # each run: the captures by the reading day's end, then those after it (two pages);
    # until 2026-09-22 a capture may still be taken
    assert asked == [4, 8, 12, 12]


# --------------------------------------------------------------------------- the rule, pure

TWO_SOURCES = """\
ledger: 1
title: Two sources
date_read: 2026-08-23
sections: [{id: main, title: Main}]
sources:
  docs: {url: "https://docs.example.com/a", title: Docs, kind: docs, publisher: p}
  blog: {url: "https://blog.example.com/b", title: Blog, kind: blog, publisher: q}
claims:
  - id: gate
    section: main
    title: The gate
    kind: guarantee
    statement: The gate holds.
    quotes:
      - {text: "The gate holds.", sources: [docs, blog]}
    grades:
      - {on: the docs say this, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
"""


def _live(source: str) -> CheckRecord:
    return CheckRecord(
        claim_id="gate",
        quote_index=0,
        quote_text="The gate holds.",
        source_id=source,
        url=f"https://{source}.example.com/{'a' if source == 'docs' else 'b'}",
        source_status="ok",
        status="verified",
        match_kind="exact",
        similarity=1.0,
        current=None,
        meaning_changed=False,
        changed_words=(),
        occurrences=1,
        context_before=None,
        context_after=None,
        snapshot_hash=None,
        checked_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC),
    )


def _then(source: str, status: CheckStatus, wording: str = "The gate holds.") -> AsReadCheck:
    live = _live(source)
    return AsReadCheck(
        claim_id="gate",
        quote_index=0,
        quote_text=live.quote_text,
        wording=wording,
        source_id=source,
        url=live.url,
        read_on=dt.date(2026, 8, 23),
        snapshot_url=f"https://web.archive.org/web/20260821093000/{live.url}",
        timestamp="20260821093000",
        status=status,
        match_kind=None,
        similarity=0.9,
        current="The gate mostly holds." if status != "verified" else None,
        meaning_changed=True,
        changed_words=(),
        change_kinds=(),
        closest=None,
        snapshot_hash=None,
        recipe="",
        checked_at=dt.datetime(2026, 11, 1, tzinfo=dt.UTC),
    )


def test_a_source_misquoted_then_does_not_count_toward_min_sources() -> None:
    ledger = parse(TWO_SOURCES)
    live = [_live("docs"), _live("blog")]

    assert regrade(ledger, live, as_read=[_then("docs", "verified")]).proposals == ()
    [proposal] = regrade(ledger, live, as_read=[_then("blog", "drifted")]).proposals
    assert (proposal.to_grade, proposal.rule) == (Grade.CLAIMED, "misquoted-as-read")
    [fallen] = regrade(
        ledger, live, as_read=[_then("blog", "drifted"), _then("docs", "missing")]
    ).proposals
    assert (fallen.to_grade, fallen.rule) == (Grade.UNKNOWN, "misquoted-as-read")


def test_an_adopted_wording_is_not_held_against_the_copy_of_the_reading_day() -> None:
    ledger = parse(TWO_SOURCES)
    then = _then("blog", "drifted", wording="The gate always holds.")  # the words as read

    assert regrade(ledger, [_live("docs"), _live("blog")], as_read=[then]).proposals == ()


def test_a_copy_the_archive_sends_elsewhere_is_no_copy_of_the_capture(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """The capture's raw copy answered with a redirect to today's page: its words were
    judged as the reading day's ("verified as read", or "misquoted" from another page)."""
    serve(page_server, archive)
    docs = page_server.url("/docs")
    page_server.set_page("/docs", page(QUOTE))  # today's page carries the words
    page_server.set_handler(f"/archive/web/{NEAR}id_/{docs}", redirect(docs))

    report = refresh(cli, archive, code=0)

    check = as_read(report)["replicas"]
    assert check["status"] is None and not check["misquoted"]  # no verdict on another page
    assert "the archive sent its copy on to" in check["error"]


def test_a_capture_of_another_page_or_not_yet_taken_is_no_capture_of_the_page(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """The archive names a capture of another address (its changelog, the page with a
    query), or one dated after today: none is the page as it was read."""
    serve(page_server, archive)
    docs = page_server.url("/docs")
    other = page_server.url("/changelog")
    later = (dt.datetime.now(dt.UTC) + dt.timedelta(days=10)).strftime("%Y%m%d%H%M%S")
    archive.answer_cdx(
        docs,
        [
            CDX_HEADER,
            [NEAR, other, "200"],
            [NEAR, f"{docs}?version=1", "200"],
            [later, docs, "200"],
        ],
    )
    archive.add(other, NEAR, page(MISQUOTE))

    report = refresh(cli, archive, "--archive-window", "3650", code=1)

    assert "replicas" not in as_read(report)
    assert archive.asked("id_") == [a for a in archive.asked("id_") if "/docs" not in a]


def test_a_reading_day_moved_past_an_adoption_checks_the_adopted_words(
    cli: Cli, page_server: PageServer, archive: WebArchive
) -> None:
    """The page re-read and its words adopted, the reading day set to that day: the words
    read that day are the adopted ones, and a copy carrying them is no misquote (every
    adoption was followed back to the first reading's words, whatever its date)."""
    serve(page_server, archive)
    refresh(cli, archive)
    cli("accept", "replicas", "--even-if-meaning-changed")
    today = dt.datetime.now(dt.UTC)
    cli("set", "date_read", today.date().isoformat())
    docs = page_server.url("/docs")
    taken = (today - dt.timedelta(hours=1)).strftime("%Y%m%d%H%M%S")
    archive.add(docs, taken, page(MISQUOTE))

    report = refresh(cli, archive, code=0)

    check = as_read(report)["replicas"]
    assert (check["wording"], check["status"], check["misquoted"]) == (MISQUOTE, "verified", False)
