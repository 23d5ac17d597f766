"""Classes of meaning-carrying words: negations, numbers, modals, quantifiers, degrees,
guarantee terms, support status and defaults, counted over a whole span, so that a word
that only moved is no change; and the kind of meaning change a difference in each makes.

Pure. Judged on the lower-cased words of a quote and its span.
"""

from __future__ import annotations

import re
from collections import Counter

from claimledger.reading.match.alike import (
    as_said,
    eventually_as_a_moment,
    hyphenated_as,
    moments_counted,
    names_a_moment,
    phrases_alike,
    rates_said_with_a,
)
from claimledger.reading.match.clauses import relation_traded
from claimledger.reading.match.hedges import without_hedges
from claimledger.reading.match.lexicon import (
    AGENCY,
    BOOLEANS,
    CERTAINTY,
    CONSISTENCY,
    DEFAULT_MARKERS,
    DEGREE,
    LIFECYCLE,
    MODAL_STRENGTH,
    QUANTIFIERS,
    UNIT,
    lemma,
    number_value,
)
from claimledger.reading.match.modals import as_instructions, strengths, weaker
from claimledger.reading.match.negations import (
    boolean_said,
    denies,
    negated_in_place,
    negation_count,
    status_said,
    unstuttered,
)
from claimledger.reading.match.quantities import (
    RATES,
    approximates,
    counts,
    joined_terms,
    limits,
    names_a_month,
    numbers_differ,
    numbers_swapped,
    quantity,
    times_differ,
    unbounded,
)
from claimledger.reading.match.signs import pounds_as_sterling


def _class_counts(words: list[str]) -> dict[str, Counter[str]]:
    """The meaning-carrying words of a span, by class."""
    classes: dict[str, Counter[str]] = {name: Counter() for name in _CLASSES}
    classes["figure"] = counts(words)
    for index, word in enumerate(words):
        base = lemma(word)
        if denies(words, index):
            classes["negation"]["not"] += 1
        classes["number"].update(quantity(words, index))
        if _share_left(words, index):
            classes["number"][f"to {word}"] += 1
        if word in MODAL_STRENGTH:
            classes["modal"][str(MODAL_STRENGTH[word])] += 1
        share = _share_said(words, index)
        if share is not None:
            classes["quantifier"][share] += 1

        if approximates(words, index):
            pass  # "about 10" -> "roughly 10": counted by `_approximations`
        elif word in DEGREE and word != "never":
            classes["degree"][word] += 1
        elif word in CERTAINTY:
            classes["degree"][CERTAINTY[word]] += 1
        if word in CONSISTENCY:
            classes["term"][word] += 1
        if word in LIFECYCLE and _said_of_a_feature(words, index):
            classes["lifecycle"][status_said(words, index)] += 1
        if word in BOOLEANS or base in DEFAULT_MARKERS:
            classes["default"][boolean_said(words, index) if word in BOOLEANS else "default"] += 1
        if word in AGENCY:
            classes["default"][AGENCY[word]] += 1
    return classes


def _approximations(words: list[str]) -> Counter[str]:
    """The figures the words say are approximate: "about 10 ms and 5 s" -> "10 ms and about
    5 s" keeps as many, and changes how exact each is."""
    return Counter(words[i + 1] for i in range(len(words)) if approximates(words, i))


def _share_left(words: list[str], index: int) -> bool:
    """A share said as what a change leaves ("reduces memory to 30%"), where a change "by"
    it ("by 30%", or "30%" alone) is what goes: "by" -> "to" is another amount. Only after
    a verb of change: "set the threshold to 30%" -> "at 30%" says one amount."""
    following = words[index + 1] if index + 1 < len(words) else ""
    if index < 1 or words[index - 1] != "to" or following != "percents":
        return False
    return any(lemma(word) in _CHANGES for word in words[max(0, index - 5) : index - 1])


_CHANGES = frozenset(
    {"reduce", "cut", "lower", "drop", "fall", "decrease", "increase", "raise", "grow"}
    | {"rise", "shrink", "improve", "boost", "slash", "trim", "scale", "climb", "jump"}
)
"""Verbs whose "to" names what is left, and whose "by" what goes."""


