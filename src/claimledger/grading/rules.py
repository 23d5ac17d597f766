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
  (the sources disagree: the quote should be split per source), and holds the grade
  where it is, neither lowered nor raised.
* premises (basis premises) never stronger than the weakest facet of its premises,
  transitively, after their own proposals; recovers when they do.
* artifact (basis artifact) the re-run output differs from `expect` -> UNKNOWN; back
  when it matches again.
* judgement: never changed by a rule.

A source that could not be read (timeout, 429, 5xx, unreadable) is no evidence: only a
page that was read says anything about a quote.
"""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from graphlib import TopologicalSorter
from typing import Protocol, TypeVar

from claimledger.grading.quotes import Latest, quotes_rule
from claimledger.grading.review import held_for_review
from claimledger.grading.verdicts import (
    ArtifactOutcome,
    Check,
    Evidence,
    Notice,
    Proposal,
    Regrade,
    Trace,
    Verdict,
    baseline_of,
    fall,
    weaker,
)
from claimledger.ledger.model import Claim, Facet, Ledger
from claimledger.ledger.vocabulary import Basis, Grade
from claimledger.recipes import reading_of, source_readings
from claimledger.records import AsReadCheck, CheckKey, Keyed, check_key, latest_by_key
from claimledger.urls import redacted

__all__ = [
    "ArtifactOutcome",
    "Check",
    "Evidence",
    "Notice",
    "Proposal",
    "Regrade",
    "Trace",
    "current_as_read",
    "current_checks",
    "quote_places",
    "regrade",
]


# --------------------------------------------------------------------------- entry point


class _Placed(Keyed, Protocol):
    """What `current_checks` needs of a check: its key, its time, the URL it was on and
    how the page was read there."""

    @property
    def url(self) -> str: ...

    @property
    def recipe(self) -> str: ...


C = TypeVar("C", bound=_Placed)


def current_checks(ledger: Ledger, checks: Iterable[C], *, archived: bool = False) -> list[C]:
    """The latest check of every quote the ledger still holds, in ledger order.

    Checks of a quote's old wording, of a source the ledger dropped, of a URL the author
    has since corrected, or of a page read another way than its source now says (another
    `select`, or `render`) say nothing about the ledger as it is. Checks of `archived`
    copies are read as sent, and those of a repository's file name no reading at all.
    """
    places = quote_places(ledger)
    where = {source_id: redacted(source.url) for source_id, source in ledger.sources.items()}
    how = {
        sid: source_readings(s.select, s.render == "browser", archived=archived)
        for sid, s in ledger.sources.items()
    }
    shown = functools.cache(redacted)  # each address redacted once, not once a check
    read = functools.cache(reading_of)  # and each recipe parsed once

    def as_ledger_reads(check: C) -> bool:
        found = read(check.recipe)
        read_so = found in how[check.source_id] or (archived and found is None)
        return read_so and shown(check.url) == where[check.source_id]

    latest = latest_by_key(c for c in checks if check_key(c) in places and as_ledger_reads(c))
    return [latest[place] for place in places if place in latest]


def unchecked_by_claim(ledger: Ledger, checks: Iterable[Keyed]) -> Counter[str]:
    """By claim, in ledger order, its quotes on sources that none of the (current) `checks`
    covers: never checked, or given a quote, new words or a source since the last refresh.
    Such a claim's evidence is incomplete, whatever the rest of it says."""
    checked = {check_key(check) for check in checks}
    return Counter(place[0] for place in quote_places(ledger) if place not in checked)


def quote_places(ledger: Ledger) -> dict[CheckKey, None]:
    """Each quote on each source the ledger holds, in ledger order: by claim, by quote, by
    source id (a quote a claim holds twice in the same words, where it comes last)."""
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
    on the words it has now, through the source's selector: one of an older reading day,
    of wording since changed back, or of the copy read through another selector, says
    nothing of the ledger as it is (an archived copy is read as sent, whatever `render`
    says: the archive keeps what the server sent)."""
    on_the_day = (c for c in checks if c.read_on == ledger.date_read)
    return current_checks(ledger, on_the_day, archived=True)


def regrade(
    ledger: Ledger,
    checks: Iterable[Check],
    artifacts: Mapping[str, ArtifactOutcome] | None = None,
    as_read: Iterable[AsReadCheck] = (),
    read_at: Mapping[str, tuple[str, ...]] | None = None,
) -> Regrade:
    """Propose grade changes for every facet of the ledger from the latest evidence (and
    the verdicts on the archived copies of the reading day, `as_read`; the sources read
    on another publisher's site, `read_at`: `quotes.read_elsewhere`)."""
    latest = Latest(latest_by_key(checks), ledger, read_at)
    read_then = latest_by_key(as_read)
    artifacts = artifacts or {}
    effective: dict[str, dict[str, Grade]] = {}
    judged: dict[str, _Judged] = {}
    refuted = _refuted(ledger)
    for claim in _premises_first(ledger):
        found = _Judged()
        for index, facet in enumerate(claim.grades):
            verdict = _judge(ledger, claim, facet, latest, artifacts, effective, refuted, read_then)
            verdict = _held_if_refuted(claim, facet, verdict)
            found.add(claim, facet, held_for_review(claim, facet, verdict, first=index == 0))
        judged[claim.id] = found
        effective[claim.id] = found.grades
    in_order = [judged[claim.id] for claim in ledger.claims]
    return Regrade(
        proposals=tuple(proposal for found in in_order for proposal in found.proposals),
        notices=tuple(notice for found in in_order for notice in found.notices),
        traces=tuple(trace for found in in_order for trace in found.traces),
        has_evidence=bool(latest) or any(outcome.ran for outcome in artifacts.values()),
        read_at=latest.read_at,
    )


@dataclass
class _Judged:
    """What the rules found of one claim, facet by facet: judged premises first, shown in
    ledger order."""

    proposals: list[Proposal] = field(default_factory=list)
    notices: list[Notice] = field(default_factory=list)
    traces: list[Trace] = field(default_factory=list)
    grades: dict[str, Grade] = field(default_factory=dict)  # each facet's grade after it

    def add(self, claim: Claim, facet: Facet, verdict: Verdict) -> None:
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


def _held_if_refuted(claim: Claim, facet: Facet, verdict: Verdict) -> Verdict:
    """A refuted claim's grades are its author's to set: no rule raises them, though its
    quotes read as they did (the claim was shown false all the same)."""
    new, refuted = verdict.to_grade, claim.falsified
    if refuted is None or new is None or new.strength <= facet.grade.strength:
        return verdict
    why = f"the claim was refuted on {refuted.date}: no rule raises its grades"
    return Verdict(None, "refuted", why, verdict.evidence)


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
) -> Verdict:
    if facet.basis is Basis.QUOTES:
        return quotes_rule(ledger, claim, facet, latest, read_then)
    if facet.basis is Basis.PREMISES:
        return premises_rule(claim, facet, effective, refuted)
    if facet.basis is Basis.ARTIFACT:
        return artifact_rule(claim, facet, artifacts.get(claim.id))
    return Verdict(None, "judgement", "only a person changes a judgement (claimledger grade)")


