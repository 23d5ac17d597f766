"""Properties of the grading rules over generated ledgers and evidence: no rule is ever more
confident than the evidence it was given."""

from __future__ import annotations

import datetime as dt
import itertools
import json
import random
from dataclasses import dataclass, replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from claimledger.grading.rules import Regrade, regrade
from claimledger.ledger.model import Ledger, parse, publisher_independence
from claimledger.ledger.vocabulary import Basis, Grade
from claimledger.records import AsReadCheck, CheckStatus, classify, meaning_uncertain
from test_grade import WHEN, FakeCheck, apply_all

GRADES = ["DEMONSTRATED", "CLAIMED", "SPECULATIVE", "UNKNOWN"]
STATUSES = [
    "verified",
    "verified",
    "verified",
    "ambiguous",
    "drifted",
    "uncertain",
    "reversed",
    "missing",
    "gone",
    "refused",
    "unreachable",
    "absent",
]
UNREAD = ("refused", "unreachable", "unreadable")


@dataclass(frozen=True)
class Drawn:
    """A generated ledger's text and the latest checks of its quotes."""

    text: str
    checks: tuple[FakeCheck, ...]
    as_read: tuple[AsReadCheck, ...] = ()
    read_at: tuple[tuple[str, str], ...] = ()  # sources read on another publisher's site


def _check(
    claim_id: str, text: str, source: str, status: str, snapshot: str | None
) -> FakeCheck | None:
    if status == "absent":
        return None
    if status == "gone" or status in UNREAD:
        return FakeCheck(claim_id, text, source, None, source_status=status)
    if status == "reversed":
        return FakeCheck(
            claim_id, text, source, "drifted", meaning_changed=True, current="x",
            change_kinds=("negation removed",), snapshot_hash=snapshot,
        )  # fmt: skip
    if status == "uncertain":
        return FakeCheck(
            claim_id, text, source, "drifted", current="x", change_kinds=("number changed",),
            snapshot_hash=snapshot,
        )  # fmt: skip
    current = "y" if status == "drifted" else None
    return FakeCheck(claim_id, text, source, status, current=current, snapshot_hash=snapshot)


def _then(claim_id: str, index: int, text: str, source: str, status: CheckStatus) -> AsReadCheck:
    """The verdict on the archived copy of the reading day."""
    return AsReadCheck(
        claim_id=claim_id, quote_index=index, quote_text=text, wording=text,
        source_id=source, url=f"https://{source}.example/p", read_on=dt.date(2026, 8, 23),
        snapshot_url=f"https://web.archive.org/web/20260821093000/https://{source}.example/p",
        timestamp="20260821093000", status=status, match_kind=None, similarity=0.9,
        current=None if status == "verified" else "other words", meaning_changed=False,
        changed_words=(), change_kinds=(), closest=None, snapshot_hash=None, recipe="",
        checked_at=WHEN,
    )  # fmt: skip


Json = dict[str, object]
AS_READ: list[CheckStatus | None] = [None, None, None, None, None, None, "verified", "drifted"]
AS_READ.append("missing")


def _sources(draw: st.DrawFn) -> dict[str, Json]:
    """1-3 sources, whose publishers may coincide (up to case and spaces), some of them
    mirrors (copies of another's page, unless marked independent)."""
    sources: dict[str, Json] = {}
    for i in range(draw(st.integers(1, 3))):
        source: Json = {
            "url": f"https://s{i}.example/p",
            "title": f"S{i}",
            "kind": draw(st.sampled_from(["docs", "blog", "mirror"])),
            "publisher": draw(st.sampled_from(["vendor", "other", "Vendor "])),
        }
        if draw(st.booleans()):
            source["independent"] = True
        sources[f"s{i}"] = source
    return sources


