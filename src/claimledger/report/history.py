"""A claim's history as the report publishes it: the author's reading, not the ledger's
bookkeeping."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from claimledger.ledger.model import Claim, HistoryEntry

BOOKKEEPING = frozenset({"add"})
"""History kept for the ledger's own sake (a claim recorded): not the author's reading."""


def published(entry: HistoryEntry, author: str) -> str:
    """A history entry as a reader is told it: the author's acts (a grade set, a wording
    adopted, a review confirmed, a quote removed) by the author's name; a rule's by its."""
    by = entry.by if entry.by.startswith("rule") else author or "the author"
    return replace(entry, by=by).describe()


def published_history(
    claim: Claim, shown_above: Sequence[HistoryEntry], author: str
) -> tuple[str, ...]:
    """The claim's history as published, less the entries its grade block already shows
    (a standing downgrade is a facet's DOWNGRADED flag: no line is said twice) and the
    ledger's bookkeeping."""
    above = {id(entry) for entry in shown_above}
    return tuple(
        published(entry, author)
        for entry in claim.history
        if id(entry) not in above and entry.by not in BOOKKEEPING
    )
