"""Render a Sphinx (reStructuredText) page at a commit the way a Sphinx site serves it.

Each job gets a throw-away Sphinx project of our own: our `conf.py` (never the
repository's, nor its Sphinx extensions), the page's source read from the repository
at the job's commit, the files it includes, and title-only stub pages standing in for
the rest of the site, so that the navigation lists the site's page titles. That list is
fixed here, not read at the commit, so the chrome of two versions differs only where a
version's `chrome` asks. Sphinx from PyPI builds the project with the PyData theme
(`pydata-sphinx-theme`), which gives the real chrome of a Sphinx site: a top navigation
bar, a sidebar of the section's pages (the whole tree on a top-level page), an "On this
page" table of contents, an "Edit on GitHub" link, previous/next links and a footer.

A documentation project's own extensions add roles and directives (`:setting:`,
`:sig:`, `.. control::` ...) that plain Sphinx does not know. This module is also the
Sphinx extension our `conf.py` loads: it registers the cross-reference types such a
site declares, and a generic fallback for any other unknown role (its text, rendered
as a literal) or directive (its content, rendered as a plain block), so that the
page's prose survives intact.

The site around a page is the one its URL names (a `Site` each: Celery's by default,
MinIO's for min.io): its documentation folder, title, navigation, repository link,
link roles, the substitutions its configuration defines and the build tags its
platform pages are built with (MinIO's `.. cond::` blocks keep the content of the
platform the URL names, as `.. only::` does).

A version's `chrome` mapping changes the boilerplate only:

* `banner`: the text of an announcement bar above the header;
* `cookie`: true adds a cookie-consent banner to the page;
* `nav_extra`: titles of extra top-level pages in the navigation.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import urlsplit

from docutils import nodes
from docutils.parsers.rst import directives
from docutils.parsers.rst.states import Inliner

from renderers import GitRepo, RenderJob

# The site's navigation, fixed so that the chrome changes only where a version's `chrome`
# asks: section index pages and the pages under them (document names under the site's
# documentation folder, titles).
NavEntry = tuple[str, str]
NavSection = tuple[NavEntry, tuple[NavEntry, ...]]
NAV_SECTIONS: tuple[NavSection, ...] = (
    (
        ("getting-started/index", "Getting Started"),
        (
            ("getting-started/introduction", "Introduction to Celery"),
            ("getting-started/first-steps-with-celery", "First Steps with Celery"),
            ("getting-started/next-steps", "Next Steps"),
            ("getting-started/resources", "Resources"),
        ),
    ),
    (
        ("userguide/index", "User Guide"),
        (
            ("userguide/application", "Application"),
            ("userguide/tasks", "Tasks"),
            ("userguide/calling", "Calling Tasks"),
            ("userguide/canvas", "Canvas: Designing Work-flows"),
            ("userguide/workers", "Workers Guide"),
            ("userguide/daemonizing", "Daemonization"),
            ("userguide/periodic-tasks", "Periodic Tasks"),
            ("userguide/routing", "Routing Tasks"),
            ("userguide/monitoring", "Monitoring and Management Guide"),
            ("userguide/security", "Security"),
            ("userguide/optimizing", "Optimizing"),
            ("userguide/debugging", "Debugging"),
            ("userguide/concurrency/index", "Concurrency"),
            ("userguide/signals", "Signals"),
            ("userguide/testing", "Testing with Celery"),
            ("userguide/extending", "Extensions and Bootsteps"),
            ("userguide/configuration", "Configuration and defaults"),
        ),
    ),
    (("faq", "Frequently Asked Questions"), ()),
    (("glossary", "Glossary"), ()),
)

# Cross-reference types the site's own extensions declare: `.. name:: target` + `:name:`.
CROSSREF_TYPES = ("setting", "control", "event", "state", "signal")
# Roles that render their text as a link to a package index or a profile.
LINK_ROLES = {
    "pypi": "https://pypi.org/project/{}/",
    "github_user": "https://github.com/{}",
    "github_issue": "https://github.com/celery/celery/issues/{}",
}

MINIO_NAV: tuple[NavSection, ...] = (
    (
        ("operations/concepts", "Core Concepts"),
        (
            ("operations/concepts/erasure-coding", "Erasure Coding"),
            ("operations/concepts/availability-and-resiliency", "Availability and Resiliency"),
            ("operations/concepts/thresholds", "Thresholds and Limits"),
        ),
    ),
    (
        ("operations/installation", "Installation"),
        (
            ("operations/checklists/hardware", "Hardware Checklist"),
            ("operations/checklists/software", "Software Checklist"),
            ("operations/checklists/security", "Security Checklist"),
        ),
    ),
    (
        ("administration/object-management", "Object Management"),
        (
            ("administration/object-management/object-versioning", "Bucket Versioning"),
            ("administration/object-management/object-retention", "Object Locking"),
            (
                "administration/object-management/object-lifecycle-management",
                "Object Lifecycle Management",
            ),
        ),
    ),
    (
        ("administration/bucket-replication", "Bucket Replication"),
        (
            (
                "operations/install-deploy-manage/multi-site-replication",
                "Site Replication Overview",
            ),
        ),
    ),
    (("operations/server-side-encryption", "Server-Side Object Encryption"), ()),
    (("glossary", "Glossary"), ()),
)

# MinIO's extlinks: roles that link their text to another site.
MINIO_LINK_ROLES = {
    "minio-git": "https://github.com/minio/{}",
    "github": "https://github.com/{}",
    "kube-docs": "https://kubernetes.io/docs/{}",
    "kes-docs": "https://docs.min.io/community/minio-kes/{}",
    "minio-release": "https://github.com/minio/minio/releases/tag/{}",
    "mc-release": "https://github.com/minio/mc/releases/tag/{}",
    "s3-docs": "https://docs.aws.amazon.com/AmazonS3/latest/userguide/{}",
    "s3-api": "https://docs.aws.amazon.com/AmazonS3/latest/API/{}",
    "aws-docs": "https://docs.aws.amazon.com/{}",
    "iam-docs": "https://docs.aws.amazon.com/IAM/latest/UserGuide/{}",
    "prometheus-docs": "https://prometheus.io/docs/{}",
    "minio-web": "https://min.io/{}",
}

# The substitutions MinIO's configuration defines (and |SUBNET|, which older pages use), with
# fixed values of ours where its build fills in release numbers.
MINIO_PROLOG = """
.. |SNSD| replace:: :abbr:`SNSD (Single-Node Single-Drive)`
.. |SNMD| replace:: :abbr:`SNMD (Single-Node Multi-Drive)`
.. |MNMD| replace:: :abbr:`MNMD (Multi-Node Multi-Drive)`
.. |subnet| replace:: `MinIO SUBNET <https://min.io/pricing?jmp=docs>`__
.. |subnet-short| replace:: `SUBNET <https://min.io/pricing?jmp=docs>`__
.. |SUBNET| replace:: `MinIO SUBNET <https://min.io/pricing?jmp=docs>`__
.. |minio-tag| replace:: `RELEASE.2025-09-07T16-13-09Z <https://github.com/minio/minio/releases>`__
.. |minio-latest| replace:: RELEASE.2025-09-07T16-13-09Z
.. |mc-tag| replace:: RELEASE.2025-08-13T08-35-41Z
.. |operator-version-stable| replace:: 7.1.1
.. |k8s-floor| replace:: 1.21.0
.. |podman| replace:: `Podman <https://podman.io/>`__
.. |platform| replace:: Linux
"""


@dataclass(frozen=True)
class Site:
    """One documentation site's frame around a page: its folder, names, links and tags."""

    host: str  # the host its page URLs name
    name: str
    docs_root: str  # the repository's documentation folder (Sphinx's source directory)
    owner: str
    repo: str
    copyright: str
    nav: tuple[NavSection, ...]
    link_roles: Mapping[str, str]
    prolog: str = ""
    tags: tuple[str, ...] = ()  # build tags, as `sphinx-build -t` sets them
    exclude: tuple[str, ...] = ()  # source files that are not pages