def _a_rate(words: list[str], index: int) -> bool:
    """ "per", "every" or "each" before a unit or a figure ("100 requests per second",
    written "100 requests/second" too; "billed every hour", "every five seconds"): a rate,
    whose figure and unit the numbers compare, not a quantifier."""
    following = words[index + 1 : index + 2]
    if words[index] not in RATES or not following:
        return False
    return following[0] in UNIT or number_value(following[0]) is not None


def _share_said(words: list[str], index: int) -> str | None:
    """The share of the things the word at `index` says ("all", "some", "most"), if any:
    not "per" of a rate, "most" of a superlative, or the one moment "at some point" names;
    and "any" of a moment ("at any time", "anytime"), which is every one of them."""
    word = words[index]
    if _at_a_moment(words, index):
        return _ANY_MOMENT if word == "any" else None
    if word == "anytime":
        return _ANY_MOMENT
    if word not in QUANTIFIERS or _a_rate(words, index) or _superlative(words, index):
        return None
    return QUANTIFIERS[word]


def _at_a_moment(words: list[str], index: int) -> bool:
    """ "some" of "at some point", "certain" of "at a certain stage", "any" of "at any
    time": a word that says which moment, not a share of the things ("At one point" ->
    "At some point" is the same moment; "at some point" -> "at any time" is not, nor ->
    "at every stage")."""
    before = words[max(0, index - 2) : index]
    at = before[-1:] == ["at"] or before == ["at", "a"]
    return words[index] in _WHICH_MOMENT and at and names_a_moment(words[index + 1 :])


_WHICH_MOMENT = frozenset({"some", "certain", "any"})
_ANY_MOMENT = "any moment"
"""The share "at any time" says: whichever moment, where "at some point" says one."""


def _superlative(words: list[str], index: int) -> bool:
    """ "most" of "the most recent", "the 3 most recent releases": the degree of an
    adjective, not a share of the things ("most users")."""
    if words[index] != "most" or not index:
        return False
    before = words[index - 1]
    return before in {"the", "a"} or number_value(before) is not None


def _without_counts_of(
    before: dict[str, Counter[str]], after: dict[str, Counter[str]], listed: set[int]
) -> None:
    """Set aside a count of as many things as a list holds, when it is the one number
    said on one side only ("three formats: ..." -> "the ... formats")."""
    for value in {str(count) for count in listed}:
        others = [
            Counter({k: n for k, n in side["number"].items() if k != value})
            for side in (before, after)
        ]
        if before["number"][value] != after["number"][value] and others[0] == others[1]:
            for side in (before, after):
                del side["number"][value], side["figure"][value]


