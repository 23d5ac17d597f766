"""What adding to the ledger asks before anything is written: that a new claim fits the
ledger and rests on something, that every quote is on every page, and where a moved
source went. The commands that write (`add`, `quote`, `move`) call these, then edit.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from claimledger.errors import InputError
from claimledger.evidence.pageread import check_page, page_title
from claimledger.evidence.relocate import LOST_REASONS
from claimledger.evidence.service import read_pages_once
from claimledger.ledger.edits import set_source_fields
from claimledger.ledger.model import parse, tidied
from claimledger.ledger.vocabulary import CLAIM_ID, Basis, Grade
from claimledger.records import lost_reason
from claimledger.sites import other_publisher
from claimledger.urls import (
    fetch_target,
    has_secrets,
    is_trivial_move,
    line_range_of,
    lower_scheme_and_host,
    page_key,
    permanently_led_to,
    redacted,
    refuse_credentials,
    shown,
    shown_raw,
    was_redacted,
    web_url_problem,
)

if TYPE_CHECKING:
    from claimledger.evidence.refresh import Page
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger, Quote
    from claimledger.records import FetchPolicy, FetchRecord, FetchResult, Relocation
    from claimledger.urls import UrlMap


def refuse_the_checkouts_word(store: EvidenceStore | None, what: str, or_: str = "") -> None:
    """Refuse to write into the ledger `what` only a store that came with the checkout says:
    a planted redirect, search or page's wording would become the user's own words."""
    from claimledger.services.latest import store_made_here

    if not store_made_here(store):
        raise InputError(
            f"the evidence store came with the checkout, so {what} is its word: "
            f"{or_}run `claimledger refresh` into a store of your own"
        )


def where_it_moved(store: EvidenceStore | None, source_id: str, url: str) -> tuple[str, str]:
    """The address the last refresh of `url` ended at, when that is a move (a page is
    there: a redirect that loops, or leads to a page gone, moved it nowhere); else, for a
    page still gone, the page its site's sitemap proposed: its scheme and host in lower
    case, however a server spelt them. With why, in words. Never from a store that came
    with the checkout: a planted redirect or search would be written into the ledger as
    the source's address."""
    refuse_the_checkouts_word(store, f"where source '{source_id}' moved", "give NEW_URL, or ")
    fetch = (store.latest_fetches() if store else {}).get(url)
    search = store.latest_relocations().get(source_id) if store else None
    if fetch is None:
        raise InputError(
            f"source '{source_id}' has not been fetched yet: run `claimledger refresh` or give "
            "NEW_URL"
        )
    if fetch.moved_to is None or _led_nowhere(fetch):
        found, why = _proposed(source_id, url, fetch, search)
        return lower_scheme_and_host(found), why
    if has_secrets(fetch.moved_to) or was_redacted(fetch.moved_to):
        raise InputError(
            f"source '{source_id}' moved to an address with a secret in it, which the store "
            f"keeps redacted ({shown(fetch.moved_to)}): give NEW_URL"
        )
    return lower_scheme_and_host(fetch.moved_to), "followed the redirect the last refresh found"


def _led_nowhere(fetch: FetchRecord) -> bool:
    """Whether the redirects a refresh followed ended on no page: one gone, or a redirect
    refused on the way (a loop, another scheme). One that ended on a page it could not
    read (a `select:` that no longer matches, a damaged PDF) still moved the source there."""
    if lost_reason(fetch) is not None:
        return True
    error = fetch.error or ""
    private = "private or local address" in error  # never an address to write in the ledger
    return fetch.source_status == "refused" and (
        error.startswith(("redirect", "more than")) or private
    )


