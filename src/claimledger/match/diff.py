"""What a rewording did: the word-level changes between a quote and its passage, and what
each does to the meaning of a guarantee.

Pure. The quote is compared with its *own span* of the passage (the whole sentences a
drifted quote is reported with may hold more than the quote did: the rest of a sentence
a fragment was cut from is no change to it). A change is named by its kind (negation
removed, number changed, modal weakened, words swapped, qualifier added, ...) and only
those kinds change the meaning; a reworded sentence with none of them is a rewording.

Kinds are judged over the whole span, so a negation that moved ("it can never happen
that X is served" / "X will never be served") is no change, and a run of words moved as
a whole (a clause traded places) is a reordering.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from rapidfuzz import fuzz

from claimledger.match.lexicon import (
    BOOLEANS,
    CONSISTENCY,
    DEFAULT_MARKERS,
    DEGREE,
    EFFECT_FAMILY,
    MODAL_STRENGTH,
    NEGATIONS,
    QUALIFIERS,
    QUANTIFIERS,
    STOPWORDS,
    TOKEN,
    UNITS,
    are_opposites,
    expanded,
    is_name,
    is_word,
    lemma,
    negated,
    negates,
    number_value,
)
from claimledger.records import ChangeOp, WordChange

Opcode = tuple[str, int, int, int, int]
"""A difflib opcode: tag, quote words [i1, i2), page words [j1, j2)."""

MIN_MOVED_RUN = 3
"""A run of this many words deleted in one place and inserted in another is a move."""

OUTSIDE_WORD_COST = 0.5
"""A stretch of the passage joins the quote's span only with one of the quote's words for
every two words that are not."""

_SPAN_BREAK = re.compile(r"[.,;:!?()\[\]]|\s-\s|--")  # between two words: a clause ends
_SENTENCE_END = re.compile(r"[.!?][\"')\]]*\s*$")


@dataclass(frozen=True)
class Judgement:
    """The changes between a quote and its span of a passage, and the kinds of meaning change."""

    changes: tuple[WordChange, ...]
    kinds: tuple[str, ...]

    @property
    def meaning_changed(self) -> bool:
        return bool(self.kinds)


def judge(quote: str, passage: str) -> Judgement:
    """Diff the quote's words against its own span of `passage` and name the meaning changes.

    Both are normalised text; `passage` is the whole sentences the quote drifted to. When
    the quote ended a sentence, what the page appended to that sentence is judged too.
    """
    quote_tokens, quote_breaks = tokens_and_breaks(quote)
    page_tokens, breaks = tokens_and_breaks(passage)
    first, end = aligned_span(quote_tokens, page_tokens, breaks)
    tail = _rest_of_sentence(passage, page_tokens, end) if ends_a_sentence(quote) else []
    span_breaks = [True, *breaks[first + 1 : end], True]
    return _judged(quote_tokens, page_tokens[first:end], tail, quote_breaks, span_breaks)


def tokens_and_breaks(text: str) -> tuple[list[str], list[bool]]:
    """The words, and before each word (and after the last) whether a clause ends there."""
    found: list[str] = []
    breaks = [True]
    last_end = 0
    for m in TOKEN.finditer(text):
        if found:
            breaks.append(_SPAN_BREAK.search(text, last_end, m.start()) is not None)
        found.append(m.group())
        last_end = m.end()
    if found:
        breaks.append(True)
    return found, breaks


def _rest_of_sentence(passage: str, page_tokens: list[str], end: int) -> list[str]:
    """The words after the span up to the end of its sentence (a qualifier appended there
    to a quote that ended at a full stop narrows what the quote said)."""
    if end >= len(page_tokens):
        return []
    spans = list(TOKEN.finditer(passage))
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


# --------------------------------------------------------------------------- the span


def aligned_span(quote: list[str], page: list[str], breaks: list[bool]) -> tuple[int, int]:
    """The passage's words ``[first, end)`` the quote lines up with: its own span.

    The densest run of the quote's words is its span; a meaning word next to it that
    lines up with none of the quote's words (", and at most 128 ...") belongs to the
    rest of the sentence. A first or last quote word that was replaced reaches as many
    words past the span, within its clause, so "Never retry" against "..., so always
    retry" reads as never -> always.
    """
    quote_lemmas = [lemma(t) for t in quote]
    page_lemmas = [lemma(t) for t in page]
    first, end = _densest_window(Counter(quote_lemmas), page_lemmas)
    if first == end:
        return 0, len(page)
    lead, trail = _unaligned_edges(quote_lemmas, page_lemmas[first:end])
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


# --------------------------------------------------------------------------- judging


def _judged(
    quote: list[str],
    span: list[str],
    tail: list[str],
    quote_breaks: list[bool],
    span_breaks: list[bool],
) -> Judgement:
    q_shown, q_low = _expanded(quote)
    p_shown, p_low = _expanded(span)
    q_breaks, p_breaks = _expanded_breaks(quote, quote_breaks), _expanded_breaks(span, span_breaks)
    opcodes = [
        op
        for op in SequenceMatcher(None, q_low, p_low, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    p_same = _typos_mended(opcodes, q_low, p_low)
    span_kinds = _span_kinds(q_low, p_same)
    span_kinds.update(_negation_moved_across_clauses(q_low, p_low, q_breaks, p_breaks))
    moved = _moved_words(opcodes, q_low, p_low)
    changes = [_change(op, q_shown, p_shown, q_low, p_low, span_kinds, moved) for op in opcodes]
    changes = _with_swaps(changes, q_low, p_low, q_breaks, p_breaks)
    if _narrows(tail):
        changes.append(WordChange("insert", "", " ".join(tail), True, "qualifier added"))
    kinds = [c.kind for c in changes if c.meaningful and c.kind]
    for kind in span_kinds.values():
        if kind not in kinds:  # a count that changed without an opcode to carry it
            kinds.append(kind)
    return Judgement(tuple(changes), tuple(dict.fromkeys(kinds)))


def _expanded_breaks(words: list[str], breaks: list[bool]) -> list[bool]:
    """Clause breaks before each part of the words (none inside a contraction)."""
    return [
        brk if part == 0 else False
        for word, brk in zip(words, breaks, strict=False)
        for part in range(len(expanded(word)))
    ]


def _expanded(words: list[str]) -> tuple[list[str], list[str]]:
    """Each word as its parts (a contraction as two), lower-cased; beside it the word as
    written, shown once for its first part."""
    shown: list[str] = []
    low: list[str] = []
    for word in words:
        parts = expanded(word)
        low.extend(parts)
        shown.extend([word, *[""] * (len(parts) - 1)])
    return shown, low


def _shown(words: list[str], start: int, end: int, low: list[str] | None = None) -> str:
    """The words of a run as written (the parts of a contraction shown as they read)."""
    shown = " ".join(w for w in words[start:end] if w)
    return shown or " ".join((low or [])[start:end])


def _typos_mended(opcodes: Sequence[Opcode], q_low: list[str], p_low: list[str]) -> list[str]:
    """The page's words with a corrected spelling read as the quote's word (guarenteed /
    guaranteed), so a typo fixed is no change of a meaning word."""
    mended = list(p_low)
    for tag, i1, i2, j1, j2 in opcodes:
        if tag == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                if _is_typo_of(q_low[i], p_low[j]):
                    mended[j] = q_low[i]
    return mended


def _is_typo_of(a: str, b: str) -> bool:
    """A misspelling and its correction: alike, and just one of them a word (so
    synchronous / asynchronous, two words, are never one, nor etcdctl / etcdutl, two names)."""
    if min(len(a), len(b)) < 5 or a == b or not (a.isalpha() and b.isalpha()):
        return False
    return fuzz.ratio(a, b) >= 85 and is_word(a) != is_word(b)


def _as(change: WordChange, kind: str) -> WordChange:
    return WordChange(change.op, change.quote, change.page, True, kind)


def _class_counts(words: Iterable[str]) -> dict[str, Counter[str]]:
    """The meaning-carrying words of a span, by class."""
    classes: dict[str, Counter[str]] = {
        name: Counter()
        for name in ("negation", "number", "modal", "quantifier", "degree", "term", "default")
    }
    for word in words:
        base = lemma(word)
        if word in NEGATIONS or negated(word):
            classes["negation"]["not"] += 1
        value = number_value(word)
        if value is not None or word in UNITS:
            classes["number"][value or word] += 1
        if word in MODAL_STRENGTH:
            classes["modal"][str(MODAL_STRENGTH[word])] += 1
        if word in QUANTIFIERS:
            classes["quantifier"][QUANTIFIERS[word]] += 1
        if word in DEGREE and word != "never":
            classes["degree"][word] += 1
        if word in CONSISTENCY:
            classes["term"][word] += 1
        if word in BOOLEANS or base in DEFAULT_MARKERS:
            classes["default"][word if word in BOOLEANS else "default"] += 1
    return classes


def _modal_ranks(words: list[str]) -> Counter[int]:
    """How strongly a span binds, modal by modal (must 4, will 3, should 2, may 1; a span
    with none states a fact, as "will" does). "Can never" and "cannot" bind as "will
    never" does: it does not happen. Can / may / might / could are one strength."""
    ranks: Counter[int] = Counter()
    for index, word in enumerate(words):
        if word in MODAL_STRENGTH:
            negated_next = index + 1 < len(words) and words[index + 1] in NEGATIONS
            strength = MODAL_STRENGTH[word]
            ranks[3 if negated_next and strength == 1 else strength] += 1
    return ranks or Counter({3: 1})


