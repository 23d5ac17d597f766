"""The partials a documentation file pulls in where its generator's convention is plain,
so that a sentence kept in a shared snippet is found in the page's source as it renders.

Pure. Followed: an MDX import of a Markdown file used as a component (Docusaurus,
Mintlify, Starlight), reStructuredText's `.. include::` and `.. literalinclude::`
(Sphinx; read as docutils reads them, `claimledger.reading.rst_directives`) and MyST's
fenced `{include}` and `{literalinclude}` (their options in a `---` block or `:name:
value` lines, as myst-parser reads them), AsciiDoc's `include::` (Asciidoctor; Antora's
`partial$` resources), Hugo's `include` and `readfile` shortcodes, and MkDocs' snippets
(`--8<-- "x.md"`, or a block of them). Each but Hugo's and MDX's is cut to the part its
options name (`claimledger.reading.clips`). A path is resolved against the including
file's folder, else the repository's root; one that leaves the repository is not
followed. Partials are expanded one level deep: a snippet's own includes stay as written.
"""

from __future__ import annotations

import itertools
import posixpath
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import PurePosixPath

from claimledger.reading.clips import Clip, clipped
from claimledger.reading.clips_snippets import snippet_spec
from claimledger.reading.myst_options import myst_options
from claimledger.reading.rst_directives import directives_of, replaced

MAX_INCLUDES = 20
"""Partials followed in one file at most (a generated index can include hundreds)."""

_MDX_IMPORT = re.compile(
    r"^[ \t]*import[ \t]+(?P<name>[A-Z]\w*)[ \t]+from[ \t]+"
    r"""['"](?P<path>[^'"]+\.mdx?)['"];?[ \t]*\r?$""",
    re.MULTILINE,
)
_MYST = re.compile(  # a fenced directive's opening line (its fence closed, or not, below)
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|:{3,})[ \t]*\{(?P<directive>include|literalinclude)\}"
    r"[ \t]+(?P<path>\S+)[ \t]*\r?$",
    re.MULTILINE,
)
_ASCIIDOC = re.compile(
    r"^include::(?P<path>[^\[\s]+)\[(?P<attributes>[^\]\n]*)\][ \t]*\r?$", re.MULTILINE
)
_ATTRIBUTE = re.compile(  # `name=value`, the value quoted or up to the next comma
    r"""(?:^|,)[ \t]*(?P<name>[\w-]+)[ \t]*=[ \t]*"""
    r"""(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[^,]*))"""
)
_HUGO = re.compile(  # bounded: each `{{<` never closed once scanned the rest of the file
    r"\{\{[<%][ \t]*(?:include|readfile)[ \t]+(?:file=)?"
    r"""["'](?P<path>[^"']{1,1000})["'][^}]{0,1000}[>%]\}\}"""
)
_SNIPPET = re.compile(  # the path (and its cut, `x.md:3:6`, `x.md:name`) within 1,000
    r"""^[ \t]*-{1,}8<-{1,}[ \t]+["'](?P<path>[^"'\n]{1,1000})["'][ \t]*\r?$""", re.MULTILINE
)
_SNIPPET_BLOCK = re.compile(r"^[ \t]*-{1,}8<-{1,}\r?$", re.MULTILINE)
"""A line that opens or closes a block of snippets (`--8<--`, alone; `;--8<--` is none)."""
_SNIPPET_LINE = re.compile(r"""[ \t]*;*-{1,}8<-{1,}[ \t]+["']""")
"""A snippet's own line inside a block, which pymdownx leaves out there."""


@dataclass(frozen=True)
class Include:
    """One place a file pulls in a partial: the text that stands for it, and the paths
    (in the repository) it may name, likeliest first."""

    written: str
    paths: tuple[str, ...]
    component: str | None = None
    """An MDX import's component name: the partial stands where `<Name />` is used."""
    clip: Clip | None = None
    """The directive's options (Sphinx, MyST, AsciiDoc, an MkDocs snippet): the page
    shows only the part of the partial they name."""
    parts: tuple[Include, ...] = ()
    """An MkDocs block of snippets' files, in order (the block's `paths` are theirs): the
    page shows each one's part in turn, where the block is."""
    indented: bool = False
    """A reStructuredText directive, which ends where its indented lines do: replaced
    only where no more of them follow (`rst_directives.replaced`)."""


