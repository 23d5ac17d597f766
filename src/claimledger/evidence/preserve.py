"""Preserve the pages a refresh read: ask a web archive to snapshot each (Save Page Now).

`refresh --save` asks, once the refresh is recorded, for each page it read: `GET
{archive}/save/<url>`, the archive being the one `--archive` or `archive` in
claimledger.toml names (the Wayback Machine by default; see `archive.archive_settings`).
The archive names the snapshot it took in a `Content-Location` header, or by redirecting
to it (`/web/<timestamp>/<url>`); that address is kept in the evidence store beside the
page. Asked through the fetcher, with its manners and caps:

* one request per page, one page at a time, `SAVE_INTERVAL` seconds apart (the archive
  takes a few captures a minute from one client); a 429's Retry-After is waited out by
  the fetcher (up to its cap) and the request asked again, and once the archive still
  answers 429 nothing more is asked of it in this run;
* a redirect is not followed: its Location is the answer, so no snapshot is downloaded;
* a page whose text the archive already holds (saved before, and read the same since)
  is not asked again, and an address with a secret in it is never sent;
* only a public address is sent, as the ledger names the page (or where it moved): never
  one of a special-use name, nor one that resolves to a loopback, private or otherwise
  local address, nor one that does not resolve at all. A public archive publishes what
  it is given, and an intranet's addresses are not its to publish. The `--map` mirror a
  page was read from is never named: the address sent is the ledger's.

The core (`plan_saves`, `snapshot_of`, the lines) is pure; `save_pages` is the I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from claimledger.records import READ_STATUSES, FetchPolicy, FetchResult, SavedSnapshot
from claimledger.urls import has_secrets, is_web_url, origin, redacted, resolve, shown

if TYPE_CHECKING:  # the fetcher loads where a save runs
    from claimledger.web.destinations import Resolver
    from claimledger.web.fetch import Client

SAVE_INTERVAL = 4.0
"""Seconds between the starts of two requests to the archive (15 a minute at most)."""
SAVE_TIMEOUT = 60.0
"""Seconds one request to save may take: the archive loads the page before it answers."""
SAVE_DEADLINE = 120.0
"""Seconds one page's save may take in all, its retries and Retry-After waits too."""
SAVE_BODY = 256 * 1024
"""Bytes of the archive's answer read at most: only its headers are needed."""

SLOWED_DOWN = "not asked: the archive asked us to slow down (HTTP 429)"
_SNAPSHOT = re.compile(r"^/web/\d{4,14}(?:[a-z]{2}_)?/.")


@dataclass(frozen=True)
class ToSave:
    """A page to ask the archive for: its address, and the text we read there."""

    url: str
    snapshot_hash: str | None


def plan_saves(
    read: Iterable[tuple[FetchResult, str | None]], saved: Mapping[str, SavedSnapshot]
) -> tuple[list[ToSave], list[SavedSnapshot], list[str]]:
    """Which pages of a refresh to save, by address: each page read (at its new address
    when it moved), once; not one whose text the archive already holds (the last save of
    it was made on the same text: returned as such); not one whose address carries a
    secret (named).

    `read` is each reading's fetch and snapshot hash; `saved` the latest save of each URL.
    """
    wanted: dict[str, set[str | None]] = {}
    for fetch, digest in read:
        if fetch.source_status not in READ_STATUSES or digest is None:
            continue
        url = (fetch.moved_to or fetch.url).split("#", 1)[0]
        wanted.setdefault(url, set()).add(digest)
    to_save, unchanged, secret = [], [], []
    for url, digests in sorted(wanted.items()):  # in the order of their addresses
        before = saved.get(redacted(url))
        if has_secrets(url):
            secret.append(url)
        elif before is not None and before.snapshot_hash in digests:
            unchanged.append(before)
        else:
            to_save.append(ToSave(url, min(d for d in digests if d is not None)))
    return to_save, unchanged, secret


def save_address(archive: str, url: str) -> str:
    """Save Page Now's address for a page: `{archive}/save/<url>`."""
    return f"{archive.rstrip('/')}/save/{url}"


def snapshot_of(fetched: FetchResult, archive: str) -> tuple[str | None, str | None]:
    """The snapshot the archive's answer names, or why it names none: (url, error).

    A `Content-Location` on a 2xx (or 3xx) answer, else the Location of a redirect to
    `/web/<timestamp>/<url>`; either must be a snapshot address on the archive itself.
    """
    status = fetched.http_status
    named = []
    if fetched.content_location and status is not None and 200 <= status < 400:
        named.append(resolve(fetched.final_url, fetched.content_location.strip()))
    if fetched.redirects and fetched.final_url != fetched.url:
        named.append(fetched.final_url)
    for url in named:
        if is_web_url(url) and _is_snapshot_on(archive, url):
            return url, None
    if status == 429:
        return None, fetched.error or "HTTP 429: the archive asked us to slow down"
    if status is None or not 200 <= status < 400:
        return None, fetched.error or f"the archive answered {fetched.source_status}"
    if named:
        return None, f"the archive answered HTTP {status} naming no snapshot ({shown(named[0])})"
    return None, f"the archive answered HTTP {status} without naming a snapshot"


