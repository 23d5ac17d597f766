"""Render Astro Starlight documentation pages with the real Starlight, in a site of our own.

Starlight sites (Tauri's v2 docs, Starlight's own docs) keep MDX/Markdown pages under
`src/content/docs/` and build them with Astro. A page's HTML can only come from an Astro
build, so this renderer writes a small Starlight project of ours (`astro.config.mjs`, a
content schema, three components), puts every job's page source (read from the
repository at the job's commit) into its `src/content/docs/` at the repository's path,
runs `astro build` once for all the old versions and once for all the new ones, and
copies each page's `index.html` to the job's output. The repository's own config,
plugins and components are never used.

The page keeps Starlight's chrome: the header with the site title, search and social
links, the sidebar (the titles of the docs pages at that commit), the "On this page"
table of contents, the footer with "Edit page", "Last updated" and pagination. A job's
`chrome` mapping adds an announcement (`banner`: Starlight's banner frontmatter), a
cookie banner (`cookie`: our Footer override) or other sidebar entries (`nav`: our
Sidebar override prepends a group).

Components a page imports that our site does not have are stubbed: `CommandTabs`
becomes Starlight Tabs of the commands, the others render their children (or nothing);
Starlight's own components (Tabs, Aside, Steps, Cards) are kept. Images become one
placeholder picture; a relative MDX include (`import { Content } from './x.mdx'`) is
copied from the same commit.

Needs Node.js and npm; the pinned npm packages are installed into the site directory
(`$CORPUS_STARLIGHT_DIR`, default `~/.cache/claimledger-corpus/starlight`) on first use.
"""

from __future__ import annotations

import json
import os
import posixpath
import re
import shutil
import subprocess
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from renderers import GitRepo, RenderJob

NPM_PACKAGES: Mapping[str, str] = {
    "astro": "4.16.18",
    "@astrojs/starlight": "0.28.3",
    "@astrojs/mdx": "3.1.9",
    "@astrojs/sitemap": "3.1.6",  # newer ones need Astro 5
    "astro-expressive-code": "0.35.6",
    "sharp": "0.33.5",
}
BUILD_TIMEOUT = 1800  # seconds for one `astro build` on a small machine
DOCS_ROOT = "src/content/docs/"
SECTIONS: tuple[tuple[str, str], ...] = (
    ("start", "Quick Start"),
    ("concept", "Core Concepts"),
    ("security", "Security"),
    ("develop", "Develop"),
    ("distribute", "Distribute"),
    ("learn", "Learn"),
    ("plugin", "Plugins"),
    ("reference", "Reference"),
    ("guides", "Guides"),
    ("components", "Components"),
)
PLACEHOLDER_IMAGE = "/placeholder-diagram.svg"
IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".svg", ".webp", ".avif")
DEFAULT_BANNER = "Tauri 2.0 is now stable! Read the announcement on the blog."
NAV_VARIANTS: Mapping[str, Sequence[tuple[str, str]]] = {
    "resources": (
        ("Blog", "/blog/"),
        ("Showcase", "https://github.com/tauri-apps/awesome-tauri"),
        ("Releases", "/release/"),
        ("Partners", "/about/partners/"),
    ),
}


@dataclass(frozen=True)
class Site:
    """What our site says about the documentation it renders: title, links, origin."""

    title: str
    origin: str
    edit_base: str
    github: str


KNOWN_SITES: Mapping[str, Site] = {
    "v2.tauri.app": Site(
        "Tauri",
        "https://v2.tauri.app",
        "https://github.com/tauri-apps/tauri-docs/edit/v2/",
        "https://github.com/tauri-apps/tauri",
    ),
    "starlight.astro.build": Site(
        "Starlight",
        "https://starlight.astro.build",
        "https://github.com/withastro/starlight/edit/main/docs/",
        "https://github.com/withastro/starlight",
    ),
}


# --------------------------------------------------------------------------- entry point


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Build every job's page with Starlight and write its HTML to `job.out`."""
    root = site_dir()
    ensure_packages(root)
    for number, batch in enumerate(batches(jobs)):
        build = root / f"build-{number}"
        build_site(repo, batch, build, root / "node_modules")
        for job in batch:
            html = build / "dist" / url_path(job.url).strip("/") / "index.html"
            if not html.exists():
                raise RuntimeError(f"{job.page_id}: astro wrote no {html}")
            shutil.copyfile(html, job.out)


