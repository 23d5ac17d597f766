"""A documentation repository's history, read with git from a clone in the user's cache.

`blame` and `refresh` need each version of the file a page is built from. The clone is
bare (nothing is checked out, so no file of the repository is ever written where it
could run), kept under the user's cache directory by the repository's address (one per
repository), and fetched again once per run. It is shallow at first (the newest
`SHALLOW_DEPTH` commits of each branch: most quotes were last changed recently) and
deepened only when a question reaches past what it holds. What is cloned is somebody
else's: git runs with no terminal prompt, no credential helper or askpass, none of the
user's or the system's configuration, no hooks (`core.hooksPath` is nowhere) and no
template, and only the one protocol the address needs (https, or a local path the user
allowed), so that nothing a repository carries (its hooks, its config, its attributes'
filters) runs here.
A clone is watched as it grows: past its size cap, or past the run's time budget, git is
stopped and the step says so (`HistoryStopped`).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import ipaddress
import os
import re
import shutil
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

from claimledger.addresses import is_public
from claimledger.errors import HistoryStopped, InputError
from claimledger.ledger.userdirs import cache_directory
from claimledger.reading.generators import Site, config_files, site_of
from claimledger.reading.includes import Include, expanded, includes_of
from claimledger.reading.provenance import Blame, FileGone, Version, blame, name_as_text
from claimledger.records import Commit
from claimledger.urls import names_local_repository

MAX_VERSIONS = 400
"""Commits of one file read at most: a history longer than this is read from its newest."""

SHALLOW_DEPTH = 64
"""Commits of each branch a new clone fetches; the rest come when a question needs them."""

DEEPEN_BY = 512
"""Commits a shallow clone is deepened by first; once it holds this many, the whole
history is fetched."""

MAX_FILE_BYTES = 2 * 1024 * 1024
"""A version larger than this is not read (a generated file, not a page's source)."""

_TIMEOUT = 300
_POLL = 0.05


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
    """The clones one run reads, each fetched once in the run, within its `bounds`, and
    deepened as far as the run's questions need."""

    bounds: Bounds = field(default_factory=Bounds)
    _ready: dict[str, Path] = field(default_factory=dict)

    def clone(self, repo: str) -> Path:
        """The local bare clone of `repo` (a public https address, or an absolute path the
        user allowed), made or brought up to date once in this run."""
        if repo not in self._ready:
            self._ready[repo] = _clone_of(repo, self.bounds)
        return self._ready[repo]

    def versions(
        self, repo: str, path: str, ref: str, enough: Callable[[list[Version]], bool]
    ) -> list[Version]:
        """The versions of `path` at `ref` (newest first), from as deep a history as it
        takes for `enough` to hold of them, or the whole of it."""
        found = versions(self.clone(repo), path, ref, self.bounds)
        while not enough(found) and len(found) < MAX_VERSIONS and self._deepen(repo):
            found = versions(self.clone(repo), path, ref, self.bounds)
        return found

    def blame(self, repo: str, path: str, ref: str, quote: str, current: str | None) -> Blame:
        """What the history of `path` says of `quote` and of the page's `current` wording."""

        def settled(seen: list[Version]) -> bool:
            return _settled(blame(seen, quote, current, before_each=self.in_time), seen)

        found = self.versions(repo, path, ref, settled)
        said = blame(found, quote, current, before_each=self.in_time)
        if len(found) >= MAX_VERSIONS and said.current_since == found[-1].commit:
            said = replace(said, current_since=None)  # held before the oldest read: unknown
        held, dropped, since = (
            c and _readable(c) for c in (said.held, said.dropped, said.current_since)
        )
        unread = tuple(_readable(c) for c in said.unread)
        before = said.before_current and _readable(said.before_current)
        return replace(
            said,
            held=held,
            dropped=dropped,
            current_since=since,
            unread=unread,
            before_current=before,
        )

    def in_time(self) -> None:
        """Raise `HistoryStopped` once the run's time for the docs' history is spent: the
        versions' reading counts, not git's alone (400 versions of a page that takes
        seconds to render were hours)."""
        if self.bounds.left() <= 0:
            raise HistoryStopped("the time budget for the docs' history ran out (history_budget)")

    def version_on(self, repo: str, path: str, ref: str, day: str) -> Version | None:
        """The newest version of `path` committed on or before `day` (None: none was, or
        its date is earlier than an older version's, so when it landed is unknown)."""
        found = self.versions(repo, path, ref, lambda seen: _reaches(seen, day))
        at = next((i for i, v in enumerate(found) if _on_or_before(v.commit.date, day)), None)
        if at is None or not _landed_after_its_past(found, at):
            return None
        return replace(found[at], commit=_readable(found[at].commit))

    def gone(self, repo: str, path: str, ref: str) -> FileGone | None:
        """What became of `path` by `ref`: None while it is there; else the commit that
        took it away (see `_deletion`), from as deep a history as it takes to find it,
        and for a rename the site generator that serves the file it became."""
        clone = self.clone(repo)
        if _present(clone, path, ref, self.bounds):
            return None
        while (fate := _deletion(clone, path, ref, self.bounds)) is None and self._deepen(repo):
            continue
        if fate is None:
            return None
        renamed = fate.renamed_to  # git's own bytes: followed
        made_by = _site(clone, fate.commit.sha, renamed, self.bounds) if renamed else None
        if made_by is None:
            return FileGone(_readable(fate.commit), renamed)
        return FileGone(_readable(fate.commit), renamed, made_by.generator, made_by.folder)

    def _deepen(self, repo: str) -> bool:
        """Fetch more of a shallow clone's history: `DEEPEN_BY` commits more, then all of
        it. False when the clone holds the whole history already, or when the fetch
        brought none (a repository that is itself a shallow clone has no more to give:
        asking again would spin until the run's time budget ran out)."""
        clone = self.clone(repo)
        edge = _shallow_edge(clone)
        if not edge:
            return False
        held = int(_git(clone, "rev-list", "--count", "--all", bounds=self.bounds) or 0)
        depth = ("--unshallow",) if held >= DEEPEN_BY else (f"--deepen={DEEPEN_BY}",)
        _watched(
            clone, clone, self.bounds, repo,
            "fetch", "--quiet", "--no-tags", *depth, "origin", "+refs/heads/*:refs/heads/*",
        )  # fmt: skip
        return _shallow_edge(clone) != edge


def _readable(commit: Commit) -> Commit:
    """`commit` as it is kept and shown: its file's name as text (`name_as_text`)."""
    return replace(commit, path=name_as_text(commit.path))


def _settled(found: Blame, seen: list[Version]) -> bool:
    """Whether deeper history could not change what `found` says: the quote was found,
    and the run of versions holding the current wording began inside what was read."""
    oldest = seen[-1].commit if seen else None
    return found.held is not None and found.current_since != oldest


def _reaches(seen: list[Version], day: str) -> bool:
    return any(_on_or_before(version.commit.date, day) for version in seen)


def _landed_after_its_past(found: list[Version], at: int) -> bool:
    """Whether version `at` of `found` (newest first, in the order of the history, not of
    the dates) is dated no earlier than any version before it: a commit lands after its
    parents, so one dated earlier was backdated, and when it landed is unknown (it may be
    long after the day its date names). A day's grace: each date is its committer's day,
    in their time zone, and a child made three hours later in New York than its parent in
    Berlin is dated the day before it."""
    landed = found[at].commit.date
    return all(_within_a_day_after(older.commit.date, landed) for older in found[at + 1 :])


def _within_a_day_after(date: str, day: str) -> bool:
    """Whether `date` is no later than the day after `day` (both as git writes them)."""
    try:
        return dt.date.fromisoformat(date) <= dt.date.fromisoformat(day) + dt.timedelta(days=1)
    except (ValueError, OverflowError):
        return False  # no day of the calendar: never within a day of one


def _on_or_before(date: str, day: str) -> bool:
    """Whether a commit's `date` (as git writes it) is `day` or earlier. Compared as
    dates, not as text: a commit dated past the year 9999, as a repository may date one,
    reads `10000-01-01`, which sorts before `2026-…` as text."""
    try:
        return dt.date.fromisoformat(date) <= dt.date.fromisoformat(day)
    except ValueError:
        return False  # no day of the calendar: never on or before one


def _protocol(repo: str) -> str:
    return "file" if names_local_repository(repo) else "https"


def clone_folder(repo: str) -> Path:
    """Where the cache keeps the clone of `repo`: one folder per address."""
    home = cache_directory("repositories")
    if home is None:
        raise InputError("no private cache directory for the docs' clones ($XDG_CACHE_HOME)")
    return home / hashlib.sha256(repo.encode("utf-8")).hexdigest()[:24]


def _clone_of(repo: str, bounds: Bounds) -> Path:
    clone = clone_folder(repo)
    home = clone.parent
    if (clone / "HEAD").is_file():
        _watched(
            clone, clone, bounds, repo,
            "fetch", "--quiet", "--prune", "--no-tags", "origin", "+refs/heads/*:refs/heads/*",
        )  # fmt: skip
    else:
        try:
            _watched(
                home, clone, bounds, repo,
                "clone", "--quiet", "--bare", "--no-local", "--template=",
                f"--depth={SHALLOW_DEPTH}", "--no-single-branch", "--", repo, str(clone),
            )  # fmt: skip
        except BaseException:
            shutil.rmtree(clone, ignore_errors=True)  # no half clone is taken for a whole one
            raise
    return clone


Addresses = Callable[[str, int], list[str]]
"""`(host, port)`: the addresses the host resolves to, as text."""


def _resolved(host: str, port: int) -> list[str]:
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError) as error:
        raise InputError(f"cannot resolve {host}: {error}") from None
    return list(dict.fromkeys(str(info[4][0]) for info in found))


