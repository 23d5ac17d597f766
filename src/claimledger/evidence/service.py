"""The refresh as one service: the live pages read and recorded, then the after-steps (the
as-read check on the archive's copies of the reading day, the search for sources that
went, the archive asked to save each page read), each recorded as it goes.

A command line, a library caller and the CI Action need the same steps in the same order,
so they live here, and the caller only parses its options and prints the outcome.
Nothing here prints: progress is a callback, and what the steps found is handed back.
"""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Coroutine, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:  # each step loads what it uses, when it runs
    from claimledger.errors import ClaimledgerError
    from claimledger.evidence.archive import ArchiveSettings
    from claimledger.evidence.asread import AsReadRun
    from claimledger.evidence.history import HistoryRun, HistorySettings
    from claimledger.evidence.preserve import ToSave, Withheld
    from claimledger.evidence.refresh import Page, QuoteJob, Reading
    from claimledger.evidence.relocate import Lost
    from claimledger.evidence.store import EvidenceStore
    from claimledger.evidence.store.robots import KeptRobots
    from claimledger.ledger.config import Config
    from claimledger.ledger.model import Ledger
    from claimledger.reading.editlinks import SourceFile
    from claimledger.reading.provenance import FileGone
    from claimledger.records import (
        ArchivedCopy,
        ArchiveLookup,
        AsReadCheck,
        CheckKey,
        CheckRecord,
        FetchPolicy,
        FetchResult,
        Relocation,
        SavedSnapshot,
        Validators,
    )
    from claimledger.urls import UrlMap

T = TypeVar("T")
Clock = Callable[[], dt.datetime]


def run_async(work: Coroutine[Any, Any, T]) -> T:
    """Run a network step; asyncio loads only for a command that has one.

    The result is handed out past the task: when `asyncio.run` puts Ctrl-C's handler back,
    it formats the repr of its own handler, which holds the main task and, in it, the whole
    repr of the task's result (every page's text, for `verify` or `add`).
    """
    import asyncio

    results: list[T] = []

    async def set_aside() -> None:
        results.append(await work)

    with asyncio.Runner() as runner:
        try:
            runner.run(set_aside())
        except KeyboardInterrupt:  # what a Ctrl-C cut off (a browser's driver) is no news:
            runner.get_loop().set_exception_handler(_unsaid)  # "interrupted" says it
            raise
    return results[0]


def _unsaid(loop: Any, context: dict[str, Any]) -> None:
    """An event loop's exception handler that says nothing."""


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class Afterwards:
    """What a refresh does after its live pages are recorded: look for sources that went
    (reading at most `candidates` pages each; None: not at all), save each page read in
    the archive at `save_to` (None: not at all), and check the quotes on the archive's
    copies of the reading day (`reading_day`; None: not at all)."""

    candidates: int | None = None
    save_to: str | None = None
    reading_day: ArchiveSettings | None = None
    history: HistorySettings | None = None
    """Read the history of each quote not found as written in the docs' repository, within
    these bounds (None: not at all)."""


def afterwards(
    config: Config,
    *,
    recover: bool,
    candidates: int | None,
    save: bool,
    archive: str | None,
    as_read: bool,
    window: int | None,
    history: bool = False,
) -> Afterwards:
    """The steps after a refresh, from its options and the ledger's settings as honoured
    (checked before anything is fetched)."""
    from claimledger.evidence.archive import archive_settings
    from claimledger.evidence.history import HistorySettings
    from claimledger.ledger import config as settings

    settings.check_option("recover_candidates", candidates)
    count = candidates or config.recover_candidates or settings.DEFAULT_RECOVER_CANDIDATES
    chosen = archive_settings(config, archive, window)  # checked even for a step skipped
    save_to = chosen.base if save else None
    reading_day = chosen if as_read else None
    bounds = None
    if history and config.history is not False:
        budget = config.history_budget or settings.DEFAULT_HISTORY_BUDGET
        bounds = HistorySettings(
            budget, config.history_clone_mb or settings.DEFAULT_HISTORY_CLONE_MB
        )
    return Afterwards(count if recover else None, save_to, reading_day, bounds)


@dataclass(frozen=True)
class RefreshPlan:
    """One refresh: the ledger (read from `ledger_path`), its quote checks, how pages may
    be fetched, and the steps after the live pages."""

    ledger: Ledger
    ledger_path: Path
    jobs: Sequence[QuoteJob]
    policy: FetchPolicy
    url_map: UrlMap
    after: Afterwards = field(default_factory=Afterwards)


