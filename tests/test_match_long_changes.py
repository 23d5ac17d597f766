"""A passage of hundreds of identifiers rewritten is judged with work that grows as the
passage does, not as its square: each word taken out is looked up among the words put in
(by its opposites, its negating prefix, the letters it sorts beside), where every pair
was tried, and a passage of 1,500 identifiers took tens of seconds.

The work is counted in calls of Python functions (`sys.setprofile`), which the same
judging makes the same number of, on any machine: no clock is read."""

from __future__ import annotations

import random
import string
import sys
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimledger.reading.match import judge, normalize
from claimledger.reading.match.lexicon import OPPOSITES, are_opposites, negates
from claimledger.reading.match.opposed import any_opposites, negating_pairs


def _identifiers(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)

    def part() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 7)))

    return [part() + part().capitalize() for _ in range(count)]


def _calls(quote: str, passage: str) -> int:
    """The Python function calls one judging of the two makes, its caches warm."""
    quote, passage = normalize(quote), normalize(passage, markup=False)
    judge(quote, passage)
    calls = 0

    def count(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        calls += event == "call"

    sys.setprofile(count)
    try:
        judge(quote, passage)
    finally:
        sys.setprofile(None)
    return calls


def _grown(count: int) -> tuple[str, str]:
    names = _identifiers(count, seed=1)
    return " ".join(names), " ".join(name + "s" for name in names)


def _rewritten(count: int) -> tuple[str, str]:
    return " ".join(_identifiers(count, seed=2)), " ".join(_identifiers(count, seed=3))


@pytest.mark.parametrize("passages", [_grown, _rewritten], ids=["grown", "rewritten"])
def test_judging_twice_the_identifiers_takes_about_twice_the_work(passages: Any) -> None:
    small, large = _calls(*passages(100)), _calls(*passages(200))
    assert large < 2.5 * small, (small, large)


_WORDS = sorted({word for pair in OPPOSITES for word in pair})
_PREFIXED = ["unable", "able", "nonzero", "zero", "inactive", "active", "disallow", "allow"]
_SOME_WORDS = st.lists(
    st.sampled_from([*_WORDS, *_PREFIXED, "Lower", "UPPER", "halves", "doubles", "cache"]),
    max_size=8,
)


@given(_SOME_WORDS, _SOME_WORDS)
def test_opposites_looked_up_are_those_every_pair_finds(was: list[str], now: list[str]) -> None:
    assert any_opposites(was, now) == any(are_opposites(a, b) for a in was for b in now)


@given(_SOME_WORDS, _SOME_WORDS)
def test_negating_pairs_looked_up_are_those_every_pair_finds(
    was: list[str], now: list[str]
) -> None:
    every_pair = sorted((a, b) for a in was for b in now if negates(a, b))
    assert sorted(negating_pairs(was, now)) == every_pair
