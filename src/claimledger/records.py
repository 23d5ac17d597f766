"""The values that cross layers: what a fetch found, what a check found, what a run was.

Frozen records with no behaviour beyond reading themselves, so that the pure core (match,
grade, report) and the edges (fetch, store, CLI) share one shape of each thing without
importing one another. Two rules that several layers need live here, written once:
which check is the latest of a quote on a source (`latest_by_key`), and what a check
says of its quote (`classify`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import ClassVar, Literal, Protocol, TypeVar

from claimledger import __version__

SourceStatus = Literal["ok", "moved", "gone", "unreachable", "refused", "unreadable"]
"""What happened to a source: read, read at a new address, 404/410, no answer, refused
(401/403/429, robots.txt), or a body we cannot read (or with no text a reader sees)."""

CheckStatus = Literal["verified", "drifted", "missing", "ambiguous"]
"""Where a quote stands on a page that was read."""

MatchKind = Literal["exact", "normalized"]
ChangeOp = Literal["replace", "insert", "delete"]
HopVia = Literal["http", "meta-refresh"]

Standing = Literal["verified", "ambiguous", "reworded", "changed", "missing", "gone", "unread"]
"""What one check says of its quote, for the rules and every table: verbatim there
(once, or in several places when reworded), reworded harmlessly, reworded with a change
of meaning, not there, on a page that is gone, or nothing at all (not read)."""

READ_STATUSES = frozenset({"ok", "moved"})
"""Source statuses whose page was read, so the check says something about the quote."""

CARRIED: frozenset[Standing] = frozenset({"verified", "ambiguous"})
"""Standings under which the page carries the quote's words."""


# --------------------------------------------------------------------------- fetching


@dataclass(frozen=True)
class Validators:
    """What the last snapshot's response said, so the next request can be conditional;
    and its media type, which a 304 need not repeat (a PDF is known by it)."""

    etag: str | None
    last_modified: str | None
    content_type: str | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Hop:
    """One redirect on the way to the page: where we were, what it answered, and how it sent
    us on (an HTTP redirect, or a meta refresh in an alias page's head)."""

    url: str
    status: int
    via: HopVia = "http"


@dataclass(frozen=True)
class Header:
    """An extra request header and the only origins it goes to (each as
    `urls.exact_origin` spells it): one given for a site never reaches another, not by a
    redirect, a mirror, nor the web archive."""

    name: str
    value: str
    origins: frozenset[str]


@dataclass(frozen=True)
class FetchPolicy:
    """Limits and manners of a run; the defaults suit public documentation sites.

    `deadline` bounds one URL whole (its redirects, retries and waits); `timeout` one
    request. A meta refresh of at most `max_refresh_delay` seconds is followed as a
    redirect; a longer one belongs to a page meant to be read first. No request goes to
    an address that is not public (loopback, private, link-local: a cloud's metadata
    endpoint) unless `allow_private`, or its origin is in `private_origins`.
    """

    concurrency: int = 16
    per_host: int = 4
    per_host_interval: float = 0.05
    timeout: float = 20.0
    retries: int = 3
    backoff_base: float = 0.5
    retry_after_cap: float = 30.0
    max_body: int = 10 * 1024 * 1024
    max_decompressed: int = 32 * 1024 * 1024
    max_redirects: int = 10
    deadline: float = 30.0
    user_agent: str = f"claimledger/{__version__} (+https://github.com/claimledger/claimledger)"
    headers: tuple[Header, ...] = ()
    respect_robots: bool = True
    allow_private: bool = False
    private_origins: frozenset[str] = frozenset()
    """Origins (scheme://host:port) that may be private or loopback addresses though
    `allow_private` is off: the mirrors a ledger's sources name as their own."""
    maps: tuple[tuple[str, str], ...] = ()
    """The run's `--map` rules (prefix, replacement): a redirect, meta refresh or canonical
    link naming the mapped site's own address is read at its mirror too (and robots.txt
    with it), never at the site the map stands in for; other addresses are left as is."""
    max_robots_body: int = 500 * 1024
    """Bytes of a robots.txt read and parsed (RFC 9309 2.5: at least the first 500 KiB)."""
    max_crawl_delay: float = 10.0
    max_refresh_delay: float = 5.0
    raw: bool = False
    """Keep each body as bytes (`FetchResult.body`), of any media type, undecoded: for a
    document that is not a page (a sitemap, gzipped or not; a web archive's answer)."""
    follow_redirects: bool = True
    """False: a redirect is the answer, its Location (resolved) the `final_url`, never
    requested (Save Page Now names the snapshot it took so)."""
    cut_long_body: bool = False
    """True: a body longer than `max_body` (decoded) is cut after its last whole line
    within it, the rest never read, instead of refused (robots.txt)."""
    browser_all: bool = False
    """Read every page in a browser (`--browser`), as it shows once its scripts ran."""
    browser_pages: tuple[tuple[str, str | None], ...] = ()
    """The pages (as fetched: mapped) read in a browser, each with the CSS selector to wait
    for (None: until the network is idle): the sources marked `render: browser`."""
    browser_waits: tuple[tuple[str, str], ...] = ()
    """What `--browser` waits for on the sources naming `wait_for` without `render`."""
    browser_selects: tuple[tuple[str, str], ...] = ()
    """Each source's page (as fetched) and `select` ("": whole), where any has one: what
    must settle in a browser is what its sources read, not a clock beside it."""


