"""Reading a fetched page: the text a reader sees on it, and where each quote stands there.

The extractor and the matcher work here, and are loaded only when a page has a body to
read or a quote to locate: a refresh whose every page answers 304 with its verdicts
carried over (`refresh._check_page`) loads neither. Pure, like the refresh's readings:
any process can read a page.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from claimledger.errors import PageUnreadable, StoreDamagedError
from claimledger.evidence.refresh import Page, unreadable
from claimledger.meanings import REWRITTEN_IN_PLACE
from claimledger.reading.decoding import media_type_of
from claimledger.reading.extract import extract_text, is_html, narrow_lines, text_kind
from claimledger.reading.match import (
    DEFAULT_THRESHOLDS,
    Context,
    FoundMissing,
    Match,
    PreparedText,
    TextKind,
    locate,
    prepare,
)
from claimledger.reading.match.verdict import known_by_place_only
from claimledger.reading.pagehead import head_links
from claimledger.reading.pdf import is_pdf
from claimledger.reading.sections import Heading, heading_above, html_headings, section_lines
from claimledger.recipes import recipe
from claimledger.records import DEFAULT_POLICY

if TYPE_CHECKING:
    from claimledger.evidence.refresh import QuoteJob, Stored
    from claimledger.records import CheckRecord, FetchResult


def read_page(
    fetched: FetchResult, select: str | None = None, *, deadline: float = DEFAULT_POLICY.deadline
) -> Page:
    """The text a reader sees on a fetched page, narrowed to its #L anchor if it has one.

    A page whose text cannot be extracted becomes `unreadable`, with the reason; so does
    a page with no text a reader sees (an empty page, an alias page, boilerplate only),
    which is no evidence that a quote is gone. An HTML page read through a selector is
    read within what its URL's `deadline` left (`budget.bounded`): one that would take
    longer is unreadable, "took too long to read"; so is a PDF, read so whatever its source
    selects.
    """
    if fetched.text is None:
        return Page(fetched, None, None, recipe(select))
    whole = None
    try:
        text = _extracted(fetched, select, deadline)
        if fetched.line_range is not None:
            whole, text = text, narrow_lines(text, *fetched.line_range)
    except PageUnreadable as error:
        return unreadable(fetched, str(error), select)
    if not _WORD.search(text) and not (whole and _WORD.search(whole)):
        lines = fetched.line_range
        where = f"lines L{lines[0]}-L{lines[1]}" if lines else "the page"
        why = f"no content: {where} holds no text a reader sees" + _built_by_script(fetched)
        return unreadable(fetched, why, select)
    said = _says_it_is_not_there(fetched, text) if select is None and whole is None else None
    if said is not None:
        return unreadable(fetched, f"an error page: it says “{said}” (HTTP 200)", select)
    return Page(fetched, text, None, recipe(select), whole)


_WORD = re.compile(r"\w")
_NOT_THERE = re.compile(
    r"^\W*(?:error\W*)?404\b|\b(?:page|resource|document|file)\s+(?:was\s+)?not\s+found\b"
    r"|^\W*not\s+found\W*$",
    re.IGNORECASE,
)
ERROR_PAGE_TEXT = 400
"""The characters past which a page is never taken for an error page: one is a line or
two; a page of the docs about 404s says much more. Only a whole page is weighed so: one
read through a selector or a #L anchor is short by design."""
ERROR_HEADING = 60
"""The characters past which a first line is a sentence of the page, not its heading."""


def _says_it_is_not_there(fetched: FetchResult, text: str) -> str | None:
    """What a short HTML page answered 200 says of itself when it says it is not there
    (`404 Not Found`, `Page not found`: a soft 404, a site's way of saying a page is
    gone without its status), by its title or its first line; else None. Its words are
    no evidence that a quote is gone, as a 404 is none that it moved."""
    if len(text) > ERROR_PAGE_TEXT or not is_html(fetched.content_type or "", fetched.text or ""):
        return None
    first = text.strip().split("\n", 1)[0]
    heading = first if len(first) <= ERROR_HEADING else None  # a heading, not a sentence
    for said in (head_links(fetched.text or "").title, heading):
        if said and _NOT_THERE.search(said.strip()):
            return said.strip()
    return None


_SCRIPT = re.compile(rb"<script\b", re.IGNORECASE)


