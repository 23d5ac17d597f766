"""Which site generator builds a documentation repository's pages, and which of its files
is a folder's own page: a page whose source file was renamed is looked for where that
generator serves the file it became, and each serves a folder's page from other files.

Pure. The generator is told by the file configuring it, the one nearest above the page's
file (a repository may keep its site in a folder: `website/docusaurus.config.js`):
`docusaurus.config.*`, `mkdocs.yml`, `hugo.toml` (or, beside the `content` folder the
file is in, `config.toml`: Hugo's older name, and Zola's, whose pages are read alike),
Sphinx's `conf.py`. A folder's own page, served at the folder's address:

- Hugo: `_index.md` (a section's) and `index.md` (a bundle's); a `README.md` is a page
  of its own, at `…/readme/` (Hugo writes its addresses in lower case).
- Docusaurus: `index`, `README` (in any case) and a doc named as its folder
  (`auth/auth.md`), as its `isCategoryIndex` reads them.
- MkDocs: `index.md` and `README.md`, as written.
- Sphinx: `index`.
- None told: `index`, `_index` or `README` in any case, each some generator's.
"""

from __future__ import annotations

import posixpath
from collections.abc import Collection, Iterator, Sequence
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


def generator_of(path: str, present: Collection[str]) -> str | None:
    """The generator configured nearest above `path`, among the files `present`."""
    for folder in _folders_above(path):
        for file, generator in _configurations(path, folder):
            if file in present:
                return generator
    return None


def is_folder_page(names: Sequence[str], generator: str | None) -> bool:
    """Whether the file whose path is `names` (the last less its suffix) is its folder's
    own page to `generator`."""
    name, low = names[-1], names[-1].lower()
    if generator == DOCUSAURUS:
        return low in ("index", "readme") or (len(names) > 1 and low == names[-2].lower())
    if generator == MKDOCS:
        return name in ("index", "README")
    if generator == HUGO:
        return low in ("index", "_index")
    if generator == SPHINX:
        return name == "index"
    return low in ("index", "_index", "readme")


def _folders_above(path: str) -> list[str]:
    return [str(folder) for folder in PurePosixPath(path).parents]


def _configurations(path: str, folder: str) -> Iterator[tuple[str, str]]:
    """Each configuration file a generator may have in `folder`, with its generator."""
    beside_content = path.startswith(posixpath.join(folder, "content", "").removeprefix("./"))
    for name, generator in (*_CONFIGURED_BY, *(_BESIDE_CONTENT if beside_content else ())):
        yield posixpath.normpath(posixpath.join(folder, name)), generator
