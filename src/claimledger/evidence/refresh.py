"""The refresh loop: fetch every source once, read it, locate every quote on it.

`refresh` is an async generator in the manner of pip-audit's `Auditor.audit`: it yields
one `Reading` per page (and selector) as each arrives, and never records, prints or
keeps a page past its reading; the caller records each reading (the store commits it
at once) and shows progress. What it needs from earlier runs it asks of an `Earlier`
(the evidence store fits): the last check of each quote, the validators and snapshots
of a URL. A failure of one source is data in its reading.

A page's reading (extract, prepare, locate) is one `PageTask`, a value that holds all it
needs (the body, the quotes, their last checks, the stored snapshots those were made on),
so `read_task` is pure; `refresh` runs it on the event loop's thread as each page
arrives, while the fetcher keeps a window of other pages coming. (Reading in worker
processes bought a cold refresh of 200 pages a quarter of its time on two cores, too
little to keep: tests/benchmarks/README.md.)

The extractor and the matcher (pageread.py) load only when a page has a body to read or
a quote to locate: a run whose every page answers 304, its verdicts carried over, loads
neither. `read_pages` (and `pageread.check_page`) read and judge pages the same way
outside a refresh, for `verify` and `add`.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections import defaultdict
from collections.abc import AsyncGenerator, Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Protocol

from claimledger.errors import StoreDamagedError
from claimledger.reading.decoding import media_type_of
from claimledger.reading.pdf import is_pdf_address
from claimledger.recipes import recipe
from claimledger.records import (
    DEFAULT_POLICY,
    FOUND_THERE,
    CheckKey,
    CheckRecord,
    FetchPolicy,
    FetchResult,
    Hop,
    Validators,
    check_key,
    snapshot_digest,
)
from claimledger.urls import UrlMap, fetch_target, shown, split

if TYPE_CHECKING:
    from claimledger.evidence.pageread import Locating
    from claimledger.ledger.model import Ledger
    from claimledger.reading.editlinks import SourceFile
    from claimledger.reading.match import Match
    from claimledger.web.fetch import Client, RobotsMemory

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
    under: str | None = None

    @property
    def key(self) -> CheckKey:
        return (self.claim_id, self.quote_text, self.source_id)


@dataclass(frozen=True)
class Page:
    """One URL as read in this run: the fetch, and the text a reader sees (if any)."""

    fetch: FetchResult
    text: str | None
    snapshot_hash: str | None
    recipe: str
    whole: str | None = None
    """The whole text when `text` is only the lines a #L anchor names."""


@dataclass(frozen=True)
class Reading:
    """A page read in a run, ready to record: the fetch (its body dropped), the snapshot
    text to keep when it is new (None when reused or unread), and every check made on it."""

    fetch: FetchResult
    snapshot_hash: str | None
    new_snapshot: str | None
    recipe: str
    checks: tuple[CheckRecord, ...]
    body_bytes: int | None = None
    """The size of the page's text as read, in UTF-8 (None when no body came: a 304, a
    failure); for `refresh --verbose`."""
    source_file: SourceFile | None = None
    """The file the page's "Edit this page" link names, read only when a quote on it was
    not found as written (the history step looks there)."""


class Stored(Protocol):
    """The snapshots reading a page may need: the one a 304 reuses, and those the quotes'
    last checks were made on (KeyError for a snapshot the store does not have)."""

    def answered_snapshot(
        self, final_url: str, recipe: str, validators: Validators | None
    ) -> str | None: ...
    def snapshot_text(self, snapshot_hash: str) -> str: ...


class Earlier(Stored, Protocol):
    """What the loop reads of earlier runs (the evidence store fits)."""

    def latest_judged_checks(self, keys: Iterable[CheckKey]) -> list[CheckRecord]: ...
    def validators(self, final_url: str, recipes: Iterable[str]) -> Validators | None: ...


@dataclass(frozen=True)
class PageTask:
    """One reading's work, with all it needs, as one value: the fetch (with its body), the
    selector, the quotes looked for through it, their last checks, the snapshot a 304
    answered with, the stored snapshots it may read (`stored`, by hash: that one and those
    the last checks were made on), and the time."""

    fetched: FetchResult
    select: str | None
    jobs: tuple[QuoteJob, ...]
    previous: Mapping[CheckKey, CheckRecord]
    answered: str | None
    stored: Mapping[str, str | StoreDamagedError] = field(repr=False)
    now: dt.datetime
    deadline: float = DEFAULT_POLICY.deadline
    """The URL's deadline, which a reading through a selector stays within."""
    browser: bool = False
    """Read in a browser (`render: browser`, `--browser`): its checks say so, since the
    text a browser leaves is not the text the server sends."""

    @property
    def recipe(self) -> str:
        """How this reading reads the page, as its fetch and checks record it."""
        return recipe(self.select, browser=self.browser)

    def answered_snapshot(
        self, final_url: str, recipe: str, validators: Validators | None
    ) -> str | None:
        return self.answered

    def snapshot_text(self, snapshot_hash: str) -> str:
        text = self.stored[snapshot_hash]
        if isinstance(text, StoreDamagedError):
            raise text
        return text


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
            quote.under,
        )
        for claim in chosen
        for index, quote in enumerate(claim.quotes)
        for source_id in quote.sources
    ]


