"""The report as a reader will see it: frozen views, everything already worked out.

`build.build_report` fills them from the ledger and the evidence; the formats only lay
them out. Every field is plain data (strings, numbers, tuples), so the JSON report is
these records as they are.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from claimledger.ledger.vocabulary import Grade

GRADE_MEANINGS: Mapping[Grade, str] = {
    Grade.DEMONSTRATED: "the artifact itself was opened and read, or run",
    Grade.CLAIMED: "the subject asserts it; nothing beyond its word",
    Grade.SPECULATIVE: "the author's inference; never to be taken as fact",
    Grade.UNKNOWN: "the public evidence cannot settle it",
}

FLAG_ORDER = ("REFUTED", "PROPOSED", "STALE", "DOWNGRADED")
"""The flags a claim shows, in the order a reader meets them."""


def weakest(grades: Iterable[str]) -> str:
    """The weakest of some grades: what a claim may be taken as, at most."""
    named = list(grades)
    if all(grade in _STRENGTH for grade in named):  # the usual case, without an Enum lookup
        return str(min(named, key=_STRENGTH.__getitem__))
    return str(min((Grade(grade) for grade in named), key=lambda grade: grade.strength))


_STRENGTH = {str(grade): grade.strength for grade in Grade}


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
class AsReadView:
    """A quote on the web archive's copy of its page from the reading day: its status
    there (verified, ambiguous, drifted, missing; unread when the copy had no text), the
    capture (its day, its page), and the copy's own wording where it differs.
    `misquoted`: the copy does not carry the words as quoted."""

    status: str
    misquoted: bool
    captured_on: str
    snapshot: str | None
    label: str
    current: str | None = None


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
    moved_within: str | None = None
    """Found elsewhere on its page than its heading or #L lines place it, and where."""
    meaning_uncertain: bool = False
    near_miss: bool = False
    """Missing, but its closest passage nearly passes for it reworded: a close call."""
    changed_in: str | None = None
    """When and in which commit of the docs' repository the words changed (`blame`)."""
    changed_in_link: str | None = None
    """Reworded, not plainly harmlessly, without strong evidence of a changed meaning."""
    as_read: AsReadView | None = None
    """How it stood on the archived copy of the reading day, when one was read."""


@dataclass(frozen=True)
class QuoteView:
    """A quote with its sources, how well it is cross-checked, and when it was last verified."""

    index: int
    """Its number in its claim, from 1, as the command line says it (`#1`, `--quote 1`)."""
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
    attribution: str | None = None
    """Who says these words when it is not the page's own author: "X reports, citing Y"."""
    adopted_on: str | None = None
    """When the page's rewording of the quote was adopted (None: never reworded)."""
    as_read: str | None = None
    """The wording on the reading day, when an adopted rewording replaced it."""
    under: str | None = None
    adopted_meaning: str | None = None
    """"changed" or "uncertain" when an adopted rewording changed, or may have changed,
    what the quote meant (the worst of every adoption since the reading, and of the words
    as read against the words now): never counted or shown as harmless."""
    adopted_kinds: tuple[str, ...] = ()
    """The kinds of meaning change between the wording as read and the adopted one."""
    adopted_changes: tuple[WordChangeView, ...] = ()
    """The words that differ between the wording as read and the adopted one."""


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
    premises: tuple[PremiseView, ...] = ()
    """What this facet alone rests on, when it names its own premises."""
    graded_on: str = ""
    """When it got its grade: the last history entry that set it, else the reading's date."""
    proposed: str = ""
    """The grade a rule proposes for it and no one has written yet, if any."""


@dataclass(frozen=True)
class PremiseView:
    """A claim this one rests on, linked, with its weakest grade."""

    claim_id: str
    anchor: str
    title: str
    grade: str
    refuted_on: str | None = None
    """The day its falsifier fired, when it did."""


@dataclass(frozen=True)
class ArtifactRunView:
    """The artifact's last run: the day, how it ended (its exit status, or what kept it
    from running), how long it took, what ran it, and what it printed."""

    ran_on: str
    exit_status: int | None
    error: str | None
    seconds: float
    runner: str
    matched: bool
    output: str
    label: str


