"""The report's views across claims: its sources, open questions, quote fidelity,
documentation churn, the grade legend and the counts, each built from the claim views.

Pure, like `claimledger.report.build`, which builds the claim views they read.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import replace
from datetime import UTC, datetime

from claimledger.grading.rules import Regrade
from claimledger.ledger.model import HistoryEntry, Ledger, Source, SourceMove
from claimledger.ledger.vocabulary import Grade
from claimledger.records import FetchRecord
from claimledger.report.markup import excerpt
from claimledger.report.model import (
    GRADE_MEANINGS,
    ClaimView,
    DriftView,
    FidelityRow,
    FindingView,
    GradeCount,
    PremiseView,
    QuestionView,
    QuoteView,
    SourceCheck,
    SourceView,
    Summary,
    weakest,
)
from claimledger.urls import redacted, safe_url


def citations(claims: Sequence[ClaimView]) -> dict[str, list[tuple[PremiseView, SourceCheck]]]:
    """Each source id with the claims citing it (as cited) and their checks there, in
    report order."""
    citing: dict[str, list[tuple[PremiseView, SourceCheck]]] = {}
    for claim in claims:
        cited_as = cited_claim(claim)
        for quote in claim.quotes:
            for check in quote.sources:
                citing.setdefault(check.source_id, []).append((cited_as, check))
    return citing


def cited_claim(claim: ClaimView) -> PremiseView:
    """A claim as a list of claims names it: linked, with its weakest grade."""
    return PremiseView(claim.id, claim.anchor, claim.title, weakest(f.grade for f in claim.facets))


def source_view(
    source: Source, citing: Sequence[tuple[PremiseView, SourceCheck]], fetch: FetchRecord | None
) -> SourceView:
    """A source as the report lists it: its state at the last fetch, who cites it, its moves."""
    checked = [check.source_status for _, check in citing if check.source_status is not None]
    status = fetch.source_status if fetch is not None else (checked[0] if checked else None)
    claims = {claim.claim_id: claim for claim, _ in citing}
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
        cited_by=tuple(claims.values()),
        moves=tuple(
            f"moved on {move.date} from {safe_url(move.moved_from) or 'an address not shown'}"
            for move in source.history
        ),
    )


def _source_words(status: str | None, fetch: FetchRecord | None) -> str:
    if status is None:
        return "not yet fetched"
    when = f", fetched {day(fetch.fetched_at)}" if fetch is not None else ""
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


def questions(claims: Sequence[ClaimView]) -> tuple[QuestionView, ...]:
    """Claims asked as questions and facets graded UNKNOWN, each with why it is open."""
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
            why=_why_open(claim),
        )
        for number, claim in enumerate(asked, start=1)
    )


def _why_open(claim: ClaimView) -> str:
    """Withdrawn (the page no longer says what was quoted) is not unknown (the public
    evidence cannot answer): the first is news about the vendor, the second about us."""
    if claim.refuted:
        return "refuted: its falsifier was met"
    if any(quote.state in ("missing", "gone") for quote in claim.quotes):
        return "withdrawn: the page no longer says what was quoted"
    if claim.kind == "question":
        return "asked of the vendor: the public evidence does not answer it"
    return "unknown: the public evidence cannot settle it"


def fidelity_row(claim: ClaimView, quote: QuoteView) -> FidelityRow:
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


def drifts(claims: Sequence[ClaimView]) -> tuple[DriftView, ...]:
    """Quotes a page no longer carries as quoted, and rewordings adopted since the reading:
    meaning changes first, then rewordings, then adoptions, then quotes not found; in
    ledger order within each."""
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
            meaning_uncertain=check.meaning_uncertain,
        )
        for claim in claims
        for quote in claim.quotes
        for check in quote.sources
        if check.status in ("drifted", "missing")
    ]
    found += [
        _adoption(claim, quote) for claim in claims for quote in claim.quotes if quote.as_read
    ]
    rank = {(True, "drifted"): 0, (False, "drifted"): 1, (False, "adopted"): 2}
    return tuple(sorted(found, key=lambda d: rank.get((d.meaning_changed, d.status), 3)))


def _adopted_label(quote: QuoteView) -> str:
    """How an adoption is told: a meaning change adopted is never a plain rewording."""
    adopted = f"the new wording adopted on {quote.adopted_on}"
    if quote.adopted_meaning == "changed":
        return f"reworded on the page so that its meaning changed; {adopted}: needs review"
    if quote.adopted_meaning == "uncertain":
        return f"reworded on the page, its meaning may have changed; {adopted}: needs review"
    return f"reworded on the page; {adopted}"


def _adoption(claim: ClaimView, quote: QuoteView) -> DriftView:
    """An adopted rewording, as churn: the wording as read, and the page's that replaced it."""
    source = quote.sources[0]
    return DriftView(
        claim_id=claim.id,
        anchor=claim.anchor,
        claim_title=claim.title,
        source_id=source.source_id,
        source_title=source.title,
        source_url=source.url,
        status="adopted",
        meaning_changed=quote.adopted_meaning == "changed",
        meaning_uncertain=quote.adopted_meaning == "uncertain",
        label=_adopted_label(quote),
        quoted=quote.as_read or "",
        current=quote.text,
        changes=(),
        checked_on=quote.adopted_on,
    )


