"""A claim's history as the report publishes it: the author's reading, not the ledger's
bookkeeping."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace

from claimledger.ledger.model import Claim, HistoryEntry, Source
from claimledger.urls import redact_urls, redacted

BOOKKEEPING = frozenset({"add"})
"""History kept for the ledger's own sake (a claim recorded): not the author's reading."""


def published(entry: HistoryEntry, author: str) -> str:
    """A history entry as a reader is told it: the author's acts (a grade set, a wording
    adopted, a review confirmed, a quote removed) by the author's name; a rule's by its.
    A confirmation says it is one: its reason alone would not."""
    by = entry.by if entry.by.startswith("rule") else author or "the author"
    if entry.by == "review":
        entry = replace(entry, why=_confirmed(entry.why))
    return redact_urls(replace(entry, by=by).describe())


def _confirmed(why: str | None) -> str:
    said = "confirmed as it stands after its evidence changed meaning"
    return f"{said}: {why}" if why else said


def published_history(
    claim: Claim,
    shown_above: Sequence[HistoryEntry],
    author: str,
    sources: Mapping[str, Source],
) -> tuple[str, ...]:
    """The claim's history as published, less the entries its grade block already shows
    (a standing downgrade is a facet's DOWNGRADED flag: no line is said twice) and the
    ledger's bookkeeping; with each move its author adopted of a page the claim quotes,
    in date order (a move is kept on its source, but it changed what this claim cites)."""
    above = {id(entry) for entry in shown_above}
    lines = [
        (entry.date, published(entry, author))
        for entry in claim.history
        if id(entry) not in above and entry.by not in BOOKKEEPING
    ]
    cited = dict.fromkeys(source for quote in claim.quotes for source in quote.sources)
    lines += [
        move for source in cited if source in sources for move in moves(sources[source], author)
    ]
    return tuple(line for _, line in sorted(lines, key=lambda dated: dated[0]))


def moves(source: Source, author: str) -> list[tuple[str, str]]:
    """Each adopted move of `source`, dated: "DATE, page ID moved from OLD to NEW, by …"
    (each move's new address is the next one's old, the last one's the source's own)."""
    addresses = [move.moved_from for move in source.history] + [source.url]
    by = author or "the author"
    said = []
    for move, now in zip(source.history, addresses[1:], strict=True):
        why = f": {move.why}" if move.why else ""
        line = f"{move.date}, page {source.id} moved from {redacted(move.moved_from)} to "
        said.append((move.date, redact_urls(f"{line}{redacted(now)}, by {by}{why}")))
    return said
