"""The teardown report: the ledger and its latest evidence as Markdown, HTML, JSON or ClaimReview.

Two steps. `build_report` works out everything a reader will see (grade lines,
flags, source fidelity, documentation churn, what changed since the last render)
into a frozen `Report`, so that templates only lay it out. `render` lays it out:
Jinja2 templates for Markdown and HTML, where a user's template directory wins over
the packaged one, and plain serialisation for JSON and schema.org ClaimReview.

Pure: no network, no clock (dates are parameters), no disk except the templates
Jinja's loader reads. The same inputs give byte-identical output: everything is laid
out in ledger order or sorted, never in the order a dict happened to fill.

Nothing from the ledger or a web page can become markup or a link (the escaping itself
lives in `claimledger.markup`; here it is wired into the templates):

* HTML templates autoescape; the author's markdown (intros, about) is rendered there
  through a tiny safe subset (paragraphs, lists, emphasis, code, http(s) links).
* In Markdown templates every `{{ … }}` is escaped for GitHub Markdown, unless it went
  through a filter that returns Markdown (`md`, `md_link`, `md_url`, `md_anchor`,
  `author_md`, `code_block`); our templates still name `md` on every piece of text,
  and a user template that forgets it stays safe (a printed value's outer spaces are
  trimmed, so write separators in the template text, not in `{{ "; " }}`).
* Only http(s) URLs become links, never with `user:pass@` and never with the value of
  a query parameter that looks like a secret.

A template that names something that does not exist, or does not parse, raises
`TemplateError` with the template's file and line.
"""

from __future__ import annotations

import dataclasses
import json
import re
import shlex
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from pathlib import Path
from types import TracebackType
from typing import Any, Literal, get_args

import jinja2
from jinja2.nodes import EvalContext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from claimledger.errors import InputError
from claimledger.evidence import CheckRecord, FetchRecord, WordChangeLike
from claimledger.grade import READ_STATUSES, Notice, Proposal, Regrade, Trace
from claimledger.ledger import Basis, Claim, Facet, Grade, HistoryEntry, Ledger, Quote, Source
from claimledger.markup import (
    MarkdownText,
    author_html,
    author_markdown,
    code_block,
    excerpt,
    md_anchor,
    md_escape,
    md_link,
    md_url,
    text_fragment_link,
)
from claimledger.urls import safe_url

Format = Literal["md", "html", "json", "claimreview"]
FORMATS: tuple[str, ...] = get_args(Format)
TEMPLATES: Mapping[str, str] = {"md": "report.md.j2", "html": "report.html.j2"}

REPORT_VERSION = 1
"""Version of the JSON report's shape; bumped only when a key changes meaning or goes."""

STATE_VERSION = 1
"""Version of `report_state`'s shape, which the next render reads back."""

GRADE_MEANINGS: Mapping[Grade, str] = {
    Grade.DEMONSTRATED: "the artifact itself was opened and read, or run",
    Grade.CLAIMED: "the subject asserts it; nothing beyond its word",
    Grade.SPECULATIVE: "the author's inference; never to be taken as fact",
    Grade.UNKNOWN: "the public evidence cannot settle it",
}

FLAG_ORDER = ("PROPOSED", "STALE", "DOWNGRADED")
CARRIED = frozenset({"verified", "ambiguous"})
"""Check statuses under which the page carries the quoted words."""


class TemplateError(InputError):
    """A report template is wrong: a name it uses does not exist, or it does not parse."""


# --------------------------------------------------------------------------- the view model


@dataclass(frozen=True)
class GradeCount:
    """One line of the grade legend."""

    grade: str
    meaning: str
    count: int


@dataclass(frozen=True)
class WordChangeView:
    """One word-level difference between the quote and the page, in words a reader reads."""

    op: str
    was: str
    now: str
    meaningful: bool
    label: str


