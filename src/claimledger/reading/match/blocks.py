"""The runs of words two texts share, as difflib finds them, in time that grows with the
texts and not with how often they repeat a word.

Pure. Every word diff of the matcher is difflib's (`SequenceMatcher`, no junk): the longest
run the two texts share, then the longest on either side of it, and so on. difflib finds
each longest run by pairing every word with every place the other text says it: on a long
passage that says "the", "a" and "of" hundreds of times that is quadratic and worse (a
3,000-word passage took 26 s to judge). Here the longest run is found by walking the
first text once through a suffix automaton of the second, built in one pass: the run
difflib's contract names (the longest; of those the first in the first text, then the
first in the second), so the runs, the opcodes and every verdict are difflib's own.

Each search still reads the whole stretch it searches, as difflib's recursion hands it
down: where every shared run is as long as the next (identifiers spaced evenly among
common words), the runs are taken one at a time from the left, and the work grows with
the square of the passage over the runs' length, far below difflib's but not linear.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass, field
from difflib import Match, SequenceMatcher

Opcode = tuple[str, int, int, int, int]
"""A difflib opcode: tag, first text's words [i1, i2), second text's words [j1, j2)."""


def word_opcodes(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Opcode]:
    """difflib's opcodes turning `a` into `b`, no word taken for junk."""
    return list(RunMatcher(a, b).get_opcodes())


def shared_runs(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[Match]:
    """difflib's matching blocks of `a` and `b` (the last one empty), no word taken for junk."""
    return RunMatcher(a, b).get_matching_blocks()


class RunMatcher(SequenceMatcher[Hashable]):
    """difflib's SequenceMatcher without junk, whose longest shared run is found in one
    pass over each text (difflib's own recursion around it is kept)."""

    def __init__(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> None:
        super().__init__(None, a, b, autojunk=False)
        self._texts = a, b  # what difflib holds as `a` and `b`, which its stubs leave out

    def find_longest_match(
        self, alo: int = 0, ahi: int | None = None, blo: int = 0, bhi: int | None = None
    ) -> Match:
        """The longest run `a[alo:ahi]` and `b[blo:bhi]` share; of those, the one that
        starts first in `a`, then first in `b` (difflib's contract); `(alo, blo, 0)`: none."""
        a, b = self._texts
        ahi = len(a) if ahi is None else ahi
        bhi = len(b) if bhi is None else bhi
        return _longest_shared(a, (alo, ahi), blo, _automaton(b, blo, bhi))


@dataclass
class _Automaton:
    """The suffix automaton of a run of words: each run of them is one path from state 0.

    A state stands for the runs that end at the same places: `length[s]` words at most,
    the shortest one more than its `link`'s longest; `first[s]` the first place they end.
    """

    length: list[int] = field(default_factory=lambda: [0])
    link: list[int] = field(default_factory=lambda: [-1])
    moves: list[dict[Hashable, int]] = field(default_factory=lambda: [{}])
    first: list[int] = field(default_factory=lambda: [-1])

    def state(self, length: int, link: int, moves: dict[Hashable, int], first: int) -> int:
        """A new state, by number."""
        self.length.append(length)
        self.link.append(link)
        self.moves.append(moves)
        self.first.append(first)
        return len(self.length) - 1


def _automaton(words: Sequence[Hashable], start: int, end: int) -> _Automaton:
    """The suffix automaton of `words[start:end]`, each state's `first` a place in `words`."""
    automaton, last = _Automaton(), 0
    for at in range(start, end):
        last = _extended(automaton, last, words[at], at)
    return automaton


def _extended(automaton: _Automaton, last: int, word: Hashable, at: int) -> int:
    """Add `word`, said at `at`, to the automaton whose whole run ends in state `last`;
    the state of the longer whole run (the standard online construction)."""
    length, link, moves = automaton.length, automaton.link, automaton.moves
    new = automaton.state(length[last] + 1, 0, {}, at)
    state = last
    while state != -1 and word not in moves[state]:
        moves[state][word] = new
        state = link[state]
    if state == -1:
        return new
    after = moves[state][word]
    if length[state] + 1 == length[after]:
        link[new] = after
        return new
    clone = automaton.state(
        length[state] + 1, link[after], dict(moves[after]), automaton.first[after]
    )
    while state != -1 and moves[state].get(word) == after:
        moves[state][word] = clone
        state = link[state]
    link[after] = link[new] = clone
    return new


def _longest_shared(
    a: Sequence[Hashable], bounds: tuple[int, int], blo: int, automaton: _Automaton
) -> Match:
    """Walk `a[alo:ahi]` (`bounds`) through the automaton of the other text's words from
    `blo` on, keeping at each word the longest run ending there that the other text says:
    the first longest of them, placed where the other text first says it."""
    alo, ahi = bounds
    length, link, moves, first = automaton.length, automaton.link, automaton.moves, automaton.first
    best = Match(alo, blo, 0)
    state = size = 0
    for at in range(alo, ahi):
        word = a[at]
        while state and word not in moves[state]:
            state = link[state]
            size = length[state]
        if word in moves[state]:
            state, size = moves[state][word], size + 1
        else:
            state = size = 0
        if size > best.size:
            best = Match(at - size + 1, first[state] - size + 1, size)
    return best
