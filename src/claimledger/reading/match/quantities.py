"""Quantities: numbers and their units, bounds on them, and the delivery guarantees
written as words, as a rewording is judged on them.

Pure. `10h` and `10 hours` are one quantity, `10 s` and `10 ms` two; "at least once" is
the term `at-least-once`, not a bound; "it first checks" orders steps and numbers
nothing, where "the first compaction" numbers one.
"""

from __future__ import annotations

import re
from collections import Counter

from claimledger.reading.match.lexicon import (
    CURRENCY_CODES,
    GUARANTEE_PHRASES,
    GUARANTEE_TERMS,
    MONEY_WORDS,
    ORDINAL_WORDS,
    STOPWORDS,
    UNIT,
    figure_and_unit,
    lemma,
    number_value,
)
from claimledger.reading.match.names import bare, is_participle

_SPLIT_INTO = 3
"""A word written as at most this many (`at-least-once` / `at least once`)."""


def split_last_word(quote: list[str], page: list[str], end: int) -> int:
    """The span's end past the words the quote's last word was split into (`at-least-once`
    as `at least once`, `10s` as `10 seconds`), which belong to the span, not to a
    sentence that goes on."""
    if not quote or not end:
        return end
    last = quote[-1]
    for extra in range(1, _SPLIT_INTO):
        words = page[end - 1 : end + extra]
        if len(words) < extra + 1:
            break
        split = figure_and_unit(last)
        if bare("".join(words)) == bare(last) or (split and split == _written_apart(words)):
            return end + extra
    return end


def _written_apart(words: list[str]) -> tuple[str, str] | None:
    """A figure and its unit as two words (`10 seconds`), as `figure_and_unit` gives them."""
    if len(words) != 2 or words[1].lower() not in UNIT:
        return None
    value = number_value(words[0])
    return (value, UNIT[words[1].lower()]) if value is not None else None


def quantity(words: list[str], index: int) -> list[str]:
    """The number and the unit a word gives (`10h`: 10 and hour; `seconds`: second; `3`:
    3). A unit's abbreviation counts only after a figure: "-h" is a flag, "a b" a list."""
    word = words[index]
    split = figure_and_unit(word)
    if split is not None:
        return list(split)
    if word in UNIT and _after_a_rate_or_figure(words, index):
        return [] if names_a_kind(words, index) else [UNIT[word]]  # "30 second": a unit
    if sequencing(words, index):
        return []
    month = _month(words, index)
    if month is not None:
        return [month]  # "by May 2027" -> "by June 2027": the date changed
    value = number_value(word)
    if value is not None:
        return [value]
    if word not in UNIT:
        return []
    spelt_out = len(word) > _UNIT_ABBREVIATION
    after_figure = index > 0 and any(ch.isdigit() for ch in words[index - 1])
    return [UNIT[word]] if spelt_out or after_figure else []


def names_a_kind(words: list[str], index: int) -> bool:
    """Whether the currency's code at `index` names a kind of the thing after it, not a
    sum ("Export 5 CAD files": drawings, where "5 CAD" alone is five Canadian dollars): a
    word that says something follows it, and no word of money stands near ("costs 5 CAD
    a seat", "a fee of 5 CAD per file" are sums)."""
    code, following = [*words[index : index + 2], "", ""][:2]
    if code not in CURRENCY_CODES or not following.isalpha() or following in STOPWORDS:
        return False
    near = words[max(0, index - _MONEY_REACH) : index + _MONEY_REACH + 1]
    return following not in UNIT and not any(lemma(word) in MONEY_WORDS for word in near)


_MONEY_REACH = 5
"""Words either side of a currency's code that a word of money makes it a sum from."""


def months_as_written(shown: list[str], low: list[str]) -> list[str]:
    """The lower-cased words with "May" kept as written where it is the month: capitalised
    beside a day or a year ("1 May 2027", "May 1, 2027", "May 2027"). Lower-cased, the
    month reads as the modal, and a date put in or written the other way round reads as
    a modal weakened; kept as written it binds nothing and is counted as a month."""
    for index, word in enumerate(shown):
        if word == "May" and _beside_a_date_figure(shown, index):
            low[index] = word
    return low