def _quotes(
    draw: st.DrawFn,
    claim_id: str,
    sources: list[str],
    found: list[FakeCheck],
    then: list[AsReadCheck],
) -> list[Json]:
    """0-3 quotes of a claim, each on some of the sources, and their latest checks."""
    quotes: list[Json] = []
    for index in range(draw(st.integers(0, 3))):
        on = draw(st.lists(st.sampled_from(sources), min_size=1, unique=True))
        text = f"quote {index} of {claim_id}"
        quote: Json = {"text": text, "sources": on}
        if len(on) > 1 and draw(st.booleans()):  # a third party's report, citing a source
            quote["reported_by"] = reporter = draw(st.sampled_from(on))
            quote["via"] = draw(st.sampled_from([s for s in sources if s != reporter]))
        quotes.append(quote)
        for source_id in on:
            status = draw(st.sampled_from(STATUSES))
            snapshot = draw(st.sampled_from([None, None, "text-1", "text-2"]))
            check = _check(claim_id, text, source_id, status, snapshot)
            if check is not None:
                found.append(check)
            as_read = draw(st.sampled_from(AS_READ))
            if as_read is not None:
                then.append(_then(claim_id, index, text, source_id, as_read))
    return quotes


def _facets(
    draw: st.DrawFn, bases: list[str], premises: list[str], history: list[Json]
) -> list[Json]:
    """1-2 facets on the bases the claim allows (a facet on premises perhaps on some of
    the claim's alone), some lowered by a rule before."""
    facets: list[Json] = []
    for index in range(draw(st.integers(1, 2))):
        basis = draw(st.sampled_from(bases))
        grade = draw(st.sampled_from(GRADES))
        facet: Json = {"on": f"f{index}", "grade": grade, "basis": basis}
        if basis == "quotes":
            facet["min_sources"] = draw(st.integers(1, 2))
        if basis == "premises" and draw(st.booleans()):
            facet["depends_on"] = draw(st.lists(st.sampled_from(premises), min_size=1, unique=True))
        facets.append(facet)
        stronger = GRADES[: GRADES.index(grade)]
        if basis != "judgement" and stronger and draw(st.booleans()):
            was = draw(st.sampled_from(stronger))
            weakest = GRADES[GRADES.index(grade) :]
            via = draw(st.sampled_from([grade, *weakest]))  # lowered, then partly restored
            lowered = {"date": "2026-10-01", "by": "rule:quotes-gone", "on": f"f{index}"}
            history.append({**lowered, "from": was, "to": via})
            if via != grade:
                restored = {"date": "2026-10-01", "by": "rule:quotes-restored", "on": f"f{index}"}
                history.append({**restored, "from": via, "to": grade})
    return facets


@st.composite
def drawn(draw: st.DrawFn) -> Drawn:
    """A ledger of 1-4 claims on 1-3 sources, and the latest checks of its quotes."""
    sources = _sources(draw)
    claims: list[Json] = []
    found: list[FakeCheck] = []
    then: list[AsReadCheck] = []
    for i in range(draw(st.integers(1, 4))):
        cid = f"c{i}"
        claim: Json = {"id": cid, "section": "s", "title": f"Claim {i}", "kind": "guarantee"}
        claim["statement"] = f"Statement {i}."
        quotes = _quotes(draw, cid, sorted(sources), found, then)
        if quotes:
            claim["quotes"] = quotes
        earlier = [f"c{j}" for j in range(i)]
        premises = draw(st.lists(st.sampled_from(earlier), unique=True)) if earlier else []
        if premises:
            claim["depends_on"] = premises
        bases = ["judgement"] + (["quotes"] if quotes else []) + (["premises"] if premises else [])
        history: list[Json] = []
        claim["grades"] = _facets(draw, bases, premises, history)
        adopted: bool = draw(st.booleans())
        if quotes and adopted:  # an adoption, perhaps of a changed meaning
            adoption: Json = {"date": "2026-10-02", "by": "accept"}
            adoption |= {"quote_was": "an older wording", "quote_now": quotes[0]["text"]}
            meaning = draw(st.sampled_from([None, "changed", "uncertain"]))
            if meaning:
                adoption["meaning"] = meaning
            history.append(adoption)
        if history:
            claim["history"] = history
        if draw(st.integers(0, 4)) == 0:
            claim["falsified"] = {"date": "2026-10-03", "why": "it failed"}
        claims.append(claim)
    ledger: Json = {"ledger": 1, "title": "Generated", "date_read": "2026-08-23"}
    ledger |= {"sections": [{"id": "s", "title": "S"}], "sources": sources, "claims": claims}
    elsewhere = draw(st.lists(st.sampled_from(sorted(sources)), unique=True, max_size=2))
    read_at = tuple((sid, draw(st.sampled_from(["vendor", "third"]))) for sid in elsewhere)
    return Drawn(json.dumps(ledger, indent=1), tuple(found), tuple(then), read_at)