# --------------------------------------------------------------------------- the outcome


@dataclass(frozen=True)
class Saves:
    """What `--save` did: the snapshots asked for (taken or not), the pages the archive
    already held as read (not asked again), and the addresses never sent (a secret; not
    a public address)."""

    asked: tuple[SavedSnapshot, ...] = ()
    unchanged: tuple[SavedSnapshot, ...] = ()
    secret: tuple[str, ...] = ()
    withheld: tuple[Withheld, ...] = ()


@dataclass(frozen=True)
class ArchivedFilled:
    """The sources whose empty `archived` got the capture of the reading day, or why the
    ledger could not be written (the evidence is kept either way)."""

    count: int = 0
    problem: ClaimledgerError | None = None


@dataclass(frozen=True)
class PageRead:
    """A page a run read, as the later steps and the summary need it once it is recorded:
    its fetch, the snapshot its text is kept as, the file its edit link names. Its checks
    are in the store (`EvidenceStore.run_checks`), so that a run's memory does not grow
    with the quotes it checked."""

    fetch: FetchResult
    snapshot_hash: str | None
    source_file: SourceFile | None

    @classmethod
    def of(cls, reading: Reading) -> PageRead:
        return cls(reading.fetch, reading.snapshot_hash, reading.source_file)


@dataclass(frozen=True)
class RefreshOutcome:
    """What a refresh found and recorded, in the order it was done."""

    run_id: int
    pages: tuple[PageRead, ...]
    as_read: AsReadRun | None = None
    archived: ArchivedFilled = field(default_factory=ArchivedFilled)
    relocations: tuple[Relocation, ...] = ()
    saves: Saves | None = None
    history: HistoryRun | None = None


# --------------------------------------------------------------------------- the service


def refresh_ledger(
    plan: RefreshPlan,
    store: EvidenceStore,
    *,
    now: Clock,
    on_page: Callable[[Reading], None] = lambda reading: None,
) -> RefreshOutcome:
    """Refresh `plan` into `store`: each page and its checks recorded in one commit as it
    is read (`on_page` is told), then each after-step, recorded as it finishes. An
    interrupted run keeps every page it recorded; it stays unfinished in the store."""
    from claimledger.evidence.madehere import made_here

    ours = made_here(store.path, store.identity)  # as the run began: an adoption comes after
    run_id, pages = run_async(_record_live_pages(plan, store, now, on_page, ours))
    outcome = RefreshOutcome(run_id, tuple(pages))
    if plan.after.reading_day is not None:
        found = _check_as_read(plan, store, plan.after.reading_day, now, run_id, ours)
        archived = _fill_archived(plan, found) if found.archived else ArchivedFilled()
        outcome = replace(outcome, as_read=found, archived=archived)
    if plan.after.history is not None:
        outcome = _read_the_repositories(plan, store, outcome, now, plan.after.history, ours)
    return _after_live_pages(plan, store, outcome, now, ours)


def read_pages_once(
    urls: Sequence[str],
    policy: FetchPolicy,
    url_map: UrlMap,
    select: str | None = None,
    selects: Mapping[str, str] | None = None,
) -> dict[str, Page]:
    """Fetch and read pages outside a refresh (for `verify` and `add`), nothing recorded;
    each through `select`, or its own in `selects`."""
    from claimledger.evidence.refresh import read_pages
    from claimledger.web.fetch import make_client

    async def read() -> dict[str, Page]:
        async with make_client(policy) as client:
            return await read_pages(
                urls, client=client, policy=policy, url_map=url_map, select=select, selects=selects
            )

    return run_async(read()) if urls else {}