@dataclass(frozen=True)
class ArtifactView:
    """The program that demonstrates a claim, the output it must print, and its last run
    (None before it first ran)."""

    command: str
    expect: str
    last_run: ArtifactRunView | None = None
    language: str = ""
    code: str = ""
    """The program as the report shows it, in `language`."""
    run_as: str = ""
    """The command beside `code`, without the program again (`python3 -c PROGRAM`)."""


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
    refuted: str | None = None
    """The falsifier fired: "on DATE: what was seen"."""
    refuted_on: str | None = None
    """The day the falsifier fired, when it did."""
    review: str | None = None
    """Why the claim needs its author's review (its evidence changed meaning), or None."""
    body: str = ""
    """The author's markdown about the claim."""
    statement_shown: str = ""
    """The statement where it says more than the title, else "": what the report prints
    under the heading (`statement` is the author's, whole, for data and ClaimReview)."""


@dataclass(frozen=True)
class SectionView:
    id: str
    anchor: str
    title: str
    intro: str
    claims: tuple[ClaimView, ...]
    after: str = ""
    """The author's markdown after the section's claims."""


@dataclass(frozen=True)
class ClosingView:
    """A part of the essay after the graded sections (the conclusion, what is not proposed)."""

    anchor: str
    title: str
    body: str


@dataclass(frozen=True)
class QuestionView:
    """An open question: a claim of kind question, or one with facets graded UNKNOWN."""

    number: int
    claim_id: str
    anchor: str
    title: str
    statement: str
    unknown: tuple[str, ...]
    why: str = ""
    """Why it is open: asked as a question, withdrawn (the page no longer says it), or
    unknown (the public evidence cannot settle it)."""
    statement_shown: str = ""
    """The statement where it says more than the title, else ""."""


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
    meaning_uncertain: bool = False
    near_miss: bool = False


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
class FindingView:
    """One line of the findings at the top: what the evidence found since the reading,
    counted, and the claims it touches."""

    count: int
    text: str
    claims: tuple[PremiseView, ...]


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
    unchecked_quotes: int = 0
    """Quotes no source has checked (added or adopted since the last refresh) or could
    read: with the three counts above and the next, every quote is accounted for."""
    disagreeing_quotes: int = 0
    """Quotes a source read carries and another read does not (reworded there so that the
    meaning may have changed, or gone): never counted as verified, which one of its pages
    says they are not."""
    partly_read_quotes: int = 0
    """Quotes verified on a page read that another of their sources did not show: not read
    (its page could not be), or never checked (cited since the last refresh). Never
    counted as verified, which that source is not known to say they are."""


@dataclass(frozen=True)
class OwnAnchors:
    """The ids of the parts the report writes itself. Each is its usual name unless a
    heading of the author's would take that id where the Markdown is read (GitHub gives a
    heading "Sources" the id `sources`): then it is `report-` and the name."""

    findings: str = "findings"
    grades: str = "grades"
    contents: str = "contents"
    open_questions: str = "open-questions"
    source_fidelity: str = "source-fidelity"
    documentation_churn: str = "documentation-churn"
    what_changed: str = "what-changed"
    scope: str = "scope"
    sources: str = "sources"


@dataclass(frozen=True)
class Report:
    """Everything the report shows, already worked out; templates only lay it out."""

    title: str
    subject: str
    author: str
    about: str
    date_read: str
    last_refresh: str | None
    last_refresh_finished: bool | None
    """False when the last refresh was cut short (or still runs): the checks of the pages
    it did not reach are from earlier readings; None before any refresh."""
    generated_on: str
    has_evidence: bool
    """Whether anything was checked: a quote on its page, or an artifact run to its end."""
    quotes_checked: bool
    """Whether a quote was checked on its page: all the report says of quotes and pages
    read rests on this, never on an artifact's run."""
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
    closing: tuple[ClosingView, ...] = ()
    findings: tuple[FindingView, ...] = ()
    anchors: OwnAnchors = OwnAnchors()
    evidence_made_here: bool = True
    """False when the evidence store came with the checkout: its checks are its word."""

    @property
    def claims(self) -> tuple[ClaimView, ...]:
        """Every claim in report order."""
        return tuple(claim for section in self.sections for claim in section.claims)
