"""The report: golden files, escaping of hostile text, structure, determinism, every format.

The fixture ledger (tests/data/render_fixture.yaml) carries hostile quotes, titles,
intros and URLs; its evidence is built here as plain values (verified, drifted
harmlessly, drifted with a change of meaning, missing, 404 gone, moved, 429 refused)
and regraded by the real rules. Golden files are rewritten with
`CLAIMLEDGER_UPDATE_GOLDEN=1 pytest tests/test_render.py`; review the diff by eye.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import re
import shutil
import subprocess
import urllib.parse
from collections.abc import Iterator, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import Any

import lxml.html
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from claimledger.errors import ExitCode, InputError, TemplateError
from claimledger.grading.rules import regrade
from claimledger.grading.verdicts import Notice, Regrade
from claimledger.ledger import edits
from claimledger.ledger.file import load
from claimledger.ledger.model import Ledger, parse
from claimledger.ledger.vocabulary import Grade
from claimledger.records import (
    AsReadCheck,
    CheckRecord,
    CheckStatus,
    FetchRecord,
    Hop,
    SourceStatus,
    WordChange,
)
from claimledger.report.bidi import bidi_marked
from claimledger.report.build import build_report
from claimledger.report.changes import report_state
from claimledger.report.formats import FORMAT_NAMES, format_for, published_at
from claimledger.report.markup import (
    author_markdown,
    code_block,
    md_escape,
    md_url,
    one_line,
    statement_beyond_title,
    text_fragment_link,
)
from claimledger.report.model import ClaimView, Report
from claimledger.report.overview import summary as summary_of
from claimledger.report.templates import Templates, templates_loader
from claimledger.urls import safe_url
from cli_runner import Cli
from evidence_site import page
from test_blame import LEDGER as BLAME_LEDGER
from webserver import PageServer

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
FIXTURE = HERE / "data" / "render_fixture.yaml"
GOLDEN = HERE / "golden"
BUNDLED = REPO / "claims.yaml"
UPDATE_GOLDEN = os.environ.get("CLAIMLEDGER_UPDATE_GOLDEN") == "1"

GENERATED_ON = date(2026, 12, 1)
LAST_REFRESH = datetime(2026, 11, 29, 9, 30, tzinfo=UTC)
CHECKED = datetime(2026, 11, 29, 9, 31, tzinfo=UTC)

SECRETS = ("hunter2", "abc123secret", "reader:")
HOSTILE_CLAIM = "hostile"


# --------------------------------------------------------------------------- fixture evidence


def text_hash(url: str, source_status: SourceStatus) -> str | None:
    """The hash of the text read at `url`: each page of the fixture has its own text."""
    if source_status not in ("ok", "moved"):
        return None
    return hashlib.sha256(url.encode()).hexdigest()


def check(
    ledger: Ledger,
    claim_id: str,
    quote_index: int,
    source_id: str,
    *,
    status: CheckStatus | None = "verified",
    source_status: SourceStatus = "ok",
    current: str | None = None,
    meaning_changed: bool = False,
    changes: Sequence[WordChange] = (),
    moved_within: str | None = None,
) -> CheckRecord:
    """One quote check as the refresh loop would record it."""
    quote = ledger.claim(claim_id).quotes[quote_index]
    return CheckRecord(
        claim_id=claim_id,
        quote_index=quote_index,
        quote_text=quote.text,
        source_id=source_id,
        url=ledger.sources[source_id].url,
        source_status=source_status,
        status=status,
        match_kind="exact" if status == "verified" else None,
        similarity=1.0 if status == "verified" else (0.9 if status == "drifted" else None),
        current=current,
        meaning_changed=meaning_changed,
        changed_words=tuple(changes),
        occurrences=1 if status in ("verified", "drifted") else 0,
        context_before=None,
        context_after=None,
        snapshot_hash=text_hash(ledger.sources[source_id].url, source_status),
        checked_at=CHECKED,
        run_id=1,
        moved_within=moved_within,
    )


def fetch(
    url: str,
    source_status: SourceStatus = "ok",
    http_status: int | None = 200,
    *,
    moved_to: str | None = None,
    error: str | None = None,
) -> FetchRecord:
    redirects = (Hop(url, 301),) if moved_to else ()
    return FetchRecord(
        run_id=1,
        url=url,
        final_url=moved_to or url,
        http_status=http_status,
        source_status=source_status,
        redirects=redirects,
        moved_to=moved_to,
        etag=None,
        last_modified=None,
        content_type="text/html",
        error=error,
        not_modified=False,
        attempts=1 if source_status != "refused" else 3,
        elapsed=0.1,
        snapshot_hash=text_hash(url, source_status),
        fetched_at=CHECKED,
    )


def fixture_checks(ledger: Ledger) -> list[CheckRecord]:
    hostile_current = (
        "<img src=x onerror=alert(1)> [click](javascript:alert(2)) </blockquote> | *now*"
    )
    return [
        check(ledger, "verified-two", 0, "docs-a"),
        check(ledger, "verified-two", 0, "blog-b"),
        check(
            ledger,
            "drifted-harmless",
            0,
            "docs-drift",
            status="drifted",
            current="Each object can serve up to 1,000 requests per second.",
            changes=[WordChange("replace", "handle", "serve", False)],
        ),
        check(
            ledger,
            "drifted-meaning",
            0,
            "docs-reversed",
            status="drifted",
            current="Messages are delivered at least once.",
            meaning_changed=True,
            changes=[WordChange("replace", "exactly", "at least", True)],
        ),
        dataclasses.replace(
            check(ledger, "missing-quote", 0, "docs-missing", status="missing"),
            closest="Storage reads may return stale data.",
            closest_kinds=("guarantee term changed",),
        ),
        check(ledger, "sources-in-trouble", 0, "docs-gone", status=None, source_status="gone"),
        check(ledger, "sources-in-trouble", 1, "docs-moved", source_status="moved"),
        check(
            ledger, "sources-in-trouble", 2, "docs-refused", status=None, source_status="refused"
        ),
        check(ledger, HOSTILE_CLAIM, 0, "docs-a"),
        check(ledger, HOSTILE_CLAIM, 1, "docs-a"),
        check(ledger, HOSTILE_CLAIM, 2, "docs-a"),
        check(
            ledger,
            HOSTILE_CLAIM,
            3,
            "docs-a",
            status="drifted",
            current=hostile_current,
            changes=[WordChange("insert", "", "<img src=x onerror=alert(1)>", False)],
        ),
        check(ledger, "measured", 0, "practitioner", moved_within="now under “Results, again”"),
        check(ledger, HOSTILE_CLAIM, 4, "secret-notes"),
        check(ledger, HOSTILE_CLAIM, 5, "repo-readme"),
    ]


AS_READ_COPY = "Use `a | b` and <script>alert('as read')</script> *stars* | in tables."
"""The archived copy's wording of the hostile quote: it must be escaped like any page's."""


def fixture_as_read(ledger: Ledger) -> list[AsReadCheck]:
    """Two quotes checked on the web archive's copies of the reading day: one verified
    there, one misquoted at reading time (worded otherwise on the copy)."""
    capture = "https://archive.example.net/web/20260821093000/https://docs.example.com/guide"

    def as_read(quote_index: int, current: str | None) -> AsReadCheck:
        live = check(ledger, HOSTILE_CLAIM, quote_index, "docs-a")
        return AsReadCheck(
            claim_id=live.claim_id,
            quote_index=quote_index,
            quote_text=live.quote_text,
            wording=live.quote_text,
            source_id="docs-a",
            url=live.url,
            read_on=ledger.date_read,
            snapshot_url=capture,
            timestamp="20260821093000",
            status="drifted" if current else "verified",
            match_kind=None if current else "exact",
            similarity=0.9 if current else 1.0,
            current=current,
            meaning_changed=False,
            changed_words=(),
            change_kinds=(),
            closest=None,
            snapshot_hash="1" * 64,
            recipe="",
            checked_at=CHECKED,
        )

    return [as_read(0, AS_READ_COPY), as_read(1, None)]


def fixture_fetches(ledger: Ledger) -> dict[str, FetchRecord]:
    url = {sid: source.url for sid, source in ledger.sources.items()}
    return {
        url["docs-a"]: fetch(url["docs-a"]),
        url["blog-b"]: fetch(url["blog-b"]),
        url["docs-drift"]: fetch(url["docs-drift"]),
        url["docs-reversed"]: fetch(url["docs-reversed"]),
        url["docs-missing"]: fetch(url["docs-missing"]),
        url["docs-gone"]: fetch(url["docs-gone"], "gone", 404),
        url["docs-moved"]: fetch(
            url["docs-moved"],
            "moved",
            200,
            moved_to="https://docs.example.com/new/home?session=s3cr3tvalue",
        ),
        url["docs-refused"]: fetch(url["docs-refused"], "refused", 429),
        url["practitioner"]: fetch(url["practitioner"]),
        url["secret-notes"]: fetch(url["secret-notes"]),
        url["repo-readme"]: fetch(url["repo-readme"]),
    }


def fixture_previous(ledger: Ledger) -> dict[str, Any]:
    """The state of an earlier render with no evidence, edited to show every kind of change."""
    earlier = build_report(
        ledger,
        [],
        {},
        regrade(ledger, []),
        generated_on=date(2026, 11, 1),
        last_refresh=None,
        previous=None,
    )
    state: dict[str, Any] = json.loads(json.dumps(report_state(earlier)))
    state["grades"]["verified-two"]["the documentation says this"] = "CLAIMED"
    state["grades"]["gone-claim"] = {"wording": "CLAIMED"}
    state["titles"]["gone-claim"] = "A claim since removed"
    del state["quotes"]["toy"]
    state["quotes"]["missing-quote"]["An older sentence."] = {"docs-missing": "verified"}
    state["sources"]["retired"] = {"url": "https://docs.example.com/retired", "status": "ok"}
    return state


def build(ledger: Ledger, checks: Sequence[CheckRecord], previous: Any = None) -> Report:
    as_read = fixture_as_read(ledger) if checks else []
    return build_report(
        ledger,
        checks,
        fixture_fetches(ledger) if checks else {},
        regrade(ledger, checks, as_read=as_read),
        generated_on=GENERATED_ON,
        last_refresh=LAST_REFRESH if checks else None,
        previous=previous,
        as_read=as_read,
    )


@pytest.fixture(scope="module")
def ledger() -> Ledger:
    return load(FIXTURE)


@pytest.fixture(scope="module")
def report(ledger: Ledger) -> Report:
    return build(ledger, fixture_checks(ledger), fixture_previous(ledger))


@pytest.fixture(scope="module")
def env() -> Templates:
    return Templates(templates_loader(None))


@pytest.fixture(scope="module")
def outputs(report: Report, env: Templates) -> dict[str, str]:
    return {fmt: render(report, fmt, env) for fmt in FORMAT_NAMES}


def render(report: Report, fmt: str, templates: Templates) -> str:
    """The report in one format, its templates read through `templates`."""
    return format_for(fmt, templates).render(report)


# --------------------------------------------------------------------------- counts


FINDING = re.compile(r"^- \*\*(\d+) (.*?):\*\* (.*)\.$")
CLAIMS_SAID = re.compile(r"(?:\bon|\bof|, quoted by) (\d+) claims?\b")
"""A finding's line, and where it says how many claims it names ("3 grades lowered on 2
claims", "2 pages gone, quoted by 1 claim")."""