def _negation_moved_across_clauses(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> dict[str, str]:
    """A negation that moved to another clause ("A is not B, and C is D" -> "A is B, and C
    is not D") changes what is denied, though the count of negations stays."""
    if _negated_words(q_low) == _negated_words(p_low):
        return {}  # the same things are denied, wherever the clauses now run
    quote_clauses = _by_clause(q_low, _clauses(q_low, q_breaks))
    page_clauses = _by_clause(p_low, _clauses(p_low, p_breaks))
    if len(quote_clauses) != len(page_clauses) or len(quote_clauses) < 2:
        return {}  # clauses merged or split: a rewording, not a move
    for index, (content, negations) in enumerate(quote_clauses):
        twin_index = max(
            range(len(page_clauses)),
            key=lambda k: (len(page_clauses[k][0] & content), k == index),
        )
        twin, twin_negations = page_clauses[twin_index]
        if len(twin & content) >= 2 and twin_negations % 2 != negations % 2:
            return {"negation": "negation moved to another clause"}
    return {}


def _negated_words(words: list[str]) -> Counter[str]:
    """What each negation denies: the first content word after it ("no events" -> event)."""
    denied: Counter[str] = Counter()
    for index, word in enumerate(words):
        if word in NEGATIONS:
            following = [w for w in words[index + 1 :] if w not in STOPWORDS and w not in NEGATIONS]
            denied[lemma(following[0]) if following else ""] += 1
    return denied


def _by_clause(words: list[str], clauses: list[int]) -> list[tuple[frozenset[str], int]]:
    """Each clause's content lemmas and its count of negations."""
    content: dict[int, set[str]] = {}
    negations: Counter[int] = Counter()
    for word, clause in zip(words, clauses, strict=True):
        content.setdefault(clause, set())
        if word in NEGATIONS or negated(word):
            negations[clause] += 1
        elif word not in STOPWORDS:
            content[clause].add(number_value(word) or lemma(word))
    return [(frozenset(content[c]), negations[c]) for c in sorted(content)]


def _span_kinds(q_low: list[str], p_low: list[str]) -> dict[str, str]:
    """Classes whose words changed across the whole span (so a moved word is no change),
    each with the kind of meaning change it makes."""
    before, after = _class_counts(_unbounded(q_low)), _class_counts(_unbounded(p_low))
    kinds: dict[str, str] = {}
    negations = (sum(before["negation"].values()), sum(after["negation"].values()))
    if negations[0] % 2 != negations[1] % 2:  # "not without" is no negation
        kinds["negation"] = "negation removed" if negations[0] > negations[1] else "negation added"
    if _numbers_differ(before["number"], after["number"]):
        kinds["number"] = "number changed"
    was, now = _modal_ranks(q_low), _modal_ranks(p_low)
    if was != now:
        weaker = sum(now.elements()) / sum(now.values()) < sum(was.elements()) / sum(was.values())
        kinds["modal"] = "modal weakened" if weaker else "modal strengthened"
    if _limits(q_low) != _limits(p_low):
        kinds["limit"] = "limit changed"
    names = {"quantifier": "quantifier changed", "degree": "degree changed"}
    names |= {"term": "guarantee term changed", "default": "default changed"}
    for name, kind in names.items():
        if before[name] != after[name]:
            kinds[name] = kind
    return kinds


_LIMIT_PHRASES = (
    ("up", "to"),
    ("at", "most"),
    ("at", "least"),
    ("no", "more", "than"),
    ("no", "less", "than"),
    ("more", "than"),
    ("less", "than"),
    ("fewer", "than"),
    ("as", "many", "as"),
    ("as", "much", "as"),
)


_LIMIT_WORDS = frozenset({"up", "most", "least", "more", "less", "fewer", "many", "much"})


def _unbounded(words: list[str]) -> list[str]:
    """The words without those of bound phrases ("at most"), which are judged as bounds."""
    kept = list(words)
    for phrase in _LIMIT_PHRASES:
        width = len(phrase)
        for index in range(len(words) - width + 1):
            if tuple(words[index : index + width]) == phrase:
                kept[index : index + width] = [""] * width
    return [w for w in kept if w]


def _limits(words: list[str]) -> Counter[tuple[str, ...]]:
    """Bounds a span puts on a number ("up to 10 GB", "at most once")."""
    found: Counter[tuple[str, ...]] = Counter()
    for phrase in _LIMIT_PHRASES:
        width = len(phrase)
        for index in range(len(words) - width + 1):
            if tuple(words[index : index + width]) == phrase:
                found[phrase] += 1
    return found


def _numbers_differ(before: Counter[str], after: Counter[str]) -> bool:
    """A number changed: different values on both sides, or a figure (not a number word,
    which is often a pronoun: "one should") that came or went."""
    if before == after:
        return False
    if before and after:
        return set(before) != set(after)
    present = before or after
    return any(any(c.isdigit() for c in value) for value in present)


def _moved_words(
    opcodes: Sequence[Opcode], q_low: list[str], p_low: list[str]
) -> tuple[set[int], set[int]]:
    """Quote and page positions of words that moved: a run of words (or one content word)
    taken out in one place and put back in another is a reordering, not a change."""
    q_free = [i for _, i1, i2, _, _ in opcodes for i in range(i1, i2)]
    p_free = [j for _, _, _, j1, j2 in opcodes for j in range(j1, j2)]
    moved_q, moved_p = moved_positions(q_low, p_low, q_free, p_free)
    taken = Counter(q_low[i] for i in q_free if i not in moved_q and q_low[i] not in STOPWORDS)
    put = Counter(p_low[j] for j in p_free if j not in moved_p and p_low[j] not in STOPWORDS)
    single = taken & put
    moved_q |= {i for i in q_free if single[q_low[i]]}
    moved_p |= {j for j in p_free if single[p_low[j]]}
    return moved_q, moved_p


def _change(
    op: Opcode,
    q_shown: list[str],
    p_shown: list[str],
    q_low: list[str],
    p_low: list[str],
    span_kinds: dict[str, str],
    moved: tuple[set[int], set[int]],
) -> WordChange:
    tag, i1, i2, j1, j2 = op
    kind = _opcode_kind(q_low[i1:i2], p_low[j1:j2], span_kinds)
    only_moved = all(i in moved[0] for i in range(i1, i2)) and all(
        j in moved[1] for j in range(j1, j2)
    )
    if only_moved and kind not in span_kinds.values():
        kind = None  # a clause or a word that only traded places
    elif kind is None and tag == "replace":
        old_words = [w for w in q_shown[i1:i2] if w]
        if _names_differ(old_words, [w for w in p_shown[j1:j2] if w]):
            kind = "name changed"
    elif kind is None:
        kind = _list_change(op, q_low, p_low)
    name: ChangeOp = "replace" if tag == "replace" else "delete" if tag == "delete" else "insert"
    was, now = _shown(q_shown, i1, i2, q_low), _shown(p_shown, j1, j2, p_low)
    return WordChange(name, was, now, kind is not None, kind)


def _opcode_kind(was: list[str], now: list[str], span_kinds: dict[str, str]) -> str | None:
    """What one change does to the meaning, judged on its words and the span's counts."""
    words = _class_counts(was + now)
    for name in ("negation", "number", "modal", "quantifier", "degree", "term", "default"):
        if name in span_kinds and words[name]:
            return span_kinds[name]
    if "limit" in span_kinds and set(was + now) & _LIMIT_WORDS:
        return span_kinds["limit"]
    if "negation" in span_kinds and any(negates(a, b) for a in was for b in now):
        return span_kinds["negation"]  # able / unable: the count of negations changed
    if any(are_opposites(a, b) for a in was for b in now):
        return "direction reversed"
    was_effects = {EFFECT_FAMILY[lemma(w)] for w in was if lemma(w) in EFFECT_FAMILY}
    now_effects = {EFFECT_FAMILY[lemma(w)] for w in now if lemma(w) in EFFECT_FAMILY}
    if was_effects and now_effects and not was_effects & now_effects:
        return "effect changed"
    if not was and {w for w in now if w in QUALIFIERS}:
        return "qualifier added"
    if not now and {w for w in was if w in QUALIFIERS}:
        return "qualifier removed"
    return None


def _names_differ(was: list[str], now: list[str]) -> bool:
    """A name replaced by another (`etcdctl` -> `etcdutl`, `pyOpenSSL` -> `cryptography`),
    not a name respelled (`Prev_Kv` -> `prev_kv`, `DBOSClient` -> `DBOS Client`), grown or
    cut (`Bolt` -> `bbolt`), or renamed around the same words
    (`CELERYD_MAX_MEMORY_PER_CHILD` -> `worker_max_memory_per_child`)."""
    old = [w for w in was if is_name(w)]
    new = [w for w in now if is_name(w)]
    if not old or not new:
        return False
    if _renamed("".join(old), "".join(new)):
        return False
    return not any(_renamed(a, b) for a in old for b in new)


def _renamed(a: str, b: str) -> bool:
    bare_a, bare_b = (re.sub(r"[-_./:\s]", "", w.lower()) for w in (a, b))
    short, long = sorted((bare_a, bare_b), key=len)
    if short == long or (short and short in long and len(short) >= len(long) / 2):
        return True
    if _is_typo_of(bare_a, bare_b):
        return True  # a misspelt word put right
    return len(_name_parts(a) & _name_parts(b)) >= 2


_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])|\d+")