def pinned(repo: str, addresses_of: Addresses = _resolved) -> tuple[str, ...]:
    """The options that send git to the addresses checked here, for an https `repo`.

    git resolves names itself, past the fetcher's guard (`web.destinations`): a ledger's
    `repo` whose name resolves to loopback or a private range would have git connect
    there. So the name is resolved once, refused when any address is not public, and
    handed to curl with those very addresses (no redirect is followed: `_SAFE`)."""
    from claimledger.addresses import address_named
    from claimledger.urls import ascii_host, host_and_port, redacted

    place = host_and_port(repo)
    if place is None:
        raise InputError(f"{redacted(repo)}: not an https address")
    host, port = ascii_host(place[0]), place[1]  # the name curl looks up: its Punycode
    written = address_named(host)
    addresses = [str(written)] if written is not None else addresses_of(host, port)
    private = [a for a in addresses if not is_public(ipaddress.ip_address(a))]
    if not addresses or private:
        where = private[0] if private else "no address"
        raise InputError(f"{redacted(repo)}: {host} is a private or local address ({where})")
    if written is not None:
        return ()  # an address itself: nothing for curl to resolve
    listed = ",".join(f"[{a}]" if ":" in a else a for a in addresses)
    return ("-c", f"http.curloptResolve={host}:{port}:{listed}")


