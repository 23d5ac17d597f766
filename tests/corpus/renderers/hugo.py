"""Render a Hugo docs page (etcd.io's layout) at a commit, with the real Hugo binary.

etcd.io is a Hugo site on the Docsy theme, which is a Hugo module fetched from GitHub at
build time and so cannot be had here. This renderer builds a small Hugo site of its own
in a temporary directory and runs `hugo` (Debian's package) over it:

* the page's Markdown source, as it was at the commit, goes in unchanged;
* every other Markdown page of the same docs version becomes a stub that keeps only its
  front matter (title, weight), so Hugo's own section tree gives the sidebar the real
  titles of the other pages as they were at that commit;
* the layouts are ours, written to resemble Docsy's markup: a navbar, the left sidebar
  `td-sidebar`, the right `td-sidebar-toc` with "Edit this page" links and Hugo's table
  of contents, the content in `<div class="td-content">` inside `<main role="main">`,
  and a footer;
* the shortcodes the pages use (`alert`, `param`, `psubstr`) are small stand-ins that
  render their inner content; any other shortcode a page calls is stubbed to its inner
  content, so the prose survives.

A version's `chrome` mapping (from cases.yaml) changes only boilerplate:
`cookie_banner: true` adds a consent banner, `announcement: TEXT` an announcement bar
above the navbar, `version_banner: LATEST` Docsy's "older version" notice (which Docsy
places inside `<main>`, so it is part of the text a reader sees), `nav: NAME` another set
of navbar entries, and `lastmod: true` Docsy's "Last modified" line at the end of the
content. The repository's own Hugo configuration, layouts and theme are never used.
"""

from __future__ import annotations

import json
import re
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import yaml

from . import GitRepo, RenderJob

SITE_REPO = "https://github.com/etcd-io/website"
CONTENT_PREFIX = "content/en/"
STUB_KEYS = ("title", "linkTitle", "weight", "draft", "toc_hide")
KNOWN_SHORTCODES = frozenset({"alert", "param", "psubstr"})
_FRONT_MATTER = re.compile(r"\A---\s*\n(.*?)\n---\s*(?:\n|\Z)", re.DOTALL)
_SHORTCODE_NAME = re.compile(r"\{\{[<%]\s*([A-Za-z][\w/-]*)")

NAV_ENTRIES: Mapping[str, Sequence[tuple[str, str]]] = {
    "default": (
        ("Docs", "/docs/"),
        ("Blog", "/blog/"),
        ("Community", "/community/"),
        ("Install", "/install/"),
        ("Play", "http://play.etcd.io"),
    ),
    "2022": (
        ("Docs", "/docs/"),
        ("Blog", "/blog/"),
        ("Community", "/community/"),
        ("Install", "/install/"),
        ("Play", "http://play.etcd.io"),
        ("GitHub", "https://github.com/etcd-io/etcd"),
    ),
    "2026": (
        ("Docs", "/docs/"),
        ("Blog", "/blog/"),
        ("Community", "/community/"),
        ("Install", "/install/"),
        ("Adopters", "/community/#adopters"),
        ("Security", "/security/"),
    ),
}

CONFIG = """\
baseURL = "https://etcd.io/"
title = "etcd"
languageCode = "en-us"
enableGitInfo = false
disableKinds = ["taxonomy", "term", "RSS", "sitemap", "robotsTXT", "404"]

[markup.goldmark.renderer]
unsafe = true

[markup.goldmark.parser.attribute]
block = true

[markup.highlight]
noClasses = false
guessSyntax = false

[markup.tableOfContents]
startLevel = 2
endLevel = 3
ordered = false
"""

