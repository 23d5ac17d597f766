"""Render pages as GitHub serves them: a Markdown file's blob page, or a source file raw.

A corpus of GitHub-hosted documentation quotes two kinds of page. A Markdown file
(README.md, CHANGELOG/*.md, docs/*.md) is read on its blob page on github.com: the
file rendered as GitHub-Flavoured Markdown inside the site's chrome. Any other file
(Go, Python, ... source) is quoted from raw.githubusercontent.com, which serves the
bytes as they are, as ``text/plain``.

The Markdown is rendered with cmarkgfm (GitHub's own cmark-gfm, from PyPI) with the
extensions github.com enables: tables, autolinks, strikethrough and task lists. The
output is then given GitHub's markup for headings (a permalink anchor beside each,
with GitHub's slugs), for code blocks (the ``highlight`` wrapper) and for tables.
github.com's page itself cannot be had from a registry, so the chrome around the
file is ours, written after GitHub's class names: the header, the repository
header and tabs, the file tree, the breadcrumbs and blob toolbar (with "Edit this
file"), the rendered file in ``<article class="markdown-body entry-content">``, the
outline (the file's table of contents) and the footer. A job's ``chrome`` mapping
picks variants that change only boilerplate:

* ``header: classic`` the older logged-out navigation instead of today's;
* ``signup_banner: true`` the "sign up" flash above the repository;
* ``cookie_banner: true`` the cookie consent dialog.
"""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import cmarkgfm  # ships no type information: see [tool.mypy] in pyproject.toml
from cmarkgfm.cmark import Options

from renderers import GitRepo, RenderJob

OWNER_REPO_URL = re.compile(r"https://(?:github\.com|raw\.githubusercontent\.com)/([^/]+)/([^/]+)/")
MARKDOWN_SUFFIXES = (".md", ".markdown", ".mdown")
EXTENSIONS = ["table", "autolink", "strikethrough", "tasklist"]
OPTIONS = Options.CMARK_OPT_UNSAFE | Options.CMARK_OPT_GITHUB_PRE_LANG

LINK_ICON = (
    '<svg class="octicon octicon-link" viewBox="0 0 16 16" version="1.1" width="16" '
    'height="16" aria-hidden="true"><path d="m7.775 3.275 1.25-1.25a3.5 3.5 0 1 1 4.95 '
    "4.95l-2.5 2.5a3.5 3.5 0 0 1-4.95 0 .751.751 0 0 1 .018-1.042.751.751 0 0 1 1.042-"
    ".018 1.998 1.998 0 0 0 2.83 0l2.5-2.5a2.002 2.002 0 0 0-2.83-2.83l-1.25 1.25a.751"
    '.751 0 0 1-1.042-.018.751.751 0 0 1-.018-1.042Z"></path></svg>'
)
COPY_BUTTON = (
    '<div class="zeroclipboard-container"><clipboard-copy aria-label="Copy" '
    'class="ClipboardButton btn btn-invisible js-clipboard-copy m-2 p-0 d-flex '
    'flex-justify-center flex-items-center" tabindex="0" role="button">'
    '<svg aria-hidden="true" height="16" viewBox="0 0 16 16" width="16" '
    'class="octicon octicon-copy"></svg></clipboard-copy></div>'
)

MODERN_NAV = ("Product", "Solutions", "Resources", "Open Source", "Enterprise", "Pricing")
CLASSIC_NAV = ("Why GitHub?", "Team", "Enterprise", "Explore", "Marketplace", "Pricing")
REPO_TABS = ("Code", "Issues", "Pull requests", "Actions", "Projects", "Security", "Insights")
FOOTER_LINKS = (
    "Terms",
    "Privacy",
    "Security",
    "Status",
    "Community",
    "Docs",
    "Contact",
    "Manage cookies",
    "Do not share my personal information",
)


@dataclass(frozen=True)
class Heading:
    """One heading of the rendered file, for the outline."""

    level: int
    text: str
    slug: str


@dataclass(frozen=True)
class Blob:
    """What the page around a rendered file needs to know."""

    owner: str
    name: str
    path: str
    commit: str
    last_commit: str
    tree: list[tuple[str, str]]  # (kind, name): "tree" for a folder, "blob" for a file
    chrome: Mapping[str, Any]


# --------------------------------------------------------------------------- entry point


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Write every job's page: a blob page for Markdown, the raw bytes otherwise."""
    for job in jobs:
        source = repo.show(job.commit, job.path)
        if job.path.lower().endswith(MARKDOWN_SUFFIXES):
            job.out.write_text(blob_page(_blob(repo, job), source.decode("utf-8")), "utf-8")
        else:
            job.out.write_bytes(source)


