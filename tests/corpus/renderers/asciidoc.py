"""Git's manual pages (AsciiDoc) rendered as git-scm.com serves them, with Asciidoctor.

Git writes its documentation as AsciiDoc under `Documentation/`, and git-scm.com
publishes every manual page as `https://git-scm.com/docs/<command>`: Asciidoctor's
HTML for the page inside the site's chrome (a header with the search box, the
"About / Documentation / Downloads / Community" sidebar, the reference's version
selector and "Topics" list of other manual pages, a footer).

This renderer uses the real generator: the `asciidoctor` command from Debian's
`asciidoctor` / `ruby-asciidoctor` packages, run through subprocess with our own
attributes (the compatibility mode the AsciiDoc sources were written for, `litdd`
and the default pager and editor). It never runs the repository's Makefile or its
Ruby extension: the `Documentation/` tree at the page's commit is written out with
`git archive`, so that `include::` directives resolve, and the one macro the
extension adds, `linkgit:git-foo[1]`, is turned into a plain AsciiDoc link first
(the `[synopsis]` block it adds becomes a `[verse]` block). The chrome around the
content is ours, modelled on git-scm.com's markup; a job's `chrome` mapping can add
an announcement bar (`banner`), a cookie banner (`cookies`), the version shown in
the version selector (`version`) and its list (`versions`), and another sidebar
(`nav: learn`), so that some pages' boilerplate differs between their two renderings.
"""

from __future__ import annotations

import html
import io
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from renderers import GitRepo, RenderJob

SITE = "https://git-scm.com"
SOURCE = "https://github.com/git/git/blob/master/"
DOCS_DIR = "Documentation"

ATTRIBUTES: tuple[str, ...] = (
    "compat-mode",
    "tabsize=8",
    "litdd=&#x2d;&#x2d;",
    "git-default-pager=less",
    "git-default-editor=vi",
    "mansource=Git",
    "manmanual=Git Manual",
    "sectanchors",
)

_LINKGIT = re.compile(r"linkgit:([A-Za-z0-9_.-]+)\[(\d+)\]")
_SYNOPSIS = re.compile(r"^\[synopsis\]$", re.MULTILINE)
_SECTION = re.compile(r'<h([23]) id="([^"]+)">(?:<a class="anchor" href="[^"]*"></a>)?(.*?)</h\1>')
_TAGS = re.compile(r"<[^>]+>")

DEFAULT_VERSIONS: tuple[str, ...] = ("2.48.0", "2.47.0", "2.46.0", "2.45.0", "2.44.0")

TOPICS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("Setup and Config", ("git", "config", "help", "bugreport", "gitcredentials")),
    ("Getting and Creating Projects", ("init", "clone")),
    ("Basic Snapshotting", ("add", "status", "diff", "commit", "notes", "restore", "reset")),
    ("Branching and Merging", ("branch", "checkout", "switch", "merge", "log", "stash", "tag")),
    ("Sharing and Updating Projects", ("fetch", "pull", "push", "remote", "submodule")),
    ("Patching", ("apply", "cherry-pick", "diff", "rebase", "revert")),
    ("Administration", ("clean", "gc", "fsck", "reflog", "filter-branch", "worktree")),
    ("Server Admin", ("daemon", "update-server-info")),
    ("Plumbing Commands", ("cat-file", "commit-graph", "repack", "update-ref", "hash-object")),
    ("Guides", ("gitignore", "githooks", "gitattributes", "gitglossary", "gitworkflows")),
)

