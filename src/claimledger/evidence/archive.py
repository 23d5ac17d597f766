"""The web archive: which capture of a page is nearest a day, and that capture's raw copy.

The Wayback Machine, or any server speaking its API (a loopback one in tests and in the
demo), at a base URL that `--archive` or `archive` in claimledger.toml names
(`archive_settings`). Three endpoints, each asked through the fetcher (`fetch/`: its
body caps, scheme rules, redirects, robots.txt, user agent, and its retries that honour a
429's Retry-After):

* CDX, `/cdx/search/cdx?url=U&output=json&filter=statuscode:200&from=…&to=…&closest=…`:
  the captures that answered 200 within the window, nearest the day first: those by the
  day's end, then, where there were none, those after it;
* availability, `/wayback/available?url=U&timestamp=YYYYMMDD`: the nearest capture,
  asked only when the CDX server fails;
* the raw capture, `/web/<timestamp>id_/<original>`: the page as it was captured, without
  the archive's toolbar or its rewritten links, so the extractor reads what a reader read.

People are shown the capture's own page, `/web/<timestamp>/<original>`.

Politeness: one lookup per page per run (`look_up`), the pages of a run asked two at a
time, and nothing more asked of the archive once it answers 429 after the fetcher's
retries, each waiting what its Retry-After asked (it said to slow down). What the
archive answered is the caller's to keep: a capture never changes, and "none within N
days" is an answer too.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import urllib.parse
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import dataclass, replace

from claimledger.errors import InputError
from claimledger.ledger.config import Config, check_option
from claimledger.records import ArchiveLookup, FetchPolicy, FetchResult
from claimledger.urls import (
    DEFAULT_PORTS,
    UrlMap,
    encoded_url,
    is_web_url,
    lower_scheme_and_host,
    shown,
    split,
    web_url_problem,
)
from claimledger.web.fetch import Client, Manners, fetch_each

DEFAULT_ARCHIVE = "https://web.archive.org"
"""The Internet Archive's Wayback Machine."""

DEFAULT_WINDOW_DAYS = 30
"""How far from the reading day a capture may be and still stand for the page as read."""

ARCHIVE_PER_HOST = 2
"""Requests at once to the archive, at most (the run's --per-host may say fewer)."""

CDX_ROWS = 25
"""Captures a CDX lookup asks for, nearest first; the nearest of them is taken."""


# --------------------------------------------------------------------------- settings


@dataclass(frozen=True)
class ArchiveSettings:
    """Which archive a run asks, and how far from the reading day a capture may be.

    `explicit`: named by `--archive` or claimledger.toml rather than the default, so it is
    asked about every source (see `asread.consulted`).
    """

    base: str = DEFAULT_ARCHIVE
    window_days: int = DEFAULT_WINDOW_DAYS
    explicit: bool = False


def archive_settings(
    config: Config, base: str | None = None, window_days: int | None = None
) -> ArchiveSettings:
    """The run's archive: the options, then the ledger's settings, then the default."""
    check_option("archive_window", window_days)
    chosen = base or config.archive
    window = window_days if window_days is not None else config.archive_window
    if chosen is not None and (problem := web_url_problem(chosen)) is not None:
        raise InputError(f"--archive {chosen!r} {problem}")
    return ArchiveSettings(
        base=lower_scheme_and_host(chosen or DEFAULT_ARCHIVE).rstrip("/"),
        window_days=DEFAULT_WINDOW_DAYS if window is None else window,
        explicit=chosen is not None,
    )


# --------------------------------------------------------------------------- addresses


def endpoint(base: str, path: str, **query: str) -> str:
    """An address of the archive: its base, a path, and a query."""
    tail = f"?{urllib.parse.urlencode(query)}" if query else ""
    return f"{base.rstrip('/')}{path}{tail}"


