"""The report says no more than it knows: each number it states is counted from what it
lists, an adopted meaning change is never a harmless rewording, a statement is printed
only where it says more than its title, its own ids stay clear of the author's headings,
and its history is the author's reading, not the ledger's bookkeeping.

The ledger below is built for it: a claim with two grades lowered beside one with one (so
a count of grades and a count of claims differ), two quotes of one claim that changed
meaning, one quote cited on two pages reworded on both, two pages gone under one claim, a
grade lowered and raised again, a harmless adoption and an adoption that changed the
meaning before a harmless one; sections the author named as the report names its own.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from datetime import UTC, date, datetime
from typing import Any

import lxml.etree
import lxml.html
import pytest

from claimledger.grading.rules import regrade
from claimledger.ledger.model import Ledger, parse
from claimledger.records import CheckRecord, FetchRecord, WordChange
from claimledger.report.build import build_report
from claimledger.report.changes import report_state
from claimledger.report.formats import FORMAT_NAMES, format_for
from claimledger.report.markup import github_slug, statement_beyond_title
from claimledger.report.model import Report
from claimledger.report.templates import Templates, templates_loader
from test_render import check, fetch

LEDGER = """\
ledger: 1
title: Counting what is linked
subject: A queue's documentation
author: Ada Reviewer
date_read: 2026-08-23
sections:
  - id: open-questions
    title: Open questions
    intro: |
      ## Findings

      The author's own heading, named as the report names one of its parts.
  - id: sources
    title: Sources
sources:
  docs:
    url: https://docs.example.com/a
    title: Docs A
    kind: docs
    publisher: example.com
  docs-b:
    url: https://docs.example.com/b
    title: Docs B
    kind: docs
    publisher: example.com
    history:
      - date: 2026-09-10
        moved_from: "https://docs.example.com/old-b"
        by: move
        why: followed the redirect
  gone-1:
    url: https://docs.example.com/gone-1
    title: Gone one
    kind: docs
    publisher: example.com
  gone-2:
    url: https://docs.example.com/gone-2
    title: Gone two
    kind: docs
    publisher: example.com
claims:
  - id: two-lowered
    section: open-questions
    title: Writes and reads
    statement: "Writes and reads."
    kind: guarantee
    quotes:
      - text: "Writes are durable once acknowledged."
        sources: [docs]
      - text: "Reads see every acknowledged write."
        sources: [docs]
    grades:
      - on: the documentation says this
        grade: UNKNOWN
        basis: quotes
      - on: the runtime behaves this way
        grade: SPECULATIVE
        basis: judgement
    history:
      - date: 2026-08-23
        by: add
        why: "recorded: 2 quote(s) verified on 1 source(s)"
      - date: 2026-09-01
        on: the documentation says this
        from: DEMONSTRATED
        to: UNKNOWN
        by: "rule:quotes-meaning-changed"
        why: the page changed
      - date: 2026-09-02
        on: the runtime behaves this way
        from: CLAIMED
        to: SPECULATIVE
        by: person
        why: the docs no longer say it
  - id: one-lowered
    section: open-questions
    title: Leaders are fenced
    statement: A deposed leader can write nothing after its successor is elected.
    kind: guarantee
    quotes:
      - text: "A partition has one leader at a time."
        sources: [gone-1, gone-2]
    grades:
      - on: the documentation says this
        grade: CLAIMED
        basis: quotes
    history:
      - date: 2026-09-03
        on: the documentation says this
        from: DEMONSTRATED
        to: CLAIMED
        by: person
        why: one page is enough for CLAIMED
  - id: lowered-and-back
    section: sources
    title: Messages are ordered
    statement: "Messages are ordered"
    kind: guarantee
    quotes:
      - text: "Messages from one producer arrive in order."
        sources: [docs, docs-b]
    grades:
      - on: the documentation says this
        grade: DEMONSTRATED
        basis: quotes
    history:
      - date: 2026-09-04
        from: DEMONSTRATED
        to: UNKNOWN
        by: "rule:quotes-missing"
        why: gone for a while
      - date: 2026-09-20
        from: UNKNOWN
        to: DEMONSTRATED
        by: "rule:quotes-restored"
        why: back
  - id: adopted-harmless
    section: sources
    title: Retention
    statement: Unacknowledged messages stay for two weeks.
    kind: guarantee
    quotes:
      - text: "Unacknowledged messages are retained for fourteen days."
        sources: [docs]
    grades:
      - on: the documentation says this
        grade: DEMONSTRATED
        basis: quotes
    history:
      - date: 2026-09-05
        by: accept
        quote_was: Unacknowledged messages are retained for 14 days.
        quote_now: Unacknowledged messages are retained for fourteen days.
        why: adopted the page's current wording
  - id: adopted-chain
    section: sources
    title: Message size
    statement: A message may be up to 256 KB.
    kind: guarantee
    quotes:
      - text: "Each message may be up to 128 KB."
        sources: [docs]
    grades:
      - on: the documentation says this
        grade: DEMONSTRATED
        basis: quotes
    history:
      - date: 2026-09-06
        by: accept
        quote_was: A message may be up to 256 KB.
        quote_now: A message may be up to 128 KB.
        meaning: changed
        why: "adopted the page's current wording although its meaning changed"
      - date: 2026-09-07
        by: review
        why: 128 KB is still enough for us
      - date: 2026-09-08
        by: accept
        quote_was: A message may be up to 128 KB.
        quote_now: Each message may be up to 128 KB.
        why: adopted the page's current wording
