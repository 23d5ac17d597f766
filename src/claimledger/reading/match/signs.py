"""Quantities written with signs: a comparison sign before a figure ("<10 ms", "≥ 3"),
a unit whose case tells bits from bytes ("Mb", "MB"), a power ("10^-6", "10⁻⁶", "1e-6"),
a range joined by a dash ("1-5"), a plus after a figure ("3+") and a currency's sign
("$5"), said in words or as the figures they are before a rewording is judged on them.

Pure. A word is letters and digits, so read as words "<10 ms" and ">10 ms" were both
"10 ms", the lower-cased "Mb" and "MB" both a megabyte, and "10^-6" and "10^6" both "10
6": a bound reversed, a size eight times another, or a rate a million million times
another, read as no change at all.
"""

from __future__ import annotations

import re
from decimal import Decimal

from claimledger.reading.match.lexicon import STOPWORDS, UNIT, words

_SIGNS = {
    "<": "less than",
    ">": "more than",
    "<=": "at most",
    ">=": "at least",
    "≤": "at most",
    "≥": "at least",
    "=<": "at most",
}
_SIGN = re.compile(r"(?<![<>=\w-])(<=|>=|=<|[<>≤≥])\s?(?=[~≈]?\d[\d,]*(?:\.\d+)?(?!\.?\d))")
"""A comparison sign before a figure, not inside an arrow or a tag ("->", "=>", "<b>"); not
before an address or a version of several dots ("> 0.0.0.0"), where ">" marks a
quoted line of Markdown as often as it compares."""

_APPROXIMATE = re.compile(r"(?<![\w~≈])[~≈]\s?(?=\d)")
"""A sign that says the figure after it is approximate ("~10 ms", "≈ 5"): "about", which
the words judge; dropped as punctuation, "~10 ms" -> "10 ms" read as no change."""

_BITS = re.compile(
    r"(?<![A-Za-z\d.,])(\d[\d.,]*\s?)?([KMGT]|k(?=b(?:ps|its?)))b(ps|its?)?(?![A-Za-z])"
)
"""A unit of bits as written with a capital prefix and a small "b" ("100 Mb", "10Gbps",
"1 Gbit"), or with SI's small kilo as a rate or in bits ("128 kbps"); a small prefix
alone ("100mb") is as often a size in bytes written carelessly.
Begun only where a figure begins, so that a long run of digits is read once, not once
from each of its digits."""


_POWER = re.compile(r"(?<![\w.^])(\d{1,9})\^([-+]?)((?:\^?\d){1,4})(?!\^?\d)")
"""A power written with a caret, as a superscript is normalised ("10^-6", "10⁻⁶" as
"10^-^6")."""
_SCIENTIFIC = re.compile(r"(?<![\w.])(\d+(?:\.\d+)?)[eE]([-+]?\d{1,4})(?!\w)")
"""A figure in scientific notation ("1e-6", "2.5E3"), not a hash or a hex figure."""
_MOST_DIGITS = 30
_MOST_BITS = 128
"""A power is written out only where its figure is at most this long (ten to the 30th,
two to the 128th): a longer one is left as written, whatever its exponent."""


def powers_as_figures(text: str) -> str:
    """The text with each power of ten, and each whole power of another base, written
    as the figure it is ("10^-6", "10⁻⁶" and "1e-6" as "0.000001", "2^10" as "1024"):
    its sign is no punctuation to drop, and one figure written two ways is one figure."""
    text = _POWER.sub(_power_said, text)
    return _SCIENTIFIC.sub(lambda run: _scaled(run[1], int(run[2])) or run[0], text)


def _power_said(run: re.Match[str]) -> str:
    base, exponent = int(run[1]), int(run[2] + run[3].replace("^", ""))
    if base == 10:
        return _scaled("1", exponent) or run[0]
    if exponent >= 0 and (base.bit_length() - 1) * exponent <= _MOST_BITS:
        return str(base**exponent)
    return run[0]


def _scaled(mantissa: str, exponent: int) -> str | None:
    """The figure `mantissa` times ten to `exponent`, written out; None for one too long."""
    if abs(exponent) > _MOST_DIGITS:
        return None
    return format(Decimal(mantissa).scaleb(exponent), "f")


