"""Which file of which repository a documentation page is built from, read from the page.

Docusaurus, MkDocs Material, Sphinx themes, Hugo docs themes, GitBook, Mintlify and
Starlight render an "Edit this page" (or "View source", "Edit on GitHub") link to the
page's source file: `https://github.com/OWNER/REPO/edit/BRANCH/PATH` (or `blob/`, and
GitLab's `-/edit/`, `-/blob/`). That link names the repository, the branch and the path.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from urllib.parse import unquote, urljoin, urlsplit

from lxml import html as lxml_html

_LINK_WORDS = re.compile(
    r"edit (?:this )?page|edit on (?:github|gitlab)|view (?:page )?source|"
    r"suggest (?:an )?edits?|improve this (?:page|doc)",
    re.IGNORECASE,
)
_GITHUB = re.compile(r"^/(?P<repo>[^/]+/[^/]+)/(?:edit|blob)/(?P<ref>[^/]+)/(?P<path>.+)$")
_GITLAB = re.compile(r"^/(?P<repo>.+?)/-/(?:edit|blob)/(?P<ref>[^/]+)/(?P<path>.+)$")


@dataclass(frozen=True)
class SourceFile:
    repo: str
    """The repository's https address, as git clones it."""
    ref: str
    path: str


_FILE_LINK_PARTS = ("/edit/", "/blob/")
"""What every address `parse_file_link` reads has in it: a page without either has no
edit link, and is not parsed again to look (a page can hold a thousand links)."""


def source_file_of(page: str, page_url: str) -> SourceFile | None:
    """The source file the page's edit link names, or None when it has none."""
    if not any(part in page for part in _FILE_LINK_PARTS):
        return None
    try:
        root = lxml_html.fromstring(page)
    except (ValueError, lxml_html.etree.ParserError):
        return None
    for link in root.iter("a"):
        href = link.get("href") or ""
        if not any(part in href for part in _FILE_LINK_PARTS):
            continue
        words = (
            " ".join("".join(str(t) for t in link.itertext()).split()) or link.get("title") or ""
        )
        label = f"{words} {link.get('aria-label') or ''}"
        try:
            found = parse_file_link(urljoin(page_url, href))
        except ValueError:  # a host with an unclosed "[": no address, so no file named
            continue
        if found is not None and (_LINK_WORDS.search(label) or "/edit/" in href):
            return found
    return None


def parse_file_link(url: str) -> SourceFile | None:
    """A GitHub or GitLab link to a file (to edit or to view) as its repository, branch
    and path; None for any other address (one that is none: an unclosed "[")."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return None
    if parts.scheme != "https" or not parts.hostname:
        return None
    path = unquote(parts.path)
    host = parts.hostname.lower()
    pattern = _GITHUB if host == "github.com" else _GITLAB if "gitlab" in host else None
    found = pattern.match(path) if pattern is not None else None
    if found is None or found["ref"].startswith("-"):
        return None  # a branch named like one of git's options is none a page's file is on
    return SourceFile(f"https://{host}/{found['repo']}.git", found["ref"], found["path"])