DEFAULT_POLICY = FetchPolicy()


@dataclass(frozen=True)
class FetchResult:
    """Everything a run learned about one ledger URL; `text` is None unless the body was read.

    `canonical` is the page's `<link rel="canonical">` when it names another address
    (shown, never followed); `conditional` the validators sent to `final_url`, so a
    304 reuses exactly the snapshot they came with.
    """

    url: str
    final_url: str
    http_status: int | None
    source_status: SourceStatus
    redirects: tuple[Hop, ...]
    moved_to: str | None
    etag: str | None
    last_modified: str | None
    content_type: str | None
    text: str | None
    not_modified: bool
    error: str | None
    attempts: int
    elapsed: float
    line_range: tuple[int, int] | None
    canonical: str | None = None
    conditional: Validators | None = None
    body: bytes | None = None
    """The body's bytes (Content-Encoding undone, under the caps), in a `raw` fetch only."""
    content_location: str | None = None
    """The Content-Location header of a page read, as sent."""
    rendered: bool = False
    """Its text is the page as a browser left it, its scripts run (`--browser`)."""


# --------------------------------------------------------------------------- checking


@dataclass(frozen=True)
class WordChange:
    """One difference between the quote's words and the page's.

    ``insert`` is words only on the page, ``delete`` words only in the quote; ``kind``
    names what the change does to the meaning, when it does (``meaningful``).
    """

    op: ChangeOp
    quote: str
    page: str
    meaningful: bool
    kind: str | None = None


@dataclass(frozen=True)
class CheckRecord:
    """One quote checked on one source in one run.

    `status` is None when the source could not be read: a failed fetch says nothing
    about the quote. `run_id` is filled in when read back from the store; `misread`
    marks a check made on another address's text (a store written before validators
    were kept per URL), kept in history and never taken as evidence. A drifted quote
    carries its `change_kinds`; a missing one may carry the `closest` passage left on
    the page and how it differs (`closest_kinds`).
    """

    claim_id: str
    quote_index: int
    quote_text: str
    source_id: str
    url: str
    source_status: SourceStatus
    status: CheckStatus | None
    match_kind: MatchKind | None
    similarity: float | None
    current: str | None
    meaning_changed: bool
    changed_words: tuple[WordChange, ...]
    occurrences: int
    context_before: str | None
    context_after: str | None
    snapshot_hash: str | None
    checked_at: dt.datetime
    run_id: int | None = None
    recipe: str = ""
    misread: bool = False
    change_kinds: tuple[str, ...] = ()
    closest: str | None = None
    closest_kinds: tuple[str, ...] = ()
    moved_within: str | None = None
    """Found elsewhere on the page than the ledger places it (its #L lines, the section
    under its heading): where it is now, such as `lines L10-L16`."""
    pdf_page: int | None = None
    """On a PDF, the page (from 1) the quote or its successor is on (a link opens `#page=N`)."""

    JSON_PROPERTIES: ClassVar[tuple[str, ...]] = ("meaning_uncertain", "near_miss")

    @property
    def meaning_uncertain(self) -> bool:
        return meaning_uncertain(self)

    @property
    def near_miss(self) -> bool:
        return near_miss(self)


@dataclass(frozen=True)
class FetchRecord:
    """One fetch of one ledger URL, as recorded."""

    run_id: int
    url: str
    final_url: str
    http_status: int | None
    source_status: SourceStatus
    redirects: tuple[Hop, ...]
    moved_to: str | None
    etag: str | None
    last_modified: str | None
    content_type: str | None
    error: str | None
    not_modified: bool
    attempts: int
    elapsed: float
    snapshot_hash: str | None
    fetched_at: dt.datetime
    recipe: str = ""
    canonical: str | None = None
    misread: bool = False


