"""Whether an element's own ``style`` attribute hides it, read as a browser reads the attribute.

Pure: a string in, a bool (or the values it declares) out.

The attribute is a list of declarations, parsed by tinycss2 as a browser parses it: a
comment is nothing, an escape (``non\\65``) is the character it stands for, a property is
named whole (a custom property, ``--x: display:none``, or a quoted font name hides
nothing), a later declaration of a property wins over an earlier one unless that one is
``!important``, and one whose value a browser does not know is dropped, leaving the
earlier one in force (``display: none; display: nonesuch`` stays hidden). A search of the
whole attribute for ``display: none`` read the first two as hiding and missed the last
three ways of writing it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Mapping
from types import MappingProxyType

_MAYBE_HIDES = re.compile(r"none|hidden|collapse|\\", re.IGNORECASE)
_MAYBE_TURNS = {
    True: re.compile(r"hidden|collapse|\\", re.IGNORECASE),
    False: re.compile(r"visible|initial|\\", re.IGNORECASE),
}
"""By the visibility an element inherits (visible or not), the words that could turn it."""
_MAYBE_RELAYS = {
    False: re.compile(r"(?<![\w-])(?:block|flow|table|flex|grid|list-item)|-webkit-|\\", re.I),
    True: re.compile(r"inline(?!-)|contents|ruby|math|initial|unset|\\", re.I),
}
"""By whether an element's kind lays it out as a block, the words that could turn it."""
_MAYBE_UNDRAWS = re.compile(r"opacity|none|transparent|hidden|collapse|\\", re.IGNORECASE)
_NAMES_READ = re.compile(r"display|visibility|opacity|fill|stroke|\\", re.IGNORECASE)
_NOTHING: Mapping[str, str] = MappingProxyType({})

_GLOBAL = frozenset({"inherit", "initial", "unset", "revert", "revert-layer"})
_DISPLAYS = """none block inline flow flow-root table flex grid ruby list-item contents
    math inline-block inline-table inline-flex inline-grid table-row-group table-header-group
    table-footer-group table-row table-cell table-column-group table-column table-caption
    ruby-base ruby-text ruby-base-container ruby-text-container -webkit-box
    -webkit-inline-box -webkit-flex -webkit-inline-flex"""
"""The values of `display` a browser knows (a declaration of any other is dropped). Not
`run-in`, `-ms-flexbox` or `-moz-box`: no browser in use knows them, and Chromium leaves
`<b hidden style="display:-ms-flexbox">` hidden."""
_IN_THE_LINE = frozenset(
    {"inline", "inline-block", "inline-table", "inline-flex", "inline-grid"}
    | {"-webkit-inline-box", "-webkit-inline-flex", "contents", "math", "initial", "unset"}
    | {"ruby", "ruby-base", "ruby-text", "ruby-base-container", "ruby-text-container"}
)
"""The values of `display` that set an element's words in the line around it (`initial`
and `unset` are `inline`; `contents` gives it no box of its own, and `math` alone is
`inline math`); any other known, but a global word, lays out a block."""
_ATOMIC = frozenset(
    {"inline-block", "inline-table", "inline-flex", "inline-grid", "-webkit-inline-box"}
    | {"-webkit-inline-flex", "flow-root", "table", "flex", "grid"}
)
"""The words of a `display` that make an element a box of its own in the line
(`inline-block`, `inline flex`), whose words stay apart from those around it."""
_KNOWN = {
    "display": _GLOBAL | frozenset(_DISPLAYS.split()),
    "visibility": _GLOBAL | {"visible", "hidden", "collapse"},
    "content-visibility": _GLOBAL | {"visible", "auto", "hidden"},
}


@functools.lru_cache(maxsize=4096)
def style_hides(style: str) -> bool:
    """Does this ``style`` attribute leave the element, and all inside it, unshown
    (``display: none``, ``content-visibility: hidden``)? A ``visibility: hidden`` is not
    this: it hides the element's own words, and one inside it may say ``visible`` and be
    seen (`style_declared` says which). A page's elements share a few styles, each read
    once. One longer than any a page needs, that could hide, is taken to, and wholly:
    parsed, a megabyte of declarations took seconds."""
    if not _MAYBE_HIDES.search(style):
        return False  # most styles: no word that hides, and no escape that could spell one
    if len(style) > _LONGEST:
        return True
    declared = style_declared(style)
    return declared.get("display") == "none" or declared.get("content-visibility") == "hidden"