_RANGE = re.compile(r"(?<![\w.,^-])(\d+(?:\.\d+)?)[-–](\d+(?:\.\d+)?)(?![\w-]|[.,]\d)")
"""A range of two figures joined by a dash ("1-5", "10–20"), not a date or a code of
more parts ("2024-10-06", "ISO-8859-1")."""


_PLUS = re.compile(r"(?<![\w.,^+-])(\d+(?:[.,]\d+)*)\+(?=\s+([A-Za-z]+))")
"""A figure with a plus after it, before a word ("3+ replicas"), not a sum ("1+1")."""


_MAGNITUDE_AFTER = r"((?:\s(?:thousand|million|billion|trillion)|[kKmMbB]n?)(?![\w$€£¥₹]))?"
"""A sum's magnitude after its figure ("5 million", "5M", "5bn")."""
_CODE = r"(USD|EUR|GBP|JPY|AUD|CAD|NZD|HKD|SGD|CHF|CNY|INR|SEK|NOK|DKK|MXN|BRL|ZAR|KRW)"
_CURRENCY = re.compile(
    r"(?<![\w$€£¥₹])(US\$|[$€£¥₹])\s?(\d[\d.,]*\d|\d)" + _MAGNITUDE_AFTER + r"(?![\w$€£¥₹])"
    r"(?:\s" + _CODE + r"\b)?"
)
"""A sum with its currency's sign before it ("$5", "€5 million", "US$5"), and the code of
its currency after it, if written too ("$5 USD")."""
_CURRENCIES = {"$": "dollars", "US$": "dollars", "€": "euros", "£": "sterling", "¥": "yen"}
_CURRENCIES |= {"₹": "INR"}  # a sign of one currency with no word of its own: its code
_CURRENCIES |= {"¢": "cents"}  # written after the sum only: "10¢"
_CURRENCY_AFTER = re.compile(r"(?<![\w$€£¥₹.,])(\d[\d.,]*\d|\d)\s?([€£¥₹¢])(?![\w$€£¥₹¢])")
"""A sum with its currency's sign after it ("5€", "5 €"), as much of Europe writes it,
or a sum in cents with the sign of a cent ("10¢"), which is no punctuation to drop:
"10 cents" -> "10¢" is the same sum."""
_CODED = re.compile(
    r"(?<![\w$€£¥₹])" + _CODE + r"\s?(\d[\d.,]*\d|\d)" + _MAGNITUDE_AFTER + r"(?![\w$€£¥₹])"
)
_CODED_AFTER = re.compile(
    r"(?<![\w$€£¥₹.,])(\d[\d.,]*\d|\d)" + _MAGNITUDE_AFTER + r"\s?" + _CODE + r"(?![\w$€£¥₹])"
)
"""A sum with the code of its currency before it or after it ("USD 5", "5 EUR")."""
_CODES = {"USD": "dollars", "EUR": "euros", "GBP": "sterling", "JPY": "yen"}
"""The codes of the currencies whose sign says one currency: "$" is read as the dollar
("$5" -> "CAD 5" is another sum), "£" as sterling, "¥" as the yen. A pound sterling is
no "pound", which weighs as often."""
_US_CENTS = re.compile(r"(?<![\w$€£¥₹.,])(\d[\d.,]*\d|\d)\s(?:USD|US)\s(cents?)\b")
"""A sum in cents with the dollar's code before "cents" ("5 USD cents", "5 US cents"):
cents, as "$" says the dollar, and no sum of dollars followed by a word."""
_POUNDS_STERLING = re.compile(r"\bpounds?\s+sterling\b", re.IGNORECASE)
"""A pound named sterling in words ("5 pounds sterling"): a sum in sterling, as "£5" is,
and no weight."""