def _watched(where: Path, clone: Path, bounds: Bounds, repo: str, *args: str) -> None:
    """Run a git that grows `clone` from `repo`, stopping it once the clone passes its
    size cap or the run its time budget."""
    protocol = _protocol(repo)
    pins = pinned(repo) if protocol == "https" else ()
    try:
        running = subprocess.Popen(
            _command(*_SAFE, *pins, "-c", f"protocol.{protocol}.allow=always", *args),
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
                _give_up(clone, bounds, cloning=args[0] == "clone")
                raise HistoryStopped(why)
        said = running.stderr.read().decode("utf-8", "replace") if running.stderr else ""
    if running.returncode != 0:
        raise InputError(f"git {args[0]}: {(said.strip().splitlines() or ['failed'])[-1]}")
    if (why := _past_bounds(clone, bounds)) is not None:
        shutil.rmtree(clone, ignore_errors=True)
        raise HistoryStopped(why)


def _give_up(clone: Path, bounds: Bounds, *, cloning: bool) -> None:
    """Remove `clone` where git was stopped making it (no half clone is taken for a whole
    one) or past its size cap: a fetch or a deepening stopped there left the clone over
    the cap, and kept, it stopped every later run's history at once."""
    if cloning or _size(clone) > bounds.max_bytes:
        shutil.rmtree(clone, ignore_errors=True)


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
    """Each version of `path` at `ref` and before, newest first, renames followed; where
    the file pulls in partials (`claimledger.reading.includes`), each version as it reads
    with them, the commits that changed only a partial included.

    The versions are those of the branch itself (`--first-parent`): a branch merged in is
    one change, at its merge, as the published docs saw it (a merge commit is no version
    to a plain log, so the newest version read was a branch's commit, not the file as it
    stands). Each is dated when it was committed (`%cd`), the day it could be published:
    a commit written before the reading day and landed after it was no version of that
    day."""
    commits = _log(clone, ref, ("--follow", "--first-parent", "--name-only"), [path], bounds)
    specs = [f"{c.sha}:{c.path}" for c in commits]
    texts, deleted = _read(clone, specs, bounds)
    own = [
        Version(c, texts.get(spec), deleted=spec in deleted)
        for c, spec in zip(commits, specs, strict=True)
    ]
    pulled = {v.commit.sha: includes_of(v.text or "", v.commit.path) for v in own}
    if not any(pulled.values()):
        return own
    return _with_partials(clone, ref, own, pulled, bounds)


def _log(
    clone: Path, ref: str, how: tuple[str, ...], paths: list[str], bounds: Bounds | None
) -> list[Commit]:
    """The commits at `ref` and before that touched `paths`, newest first, less those a
    shallow clone stops at (each is seen as adding every file: not its own change).

    Read NUL-separated (`-z`): a subject or an author may hold any other byte, and a file
    name any but NUL, unquoted; each record opens with an empty field, which no file name
    is."""
    log = _git_bytes(
        clone, "log", "-z", *how, f"--max-count={MAX_VERSIONS}", "--date=short",
        "--format=%x00%H%x00%cd%x00%an%x00%s", "--end-of-options", ref, "--", *paths,
        bounds=bounds,
    )  # fmt: skip
    commits = []
    cut = _shallow_edge(clone)
    fields = log.split(b"\0")
    at = 0
    while at + 4 < len(fields):
        if fields[at]:
            at += 1
            continue
        sha, date, author, subject = (
            part.decode("utf-8", "replace") for part in fields[at + 1 : at + 5]
        )
        at += 5
        raw: list[bytes] = []
        while at < len(fields) and fields[at]:
            raw.append(fields[at])
            at += 1
        if raw:  # the names follow the header's line
            raw[0] = raw[0].removeprefix(b"\n")
        named = [name.decode("utf-8", "surrogateescape") for name in raw if name]
        if sha not in cut:
            commits.append(Commit(sha, date, author, subject, named[-1] if named else paths[0]))
    return commits


def _with_partials(
    clone: Path,
    ref: str,
    own: list[Version],
    pulled: dict[str, list[Include]],
    bounds: Bounds | None,
) -> list[Version]:
    """The file's versions with its partials (`pulled`, by the sha of each version)
    expanded, one for each commit that changed the file or a partial (the file as its
    own last change left it). Read on the branch itself (`--first-parent`), as the file's
    own versions are: a branch's commit is no version, and its merge is one."""
    partials = sorted({p for found in pulled.values() for include in found for p in include.paths})
    by_sha = {version.commit.sha: version for version in own}
    paths = sorted({version.commit.path for version in own})
    every = _log(clone, ref, ("--first-parent",), [*paths, *partials], bounds)
    texts = _texts(clone, [f"{c.sha}:{p}" for c in every for p in partials], bounds)
    merged: list[Version] = []
    standing: Version | None = None
    for commit in reversed(every):  # oldest first: the file as it stood at each commit
        standing = by_sha.get(commit.sha, standing)
        if standing is None:
            continue  # a partial older than the file
        text, includes = standing.text, pulled[standing.commit.sha]
        at = {p: texts[f"{commit.sha}:{p}"] for p in partials if f"{commit.sha}:{p}" in texts}
        shown = None if text is None else expanded(text, includes, at)
        merged.append(Version(replace(commit, path=standing.commit.path), shown, standing.deleted))
    return merged[::-1]


def _deletion(clone: Path, path: str, ref: str, bounds: Bounds | None) -> FileGone | None:
    """The commit by `ref` that took away `path` (no longer there), and the file it became
    when that commit renamed it; None when the history read holds no such commit.

    Read on the branch itself (`--first-parent`, each merge against its first parent), as
    `versions` reads it: a file renamed in a pull request left the published docs at the
    merge, not at the branch's commit (written earlier, on no page, its subject no PR's)."""
    log = _git(
        clone, "log", "-1", "--first-parent", "-m", "--diff-filter=D", "--date=short",
        "--format=%H%x00%cd%x00%an%x00%s", "--end-of-options", ref, "--", path, bounds=bounds,
    )  # fmt: skip
    if not log.strip():
        return None  # never in the history read: a wrong path, said by blame
    sha, date, author, subject = log.rstrip("\n").split("\0", 3)
    renamed_to = None
    shown = _git_bytes(
        clone, "show", "-z", "-M", "--first-parent", "-m", "--name-status", "--format=", sha,
        bounds=bounds,
    )  # fmt: skip
    fields = [part.decode("utf-8", "surrogateescape") for part in shown.strip(b"\n").split(b"\0")]
    while fields:
        status = fields.pop(0).strip()
        if not status:
            continue
        names = [fields.pop(0) for _ in range(2 if status[:1] in ("R", "C") else 1) if fields]
        if status.startswith("R") and len(names) == 2 and names[0] == path:
            renamed_to = names[1]
    return FileGone(Commit(sha, date, author, subject, path), renamed_to)


def _site(clone: Path, sha: str, path: str, bounds: Bounds | None) -> Site | None:
    """The site generator configured nearest above `path` at commit `sha`, and where,
    told by the files configuring one (`reading.generators`), read in one git run."""
    asked = config_files(path)
    listed = _git_bytes(
        clone, "ls-tree", "-z", "--name-only", "--end-of-options", sha, "--", *asked,
        bounds=bounds,
    )  # fmt: skip
    present = {name.decode("utf-8", "surrogateescape") for name in listed.split(b"\0")}
    return site_of(path, present)


def _shallow_edge(clone: Path) -> frozenset[str]:
    """The commits a shallow clone's history stops at (none for a whole one)."""
    try:
        return frozenset((clone / "shallow").read_text("ascii").split())
    except FileNotFoundError:
        return frozenset()


def _present(clone: Path, path: str, ref: str, bounds: Bounds | None) -> bool:
    found = _git(
        clone, "ls-tree", "--name-only", "--end-of-options", ref, "--", path, bounds=bounds
    )
    return bool(found.strip())


def _texts(clone: Path, specs: list[str], bounds: Bounds | None) -> dict[str, str]:
    """The text of each `SHA:PATH` that has one (see `_read`)."""
    return _read(clone, specs, bounds)[0]


def _read(
    clone: Path, specs: list[str], bounds: Bounds | None
) -> tuple[dict[str, str], frozenset[str]]:
    """The text of each `SHA:PATH`, read in two git runs (sizes, then the small ones'
    content): none where it is missing, too large to be a page's source, or binary; and
    those whose file is not in the commit: the commit that deleted the file (a log of the
    file ends, or pauses, there), not a version that could not be read."""
    specs = [spec for spec in specs if "\n" not in spec]  # a line each: a name with a break
    if not specs:  # in it is never read (no text), where it broke the lines of the batch
        return {}, frozenset()
    sizes = _git_bytes(
        clone, "cat-file", "--batch-check=%(objecttype) %(objectsize)",
        stdin="\n".join(specs), bounds=bounds,
    )  # fmt: skip
    # an answer a line, cut at line feeds alone: a name echoed in "<name> missing" may hold
    # a form feed or U+2028, a line's end to `str.splitlines` (each later answer then
    # stood against the name before its own)
    found = list(zip(specs, sizes.split(b"\n"), strict=False))
    missing = frozenset(spec for spec, line in found if line == _as_git(spec) + b" missing")
    small = [
        spec
        for spec, line in found
        if (blob := _BLOB.fullmatch(line)) is not None and int(blob[1]) <= MAX_FILE_BYTES
    ]
    wanted = "\n".join(small)
    data = _git_bytes(clone, "cat-file", "--batch", stdin=wanted, bounds=bounds) if small else b""
    texts: dict[str, str] = {}
    for spec in small:
        header, _, data = data.partition(b"\n")
        size = int(header.split()[-1])
        body, data = data[:size], data[size + 1 :]
        if b"\x00" not in body:
            texts[spec] = body.decode("utf-8", "replace")
    return texts, missing


def _as_git(spec: str) -> bytes:
    """A `SHA:PATH` in the bytes git was given it in (a name read from git in bytes that
    are no UTF-8 goes back as they were), to be found where git echoes it."""
    return spec.encode("utf-8", "surrogateescape")


_BLOB = re.compile(rb"blob ([0-9]+)")
"""A blob's line from `cat-file --batch-check`; one missing is "<its name> missing"."""

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
    "-c", "http.followRedirects=false",
)  # fmt: skip
"""Configuration every git run gets: no hook, no file-system monitor, no attributes of
the user's, no credential helper or askpass, no protocol but the one allowed, and no
redirect (a public host could send git on to a private one, past `pinned`)."""