@dataclass(frozen=True)
class SourceCheck:
    """What the latest check says of one quote on one of its sources.

    `status` is one of verified, ambiguous, drifted, missing, gone, unread (the page could
    not be read: no evidence either way) or unchecked (no check yet). `link` goes to the
    sentence itself (a text-fragment link); `current` is the page's own wording when the
    quote drifted.
    """

    source_id: str
    title: str
    url: str | None
    link: str | None
    archived: str | None
    status: str
    source_status: str | None
    label: str
    checked_on: str | None
    current: str | None
    meaning_changed: bool
    changes: tuple[WordChangeView, ...]
    moved_to: str | None
    change_kinds: tuple[str, ...] = ()
    closest: str | None = None
    closest_kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class QuoteView:
    """A quote with its sources, how well it is cross-checked, and when it was last verified."""

    index: int
    text: str
    note: str | None
    sources: tuple[SourceCheck, ...]
    state: str
    last_verified: str | None
    verified_label: str
    cross_check: str
    agreeing: str
    carried_by: int
    independent: int


@dataclass(frozen=True)
class Flag:
    """Something a reader must not miss about a facet: PROPOSED, STALE or DOWNGRADED."""

    kind: str
    text: str


@dataclass(frozen=True)
class FacetView:
    """One graded facet and its grade line ("Grade on …: GRADE — evidence")."""

    on: str
    grade: str
    basis: str
    why: str
    evidence: str
    line: str
    trace: str
    flags: tuple[Flag, ...]


@dataclass(frozen=True)
class PremiseView:
    """A claim this one rests on, linked, with its weakest grade."""

    claim_id: str
    anchor: str
    title: str
    grade: str


@dataclass(frozen=True)
class ArtifactView:
    """The program that demonstrates a claim, and the output it must print."""

    command: str
    expect: str


@dataclass(frozen=True)
class ClaimView:
    id: str
    anchor: str
    title: str
    kind: str
    statement: str
    quotes: tuple[QuoteView, ...]
    facets: tuple[FacetView, ...]
    premises: tuple[PremiseView, ...]
    falsifier: str | None
    artifact: ArtifactView | None
    history: tuple[str, ...]
    flags: tuple[str, ...]


@dataclass(frozen=True)
class SectionView:
    id: str
    anchor: str
    title: str
    intro: str
    claims: tuple[ClaimView, ...]


@dataclass(frozen=True)
class QuestionView:
    """An open question: a claim of kind question, or one with facets graded UNKNOWN."""

    number: int
    claim_id: str
    anchor: str
    title: str
    statement: str
    unknown: tuple[str, ...]


@dataclass(frozen=True)
class FidelityRow:
    """Source fidelity of one quote: how it is cited, how many sources agree, when verified."""

    claim_id: str
    anchor: str
    claim_title: str
    quote: str
    excerpt: str
    cross_check: str
    agreeing: str
    last_verified: str


@dataclass(frozen=True)
class SourceView:
    """A source of the ledger with the status of its latest fetch."""

    id: str
    title: str
    url: str | None
    archived: str | None
    kind: str
    publisher: str
    status: str
    label: str
    moved_to: str | None
    cited_by: tuple[PremiseView, ...]
    moves: tuple[str, ...] = ()


@dataclass(frozen=True)
class DriftView:
    """A quote the page no longer carries as quoted: reworded (drifted) or not found."""

    claim_id: str
    anchor: str
    claim_title: str
    source_id: str
    source_title: str
    source_url: str | None
    status: str
    meaning_changed: bool
    label: str
    quoted: str
    current: str | None
    changes: tuple[WordChangeView, ...]
    checked_on: str | None
    change_kinds: tuple[str, ...] = ()
    closest: str | None = None
    closest_kinds: tuple[str, ...] = ()


@dataclass(frozen=True)
class ChangeView:
    """One difference from the last render: a grade, a quote or a source."""

    area: str
    subject: str
    anchor: str | None
    text: str


@dataclass(frozen=True)
class ChangesView:
    first_render: bool
    since: str | None
    note: str
    items: tuple[ChangeView, ...]


@dataclass(frozen=True)
class Summary:
    claims: int
    facets: int
    quotes: int
    sources: int
    verified_quotes: int
    drifted_quotes: int
    missing_quotes: int
    sources_not_ok: int
    proposals: int
    stale: int


