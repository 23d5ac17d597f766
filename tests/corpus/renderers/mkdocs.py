"""Render MkDocs pages at a commit with the real MkDocs and the Material theme from PyPI.

The corpus measures the matcher on pages as their sites serve them, chrome and all, so
a page is built by MkDocs itself (`python -m mkdocs build`, the same interpreter as this
module) with mkdocs-material, in a temporary site of our own: our `mkdocs.yml`, the
page's Markdown read from the repository with `git show`, and a one-line stub page for
every other entry of the navigation so that the sidebar carries the other pages'
titles. The repository's own `mkdocs.yml`, overrides and plugins are never read.

Material supplies the chrome: its header, the navigation sidebar, the table of
contents, an "edit this page" button, and the footer with the previous/next links
and a copyright line. A job's `chrome` mapping picks variants of that chrome only:

* `announcement`: a string (or `true` for a default text) shown in Material's
  announcement bar, through a `main.html` override of its `announce` block;
* `consent`: `true` turns on Material's cookie consent banner (`extra.consent`);
* `nav`: a navigation layout from `NAVS` (default `flat`, the early sites' single
  list; `sections`, the later grouped one).

Markdown the generator cannot render offline is stubbed: an `mkautodoc` directive
(`::: httpx.Client`, which would import the project to read its docstrings) becomes
the object's name in a code span. The page's prose is left as it is.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from pathlib import Path, PurePosixPath
from typing import Any

import yaml

from renderers import GitRepo, RenderJob

DOCS_ROOT = "docs/"
DEFAULT_ANNOUNCEMENT = "HTTPX 1.0 is coming: read the release notes and try the pre-release."

NavEntry = tuple[str, "str | list[NavEntry]"]

NAVS: Mapping[str, list[NavEntry]] = {
    "flat": [
        ("Introduction", "index.md"),
        ("QuickStart", "quickstart.md"),
        ("Advanced Usage", "advanced.md"),
        ("Async Support", "async.md"),
        ("HTTP/2 Support", "http2.md"),
        ("Environment Variables", "environment_variables.md"),
        ("Requests Compatibility", "compatibility.md"),
        ("Developer Interface", "api.md"),
        ("Exceptions", "exceptions.md"),
        ("Troubleshooting", "troubleshooting.md"),
        ("Third Party Packages", "third_party_packages.md"),
        ("Contributing", "contributing.md"),
    ],
    "sections": [
        ("Introduction", "index.md"),
        ("QuickStart", "quickstart.md"),
        (
            "Advanced",
            [
                ("Clients", "advanced/clients.md"),
                ("Authentication", "advanced/authentication.md"),
                ("SSL", "advanced/ssl.md"),
                ("Proxies", "advanced/proxies.md"),
                ("Timeouts", "advanced/timeouts.md"),
                ("Resource Limits", "advanced/resource-limits.md"),
                ("Event Hooks", "advanced/event-hooks.md"),
                ("Transports", "advanced/transports.md"),
                ("Text Encodings", "advanced/text-encodings.md"),
                ("Extensions", "advanced/extensions.md"),
            ],
        ),
        (
            "Guides",
            [
                ("Async Support", "async.md"),
                ("HTTP/2 Support", "http2.md"),
                ("Logging", "logging.md"),
                ("Requests Compatibility", "compatibility.md"),
                ("Troubleshooting", "troubleshooting.md"),
            ],
        ),
        (
            "API Reference",
            [
                ("Developer Interface", "api.md"),
                ("Exceptions", "exceptions.md"),
                ("Environment Variables", "environment_variables.md"),
            ],
        ),
        (
            "Community",
            [
                ("Third Party Packages", "third_party_packages.md"),
                ("Contributing", "contributing.md"),
            ],
        ),
    ],
}

_AUTODOC = re.compile(r"^::: *(?P<name>[\w.]+)[ \t]*\n(?:(?:[ \t]+.*)?\n)*?(?=\S|\Z)", re.M)


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Build each job's page in a fresh MkDocs site and write the served HTML to `job.out`."""
    for job in jobs:
        job.out.write_text(render_page(repo, job), "utf-8")


