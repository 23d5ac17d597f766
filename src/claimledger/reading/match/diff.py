"""What a rewording did: the word-level changes between a quote and its passage, and what
each does to the meaning of a guarantee.

Pure. The quote is compared with its *own span* of the passage (the whole sentences a
drifted quote is reported with may hold more than the quote did: the rest of a sentence
a fragment was cut from is no change to it; see `claimledger.reading.match.span`). A change is
named by its kind (negation removed, number changed, modal weakened, words swapped,
qualifier added, name changed, list changed, ...) and only those kinds change the
meaning; a reworded sentence with none of them is a rewording. Names are compared in
`claimledger.reading.match.names`, lists and clauses in `claimledger.reading.match.clauses`.

Kinds are judged over the whole span, so a negation that moved ("it can never happen
that X is served" / "X will never be served") is no change, and a run of words moved as
a whole (a clause traded places) is a reordering.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher

from claimledger.meanings import STRONG_KINDS
from claimledger.reading.match.acronyms import as_the_page_writes
from claimledger.reading.match.alike import (
    phrase_cut_at,
    phrase_past_end,
    said_alike,
    said_by_a_phrase_cut,
    said_first_by_both,
    stress_read_at_clause_ends,
)
from claimledger.reading.match.amounts import magnitudes_as_written
from claimledger.reading.match.around import (
    CONDITIONS,
    denial_before,
    has_phrase,
    head_kind,
    modal_lead_in,
    narrows,
    own_clause,
    restricts,
)
from claimledger.reading.match.classes import (
    class_kinds,
    span_kinds_of,
)
from claimledger.reading.match.clauses import (
    Lists,
    among_examples,
    condition_as_label,
    condition_restated,
    items_listed,
    items_put_or_taken,
    joined_items,
    negation_moved_across_clauses,
    relation_traded,
    with_swaps,
)
from claimledger.reading.match.exchange import (
    Exchange,
    exchanged,
    items_reordered,
    particle_reversed,
)
from claimledger.reading.match.explain import Explainer, is_function
from claimledger.reading.match.hedges import hedge_positions
from claimledger.reading.match.lexicon import (
    CONSISTENCY,
    COORDINATORS,
    EFFECT_FAMILY,
    NEGATIONS,
    QUALIFIER_PHRASES,
    QUALIFIERS,
    STOPWORDS,
    UNITS,
    expanded,
    lemma,
    number_value,
)
from claimledger.reading.match.modals import modal_traded
from claimledger.reading.match.modifiers import modifier_changed, scope_put_in
from claimledger.reading.match.names import (
    alias,
    bare,
    identifier_altered,
    is_typo_of,
    name_kind,
    name_qualifier,
    names_differ,
    noun_changed,
    number_in_a_name_changed,
    options_named,
    role_name_changed,
)
from claimledger.reading.match.negations import (
    denial_said_in_a_word,
)
from claimledger.reading.match.opposed import any_opposites, negating_pairs
from claimledger.reading.match.quantities import (
    LIMIT_WORDS,
    bound_after,
    bound_before,
    bound_positions,
    bounds_in_order,
    months_as_written,
    split_last_word,
    term_positions,
)
from claimledger.reading.match.span import (
    Opcode,
    aligned_span,
    ends_a_sentence,
    moved_positions,
    rest_of_sentence,
    start_of_sentence,
    starts_a_sentence,
    tokens_and_breaks,
)
from claimledger.reading.match.written import as_read, changes_as_written
from claimledger.records import ChangeOp, WordChange

WORDING_CHANGED = "wording changed"
"""The kind of a change of content words that no rule explains and no harmless reading
(a typo, a doubled word, an inflection, a hyphen, a word moved) accounts for."""


@dataclass(frozen=True)
class Judgement:
    """The changes between a quote and its span of a passage, and the kinds of meaning change."""

    changes: tuple[WordChange, ...]
    kinds: tuple[str, ...]
    touched: int = 0  # words the changes touch as read, both sides: the locator's measure

    @property
    def meaning_changed(self) -> bool:
        """The evidence says the meaning changed (see STRONG_KINDS)."""
        return any(kind in STRONG_KINDS for kind in self.kinds)

    @property
    def meaning_uncertain(self) -> bool:
        """Not plainly harmless, and no strong evidence either: it may have changed."""
        return bool(self.kinds) and not self.meaning_changed


def judge(quote: str, passage: str, *, said_before: Sequence[str] | None = None) -> Judgement:
    """Diff the quote's words against its own span of `passage` and name the meaning changes.

    Both are normalised text; `passage` is the whole sentences the quote drifted to. When
    the quote ended a sentence, what the page appended to that sentence is judged too, and
    when it began one (as its capital says), what the page put before it: unless those
    are `said_before`, the words that stood before it in its sentence when recorded.
    Each change names its words as the two wrote them (`$5`, not the `5 dollars` read).
    """
    written = quote, passage  # the changes are shown in these words, not as read
    quote, passage = as_read(quote), as_read(passage)
    quote_tokens, quote_breaks = tokens_and_breaks(quote)
    page_tokens, breaks = tokens_and_breaks(passage)
    quote_tokens, quote_breaks = as_the_page_writes(quote_tokens, quote_breaks, page_tokens, breaks)
    quote_tokens, quote_breaks = condition_as_label(quote_tokens, quote_breaks, passage)
    first, end = aligned_span(quote_tokens, page_tokens, breaks, quote_breaks)
    end = bound_after(page_tokens, split_last_word(quote_tokens, page_tokens, end))
    end = phrase_past_end(quote_tokens, page_tokens, end)  # "twice" -> "two | times"
    if first > 0 and bare(quote_tokens[0]) == bare(page_tokens[first - 1] + page_tokens[first]):
        first -= 1  # "Write-ahead logs" -> "Write ahead logs": the first word split in two
    else:
        first -= phrase_cut_at(page_tokens, first, "".join(quote_tokens[:1]))  # "Turn | off"
    first -= bound_before(page_tokens, breaks, first)  # "100 requests" -> "Under | 100 ..."
    if starts_a_sentence(quote):
        first -= _said_before_its_start(quote_tokens, page_tokens, first, end, passage)
    tail = rest_of_sentence(passage, page_tokens, end) if ends_a_sentence(quote) else []
    moved_on = _moved_past_its_end(quote_tokens, page_tokens[first:end], tail)
    end, tail = end + moved_on, tail[moved_on:]
    head = start_of_sentence(passage, page_tokens, first) if starts_a_sentence(quote) else []
    if said_before is not None and _same_words(head, said_before):
        head = []  # they stood before it then: nothing was put before it
    denial = denial_before(own_clause(head, breaks, first), page_tokens[first:end])
    first, head = first - denial, head[: len(head) - denial]
    lead = modal_lead_in(own_clause(head, breaks, first))
    first, head = first - lead, head[: len(head) - lead]
    span_breaks = [True, *breaks[first + 1 : end], True]
    options = options_named(quote) | options_named(passage)
    judged = _judged(
        quote_tokens, page_tokens[first:end], tail, (quote_breaks, span_breaks), options
    )
    if _COMMAND_LINE.match(quote):
        judged = _as_command(judged, tail)
    low_quote, low_head = [w.lower() for w in quote_tokens], [w.lower() for w in head]
    span_low = [w.lower() for w in page_tokens[first:end]]
    kind = head_kind(low_head, own_clause(head, breaks, first), quote_tokens)
    if kind == "qualifier added" and condition_restated(low_head, low_quote, span_low, span_breaks):
        kind = None  # "A message that has ... is dead" -> "If a message has ..., it is dead"
    not_yet_reversed = "direction reversed" not in judged.kinds
    if kind is None and not_yet_reversed and relation_traded(low_quote, [*low_head, *span_low]):
        kind = "direction reversed"  # "Run A after B" -> "Before B, run A"
    if kind is not None:
        added = WordChange("insert", "", " ".join(head), True, kind)
        judged = Judgement((added, *judged.changes), tuple(dict.fromkeys((*judged.kinds, kind))))
    touched = sum(len(c.quote.split()) + len(c.page.split()) for c in judged.changes)
    shown = changes_as_written(judged.changes, (quote, passage), written)  # as read: `touched`
    return Judgement(shown, judged.kinds, touched)


def _moved_past_its_end(quote: list[str], span: list[str], tail: list[str]) -> int:
    """How many words of the rest of the sentence belong to the span: up to the last of
    the quote's content words it lacks, when the rest says every one of them ("Use a
    30-second timeout." -> "Use a timeout of 30 seconds."). Written otherwise than the
    quote wrote them, they moved past where the alignment ends the span; read as words
    appended, they were one change, and the quote's words missing from the span another."""
    lacking = _lacking(quote, span)
    found, reach = _said_in(tail, lacking)
    return reach if lacking and found == lacking else 0


