"""The meaning flag's level on a quote and the passage it drifted to, for the tests of its
rules: the passage read as a rendered page reads (no markup reduced)."""

from __future__ import annotations

from claimledger.reading.match import judge, normalize
from claimledger.reading.match.diff import Judgement


def judged(quote: str, passage: str) -> Judgement:
    return judge(normalize(quote), normalize(passage, markup=False))


def level(quote: str, passage: str) -> str:
    """ "changed" (MEANING CHANGED), "uncertain" (may have changed) or "harmless"."""
    found = judged(quote, passage)
    if found.meaning_changed:
        return "changed"
    return "uncertain" if found.meaning_uncertain else "harmless"
