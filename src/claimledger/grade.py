"""Regrading: grades recomputed from the evidence by small, named, explainable rules.

Pure: the ledger, the latest quote checks and artifact outcomes in; proposals and
notices out, each naming its rule and the evidence behind it. Nothing here reads
the clock, the disk or the network.

Rules, one function each:

* quotes  (basis quotes)   DEMONSTRATED/CLAIMED holds while every quote is verified on
  `min_sources` independent sources; fewer but some -> CLAIMED (under-sourced); a quote
  no source carries any more, or one whose drift changed its meaning -> UNKNOWN; when
  the quotes are back, the grade history recorded before the fall comes back.
  A quote the archived copy of the reading day does not carry as quoted (misquoted at
  reading time, `asread`) counts on that source as a quote gone, whatever the page says
  now -> UNKNOWN when no source is left (rule misquoted-as-read), CLAIMED when too few are.
  A harmless drift marks the facet stale (a notice, for `accept`), not a grade change;
  a meaning change on one source while another still carries the words is a notice too
  (the sources disagree: the quote should be split per source).
* premises (basis premises) never stronger than the weakest facet of its premises,
  transitively, after their own proposals; recovers when they do.
* artifact (basis artifact) the re-run output differs from `expect` -> UNKNOWN; back
  when it matches again.
* judgement: never changed by a rule.

A source that could not be read (timeout, 429, 5xx, unreadable) is no evidence: only a
page that was read says anything about a quote.
"""

from __future__ import annotations

import datetime as dt
import functools
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import NamedTuple, Protocol, TypeVar

from claimledger.ledger import Claim, Facet, Ledger, Quote
from claimledger.records import (
    CARRIED,
    AsReadCheck,
    CheckKey,
    Keyed,
    Standing,
    check_key,
    classify,
    latest_by_key,
)
from claimledger.urls import redacted
from claimledger.vocabulary import Basis, Grade


class Check(Protocol):
    """What the rules need of one recorded quote check (evidence.CheckRecord fits)."""

    @property
    def claim_id(self) -> str: ...
    @property
    def quote_text(self) -> str: ...
    @property
    def source_id(self) -> str: ...
    @property
    def source_status(self) -> str: ...
    @property
    def status(self) -> str | None: ...
    @property
    def meaning_changed(self) -> bool: ...
    @property
    def change_kinds(self) -> tuple[str, ...]: ...
    @property
    def current(self) -> str | None: ...
    @property
    def checked_at(self) -> dt.datetime: ...
    @property
    def url(self) -> str: ...


@dataclass(frozen=True)
class ArtifactOutcome:
    """The result of re-running a claim's artifact."""

    claim_id: str
    matched: bool
    diff: str = ""
    error: str | None = None
    ran: bool = True  # False: it could not be started or timed out, which is no evidence


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence behind a proposal, printable on one line."""

    quote: str | None
    source_id: str | None
    status: str
    when: dt.datetime | None = None
    detail: str = ""


@dataclass(frozen=True)
class Proposal:
    """A grade change a rule asks for; `regrade --write` applies it."""

    claim_id: str
    on: str
    from_grade: Grade
    to_grade: Grade
    rule: str
    why: str
    evidence: tuple[Evidence, ...] = ()

    @property
    def by(self) -> str:
        return f"rule:{self.rule}"


@dataclass(frozen=True)
class Notice:
    """Something the author must look at that is not a grade change (stale, disagreeing)."""

    claim_id: str
    on: str
    kind: str
    why: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Trace:
    """Why a facet has (or keeps) its grade: the rule consulted and what it found."""

    claim_id: str
    on: str
    rule: str
    outcome: str
    evidence: tuple[Evidence, ...] = ()


@dataclass(frozen=True)
class Regrade:
    """Everything one regrade found, in ledger order."""

    proposals: tuple[Proposal, ...]
    notices: tuple[Notice, ...]
    traces: tuple[Trace, ...]
    has_evidence: bool

    @property
    def pending(self) -> bool:
        return bool(self.proposals or self.notices)


@dataclass
class _Verdict:
    """A rule's answer for one facet: a new grade or None, and the story behind it."""

    to_grade: Grade | None
    rule: str
    why: str
    evidence: tuple[Evidence, ...] = ()  # a claim's quotes' evidence: the same for its facets
    notice: str | None = None  # a Notice kind: "stale", "sources-disagree"


