"""Every sqlite3 error turned into the tree of `claimledger.errors`, at the store's edge.

`mapped` wraps each method of the store (and of its parts, such as `store.archived`), so
that nothing outside the store ever sees sqlite3.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import ParamSpec, TypeVar

from claimledger.errors import EnvironmentProblem, StoreBusyError, StoreDamagedError

P = ParamSpec("P")
R = TypeVar("R")


def translated(error: sqlite3.Error, path: Path) -> Exception:
    """A sqlite3 error as the tree names it: what is wrong, with which file, what to do.

    What the machine refuses (a full disk, a read-only file system, no permission) and
    another writer are the user's to act on; a file SQLite cannot read as a database is a
    damaged store. A constraint our own write broke is a bug, and stays one (an internal
    error, never "move the store aside").
    """
    text = str(error)
    low = text.lower()
    if "full" in low:
        return EnvironmentProblem(f"{path}: no space left on the device: free some and retry")
    if "readonly" in low or "read-only" in low:
        return EnvironmentProblem(f"{path}: the file system is read-only: nothing was written")
    if "unable to open" in low or "disk i/o" in low or "authorization" in low:
        return EnvironmentProblem(f"{path}: cannot be opened or written ({text})")
    if "locked" in low or "busy" in low:
        return StoreBusyError(f"{path} is busy with another writer: wait for it and retry")
    if isinstance(error, sqlite3.IntegrityError | sqlite3.ProgrammingError):
        return RuntimeError(f"{path}: the evidence store refused a write of ours: {text}")
    if isinstance(error, sqlite3.DatabaseError):
        return StoreDamagedError(
            f"{path} cannot be read as an evidence store ({text}): move it aside and refresh again"
        )
    return error


def mapped(method: Callable[P, R]) -> Callable[P, R]:
    """Run a store method with every sqlite3 error translated at this edge."""

    @functools.wraps(method)
    def run(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return method(*args, **kwargs)
        except sqlite3.Error as error:
            store = args[0]
            raise translated(error, getattr(store, "path", Path("evidence store"))) from None

    return run
