"""Where a redirect ends when it ends at no page of its own: a page that only stands in for
the one asked (a sign-in page, the site's home page or the section's), or the landing page
a removed page now sends its readers to for good (the home page, the section's, a docs
version's root). Such a page's words are no evidence of the asked page's. Pure.
"""

from __future__ import annotations

import re
import urllib.parse
from urllib.parse import SplitResult

from claimledger.urls import publisher_of, split


def sent_home(url: str, moved_to: str) -> str | None:
    """What the page a permanent redirect leads to is, when it is a landing page rather
    than the page asked at a new address: the site's home page, its section's (`/docs/`
    for `/docs/guide/page`), or the root of a version of its docs (`/docs/v3/`). Not a
    move but a page removed (a "soft 404"), whose words the landing page does not carry;
    None for any other page."""
    landing = stand_in_page(url, moved_to)
    if landing is not None and landing != SIGN_IN:
        return landing
    return "the root of a version of its docs" if _version_root(url, moved_to) else None


_VERSION = re.compile(r"v\d+(?:\.\d+)*|\d+(?:\.\d+)+|latest|stable|current|next|dev|main|master")
"""A path segment that names a version of a site's docs (`v3`, `2.1`, `latest`); a bare
number (`/3`, `/2021/`) names a page or an archive as often, and is none."""


def _version_root(url: str, moved_to: str) -> bool:
    """Does `moved_to` name the root of a version of the docs above the page asked (from
    `/docs/v2/guide/page` to `/docs/v3/` or `/en/latest/`), on the same host?"""
    old, new = split(url), split(moved_to)
    if old is None or new is None or old.hostname != new.hostname or new.query:
        return False
    asked = [part for part in old.path.split("/") if part]
    root = [part for part in _folder_page(new.path).split("/") if part]
    return (
        0 < len(root) < len(asked)
        and root[:-1] == asked[: len(root) - 1]
        and _VERSION.fullmatch(root[-1].lower()) is not None
    )


SIGN_IN = "a sign-in page"
_SIGN_IN_PAGES = frozenset({"login", "log-in", "logon", "signin", "sign-in", "sign_in"})
"""The last path segments of a page where a site asks its reader to sign in."""


def stand_in_page(url: str, final_url: str) -> str | None:
    """What a page a temporary redirect ended at is, when it stands in for the page asked
    rather than being it: a sign-in page (its query carries the address asked, to send the
    reader back once signed in, or it is named so while the page asked is not: a docs page
    on a `login` command stays itself under a version's prefix), or a page above the one
    asked (the site's home page, or its section's; `index.html` is its folder's page).
    None for any other page. Such a page's words are no evidence of the asked page's: a
    quote not on it is not missing."""
    old, new = split(url), split(final_url)
    if old is None or new is None:
        return None
    if _named_sign_in(new.path) and not _named_sign_in(old.path):
        return SIGN_IN
    if _sends_back(old, new.query):
        return SIGN_IN
    above, asked = _folder_page(new.path).rstrip("/"), _folder_page(old.path).rstrip("/")
    if not above and asked and publisher_of(url) == publisher_of(final_url):
        return "the site's home page"  # any of its hosts', whatever its query (`?lang=en`)
    same_host = (old.hostname or "").lower() == (new.hostname or "").lower()
    if same_host and not new.query and above and asked.startswith(f"{above}/"):
        return "a page above the one asked"
    return None


def _named_sign_in(path: str) -> bool:
    segments = [part.lower() for part in path.split("/") if part]
    return bool(segments) and segments[-1] in _SIGN_IN_PAGES


def _folder_page(path: str) -> str:
    """A folder's index page as its folder (`/docs/index.html` is `/docs/`)."""
    head, _, last = path.rpartition("/")
    return f"{head}/" if last.lower() in ("index.html", "index.htm", "index") else path


def _sends_back(asked: SplitResult, query: str) -> bool:
    """Does a query carry the address asked (`?next=/docs/page`), as a sign-in or a consent
    page's does, to send the reader back to it?"""
    if asked.path in ("", "/"):
        return False
    for _, value in urllib.parse.parse_qsl(query):
        parts = split(value)
        if parts is not None and parts.path.rstrip("/") == asked.path.rstrip("/"):
            return True
    return False
