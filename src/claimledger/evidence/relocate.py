"""Find a page that moved without a redirect: on its own site, by the site's sitemap.

A source that comes back gone (404/410), or as an empty page left behind, may still be on
its site at another address that nothing points to. The site's sitemaps list its pages:
those `robots.txt` names (`Sitemap:` lines), `/sitemap.xml`, and a sitemap index one or two
levels deep, gzipped or not. The pages whose address is most like the old one (its path,
the last segment weighted most) and like its title are read, a few at most, through the
same fetcher and manners as a refresh (robots.txt, per-host limits and pace, size caps,
no private address unless allowed); each is read with the same extractor and matcher,
and the page that carries the source's quotes (verified or reworded; the most of them,
then the most like the old address) is proposed as the source's new address, with how
each quote stands there. A proposal is only that: `claimledger move SOURCE` adopts it.

The core is pure (the `sitemaps` read, `rank`, `same_page`, `choose`, the lines);
`recover` is the I/O at the edge. Nothing here records or prints: the caller keeps each
`Relocation` in the evidence store.
"""

from __future__ import annotations

import functools
import heapq
import re
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any
from urllib.parse import SplitResult, unquote, urlsplit

from rapidfuzz import fuzz

from claimledger.errors import PageUnreadable
from claimledger.evidence.sitemaps import (
    Sitemap,
    gunzip,
    parse_sitemap,
    robots_sitemaps,
    same_site,
    sitemap_guesses,
)
from claimledger.ledger.config import DEFAULT_RECOVER_CANDIDATES
from claimledger.records import (
    FOUND_THERE,
    READ_STATUSES,
    Candidate,
    Commit,
    FetchPolicy,
    FetchRecord,
    FetchResult,
    QuoteThere,
    Relocation,
    lost_reason,
    snapshot_digest,
)
from claimledger.urls import (
    UrlMap,
    fetch_target,
    origin,
    page_key,
    redacted,
    resolve,
    shown,
    site_of,
)

if TYPE_CHECKING:  # the fetcher and the reader load where a recovery runs
    from claimledger.reading.match import Match
    from claimledger.web.fetch import Client, Manners

MAX_CANDIDATES = 50
MAX_UNASKED = 20
"""Candidates refused before any request (robots.txt, an address not public) passed over
at most, beyond the bound, for one source."""
MAX_SITE_PAGES = 50_000
"""Pages of one site ranked at most, over all its sitemaps (a second or two to rank)."""
MAX_SITEMAPS = 12
"""Sitemap files read at most for one site (robots.txt's, the guesses, an index's)."""
MAX_DEPTH = 2
"""Levels of sitemap index followed: an index, and an index of indexes."""
LAST_SEGMENT = 0.65
"""How much of a path's likeness is its last segment's (the page's own name)."""
TITLE_WEIGHT = 0.25
"""How much of a candidate's score is its name's likeness to the old page's title."""

LOST_REASONS = {"gone": "gone", "empty": "left an empty page"}
NO_MAP = UrlMap()


# --------------------------------------------------------------------------- ranking


_EXTENSION = re.compile(r"\.(?:html?|php|aspx?|jsp|md|txt)$")
_WORD = re.compile(r"[^\W_]+")
_INDEX_PAGES = frozenset({"index", "default", "readme"})


@functools.lru_cache(maxsize=8192)
def _words(part: str) -> str:
    """One path segment as its words: `Alarms_API.html` is "alarms api"."""
    return " ".join(_WORD.findall(_EXTENSION.sub("", unquote(part).lower())))


def _segments(path: str) -> list[str]:
    """A path as words per segment: `/Docs/Alarms_API.html` is ["docs", "alarms api"]."""
    segments = [words for part in path.split("/") if (words := _words(part))]
    if segments and segments[-1] in _INDEX_PAGES:
        segments.pop()
    return segments


