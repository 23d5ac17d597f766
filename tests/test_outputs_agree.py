"""Every output tells the same evidence in the same words: what `refresh` and `status` said
of a page and a quote, the report (Markdown, JSON) and its ClaimReview say too, and none
of them tells a reader less than the rules found.

The real CLI against a real local server whose pages change after the first refresh.
"""

from __future__ import annotations

import json
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import pytest

from claimledger.grading.rules import regrade
from claimledger.ledger.model import parse
from claimledger.records import WordChange
from claimledger.report.build import build_report
from cli_runner import Cli
from evidence_site import NOT_DURABLE, ORDERED, serve_v1, write_ledger
from evidence_site import page as site_page
from test_refresh import CHANGELOG_LATER, CHANGELOG_READ
from test_render import check, fetch
from webserver import PageServer

LEDGER = """\
ledger: 1
title: Outputs agree
date_read: 2026-08-23
sections:
  - id: main
    title: Main
sources:
  a: {{url: "{a}", title: A, kind: docs, publisher: p}}
claims:
  - id: one
    section: main
    title: One
    kind: guarantee
    statement: The primary streams its log.
    quotes:
      - text: "{quote}"
        sources: [a]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


def page(*sentences: str) -> str:
    body = "".join(f"<p>{s} Some neighbouring prose follows here.</p>" for s in sentences)
    return f"<html><body><main><h1>Doc</h1>{body}</main></body></html>"


def read_once(tmp_path: Path, server: PageServer, quote: str) -> Cli:
    """A ledger of one quote on one page, refreshed once with the page carrying it."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(a=server.url("/a"), quote=quote), encoding="utf-8")
    server.set_page("/a", page(quote))
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--timeout", "2", code=0)
    return cli


def render(cli: Cli, tmp_path: Path, name: str) -> str:
    target = tmp_path / "out" / name
    cli("render", "-o", str(target))
    return target.read_text(encoding="utf-8")