def includes_of(text: str, path: str) -> list[Include]:
    """The partials the file `text` at `path` (in the repository) pulls in: the first
    MAX_INCLUDES (each file of a block of snippets counted), none looked for past them
    (a page a repository fills with thousands of directives is not resolved whole, in
    each of its versions)."""
    found: list[Include] = []
    room = MAX_INCLUDES
    for include in itertools.islice(_includes(text, path), MAX_INCLUDES):
        if room <= 0:
            break
        if include.parts:
            include = _block_of(include.written, include.parts[:room])
        room -= max(1, len(include.parts))
        found.append(include)
    return found


def _includes(text: str, path: str) -> Iterator[Include]:
    for match in _MDX_IMPORT.finditer(text):
        if candidates := _resolved(match["path"], path):
            yield Include(match[0], candidates, match["name"])
    for directive in directives_of(text):
        if candidates := _resolved(directive.path, path):
            yield Include(directive.written, candidates, clip=directive.clip, indented=True)
    for written, opening, body in _myst_directives(text):
        if candidates := _resolved(opening["path"], path):
            clip = Clip(opening["directive"], myst_options(opening["directive"], body))
            yield Include(written, candidates, clip=clip)
    for match in _ASCIIDOC.finditer(text):
        if candidates := _resolved(match["path"], path):
            yield Include(match[0], candidates, clip=_asciidoc_clip(match["attributes"]))
    for match in _HUGO.finditer(text):
        if candidates := _resolved(match["path"], path):
            yield Include(match[0], candidates)
    blocks = list(_snippet_blocks(text, path)) if "8<" in text else []
    yield from (block for _, _, block in blocks)
    for match in _SNIPPET.finditer(text):
        if any(start <= match.start() < end for start, end, _ in blocks):
            continue  # inside a block, pymdownx leaves a snippet's own line out
        named, cut = snippet_spec(match["path"])
        if candidates := _resolved(named, path):
            yield Include(match[0], candidates, clip=Clip("snippet", cut))


def _snippet_blocks(text: str, path: str) -> Iterator[tuple[int, int, Include]]:
    """pymdownx's blocks of snippets: `--8<--` on a line of its own, then a file a line
    (cut as a snippet's is; a blank line, one begun by `;` and a snippet's own line are
    no file), then `--8<--` again. A block never closed is not followed (pymdownx would
    read the rest of the page as files), nor any file past `MAX_INCLUDES` in a block;
    blocks are looked for among the first `MAX_INCLUDES` pairs of markers. Each with
    where it starts and ends in `text`."""
    markers = itertools.islice(_SNIPPET_BLOCK.finditer(text), 2 * MAX_INCLUDES)
    for opening, closing in zip(markers, markers, strict=False):
        lines = text[opening.end() : closing.start()].split("\n")
        files = (line.strip() for line in lines if not _SNIPPET_LINE.match(line))
        named = itertools.islice((f for f in files if f and not f.startswith(";")), MAX_INCLUDES)
        parts = tuple(_snippet_part(line, path) for line in named)
        if parts:
            written = text[opening.start() : closing.end()]
            yield opening.start(), closing.end(), _block_of(written, parts)


def _snippet_part(line: str, including: str) -> Include:
    """One file of a block of snippets, the line naming it as written."""
    named, cut = snippet_spec(line)
    return Include(line, _resolved(named, including), clip=Clip("snippet", cut))


def _block_of(written: str, parts: tuple[Include, ...]) -> Include:
    paths = tuple(dict.fromkeys(p for part in parts for p in part.paths))
    return Include(written, paths, parts=parts)


def expanded(text: str, includes: list[Include], partials: Mapping[str, str]) -> str:
    """`text` with each include replaced by its partial's text (`partials`, by path); an
    include whose partial cannot be read stays as written."""
    for include in includes:
        if include.parts:
            shown = (_part_shown(part, partials) for part in include.parts)
            text = text.replace(include.written, "\n".join(shown))
            continue
        body = next((partials[p] for p in include.paths if p in partials), None)
        if body is None:
            continue
        if include.clip is not None and include.indented:
            text = replaced(text, include.written, clipped(body, include.clip))
        elif include.clip is not None:  # closed by its own `]`, quote, fence or `---`
            text = text.replace(include.written, clipped(body, include.clip))
        elif include.component is None:
            text = text.replace(include.written, body)
        else:
            used = re.compile(rf"<{include.component}(?:\s[^<>]*)?/>")
            text = used.sub(body.replace("\\", "\\\\"), text.replace(include.written, ""))
    return text


