"""The words of a change as the quote and the page wrote them.

Pure. The matcher reads signs as words before it compares ("$5" as "5 dollars", "10^-6"
as "0.000001", "5 Mbps" as "5 Mbit per s"), so the runs its changes name are its own
reading: a report that showed `"dollars" -> "euros"` where the page wrote "€5" would put
words in the page's mouth. Each run the reading made is traced back to the fewest whole
words it was read from, and shown as written; a change either side of which cannot be
traced to one place is shown as read on both, never half one way and half the other.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from difflib import SequenceMatcher
from functools import cached_property

from claimledger.reading.match.quantities import rates_as_said
from claimledger.reading.match.signs import signs_as_said
from claimledger.records import WordChange

_EDGE = ".,;:!?\"'()[]{}“”‘’"
"""Punctuation around a word, not part of what it says."""

SWAPPED = "words swapped"


@dataclass
class _Side:
    """One text as read and as written, aligned word by word once for all its changes."""

    read: str
    written: str

    @cached_property
    def read_words(self) -> list[str]:
        return self.read.split()

    @cached_property
    def bare_read_words(self) -> list[str]:
        return _bare(self.read_words)

    @cached_property
    def written_words(self) -> list[str]:
        return self.written.split()

    @cached_property
    def opcodes(self) -> Opcodes:
        matcher = SequenceMatcher(None, self.read_words, self.written_words, autojunk=False)
        return matcher.get_opcodes()


Opcodes = Sequence[tuple[str, int, int, int, int]]


def changes_as_written(
    changes: tuple[WordChange, ...],
    read: tuple[str, str],
    written: tuple[str, str],
) -> tuple[WordChange, ...]:
    """`changes` with each side's words as `written` (the quote's text, the passage's)
    has them, where `read` (the same two as the matcher read them) made them."""
    if read == written or max(len(text) for text in written) > _LONGEST:
        return changes  # aligning two long texts word by word costs more than it shows
    sides = (_Side(read[0], written[0]), _Side(read[1], written[1]))
    return tuple(_as_written(change, sides) for change in changes)


def _as_written(change: WordChange, sides: tuple[_Side, _Side]) -> WordChange:
    one_sided = not change.quote or not change.page
    swapped = (change.kind or "").startswith(SWAPPED)  # "words swapped across clauses" too
    quote = run_as_written(change.quote, sides[0], exact=one_sided, swapped=swapped)
    page = run_as_written(change.page, sides[1], exact=one_sided, swapped=swapped)
    if quote is None or page is None:
        return change
    return replace(change, quote=quote, page=page)


def run_as_written(
    run: str, side: _Side, *, exact: bool = False, swapped: bool = False
) -> str | None:
    """`run`, words of the side as read, as it wrote them, or None where that cannot be
    told: read in places written otherwise, or (`exact`, for words put in or taken out
    alone) from written words that say more than the run ("$5" for a "dollars" dropped
    from "$5" -> "5"). The two sides of a swap ("A … B", or words from two places) are
    each traced on their own."""
    if not run or side.read == side.written:
        return run
    if " … " in run:
        parts = [run_as_written(part, side, exact=exact) for part in run.split(" … ")]
        return None if None in parts else " … ".join(str(part) for part in parts)
    places = _word_places(_bare(run.split()), side.bare_read_words)
    if not places and swapped and " " in run:  # a swap's words, each from its own place
        parts = [run_as_written(word, side, exact=exact) for word in run.split()]
        return None if None in parts else " ".join(str(part) for part in parts)
    if len(places) > _PLACES:
        return None  # a word said all over: which place is meant cannot be told
    shown = {_written_at(place, run, side, exact) for place in places}
    found = shown.pop() if len(shown) == 1 else None
    return found or None


def _written_at(place: tuple[int, int], run: str, side: _Side, exact: bool) -> str | None:
    """The fewest written words whose reading holds the run read at `place` (with the
    word beside them that a sign is read with, where it needs one). A run read from a
    stretch much longer than itself is no sign's rewriting, and not traced."""
    start, end = place
    taken = [
        (j1 + max(start, i1) - i1, j1 + min(end, i2) - i1) if tag == "equal" else (j1, j2)
        for tag, i1, i2, j1, j2 in side.opcodes
        if i1 < end and start < max(i2, i1 + 1)
    ]
    if not taken:
        return None
    first, last = min(j for j, _ in taken), max(j for _, j in taken)
    wanted, words = _bare(run.split()), side.written_words
    if last - first > 2 * len(wanted) + _AT_MOST_MORE:
        return None
    while last - first > 1 and _holds(words[first + 1 : last], wanted):
        first += 1
    while last - first > 1 and _holds(words[first : last - 1], wanted):
        last -= 1
    around = ((0, 0), (0, 1), (-1, 0), (-1, 1))  # a sign is read with its figure: "5 €"
    spans = [words[max(first + a, 0) : last + b] for a, b in around]
    span = next((span for span in spans if _holds(span, wanted)), None)
    if span is None or (exact and _read(span) != wanted):
        return None
    return " ".join(span).strip(_EDGE) or None


_LONGEST = 4000
"""Characters of text beyond which a change is shown as read: a quote is at most 4,000."""
_PLACES = 8
"""Places a run may be read in and still be traced (each must be written alike)."""
_AT_MOST_MORE = 4
"""Written words a traced run may stand among beyond twice its own (a sign's figure, a
magnitude, a unit): more, and the two texts are not aligned there."""


def _holds(written: list[str], wanted: list[str]) -> bool:
    """Whether the reading of the `written` words has the `wanted` words in a row."""
    words = _read(written)
    size = len(wanted)
    return any(words[i : i + size] == wanted for i in range(len(words) - size + 1))


def as_read(text: str) -> str:
    """The text as the matcher reads it before it compares: signs and rates said as words
    ("$5" as "5 dollars")."""
    return rates_as_said(signs_as_said(text))


def _read(written: list[str]) -> list[str]:
    """Written words as the matcher reads them, bare."""
    return _bare(as_read(" ".join(written)).split())


def _bare(words: list[str]) -> list[str]:
    return [word.strip(_EDGE).lower() for word in words]


def _word_places(wanted: list[str], bare: list[str]) -> list[tuple[int, int]]:
    """Where the `wanted` words stand in a text's `bare` words, each whole."""
    size = len(wanted)
    return [
        (index, index + size)
        for index in range(len(bare) - size + 1)
        if bare[index : index + size] == wanted
    ]