def test_a_page_that_could_not_be_read_is_reported_for_the_reason_refresh_gave(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page left with no text is "no content" to `refresh` and `status`: the report's
    sources and churn said "not readable: content type text/html", which is no reason."""
    cli = read_once(tmp_path, page_server, "Every write is durable once the call returns.")
    page_server.set_page("/a", "<html><body></body></html>")
    cli("refresh", "--allow-private", "--timeout", "2", code=1)
    (source,) = cli.json("status", code=1)["sources"]
    reason = source["error"]
    assert source["source_status"] == "unreadable" and reason.startswith("no content")

    report: dict[str, Any] = json.loads(render(cli, tmp_path, "report.json"))
    (row,) = report["sources"]
    assert row["label"].startswith(f"not readable: {reason}")
    markdown = render(cli, tmp_path, "report.md")
    assert "content type" not in markdown
    assert markdown.count(f"not readable: {reason}") == 2  # the churn and the sources


def test_a_rewording_that_may_have_changed_the_meaning_is_said_so_in_the_grade_line(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The stale notice says the meaning may have changed; the grade line beside it, and
    the ClaimReview's body, said "its quote was reworded on the page", as of a harmless
    rewording."""
    quote = "The primary replica streams its log to followers in the same region."
    cli = read_once(tmp_path, page_server, quote)
    page_server.set_page("/a", page(quote.replace("primary replica", "leader node")))
    cli("refresh", "--allow-private", "--timeout", "2", code=1)
    (stale,) = cli.json("regrade", code=1)["stale"]
    assert "its meaning may have changed" in stale["why"]

    said = "its quote was reworded on the page, and its meaning may have changed"
    report: dict[str, Any] = json.loads(render(cli, tmp_path, "report.json"))
    (facet,) = report["sections"][0]["claims"][0]["facets"]
    assert said in facet["line"]
    (review,) = json.loads(render(cli, tmp_path, "report.claimreview.json"))
    assert said in review["reviewBody"]
    assert f"DEMONSTRATED** — {said}." in render(cli, tmp_path, "report.md")


def test_a_quote_whose_meaning_changed_on_one_of_its_pages_is_not_told_as_reworded() -> None:
    """Reworded harmlessly on one page and reversed on the other: the rules see sources
    that disagree; the grade line said "its quote was reworded on the page"."""
    two_pages = LEDGER.replace("sources: [a]", "sources: [a, b]").replace(
        "claims:",
        '  b: {{url: "https://other.example.org/b", title: B, kind: docs, publisher: q}}\nclaims:',
    )
    ledger = parse(two_pages.format(a="https://docs.example.com/a", quote="Writes are durable."))
    checks = [
        check(ledger, "one", 0, "a", status="drifted", current="Writes are persistent.",
              changes=[WordChange("replace", "durable", "persistent", False)]),
        check(ledger, "one", 0, "b", status="drifted", current="Writes are not durable.",
              changes=[WordChange("insert", "", "not", True, "negation added")],
              meaning_changed=True),
    ]  # fmt: skip
    fetches = {source.url: fetch(source.url) for source in ledger.sources.values()}
    report = build_report(
        ledger,
        checks,
        fetches,
        regrade(ledger, checks),
        generated_on=date(2026, 12, 1),
        last_refresh=datetime(2026, 12, 1, tzinfo=UTC),
        previous=None,
    )
    (facet,) = report.sections[0].claims[0].facets
    assert "its quote was reworded on the page, and its meaning may have changed" in facet.line


def test_a_quote_on_a_page_gone_is_gone_in_its_history_as_status_counts_it_missing(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page gone is evidence of absence: `status` counts its quote missing and `diff`
    says "gone"; `history` called the same check "unread (gone)", as of a page that
    could not be read."""
    cli = read_once(tmp_path, page_server, "Every write is durable once the call returns.")
    page_server.set_page("/a", "<html><body><p>Not here.</p></body></html>", status=404)
    cli("refresh", "--allow-private", "--timeout", "2", code=1)
    (row,) = cli.json("status", code=1)["claims"]
    assert (row["missing"], row["unread"]) == (1, 0)

    rows = cli("history", "one", "--plain").stdout.splitlines()[1:]
    assert [line.split("\t")[4] for line in rows] == ["verified", "gone"]
    assert "unread" not in cli("history", "one").stdout


def test_the_churn_of_a_report_whose_only_change_is_a_page_gone_does_not_say_all_reads(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The page of the only quote gone, counted "not found" in the report's own summary:
    its documentation churn still said "Every quote checked reads on its page as it was
    quoted"."""
    cli = read_once(tmp_path, page_server, "Every write is durable once the call returns.")
    page_server.set_page("/a", "<html><body><p>Not here.</p></body></html>", status=404)
    cli("refresh", "--allow-private", "--timeout", "2", code=1)

    for name in ("report.md", "report.html"):
        shown = " ".join(render(cli, tmp_path, name).split())
        assert "1 not found" in shown
        assert "Every quote checked" not in shown  # none was read: on no page still there


def test_a_quote_that_moved_within_its_page_is_said_so_by_explain_as_by_the_report(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A release shifts the changelog: the quote is verified, but no longer at the #L line
    the ledger places it on. `refresh -v` and the report said "moved within the page";
    `explain` (and its JSON) said only "verified", from the same check."""
    cli = _quoting_the_changelog_at_its_line(tmp_path, page_server)
    assert "moved within the page" not in cli("explain", "one").stdout
    page_server.set_page("/CHANGELOG.md", CHANGELOG_LATER, content_type="text/markdown")
    cli("refresh", "--allow-private", "--timeout", "2")
    assert "moved within the page (now at line L20)" in render(cli, tmp_path, "report.md")

    said = cli("explain", "one").stdout
    assert "verified on a" in said and "moved within the page: now at line L20" in said
    (trace,) = cli.json("explain", "one")["traces"]
    (evidence,) = trace["evidence"]
    assert (evidence["status"], evidence["moved_within"]) == ("verified", "now at line L20")


TWO_PAGES = """\
ledger: 1
title: Outputs agree
date_read: 2026-08-23
sections: [{{id: main, title: Main}}]
sources:
  a: {{url: "{a}", title: A, kind: docs, publisher: p}}
  b: {{url: "{b}", title: B, kind: docs, publisher: q}}
claims:
  - id: one
    section: main
    title: One
    kind: guarantee
    statement: The primary streams its log.
    quotes:
{quotes}
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""
DURABLE = "Every write is durable once the call returns."
SEEN = "Reads after a write see that write on every replica."


@pytest.mark.parametrize(
    ("quotes", "line", "counted"),
    [
        (
            [(DURABLE, "a, b")],
            "its quote is verified on one source, changed or gone on another",
            (0, 1, 0),
        ),
        (
            [(DURABLE, "a, b"), (SEEN, "b")],
            "0 of 2 quotes verified; 1 verified on one source, changed or gone on another; "
            "1 on a page that is gone",
            (0, 1, 1),
        ),
    ],
    ids=["one quote on both pages", "another quote on the page gone only"],
)
def test_a_quote_verified_on_one_page_and_gone_with_the_other_is_counted_alike(
    tmp_path: Path,
    page_server: PageServer,
    quotes: list[tuple[str, str]],
    line: str,
    counted: tuple[int, int, int],
) -> None:
    """A quote verified on one page whose other page is now gone (404): the headline
    counted it "verified on one source, changed or gone on another" (0 verified), while
    the grade line beside it said "single-source, verified" of it, or "1 of 2 quotes
    verified" with another quote only on the page gone. Both count it alike."""
    ledger = tmp_path / "claims.yaml"
    listed = "\n".join(f'      - {{text: "{text}", sources: [{on}]}}' for text, on in quotes)
    addresses = {"a": page_server.url("/a"), "b": page_server.url("/b")}
    ledger.write_text(TWO_PAGES.format(quotes=listed, **addresses), encoding="utf-8")
    page_server.set_page("/a", page(DURABLE, SEEN))
    page_server.set_page("/b", page(DURABLE, SEEN))
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--timeout", "2")
    page_server.set_page("/b", "<html><body><p>Not here.</p></body></html>", status=404)
    cli("refresh", "--allow-private", "--timeout", "2", code=1)

    report: dict[str, Any] = json.loads(render(cli, tmp_path, "report.json"))
    summary = report["summary"]
    said = (summary["verified_quotes"], summary["disagreeing_quotes"], summary["missing_quotes"])
    assert said == counted
    (facet,) = report["sections"][0]["claims"][0]["facets"]
    assert facet["line"].endswith(f"DEMONSTRATED — {line}")
    markdown = " ".join(render(cli, tmp_path, "report.md").split())
    assert f"; {counted[0]} verified, 1 verified on one source, changed or gone on another" in (
        markdown
    )
    assert f"DEMONSTRATED** — {line}." in markdown


def test_history_keeps_a_check_that_found_the_quote_moved_apart_from_one_in_its_place(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A release shifts the changelog between two refreshes: the first check found the
    quote at its #L line, the second verified it elsewhere on the page. `history` folded
    the two into one row, "verified" ×2, dated by the first, where `explain` and the
    report say the quote moved within its page."""
    cli = _quoting_the_changelog_at_its_line(tmp_path, page_server)
    page_server.set_page("/CHANGELOG.md", CHANGELOG_LATER, content_type="text/markdown")
    cli("refresh", "--allow-private", "--timeout", "2")
    assert "moved within the page: now at line L20" in cli("explain", "one").stdout

    rows = [row for row in cli("history", "one").stdout.splitlines() if " one " in row]
    assert len(rows) == 2, rows  # one a finding: in its place, then moved
    assert "×" not in "".join(rows)
    assert "moved within" not in rows[0] and "moved within" in rows[1]


def test_a_word_the_page_dropped_is_said_removed_by_diff_accept_and_verify_alike(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`diff` said "removed: not" where `accept` and `verify` said "not -> -", a dash that
    reads as a word of the page: every output says a change's words in `diff`'s words."""
    quote = "Writes are not durable before the reply is sent."
    cli = read_once(tmp_path, page_server, quote)
    page_server.set_page("/a", page("Writes are durable before the reply is sent."))
    cli("refresh", "--allow-private", "--timeout", "2", code=1)

    diff = cli("diff", code=1).stdout
    refused = " ".join(cli("accept", "one", code=1).stderr.split())
    verified = cli("verify", "--allow-private", page_server.url("/a"), quote, code=1).stdout

    assert "removed: not  (negation removed)" in diff
    assert "changed its meaning: removed: not (negation removed). Re-read the page" in refused
    assert "meaning changed: removed: not (negation removed)" in verified
    assert "-> -" not in refused + verified


def test_accept_says_a_change_found_on_two_sources_once(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A quote both its sources now deny: `accept` refused it naming the change twice."""
    cli = Cli(write_ledger(tmp_path, page_server))
    serve_v1(page_server)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history")
    page_server.set_page("/guide", site_page(NOT_DURABLE, ORDERED))
    page_server.set_page("/mirror", site_page(NOT_DURABLE))
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    refused = " ".join(cli("accept", "durable", code=1).stderr.split())
    assert "changed its meaning: added: not (negation added). Re-read" in refused


def test_a_change_of_words_is_never_said_in_brackets_inside_brackets(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`refresh -v` said "meaning may have changed (handled -> processed (wording changed))"
    and `accept` "changed its meaning (removed: not (negation removed)); re-read": the
    words are said last, after a colon, as `verify` says them."""
    cli = read_once(tmp_path, page_server, "Requests are handled by that instance.")
    page_server.set_page("/a", page("Requests are processed by that instance."))
    verbose = cli("refresh", "--allow-private", "-v", "--timeout", "2", code=1).stderr
    said = " ".join(verbose.split())
    assert "meaning may have changed: handled -> processed (wording changed)" in said
    assert "((" not in said and "))" not in said

    quote = "Writes are not durable before the reply is sent."
    (tmp_path / "negated").mkdir()
    cli = read_once(tmp_path / "negated", page_server, quote)
    page_server.set_page("/a", page("Writes are durable before the reply is sent."))
    cli("refresh", "--allow-private", "--timeout", "2", code=1)
    refused = " ".join(cli("accept", "one", code=1).stderr.split())
    assert "the rewording changed its meaning: removed: not (negation removed). Re-read" in refused
    assert "))" not in refused


def _quoting_the_changelog_at_its_line(tmp_path: Path, page_server: PageServer) -> Cli:
    """A ledger quoting a changelog's entry at its #L line, refreshed once as it was read."""
    quote = "Adds step.mergeAgentState to workflow steps."
    ledger = tmp_path / "claims.yaml"
    url = page_server.url("/CHANGELOG.md") + "#L13"
    ledger.write_text(LEDGER.format(a=url, quote=quote), encoding="utf-8")
    page_server.set_page("/CHANGELOG.md", CHANGELOG_READ, content_type="text/markdown")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--timeout", "2")
    return cli
