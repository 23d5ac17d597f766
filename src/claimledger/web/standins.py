"""Where a redirect ends when it ends at no page of its own: a page that only stands in for
the one asked (a sign-in page, the site's home page or the section's, a web archive's
copy), or the home page a removed page now sends its readers to. Such a page's words are
no evidence of the asked page's. Pure.
"""

from __future__ import annotations

import urllib.parse
from urllib.parse import SplitResult

from claimledger.sites import (
    archived_original,
    asks_a_capture,
    on_wayback,
    on_web_archive,
    publisher_of,
)
from claimledger.urls import split


def sent_home(url: str, moved_to: str) -> bool:
    """A page's address that now leads to its site's home page: not a move but a page
    removed (a "soft 404"), whose words the home page does not carry."""
    old, new = split(url), split(moved_to)
    if old is None or new is None or old.hostname != new.hostname:
        return False
    return new.path in ("", "/") and not new.query and old.path not in ("", "/")


ARCHIVED = "a web archive's copy of it"
ARCHIVE_PAGE = "a web archive's page of its own"


def sent_to_archive(url: str, final_url: str) -> str | None:
    """Where on the Wayback Machine a request for a live page ended, by any redirect: at
    its capture (`ARCHIVED`: a retired page its site points at the copy), whose words are
    of the day it was taken, or at any other page of the archive's (`ARCHIVE_PAGE`: the
    calendar of the page's captures, the archive's home page), whose words are the
    archive's; either is no evidence of the page as it stands. None where it ended
    elsewhere, or where the address asked is the archive's own (a capture cited as a
    source, Save Page Now), or a capture asked of a mirror of it (`asks_a_capture`:
    `url` is the address `--map` sends it to)."""
    if not on_wayback(final_url) or on_web_archive(url) or asks_a_capture(url):
        return None
    return ARCHIVED if archived_original(final_url) is not None else ARCHIVE_PAGE


SIGN_IN = "a sign-in page"
_SIGN_IN_PAGES = frozenset({"login", "log-in", "logon", "signin", "sign-in", "sign_in"})
"""The last path segments of a page where a site asks its reader to sign in."""


def stand_in_page(url: str, final_url: str) -> str | None:
    """What a page a temporary redirect ended at is, when it stands in for the page asked
    rather than being it: a sign-in page (its query carries the address asked, to send the
    reader back once signed in, or it is named so while the page asked is not: a docs page
    on a `login` command stays itself under a version's prefix), or a page above the one
    asked (the site's home page, or its section's; `index.html` is its folder's page).
    None for any other page, either page by its folder's address when it is the folder's
    index page. Such a page's words are no evidence of the asked page's: a quote not on it
    is not missing."""
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