BASEOF = """\
<!doctype html>
<html lang="en" class="no-js">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1, shrink-to-fit=no">
<title>{{ .Title }} | etcd</title>
<meta name="description" content="{{ .Description }}">
<link rel="canonical" href="{{ .Permalink }}">
<link rel="stylesheet" href="/scss/main.min.css">
</head>
<body class="td-page td-documentation">
{{ with site.Params.chrome.announcement }}\
<div class="td-announcement alert alert-info mb-0 rounded-0" role="alert">\
<div class="container">{{ . | markdownify }}</div></div>{{ end }}
<header>{{ partial "navbar.html" . }}</header>
<div class="container-fluid td-outer">
<div class="td-main">
<div class="row flex-xl-nowrap">
<aside class="col-12 col-md-3 col-xl-2 td-sidebar d-print-none">\
{{ partial "sidebar.html" . }}</aside>
<aside class="d-none d-xl-block col-xl-2 td-sidebar-toc d-print-none">
{{ partial "page-meta-links.html" . }}
{{ .TableOfContents }}
</aside>
<main class="col-12 col-md-9 col-xl-8 ps-md-5" role="main">
{{ partial "version-banner.html" . }}
{{ partial "breadcrumb.html" . }}
{{ block "main" . }}{{ end }}
</main>
</div>
</div>
{{ partial "footer.html" . }}
</div>
{{ if site.Params.chrome.cookie_banner }}{{ partial "cookie-banner.html" . }}{{ end }}
<script src="/js/main.min.js"></script>
</body>
</html>
"""

SINGLE = """\
{{ define "main" }}
<div class="td-content">
<h1>{{ .Title }}</h1>
{{ with .Params.description }}<div class="lead">{{ . | markdownify }}</div>{{ end }}
{{ .Content }}
{{ if site.Params.chrome.lastmod }}\
<div class="td-page-meta__lastmod">Last modified {{ site.Params.commit_date }}: \
<a href="https://github.com/etcd-io/website/commit/{{ site.Params.commit }}">\
{{ site.Params.commit_subject }} ({{ substr site.Params.commit 0 7 }})</a></div>{{ end }}
</div>
{{ end }}
"""

NAVBAR = """\
<nav class="td-navbar js-navbar-scroll navbar navbar-expand" data-bs-theme="dark">
<div class="container-fluid flex-column flex-md-row">
<a class="navbar-brand" href="/"><span class="navbar-brand__logo navbar-logo"></span>\
<span class="navbar-brand__name">etcd</span></a>
<div class="td-navbar-nav-scroll ms-md-auto" id="main_navbar">
<ul class="navbar-nav">
{{ range site.Params.nav }}<li class="nav-item">\
<a class="nav-link" href="{{ index . 1 }}"><span>{{ index . 0 }}</span></a></li>
{{ end }}\
<li class="nav-item dropdown d-none d-lg-block">\
<a class="nav-link dropdown-toggle" href="#" role="button" data-bs-toggle="dropdown">\
{{ .Params.versName | default .Params.version }}</a></li>
</ul>
</div>
<div class="d-none d-lg-block"><div class="td-search">\
<input type="search" class="td-search__input form-control" placeholder="Search this site…" \
aria-label="Search this site…" autocomplete="off"></div></div>
</div>
</nav>
"""

SIDEBAR = """\
<div id="td-sidebar-menu" class="td-sidebar__inner">
<form class="td-sidebar__search d-flex align-items-center">\
<input type="search" class="form-control td-search__input" placeholder="Search this site…">\
</form>
<nav class="td-sidebar-nav collapse foldable-nav" id="td-section-nav">
{{ with site.GetPage site.Params.docs_root }}\
<ul class="td-sidebar-nav__section pe-md-3 ul-0">
<li class="td-sidebar-nav__section-title td-sidebar-nav__section with-child active-path">\
<a href="{{ .RelPermalink }}" class="align-left ps-0 td-sidebar-link td-sidebar-link__section \
tree-root">{{ .LinkTitle }}</a>
{{ partial "sidebar-tree.html" (dict "section" . "page" $ "level" 1) }}
</li>
</ul>{{ end }}
</nav>
</div>
"""

