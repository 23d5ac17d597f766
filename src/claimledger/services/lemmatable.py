"""simplemma's English lemma table as a MARISA trie kept in the user's cache.

simplemma reads its table either as a Python dict (some 25 MiB more at a refresh's peak)
or from its compressed stream, which costs about 0.1 s to index at every start and some
10 µs a word looked up. A trie of the same pairs (simplemma's own trie form) is a 1.3 MB
file that loads in about a millisecond and answers a word in about 1 µs: the figures are
`python tests/benchmarks/bench_lemmas.py`'s.

The file is claimledger's, in its cache directory (made for the user alone), and is
believed only as written: a regular file (no link, no pipe) whose SHA-256 is the one
written beside it, each written whole (a temporary file moved into place) so that two
commands building it at once never read half a file; it is then mapped, not copied.
Anything else (damaged, cut short, flipped bits, unreadable) is built again, once a
machine and about 0.3 s, its peak some 45 MiB more than a later start's; where it cannot
be written, or read, the matcher reads the compressed stream, with the same lemmas. The
name holds both libraries' versions: a new table or format is built afresh.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import stat
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.ledger.atomicfile import replace_atomically
from claimledger.ledger.userdirs import cache_directory
from claimledger.reading import lemmas

if TYPE_CHECKING:
    from collections.abc import Mapping

    from marisa_trie import BytesTrie

LARGEST = 16 * 2**20
"""A file larger than this is not the trie (it is about 1.3 MB)."""
_LOAD_ERRORS = (OSError, RuntimeError, ValueError, MemoryError)


def use_trie() -> None:
    """Have the matcher read its lemmas from the trie, from the first word it looks up."""
    lemmas.read_lemmas_from(trie_table)


def trie_table() -> TrieTable | None:
    """The trie, loaded (built first if need be); None where there is no cache directory,
    or the trie can be neither read nor kept there: the matcher reads the stream."""
    path = trie_path()
    if path is None:
        return None
    trie = _believed(path)
    if trie is None and os.access(path.parent, os.W_OK):
        with contextlib.suppress(*_LOAD_ERRORS):
            trie = _built()
            data = trie.tobytes()
            replace_atomically(path, data)
            replace_atomically(_digest_path(path), hashlib.sha256(data).hexdigest().encode())
    return None if trie is None else TrieTable(trie)


def trie_path() -> Path | None:
    """Where this machine keeps the trie, or None where the user has no cache directory."""
    from importlib.metadata import version

    folder = cache_directory("lemmas")
    if folder is None:
        return None
    versions = f"simplemma{version('simplemma')}-marisa{version('marisa-trie')}"
    return folder / f"{lemmas.LANGUAGE}-{versions}.trie"


def _digest_path(path: Path) -> Path:
    return path.with_name(f"{path.name}.sha256")


class TrieTable:
    """A simplemma `DictionaryFactory` for English alone, on a loaded trie."""

    def __init__(self, trie: BytesTrie) -> None:
        from simplemma.strategies.dictionaries.trie_dictionary_factory import TrieWrapDict

        self._table = TrieWrapDict(trie)

    def get_dictionary(self, lang: str) -> Mapping[str, str]:
        if lang != lemmas.LANGUAGE:
            raise ValueError(f"only {lemmas.LANGUAGE!r} is looked up, not {lang!r}")
        return self._table


def _believed(path: Path) -> BytesTrie | None:
    """The trie at `path`, mapped, if it is the one written there: a regular file whose
    SHA-256 is the one written beside it."""
    from marisa_trie import BytesTrie

    try:
        data, digest = _regular_bytes(path, LARGEST), _regular_bytes(_digest_path(path), 64)
        if data is None or digest != hashlib.sha256(data).hexdigest().encode():
            return None
        return BytesTrie().mmap(str(path))
    except _LOAD_ERRORS:
        return None


def _regular_bytes(path: Path, most: int) -> bytes | None:
    """A regular file's bytes, if it holds at most `most`: never through a link, and a
    named pipe is opened without waiting for a writer, then refused."""
    with os.fdopen(os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK), "rb") as file:
        found = os.fstat(file.fileno())
        if not stat.S_ISREG(found.st_mode) or found.st_size > most:
            return None
        return file.read(most + 1)


def _built() -> BytesTrie:
    """The trie of simplemma's English table (read whole, once)."""
    from marisa_trie import BytesTrie
    from simplemma.strategies.dictionaries import DefaultDictionaryFactory

    table = DefaultDictionaryFactory(cache_max_size=1).get_dictionary(lemmas.LANGUAGE)
    return BytesTrie((word, lemma.encode()) for word, lemma in table.items())
