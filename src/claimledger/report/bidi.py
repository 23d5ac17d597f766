"""Bidirectional controls, shown rather than obeyed.

A right-to-left override (U+202E) in a quote makes a terminal, a browser or GitHub draw
the words after it backwards: "allowed ‮ton" reads as "allowed not" and the text says
the opposite of what it looks like (CVE-2021-42574, "Trojan Source"). The embeddings
and overrides (U+202A-U+202E), the isolates (U+2066-U+2069) and the marks (U+200E,
U+200F, U+061C) change nothing a reader should not see, so wherever claimledger shows
text from a page or a ledger (the terminal, the Markdown and HTML reports, GitHub) each
is replaced by a visible marker, `⟨U+202E⟩`; JSON writes it as its `\\u202e` escape,
the same value in text that no viewer reorders.
"""

from __future__ import annotations

import re

BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
"""The characters that steer the bidirectional algorithm (Unicode's Bidi_Control)."""

BIDI_CLASS = "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
"""`BIDI_CONTROLS` as the inside of a regular expression's [character class]."""

_BIDI = re.compile(f"[{BIDI_CLASS}]")

BIDI_MARKERS = {ord(char): f"⟨U+{ord(char):04X}⟩" for char in BIDI_CONTROLS}
"""Each control's visible marker, by code point (a `str.translate` table)."""

BIDI_JSON_ESCAPES = {ord(char): f"\\u{ord(char):04x}" for char in BIDI_CONTROLS}
"""Each control as a JSON string escape, by code point."""


def bidi_marked(text: str) -> str:
    """`text` with each bidirectional control replaced by its visible marker."""
    if text.isascii() or _BIDI.search(text) is None:  # nearly all text: nothing to do
        return text
    return text.translate(BIDI_MARKERS)


def has_bidi(text: str) -> bool:
    return not text.isascii() and _BIDI.search(text) is not None
