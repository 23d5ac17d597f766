"""What a refresh does once its live pages are recorded: look for each source
that went on its site's sitemap (`relocate.py`), and, with `--save`, ask the web archive
to snapshot each page read (`preserve.py`). Each step records what it found in the
evidence store and hands it back for the command to print; neither changes the
refresh's exit status.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options, now, run_async, writable_store

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.evidence.preserve import ToSave, Withheld
    from claimledger.evidence.refresh import QuoteJob, Reading
    from claimledger.evidence.relocate import Lost
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.config import Config
    from claimledger.ledger.model import Ledger
    from claimledger.records import FetchPolicy, FetchRecord, Relocation, SavedSnapshot
    from claimledger.urls import UrlMap


@dataclass(frozen=True)
class Afterwards:
    """What a refresh does after its live pages are recorded: look for sources that went
    (reading at most `candidates` pages each; None: not at all), and save each page read
    in the archive at `save_to` (None: not at all)."""

    candidates: int | None
    save_to: str | None


def afterwards(
    config: Config, *, recover: bool, candidates: int | None, save: bool, archive: str | None
) -> Afterwards:
    """The steps after a refresh, from its options and the ledger's settings as honoured
    (checked before anything is fetched)."""
    from claimledger.ledger.config import DEFAULT_RECOVER_CANDIDATES, check_option

    check_option("recover_candidates", candidates)
    count = candidates or config.recover_candidates or DEFAULT_RECOVER_CANDIDATES
    save_to = None
    if save:
        from claimledger.evidence.archive import archive_settings

        save_to = archive_settings(config, archive).base
    return Afterwards(count if recover else None, save_to)


@dataclass(frozen=True)
class Done:
    """What the steps after a refresh found, recorded: each search for a source that went,
    and what the archive said of each page it was asked to save."""

    relocations: tuple[Relocation, ...] = ()
    saves: Saves | None = None

    def lines(self) -> list[str]:
        found = []
        if self.relocations:  # the sitemap reader loads where a search was made
            from claimledger.evidence.relocate import relocation_line

            found = [relocation_line(relocation) for relocation in self.relocations]
        return found + (saves_lines(self.saves) if self.saves else [])

    def json(self) -> dict[str, object]:
        relocations = []
        if self.relocations:
            from claimledger.evidence.relocate import relocation_json

            relocations = [relocation_json(relocation) for relocation in self.relocations]
        return {"relocations": relocations, "saved": saves_json(self.saves) if self.saves else []}


def after_refresh(
    steps: Afterwards,
    opts: Options,
    ledger: Ledger,
    jobs: Sequence[QuoteJob],
    readings: Sequence[Reading],
    policy: FetchPolicy,
    url_map: UrlMap,
    run_id: int,
) -> Done:
    """Run the steps after a recorded refresh, each recording what it found (nothing is
    opened or loaded for a step with nothing to do: no source lost, no page to save)."""
    from claimledger.records import lost_reason

    lost_any = any(lost_reason(reading.fetch) for reading in readings)
    if (steps.candidates is None or not lost_any) and steps.save_to is None:
        return Done()
    with writable_store(opts) as store:
        relocations: list[Relocation] = []
        if steps.candidates is not None and lost_any:
            lost = lost_sources(ledger, jobs, readings, store)
            relocations = recover_lost(
                lost, store, policy, url_map, candidates=steps.candidates, run_id=run_id
            )
        saves = None
        if steps.save_to is not None:
            saves = save_live_pages(readings, store, policy, archive=steps.save_to, run_id=run_id)
    return Done(tuple(relocations), saves)


def lost_sources(
    ledger: Ledger, jobs: Sequence[QuoteJob], readings: Sequence[Reading], store: EvidenceStore
) -> list[Lost]:
    """The sources this refresh found gone (or emptied), each once, with the quotes it
    checked there and the titles the page had (the ledger's, its last snapshot's)."""
    from claimledger.evidence.relocate import Lost, snapshot_title
    from claimledger.records import lost_reason

    reasons = {r.fetch.url: why for r in readings if (why := lost_reason(r.fetch)) is not None}
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


def recover_lost(
    lost: Sequence[Lost],
    store: EvidenceStore,
    policy: FetchPolicy,
    url_map: UrlMap,
    *,
    candidates: int,
    run_id: int,
) -> list[Relocation]:
    """Look for each lost source on its site and record each search, under `run_id`."""
    if not lost:
        return []
    found = run_async(_recover(lost, policy, url_map, candidates))
    recorded = [replace(relocation, run_id=run_id) for relocation in found]
    for relocation in recorded:
        store.record_relocation(relocation, now())
    return recorded


async def _recover(
    lost: Sequence[Lost], policy: FetchPolicy, url_map: UrlMap, candidates: int
) -> list[Relocation]:
    from claimledger.evidence.relocate import recover
    from claimledger.web.fetch import make_client

    async with make_client(policy) as client:
        return await recover(
            lost, client=client, policy=policy, url_map=url_map, candidates=candidates
        )


@dataclass(frozen=True)
class Saves:
    """What `--save` did: the snapshots asked for (taken or not), the pages the archive
    already held as read (not asked again), and the addresses never sent (a secret; not
    a public address)."""

    asked: tuple[SavedSnapshot, ...] = ()
    unchanged: tuple[SavedSnapshot, ...] = ()
    secret: tuple[str, ...] = ()
    withheld: tuple[Withheld, ...] = ()


def save_live_pages(
    readings: Sequence[Reading],
    store: EvidenceStore,
    policy: FetchPolicy,
    *,
    archive: str,
    run_id: int,
) -> Saves:
    """Ask the archive to snapshot each page this refresh read, and record each answer."""
    from claimledger.evidence.preserve import plan_saves

    read = [(reading.fetch, reading.snapshot_hash) for reading in readings]
    to_save, unchanged, secret = plan_saves(read, store.latest_saves())
    asked, withheld = run_async(_save(to_save, policy, archive)) if to_save else ([], [])
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


def saves_lines(saves: Saves) -> list[str]:
    from claimledger.evidence.preserve import saved_line, secret_line, withheld_line

    return [
        *(saved_line(saved) for saved in saves.asked),
        *(saved_line(saved, again=False) for saved in saves.unchanged),
        *(secret_line(url) for url in saves.secret),
        *(withheld_line(page) for page in saves.withheld),
    ]


def saves_json(saves: Saves) -> list[dict[str, object]]:
    from claimledger.evidence.preserve import saved_json, withheld_json
    from claimledger.urls import redacted

    return [
        *(saved_json(saved) for saved in saves.asked),
        *(saved_json(saved, again=False) for saved in saves.unchanged),
        *({"url": redacted(url), "asked": False, "error": "a secret"} for url in saves.secret),
        *(withheld_json(page) for page in saves.withheld),
    ]


# --------------------------------------------------------------------------- options

Save = Annotated[
    bool,
    typer.Option(
        "--save",
        help="Then ask the web archive to snapshot each page read (Save Page Now), and "
        "keep the snapshot's address; off by default.",
    ),
]
Recover = Annotated[
    bool,
    typer.Option(
        "--recover/--no-recover",
        help="Look for each source that went (404/410, or an empty page) on its site's "
        "sitemap, and propose the page that carries its quotes (default: on).",
        show_default=False,
    ),
]
RecoverCandidates = Annotated[
    int | None,
    typer.Option(
        "--recover-candidates",
        metavar="N",
        help="Pages of the sitemap read at most for each source that went (default 5; "
        "recover_candidates in claimledger.toml).",
        show_default=False,
    ),
]
Archive = Annotated[
    str | None,
    typer.Option(
        "--archive",
        metavar="URL",
        help="The web archive's base URL (default https://web.archive.org; archive in "
        "claimledger.toml).",
        show_default=False,
    ),
]
"""The web archive's base URL, as `archive.archive_settings` reads it (with the
`archive` setting of claimledger.toml): one option for every part of a refresh that asks
the archive (--save here; the as-read check may take it too)."""


def standing_searches(
    opts: Options, ledger: Ledger, fetches: Mapping[str, FetchRecord]
) -> list[Relocation]:
    """For `status`: the latest search of each source still at the address searched for,
    and still lost there at its latest fetch (`fetches`: the latest fetch of each URL)."""
    from claimledger.cli.app import existing_store
    from claimledger.evidence.relocate import standing_relocations

    with existing_store(opts) as store:
        searches = store.latest_relocations() if store else {}
    sources = {source.id: source.url for source in ledger.sources.values()}
    return standing_relocations(searches, sources, fetches)
