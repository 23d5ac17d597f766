"""simplemma's English lemma table as a memory-mapped MARISA trie in the user's cache.

simplemma reads its table either as a Python dict (some 25 MiB more at a refresh's peak)
or from its compressed stream, which costs about 0.1 s to index at every start and some
10 µs a word looked up. The trie holds the same pairs in about 1.3 MB of file, is mapped
in about a millisecond, and answers a word in about 1 µs: 4,000 words take 41 ms of CPU
in a new process where the stream takes 208 ms (`python tests/benchmarks/bench_lemmas.py`).
It is built once a machine (about 0.4 s) from simplemma's own table and written whole,
so that two commands building it at once never read half a file; a file that cannot be
read is built again. Its name holds both libraries' versions: a new table or format is
built afresh. The command line asks the matcher to read it (`use_trie`); where the user
has no cache directory the matcher reads the stream, with the same lemmas.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.ledger.atomicfile import replace_atomically
from claimledger.ledger.userdirs import cache_directory
from claimledger.reading import lemmas

if TYPE_CHECKING:
    from marisa_trie import BytesTrie

FORMAT = 1
"""Raised when what the file holds changes (its keys, its values)."""


def use_trie() -> None:
    """Have the matcher read its lemmas from the trie, from the first word it looks up."""
    lemmas.read_lemmas_from(trie_table)


def trie_table() -> TrieTable | None:
    """The trie, as simplemma's table; None where the user has no cache directory."""
    path = trie_path()
    return None if path is None else TrieTable(path)


def trie_path() -> Path | None:
    """Where this machine keeps the trie, or None where the user has no cache directory."""
    from importlib.metadata import version

    folder = cache_directory("lemmas")
    if folder is None:
        return None
    versions = f"simplemma{version('simplemma')}-marisa{version('marisa-trie')}"
    return folder / f"{lemmas.LANGUAGE}-{versions}-v{FORMAT}.marisa"


class TrieTable:
    """A simplemma `DictionaryFactory` for English alone, on the trie at `path`."""

    def __init__(self, path: Path) -> None:
        self.path = path

    @cache  # noqa: B019 - one table a lemmatizer, for the life of the process
    def get_dictionary(self, lang: str) -> Mapping[str, str]:
        if lang != lemmas.LANGUAGE:
            raise ValueError(f"only {lemmas.LANGUAGE!r} is looked up, not {lang!r}")
        return TrieMapping(_mapped(self.path))


class TrieMapping(Mapping[str, str]):
    """The trie read as simplemma reads a table: a word to its lemma."""

    def __init__(self, trie: BytesTrie) -> None:
        self._trie = trie

    def get(self, key: str, default: str | None = None) -> str | None:  # type: ignore[override]
        found = self._trie.get(key)
        return found[0].decode() if found else default

    def __getitem__(self, key: str) -> str:
        found = self.get(key)
        if found is None:
            raise KeyError(key)
        return found

    def __contains__(self, key: object) -> bool:
        return isinstance(key, str) and key in self._trie

    def __iter__(self) -> Iterator[str]:
        return iter(self._trie.iterkeys())

    def __len__(self) -> int:
        return len(self._trie)


def _mapped(path: Path) -> BytesTrie:
    """The trie at `path`; built first where it is missing or cannot be read, and then
    kept there if it can be (else held in memory for this process)."""
    from marisa_trie import BytesTrie

    with contextlib.suppress(OSError, RuntimeError, ValueError):
        return BytesTrie().mmap(str(path))
    trie = _built()
    with contextlib.suppress(OSError):
        replace_atomically(path, trie.tobytes())
    return trie


def _built() -> BytesTrie:
    from marisa_trie import BytesTrie
    from simplemma.strategies.dictionaries import DefaultDictionaryFactory

    table = DefaultDictionaryFactory(cache_max_size=1).get_dictionary(lemmas.LANGUAGE)
    return BytesTrie((word, lemma.encode()) for word, lemma in table.items())
