"""The regrade rules, one table each, and the property that regrading is idempotent."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimledger.grading.rules import ArtifactOutcome, Regrade, current_checks, regrade
from claimledger.ledger import edits
from claimledger.ledger.model import Ledger, parse
from claimledger.ledger.vocabulary import Grade
from claimledger.recipes import recipe

WHEN = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)
TODAY = dt.date(2026, 11, 29)

LEDGER = """\
ledger: 1
title: Rules
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  docs: {url: "https://docs.example/a", title: D, kind: docs, publisher: vendor}
  mirror: {url: "https://docs.example/b", title: M, kind: mirror, publisher: vendor}
  blog: {url: "https://blog.example/c", title: B, kind: blog, publisher: vendor, independent: true}
claims:
  - id: single
    section: s
    title: Single
    kind: guarantee
    statement: S.
    quotes:
      - {text: "one quote on one page", sources: [docs]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}
  - id: crossed
    section: s
    title: Crossed
    kind: guarantee
    statement: S.
    quotes:
      - {text: "a quote on two pages", sources: [docs, blog]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
  - id: same-publisher
    section: s
    title: Same publisher
    kind: guarantee
    statement: S.
    quotes:
      - {text: "a quote on docs and mirror", sources: [docs, mirror]}
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes, min_sources: 2}
  - id: premise-user
    section: s
    title: Rests on single
    kind: consequence
    statement: S.
    depends_on: [single]
    grades:
      - {on: follows, grade: CLAIMED, basis: premises}
  - id: second-hand
    section: s
    title: Rests on premise-user
    kind: consequence
    statement: S.
    depends_on: [premise-user]
    grades:
      - {on: follows, grade: SPECULATIVE, basis: premises}
  - id: toy
    section: s
    title: Toy
    kind: artifact
    statement: S.
    artifact: {run: [python3, -c, "print(1)"], expect: "1"}
    grades:
      - {on: output, grade: DEMONSTRATED, basis: artifact}
  - id: opinion
    section: s
    title: Opinion
    kind: question
    statement: S.
    grades:
      - {on: answer, grade: CLAIMED, basis: judgement}