def currencies_as_said(text: str) -> str:
    """The text with a sum written with its currency's sign or code said with its unit
    ("$5" and "USD 5" as "5 dollars", "$5 million" as "5 million dollars"): a sign is no
    word, so "$5" -> "€5" read as no change, and a code is a word the sign is not, so
    "$5" -> "USD 5" read as a name put in; and the unit goes after the sum's magnitude,
    which a unit between them parted from its figure ("$5 million" -> "$5 billion" read
    as only reworded). "Pounds sterling" is sterling, as "£" is, and "USD cents" cents."""
    text = _POUNDS_STERLING.sub("sterling", text)
    text = _US_CENTS.sub(r"\1 \2", text)
    text = _CURRENCY.sub(_signed_said, text)
    text = _CURRENCY_AFTER.sub(lambda run: f"{run[1]} {_CURRENCIES[run[2]]}", text)
    text = _CODED.sub(lambda run: f"{run[2]}{run[3] or ''} {_coded_unit(run[1])}", text)
    return _CODED_AFTER.sub(lambda run: f"{run[1]}{run[2] or ''} {_coded_unit(run[3])}", text)


def pounds_as_sterling(said: list[str], other: list[str]) -> list[str]:
    """The lower-cased words with "pounds" read as sterling where the other side's sum
    is in sterling ("£5" -> "5 pounds"), unless either side speaks of weight ("weighs 5
    pounds" -> "5 GBP"): a pound is sterling as often as it weighs, and a sum said in
    one of them may have changed, where "5 pounds (weight)" -> "5 GBP" has."""
    if not any(UNIT.get(word) == "sterling" for word in other):
        return said
    if _WEIGHT & {*said, *other}:
        return said
    return ["sterling" if UNIT.get(word) == "pound" else word for word in said]


_WEIGHT = words(
    """weigh weighs weighed weighing weight weights heavy heavier lighter mass lb lbs kg
    kilogram kilograms ounce ounces oz ton tons tonne tonnes"""
)
"""Words that say a pound is one of weight."""


def _signed_said(run: re.Match[str]) -> str:
    """ "$5 million" as "5 million dollars"; with a code after it ("$5 USD", "$5 CAD"),
    in the code's currency, which says which of the currencies that write the sign it
    is ("$5 CAD" is Canadian dollars, another sum than "$5")."""
    unit = _coded_unit(run[4]) if run[4] else _CURRENCIES[run[1]]
    return f"{run[2]}{run[3] or ''} {unit}"


def _coded_unit(code: str) -> str:
    """The unit a currency's code says: its sign's (`USD` as "dollars"), else itself."""
    return _CODES.get(code, code)


def pluses_as_said(text: str) -> str:
    """The text with a plus after a figure said as the bound it is ("3+ replicas" as "3
    or more replicas"): a plus is no word, so "3+ replicas" -> "3 replicas" read as no
    change. Only before the thing counted: "Java 8+" and "Node 18+ is required" bound a
    version, which "or later" says as often, and a bound does not read."""
    return _PLUS.sub(_plus_said, text)


def _plus_said(run: re.Match[str]) -> str:
    """ "3+ replicas" as "3 or more replicas"; before a grammar word or a magnitude ("3+
    million users") as written, which keeps the figure and its magnitude together."""
    following = run[2].lower()
    return run[0] if following in STOPWORDS or following in _MAGNITUDES else f"{run[1]} or more"


_MAGNITUDES = frozenset({"thousand", "million", "billion", "trillion", "k", "m", "bn"})


def ranges_as_said(text: str) -> str:
    """The text with each range of figures said with "to" ("1-5" as "1 to 5"): joined
    by its dash, a range is one word, so "1-5" -> "1-6" read as a name changed and "1-5"
    -> "1 to 5" as a number changed."""
    return _RANGE.sub(r"\1 to \2", text)


def signs_as_said(text: str) -> str:
    """The text with each comparison sign before a figure said as the bound it is ("<10
    ms" as "less than 10 ms", "≥ 3" as "at least 3"), and each unit of bits written as
    one ("100 Mb" as "100 Mbit", "10 Gbps" as "10 Gbit per s"), so that the bounds and
    the units are judged as their words are."""
    text = currencies_as_said(pluses_as_said(ranges_as_said(powers_as_figures(text))))
    text = _SIGN.sub(lambda sign: f"{_SIGNS[sign[1]]} ", text)
    text = _APPROXIMATE.sub("about ", text)
    return _BITS.sub(_bits_said, text)


def _bits_said(unit: re.Match[str]) -> str:
    rate = " per s" if unit[3] == "ps" else ""
    return f"{unit[1] or ''}{unit[2]}bit{rate}"