@dataclass(frozen=True)
class Report:
    """Everything the report shows, already worked out; templates only lay it out."""

    title: str
    subject: str
    author: str
    about: str
    date_read: str
    last_refresh: str | None
    generated_on: str
    has_evidence: bool
    legend: tuple[GradeCount, ...]
    summary: Summary
    sections: tuple[SectionView, ...]
    questions: tuple[QuestionView, ...]
    fidelity: tuple[FidelityRow, ...]
    churn_sources: tuple[SourceView, ...]
    drifts: tuple[DriftView, ...]
    changes: ChangesView
    did_not: tuple[str, ...]
    could_not_see: tuple[str, ...]
    sources: tuple[SourceView, ...]

    @property
    def claims(self) -> tuple[ClaimView, ...]:
        """Every claim in report order."""
        return tuple(claim for section in self.sections for claim in section.claims)


# --------------------------------------------------------------------------- building


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
            anchor=_anchor("section", section.id),
            title=section.title,
            intro=section.intro,
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
    state = _state(in_order, sources, generated_on.isoformat())
    return Report(
        title=ledger.title,
        subject=ledger.subject,
        author=ledger.author,
        about=ledger.about,
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
        changes=_changes(state, previous),
        did_not=ledger.scope.did_not,
        could_not_see=ledger.scope.could_not_see,
        sources=sources,
    )


@dataclass(frozen=True)
class _Evidence:
    """The inputs, indexed for lookup by the builders."""

    ledger: Ledger
    claims: Mapping[str, Claim]
    checks: Mapping[tuple[str, str, str], CheckRecord]
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
        latest: dict[tuple[str, str, str], CheckRecord] = {}
        for check in checks:
            key = (check.claim_id, check.quote_text, check.source_id)
            held = latest.get(key)
            if held is None or check.checked_at >= held.checked_at:
                latest[key] = check
        notices: dict[tuple[str, str], tuple[Notice, ...]] = {}
        for notice in regrade.notices:
            key2 = (notice.claim_id, notice.on)
            notices[key2] = (*notices.get(key2, ()), notice)
        return cls(
            ledger=ledger,
            claims={claim.id: claim for claim in ledger.claims},
            checks=latest,
            fetches=fetches,
            proposals={(p.claim_id, p.on): p for p in regrade.proposals},
            notices=notices,
            traces={(t.claim_id, t.on): t for t in regrade.traces},
        )

    def check(self, claim: Claim, quote: Quote, source_id: str) -> CheckRecord | None:
        return self.checks.get((claim.id, quote.text, source_id))

    def fetch(self, *urls: str | None) -> FetchRecord | None:
        for url in urls:
            if url is not None and url in self.fetches:
                return self.fetches[url]
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
        anchor=_anchor("claim", claim.id),
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
        history=tuple(_history_line(entry) for entry in claim.history),
        flags=tuple(kind for kind in FLAG_ORDER if kind in kinds),
    )


def _premise(claim: Claim) -> PremiseView:
    weakest = _weakest(str(facet.grade) for facet in claim.grades)
    return PremiseView(claim.id, _anchor("claim", claim.id), claim.title, weakest)


def _weakest(grades: Iterable[str]) -> str:
    return str(min((Grade(grade) for grade in grades), key=lambda grade: grade.strength))


def _command(run: tuple[str, ...] | str) -> str:
    return run if isinstance(run, str) else shlex.join(run)


def _history_line(entry: HistoryEntry) -> str:
    parts = [entry.date]
    if entry.on:
        parts.append(f"on {entry.on}")
    if entry.from_grade is not None or entry.to_grade is not None:
        parts.append(f"{entry.from_grade or '?'} → {entry.to_grade or '?'}")
    if entry.quote_was is not None or entry.quote_now is not None:
        parts.append(f"wording was “{entry.quote_was or ''}”, now “{entry.quote_now or ''}”")
    parts.append(f"by {entry.by}")
    line = ", ".join(parts)
    return f"{line}: {entry.why}" if entry.why else line


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
    """The status of one check and how the report says it."""
    http = f" (HTTP {fetch.http_status})" if fetch and fetch.http_status else ""
    if check.source_status == "gone":
        return "gone", f"page gone{http}, checked {day}"
    if check.source_status not in READ_STATUSES or check.status is None:
        return "unread", (
            f"could not be read, {check.source_status}{http}, checked {day}: no evidence either way"
        )
    moved = " at its new address" if check.source_status == "moved" else ""
    if check.status == "verified":
        return "verified", f"verified {day}{moved}"
    if check.status == "ambiguous":
        return "ambiguous", f"found in {check.occurrences} places{moved}, checked {day}"
    if check.status == "drifted" and check.meaning_changed:
        return "drifted", f"reworded with a change of meaning{moved}, checked {day}"
    if check.status == "drifted":
        return "drifted", f"reworded on the page{moved}, checked {day}"
    return "missing", f"not found on the page{moved}, checked {day}"


