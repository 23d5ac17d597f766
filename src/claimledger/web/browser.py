"""Pages built by JavaScript, read as a browser shows them.

Chromium, driven by Playwright, runs the page; every request the page makes is answered
by our own fetcher (`Fetcher`), never by the browser's network stack, so the rules of
any other page hold by construction: robots.txt, the private-address guard, the byte
caps, the user agent and the URL's deadline. Chromium is also pointed at a proxy that
does not exist, so a request that slips past the interception fails instead of
reaching the network. Only GET requests for what can build the text are answered
(the document, scripts, data); images, fonts, styles and media are not fetched, and a
page may make at most `MAX_REQUESTS` of them within `FetchPolicy.max_body` bytes in all;
the page they build is held to the cap of any page's text (`max_decompressed`).

Playwright is an optional extra (`pip install 'claimledger[browser]'`); Chromium is the
system's (`chromium` on PATH, or `$CLAIMLEDGER_CHROMIUM`) or Playwright's own. A page's
scripts are code from the web: Chromium runs them in its sandbox wherever it can.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import tempfile
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimledger.errors import PageUnreadable
from claimledger.urls import exact_origin, is_web_url, page_key

if TYPE_CHECKING:
    from claimledger.records import FetchPolicy
    from claimledger.web.exchange import Outcome

Fetcher = Callable[[str], Awaitable[tuple["Outcome", str]]]
"""One GET through the fetcher of the run, its rules and its caps: what it ended with, and
the address it ended at (past any redirects)."""

READ_BY_SCRIPT = frozenset({"fetch", "xhr"})
"""Resource types whose answer the page's script reads: a browser lets it read one from
another origin only as CORS allows, even where its own origin's address redirected there."""

CLOSING = 2.0
"""Seconds a graceful close of Chromium is waited for."""

RESTARTS = 1
"""Times a run starts Chromium again once it died (killed, out of memory): the page read
as it died is unreadable, the rest of the run's pages are read in the new one; past
that, they are unreadable, the browser not started again."""

SETTLE = 1.0
"""Seconds a page's text must stay the same, once it loaded, to be read: a script may
replace the words after the network went quiet (a timer, an animation's last step), and a
quote was verified on words the reader no longer sees."""
SETTLE_WAITS = 4
"""The most settling waits a page is given: one whose text keeps changing (a live counter,
a ticking "updated 5 s ago") is read as it stands after them, not refused."""

_NAVIGATED = ("Execution context was destroyed", "the page is navigating")
"""Playwright's words that the document being read was replaced by a navigation (a
script's `location.reload()`): the new one is read, and must settle in its turn."""

_AGAIN = 0.05
"""Seconds between reads of a page whose navigation is under way."""

_PAUSE = "seconds => new Promise(done => setTimeout(done, seconds * 1000))"
"""A wait by the page's own clock: a timer its script set to fire sooner fires first."""

MAX_REQUESTS = 100
"""Requests a page may make while it is read (a docs app makes a few dozen)."""

NOT_TEXT = frozenset(
    {"image", "media", "font", "stylesheet", "websocket", "eventsource", "manifest", "texttrack"}
)
"""Resource types that never change a page's text: not fetched."""

DOCUMENT_TYPE = "text/html; charset=utf-8"
"""The page's document as handed to Chromium: its text, decoded already, is sent as UTF-8,
and the header's charset outranks the page's own `<meta charset>`; with none, Chromium
read the bytes in the page's declared or its default encoding (windows-1252), every
character past ASCII garbled."""

_NO_NETWORK = (
    "--proxy-server=127.0.0.1:9",
    "--proxy-bypass-list=<-loopback>",
    "--disable-quic",  # UDP, past the interception and the proxy (which carries TCP only)
)
_NO_UDP = """
for (const name of ["RTCPeerConnection", "webkitRTCPeerConnection", "WebTransport"]) {
  delete window[name];
}
"""
"""Run before a page's own scripts in every frame: WebRTC (STUN, to any address a script
names) and WebTransport (QUIC) send UDP, which neither the interception of requests nor
the proxy (TCP only) can hold; the page does without them."""

