"""When a page's words changed, read from the history of the file it is built from.

Pure: given each version of a documentation file (newest first) and the quote, which
commit last held the quote's words, which one dropped them, and which one first held the
wording the page has now. A version is matched as it renders, not as raw markup, with the
matcher's own normalisation, so `**at least once**` holds "at least once".
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import PurePosixPath

from claimledger.reading.extract import extract_text
from claimledger.reading.generators import HUGO, is_folder_page
from claimledger.reading.match.locator import quote_forms
from claimledger.reading.match.prepared import PreparedText, prepare
from claimledger.records import Commit


@dataclass(frozen=True)
class FileGone:
    """A page's source file that is no longer in the repository: the commit that took it
    away, and the file it became when that commit renamed it (its name as git gave it,
    to ask git for it again; `name_as_text` where it is kept or shown)."""

    commit: Commit
    renamed_to: str | None
    generator: str | None = None
    """The site generator configured above the file it became (`reading.generators`):
    where the page it builds is served."""
    site: str = "."
    """The folder holding that generator's configuration, from which its folders are
    named (`website`, where `website/docs` holds its docs)."""


def name_as_text(name: str) -> str:
    """A file's name read from git as text that can be kept and shown: git hands its
    names over as bytes, read with surrogateescape so that each goes back to git as it
    was; a byte that is no UTF-8 is U+FFFD here (one could not be stored or printed)."""
    return name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")


_PLAIN_NAME = re.compile(r"[\w.~-]*\w[\w.~-]*")
"""A file's name that is a path segment as it stands: not `..`, no `?`, `#`, `%` or space
(a repository's file so named would send the proposal to the folder above, or a query)."""


def page_after_rename(
    url: str, old_path: str, new_path: str, generator: str | None = None, site: str = "."
) -> str | None:
    """Where a page went when its source file was renamed, where the site's convention is
    plain: the page's path ends with the file's path, less its suffix and the folders the
    site is built from (`content/en/docs/a/b.md` is served at `.../docs/a/b/` or
    `.../b.html`), and the new file lies under those folders too, each of its names plain.
    So a file moved to another folder (`docs/a/b.md` -> `docs/a/b/c.md`, as a section
    grows) is followed as well as one renamed in its own. A folder's own page, as the
    site's `generator` tells it (configured in the folder `site`; see
    `claimledger.reading.generators`), is the folder's
    address on a site of addresses without a suffix (`docs/metrics/_index.md` at
    `.../metrics/`); Hugo's addresses are in lower case where the page's is. None
    otherwise, and where the page stays where it was."""
    from urllib.parse import urlsplit, urlunsplit

    parts = urlsplit(url)
    segments = parts.path.split("/")
    last = next((i for i in range(len(segments) - 1, -1, -1) if segments[i]), None)
    if last is None:
        return None
    name, dot, suffix = segments[last].partition(".")
    served = [*segments[:last], name]
    old, new = _without_suffix(old_path), _without_suffix(new_path)
    if generator == HUGO and parts.path == parts.path.lower():
        old, new = [n.lower() for n in old], [n.lower() for n in new]
    old = _as_served(old, served, dot, generator, site)
    if is_folder_page(new, generator, site) and not dot:
        new = new[:-1]
    elif new[-1] == "_index":
        return None  # Hugo's alone, whose pages have no suffix: not plain
    shared = _shared_tail(served, old)
    root = old[: len(old) - shared]
    moved = new[len(root) :]
    if not shared or new[: len(root)] != root or not moved or new == old:
        return None
    if not all(_PLAIN_NAME.fullmatch(part) for part in moved):
        return None
    segments[: last + 1] = [*served[: len(served) - shared], *moved[:-1], moved[-1] + dot + suffix]
    return urlunsplit(parts._replace(path="/".join(segments), fragment=""))


def _as_served(
    file: list[str], served: list[str], dot: str, generator: str | None, site: str
) -> list[str]:
    """A file's names as its page's path ends: a folder's page (`docs/metrics/_index`)
    as its folder (`docs/metrics`) where the address names no such page itself (it ends
    `metrics/` where it does not end `metrics/_index/`)."""
    named_itself = served[-2:] == file[-2:]
    own = is_folder_page(file, generator, site)
    if own and not dot and not named_itself and len(file) > 1:
        return file[:-1]
    return file


def _without_suffix(path: str) -> list[str]:
    """A file's path as its names, the last less its suffix (`docs/guide.md`: docs, guide)."""
    pure = PurePosixPath(path)
    return [*pure.parent.parts, pure.stem] if pure.parent.parts != (".",) else [pure.stem]


def _shared_tail(served: list[str], file: list[str]) -> int:
    """How many names the page's path and the file's path end with alike."""
    shared = 0
    while shared < min(len(served), len(file)) and served[-1 - shared] == file[-1 - shared]:
        shared += 1
    return shared


@dataclass(frozen=True)
class Version:
    commit: Commit
    text: str | None
    """The file's text at the commit; None where it cannot be read (binary, too large), or
    where the commit deleted the file (`deleted`)."""
    deleted: bool = False
    """Whether the commit took the file away: a version read, that holds nothing."""

    @property
    def unreadable(self) -> bool:
        """Whether the version has a text that could not be read: one that may hold the
        quote. A deleted file holds none."""
        return self.text is None and not self.deleted


@dataclass(frozen=True)
class Blame:
    """What the history says of one quote: the newest commit whose text holds it, the
    first readable commit after that one (the change that dropped it), and the oldest
    commit that holds the page's current wording (when one is given). Each is None where
    the history does not say (the quote was never in this file, or is still there).
    `unread`: the versions that could not be read (binary, too large), oldest first, where
    the history may lie: those after `held` (the change lies in one of them or in
    `dropped`), or, when no version read holds the quote, every one (one may hold it).
    `before_current`: the unreadable version just before the run of those holding the
    current wording (it may hold it too, so the wording may be older than `current_since`)."""

    held: Commit | None
    dropped: Commit | None
    current_since: Commit | None
    versions: int
    unread: tuple[Commit, ...] = ()
    before_current: Commit | None = None


def blame(
    versions: Sequence[Version],
    quote: str,
    current: str | None = None,
    *,
    before_each: Callable[[], object] = lambda: None,
) -> Blame:
    """Read `versions` (newest first) for `quote`, and for `current`, the page's wording;
    `before_each` is called before each version is read (a caller's time budget: a
    hostile file's every version may take seconds to render)."""
    newer: Commit | None = None  # the oldest readable version newer than the one read
    unread: list[Commit] = []  # the unreadable ones since `newer`, newest first
    unreadable: list[Commit] = []  # every unreadable one seen, newest first
    held = dropped = None
    for version in versions:
        before_each()
        if version.unreadable:
            unread.append(version.commit)
            unreadable.append(version.commit)
            continue
        if version.text is not None and holds(version.text, version.commit.path, quote):
            held, dropped = version.commit, newer
            break
        newer, unread = version.commit, []
    since, before = _current_run(versions, current, before_each) if current else (None, None)
    between = tuple(reversed(unread if held is not None else unreadable))
    return Blame(held, dropped, since, len(versions), between, before)


def _current_run(
    versions: Sequence[Version], current: str, before_each: Callable[[], object]
) -> tuple[Commit | None, Commit | None]:
    """The oldest commit of the newest run of versions holding `current`, and the version
    that ended the run when it could not be read (None: a readable one ended it, or none
    did): that one may hold the wording too, and so may the run's true start."""
    since = None
    for version in versions:
        before_each()
        if version.text is not None and holds(version.text, version.commit.path, current):
            since = version.commit
        elif since is not None:  # the run of versions holding it, back to where it began
            return since, version.commit if version.unreadable else None
    return since, None


def holds(text: str, path: str, words: str) -> bool:
    """Does the file `text` at `path`, as its page renders it, hold `words`?"""
    rendered = rendered_text(text, PurePosixPath(path).suffix.lower())
    return any(rendered.occurrences(form) for form in quote_forms(words, "text"))


MARKDOWN = frozenset({".md", ".mdx", ".markdown"})
HTML = frozenset({".html", ".htm"})


@cache
def rendered_text(text: str, suffix: str) -> PreparedText:
    """The file as a reader sees its page: Markdown rendered (MDX imports and components
    dropped), HTML's text, reStructuredText and AsciiDoc with their inline markup read
    (`_inline_markup_read`: their block structure is close enough to the page for a
    sentence to be found), and any other text as it is."""
    if suffix in MARKDOWN:
        return prepare(extract_text(_markdown_html(text), "text/html"), kind="text")
    if suffix in HTML:
        return prepare(extract_text(text, "text/html"), kind="text")
    if suffix in LIGHT_MARKUP:
        return prepare(_inline_markup_read(text), kind="text")
    return prepare(text, kind="text")


LIGHT_MARKUP = frozenset({".rst", ".rest", ".adoc", ".asciidoc", ".asc"})
_ROLE = re.compile(r":[\w.+-]+:`([^`<]*?)\s*(?:<[^`>]*>)?`")  # :ref:`words <target>`
_LINK = re.compile(
    r"`([^`<]+?)\s*<[^`>]*>`_{1,2}|\blink:\S+?\[([^\]]*)\]|\bhttps?://\S+?\[([^\]]*)\]"
)
_MARKERS = re.compile(r"\*\*|``|(?<!\w)[*_`]+(?=\S)|(?<=\S)[*_`]+(?!\w)")


def _inline_markup_read(text: str) -> str:
    """reStructuredText's and AsciiDoc's inline markup as a reader sees it: words, not
    their emphasis, literal or role markers, and a link's text, not its target (a sentence
    written `**always**` reads "always" on the page)."""
    text = _ROLE.sub(r"\1", text)
    text = _LINK.sub(lambda m: next(g for g in m.groups() if g is not None), text)
    return _MARKERS.sub("", text)


_MDX_LINE = re.compile(r"^\s*(?:import|export)\s.*$", re.MULTILINE)
_FRONT_MATTER = re.compile(r"\A---\n.*?\n---\n", re.DOTALL)


def _markdown_html(text: str) -> str:
    from markdown_it import MarkdownIt

    body = _MDX_LINE.sub("", _FRONT_MATTER.sub("", text))
    rendered = MarkdownIt("commonmark", {"html": True}).enable("table").render(body)
    return f"<html><body><main>{rendered}</main></body></html>"