"""

GENERATED_ON = date(2026, 12, 1)
CLAIMS_SAID = re.compile(r"(?:\bon|\bof|, quoted by) (\d+) claims?\b")
"""Where a finding says how many claims it names ("3 grades lowered on 2 claims")."""


def evidence(ledger: Ledger) -> tuple[list[CheckRecord], dict[str, FetchRecord]]:
    """The latest refresh: both quotes of one claim reworded so that their meaning changed,
    one quote reworded harmlessly on both of its pages, two pages gone."""
    checks = [
        check(ledger, "two-lowered", 0, "docs", current="Writes are durable once flushed.",
              changes=[WordChange("replace", "acknowledged", "flushed", True, "effect changed")],
              status="drifted", meaning_changed=True),
        check(ledger, "two-lowered", 1, "docs", current="Reads may see an acknowledged write.",
              changes=[WordChange("replace", "every", "an", True, "quantifier changed")],
              status="drifted", meaning_changed=True),
        check(ledger, "one-lowered", 0, "gone-1", status=None, source_status="gone"),
        check(ledger, "one-lowered", 0, "gone-2", status=None, source_status="gone"),
        *[
            check(ledger, "lowered-and-back", 0, source, status="drifted",
                  current="Messages from one producer are received in order.",
                  changes=[WordChange("replace", "arrive", "are received", False)])
            for source in ("docs", "docs-b")
        ],
        check(ledger, "adopted-harmless", 0, "docs"),
        check(ledger, "adopted-chain", 0, "docs"),
    ]  # fmt: skip
    urls = {sid: source.url for sid, source in ledger.sources.items()}
    fetches = {url: fetch(url) for url in urls.values()}
    fetches[urls["gone-1"]] = fetch(urls["gone-1"], "gone", 404)
    fetches[urls["gone-2"]] = fetch(urls["gone-2"], "gone", 410)
    return checks, fetches


def build(ledger: Ledger, previous: dict[str, Any] | None = None) -> Report:
    checks, fetches = evidence(ledger)
    return build_report(
        ledger,
        checks,
        fetches,
        regrade(ledger, checks),
        generated_on=GENERATED_ON,
        last_refresh=datetime(2026, 11, 29, 9, 30, tzinfo=UTC),
        previous=previous,
    )


def earlier_state(ledger: Ledger) -> dict[str, Any]:
    """The state of a render made on 2026-09-05, before the chain's two adoptions and
    while the move of docs-b was behind it: the quote then read as first adopted."""
    state: dict[str, Any] = json.loads(json.dumps(report_state(build(ledger))))
    state["generated_on"] = "2026-09-05"
    quotes = state["quotes"]["adopted-chain"]
    quotes["A message may be up to 256 KB."] = quotes.pop("Each message may be up to 128 KB.")
    state["grades"]["one-lowered"]["the documentation says this"] = "DEMONSTRATED"
    state["sources"]["docs-b"]["url"] = "https://docs.example.com/old-b"
    return state


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return parse(LEDGER)


@pytest.fixture(scope="module")
def report(ledger: Ledger) -> Report:
    return build(ledger, earlier_state(ledger))


@pytest.fixture(scope="module")
def outputs(report: Report) -> dict[str, str]:
    templates = Templates(templates_loader(None))
    return {fmt: format_for(fmt, templates).render(report) for fmt in FORMAT_NAMES}


def text_of(html: str) -> str:
    """The HTML's text, a line a block, as a reader sees it."""
    tree = lxml.html.fromstring(html)
    lxml.etree.strip_elements(tree, "script", "style", with_tail=False)  # not what is read
    for element in tree.iter("li", "p", "h2", "h3", "dd", "tr"):
        element.tail = f"\n{element.tail or ''}"
    return "".join(str(piece) for piece in tree.itertext())


