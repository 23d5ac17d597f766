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
from claimledger.ledger.model import Claim, Facet, Ledger, Source, SourceMove
from claimledger.ledger.vocabulary import Grade
from claimledger.records import FetchRecord
from claimledger.report.ci_formats import answer_said
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
from claimledger.report.tally import DISAGREEING, PARTLY_READ, counted
from claimledger.sites import other_publisher
from claimledger.urls import redact_urls, redacted, safe_url


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
        label=_source_words(status, fetch) + _read_elsewhere(source.url, status, fetch),
        moved_to=moved_to,
        cited_by=tuple(claims.values()),
        moves=tuple(
            f"moved on {move.date} from {safe_url(move.moved_from) or 'an address not shown'}"
            for move in source.history
        ),
    )


def _read_elsewhere(url: str, status: str | None, fetch: FetchRecord | None) -> str:
    """ ", read at URL, another publisher's site (NAME)" when the page read for a source
    is on another registrable domain than its address (a redirect, a move): the words
    carried there are that site's, which the reader should know before taking them for
    the source's."""
    if fetch is None or status not in ("ok", "moved"):
        return ""
    if status == "moved":  # its new address is shown beside it, as `refresh` says it
        moved = other_publisher(url, fetch.moved_to)
        return f", to another publisher's site ({moved})" if moved else ""
    elsewhere = other_publisher(url, fetch.final_url)
    if elsewhere is None:
        return ""
    return f", read at {safe_url(fetch.final_url)}, another publisher's site ({elsewhere})"


def http_said(fetch: FetchRecord | None) -> str:
    """How the page answered (`ci_formats.answer_said`), where it was fetched."""
    return "" if fetch is None else answer_said(fetch.source_status, fetch.http_status)


def _source_words(status: str | None, fetch: FetchRecord | None) -> str:
    if status is None:
        return "not yet fetched"
    when = f", fetched {day(fetch.fetched_at)}" if fetch is not None else ""
    http = http_said(fetch)
    words = {
        "ok": "read",
        "moved": "moved to a new address",
        "gone": f"gone{http}",
        "unreachable": "unreachable",
        "refused": f"refused{http}",
        "unreadable": "not readable",
    }
    said = words.get(status, status)
    if fetch is not None and status in ("unreachable", "unreadable", "refused") and fetch.error:
        said = "refused" if status == "refused" else said  # the reason names the answer
        return f"{said}: {redact_urls(fetch.error)}{when}"  # as `refresh` and `status` said it
    if fetch is not None and status == "unreadable" and fetch.content_type:
        return f"{said}: content type {fetch.content_type}{when}"
    return f"{said}{when}"


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
            statement_shown=claim.statement_shown,
        )
        for number, claim in enumerate(asked, start=1)
    )


def _why_open(claim: ClaimView) -> str:
    """Withdrawn (the page no longer says what was quoted) is not unknown (the public
    evidence cannot answer): the first is news about the vendor, the second about us."""
    if claim.refuted:
        return "refuted: its falsifier was met"
    if claim.review:
        return "in review: a wording adopted since the reading changed what its quote says"
    if any(s.meaning_changed for quote in claim.quotes for s in quote.sources):
        return "changed: the page now says something other than what was quoted"
    if any(quote.state == "missing" for quote in claim.quotes):
        return "withdrawn: the page no longer says what was quoted"
    if any(quote.state == "gone" for quote in claim.quotes):
        return "withdrawn: the page that said it is gone"
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
            near_miss=check.near_miss,
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


def _adopted_label(quote: QuoteView, in_review: bool) -> str:
    """How an adoption is told: a meaning change adopted is never a plain rewording, and
    needs review until its author revised or confirmed the claim."""
    adopted = f"the new wording adopted on {quote.adopted_on}"
    review = ": the claim needs review" if in_review else ""
    if quote.adopted_meaning == "changed":
        return f"reworded on the page so that its meaning changed; {adopted}{review}"
    if quote.adopted_meaning == "uncertain":
        return f"reworded on the page, its meaning may have changed; {adopted}{review}"
    return f"reworded on the page, its meaning kept; {adopted}"


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
        label=_adopted_label(quote, claim.review is not None),
        quoted=quote.as_read or "",
        current=quote.text,
        changes=quote.adopted_changes,
        checked_on=quote.adopted_on,
        change_kinds=quote.adopted_kinds,
    )


