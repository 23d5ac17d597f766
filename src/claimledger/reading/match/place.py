"""Where a quote used to be: its recorded neighbours found again on the page as it is now,
and what the quote filled there (a block, a cell, a row).

Pure. The locator looks for a successor first in the runs of whole units between the
anchors found here.
"""

from __future__ import annotations

import re
from bisect import bisect_left
from collections import Counter
from dataclasses import dataclass
from typing import Literal
from weakref import WeakKeyDictionary, ref

from rapidfuzz import fuzz, process

from claimledger.reading.match.normalize import normalize
from claimledger.reading.match.prepared import Context, PreparedText, content_lemmas

Scope = Literal["row", "block", "cell"] | None
"""What the quote was, whole: a table row, a block (a paragraph, a list item, a line), a
table cell; its successor is a whole one too. None: a passage of sentences."""

_ANCHOR_WIDTHS = (80, 48, 24)  # runs of the recorded text tried, to find the quote's place
_ANCHOR_MIN_SCORE = 80.0  # how alike (0..100) a reworded neighbour may be and still anchor


_BLOCK_EDGE_BEFORE = re.compile(r"(?:\n|^)[ \t]*$")
_BLOCK_EDGE_AFTER = re.compile(r"^[ \t]*(?:\n|$)")
_CELL_EDGE_BEFORE = re.compile(r" \| [ \t]*$")
_CELL_EDGE_AFTER = re.compile(r"^[ \t]* \| ")


def scope_of(quote: str, context: Context | None) -> Scope:
    """Read from the recorded neighbourhood: did the quote fill its block or its cell?"""
    if " | " in quote:
        return "row"
    if context is None:
        return None
    before, after = context.before, context.after
    cell = _CELL_EDGE_BEFORE.search(before) or _CELL_EDGE_AFTER.match(after)
    starts = _BLOCK_EDGE_BEFORE.search(before) or _CELL_EDGE_BEFORE.search(before)
    ends = _BLOCK_EDGE_AFTER.match(after) or _CELL_EDGE_AFTER.match(after)
    if starts and ends:
        return "cell" if cell else "block"
    return None


@dataclass(frozen=True)
class QuoteWords:
    """The quote as the locator weighs it: its text, its content lemmas, how many sentences
    it holds, and what it filled (see :data:`Scope`)."""

    needle: str
    lemmas: Counter[str]
    sentences: int
    scope: Scope = None
    fragment: bool = False
    said_before: tuple[str, ...] | None = None
    """The words of its sentence that stood before it when it was recorded (None when its
    neighbourhood is not known): those are no words the page put before it since."""

    @classmethod
    def of(
        cls,
        needle: str,
        *,
        scope: Scope = None,
        fragment: bool = False,
        said_before: tuple[str, ...] | None = None,
    ) -> QuoteWords:
        inner = needle.split()[:-1]  # its own last full stop ends no sentence inside it
        sentences = 1 + sum(1 for t in inner if t.endswith((".", "!", "?", ":")))
        lemmas = Counter(content_lemmas(needle))
        return cls(needle, lemmas, min(sentences, 6), scope, fragment, said_before)

    def whole(self, prepared: PreparedText, unit: int) -> tuple[int, int] | None:
        """The whole row, block or cell around a unit, when the quote was a whole one."""
        if self.scope == "cell":
            return prepared.cell_units(unit)
        if self.scope in ("row", "block"):
            return prepared.block_units(unit)
        return None


def spans_from(
    seed: int, quote: QuoteWords, prepared: PreparedText, *, forward: bool = True, back: bool = True
) -> list[tuple[int, int]]:
    """Runs of whole units around a seed, about the quote's length (one that runs across
    blocks pays for it when ranked)."""
    whole = quote.whole(prepared, seed)
    reach = quote.sentences + 1 + _short_units(seed, quote, prepared)
    spans = []
    for before in range(reach + 1 if back else 1):
        first = seed - before
        if first < 0:
            break
        for after in range(reach + 1 - before if forward else 1):
            last = seed + after
            if last >= prepared.unit_count:
                break
            if not _takes_in_a_title(first, last, quote, prepared):
                spans.append((first, last))
    return spans if whole is None else [whole, *spans]


def _takes_in_a_title(first: int, last: int, quote: QuoteWords, prepared: PreparedText) -> bool:
    """Does a run of several units take in a title (see `_is_title`) that the quote does
    not begin with: the heading of the section after a sentence, or before it? A
    sentence's successor never runs into a heading (a quote that ends without a stop may
    be a title itself)."""
    if first == last or not quote.needle.rstrip().endswith((".", "!", "?")):
        return False
    titled = [unit for unit in range(first, last + 1) if _is_title(unit, prepared)]
    if titled == [first]:  # a heading the quote began with is its own
        return not quote.needle.lower().startswith(prepared.unit_text(first, first).lower())
    return bool(titled)