def _blob(repo: GitRepo, job: RenderJob) -> Blob:
    match = OWNER_REPO_URL.match(job.url)
    owner, name = match.groups() if match else ("owner", "repo")
    last = repo.git("log", "-1", "--format=%h|%cs|%s", job.commit, "--", job.path)
    tree = _top_level(repo, job.commit)
    return Blob(owner, name, job.path, job.commit, last.decode("utf-8").strip(), tree, job.chrome)


def _top_level(repo: GitRepo, commit: str) -> list[tuple[str, str]]:
    """The repository's top-level entries at the commit, folders first as GitHub lists them."""
    entries = []
    for line in repo.git("ls-tree", commit).decode("utf-8").splitlines():
        meta, name = line.split("\t", 1)
        entries.append(("tree" if meta.split()[1] == "tree" else "blob", name))
    return sorted(entries, key=lambda entry: (entry[0] != "tree", entry[1].lower()))


# --------------------------------------------------------------------------- markdown


def markdown_html(source: str) -> tuple[str, list[Heading]]:
    """The file as GitHub renders it inside ``markdown-body``, and its headings."""
    body = cmarkgfm.markdown_to_html_with_extensions(source, options=OPTIONS, extensions=EXTENSIONS)
    body, headings = _anchor_headings(body)
    body = _wrap_code_blocks(body)
    body = _wrap_tables(body)
    return body, headings


_HEADING = re.compile(r"<h([1-6])>(.*?)</h\1>", re.S)
_TAG = re.compile(r"<[^>]+>")
_NOT_SLUG = re.compile(r"[^\w\- ]", re.U)


def slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    return _NOT_SLUG.sub("", text.strip().lower()).replace(" ", "-")


def _anchor_headings(body: str) -> tuple[str, list[Heading]]:
    headings: list[Heading] = []
    seen: dict[str, int] = {}

    def anchor(match: re.Match[str]) -> str:
        level, inner = int(match.group(1)), match.group(2)
        text = html.unescape(_TAG.sub("", inner))
        base = slug(text)
        count = seen.get(base, 0)
        seen[base] = count + 1
        name = base if count == 0 else f"{base}-{count}"
        headings.append(Heading(level, text, name))
        label = html.escape(f"Permalink: {text}")
        return (
            f'<div class="markdown-heading" dir="auto"><h{level} tabindex="-1" '
            f'class="heading-element" dir="auto">{inner}</h{level}>'
            f'<a id="user-content-{name}" class="anchor" aria-label="{label}" '
            f'href="#{name}">{LINK_ICON}</a></div>'
        )

    return _HEADING.sub(anchor, body), headings


_FENCED = re.compile(r'<pre lang="([^"]+)"><code>(.*?)</code></pre>', re.S)
_PLAIN = re.compile(r"<pre><code>(.*?)</code></pre>", re.S)


def _wrap_code_blocks(body: str) -> str:
    def fenced(match: re.Match[str]) -> str:
        lang = re.sub(r"[^a-z0-9]+", "-", match.group(1).lower())
        return (
            f'<div class="highlight highlight-source-{lang} notranslate position-relative '
            f'overflow-auto" dir="auto"><pre>{match.group(2)}</pre>{COPY_BUTTON}</div>'
        )

    def plain(match: re.Match[str]) -> str:
        return (
            '<div class="snippet-clipboard-content notranslate position-relative '
            f'overflow-auto"><pre class="notranslate"><code>{match.group(1)}</code></pre>'
            f"{COPY_BUTTON}</div>"
        )

    return _PLAIN.sub(plain, _FENCED.sub(fenced, body))


def _wrap_tables(body: str) -> str:
    return body.replace("<table>", "<markdown-accessiblity-table><table>").replace(
        "</table>", "</table></markdown-accessiblity-table>"
    )


# --------------------------------------------------------------------------- page chrome


def blob_page(blob: Blob, source: str) -> str:
    """The whole blob page: chrome around the rendered file."""
    body, headings = markdown_html(source)
    title = f"{blob.name}/{blob.path} at main · {blob.owner}/{blob.name}"
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en" data-color-mode="auto"><head><meta charset="utf-8">',
        f"<title>{html.escape(title)}</title>",
        f'<link rel="canonical" href="https://github.com/{blob.owner}/{blob.name}/blob/main/'
        f'{html.escape(blob.path)}"></head>',
        '<body class="logged-out env-production page-responsive">',
        '<div class="logged-out env-production page-responsive" style="word-wrap: break-word;">',
        _cookie_banner() if blob.chrome.get("cookie_banner") else "",
        _header(str(blob.chrome.get("header", "modern"))),
        '<div class="application-main" data-commit-hovercards-enabled>',
        '<main id="js-repo-pjax-container">',
        _signup_banner() if blob.chrome.get("signup_banner") else "",
        _repo_header(blob),
        '<div class="Layout Layout--flowRow-until-md react-repos-overview-margin">',
        _file_tree(blob),
        '<div class="Layout-main">',
        _breadcrumbs(blob),
        _blob_toolbar(blob),
        '<section aria-labelledby="file-name-id" class="react-code-view-root">',
        f'<div id="readme" class="Box MD js-code-block-container Box--responsive" '
        f'data-tagsearch-path="{html.escape(blob.path)}" data-tagsearch-lang="Markdown">',
        '<div class="Box-body px-5 pb-5">',
        '<article class="markdown-body entry-content container-lg" itemprop="text">',
        body,
        "</article></div></div></section></div>",
        _outline(headings),
        "</div></main></div>",
        _footer(),
        "</div></body></html>",
    ]
    return "\n".join(part for part in parts if part)


