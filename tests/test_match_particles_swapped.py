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


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Users log in with SSO.", "Users log out with SSO.", id="log"),
        pytest.param("Users log in with SSO", "Users log out with SSO", id="mid-page"),
        pytest.param(
            "Users are logged in automatically.", "Users are logged out automatically.", id="logged"
        ),
        pytest.param("Sign in to the console.", "Sign out of the console.", id="sign-in-to"),
        pytest.param("Users can opt in to telemetry.", "Users can opt out of telemetry.", id="opt"),
        pytest.param("Check in the file.", "Check out the file.", id="check"),
        pytest.param("Turn on the feature.", "Turn off the feature.", id="on-off"),
        pytest.param("Scale up the cluster.", "Scale down the cluster.", id="up-down"),
    ],
)
def test_a_verb_s_particle_traded_for_its_opposite_reverses_it(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "direction reversed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Fill in the form.", "Fill out the form.", id="fill"),
        pytest.param("Users fill in the form online.", "Users fill out the form online.", id="mid"),
        pytest.param("Filled in forms are stored.", "Filled out forms are stored.", id="filled"),
        pytest.param(
            "Users filling in the form see a preview.",
            "Users filling out the form see a preview.",
            id="filling",
        ),
    ],
)
def test_a_verb_that_says_the_same_with_either_particle_is_no_reversal(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_another_verb_before_the_same_particle_is_no_reversal() -> None:
    found = judged("Users log in with SSO.", "Users sign in with SSO.")
    assert "direction reversed" not in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("3 out of 4 nodes must agree.", "3 in 4 nodes must agree.", id="out-of"),
        pytest.param("1 in 10 requests is retried.", "1 out of 10 requests is retried.", id="in"),
        pytest.param("Nine out of ten users agree.", "Nine in ten users agree.", id="in-words"),
    ],
)
def test_a_share_said_with_in_or_out_of_is_no_reversal(quote: str, passage: str) -> None:
    """ "3 out of 4" and "3 in 4" are one share: the word before "in" is a number, no verb."""
    assert level(quote, passage) == "harmless", judged(quote, passage)