def _is_title(unit: int, prepared: PreparedText) -> bool:
    """A short capitalised line of its own with no stop (see `_titled_line`), alone or
    beside one more, after a finished sentence (or first on the page): a heading, or a
    heading and its subheading; not an item of a list (three or more such lines, or a
    run that ends the page), a command or a "Default: value" line."""
    if not _titled_line(unit, prepared):
        return False
    # Two steps each way tell a run of three: a page of a thousand such lines is not
    # walked whole for each of them.
    first, last = unit, unit
    while first > 0 and unit - first < 2 and _titled_line(first - 1, prepared):
        first -= 1
    while last + 1 < prepared.unit_count and last - unit < 2 and _titled_line(last + 1, prepared):
        last += 1
    if last - first >= 2 or (last > first and last + 1 >= prepared.unit_count):
        return False  # three or more short lines, or a run ending the page: items of a list
    return first == 0 or prepared.unit_text(first - 1, first - 1).rstrip().endswith((".", "!", "?"))


def _titled_line(unit: int, prepared: PreparedText) -> bool:
    """A short line of its own that begins with a capital and holds no stop."""
    text = prepared.unit_text(unit, unit).strip()
    if text.endswith(_STOPS) or not text[:1].isupper():
        return False
    if ":" in text and not text.partition(":")[2].strip()[:1].isupper():
        return False  # "Default: us-east-1", not "Step 1: Install"
    return len(text.split()) <= _TITLE_WORDS and prepared.alone_in_its_block(unit)


_TITLE_WORDS = 8
"""A title is a line of at most this many words."""
_STOPS = (".", "!", "?", ":", ";", ",")


def _short_units(seed: int, quote: QuoteWords, prepared: PreparedText) -> int:
    """How many more units than the quote has sentences its words take from `seed` on: a
    sentence laid out as a list ("Supported engines are: / RocksDB, / LMDB, and /
    SQLite.") is a unit an item, and its last item belongs to it."""
    wanted = sum(quote.lemmas.values())
    held, unit = 0, seed
    while unit < prepared.unit_count and held < wanted and unit - seed < _MOST_ITEMS:
        held += len(prepared.lemmas(unit))
        unit += 1
    return max(0, unit - seed - quote.sentences - 1)


_MOST_ITEMS = 8
"""At most this many units are read for one sentence's words."""


def _anchor(prepared: PreparedText, side: str, *, before: bool) -> list[int]:
    """Where a recorded neighbour ends (before) or starts (after) on the page now.

    The neighbour's nearest words are looked for first, a long run then shorter ones (the
    far end of the recorded text is the likeliest to have been edited too), verbatim,
    then by likeness.
    """
    text = normalize(side, kind=prepared.kind, markup=False)
    flat = prepared.flat
    for width in _ANCHOR_WIDTHS:
        probe = text[-width:] if before else text[:width]
        probe = probe.strip()
        if len(probe.split()) < 2:
            continue
        exact: list[int] = []
        at = flat.find(probe)
        while at != -1 and len(exact) < 8:
            exact.append(at + len(probe) if before else at)
            at = flat.find(probe, at + 1)
        if exact:
            return exact
    probe = (text[-_ANCHOR_WIDTHS[0] :] if before else text[: _ANCHOR_WIDTHS[0]]).strip()
    if len(probe.split()) < 2:
        return []
    found = fuzz.partial_ratio_alignment(probe, flat, score_cutoff=_ANCHOR_MIN_SCORE)
    if found is None:
        return []
    return [found.dest_end if before else found.dest_start]


def at_place(
    quote: QuoteWords, prepared: PreparedText, context: Context | None
) -> tuple[list[tuple[int, int]], bool]:
    """Spans where the quote used to be, and whether that place is now empty."""
    if context is None or not prepared.unit_count:  # a page of no text has no places
        return [], False
    starts = _anchor(prepared, context.before, before=True) if context.before.strip() else [0]
    length = len(prepared.flat)
    ends = _anchor(prepared, context.after, before=False) if context.after.strip() else [length]
    limit = 4 * len(quote.needle) + 400
    pairs = [(a, b) for a in starts for b in ends if 0 <= b - a <= limit]
    mid_start = not ends_sentence(context.before)
    mid_end = not _starts_sentence(context.after)
    if pairs:
        a, b = min(pairs, key=lambda pair: pair[1] - pair[0])
        region = prepared.flat[a:b]
        if not any(char.isalnum() for char in region):
            return [], True
        first = _unit_after(prepared, a, inside=mid_start)
        last = _unit_before(prepared, b, inside=mid_end)
        if first > last:
            return [], True
        return _spans_within(first, last, quote, prepared), False
    if len(starts) == 1 and context.before.strip():
        first = _unit_after(prepared, starts[0], inside=mid_start)
        return spans_from(first, quote, prepared, back=False), False
    if len(ends) == 1 and context.after.strip():
        last = _unit_before(prepared, ends[0], inside=mid_end)
        return spans_from(last, quote, prepared, forward=False), False
    return [], False