# --------------------------------------------------------------------------- entry point


class _Placed(Keyed, Protocol):
    """What `current_checks` needs of a check: its key, its time and the URL it was on."""

    @property
    def url(self) -> str: ...


C = TypeVar("C", bound=_Placed)


def current_checks(ledger: Ledger, checks: Iterable[C]) -> list[C]:
    """The latest check of every quote the ledger still holds, in ledger order.

    Checks of a quote's old wording, of a source the ledger dropped, or of a URL the
    author has since corrected say nothing about the ledger as it is.
    """
    places = _quote_places(ledger)
    where = {source_id: redacted(source.url) for source_id, source in ledger.sources.items()}
    shown = functools.cache(redacted)  # each address redacted once, not once a check
    latest = latest_by_key(
        c for c in checks if check_key(c) in places and shown(c.url) == where[c.source_id]
    )
    return [latest[place] for place in places if place in latest]


def _quote_places(ledger: Ledger) -> dict[CheckKey, None]:
    """Each quote on each source, in ledger order: by claim, by quote, by source id (a quote
    a claim holds twice in the same words, where it comes last)."""
    places: dict[CheckKey, None] = {}
    for claim in ledger.claims:
        for quote in claim.quotes:
            for source_id in sorted(quote.sources):
                place = (claim.id, quote.text, source_id)
                places.pop(place, None)
                places[place] = None
    return places


def current_as_read(ledger: Ledger, checks: Iterable[AsReadCheck]) -> list[AsReadCheck]:
    """The latest as-read check of every quote the ledger holds, made for its `date_read`
    on the words it has now: one of an older reading day, or of wording since changed
    back, says nothing of the ledger as it is."""
    return current_checks(ledger, (c for c in checks if c.read_on == ledger.date_read))


def regrade(
    ledger: Ledger,
    checks: Iterable[Check],
    artifacts: Mapping[str, ArtifactOutcome] | None = None,
    as_read: Iterable[AsReadCheck] = (),
) -> Regrade:
    """Propose grade changes for every facet of the ledger from the latest evidence (and
    the verdicts on the archived copies of the reading day, `as_read`)."""
    latest = _Latest(latest_by_key(checks), ledger)
    read_then = latest_by_key(as_read)
    artifacts = artifacts or {}
    effective: dict[str, dict[str, Grade]] = {}
    judged: dict[str, _Judged] = {}
    refuted = _refuted(ledger)
    for claim in _premises_first(ledger):
        found = _Judged()
        for facet in claim.grades:
            verdict = _judge(ledger, claim, facet, latest, artifacts, effective, refuted, read_then)
            found.add(claim, facet, verdict)
        judged[claim.id] = found
        effective[claim.id] = found.grades
    in_order = [judged[claim.id] for claim in ledger.claims]
    return Regrade(
        proposals=tuple(proposal for found in in_order for proposal in found.proposals),
        notices=tuple(notice for found in in_order for notice in found.notices),
        traces=tuple(trace for found in in_order for trace in found.traces),
        has_evidence=bool(latest),
    )


@dataclass
class _Judged:
    """What the rules found of one claim, facet by facet: judged premises first, shown in
    ledger order."""

    proposals: list[Proposal] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    traces: list[Trace] = field(default_factory=list)
    grades: dict[str, Grade] = field(default_factory=dict)  # each facet's grade after it

    def add(self, claim: Claim, facet: Facet, verdict: _Verdict) -> None:
        new, evidence = verdict.to_grade, verdict.evidence
        self.traces.append(Trace(claim.id, facet.on, verdict.rule, verdict.why, evidence))
        if new is not None and new != facet.grade:
            self.proposals.append(
                Proposal(claim.id, facet.on, facet.grade, new, verdict.rule, verdict.why, evidence)
            )
        if verdict.notice:
            self.notices.append(Notice(claim.id, facet.on, verdict.notice, verdict.why, evidence))
        self.grades[facet.on] = new or facet.grade


def _refuted(ledger: Ledger) -> dict[str, str]:
    """Claims whose falsifier was met, and why."""
    return {claim.id: claim.falsified.why for claim in ledger.claims if claim.falsified}


