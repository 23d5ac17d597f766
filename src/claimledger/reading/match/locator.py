"""Find a quote in a page's text and say how it stands: verified, drifted or missing.

Pure: strings in, frozen records out; no network, no disk, no clock.

How it decides, in order:

1. **verified** when the normalised quote occurs in the normalised page as one
   contiguous run on word boundaries (`exact` when only whitespace differs), however
   often it occurs: the count is reported, and the recorded neighbourhood picks which
   occurrence is the quote's (else the first). Never a gapped or interleaved match.
2. Otherwise the quote's successor is looked for **where it used to be**: the text
   recorded before and after it when it was last found is located on the page, and the
   sentences between those two anchors are the candidate. Rewording that keeps the
   place is the commonest drift, and a place that is now empty means the quote went.
   Where those neighbours changed too, the page as read (`previous`) is aligned with the
   page now sentence by sentence, and the run of sentences that replaced the quote's is
   its place. A successor only that alignment places is "may have changed", never more.
3. And **by its words**: sentences holding the quote's rarest lemmas are shortlisted
   (an index of the page's lemmas, so a long page with a small vocabulary still
   shortlists widely), grown within their block into passages of about the quote's
   length, and scored by how much of the quote's weighted vocabulary they keep and give
   back, and how alike the characters are.
4. A passage that replaced another sentence of the page as read, and is more like that
   sentence than like the quote, is that sentence's successor, never the quote's (a
   sibling setting reworded beside it).
5. The candidate at the quote's place wins when it is similar enough for a passage in
   that place (:data:`Thresholds.at_place`); a passage elsewhere must be more alike
   (:data:`Thresholds.elsewhere`). Then **drifted**, with the page's whole sentences
   as its current wording (never across a block the quote did not cross) and a word
   diff of the quote against its own span of them, whose meaning changes are named
   (see `claimledger.reading.match.diff`). Else **missing**, with the closest passage kept
   when there is one, and whether it contradicts the quote.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from rapidfuzz import fuzz

from claimledger.reading.match.candidate import Candidate, similarity
from claimledger.reading.match.diff import WORDING_CHANGED
from claimledger.reading.match.lexicon import TOKEN
from claimledger.reading.match.normalize import TextKind, normalize
from claimledger.reading.match.place import (
    COPIED_AT_LEAST,
    QuoteWords,
    Scope,
    at_place,
    ends_sentence,
    news_of,
    quote_ends,
    replaced_by,
    replaced_run,
    scope_of,
    spans_from,
    stood_beside,
    within_one_block,
)
from claimledger.reading.match.prepared import Context, PreparedText, prepare
from claimledger.reading.match.span import words_of_its_sentence
from claimledger.reading.match.verbatim import verified
from claimledger.reading.match.verdict import (
    DEFAULT_THRESHOLDS,
    FoundMissing,
    Match,
    Thresholds,
    known_by_place_only,
)
from claimledger.records import NEAR_MISS

_SEEDS = 24  # sentences holding the quote's rarest words, grown into candidate passages
_LIKE_SEEDS = 8  # and sentences whose words are most nearly the quote's, as many again


def locate(
    quote: str,
    page: str | PreparedText,
    *,
    context: Context | None = None,
    thresholds: Thresholds = DEFAULT_THRESHOLDS,
    previous: PreparedText | None = None,
    align: bool = True,
    last_found: str | None = None,
    was_missing: FoundMissing | None = None,
) -> Match:
    """Find ``quote`` in the page and classify it (see the module docstring).

    `context` is the neighbourhood recorded when the quote was last found; `previous` the
    page as it read then. A passage that was already on that page, beside the quote, is
    a sibling of it (the next setting, the neighbouring method's comment), never its
    successor. `align`: whether `page` and `previous` are the same stretch of the page,
    to be aligned sentence by sentence (not a section against the whole page).
    `last_found`: the quote's wording on `previous` when it had drifted already (its
    successor then), which stands for the quote there. `was_missing`: the quote was
    found missing on `previous` (by this matcher), when every passage there was weighed
    and set aside: only a passage holding a sentence that says more of the quote since
    (see `_weighed_then`) may be its successor now, and the closest passage shown
    then may be shown again (an edit elsewhere on the page changes neither).
    """
    prepared = page if isinstance(page, PreparedText) else prepare(page)
    forms = quote_forms(quote, prepared.kind)
    if not forms:
        return _missing()
    for needle in forms:
        places = prepared.occurrences(needle)
        if places:
            return verified(quote, places, prepared, context)
    aligned = previous if align else None
    read_as = _read_as(forms[0], previous, last_found)
    if read_as != forms[0]:
        still = _still_as_last_found(forms[0], read_as, prepared)
        if still is not None:
            return still
    found = _closest(
        forms[0],
        prepared,
        context,
        thresholds,
        scope=scope_of(quote, context),
        previous=previous,
        aligned=aligned,
        read_as=read_as,
        was_missing=was_missing,
    )
    if found.status != "missing" or context is None:
        return found
    wide = _page_wide(
        quote, forms[0], prepared, thresholds, previous, aligned, read_as, was_missing
    )
    return wide or found


def _still_as_last_found(needle: str, last_found: str, prepared: PreparedText) -> Match | None:
    """The quote as drifted as it was, when its wording as last found stands once on the
    page, as written: that sentence is its successor still, whatever changed around it
    (its neighbours rewritten, the page edited elsewhere)."""
    places = prepared.occurrences(last_found)
    if len(places) != 1:
        return None
    start, end = places[0]
    first, last = prepared.unit_at(start), prepared.unit_at(end - 1)
    score = similarity(QuoteWords.of(needle), prepared, first, last)
    return _drifted(Candidate(first, last, score, True, needle), prepared)


def _read_as(needle: str, previous: PreparedText | None, last_found: str | None) -> str:
    """What stood for the quote on the page as read: the quote, or, when it was not there
    (it had drifted already), its wording as last found there."""
    if previous is None or last_found is None or previous.occurrences(needle):
        return needle
    forms = quote_forms(last_found, previous.kind)
    return forms[0] if forms and previous.occurrences(forms[0]) else needle


def _page_wide(
    quote: str,
    form: str,
    prepared: PreparedText,
    thresholds: Thresholds,
    previous: PreparedText | None,
    aligned: PreparedText | None,
    read_as: str,
    was_missing: FoundMissing | None,
) -> Match | None:
    """The quote looked for page-wide, without its recorded neighbourhood: a neighbourhood
    that no longer matches (a page restructured) must only ever help, so the search runs
    as a first verify runs it, held to the same bar (`Thresholds.unplaced`, not the
    stricter `elsewhere`), and a successor it finds is not lost. What stood beside the
    quote on the page as read is still never its successor."""
    found = _closest(
        form,
        prepared,
        None,
        thresholds,
        scope=scope_of(quote, None),
        previous=previous,
        aligned=aligned,
        read_as=read_as,
        placed=False,
        was_missing=was_missing,
    )
    return found if found.status != "missing" else None


def quote_forms(quote: str, kind: TextKind) -> list[str]:
    """The quote with markup reduced to text, then as written (a page may show markup literally)."""
    forms = [normalize(quote, kind=kind, markup=True), normalize(quote, kind=kind, markup=False)]
    return [f for i, f in enumerate(forms) if f and f not in forms[:i]]


def _missing(closest: Candidate | None = None, prepared: PreparedText | None = None) -> Match:
    if closest is None or prepared is None:
        return Match("missing", None, 0.0, None, False, (), 0, None, None, None)
    start, end = closest.original_span(prepared)
    text = prepared.text[start:end]
    return Match(
        "missing",
        None,
        round(closest.score, 4),
        None,
        False,
        (),
        0,
        None,
        None,
        None,
        closest=text,
        closest_kinds=tuple(k for k in closest.judgement(prepared).kinds if k != WORDING_CHANGED),
    )


# --------------------------------------------------------------------------- candidates


def _by_words(quote: QuoteWords, prepared: PreparedText) -> list[tuple[int, int]]:
    """Spans around the sentences that hold the most of the quote's rare words, and around
    those whose words are most nearly the quote's own: on a long page of a small
    vocabulary every long sentence holds most of the quote's words, and only the second
    ranking finds the one sentence that is the quote reworded."""
    scores: dict[int, float] = {}
    for word in quote.lemmas:
        weight = prepared.weight(word)
        for unit in prepared.units_with(word):
            scores[unit] = scores.get(unit, 0.0) + weight
    by_rare = sorted(scores, key=lambda unit: (-scores[unit], unit))[:_SEEDS]
    wanted = sum(quote.lemmas.values())

    def alike(unit: int) -> float:
        """Dice on the words as counted, unweighted: a reworded sentence's new rare word
        must not push it below a long sentence of common ones."""
        held = Counter(prepared.lemmas(unit))
        shared = sum((held & quote.lemmas).values())
        return 2 * shared / (wanted + sum(held.values()))

    by_likeness = sorted(scores, key=lambda unit: (-alike(unit), unit))[:_LIKE_SEEDS]
    seeds = list(dict.fromkeys([*by_rare, *by_likeness]))
    return [span for seed in seeds for span in spans_from(seed, quote, prepared)]


def _candidates(
    spans: list[tuple[int, int]], quote: QuoteWords, prepared: PreparedText, at_place: bool
) -> list[Candidate]:
    return [
        Candidate(
            first,
            last,
            similarity(quote, prepared, first, last, at_place=at_place),
            at_place,
            quote.needle,
            said_before=quote.said_before,
        )
        for first, last in dict.fromkeys(spans)
    ]


CROSSING_COST = 0.1
"""A passage that runs across a block boundary (two paragraphs, two list items) must be
this much likelier than one inside a block: a quote seldom crosses one, and its current
wording never crosses one it did not."""


def _rank(
    candidate: Candidate, quote: QuoteWords, prepared: PreparedText, thresholds: Thresholds
) -> tuple[float, int, int]:
    """A passage where the quote used to be is preferred to a likelier one elsewhere (a
    page is edited where it stands far more often than a sentence moves), and a whole
    block when the quote filled one; then the shorter, then the earlier."""
    bonus = thresholds.place_bonus if candidate.at_place else 0.0
    whole = quote.whole(prepared, candidate.first)
    if whole is not None and whole == (candidate.first, candidate.last):
        bonus += thresholds.whole_bonus
    if prepared.block(candidate.first) != prepared.block(candidate.last):
        bonus -= CROSSING_COST
    return (round(candidate.score + bonus, 6), candidate.first - candidate.last, -candidate.first)


def candidates(
    needle: str,
    prepared: PreparedText,
    context: Context | None,
    scope: Scope = None,
    previous: PreparedText | None = None,
    aligned: PreparedText | None = None,
    read_as: str | None = None,
) -> tuple[QuoteWords, list[Candidate]]:
    """Every passage that could be the quote reworded: where it used to be (also as the
    sentences that replaced it on `aligned`, the page as read when it is the same stretch
    of the page), and where its words are; not one that stood beside the quote already on
    the page as it was read (`previous`, on which `read_as` stood for the quote: see
    `_read_as`)."""
    on_previous = read_as or needle
    fragment = context is not None and (
        not ends_sentence(context.before) or not quote_ends(needle, context.after)
    )
    said_before = words_of_its_sentence(context.before) if context is not None else None
    quote = QuoteWords.of(needle, scope=scope, fragment=fragment, said_before=said_before)
    place_spans, _emptied = at_place(quote, prepared, context)
    found = _candidates(place_spans, quote, prepared, True)
    seen = set(place_spans)
    words = [span for span in _by_words(quote, prepared) if span not in seen]
    found += _candidates(words, quote, prepared, False)
    if aligned is not None:
        found = _with_replaced_run(found, on_previous, quote, prepared, aligned, seen)
    if previous is not None:
        found = [c for c in found if not stood_beside(c.text(prepared), on_previous, previous)]
    if previous is not None and within_one_block(on_previous, previous):
        found = [c for c in found if prepared.block(c.first) == prepared.block(c.last)]
    return quote, found


def _with_replaced_run(
    found: list[Candidate],
    needle: str,
    quote: QuoteWords,
    prepared: PreparedText,
    previous: PreparedText,
    placed: set[tuple[int, int]],
) -> list[Candidate]:
    """The passages found, with the sentences that replaced the quote's counted as at its
    place (see `place.replaced_run`), unless its recorded neighbourhood placed it already.
    They are weighed as a passage elsewhere is (a quote cut from a sentence is not weighed
    against its likeliest part of theirs): whether one would pass anywhere else tells
    whether its place is all that makes it the quote's successor."""
    run = [span for span in replaced_run(needle, quote, prepared, previous) if span not in placed]
    if not run:
        return found
    elsewhere = [c for c in found if (c.first, c.last) not in run]
    scored = _candidates(run, quote, prepared, False)  # weighed as elsewhere: see above
    return elsewhere + [replace(c, at_place=True, aligned=True) for c in scored]


