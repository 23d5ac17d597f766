"""Words of opposite sense, and words one of which negates the other ("able" / "unable"),
among the words a change took and put: each word looked up by its opposites or by its
negating prefix, not every pair tried, for a change of hundreds of words (a passage of
identifiers rewritten) made hundreds of thousands of pairs and took seconds.

Pure. The same answers as `lexicon.are_opposites` and `lexicon.negates` asked of every pair.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from claimledger.reading.match.lexicon import NEGATING_PREFIXES, OPPOSITES, lemma

_OPPOSITE_OF: dict[str, frozenset[str]] = {
    word: frozenset(other for pair in OPPOSITES if word in pair for other in pair - {word})
    for pair in OPPOSITES
    for word in pair
}


def any_opposites(was: Iterable[str], now: Iterable[str]) -> bool:
    """Whether a word of `was` and one of `now` are opposites (`are_opposites`), looked up
    by each word's opposites, not by trying every pair: a change of hundreds of words
    took seconds, pair by pair."""
    was, now = list(was), list(now)
    now_low = {word.lower() for word in now}
    if any(_OPPOSITE_OF.get(word.lower(), frozenset()) & now_low for word in was):
        return True
    now_lemmas = {lemma(word) for word in now}
    return any(_OPPOSITE_OF.get(lemma(word), frozenset()) & now_lemmas for word in was)


def negating_pairs(was: Iterable[str], now: Iterable[str]) -> Iterator[tuple[str, str]]:
    """Each pair of a word of `was` and one of `now` that `negates`, found by the prefix
    the longer one begins with, not by trying every pair (which took seconds on a change
    of hundreds of words)."""
    was, now = list(was), list(now)
    was_by_low, now_by_low = _by_lower(was), _by_lower(now)
    for longer in was:
        for stem in _stems(longer.lower()):
            yield from ((longer, shorter) for shorter in now_by_low.get(stem, ()))
    for longer in now:
        for stem in _stems(longer.lower()):
            yield from ((shorter, longer) for shorter in was_by_low.get(stem, ()))


def _by_lower(words: list[str]) -> dict[str, list[str]]:
    found: dict[str, list[str]] = {}
    for word in words:
        found.setdefault(word.lower(), []).append(word)
    return found


def _stems(low: str) -> set[str]:
    """The words of four letters or more that `low` is with a negating prefix put before."""
    return {
        low[len(prefix) :]
        for prefix in NEGATING_PREFIXES
        if low.startswith(prefix) and len(low) - len(prefix) >= 4
    }