def _name_parts(name: str) -> set[str]:
    """`DB.Batch` -> {db, batch}; `max_memory_per_child` -> {max, memory, per, child}."""
    return {part.lower() for part in _NAME_PART.findall(name)}


_COORDINATORS = frozenset({"and", "or", "nor"})


def _list_change(op: Opcode, q_low: list[str], p_low: list[str]) -> str | None:
    """An item added to or dropped from an enumeration ("direct writes and append writes"
    -> "direct writes"; "AMQP, database" -> "AMQP, Couchbase, database"): the claim now
    covers more, or fewer, things."""
    tag, i1, i2, j1, j2 = op
    run = q_low[i1:i2] if tag == "delete" else p_low[j1:j2]
    around = q_low if tag == "delete" else p_low
    start, end = (i1, i2) if tag == "delete" else (j1, j2)
    if start == 0 or end >= len(around):
        return None  # at the edge of the span: where the quote was cut, not the claim
    content = [w for w in run if w not in STOPWORDS and w not in _COORDINATORS]
    if not content or len(content) > 3 or run[0] in _NOT_AN_ITEM:
        return None
    before = around[start - 1]
    after = around[end] if end < len(around) else ""
    if _COORDINATORS & {run[0], run[-1], before, after}:
        return "list changed"
    return None