def _part_shown(part: Include, partials: Mapping[str, str]) -> str:
    """A file of a block of snippets as the page shows it; one not read, as written."""
    body = next((partials[p] for p in part.paths if p in partials), None)
    return part.written if body is None or part.clip is None else clipped(body, part.clip)


def _myst_directives(text: str) -> Iterator[tuple[str, re.Match[str], str]]:
    """Each MyST include of `text` as written (to its closing fence: one at least as long
    as its opening, else the page's end, as CommonMark closes a fence), its opening line,
    and its body, less the opening fence's indent (as markdown-it reads it); none inside
    another's fences."""
    at = 0
    while (opening := _MYST.search(text, at)) is not None:
        fence = opening["fence"]
        closing = re.compile(rf"^[ \t]*{re.escape(fence[0])}{{{len(fence)},}}[ \t]*\r?$", re.M)
        closed = closing.search(text, opening.end())
        end = len(text) if closed is None else closed.end()
        body = text[opening.end() + 1 : end if closed is None else closed.start()]
        width = len(opening["indent"].expandtabs(4))
        lines = (_less_indent(line, width) for line in body.split("\n"))
        yield text[opening.start() : end], opening, "\n".join(lines)
        at = max(end, opening.end() + 1)


def _less_indent(line: str, width: int) -> str:
    """`line` less up to `width` of the spaces it begins with."""
    spaces = len(line) - len(line.lstrip(" "))
    return line[min(spaces, width) :]


def _asciidoc_clip(attributes: str) -> Clip:
    """An AsciiDoc include's named attributes (`tag=a`, `lines="1..3,5"`)."""
    named = _ATTRIBUTE.finditer(attributes)
    return Clip("asciidoc", tuple((a["name"], _value(a)) for a in named))


def _value(attribute: re.Match[str]) -> str:
    quoted = attribute["dq"] if attribute["dq"] is not None else attribute["sq"]
    return quoted if quoted is not None else attribute["bare"].strip()


_ANTORA_PARTIAL = re.compile(r"(?:(?P<module>[\w-]+):)?partial\$(?P<file>[^:$]+)")


def _antora_partial(module: str | None, file: str, including: str) -> tuple[str, ...]:
    """An Antora partial (`partial$x.adoc`, `ROOT:partial$x.adoc`): in the partials folder
    of the including page's module, or of the module named. None outside the repository:
    `partial$/etc/passwd` is no path in it (git refuses to read one, and stops)."""
    head, pages, _ = including.partition("/pages/")
    if not pages:
        return ()
    modules = posixpath.dirname(head)
    folder = posixpath.join(modules, module) if module else head
    path = posixpath.normpath(posixpath.join(folder, "partials", file))
    return () if path.startswith(("..", "/")) else (path,)


def _resolved(named: str, including: str) -> tuple[str, ...]:
    """The repository paths `named` may mean: beside the including file, then from the
    root; none that climb out of the repository, and no address. A name written from
    `/` is from the root first, then from each folder above the including file, from
    the top down: Sphinx reads `/includes/x.rst` from its source folder (`source/`, where
    `conf.py` is), which is seldom the repository's root."""
    if "://" in named or named.startswith("@"):
        return ()
    if antora := _ANTORA_PARTIAL.fullmatch(named):
        return _antora_partial(antora["module"], antora["file"], including)
    relative = named.lstrip("/")
    beside = posixpath.normpath(posixpath.join(posixpath.dirname(including), relative))
    rooted = posixpath.normpath(relative)
    if named.startswith("/"):
        folders = PurePosixPath(including).parent.parents
        above = [posixpath.join(str(f), relative) for f in reversed(folders) if str(f) != "."]
        order = (rooted, *map(posixpath.normpath, above), beside)
    else:
        order = (beside, rooted)
    return tuple(dict.fromkeys(p for p in order if not p.startswith("..") and p != "."))