def _proposed(
    source_id: str, url: str, fetch: FetchRecord, search: Relocation | None
) -> tuple[str, str]:
    """The page a refresh proposed for a source still gone (or emptied), found on its
    site's sitemap carrying its quotes; why there is none, as an InputError, otherwise."""
    lost = lost_reason(fetch) is not None
    if not lost or search is None or search.url != redacted(url) or search.found_at is None:
        why = f"; its site's sitemap: {search.note}" if lost and search and search.note else ""
        raise InputError(
            f"source '{source_id}' did not move at the last refresh ({fetch.source_status}"
            f"{why}): give NEW_URL"
        )
    if has_secrets(search.found_at) or was_redacted(search.found_at):
        raise InputError(
            f"source '{source_id}' was found at an address with a secret in it, which the "
            f"store keeps redacted ({shown(search.found_at)}): give NEW_URL"
        )
    when = f" on {search.recorded_at:%Y-%m-%d}" if search.recorded_at else ""
    gone = LOST_REASONS.get(search.reason, search.reason)
    commit = search.file_commit
    if commit is not None and search.renamed_to is not None:
        return search.found_at, (
            f"{gone} without a redirect; its file became {search.renamed_to} in commit "
            f"{commit.sha[:7]} on {commit.date} (“{commit.subject}”), whose page carries "
            f"{search.found} of {search.total} of its quotes"
        )
    return search.found_at, (
        f"{gone} without a redirect; found on its site's sitemap{when}, carrying "
        f"{search.found} of {search.total} of its quotes"
    )


def unwritable(url: str) -> str | None:
    """Why a ledger cannot hold `url` as a source's address, or None: not a web URL, or
    a space in it (typed, or in a server's Location header), which the ledger's schema
    refuses: said as bad input before the edit, which would stop as an internal error."""
    if (problem := web_url_problem(url)) is not None:
        return problem
    if any(char.isspace() for char in url):
        return "has a space in it, which a source's url cannot hold: write it as %20"
    return None


def refuse_unwritable(option: str, url: str) -> None:
    """Refuse a page to quote that the ledger could not hold, before it is fetched: the
    edit would refuse it only once every page was read, a request for nothing."""
    refuse_credentials(option, url)
    if (problem := unwritable(url)) is not None:
        raise InputError(f"{option} {shown_raw(url)!r} {problem}")


def pages_given(urls: Sequence[str]) -> list[str]:
    """The pages `--url` names for an edit to quote, each refused before anything is read
    if the ledger could not hold it, and kept with its scheme and host in lower case
    (`HTTPS://Docs.Example/` is `https://docs.example/`): the one spelling the ledger and
    the evidence store know a page by."""
    for url in urls:
        refuse_unwritable("--url", url)
    return [lower_scheme_and_host(url) for url in urls]


def new_sources_said(before: Ledger, after: Ledger) -> list[str]:
    """Each source a command added, with the kind and publisher it was given, so that a
    wrong guess is seen and set right (a blog post is not the docs), and that it is read
    in a browser where it is."""
    return [
        f"new source {source.id}: kind {source.kind}, publisher {source.publisher} (set "
        f"either with `claimledger source {source.id} --kind KIND --publisher NAME`)"
        + ("; read in a browser, as now (render: browser)" if source.render == "browser" else "")
        for source in after.sources.values()
        if source.id not in before.sources
    ]


def read_as_verified(text: str, before: Ledger, browser: bool) -> str:
    """The ledger's text with each source an edit of `before` added marked `render:
    browser` where every page was read in a browser (`--browser`): a quote its scripts
    build was verified, and the next refresh, reading the new source as the server sends
    it, found it missing. A source the edit joined is left as it stands."""
    if not browser:
        return text
    after = parse(text)
    for source_id in [name for name in after.sources if name not in before.sources]:
        text = set_source_fields(text, after, source_id, {"render": "browser"})
    return text


def read_otherwise_said(
    before: Ledger, after: Ledger, quotes: Sequence[Quote], browser: bool
) -> list[str]:
    """A warning for each source a quote verified in a browser (`--browser`) joined that
    the ledger reads as the server sends it: its next refresh reads it so, and may find
    missing words only the page's scripts write. Switching it is the author's call (its
    other quotes are read so too)."""
    if not browser:
        return []
    joined = dict.fromkeys(s for quote in quotes for s in quote.sources if s in before.sources)
    return [
        f"warning: {source_id} is read as the server sends it, not in a browser: its next "
        f"refresh may miss words the page's scripts write (`claimledger source {source_id} "
        "--render browser` reads it in a browser)"
        for source_id in joined
        if after.source(source_id).render != "browser"
    ]


