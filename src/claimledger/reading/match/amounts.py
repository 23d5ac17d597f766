"""Quantities in their base unit: "24 hours" and "one day" as 86400 seconds, "1 GiB" and
"1024 MiB" as bytes, "daily" as every day, "10k" as 10000, so that a quantity said
another way is the same quantity.

Pure. On the lower-cased words of a span.
"""

from __future__ import annotations

import re
from fractions import Fraction

from claimledger.reading.match.lexicon import STOPWORDS, UNIT, figure_and_unit, number_value
from claimledger.reading.match.quantities import RATES, names_a_kind, sequencing

_IN_BASE_UNITS = {
    "nanosecond": (Fraction(1, 10**9), "second"),
    "microsecond": (Fraction(1, 10**6), "second"),
    "millisecond": (Fraction(1, 1000), "second"),
    "second": (Fraction(1), "second"),
    "minute": (Fraction(60), "second"),
    "hour": (Fraction(3600), "second"),
    "day": (Fraction(86400), "second"),
    "week": (Fraction(7 * 86400), "second"),
    "month": (Fraction(1), "month"),
    "year": (Fraction(12), "month"),
    "byte": (Fraction(1), "byte"),
    "kilobyte": (Fraction(10**3), "byte"),
    "megabyte": (Fraction(10**6), "byte"),
    "gigabyte": (Fraction(10**9), "byte"),
    "terabyte": (Fraction(10**12), "byte"),
    "kibibyte": (Fraction(2**10), "byte"),
    "mebibyte": (Fraction(2**20), "byte"),
    "gibibyte": (Fraction(2**30), "byte"),
    "tebibyte": (Fraction(2**40), "byte"),
    "kilobit": (Fraction(10**3), "bit"),
    "megabit": (Fraction(10**6), "bit"),
    "gigabit": (Fraction(10**9), "bit"),
    "terabit": (Fraction(10**12), "bit"),
    "cent": (Fraction(1, 100), "dollar"),
}
"""Each unit of time, size and money as a multiple of the one it is counted in: a day is
86,400 seconds and a year 12 months, but a month is no fixed number of days, so "30 days"
and "one month" stay two quantities. A cent is a hundredth of a dollar ("50 cents" is
"$0.50"), or of a euro where the words around it speak of euros (`_cent_of`)."""


def _cent_of(before: list[str], after: list[str]) -> str:
    """The currency a cent is a hundredth of: the one named last `before` it, the euro or
    the dollar ("€1 and 50 cents"); else one named `after` it with no sum of its own
    ("50 cents a call, billed in euros"); else the dollar, whose cents a sum in cents
    most often counts. Euros named after it with a sum are another sum's ("50 cents in
    the US and €1 in Europe")."""
    last = next((UNIT[word] for word in reversed(before) if UNIT.get(word) in _CENTS_OF), None)
    unsummed = (
        UNIT[word]
        for at, word in enumerate(after)
        if UNIT.get(word) in _CENTS_OF and (not at or number_value(after[at - 1]) is None)
    )
    return last or next(unsummed, "dollar")


_CENTS_OF = frozenset({"dollar", "euro"})


_MULTIPLIERS = {"hundred": 100, "thousand": 10**3, "million": 10**6, "billion": 10**9}


def in_base_units(words: list[str]) -> list[str]:
    """The words with each quantity written in its base unit ("24 hours" and "one day" as
    86400 seconds, "1 GiB" and "1024 MiB" as bytes, "one thousand" as 1000), so that a
    quantity said another way is the same quantity; other words as they are."""
    read: list[str] = []
    index = 0
    while index < len(words):
        value, unit, width = _quantity_at(words, index)
        if value is None:
            read.append(words[index])
            index += 1
            continue
        factor, base = _IN_BASE_UNITS.get(unit or "", (Fraction(1), unit))
        base = _cent_of(words[:index], words[index + width :]) if unit == "cent" else base
        amount = value * factor
        read.append(str(amount.numerator) if amount.denominator == 1 else str(float(amount)))
        read.extend([f"{base}s"] if base else [])  # "seconds": "second" may be an ordinal
        index += width
    return read