def test_every_count_the_findings_state_is_the_count_of_what_they_list(
    outputs: dict[str, str],
) -> None:
    """A line counts the claims it links, or says how many claims it links when it
    counts something else (grades, quotes, pages): never 19 beside 16 links."""
    lines = [line for line in outputs["md"].splitlines() if FINDING.match(line)]
    assert len(lines) >= 5
    for line in lines:
        found = FINDING.match(line)
        assert found is not None
        count, said, listed = found.groups()
        links = len(re.findall(r"\]\(#claim-", listed))
        claims = CLAIMS_SAID.search(said)
        if claims is None:
            assert links == int(count), line
        else:
            assert links == int(claims.group(1)) != int(count), line
    html = lxml.html.fromstring(outputs["html"])
    items = html.cssselect("ul.findings > li")
    assert len(items) == len(lines)
    for item in items:
        strong = item.find("strong")
        assert strong is not None
        said = "".join(str(piece) for piece in strong.itertext())
        claims = CLAIMS_SAID.search(said)
        named = int(claims.group(1)) if claims else int(said.split()[0])
        assert len(item.findall("a")) == named, said


@pytest.mark.parametrize("section_id", ["findings", "contents", "open-questions", "sources"])
def test_an_authors_section_never_takes_an_id_the_report_uses(
    section_id: str, env: Templates
) -> None:
    text = FIXTURE.read_text(encoding="utf-8").replace(
        "  - id: guarantees", f"  - id: {section_id}"
    )
    text = text.replace("section: guarantees", f"section: {section_id}")
    ledger = parse(text)
    html = render(build(ledger, fixture_checks(ledger)), "html", env)
    ids = [
        str(element.get("id")) for element in lxml.html.fromstring(html).iter() if element.get("id")
    ]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)
    assert f"section-{section_id}" in ids


