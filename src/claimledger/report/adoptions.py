"""How the page's words the author adopted differ from the words as read, or from the
words a past render showed: the word changes, their kinds, and whether the meaning
changed. Pure.

Each adoption records whether it changed the quote's meaning; a quote reworded twice is
judged by the worst of its adoptions and by the two wordings' own diff, so that a
harmless rewording adopted after a meaning change never makes the whole read harmless.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from claimledger.ledger.model import Claim, HistoryEntry
from claimledger.meanings import said_once
from claimledger.reading.match import judge, normalize
from claimledger.records import WordChange
from claimledger.report.model import WordChangeView

_MEANING_RANK = {None: 0, "uncertain": 1, "changed": 2}


def adopted_wording(
    claim: Claim, text: str, original: str
) -> tuple[str | None, tuple[str, ...], tuple[WordChangeView, ...]]:
    """How the adopted wording `text` differs from `original`, the wording as read: the
    worst meaning change ("changed", "uncertain" or None) any adoption on the way recorded
    or the two wordings' diff shows, its kinds, and the words that differ. Nothing for a
    quote never reworded."""
    return _judged(claim.adoptions(text), original, text)


def reworded_since(
    claim: Claim, text: str, earlier: str
) -> tuple[str | None, tuple[str, ...], tuple[WordChangeView, ...]]:
    """How the adopted wording `text` differs from `earlier`, a wording the quote had on
    the way (the one a past render showed): as `adopted_wording`, from the adoptions made
    since `earlier` only. Nothing when `text` was never adopted over `earlier`."""
    return _judged(_adoptions_since(claim.adoptions(text), earlier), earlier, text)


def _adoptions_since(chain: Sequence[HistoryEntry], earlier: str) -> tuple[HistoryEntry, ...]:
    """The adoptions of `chain` (newest first) back to the one that replaced `earlier`:
    what came before it was already behind the wording `earlier` was."""
    for index, entry in enumerate(chain):
        if entry.quote_was == earlier:
            return tuple(chain[: index + 1])
    return ()


def _judged(
    chain: Sequence[HistoryEntry], original: str, text: str
) -> tuple[str | None, tuple[str, ...], tuple[WordChangeView, ...]]:
    """The worst meaning change the adoptions of `chain` recorded or the diff of
    `original` and `text` shows, its kinds, and the words that differ."""
    if not chain:
        return None, (), ()
    judged = judge(normalize(original), normalize(text, markup=False))
    seen = [entry.meaning for entry in chain]
    seen.append("changed" if judged.meaning_changed else None)
    seen.append("uncertain" if judged.meaning_uncertain else None)
    seen.append("uncertain" if any(change.meaningful for change in judged.changes) else None)
    meaning = max(seen, key=lambda said: _MEANING_RANK.get(said, 1))
    kinds = judged.kinds if meaning else ()
    return meaning, kinds, word_changes(judged.changes)


def word_changes(changes: Iterable[WordChange]) -> tuple[WordChangeView, ...]:
    """Each change of words once, with every kind its words carry."""
    return tuple(word_change(change, kinds) for change, kinds in said_once(changes))


def word_change(change: WordChange, kinds: str | None = None) -> WordChangeView:
    """A word change, in words a reader reads: “was” → “now”, and its kinds (`kinds`, else
    its own) if it carries meaning."""
    if change.op == "insert":
        label = f"added “{change.page}”"
    elif change.op == "delete":
        label = f"removed “{change.quote}”"
    else:
        label = f"“{change.quote}” → “{change.page}”"
    if change.meaningful:
        said = kinds or change.kind
        label += f" ({said})" if said else " (changes the meaning)"
    return WordChangeView(change.op, change.quote, change.page, change.meaningful, label)
