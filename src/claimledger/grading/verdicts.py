"""What the grading rules weigh and what they answer: the checks and artifact outcomes they
read, the evidence they show, the proposals, notices and traces a regrade makes, and the
small steps every rule takes with a facet's grade (fall, restore, hold, cap). Pure."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from claimledger.ledger.model import Claim, Facet
from claimledger.ledger.vocabulary import Grade


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
    @property
    def snapshot_hash(self) -> str | None: ...
    @property
    def moved_within(self) -> str | None: ...


@dataclass(frozen=True)
class ArtifactOutcome:
    """The result of re-running a claim's artifact."""

    claim_id: str
    matched: bool
    diff: str = ""
    error: str | None = None
    ran: bool = True  # False: it could not be started or timed out, which is no evidence
    recorded: bool = False
    """A run recorded before, not made by this regrade: the files it ran may have changed
    since, so one that matched raises no grade (one that failed lowers it all the same)."""


@dataclass(frozen=True)
class Evidence:
    """One piece of evidence behind a proposal, printable on one line."""

    quote: str | None
    source_id: str | None
    status: str
    when: dt.datetime | None = None
    detail: str = ""
    moved_within: str | None = None
    """Where on its page a quote found away from the place the ledger gives it now stands
    (`CheckRecord.moved_within`), as the check recorded it: `explain` says it as `refresh`,
    `history` and the report do."""
    page_moved: bool = False
    """The check read its page at the address it moved to (a permanent redirect `claimledger
    move` has not adopted yet): `explain` says so as `history` and `status` do, rather than
    one more "verified" on the address the ledger gives."""


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
    read_at: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    """The sources read on another publisher's site, as counted (`quotes.read_elsewhere`)."""

    @property
    def pending(self) -> bool:
        return bool(self.proposals or self.notices)


STALE = "stale"
"""The notice of a facet whose quote was reworded on its page: `accept` adopts the words."""


@dataclass
class Verdict:
    """A rule's answer for one facet: a new grade or None, and the story behind it."""

    to_grade: Grade | None
    rule: str
    why: str
    evidence: tuple[Evidence, ...] = ()  # a claim's quotes' evidence: the same for its facets
    notice: str | None = None  # a Notice kind: "stale", "sources-disagree"


def fall(facet: Facet, rule: str, why: str, evidence: tuple[Evidence, ...]) -> Verdict:
    target = Grade.UNKNOWN if facet.grade is not Grade.UNKNOWN else None
    return Verdict(target, rule, why, evidence)


def baseline_of(claim: Claim, facet: Facet) -> Grade | None:
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


def weaker(a: Grade, b: Grade) -> Grade:
    return a if a.strength <= b.strength else b