def _likeness(a: str, b: str) -> float:
    """0-1: the words of two names, alike in spelling and in the words they share."""
    if a == b:
        return 1.0
    if not a or not b:
        return 0.0
    return float(fuzz.ratio(a, b) + fuzz.token_set_ratio(a, b)) / 200


def _path_score(a: list[str], b: list[str], folders: Callable[[str], float]) -> float:
    if not a or not b:
        return 1.0 if a == b else 0.0
    return LAST_SEGMENT * _likeness(a[-1], b[-1]) + (1 - LAST_SEGMENT) * folders(" ".join(b[:-1]))


def path_likeness(old: str, new: str) -> float:
    """0-1: how alike two addresses' paths are, the last segment (the page's own name)
    weighing `LAST_SEGMENT`, the folders above it the rest."""
    a = _segments(urlsplit(old).path)
    above = " ".join(a[:-1])
    return _path_score(a, _segments(urlsplit(new).path), lambda folders: _likeness(above, folders))


def _title_words(title: str) -> str:
    return " ".join(_WORD.findall(title.lower()))


def rank(
    old_url: str, urls: Iterable[str], titles: Sequence[str] = (), *, limit: int
) -> list[Candidate]:
    """The `limit` pages most like the old address (and the old page's titles), best first;
    the old address itself (or a tidier spelling of it) is never one of them. A site's
    pages share their folders, so each folder path is compared once."""
    said = [words for title in titles if (words := _title_words(title))]
    old = urlsplit(old_url.split("#", 1)[0])
    a = _segments(old.path)
    above = " ".join(a[:-1])

    @functools.lru_cache(maxsize=4096)
    def folders(path: str) -> float:
        return _likeness(above, path)

    def scored() -> Iterator[tuple[float, str]]:
        for url in dict.fromkeys(urls):
            parts = urlsplit(url)
            if _spelling(parts) == _spelling(old):
                continue
            b = _segments(parts.path)
            path = _path_score(a, b, folders)
            if said:
                named = max(_likeness(words, b[-1]) for words in said) if b else 0.0
                path = (1 - TITLE_WEIGHT) * path + TITLE_WEIGHT * named
            yield path, url

    best = heapq.nsmallest(limit, scored(), key=lambda pair: (-pair[0], len(pair[1]), pair[1]))
    return [Candidate(url, round(points, 4)) for points, url in best]


def _spelling(parts: SplitResult) -> tuple[str, str, str]:
    """One page's address, however spelt: its host, its path without a trailing slash,
    its query (http or https, the port aside)."""
    return ((parts.hostname or "").lower(), parts.path.rstrip("/") or "/", parts.query)


# --------------------------------------------------------------------------- choosing


@dataclass(frozen=True)
class Lost:
    """A source to look for: its ledger URL, what happened to it, how it is read (its
    selector), the titles it had (the ledger's, its last snapshot's first line), and the
    quotes to find: (claim id, quote index, quote text)."""

    source_id: str
    url: str
    reason: str
    quotes: tuple[tuple[str, int, str], ...]
    select: str | None = None
    titles: tuple[str, ...] = ()
    file_commit: Commit | None = None
    """The commit of the docs' repository that renamed (to `renamed_to`) or deleted the
    page's source file, when the history step read it."""
    renamed_to: str | None = None
    likely_at: str | None = None
    """The page a renamed file most likely became (the site's plain convention): read
    first, and proposed on the repository's word even when no quote is found there."""


def snapshot_title(text: str | None) -> str | None:
    """The first line of a page's last good snapshot, when it reads like a title."""
    if not text:
        return None
    first = next((line.strip() for line in text.split("\n") if line.strip()), "")
    first = first.lstrip("#").strip()
    return first if 0 < len(first) <= 200 else None


def carried(quotes: Iterable[QuoteThere]) -> int:
    """How many quotes a page carries: verified, or reworded with their meaning kept (one
    reworded to say something else is not the quote, only its successor)."""
    return sum(1 for q in quotes if q.status in FOUND_THERE and not q.meaning_changed)