def test_a_statement_is_shown_only_where_it_says_more_than_the_title() -> None:
    assert statement_beyond_title("Ordered delivery", "Ordered delivery.") == ""
    assert statement_beyond_title("Ordered delivery", "") == ""
    said = "One sender's messages arrive in order."
    assert statement_beyond_title("Ordered delivery", said) == said


# --------------------------------------------------------------------------- golden files


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_golden_file(outputs: dict[str, str], fmt: str) -> None:
    golden = GOLDEN / f"fixture_report.{fmt}"
    if UPDATE_GOLDEN:
        golden.write_text(outputs[fmt], encoding="utf-8")
    assert golden.exists(), "no golden file yet: run with CLAIMLEDGER_UPDATE_GOLDEN=1"
    assert outputs[fmt] == golden.read_text(encoding="utf-8"), (
        f"{golden.name} differs: review the change, then CLAIMLEDGER_UPDATE_GOLDEN=1"
    )


# --------------------------------------------------------------------------- determinism


def test_same_inputs_give_byte_identical_output(ledger: Ledger, env: Templates) -> None:
    checks = fixture_checks(ledger)
    first = build(ledger, checks, fixture_previous(ledger))
    again = build(load(FIXTURE), list(reversed(checks)), fixture_previous(ledger))
    fresh_env = Templates(templates_loader(None))
    for fmt in FORMAT_NAMES:
        assert render(first, fmt, env) == render(again, fmt, fresh_env)


def test_latest_check_wins_whatever_the_order(ledger: Ledger) -> None:
    older = check(ledger, "verified-two", 0, "docs-a", status="missing")
    older = dataclasses.replace(older, checked_at=datetime(2026, 9, 1, tzinfo=UTC))
    checks = [*fixture_checks(ledger), older]
    for order in (checks, list(reversed(checks))):
        quote = _claim(build(ledger, order), "verified-two").quotes[0]
        assert [s.status for s in quote.sources] == ["verified", "verified"]


# --------------------------------------------------------------------------- what it says


def _claim(report: Report, claim_id: str) -> ClaimView:
    return next(claim for claim in report.claims if claim.id == claim_id)


def test_grade_line_says_how_the_quote_was_cross_checked(report: Report) -> None:
    facet = _claim(report, "verified-two").facets[0]
    assert facet.line == (
        "Grade on the documentation says this: DEMONSTRATED — "
        "cross-checked on 2 independent sources, verified 2026-11-29"
    )


def test_flags_stale_proposed_and_downgraded(report: Report) -> None:
    stale = _claim(report, "drifted-harmless")
    assert stale.flags == ("STALE",)
    proposed = _claim(report, "drifted-meaning").facets[0].flags
    assert [f.kind for f in proposed] == ["PROPOSED"]
    assert "DEMONSTRATED → UNKNOWN by rule quotes-meaning-changed" in proposed[0].text
    capped = _claim(report, "lost-update")
    assert capped.flags == ("PROPOSED", "DOWNGRADED")  # its premise is falling further
    downgraded = capped.facets[1].flags
    assert [f.kind for f in downgraded] == ["PROPOSED", "DOWNGRADED"]
    assert "SPECULATIVE → UNKNOWN by rule premises-capped" in downgraded[0].text
    assert "CLAIMED → SPECULATIVE on 2026-10-01 by rule:premises-capped" in downgraded[1].text


def test_a_third_partys_report_is_said_to_be_theirs(
    report: Report, outputs: dict[str, str]
) -> None:
    quote = _claim(report, "measured").quotes[0]
    assert quote.attribution == "A. Practitioner *and* co reports, citing Consistency guide"
    assert "*A. Practitioner \\*and\\* co reports, citing Consistency guide:*" in outputs["md"]
    assert "<em>A. Practitioner *and* co reports, citing Consistency guide:</em>" in outputs["html"]


def test_a_quote_found_elsewhere_on_its_page_says_where(report: Report) -> None:
    source = _claim(report, "measured").quotes[0].sources[0]
    assert source.status == "verified"
    assert source.label == (
        "verified 2026-11-29, moved within the page (now under “Results, again”)"
    )


def test_a_refuted_claim_is_shown_refuted_and_caps_its_dependents(
    report: Report, outputs: dict[str, str]
) -> None:
    refuted = _claim(report, "never-reordered")
    assert refuted.flags[0] == "REFUTED"
    assert refuted.refuted == (
        "on 2026-11-20: the changelog reports reordered writes, fixed in 0.3.7 <script>"
    )
    assert "<script>" not in outputs["html"].split("never-reordered", 1)[1].split("</article>")[0]
    resting = _claim(report, "measured").facets[1]
    assert [p.claim_id for p in resting.premises] == ["verified-two", "never-reordered"]
    assert [f.kind for f in resting.flags] == ["PROPOSED"]
    assert "CLAIMED → UNKNOWN by rule premises-refuted" in resting.flags[0].text
    assert _claim(report, "measured").facets[0].flags == ()  # the quoted facet stands


def test_the_findings_count_what_changed_since_the_reading(report: Report) -> None:
    found = {finding.text: finding for finding in report.findings}
    assert found["quote reworded so that its meaning changed"].count == 1
    assert [c.claim_id for c in found["quote no longer on its page"].claims] == ["missing-quote"]
    assert [c.claim_id for c in found["claim refuted"].claims] == ["never-reordered"]
    assert found["harmless rewording adopted"].count == 1
    assert [c.claim_id for c in found["harmless rewording adopted"].claims] == ["verified-two"]
    misquoted = "quote misquoted at reading time (not so on the archived copy nearest that day)"
    assert [c.claim_id for c in found[misquoted].claims] == [HOSTILE_CLAIM]
    assert list(found)[:2] == [misquoted, "quote reworded so that its meaning changed"]  # worst


