"""Whether an element's own ``style`` attribute hides it, read as a browser reads the attribute.

Pure: a string in, a bool out.

The attribute is a list of declarations (``property: value``, ``;`` between them). A
comment is nothing; an escape (``non\\65``) is the character it stands for; a property is
named whole, so a custom property (``--x: display:none``) or a quoted font name hides
nothing; a later declaration of a property wins over an earlier one unless that one is
``!important``; and one whose value a browser does not know is dropped, leaving the
earlier one in force (``display: none; display: nonesuch`` stays hidden). A search of the
whole attribute for ``display: none`` read the first two as hiding and missed the last
three ways of writing it.
"""

from __future__ import annotations

import re

_COMMENT = re.compile(r"/\*.*?(?:\*/|\Z)", re.DOTALL)
_ESCAPE = re.compile(r"\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(.))", re.DOTALL)
_DECLARATION = re.compile(
    r"""(?:"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?|\([^()]*\)?|[^;"'(])+""", re.DOTALL
)
_IMPORTANT = re.compile(r"!\s*important\s*\Z")
_MAYBE_HIDES = re.compile(r"none|hidden|collapse|\\", re.IGNORECASE)

_GLOBAL = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
_DISPLAYS = """none block inline run-in flow flow-root table flex grid ruby list-item contents
    math inline-block inline-table inline-flex inline-grid table-row-group table-header-group
    table-footer-group table-row table-cell table-column-group table-column table-caption
    ruby-base ruby-text ruby-base-container ruby-text-container -webkit-box
    -webkit-inline-box -webkit-flex -webkit-inline-flex -ms-flexbox -ms-inline-flexbox
    -ms-grid -ms-inline-grid -moz-box -moz-inline-box -moz-inline-stack"""
"""The values of `display` a browser knows (a declaration of any other is dropped)."""
_KNOWN = {
    "display": _GLOBAL | frozenset(_DISPLAYS.split()),
    "visibility": _GLOBAL | {"visible", "hidden", "collapse"},
    "content-visibility": _GLOBAL | {"visible", "auto", "hidden"},
}
_HIDING = {
    "display": {"none"},
    "visibility": {"hidden", "collapse"},
    "content-visibility": {"hidden"},
}


def style_hides(style: str) -> bool:
    """Does this ``style`` attribute leave the element unshown (``display: none``,
    ``visibility: hidden`` or ``collapse``, ``content-visibility: hidden``)?"""
    if not _MAYBE_HIDES.search(style):
        return False  # most styles: no word that hides, and no escape that could spell one
    declared = _declared(style)
    return any(declared.get(name, "") in values for name, values in _HIDING.items())


def _declared(style: str) -> dict[str, str]:
    """The value in force of each property this module reads, as a browser settles it."""
    values: dict[str, tuple[str, bool]] = {}
    for match in _DECLARATION.finditer(_COMMENT.sub("", style)):
        name, colon, value = match.group().partition(":")
        name = _unescaped(name).strip().lower()
        if not colon or name not in _KNOWN:
            continue
        value = _unescaped(value).strip().lower()
        important = _IMPORTANT.search(value) is not None
        value = _IMPORTANT.sub("", value).strip()
        if not _known_value(name, value):
            continue  # a browser drops a declaration it cannot read
        if important or not values.get(name, ("", False))[1]:
            values[name] = (value, important)
    return {name: value for name, (value, _) in values.items()}


def _known_value(name: str, value: str) -> bool:
    """A value a browser accepts for the property: its own words, or one it works out
    later (``var()``), which hides nothing this module can tell."""
    return "var(" in value or (bool(value) and set(value.split()) <= _KNOWN[name])


def _unescaped(text: str) -> str:
    """CSS escapes resolved: ``\\65`` and ``\\e`` are the character they name."""

    def character(match: re.Match[str]) -> str:
        code = match.group(1)
        if code is None:
            return match.group(2)
        number = int(code, 16)
        return chr(number) if 0 < number <= 0x10FFFF and not 0xD800 <= number < 0xE000 else "\ufffd"

    return _ESCAPE.sub(character, text)
