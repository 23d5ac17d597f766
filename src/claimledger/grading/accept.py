"""Which drifted quotes `accept` may adopt, and which it must refuse, from the evidence.

Pure. Adopting takes the page's current wording as the quote. It is refused when the
drift changed a meaning-carrying word (unless the author insists), when the quote's
sources now disagree with each other, and when a source still carries the old words:
then the quote should be split per source, not rewritten. A successor only its place
tells is adopted when its claim is named, never in bulk. A source carrying the old words
in several places (ambiguous) still carries them. A source that could not be
read is no evidence either way: the adoption names it, and is not refused for it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Set
from dataclasses import dataclass, field

from claimledger.ledger.model import Ledger
from claimledger.ledger.schema import QUOTE_CHARS
from claimledger.meanings import REWRITTEN_IN_PLACE, STRONG_KINDS, changed_words_said
from claimledger.records import (
    CARRIED,
    Adoption,
    CheckRecord,
    classify,
    latest_by_key,
)


@dataclass(frozen=True)
class AcceptPlan:
    adoptions: tuple[Adoption, ...]
    refused: tuple[str, ...]
    unread: Mapping[tuple[str, int], tuple[str, ...]] = field(default_factory=dict)
    """By adopted quote (its claim, its index), its sources that could not be read at the
    last refresh: the new wording is taken from the others, and nothing says these carry
    it until a refresh reads them."""


def accept_plan(
    ledger: Ledger,
    checks: Iterable[CheckRecord],
    chosen: Set[str],
    *,
    even_if_meaning_changed: bool = False,
    in_bulk: bool = False,
) -> AcceptPlan:
    """Decide, per drifted quote of the chosen claims, whether its new wording is adopted.

    `in_bulk`: the claims were not named (`--all-drifted`), so no wording is adopted that
    may not be the quote's successor at all (see `meanings.REWRITTEN_IN_PLACE`)."""
    latest = latest_by_key(checks)
    adoptions: list[Adoption] = []
    refused: list[str] = []
    unread: dict[tuple[str, int], tuple[str, ...]] = {}
    for claim in ledger.claims:
        if claim.id not in chosen:
            continue
        for index, quote in enumerate(claim.quotes):
            found = [latest.get((claim.id, quote.text, source)) for source in quote.sources]
            read = [c for c in found if c is not None and c.status is not None]
            drifted = [c for c in read if c.status == "drifted" and c.current]
            if not drifted:
                continue
            where = f"{claim.id} #{index + 1}"
            wordings = sorted({c.current for c in drifted if c.current})
            verbatim = sorted(c.source_id for c in read if c.status in CARRIED)
            meaning = any(c.meaning_changed for c in drifted)
            by_place = [c for c in drifted if _strong_by_place(c)]
            uncertain = any(c.meaning_uncertain for c in drifted)
            if verbatim:
                refused.append(
                    f"{where}: still verbatim on {', '.join(verbatim)} but reworded on "
                    f"{', '.join(sorted(c.source_id for c in drifted))}; split the quote per source"
                )
            elif len(wordings) > 1:
                refused.append(f"{where}: its sources now word it differently: {wordings}")
            elif len(wordings[0]) > QUOTE_CHARS:
                refused.append(
                    f"{where}: the page's wording is {len(wordings[0]):,} characters, more than "
                    f"a quote holds ({QUOTE_CHARS:,}); quote the words that bear the claim"
                )
            elif in_bulk and any(REWRITTEN_IN_PLACE in c.change_kinds for c in drifted):
                refused.append(
                    f"{where}: only its place tells that the page's “{wordings[0]}” is the "
                    f"quote reworded; read the page, then accept {claim.id} by name"
                )
            elif by_place and not even_if_meaning_changed:
                kinds = ", ".join(
                    dict.fromkeys(k for c in by_place for k in c.change_kinds if k in STRONG_KINDS)
                )
                refused.append(
                    f"{where}: what now stands where it stood may change its meaning ({kinds}); "
                    "re-read the page, then use --even-if-meaning-changed if it is the quote "
                    "reworded"
                )
            elif meaning and not even_if_meaning_changed:
                words = changed_words_said(w for c in drifted for w in c.changed_words) or (
                    ", ".join(dict.fromkeys(k for c in drifted for k in c.change_kinds))
                )
                refused.append(
                    f"{where}: the rewording changed its meaning: {words}. Re-read the page, "
                    "then use --even-if-meaning-changed if the new wording is what you rely on"
                )
            else:
                said = "changed" if meaning else "uncertain" if uncertain else None
                adoptions.append(Adoption(claim.id, index, quote.text, wordings[0], said))
                if not_read := _unread_sources(quote.sources, found):
                    unread[claim.id, index] = not_read
    return AcceptPlan(tuple(adoptions), tuple(refused), unread)


def _unread_sources(sources: Iterable[str], found: Iterable[CheckRecord | None]) -> tuple[str, ...]:
    """The sources whose latest check read nothing (or that none checked): a page that
    could not be read is no evidence either way, so the wording adopted from the others
    is not known to stand on them. Said, never refused: a page down for a day must not
    hold up the author."""
    return tuple(
        source
        for source, check in zip(sources, found, strict=True)
        if check is None or classify(check) == "unread"  # a page gone (404) was read: gone
    )


def _strong_by_place(check: CheckRecord) -> bool:
    """A wording known only by where the quote stood, with a change of the kinds that
    make a changed meaning (a negation, a number, words swapped): its verdict is "may
    have changed", since it may not be the quote's successor at all, but adopting it
    takes what a changed meaning takes, `--even-if-meaning-changed`."""
    kinds = check.change_kinds
    return REWRITTEN_IN_PLACE in kinds and any(kind in STRONG_KINDS for kind in kinds)
