"""A site's sitemaps, read: what `relocate` looks among for a page that moved without a
redirect. A sitemap file lists pages (a `urlset`) or more sitemaps (an index); `robots.txt`
names them, or they sit where sites keep them. Pure: nothing here fetches.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

from claimledger.reading.decoding import Inflater
from claimledger.urls import (
    DEFAULT_PORTS,
    ascii_host,
    is_web_url,
    lower_scheme_and_host,
    origin,
)

MAX_SITEMAP_ENTRIES = 50_000
"""What one sitemap file may list (the protocol's own limit); the rest is not read."""


@dataclass(frozen=True)
class Sitemap:
    """What one sitemap file lists: pages (a `urlset`), or more sitemaps (an index)."""

    pages: tuple[str, ...] = ()
    sitemaps: tuple[str, ...] = ()
    truncated: bool = False
    problem: str | None = None
    """Why nothing could be read from it (not XML, not a sitemap), if so."""


_GZIP = b"\x1f\x8b"


def gunzip(data: bytes, cap: int) -> bytes:
    """A gzipped sitemap file (`.xml.gz`) as its XML, under the decompression cap (a small
    bomb stops there); anything else as it is. PageUnreadable when it is broken or too big."""
    if not data.startswith(_GZIP):
        return data
    inflater = Inflater("gzip", cap)
    return inflater.feed(data) + inflater.finish()


def parse_sitemap(data: bytes, *, limit: int = MAX_SITEMAP_ENTRIES) -> Sitemap:
    """The `<loc>` of each `<url>` of a `urlset`, or of each `<sitemap>` of a
    `sitemapindex`, in any namespace (or none), at most `limit` of them, each with its
    scheme and host in lower case, as every address is kept (a `--map` prefix matches it).

    Junk is tolerated: a broken file yields what a recovering parser can read of it, and a
    plain-text sitemap (one URL a line) is read too. No entity is expanded and nothing is
    fetched while parsing, so a hostile file cannot reach out or blow up. A UTF-8 byte
    order mark, which many sites' generators write, is no text of the file.
    """
    from lxml import etree

    text = data.removeprefix(codecs.BOM_UTF8).lstrip()
    if not text:
        return Sitemap(problem="empty")
    if not text.startswith(b"<"):
        return _text_sitemap(text, limit)
    parser = etree.XMLParser(
        recover=True, resolve_entities=False, no_network=True, remove_comments=True
    )
    try:
        root = etree.fromstring(text, parser)
    except etree.XMLSyntaxError as error:
        return Sitemap(problem=f"not XML ({error})")
    if root is None or not isinstance(root.tag, str):
        return Sitemap(problem="not XML")
    kind = etree.QName(root).localname
    entry = {"urlset": "url", "sitemapindex": "sitemap"}.get(kind)
    if entry is None:
        return Sitemap(problem=f"not a sitemap (its root is <{kind}>)")
    locs: list[str] = []
    truncated = False
    for child in root.iter():  # not only the root's children: a broken file nests them
        if not isinstance(child.tag, str) or etree.QName(child).localname != entry:
            continue
        loc = next(
            (
                (part.text or "").strip()
                for part in child.iterchildren()
                if isinstance(part.tag, str) and etree.QName(part).localname == "loc"
            ),
            "",
        )
        if not is_web_url(loc):
            continue
        if len(locs) >= limit:
            truncated = True
            break
        locs.append(lower_scheme_and_host(loc))
    if entry == "url":
        return Sitemap(pages=tuple(locs), truncated=truncated)
    return Sitemap(sitemaps=tuple(locs), truncated=truncated)


def _text_sitemap(data: bytes, limit: int) -> Sitemap:
    lines = data.decode("utf-8", errors="replace").split()
    urls = [lower_scheme_and_host(line) for line in lines if is_web_url(line)]
    if not urls:
        return Sitemap(problem="not a sitemap (neither XML nor a list of URLs)")
    return Sitemap(pages=tuple(urls[:limit]), truncated=len(urls) > limit)


_SITEMAP_LINE = re.compile(r"^[ \t]*sitemap[ \t]*:[ \t]*(\S+)", re.IGNORECASE | re.MULTILINE)


def robots_sitemaps(text: str) -> list[str]:
    """The `Sitemap:` lines of a robots.txt, in order, each once."""
    found = (lower_scheme_and_host(match[1]) for match in _SITEMAP_LINE.finditer(text))
    return list(dict.fromkeys(url for url in found if is_web_url(url)))


def sitemap_guesses(url: str) -> list[str]:
    """Where a site keeps its sitemap when robots.txt does not say: at its root, and at the
    root of the page's first folder (a project's docs under one prefix, `/docs/`)."""
    site = origin(url)
    guesses = [f"{site}/sitemap.xml"]
    segments = [part for part in urlsplit(url).path.split("/") if part]
    if len(segments) > 1:
        guesses.append(f"{site}/{segments[0]}/sitemap.xml")
    return guesses


def same_site(url: str, other: str) -> bool:
    """Both on one host (a leading `www.` aside; in any spelling, as `site_of` has it) and
    one port, over http(s): a scheme's own port is none written (http and https are one
    site), any other is another server, where a sitemap must not send a request."""

    def host(address: str) -> tuple[str, int | None]:
        parts = urlsplit(address)
        name = ascii_host(parts.hostname or "").removeprefix("www.")
        port = parts.port
        return name, None if port == DEFAULT_PORTS.get(parts.scheme.lower()) else port

    try:
        return is_web_url(url) and host(url) == host(other) and bool(host(url)[0])
    except ValueError:
        return False