def site_dir() -> Path:
    default = Path.home() / ".cache" / "claimledger-corpus" / "starlight"
    return Path(os.environ.get("CORPUS_STARLIGHT_DIR", str(default)))


def ensure_packages(root: Path) -> None:
    """Install the pinned npm packages into the site directory unless they are there."""
    root.mkdir(parents=True, exist_ok=True)
    if all((root / "node_modules" / name / "package.json").exists() for name in NPM_PACKAGES):
        return
    manifest: dict[str, Any] = {"name": "corpus-starlight-site", "private": True, "type": "module"}
    manifest["dependencies"] = dict(NPM_PACKAGES)
    (root / "package.json").write_text(json.dumps(manifest, indent=2), "utf-8")
    subprocess.run(["npm", "install", "--no-audit", "--no-fund"], cwd=root, check=True)


def batches(jobs: Sequence[RenderJob]) -> list[list[RenderJob]]:
    """Old versions in one build, new ones in another; a URL appears once in a build."""
    result: list[list[RenderJob]] = []
    for which in ("old", "new"):
        groups: list[list[RenderJob]] = []
        for job in (j for j in jobs if j.which == which):
            group = next((g for g in groups if all(j.url != job.url for j in g)), None)
            if group is None:
                groups.append([job])
            else:
                group.append(job)
        result += groups
    return result


def url_path(url: str) -> str:
    return urlsplit(url).path or "/"


def site_for(jobs: Sequence[RenderJob]) -> Site:
    host = urlsplit(jobs[0].url).netloc
    known = KNOWN_SITES.get(host)
    if known is not None:
        return known
    return Site(host, f"https://{host}", "", "")


# --------------------------------------------------------------------------- one build


def build_site(repo: GitRepo, jobs: Sequence[RenderJob], build: Path, modules: Path) -> None:
    if build.exists():
        shutil.rmtree(build)
    (build / "src" / "content" / "docs").mkdir(parents=True)
    (build / "node_modules").symlink_to(modules)
    site = site_for(jobs)
    sidebar_commit = newest_commit(repo, [job.commit for job in jobs])
    write_scaffold(build, site, sidebar(repo, sidebar_commit, docs_root(jobs[0].path)))
    for job in jobs:
        write_page(repo, job, build)
    env = dict(os.environ, ASTRO_TELEMETRY_DISABLED="1")
    subprocess.run(
        [str(modules / ".bin" / "astro"), "build"],
        cwd=build,
        check=True,
        env=env,
        timeout=BUILD_TIMEOUT,
    )


def docs_root(path: str) -> str:
    """The repository folder that holds the content collection (`.../src/content/docs/`)."""
    at = path.find(DOCS_ROOT)
    if at < 0:
        raise ValueError(f"{path} is not under a {DOCS_ROOT} folder")
    return path[: at + len(DOCS_ROOT)]


def newest_commit(repo: GitRepo, commits: Iterable[str]) -> str:
    dated = [(int(repo.git("show", "-s", "--format=%ct", c).decode()), c) for c in set(commits)]
    return max(dated)[1]


def last_change(repo: GitRepo, commit: str, path: str) -> datetime:
    """When the page was last changed at `commit` (Starlight's "Last updated" shows it)."""
    stamp = repo.git("log", "-1", "--format=%cI", commit, "--", path).decode().strip()
    if not stamp:
        stamp = repo.git("show", "-s", "--format=%cI", commit).decode().strip()
    return datetime.fromisoformat(stamp)


# --------------------------------------------------------------------------- scaffold


def write_scaffold(build: Path, site: Site, sidebar_items: list[dict[str, Any]]) -> None:
    files = {
        "package.json": json.dumps({"name": "corpus-site", "private": True, "type": "module"}),
        "astro.config.mjs": astro_config(site, sidebar_items),
        "src/content/config.ts": CONTENT_CONFIG,
        "src/components/Stub.astro": STUB_COMPONENT,
        "src/components/CommandTabs.astro": COMMAND_TABS_COMPONENT,
        "src/components/Footer.astro": FOOTER_COMPONENT,
        "src/components/Sidebar.astro": sidebar_component(),
        "public" + PLACEHOLDER_IMAGE: PLACEHOLDER_SVG,
    }
    for name, text in files.items():
        target = build / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, "utf-8")