def _premises_first(ledger: Ledger) -> list[Claim]:
    """Claims ordered so every premise is judged before the claims resting on it (a
    topological order: a chain of thousands of premises needs no recursion).

    The claims that rest on none come first, as they are; only the others are sorted, so
    a large ledger of mostly quoted claims does not spend longer ordering its claims than
    judging them."""
    premises = {claim.id: _premises(claim) for claim in ledger.claims}
    resting = {claim_id: found for claim_id, found in premises.items() if found}
    order = TopologicalSorter(
        {claim_id: {p for p in found if p in resting} for claim_id, found in resting.items()}
    )
    by_id = {claim.id: claim for claim in ledger.claims}
    first = [claim for claim in by_id.values() if claim.id not in resting]
    return first + [by_id[claim_id] for claim_id in order.static_order()]


def _premises(claim: Claim) -> set[str]:
    """Every claim that a facet of this one rests on."""
    return {*claim.depends_on, *(p for facet in claim.grades for p in facet.depends_on or ())}


def _judge(
    ledger: Ledger,
    claim: Claim,
    facet: Facet,
    latest: Mapping[tuple[str, str, str], Check],
    artifacts: Mapping[str, ArtifactOutcome],
    effective: Mapping[str, Mapping[str, Grade]],
    refuted: Mapping[str, str],
    read_then: Mapping[tuple[str, str, str], AsReadCheck],
) -> _Verdict:
    if facet.basis is Basis.QUOTES:
        return quotes_rule(ledger, claim, facet, latest, read_then)
    if facet.basis is Basis.PREMISES:
        return premises_rule(claim, facet, effective, refuted)
    if facet.basis is Basis.ARTIFACT:
        return artifact_rule(claim, facet, artifacts.get(claim.id))
    return _Verdict(None, "judgement", "only a person changes a judgement (claimledger grade)")


# --------------------------------------------------------------------------- quotes


class _QuoteState(NamedTuple):
    """What the latest evidence says of one quote across its sources (a named tuple: a
    regrade makes one a quote, and a frozen dataclass costs four times as much to make)."""

    quote: Quote
    carried_by: frozenset[str]  # independence keys of sources where it is verified
    drifted: tuple[Check, ...]  # harmless drift: the words moved, the meaning did not
    reversed: tuple[Check, ...]  # drift that changed a meaning-carrying word
    not_carried: tuple[Check, ...]  # read, and the words are not there (or the page is gone)
    unread: frozenset[str]  # independence keys of sources not read (or never checked)
    checks: tuple[Check, ...]
    misquoted: tuple[AsReadCheck, ...] = ()  # not on the copy of the reading day, as quoted
    told: tuple[Evidence, ...] = ()  # the evidence line of each of `checks`

    @property
    def read(self) -> bool:
        return bool(
            self.carried_by or self.drifted or self.reversed or self.not_carried or self.misquoted
        )

    @property
    def present(self) -> bool:
        """Some read source still carries the words or a harmless rewording of them."""
        return bool(self.carried_by or self.drifted)

    @property
    def possible_sources(self) -> int:
        """Independent sources that carry the quote, or might: an unread page is no evidence."""
        return len(self.carried_by | self.unread)


def _quote_state(
    claim: Claim,
    quote: Quote,
    latest: _Latest,
    read_then: Mapping[tuple[str, str, str], AsReadCheck],
) -> _QuoteState:
    carried: set[str] = set()
    drifted: list[Check] = []
    reversed_: list[Check] = []
    missing: list[Check] = []
    unread: set[str] = set()
    checks: list[Check] = []
    misquoted: list[AsReadCheck] = []
    told: list[Evidence] = []
    independence = latest.independence
    for source_id in quote.sources:
        place = (claim.id, quote.text, source_id)
        check = latest.get(place)
        key = independence[source_id]
        then = read_then.get(place) if read_then else None
        standing = None
        if check is not None:
            standing = classify(check)
            checks.append(check)
            told.append(_evidence(check, standing))
        # Misquoted then, in the words quoted now (an adopted rewording was read later, on
        # the live page, so the copy of the reading day is no evidence against it).
        if then is not None and then.misquoted and then.wording == quote.text:
            misquoted.append(then)
            continue
        if check is None:
            unread.add(key)
            continue
        if standing in ("missing", "gone"):
            missing.append(check)
        elif standing == "unread":
            unread.add(key)
        elif standing in CARRIED:  # ambiguous: the words are there, the place is not certain
            carried.add(key)
        elif standing == "changed":
            reversed_.append(check)
        else:
            drifted.append(check)
    return _QuoteState(
        quote,
        frozenset(carried),
        tuple(drifted),
        tuple(reversed_),
        tuple(missing),
        frozenset(unread - carried),
        tuple(checks),
        tuple(misquoted),
        tuple(told),
    )