@dataclass(frozen=True)
class Verified:
    """The pages every quote was verified on: the address each URL given is recorded at
    (`addresses`, by the URL given), each page's title by that address, and a line for each
    URL recorded at another address than the one given (`said`)."""

    addresses: dict[str, str]
    titles: dict[str, str | None]
    said: list[str]

    def recorded(self, urls: Sequence[str]) -> tuple[str, ...]:
        """The URLs as they are to be written in the ledger."""
        return tuple(self.addresses[url] for url in urls)


def verified_on_pages(
    urls: Sequence[str],
    quotes: Sequence[str],
    policy: FetchPolicy,
    url_map: UrlMap,
    ledger: Ledger | None = None,
    moved: Mapping[PageKey, str] | None = None,
) -> Verified:
    """Read each page once and find every quote on each; nothing may be written unless
    every one is verified (InputError with each page's closest wording otherwise). A page
    the `ledger` has as a source is read as a refresh reads it (through the source's
    `select`, in a browser for `render: browser`): a quote found only as read otherwise
    would be missing at the next refresh. A URL that redirects for good is recorded where
    it leads (`recorded_at`), so that the next refresh does not call the page just added
    moved; one that leads to a source of the ledger is read again as that source is, and so
    is the page a source's own address now redirects to for good (`moved`: see
    `moved_sources`)."""
    pages = _verified_pages(urls, quotes, policy, url_map, _sources_selects(ledger, urls))
    redirected = _redirected_to(ledger, moved or {}, urls)
    addresses = {url: redirected[url] or recorded_at(ledger, url, pages[url].fetch) for url in urls}
    joined = [new for url, new in addresses.items() if new != url and _has_page(ledger, new)]
    if joined:
        _verified_as_sources(joined, quotes, policy, url_map, ledger)
    titles = {addresses[url]: page_title(pages[url]) for url in urls}
    said = [
        _joined_said(ledger, url, addresses[url])
        if redirected[url]
        else _recorded_said(url, pages[url].fetch, addresses[url])
        for url in urls
    ]
    return Verified(addresses, titles, [line for line in dict.fromkeys(said) if line])


def _verified_as_sources(
    joined: Sequence[str],
    quotes: Sequence[str],
    policy: FetchPolicy,
    url_map: UrlMap,
    ledger: Ledger | None,
) -> None:
    """Each quote verified on the pages given as the ledger's sources there read them (a
    `select`, the browser); InputError naming those sources otherwise: the address that
    failed is theirs, not one the user typed."""
    try:
        _verified_pages(joined, quotes, policy, url_map, _sources_selects(ledger, joined))
    except InputError as error:
        named = dict.fromkeys(ledger.other_source_at(url) for url in joined) if ledger else {}
        sources = ", ".join(name for name in named if name)
        raise InputError(
            f"{error} (the page given is the page of source {sources}, read as that source"
            " reads it: its `select`, or in a browser)"
        ) from None


PageKey = tuple[str, tuple[int, int] | None]
"""A page as `urls.page_key` tells it: its address however spelt, and the lines it names."""


def moved_sources(store: EvidenceStore | None, ledger: Ledger) -> dict[PageKey, str]:
    """The id of each source whose last refresh found it moved for good, by the page
    it moved to: that page, added as a quote's source, is the source, not a second one. A
    page the ledger has as a source is its own, and one on another publisher's site is a
    source of its own (joined, its words would count for the source's publisher); a store
    that came with the checkout says nothing (a planted redirect would join a page to a
    source it is not)."""
    from claimledger.services.latest import store_made_here

    if store is None or not store_made_here(store):
        return {}
    fetches = store.latest_fetches()
    found: dict[PageKey, str] = {}
    for source in ledger.sources.values():
        fetch = fetches.get(source.url)
        if fetch is None or fetch.source_status != "moved" or not fetch.moved_to:
            continue
        if _has_page(ledger, fetch.moved_to) or other_publisher(source.url, fetch.moved_to):
            continue
        found.setdefault(page_key(fetch.moved_to), source.id)
    return found


