"""As read: every quote checked on the web archive's copy of its page from the reading day.

A refresh says where each quote stands *now*, on the live page. This step says where it
stood on the ledger's `date_read`: for each source, the archive's capture nearest that
day (within the window, `archive.ArchiveSettings`), read with the same extractor as the
live page (`refresh.read_page`) and searched with the same matcher. A quote has then two
verdicts, *as read* and *now*; one that the copy of the reading day does not carry
verbatim (reworded there, or not there at all) was **misquoted at reading time**, its own
finding, which `regrade` treats like a quote gone (rule `misquoted-as-read`). The words
checked are those of the reading day: a rewording adopted since (`accept`) is followed
back to the wording that was read.

Bounded and polite: one lookup per page per run, and none once the archive has answered
(a capture never changes; "none within N days" is an answer too, once those days are
past: until then a capture may still come). The answer, the copy's
text and each verdict are kept in the evidence store, so the next run asks the archive
nothing; a failed lookup is asked again next run, and a verdict is recorded only when it
is new.

Which pages are looked up (`consulted`): an archive named by `--archive` or
claimledger.toml is asked about every source; the default public archive only about a
page read at its own public address, never one read through `--map` (a mirror, a local
copy) or on a loopback, private or reserved host, so a run against local pages never
reaches the internet unless told to.
"""

from __future__ import annotations

import datetime as dt
from collections import defaultdict
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Protocol

from claimledger.evidence.archive import (
    ArchiveSettings,
    archive_policy,
    ask_archive,
    look_up,
    raw_copy_url,
    shifted,
)
from claimledger.evidence.refresh import QuoteJob
from claimledger.ledger.model import Ledger
from claimledger.recipes import recipe
from claimledger.records import (
    ArchivedCopy,
    ArchiveLookup,
    AsReadCheck,
    FetchPolicy,
    FetchResult,
    check_key,
    snapshot_digest,
)
from claimledger.urls import UrlMap, fetch_target, has_secrets, names_public_site, shown
from claimledger.web.fetch import Client, Manners

if TYPE_CHECKING:  # the reader and the matcher load when a copy is read
    from claimledger.reading.match import Match, PreparedText

Clock = Callable[[], dt.datetime]


class Kept(Protocol):
    """What the step reads and writes of the evidence store (`EvidenceStore` fits)."""

    def archive_lookup(
        self, url: str, read_on: dt.date, archive: str, window_days: int
    ) -> tuple[int, ArchiveLookup] | None: ...
    def record_archive_lookup(self, lookup: ArchiveLookup, run_id: int | None = None) -> int: ...
    def archived_copy(self, lookup_id: int, recipe: str) -> ArchivedCopy | None: ...
    def record_archived_copy(
        self, lookup_id: int, copy: ArchivedCopy, now: dt.datetime
    ) -> None: ...
    def latest_as_read_checks(self) -> list[AsReadCheck]: ...
    def record_as_read_check(self, check: AsReadCheck, run_id: int | None = None) -> None: ...


@dataclass(frozen=True)
class AsReadRun:
    """What one run found as read: each page's lookup (by its address as requested), each
    quote's verdict on the copy, how many lookups and copies the archive was asked for in
    this run (0 once everything is kept), and the captures that may fill a source's empty
    `archived` (by source id)."""

    lookups: Mapping[str, ArchiveLookup]
    checks: tuple[AsReadCheck, ...]
    asked: int
    read: int
    archived: Mapping[str, str]
    skipped: tuple[str, ...] = ()
    """Sources not looked up (read through --map or from a local address, with the
    default archive; or whose address holds a secret): by id."""
    from_repository: int = 0
    """How many of `checks` were made on the docs' repository's version of the file at
    the reading day, for want of an archived copy (the refresh's history step)."""

    @property
    def misquoted(self) -> tuple[AsReadCheck, ...]:
        return tuple(check for check in self.checks if check.misquoted)


def consulted(settings: ArchiveSettings, url: str, url_map: UrlMap) -> bool:
    """Is the archive asked about the page at `url`? Never when its address holds a secret
    (it would be sent to the archive). An archive someone named: always. The default
    public one: only for a page read at its own public address."""
    if has_secrets(url):
        return False
    if settings.explicit:
        return True
    return url_map.apply(url) == url and names_public_site(url)


@dataclass(frozen=True)
class _Asking:
    """How one run asks the archive, and the store that keeps what it answered."""

    client: Client
    policy: FetchPolicy
    settings: ArchiveSettings
    url_map: UrlMap
    manners: Manners
    store: Kept
    now: Clock
    run_id: int | None


