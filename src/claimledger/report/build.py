"""Work out the whole report from the ledger, the latest evidence and the regrade.

Pure: no network, no clock (dates are parameters), no disk. The same inputs give the
same report: everything is laid out in ledger order or sorted, never in the order a
dict happened to fill.
"""

from __future__ import annotations

import functools
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, date, datetime
from typing import Any

from claimledger.grading.quotes import (
    as_cited,
    counted_keys,
    independent_names,
    one_page,
    pages_cited_before,
)
from claimledger.grading.review import review_reason
from claimledger.grading.rules import Notice, Proposal, Regrade, Trace
from claimledger.ledger.model import Claim, Facet, HistoryEntry, Ledger, Quote, Source
from claimledger.ledger.vocabulary import Basis
from claimledger.records import (
    CARRIED,
    ArtifactRun,
    AsReadCheck,
    CheckKey,
    CheckRecord,
    FetchRecord,
    QuoteHistory,
    check_key,
    classify,
    latest_by_key,
    meaning_uncertain,
    near_miss,
)
from claimledger.report.adoptions import adopted_wording, word_changes
from claimledger.report.anchors import with_clear_anchors
from claimledger.report.artifacts import artifact_view, artifacts_ran, weighed_run
from claimledger.report.changes import changes_since, state_day, state_of
from claimledger.report.commits import changed_in
from claimledger.report.history import published_history
from claimledger.report.markup import anchor, statement_beyond_title, text_fragment_link
from claimledger.report.model import (
    FLAG_ORDER,
    AsReadView,
    ClaimView,
    ClosingView,
    FacetView,
    Flag,
    PremiseView,
    QuoteView,
    Report,
    SectionView,
    SourceCheck,
    weakest,
)
from claimledger.report.overview import (
    churn_sources,
    citations,
    day,
    drifts,
    fidelity_row,
    findings,
    http_said,
    legend,
    questions,
    source_view,
    summary,
)
from claimledger.report.tally import all_verified, unverified_evidence
from claimledger.urls import redact_urls, redacted, safe_url

_safe_url = functools.lru_cache(maxsize=4096)(safe_url)
_redacted = functools.lru_cache(maxsize=4096)(redacted)
"""The forms of a source's address, worked out once for all the quotes checked on it."""


