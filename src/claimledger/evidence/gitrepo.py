"""A documentation repository's history, read with git from a clone in the user's cache.

`blame` and `refresh` need each version of the file a page is built from. The clone is
bare (nothing is checked out, so no file of the repository is ever written where it
could run), kept under the user's cache directory by the repository's address (one per
repository), and fetched again once per run. What is cloned is somebody else's: git runs
with no terminal prompt, no credential helper or askpass, none of the user's or the
system's configuration, no hooks (`core.hooksPath` is nowhere) and no template, and only
the one protocol the address needs (https, or a local path the user allowed), so that
nothing a repository carries (its hooks, its config, its attributes' filters) runs here.
A clone is watched as it grows: past its size cap, or past the run's time budget, git is
stopped and the step says so (`HistoryStopped`).
"""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

from claimledger.errors import HistoryStopped, InputError
from claimledger.ledger.userdirs import cache_directory
from claimledger.reading.provenance import FileGone, Version
from claimledger.records import Commit
from claimledger.urls import names_local_repository

MAX_VERSIONS = 400
"""Commits of one file read at most: a history longer than this is read from its newest."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""A version larger than this is not read (a generated file, not a page's source)."""

_TIMEOUT = 300
_POLL = 0.05
_FIELD, _RECORD = "\x1f", "\x1e"


@dataclass
class Bounds:
    """What one run may spend on the docs' repositories: git's time until `deadline` (a
    `time.monotonic()` value) and `max_bytes` of clone per repository."""

    deadline: float = float("inf")
    max_bytes: int = 2**62

    @classmethod
    def of(cls, budget: float, max_mb: int) -> Bounds:
        return cls(time.monotonic() + budget, max_mb * 1024 * 1024)

    def left(self) -> float:
        return self.deadline - time.monotonic()


@dataclass
class Repositories:
    """The clones one run reads, each fetched once in the run, within its `bounds`."""

    bounds: Bounds = field(default_factory=Bounds)
    _ready: dict[str, Path] = field(default_factory=dict)

    def clone(self, repo: str) -> Path:
        """The local bare clone of `repo` (a public https address, or an absolute path the
        user allowed), made or brought up to date once in this run."""
        if repo not in self._ready:
            self._ready[repo] = _clone_of(repo, self.bounds)
        return self._ready[repo]


def _clone_of(repo: str, bounds: Bounds) -> Path:
    home = cache_directory("repositories")
    if home is None:
        raise InputError("no private cache directory for the docs' clones ($XDG_CACHE_HOME)")
    clone = home / hashlib.sha256(repo.encode("utf-8")).hexdigest()[:24]
    protocol = "file" if names_local_repository(repo) else "https"
    if (clone / "HEAD").is_file():
        _watched(
            clone, clone, bounds, protocol,
            "fetch", "--quiet", "--prune", "--no-tags", "origin", "+refs/heads/*:refs/heads/*",
        )  # fmt: skip
    else:
        try:
            _watched(
                home, clone, bounds, protocol,
                "clone", "--quiet", "--bare", "--no-local", "--template=", "--", repo, str(clone),
            )  # fmt: skip
        except BaseException:
            shutil.rmtree(clone, ignore_errors=True)  # no half clone is taken for a whole one
            raise
    return clone


def _watched(where: Path, clone: Path, bounds: Bounds, protocol: str, *args: str) -> None:
    """Run a git that grows `clone`, stopping it once the clone passes its size cap or
    the run its time budget."""
    try:
        running = subprocess.Popen(
            ["git", *_SAFE, "-c", f"protocol.{protocol}.allow=always", *args],
            cwd=where,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            env=_environment(),
        )
    except FileNotFoundError:
        raise InputError("git is not installed: the docs' history is read with it") from None
    with running:
        while True:
            try:
                running.wait(_POLL)
                break
            except subprocess.TimeoutExpired:
                pass
            why = _past_bounds(clone, bounds)
            if why is not None:
                running.kill()
                running.wait()
                if args[0] == "clone":
                    shutil.rmtree(clone, ignore_errors=True)
                raise HistoryStopped(why)
        said = running.stderr.read().decode("utf-8", "replace") if running.stderr else ""
    if running.returncode != 0:
        raise InputError(f"git {args[0]}: {(said.strip().splitlines() or ['failed'])[-1]}")
    if (why := _past_bounds(clone, bounds)) is not None:
        shutil.rmtree(clone, ignore_errors=True)
        raise HistoryStopped(why)


def _past_bounds(clone: Path, bounds: Bounds) -> str | None:
    if bounds.left() <= 0:
        return "the time budget for the docs' history ran out (history_budget)"
    if _size(clone) > bounds.max_bytes:
        megabytes = bounds.max_bytes // (1024 * 1024)
        return f"a clone passed {megabytes} MB and was given up (history_clone_mb)"
    return None


def _size(directory: Path) -> int:
    total = 0
    for folder, _, files in os.walk(directory):
        for name in files:
            try:
                total += (Path(folder) / name).lstat().st_size
            except OSError:
                continue  # a temporary pack git just renamed
    return total


