"""The ledger's words that commands name before any ledger is read: the grades, the bases
of a grade, the kinds of claim, the reading's own fields, what an id looks like.

Kept apart from `claimledger.ledger.model` so a command's help can say them without loading
the ledger's reader.
"""

from __future__ import annotations

import re
from enum import StrEnum

from claimledger.ledger.schema import LEDGER_SCHEMA


class Grade(StrEnum):
    """How strongly the public evidence supports a facet, strongest first."""

    DEMONSTRATED = "DEMONSTRATED"
    CLAIMED = "CLAIMED"
    SPECULATIVE = "SPECULATIVE"
    UNKNOWN = "UNKNOWN"

    @property
    def strength(self) -> int:
        """Higher is stronger, so `min` by strength is the weakest grade."""
        return len(_GRADE_ORDER) - _GRADE_ORDER.index(self)


_GRADE_ORDER = list(Grade)


class Basis(StrEnum):
    """What a facet's grade rests on, which decides the rule that may change it."""

    QUOTES = "quotes"
    PREMISES = "premises"
    ARTIFACT = "artifact"
    JUDGEMENT = "judgement"


DEFAULT_FACETS = {
    Basis.QUOTES: "the documentation says this",
    Basis.PREMISES: "the author's inference from its premises",
    Basis.JUDGEMENT: "the author's judgement",
    Basis.ARTIFACT: "the artifact's run shows this",
}
"""What a new claim's first facet is on, by what it rests on: a grade on premises or on
judgement is the author's own reasoning, never "the documentation says this"."""


LEDGER_FIELDS = ("title", "subject", "author", "date_read", "about")
"""The reading's own fields (what `claimledger set` may change), in their written order."""

RENDERINGS: tuple[str, ...] = tuple(
    LEDGER_SCHEMA["$defs"]["source"]["properties"]["render"]["enum"]
)
"""How a source's page may be read, as the schema lists them."""

SCOPE_PARTS = {"did-not": "did_not", "could-not-see": "could_not_see"}
"""The scope's two lists, by the name the command line gives them."""

CLAIM_KINDS: tuple[str, ...] = tuple(LEDGER_SCHEMA["$defs"]["claim"]["properties"]["kind"]["enum"])
"""The kinds a claim may have, as the schema lists them."""

CLAIM_ID = re.compile(LEDGER_SCHEMA["$defs"]["id"]["pattern"].strip("^$"))
"""What an id looks like (use with `fullmatch`), as the schema says."""

SOURCE_KINDS: tuple[str, ...] = tuple(
    LEDGER_SCHEMA["$defs"]["source"]["properties"]["kind"]["enum"]
)
"""What a source is: the vendor's docs, its blog, a changelog, source code, a mirror."""
