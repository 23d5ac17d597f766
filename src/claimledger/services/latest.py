"""The latest evidence of each kind, for a ledger as it now reads: what `status`, `diff`,
`regrade`, `explain`, `render` and `claims` weigh. Each function reads an open store
(None before the first refresh made one: no evidence) and keeps only what still bears on
the ledger: its quotes as they read now, its sources' addresses, its artifacts' commands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.errors import InputError
from claimledger.records import LatestEvidence

if TYPE_CHECKING:
    from claimledger.evidence.store import EvidenceStore
    from claimledger.evidence.store.rows import CheckVerdict
    from claimledger.ledger.model import Artifact, Ledger, Source
    from claimledger.records import (
        ArchiveLookup,
        ArtifactRun,
        AsReadCheck,
        CheckKey,
        CheckRecord,
        FetchRecord,
        QuoteHistory,
        Relocation,
        RunRecord,
    )


@dataclass(frozen=True)
class QuoteEvidence:
    """The latest evidence on some claims' quotes: now, on the reading day, in the docs'
    repository."""

    checks: list[CheckRecord]
    read_then: list[AsReadCheck]
    histories: dict[CheckKey, QuoteHistory]


def checks(store: EvidenceStore | None, ledger: Ledger) -> list[CheckRecord]:
    """The latest check of each quote the ledger still holds, on each of its sources."""
    from claimledger.grading.rules import current_checks

    return current_checks(ledger, store.latest_checks() if store else [])


def checks_and_run(
    store: EvidenceStore | None, ledger: Ledger, *, path: Path
) -> tuple[list[CheckRecord], RunRecord | None]:
    """`checks`, and the refresh that stands for the ledger read from `path` (`last_run`):
    whether it finished says whether the checks are all of one reading."""
    return checks(store, ledger), last_run(store, ledger, path)


def last_run(store: EvidenceStore | None, ledger: Ledger, path: Path) -> RunRecord | None:
    """The refresh whose word stands on the evidence of `ledger` (read from `path`): its
    newest run that did not finish, until runs of it that finished since have checked
    every quote it holds again; else its newest run. None before its first.

    The store keeps no run's plan, only what it checked: a run cut short may have set out
    to read any of the ledger's pages, and a quote is read again only where a finished run
    checked it since. So a later refresh of other claims leaves the cut-short run
    standing, and a later full one (or refreshes of every claim in turn) puts it by. A
    quote no run ever checked (a wording `accept` adopted since, a quote added) keeps no
    cut standing: `evidence_gaps` names it as never checked, all the cut could say of it.
    One that only another ledger's run checked since keeps it, as that run clears no cut.
    Runs are the ledger's when they name its file (`names_ledger`: from the store's
    folder, so a checkout moved whole with its store keeps its runs; an older run's name
    is read from the current directory, as `--ledger` is): a run of another ledger
    sharing the store neither sets nor clears its state. A store holding no run of this
    file (one that came with a checkout, or was copied) stands on its newest run of any.
    """
    if store is None:
        return None
    ours = _runs_of(store, path)
    if not ours:  # a store from elsewhere (a checkout, a copy): its newest run is its word
        return store.last_run()
    cut = next((run for run in reversed(ours) if run.finished_at is None), None)
    if cut is None or cut is ours[-1]:
        return ours[-1]
    since = [run.id for run in ours if run.id > cut.id]
    from claimledger.grading.rules import quote_places

    unread = quote_places(ledger).keys() - store.quotes_checked(since)
    return cut if store.any_checked(unread) else ours[-1]


def _runs_of(store: EvidenceStore, path: Path) -> list[RunRecord]:
    """The runs of the ledger at `path`, oldest first."""
    from claimledger.evidence.store.runs import names_ledger
    from claimledger.ledger.userrecords import path_key

    ours, runs = path_key(path), store.runs()
    names = {run.ledger_path for run in runs}
    named = {name: names_ledger(name, store.path, ours) for name in names}
    return [run for run in runs if named[run.ledger_path]]


def verdicts(store: EvidenceStore | None, ledger: Ledger) -> list[CheckVerdict]:
    """`checks` in the fields the rules weigh, which cost less to read than every field."""
    from claimledger.grading.rules import current_checks

    return current_checks(ledger, store.latest_verdicts() if store else [])


def fetches(
    store: EvidenceStore | None, ledger: Ledger, *, path: Path
) -> tuple[dict[str, FetchRecord], RunRecord | None]:
    """The latest fetch of each URL the ledger names, and the refresh that stands for the
    ledger read from `path` (`last_run`; None before its first)."""
    from claimledger.urls import redacted

    found = store.latest_fetches() if store else {}
    last = last_run(store, ledger, path)
    urls = {redacted(source.url) for source in ledger.sources.values()}
    return {url: fetch for url, fetch in found.items() if redacted(url) in urls}, last


def read_elsewhere(store: EvidenceStore | None, ledger: Ledger) -> dict[str, tuple[str, ...]]:
    """The sources whose latest page was read on another publisher's site, each with that
    publisher's independence keys (`grading.quotes.read_elsewhere`)."""
    from claimledger.grading.quotes import read_elsewhere as elsewhere

    return elsewhere(ledger, store.latest_fetches() if store else {})