CELERY = Site(
    host="docs.celeryq.dev",
    name="Celery",
    docs_root="docs",
    owner="celery",
    repo="celery",
    copyright="2009-2026, Ask Solem & contributors",
    nav=NAV_SECTIONS,
    link_roles=LINK_ROLES,
)

MINIO = Site(
    host="min.io",
    name="MinIO Object Storage for Linux",
    docs_root="source",
    owner="minio",
    repo="docs",
    copyright="2020-Present, MinIO, Inc.",
    nav=MINIO_NAV,
    link_roles=MINIO_LINK_ROLES,
    prolog=MINIO_PROLOG,
    tags=("linux",),
    exclude=("includes/*", "*-template.rst"),
)

SITES: Mapping[str, Site] = {site.host: site for site in (CELERY, MINIO)}


def site_for(url: str) -> Site:
    """The site a page belongs to, named by its URL's host (Celery's when unknown)."""
    return SITES.get(urlsplit(url).netloc, CELERY)


_INCLUDE = re.compile(r"^\s*\.\.\s+(?:literal)?include::\s*(\S+)", re.MULTILINE)
_ROLE_USE = re.compile(r"(?<![\w`]):([A-Za-z][\w-]*(?::[A-Za-z][\w-]*)?):`")
_DIRECTIVE_USE = re.compile(r"^\s*\.\.\s+([A-Za-z][\w-]*(?::[A-Za-z][\w-]*)?)::", re.MULTILINE)
_BODY_OPEN = re.compile(r"<body[^>]*>")