_QUIET = (
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-domain-reliability",
    "--disable-sync",
    "--no-first-run",
    "--no-default-browser-check",
)

CHROMIUM_VARIABLE = "CLAIMLEDGER_CHROMIUM"
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def browser_reading(policy: FetchPolicy, target: str) -> tuple[bool, str | None]:
    """Whether the page fetched as `target` is read in a browser, and the selector its
    reading waits for (a source's `wait_for`, whether it asks for the browser or
    `--browser` reads every page)."""
    if not policy.browser_pages and not policy.browser_waits:
        return policy.browser_all, None  # no page named: nothing to spell (every fetch asks)
    key = _page(target)  # one page however its address is spelled, as `add` finds it
    pages = {_page(page): wait_for for page, wait_for in policy.browser_pages}
    if key in pages:
        return True, pages[key]
    waits = {_page(page): wait_for for page, wait_for in policy.browser_waits}
    return policy.browser_all, waits.get(key)


def settling_selects(policy: FetchPolicy, target: str) -> tuple[str, ...]:
    """The `select` of each source read from the page fetched as `target`: the regions
    whose text must stay the same for it to be read (none: the page's text, as where one
    of its sources reads it whole)."""
    key = _page(target)
    found = dict.fromkeys(s for page, s in policy.browser_selects if _page(page) == key)
    return () if "" in found else tuple(found)


def _page(url: str) -> str:
    """The page `url` names, in one spelling; a URL too broken to parse, as written (the
    fetcher refuses it)."""
    try:
        return page_key(url)[0]
    except ValueError:
        return url


def chromium_path() -> str | None:
    """The Chromium to drive: `$CLAIMLEDGER_CHROMIUM`, else one on PATH, else None
    (Playwright's own, if `playwright install chromium` fetched one)."""
    named = os.environ.get(CHROMIUM_VARIABLE)
    if named:
        return named
    return next((found for name in BROWSERS if (found := shutil.which(name))), None)


SANDBOX_VARIABLE = "CLAIMLEDGER_BROWSER_NO_SANDBOX"


def sandboxed() -> bool:
    """Whether Chromium runs the page's scripts in its sandbox: always, but as root (where
    Chromium cannot) or where the user said it cannot start (`$CLAIMLEDGER_BROWSER_NO_SANDBOX`,
    a container without user namespaces)."""
    return os.geteuid() != 0 and not os.environ.get(SANDBOX_VARIABLE)


def browser_missing() -> str | None:
    """Why no page can be read in a browser here, or None when one can be tried."""
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "reading a page in a browser needs Playwright: pip install 'claimledger[browser]'"
    return None


@dataclass
class _Budget:
    requests: int
    bytes: int
    left_for: str | None = None
    """Where the page's script sent the reader, if it tried (not followed)."""
    address: str | None = None
    """The page's own address as Chromium spells it (`goto`'s request, the first of the
    main frame): Chromium escapes what the ledger may write plain (`é`, a space, a quote)
    and lowers a host's case, so the address as given is no match for its own request."""

    @property
    def spent(self) -> bool:
        """Whether the page may ask no more: its requests, or its bytes, are used up (a
        request past the bytes is not made: each may bring `max_body` bytes more)."""
        return self.requests <= 0 or self.bytes <= 0


