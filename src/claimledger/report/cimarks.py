"""A CI runner's command marks in text we print, and how each kind of output takes them
away without changing what it says.

GitHub's runner obeys `##[command]` anywhere in a line of a job's log (its older form,
still read; Azure Pipelines' is `##vso[`), and `::command::` at a line's start. A page's
or a ledger's words printed in a job could carry either. Terminal text breaks them with a
zero-width space (it reads the same); JSON and XML write the character that starts them
as an escape or a character reference, the same document.
"""

from __future__ import annotations

import re

_MARK = re.compile(r"#(#(?:vso)?\[)|^([ \t]*):(?=:)", re.MULTILINE)
"""A mark's first character: the `#` of `##[` (`##vso[`), or a line's leading `:` of `::`."""


def marks_replaced(text: str, hash_as: str, colon_as: str) -> str:
    """`text` with each mark's first character written `hash_as` (for `#`) or `colon_as`
    (for `:`)."""
    if "##" not in text and "::" not in text:
        return text
    return _MARK.sub(lambda m: hash_as + m[1] if m[1] is not None else m[2] + colon_as, text)


def text_marks_broken(text: str) -> str:
    """Terminal text, each mark broken by a zero-width space after its first character."""
    return marks_replaced(text, "#\u200b", ":\u200b")


def json_marks_escaped(json_text: str) -> str:
    """JSON text, each mark's first character as its `\\u` escape (no line of JSON we write
    begins with `::`: a string's newline is escaped)."""
    return marks_replaced(json_text, "\\u0023", "\\u003a")


def xml_marks_escaped(xml: str) -> str:
    """XML, each mark's first character as a character reference (`&#35;`, `&#58;`)."""
    return marks_replaced(xml, "&#35;", "&#58;")
