"""Which site generator builds a documentation repository's pages, and which of its files
is a folder's own page: a page whose source file was renamed is looked for where that
generator serves the file it became, and each serves a folder's page from other files.

Pure. The generator is told by the file configuring it, the one nearest above the page's
file (a repository may keep its site in a folder: `website/docusaurus.config.js`):
`docusaurus.config.*`, `mkdocs.yml`, `hugo.toml` (or, beside the `content` folder the
file is in, `config.toml`: Hugo's older name, and Zola's, whose pages are read alike),
Sphinx's `conf.py`. One inside a Hugo site's `content` folder configures nothing: Hugo
serves each file there as a page or a page's resource (a `conf.py` kept with a guide).
A folder's own page, served at the folder's address:

- Hugo: `_index.md` (a section's) and `index.md` (a bundle's); a `README.md` is a page
  of its own, at `…/readme/` (Hugo writes its addresses in lower case).
- Docusaurus: `index`, `README` (in any case) and a doc named as its folder
  (`auth/auth.md`), as its `isCategoryIndex` reads them: the folder is a category, one
  within the docs' folder (`docs/`, a version's or a translation's), never that folder
  itself (`docs/docs.md` is a page of its own, at `…/docs/docs`).
- MkDocs: `index.md` and `README.md`, as written.
- Sphinx: `index`.
- None told: `index`, `_index` or `README` in any case, each some generator's.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath

HUGO, DOCUSAURUS, MKDOCS, SPHINX = "hugo", "docusaurus", "mkdocs", "sphinx"

_CONFIGURED_BY = (
    *((f"docusaurus.config.{kind}", DOCUSAURUS) for kind in ("js", "ts", "mjs", "cjs", "mts")),
    ("mkdocs.yml", MKDOCS),
    ("mkdocs.yaml", MKDOCS),
    *((f"hugo.{kind}", HUGO) for kind in ("toml", "yaml", "yml", "json")),
    ("conf.py", SPHINX),
)
"""Each generator's configuration file, by name: the first found in a folder is read."""
_BESIDE_CONTENT = tuple((f"config.{kind}", HUGO) for kind in ("toml", "yaml", "yml", "json"))
"""Hugo's configuration under its older name, read only beside a `content` folder."""


def config_files(path: str) -> list[str]:
    """The files whose presence tells which generator builds the file at `path`: each
    generator's configuration in each folder above it, the nearest first."""
    return [file for folder in _folders_above(path) for file, _ in _configurations(path, folder)]


@dataclass(frozen=True)
class Site:
    """The generator that builds a file, and the folder holding its configuration (`.`:
    the repository's root), from which its own folders are named."""

    generator: str
    folder: str


def site_of(path: str, present: Collection[str]) -> Site | None:
    """The site configured nearest above `path`, among the files `present`, but one
    configured inside a Hugo site's `content` folder above it (a page's resource)."""
    found = [
        Site(generator, folder)
        for folder in _folders_above(path)
        if (generator := _configured(path, folder, present)) is not None
    ]
    contents = [_within(site.folder, "content") for site in found if site.generator == HUGO]
    return next((site for site in found if not any(_under(site.folder, c) for c in contents)), None)


def is_folder_page(names: Sequence[str], generator: str | None, site: str = ".") -> bool:
    """Whether the file whose path is `names` (the last less its suffix) is its folder's
    own page to `generator`, configured in the folder `site`."""
    name, low = names[-1], names[-1].lower()
    if generator == DOCUSAURUS:
        named_as_folder = len(names) > 1 and low == names[-2].lower()
        category = named_as_folder and not _docs_folder(names[:-1], site)
        return low in ("index", "readme") or category
    if generator == MKDOCS:
        return name in ("index", "README")
    if generator == HUGO:
        return low in ("index", "_index")
    if generator == SPHINX:
        return name == "index"
    return low in ("index", "_index", "readme")


def _docs_folder(folder: Sequence[str], site: str) -> bool:
    """Whether `folder` (its names) is one Docusaurus reads docs from, configured in
    `site`: `docs`, a version's (`versioned_docs/version-1.0`) or a translation's
    (`i18n/fr/docusaurus-plugin-content-docs/current`), whose own docs are in no category."""
    above = PurePosixPath(site).parts
    names = tuple(folder[len(above) :]) if tuple(folder[: len(above)]) == above else ()
    return (
        names == ("docs",)
        or (len(names) == 2 and names[0] == "versioned_docs")
        or (len(names) == 4 and names[0] == "i18n" and names[2] == "docusaurus-plugin-content-docs")
    )


def _folders_above(path: str) -> list[str]:
    return [str(folder) for folder in PurePosixPath(path).parents]


def _within(folder: str, name: str) -> str:
    return posixpath.normpath(posixpath.join(folder, name))


def _under(path: str, folder: str) -> bool:
    """Whether `path` is `folder` or lies in it (`.`: the repository's root)."""
    return folder == "." or path == folder or path.startswith(f"{folder}/")


def _configured(path: str, folder: str, present: Collection[str]) -> str | None:
    """The generator the first of `folder`'s configuration files `present` names."""
    return next((gen for file, gen in _configurations(path, folder) if file in present), None)


def _configurations(path: str, folder: str) -> Iterator[tuple[str, str]]:
    """Each configuration file a generator may have in `folder`, with its generator."""
    beside_content = path.startswith(posixpath.join(folder, "content", "").removeprefix("./"))
    for name, generator in (*_CONFIGURED_BY, *(_BESIDE_CONTENT if beside_content else ())):
        yield posixpath.normpath(posixpath.join(folder, name)), generator
