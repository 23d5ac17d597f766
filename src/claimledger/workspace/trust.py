"""What the user allowed a workspace to do: consent kept in the user's own config.

A cloned teardown's `claims.yaml` is somebody else's file, and its artifact commands are
programs. Like direnv's `allow` or an editor's Restricted Mode, claimledger runs none of
them until the user has read them and said so (`claimledger trust`), and a command that
changes afterwards, or any file of the checkout, needs the user's word again.
The same holds for what the checkout's settings ask beyond the defaults (private
addresses, a map to other hosts, another web archive, robots.txt set aside, a larger
budget for reading the docs' history, report templates, a source's git repository
named as a folder of this machine): `asks_of` lists them, and they are honoured only
while the user's consent covers exactly that list. A folder another user owns is not
used at all until the user says so, as git refuses a repository of dubious ownership.

Consent is a fingerprint per claim: the command as the ledger writes it, whether a shell
runs it, and the content of every file of the ledger's directory, but what claimledger
writes there itself. Which files a command reads cannot be told from its words (`make`
reads a Makefile it never names, `python3 toy` a package folder, `python3 <toy.py` a file
its shell opens), so a trusted command runs another program once any of them changes.
It is kept by the ledger's absolute path in `trusted.json` in the user's config
directory, which a repository cannot write to; nothing of the checkout can widen it.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import hmac
import json
import os
import shlex
import stat
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimledger.errors import EnvironmentProblem, InputError
from claimledger.ledger.userrecords import editing_record, path_key, read_record, record_file
from claimledger.urls import lower_scheme, names_local_repository, redact_urls, redacted_text

if TYPE_CHECKING:
    from claimledger.ledger.config import Config
    from claimledger.ledger.model import Artifact, Ledger

TRUST_FILE = "trusted.json"
TEMPLATES = "templates"
"""The folder of report templates beside a ledger."""


class Consent(StrEnum):
    """Where an artifact stands with the user."""

    TRUSTED = "trusted"
    CHANGED = "changed"  # trusted once; its command or a file of its directory changed since
    OLDER = "older"  # trusted by an older claimledger, which kept consent in another form
    UNTRUSTED = "untrusted"


FORMAT = "3:"
"""The mark each consent kept opens with: the form of `fingerprint` and of the settings'
digest it was made in (3: a secret's fingerprint keyed, the history's budgets asked). A
consent an older claimledger kept in a form since changed cannot be told from one whose
files changed: it is said to be older, not changed, and asked again."""
EARLIER = ("2:", "")
"""The marks of the forms before FORMAT: a consent kept in one still holds where its
digest is the same now (an artifact's, whose form did not change)."""


def consent_of(given: str | None, digest: str) -> Consent:
    """Where a consent kept as `given` stands with what is now `digest`."""
    if given is None:
        return Consent.UNTRUSTED
    if given in [mark + digest for mark in (FORMAT, *EARLIER)]:
        return Consent.TRUSTED
    return Consent.CHANGED if given.startswith(FORMAT) else Consent.OLDER


@dataclass(frozen=True)
class Standing:
    """One artifact claim's command and whether the user allowed it to run."""

    claim_id: str
    command: str
    consent: Consent


def fingerprint(artifact: Artifact, directory: str, home: Path) -> str:
    """What the user agrees to when they trust an artifact: its command, its shell,
    `directory`, the `directory_digest` of the ledger's directory `home`, where it runs,
    and the content of each file a word of the command names, wherever it is (`out/tool.py`
    too, which the directory's digest leaves to claimledger's outputs, and `../tool.py`)."""
    what = {
        "run": artifact.run if isinstance(artifact.run, str) else list(artifact.run),
        "shell": artifact.shell,
        "directory": directory,
        "named": _named_entries(artifact, home),
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def _named_entries(artifact: Artifact, home: Path) -> dict[str, str]:
    """The digest of each folder inside `home` and each file anywhere a word of the command
    names: a ledger in a subfolder of a repository may run `python3 ../../tools/toy.py`,
    which a pull changes as it changes the ledger's own folder."""
    named: dict[str, str] = {}
    for word in _words(artifact):
        path = Path(os.path.normpath(home / word)) if word and "\0" not in word else home
        if path == home or not os.path.lexists(path):
            continue
        if path.is_dir() and not path.is_symlink():
            if home in path.parents:  # a folder outside (`..`, `/`) may hold anything
                named[word] = _folder_digest(path)
        else:
            named[word] = _named_file_digest(path)
    return named


def _named_file_digest(path: Path) -> str:
    """A named file's digest; a link's, by the text it holds and by the file it leads to,
    which the command reads wherever it lies (read as it stands, never waited on)."""
    digest = _entry_digest(path).hex()
    if path.is_symlink():
        digest += ":" + _entry_digest(Path(os.path.realpath(path))).hex()
    return digest


def _words(artifact: Artifact) -> list[str]:
    """The words of the command, a shell's operators apart (`toy.py|cat` is two words and
    an operator, `<toy.py` an operator and a word), and those of each word a shell may run
    in turn (`sh -c 'python3 out/tool.py'`): each may name a file it reads."""
    found: list[str] = []
    pending = _shell_words(artifact.run) if isinstance(artifact.run, str) else [*artifact.run]
    while pending:
        word = pending.pop(0)
        found.append(word)
        inner = _shell_words(word)
        if len(inner) > 1:  # a line a shell may run (`python3<out/x.py`): each part is shorter
            pending += inner
    return found


def _shell_words(line: str) -> list[str]:
    lexer = shlex.shlex(line, posix=True, punctuation_chars=True)
    lexer.whitespace_split = True
    try:
        return list(lexer)
    except ValueError:  # an unclosed quote: the shell will say so; the text stands
        return [line]


def directory_digest(ledger: Path) -> str:
    """A fingerprint of every file of the ledger's directory, but what claimledger writes
    there itself: a command may read any of them, and a pull may change any of them."""
    return _folder_digest(ledger.absolute().parent, _written_by_us(ledger))


OUTPUTS = "out"
"""The folder of claimledger's outputs beside a ledger: the evidence store, reports."""


def _written_by_us(ledger: Path) -> Callable[[str], bool]:
    """Whether an entry at the top of the ledger's directory is claimledger's, git's or an
    editor's, which change as the ledger is used (a refresh, a render, a commit, an edit):
    the repository, the outputs, the ledger with its lock, its temporaries and an editor's
    backup or swap file of it."""
    from claimledger.ledger.file import written_with

    editing = {f"{ledger.name}~", f"#{ledger.name}#", f".#{ledger.name}"}
    editing |= {f".{ledger.name}.{swap}" for swap in ("swp", "swo", "swx")}

    def ours(name: str) -> bool:
        return name in (".git", OUTPUTS) or name in editing or written_with(ledger, name)

    return ours


def standings(ledger: Path, artifacts: Mapping[str, Artifact]) -> list[Standing]:
    """Each artifact of the ledger at `ledger`, with whether its run is allowed."""
    from claimledger.grading.artifact import command_line

    kept = _workspace(_read(), ledger).get("artifacts", {})
    asked = any(claim_id in kept for claim_id in artifacts)  # else no folder to read
    directory = directory_digest(ledger) if asked else ""
    home = ledger.absolute().parent
    found = []
    for claim_id, artifact in artifacts.items():
        given = kept.get(claim_id)
        digest = "" if given is None else fingerprint(artifact, directory, home)
        consent = consent_of(given, digest)
        found.append(Standing(claim_id, command_line(artifact), consent))
    return found


def trust(
    ledger: Path, artifacts: Mapping[str, Artifact], asks: Sequence[str] | None = None
) -> None:
    """Record the user's consent to run `artifacts` of the ledger at `ledger` as they are,
    to honour what its settings `asks` (None: leave that as it was), and to use its
    folder whoever owns it."""
    directory = directory_digest(ledger) if artifacts else ""
    home = ledger.absolute().parent
    with _editing() as kept:
        workspace = kept.setdefault(_key(ledger), {})
        allowed = workspace.setdefault("artifacts", {})
        for claim_id, artifact in artifacts.items():
            allowed[claim_id] = FORMAT + fingerprint(artifact, directory, home)
        if asks:
            workspace["settings"] = FORMAT + _asked(asks)
        elif asks is not None:  # nothing asked now: an old consent must not cover later asks
            workspace.pop("settings", None)
        owner = foreign_owner(ledger)
        if owner is not None:
            workspace["owner"] = owner


def digest_but(ledger: Path, folder: str) -> str:
    """The ledger's directory's fingerprint (`directory_digest`) without one folder at its
    top: what else changed while claimledger wrote that folder."""
    ours = _written_by_us(ledger)
    return _folder_digest(ledger.absolute().parent, lambda name: ours(name) or name == folder)


def renew(ledger: Path, ran: Mapping[str, Artifact]) -> None:
    """Consent to the artifacts that just ran with it, renewed on the ledger's directory
    as their runs left it: what a trusted program writes beside the ledger (a build's
    output, a cache) is its own doing, not a change from elsewhere, and would otherwise
    cost the user's word again after every run. A consent withdrawn meanwhile stays so."""
    if not ran:
        return
    directory, home = directory_digest(ledger), ledger.absolute().parent
    with _editing() as kept:
        allowed = _workspace(kept, ledger).get("artifacts", {})
        for claim_id, artifact in ran.items():
            if claim_id in allowed:
                allowed[claim_id] = FORMAT + fingerprint(artifact, directory, home)


def settings_consent(ledger: Path, asks: Sequence[str]) -> Consent:
    """Whether the user allowed the workspace's settings to ask for exactly `asks`."""
    if not asks:
        return Consent.TRUSTED
    return consent_of(_workspace(_read(), ledger).get("settings"), _asked(asks))


LOCAL_FOLDER = "(a folder of this machine)"
"""How an ask for a local repository ends: one the history step refuses where it would
read it (`refuse_untrusted_repositories`), never one it drops without a word."""


def asks_of(config: Config, ledger: Ledger | None, home: Path) -> list[str]:
    """What the workspace's own files ask beyond the defaults, one line each: settings
    that widen what claimledger may reach (`config`), sources of `ledger` marked to be
    read from private addresses, and a folder of report `templates` beside the ledger."""
    where = config.path.name if config.path is not None else ""
    asks = [f"{where}: map {_secret_shown(rule, *rule.partition('='))}" for rule in config.maps]
    if config.user_agent is not None:  # robots.txt answers by user agent
        asks.append(f"{where}: user_agent = {config.user_agent}")
    asks += [
        f"{where}: header {name} (value {_value_digest(value)})"
        for name, value in sorted(config.headers.items())
    ]
    if config.allow_private:
        asks.append(f"{where}: allow_private = true")
    if config.archive is not None:
        asks.append(f"{where}: archive = {_secret_shown(config.archive, config.archive)}")
    if config.robots is False:
        asks.append(f"{where}: robots = false")
    asks += [f"{where}: {name} = {value:g}" for name, value in _history_past_defaults(config)]
    if ledger is not None:
        marked = sorted(sid for sid, s in ledger.sources.items() if s.allow_private)
        asks += [
            f"claims.yaml: source {sid} ({_url_as_written(ledger, sid)}): allow_private"
            for sid in marked
        ]
        local = sorted(
            (s.id, s.repo)
            for s in ledger.sources.values()
            if s.repo is not None and names_local_repository(s.repo)
        )
        asks += [f"claims.yaml: source {sid}: repo {repo} {LOCAL_FOLDER}" for sid, repo in local]
    if (home / TEMPLATES).is_dir():
        asks.append(f"{TEMPLATES}/: report templates {_folder_digest(home / TEMPLATES)[:12]}")
    return [_one_line(redact_urls(ask)) for ask in asks]  # shown by trust --list, every note


def _url_as_written(ledger: Ledger, source_id: str) -> str:
    """A source's address as its ledger file spells it, its scheme in lower case: the
    words the user consented to. A ledger read keeps the host in lower case too, and a
    consent given to the file's own words must not read as changed when nothing was."""
    parsed = ledger.parsed_from
    if parsed is None:
        return ledger.sources[source_id].url
    from claimledger.ledger.yamledit import node_at, tree_of

    return lower_scheme(node_at(tree_of(parsed.text, ledger), ("sources", source_id, "url")).value)


def _secret_shown(value: str, *urls: str) -> str:
    """A setting's `value`, made of `urls` (a map's rule: its prefix, `=` and its mirror),
    each shown without its secrets (a mirror's `user:pass@` too, which a rule as a whole
    does not show as an address's), and then its value's digest, for an ask to change
    when a secret does without saying it, as a header's value does."""
    shown = "".join(redacted_text(url) for url in urls)
    return shown if shown == value else f"{shown} (value {_value_digest(value)})"


def _one_line(ask: str) -> str:
    """An ask as one line, whatever its setting holds (a map's value with a line break in
    it): each character that does not print is written as its escape."""
    if ask.isprintable():
        return ask
    return "".join(c if c.isprintable() else repr(c)[1:-1] for c in ask)


def _value_digest(value: str) -> str:
    """A short fingerprint of a setting's value, for an ask to change when the value does
    without saying it: a header's value may be a token, and asks are printed (a CI log).
    Keyed by this user's own key, so a short password cannot be searched for offline
    from the fingerprint printed."""
    data = value.encode("utf-8", "surrogateescape")
    return hmac.new(_digest_key(), data, hashlib.sha256).hexdigest()[:12]


DIGEST_KEY = "digest.key"
"""The user's key for the fingerprints of secrets, beside what they trusted."""


def _digest_key() -> bytes:
    """The user's key, made on first need; where none can be kept, one for this run (its
    fingerprints then hold for this run alone, as no consent can be kept either)."""
    path = record_file(DIGEST_KEY)
    return _RUN_KEY if path is None else _key_at(path)


KEY_BYTES = 32
_RUN_KEY = os.urandom(KEY_BYTES)
"""This run's key, where the user's cannot be kept or read."""


@functools.cache
def _key_at(path: Path) -> bytes:
    """The key kept at `path`; one made, or made again where the one there is no key (cut
    short, not a file), written whole and synced before it is put there: two claimledgers
    making it at once keep the one linked first. Where none can be kept, this run's."""
    try:
        key = _read_key(path)
        if key is None:
            _put_key(path, replace=os.path.lexists(path))
            key = _read_key(path)
    except OSError:
        return _RUN_KEY
    return _RUN_KEY if key is None else key


def _read_key(path: Path) -> bytes | None:
    """The key at `path`: a file of KEY_BYTES bytes, never waited on (a FIFO) nor read
    past them (a link to /dev/zero); None where there is none."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:  # none, a link, or what cannot be opened: no key
        return None
    with os.fdopen(descriptor, "rb") as file:
        if not stat.S_ISREG(os.fstat(descriptor).st_mode):
            return None
        key = file.read(KEY_BYTES + 1)
    return key if len(key) == KEY_BYTES else None


def _put_key(path: Path, *, replace: bool) -> None:
    """A new key at `path`, put there whole (linked: another's made meanwhile is kept;
    `replace`: over what is there and is no key)."""
    import tempfile

    descriptor, name = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    made = Path(name)
    try:
        with os.fdopen(descriptor, "wb") as file:
            file.write(os.urandom(KEY_BYTES))
            file.flush()
            os.fsync(file.fileno())
        if replace:
            made.replace(path)
        else:
            with contextlib.suppress(FileExistsError):
                os.link(made, path)
    finally:
        made.unlink(missing_ok=True)


def _nothing(name: str) -> bool:
    return False


def _folder_digest(folder: Path, skip: Callable[[str], bool] = _nothing) -> str:
    """A fingerprint of every file under `folder`, names and contents, but the entries at
    its top that `skip` names: a template or a program edited after consent (a `git pull`)
    is no longer the one the user allowed. A symbolic link counts by the text it holds,
    never by what it points to, which may be anywhere and change at any time."""
    digest = hashlib.sha256()
    for relative, path in _entries(folder, (), skip):
        digest.update(os.fsencode("/".join(relative)) + b"\0")
        digest.update(_entry_digest(path))
    return digest.hexdigest()


def _entries(
    folder: Path, above: tuple[str, ...], skip: Callable[[str], bool]
) -> Iterator[tuple[tuple[str, ...], Path]]:
    """The files and links under `folder`, in the order of their names, without following
    a link; a folder that cannot be listed is one entry, read as unreadable."""
    try:
        with os.scandir(folder) as listing:
            found = sorted((entry.name, entry) for entry in listing if not skip(entry.name))
    except OSError:
        yield above, folder
        return
    for name, entry in found:
        path, relative = folder / name, (*above, name)
        try:
            if entry.is_dir(follow_symlinks=False):
                yield from _entries(path, relative, _nothing)
            elif entry.is_file(follow_symlinks=False) or entry.is_symlink():
                yield relative, path
        except OSError:
            yield relative, path  # neither file nor folder we can tell: unreadable


def _entry_digest(path: Path) -> bytes:
    """A file's SHA-256, read a chunk at a time (a file may be large), or a link's SHA-256
    of what it holds; `unreadable` for a file that cannot be read (as it stands, never
    waiting on one that is not a regular file)."""
    try:
        if path.is_symlink():
            return hashlib.sha256(b"symlink\0" + os.fsencode(path.readlink())).digest()
        descriptor = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
        with os.fdopen(descriptor, "rb") as file:
            if not stat.S_ISREG(os.fstat(descriptor).st_mode):
                return b"unreadable"
            return hashlib.file_digest(file, "sha256").digest()
    except OSError:
        return b"unreadable"


def without_asks(config: Config) -> Config:
    """`config` less every setting that widens what claimledger may reach or spend."""
    past = dict(_history_past_defaults(config))
    return replace(
        config, maps=(), allow_private=None, archive=None, robots=None, user_agent=None,
        headers={}, history_budget=None if "history_budget" in past else config.history_budget,
        history_clone_mb=None if "history_clone_mb" in past else config.history_clone_mb,
    )  # fmt: skip


def _history_past_defaults(config: Config) -> list[tuple[str, float]]:
    """The history step's budgets the settings raise past the defaults: a checkout's
    word that a refresh may clone gigabytes, or spend an hour in git, is an ask."""
    from claimledger.ledger.config import DEFAULT_HISTORY_BUDGET, DEFAULT_HISTORY_CLONE_MB

    given = [
        ("history_budget", config.history_budget, DEFAULT_HISTORY_BUDGET),
        ("history_clone_mb", config.history_clone_mb, DEFAULT_HISTORY_CLONE_MB),
    ]
    return [
        (name, value) for name, value, default in given if value is not None and value > default
    ]


def foreign_owner(ledger: Path) -> int | None:
    """The user id of another user who owns the ledger or its folder, or None: a ledger
    found in /tmp or a shared folder may be anyone's, and its artifacts would run as us."""
    me = os.getuid()
    for path in (ledger.absolute().parent, ledger):
        try:
            owner = path.stat().st_uid
        except OSError:
            continue
        if owner != me:
            return owner
    return None


def owner_allowed(ledger: Path, owner: int) -> bool:
    """Whether the user said to use this ledger although `owner` owns its folder."""
    return bool(_workspace(_read(), ledger).get("owner") == owner)


def _asked(asks: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(asks).encode("utf-8", "surrogateescape")).hexdigest()


def revoke(ledger: Path, claim_ids: set[str] | None = None) -> list[str]:
    """Withdraw consent for the artifacts of `claim_ids` of the ledger, or (None) for
    everything of its workspace; what was withdrawn, by claim, "settings" or "folder"."""
    with _editing() as kept:
        workspace = kept.get(_key(ledger), {})
        allowed = workspace.get("artifacts", {})
        gone = [claim for claim in list(allowed) if claim_ids is None or claim in claim_ids]
        for claim in gone:
            del allowed[claim]
        if claim_ids is None:
            gone += [what for key, what in _WHOLE.items() if workspace.pop(key, None) is not None]
    return gone


_WHOLE = {"settings": "settings", "owner": "folder"}
"""What a workspace's consent holds beside its artifacts, and how `revoke` names it."""


# --------------------------------------------------------------------------- the file


def _key(ledger: Path) -> str:
    """A `claims.yaml` linked from another folder is another workspace, with files of its
    own beside it, and gets none of the consent given where the link points."""
    return path_key(ledger)


def _workspace(kept: dict[str, Any], ledger: Path) -> dict[str, Any]:
    found = kept.get(_key(ledger), {})
    return found if isinstance(found, dict) else {}


def _trust_file() -> Path | None:
    return record_file(TRUST_FILE)


def _read() -> dict[str, Any]:
    """What the user trusted; nothing when there is no file, or it cannot be read."""
    return _sane(read_record(_trust_file()))


def _sane(data: Any) -> dict[str, Any]:
    """Only workspaces of the shape `trust` writes: a damaged file trusts nothing it garbled."""
    if not isinstance(data, dict):
        return {}
    kept: dict[str, Any] = {}
    for key, workspace in data.items():
        if not isinstance(workspace, dict):
            continue
        artifacts = workspace.get("artifacts", {})
        clean: dict[str, Any] = {
            "artifacts": {c: f for c, f in artifacts.items() if isinstance(f, str)}
            if isinstance(artifacts, dict)
            else {}
        }
        if isinstance(workspace.get("settings"), str):
            clean["settings"] = workspace["settings"]
        owner = workspace.get("owner")
        if isinstance(owner, int) and not isinstance(owner, bool):
            clean["owner"] = owner
        kept[key] = clean
    return kept


@contextlib.contextmanager
def _editing() -> Iterator[dict[str, Any]]:
    """The trust file to change, under its lock; written back atomically on leaving."""
    path = _trust_file()
    if path is None:
        raise EnvironmentProblem(
            "no private config directory to keep trust in ($XDG_CONFIG_HOME/claimledger "
            "or ~/.config/claimledger, the user's alone); nothing was written"
        )
    try:
        with editing_record(path, _sane) as kept:
            yield kept
    except TimeoutError as busy:
        raise EnvironmentProblem(str(busy)) from None
    except OSError as problem:
        raise EnvironmentProblem.of(problem, path) from None


def refuse_foreign(ledger: Path) -> None:
    """Refuse, as git refuses a repository of dubious ownership, a ledger whose file or
    folder another user owns (found in /tmp, or a folder above): its settings and its
    commands would act as this user. `claimledger trust` on it says the user knows."""
    owner = foreign_owner(ledger)
    if owner is not None and not owner_allowed(ledger, owner):
        raise InputError(
            f"{ledger}: owned by another user (uid {owner}), so not used: a ledger there "
            "could be anyone's, and what it asks would run as you; if you trust it, run "
            f"`claimledger --ledger {ledger.absolute()} trust`"
        )
