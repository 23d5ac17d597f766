"""A refresh's history step: for each quote the refresh did not find as written (reworded,
missing, or on a page gone), what the history of its page's source file says, read from
the docs' own repository and kept as evidence.

The repository is the one the ledger names on the source (`repo:` and `path:`), else the
one the page's "Edit this page" link names. A history already kept for the same file and
the same wording, naming the commit that changed it, is reused: it never changes. The
step is bounded (one clone per repository, a size cap on each, a time budget for the
run); when a bound is reached, it stops and says so once, and the refresh stands.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.errors import InputError

if TYPE_CHECKING:
    from claimledger.evidence.gitrepo import Repositories
    from claimledger.evidence.refresh import Reading
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.editlinks import SourceFile
    from claimledger.reading.provenance import FileGone
    from claimledger.records import CheckKey, CheckRecord, QuoteHistory

Clock = Callable[[], dt.datetime]


@dataclass(frozen=True)
class HistorySettings:
    """The step's bounds: git's seconds for the whole run, and a clone's size cap."""

    budget: float
    clone_mb: int


@dataclass(frozen=True)
class FileAt:
    """A source's page as a file of a repository, and who said so."""

    repo: str
    path: str
    ref: str
    said_by: str


@dataclass(frozen=True)
class HistoryRun:
    """What the step found: histories read now (and kept), those kept before and reused,
    a line per repository it could not read, and why it stopped early (None: it did not)."""

    read: tuple[QuoteHistory, ...] = ()
    reused: tuple[QuoteHistory, ...] = ()
    problems: tuple[str, ...] = ()
    stopped: str | None = None
    fates: Mapping[str, FileGone] = field(default_factory=dict)
    """What became of the source file of each page gone, by source: the commit that
    renamed or deleted it."""

    @property
    def histories(self) -> tuple[QuoteHistory, ...]:
        return self.reused + self.read


def unverified(readings: Iterable[Reading]) -> list[CheckRecord]:
    """The checks a history can explain: a quote reworded or missing, or on a page gone."""
    from claimledger.records import lost_reason

    return [
        check
        for reading in readings
        for check in reading.checks
        if check.status in ("drifted", "missing")
        or (check.status is None and lost_reason(reading.fetch) is not None)
    ]


def local_repository(repo: str, home: Path) -> Path:
    """The folder a local `repo` names: a path (from the ledger's folder when relative),
    or a file:// address."""
    from urllib.parse import unquote, urlsplit

    if repo.startswith("file://"):
        return Path(unquote(urlsplit(repo).path))
    return (home / Path(repo).expanduser()).resolve()


def file_of(source: Source, linked: SourceFile | None, home: Path) -> FileAt | None:
    """Where the source's page is built from: the ledger's `repo` and `path`, else the
    page's edit link; None where neither says."""
    from claimledger.urls import names_local_repository

    if source.repo and source.path:
        repo = source.repo
        if names_local_repository(repo):
            repo = str(local_repository(repo, home))
        return FileAt(repo, source.path, "HEAD", "the ledger")
    if linked is not None:
        return FileAt(linked.repo, linked.path, linked.ref, "the page's edit link")
    return None


def read_histories(
    ledger: Ledger,
    home: Path,
    checks: Sequence[CheckRecord],
    linked: Mapping[str, SourceFile],
    lost: Collection[str],
    store: EvidenceStore,
    settings: HistorySettings,
    now: Clock,
) -> HistoryRun:
    """The history of each check's quote on its source's file (see the module), each new
    one recorded as it is read; and for a page `lost` (by URL), what became of its file.
    `linked`: the file each page's edit link names, by URL."""
    from claimledger.errors import HistoryStopped
    from claimledger.evidence.gitrepo import Bounds, Repositories

    kept = store.latest_quote_histories()
    clones = Repositories(Bounds.of(settings.budget, settings.clone_mb))
    read: list[QuoteHistory] = []
    reused: list[QuoteHistory] = []
    problems: dict[str, str] = {}
    fates: dict[str, FileGone] = {}

    def run(stopped: str | None = None) -> HistoryRun:
        return HistoryRun(tuple(read), tuple(reused), tuple(problems.values()), stopped, fates)

    for check in checks:
        where = file_of(ledger.sources[check.source_id], linked.get(check.url), home)
        if where is None or where.repo in problems:
            continue
        try:
            wanted = check.url in lost and check.source_id not in fates
            if wanted and (fate := _fate(clones, where)) is not None:
                fates[check.source_id] = fate
            renamed = fates[check.source_id].renamed_to if check.source_id in fates else None
            if renamed is not None:  # the quote's history goes on under the file's new name
                where = replace(where, path=renamed)
            earlier = _reusable(kept.get(_key(check)), where, check.current)
            if earlier is not None:
                reused.append(earlier)
                continue
            found = _history(clones, check, where, now())
        except HistoryStopped as stop:
            return run(str(stop))
        except InputError as problem:
            problems[where.repo] = f"{where.repo} ({where.said_by}): {problem}"
            continue
        store.record_quote_history(found)
        read.append(found)
    return run()


def refuse_untrusted_repositories(
    ledger: Ledger, ledger_path: Path, source_ids: Iterable[str], trusted: bool
) -> None:
    """A local repository named by a ledger the user did not trust is refused before
    anything is read: a cloned teardown's ledger could name any folder of this machine."""
    from claimledger.urls import names_local_repository

    if trusted:
        return
    for source_id in dict.fromkeys(source_ids):
        repo = ledger.sources[source_id].repo
        if repo and names_local_repository(repo):
            line, col = ledger.source_place(source_id) or (1, 1)
            raise InputError(
                f"{ledger_path}:{line}:{col}: source {source_id}: repo {repo!r} is a folder of "
                "this machine, read only once you trust this workspace (`claimledger trust`)"
            )


def _key(check: CheckRecord) -> CheckKey:
    return (check.claim_id, check.quote_text, check.source_id)


def _reusable(
    earlier: QuoteHistory | None, where: FileAt, current: str | None
) -> QuoteHistory | None:
    """A kept history of the same file and wording that names the change: final."""
    if earlier is None or earlier.dropped is None:
        return None
    same = (earlier.repo, earlier.path, earlier.current) == (where.repo, where.path, current)
    return earlier if same else None


def _clone(clones: Repositories, where: FileAt) -> Path:
    """The clone of a local folder (allowed by then) or of a public https address only."""
    from claimledger.urls import names_public_site

    if not where.repo.startswith("/") and not (
        where.repo.startswith("https://") and names_public_site(where.repo)
    ):
        raise InputError("not a public https address, so not cloned")
    return clones.clone(where.repo)


def _fate(clones: Repositories, where: FileAt) -> FileGone | None:
    from claimledger.evidence.gitrepo import gone

    return gone(_clone(clones, where), where.path, where.ref, clones.bounds)


def _history(
    clones: Repositories, check: CheckRecord, where: FileAt, now: dt.datetime
) -> QuoteHistory:
    from claimledger.evidence.gitrepo import versions
    from claimledger.reading.provenance import blame
    from claimledger.records import QuoteHistory

    clone = _clone(clones, where)
    found = blame(versions(clone, where.path, where.ref, clones.bounds), check.quote_text,
                  check.current)  # fmt: skip
    return QuoteHistory(
        claim_id=check.claim_id,
        quote_text=check.quote_text,
        source_id=check.source_id,
        repo=where.repo,
        path=where.path,
        current=check.current,
        held=found.held,
        dropped=found.dropped,
        current_since=found.current_since,
        versions=found.versions,
        read_at=now,
    )