def choose(candidates: Sequence[tuple[Candidate, tuple[QuoteThere, ...]]]) -> int | None:
    """Which candidate read to propose: the one carrying the most quotes (verified, or
    reworded with their meaning kept), then the most reworded at all, then the most
    verbatim, then the most like the old address; None when no candidate has any of them
    even reworded."""
    best: tuple[int, int, int, float] | None = None
    chosen = None
    for index, (candidate, quotes) in enumerate(candidates):
        key = _key(candidate, quotes)
        if key[1] and (best is None or key > best):
            best, chosen = key, index
    return chosen


def _key(candidate: Candidate, quotes: Sequence[QuoteThere]) -> tuple[int, int, int, float]:
    found = sum(1 for q in quotes if q.status in FOUND_THERE)
    verbatim = sum(1 for q in quotes if q.status in ("verified", "ambiguous"))
    return carried(quotes), found, verbatim, candidate.score


def tied(candidates: Sequence[tuple[Candidate, tuple[QuoteThere, ...]]], chosen: int) -> list[str]:
    """The pages carrying the quotes as the chosen one does, at an address as like the old
    one (each page once: see `same_page`): two or more, and nothing says which it became."""
    key = _key(*candidates[chosen])
    return [c.url for c, quotes in candidates if key[0] and _key(c, quotes) == key]


Seen = tuple[str, str | None, str | None]
"""A candidate as read: the address it was read at (redirects followed), its text's digest,
and the address its canonical link names."""


def same_page(page: Seen, other: Seen) -> bool:
    """Two candidates that are one page: read at one address once redirects are followed
    (`/x.html` sent to `/x`), or at two that differ only by a trailing slash (whatever
    time of serving its text says); or at two that differ only in spelling (an extension,
    a query such as `?utm_source=`) where one's canonical link names the other, or their
    texts are one. A canonical link never makes one page of two paths (a site naming one
    page canonical for all, or a hostile one, would hide the page carrying the quotes),
    and one text at two paths (`/v1/x`, `/v2/x`) is two pages: which the old one became
    is open."""
    if page[0] == other[0]:
        return True
    a, b = urlsplit(page[0]), urlsplit(other[0])
    if _spelling(a) == _spelling(b):
        return True
    if (a.hostname, _segments(a.path)) != (b.hostname, _segments(b.path)):
        return False
    named = page[2] == other[0] or other[2] == page[0]
    return named or (page[1] is not None and page[1] == other[1])


def tidier(one: str, other: str, canonical: str | None) -> str:
    """Which of two addresses of one page to propose: the one its canonical link names,
    else the one without a query, else the shorter (of two as short, `one`, read first)."""
    if canonical in (one, other):
        return canonical
    return min((one, other), key=lambda url: (bool(urlsplit(url).query), len(url)))


def canonical_named(fetched: FetchResult, url_map: UrlMap) -> str | None:
    """The address a page's canonical link names, even a tidier spelling of the one read
    (a trailing slash), which the fetcher does not say: which spelling the site calls the
    page's own."""
    from claimledger.reading.decoding import MARKUP_TYPES, media_type_of  # where pages are read
    from claimledger.reading.pagehead import head_links

    if fetched.canonical is not None:
        return url_map.reverse(fetched.canonical)
    if fetched.text is None or media_type_of(fetched.content_type) not in MARKUP_TYPES:
        return None

    named = head_links(fetched.text).canonical
    return url_map.reverse(resolve(fetched.final_url or fetched.url, named)) if named else None


# --------------------------------------------------------------------------- the edge


@dataclass
class _Site:
    """One site's sitemaps as read in this run: its pages (ledger-side addresses), the
    files read, and what went wrong with each one that could not be read."""

    pages: list[str] = field(default_factory=list)
    read: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)


