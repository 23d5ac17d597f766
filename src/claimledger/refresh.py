"""The refresh loop: fetch every source once, read it, locate every quote, record it all.

One screen of orchestration with its collaborators passed in (the HTTP client, the
evidence store, the clock), so tests drive it with real servers and real files. A
failure of one source is data in the results; nothing here prints.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from claimledger import extract, match
from claimledger.evidence import CheckRecord, EvidenceStore
from claimledger.extract import ExtractError, extract_text, head_links, narrow_lines, text_kind
from claimledger.fetch import FetchPolicy, FetchResult, Hop, Validators, fetch_all
from claimledger.ledger import Ledger
from claimledger.match import Context, Match, PreparedText, TextKind, locate, prepare
from claimledger.urlmap import UrlMap

if TYPE_CHECKING:
    import httpx  # noqa: TID251 - the type of the client handed in; no I/O happens here

Clock = Callable[[], dt.datetime]
NO_MAP = UrlMap()


@dataclass(frozen=True)
class QuoteJob:
    """One quote to look for on one of its sources."""

    claim_id: str
    quote_index: int
    quote_text: str
    source_id: str
    url: str
    select: str | None


@dataclass(frozen=True)
class Page:
    """One URL as read in this run: the fetch, and the text a reader sees (if any)."""

    fetch: FetchResult
    text: str | None
    snapshot_hash: str | None
    recipe: str

    @property
    def kind(self) -> TextKind:
        """How the matcher reads the text: prose, raw markdown, or source code."""
        return text_kind(self.fetch.content_type or "", self.fetch.final_url)

    def prepared(self) -> PreparedText | None:
        """The text ready for `locate`, or None when the page could not be read."""
        return None if self.text is None else prepare(self.text, kind=self.kind)


@dataclass(frozen=True)
class RefreshResult:
    pages: list[Page]  # every reading: one per URL and selector
    checks: list[CheckRecord]
    run_id: int


def plan(ledger: Ledger, claim_ids: Sequence[str] = ()) -> list[QuoteJob]:
    """Every (quote, source) pair of the chosen claims (all claims when none are named)."""
    chosen = [ledger.claim(cid) for cid in claim_ids] if claim_ids else list(ledger.claims)
    return [
        QuoteJob(
            claim.id,
            index,
            quote.text,
            source_id,
            ledger.sources[source_id].url,
            ledger.sources[source_id].select,
        )
        for claim in chosen
        for index, quote in enumerate(claim.quotes)
        for source_id in quote.sources
    ]


def recipe(select: str | None) -> str:
    """How a page is read and judged: the extractor, the matcher, the source's selector.

    Stored with every fetch and check. A snapshot or a verdict made another way is not
    reused: a new selector or a newer matcher reads the page afresh.
    """
    return f"extract {extract.VERSION}; match {match.VERSION}; select {select or ''}"


async def refresh(
    jobs: Sequence[QuoteJob],
    *,
    client: httpx.AsyncClient,
    store: EvidenceStore,
    ledger_path: str,
    now: Clock,
    policy: FetchPolicy,
    url_map: UrlMap = NO_MAP,
    on_page: Callable[[Page], None] | None = None,
) -> RefreshResult:
    """Fetch, extract, match and record every job; each check is committed as it is made.

    Each URL is fetched once, however many sources name it. Each page is read (once per
    selector) and its quotes located as soon as it arrives, while the other fetches are
    still under way.
    """
    run_id = store.begin_run(now(), ledger_path)
    jobs_by_reading: dict[tuple[str, str | None], list[QuoteJob]] = defaultdict(list)
    for job in jobs:
        jobs_by_reading[(job.url, job.select)].append(job)
    selects_by_url: dict[str, list[str | None]] = defaultdict(list)
    for url, select in jobs_by_reading:
        selects_by_url[url].append(select)
    urls_by_target: dict[str, list[str]] = defaultdict(list)
    for url in selects_by_url:
        urls_by_target[url_map.apply(url)].append(url)
    previous = {(c.claim_id, c.quote_text, c.source_id): c for c in store.latest_checks()}
    pages: list[Page] = []
    checks: list[CheckRecord] = []

    def arrived(result: FetchResult) -> None:
        for url in urls_by_target[result.url]:
            fetched = _ledger_side(replace(result, url=url), url_map)
            for select in selects_by_url[url]:
                page = _read(url, fetched, select, store, now())
                store.record_fetch(run_id, page.fetch, page.snapshot_hash, now(), page.recipe)
                readings = jobs_by_reading[(url, select)]
                for check in _check_page(page, readings, previous, store, now()):
                    store.record_check(run_id, check)
                    checks.append(check)
                pages.append(page)
                if on_page is not None:
                    on_page(page)

    def validators(requested: str, start: str) -> Validators | None:
        """Those stored for exactly the URL asked, for every way its answer will be read."""
        recipes = [
            recipe(select) for url in urls_by_target[start] for select in selects_by_url[url]
        ]
        return store.validators(url_map.reverse(requested), recipes)

    await fetch_all(urls_by_target, client, validators=validators, policy=policy, on_result=arrived)
    store.finish_run(run_id, now())  # an interrupted run keeps its checks but stays unfinished
    return RefreshResult(pages, checks, run_id)


def _ledger_side(fetched: FetchResult, url_map: UrlMap) -> FetchResult:
    """A result fetched through `--map`, with every address named as the ledger names it,
    so evidence, validators and moves stay under the reader's URLs across runs."""
    if not url_map.rules:
        return fetched

    def name(url: str | None) -> str | None:
        return url_map.reverse(url) if url else url

    return replace(
        fetched,
        final_url=url_map.reverse(fetched.final_url),
        moved_to=name(fetched.moved_to),
        canonical=name(fetched.canonical),
        redirects=tuple(Hop(url_map.reverse(h.url), h.status, h.via) for h in fetched.redirects),
    )