def decide(
    quote: QuoteWords,
    found: list[Candidate],
    prepared: PreparedText,
    thresholds: Thresholds,
    *,
    placed: bool = True,
) -> tuple[Candidate | None, Candidate | None]:
    """The successor (or None: the quote is gone), and the closest passage when gone.

    `placed`: whether the quote's earlier place was known (a recorded neighbourhood).
    """
    passing = _passing(found, thresholds, placed=placed)
    if passing:
        return max(passing, key=lambda c: _rank(c, quote, prepared, thresholds)), None
    return None, _nearest(found, thresholds)


def _nearest(found: list[Candidate], thresholds: Thresholds) -> Candidate | None:
    """The likeliest passage, when alike enough to be shown as the closest."""
    nearest = max(found, key=lambda c: c.score, default=None)
    return nearest if nearest is not None and nearest.score >= thresholds.closest else None


def _passing(found: list[Candidate], thresholds: Thresholds, *, placed: bool) -> list[Candidate]:
    """The passages alike enough to be the quote reworded, where they stand."""
    away = thresholds.elsewhere if placed else thresholds.unplaced
    return [c for c in found if c.score >= (thresholds.at_place if c.at_place else away)]


def _closest(
    needle: str,
    prepared: PreparedText,
    context: Context | None,
    thresholds: Thresholds,
    *,
    scope: Scope,
    previous: PreparedText | None = None,
    aligned: PreparedText | None = None,
    read_as: str | None = None,
    placed: bool | None = None,
    was_missing: FoundMissing | None = None,
) -> Match:
    """Locate the best passage for a quote that does not occur, then judge it.

    `placed`: whether a passage's place may count for it (default: when the quote's
    neighbourhood or the page as read is known); `aligned`, `read_as`: see `candidates`;
    `was_missing`: see `locate`.
    """
    if not TOKEN.search(needle):
        return _missing()
    quote, found = candidates(needle, prepared, context, scope, previous, aligned, read_as)
    weighed: list[Candidate] = []
    if was_missing is not None and aligned is not None:
        found, weighed = _weighed_then(quote, found, prepared, aligned)
    if placed is None:
        placed = context is not None or previous is not None
    successor, nearest = decide(quote, found, prepared, thresholds, placed=placed)
    if aligned is not None:
        found, (successor, nearest) = _setting_aside_siblings(
            quote,
            found,
            (successor, nearest),
            read_as or needle,
            prepared,
            aligned,
            thresholds,
            placed,
        )
    if successor is not None and _by_place_only(successor, thresholds, placed=placed):
        successor = _by_its_words(successor, found, quote, prepared, thresholds)
    if successor is not None:
        successor = _across_length_cuts(successor, prepared)
        twins = _twins(successor, found, prepared)
        if twins > 1 and not placed:
            return _drifted(successor, prepared, twins=twins, ambiguous=True)
        other = _runner_up(successor, found, quote, prepared, thresholds, placed=placed)
        drifted = _drifted(successor, prepared, twins=twins, runner_up=other)
        if _by_place_only(successor, thresholds, placed=placed):
            return known_by_place_only(drifted)
        return drifted
    if was_missing is not None and was_missing.closest is not None:
        shown = _shown_then(was_missing.closest, weighed, prepared)
        nearest = _nearest([*([nearest] if nearest else []), *shown], thresholds)
    return _missing(nearest, prepared)


