"""Properties of normalisation and matching, over generated pages and quotes."""

from __future__ import annotations

import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from claimledger.reading.match import judge, locate, normalize
from claimledger.reading.match.lexicon import NEGATIONS, STOPWORDS, UNITS
from claimledger.reading.match.normalize import (
    TextKind,
    normalize_page,
    original_end,
    original_span,
)

# Characters the normaliser treats specially, mixed into arbitrary text.
SPECIAL = [
    *" \t\n\r\u00a0\u2003\u202f\u00ad\u200b\u200d\ufeff\u2018\u2019\u201c\u201d\u2013\u2014\u2212",
    *"\u00b2\ufb01*_`[]()<>|&;#/~!^\"'-.",
    *["&amp;", "&lt;", "&#8217;", "**", "<b>", "</b>", "<sup>", "](http://x)", "e\u0301", "\u0130"],
]

WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzABCDEFGHIJ0123456789", min_size=3, max_size=9)
SEPARATOR = st.sampled_from([" ", " ", " ", "  ", "\n", "\u00a0", " \u200b", "\t", "\n\n "])
PLAIN_DECORATIONS = ["{}", "{}", "{}", "{},", "{}.", "({})"]
UNICODE_DECORATIONS = ["\u201c{}\u201d", "\u2018{}\u2019", "{}\u2014", "{}\u00ae"]
DECORATION = st.sampled_from([*PLAIN_DECORATIONS, *UNICODE_DECORATIONS])


ONE_SENTENCE = st.sampled_from(
    [d for d in [*PLAIN_DECORATIONS, *UNICODE_DECORATIONS] if "." not in d]
)
INLINE_SEPARATOR = st.sampled_from([" ", " ", "  ", "\u00a0", " \u200b", "\t"])


@st.composite
def pages(
    draw: st.DrawFn,
    separators: st.SearchStrategy[str] = SEPARATOR,
    decorations: st.SearchStrategy[str] = DECORATION,
) -> tuple[str, list[tuple[int, int]]]:
    """A page of distinct words, and where each word sits in it."""
    words = draw(st.lists(WORD, min_size=6, max_size=80, unique_by=str.lower))
    parts: list[str] = []
    spans: list[tuple[int, int]] = []
    length = 0
    for i, word in enumerate(words):
        if i:
            separator = draw(separators)
            parts.append(separator)
            length += len(separator)
        decorated = draw(decorations).format(word)
        parts.append(decorated)
        spans.append((length, length + len(decorated)))
        length += len(decorated)
    return "".join(parts), spans


@st.composite
def passages(
    draw: st.DrawFn,
    separators: st.SearchStrategy[str] = SEPARATOR,
    decorations: st.SearchStrategy[str] = DECORATION,
) -> tuple[str, str, list[tuple[int, int]]]:
    """A page and a passage of five or more whole words cut from it."""
    page, spans = draw(pages(separators, decorations))
    first = draw(st.integers(0, len(spans) - 5))
    last = draw(st.integers(first + 4, len(spans) - 1))
    return page, page[spans[first][0] : spans[last][1]], spans[first : last + 1]


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=40).map("".join))
def test_normalize_is_idempotent(text: str) -> None:
    once = normalize(text)
    assert normalize(once) == once


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.one_of(st.sampled_from(SPECIAL), st.characters()), max_size=40).map("".join),
    st.sampled_from(["text", "markdown", "code"]),
    st.data(),
)
def test_where_a_normalised_run_ends_in_the_page_is_where_its_span_ends(
    text: str, kind: TextKind, data: st.DataObject
) -> None:
    """`original_end`, which the search for a table cell's edge asks at each step, says
    what `original_span` says of a run's end, wherever the run starts."""
    normalized, maps = normalize_page(text, kind)
    end = data.draw(st.integers(0, len(normalized)))
    start = data.draw(st.integers(0, end))
    assert original_end(maps, end) == original_span(maps, start, end)[1]