def _header(variant: str) -> str:
    nav = CLASSIC_NAV if variant == "classic" else MODERN_NAV
    items = "".join(
        f'<li class="HeaderMenu-item"><button class="HeaderMenu-link" type="button">'
        f"{html.escape(item)}</button></li>"
        for item in nav
    )
    search = "Search GitHub" if variant == "classic" else "Search or jump to..."
    return (
        '<header class="HeaderMktg header-logged-out js-details-container Details" role="banner">'
        '<div class="container-xl d-flex flex-items-center p-responsive">'
        '<a class="mr-lg-3 color-fg-inherit flex-order-2" href="https://github.com/" '
        'aria-label="Homepage"><svg class="octicon octicon-mark-github" height="32" '
        'width="32" aria-hidden="true"></svg></a>'
        f'<nav aria-label="Global" class="HeaderMenu-nav"><ul class="d-lg-flex list-style-none">'
        f"{items}</ul></nav>"
        f'<div class="HeaderMenu-search"><button class="header-search-button" type="button">'
        f'<span class="header-search-placeholder">{search}</span></button></div>'
        '<a class="HeaderMenu-link HeaderMenu-link--sign-in" href="/login">Sign in</a>'
        '<a class="HeaderMenu-link HeaderMenu-link--sign-up" href="/signup">Sign up</a>'
        "</div></header>"
    )


def _signup_banner() -> str:
    return (
        '<div class="flash flash-full flash-notice js-signup-prompt" role="region" '
        'aria-label="Sign up prompt"><div class="container-lg px-3">'
        "<h2>Join GitHub today</h2>"
        "<p>GitHub is home to millions of developers working together to host and review "
        "code, manage projects, and build software together.</p>"
        '<a class="btn btn-primary" href="/signup">Sign up</a>'
        '<button class="flash-close js-flash-close" type="button" aria-label="Dismiss">'
        "</button></div></div>"
    )


def _cookie_banner() -> str:
    return (
        '<ghcc-consent id="ghcc" class="position-fixed bottom-0 left-0" style="z-index: 999999">'
        '<div class="cookie-consent-banner" role="dialog" aria-label="Cookie consent">'
        "<p>We use optional cookies to improve your experience on our websites and to "
        "display personalized advertising based on your online activity. If you reject "
        "optional cookies, only cookies necessary to provide you the services will be "
        "used. You may change your selection by clicking Manage Cookies at the bottom "
        "of the page.</p>"
        '<button type="button" class="btn">Accept</button>'
        '<button type="button" class="btn">Reject</button>'
        '<button type="button" class="btn">Manage cookies</button>'
        "</div></ghcc-consent>"
    )


def _repo_header(blob: Blob) -> str:
    base = f"/{blob.owner}/{blob.name}"
    tabs = "".join(
        f'<li class="d-inline-flex"><a class="UnderlineNav-item" '
        f'href="{base}/{tab.lower().replace(" ", "")}">{html.escape(tab)}</a></li>'
        for tab in REPO_TABS
    )
    return (
        '<div id="repository-container-header" class="pt-3 hide-full-screen">'
        '<div class="d-flex flex-nowrap flex-justify-end mb-3 px-3 px-lg-5">'
        f'<strong itemprop="author"><a href="/{blob.owner}">{blob.owner}</a></strong>'
        '<span class="mx-1 flex-self-stretch color-fg-muted">/</span>'
        f'<strong itemprop="name"><a href="{base}">{blob.name}</a></strong>'
        '<span class="Label Label--secondary v-align-middle mr-1">Public</span>'
        '<ul class="pagehead-actions flex-shrink-0">'
        '<li><a class="btn-sm btn" href="/login">Notifications</a></li>'
        '<li><a class="btn-sm btn" href="/login">Fork</a></li>'
        '<li><a class="btn-sm btn" href="/login">Star</a></li></ul></div>'
        '<nav class="js-repo-nav UnderlineNav px-3 px-lg-5" aria-label="Repository">'
        f'<ul class="UnderlineNav-body list-style-none">{tabs}</ul></nav></div>'
    )