COOKIE_BANNER = (
    '<div class="cookie-banner" role="dialog" aria-label="Cookie consent">'
    "<p>We use cookies to understand how this documentation is used and to improve it. "
    "By continuing to browse you agree to our use of cookies.</p>"
    '<button type="button" class="cookie-accept">Accept</button>'
    '<button type="button" class="cookie-decline">Decline</button></div>'
)


# --------------------------------------------------------------------------- rendering


def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None:
    """Build each job's page with Sphinx in its own temporary project."""
    for job in jobs:
        with tempfile.TemporaryDirectory(prefix="sphinx-corpus-") as tmp:
            html = _build(repo, job, Path(tmp))
        job.out.write_text(_add_cookie_banner(html, job.chrome), "utf-8")


def _build(repo: GitRepo, job: RenderJob, tmp: Path) -> str:
    site = site_for(job.url)
    docname = _docname(job.path, site)
    srcdir = tmp / "tree" / site.docs_root
    srcdir.mkdir(parents=True)
    _write_page(repo, job.commit, job.path, tmp / "tree", site)
    toplevel = _write_nav(srcdir, docname, job.chrome, site)
    (srcdir / "conf.py").write_text(_conf(job, toplevel, site), "utf-8")
    outdir = tmp / "html"
    _run_sphinx(srcdir, outdir)
    return (outdir / f"{docname}.html").read_text("utf-8")


def _docname(path: str, site: Site = CELERY) -> str:
    relative = PurePosixPath(path).relative_to(site.docs_root)
    return str(relative.with_suffix(""))


def _write_page(repo: GitRepo, commit: str, path: str, tree: Path, site: Site = CELERY) -> None:
    """The page's source and, transitively, the files it includes, at their repository paths."""
    pending, seen = [path], set()
    while pending:
        current = pending.pop()
        if current in seen or not repo.exists(commit, current):
            continue
        seen.add(current)
        data = repo.show(commit, current)
        target = tree / current
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)
        if current.endswith((".rst", ".txt")):
            source = data.decode("utf-8", "replace")
            pending += list(_included(current, source, site.docs_root))


def _included(path: str, source: str, docs_root: str = "docs") -> Iterator[str]:
    """The files a page includes; an absolute name is under the source directory, as in Sphinx."""
    parent = PurePosixPath(path).parent
    for match in _INCLUDE.finditer(source):
        name = match.group(1)
        if name.startswith("/"):
            resolved = os.path.normpath(f"{docs_root}/{name.lstrip('/')}")
        else:
            resolved = os.path.normpath(str(parent / name))
        if not resolved.startswith(".."):
            yield resolved


def _write_nav(
    srcdir: Path, page: str, chrome: Mapping[str, Any], site: Site = CELERY
) -> list[str]:
    """Title-only stubs for the site's other pages, and the toctrees that link them."""
    toplevel = []
    listed = {section for (section, _), _ in site.nav}
    listed |= {name for _, children in site.nav for name, _ in children}
    for (section, title), children in site.nav:
        toplevel.append(section)
        if section != page:
            _write_stub(srcdir, section, title, [name for name, _ in children])
        for child, child_title in children:
            if child != page:
                _write_stub(srcdir, child, child_title, [])
    if page not in listed:
        toplevel.append(page)
    for number, title in enumerate(chrome.get("nav_extra") or (), start=1):
        name = f"extra-{number}"
        _write_stub(srcdir, name, str(title), [])
        toplevel.append(name)
    _write_stub(srcdir, "index", f"{site.name} Documentation", toplevel, hidden=True)
    return toplevel


def _write_stub(
    srcdir: Path, docname: str, title: str, children: Sequence[str], hidden: bool = False
) -> None:
    path = srcdir / f"{docname}.rst"
    path.parent.mkdir(parents=True, exist_ok=True)
    lines = ["=" * len(title), title, "=" * len(title), ""]
    if children:
        base = PurePosixPath(docname).parent
        lines += [".. toctree::", "    :maxdepth: 2"]
        lines += ["    :hidden:"] if hidden else []
        lines += [""] + [f"    {_relative(c, base)}" for c in children] + [""]
    path.write_text("\n".join(lines), "utf-8")


