"""What a part of the evidence store (a class `EvidenceStore` inherits, with the methods of
one kind of evidence) uses of the store itself: its connection, and its own helpers,
declared once here for the type checker."""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, TypeVar

T = TypeVar("T")


class StorePart:
    """The base of each part of `EvidenceStore`."""

    _db: sqlite3.Connection
    path: Path

    if TYPE_CHECKING:  # EvidenceStore's own, used by the parts as they are there

        def _readable(
            self, rows: Iterable[sqlite3.Row], read: Callable[[sqlite3.Row], T], table: str
        ) -> Iterator[T]: ...

        def _insert_row(
            self, table: str, columns: Sequence[str], values: Sequence[object]
        ) -> int: ...

        def _require_open(self, run_id: int) -> None: ...