def artifact_runs(store: EvidenceStore | None, ledger: Ledger) -> dict[str, ArtifactRun]:
    """The last recorded run of each artifact the ledger holds, when it ran the command and
    expected the output the ledger states now: a run of another command is not evidence."""
    recorded = store.latest_artifact_runs() if store else {}
    return {
        claim_id: run
        for claim_id, artifact in artifacts_of(ledger).items()
        if (run := recorded.get(claim_id)) is not None and _is_run_of(run, artifact)
    }


def _is_run_of(run: ArtifactRun, artifact: Artifact) -> bool:
    from claimledger.grading.artifact import command_line

    return run.command == command_line(artifact) and run.expected == artifact.expect


def artifacts_of(ledger: Ledger) -> dict[str, Artifact]:
    """Each artifact claim's artifact, in ledger order."""
    return {claim.id: claim.artifact for claim in ledger.claims if claim.artifact is not None}


def as_read(store: EvidenceStore | None, ledger: Ledger) -> list[AsReadCheck]:
    """The latest as-read check of each quote the ledger holds, for its date_read."""
    from claimledger.grading.rules import current_as_read

    return current_as_read(ledger, store.latest_as_read_checks() if store else [])


def lookups(store: EvidenceStore | None, ledger: Ledger) -> list[ArchiveLookup]:
    """The archive's latest answer for each page the ledger reads, for its date_read."""
    from claimledger.urls import fetch_target, redacted

    pages = {redacted(fetch_target(source.url)[0]) for source in ledger.sources.values()}
    found = store.latest_archive_lookups() if store else {}
    return [
        lookup
        for url, lookup in sorted(found.items())
        if url in pages and lookup.read_on == ledger.date_read
    ]


def searches(
    store: EvidenceStore | None, ledger: Ledger, latest: Mapping[str, FetchRecord]
) -> list[Relocation]:
    """The latest search of each source still at the address searched for, and still lost
    there at its latest fetch (`latest`: the latest fetch of each URL)."""
    from claimledger.evidence.relocate import standing_relocations

    found = store.latest_relocations() if store else {}
    sources = {source.id: source.url for source in ledger.sources.values()}
    return standing_relocations(found, sources, latest)