def test_an_adopted_rewording_shows_the_wording_as_read(
    report: Report, outputs: dict[str, str]
) -> None:
    quote = _claim(report, "verified-two").quotes[0]
    assert (quote.adopted_on, quote.as_read) == (
        "2026-09-15",
        "Each object has exactly one writer at a time.",
    )
    adopted = [d for d in report.drifts if d.status == "adopted"]
    assert [(d.claim_id, d.quoted, d.current) for d in adopted] == [
        ("verified-two", "Each object has exactly one writer at a time.", quote.text)
    ]
    assert "  - as read: “Each object has exactly one writer at a time.”" in outputs["md"]


def test_a_missing_quote_shows_the_closest_passage_and_what_it_contradicts(
    outputs: dict[str, str],
) -> None:
    assert (
        "  - the page no longer says it; its closest passage now: “Storage reads may return "
        "stale data.”\n  - that passage contradicts the quote: guarantee term changed"
    ) in outputs["md"]


def _questions_after_rule(
    ledger: Ledger, claim_id: str, rule: str, *, source: str | None = None
) -> dict[str, str]:
    """Why each open question is open once `rule` took `claim_id` to UNKNOWN (on the
    fixture's checks, or only those of `source`)."""
    text = edits.set_grade(
        FIXTURE.read_text(encoding="utf-8"), ledger, claim_id, None, Grade.UNKNOWN,
        by=f"rule:{rule}", why="the rule's reason", date=GENERATED_ON,
    )  # fmt: skip
    regraded = parse(text)
    checks = [c for c in fixture_checks(regraded) if source in (None, c.source_id)]
    return {q.claim_id: q.why for q in build(regraded, checks).questions}


def test_withdrawn_is_not_unknown_among_the_open_questions(ledger: Ledger) -> None:
    why = _questions_after_rule(ledger, "missing-quote", "quotes-missing")
    assert why["missing-quote"] == "withdrawn: the page no longer says what was quoted"
    assert why["q-scope"].startswith("asked of the vendor")


def test_a_claim_whose_page_is_gone_is_withdrawn_with_its_page(ledger: Ledger) -> None:
    """A 404 is no rewording: the open question says the page is gone."""
    why = _questions_after_rule(ledger, "sources-in-trouble", "quotes-gone", source="docs-gone")
    assert why["sources-in-trouble"] == "withdrawn: the page that said it is gone"


def test_no_history_line_repeats_the_grade_block(report: Report) -> None:
    for claim in report.claims:
        flagged = {flag.text for facet in claim.facets for flag in facet.flags}
        for line in claim.history:
            assert not any(line.split(", by ")[-1] in text for text in flagged), line


def test_drifted_quote_shows_the_pages_wording_beside_it(report: Report) -> None:
    source = _claim(report, "drifted-harmless").quotes[0].sources[0]
    assert source.status == "drifted"
    assert source.current == "Each object can serve up to 1,000 requests per second."
    assert [c.label for c in source.changes] == ["“handle” → “serve”"]


def test_churn_lists_meaning_changes_first_and_troubled_sources(report: Report) -> None:
    kinds = [(d.claim_id, d.status, d.meaning_changed) for d in report.drifts]
    assert kinds[0] == ("drifted-meaning", "drifted", True)
    assert kinds[-1] == ("missing-quote", "missing", False)
    troubled = {s.id: s.label for s in report.churn_sources}
    assert set(troubled) == {"docs-gone", "docs-moved", "docs-refused"}
    assert troubled["docs-gone"].startswith("gone (HTTP 404)")
    assert troubled["docs-refused"].startswith("refused (HTTP 429)")


def test_unreadable_source_is_no_evidence(report: Report) -> None:
    refused = _claim(report, "sources-in-trouble").quotes[2]
    assert refused.sources[0].status == "unread"
    assert "no evidence either way" in refused.sources[0].label
    moved = _claim(report, "sources-in-trouble").quotes[1].sources[0]
    assert moved.status == "verified"
    assert moved.moved_to == "https://docs.example.com/new/home?session=REDACTED"


def test_open_questions_are_numbered_and_include_unknown_facets(report: Report) -> None:
    assert [(q.number, q.claim_id) for q in report.questions] == [(1, "q-scope")]
    assert report.questions[0].unknown == ("the intended scope",)


def test_what_changed_lists_grades_quotes_and_sources(report: Report) -> None:
    changes = report.changes
    assert not changes.first_render
    assert changes.since == "2026-11-01"
    texts = [(c.area, c.subject, c.text) for c in changes.items]
    assert (
        "grade",
        "One writer at a time",
        "the documentation says this: CLAIMED → DEMONSTRATED",
    ) in texts
    assert ("claim", "A claim since removed", "claim 'gone-claim' removed") in texts
    assert ("quote", "Storage is strongly consistent", "quote removed: “An older sentence.”") in (
        texts
    )
    assert ("source", "retired", "source removed") in texts
    assert (
        "quote",
        "Messages are delivered exactly once",
        "“Messages are delivered exactly once.” on docs-reversed: unchecked → drifted",
    ) in texts
    assert ("source", "docs-gone", "unchecked → gone") in texts
    # a first check that found all well is counted, not listed
    assert ("quote", "first checks", "9 quote checks verified for the first time") in texts
    assert not [t for area, _, t in texts if t.endswith("unchecked → verified")]
    assert not [t for area, _, t in texts if t.endswith("unchecked → ok")]


def test_state_round_trips_through_json_and_then_nothing_changed(
    ledger: Ledger, report: Report
) -> None:
    state = json.loads(json.dumps(report_state(report)))
    again = build(ledger, fixture_checks(ledger), state)
    assert again.changes.items == ()
    assert again.changes.note == "Nothing changed since the render of 2026-12-01"


def test_a_refutation_since_the_last_render_is_listed_and_so_is_its_withdrawal(
    ledger: Ledger, report: Report
) -> None:
    state = json.loads(json.dumps(report_state(report)))
    title = _claim(report, "never-reordered").title
    before = {**state, "refuted": {}}
    texts = [(c.area, c.subject, c.text) for c in build(ledger, [], before).changes.items]
    assert ("claim", title, "refuted on 2026-11-20") in texts
    older = {key: value for key, value in state.items() if key != "refuted"}
    assert not [c for c in build(ledger, [], older).changes.items if "refut" in c.text]
    withdrawn = {**state, "refuted": {"verified-two": "2026-11-01"}}
    said = [(c.area, c.text) for c in build(ledger, [], withdrawn).changes.items]
    assert ("claim", "refutation withdrawn") in said
    assert ("claim", "refuted on 2026-11-20") in said