async def recover(
    lost: Sequence[Lost],
    *,
    client: Client,
    policy: FetchPolicy,
    url_map: UrlMap = NO_MAP,
    candidates: int = DEFAULT_RECOVER_CANDIDATES,
) -> list[Relocation]:
    """Look for each lost source on its site, once each: every site's sitemaps read once,
    at most `candidates` pages read per source (a page read for one source is not fetched
    again for another), all through one set of manners (robots.txt, per-host pace)."""
    from claimledger.web.fetch import Manners

    manners = Manners(client, policy)
    sites: dict[str, _Site] = {}
    read: dict[str, FetchResult] = {}
    found = []
    try:
        for source in {item.source_id: item for item in lost}.values():
            target = url_map.apply(source.url.split("#", 1)[0])
            if fetch_target(target)[0] != target:  # a repository's file, read as its raw form
                why = "a file of a repository: its history, not a sitemap, says where it went"
                found.append(Relocation(*_named(source), None, total=len(source.quotes), note=why))
                continue
            key = site_of(target) or origin(target)  # one site however each spells it
            if key not in sites:
                sites[key] = await _read_site(source.url, target, client, policy, url_map, manners)
            site = sites[key]
            looked = await _look(source, site, client, policy, url_map, manners, read, candidates)
            found.append(_with_file(looked, source))
    finally:
        await manners.close()
    return found


def _named(source: Lost) -> tuple[str, str, str]:
    return source.source_id, source.url, source.reason


def _with_file(found: Relocation, source: Lost) -> Relocation:
    """The search with what the repository said of the page's file (its commit)."""
    return replace(found, file_commit=source.file_commit, renamed_to=source.renamed_to)


async def _fetch(
    urls: Sequence[str], client: Client, policy: FetchPolicy, manners: Manners
) -> dict[str, FetchResult]:
    from claimledger.web.fetch import fetch_each

    got = {r.url: r async for r in fetch_each(urls, client, policy=policy, manners=manners)}
    return {url: got[url] for url in urls if url in got}  # as asked: a note says them so


async def _read_site(
    ledger_url: str,
    target: str,
    client: Client,
    policy: FetchPolicy,
    url_map: UrlMap,
    manners: Manners,
) -> _Site:
    """Every page the site's sitemaps list, on the site itself, as the ledger names it."""
    site = _Site()
    raw = replace(policy, raw=True)
    robots = f"{origin(target)}/robots.txt"
    first = await _fetch([robots, *sitemap_guesses(target)], client, raw, manners)
    listed = robots_sitemaps(_text(first.pop(robots)))
    if not listed:
        site.problems.append("robots.txt names no sitemap")
    here = [url for url in listed if same_site(url, target) or same_site(url, ledger_url)]
    spelt = {page_key(url)[0]: url for url in first}

    def once(url: str) -> str:
        """A sitemap in the spelling it was first met in: one file, however each names it."""
        return spelt.setdefault(page_key(url)[0], url)

    pending = [(once(url_map.apply(url_map.reverse(url))), 0) for url in here]
    answered = dict(first)
    pending += [(url, 0) for url in first]
    seen: set[str] = set()
    while pending and len(site.read) < MAX_SITEMAPS and len(site.pages) < MAX_SITE_PAGES:
        step = [(url, depth) for url, depth in dict(pending).items() if url not in seen]
        step = step[: MAX_SITEMAPS - len(site.read)]
        pending = []
        seen |= {url for url, _ in step}
        wanted = [url for url, _ in step if url not in answered]
        if wanted:
            answered |= await _fetch(wanted, client, raw, manners)
        for url, depth in step:
            if len(site.pages) >= MAX_SITE_PAGES:
                break  # a site's every page that is looked among is had: no more is read
            sitemap = _sitemap(answered[url], policy, site)
            if sitemap is None:
                continue
            site.read.append(url)
            for page in sitemap.pages:
                named = url_map.reverse(page)
                if same_site(named, ledger_url) and len(site.pages) < MAX_SITE_PAGES:
                    site.pages.append(named)
            if depth < MAX_DEPTH:
                for child in sitemap.sitemaps:
                    if same_site(child, target) or same_site(child, ledger_url):
                        pending.append((once(url_map.apply(url_map.reverse(child))), depth + 1))
    site.pages = list(dict.fromkeys(site.pages))
    return site