def legend(ledger: Ledger) -> tuple[GradeCount, ...]:
    counts = ledger.grade_counts()
    return tuple(GradeCount(str(grade), GRADE_MEANINGS[grade], counts[grade]) for grade in Grade)


def summary(
    claims: Sequence[ClaimView], sources: Sequence[SourceView], regrade: Regrade
) -> Summary:
    quotes = [quote for claim in claims for quote in claim.quotes]
    count = counted(quotes)
    return Summary(
        claims=len(claims),
        facets=sum(len(claim.facets) for claim in claims),
        quotes=len(quotes),
        sources=len(sources),
        verified_quotes=count["verified"],
        drifted_quotes=count["drifted"],
        missing_quotes=count["missing"] + count["gone"],
        sources_not_ok=sum(1 for s in sources if s.status not in ("ok", "unchecked")),
        proposals=len(regrade.proposals),
        stale=len({(notice.claim_id, notice.on) for notice in regrade.notices}),
        unchecked_quotes=count["unread"] + count["unchecked"],
        disagreeing_quotes=count[DISAGREEING],
        partly_read_quotes=count[PARTLY_READ],
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
    """What the evidence found since the reading, worst first: the lines a reader needs
    before any section. Each line is counted from the very list of what it names (a claim
    once per thing found), and says how many claims it names where that is not one a
    thing ("3 grades lowered on 2 claims"). A page whose move was adopted is said in the
    renders on or after the day of the move (`since`: the day of the last render)."""
    quotes = [(claim, quote) for claim in claims for quote in claim.quotes]
    by_id = {claim.id: claim for claim in claims}
    found = [
        _finding(
            [c for c in claims if c.review],
            "claim needs review: its evidence changed meaning since it was graded",
            "claims need review: their evidence changed meaning since they were graded",
        ),
        _finding(
            [c for c, q in quotes if any(s.as_read and s.as_read.misquoted for s in q.sources)],
            "quote{claims} misquoted at reading time "
            "(not so on the archived copy nearest that day)",
            "quotes{claims} misquoted at reading time "
            "(not so on the archived copies nearest that day)",
            how=" of",
        ),
        _finding(
            [c for c, q in quotes if any(_drifted(s) and s.meaning_changed for s in q.sources)],
            "quote{claims} reworded so that its meaning changed",
            "quotes{claims} reworded so that their meaning changed",
            how=" of",
        ),
        _finding(
            [c for c, q in quotes if q.state == "missing"],
            "quote{claims} no longer on its page",
            "quotes{claims} no longer on their pages",
            how=" of",
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
                for c in claims
                if c.artifact and c.artifact.last_run and not c.artifact.last_run.matched
            ],
            "artifact that no longer prints what is expected",
            "artifacts that no longer print what is expected",
        ),
        _finding(
            _lowered(ledger, claims), "grade lowered{claims}", "grades lowered{claims}", how=" on"
        ),
        _finding(
            [by_id[p.claim_id] for p in regrade.proposals if p.claim_id in by_id],
            "grade change proposed{claims}, not yet written",
            "grade changes proposed{claims}, not yet written",
            how=" on",
        ),
        _finding(
            [c for c, q in quotes if any(_drifted(s) and s.meaning_uncertain for s in q.sources)],
            "quote{claims} reworded so that its meaning may have changed (re-read it)",
            "quotes{claims} reworded so that their meaning may have changed (re-read them)",
            how=" of",
        ),
        _finding(
            [c for c, q in quotes if any(_harmless(s) for s in q.sources) and not _reverted(q)],
            "harmless rewording not yet adopted{claims}",
            "harmless rewordings not yet adopted{claims}",
            how=" on",
        ),
        _finding(
            [c for c, q in quotes if _reverted(q)],
            "adopted rewording{claims} the page took back: it reads as first quoted again",
            "adopted rewordings{claims} their pages took back: they read as first quoted again",
            how=" on",
        ),
        _finding(
            [c for c, q in quotes if q.as_read and q.adopted_meaning and not _reverted(q)],
            "rewording{claims} adopted although its meaning changed or may have",
            "rewordings{claims} adopted although their meaning changed or may have",
            how=" on",
        ),
        _finding(
            [c for c, q in quotes if q.as_read and not q.adopted_meaning and not _reverted(q)],
            "harmless rewording adopted{claims}",
            "harmless rewordings adopted{claims}",
            how=" on",
        ),
    ]
    return tuple(finding for finding in found if finding.count)


