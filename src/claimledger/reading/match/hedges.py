"""Hedges about time: words that say a statement holds for now ("currently", "at the
moment", "this behavior may change in a future release"). Docs drop them when a feature
settles and add them while it is new; put in or taken out, they change no claim, and the
modal of "may change" is not the claim's own. A pointer to another part of the page ("as
noted above") is read alike.

Pure. Judged on the lower-cased words of a span.
"""

from __future__ import annotations

_FOR_NOW = (
    ("currently",),
    ("presently",),
    ("at", "the", "moment"),
    ("at", "present"),
    ("at", "this", "time"),
    ("as", "of", "now"),
    ("as", "of", "today"),
    ("as", "of", "this", "writing"),
    ("for", "now"),
    ("for", "the", "time", "being"),
    ("right", "now"),
    *(
        ("as", said, where)
        for said in ("noted", "mentioned", "described", "shown", "explained", "discussed")
        for where in ("above", "below", "earlier", "later", "previously")
    ),
)
"""Phrases that date a statement to the present and say nothing else, and pointers to
another part of the page ("as noted above"), which say no claim either."""

_MAY = frozenset({"may", "might", "could"})
"""Modals of a possibility ("can be changed" says what a user can do: a claim)."""

_SUBJECTS = frozenset(
    {"this", "that", "it", "which", "behavior", "behaviour", "feature", "functionality"}
)
"""What a "may change" hedge is said of: the statement itself, or the feature it
describes (never a thing the claim is about: "the leader may change")."""

_LATER = (
    ("in", "a", "future", "release"),
    ("in", "a", "future", "version"),
    ("in", "future", "releases"),
    ("in", "future", "versions"),
    ("in", "the", "future"),
    ("without", "notice"),
    ("without", "prior", "notice"),
    ("at", "any", "time"),
    ("over", "time"),
)
"""What may follow "may change": when, which only says that it may."""

_SOMETIME = tuple(p for p in _LATER if p[-1] in {"release", "releases", "version", "versions"})
"""When that says a statement may not last ("in a future release"), whatever its subject:
"at any time", "without notice" and "in the future" are said as often of the thing
itself ("IP addresses may change without notice")."""

_NEW = frozenset({"experimental", "beta", "preview", "alpha", "unstable", "incubating", "new"})
"""What a feature is said to be before "and may change" ("is experimental and may
change"): the hedge is said of it."""


def hedge_positions(words: list[str]) -> set[int]:
    """The positions of the words of every hedge about time in `words`: a phrase of
    `_FOR_NOW`, or a clause saying the statement may change ("this may change in a future
    release", "and is subject to change"), its subject and when included."""
    found: set[int] = set()
    for start in range(len(words)):
        if words[start] not in _FIRST_WORDS:
            continue
        for phrase in _FOR_NOW:
            if tuple(words[start : start + len(phrase)]) == phrase:
                found.update(range(start, start + len(phrase)))
        found.update(_may_change(words, start))
    return found


_FIRST_WORDS = frozenset(phrase[0] for phrase in _FOR_NOW) | _MAY | {"subject"}
"""The words a hedge can begin with (its modal, for a "may change" one)."""


def without_hedges(words: list[str]) -> list[str]:
    """The words with every hedge about time taken out."""
    hedged = hedge_positions(words)
    return [word for index, word in enumerate(words) if index not in hedged]


def _may_change(words: list[str], start: int) -> range:
    """The clause of a "may change" hedge whose modal (or "subject to") is at `start`, or
    an empty range: ending its span, or followed by when it may, and said of a subject
    of `_SUBJECTS` ("this behavior may change") or of a release to come ("may change in
    a future release"), so that "the leader may change at any time" stays a claim."""
    if words[start : start + 3] == ["subject", "to", "change"]:
        end = start + 3
    elif words[start] in _MAY and words[start + 1 : start + 2] == ["change"]:
        end = start + 2
    elif words[start] in _MAY and words[start + 1 : start + 3] == ["be", "changed"]:
        end = start + 3
    else:
        return range(0)
    later = next((p for p in _LATER if tuple(words[end : end + len(p)]) == p), ())
    if not later and end < len(words):
        return range(0)  # "may change the output format": a claim of what it does
    first = start
    if words[start] == "subject":  # "(and) is subject to change"
        while first > 0 and words[first - 1] in {"is", "are", "and"}:
            first -= 1
        return range(first, end + len(later))
    while first > 0 and words[first - 1] in _SUBJECTS:
        first -= 1
    if first == start and start > 1 and words[start - 1] == "and" and words[start - 2] in _NEW:
        first -= 1  # "is experimental and may change": said of the feature just named
    if first == start and later not in _SOMETIME:
        return range(0)  # said of no statement, nor of a release to come
    return range(first, end + len(later))
