"""The refresh loop on its own: one fetch per URL, one reading per selector, and cached
snapshots and verdicts reused only when the page would be read the same way again."""

from __future__ import annotations

import asyncio
import dataclasses
import datetime as dt
from dataclasses import dataclass
from pathlib import Path

import pytest

from claimledger.evidence.pageread import read_page
from claimledger.evidence.refresh import Reading, plan, refresh
from claimledger.evidence.store import EvidenceStore
from claimledger.ledger.model import Ledger, parse
from claimledger.recipes import recipe
from claimledger.records import CheckRecord, FetchPolicy, FetchResult, snapshot_digest
from claimledger.web.fetch import make_client
from webserver import PageServer, redirect

POLICY = FetchPolicy(allow_private=True, timeout=2, retries=0, per_host_interval=0)
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


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@dataclass(frozen=True)
class Refreshed:
    """What one recorded run of the loop yielded."""

    pages: list[Reading]

    @property
    def checks(self) -> list[CheckRecord]:
        return [check for page in self.pages for check in page.checks]


async def readings(
    ledger: Ledger, store: EvidenceStore, policy: FetchPolicy = POLICY
) -> list[Reading]:
    """Every reading of one pass of the loop over the ledger, nothing recorded."""
    async with make_client(policy, trust_env=False) as client:
        loop = refresh(plan(ledger), client=client, earlier=store, now=now, policy=policy)
        return [reading async for reading in loop]


def run(ledger: Ledger, store_path: Path) -> Refreshed:
    """One refresh as the CLI records it: a run, each page in one commit, the run's end."""

    async def go() -> list[Reading]:
        with EvidenceStore.open(store_path) as store:
            run_id = store.begin_run(now(), "claims.yaml")
            pages = await readings(ledger, store)
            for page in pages:
                store.record_page(
                    run_id,
                    page.fetch,
                    snapshot_hash=page.snapshot_hash,
                    new_snapshot=page.new_snapshot,
                    recipe=page.recipe,
                    checks=page.checks,
                    now=now(),
                )
            store.finish_run(run_id, now())
            return pages

    return Refreshed(asyncio.run(go()))


def statuses(checks: list[CheckRecord]) -> dict[str, str | None]:
    return {check.claim_id: check.status for check in checks}


def test_a_page_read_for_a_browser_says_so_though_no_script_changed_it(
    page_server: PageServer, evidence_store: EvidenceStore
) -> None:
    """A page the ledger reads in a browser is read so, in its checks too, even where a
    browser leaves it as sent (plain text, a PDF): its checks count as read as it reads."""
    page_server.set_page(
        "/doc", "The intro says that every write is durable before it returns.\n",
        content_type="text/plain",
    )  # fmt: skip
    url = page_server.url("/doc")
    ledger = parse(ledger_text(url, "", "").replace(', select: ""}', ", render: browser}"))
    policy = dataclasses.replace(POLICY, browser_pages=((url, None),))
    (page,) = asyncio.run(readings(ledger, evidence_store, policy))
    assert page.recipe == recipe(None, browser=True) and not page.fetch.rendered
    assert [(c.claim_id, c.status) for c in page.checks] == [
        ("durable", "verified"),
        ("serial", "missing"),
    ]
    assert {c.recipe for c in page.checks} == {page.recipe}


def test_the_loop_yields_readings_and_records_nothing(
    page_server: PageServer, evidence_store: EvidenceStore
) -> None:
    page_server.set_page("/doc", PAGE, headers={"ETag": '"v1"'})
    ledger = parse(ledger_text(page_server.url("/doc"), "#intro", "#limits"))
    pages = asyncio.run(readings(ledger, evidence_store))
    by_recipe = {page.recipe: page for page in pages}
    assert sorted(by_recipe) == sorted([recipe("#intro"), recipe("#limits")])
    intro, limits = by_recipe[recipe("#intro")], by_recipe[recipe("#limits")]
    assert [page.fetch.text for page in pages] == [None, None]  # the body is not kept
    assert intro.new_snapshot is not None and "durable" in intro.new_snapshot
    assert limits.new_snapshot is not None and "one request" in limits.new_snapshot
    for page in pages:
        assert page.new_snapshot is not None
        assert page.snapshot_hash == snapshot_digest(page.new_snapshot)
    assert [check.claim_id for check in intro.checks] == ["durable"]
    assert [check.claim_id for check in limits.checks] == ["serial"]
    assert evidence_store.last_run() is None
    assert evidence_store.latest_fetches() == {}
    assert evidence_store.latest_checks() == []


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


