"""Antora pages (AsciiDoc in modules/) rendered as an Antora site serves them, with Asciidoctor.

An Antora component keeps its pages under `modules/<module>/pages/`, the files they
include under `partials/` and `examples/`, its AsciiDoc attributes in `antora.yml`
and its navigation in `modules/ROOT/nav.adoc`. Antora itself (and the site's UI
bundle) is a Node.js build driven by a playbook that fetches other repositories; it
is not run here. Instead this renderer does what Antora does to one page and hands
the result to the real converter, the `asciidoctor` command (Debian's `asciidoctor`
package):

* the `modules/` tree at the page's commit is written out with `git archive`;
* Antora's resource IDs in `include::` directives (`partial$x.adoc`,
  `manage:partial$x.adoc`, `example$...`) become paths in that tree, so Asciidoctor
  includes the same files Antora would; an include of another component, which this
  repository does not hold, is dropped;
* `xref:module:path/page.adoc#frag[text]` becomes a link to the page's URL on the
  site (an empty text becomes the target page's title, as Antora shows it); the
  site's own macros become what its extensions make of them: `glossterm:` its term,
  `config_ref:` and `helm_ref:` a link to the property's reference entry, `badge::`
  nothing;
* the attributes come from `antora.yml` at that commit (a trailing `@` soft-sets),
  plus Antora's own (`env-site`, `site-gen-antora`, the page's component, version
  and module).

The HTML around the content is ours, modelled on an Antora UI (the Redpanda
documentation's): a navbar, the component's navigation tree read from `nav.adoc` at
the commit, a toolbar with breadcrumbs and the version, `<article class="doc">`
holding the page title and Asciidoctor's output, and a footer. A job's `chrome`
mapping can add an announcement bar (`announcement`), a cookie consent banner
(`cookie_banner`), another set of navbar links (`nav: alt`) and the "Was this
helpful?" feedback form at the end of the article (`feedback`).
"""

from __future__ import annotations

import html
import io
import re
import subprocess
import tarfile
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from renderers import GitRepo, RenderJob

SITE = "https://docs.redpanda.com"
SOURCE = "https://github.com/redpanda-data/docs/blob/main/"
SITE_VERSION = "current"

FAMILIES: Mapping[str, str] = {
    "partial": "partials",
    "example": "examples",
    "page": "pages",
    "attachment": "attachments",
    "image": "images",
}

_INCLUDE = re.compile(r"^(?P<lead>include::)(?P<target>[^\[\s]+)(?P<attrs>\[.*\])\s*$", re.M)
_XREF = re.compile(r"xref:(?P<target>[^\[\s]+?)\[(?P<text>[^\]]*)\]")
_GLOSSTERM = re.compile(r"glossterm:(?P<term>[^\[\]]*?)\[(?P<text>[^\]]*)\]")
_CONFIG_REF = re.compile(
    r"config_ref:(?P<name>[^,\[\s]+),(?P<flag>[^,\[\s]*),(?P<page>[^\[\s]+)\[(?P<text>[^\]]*)\]"
)
_HELM_REF = re.compile(r"helm_ref:(?P<name>[^\[\s]+)\[(?P<text>[^\]]*)\]")
_BADGE = re.compile(r"\s*badge::\[[^\]]*\]")
_DOCTITLE = re.compile(r"^=\s+(.+?)\s*$", re.M)
_H1 = re.compile(r"<h1>(.*?)</h1>\s*", re.DOTALL)
_NAV_ITEM = re.compile(r"^(?P<stars>\*+)\s+(?P<text>.+?)\s*$")
_ATTRIBUTE_REF = re.compile(r"\{([A-Za-z0-9_][A-Za-z0-9_-]*)\}")

