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
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING
from urllib.parse import quote

from claimledger.errors import InputError
from claimledger.ledger.atomicfile import followed

if TYPE_CHECKING:
    from claimledger.evidence.gitrepo import Repositories
    from claimledger.evidence.refresh import QuoteJob
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.editlinks import SourceFile
    from claimledger.reading.provenance import FileGone, Version
    from claimledger.records import AsReadCheck, CheckKey, CheckRecord, Commit, QuoteHistory

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


def unverified(checks: Iterable[CheckRecord], lost: Collection[str]) -> list[CheckRecord]:
    """The checks a history can explain: a quote reworded or missing, or on a page gone
    (its address among `lost`)."""
    return [
        check
        for check in checks
        if check.status in ("drifted", "missing") or (check.status is None and check.url in lost)
    ]


def local_repository(repo: str, home: Path) -> Path:
    """The folder a local `repo` names: a path (from the ledger's folder when relative),
    or a file:// address."""
    from urllib.parse import unquote, urlsplit

    from claimledger.errors import InputError

    where = unquote(urlsplit(repo).path) if repo.startswith("file://") else repo
    if "\0" in where:  # no folder's name: the file system refuses it, as an internal error
        raise InputError(f"repo {repo!r} holds a NUL byte: no folder is named so")
    if repo.startswith("file://"):
        return Path(where)
    return followed(home / Path(repo).expanduser())


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
    clones: Repositories,
    now: Clock,
    *,
    reuse: bool = True,
) -> HistoryRun:
    """The history of each check's quote on its source's file (see the module), each new
    one recorded as it is read; and for a page `lost` (by URL), what became of its file.
    `linked`: the file each page's edit link names, by URL. `reuse`: whether a history
    the store kept may stand for reading it again (not in a store that came with the
    checkout, whose histories could be forged)."""
    from claimledger.errors import HistoryStopped

    kept = store.latest_quote_histories(reusable=True) if reuse else {}
    read: list[QuoteHistory] = []
    reused: list[QuoteHistory] = []
    problems: dict[str, str] = {}
    fates: dict[str, FileGone] = {}

    def run(stopped: str | None = None) -> HistoryRun:
        return HistoryRun(tuple(read), tuple(reused), tuple(problems.values()), stopped, fates)

    for check in checks:
        source = ledger.sources[check.source_id]
        try:
            where = file_of(source, linked.get(check.url), home)
        except InputError as problem:  # a local repo no folder can be named
            problems[source.repo or ""] = f"{source.repo} (the ledger): {problem}"
            continue
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
    """A kept history of the same file, branch and wording that names the change: final
    (the file by its name as kept, in text: git's own bytes may hold one that is no
    UTF-8). Another branch's history may name a change the page's branch never had, and
    one read by another version of the reading (`versions.HISTORY`) a change this one
    does not see there (partials it did not follow, or cut otherwise)."""
    from claimledger import versions
    from claimledger.reading.provenance import name_as_text

    if earlier is None or earlier.dropped is None:
        return None
    if earlier.history_version != versions.HISTORY:
        return None
    now = (where.repo, name_as_text(where.path), where.ref, current)
    then = (earlier.repo, earlier.path, earlier.ref, earlier.current)
    return earlier if then == now else None


def _cloneable(where: FileAt) -> FileAt:
    """`where`, when its repository is a local folder (allowed by then) or a public https
    address: nothing else is cloned."""
    from claimledger.urls import names_public_site

    if not where.repo.startswith("/") and not (
        where.repo.startswith("https://") and names_public_site(where.repo)
    ):
        raise InputError("not a public https address, so not cloned")
    return where


def _fate(clones: Repositories, where: FileAt) -> FileGone | None:
    return clones.gone(_cloneable(where).repo, where.path, where.ref)


def _history(
    clones: Repositories, check: CheckRecord, where: FileAt, now: dt.datetime
) -> QuoteHistory:
    from claimledger import versions
    from claimledger.reading.provenance import name_as_text
    from claimledger.records import QuoteHistory

    repo = _cloneable(where).repo
    found = clones.blame(repo, where.path, where.ref, check.quote_text, check.current)
    return QuoteHistory(
        claim_id=check.claim_id,
        quote_text=check.quote_text,
        source_id=check.source_id,
        repo=where.repo,
        path=name_as_text(where.path),  # kept and shown as text (git has its bytes)
        current=check.current,
        held=found.held,
        dropped=found.dropped,
        current_since=found.current_since,
        versions=found.versions,
        unread=found.unread,
        read_at=now,
        ref=where.ref,
        history_version=versions.HISTORY,
    )


