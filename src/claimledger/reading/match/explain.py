"""Harmless forms: whether a word that one side of a rewording has and the other lacks is
explained by a form of a word the other side holds.

Pure. A drifted quote is plainly harmless only when every word it changed is explained:
a function word, an inflection or a derived form of the same stem (`persist` /
`persistent`, `certs` / `certificates`), a number written as a word, the same letters
with a hyphen or a space, a misspelling mended, a name respelled, or a Latin
abbreviation written out (`i.e.` / `that is`). A content word that none of these
explains may change the meaning; the diff says so with the words on both sides.
"""

from __future__ import annotations

from bisect import bisect_left
from functools import lru_cache

from claimledger.reading.match.lexicon import (
    STOPWORDS,
    UNIT,
    figure_and_unit,
    is_name,
    lemma,
    negates,
    number_value,
    words,
)
from claimledger.reading.match.names import american, bare, is_typo_of, renamed

FUNCTION_WORDS = STOPWORDS | words(
    """since though although whereas whilst like unlike versus vs via viz cf etc i.e e.g ie
    eg wrt namely instead therefore hence also just really simply actually"""
)
"""Words that carry grammar, not a claim: the locator's stopwords, and the conjunctions,
connectives and abbreviations a rewording trades for one another (`because` / `since`,
`i.e.` / `that is`). The words of the classes that carry a guarantee (negations, modals,
quantifiers, numbers) are judged by their own rules before this list is read."""

_STEM = 4
"""Two words that begin with the same this many letters, covering all but the last two
letters of the shorter, are one stem: an inflection or a derived form (`mean` / `meaning`,
`persist` / `persistent`), or an abbreviation of the longer (`cert` / `certificate`)."""


def is_function(word: str) -> bool:
    """A word of grammar (see FUNCTION_WORDS), a contraction's `'s` read off first."""
    low = word.lower().removesuffix("'s").removesuffix("’s")
    return low in FUNCTION_WORDS or not any(ch.isalnum() for ch in low)


def explained(word: str, other: list[str], counterpart: list[str]) -> bool:
    """Whether `word` is a harmless form of a word of the other side: the same number,
    lemma or letters anywhere in `other` (it may have moved), or a derived form, a
    spelling or a name respelled among the words put in its place (`counterpart`)."""
    return Explainer(other, counterpart).explains(word)


class Explainer:
    """`explained`, asked of many words against one other side: what is read of `other`
    is read once for the span (`_side`), and the counterparts that begin with a word's
    letter are tried first. Asked anew of every word, a change of hundreds of words (a
    passage of identifiers rewritten) read the whole span and tried every counterpart for
    each, and took seconds; the answers are the same, as each is whether any word of the
    other side explains it."""

    def __init__(self, other: list[str], counterpart: list[str]) -> None:
        self._side = _side(tuple(other))
        self._candidates = [word for word in counterpart if not is_function(word)]
        self._letters = sorted((bare(word), word) for word in self._candidates)
        self._growing = [*self._side.growing, *(w for w in counterpart if _may_grow(w))]

    def explains(self, word: str) -> bool:
        """Whether `word` is a harmless form of a word of the other side (`explained`)."""
        side = self._side
        if side.same_quantity(word):
            return True
        if _may_grow(word) and any(_acronym_grown(word, w) for w in self._growing):
            return False  # `HTTP` / `HTTPS`: another protocol, not a spelling of it
        if len(bare(word)) > 3 and bare(word) in side.letters:
            return True  # the same letters, spaced or hyphenated: `keypairs` / `key pairs`
        if bare(lemma(word)) in side.lemmas:
            return True
        nearest = any(_explains_as(word, w) for w in self._nearest(word))
        return nearest or any(_explains_as(word, w) for w in self._candidates)

    def _nearest(self, word: str) -> list[str]:
        """The counterparts whose letters sort beside the word's: a form of it most often
        begins as it does (`maxWorker` / `maxWorkers`), and is tried first."""
        at = bisect_left(self._letters, (bare(word), ""))
        return [w for _, w in self._letters[max(0, at - _BESIDE) : at + _BESIDE]]


_BESIDE = 2
"""Counterparts tried first on each side of where a word's letters sort among theirs."""


