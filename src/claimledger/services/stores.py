"""The evidence store as a command opens it: for reading (none yet is no evidence), for
recording, or for keeping render states where it can; and, once the command is done
with it, the rows it skipped as damaged said in one warning."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.errors import EnvironmentProblem

if TYPE_CHECKING:
    from claimledger.evidence.store import EvidenceStore

Warn = Callable[[str], None]

SHOWN_DAMAGE = 3
"""Damaged rows named one by one in the warning; the rest are counted."""


@contextlib.contextmanager
def for_reading(path: Path, warn: Warn) -> Iterator[EvidenceStore | None]:
    """The evidence store for reading, or None when no refresh has written one yet: none
    there, or one that holds nothing (an empty file a checkout came with), left as it is."""
    from claimledger.evidence.store import EvidenceStore
    from claimledger.evidence.store.connection import holds_nothing

    if not path.exists() or holds_nothing(path):
        yield None
        return
    with EvidenceStore.open(path, readonly=True) as store, damage_said(store, warn):
        yield store


@contextlib.contextmanager
def for_recording(path: Path, warn: Warn) -> Iterator[EvidenceStore]:
    """The evidence store for a command that records (created when there is none yet)."""
    from claimledger.evidence.store import EvidenceStore

    with EvidenceStore.open(path) as store, damage_said(store, warn):
        yield store


UNKEPT = "the next render cannot say what changed"
"""What a render whose state cannot be kept warns of, after why."""


@contextlib.contextmanager
def for_render_states(path: Path, warn: Warn) -> Iterator[EvidenceStore | None]:
    """The evidence store, opened (created when there is none yet) to keep render states;
    None where it cannot be written, said once: the report is still written."""
    from claimledger.evidence.store import EvidenceStore
    from claimledger.evidence.store.connection import holds_nothing

    if path.exists() and holds_nothing(path):
        yield None  # no refresh wrote it: a render only reads, and there is nothing to keep
        return
    try:
        store = EvidenceStore.open(path)
    except EnvironmentProblem as problem:
        warn(f"{problem}; {UNKEPT}")
        yield None
        return
    with store, damage_said(store, warn):
        yield store


@contextlib.contextmanager
def damage_said(store: EvidenceStore, warn: Warn) -> Iterator[None]:
    """Once the command is done with the store: the rows it skipped as unreadable, in one
    line that names the store, and the table, row and fault of the first few."""
    try:
        yield
    finally:
        if store.damage:
            count = len(store.damage)
            rows = "row" if count == 1 else "rows"
            named = "; ".join(list(store.damage)[:SHOWN_DAMAGE])
            more = f"; and {count - SHOWN_DAMAGE} more" if count > SHOWN_DAMAGE else ""
            warn(
                f"{count} damaged {rows} of {store.path} skipped ({named}{more}); the rest "
                "of the evidence is read as usual"
            )