NAVBARS: Mapping[str, tuple[tuple[str, str], ...]] = {
    "default": (
        ("Self-Managed", "/current/home/"),
        ("Cloud", "/redpanda-cloud/home/"),
        ("Labs", "/redpanda-labs/"),
        ("Connect", "/redpanda-connect/home/"),
    ),
    "alt": (
        ("Home", "/home/"),
        ("Redpanda Cloud", "/redpanda-cloud/home/"),
        ("Self-Managed", "/current/home/"),
        ("Redpanda Connect", "/redpanda-connect/home/"),
        ("Labs", "/redpanda-labs/"),
        ("API", "/api/"),
    ),
}
DEFAULT_ANNOUNCEMENT = "Redpanda Self-Managed has a new release. See what's new."


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Write every job's page, one modules/ tree a commit."""
    by_commit: dict[str, list[RenderJob]] = {}
    for job in jobs:
        by_commit.setdefault(job.commit, []).append(job)
    for commit, commit_jobs in by_commit.items():
        with tempfile.TemporaryDirectory(prefix="corpus-antora-") as tmp:
            root = Path(tmp)
            component = _component(repo, commit)
            _write_modules(repo, commit, root)
            nav = _nav(root, component)
            for job in commit_jobs:
                title, body = _asciidoctor(root, job.path, component)
                job.out.write_text(_page(job, component, title, body, nav), "utf-8")


# --------------------------------------------------------------------------- sources


def _component(repo: GitRepo, commit: str) -> dict[str, Any]:
    """antora.yml at the commit: the component's name, version and attributes."""
    data = yaml.safe_load(repo.show(commit, "antora.yml")) or {}
    return data if isinstance(data, dict) else {}


def _write_modules(repo: GitRepo, commit: str, root: Path) -> None:
    """The modules/ tree at `commit`, its AsciiDoc made plain for Asciidoctor."""
    archive = repo.git("archive", "--format=tar", commit, "modules")
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    for source in (root / "modules").rglob("*.adoc"):
        if source.is_file():
            text = source.read_text("utf-8", errors="replace")
            source.write_text(_plain_asciidoc(text, source, root), "utf-8")


def _module_of(source: Path, root: Path) -> str:
    parts = source.relative_to(root / "modules").parts
    return parts[0] if parts else "ROOT"


def _plain_asciidoc(text: str, source: Path, root: Path) -> str:
    """The file with Antora's resource IDs and the site's macros written as stock AsciiDoc."""
    module = _module_of(source, root)

    def include(match: re.Match[str]) -> str:
        target = match.group("target")
        if "$" not in target:
            return match.group(0)
        path = _resource_path(target, module, root)
        if path is None:
            return f"// include of another component: {target}"
        return f"{match.group('lead')}{path}{match.group('attrs')}"

    text = _INCLUDE.sub(include, text)
    folder = _page_folder(source, root)
    text = _XREF.sub(
        lambda m: _xref(m.group("target"), m.group("text"), module, folder, root), text
    )
    text = _GLOSSTERM.sub(lambda m: m.group("text") or m.group("term"), text)
    text = _CONFIG_REF.sub(_config_ref, text)
    text = _HELM_REF.sub(_helm_ref, text)
    return _BADGE.sub("", text)


def _config_ref(match: re.Match[str]) -> str:
    """The site's `config_ref:name,flag,page[]` macro: a link to a property's reference entry."""
    name, page = match.group("name"), match.group("page")
    text = match.group("text") or f"`{name}`"
    return f"link:/{SITE_VERSION}/reference/{_page_url(page)}#{name}[{text}]"


def _helm_ref(match: re.Match[str]) -> str:
    """The site's `helm_ref:key[]` macro: a link to the Helm chart's reference entry."""
    name = match.group("name")
    text = match.group("text") or f"`{name}`"
    return f"link:/{SITE_VERSION}/reference/k-redpanda-helm-spec/#{name}[{text}]"


