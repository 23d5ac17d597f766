"""Two runs of words that traded places, every other word kept where it stood: "writes to
the primary and reads from the replica" -> "reads from the primary and writes to the
replica". However far apart they stand, the sentence now says the reverse, unless the
runs are all that tells two items of a coordination apart ("version 2.x and version
3.x" -> "version 3.x and version 2.x"), or phrases that carry their own relation ("to
the archive from the staging bucket"): then they were only said in another order.

Pure. Judged on the lower-cased words of a quote and its span, with the clause breaks
before each word (`span.tokens_and_breaks`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from claimledger.reading.match.lexicon import (
    COORDINATORS,
    EITHER_PARTICLE,
    PARTICLE_OPPOSITES,
    STOPWORDS,
    lemma,
    number_value,
)
from claimledger.reading.match.opposed import any_opposites
from claimledger.reading.match.span import Opcode

_ITEM_JOINERS = COORDINATORS | {"whereas", "while"}
"""Words that join two items or clauses either of which may come first."""

_RELATIONS = frozenset(
    {"from", "to", "into", "onto", "in", "on", "at", "by", "for", "with", "via", "over", "per"}
)
"""Words that open a phrase with its role in the sentence ("from A", "to B")."""

_SUBORDINATORS = frozenset(
    {"once", "when", "whenever", "if", "unless", "until", "after", "before", "because"}
)
"""Words that open a clause with its relation to the main clause ("once a consumer
commits"): the clause moved with it, the main clause's words stayed its own."""


@dataclass(frozen=True)
class Exchange:
    """The quote is `before + first + middle + second + after`; the page says `second`
    where `first` stood and `first` where `second` stood."""

    before: list[str]
    first: list[str]
    middle: list[str]
    second: list[str]
    after: list[str]

    @property
    def places(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """Where the two runs stand in the quote (start, end)."""
        first = len(self.before)
        second = first + len(self.first) + len(self.middle)
        return (first, first + len(self.first)), (second, second + len(self.second))


def exchanged(quote: list[str], page: list[str]) -> Exchange | None:
    """The two runs of `quote` that trade places in `page`, with words between them: every
    other word the same and in place. None for any other edit, and for two runs side by
    side ("scheduled workflows" -> "workflows scheduled"), a phrase reordered."""
    if len(quote) != len(page) or Counter(quote) != Counter(page):
        return None
    start = common_prefix(quote, page)
    if start == len(quote):
        return None
    stop = len(quote) - common_prefix(quote[::-1], page[::-1])
    q_mid, p_mid = quote[start:stop], page[start:stop]
    for first_len in range(1, len(q_mid) - 1):
        for second_len in range(1, len(q_mid) - first_len):
            first, second = q_mid[:first_len], q_mid[len(q_mid) - second_len :]
            middle = q_mid[first_len : len(q_mid) - second_len]
            traded = _traded(first, second) or _particles_swapped(
                quote[:start], first, middle, second
            )
            if p_mid == [*second, *middle, *first] and traded:
                return Exchange(quote[:start], first, middle, second, quote[stop:])
    return None


def items_reordered(exchange: Exchange, breaks: list[bool]) -> bool:
    """Whether the runs are what two items of a coordination differ by, the rest of each
    item the same on both sides ("[version] 2.x and [version] 3.x"; "CPU, memory, and
    disk"), or two phrases that each carry their own relation ("from the staging bucket
    to the archive bucket" -> "to the archive bucket from the staging bucket"): they
    traded places, and nothing said of them changed. `breaks` are the quote's (before
    each word)."""
    if _led_by_relations(exchange):
        return True
    if exchange.after and breaks[len(breaks) - 1 - len(exchange.after)]:
        return False  # ", which adds latency": what follows may be said of the last item
    offset = len(exchange.before) + len(exchange.first)
    middle = exchange.middle
    joiner = [word in _ITEM_JOINERS for word in middle] + [False]
    edges = [  # where an item may end, and where the next begins
        (at, at + joiner[at]) for at in range(len(middle) + 1) if breaks[offset + at] or joiner[at]
    ]
    ends_first = any(_starts_with(exchange.after, middle[:at]) for at, _ in edges)
    starts_second = any(_ends_with(exchange.before, middle[end:]) for _, end in edges)
    return ends_first and starts_second


def _led_by_relations(exchange: Exchange) -> bool:
    """Both runs open with a relation word of their own, and not the same one ("from A"
    and "to B" moved whole), or one is a clause that opens with its own ("once a
    consumer commits an offset"), or each follows the same one with nothing else between
    them ("per minute per user"): the relations stayed with what they relate."""
    first, second = exchange.first[0], exchange.second[0]
    if first in _RELATIONS and second in _RELATIONS and first != second:
        return True
    if (first in _SUBORDINATORS) != (second in _SUBORDINATORS):
        return True  # "Once A commits it, B persists it" -> "B persists it once A commits it"
    before, middle = exchange.before[-1:], exchange.middle
    return bool(before) and before == middle and before[0] in _RELATIONS


def _traded(first: list[str], second: list[str]) -> bool:
    """Whether two runs that changed places can change what is said: each says something,
    or they are opposites, small words though they may be ("up, not down" -> "down, not
    up"), which a reader reads the other way round."""
    opposed = any_opposites(first, second)
    return opposed or _says_something(first, second)


def _particles_swapped(
    before: list[str], first: list[str], middle: list[str], second: list[str]
) -> bool:
    """Whether the runs are the particles of one verb said twice ("log in before you log
    out" -> "log out before you log in"): `in` and `out` are small words, and opposites
    only after a verb, but there each one says the reverse of the other."""
    pair = frozenset((*first, *second))
    verbs = before[-1:], middle[-1:]
    return (
        len(first) == len(second) == 1 and pair in PARTICLE_OPPOSITES and verbs[0] == verbs[1] != []
    )


def particle_reversed(op: Opcode, q_low: list[str], p_low: list[str]) -> bool:
    """Whether a change traded the particle of a verb for its opposite, the verb the same
    on both sides ("Users log in with SSO" -> "Users log out with SSO", "sign in to" ->
    "sign out of"): `in` and `out` are small words, but after one verb each says the
    reverse of the other. Not after a verb that says the same with either ("fill in" a
    form is "fill out" one), nor after a number, where they say a share ("3 out of 4" is
    "3 in 4")."""
    tag, i1, _, j1, _ = op
    if tag != "replace" or not i1 or not j1:
        return False
    verb = q_low[i1 - 1]
    if verb != p_low[j1 - 1] or verb in STOPWORDS or number_value(verb) is not None:
        return False
    if _says_the_same_with_either(verb):
        return False
    return frozenset((q_low[i1], p_low[j1])) in PARTICLE_OPPOSITES


def _says_the_same_with_either(verb: str) -> bool:
    """Whether the verb, in any of its forms, says the same with either particle ("fill",
    "filled", "filling"): the dictionary reads "filling" as a noun, and keeps it."""
    return lemma(verb) in EITHER_PARTICLE or verb.removesuffix("ing") in EITHER_PARTICLE


def _says_something(*runs: list[str]) -> bool:
    return all(any(word not in STOPWORDS or number_value(word) for word in run) for run in runs)


def common_prefix(a: list[str], b: list[str]) -> int:
    """How many words the two begin with alike."""
    count = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        count += 1
    return count


def _ends_with(words: list[str], end: list[str]) -> bool:
    return not end or words[len(words) - len(end) :] == end


def _starts_with(words: list[str], start: list[str]) -> bool:
    return words[: len(start)] == start
