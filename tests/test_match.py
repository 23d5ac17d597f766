"""Extract + match over the YAML case table, plus focused tests of the matcher's promises."""

from __future__ import annotations

import bisect
import random
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.meanings import REWRITTEN_IN_PLACE, STRONG_KINDS
from claimledger.reading import match as match_module
from claimledger.reading.extract import extract_text, text_kind
from claimledger.reading.match import (
    CONTEXT_CHARS,
    Context,
    FoundMissing,
    Match,
    PreparedText,
    TextKind,
    WordChange,
    judge,
    locate,
    normalize,
    prepare,
)
from claimledger.reading.match.diff import WORDING_CHANGED
from claimledger.reading.match.place import REPLACED_RUN_MOST
from claimledger.reading.match.prepared import ALIGNED_MOST

CASES_FILE = Path(__file__).parent / "data" / "match_cases.yaml"
CASES: list[dict[str, Any]] = yaml.safe_load(CASES_FILE.read_text(encoding="utf-8"))

GATE = (
    "While a storage operation is executing, no events shall be delivered to a Durable Object "
    "except for storage completion events."
)


def word_diff(quote: str, passage: str) -> tuple[WordChange, ...]:
    return judge(normalize(quote), normalize(passage, markup=False)).changes


def kinds(quote: str, passage: str) -> tuple[str, ...]:
    return judge(normalize(quote), normalize(passage, markup=False)).kinds


def strong_kinds(quote: str, passage: str) -> tuple[str, ...]:
    """The kinds that say the meaning changed (not only that it may have)."""
    return tuple(kind for kind in kinds(quote, passage) if kind in STRONG_KINDS)


def _page_of(case: dict[str, Any]) -> PreparedText:
    content_type = case.get("content_type", "text/html")
    text = extract_text(case["page"], content_type, select=case.get("select"))
    return prepare(text, kind=text_kind(content_type, case.get("path", "")))


@pytest.mark.parametrize("case", CASES, ids=[case["name"] for case in CASES])
def test_case(case: dict[str, Any]) -> None:
    page = _page_of(case)
    context = Context(**case["context"]) if "context" in case else None

    result = locate(case["quote"], page, context=context)

    assert result.status == case["status"], result
    for field in ("match", "meaning_changed", "current", "occurrences"):
        if field in case:
            assert getattr(result, field) == case[field], (field, result)
    if "after_contains" in case:
        assert result.context is not None
        assert case["after_contains"] in result.context.after
    # Invariants every result keeps, whatever the case.
    if result.current is not None:
        assert result.start is not None
        assert page.text[result.start : result.end] == result.current
    assert (result.match is not None) == (result.status == "verified")
    strong = any(c.meaningful and c.kind in STRONG_KINDS for c in result.changed_words)
    assert result.meaning_changed == (strong or bool(set(result.change_kinds) & STRONG_KINDS))


def test_case_table_is_large_and_covers_every_status() -> None:
    names = [case["name"] for case in CASES]
    assert len(names) >= 80
    assert len(set(names)) == len(names)
    assert {case["status"] for case in CASES} == {"verified", "drifted", "missing", "ambiguous"}


def test_a_missing_quote_keeps_the_closest_passage_and_what_it_contradicts() -> None:
    page = "Intro. Storage writes are durable once the call returns. Outro about other things."
    result = locate("Storage writes are never durable once the call returns, even later.", page)

    if result.status == "missing":
        assert result.closest is not None
    else:
        assert result.status == "drifted"
    gone = locate("Billing is computed per request by the edge router.", page)
    assert (gone.status, gone.current) == ("missing", None)


def test_short_quotes_are_searched_like_any_other() -> None:
    page = "Intro.\nComparing Bolt to LMDB\nBolt was originally a port of LMDB."
    result = locate("Comparing Bolt vs LMDB", page)

    assert (result.status, result.current) == ("drifted", "Comparing Bolt to LMDB")


# --- verified ---------------------------------------------------------------


def test_verified_current_is_the_pages_own_characters() -> None:
    page = "Intro.\nWhile a storage operation is executing, no events shall be delivered to a "
    page += "Durable\u00a0Object except for \u201cstorage\u201d comple\u00adtion events. Outro."
    quote = GATE.replace("storage completion", '"storage" completion')

    result = locate(quote, page)

    assert result.status == "verified"
    assert result.match == "normalized"
    assert result.current is not None
    assert "Durable\u00a0Object" in result.current
    assert "\u201cstorage\u201d comple\u00adtion events." in result.current
    assert result.current.endswith("events.")


def test_context_keeps_the_text_on_each_side_cut_at_a_word() -> None:
    before = "word " * 60 + "Intro sentence here. "
    after = " Then the next sentence follows." + " more" * 60
    result = locate(GATE, before + GATE + after)

    assert result.context is not None
    assert before.endswith(result.context.before) and after.startswith(result.context.after)
    assert CONTEXT_CHARS - 6 <= len(result.context.before) <= CONTEXT_CHARS
    assert CONTEXT_CHARS - 6 <= len(result.context.after) <= CONTEXT_CHARS
    assert result.context.before.startswith("word") and result.context.after.endswith("more")


def test_word_boundaries_are_respected() -> None:
    page = "The scheduler is unable to retry failed steps after the instance restarts."
    result = locate("able to retry failed steps after the instance restarts.", page)

    assert result.status == "drifted"
    assert result.meaning_changed


def test_prepared_page_gives_the_same_answers_as_a_string() -> None:
    page = "Intro. " + GATE + " Outro about output gates and held back messages."
    prepared = prepare(page)
    quotes = [
        GATE,
        GATE.replace("no events", "events"),
        "Output gates are unrelated to this sentence.",
    ]

    assert [locate(q, prepared) for q in quotes] == [locate(q, page) for q in quotes]


def test_gapped_match_never_verifies() -> None:
    page = "Requests are handled by that same instance, mostly. Other requests are sent elsewhere."
    quote = "Requests are handled by that same instance. Other requests are sent elsewhere."

    assert locate(quote, page).status == "drifted"


# --- drifted: the word diff -------------------------------------------------


def test_word_diff_names_the_changed_words_on_both_sides() -> None:
    changes = word_diff(
        "there is a 30 second timeout applied", "there is a 60 second timeout applied"
    )

    assert [(c.op, c.quote, c.page, c.meaningful) for c in changes] == [
        ("replace", "30", "60", True)
    ]


def test_word_diff_insert_and_delete() -> None:
    inserted = word_diff("requests are handled by it", "requests are not handled by it")
    deleted = word_diff("changes are broadcast to clients", "changes broadcast to clients")

    assert [(c.op, c.quote, c.page, c.meaningful) for c in inserted] == [
        ("insert", "", "not", True)
    ]
    assert [(c.op, c.quote, c.page, c.meaningful) for c in deleted] == [
        ("delete", "are", "", False)
    ]


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("reads are strongly consistent", "reads are eventually consistent"),
        ("messages are delivered at-least-once", "messages are delivered exactly-once"),
        ("runs in at most one place", "runs in at least one place"),
        ("stores up to 10 GB of data", "stores 10 GB of data"),
        ("the callback must complete", "the callback should complete"),
        ("retries won't repeat the step", "retries will repeat the step"),
        ("keeps 10% of logs", "keeps 20% of logs"),
        ("a 30 s timeout applies", "a 30 ms timeout applies"),
        ("it is synchronous here", "it is asynchronous here"),
        ("updates every client", "updates some clients"),
    ],
)
def test_meaning_words_are_meaningful(quote: str, passage: str) -> None:
    assert any(change.meaningful for change in word_diff(quote, passage))


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Must be set before start", "must be set before start"),
        ("if it times out, the object will be reset", "the object will be reset if it times out"),
        ("updates every client", "updates each client"),
    ],
)
def test_rewording_and_moves_are_not_meaningful(quote: str, passage: str) -> None:
    assert not any(change.meaningful for change in word_diff(quote, passage))


def test_a_moved_negation_that_changes_scope_is_meaningful() -> None:
    changes = word_diff("A is not B, and C is D", "A is B, and C is not D")

    assert any(change.meaningful for change in changes)


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        ("the timeout is 30 seconds", "the timeout is 60 seconds", "number changed"),
        ("writes are not retried", "writes are retried", "negation removed"),
        ("the callback must complete", "the callback may complete", "modal weakened"),
        ("it always retries the step", "it retries the step", "degree changed"),
        ("the step is aborted on failure", "the step is suspended on failure", "effect changed"),
        ("copies data from old to new", "copies data from new to old", "words swapped"),
        (
            "checked by etcdctl snapshot restore",
            "checked by etcdutl snapshot restore",
            "name changed",
        ),
        ("stores JSON documents", "stores YAML documents", "name changed"),
        ("retries are enabled by default", "retries are forced to be enabled", "default changed"),
        (
            "supports direct writes and append writes for speed",
            "supports direct writes for speed",
            "list changed",
        ),
        ("Writes are durable.", "Writes are durable, unless the disk fails.", "qualifier added"),
        ("every key is watched", "some keys are watched", "quantifier changed"),
    ],
)
def test_a_meaning_change_is_named_by_its_kind(quote: str, passage: str, kind: str) -> None:
    assert kind in kinds(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("the result can be cached", "the result may be cached"),
        ("the message will not be written", "the message won't be written"),
        ("a value of 2 means the message is kept", "a value of two means the message is kept"),
        ("its operation is guarenteed to work", "its operation is guaranteed to work"),
        ("Prev_Kv - when set, returns it", "prev_kv - when set, returns it"),
        (
            "There is built-in support for pickle, JSON and YAML",
            "There is built-in support for JSON, pickle and YAML",
        ),
        ("a retry is not unusual here", "a retry is usual here"),
    ],
)
def test_harmless_rewordings_name_no_kind(quote: str, passage: str) -> None:
    assert kinds(quote, passage) == ()


# --- repeated text and context ----------------------------------------------


def test_verbatim_text_is_verified_however_often_it_occurs() -> None:
    page = "Note. " + GATE + " End.\nNote. " + GATE + " End."
    result = locate(GATE, page, context=Context("Note. ", " End."))

    assert (result.status, result.occurrences) == ("verified", 2)


