"""Find a quote in a page's text and say how it stands: verified, drifted, missing, ambiguous.

Pure: strings in, frozen records out; no network, no disk, no clock.

How it decides, in order:

1. Both sides are *normalised* for what does not change meaning (Unicode form,
   whitespace, quote and dash style, invisible characters, entities, table
   pipes; markup in the quote; comment markers in source files). A map from
   normalised offsets back to the page text means every passage we report is
   the page's own characters, verbatim.
2. **verified** when the normalised quote occurs in the normalised page as one
   contiguous run starting and ending on word boundaries (`exact` when only
   whitespace differs). Never a gapped or interleaved match. A quote that occurs
   more than once is told apart by its stored :class:`Context`, else it is
   **ambiguous**.
3. Otherwise the closest passage is *located*: the quote's rarest content words
   shortlist sentences, each grows into a run of whole sentences covering the
   quote's words, and rapidfuzz reranks the few candidates.
4. The verdict comes from the words, never from the fuzzy score: **drifted**
   when the passage keeps at least :data:`DRIFT_THRESHOLD` of the quote's
   content words in the quote's order (clauses may trade places), else
   **missing**. A word-level diff then names each change; one touching a word
   that carries meaning in a guarantee (negation, modal, number or unit,
   quantifier, consistency or delivery term) sets ``meaning_changed``. Quotes
   under :data:`MIN_WORDS` words are never drifted.
5. The diff compares the quote with its own span of the passage, not with the
   whole sentences reported as ``current``: a quote cut from the middle of a
   sentence says nothing about the rest of it (a verbatim fragment verifies),
   so ", and at most 128 objects run at once" after it is no change to it.
"""

from __future__ import annotations

import html
import math
import re
import unicodedata
from array import array
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import Literal

from rapidfuzz import fuzz

VERSION = 1  # bump when a change could alter a verdict: cached checks of older versions re-run

MatchStatus = Literal["verified", "drifted", "missing", "ambiguous"]
MatchKind = Literal["exact", "normalized"]
TextKind = Literal["text", "markdown", "code"]
"""How to read a page: prose, raw markdown (markup ignored), or source (comment markers ignored)."""

DRIFT_THRESHOLD = 0.6
"""Share of the quote's content words (in order) a passage keeps to be the quote reworded.

On the case table (tests/data/match_cases.yaml) every reworded passage keeps at
least 0.67 of the quote's content words, and the best passage found for every
removed quote keeps at most 0.5 (a sentence on the same topic); 0.6 sits in
that gap. A raw similarity ratio cannot draw this line: a reordered sentence
scores 0.52 while an unrelated one on the same topic scores 0.49.
"""

MIN_WORDS = 5
"""Quotes shorter than this are too short to call a passage a rewording of them."""

CONTEXT_CHARS = 32
"""Characters of page text kept on each side of a match (as web annotation selectors do)."""

_SEED_WORDS = 8  # at most this many of the quote's rarest words find candidate sentences
_HIT_BUDGET = 4000  # ... fewer when they are common (big pages with a small vocabulary)
_SHORTLIST_UNITS = 64  # candidates by rare words, reranked by all the quote's words
_SEED_UNITS = 8  # sentences each grown into a candidate passage
_MAX_ROTATED_CLAUSES = 8  # clause orders tried when judging a reworded quote
_MAX_UNIT_CHARS = 500  # longer "sentences" (minified code, unpunctuated text) are cut
_MIN_MOVED_RUN = 3  # a run of this many words deleted here and inserted there is a move
_CONTEXT_MIN_SCORE = 60.0  # context similarity needed to pick one of several occurrences
_CONTEXT_MIN_MARGIN = 10.0  # ... and its lead over the runner-up
_OUTSIDE_WORD_COST = 0.5  # a stretch of the passage joins the quote's span only with one
#                           of the quote's words for every two words that are not


@dataclass(frozen=True)
class Context:
    """Page text just before and after a match, used to find the same place next time."""

    before: str
    after: str


@dataclass(frozen=True)
class WordChange:
    """One difference between the quote's words and the page's.

    ``insert`` is words only on the page, ``delete`` words only in the quote.
    """

    op: Literal["replace", "insert", "delete"]
    quote: str
    page: str
    meaningful: bool


@dataclass(frozen=True)
class Match:
    """Where a quote stands on one page.

    ``current`` is the page's own wording, verbatim, and equals
    ``page_text[start:end]``: the matched run for a verified or ambiguous quote
    (the first occurrence when ambiguous), whole sentences for a drifted one,
    ``None`` when missing.
    """

    status: MatchStatus
    match: MatchKind | None
    similarity: float
    current: str | None
    meaning_changed: bool
    changed_words: tuple[WordChange, ...]
    occurrences: int
    context: Context | None
    start: int | None
    end: int | None


# --------------------------------------------------------------------------
# Normalisation with an offset map back to the original text
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class _OffsetMap:
    """Where one rewrite changed the length of its input; everything between is copied."""

    out_starts: array[int]
    out_ends: array[int]
    in_starts: array[int]
    in_ends: array[int]

    def _shift_after(self, k: int) -> int:
        return self.in_ends[k] - self.out_ends[k] if k >= 0 else 0

    def to_input_start(self, i: int) -> int:
        k = bisect_right(self.out_starts, i) - 1
        if k >= 0 and i < self.out_ends[k]:
            return self.in_starts[k]
        return i + self._shift_after(k)

    def to_input_end(self, j: int) -> int:
        if j <= 0:
            return 0
        k = bisect_right(self.out_starts, j - 1) - 1
        if k >= 0 and j - 1 < self.out_ends[k]:
            return self.in_ends[k]
        return j + self._shift_after(k)