class BrowserReader:
    """One Chromium for a run, started for the first page that needs it, and again (at
    most `RESTARTS` times) for the first page after it died; one that cannot be started is
    tried once a run. Each page gets a context of its own (no cookies, storage or cache
    carried from page to page)."""

    def __init__(self, policy: FetchPolicy) -> None:
        self.policy = policy
        self._lock = asyncio.Lock()
        self._restarts = RESTARTS
        self._unstartable: str | None = None  # why Chromium could not be started, once tried
        self._playwright: Any = None
        self._browser: Any = None
        self._scratch: str | None = None
        """Chromium's temporary folder (its TMPDIR), removed with it: a browser stopped
        rather than closed leaves what it made there. Its name is short: Chromium makes a
        socket in it, and a socket's path may be 107 bytes at most."""

    async def render(
        self,
        url: str,
        html: str,
        wait_for: str | None,
        fetch: Fetcher,
        changing: Callable[[], None] = lambda: None,
        selects: tuple[str, ...] = (),
    ) -> str:
        """The page at `url` (whose document is `html`) as the browser left it once the
        network went idle, or once `wait_for` (a CSS selector) matched, and then its text
        (through `selects`, where its sources read it so) stayed the same for `SETTLE`
        seconds (within the URL's deadline, which the fetcher holds the whole reading to);
        `changing` is called each time it did not."""
        from playwright.async_api import Error as PlaywrightError

        browser = await self._opened()
        budget = _Budget(MAX_REQUESTS, self.policy.max_body)
        context = None
        try:  # Chromium may have gone since an earlier page (killed, out of memory)
            context = await browser.new_context(
                user_agent=self.policy.user_agent, service_workers="block", accept_downloads=False
            )
            await context.add_init_script(_NO_UDP)
            page = await context.new_page()
            page.set_default_timeout(self.policy.deadline * 1000)

            async def answer(route: Any) -> None:
                await self._answer(route, html, fetch, budget)

            await page.route("**/*", answer)
            await page.goto(url, wait_until="domcontentloaded" if wait_for else "networkidle")
            if wait_for:
                await page.wait_for_selector(wait_for, state="attached")
            content = await self._settled(page, changing, selects)
            _check_still_the_page(budget, str(page.url))
            return content
        except PlaywrightError as error:
            _check_still_the_page(budget, url)  # a navigation it asked for cut the reading
            raise PageUnreadable(_in_our_words(str(error), wait_for)) from None
        finally:
            if context is not None:
                await _closed_soon(context)

    async def _settled(
        self, page: Any, changing: Callable[[], None], selects: tuple[str, ...] = ()
    ) -> str:
        """The page once its text read twice, `SETTLE` seconds apart by the page's own
        clock, is the same, or as it stands after `SETTLE_WAITS` waits (a live counter
        beside the words never goes still); the URL's deadline cuts them short. A static
        page is read after one such wait. The text compared is the text read, through the
        `selects` its sources read it by, so a script restyling what is shown (a spinner, a
        clock in an attribute) or changing what no source reads (a clock in the footer)
        holds nothing."""
        from playwright.async_api import Error as PlaywrightError

        content = await self._read(page)
        text: str | None = None
        waits = 0
        while waits < SETTLE_WAITS:
            try:
                await page.evaluate(_PAUSE, SETTLE)
            except PlaywrightError as error:
                if not _navigating(error):
                    raise
                content, text = await self._read(page), None  # reloaded: it settles anew
                continue  # (a page reloading for ever is cut by the deadline)
            waits += 1
            again = await self._read(page)
            if again == content:
                return again
            text = _text(content, selects) if text is None else text
            now = _text(again, selects)
            if now == text:
                return again
            changing()
            content, text = again, now
        return content

    async def _read(self, page: Any) -> str:
        """The page's HTML now, a navigation of its own under way (a reload) waited out."""
        from playwright.async_api import Error as PlaywrightError

        while True:
            try:
                return self._within_cap(str(await page.content()))
            except PlaywrightError as error:
                if not _navigating(error):
                    raise
            await asyncio.sleep(_AGAIN)  # not yet committed: its load state is the old one's
            await page.wait_for_load_state("networkidle")

    def _within_cap(self, content: str) -> str:
        """The page as its scripts left it, if no longer than any page's text may be (the
        decompressed cap): a script builds any number of bytes from a few, past the caps
        that hold every body fetched, into the snapshot stored and the text read."""
        if len(content) > self.policy.max_decompressed or (
            len(content.encode("utf-8", "surrogatepass")) > self.policy.max_decompressed
        ):
            raise PageUnreadable(
                f"the page its scripts built is larger than {self.policy.max_decompressed} bytes"
            )
        return content

    async def close(self) -> None:
        """Close Chromium, and stop its driver: a browser not closed by then ends with it."""
        if self._browser is not None:
            await _closed_soon(self._browser)
        await self._stop()

    async def _stop(self) -> None:
        """Stop the driver (and the browser it started), and remove Chromium's folder."""
        if self._playwright is not None:
            await self._playwright.stop()
            self._playwright = None
        if self._scratch is not None:
            shutil.rmtree(self._scratch, ignore_errors=True)
            self._scratch = None

    async def _opened(self) -> Any:
        """The run's Chromium: started for the first page, and started again for the first
        page after it died, while restarts are left (a run's every later page was
        unreadable: "the browser closed while the page was read")."""
        async with self._lock:
            if self._unstartable is not None:  # tried in this run already: not again each page
                raise PageUnreadable(self._unstartable)
            if self._browser is not None and not self._browser.is_connected():
                if self._restarts <= 0:
                    raise PageUnreadable(
                        "the browser closed twice in this run (killed, or out of memory), "
                        "and is not started again"
                    )
                self._restarts -= 1
                self._browser = None
                await self._stop()  # its driver and its folder, with the browser gone
            if self._browser is None:
                try:
                    self._browser = await self._launch()
                except PageUnreadable as error:
                    self._unstartable = str(error)
                    raise
        return self._browser

    async def _launch(self) -> Any:
        from playwright.async_api import Error as PlaywrightError
        from playwright.async_api import async_playwright

        self._playwright = await async_playwright().start()
        path = chromium_path()
        self._scratch = tempfile.mkdtemp(prefix="claimledger-")
        try:
            return await self._playwright.chromium.launch(
                executable_path=path,
                args=[*_NO_NETWORK, *_QUIET],
                chromium_sandbox=sandboxed(),
                env={**os.environ, "TMPDIR": self._scratch},
            )
        except BaseException as error:  # a deadline's cancellation too: nothing left behind
            await self._stop()
            if not isinstance(error, PlaywrightError):
                raise
            where = path or "Playwright's own Chromium"
            hint = (
                f"; if its sandbox cannot start here, set {SANDBOX_VARIABLE}=1"
                if sandboxed()
                else ""
            )
            raise PageUnreadable(
                f"no browser could be started ({where}: {_first_line(str(error))}); install "
                f"chromium, or name one in ${CHROMIUM_VARIABLE}{hint}"
            ) from None

    async def _answer(self, route: Any, html: str, fetch: Fetcher, budget: _Budget) -> None:
        """Answer one request of the page: the document from what was fetched already,
        what can build its text through the fetcher, nothing else."""
        request = route.request
        if request.is_navigation_request() and request.frame.parent_frame is None:
            asked = _without_fragment(request.url)
            budget.address = budget.address or asked  # the first is `goto` itself
            if asked == budget.address:
                await route.fulfill(status=200, content_type=DOCUMENT_TYPE, body=html)
            else:  # the page sends the reader elsewhere: not this page's text
                budget.left_for = budget.left_for or asked
                await route.abort("blockedbyclient")
            return
        wanted = request.method == "GET" and request.resource_type not in NOT_TEXT
        if not wanted or not is_web_url(request.url) or budget.spent:
            await route.abort("blockedbyclient")
            return
        budget.requests -= 1
        outcome, reached = await fetch(request.url)
        body = outcome.body if outcome.body is not None else b""
        budget.bytes -= len(body)
        if outcome.http_status is None or budget.bytes < 0:
            await route.abort("blockedbyclient")  # refused, unreachable, or over the cap
            return
        if not _readable_by(request, reached, outcome.allowed_origin):
            await route.abort("blockedbyclient")  # a reader's browser would not let it read
            return
        headers = {"content-type": outcome.content_type or "application/octet-stream"}
        if outcome.allowed_origin is not None:
            headers["access-control-allow-origin"] = outcome.allowed_origin
        await route.fulfill(status=outcome.http_status, headers=headers, body=body)


