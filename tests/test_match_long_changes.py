"""A passage of hundreds of identifiers rewritten is judged with work that grows as the
passage does, not as its square: each word taken out is looked up among the words put in
(by its opposites, its negating prefix, the letters it sorts beside), where every pair
was tried, and a passage of 1,500 identifiers took tens of seconds. So is one whose
identifiers stand among common words said hundreds of times ("the", "a", "of"): the
longest run of words the two texts share was looked for by pairing each word with every
place the other text says it (difflib), and a 1,500-word passage took seconds; it is
found in one pass over each text now, and it is the same run (`reading/match/blocks.py`).

The work is counted in calls of functions, Python's and built-in ones (`sys.setprofile`),
which the same judging makes the same number of, on any machine: no clock is read."""

from __future__ import annotations

import random
import string
import sys
from difflib import SequenceMatcher
from types import FrameType
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimledger.reading.match import judge, normalize
from claimledger.reading.match.blocks import RunMatcher, word_opcodes
from claimledger.reading.match.lexicon import OPPOSITES, are_opposites, negates
from claimledger.reading.match.opposed import any_opposites, negating_pairs


def _identifiers(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)

    def part() -> str:
        return "".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(3, 7)))

    return [part() + part().capitalize() for _ in range(count)]


def _calls(quote: str, passage: str) -> int:
    """The function calls one judging of the two makes, its caches warm."""
    quote, passage = normalize(quote), normalize(passage, markup=False)
    judge(quote, passage)
    calls = 0

    def count(frame: FrameType, event: str, arg: Any) -> None:
        nonlocal calls
        calls += event in ("call", "c_call")

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


def _grown_among_common_words(count: int) -> tuple[str, str]:
    """Each identifier after one to eight of "the", "a" and "of", and grown by a letter."""
    rng = random.Random(4)
    runs = [
        [rng.choice(["the", "a", "of"]) for _ in range(rng.randint(1, 8))] for _ in range(count)
    ]
    names = _identifiers(count, seed=5)
    quote = [word for run, name in zip(runs, names, strict=True) for word in (*run, name)]
    passage = [word for run, name in zip(runs, names, strict=True) for word in (*run, name + "s")]
    return " ".join(quote), " ".join(passage)


@pytest.mark.parametrize(
    "passages",
    [_grown, _rewritten, _grown_among_common_words],
    ids=["grown", "rewritten", "grown among common words"],
)
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


_TOKENS = st.lists(st.sampled_from("abcde"), max_size=30)


@given(_TOKENS, _TOKENS, st.data())
def test_the_runs_found_are_difflibs(a: list[str], b: list[str], data: st.DataObject) -> None:
    alo, blo = data.draw(st.integers(0, len(a))), data.draw(st.integers(0, len(b)))
    ahi, bhi = data.draw(st.integers(alo, len(a))), data.draw(st.integers(blo, len(b)))
    difflibs, ours = SequenceMatcher(None, a, b, autojunk=False), RunMatcher(a, b)
    assert ours.find_longest_match(alo, ahi, blo, bhi) == difflibs.find_longest_match(
        alo, ahi, blo, bhi
    )
    assert ours.get_matching_blocks() == difflibs.get_matching_blocks()
    assert word_opcodes(a, b) == difflibs.get_opcodes()


_EDIT = st.tuples(st.booleans(), st.integers(0, 30), st.sampled_from("abcdef"))
_EDITS = st.lists(_EDIT, max_size=5)


@given(_TOKENS, _EDITS)
def test_the_runs_of_a_text_and_its_rewording_are_difflibs(
    a: list[str], edits: list[tuple[bool, int, str]]
) -> None:
    """Long runs shared, as a quote and its rewording share them."""
    b = list(a)
    for traded, at, word in edits:
        at %= len(b) + 1
        b[at : at + traded] = [word]  # put in, or traded for the word there
    assert word_opcodes(a, b) == SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