# --------------------------------------------------------------------------- counts


def markdown_findings(markdown: str) -> list[tuple[int, str, int]]:
    """Each finding: its number, its words, and how many claims it links."""
    lines = re.findall(r"^- \*\*(\d+) (.*?):\*\* (.*)\.$", markdown.split("## Findings")[1], re.M)
    return [(int(n), said, len(re.findall(r"\]\(#claim-", listed))) for n, said, listed in lines]


def html_findings(html: str) -> list[tuple[int, str, int]]:
    found = []
    for item in lxml.html.fromstring(html).cssselect("ul.findings > li"):
        said = "".join(str(piece) for piece in item.cssselect("strong")[0].itertext())
        number, _, words = said.rstrip(":").partition(" ")
        found.append((int(number), words, len(item.cssselect("a"))))
    return found


@pytest.mark.parametrize("read", [markdown_findings, html_findings], ids=["md", "html"])
def test_every_finding_counts_what_it_links_or_says_what_it_counts(
    outputs: dict[str, str], read: Any
) -> None:
    found = read(outputs["md" if read is markdown_findings else "html"])
    assert len(found) >= 6
    for number, said, links in found:
        claims = CLAIMS_SAID.search(said)
        assert links == (int(claims.group(1)) if claims else number), said
        assert claims is None or int(claims.group(1)) != number, said  # said only where it differs
    said = {words: (number, links) for number, words, links in found}
    assert said["grades lowered on 2 claims"] == (3, 2)  # two on one claim, one on another
    assert said["quotes of 1 claim reworded so that their meaning changed"] == (2, 1)
    assert said["pages gone, quoted by 1 claim"] == (2, 1)
    assert said["harmless rewording not yet adopted"] == (1, 1)  # one quote, on two pages


def test_a_grade_lowered_and_raised_again_is_not_lowered(report: Report) -> None:
    (lowered,) = [f for f in report.findings if f.text.startswith("grades lowered")]
    assert [c.claim_id for c in lowered.claims] == ["two-lowered", "one-lowered"]


