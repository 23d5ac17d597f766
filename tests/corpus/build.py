"""Render every page version of the drift corpus from its repository's history.

    python tests/corpus/build.py --repos DIR [--clone] [--force] [CORPUS ...]

For each corpus (`<name>/cases.yaml`), finds the repository under DIR
(`DIR/<owner>+<name>/repo`, `DIR/<owner>+<name>`, or `DIR/<owner>/<name>`), or clones
it from GitHub into DIR with --clone, and has the corpus's renderer write each page
at each of its two commits to `.pages/<corpus>/`. Pages already built are kept unless
--force.
"""

from __future__ import annotations

import argparse
import importlib
import subprocess
import sys
from pathlib import Path

from renderers import GitRepo, RenderJob

from corpus import Corpus, load_all, page_file


def find_repo(repos: Path, name: str, clone: bool) -> GitRepo:
    owner, repo = name.split("/")
    for candidate in (
        repos / f"{owner}+{repo}" / "repo",
        repos / f"{owner}+{repo}",
        repos / owner / repo,
    ):
        for git_dir in (candidate / ".git", candidate):
            if (git_dir / "HEAD").exists() and (git_dir / "objects").is_dir():
                return GitRepo(git_dir)
    if not clone:
        raise SystemExit(f"{name}: no clone under {repos} (pass --clone to fetch it)")
    target = repos / f"{owner}+{repo}" / "repo"
    target.parent.mkdir(parents=True, exist_ok=True)
    url = f"https://github.com/{name}.git"
    subprocess.run(["git", "clone", "--bare", url, str(target)], check=True)
    return GitRepo(target)


def jobs(corpus: Corpus, force: bool) -> list[RenderJob]:
    wanted = []
    for page in corpus.pages.values():
        for which in ("old", "new"):
            out = page_file(corpus.name, page, "old" if which == "old" else "new")
            if out.exists() and not force:
                continue
            version = page.old if which == "old" else page.new
            wanted.append(
                RenderJob(page.id, page.path, page.url, version.commit, which, out, version.chrome)
            )
    return wanted


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", help="corpus names (default: all)")
    parser.add_argument("--repos", type=Path, required=True, help="directory of git clones")
    parser.add_argument("--clone", action="store_true", help="clone missing repositories")
    parser.add_argument("--force", action="store_true", help="render built pages again")
    args = parser.parse_args()
    for corpus in load_all(args.corpora or None):
        todo = jobs(corpus, args.force)
        if not todo:
            print(f"{corpus.name}: built")
            continue
        repo = find_repo(args.repos, corpus.repo, args.clone)
        renderer = importlib.import_module(f"renderers.{corpus.generator}")
        for job in todo:
            job.out.parent.mkdir(parents=True, exist_ok=True)
        renderer.render(repo, todo)
        missing = [job.out for job in todo if not job.out.exists()]
        if missing:
            print(f"{corpus.name}: the renderer did not write {missing}", file=sys.stderr)
            return 1
        print(f"{corpus.name}: rendered {len(todo)} page versions")
    return 0


if __name__ == "__main__":
    sys.exit(main())