def _relative(docname: str, base: PurePosixPath) -> str:
    return os.path.relpath(docname, base if str(base) != "." else ".")


def _conf(job: RenderJob, toplevel: Sequence[str], site: Site = CELERY) -> str:
    options: dict[str, Any] = {
        "use_edit_page_button": True,
        "show_toc_level": 2,
        "navigation_with_keys": False,
        "header_links_before_dropdown": 8,
        "github_url": f"https://github.com/{site.owner}/{site.repo}",
        "footer_start": ["copyright"],
        "footer_end": ["sphinx-version", "theme-version"],
    }
    banner = job.chrome.get("banner")
    if banner:
        options["announcement"] = str(banner)
    context = {
        "github_user": site.owner,
        "github_repo": site.repo,
        "github_version": "main",
        "doc_path": site.docs_root,
    }
    sidebars = {name: ["globaltoc.html"] for name in toplevel if "/" not in name}
    sidebars["**"] = ["sidebar-nav-bs"]
    settings = {
        "project": site.name,
        "copyright": site.copyright,
        "html_title": site.name,
        "extensions": [__name__],
        "html_theme": "pydata_sphinx_theme",
        "html_theme_options": options,
        "html_context": context,
        "html_sidebars": sidebars,
        "html_show_sourcelink": False,
        "root_doc": "index",
        "exclude_patterns": ["_build", *site.exclude],
        "suppress_warnings": ["toc", "ref", "image", "misc.highlighting_failure"],
        "corpus_link_roles": dict(site.link_roles),
    }
    if site.prolog:
        settings["rst_prolog"] = site.prolog
    lines = [f"{key} = {value!r}\n" for key, value in settings.items()]
    lines += [f"tags.add({tag!r})\n" for tag in site.tags]
    return "".join(lines)


def _run_sphinx(srcdir: Path, outdir: Path) -> None:
    env = dict(os.environ)
    corpus_dir = str(Path(__file__).resolve().parent.parent)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [corpus_dir, env.get("PYTHONPATH")]))
    command = [sys.executable, "-m", "sphinx", "-b", "html", "-q", "-E"]
    result = subprocess.run(
        [*command, str(srcdir), str(outdir)], env=env, capture_output=True, text=True
    )
    if result.returncode != 0:
        raise RuntimeError(f"sphinx-build failed for {srcdir}:\n{result.stderr}")


def _add_cookie_banner(html: str, chrome: Mapping[str, Any]) -> str:
    if not chrome.get("cookie"):
        return html
    return _BODY_OPEN.sub(lambda m: m.group(0) + COOKIE_BANNER, html, count=1)


# --------------------------------------------------------------------------- Sphinx extension

RoleResult = tuple[list[nodes.Node], list[nodes.system_message]]
RoleFunction = Callable[..., RoleResult]


def literal_role(
    name: str,
    rawtext: str,
    text: str,
    lineno: int,
    inliner: Inliner,
    options: Mapping[str, Any] | None = None,
    content: Sequence[str] = (),
) -> RoleResult:
    """An unknown role: its text, as a literal carrying the role's name as a class."""
    shown = _role_text(text)
    return [nodes.literal(rawtext, shown, classes=["xref", name.replace(":", "-")])], []


def _role_text(text: str) -> str:
    """The text a cross-reference shows: `title <target>` gives the title, `~a.b` gives b."""
    explicit = re.match(r"^(.*?)\s*<[^<>]*>$", text, re.DOTALL)
    if explicit and explicit.group(1):
        return explicit.group(1)
    if text.startswith("~"):
        return text[1:].rsplit(".", 1)[-1]
    return text.lstrip("!")


def link_role(url: str) -> RoleFunction:
    """A role that links its text to a URL built from it (a package, a user, an issue)."""

    def role(
        name: str,
        rawtext: str,
        text: str,
        lineno: int,
        inliner: Inliner,
        options: Mapping[str, Any] | None = None,
        content: Sequence[str] = (),
    ) -> RoleResult:
        shown = _role_text(text)
        target = re.sub(r"^.*<([^<>]*)>$", r"\1", text)
        return [nodes.reference(rawtext, shown, refuri=url.format(target))], []

    return role