def _check_page(
    page: Page,
    jobs: Sequence[QuoteJob],
    previous: Mapping[tuple[str, str, str], CheckRecord],
    store: EvidenceStore,
    now: dt.datetime,
) -> list[CheckRecord]:
    """Locate each job's quote on the page; an unchanged page and quote keep their verdict.

    The matcher is deterministic, so a quote last checked on this very snapshot would
    get the same answer again: it is carried over rather than recomputed.
    """
    prepared: PreparedText | None = None
    checks = []
    earlier: dict[str, PreparedText | None] = {}
    for job in jobs:
        before = previous.get(_key(job))
        if page.text is None:
            checks.append(_check(job, page, None, now))
        elif (
            before
            and before.status
            and before.snapshot_hash == page.snapshot_hash
            and before.recipe == page.recipe
        ):
            checks.append(
                replace(
                    before,
                    quote_index=job.quote_index,
                    url=job.url,
                    source_status=page.fetch.source_status,
                    checked_at=now,
                    run_id=None,
                )
            )
        else:
            prepared = prepared or page.prepared()
            assert prepared is not None
            as_read = _as_read(before, page, store, earlier)
            found = locate(job.quote_text, prepared, context=_context(before), previous=as_read)
            checks.append(_check(job, page, found, now))
    return checks


def _as_read(
    before: CheckRecord | None,
    page: Page,
    store: EvidenceStore,
    earlier: dict[str, PreparedText | None],
) -> PreparedText | None:
    """The page as it read at the quote's last check (read once per snapshot): a passage
    already on it beside the quote is a sibling of the quote, never its successor."""
    digest = before.snapshot_hash if before is not None else None
    if digest is None:
        return None
    if digest not in earlier:
        try:
            earlier[digest] = prepare(store.snapshot_text(digest), kind=page.kind)
        except KeyError:
            earlier[digest] = None
    return earlier[digest]


def _read(
    url: str, fetched: FetchResult, select: str | None, store: EvidenceStore, now: dt.datetime
) -> Page:
    """The text a reader sees: extracted from the body, or on a 304 the stored snapshot of
    the very URL that answered, from the reading that carried the validators we sent."""
    if fetched.not_modified:
        snapshot = store.answered_snapshot(fetched.final_url, recipe(select), fetched.conditional)
        if snapshot is not None:
            return Page(fetched, store.snapshot_text(snapshot), snapshot, recipe(select))
        missing = f"304 from {fetched.final_url} without a stored snapshot of it"
        return Page(
            replace(fetched, source_status="unreadable", error=missing),
            None,
            None,
            recipe(select),
        )
    page = read_page(fetched, select)
    if page.text is None:
        return page
    return replace(page, snapshot_hash=store.put_snapshot(page.text, url, now))


