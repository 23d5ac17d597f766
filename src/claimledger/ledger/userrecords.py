"""The user's own records in their config directory (what they trusted, which evidence
stores their claimledger made): keyed by a path as claimledger names it, read as nothing
when they cannot be read, and changed under a lock, written back whole and atomically."""

from __future__ import annotations

import contextlib
import json
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from claimledger.ledger.atomicfile import followed, replace_atomically
from claimledger.ledger.userdirs import config_directory


def record_file(name: str) -> Path | None:
    """NAME in the user's private config directory; None where there is none."""
    directory = config_directory()
    return None if directory is None else directory / name


def path_key(path: Path) -> str:
    """How a record names a file: its folder's links resolved but not the file's own, so
    a file linked from another folder is another file, with other files beside it."""
    absolute = path.absolute()
    return str(followed(absolute.parent) / absolute.name)


def read_record(path: Path | None) -> Any:
    """The JSON at `path`; None when there is none, or it cannot be read."""
    if path is None:
        return None
    try:
        return json.loads(path.read_bytes())
    except (OSError, ValueError, RecursionError):
        return None


@contextlib.contextmanager
def editing_record(path: Path, sane: Callable[[Any], dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """The record at `path` (as `sane` keeps it) to change, under its lock; written back
    atomically on leaving. OSError where it cannot be, TimeoutError (one) when another
    claimledger holds the lock."""
    from filelock import FileLock, Timeout

    try:
        with FileLock(path.with_name(f".{path.name}.lock"), timeout=30):
            kept = sane(read_record(path))
            yield kept
            replace_atomically(path, json.dumps(kept, indent=2, sort_keys=True).encode() + b"\n")
    except Timeout:
        raise TimeoutError(f"{path}: another claimledger holds its lock") from None