def _text(fetched: FetchResult) -> str:
    if fetched.source_status not in READ_STATUSES or fetched.body is None:
        return ""
    return fetched.body.decode("utf-8-sig", errors="replace")  # a byte order mark is no text


def _sitemap(fetched: FetchResult, policy: FetchPolicy, site: _Site) -> Sitemap | None:
    """One sitemap file as read, or None (its problem noted) when it gave nothing."""
    where = shown(fetched.url)
    if fetched.source_status not in READ_STATUSES or fetched.body is None:
        answer = f"HTTP {fetched.http_status}" if fetched.http_status else fetched.source_status
        site.problems.append(f"{where}: {fetched.error or answer}")
        return None
    try:
        sitemap = parse_sitemap(gunzip(fetched.body, policy.max_decompressed))
    except PageUnreadable as error:
        site.problems.append(f"{where}: {error}")
        return None
    if sitemap.problem is not None:
        site.problems.append(f"{where}: {sitemap.problem}")
        return None
    return sitemap


async def _look(
    source: Lost,
    site: _Site,
    client: Client,
    policy: FetchPolicy,
    url_map: UrlMap,
    manners: Manners,
    read: dict[str, FetchResult],
    limit: int,
) -> Relocation:
    """Read the candidates for one source, best first, until one carries every quote as
    written (and those at an address as like the old one are read too) or `limit` were
    asked for (one refused before any request is not counted); propose the best of them,
    each page counted once however many addresses it answers at, unless two carry the
    quotes alike: then nothing says which the page became, and both are said."""
    from claimledger.evidence.pageread import check_page, page_title, read_page

    found = Relocation(*_named(source), None, total=len(source.quotes))
    if not site.pages and source.likely_at is None:
        return replace(found, sitemaps=tuple(site.read), note=_no_pages(site, source, url_map))
    limit = min(limit, MAX_CANDIDATES)
    ranked = rank(source.url, site.pages, source.titles, limit=limit + MAX_UNASKED)
    if source.likely_at is not None:  # the repository's word first
        ranked = [Candidate(source.likely_at, 1.0)] + [
            c for c in ranked if c.url != source.likely_at
        ]
    tried: list[tuple[Candidate, tuple[QuoteThere, ...]]] = []
    pages: list[Seen] = []
    asked = unasked = 0
    likely: FetchResult | None = None  # the renamed file's page, when no sitemap lists it
    whole = -1.0  # the score of a page carrying every quote as written: one as like is read too
    for candidate in ranked:
        if asked >= limit or candidate.score < whole:
            break
        target = url_map.apply(candidate.url)
        if target not in read:
            read |= await _fetch([target], client, policy, manners)
        fetched = read[target]
        if _unasked(fetched):
            unasked += 1
        else:
            asked += 1
        if candidate.url == source.likely_at and candidate.url not in site.pages:
            likely = fetched
        page = read_page(fetched, source.select, deadline=policy.deadline)
        digest = None if page.text is None else snapshot_digest(page.text)
        read_at = url_map.reverse(fetched.final_url or target)
        seen: Seen = (read_at, digest, canonical_named(fetched, url_map))
        address = url_map.reverse(fetched.moved_to) if fetched.moved_to else candidate.url
        twin = next((at for at, other in enumerate(pages) if same_page(seen, other)), None)
        if twin is not None:  # one page at two addresses: proposed at its own
            first, quotes_there = tried[twin]
            named = pages[twin][2] or seen[2]
            tried[twin] = (replace(first, url=tidier(first.url, address, named)), quotes_there)
            continue
        pages.append(seen)
        quotes: tuple[QuoteThere, ...] = ()
        if page.text is not None:
            quotes = tuple(
                _there(claim, index, text, check_page(text, page))
                for claim, index, text in source.quotes
            )
        tried.append(
            (
                replace(
                    candidate,
                    url=address,
                    source_status=page.fetch.source_status,
                    found=carried(quotes),
                    title=page_title(page),
                ),
                quotes,
            )
        )
        if whole < 0 and quotes and all(q.status == "verified" for q in quotes):
            whole = candidate.score
    chosen = choose(tried)
    if chosen is None and source.likely_at and tried and tried[0][0].source_status in READ_STATUSES:
        chosen = 0  # the renamed file's page (or where it moved), there though reworded
    found = replace(found, candidates=tuple(c for c, _ in tried), sitemaps=tuple(site.read))
    if chosen is None:
        if likely is not None:  # its sitemap's pages are the others
            asked, unasked = asked - (not _unasked(likely)), unasked - _unasked(likely)
        said = [] if likely is None else [_likely_unread(likely, url_map)]
        if site.pages:
            pages_read = f"{asked} of its {len(site.pages)} pages read"
            if unasked:
                pages_read += f", {unasked} not asked for (robots.txt, or an address not public)"
            said.append(f"no page of its sitemap carries its quotes ({pages_read})")
        else:
            said.append(_no_pages(site, source, url_map))
        return replace(found, note="; ".join(said))
    if source.likely_at is None and len(alike := tied(tried, chosen)) > 1:
        both = " and ".join(shown(url) for url in alike)
        move = f"`claimledger move {source.source_id} NEW_URL`"
        note = f"its quotes are carried alike by {len(alike)} pages, {both}, and nothing says"
        return replace(found, note=f"{note} which it became: adopt one with {move}")
    candidate, quotes = tried[chosen]
    return replace(found, found_at=candidate.url, quotes=quotes)