def _explains_as(word: str, candidate: str) -> bool:
    """Whether `candidate`, put in its place, is a form of `word`: a derived form, a
    spelling or a name respelled."""
    if same_stem(word, candidate) or is_typo_of(word, candidate):
        return True
    if american(word) == american(candidate):
        return True  # `serialised` / `serialized`, `analyse` / `analyze`
    if negates(word, candidate):
        return True  # `unusual` for `not usual`: polarity is the negation rule's to judge
    return (is_name(word) or is_name(candidate)) and renamed(word, candidate)


class _Side:
    """What `Explainer` reads of the other side of a span once: its numbers, units and
    figures, its letters run together, the lemmas of its content words, and its words
    that may be an acronym grown."""

    def __init__(self, other: tuple[str, ...]) -> None:
        self.values = {number_value(w) for w in other} - {None}
        self.units = {UNIT[w.lower()] for w in other if w.lower() in UNIT}
        self.any_units = self.units | {u for w in other if (u := _unit_of(w))}
        self.figures = {(figure_and_unit(w) or ("", ""))[0] for w in other}
        self.letters = bare("".join(other))
        self.lemmas = {bare(lemma(w)) for w in other if not is_function(w)}
        self.growing = [w for w in other if _may_grow(w)]

    def same_quantity(self, word: str) -> bool:
        """The same number (`2` / `two`), the same unit (`s` / `seconds`), or a figure with
        its unit written apart (`10h` / `10 hours`)."""
        split = figure_and_unit(word)
        if split is not None:
            return split[0] in self.values and split[1] in self.units
        if word.lower() in UNIT:
            return UNIT[word.lower()] in self.any_units
        value = number_value(word)
        return value is not None and (value in self.values or value in self.figures)


@lru_cache(maxsize=4)
def _side(other: tuple[str, ...]) -> _Side:
    """The side read once for all the changes of a span, which each ask of it."""
    return _Side(other)


def _may_grow(word: str) -> bool:
    """Whether `_acronym_grown` can hold of the word with any other: an acronym, or a
    protocol that has a secured form."""
    return (len(word) > 1 and word.isupper()) or word.lower() in _SCHEMES


def _acronym_grown(word: str, other: str) -> bool:
    """Two acronyms one of which is the other with capitals put before or after it
    (`HTTP` / `HTTPS`, `TLS` / `MTLS`), or a number (`SHA` / `SHA256`, `HTTP` / `HTTP2`):
    the letters of one are in the other, and they name two things, the one a family and
    the other one of it (a plural's "s" is small: `APIs`). A protocol and its secured
    form are two in any case (`http` / `https`), where the small "s" reads as a plural's."""
    if frozenset((word.lower(), other.lower())) in _SECURED:
        return True
    if not (len(word) > 1 and len(other) > 1 and word.isupper() and other.isupper()):
        return False
    shorter, longer = sorted((bare(word), bare(other)), key=len)
    if not shorter.isalpha() or shorter == longer:
        return False
    grown = _grown_by(shorter, longer)
    return bool(grown) and (grown.isdigit() or (word.isalpha() and other.isalpha()))


def _grown_by(shorter: str, longer: str) -> str:
    """What `longer` has beyond `shorter`, put before or after it ("" if it has it not)."""
    if longer.startswith(shorter):
        return longer[len(shorter) :]
    return longer[: -len(shorter)] if longer.endswith(shorter) else ""


_SECURED = frozenset(
    frozenset((scheme, f"{scheme}s"))
    for scheme in ("http", "ftp", "ws", "smtp", "imap", "ldap", "amqp", "mqtt", "nntp", "pop3")
)
"""Protocols, each with the form of it secured by TLS (`http` and `https`), as a URL's
scheme names them: a plural's "s" to the dictionary."""
_SCHEMES = frozenset(scheme for pair in _SECURED for scheme in pair)


def _unit_of(word: str) -> str | None:
    split = figure_and_unit(word)
    return split[1] if split else None


def same_stem(a: str, b: str) -> bool:
    """One stem in two forms (see _STEM); a word never shares a stem with its negation
    (`able` / `unable` differ at the first letter)."""
    a, b = bare(a), bare(b)
    if not (a.isalpha() and b.isalpha()):
        return False
    shorter = min(len(a), len(b))
    common = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        common += 1
    return common >= max(_STEM, shorter - 2)