def build_report(
    ledger: Ledger,
    checks: Sequence[CheckRecord],
    fetches: Mapping[str, FetchRecord],
    regrade: Regrade,
    *,
    generated_on: date,
    last_refresh: datetime | None,
    previous: Mapping[str, Any] | None,
    last_refresh_finished: bool | None = None,
    evidence_made_here: bool = True,
    artifact_runs: Mapping[str, ArtifactRun] | None = None,
    as_read: Sequence[AsReadCheck] = (),
    histories: Mapping[CheckKey, QuoteHistory] | None = None,
) -> Report:
    """Work out the whole report from the ledger, the latest evidence and the regrade
    (`artifact_runs`: each artifact claim's last run; `as_read`: the quotes' verdicts on
    the reading day's archived copies; `histories`: what the docs' repository says)."""
    evidence = _Evidence.of(ledger, checks, fetches, regrade, artifact_runs or {}, as_read)
    evidence.histories.update(histories or {})
    by_section: dict[str, list[ClaimView]] = {section.id: [] for section in ledger.sections}
    for claim in ledger.claims:
        by_section.setdefault(claim.section, []).append(_claim_view(ledger, claim, evidence))
    sections = tuple(
        SectionView(
            id=section.id,
            anchor=anchor("section", section.id),
            title=section.title,
            intro=redact_urls(section.intro),
            claims=tuple(by_section[section.id]),
            after=redact_urls(section.after),
        )
        for section in ledger.sections
    )
    in_order = [claim for section in sections for claim in section.claims]
    citing = citations(in_order)
    sources = tuple(
        source_view(source, citing.get(source.id, []), evidence.fetch(source.url))
        for source in ledger.sources.values()
    )
    state = state_of(in_order, sources, generated_on.isoformat())
    report = Report(
        title=ledger.title,
        subject=ledger.subject,
        author=ledger.author,
        about=redact_urls(ledger.about),
        date_read=ledger.date_read.isoformat(),
        last_refresh=None if last_refresh is None else _moment(last_refresh),
        last_refresh_finished=last_refresh_finished,
        evidence_made_here=evidence_made_here,
        generated_on=generated_on.isoformat(),
        has_evidence=bool(evidence.checks) or artifacts_ran(evidence.artifact_runs),
        quotes_checked=bool(evidence.checks),
        legend=legend(ledger),
        summary=summary(in_order, sources, regrade),
        sections=sections,
        questions=questions(in_order),
        fidelity=tuple(fidelity_row(claim, quote) for claim in in_order for quote in claim.quotes),
        churn_sources=churn_sources(ledger, sources, state_day(previous)),
        drifts=drifts(in_order),
        changes=changes_since(state, previous, {claim.id: claim for claim in ledger.claims}),
        did_not=ledger.scope.did_not,
        could_not_see=ledger.scope.could_not_see,
        sources=sources,
        findings=findings(ledger, in_order, sources, regrade, since=state_day(previous)),
        closing=tuple(
            ClosingView(anchor("closing", str(number)), part.title, redact_urls(part.body))
            for number, part in enumerate(ledger.closing, start=1)
        ),
    )
    return with_clear_anchors(report)


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
    artifact_runs: Mapping[str, ArtifactRun]
    as_read: Mapping[CheckKey, AsReadCheck]
    premises: dict[str, PremiseView] = field(default_factory=dict)
    """Each claim as a premise, once worked out (many claims may rest on one)."""
    histories: dict[CheckKey, QuoteHistory] = field(default_factory=dict)
    read_at: Mapping[str, tuple[str, ...]] = field(default_factory=dict)  # as `regrade` counts them
    cited_before: Mapping[str, str] = field(default_factory=dict)  # as `regrade` joins them

    @classmethod
    def of(
        cls,
        ledger: Ledger,
        checks: Sequence[CheckRecord],
        fetches: Mapping[str, FetchRecord],
        regrade: Regrade,
        artifact_runs: Mapping[str, ArtifactRun],
        as_read: Sequence[AsReadCheck] = (),
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
            artifact_runs=artifact_runs,
            as_read=latest_by_key(as_read),
            read_at=regrade.read_at,  # counted as the grading counted
            cited_before=pages_cited_before(ledger),
        )

    def premise(self, claim_id: str) -> PremiseView:
        """The claim `claim_id` as a premise of another, linked, with its weakest grade."""
        view = self.premises.get(claim_id)
        if view is None:
            view = self.premises[claim_id] = _premise(self.claims[claim_id])
        return view

    def check(self, claim: Claim, quote: Quote, source_id: str) -> CheckRecord | None:
        return self.checks.get((claim.id, quote.text, source_id))

    def fetch(self, *urls: str | None, run: int | None = None) -> FetchRecord | None:
        """The latest fetch of the first of `urls` fetched; none unless of run `run`, if named."""
        for url in (url for url in urls if url is not None and _redacted(url) in self.fetches):
            found = self.fetches[_redacted(url)]
            return found if run is None or found.run_id == run else None
        return None


# --- claims


