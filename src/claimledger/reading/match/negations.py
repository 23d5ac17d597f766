"""Negations: how many a span holds, counting a word that carries its own ("unable"), "fail"
before "to", and a negating prefix the dictionary does not know, so that a negation added
or removed is told from one said another way ("does not allow" / "prevents").

Pure. Judged on the lower-cased words of a span.
"""

from __future__ import annotations

from collections import Counter

from claimledger.reading.match.lexicon import (
    EFFECT_FAMILY,
    LIFECYCLE,
    NEGATIONS,
    lemma,
    negated,
    negating,
)
from claimledger.reading.match.opposed import any_opposites, negating_pairs


def unstuttered(words: list[str]) -> list[str]:
    """A word written twice running read once ("is not not a requirement" is a slip for
    "is not a requirement", never a double negation)."""
    return [w for index, w in enumerate(words) if not index or w != words[index - 1]]


def negation_count(words: list[str]) -> int:
    words = unstuttered(words)
    return sum(1 for index in range(len(words)) if denies(words, index))


def denies(words: list[str], index: int) -> bool:
    """A negation: "not", a word with its own ("unable"), a word that says a thing is not
    there ("lacks a signature", "is missing": does not have one, does not exist), or "fail"
    before "to" ("fails to replicate": does not replicate)."""
    word = words[index]
    if word == "skip" and words[index + 1 : index + 2] in (["list"], ["lists"]):
        return False  # a skip list is a structure, not a step left out
    if correlative(words, index) or nor_after_a_negation(words, index):
        return False
    if negating(word):
        return True
    return lemma(word) == "fail" and words[index + 1 : index + 2] == ["to"]


def correlative(words: list[str], index: int) -> bool:
    """ "not" of "not only X but also Y", which says X and Y and denies nothing (with no
    "but" after it, "is not only for admins" denies a restriction)."""
    following = words[index + 1 : index + 2 + _CORRELATIVE_REACH]
    return words[index] == "not" and following[:1] in _RESTRICTING and "but" in following


def nor_after_a_negation(words: list[str], index: int) -> bool:
    """ "nor" after a negation ("not the global nor the local one", "neither ... nor"):
    it joins what that negation denies, as "or" does, and adds no negation of its own."""
    return words[index] == "nor" and any(w in NEGATIONS for w in words[:index])


_CORRELATIVE_REACH = 15
"""Words after "not only" within which its "but (also)" comes."""
_RESTRICTING = (["only"], ["just"], ["merely"])


def quantifier_scope_changed(
    q_low: list[str], p_low: list[str], q_clauses: list[int], p_clauses: list[int]
) -> bool:
    """A negation that moved on to, or off, a word of all ("not always deleted" -> "always
    not deleted", "not all nodes reply" -> "all nodes do not reply", "does not retry in
    all cases" -> "in all cases, it does not retry"): denying "all" says "some are not",
    denying what all do says "none do", though the words and the count of negations
    stay. `q_clauses` and `p_clauses` are the clause of each word (`clauses.clause_numbers`)."""
    if negation_count(q_low) != negation_count(p_low):
        return False  # a negation added or removed: judged as such
    q_all, p_all = _universal(q_low, q_clauses), _universal(p_low, p_clauses)
    words = Counter(w for w, _ in q_all.elements()), Counter(w for w, _ in p_all.elements())
    return words[0] == words[1] and q_all != p_all


def _universal(words: list[str], clauses: list[int]) -> Counter[tuple[str, bool]]:
    """Each word of all in `words`, and whether a negation denies it: one just before it
    (an aside between them, "not, however, always", "not quite all", leaves it denied),
    or a verb's denial earlier in its clause ("does not retry in all cases": not in all)."""
    reached = _reached_by_a_verb_denial(words, clauses)
    return Counter(
        (word, _denied_before(words, index) or reached[index])
        for index, word in enumerate(words)
        if word in _OF_ALL
    )


def _denied_before(words: list[str], index: int) -> bool:
    before = index - 1
    while before >= 0 and (words[before] in _ASIDES or words[before].endswith("ly")):
        before -= 1
    return before >= 0 and words[before] in NEGATIONS


def _reached_by_a_verb_denial(words: list[str], clauses: list[int]) -> list[bool]:
    """For each word, whether a verb's denial ("not", "never") before it in its clause
    reaches it: what the clause denies, it denies of all the word says. A denial that
    opens a relative clause reaches nothing past it, and none reaches into a clause a
    subordinator opens after it. One pass: a sentence of many denials stays linear."""
    reached, live = [], False
    for index, word in enumerate(words):
        if index and clauses[index] != clauses[index - 1]:
            live = False
        reached.append(live)
        if word in _SUBORDINATORS:
            live = False
        elif word in _VERB_DENIALS and not _denies_a_relative_clause(words, index):
            live = True
    return reached


def _denies_a_relative_clause(words: list[str], at: int) -> bool:
    """Whether the denial at `at` opens a relative clause ("requests that do not match",
    "nodes which never reply"): that clause ends before the verb of the sentence, which
    the denial does not reach ("requests that do not match are all dropped" says all of
    them are)."""
    before = words[max(0, at - 2) : at]
    if before[-1:] and before[-1] in _RELATIVES:
        return True
    if len(before) == 2 and before[0] in _RELATIVES and before[1] in _AUXILIARIES:
        return True
    return _after_a_relatives_subject(words, at)


