"""Which of a page's elements a reader is shown: the rules the reader applies to an
element's own markup, wherever it is on the page and whatever a selector names.

Pure: elements in, bools out; no network, no disk, no clock.

Two kinds of hiding. One no element inside can undo (`hidden`, `display: none`; in an
SVG drawing `opacity` 0 too): the element and all in it are unseen (`is_unseen`,
`hidden_by_markup`; `Shown.removed`). And CSS
`visibility`, which each element inherits from the one around it and may set again: in
`<div style="visibility:hidden"><p style="visibility:visible">` a browser draws the
paragraph's words and none of the div's own. An SVG draws words only in a `<text>`, and
there where painted, which its elements say as they say visibility: a `<g fill="none">`
draws no text of its own, a `<tspan fill="black">` in it does. What an element passes
down to those in it is a `Shown`, worked out down the tree (`shown_inside`,
`passed_down`).

And which elements a browser lays out as blocks, breaking the line (`breaks_line`,
`starts_line`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import TypeVar

from lxml import etree

from claimledger.reading.inlinestyle import (
    attribute_value,
    style_declared,
    style_displays,
    style_hides,
    style_lays_out_block,
    style_undraws,
    style_visibility,
)

_Handed = TypeVar("_Handed")


def _names(text: str) -> frozenset[str]:
    return frozenset(text.split())


def is_unseen(element: etree._Element) -> bool:
    """Elements whose text no reader is shown, whatever a selector says: hidden ones (a
    tab not shown yet excepted, as the page read whole reads it), a closed `<dialog>`, and
    those never displayed. Not `<body>` or `<html>`, which a page hides only until its
    script shows it (against a flash of unstyled content), as the page read whole is read."""
    tag = element.tag
    if not isinstance(tag, str) or tag in NEVER_SHOWN:
        return True
    get = element.get
    if tag in ("html", "body"):
        return False
    if tag == "dialog":
        return get("open") is None
    return hidden_by_markup(element) and (get("role") or "").strip().lower() != "tabpanel"


def hidden_by_markup(element: etree._Element) -> bool:
    """Hidden by its own attributes (`hidden`, unless its style gives it a `display`, as
    `style_displays` reads it; a `display: none` style, as `style_hides` reads it),
    whatever a style sheet says; a tab panel so hidden is one click away, and a
    reader reads it, as a section `hidden="until-found"`, which the browser opens for a
    reader who searches the page for its words (as a closed `<details>`, read too)."""
    get = element.get
    hidden, style = get("hidden"), get("style") or ""
    shown_when_found = hidden is not None and hidden.lower() == "until-found"  # as written
    if hidden is not None and not shown_when_found and not style_displays(style):
        return True
    return style_hides(style)


NEVER_SHOWN = _names(
    """script style noscript template head title meta link del s strike noembed noframes
    video audio annotation annotation-xml desc canvas iframe defs symbol metadata clippath
    mask pattern marker meter progress datalist rp"""
)
"""Of the elements the page read whole drops, those whose text no reader sees (or sees
struck out); a source may select a `<nav>` or a `<footer>`, which a reader does see. A
`<canvas>`'s words are shown only without scripts, as a `<noscript>`'s; an `<iframe>`'s
never (it shows its page), nor a `<meter>`'s or a `<progress>`'s (it draws a bar), a
`<datalist>`'s or a ruby's `<rp>` (the brackets a browser without ruby shows); an SVG's
definitions (`<defs>`, `<symbol>`, a clip, a mask, a pattern, a marker) are drawn only
where used, and its `<metadata>` never."""


@dataclass(frozen=True, slots=True)
class Shown:
    """What an element passes down to the elements in it of what decides whether their own
    words are drawn: whether they are `visible` (CSS `visibility`, inherited); whether
    they are part of an SVG `drawing`, whose words are drawn only `in_text` (a `<text>`)
    and where painted: `filled` (a fill not `none`) and `fill_seen` (a `fill-opacity`
    above 0), or `stroked` (a stroke not `none`), `stroke_seen` (a `stroke-opacity` above
    0) and `stroke_wide` (a `stroke-width` above 0), each inherited; and whether all in it
    is `removed` (`display="none"` or an `opacity` of 0 in a drawing, which nothing inside
    undoes)."""

    visible: bool = True
    drawing: bool = False
    in_text: bool = False
    filled: bool = True
    fill_seen: bool = True
    stroked: bool = False
    stroke_seen: bool = True
    stroke_wide: bool = True
    removed: bool = False

    @property
    def words_drawn(self) -> bool:
        """Are the element's own words (its text, and the text after each child) drawn?"""
        if not self.visible or self.removed:
            return False
        if not self.drawing:
            return True
        filled = self.filled and self.fill_seen
        return self.in_text and (filled or (self.stroked and self.stroke_seen and self.stroke_wide))