def _said_before_its_start(
    quote: list[str], page: list[str], first: int, end: int, passage: str
) -> int:
    """How many words before the span belong to it: back to the start of the sentence
    that says the content words of the quote the span lacks (two at least), when the
    sentence was split there ("But this isn't enabled by default, and you have to
    configure ..." -> "Results are not enabled by default. ..., you will need to
    configure ..."). The alignment begins the span with the sentence that holds most of
    the quote; the one before it says the rest, and judged apart it read as taken out."""
    lacking = _lacking(quote, page[first:end])
    found, reach = _said_in(page[:first][::-1], lacking)
    if not reach or (found != lacking and sum(found.values()) < _SAID_BEFORE_AT_LEAST):
        return 0
    return reach + len(start_of_sentence(passage, page, first - reach))


_SAID_BEFORE_AT_LEAST = 2
"""Content words of the quote, lacking in the span, that a sentence before it must say to
belong to it (or all of them, when fewer are lacking)."""


def _lacking(quote: Sequence[str], span: Sequence[str]) -> Counter[str]:
    """The quote's content words that the span does not say."""
    return Counter(_content_parts(quote)) - Counter(_content_parts(span))


def _said_in(words: Sequence[str], lacking: Counter[str]) -> tuple[Counter[str], int]:
    """Which of the `lacking` words `words` say, read in order, and how many of `words`
    it takes to say the last of them (0: none)."""
    found, reach = Counter[str](), 0
    for index, word in enumerate(words):
        parts = [part for part in _content_parts([word]) if lacking[part] > found[part]]
        if parts:
            found.update(parts)
            reach = index + 1
    return found, reach