def _after_a_relatives_subject(words: list[str], at: int) -> bool:
    """Whether the denial at `at` follows a relative word, the subject of its clause (a
    determiner or a pronoun, and a few words) and an auxiliary: "files that the job did
    not write", "the keys that you do not need" (the object the clause speaks of). Not
    where the denied verb has its object after it ("note that the server does not retry
    all requests"): that "that" opens what is said, not a clause of a thing, and the
    denial reaches the object."""
    if _object_follows(words, at):
        return False
    end = at - 1 if at and words[at - 1] in _AUXILIARIES else at
    for start in range(max(0, end - _SUBJECT_WORDS), end - 1):
        subject = words[start + 1 : end]
        opens = words[start] in _RELATIVES and subject[0] in _SUBJECT_OPENERS
        if opens and not any(w in _AUXILIARIES or w in _RELATIVES for w in subject):
            return True
    return False


def _object_follows(words: list[str], at: int) -> bool:
    """Whether the word after the verb the denial at `at` denies opens that verb's object
    ("does not retry all requests", "did not write the files"): a relative clause of
    its object leaves that place empty ("files that the job did not write are ...")."""
    return words[at + 2 : at + 3] != [] and words[at + 2] in _OBJECT_OPENERS


_SUBJECT_WORDS = 5
"""The most words the subject of a relative clause takes, with its relative word."""
_DETERMINERS = frozenset(
    {"the", "a", "an", "this", "these", "those", "its", "their", "our", "your", "my", "his"}
    | {"her", "no"}
)
"""Words that open a noun phrase, a clause's subject or its object alike."""
_SUBJECT_OPENERS = _DETERMINERS | {"you", "we", "they", "i", "he", "she", "it", "someone", "nobody"}
"""Words that open the subject of a relative clause that speaks of its object."""
_OBJECT_OPENERS = _DETERMINERS | {"any", "some", "it", "them", "all", "every", "each", "both"}
"""Words that open a verb's object: after them the clause has its object, so it is no
relative clause that speaks of one."""


_VERB_DENIALS = frozenset({"not", "n't", "never", "cannot"})
"""Negations that deny a verb, and so all its clause says after it ("without all its
plugins" denies no verb: "in all cases, without retries" says the same)."""

_RELATIVES = frozenset({"that", "which", "who", "whom", "whose", "where"})
"""Words that open a relative clause, said of the word before them."""
_AUXILIARIES = frozenset(
    {"do", "does", "did", "is", "are", "was", "were", "has", "have", "had", "can", "could"}
    | {"will", "would", "shall", "should", "may", "might", "must"}
)
"""Verbs a denial follows in a relative clause ("that are not", "which does not")."""
_SUBORDINATORS = _RELATIVES | {
    "when",
    "whenever",
    "if",
    "unless",
    "until",
    "till",
    "because",
    "while",
    "whereas",
    "although",
    "though",
    "once",
}
"""Words that open a clause of its own within a clause: a denial before one does not
reach a word of all in it ("not retried when all workers are busy" is "when all workers
are busy, not retried"). "after", "before" and "since" open a phrase as often ("not
flushed after every write"), which the denial reaches."""


_ASIDES = frozenset({",", "however", "quite", "really", "even", "yet", "necessarily", "in"})


_OF_ALL = frozenset({"all", "always", "every", "each", "both", "everyone", "everything"})
"""Words of all, whose scope a negation before them narrows to some ("not all")."""


def negated_in_place(q_low: list[str], p_low: list[str]) -> tuple[int, int]:
    """The negations a prefix makes that `negated` does not count ("impossible", or
    "unauthenticated", whose stem the dictionary may not know), on each side: counted
    where a word was traded for itself with the prefix, or the prefix taken off."""
    taken, put = set(q_low) - set(p_low), set(p_low) - set(q_low)
    extra = [0, 0]
    for was, now in negating_pairs(taken, put):
        longer = max(was, now, key=len)
        if not negated(longer):
            extra[longer == now] += 1
    return extra[0], extra[1]


def denial_said_in_a_word(was: list[str], now: list[str]) -> bool:
    """A negation traded, with what it denied, for a word that denies it: "not enabled" ->
    "disabled", "does not allow" -> "prevents", "does not run" -> "skips"."""
    if any(word in NEGATIONS for word in was) == any(word in NEGATIONS for word in now):
        return False
    if any_opposites(was, now):
        return True
    was_effects = {EFFECT_FAMILY[lemma(w)] for w in was if lemma(w) in EFFECT_FAMILY}
    now_effects = {EFFECT_FAMILY[lemma(w)] for w in now if lemma(w) in EFFECT_FAMILY}
    return any(frozenset((a, b)) in _DENIED_BY for a in was_effects for b in now_effects)


_DENIED_BY = frozenset(
    frozenset((EFFECT_FAMILY[done], EFFECT_FAMILY[denied]))
    for done, denied in (("allow", "prevent"), ("run", "skip"))
)
"""Families of effects one of which is the other's denial: not to allow is to prevent."""


def boolean_said(words: list[str], index: int) -> str:
    """A boolean as it says: "not enabled" is "disabled", "not true" is "false"."""
    word = words[index]
    return _OTHER_BOOLEAN[word] if _after_a_negation(words, index) else word


_OTHER_BOOLEAN = {"true": "false", "false": "true", "enabled": "disabled", "disabled": "enabled"}


def status_said(words: list[str], index: int) -> str:
    """A support status as it says: "not available" and "not supported" are "removed", as
    "unavailable" and "unsupported" are."""
    status = LIFECYCLE[words[index]]
    denied = _after_a_negation(words, index) and status == "supported"
    return "removed" if denied else status


def _after_a_negation(words: list[str], index: int) -> bool:
    return index > 0 and words[index - 1] in NEGATIONS