def _redirected_to(
    ledger: Ledger | None, moved: Mapping[PageKey, str], urls: Sequence[str]
) -> dict[str, str | None]:
    """The address of the source each URL is the new page of (see `moved_sources`), or
    None; a page the ledger has as a source is that source's."""
    if ledger is None:
        return dict.fromkeys(urls)
    return {
        url: None
        if _has_page(ledger, url) or (source_id := moved.get(page_key(url))) is None
        else ledger.source(source_id).url
        for url in urls
    }


def _joined_said(ledger: Ledger | None, url: str, address: str) -> str:
    """The line saying a page was recorded on the source whose address redirects to it."""
    source_id = ledger.other_source_at(address) if ledger is not None else None
    return (
        f"recorded on source {source_id} ({shown(address)}), whose address redirects for good "
        f"to {shown(url)}: adopt it with `claimledger move {source_id}`"
    )


def _verified_pages(
    urls: Sequence[str],
    quotes: Sequence[str],
    policy: FetchPolicy,
    url_map: UrlMap,
    selects: dict[str, str],
) -> dict[str, Page]:
    """Each page read, every quote verified on it; InputError otherwise."""
    pages: dict[str, Page] = read_pages_once(list(urls), policy, url_map, selects=selects)
    problems = []
    for url in urls:
        page = pages[url]
        for quote in quotes:
            found = check_page(quote, page)
            if found is None:
                problems.append(
                    f"{shown(url)}: could not be read "
                    f"({page.fetch.source_status}: {page.fetch.error})"
                )
            elif found.status != "verified":
                closest = f"; closest wording: {found.current!r}" if found.current else ""
                problems.append(f"{shown(url)}: quote {quote!r} is {found.status}{closest}")
    if problems:
        raise InputError("nothing written: " + " | ".join(dict.fromkeys(problems)))
    return pages


def recorded_at(ledger: Ledger | None, url: str, fetch: FetchResult) -> str:
    """The address a URL verified on is written at: where the permanent redirects at the
    head of its chain lead (the page moved there for good, as a refresh would say at once,
    or to the https spelling a source of the ledger has), with the URL's fragment; else
    the URL as given: a temporary redirect stands in for the page only now, a source of
    the ledger is joined as it stands, an address with a secret in it is not written into
    a ledger people publish, and one the ledger would refuse (a server's Location may hold
    a space) is not written at all."""
    moved = fetch.moved_to
    if fetch.source_status != "moved" or moved is None:
        moved = _tidier_source(ledger, url, fetch)
    if moved is None or has_secrets(moved):
        return url
    if unwritable(moved) is not None:
        return url
    if _has_page(ledger, url):
        return url
    fragment = urlsplit(url).fragment
    if fragment and line_range_of(fragment) is not None:  # the ledger's word, kept
        return f"{moved.partition('#')[0]}#{fragment}"
    return moved if not fragment or urlsplit(moved).fragment else f"{moved}#{fragment}"


def _tidier_source(ledger: Ledger | None, url: str, fetch: FetchResult) -> str | None:
    """The address of the ledger's source that `url` redirects to for good when that is
    only a tidier spelling of it (http upgraded to https): one page, so that source, not a
    second one at the spelling given; None otherwise."""
    led = permanently_led_to(fetch.redirects, fetch.final_url)
    if led is None or not is_trivial_move(fetch_target(url)[0], led):
        return None
    return led if _has_page(ledger, led) else None