def _is_snapshot_on(archive: str, url: str) -> bool:
    """Is `url` a snapshot's address on the archive: `/web/<timestamp>/…` under its base
    (which may have a path of its own, as `--archive https://host/wayback` does)?"""
    base = urlsplit(archive).path.rstrip("/")
    path = _path(url)
    return (
        origin(url) == origin(archive)
        and path.startswith(f"{base}/")
        and bool(_SNAPSHOT.match(path[len(base) :]))
    )


def _path(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def save_policy(policy: FetchPolicy) -> FetchPolicy:
    """The run's policy as the archive is asked to save: one request at a time, spaced,
    given time to capture, its answer's headers read and its redirect not followed."""
    return replace(
        policy,
        raw=True,
        follow_redirects=False,
        per_host=1,
        per_host_interval=max(policy.per_host_interval, SAVE_INTERVAL),
        timeout=max(policy.timeout, SAVE_TIMEOUT),
        deadline=max(policy.deadline, SAVE_DEADLINE),
        max_body=min(policy.max_body, SAVE_BODY),
    )


@dataclass(frozen=True)
class Withheld:
    """A page never sent to the archive, and why: its address is not a public one."""

    url: str
    why: str


async def save_pages(
    pages: Sequence[ToSave],
    *,
    client: Client,
    policy: FetchPolicy,
    archive: str,
    resolver: Resolver | None = None,
) -> tuple[list[SavedSnapshot], list[Withheld]]:
    """Ask the archive to snapshot each page whose address is public, once, one after
    another (paced across them all): what it answered for each, and the pages withheld
    (names resolved by `resolver`, the system's by default). After a 429 that outlasted
    the fetcher's retries, the pages left are not asked (each says so)."""
    from claimledger.web import destinations
    from claimledger.web.fetch import Manners, fetch_each

    public, withheld = await _public_only(pages, resolver or destinations.system_resolver)
    policy = save_policy(policy)
    manners = Manners(client, policy)
    saved: list[SavedSnapshot] = []
    slowed = False
    try:
        for page in public:
            if slowed:
                saved.append(SavedSnapshot(page.url, archive, None, None, SLOWED_DOWN))
                continue
            asked = save_address(archive, page.url)
            async for fetched in fetch_each([asked], client, policy=policy, manners=manners):
                snapshot, error = snapshot_of(fetched, archive)
                status = fetched.http_status
                saved.append(
                    SavedSnapshot(page.url, archive, snapshot, status, error, page.snapshot_hash)
                )
                slowed = status == 429
    finally:
        await manners.close()
    return saved, withheld


async def _public_only(
    pages: Sequence[ToSave], resolver: Resolver
) -> tuple[list[ToSave], list[Withheld]]:
    """The pages whose address is public, and the others with why they are not."""
    from claimledger.web.destinations import why_not_public

    public, withheld = [], []
    for page in pages:
        why = await why_not_public(page.url, resolver)
        if why is None:
            public.append(page)
        else:
            withheld.append(Withheld(page.url, why))
    return public, withheld


# --------------------------------------------------------------------------- in words


def saved_line(saved: SavedSnapshot, *, again: bool = True) -> str:
    """One line per page: the snapshot the archive took, or why there is none; `again`
    False for a page not asked, whose text the archive already held."""
    if not again:
        return f"not saved again: {shown(saved.url)} is unchanged since {shown(saved.snapshot_url)}"
    if saved.snapshot_url is None:
        return f"not saved: {shown(saved.url)}: {saved.error}"
    return f"saved {shown(saved.url)} in the web archive: {shown(saved.snapshot_url)}"


def secret_line(url: str) -> str:
    return f"not saved: {shown(url)}: its address carries a secret, never sent to an archive"


def withheld_line(page: Withheld) -> str:
    return (
        f"not saved: {shown(page.url)}: {page.why}; only a public address is sent to the "
        "web archive"
    )


def withheld_json(page: Withheld) -> dict[str, Any]:
    return {"url": redacted(page.url), "asked": False, "error": f"not public: {page.why}"}


def saved_json(saved: SavedSnapshot, *, again: bool = True) -> dict[str, Any]:
    """A save as JSON; `asked` False for a page whose text the archive already held (its
    snapshot then the one saved before, at `saved_at`)."""
    return {
        "url": redacted(saved.url),
        "archive": saved.archive,
        "asked": again,
        "snapshot_url": saved.snapshot_url,
        "http_status": saved.http_status if again else None,
        "error": saved.error if again else None,
        "saved_at": None if saved.saved_at is None else saved.saved_at.isoformat(),
    }