SIDEBAR_TREE = """\
<ul class="ul-{{ .level }}">
{{ $page := .page }}{{ $level := add .level 1 }}\
{{ range .section.Pages }}{{ if not .Params.toc_hide }}\
{{ $active := or (eq . $page) ($page.IsDescendant .) }}\
<li class="td-sidebar-nav__section-title td-sidebar-nav__section\
{{ if $active }} active-path{{ end }}">\
<a href="{{ .RelPermalink }}" class="align-left ps-0 td-sidebar-link\
{{ if .IsSection }} td-sidebar-link__section{{ else }} td-sidebar-link__page{{ end }}\
{{ if eq . $page }} active{{ end }}"><span>{{ .LinkTitle }}</span></a>
{{ if and .IsSection $active }}\
{{ partial "sidebar-tree.html" (dict "section" . "page" $page "level" $level) }}{{ end }}\
</li>
{{ end }}{{ end }}\
</ul>
"""

PAGE_META = """\
<div class="td-page-meta ms-2 pb-1 pt-2 mb-0">
<a href="{{ site.Params.site_repo }}/tree/main/{{ site.Params.source_path }}" \
class="td-page-meta--view" target="_blank" rel="noopener">View page source</a>
<a href="{{ site.Params.site_repo }}/edit/main/{{ site.Params.source_path }}" \
class="td-page-meta--edit" target="_blank" rel="noopener">Edit this page</a>
<a href="{{ site.Params.site_repo }}/issues/new?title={{ .Title | urlquery }}" \
class="td-page-meta--issue" target="_blank" rel="noopener">Create documentation issue</a>
<a href="https://github.com/etcd-io/etcd/issues/new" class="td-page-meta--project-issue" \
target="_blank" rel="noopener">Create project issue</a>
</div>
"""

VERSION_BANNER = """\
{{ with site.Params.chrome.version_banner }}\
<div class="pageinfo pageinfo-primary">
<p>You are viewing documentation for an older version ({{ $.Params.version }}) of etcd. \
For the latest documentation, see <a href="/docs/{{ . }}/">{{ . }}</a>.</p>
</div>{{ end }}
"""

BREADCRUMB = """\
<nav aria-label="breadcrumb" class="td-breadcrumbs">
<ol class="breadcrumb">
{{ range .Ancestors.Reverse }}{{ if not .IsHome }}\
<li class="breadcrumb-item"><a href="{{ .RelPermalink }}">{{ .LinkTitle }}</a></li>
{{ end }}{{ end }}\
<li class="breadcrumb-item active" aria-current="page">{{ .LinkTitle }}</li>
</ol>
</nav>
"""

FOOTER = """\
<footer class="td-footer row d-print-none">
<div class="container-fluid">
<div class="row mx-md-2">
<div class="td-footer__left col-6 col-sm-4 order-sm-1">
<ul class="td-footer__links-list">
<li class="td-footer__links-item"><a href="https://groups.google.com/g/etcd-dev">\
Mailing list</a></li>
<li class="td-footer__links-item"><a href="https://twitter.com/etcdio">Twitter</a></li>
<li class="td-footer__links-item"><a href="https://github.com/etcd-io/etcd">GitHub</a></li>
</ul>
</div>
<div class="td-footer__center col-12 col-sm-4 py-2 order-sm-2">
<span class="td-footer__copyright">&copy; 2013&ndash;2026 The etcd Authors</span>
<span class="td-footer__all_rights_reserved">All Rights Reserved</span>
<p>The Linux Foundation has registered trademarks and uses trademarks. For a list of \
trademarks of The Linux Foundation, please see the Trademark Usage page.</p>
</div>
</div>
</div>
</footer>
"""

COOKIE_BANNER = """\
<div id="cookie-consent" class="cookie-consent-banner" role="dialog" aria-live="polite">
<p>We use cookies on this site to measure how the documentation is used. By continuing to \
browse, you agree to our use of cookies.</p>
<a class="btn btn-primary" href="#" data-consent="accept">Accept</a>
<a class="btn btn-link" href="https://www.linuxfoundation.org/legal/privacy-policy">\
Privacy policy</a>
</div>
"""

