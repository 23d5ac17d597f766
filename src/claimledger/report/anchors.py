"""The ids of the parts the report writes itself (Findings, Open questions, Sources, …),
kept clear of the ids its author's headings take where the Markdown is read.

GitHub gives every heading of a Markdown file the id of its words: an author's section
titled "Sources", or an intro's "## Findings", would take `sources` or `findings` before
the report's own part of that name, and the contents would lead there. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import fields

from claimledger.ledger.model import Ledger
from claimledger.report.markup import author_headings, heading_ids
from claimledger.report.model import OwnAnchors, SectionView


def authors_headings(ledger: Ledger, sections: Sequence[SectionView]) -> list[str]:
    """Every heading the author's words make in the report: the about's, each section's
    title and its intro's, each claim's title and its words', each closing part's."""
    headings = author_headings(ledger.about)
    for section in sections:
        headings += [section.title, *author_headings(section.intro)]
        for claim in section.claims:
            headings += [claim.title, *author_headings(claim.body)]
        headings += author_headings(section.after)
    for part in ledger.closing:
        headings += [part.title, *author_headings(part.body)]
    return headings


def own_anchors(headings: Sequence[str]) -> OwnAnchors:
    """The report's own ids, each clear of the ids the author's `headings` take."""
    taken = heading_ids(headings)
    usual = OwnAnchors()
    return OwnAnchors(
        **{part.name: _clear_of(taken, getattr(usual, part.name)) for part in fields(usual)}
    )


def _clear_of(taken: frozenset[str], name: str) -> str:
    """`name`, or `report-name` (numbered past any taken) when a heading takes `name`."""
    if name not in taken:
        return name
    candidate, number = f"report-{name}", 1
    while candidate in taken:
        number += 1
        candidate = f"report-{name}-{number}"
    return candidate