class _CountedSearches(str):
    """A page's searched text that counts how often it is searched: the work a quote costs,
    told without a clock."""

    searches = 0

    def find(self, *args: object) -> int:
        type(self).searches += 1
        return super().find(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("page", "quote", "found"),
    [
        ("Intro.\n\n" + "x" * 200_000 + "\n\nEnd.", "x" * 1_000, 0),
        ("Intro.\n\n" + "a b " * 50_000 + "\n\nEnd.", ("a b " * 250).strip(), 200),
    ],
    ids=["inside-one-long-word", "overlapping-itself"],
)
def test_a_quote_is_searched_for_once_per_place_it_could_be(
    page: str, quote: str, found: int
) -> None:
    """A long quote found again one character on (inside a run of one letter, or a page of
    its own words over and over) was searched for again at every character: a quote of
    10,000 characters on a line of 5 MB took seven minutes. It is searched for once past
    each place it could stand (never overlapping the last), and its places are the same."""
    prepared = prepare(page)
    prepared._flat = _CountedSearches(prepared.flat)
    _CountedSearches.searches = 0

    places = prepared.occurrences(quote)

    assert len(places) == found
    assert _CountedSearches.searches <= found + 3


class _CountedWork(str):
    """A page's searched text that counts the characters its searches weigh: a search
    for the needle costs at least the needle's length, a check of a tail its length."""

    work = 0

    def find(self, *args: object) -> int:
        type(self).work += len(str(args[0]))
        return super().find(*args)  # type: ignore[arg-type]

    def startswith(self, *args: object) -> bool:
        type(self).work += len(str(args[0]))
        return super().startswith(*args)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    "quote",
    [("a " + "ba " * 2_000).strip(), ("ba " * 2_000 + "b").strip()],
    ids=["starting-inside-a-word", "ending-inside-a-word"],
)
def test_a_quote_found_inside_the_pages_words_costs_the_page_once(quote: str) -> None:
    """A quote whose words start or end inside the page's words over and over ("a ba ba"
    on "ba ba ba") was found again one word on, refused there, and searched for again,
    at its own length each word: a quote of a few thousand words cost 80 s on a page of
    5 MB. A place overlapping the last one is told from that one, by a step's check."""
    page = "Intro.\n\n" + ("ba " * 20_000).strip() + "\n\nEnd."
    prepared = prepare(page)
    prepared._flat = _CountedWork(prepared.flat)
    _CountedWork.work = 0

    places = prepared.occurrences(quote)

    assert places == []
    assert _CountedWork.work <= 2 * len(page)


def test_context_picks_the_second_occurrence() -> None:
    first = "Input gates. " + GATE + " Output gates come next."
    second = "blockConcurrencyWhile. " + GATE + " The callback has a timeout."
    page = first + "\n" + second

    result = locate(GATE, page, context=Context("blockConcurrencyWhile. ", " The callback"))

    assert result.status == "verified"
    assert result.start == page.index(second) + len("blockConcurrencyWhile. ")


@pytest.mark.parametrize("page", ["| |", "\n", " \t \n "], ids=["empty-cells", "newline", "blanks"])
@pytest.mark.parametrize(
    ("quote", "was"),
    [
        (GATE, "Intro here.\n\n" + GATE + "\n\nUse cases follow."),
        ("B c.", "a. B c. D e."),  # one word before the quote, two after it
    ],
    ids=["anchored-before", "anchored-after"],
)
def test_a_page_of_no_words_holds_no_place_for_a_recorded_quote(
    quote: str, was: str, page: str
) -> None:
    """A library caller may hand over any text: a page that holds no sentence has no
    place where the quote stood, and the quote is missing from it."""
    context = locate(quote, was).context

    result = locate(quote, page, context=context, previous=prepare(was))

    assert (result.status, result.closest) == ("missing", None)


def test_a_page_of_thousands_of_short_capitalised_lines_is_read_like_any_other() -> None:
    """Each such line might be a heading; a heading is told from a list's items by its
    neighbours, two on each side, never by walking the whole run for every line (a page
    of 3,000 of them took 9 s so, and the time grew with the square of their number)."""
    words = ["Alpha", "Beta", "Cluster", "Nodes", "Storage", "Engine", "Commit", "Index"]
    lines = [words[n % len(words)] for n in range(3000)]
    reworded = "Cluster nodes replicate every write to five replicas."
    page = "\n".join([*lines[:1500], "Intro.", reworded, *lines[1500:]])

    result = locate("Cluster nodes replicate every write to three replicas.", page)

    assert (result.status, result.current, result.meaning_changed) == ("drifted", reworded, True)


def test_a_markdown_line_of_thousands_of_unclosed_markers_is_read_like_any_other() -> None:
    """Inline markup spans at most 1,000 characters of a line (an image's address 2,000):
    an opener with no closer is not looked for to the end of the line again from every
    opener (a line of 50,000 characters of them took 3.5 s, of 200,000 some 45 s)."""
    markers = ["**", "`", "*", "_", "~~", "[", "![a](b "]
    noise = " ".join(f"{markers[n % 7]}word{n % 5}" for n in range(8000))
    quote = "Cluster nodes replicate every write to three replicas."
    page = prepare(f"{noise}\n\n{quote}\n\n{noise}", kind="markdown")

    result = locate(quote, page)

    assert result.status == "verified"


def test_words_struck_out_on_a_markdown_page_are_not_its_words() -> None:
    """`~~...~~` strikes words out, as a rendered page's `<del>` does: a quote found only
    there is not verified, and the sentence a struck "not" leaves is the page's."""
    page = prepare(
        "Intro.\n\n~~Deleted objects can be restored within 14 days.~~\n\n"
        "Writes are ~~not~~ acknowledged before they are durable.\n",
        kind="markdown",
    )

    assert locate("Deleted objects can be restored within 14 days.", page).status != "verified"
    now = locate("Writes are acknowledged before they are durable.", page)
    assert (now.status, now.meaning_changed) == ("verified", False)


@pytest.mark.parametrize(
    "struck",
    [
        "<del>Deleted objects can be restored within 14 days.</del>",
        "<s>Deleted objects can be restored\nwithin 14 days.</s>",
        '<strike class="old">Deleted objects can be restored within 14 days.</strike>',
    ],
)
def test_words_struck_out_by_html_on_a_markdown_page_are_not_its_words(struck: str) -> None:
    """GitHub renders a markdown file's own `<del>`, `<s>` and `<strike>` as HTML: a quote
    found only there is not verified."""
    page = prepare(f"Intro.\n\n{struck}\n\nRestores take ~5 to ~10 minutes.\n", kind="markdown")

    assert locate("Deleted objects can be restored within 14 days.", page).status != "verified"
    assert locate("Restores take ~5 to ~10 minutes.", page).status == "verified"


@pytest.mark.parametrize(
    "shown",
    [
        "Wait ~5 minutes (or ~10 minutes~) then retry.",
        "The build takes ~5 minutes. To undo, run `git reset HEAD~`.",
        "Use `<!--` to open a comment and `-->` to close it.",
        "Expand `~/bin` and `foo~` backups are ignored.",
        "Write `~~old~~` for struck words.",
    ],
)
def test_tildes_and_comment_marks_shown_on_a_markdown_page_are_its_words(shown: str) -> None:
    """A tilde for "about" (`~5`) and markup shown as code are words a reader sees: one
    tilde strikes nothing, and a code span's `<!--`, `~` or `~~` is written as it is
    (stripped of its backticks only after what is struck out was read, they were taken
    for markup and the words around them dropped)."""
    page = prepare(f"Intro.\n\n{shown}\n", kind="markdown")

    assert locate(shown, page).status == "verified"
    assert re.findall(r"\w+", page.normalized) == ["Intro", *re.findall(r"\w+", shown)]


def test_markup_in_a_fenced_code_block_of_a_markdown_page_is_its_words() -> None:
    """A comment or a struck word inside a fenced block is code, shown as written."""
    page = prepare(
        "Add this:\n\n```html\n<!-- keep: build id 42 -->\n~~~\n<del>x</del>\n```\n",
        kind="markdown",
    )

    assert locate("<!-- keep: build id 42 -->", page).status == "verified"


def test_tildes_inside_words_on_a_markdown_page_strike_nothing_out() -> None:
    """`HEAD~1` and `PROGRA~1` hold a tilde in a word, no strike: the words between two
    of them are the page's."""
    page = prepare("Compare HEAD~1 with HEAD~2, under C:\\PROGRA~1\\TOOLS~1.\n", kind="markdown")

    assert locate("Compare HEAD~1 with", page).status == "verified"
    assert locate("under C:\\PROGRA~1\\TOOLS~1.", page).status == "verified"


def test_a_tag_striking_words_out_in_markdown_ends_with_its_paragraph() -> None:
    """A `<del>` whose closing tag stands past a blank line strikes nothing out: the words
    between are other paragraphs, shown as written."""
    page = prepare(
        "Intro <del>\n\nWrites are acknowledged once durable.\n\n</del>\n", kind="markdown"
    )

    assert locate("Writes are acknowledged once durable.", page).status == "verified"


def test_an_html_comment_on_a_markdown_page_is_not_its_words() -> None:
    """A raw `.md` file's `<!-- ... -->` is shown to no reader of the rendered page, on
    one line or many: a quote found only there is not verified."""
    page = prepare(
        "Intro.\n\n<!-- The service guarantees 99.99% uptime. -->\n\n"
        "<!--\nRetired section.\n\nReads are always linearizable.\n-->\n\n"
        "Writes are <!--\nnot yet\n-->acknowledged once durable.\n",
        kind="markdown",
    )

    assert locate("The service guarantees 99.99% uptime.", page).status != "verified"
    assert locate("Reads are always linearizable.", page).status != "verified"
    assert locate("Writes are acknowledged once durable.", page).status == "verified"


def test_a_comment_inside_a_paragraph_of_a_markdown_page_ends_with_it() -> None:
    """A `<!--` inside a paragraph whose `-->` stands past a blank line is no comment
    (CommonMark ends the paragraph there): the paragraphs between are shown."""
    page = prepare(
        "Open it with <!-- in your editor.\n\nReads are linearizable.\n\nEnd -->.\n",
        kind="markdown",
    )

    assert locate("Reads are linearizable.", page).status == "verified"


def test_comment_openers_never_closed_leave_a_markdown_page_as_written() -> None:
    """A `<!--` with no `-->` after it hides nothing, and each is looked past once (a page
    of 50,000 of them is read as written)."""
    quote = "Cluster nodes replicate every write to three replicas."
    page = prepare(f"{'<!-- a ' * 50000}\n\n{quote}\n", kind="markdown")

    assert locate(quote, page).status == "verified"


