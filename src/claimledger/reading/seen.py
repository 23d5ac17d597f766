"""Which of a page's elements a reader is shown: the rules the reader applies to an
element's own markup, wherever it is on the page and whatever a selector names.

Pure: an element in, a bool out; no network, no disk, no clock.
"""

from __future__ import annotations

from lxml import etree

from claimledger.reading.inlinestyle import style_hides


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
    """An element of an SVG drawing its own presentation attributes hide (`display="none"`,
    `visibility="hidden"`), as its style would: a `select` naming the drawing reads the
    words it draws, and none of these."""
    display = (element.get("display") or "").strip().lower()
    visibility = (element.get("visibility") or "").strip().lower()
    if display != "none" and visibility not in ("hidden", "collapse"):
        return False
    return element.tag == "svg" or any(a.tag == "svg" for a in element.iterancestors())
