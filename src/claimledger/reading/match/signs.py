"""Quantities written with signs: a comparison sign before a figure ("<10 ms", "≥ 3")
and a unit whose case tells bits from bytes ("Mb", "MB"), said in words before a
rewording is judged on them.

Pure. A word is letters and digits, so read as words "<10 ms" and ">10 ms" were both
"10 ms", and the lower-cased "Mb" and "MB" both a megabyte: a bound reversed, or a size
eight times another, read as no change at all.
"""

from __future__ import annotations

import re

_SIGNS = {
    "<": "less than",
    ">": "more than",
    "<=": "at most",
    ">=": "at least",
    "≤": "at most",
    "≥": "at least",
    "=<": "at most",
    "=>": "at least",
}
_SIGN = re.compile(r"(?<![<>=\w-])(<=|>=|=<|=>|[<>≤≥])\s?(?=[~≈]?\d[\d,]*(?:\.\d+)?(?!\.?\d))")
"""A comparison sign before a figure, not inside an arrow or a tag ("->", "<b>"); not
before an address or a version of several dots ("> 0.0.0.0"), where ">" marks a
quoted line of Markdown as often as it compares."""

_BITS = re.compile(r"(?<![A-Za-z\d.,])(\d[\d.,]*\s?)?([KMGT])b(ps|its?)?(?![A-Za-z])")
"""A unit of bits as written with a capital prefix and a small "b" ("100 Mb", "10Gbps",
"1 Gbit"); a small prefix ("100mb") is as often a size in bytes written carelessly.
Begun only where a figure begins, so that a long run of digits is read once, not once
from each of its digits."""


def signs_as_said(text: str) -> str:
    """The text with each comparison sign before a figure said as the bound it is ("<10
    ms" as "less than 10 ms", "≥ 3" as "at least 3"), and each unit of bits written as
    one ("100 Mb" as "100 Mbit", "10 Gbps" as "10 Gbit per s"), so that the bounds and
    the units are judged as their words are."""
    text = _SIGN.sub(lambda sign: f"{_SIGNS[sign[1]]} ", text)
    return _BITS.sub(_bits_said, text)


def _bits_said(unit: re.Match[str]) -> str:
    rate = " per s" if unit[3] == "ps" else ""
    return f"{unit[1] or ''}{unit[2]}bit{rate}"
