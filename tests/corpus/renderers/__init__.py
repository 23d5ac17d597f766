"""Renderers: a page's source at a commit, turned into the HTML its documentation site serves.

One module a generator, each with one function::

    def render(repo: GitRepo, jobs: Sequence[RenderJob]) -> None

that writes every job's page to `job.out`. A renderer uses the generator itself where
it can be installed from a package registry (MkDocs, Sphinx, Hugo, Docusaurus, ...),
and our own page chrome around the content where the site's own theme cannot be had:
navigation, a sidebar, a table of contents, a footer and, where the job's chrome asks
for it, a cookie banner or an announcement bar. It never runs the repository's own
build configuration or code: the page source (and the few files it includes) is read
from the repository with `GitRepo.show`, and the site around it is ours.
"""

from __future__ import annotations

import subprocess
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class GitRepo:
    """Read-only access to a repository's history (a bare or normal clone)."""

    git_dir: Path

    def git(self, *args: str) -> bytes:
        return subprocess.run(
            ["git", f"--git-dir={self.git_dir}", *args], check=True, capture_output=True
        ).stdout

    def show(self, commit: str, path: str) -> bytes:
        """The file at `path` as it was at `commit`."""
        return self.git("show", f"{commit}:{path}")

    def exists(self, commit: str, path: str) -> bool:
        try:
            self.git("cat-file", "-e", f"{commit}:{path}")
        except subprocess.CalledProcessError:
            return False
        return True

    def files(self, commit: str, directory: str) -> list[str]:
        """Paths of the files under `directory` at `commit`."""
        out = self.git("ls-tree", "-r", "--name-only", commit, "--", directory)
        return out.decode("utf-8").splitlines()


@dataclass(frozen=True)
class RenderJob:
    """One page version to render: where its source is, and where the HTML goes."""

    page_id: str
    path: str
    url: str
    commit: str
    which: str  # "old" or "new"
    out: Path
    chrome: Mapping[str, Any] = field(default_factory=dict)
