"""Work out the whole report from the ledger, the latest evidence and the regrade.

Pure: no network, no clock (dates are parameters), no disk. The same inputs give the
same report: everything is laid out in ledger order or sorted, never in the order a
dict happened to fill.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from claimledger.grade import Notice, Proposal, Regrade, Trace
from claimledger.ledger import Basis, Claim, Facet, Grade, HistoryEntry, Ledger, Quote, Source
from claimledger.records import (
    CARRIED,
    CheckKey,
    CheckRecord,
    FetchRecord,
    WordChange,
    classify,
    latest_by_key,
)
from claimledger.report.changes import changes_since, state_of
from claimledger.report.markup import anchor, excerpt, text_fragment_link
from claimledger.report.model import (
    FLAG_ORDER,
    GRADE_MEANINGS,
    ArtifactView,
    ClaimView,
    DriftView,
    FacetView,
    FidelityRow,
    Flag,
    GradeCount,
    PremiseView,
    QuestionView,
    QuoteView,
    Report,
    SectionView,
    SourceCheck,
    SourceView,
    Summary,
    WordChangeView,
    weakest,
)
from claimledger.urls import redact_urls, redacted, safe_url


def build_report(
    ledger: Ledger,
    checks: Sequence[CheckRecord],
    fetches: Mapping[str, FetchRecord],
    regrade: Regrade,
    *,
    generated_on: date,
    last_refresh: datetime | None,
    previous: Mapping[str, Any] | None,
) -> Report:
    """Work out the whole report from the ledger, the latest evidence and the regrade."""
    evidence = _Evidence.of(ledger, checks, fetches, regrade)
    claims = {claim.id: _claim_view(ledger, claim, evidence) for claim in ledger.claims}
    sections = tuple(
        SectionView(
            id=section.id,
            anchor=anchor("section", section.id),
            title=section.title,
            intro=redact_urls(section.intro),
            claims=tuple(claims[c.id] for c in ledger.claims if c.section == section.id),
        )
        for section in ledger.sections
    )
    in_order = [claim for section in sections for claim in section.claims]
    citing = _citations(in_order)
    sources = tuple(
        _source_view(source, citing.get(source.id, []), evidence)
        for source in ledger.sources.values()
    )
    state = state_of(in_order, sources, generated_on.isoformat())
    return Report(
        title=ledger.title,
        subject=ledger.subject,
        author=ledger.author,
        about=redact_urls(ledger.about),
        date_read=ledger.date_read.isoformat(),
        last_refresh=None if last_refresh is None else _moment(last_refresh),
        generated_on=generated_on.isoformat(),
        has_evidence=bool(evidence.checks),
        legend=_legend(ledger),
        summary=_summary(in_order, sources, regrade),
        sections=sections,
        questions=_questions(in_order),
        fidelity=tuple(_fidelity_row(claim, quote) for claim in in_order for quote in claim.quotes),
        churn_sources=tuple(s for s in sources if s.status not in ("ok", "unchecked")),
        drifts=_drifts(in_order),
        changes=changes_since(state, previous),
        did_not=ledger.scope.did_not,
        could_not_see=ledger.scope.could_not_see,
        sources=sources,
    )


@dataclass(frozen=True)
class _Evidence:
    """The inputs, indexed for lookup by the builders."""

    ledger: Ledger
    claims: Mapping[str, Claim]
    checks: Mapping[CheckKey, CheckRecord]
    fetches: Mapping[str, FetchRecord]
    proposals: Mapping[tuple[str, str], Proposal]
    notices: Mapping[tuple[str, str], tuple[Notice, ...]]
    traces: Mapping[tuple[str, str], Trace]

    @classmethod
    def of(
        cls,
        ledger: Ledger,
        checks: Sequence[CheckRecord],
        fetches: Mapping[str, FetchRecord],
        regrade: Regrade,
    ) -> _Evidence:
        notices: dict[tuple[str, str], tuple[Notice, ...]] = {}
        for notice in regrade.notices:
            key2 = (notice.claim_id, notice.on)
            notices[key2] = (*notices.get(key2, ()), notice)
        return cls(
            ledger=ledger,
            claims={claim.id: claim for claim in ledger.claims},
            checks=latest_by_key(checks),
            fetches={redacted(url): fetch for url, fetch in fetches.items()},
            proposals={(p.claim_id, p.on): p for p in regrade.proposals},
            notices=notices,
            traces={(t.claim_id, t.on): t for t in regrade.traces},
        )

    def check(self, claim: Claim, quote: Quote, source_id: str) -> CheckRecord | None:
        return self.checks.get((claim.id, quote.text, source_id))

    def fetch(self, *urls: str | None) -> FetchRecord | None:
        """The latest fetch of the first of `urls` that was fetched."""
        for url in urls:
            if url is not None and redacted(url) in self.fetches:
                return self.fetches[redacted(url)]
        return None


# --- claims


def _claim_view(ledger: Ledger, claim: Claim, evidence: _Evidence) -> ClaimView:
    quotes = tuple(
        _quote_view(ledger, claim, index, quote, evidence)
        for index, quote in enumerate(claim.quotes)
    )
    premises = tuple(_premise(evidence.claims[p]) for p in claim.depends_on)
    facets = tuple(_facet_view(claim, facet, quotes, premises, evidence) for facet in claim.grades)
    kinds = {flag.kind for facet in facets for flag in facet.flags}
    return ClaimView(
        id=claim.id,
        anchor=anchor("claim", claim.id),
        title=claim.title,
        kind=claim.kind,
        statement=claim.statement,
        quotes=quotes,
        facets=facets,
        premises=premises,
        falsifier=claim.falsified_if,
        artifact=None
        if claim.artifact is None
        else ArtifactView(_command(claim.artifact.run), claim.artifact.expect),
        history=tuple(entry.describe() for entry in claim.history),
        flags=tuple(kind for kind in FLAG_ORDER if kind in kinds),
    )


def _premise(claim: Claim) -> PremiseView:
    grade = weakest(str(facet.grade) for facet in claim.grades)
    return PremiseView(claim.id, anchor("claim", claim.id), claim.title, grade)


def _command(run: tuple[str, ...] | str) -> str:
    return run if isinstance(run, str) else shlex.join(run)


# --- quotes


def _quote_view(
    ledger: Ledger, claim: Claim, index: int, quote: Quote, evidence: _Evidence
) -> QuoteView:
    sources = tuple(
        _source_check(ledger.sources[sid], quote.text, evidence.check(claim, quote, sid), evidence)
        for sid in quote.sources
    )
    carrying = [s for s in sources if s.status in CARRIED]
    independent = {ledger.sources[s.source_id].independence_key for s in carrying}
    read = [s for s in sources if s.status not in ("unread", "unchecked")]
    verified_days = sorted(s.checked_on for s in carrying if s.checked_on)
    checked_days = sorted(s.checked_on for s in sources if s.checked_on)
    last_verified = verified_days[-1] if verified_days else None
    if last_verified:
        verified_label = f"last verified {last_verified}"
    elif checked_days:
        verified_label = f"not verified at the last check ({checked_days[-1]})"
    else:
        verified_label = "not yet verified"
    return QuoteView(
        index=index,
        text=quote.text,
        note=quote.note,
        sources=sources,
        state=_quote_state(sources),
        last_verified=last_verified,
        verified_label=verified_label,
        cross_check=_cross_check(ledger, quote),
        agreeing=f"{len(carrying)} of {len(read)}" if read else "none read yet",
        carried_by=len(carrying),
        independent=len(independent),
    )


def _quote_state(sources: Sequence[SourceCheck]) -> str:
    """The best thing any source says of the quote."""
    for state in ("verified", "ambiguous", "drifted", "missing", "gone", "unread"):
        if any(s.status == state for s in sources):
            return "verified" if state == "ambiguous" else state
    return "unchecked"


def _cross_check(ledger: Ledger, quote: Quote) -> str:
    """How the quote is cited: on one source, or on several (and how independent they are)."""
    cited = list(dict.fromkeys(quote.sources))
    if len(cited) == 1:
        return "single-source"
    keys = {ledger.sources[sid].independence_key for sid in cited}
    if len(keys) == 1:
        return f"cross-checked on {len(cited)} sources of one publisher"
    return f"cross-checked on {len(cited)} sources, {len(keys)} independent"


def _source_check(
    source: Source, quote_text: str, check: CheckRecord | None, evidence: _Evidence
) -> SourceCheck:
    url = safe_url(source.url)
    link = None if url is None else text_fragment_link(url, quote_text)
    archived = safe_url(source.archived)
    if check is None:
        return SourceCheck(
            source.id, source.title, url, link, archived, "unchecked", None, "not yet verified",
            None, None, False, (), None,
        )  # fmt: skip
    fetch = evidence.fetch(check.url, source.url)
    day = _day(check.checked_at)
    status, label = _check_words(check, fetch, day)
    drifted = status == "drifted"
    moved_to = fetch.moved_to if fetch is not None and check.source_status == "moved" else None
    return SourceCheck(
        source_id=source.id,
        title=source.title,
        url=url,
        link=link,
        archived=archived,
        status=status,
        source_status=check.source_status,
        label=label,
        checked_on=day,
        current=check.current if drifted else None,
        meaning_changed=drifted and check.meaning_changed,
        changes=tuple(_word_change(c) for c in check.changed_words) if drifted else (),
        moved_to=safe_url(moved_to),
        change_kinds=check.change_kinds if drifted else (),
        closest=check.closest if status == "missing" else None,
        closest_kinds=check.closest_kinds if status == "missing" else (),
    )


def _check_words(check: CheckRecord, fetch: FetchRecord | None, day: str) -> tuple[str, str]:
    """The report's status of one check, and how the report says it."""
    http = f" (HTTP {fetch.http_status})" if fetch and fetch.http_status else ""
    moved = " at its new address" if check.source_status == "moved" else ""
    standing = classify(check)
    if standing == "gone":
        return "gone", f"page gone{http}, checked {day}"
    if standing == "unread":
        return "unread", (
            f"could not be read, {check.source_status}{http}, checked {day}: no evidence either way"
        )
    if standing == "verified":
        return "verified", f"verified {day}{moved}"
    if standing == "ambiguous":
        return "ambiguous", f"found in {check.occurrences} places{moved}, checked {day}"
    if standing == "changed":
        return "drifted", f"reworded with a change of meaning{moved}, checked {day}"
    if standing == "reworded":
        return "drifted", f"reworded on the page{moved}, checked {day}"
    return "missing", f"not found on the page{moved}, checked {day}"


