"""simplemma's English lemma table as a MARISA trie kept in the user's cache.

simplemma reads its table either as a Python dict (some 25 MiB more at a refresh's peak)
or from its compressed stream, which costs about 0.1 s to index at every start and some
10 µs a word looked up. Its trie form holds the same pairs in a 1.3 MB file, loads in
about a millisecond and answers a word in about 1 µs: 4,000 words take 41 ms of CPU in a
new process where the stream takes 208 ms (`python tests/benchmarks/bench_lemmas.py`).
simplemma builds the file once a machine (about 0.4 s) and builds it again when it
cannot be read; it is kept in claimledger's own cache directory (made for the user
alone), under simplemma's version, so a new table is built afresh. The command line asks
the matcher to read it (`use_trie`); where the user has no cache directory the matcher
reads the stream, with the same lemmas.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from claimledger.ledger.userdirs import cache_directory
from claimledger.reading import lemmas

if TYPE_CHECKING:
    from simplemma.strategies.dictionaries import DictionaryFactory


def use_trie() -> None:
    """Have the matcher read its lemmas from the trie, from the first word it looks up."""
    lemmas.read_lemmas_from(trie_table)


def trie_table() -> DictionaryFactory | None:
    """simplemma's trie-backed table; None where the user has no cache directory. A trie
    built again (a damaged file, a cache that cannot be written) is no news to the user:
    simplemma's warnings about it are not shown."""
    import logging
    from importlib.metadata import version

    from simplemma.strategies.dictionaries import TrieDictionaryFactory

    logging.getLogger("simplemma").setLevel(logging.ERROR)
    folder = cache_directory("lemmas")
    if folder is None:
        return None
    return TrieDictionaryFactory(disk_cache_dir=str(folder / f"simplemma-{version('simplemma')}"))