def _built_by_script(fetched: FetchResult) -> str:
    """Why an HTML page with no text may still have some: scripts that build it in the
    reader's browser (a single-page app's shell), and the way to read it so."""
    if fetched.rendered:  # read with --browser already
        return " even once its scripts ran (text in a shadow root or a frame is not read)"
    body = (fetched.text or "").encode("utf-8", "replace")
    if not is_html(fetched.content_type or "", fetched.text or "") or not _SCRIPT.search(body):
        return ""
    return (
        " until its scripts run (it looks built by JavaScript): read it with --browser, or "
        "set `render: browser` on its source"
    )


LARGE_PAGE = 256 * 1024
"""The characters past which a page is read in a process of its own: libxml2 weighs each
of a tag's attributes against all before it, so one tag of 100,000 attributes (a page
of 900 KB) keeps its parser busy for minutes, and no cheap look at the page can tell
(an attribute's value may hold `<` and `>`). Below it, the same costs half a second."""


def _extracted(fetched: FetchResult, select: str | None, deadline: float) -> str:
    """The page's text; through `select`, from a PDF, or from a page past `LARGE_PAGE`
    (each of whose parsers a hostile file can keep busy), in a process of its own under
    a CPU budget."""
    body, content_type = fetched.text or "", fetched.content_type or ""
    pdf = is_pdf(media_type_of(content_type), body)
    small = len(body) <= LARGE_PAGE
    if not pdf and small and (select is None or not is_html(content_type, body)):
        return extract_text(body, content_type, select=select)
    from claimledger.evidence.budget import bounded, read_budget

    budget = read_budget(deadline, fetched.elapsed)
    return bounded(budget, extract_text, body, content_type, select=select)


def kind_of(page: Page) -> TextKind:
    """How the matcher reads the page's text: prose, raw markdown, or source code."""
    return text_kind(page.fetch.content_type or "", page.fetch.final_url)


def prepared(page: Page) -> PreparedText | None:
    """The text ready for `locate`, or None when the page could not be read."""
    return None if page.text is None else prepare(page.text, kind=kind_of(page))


def check_page(quote: str, page: Page) -> Match | None:
    """Where the quote stands on a page that was read; None when it could not be read."""
    text = prepared(page)
    return None if text is None else locate(quote, text)


_NAMES_AN_ADDRESS = re.compile(r"\b[a-z][a-z0-9+.-]*://|\bwww\.", re.IGNORECASE)
"""What makes a title read as a web address (`https://bank.example/`, `www.bank.example`)."""


def page_title(page: Page) -> str | None:
    """The page's own <title>, for a source `add` creates; None for one that names a web
    address: the report shows a source's title as the text of its link, and a page must not
    make that link read as one to another address than it goes to."""
    body, media = page.fetch.text, (page.fetch.content_type or "").lower()
    title = head_links(body).title if body is not None and "html" in media else None
    if title is None or _NAMES_AN_ADDRESS.search(title):
        return None
    return title_cut(title)


def title_cut(title: str) -> str:
    """The title, or its first `TITLE_AT_MOST` characters' whole words, marked cut."""
    if len(title) <= TITLE_AT_MOST:
        return title
    return title[: TITLE_AT_MOST + 1].rsplit(" ", 1)[0].rstrip() + "…"


TITLE_AT_MOST = 200
"""The longest page title a new source takes as it is: a page's head may hold a title of
any length (140 KB went whole into claims.yaml), shown on every line the
source is named on; a longer one is cut at a word, and marked so."""


