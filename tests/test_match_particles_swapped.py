"""The particles of one verb said twice that traded places ("log in before you log out"
-> "log out before you log in"): small words, but each says the reverse of the other
after its verb, so the sentence now says the reverse."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Log in before you log out.", "Log out before you log in.", id="log"),
        pytest.param("Log in, then log out.", "Log out, then log in.", id="then"),
        pytest.param("Opt in before you opt out.", "Opt out before you opt in.", id="opt"),
        pytest.param(
            "Check in the file before you check out the branch.",
            "Check out the file before you check in the branch.",
            id="with-their-objects",
        ),
    ],
)
def test_particles_of_one_verb_swapped_reverse_the_sentence(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "words swapped" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Data flows in and out of the cache.",
            "Data flows out and in of the cache.",
            id="two-particles-of-one-verb",
        ),
    ],
)
def test_particles_said_in_another_order_of_one_verb_are_no_swap(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)