def style_displays(style: str) -> bool:
    """Does this ``style`` give its element a box over the ``display: none`` a browser's own
    style sheet gives an element marked ``hidden`` (``<div hidden style="display:block">``
    is shown)? Any ``display`` it declares does but ``none`` and ``revert-layer``, which
    Chromium leaves hidden (``revert`` it shows). One too long to read, or naming no
    ``display``, does not."""
    return style_declared(style).get("display") not in (None, "none", "revert-layer")


def style_lays_out_block(style: str, *, by_kind: bool) -> bool:
    """Does this ``style`` lay its element out as a block, on lines of its own
    (``<span style="display:block">``, ``flex``, ``list-item``, a table's row or cell), or in
    the line around it (``<div style="display:inline">``, ``inline-block``, ``contents``)?
    Where it says no ``display``, or one that leaves it to the element's kind (``inherit``,
    ``revert``), as its kind does (`by_kind`); and a block made a box in the line
    (``<div style="display:inline-block">``) keeps its lines, its words set apart from
    those beside it as its box is, where innerText runs them together: a line broken
    costs a quote across it nothing, two words read as one cost it both. Most of a page's
    styles name no word that could turn what the kind does (``<span
    style="display:inline-block">``) and are not parsed, as `style_visibility` leaves
    them."""
    if not _MAYBE_RELAYS[by_kind].search(style):
        return by_kind
    display = style_declared(style).get("display")
    if display is None or display in _GLOBAL - {"initial", "unset"}:
        return by_kind
    words = display.split()
    if "inline" not in words and ("block" in words or words[0] not in _IN_THE_LINE):
        return True
    return by_kind and not _ATOMIC.isdisjoint(words)


def style_visibility(style: str, *, inherited_visible: bool) -> str | None:
    """The ``visibility`` this style declares, as `style_declared` reads it, where it could
    turn the one inherited (to hidden, or back to visible); None where it declares none, or
    could not. Most of a page's styles name no word that could (``display: inline-block``)
    and are not parsed: 60,000 distinct ones, each parsed, took 1.9 s, where 0.4 s read
    the page before its words inside a hidden element were read."""
    if not _MAYBE_TURNS[inherited_visible].search(style):
        return None
    return style_declared(style).get("visibility")


@functools.lru_cache(maxsize=4096)
def style_undraws(style: str) -> bool:
    """Does this ``style``, on an element of an SVG drawing, leave it and all in it
    undrawn (``opacity: 0``)? One longer than any a page needs is taken to, where it could
    say so, or say its paint is none, as `style_hides` takes one that could hide."""
    if not _MAYBE_UNDRAWS.search(style):
        return False
    if len(style) > _LONGEST:
        return True
    return style_declared(style).get("opacity") == "0"


@functools.lru_cache(maxsize=4096)
def style_declared(style: str) -> Mapping[str, str]:
    """The value in force of each property this module reads (`display`, `visibility`,
    `content-visibility`, and a drawing's `opacity`, `fill`, `fill-opacity`, `stroke`,
    `stroke-opacity`, `stroke-width`), as a browser settles it; none for a style that
    names none of them, or is longer than any a page needs (so such a style never shows
    what an element around it hides). A paint is `none` (a colour wholly transparent too)
    or `paint`; an opacity or a width `0` (at most 0) or its number."""
    if len(style) > _LONGEST or not _NAMES_READ.search(style):
        return _NOTHING
    return MappingProxyType(_declared(style))


def _declared(style: str) -> dict[str, str]:
    """The value in force of each property this module reads, as a browser settles it."""
    import tinycss2

    values: dict[str, tuple[str, bool]] = {}
    for item in tinycss2.parse_declaration_list(style, skip_comments=True, skip_whitespace=True):
        if item.type != "declaration" or item.lower_name not in _READERS:
            continue
        value = _READERS[item.lower_name](item.lower_name, item.value)
        if value is None:
            continue  # a browser drops a declaration it cannot read
        if item.important or not values.get(item.lower_name, ("", False))[1]:
            values[item.lower_name] = (value, item.important)
    return {name: value for name, (value, _) in values.items()}