def legend(ledger: Ledger) -> tuple[GradeCount, ...]:
    counts = ledger.grade_counts()
    return tuple(GradeCount(str(grade), GRADE_MEANINGS[grade], counts[grade]) for grade in Grade)


def summary(
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


@functools.lru_cache(maxsize=1024)
def day(moment: datetime) -> str:
    """The UTC day of a moment, as the report dates everything (remembered: one refresh
    dates thousands of checks with the same few moments)."""
    return (moment.astimezone(UTC) if moment.tzinfo else moment).date().isoformat()


def findings(
    ledger: Ledger,
    claims: Sequence[ClaimView],
    sources: Sequence[SourceView],
    regrade: Regrade,
    *,
    since: str | None = None,
) -> tuple[FindingView, ...]:
    """What the evidence found since the reading, worst first, each counted and naming the
    claims it touches: the lines a reader needs before any section. A page whose move was
    adopted is said in the first render after the move (`since`: the last render's day)."""
    checks = [(c, check) for c in claims for q in c.quotes for check in q.sources]
    quotes = [(c, q) for c in claims for q in c.quotes]
    by_id = {claim.id: claim for claim in claims}
    lowered = [
        by_id[c.id]
        for c in ledger.claims
        for entry in c.history
        if _lowers(entry) and entry.date >= ledger.date_read.isoformat()
    ]
    proposed = [by_id[p.claim_id] for p in regrade.proposals]
    runs = [c for c in claims if c.artifact and c.artifact.last_run]
    found = [
        _finding(
            [c for c in claims if c.review],
            "claim needs review: its evidence changed meaning since it was graded",
            "claims need review: their evidence changed meaning since they were graded",
        ),
        _finding(
            [c for c, check in checks if check.as_read and check.as_read.misquoted],
            "quote misquoted at reading time (not so on the archived copy of that day)",
            "quotes misquoted at reading time (not so on the archived copies of that day)",
        ),
        _finding(
            [c for c, check in checks if check.status == "drifted" and check.meaning_changed],
            "quote reworded so that its meaning changed",
            "quotes reworded so that their meaning changed",
        ),
        _finding(
            [c for c, q in quotes if q.state == "missing"],
            "quote no longer on its page",
            "quotes no longer on their pages",
        ),
        _finding([c for c in claims if c.refuted], "claim refuted", "claims refuted"),
        _pages(sources, ("gone",), "page gone", "pages gone"),
        _pages(sources, ("moved",), "page moved to a new address", "pages moved to new addresses"),
        _adopted_moves(ledger, sources, since),
        _pages(
            sources,
            ("unreachable", "refused", "unreadable"),
            "page that could not be read",
            "pages that could not be read",
        ),
        _finding(
            [
                c
                for c in runs
                if c.artifact and c.artifact.last_run and not c.artifact.last_run.matched
            ],
            "artifact that no longer prints what is expected",
            "artifacts that no longer print what is expected",
        ),
        _finding(lowered, "grade lowered", "grades lowered"),
        _finding(
            proposed,
            "grade change proposed, not yet written",
            "grade changes proposed, not yet written",
        ),
        _finding(
            [c for c, check in checks if check.status == "drifted" and check.meaning_uncertain],
            "quote reworded so that its meaning may have changed (re-read it)",
            "quotes reworded so that their meaning may have changed (re-read them)",
        ),
        _finding(
            [
                c
                for c, check in checks
                if check.status == "drifted"
                and not check.meaning_changed
                and not check.meaning_uncertain
            ],
            "harmless rewording not yet adopted",
            "harmless rewordings not yet adopted",
        ),
        _finding(
            [c for c, q in quotes if q.as_read and q.adopted_meaning],
            "rewording adopted although its meaning changed or may have",
            "rewordings adopted although their meaning changed or may have",
        ),
        _finding(
            [c for c, q in quotes if q.as_read and not q.adopted_meaning],
            "harmless rewording adopted",
            "harmless rewordings adopted",
        ),
    ]
    return tuple(finding for finding in found if finding.count)


def churn_sources(
    ledger: Ledger, sources: Sequence[SourceView], since: str | None
) -> tuple[SourceView, ...]:
    """The sources in trouble, and those whose move was adopted since the last render (read
    at the new address now, with the day and the old address said)."""
    moved = _moved_since(ledger, since)
    return tuple(
        replace(s, label=f"{s.label}; {s.moves[-1]}") if s.id in moved and s.moves else s
        for s in sources
        if s.status not in ("ok", "unchecked") or s.id in moved
    )


def _moved_since(ledger: Ledger, since: str | None) -> dict[str, SourceMove]:
    day = since or ledger.date_read.isoformat()
    return {
        source.id: move
        for source in ledger.sources.values()
        for move in source.history[-1:]
        if move.date >= day
    }


def _adopted_moves(ledger: Ledger, sources: Sequence[SourceView], since: str | None) -> FindingView:
    """The pages whose new address was adopted (`move`) since the last render (or the
    reading): what the ledger now cites is not what was read, and a reader should know."""
    moved = _moved_since(ledger, since)
    troubled = [view for view in sources if view.id in moved]
    claims = tuple({p.claim_id: p for s in troubled for p in s.cited_by}.values())
    if len(troubled) == 1:
        move = moved[troubled[0].id]
        text = f"page moved on {move.date} from {redacted(move.moved_from)}, the move adopted"
    else:
        text = "pages moved, each move adopted"
    return FindingView(
        count=len(troubled),
        text=_counted_on(text, len(troubled), len(claims), "quoted by "),
        claims=claims,
    )


def _lowers(entry: HistoryEntry) -> bool:
    was, now = entry.from_grade, entry.to_grade
    return was is not None and now is not None and now.strength < was.strength


def _finding(touched: Sequence[ClaimView], one: str, many: str) -> FindingView:
    """`touched` holds a claim once per thing found (a quote, a grade): the count; the
    claims are named once each, in report order, and counted too where they are fewer
    than the things found, so every number stands for what the line lists."""
    named = {claim.id: claim for claim in touched}
    return FindingView(
        count=len(touched),
        text=_counted_on(one if len(touched) == 1 else many, len(touched), len(named), ""),
        claims=tuple(cited_claim(claim) for claim in named.values()),
    )


def _counted_on(text: str, things: int, claims: int, how: str) -> str:
    """`text`, and how many claims the line names when that is not one a thing."""
    if claims == things or not things:
        return text
    return f"{text} ({how}{claims} claim{'s' if claims != 1 else ''})"


def _pages(
    sources: Sequence[SourceView], statuses: tuple[str, ...], one: str, many: str
) -> FindingView:
    troubled = [source for source in sources if source.status in statuses]
    claims = tuple({p.claim_id: p for s in troubled for p in s.cited_by}.values())
    text = one if len(troubled) == 1 else many
    return FindingView(
        count=len(troubled),
        text=_counted_on(text, len(troubled), len(claims), "quoted by "),
        claims=claims,
    )