# --------------------------------------------------------------------------- as read

REPOSITORY_RECIPE = "repository"
"""The start of the recipe of an as-read check made on the repository's version of the
file at the reading day, not on an archived copy: the output names it as such."""


def version_address(repo: str, commit: Commit) -> str:
    """Where a version of the file is seen: its page on a known code host, else the
    repository's address (a local one as a file:// address) with `#SHA:PATH`."""
    base = repo.removesuffix(".git").rstrip("/")
    if base.startswith("https://github.com/"):
        return f"{base}/blob/{commit.sha}/{commit.path}"
    if base.startswith("https://gitlab.com/"):
        return f"{base}/-/blob/{commit.sha}/{commit.path}"
    where = Path(repo).as_uri() if repo.startswith("/") else repo
    return f"{where}#{commit.sha}:{quote(commit.path)}"


def repository_as_read(
    ledger: Ledger,
    home: Path,
    jobs: Sequence[QuoteJob],
    archived: Collection[CheckKey],
    linked: Mapping[str, SourceFile],
    clones: Repositories,
    store: EvidenceStore,
    now: Clock,
    run_id: int | None,
) -> tuple[tuple[AsReadCheck, ...], str | None]:
    """Each quote the archive had no copy of the reading day for (`archived`: the keys it
    checked), checked on the repository's version of its page's file at `date_read`
    instead; with why the step stopped early (None: it did not)."""
    from claimledger.errors import HistoryStopped
    from claimledger.evidence.asread import same_reading

    day = ledger.date_read.isoformat()
    earlier = {(c.claim_id, c.quote_text, c.source_id): c for c in store.latest_as_read_checks()}
    found: list[AsReadCheck] = []
    versions_of: dict[tuple[str, str], Version | None] = {}
    for job in jobs:
        where = file_of(ledger.sources[job.source_id], linked.get(job.url), home)
        if job.key in archived or where is None:
            continue
        try:
            if (where.repo, where.path) not in versions_of:
                versions_of[(where.repo, where.path)] = _version_on(clones, where, day)
        except HistoryStopped as stop:
            return tuple(found), str(stop)
        except InputError:
            versions_of[(where.repo, where.path)] = None  # said by the history step
        version = versions_of[(where.repo, where.path)]
        if version is None or version.text is None:
            continue
        check = _checked_on_version(ledger, job, where.repo, version, now())
        before = earlier.get(job.key)
        if before is not None and same_reading(before, check):
            check = replace(before, quote_index=job.quote_index)
        else:  # the version's text kept, as an archived copy's is
            store.put_snapshot(version.text, job.url, check.checked_at)
            store.record_as_read_check(check, run_id)
        found.append(check)
    return tuple(found), None


def _version_on(clones: Repositories, where: FileAt, day: str) -> Version | None:
    """The newest version of the file committed on or before `day` (None: none was)."""
    return clones.version_on(_cloneable(where).repo, where.path, where.ref, day)


def _checked_on_version(
    ledger: Ledger, job: QuoteJob, repo: str, version: Version, now: dt.datetime
) -> AsReadCheck:
    from claimledger import versions
    from claimledger.evidence.asread import as_read_check
    from claimledger.reading.match import locate
    from claimledger.reading.provenance import rendered_text

    text = version.text or ""
    commit = version.commit
    wording, _ = ledger.claim(job.claim_id).as_read(job.quote_text, on=ledger.date_read.isoformat())
    prepared = rendered_text(text, PurePosixPath(commit.path).suffix.lower())
    return as_read_check(
        job,
        wording,
        locate(wording, prepared),
        read_on=ledger.date_read,
        snapshot_url=version_address(repo, commit),
        timestamp=commit.date.replace("-", ""),
        text=text,
        recipe=f"{REPOSITORY_RECIPE} {commit.sha[:12]}; match {versions.MATCH}",
        now=now,
    )
