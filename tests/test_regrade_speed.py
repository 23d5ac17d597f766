"""Regrading works a claim's reading out once for all of its facets, judges premises first
and lists what it found in ledger order: each facet still gets its own verdict, and the
order is the ledger's, whatever order the claims were judged in."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, replace

from claimledger.grading.rules import current_checks, regrade
from claimledger.ledger.model import parse

WHEN = dt.datetime(2026, 11, 29, 12, 0, tzinfo=dt.UTC)

LEDGER = """\
ledger: 1
title: Order
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  docs: {url: "https://docs.example/a", title: D, kind: docs, publisher: vendor}
  mirror: {url: "https://docs.example/b", title: M, kind: mirror, publisher: vendor}
  blog: {url: "https://blog.example/c", title: B, kind: blog, publisher: vendor, independent: true}
claims:
  - id: resting
    section: s
    title: Rests on a claim further down
    kind: consequence
    statement: S.
    depends_on: [quoted]
    grades:
      - {on: follows, grade: CLAIMED, basis: premises}
      - {on: also follows, grade: SPECULATIVE, basis: premises}
  - id: quoted
    section: s
    title: Quoted
    kind: guarantee
    statement: S.
    quotes:
      - {text: "the first quote", sources: [mirror, docs]}
      - {text: "the second quote", sources: [blog, docs]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}
      - {on: runtime, grade: CLAIMED, basis: quotes}
      - {on: already, grade: UNKNOWN, basis: quotes}
  - id: sourced
    section: s
    title: Sourced twice, and asked for twice and once
    kind: guarantee
    statement: S.
    quotes:
      - {text: "a quote on the vendor's pages", sources: [docs, mirror]}
    grades:
      - {on: twice, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
      - {on: once, grade: DEMONSTRATED, basis: quotes}
"""


@dataclass(frozen=True)
class Check:
    """A recorded check as plain values (the rules read only these fields)."""

    claim_id: str
    quote_text: str
    source_id: str
    status: str | None = "verified"
    source_status: str = "ok"
    meaning_changed: bool = False
    current: str | None = None
    checked_at: dt.datetime = WHEN
    url: str = ""
    change_kinds: tuple[str, ...] = ()
    snapshot_hash: str | None = None
    recipe: str = ""
    moved_within: str | None = None


def _checks(first_quote: str = "verified") -> list[Check]:
    """Every quote verified on every source (the first quote as asked), newest last and
    not in ledger order."""
    return [
        Check("sourced", "a quote on the vendor's pages", "mirror"),
        Check("quoted", "the second quote", "docs"),
        Check("quoted", "the first quote", "mirror", first_quote),
        Check("sourced", "a quote on the vendor's pages", "docs"),
        Check("quoted", "the second quote", "blog"),
        Check("quoted", "the first quote", "docs", first_quote),
    ]


def test_findings_are_in_ledger_order_though_premises_are_judged_first() -> None:
    ledger = parse(LEDGER)
    result = regrade(ledger, _checks(first_quote="missing"))
    assert [(t.claim_id, t.on, t.rule) for t in result.traces] == [
        ("resting", "follows", "premises-capped"),
        ("resting", "also follows", "premises-capped"),
        ("quoted", "wording", "quotes-gone"),
        ("quoted", "runtime", "quotes-gone"),
        ("quoted", "already", "quotes-gone"),
        ("sourced", "twice", "quotes-under-sourced"),
        ("sourced", "once", "quotes"),
    ]
    assert [(p.claim_id, p.on, str(p.to_grade)) for p in result.proposals] == [
        ("resting", "follows", "UNKNOWN"),
        ("resting", "also follows", "UNKNOWN"),
        ("quoted", "wording", "UNKNOWN"),
        ("quoted", "runtime", "UNKNOWN"),
        ("sourced", "twice", "CLAIMED"),
    ]


def test_each_facet_of_a_claim_shows_the_claims_evidence() -> None:
    ledger = parse(LEDGER)
    result = regrade(ledger, _checks(first_quote="drifted"))
    by_facet = {(t.claim_id, t.on): t.evidence for t in result.traces}
    shown = [(e.quote, e.source_id, e.status) for e in by_facet["quoted", "wording"]]
    assert shown == [
        ("the first quote", "mirror", "drifted"),
        ("the first quote", "docs", "drifted"),
        ("the second quote", "blog", "verified"),
        ("the second quote", "docs", "verified"),
    ]
    assert (
        by_facet["quoted", "runtime"]
        == by_facet["quoted", "already"]
        == by_facet["quoted", "wording"]
    )
    assert [(n.claim_id, n.on, n.kind) for n in result.notices] == [
        ("quoted", "wording", "stale"),
        ("quoted", "runtime", "stale"),
        ("quoted", "already", "stale"),
    ]


def test_current_checks_come_by_claim_then_quote_then_source_id() -> None:
    ledger = parse(LEDGER)
    on_their_pages = [replace(c, url=ledger.sources[c.source_id].url) for c in _checks()]
    found = current_checks(ledger, on_their_pages)
    assert [(c.claim_id, c.quote_text, c.source_id) for c in found] == [
        ("quoted", "the first quote", "docs"),
        ("quoted", "the first quote", "mirror"),
        ("quoted", "the second quote", "blog"),
        ("quoted", "the second quote", "docs"),
        ("sourced", "a quote on the vendor's pages", "docs"),
        ("sourced", "a quote on the vendor's pages", "mirror"),
    ]
