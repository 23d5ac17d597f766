"""Modals: how strongly a span binds (must, will, should, may), so that a rewording across
the must/should/may line is told from one within a strength, and an obligation a
negation lifts ("need not") from a prohibition ("must not").

Pure. Judged on the lower-cased words of a span.
"""

from __future__ import annotations

from collections import Counter

from claimledger.reading.match.exchange import common_prefix
from claimledger.reading.match.lexicon import (
    HEDGE_STRENGTH,
    HEDGES,
    MODAL_STRENGTH,
    NEGATIONS,
    OBLIGATIONS,
    lemma,
)


def strengths(words: list[str]) -> set[int]:
    """The strengths a span binds with, a plain statement's among them: "will" binds no
    more than the verb alone does, so "can use features that would be hard to build" and
    "can use features that are hard to build" bind alike."""
    return set(_modal_ranks(words)) | {_FACT}


def weaker(was: set[int], now: set[int]) -> bool:
    """Whether a span binds more weakly now (its `strengths` then and now): on average,
    or, where the averages tie ("should" dropped beside a "can" that stays), by the
    strongest strength that went against the strongest that came."""
    before, after = sum(was) / len(was), sum(now) / len(now)
    if before != after:
        return after < before
    return max(was - now, default=0) > max(now - was, default=0)


def _modal_ranks(words: list[str]) -> Counter[int]:
    """How strongly a span binds, modal by modal (must 4, will 3, should 2, may 1; a span
    with none states a fact, as "will" does). "Can never" and "cannot" bind as "will
    never" does: it does not happen; "may not" and "might not" stay a possibility ("may
    not be available" hedges). Can / may / might / could are one strength. A verb of
    effort before "to" ("tries to ensure") binds as "should" does, and a span that opens
    with "Do not" forbids as "must not" does. "Can be found" points to a thing, as "is" does."""
    ranks: Counter[int] = Counter()
    if words[:2] == ["do", "not"]:
        ranks[MODAL_STRENGTH["must"]] += 1  # "Do not store secrets": you must not
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        if _points_to(words, index):
            continue  # "can be found in the guide": where it is, not what may be done
        if word in MODAL_STRENGTH:
            strength = MODAL_STRENGTH[word]
            impossible = following in NEGATIONS and word in _ABILITY_MODALS
            ranks[3 if impossible else strength] += 1
        elif following == "to" and lemma(word) in HEDGES:
            ranks[HEDGE_STRENGTH] += 1
        elif following == "to" and lemma(word) in OBLIGING:
            ranks[MODAL_STRENGTH["must"]] += 1  # "you have to configure": must
        elif _permits(words, index):
            ranks[MODAL_STRENGTH["may"]] += 1  # "X allows you to Y": you can Y
    return ranks or Counter({3: 1})


def _points_to(words: list[str], index: int) -> bool:
    """ "can be found", "can be seen": a pointer to where a thing is, which binds no more
    than "is" does."""
    return words[index] in _ABILITY_MODALS and tuple(words[index + 1 : index + 3]) in _POINTERS


_POINTERS = frozenset(("be", seen) for seen in ("found", "seen", "viewed", "located"))

_FACT = MODAL_STRENGTH["will"]
_ABILITY_MODALS = frozenset({"can", "could"})
OBLIGING = frozenset({"have", "got"})
"""Verbs that oblige before "to" ("you have to", "has to"), as "must" does."""
_PERMITTING = frozenset({"allow", "enable", "permit", "let"})
"""Verbs that give a possibility to someone ("allows developers to attach", "lets you
set"): "you can" said the other way round."""
_PERMIT_REACH = 3


def _permits(words: list[str], index: int) -> bool:
    """A verb of permission with its "to" close after it (or "let", which takes none)."""
    base = lemma(words[index])
    if base not in _PERMITTING:
        return False
    between = words[index + 1 : index + 1 + _PERMIT_REACH]
    if "to" not in between:
        return base == "let"
    return "by" not in between[: between.index("to")]  # not "enabled by default. To ..."


def modal_traded(was: list[str], now: list[str]) -> str | None:
    """One modal put for another of another strength, and nothing else ("other
    transactions should be processed first" -> "will be processed first"): the kind it
    makes, though the span may say the old strength elsewhere too."""
    if len(was) != 1 or len(now) != 1:
        return None
    before, after = MODAL_STRENGTH.get(was[0]), MODAL_STRENGTH.get(now[0])
    if before is None or after is None or before == after:
        return None
    return "modal weakened" if after < before else "modal strengthened"


def as_instructions(q_low: list[str], p_low: list[str]) -> tuple[list[str], list[str]]:
    """An instruction said to the reader with a modal ("you must download", "you can also
    use", "you will need to set") where the other side gives it as a bare imperative
    ("download", "use", "set") at the same place, every word before it the same: the
    imperative instructs as the modal does, so both are read as the imperative."""
    return _imperative_of(q_low, p_low), _imperative_of(p_low, q_low)


def _imperative_of(words: list[str], other: list[str]) -> list[str]:
    at = common_prefix(words, other)
    if at >= min(len(words), len(other)) or words[at] != "you":
        return words
    for lead in _ADDRESSED:
        verb = at + 1 + len(lead)
        if tuple(words[at + 1 : verb]) == lead and words[verb : verb + 1] == [other[at]]:
            return words[:at] + words[verb:]
    return words


_TO_YOU = (
    ("must",),
    ("should",),
    ("can",),
    ("may",),
    ("need", "to"),
    ("have", "to"),
    ("will", "need", "to"),
    ("will", "have", "to"),
)
_ADDRESSED = tuple(
    sorted(
        {(*modal, *also) for modal in _TO_YOU for also in [(), ("also",), ("then",), ("first",)]},
        key=len,
        reverse=True,
    )
)
"""What may stand between "you" and the verb of an instruction: a modal and its "also"."""


def lifted(words: list[str]) -> list[str]:
    """The words with each obligation a negation lifts read as "optional": "is not
    required", "need not", "does not have to" and "is optional" say one thing, with no
    negation of their own, while "must not" -> "need not" turns a prohibition into a
    permission."""
    read: list[str] = []
    index = 0
    while index < len(words):
        word, following = words[index], words[index + 1 : index + 3]
        negation = word in NEGATIONS
        if negation and following[:1] and following[0] in OBLIGATIONS:
            read.append("optional")  # "not required", "no need to"
            index += 2
        elif negation and following in (["have", "to"], ["has", "to"]):
            read.append("optional")  # "do not have to": its "to" stays
            index += 2
        elif (
            word in _NEEDS
            and following[:1]
            and following[0] in NEGATIONS
            and not (following[1:] and following[1] in _COMPARATIVES)
        ):
            read.append("optional")  # "need not", "needn't"; not "needs no fewer than 3"
            index += 2
        else:
            read.append(word)
            index += 1
    return read


_NEEDS = frozenset({"need", "needs"})
_COMPARATIVES = frozenset({"more", "less", "fewer"})
