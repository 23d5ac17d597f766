"""What is said alike, written alike: the forms a rewording may trade that say one thing
("24 hours" / "one day", "must" / "are required to", "append only" / "append-only", "a
single" / "one", "not required" / "optional"), so that the span's counts and a change's
words are compared on what they say.

Pure. On the lower-cased words of a span.
"""

from __future__ import annotations

from itertools import takewhile

from claimledger.reading.match.amounts import EVERY_ONE, in_base_units, said_of_a_doing
from claimledger.reading.match.lexicon import (
    CERTAINTY,
    CONSISTENCY,
    MODAL_STRENGTH,
    STOPWORDS,
    UNIT,
    Phrases,
    lemma,
    number_value,
)
from claimledger.reading.match.modals import lifted
from claimledger.reading.match.negations import correlative
from claimledger.reading.match.quantities import (
    RATES,
    bounds_as_said,
    grouped_digits,
    said_of_the_figure_from,
)


def hyphenated_as(words: list[str], other: list[str]) -> list[str]:
    """The words with two that the other side writes as one word joined as it does: by a
    hyphen ("append only" / "append-only"), or a name and its number run together ("iso
    8601" / "iso8601", "sha 256" / "sha256"): a hyphen put in is no quantifier taken out,
    and a name's number written apart is no figure that came."""
    written = set(other)
    joined: list[str] = []
    index = 0
    while index < len(words):
        pair = _as_one_word(words[index : index + 2], written)
        joined.append(pair or words[index])
        index += 2 if pair else 1
    return joined


def _as_one_word(pair: list[str], written: set[str]) -> str | None:
    """The two words as one word of `written`, hyphenated or (a name, then its number)
    run together; None if it has no such word."""
    if len(pair) != 2:
        return None
    hyphenated = "-".join(pair)
    if hyphenated in written:
        return hyphenated
    numbered = pair[0].isalpha() and pair[1][:1].isdigit()
    return "".join(pair) if numbered and "".join(pair) in written else None


def as_said(words: list[str]) -> list[str]:
    """The words with what is said alike written alike: an obligation a negation lifts as
    "optional", a phrase as the word it says ("a single" as "one", "at all times" as
    "always"), a figure's thousands set apart by spaces as one figure, a quantity in its
    base unit ("24 hours" / "one day"), a bound as the bound it says ("cannot exceed" /
    "at most"), a count of times a period as it is said with "a" ("twice daily" /
    "twice a day")."""
    read = in_base_units(lifted(phrases_alike(grouped_digits(words))))
    return bounds_as_said(_counted_per_period(read))


def rates_said_with_a(words: list[str], other: list[str]) -> list[str]:
    """The words with "a" after a count and the things counted as the "per" of the rate
    it says, where the other side says that rate there ("5 dollars a call" / "5 dollars
    per call", "for every call"). Elsewhere "a" there opens a phrase of its own as often
    ("After 5 failures a circuit breaker opens", "the 10 requests a client sends"), and
    after those given a thing it is one each ("Give 5 users a license"): read as written.
    Not after a figure alone ("in version 2 a flag was added"); "a" before a unit ("a
    day") is one of it, read first."""
    rated = {
        tuple(other[at : at + 2])
        for at in range(len(other) - 1)
        if _RATE_WORDS.intersection(other[at + 2 : at + 4])
    }
    return [
        "per" if word in {"a", "an"} and _a_rate_of(words, index, rated) else word
        for index, word in enumerate(words)
    ]


def _a_rate_of(words: list[str], index: int, rated: set[tuple[str, ...]]) -> bool:
    """Whether the "a" at `index` follows a count and the things counted that the other
    side says a rate of, and not those given a thing ("Give 5 users a license")."""
    counted = words[max(0, index - 2) : index]
    if not _counts_before(counted) or tuple(counted) not in rated:
        return False
    return counted[1] in UNIT or lemma(words[index - 3] if index > 2 else "") not in _GIVING


_RATE_WORDS = frozenset({"per", "each", "every"})
"""The words that say a rate after a count and the things counted ("5 dollars per call",
"for each call", "for every call")."""
_GIVING = frozenset({"give", "assign", "grant", "offer", "issue", "allocate", "award", "lend"})
"""Verbs whose count after them is of the ones given a thing: "Give 5 users a license"
gives each a license, "5 users per license" share one."""


def _counts_before(words: list[str]) -> bool:
    """A figure, then its unit or the plural it counts."""
    if len(words) != 2 or number_value(words[0]) is None:
        return False
    return words[1] in UNIT or (words[1].endswith("s") and lemma(words[1]) != words[1])