def test_a_page_of_one_word_said_over_and_over_is_searched_once_for_what_stood_there() -> None:
    """Whether a passage stood beside the quote on the page as read stops at the first
    place that tells, however often the passage occurs (on a page of one word 40,000
    times, finding the quote gone and then reworded took 48 s so)."""
    filler = " ".join(["data"] * 20000)
    quote = " ".join(["data"] * 15 + ["is", "kept."])
    was = prepare(f"{filler} {quote} {filler}")
    context = locate(quote, was).context

    gone = locate(quote, f"{filler} {filler}", context=context, previous=was)
    reworded = locate(quote, f"{filler} {quote[:-6]} lost. {filler}", context=context, previous=was)

    assert (gone.status, reworded.status) == ("missing", "drifted")


def test_a_quote_found_missing_on_a_page_of_one_sentence_said_over_and_over_is_read_again() -> None:
    """Whether a sentence of the page now is a copy of one on the page as read is told
    first by the same words, before it is compared with every sentence there (on a page
    of 1 MB of one word said over and over, cut into 2,000 long pieces, a quote found
    missing when it was read took 9 s to read again)."""
    filler = " ".join(["data"] * 62_000)
    quote = " ".join(["data"] * 15 + ["is", "kept."])
    then = prepare(f"{filler} {filler}")
    missing = locate(quote, then)
    now = f"{filler} {quote[:-6]} lost. {filler}\n\nA closing line added later."

    result = locate(quote, now, previous=then, was_missing=FoundMissing(missing.closest))

    assert (missing.status, result.status) == ("missing", "drifted")
    assert result.current is not None and result.current.endswith("is lost.")


def test_a_long_page_of_sentences_that_begin_in_lower_case_is_cut_at_each() -> None:
    """Whether a full stop before a lower-case word ends a sentence looks at the next word
    only (it copied the rest of the page for every such stop)."""
    page = prepare("Writes are durable. etcd ensures order here. " * 20000)

    assert page.unit_count == 40000
    assert page.unit_text(1, 1) == "etcd ensures order here."


def test_a_quote_copied_thousands_of_times_is_weighed_against_each_copy_once() -> None:
    """Whether a passage stood beside any copy of the quote is found by bisection among
    the copies, not by comparing every place with every copy."""
    first = "Backups are written to the bucket every hour."
    quote = f"{first} Each backup is kept for thirty days before it is deleted."
    was = prepare(" ".join([quote] * 2000))
    context = locate(quote, was).context

    result = locate(quote, " ".join([first] * 2000), context=context, previous=was)

    assert (result.status, result.closest) == ("missing", f"{first} {first}")


def test_a_whole_table_on_one_line_is_read_cell_by_cell() -> None:
    """A table extracted onto one line is one block of thousands of cells: the block and
    the cell a unit is in are found by bisection, and each cell edge's place in the
    normalised text from the one before (walking the block took 15 s at 2 MB)."""
    cells = [f"Node{n % 97} | Zone{n % 13}" for n in range(20000)]
    page = " | ".join([*cells[:10000], "Replicas | Five | Cluster", *cells[10000:]])

    result = locate("Replicas | Three | Cluster", page)

    assert (result.status, result.current) == ("drifted", "Replicas | Five | Cluster")


def _walked(
    page: PreparedText, unit: int, edges: list[int], within: tuple[int, int]
) -> tuple[int, int]:
    """The run of units around `unit`, inside `within`, that no edge falls between: walked
    one unit at a time."""
    part = bisect.bisect_right(edges, page.units[0][unit])
    first, last = unit, unit
    while first > within[0] and bisect.bisect_right(edges, page.units[0][first - 1]) == part:
        first -= 1
    while last < within[1] and bisect.bisect_right(edges, page.units[0][last + 1]) == part:
        last += 1
    return first, last


def _first_kept(page: PreparedText, original: int) -> int:
    """The first normalised offset whose character ends past `original` in the page, by
    trying each in turn."""
    kept = range(len(page.normalized))
    return next((at for at in kept if page.original_span(at, at + 1)[1] > original), len(kept))


@pytest.mark.parametrize("kind", ["text", "markdown"])
def test_a_units_block_and_cell_are_the_runs_a_walk_finds(kind: TextKind) -> None:
    """The bisections of `block_units` and `cell_units`, and the cell edges' offsets
    searched from the one before, agree with walking the units and trying every offset."""
    rows = "\n".join(f"| **Key{n}** | `value {n}` &amp; more | Note. Two. |" for n in range(12))
    page = prepare(f"# Title\n\nIntro  text.  Second one.\n\n{rows}\n\nA last line.", kind=kind)
    edges = [_first_kept(page, m.start()) for m in re.finditer(r" \| ", page.text)]

    assert page._cell_edges() == edges
    whole = (0, page.unit_count - 1)
    for unit in range(page.unit_count):
        block = _walked(page, unit, page.breaks, whole)
        assert page.block_units(unit) == block
        assert page.cell_units(unit) == _walked(page, unit, edges, block)


def test_a_letter_under_thousands_of_combining_marks_keeps_thirty() -> None:
    """Unicode's stream-safe limit: a page's run of 200,000 marks on one letter is cut to
    30 before it is put in canonical order (it took 30 s), and a quote beside it is found."""
    quote = "Writes are acknowledged after every replica stores them."
    page = prepare(f"Intro. {quote} a" + "\u0301\u0316" * 100_000)

    result = locate(quote, page)

    assert result.status == "verified"
    assert normalize("a" + "\u0301" * 40) == normalize("a" + "\u0301" * 30)


def test_a_lone_surrogate_in_a_library_callers_quote_is_the_replacement_character() -> None:
    """A string made of bytes no decoder read (`surrogateescape`) reaches the matcher as
    lone surrogates, which the lemma dictionary cannot encode: it raised."""
    quote = "See https://x.io/\ud800only for the cache settings."

    result = locate(quote, "Intro. See the docs for the cache settings. End.")

    assert result.status == "drifted"
    assert normalize("a\udcffb") == "a\ufffdb"


# --- normalisation ----------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("a\u00a0b\u2003c\td\ne", "a b c d e"),
        ("co\u00adoperate\u200b now\ufeff", "cooperate now"),
        (
            "The budget\u200e was\u200f ap\u034fproved\u2063 by\U000e0041 all",
            "The budget was approved by all",
        ),
        ("\u201cquoted\u201d \u2018single\u2019", "\"quoted\" 'single'"),
        ("a\u2013b\u2014c\u2212d\u2010e", "a-b-c-d-e"),
        ("&amp; &lt;tag&gt; &#8217; &nbsp;x", "& <tag> ' x"),
        ("**bold** _em_ `code` [text](https://x.y/z)", "bold em code text"),
        ("<b>bold</b> <a href='x'>link</a> 10<sup>2</sup>", "bold link 10^2"),
        ("10\u00b2 and \ufb01le", "10^2 and file"),
        ("| a | b | c |", "a b c"),
        ("x || y and a | b", "x || y and a b"),
        ("snake_case_name stays", "snake_case_name stays"),
        ("Case, Punctuation; Kept!", "Case, Punctuation; Kept!"),
    ],
)
def test_normalize(raw: str, expected: str) -> None:
    assert normalize(raw) == expected


def test_half_width_kana_on_a_page_read_as_the_full_width_quote() -> None:
    """NFKC makes one letter of a half-width kana and its voicing mark (ﾃﾞ is デ), which
    are no letter and combining mark to Unicode: cleaned apart, the page kept two
    characters, and a quote a reader sees on it was missing."""
    page = prepare("ﾃﾞｰﾀは三か所にｺﾋﾟｰされます。")
    assert locate("データは三か所にコピーされます", page).status == "verified"


def test_normalize_code_strips_comment_markers() -> None:
    source = "/**\n * Update the state\n * and broadcast it.\n */\nx = 1  # set x\n// done"
    assert normalize(source, kind="code") == "Update the state and broadcast it. x = 1 set x done"


def test_prepared_text_keeps_line_breaks_for_sentences() -> None:
    prepared = prepare("First line.\n\n  Second\u00a0line.")

    assert prepared.normalized == "First line.\nSecond line."
    assert prepared.flat == "First line. Second line."


@pytest.mark.parametrize(
    ("text", "sentences"),
    [
        pytest.param(
            "The store is exposed through gRPC. etcd ensures strong consistency.",
            ["The store is exposed through gRPC.", "etcd ensures strong consistency."],
            id="a-name-written-in-lower-case-starts-a-sentence",
        ),
        pytest.param(
            "Use a broker, e.g. redis or rabbitmq, for results.",
            ["Use a broker, e.g. redis or rabbitmq, for results."],
            id="an-abbreviation-goes-on",
        ),
        pytest.param(
            "It reads files, folders etc. and their modes.",
            ["It reads files, folders etc. and their modes."],
            id="etc-goes-on",
        ),
        pytest.param(
            "Acme Corp. is the vendor.", ["Acme Corp. is the vendor."], id="a-word-that-goes-on"
        ),
    ],
)
def test_a_sentence_may_start_in_lower_case(text: str, sentences: list[str]) -> None:
    """Docs start sentences with names written in lower case (etcd, npm, gRPC): a full stop
    before one ends the sentence, unless it ends an abbreviation or the word goes on."""
    prepared = prepare(text)
    starts, ends = prepared.units

    assert [prepared.flat[a:b] for a, b in zip(starts, ends, strict=True)] == sentences


def test_a_reworded_sentence_after_one_that_ends_before_a_lower_case_name_is_its_own() -> None:
    page = "The store is exposed through gRPC services. etcd ensures the strongest consistency."
    result = locate(
        "etcd tries to ensure the strongest consistency.",
        page,
        context=Context("The store is exposed through the KV API. ", ""),
    )

    assert result.status == "drifted"
    assert result.current == "etcd ensures the strongest consistency."


def test_a_wrapped_doc_comment_is_one_passage_and_a_blank_comment_line_ends_it() -> None:
    source = (
        "// Close releases all database resources.\n"
        "// It will block waiting for any open transactions to finish\n"
        "// before closing the database and returning.\n"
        "//\n"
        "// Deprecated: use Shutdown.\n"
        "func (db *DB) Close() error {\n"
    )
    result = locate(
        "It will block waiting for open transactions to finish before closing",
        prepare(source, kind="code"),
    )

    assert result.status == "drifted"
    assert result.current == (
        "It will block waiting for any open transactions to finish\n"
        "// before closing the database and returning."
    )


def test_a_quote_of_one_table_cell_drifts_to_one_cell() -> None:
    row = "Expression | Meaning\ncrontab(0, 0, month_of_year='*/3') | Execute {}on the first month."
    read = locate("Execute on the first month.", prepare(row.format("")))
    result = locate("Execute on the first month.", row.format("every day "), context=read.context)

    assert result.current == "Execute every day on the first month."