def _resource_path(target: str, module: str, root: Path) -> Path | None:
    """The file an Antora resource ID names, in this component; None for another component."""
    coordinates, _, relative = target.partition("$")
    coordinates = coordinates.split("@")[-1]
    parts = coordinates.split(":")
    if len(parts) > 2:
        return None
    family = parts[-1]
    owner = parts[0] if len(parts) == 2 else module
    if family not in FAMILIES:
        return None
    return root / "modules" / owner / FAMILIES[family] / relative


def _page_folder(source: Path, root: Path) -> str:
    """The folder of a page under its module's pages/ ('' for a partial or a top-level page)."""
    parts = source.relative_to(root / "modules").parts
    if len(parts) > 2 and parts[1] == "pages":
        return "/".join(parts[2:-1])
    return ""


def _xref(target: str, text: str, module: str, folder: str, root: Path) -> str:
    """An Antora cross reference, as the link Antora makes of it."""
    if target.startswith("#"):
        return f"xref:{target}[{text}]"
    page, _, fragment = target.partition("#")
    page = page.split("@")[-1]
    parts = page.split(":")
    if len(parts) > 2:
        url = f"{SITE}/{'/'.join(parts[:-1])}/{_page_url(parts[-1])}"
        path = None
    else:
        owner = parts[0] if len(parts) == 2 else module
        relative = parts[-1]
        if relative.startswith("./") and len(parts) == 1:
            relative = str(PurePosixPath(folder) / relative.removeprefix("./"))
        url = f"/{SITE_VERSION}/" + ("" if owner == "ROOT" else f"{owner}/") + _page_url(relative)
        path = root / "modules" / owner / "pages" / relative.removeprefix("./")
    if fragment:
        url += f"#{fragment}"
    if not text:
        text = _title_of(path) if path is not None else ""
        text = text or PurePosixPath(parts[-1]).stem.replace("-", " ")
    return f"link:{url}[{text}]"


def _page_url(page: str) -> str:
    stem = page.removeprefix("./").removesuffix(".adoc").removeprefix("./")
    if stem == "index":
        return ""
    if stem.endswith("/index"):
        return stem[: -len("index")]
    return f"{stem}/"


def _title_of(path: Path | None) -> str:
    if path is None or not path.is_file():
        return ""
    match = _DOCTITLE.search(path.read_text("utf-8", errors="replace"))
    return match.group(1) if match else ""


def _attributes(component: Mapping[str, Any], job_path: str) -> list[str]:
    """Asciidoctor's -a options: antora.yml's attributes, then Antora's own."""
    options = []
    asciidoc = component.get("asciidoc") or {}
    attributes = asciidoc.get("attributes") if isinstance(asciidoc, dict) else None
    for name, value in (attributes or {}).items():
        if isinstance(value, bool) or value is None:
            options.append(f"{name}" if value else f"{name}!")
        elif isinstance(value, (str, int, float)):
            options.append(f"{name}={value}")
    module = PurePosixPath(job_path).parts[1]
    options += [
        "env=site",
        "env-site",
        "site-gen=antora",
        "site-gen-antora",
        f"page-component-name={component.get('name', 'ROOT')}",
        f"page-component-version={component.get('version', '')}",
        f"page-module={module}",
        "sectanchors",
        "showtitle",
        "experimental",
        "icons=font",
    ]
    return options


def _asciidoctor(root: Path, job_path: str, component: Mapping[str, Any]) -> tuple[str, str]:
    """The page's title and the embeddable HTML Asciidoctor makes of its body."""
    command = ["asciidoctor", "-b", "html5", "-s", "-o", "-", "-S", "unsafe"]
    for attribute in _attributes(component, job_path):
        command += ["-a", attribute]
    done = subprocess.run(
        [*command, str(root / job_path)], cwd=root, check=True, capture_output=True, text=True
    )
    body = done.stdout
    match = _H1.search(body)
    if not match:
        return "", body
    return match.group(1), body[: match.start()] + body[match.end() :]


# --------------------------------------------------------------------------- navigation