@dataclass(frozen=True)
class RunRecord:
    """One refresh run; `finished_at` is None for a run that never finished (or is running)."""

    id: int
    started_at: dt.datetime
    finished_at: dt.datetime | None
    ledger_path: str


# --------------------------------------------------------------------------- running


@dataclass(frozen=True)
class ArtifactRun:
    """One run of a claim's artifact, as recorded.

    `started` is False when the program could not be started (not found, not executable,
    or a shell that could not run it); `exit_status` is None when it did not finish (it
    timed out). `output` is its standard output (capped), `expected` the `expect` it was
    compared with, and `matched` whether it printed that and exited 0. `runner` is the
    executable that ran it, with the version line of a known interpreter ("" when no
    program was found); `seconds` how long it ran.
    """

    claim_id: str
    ran_at: dt.datetime
    command: str
    started: bool
    exit_status: int | None
    matched: bool
    output: str
    expected: str
    error: str | None
    seconds: float
    runner: str

    @property
    def ran(self) -> bool:
        """It started and finished, so its output is evidence (a mismatch too); a program
        that could not start or timed out says nothing about the claim."""
        return self.started and self.exit_status is not None


# --------------------------------------------------------------------------- as read (archive)

ArchiveOutcome = Literal["found", "none", "failed"]
"""What the web archive said of a page near a day: a capture, none within the window (an
answer, kept like a capture), or nothing (asked again on the next run)."""


@dataclass(frozen=True)
class ArchiveLookup:
    """The web archive's capture of one page nearest the day it was read (archive.py).

    `url` is the page as requested (a GitHub blob's raw file); `timestamp` and
    `original` name the capture (`original`: the address as the archive captured it),
    `snapshot_url` its page as people open it. `error` says why a lookup `failed`.
    """

    url: str
    read_on: dt.date
    archive: str
    window_days: int
    outcome: ArchiveOutcome
    looked_up_at: dt.datetime
    timestamp: str | None = None
    original: str | None = None
    snapshot_url: str | None = None
    error: str | None = None

    @property
    def captured_on(self) -> dt.date | None:
        """The day of the capture (from its timestamp), when there is one."""
        stamp = self.timestamp or ""
        return (
            dt.date(int(stamp[:4]), int(stamp[4:6]), int(stamp[6:8])) if len(stamp) >= 8 else None
        )


@dataclass(frozen=True)
class ArchivedCopy:
    """A capture's raw copy as read one way (`recipe`): the text a reader sees there (None
    when none could be had: `error` says why), and how the archive served it."""

    final_url: str
    http_status: int | None
    content_type: str | None
    recipe: str
    text: str | None
    error: str | None = None


@dataclass(frozen=True)
class AsReadCheck:
    """One quote checked on the archived copy of its source from the day it was read.

    `quote_text` is the ledger's wording now (the quote's key), `wording` the words as
    read that day (an adopted rewording's original), checked on the copy. `status` is
    the verdict there; None when the copy could not be read as text (`error` says why).
    `current` is the copy's own wording where it differs from the quote.
    """

    claim_id: str
    quote_index: int
    quote_text: str
    wording: str
    source_id: str
    url: str
    read_on: dt.date
    snapshot_url: str
    timestamp: str
    status: CheckStatus | None
    match_kind: MatchKind | None
    similarity: float | None
    current: str | None
    meaning_changed: bool
    changed_words: tuple[WordChange, ...]
    change_kinds: tuple[str, ...]
    closest: str | None
    snapshot_hash: str | None
    recipe: str
    checked_at: dt.datetime
    error: str | None = None
    JSON_PROPERTIES: ClassVar[tuple[str, ...]] = ("meaning_uncertain",)

    @property
    def meaning_uncertain(self) -> bool:
        return meaning_uncertain(self)

    @property
    def misquoted(self) -> bool:
        """The copy of the reading day was read and does not carry the words as quoted
        (reworded there, or not there at all): misquoted at reading time."""
        return self.status in ("drifted", "missing")


# --------------------------------------------------------------------------- recovery, preservation