def test_a_neighbourhood_the_page_lost_is_held_to_a_first_verifys_bar() -> None:
    """A restructured page keeps none of the quote's old neighbours: the page-wide search
    then runs as a first verify would, never stricter, so a recorded neighbourhood only
    ever helps."""
    quote = (
        "Retries are attempted three times with an exponential backoff before the message"
        " is dropped."
    )
    was = prepare(
        f"Queues hold messages until a consumer acknowledges them.\n\n{quote}\n\nSee limits."
    )
    reworded = "Three attempts are made, each waiting longer, before the message is dropped."
    now = prepare(
        f"Consumers read from partitions in order.\n\n{reworded}\n\n"
        "Offsets are committed every five seconds.\n"
    )
    first = locate(quote, now)
    assert (first.status, first.current) == ("drifted", reworded)
    assert 0.5 <= first.similarity < 0.55  # between a first verify's bar and the stricter one

    read = locate(quote, was)
    again = locate(quote, now, context=read.context, previous=was)

    assert (again.status, again.current) == ("drifted", reworded)


_KEPT_BEFORE = "Installation takes a few minutes on most machines."
_KEPT_AFTER = "Monitoring is covered in the next chapter."
_REDELIVERY = "Unacknowledged messages are redelivered to another consumer after thirty seconds."
_AS_READ = prepare(
    "\n\n".join(
        [
            _KEPT_BEFORE,
            "The broker keeps every message on disk until it is acknowledged.",
            _REDELIVERY,
            "Consumers may prefetch up to ten messages at a time.",
            _KEPT_AFTER,
        ]
    )
)


def _edited_around(successor: str, *, added: int = 0) -> PreparedText:
    """The page as read with the quote's neighbours replaced by other sentences (so its
    recorded neighbourhood is found nowhere), `added` more, and `successor` in its place."""
    more = [f"Section {n} covers topic number {n} of the guide." for n in range(added)]
    return prepare(
        "\n\n".join(
            [
                _KEPT_BEFORE,
                "Queues are declared by the application that first uses them.",
                *more,
                successor,
                "Permissions are granted per virtual host.",
                _KEPT_AFTER,
            ]
        )
    )


def test_a_sentence_rewritten_where_it_stood_is_found_by_the_sentences_kept_around_it() -> None:
    """Both neighbours of the quote were replaced, so its recorded neighbourhood is found
    nowhere, and the rewording is too unlike it to pass anywhere on its words alone. The
    sentences further out did not change: aligned with the page as read, the one sentence
    between them stands where the quote stood, and it is the quote's successor, whose
    meaning "may have changed" (never plainly harmless: only its place tells it)."""
    reworded = (
        "When a consumer does not confirm a message within thirty seconds,"
        " the broker hands it to someone else."
    )
    now = _edited_around(reworded)
    context = locate(_REDELIVERY, _AS_READ).context

    found = locate(_REDELIVERY, now, context=context, previous=_AS_READ)

    assert (found.status, found.current) == ("drifted", reworded)
    assert found.meaning_uncertain and REWRITTEN_IN_PLACE in found.change_kinds
    without_the_page = locate(_REDELIVERY, now, context=context)
    assert (without_the_page.status, without_the_page.closest) == ("missing", reworded)


def test_a_passage_known_only_by_its_place_may_have_changed_meaning_never_more() -> None:
    """Its changes are named (a number changed), but the passage itself may not be the
    quote's successor: the verdict is "may have changed", not a changed meaning (though
    `accept` asks `--even-if-meaning-changed` to adopt it: tests/test_close_calls.py)."""
    reworded = (
        "When a consumer does not confirm a message within sixty seconds,"
        " the broker hands it to someone else."
    )
    context = locate(_REDELIVERY, _AS_READ).context

    found = locate(_REDELIVERY, _edited_around(reworded), context=context, previous=_AS_READ)

    assert found.status == "drifted" and not found.meaning_changed
    assert found.meaning_uncertain
    assert {"number changed", REWRITTEN_IN_PLACE} <= set(found.change_kinds)


def test_a_fragment_is_not_weighed_against_part_of_what_stands_in_its_place() -> None:
    """A quote cut from a sentence is weighed against the likeliest part of a passage at
    its recorded place; a sentence that only stands where it stood is weighed whole, as
    anywhere else: one that shares a few of its words ("after thirty seconds") is not its
    successor (it was, 0.63 alike, and `accept --all-drifted` took it)."""
    fragment = "redelivered to another consumer after thirty seconds"
    unrelated = (
        "If a client loses its connection while a large upload is in progress, the upload"
        " is resumed on another server after thirty seconds, and the partial data is kept."
    )
    context = locate(fragment, _AS_READ).context

    found = locate(fragment, _edited_around(unrelated), context=context, previous=_AS_READ)

    assert found.status == "missing"


def test_a_page_longer_than_an_alignment_is_worth_is_not_aligned() -> None:
    """Aligning two versions of a page costs time that can grow with the cube of their
    length: past `ALIGNED_MOST` sentences the quote's place is told by its recorded
    neighbourhood alone."""
    reworded = (
        "When a consumer does not confirm a message within thirty seconds,"
        " the broker hands it to someone else."
    )
    appendix = "\n\n".join(f"Appendix line {n} lists a limit." for n in range(ALIGNED_MOST))
    as_read = prepare(f"{_AS_READ.text}\n\n{appendix}")
    long = prepare(f"{_edited_around(reworded).text}\n\n{appendix}")

    assert [op[0] for op in _edited_around(reworded).aligned_with(_AS_READ)] == [
        "equal",
        "replace",
        "equal",
    ]
    assert long.aligned_with(as_read) == []


def test_a_passage_found_by_its_words_beats_one_found_by_its_place_alone() -> None:
    """The quote's section moved down the page and was reworded, and an unrelated sentence
    now stands where the quote stood: the rewording below, alike enough to pass a first
    verify, is the successor, not the sentence at the old place (0.44 alike)."""
    top = ["# Broker guide", _KEPT_BEFORE]
    security = ["## Security", "Permissions are granted per virtual host."]
    delivery = [
        "## Delivery",
        "The broker keeps every message on disk until it is acknowledged.",
        _REDELIVERY,
        "Consumers may prefetch up to ten messages at a time.",
    ]
    reworded = (
        "When a consumer does not confirm a message within thirty seconds,"
        " the broker hands it to another consumer."
    )
    moved = [
        "## Delivery",
        "Messages stay on disk until a consumer acknowledges them.",
        reworded,
        "Prefetching is limited to ten messages.",
    ]
    unrelated = ["## Overview", "Messages from another consumer are rejected after a failure."]
    was = prepare("\n\n".join([*top, *delivery, *security, _KEPT_AFTER]))
    now = prepare("\n\n".join([*top, *unrelated, *security, *moved, _KEPT_AFTER]))

    found = locate(_REDELIVERY, now, context=locate(_REDELIVERY, was).context, previous=was)

    assert (found.status, found.current) == ("drifted", reworded)
    assert REWRITTEN_IN_PLACE not in found.change_kinds


def test_a_section_rewritten_whole_does_not_place_a_quote() -> None:
    """More than `REPLACED_RUN_MOST` new sentences between the kept ones: the section was
    rewritten whole, and where the quote stood in it says nothing."""
    reworded = (
        "When a consumer does not confirm a message within thirty seconds,"
        " the broker hands it to someone else."
    )
    context = locate(_REDELIVERY, _AS_READ).context
    near = _edited_around(reworded, added=REPLACED_RUN_MOST - 3)
    far = _edited_around(reworded, added=REPLACED_RUN_MOST - 2)

    placed = locate(_REDELIVERY, near, context=context, previous=_AS_READ)
    assert (placed.status, placed.current) == ("drifted", reworded)
    assert REWRITTEN_IN_PLACE in placed.change_kinds
    assert locate(_REDELIVERY, far, context=context, previous=_AS_READ).status == "missing"


def test_a_sibling_reworded_beside_a_removed_quote_is_not_its_successor() -> None:
    """The page dropped the `failure` line and reworded the `success` line beside it: that
    rewording is more like the old `success` line than like the quote, so it is the
    success line's successor, and the quote is missing (it was called drifted, its
    meaning changed, "true" for "false")."""
    quote = "Failure - a list of requests to process if any compare test evaluates to false."
    head = "Txn processes multiple requests in a single transaction."
    tail = "Compare - a list of predicates representing a conjunction of terms."
    was = prepare(
        "\n".join(
            [
                head,
                "Success - a list of requests to process if all compare tests evaluate to true.",
                quote,
                tail,
            ]
        )
    )
    reworded = (
        "success - a list of requests which will be applied when every compare evaluates to true."
    )
    now = prepare("\n".join([head, reworded, tail]))

    found = locate(quote, now, context=locate(quote, was).context, previous=was)

    assert (found.status, found.current) == ("missing", None)
    assert locate(quote, now).current == reworded  # without the page as read, it looks so


def test_a_successor_is_not_set_aside_for_the_quotes_own_earlier_rewording() -> None:
    """The quote had drifted already when the page was last read: which sentence of that
    page was its own cannot be told, so none is taken for another sentence's successor
    (its own earlier rewording was, and the passage grew into the next sentence)."""
    before = "Installation takes a few minutes on most machines."
    after = "Consumers may prefetch up to ten messages at a time."
    first = (
        "If a consumer does not acknowledge a message within thirty seconds,"
        " the broker redelivers it to another consumer."
    )
    again = first.removesuffix(".") + " of the queue."
    as_read = prepare(f"{before}\n\n{_REDELIVERY}\n\n{after}")
    drifted = prepare(f"{before}\n\n{first}\n\n{after}")
    context = locate(_REDELIVERY, drifted, context=locate(_REDELIVERY, as_read).context).context

    found = locate(
        _REDELIVERY, prepare(f"{before}\n\n{again}\n\n{after}"), context=context, previous=drifted
    )

    assert (found.status, found.current) == ("drifted", again)


def test_a_drifted_quote_stays_drifted_when_the_page_changes_elsewhere() -> None:
    """The page as read last held the quote's successor, not the quote: that successor is
    no sibling standing beside the quote, so an edit elsewhere on the page does not turn
    the drifted quote into a missing one (it did, at the next refresh)."""
    before = "Installation takes a few minutes on most machines."
    after = "Consumers may prefetch up to ten messages at a time."
    successor = (
        "If a consumer does not acknowledge a message within thirty seconds,"
        " the broker redelivers it to another consumer."
    )
    as_read = prepare(f"{before}\n\n{_REDELIVERY}\n\n{after}\n\n{_KEPT_AFTER}")
    drifted_page = prepare(f"{before}\n\n{successor}\n\n{after}\n\n{_KEPT_AFTER}")
    drifted = locate(_REDELIVERY, drifted_page, context=locate(_REDELIVERY, as_read).context)
    edited = prepare(f"{before}\n\n{successor}\n\n{after}\n\nMonitoring is covered later.")

    again = locate(_REDELIVERY, edited, context=drifted.context, previous=drifted_page)

    assert (drifted.status, again.status, again.current) == ("drifted", "drifted", successor)