def _counted_per_period(words: list[str]) -> list[str]:
    """The words with "every", "per" or "each" left out between a count of times and the
    period it is counted in ("twice every day", "twice daily", "3 times per day" as
    "twice a day" and "3 times a day" are read: "twice 86400 seconds"). ("Once a day"
    and "once daily" are "every day", which `_PHRASES_ALIKE` says.)"""
    return [
        word
        for index, word in enumerate(words)
        if not (
            word in RATES
            and index > 0
            and words[index - 1] in _COUNTS
            and number_value(words[index + 1] if index + 1 < len(words) else "") is not None
        )
    ]


_COUNTS = frozenset({"twice", "thrice", "times"})
"""Words that count the times a thing is done in a period, before it ("twice a day")."""


_ALL_AS_A_SHARE = frozenset(
    {("100%", "of"), ("100", "percent", "of"), ("100", "per", "cent", "of")}
)
"""The phrases that say "all" as a share: "100% of requests" is all of them."""


_SIMULTANEOUSLY = frozenset(("at", "the", "same", noun) for noun in ("time", "moment"))
"""The phrases that say one moment the things share: "Both jobs run at the same time"."""


_PHRASES_ALIKE = Phrases(
    {
        ("a", "single"): ("one",),
        ("exactly", "one"): ("one",),
        ("just", "one"): ("only", "one"),
        ("more", "than", "one"): ("multiple",),
        ("at", "all", "times"): ("always",),
        ("at", "no", "time"): ("never",),
        ("the", "majority", "of"): ("most",),
        ("as", "well", "as"): ("and",),
        ("except", "when"): ("unless",),
        ("except", "if"): ("unless",),
        ("turn", "off"): ("disable",),
        ("turns", "off"): ("disables",),
        ("turned", "off"): ("disabled",),
        ("switch", "off"): ("disable",),
        ("switched", "off"): ("disabled",),
        ("turn", "on"): ("enable",),
        ("turns", "on"): ("enables",),
        ("turned", "on"): ("enabled",),
        ("have", "the", "ability", "to"): ("can",),
        ("has", "the", "ability", "to"): ("can",),
        ("every", "time"): ("whenever",),
        ("each", "time"): ("whenever",),
        ("a", "few"): ("several",),
        ("every", "single"): ("every",),
        ("each", "and", "every"): ("every",),
        ("at", "all"): (),
        ("most", "of", "all"): ("especially",),
        ("above", "all"): ("especially",),
        ("first", "of", "all"): ("first",),
        ("all", "in", "all"): ("overall",),
        ("not", "only"): ("also",),
        ("not", "just"): ("also",),
        ("not", "merely"): ("also",),
        ("for", "example"): ("e.g",),
        ("for", "instance"): ("e.g",),
        **dict.fromkeys(  # once, at one moment: "At one point, builds were slow"
            (("at", "one", noun) for noun in ("time", "point", "stage")), ("at", "once")
        ),
        **dict.fromkeys(_SIMULTANEOUSLY, ("simultaneously",)),  # "Both run at the same time"
        ("one", "time"): ("once",),
        ("1", "time"): ("once",),
        ("two", "times"): ("twice",),
        ("2", "times"): ("twice",),
        ("three", "times"): ("thrice",),
        ("3", "times"): ("thrice",),
        ("per", "cent"): ("percent",),  # "100 per cent": no "per" of a rate, a share
        **dict.fromkeys(_ALL_AS_A_SHARE, ("all",)),  # "100% of requests": all of them
        ("half", "a"): ("0.5",),
        ("half", "an"): ("0.5",),
        **{(word,): ("every", unit) for word, unit in EVERY_ONE.items()},  # "daily"
        **{
            ("once", joint, unit): ("every", unit)  # "once a day", "once per day": daily
            for unit in EVERY_ONE.values()
            for joint in ("a", "an", "per", "every", "each")
        },
        **{("once", word): ("every", unit) for word, unit in EVERY_ONE.items()},  # once daily
        **{
            (one, "time", joint, unit): ("every", unit)  # "1 time a day": once a day
            for one in ("one", "1")
            for unit in EVERY_ONE.values()
            for joint in ("a", "an", "per", "every", "each")
        },
        **{
            (one, "time", word): ("every", unit)
            for word, unit in EVERY_ONE.items()
            for one in ("one", "1")
        },
    }
)
"""Phrases that say what another word says: "a single partition" is "one partition"."""