def _word_change(change: WordChangeLike) -> WordChangeView:
    """A recorded word change (match.WordChange or its stored form), for reading."""
    op, was, now, meaningful = (
        str(change.op),
        str(change.quote),
        str(change.page),
        bool(change.meaningful),
    )
    kind = getattr(change, "kind", None)
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
        weakest = _weakest(p.grade for p in premises)
        count = "one premise" if len(premises) == 1 else f"{len(premises)} premises"
        return f"rests on {count}, the weakest graded {weakest}"
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
            PremiseView(c.id, c.anchor, c.title, _weakest(f.grade for f in c.facets))
            for c in claims
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


# --------------------------------------------------------------------------- what changed


def report_state(report: Report) -> dict[str, Any]:
    """What the next render compares against: grades, quote statuses and sources, as JSON data.

    Shape (version 1)::

        {"claimledger_render_state": 1, "generated_on": "YYYY-MM-DD",
         "titles":  {claim_id: title},
         "grades":  {claim_id: {facet_on: GRADE}},
         "quotes":  {claim_id: {quote_text: {source_id: status}}},
         "sources": {source_id: {"url": url, "status": status}}}
    """
    return _state(report.claims, report.sources, report.generated_on)


def _state(
    claims: Sequence[ClaimView], sources: Sequence[SourceView], generated_on: str
) -> dict[str, Any]:
    return {
        "claimledger_render_state": STATE_VERSION,
        "generated_on": generated_on,
        "titles": {claim.id: claim.title for claim in claims},
        "grades": {claim.id: {f.on: f.grade for f in claim.facets} for claim in claims},
        "quotes": {
            claim.id: {q.text: {s.source_id: s.status for s in q.sources} for q in claim.quotes}
            for claim in claims
        },
        "sources": {s.id: {"url": s.url or "", "status": s.status} for s in sources},
    }


def _changes(state: Mapping[str, Any], previous: Mapping[str, Any] | None) -> ChangesView:
    if previous is None:
        return ChangesView(True, None, "First render: there is nothing to compare with", ())
    if previous.get("claimledger_render_state") != STATE_VERSION:
        return ChangesView(
            False,
            None,
            "The last render's state is not one this version reads; nothing compared",
            (),
        )
    since = _text(previous.get("generated_on")) or None
    items = [
        *_grade_changes(state, previous),
        *_quote_changes(state, previous),
        *_first_checks(state, previous),
        *_source_changes(state, previous),
    ]
    when = f"the render of {since}" if since else "the last render"
    count = "One change" if len(items) == 1 else f"{len(items)} changes"
    note = f"{count} since {when}" if items else f"Nothing changed since {when}"
    return ChangesView(False, since, note, tuple(items))


