"""What is said alike, written alike: the forms a rewording may trade that say one thing
("24 hours" / "one day", "must" / "are required to", "append only" / "append-only", "a
single" / "one", "not required" / "optional"), so that the span's counts and a change's
words are compared on what they say.

Pure. On the lower-cased words of a span.
"""

from __future__ import annotations

from claimledger.reading.match.lexicon import CERTAINTY, MODAL_STRENGTH, number_value
from claimledger.reading.match.modals import lifted
from claimledger.reading.match.quantities import bounds_as_said, grouped_digits, in_base_units


def hyphenated_as(words: list[str], other: list[str]) -> list[str]:
    """The words with two that the other side writes as one hyphenated word ("append only"
    / "append-only") joined as it does: a hyphen put in is no quantifier taken out."""
    compounds = {word for word in other if "-" in word}
    joined: list[str] = []
    index = 0
    while index < len(words):
        pair = "-".join(words[index : index + 2])
        if index + 1 < len(words) and pair in compounds:
            joined.append(pair)
            index += 2
        else:
            joined.append(words[index])
            index += 1
    return joined


def as_said(words: list[str]) -> list[str]:
    """The words with what is said alike written alike: an obligation a negation lifts as
    "optional", "a single" as "one", a figure's thousands set apart by spaces as one
    figure, a quantity in its base unit ("24 hours" / "one day"), a bound as the bound it
    says ("cannot exceed" / "at most")."""
    return bounds_as_said(in_base_units(lifted(_one_for_single(grouped_digits(words)))))


def _one_for_single(words: list[str]) -> list[str]:
    """ "a single partition" is "one partition"."""
    said: list[str] = []
    for word in words:
        if word == "single" and said[-1:] == ["a"]:
            said[-1] = "one"
        else:
            said.append(word)
    return said


def said_values(words: list[str]) -> list[str]:
    """`as_said`, each number as its value ("1,000" and "one thousand" as 1000) and each
    modal as its strength, the verbs around it left out ("must" and "are required to")."""
    said = []
    for word in as_said(words):
        if word in MODAL_STRENGTH:
            said.append(f"modal {MODAL_STRENGTH[word]}")
        elif word in CERTAINTY:
            said.append(f"certainty {CERTAINTY[word]}")  # "typically" / "usually"
        elif word not in _AUXILIARIES:
            said.append(number_value(word) or word)
    return said


_AUXILIARIES = frozenset({"be", "is", "are", "was", "were", "to", "it", "you", "we", "that"})
"""Words a modal said another way brings with it ("you can" / "it is possible to")."""