def _claim_view(ledger: Ledger, claim: Claim, evidence: _Evidence) -> ClaimView:
    quotes = tuple(
        _quote_view(ledger, claim, number, quote, evidence)
        for number, quote in enumerate(claim.quotes, start=1)  # as `#1` and `--quote 1` say
    )
    premises = tuple(evidence.premise(p) for p in claim.depends_on)
    facets = tuple(
        _facet_view(
            claim,
            facet,
            quotes,
            tuple(evidence.premise(p) for p in claim.premises_of(facet)),
            evidence,
        )
        for facet in claim.grades
    )
    kinds = {flag.kind for facet in facets for flag in facet.flags}
    if claim.falsified is not None:
        kinds.add("REFUTED")
    return ClaimView(
        id=claim.id,
        anchor=anchor("claim", claim.id),
        title=claim.title,
        kind=claim.kind,
        statement=claim.statement,
        statement_shown=statement_beyond_title(claim.title, claim.statement),
        quotes=quotes,
        facets=facets,
        premises=premises,
        falsifier=claim.falsified_if,
        artifact=artifact_view(claim, evidence.artifact_runs.get(claim.id)),
        history=published_history(
            claim, _standing_downgrades(claim), ledger.author, ledger.sources
        ),
        flags=tuple(kind for kind in FLAG_ORDER if kind in kinds),
        refuted=_refutation_words(claim),
        refuted_on=claim.falsified.date if claim.falsified else None,
        review=review_reason(claim, claim.review) if claim.review else None,
        body=redact_urls(claim.body),
    )


def _refutation_words(claim: Claim) -> str | None:
    """ "Refuted on 2026-09-01 (by person): what was seen", for a claim whose falsifier fired."""
    fired = claim.falsified
    if fired is None:
        return None
    by = "" if fired.by == "person" else f" by {fired.by}"
    return redact_urls(f"on {fired.date}{by}: {fired.why}")


def _premise(claim: Claim) -> PremiseView:
    grade = weakest(str(facet.grade) for facet in claim.grades)
    refuted = claim.falsified.date if claim.falsified else None
    return PremiseView(claim.id, anchor("claim", claim.id), claim.title, grade, refuted)


# --- quotes


def _quote_view(
    ledger: Ledger, claim: Claim, number: int, quote: Quote, evidence: _Evidence
) -> QuoteView:
    checks = [(sid, evidence.check(claim, quote, sid)) for sid in quote.sources]
    sources = tuple(
        _with_as_read(
            _source_check(ledger.sources[sid], quote.text, check, evidence),
            evidence.as_read.get((claim.id, quote.text, sid)),
        )
        for sid, check in checks
    )
    independence = as_cited(quote, lambda sid: ledger.sources[sid].independence_key, ledger.copies)
    keys = counted_keys(checks, independence, evidence.read_at, evidence.cited_before)
    carrying = [s for s in sources if s.status in CARRIED]
    independent = {keys[s.source_id]: s.source_id for s in carrying}
    read = [s for s in sources if s.status not in ("unread", "unchecked")]
    verified_days = sorted(s.checked_on for s in carrying if s.checked_on)
    checked_days = sorted(s.checked_on for s in sources if s.checked_on)
    last_verified = verified_days[-1] if verified_days else None
    original, adopted = claim.as_read(quote.text)
    meaning, kinds, changes = adopted_wording(claim, quote.text, original)
    if last_verified:
        verified_label = f"last verified {last_verified}"
    elif checked_days:
        verified_label = f"not verified at the last check ({checked_days[-1]})"
    elif adopted:  # the page's own words, taken from it; no refresh has checked them yet
        verified_label = f"adopted from its page on {adopted.date}, not checked since"
    else:
        verified_label = "not yet verified"
    return QuoteView(
        index=number,
        text=quote.text,
        note=quote.note,
        sources=sources,
        state=_quote_state(sources),
        last_verified=last_verified,
        verified_label=verified_label,
        cross_check=_cross_check(
            ledger,
            quote,
            keys,
            {s.source_id for s in read if s not in carrying},
            {s.source_id for s in sources if s not in read},
            _never_checked(sources),
        ),
        agreeing=f"{len(carrying)} of {len(read)}" if read else _none_read(adopted, sources),
        carried_by=len(carrying),
        independent=len(independent_names(independent)),
        attribution=_attribution(ledger, quote),
        under=quote.under,
        adopted_on=adopted.date if adopted else None,
        as_read=original if adopted else None,
        adopted_meaning=meaning,
        adopted_kinds=kinds,
        adopted_changes=changes,
    )