async def _closed_soon(closable: Any) -> None:
    """Close a page's context or the browser, waiting at most `CLOSING`: a renderer busy
    with a page's script (cut at its deadline) may hold a graceful close for many seconds."""
    with contextlib.suppress(TimeoutError):
        async with asyncio.timeout(CLOSING):
            await closable.close()


def _check_still_the_page(budget: _Budget, shown: str) -> None:
    """Raise PageUnreadable when the document read is not the page's own: its script sent
    the reader elsewhere (what is left is an error page), or replaced the page with a
    document no request fetched (`blob:`, `about:blank`), whose words are not the page's.
    Checked once the text is taken: a navigation asked for while it was taken counts."""
    if budget.left_for is not None:
        raise PageUnreadable(
            f"its script sends the reader to {budget.left_for}, which is not followed: "
            "quote that page as a source of its own"
        )
    if not is_web_url(shown):
        scheme = shown.split(":", 1)[0]
        raise PageUnreadable(
            f"its script replaced the page with another document ({scheme}:), whose words "
            "are not the page's"
        )


def _readable_by(request: Any, reached: str, allowed: str | None) -> bool:
    """Would a browser let the script that made `request` read the answer fetched for it,
    which ended at `reached`? Chromium names the script's origin (`Origin`) only when it
    asks another; a script's request to its own origin that the fetcher followed to
    another was handed over as its own origin's answer, words a reader's browser keeps
    from the page unless that answer's Access-Control-Allow-Origin lets it read them. A
    frame's document the fetcher followed to another origin is refused whatever that
    header says: handed over at its own origin's address, the page's script read the other
    site's words out of it as its own, where a reader's browser keeps the frame apart."""
    asking = request.headers.get("origin")
    if asking is None and request.resource_type in READ_BY_SCRIPT:
        asking = exact_origin(request.url)
    if asking is None and request.is_navigation_request():  # a frame's (the page's is not)
        return exact_origin(reached) == exact_origin(request.url)
    if asking is None:
        return True
    return _shared_with(asking, request.url, allowed) and _shared_with(asking, reached, allowed)