def cdx_url(base: str, url: str, day: dt.date, window_days: int, *, after: bool = False) -> str:
    """The CDX query for the captures of `url` that answered 200 within the window, taken
    by the end of `day` (`after`: those taken after it), nearest first. The two are asked
    apart: the nearest rows of one query round the day could all be from after it (a page
    the archive takes every hour), past the one from before that `nearest` takes first."""
    if after:
        first, last = shifted(day, 1), shifted(day, window_days)
    else:
        first, last = shifted(day, -window_days), day
    return endpoint(
        base,
        "/cdx/search/cdx",
        url=url,
        output="json",
        fl="timestamp,original,statuscode",
        filter="statuscode:200",
        closest=_stamp(day),
        sort="closest",
        limit=str(CDX_ROWS),
        **{"from": first.strftime("%Y%m%d"), "to": last.strftime("%Y%m%d")},
    )


def shifted(day: dt.date, days: int) -> dt.date:
    """`day` moved by `days`, held within the calendar: a ledger read on 9999-12-31 has a
    window that closes then, not an OverflowError."""
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return dt.date.max if days > 0 else dt.date.min


def availability_url(base: str, url: str, day: dt.date) -> str:
    """The availability query for the capture of `url` nearest `day`."""
    return endpoint(base, "/wayback/available", url=url, timestamp=day.strftime("%Y%m%d"))


def snapshot_url(base: str, timestamp: str, original: str) -> str:
    """The capture's own page, as people open it (with the archive's toolbar)."""
    return f"{base.rstrip('/')}/web/{timestamp}/{original}"


def raw_snapshot_url(base: str, timestamp: str, original: str) -> str:
    """The capture as it was served, nothing added (the `id_` form): what is read."""
    return f"{base.rstrip('/')}/web/{timestamp}id_/{original}"


def raw_copy_url(lookup: ArchiveLookup) -> str:
    """The raw copy of the capture a lookup found (ValueError for one that found none)."""
    if lookup.timestamp is None or lookup.original is None:
        raise ValueError(f"the lookup of {lookup.url} found no capture")
    return raw_snapshot_url(lookup.archive, lookup.timestamp, lookup.original)


_SNAPSHOT_PATH = re.compile(r"/web/(?P<timestamp>\d{4,14})(?:[a-z]{2}_)?/(?P<original>.+)$")


def snapshot_parts(url: str) -> tuple[str, str] | None:
    """(timestamp, original address) of a capture's URL in either form, or None."""
    parts = urllib.parse.urlsplit(url)
    found = _SNAPSHOT_PATH.search(parts.path + (f"?{parts.query}" if parts.query else ""))
    if found is None or not is_web_url(found["original"]):
        return None
    return found["timestamp"], found["original"]


def captured_at(timestamp: str) -> dt.datetime:
    """A capture's timestamp (14 digits, or fewer: the start of that year, month or day)
    as a UTC time; ValueError for anything else."""
    digits = timestamp + "00000101000000"[len(timestamp) :]
    return dt.datetime.strptime(digits, "%Y%m%d%H%M%S").replace(tzinfo=dt.UTC)


def _stamp(day: dt.date) -> str:
    return day.strftime("%Y%m%d") + "120000"


# --------------------------------------------------------------------------- asking


def archive_policy(policy: FetchPolicy) -> FetchPolicy:
    """The run's policy as the archive is asked: at most ARCHIVE_PER_HOST at once."""
    return replace(policy, per_host=max(1, min(policy.per_host, ARCHIVE_PER_HOST)))


async def ask_archive(
    urls: Iterable[str],
    client: Client,
    policy: FetchPolicy,
    *,
    url_map: UrlMap | None = None,
    manners: Manners | None = None,
) -> AsyncIterator[FetchResult]:
    """Ask the archive for each URL once, through `fetch_each`, yielding each answer as it
    arrives and named by the archive's own address (`url_map` only says where it is served).

    The URLs go in waves of the policy's per-host limit, each wave after the one before,
    so that once the archive answers 429 (after the fetcher's retries, each waiting what
    its Retry-After asked) nothing more is asked: the waves left are not requested at all.
    Waves share `manners` (robots.txt read once, the host paced across them).
    """
    url_map = url_map or UrlMap()
    pending = list(dict.fromkeys(urls))
    size = max(1, policy.per_host)
    shared = manners or Manners(client, policy)
    try:
        for start in range(0, len(pending), size):
            wave = {url_map.apply(url): url for url in pending[start : start + size]}
            slowed = False
            async for result in fetch_each(wave, client, policy=policy, manners=shared):
                slowed = slowed or result.http_status == 429
                yield replace(
                    result, url=wave[result.url], final_url=url_map.reverse(result.final_url)
                )
            if slowed:
                return
    finally:
        if manners is None:
            await shared.close()


