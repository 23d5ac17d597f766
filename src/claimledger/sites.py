"""Whose a page is, read from its address: its publisher (the registrable domain, or a
code host's owner; a web archive's capture, the page it copies), and whether a page read
for a source is another publisher's.
"""

from __future__ import annotations

import functools
import re
from typing import TYPE_CHECKING
from urllib.parse import urlunsplit

from claimledger.addresses import address_named, names_an_address
from claimledger.urls import ascii_host, fetch_target, split

if TYPE_CHECKING:
    from publicsuffixlist import PublicSuffixList


def other_publisher(url: str, read_at: str | None) -> str | None:
    """The publisher of `read_at`, the page read for a source at `url`, when it is another
    than the source's address names (a redirect or a move to another registrable domain):
    its words are that site's. None when it is the same, counting the address a source is
    fetched at as its own (a GitHub `blob/` page is read as its raw file)."""
    if not read_at:
        return None
    read_by = publisher_of(read_at)
    own = {publisher_of(url), publisher_of(fetch_target(url)[0])}
    return None if read_by in own else read_by


CODE_HOSTS = frozenset({"github.com", "gitlab.com", "bitbucket.org", "codeberg.org"})
"""Hosts where the first path segment, not the domain, names who publishes."""

OWNERS_FILE_HOSTS = {f"{sub}.github.com": "github.com" for sub in ("gist", "raw", "codeload")}
OWNERS_FILE_HOSTS |= {f"{sub}.githubusercontent.com": "github.com" for sub in ("raw", "gist")}
"""Hosts of a code host's owners' raw files, archives and gists, the owner first in the path."""
_OWNER_PAGES = {"github.com": {"orgs", "users", "sponsors"}, "gitlab.com": {"groups", "users"}}
"""Each code host's pages of an owner whose name is the path's second segment."""
PAGES_HOSTS = {"github.io": "github.com", "gitlab.io": "gitlab.com"}
"""Each code host's site for its owners' pages (GitHub Pages, GitLab Pages): the site
`vendor.github.io` is the account `github.com/vendor`'s, whatever the Public Suffix List
says of its cookies."""


def publisher_of(url: str) -> str:
    """Who publishes a page, by default: its registrable domain (Public Suffix List), so a
    vendor's docs., blog. and www. are one publisher, never "independent" by accident; on
    a code host, its owner (github.com/vendor, of its raw files, gists and Pages site,
    vendor.github.io, too; the host's own sites, docs.github.com, the host's); a web
    archive's capture, that page's; an address or a name with no public suffix, as is. A
    host is compared in one spelling (`ascii_host`): its Unicode or Punycode never makes
    two publishers of one."""
    captured = archived_original(url)
    if captured is not None:
        return publisher_of(captured)
    parts = split(url)
    host = ascii_host(parts.hostname or "") if parts is not None else ""
    if not host:
        return "unknown"
    if names_an_address(host):  # one address however written (`127.1`, `2130706433`)
        return str(address_named(host.strip("[]")) or host)
    domain = _suffixes().privatesuffix(host) or host
    owner, _, site = domain.partition(".")
    if site in PAGES_HOSTS:  # an owner's pages are the owner's words, as its repositories are
        return f"{PAGES_HOSTS[site]}/{owner}"
    owned = host in (domain, f"www.{domain}") and domain in CODE_HOSTS
    code_host = OWNERS_FILE_HOSTS.get(host) or (domain if owned else None)
    return _owner_on(code_host, parts.path) if code_host and parts is not None else domain


def _owner_on(code_host: str, path: str) -> str:
    """Who publishes a page of a code host: the owner its path names first, or after an
    owner page's prefix (github.com/orgs/vendor/discussions is vendor's)."""
    segments = path.strip("/").lower().split("/")
    pages = _OWNER_PAGES.get(code_host, set())
    owner = segments[1] if len(segments) > 1 and segments[0] in pages else segments[0]
    return f"{code_host}/{owner}" if owner else code_host


_WAYBACK_HOSTS = frozenset({"web.archive.org", "wayback.archive.org"})
_WAYBACK_CAPTURE = re.compile(r"^/web/\d{1,14}(?:[a-z]{2}_)?/(?P<original>.+)$", re.DOTALL)


def archived_original(url: str) -> str | None:
    """The address a Wayback Machine capture (`https://web.archive.org/web/<timestamp>/
    <original URL>`, with or without a mode such as `id_` after the timestamp) is a copy
    of; None for any other URL. The original keeps its query, which the archive's
    address carries as its own."""
    parts = split(url)
    if parts is None or ascii_host(parts.hostname or "") not in _WAYBACK_HOSTS:
        return None
    path = urlunsplit(("", "", parts.path, parts.query, ""))
    capture = _WAYBACK_CAPTURE.match(path)
    if capture is None:
        return None
    original = capture["original"]
    if not re.match(r"^https?:/", original, re.IGNORECASE):
        original = f"http://{original}"  # the archive also takes the address without one
    return re.sub(r"^(https?:)/+", r"\1//", original, flags=re.IGNORECASE)


def on_wayback(url: str) -> bool:
    """Whether `url` is a page of the Wayback Machine's: a capture, the calendar of a
    page's captures, its home page."""
    parts = split(url)
    return parts is not None and ascii_host(parts.hostname or "") in _WAYBACK_HOSTS


def on_web_archive(url: str) -> bool:
    """Whether `url` is an address of the web archive's own (a capture, Save Page Now, its
    lookups): what it answers there is the archive's to answer."""
    parts = split(url)
    host = ascii_host(parts.hostname or "") if parts is not None else ""
    return host == "archive.org" or host.endswith(".archive.org")


_CAPTURE_IN_PATH = re.compile(r"/web/\d{1,14}(?:[a-z]{2}_)?/https?:/", re.IGNORECASE)


def asks_a_capture(url: str) -> bool:
    """Whether `url` asks for a Wayback Machine capture by its path (`/web/<timestamp>/
    <original URL>`), wherever it is served: at the archive, or at a mirror of it that
    `--map` sends a capture cited as a source to (at its root or below a folder of its
    own), which passes on the archive's own redirect to the capture's exact timestamp.
    The original's scheme is asked for, so a docs page under `/web/2/` is no capture."""
    parts = split(url)
    return parts is not None and _CAPTURE_IN_PATH.search(parts.path) is not None


@functools.cache
def _suffixes() -> PublicSuffixList:
    from publicsuffixlist import PublicSuffixList

    return PublicSuffixList()