def _reverted(quote: QuoteView) -> bool:
    """An adopted rewording whose page went back to the wording as first read: the quote
    drifted from its adopted words to its first ones, which is neither a new rewording nor
    an adoption that still stands."""
    first = " ".join((quote.as_read or "").split())
    return bool(first) and any(
        _drifted(s) and " ".join((s.current or "").split()) == first for s in quote.sources
    )


def _drifted(check: SourceCheck) -> bool:
    return check.status == "drifted"


def _harmless(check: SourceCheck) -> bool:
    """A rewording on the page that keeps the quote's meaning, as far as the words tell."""
    return _drifted(check) and not check.meaning_changed and not check.meaning_uncertain


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
    """Each source whose latest adopted move is dated on or after `since`, the day of the
    last render of this output (before any, the day of the reading): a move is said by
    every render of its day and by the first render after it, whenever that is."""
    day = since or ledger.date_read.isoformat()
    return {
        source.id: move
        for source in ledger.sources.values()
        for move in source.history[-1:]
        if move.date >= day
    }


def _adopted_moves(ledger: Ledger, sources: Sequence[SourceView], since: str | None) -> FindingView:
    """The pages whose new address was adopted (`move`) since the last render (see
    `_moved_since`): what the ledger now cites is not what was read, and a reader should
    know."""
    moved = _moved_since(ledger, since)
    troubled = [view for view in sources if view.id in moved]
    one = "page moved, the move adopted"
    if len(troubled) == 1:
        move = moved[troubled[0].id]
        # braces percent-encoded, as RFC 3986 writes them: none can pass for `{claims}`
        old = redacted(move.moved_from).replace("{", "%7B").replace("}", "%7D")
        one = f"page moved on {move.date} from {old}, the move adopted"
    many = "pages moved, each move adopted"
    return _counted(len(troubled), _citing(troubled), one, many, ", quoted by")


def _lowered(ledger: Ledger, claims: Sequence[ClaimView]) -> list[ClaimView]:
    """Each facet whose grade now stands weaker than at the reading, as its claim (a claim
    once per such facet): a grade lowered and raised again since is not lowered."""
    since = ledger.date_read.isoformat()
    by_id = {claim.id: claim for claim in ledger.claims}
    return [
        view
        for view in claims
        if view.id in by_id
        for facet in by_id[view.id].grades
        if _stands_lower(by_id[view.id], facet, since)
    ]


def _stands_lower(claim: Claim, facet: Facet, since: str) -> bool:
    """Is the facet weaker now than the grade its first change since `since` took it from?
    (A facet whose first entry gives it a grade from none was added after the reading.)"""
    first = claim.grades[0].on
    for entry in claim.history:
        if entry.date < since or entry.to_grade is None or (entry.on or first) != facet.on:
            continue
        was = entry.from_grade
        return was is not None and facet.grade.strength < was.strength
    return False


def _finding(touched: Sequence[ClaimView], one: str, many: str, *, how: str = " on") -> FindingView:
    """`touched` holds a claim once per thing found (a quote, a grade): their count; the
    claims are named once each, in report order."""
    named = {claim.id: claim for claim in touched}
    return _counted(len(touched), tuple(cited_claim(c) for c in named.values()), one, many, how)


def _counted(
    things: int, claims: tuple[PremiseView, ...], one: str, many: str, how: str
) -> FindingView:
    """A finding of `things` naming `claims`: its text says how many claims it names where
    that is not one a thing, in place of `{claims}` (else at its end), so that every
    number on the line stands for what the line lists."""
    text = one if things == 1 else many
    if "{claims}" not in text:
        text += "{claims}"
    on = ""
    if things and len(claims) != things:
        on = f"{how} {len(claims)} claim{'s' if len(claims) != 1 else ''}"
    return FindingView(count=things, text=text.replace("{claims}", on), claims=claims)


def _pages(
    sources: Sequence[SourceView], statuses: tuple[str, ...], one: str, many: str
) -> FindingView:
    troubled = [source for source in sources if source.status in statuses]
    return _counted(len(troubled), _citing(troubled), one, many, ", quoted by")


def _citing(sources: Sequence[SourceView]) -> tuple[PremiseView, ...]:
    """The claims citing any of `sources`, each once, in report order of the sources."""
    return tuple({p.claim_id: p for s in sources for p in s.cited_by}.values())
