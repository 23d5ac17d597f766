"""The evidence store's part for robots.txt: each site's rules as a run read them, so that
the runs within a day after ask the site nothing (RFC 9309, section 2.4, lets a crawler
keep its copy that long; `fetch.ROBOTS_KEPT_FOR`).

Only rules that were had are kept: a text, or none at all (a 4xx). A robots.txt the site
could not serve (5xx, no answer) forbids the run its pages and is asked again next run.
Rows name their run and are written under its lock, like its fetches.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from claimledger.evidence.store.part import StorePart
from claimledger.evidence.store.rows import stamp
from claimledger.evidence.store.translate import mapped


class RobotsEvidence(StorePart):
    """The store's methods for robots.txt; `EvidenceStore` inherits them."""

    @mapped
    def robots_read_since(self, origin: str, since: datetime, now: datetime) -> str | None:
        """The newest robots.txt of `origin` (scheme://host[:port]) read between `since` and
        `now`; "" when the site had none; None when none was read since, or what was kept
        is not text (then the site is asked again). One dated after `now` was not read: a
        row planted in a store that came with a checkout would keep a site's rules away
        for good."""
        row = self._db.execute(
            "SELECT text FROM robots_reads WHERE origin = ? AND read_at >= ? AND read_at <= ? "
            "ORDER BY id DESC LIMIT 1",
            (origin, stamp(since), stamp(now)),
        ).fetchone()
        return row[0] if row is not None and isinstance(row[0], str) else None

    @mapped
    def record_robots(self, run_id: int, origin: str, text: str, now: datetime) -> None:
        """Keep the robots.txt `origin` served in this run ("" for none)."""
        self._require_open(run_id)
        self._db.execute(
            "INSERT INTO robots_reads (run_id, origin, text, read_at) VALUES (?, ?, ?, ?)",
            (run_id, origin, text, stamp(now)),
        )

    def robots_memory(self, run_id: int, now: Callable[[], datetime]) -> KeptRobots:
        """What the fetcher of run `run_id` asks before it reads a robots.txt, and tells after."""
        return KeptRobots(self, run_id, now)


@dataclass(frozen=True)
class KeptRobots:
    """One run's robots.txt memory (`fetch.RobotsMemory`), in the store."""

    store: RobotsEvidence
    run_id: int
    now: Callable[[], datetime]

    def recall(self, origin: str, within: timedelta) -> str | None:
        now = self.now()
        return self.store.robots_read_since(origin, now - within, now)

    def keep(self, origin: str, text: str) -> None:
        self.store.record_robots(self.run_id, origin, text, self.now())