def _word_change(change: WordChange) -> WordChangeView:
    """A recorded word change, in words a reader reads."""
    op, was, now, meaningful, kind = (
        change.op,
        change.quote,
        change.page,
        change.meaningful,
        change.kind,
    )
    if op == "insert":
        label = f"added “{now}”"
    elif op == "delete":
        label = f"removed “{was}”"
    else:
        label = f"“{was}” → “{now}”"
    if meaningful:
        label += f" ({kind})" if kind else " (changes the meaning)"
    return WordChangeView(op, was, now, meaningful, label)


# --- facets


def _facet_view(
    claim: Claim,
    facet: Facet,
    quotes: Sequence[QuoteView],
    premises: Sequence[PremiseView],
    evidence: _Evidence,
) -> FacetView:
    trace = evidence.traces.get((claim.id, facet.on))
    words = _facet_evidence(facet, quotes, premises, trace)
    return FacetView(
        on=facet.on,
        grade=str(facet.grade),
        basis=str(facet.basis),
        why=facet.why,
        evidence=words,
        line=f"Grade on {facet.on}: {facet.grade} — {words}",
        trace="" if trace is None else f"rule {trace.rule}: {trace.outcome}",
        flags=_facet_flags(claim, facet, evidence),
    )


def _facet_evidence(
    facet: Facet,
    quotes: Sequence[QuoteView],
    premises: Sequence[PremiseView],
    trace: Trace | None,
) -> str:
    """What the grade rests on, as the second half of the grade line."""
    if facet.basis is Basis.QUOTES:
        return _quotes_evidence(facet, quotes)
    if facet.basis is Basis.PREMISES:
        if not premises:
            return "rests on premises not named"
        lowest = weakest(p.grade for p in premises)
        count = "one premise" if len(premises) == 1 else f"{len(premises)} premises"
        return f"rests on {count}, the weakest graded {lowest}"
    if facet.basis is Basis.ARTIFACT:
        outcome = f"; at the last regrade: {trace.outcome}" if trace else ""
        return f"checked by re-running its artifact{outcome}"
    return "the author's judgement, changed only by a person"