@settings(max_examples=150, deadline=None)
@given(passages())
def test_a_passage_cut_from_a_page_is_verified(
    case: tuple[str, str, list[tuple[int, int]]],
) -> None:
    page, passage, _ = case

    result = locate(passage, page)

    assert result.status == "verified", result
    assert result.current is not None
    assert normalize(result.current) == normalize(passage)
    if passage.isascii():  # only layout whitespace can differ
        assert result.match == "exact"


def _with_not(case: tuple[str, str, list[tuple[int, int]]], data: st.DataObject) -> str:
    _page, passage, spans = case
    offset = spans[0][0]
    after_word = data.draw(st.sampled_from(spans[:-1]))[1] - offset
    return passage[:after_word] + " not" + passage[after_word:]


@settings(max_examples=150, deadline=None)
@given(passages(), st.data())
def test_inserting_not_is_never_verified(
    case: tuple[str, str, list[tuple[int, int]]], data: st.DataObject
) -> None:
    page, passage, _ = case
    negated = _with_not(case, data)

    assert locate(negated, page, context=locate(passage, page).context).status != "verified"
    assert locate(negated, page).status != "verified"


@settings(max_examples=150, deadline=None)
@given(passages(INLINE_SEPARATOR, ONE_SENTENCE), st.data())
def test_inserting_not_into_a_sentence_is_a_meaning_change(
    case: tuple[str, str, list[tuple[int, int]]], data: st.DataObject
) -> None:
    page, passage, _ = case
    # A sentence with a negation of its own would see the inserted one as moved: see
    # test_match_meaning for a negation moved on to other words.
    assume(not NEGATIONS.intersection(re.findall(r"\w+", page.lower())))
    negated = _with_not(case, data)

    recorded = locate(passage, page).context  # as a refresh records the quote's place
    result = locate(negated, page, context=recorded)

    assert result.status == "drifted", result
    assert result.meaning_changed
    assert any("not" in c.quote.split() and c.meaningful for c in result.changed_words)


FRESH = "Zebrafinch"  # ten letters: never one of the (at most nine letter) page words


@settings(max_examples=150, deadline=None)
@given(passages(INLINE_SEPARATOR, ONE_SENTENCE), st.data())  # one sentence of one block
def test_a_fragment_with_one_word_reworded_is_judged_on_its_own_words(
    case: tuple[str, str, list[tuple[int, int]]], data: st.DataObject
) -> None:
    """Whatever the rest of the page says (digits, quantifiers), only the changed word counts."""
    page, passage, spans = case
    offset = spans[0][0]
    plain = [
        k
        for k, (start, end) in enumerate(spans)
        if 0 < k < len(spans) - 1  # an interior word: the passage found surely holds its place
        and not any(c.isdigit() for c in page[start:end])
        and set(judge(normalize(page[start:end]), FRESH).kinds) <= {"name changed"}
        # a unit after a figure ("10 seconds") is part of the number: replacing it changes one
        and re.sub(r"\W", "", normalize(page[start:end])).lower() not in UNITS
    ]
    words = re.findall(r"\w+", passage.lower())
    # A sentence of stopwords alone is trimmed off the passage found: keep to content words.
    assume(len(spans) >= 6 and plain and not STOPWORDS.intersection(words))
    k = data.draw(st.sampled_from(plain))
    start, end = spans[k][0] - offset, spans[k][1] - offset
    word = re.search(r"\w+", passage[start:end])
    assert word is not None
    reworded = passage[: start + word.start()] + FRESH + passage[start + word.end() :]

    recorded = locate(passage, page).context  # as a refresh records the quote's place
    result = locate(reworded, page, context=recorded)

    assert result.status == "drifted", result
    assert [(c.op, c.quote, c.page) for c in result.changed_words] == [
        ("replace", FRESH, word.group())
    ]
    # Only the changed word is judged: its own kind (a name replaced), never a number or a
    # quantifier from the rest of the page.
    assert set(result.change_kinds) <= set(judge(FRESH, word.group()).kinds)