def _no_pages(site: _Site, source: Lost, url_map: UrlMap) -> str:
    """Why the site's sitemaps gave no page to look among: none read, or none listing
    another page."""
    where = _site_said(source.url, url_map)
    if site.read:
        files = "1 sitemap" if len(site.read) == 1 else f"{len(site.read)} sitemaps"
        return f"{files} read on {where}, listing no other page of the site"
    return f"no sitemap on {where} ({'; '.join(site.problems) or 'none found'})"


def _site_said(url: str, url_map: UrlMap) -> str:
    """The site of the ledger's `url` as its reader knows it, with the `--map` mirror read
    in its place after it: the mirror's address alone names no site they cite."""
    public, mirror = origin(url), origin(url_map.apply(url))
    return public if mirror == public else f"{public} via its mirror {mirror}"


def _likely_unread(fetched: FetchResult, url_map: UrlMap) -> str:
    """The page of the renamed file's new name, read and not proposed: it gave no page
    (one that does is proposed, whatever it carries)."""
    answer = f"HTTP {fetched.http_status}" if fetched.http_status else fetched.source_status
    page = shown(url_map.reverse(fetched.url))
    return f"the page of its file's new name, {page}, gave no page ({fetched.error or answer})"


def _unasked(fetched: FetchResult) -> bool:
    """Refused before any request was made: robots.txt disallows it, or its address is not
    one we may fetch. Such a candidate costs the site nothing, so it counts for no bound."""
    return fetched.source_status == "refused" and fetched.http_status is None


def _there(claim_id: str, index: int, text: str, match: Match | None) -> QuoteThere:
    if match is None:
        return QuoteThere(claim_id, index, text, None)
    return QuoteThere(
        claim_id,
        index,
        text,
        match.status,
        match.match,
        round(float(match.similarity), 4),
        None if match.status == "verified" else match.current,
        match.status == "drifted" and match.meaning_changed,
    )


# --------------------------------------------------------------------------- in words


def moving(source_id: str, new_url: str) -> str:
    """The command that adopts a proposed address, where no other source has it."""
    return f"`claimledger move {source_id}`"


