"""Quantities written with signs: a comparison sign before a figure ("<10 ms", "≥ 3"),
said in words before a rewording is judged on it.

Pure. A word is letters and digits, so read as words "<10 ms" and ">10 ms" were both
"10 ms": a bound reversed read as no change at all.
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


def signs_as_said(text: str) -> str:
    """The text with each comparison sign before a figure said as the bound it is ("<10
    ms" as "less than 10 ms", "≥ 3" as "at least 3"), so that the bounds are judged as
    their words are."""
    return _SIGN.sub(lambda sign: f"{_SIGNS[sign[1]]} ", text)
