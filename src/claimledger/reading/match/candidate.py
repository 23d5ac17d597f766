"""A passage that could be the quote reworded, and how alike it is to the quote.

Pure. The locator gathers candidates (where the quote stood, where its words are) and
decides among them; what stood on the page as read weighs on that (`place`).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from rapidfuzz import fuzz

from claimledger.reading.match.diff import Judgement, judge
from claimledger.reading.match.place import QuoteWords
from claimledger.reading.match.prepared import PreparedText, content_lemmas

_COMMENT_LEAD = re.compile(r"[ \t]*(?:#+|//+|--|;+)[ \t]+")


@dataclass(frozen=True)
class Candidate:
    """A run of units ``[first, last]`` of one block, and how alike it is to the quote."""

    first: int
    last: int
    score: float
    at_place: bool
    needle: str
    aligned: bool = False
    """At the quote's place only as the sentences that replaced its own, found by aligning
    the page as read with the page now."""
    said_before: tuple[str, ...] | None = None
    """The words before the quote in its sentence when recorded (`QuoteWords.said_before`)."""

    def original_span(self, prepared: PreparedText) -> tuple[int, int]:
        """The passage in the page's own characters, without a comment marker in front of
        it that the quote did not have (`# retry in 1 minute` quoted as its words)."""
        starts, ends = prepared.units
        start, end = prepared.original_span(starts[self.first], ends[self.last])
        marker = _COMMENT_LEAD.match(prepared.text, start, end)
        if marker and not _COMMENT_LEAD.match(self.needle):
            start = marker.end()
        return start, end

    def text(self, prepared: PreparedText) -> str:
        """The passage in the page's normal form (as quotes are searched in it)."""
        return prepared.unit_text(self.first, self.last)

    def judgement(self, prepared: PreparedText) -> Judgement:
        """The quote's word changes: against the passage, or where the passage is a list's
        lead-in or items, against the lead-in and the items that say the quote (see
        `as_a_list`)."""
        passage = as_a_list(self, prepared) or self.text(prepared)
        return judge(self.needle, passage, said_before=self.said_before)


ITEMS_AT_MOST = 8
"""The items of a list read on from a lead-in, at most."""


def as_a_list(candidate: Candidate, prepared: PreparedText) -> str | None:
    """A sentence split into a lead-in and a list ("the secret is:", then a bullet for
    each of "scoped to its namespace" and "only readable by the system pods"), as one
    sentence: the lead-in, then its items without their full stops. It says what the
    sentence said, and only the items tell whether it says it still. For a passage that
    is the lead-in or some of its items, when the rest of the list says words of the
    quote that the passage does not (an item quoted whole, "Recovery: ...", is no
    sentence split); else None.

    An item is read while it is mostly the quote's words (an item put in among them,
    "JSON format" beside "URI format", is one); the first that is not ends the list as
    far as the quote goes."""
    if _leads_in(candidate.needle):
        return None
    wanted = set(content_lemmas(candidate.needle))
    lead = candidate.last if _leads_in(candidate.text(prepared)) else None
    if lead is None:
        lead = _lead_in_before(candidate.first, prepared, wanted)
    if lead is None:
        return None
    own = {w for unit in range(candidate.first, candidate.last + 1) for w in prepared.lemmas(unit)}
    told = (set(prepared.lemmas(lead)) - own) & wanted if lead < candidate.first else set()
    items: list[str] = []
    unit = lead + 1
    while unit < prepared.unit_count and len(items) < ITEMS_AT_MOST:
        words = set(prepared.lemmas(unit))
        if not _an_item_of(words, wanted):
            break
        told |= (words - own) & wanted
        items.append(prepared.unit_text(unit, unit).strip().rstrip(".;"))
        unit += 1
    if not told or unit <= candidate.last:
        return None
    first = min(candidate.first, lead)
    return prepared.unit_text(first, lead) + " " + "; ".join(items) + "."


def _lead_in_before(unit: int, prepared: PreparedText, wanted: set[str]) -> int | None:
    """The lead-in of the list whose item the unit is: back over items to a unit that
    ends with a colon."""
    for before in range(unit - 1, max(unit - 1 - ITEMS_AT_MOST, -1), -1):
        if _leads_in(prepared.unit_text(before, before)):
            return before
        if not _an_item_of(set(prepared.lemmas(before)), wanted):
            return None
    return None


def _an_item_of(words: set[str], wanted: set[str]) -> bool:
    """Is a unit of these words an item of the quote's list: mostly its words?"""
    return bool(words & wanted) and 2 * len(words & wanted) >= len(words)


def _leads_in(text: str) -> bool:
    return text.rstrip().endswith(":")


def similarity(
    quote: QuoteWords, prepared: PreparedText, first: int, last: int, *, at_place: bool = False
) -> float:
    """How alike a passage is to the quote, 0..1.

    The harmonic mean of the share of the quote's vocabulary the passage keeps and the
    share of the passage's vocabulary that is the quote's, words weighted by how rare
    they are on the page (so "the docs" weighs little and `max_retries` much), averaged
    with the likeness of the characters (which counts the words set aside as function
    words, and spelling). A word the passage adds weighs at most what the quote's most
    telling word does: a rewording's new word is rare on the page by construction, and
    on a long page rarer than anything the quote holds.
    """
    passage: Counter[str] = Counter()
    for unit in range(first, last + 1):
        passage.update(prepared.lemmas(unit))
    part = at_place and quote.fragment and (first == last or quote.sentences > 1)
    if part:  # a quote cut from a sentence is weighed against its own part of the passage
        in_order = [w for unit in range(first, last + 1) for w in prepared.lemmas(unit)]
        passage = Counter(_window(quote.lemmas, in_order))
    shared = quote.lemmas & passage
    kept = sum(prepared.weight(w) * n for w, n in shared.items())
    wanted = sum(prepared.weight(w) * n for w, n in quote.lemmas.items())
    heaviest = max((prepared.weight(w) for w in quote.lemmas), default=0.0)
    offered = sum(min(prepared.weight(w), heaviest) * n for w, n in passage.items())
    recall = kept / wanted if wanted else 0.0
    precision = kept / offered if offered else 0.0
    words = 2 * recall * precision / (recall + precision) if kept else 0.0
    text, needle = prepared.unit_text(first, last).lower(), quote.needle.lower()
    likeness = fuzz.partial_ratio if part and len(text) > len(needle) else fuzz.ratio
    return (2 * words + likeness(needle, text) / 100.0) / 3


def _window(wanted: Counter[str], words: list[str]) -> list[str]:
    """The run of a sentence's lemmas, as long as the quote, holding most of its words."""
    size = sum(wanted.values())
    have: Counter[str] = Counter()
    best, best_at, gained = -1, 0, 0
    for end, word in enumerate(words):
        have[word] += 1
        gained += have[word] <= wanted[word]
        if end >= size:
            old = words[end - size]
            gained -= have[old] <= wanted[old]
            have[old] -= 1
        if gained > best:
            best, best_at = gained, max(0, end + 1 - size)
    return words[best_at : best_at + size]
