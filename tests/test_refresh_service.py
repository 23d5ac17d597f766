"""The refresh service keeps each page's fetch, not the checks made on it: each check is
recorded as its page is read, and the later steps and the output read them back from the
store, so a run's memory does not grow with the quotes it checked. A real loopback
server, a real store."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

from claimledger.evidence.refresh import plan
from claimledger.evidence.service import RefreshPlan, refresh_ledger
from claimledger.evidence.store import EvidenceStore
from claimledger.ledger.file import load
from claimledger.records import FetchPolicy
from claimledger.urls import UrlMap
from evidence_site import ALARM_REWORDED, DURABLE, ORDERED, page, write_ledger
from webserver import PageServer


def test_a_run_keeps_each_pages_fetch_and_reads_its_checks_back_from_the_store(
    tmp_path: Path, page_server: PageServer
) -> None:
    ledger_path = write_ledger(tmp_path, page_server)
    page_server.set_page("/guide", page("An opening line.", DURABLE, ORDERED))
    page_server.set_page("/mirror", page(DURABLE))
    page_server.set_page("/other", page(ALARM_REWORDED))
    ledger = load(ledger_path)
    jobs = plan(ledger)
    work = RefreshPlan(ledger, ledger_path, jobs, FetchPolicy(allow_private=True), UrlMap(()))

    with EvidenceStore.open(tmp_path / "evidence.sqlite3") as store:
        done = refresh_ledger(work, store, now=lambda: dt.datetime.now(dt.UTC))
        recorded = list(store.run_checks(done.run_id))

    assert sorted(page.fetch.url for page in done.pages) == sorted({job.url for job in jobs})
    assert not hasattr(done.pages[0], "checks")  # nothing per quote is held past its page
    assert [(c.claim_id, c.status) for c in recorded if c.status != "verified"] == [
        ("alarms", "drifted")
    ]
    assert len(recorded) == len(jobs) == 5