# --------------------------------------------------------------------------- answers


@dataclass(frozen=True)
class Capture:
    """One capture the archive holds: when, and the address as it was captured."""

    timestamp: str
    original: str


_TIMESTAMP = re.compile(r"[0-9]{4,14}")


def usable(capture: Capture) -> Capture | None:
    """A capture as it may be kept and linked: its timestamp 4 to 14 digits, its address a
    web URL with every character a URL may not hold as it is (a quote, a space, an angle
    bracket) percent-encoded; None for a capture that names no such address. An archive's
    answer is text from elsewhere: it reaches a link in a report and a fetch of ours."""
    original = encoded_url(capture.original)
    if original is None or not _TIMESTAMP.fullmatch(capture.timestamp):
        return None
    return Capture(capture.timestamp, original)


def parse_cdx(text: str) -> list[Capture]:
    """The captures of a CDX JSON answer (a header row, then one row per capture)."""
    rows = json.loads(text) if text.strip() else []
    if not isinstance(rows, list) or not rows:
        return []
    header = rows[0]
    if not isinstance(header, list) or "timestamp" not in header or "original" not in header:
        raise ValueError("a CDX answer without timestamp and original columns")
    at, original = header.index("timestamp"), header.index("original")
    status = header.index("statuscode") if "statuscode" in header else None
    return [
        Capture(str(row[at]), str(row[original]))
        for row in rows[1:]
        if isinstance(row, list)
        and len(row) == len(header)
        and (status is None or str(row[status]) == "200")
    ]


def parse_availability(text: str) -> list[Capture]:
    """The capture an availability answer names (none when it names none)."""
    answer = json.loads(text)
    snapshots = answer.get("archived_snapshots") if isinstance(answer, dict) else None
    closest = snapshots.get("closest") if isinstance(snapshots, dict) else None
    if not isinstance(closest, dict) or not closest.get("available"):
        return []
    if str(closest.get("status", "200")) != "200":
        return []
    parts = snapshot_parts(str(closest.get("url", "")))
    timestamp = str(closest.get("timestamp") or (parts[0] if parts else ""))
    if parts is None or not timestamp.isdigit():
        raise ValueError("an availability answer whose snapshot has no timestamp or address")
    return [Capture(timestamp, parts[1])]


def nearest(captures: Iterable[Capture], day: dt.date, window_days: int) -> Capture | None:
    """The capture nearest the middle of `day` taken by its end, if one is within
    `window_days` of it; else the nearest after it within them. A page is read as it
    stood when it was read: a copy from before carries what the reader saw unless the
    page changed since, while one from after may carry a change made after the reading,
    and would call a quote right that day misquoted."""
    noon = dt.datetime.combine(day, dt.time(12), tzinfo=dt.UTC)
    before, after = dt.timedelta(days=window_days, hours=12), dt.timedelta(days=window_days)
    near = []
    for capture in captures:
        try:
            off = captured_at(capture.timestamp) - noon
        except ValueError:
            continue
        late = off >= dt.timedelta(hours=12)  # taken after the day's end
        if -before <= off < after + dt.timedelta(hours=12):  # whole days either side
            near.append((late, abs(off), capture.timestamp, capture))
    # before the day's end first; then the nearer; the earlier of two as near; of two
    # taken at one second (a page's http and https copies), the first the archive listed
    return min(near, key=lambda found: found[:3])[3] if near else None


def same_page(original: str, asked: str) -> bool:
    """Whether a capture's address is the page asked for, as the archive keys its captures:
    the scheme, a `www.`, the host's case, its scheme's own port written out and a trailing
    slash aside; the rest, the query with it, must be the page's own (a capture of another
    page says nothing of it)."""
    return _page_key(original) == _page_key(asked)