def _shown_then(closest: str, weighed: list[Candidate], prepared: PreparedText) -> list[Candidate]:
    """The passage shown as the closest when the quote was found missing, as it stands
    now: as written then, else touched up since (a full stop, a plural)."""
    then = quote_forms(closest, prepared.kind)
    same = [c for c in weighed if c.text(prepared) in then]
    return same or [
        c
        for c in weighed
        if max(fuzz.ratio(c.text(prepared), form) for form in then) >= COPIED_AT_LEAST
    ]


def _weighed_then(
    quote: QuoteWords, found: list[Candidate], prepared: PreparedText, previous: PreparedText
) -> tuple[list[Candidate], list[Candidate]]:
    """The passages that are news of the quote since it was found missing, and those
    weighed then. News holds a run of sentences new since (`place.news_of`) that is, on
    its own, as alike to the quote as a near miss (not a word in common), and no other
    run that is as alike on its own (a sibling weighed then, beside the news: the news
    stands on its own as another passage). A table row put back is news by one new cell:
    a row's news is in one cell. Where the page as read cannot be aligned with the page
    now, nothing is set aside."""
    fresh = news_of(quote, prepared, previous)
    if fresh is None:
        return found, []

    def telling(run: tuple[int, int], at_place: bool) -> bool:
        return similarity(quote, prepared, *run, at_place=at_place) >= NEAR_MISS

    news: list[Candidate] = []
    weighed: list[Candidate] = []
    for c in found:
        runs = _runs(c, fresh)
        row = bool(runs[True]) and quote.scope == "row"
        told = any(telling(run, c.at_place) for run in runs[True]) and not any(
            telling(run, c.at_place) for run in runs[False]
        )
        (news if row or told else weighed).append(c)
    return news, weighed