def _content_parts(words: Sequence[str]) -> list[str]:
    """The content words, a number as its value ("one" and "1" alike)."""
    parts = [part for word in words for part in expanded(word) if _is_content(part)]
    return [number_value(part) or part for part in parts]


def _same_words(words: Sequence[str], others: Sequence[str]) -> bool:
    return [w.lower() for w in words] == [w.lower() for w in others]


_COMMAND_LINE = re.compile(r"\s*[$%>] \S")
"""A shell prompt, then a command: every word of it is code."""


def _as_command(judged: Judgement, tail: list[str]) -> Judgement:
    """In a command line every word names something (a subcommand, an option): a word
    replaced by another (`git checkout -b` -> `git switch -c`) is a name changed, and
    words put after it (`go get .../bbolt/...` -> `go get .../bbolt@latest`) change what
    it runs."""
    grown = WordChange("insert", "", " ".join(tail), True, WORDING_CHANGED)
    changes = tuple(
        _as(c, "name changed")
        if (
            c.op == "replace"
            and c.kind in (None, WORDING_CHANGED)
            and bare(c.quote) != bare(c.page)
        )
        or c == grown
        else c
        for c in judged.changes
    )
    if tail and not any(c.kind for c in changes):
        changes += (WordChange("insert", "", " ".join(tail), True, "name changed"),)
    kinds = [c.kind for c in changes if c.meaningful and c.kind]
    kinds += [k for k in judged.kinds if k not in kinds and k != WORDING_CHANGED]
    return Judgement(changes, tuple(dict.fromkeys(kinds)))