def _recorded_said(url: str, fetch: FetchResult, address: str) -> str:
    """The line saying where a URL that redirects for good was recorded, naming another
    publisher's site as a refresh does; or why it was not ("" when nothing is to say)."""
    if address != url:
        elsewhere = other_publisher(url, address)
        site = f", another publisher's site ({elsewhere})" if elsewhere else ""
        return f"recorded at {shown(address)}: {shown(url)} redirects there for good{site}"
    if fetch.source_status == "moved" and fetch.moved_to and has_secrets(fetch.moved_to):
        return (
            f"recorded at {shown(url)}: it redirects for good to an address with a secret in "
            f"it ({shown(fetch.moved_to)}), which the ledger does not keep"
        )
    return ""


def _has_page(ledger: Ledger | None, url: str) -> bool:
    """Whether the ledger has a source for the page `url` names (however it is spelled)."""
    return ledger is not None and ledger.other_source_at(url) is not None


def _sources_selects(ledger: Ledger | None, urls: Sequence[str]) -> dict[str, str]:
    """The `select` of the ledger's source for each of `urls` that is one of its pages
    (whatever its fragment or trailing slash, as `edits` finds it)."""
    if ledger is None:
        return {}
    selects = {
        page_key(source.url): source.select
        for source in ledger.sources.values()
        if source.select is not None
    }
    return {url: selects[page_key(url)] for url in urls if page_key(url) in selects}


def check_new_claim(
    ledger: Ledger, claim_id: str, section: str | None, premises: list[str]
) -> None:
    """Refuse what the ledger would refuse, before fetching anything."""
    if claim_id in ledger.claim_ids:
        raise InputError(f"claim '{claim_id}' already exists")
    if not CLAIM_ID.fullmatch(claim_id):
        raise InputError(
            f"{claim_id!r} must be a lowercase id (letters a-z, digits, '.', '_', '-')"
        )
    if section is not None:
        ledger.require_section(section)
    for premise in premises:
        ledger.claim(premise)


def worded(name: str, value: str | None) -> str | None:
    """An option's words as `edit` keeps them (a title or a facet on one line, prose with
    its lines tidied), or None when it was not given: words of spaces alone are refused,
    as `edit` refuses them, not written as a blank heading."""
    if value is None:
        return None
    if not value.strip():
        raise InputError(f"--{name} must not be empty")
    return tidied(name, value)


def default_grade(basis: Basis) -> Grade:
    """The grade of a new claim given none: DEMONSTRATED for quotes, verified on their pages
    as it is added; none for a premise's consequence or a judgement, whose grade only the
    author can say (a default would rate their inference as fact)."""
    if basis is not Basis.QUOTES:
        raise InputError(
            f"--basis {basis.value} needs --grade: only you can say how sure it is "
            f"(one of {', '.join(grade.value for grade in Grade)})"
        )
    return Grade.DEMONSTRATED


def check_evidence(urls: list[str], quotes: list[str], basis: Basis, premises: list[str]) -> None:
    """A claim rests on something: quotes found on pages, its premises, or a judgement."""
    if bool(urls) != bool(quotes):
        given, missing = ("--url", "--quote") if urls else ("--quote", "--url")
        raise InputError(f"{given} needs {missing}: a quote is words on a page")
    if any(not quote.strip() for quote in quotes):  # as `quote` refuses one, unfetched
        raise InputError("--quote must not be empty: a quote is words on a page")
    if basis is Basis.QUOTES and not quotes:
        raise InputError(
            "a claim with no --quote needs --basis premises (with --depends-on) or judgement"
        )
    spaced = [" ".join(quote.split()) for quote in quotes]  # spacing aside, as pages are read
    twice = [quote for quote, words in zip(quotes, spaced, strict=True) if spaced.count(words) > 1]
    if twice:  # as `quote` refuses a quote the claim already has
        raise InputError(f"--quote {twice[0]!r} is given twice: a claim quotes words once")
    if basis is Basis.PREMISES and not premises:
        raise InputError("--basis premises needs --depends-on: the claims it rests on")
    if basis is Basis.ARTIFACT:
        raise InputError(
            "--basis artifact needs the artifact's command and expected output: add the "
            "claim on judgement, then write its `artifact:` in the ledger"
        )