def _file_tree(blob: Blob) -> str:
    base = f"/{blob.owner}/{blob.name}"
    rows = "".join(
        f'<li class="PRIVATE_TreeView-item" role="treeitem" data-kind="{kind}">'
        f'<a href="{base}/{kind}/main/{html.escape(name)}">'
        f'<span class="PRIVATE_TreeView-item-content-text">{html.escape(name)}</span></a></li>'
        for kind, name in blob.tree
    )
    return (
        '<div class="Layout-sidebar" id="repos-file-tree">'
        '<h2 class="f5">Files</h2>'
        '<button class="btn" type="button">main</button>'
        '<input type="text" placeholder="Go to file" aria-label="Go to file">'
        f'<ul role="tree" aria-label="Files" class="PRIVATE_TreeView-directory">{rows}</ul>'
        "</div>"
    )


def _breadcrumbs(blob: Blob) -> str:
    crumbs = [f'<a href="/{blob.owner}/{blob.name}/tree/main">{blob.name}</a>']
    parts = blob.path.split("/")
    for index, part in enumerate(parts[:-1]):
        folder = "/".join(parts[: index + 1])
        crumbs.append(f'<a href="/{blob.owner}/{blob.name}/tree/main/{folder}">{part}</a>')
    crumbs.append(f'<h1 id="file-name-id" class="f4">{html.escape(parts[-1])}</h1>')
    return (
        '<nav aria-label="Breadcrumbs" class="react-code-view-header-breadcrumbs">'
        + '<span class="separator">/</span>'.join(crumbs)
        + "</nav>"
    )


def _blob_toolbar(blob: Blob) -> str:
    short, date, subject = [*blob.last_commit.split("|", 2), "", ""][:3]
    raw = f"https://github.com/{blob.owner}/{blob.name}/raw/main/{html.escape(blob.path)}"
    edit = f"https://github.com/{blob.owner}/{blob.name}/edit/main/{html.escape(blob.path)}"
    history = f"/{blob.owner}/{blob.name}/commits/main/{html.escape(blob.path)}"
    return (
        '<div class="react-blob-header-edit-and-raw-actions d-flex">'
        '<div class="Box-header d-flex flex-items-center">'
        f'<span class="commit-message">{html.escape(subject)}</span>'
        f'<a class="commit-sha" href="/{blob.owner}/{blob.name}/commit/{short}">{short}</a>'
        f'<relative-time datetime="{date}">{date}</relative-time>'
        f'<a class="btn-sm" href="{history}">History</a></div>'
        '<div class="BtnGroup"><a class="btn-sm BtnGroup-item" href="#">Preview</a>'
        '<a class="btn-sm BtnGroup-item" href="#?plain=1">Code</a>'
        f'<a class="btn-sm BtnGroup-item" href="/{blob.owner}/{blob.name}/blame/main/'
        f'{html.escape(blob.path)}">Blame</a></div>'
        f'<a class="btn-sm" href="{raw}">Raw</a>'
        f'<a class="btn-sm" href="{edit}" aria-label="Edit this file">Edit this file</a>'
        "</div>"
    )


def _outline(headings: list[Heading]) -> str:
    if not headings:
        return ""
    items = "".join(
        f'<li class="ActionList-item" style="padding-left: {8 * (h.level - 1)}px">'
        f'<a class="ActionList-content" href="#{h.slug}">{html.escape(h.text)}</a></li>'
        for h in headings
    )
    return (
        '<div class="Layout-sidebar outline-panel" aria-label="Outline">'
        '<h2 class="f5 text-bold">Outline</h2>'
        '<input type="text" placeholder="Filter headings" aria-label="Filter headings">'
        f'<ul class="ActionList" role="list">{items}</ul></div>'
    )


def _footer() -> str:
    links = "".join(
        f'<li class="mx-2"><a class="Link--secondary" href="#">{html.escape(link)}</a></li>'
        for link in FOOTER_LINKS
    )
    return (
        '<footer class="footer pt-8 pb-6 f6 color-fg-muted p-responsive" role="contentinfo">'
        '<h2 class="sr-only">Footer</h2>'
        '<div class="d-flex flex-items-center"><svg class="octicon octicon-mark-github" '
        'height="24" width="24" aria-hidden="true"></svg>'
        "<span>© 2026 GitHub,&nbsp;Inc.</span></div>"
        f'<nav aria-label="Footer"><h3 class="sr-only">Footer navigation</h3>'
        f'<ul class="list-style-none d-flex flex-wrap">{links}</ul></nav></footer>'
    )