"""


@dataclass(frozen=True)
class FakeCheck:
    """A recorded check as plain values (the rules read only these fields)."""

    claim_id: str
    quote_text: str
    source_id: str
    status: str | None
    source_status: str = "ok"
    meaning_changed: bool = False
    current: str | None = None
    checked_at: dt.datetime = WHEN
    url: str = ""
    change_kinds: tuple[str, ...] = ()
    snapshot_hash: str | None = None
    recipe: str = ""
    moved_within: str | None = None


QUOTES = {
    "single": ("one quote on one page", ("docs",)),
    "crossed": ("a quote on two pages", ("docs", "blog")),
    "same-publisher": ("a quote on docs and mirror", ("docs", "mirror")),
}


def checks(**statuses: str | tuple[str, ...]) -> list[FakeCheck]:
    """`single="missing"` sets every source of that quote; a tuple sets them in order."""
    made = []
    for claim_id, (text, sources) in QUOTES.items():
        wanted = statuses.get(claim_id.replace("-", "_"), "verified")
        per_source = wanted if isinstance(wanted, tuple) else (wanted,) * len(sources)
        for source, status in zip(sources, per_source, strict=True):
            made.append(_check(claim_id, text, source, status))
    return made


def _check(claim_id: str, text: str, source: str, status: str) -> FakeCheck:
    if status in ("gone", "refused", "unreachable", "unreadable"):
        return FakeCheck(claim_id, text, source, None, source_status=status)
    if status == "reversed":
        return FakeCheck(claim_id, text, source, "drifted", meaning_changed=True, current="x")
    return FakeCheck(claim_id, text, source, status, current="y" if status == "drifted" else None)


def proposed(
    ledger: Ledger, found: list[FakeCheck], **artifacts: bool
) -> set[tuple[str, str, str]]:
    outcomes = {cid: ArtifactOutcome(cid, ok) for cid, ok in artifacts.items()}
    result = regrade(ledger, found, outcomes)
    return {(p.claim_id, str(p.to_grade), p.rule) for p in result.proposals}


@pytest.fixture
def ledger() -> Ledger:
    return parse(LEDGER)


Statuses = dict[str, str | tuple[str, ...]]
Proposals = set[tuple[str, str, str]]

QUOTE_RULE_CASES: dict[str, tuple[Statuses, Proposals]] = {
    "all verified: nothing": ({}, set()),
    "missing on its only page": (
        {"single": "missing"},
        {
            ("single", "UNKNOWN", "quotes-gone"),
            ("premise-user", "UNKNOWN", "premises-capped"),
            ("second-hand", "UNKNOWN", "premises-capped"),
        },
    ),
    "page gone (404)": (
        {"single": "gone"},
        {
            ("single", "UNKNOWN", "quotes-gone"),
            ("premise-user", "UNKNOWN", "premises-capped"),
            ("second-hand", "UNKNOWN", "premises-capped"),
        },
    ),
    "429 is no evidence": ({"single": "refused"}, set()),
    "timeout is no evidence": ({"single": "unreachable"}, set()),
    "meaning reversed": (
        {"single": "reversed"},
        {
            ("single", "UNKNOWN", "quotes-meaning-changed"),
            ("premise-user", "UNKNOWN", "premises-capped"),
            ("second-hand", "UNKNOWN", "premises-capped"),
        },
    ),
    "harmless drift: stale, no grade change": ({"single": "drifted"}, set()),
    "cross-check lost on one of two": (
        {"crossed": ("verified", "missing")},
        {("crossed", "CLAIMED", "quotes-under-sourced")},
    ),
    "cross-check: one unread source proposes nothing": (
        {"crossed": ("verified", "unreachable")},
        set(),
    ),
    "ambiguous still carries the words": ({"single": "ambiguous"}, set()),
}


@pytest.mark.parametrize("case", QUOTE_RULE_CASES, ids=list(QUOTE_RULE_CASES))
def test_quote_and_premise_rules(ledger: Ledger, case: str) -> None:
    statuses, expected = QUOTE_RULE_CASES[case]
    assert proposed(ledger, checks(**statuses)) == expected


def test_one_publisher_counts_once(ledger: Ledger) -> None:
    """Docs and its mirror are one publisher: verified on both is still one source."""
    text = edits.set_grade(
        LEDGER, ledger, "same-publisher", None, Grade.DEMONSTRATED, by="person", why="x", date=TODAY
    )
    assert proposed(parse(text), checks()) == {
        ("same-publisher", "CLAIMED", "quotes-under-sourced")
    }


@pytest.mark.parametrize("order", ["docs, blog, mirror", "blog, docs, mirror"])
def test_one_text_read_at_two_addresses_joins_their_publishers_in_any_order(
    order: str,
) -> None:
    """The blog redirects to the docs (one text, one source), and the docs and their mirror
    are one publisher: one independent source, whichever of them the quote names first.
    Named blog first, the docs counted as the blog and the mirror as the vendor: two."""
    ledger = parse(LEDGER.replace("sources: [docs, blog]", f"sources: [{order}]"))
    text = "a quote on two pages"
    found = [
        FakeCheck("crossed", text, "docs", "verified", snapshot_hash="one-text"),
        FakeCheck("crossed", text, "blog", "verified", snapshot_hash="one-text"),
        FakeCheck("crossed", text, "mirror", "verified", snapshot_hash="its-mirror"),
    ]
    assert {p for p in proposed(ledger, found) if p[0] == "crossed"} == {
        ("crossed", "CLAIMED", "quotes-under-sourced")
    }


def test_no_evidence_proposes_nothing_and_says_so(ledger: Ledger) -> None:
    result = regrade(ledger, [])
    assert result.proposals == () and not result.has_evidence
    assert {t.outcome for t in result.traces if t.rule == "quotes"} == {"no evidence yet"}


def test_harmless_drift_marks_the_facet_stale(ledger: Ledger) -> None:
    result = regrade(ledger, checks(single="drifted"))
    assert [(n.claim_id, n.kind) for n in result.notices] == [("single", "stale")]


def test_a_meaning_change_on_one_of_two_sources_is_flagged(ledger: Ledger) -> None:
    result = regrade(ledger, checks(crossed=("verified", "reversed")))
    assert [(n.claim_id, n.kind) for n in result.notices] == [("crossed", "sources-disagree")]
    assert result.pending


def test_no_grade_rises_while_a_page_read_says_the_reverse_of_its_quote() -> None:
    """Fallen for a quote gone from both its pages, the grade came back to DEMONSTRATED
    when one page carried it again while the other said its reverse, though the report
    rates such a claim UNKNOWN while its sources disagree. Held, with the notice."""
    one_enough = LEDGER.replace("basis: quotes, min_sources: 2}", "basis: quotes}", 1)
    fallen = apply_all(one_enough, regrade(parse(one_enough), checks(crossed="missing")))
    assert parse(fallen).claim("crossed").grades[0].grade is Grade.UNKNOWN
    result = regrade(parse(fallen), checks(crossed=("verified", "reversed")))
    assert not [p for p in result.proposals if p.claim_id == "crossed"]
    assert [(n.claim_id, n.kind) for n in result.notices] == [("crossed", "sources-disagree")]
    assert ("crossed", "DEMONSTRATED", "quotes-restored") in proposed(parse(fallen), checks())


@pytest.mark.parametrize("lost", ["missing", "gone"])
def test_a_quote_gone_from_one_of_its_sources_is_a_notice_though_another_carries_it(
    lost: str,
) -> None:
    """One source is enough for the grade, but the ledger still says the other carries the
    words: the gate must not pass while it says so."""
    one_enough = parse(LEDGER.replace("basis: quotes, min_sources: 2}", "basis: quotes}", 1))
    result = regrade(one_enough, checks(crossed=("verified", lost)))
    assert proposed(one_enough, checks(crossed=("verified", lost))) == set()
    (notice,) = result.notices
    assert (notice.claim_id, notice.kind) == ("crossed", "sources-disagree")
    assert notice.why.startswith("1 quote is no longer on blog, though another source")
    assert result.pending


def test_a_harmless_rewording_never_restores_a_grade_its_sources_do_not_carry(
    ledger: Ledger,
) -> None:
    """Lowered for want of a second source, the grade stays lowered when the one source
    left rewords the quote: the evidence shrank, the grade must not rise."""
    lowered = parse(apply_all(LEDGER, regrade(ledger, checks(crossed=("verified", "missing")))))
    assert lowered.claim("crossed").grades[0].grade is Grade.CLAIMED

    assert proposed(lowered, checks(crossed=("drifted", "missing"))) == set()
    assert ("crossed", "DEMONSTRATED", "quotes-restored") in proposed(
        lowered, checks(crossed=("drifted", "drifted"))
    )  # two sources carry the harmless rewording: the second source is back


def test_a_rewording_that_may_have_changed_the_meaning_restores_no_grade(
    ledger: Ledger,
) -> None:
    """Fallen for a quote gone, the grade came back to DEMONSTRATED (and its dependents
    with it) when the page said something in its place whose meaning may have changed:
    adopted first, the same words would have held the claim for review. Nothing falls on
    such a page, and nothing rises on it."""
    fallen = parse(apply_all(LEDGER, regrade(ledger, checks(single="missing"))))
    doubtful = FakeCheck(
        "single", "one quote on one page", "docs", "drifted",
        current="one quote on every page", change_kinds=("quantifier changed",),
    )  # fmt: skip
    found = [c for c in checks() if c.claim_id != "single"] + [doubtful]
    result = regrade(fallen, found)
    assert result.proposals == ()
    assert [(n.claim_id, n.kind) for n in result.notices] == [("single", "stale")]
    assert not [p for p in proposed(ledger, found) if p[0] == "single"]


def test_a_page_that_could_not_be_read_raises_no_grade(ledger: Ledger) -> None:
    """Lowered for a source that dropped the quote, the grade went back up when that source
    stopped answering: its 503 was counted as a source that might carry the quote, and
    `explain` said "every quote verified on 2 independent sources"."""
    lowered = parse(apply_all(LEDGER, regrade(ledger, checks(crossed=("verified", "missing")))))
    assert lowered.claim("crossed").grades[0].grade is Grade.CLAIMED
    for unread in ("unreachable", "refused", "unreadable"):
        result = regrade(lowered, checks(crossed=("verified", unread)))
        assert not [p for p in result.proposals if p.claim_id == "crossed"]
        (trace,) = [t for t in result.traces if t.claim_id == "crossed"]
        assert trace.rule == "quotes-unconfirmed"
        assert trace.outcome.startswith("held: blog could not be read")
    assert ("crossed", "DEMONSTRATED", "quotes-restored") in proposed(lowered, checks())


def test_a_grade_rises_only_as_far_as_the_pages_read_carry_it(ledger: Ledger) -> None:
    """Fallen to UNKNOWN, the quote back on one source and the other unread: CLAIMED (one
    source read carries it), not the DEMONSTRATED that needs two; no more while the
    second is unread."""
    fallen = apply_all(LEDGER, regrade(ledger, checks(crossed="missing")))
    assert parse(fallen).claim("crossed").grades[0].grade is Grade.UNKNOWN
    one_read = checks(crossed=("verified", "unreachable"))
    partly = regrade(parse(fallen), one_read)
    assert ("crossed", "CLAIMED", "quotes-restored") in proposed(parse(fallen), one_read)
    claimed = parse(apply_all(fallen, partly))
    assert not [p for p in proposed(claimed, one_read) if p[0] == "crossed"]
    assert ("crossed", "DEMONSTRATED", "quotes-restored") in proposed(claimed, checks())


def test_no_rule_raises_a_grade_of_a_refuted_claim(ledger: Ledger) -> None:
    """Its quotes may read again as they did; the claim was shown false all the same."""
    fallen = apply_all(LEDGER, regrade(ledger, checks(single="missing")))
    refuted = parse(
        edits.refute(
            fallen, parse(fallen), "single", why="a write was lost", by="person", date=TODAY
        )
    )
    result = regrade(refuted, checks())
    assert not [p for p in result.proposals if p.claim_id == "single"]
    (trace,) = [t for t in result.traces if t.claim_id == "single"]
    assert (trace.rule, trace.outcome) == (
        "refuted",
        f"the claim was refuted on {TODAY}: no rule raises its grades",
    )


def test_a_meaning_changed_on_the_only_source_read_is_a_notice() -> None:
    """The other source could not be read: no grade falls on an unread page, but the one
    page read says the reverse, and the gate must not pass over it."""
    one_enough = parse(LEDGER.replace("basis: quotes, min_sources: 2}", "basis: quotes}", 1))
    result = regrade(one_enough, checks(crossed=("reversed", "unreachable")))
    (notice,) = result.notices
    assert (notice.claim_id, notice.kind) == ("crossed", "sources-disagree")
    assert notice.why.startswith("a quote's meaning changed on docs, and no other source")
    assert result.pending


def test_artifact_rule_lowers_then_restores(ledger: Ledger) -> None:
    fine = checks()
    assert ("toy", "UNKNOWN", "artifact-changed") in proposed(ledger, fine, toy=False)
    assert not any(p[0] == "toy" for p in proposed(ledger, fine, toy=True))
    lowered = apply_all(LEDGER, regrade(ledger, fine, {"toy": ArtifactOutcome("toy", False)}))
    assert ("toy", "DEMONSTRATED", "artifact-restored") in proposed(parse(lowered), fine, toy=True)


def test_judgement_is_never_changed_by_a_rule(ledger: Ledger) -> None:
    worst = checks(single="missing", crossed="missing", same_publisher="missing")
    assert not any(p[0] == "opinion" for p in proposed(ledger, worst, toy=False))


def test_a_persons_grade_is_not_undone_by_a_restore(ledger: Ledger) -> None:
    text = edits.set_grade(
        LEDGER, ledger, "single", None, Grade.UNKNOWN, by="person", why="re-read", date=TODAY
    )
    assert proposed(parse(text), checks()) == {
        ("premise-user", "UNKNOWN", "premises-capped"),
        ("second-hand", "UNKNOWN", "premises-capped"),
    }


def test_restored_quote_brings_back_the_grades_it_cost(ledger: Ledger) -> None:
    fallen = parse(apply_all(LEDGER, regrade(ledger, checks(single="missing"))))
    assert fallen.claim("single").grades[0].grade is Grade.UNKNOWN
    assert proposed(fallen, checks()) == {
        ("single", "DEMONSTRATED", "quotes-restored"),
        ("premise-user", "CLAIMED", "premises-recovered"),
        ("second-hand", "SPECULATIVE", "premises-recovered"),
    }


def apply_all(text: str, result: Regrade) -> str:
    """Apply proposals the way `regrade --write` does: through the ledger file's edits."""
    for p in result.proposals:
        text = edits.set_grade(
            text, parse(text), p.claim_id, p.on, p.to_grade, by=p.by, why=p.why, date=TODAY
        )
    return text