PAGE = Shown()
"""What the page passes down to its root: all visible."""
REMOVED = Shown(visible=False, drawing=True, removed=True)
"""What an element of a drawing that draws nothing passes down: nothing drawn."""


def shown_inside(element: etree._Element, above: Shown) -> Shown:
    """What `element` passes down, given what the element around it passed (`above`): its
    own `visibility` if it says one, else the one it inherits; in a drawing, its paint too.
    `<html>` and `<body>` are read as shown, which a page hides only until its script
    shows it (against a flash of unstyled content), and a tab panel hidden so is one click
    away (`hidden_by_markup`)."""
    tag = element.tag
    if above.removed or not isinstance(tag, str):
        return above
    in_drawing = above.drawing or tag == "svg"
    if not in_drawing and element.get("style") is None:
        return above  # most elements: they say nothing of it
    visible = _visibility(element, in_drawing, above.visible)
    visible = above.visible if visible is None else visible
    if not in_drawing:
        return above if visible == above.visible else replace(above, visible=visible)
    return _drawn_inside(element, above, visible)


def _drawn_inside(element: etree._Element, above: Shown, visible: bool) -> Shown:
    """What an element of an SVG drawing passes down: nothing, where it says `opacity` 0
    (which dims all it holds) or `display="none"`, or is in a `<text>` and no part of its
    text (a `<g>` or another `<text>` there is not drawn); else its paint, where it says
    one (a `<tspan fill="black">` in a `<g fill="none">` is drawn). What a
    `<foreignObject>` holds is HTML, drawn as a page is."""
    tag = element.tag
    style = element.get("style") or ""
    display = (element.get("display") or "").strip().lower()
    if display == "none" or style_undraws(style) or _said(element, "opacity") == "0":
        return REMOVED
    if above.in_text and tag not in _TEXT_PARTS:
        return REMOVED
    return Shown(
        visible=visible,
        drawing=tag != "foreignobject",
        in_text=tag == "text" or above.in_text,
        filled=_painted(_said(element, "fill"), above.filled, initially=True),
        fill_seen=_above_zero(_said(element, "fill-opacity"), above.fill_seen),
        stroked=_painted(_said(element, "stroke"), above.stroked, initially=False),
        stroke_seen=_above_zero(_said(element, "stroke-opacity"), above.stroke_seen),
        stroke_wide=_above_zero(_said(element, "stroke-width"), above.stroke_wide),
    )


_TEXT_PARTS = _names("tspan textpath a")
"""The elements of a `<text>` that draw its words; a browser draws none of any other's."""


_INHERITS = frozenset({None, "inherit", "unset", "revert", "revert-layer"})
"""What an inherited property's value in force is, where it says it inherits, or none."""


def _above_zero(amount: str | None, inherited: bool) -> bool:
    """Is an opacity or a width above 0, where the element says `amount` (None to
    inherit)? Each is 1 initially, and `initial` says so."""
    return inherited if amount in _INHERITS else amount != "0"


def _painted(paint: str | None, inherited: bool, *, initially: bool) -> bool:
    """Does a fill or a stroke paint, where the element says `paint` (which may be None,
    to inherit)? `initial` is a fill's black and a stroke's none."""
    if paint in _INHERITS:
        return inherited
    return initially if paint == "initial" else paint != "none"


def _said(element: etree._Element, name: str) -> str | None:
    """The value an element of a drawing says of a property: its style's, or where its
    style says none, its presentation attribute's (`fill="none"`)."""
    style = element.get("style")
    value = style_declared(style).get(name) if style else None
    if value is None:
        written = element.get(name)
        value = attribute_value(name, written) if written else None
    return value