class Locating:
    """The quotes of one page located in turn: its text prepared once for all of them, and
    each earlier snapshot a quote was last checked on prepared once too."""

    def __init__(self, page: Page, earlier: Stored) -> None:
        assert page.text is not None
        self.page = page
        self.text = page.text
        self.kind = kind_of(page)
        self.earlier = earlier
        self._prepared: PreparedText | None = None
        self._as_read: dict[str, PreparedText | None] = {}

    @property
    def prepared(self) -> PreparedText:
        if self._prepared is None:
            self._prepared = prepare(self.text, kind=self.kind)
        return self._prepared

    def find(self, job: QuoteJob, before: CheckRecord | None) -> tuple[Match, str | None]:
        """Where the quote stands: looked for first where the ledger places it (the lines
        its #L anchor names, the section under its heading), then on the whole page. Found
        verbatim elsewhere, it is verified, moved within the page (and where it is now);
        otherwise the verdict at its place stands."""
        page, text, whole = self.page, self.text, self.prepared
        context, was = _context(before), self._as_read_at(before)
        last_found = before.current if before is not None and before.status == "drifted" else None
        was_missing = _missing_by_this_reading(before, job, page.recipe)
        headings = _headings(page) if job.under else []
        markdown = not _is_html_page(page)
        place, level = whole, 6
        if job.under:
            section = section_lines(text, job.under, headings, markdown=markdown)
            if section is None:
                found = locate(
                    job.quote_text,
                    whole,
                    context=context,
                    previous=was,
                    last_found=last_found,
                    was_missing=was_missing,
                )
                gone = f"no heading “{job.under}” on the page any more"
                return found, gone if found.status == "verified" else None
            lines = text.split("\n")
            place = prepare("\n".join(lines[section[0] : section[1]]), kind=self.kind)
            level = section[2]
        found = locate(
            job.quote_text,
            place,
            context=context,
            previous=was,
            align=not job.under,
            last_found=last_found,
            was_missing=was_missing,
        )
        if job.under and found.status != "verified":
            elsewhere = locate(job.quote_text, whole, previous=was)
            if elsewhere.status == "verified" and elsewhere.start is not None:
                now_under = heading_above(text, elsewhere.start, headings, level, markdown=markdown)
                return (
                    elsewhere,
                    f"now under “{now_under}”" if now_under else "no longer under its heading",
                )
        if page.whole is not None and found.status != "verified":
            elsewhere = locate(job.quote_text, prepare(page.whole, kind=self.kind), previous=was)
            if elsewhere.status == "verified" and elsewhere.start is not None and elsewhere.end:
                first = page.whole.count("\n", 0, elsewhere.start) + 1
                last = first + page.whole.count("\n", elsewhere.start, elsewhere.end)
                return (
                    elsewhere,
                    f"now at lines L{first}-L{last}" if last > first else f"now at line L{first}",
                )
        return _as_placed_before(found, before), None

    def _as_read_at(self, before: CheckRecord | None) -> PreparedText | None:
        """The page as it read at the quote's last check (read once per snapshot): a
        passage already on it beside the quote is a sibling of the quote, never its
        successor."""
        digest = before.snapshot_hash if before is not None else None
        if digest is None:
            return None
        if digest not in self._as_read:
            try:
                text = prepare(self.earlier.snapshot_text(digest), kind=self.kind)
            except (KeyError, StoreDamagedError):  # only a help to the matcher: go without
                text = None
            self._as_read[digest] = text
        return self._as_read[digest]


def _as_placed_before(found: Match, before: CheckRecord | None) -> Match:
    """A successor known only by where the quote stood stays so while no passage found is
    alike enough to pass as the quote reworded on its words: the next read finds it at
    the neighbourhood recorded for it, which says no more of whose rewording it is."""
    if before is None or REWRITTEN_IN_PLACE not in before.change_kinds:
        return found
    if found.status == "drifted" and found.similarity < DEFAULT_THRESHOLDS.elsewhere:
        return known_by_place_only(found)
    return found


def _missing_by_this_reading(
    before: CheckRecord | None, job: QuoteJob, how: str
) -> FoundMissing | None:
    """The quote's last check, when it found the quote missing on the whole page at this
    address, as this matcher reads it (the same extractor, matcher and selection): what
    stood on the page then was weighed and set aside. A verdict of another version, on
    another address, or on a section alone (a quote placed under a heading) is weighed
    again; so is one whose page as read the store no longer holds (nothing to tell news
    from what stood there)."""
    if before is None or before.status != "missing" or job.under:
        return None
    if before.recipe != how or before.url != job.url:
        return None
    return FoundMissing(before.closest)


def _headings(page: Page) -> list[Heading]:
    """The page's headings, for a quote placed under one (HTML's h1-h6; Markdown's #s
    are read from the text itself)."""
    body = page.fetch.text
    return html_headings(body) if body is not None and _is_html_page(page) else []


def _is_html_page(page: Page) -> bool:
    """Is the page HTML, its headings its h1-h6 (a `# ` line of its text is a `<pre>`'s)?"""
    return "html" in (page.fetch.content_type or "").lower()


def _context(check: CheckRecord | None) -> Context | None:
    """Where the quote was last found, so a repeated sentence is found in the same place."""
    if check is None or (check.context_before is None and check.context_after is None):
        return None
    return Context(check.context_before or "", check.context_after or "")