class _Reading(NamedTuple):
    """What the latest evidence says of all of a claim's quotes, in its quote order, and the
    evidence it shows: the same for each of the claim's facets (made once a claim, so a
    named tuple, like `_QuoteState`)."""

    states: tuple[_QuoteState, ...]
    evidence: tuple[Evidence, ...]
    read: bool  # some source of some quote was read
    lost: tuple[_QuoteState, ...]  # no source carries them any more, though every one was read
    weighed: tuple[_QuoteState, ...]  # read and reworded nowhere: their sources are counted
    disagreeing: bool  # a meaning changed on one source while another still carries the words
    reworded: bool  # a quote was reworded (harmlessly) on its page
    fall: tuple[str, str] | None  # the rule and the reason a lost quote gives, for every facet
    fewest: int  # the fewest possible sources of a weighed quote (0: none is weighed)


def _read_quotes(states: Iterable[_QuoteState], evidence: Iterable[Evidence]) -> _Reading:
    """A claim's reading, from its quotes' states and the evidence they show: one pass over
    the states (a regrade reads every claim, most of them of one or two quotes)."""
    states = tuple(states)
    lost: list[_QuoteState] = []
    weighed: list[_QuoteState] = []
    read = disagreeing = reworded = False
    fewest: int | None = None
    for state in states:
        if not state.read:
            continue
        read = True
        present = state.present
        if not present and not state.unread:  # every source read, none carries the words
            lost.append(state)
        if state.reversed and present:
            disagreeing = True
        if state.drifted:
            reworded = True
            continue
        weighed.append(state)
        possible = state.possible_sources
        fewest = possible if fewest is None else min(fewest, possible)
    return _Reading(
        states,
        tuple(evidence),
        read=read,
        lost=tuple(lost),
        weighed=tuple(weighed),
        disagreeing=disagreeing,
        reworded=reworded,
        fall=_fall_of(lost) if lost else None,
        fewest=fewest or 0,
    )


def _fall_of(lost: Sequence[_QuoteState]) -> tuple[str, str]:
    """The rule and the reason that take a claim's quote facets to UNKNOWN, from the quotes
    no source carries: misquoted at reading time, else reversed in meaning, else gone."""
    misquoted = [s for s in lost if s.misquoted]
    if misquoted:
        return MISQUOTED, _misquoted_why(misquoted, "no source carries")
    reversed_ = [s for s in lost if s.reversed]
    if reversed_:
        kinds = _kinds(check for state in reversed_ for check in state.reversed)
        return (
            "quotes-meaning-changed",
            f"the page's wording changes the meaning of {_quotes(len(reversed_))}"
            f"{f' ({kinds})' if kinds else ''}: re-read it",
        )
    return "quotes-gone", f"no source carries {_quotes(len(lost))} any more"


class _Latest(dict[tuple[str, str, str], Check]):
    """The latest checks by key, and what they say of each claim's quotes, worked out once
    for all of the claim's facets (and each source's independence key, once for all of
    its checks)."""

    def __init__(self, checks: Mapping[tuple[str, str, str], Check], ledger: Ledger) -> None:
        super().__init__(checks)
        self.readings: dict[str, _Reading] = {}
        self.independence = {
            source_id: source.independence_key for source_id, source in ledger.sources.items()
        }


def _reading(
    ledger: Ledger,
    claim: Claim,
    latest: Mapping[tuple[str, str, str], Check],
    read_then: Mapping[tuple[str, str, str], AsReadCheck],
) -> _Reading:
    """Each quote's state, and the evidence they show (the same for every facet of one
    regrade, so worked out once per claim)."""
    if not isinstance(latest, _Latest):
        latest = _Latest(latest, ledger)
    known = latest.readings
    if claim.id not in known:
        states = [_quote_state(claim, quote, latest, read_then) for quote in claim.quotes]
        told = [line for state in states for line in state.told]
        told += [_as_read_evidence(then) for state in states for then in state.misquoted]
        known[claim.id] = _read_quotes(states, told)
    return known[claim.id]