def _visibility(element: etree._Element, in_drawing: bool, inherited: bool) -> bool | None:
    """The element's own `visibility`: shown (True), hidden (False), or None where it
    inherits the one around it (says none, `inherit`, `unset`, `revert`), `inherited`.
    Its style says it, and in a drawing its presentation attribute, where its style says
    none. A hidden `<html>`, `<body>` or tab panel is read as shown (`shown_inside`)."""
    if in_drawing:
        value = _said(element, "visibility")
    else:
        value = style_visibility(element.get("style") or "", inherited_visible=inherited)
    if value in ("visible", "initial"):
        return True
    if value not in ("hidden", "collapse") or element.tag in ("html", "body"):
        return None
    return None if (element.get("role") or "").strip().lower() == "tabpanel" else False


def passed_down(elements: Iterable[etree._Element]) -> list[Shown]:
    """For each element, what the elements around it pass down to it."""
    return handed_down(elements, PAGE, shown_inside)


def handed_down(
    elements: Iterable[etree._Element],
    page: _Handed,
    inside: Callable[[etree._Element, _Handed], _Handed],
) -> list[_Handed]:
    """For each element, what its ancestors hand down to it: `page` at the top, and each
    element hands down what `inside` makes of itself and what was handed to it. Each
    ancestor is worked out once, however many of the elements it holds: a thousand
    `<article>`s nested, each asked of every ancestor, cost the square of the page's depth."""
    worked: dict[etree._Element, _Handed] = {}  # an element: what it hands down
    found = []
    for element in elements:
        chain, above = [], element.getparent()
        while above is not None and above not in worked:
            chain.append(above)
            above = above.getparent()
        handed = worked[above] if above is not None else page
        for ancestor in reversed(chain):
            handed = inside(ancestor, handed)
            worked[ancestor] = handed
        found.append(handed)
    return found


def breaks_line(element: etree._Element) -> bool:
    """Does a browser lay the element out as a block of its own, its words on lines of their
    own? Those its own style sheet makes blocks (a list item, a table's parts) unless their
    own style sets their words in the line (`<div style="display:inline">`; not one that
    makes it an `inline-block` box: `style_lays_out_block`); any other its own style makes
    a block (`<span style="display:block">`, a custom element so styled); a paragraph, a
    drawing, its `<text>` and what a `<foreignObject>` holds; and a formula's parts (each
    a box Chromium reads on a line of its own). Any other, a `<span>`, an SVG's `<tspan>`,
    a custom element (`<my-widget>`) or one no browser knows, runs on in the line, as a
    browser lays out an element it has no rule for."""
    tag = element.tag
    if tag in _OWN_LINES:
        return True
    style, by_kind = element.get("style"), tag in _BLOCKS
    return style_lays_out_block(style, by_kind=by_kind) if style else by_kind


def starts_line(element: etree._Element) -> bool:
    """Does the element's text start a line: one laid out as a block (`breaks_line`), or a
    drawing's `<tspan>` set at a place of its own (`x`, `y`), as a drawing tool writes each
    line of a label, the words after it running on from its own?"""
    if element.tag == "tspan":
        return element.get("x") is not None or element.get("y") is not None
    return breaks_line(element)


_BLOCKS = _names(
    """html body address article aside blockquote center details dialog dir div dl dd dt
    fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li
    listing main menu nav ol optgroup option plaintext pre search section summary ul xmp
    table caption colgroup col thead tbody tfoot tr td th select"""
)
"""The elements a browser's own style sheet lays out as blocks, where their style does not
say otherwise."""
_OWN_LINES = _names(
    """p svg text foreignobject
    math maction menclose merror mfenced mfrac mi mmultiscripts mn mo mover mpadded mphantom
    mprescripts mroot mrow ms mspace msqrt mstyle msub msubsup msup mtable mtd mtext mtr
    munder munderover semantics"""
)
"""A paragraph, and the parts of a drawing and of a formula, each read on lines of its own
as Chromium reads it (a paragraph and a drawing even where styled `display:inline`)."""