def ends_sentence(before: str) -> bool:
    """Did the recorded text before the quote end a sentence (so the quote began one)?"""
    return bool(re.search(r"(?:[.!?:;][\"')\]]*\s+|\n\s*)$", before)) or not before.strip()


def quote_ends(needle: str, after: str) -> bool:
    """Did the quote end its sentence (its own full stop, or the end of its block)?"""
    return bool(re.search(r"[.!?:;][\"')\]]*$", needle)) or bool(re.match(r"\s*(?:\n|$)", after))


def _starts_sentence(after: str) -> bool:
    """Does the recorded text after the quote begin a new sentence or block?"""
    return bool(re.match(r"\s*\n|\s+[\"'(\[`]?[A-Z0-9`]", after)) or not after.strip()


_SNAP_CHARS = 8
"""An anchor found by likeness may end a few characters short of (or past) the edge of a
sentence; within this many it is taken to be that edge."""


def _unit_after(prepared: PreparedText, offset: int, *, inside: bool) -> int:
    """The unit a quote's successor begins in, after a neighbour that ended at `offset`:
    the one holding it when the quote began mid-sentence, else the next one to begin."""
    unit = prepared.unit_at(offset)
    if inside:
        return unit
    starts, ends = prepared.units
    near_end = ends[unit] - offset <= _SNAP_CHARS
    if (offset > starts[unit] + _SNAP_CHARS or near_end) and unit + 1 < prepared.unit_count:
        return unit + 1
    return unit


def _unit_before(prepared: PreparedText, offset: int, *, inside: bool) -> int:
    """The unit a quote's successor ends in, before a neighbour that began at `offset`."""
    unit = prepared.unit_at(max(offset - 1, 0))
    if inside:
        return unit
    starts, ends = prepared.units
    if offset - starts[unit] <= _SNAP_CHARS < ends[unit] - offset and unit > 0:
        return unit - 1
    return unit


def _spans_within(
    first: int, last: int, quote: QuoteWords, prepared: PreparedText
) -> list[tuple[int, int]]:
    """Every run of whole units between two anchors, each inside one block."""
    spans = []
    if quote.scope is not None:
        wholes = (quote.whole(prepared, unit) for unit in range(first, last + 1))
        spans += [whole for whole in wholes if whole is not None]
    for start in range(first, last + 1):
        for end in range(start, min(last, start + quote.sentences + 1) + 1):
            spans.append((start, end))
    return spans


REPLACED_RUN_MOST = 16
"""How many sentences the run that replaced the quote's may hold for it to count as the
quote's place; past that a section was rewritten whole, and its place says little. Chosen
on the corpora the matcher was written on, when the rule was written: 3, 8, 10, 16, 24 and
40 put 882, 886, 885, 889, 888 and 886 of their 935 statuses right (884 without it)."""


def replaced_run(
    needle: str, quote: QuoteWords, prepared: PreparedText, previous: PreparedText
) -> list[tuple[int, int]]:
    """Spans of the sentences that took the place of the quote's, by aligning the page as
    read with the page now sentence by sentence: where the run of changed sentences that
    held the quote stood, between the same unchanged sentences (or the page's edge), now
    stands this run.

    The recorded neighbourhood finds the quote's place only while the text on each side
    of it keeps its words; a page edited around the quote still has its place, held by
    whichever sentences around it did not change.
    """
    places = previous.occurrences(needle)
    if len(places) != 1:
        return []
    first, last = previous.unit_at(places[0][0]), previous.unit_at(places[0][1] - 1)
    for tag, i1, i2, j1, j2 in prepared.aligned_with(previous):
        if i1 <= first < i2:
            if tag == "replace" and last < i2 and j2 - j1 <= REPLACED_RUN_MOST:
                return _spans_within(j1, j2 - 1, quote, prepared)
            return []
    return []


def replaced_by(first: int, last: int, prepared: PreparedText, previous: PreparedText) -> range:
    """The units of the page as read that the run of changed units holding this passage
    replaced (none when the passage is new, or stands among unchanged units)."""
    for tag, i1, i2, j1, j2 in prepared.aligned_with(previous):
        if j1 <= first and last < j2:
            return range(i1, i2) if tag == "replace" else range(0)
    return range(0)


