"""JSON text fit to print: indented as `json.dumps(indent=2)` writes it, with DEL, the C1
controls and the bidirectional controls written as \\u escapes.

JSON may hold those characters raw, and a terminal shown them may obey them as commands
(a C1 CSI moves the cursor), a viewer draw the text after a right-to-left override
backwards; escaped, the text is still the same JSON value. Every JSON claimledger prints
or writes goes through here, the report's and the commands' alike.
"""

from __future__ import annotations

import json
import re
from typing import Any

import orjson

from claimledger.report.bidi import BIDI_CLASS, BIDI_JSON_ESCAPES
from claimledger.report.cimarks import json_marks_escaped

TERMINAL_CONTROLS = {
    **{code: f"\\u{code:04x}" for code in range(0x7F, 0xA0)},
    **BIDI_JSON_ESCAPES,
}
"""DEL, the C1 controls and the bidirectional controls as JSON escapes, by code point (a
`str.translate` table)."""

_TERMINAL_CONTROL = re.compile(f"[\x7f-\x9f{BIDI_CLASS}]")


def without_terminal_controls(json_text: str) -> str:
    """`json_text` with DEL, the C1 and the bidirectional controls escaped (one regex:
    `str.translate` walks megabytes of non-ASCII text many times slower), and each `##[`
    (`##vso[`) written `\\u0023#[`, the same string, which a CI runner reading a job's output
    takes for no command (`report.cimarks`)."""
    return json_marks_escaped(_TERMINAL_CONTROL.sub(_escaped, json_text))


def _escaped(match: re.Match[str]) -> str:
    return TERMINAL_CONTROLS[ord(match.group())]


def indented_json(data: Any) -> str:
    """`json.dumps(data, indent=2, ensure_ascii=False)`, written by orjson: with an indent,
    `json` encodes in Python, most of the time of a big report's JSON and of a long
    `refresh --json`. The text differs only where orjson writes a float's exponent
    shorter (`1e-7` for `1e-07`), the same number. What orjson does not take (an int past
    64 bits, a key that is no str) goes to `json`, which says what it makes of it."""
    try:
        return orjson.dumps(data, option=orjson.OPT_INDENT_2).decode()
    except TypeError:  # orjson.JSONEncodeError is one
        return json.dumps(data, indent=2, ensure_ascii=False)