async def _record_live_pages(
    plan: RefreshPlan,
    store: EvidenceStore,
    now: Clock,
    on_page: Callable[[Reading], None],
    ours: bool,
) -> tuple[int, list[PageRead]]:
    """The refresh loop, each page recorded as it is read. The store is written here
    only, and no page's text or checks are kept once it is recorded. A store not made
    here (`ours`) is believed in nothing (`Stranger`), and adopted once this run leaves
    nothing of the checkout's that a refresh would take its word for."""
    from claimledger.evidence.refresh import plan as every_job
    from claimledger.evidence.refresh import refresh
    from claimledger.evidence.store.runs import ledger_named
    from claimledger.web.fetch import make_client

    pages: list[PageRead] = []
    async with make_client(plan.policy) as client:  # first: a bad proxy begins no run
        # from the store: `claims.yaml`, read from another folder, would name another file
        run_id = store.begin_run(now(), ledger_named(plan.ledger_path, store.path))
        memory = store.robots_memory(run_id, now)
        loop = refresh(
            plan.jobs,
            client=client,
            earlier=store if ours else Stranger(store),
            now=now,
            policy=plan.policy,
            url_map=plan.url_map,
            robots=memory if ours else FreshRobots(memory),
            whole=set(plan.jobs) == set(every_job(plan.ledger)),  # `refresh C1 C1` is not
        )
        async with contextlib.aclosing(loop):  # closed at once when the run stops early
            async for reading in loop:
                store.record_page(
                    run_id,
                    reading.fetch,
                    snapshot_hash=reading.snapshot_hash,
                    new_snapshot=reading.new_snapshot,
                    recipe=reading.recipe,
                    checks=reading.checks,
                    now=now(),
                )
                pages.append(PageRead.of(reading))
                on_page(reading)
    store.finish_run(run_id, now())
    if not ours and _read_in_full(plan, pages) and _nothing_else_kept(store, run_id):
        store.adopt()  # what it holds for the network is its own now
    return run_id, pages


@dataclass(frozen=True)
class Stranger:
    """A store that came with the checkout (see `evidence.madehere`), as earlier runs: none
    of its checks (one carried over to a page of the same text could be a forged
    "verified"), and no validators, so every page is read in full and none of its
    snapshots is believed for a "not modified"."""

    store: EvidenceStore

    def latest_judged_checks(self, keys: Iterable[CheckKey]) -> list[CheckRecord]:
        return []

    def validators(self, final_url: str, recipes: Iterable[str]) -> Validators | None:
        return None

    def answered_snapshot(
        self, final_url: str, recipe: str, validators: Validators | None
    ) -> str | None:
        return None

    def snapshot_text(self, snapshot_hash: str) -> str:
        return self.store.snapshot_text(snapshot_hash)


@dataclass(frozen=True)
class FreshRobots:
    """A run's robots.txt memory that recalls nothing a stranger store kept: every site is
    asked again, and what it says is kept."""

    memory: KeptRobots

    def recall(self, origin: str, within: dt.timedelta) -> str | None:
        return None

    def keep(self, origin: str, text: str) -> None:
        self.memory.keep(origin, text)


def _read_in_full(plan: RefreshPlan, pages: Sequence[PageRead]) -> bool:
    """Whether the run read every page of the ledger in full (no claims left out, none
    unreadable): a page not read keeps the checkout's validators, which the next run of a
    store taken for the user's would send, and believe the checkout's copy on a 304."""
    from claimledger.evidence.refresh import plan as whole

    read = {page.fetch.url for page in pages if page.snapshot_hash is not None}
    return {job.url for job in whole(plan.ledger)} <= read


def _nothing_else_kept(store: EvidenceStore, run_id: int) -> bool:
    """Whether the run's rows are the newest of those a refresh believes, and the store
    holds nothing a later run would believe that no reading replaces."""
    return store.nothing_after(run_id) and not store.holds_more_than_pages()


@dataclass(frozen=True)
class StrangerArchive:
    """The web archive's answers kept in a store that came with the checkout, as the
    as-read step sees them: none (a forged capture, or a copy saying other words, would
    be believed as the reading day's page); what it asks now is kept as ever."""

    store: EvidenceStore

    def archive_lookup(
        self, url: str, read_on: dt.date, archive: str, window_days: int
    ) -> tuple[int, ArchiveLookup] | None:
        return None

    def record_archive_lookup(self, lookup: ArchiveLookup, run_id: int | None = None) -> int:
        return self.store.record_archive_lookup(lookup, run_id)

    def archived_copy(self, lookup_id: int, recipe: str) -> ArchivedCopy | None:
        return None

    def record_archived_copy(self, lookup_id: int, copy: ArchivedCopy, now: dt.datetime) -> None:
        self.store.record_archived_copy(lookup_id, copy, now)

    def latest_as_read_checks(self) -> list[AsReadCheck]:
        return self.store.latest_as_read_checks()  # reused only when read alike again

    def record_as_read_check(self, check: AsReadCheck, run_id: int | None = None) -> None:
        self.store.record_as_read_check(check, run_id)