def _evidence(check: Check, standing: Standing) -> Evidence:
    """One line of evidence: the quote's status on a page that was read, else the page's."""
    read = standing not in ("unread", "gone")
    status = check.status if read and check.status else check.source_status
    detail = ""
    if check.status == "drifted" and check.current:
        detail = f"page now says: {check.current}"
        if check.change_kinds:
            detail += f" ({', '.join(check.change_kinds)})"
    elif not read:
        detail = f"source {check.source_status}"
    return Evidence(check.quote_text, check.source_id, status, check.checked_at, detail)


def quotes_rule(
    ledger: Ledger,
    claim: Claim,
    facet: Facet,
    latest: Mapping[tuple[str, str, str], Check],
    read_then: Mapping[tuple[str, str, str], AsReadCheck] | None = None,
) -> _Verdict:
    """Hold, lower or restore a quote-based facet from the latest checks of its quotes (and
    their verdicts on the archived copies of the reading day)."""
    reading = _reading(ledger, claim, latest, read_then or {})
    evidence = reading.evidence
    if not reading.read:
        why = "no evidence yet" if not evidence else "no source could be read: no evidence"
        return _Verdict(None, "quotes", why, evidence)
    if reading.fall is not None:
        return _fall(facet, *reading.fall, evidence)
    short = _short(reading, facet.min_sources)
    verdict = _restore_or_hold(claim, facet, short, evidence)
    if short and any(state.misquoted for state in short):
        verdict.rule = MISQUOTED
        fewer = f"fewer than {facet.min_sources} independent sources carry"
        verdict.why = _misquoted_why(short, fewer)
    if reading.disagreeing:
        verdict.notice = "sources-disagree"
        verdict.why = (
            "a quote's meaning changed on one source but not on another: "
            "re-read both and split the quote per source"
        )
    elif reading.reworded:
        verdict.notice = "stale"
        verdict.why = "a quote was reworded on its page (harmless): run `claimledger accept`"
    return verdict


def _short(reading: _Reading, min_sources: int) -> list[_QuoteState]:
    """The weighed quotes that fewer than `min_sources` independent sources may carry (none
    when even the fewest-sourced one has enough, as it mostly has)."""
    if min_sources <= reading.fewest:
        return []
    return [state for state in reading.weighed if state.possible_sources < min_sources]


MISQUOTED = "misquoted-as-read"
"""The rule's name when a quote was not on the archived copy of the reading day."""


def _misquoted_why(states: Iterable[_QuoteState], sources: str) -> str:
    """ "1 quote misquoted at reading time (not so on the archived copy of blog-2021
    nearest the reading day, 2026-08-23): no source carries it" """
    states = list(states)
    day = next(then.read_on for state in states for then in state.misquoted).isoformat()
    where = ", ".join(dict.fromkeys(t.source_id for s in states for t in s.misquoted))
    return (
        f"{_quotes(len(states))} misquoted at reading time (not so on the archived copy of "
        f"{where} nearest the reading day, {day}): {sources} it"
    )


def _as_read_evidence(then: AsReadCheck) -> Evidence:
    """One line of evidence for a quote misquoted at reading time: what the copy said."""
    said = f"; the copy says: {then.current}" if then.current else ""
    detail = f"archived copy of {then.timestamp[:8]} ({then.snapshot_url}){said}"
    return Evidence(
        then.quote_text,
        then.source_id,
        f"misquoted as read ({then.status})",
        then.checked_at,
        detail,
    )


def _kinds(checks: Iterable[Check]) -> str:
    """The kinds of meaning change, named once each: "negation removed, number changed"."""
    return ", ".join(dict.fromkeys(kind for check in checks for kind in check.change_kinds))


def _quotes(count: int) -> str:
    return "1 quote" if count == 1 else f"{count} quotes"


def _fall(facet: Facet, rule: str, why: str, evidence: tuple[Evidence, ...]) -> _Verdict:
    target = Grade.UNKNOWN if facet.grade is not Grade.UNKNOWN else None
    return _Verdict(target, rule, why, evidence)