def _judged(
    quote: list[str],
    span: list[str],
    tail: list[str],
    all_breaks: tuple[list[bool], list[bool]],
    options: frozenset[str],
) -> Judgement:
    quote_breaks, span_breaks = all_breaks
    q_shown, q_low = _expanded(quote)
    p_shown, p_low = _expanded(span)
    q_breaks, p_breaks = _expanded_breaks(quote, quote_breaks), _expanded_breaks(span, span_breaks)
    exchange = exchanged(q_low, p_low)
    if exchange is not None and not tail and items_reordered(exchange, q_breaks):
        return Judgement((), ())  # "A and B" -> "B and A": the items said in another order
    opcodes = [
        op
        for op in SequenceMatcher(None, q_low, p_low, autojunk=False).get_opcodes()
        if op[0] != "equal"
    ]
    p_same = _typos_mended(opcodes, q_low, p_low)
    moved = _moved_words(opcodes, q_low, p_low)
    aside = hedge_positions(q_low), hedge_positions(p_low)  # a hedge about time says no claim
    if bounds_in_order(q_low) == bounds_in_order(p_low):  # the same bounds, other words
        aside = aside[0] | bound_positions(q_low), aside[1] | bound_positions(p_low)
    moved = moved[0] | aside[0], moved[1] | aside[1]
    listed = {items_listed(q_low, q_breaks), items_listed(p_same, p_breaks)} - {0, 1}
    read = stress_read_at_clause_ends(q_low, q_breaks), stress_read_at_clause_ends(p_same, p_breaks)
    span_kinds = span_kinds_of(*read, listed)  # "not ... at all, users say": no "all users"
    if "modal" in span_kinds and not _modal_changed_in_kept_clauses(opcodes, q_low, p_same):
        del span_kinds["modal"]  # the modal came or went with a clause of its own
    if "negation" not in span_kinds:  # a negation added or removed is no negation moved
        span_kinds.update(negation_moved_across_clauses(q_low, p_low, q_breaks, p_breaks))
    lists = Lists(q_low, p_low, q_breaks, p_breaks)
    changes = [
        change
        for op in opcodes
        for change in _with_its_other_kinds(
            _change(op, (q_shown, p_shown), (q_low, p_low), span_kinds, moved, lists, options),
            class_kinds(q_low[op[1] : op[2]], p_low[op[3] : op[4]], span_kinds),
        )
    ]
    changes = with_swaps(changes, q_low, p_low, q_breaks, p_breaks)
    if exchange is not None and not any(c.kind == "words swapped" for c in changes):
        changes.append(_exchange_said(exchange, q_shown, q_low))
    if items_put_or_taken(q_low, p_low, q_breaks, p_breaks):
        changes = [_as(c, "list changed") if c.kind in _NAMING_KINDS else c for c in changes]
    if narrows(tail):
        changes.append(WordChange("insert", "", " ".join(tail), True, "qualifier added"))
    elif any(_is_content(word.lower()) for word in tail):  # the sentence now goes on
        changes.append(WordChange("insert", "", " ".join(tail), True, WORDING_CHANGED))
    kinds = [c.kind for c in changes if c.meaningful and c.kind]
    for kind in span_kinds.values():
        if kind not in kinds:  # a count that changed without an opcode to carry it
            kinds.append(kind)
    return Judgement(tuple(changes), tuple(dict.fromkeys(kinds)))


def _exchange_said(exchange: Exchange, q_shown: list[str], q_low: list[str]) -> WordChange:
    """The two runs as the quote wrote them, and in the page's order."""
    (a, b), (c, d) = exchange.places
    first, second = _shown(q_shown, a, b, q_low), _shown(q_shown, c, d, q_low)
    return WordChange(
        "replace", f"{first} … {second}", f"{second} … {first}", True, "words swapped"
    )