def astro_config(site: Site, sidebar_items: list[dict[str, Any]]) -> str:
    starlight: dict[str, Any] = {
        "title": site.title,
        "sidebar": sidebar_items,
        "lastUpdated": True,
        "pagination": True,
        "components": {
            "Footer": "./src/components/Footer.astro",
            "Sidebar": "./src/components/Sidebar.astro",
        },
    }
    if site.edit_base:
        starlight["editLink"] = {"baseUrl": site.edit_base}
    if site.github:
        starlight["social"] = {"github": site.github}
    return (
        "import { defineConfig, passthroughImageService } from 'astro/config';\n"
        "import starlight from '@astrojs/starlight';\n\n"
        "export default defineConfig({\n"
        f"  site: {json.dumps(site.origin)},\n"
        "  trailingSlash: 'always',\n"
        "  image: { service: passthroughImageService() },\n"
        f"  integrations: [starlight({json.dumps(starlight, indent=2)})],\n"
        "});\n"
    )


CONTENT_CONFIG = """\
import { defineCollection, z } from 'astro:content';
import { docsSchema } from '@astrojs/starlight/schema';

export const collections = {
  docs: defineCollection({
    schema: docsSchema({
      extend: z.object({
        cookieBanner: z.boolean().optional(),
        navVariant: z.string().optional(),
      }),
    }),
  }),
};
"""

STUB_COMPONENT = """\
---
// Stands in for a component of the real site that this site does not have.
---
<slot />
"""

COMMAND_TABS_COMPONENT = """\
---
// The real site's CommandTabs: one tab of a shell command for each package manager.
import { Tabs, TabItem, Code } from '@astrojs/starlight/components';
const managers = ['npm', 'yarn', 'pnpm', 'deno', 'bun', 'cargo'];
const props = Astro.props as Record<string, string | undefined>;
const commands = managers.filter((name) => props[name]).map((name) => [name, props[name] ?? '']);
---
<Tabs>
  {commands.map(([name, command]) => (
    <TabItem label={name}><Code code={command} lang="sh" /></TabItem>
  ))}
</Tabs>
"""

FOOTER_COMPONENT = """\
---
// Starlight's footer, and a cookie banner on pages whose frontmatter asks for one.
import Default from '@astrojs/starlight/components/Footer.astro';
const data = Astro.props.entry.data as { cookieBanner?: boolean };
---
<Default {...Astro.props}><slot /></Default>
{data.cookieBanner && (
  <div id="cookie-banner" class="cookie-banner" role="dialog" aria-label="Cookie consent">
    <p>We use cookies to understand how our documentation is used and to improve it.
    You can accept or decline analytics cookies.</p>
    <button type="button">Accept</button>
    <button type="button">Decline</button>
  </div>
)}
"""


def sidebar_component() -> str:
    variants = {
        name: [{"label": label, "href": href} for label, href in links]
        for name, links in NAV_VARIANTS.items()
    }
    return (
        "---\n"
        "// Starlight's sidebar; a page's navVariant prepends another group of links.\n"
        "import Default from '@astrojs/starlight/components/Sidebar.astro';\n"
        f"const variants: Record<string, {{ label: string; href: string }}[]> = "
        f"{json.dumps(variants)};\n"
        "const data = Astro.props.entry.data as { navVariant?: string };\n"
        "const extra = (data.navVariant && variants[data.navVariant]) || [];\n"
        "const group = {\n"
        "  type: 'group' as const, label: 'Resources', collapsed: false, badge: undefined,\n"
        "  entries: extra.map((l) => ({\n"
        "    type: 'link' as const, label: l.label, href: l.href, isCurrent: false,\n"
        "    badge: undefined, attrs: {},\n"
        "  })),\n"
        "};\n"
        "const sidebar = extra.length ? [group, ...Astro.props.sidebar] : Astro.props.sidebar;\n"
        "---\n"
        "<Default {...Astro.props} sidebar={sidebar} />\n"
    )