STATUS = st.sampled_from(
    ["verified", "drifted", "missing", "ambiguous", "reversed", "gone", "refused", "unreachable"]
)


@settings(max_examples=60, deadline=None)
@given(
    single=STATUS,
    crossed=st.tuples(STATUS, STATUS),
    same_publisher=st.tuples(STATUS, STATUS),
    toy=st.booleans(),
    then_single=STATUS,
)
def test_regrade_is_idempotent(
    single: str,
    crossed: tuple[str, str],
    same_publisher: tuple[str, str],
    toy: bool,
    then_single: str,
) -> None:
    """Applying a regrade's proposals and regrading again proposes nothing, at every step."""
    text = LEDGER
    outcomes = {"toy": ArtifactOutcome("toy", toy)}
    for statuses in (
        {"single": single, "crossed": crossed, "same_publisher": same_publisher},
        {"single": then_single},
    ):
        found = checks(**statuses)
        text = apply_all(text, regrade(parse(text), found, outcomes))
        assert regrade(parse(text), found, outcomes).proposals == ()


def test_current_checks_keep_only_what_the_ledger_still_holds(ledger: Ledger) -> None:
    """Old wordings, dropped sources and corrected URLs say nothing about the ledger now."""
    docs = "https://docs.example/a"
    kept = FakeCheck("single", "one quote on one page", "docs", "verified", url=docs)
    older = FakeCheck(
        "single",
        "one quote on one page",
        "docs",
        "missing",
        url=docs,
        checked_at=WHEN - dt.timedelta(days=1),
    )
    reworded = FakeCheck("single", "an old wording", "docs", "verified", url=docs)
    moved_away = FakeCheck(
        "single", "one quote on one page", "docs", "verified", url="https://old.example/a"
    )
    assert current_checks(ledger, [older, reworded, kept, moved_away]) == [kept]