_Edit = tuple[int, int, str]  # replace text[start:end] by the string


def _rewrite(
    text: str, pattern: re.Pattern[str], edits: Callable[[re.Match[str]], Iterable[_Edit]]
) -> tuple[str, _OffsetMap | None]:
    """Apply the edits proposed for each match, recording only length-changing ones in a map."""
    parts: list[str] = []
    out_starts, out_ends = array("q"), array("q")
    in_starts, in_ends = array("q"), array("q")
    pos = out_len = 0
    for match in pattern.finditer(text):
        for start, end, replacement in edits(match):
            if text[start:end] == replacement:
                continue
            parts.append(text[pos:start])
            out_len += start - pos
            if len(replacement) != end - start:
                out_starts.append(out_len)
                out_ends.append(out_len + len(replacement))
                in_starts.append(start)
                in_ends.append(end)
            parts.append(replacement)
            out_len += len(replacement)
            pos = end
    if not parts:
        return text, None
    parts.append(text[pos:])
    new_text = "".join(parts)
    if not out_starts:
        return new_text, None
    return new_text, _OffsetMap(out_starts, out_ends, in_starts, in_ends)


def _whole(replacement: str) -> Callable[[re.Match[str]], list[_Edit]]:
    return lambda m: [(m.start(), m.end(), replacement)]


_INVISIBLE = "\u00ad\u180e\u200b\u200c\u200d\u2060\ufeff"
_SUPERSCRIPTS = str.maketrans(
    {c: "^" + d for c, d in zip("⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻", "0123456789+-", strict=True)}
)
_DROP_INVISIBLE = str.maketrans(dict.fromkeys(_INVISIBLE))
_LINE_BREAKS = "\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029"
_ONE_TO_ONE = str.maketrans(
    {
        **dict.fromkeys("‘’‚‛ʼ", "'"),
        **dict.fromkeys("“”„‟", '"'),
        **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212\u2e3a\u2e3b\ufe58\ufe63", "-"),
        **dict.fromkeys(_LINE_BREAKS, "\n"),
        **{c: " " for c in map(chr, range(0x3001)) if c.isspace() and c not in _LINE_BREAKS},
    }
)

