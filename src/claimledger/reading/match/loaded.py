"""Importing this module loads what the matcher otherwise reads on first use: the lemma
dictionary (about 0.3 s and 25 MB). The fork server of the page-reader pool imports it,
so that every worker it forks starts with the dictionary loaded, and shares its pages,
instead of loading it again."""

from __future__ import annotations

from claimledger.reading.match.lexicon import is_word

is_word("loaded")