def _page_key(url: str) -> tuple[str, str, str] | None:
    parts = split(url)
    if parts is None or parts.hostname is None:
        return None
    host = parts.hostname.lower().removeprefix("www.")
    port = None if parts.port == DEFAULT_PORTS.get(parts.scheme.lower()) else parts.port
    where = f"{host}:{port}" if port else host
    return where, parts.path.rstrip("/") or "/", parts.query


def _taken_by(capture: Capture, now: dt.datetime) -> bool:
    """Whether the capture was taken by `now`: one dated later is no copy of anything."""
    try:
        return captured_at(capture.timestamp) <= now
    except ValueError:
        return False


# --------------------------------------------------------------------------- one lookup a page

SLOWED_DOWN = "not asked: the archive asked us to slow down (HTTP 429)"

Parser = Callable[[str], list[Capture]]


async def look_up(
    pages: Mapping[str, dt.date],
    *,
    client: Client,
    policy: FetchPolicy,
    settings: ArchiveSettings,
    now: dt.datetime,
    url_map: UrlMap | None = None,
    manners: Manners | None = None,
) -> dict[str, ArchiveLookup]:
    """For each page (its address as requested) the capture nearest the day it was read:
    one CDX query a page for the captures by that day's end, a second for those after it
    where there were none, and the availability API for a page whose CDX query failed
    (an archive that serves no CDX). A 429 ends the asking: what was not asked failed."""
    policy = archive_policy(policy)
    found: dict[str, ArchiveLookup] = {}
    slowed = False

    async def ask(queries: dict[str, str], parse: Parser) -> None:
        nonlocal slowed
        async for result in ask_archive(queries, client, policy, url_map=url_map, manners=manners):
            url = queries[result.url]
            found[url] = _answer(url, pages[url], result, parse, settings, now)
            slowed = slowed or result.http_status == 429

    base, window = settings.base, settings.window_days
    await ask({cdx_url(base, url, day, window): url for url, day in pages.items()}, parse_cdx)
    later = [url for url, lookup in found.items() if lookup.outcome == "none"]
    if later and not slowed:  # none by the day's end: the nearest after it
        await ask(
            {cdx_url(base, url, pages[url], window, after=True): url for url in later}, parse_cdx
        )
    retry = [url for url, lookup in found.items() if lookup.outcome == "failed"]
    if retry and not slowed:
        await ask(
            {availability_url(base, url, pages[url]): url for url in retry}, parse_availability
        )
    missing = ArchiveLookup("", now.date(), base, window, "failed", now, error=SLOWED_DOWN)
    return {
        url: found.get(url) or replace(missing, url=url, read_on=day) for url, day in pages.items()
    }


def _answer(
    url: str,
    day: dt.date,
    result: FetchResult,
    parse: Parser,
    settings: ArchiveSettings,
    now: dt.datetime,
) -> ArchiveLookup:
    """What one answer says: the nearest capture within the window, none, or no answer."""
    lookup = ArchiveLookup(url, day, settings.base, settings.window_days, "failed", now)
    if result.text is None:
        why = result.error or f"the archive answered {result.source_status}"
        return replace(lookup, error=f"{shown(result.url)}: {why}")
    try:
        captures = parse(result.text)
    except (ValueError, TypeError, KeyError, IndexError, AttributeError, RecursionError) as error:
        return replace(lookup, error=f"{shown(result.url)}: not an answer we can read ({error})")
    fit = [capture for capture in map(usable, captures) if capture is not None]
    if captures and not fit:
        why = "no capture it names has a timestamp and a web address we can use"
        return replace(lookup, error=f"{shown(result.url)}: not an answer we can read ({why})")
    ours = [c for c in fit if same_page(c.original, url) and _taken_by(c, now)]
    capture = nearest(ours, day, settings.window_days)
    if capture is None:
        return replace(lookup, outcome="none")
    return replace(
        lookup,
        outcome="found",
        timestamp=capture.timestamp,
        original=capture.original,
        snapshot_url=snapshot_url(settings.base, capture.timestamp, capture.original),
    )