def test_first_render_and_unreadable_state(ledger: Ledger) -> None:
    assert build(ledger, []).changes.first_render
    odd = build(ledger, [], {"claimledger_render_state": 99, "grades": []})
    assert not odd.changes.first_render and odd.changes.items == ()
    assert "not one this version reads" in odd.changes.note
    garbled = build(ledger, [], {"claimledger_render_state": 1, "grades": [1], "quotes": "x"})
    assert {item.area for item in garbled.changes.items} == {"claim", "source"}


# --------------------------------------------------------------------------- URLs


def test_no_secret_reaches_any_format(outputs: dict[str, str]) -> None:
    for fmt, text in outputs.items():
        for secret in (*SECRETS, "s3cr3tvalue"):
            assert secret not in text, f"{secret!r} printed in {fmt}"
        assert "token=REDACTED" in text, fmt


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("https://docs.example.com/a b", "https://docs.example.com/a%20b"),
        ("HTTPS://Docs.Example.com/x?y=1#frag", "https://docs.example.com/x?y=1#frag"),
        ("https://u:p@example.com:8443/x", "https://example.com:8443/x"),
        (
            "https://example.com/x?api_key=1&q=ok&Signature=2",
            "https://example.com/x?api_key=REDACTED&q=ok&Signature=REDACTED",
        ),
        ("http://[::1]:8080/x", "http://[::1]:8080/x"),
        ("https://example.com/(x)", "https://example.com/%28x%29"),
        ("javascript:alert(1)", None),
        ("data:text/html,hi", None),
        ("//example.com/x", None),
        ("https:///nohost", None),
        ("https://example.com:99999/", None),
        ("", None),
    ],
)
def test_safe_url(url: str, expected: str | None) -> None:
    assert safe_url(url) == expected


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.example.com/a b/(c)?q=ü&token=x#frag",
        "https://u:p@docs.example.com/x#L1-L2:~:text=a%2Db,c",
        "http://[::1]:8080/%7Efile?x=%25",
    ],
)
def test_safe_url_is_idempotent(url: str) -> None:
    once = safe_url(url)
    assert once is not None and safe_url(once) == once
    assert md_url(once) == once


def test_text_fragment_link_encodes_the_directive_syntax() -> None:
    link = text_fragment_link("https://example.com/p", "at-least-once, A & B")
    assert link == "https://example.com/p#:~:text=at%2Dleast%2Donce%2C%20A%20%26%20B"
    long = text_fragment_link("https://example.com/p#L10-L20", " ".join(f"w{i}" for i in range(20)))
    assert (
        long
        == "https://example.com/p#L10-L20:~:text=w0%20w1%20w2%20w3%20w4,w15%20w16%20w17%20w18%20w19"
    )


@pytest.mark.parametrize("fragment", ["#:~:text=Other%20words", "#top:~:text=Other"])
def test_a_text_fragment_link_replaces_the_directive_its_source_holds(fragment: str) -> None:
    """A source added from a link that highlighted other words links the quote's words."""
    link = text_fragment_link(f"https://example.com/p{fragment}", "The words.")
    page = "https://example.com/p#" + fragment[1:].partition(":~:")[0]
    assert link == f"{page}:~:text=The%20words."


