"""The words of a change as the quote and the page wrote them.

Pure. The matcher reads signs as words before it compares ("$5" as "5 dollars", "10^-6"
as "0.000001", "5 Mbps" as "5 Mbit per s"), so the runs its changes name are its own
reading: a report that showed `"dollars" -> "euros"` where the page wrote "€5" would put
words in the page's mouth. Each run the reading made is traced back to the words it was
made from, and shown as written; a run that cannot be traced to one place is left as
read.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import replace
from difflib import SequenceMatcher

from claimledger.records import WordChange

_EDGE = ".,;:!?\"'()[]{}“”‘’"
"""Punctuation around a word, not part of what it says."""


def changes_as_written(
    changes: tuple[WordChange, ...],
    read: tuple[str, str],
    written: tuple[str, str],
) -> tuple[WordChange, ...]:
    """`changes` with each side's words as `written` (the quote's text, the passage's)
    has them, where `read` (the same two as the matcher read them) made them."""
    return tuple(
        replace(
            change,
            quote=run_as_written(change.quote, read[0], written[0]),
            page=run_as_written(change.page, read[1], written[1]),
        )
        for change in changes
    )


def run_as_written(run: str, read: str, written: str) -> str:
    """`run`, words of `read`, as `written` wrote them: unchanged where `written` has
    them as they are, or where `read` has them as no run of whole words, or in places
    `written` wrote otherwise (which is meant cannot be told); else the words of
    `written` they were read from, whole. The two sides of a swap ("A … B", or words
    from two places) are each traced on their own."""
    if not run or read == written or _places(run, written):
        return run
    if " … " in run:
        return " … ".join(run_as_written(part, read, written) for part in run.split(" … "))
    read_words, written_words = read.split(), written.split()
    places = _word_places(run.split(), read_words)
    if not places and " " in run:  # a swap's words, each from a place of its own
        return " ".join(run_as_written(word, read, written) for word in run.split())
    opcodes = SequenceMatcher(None, read_words, written_words, autojunk=False).get_opcodes()
    shown = {_written_at(place, opcodes, written_words) for place in places}
    return (shown.pop() or run) if len(shown) == 1 else run


def _written_at(
    place: tuple[int, int], opcodes: Sequence[tuple[str, int, int, int, int]], words: list[str]
) -> str:
    """The written `words` that the read words at `place` were read from."""
    start, end = place
    taken = [
        (j1 + max(start, i1) - i1, j1 + min(end, i2) - i1) if tag == "equal" else (j1, j2)
        for tag, i1, i2, j1, j2 in opcodes
        if i1 < end and start < max(i2, i1 + 1)
    ]
    if not taken:
        return ""
    first, last = min(j for j, _ in taken), max(j for _, j in taken)
    return " ".join(words[first:last]).strip(_EDGE)


def _places(run: str, text: str) -> list[tuple[int, int]]:
    """Where `run` stands in `text` as whole words."""
    pattern = rf"(?<!\w){re.escape(run)}(?!\w)"
    return [found.span() for found in re.finditer(pattern, text, re.IGNORECASE)]


def _word_places(run: list[str], words: list[str]) -> list[tuple[int, int]]:
    """Where the words of `run` stand in `words`, each whole (but for the punctuation
    around it)."""
    wanted = [word.lower() for word in run]
    bare = [word.strip(_EDGE).lower() for word in words]
    size = len(wanted)
    return [
        (index, index + size)
        for index in range(len(bare) - size + 1)
        if bare[index : index + size] == wanted
    ]
