"""Clauses and lists: an item added to or dropped from an enumeration, words that traded
places inside a clause, a negation that moved to another clause.

Pure. Judged on the lower-cased words of a quote and its span, with the clause breaks
before each word.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass

from claimledger.reading.match.around import has_phrase
from claimledger.reading.match.lexicon import (
    COORDINATORS,
    MODAL_STRENGTH,
    NEGATIONS,
    STOPWORDS,
    is_content_word,
    is_word,
    lemma,
    number_value,
)
from claimledger.reading.match.names import is_participle
from claimledger.reading.match.negations import (
    denies,
    nor_after_a_negation,
    quantifier_scope_changed,
)
from claimledger.reading.match.span import Opcode
from claimledger.records import WordChange


@dataclass(frozen=True)
class Lists:
    """The enumerations of a quote and its span: an item added to or dropped from one, or
    one turned into a single thing, makes the claim cover more, or fewer, things."""

    q_low: list[str]
    p_low: list[str]
    q_breaks: list[bool]
    p_breaks: list[bool]

    def changed(self, op: Opcode) -> str | None:
        """An item added or dropped ("direct writes and append writes" -> "direct writes";
        "files, data, or json" -> "content, files, data, or json"; "any workflow, step, or
        transaction" -> "any workflow or step"; "Read-only transactions and read-write
        transactions" -> "Transactions")."""
        tag, i1, i2, j1, j2 = op
        deleted = tag == "delete"
        run = self.q_low[i1:i2] if deleted else self.p_low[j1:j2]
        around, breaks = (self.q_low, self.q_breaks) if deleted else (self.p_low, self.p_breaks)
        start, end = (i1, i2) if deleted else (j1, j2)
        content = [w for w in run if w not in STOPWORDS and w not in COORDINATORS]
        if not content or len(content) > 3 or run[0] in _NOT_AN_ITEM:
            return None
        if all(w in _EXTENDERS or w in _CONNECTIVES for w in content):
            return None  # "or similar", "and so on", "as a result": no item of its own
        other = {lemma(w) for w in (self.p_low if deleted else self.q_low)}
        if all(lemma(w) in other for w in content):
            return None  # the item is still there, moved or in another form
        at_edge = start == 0 or end >= len(around)
        if at_edge and not (deleted and COORDINATORS & set(run)):
            return None  # at the edge of the span: where the quote was cut, not the claim
        if self._extends_an_item(run, breaks, start, end):
            return None  # "concurrency and consistency" -> "concurrency control and ..."
        before = around[start - 1] if start else ""
        after = around[end] if end < len(around) else ""
        if COORDINATORS & {run[0], run[-1], before, after}:
            return "list changed"
        if joined_items(around, start, end):
            return "list changed"  # items joined ("the domains (mobile) and schemes")
        if breaks[end] and COORDINATORS & set(around[end : end + _LIST_REACH]):
            return "list changed"  # "X, Y, or Z" with an item put before Y
        if breaks[start] and COORDINATORS & set(around[max(0, start - _LIST_REACH) : start]):
            return "list changed"
        return None

    def _extends_an_item(self, run: list[str], breaks: list[bool], start: int, end: int) -> bool:
        """Whether words put in or taken out, with no coordinator or comma of their own,
        only lengthen or shorten an item beside them, the same number of things joined on
        both sides."""
        if COORDINATORS & set(run) or breaks[start] or breaks[end]:
            return False
        joined = joined_items(self.q_low, 0, len(self.q_low))
        return joined == joined_items(self.p_low, 0, len(self.p_low))

    def replaced(self, op: Opcode) -> str | None:
        """Items turned into one thing, or one into items ("the trust_env, verify, and cert
        arguments" -> "the ssl configurations", "Redis or a database" -> "Redis as a
        broker")."""
        _, i1, i2, j1, j2 = op
        if max(i2 - i1, j2 - j1) > _LIST_REPLACED:
            return None  # a clause rewritten, not a list
        was = joined_items(self.q_low, i1, i2)
        now = joined_items(self.p_low, j1, j2)
        return "list changed" if was != now else None


def items_put_or_taken(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> bool:
    """The same words around an enumeration that has more items now, or fewer ("only for
    Linux and Windows hosts" -> "only for Linux, Windows and macOS hosts", "one of gzip,
    snappy or lz4" -> "... lz4 or zstd"): every other word kept, so the claim covers
    other things. The diff may pair a new item with an old one, which alone would read as
    a name replaced."""
    was, now = _enumerated(q_low, q_breaks), _enumerated(p_low, p_breaks)
    if not was or not now or was == now or not (was < now or now < was):
        return False
    if (was ^ now) <= _EXTENDERS:
        return False  # "and others", "and similar": no item of its own
    if has_phrase(q_low, EXAMPLES) or has_phrase(p_low, EXAMPLES):
        return False  # "such as gzip, deflate, or brotli": examples stand for a kind
    return _around(q_low, was) == _around(p_low, now)


def _enumerated(words: list[str], breaks: list[bool]) -> frozenset[str]:
    """The one-word items of the enumerations in `words`: those beside a coordinator that
    joins things, and those before it that commas set apart."""
    items: set[str] = set()
    for index, word in enumerate(words):
        if word not in COORDINATORS or not 0 < index < len(words) - 1:
            continue
        if breaks[index + 1] or not joined_items(words, index, index + 1):
            continue
        before = index - 1
        items |= {words[index + 1], words[before]}
        while before > 0 and breaks[before] and words[before - 1] not in STOPWORDS:
            before -= 1
            items.add(words[before])
    return frozenset(items)


def condition_restated(
    lead: list[str], quote: list[str], then: list[str], breaks: list[bool]
) -> bool:
    """A lone "if" or "when" put before a quote's words (`then`, with the clause `breaks`
    before each) that the quote said in a clause restricting its subject ("A message that
    has been in the queue longer than the TTL is dead" -> "If | a message has been in the
    queue longer than the TTL, it is dead"): the same condition, said as one. Lower-cased
    words."""
    if len(lead) != 1 or lead[0] not in _RESTATING or not _RELATIVES & set(quote):
        return False
    end = next((k for k in range(1, len(then)) if breaks[k]), len(then))
    content = {lemma(w) for w in then[:end] if w not in STOPWORDS}
    return len(content) >= 2 and content <= {lemma(w) for w in quote}


_RESTATING = frozenset({"if", "when", "whenever", "once"})
_RELATIVES = frozenset({"that", "which", "who", "whose"})


def items_listed(words: list[str], breaks: list[bool]) -> int:
    """How many one-word items the enumerations in `words` list ("json, yaml and table":
    3)."""
    return len(_enumerated(words, breaks))


def _around(words: list[str], items: frozenset[str]) -> list[str]:
    """The words that are neither an item nor a coordinator: what the claim says of them."""
    return [w for w in words if w not in items and w not in COORDINATORS]


EXAMPLES = (
    *(("such", "as"), ("for", "example"), ("for", "instance"), ("e.g",), ("eg",)),
    *(("including",), ("like",)),
)
"""Phrases that open a list of examples, whose items stand for a kind and hold alike
whichever join them, or however many."""


def among_examples(words: list[str], at: int) -> bool:
    """Does a phrase of examples open before `at` ("such as A, B, or C"), with no
    condition opened between ("Like v1, v2 rejects it if A or B": the "or" is the
    condition's)?"""
    before = words[max(0, at - _EXAMPLE_REACH) : at]
    starts = [
        index
        for index in range(len(before))
        if any(tuple(before[index : index + len(p)]) == p for p in EXAMPLES)
    ]
    return bool(starts) and not set(before[starts[-1] :]) & _OPENING_A_CONDITION


_EXAMPLE_REACH = 20
"""Words a list of examples may run to before its coordinator."""

_OPENING_A_CONDITION = frozenset({"if", "unless", "when", "whenever", "once", "while", "until"})


_EXTENDERS = frozenset({"similar", "etc", "others", "alike", "forth", "like"})
_CONNECTIVES = frozenset(
    {"result", "consequence", "addition", "therefore", "thus", "hence", "also", "moreover"}
)
"""Words of a phrase that joins a clause to what came before ("and, as a result, ..."):
put in or taken out, they add or drop no item."""


_LIST_REPLACED = 6
"""At most this many words replaced on a side, for a list turned into one thing."""


_LIST_REACH = 3
"""An item beside a comma belongs to a list that has "and" / "or" within this many words."""


def joined_items(words: list[str], start: int, end: int) -> int:
    """How many "and" / "or" in ``words[start:end]`` join two things ("gzip or bzip2",
    "Redis or a database"), not two clauses."""
    count = 0
    for index in range(start, end):
        if words[index] not in COORDINATORS or not 0 < index < len(words) - 1:
            continue
        following = index + 1
        while following < len(words) - 1 and words[following] in _ARTICLES:
            following += 1
        if words[index - 1] not in STOPWORDS and words[following] not in STOPWORDS:
            count += 1
    return count


_ARTICLES = frozenset(
    {"a", "an", "the", "as", "at", "by", "for", "from", "in", "on", "to", "under", "via", "with"}
)
"""Words an item may begin with: "or on the allowlist", "or as a result backend"."""


_NOT_AN_ITEM = frozenset({"using", "by", "with", "for", "from", "to", "in", "on", "at", "via"})


def with_swaps(
    changes: list[WordChange],
    q_low: list[str],
    p_low: list[str],
    q_breaks: list[bool],
    p_breaks: list[bool],
) -> list[WordChange]:
    """Add the pairs of words of one clause that traded places (old/new -> new/old, before/
    after: the direction reversed), and of two clauses ("the client encrypts ... and the
    server stores" -> "the server encrypts ... and the client stores"), which may be the
    same roles reversed or only the clauses said in another order: the meaning may have
    changed. Items of a list trading places ("pickle, JSON and YAML" -> "JSON, pickle and
    YAML") are no such change: nothing but a comma or a coordinator stands between them."""
    pairs = _swapped(q_low, p_low, q_breaks, p_breaks)
    for pair, one_clause in pairs:
        kind = "words swapped" if one_clause else SWAPPED_ACROSS_CLAUSES
        changes.append(WordChange("replace", " ".join(pair), " ".join(pair[::-1]), True, kind))
    reversal = None if pairs else reversed_around_a_link(q_low, p_low, q_breaks, p_breaks)
    if reversal is not None:
        was, now = reversal
        changes.append(WordChange("replace", was, now, True, "words swapped"))
    return changes


_LINKS = frozenset({"to", "from", "into", "onto", "before", "after", "than", "by", "over", "until"})
"""Words that relate what stands before them to what stands after, one way only: "from A
to B", "A before B", "wrapped by A"."""


def reversed_around_a_link(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> tuple[str, str] | None:
    """Two phrases that traded sides of a link word said once on each side ("from the
    application to the mesh" -> "from the mesh to the application", "appended to the log
    before it is applied" -> "applied before it is appended to the log"), or of a word
    that relates them ("local settings override the global configuration" -> "the
    global configuration overrides local settings"), every other content word kept: the
    same words, the relation reversed. A phrase that moves with its link ("After a
    crash, X" -> "X after a crash") or a passive that names its agent ("A sends B" -> "B
    is sent by A") trades only one side, and is no reversal; nor do items of a list trade
    sides of a link inside one of them (each side is read in the link's own clause)."""
    q_lemmas, p_lemmas = _content_lemmas(q_low), _content_lemmas(p_low)
    if sorted(q_lemmas) != sorted(p_lemmas):
        return None  # words changed too: not the same words reversed
    links = [w for w in dict.fromkeys(q_low) if w in _LINKS]  # in the quote's order
    pivots = [
        (link, q_low.index(link), p_low.index(link))
        for link in links
        if q_low.count(link) == 1 and p_low.count(link) == 1
    ]
    if _same_grammar(q_low, p_low):  # not reworded around a word ("a guide for X" -> "X guide")
        q_at, p_at = _once(q_low), _once(p_low)
        pivots += [(q_low[q_at[lem]], q_at[lem], p_at[lem]) for lem in q_at if lem in p_at]
    for word, q_index, p_index in pivots:
        q_before, q_after = _sides_of(q_index, q_low, q_breaks)
        p_before, p_after = _sides_of(p_index, p_low, p_breaks)
        crossed = (q_before - q_after) & (p_after - p_before)
        crossed_back = (q_after - q_before) & (p_before - p_after)
        if crossed and crossed_back:
            first, second = _in_order(crossed, q_low), _in_order(crossed_back, q_low)
            return f"{first} {word} {second}", f"{second} {word} {first}"
    return None


def _same_grammar(q_low: list[str], p_low: list[str]) -> bool:
    """Whether both sides hold the same words of grammar, articles and demonstratives
    aside, and no "by" (a passive names its agent after it, on the other side of its verb)."""
    aside = {"a", "an", "the", "this", "that", "these", "those"}
    q_grammar = sorted(w for w in q_low if w in STOPWORDS and w not in aside)
    p_grammar = sorted(w for w in p_low if w in STOPWORDS and w not in aside)
    return q_grammar == p_grammar and "by" not in q_grammar


def _once(words: list[str]) -> dict[str, int]:
    """Where each content lemma said once in `words` stands."""
    seen: dict[str, list[int]] = {}
    for index, word in enumerate(words):
        if is_content_word(word):
            seen.setdefault(lemma(word), []).append(index)
    return {lem: places[0] for lem, places in seen.items() if len(places) == 1}


def _sides_of(at: int, words: list[str], breaks: list[bool]) -> tuple[set[str], set[str]]:
    """The content lemmas of the clause of the word at `at`, before it and after it (all
    before it, when the word opens its clause)."""
    clauses = clause_numbers(words, breaks)
    own = [w if clauses[i] == clauses[at] else "" for i, w in enumerate(words)]
    opens = at == 0 or clauses[at - 1] != clauses[at]  # ", before it is applied"
    before = words[:at] if opens else own[:at]
    return set(_content_lemmas(before)), set(_content_lemmas(own[at + 1 :]))


def _content_lemmas(words: list[str]) -> list[str]:
    return [lemma(w) for w in words if is_content_word(w)]


def _in_order(lemmas: set[str], words: list[str]) -> str:
    """The words of `words` whose lemmas are among `lemmas`, in their order."""
    return " ".join(w for w in words if lemma(w) in lemmas)


SWAPPED_ACROSS_CLAUSES = "words swapped across clauses"


def clause_numbers(words: list[str], breaks: list[bool]) -> list[int]:
    """The clause each word is in: a new one at a clause break, "and", "or"."""
    clause, found = 0, []
    for index, word in enumerate(words):
        at_break = index < len(breaks) and breaks[index] and index > 0
        if at_break or word in COORDINATORS:
            clause += 1
        found.append(clause)
    return found


_SWAP_REACH = 8
"""Two words trade places within this many words of each other; further apart, a sentence
was restructured."""


def _floats(word: str) -> bool:
    """A word English lets stand on either side of its head: an adverb ("applied
    automatically", "automatically applied") or a participle ("scheduled workflows",
    "workflows scheduled")."""
    return (word.endswith("ly") and len(word) > 4 and is_word(word)) or is_participle(word)


def _swapped(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> list[tuple[tuple[str, str], bool]]:
    """Pairs of words that exchanged places around the same words ("from old to new" ->
    "from new to old"), each with whether they stand in one clause. A word moved past a
    run that stayed ("lock-free MVCC support" -> "support lock-free MVCC", "the CA bundle
    of Certifi" -> "the Certifi CA bundle") is a noun phrase reordered, no swap, and so
    are two words with no more than an article between them ("the knob X" -> "the X
    knob", "we set the X" -> "with the X set")."""
    q_clause, p_clause = clause_numbers(q_low, q_breaks), clause_numbers(p_low, p_breaks)
    once = [
        w
        for w in dict.fromkeys(q_low)
        if w not in STOPWORDS
        and w not in NEGATIONS
        and w not in MODAL_STRENGTH
        and not _floats(w)
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
            if flipped and abs(q_at[a] - q_at[b]) <= _SWAP_REACH:
                first, second = (a, b) if q_at[a] < q_at[b] else (b, a)
                between = _unarticled(q_low[q_at[first] + 1 : q_at[second]])
                if between != _unarticled(p_low[p_at[second] + 1 : p_at[first]]):
                    continue
                if between == ["per"] or not between:
                    continue  # "per minute per user": one rate; "the knob X" / "the X knob"
                if one_clause or set(between) - COORDINATORS:  # not items of one list
                    pairs.append(((first, second), one_clause))
    return pairs


def _unarticled(words: list[str]) -> list[str]:
    """The words without articles ("fails, a" / "fails, the" stand alike between two
    swapped nouns)."""
    return [w for w in words if w not in {"a", "an", "the"}]


def negation_moved_across_clauses(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> dict[str, str]:
    """A negation that moved to another clause ("A is not B, and C is D" -> "A is B, and C
    is not D"), or on to other words of its own ("does not retry X" -> "retries X, not
    Y"), changes what is denied, though the count of negations stays."""
    if _a_value_reordered(q_low, p_low, q_breaks, p_breaks):
        return {}  # "none, gzip and zstd" -> "gzip, zstd and none": "none" is a value
    q_clauses, p_clauses = clause_numbers(q_low, q_breaks), clause_numbers(p_low, p_breaks)
    if quantifier_scope_changed(q_low, p_low, q_clauses, p_clauses):
        return {"negation": "quantifier changed"}  # "not all" -> "all ... not": none
    q_denied, p_denied = _denied(q_low, q_clauses), _denied(p_low, p_clauses)
    if _denies_the_same(q_denied, p_denied):
        reach = (_denied(q_low, q_clauses, None), _denied(p_low, p_clauses, None))
        if _denial_traded(q_denied, p_denied, q_low, p_low) and not _still_denied(
            q_denied, p_denied, *reach
        ):
            return {"negation": "words swapped"}  # "to A, not B" -> "to B, not A"
        return {}  # the same things are denied, wherever the clauses now run
    if _moved_to_another_clause(_by_clause(q_low, q_clauses), _by_clause(p_low, p_clauses)):
        return {"negation": "negation moved to another clause"}
    if _now_asserted(q_denied, p_denied, p_low):
        return {"negation": "negation moved to other words"}
    return {}


def _a_value_reordered(
    q_low: list[str], p_low: list[str], q_breaks: list[bool], p_breaks: list[bool]
) -> bool:
    """The same words, with a word of negation an item of a list on both sides: the list's
    items said in another order, one of them the value "none"."""
    items = _enumerated(q_low, q_breaks) & _enumerated(p_low, p_breaks)
    if not items & NEGATIONS or Counter(q_low) != Counter(p_low):
        return False
    return _around(q_low, items) == _around(p_low, items)  # only the items moved


def _moved_to_another_clause(
    quote_clauses: list[tuple[frozenset[str], int]], page_clauses: list[tuple[frozenset[str], int]]
) -> bool:
    """Whether a clause kept its words but not its negation, clause for clause."""
    if len(quote_clauses) != len(page_clauses) or len(quote_clauses) < 2:
        return False  # clauses merged or split: a rewording, not a move
    for index, (content, negations) in enumerate(quote_clauses):
        twin_index = max(
            range(len(page_clauses)),
            key=lambda k: (len(page_clauses[k][0] & content), k == index),
        )
        twin, twin_negations = page_clauses[twin_index]
        if len(twin & content) >= 2 and twin_negations % 2 != negations % 2:
            return True
    return False


def _denial_traded(
    quote: list[set[str]], page: list[set[str]], q_low: list[str], p_low: list[str]
) -> bool:
    """Whether what was denied is now asserted and what was asserted is now denied ("to
    A, not to B" -> "to B, not to A"): the words on both sides are the same, the claim is
    the reverse."""
    before = set().union(*quote) if quote else set()
    now = set().union(*page) if page else set()
    freed, denied = before - now, now - before
    on_page, in_quote = {lemma(w) for w in p_low}, {lemma(w) for w in q_low}
    if _turned_passive(denied, p_low, q_low) or _turned_passive(freed, q_low, p_low):
        return False  # "Clients must not reuse a nonce" -> "A nonce must not be reused by clients"
    return bool(freed and denied) and freed <= on_page and denied <= in_quote


def _still_denied(
    quote: list[set[str]], page: list[set[str]], q_reach: list[set[str]], p_reach: list[set[str]]
) -> bool:
    """Whether the words that left a negation's first few stand further on in its clause,
    on both sides ("must not exceed a 10-hour window" -> "must not exceed a window of 10
    hours"): the same denial, said in another order."""
    before, now = set().union(*quote), set().union(*page)
    return before - now <= set().union(*p_reach) and now - before <= set().union(*q_reach)


def _turned_passive(denied: set[str], passive: list[str], active: list[str]) -> bool:
    """Whether the words a negation now denies are all the agent of a passive ("by
    clients") that the other side has as no agent: its subject, said the other way round."""
    agents, other_agents = _agents(passive), _agents(active)
    return bool(denied) and denied <= agents and not denied & other_agents


def _agents(words: list[str]) -> set[str]:
    """The lemmas of the words after each "by" (its articles skipped): who does it."""
    found: set[str] = set()
    for index, word in enumerate(words[:-1]):
        if word == "by":
            following = [w for w in words[index + 1 : index + 4] if w not in _ARTICLES]
            found.update(lemma(w) for w in following[:1])
    return found


def _denies_the_same(quote: list[set[str]], page: list[set[str]]) -> bool:
    """Whether every negation of each side denies something a negation of the other side
    denies ("executed ..., and not by a worker" and "not executed by a worker, but ...")."""
    return all(any(d & other for other in page) for d in quote) and all(
        any(d & other for other in quote) for d in page
    )


def _now_asserted(quote: list[set[str]], page: list[set[str]], p_low: list[str]) -> bool:
    """Whether the words a negation of the quote denied all stand on the page, denied by no
    negation there, while the page keeps a negation of its own ("does not retry" -> "retries
    ..., not X"): the negation moved on to other words."""
    on_page = {lemma(w) for w in p_low}
    denied_now = set().union(*page) if page else set()
    return bool(page) and any(d and d <= on_page and not d & denied_now for d in quote)


_DENIED_WORDS = 3
"""A negation denies the next few content words ("not executed by a worker"): a phrase, not
one word, so that the same denial written in another order is the same."""


def _denied(
    words: list[str], clauses: list[int], reach: int | None = _DENIED_WORDS
) -> list[set[str]]:
    """What each negation denies: the lemmas of the first few content words after it (or
    of all, with no `reach`), in its own clause."""
    found = []
    for index, word in enumerate(words):
        if word in NEGATIONS and not nor_after_a_negation(words, index):
            following = [
                w
                for w, clause in zip(words[index + 1 :], clauses[index + 1 :], strict=True)
                if clause == clauses[index] and w not in STOPWORDS and w not in NEGATIONS
            ]
            found.append({lemma(w) for w in following[:reach]})
    return found


def _by_clause(words: list[str], clauses: list[int]) -> list[tuple[frozenset[str], int]]:
    """Each clause's content lemmas and its count of negations."""
    content: dict[int, set[str]] = {}
    negations: Counter[int] = Counter()
    for index, (word, clause) in enumerate(zip(words, clauses, strict=True)):
        content.setdefault(clause, set())
        if denies(words, index):  # "fails to start" denies as "does not start" does
            negations[clause] += 1
        elif word not in STOPWORDS:
            content[clause].add(number_value(word) or lemma(word))
    return [(frozenset(content[c]), negations[c]) for c in sorted(content)]


_LABELLED_WHEN = frozenset({"when", "if", "once"})
_IN_USE = frozenset({"used", "enabled", "selected", "chosen", "configured", "set", "specified"})
"""A thing in use: what a label before a claim says of it (not "disabled", not "missing")."""
_LABEL_MOST = 5  # words of a label, at most


def condition_as_label(
    quote: list[str], breaks: list[bool], passage: str
) -> tuple[list[str], list[bool]]:
    """The quote's words with a leading condition on a thing's use written as the page
    writes it, as a label: "When strong consistency is used, Dapr waits ..." where the
    page has "Strong consistency: Dapr waits ..." (a definition list, a bullet's bold
    lead) is the same case said shorter, so the quote is judged as "Strong consistency
    Dapr waits ...". Only a thing in use: "If TLS is disabled" is no "TLS:". Else the
    quote's words as they are."""
    end = next((i for i in range(1, len(quote)) if breaks[i]), 0)
    if end < 4 or quote[0].lower() not in _LABELLED_WHEN or end - 3 > _LABEL_MOST:
        return quote, breaks
    verb, state = quote[end - 2].lower(), quote[end - 1].lower()
    if verb not in ("is", "are") or state not in _IN_USE:
        return quote, breaks
    label = quote[1 : end - 2]
    if not re.match(r"\W*" + r"\W+".join(map(re.escape, label)) + r"\W*:", passage, re.IGNORECASE):
        return quote, breaks
    return [*label, *quote[end:]], [True, *breaks[2 : end - 2], *breaks[end:]]


_LINKED_AS = {
    **dict.fromkeys(("after", "afterwards"), "later"),
    **dict.fromkeys(("before", "beforehand"), "earlier"),
    **dict.fromkeys(("because", "therefore", "hence"), "cause"),
    **dict.fromkeys(("although", "though", "despite"), "concession"),
}
"""Words that link two things by when or why, by the relation they say."""
_LINKS_OPPOSED = (("later", "earlier"), ("cause", "concession"))


def relation_traded(q_low: list[str], p_low: list[str]) -> bool:
    """A relation between two things traded for its opposite, wherever the clauses now
    stand: "Run A after B" -> "Before B, run A"; "X holds because Y" -> "Although Y, X
    holds"."""
    was = Counter(_LINKED_AS[w] for w in q_low if w in _LINKED_AS)
    now = Counter(_LINKED_AS[w] for w in p_low if w in _LINKED_AS)
    return any(
        (was[a] > now[a] and now[b] > was[b]) or (was[b] > now[b] and now[a] > was[a])
        for a, b in _LINKS_OPPOSED
    )
