"""What the user allowed a ledger to run: consent kept in the user's own config.

A cloned teardown's `claims.yaml` is somebody else's file, and its artifact commands are
programs. Like direnv's `allow` or an editor's Restricted Mode, claimledger runs none of
them until the user has read them and said so (`claimledger trust`), and a command that
changes afterwards, or a file of the checkout that it names, needs the user's word again.

Consent is a fingerprint per claim: the command as the ledger writes it, whether a shell
runs it, and the content of every file of the ledger's directory it names (a trusted
`python3 toy.py` runs another program once toy.py changes). It is kept by the ledger's
absolute path in `trusted.json` in the user's config directory, which a repository
cannot write to; nothing of the checkout can widen it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import shlex
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from claimledger.atomicfile import replace_atomically
from claimledger.errors import EnvironmentProblem
from claimledger.ledger import Artifact
from claimledger.userdirs import config_directory

TRUST_FILE = "trusted.json"


class Consent(StrEnum):
    """Where an artifact stands with the user."""

    TRUSTED = "trusted"
    CHANGED = "changed"  # trusted once; its command or a file it names changed since
    UNTRUSTED = "untrusted"


@dataclass(frozen=True)
class Standing:
    """One artifact claim's command and whether the user allowed it to run."""

    claim_id: str
    command: str
    consent: Consent


def fingerprint(artifact: Artifact, home: Path) -> str:
    """What the user agrees to when they trust an artifact: its command, its shell, and
    the content of the files of `home` (the ledger's directory, where it runs) it names."""
    named = {word: _file_digest(home, word) for word in _words(artifact)}
    what = {
        "run": artifact.run if isinstance(artifact.run, str) else list(artifact.run),
        "shell": artifact.shell,
        "files": {word: digest for word, digest in named.items() if digest is not None},
    }
    return hashlib.sha256(json.dumps(what, sort_keys=True).encode()).hexdigest()


def standings(ledger: Path, artifacts: Mapping[str, Artifact]) -> list[Standing]:
    """Each artifact of the ledger at `ledger`, with whether its run is allowed."""
    from claimledger.artifact import command_line

    kept = _workspace(_read(), ledger).get("artifacts", {})
    home = ledger.absolute().parent
    found = []
    for claim_id, artifact in artifacts.items():
        given = kept.get(claim_id)
        if given is None:
            consent = Consent.UNTRUSTED
        elif given == fingerprint(artifact, home):
            consent = Consent.TRUSTED
        else:
            consent = Consent.CHANGED
        found.append(Standing(claim_id, command_line(artifact), consent))
    return found


def trust(ledger: Path, artifacts: Mapping[str, Artifact]) -> None:
    """Record the user's consent to run `artifacts` of the ledger at `ledger` as they are."""
    home = ledger.absolute().parent
    with _editing() as kept:
        workspace = kept.setdefault(_key(ledger), {})
        allowed = workspace.setdefault("artifacts", {})
        for claim_id, artifact in artifacts.items():
            allowed[claim_id] = fingerprint(artifact, home)


def revoke(ledger: Path, claim_ids: set[str] | None = None) -> list[str]:
    """Withdraw consent for `claim_ids` of the ledger (every one if None); those withdrawn."""
    with _editing() as kept:
        allowed = kept.get(_key(ledger), {}).get("artifacts", {})
        gone = [claim for claim in list(allowed) if claim_ids is None or claim in claim_ids]
        for claim in gone:
            del allowed[claim]
    return gone


# --------------------------------------------------------------------------- the file


def _key(ledger: Path) -> str:
    return str(ledger.absolute().resolve())


def _workspace(kept: dict[str, Any], ledger: Path) -> dict[str, Any]:
    found = kept.get(_key(ledger), {})
    return found if isinstance(found, dict) else {}


def _trust_file() -> Path | None:
    directory = config_directory()
    return None if directory is None else directory / TRUST_FILE


def _read() -> dict[str, Any]:
    """What the user trusted; nothing when there is no file, or it cannot be read."""
    path = _trust_file()
    if path is None:
        return {}
    try:
        data = json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return {}
    return _sane(data)


def _sane(data: Any) -> dict[str, Any]:
    """Only workspaces of {claim: fingerprint}: a damaged file trusts nothing it garbled."""
    if not isinstance(data, dict):
        return {}
    kept: dict[str, Any] = {}
    for key, workspace in data.items():
        artifacts = workspace.get("artifacts") if isinstance(workspace, dict) else None
        if isinstance(artifacts, dict):
            clean = {c: f for c, f in artifacts.items() if isinstance(f, str)}
            kept[key] = {**workspace, "artifacts": clean}
    return kept


@contextlib.contextmanager
def _editing() -> Iterator[dict[str, Any]]:
    """The trust file to change, under its lock; written back atomically on leaving."""
    from filelock import FileLock, Timeout

    path = _trust_file()
    if path is None:
        raise EnvironmentProblem(
            "no private config directory to keep trust in ($XDG_CONFIG_HOME/claimledger "
            "or ~/.config/claimledger, the user's alone); nothing was written"
        )
    try:
        with FileLock(path.with_name(f".{TRUST_FILE}.lock"), timeout=30):
            kept = _read()
            yield kept
            data = json.dumps(kept, indent=2, sort_keys=True).encode() + b"\n"
            replace_atomically(path, data)
    except (OSError, Timeout) as problem:
        if isinstance(problem, OSError):
            raise EnvironmentProblem.of(problem, path) from None
        raise EnvironmentProblem(f"{path}: another claimledger holds its lock") from None


# --------------------------------------------------------------------------- named files


def _words(artifact: Artifact) -> list[str]:
    """The words of the command, each a candidate for a file it names."""
    if isinstance(artifact.run, str):
        try:
            return shlex.split(artifact.run)
        except ValueError:  # an unclosed quote: the shell will say so; the text stands
            return [artifact.run]
    return list(artifact.run)


def _file_digest(home: Path, word: str) -> str | None:
    """The SHA-256 of the regular file `word` names in `home`, if it names one."""
    if not word or "\0" in word:
        return None
    path = home / word
    try:
        if not path.is_file():
            return None
        with path.open("rb") as file:
            return hashlib.file_digest(file, "sha256").hexdigest()
    except (OSError, ValueError):
        return None
