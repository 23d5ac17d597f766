"""A ledger read and found sound, kept by the hash of its text beside the evidence store,
so the commands that follow on the same bytes (regrade, render, status after a check)
skip reading the YAML and checking it again: on a 5,000-claim ledger that is most of
what loading it costs.

The cache holds the ledger's plain data as JSON, under the version of claimledger that
checked it; a text edited by a byte, or a claimledger upgraded, misses and is read and
checked in full. A cache that cannot be read or written is no error: it is only skipped.
Its directory is the store's, as trusted as the evidence in it.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from claimledger import __version__
from claimledger.atomicfile import replace_atomically
from claimledger.ledger import Ledger, read, sound
from claimledger.located import collector_paused

CACHE_NAME = "ledger-cache.json"


def parse_cached(text: str, filename: str, cache: Path, *, making: bool = False) -> Ledger:
    """`ledger.parse(text)`, through the cache at `cache`: kept only where its directory
    already exists (a first `check` makes no `out/`), or is `making` it (a first
    `refresh`, which makes it for its store next, keeps the ledger it found sound)."""
    if not (making or cache.parent.is_dir()):
        return read(text, filename)[0]
    key = _key(text)
    data = _cached(cache, key)
    if data is not None:
        with collector_paused():
            return sound(data, text)
    ledger, data = read(text, filename)
    if data is not None:
        _keep(cache, key, data)
    return ledger


def _key(text: str) -> str:
    return f"{__version__}:{hashlib.sha256(text.encode('utf-8')).hexdigest()}"


def _cached(cache: Path, key: str) -> dict[str, Any] | None:
    try:
        with cache.open("rb") as file:
            if file.readline() != f"{key}\n".encode():
                return None
            body = file.read()
    except OSError:
        return None
    with contextlib.suppress(ValueError, RecursionError):
        data = json.loads(body)
        return data if isinstance(data, dict) else None
    return None


def _keep(cache: Path, key: str, data: dict[str, Any]) -> None:
    """The key on the first line, so a miss reads no more than a line's worth to tell."""
    with contextlib.suppress(OSError, TypeError, ValueError):
        cache.parent.mkdir(parents=True, exist_ok=True)
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        replace_atomically(cache, f"{key}\n{body}".encode())
