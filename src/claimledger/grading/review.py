"""A claim whose evidence changed meaning goes back to its author: no rule raises its grades
until the author revised the claim or confirmed it as it stands. Pure.

An adopted rewording that changed (or may have changed) what a quote said is recorded in
the claim's history with its `meaning`; `Claim.review` finds the latest such adoption the
author has not acted on since. What the change touched in the claim's own words (a
number, a name, a unit) is pointed out, since that is what the author must re-read.
"""

from __future__ import annotations

import itertools
import re

from claimledger.grading.verdicts import STALE, Verdict, fall, weaker
from claimledger.ledger.model import Claim, Facet, HistoryEntry
from claimledger.ledger.vocabulary import Basis, Grade
from claimledger.reading.match import judge, normalize

NEEDS_REVIEW = "needs-review"
"""The notice (and, where a raise is held back, the rule) of a claim under review."""


def held_for_review(claim: Claim, facet: Facet, verdict: Verdict, *, first: bool) -> Verdict:
    """The rule's verdict on a facet of a claim under review: a raise is held back, a
    quote facet falls as the reversed quote made it fall (`_adopted_reversal`), and the
    claim's first facet carries the notice that keeps `regrade --check` failing."""
    entry = claim.review
    if entry is None:
        return verdict
    why = review_reason(claim, entry)
    also = f" Also, {verdict.why}." if verdict.notice == STALE else ""  # one notice: the review's
    if entry.meaning == "changed" and facet.basis is Basis.QUOTES:
        verdict = _adopted_reversal(facet, verdict, why)  # the lowering's cause, for the history
    why += also
    new = verdict.to_grade
    if new is not None and new != facet.grade and weaker(new, facet.grade) == facet.grade:
        return Verdict(None, NEEDS_REVIEW, why, verdict.evidence, NEEDS_REVIEW if first else None)
    if first and verdict.notice in (None, STALE):  # a lowering keeps its own cause
        if new is not None and new != facet.grade:
            return Verdict(new, verdict.rule, verdict.why, verdict.evidence, NEEDS_REVIEW)
        return Verdict(new, NEEDS_REVIEW, why, verdict.evidence, NEEDS_REVIEW)  # its own name
    return verdict


def _adopted_reversal(facet: Facet, verdict: Verdict, why: str) -> Verdict:
    """A quote facet of a claim whose adopted quote reversed its meaning: UNKNOWN until the
    author acts, as the drift made it before the new words were adopted. The new words
    verify where they stand, but the claim was graded on the old ones: the grade was the
    same whether a regrade lowered it first or the words were adopted first, and only
    the author may say the claim still follows."""
    if (verdict.to_grade or facet.grade) is Grade.UNKNOWN:
        return verdict
    lowered = fall(facet, "quotes-meaning-changed", why, verdict.evidence)
    return Verdict(lowered.to_grade, lowered.rule, why, verdict.evidence, verdict.notice)


def review_reason(claim: Claim, entry: HistoryEntry) -> str:
    """Why the claim needs review, in the words on both sides and the claim's own."""
    how = "may have changed" if entry.meaning == "uncertain" else "changed"
    said = f"its quote now says “{entry.quote_now}” (was “{entry.quote_was}”): its meaning {how}"
    touched = touched_words(claim, entry)
    if touched:
        said += f"; the claim itself says {', '.join(f'“{w}”' for w in touched)}"
    return (
        f"{said}. Revise the claim (title, statement, grades), or confirm it: "
        f"`claimledger review {claim.id} --confirm --because …`"
    )


def touched_words(claim: Claim, entry: HistoryEntry) -> list[str]:
    """The words the change took out of the quote that the claim's title or statement
    still uses (256 KB, AES-256, a name): what no longer follows from the evidence."""
    if entry.quote_was is None or entry.quote_now is None:
        return []
    judged = judge(normalize(entry.quote_was), normalize(entry.quote_now, markup=False))
    own = f"{claim.title}\n{claim.statement}".lower()
    found: list[str] = []
    for change in judged.changes:
        for word in _phrases(change.quote):
            if word.lower() not in found and _has(own, word.lower()):
                found.append(word)
    return found


def _phrases(text: str) -> list[str]:
    """The words of a change, with a number kept with the unit after it ("256 KB")."""
    words = text.split()
    phrases = [" ".join(pair) for pair in itertools.pairwise(words)]
    return [p for p in phrases if any(ch.isdigit() for ch in p)] + [
        w for w in words if len(w) > 2 or any(ch.isdigit() for ch in w)
    ]


def _has(text: str, word: str) -> bool:
    return re.search(rf"(?<!\w){re.escape(word)}(?!\w)", text) is not None