SIDEBARS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "default": (
        ("About", "/about"),
        ("Documentation", "/doc"),
        ("Reference", "/docs"),
        ("Book", "/book"),
        ("Videos", "/videos"),
        ("External Links", "/doc/ext"),
        ("Downloads", "/downloads"),
        ("Community", "/community"),
    ),
    "learn": (
        ("About", "/about"),
        ("Learn", "/learn"),
        ("Reference", "/docs"),
        ("Book", "/book"),
        ("Cheat Sheet", "/cheat-sheet"),
        ("Videos", "/videos"),
        ("Tools", "/tools"),
        ("Install", "/install"),
        ("Community", "/community"),
    ),
}


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Write every job's manual page, one Documentation tree a commit."""
    by_commit: dict[str, list[RenderJob]] = {}
    for job in jobs:
        by_commit.setdefault(job.commit, []).append(job)
    for commit, commit_jobs in by_commit.items():
        with tempfile.TemporaryDirectory(prefix="git-docs-") as tmp:
            docs = _write_docs(repo, commit, Path(tmp))
            for job in commit_jobs:
                body = _asciidoctor(docs, Path(job.path).relative_to(DOCS_DIR))
                job.out.write_text(_page(job, body), "utf-8")


# --------------------------------------------------------------------------- sources


def _write_docs(repo: GitRepo, commit: str, root: Path) -> Path:
    """The Documentation tree at `commit`, written under `root`, with linkgit resolved."""
    archive = repo.git("archive", "--format=tar", commit, DOCS_DIR)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    docs = root / DOCS_DIR
    for source in docs.rglob("*"):
        if source.suffix in (".txt", ".adoc") and source.is_file():
            text = source.read_text("utf-8", errors="replace")
            source.write_text(_plain_asciidoc(text), "utf-8")
    return docs


def _plain_asciidoc(text: str) -> str:
    """The source with git's own macro and block style written as stock AsciiDoc."""
    text = _LINKGIT.sub(lambda m: f"link:{m.group(1)}[{m.group(1)}({m.group(2)})]", text)
    return _SYNOPSIS.sub("[verse]", text)


def _asciidoctor(docs: Path, page: Path) -> str:
    """The embeddable HTML Asciidoctor makes of one manual page."""
    command = ["asciidoctor", "-b", "html5", "-d", "manpage", "-s", "-o", "-"]
    for attribute in ATTRIBUTES:
        command += ["-a", attribute]
    done = subprocess.run(
        [*command, str(page)], cwd=docs, check=True, capture_output=True, text=True
    )
    return _doc_links(done.stdout)


def _doc_links(body: str) -> str:
    """Links to other manual pages, as the site writes them: /docs/<page>."""
    return re.sub(r'href="([A-Za-z0-9_.-]+)"', r'href="/docs/\1"', body)


# --------------------------------------------------------------------------- chrome


def _name(job: RenderJob) -> str:
    return Path(job.path).stem


def _page(job: RenderJob, body: str) -> str:
    chrome = job.chrome
    name = _name(job)
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            f"<title>Git - {html.escape(name)} Documentation</title>",
            '<link rel="stylesheet" href="/application.css">',
            f'<link rel="canonical" href="{html.escape(job.url)}">',
            "</head>",
            '<body id="documentation">',
            _cookie_banner(chrome),
            _announcement(chrome),
            '<div class="inner">',
            _header(),
            '<div id="content-wrapper">',
            _sidebar(chrome),
            '<div id="content">',
            _topics(name),
            '<div id="main" data-pagefind-body>',
            _reference_version(name, chrome),
            f'<div id="{html.escape(name)}" class="man-page">',
            body,
            "</div>",
            _edit_link(job),
            "</div>",
            _toc(body),
            "</div>",
            "</div>",
            _footer(),
            "</div>",
            "</body>",
            "</html>",
        ]
    )


def _header() -> str:
    return (
        "<header>\n"
        '<a href="/"><img src="/images/logo@2x.png" width="110" height="46" alt="Git"></a>\n'
        '<span id="tagline">--distributed-is-the-new-centralized</span>\n'
        '<div id="search-container"><form id="search" action="/search/results">'
        '<input id="search-text" name="search" placeholder="Type / to search entire site..."'
        ' type="text"></form></div>\n'
        "</header>"
    )