def span_kinds_of(
    q_low: list[str], p_low: list[str], listed: set[int] | None = None
) -> dict[str, str]:
    """Classes whose words changed across the whole span (so a moved word is no change),
    each with the kind of meaning change it makes. A count of items a list there says
    (`listed`) that came or went is no number changed: "three formats: json, yaml and
    table" -> "the json, yaml and table formats"."""
    q_low, p_low = joined_terms(without_hedges(q_low)), joined_terms(without_hedges(p_low))
    q_low, p_low = hyphenated_as(q_low, p_low), hyphenated_as(p_low, q_low)
    q_low, p_low = moments_counted(q_low, p_low), moments_counted(p_low, q_low)
    q_low, p_low = eventually_as_a_moment(q_low, p_low), eventually_as_a_moment(p_low, q_low)
    q_low, p_low = phrases_alike(q_low), phrases_alike(p_low)  # "turn off": "disable"
    as_written = (negation_count(q_low), negation_count(p_low))
    approximated = (_approximations(q_low), _approximations(p_low))  # before "as said"
    q_low, p_low = pounds_as_sterling(q_low, p_low), pounds_as_sterling(p_low, q_low)
    q_low, p_low = as_said(q_low), as_said(p_low)
    q_low, p_low = rates_said_with_a(q_low, p_low), rates_said_with_a(p_low, q_low)
    q_low, p_low = as_instructions(q_low, p_low)
    before = _class_counts(unbounded(unstuttered(q_low)))
    after = _class_counts(unbounded(unstuttered(p_low)))
    kinds: dict[str, str] = {}
    prefixed = negated_in_place(q_low, p_low)
    negations = (
        sum(before["negation"].values()) + prefixed[0],
        sum(after["negation"].values()) + prefixed[1],
    )
    as_written = (as_written[0] + prefixed[0], as_written[1] + prefixed[1])
    if negations[0] % 2 != negations[1] % 2 and as_written[0] % 2 != as_written[1] % 2:
        # "not without" is no negation; "not required" -> "optional" is none either
        kinds["negation"] = "negation removed" if negations[0] > negations[1] else "negation added"
    if listed:
        _without_counts_of(before, after, listed)
    if numbers_differ(before, after):
        kinds["number"] = "number changed"
    elif numbers_swapped(q_low, p_low):
        kinds["number"] = "numbers swapped"
    elif times_differ(q_low, p_low):
        kinds["number"] = "number changed"
    was, now = strengths(q_low), strengths(p_low)
    if was != now:  # a strength came or went; how often one recurs is style
        kinds["modal"] = "modal weakened" if weaker(was, now) else "modal strengthened"
    if limits(q_low) != limits(p_low):
        kinds["limit"] = "limit changed"
    if relation_traded(q_low, p_low):
        kinds["relation"] = "direction reversed"
    if approximated[0] != approximated[1]:  # "about 10 ms" is not "10 ms"
        kinds["degree"] = "degree changed"
    names = {"quantifier": "quantifier changed", "degree": "degree changed"}
    names |= {"term": "guarantee term changed", "default": "default changed"}
    names |= {"lifecycle": LIFECYCLE_CHANGED}
    for name, kind in names.items():
        if before[name] != after[name]:
            kinds[name] = kind
    if _available_said_of_one_side(before["lifecycle"], after["lifecycle"]):
        del kinds["lifecycle"]
    return kinds


def _available_said_of_one_side(before: Counter[str], after: Counter[str]) -> bool:
    """A thing said to be available or supported where the other side says nothing of
    where it stands ("can be found here" -> "is available in the repository"): what a
    page describes is there unless it says otherwise."""
    return not (before and after) and set(before | after) == {"supported"}


def _said_of_a_feature(words: list[str], index: int) -> bool:
    """A word of `LIFECYCLE` said of the thing itself ("The v1 API is supported.", "will
    be removed in 3.0"), not of what it does or names ("removed from the queue", "the
    supported state stores", "is available to both")."""
    if words[index] not in _OF_OTHER_THINGS:
        return True
    following = words[index + 1] if index + 1 < len(words) else ""
    if following in {"unless", "if", "when"}:
        return words[index] != "removed"  # "ignored unless ...": a status with its case
    if words[index] == "removed" and following == "on" and _a_date_at(words, index + 2):
        return True  # "removed on 1 May 2027": a status with its day
    return following in _ENDS_A_STATUS


def _a_date_at(words: list[str], index: int) -> bool:
    """A date at `index`: a month's name ("on June 1"), a day before one ("on 1 May"), or a
    day written whole ("on 2027-05-01"); not any figure ("supported on 2 platforms")."""
    if index >= len(words):
        return False
    if _ISO_DAY.fullmatch(words[index]):
        return True
    return any(names_a_month(words, at) for at in (index, index + 1) if at < len(words))


_ISO_DAY = re.compile(r"\d{4}-\d{2}-\d{2}")


_OF_OTHER_THINGS = frozenset({"supported", "available", "removed", "ignored", "stable"})
_ENDS_A_STATUS = frozenset({"", "in", "since", "as", "and", "but", "now", "yet", "anymore"})

LIFECYCLE_CHANGED = "support status changed"
"""The kind of a feature said to be supported, deprecated, removed or experimental in
another way than before (see `LIFECYCLE`)."""

_CLASSES = (
    "negation",
    "number",
    "modal",
    "quantifier",
    "degree",
    "term",
    "lifecycle",
    "default",
)


def class_kinds(was: list[str], now: list[str], span_kinds: dict[str, str]) -> list[str]:
    """The span's kinds of change whose class words this change took or put."""
    words = _class_counts(joined_terms(was) + joined_terms(now))
    return [span_kinds[name] for name in _CLASSES if name in span_kinds and words[name]]
