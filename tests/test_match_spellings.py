"""A word in its British spelling is the same word: "colour" is "color", "behaviour" is
"behavior", "favourite" is "favorite", even right after "the" and before a role noun
where another word would name another thing; another word there still does."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Change the color setting to dark.", "Change the colour setting to dark.", id="colour"
        ),
        pytest.param(
            "The default behavior is to retry.",
            "The default behaviour is to retry.",
            id="behaviour",
        ),
        pytest.param("Pick your favorite colors.", "Pick your favourite colours.", id="favourite"),
        pytest.param(
            "The flavour option is ignored.", "The flavor option is ignored.", id="flavor"
        ),
        pytest.param("The image is discolored.", "The image is discoloured.", id="discoloured"),
        pytest.param("It is a behavioral change.", "It is a behavioural change.", id="behavioural"),
    ],
)
def test_a_british_spelling_is_the_same_word(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Change the color setting to dark.",
            "Change the contrast setting to dark.",
            id="contrast",
        ),
        pytest.param(
            "Change the colour setting to dark.", "Change the font setting to dark.", id="font"
        ),
        pytest.param(
            "The index is scoured nightly.", "The index is scored nightly.", id="scour-is-no-score"
        ),
        pytest.param("The job takes an hour.", "The job takes a hor.", id="hour-is-no-spelling"),
    ],
)
def test_another_word_in_its_place_is_still_told(quote: str, passage: str) -> None:
    assert level(quote, passage) != "harmless", judged(quote, passage)