LIST = '{{ define "main" }}<div class="td-content"><h1>{{ .Title }}</h1></div>{{ end }}\n'

SHORTCODES: Mapping[str, str] = {
    "alert": (
        '{{ $color := .Get "color" | default "primary" }}'
        '<div class="alert alert-{{ $color }}" role="alert">'
        '{{ with .Get "title" }}<h4 class="alert-heading">{{ . | safeHTML }}</h4>{{ end }}'
        "{{ .Inner | markdownify }}</div>\n"
    ),
    "param": "{{ .Page.Param (.Get 0) }}",
    "psubstr": "{{ substr (.Page.Param (.Get 0)) (int (.Get 1)) }}",
}
STUB_SHORTCODE = "{{ with .Inner }}{{ . | markdownify }}{{ end }}"
# Hugo's own `ref` and `relref` fail on a page outside our small site: a page that calls
# them gets a stand-in that prints the target as written (an href, never text).
LINK_SHORTCODES = frozenset({"ref", "relref"})
LINK_SHORTCODE = '{{ .Get 0 | replaceRE "\\\\.md(#|$)" "/$1" }}'

LAYOUTS: Mapping[str, str] = {
    "_default/baseof.html": BASEOF,
    "_default/single.html": SINGLE,
    "_default/list.html": LIST,
    "index.html": "<!doctype html><title>etcd</title>\n",
    "partials/navbar.html": NAVBAR,
    "partials/sidebar.html": SIDEBAR,
    "partials/sidebar-tree.html": SIDEBAR_TREE,
    "partials/page-meta-links.html": PAGE_META,
    "partials/version-banner.html": VERSION_BANNER,
    "partials/breadcrumb.html": BREADCRUMB,
    "partials/footer.html": FOOTER,
    "partials/cookie-banner.html": COOKIE_BANNER,
}


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Write every job's page, one Hugo build a job."""
    for job in jobs:
        job.out.write_text(render_page(repo, job), "utf-8")


def render_page(repo: GitRepo, job: RenderJob) -> str:
    """The HTML Hugo produces for one page at one commit."""
    source = repo.show(job.commit, job.path).decode("utf-8")
    with tempfile.TemporaryDirectory(prefix="corpus-hugo-") as tmp:
        site = Path(tmp)
        _write_files(site / "layouts", LAYOUTS)
        _write_shortcodes(site / "layouts" / "shortcodes", _shortcodes_used(source), source)
        _write_content(repo, job, site / "content", source)
        (site / "hugo.toml").write_text(CONFIG + _params(repo, job), "utf-8")
        _run_hugo(site)
        return (site / "public" / _output_path(job.path)).read_text("utf-8")


# --------------------------------------------------------------------------- site files


def _write_files(root: Path, files: Mapping[str, str]) -> None:
    for name, text in files.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")


def _shortcodes_used(source: str) -> set[str]:
    return set(_SHORTCODE_NAME.findall(source))


def _write_shortcodes(root: Path, used: Iterable[str], source: str = "") -> None:
    files = dict(SHORTCODES)
    for name in used:
        if name in LINK_SHORTCODES:
            files.setdefault(name, LINK_SHORTCODE)
        elif re.search(r"\{\{[<%]\s*/" + re.escape(name) + r"\s*[>%]\}\}", source):
            files.setdefault(name, STUB_SHORTCODE)
        else:  # never closed (a button, a card): it has no inner content to keep
            files.setdefault(name, "")
    _write_files(root, {f"{name}.html": text for name, text in files.items()})


def _content_root(path: str) -> str:
    """The directory Hugo's content is read from: content/en/, or daprdocs/content/en/."""
    at = path.find(CONTENT_PREFIX)
    return path[: at + len(CONTENT_PREFIX)] if at >= 0 else ""


