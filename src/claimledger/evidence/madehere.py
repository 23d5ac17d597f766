"""Which evidence stores this user's claimledger made: a store that came with a checkout is
the checkout's word.

A refresh asks a server "has this page changed since?" with the validators of the last
reading it stored, and believes the stored page when the answer is no; it reuses a
site's robots.txt read within the day, and carries a check over to a page whose text is
unchanged. A cloned `out/evidence.sqlite3` could hold a forged page behind the real
validators, a permissive robots.txt or a forged "verified" check, so a store counts as
made here only when its SQLite `application_id` is the identity this user's config
recorded for that path: stamped when claimledger creates the file, or once a refresh of
any other store has read every source of the ledger into it, reading every page in full,
asking every site for its robots.txt and carrying no check over, while the store keeps
nothing a later run would believe that no reading replaces (the archive's answers, the
docs' history, saves, artifact runs, searches). Until then `status` and the report say
whose word the store is.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from claimledger.ledger.userrecords import editing_record, path_key, read_record, record_file

STORES_FILE = "stores.json"


def made_here(store: Path, identity: int) -> bool:
    """Whether the store at `store` carries the identity this user recorded for it."""
    return identity != 0 and _read().get(_key(store)) == identity


def adopt(store: Path) -> int | None:
    """A new identity for the store at `store`, recorded as this user's (the caller
    stamps it on the store); None where no private config directory can record it."""
    identity = secrets.randbelow(2**31 - 1) + 1  # a signed 32-bit SQLite application_id
    with _editing() as kept:
        if kept is None:
            return None
        kept[_key(store)] = identity
    return identity


def _key(store: Path) -> str:
    return path_key(store)


def _read() -> dict[str, Any]:
    return _sane(read_record(record_file(STORES_FILE)))


def _sane(data: Any) -> dict[str, Any]:
    """Only identities as `adopt` writes them: a damaged record names no store."""
    if not isinstance(data, dict):
        return {}
    return {k: v for k, v in data.items() if isinstance(v, int) and not isinstance(v, bool)}


@contextlib.contextmanager
def _editing() -> Iterator[dict[str, Any] | None]:
    """The record to change; None (and nothing written) where it cannot be kept: the
    store then stays a stranger, which costs only full readings."""
    path = record_file(STORES_FILE)
    if path is None:
        yield None
        return
    try:
        with editing_record(path, _sane) as kept:
            yield kept
    except OSError:
        return
