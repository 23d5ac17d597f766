"""What an HTML page's <head> says about where the page lives, read before its body.

Pure: a string in, a record out. Static hosts move a page by leaving an alias behind
whose head sends the reader on (a meta refresh); the fetcher follows it as a redirect,
and a refresh titles a new source from the head.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from lxml import etree


@dataclass(frozen=True)
class HeadLinks:
    """What a page's <head> says about where the page lives, before any of it is read.

    ``refresh`` is the address a ``<meta http-equiv="refresh">`` sends the reader to
    (as written, unresolved) after ``refresh_delay`` seconds; ``canonical`` the page's
    ``<link rel="canonical">``; ``title`` its ``<title>``.
    """

    refresh: str | None = None
    refresh_delay: float | None = None
    canonical: str | None = None
    title: str | None = None


HEAD_BYTES = 256 * 1024
"""Where a head ends at the latest: alias pages are tiny, and a head is never this long."""
HEAD_CHUNK = 8 * 1024
"""How much the head's parser reads at a time: it stops at ``<body>``, never parsing a body."""


def head_links(body: str) -> HeadLinks:
    """Read the meta refresh, canonical link and title of an HTML page's head.

    Static hosts move pages by leaving an alias page behind whose head sends the reader
    on; the fetcher follows it like a redirect. Parsing stops at ``<body>``: a refresh
    written into the body is not one a browser follows.
    """
    parser = etree.HTMLPullParser(events=("start", "end"), tag=("meta", "link", "title", "body"))
    refresh: tuple[float, str | None] | None = None
    canonical = title = None
    try:
        for event, element in _head_events(parser, body[:HEAD_BYTES]):
            if not isinstance(element, etree._Element) or element.tag == "body":
                break
            tag, get = element.tag, element.get
            if event == "end" and tag == "title" and title is None:
                words = "".join(t for t in element.itertext() if isinstance(t, str)).split()
                title = " ".join(words) or None
            elif event == "start" and tag == "meta" and refresh is None:
                if (get("http-equiv") or "").strip().lower() == "refresh":
                    refresh = _meta_refresh(get("content") or "")
            elif event == "start" and tag == "link" and canonical is None:
                href = (get("href") or "").strip()
                if "canonical" in (get("rel") or "").lower().split() and href:
                    canonical = href
    except etree.LxmlError:
        pass  # whatever was read before the parser gave up still counts
    delay, target = refresh if refresh is not None else (None, None)
    return HeadLinks(target, delay, canonical, title)


def _head_events(parser: etree.HTMLPullParser, text: str) -> Iterator[tuple[str, object]]:
    """The parser's events, `HEAD_CHUNK` of the text at a time, for as long as they are
    read. A page holding NUL is fed whole: lxml reads NUL differently in pieces."""
    step = HEAD_CHUNK if "\x00" not in text else len(text) or 1
    for start in range(0, len(text), step):
        parser.feed(text[start : start + step])
        yield from parser.read_events()


_REFRESH_DELAY = re.compile(r"\s*(\d*\.?\d*)[\d.]*\s*[;,]?\s*")
_REFRESH_URL_KEY = re.compile(r"url\s*=?\s*", re.IGNORECASE)


def _meta_refresh(content: str) -> tuple[float, str | None] | None:
    """Delay and target of a refresh's ``content`` ("0; url='/new/'"), as browsers read it."""
    lead = _REFRESH_DELAY.match(content)
    assert lead is not None  # every part of the pattern may be empty
    if not lead.group(1).strip(".") and not content.strip().startswith("."):
        return None  # no delay: browsers ignore the whole directive
    delay = float(lead.group(1)) if lead.group(1) not in ("", ".") else 0.0
    rest = content[lead.end() :]
    key = _REFRESH_URL_KEY.match(rest)
    if key is not None:
        rest = rest[key.end() :]
    if rest[:1] in ("'", '"'):
        quote = rest[0]
        rest = rest[1:].split(quote, 1)[0]
    target = rest.strip()
    return delay, target or None