def _attribution(ledger: Ledger, quote: Quote) -> str | None:
    """ "Kunal Ganglani reports, citing the storage API reference": a third party's words
    are theirs, not the vendor's, and the report says whose they are."""
    if quote.reported_by is None:
        return None
    reporter = ledger.sources[quote.reported_by]
    said = f"{reporter.author or reporter.title} reports"
    return said if quote.via is None else f"{said}, citing {ledger.sources[quote.via].title}"


def _quote_state(sources: Sequence[SourceCheck]) -> str:
    """The best thing any source says of the quote."""
    for state in ("verified", "ambiguous", "drifted", "missing", "gone", "unread"):
        if any(s.status == state for s in sources):
            return "verified" if state == "ambiguous" else state
    return "unchecked"


def _cross_check(
    ledger: Ledger,
    quote: Quote,
    keys: Mapping[str, str],
    lacking: Collection[str],
    unread: Collection[str],
    never: bool,
) -> str:
    """How the quote is cited: on one source, or on several (and how independent they
    are, each counted as the grading counts it: `keys`); "cross-checked" only while each of
    them was read carrying it: not while one read lacks it (`lacking`), nor while one
    could not be read or was never checked (`unread`; `never`: none was), which carries
    nothing known."""
    cited = list(dict.fromkeys(quote.sources))
    if len(cited) == 1:
        return "single-source"
    sources = [ledger.sources[sid] for sid in cited]
    if _one_publisher(sources):
        how = f"{len(cited)} sources of one publisher, {sources[0].publisher}"
    else:
        cited_first = sorted(sources, key=lambda s: bool(quote.via) and s.id == quote.reported_by)
        named = _counted(cited_first, keys)  # a report counts as the source it cites
        how = f"{len(cited)} sources, {len(named)} independent: {', '.join(named)}"
    short = [sid for sid in cited if sid in lacking]
    not_read = [sid for sid in cited if sid in unread]
    if not short and not not_read:
        return f"cross-checked on {how}"
    if len(not_read) == len(cited):
        return f"cited on {how}; {'none read yet' if never else 'none read at the last check'}"
    said = [f"not carried now by {', '.join(short)}"] if short else []
    said += [f"not read at the last check: {', '.join(not_read)}"] if not_read else []
    return f"cited on {how}; {'; '.join(said)}"


def _one_publisher(sources: Sequence[Source]) -> bool:
    """Whether a quote's sources are one publisher's: of one independence key, a page cited
    twice (`one_page`: its address written two ways, the second marked independent or
    named for another) taken as the first source that cites it, since one page is one
    text of one site, not two publishers' pages counted as one."""
    pages: dict[str, Source] = {}
    for source in sources:
        pages.setdefault(one_page(source.url), source)
    return len({source.independence_key for source in pages.values()}) == 1


def _counted(sources: Sequence[Source], keys: Mapping[str, str]) -> list[str]:
    """Whom the sources count for, each once, as the first of its sources names it: two
    spellings of one publisher, or one page read at two publishers' addresses, are one
    name in the cross-check line, as they are one in the count; a mirror is named only
    where no other source is, since it copies one of theirs (`independent_count`)."""
    named: dict[str, str] = {}
    for source in sources:
        named.setdefault(keys[source.id], source.counted_as)
    return independent_names(named)


