"""Fetch the ledger's source pages over HTTP: the only package that touches the network
(`exchange`: the client and one request; `robots`: robots.txt; here: the walk of a URL's
redirects, its retries and deadline, and every URL of a run fetched at once).

Every distinct ledger URL is fetched once per run and becomes one frozen
`FetchResult`. A failure is data, not an exception: a 404, a timeout, a redirect
to `file:` or a gzip bomb each end as a result whose `source_status` says what
happened to the *source*. Fetching never knows about quotes, so a failed fetch
can never be mistaken for evidence that a quote went missing.

What the fetcher guarantees, and why:

* Redirects are followed by hand, so every hop is recorded and a hop to
  another scheme (or from https down to http), a loop or an endless chain is
  refused instead of followed. An alias page whose head holds a meta refresh is
  a redirect too (static hosts move pages that way), under the same rules.
* Validators belong to one URL: a request carries only the ETag and
  Last-Modified stored for exactly the URL it asks for, so a 304 after a redirect
  can only mean "the page you already have *from this address* is unchanged".
* robots.txt is read once per origin and run (once a day where the evidence store
  keeps it, as RFC 9309 allows), and a page it disallows for our user agent is not
  requested; its Crawl-delay spaces the requests to that host.
* One deadline per URL covers every hop, retry and wait; a TLS failure is not
  retried, since asking again cannot fix a certificate.
* Bodies are streamed and counted twice, raw and decompressed, so neither a
  huge page nor a small gzip bomb can exhaust memory.
* Retries back off exponentially with jitter and honour Retry-After, because
  documentation hosts rate-limit crawlers and we want to stay welcome.
* A global and a per-host limit, plus a gap between request starts to one
  host, keep a ledger with fifty pages on one docs site polite.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import AsyncGenerator, Callable, Iterable
from dataclasses import dataclass, replace
from typing import TypeGuard

from claimledger.errors import PageUnreadable
from claimledger.reading.decoding import MARKUP_TYPES, media_type_of
from claimledger.records import (
    DEFAULT_POLICY,
    READ_STATUSES,
    FetchPolicy,
    FetchResult,
    Hop,
    SourceStatus,
    Validators,
)
from claimledger.urls import (
    PERMANENT_REDIRECTS,
    UrlMap,
    exact_origin,
    fetch_target,
    is_trivial_move,
    line_range_of,
    permanently_moved_to,
    redact_urls,
    redirect_refusal,
    resolve,
    shown,
    shown_raw,
    web_url_problem,
)
from claimledger.web.browser import BrowserReader, browser_reading, settling_selects
from claimledger.web.exchange import Client, Outcome, make_client, request
from claimledger.web.pacing import Admission, Gates
from claimledger.web.robots import ROBOTS_KEPT_FOR, Robots, RobotsMemory
from claimledger.web.standins import (
    SIGN_IN,
    sent_home,
    sent_to_archive,
    stand_in_page,
)

__all__ = [
    "ROBOTS_KEPT_FOR",
    "Client",
    "Manners",
    "RobotsMemory",
    "ValidatorLookup",
    "fetch_all",
    "fetch_each",
    "make_client",
]

ValidatorLookup = Callable[[str, str], "Validators | None"]
"""`(url, start)`: the validators stored for exactly `url`, about to be requested on the way
from `start` (the chain's first URL, which says who will read the answer), if any."""


# --- Attempts and retries -----------------------------------------------------------------


@dataclass(frozen=True)
class _Walk:
    """One attempt: the redirect chain walked, where it ended, and what was sent there."""

    outcome: Outcome
    final_url: str
    hops: tuple[Hop, ...]
    sent: Validators | None = None
    canonical: str | None = None
    rendered: bool = False  # its text is the page as a browser left it
    stopped: bool = False
    """A redirect on the way was refused (a loop, another scheme, too many hops): the
    chain led to no page, so its addresses are no move of the page asked."""
    fragments: tuple[tuple[str, str], ...] = ()
    """Each address of the chain a redirect's Location named a fragment for (`/docs#x`),
    with that fragment, kept as later hops that name none inherit it (RFC 9110 10.2.2)."""


def _client_redirect(
    outcome: Outcome, url: str, policy: FetchPolicy
) -> tuple[str | None, str | None, str]:
    """Where an HTML page's head sends the reader at once (a meta refresh), and its canonical
    address when that is another page; both resolved against `url`; and the refresh's
    address as written (its fragment is the page's to keep)."""
    if outcome.text is None or not _is_markup(outcome.content_type):
        return None, None, ""
    from claimledger.reading.pagehead import head_links  # lxml: loaded with the first page read

    head = head_links(outcome.text)
    refresh = None
    delay = head.refresh_delay
    if head.refresh and delay is not None and delay <= policy.max_refresh_delay:
        target = mirrored(resolve(url, head.refresh), policy)
        refresh = target if target != url else None
    canonical = mirrored(resolve(url, head.canonical), policy) if head.canonical else None
    if canonical is not None and (canonical == url or is_trivial_move(url, canonical)):
        canonical = None
    return refresh, canonical, head.refresh or ""


def mirrored(url: str, policy: FetchPolicy) -> str:
    """Where to read `url`: at its mirror when it is under a `--map` prefix (an alias page
    or a redirect of a mirror names the real site's address), else where it is."""
    return UrlMap(policy.maps).apply(url) if policy.maps else url


def _is_markup(content_type: str | None) -> bool:
    return media_type_of(content_type) in MARKUP_TYPES


async def _walk(
    target: str,
    client: Client,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: Robots,
    tally: _Tally,
) -> _Walk:
    """Follow the redirect chain from `target` by hand, one gated request per hop.

    Each request carries the validators stored for exactly its own URL, never those of
    the URL a redirect came from.
    """
    url = target
    seen = {url}
    hops: list[Hop] = []
    fragments: dict[str, str] = {}
    while True:
        named = tuple(fragments.items())
        refusal = await robots.refusal(url)
        if refusal is not None:
            return _Walk(refusal, url, tuple(hops), fragments=named)
        sent = lookup(url, target) if lookup is not None else None
        async with gates.slot(url, stopping=tally.deadline):
            step = await request(url, client, _conditional_headers(sent), policy)
        if isinstance(step, Outcome):
            refresh, canonical, written = _client_redirect(step, url, policy)
            if refresh is None:
                return _Walk(step, url, tuple(hops), sent, canonical, fragments=named)
            hops.append(Hop(url, step.http_status or 200, "meta-refresh"))
            next_url, location = refresh, written
        else:
            hops.append(Hop(url, step.status))
            next_url, location = mirrored(resolve(url, step.location), policy), step.location
        if fragment := _fragment(location) or fragments.get(url, ""):
            fragments[next_url] = fragment
        if not isinstance(step, Outcome) and not policy.follow_redirects:
            answer = Outcome(step.status, "ok")  # the redirect is the answer
            return _Walk(answer, next_url, tuple(hops), fragments=tuple(fragments.items()))
        problem = redirect_refusal(url, next_url, seen, len(hops), policy.max_redirects)
        problem = problem or _stray_refusal(url, next_url, policy)
        if problem is not None:
            status = hops[-1].status
            return _Walk(Outcome(status, "refused", problem), url, tuple(hops), stopped=True)
        seen.add(next_url)
        url = next_url


def _stray_refusal(url: str, next_url: str, policy: FetchPolicy) -> str | None:
    """Why a redirect the `--map` mirror gave is not followed: to a page of the mirror no
    rule copies, which is no page of the site the ledger cites (`UrlMap.strays`)."""
    if not policy.maps or not UrlMap(policy.maps).strays(url, next_url):
        return None
    return (
        f"redirect refused: its --map mirror sends it to {shown(next_url)}, a page of the "
        "mirror no rule copies from the site (a rule for a wider folder would read it)"
    )


def _fragment(location: str) -> str:
    """The fragment a redirect's Location names (`/docs#alarms`: `alarms`), which the page
    adopted keeps, so a quote's link opens where the site says; never a line range, which
    names the lines a quote lives in and is the ledger's to say, nor a text directive
    (`:~:text=`), which would have a reader's browser mark the words a server chose. What
    a server writes there is percent-encoded past the characters a fragment may hold, so
    neither a space nor a bidi control reaches the ledger."""
    from urllib.parse import quote

    fragment = location.partition("#")[2].partition(":~:")[0]
    if line_range_of(fragment) is not None:
        return ""
    return quote(fragment, safe="!$&'()*+,;=:@/?-._~%")


def _backoff(attempt: int, policy: FetchPolicy) -> float:
    """Exponential backoff with jitter, so retries from many runs do not arrive in step."""
    return float(policy.backoff_base * 2 ** (attempt - 1) * random.uniform(0.5, 1.0))


@dataclass
class _Tally:
    """How far the attempts at one URL got; read when the `deadline` cuts them short."""

    attempts: int = 0
    last: _Walk | None = None
    deadline: asyncio.Timeout | None = None
    rendering: bool = False
    """Set once the page answered and the browser reads it."""
    changing: bool = False
    """Set once the page, read in the browser, was seen to change its text after it loaded."""

    def changed(self) -> None:
        self.changing = True


async def _attempts(
    target: str,
    client: Client,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: Robots,
    tally: _Tally,
) -> _Walk:
    """Walk the chain, retrying transient failures; return the last walk."""
    while True:
        tally.attempts += 1
        walk = tally.last = await _walk(target, client, lookup, policy, gates, robots, tally)
        outcome = walk.outcome
        if not outcome.retryable:
            return walk
        wait = outcome.retry_after
        if wait is not None and wait > policy.retry_after_cap:
            error = (
                f"{outcome.error}; Retry-After asks for {wait:.0f} s, "
                f"more than the {policy.retry_after_cap:g} s cap"
            )
            return replace(walk, outcome=replace(outcome, error=error))
        if tally.attempts > policy.retries:
            tries = f"{tally.attempts} attempts" if tally.attempts > 1 else "1 attempt"
            error = f"{outcome.error}; gave up after {tries}"
            return replace(walk, outcome=replace(outcome, error=error))
        await asyncio.sleep(wait if wait is not None else _backoff(tally.attempts, policy))


def _past_deadline(
    target: str, tally: _Tally, policy: FetchPolicy, wait_for: str | None = None
) -> _Walk:
    if tally.rendering and tally.last is not None:
        return _still_rendering(tally.last, wait_for, policy, changing=tally.changing)
    tries = "1 attempt" if tally.attempts == 1 else f"{tally.attempts} attempts"
    error = f"no answer within the {policy.deadline:g} s deadline for this URL ({tries})"
    last = tally.last
    hops = last.hops if last is not None else ()
    return _Walk(Outcome(None, "unreachable", error), target, hops)


def _still_rendering(
    walk: _Walk, wait_for: str | None, policy: FetchPolicy, *, changing: bool = False
) -> _Walk:
    """The page answered, but its reading in the browser was not done at the deadline: not
    "no answer" (the server's fault), but what the page never did, so the user knows
    whether to mend a source's `wait_for` or raise `--deadline`."""
    if changing:  # it loaded, but its words never stayed the same long enough to be read
        waited = "its text was still changing"
    elif wait_for:
        waited = f"nothing on it matched its wait_for {wait_for!r}"
    else:
        waited = "its scripts were still running or fetching"  # a busy loop never goes quiet
    error = f"read in a browser, {waited} within the {policy.deadline:g} s deadline"
    failed = replace(walk.outcome, source_status="unreadable", text=None, error=error)
    return replace(walk, outcome=failed)


def _result(
    url: str, walk: _Walk, attempts: int, elapsed: float, line_range: tuple[int, int] | None
) -> FetchResult:
    outcome = walk.outcome
    moved_to = None
    if not walk.stopped:
        moved_to = permanently_moved_to(fetch_target(url)[0], walk.hops, walk.final_url)
    if moved_to is not None:
        moved_to = _with_fragment(url, moved_to, walk)
    status: SourceStatus = outcome.source_status
    error = outcome.error
    if status == "ok" and moved_to is not None and sent_home(url, moved_to):
        status, moved_to = "gone", None  # a soft 404: the site sends its readers home
        error = f"redirected to the site's home page ({walk.final_url}): the page is gone"
        outcome = replace(outcome, text=None, body=None, etag=None, last_modified=None)
    elif status == "ok" and moved_to is not None:
        status = "moved"
    stand_in = _stand_in(url, walk) if status in READ_STATUSES else None
    if stand_in is not None:
        status, moved_to = ("refused" if stand_in == SIGN_IN else "unreadable"), None
        where = shown(walk.final_url)  # a sign-in page's address may carry a token
        error = f"redirected to {where}, {stand_in}, not the page asked: no evidence"
        outcome = replace(outcome, text=None, body=None, etag=None, last_modified=None)
    return FetchResult(
        url=url,
        final_url=walk.final_url,
        http_status=outcome.http_status,
        source_status=status,
        redirects=walk.hops,
        moved_to=moved_to,
        etag=outcome.etag,
        last_modified=outcome.last_modified,
        content_type=outcome.content_type,
        text=outcome.text,
        not_modified=outcome.not_modified,
        error=None if error is None else redact_urls(error),  # shown everywhere
        attempts=attempts,
        elapsed=elapsed,
        line_range=line_range,
        canonical=walk.canonical,
        conditional=walk.sent,
        body=outcome.body,
        content_location=outcome.content_location,
        rendered=walk.rendered,
    )


def _with_fragment(url: str, moved_to: str, walk: _Walk) -> str:
    """The address a page moved to, with the fragment its redirect named, else the one of
    the URL asked (a redirect that names none keeps it, RFC 9110 10.2.2); a line range
    asked is kept whatever the redirect names: it is the ledger's word on where its quotes
    stand, and without it they would be looked for on the whole file."""
    asked = url.partition("#")[2]
    named = "" if line_range_of(asked) is not None else dict(walk.fragments).get(moved_to)
    fragment = named or asked
    return f"{moved_to}#{fragment}" if fragment else moved_to


def _stand_in(url: str, walk: _Walk) -> str | None:
    """What the page a redirect ended at is, when it only stands in for the page asked (a
    sign-in page, or the home page or a section's it sends readers to for now; a web
    archive's copy, or another page of the archive's, by any redirect): its words say
    nothing of the asked page's as it stands, so none of its quotes may be called
    verified or missing there. A chain that ends with a permanent redirect elsewhere is a
    move, whatever came before; one that ends with a temporary redirect is judged from
    the page that answered it."""
    if not walk.hops:
        return None
    archived = sent_to_archive(url, walk.final_url)
    if archived is not None:
        return archived
    if walk.hops[-1].status in PERMANENT_REDIRECTS:
        return None
    return stand_in_page(walk.hops[-1].url, walk.final_url)


def _conditional_headers(sent: Validators | None) -> dict[str, str]:
    if sent is None:
        return {}
    headers: dict[str, str] = {}
    if _sendable(sent.etag):
        headers["If-None-Match"] = sent.etag
    if _sendable(sent.last_modified):
        headers["If-Modified-Since"] = sent.last_modified
    return headers


def _sendable(validator: str | None) -> TypeGuard[str]:
    """Whether a stored validator can go in a request header: one a server sent with a byte
    past ASCII (`ETag: "café"`) cannot be sent back, and made every later request of its
    page a "cannot request" refusal, the next runs' too. Without it the page is read whole."""
    return bool(validator and validator.isascii() and validator.isprintable())


def _keep_validators(walk: _Walk) -> _Walk:
    """A 304 need not repeat the validators; keep the ones we sent so the next run can
    ask again instead of downloading the page in full, and the media type the snapshot
    they came with was read as (a PDF's page is found by it)."""
    outcome, sent = walk.outcome, walk.sent
    if not outcome.not_modified or sent is None:
        return walk
    kept = replace(
        outcome,
        etag=outcome.etag or sent.etag,
        last_modified=outcome.last_modified or sent.last_modified,
        content_type=outcome.content_type or sent.content_type,
    )
    return replace(walk, outcome=kept)


async def _fetch_group(
    target: str,
    urls: list[str],
    client: Client,
    lookup: ValidatorLookup | None,
    policy: FetchPolicy,
    gates: Gates,
    robots: Robots,
    browser: BrowserReader | None = None,
) -> list[FetchResult]:
    """Fetch one target once, within its deadline, and answer for every ledger URL that
    maps to it. A page read in a browser is read so within the same deadline, and never
    answered by a 304: its scripts may fetch new words to an unchanged shell."""
    started = time.monotonic()
    tally = _Tally()
    in_browser, wait_for = browser_reading(policy, target)
    if in_browser:
        lookup = None
    problem = web_url_problem(target)
    if problem is None:
        try:
            async with asyncio.timeout(policy.deadline) as tally.deadline:
                walk = await _attempts(target, client, lookup, policy, gates, robots, tally)
                if in_browser and browser is not None:
                    tally.rendering = True
                    selects = settling_selects(policy, target)
                    walk = await _rendered(
                        walk,
                        wait_for,
                        selects,
                        browser,
                        client,
                        policy,
                        gates,
                        robots,
                        tally.changed,
                    )
        except TimeoutError:
            walk = _past_deadline(target, tally, policy, wait_for)
        walk = _keep_validators(walk)
    else:
        walk = _Walk(Outcome(None, "refused", f"{shown_raw(target)} {problem}"), target, ())
    elapsed = time.monotonic() - started
    return [_result(url, walk, tally.attempts, elapsed, fetch_target(url)[1]) for url in urls]


async def _rendered(
    walk: _Walk,
    wait_for: str | None,
    selects: tuple[str, ...],
    browser: BrowserReader,
    client: Client,
    policy: FetchPolicy,
    gates: Gates,
    robots: Robots,
    changing: Callable[[], None],
) -> _Walk:
    """The page as a browser shows it once its scripts ran and its text (through the
    `selects` its sources read it by) stopped changing (`changing` is told each time it
    had not), every request they make fetched here under the run's rules; a page that is
    no HTML is left as it is."""
    outcome = walk.outcome
    if outcome.text is None or not _is_markup(outcome.content_type):
        return walk
    raw = replace(policy, raw=True)

    real = UrlMap(policy.maps).reverse if policy.maps else str

    async def fetch(url: str) -> tuple[Outcome, str]:
        """What `url` answered, and where: `url` itself unless a redirect took it to another
        site, as the real sites are (a `--map` mirror is where a page is read, not where
        it is: a redirect a mirror names back to the real site may be that very site)."""
        asked = await _attempts(mirrored(url, policy), client, None, raw, gates, robots, _Tally())
        ended = asked.final_url if asked.hops else url
        moved = exact_origin(real(ended)) != exact_origin(real(url))
        return asked.outcome, ended if moved else url

    try:
        url = walk.final_url
        text = await browser.render(url, outcome.text, wait_for, fetch, changing, selects)
    except PageUnreadable as problem:
        failed = replace(outcome, source_status="unreadable", text=None, error=str(problem))
        return replace(walk, outcome=failed)
    return replace(
        walk,
        outcome=replace(outcome, text=text, content_type="text/html; charset=utf-8"),
        rendered=True,
    )


class Manners:
    """Gates and robots.txt rules shared by the `fetch_each` calls of one task (a page's
    recovery: sitemaps, then candidates): robots.txt read once, each host paced across all;
    with a `memory`, robots.txt read in an earlier run within the day is not asked again."""

    def __init__(
        self, client: Client, policy: FetchPolicy, memory: RobotsMemory | None = None
    ) -> None:
        self.gates = Gates(policy)
        self.robots = Robots(client, policy, self.gates, memory)
        self.browser = BrowserReader(policy) if _reads_in_browser(policy) else None

    async def close(self) -> None:
        self.robots.cancel()
        await asyncio.gather(*self.robots.tasks, return_exceptions=True)
        if self.browser is not None:
            await self.browser.close()


def _reads_in_browser(policy: FetchPolicy) -> bool:
    return policy.browser_all or bool(policy.browser_pages)


async def fetch_each(
    urls: Iterable[str],
    client: Client,
    *,
    validators: ValidatorLookup | None = None,
    policy: FetchPolicy = DEFAULT_POLICY,
    manners: Manners | None = None,
    robots: RobotsMemory | None = None,
) -> AsyncGenerator[FetchResult, None]:
    """Fetch every distinct URL once, concurrently, yielding each result as it arrives.

    URLs that differ only in their fragment share one request. `validators` gives the
    ETag / Last-Modified stored for a URL about to be requested (the start of a chain or
    any hop of it); `manners` shares gates and robots.txt with other calls, and `robots`
    (when there are no `manners`) keeps robots.txt across runs. A failing URL
    never raises; an exception here is a bug, and closing the iterator early cancels the
    fetches still under way.

    A URL begins only when there is room (`Admission`): twice the requests in flight, in
    all and per host, begun and not yet read by the caller. So a long ledger holds a
    window of pages in memory, never all of them.
    """
    groups: dict[str, list[str]] = {}
    for url in dict.fromkeys(urls):
        groups.setdefault(fetch_target(url)[0], []).append(url)
    own = manners or Manners(client, policy, robots)
    gates, rules = own.gates, own.robots
    admission = Admission(groups, ahead=2 * policy.concurrency, per_host_ahead=2 * policy.per_host)
    running: dict[asyncio.Task[list[FetchResult]], str] = {}

    def begin() -> None:
        for target in admission.begin():
            group = _fetch_group(
                target, groups[target], client, validators, policy, gates, rules, own.browser
            )
            running[asyncio.create_task(group)] = target

    try:
        begin()
        while running:
            done, _ = await asyncio.wait(running, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                target = running.pop(task)
                for result in task.result():
                    yield result
                admission.read(target)
                begin()
    finally:
        for task in running:
            task.cancel()
        await asyncio.gather(*running, return_exceptions=True)
        if manners is None:
            await own.close()


async def fetch_all(
    urls: Iterable[str],
    client: Client,
    *,
    validators: ValidatorLookup | None = None,
    policy: FetchPolicy = DEFAULT_POLICY,
    on_result: Callable[[FetchResult], None] | None = None,
) -> dict[str, FetchResult]:
    """Every result of `fetch_each`, one per URL in input order; `on_result` sees each as it
    arrives (an exception from it propagates and cancels the rest)."""
    wanted = list(dict.fromkeys(urls))
    arrived: dict[str, FetchResult] = {}
    async for result in fetch_each(wanted, client, validators=validators, policy=policy):
        arrived[result.url] = result
        if on_result is not None:
            on_result(result)
    return {url: arrived[url] for url in wanted}