def versions(
    clone: Path, path: str, ref: str = "HEAD", bounds: Bounds | None = None
) -> list[Version]:
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
        bounds=bounds,
    )
    commits = []
    for record in log.split(_RECORD)[1:]:
        head, _, names = record.partition("\n")
        sha, date, author, subject = head.split(_FIELD, 3)
        named = [name for name in names.splitlines() if name.strip()]
        commits.append(Commit(sha, date, author, subject, named[-1] if named else path))
    texts = _texts_at(clone, commits, bounds)
    return [Version(commit, texts.get(commit)) for commit in commits]


def gone(
    clone: Path, path: str, ref: str = "HEAD", bounds: Bounds | None = None
) -> FileGone | None:
    """What became of `path` by `ref`: None while it is there; else the commit that took
    it away, and the file it became when that commit renamed it."""
    if _git(clone, "ls-tree", "--name-only", ref, "--", path, bounds=bounds).strip():
        return None
    log = _git(
        clone, "log", "-1", "--diff-filter=D", "--date=short",
        f"--format=%H{_FIELD}%ad{_FIELD}%an{_FIELD}%s", ref, "--", path, bounds=bounds,
    )  # fmt: skip
    if not log.strip():
        return None  # never in the repository at all: a wrong path, said by blame
    sha, date, author, subject = log.strip().split(_FIELD, 3)
    renamed_to = None
    shown = _git(clone, "show", "-M", "--name-status", "--format=", sha, bounds=bounds)
    for line in shown.splitlines():
        status, *names = line.split("\t")
        if status.startswith("R") and len(names) == 2 and names[0] == path:
            renamed_to = names[1]
    return FileGone(Commit(sha, date, author, subject, path), renamed_to)


def _texts_at(clone: Path, commits: list[Commit], bounds: Bounds | None) -> dict[Commit, str]:
    """The file's text at each commit, read in two git runs (sizes, then the small ones'
    content): none where it was deleted, is too large to be a page's source, or binary."""
    specs = [f"{commit.sha}:{commit.path}" for commit in commits]
    sizes = _git(clone, "cat-file", "--batch-check", stdin="\n".join(specs), bounds=bounds)
    small = [
        commit
        for commit, line in zip(commits, sizes.splitlines(), strict=False)
        if (parts := line.split())[-2:-1] == ["blob"] and int(parts[-1]) <= MAX_FILE_BYTES
    ]
    wanted = "\n".join(f"{commit.sha}:{commit.path}" for commit in small)
    data = _git_bytes(clone, "cat-file", "--batch", stdin=wanted, bounds=bounds) if small else b""
    texts: dict[Commit, str] = {}
    for commit in small:
        header, _, data = data.partition(b"\n")
        size = int(header.split()[-1])
        body, data = data[:size], data[size + 1 :]
        if b"\x00" not in body:
            texts[commit] = body.decode("utf-8", "replace")
    return texts


_NOWHERE = Path("/nonexistent/claimledger")
"""A folder no user but root can make: git's hooks and global config are looked for
there, and so found nowhere (/dev/null is not always a device in a container)."""

_SAFE = (
    "-c", f"core.hooksPath={_NOWHERE / 'hooks'}",
    "-c", "core.fsmonitor=false",
    "-c", f"core.attributesFile={_NOWHERE / 'attributes'}",
    "-c", "credential.helper=",
    "-c", "core.askPass=",
    "-c", "protocol.allow=never",
    "-c", "http.followRedirects=initial",
)  # fmt: skip
"""Configuration every git run gets: no hook, no file-system monitor, no attributes of
the user's, no credential helper or askpass, and no protocol but the one allowed."""


def _environment() -> dict[str, str]:
    """The user's environment less what would let git reach credentials or configuration:
    no prompt, no askpass, no global or system config, no user-set config parameters."""
    dropped = ("GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("GIT_")}
    return env | {
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(_NOWHERE / "gitconfig"),
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PROTOCOL_FROM_USER": "0",
    }


def _git(
    where: Path, *args: str, check: bool = True, bounds: Bounds | None = None, stdin: str = ""
) -> str:
    """Run git in `where` on the clone; a failure is the user's to fix (a wrong address or
    path). Within `bounds`, git is stopped when the run's time is up."""
    out = _git_bytes(where, *args, check=check, bounds=bounds, stdin=stdin)
    return out.decode("utf-8", "replace")


def _git_bytes(
    where: Path, *args: str, check: bool = True, bounds: Bounds | None = None, stdin: str = ""
) -> bytes:
    timeout = _TIMEOUT if bounds is None else min(_TIMEOUT, bounds.left())
    if timeout <= 0:
        raise HistoryStopped("the time budget for the docs' history ran out (history_budget)")
    try:
        done = subprocess.run(
            ["git", *_SAFE, *args],
            cwd=where,
            input=stdin.encode("utf-8", "surrogateescape"),
            capture_output=True,
            env=_environment(),
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError:
        raise InputError("git is not installed: the docs' history is read with it") from None
    except subprocess.TimeoutExpired:
        if bounds is not None and bounds.left() <= 0:
            raise HistoryStopped(
                "the time budget for the docs' history ran out (history_budget)"
            ) from None
        raise InputError(f"git {args[0]} took more than {_TIMEOUT} s; try again") from None
    if check and done.returncode != 0:
        said = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["failed"])[-1]
        raise InputError(f"git {args[0]}: {said}")
    return done.stdout