def _source_check(
    source: Source, quote_text: str, check: CheckRecord | None, evidence: _Evidence
) -> SourceCheck:
    url = _safe_url(source.url)
    found = check.current if check is not None else None  # the page's own words of it
    link = None if url is None else text_fragment_link(url, quote_text, found)
    if url is not None and check is not None and check.pdf_page is not None:
        link = f"{url.split('#', 1)[0]}#page={check.pdf_page}"  # a PDF viewer opens there
    if check is None:
        return SourceCheck(
            source.id, source.title, url, link, _safe_url(source.archived), "unchecked", None,
            "not yet verified", None, None, False, (), None,
        )  # fmt: skip
    fetch = evidence.fetch(check.url, source.url, run=check.run_id)  # its answer, no later one
    checked_on = day(check.checked_at)
    status, label = _check_words(check, fetch, checked_on)
    drifted = status == "drifted"
    commit = changed_in(evidence.histories.get(check_key(check)), check)
    moved_to = fetch.moved_to if fetch is not None and check.source_status == "moved" else None
    return SourceCheck(
        source_id=source.id,
        title=source.title,
        url=url,
        link=link,
        archived=_safe_url(source.archived),
        status=status,
        source_status=check.source_status,
        label=label,
        checked_on=checked_on,
        current=check.current if drifted else None,
        meaning_changed=drifted and check.meaning_changed,
        changes=word_changes(check.changed_words) if drifted else (),
        moved_to=safe_url(moved_to),
        change_kinds=check.change_kinds if drifted else (),
        closest=check.closest if status in ("missing", "drifted") else None,
        closest_kinds=check.closest_kinds if status == "missing" else (),
        moved_within=check.moved_within,
        meaning_uncertain=drifted and meaning_uncertain(check),
        near_miss=status == "missing" and near_miss(check),
        changed_in=commit.said if commit else None,
        changed_in_link=safe_url(commit.link) if commit and commit.link else None,
    )


_AS_READ_WORDS = {
    "verified": "verified",
    "ambiguous": "verified (in several places)",
    "drifted": "misquoted at reading time: worded otherwise there",
    "missing": "misquoted at reading time: not there",
}


def _with_as_read(check: SourceCheck, then: AsReadCheck | None) -> SourceCheck:
    """A source's check, with how the quote stood on the archived copy of the reading day."""
    if then is None:
        return check
    captured = f"{then.timestamp[:4]}-{then.timestamp[4:6]}-{then.timestamp[6:8]}"
    status, own = then.status or "unread", then.recipe.startswith("repository ")  # no capture
    label = _AS_READ_WORDS.get(status, f"the copy could not be read ({then.error})")
    view = AsReadView(
        status=status,
        misquoted=then.misquoted,
        captured_on=captured,
        snapshot=None if own else safe_url(then.snapshot_url),
        label=label + (f" (in the docs' repository's version of {captured})" if own else ""),
        current=then.current if then.misquoted else None,
    )
    return replace(check, as_read=view)


def _check_words(check: CheckRecord, fetch: FetchRecord | None, checked_on: str) -> tuple[str, str]:
    """The report's status of one check, and how the report says it."""
    http, moved = http_said(fetch), " at its new address" if check.source_status == "moved" else ""
    if check.moved_within:
        moved += f", moved within the page ({check.moved_within})"
    standing = classify(check)
    if standing == "gone":
        return "gone", f"page gone{http}, checked {checked_on}"
    if standing == "unread":
        return "unread", (
            f"could not be read, {check.source_status}{http}, checked {checked_on}: "
            "no evidence either way"
        )
    if standing == "verified":
        return "verified", f"verified {checked_on}{moved}"
    if standing == "ambiguous":
        return "ambiguous", f"found in {check.occurrences} places{moved}, checked {checked_on}"
    if standing == "changed":
        return "drifted", f"reworded with a change of meaning{moved}, checked {checked_on}"
    if standing == "reworded":
        return "drifted", f"reworded on the page{moved}, checked {checked_on}"
    return "missing", f"not found on the page{moved}, checked {checked_on}"


# --- facets


def _facet_view(
    claim: Claim,
    facet: Facet,
    quotes: Sequence[QuoteView],
    premises: Sequence[PremiseView],
    evidence: _Evidence,
) -> FacetView:
    trace = evidence.traces.get((claim.id, facet.on))
    words = _facet_evidence(facet, quotes, premises, trace, evidence.artifact_runs.get(claim.id))
    grade = str(facet.grade)
    return FacetView(
        on=facet.on,
        grade=grade,
        basis=str(facet.basis),
        why=facet.why,
        evidence=words,
        line=f"Grade on {facet.on}: {grade} — {words}",
        trace="" if trace is None else f"rule {trace.rule}: {trace.outcome}",
        flags=_facet_flags(claim, facet, evidence),
        premises=tuple(premises) if facet.depends_on is not None else (),
        graded_on=_graded_on(evidence.ledger, claim, facet),
        proposed=_proposed(claim, facet, evidence),
    )