def moments_counted(words: list[str], other: list[str]) -> list[str]:
    """The words with "a second" or "a minute" as one of it ("1 minute") where the other
    side counts time in figures ("wait a minute" / "wait 60 seconds"): beside a duration
    it is one; beside none ("wait a moment") it says a moment as often, and stays as
    written. Not before the thing it orders or qualifies ("a second replica")."""
    if not _counts_time(other):
        return words
    said = list(words)
    for index in range(len(said) - 1):
        following = said[index + 2] if index + 2 < len(said) else ""
        moment = said[index] in {"a", "an"} and said[index + 1] in _MOMENTS
        moment = moment and said[index - 1 : index] != ["half"]  # "half a second": 0.5 s
        if moment and (not following or following in STOPWORDS):
            said[index] = "1"
    return said


_MOMENTS = frozenset({"second", "minute"})
"""The units "a" says one of only beside a duration (the spans of `in_base_units` are
always one)."""


def eventually_as_a_moment(words: list[str], other: list[str]) -> list[str]:
    """The words with "eventually" as "at some point" where the other side names a moment
    so ("at some point", "at some time", "at some later stage") and says no "eventually":
    the one moment, unsaid which, both name. Not before a word of consistency
    ("eventually consistent"), a guarantee; nor where the other side names no such
    moment, so that "eventually" taken out is still a degree changed; nor where these
    words name as many themselves ("At some point the cache is cleared and eventually
    the job stops": the other side's "at some point" is the other clause's)."""
    if "eventually" not in words or "eventually" in other:
        return words
    moments = _moments_to_come(other)
    if len(moments) <= len(_moments_to_come(words)):
        return words
    read: list[str] = []
    for word, following in zip(words, [*words[1:], ""], strict=True):
        said = word == "eventually" and following not in CONSISTENCY
        read.extend(moments[0] if said else [word])
    return read


def _moments_to_come(words: list[str]) -> list[list[str]]:
    """Each moment the words name with "at some" as "eventually" does (`_to_come_at`)."""
    return [words[at : at + width] for at in range(len(words)) if (width := _to_come_at(words, at))]


def _to_come_at(words: list[str], index: int) -> int:
    """How many words at `index` name a moment with "at some" as "eventually" does: unsaid
    which ("at some point"), or only that it is to come ("at some later point"); none
    for one said which ("at some fixed time", "at some earlier point")."""
    if words[index : index + 2] != ["at", "some"]:
        return 0
    first, second = [*words[index + 2 : index + 4], "", ""][:2]
    if first in _MOMENT_NOUNS:
        return 3
    return 4 if first in _TO_COME and second in _MOMENT_NOUNS else 0


_TO_COME = frozenset({"later", "future"})
"""The words that say of the moment "at some" names only that it is to come."""


def _moment_cut_at(words: list[str], first: int) -> int:
    """How many words before `first` begin, with "at some", the moment "eventually" says
    that runs on past it ("At some | point", "At some later | point")."""
    low = [word.lower() for word in words[max(0, first - 3) : first + 2]]
    at = min(first, 3)
    return next((back for back in (2, 3) if back <= at and _to_come_at(low, at - back) > back), 0)


def names_a_moment(words: list[str]) -> bool:
    """A moment's noun next, or after one word that says which ("some later point")."""
    first, second = [*words[:2], "", ""][:2]
    return first in _MOMENT_NOUNS or (first not in STOPWORDS and second in _MOMENT_NOUNS)


_MOMENT_NOUNS = frozenset({"point", "time", "stage", "moment"})
"""The nouns "at one ..." or "at some ..." name one moment by."""


def _counts_time(words: list[str]) -> bool:
    """Whether the words say a figure of time ("60 seconds", "one minute", "500 ms")."""
    read = in_base_units(words)
    return any(
        word == "seconds" and index and number_value(read[index - 1]) is not None
        for index, word in enumerate(read)
    )


def phrase_cut_at(words: list[str], first: int, opening: str) -> int:
    """How many words before `first` belong to a phrase that says what one word says and
    runs on past it ("The majority | of users", "Turn | off TLS"), or to the moment "at
    some" names where the quote's `opening` word said it ("Eventually the job stops" ->
    "At some | point the job stops"): a span that starts at `first` cut it, and takes
    them in."""
    cut = _PHRASES_ALIKE.cut_at(words, first)
    return cut or (_moment_cut_at(words, first) if opening.lower() == "eventually" else 0)