PLACEHOLDER_SVG = (
    '<svg xmlns="http://www.w3.org/2000/svg" width="640" height="240" viewBox="0 0 640 240">'
    '<rect width="640" height="240" fill="#eee"/></svg>\n'
)


# --------------------------------------------------------------------------- sidebar


def sidebar(repo: GitRepo, commit: str, root: str) -> list[dict[str, Any]]:
    """Starlight sidebar groups: the titles of the docs pages at `commit`, one group a section."""
    groups = []
    for folder, label in SECTIONS:
        paths = [p for p in repo.files(commit, root + folder) if is_page(p, root)]
        if not paths:
            continue
        titles = page_titles(repo, commit, paths)
        links = [
            {"label": titles[path], "link": "/" + slug(path, root) + "/"} for path in sorted(paths)
        ]
        groups.append({"label": label, "collapsed": True, "items": links})
    return groups


def is_page(path: str, root: str) -> bool:
    relative = path[len(root) :]
    if not relative.endswith((".md", ".mdx")):
        return False
    return not any(part.startswith(("_", ".")) for part in relative.split("/"))


def slug(path: str, root: str) -> str:
    """The URL path Astro gives a content file (lower case, spaces as dashes, no index)."""
    relative = posixpath.splitext(path[len(root) :])[0]
    parts = [re.sub(r"\s+", "-", part.strip().lower()) for part in relative.split("/")]
    if parts[-1] == "index":
        parts.pop()
    return "/".join(parts)


def page_titles(repo: GitRepo, commit: str, paths: Sequence[str]) -> dict[str, str]:
    """Each page's frontmatter title (else its file name), read in one git call."""
    request = "".join(f"{commit}:{path}\n" for path in paths).encode("utf-8")
    out = subprocess.run(
        ["git", f"--git-dir={repo.git_dir}", "cat-file", "--batch"],
        input=request,
        capture_output=True,
        check=True,
    ).stdout
    titles: dict[str, str] = {}
    at = 0
    for path in paths:
        header_end = out.index(b"\n", at)
        size = int(out[at:header_end].split()[2])
        body = out[header_end + 1 : header_end + 1 + size].decode("utf-8", "replace")
        at = header_end + 1 + size + 1
        titles[path] = frontmatter_title(body) or posixpath.basename(path).split(".")[0]
    return titles


def frontmatter_title(source: str) -> str | None:
    meta, _ = split_frontmatter(source)
    title = meta.get("title")
    return str(title) if title else None


# --------------------------------------------------------------------------- one page


@dataclass(frozen=True)
class Source:
    """A content file being written into the build: where it is read from and written to."""

    repo: GitRepo
    commit: str
    path: str  # in the repository
    build: Path

    @property
    def relative(self) -> str:
        """The path inside the content collection."""
        root = docs_root(self.path)
        return self.path[len(root) :]

    @property
    def target(self) -> Path:
        return self.build / DOCS_ROOT / self.relative


def write_page(repo: GitRepo, job: RenderJob, build: Path) -> None:
    page = Source(repo, job.commit, job.path, build)
    meta, body = split_frontmatter(repo.show(job.commit, job.path).decode("utf-8"))
    meta = with_chrome(meta, job.chrome, last_change(repo, job.commit, job.path))
    page.target.parent.mkdir(parents=True, exist_ok=True)
    page.target.write_text(join_frontmatter(meta, transform_body(page, body)), "utf-8")


def write_include(include: Source) -> None:
    """A partial the page imports (`_sections/x.mdx`), transformed like a page."""
    text = include.repo.show(include.commit, include.path).decode("utf-8")
    meta, body = split_frontmatter(text)
    include.target.parent.mkdir(parents=True, exist_ok=True)
    header = join_frontmatter(meta, "") if meta else ""
    include.target.write_text(header + transform_body(include, body), "utf-8")


def split_frontmatter(source: str) -> tuple[dict[str, Any], str]:
    match = re.match(r"---\r?\n(.*?)\r?\n---[ \t]*\r?\n?", source, re.DOTALL)
    if match is None:
        return {}, source
    loaded = yaml.safe_load(match.group(1)) or {}
    meta = loaded if isinstance(loaded, dict) else {}
    return meta, source[match.end() :]


