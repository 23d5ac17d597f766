"""Abbreviations spelled out: "TTL" for "time-to-live", "mTLS" for "mutual TLS", "RBAC"
for "role-based access control". Docs write a term out for a new reader and abbreviate it
once it is known; the term is the same.

Pure. Works on the words of a quote and its span as written (case tells an acronym).
"""

from __future__ import annotations

import re
from functools import lru_cache

from claimledger.reading.match.lexicon import STOPWORDS

_ACRONYM = re.compile(r"[a-z]?[A-Z]{2,6}s?")
"""Two to six capitals, perhaps after one small letter ("mTLS") or before a plural "s"."""

_PART = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+")
"""The parts of a word that may each give an initial: those between hyphens, and those a
capital begins inside a word ("OpenID" gives O and ID, "JSON" gives J or JSON)."""

_SKIPPABLE = frozenset({"a", "an", "and", "for", "in", "of", "on", "the", "to", "with"})
"""Small words an acronym may leave out inside its term ("access control list" and "ACL",
but also "bring your own key" and "BYOK", which keeps them)."""

_LONGEST = 8
"""Words a spelled-out term may run to."""
_MOST_PARTS = 12
"""Parts a spelled-out term may have."""
Parts = tuple[str, ...]
"""The parts of a run of words, each of which may give an initial (see `_PART`)."""


def as_the_page_writes(
    quote: list[str], breaks: list[bool], page: list[str], page_breaks: list[bool]
) -> tuple[list[str], list[bool]]:
    """The quote's words with each term the page abbreviates, or spells out, written as the
    page writes it: a run of the quote that spells an acronym of the page becomes the
    acronym, and an acronym of the quote that a run of the page spells becomes the run.
    `breaks` and `page_breaks` are the clause breaks before each word (and after the
    last); a term never crosses one, and keeps the one before it. Only the quote's words
    change, so the page's words stay where they stand in the passage."""
    quote, breaks = _glossed_as_the_page(quote, breaks, page, page_breaks)
    words, kept = _runs_as_acronyms(quote, breaks, _acronyms(page, quote))
    spelled = _spelled_out(page, page_breaks, _acronyms(words, page), words)
    out_words: list[str] = []
    out_breaks: list[bool] = []
    for word, brk in zip(words, kept, strict=False):
        run = spelled.get(word, [word])
        out_words += run
        out_breaks += [brk] + [False] * (len(run) - 1)
    return out_words, out_breaks + kept[len(words) :]


def _glossed_as_the_page(
    quote: list[str], breaks: list[bool], page: list[str], page_breaks: list[bool]
) -> tuple[list[str], list[bool]]:
    """The quote's words with each term glossed as the page glosses it: "TLS" where the
    page writes "Transport Layer Security (TLS)" gets the page's words before it, and the
    quote's own gloss goes where the page has the acronym alone."""
    page_glossed = {
        page[end]: page[start:end]
        for start, end in _glosses(page, page_breaks)
        if page.count(page[end]) == 1  # a gloss elsewhere on the passage is no gloss here
    }
    quote_glossed = dict(_glosses(quote, breaks))
    words: list[str] = []
    kept: list[bool] = []
    index = 0
    carried: bool | None = None  # the break before a gloss dropped, for its acronym
    while index < len(quote):
        end = quote_glossed.get(index)
        if end is not None and quote[end] not in page_glossed and quote[end] in page:
            carried, index = breaks[index], end
            continue
        word = quote[index]
        gloss = page_glossed.pop(word, None)  # before its first occurrence only
        if gloss is not None and index not in quote_glossed.values():
            words += [*gloss, word]
            kept += [breaks[index]] + [False] * (len(gloss) - 1) + [True]
        else:
            words.append(word)
            kept.append(breaks[index] if carried is None else carried)
        carried = None
        index += 1
    return words, kept + breaks[len(quote) :]


def _glosses(words: list[str], breaks: list[bool]) -> list[tuple[int, int]]:
    """Where a run of words spells the acronym that follows it after a break, as a term is
    glossed ("Transport Layer Security (TLS)"): the run's start and the acronym's place."""
    found = []
    for end in range(1, len(words)):
        if not breaks[end] or not _ACRONYM.fullmatch(words[end]):
            continue
        for start in range(end - 1, max(-1, end - _LONGEST - 1), -1):
            spelling = _spelling_at(words, breaks, start, [words[end]])
            if spelling is not None and spelling[1] == end:
                found.append((start, end))
                break
    return found


def _acronyms(words: list[str], other: list[str]) -> list[str]:
    """The acronyms of `words` that `other` lacks: capitals that spell no word of grammar
    ("NOT" and "MAY" are words written loud, not terms abbreviated). None when there are
    more than a passage of prose holds (a table of codes): each would be looked for at
    every word of the other side."""
    kept = set(other)
    found = [
        w
        for w in dict.fromkeys(words)
        if _ACRONYM.fullmatch(w) and w not in kept and w.lower() not in STOPWORDS
    ]
    return found if len(found) <= _MOST_ACRONYMS else []


_MOST_ACRONYMS = 64
"""The most acronyms one side may hold that the other lacks, for either to be spelled out."""