def within_one_block(needle: str, previous: PreparedText) -> bool:
    """Did the quote stand inside one block (a paragraph, a list item) on the page as it
    was read? Then its successor does too: its current wording never reaches into the
    paragraph before or after, however alike in structure."""
    places = previous.occurrences(needle)
    return bool(places) and all(
        previous.block(previous.unit_at(start)) == previous.block(previous.unit_at(end - 1))
        for start, end in places
    )


def stood_beside(text: str, needle: str, previous: PreparedText) -> bool:
    """Was this passage on the page already when the quote was read, apart from what stood
    for the quote there (`needle`: the quote, or its wording as last found)? Not when
    nothing that stood for it is on that page: then which passage was its own cannot be
    told, and its successor must not be taken for a sibling of it."""
    quoted = previous.occurrences(needle)  # in order, all as long: their ends rise too
    starts = [start for start, _ in quoted]

    def apart(start: int, end: int) -> bool:
        before = bisect_left(starts, end) - 1  # the last that begins before this place ends
        return before < 0 or quoted[before][1] <= start

    return bool(quoted) and any(apart(start, end) for start, end in previous.places(text))


def news_of(quote: QuoteWords, prepared: PreparedText, previous: PreparedText) -> set[int] | None:
    """The sentences of the page now that may say more of the quote than the page as read
    did: new or rewritten since (by the sentence-by-sentence alignment of the two),
    holding some of the quote's words, and no copy of a sentence that stood there (see
    `_Stood.copied`). None when the pages are not aligned (too long).

    When the quote was found missing on the page as read, every passage there was weighed
    and set aside; only a passage holding these sentences may be news of it.
    """
    opcodes = prepared.aligned_with(previous)
    if not opcodes:
        return None
    stood, wanted = _stood(prepared, previous), set(quote.lemmas)
    return {
        unit
        for tag, _, _, j1, j2 in opcodes
        if tag in ("replace", "insert")
        for unit in range(j1, j2)
        if wanted & set(prepared.lemmas(unit)) and not stood.copied(prepared, unit, wanted)
    }


COPIED_AT_LEAST = 85.0
"""How alike (rapidfuzz's ratio, 0..100) a sentence is to one of the page as read when it
is that one moved, said again or touched up (a full stop, a capital, a misspelling, a
figure, a word changed). "Writes do time out after 30 seconds." is 84 like "Why do writes
time out after 30 seconds?"; "Read requests time out after 30 seconds." is 89 like "Reads
time out after 30 seconds."."""


_STOOD: WeakKeyDictionary[PreparedText, _Stood] = WeakKeyDictionary()


def _stood(prepared: PreparedText, previous: PreparedText) -> _Stood:
    """The page as read, against the page now: one for all the quotes of a page, kept no
    longer than the page is. (Five quotes found missing on a rewritten page of 1,900
    sentences took 3.9 s to read again, working it out for each; 0.8 s now.)"""
    found = _STOOD.get(prepared)
    if found is None or found.previous() is not previous:
        found = _STOOD[prepared] = _Stood(previous)
    return found


class _Stood:
    """The sentences of the page as read, for telling a copy of one from news; which of
    them each sentence of the page now resembles is worked out once, for every quote."""

    def __init__(self, previous: PreparedText) -> None:
        self.previous = ref(previous)
        self.texts = [previous.unit_text(u, u).lower() for u in range(previous.unit_count)]
        self.words = [frozenset(previous.lemmas(u)) for u in range(previous.unit_count)]
        self.said: dict[str, list[int]] = {}
        for index, text in enumerate(self.texts):
            self.said.setdefault(text, []).append(index)
        self._resembled: dict[int, list[int]] = {}

    def copied(self, prepared: PreparedText, unit: int, wanted: set[str]) -> bool:
        """Is the sentence one of these moved, said again or touched up, or that one with
        words put around it ("Remember: …"), holding none of the quote's words that one
        did not? Where it adds a word of the quote, it may say more of it. One said there
        word for word is told first: a page cut into long pieces of one sentence said
        over and over took 9 s to compare each piece with every one."""
        quoted = frozenset(prepared.lemmas(unit)) & wanted
        text = prepared.unit_text(unit, unit).lower()
        if any(quoted <= self.words[index] for index in self.said.get(text, ())):
            return True
        return any(quoted <= self.words[index] for index in self._resembles(unit, text))

    def _resembles(self, unit: int, text: str) -> list[int]:
        """The sentences of the page as read this one is 85 like, or holds (7 in 10 of it)."""
        if unit not in self._resembled:
            alike = process.extract(
                text, self.texts, scorer=fuzz.ratio, score_cutoff=COPIED_AT_LEAST, limit=None
            )
            held = [
                index
                for index, old in enumerate(self.texts)
                if old and old in text and len(old) >= 0.7 * len(text)
            ]
            self._resembled[unit] = [index for _, _, index in alike] + held
        return self._resembled[unit]