async def refresh(
    jobs: Sequence[QuoteJob],
    *,
    client: Client,
    earlier: Earlier,
    now: Clock,
    policy: FetchPolicy,
    url_map: UrlMap = NO_MAP,
    robots: RobotsMemory | None = None,
    whole: bool = True,
) -> AsyncGenerator[Reading, None]:
    """Fetch every URL once and yield a reading per URL and selector, as each arrives.

    Each page is read (once per selector) and its quotes located while the other fetches
    are still under way; an unchanged page and quote keep their
    verdict. `robots` keeps each site's robots.txt for the runs of the next day. `whole`:
    the jobs are every quote of the ledger (not some claims'), so that a page moved to
    one carrying none of them can be told from one carrying the quotes not asked about.
    """
    by_reading: dict[tuple[str, str | None], list[QuoteJob]] = defaultdict(list)
    for job in jobs:
        by_reading[(job.url, job.select)].append(job)
    selects: dict[str, list[str | None]] = defaultdict(list)
    for url, select in by_reading:
        selects[url].append(select)
    by_target: dict[str, list[str]] = defaultdict(list)
    for url in selects:
        by_target[url_map.apply(url)].append(url)

    def validators(requested: str, start: str) -> Validators | None:
        """Those stored for exactly the URL asked, for every way its answer will be read."""
        recipes = [recipe(select) for url in by_target[start] for select in selects[url]]
        return earlier.validators(url_map.reverse(requested), recipes)

    def tasks(result: FetchResult) -> Iterator[PageTask]:
        browser = in_browser(result.url, policy)
        for url in by_target[result.url]:
            fetched = _ledger_side(replace(result, url=url), url_map)
            for select in selects[url]:
                jobs = by_reading[(url, select)]
                task = _task(fetched, select, jobs, earlier, now(), browser=browser)
                yield replace(task, deadline=policy.deadline)

    from claimledger.web.fetch import fetch_each

    # an async generator: closed at once when the caller stops early
    fetches = fetch_each(by_target, client, validators=validators, policy=policy, robots=robots)
    async with contextlib.aclosing(fetches):
        async for result in fetches:
            readings = [read_task(task) for task in tasks(result)]
            for reading in moved_where_a_quote_is(readings) if whole else readings:
                yield reading


def moved_where_a_quote_is(readings: Sequence[Reading]) -> Sequence[Reading]:
    """The readings of one address, where a permanent redirect to a page higher in its
    site (the site's home, a docs index, a section's or a version's root page) moved the
    page only if some quote of it is there, verbatim or reworded: one carrying none is a
    page removed, its quotes gone as a 404's are, and its site is searched for it; a page
    merged into its section's (`/config/logging` to `/config#logging`) with its quotes
    there stays moved, as does one moved as deep and rewritten. Judged over every reading
    (each selector), since the move is the address's."""
    moved = next((r.fetch for r in readings if r.fetch.source_status == "moved"), None)
    if moved is None or moved.moved_to is None or not _higher_up(moved.url, moved.moved_to):
        return readings  # a page moved and rewritten: its quotes missing at its new address
    if any(check.status in FOUND_THERE for reading in readings for check in reading.checks):
        return readings
    return [
        _not_moved_there(reading) if reading.fetch.source_status == "moved" else reading
        for reading in readings
    ]


def _higher_up(url: str, moved_to: str) -> bool:
    """Whether `moved_to` stands higher in its site than `url` (fewer folders: the home
    page, a section's page, a version's root): a landing page when it carries none of the
    quotes. A page moved as deep or deeper without them was moved and rewritten."""
    old, new = split(url), split(moved_to)
    if old is None or new is None:
        return False
    return len(_segments(new.path)) < len(_segments(old.path))


def _segments(path: str) -> list[str]:
    """A path's segments, a folder's index page (`index.html`) counted as its folder."""
    parts = [part for part in path.split("/") if part]
    return parts[:-1] if parts and parts[-1].lower() in ("index.html", "index.htm") else parts