def _quotes_evidence(facet: Facet, quotes: Sequence[QuoteView]) -> str:
    if all(q.state == "unchecked" for q in quotes):
        return "not yet verified"
    if any(q.last_verified is None for q in quotes):
        return _unverified_evidence(quotes)
    fewest = min(q.carried_by for q in quotes)
    independent = min(q.independent for q in quotes)
    if independent >= 2:
        how = f"cross-checked on {independent} independent sources"
    elif fewest >= 2:
        how = f"cross-checked on {fewest} sources of one publisher"
    else:
        how = "single-source"
    if len(quotes) > 1:
        how = f"{len(quotes)} quotes, each {how}"
    oldest = min(q.last_verified for q in quotes if q.last_verified)
    shortfall = (
        f" (the facet asks for {facet.min_sources} independent)"
        if independent < facet.min_sources
        else ""
    )
    return f"{how}, verified {oldest}{shortfall}"


_STATE_WORDS = {
    "drifted": "reworded on its page",
    "missing": "no longer on its page",
    "gone": "on a page that is gone",
    "unread": "on a page that could not be read (no evidence either way)",
    "unchecked": "not yet checked",
}


_ONE_QUOTE_WORDS = {
    "drifted": "its quote was reworded on the page",
    "missing": "its quote is no longer on the page",
    "gone": "the page of its quote is gone",
    "unread": "the page of its quote could not be read: no evidence either way",
    "unchecked": "not yet verified",
}