def _docs_root(path: str) -> str:
    """The docs version directory a page lives in: content/en/docs/v3.6 (two levels down)."""
    root = _content_root(path)
    parts = path[len(root) :].split("/")
    return root + "/".join(parts[: min(2, len(parts) - 1)])


def _write_content(repo: GitRepo, job: RenderJob, content: Path, source: str) -> None:
    root = _docs_root(job.path)
    files = {"_index.md": "---\ntitle: etcd\n---\n", "docs/_index.md": "---\ntitle: Docs\n---\n"}
    for path in repo.files(job.commit, root):
        if not path.endswith(".md") or path == job.path:
            continue
        text = repo.show(job.commit, path).decode("utf-8", "replace")
        is_root = path == f"{root}/_index.md"
        files[_site_path(path)] = _front_matter_block(text) if is_root else _stub(text, path)
    files[_site_path(job.path)] = source
    _write_files(content, files)


def _site_path(path: str) -> str:
    return path[len(_content_root(path)) :]


def _front_matter(text: str) -> dict[str, Any]:
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}
    try:
        data = yaml.safe_load(match.group(1))
    except yaml.YAMLError:
        return {}
    return data if isinstance(data, dict) else {}


def _front_matter_block(text: str) -> str:
    """The version's index without its body: its front matter cascades `version` to the pages."""
    match = _FRONT_MATTER.match(text)
    return match.group(0) if match else "---\ntitle: Docs\n---\n"


def _stub(text: str, path: str) -> str:
    """Another page of the version, reduced to the front matter the sidebar reads."""
    data = _front_matter(text)
    kept = {key: data[key] for key in STUB_KEYS if key in data}
    kept.setdefault("title", Path(path).stem.replace("_", " ").replace("-", " "))
    return "---\n" + yaml.safe_dump(kept, sort_keys=False) + "---\n"


def _params(repo: GitRepo, job: RenderJob) -> str:
    """The site parameters of one build, as TOML (JSON strings are valid TOML strings)."""
    sha, date, subject = _last_change(repo, job.commit, job.path)
    nav = NAV_ENTRIES[str(job.chrome.get("nav", "default"))]
    lines = [
        "",
        "[params]",
        f"site_repo = {json.dumps(SITE_REPO)}",
        f"source_path = {json.dumps(job.path)}",
        f"docs_root = {json.dumps('/' + _site_path(_docs_root(job.path)))}",
        f"commit = {json.dumps(sha)}",
        f"commit_date = {json.dumps(date)}",
        f"commit_subject = {json.dumps(subject)}",
        "nav = [" + ", ".join(f"[{json.dumps(a)}, {json.dumps(b)}]" for a, b in nav) + "]",
        "",
        "[params.chrome]",
    ]
    for key, value in job.chrome.items():
        if key != "nav":
            lines.append(f"{key} = {json.dumps(value)}")
    return "\n".join(lines) + "\n"


def _last_change(repo: GitRepo, commit: str, path: str) -> tuple[str, str, str]:
    """The last commit to touch the page at or before `commit`, as Docsy's GitInfo shows it."""
    out = repo.git(
        "log", "-1", "--format=%H%n%ad%n%s", "--date=format:%B %-d, %Y", commit, "--", path
    )
    sha, date, subject = ([*out.decode("utf-8").splitlines(), "", "", ""])[:3]
    return sha or commit, date, subject.strip()


def _output_path(path: str) -> str:
    """Where Hugo writes a content file's page, relative to public/."""
    site = Path(_site_path(path))
    if site.stem in ("_index", "index"):
        return str(site.parent / "index.html")
    return str(site.with_suffix("") / "index.html")


def _run_hugo(site: Path) -> None:
    result = subprocess.run(
        ["hugo", "--quiet", "--source", str(site), "--destination", str(site / "public")],
        capture_output=True,
        text=True,
        check=False,
    )
    if result.returncode != 0:
        raise RuntimeError(f"hugo failed in {site}:\n{result.stderr}")