def phrase_past_end(quote: list[str], page: list[str], end: int) -> int:
    """The span's end past the words that say what the quote's last word says ("twice"
    as "two times", "daily" as "every day", "simultaneously" as "at the same time", and
    after a count of times as "a day"),
    begun at its last word: they are the span's, not words a sentence that goes on
    appended. A span that ends on the page's own count of times ("twice daily" / "two
    times | a day") is read past it the same way."""
    if not quote or not end:
        return end
    count = _count_of_times([word.lower() for word in quote[-2:-1]])
    last = as_said([*count, quote[-1].lower()])
    for extra in (1, 2, 3):
        words = [word.lower() for word in page[end - 1 : end + extra]]
        if len(words) == extra + 1 and _says_at_end(count, words, last):
            return end + extra
    return end


def _says_at_end(count: list[str], words: list[str], last: list[str]) -> bool:
    """Whether `words`, read after the quote's count of times, say `last`; or, begun by a
    count of the page's own (the "times" of "two times", the "time" of "1 time"), the
    words after it do. "Eventually" is said by the moment "at some point" names."""
    last = eventually_as_a_moment(last, words)
    if as_said([*count, *words]) == last:
        return True
    counted = words[0] in _COUNTS or words[0] == "time"  # "two times", "1 time"
    return bool(count) and counted and as_said([*count, *words[1:]]) == last


def _both_ways(phrase: tuple[str, ...], after: list[str]) -> bool:
    """ "turned off/on": the phrase's particle, then the other one."""
    switches = {"on", "off"}
    return phrase[-1] in switches and after[:1] != [] and after[0] in switches


def phrases_alike(words: list[str]) -> list[str]:
    """The words with each phrase of `_PHRASES_ALIKE` as the word it says ("turned on/off"
    says both, and stays as written; "daily" is "every day" only where it is said of a
    doing, "runs daily", not of a kind of thing, "the daily limit")."""
    return _PHRASES_ALIKE.said(words, kept=_kept_as_written)


def said_by_a_phrase_cut(
    words: list[str], cut: tuple[int, int], other: list[str], there: tuple[int, int]
) -> list[str]:
    """The content words a phrase says that a change of only some of its function words,
    `words[cut]`, cut into, and that `other`, the other side, does not say there, around
    its own change `other[there]`: "the same" -> "some" of "at the same time" took
    "simultaneously". Read word by word, such a change took and put nothing that carries
    meaning. An article or a preposition traded ("for example" -> "as an example")
    leaves what the phrase says; a phrase put in or taken out whole, "most of all", is
    weighed as its words are."""
    start, end = cut
    reach = _PHRASES_ALIKE.longest - 1
    said: list[str] = []
    for index, width in _PHRASES_ALIKE.places(words, _kept_as_written, range(start - reach, end)):
        inside = range(max(index, start), min(index + width, end))
        if inside and len(inside) < width and _cuts_a_word_said(words, inside):
            phrase = tuple(words[index : index + width])
            said.extend(word for word in _PHRASES_ALIKE.table[phrase] if word not in STOPWORDS)
    if not said:
        return []
    said_there = set(phrases_alike(other[max(0, there[0] - reach) : there[1] + reach]))
    return [word for word in said if word not in said_there]


def _cuts_a_word_said(words: list[str], inside: range) -> bool:
    """Function words only, not all of them articles or prepositions ("the same")."""
    cut = [words[at] for at in inside]
    return all(word in STOPWORDS for word in cut) and not all(word in _INTRODUCING for word in cut)


_INTRODUCING = frozenset({"a", "an", "the", "for", "as", "of", "in", "at", "to", "by", "with"})
"""Articles and prepositions: traded, they leave what a phrase says ("for example" / "as
an example", "half a CPU" / "half the CPU")."""


def _kept_as_written(words: list[str], index: int, phrase: tuple[str, ...]) -> bool:
    after = words[index + len(phrase) :]
    return (
        _both_ways(phrase, after)
        or _denies_after_all(phrase, after)
        or _all_of_a_noun(phrase, after)
        or (len(phrase) == 1 and not said_of_a_doing(words, index))
        or (phrase in _ALL_AS_A_SHARE and _said_of_the_figure(words, index))
        or (phrase in _SIMULTANEOUSLY and _recurs(after))
    )


def _recurs(after: list[str]) -> bool:
    """Whether the words after "at the same time" say a period it comes back in ("every
    night", "each day", "daily"): then it is one hour of the clock, period after period,
    not one moment the things share."""
    first, second = [*after[:2], "", ""][:2]
    return first in EVERY_ONE or (first in {"each", "every"} and lemma(second) in _PERIODS)


