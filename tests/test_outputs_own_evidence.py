"""Each output says of a check what that check found, on the page as it answered then: a
later refresh of other claims, which read the same page again, lends it nothing."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cli_runner import Cli
from webserver import PageServer

REFRESH = ("refresh", "--allow-private", "--no-as-read", "--no-recover", "--no-history")
SAID = {
    "one": "Writes are durable once acknowledged.",
    "two": "The cluster keeps three replicas.",
}


def page() -> str:
    said = "".join(f"<p>{text}</p>" for text in SAID.values())
    return f"<html><body><main><h1>Storage</h1>{said}</main></body></html>"


def ledger_text(url: str, other: str | None = None) -> str:
    """Both claims quoting the page at `url`; with `other`, claim `two` the page there."""
    lines = [
        "ledger: 1",
        "title: T",
        "date_read: 2026-08-23",
        "sections: [{id: s, title: S}]",
        f"sources:\n  docs: {{url: '{url}', title: Docs, kind: docs, publisher: d}}",
        *([f"  other: {{url: '{other}', title: O, kind: docs, publisher: d}}"] if other else []),
        "claims:",
    ]
    for claim_id, text in SAID.items():
        cited = "other" if other and claim_id == "two" else "docs"
        lines += [
            f"  - id: {claim_id}",
            "    section: s",
            f"    title: Claim {claim_id}",
            "    kind: guarantee",
            "    statement: S.",
            f"    quotes: [{{text: '{text}', sources: [{cited}]}}]",
            "    grades: [{on: the documentation says this, grade: CLAIMED, basis: quotes}]",
        ]
    return "\n".join(lines) + "\n"


@pytest.fixture
def served(tmp_path: Path) -> Iterator[tuple[Cli, PageServer]]:
    with PageServer() as server:
        server.set_page("/docs", page())
        ledger = tmp_path / "claims.yaml"
        ledger.write_text(ledger_text(server.url("/docs")), "utf-8")
        yield Cli(ledger), server


def test_a_check_made_on_a_page_gone_is_not_said_with_a_later_fetchs_answer(
    served: tuple[Cli, PageServer],
) -> None:
    """The page went (404), then came back and was read again for claim `two` only: claim
    `one`'s check still says the page was gone, and never "(HTTP 200)", the answer of a
    fetch that made no check of its quote."""
    cli, server = served
    cli(*REFRESH)
    server.set_page("/docs", "<p>Not here.</p>", status=404)
    cli(*REFRESH, code=1)
    server.set_page("/docs", page())
    cli(*REFRESH, "two")
    markdown = cli("render", "-o", "-", "--format", "md").stdout
    gone = [line for line in markdown.splitlines() if "page gone" in line]
    assert len(gone) == 1 and "HTTP 200" not in gone[0], gone
    report = json.loads(cli("render", "-o", "-", "--format", "json").stdout)
    labels = [
        source["label"]
        for section in report["sections"]
        for claim in section["claims"]
        for quote in claim["quotes"]
        for source in quote["sources"]
    ]
    assert not [label for label in labels if "gone" in label and "200" in label], labels


def test_status_dates_a_claims_failed_source_that_a_later_refresh_read(
    served: tuple[Cli, PageServer],
) -> None:
    """Claim `one`'s row said its source was gone beside a sources table saying the page
    answers 200 (read since for claim `two`): each true of its own check, and nothing to
    tell the row is the older news."""
    cli, server = served
    cli(*REFRESH)
    server.set_page("/docs", "<p>Not here.</p>", status=404)
    cli(*REFRESH, code=1)
    server.set_page("/docs", page())
    cli(*REFRESH, "two")
    rows = {row["claim_id"]: row for row in cli.json("status", code=1)["claims"]}
    (failed,) = rows["one"]["failing_sources"]
    assert re.fullmatch(r"docs \(gone \d{4}-\d\d-\d\d, read since\)", failed), failed
    assert rows["two"]["failing_sources"] == []


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_no_page_read_is_never_every_quote_reading_as_quoted(
    served: tuple[Cli, PageServer], fmt: str
) -> None:
    """The page could not be read at the last refresh (no text in what it sent), so no
    quote was: the report does not go on to say every quote checked reads as quoted."""
    cli, server = served
    cli(*REFRESH)
    server.set_page("/docs", b"\x00\x01\x02", content_type="application/octet-stream")
    cli(*REFRESH, code=1)
    report = cli("render", "-o", "-", "--format", fmt).stdout
    assert "could not be read" in report
    assert "reads on its page as it was quoted" not in report
    assert "reads on it as it was quoted" not in report


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_the_churn_says_what_was_read_of_pages_still_there_and_nothing_of_none(
    tmp_path: Path, fmt: str
) -> None:
    """Claim `one` on a page still there, `two` on a page gone: every quote checked on a
    page still there reads as quoted. With the first page sending no text, no quote was
    read at all, and the report said the same of the pages "still there" all the same."""
    with PageServer() as server:
        server.set_page("/docs", page())
        server.set_page("/other", page())
        text = ledger_text(server.url("/docs"), server.url("/other"))
        ledger = tmp_path / "claims.yaml"
        ledger.write_text(text, "utf-8")
        cli = Cli(ledger)
        cli(*REFRESH)
        server.set_page("/other", "<p>Not here.</p>", status=404)
        cli(*REFRESH, code=1)
        one_read = " ".join(cli("render", "-o", "-", "--format", fmt).stdout.split())
        server.set_page("/docs", b"\x00\x01", content_type="application/octet-stream")
        cli(*REFRESH, code=1)
        none_read = " ".join(cli("render", "-o", "-", "--format", fmt).stdout.split())
    still = "Every quote checked on a page still there reads on it as it was quoted"
    assert still in one_read and "pages are gone" in one_read
    assert "as it was quoted" not in none_read