def render_page(repo: GitRepo, job: RenderJob) -> str:
    """The HTML MkDocs and Material serve for one page at one commit, with its chrome."""
    page = _page_name(job.path)
    source = stub_unrenderable(repo.show(job.commit, job.path).decode("utf-8"))
    nav = _nav_with(NAVS[str(job.chrome.get("nav", "flat"))], page)
    with tempfile.TemporaryDirectory(prefix="corpus-mkdocs-") as tmp:
        site = Path(tmp)
        _write_docs(site / "docs", nav, page, source)
        _write_overrides(site / "overrides", _announcement(job.chrome))
        config = site_config(nav, job.chrome)
        (site / "mkdocs.yml").write_text(yaml.safe_dump(config, sort_keys=False), "utf-8")
        _build(site)
        return (site / "site" / _served_file(page)).read_text("utf-8")


def stub_unrenderable(markdown: str) -> str:
    """The page's Markdown with each `mkautodoc` directive replaced by its object's name."""
    return _AUTODOC.sub(lambda m: f"`{m.group('name')}`\n\n", markdown)


def site_config(nav: list[NavEntry], chrome: Mapping[str, Any]) -> dict[str, Any]:
    """Our own MkDocs configuration: Material, the page's navigation, chrome variants."""
    config: dict[str, Any] = {
        "site_name": "HTTPX",
        "site_description": "A next-generation HTTP client for Python.",
        "site_url": "https://www.python-httpx.org/",
        "repo_name": "encode/httpx",
        "repo_url": "https://github.com/encode/httpx/",
        "edit_uri": "edit/master/docs/",
        "copyright": "Copyright &copy; 2019, Encode OSS Ltd.",
        "theme": {
            "name": "material",
            "custom_dir": "overrides",
            "features": ["content.action.edit", "navigation.footer", "toc.follow"],
        },
        "nav": [_nav_yaml(entry) for entry in nav],
        "markdown_extensions": ["admonition", {"codehilite": {"css_class": "highlight"}}],
    }
    if chrome.get("consent"):
        config["extra"] = {
            "consent": {
                "title": "Cookie consent",
                "description": "We use cookies to recognize your repeated visits and "
                "preferences, as well as to measure the effectiveness of our documentation.",
            }
        }
    return config


def _page_name(path: str) -> str:
    if not path.startswith(DOCS_ROOT):
        raise ValueError(f"{path}: not under {DOCS_ROOT}")
    return path[len(DOCS_ROOT) :]


def _nav_with(nav: list[NavEntry], page: str) -> list[NavEntry]:
    """The navigation, with the page appended when the layout does not list it."""
    if page in _nav_files(nav):
        return nav
    return [*nav, (PurePosixPath(page).stem.replace("_", " ").title(), page)]


def _nav_files(nav: list[NavEntry]) -> list[str]:
    files: list[str] = []
    for _title, target in nav:
        files += [target] if isinstance(target, str) else _nav_files(target)
    return files


def _nav_titles(nav: list[NavEntry]) -> dict[str, str]:
    titles: dict[str, str] = {}
    for title, target in nav:
        titles.update({target: title} if isinstance(target, str) else _nav_titles(target))
    return titles


def _nav_yaml(entry: NavEntry) -> dict[str, Any]:
    title, target = entry
    return {title: target if isinstance(target, str) else [_nav_yaml(e) for e in target]}


def _write_docs(docs: Path, nav: list[NavEntry], page: str, source: str) -> None:
    """The page itself, and a stub carrying its title for every other navigation entry."""
    for name, title in _nav_titles(nav).items():
        _write(docs / name, source if name == page else f"# {title}\n")


def _announcement(chrome: Mapping[str, Any]) -> str | None:
    value = chrome.get("announcement")
    if not value:
        return None
    return DEFAULT_ANNOUNCEMENT if value is True else str(value)


def _write_overrides(overrides: Path, announcement: str | None) -> None:
    """Material's `main.html`, extended with an announcement bar when there is one."""
    template = '{% extends "base.html" %}\n'
    if announcement is not None:
        template += "{% block announce %}" + announcement + "{% endblock %}\n"
    _write(overrides / "main.html", template)


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, "utf-8")


def _build(site: Path) -> None:
    command = [sys.executable, "-m", "mkdocs", "build", "--quiet", "--clean"]
    done = subprocess.run(command, cwd=site, capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(f"mkdocs build failed in {site}:\n{done.stderr}")


def _served_file(page: str) -> Path:
    """Where MkDocs writes a page with directory URLs (`a/b.md` -> `a/b/index.html`)."""
    path = PurePosixPath(page)
    if path.stem in ("index", "README"):
        return Path(*path.parent.parts, "index.html")
    return Path(*path.parent.parts, path.stem, "index.html")