_RESTART = "Restart the service after changing this setting."
_RELOAD = "Reload the service after changing this setting."
_CACHE = "Cache\n\nThe cache size is set in megabytes.\n\n{}\n\nThe default is 512."
_NETWORK = "Network\n\nThe listen port defaults to 8080.\n\n{}Ports below 1024 need root."
_ANEW = "Restart the service whenever this setting changes."
_SAID_TWICE = f"{_CACHE.format(_RELOAD)}\n\n{_NETWORK.format(_RESTART + chr(10) * 2)}"
_ONE_COPY_GONE = f"{_CACHE.format(_RELOAD)}\n\n{_NETWORK.format('')}"


def _found_missing(page_now: str) -> tuple[Match, Match]:
    """The quote said twice, one copy reworded (it is found at the other); then the copy it
    was found at removed: missing, the reworded copy having stood beside it. And the read
    of `page_now` after that, as a refresh reads it (no neighbourhood is kept for a missing
    quote; the page as read, and the verdict then)."""
    as_read = prepare(_ONE_COPY_GONE)
    found = locate(_RESTART, prepare(_SAID_TWICE))
    gone = locate(_RESTART, as_read, context=found.context, previous=prepare(_SAID_TWICE))
    assert (found.status, gone.status) == ("verified", "missing")
    said = FoundMissing(gone.closest)
    return gone, locate(_RESTART, prepare(page_now), previous=as_read, was_missing=said)


@pytest.mark.parametrize(
    "page_now",
    [
        f"{_ONE_COPY_GONE}\n\nFAQ\n\nAsk on the forum.",
        _ONE_COPY_GONE.replace("The default is 512.", "The default is 1024."),
        _ONE_COPY_GONE.replace("Network", "Networking"),
        _ONE_COPY_GONE.replace(_RELOAD, _RELOAD.replace(".", "!")),
        _ONE_COPY_GONE.replace(_RELOAD, _RELOAD.replace("service", "Service")),
        f"{_NETWORK.format('')}\n\n{_CACHE.format(_RELOAD)}",
    ],
    ids=[
        "a section added",
        "a neighbour rewritten",
        "a heading renamed",
        "the reworded copy's full stop changed",
        "the reworded copy's capitals changed",
        "the sections reordered",
    ],
)
def test_a_missing_quote_stays_missing_when_the_page_changes_elsewhere(page_now: str) -> None:
    """Every passage on the page when the quote was found missing was weighed and set aside:
    an edit that says nothing more of the quote (elsewhere, beside it, a full stop, a
    capital, the order of sections) makes none of them its successor, nor changes the
    closest passage shown. (Each made it "drifted" to the reworded copy, or to that copy
    and its rewritten neighbour.)"""
    gone, again = _found_missing(page_now)

    assert (again.status, again.closest) == ("missing", gone.closest)


def test_the_closest_passage_shown_when_missing_is_shown_again() -> None:
    """The passage shown as the closest when the quote was found missing is shown again
    after an edit elsewhere on the page: it was weighed then, and still is the closest."""
    quote = "Backups stay on the primary server for ninety days."
    closest = "Audit records stay on the primary host for a year."
    as_read = prepare(f"Retention\n\n{closest}\n\nLogs are rotated daily.")
    gone = locate(quote, as_read)
    later = prepare(f"Retention\n\n{closest}\n\nLogs are rotated daily.\n\nFAQ follows.")

    again = locate(quote, later, previous=as_read, was_missing=FoundMissing(gone.closest))

    assert (gone.status, gone.closest) == ("missing", closest)
    assert (again.status, again.closest) == ("missing", closest)


@pytest.mark.parametrize(
    ("page_now", "successor"),
    [
        (_ONE_COPY_GONE.replace(_RELOAD, "Restart the service once you change this setting."),
         "Restart the service once you change this setting."),
        (_ONE_COPY_GONE.replace("Ports below", f"{_ANEW}\n\nPorts below"), _ANEW),
        (f"{_ONE_COPY_GONE}\n\nRestart the service after changing any setting.",
         "Restart the service after changing any setting."),
    ],
    ids=["a copy edited to say the quote", "a new wording at its place", "a new wording below"],
)  # fmt: skip
def test_a_missing_quote_reworded_anew_is_found(page_now: str, successor: str) -> None:
    """A sentence new or rewritten since the quote was found missing, and more like it than
    what stood there, is news of it: its successor."""
    _, again = _found_missing(page_now)

    assert (again.status, again.current) == ("drifted", successor)


_WRITES = "Writes time out after 30 seconds."
_LIMITS = "Limits\n\nReads time out after 30 seconds.\n\n{}The server listens on port 8080."


def _missing_then(before: str, as_read: str, now: str, quote: str = _WRITES) -> Match:
    """The quote read on `before`, found missing on `as_read`, then read on `now` as a
    refresh reads it (no neighbourhood for a missing quote; the page as read)."""
    found = locate(quote, prepare(before))
    gone = locate(quote, prepare(as_read), context=found.context, previous=prepare(before))
    assert (found.status, gone.status) == ("verified", "missing")
    return locate(
        quote, prepare(now), previous=prepare(as_read), was_missing=FoundMissing(gone.closest)
    )


def test_a_successor_written_with_its_sibling_rewritten_is_found() -> None:
    """The quote's sibling and a new wording of the quote written in one edit, where the
    sibling stood: the new wording is news of it (it was set aside, being less like the
    quote than the sibling it replaced)."""
    before, as_read = _LIMITS.format(f"{_WRITES}\n\n"), _LIMITS.format("")
    successor = "Write requests time out after 60 seconds."
    now = as_read.replace(
        "Reads time out after 30 seconds.",
        f"Read requests time out after 45 seconds.\n\n{successor}",
    )

    again = _missing_then(before, as_read, now)

    assert (again.status, again.current) == ("drifted", successor)


def test_a_quote_of_three_sentences_rewritten_over_an_old_one_is_found() -> None:
    """Three new sentences that together reword the quote, written over a sentence of the
    page as read: each alone is less like the quote, together they are its successor."""
    quote = (
        "Set the timeout in the config file. The default is 30 seconds."
        " Restart the server to apply it."
    )
    kept = "The timeout is set in the config file."
    before = f"Timeouts\n\n{quote}\n\nOther settings\n\n{kept}"
    as_read = f"Timeouts\n\nOther settings\n\n{kept}"
    successor = (
        "Put the timeout in the config file. By default it is 30 seconds."
        " A server restart applies it."
    )
    now = as_read.replace(kept, successor)

    again = _missing_then(before, as_read, now, quote)

    assert (again.status, again.current) == ("drifted", successor)


_READS = "Reads time out after 30 seconds."


@pytest.mark.parametrize(
    "now",
    [
        _LIMITS.format("").replace(f"{_READS}\n\n", "") + f"\n\nFAQ\n\n{_READS}",
        _LIMITS.format("") + f"\n\nFAQ\n\n{_READS.replace('.', '!')}",
        _LIMITS.format("") + "\n\nFAQ\n\nRemember: reads time out after 30 seconds.",
    ],
    ids=["moved", "copied, its full stop changed", "copied with a word before it"],
)
def test_a_sibling_moved_or_copied_is_no_news_of_a_missing_quote(now: str) -> None:
    """A sentence of the page as read moved, or copied with its words all there, says no
    more of the quote than it did: the quote stays missing (it was called drifted)."""
    again = _missing_then(_LIMITS.format(f"{_WRITES}\n\n"), _LIMITS.format(""), now)

    assert again.status == "missing"


@pytest.mark.parametrize(
    "added",
    ["Ports\n\nSee the option list.", "Option names are case-sensitive."],
    ids=["under another heading", "beside the sibling"],
)
def test_a_new_sentence_sharing_a_word_is_no_news_of_a_missing_quote(added: str) -> None:
    """A new sentence on another matter that shares a word with the quote does not make
    the old sibling beside it, with it, a successor."""
    quote = "Note: this option requires a restart."
    sibling = "Note: this setting requires a restart."
    as_read = (
        f"Cache\n\nThe cache size is read at startup.\n\nLogs\n\nLogs rotate daily.\n\n{sibling}"
    )
    before = as_read.replace("startup.", f"startup.\n\n{quote}")

    again = _missing_then(before, as_read, f"{as_read}\n\n{added}", quote)

    assert again.status == "missing"


def test_a_new_wording_is_news_though_an_old_question_held_its_words() -> None:
    """A new wording of the quote where it stood is news of it, though a question elsewhere
    on the page already held its words (that question is no copy of it)."""
    faq = "FAQ\n\nWhy do writes time out after 30 seconds? Because the disk is slow."
    before = f"Limits\n\n{_WRITES}\n\nThe server listens on port 8080.\n\n{faq}"
    as_read = before.replace(f"{_WRITES}\n\n", "")
    successor = "Writes time out after 30 seconds by default."

    again = _missing_then(before, as_read, before.replace(_WRITES, successor))

    assert (again.status, again.current) == ("drifted", successor)


@pytest.mark.parametrize(
    ("was", "now"),
    [
        ("Raeds time out after 30 seconds.", _READS),
        (_READS, "Reads time out after 60 seconds."),
    ],
    ids=["a misspelling mended", "a figure changed"],
)
def test_a_sibling_touched_up_is_no_news_of_a_missing_quote(was: str, now: str) -> None:
    """A sibling of the quote touched up (a misspelling mended, a figure changed) says no
    more of the quote than it did: the quote stays missing (it was called drifted)."""
    before, as_read = _LIMITS.format(f"{_WRITES}\n\n"), _LIMITS.format("")

    again = _missing_then(
        before.replace(_READS, was), as_read.replace(_READS, was), as_read.replace(_READS, now)
    )

    assert again.status == "missing"


def test_the_news_alone_is_the_successor_not_its_sibling_with_it() -> None:
    """A new sentence beside the quote's old sibling is its successor on its own: the
    sibling with it is worth no more than the new sentence (it was chosen with the
    sibling, across a paragraph break)."""
    before, as_read = _LIMITS.format(f"{_WRITES}\n\n"), _LIMITS.format("")
    now = as_read.replace(_READS, f"{_READS}\n\nWrites time out.")

    again = _missing_then(before, as_read, now)

    assert (again.status, again.current) == ("drifted", "Writes time out.")