def _restore_or_hold(
    claim: Claim, facet: Facet, short: list[_QuoteState], evidence: tuple[Evidence, ...]
) -> _Verdict:
    """Every quote is present: back to the grade before the rules moved it, but no more
    than CLAIMED when a quote no longer reaches `min_sources` independent sources."""
    baseline = _baseline(claim, facet)
    target = baseline or facet.grade
    if short:
        target = _weaker(target, Grade.CLAIMED)
        rule = "quotes-under-sourced"
        why = f"verified on fewer than {facet.min_sources} independent sources"
    else:
        rule = "quotes-restored" if baseline else "quotes"
        why = "every quote verified"
        if facet.min_sources > 1:
            why += f" on {facet.min_sources} independent sources"
    return _Verdict(target if target != facet.grade else None, rule, why, evidence)


def _baseline(claim: Claim, facet: Facet) -> Grade | None:
    """The grade this facet had before the rules last moved it, or None if they did not.

    Walks back through the unbroken run of rule-made changes that ends at the current
    grade. A change by a person, or a hand edit of the file, ends the run: a person's
    grade is never undone by a rule.
    """
    expected: Grade | None = facet.grade
    baseline = None
    for entry in reversed(claim.history):
        if entry.on != facet.on or entry.to_grade is None:
            continue
        if entry.to_grade != expected or not entry.by.startswith("rule:"):
            break
        baseline = expected = entry.from_grade
    return baseline


def _weaker(a: Grade, b: Grade) -> Grade:
    return a if a.strength <= b.strength else b


# --------------------------------------------------------------------------- premises


def premises_rule(
    claim: Claim,
    facet: Facet,
    effective: Mapping[str, Mapping[str, Grade]],
    refuted: Mapping[str, str] | None = None,
) -> _Verdict:
    """Cap a premise-based facet at the weakest grade of the premises it rests on (its own,
    else the claim's), or let it recover; a refuted premise takes it to UNKNOWN."""
    refuted = refuted or {}
    weakest: tuple[Grade, str, str] | None = None
    for premise in claim.premises_of(facet):
        if premise in refuted:
            evidence = (Evidence(None, None, "refuted", detail=f"premise {premise} is refuted"),)
            if facet.grade is Grade.UNKNOWN:
                return _Verdict(None, "premises", f"premise '{premise}' is refuted", evidence)
            why = f"premise '{premise}' is refuted: {refuted[premise]}"
            return _Verdict(Grade.UNKNOWN, "premises-refuted", why, evidence)
        for on, grade in effective.get(premise, {}).items():
            if weakest is None or grade.strength < weakest[0].strength:
                weakest = (grade, premise, on)
    if weakest is None:
        return _Verdict(None, "premises", "no premises to weigh")
    cap, premise, on = weakest
    evidence = (Evidence(None, None, str(cap), detail=f"premise {premise} ({on}) is {cap}"),)
    target = _weaker(_baseline(claim, facet) or facet.grade, cap)
    if target.strength < facet.grade.strength:
        return _Verdict(target, "premises-capped", f"premise '{premise}' is only {cap}", evidence)
    if target != facet.grade:
        why = f"its premises recovered (the weakest, '{premise}', is {cap})"
        return _Verdict(target, "premises-recovered", why, evidence)
    why = f"no stronger than its weakest premise ('{premise}', {cap})"
    return _Verdict(None, "premises", why, evidence)


# --------------------------------------------------------------------------- artifact


def artifact_rule(claim: Claim, facet: Facet, outcome: ArtifactOutcome | None) -> _Verdict:
    """Lower an artifact facet whose re-run output no longer matches; restore it when it does."""
    if outcome is None:
        return _Verdict(None, "artifact", "no recorded run of the artifact yet (regrade runs it)")
    if not outcome.ran:
        return _Verdict(None, "artifact", f"the artifact could not be re-run ({outcome.error})")
    if not outcome.matched:
        detail = outcome.error or outcome.diff
        evidence = (Evidence(None, None, "different output", detail=detail),)
        return _fall(facet, "artifact-changed", "the artifact's output no longer matches", evidence)
    baseline = _baseline(claim, facet)
    evidence = (Evidence(None, None, "same output"),)
    if baseline is not None and baseline != facet.grade:
        why = "the artifact's output matches again"
        return _Verdict(baseline, "artifact-restored", why, evidence)
    return _Verdict(None, "artifact", "the artifact's output matches", evidence)