def join_frontmatter(meta: Mapping[str, Any], body: str) -> str:
    header = yaml.safe_dump(dict(meta), sort_keys=False, allow_unicode=True)
    return f"---\n{header}---\n{body}"


def with_chrome(
    meta: dict[str, Any], chrome: Mapping[str, Any], updated: datetime
) -> dict[str, Any]:
    """The page's frontmatter with its commit date and the job's chrome variant."""
    result = dict(meta)
    result["lastUpdated"] = updated
    banner = chrome.get("banner")
    if banner:
        result["banner"] = {"content": banner if isinstance(banner, str) else DEFAULT_BANNER}
    if chrome.get("cookie"):
        result["cookieBanner"] = True
    nav = chrome.get("nav")
    if nav:
        result["navVariant"] = str(nav)
    return result


# --------------------------------------------------------------------------- MDX source


_FENCE = re.compile(r"^\s*(```|~~~)")
_IMPORT_START = re.compile(r"^import\s")
_IMPORT = re.compile(
    r"^import\s+(?P<what>.+?)\s+from\s+['\"](?P<src>[^'\"]+)['\"];?\s*$", re.DOTALL
)
_MD_IMAGE = re.compile(r"!\[(?P<alt>[^\]]*)\]\((?P<src>[^)\s]+)(?P<rest>[^)]*)\)")
_KEPT_SOURCES = ("@astrojs/starlight/components", "astro:")


def transform_body(page: Source, body: str) -> str:
    """Stub what our site lacks in a page's body; the prose and code stay as they are."""
    is_mdx = page.path.endswith(".mdx")
    out: list[str] = []
    in_fence = False
    pending: list[str] = []
    for line in body.split("\n"):
        if pending:
            pending.append(line)
            if _IMPORT.match("\n".join(pending).strip()):
                out += rewrite_import(page, "\n".join(pending))
                pending = []
            continue
        if _FENCE.match(line):
            in_fence = not in_fence
        elif not in_fence and is_mdx and _IMPORT_START.match(line):
            if _IMPORT.match(line.strip()):
                out += rewrite_import(page, line)
            else:
                pending = [line]
            continue
        elif not in_fence:
            line = _MD_IMAGE.sub(placeholder_image, line)
        out.append(line)
    return "\n".join(out)


def placeholder_image(match: re.Match[str]) -> str:
    if match.group("src").startswith(("http://", "https://")):
        return match.group(0)
    return f"![{match.group('alt')}]({PLACEHOLDER_IMAGE}{match.group('rest')})"


def rewrite_import(page: Source, statement: str) -> list[str]:
    """One MDX import, as our site can satisfy it."""
    match = _IMPORT.match(statement.strip())
    if match is None:
        return []
    what, src = match.group("what"), match.group("src")
    if src.startswith(_KEPT_SOURCES):
        return [statement]
    if src.startswith(".") and src.endswith((".md", ".mdx")):
        included = posixpath.normpath(posixpath.join(posixpath.dirname(page.path), src))
        if page.repo.exists(page.commit, included):
            write_include(Source(page.repo, page.commit, included, page.build))
            return [statement]
    components = posixpath.relpath("src/components", posixpath.dirname(DOCS_ROOT + page.relative))
    return [stub_import(name, src, components) for name in imported_names(what)]


def stub_import(name: str, src: str, components: str) -> str:
    if src.endswith(IMAGE_SUFFIXES):
        return f"export const {name} = {json.dumps(PLACEHOLDER_IMAGE)};"
    if name == "CommandTabs":
        return f"import {name} from '{components}/CommandTabs.astro';"
    return f"import {name} from '{components}/Stub.astro';"


def imported_names(what: str) -> list[str]:
    """The local names an import binds: `A`, `{ B, C as D }`, `* as E`."""
    names = []
    default, _, rest = what.partition("{")
    for part in default.split(","):
        part = part.strip()
        if part.startswith("* as "):
            names.append(part[5:].strip())
        elif part:
            names.append(part)
    for part in rest.rstrip("} \n").split(","):
        part = part.strip()
        if part:
            names.append(part.split(" as ")[-1].strip())
    return names