def _not_moved_there(reading: Reading) -> Reading:
    """A moved page's reading as a gone page's: no text kept as the source's (a search
    ranks by its last snapshot's title, the history step reads its edit link's file),
    nothing found, nothing to ask "changed since?" of."""
    fetch = reading.fetch
    error = (
        f"redirected for good to {shown(fetch.moved_to)}, a page without its quotes: "
        "the page is gone, not moved there"
    )
    gone = replace(
        fetch,
        source_status="gone",
        moved_to=None,
        error=error,
        etag=None,
        last_modified=None,
        text=None,
        body=None,
    )
    checks = tuple(_unfound(check) for check in reading.checks)
    return replace(
        reading, fetch=gone, snapshot_hash=None, new_snapshot=None, checks=checks, source_file=None
    )


def _unfound(check: CheckRecord) -> CheckRecord:
    """A check as one on a page gone makes it: nothing of the page it was looked for on."""
    return replace(
        check,
        source_status="gone",
        status=None,
        match_kind=None,
        similarity=None,
        current=None,
        meaning_changed=False,
        changed_words=(),
        occurrences=0,
        context_before=None,
        context_after=None,
        snapshot_hash=None,
        change_kinds=(),
        closest=None,
        closest_kinds=(),
        moved_within=None,
        pdf_page=None,
    )


def in_browser(target: str, policy: FetchPolicy) -> bool:
    """Was the page fetched as `target` read in a browser? Its every reading says so, a
    page no browser changes (a PDF, plain text) too: the ledger asked for it read so."""
    from claimledger.web.browser import browser_reading

    return browser_reading(policy, fetch_target(target)[0])[0]


def _task(
    fetched: FetchResult,
    select: str | None,
    jobs: Sequence[QuoteJob],
    earlier: Earlier,
    now: dt.datetime,
    *,
    browser: bool = False,
) -> PageTask:
    """A reading's work with what it needs of earlier runs looked up here: its quotes' last
    checks, the snapshot a 304 answered with, and the texts those checks were made on.
    They are asked for a page at a time, so that a run never holds every quote's last
    check at once."""
    keys = dict.fromkeys(job.key for job in jobs)
    mine = {check_key(check): check for check in earlier.latest_judged_checks(keys)}
    answered = None
    if fetched.not_modified:
        how = recipe(select, browser=browser)
        answered = earlier.answered_snapshot(fetched.final_url, how, fetched.conditional)
    stored: dict[str, str | StoreDamagedError] = {}
    for digest in dict.fromkeys([answered, *(check.snapshot_hash for check in mine.values())]):
        if digest is not None:
            with contextlib.suppress(KeyError):
                stored[digest] = _stored_text(earlier, digest)
    return PageTask(fetched, select, tuple(jobs), mine, answered, stored, now, browser=browser)


def _stored_text(earlier: Stored, digest: str) -> str | StoreDamagedError:
    """A stored snapshot's text, or the error reading it raised (raised again if used)."""
    try:
        return earlier.snapshot_text(digest)
    except StoreDamagedError as damaged:
        return damaged


def read_task(task: PageTask) -> Reading:
    """Read the page and check every quote on it: pure, so any process can do it."""
    page, new = _read(task.fetched, task.select, task, task.deadline)
    page = replace(page, recipe=task.recipe)  # read as sent, or as a browser left it
    checks = _check_page(page, task.jobs, task.previous, task, task.now)
    text = task.fetched.text
    size = None if text is None else len(text.encode("utf-8", "replace"))
    fetch = replace(page.fetch, text=None)
    linked = _edit_link(task.fetched, checks)
    return Reading(
        fetch, page.snapshot_hash, new, page.recipe, checks, body_bytes=size, source_file=linked
    )


def _edit_link(fetched: FetchResult, checks: Sequence[CheckRecord]) -> SourceFile | None:
    """The source file an HTML page's edit link names, when a quote on it needs its history."""
    if fetched.text is None or media_type_of(fetched.content_type) not in _HTML:
        return None
    if all(check.status not in ("drifted", "missing") for check in checks):
        return None
    from claimledger.reading.editlinks import source_file_of

    return source_file_of(fetched.text, fetched.final_url or fetched.url)