def _known_value(name: str, tokens: list[object]) -> str | None:
    """The value, where the property accepts it: one of its words (`none`), or for
    `display` two or three that say one box (`inline flex`, `block flow list-item`); None
    for any other (`block block`, `inherit block`, a number), which a browser drops, and
    for one it works out later (`var()`), which this module cannot: an earlier
    `display: none` stands, as it may in the browser."""
    shown = [token for token in tokens if getattr(token, "type", None) != "whitespace"]
    if not shown or any(getattr(token, "type", None) != "ident" for token in shown):
        return None
    words = [str(getattr(token, "lower_value", "")) for token in shown]
    if not set(words) <= _KNOWN[name] or len(set(words)) != len(words):
        return None
    alone = len(words) == 1
    if not alone and (name != "display" or len(words) > 3 or set(words) & _ALONE):
        return None
    return " ".join(words)


@functools.lru_cache(maxsize=1024)
def attribute_value(name: str, written: str) -> str | None:
    """An SVG presentation attribute (`fill="none"`, `opacity="0"`) read as the property it
    sets, as `style_declared` reads it; None for a value a browser drops, and for a global
    word other than `inherit`, which an attribute cannot say."""
    import tinycss2

    tokens = tinycss2.parse_component_value_list(written, skip_comments=True)
    value = _READERS[name](name, tokens)
    return None if value in _GLOBAL - {"inherit"} else value


def _alpha_value(name: str, tokens: list[object]) -> str | None:
    """An opacity: a number or a percentage, `0` for any at most 0 (as a browser clamps
    it), or a global word; None for any other, which a browser drops."""
    kind, value = _one_value(tokens)
    if kind == "global":
        return str(value)
    if kind not in ("number", "percentage") or not isinstance(value, int | float):
        return None
    amount = value / 100 if kind == "percentage" else value
    return "0" if amount <= 0 else f"{amount:g}"


def _paint_value(name: str, tokens: list[object]) -> str | None:
    """A fill's or a stroke's paint: `none` (or a colour wholly transparent, which paints
    as none: `transparent`, `rgba(0,0,0,0)`, `#0000`), a global word, or `paint` for any
    other colour, a `url()` or a function; None for a number or a string, dropped."""
    shown = [token for token in tokens if getattr(token, "type", None) != "whitespace"]
    if not shown:
        return None
    kind = getattr(shown[0], "type", None)
    if len(shown) == 1 and kind == "ident":
        word = str(getattr(shown[0], "lower_value", ""))
        if word == "none" or _transparent(shown[0]):
            return "none"
        return word if word in _GLOBAL else "paint"
    if len(shown) == 1 and _transparent(shown[0]):
        return "none"
    return "paint" if kind in ("hash", "function", "url") else None


def _transparent(token: object) -> bool:
    """Is the token a colour of alpha 0 (as a browser clamps it), which paints nothing?"""
    from tinycss2 import color4

    alpha = getattr(color4.parse_color(token), "alpha", None)
    return isinstance(alpha, int | float) and alpha <= 0


def _width_value(name: str, tokens: list[object]) -> str | None:
    """A stroke's width: `0` for none at all, its number for any other, or a global word;
    None for a negative one and for any not a number, a percentage or a length (its unit
    not checked), which a browser drops."""
    kind, value = _one_value(tokens)
    if kind == "global":
        return str(value)
    if kind not in ("number", "percentage", "dimension") or not isinstance(value, int | float):
        return None
    return None if value < 0 else f"{value:g}"


def _one_value(tokens: list[object]) -> tuple[str | None, object]:
    """The kind and value of a declaration's one token (`global` and the word for a global
    word); `(None, None)` where it holds none or more than one, which a browser drops."""
    shown = [token for token in tokens if getattr(token, "type", None) != "whitespace"]
    if len(shown) != 1:
        return None, None
    kind, value = getattr(shown[0], "type", None), getattr(shown[0], "value", None)
    word = str(getattr(shown[0], "lower_value", ""))
    return ("global", word) if kind == "ident" and word in _GLOBAL else (kind, value)


_READERS: dict[str, Callable[[str, list[object]], str | None]] = {
    **dict.fromkeys(_KNOWN, _known_value),
    "opacity": _alpha_value,
    "fill-opacity": _alpha_value,
    "fill": _paint_value,
    "stroke": _paint_value,
    "stroke-opacity": _alpha_value,
    "stroke-width": _width_value,
}
"""The properties this module reads, each with how it reads a value."""
_ALONE = _GLOBAL | {"none", "contents"}
"""Values of `display` said alone (a browser drops `none block`)."""
_LONGEST = 4096
"""Characters of a style attribute beyond which one that may hide is taken to."""