def _unverified_evidence(quotes: Sequence[QuoteView]) -> str:
    """The grade line's evidence when some quote is not verified at the last check."""
    if len(quotes) == 1:
        return _ONE_QUOTE_WORDS[quotes[0].state]
    tally: dict[str, int] = {}
    for quote in quotes:
        tally[quote.state] = tally.get(quote.state, 0) + 1
    parts = [f"{tally.get('verified', 0)} of {len(quotes)} quotes verified"]
    parts += [f"{tally[state]} {words}" for state, words in _STATE_WORDS.items() if state in tally]
    return "; ".join(parts)


def _facet_flags(claim: Claim, facet: Facet, evidence: _Evidence) -> tuple[Flag, ...]:
    flags: list[Flag] = []
    proposal = evidence.proposals.get((claim.id, facet.on))
    if proposal is not None:
        flags.append(
            Flag(
                "PROPOSED",
                f"{proposal.from_grade} → {proposal.to_grade} by rule {proposal.rule}: "
                f"{proposal.why}",
            )
        )
    for notice in evidence.notices.get((claim.id, facet.on), ()):
        flags.append(Flag(notice.kind.upper(), notice.why))
    downgrade = _standing_downgrade(claim, facet)
    if downgrade is not None:
        why = f": {downgrade.why}" if downgrade.why else ""
        flags.append(
            Flag(
                "DOWNGRADED",
                f"{downgrade.from_grade} → {downgrade.to_grade} on {downgrade.date} "
                f"by {downgrade.by}{why}",
            )
        )
    return tuple(flags)


def _standing_downgrade(claim: Claim, facet: Facet) -> HistoryEntry | None:
    """The rule that took this facet down, when its grade still stands where the rule left it."""
    for entry in reversed(claim.history):
        if entry.on != facet.on or entry.to_grade is None:
            continue
        lowered = (
            entry.from_grade is not None and entry.to_grade.strength < entry.from_grade.strength
        )
        if entry.by.startswith("rule:") and lowered and entry.to_grade == facet.grade:
            return entry
        return None
    return None


# --- sources, questions, fidelity, churn


def _citations(claims: Sequence[ClaimView]) -> dict[str, list[tuple[ClaimView, SourceCheck]]]:
    """Each source id with the claims citing it and their checks there, in report order."""
    citing: dict[str, list[tuple[ClaimView, SourceCheck]]] = {}
    for claim in claims:
        for quote in claim.quotes:
            for check in quote.sources:
                citing.setdefault(check.source_id, []).append((claim, check))
    return citing


def _source_view(
    source: Source, citing: Sequence[tuple[ClaimView, SourceCheck]], evidence: _Evidence
) -> SourceView:
    fetch = evidence.fetch(source.url)
    checked = [check.source_status for _, check in citing if check.source_status is not None]
    status = fetch.source_status if fetch is not None else (checked[0] if checked else None)
    claims = list({claim.id: claim for claim, _ in citing}.values())
    moved_to = safe_url(fetch.moved_to) if fetch is not None and status == "moved" else None
    return SourceView(
        id=source.id,
        title=source.title,
        url=safe_url(source.url),
        archived=safe_url(source.archived),
        kind=source.kind,
        publisher=source.publisher,
        status=status or "unchecked",
        label=_source_words(status, fetch),
        moved_to=moved_to,
        cited_by=tuple(
            PremiseView(c.id, c.anchor, c.title, weakest(f.grade for f in c.facets)) for c in claims
        ),
        moves=tuple(
            f"moved on {move.date} from {safe_url(move.moved_from) or 'an address not shown'}"
            for move in source.history
        ),
    )