def _runs(candidate: Candidate, fresh: set[int]) -> dict[bool, list[tuple[int, int]]]:
    """The passage's runs of sentences that are news of the quote (True) and of the others
    (False): those that stood on the page as read, and new ones that are no news."""
    runs: dict[bool, list[tuple[int, int]]] = {True: [], False: []}
    last: bool | None = None
    for unit in range(candidate.first, candidate.last + 1):
        kind = unit in fresh
        if kind == last:
            runs[kind][-1] = (runs[kind][-1][0], unit)
        else:
            runs[kind].append((unit, unit))
        last = kind
    return runs


ANOTHERS_MARGIN = 0.1
"""How much more alike to another sentence of the page as read a passage must be than to
the quote to be taken for that sentence's successor. Chosen on the corpora the matcher
was written on: 0.0001, 0.05, 0.1 and 0.15 put 890, 890, 891 and 890 of their 935
statuses right (889 without the rule)."""
_SIBLINGS_SET_ASIDE = 3  # passages set aside as other sentences' successors, at most


def _setting_aside_siblings(
    quote: QuoteWords,
    found: list[Candidate],
    decided: tuple[Candidate | None, Candidate | None],
    needle: str,
    prepared: PreparedText,
    previous: PreparedText,
    thresholds: Thresholds,
    placed: bool,
) -> tuple[list[Candidate], tuple[Candidate | None, Candidate | None]]:
    """The passages, and `decide`'s successor and closest passage, once a successor
    chosen that is another sentence's (see `_anothers_successor`) is set aside and the
    choice made again without it, up to `_SIBLINGS_SET_ASIDE` times (the last choice
    stands as made)."""
    for _ in range(_SIBLINGS_SET_ASIDE):
        chosen = decided[0]
        if chosen is None or not _anothers_successor(chosen, needle, prepared, previous):
            break
        span = (chosen.first, chosen.last)
        found = [c for c in found if (c.first, c.last) != span]
        decided = decide(quote, found, prepared, thresholds, placed=placed)
    return found, decided


