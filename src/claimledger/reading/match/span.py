"""Where a quote's words are in a passage: its words and clause breaks, its own span of
the passage, and the rest of the sentence around that span.

Pure. The densest run of the quote's words is its span; its edges reach as far as the
quote's own first and last words, or as many words as the quote had there were replaced.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from difflib import SequenceMatcher

from claimledger.reading.match.lexicon import STOPWORDS, TOKEN, figure_and_unit, lemma

Opcode = tuple[str, int, int, int, int]
"""A difflib opcode: tag, quote words [i1, i2), page words [j1, j2)."""


MIN_MOVED_RUN = 3
"""A run of this many words deleted in one place and inserted in another is a move."""


OUTSIDE_WORD_COST = 0.5
"""A stretch of the passage joins the quote's span only with one of the quote's words for
every two words that are not."""


WORD = re.compile(r"https?://[^\s<>\"')\]]*[^\s<>\"')\].,;:!?]|" + TOKEN.pattern)
"""A word as the lexicon has it, or a whole link: a link is one name, and the figures in
its path are no numbers of the claim."""


_SPAN_BREAK = re.compile(r"[.,;:!?()\[\]]|\s-\s|--")  # between two words: a clause ends


_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s*$")


def tokens_and_breaks(text: str) -> tuple[list[str], list[bool]]:
    """The words, and before each word (and after the last) whether a clause ends there."""
    found: list[str] = []
    breaks = [True]
    last_end = 0
    for m in WORD.finditer(text):
        if found:
            breaks.append(_SPAN_BREAK.search(text, last_end, m.start()) is not None)
        found.append(m.group())
        last_end = m.end()
    if found:
        breaks.append(True)
    return found, breaks


def rest_of_sentence(passage: str, page_tokens: list[str], end: int) -> list[str]:
    """The words after the span up to the end of its sentence (a qualifier appended there
    to a quote that ended at a full stop narrows what the quote said)."""
    if end >= len(page_tokens):
        return []
    spans = list(WORD.finditer(passage))
    between = passage[spans[end - 1].end() : spans[end].start()] if end else ""
    if re.search(r"[.!?]", between):
        return []
    rest: list[str] = []
    for index in range(end, len(spans)):
        rest.append(spans[index].group())
        following = (
            passage[spans[index].end() : spans[index + 1].start()] if index + 1 < len(spans) else ""
        )
        if re.search(r"[.!?]", following):
            break
    return rest


def start_of_sentence(passage: str, page_tokens: list[str], first: int) -> list[str]:
    """The words of the span's sentence before the span (a condition put before a quote
    that began a sentence, "If err == nil then ...", narrows what the quote said)."""
    if not first:
        return []
    return page_tokens[_sentence_start(passage, list(WORD.finditer(passage)), first, _STOP) : first]


def words_of_its_sentence(before: str) -> tuple[str, ...]:
    """The words at the end of `before` (the text recorded before a quote) that belong to
    the quote's sentence: back to a full stop, a colon or the start of a block, as
    `start_of_sentence` reads the page."""
    spans = list(WORD.finditer(before))
    start = _sentence_start(before, spans, len(spans), _SENTENCE_OR_BLOCK_ENDS)
    return tuple(m.group() for m in spans[start:])


def _sentence_start(text: str, spans: list[re.Match[str]], end: int, ends: re.Pattern[str]) -> int:
    """The first of the words `spans[:end]` of `text` in the sentence of the word at
    `end` (or of what follows `text`): back to a gap between words that `ends` finds."""
    start = end
    while start > 0:
        gap_end = spans[start].start() if start < len(spans) else len(text)
        if ends.search(text[spans[start - 1].end() : gap_end]):
            break
        start -= 1
    return start


_STOP = re.compile(r"[.!?:]")
_SENTENCE_OR_BLOCK_ENDS = re.compile(r"[.!?:]|\n\s*\n|\n\s*(?:[-*+>|#]|/{2,}|\d+[.)])")
"""Between two words: a sentence ends, or a block (a blank line, a line that opens a list
item, a quote, a table row, a heading or a comment); a line merely wrapped goes on. On
the page the passage is read from (`start_of_sentence`) blocks are units already, and
only `_STOP` ends a sentence."""


def starts_a_sentence(text: str) -> bool:
    """Does the quote begin a sentence: its first word capitalised? A quote that begins
    with a figure ("000 001 Zebrafinch") may be cut from anywhere."""
    first = re.search(r"\w", text)
    return first is not None and first.group().isupper()


def ends_a_sentence(text: str) -> bool:
    """Does the quote end at a full stop (or ! or ?): where a sentence ended when read."""
    return bool(_SENTENCE_END.search(text))


def aligned_span(
    quote: list[str],
    page: list[str],
    breaks: list[bool],
    quote_breaks: list[bool] | None = None,
) -> tuple[int, int]:
    """The passage's words ``[first, end)`` the quote lines up with: its own span.

    The densest run of the quote's words is its span; a meaning word next to it that
    lines up with none of the quote's words (", and at most 128 ...") belongs to the
    rest of the sentence. A first or last quote word that was replaced reaches as many
    words past the span, within its clause, so "Never retry" against "..., so always
    retry" reads as never -> always; across as many clause breaks as the quote has there
    (".full_path - str" against ".raw_path - str", "BaseDirectory::App" against
    "BaseDirectory::AppConfig").
    """
    quote_lemmas = [_aligned_as(t) for t in quote]
    page_lemmas = [_aligned_as(t) for t in page]
    first, end = _densest_window(Counter(quote_lemmas), page_lemmas)
    if first == end:
        return 0, len(page)
    lead, trail = _unaligned_edges(quote_lemmas, page_lemmas[first:end])
    if lead and quote_lemmas[0] not in STOPWORDS:
        before = page_lemmas[max(0, first - _EDGE_REACH) : first]
        if quote_lemmas[0] in before:  # words put inside the quote, after its first word
            first -= len(before) - max(i for i, w in enumerate(before) if w == quote_lemmas[0])
            lead = 0
    if trail and quote_lemmas[-1] not in STOPWORDS:
        after = page_lemmas[end : end + _EDGE_REACH]
        if quote_lemmas[-1] in after:  # words put inside the quote, before its last word
            end += after.index(quote_lemmas[-1]) + 1
            trail = 0
    own = quote_breaks or [True] + [False] * (len(quote) - 1) + [True]
    crossings = sum(own[1 : lead + 1])
    for _ in range(lead):
        if breaks[first]:
            if not crossings or first <= 0:
                break
            crossings -= 1
        first -= 1
    crossings = sum(own[len(quote) - trail : len(quote)])
    for _ in range(trail):
        if breaks[end]:
            if not crossings or end >= len(page):
                break
            crossings -= 1
        end += 1
    return first, end


def _aligned_as(token: str) -> str:
    """What a word lines up by: its lemma, a figure's number however it is written ("2GB"
    lines up with the "2" of "2 GB", "1,000" with "1000"), so that a quote of a quantity
    respelled lines up with its own words and not with the whole sentence."""
    split = figure_and_unit(token)
    figure = split[0] if split is not None else token
    return figure.replace(",", "") if _FIGURE.fullmatch(figure) else lemma(token)


_FIGURE = re.compile(r"\d{1,3}(?:,\d{3})+|\d+")


_EDGE_REACH = 8
"""How far past the densest run a quote's own first or last word is looked for."""