def _runs_as_acronyms(
    words: list[str], breaks: list[bool], acronyms: list[str]
) -> tuple[list[str], list[bool]]:
    """`words` with each run that spells out one of `acronyms` written as it."""
    if not acronyms:
        return words, breaks
    out_words: list[str] = []
    out_breaks: list[bool] = []
    index = 0
    by_initial = _by_initial(acronyms)
    while index < len(words):
        found = _spelling_at(words, breaks, index, _may_begin(words[index], by_initial, acronyms))
        if found is None:
            out_words.append(words[index])
            out_breaks.append(breaks[index])
            index += 1
            continue
        acronym, end = found
        out_words.append(acronym)
        out_breaks.append(breaks[index])
        index = end
    return out_words, out_breaks + breaks[len(words) :]


def _spelled_out(
    words: list[str], breaks: list[bool], acronyms: list[str], quote: list[str]
) -> dict[str, list[str]]:
    """Each acronym of `acronyms` that a run of `words` spells, with the run: none that
    begins or ends with the quote's own word beside the acronym (see `_beside`)."""
    found: dict[str, list[str]] = {}
    by_initial = _by_initial(acronyms)
    for index, word in enumerate(words):
        for acronym in _may_begin(word, by_initial, acronyms):
            if acronym in found:
                continue
            spelling = _spelling_at(words, breaks, index, [acronym])
            if spelling is not None and not _beside(words[index : spelling[1]], acronym, quote):
                found[acronym] = words[index : spelling[1]]
    return found


def _spelling_at(
    words: list[str], breaks: list[bool], start: int, acronyms: list[str]
) -> tuple[str, int] | None:
    """The acronym a run of words from `start` spells, and where the run ends: a run of
    one clause, of content words but for small ones inside it (the first acronym that
    any run spells, the shortest such run)."""
    if not acronyms:
        return None
    runs = _runs_from(words, breaks, start)
    for acronym in acronyms:
        letters = _letters(acronym)
        for end, parts in runs:
            if _spells(parts, letters):
                return acronym, end
    return None


def _runs_from(words: list[str], breaks: list[bool], start: int) -> list[tuple[int, Parts]]:
    """The runs from `start` that may be a term, shortest first: where each ends, and its
    parts."""
    runs = []
    for end in range(start + 1, min(len(words), start + _LONGEST) + 1):
        run = words[start:end]
        if not _may_be_a_term(run, breaks[start + 1 : end]):
            break
        if (len(run) == 1 and "-" not in run[0]) or run[-1].lower() in _SKIPPABLE:
            continue  # one word spells no term ("KiB" is no "KB"), nor a run of "the"
        parts = tuple(p for w in run for p in _PART.findall(w))
        if len(parts) <= _MOST_PARTS:
            runs.append((end, parts))
    return runs


def _letters(acronym: str) -> str:
    """The letters a term must spell: "ACLs" spells "acl"."""
    return acronym[:-1].lower() if acronym.endswith("s") else acronym.lower()


def _by_initial(acronyms: list[str]) -> dict[str, list[str]]:
    """The acronyms by the first letter a term must spell, each in its order."""
    found: dict[str, list[str]] = {}
    for acronym in acronyms:
        found.setdefault(_letters(acronym)[:1], []).append(acronym)
    return found


def _may_begin(word: str, by_initial: dict[str, list[str]], acronyms: list[str]) -> list[str]:
    """The acronyms a term that begins with `word` may spell: those of its initial, unless
    its first part is a small word a term may leave out (or it has none), so that a passage
    of many words and many capitals is not tried against every acronym at every word."""
    parts = _PART.findall(word)
    if not parts or parts[0].lower() in _SKIPPABLE:
        return acronyms
    return by_initial.get(parts[0][0].lower(), [])


def _may_be_a_term(run: list[str], breaks: list[bool]) -> bool:
    """A run that could still be, or grow into, a term: no clause break inside it, its
    first word no small one, and no word of grammar but a small one ("is private" is no
    IP)."""
    if any(breaks) or run[0].lower() in _SKIPPABLE:
        return False
    return all(w.lower() not in _CLAUSE_WORDS for w in run)


_CLAUSE_WORDS = (
    STOPWORDS
    - _SKIPPABLE
    - {"per", "out", "off", "over", "under", "up", "down"}
    - {"once", "your", "own", "first", "at", "by", "from", "into", "through", "via"}
)
"""Words of grammar that make a clause ("is", "only", "when"), never part of a term
("requests per second", "bring your own key", "write once read many" are terms)."""


@lru_cache(maxsize=4096)
def _spells(parts: Parts, letters: str) -> bool:
    """Whether the parts spell `letters` exactly, each giving its initial, or all its
    letters if written in capitals ("TLS"), or nothing if a small word inside the term
    (never the last)."""
    if not parts:
        return not letters
    part, rest = parts[0], parts[1:]
    low = part.lower()
    if letters[:1] == low[0] and _spells(rest, letters[1:]):
        return True
    whole = part.isupper() and len(part) > 1 and letters.startswith(low)
    if whole and _spells(rest, letters[len(low) :]):
        return True
    return low in _SKIPPABLE and bool(rest) and _spells(rest, letters)


def _beside(run: list[str], acronym: str, quote: list[str]) -> bool:
    """Does the run begin with the quote's content word just before the acronym, or end
    with the one just after it ("traffic with TLS" is no "traffic with the latest
    security"): those words are the quote's own, kept beside the term."""
    for at, word in enumerate(quote):
        if word != acronym:
            continue
        before = [w for w in quote[:at] if w.lower() not in _SKIPPABLE][-1:]
        after = [w for w in quote[at + 1 :] if w.lower() not in _SKIPPABLE][:1]
        if before and run[0].lower() == before[0].lower():
            return True
        if after and run[-1].lower() == after[0].lower() and not run[-1].isupper():
            return True
    return False