def test_the_closest_passage_touched_up_is_shown_again() -> None:
    """The passage shown as the closest when the quote was found missing, touched up since
    (a full stop, a plural), is still shown as the closest."""
    quote = "Backups stay on the primary server for ninety days."
    closest = "Audit records stay on the primary host for a year."
    as_read = prepare(f"Retention\n\n{closest}\n\nLogs are rotated daily.")
    gone = locate(quote, as_read)
    touched = closest.replace("host", "hosts").replace(".", "!")
    later = prepare(f"Retention\n\n{touched}\n\nLogs are rotated daily.")

    again = locate(quote, later, previous=as_read, was_missing=FoundMissing(gone.closest))

    assert (gone.closest, again.status, again.closest) == (closest, "missing", touched)


@pytest.mark.parametrize(
    "successor",
    ["Writes do time out after 30 seconds.", "After 30 seconds, writes time out."],
)
def test_a_new_wording_is_news_though_an_old_question_held_all_its_words(successor: str) -> None:
    """A new wording where the quote stood, its words all those of a question elsewhere on
    the page, is not that question said again: it is the quote's successor."""
    faq = "FAQ\n\nWhy do writes time out after 30 seconds? Because the disk is slow."
    before = f"Limits\n\n{_WRITES}\n\nThe server listens on port 8080.\n\n{faq}"
    as_read = before.replace(f"{_WRITES}\n\n", "")

    again = _missing_then(before, as_read, before.replace(_WRITES, successor))

    assert (again.status, again.current) == ("drifted", successor)


def test_a_sibling_that_takes_in_the_quote_is_its_successor() -> None:
    """A sibling rewritten to say the quote too ("Reads and writes …") adds the quote's
    words: news of it, however like the sibling it stays."""
    quote = "Writes time out after 30 seconds unless the client sets a longer limit."
    sibling = quote.replace("Writes", "Reads")
    before = f"Limits\n\n{sibling}\n\n{quote}\n\nThe server listens on port 8080."
    as_read = before.replace(f"{quote}\n\n", "")
    merged = quote.replace("Writes", "Reads and writes")

    again = _missing_then(before, as_read, as_read.replace(sibling, merged), quote)

    assert (again.status, again.current) == ("drifted", merged)


def test_a_sibling_reworded_without_the_quote_s_words_is_no_news() -> None:
    """A sibling reworded with words the quote lacks ("requests") says no more of it."""
    before, as_read = _LIMITS.format(f"{_WRITES}\n\n"), _LIMITS.format("")
    now = as_read.replace(_READS, "Read requests time out after 30 seconds.")

    assert _missing_then(before, as_read, now).status == "missing"


def test_new_sentences_on_both_sides_of_a_sibling_are_no_news_through_it() -> None:
    """Two new sentences that say little of the quote, one on each side of its old sibling,
    do not make the three a successor: the sibling counts for nothing, and each new one
    alone is no near miss."""
    quote = "Writes time out after 30 seconds when the cluster is degraded."
    sibling = quote.replace("Writes", "Reads")
    as_read = f"Intro text here.\n\n{sibling} Backups run nightly at two.\n\nOutro."
    now = as_read.replace(
        f"{sibling} Backups run nightly at two.",
        f"See the cluster guide. {sibling} Writes are logged.",
    )

    found = locate(quote, prepare(now), previous=prepare(as_read), was_missing=FoundMissing())

    assert found.status == "missing"


def test_a_table_row_put_back_with_a_cell_like_another_row_s_is_found() -> None:
    """A row of settings put back with a new value, its description the same as another
    row's: the row is news of the quote, though only its name cell is new."""
    quote = "timeout_write | 30 | Timeout in seconds for each request"
    read_row = "timeout_read | 30 | Timeout in seconds for each request"
    before = f"Settings\n\nname | default | meaning\n{read_row}\n{quote}\n\nEnd."
    as_read = before.replace(f"\n{quote}", "")
    successor = quote.replace("30", "60")

    again = _missing_then(before, as_read, before.replace(quote, successor), quote)

    assert (again.status, again.current) == ("drifted", successor)


def test_a_sentence_that_stood_inside_a_longer_one_is_new_where_it_stands() -> None:
    """A sentence put where the quote stood is new there, though its words stood on the page
    inside a longer sentence: its successor (it was set aside as standing on the page)."""
    quote = "The museum opens at 9am on weekdays and at 10am on weekends."
    sign = "A sign by the door still reads: The museum opens at 10am on weekends."
    before = (
        f"Visiting\n\nTickets cost five dollars. {quote} Guided tours start every hour.\n\n{sign}"
    )
    as_read = prepare(before.replace(f" {quote}", ""))
    gone = locate(quote, as_read, previous=prepare(before))
    now = prepare(before.replace(quote, "The museum opens at 10am on weekends."))

    again = locate(quote, now, previous=as_read, was_missing=FoundMissing(gone.closest))

    assert gone.status == "missing"
    assert (again.status, again.current) == ("drifted", "The museum opens at 10am on weekends.")


def test_the_wording_last_found_still_on_the_page_is_the_successor_still() -> None:
    """The quote had drifted to a sentence 0.50 alike; then both its neighbours were
    rewritten, the sentence untouched: it is the quote's successor still (it was called
    missing, too unlike the quote to pass on its words, its place no longer found)."""
    successor = "Before a deploy, you must clear the build cache."
    quote = "The cache must be flushed before every deploy."
    first = prepare(
        "Install the agent on every host before enabling sync.\n\n"
        f"{successor}\n\nLogs are rotated daily and kept for two weeks."
    )
    later = prepare(
        "Agents are installed automatically when a host joins the cluster.\n\n"
        f"{successor}\n\nLog files rotate every night and are retained for fourteen days."
    )
    context = locate(successor, first).context

    found = locate(quote, later, context=context, previous=first, last_found=successor)

    assert (found.status, found.current) == ("drifted", successor)
    assert locate(quote, later, context=context, previous=first).status == "missing"


def test_a_section_is_not_aligned_with_the_whole_page_as_read() -> None:
    """A quote placed under a heading is looked for in its section, while the page as read
    is the whole page: aligned, everything before the section was taken for sentences the
    rewording might have replaced, and an intro that restates it set the successor aside
    (`align=False`, as a refresh passes for a section)."""
    intro = (
        "In short, messages not acknowledged within thirty seconds are handed to another consumer."
    )
    reworded = "Messages not acknowledged within thirty seconds are handed to another consumer."
    after = "Consumers may prefetch up to ten messages at a time."
    whole = prepare(f"Overview\n\n{intro}\n\nDelivery\n\n{_REDELIVERY}\n\n{after}")
    section = prepare(f"{reworded}\n\n{after}")
    context = locate(_REDELIVERY, prepare(f"{_REDELIVERY}\n\n{after}")).context

    found = locate(_REDELIVERY, section, context=context, previous=whole, align=False)

    assert (found.status, found.current) == ("drifted", reworded)
    assert locate(_REDELIVERY, section, context=context, previous=whole).status == "missing"


def test_a_sibling_that_was_already_beside_the_quote_is_not_its_successor() -> None:
    was = prepare(
        "app_db_pool_size: The size of the pool used by transactions. Defaults to 20.\n"
        "sys_db_pool_size: The size of the pool used for the system database. Defaults to 20."
    )
    now = prepare(
        "sys_db_pool_size: The size of the pool used for the system database. Defaults to 20."
    )
    quote = "app_db_pool_size: The size of the pool used by transactions. Defaults to 20."
    read = locate(quote, was)

    assert locate(quote, now, context=read.context, previous=was).status == "missing"
    assert locate(quote, now).status == "drifted"  # without the page as read, it would look so


# --- a reworded fragment is judged on its own span ---------------------------

FRAGMENT_PAGE = (
    "Objects are created on demand. Each object has a unique name chosen by the developer, "
    "and at most 128 objects run at once. Names are never reused."
)


def test_a_reworded_fragment_is_judged_only_on_its_own_span() -> None:
    quote = "Each object has a distinct name chosen by the developer"

    result = locate(quote, FRAGMENT_PAGE)

    assert result.status == "drifted"
    assert result.current == (
        "Each object has a unique name chosen by the developer, "
        "and at most 128 objects run at once."
    )
    assert [(c.op, c.quote, c.page, c.kind) for c in result.changed_words] == [
        ("replace", "distinct", "unique", WORDING_CHANGED)
    ]  # a synonym no form explains: it may have changed, never more
    assert not result.meaning_changed and result.meaning_uncertain


def test_words_before_a_reworded_fragment_are_outside_its_span() -> None:
    page = "At most 128 objects run at once; each object has a unique name chosen by the developer."
    result = locate("each object has a distinct name chosen by the developer", page)

    assert result.status == "drifted"
    assert result.current == page
    assert [(c.quote, c.page) for c in result.changed_words] == [("distinct", "unique")]
    assert not result.meaning_changed


@pytest.mark.parametrize(
    ("quote", "sentence", "change"),
    [
        (
            "Each object has a name that is guaranteed to be unique",
            "Each object has a name that is not guaranteed to be unique, and at most 128 run.",
            ("insert", "", "not"),
        ),
        (
            "Each object has a name that is not guaranteed to be unique",
            "Each object has a name that is guaranteed to be unique, and up to 128 run at once.",
            ("delete", "not", ""),
        ),
        (
            "Never retry the failed steps of a workflow",
            "Some steps fail, so always retry the failed steps of a workflow.",
            ("replace", "Never", "always"),
        ),
        (
            "The steps of a workflow are retried at most twice",
            "The steps of a workflow are retried, and the workflow runs for days.",
            ("delete", "at most twice", ""),
        ),
    ],
    ids=["negation-inserted", "negation-removed", "edge-word-replaced", "edge-words-deleted"],
)
def test_a_meaning_change_inside_the_fragments_span_still_counts(
    quote: str, sentence: str, change: tuple[str, str, str]
) -> None:
    result = locate(quote, "Intro. " + sentence + " Outro.")

    assert result.status == "drifted"
    assert result.current == sentence
    meaningful = [(c.op, c.quote, c.page) for c in result.changed_words if c.meaningful]
    assert list(dict.fromkeys(meaningful)) == [change]  # once for each kind its words carry
    assert result.meaning_changed


def test_a_clause_moved_to_the_end_of_a_longer_sentence_is_not_a_meaning_change() -> None:
    quote = "If it runs for 30 seconds, the object will be reset"
    page = "The object will be reset if it runs for 30 seconds, and at most 128 objects run."

    result = locate(quote, page)

    assert result.status == "drifted"
    assert not result.meaning_changed, result.changed_words


