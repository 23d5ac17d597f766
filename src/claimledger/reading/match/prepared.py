"""A page prepared once and searched for many quotes: normal form, sentences, blocks, words.

Pure. The page's text is normalised once, with the map back to its own characters; it
is cut into *units* (sentences, and the pieces of lines that hold no sentence end) and
*blocks* (a line of extracted text, or a paragraph of a raw markdown or source file),
since a quote's current wording never crosses a block boundary the quote did not. The
lemmas of every unit, and an index from lemma to units, are computed on first need,
only for quotes that are not found verbatim.
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Literal

from claimledger.reading.match.lexicon import (
    UNIT,
    figure_and_unit,
    is_content,
    lemma,
    number_value,
    tokens,
    words,
)
from claimledger.reading.match.normalize import (
    OffsetMap,
    TextKind,
    normalize_page,
    original_end,
    original_span,
)

Opcode = tuple[Literal["replace", "delete", "insert", "equal"], int, int, int, int]
"""One step of an alignment of two pages' units: what became of units [i1, i2) of the
page as read, as units [j1, j2) of the page now (difflib's opcodes)."""

ALIGNED_MOST = 2_000
"""The most units (sentences) a page and its version as read may each hold to be aligned:
aligning costs time that can grow with the cube of the length on a page built to cost
it (lines each said on one in a hundred: some 1.5 s at 2,500 units, 11 s at 5,000), and
the longest page of the drift corpora holds 1,744."""

CONTEXT_CHARS = 160
"""Page text kept on each side of a match: enough to find the same place again after the
sentences around it were edited (web annotation selectors keep 32; a reworded neighbour
needs more)."""

MAX_UNIT_CHARS = 500
"""Longer "sentences" (minified code, unpunctuated text) are cut at a space."""

_UNIT_BREAK = re.compile(r"[.!?][\"')\]]*[ \n](?=[\"'(\[`]?[A-Z0-9`])")
"""Where a sentence ends (on the cut): a full stop before a capital or a digit, and before a
lower-case word only as `_LOWER_START` allows ("e.g. the" and "etc. and" go on). Line
breaks are cut where they end a block (see :func:`block_breaks`)."""

_LOWER_START = re.compile(r"\b(\w+)\.[\"')\]]*[ \n](?=[a-z]\w* [a-z])")
"""A full stop before a lower-case word: a sentence ends there only after a whole word
that abbreviates nothing, and when the next word is a name written in lower case that
a verb or a noun follows ("... gRPC Services. etcd ensures ...")."""

_ABBREVIATED = words("etc approx incl resp esp fig vol sec ref viz")
"""Abbreviations of three letters or more ("e.g." and "i.e." end in a one-letter word)."""

_GOES_ON = words("and or but the a an of to in on for with as is are was be")
"""Words that go on with the sentence after an abbreviation's full stop."""


@dataclass(frozen=True)
class Context:
    """Page text just before and after a match, used to find the same place next time."""

    before: str
    after: str


class PreparedText:
    """A page's text normalised once, with the map back to its own characters.

    Build it with :func:`prepare` and pass it to `locate` for every quote checked on
    that page.
    """

    __slots__ = (
        "__weakref__",  # caches kept elsewhere live no longer than the page (place.py)
        "_aligned",
        "_blocks",
        "_cells",
        "_cut_for_length",
        "_flat",
        "_index",
        "_lemmas",
        "_lower",
        "_maps",
        "_units",
        "_unseen",
        "_weights",
        "kind",
        "normalized",
        "text",
    )

    def __init__(self, text: str, kind: TextKind) -> None:
        self.text = text
        self.kind: TextKind = kind
        self.normalized, self._maps = normalize_page(text, kind)
        self._flat = self.normalized.replace("\n", " ")
        self._lower: str | None = None
        self._units: tuple[list[int], list[int]] | None = None
        self._cut_for_length: set[int] = set()
        self._blocks: list[int] | None = None
        self._cells: list[int] | None = None
        self._lemmas: list[list[str]] | None = None
        self._index: dict[str, list[int]] | None = None
        self._weights: dict[str, float] | None = None
        self._unseen = 0.0
        self._aligned: tuple[PreparedText, list[Opcode]] | None = None

    @property
    def flat(self) -> str:
        """The normalised text on one line: what quotes are searched in (same offsets)."""
        return self._flat

    @property
    def maps(self) -> list[OffsetMap]:
        return self._maps

    # -- offsets -----------------------------------------------------------

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Offsets in the page text of the normalised run ``[start, end)``."""
        return original_span(self._maps, start, end)

    def context_at(self, start: int, end: int) -> Context:
        """The page's own text around ``text[start:end]``, cut at word boundaries."""
        before = self.text[max(0, start - CONTEXT_CHARS) : start]
        after = self.text[end : end + CONTEXT_CHARS]
        if start > CONTEXT_CHARS and " " in before:
            before = before[before.index(" ") + 1 :]
        if end + CONTEXT_CHARS < len(self.text) and " " in after:
            after = after[: after.rindex(" ")]
        return Context(before, after)

    # -- exact search ------------------------------------------------------

    def occurrences(self, needle: str) -> list[tuple[int, int]]:
        """Every place the normalised needle occurs on word boundaries (normalised offsets)."""
        return list(self.places(needle))

    def places(self, needle: str) -> Iterator[tuple[int, int]]:
        """The places of `occurrences`, one at a time, none overlapping the one before: a
        caller that needs one of a certain kind stops at it, however often the needle occurs.

        Each search starts past every place that cannot be the needle's: a long needle
        found again one character on, inside a run of one letter of megabytes, would cost
        its length at each character, hours for one quote. And where it overlaps the place
        before (see `_Search`), it is not searched for again at all."""
        flat, width = self._flat, len(needle)
        if not needle:
            return
        search = _Search(flat, needle)
        at = search.find(0)
        while at != -1:
            if self._starts_inside_a_word(at, needle):
                at = search.find(_word_end(flat, at))
            elif self._ends_inside_a_word(at + width, needle):
                at = search.find(max(at + 1, _word_end(flat, at + width) - width))
            else:
                yield at, at + width
                at = search.find(at + width)

    def _starts_inside_a_word(self, start: int, needle: str) -> bool:
        """True: the needle starts with a word character right after another one (so does
        every later place before that word ends)."""
        return is_word_char(needle[0]) and start > 0 and is_word_char(self._flat[start - 1])

    def _ends_inside_a_word(self, end: int, needle: str) -> bool:
        """True: the needle ends with a word character right before another one (so does
        every later place that ends before that word does)."""
        flat = self._flat
        return is_word_char(needle[-1]) and end < len(flat) and is_word_char(flat[end])

    @property
    def lower(self) -> str:
        """Lower-cased flat text with the same offsets (İ is the one letter that would grow)."""
        if self._lower is None:
            lowered = self._flat.lower()
            if len(lowered) != len(self._flat):
                lowered = self._flat.replace("\u0130", "i").lower()
            self._lower = lowered if len(lowered) == len(self._flat) else self._flat
        return self._lower

    # -- units and blocks --------------------------------------------------

    @property
    def units(self) -> tuple[list[int], list[int]]:
        """Starts and ends (normalised offsets) of sentences and block-ending lines, with
        over-long pieces cut."""
        if self._units is None:
            starts, ends, cut = split_units(self.normalized, [*self.breaks, *self._cell_edges()])
            self._units, self._cut_for_length = (starts, ends), cut
        return self._units

    def goes_on(self, unit: int) -> bool:
        """Whether the unit was cut from an over-long sentence that the next unit goes on with."""
        return unit + 1 < self.unit_count and unit in self._cut_for_length

    def _cell_edges(self) -> list[int]:
        """Where table cells meet (" | " in extracted text): a cell is a unit of its own, so
        a quote of one cell drifts to one cell, and a quote of a row to the row."""
        if self._cells is None:
            found = []
            if self.kind != "code" and " | " in self.text:
                found = self._normalized_offsets(m.start() for m in _CELL_EDGE.finditer(self.text))
            self._cells = found
        return self._cells

    def _normalized_offsets(self, originals: Iterable[int]) -> list[int]:
        """The normalised offset of the page's character at each of ascending offsets (or of
        the next kept one), each searched for from the one before: a table on one line has
        a cell edge every few characters."""
        found, low = [], 0
        for original in originals:
            low = self._first_kept_from(original, low)
            found.append(low)
        return found

    def _first_kept_from(self, original: int, low: int) -> int:
        """The first normalised offset from `low` on whose character ends past `original`
        in the page: galloped to, then bisected, so a near one is found in a few steps."""
        last = len(self.normalized)

        def before(middle: int) -> bool:
            return original_end(self._maps, middle + 1) <= original

        high, step = low, 1
        while high < last and before(high):
            low, high, step = high + 1, min(high + 1 + step, last), step * 2
        while low < high:
            middle = (low + high) // 2
            if before(middle):
                low = middle + 1
            else:
                high = middle
        return low

    @property
    def unit_count(self) -> int:
        return len(self.units[0])

    def unit_text(self, first: int, last: int) -> str:
        starts, ends = self.units
        return self._flat[starts[first] : ends[last]]

    def aligned_with(self, previous: PreparedText) -> list[Opcode]:
        """How this page's units (sentences) follow from those of `previous`, the page as
        read: runs kept, replaced, inserted, deleted (difflib's opcodes, `previous` first;
        on a page of 200 units or more, a line said on more than one in a hundred, such as
        a "Note:" in every section, ties nothing); none for a page of more than
        `ALIGNED_MOST` units. Kept for the last `previous` asked of: every quote of a page
        that changed asks, most often of the same page as read."""
        if max(self.unit_count, previous.unit_count) > ALIGNED_MOST:
            return []
        if self._aligned is None or self._aligned[0] is not previous:
            was = [previous.unit_text(unit, unit) for unit in range(previous.unit_count)]
            now = [self.unit_text(unit, unit) for unit in range(self.unit_count)]
            self._aligned = (previous, SequenceMatcher(None, was, now).get_opcodes())
        return self._aligned[1]

    def unit_at(self, offset: int) -> int:
        """The unit holding normalised offset `offset` (or the last one before it)."""
        return max(bisect_right(self.units[0], offset) - 1, 0)

    @property
    def breaks(self) -> list[int]:
        """Normalised offsets of the line breaks that end a block (see :func:`block_breaks`)."""
        if self._blocks is None:
            self._blocks = block_breaks(self.normalized, self.text, self._maps, self.kind)
        return self._blocks

    def block(self, unit: int) -> int:
        """Which block a unit is in: units of one block may form one passage."""
        return bisect_right(self.breaks, self.units[0][unit])

    def alone_in_its_block(self, unit: int) -> bool:
        """Whether a unit is a block of its own (a line, a heading), found from its two
        neighbours, not by walking a block that may be the whole page."""
        block = self.block(unit)
        before = unit > 0 and self.block(unit - 1) == block
        after = unit + 1 < self.unit_count and self.block(unit + 1) == block
        return not before and not after

    def block_units(self, unit: int) -> tuple[int, int]:
        """The first and last unit of the block a unit is in (a whole table row, say)."""
        return _run_between(self.units[0], self.breaks, self.block(unit))

    def cell_units(self, unit: int) -> tuple[int, int]:
        """The first and last unit of the table cell a unit is in (its block, if no cell)."""
        first, last = self.block_units(unit)
        edges = self._cell_edges()
        in_cell = _run_between(self.units[0], edges, bisect_right(edges, self.units[0][unit]))
        return max(first, in_cell[0]), min(last, in_cell[1])

    # -- words -------------------------------------------------------------

    def lemmas(self, unit: int) -> list[str]:
        """The content lemmas of a unit, in order."""
        if self._lemmas is None:
            self._build_index()
        assert self._lemmas is not None
        return self._lemmas[unit]

    def units_with(self, word: str) -> list[int]:
        """The units holding a content lemma."""
        if self._index is None:
            self._build_index()
        assert self._index is not None
        return self._index.get(word, [])

    def weight(self, word: str) -> float:
        """How telling a lemma is on this page: rare ones weigh more (inverse unit frequency).
        Worked out once a page, with its index: the locator asks for a word's weight many
        times for each passage it weighs."""
        if self._weights is None:
            self._build_index()
        assert self._weights is not None
        return self._weights.get(word, self._unseen)

    def _build_index(self) -> None:
        lemmas: list[list[str]] = []
        index: dict[str, list[int]] = {}
        for unit in range(self.unit_count):
            words = content_lemmas(self.unit_text(unit, unit))
            lemmas.append(words)
            for word in dict.fromkeys(words):
                index.setdefault(word, []).append(unit)
        self._lemmas, self._index = lemmas, index
        rarity = self.unit_count + 1
        self._weights = {
            word: math.log(1.0 + rarity / (len(units) + 1)) for word, units in index.items()
        }
        self._unseen = math.log(1.0 + rarity)


def content_lemmas(text: str) -> list[str]:
    """The lemmas of a text's content words, in order (all its words if it has no other),
    a quantity's however it is written (see `_quantity_lemmas`)."""
    found = tokens(text)
    content = [part for i, t in enumerate(found) if is_content(t) for part in _lemmas_at(found, i)]
    return content or [lemma(t) for t in found]


def _lemmas_at(found: list[str], index: int) -> list[str]:
    """A word's lemma; a figure written with its unit (`10s`, `2GB`) as the figure and the
    unit's name, a unit's abbreviation after a figure (`2 GB`, `5 min`) as its name, and a
    figure with thousands separators (`1,000`) without them. A short quote is found by
    these words alone: written otherwise on the page, "within 10 seconds" shared no word
    of "within 10s" and read as missing, where "within 10 minutes" was found."""
    token = found[index]
    split = figure_and_unit(token)
    if split is not None:
        return [split[0].replace(",", ""), split[1]]
    low = token.lower()
    if low in UNIT and index and number_value(found[index - 1]) is not None:
        return [UNIT[low]]
    if _GROUPED_FIGURE.fullmatch(token):
        return [token.replace(",", "")]
    return [lemma(token)]


_GROUPED_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+")


def _run_between(starts: list[int], edges: list[int], part: int) -> tuple[int, int]:
    """The first and last unit (by their `starts`) of part `part` of a text cut at `edges`:
    those starting from the part's opening edge up to its closing one, found by bisection,
    since a table on one line is one block of thousands of units."""
    first = bisect_left(starts, edges[part - 1]) if part > 0 else 0
    last = bisect_left(starts, edges[part]) - 1 if part < len(edges) else len(starts) - 1
    return first, last


class _Search:
    """The places of a needle in a text, first from an offset on, as `str.find` finds them,
    but where the place sought overlaps the last one found told from that one.

    A quote whose words start (or end) inside the page's words over and over ("a ba ba"
    on a page of "ba ba ba") is found one word on, again and again, each place refused;
    searched for again each time, it cost its length at each word of the page: 80 s for
    a quote of a few thousand words on a page of 5 MB. A needle found at `last` can only
    be found again before `last + len(needle) - period` (its shortest period) at `last`
    plus a multiple of the period, and there only if the text goes on as the needle's
    last period does: a check as long as the step, not as the needle.
    """

    __slots__ = ("_last", "_period", "needle", "text")

    def __init__(self, text: str, needle: str) -> None:
        self.text, self.needle = text, needle
        self._last = -1
        self._period: int | None = None

    def find(self, start: int) -> int:
        """The first place of the needle from `start` on (-1: none)."""
        width, last = len(self.needle), self._last
        if last != -1 and last < start < last + width:
            step = self.period
            if start <= last + width - step:
                at = last + -(-(start - last) // step) * step  # the first such place from start
                tail = self.needle[width - (at - last) :]
                if at <= last + width - step and self.text.startswith(tail, last + width):
                    self._last = at
                    return at
                start = last + width - step + 1  # none overlaps the last one more than this
        at = self.text.find(self.needle, start)
        if at != -1:
            self._last = at
        return at

    @property
    def period(self) -> int:
        """The needle's shortest period, worked out once, when a place overlaps the last."""
        if self._period is None:
            self._period = _shortest_period(self.needle)
        return self._period


def _shortest_period(text: str) -> int:
    """The least p such that text[i] == text[i + p] throughout (its length when none is
    shorter): its length less its longest border (Knuth-Morris-Pratt's failure function)."""
    border = [0] * len(text)
    length = 0
    for i in range(1, len(text)):
        while length and text[i] != text[length]:
            length = border[length - 1]
        if text[i] == text[length]:
            length += 1
        border[i] = length
    return len(text) - (border[-1] if text else 0)


def is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


_NOT_A_WORD_CHAR = re.compile(r"\W")  # \w is exactly `is_word_char`


def _word_end(text: str, offset: int) -> int:
    """The end of the run of word characters at `offset` (`offset` itself when none is)."""
    found = _NOT_A_WORD_CHAR.search(text, offset)
    return found.start() if found else len(text)


def split_units(text: str, breaks: list[int]) -> tuple[list[int], list[int], set[int]]:
    """Cut at sentence ends and at block-ending line breaks; trim; cut over-long pieces.

    Returns the units' starts and ends, and which units were cut for length alone.
    """
    stops = {m.end() - 1 for m in _UNIT_BREAK.finditer(text)}
    stops |= {m.end() - 1 for m in _LOWER_START.finditer(text) if _ends_a_sentence(text, m)}
    cuts = sorted(stops | set(breaks))
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(text)]
    kept_starts: list[int] = []
    kept_ends: list[int] = []
    cut_for_length: set[int] = set()
    for start, end in zip(starts, ends, strict=True):
        _add_unit(text, start, end, kept_starts, kept_ends, cut_for_length)
    return kept_starts, kept_ends, cut_for_length


_CELL_EDGE = re.compile(r"(?<= )\|(?= )")

_LIST_OR_HEADING = re.compile(r"\s*(?:[-*+>|#]|\d+[.)]\s|```|~~~)")
_COMMENT_LINE = re.compile(r"\s*(?://+|#+|/\*+|\*+(?!/)|--)\s?")


def block_breaks(normalized: str, text: str, maps: list[OffsetMap], kind: TextKind) -> list[int]:
    """Which line breaks of the normalised text end a block.

    Extracted text has a block a line. A raw markdown or source file wraps a paragraph
    (or a doc comment) over several lines: there a line break ends the block only at a
    blank line (an empty comment line included), before a list item, heading, table row
    or fence, or where comment gives way to code.
    """
    positions = [m.start() for m in re.finditer("\n", normalized)]
    if kind == "text":
        return positions
    return [at for at in positions if _ends_block(text, original_span(maps, at, at + 1), kind)]


def _ends_block(text: str, span: tuple[int, int], kind: TextKind) -> bool:
    """Does the page's own run of spaces behind one normalised line break end a block?"""
    start, end = span
    gap = text[start:end]
    if gap.count("\n") != 1:
        return gap.count("\n") > 1
    newline = start + gap.index("\n")
    line_start = text.rfind("\n", 0, newline) + 1
    next_end = text.find("\n", newline + 1)
    before = text[line_start:newline]
    after = text[newline + 1 : next_end if next_end != -1 else len(text)]
    if not before.strip() or not after.strip():
        return True
    if kind == "markdown":
        return bool(_LIST_OR_HEADING.match(after))
    was_comment, is_comment = _COMMENT_LINE.match(before), _COMMENT_LINE.match(after)
    if bool(was_comment) != bool(is_comment):
        return True
    if is_comment and not after[is_comment.end() :].strip():
        return True  # an empty comment line: a paragraph ends
    return not is_comment  # lines of code are each their own


def _ends_a_sentence(text: str, stop: re.Match[str]) -> bool:
    """Whether a full stop before a lower-case word ends a sentence (see `_LOWER_START`)."""
    word = stop.group(1)
    before = text[stop.start(1) - 1 : stop.start(1)] if stop.start(1) else ""
    if before in (".", "/", "-", "_") or len(word) < 3:
        return False  # "e.g.", a path, a flag, an initial or a short abbreviation
    space = text.find(" ", stop.end())  # the next word, not a copy of the rest of the page
    following = text[stop.end() : space if space != -1 else len(text)]
    return word.lower() not in _ABBREVIATED and following.isalpha() and following not in _GOES_ON


def _add_unit(
    text: str, start: int, end: int, starts: list[int], ends: list[int], cut_for_length: set[int]
) -> None:
    """Record ``text[start:end]`` trimmed of spaces, cut into pieces if it is over-long."""
    while start < end and text[start] in " \n":
        start += 1
    while end > start and text[end - 1] in " \n":
        end -= 1
    while end - start > MAX_UNIT_CHARS:
        cut = text.rfind(" ", start + 1, start + MAX_UNIT_CHARS)
        if cut == -1:
            cut = start + MAX_UNIT_CHARS
        cut_for_length.add(len(starts))
        starts.append(start)
        ends.append(cut)
        start = cut + 1 if text[cut] == " " else cut
    if end > start:
        starts.append(start)
        ends.append(end)


def prepare(page_text: str, *, kind: TextKind = "text") -> PreparedText:
    """Normalise a page once so that many quotes can be located on it cheaply."""
    return PreparedText(page_text, kind)
