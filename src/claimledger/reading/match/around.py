"""What the page put around a quote's span in its sentence: a condition, a scope or a
negation before a quote that began a sentence, a condition after one that ended it.

Pure. Judged on the words of the sentence the quote drifted to.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterable

from claimledger.reading.match.lexicon import (
    COORDINATORS,
    DEMONSTRATIVES,
    MODAL_STRENGTH,
    NEGATIONS,
    OBLIGATIONS,
    PREPOSITIONS,
    QUALIFIER_PHRASES,
    QUALIFIERS,
    expanded,
    negated,
)
from claimledger.reading.match.modals import OBLIGING
from claimledger.reading.match.modifiers import may_scope, names_a_scope, scope_before

CONDITIONS = frozenset({"if", "unless", "only", "provided", "providing", "assuming", "except"})
"""Words that make what follows them hold only in a case (not "when": "When using the
client, ..." sets the scene more often than a condition)."""


def head_kind(head: list[str], own: list[str], quote: list[str]) -> str | None:
    """What words the page put before a quote that began a sentence do to it: a condition
    ("If enabled, ...") or a scope ("On Linux, ...") narrows it; a negation in the quote's
    own clause ("Not all ...") may deny it (one in a clause before it, "Show no progress
    and ...", or an answer, "No, ...", does not)."""
    if head and head[0] in CONDITIONS and quote[0].lower() not in QUALIFIERS:
        return "qualifier added"
    if scope_before(head, quote):
        return "qualifier added"  # "On Linux, ..."
    if may_scope(head, quote):
        return SCOPE_PUT_BEFORE  # "On BlueStore OSDs, ..."
    if any(part in NEGATIONS or negated(part) for word in own for part in expanded(word)):
        return NEGATION_BEFORE
    return None


def denial_before(own: list[str], span: list[str]) -> int:
    """How many negations stand right before a span that begins with an obligation, in its
    clause ("You do not | need to configure"): they lift it, so they are judged as part of
    it. Before other words a negation may deny them or only a word before them
    (`NEGATION_BEFORE`)."""
    if not span or span[0].lower() not in OBLIGATIONS | OBLIGING:
        return 0
    count = 0
    for word in reversed(own):
        if not any(part in NEGATIONS for part in expanded(word)):
            break
        count += 1
    return count


def modal_lead_in(own: list[str]) -> int:
    """How many words before the span, in its clause, only say how strongly it binds ("You
    must | enable TLS", "We recommend that | administrators rotate keys", "Do (not) |
    run"): they are judged as part of it, as "Enabling TLS is mandatory" and
    "Administrators should rotate keys" say the same."""
    low = [part for word in own for part in expanded(word)]
    if not low or not all(word in _LEAD_IN_WORDS or word in MODAL_STRENGTH for word in low):
        return 0
    binds = any(word in MODAL_STRENGTH for word in low) or low in (["do"], ["do", "not"])
    return len(own) if binds else 0


_LEAD_IN_WORDS = frozenset(
    {"you", "we", "i", "it", "is", "are", "be", "do", "does", "to", "that", "strongly"}
    | {"have", "has", "not", "also", "always"}
)
"""Words a lead-in that only binds the clause after it is made of, its modal aside."""


SCOPE_PUT_BEFORE = "scope put before it"
"""The kind of a phrase the page put before the quote's sentence that may tie the claim
to a case no scope word names ("For tables with a primary key, ..."): the meaning may
have changed (not strong evidence)."""

NEGATION_BEFORE = "negation put before it"
"""The kind of a negation the page put before the quote's words, in their clause ("Not all
multi-key transactions are ..."): it may deny them, or only a word before them, which the
words alone cannot tell; the meaning may have changed (not strong evidence)."""


def own_clause(head: list[str], breaks: list[bool], first: int) -> list[str]:
    """The words of `head` (those of the sentence before the span starting at `first`) in
    the span's own clause: after the last clause break or coordinator among them."""
    start = first - len(head)
    own: list[str] = []
    for index, word in enumerate(head, start):
        if (breaks[index] and index > start) or word.lower() in COORDINATORS:
            own = []
        if word.lower() not in COORDINATORS:
            own.append(word)
    return [] if breaks[first] else own


def narrows(tail: list[str]) -> bool:
    """Does what the page appended after the quote's full stop set a condition on it: a
    qualifier first (", unless ..."), or after "and" / "or" (", or if ..."), a phrase of
    condition in it ("... even with X as long as Y", "... in case of Z"), or a scope ("...
    on Enterprise plans", see `modifiers.names_a_scope`)?"""
    low = [w.lower() for w in tail]
    lead = low[1:] if low and low[0] in COORDINATORS else low
    if (lead and lead[0] in QUALIFIERS) or has_phrase(low, QUALIFIER_PHRASES):
        return True
    return restricts(low) or names_a_scope(lead, [])


def restricts(words: list[str]) -> bool:
    """A phrase that ties a claim to the case at hand ("with this command", "in this way",
    "for such tasks"): a preposition before "this", "these" or "such"; not one that gives
    a cause ("For this reason, ...")."""
    return any(
        word in PREPOSITIONS
        and following in DEMONSTRATIVES
        and words[index + 2 : index + 3] not in (["reason"], ["reasons"])
        for index, (word, following) in enumerate(itertools.pairwise(words))
    )


def has_phrase(words: list[str], phrases: Iterable[tuple[str, ...]]) -> bool:
    return any(
        tuple(words[index : index + len(phrase)]) == phrase
        for phrase in phrases
        for index in range(len(words) - len(phrase) + 1)
    )