def _modal_changed_in_kept_clauses(
    opcodes: Sequence[Opcode], q_low: list[str], p_low: list[str]
) -> bool:
    """Whether the strengths still differ once the clauses only one side has are set
    aside: a modal that came or went with a whole clause ("that can be enabled per
    model" dropped) binds nothing the other side says."""
    q_aside = {
        i
        for tag, i1, i2, _, _ in opcodes
        if tag == "delete" and i2 - i1 >= _CLAUSE_WORDS
        for i in range(i1, i2)
    }
    p_aside = {
        j
        for tag, _, _, j1, j2 in opcodes
        if tag == "insert" and j2 - j1 >= _CLAUSE_WORDS
        for j in range(j1, j2)
    }
    q_kept = [w for i, w in enumerate(q_low) if i not in q_aside]
    p_kept = [w for j, w in enumerate(p_low) if j not in p_aside]
    return "modal" in span_kinds_of(q_kept, p_kept)


_CLAUSE_WORDS = 4
"""Words put in or taken out at once, at least this many, make a clause of their own."""


def _expanded_breaks(words: list[str], breaks: list[bool]) -> list[bool]:
    """Clause breaks before each part of the words (none inside a contraction), and the
    one after the last."""
    return [
        brk if part == 0 else False
        for word, brk in zip(words, breaks, strict=False)
        for part in range(len(expanded(word)))
    ] + breaks[len(words) :]


def _expanded(words: list[str]) -> tuple[list[str], list[str]]:
    """Each word as its parts (a contraction as two), lower-cased; beside it the word as
    written, shown once for its first part."""
    shown: list[str] = []
    low: list[str] = []
    for word in words:
        parts = expanded(word)
        low.extend(parts)
        shown.extend([word, *[""] * (len(parts) - 1)])
    return shown, magnitudes_as_written(
        shown, months_as_written(shown, _names_as_written(shown, low))
    )


def _names_as_written(shown: list[str], low: list[str]) -> list[str]:
    """In prose, a guarantee word capitalised before another capitalised word is part of
    a name ("sent to a Durable Object"): it names a product, not a guarantee, so it is
    compared as written and counts as no guarantee term. A title ("Exactly-Once
    Delivery", every content word capitalised) keeps its terms."""
    if not any(word[:1].islower() and _is_content(word.lower()) for word in shown if word):
        return low
    for index in range(len(low) - 1):
        if low[index] in CONSISTENCY and _capitalised(shown[index], shown[index + 1]):
            low[index] = shown[index]
    return low


def _capitalised(*words: str) -> bool:
    return all(word[:1].isupper() for word in words)


def _shown(words: list[str], start: int, end: int, low: list[str] | None = None) -> str:
    """The words of a run as written (the parts of a contraction shown as they read)."""
    shown = " ".join(w for w in words[start:end] if w)
    return shown or " ".join((low or [])[start:end])


def _typos_mended(opcodes: Sequence[Opcode], q_low: list[str], p_low: list[str]) -> list[str]:
    """The page's words with a corrected spelling read as the quote's word (guarenteed /
    guaranteed), so a typo fixed is no change of a meaning word."""
    mended = list(p_low)
    for tag, i1, i2, j1, j2 in opcodes:
        glued = i2 - i1 == 1 and j2 - j1 == 2 and q_low[i1].isalpha()
        if tag == "replace" and glued and q_low[i1] == "".join(p_low[j1:j2]):
            mended[j1 : j1 + 2] = [q_low[i1], ""]  # a space put in: "orNone" -> "or None"
        elif tag == "replace" and i2 - i1 == j2 - j1:
            for i, j in zip(range(i1, i2), range(j1, j2), strict=True):
                if is_typo_of(q_low[i], p_low[j]):
                    mended[j] = q_low[i]
    return mended


_NAMING_KINDS = frozenset(
    {"name changed", "name added", "name removed", "identifier changed", WORDING_CHANGED}
)
"""Kinds the diff gives an item of a list it paired with another, or put in alone."""