def _source_words(status: str | None, fetch: FetchRecord | None) -> str:
    if status is None:
        return "not yet fetched"
    when = f", fetched {_day(fetch.fetched_at)}" if fetch is not None else ""
    http = f" (HTTP {fetch.http_status})" if fetch is not None and fetch.http_status else ""
    words = {
        "ok": "read",
        "moved": "moved to a new address",
        "gone": f"gone{http}",
        "unreachable": "unreachable",
        "refused": f"refused{http}",
        "unreadable": "not readable",
    }
    detail = ""
    if fetch is not None and status == "unreadable" and fetch.content_type:
        detail = f": content type {fetch.content_type}"
    elif fetch is not None and status == "unreachable" and fetch.error:
        detail = f": {fetch.error}"
    return f"{words.get(status, status)}{detail}{when}"


def _questions(claims: Sequence[ClaimView]) -> tuple[QuestionView, ...]:
    asked = [
        claim
        for claim in claims
        if claim.kind == "question" or any(f.grade == Grade.UNKNOWN for f in claim.facets)
    ]
    return tuple(
        QuestionView(
            number=number,
            claim_id=claim.id,
            anchor=claim.anchor,
            title=claim.title,
            statement=claim.statement,
            unknown=tuple(f.on for f in claim.facets if f.grade == Grade.UNKNOWN),
        )
        for number, claim in enumerate(asked, start=1)
    )


def _fidelity_row(claim: ClaimView, quote: QuoteView) -> FidelityRow:
    return FidelityRow(
        claim_id=claim.id,
        anchor=claim.anchor,
        claim_title=claim.title,
        quote=quote.text,
        excerpt=excerpt(quote.text),
        cross_check=quote.cross_check,
        agreeing=quote.agreeing,
        last_verified=quote.last_verified or quote.verified_label,
    )


def _drifts(claims: Sequence[ClaimView]) -> tuple[DriftView, ...]:
    """Quotes a page no longer carries as quoted: meaning changes first, then rewordings,
    then quotes not found; in ledger order within each."""
    found = [
        DriftView(
            claim_id=claim.id,
            anchor=claim.anchor,
            claim_title=claim.title,
            source_id=check.source_id,
            source_title=check.title,
            source_url=check.url,
            status=check.status,
            meaning_changed=check.meaning_changed,
            label=check.label,
            quoted=quote.text,
            current=check.current,
            changes=check.changes,
            checked_on=check.checked_on,
            change_kinds=check.change_kinds,
            closest=check.closest,
            closest_kinds=check.closest_kinds,
        )
        for claim in claims
        for quote in claim.quotes
        for check in quote.sources
        if check.status in ("drifted", "missing")
    ]
    rank = {(True, "drifted"): 0, (False, "drifted"): 1, (False, "missing"): 2}
    return tuple(sorted(found, key=lambda d: rank[(d.meaning_changed, d.status)]))


def _legend(ledger: Ledger) -> tuple[GradeCount, ...]:
    counts = ledger.grade_counts()
    return tuple(GradeCount(str(grade), GRADE_MEANINGS[grade], counts[grade]) for grade in Grade)


def _summary(
    claims: Sequence[ClaimView], sources: Sequence[SourceView], regrade: Regrade
) -> Summary:
    quotes = [quote for claim in claims for quote in claim.quotes]
    return Summary(
        claims=len(claims),
        facets=sum(len(claim.facets) for claim in claims),
        quotes=len(quotes),
        sources=len(sources),
        verified_quotes=sum(1 for q in quotes if q.state == "verified"),
        drifted_quotes=sum(1 for q in quotes if q.state == "drifted"),
        missing_quotes=sum(1 for q in quotes if q.state in ("missing", "gone")),
        sources_not_ok=sum(1 for s in sources if s.status not in ("ok", "unchecked")),
        proposals=len(regrade.proposals),
        stale=sum(1 for n in regrade.notices if n.kind == "stale"),
    )


def _day(moment: datetime) -> str:
    return (moment.astimezone(UTC) if moment.tzinfo else moment).date().isoformat()


def _moment(moment: datetime) -> str:
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