def _anothers_successor(
    chosen: Candidate, needle: str, prepared: PreparedText, previous: PreparedText
) -> bool:
    """Is the passage the rewording of another sentence of the page as read, not of the
    quote? A sibling reworded with the quote ("success - ..." beside "failure - ...", the
    file variable beside the directory one) stays more like its own old wording than like
    the quote: the sentences it replaced (see `place.replaced_by`) tell whose it is. When
    nothing that stood for the quote (`needle`) is on the page as read, which of them was
    its own cannot be told, and nothing is set aside."""
    quoted = {
        unit
        for start, end in previous.occurrences(needle)
        for unit in range(previous.unit_at(start), previous.unit_at(end - 1) + 1)
    }
    if not quoted:
        return False
    others = [
        previous.unit_text(unit, unit)
        for unit in replaced_by(chosen.first, chosen.last, prepared, previous)
        if unit not in quoted
    ]
    return any(
        similarity(QuoteWords.of(other), prepared, chosen.first, chosen.last)
        > chosen.score + ANOTHERS_MARGIN
        for other in others
        if TOKEN.search(other)
    )


def _by_place_only(candidate: Candidate, thresholds: Thresholds, *, placed: bool) -> bool:
    """Is the passage the quote's successor only by standing where it stood: one of the
    sentences that replaced it, not alike enough to pass anywhere else?"""
    bar = thresholds.elsewhere if placed else thresholds.unplaced
    return candidate.aligned and candidate.score < bar


