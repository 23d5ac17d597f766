"""Find a quote in a page's text and say how it stands: verified, drifted, missing.

Pure: strings in, frozen records out; no network, no disk, no clock. The package is cut
along its concerns: `normalize` (what does not change meaning, and the map back to the
page's characters), `lexicon` (words and the words that carry meaning), `prepared` (a
page read once for many quotes), `span` (a quote's own span of a passage), `names` and
`clauses` (a name respelled or replaced; lists and clauses changed), `modals` (how
strongly a span binds), `negations` (how many negations a span holds), `alike` (forms
that say one thing), `diff` (what a rewording did to the meaning), `candidate` (a passage
that could be the quote reworded, and how alike), `locator` (where the quote, or its
successor, is) and `verdict` (what it answers).
"""

from __future__ import annotations

from claimledger.reading.match.diff import Judgement, judge
from claimledger.reading.match.locator import locate
from claimledger.reading.match.normalize import TextKind, normalize
from claimledger.reading.match.prepared import CONTEXT_CHARS, Context, PreparedText, prepare
from claimledger.reading.match.verdict import DEFAULT_THRESHOLDS, FoundMissing, Match, Thresholds
from claimledger.records import WordChange
from claimledger.versions import MATCH as VERSION

__all__ = [
    "CONTEXT_CHARS",
    "DEFAULT_THRESHOLDS",
    "VERSION",
    "Context",
    "FoundMissing",
    "Judgement",
    "Match",
    "PreparedText",
    "TextKind",
    "Thresholds",
    "WordChange",
    "judge",
    "locate",
    "normalize",
    "prepare",
]
