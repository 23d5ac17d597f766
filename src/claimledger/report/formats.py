"""The report's output formats behind one interface: a name, a file suffix, `render`.

Markdown and HTML are laid out by templates; JSON is the report's records as they are;
ClaimReview is schema.org JSON-LD, one review per claim, which the HTML page embeds too.
`format_for` picks a format by name, `format_name_for` by the suffix of the file it goes
to. The address the report is published at (`base_url`) makes the reviews' ids absolute.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import re
import sys
import urllib.parse
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any, Protocol

from claimledger.errors import InputError
from claimledger.ledger.vocabulary import Grade
from claimledger.report.bidi import BIDI_CLASS
from claimledger.report.jsontext import indented_json, without_terminal_controls
from claimledger.report.markup import excerpt, json_for_html, sentence
from claimledger.report.model import ClaimView, FacetView, Report, SourceView, weakest
from claimledger.report.sandbox import next_batch
from claimledger.report.templates import Templates
from claimledger.urls import has_secrets

REPORT_VERSION = 2
"""Version of the JSON report's shape; bumped only when a key changes meaning or goes
(2: a quote's `index` counts from 1, as the command line numbers quotes).
It is the report's `schema_version`, the key every JSON output of claimledger opens with
(claimledger/data/schemas/report.schema.json is the shape), and its `claimledger_report`,
the key that has always said what the document is."""


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

    def chunks(self, report: Report) -> Iterator[str]:
        """The report in pieces as it is made, for a file written as it comes."""
        ...


@dataclass(frozen=True)
class TemplateFormat:
    """A format laid out by a Jinja2 template (Markdown, HTML). The template sees `report`
    and `claimreview`, the ClaimReview JSON-LD as data, for a page to embed."""

    name: str
    suffix: str
    template: str
    templates: Templates
    base_url: str | None = None

    def render(self, report: Report) -> str:
        return "".join(self.chunks(report))

    def chunks(self, report: Report) -> Iterator[str]:
        return self.templates.chunks(
            self.template, report=report, claimreview=self._reviews(report)
        )

    def _reviews(self, report: Report) -> Iterable[dict[str, Any]]:
        """The ClaimReview as the template reads it: none for a template that does not ask
        for it (the Markdown one); for ours, each review made as it is written; for a
        user's, a list to read as it likes."""
        if not self.templates.reads(self.template, "claimreview"):
            return []
        if self.templates.is_ours(self.template):
            return each_claim_review(report, self.base_url)
        return claim_reviews(report, self.base_url)


@dataclass(frozen=True)
class JsonFormat:
    """The report's records as JSON."""

    name: str = "json"
    suffix: str = ".json"

    def render(self, report: Report) -> str:
        return _dump(report_data(report))

    def chunks(self, report: Report) -> Iterator[str]:
        """`render`'s text, made a claim at a time (see `report_json_pieces`)."""
        pieces = report_json_pieces(report)
        while batch := next_batch(pieces, sys.maxsize, PIECE):
            yield without_terminal_controls("".join(batch))
        yield "\n"


@dataclass(frozen=True)
class ClaimReviewFormat:
    """schema.org ClaimReview, one per claim, as JSON-LD."""

    name: str = "claimreview"
    suffix: str = ".claimreview.json"
    base_url: str | None = None

    def render(self, report: Report) -> str:
        return json_for_html(claim_reviews(report, self.base_url))  # made to be embedded

    def chunks(self, report: Report) -> Iterator[str]:
        yield self.render(report)


FORMAT_NAMES = ("md", "html", "json", "claimreview")

WITH_CLAIMREVIEW = frozenset({"html", "claimreview"})
"""The formats that carry the ClaimReview, whose reviews want the page's address."""


def formats(templates: Templates, base_url: str | None = None) -> Mapping[str, ReportFormat]:
    """Every format by name, the template ones read through `templates`; `base_url` is
    where the report will be published (None: not known, so no review gets a `url`)."""
    return {
        "md": TemplateFormat("md", ".md", "report.md.j2", templates, base_url),
        "html": TemplateFormat("html", ".html", "report.html.j2", templates, base_url),
        "json": JsonFormat(),
        "claimreview": ClaimReviewFormat(base_url=base_url),
    }


def format_name_for(path: PurePath) -> str | None:
    """The format a file's name asks for (report.html: html), or None when it names none.

    The longest matching suffix wins, so report.claimreview.json is ClaimReview.
    """
    name = path.name.lower()
    if name.endswith(".claimreview.json"):
        return "claimreview"
    return next((fmt for suffix, fmt in _SUFFIXES.items() if name.endswith(suffix)), None)


_SUFFIXES = {".md": "md", ".markdown": "md", ".html": "html", ".htm": "html", ".json": "json"}
SUFFIXES = (*_SUFFIXES, ".claimreview.json")
"""The file name endings `format_name_for` knows."""


STDOUT = "-"
"""The output `-o -` names: the report on standard output."""


def format_named_by(output: str | None) -> str:
    """The format an output's name asks for: md for stdout or the default file; a name
    that names no format is an error rather than Markdown in a file called report.txt."""
    if output is None or output == STDOUT:
        return "md"
    name = format_name_for(PurePath(output))
    if name is None:
        raise InputError(
            f"--output {output}: its name does not say which format to write: end it in "
            f"{', '.join(SUFFIXES)}, or name one with --format ({', '.join(FORMAT_NAMES)})"
        )
    return name


def format_for(name: str, templates: Templates, base_url: str | None = None) -> ReportFormat:
    """The format called `name`; an unknown name is the user's error."""
    known = formats(templates, base_url)
    if name not in known:
        raise InputError(f"unknown report format {name!r}: use one of {', '.join(known)}")
    return known[name]


_NOT_IN_IRI = re.compile(rf'[#\s<>"{{}}|\\^`\x00-\x1f\x7f-\x9f{BIDI_CLASS}]')
"""What an absolute address may not hold here: a fragment (each review adds its own), or
what an IRI cannot carry unescaped (RFC 3987 refuses a control, and a bidirectional one
that draws the address backwards)."""


def published_at(url: str) -> str:
    """`url` checked as the address a report will be published at: an absolute http(s)
    address with no `#fragment` (each review adds its own) and nothing secret in it."""
    try:
        parts = urllib.parse.urlsplit(url)
        host = parts.hostname
        _ = parts.port  # 99999 or `:x` raises only when asked for
    except ValueError:  # a malformed [IPv6] host or port
        host = None
    if host is None or parts.scheme not in ("http", "https") or _NOT_IN_IRI.search(url):
        raise InputError(
            f"--base-url {url!r}: give the absolute http(s) address the report will be "
            "published at, with no #fragment and no spaces (e.g. https://example.org/t.html)"
        )
    if parts.username is not None or has_secrets(url):
        raise InputError(
            "--base-url: the address a report is published at holds no password or token"
        )
    return url


def _dump(data: Any) -> str:
    """JSON as written, with DEL and the C1 controls escaped (the same value) for a
    terminal that `-o -` may print it to."""
    return without_terminal_controls(indented_json(data)) + "\n"


# --------------------------------------------------------------------------- JSON


def report_data(report: Report) -> dict[str, Any]:
    """The report as data: what `--format json` prints.

    Shape (version 2; keys are stable, new keys may be added)::

        schema_version      2
        claimledger_report  2
        title, subject, author, about (markdown), date_read, generated_on  str
        last_refresh        "YYYY-MM-DD HH:MM UTC" | null
        last_refresh_finished  bool | null (false: cut short; the pages it did not reach
                             show their earlier checks)
        has_evidence        bool (a quote checked, or an artifact run to its end)
        quotes_checked      bool (a quote checked on its page: the quote sentences' flag)
        legend              [{grade, meaning, count}]
        summary             {claims, facets, quotes, sources, verified_quotes,
                             drifted_quotes, missing_quotes, unchecked_quotes,
                             disagreeing_quotes (verified on one page read, changed
                             or gone on another), partly_read_quotes (verified on
                             one page read, not read or never checked on another),
                             sources_not_ok, proposals, stale (facets with a notice)}
        sections            [{id, anchor, title, intro, after (markdown), claims: [claim]}]
          claim             {id, anchor, title, kind, statement, statement_shown (the
                             statement where it says more than the title, else ""),
                             falsifier,
                             refuted: "on DATE: why" | null, body (markdown),
                             artifact: {command, expect, language, code, last_run: {ran_on,
                                        exit_status, error, seconds, runner, matched,
                                        output, label} | null} | null,
                             history: [str],
                             flags: [REFUTED|PROPOSED|STALE|DOWNGRADED],
                             premises: [{claim_id, anchor, title, grade}],
                             facets: [{on, grade, basis, why, evidence, line, trace,
                                       flags: [{kind, text}],
                                       premises: [premise] (its own, when it names them),
                                       graded_on: "YYYY-MM-DD"}],
                             quotes: [quote]}
          quote             {index (from 1), text, note, state, last_verified, verified_label,
                             cross_check, agreeing, carried_by, independent,
                             attribution: "X reports, citing Y" | null, under,
                             adopted_on, as_read (the wording as read, when adopted),
                             adopted_meaning, adopted_kinds, adopted_changes,
                             sources: [{source_id, title, url, link, archived, status,
                                        source_status, label, checked_on, current,
                                        meaning_changed, meaning_uncertain, moved_to,
                                        moved_within, changed_in, changed_in_link,
                                        changes: [{op, was, now, meaningful, label}]}]}
        questions           [{number, claim_id, anchor, title, statement,
                              statement_shown, unknown: [on], why}]
        fidelity            [{claim_id, anchor, claim_title, quote, excerpt, cross_check,
                              agreeing, last_verified}]
        churn_sources, sources
                            [{id, title, url, archived, kind, publisher, status, label,
                              moved_to, cited_by: [{claim_id, anchor, title, grade}]}]
        drifts              [{claim_id, anchor, claim_title, source_id, source_title,
                              source_url, status, meaning_changed, meaning_uncertain,
                              label, quoted, current,
                              changes, checked_on}]
        changes             {first_render, since, note, items: [{area, subject, anchor, text}]}
        did_not, could_not_see  [str]
        closing             [{anchor, title, body (markdown)}]
        findings            [{count, text, claims: [{claim_id, anchor, title, grade}]}]
        anchors             {findings, grades, contents, open_questions, source_fidelity,
                             documentation_churn, what_changed, scope, sources}: the ids of
                             the report's own parts
        evidence_made_here  bool (false: the evidence store came with the checkout, and
                             its checks are its word until a refresh of yours)

    Statuses of a quote on a source: verified, ambiguous, drifted, missing, gone,
    unread (the page could not be read), unchecked. An artifact's last run has an
    exit_status of null when it did not finish, and an error when it did not start,
    timed out or exited non-zero; output is what it printed (cut past 10,000 characters).
    """
    return {"schema_version": REPORT_VERSION, "claimledger_report": REPORT_VERSION, **_data(report)}


def report_json_pieces(report: Report) -> Iterator[str]:
    """`indented_json(report_data(report))`, a part at a time: the report's fields and
    sections and their claims are walked, and each claim (or other record) is written
    whole, so that a big report's JSON is never held whole, as data or as text."""
    fields = [("schema_version", REPORT_VERSION), ("claimledger_report", REPORT_VERSION)]
    fields += [(name, getattr(report, name)) for name in _field_names(Report)]
    return _object_pieces(fields, 0)


PIECE = 1 << 20
"""Characters of a report's JSON escaped and handed on at a time."""

RECORDS_WALKED, TUPLES_WALKED = 2, 3
"""How deep a view's records and tuples are walked rather than written whole: the report
and its sections (records at depth 0 and 2), their claims (a tuple at depth 3); a claim,
at 4, is written whole."""


def _json_pieces(value: Any, depth: int) -> Iterator[str]:
    """`value`'s JSON as it reads `depth` levels into the report's (JSON strings hold no
    line break: only the layout's own are indented)."""
    kind = type(value)
    if kind is tuple and depth <= TUPLES_WALKED:
        return _array_pieces(value, depth)
    if dataclasses.is_dataclass(kind) and depth <= RECORDS_WALKED:
        return _object_pieces([(name, getattr(value, name)) for name in _field_names(kind)], depth)
    return iter([indented_json(_data(value)).replace("\n", "\n" + "  " * depth)])


def _object_pieces(fields: list[tuple[str, Any]], depth: int) -> Iterator[str]:
    for n, (name, value) in enumerate(fields):
        yield ("{" if n == 0 else ",") + "\n" + "  " * (depth + 1) + indented_json(name) + ": "
        yield from _json_pieces(value, depth + 1)
    yield "\n" + "  " * depth + "}" if fields else "{}"


def _array_pieces(items: tuple[Any, ...], depth: int) -> Iterator[str]:
    for n, item in enumerate(items):
        yield ("[" if n == 0 else ",") + "\n" + "  " * (depth + 1)
        yield from _json_pieces(item, depth + 1)
    yield "\n" + "  " * depth + "]" if items else "[]"


def _data(value: Any) -> Any:
    """`dataclasses.asdict` of a view: each record a dict, each tuple a tuple, a plain value
    as it is (`asdict` deep-copies each of the half a million strings of a big report, most
    of the work of its JSON; a view holds nothing mutable that needs a copy)."""
    kind = type(value)
    if kind in _PLAIN:
        return value
    if kind is tuple:
        return tuple(_data(item) for item in value)
    if dataclasses.is_dataclass(kind):
        return {name: _data(getattr(value, name)) for name in _field_names(kind)}
    return copy.deepcopy(value)  # what `asdict` makes of anything else


_PLAIN = frozenset({str, int, float, bool, type(None)})


@functools.cache
def _field_names(kind: type) -> tuple[str, ...]:
    """The fields of a view's type, in order (read once per type, not once per view)."""
    return tuple(field.name for field in dataclasses.fields(kind))


# --------------------------------------------------------------------------- ClaimReview

_RATING = {Grade.DEMONSTRATED: 3, Grade.CLAIMED: 2, Grade.SPECULATIVE: 1}
"""The numeric scale, 1 (worst) to 3 (best). UNKNOWN is not on it: it says the evidence
cannot settle the claim, not that the claim is false, which a scale's lowest value reads as."""

SHORT_CLAIM = 75
"""Characters of `claimReviewed` at most (Google's guidance for a claim's short form)."""


def _claim_reviewed(claim: ClaimView) -> str:
    """The claim's short form: its statement cut to `SHORT_CLAIM`, or its title where the
    statement is blank (a ledger may leave it so), since a review of "" is no review: a
    reader of ClaimReview takes an empty `claimReviewed` for one missing."""
    return excerpt(claim.statement, SHORT_CLAIM - 1) or excerpt(claim.title, SHORT_CLAIM - 1)


def claim_reviews(report: Report, base_url: str | None = None) -> list[dict[str, Any]]:
    """One schema.org ClaimReview per claim, as JSON-LD.

    The rating is the claim's weakest facet (a reader of one number must not take the
    claim as stronger than any of its facets): alternateName is the grade, ratingValue 3
    (DEMONSTRATED) to 1 (SPECULATIVE); UNKNOWN has its name and no number, and so has a
    refuted claim, named REFUTED, its review body saying when and why first.
    datePublished is the day that grade was given, or the claim refuted (stable from one
    render to the next). reviewBody holds every facet's grade line and why; the rating's
    explanation holds the rules' traces. claimReviewed is the statement cut to 75
    characters, the Claim's `text` the whole of it; its appearances are the cited
    sources, the first listed as its first appearance. With `base_url` (where the report
    is published) each review's @id and url are that address and the claim's anchor;
    without it the @id is the bare anchor and there is no url, since none is known.
    """
    return list(each_claim_review(report, base_url))


def each_claim_review(report: Report, base_url: str | None = None) -> Iterator[dict[str, Any]]:
    """The reviews of `claim_reviews`, each made when it is asked for."""
    sources = {source.id: source for source in report.sources}
    return (_claim_review(report, claim, base_url, sources) for claim in report.claims)


def _claim_review(
    report: Report, claim: ClaimView, base_url: str | None, sources: Mapping[str, SourceView]
) -> dict[str, Any]:
    lowest = Grade(weakest(_rated(facet) for facet in claim.facets))
    body = " ".join(
        sentence(facet.line)
        + (f" Proposed by the rules, not yet written: {facet.proposed}." if facet.proposed else "")
        + "".join(
            f" Its sources disagree: {sentence(f.text)}" for f in facet.flags if f.kind == DISAGREE
        )
        + (f" Why: {sentence(facet.why)}" if facet.why else "")
        for facet in claim.facets
    )
    traces = "; ".join(f"{facet.on}: {facet.trace}" for facet in claim.facets if facet.trace)
    where = f"{base_url or ''}#{claim.anchor}"
    review: dict[str, Any] = {
        "@context": "https://schema.org",
        "@type": "ClaimReview",
        "@id": where,
        **({"url": where} if base_url else {}),
        "name": claim.title,
        "claimReviewed": _claim_reviewed(claim),
        "datePublished": claim.refuted_on or _graded_on(claim, lowest),
        "reviewBody": _review_body(claim, body),
        "reviewRating": _refuted(claim.refuted)
        if claim.refuted
        else _rating(lowest, traces or body),
        "itemReviewed": _item_reviewed(sources, claim),
    }
    if report.author:
        review["author"] = {"@type": "Person", "name": report.author}
    return review


def _review_body(claim: ClaimView, body: str) -> str:
    """The facets' lines (`body`), after what stands above them on the claim in the report:
    its refutation, and the review its evidence asks of its author (a rewording adopted
    though it changed, or may have changed, the meaning), which a reader of the JSON-LD
    would otherwise take for a claim whose evidence holds as graded."""
    said = [sentence(f"Refuted {claim.refuted}")] if claim.refuted else []
    said += [sentence(f"Needs review: {claim.review}")] if claim.review else []
    return " ".join([*said, body])


def _rated(facet: FacetView) -> str:
    """The grade a facet is rated at: its own, or the lower one a rule proposes and no one
    has written yet (the evidence no longer holds it up; a raise waits for the author);
    UNKNOWN while its sources disagree, a page read saying the reverse of its quote (the
    ledger holds the grade until the author re-reads them, but a machine reading the
    JSON-LD sees no notice)."""
    if any(flag.kind == DISAGREE for flag in facet.flags):
        return Grade.UNKNOWN.value
    return weakest([facet.grade, facet.proposed]) if facet.proposed else facet.grade


DISAGREE = "SOURCES-DISAGREE"
"""The flag of a facet whose quote's sources say different things (a rule's notice)."""


def _graded_on(claim: ClaimView, grade: Grade) -> str:
    """When the claim's rating was given: the latest day a facet got the weakest grade
    (that day itself, for a lowering proposed and not written)."""
    days = [facet.graded_on for facet in claim.facets if facet.grade == grade]
    return max(days or [facet.graded_on for facet in claim.facets])


def _refuted(when_and_why: str) -> dict[str, Any]:
    """The rating of a claim its falsifier was met for: no grade of it stands (a machine
    reading the JSON-LD sees no flag), so no number, and the refutation as the reason."""
    return {
        "@type": "Rating",
        "alternateName": "REFUTED",
        "ratingExplanation": f"refuted {when_and_why}",
    }


def _rating(grade: Grade, explanation: str) -> dict[str, Any]:
    rating: dict[str, Any] = {"@type": "Rating"}
    if grade in _RATING:
        rating |= {"ratingValue": _RATING[grade], "bestRating": 3, "worstRating": 1}
    return rating | {"alternateName": str(grade), "ratingExplanation": explanation}


def _item_reviewed(by_id: Mapping[str, SourceView], claim: ClaimView) -> dict[str, Any]:
    cited = list(dict.fromkeys(s.source_id for quote in claim.quotes for s in quote.sources))
    appearances = [_appearance(by_id[source_id]) for source_id in cited]
    publishers = sorted({by_id[source_id].publisher for source_id in cited})
    item: dict[str, Any] = {"@type": "Claim", "name": claim.title, "text": claim.statement}
    if appearances:
        item["appearance"] = appearances
        item["firstAppearance"] = appearances[0]
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
