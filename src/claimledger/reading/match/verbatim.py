"""A quote found as written: which of its occurrences is the quote's, and whether it was
found exactly (only whitespace differs) or once normalised.

Pure: strings in, frozen records out.
"""

from __future__ import annotations

import re

from rapidfuzz import fuzz

from claimledger.reading.match.normalize import normalize
from claimledger.reading.match.prepared import Context, PreparedText
from claimledger.reading.match.verdict import Match

_LAYOUT_SPACE = re.compile(r"[ \t\n\r\f\v]+")  # not NBSP: that one is normalised, not exact
_ANCHOR_CHARS = 80  # of the recorded text on each side, to tell occurrences apart
_CONTEXT_MIN_SCORE = 60.0  # context similarity needed to pick one of several occurrences
_CONTEXT_MIN_MARGIN = 10.0  # ... and its lead over the runner-up


def verified(
    quote: str, places: list[tuple[int, int]], prepared: PreparedText, context: Context | None
) -> Match:
    """The quote at `places`, its occurrences on the page: the one its recorded
    neighbourhood picks (else the first), and the count."""
    chosen = places[0] if len(places) == 1 else _pick_by_context(places, prepared, context)
    start, end = prepared.original_span(*(chosen or places[0]))
    current = prepared.text[start:end]
    exact = _LAYOUT_SPACE.sub(" ", current).strip() == _LAYOUT_SPACE.sub(" ", quote).strip()
    return Match(
        "verified",
        "exact" if exact else "normalized",
        1.0,
        current,
        False,
        (),
        len(places),
        prepared.context_at(start, end),
        start,
        end,
    )


def _pick_by_context(
    places: list[tuple[int, int]], prepared: PreparedText, context: Context | None
) -> tuple[int, int] | None:
    """The one occurrence whose surroundings clearly best match the stored context, if any."""
    if context is None:
        return None
    before = normalize(context.before, kind=prepared.kind, markup=False)[-_ANCHOR_CHARS:]
    after = normalize(context.after, kind=prepared.kind, markup=False)[:_ANCHOR_CHARS]
    if not before and not after:
        return None
    flat = prepared.flat
    scored = []
    for start, end in places:
        sides = []
        if before:
            sides.append(fuzz.ratio(before, flat[max(0, start - len(before) - 1) : start].strip()))
        if after:
            sides.append(fuzz.ratio(after, flat[end : end + len(after) + 1].strip()))
        scored.append((sum(sides) / len(sides), (start, end)))
    scored.sort(key=lambda item: item[0], reverse=True)
    best_score, best = scored[0]
    if best_score < _CONTEXT_MIN_SCORE or best_score - scored[1][0] < _CONTEXT_MIN_MARGIN:
        return None
    return best
