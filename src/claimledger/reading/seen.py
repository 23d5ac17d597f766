"""Which of a page's elements a reader is shown: the rules the reader applies to an
element's own markup, wherever it is on the page and whatever a selector names.

Pure: elements in, bools out; no network, no disk, no clock.

Two kinds of hiding. One no element inside can undo (`hidden`, `display: none`): the
element and all in it are unseen (`is_unseen`, `hidden_by_markup`). And CSS
`visibility`, which each element inherits from the one around it and may set again: in
`<div style="visibility:hidden"><p style="visibility:visible">` a browser draws the
paragraph's words and none of the div's own. What an element passes down to those in it
is a `Shown`, worked out down the tree (`shown_inside`, `passed_down`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from lxml import etree

from claimledger.reading.inlinestyle import style_declared, style_hides


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
    """Hidden by its own attributes (`hidden`, a `display: none` style, as `style_hides`
    reads it), whatever a style sheet says; a tab panel so hidden is one click away, and a
    reader reads it, as a section `hidden="until-found"`, which the browser opens for a
    reader who searches the page for its words (as a closed `<details>`, read too)."""
    get = element.get
    hidden = get("hidden")
    shown_when_found = hidden is not None and hidden.lower() == "until-found"  # as written
    if hidden is not None and not shown_when_found:
        return True
    return style_hides(get("style") or "") or _drawing_hides(element)


NEVER_SHOWN = _names(
    """script style noscript template head title meta link del s strike noembed noframes
    video audio annotation annotation-xml desc canvas iframe defs symbol metadata clippath
    mask pattern marker"""
)
"""Of the elements the page read whole drops, those whose text no reader sees (or sees
struck out); a source may select a `<nav>` or a `<footer>`, which a reader does see. A
`<canvas>`'s words are shown only without scripts, as a `<noscript>`'s; an `<iframe>`'s
never (it shows its page); an SVG's definitions (`<defs>`, `<symbol>`, a clip, a mask, a
pattern, a marker) are drawn only where used, and its `<metadata>` never."""


def _drawing_hides(element: etree._Element) -> bool:
    """An element of an SVG drawing its own presentation attribute `display="none"` hides,
    as its style would: a `select` naming the drawing reads the words it draws, and none of
    these. (Its `visibility`, inherited, is read as an element's style's is: `Shown`.)"""
    if (element.get("display") or "").strip().lower() != "none":
        return False
    return element.tag == "svg" or any(a.tag == "svg" for a in element.iterancestors())


@dataclass(frozen=True, slots=True)
class Shown:
    """What an element passes down to the elements in it of what decides whether their own
    words are drawn: whether they are `visible` (CSS `visibility`, inherited), and whether
    they are part of an SVG `drawing` (whose `visibility` may be its attribute)."""

    visible: bool = True
    drawing: bool = False

    @property
    def words_drawn(self) -> bool:
        """Are the element's own words (its text, and the text after each child) drawn?"""
        return self.visible


PAGE = Shown()
"""What the page passes down to its root: all visible."""


def shown_inside(element: etree._Element, above: Shown) -> Shown:
    """What `element` passes down, given what the element around it passed (`above`): its
    own `visibility` if it says one, else the one it inherits. `<html>` and `<body>` are
    read as shown, which a page hides only until its script shows it (against a flash of
    unstyled content), and a tab panel hidden so is one click away (`hidden_by_markup`)."""
    tag = element.tag
    if not above.drawing and tag != "svg" and element.get("style") is None:
        return above  # most elements: they say nothing of it
    drawing = above.drawing or tag == "svg"
    if tag == "foreignobject":
        drawing = False  # what it holds is HTML, drawn as a page is
    visible = _visibility(element, drawing)
    if visible is None:
        visible = above.visible
    if visible == above.visible and drawing == above.drawing:
        return above
    return Shown(visible=visible, drawing=drawing)


def _visibility(element: etree._Element, drawing: bool) -> bool | None:
    """The element's own `visibility`: shown (True), hidden (False), or None where it
    inherits the one around it (says none, `inherit`, `unset`, `revert`). Its style says
    it, and in a drawing its presentation attribute, where its style says none. A hidden
    `<html>`, `<body>` or tab panel is read as shown (`shown_inside`)."""
    style = element.get("style")
    value = style_declared(style).get("visibility") if style else None
    if value is None and drawing:
        value = (element.get("visibility") or "").strip().lower()
    if value in ("visible", "initial"):
        return True
    if value not in ("hidden", "collapse") or element.tag in ("html", "body"):
        return None
    return None if (element.get("role") or "").strip().lower() == "tabpanel" else False


def passed_down(elements: Iterable[etree._Element]) -> list[Shown]:
    """For each element, what the elements around it pass down to it: each ancestor worked
    out once, however many of the elements it holds (as `_under_any` in extract.py)."""
    worked: dict[etree._Element, Shown] = {}  # an element: what it passes down
    found = []
    for element in elements:
        chain, above = [], element.getparent()
        while above is not None and above not in worked:
            chain.append(above)
            above = above.getparent()
        shown = worked[above] if above is not None else PAGE
        for ancestor in reversed(chain):
            shown = shown_inside(ancestor, shown)
            worked[ancestor] = shown
        found.append(shown)
    return found