async def check_as_read(
    ledger: Ledger,
    jobs: Sequence[QuoteJob],
    *,
    client: Client,
    store: Kept,
    policy: FetchPolicy,
    settings: ArchiveSettings,
    now: Clock,
    url_map: UrlMap | None = None,
    run_id: int | None = None,
) -> AsReadRun:
    """Look up, read and check each job's quote on the copy of its page from the reading day
    (`ledger.date_read`), asking the archive only what the store does not hold yet."""
    url_map = url_map or UrlMap()
    by_page: dict[str, list[QuoteJob]] = defaultdict(list)
    skipped: set[str] = set()
    for job in jobs:
        if consulted(settings, job.url, url_map):
            by_page[fetch_target(job.url)[0]].append(job)
        else:
            skipped.add(job.source_id)
    if not by_page:  # nothing to ask the archive, nothing kept to read
        return AsReadRun({}, (), 0, 0, {}, tuple(sorted(skipped)))
    manners = Manners(client, archive_policy(policy))
    asking = _Asking(client, policy, settings, url_map, manners, store, now, run_id)
    try:
        lookups, ids, asked = await _lookups(asking, by_page, ledger.date_read)
        copies, read = await _copies(asking, by_page, lookups, ids)
    finally:
        await manners.close()
    checks = _verdicts(asking, ledger, by_page, lookups, copies)
    archived = {
        job.source_id: url
        for page, page_jobs in by_page.items()
        if (url := lookups[page].snapshot_url)
        for job in page_jobs
        if not ledger.sources[job.source_id].archived
    }
    return AsReadRun(lookups, checks, asked, read, archived, tuple(sorted(skipped)))


async def _lookups(
    asking: _Asking, by_page: Mapping[str, Sequence[QuoteJob]], day: dt.date
) -> tuple[dict[str, ArchiveLookup], dict[str, int], int]:
    """Each page's lookup: kept, else asked now (and kept); with the rows' ids. "None within
    the window" is kept only once the window has closed: until then a capture may come."""
    settings, store = asking.settings, asking.store
    lookups: dict[str, ArchiveLookup] = {}
    ids: dict[str, int] = {}
    closes = shifted(day, settings.window_days)
    for page in by_page:
        kept = store.archive_lookup(page, day, settings.base, settings.window_days)
        if kept is not None and (
            kept[1].outcome == "found" or kept[1].looked_up_at.date() > closes
        ):
            ids[page], lookups[page] = kept
    wanted = {page: day for page in by_page if page not in lookups}
    if wanted:
        asked = await look_up(
            wanted,
            client=asking.client,
            policy=asking.policy,
            settings=settings,
            now=asking.now(),
            url_map=asking.url_map,
            manners=asking.manners,
        )
        for page, lookup in asked.items():
            ids[page] = store.record_archive_lookup(lookup, asking.run_id)
            lookups[page] = lookup
    return lookups, ids, len(wanted)


async def _copies(
    asking: _Asking,
    by_page: Mapping[str, Sequence[QuoteJob]],
    lookups: Mapping[str, ArchiveLookup],
    ids: Mapping[str, int],
) -> tuple[dict[tuple[str, str], ArchivedCopy], int]:
    """Each capture's copy, read every way its sources read it (by page and recipe): kept,
    else read now (one request a capture, however many selectors) and kept."""
    copies: dict[tuple[str, str], ArchivedCopy] = {}
    unread: dict[str, set[str | None]] = defaultdict(set)
    for page, jobs in by_page.items():
        if lookups[page].outcome != "found":
            continue
        for select in {job.select for job in jobs}:
            kept = asking.store.archived_copy(ids[page], recipe(select))
            if kept is not None:
                copies[(page, recipe(select))] = kept
            else:
                unread[page].add(select)
    raw = {raw_copy_url(lookups[page]): page for page in unread}
    if not raw:
        return copies, 0
    policy, url_map = archive_policy(asking.policy), asking.url_map
    async for result in ask_archive(
        raw, asking.client, policy, url_map=url_map, manners=asking.manners
    ):
        page = raw[result.url]
        for select in unread[page]:
            copy = _read_copy(result, select, policy.deadline)
            asking.store.record_archived_copy(ids[page], copy, asking.now())
            copies[(page, copy.recipe)] = copy
    return copies, len(raw)


