"""Who made the store: its SQLite application_id, which claimledger stamps with an identity
this user's config records (`claimledger.evidence.madehere`); a store that came with a
checkout carries none of this user's."""

from __future__ import annotations

from claimledger.evidence.store.part import StorePart


class IdentityEvidence(StorePart):
    """The store's methods for its identity; `EvidenceStore` inherits them."""

    @property
    def identity(self) -> int:
        """The store's application_id: 0 until claimledger stamps it."""
        return int(self._db.execute("PRAGMA application_id").fetchone()[0])

    def stamp_identity(self, identity: int) -> None:
        self._db.execute(f"PRAGMA application_id = {int(identity)}")

    def adopt(self) -> None:
        """Record the store as this user's (`madehere`), and stamp it so."""
        from claimledger.evidence.madehere import adopt

        identity = adopt(self.path)
        if identity is not None:
            self.stamp_identity(identity)

    def nothing_after(self, run_id: int) -> bool:
        """Whether run `run_id` wrote the newest rows of each table a refresh believes
        (runs, fetches, checks, robots.txt reads): a row planted with a number past every
        row to come (SQLite then numbers new rows below it) would outrank them for good."""
        newest = self._db.execute("SELECT MAX(id) FROM runs").fetchone()[0]
        if newest != run_id:
            return False
        for table in _BELIEVED:
            last, ours = self._db.execute(
                f"SELECT MAX(id), MAX(CASE WHEN run_id = ? THEN id END) FROM {table}",
                (run_id,),
            ).fetchone()
            if last is not None and last != ours:
                return False
        return True

    def holds_more_than_pages(self) -> bool:
        """Whether the store holds what no run of pages supersedes: the web archive's
        answers and copies, the docs' history, the archive's saves, artifact runs, the
        searches for sources gone. Kept by the checkout, they would be the user's word once
        the store is adopted."""
        return any(
            self._db.execute(f"SELECT 1 FROM {table} LIMIT 1").fetchone() is not None
            for table in _NOT_SUPERSEDED
        )


_BELIEVED = ("fetches", "checks", "robots_reads")
_NOT_SUPERSEDED = (
    "archive_lookups",
    "archived_copies",
    "as_read_checks",
    "quote_histories",
    "archive_saves",
    "artifact_runs",
    "relocations",
)