def _check_as_read(
    plan: RefreshPlan,
    store: EvidenceStore,
    settings: ArchiveSettings,
    now: Clock,
    run_id: int,
    ours: bool,
) -> AsReadRun:
    """The quotes checked on the archive's copies of the reading day (a store not made
    here answers for no capture: `StrangerArchive`)."""
    from claimledger.evidence.asread import check_as_read
    from claimledger.web.fetch import make_client

    async def run() -> AsReadRun:
        async with make_client(plan.policy) as client:
            return await check_as_read(
                plan.ledger,
                plan.jobs,
                client=client,
                store=store if ours else StrangerArchive(store),
                policy=plan.policy,
                settings=settings,
                now=now,
                url_map=plan.url_map,
                run_id=run_id,
            )

    return run_async(run())


def _fill_archived(plan: RefreshPlan, found: AsReadRun) -> ArchivedFilled:
    """Each source's empty `archived` filled with the capture of its reading day, under
    the ledger's lock (an address the author gave is never replaced). A source whose
    `url` was changed while the refresh ran is another page: its capture is not this one."""
    from claimledger.errors import ConflictError, EnvironmentProblem
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    asked = plan.ledger.sources
    filled = 0

    def change(text: str, fresh: Ledger) -> str:
        nonlocal filled
        now = fresh.sources
        known = {
            sid: url
            for sid, url in found.archived.items()
            if sid in now and sid in asked and now[sid].url == asked[sid].url
        }
        filled = sum(1 for sid in known if not now[sid].archived)
        return edits.set_archived(text, fresh, known)

    try:
        ledgerfile.update(plan.ledger_path, change)
    except (EnvironmentProblem, ConflictError) as problem:
        return ArchivedFilled(problem=problem)
    return ArchivedFilled(count=filled)


def _read_the_repositories(
    plan: RefreshPlan,
    store: EvidenceStore,
    outcome: RefreshOutcome,
    now: Clock,
    settings: HistorySettings,
    ours: bool,
) -> RefreshOutcome:
    """What the docs' repositories say, within one budget: the history of each quote not
    found as written, and each quote the archive had no copy of the reading day for,
    checked on the file's version of that day (nothing is loaded with nothing to do)."""
    from claimledger.evidence import history
    from claimledger.records import lost_reason

    pages = outcome.pages
    linked = {p.fetch.url: p.source_file for p in pages if p.source_file is not None}
    if not linked and not any(s.repo and s.path for s in plan.ledger.sources.values()):
        return outcome  # no page's file is known: there is no repository to read
    lost = {p.fetch.url for p in pages if lost_reason(p.fetch) is not None}
    checks = history.unverified(store.run_checks(outcome.run_id), lost)
    if not checks and outcome.as_read is None:
        return outcome
    from claimledger.evidence.gitrepo import Bounds, Repositories
    from claimledger.records import check_key

    home = plan.ledger_path.absolute().parent
    clones = Repositories(Bounds.of(settings.budget, settings.clone_mb))
    found = history.read_histories(
        plan.ledger, home, checks, linked, lost, store, clones, now, reuse=ours
    ) if checks else None  # fmt: skip
    if outcome.as_read is not None and (found is None or found.stopped is None):
        as_read = outcome.as_read
        archived = {check_key(c) for c in as_read.checks if c.status is not None}
        extra, stopped = history.repository_as_read(
            plan.ledger, home, plan.jobs, archived, linked, clones, store, now, outcome.run_id
        )
        if stopped is not None:
            found = replace(found or history.HistoryRun(), stopped=stopped)
        as_read = replace(as_read, checks=as_read.checks + extra, from_repository=len(extra))
        outcome = replace(outcome, as_read=as_read)
    return replace(outcome, history=found)


