"""Render Docusaurus pages the way a Docusaurus site serves them, with Docusaurus itself.

The pages are Markdown/MDX read from the repository at each job's commit. They are
built by the real generator (`@docusaurus/core` and `@docusaurus/preset-classic` from
the npm registry, driven through `npx docusaurus build`) inside a scratch site of
ours: our own `docusaurus.config.js` and sidebars, never the repository's config,
plugins or components. The classic theme gives every page its real chrome: the
navbar, the docs sidebar, the table of contents, the footer and the "Edit this page"
link. The sidebar lists the other pages built with it and, as title-only stub pages,
the other pages of its folder at its commit. The site's branding (title, navbar and
footer links, edit URL, the repository's docs folder) is the one of the documentation
the page's URL names: DBOS (docs.dbos.dev), QuestDB (questdb.com/docs) or RabbitMQ
(www.rabbitmq.com/docs), a `Branding` each; a page of another site gets DBOS's.

A page's chrome variant (the job's `chrome` mapping) is site-wide configuration in
Docusaurus, so the jobs are grouped by site, version and chrome, and each group is
one site build:

* `announcement`: the classic theme's announcementBar (true, or its text);
* `cookie_banner` (or `consent`): a consent banner injected after the body by an inline plugin of
  our config (no swizzling);
* `nav`: `"alt"` for a different set of navbar items.

MDX components the repository registers itself (LargeTabs, card links, ...) do not
exist in our site: the page gets a stub for each, defined in the page, that renders
its children (or a plain placeholder link); Tabs and TabItem are imported from the
real theme. Imports of the repository's own files are replaced by stubs too. The
prose is left as written.

The npm packages are installed on first use into the work directory,
`$CLAIMLEDGER_DOCUSAURUS_DIR` (default `~/.cache/claimledger-corpus/docusaurus`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import struct
import subprocess
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from renderers import GitRepo, RenderJob

PACKAGES = (
    "@docusaurus/core@3.10.2",
    "@docusaurus/preset-classic@3.10.2",
    "react@19.3.1",
    "react-dom@19.3.1",
)
SITE_URL = "https://docs.dbos.dev"
REPO_URL = "https://github.com/dbos-inc/dbos-docs"
DOCS_ROOT = "docs/"
THEME_COMPONENTS = {"Tabs": "@theme/Tabs", "TabItem": "@theme/TabItem"}
BUILTIN_COMPONENTS = frozenset({"Details", "Head", "Admonition", "CodeBlock"})
DEFAULT_ANNOUNCEMENT = (
    "DBOS Conductor is now generally available. "
    '<a href="https://docs.dbos.dev/production/conductor">Learn more</a>'
)

# Front matter keys our site sets itself (the route) or cannot honour (the repository's sidebars).
OUR_FRONT_MATTER = ("slug:", "pagination_next:", "pagination_prev:", "displayed_sidebar:")
SIBLING_BODY = "This page is outside the corpus: only its title is kept, for the sidebar.\n"

_FENCE = re.compile(r"^\s*(```+|~~~+)")
_IMPORT = re.compile(r"""^import\s+(?P<names>.+?)\s+from\s+['"](?P<module>[^'"]+)['"];?\s*$""")
_INLINE_CODE = re.compile(r"`+[^`]*`+")
_JSX_TAG = re.compile(r"</?([A-Z][A-Za-z0-9]*)[\s/>]")
_IDENT = re.compile(r"[A-Za-z_$][\w$]*")
_IMAGE_REFS = (
    re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)"),
    re.compile(r"""\bsrc=\{?\s*["']([^"']+)["']"""),
    re.compile(r"""\brequire\(\s*["']([^"']+)["']\s*\)"""),
)
_IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".webp", ".svg")
PLACEHOLDER_SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>'


def placeholder_png() -> bytes:
    """A valid 1x1 transparent PNG: a stand-in for the repository's images."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        checksum = struct.pack(">I", zlib.crc32(kind + data))
        return struct.pack(">I", len(data)) + kind + data + checksum

    header = struct.pack(">IIBBBBB", 1, 1, 8, 6, 0, 0, 0)
    pixels = zlib.compress(b"\x00\x00\x00\x00\x00")
    chunks = chunk(b"IHDR", header) + chunk(b"IDAT", pixels) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + chunks


def work_dir() -> Path:
    """Where the npm packages and the scratch sites live."""
    default = Path.home() / ".cache" / "claimledger-corpus" / "docusaurus"
    return Path(os.environ.get("CLAIMLEDGER_DOCUSAURUS_DIR", default))


# --------------------------------------------------------------------------- entry point


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Build every job's page, one Docusaurus build for each version-and-chrome group."""
    root = work_dir()
    ensure_packages(root)
    for key, group in groups(jobs).items():
        site = root / "sites" / key
        prepare_site(site, repo, group)
        build_site(site)
        copy_pages(site, group)


def groups(jobs: Iterable[RenderJob]) -> dict[str, list[RenderJob]]:
    """Jobs that can share a site build: same site, version side and chrome, each path once."""
    grouped: dict[str, list[RenderJob]] = {}
    for job in jobs:
        fields: dict[str, Any] = {"which": job.which, "chrome": dict(job.chrome)}
        if branding(job) is not DBOS:
            fields["site"] = branding(job).url
        base = json.dumps(fields, sort_keys=True)
        n = 0
        while True:
            key = f"{job.which}-{hashlib.sha1(f'{base}#{n}'.encode()).hexdigest()[:10]}"
            if all(other.path != job.path for other in grouped.get(key, [])):
                break
            n += 1
        grouped.setdefault(key, []).append(job)
    return grouped


# --------------------------------------------------------------------------- toolchain


def ensure_packages(root: Path) -> None:
    """Install Docusaurus from the npm registry into `root` unless it is there."""
    if (root / "node_modules" / "@docusaurus" / "core" / "package.json").exists():
        return
    root.mkdir(parents=True, exist_ok=True)
    manifest = {"name": "claimledger-corpus-docusaurus", "private": True, "version": "0.0.0"}
    (root / "package.json").write_text(json.dumps(manifest, indent=2), "utf-8")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund", *PACKAGES], cwd=root, check=True)


def build_site(site: Path) -> None:
    """Run the real generator on our scratch site."""
    shutil.rmtree(site / "build", ignore_errors=True)
    env = {
        **os.environ,
        "NODE_ENV": "production",
        # Sites share one node_modules, so webpack's cache would mix up their builds.
        "DOCUSAURUS_NO_PERSISTENT_CACHE": "1",
    }
    subprocess.run(
        ["npx", "--no-install", "docusaurus", "build", "--no-minify"],
        cwd=site,
        check=True,
        env=env,
    )


def copy_pages(site: Path, jobs: Iterable[RenderJob]) -> None:
    for job in jobs:
        built = site / "build" / route(job).strip("/") / "index.html"
        if not built.exists():
            raise FileNotFoundError(f"{job.page_id}: Docusaurus wrote no {built}")
        job.out.write_text(built.read_text("utf-8"), "utf-8")


def route(job: RenderJob) -> str:
    """The page's path on the site, as its URL names it."""
    return urlsplit(job.url).path or "/"


# --------------------------------------------------------------------------- the site


def prepare_site(site: Path, repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """A fresh scratch site: our config and sidebars, and the jobs' pages as its docs."""
    shutil.rmtree(site / "docs", ignore_errors=True)
    shutil.rmtree(site / ".docusaurus", ignore_errors=True)
    shutil.rmtree(site / "static", ignore_errors=True)
    (site / "docs").mkdir(parents=True)
    (site / "static").mkdir()
    chrome = jobs[0].chrome
    brand = branding(jobs[0])
    (site / "docusaurus.config.js").write_text(site_config(chrome, brand), "utf-8")
    (site / "sidebars.js").write_text(SIDEBARS, "utf-8")
    manifest = {"name": f"corpus-site-{site.name}", "private": True}
    (site / "package.json").write_text(json.dumps(manifest), "utf-8")
    for job in jobs:
        write_doc(site, repo, job)
    for job in jobs:
        write_siblings(site, repo, job)


def write_doc(site: Path, repo: GitRepo, job: RenderJob) -> None:
    """The page source, stubbed where it needs what our site lacks, at the route its URL has."""
    source = repo.show(job.commit, job.path).decode("utf-8")
    relative = doc_path(job)
    target = site / "docs" / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(with_stubs(with_slug(source, route(job))), "utf-8")
    write_categories(site, relative)
    write_placeholder_images(site, target, source)


def write_placeholder_images(site: Path, doc: Path, source: str) -> None:
    """A blank image wherever the page refers to one: the build needs the file, not its pixels."""
    for pattern in _IMAGE_REFS:
        for ref in pattern.findall(source):
            target = image_target(site, doc, ref.split("#")[0].split("?")[0])
            if target is None or target.exists():
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            if target.suffix.lower() == ".svg":
                target.write_text(PLACEHOLDER_SVG, "utf-8")
            else:
                target.write_bytes(placeholder_png())


def image_target(site: Path, doc: Path, ref: str) -> Path | None:
    """Where the build looks for an image the page names; None for a remote or odd one."""
    if "://" in ref or ref.startswith("data:") or not ref.lower().endswith(_IMAGE_SUFFIXES):
        return None
    if ref.startswith("@site/"):
        target = site / ref[len("@site/") :]
    elif ref.startswith("/"):
        target = site / "static" / ref.lstrip("/")
    else:
        target = doc.parent / ref
    resolved = target.resolve()
    return resolved if resolved.is_relative_to(site.resolve()) else None


def write_siblings(site: Path, repo: GitRepo, job: RenderJob) -> None:
    """A title-only page for each other page of the job's folder, so the sidebar lists them."""
    folder = job.path.rsplit("/", 1)[0] if "/" in job.path else ""
    for path in repo.files(job.commit, folder):
        if path.rsplit("/", 1)[0] != folder or not path.endswith((".md", ".mdx")):
            continue
        if Path(path).name.startswith("_"):
            continue
        target = site / "docs" / path.removeprefix(branding(job).docs_root)
        if target.exists():
            continue
        front, _ = split_front_matter(repo.show(job.commit, path).decode("utf-8"))
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(sibling_front_matter(front) + SIBLING_BODY, "utf-8")


def sibling_front_matter(front: str) -> str:
    """The sidebar's keys of another page's front matter: its title, label and position."""
    keep = ("title:", "sidebar_label:", "sidebar_position:")
    lines = [line for line in front.splitlines()[1:-1] if line.startswith(keep)]
    return "---\n" + "\n".join(lines) + "\n---\n" if lines else ""


def doc_path(job: RenderJob) -> str:
    """Where the page sits under our docs/: its place in the repository's docs folder."""
    root = branding(job).docs_root
    path = job.path[len(root) :] if job.path.startswith(root) else job.path
    return path if path.endswith((".md", ".mdx")) else f"{path}.md"


def write_categories(site: Path, relative: str) -> None:
    """A label for each folder above a page, so the sidebar's categories read as titles."""
    folder = Path(relative).parent
    while str(folder) not in ("", "."):
        meta = site / "docs" / folder / "_category_.json"
        if not meta.exists():
            label = folder.name.replace("-", " ").title()
            labels = {"Typescript": "TypeScript", "Golang": "Go"}
            meta.write_text(json.dumps({"label": labels.get(label, label)}), "utf-8")
        folder = folder.parent


# --------------------------------------------------------------------------- page source


def split_front_matter(source: str) -> tuple[str, str]:
    """The page's front matter block (with its fences) and its body."""
    match = re.match(r"---\r?\n.*?\r?\n---\r?\n", source, re.DOTALL)
    if not match:
        return "", source
    return match.group(0), source[match.end() :]


def with_slug(source: str, slug: str) -> str:
    """Pin the page's route to the one its URL names (its own `slug:` gives way)."""
    front, body = split_front_matter(source)
    lines = [line for line in front.splitlines()[1:-1] if not line.startswith(OUR_FRONT_MATTER)]
    lines.append(f"slug: {json.dumps(slug)}")
    return "---\n" + "\n".join(lines) + "\n---\n" + body


def prose_lines(body: str) -> Iterable[tuple[int, str]]:
    """The body's lines outside fenced code blocks, with their indexes."""
    fence: str | None = None
    for index, line in enumerate(body.split("\n")):
        match = _FENCE.match(line)
        if fence is None and match:
            fence = match.group(1)[0] * 3
        elif fence is not None and line.strip().startswith(fence):
            fence = None
        elif fence is None:
            yield index, line


def with_stubs(source: str) -> str:
    """The page with its foreign imports stubbed and a stub for each unknown component."""
    front, body = split_front_matter(source)
    lines = body.split("\n")
    imported: set[str] = set()
    used: set[str] = set()
    for index, line in prose_lines(body):
        match = _IMPORT.match(line)
        if match:
            names = imported_names(match.group("names"))
            imported |= names
            if match.group("module") not in THEME_COMPONENTS.values():
                lines[index] = stub_exports(sorted(names))
            continue
        used |= set(_JSX_TAG.findall(_INLINE_CODE.sub("", line) + " "))
    header = [
        f"import {name} from '{module}';"
        for name, module in THEME_COMPONENTS.items()
        if name in used and name not in imported
    ]
    unknown = sorted(used - imported - set(THEME_COMPONENTS) - BUILTIN_COMPONENTS)
    if unknown:
        header.append(stub_exports(unknown))
    prefix = "\n".join(header) + "\n\n" if header else ""
    return front + prefix + "\n".join(lines)


def imported_names(clause: str) -> set[str]:
    """The local names an import clause binds: `A`, `{B, C as D}`, `* as E`."""
    names = set()
    for part in re.split(r"[,{}]", clause):
        words = _IDENT.findall(part)
        if words:
            names.add(words[-1])
    return names


def stub_exports(names: Sequence[str]) -> str:
    """MDX exports standing in for components our site does not have."""
    return "\n".join(f"export const {name} = {STUB_COMPONENT};" for name in names)


STUB_COMPONENT = (
    '(props) => props.children ? <div className="stub-component">{props.children}</div>'
    " : <a className=\"stub-component\" href={props.href || props.to || '#'}>"
    "{props.label || props.title || ''}</a>"
)


# --------------------------------------------------------------------------- config


SIDEBARS = """// Our sidebar: every page of this build, grouped by folder.
module.exports = { docs: [{ type: 'autogenerated', dirName: '.' }] };
"""

NAV_DEFAULT: list[dict[str, Any]] = [
    {"type": "docSidebar", "sidebarId": "docs", "label": "Docs", "position": "left"},
    {"href": f"{SITE_URL}/python/programming-guide", "label": "Python", "position": "left"},
    {"href": f"{SITE_URL}/typescript/programming-guide", "label": "TypeScript", "position": "left"},
    {"href": f"{SITE_URL}/golang/programming-guide", "label": "Go", "position": "left"},
    {"href": f"{SITE_URL}/java/programming-guide", "label": "Java", "position": "left"},
    {"href": REPO_URL, "label": "GitHub", "position": "right"},
]

NAV_ALT: list[dict[str, Any]] = [
    {"type": "docSidebar", "sidebarId": "docs", "label": "Documentation", "position": "left"},
    {"href": f"{SITE_URL}/quickstart", "label": "Get Started", "position": "left"},
    {"href": f"{SITE_URL}/examples", "label": "Examples", "position": "left"},
    {"href": f"{SITE_URL}/production/conductor", "label": "Conductor", "position": "left"},
    {"href": "https://www.dbos.dev/pricing", "label": "Pricing", "position": "right"},
    {"href": "https://discord.gg/dbos", "label": "Discord", "position": "right"},
    {"href": REPO_URL, "label": "GitHub", "position": "right"},
]

FOOTER: dict[str, Any] = {
    "style": "dark",
    "links": [
        {
            "title": "Docs",
            "items": [
                {"label": "Quickstart", "href": f"{SITE_URL}/quickstart"},
                {"label": "Architecture", "href": f"{SITE_URL}/architecture"},
            ],
        },
        {
            "title": "Community",
            "items": [
                {"label": "Discord", "href": "https://discord.gg/dbos"},
                {"label": "GitHub", "href": REPO_URL},
            ],
        },
    ],
    "copyright": "Copyright © DBOS, Inc.",
}

COOKIE_BANNER = (
    '<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookie consent">'
    "<p>We use cookies to understand how you use our documentation and to improve it. "
    'See our <a href="https://www.dbos.dev/privacy">privacy policy</a>.</p>'
    '<button type="button">Accept all</button> <button type="button">Reject</button></div>'
)


@dataclass(frozen=True)
class Branding:
    """One documentation site's look in our scratch site: names, links, chrome texts."""

    url: str  # the site's origin, as page URLs start
    repo: str  # the repository on GitHub
    docs_root: str  # the repository's docs folder, with its trailing slash
    title: str
    tagline: str
    announcement: str
    nav_default: list[dict[str, Any]]
    nav_alt: list[dict[str, Any]]
    footer: dict[str, Any]
    cookie_banner: str
    edit_url: str


DBOS = Branding(
    url=SITE_URL,
    repo=REPO_URL,
    docs_root=DOCS_ROOT,
    title="DBOS Docs",
    tagline="Durable workflows",
    announcement=DEFAULT_ANNOUNCEMENT,
    nav_default=NAV_DEFAULT,
    nav_alt=NAV_ALT,
    footer=FOOTER,
    cookie_banner=COOKIE_BANNER,
    edit_url=f"{REPO_URL}/tree/main/",
)

QUESTDB_URL = "https://questdb.com"
QUESTDB_REPO = "https://github.com/questdb/documentation"

QUESTDB = Branding(
    url=QUESTDB_URL,
    repo=QUESTDB_REPO,
    docs_root="documentation/",
    title="QuestDB",
    tagline="QuestDB is the fastest open source time series database",
    announcement=(
        "QuestDB Enterprise adds replication and role-based access control. "
        f'<a href="{QUESTDB_URL}/enterprise/">Learn more</a>'
    ),
    nav_default=[
        {"href": f"{QUESTDB_URL}/", "label": "Home", "position": "left"},
        {"type": "docSidebar", "sidebarId": "docs", "label": "Docs", "position": "left"},
        {"href": f"{QUESTDB_URL}/blog/", "label": "Blog", "position": "left"},
        {"href": f"{QUESTDB_URL}/download/", "label": "Download", "position": "right"},
        {"href": "https://github.com/questdb/questdb", "label": "GitHub", "position": "right"},
    ],
    nav_alt=[
        {"href": f"{QUESTDB_URL}/", "label": "Product", "position": "left"},
        {"type": "docSidebar", "sidebarId": "docs", "label": "Documentation", "position": "left"},
        {"href": f"{QUESTDB_URL}/customers/", "label": "Customers", "position": "left"},
        {"href": f"{QUESTDB_URL}/pricing/", "label": "Pricing", "position": "left"},
        {"href": "https://demo.questdb.io", "label": "Live demo", "position": "right"},
        {"href": "https://slack.questdb.com", "label": "Slack", "position": "right"},
        {"href": "https://github.com/questdb/questdb", "label": "GitHub", "position": "right"},
    ],
    footer={
        "style": "dark",
        "links": [
            {
                "title": "QuestDB",
                "items": [
                    {"label": "Documentation", "href": f"{QUESTDB_URL}/docs/"},
                    {"label": "Enterprise", "href": f"{QUESTDB_URL}/enterprise/"},
                ],
            },
            {
                "title": "Community",
                "items": [
                    {"label": "Slack", "href": "https://slack.questdb.com"},
                    {"label": "GitHub", "href": "https://github.com/questdb/questdb"},
                ],
            },
        ],
        "copyright": "Copyright © QuestDB",
    },
    cookie_banner=(
        '<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookies">'
        "<p>We use cookies to improve the documentation and to measure traffic. "
        f'See our <a href="{QUESTDB_URL}/privacy-notice/">privacy notice</a>.</p>'
        '<button type="button">Accept</button> <button type="button">Decline</button></div>'
    ),
    edit_url=f"{QUESTDB_REPO}/edit/main/",
)

RABBITMQ_URL = "https://www.rabbitmq.com"
RABBITMQ_REPO = "https://github.com/rabbitmq/rabbitmq-website"

RABBITMQ = Branding(
    url=RABBITMQ_URL,
    repo=RABBITMQ_REPO,
    docs_root="docs/",
    title="RabbitMQ",
    tagline="One broker to queue them all",
    announcement=(
        "RabbitMQ 4.3 is out: Khepri metadata store and quorum queue improvements. "
        f'<a href="{RABBITMQ_URL}/release-information">Learn more</a>'
    ),
    nav_default=[
        {"href": f"{RABBITMQ_URL}/tutorials", "label": "Getting Started", "position": "left"},
        {"type": "docSidebar", "sidebarId": "docs", "label": "Docs", "position": "left"},
        {"href": f"{RABBITMQ_URL}/blog", "label": "Blog", "position": "left"},
        {"href": f"{RABBITMQ_URL}/contact", "label": "Support", "position": "left"},
        {"href": "https://github.com/rabbitmq", "label": "GitHub", "position": "right"},
    ],
    nav_alt=[
        {"href": f"{RABBITMQ_URL}/tutorials", "label": "Tutorials", "position": "left"},
        {"type": "docSidebar", "sidebarId": "docs", "label": "Documentation", "position": "left"},
        {"href": f"{RABBITMQ_URL}/client-libraries", "label": "Clients", "position": "left"},
        {
            "href": f"{RABBITMQ_URL}/kubernetes/operator/operator-overview",
            "label": "Kubernetes",
            "position": "left",
        },
        {"href": f"{RABBITMQ_URL}/release-information", "label": "Releases", "position": "left"},
        {"href": f"{RABBITMQ_URL}/blog", "label": "Blog", "position": "right"},
        {"href": "https://github.com/rabbitmq", "label": "GitHub", "position": "right"},
    ],
    footer={
        "style": "dark",
        "links": [
            {
                "title": "Learn about RabbitMQ",
                "items": [
                    {"label": "Getting Started", "href": f"{RABBITMQ_URL}/tutorials"},
                    {"label": "Documentation", "href": f"{RABBITMQ_URL}/docs"},
                    {"label": "Blog", "href": f"{RABBITMQ_URL}/blog"},
                ],
            },
            {
                "title": "Reach out to the RabbitMQ team",
                "items": [
                    {"label": "GitHub", "href": "https://github.com/rabbitmq"},
                    {"label": "Discord", "href": f"{RABBITMQ_URL}/discord"},
                ],
            },
        ],
        "copyright": "Copyright © Broadcom. All Rights Reserved.",
    },
    cookie_banner=(
        '<div id="cookie-consent" class="cookie-banner" role="dialog" aria-label="Cookies">'
        "<p>This site uses cookies to analyse traffic and to remember your preferences. "
        f'Read the <a href="{RABBITMQ_URL}/privacy">privacy policy</a>.</p>'
        '<button type="button">Accept cookies</button> '
        '<button type="button">Cookie settings</button></div>'
    ),
    edit_url=f"{RABBITMQ_REPO}/tree/main/",
)

BRANDINGS: Mapping[str, Branding] = {
    urlsplit(brand.url).netloc: brand for brand in (DBOS, QUESTDB, RABBITMQ)
}


def branding(job: RenderJob) -> Branding:
    """The site a page belongs to, named by its URL's host (DBOS's when unknown)."""
    return BRANDINGS.get(urlsplit(job.url).netloc, DBOS)


def theme_config(chrome: Mapping[str, Any], brand: Branding = DBOS) -> dict[str, Any]:
    config: dict[str, Any] = {
        "navbar": {
            "title": brand.title,
            "items": brand.nav_alt if chrome.get("nav") == "alt" else brand.nav_default,
        },
        "footer": brand.footer,
        "docs": {"sidebar": {"hideable": True}},
        "colorMode": {"respectPrefersColorScheme": True},
    }
    announcement = chrome.get("announcement")
    if announcement:
        text = announcement if isinstance(announcement, str) else brand.announcement
        config["announcementBar"] = {
            "id": "announcement",
            "content": text,
            "backgroundColor": "#0b5cff",
            "textColor": "#ffffff",
            "isCloseable": True,
        }
    return config


def site_config(chrome: Mapping[str, Any], brand: Branding = DBOS) -> str:
    """Our docusaurus.config.js for one site and chrome variant."""
    config = {
        "title": brand.title,
        "tagline": brand.tagline,
        "url": brand.url,
        "baseUrl": "/",
        "onBrokenLinks": "ignore",
        "onBrokenAnchors": "ignore",
        "markdown": {
            "format": "mdx",
            "hooks": {"onBrokenMarkdownLinks": "ignore", "onBrokenMarkdownImages": "ignore"},
        },
        "presets": [
            [
                "classic",
                {
                    "docs": {
                        "routeBasePath": "/",
                        "sidebarPath": "./sidebars.js",
                        "editUrl": brand.edit_url,
                    },
                    "blog": False,
                    "pages": False,
                    "sitemap": False,
                },
            ]
        ],
        "themeConfig": theme_config(chrome, brand),
    }
    banner = chrome.get("cookie_banner") or chrome.get("consent")
    plugins = COOKIE_PLUGIN % json.dumps(brand.cookie_banner) if banner else ""
    return (
        "// Our own minimal site for rendering corpus pages (generated; not the repository's).\n"
        f"const config = {json.dumps(config, indent=2, ensure_ascii=False)};\n"
        f"{plugins}"
        "module.exports = config;\n"
    )


COOKIE_PLUGIN = """config.plugins = [
  function cookieBanner() {
    return {
      name: 'corpus-cookie-banner',
      injectHtmlTags() {
        return { postBodyTags: [%s] };
      },
    };
  },
];
"""