_PERIODS = frozenset(
    {"minute", "hour", "day", "night", "morning", "evening", "week", "weekday", "month", "year"}
)
"""The periods a time of the clock recurs in ("at the same time every night")."""


def _said_of_the_figure(words: list[str], index: int) -> bool:
    """A bound or an approximation right before the figure at `index`: "under 100%" is
    less than all and "about 100%" maybe not all, so that the share stays a figure."""
    return said_of_the_figure_from(words, index) < index


def _all_of_a_noun(phrase: tuple[str, ...], after: list[str]) -> bool:
    """ "at all" before the things it counts, a plural ("at all points", "at all stages"),
    or a word or two said of them first ("at all log levels", "at all supported network
    boundaries"): every one of them, where "not at all", "not at all slow" and "no data
    at all" only stress a denial, and "at all costs" stresses how much a thing matters."""
    if phrase != ("at", "all"):
        return False
    for following in after[:3]:
        if following in STOPWORDS:
            return False
        if following.endswith("s") and lemma(following) != following:
            return following != "costs"
    return False


def stress_read_at_clause_ends(words: list[str], breaks: list[bool]) -> list[str]:
    """The words without each "at all" that ends its clause ("It does not help at all,
    users say"): read whole, as at the end of the words, it stresses the denial before
    it. The words past the comma are no things it counts, where "at all users" read
    across it is every user. `breaks` says before each word whether a clause ends there."""
    read: list[str] = []
    index = 0
    while index < len(words):
        if words[index : index + 2] == ["at", "all"] and breaks[index + 2 : index + 3] == [True]:
            index += 2
            continue
        read.append(words[index])
        index += 1
    return read


def _denies_after_all(phrase: tuple[str, ...], after: list[str]) -> bool:
    """ "not only" with no "but" after it: a restriction denied ("is not only for
    admins"), where "not only X but also Y" says X and Y (`negations.correlative`)."""
    return phrase[0] == "not" and not correlative([*phrase, *after], 0)


def said_alike(
    taken: list[str], put: list[str], before: list[str], after: list[str] | None = None
) -> bool:
    """Whether the words a change took and the words it put say one thing ("a minute" /
    "60 seconds", "must" / "are required to"), read after `before`, the words both sides
    say just before them, where those count times ("twice | daily" / "twice | a day"),
    and before `after`, the words both say just after them, where they are the unit they
    count ("a | dollar" / "1 | dollar") or the period a time recurs in ("at the same time
    | every night" is no "simultaneously | every night")."""
    read_on = _read_on(after or [])
    taken, put = eventually_as_a_moment(taken, put), eventually_as_a_moment(put, taken)
    counted = moments_counted(taken, put), moments_counted(put, taken)  # "a minute": 60 s
    count = _count_of_times(before)
    said = as_said(count + counted[0] + read_on), as_said(count + counted[1] + read_on)
    said = rates_said_with_a(said[0], said[1]), rates_said_with_a(said[1], said[0])
    return said_values(said[0]) == said_values(said[1])


def _read_on(after: list[str]) -> list[str]:
    """The words after a change that its words are read with: the unit they count, or the
    period a time of the clock recurs in."""
    return after[:1] if after[:1] and after[0] in UNIT else after[:2] if _recurs(after) else []


def said_first_by_both(words: list[str], other: list[str]) -> list[str]:
    """The words both begin with ("every night", after a change on both sides)."""
    pairs = takewhile(lambda pair: pair[0] == pair[1], zip(words, other, strict=False))
    return [word for word, _ in pairs]


def _count_of_times(before: list[str]) -> list[str]:
    """The last of the words, if it counts the times a thing is done ("twice"), else none."""
    return before[-1:] if before[-1:] and before[-1] in _COUNTS_OR_ONCE else []


_COUNTS_OR_ONCE = _COUNTS | {"once"}


def said_values(words: list[str]) -> list[str]:
    """The words as said (`as_said`), each number as its value ("1,000" and "one
    thousand" as 1000) and each modal as its strength, the verbs around it left out
    ("must" and "are required to")."""
    said = []
    for word in words:
        if word in MODAL_STRENGTH:
            said.append(f"modal {MODAL_STRENGTH[word]}")
        elif word in CERTAINTY:
            said.append(f"certainty {CERTAINTY[word]}")  # "typically" / "usually"
        elif word not in _AUXILIARIES:
            said.append(number_value(word) or word)
    return said


_AUXILIARIES = frozenset({"be", "is", "are", "was", "were", "to", "it", "you", "we", "that"})
"""Words a modal said another way brings with it ("you can" / "it is possible to")."""