def _as(change: WordChange, kind: str) -> WordChange:
    return WordChange(change.op, change.quote, change.page, True, kind)


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
    shown: tuple[list[str], list[str]],
    low: tuple[list[str], list[str]],
    span_kinds: dict[str, str],
    moved: tuple[set[int], set[int]],
    lists: Lists,
    options: frozenset[str],
) -> WordChange:
    tag, i1, i2, j1, j2 = op
    (q_shown, p_shown), (q_low, p_low) = shown, low
    name: ChangeOp = "replace" if tag == "replace" else "delete" if tag == "delete" else "insert"
    was, now = _shown(q_shown, i1, i2, q_low), _shown(p_shown, j1, j2, p_low)
    if _doubled(op, q_low, p_low):
        return WordChange(name, was, now, False, None)
    kind = _in_a_term(op, low, span_kinds) or _opcode_kind(q_low[i1:i2], p_low[j1:j2], span_kinds)
    breaks = (lists.q_breaks, lists.p_breaks)
    kind = kind or modifier_changed(op, q_low, p_low, breaks) or scope_put_in(op, q_low, p_low)
    kind = kind or modal_traded(q_low[i1:i2], p_low[j1:j2])
    kind = kind or ("direction reversed" if particle_reversed(op, q_low, p_low) else None)
    if kind in _QUALIFIER_KINDS and _qualifier_moved(q_low[i1:i2] + p_low[j1:j2], q_low, p_low):
        kind = QUALIFIER_MOVED
    only_moved = all(i in moved[0] for i in range(i1, i2)) and all(
        j in moved[1] for j in range(j1, j2)
    )
    taken, put = q_low[i1:i2], p_low[j1:j2]
    before = q_low[i1 - 1 : i1] if q_low[i1 - 1 : i1] == p_low[j1 - 1 : j1] else []
    after = said_first_by_both(q_low[i2 : i2 + 2], p_low[j2 : j2 + 2])
    freed = tag == "replace" and said_alike(taken, put, before, after)  # "a minute" / "60 s"
    freed = freed and not class_kinds(taken, put, span_kinds)  # "must" -> "need" (not)
    if (only_moved and kind not in span_kinds.values()) or freed:
        kind = None  # a clause or a word that only traded places; "not required" -> "optional"
    elif kind is None and tag == "replace":
        old_words = [w for w in q_shown[i1:i2] if w]
        new_words = [w for w in p_shown[j1:j2] if w]
        if _conjunction_traded(op, q_low, p_low):
            kind = CONJUNCTION_CHANGED  # "A and B" -> "A or B": both, now either
        elif bare("".join(old_words)) == bare("".join(new_words)):
            kind = None  # the same letters: "orNone" -> "or None"
        elif number_in_a_name_changed(old_words, new_words):
            kind = "number changed"  # AES-256 -> AES-128, TLS 1.2 -> TLS 1.3
        elif altered := identifier_altered(old_words, new_words, options):
            kind = altered  # `max_conn` -> `max_conns`: another setting
        elif role_name_changed(op, q_low, p_low, (old_words, new_words)):
            renamed = not names_differ(old_words, new_words)
            kind = "name changed" if renamed else name_kind(old_words, new_words)
        elif not _content_changed(op, (q_shown, p_shown), (q_low, p_low), moved):
            kind = None  # every word a harmless form of one on the other side
        elif names_differ(old_words, new_words):
            kind = name_kind(old_words, new_words)
        else:
            kind = lists.replaced(op) or noun_changed(op, q_low, p_low)
    elif kind is None:
        kind = lists.changed(op) or name_qualifier(op, q_shown, p_shown)
    if kind is None and not (only_moved or freed) and _content_changed(op, shown, low, moved):
        kind = WORDING_CHANGED
    return WordChange(name, was, now, kind is not None, kind)