def _nav(root: Path, component: Mapping[str, Any]) -> list[tuple[int, str, str]]:
    """The component's navigation tree: (level, title, href) for each entry."""
    entries = []
    for nav_file in component.get("nav") or ["modules/ROOT/nav.adoc"]:
        path = root / str(nav_file)
        if not path.is_file():
            continue
        for line in path.read_text("utf-8", errors="replace").splitlines():
            match = _NAV_ITEM.match(line)
            if not match:
                continue
            text = match.group("text")
            link = re.match(r"link:(\S+?)\[(.*)\]$", text)
            if link:
                href, title = link.group(1), link.group(2)
            else:
                href, title = "", text
            entries.append((len(match.group("stars")), _plain_title(title), href))
    return entries


def _plain_title(text: str) -> str:
    return _ATTRIBUTE_REF.sub(lambda m: m.group(1), re.sub(r"[*_`]", "", text))


# --------------------------------------------------------------------------- chrome


def _page(
    job: RenderJob,
    component: Mapping[str, Any],
    title: str,
    body: str,
    nav: list[tuple[int, str, str]],
) -> str:
    chrome = job.chrome
    plain_title = re.sub(r"<[^>]+>", "", title)
    version = str(component.get("version", ""))
    return "\n".join(
        [
            "<!DOCTYPE html>",
            '<html lang="en">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width,initial-scale=1">',
            f"<title>{html.escape(plain_title)} | Redpanda Self-Managed</title>",
            f'<link rel="canonical" href="{html.escape(job.url)}">',
            '<link rel="stylesheet" href="/_/css/site.css">',
            "</head>",
            '<body class="article">',
            _announcement(chrome),
            _header(chrome),
            '<div class="body">',
            _nav_panel(nav, job, version),
            '<main class="article">',
            _toolbar(job, plain_title, version),
            '<div class="content">',
            '<aside class="toc sidebar" data-title="On this page" data-levels="2">'
            '<div class="toc-menu"></div></aside>',
            '<article class="doc">',
            f'<h1 class="page">{title}</h1>',
            body,
            _feedback(chrome),
            _pagination(nav, job),
            "</article>",
            "</div>",
            "</main>",
            "</div>",
            _footer(),
            _cookie_banner(chrome),
            '<script src="/_/js/site.js"></script>',
            "</body>",
            "</html>",
        ]
    )


def _header(chrome: Mapping[str, Any]) -> str:
    links = NAVBARS.get(str(chrome.get("nav", "default")), NAVBARS["default"])
    items = "\n".join(f'<a class="navbar-item" href="{href}">{text}</a>' for text, href in links)
    return (
        '<header class="header">\n<nav class="navbar">\n'
        '<div class="navbar-brand"><a class="navbar-item" href="/home/">'
        '<img src="/_/img/redpanda-logo.svg" alt="Redpanda Docs"></a>'
        '<button class="navbar-burger" aria-label="Toggle main menu"></button></div>\n'
        f'<div id="topbar-nav" class="navbar-menu"><div class="navbar-start">\n{items}\n</div>\n'
        '<div class="navbar-end"><div class="navbar-item search">'
        '<input id="search-input" type="text" placeholder="Search the docs"></div>'
        '<a class="navbar-item" href="https://redpanda.com/try-redpanda">Try Redpanda</a>'
        "</div></div>\n</nav>\n</header>"
    )


def _nav_panel(nav: list[tuple[int, str, str]], job: RenderJob, version: str) -> str:
    items = []
    current = _url_path(job.url)
    for level, title, href in nav:
        active = " is-current-page" if href and _url_path(href) == current else ""
        link = (
            f'<a class="nav-link" href="{html.escape(href)}">{html.escape(title)}</a>'
            if href
            else f'<span class="nav-text">{html.escape(title)}</span>'
        )
        items.append(f'<li class="nav-item{active}" data-depth="{level}">{link}</li>')
    return (
        '<div class="nav-container" data-component="ROOT" '
        f'data-version="{html.escape(version)}">\n<aside class="nav">\n<div class="panels">\n'
        '<div class="nav-panel-menu is-active" data-panel="menu">\n<nav class="nav-menu">\n'
        '<h3 class="title"><a href="/current/home/">Self-Managed</a></h3>\n'
        '<ul class="nav-list">\n' + "\n".join(items) + "\n</ul>\n</nav>\n</div>\n"
        '<div class="nav-panel-explore" data-panel="explore">\n'
        f'<div class="context"><span class="title">Self-Managed</span> '
        f'<span class="version">{html.escape(version)}</span></div>\n'
        "</div>\n</div>\n</aside>\n</div>"
    )