def read_page(fetched: FetchResult, select: str | None = None) -> Page:
    """The text a reader sees on a fetched page, narrowed to its #L anchor if it has one.

    A page whose text cannot be extracted becomes `unreadable`, with the reason; so does
    a page with no text a reader sees (an empty page, an alias page, boilerplate only),
    which is no evidence that a quote is gone.
    """
    if fetched.text is None:
        return Page(fetched, None, None, recipe(select))
    try:
        text = extract_text(fetched.text, fetched.content_type or "", select=select)
        if fetched.line_range is not None:
            text = narrow_lines(text, *fetched.line_range)
    except ExtractError as error:
        return _unreadable(fetched, str(error), select)
    if not _WORD.search(text):
        where = (
            f"lines L{fetched.line_range[0]}-L{fetched.line_range[1]}"
            if fetched.line_range
            else "the page"
        )
        return _unreadable(fetched, f"no content: {where} holds no text a reader sees", select)
    return Page(fetched, text, None, recipe(select))


_WORD = re.compile(r"\w")


def _unreadable(fetched: FetchResult, why: str, select: str | None) -> Page:
    return Page(replace(fetched, source_status="unreadable", error=why), None, None, recipe(select))


def _key(job: QuoteJob) -> tuple[str, str, str]:
    return (job.claim_id, job.quote_text, job.source_id)


def _context(check: CheckRecord | None) -> Context | None:
    """Where the quote was last found, so a repeated sentence is found in the same place."""
    if check is None or (check.context_before is None and check.context_after is None):
        return None
    return Context(check.context_before or "", check.context_after or "")


def _check(job: QuoteJob, page: Page, found: Match | None, now: dt.datetime) -> CheckRecord:
    return CheckRecord(
        claim_id=job.claim_id,
        quote_index=job.quote_index,
        quote_text=job.quote_text,
        source_id=job.source_id,
        url=job.url,
        source_status=page.fetch.source_status,
        status=found.status if found else None,
        match_kind=found.match if found else None,
        similarity=found.similarity if found else None,
        current=found.current if found else None,
        meaning_changed=found.meaning_changed if found else False,
        changed_words=found.changed_words if found else (),
        change_kinds=found.change_kinds if found else (),
        closest=found.closest if found else None,
        closest_kinds=found.closest_kinds if found else (),
        occurrences=found.occurrences if found else 0,
        context_before=found.context.before if found and found.context else None,
        context_after=found.context.after if found and found.context else None,
        snapshot_hash=page.snapshot_hash,
        checked_at=now,
        recipe=page.recipe,
    )


async def read_pages(
    urls: Sequence[str],
    *,
    client: httpx.AsyncClient,
    policy: FetchPolicy,
    url_map: UrlMap = NO_MAP,
    select: str | None = None,
) -> dict[str, Page]:
    """Fetch and read pages outside a refresh (`verify`, `add`): the same fetcher, map and
    reader as a refresh, and nothing recorded. Keyed by the URLs as given."""
    by_target = {url_map.apply(url): url for url in dict.fromkeys(urls)}
    results = await fetch_all(by_target, client, policy=policy)
    return {
        by_target[target]: read_page(
            _ledger_side(replace(result, url=by_target[target]), url_map), select
        )
        for target, result in results.items()
    }


def check_page(quote: str, page: Page) -> Match | None:
    """Where the quote stands on a page that was read; None when it could not be read."""
    prepared = page.prepared()
    return None if prepared is None else locate(quote, prepared)


def page_title(page: Page) -> str | None:
    """The page's own <title>, for a source `add` creates."""
    body, media = page.fetch.text, (page.fetch.content_type or "").lower()
    return head_links(body).title if body is not None and "html" in media else None