def _changes(result: Regrade) -> list[tuple[str, str, Grade, Grade, str]]:
    """The proposals without the evidence lines they show."""
    return [(p.claim_id, p.on, p.from_grade, p.to_grade, p.rule) for p in result.proposals]


def _regrade(ledger: Ledger, case: Drawn, checks: tuple[FakeCheck, ...] | None = None) -> Regrade:
    read_at = {sid: (publisher_independence(other),) for sid, other in case.read_at}
    checks = case.checks if checks is None else checks
    return regrade(ledger, checks, as_read=case.as_read, read_at=read_at)


def _after(ledger: Ledger, result: Regrade) -> dict[tuple[str, str], Grade]:
    """Each facet's grade once the proposals are applied."""
    grades = {(c.id, f.on): f.grade for c in ledger.claims for f in c.grades}
    grades.update({(p.claim_id, p.on): p.to_grade for p in result.proposals})
    return grades


def _carriers(ledger: Ledger, case: Drawn, claim_id: str) -> list[int]:
    """For each quote of the claim, at most how many independent sources read carry it now
    (a text read at two addresses is one source; a rewording that may have changed its
    meaning carries it no more than an unread page) and carried it on the reading day. A
    report counts as the source it cites; mirrors add one source only where no other
    source of the quote carries it."""
    by_key = {(c.claim_id, c.quote_text, c.source_id): c for c in case.checks}
    misquoted = {(t.claim_id, t.quote_text, t.source_id) for t in case.as_read if t.misquoted}
    counts = []
    for quote in ledger.claim(claim_id).quotes:
        keys = set()
        copied = False
        for source_id in quote.sources:
            place = (claim_id, quote.text, source_id)
            check = by_key.get(place)
            if check is None or place in misquoted:
                continue
            if classify(check) not in ("verified", "ambiguous", "reworded") or (
                meaning_uncertain(check)
            ):
                continue
            counted_as = quote.via if source_id == quote.reported_by else source_id
            if counted_as in ledger.copies:
                copied = True
            elif counted_as is not None:
                keys.add(check.snapshot_hash or ledger.sources[counted_as].independence_key)
        counts.append(len(keys) + (copied and not keys))
    return counts


EXAMPLES = settings(derandomize=True, max_examples=80, deadline=None)


@EXAMPLES
@given(drawn())
def test_a_quote_facet_rises_only_as_far_as_pages_read_carry_its_quotes(case: Drawn) -> None:
    ledger = parse(case.text)
    for p in _regrade(ledger, case).proposals:
        claim = ledger.claim(p.claim_id)
        facet = next(f for f in claim.grades if f.on == p.on)
        if facet.basis is not Basis.QUOTES or p.to_grade.strength <= p.from_grade.strength:
            continue
        carried = _carriers(ledger, case, p.claim_id)
        assert min(carried) >= 1, p
        if p.to_grade.strength > Grade.CLAIMED.strength:
            assert min(carried) >= facet.min_sources, p
        assert not _reversed(case, p.claim_id), p  # a page read says the reverse


def _reversed(case: Drawn, claim_id: str) -> list[FakeCheck]:
    """The claim's checks whose page reworded a quote to change its meaning (on a source
    whose copy of the reading day carried it)."""
    misquoted = {(t.claim_id, t.quote_text, t.source_id) for t in case.as_read if t.misquoted}
    return [
        c
        for c in case.checks
        if c.claim_id == claim_id
        and classify(c) == "changed"
        and (c.claim_id, c.quote_text, c.source_id) not in misquoted
    ]


@EXAMPLES
@given(drawn())
def test_unread_pages_are_no_evidence(case: Drawn) -> None:
    """A page that could not be read says as much as a page never checked: nothing."""
    ledger = parse(case.text)
    unread = tuple(c for c in case.checks if classify(c) == "unread")
    read = tuple(c for c in case.checks if classify(c) != "unread")
    assert _changes(_regrade(ledger, case)) == _changes(_regrade(ledger, case, read))
    assert _changes(_regrade(ledger, case, unread)) == _changes(_regrade(ledger, case, ()))