def _url_path(url: str) -> str:
    path = re.sub(r"^https?://[^/]+", "", url).split("#")[0]
    return path.rstrip("/")


def _toolbar(job: RenderJob, title: str, version: str) -> str:
    return (
        '<div class="toolbar" role="navigation">\n'
        '<nav class="breadcrumbs" aria-label="breadcrumbs"><ul>'
        '<li><a href="/current/home/">Self-Managed</a></li>'
        f"<li>{html.escape(title)}</li></ul></nav>\n"
        f'<div class="page-versions"><button class="version-menu-toggle">'
        f"Version {html.escape(version)}</button></div>\n"
        f'<div class="edit-this-page"><a href="{SOURCE}{html.escape(job.path)}">'
        "Edit this page</a></div>\n</div>"
    )


def _pagination(nav: list[tuple[int, str, str]], job: RenderJob) -> str:
    current = _url_path(job.url)
    hrefs = [(title, href) for _, title, href in nav if href]
    for index, (_, href) in enumerate(hrefs):
        if _url_path(href) != current:
            continue
        links = []
        if index > 0:
            prev_title, prev_href = hrefs[index - 1]
            links.append(
                f'<span class="prev"><a href="{html.escape(prev_href)}">'
                f"{html.escape(prev_title)}</a></span>"
            )
        if index + 1 < len(hrefs):
            next_title, next_href = hrefs[index + 1]
            links.append(
                f'<span class="next"><a href="{html.escape(next_href)}">'
                f"{html.escape(next_title)}</a></span>"
            )
        return '<nav class="pagination">' + "".join(links) + "</nav>"
    return ""


def _feedback(chrome: Mapping[str, Any]) -> str:
    if not chrome.get("feedback"):
        return ""
    return (
        '<form class="feedback-form" aria-label="Page feedback">'
        "<p>Was this helpful?</p>"
        '<button type="button" value="yes">Yes</button>'
        '<button type="button" value="no">No</button></form>'
    )


def _announcement(chrome: Mapping[str, Any]) -> str:
    announcement = chrome.get("announcement")
    if not announcement:
        return ""
    text = announcement if isinstance(announcement, str) else DEFAULT_ANNOUNCEMENT
    return (
        '<div class="announcement-bar" role="banner">'
        f'<p>{html.escape(text)} <a href="/current/get-started/release-notes/">Learn more</a></p>'
        "</div>"
    )


def _cookie_banner(chrome: Mapping[str, Any]) -> str:
    if not chrome.get("cookie_banner"):
        return ""
    return (
        '<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookies">'
        "<p>We use cookies to improve your experience on our documentation and to analyze"
        ' traffic. See our <a href="https://redpanda.com/legal/privacy-policy">privacy'
        " policy</a>.</p>"
        '<button type="button">Accept</button> <button type="button">Decline</button></div>'
    )


def _footer() -> str:
    return (
        '<footer class="footer">\n'
        '<div class="footer-links"><a href="https://redpanda.com">Redpanda</a> '
        '<a href="https://redpanda.com/slack">Community Slack</a> '
        '<a href="https://github.com/redpanda-data">GitHub</a> '
        '<a href="https://redpanda.com/legal/privacy-policy">Privacy</a></div>\n'
        "<p>&copy; Redpanda Data, Inc.</p>\n"
        "</footer>"
    )