_NON_ASCII_RUN = re.compile(r"[\x00-\x7f]?[^\x00-\x7f]+")
_ENTITY = re.compile(r"&(?:#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
_COLLAPSE_WS = re.compile(r"[ \t\n\r\f\v]+")


def _clean_chars(run: str) -> str:
    """Superscripts as ``^2`` (so 10² is not 102), then NFKC, then no invisible characters."""
    return unicodedata.normalize("NFKC", run.translate(_SUPERSCRIPTS)).translate(_DROP_INVISIBLE)


def _unicode_edits(m: re.Match[str]) -> list[_Edit]:
    """Clean a non-ASCII run one character (with its combining marks) at a time.

    Small pieces keep the offset map fine-grained, so a quote ending at "…"
    maps back to the ellipsis and not to the curly quote after it.
    """
    run, offset = m.group(), m.start()
    edits: list[_Edit] = []
    start = 0
    while start < len(run):
        end = start + 1
        while end < len(run) and unicodedata.combining(run[end]):
            end += 1
        piece = run[start:end]
        cleaned = _clean_chars(piece)
        if cleaned != piece:
            edits.append((offset + start, offset + end, cleaned))
        start = end
    return edits


def _entity_edits(m: re.Match[str]) -> list[_Edit]:
    return [(m.start(), m.end(), _clean_chars(html.unescape(m.group())))]


_MARKUP = re.compile(
    r"""
      (?P<image>!\[(?P<image_text>[^\]\n]*)\]\([^)\n]*\))
    | (?P<link>\[(?P<link_text>[^\]\n]+)\]
        (?:\((?:[^()\s]|\([^()\s]*\))*(?:\s+"[^"\n]*")?\)|\[[^\]\n]*\]))
    | (?P<code>(?P<ticks>`+)(?P<code_text>[^`\n](?:.*?[^`\n])??)(?P=ticks)(?!`))
    | (?P<strong>(?P<sd>\*\*|__)(?=[^\s*_])(?P<strong_text>[^\n]*?[^\s*_])(?P=sd))
    | (?P<em>(?<![\w*])\*(?=[^\s*])(?P<em_text>[^\n]*?[^\s*])\*(?![\w*])
        |(?<![\w_])_(?=[^\s_])(?P<em2_text>[^\n]*?[^\s_])_(?![\w_]))
    | (?P<strike>~~(?=\S)(?P<strike_text>[^\n]*?\S)~~)
    | (?P<sup><sup>(?P<sup_text>[^<\n]*)</sup>)
    | (?P<br><br\s*/?>)
    | (?P<tag></?(?:a|abbr|b|cite|code|del|em|i|ins|kbd|mark|q|s|samp|small|span|strong|sub|tt
        |u|var)(?:\s[^<>\n]*)?>)
    """,
    re.VERBOSE | re.IGNORECASE,
)


_MARKUP_TEXT = {
    "image": ("image_text",),
    "link": ("link_text",),
    "code": ("code_text",),
    "strong": ("strong_text",),
    "em": ("em_text", "em2_text"),
    "strike": ("strike_text",),
    "sup": ("sup_text",),
}


def _markup_edits(m: re.Match[str]) -> list[_Edit]:
    """Strip the delimiters of inline markup, keeping the text between them untouched."""
    kind = m.lastgroup or ""
    if kind not in _MARKUP_TEXT:
        return [(m.start(), m.end(), " " if kind == "br" else "")]
    inner = next(g for g in _MARKUP_TEXT[kind] if m.group(g) is not None)
    opening = "^" if kind == "sup" else ""
    return [(m.start(), m.start(inner), opening), (m.end(inner), m.end(), "")]


_COMMENT_MARKER = re.compile(
    r"^[ \t]*(?:/\*\*?|\*/|\*(?![*/])|//+|#+)|[ \t]*\*/[ \t]*$|(?<=[ \t])(?://+|#+(?=[ \t]))",
    re.MULTILINE,
)


_GAP_KEEPING_LINES = re.compile(r"[ \n|]{2,}|\|")  # a lone line break stays
_GAP_FLAT = re.compile(r"[ \n|]{2,}|[|\n]")


def _gap_edits(text: str, keep_lines: bool) -> Callable[[re.Match[str]], list[_Edit]]:
    """Collapse a run of spaces, line breaks and free-standing table pipes into one gap."""

    def is_gap_at(i: int) -> bool:
        return i < 0 or i >= len(text) or text[i] in " \n"

    def edits(m: re.Match[str]) -> list[_Edit]:
        run = m.group()
        if "|" not in run:
            return [(m.start(), m.end(), "\n" if keep_lines and "\n" in run else " ")]
        out: list[str] = []
        gap: list[str] = []
        for i in range(m.start(), m.end()):
            char = text[i]
            if char != "|" or (is_gap_at(i - 1) and is_gap_at(i + 1)):
                gap.append(char)
                continue
            if gap:
                out.append("\n" if keep_lines and "\n" in gap else " ")
                gap = []
            out.append(char)
        if gap:
            out.append("\n" if keep_lines and "\n" in gap else " ")
        return [(m.start(), m.end(), "".join(out))]

    return edits


def _normalize_once(
    text: str, kind: TextKind, *, markup: bool, keep_lines: bool
) -> tuple[str, list[_OffsetMap]]:
    """One pass of every normalisation step, with the offset maps it produced (in order)."""
    maps: list[_OffsetMap] = []

    def step(pattern: re.Pattern[str], edits: Callable[[re.Match[str]], Iterable[_Edit]]) -> None:
        nonlocal text
        text, offset_map = _rewrite(text, pattern, edits)
        if offset_map is not None:
            maps.append(offset_map)

    if not text.isascii():
        step(_NON_ASCII_RUN, _unicode_edits)
    for _ in range(8):  # "&amp;lt;" takes two rounds; stop once nothing changes
        before = text
        step(_ENTITY, _entity_edits)
        if text == before or "&" not in text:
            break
    if markup:
        for _ in range(8):  # nested markup, one layer a round
            before = text
            step(_MARKUP, _markup_edits)
            if text == before:
                break
    if kind == "code":
        step(_COMMENT_MARKER, _whole(""))
    text = text.translate(_ONE_TO_ONE)
    step(_GAP_KEEPING_LINES if keep_lines else _GAP_FLAT, _gap_edits(text, keep_lines))
    return text, maps


def normalize(text: str, *, kind: TextKind = "text") -> str:
    """The quote-side normal form: what the matcher compares. Idempotent.

    Unicode NFKC, whitespace (NBSP included) collapsed, curly quotes and all
    dashes made plain, soft hyphens and zero-width characters removed, HTML
    entities unescaped, inline markdown/HTML markup reduced to its text, free
    standing table pipes dropped; for ``kind="code"`` comment markers removed.
    Case, punctuation and wording are kept.
    """
    return _normalize_quote(text, kind, markup=True)


def _normalize_quote(text: str, kind: TextKind, *, markup: bool) -> str:
    for _ in range(8):  # steps can expose work for one another ("＆amp;"); run to a fixpoint
        new, _maps = _normalize_once(text, kind, markup=markup, keep_lines=False)
        new = new.strip()
        if new == text:
            break
        text = new
    return text


# --------------------------------------------------------------------------
# Words: tokens, stems, meaning-carrying words
# --------------------------------------------------------------------------

_TOKEN = re.compile(r"\w+(?:['.,\-]\w+)*%?|%")
_CLAUSE_BREAK = re.compile(r"[,;:(]|\s-\s|--")
_SPAN_BREAK = re.compile(r"[.,;:!?()\[\]]|\s-\s|--")  # between two words: a clause ends


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS = _words(
    """a about above after again against all also am an and any are as at be because been before
    being below between both but by can could did do does doing down during each either else even
    every few for from further had has have having he her here hers him his how however i if in
    into is it its itself just let may me might more most must my need neither no nor not of off
    often on once one only or other our ours out over own per same shall she should so some such
    than that the their theirs them then there these they this those through thus to too under
    until up upon us very via was we were what when where whether which while who whom whose why
    will with within without would yet you your yours"""
)

_NEGATIONS = _words("not no never cannot without none nor neither nothing nobody nowhere n't")
_MODALS = _words(
    """must may might should shall can could will would need needs needed required require
    requires optional optionally mandatory"""
)
_NUMBER_WORDS = _words(
    """zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy eighty
    ninety hundred thousand million billion half double twice"""
)
_UNITS = _words(
    """ms s sec secs second seconds min mins minute minutes h hr hrs hour hours day days week weeks
    ns µs μs kb mb gb tb kib mib gib tib b byte bytes % percent"""
)
_QUANTIFIERS = _words(
    """all every each any some most least only always sometimes usually often rarely few many
    none several both either"""
)
_CONSISTENCY = _words(
    """strongly strong eventually eventual consistent consistency inconsistent atomic atomically
    atomicity serializable linearizable at-least-once at-most-once exactly-once durable durably
    durability idempotent idempotency guaranteed guarantee guarantees ordered ordering unordered
    synchronous synchronously asynchronous asynchronously transactional"""
)
_MEANING_WORDS = _NEGATIONS | _MODALS | _NUMBER_WORDS | _UNITS | _QUANTIFIERS | _CONSISTENCY
_MEANING_PHRASES: tuple[tuple[str, ...], ...] = (
    ("at", "most"),
    ("at", "least"),
    ("up", "to"),
    ("no", "more", "than"),
    ("more", "than"),
    ("less", "than"),
    ("fewer", "than"),
)
_NEGATING_PREFIXES = ("un", "non", "non-", "in", "im", "dis")


def _tokens(text: str) -> list[str]:
    return _TOKEN.findall(text)


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """A crude stem so that "requests", "requested" and "request" count as one word."""
    word = word.lower()
    word = word.removesuffix("'s")
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith("ed"):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    return word


def _content_stems(tokens: Iterable[str]) -> Counter[str]:
    return Counter(_stem(t) for t in tokens if t.lower() not in _STOPWORDS)


def _word_count(normalized: str) -> int:
    return len(_tokens(normalized))


def _is_meaning_word(token: str) -> bool:
    low = token.lower()
    return low in _MEANING_WORDS or low.endswith("n't") or any(c.isdigit() for c in low)


def _meaning_flags(lowered: Sequence[str]) -> list[bool]:
    """Which token positions carry meaning, phrases such as "at most" included."""
    flags = [_is_meaning_word(t) for t in lowered]
    for phrase in _MEANING_PHRASES:
        width = len(phrase)
        for i in range(len(lowered) - width + 1):
            if tuple(lowered[i : i + width]) == phrase:
                flags[i : i + width] = [True] * width
    return flags


def _negates(a: str, b: str) -> bool:
    """True for pairs such as able/unable or blocking/non-blocking."""
    a, b = a.lower(), b.lower()
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and any(long == prefix + short for prefix in _NEGATING_PREFIXES)


def content_kept(quote: str, passage: str) -> float:
    """Share of the quote's content words (stopwords excluded) the passage keeps, in order.

    This is the drifted-or-missing measure: a passage keeping at least
    :data:`DRIFT_THRESHOLD` is the quote reworded. Swapped clauses still count.
    """
    return _ordered_share(normalize(quote), _tokens(normalize(passage)))


def _kept_share(quote_tokens: list[str], passage_tokens: list[str]) -> float:
    wanted = _content_stems(quote_tokens) or Counter(_stem(t) for t in quote_tokens)
    if not wanted:
        return 0.0
    found = Counter(_stem(t) for t in passage_tokens)
    return sum((wanted & found).values()) / sum(wanted.values())


# --------------------------------------------------------------------------
# Word diff
# --------------------------------------------------------------------------


def word_diff(quote: str, passage: str) -> tuple[WordChange, ...]:
    """What differs between the quote's words and its span of the passage, judged for meaning.

    Words of the passage beyond the quote's span (the rest of a sentence the
    quote was cut from) are no change to it; see :func:`_aligned_span`.
    """
    return _span_diff(_tokens(normalize(quote)), normalize(passage))


def _span_diff(quote_tokens: list[str], passage: str) -> tuple[WordChange, ...]:
    page_tokens, breaks = _tokens_and_breaks(passage)
    first, end = _aligned_span(quote_tokens, page_tokens, breaks)
    return _diff_tokens(quote_tokens, page_tokens[first:end])


def _tokens_and_breaks(text: str) -> tuple[list[str], list[bool]]:
    """The words, and before each word (and after the last) whether a clause ends there."""
    tokens: list[str] = []
    breaks = [True]
    last_end = 0
    for m in _TOKEN.finditer(text):
        if tokens:
            breaks.append(_SPAN_BREAK.search(text, last_end, m.start()) is not None)
        tokens.append(m.group())
        last_end = m.end()
    if tokens:
        breaks.append(True)
    return tokens, breaks


def _aligned_span(
    quote_tokens: list[str], page_tokens: list[str], breaks: list[bool]
) -> tuple[int, int]:
    """The passage's words ``[first, end)`` the quote lines up with: its own span.

    The densest run of the quote's words is its span; a meaning word next to
    it that lines up with none of the quote's words (", and at most 128 ...")
    belongs to the rest of the sentence. A first or last quote word that was
    replaced reaches as many words past the span, within its clause, so
    "Never retry" against "..., so always retry" reads as never -> always.
    """
    quote = [_stem(t) for t in quote_tokens]
    page = [_stem(t) for t in page_tokens]
    first, end = _densest_window(Counter(quote), page)
    if first == end:
        return 0, len(page)
    lead, trail = _unaligned_edges(quote, page[first:end])
    for _ in range(lead):
        if breaks[first]:
            break
        first -= 1
    for _ in range(trail):
        if breaks[end]:
            break
        end += 1
    return first, end


def _densest_window(wanted: Counter[str], page: list[str]) -> tuple[int, int]:
    """The run of page words scoring best: +1 per quote word, minus a cost per other word.

    A quote word counts as often as the quote has it. Linear: the best run of
    the quote's length anchors it; its edges are trimmed to quote words, then
    it grows to whichever end on each side scores best.
    """
    width = min(sum(wanted.values()), len(page))
    count: Counter[str] = Counter()
    gains = best_gains = best_first = best_end = 0
    for end, stem in enumerate(page):
        count[stem] += 1
        gains += count[stem] <= wanted[stem]
        if end >= width:
            old = page[end - width]
            gains -= count[old] <= wanted[old]
            count[old] -= 1
        if gains > best_gains:
            best_gains, best_first, best_end = gains, max(0, end + 1 - width), end + 1
    if not best_gains:
        return 0, 0
    first, end = best_first, best_end
    used = Counter(page[first:end])
    while used[page[first]] > wanted[page[first]]:
        used[page[first]] -= 1
        first += 1
    while used[page[end - 1]] > wanted[page[end - 1]]:
        used[page[end - 1]] -= 1
        end -= 1
    end = _grown(page, wanted, used, end, 1)
    first = _grown(page, wanted, used, first, -1)
    return first, end


def _grown(page: list[str], wanted: Counter[str], used: Counter[str], edge: int, step: int) -> int:
    """Move one edge of a run outwards (``step`` -1 or 1) to where the run scores best.

    ``used`` counts the quote words the run holds, the ones gained included.
    """
    score = best = 0.0
    best_edge, kept = edge, 0
    taken: list[str] = []
    at = edge if step > 0 else edge - 1
    while 0 <= at < len(page):
        stem = page[at]
        used[stem] += 1
        taken.append(stem)
        score += 1.0 if used[stem] <= wanted[stem] else -_OUTSIDE_WORD_COST
        if score > best:
            best, best_edge, kept = score, at + max(step, 0), len(taken)
        at += step
    for stem in taken[kept:]:
        used[stem] -= 1
    return best_edge


def _unaligned_edges(quote: list[str], window: list[str]) -> tuple[int, int]:
    """How many of the quote's first and last words line up with no word of the window."""
    opcodes = SequenceMatcher(None, quote, window, autojunk=False).get_opcodes()
    matched = {i for tag, i1, i2, _, _ in opcodes if tag == "equal" for i in range(i1, i2)}
    q_free = [i for tag, i1, i2, _, _ in opcodes if tag != "equal" for i in range(i1, i2)]
    p_free = [j for tag, _, _, j1, j2 in opcodes if tag != "equal" for j in range(j1, j2)]
    matched |= _moved_positions(quote, window, q_free, p_free)[0]
    if not matched:
        return 0, 0
    return min(matched), len(quote) - 1 - max(matched)


def _moved_positions(
    quote_low: list[str], page_low: list[str], q_free: list[int], p_free: list[int]
) -> tuple[set[int], set[int]]:
    """Positions of words that were moved (a run deleted in one place, inserted in another)."""
    matcher = SequenceMatcher(
        None, [quote_low[i] for i in q_free], [page_low[j] for j in p_free], autojunk=False
    )
    moved_q: set[int] = set()
    moved_p: set[int] = set()
    for block in matcher.get_matching_blocks():
        if block.size >= _MIN_MOVED_RUN:
            moved_q.update(q_free[block.a : block.a + block.size])
            moved_p.update(p_free[block.b : block.b + block.size])
    return moved_q, moved_p


def _diff_tokens(quote_tokens: list[str], page_tokens: list[str]) -> tuple[WordChange, ...]:
    quote_low = [t.lower() for t in quote_tokens]
    page_low = [t.lower() for t in page_tokens]
    opcodes = [
        op
        for op in SequenceMatcher(None, quote_tokens, page_tokens, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    q_free = [i for _, i1, i2, _, _ in opcodes for i in range(i1, i2)]
    p_free = [j for _, _, _, j1, j2 in opcodes for j in range(j1, j2)]
    moved_q, moved_p = _moved_positions(quote_low, page_low, q_free, p_free)
    q_flags, p_flags = _meaning_flags(quote_low), _meaning_flags(page_low)

    def meaning(
        low: list[str], flags: list[bool], moved: set[int], lo: int, hi: int
    ) -> Counter[str]:
        return Counter(low[i] for i in range(lo, hi) if flags[i] and i not in moved)

    changes = []
    for tag, i1, i2, j1, j2 in opcodes:
        meaningful = meaning(quote_low, q_flags, moved_q, i1, i2) != meaning(
            page_low, p_flags, moved_p, j1, j2
        ) or any(_negates(a, b) for a in quote_low[i1:i2] for b in page_low[j1:j2])
        op: Literal["replace", "insert", "delete"] = (
            "replace" if tag == "replace" else "delete" if tag == "delete" else "insert"
        )
        changes.append(
            WordChange(op, " ".join(quote_tokens[i1:i2]), " ".join(page_tokens[j1:j2]), meaningful)
        )
    return tuple(changes)


# --------------------------------------------------------------------------
# A page prepared once, searched many times
# --------------------------------------------------------------------------

_UNIT_BREAK = re.compile(r"[.!?][\"')\]]* (?=[\"'(\[`]?[A-Z0-9`])|\n")  # ends on the cut


class PreparedText:
    """A page's text normalised once, with the map back to its own characters.

    Build it with :func:`prepare` and pass it to :func:`locate` for every quote
    checked on that page. Sentence boundaries and a lower-cased copy are
    computed on first need.
    """

    __slots__ = ("_flat", "_lower", "_maps", "_stems", "_units", "kind", "normalized", "text")

    def __init__(self, text: str, kind: TextKind) -> None:
        self.text = text
        self.kind: TextKind = kind
        self.normalized, self._maps = _normalize_once(
            text, kind, markup=kind == "markdown", keep_lines=True
        )
        self._flat = self.normalized.replace("\n", " ")
        self._lower: str | None = None
        self._units: tuple[list[int], list[int]] | None = None
        self._stems: dict[int, Counter[str]] = {}

    @property
    def flat(self) -> str:
        """The normalised text on one line: what quotes are searched in (same offsets)."""
        return self._flat

    # -- offsets -----------------------------------------------------------

    def original_span(self, start: int, end: int) -> tuple[int, int]:
        """Offsets in the page text of the normalised run ``[start, end)``."""
        for offset_map in reversed(self._maps):
            start, end = offset_map.to_input_start(start), offset_map.to_input_end(end)
        return start, end

    def context_at(self, start: int, end: int) -> Context:
        """The page's own text around ``text[start:end]``."""
        return Context(
            self.text[max(0, start - CONTEXT_CHARS) : start], self.text[end : end + CONTEXT_CHARS]
        )

    # -- exact search ------------------------------------------------------

    def occurrences(self, needle: str) -> list[tuple[int, int]]:
        """Every place the normalised needle occurs on word boundaries (normalised offsets)."""
        flat, found, width = self._flat, [], len(needle)
        if not needle:
            return []
        at = flat.find(needle)
        while at != -1:
            if self._on_boundaries(at, at + width, needle):
                found.append((at, at + width))
            at = flat.find(needle, at + 1)
        return found

    def _on_boundaries(self, start: int, end: int, needle: str) -> bool:
        flat = self._flat
        if _is_word_char(needle[0]) and start > 0 and _is_word_char(flat[start - 1]):
            return False
        return not (_is_word_char(needle[-1]) and end < len(flat) and _is_word_char(flat[end]))

    # -- sentences ---------------------------------------------------------

    @property
    def units(self) -> tuple[list[int], list[int]]:
        """Starts and ends (normalised offsets) of sentences, lines and over-long pieces."""
        if self._units is None:
            self._units = _split_units(self.normalized)
        return self._units

    def unit_text(self, first: int, last: int) -> str:
        starts, ends = self.units
        return self._flat[starts[first] : ends[last]]

    def unit_stems(self, index: int) -> Counter[str]:
        if index not in self._stems:
            self._stems[index] = _content_stems(_tokens(self.unit_text(index, index)))
        return self._stems[index]

    @property
    def lower(self) -> str:
        """Lower-cased flat text with the same offsets (İ is the one letter that would grow)."""
        if self._lower is None:
            lowered = self._flat.lower()
            if len(lowered) != len(self._flat):
                lowered = self._flat.replace("\u0130", "i").lower()
            self._lower = lowered if len(lowered) == len(self._flat) else self._flat
        return self._lower


def _is_word_char(char: str) -> bool:
    return char.isalnum() or char == "_"


def _split_units(text: str) -> tuple[list[int], list[int]]:
    """Cut at line breaks and sentence ends; trim spaces; cut over-long pieces at spaces."""
    cuts = [m.end() - 1 for m in _UNIT_BREAK.finditer(text)]
    starts = [0, *(cut + 1 for cut in cuts)]
    ends = [*cuts, len(text)]
    tidy = text[:1] != " " and text[-1:] != " "  # inner cuts never leave spaces (gaps are one)
    if tidy and all(
        0 < end - start <= _MAX_UNIT_CHARS for start, end in zip(starts, ends, strict=True)
    ):
        return starts, ends
    kept_starts: list[int] = []
    kept_ends: list[int] = []
    for start, end in zip(starts, ends, strict=True):
        _add_unit(text, start, end, kept_starts, kept_ends)
    return kept_starts, kept_ends


def _add_unit(text: str, start: int, end: int, starts: list[int], ends: list[int]) -> None:
    """Record ``text[start:end]`` trimmed of spaces, cut into pieces if it is over-long."""
    while start < end and text[start] == " ":
        start += 1
    while end > start and text[end - 1] == " ":
        end -= 1
    while end - start > _MAX_UNIT_CHARS:
        cut = text.rfind(" ", start + 1, start + _MAX_UNIT_CHARS)
        if cut == -1:
            cut = start + _MAX_UNIT_CHARS
        starts.append(start)
        ends.append(cut)
        start = cut + 1 if text[cut] == " " else cut
    if end > start:
        starts.append(start)
        ends.append(end)


def prepare(page_text: str, *, kind: TextKind = "text") -> PreparedText:
    """Normalise a page once so that many quotes can be located on it cheaply."""
    return PreparedText(page_text, kind)


# --------------------------------------------------------------------------
# locate
# --------------------------------------------------------------------------


def locate(quote: str, page: str | PreparedText, *, context: Context | None = None) -> Match:
    """Find ``quote`` in the page and classify it (see the module docstring)."""
    prepared = page if isinstance(page, PreparedText) else prepare(page)
    forms = _quote_forms(quote, prepared.kind)
    if not forms:
        return _missing(0.0)
    for needle in forms:
        places = prepared.occurrences(needle)
        if places:
            return _found(quote, places, prepared, context)
    if _word_count(forms[0]) < MIN_WORDS:
        return _missing(0.0)
    return _closest(forms[0], prepared)


def _quote_forms(quote: str, kind: TextKind) -> list[str]:
    """The quote with markup reduced to text, then as written (a page may show markup literally)."""
    forms = [
        _normalize_quote(quote, kind, markup=True),
        _normalize_quote(quote, kind, markup=False),
    ]
    return [f for i, f in enumerate(forms) if f and f not in forms[:i]]


def _missing(similarity: float) -> Match:
    return Match("missing", None, similarity, None, False, (), 0, None, None, None)


def _found(
    quote: str, places: list[tuple[int, int]], prepared: PreparedText, context: Context | None
) -> Match:
    chosen = places[0] if len(places) == 1 else _pick_by_context(places, prepared, context)
    start, end = prepared.original_span(*(chosen or places[0]))
    current = prepared.text[start:end]
    if chosen is None:
        return Match("ambiguous", None, 1.0, current, False, (), len(places), None, start, end)
    exact = _COLLAPSE_WS.sub(" ", current).strip() == _COLLAPSE_WS.sub(" ", quote).strip()
    return Match(
        "verified",
        "exact" if exact else "normalized",
        1.0,
        current,
        False,
        (),
        len(places),
        prepared.context_at(start, end),
        start,
        end,
    )


def _pick_by_context(
    places: list[tuple[int, int]], prepared: PreparedText, context: Context | None
) -> tuple[int, int] | None:
    """The one occurrence whose surroundings clearly best match the stored context, if any."""
    if context is None:
        return None
    before = _normalize_quote(context.before, prepared.kind, markup=False)
    after = _normalize_quote(context.after, prepared.kind, markup=False)
    if not before and not after:
        return None
    flat = prepared.flat
    scored = []
    for start, end in places:
        sides = []
        if before:
            sides.append(fuzz.ratio(before, flat[max(0, start - len(before) - 1) : start].strip()))
        if after:
            sides.append(fuzz.ratio(after, flat[end : end + len(after) + 1].strip()))
        scored.append((sum(sides) / len(sides), (start, end)))
    scored.sort(key=lambda item: item[0], reverse=True)
    best_score, best = scored[0]
    if best_score < _CONTEXT_MIN_SCORE or best_score - scored[1][0] < _CONTEXT_MIN_MARGIN:
        return None
    return best


@dataclass(frozen=True)
class _Candidate:
    first: int
    last: int
    kept: float
    similarity: float

    @property
    def score(self) -> float:
        return self.kept + self.similarity


def _closest(needle: str, prepared: PreparedText) -> Match:
    """Locate the best passage for a quote that does not occur, then judge it by its words."""
    quote_tokens = _tokens(needle)
    wanted = _content_stems(quote_tokens) or Counter(_stem(t) for t in quote_tokens)
    seeds = _seed_units(wanted, prepared)
    if not seeds:
        return _missing(0.0)
    spans = {_grow(seed, wanted, prepared, len(needle)) for seed in seeds}
    best = max(
        (_score(needle, quote_tokens, first, last, prepared) for first, last in spans),
        key=lambda c: (c.score, c.first - c.last, -c.first),
    )
    best = _trim(best, needle, quote_tokens, prepared)
    passage_tokens = _tokens(prepared.unit_text(best.first, best.last))
    if not _same_sentence(needle, passage_tokens):
        return _missing(round(best.similarity, 4))
    starts, ends = prepared.units
    start, end = prepared.original_span(starts[best.first], ends[best.last])
    changes = _span_diff(quote_tokens, prepared.unit_text(best.first, best.last))
    return Match(
        "drifted",
        None,
        round(best.similarity, 4),
        prepared.text[start:end],
        any(c.meaningful for c in changes),
        changes,
        0,
        prepared.context_at(start, end),
        start,
        end,
    )


def _same_sentence(needle: str, passage_tokens: list[str]) -> bool:
    """Is the passage the quote reworded, or only a passage sharing some of its words?"""
    return _ordered_share(needle, passage_tokens) >= DRIFT_THRESHOLD


def _ordered_share(needle: str, passage_tokens: list[str]) -> float:
    """Share of the quote's content words the passage keeps in the quote's order.

    Clauses may trade places ("If X, Y." reworded as "Y if X."): each rotation
    of the quote's clauses is tried when the plain order falls short. A passage
    that merely shares a topic's vocabulary holds those words scattered.
    """
    clauses = _clause_stems(needle)
    total = sum(len(clause) for clause in clauses)
    if not total:
        return 0.0
    passage = [_stem(t) for t in passage_tokens]
    best = _lcs_length([s for clause in clauses for s in clause], passage)
    if best < total and len(clauses) <= _MAX_ROTATED_CLAUSES:
        for k in range(1, len(clauses)):
            rotated = [s for clause in clauses[k:] + clauses[:k] for s in clause]
            best = max(best, _lcs_length(rotated, passage))
    return best / total


def _clause_stems(text: str) -> list[list[str]]:
    """Content-word stems of each clause (clauses end at , ; : and dashes)."""
    clauses: list[list[str]] = [[]]
    every: list[str] = []
    last_end = 0
    for m in _TOKEN.finditer(text):
        if clauses[-1] and _CLAUSE_BREAK.search(text, last_end, m.start()):
            clauses.append([])
        last_end = m.end()
        token = m.group()
        every.append(_stem(token))
        if token.lower() not in _STOPWORDS:
            clauses[-1].append(_stem(token))
    if not any(clauses):
        return [every]  # a quote of stopwords only: every word counts
    return [clause for clause in clauses if clause]


def _lcs_length(first: list[str], second: list[str]) -> int:
    previous = [0] * (len(second) + 1)
    for word in first:
        current = [0]
        for j, other in enumerate(second):
            current.append(previous[j] + 1 if word == other else max(previous[j + 1], current[j]))
        previous = current
    return previous[-1]


def _seed_units(wanted: Counter[str], prepared: PreparedText) -> list[int]:
    """The shortlist: sentences holding the quote's rarest words, reranked by all its words."""
    lower = prepared.lower
    counts = {stem: lower.count(stem) for stem in wanted if len(stem) > 1}
    rare = _rarest(counts)
    if not rare:
        return []
    starts, _ends = prepared.units
    scores: dict[int, float] = {}
    for stem in rare:
        weight = 1.0 / math.log(2.0 + counts[stem])
        for unit in {bisect_right(starts, at) - 1 for at in _word_starts(lower, stem)}:
            scores[unit] = scores.get(unit, 0.0) + weight
    scores.pop(-1, None)
    ranked = sorted(scores, key=lambda u: (-scores[u], u))
    shortlist = ranked[:_SHORTLIST_UNITS]
    return sorted(shortlist, key=lambda u: (-_overlap(prepared.unit_stems(u), wanted), u))[
        :_SEED_UNITS
    ]


def _word_starts(text: str, prefix: str) -> Iterator[int]:
    """Offsets where a word starting with ``prefix`` begins (plain find: faster than a regex)."""
    at = text.find(prefix)
    while at != -1:
        if at == 0 or not _is_word_char(text[at - 1]):
            yield at
        at = text.find(prefix, at + 1)


def _rarest(counts: dict[str, int]) -> list[str]:
    """The rarest present words, as many as fit the hit budget (always at least two)."""
    chosen: list[str] = []
    total = 0
    for count, _, stem in sorted((n, -len(stem), stem) for stem, n in counts.items() if n):
        if len(chosen) >= _SEED_WORDS or (len(chosen) >= 2 and total + count > _HIT_BUDGET):
            break
        chosen.append(stem)
        total += count
    return chosen


def _overlap(stems: Counter[str], wanted: Counter[str]) -> int:
    return sum((stems & wanted).values())


def _grow(seed: int, wanted: Counter[str], prepared: PreparedText, width: int) -> tuple[int, int]:
    """Extend a sentence to its neighbours while they add quote words not yet covered.

    A neighbour adding nothing (a heading, a line of stopwords) may be stepped
    over when the sentence after it adds words. The passage stays within about
    twice the quote's length, or the seed sentence and the quote's length more
    (a quote may run from the end of a long sentence into the next).
    """
    starts, ends = prepared.units
    limit = max(2 * width, ends[seed] - starts[seed] + width) + 100
    wanted_stems = set(wanted)
    first = last = seed
    covered = set(prepared.unit_stems(seed)) & wanted_stems
    while True:
        options = []
        for side in (-1, 1):
            added: set[str] = set()
            for step in (1, 2):
                unit = (first if side < 0 else last) + side * step
                if not 0 <= unit < len(starts):
                    break
                if ends[max(last, unit)] - starts[min(first, unit)] > limit:
                    break
                added |= (set(prepared.unit_stems(unit)) & wanted_stems) - covered
                if added:
                    options.append((len(added), -step, unit, added))
                    break
        if not options:
            return first, last
        _, _, unit, added = max(options, key=lambda option: option[:3])
        covered |= added
        first, last = min(first, unit), max(last, unit)


def _trim(
    candidate: _Candidate, needle: str, quote_tokens: list[str], prepared: PreparedText
) -> _Candidate:
    """Drop sentences at either end that keep none of the quote's words the rest does not."""
    best = candidate
    while best.first < best.last:
        options = [
            _score(needle, quote_tokens, best.first + 1, best.last, prepared),
            _score(needle, quote_tokens, best.first, best.last - 1, prepared),
        ]
        shorter = max(options, key=lambda c: (c.kept, c.similarity))
        if shorter.kept < best.kept:
            return best
        best = shorter
    return best


def _score(
    needle: str, quote_tokens: list[str], first: int, last: int, prepared: PreparedText
) -> _Candidate:
    text = prepared.unit_text(first, last)
    kept = _kept_share(quote_tokens, _tokens(text))
    return _Candidate(first, last, kept, _similarity(needle, text))


def _similarity(needle: str, text: str) -> float:
    """How alike, 0..1: best local fit when the passage is longer, whole-string ratio otherwise."""
    if len(text) > len(needle) and len(needle) <= 300:
        return float(fuzz.partial_ratio(needle, text)) / 100.0
    return float(fuzz.ratio(needle, text)) / 100.0