def _doubled(op: Opcode, q_low: list[str], p_low: list[str]) -> bool:
    """Words taken out or put in that only repeat the words beside them ("only only",
    "seconds seconds"): a doubled word mended, or made, by a slip of the keyboard."""
    tag, i1, i2, j1, j2 = op
    if tag == "replace":
        return False
    side, start, end = (q_low, i1, i2) if tag == "delete" else (p_low, j1, j2)
    run, size = side[start:end], end - start
    return side[start - size : start] == run or side[end : end + size] == run


CONJUNCTION_CHANGED = "conjunction changed"
"""The kind of "and" traded for "or" (or "nor") between two things or the clauses of a
condition: what held of both now holds of either, or the reverse."""


def _conjunction_traded(op: Opcode, q_low: list[str], p_low: list[str]) -> bool:
    """One coordinator of things traded for another ("encrypted at rest and in transit" ->
    "at rest or in transit"), or of the clauses of a condition ("if the token expired or
    its signature is invalid" -> "... and ..."): both, now either. Not in a list of
    examples ("such as A, B, or C"), whose items stand for a kind and hold alike whichever
    joins them."""
    _, i1, i2, j1, j2 = op
    was, now = q_low[i1:i2], p_low[j1:j2]
    if len(was) != 1 or len(now) != 1 or {was[0], now[0]} - COORDINATORS:
        return False
    if among_examples(q_low, i1) or among_examples(p_low, j1):
        return False
    if {was[0], now[0]} == {"nor", "or"} and NEGATIONS & set(q_low[:i1]) & set(p_low[:j1]):
        return False  # "does not cache A nor B" -> "... A or B": one denial of both
    if _CONDITION_OPENERS & set(q_low[:i1]):
        return True
    return bool(joined_items(q_low, i1, i2) or joined_items(p_low, j1, j2))


_CONDITION_OPENERS = CONDITIONS | {"when", "whenever", "once", "while", "until", "where"}
"""Words that open a condition, whose clauses "and" and "or" join in two ways."""


QUALIFIER_MOVED = "qualifier moved"
"""A condition put in one place and taken out of another ("use X only" -> "only use X",
", unless Y" -> "Unless Y, ..."): it may now bind another word, so the meaning may have
changed, but nothing was narrowed or widened for certain."""

_QUALIFIER_KINDS = frozenset({"qualifier added", "qualifier removed"})


def _qualifier_moved(run: list[str], q_low: list[str], p_low: list[str]) -> bool:
    """Whether every qualifier of a changed run stands as often in the quote as in its span."""
    qualifiers = [w for w in run if w in QUALIFIERS]
    return bool(qualifiers) and all(q_low.count(w) == p_low.count(w) for w in qualifiers)


def _in_a_term(
    op: Opcode, low: tuple[list[str], list[str]], span_kinds: dict[str, str]
) -> str | None:
    """A word changed inside a guarantee written as words ("at least once" -> "at most
    once"): the term changed, whichever of its words the diff names."""
    _, i1, i2, j1, j2 = op
    if "term" not in span_kinds:
        return None
    touched = term_positions(low[0]) & set(range(i1, i2)) or term_positions(low[1]) & set(
        range(j1, j2)
    )
    return span_kinds["term"] if touched else None


def _content_changed(
    op: Opcode,
    shown: tuple[list[str], list[str]],
    low: tuple[list[str], list[str]],
    moved: tuple[set[int], set[int]],
) -> bool:
    """Whether a change took or put content words that no harmless form explains (see
    `claimledger.reading.match.explain`): a word is explained when the other side holds it
    in another form, or holds it elsewhere in the span (it only moved). Names are read
    as written, so a constant's capitals are told from a setting's lower case."""
    _, i1, i2, j1, j2 = op
    q_words, p_words = _as_written(shown[0], low[0]), _as_written(shown[1], low[1])
    was = [q_words[i] for i in range(i1, i2) if i not in moved[0] and _is_content(low[0][i])]
    now = [p_words[j] for j in range(j1, j2) if j not in moved[1] and _is_content(low[1][j])]
    if not was and not now:  # "the same" -> "some" cut "at the same time": "simultaneously"
        cut = said_by_a_phrase_cut(low[0], (i1, i2), low[1], (j1, j2))
        return bool(cut or said_by_a_phrase_cut(low[1], (j1, j2), low[0], (i1, i2)))
    if alias(bare("".join(was))) == alias(bare("".join(now))):
        return False  # the same letters, or another name of the same thing (`OS X` / `macOS`)
    counterpart = (p_words[j1:j2], q_words[i1:i2])
    return _unexplained(was, p_words, counterpart[0]) or _unexplained(now, q_words, counterpart[1])