def _environment() -> dict[str, str]:
    """The user's environment less what would let git reach credentials or configuration:
    no prompt, no askpass, no global or system config, no user-set config parameters.
    A path is a file's name, never a pattern (`GIT_LITERAL_PATHSPECS`): a page built from
    `docs/[id].md` is no history of `docs/i.md`, and a name an edit link gives, such as
    `:(exclude)x`, is no pathspec magic."""
    dropped = ("GIT_ASKPASS", "SSH_ASKPASS", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT")
    env = {k: v for k, v in os.environ.items() if k not in dropped and not k.startswith("GIT_")}
    return env | {
        "GIT_TERMINAL_PROMPT": "0",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": str(_NOWHERE / "gitconfig"),
        "GIT_ATTR_NOSYSTEM": "1",
        "GIT_OPTIONAL_LOCKS": "0",
        "GIT_PROTOCOL_FROM_USER": "0",
        "GIT_LITERAL_PATHSPECS": "1",
    }


def _command(*args: str) -> list[str]:
    """git's command line with `args`. No process is given an argument holding a NUL byte
    (a ledger's `path: "a\\0b"`, an edit link's `%00`): such a name is the input's to fix,
    where it was an internal error."""
    if any("\0" in arg for arg in args):
        raise InputError("a repository, branch or path holding a NUL byte: git can read none")
    return ["git", *args]


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
            _command(*_SAFE, *args),
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
