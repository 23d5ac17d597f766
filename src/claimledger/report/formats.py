"""The report's output formats behind one interface: a name, a file suffix, `render`.

Markdown and HTML are laid out by templates; JSON is the report's records as they are;
ClaimReview is schema.org JSON-LD, one review per claim. `format_for` picks a format by
name or by the suffix of the file it goes to.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol

from claimledger.errors import InputError
from claimledger.ledger import Grade
from claimledger.report.markup import json_for_html, sentence
from claimledger.report.model import ClaimView, Report, SourceView, weakest
from claimledger.report.templates import Templates

REPORT_VERSION = 1
"""Version of the JSON report's shape; bumped only when a key changes meaning or goes."""


class ReportFormat(Protocol):
    """One way to write the report."""

    @property
    def name(self) -> str:
        """How --format names it."""
        ...

    @property
    def suffix(self) -> str:
        """The suffix of its default file name."""
        ...

    def render(self, report: Report) -> str:
        """The whole report as text ending in a newline."""
        ...


@dataclass(frozen=True)
class TemplateFormat:
    """A format laid out by a Jinja2 template (Markdown, HTML)."""

    name: str
    suffix: str
    template: str
    templates: Templates

    def render(self, report: Report) -> str:
        return self.templates.render(self.template, report=report)


@dataclass(frozen=True)
class JsonFormat:
    """The report's records as JSON."""

    name: str = "json"
    suffix: str = ".json"

    def render(self, report: Report) -> str:
        return _dump(report_data(report))


@dataclass(frozen=True)
class ClaimReviewFormat:
    """schema.org ClaimReview, one per claim, as JSON-LD."""

    name: str = "claimreview"
    suffix: str = ".claimreview.json"

    def render(self, report: Report) -> str:
        return json_for_html(claim_reviews(report))  # made to be embedded in a page


FORMAT_NAMES = ("md", "html", "json", "claimreview")


def formats(templates: Templates) -> Mapping[str, ReportFormat]:
    """Every format by name, the template ones read through `templates`."""
    return {
        "md": TemplateFormat("md", ".md", "report.md.j2", templates),
        "html": TemplateFormat("html", ".html", "report.html.j2", templates),
        "json": JsonFormat(),
        "claimreview": ClaimReviewFormat(),
    }


def format_name_for(path: PurePath) -> str | None:
    """The format a file's name asks for (report.html: html), or None when it names none.

    The longest matching suffix wins, so report.claimreview.json is ClaimReview.
    """
    name = path.name.lower()
    by_suffix = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}
    if name.endswith(".claimreview.json"):
        return "claimreview"
    return next((fmt for suffix, fmt in by_suffix.items() if name.endswith(suffix)), None)


def format_for(name: str, templates: Templates) -> ReportFormat:
    """The format called `name`; an unknown name is the user's error."""
    known = formats(templates)
    if name not in known:
        raise InputError(f"unknown report format {name!r}: use one of {', '.join(known)}")
    return known[name]


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
                             refuted: "on DATE: why" | null,
                             artifact: {command, expect, last_run: {ran_on,
                                        exit_status, error, seconds, runner, matched,
                                        output, label} | null} | null,
                             history: [str],
                             flags: [REFUTED|PROPOSED|STALE|DOWNGRADED],
                             premises: [{claim_id, anchor, title, grade}],
                             facets: [{on, grade, basis, why, evidence, line, trace,
                                       flags: [{kind, text}],
                                       premises: [premise] (its own, when it names them)}],
                             quotes: [quote]}
          quote             {index, text, note, state, last_verified, verified_label,
                             cross_check, agreeing, carried_by, independent,
                             attribution: "X reports, citing Y" | null, under,
                             sources: [{source_id, title, url, link, archived, status,
                                        source_status, label, checked_on, current,
                                        meaning_changed, moved_to, moved_within,
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
    unread (the page could not be read), unchecked. An artifact's last run has an
    exit_status of null when it did not finish, and an error when it did not start,
    timed out or exited non-zero; output is what it printed (cut past 10,000 characters).
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
    lowest = Grade(weakest(f.grade for f in claim.facets))
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
            "ratingValue": _RATING[lowest],
            "bestRating": 4,
            "worstRating": 1,
            "alternateName": str(lowest),
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