def test_a_quote_selected_inside_a_hidden_element_is_unread_not_verified(
    page_server: PageServer, tmp_path: Path
) -> None:
    """A page that hides the quote (a reader never sees it) may keep it in its markup: a
    selector naming it reads no evidence that the page says it."""
    hidden = PAGE.replace('<section id="limits">', '<section id="limits" style="display:none">')
    page_server.set_page("/doc", hidden)
    ledger = parse(ledger_text(page_server.url("/doc"), "#intro", "#limits p"))
    result = run(ledger, tmp_path / "ev.sqlite3")
    assert statuses(result.checks) == {"durable": "verified", "serial": None}
    limits = next(p for p in result.pages if p.recipe != recipe("#intro"))
    assert limits.fetch.source_status == "unreadable"
    assert "matched only text no reader sees" in (limits.fetch.error or "")


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


MOVED_LEDGER = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  doc: {{url: "{url}", title: D, kind: docs, publisher: p}}
claims:
  - id: kept
    section: s
    title: Kept
    kind: guarantee
    statement: S.
    quotes:
      - {{text: "every write is durable before it returns", sources: [doc]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
  - id: removed
    section: s
    title: Removed
    kind: guarantee
    statement: S.
    quotes:
      - {{text: "each object handles one request at a time", sources: [doc]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
"""
OLD_PAGE = PAGE
NEW_PAGE = PAGE.replace("<p>Limits: each object handles one request at a time.</p>", "")


@pytest.mark.parametrize(
    "new_date", ["Wed, 21 Oct 2026 07:28:00 GMT", "Mon, 19 Oct 2026 07:28:00 GMT"]
)
def test_a_moved_page_never_verifies_a_sentence_the_new_page_lacks(
    page_server: PageServer, tmp_path: Path, new_date: str
) -> None:
    """The old address's Last-Modified, sent to the new address after a 301, would make a
    server answer 304 for a page read at the old address: it must never be sent there."""
    page_server.set_page(
        "/old/", OLD_PAGE, headers={"Last-Modified": "Wed, 21 Oct 2026 07:28:00 GMT"}
    )
    ledger = parse(MOVED_LEDGER.format(url=page_server.url("/old/")))
    store = tmp_path / "ev.sqlite3"
    assert statuses(run(ledger, store).checks) == {"kept": "verified", "removed": "verified"}

    page_server.set_handler("/old/", redirect("/new/", 301))
    page_server.set_page("/new/", NEW_PAGE, headers={"Last-Modified": new_date})
    moved = run(ledger, store)
    assert statuses(moved.checks) == {"kept": "verified", "removed": "missing"}
    assert {page.fetch.source_status for page in moved.pages} == {"moved"}
    to_new = [r for r in page_server.page_requests if r.path == "/new/"]
    assert [("if-modified-since" in r.headers) for r in to_new] == [False]

    again = run(ledger, store)  # now the new address's own validators: a real 304
    assert [page.fetch.not_modified for page in again.pages] == [True]
    assert statuses(again.checks) == {"kept": "verified", "removed": "missing"}


def test_a_page_with_no_text_a_reader_sees_is_no_evidence(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page("/old/", OLD_PAGE)
    ledger = parse(MOVED_LEDGER.format(url=page_server.url("/old/")))
    store = tmp_path / "ev.sqlite3"
    run(ledger, store)
    page_server.set_page(
        "/old/", "<html><body><nav>Home | Docs</nav><footer>(c)</footer></body></html>"
    )
    empty = run(ledger, store)
    assert statuses(empty.checks) == {"kept": None, "removed": None}
    assert [(p.fetch.source_status, p.fetch.error) for p in empty.pages] == [
        ("unreadable", "no content: the page holds no text a reader sees")
    ]


@pytest.mark.parametrize(
    ("title", "body"),
    [
        (
            "404 Not Found",
            "<h1>404 Not Found</h1><p>The page you requested could not be found.</p>",
        ),
        ("Docs", "<main><h1>Page not found</h1><p>Try the search.</p></main>"),
        ("Error 404 | Acme", "<main><p>Sorry, nothing here.</p></main>"),
    ],
)
def test_an_error_page_answered_200_is_no_evidence(
    page_server: PageServer, tmp_path: Path, title: str, body: str
) -> None:
    """A site that answers a page gone with 200 and its "not found" page (a soft 404):
    the quotes are unchecked on it, never missing."""
    page_server.set_page("/old/", OLD_PAGE)
    ledger = parse(MOVED_LEDGER.format(url=page_server.url("/old/")))
    store = tmp_path / "ev.sqlite3"
    run(ledger, store)
    page_server.set_page(
        "/old/", f"<html><head><title>{title}</title></head><body>{body}</body></html>"
    )

    soft = run(ledger, store)

    assert statuses(soft.checks) == {"kept": None, "removed": None}
    (page,) = soft.pages
    assert page.fetch.source_status == "unreadable"
    assert (page.fetch.error or "").startswith("an error page: it says")


def test_a_short_page_about_errors_is_read() -> None:
    """Only a page whose title or first line says it is not there is one: a page on
    handling a 404, or a long page titled so, is read as any page."""
    about = "<html><head><title>Handling HTTP 404 responses</title></head><body><main>"
    short = f"{about}<p>A 404 means the object was not found.</p></main></body></html>"
    long_one = short.replace("Handling HTTP 404 responses", "404 Not Found").replace(
        "<p>A 404", "<p>" + "Words of the guide. " * 30 + "A 404"
    )
    sentence = short.replace(
        "<p>A 404 means", "<p>Error 404: resource not found is returned when the key"
    )
    for html in (short, long_one, sentence):
        page = read_page(fetched_html(html))
        assert page.text is not None and "not found" in page.text
    narrowed = read_page(fetched_html(long_one), "main p")  # short by the selector
    assert narrowed.text is not None


def fetched_html(html: str) -> FetchResult:
    """A page answered 200 with `html`, as the fetcher hands it on."""
    return FetchResult(
        "https://docs.example/a", "https://docs.example/a", 200, "ok", (), None, None, None,
        "text/html; charset=utf-8", html, False, None, 1, 0.1, None,
    )  # fmt: skip


def test_a_meta_refresh_alias_moves_the_source_and_reads_the_new_page(
    page_server: PageServer, tmp_path: Path
) -> None:
    page_server.set_page(
        "/old/", '<html><head><meta http-equiv="refresh" content="0; url=/new/"></head></html>'
    )
    page_server.set_page("/new/", NEW_PAGE)
    ledger = parse(MOVED_LEDGER.format(url=page_server.url("/old/")))
    result = run(ledger, tmp_path / "ev.sqlite3")
    assert statuses(result.checks) == {"kept": "verified", "removed": "missing"}
    (page,) = result.pages
    assert (page.fetch.source_status, page.fetch.moved_to) == ("moved", page_server.url("/new/"))


# --------------------------------------------------------------------------- moved within the page

CHANGELOG_READ = """# agents

## 0.3.8

### Patch Changes

- Faster reconnects.

## 0.3.7

### Patch Changes

- Adds step.mergeAgentState to workflow steps.
"""
CHANGELOG_LATER = """# agents

## 0.4.0

### Minor Changes

- A new release on top.
- And its notes.

## 0.3.8

### Patch Changes

- Faster reconnects.

## 0.3.7

### Patch Changes

- Adds step.mergeAgentState to workflow steps.
"""


def one_quote_ledger(url: str, quote: str, under: str | None = None) -> Ledger:
    placed = f', under: "{under}"' if under else ""
    return parse(f"""\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  log: {{url: "{url}", title: Log, kind: changelog, publisher: p}}
claims:
  - id: merge
    section: s
    title: Merge
    kind: mechanism
    statement: S.
    quotes:
      - {{text: "{quote}", sources: [log]{placed}}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
""")


def test_a_quote_its_line_anchor_lost_is_verified_where_it_moved(
    page_server: PageServer, tmp_path: Path
) -> None:
    """A release shifts the file: the quote is no longer at its #L lines but is in the
    file, verbatim. It is verified, moved within the page, with its new lines."""
    page_server.set_page("/CHANGELOG.md", CHANGELOG_READ, content_type="text/markdown")
    url = page_server.url("/CHANGELOG.md") + "#L13"
    ledger = one_quote_ledger(url, "Adds step.mergeAgentState to workflow steps.")
    first = run(ledger, tmp_path / "evidence.sqlite3")
    (check,) = first.checks
    assert (check.status, check.moved_within) == ("verified", None)
    page_server.set_page("/CHANGELOG.md", CHANGELOG_LATER, content_type="text/markdown")
    (moved,) = run(ledger, tmp_path / "evidence.sqlite3").checks
    assert (moved.status, moved.moved_within) == ("verified", "now at line L20")
    with EvidenceStore.open(tmp_path / "evidence.sqlite3") as store:
        (kept,) = store.latest_checks()
    assert kept.moved_within == "now at line L20"


def test_a_quote_under_a_heading_is_found_there_first_and_followed_when_it_moves(
    page_server: PageServer, tmp_path: Path
) -> None:
    repeated = "- Faster reconnects."
    page = CHANGELOG_LATER.replace("- And its notes.", repeated)  # the words twice, 0.4.0 first
    page_server.set_page("/CHANGELOG.md", page, content_type="text/markdown")
    url = page_server.url("/CHANGELOG.md")
    under_entry = one_quote_ledger(url, "Faster reconnects.", under="0.3.8")
    (check,) = run(under_entry, tmp_path / "a.sqlite3").checks
    assert (check.status, check.occurrences, check.moved_within) == ("verified", 1, None)
    assert check.context_before is not None and "0.3.8" in check.context_before
    elsewhere = one_quote_ledger(url, "Adds step.mergeAgentState to workflow steps.", under="0.3.8")
    (moved,) = run(elsewhere, tmp_path / "b.sqlite3").checks
    assert (moved.status, moved.moved_within) == ("verified", "now under “0.3.7”")
    no_heading = one_quote_ledger(url, "Faster reconnects.", under="0.2.0")
    (gone,) = run(no_heading, tmp_path / "c.sqlite3").checks
    assert (gone.status, gone.moved_within) == (
        "verified",
        "no heading “0.2.0” on the page any more",
    )


@pytest.mark.parametrize(
    ("path", "page", "content_type"),
    [
        (
            "/limits.html",
            "<main><h2>Limits</h2><pre># raise the cap\nexport CAP=200</pre>"
            "<p>Requests are capped at 100 a second.</p><h2>Other</h2></main>",
            "text/html",
        ),
        (
            "/limits.md",
            "## Limits\n\n```sh\n# raise the cap\nexport CAP=200\n```\n\n"
            "Requests are capped at 100 a second.\n\n## Other\n",
            "text/markdown",
        ),
    ],
)
def test_a_comment_in_a_code_block_is_no_heading(
    page_server: PageServer, tmp_path: Path, path: str, page: str, content_type: str
) -> None:
    """A `# ` line of an HTML page's `<pre>` or of a markdown page's fenced code is a shell
    comment: the section goes on past it, and a quote after it stays under its heading."""
    page_server.set_page(path, page, content_type=content_type)
    ledger = one_quote_ledger(
        page_server.url(path), "Requests are capped at 100 a second.", under="Limits"
    )
    (check,) = run(ledger, tmp_path / "evidence.sqlite3").checks
    assert (check.status, check.moved_within) == ("verified", None)
