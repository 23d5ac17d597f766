"""The refresh loop on its own: one fetch per URL, one reading per selector, and cached
snapshots and verdicts reused only when the page would be read the same way again."""

from __future__ import annotations

import asyncio
import datetime as dt
from pathlib import Path

from claimledger.evidence import CheckRecord, EvidenceStore
from claimledger.fetch import FetchPolicy, make_client
from claimledger.ledger import Ledger, parse
from claimledger.refresh import RefreshResult, plan, refresh
from webserver import PageServer

POLICY = FetchPolicy(timeout=2, retries=0, per_host_interval=0)
PAGE = """<html><body><nav>Home</nav><main>
<section id="intro"><p>The intro says that every write is durable before it returns.</p></section>
<section id="limits"><p>Limits: each object handles one request at a time.</p></section>
</main></body></html>"""


def ledger_text(url: str, intro_select: str, limits_select: str) -> str:
    return f"""\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  intro: {{url: "{url}", title: I, kind: docs, publisher: p, select: "{intro_select}"}}
  limits: {{url: "{url}", title: L, kind: docs, publisher: p, select: "{limits_select}"}}
claims:
  - id: durable
    section: s
    title: Durable
    kind: guarantee
    statement: S.
    quotes:
      - {{text: "every write is durable before it returns", sources: [intro]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
  - id: serial
    section: s
    title: Serial
    kind: guarantee
    statement: S.
    quotes:
      - {{text: "each object handles one request at a time", sources: [limits]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
"""


def run(ledger: Ledger, store_path: Path) -> RefreshResult:
    def now() -> dt.datetime:
        return dt.datetime.now(dt.UTC)

    async def go() -> RefreshResult:
        async with make_client(POLICY, trust_env=False) as client:
            with EvidenceStore.open(store_path) as store:
                return await refresh(
                    plan(ledger),
                    client=client,
                    store=store,
                    ledger_path="claims.yaml",
                    now=now,
                    policy=POLICY,
                )

    return asyncio.run(go())


def statuses(checks: list[CheckRecord]) -> dict[str, str | None]:
    return {check.claim_id: check.status for check in checks}


def test_one_url_read_through_two_selectors_is_fetched_once(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/doc", PAGE, headers={"ETag": '"v1"'})
    ledger = parse(ledger_text(page_server.url("/doc"), "#intro", "#limits"))
    result = run(ledger, tmp_path / "ev.sqlite3")
    assert statuses(result.checks) == {"durable": "verified", "serial": "verified"}
    assert page_server.hits("/doc") == 1


def test_a_changed_selector_reads_the_page_afresh_instead_of_a_stale_snapshot(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/doc", PAGE, headers={"ETag": '"v1"'})
    store = tmp_path / "ev.sqlite3"
    narrow = parse(ledger_text(page_server.url("/doc"), "#intro", "#intro"))
    assert statuses(run(narrow, store).checks) == {"durable": "verified", "serial": "missing"}

    page_server.clear_requests()
    fixed = parse(ledger_text(page_server.url("/doc"), "#intro", "#limits"))
    assert statuses(run(fixed, store).checks) == {"durable": "verified", "serial": "verified"}
    conditional = [r for r in page_server.requests if "if-none-match" in r.headers]
    assert conditional == []  # the old snapshot was read another way: fetch it whole


def test_the_same_reading_again_asks_for_changes_and_keeps_its_verdicts(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/doc", PAGE, headers={"ETag": '"v1"'})
    store = tmp_path / "ev.sqlite3"
    ledger = parse(ledger_text(page_server.url("/doc"), "#intro", "#limits"))
    first = run(ledger, store)
    second = run(ledger, store)
    assert all(page.fetch.not_modified for page in second.pages)
    assert statuses(second.checks) == statuses(first.checks)
    assert {c.recipe for c in second.checks} == {c.recipe for c in first.checks}