_HTML = frozenset({"text/html", "application/xhtml+xml"})


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
    previous: Mapping[CheckKey, CheckRecord],
    earlier: Stored,
    now: dt.datetime,
) -> tuple[CheckRecord, ...]:
    """Locate each job's quote on the page; an unchanged page and quote keep their verdict.

    The matcher is deterministic, so a quote last checked on this very snapshot would
    get the same answer again: it is carried over rather than recomputed (and the matcher
    is loaded only when some quote must be located).
    """
    locating: Locating | None = None
    checks = []
    for job in jobs:
        before = previous.get(job.key)
        if page.text is None:
            checks.append(_check(job, page, None, now))
        elif before is not None and _carried(before, job, page.snapshot_hash, page.recipe):
            checks.append(
                replace(
                    before,
                    quote_index=job.quote_index,
                    url=job.url,
                    run_id=None,
                    source_status=page.fetch.source_status,
                    checked_at=now,
                )
            )
        else:
            if locating is None:
                from claimledger.evidence.pageread import Locating

                locating = Locating(page, earlier)
            found, moved = locating.find(job, before)
            checks.append(replace(_check(job, page, found, now), moved_within=moved))
    return tuple(checks)


def _carried(
    before: CheckRecord | None, job: QuoteJob, snapshot_hash: str | None, how: str
) -> bool:
    """Does the quote keep its last verdict: made on this very text, read the same way?"""
    return bool(
        before
        and before.status
        and before.snapshot_hash == snapshot_hash
        and before.recipe == how
        and not job.under  # where the ledger places it may have changed: look again
    )


def _read(
    fetched: FetchResult, select: str | None, earlier: Stored, deadline: float
) -> tuple[Page, str | None]:
    """The text a reader sees, and that text when it is a new snapshot to keep: extracted
    from the body (within what the URL's `deadline` left), or on a 304 the stored snapshot
    of the very URL that answered, from the reading that carried the validators we sent
    (a snapshot the store cannot give back leaves the page unreadable, said why)."""
    how = recipe(select)
    if fetched.not_modified:
        snapshot = earlier.answered_snapshot(fetched.final_url, how, fetched.conditional)
        if snapshot is None:
            missing = f"304 from {fetched.final_url} without a stored snapshot of it"
            return unreadable(fetched, missing, select), None
        try:
            return Page(fetched, earlier.snapshot_text(snapshot), snapshot, how), None
        except (KeyError, StoreDamagedError) as error:
            why = error if isinstance(error, StoreDamagedError) else "it is not in the store"
            damaged = f"304 from {fetched.final_url}, whose stored snapshot cannot be read: {why}"
            return unreadable(fetched, damaged, select), None
    if fetched.text is None:  # nothing came to read: the reader need not load
        return Page(fetched, None, None, how), None
    from claimledger.evidence.pageread import read_page

    page = read_page(fetched, select, deadline=deadline)
    if page.text is None:
        return page, None
    return replace(page, snapshot_hash=snapshot_digest(page.text)), page.text


def unreadable(fetched: FetchResult, why: str, select: str | None) -> Page:
    """A page that gave no text a reader sees, and why (its status becomes `unreadable`)."""
    return Page(replace(fetched, source_status="unreadable", error=why), None, None, recipe(select))


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
        pdf_page=pdf_page_of(page, found),
    )


def pdf_page_of(page: Page, found: Match | None) -> int | None:
    """The page of a PDF where the quote was found (its text is one line a page)."""
    fetched = page.fetch
    if found is None or found.start is None or page.text is None:
        return None
    if not is_pdf_address(media_type_of(fetched.content_type), fetched.final_url):
        return None
    return page.text.count("\n", 0, found.start) + 1


# --------------------------------------------------------------------------- outside a refresh


async def read_pages(
    urls: Sequence[str],
    *,
    client: Client,
    policy: FetchPolicy,
    url_map: UrlMap = NO_MAP,
    select: str | None = None,
    selects: Mapping[str, str] | None = None,
) -> dict[str, Page]:
    """Fetch and read pages outside a refresh (`verify`, `add`): the same fetcher, map and
    reader as a refresh, and nothing recorded. Each page is read through `select`, or its
    own in `selects` (a ledger source's, by the URL as given). Keyed by the URLs as given."""
    from claimledger.evidence.pageread import read_page
    from claimledger.web.fetch import fetch_each

    by_target = {url_map.apply(url): url for url in dict.fromkeys(urls)}
    pages: dict[str, Page] = {}
    async for result in fetch_each(by_target, client, policy=policy):
        url = by_target[result.url]
        fetched = _ledger_side(replace(result, url=url), url_map)
        own = select if selects is None else selects.get(url, select)
        pages[url] = read_page(fetched, own, deadline=policy.deadline)
    return {url: pages[url] for url in dict.fromkeys(urls)}