@dataclass(frozen=True)
class QuoteThere:
    """One of a source's quotes as it stands on a page proposed as the source's new address."""

    claim_id: str
    quote_index: int
    quote_text: str
    status: CheckStatus | None
    match_kind: MatchKind | None = None
    similarity: float | None = None
    current: str | None = None
    meaning_changed: bool = False  # reworded there to say something else: not carried


@dataclass(frozen=True)
class Candidate:
    """A page of the site's sitemap tried for a source that went: how like the old address
    it is (`score`, 0-1), how it answered, and how many of the source's quotes it carries."""

    url: str
    score: float
    source_status: SourceStatus | None = None
    found: int = 0
    title: str | None = None


@dataclass(frozen=True)
class Relocation:
    """A search for a source that went (404/410, or an empty page left behind) on its own
    site's sitemap: the page proposed as its new address (`found_at`, None when there is
    none) with how each quote stands there, the candidates tried, and what was read.

    `reason` is what happened to the old address: "gone" or "empty". `note` says in words
    why nothing was proposed (no sitemap, no candidate carries a quote).
    """

    source_id: str
    url: str
    reason: str
    found_at: str | None
    quotes: tuple[QuoteThere, ...] = ()
    total: int = 0
    candidates: tuple[Candidate, ...] = ()
    sitemaps: tuple[str, ...] = ()
    note: str = ""
    run_id: int | None = None
    recorded_at: dt.datetime | None = None
    file_commit: Commit | None = None  # the docs' commit that renamed or deleted its file
    renamed_to: str | None = None

    @property
    def found(self) -> int:
        """How many of the source's quotes the proposed page carries (verified or reworded)."""
        return sum(1 for q in self.quotes if q.status in FOUND_THERE and not q.meaning_changed)


FOUND_THERE = frozenset({"verified", "drifted", "ambiguous"})
"""Check statuses under which a page carries a quote (as written, or reworded)."""


@dataclass(frozen=True)
class SavedSnapshot:
    """A web archive asked to snapshot a live page (Save Page Now): the snapshot's address
    when it named one, or why not. `snapshot_hash` is the text we read there at the time."""

    url: str
    archive: str
    snapshot_url: str | None
    http_status: int | None = None
    error: str | None = None
    snapshot_hash: str | None = None
    run_id: int | None = None
    saved_at: dt.datetime | None = None


# --------------------------------------------------------------------------- the two rules


class Keyed(Protocol):
    """What `latest_by_key` needs of a check."""

    @property
    def claim_id(self) -> str: ...
    @property
    def quote_text(self) -> str: ...
    @property
    def source_id(self) -> str: ...
    @property
    def checked_at(self) -> dt.datetime: ...


class Judged(Protocol):
    """What `classify` needs of a check."""

    @property
    def source_status(self) -> str: ...
    @property
    def status(self) -> str | None: ...
    @property
    def meaning_changed(self) -> bool: ...


K = TypeVar("K", bound=Keyed)
CheckKey = tuple[str, str, str]