def _shared_with(asking: str, url: str, allowed: str | None) -> bool:
    """Would a browser let a script of the origin `asking` read the answer from `url`? Its
    own origin's, or one whose Access-Control-Allow-Origin names it (or `*`). Playwright
    adds that header to an answer it is given without one, which would let the page read
    words a reader's browser never shows it: the reader decides, before it is handed over."""
    origin = exact_origin(asking)  # the header omits a scheme's own port; ours writes it
    if origin is not None and origin == exact_origin(url):
        return True
    return allowed is not None and (
        allowed.strip() in ("*", asking)
        or (origin is not None and exact_origin(allowed.strip()) == origin)
    )


def _navigating(error: Exception) -> bool:
    """Whether `error` is Playwright's word that a navigation replaced the document read."""
    return any(sign in str(error) for sign in _NAVIGATED)


def _text(content: str, selects: tuple[str, ...] = ()) -> str:
    """The text a quote is matched against in the page's HTML, through each of `selects`
    (the reader loaded only where a page is read in the browser: a refresh of unchanged
    pages loads none). A region not there yet, or a selector refused, compares the whole
    page's text: what is read of it is still to come."""
    from claimledger.reading.extract import extract_text

    if selects:
        with contextlib.suppress(PageUnreadable):
            return "\n\f".join(extract_text(content, DOCUMENT_TYPE, select=s) for s in selects)
    return extract_text(content, DOCUMENT_TYPE)


def _without_fragment(url: str) -> str:
    return url.split("#", 1)[0]


_CRASHED = ("Page crashed", "Target crashed")
_CLOSED = ("has been closed", "Connection closed", "Browser closed")
_CALLER = re.compile(r"^(?:[A-Z][A-Za-z]*\.[a-z_]+: )+")
"""Playwright's name for the call that failed (`Page.goto: `), no words of the product's."""


def _in_our_words(message: str, wait_for: str | None) -> str:
    """A failure of the browser's as the user can act on it, in one line: Playwright's
    own wording (`Page.goto: Page crashed`, `BrowserContext.new_page: Target page, context
    or browser has been closed`) names its calls, not what happened to the page."""
    line = _CALLER.sub("", _first_line(message))
    if any(sign in line for sign in _CRASHED):
        return "the page crashed in the browser (perhaps out of memory)"
    if any(sign in line for sign in _CLOSED):
        return "the browser closed while the page was read"
    if wait_for is not None and line.startswith("SyntaxError") and "selector" in line:
        return f"its wait_for {wait_for!r} is not a selector the browser accepts"
    return f"the browser could not read it: {line}"


def _first_line(message: str) -> str:
    return message.strip().splitlines()[0] if message.strip() else "the browser failed"
