"""A documentation repository's history, read with git from a clone in the user's cache.

`blame` needs each version of the file a page is built from. The clone is bare (nothing
is checked out, so no file of the repository is ever written where it could run), kept
under the user's cache directory by the repository's address, and fetched again on each
use. git runs with no terminal prompt and no user configuration of the repository's own.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from claimledger.errors import InputError
from claimledger.ledger.userdirs import cache_directory
from claimledger.reading.provenance import FileGone, Version
from claimledger.records import Commit

MAX_VERSIONS = 400
"""Commits of one file read at most: a history longer than this is read from its newest."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""A version larger than this is not read (a generated file, not a page's source)."""

_TIMEOUT = 300
_FIELD, _RECORD = "\x1f", "\x1e"


def clone_of(repo: str) -> Path:
    """The local bare clone of `repo`, made or brought up to date."""
    home = cache_directory("repositories")
    if home is None:
        raise InputError("no private cache directory for the docs' clones ($XDG_CACHE_HOME)")
    clone = home / hashlib.sha256(repo.encode("utf-8")).hexdigest()[:24]
    if (clone / "HEAD").is_file():
        _git(clone, "fetch", "--quiet", "--prune", "origin", "+refs/heads/*:refs/heads/*")
    else:
        _git(home, "clone", "--quiet", "--bare", repo, str(clone))
    return clone


def versions(clone: Path, path: str, ref: str = "HEAD") -> list[Version]:
    """Each version of `path` at `ref` and before, newest first, renames followed."""
    log = _git(
        clone,
        "log",
        "--follow",
        f"--max-count={MAX_VERSIONS}",
        "--date=short",
        f"--format={_RECORD}%H{_FIELD}%ad{_FIELD}%an{_FIELD}%s",
        "--name-only",
        ref,
        "--",
        path,
    )
    found = []
    for record in log.split(_RECORD)[1:]:
        head, _, names = record.partition("\n")
        sha, date, author, subject = head.split(_FIELD, 3)
        named = [name for name in names.splitlines() if name.strip()]
        commit = Commit(sha, date, author, subject, named[-1] if named else path)
        found.append(Version(commit, _text_at(clone, commit)))
    return found


def gone(clone: Path, path: str, ref: str = "HEAD") -> FileGone | None:
    """What became of `path` by `ref`: None while it is there; else the commit that took
    it away, and the file it became when that commit renamed it."""
    if _git(clone, "ls-tree", "--name-only", ref, "--", path).strip():
        return None
    log = _git(
        clone, "log", "-1", "--diff-filter=D", "--date=short",
        f"--format=%H{_FIELD}%ad{_FIELD}%an{_FIELD}%s", ref, "--", path,
    )  # fmt: skip
    if not log.strip():
        return None  # never in the repository at all: a wrong path, said by blame
    sha, date, author, subject = log.strip().split(_FIELD, 3)
    renamed_to = None
    for line in _git(clone, "show", "-M", "--name-status", "--format=", sha).splitlines():
        status, *names = line.split("\t")
        if status.startswith("R") and len(names) == 2 and names[0] == path:
            renamed_to = names[1]
    return FileGone(Commit(sha, date, author, subject, path), renamed_to)


def _text_at(clone: Path, commit: Commit) -> str | None:
    size = _git(clone, "cat-file", "-s", f"{commit.sha}:{commit.path}", check=False).strip()
    if not size.isdigit() or int(size) > MAX_FILE_BYTES:
        return None  # deleted in this commit, or too large to be a page's source
    data = _git(clone, "show", f"{commit.sha}:{commit.path}")
    return None if "\x00" in data else data


def _git(where: Path, *args: str, check: bool = True) -> str:
    """Run git in `where`; a failure is the user's to fix (a wrong address or path)."""
    env = {
        **os.environ,
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_OPTIONAL_LOCKS": "0",
    }
    try:
        done = subprocess.run(
            ["git", *args],
            cwd=where,
            capture_output=True,
            text=True,
            errors="replace",
            env=env,
            timeout=_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise InputError("git is not installed: blame reads the docs' history with it") from None
    except subprocess.TimeoutExpired:
        raise InputError(f"git {args[0]} took more than {_TIMEOUT} s; try again") from None
    if check and done.returncode != 0:
        said = (done.stderr.strip().splitlines() or ["failed"])[-1]
        raise InputError(f"git {args[0]}: {said}")
    return done.stdout