# --------------------------------------------------------------------------- premises


def premises_rule(
    claim: Claim,
    facet: Facet,
    effective: Mapping[str, Mapping[str, Grade]],
    refuted: Mapping[str, str] | None = None,
) -> Verdict:
    """Cap a premise-based facet at the weakest grade of the premises it rests on (its own,
    else the claim's), or let it recover; a refuted premise takes it to UNKNOWN."""
    refuted = refuted or {}
    weakest: tuple[Grade, str, str] | None = None
    for premise in claim.premises_of(facet):
        if premise in refuted:
            evidence = (Evidence(None, None, "refuted", detail=f"premise {premise}"),)
            if facet.grade is Grade.UNKNOWN:
                return Verdict(None, "premises", f"premise '{premise}' is refuted", evidence)
            why = f"premise '{premise}' is refuted: {refuted[premise]}"
            return Verdict(Grade.UNKNOWN, "premises-refuted", why, evidence)
        for on, grade in effective.get(premise, {}).items():
            if weakest is None or grade.strength < weakest[0].strength:
                weakest = (grade, premise, on)
    if weakest is None:
        return Verdict(None, "premises", "no premises to weigh")
    cap, premise, on = weakest
    evidence = (Evidence(None, None, str(cap), detail=f"premise {premise} ({on})"),)
    target = weaker(baseline_of(claim, facet) or facet.grade, cap)
    if target.strength < facet.grade.strength:
        return Verdict(target, "premises-capped", f"premise '{premise}' is only {cap}", evidence)
    if target != facet.grade:
        why = f"its premises recovered (the weakest, '{premise}', is {cap})"
        return Verdict(target, "premises-recovered", why, evidence)
    why = f"no stronger than its weakest premise ('{premise}', {cap})"
    return Verdict(None, "premises", why, evidence)


# --------------------------------------------------------------------------- artifact


NO_RUN = "no run of the artifact made here yet (regrade runs it)"
"""What an artifact facet's grade rests on before a run of this user's own is recorded."""


def artifact_rule(claim: Claim, facet: Facet, outcome: ArtifactOutcome | None) -> Verdict:
    """Lower an artifact facet whose re-run output no longer matches; restore it when it does."""
    if outcome is None:  # a run a checkout's own store records is its word, not weighed
        return Verdict(None, "artifact", NO_RUN)
    if not outcome.ran:
        return Verdict(None, "artifact", f"the artifact could not be re-run ({outcome.error})")
    if not outcome.matched:
        detail = outcome.error or outcome.diff
        evidence = (Evidence(None, None, "different output", detail=detail),)
        why = (  # one this regrade did not make reads as no fresh check
            "its recorded run printed other than expected (not run now)"
            if outcome.recorded
            else "the artifact's output no longer matches"
        )
        return fall(facet, "artifact-changed", why, evidence)
    baseline = baseline_of(claim, facet)
    evidence = (Evidence(None, None, "same output"),)
    if outcome.recorded:
        return _recorded_match(facet, baseline, evidence)
    if baseline is not None and baseline != facet.grade:
        why = "the artifact's output matches again"
        return Verdict(baseline, "artifact-restored", why, evidence)
    return Verdict(None, "artifact", "the artifact's output matches", evidence)


def _recorded_match(
    facet: Facet, baseline: Grade | None, evidence: tuple[Evidence, ...]
) -> Verdict:
    """A recorded run that matched, which this regrade did not make, raises nothing: the
    files it ran may have changed since (why the artifact was not run now), and `explain`
    and the report weigh it as `regrade` does."""
    said = "its recorded run printed what is expected"
    if baseline is not None and baseline.strength > facet.grade.strength:
        said += ", which raises no grade: only a regrade that runs the files as they are may"
    return Verdict(None, "artifact", said, evidence)