def _quantity_at(words: list[str], index: int) -> tuple[Fraction | None, str | None, int]:
    """The number at `index` (times a "thousand" after it), its unit if one follows, and
    how many words say them; (None, None, 1) where no number stands, or one with neither.
    A unit said alone is one of it ("a week", "every day": 1 week, every 1 day)."""
    if words[index] in {"a", "an"} and _one_after_a(words, index + 1):
        return Fraction(1), _ONE_OF.get(words[index + 1]) or UNIT[words[index + 1]], 2
    if index and words[index - 1] in RATES and _one_unit(words, index):
        return Fraction(1), UNIT[words[index]], 1
    if words[index] in EVERY_ONE and said_of_a_doing(words, index):
        return Fraction(1), EVERY_ONE[words[index]], 1  # "runs daily": every 1 day
    magnitude = _MAGNITUDE.fullmatch(words[index])
    if magnitude:  # "10k", "1M": a figure of thousands or millions
        return Fraction(magnitude[1]) * _MAGNITUDES[magnitude[2]], None, 1
    split = figure_and_unit(words[index])
    figure = split[0] if split else number_value(words[index])
    if figure is None or sequencing(words, index):
        return None, None, 1
    try:
        value = Fraction(figure.replace(",", ""))
    except (ValueError, ZeroDivisionError):
        return None, None, 1
    if split:
        return value, split[1], 1
    width = 1
    following = words[index + 1] if index + 1 < len(words) else ""
    if following in _MULTIPLIERS:
        value, width = value * _MULTIPLIERS[following], 2
        following = words[index + 2] if index + 2 < len(words) else ""
    unit = None if names_a_kind(words, index + width) else UNIT.get(following)
    if unit is None and value == 1:
        unit = _ONE_OF.get(following)  # "1 cent", "one cent"
    if unit is None and width == 1:
        return None, None, 1  # a figure alone stays as written: "1.10" is not "1.1"
    return value, unit, width + (unit is not None)


def _one_unit(words: list[str], index: int) -> bool:
    """A unit at `index` that says one of it after a rate ("every day", "per s"); never
    "second" before the thing it orders ("every second request")."""
    word = words[index] if index < len(words) else ""
    if word not in UNIT or word == "bit":
        return False
    following = words[index + 1] if index + 1 < len(words) else ""
    return word != "second" or not following or following in STOPWORDS


def _one_after_a(words: list[str], index: int) -> bool:
    """A unit "a" says one of: a span of a day or the like ("a week" is 7 days), a cent
    or a currency ("a dollar"), or any unit after a figure, as a rate ("100 a minute");
    not "wait a second", "a minute detail", which say a moment, or a small thing, as
    often."""
    word = words[index] if index < len(words) else ""
    if word in _SPANS or word in _ONE_OF or (word in _CURRENCIES and _a_sum(words, index)):
        return True
    return word in UNIT and index > 1 and number_value(words[index - 2]) is not None


def _a_sum(words: list[str], index: int) -> bool:
    """Whether the currency at `index` names a sum, not a kind of the thing after it ("a
    dollar sign", "a euro account"): no word that says something follows it, or one that
    says how often ("a dollar monthly")."""
    following = words[index + 1] if index + 1 < len(words) else ""
    named = following.isalpha() and following not in STOPWORDS and following not in UNIT
    return not named or following in EVERY_ONE


_CURRENCIES = frozenset({"dollar", "euro", "pound", "yen"})
"""Currencies spelt out, which "a" says one of where they name a sum ("costs a dollar" is
"$1")."""
_ONE_OF = {"cent": "cent"}
"""Units `UNIT` spells only in the plural, so that "per cent" is no rate of cents, and
whose singular after a count of one ("1 cent", "one cent", "a cent") is one of them:
"a cent" is "$0.01". ("Per cent" is "percent" before any count is read.)"""


def said_of_a_doing(words: list[str], index: int) -> bool:
    """Whether "daily" (or its kin) says how often a thing is done ("runs daily at noon"),
    not what kind of thing it is ("the daily limit", "daily builds"); after a count of
    times always ("Twice daily, backups run": the comma is no word)."""
    following = words[index + 1] if index + 1 < len(words) else ""
    if index and words[index - 1] in {"once", "twice", "thrice", "times"}:
        return True
    return not following or following in STOPWORDS or not following[0].isalnum()


_SPANS = frozenset({"hour", "day", "week", "month", "year"})
"""The units "a" says one of wherever it stands ("a week" is 7 days)."""
EVERY_ONE = {
    "hourly": "hour",
    "daily": "day",
    "weekly": "week",
    "monthly": "month",
    "yearly": "year",
    "annually": "year",
}
"""A word that says "every" and its unit at once: "daily" is every 1 day, so "daily" ->
"every day at noon" is no number changed, and "daily" -> "weekly" is one."""


_MAGNITUDE = re.compile(r"(\d+(?:\.\d+)?)([kK]|M)")
"""A figure with a magnitude's letter: "10k", "10K" (thousands), "1M" (millions, as
written: lower-cased, "1m" is a minute). A capital K is a resolution ("4K") or a
temperature now and then, but a rewording that writes either as thousands is none a
page makes: "8K connections" -> "8k" or "8,000" is the same number."""
_MAGNITUDES = {"k": 10**3, "K": 10**3, "M": 10**6}


def magnitudes_as_written(shown: list[str], low: list[str]) -> list[str]:
    """The lower-cased words with a figure of millions kept as written ("1M"), which
    lower-cased reads as a minute."""
    for index, word in enumerate(shown):
        if _MAGNITUDE.fullmatch(word) and word.endswith("M"):
            low[index] = word
    return low