def test_the_numbers_at_the_top_are_the_things_below(outputs: dict[str, str]) -> None:
    """The claims, facets, quotes and sources counted at the top, the facets of each grade
    in the legend and the changes since the last render are those the report lists."""
    for fmt in ("md", "html"):
        text = outputs["md"] if fmt == "md" else text_of(outputs["html"])
        top = re.search(r"(\d+) claims, (\d+) graded facets, (\d+) quotes from (\d+) sources", text)
        assert top is not None
        grade_lines = re.findall(
            r"Grade on [^:\n]*: \**(DEMONSTRATED|CLAIMED|SPECULATIVE|UNKNOWN)", text
        )
        assert (int(top.group(1)), int(top.group(2))) == (5, len(grade_lines)), fmt
        table = text.split("Every grade is on one named facet", 1)[1].split("Contents", 1)[0]
        legend = re.findall(r"(DEMONSTRATED|CLAIMED|SPECULATIVE|UNKNOWN)\D*(\d+)", table)
        assert {grade: int(n) for grade, n in legend} == {
            grade: Counter(grade_lines)[grade]
            for grade in ("DEMONSTRATED", "CLAIMED", "SPECULATIVE", "UNKNOWN")
        }
        note = re.search(r"(\d+) changes since the render of 2026-09-05", text)
        listed = re.findall(r"(?m)^(?:- \*\*|)(grade|quote|source|claim)(?:\*\*)? · ", text)
        assert note is not None and int(note.group(1)) == len(listed) == 3
    html = lxml.html.fromstring(outputs["html"])
    assert len(html.cssselect("article.claim")) == 5
    assert len(html.cssselect("ul.grades > li")) == 6


# --------------------------------------------------------------------------- adoptions


def test_an_adopted_meaning_change_is_never_a_harmless_rewording(
    report: Report, outputs: dict[str, str]
) -> None:
    """A harmless adoption after one that changed the meaning leaves the quote's meaning
    changed since the reading: the wording as read says 256 KB, the quote now 128 KB."""
    chain = next(c for c in report.claims if c.id == "adopted-chain").quotes[0]
    assert (chain.as_read, chain.adopted_meaning) == ("A message may be up to 256 KB.", "changed")
    assert "number changed" in chain.adopted_kinds
    harmless = [f for f in report.findings if f.text.startswith("harmless rewording")]
    assert [c.claim_id for f in harmless for c in f.claims] == [
        "lowered-and-back",  # not yet adopted
        "adopted-harmless",
    ]
    for text in (outputs["md"], text_of(outputs["html"])):
        size_lines = [line for line in text.splitlines() if "Message size" in line]
        assert size_lines and not [line for line in size_lines if "harmless" in line]
        assert not [line for line in size_lines if "meaning kept" in line]
    drift = next(d for d in report.drifts if d.claim_id == "adopted-chain")
    assert drift.meaning_changed and "needs review" not in drift.label  # confirmed since


def test_what_changed_shows_an_adopted_rewording_as_one_quote_reworded(report: Report) -> None:
    said = [(c.area, c.text) for c in report.changes.items if c.subject == "Message size"]
    assert said == [
        (
            "quote",
            "quote reworded, its meaning changed: “A” → “Each” (quantifier changed); “256” → "
            "“128” (number changed); the page's words adopted: “A message may be up to 256 KB.” "
            "→ “Each message may be up to 128 KB.”",
        )
    ]
    moved = [c.text for c in report.changes.items if c.subject == "docs-b"]
    assert moved == [
        "address changed in the ledger: https://docs.example.com/old-b → https://docs.example.com/b"
    ]


# --------------------------------------------------------------------------- statements


@pytest.mark.parametrize(
    ("title", "statement", "shown"),
    [
        ("Ordered delivery", "Ordered delivery.", False),
        ("Ordered delivery", "", False),
        ("Ordered delivery", "  ", False),
        ("AES-256 at rest", "AES 256 at rest", False),
        ("The input gate", "Input gate.", False),
        ("Messages are ordered per producer", "ordered per producer", False),
        ("Ordered delivery", "One sender's messages arrive in order.", True),
        ("Ordered delivery", "Ordered delivery, per producer.", True),
    ],
)
def test_a_statement_is_shown_only_where_it_says_more_than_the_title(
    title: str, statement: str, shown: bool
) -> None:
    assert statement_beyond_title(title, statement) == (statement if shown else "")


