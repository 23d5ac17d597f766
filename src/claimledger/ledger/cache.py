"""A ledger read and found sound, kept by the hash of its text in the user's own cache,
so the commands that follow on the same bytes (regrade, render, status after a check)
skip reading the YAML and checking it again: on a 5,000-claim ledger that is most of
what loading it costs.

The cache holds the ledger's plain data as JSON, under the version of claimledger that
checked it and the SHA-256 of the text it was read from; a text edited by a byte, or a
claimledger upgraded, misses and is read and checked in full. It lives in the user's
own cache directory (`claimledger.ledger.userdirs`), one file per ledger path, never in the
checkout: a repository could commit a cache file whose key matches its harmless
claims.yaml and whose body is another ledger, and what is believed must be what this
user's own run made. A cache that cannot be read or written is no error: it is skipped.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
from pathlib import Path
from typing import Any

from claimledger import __version__
from claimledger.ledger.atomicfile import replace_atomically
from claimledger.ledger.located import collector_paused
from claimledger.ledger.model import Ledger, read, sound
from claimledger.ledger.userdirs import cache_directory


def cache_file(ledger: Path) -> Path | None:
    """Where the ledger at `ledger` is kept: a name from its absolute path, so each ledger
    has one entry, replaced when its text changes. None where the user has no cache."""
    directory = cache_directory("ledgers")
    if directory is None:
        return None
    name = hashlib.sha256(str(ledger.absolute()).encode("utf-8", "surrogateescape"))
    return directory / f"{name.hexdigest()[:32]}.json"


def parse_cached(text: str, filename: str, cache: Path) -> Ledger:
    """`ledger.parse(text)`, through the cache file `cache`."""
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
        body = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        replace_atomically(cache, f"{key}\n{body}".encode())
