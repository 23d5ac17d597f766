"""Where the matcher's lemmas come from: simplemma, on a table the command line chooses.

Light to import: the command line names where the table comes from (a trie in the user's
cache, services/lemmatable.py) before any word is looked up, without loading the matcher.
Nothing here reads a file; the table's source, asked once at the first word looked up,
may (its errors are its own: it answers None rather than raise).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from simplemma import Lemmatizer
    from simplemma.strategies import DictionaryLookupStrategy
    from simplemma.strategies.dictionaries import DictionaryFactory

LANGUAGE = "en"

_TABLES: list[Callable[[], DictionaryFactory | None]] = []


def read_lemmas_from(table: Callable[[], DictionaryFactory | None]) -> None:
    """Where the lemma table comes from, asked at the first word looked up: the command
    line gives a trie kept in the user's cache (services/lemmatable.py). Without one, or
    where it gives None, simplemma's compressed stream: the same lemmas, slower to start."""
    _TABLES[:] = [table]
    lemma_table.cache_clear()


@dataclass(frozen=True)
class Words:
    """What the lexicon asks of simplemma: a word's lemma, and whether it knows the word."""

    lemmatizer: Lemmatizer
    lookup: DictionaryLookupStrategy

    def lemmatize(self, word: str) -> str:
        return str(self.lemmatizer.lemmatize(word, LANGUAGE))

    def is_known(self, word: str) -> bool:
        """As `simplemma.is_known`: the word itself, as written, is in the table."""
        from simplemma.utils import normalize_token

        return self.lookup.get_lemma(normalize_token(word), LANGUAGE) is not None


@cache
def lemma_table() -> Words:
    """simplemma compiles its rules when imported (about 0.1 s), so it is loaded at the
    first word looked up: a command that compares no wording never pays for it."""
    from simplemma import Lemmatizer
    from simplemma.strategies import DefaultStrategy, DictionaryLookupStrategy
    from simplemma.strategies.dictionaries import LOW_MEMORY_DICTIONARY_FACTORY

    given = _TABLES[0]() if _TABLES else None
    table = LOW_MEMORY_DICTIONARY_FACTORY if given is None else given
    strategy = DefaultStrategy(dictionary_factory=table)
    return Words(Lemmatizer(lemmatization_strategy=strategy), DictionaryLookupStrategy(table))