def _as_written(shown: list[str], low: list[str]) -> list[str]:
    """Each part as the page wrote it (a contraction's later parts as their words)."""
    return [written or part for written, part in zip(shown, low, strict=True)]


def _unexplained(words: list[str], other: list[str], counterpart: list[str]) -> bool:
    """Whether a word of `words` is no harmless form of a word of the other side."""
    explainer = Explainer(other, counterpart)
    return not all(explainer.explains(word) for word in words)


def _is_content(word: str) -> bool:
    return not is_function(word)


def _with_its_other_kinds(change: WordChange, kinds: list[str]) -> list[WordChange]:
    """A change whose words carry more than one kind of meaning change ("do not" -> "may":
    a negation removed and a modal weakened) is said once for each, so that every kind a
    verdict names is shown on the words that carry it."""
    if not change.meaningful or change.kind not in kinds:
        return [change]
    return [
        change,
        *(
            WordChange(change.op, change.quote, change.page, True, kind)
            for kind in kinds
            if kind != change.kind
        ),
    ]


def _opcode_kind(was: list[str], now: list[str], span_kinds: dict[str, str]) -> str | None:
    """What one change does to the meaning, judged on its words and the span's counts."""
    if not now and was[:1] and was[0] in CONDITIONS:
        return "qualifier removed"  # "... if versioning is enabled" taken out
    if not was and now[:1] and now[0] in CONDITIONS:
        return "qualifier added"
    if "negation" not in span_kinds and denial_said_in_a_word(was, now):
        return None  # "does not allow" -> "prevents": the same denial
    carried = class_kinds(was, now, span_kinds)
    flipped = carried == [span_kinds.get("default")] and _opposed(was, now)
    if carried and not flipped:  # a setting turned to its opposite is a reversal, below
        return carried[0]
    if "limit" in span_kinds and set(was + now) & (LIMIT_WORDS | NEGATIONS):
        return span_kinds["limit"]  # "does not accept more than" -> "accepts more than"
    if "number" in span_kinds and set(was + now) & UNITS:
        return span_kinds["number"]  # KB -> MB: the size changed, though its digits did not
    if "modal" in span_kinds and "negation" not in span_kinds and NEGATIONS & set(was + now):
        return span_kinds["modal"]  # "is required" -> "is not required": the need lifted
    if "negation" in span_kinds and any(negating_pairs(was, now)):
        return span_kinds["negation"]  # able / unable: the count of negations changed
    if _opposed(was, now):
        return "direction reversed"
    if carried:
        return carried[0]
    was_effects = {EFFECT_FAMILY[lemma(w)] for w in was if lemma(w) in EFFECT_FAMILY}
    now_effects = {EFFECT_FAMILY[lemma(w)] for w in now if lemma(w) in EFFECT_FAMILY}
    if was_effects and now_effects and not was_effects & now_effects:
        return "effect changed"
    if not was and ({w for w in now if w in QUALIFIERS} or has_phrase(now, QUALIFIER_PHRASES)):
        return "qualifier added"
    if restricts(now) and not restricts(was):
        return "qualifier added"  # ("... in this way"; "this" taken out points elsewhere)
    if not now and any(w in QUALIFIERS and was[i - 1 : i] != ["not"] for i, w in enumerate(was)):
        return "qualifier removed"  # not "not only": the restriction it denied, or X and Y
    return None


def _opposed(was: list[str], now: list[str]) -> bool:
    """A word taken out and its opposite put in (enabled / disabled, read / write)."""
    return any_opposites(was, now)
