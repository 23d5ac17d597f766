"""How the report counts a claim's quotes, in one place for every output that counts them:
the headline's summary and the grade line of each facet both count a quote by
`counted_state`, so that one verified on one source and gone (or said otherwise) on
another is the same thing in both, never "verified" in one and apart in the other.

Pure, like `claimledger.report.build`, which says the grade line.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

from claimledger.report.model import QuoteView

DISAGREEING = "disagreeing"
"""Verified on one source, and on another read no longer there or said otherwise."""

PARTLY_READ = "partly read"
"""Verified on one source, and another not read or never checked: it says nothing."""


def counted_state(quote: QuoteView) -> str:
    """What a quote counts as: its state (the best any source says of it), except that one
    verified on a source is `DISAGREEING` where another page read lacks it or says it
    otherwise, and `PARTLY_READ` where another was not read: "verified" holds for every
    source the quote cites."""
    if quote.state != "verified":
        return quote.state
    if _disagree(quote):
        return DISAGREEING
    if _partly_read(quote):
        return PARTLY_READ
    return "verified"


def counted(quotes: Iterable[QuoteView]) -> Counter[str]:
    """How many of `quotes` count as each state (`counted_state`)."""
    return Counter(counted_state(quote) for quote in quotes)


def _partly_read(quote: QuoteView) -> bool:
    """Whether a source of the quote was not read, or never checked, where another carries
    it: that source says nothing either way, and "verified" would say it does."""
    return any(source.status in ("unread", "unchecked") for source in quote.sources)


def _disagree(quote: QuoteView) -> bool:
    """Whether a page read lacks the quote another page carries, or says it otherwise (the
    quote's state is the best any source says). A rewording short of a changed meaning is
    no disagreement, as `regrade` has it."""
    return any(
        source.status in ("missing", "gone")
        or (source.status == "drifted" and source.meaning_changed)
        for source in quote.sources
    )


# --------------------------------------------------------------------------- the grade line

_STATE_WORDS = {
    DISAGREEING: "verified on one source, changed or gone on another",
    PARTLY_READ: "verified on one source, not read on another",
    "changed": "reworded on its page, its meaning changed",
    "uncertain": "reworded on its page, its meaning may have changed",
    "drifted": "reworded on its page",
    "missing": "no longer on its page",
    "gone": "on a page that is gone",
    "unread": "on a page that could not be read (no evidence either way)",
    "unchecked": "not yet checked",
}
"""How the grade line tells a count of quotes in each state (as the headline tells the
first two)."""


_ONE_QUOTE_WORDS = {
    DISAGREEING: "its quote is verified on one source, changed or gone on another",
    PARTLY_READ: "its quote is verified on one source, not read on another",
    "changed": "its quote was reworded on the page, and its meaning changed",
    "uncertain": "its quote was reworded on the page, and its meaning may have changed",
    "drifted": "its quote was reworded on the page",
    "missing": "its quote is no longer on the page",
    "gone": "the page of its quote is gone",
    "unread": "the page of its quote could not be read: no evidence either way",
    "unchecked": "not yet verified",
}


def all_verified(quotes: Iterable[QuoteView]) -> bool:
    """Does every quote count as verified, on every source it cites?"""
    return all(counted_state(quote) == "verified" for quote in quotes)


def unverified_evidence(quotes: Sequence[QuoteView]) -> str:
    """The grade line's evidence when some quote does not count as verified: how many do,
    and how many count as each other state, as the headline counts them."""
    if len(quotes) == 1:
        return _ONE_QUOTE_WORDS[_told_state(quotes[0])]
    tally = Counter(_told_state(quote) for quote in quotes)
    parts = [f"{tally['verified']} of {len(quotes)} quotes verified"]
    parts += [f"{tally[state]} {words}" for state, words in _STATE_WORDS.items() if state in tally]
    return "; ".join(parts)


def _told_state(quote: QuoteView) -> str:
    """A quote's state as a grade line tells it (`counted_state`): a rewording that changed
    the meaning, or may have (on one of its pages, or by the matcher's doubt), is never
    told as a rewording alone, as the stale notice beside it never tells it."""
    state = counted_state(quote)
    if state != "drifted":
        return state
    reworded = [s for s in quote.sources if s.status == "drifted"]
    if all(s.meaning_changed for s in reworded):
        return "changed"
    doubt = any(s.meaning_changed or s.meaning_uncertain for s in reworded)
    return "uncertain" if doubt else "drifted"