def one_page(store: EvidenceStore | None, ledger: Ledger, source_id: str, other: str) -> bool:
    """Whether two sources are one page as far as anything read says: one address however
    spelled, or one that led to the other at its latest fetch (a redirect, at its end or on
    the way) or was found moved there by a search of its site, in this user's own store.
    `source --merge-into` of two pages that never did is said, never refused: a moved
    page's merge needs it."""
    from claimledger.urls import page_key, redacted

    first, second = ledger.source(source_id), ledger.source(other)
    if page_key(first.url) == page_key(second.url):
        return True
    store = store if store_made_here(store) else None  # a clone's store is its word
    fetched = {redacted(url): f for url, f in (store.latest_fetches() if store else {}).items()}
    found = store.latest_relocations() if store else {}

    def led(start: Source, end: Source) -> bool:
        fetch, search = fetched.get(redacted(start.url)), found.get(start.id)
        places = [] if fetch is None else [fetch.final_url, *(hop.url for hop in fetch.redirects)]
        if search is not None and search.url == start.url and search.found_at:
            places.append(search.found_at)
        return any(page_key(place) == page_key(end.url) for place in places)

    return led(first, second) or led(second, first)


def histories(store: EvidenceStore | None, ledger: Ledger) -> dict[CheckKey, QuoteHistory]:
    """What the docs' repository says of each quote the ledger holds, on each source."""
    found = store.latest_quote_histories() if store else {}
    from claimledger.grading.rules import quote_places

    held = quote_places(ledger)
    return {key: history for key, history in found.items() if key in held}


def store_made_here(store: EvidenceStore | None) -> bool:
    """Did this user's claimledger make the store (none yet counts as made here)? One that
    came with the checkout says what was checked on another's word."""
    from claimledger.evidence.madehere import made_here

    return store is None or made_here(store.path, store.identity)


def standing(store: EvidenceStore | None, ledger: Ledger, *, path: Path) -> LatestEvidence:
    """Everything `status` shows of the ledger read from `path`, read from one open store."""
    latest, last = fetches(store, ledger, path=path)
    return LatestEvidence(
        made_here=store_made_here(store),
        checks=checks(store, ledger),
        fetches=latest,
        last=last,
        runs=artifact_runs(store, ledger),
        searches=searches(store, ledger, latest),  # pages found moved
        read_then=as_read(store, ledger),  # the quotes on the reading day's copies
        lookups=lookups(store, ledger),
        histories=histories(store, ledger),  # what the docs' repository says
    )


def quotes_of(
    store: EvidenceStore | None, ledger: Ledger, claim_ids: Collection[str]
) -> QuoteEvidence:
    """What `diff` shows of the claims `claim_ids`: their quotes' latest checks, those on
    the reading day's copies, and what the docs' repository says of them."""
    chosen = set(claim_ids)
    return QuoteEvidence(
        checks=[check for check in checks(store, ledger) if check.claim_id in chosen],
        read_then=[check for check in as_read(store, ledger) if check.claim_id in chosen],
        histories={k: h for k, h in histories(store, ledger).items() if k[0] in chosen},
    )


def page_at(
    store: EvidenceStore, url: str, moment: dt.datetime | None, asked: str | None = None
) -> tuple[dt.datetime, str]:
    """When the page at `url` was read last by `moment` (None: ever), and the text
    extracted from it then; `asked` is the moment as the user wrote it, for the message."""
    from claimledger.urls import shown

    found = store.snapshot_at(url, moment)
    if found is None:
        said = f" at or before {asked}" if moment is not None else ""
        raise InputError(f"no snapshot of {shown(url)}{said}")
    return found


def moment_of(value: str) -> dt.datetime:
    """A day (YYYY-MM-DD, or ISO 8601's 20261207: its last moment) or an ISO
    8601 time, in UTC (UTC unless it says). Any form of a day means all of it, as
    YYYY-MM-DD does; a time UTC cannot hold (9999-12-31T23:59-05:00) is bad input, not a
    calendar overflow."""
    try:
        day = _day_of(value)
        if day is not None:
            return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)
        moment = dt.datetime.fromisoformat(value)
        return (moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)).astimezone(dt.UTC)
    except (ValueError, OverflowError):
        raise InputError(f"--at {value!r}: expected YYYY-MM-DD or an ISO 8601 time") from None


def _day_of(value: str) -> dt.date | None:
    """The day `value` names when it names a day alone (None when it names a time)."""
    try:
        return dt.date.fromisoformat(value)
    except ValueError:
        return None