def relocation_line(found: Relocation, adopting: Callable[[str, str], str] = moving) -> str:
    """One line for a search: where the source is now, with which quotes were found there
    and how, and how to adopt it (`adopting`: the ledger's `adopting_move`, a merge where
    another source has the address and `move` would refuse); or why nothing was found."""
    what = f"source {found.source_id} {LOST_REASONS.get(found.reason, found.reason)}"
    what += file_said(found)
    if found.found_at is None:
        tie = any(candidate.found for candidate in found.candidates)  # else one is proposed
        return f"{what}; {'' if tie else 'not found on its site: '}{found.note}"
    changed = _quotes_said(q for q in found.quotes if q.meaning_changed)
    changed = f"; {changed} with its meaning changed" if changed else ""
    if found.found == 0:  # on the repository's word, or carrying quotes only as changed
        return (
            f"{what}; likely at {shown(found.found_at)} (none of its {found.total} quotes "
            f"found there{changed}); adopt it with {adopting(found.source_id, found.found_at)}"
        )
    how = _quotes_said(q for q in found.quotes if carried([q]))
    return (
        f"{what}; found at {shown(found.found_at)} ({found.found} of {found.total} quotes: "
        f"{how}{changed}); adopt it with {adopting(found.source_id, found.found_at)}"
    )


def _quotes_said(quotes: Iterable[QuoteThere]) -> str:
    """Quotes as they stand on a page: `durable #1 verified, durable #2 drifted 0.91`."""
    return ", ".join(
        f"{q.claim_id} #{q.quote_index + 1} {q.status}"
        + (f" {q.similarity:.2f}" if q.status == "drifted" and q.similarity is not None else "")
        for q in quotes
    )


def file_said(found: Relocation) -> str:
    """What the docs' repository said of the page's source file, in words (or nothing)."""
    commit = found.file_commit
    if commit is None:
        return ""
    when = f"{commit.sha[:7]} on {commit.date} (“{commit.subject}”)"
    if found.renamed_to is not None:
        return f"; its file {commit.path} became {found.renamed_to} in {when}"
    return f"; its file {commit.path} was deleted in {when}"


def relocation_json(found: Relocation) -> dict[str, Any]:
    """A search as JSON: every address as `urls.redacted` keeps it, every row with its ids
    as every JSON output names them (a quote numbered from 1, as the command line does)."""
    return {
        "source_id": found.source_id,
        "url": redacted(found.url),
        "reason": found.reason,
        "found_at": None if found.found_at is None else redacted(found.found_at),
        "quotes_found": found.found,
        "quotes_total": found.total,
        "file": None
        if found.file_commit is None
        else {
            "commit": {
                "sha": found.file_commit.sha,
                "date": found.file_commit.date,
                "author": found.file_commit.author,
                "subject": found.file_commit.subject,
                "pull_request": found.file_commit.pull_request,
                "path": found.file_commit.path,
            },
            "renamed_to": found.renamed_to,
        },
        "quotes": [
            {
                "claim_id": q.claim_id,
                "quote_index": q.quote_index + 1,
                "quote_text": q.quote_text,
                "status": q.status,
                "match": q.match_kind,
                "similarity": q.similarity,
                "current": q.current,
                "meaning_changed": q.meaning_changed,
            }
            for q in found.quotes
        ],
        "candidates": [
            {
                "url": redacted(c.url),
                "score": c.score,
                "source_status": c.source_status,
                "quotes_found": c.found,
                "title": c.title,
            }
            for c in found.candidates
        ],
        "sitemaps": [redacted(url) for url in found.sitemaps],
        "note": found.note,
        "run_id": found.run_id,
    }


def standing_relocations(
    relocations: Mapping[str, Relocation],
    sources: Mapping[str, str],
    fetches: Mapping[str, FetchRecord],
) -> list[Relocation]:
    """The searches still worth showing: of a source still at the address searched for
    (`sources` maps id to URL), whose latest fetch there still finds it lost."""
    shown_ones = []
    for source_id, found in relocations.items():
        url = sources.get(source_id)
        if url is None or redacted(url) != found.url:
            continue
        fetch = fetches.get(found.url)
        if fetch is not None and lost_reason(fetch) is not None:
            shown_ones.append(found)
    return shown_ones