def names_a_month(words: list[str], index: int) -> bool:
    """Whether the word at `index` is a month's name, where it stands as one (`_month`)."""
    return _month(words, index) is not None


def _month(words: list[str], index: int) -> str | None:
    """The month a word names, where it stands as one: "May" kept as written (see
    `months_as_written`), another month's name beside a day or a year."""
    word = words[index]
    if word == "May":
        return "may"
    if word in _MONTHS and word != "may" and _beside_a_date_figure(words, index):
        return word
    return None


def _beside_a_date_figure(words: list[str], index: int) -> bool:
    beside = words[index - 1 : index] + words[index + 1 : index + 2]
    return any(_DATE_FIGURE.fullmatch(word) for word in beside)


_MONTHS = frozenset(
    {"january", "february", "march", "april", "may", "june", "july", "august"}
    | {"september", "october", "november", "december"}
)
_DATE_FIGURE = re.compile(r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?|1[89]\d\d|2\d\d\d")
"""A day of the month (`1`, `21st`) or a year (`1999`, `2027`) beside a month's name."""


def _after_a_rate_or_figure(words: list[str], index: int) -> bool:
    before = words[index - 1] if index else ""
    return before in RATES or any(ch.isdigit() for ch in before)


RATES = frozenset({"per", "every", "each"})
"""Words that make a rate of the unit after them ("per second", "every day")."""


def rates_as_said(text: str) -> str:
    """The text with each rate written with a slash said with "per" ("100 MB/s", "requests/
    second" as "100 MB per s", "requests per second"): a word is no slash, so read as
    words "MB/s" lost its rate, "100 MB per second" read as a changed number and
    "100 MB/min" as no unit changed. A path or an address (two slashes) is left whole."""
    return _SLASHED.sub(_rate_as_said, text)


def _rate_as_said(run: re.Match[str]) -> str:
    if run[0].count("/") > 1:
        return run[0]
    return _RATE_SLASH.sub(" per ", run[0])


_SLASHED = re.compile(r"(?<!\S)[^\s/]*\w/[^\s/]+(?:/\S*)?")
_UNITS_AFTER_A_SLASH = "|".join(
    sorted((re.escape(unit) for unit in UNIT if unit != "b"), key=len, reverse=True)
)
_RATE_SLASH = re.compile(rf"(?<=\w)/(?=(?:{_UNITS_AFTER_A_SLASH})(?![\w.-]\w|\w))", re.IGNORECASE)
"""A slash before a unit that ends the word ("/s", "/second"; not "/b", most often a path)."""


_UNIT_ABBREVIATION = 3
"""A unit written in at most this many letters (`ms`, `GiB`) is an abbreviation."""


def term_positions(words: list[str]) -> set[int]:
    """The positions of the words of each delivery guarantee written as words."""
    found: set[int] = set()
    for phrase in GUARANTEE_PHRASES:
        for index in range(len(words) - len(phrase) + 1):
            if tuple(words[index : index + len(phrase)]) == phrase:
                found.update(range(index, index + len(phrase)))
    return found


def grouped_digits(words: list[str]) -> list[str]:
    """The words with a round figure whose thousands are set apart by spaces ("100 000",
    as many style guides write it) read as one figure, "100000". Only groups of "000"
    join: the words carry no commas, and "128, 256 and 512" or "5 100 MB files" are
    figures apart."""
    joined: list[str] = []
    grouping = False  # the last word is a figure that a group of three digits may go on
    for word in words:
        if grouping and word == "000":
            joined[-1] += word
        else:
            joined.append(word)
            grouping = bool(_HEAD.fullmatch(word))
    return joined


_HEAD = re.compile(r"[1-9]\d{0,2}")
"""The first group of a figure: no leading zero ("001 002" are two codes)."""


def joined_terms(words: list[str]) -> list[str]:
    """The words with each delivery guarantee written as words ("at least once") as its
    one hyphenated term, so that both spellings are one term and neither is a bound."""
    return GUARANTEE_TERMS.said(words)


_COUNTED_AFTER = frozenset(
    {"the", "a", "an", "its", "their", "our", "your", "his", "her", "each", "every", "this"}
    | {"that", "and", "or", "nor"}
)


def sequencing(words: list[str], index: int) -> bool:
    """An ordinal that orders steps rather than numbering a thing ("it first checks",
    "First, stop the server"): no determiner or list before it, as "the first
    compaction" and "the first and second form" have."""
    if words[index] not in ORDINAL_WORDS:
        return False
    return not index or words[index - 1] not in _COUNTED_AFTER


_MORE = ("greater", "larger", "higher", "longer")
_LESS = ("smaller", "lower", "shorter")
_AMOUNTS = ("larger", "longer", "smaller", "shorter")
"""Comparatives that bound an amount after its figure ("24 hours or longer"); "or higher",
"or greater", "or later" and "or earlier" bound a version as often ("TLS 1.2 or higher"),
said as often in words ("the last version to support it was 2.2"), and are read as
words."""

_BOUND_WORDS = {"under": ("less", "than"), "below": ("less", "than")} | {
    "over": ("more", "than"),
    "above": ("more", "than"),
}
"""Prepositions that bound the figure right after them ("under 10 ms" is "<10 ms")."""
_OVER_A_SPAN = frozenset((word,) for word in _BOUND_WORDS)


def _spread(word: str) -> bool:
    """A word after which "over" or "under" places a thing on a span or among a number
    ("replicated over 3 nodes", "grouped under 3 namespaces"), where it bounds nothing."""
    return is_participle(word) or word in ("spread", "split", "across")


_LIMIT_PHRASES = (
    ("up", "to"),
    ("at", "most"),
    ("at", "least"),
    ("no", "more", "than"),
    ("no", "less", "than"),
    ("no", "fewer", "than"),
    ("more", "than"),
    ("less", "than"),
    ("fewer", "than"),
    ("as", "many", "as"),
    ("as", "much", "as"),
    ("a", "maximum", "of"),
    ("a", "minimum", "of"),
    ("max",),
    ("a", "max", "of"),
    ("a", "min", "of"),
    ("not", "more", "than"),
    ("not", "less", "than"),
    ("not", "fewer", "than"),
    ("cannot", "exceed"),
    ("can", "not", "exceed"),
    ("not", "exceed"),
    ("never", "exceed"),
    ("never", "exceeds"),
    ("limited", "to"),
    ("capped", "at"),
    *((word,) for word in _BOUND_WORDS),
    *((word, "than") for word in (*_MORE, *_LESS)),
    *(("no", word, "than") for word in (*_MORE, *_LESS)),
    *(("or", word) for word in (*_AMOUNTS, "more", "less", "fewer")),
)


_LONGEST_LIMIT = max(len(phrase) for phrase in _LIMIT_PHRASES)
LIMIT_WORDS = frozenset(
    {"up", "most", "least", "more", "less", "fewer", "many", "much", "maximum", "minimum", "max"}
)


def unbounded(words: list[str]) -> list[str]:
    """The words without those of bound phrases ("at most"), which are judged as bounds."""
    bound = bound_positions(words)
    return [word for index, word in enumerate(words) if index not in bound]


def bound_positions(words: list[str]) -> set[int]:
    """The positions of the words of every bound phrase ("a maximum of", "up to")."""
    return {index for _, start, end in _bounds(words) for index in range(start, end)}


def limits(words: list[str]) -> Counter[tuple[str, ...]]:
    """Bounds a span puts on a number ("up to 10 GB", "at most once"), each phrase read
    once, the longest first, as the bound it says ("up to", "as many as", "a maximum of"
    and "no more than" are "at most")."""
    return Counter(bounds_in_order(words))


def bounds_in_order(words: list[str]) -> list[tuple[str, ...]]:
    """The bounds of `limits`, in the order the span says them ("at most 10 and at least
    2" is not "at least 10 and at most 2")."""
    return [bound for bound, _, _ in _bounds(words)]


def _bounds(words: list[str]) -> list[tuple[tuple[str, ...], int, int]]:
    """Each bound phrase, as the bound it says, with where it starts and ends. "max" is one
    only before a number ("max 10 entries", not "the max value")."""
    found = []
    index = 0
    while index < len(words):
        phrase = None
        for candidate in _STARTING_WITH.get(words[index], ()):
            if tuple(words[index : index + len(candidate)]) == candidate:
                phrase = candidate
                break
        if len(phrase or ()) == 1 and not _before_a_number(words, index + 1):
            phrase = None
        if phrase in _OVER_A_SPAN and index and _spread(words[index - 1]):
            phrase = None  # "computed over 5 minutes", "grouped under 3 namespaces": no bound
        if phrase is not None and phrase[0] == "or" and not _bounds_its_figure(words, index):
            phrase = None  # "or longer", "or more" only right after a figure
        if phrase in _COMPARED and not _before_a_number(words, index + len(phrase)):
            phrase = None  # "longer than the timeout" compares, "longer than 30 s" bounds
        if phrase is None:
            index += 1
            continue
        bound, start = _SAME_BOUND.get(phrase, phrase), index
        denied = _denied_from(words, index) if bound in _FLIPPED else index
        if denied < index:
            bound, start = _FLIPPED[bound], denied
        if bound == ("at", "most"):
            start = _limit_from(words, start)
        found.append((bound, start, index + len(phrase)))
        index += len(phrase)
    return found


def bound_after(words: list[str], end: int) -> int:
    """Where a span ending at `end` ends with the bound that follows its figure ("24 hours |
    or longer"): the bound is the figure's, and is judged with it, not as words the page
    appended."""
    low = [w.lower() for w in words]
    phrase = tuple(low[end : end + 2])
    if phrase in _SAME_BOUND and phrase[0] == "or" and _bounds_its_figure(low, end):
        return end + 2
    return end


def bound_before(words: list[str], breaks: list[bool], first: int) -> int:
    """How many words before a span that begins with a figure at `first` bound it or say
    it is approximate ("Under | 100 requests", "About | 100 requests"), in its clause
    (`breaks`: before each word, whether a clause ends there; "The trial is over. |
    100 requests" is none): they are the figure's, and are judged with it, not as words
    the page put before the quote."""
    start = said_of_the_figure_from([w.lower() for w in words], first)
    return first - start if not any(breaks[start + 1 : first + 1]) else 0


def said_of_the_figure_from(words: list[str], index: int) -> int:
    """Where the bound phrase ("under", "up to") or the word of approximation ("about")
    said of the figure at `index` begins, right before it; `index` where none is."""
    figure = words[index] if index < len(words) else ""
    if number_value(figure) is None and not figure_and_unit(figure):
        return index
    if index and approximates(words, index - 1):
        return index - 1
    start = max(0, index - _LONGEST_LIMIT)
    ends = [(begins, end) for _, begins, end in _bounds(words[start : index + 1])]
    return next((start + begins for begins, end in ends if start + end == index), index)


def approximates(words: list[str], index: int) -> bool:
    """A word that says the figure after it is approximate ("about 10 ms", "roughly 5"):
    put in or taken out, it changes how exact the claim is, and one said for another
    ("roughly" -> "approximately") is the same."""
    word = words[index]
    following = words[index + 1] if index + 1 < len(words) else ""
    if word == "about" and index and lemma(words[index - 1]) in _OF_A_TOPIC:
        return False  # "learn about 3 ways": what it tells of, not how near a figure
    return word in _APPROXIMATING and bool(following[:1].isdigit() or number_value(following))


_APPROXIMATING = frozenset({"about", "around", "approximately", "roughly", "circa"})
_OF_A_TOPIC = frozenset(
    {"learn", "read", "know", "more", "talk", "think", "care", "ask", "hear", "tell", "write"}
)
"""Words after which "about" names what is told of ("read about 2 options")."""


def _bounds_its_figure(words: list[str], index: int) -> bool:
    """An "or more" at `index` that bounds the figure before it, not one that opens a
    phrase of its own ("30 seconds, or more precisely 30000 ms")."""
    following = words[index + 2] if index + 2 < len(words) else ""
    return _after_a_number(words, index) and not following.endswith("ly")


def _after_a_number(words: list[str], index: int) -> bool:
    """A figure, or a figure and its unit, right before `index` ("3 or more", "24 hours or
    longer")."""
    return any(number_value(w) is not None for w in words[max(0, index - 2) : index])


def _denied_from(words: list[str], index: int) -> int:
    """Where a negation of a comparison begins ("cannot have more than", "does not accept
    more than"), taking in its verb and the auxiliary before it; `index` when there is
    none. (A modal before it is the limit's: `_limit_from`.)"""
    for back in (1, 2):
        between = words[index - back + 1 : index]
        if index < back or words[index - back] not in _DENIALS:
            continue
        if all(w in _OF_AMOUNT for w in between):  # not "is not held, more than"
            start = index - back
            return start - 1 if start and words[start - 1] in _LIMITING else start
    return index


_COMPARED = frozenset(
    (*prefix, word, "than") for prefix in ((), ("no",)) for word in (*_MORE, *_LESS)
)
"""Comparisons that are bounds only before a figure."""

_DENIALS = frozenset({"not", "cannot", "never"})
_OF_AMOUNT = frozenset(
    {"be", "have", "accept", "allow", "take", "use", "hold", "store", "contain", "keep"}
    | {"retain", "send", "receive", "return", "run", "support", "spawn", "open", "create"}
)
"""Verbs, as they stand after a negation, between it and a comparison that deny the
amount ("cannot have more than", "does not accept more than"); any other word, or
another form ("is not held, more than one writer"), leaves the comparison its own."""
_LIMITING = frozenset({"does", "do", "is", "are", "will"})
_FLIPPED: dict[tuple[str, ...], tuple[str, ...]] = {
    ("more", "than"): ("at", "most"),
    ("less", "than"): ("at", "least"),
}
"""A comparison denied is a bound: "not more than 5" is "at most 5"."""


def _limit_from(words: list[str], index: int) -> int:
    """Where an upper bound begins, taking in the modal that states it as a limit, with
    the verb between ("can hold at most 5", "must be at most 5", "must not exceed 5" say
    the limit that "cannot exceed 5" says). "should" is advice, and stays a modal; before
    a lower bound a modal stays one ("may take more than 30 s" is no fact)."""
    for back in (1, 2):
        if index >= back and words[index - back] in _STATING_A_LIMIT:
            return index - back
    return index


_STATING_A_LIMIT = frozenset({"can", "could", "may", "must"})


def bounds_as_said(words: list[str]) -> list[str]:
    """The words with each bound phrase written as the bound it says ("cannot exceed",
    "is limited to", "can hold up to" as "at most")."""
    said: list[str] = []
    done = 0
    for bound, start, end in _bounds(words):
        said += [*words[done:start], *bound]
        done = end
    return [*said, *words[done:]]


def _before_a_number(words: list[str], index: int) -> bool:
    return index < len(words) and number_value(words[index]) is not None


def _by_first_word(phrases: tuple[tuple[str, ...], ...]) -> dict[str, list[tuple[str, ...]]]:
    """The phrases by their first word, the longest first (read as the longest they can)."""
    found: dict[str, list[tuple[str, ...]]] = {}
    for phrase in sorted(phrases, key=len, reverse=True):
        found.setdefault(phrase[0], []).append(phrase)
    return found


_STARTING_WITH = _by_first_word(_LIMIT_PHRASES)
_SAME_BOUND: dict[tuple[str, ...], tuple[str, ...]] = {
    ("up", "to"): ("at", "most"),
    ("as", "many", "as"): ("at", "most"),
    ("as", "much", "as"): ("at", "most"),
    ("a", "maximum", "of"): ("at", "most"),
    ("max",): ("at", "most"),
    ("a", "max", "of"): ("at", "most"),
    ("a", "min", "of"): ("at", "least"),
    ("a", "minimum", "of"): ("at", "least"),
    ("no", "more", "than"): ("at", "most"),
    ("not", "more", "than"): ("at", "most"),
    ("not", "less", "than"): ("at", "least"),
    ("not", "fewer", "than"): ("at", "least"),
    ("no", "less", "than"): ("at", "least"),
    ("no", "fewer", "than"): ("at", "least"),
    **dict.fromkeys((p for p in _LIMIT_PHRASES if p[-1] in {"exceed", "exceeds"}), ("at", "most")),
    ("limited", "to"): ("at", "most"),
    ("capped", "at"): ("at", "most"),
    ("fewer", "than"): ("less", "than"),
    **{(word,): bound for word, bound in _BOUND_WORDS.items()},
    **{(word, "than"): ("more", "than") for word in _MORE},
    **{(word, "than"): ("less", "than") for word in _LESS},
    **{("no", word, "than"): ("at", "most") for word in _MORE},
    **{("no", word, "than"): ("at", "least") for word in _LESS},
    **{("or", word): ("at", "least") for word in ("more", "larger", "longer")},
    **{("or", word): ("at", "most") for word in ("less", "fewer", "smaller", "shorter")},
}


def numbers_differ(before: dict[str, Counter[str]], after: dict[str, Counter[str]]) -> bool:
    """A number changed: different values on both sides, or a figure (not a number word,
    which is often a pronoun, "one should", or points back, "either of the two") that came
    or went."""
    if before["number"] == after["number"]:
        return False
    if before["number"] and after["number"]:
        return set(before["number"]) != set(after["number"])
    return bool(before["figure"] or after["figure"])


def counts(words: list[str]) -> Counter[str]:
    """The values that count something: figures ("3", "10h"), and number words before the
    thing counted ("three guarantees"), unless they point back ("either of the two
    pages") or stand for a person ("one should")."""
    found: Counter[str] = Counter()
    for index, word in enumerate(words):
        value = number_value(word)
        if value is None or sequencing(words, index):
            continue
        before = words[index - 1] if index else ""
        after = words[index + 1] if index + 1 < len(words) else ""
        counting = after not in STOPWORDS and before not in _POINTING_BACK
        if any(c.isdigit() for c in word) or counting:
            found[value] += 1
    return found


_POINTING_BACK = frozenset({"the", "these", "those", "its", "their", "our", "your"})


def numbers_swapped(q_low: list[str], p_low: list[str]) -> bool:
    """The same numbers in the same frame, in another order ("step 1 without step 2" ->
    "step two without step one"): what each number counts changed. A clause that moved
    with its number ("for 30 s, ... 128 objects" -> "128 objects ... for 30 s") moves its
    frame too, and is no swap."""
    was, now = _numbered(q_low), _numbered(p_low)
    if len(was) < 2 or was == now:
        return False
    values = ([v for _, v in was], [v for _, v in now])
    frames = ([f for f, _ in was], [f for f, _ in now])
    return (
        values[0] != values[1] and sorted(values[0]) == sorted(values[1]) and frames[0] == frames[1]
    )


def _numbered(words: list[str]) -> list[tuple[str, str]]:
    """Each number of a span, in order, with the word before it (what it is a number of)."""
    found = []
    for index, word in enumerate(words):
        value = number_value(word)
        if value is not None:
            found.append((lemma(words[index - 1]) if index else "", value))
    return found


def times_differ(was: list[str], now: list[str]) -> bool:
    """How many times a thing is done changed ("retried twice" -> "retried once", "two
    times" as "twice"): only where both sides say a count of times, for "think twice" ->
    "think carefully" and "twice the delay" -> "double the delay" say the same."""
    before, after = _times(was), _times(now)
    return bool(before and after) and before != after


def _times(words: list[str]) -> Counter[str]:
    """The counts of times a span says: "twice", "thrice", and "once" where it opens no
    clause ("once the write completes", "Once installed"), or said as "every" and a
    period ("once a day" is read "every day", as "daily" is: "twice a day" is another
    count)."""
    found: Counter[str] = Counter()
    for index, word in enumerate(words):
        following = words[index + 1] if index + 1 < len(words) else ""
        opens = word == "once" and (not index or following in _OPENING_A_CLAUSE)
        if word in _TIMES_SAID and not opens:
            found[word] += 1
        elif word == "every" and _every_period(words, index):
            found["once"] += 1
    return found


def _every_period(words: list[str], index: int) -> bool:
    """An "every" that says once a period ("every day", read "every 86400 seconds"), not
    one after its count ("twice every day")."""
    following = words[index + 1] if index + 1 < len(words) else ""
    period = following in UNIT or number_value(following) is not None
    return period and words[index - 1 : index] not in ([w] for w in _TIMES_SAID)


_TIMES_SAID = frozenset({"once", "twice", "thrice"})
_OPENING_A_CLAUSE = frozenset(
    {"the", "a", "an", "it", "you", "we", "they", "he", "she", "i", "this", "that", "these"}
    | {"those", "all", "your", "its", "their", "our", "my", "there", "both", "any", "some"}
)
"""Words after "once" that open the clause it makes a condition of ("once the write
completes", "once you restart"); after a count of "once" stand others ("once per run",
"once in a row", "once 86400 seconds" as "once a day" is said)."""