_NOT_AN_ITEM = frozenset({"using", "by", "with", "for", "from", "to", "in", "on", "at", "via"})


def _with_swaps(
    changes: list[WordChange],
    q_low: list[str],
    p_low: list[str],
    q_breaks: list[bool],
    p_breaks: list[bool],
) -> list[WordChange]:
    """Add the pairs of words of one clause that traded places (old/new -> new/old, before/
    after: the direction reversed). Items of a list trading places ("pickle, JSON and YAML"
    -> "JSON, pickle and YAML") are no such change: a list's items sit in clauses of their
    own."""
    for pair in _swapped(q_low, p_low, q_breaks, p_breaks):
        changes.append(
            WordChange("replace", " ".join(pair), " ".join(pair[::-1]), True, "words swapped")
        )
    return changes


def _clauses(words: list[str], breaks: list[bool]) -> list[int]:
    """The clause each word is in: a new one at a clause break, "and", "or"."""
    clause, found = 0, []
    for index, word in enumerate(words):
        at_break = index < len(breaks) and breaks[index] and index > 0
        if at_break or word in _COORDINATORS:
            clause += 1
        found.append(clause)
    return found


_SWAP_REACH = 4
"""Two words trade places within this many words of each other; further apart, a sentence
was restructured."""


def _swapped(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> list[tuple[str, str]]:
    q_clause, p_clause = _clauses(q_low, q_breaks), _clauses(p_low, p_breaks)
    once = [
        w
        for w in dict.fromkeys(q_low)
        if w not in STOPWORDS
        and w not in NEGATIONS
        and w not in MODAL_STRENGTH
        and q_low.count(w) == 1
        and p_low.count(w) == 1
    ]
    q_at = {w: q_low.index(w) for w in once}
    p_at = {w: p_low.index(w) for w in once}
    pairs = []
    for index, a in enumerate(once):
        for b in once[index + 1 :]:
            one_clause = q_clause[q_at[a]] == q_clause[q_at[b]]
            one_clause = one_clause and p_clause[p_at[a]] == p_clause[p_at[b]]
            flipped = (q_at[a] < q_at[b]) != (p_at[a] < p_at[b])
            if one_clause and flipped and abs(q_at[a] - q_at[b]) <= _SWAP_REACH:
                pairs.append((a, b) if q_at[a] < q_at[b] else (b, a))
    return pairs


def _narrows(tail: list[str]) -> bool:
    """Does what the page appended after the quote's full stop begin with a qualifier?"""
    return bool(tail) and tail[0].lower() in QUALIFIERS


def ends_a_sentence(text: str) -> bool:
    """Does the quote end at a full stop (or ! or ?): where a sentence ended when read."""
    return bool(_SENTENCE_END.search(text))