def test_judging_the_current_passage_gives_the_matchs_changes() -> None:
    quote = "Each object has a distinct name chosen by the developer"
    result = locate(quote, FRAGMENT_PAGE)

    assert result.current is not None
    assert word_diff(quote, result.current) == result.changed_words


def test_match_has_a_verdict_version() -> None:
    assert isinstance(match_module.VERSION, int)
    assert match_module.VERSION >= 2


# --- each rule of meaning: a change it names, and a rewording it leaves alone ----------


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "etcd tries to ensure durable writes",
            "etcd ensures durable writes",
            "modal strengthened",
            id="hedge-dropped",
        ),
        pytest.param(
            "Topic routing may not be available for all transports.",
            "Topic routing is not available for all transports.",
            "modal strengthened",
            id="may-not-is-a-hedge",
        ),
        pytest.param(
            "at the worst they can overwrite the results",
            "they can definitely overwrite the results",
            "degree changed",
            id="certainty-changed",
        ),
        pytest.param(
            "Watches make three guarantees about events",
            "Watches make guarantees about events",
            "number changed",
            id="counting-number-word-gone",
        ),
        pytest.param(
            "executing step 1 without re-executing step 2",
            "executing step two without re-executing step one",
            "numbers swapped",
            id="numbers-swapped",
        ),
        pytest.param(
            "No tasks should be lost.",
            "No tasks should be lost even with experimental transports as long as the shutdown "
            "completes.",
            "qualifier added",
            id="condition-phrase-appended",
        ),
        pytest.param(
            "Returns an error if a disk write error occurs.",
            "Returns an error if a disk write error occurs, or if Commit is called on a "
            "read-only transaction.",
            "qualifier added",
            id="or-if-appended",
        ),
        pytest.param(
            "Exactly 10 bytes are written to the file.",
            "If no error occurs then exactly 10 bytes are written to the file.",
            "qualifier added",
            id="condition-put-before",
        ),
        pytest.param(
            "Scheduled workflows must take in exactly two arguments",
            "Workflows scheduled in this way must take in exactly two arguments",
            "qualifier added",
            id="restricted-to-this-case",
        ),
        pytest.param(
            "The default serializer is pickle, but you can change it.",
            "The default serializer is JSON, but you can change it.",
            "name changed",
            id="word-for-a-name",
        ),
        pytest.param(
            "set via the task_result_backend setting",
            "set via the result_backend setting",
            "identifier changed",
            id="name-part-dropped",
        ),
        pytest.param(
            "Instead we provide the response.is_error property.",
            "Instead we provide the response.is_success property.",
            "identifier changed",
            id="name-head-changed",
        ),
        pytest.param(
            "import invoke from window.TAURI.invoke now",
            "import invoke from window.TAURI.core.invoke now",
            "identifier changed",
            id="name-path-grown-inside",
        ),
        pytest.param(
            "It is set up via the proxies parameter to the client.",
            "It is set up via the proxy parameter to the client.",
            "name changed",
            id="word-before-a-noun-of-role",
        ),
        pytest.param(
            ".full_path - str", ".raw_path - str", "identifier changed", id="edge-across-break"
        ),
        pytest.param(
            "$ git checkout -b my_wip", "$ git switch -c my_wip", "name changed", id="command-line"
        ),
        pytest.param(
            "$ go get go.etcd.io/bbolt/...",
            "$ go get go.etcd.io/bbolt@latest",
            "name changed",
            id="command-line-grown",
        ),
        pytest.param(
            "A router is a class that decides the routing options.",
            "A router is a function that decides the routing options.",
            "noun changed",
            id="head-noun-replaced",
        ),
        pytest.param(
            "start: The command with which to start your app.",
            "start: (required only in DBOS Cloud) The command with which to start your app.",
            "quantifier changed",
            id="words-put-after-the-first-word",
        ),
        pytest.param(
            "You can enqueue any workflow, step, or transaction.",
            "You can enqueue any workflow or step.",
            "list changed",
            id="last-item-dropped",
        ),
        pytest.param(
            "Read-only transactions and read-write transactions should not depend on one another.",
            "Transactions should not depend on one another.",
            "list changed",
            id="items-joined-at-the-head",
        ),
        pytest.param(
            "the trust_env, verify, and cert arguments should be passed on instantiation",
            "the ssl configurations should be passed on instantiation",
            "list changed",
            id="items-become-one-thing",
        ),
        pytest.param(
            "these methods do not support files, data, or json arguments",
            "these methods do not support content, files, data, or json arguments",
            "list changed",
            id="item-put-before-a-comma",
        ),
        pytest.param(
            "configure the domains you want to associate",
            "configure the domains (mobile) and schemes (desktop) you want to associate",
            "list changed",
            id="items-put-in",
        ),
        pytest.param(
            "List of URLs to listen on for client traffic on this port",
            "List of URLs to listen on for client grpc traffic on this port",
            "name added",
            id="name-put-before-a-noun",
        ),
        pytest.param(
            "It enumerates the KV API guarantees made by etcd.",
            "It enumerates the API guarantees made by etcd.",
            "name removed",
            id="name-taken-from-before-a-noun",
        ),
        pytest.param(
            "Migrations are applied automatically when the plugin starts.",
            "Migrations are applied when the plugin starts.",
            "default changed",
            id="no-longer-automatic",
        ),
        pytest.param(
            "This helps, but is not not a requirement.",
            "This helps, and is a requirement.",
            "negation removed",
            id="stutter-read-once",
        ),
    ],
)
def test_each_rule_names_its_change(quote: str, passage: str, kind: str) -> None:
    assert kind in kinds(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "etcd tries to ensure durable writes",
            "etcd attempts to ensure durable writes",
            id="hedge-for-hedge",
        ),
        pytest.param(
            "Topic routing may not be available for all transports.",
            "Topic routing might not be available for all transports.",
            id="may-not-might-not",
        ),
        pytest.param(
            "it is probably safe to retry", "it is likely safe to retry", id="certainty-same-class"
        ),
        pytest.param(
            "when either page does not match",
            "when either of the two pages does not match",
            id="number-word-pointing-back",
        ),
        pytest.param(
            "executing step 1 without re-executing step 2",
            "executing step one without re-executing step two",
            id="numbers-as-words-in-order",
        ),
        pytest.param(
            "ErrChecksum is returned when either meta page checksum does not match.",
            "ErrChecksum is returned when a checksum mismatch occurs on either of the two meta "
            "pages.",
            id="noun-phrase-reordered-not-swapped",
        ),
        pytest.param(
            "Lock-free MVCC support using a single writer and multiple readers.",
            "Support lock-free MVCC using a single writer and multiple readers.",
            id="word-moved-past-a-run",
        ),
        pytest.param(
            "Migrations are applied automatically when the plugin starts.",
            "Migrations are automatically applied when the plugin starts.",
            id="adverb-floats",
        ),
        pytest.param(
            "HTTP/2 support is not enabled by default.",
            "When using the client, HTTP/2 support is not enabled by default.",
            id="scene-set-before",
        ),
        pytest.param(
            "the data before the update from this Put request",
            "the data before the update",
            id="this-taken-out",
        ),
        pytest.param(
            "HUP is disabled on OS X because of a limitation.",
            "HUP is disabled on macOS because of a limitation.",
            id="platform-renamed",
        ),
        pytest.param(
            "Since DBOSClient is designed to be used from outside",
            "Since the DBOS Client is designed to be used from outside",
            id="name-respelled-as-words",
        ),
        pytest.param(
            "set with the –maxmemperchild argument or the CELERYD_MAX_MEMORY_PER_CHILD setting",
            "set with the --max-memory-per-child argument or the worker_max_memory_per_child "
            "setting",
            id="name-shortened-and-constant-to-setting",
        ),
        pytest.param(
            "All etcd3 API's are defined in gRPC services.",
            "All etcd APIs are defined in gRPC services.",
            id="version-and-apostrophe-dropped",
        ),
        pytest.param(
            "reported by the rustc -Vv command.",
            "reported by the following command.",
            id="name-pointed-at",
        ),
        pytest.param(".full_path - str", ".full_path - string", id="edge-word-reworded"),
        pytest.param(
            "$ git checkout -b my_wip", "$ git checkout -b MY_WIP", id="command-respelled"
        ),
        pytest.param(
            "You can change the default behavior.",
            "You can change the default behaviour.",
            id="head-noun-spelt-another-way",
        ),
        pytest.param(
            "start: The command to start your app.",
            "start: The command used to start your app.",
            id="participle-put-in",
        ),
        pytest.param(
            "for being stuck in an infinite-loop, you can use KILL",
            "for being stuck in an infinite-loop or similar, you can use KILL",
            id="list-extender",
        ),
        pytest.param(
            "By default, HTTPX uses the CA bundle provided by Certifi.",
            "By default, the CA bundle provided by Certifi is used.",
            id="subject-name-dropped-in-the-passive",
        ),
        pytest.param(
            "This is not not a requirement.", "This is not a requirement.", id="stutter-mended"
        ),
        pytest.param(
            "It requires a workaround like this: "
            "https://github.com/etcd-io/etcd/pull/4317#issuecomment-179037582",
            "It requires a workaround like this.",
            id="link-is-one-name",
        ),
        pytest.param(
            "max_connections, orNone for no limits.",
            "max_connections, or None for no limits.",
            id="space-put-in",
        ),
        pytest.param(
            "Execute on 11th of May every year.",
            "Execute on the eleventh of May every year.",
            id="ordinal-as-a-word",
        ),
        pytest.param(
            "the job is queued until a worker is free",
            "the job is PENDING until a worker is free",
            id="state-for-a-participle",
        ),
    ],
)
def test_each_rule_leaves_a_rewording_alone(quote: str, passage: str) -> None:
    """No rule says the meaning changed; a content word put in or taken out may still say
    that it may have (`wording changed`), never more."""
    assert strong_kinds(quote, passage) == ()
    assert set(kinds(quote, passage)) <= {WORDING_CHANGED}