@EXAMPLES
@given(drawn())
def test_nothing_rests_above_its_premises(case: Drawn) -> None:
    ledger = parse(case.text)
    grades = _after(ledger, _regrade(ledger, case))
    refuted = {c.id for c in ledger.claims if c.falsified}
    for claim in ledger.claims:
        for facet in claim.grades:
            if facet.basis is not Basis.PREMISES:
                continue
            grade = grades[(claim.id, facet.on)]
            for premise in claim.premises_of(facet):
                if premise in refuted:
                    assert grade is Grade.UNKNOWN, (claim.id, facet.on, premise)
                for other in ledger.claim(premise).grades:
                    assert grade.strength <= grades[(premise, other.on)].strength


@EXAMPLES
@given(drawn())
def test_no_rule_raises_a_refuted_claim_or_changes_a_judgement(case: Drawn) -> None:
    ledger = parse(case.text)
    for p in _regrade(ledger, case).proposals:
        claim = ledger.claim(p.claim_id)
        facet = next(f for f in claim.grades if f.on == p.on)
        assert facet.basis is not Basis.JUDGEMENT
        if claim.falsified or claim.review:
            assert p.to_grade.strength < p.from_grade.strength, p


@EXAMPLES
@given(drawn(), st.randoms(use_true_random=False))
def test_regrade_is_deterministic_and_blind_to_order(case: Drawn, rnd: random.Random) -> None:
    ledger = parse(case.text)
    first = _regrade(ledger, case)
    assert _regrade(parse(case.text), case) == first
    shuffled = list(case.checks)
    rnd.shuffle(shuffled)
    claims = [
        replace(claim, quotes=tuple(
            replace(quote, sources=tuple(rnd.sample(quote.sources, len(quote.sources))))
            for quote in claim.quotes
        ))
        for claim in rnd.sample(ledger.claims, len(ledger.claims))
    ]  # fmt: skip
    again = _regrade(replace(ledger, claims=tuple(claims)), case, tuple(shuffled))
    assert sorted(_changes(again)) == sorted(_changes(first))


@pytest.mark.parametrize("order", list(itertools.permutations(["s0", "s1", "copy"])))
@pytest.mark.parametrize("s0", ["missing", "gone", "refused", "absent"])
def test_a_mirror_confirms_nothing_its_quote_s_other_sources_do_not(
    order: tuple[str, ...], s0: str
) -> None:
    """The generator's ledgers seldom hold this one: a mirror, an original that does not
    carry the quote (or was not read) and one that does. Counted as the quote's first
    other source, the mirror stood in for that one, and the facet lowered before came
    back to DEMONSTRATED on `min_sources: 2` when the source lacking it was named first."""
    sources: Json = {
        sid: {"url": f"https://{sid}.example/p", "title": sid, "kind": kind, "publisher": sid}
        for sid, kind in (("s0", "docs"), ("s1", "docs"), ("copy", "mirror"))
    }
    lowered = {"date": "2026-10-01", "by": "rule:quotes-gone", "on": "f0"}
    claim: Json = {"id": "c0", "section": "s", "title": "C", "kind": "guarantee"}
    claim |= {"statement": "S.", "quotes": [{"text": "q", "sources": list(order)}]}
    claim["grades"] = [{"on": "f0", "grade": "CLAIMED", "basis": "quotes", "min_sources": 2}]
    claim["history"] = [{**lowered, "from": "DEMONSTRATED", "to": "CLAIMED"}]
    ledger: Json = {"ledger": 1, "title": "T", "date_read": "2026-08-23"}
    ledger |= {"sections": [{"id": "s", "title": "S"}], "sources": sources, "claims": [claim]}
    found = [_check("c0", "q", "s0", s0, None), _check("c0", "q", "s1", "verified", None)]
    found.append(_check("c0", "q", "copy", "verified", None))
    case = Drawn(json.dumps(ledger), tuple(c for c in found if c is not None))
    assert _changes(_regrade(parse(case.text), case)) == []


@EXAMPLES
@given(drawn(), drawn())
def test_regrade_is_idempotent(case: Drawn, later: Drawn) -> None:
    """Its proposals applied, a regrade on the same evidence proposes nothing more, and
    again after the evidence changed (a later refresh's checks of the same ledger)."""
    text = case.text
    for checks in (case.checks, later.checks):
        text = apply_all(text, _regrade(parse(text), case, checks))
        assert _changes(_regrade(parse(text), case, checks)) == []