def _after_live_pages(
    plan: RefreshPlan, store: EvidenceStore, outcome: RefreshOutcome, now: Clock, ours: bool
) -> RefreshOutcome:
    """The search for sources that went and the archive's saves, each recorded (nothing
    is loaded for a step with nothing to do: no source lost, no page to save)."""
    from claimledger.records import lost_reason

    steps, pages = plan.after, outcome.pages
    if steps.candidates is not None and any(lost_reason(p.fetch) for p in pages):
        lost = lost_sources(plan.ledger, plan.jobs, pages, store)
        if outcome.history is not None:
            lost = [with_fate(item, outcome.history.fates.get(item.source_id)) for item in lost]
        found = run_async(_recover(lost, plan, steps.candidates)) if lost else []
        relocations = tuple(replace(relocation, run_id=outcome.run_id) for relocation in found)
        for relocation in relocations:
            store.record_relocation(relocation, now())
        outcome = replace(outcome, relocations=relocations)
    if steps.save_to is not None:
        kept = store.latest_saves() if ours else {}  # the checkout's word: asked again
        saves = _save_live_pages(pages, store, kept, plan, steps.save_to, outcome.run_id, now)
        outcome = replace(outcome, saves=saves)
    return outcome


def lost_sources(
    ledger: Ledger, jobs: Sequence[QuoteJob], pages: Sequence[PageRead], store: EvidenceStore
) -> list[Lost]:
    """The sources this refresh found gone (or emptied), each once, with the quotes it
    checked there and the titles the page had (the ledger's, its last snapshot's)."""
    from claimledger.evidence.relocate import Lost, snapshot_title
    from claimledger.records import lost_reason

    reasons = {p.fetch.url: why for p in pages if (why := lost_reason(p.fetch)) is not None}
    found: dict[str, Lost] = {}
    for job in jobs:
        if job.url not in reasons:
            continue
        quote = (job.claim_id, job.quote_index, job.quote_text)
        if job.source_id in found:
            before = found[job.source_id]
            found[job.source_id] = replace(before, quotes=tuple({*before.quotes, quote}))
            continue
        last = store.snapshot_at(job.url, None)
        titles = (ledger.sources[job.source_id].title, snapshot_title(last[1] if last else None))
        found[job.source_id] = Lost(
            job.source_id,
            job.url,
            reasons[job.url],
            (quote,),
            job.select,
            tuple(title for title in titles if title),
        )
    return [replace(lost, quotes=tuple(sorted(lost.quotes))) for lost in found.values()]


def with_fate(lost: Lost, fate: FileGone | None) -> Lost:
    """A lost source with what the docs' repository said of its file: the commit, and
    for a rename the page the new file most likely became (searched first)."""
    from claimledger.reading.provenance import name_as_text, page_after_rename

    if fate is None:
        return lost
    renamed = fate.renamed_to
    likely = (
        page_after_rename(lost.url, fate.commit.path, renamed, fate.generator, fate.site)
        if renamed
        else None
    )
    shown = name_as_text(renamed) if renamed else renamed  # kept and shown: text
    return replace(lost, file_commit=fate.commit, renamed_to=shown, likely_at=likely)


async def _recover(lost: Sequence[Lost], plan: RefreshPlan, candidates: int) -> list[Relocation]:
    from claimledger.evidence.relocate import recover
    from claimledger.web.fetch import make_client

    async with make_client(plan.policy) as client:
        return await recover(
            lost, client=client, policy=plan.policy, url_map=plan.url_map, candidates=candidates
        )


def _save_live_pages(
    pages: Sequence[PageRead],
    store: EvidenceStore,
    kept: Mapping[str, SavedSnapshot],
    plan: RefreshPlan,
    archive: str,
    run_id: int,
    now: Clock,
) -> Saves:
    """Ask the archive to snapshot each page this refresh read and it does not hold as
    read already (`kept`: the latest saves), and record each answer."""
    from claimledger.evidence.preserve import plan_saves

    read = [(page.fetch, page.snapshot_hash) for page in pages]
    to_save, unchanged, secret = plan_saves(read, kept)
    asked, withheld = run_async(_save(to_save, plan.policy, archive)) if to_save else ([], [])
    recorded = [replace(saved, run_id=run_id) for saved in asked]
    for saved in recorded:
        store.record_save(saved, now())
    return Saves(tuple(recorded), tuple(unchanged), tuple(secret), tuple(withheld))


async def _save(
    pages: Sequence[ToSave], policy: FetchPolicy, archive: str
) -> tuple[list[SavedSnapshot], list[Withheld]]:
    from claimledger.evidence.preserve import save_pages
    from claimledger.web.fetch import make_client

    async with make_client(policy) as client:
        return await save_pages(pages, client=client, policy=policy, archive=archive)