def _grade_changes(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    titles: Mapping[str, Any] = state["titles"]
    old_titles = _mapping(previous.get("titles"))
    old_grades = _mapping(previous.get("grades"))
    items: list[ChangeView] = []
    for claim_id, facets in state["grades"].items():
        anchor, title = _anchor("claim", claim_id), titles[claim_id]
        if claim_id not in old_grades:
            items.append(ChangeView("claim", title, anchor, "new claim"))
            continue
        old = _mapping(old_grades[claim_id])
        for on, grade in facets.items():
            was = _text(old.get(on))
            if not was:
                items.append(ChangeView("grade", title, anchor, f"new facet “{on}”: {grade}"))
            elif was != grade:
                items.append(ChangeView("grade", title, anchor, f"{on}: {was} → {grade}"))
        for on in sorted(set(old) - set(facets)):
            items.append(ChangeView("grade", title, anchor, f"facet “{on}” removed"))
    for claim_id in sorted(set(old_grades) - set(state["grades"])):
        title = _text(old_titles.get(claim_id)) or claim_id
        items.append(ChangeView("claim", title, None, f"claim '{claim_id}' removed"))
    return items


def _quote_changes(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    old_quotes = _mapping(previous.get("quotes"))
    items: list[ChangeView] = []
    for claim_id, quotes in state["quotes"].items():
        if claim_id not in old_quotes:
            continue  # a new claim, said once under grades
        anchor, title = _anchor("claim", claim_id), state["titles"][claim_id]
        old = _mapping(old_quotes[claim_id])
        for text, statuses in quotes.items():
            if text not in old:
                items.append(ChangeView("quote", title, anchor, f"quote added: “{excerpt(text)}”"))
                continue
            was = _mapping(old[text])
            for source_id, status in statuses.items():
                before = _text(was.get(source_id))
                if before and before != status and not _first_good_check(before, status):
                    items.append(
                        ChangeView(
                            "quote",
                            title,
                            anchor,
                            f"“{excerpt(text)}” on {source_id}: {before} → {status}",
                        )
                    )
        for text in sorted(set(old) - set(quotes)):
            items.append(ChangeView("quote", title, anchor, f"quote removed: “{excerpt(text)}”"))
    return items


def _source_changes(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    old_sources = _mapping(previous.get("sources"))
    items: list[ChangeView] = []
    for source_id, now in state["sources"].items():
        if source_id not in old_sources:
            items.append(ChangeView("source", source_id, None, "new source"))
            continue
        was = _mapping(old_sources[source_id])
        if _text(was.get("url")) != now["url"]:
            items.append(ChangeView("source", source_id, None, "address changed in the ledger"))
        before = _text(was.get("status"))
        if before and before != now["status"] and not _first_good_check(before, now["status"]):
            items.append(ChangeView("source", source_id, None, f"{before} → {now['status']}"))
    for source_id in sorted(set(old_sources) - set(state["sources"])):
        items.append(ChangeView("source", source_id, None, "source removed"))
    return items


def _first_good_check(before: str, now: str) -> bool:
    """A first check that found all well: counted in one line, not listed one by one."""
    return before == "unchecked" and now in ("verified", "ambiguous", "ok")


def _first_checks(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    old_quotes = _mapping(previous.get("quotes"))
    count = 0
    for claim_id, quotes in state["quotes"].items():
        old = _mapping(old_quotes.get(claim_id))
        for text, statuses in quotes.items():
            was = _mapping(old.get(text))
            count += sum(
                1 for sid, now in statuses.items() if _first_good_check(_text(was.get(sid)), now)
            )
    if not count:
        return []
    checks = "one quote" if count == 1 else f"{count} quote checks"
    return [ChangeView("quote", "first checks", None, f"{checks} verified for the first time")]


def _mapping(value: Any) -> Mapping[str, Any]:
    """A mapping read back from a state file, or an empty one if it is not a mapping."""
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""


# --------------------------------------------------------------------------- small helpers


def _anchor(kind: str, ident: str) -> str:
    """An HTML id / URL fragment that needs no escaping anywhere."""
    return f"{kind}-{re.sub(r'[^a-z0-9._-]', '-', ident.lower())}"


def _day(moment: datetime) -> str:
    return (moment.astimezone(UTC) if moment.tzinfo else moment).date().isoformat()


def _moment(moment: datetime) -> str:
    if moment.tzinfo is None:
        return moment.strftime("%Y-%m-%d %H:%M")
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")


def sentence(text: Any) -> str:
    """`text` ending as a sentence does, without doubling the author's own full stop."""
    words = str(text).rstrip()
    return words if not words or words[-1] in ".!?…:;" else f"{words}."


def upper_first(text: Any) -> str:
    words = str(text)
    return words[:1].upper() + words[1:]


# --------------------------------------------------------------------------- Jinja


def make_environment(user_templates: Path | None) -> jinja2.Environment:
    """Templates from the user's directory first, then the packaged defaults.

    StrictUndefined, so a misspelt name is an error; HTML autoescaped; Markdown escaped
    by the `md` filter and, for anything printed without it, by `finalize`.
    """
    loaders: list[jinja2.BaseLoader] = []
    if user_templates is not None:
        loaders.append(jinja2.FileSystemLoader(str(user_templates)))
    loaders.append(jinja2.PackageLoader("claimledger", "data/templates"))
    env = ImmutableSandboxedEnvironment(  # a template from a checkout must not run code
        loader=jinja2.ChoiceLoader(loaders),
        undefined=jinja2.StrictUndefined,
        autoescape=jinja2.select_autoescape(
            enabled_extensions=("html.j2", "htm.j2", "xml.j2"),
            default_for_string=False,
            default=False,
        ),
        finalize=_finalize,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    filters: dict[str, Callable[..., Any]] = {
        "md": md_escape,
        "md_url": md_url,
        "md_link": md_link,
        "md_anchor": md_anchor,
        "code_block": code_block,
        "author_md": author_markdown,
        "author_html": author_html,
        "excerpt": excerpt,
        "sentence": sentence,
        "upper_first": upper_first,
    }
    env.filters.update(filters)
    return env


@jinja2.pass_eval_context
def _finalize(context: EvalContext, value: Any) -> Any:
    """Escape for Markdown whatever a Markdown template prints without a Markdown filter."""
    if value is None:
        return ""
    if context.autoescape or isinstance(value, MarkdownText):
        return value
    return md_escape(value)


def render(report: Report, fmt: Format, env: jinja2.Environment) -> str:
    """The report in one format, as text ending in a newline."""
    if fmt == "json":
        return _dump(report_data(report))
    if fmt == "claimreview":
        return _dump(claim_reviews(report))
    if fmt not in TEMPLATES:
        raise InputError(f"unknown report format {fmt!r}: use one of {', '.join(FORMATS)}")
    try:
        template = env.get_template(TEMPLATES[fmt])
        text = template.render(report=report)
    except jinja2.TemplateSyntaxError as error:
        where = f"{error.filename or error.name or TEMPLATES[fmt]}:{error.lineno}"
        raise TemplateError(f"{where}: {error.message} (fix the template)") from None
    except jinja2.TemplateNotFound as error:
        raise TemplateError(f"template {error.name!r} not found") from None
    except (
        jinja2.TemplateError,
        TypeError,
        ValueError,
        LookupError,
        AttributeError,
        ArithmeticError,
    ) as error:
        frame = _template_frame(error.__traceback__)
        if frame is None:
            raise
        raise TemplateError(f"{frame}: {error} (fix the template)") from None
    return text if text.endswith("\n") else text + "\n"


def _template_frame(trace: TracebackType | None) -> str | None:
    """file:line of the innermost template frame (Jinja rewrites tracebacks to show them)."""
    where = None
    while trace is not None:
        frame = trace.tb_frame
        if "__jinja_exception__" in frame.f_globals:
            where = f"{frame.f_code.co_filename}:{trace.tb_lineno}"
        trace = trace.tb_next
    return where


def _dump(data: Any) -> str:
    return json.dumps(data, indent=2, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- JSON


def report_data(report: Report) -> dict[str, Any]:
    """The report as data: what `--format json` prints.

    Shape (version 1; keys are stable, new keys may be added)::

        claimledger_report  1
        title, subject, author, about (markdown), date_read, generated_on  str
        last_refresh        "YYYY-MM-DD HH:MM UTC" | null
        has_evidence        bool
        legend              [{grade, meaning, count}]
        summary             {claims, facets, quotes, sources, verified_quotes,
                             drifted_quotes, missing_quotes, sources_not_ok,
                             proposals, stale}
        sections            [{id, anchor, title, intro, claims: [claim]}]
          claim             {id, anchor, title, kind, statement, falsifier,
                             artifact: {command, expect} | null, history: [str],
                             flags: [PROPOSED|STALE|DOWNGRADED],
                             premises: [{claim_id, anchor, title, grade}],
                             facets: [{on, grade, basis, why, evidence, line, trace,
                                       flags: [{kind, text}]}],
                             quotes: [quote]}
          quote             {index, text, note, state, last_verified, verified_label,
                             cross_check, agreeing, carried_by, independent,
                             sources: [{source_id, title, url, link, archived, status,
                                        source_status, label, checked_on, current,
                                        meaning_changed, moved_to,
                                        changes: [{op, was, now, meaningful, label}]}]}
        questions           [{number, claim_id, anchor, title, statement, unknown: [on]}]
        fidelity            [{claim_id, anchor, claim_title, quote, excerpt, cross_check,
                              agreeing, last_verified}]
        churn_sources, sources
                            [{id, title, url, archived, kind, publisher, status, label,
                              moved_to, cited_by: [{claim_id, anchor, title, grade}]}]
        drifts              [{claim_id, anchor, claim_title, source_id, source_title,
                              source_url, status, meaning_changed, label, quoted, current,
                              changes, checked_on}]
        changes             {first_render, since, note, items: [{area, subject, anchor, text}]}
        did_not, could_not_see  [str]

    Statuses of a quote on a source: verified, ambiguous, drifted, missing, gone,
    unread (the page could not be read), unchecked.
    """
    return {"claimledger_report": REPORT_VERSION, **dataclasses.asdict(report)}


# --------------------------------------------------------------------------- ClaimReview

_RATING = {Grade.DEMONSTRATED: 4, Grade.CLAIMED: 3, Grade.SPECULATIVE: 2, Grade.UNKNOWN: 1}


def claim_reviews(report: Report) -> list[dict[str, Any]]:
    """One schema.org ClaimReview per claim, as JSON-LD.

    The rating is the claim's weakest facet (a reader of one number must not take the
    claim as stronger than any of its facets): alternateName is the grade, ratingValue
    4 (DEMONSTRATED) to 1 (UNKNOWN). reviewBody holds every facet's grade line and why;
    the rating's explanation holds the rules' traces. The Claim's appearances are the
    cited sources.
    """
    return [_claim_review(report, claim) for claim in report.claims]


def _claim_review(report: Report, claim: ClaimView) -> dict[str, Any]:
    weakest = Grade(_weakest(f.grade for f in claim.facets))
    body = " ".join(
        sentence(facet.line) + (f" Why: {sentence(facet.why)}" if facet.why else "")
        for facet in claim.facets
    )
    traces = "; ".join(f"{facet.on}: {facet.trace}" for facet in claim.facets if facet.trace)
    review: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ClaimReview",
        "@id": f"#{claim.anchor}",
        "name": claim.title,
        "claimReviewed": claim.statement,
        "datePublished": report.generated_on,
        "reviewBody": body,
        "reviewRating": {
            "@type": "Rating",
            "ratingValue": _RATING[weakest],
            "bestRating": 4,
            "worstRating": 1,
            "alternateName": str(weakest),
            "ratingExplanation": traces or body,
        },
        "itemReviewed": _item_reviewed(report, claim),
    }
    if report.author:
        review["author"] = {"@type": "Person", "name": report.author}
    return review


def _item_reviewed(report: Report, claim: ClaimView) -> dict[str, Any]:
    by_id = {source.id: source for source in report.sources}
    cited = list(dict.fromkeys(s.source_id for quote in claim.quotes for s in quote.sources))
    appearances = [_appearance(by_id[source_id]) for source_id in cited]
    publishers = sorted({by_id[source_id].publisher for source_id in cited})
    item: dict[str, Any] = {"@type": "Claim", "name": claim.title}
    if appearances:
        item["appearance"] = appearances
    if publishers:
        item["author"] = [{"@type": "Organization", "name": name} for name in publishers]
    return item


def _appearance(source: SourceView) -> dict[str, Any]:
    work: dict[str, Any] = {
        "@type": "CreativeWork",
        "name": source.title,
        "publisher": {"@type": "Organization", "name": source.publisher},
    }
    if source.url:
        work["url"] = source.url
    if source.archived:
        work["archivedAt"] = source.archived
    return work


__all__ = [
    "FORMATS",
    "Format",
    "Report",
    "TemplateError",
    "build_report",
    "claim_reviews",
    "make_environment",
    "render",
    "report_data",
    "report_state",
]