def _fallback_directive() -> type[Any]:
    from sphinx.util.docutils import SphinxDirective

    class FallbackDirective(SphinxDirective):
        """An unknown directive: its argument as a paragraph, its content parsed as body."""

        has_content = True
        optional_arguments = 1
        final_argument_whitespace = True
        # Any option is accepted (and ignored); a non-empty spec makes docutils parse them.
        option_spec = defaultdict(  # noqa: RUF012
            lambda: directives.unchanged, {"class": directives.class_option}
        )

        def run(self) -> list[nodes.Node]:
            container = nodes.container(classes=["fallback", self.name.replace(":", "-")])
            if self.arguments:
                container += nodes.paragraph(text=self.arguments[0])
            if self.content:
                self.state.nested_parse(self.content, self.content_offset, container)
            return [container]

    return FallbackDirective


def _register_fallbacks(app: Any, docname: str, source: list[str]) -> None:
    """On reading a document, give each role and directive nobody defined a fallback."""
    from sphinx.util.docutils import is_directive_registered, is_role_registered

    text = source[0]
    for name in set(_ROLE_USE.findall(text)):
        if not _known(app, name, "roles") and not is_role_registered(name):
            app.add_role(name, literal_role, override=True)
    for name in set(_DIRECTIVE_USE.findall(text)):
        if not _known(app, name, "directives") and not is_directive_registered(name):
            app.add_directive(name, _fallback_directive(), override=True)


def _register_include_fallbacks(
    app: Any, relative_path: Path, parent_docname: str, content: list[str]
) -> None:
    """The same for a file a page includes, which Sphinx reads apart from the page."""
    _register_fallbacks(app, parent_docname, content)


def _known(app: Any, name: str, kind: str) -> bool:
    """Does docutils or a Sphinx domain (the default py and std ones included) define it?"""
    from docutils.parsers.rst.languages import get_language
    from sphinx.errors import ExtensionError

    domain, _, local = name.rpartition(":")
    for candidate in [domain] if domain else ["py", "std"]:
        try:
            if local in getattr(app.env.get_domain(candidate), kind):
                return True
        except ExtensionError:  # not a domain's name
            continue
    english = get_language("en")
    return not domain and name.lower() in (english.roles if kind == "roles" else english.directives)


def _strip_app_prefix(app: Any, doctree: nodes.document) -> None:
    """`~@Celery.send_task`-style references (an app attribute) show without the `@`."""
    for node in doctree.findall(nodes.Text):
        in_literal = any(isinstance(a, nodes.literal) for a in _ancestors(node))
        if node.astext().startswith("@") and node.parent is not None and in_literal:
            node.parent.replace(node, nodes.Text(node.astext()[1:]))


def _strip_default_role_prefix(app: Any, doctree: nodes.document) -> None:
    """`~a.b()` and `!a()` under a site's `default_role = "obj"` show as b() and a()."""
    for node in list(doctree.findall(nodes.title_reference)):
        text = node.astext()
        if text.startswith(("~", "!")):
            node.replace(node.children[0], nodes.Text(_role_text(text)))


def _ancestors(node: nodes.Node) -> Iterator[nodes.Node]:
    parent = node.parent
    while parent is not None:
        yield parent
        parent = parent.parent


def _cond_directive() -> type[Any]:
    from sphinx.util.docutils import SphinxDirective
    from sphinx.util.nodes import nested_parse_with_titles

    class CondDirective(SphinxDirective):
        """`.. cond:: expr`: the content when the build's tags satisfy expr, as `.. only::`."""

        has_content = True
        required_arguments = 1
        final_argument_whitespace = True

        def run(self) -> list[nodes.Node]:
            if not self.env.app.tags.eval_condition(self.arguments[0]):
                return []
            container = nodes.Element()
            nested_parse_with_titles(self.state, self.content, container)
            return list(container.children)

    return CondDirective


def _add_link_roles(app: Any, config: Any) -> None:
    """The link roles the site declares (our conf.py names them)."""
    for name, url in config.corpus_link_roles.items():
        app.add_role(name, link_role(url), override=True)


def setup(app: Any) -> dict[str, Any]:
    """The Sphinx extension our conf.py loads."""
    for name in CROSSREF_TYPES:
        app.add_crossref_type(name, name, indextemplate=f"pair: %s; {name}")
    app.add_role("sig", literal_role)
    app.add_config_value("corpus_link_roles", dict(LINK_ROLES), "env")
    app.connect("config-inited", _add_link_roles)
    app.add_directive("cond", _cond_directive())
    app.connect("source-read", _register_fallbacks)
    app.connect("include-read", _register_include_fallbacks)
    app.connect("doctree-read", _strip_app_prefix)
    app.connect("doctree-read", _strip_default_role_prefix)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
