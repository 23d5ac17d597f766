"""The evidence store's part for refresh runs as a reader weighs them: each run, whether
it finished, which ledger it refreshed, and which quotes it checked. A run's plan (the
claims it was told to read) is not kept; what it checked is, and that is what says which
quotes a later run read again."""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Collection
from pathlib import Path

from claimledger.evidence.store.part import StorePart
from claimledger.evidence.store.rows import run_from_row, text, whole
from claimledger.evidence.store.translate import mapped
from claimledger.records import CheckKey, RunRecord

_RUNS = (
    "SELECT runs.id, started_at, finished_at, ledger_path FROM runs "
    "LEFT JOIN run_ends ON run_ends.run_id = runs.id"
)


def ledger_named(ledger: Path, store: Path) -> str:
    """How a run names the ledger it refreshes: the way to it from the store's folder,
    after `./` (no path as given is kept so), so the name is the one file from whatever
    folder a command runs in, and stays its ledger's in a checkout moved or copied whole,
    the store with it, where a path from the root would name the old place."""
    from claimledger.ledger.atomicfile import followed
    from claimledger.ledger.userrecords import path_key

    return "./" + os.path.relpath(path_key(ledger), followed(store.absolute().parent))


def names_ledger(recorded: str, store: Path, key: str) -> bool:
    """Whether the ledger a run recorded (`ledger_named`; before it, a path as given,
    read from the current folder) is the file `key` (a `path_key`); a path no file system
    takes (a store may come from anywhere) names none."""
    from claimledger.ledger.atomicfile import followed
    from claimledger.ledger.userrecords import path_key

    try:
        if recorded.startswith("./"):
            return path_key(followed(store.absolute().parent) / recorded[2:]) == key
        return path_key(Path(recorded)) == key
    except (OSError, ValueError, RuntimeError):
        return False


class RunEvidence(StorePart):
    """The store's methods for runs; `EvidenceStore` inherits them."""

    @mapped
    def last_run(self) -> RunRecord | None:
        """The newest run of any ledger (None before the first)."""
        row = self._db.execute(f"{_RUNS} ORDER BY runs.id DESC LIMIT 1").fetchone()
        if row is None:
            return None
        runs = list(self._readable([row], run_from_row, "runs"))
        return runs[0] if runs else None

    @mapped
    def runs(self) -> list[RunRecord]:
        """Every run of every ledger, oldest first (one row a refresh: few)."""
        rows = self._db.execute(f"{_RUNS} ORDER BY runs.id")
        return list(self._readable(rows, run_from_row, "runs"))

    @mapped
    def quotes_checked(self, run_ids: Collection[int]) -> set[CheckKey]:
        """Each (claim, quote, source) the runs `run_ids` checked, its page read or not:
        one pass over the checks from the first of them on (no index holds a run's)."""
        if not run_ids:
            return set()
        chosen = set(run_ids)
        rows = self._db.execute(
            "SELECT DISTINCT run_id, claim_id, quote_text, source_id FROM checks WHERE run_id >= ?",
            (min(chosen),),
        )
        return {key for run, key in self._readable(rows, _run_and_key, "checks") if run in chosen}

    @mapped
    def any_checked(self, keys: Collection[CheckKey]) -> bool:
        """Whether any run, of any ledger, ever checked one of `keys` (claim, quote,
        source): a quote none did (a wording adopted, a quote added) every reader names
        as never checked. One indexed look-up a key, till the first found."""
        query = (
            "SELECT 1 FROM checks WHERE claim_id = ? AND quote_text = ? AND source_id = ? LIMIT 1"
        )
        return any(self._db.execute(query, key).fetchone() for key in keys)


def _run_and_key(row: sqlite3.Row) -> tuple[int, CheckKey]:
    key = (
        text(row["claim_id"], "claim_id"),
        text(row["quote_text"], "quote_text"),
        text(row["source_id"], "source_id"),
    )
    return whole(row["run_id"], "run_id"), key