def _proposed(claim: Claim, facet: Facet, evidence: _Evidence) -> str:
    proposal = evidence.proposals.get((claim.id, facet.on))
    return "" if proposal is None else str(proposal.to_grade)


def _graded_on(ledger: Ledger, claim: Claim, facet: Facet) -> str:
    """The day the facet got its grade: the last history entry that set it (an entry with
    no facet named is the first facet's), else the day of the reading. Never today, so a
    review's date does not move from one render to the next."""
    days = [
        entry.date
        for entry in claim.history
        if entry.to_grade is not None and (entry.on or claim.grades[0].on) == facet.on
    ]
    return days[-1] if days else ledger.date_read.isoformat()


def _facet_evidence(
    facet: Facet,
    quotes: Sequence[QuoteView],
    premises: Sequence[PremiseView],
    trace: Trace | None,
    run: ArtifactRun | None,
) -> str:
    """What the grade rests on, as the second half of the grade line."""
    if facet.basis is Basis.QUOTES:
        return _quotes_evidence(facet, quotes)
    if facet.basis is Basis.PREMISES:
        if not premises:
            return "rests on premises not named"
        count = "one premise" if len(premises) == 1 else f"{len(premises)} premises"
        refuted = [p for p in premises if p.refuted_on]
        if refuted:  # the cause of its grade, whatever the refuted premise is graded
            named = ", ".join(f"{p.title} on {p.refuted_on}" for p in refuted)
            return f"rests on {count}, refuted: {named}"
        return f"rests on {count}, the weakest graded {weakest(p.grade for p in premises)}"
    if facet.basis is Basis.ARTIFACT:
        return f"checked by re-running its artifact{weighed_run(run, trace)}"
    return "the author's judgement, changed only by a person"


def _quotes_evidence(facet: Facet, quotes: Sequence[QuoteView]) -> str:
    misquoted = sum(1 for q in quotes for s in q.sources if s.as_read and s.as_read.misquoted)
    said = _quotes_said(facet, quotes)
    if not misquoted:
        return said
    sources = "1 source" if misquoted == 1 else f"{misquoted} sources"
    return f"{said}; misquoted at reading time on {sources}"


def _none_read(adopted: HistoryEntry | None, sources: Sequence[SourceCheck]) -> str:
    """No source of the quote was read at its last check: none checked yet, or none since
    its wording was adopted from the page (then it was read, in other words), or each
    checked and not read (a page down: no evidence either way)."""
    if adopted:
        return "not checked since adopted"
    return "none read yet" if _never_checked(sources) else "none read at the last check"


def _never_checked(sources: Sequence[SourceCheck]) -> bool:
    return all(s.status == "unchecked" for s in sources)


def _quotes_said(facet: Facet, quotes: Sequence[QuoteView]) -> str:
    if all(q.state == "unchecked" for q in quotes):
        adopted = any(q.adopted_on for q in quotes)
        return "adopted from the page, not checked since" if adopted else "not yet verified"
    if not all_verified(quotes):
        return unverified_evidence(quotes)
    fewest = min(q.carried_by for q in quotes)
    independent = min(q.independent for q in quotes)
    if independent >= 2:
        how = f"cross-checked on {independent} independent sources"
    elif fewest >= 2:
        how = f"cross-checked on {fewest} sources, {independent} independent"
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


def _standing_downgrades(claim: Claim) -> list[HistoryEntry]:
    return [e for facet in claim.grades if (e := _standing_downgrade(claim, facet)) is not None]


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


def _moment(moment: datetime) -> str:
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
