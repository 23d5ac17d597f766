"""The kinds of meaning change strong enough to say that a quote's meaning changed: named by
the matcher, weighed by a check's verdict, marked by every view of a change of wording.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from claimledger.records import WordChange

STRONG_KINDS = frozenset(
    {
        "number changed",
        "numbers swapped",
        "limit changed",
        "negation added",
        "negation removed",
        "negation moved to another clause",
        "modal weakened",
        "modal strengthened",
        "quantifier changed",
        "qualifier added",
        "qualifier removed",
        "list changed",
        "conjunction changed",
        "support status changed",
        "guarantee term changed",
        "identifier changed",
        "manner changed",
        "words swapped",
        "effect changed",
        "direction reversed",
        "degree changed",
    }
)
"""The kinds of change whose evidence is strong enough to say the meaning changed: a
number, unit, duration or size; a negation; a modal across the must/should/may line; a
quantifier or a scope narrowed or widened (a condition, or an item of a list, put in or
taken out; "and" turned to "or"); a guarantee term swapped; a setting, function or file
named in code form put for another (`allow_redirects` -> `follow_redirects`); the
manner of an operation changed ("a graceful restart" -> "a forced restart"); two terms
swapped in place; an effect, a direction or a degree (always, rarely) changed; a feature supported,
deprecated, removed or experimental in another way. Every other kind (a name,
a noun, a default, a condition moved to another clause, a negation moved on to other
words of its clause, content words put in, taken out or replaced that no harmless form
explains) says only that the meaning may have changed: a rename, a synonym, a word added
to a name, is as often harmless as not."""


REWRITTEN_IN_PLACE = "rewritten where it stood"
"""The kind of a successor that only its place tells: it stands where the quote stood and
would not pass as the quote reworded anywhere else. Its word changes are shown, but they
are the changes of a passage that may not be the quote's successor at all: the meaning
"may have changed", never more, and `accept --all-drifted` leaves it to be accepted by
name."""


def is_strong(change: WordChange) -> bool:
    """Strong evidence that the meaning changed; a meaningful change that is not strong
    may have changed it."""
    return change.meaningful and change.kind in STRONG_KINDS


def mark(change: WordChange) -> str:
    """`!` for strong evidence that the meaning changed, `?` for a change that may have
    changed it, nothing for the rest: the mark every view puts before a change."""
    if is_strong(change):
        return "!"
    return "?" if change.meaningful else ""


def said_once(changes: Iterable[WordChange]) -> Iterator[tuple[WordChange, str | None]]:
    """Each change of words once, with every kind its words carry ("negation removed;
    degree changed" for "Never" -> "always", which the matcher lists once for each kind),
    each kind once (the same words put in at two places carry one); the first, the
    strongest, stands for the words."""
    merged: list[tuple[WordChange, list[str]]] = []
    for change in changes:
        last = merged[-1][0] if merged else None
        same = last is not None and (last.op, last.quote, last.page) == (
            change.op,
            change.quote,
            change.page,
        )
        if same and change.meaningful and change.kind:
            if change.kind not in merged[-1][1]:  # the words put in twice: one kind, once
                merged[-1][1].append(change.kind)
        else:
            merged.append((change, [change.kind] if change.meaningful and change.kind else []))
    for change, kinds in merged:
        yield change, "; ".join(kinds) or None


def words_said(change: WordChange) -> str:
    """A change's words as `diff` shows them: "handled -> processed", "removed: no",
    "added: not" (never "no -> -", whose dash reads as a word of the page)."""
    if change.op == "delete":
        return f"removed: {change.quote}"
    if change.op == "insert":
        return f"added: {change.page}"
    return f"{change.quote} -> {change.page}"


def changed_words_said(changes: Iterable[WordChange]) -> str:
    """The words each meaning-carrying change took and put, in `diff`'s words, with the
    kinds they carry ("removed: no (negation removed)"): the reason a "meaning changed" or a
    "may have changed" is shown with. The same change met again (on another source, or
    listed once for each kind) is said once."""
    kinds: dict[str, list[str]] = {}
    for change in changes:
        if change.meaningful:
            found = kinds.setdefault(words_said(change), [])
            if change.kind and change.kind not in found:
                found.append(change.kind)
    return "; ".join(
        f"{words} ({', '.join(found)})" if found else words for words, found in kinds.items()
    )