def _sidebar(chrome: Mapping[str, Any]) -> str:
    entries = SIDEBARS.get(str(chrome.get("nav", "default")), SIDEBARS["default"])
    items = "\n".join(
        f'<li><a href="{href}"{_active(href == "/docs")}>{title}</a></li>'
        for title, href in entries
    )
    return f'<aside class="sidebar" id="sidebar">\n<nav>\n<ul>\n{items}\n</ul>\n</nav>\n</aside>'


def _topics(current: str) -> str:
    groups = []
    for heading, pages in TOPICS:
        links = "".join(
            f'<li><a href="/docs/{_topic_page(p)}"{_active(_topic_page(p) == current)}>{p}</a></li>'
            for p in pages
        )
        groups.append(f"<h3>{heading}</h3>\n<ul>{links}</ul>")
    return (
        '<nav class="dropdown" id="topics-dropdown">\n'
        '<a class="dropdown-trigger" href="#">Topics &#9662;</a>\n'
        '<div class="dropdown-panel">\n' + "\n".join(groups) + "\n</div>\n</nav>"
    )


def _active(active: bool) -> str:
    return ' class="active"' if active else ""


def _topic_page(page: str) -> str:
    return page if page.startswith("git") else f"git-{page}"


def _reference_version(name: str, chrome: Mapping[str, Any]) -> str:
    version = chrome.get("version")
    versions = [str(v) for v in chrome.get("versions", DEFAULT_VERSIONS)]
    label = f"{name} last updated in {version}" if version else "Latest version"
    options = "".join(f'<li><a href="/docs/{html.escape(name)}/{v}">{v}</a></li>' for v in versions)
    return (
        '<nav class="reference-version" aria-label="Version">\n'
        f'<a class="dropdown-trigger" href="#">{html.escape(label)} &#9662;</a>\n'
        f'<ul class="dropdown-panel version-list">{options}'
        '<li><a href="/docs/git-version">Check your version of git by running'
        " <code>git --version</code></a></li></ul>\n</nav>"
    )


def _edit_link(job: RenderJob) -> str:
    return (
        '<nav class="edit-page">'
        f'<a href="{SOURCE}{html.escape(job.path)}">Edit this page on GitHub</a> &middot; '
        '<a href="https://github.com/git/git-scm.com/issues/new">Report a problem</a>'
        "</nav>"
    )


def _toc(body: str) -> str:
    items = []
    for level, anchor, title in _SECTION.findall(body):
        text = html.escape(html.unescape(_TAGS.sub("", title)))
        items.append(f'<li class="toc-level-{level}"><a href="#{anchor}">{text}</a></li>')
    return (
        '<aside class="toc" id="toc">\n<nav aria-label="On this page">\n'
        "<h3>On this page</h3>\n<ul>\n" + "\n".join(items) + "\n</ul>\n</nav>\n</aside>"
    )


def _cookie_banner(chrome: Mapping[str, Any]) -> str:
    if not chrome.get("cookies"):
        return ""
    return (
        '<div id="cookie-consent" class="cookie-banner" role="dialog">\n'
        "<p>We use cookies to measure how the documentation is used.</p>\n"
        '<button type="button">Accept</button> <button type="button">Decline</button>\n'
        "</div>"
    )


def _announcement(chrome: Mapping[str, Any]) -> str:
    banner = chrome.get("banner")
    if not banner:
        return ""
    text = banner if isinstance(banner, str) else "The latest Git release is out: see what's new."
    return (
        '<div class="announcement-banner">'
        f'<p>{html.escape(text)} <a href="/downloads">Download</a></p></div>'
    )


def _footer() -> str:
    return (
        "<footer>\n"
        '<div class="site-source">This <a href="https://github.com/git/git-scm.com">open'
        " source</a> site is hosted on GitHub. Patches, suggestions, and comments are"
        " welcome.</div>\n"
        '<div class="sfc-member">Git is a member of <a href="/sfc">Software Freedom'
        " Conservancy</a></div>\n"
        "</footer>"
    )