@pytest.mark.parametrize(
    ("before", "successor"),
    [
        (
            "Reads are sent to the cache, so they never wait on the network either.",
            "Writes go to disk, so they wait.",
        ),
        ("Reads are sent to memory and never wait on the network.", "Writes are sent to disk."),
    ],
)
@pytest.mark.parametrize(
    ("lead", "between", "kind"), [("", "\n\n", "text"), ("- ", "\n- ", "markdown")]
)
def test_a_successor_never_spans_a_paragraph_boundary_the_quote_did_not(
    before: str, successor: str, lead: str, between: str, kind: TextKind
) -> None:
    """A paragraph (or list item) of parallel structure before the successor must not be
    pulled into the current wording that `accept` would adopt: the quote stood inside one
    block when it was read, so its successor is inside one block too."""
    quote = "Writes are sent to disk, so they never wait on the network."
    was = prepare(lead + before + between + quote, kind=kind)
    now = prepare(lead + before + between + successor, kind=kind)
    found = locate(quote, now, previous=was)
    assert found.status == "drifted" and found.current is not None
    assert found.current.removeprefix("- ") == successor
    assert "negation removed" in found.change_kinds and found.meaning_changed


def test_a_one_word_rewording_is_found_on_a_long_page_of_the_quotes_own_words() -> None:
    """A megabyte of sentences made of the quote's own words: every long sentence holds
    most of them, and the page's one new word is its rarest. The reworded sentence is
    still the one found (it once read `missing`, at similarity 0.53)."""
    quote = (
        "While a storage operation is executing, no events shall be delivered to the object "
        "except for storage completion events."
    )
    vocabulary = [*re.sub(r"[,.]", "", quote.lower()).split(), "the", "a", "of", "durable"]
    chooser = random.Random(7)
    filler = [
        " ".join(chooser.choice(vocabulary) for _ in range(40)).capitalize() + "."
        for _ in range(6_000)
    ]
    reworded = quote.replace("delivered", "sent")
    page = "\n\n".join([*filler[:3_000], reworded, *filler[3_000:]])
    assert len(page) > 1_000_000
    found = locate(quote, prepare(page, kind="text"))
    assert found.status == "drifted"
    assert found.current == reworded
    assert found.similarity is not None and found.similarity > 0.9


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The cluster tolerates crash faults of a minority of its nodes.",
            "The cluster tolerates faults of a minority of its nodes.",
            id="adjective-dropped-from-a-fault-model",
        ),
        pytest.param(
            "Each message gets exactly-once delivery semantics within a region.",
            "Each message gets delivery semantics within a region.",
            id="term-dropped-from-a-guarantee",
        ),
        pytest.param(
            "Writes are acknowledged once they are persisted.",
            "Writes are acknowledged once they are persisted on the leader.",
            id="scope-narrowed-by-words-put-in",
        ),
        pytest.param(
            "Writes are durable.",
            "Writes are durable, and fast to make.",
            id="sentence-goes-on",
        ),
        pytest.param(
            "requests are handled by that instance",
            "requests are processed by that instance",
            id="a-verb-for-another",
        ),
        pytest.param("It can never happen that X is served", "X will never be served", id="recast"),
    ],
)
def test_content_words_put_in_or_taken_out_are_never_plainly_harmless(
    quote: str, passage: str
) -> None:
    """The silent misses of a rule set: what no rule names still says the meaning may have
    changed, with the words on both sides, rather than passing for a harmless rewording."""
    found = kinds(quote, passage)
    assert found, (quote, passage)
    judged = judge(normalize(quote), normalize(passage, markup=False))
    assert judged.meaning_changed or judged.meaning_uncertain
    assert any(change.meaningful and (change.quote or change.page) for change in judged.changes)


def test_a_harmless_form_is_plainly_harmless() -> None:
    """A typo mended, a hyphen, a number as a word: no flag of either level."""
    for quote, passage in (
        ("its operation is guarenteed to work", "its operation is guaranteed to work"),
        ("a rate-limited client", "a rate limited client"),
        ("a value of 2 means the message is kept", "a value of two means the message is kept"),
    ):
        judged = judge(normalize(quote), normalize(passage, markup=False))
        assert not judged.meaning_changed and not judged.meaning_uncertain, (quote, passage)


def test_a_located_drift_says_when_its_meaning_may_have_changed() -> None:
    page = prepare("<p>By default all potentially dangerous plugin commands are blocked.</p>")
    found = locate("By default all plugin commands are blocked.", page)
    assert found.status == "drifted"
    assert found.meaning_uncertain and not found.meaning_changed
    assert "wording changed" in found.change_kinds


def test_a_quote_across_the_cut_of_an_over_long_sentence_keeps_its_last_word() -> None:
    """A sentence over the unit length is cut in pieces for ranking; a reworded quote whose
    last word is just past a cut is still judged on its own words, and that word shown."""
    filler = " ".join(f"setting{n:03d} applies" for n in range(60))  # one unpunctuated run
    page = f"Retention keeps every segment for {filler} until compaction"
    starts, _ends = prepare(page).units
    assert len(starts) > 1  # cut for length alone
    last_word = page[starts[1] :].split()[0]
    quote = page[page.index("setting016") : starts[1] + len(last_word)]
    reworded = quote.replace("setting019", "setting999")

    result = locate(reworded, page, context=locate(quote, page).context)

    assert result.status == "drifted"
    assert [(c.op, c.quote, c.page) for c in result.changed_words] == [
        ("replace", "setting999", "setting019")
    ]
    assert result.current is not None and last_word in result.current


_SECTIONS = (
    "<main><h1>Consumers</h1><p>{lead}Each consumer acknowledges messages.</p>"
    "<h2>Push consumers</h2><p>Push consumers receive messages over HTTP.</p>"
    "<h2>Pull consumers</h2><p>Pull consumers fetch batches of messages.</p></main>"
)


def test_a_removed_sentence_never_drifts_into_the_next_heading() -> None:
    """A sentence's successor never runs into a section's heading: a passage that ends in
    a title, or begins with one, or crosses one, is no rewording of a sentence."""
    quote = "A subscription can deliver messages to push consumers or to pull consumers."
    page = prepare(extract_text(_SECTIONS.format(lead=""), "text/html"))

    found = locate(quote, page)

    assert found.status == "missing"
    assert found.closest is None or "Push consumers\n" not in found.closest


def test_a_quote_that_began_with_its_heading_may_keep_it() -> None:
    """A quote taken with the heading before its sentence keeps that heading's line."""
    page = prepare(extract_text(_SECTIONS.format(lead=""), "text/html"))
    found = locate("Push consumers Push consumers receive messages over plain HTTP.", page)

    assert found.status == "drifted"
    assert found.current is not None and found.current.startswith("Push consumers\n")


@pytest.mark.parametrize(
    ("quote", "body", "current"),
    [
        pytest.param(
            "The client supports two compression codecs: gzip and zstd.",
            "<p>The client supports two compression codecs.</p><ul><li>gzip</li><li>zstd</li></ul>",
            "The client supports two compression codecs.\ngzip\nzstd",
            id="a-list-after-its-lead-in",
        ),
        pytest.param(
            "Supported engines are RocksDB, LMDB and SQLite.",
            "<p>Three engines are supported.</p>"
            "<ul><li>RocksDB</li><li>LMDB</li><li>SQLite</li></ul>",
            "Three engines are supported.\nRocksDB\nLMDB\nSQLite",
            id="capitalised-items",
        ),
        pytest.param(
            "Set the region. The default region is us-east-1.",
            "<p>Set the region.</p><p>Default: us-east-1</p>",
            "Set the region.\nDefault: us-east-1",
            id="a-label-and-its-value",
        ),
    ],
)
def test_short_lines_that_are_no_headings_stay_in_a_successor(
    quote: str, body: str, current: str
) -> None:
    """Items of a list come in runs, and a "Label: value" line holds a colon: neither is
    a heading, and a successor runs on into them."""
    page = prepare(extract_text(f"<main><h1>Client</h1><p>Intro.</p>{body}</main>", "text/html"))
    found = locate(quote, page)
    assert found.status == "drifted"
    assert found.current == current


@pytest.mark.parametrize(
    "headings",
    [
        ("<h2>Push consumers</h2><h3>Delivery to push consumers</h3>", "<h2>Pull consumers</h2>"),
        ("<h2>Step 1: Push consumers</h2>", "<h2>Step 2: Pull consumers</h2>"),
    ],
    ids=["a-heading-and-its-subheading", "numbered-steps"],
)
def test_a_heading_beside_another_or_with_a_colon_is_still_a_heading(
    headings: tuple[str, str],
) -> None:
    first, second = headings
    html = (
        "<main><h1>Consumers</h1><p>Each consumer acknowledges messages.</p>"
        f"{first}<p>Push consumers receive messages over HTTP.</p>"
        f"{second}<p>Pull consumers fetch batches of messages.</p></main>"
    )
    quote = "A subscription can deliver messages to push consumers or to pull consumers."
    found = locate(quote, prepare(extract_text(html, "text/html")))
    assert found.status == "missing", found.current


_LEASE = "Requests time out within {} if the server is idle."


@pytest.mark.parametrize(
    ("quote", "was", "now", "changed"),
    [
        pytest.param("within 10 seconds", "10 seconds", "10s", False, id="seconds-as-s"),
        pytest.param("within 10s", "10s", "10 seconds", False, id="s-as-seconds"),
        pytest.param("within 5 minutes", "5 minutes", "5 min", False, id="minutes-as-min"),
        pytest.param("2 GB", "2 GB", "2GB", False, id="unit-joined"),
        pytest.param("2GB", "2GB", "2 GB", False, id="unit-set-apart"),
        pytest.param("1,000", "1,000 ms", "1000 ms", False, id="thousands-unseparated"),
        pytest.param("1000", "1000 ms", "1,000 ms", False, id="thousands-separated"),
        pytest.param("within 10 seconds", "10 seconds", "10 minutes", True, id="unit-changed"),
        pytest.param("2 GB", "2 GB", "2 TB", True, id="size-changed"),
        pytest.param("within 10s", "10s", "20s", True, id="figure-changed"),
    ],
)
def test_a_short_quote_of_a_quantity_written_otherwise_is_found_reworded(
    quote: str, was: str, now: str, changed: bool
) -> None:
    """ "within 10 seconds" and "within 10s" say one quantity: the page that writes it the
    other way has the quote reworded, not missing (it shared no word with it, where a
    changed unit shared the figure and was found)."""
    before, after = _LEASE.format(was), _LEASE.format(now)
    page_was = f"{_KEPT_BEFORE} {before} {_KEPT_AFTER}"
    read = locate(quote, page_was)
    assert read.status == "verified"

    result = locate(
        quote,
        f"{_KEPT_BEFORE} {after} {_KEPT_AFTER}",
        context=read.context,
        previous=prepare(page_was),
    )

    assert (result.status, result.current) == ("drifted", after)
    assert result.meaning_changed is changed, result.change_kinds
    assert result.meaning_uncertain is False, result.change_kinds