def test_a_quote_found_with_its_typography_folded_links_the_pages_own_characters(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The quote typed with a curly apostrophe and a dash, the page with a straight one and
    a hyphen: found all the same, its link highlighted nothing, since a browser matches a
    directive's characters as they are; it is written as the page has them."""
    page_server.set_page("/guide", page("Writes aren't lost - ever."))
    ledger = tmp_path / "claims.yaml"
    typed = "Writes aren\u2019t lost \u2014 ever."
    ledger.write_text(BLAME_LEDGER.format(url=page_server.url("/guide"), quote=typed), "utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=0)
    report = cli("render", "--format", "md", "-o", "-").stdout
    assert ":~:text=Writes%20aren%27t%20lost%20%2D%20ever." in report
    assert "%E2%80%99" not in report  # the typed apostrophe, which the page does not have


def test_a_text_fragment_link_keeps_the_quote_where_the_pages_words_differ() -> None:
    """A stored wording that is another one (a rewording, a store from elsewhere) never
    takes the quote's place in its link."""
    link = text_fragment_link("https://example.com/p", "Data is kept.", "Data is lost.")
    assert link == "https://example.com/p#:~:text=Data%20is%20kept."


def test_a_text_fragment_link_never_carries_a_text_files_markup() -> None:
    """A GitHub file is read raw and opened rendered: `**not**` on the page's text is
    shown as "not", so a link carrying the asterisks would highlight nothing."""
    blob = "https://github.com/o/r/blob/main/README.md"
    link = text_fragment_link(
        blob, "It is not safe to run twice.", "It is **not** safe to run twice."
    )
    assert link == f"{blob}#:~:text=It%20is%20not%20safe%20to%20run%20twice."


# --------------------------------------------------------------------------- HTML structure


def _html(text: str) -> Any:
    return lxml.html.document_fromstring(text)


ALLOWED_HTML = {
    "html", "head", "meta", "title", "style", "body", "header", "footer", "main", "nav",
    "section", "article", "figure", "figcaption", "blockquote", "h1", "h2", "h3", "p", "dl",
    "dt", "dd", "ul", "ol", "li", "table", "thead", "tbody", "tr", "th", "td", "a", "span",
    "strong", "em", "code", "pre", "div",
}  # fmt: skip


def test_html_structure(outputs: dict[str, str], report: Report) -> None:
    doc = _html(outputs["html"])
    tags = {element.tag for element in doc.iter() if isinstance(element.tag, str)}
    assert tags <= ALLOWED_HTML | {"script"}, f"unexpected elements: {tags - ALLOWED_HTML}"
    assert not doc.xpath("//iframe | //img | //object | //embed | //link | //base")
    (data,) = doc.xpath("//script")  # the ClaimReview, a data block in the head, never run
    assert data.getparent().tag == "head" and dict(data.attrib) == {"type": "application/ld+json"}
    assert json.loads(data.text) == json.loads(outputs["claimreview"])
    (policy,) = doc.xpath("//meta[@http-equiv='Content-Security-Policy']/@content")
    assert "script-src 'none'" in policy and "default-src 'none'" in policy
    ids = set(doc.xpath("//@id"))
    for claim in report.claims:
        headings = doc.xpath(f"//h3[@id='{claim.anchor}']")
        assert len(headings) == 1, claim.id
        assert headings[0].text_content() == claim.title
    for href in doc.xpath("//a/@href"):
        assert re.match(r"https?://", href) or href[1:] in ids, href
        assert not href.startswith("#") or href[1:] in ids
    for element in doc.iter():
        if isinstance(element.tag, str):
            assert not [a for a in element.attrib if a.lower().startswith("on")], element.tag


def test_html_shows_hostile_text_as_text(outputs: dict[str, str], ledger: Ledger) -> None:
    doc = _html(outputs["html"])
    quotes = {" ".join(seen(b.text_content()).split()) for b in doc.xpath("//blockquote")}
    for quote in ledger.claim(HOSTILE_CLAIM).quotes:
        assert " ".join(quote.text.split()) in quotes
    assert "<img src=x onerror=alert(1)> [click](javascript:alert(2)) </blockquote> | *now*" in (
        quotes
    )
    headings = [h.text_content() for h in doc.xpath("//h2 | //h3")]
    assert "The guarantees <b>as published</b>" in headings
    assert "Injected heading" not in headings


def test_html_author_markdown_is_a_safe_subset(outputs: dict[str, str]) -> None:
    doc = _html(outputs["html"])
    about = doc.xpath("//div[@class='about']")[0]
    assert about.xpath(".//strong")[0].text == "Bold"
    assert about.xpath(".//code")[0].text == "code <b>"
    assert about.xpath(".//a/@href") == ["https://example.org/about"]
    assert '<script>alert("about")</script>' in about.text_content()
    assert len(about.xpath(".//li")) == 2


# --------------------------------------------------------------------------- Markdown


def _markdown_to_html(text: str) -> Any:
    """CommonMark with GFM tables and raw HTML on: what a renderer would make of it."""
    engine = MarkdownIt("commonmark", {"html": True}).enable(["table", "strikethrough"])
    return _html(f"<html><body>{engine.render(text)}</body></html>")


def _outside_code(markdown: str) -> Iterator[str]:
    fence: str | None = None
    for line in markdown.splitlines():
        opening = re.match(r"^(`{3,})", line)
        if fence is None and opening:
            fence = opening.group(1)
        elif fence is not None and line.startswith(fence) and not line.strip("`"):
            fence = None
        elif fence is None:
            yield line


def test_markdown_has_no_raw_html_but_our_anchors(outputs: dict[str, str]) -> None:
    for line in _outside_code(outputs["md"]):
        line = re.sub(r"(`+).+?\1", "", line)
        for tag in re.findall(r"(?<!\\)<\s*/?\s*([a-zA-Z][\w-]*)", line):  # not an escaped \<
            assert tag == "a" and re.fullmatch(r'<a id="[a-z0-9._-]+"></a>', line), line
    rendered = _markdown_to_html(outputs["md"])  # raw HTML on: only our anchors are elements
    anchors = rendered.xpath("//a[not(@href)]")
    assert anchors and all(set(a.attrib) == {"id"} and not len(a) for a in anchors)


def _cells(row: str) -> int:
    return len(re.split(r"(?<!\\)\|", row.strip())) - 2


def test_markdown_table_rows_have_the_right_cell_count(outputs: dict[str, str]) -> None:
    tables: list[list[str]] = []
    previous = ""
    for line in _outside_code(outputs["md"]):
        if line.startswith("|"):
            if not previous.startswith("|"):
                tables.append([])
            tables[-1].append(line)
        previous = line
    assert len(tables) >= 4
    for table in tables:
        assert re.fullmatch(r"\|(-+:?\|)+", table[1].replace("---:", "---")), table[1]
        assert {_cells(row) for row in table} == {_cells(table[0])}, table[0]
    rendered = _markdown_to_html(outputs["md"])
    for table in rendered.xpath("//table"):
        width = len(table.xpath("./thead/tr/th"))
        assert {len(tr.xpath("./td")) for tr in table.xpath("./tbody/tr")} <= {width}


def test_markdown_renders_hostile_text_as_text(outputs: dict[str, str], ledger: Ledger) -> None:
    doc = _markdown_to_html(outputs["md"])
    assert not doc.xpath("//script | //img | //iframe | //h1[2] | //h4 | //del")
    assert [h.text_content() for h in doc.xpath("//h1")] == [
        "Fixture teardown: gates | pipes *and* `ticks` #1"
    ]
    ids = set(doc.xpath("//@id"))
    for href in doc.xpath("//a/@href"):
        assert re.match(r"https?://", href) or href[1:] in ids, href
    quotes = {" ".join(seen(b.text_content()).split()) for b in doc.xpath("//blockquote")}
    for quote in ledger.claim(HOSTILE_CLAIM).quotes:
        assert " ".join(quote.text.split()) in quotes, quote.text
    titles = [h.text_content() for h in doc.xpath("//h3")]
    assert "Tables | pipes *and* `ticks` #hash <i>tags</i>" in titles
    intro = doc.xpath("//h2[.='The guarantees <b>as published</b>']/following-sibling::p[1]")[0]
    assert intro.xpath(".//a") == [] and "[reference link][evil]" in intro.text_content()


def test_markdown_links_only_to_the_web_and_to_anchors(outputs: dict[str, str]) -> None:
    doc = _markdown_to_html(outputs["md"])
    links = doc.xpath("//a[@href]")
    assert links, "the report links its sources"
    assert "https://example.org/about" in {a.get("href") for a in links}
    hosts = {urllib.parse.urlsplit(a.get("href")).hostname for a in links}
    assert not {host for host in hosts if host and "evil" in host}


def test_code_block_fence_outgrows_backticks_inside() -> None:
    block = code_block("print('```')\n````")
    assert block.startswith("`````\n") and block.endswith("\n`````")


# hypothesis: whatever the text, the Markdown shows exactly that text and nothing else.

_PIECES = [*"\\`*_[]()<>#!|~$@:&;.-+=1\n\r\t ", "www.", "http://", "&amp;", "    ", "1. "]
_TEXT = st.lists(
    st.characters(blacklist_categories=["Cs"], max_codepoint=0x2FFF) | st.sampled_from(_PIECES),
    max_size=40,
).map("".join)


@settings(max_examples=400, deadline=None)
@given(_TEXT)
def test_md_escape_shows_exactly_the_text(text: str) -> None:
    # a word joiner of the text's own is as unseen; a bidi control shows as its marker
    expected = seen(one_line(bidi_marked(text)))
    for wrapper in ("> {}", "- {}", "{}", "| a | {} |\n|---|---|\n| {} | b |"):
        doc = _markdown_to_html(wrapper.replace("{}", md_escape(text)))
        body = doc.xpath("//body")[0]
        if wrapper.startswith("|"):
            assert len(body.xpath(".//td")) == 2 and len(body.xpath(".//th")) == 2
            cells = [body.xpath(".//th")[1], body.xpath(".//td")[0]]
            assert [seen(c.text_content()).strip() for c in cells] == [expected.strip()] * 2
            continue
        inline = body.xpath(".//a | .//em | .//strong | .//code | .//img | .//del | .//br")
        assert inline == [], (text, wrapper)
        blocks = body.xpath(".//h1|.//h2|.//h3|.//h4|.//h5|.//h6|.//hr|.//pre|.//ol|.//table")
        assert blocks == [], (text, wrapper)
        assert seen(body.text_content()).strip() == expected.strip(), (text, wrapper)


def seen(text: str) -> str:
    """Text as a reader sees it: the invisible word joiner that keeps GitHub from linking
    an address (`me⁠@z.example`) is not there to the eye."""
    return text.replace("\u2060", "")


def test_md_escape_breaks_autolinks_and_mentions() -> None:
    escaped = md_escape("see https://x.example and www.y.example or me@z.example, rule:x")
    assert escaped == (
        "see https\\://x.example and www\\.y.example or me&#x2060;\\@z.example, rule:x"
    )


def test_author_markdown_keeps_web_links_only() -> None:
    text = author_markdown(
        "[ok](https://example.org) [bad](javascript:alert(1)) [rel](notes.md) "
        "<script>x</script> `<kept>` [ref]: vbscript:x"
    )
    doc = _markdown_to_html(text)
    assert [a.get("href") for a in doc.xpath("//a")] == ["https://example.org"]
    assert not doc.xpath("//script")
    assert doc.xpath("//code")[0].text == "<kept>"


# --------------------------------------------------------------------------- other formats


def test_json_has_the_documented_top_level_keys(outputs: dict[str, str]) -> None:
    data = json.loads(outputs["json"])
    assert list(data) == [
        "schema_version", "claimledger_report", "title", "subject", "author", "about", "date_read",
        "last_refresh", "last_refresh_finished", "generated_on", "has_evidence", "quotes_checked",
        "legend", "summary", "sections", "questions", "fidelity", "churn_sources", "drifts",
        "changes", "did_not", "could_not_see", "sources", "closing", "findings", "anchors",
        "evidence_made_here",
    ]  # fmt: skip
    assert data["claimledger_report"] == data["schema_version"] == 2
    claim = data["sections"][0]["claims"][0]
    assert claim["facets"][0]["grade"] == "DEMONSTRATED"
    assert claim["quotes"][0]["sources"][0]["status"] == "verified"


def test_claimreview_items(outputs: dict[str, str], report: Report) -> None:
    items = json.loads(outputs["claimreview"])
    assert len(items) == len(report.claims)
    for item, claim in zip(items, report.claims, strict=True):
        assert item["@context"] == "https://schema.org"
        assert item["@type"] == "ClaimReview"
        assert item["@id"] == f"#{claim.anchor}" and "url" not in item  # no --base-url given
        short = item["claimReviewed"]
        assert len(short) <= 75 and claim.statement.startswith(short.removesuffix("…"))
        assert short == claim.statement or short.endswith("…")
        rating = item["reviewRating"]
        assert rating["@type"] == "Rating"
        assert rating["alternateName"] in {g.value for g in Grade} | {"REFUTED"}
        assert (rating["alternateName"] == "REFUTED") == (claim.refuted is not None)
        if claim.refuted_on is not None:  # the day it was refuted, not its grade's
            assert item["datePublished"] == claim.refuted_on
        if rating["alternateName"] in ("UNKNOWN", "REFUTED"):  # not the bottom: off the scale
            assert not {"ratingValue", "bestRating", "worstRating"} & set(rating)
        else:
            assert rating["worstRating"] == 1 <= rating["ratingValue"] <= rating["bestRating"] == 3
        claimed = item["itemReviewed"]
        assert claimed["@type"] == "Claim" and claimed["text"] == claim.statement
        works = claimed.get("appearance", [])
        assert claimed.get("firstAppearance") == (works[0] if works else None)
        for work in works:
            assert work["@type"] == "CreativeWork"
            assert re.match(r"https?://", work["url"])
        assert item["reviewBody"]
    by_id = {item["@id"]: item for item in items}
    verified = by_id["#claim-verified-two"]
    assert verified["reviewRating"]["alternateName"] == "CLAIMED"  # its weakest facet
    assert verified["author"] == {"@type": "Person", "name": "Fixture Author"}
    assert verified["datePublished"] == "2026-08-23"  # graded at the reading, not today
    assert by_id["#claim-lost-update"]["datePublished"] == "2026-10-01"  # a rule lowered it
    assert by_id["#claim-q-scope"]["reviewRating"]["alternateName"] == "UNKNOWN"
    assert by_id["#claim-hostile"]["claimReviewed"].endswith("[a…")  # cut at a word


def test_claimreview_with_a_base_url_has_absolute_ids(report: Report, env: Templates) -> None:
    base = "https://example.org/teardowns/platform.html"
    items = json.loads(format_for("claimreview", env, base).render(report))
    for item, claim in zip(items, report.claims, strict=True):
        assert item["@id"] == item["url"] == f"{base}#{claim.anchor}"
    page = _html(format_for("html", env, base).render(report))
    assert json.loads(page.xpath("//script")[0].text) == items


@pytest.mark.parametrize(
    "url",
    [
        "example.org/report.html",
        "ftp://example.org/report.html",
        "https://example.org/report.html#top",
        "https://example.org/a report.html",
        "https://reader:pw@example.org/report.html",
        "https://example.org/report.html?token=abc123",
        "http://[::1/report.html",
    ],
)
def test_a_base_url_that_cannot_be_published_at_is_refused(url: str) -> None:
    with pytest.raises(InputError, match="--base-url"):
        published_at(url)


def test_unknown_format_is_an_input_error(report: Report, env: Templates) -> None:
    with pytest.raises(InputError, match="unknown report format"):
        render(report, "pdf", env)


# --------------------------------------------------------------------------- the bundled ledger


def test_bundled_ledger_renders_in_every_format_with_no_evidence(env: Templates) -> None:
    bundled = load(BUNDLED)
    report = build_report(
        bundled,
        [],
        {},
        regrade(bundled, []),
        generated_on=GENERATED_ON,
        last_refresh=None,
        previous=None,
    )
    texts = {fmt: render(report, fmt, env) for fmt in FORMAT_NAMES}
    html = _html(texts["html"])
    markdown = _markdown_to_html(texts["md"])
    for doc in (html, markdown):
        page = " ".join(doc.text_content().split())
        for claim in bundled.claims:
            assert claim.title in page
            for quote in claim.quotes:
                assert " ".join(quote.text.split()) in page
            for facet in claim.grades:
                assert f"Grade on {facet.on}: {facet.grade}" in page
        assert page.count("not yet verified") >= sum(len(c.quotes) for c in bundled.claims)
        for item in bundled.scope.did_not + bundled.scope.could_not_see:
            assert " ".join(item.split()) in page
    asked = [c.id for c in bundled.claims if c.kind == "question"]
    assert asked and set(asked) <= {q.claim_id for q in report.questions}
    assert len(json.loads(texts["claimreview"])) == len(bundled.claims)
    assert json.loads(texts["json"])["has_evidence"] is False


def test_an_empty_ledger_renders(env: Templates) -> None:
    empty = parse(
        "ledger: 1\ntitle: Empty\ndate_read: 2026-01-02\n"
        "sections: [{id: only, title: Only}]\nsources: {}\nclaims: []\n"
    )
    report = build_report(
        empty,
        [],
        {},
        regrade(empty, []),
        generated_on=GENERATED_ON,
        last_refresh=None,
        previous=None,
    )
    for fmt in FORMAT_NAMES:
        text = render(report, fmt, env)
        assert text.endswith("\n")
        assert "Empty" in text or fmt == "claimreview"
    assert json.loads(render(report, "claimreview", env)) == []


# --------------------------------------------------------------------------- templates


def test_a_users_template_wins_and_the_other_falls_back(tmp_path: Path, report: Report) -> None:
    (tmp_path / "report.md.j2").write_text("Custom: {{ report.title }}\n", encoding="utf-8")
    env = Templates(templates_loader(tmp_path))
    assert (
        render(report, "md", env)
        == "Custom: Fixture teardown: gates \\| pipes \\*and\\* \\`ticks\\` \\#1\n"
    )
    assert render(report, "html", env).startswith("<!DOCTYPE html>")


def test_a_user_template_that_forgets_to_escape_is_still_safe(
    tmp_path: Path, report: Report
) -> None:
    template = (
        "{% for c in report.claims %}> {{ c.quotes[2].text if c.id == 'hostile' }}\n{% endfor %}"
    )
    (tmp_path / "report.md.j2").write_text(template, encoding="utf-8")
    text = render(report, "md", Templates(templates_loader(tmp_path)))
    assert "&lt;script&gt;alert('quote')&lt;/script&gt; is not run." in text
    assert "<script" not in text


@pytest.mark.parametrize(
    ("body", "where", "what"),
    [
        ("line one\n\n{{ report.titel }}\n", "report.md.j2:3", "titel"),
        (
            "{% for x in report.claims %}\n{{ x.nope.deeper }}\n{% endfor %}\n",
            "report.md.j2:2",
            "nope",
        ),
        ("ok\n{% if report.title %}\nno end\n", "report.md.j2:", "endif"),
        ("{{ report.title | no_such_filter }}\n", "report.md.j2:1", "no_such_filter"),
    ],
)
def test_a_template_typo_names_file_and_line(
    tmp_path: Path, report: Report, body: str, where: str, what: str
) -> None:
    (tmp_path / "report.md.j2").write_text(body, encoding="utf-8")
    with pytest.raises(TemplateError) as caught:
        render(report, "md", Templates(templates_loader(tmp_path)))
    message = str(caught.value)
    assert where in message and what in message
    assert str(tmp_path) in message
    assert isinstance(caught.value, InputError) and caught.value.exit_code == ExitCode.INPUT


# --------------------------------------------------------------------------- a real browser


def _browser() -> str | None:
    for name in ("chromium", "chromium-browser", "google-chrome", "chrome"):
        found = shutil.which(name)
        if found:
            return found
    return None


@pytest.mark.slow
def test_html_report_in_headless_chromium(
    tmp_path: Path, outputs: dict[str, str], report: Report
) -> None:
    browser = _browser()
    if browser is None:
        pytest.skip("no chromium binary on PATH (install Debian's `chromium` to run this test)")
    page = tmp_path / "report.html"
    page.write_text(outputs["html"], encoding="utf-8")
    result = subprocess.run(
        [
            browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
            "--disable-background-networking", "--disable-component-update", "--disable-sync",
            "--no-first-run", f"--user-data-dir={tmp_path / 'profile'}",
            "--dump-dom", page.as_uri(),
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr[-2000:]
    dom = _html(result.stdout)
    body = " ".join(dom.xpath("//body")[0].text_content().split())
    assert len(body) > 1000
    for claim in report.claims:
        assert " ".join(claim.title.split()) in body
    assert not dom.xpath("//script[not(@type='application/ld+json')]")


def test_the_summary_accounts_for_every_quote_and_every_facet_with_a_notice(
    report: Report,
) -> None:
    """The headline's counts add up to the quotes it counts (a quote added since the last
    refresh is "not checked"), and its stale facets are those `regrade` lists under Stale
    facets, whatever the notice: a meaning that changed on one source only is one too."""
    summary = report.summary
    counted = (
        summary.verified_quotes,
        summary.drifted_quotes,
        summary.missing_quotes,
        summary.unchecked_quotes,
        summary.disagreeing_quotes,
        summary.partly_read_quotes,
    )
    assert sum(counted) == summary.quotes
    notices = (
        Notice("a", "wording", "stale", "reworded"),
        Notice("b", "wording", "sources-disagree", "changed on one source"),
        Notice("b", "wording", "needs-review", "adopted"),
    )
    said = summary_of([], [], Regrade((), notices, (), True))
    assert said.stale == 2