def snapshot_digest(text: str) -> str:
    """The name a snapshot is kept under: the sha256 of its text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def check_key(check: Keyed) -> CheckKey:
    """A quote on a source: (claim, the quote's words, source)."""
    return (check.claim_id, check.quote_text, check.source_id)


def latest_by_key(checks: Iterable[K]) -> dict[CheckKey, K]:
    """The latest check of each quote on each source (the later of two at the same time)."""
    latest: dict[CheckKey, K] = {}
    for check in checks:
        key = check_key(check)
        if key not in latest or check.checked_at >= latest[key].checked_at:
            latest[key] = check
    return latest


def lost_reason(fetch: FetchResult | FetchRecord) -> str | None:
    """Why a source read in a refresh is to be looked for: "gone" (404/410), "empty" (a
    page with no text a reader sees, left behind); None when it is not lost."""
    if fetch.source_status == "gone":
        return "gone"
    if fetch.source_status == "unreadable" and (fetch.error or "").startswith("no content"):
        return "empty"
    return None


class Drift(Protocol):
    """What `meaning_uncertain` needs of a check or a match."""

    @property
    def status(self) -> str | None: ...
    @property
    def meaning_changed(self) -> bool: ...
    @property
    def change_kinds(self) -> tuple[str, ...]: ...


def meaning_uncertain(check: Drift) -> bool:
    """A drift that is not plainly harmless (the matcher named a kind of change) but whose
    evidence falls short of a changed meaning: shown as "may have changed", never as
    harmless, never as changed."""
    return check.status == "drifted" and bool(check.change_kinds) and not check.meaning_changed


class Missed(Protocol):
    """What `near_miss` needs of a check or a match."""

    @property
    def status(self) -> str | None: ...
    @property
    def similarity(self) -> float | None: ...
    @property
    def closest(self) -> str | None: ...


NEAR_MISS = 0.40
"""How alike (0..1) the closest passage left on the page may come to a quote called
missing before the call is a close one. On the corpora the matcher was written on, a
quote called missing whose closest passage was at least 0.45 alike had in fact been
reworded 7 times in 15, from 0.40 to 0.45 7 times in 17, from 0.35 to 0.40 11 times in
32, and with no passage as alike 13 times in 89: below 0.40 a missing call is right
two times in three or more, above it a coin toss, and said so."""


def near_miss(check: Missed) -> bool:
    """Called missing, but the closest passage left is nearly alike enough to be the quote
    reworded: a close call, shown as one, never as a quote surely gone."""
    near = (check.similarity or 0.0) >= NEAR_MISS
    return check.status == "missing" and check.closest is not None and near


def classify(check: Judged) -> Standing:
    """What a check says of its quote (see :data:`Standing`)."""
    if check.source_status == "gone":
        return "gone"
    if check.source_status not in READ_STATUSES or check.status is None:
        return "unread"
    if check.status == "drifted":
        return "changed" if check.meaning_changed else "reworded"
    if check.status == "verified":
        return "verified"
    if check.status == "ambiguous":
        return "ambiguous"
    return "missing"


@dataclass(frozen=True)
class Adoption:
    """Replace quote `quote_index` of `claim_id`, `old`, by the page's wording `new`."""

    claim_id: str
    quote_index: int
    old: str
    new: str
    meaning: str | None = None
    """"changed" or "uncertain" when the new wording changed, or may have changed, what the
    quote meant: its claim then goes back to review."""


# --------------------------------------------------------------------------- the docs' history


@dataclass(frozen=True)
class Commit:
    """One commit that touched the file: its id, day, author as the commit names them,
    subject, and the file's path in it (renames are followed)."""

    sha: str
    date: str
    author: str
    subject: str
    path: str

    @property
    def pull_request(self) -> int | None:
        """The pull request the subject names (`(#181)`, `Merge pull request #181`), if short."""
        found = re.search(r"\(#(\d{1,18})\)\s*$|^Merge pull request #(\d{1,18})\b", self.subject)
        return int(found.group(1) or found.group(2)) if found else None  # int("9" * 4301) raises


@dataclass(frozen=True)
class QuoteHistory:
    """What the history of the file a page is built from says of one quote on it: the
    newest commit that held the quote's words, the one that dropped them, and the first
    that held `current`, the page's wording when it was read (`claimledger blame`)."""

    claim_id: str
    quote_text: str
    source_id: str
    repo: str
    path: str
    current: str | None
    held: Commit | None
    dropped: Commit | None
    current_since: Commit | None
    versions: int
    read_at: dt.datetime
    unread: tuple[Commit, ...] = ()  # as `Blame.unread`: where the history may lie unread
    ref: str | None = None  # the branch or tag read; None in one kept before it was
    history_version: int | None = None
    """The version of the reading of the docs' history that made it (`versions.HISTORY`):
    one made by another is read again, never reused. None in one kept before it was."""

    @property
    def changed_in(self) -> Commit | None:
        """The commit that changed the quote's words, when the history names one."""
        return self.dropped

    def commit_link(self, commit: Commit) -> str | None:
        """The commit's page on a known code host (GitHub, GitLab), else None."""
        base = self.repo.removesuffix(".git").rstrip("/")
        if base.startswith("https://github.com/"):
            return f"{base}/commit/{commit.sha}"
        if base.startswith("https://gitlab.com/"):
            return f"{base}/-/commit/{commit.sha}"
        return None


@dataclass(frozen=True)
class LatestEvidence:
    """The latest evidence of every kind, for the ledger as it is: what `status` shows."""

    checks: list[CheckRecord]
    fetches: dict[str, FetchRecord]
    last: RunRecord | None
    runs: dict[str, ArtifactRun]
    searches: list[Relocation]
    read_then: list[AsReadCheck]
    lookups: list[ArchiveLookup]
    histories: dict[CheckKey, QuoteHistory]
    made_here: bool = True  # False: the store came with the checkout (`evidence.madehere`)

    @property
    def incomplete(self) -> bool:
        """The last refresh did not finish (cut short, or still running)."""
        return self.last is not None and self.last.finished_at is None
