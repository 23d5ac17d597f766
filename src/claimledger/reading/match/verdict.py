"""What the locator answers, and what it decides by: the verdict on one quote on one page
(`Match`), and the thresholds of likeness it holds a passage to (`Thresholds`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import ClassVar

from claimledger.meanings import REWRITTEN_IN_PLACE
from claimledger.reading.match.prepared import Context
from claimledger.records import CheckStatus, MatchKind, WordChange, meaning_uncertain, near_miss


@dataclass(frozen=True)
class Thresholds:
    """How alike a passage must be to be the quote reworded (0..1, see :func:`similarity`).

    `at_place` where the quote used to be, `elsewhere` anywhere else on the page; `unplaced`
    anywhere, when nothing is known of where the quote stood (a first `verify`), since
    there no candidate can be preferred for its place.

    Calibrated leave-one-repository-out on the real-drift corpus (tests/corpus/):
    `python tests/benchmarks/bench_drift.py --calibrate` prints the choice and the
    figures on the repository left out.
    """

    at_place: float = 0.35
    elsewhere: float = 0.55
    unplaced: float = 0.50
    closest: float = 0.35
    place_bonus: float = 0.1
    whole_bonus: float = 0.1


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Match:
    """Where a quote stands on one page.

    ``current`` is the page's own wording, verbatim, and equals
    ``page_text[start:end]``: the matched run for a verified quote, whole sentences for
    a drifted one, ``None`` when missing. ``change_kinds`` names the meaning changes of
    a drifted quote. A missing quote may carry the ``closest`` passage still on the
    page, and ``closest_kinds``: how it differs in meaning (empty: it does not
    contradict the quote, it only says less or other things). A drifted quote carries a
    ``closest`` passage when the choice was a close call: the runner-up, almost as like
    the quote as ``current`` (see `locator.CLOSE_CALL`).
    """

    status: CheckStatus
    match: MatchKind | None
    similarity: float
    current: str | None
    meaning_changed: bool
    changed_words: tuple[WordChange, ...]
    occurrences: int
    context: Context | None
    start: int | None
    end: int | None
    change_kinds: tuple[str, ...] = ()
    closest: str | None = None
    closest_kinds: tuple[str, ...] = ()
    JSON_PROPERTIES: ClassVar[tuple[str, ...]] = ("meaning_uncertain", "near_miss")

    @property
    def meaning_uncertain(self) -> bool:
        """Drifted, not plainly harmless, without strong evidence of a changed meaning."""
        return meaning_uncertain(self)

    @property
    def near_miss(self) -> bool:
        """Missing, with a closest passage nearly alike enough to be the quote reworded."""
        return near_miss(self)


@dataclass(frozen=True)
class FoundMissing:
    """The quote was found missing at its last check, `closest` the passage then shown as
    the closest (None: none was)."""

    closest: str | None = None


def known_by_place_only(drifted: Match) -> Match:
    """The verdict on a successor that only its place tells (see `REWRITTEN_IN_PLACE`)."""
    if REWRITTEN_IN_PLACE in drifted.change_kinds:
        return drifted
    return replace(
        drifted, meaning_changed=False, change_kinds=(*drifted.change_kinds, REWRITTEN_IN_PLACE)
    )