def test_a_statement_that_is_its_title_is_not_printed_but_kept_as_data(
    outputs: dict[str, str],
) -> None:
    claim = outputs["md"].split("### Writes and reads", 1)[1].split("\n> ", 1)[0]
    assert "Writes and reads." not in claim
    assert "A deposed leader can write nothing" in outputs["md"]
    html = lxml.html.fromstring(outputs["html"])
    assert len(html.cssselect("p.statement")) == 3  # of five claims, two are their titles
    data = json.loads(outputs["json"])
    written = {c["id"]: c for s in data["sections"] for c in s["claims"]}
    assert (written["two-lowered"]["statement"], written["two-lowered"]["statement_shown"]) == (
        "Writes and reads.",
        "",
    )
    reviews = {r["name"]: r for r in json.loads(outputs["claimreview"])}
    assert reviews["Writes and reads"]["claimReviewed"] == "Writes and reads."


# --------------------------------------------------------------------------- ids


def test_the_html_ids_are_unique_and_every_link_in_the_page_finds_one(
    outputs: dict[str, str],
) -> None:
    html = lxml.html.fromstring(outputs["html"])
    ids = [str(element.get("id")) for element in html.iter() if element.get("id")]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    for link in html.cssselect('a[href^="#"]'):
        assert str(link.get("href"))[1:] in ids, link.get("href")
    contents = {
        ("".join(str(piece) for piece in a.itertext()), str(a.get("href")))
        for a in html.cssselect("nav.contents a")
    }
    questions = sorted(href for text, href in contents if text == "Open questions")
    sources = sorted(href for text, href in contents if text == "Sources")
    assert questions == ["#report-open-questions", "#section-open-questions"]
    assert sources == ["#report-sources", "#section-sources"]


def test_in_markdown_the_reports_own_ids_stay_clear_of_the_authors_headings(
    outputs: dict[str, str],
) -> None:
    """Where the Markdown is read (GitHub), a heading takes the id of its words: an author's
    section "Sources" takes `sources`, an intro's "## Findings" `findings`. The report's
    own parts then take other ids, and every link of the contents finds one place."""
    markdown = outputs["md"]
    explicit = re.findall(r'<a id="([^"]+)"></a>\n\n#{1,6} ', markdown)
    headings = re.findall(r"(?m)^#{1,6} (.+)$", markdown.split("\n## Findings\n", 1)[0])
    taken: Counter[str] = Counter(github_slug(h.replace("\\", "")) for h in headings)
    for heading in re.findall(r"(?m)^#{1,6} (.+)$", markdown)[len(headings) :]:
        slug = github_slug(heading.replace("\\", ""))
        taken[slug if not taken[slug] else f"{slug}-{taken[slug]}"] += 1
    contents = re.findall(
        r"\]\(#([^)]+)\)", markdown.split("## Contents", 1)[1].split("\n\n<a", 1)[0]
    )
    for target in contents:
        places = explicit.count(target) + (taken[target] and target not in explicit)
        assert places == 1, target
    assert {"report-findings", "report-open-questions", "report-sources"} <= set(explicit)
    assert "source-fidelity" in explicit  # no heading of the author's takes that one


# --------------------------------------------------------------------------- history


def test_the_history_keeps_the_authors_acts_by_name_and_not_the_bookkeeping(
    report: Report,
) -> None:
    history = {claim.id: claim.history for claim in report.claims}
    assert not [line for lines in history.values() for line in lines if "by add" in line]
    assert not [line for lines in history.values() for line in lines if "by person" in line]
    assert not [line for lines in history.values() for line in lines if "recorded:" in line]
    chain = history["adopted-chain"]
    assert [line.split(", ")[0] for line in chain] == ["2026-09-06", "2026-09-07", "2026-09-08"]
    assert chain[1] == (
        "2026-09-07, by Ada Reviewer: confirmed as it stands after its evidence changed "
        "meaning: 128 KB is still enough for us"
    )
    assert "by Ada Reviewer: the docs no longer say it" in history["two-lowered"][-1]
    moved = history["lowered-and-back"]
    assert (
        "2026-09-10, page docs-b moved from https://docs.example.com/old-b to "
        "https://docs.example.com/b, by Ada Reviewer: followed the redirect"
    ) in moved
    assert moved.index(next(m for m in moved if "moved from" in m)) == 1  # in date order