def test_a_facet_held_by_an_unread_page_never_says_its_quotes_are_verified(
    ledger: Ledger,
) -> None:
    """One source unread, the other read and the quote gone from it: nothing falls (an
    unread page is no evidence), and `explain` said "every quote verified"."""
    one_enough = parse(LEDGER.replace("basis: quotes, min_sources: 2}", "basis: quotes}", 1))
    result = regrade(one_enough, checks(crossed=("missing", "unreachable")))
    (trace,) = [t for t in result.traces if t.claim_id == "crossed"]
    assert trace.outcome == "held; blog could not be read (no evidence either way)"
    result = regrade(ledger, checks(crossed=("verified", "unreachable")))
    (trace,) = [t for t in result.traces if t.claim_id == "crossed"]
    assert trace.outcome.startswith("every quote verified on a page read; blog could not be read")
    assert not result.proposals or all(p.claim_id != "crossed" for p in result.proposals)


@pytest.mark.parametrize(
    ("source", "read_as", "current"),
    [
        ("", recipe(None), True),
        ("", "", True),  # recorded before recipes were: read as sent, through no selector
        ("", recipe("main"), False),
        ("", recipe(None, browser=True), True),  # `refresh --browser`: as a reader sees it
        (', select: "main"', recipe("main", browser=True), True),
        (', select: "main"', recipe(None, browser=True), False),
        (', select: "main"', recipe("main"), True),
        (', select: "main"', recipe(None), False),
        (', select: "main"', "", False),
        (", render: browser", recipe(None, browser=True), True),
        (", render: browser", recipe(None), False),
        (", render: browser", "", False),
    ],
)
def test_a_check_is_current_only_when_read_as_its_source_now_reads(
    source: str, read_as: str, current: bool
) -> None:
    """Through another selector, or without the page's scripts run where the source says
    to run them, a check read other text than the source gives; a page read in a browser
    for one run (`refresh --browser`) was read as a reader sees it, and counts."""
    ledger = parse(LEDGER.replace("publisher: vendor}", f"publisher: vendor{source}}}", 1))
    docs = "https://docs.example/a"
    check = FakeCheck(
        "single", "one quote on one page", "docs", "verified", url=docs, recipe=read_as
    )
    assert current_checks(ledger, [check]) == ([check] if current else [])