def _by_its_words(
    chosen: Candidate,
    found: list[Candidate],
    quote: QuoteWords,
    prepared: PreparedText,
    thresholds: Thresholds,
) -> Candidate:
    """A passage elsewhere that is more alike than the one chosen by its place alone, and
    would pass a first verify on its words (a section moved and reworded, an unrelated
    sentence now where the quote stood), else the one chosen."""
    likelier = [
        c
        for c in found
        if not c.aligned and c.score >= thresholds.unplaced and c.score > chosen.score
    ]
    return max(likelier, key=lambda c: _rank(c, quote, prepared, thresholds), default=chosen)


def _across_length_cuts(chosen: Candidate, prepared: PreparedText) -> Candidate:
    """An over-long sentence cut into pieces is still one sentence: where the quote's own
    words go on across a cut at either edge of the passage, the piece beyond is taken in,
    so that no word the page still has is called deleted."""
    wider = []
    if prepared.goes_on(chosen.last):
        wider.append(replace(chosen, last=chosen.last + 1))
    if chosen.first > 0 and prepared.goes_on(chosen.first - 1):
        wider.append(replace(chosen, first=chosen.first - 1))
    if not wider:
        return chosen
    best, changed = chosen, _words_changed(chosen, prepared)
    for candidate in wider:
        if _words_changed(candidate, prepared) < changed:
            first, last = min(best.first, candidate.first), max(best.last, candidate.last)
            best = replace(best, first=first, last=last)
    return best


def _words_changed(candidate: Candidate, prepared: PreparedText) -> int:
    """How many words, on both sides, the judged changes of a passage touch, as the
    matcher read them: the words shown ("<10", not "less than 10") count otherwise, and
    would make the choice of passage hang on how a sign was written."""
    return candidate.judgement(prepared).touched


CLOSE_CALL = 0.05
"""How near in rank another passage may come to the one chosen for the choice to be a close
call, shown with both. Chosen on the corpora the matcher was written on (at 0.05 it names
7 of their 51 wrong successors and 3 right ones); `bench_drift.py` reports it held out."""


def _runner_up(
    chosen: Candidate,
    found: list[Candidate],
    quote: QuoteWords,
    prepared: PreparedText,
    thresholds: Thresholds,
    *,
    placed: bool,
) -> Candidate | None:
    """Another passage, elsewhere and in other words, that ranks within `CLOSE_CALL` of the
    chosen one: the page holds two readings of the quote and the choice between them is
    a close call, which the reader should see rather than one confident answer."""
    ranked = sorted(
        _passing(found, thresholds, placed=placed),
        key=lambda c: _rank(c, quote, prepared, thresholds),
        reverse=True,
    )
    best = _rank(chosen, quote, prepared, thresholds)[0]
    words = chosen.text(prepared)
    for other in ranked:
        apart = other.last < chosen.first or other.first > chosen.last
        if apart and other.text(prepared) != words:
            close = best - _rank(other, quote, prepared, thresholds)[0] < CLOSE_CALL
            return other if close else None
    return None


def _twins(chosen: Candidate, found: list[Candidate], prepared: PreparedText) -> int:
    """How many places on the page hold the chosen passage's very words."""
    text = chosen.text(prepared)
    return max(1, len(prepared.occurrences(text))) if text else 1


def _drifted(
    candidate: Candidate,
    prepared: PreparedText,
    *,
    twins: int = 1,
    ambiguous: bool = False,
    runner_up: Candidate | None = None,
) -> Match:
    """The quote reworded: whole sentences and the judged changes. When the same reworded
    passage stands in several places and nothing recorded tells which is the quote's, it
    is `ambiguous` (the first is shown); on a close call the runner-up is `closest`."""
    start, end = candidate.original_span(prepared)
    judged = candidate.judgement(prepared)
    other = None
    if runner_up is not None:
        other_start, other_end = runner_up.original_span(prepared)
        other = prepared.text[other_start:other_end]
    return Match(
        "ambiguous" if ambiguous else "drifted",
        None,
        round(candidate.score, 4),
        prepared.text[start:end],
        judged.meaning_changed,
        judged.changes,
        twins if ambiguous else 0,
        prepared.context_at(start, end),
        start,
        end,
        change_kinds=judged.kinds,
        closest=other,
    )