def _read_copy(result: FetchResult, select: str | None, deadline: float) -> ArchivedCopy:
    """The text a reader sees on a capture's raw copy, read as its source reads the live
    page (the whole page: a #L anchor's lines are where it is now, not where it was).
    A copy the archive answers by sending the reader elsewhere (another capture, today's
    live page) is no copy of the capture named: it is said so, and judged by no verdict."""
    from claimledger.evidence.pageread import read_page

    if result.redirects:
        elsewhere = f"the archive sent its copy on to {shown(result.final_url)}: not the capture"
        return ArchivedCopy(
            result.final_url, result.http_status, result.content_type, recipe(select), None,
            elsewhere,
        )  # fmt: skip

    page = read_page(replace(result, line_range=None), select, deadline=deadline)
    fetched = page.fetch
    error = None if page.text is not None else fetched.error or f"{fetched.source_status} copy"
    return ArchivedCopy(
        result.final_url, result.http_status, result.content_type, page.recipe, page.text, error
    )


def _verdicts(
    asking: _Asking,
    ledger: Ledger,
    by_page: Mapping[str, Sequence[QuoteJob]],
    lookups: Mapping[str, ArchiveLookup],
    copies: Mapping[tuple[str, str], ArchivedCopy],
) -> tuple[AsReadCheck, ...]:
    """Each quote's verdict on its copy, the wording of the reading day searched; a verdict
    already kept for the same copy and words is not recorded again."""
    store, now = asking.store, asking.now()
    earlier = {check_key(check): check for check in store.latest_as_read_checks()}
    prepared: dict[tuple[str, str], PreparedText] = {}
    checks = []
    for page, jobs in by_page.items():
        lookup = lookups[page]
        for job in jobs:
            copy = copies.get((page, recipe(job.select)))
            if copy is None or lookup.snapshot_url is None or lookup.timestamp is None:
                continue
            day = ledger.date_read.isoformat()
            wording, _ = ledger.claim(job.claim_id).as_read(job.quote_text, on=day)
            check = _check(job, wording, lookup, copy, prepared, (page, copy.recipe), now)
            before = earlier.get(job.key)
            if before is not None and same_reading(before, check):
                check = replace(before, quote_index=job.quote_index)
            else:
                store.record_as_read_check(check, asking.run_id)
            checks.append(check)
    return tuple(checks)


def _check(
    job: QuoteJob,
    wording: str,
    lookup: ArchiveLookup,
    copy: ArchivedCopy,
    prepared: dict[tuple[str, str], PreparedText],
    key: tuple[str, str],
    now: dt.datetime,
) -> AsReadCheck:
    found = None
    if copy.text is not None:
        from claimledger.reading.extract import text_kind
        from claimledger.reading.match import locate, prepare

        if key not in prepared:
            kind = text_kind(copy.content_type or "", copy.final_url)
            prepared[key] = prepare(copy.text, kind=kind)
        found = locate(wording, prepared[key])
    return as_read_check(
        job,
        wording,
        found,
        read_on=lookup.read_on,
        snapshot_url=lookup.snapshot_url or "",
        timestamp=lookup.timestamp or "",
        text=copy.text,
        recipe=copy.recipe,
        now=now,
        error=copy.error,
    )


def as_read_check(
    job: QuoteJob,
    wording: str,
    found: Match | None,
    *,
    read_on: dt.date,
    snapshot_url: str,
    timestamp: str,
    text: str | None,
    recipe: str,
    now: dt.datetime,
    error: str | None = None,
) -> AsReadCheck:
    """A quote's wording as judged on a copy of the reading day's page (`found`: None when
    the copy could not be read), whichever copy it was: the archive's or the repository's."""
    return AsReadCheck(
        claim_id=job.claim_id,
        quote_index=job.quote_index,
        quote_text=job.quote_text,
        wording=wording,
        source_id=job.source_id,
        url=job.url,
        read_on=read_on,
        snapshot_url=snapshot_url,
        timestamp=timestamp,
        status=found.status if found else None,
        match_kind=found.match if found else None,
        similarity=found.similarity if found else None,
        current=found.current if found and found.status != "verified" else None,
        meaning_changed=found.meaning_changed if found else False,
        changed_words=found.changed_words if found else (),
        change_kinds=found.change_kinds if found else (),
        closest=found.closest if found else None,
        snapshot_hash=None if text is None else snapshot_digest(text),
        recipe=recipe,
        checked_at=now,
        error=error,
    )


def same_reading(before: AsReadCheck, now: AsReadCheck) -> bool:
    """The same words judged on the same copy the same way: the verdict stands."""
    return (before.wording, before.snapshot_hash, before.recipe, before.url, before.read_on) == (
        now.wording,
        now.snapshot_hash,
        now.recipe,
        now.url,
        now.read_on,
    )