def _densest_window(wanted: Counter[str], page: list[str]) -> tuple[int, int]:
    """The run of page words scoring best: +1 per quote word, minus a cost per other word.

    A quote word counts as often as the quote has it. Linear: the best run of the
    quote's length anchors it; its edges are trimmed to quote words, then it grows to
    whichever end on each side scores best.
    """
    width = min(sum(wanted.values()), len(page))
    count: Counter[str] = Counter()
    gains = best_gains = best_first = best_end = 0
    for end, word in enumerate(page):
        count[word] += 1
        gains += count[word] <= wanted[word]
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
    """Move one edge of a run outwards (``step`` -1 or 1) to where the run scores best."""
    score = best = 0.0
    best_edge, kept = edge, 0
    taken: list[str] = []
    at = edge if step > 0 else edge - 1
    while 0 <= at < len(page):
        word = page[at]
        used[word] += 1
        taken.append(word)
        score += 1.0 if used[word] <= wanted[word] else -OUTSIDE_WORD_COST
        if score > best:
            best, best_edge, kept = score, at + max(step, 0), len(taken)
        at += step
    for word in taken[kept:]:
        used[word] -= 1
    return best_edge


def _unaligned_edges(quote: list[str], window: list[str]) -> tuple[int, int]:
    """How many of the quote's first and last words line up with no word of the window."""
    opcodes = SequenceMatcher(None, quote, window, autojunk=False).get_opcodes()
    matched = {i for tag, i1, i2, _, _ in opcodes if tag == "equal" for i in range(i1, i2)}
    q_free = [i for tag, i1, i2, _, _ in opcodes if tag != "equal" for i in range(i1, i2)]
    p_free = [j for tag, _, _, j1, j2 in opcodes if tag != "equal" for j in range(j1, j2)]
    matched |= moved_positions(quote, window, q_free, p_free)[0]
    if not matched:
        return 0, 0
    return min(matched), len(quote) - 1 - max(matched)


def moved_positions(
    quote: Sequence[str], page: Sequence[str], q_free: list[int], p_free: list[int]
) -> tuple[set[int], set[int]]:
    """Positions of words that were moved (a run deleted in one place, inserted in another)."""
    matcher = SequenceMatcher(
        None, [quote[i] for i in q_free], [page[j] for j in p_free], autojunk=False
    )
    moved_q: set[int] = set()
    moved_p: set[int] = set()
    for block in matcher.get_matching_blocks():
        if block.size >= MIN_MOVED_RUN:
            moved_q.update(q_free[block.a : block.a + block.size])
            moved_p.update(p_free[block.b : block.b + block.size])
    return moved_q, moved_p
