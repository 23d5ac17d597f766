"""JSON text fit to print: DEL and the C1 controls written as \\u escapes.

JSON may hold those characters raw, and a terminal shown them may obey them as commands
(a C1 CSI moves the cursor); escaped, the text is still the same JSON value. Every JSON
claimledger prints or writes goes through here, the report's and the commands' alike.
"""

from __future__ import annotations

import re

TERMINAL_CONTROLS = {code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)}
"""DEL and the C1 controls as JSON escapes, by code point (a `str.translate` table)."""

_TERMINAL_CONTROL = re.compile("[\x7f-\x9f]")


def without_terminal_controls(json_text: str) -> str:
    """`json_text` with DEL and the C1 controls escaped (one regex: `str.translate` walks
    megabytes of non-ASCII text many times slower)."""
    return _TERMINAL_CONTROL.sub(_escaped, json_text)


def _escaped(match: re.Match[str]) -> str:
    return TERMINAL_CONTROLS[ord(match.group())]
