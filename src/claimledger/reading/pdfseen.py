"""A PDF page's text as a viewer shows it: text drawn so that no reader sees it is no
evidence of what the page says.

A content stream can draw text that is in the PDF's text but on no screen and no paper:
in an invisible rendering mode (``3 Tr``, ``7 Tr``), at a size of nothing (``0 Tf``,
``0 Tz``), off the page, clipped away, or in a layer (optional content) that is off when
the document opens. pypdf reads it all, and joins text on one baseline into one run, so
the page's own content stream is rewritten, in memory, without the operators that show
such text, before its text is read (as `pdf._with_word_spacing_as_offsets` rewrites it);
each form XObject it draws is judged in the state it is drawn in (`pdfforms`).

Text painted wholly transparent (an ``ExtGState``'s ``/ca 0``) is as unseen as text in
an invisible mode. A scanned page made searchable (OCR) draws the scan as an image and
its recognised text invisibly over it: that text is what the image shows, so invisible
text stays on a page that paints images over at least `SCAN_SHARE` of it. Form
XObjects drawn in a layer that is off, or wholly off the page or clipped away, are left
out whole.

White text is unseen on a page that paints nothing but text (so nothing is under it but
the white paper); on a page that paints anything (a coloured banner, a picture, a form
that paints one) it stays, since what is under it is not worked out.

Conservative throughout: text is left out only when it is surely unseen (its extent is
over-estimated, as glyph widths are not measured), so an ordinary page reads as before.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pypdf import PageObject

Matrix = tuple[float, float, float, float, float, float]
Box = tuple[float, float, float, float]
"""Left, bottom, right, top, in default user space (points)."""
Operation = tuple[Any, bytes]

IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
EVERYWHERE: Box = (-math.inf, -math.inf, math.inf, math.inf)
"""The page box of a page without one: no text is off it."""
INVISIBLE_MODES = frozenset({3, 7})
"""Text rendering modes that paint nothing: neither fill nor stroke (7 adds to the clip)."""
LEGIBLE = 1.0
"""The least height and width, in points, of a glyph a reader can see; and of a clip."""
GLYPH_EMS = 1.5
"""The most a glyph is taken to advance, in ems, when a run's extent is estimated."""
SCAN_SHARE = 0.5
GRID = 32
"""The cells along each side of the page its images' coverage is counted in."""
LETTER = 792.0
"""The longer side of a letter page, in points: glyphs are judged legible against it."""
"""Images over at least this share of the page (each spot counted once) make it a scan,
its invisible text OCR."""
GAP: Operation = ([-2000], b"TJ")
"""What a left-out run leaves behind: a word gap (pypdf reads a large TJ offset as a
space), so that the text either side of it does not join into one word."""

_SHOWS = frozenset({b"Tj", b"TJ", b"'", b'"'})
_PATH_POINTS = {b"m": 1, b"l": 1, b"c": 3, b"v": 2, b"y": 2}
_PAINTS = frozenset({b"n", b"f", b"F", b"f*", b"S", b"s", b"B", b"B*", b"b", b"b*"})
_FILL_ONLY = frozenset({b"f", b"F", b"f*"})
_COLOURS = {b"g": 1, b"rg": 3, b"k": 4, b"G": 1, b"RG": 3, b"K": 4}
"""Colour operators of the device colour spaces, and how many components each takes."""
_SPACES = {"/DeviceGray": 1, "/DeviceRGB": 3, "/DeviceCMYK": 4, "/G": 1, "/RGB": 3, "/CMYK": 4}
WHITE = 0.98
"""A colour at least this light in every component (this dark in CMYK's) is white."""
FILLS, STROKES = frozenset({0, 2, 4, 6}), frozenset({1, 2, 5, 6})
"""Text rendering modes that fill the glyphs, and those that stroke them."""


def _times(m: Matrix, n: Matrix) -> Matrix:
    """``m`` then ``n``: the product of two PDF matrices, row vectors on the left."""
    a, b, c, d, e, f = m
    return (
        a * n[0] + b * n[2],
        a * n[1] + b * n[3],
        c * n[0] + d * n[2],
        c * n[1] + d * n[3],
        e * n[0] + f * n[2] + n[4],
        e * n[1] + f * n[3] + n[5],
    )


def _moved(x: float, y: float) -> Matrix:
    return (1.0, 0.0, 0.0, 1.0, x, y)


def _bounds(points: list[tuple[float, float]], m: Matrix) -> Box:
    """The box round `points` mapped through `m`."""
    xs = [x * m[0] + y * m[2] + m[4] for x, y in points]
    ys = [x * m[1] + y * m[3] + m[5] for x, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def _meet(one: Box, other: Box) -> Box:
    """Where two boxes overlap (an empty box, right of left or below bottom, if not)."""
    left, bottom, right, top = one
    return max(left, other[0]), max(bottom, other[1]), min(right, other[2]), min(top, other[3])


def subtype_of(xobject: Any) -> Any:
    """An XObject's `/Subtype`, resolved where it is an indirect reference, as viewers
    resolve it (`dict.get` leaves it a reference, which names no subtype)."""
    subtype = xobject.get("/Subtype")
    return subtype.get_object() if hasattr(subtype, "get_object") else subtype


def _area(box: Box) -> float:
    return max(0.0, box[2] - box[0]) * max(0.0, box[3] - box[1])


def _too_small(box: Box) -> bool:
    """Is the box too narrow or too low for a glyph to be seen in it (or empty)?"""
    return box[2] - box[0] <= LEGIBLE or box[3] - box[1] <= LEGIBLE


def _number(value: Any) -> float:
    """An operand as a number; anything else (a damaged stream) as 0."""
    return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else 0.0


def _numbers(operands: list[Any], count: int) -> list[float] | None:
    """The operands as `count` numbers; None for a damaged operator (too few, or one
    not a number), which then changes nothing: its text is not moved out of sight."""
    known = all(isinstance(value, (int, float)) and math.isfinite(value) for value in operands)
    return [float(value) for value in operands] if known and len(operands) == count else None


class _State:
    """The graphics state a text-showing operator is drawn in, as far as it decides
    whether the text can be seen (``q`` saves it, ``Q`` restores it)."""

    def __init__(self, page: Box) -> None:
        self.ctm: Matrix = IDENTITY
        self.clip: Box = page
        self.mode = 0
        self.size = math.nan  # no font yet, or a size not a number: not judged by its size
        self.font = ""
        self.scaling = 1.0
        self.spacing = 0.0  # Tc and Tw together: the most each code may add to a run
        self.leading = 0.0
        self.rise = 0.0
        self.white = {"fill": False, "stroke": False}  # colours are black to begin with
        self.spaces = {"fill": 0, "stroke": 0}  # components of the colour space (cs, CS)
        self.alpha = {"fill": 1.0, "stroke": 1.0}  # constant alpha (gs: /ca, /CA)

    def copy(self) -> _State:
        twin = _State(self.clip)
        twin.__dict__.update(self.__dict__)
        twin.white, twin.spaces = dict(self.white), dict(self.spaces)
        twin.alpha = dict(self.alpha)
        return twin


class _Reader:
    """One pass over a page's operations, noting each that shows text no one sees."""

    def __init__(self, page: Box, resources: Resources, state: _State | None = None) -> None:
        self.page = page
        self.resources = resources
        self.state = _State(page) if state is None else state  # a form's: as at its Do
        self.saved: list[_State] = []
        self.line: Matrix = IDENTITY  # the text line matrix (Tlm)
        self.run = 0.0  # how far the text may have advanced since the line's start
        self.path: list[tuple[float, float]] = []
        self.building: list[tuple[bytes, list[Any], Matrix]] = []  # the path's, not traced yet
        self.clipping = False
        self.damaged = False  # has the path an operator not understood? (then it clips nothing)
        self.layers: list[bool] = []  # marked content: is each open sequence hidden?
        self.unseen: set[int] = set()  # shown text no one sees
        self.invisible: set[int] = set()  # shown in an invisible mode, seen otherwise
        self.legible = _legible_on(page)
        self.imaged: set[tuple[int, int]] = set()  # the cells of the page images cover
        self.whites: set[int] = set()  # shown in white, seen unless on a white page
        self.painted = False  # has anything but text been painted on the page?

    def read(self, operations: list[Operation]) -> None:
        for index, (operands, operator) in enumerate(operations):
            self.operation(index, operands if isinstance(operands, list) else [], operator)

    def operation(self, index: int, operands: list[Any], operator: bytes) -> None:
        state = self.state
        if operator == b"q":
            self.saved.append(state.copy())
        elif operator == b"Q" and self.saved:
            self.state = self.saved.pop()
        elif operator == b"cm" and (matrix := _numbers(operands, 6)):
            state.ctm = _times((*matrix,), state.ctm)  # type: ignore[arg-type]
        elif operator in _SHOWS:
            self.shown(index, operands, operator)
        elif operator in (b"BMC", b"BDC", b"EMC"):
            self.marked(operands, operator)
        elif operator in _PATH_POINTS or operator in (b"re", b"W", b"W*") or operator in _PAINTS:
            self.drawn(operands, operator)
        elif operator == b"Do" and operands:
            self.placed(index, operands[0])
        elif operator == b"INLINE IMAGE":
            self.imaged_at(state.ctm)
        elif operator == b"sh":  # a shading fills the clip
            self.painted = self.painted or not _too_small(_meet(state.clip, self.page))
        elif operator in _COLOURS or operator in (b"cs", b"CS", b"sc", b"SC", b"scn", b"SCN"):
            self.coloured(operands, operator)
        else:
            self.text_state(operands, operator)

    def text_state(self, operands: list[Any], operator: bytes) -> None:
        state = self.state
        if operator == b"BT":
            self.line, self.run = IDENTITY, 0.0
        elif operator == b"Tr" and (mode := _numbers(operands, 1)):
            state.mode = _mode(int(mode[0]), state.mode)
        elif operator == b"Tf" and len(operands) == 2:
            size = operands[1]
            known = isinstance(size, (int, float)) and math.isfinite(size)
            state.font, state.size = str(operands[0]), float(size) if known else math.nan
        elif operator == b"Tz" and operands:
            state.scaling = _number(operands[0]) / 100
        elif operator in (b"Tc", b"Tw") and operands:
            state.spacing = max(state.spacing, abs(_number(operands[0])))
        elif operator == b"TL" and operands:
            state.leading = _number(operands[0])
        elif operator == b"gs" and operands:
            for which, key in (("fill", "/ca"), ("stroke", "/CA")):
                alpha = self.resources.alpha(operands[0], key)
                state.alpha[which] = state.alpha[which] if alpha is None else alpha
        elif operator == b"Ts" and operands:
            state.rise = _number(operands[0])
        elif operator in (b"Td", b"TD") and (offset := _numbers(operands, 2)):
            self.line, self.run = _times(_moved(*offset), self.line), 0.0
            state.leading = -offset[1] if operator == b"TD" else state.leading
        elif operator == b"Tm" and (matrix := _numbers(operands, 6)):
            self.line, self.run = (*matrix,), 0.0  # type: ignore[assignment]
        elif operator == b"T*":
            self.next_line()

    def next_line(self) -> None:
        self.line, self.run = _times(_moved(0.0, -self.state.leading), self.line), 0.0

    def shown(self, index: int, operands: list[Any], operator: bytes) -> None:
        if operator == b'"' and len(operands) == 3:
            spacing = max(abs(_number(operands[0])), abs(_number(operands[1])))
            self.state.spacing = max(self.state.spacing, spacing)
        if operator in (b"'", b'"'):
            self.next_line()
        codes, offsets = _measured(operands[-1] if operands else None)
        state = self.state
        size = state.size * self.resources.scale(state.font)
        width = (codes * GLYPH_EMS * abs(size) + offsets * abs(size) / 1000) * abs(state.scaling)
        width += codes * state.spacing * abs(state.scaling)
        self.run += width
        along, em = self.run + 2 * abs(size), 2 * abs(size)
        extent = (-along, state.rise - em, along, state.rise + em)  # raised or lowered by Ts
        if self.resources.vertical(state.font):  # set down the page, not along it
            reach = along + em + abs(state.rise)
            extent = (-reach, -reach, reach, reach)
        if self.hidden() or not self.seen(size, extent):
            self.unseen.add(index)
        elif state.mode in INVISIBLE_MODES or self.transparent():
            self.invisible.add(index)
        elif self.in_white():
            self.whites.add(index)

    def transparent(self) -> bool:
        """Is text shown now painted wholly transparent (``/ca 0``, ``/CA 0`` in an
        ``ExtGState``): as unseen as an invisible mode, and as a scan's OCR may be drawn."""
        mode, alpha = self.state.mode, self.state.alpha
        return (mode not in FILLS or alpha["fill"] == 0) and (
            mode not in STROKES or alpha["stroke"] == 0
        )

    def in_white(self) -> bool:
        """Is text shown now painted in white alone (its fill, its stroke, or both)?"""
        mode, white = self.state.mode, self.state.white
        return (mode not in FILLS or white["fill"]) and (mode not in STROKES or white["stroke"])

    def coloured(self, operands: list[Any], operator: bytes) -> None:
        """A colour set: is it white? Only in a colour space of gray, RGB or CMYK
        components (device or ICC): an indexed or a pattern colour is never taken so."""
        which = "stroke" if operator[:1].isupper() else "fill"
        state = self.state
        if operator in (b"cs", b"CS"):
            state.spaces[which] = self.resources.components(operands[0] if operands else None)
            state.white[which] = False  # a new colour space starts at black
            return
        count = _COLOURS.get(operator, state.spaces[which])
        values = [_number(value) for value in operands if isinstance(value, (int, float))]
        whites = [value <= 1 - WHITE if count == 4 else value >= WHITE for value in values]
        state.white[which] = count in (1, 3, 4) and len(operands) == count and all(whites)

    def seen(self, size: float, extent: Box) -> bool:
        """Can text shown at the current point be seen: large enough, and some of its
        `extent` (text space, round the current point) on the page, not clipped away?
        Text of a size not known (not a number, no font set) is not judged: a damaged
        stream's text is read, as it was before text was judged at all."""
        if not (math.isfinite(size) and math.isfinite(sum(extent))):
            return True
        rendering = _times(self.line, self.state.ctm)
        a, b, c, d = rendering[:4]
        across = math.hypot(a, b) * abs(size * self.state.scaling)
        area = abs(a * d - b * c) * abs(size * size * self.state.scaling)
        legible = self.legible
        if across < legible or area < legible * across:  # too narrow, or too low
            return False
        return self.visible(_bounds(_corners(extent), rendering))

    def visible(self, box: Box) -> bool:
        """Does any of `box` (device space) fall where the page shows something?"""
        window = _meet(self.state.clip, self.page)
        return not _too_small(window) and _area(_meet(window, box)) > 0

    def hidden(self) -> bool:
        return any(self.layers)

    def marked(self, operands: list[Any], operator: bytes) -> None:
        if operator == b"EMC":
            if self.layers:
                self.layers.pop()
            return
        off = operator == b"BDC" and len(operands) == 2 and str(operands[0]) == "/OC"
        self.layers.append(off and self.resources.layer_off(operands[1]))

    def drawn(self, operands: list[Any], operator: bytes) -> None:
        """Path construction and painting, for the clip (a path's box bounds its clip) and
        for what is painted. A path is traced only at its paint, and only where it clips or
        the page has painted nothing yet: a figure of a hundred thousand lines costs a list
        of them, not their geometry."""
        if operator == b"re" or operator in _PATH_POINTS:
            self.building.append((operator, operands, self.state.ctm))
        elif operator in (b"W", b"W*"):
            self.clipping = True
        elif operator in _PAINTS:
            if self.clipping or not self.painted:
                self.trace()
                self.painted = self.painted or self.shows_paint(operator)
            if self.clipping and self.path and not self.damaged:  # a damaged path clips nothing
                self.state.clip = _meet(self.state.clip, _bounds(self.path, IDENTITY))
            self.building, self.path, self.clipping, self.damaged = [], [], False, False

    def trace(self) -> None:
        """The path built since the last paint, as the corners of each part's box on the
        page, and whether any part was not understood."""
        for operator, operands, ctm in self.building:
            if operator == b"re":
                rect = _numbers(operands, 4)
                x, y, w, h = rect or (0.0, 0.0, 0.0, 0.0)
                self.path.extend(_corners(_bounds(_corners((x, y, x + w, y + h)), ctm)))
                self.damaged = self.damaged or rect is None
            else:
                values = _numbers(operands, 2 * _PATH_POINTS[operator]) or []
                points = list(zip(values[::2], values[1::2], strict=True))
                self.path.extend(_corners(_bounds(points, ctm)) if points else [])
                self.damaged = self.damaged or not points

    def placed(self, index: int, name: Any) -> None:
        """A ``Do``: an image covers part of the page; a form is left out when it is in a
        layer that is off, or drawn where nothing shows; any other XObject always."""
        xobject = self.resources.xobject(name)
        if xobject is None:
            return
        subtype = subtype_of(xobject)
        if subtype == "/Image":
            self.imaged_at(self.state.ctm)  # a scan stored in bands covers the page too
        elif subtype == "/Form":
            box = _box(xobject.get("/BBox"))
            matrix = _matrix(xobject.get("/Matrix"))
            off = "/OC" in xobject and self.resources.layer_off(xobject.raw_get("/OC"))
            placing = _times(matrix, self.state.ctm)
            drawn = box is None or self.visible(_bounds(_corners(box), placing))
            if self.hidden() or off or not drawn:
                self.unseen.add(index)
            else:  # what it paints: all a form is taken to, unless read (`pdfforms`)
                self.painted = True
        else:  # PostScript, or a subtype not known: no viewer draws it (pypdf reads it)
            self.unseen.add(index)

    def shows_paint(self, operator: bytes) -> bool:
        """Does a path painted now show: not a clip's `n`, a box of some size where the
        page shows something, in a colour other than white? Only such a paint makes a
        page on which white text may be seen (a hostile `0 0 0 0 re f` is none)."""
        if operator == b"n" or not self.path or self.damaged:
            return False
        window = _meet(_meet(self.state.clip, self.page), _bounds(self.path, IDENTITY))
        fills, strokes = operator not in (b"S", b"s"), operator not in _FILL_ONLY
        white = self.state.white
        return not _too_small(window) and not (
            (not fills or white["fill"]) and (not strokes or white["stroke"])
        )

    def imaged_at(self, ctm: Matrix) -> None:
        """An image drawn under `ctm`: paint, where it shows, and the page's cover."""
        shown = _meet(_meet(self.state.clip, self.page), _bounds(_corners((0, 0, 1, 1)), ctm))
        self.painted = self.painted or not _too_small(shown)
        self.cover(ctm)

    def cover(self, ctm: Matrix) -> None:
        """Note the cells of the page (a GRID by GRID of it) whose centre an image drawn
        under `ctm` (on the unit square) covers: images covering one spot again and again
        cover it once, and a scan stored in bands covers the page."""
        left, bottom, right, top = self.page
        if not all(map(math.isfinite, self.page)) or right <= left or top <= bottom:
            return
        image = _bounds(_corners((0.0, 0.0, 1.0, 1.0)), ctm)
        shown = _meet(_meet(image, self.page), self.state.clip)
        width, height = (right - left) / GRID, (top - bottom) / GRID
        columns = _cells(shown[0] - left, shown[2] - left, width)
        rows = _cells(shown[1] - bottom, shown[3] - bottom, height)
        self.imaged.update((column, row) for column in columns for row in rows)

    def left_out(self) -> set[int]:
        """The operations to leave out: invisible text stays on a scan (its OCR)."""
        scan = len(self.imaged) >= SCAN_SHARE * GRID * GRID
        blank = not self.painted
        return self.unseen | (set() if scan else self.invisible) | (self.whites if blank else set())


def _mode(mode: int, before: int) -> int:
    """A rendering mode as pdf.js reads one: past 7 as its two low bits (8 fills, 11 is
    invisible); a negative one is damage, and the mode before stands."""
    return mode if 0 <= mode <= 7 else mode & 3 if mode > 7 else before


def _cells(low: float, high: float, size: float) -> range:
    """The cells along one side whose centres lie between `low` and `high`."""
    if not (math.isfinite(low) and math.isfinite(high)) or high <= low:
        return range(0)
    return range(max(0, math.ceil(low / size - 0.5)), min(GRID, math.floor(high / size - 0.5) + 1))


def _legible_on(page: Box) -> float:
    """The least size of a glyph a reader sees on `page`: LEGIBLE on a page of a letter's
    size or larger, less on a smaller one, which a viewer shows enlarged (a page of large
    user units, 61 by 79 of them, shows a glyph of 0.8 as 8 pt on paper)."""
    if not all(map(math.isfinite, page)):
        return LEGIBLE
    longest = max(page[2] - page[0], page[3] - page[1])
    return LEGIBLE * min(1.0, max(longest, 0.0) / LETTER) if longest > 0 else LEGIBLE


def _corners(box: Box) -> list[tuple[float, float]]:
    left, bottom, right, top = box
    return [(left, bottom), (right, bottom), (left, top), (right, top)]


def _measured(shown: Any) -> tuple[int, float]:
    """How many codes a shown string or TJ array has, and the sum of its offsets' sizes."""
    if isinstance(shown, (str, bytes)):
        return len(shown), 0.0
    if not isinstance(shown, list):
        return 0, 0.0
    codes = sum(len(part) for part in shown if isinstance(part, (str, bytes)))
    return codes, sum(abs(_number(part)) for part in shown)


def _box(value: Any) -> Box | None:
    """A rectangle as written; None where it is damaged (not four numbers): no edge."""
    value = value.get_object() if value is not None else None
    found = _numbers(list(value), 4) if isinstance(value, list) else None
    if found is None:
        return None
    left, bottom, right, top = found
    return min(left, right), min(bottom, top), max(left, right), max(bottom, top)


def _matrix(value: Any) -> Matrix:
    value = value.get_object() if value is not None else None
    if not isinstance(value, list) or len(value) != 6:
        return IDENTITY
    return tuple(_number(part) for part in value)  # type: ignore[return-value]


class Resources:
    """What the page's operators name: fonts (for a Type 3 font's own scale), XObjects, and
    optional content (layers), with the document's layers off by default. A form's
    operators name its own resources (`off`: the page's layers off)."""

    def __init__(self, page: Any, off: set[tuple[int, int]] | None = None) -> None:
        self.resources = _dictionary(_resources_of(page))
        self.off = _layers_off(page) if off is None else off
        self.scales: dict[str, float] = {}
        self.downwards: dict[str, bool] = {}

    def named_group(self, kind: str) -> Any:
        """The page's resources of one kind (``/Font``, ``/XObject``...), or None."""
        return _dictionary(self.resources.get(kind)) if self.resources is not None else None

    def named(self, kind: str, name: Any) -> Any:
        group = self.named_group(kind)
        return _dictionary(group.get(str(name))) if group is not None else None

    def scale(self, font: str) -> float:
        """How much larger a font's glyphs are than its size says: a Type 3 font's
        ``FontMatrix`` sets its own (1 for every other font, whose glyphs are in ems)."""
        if font not in self.scales:
            found = self.named("/Font", font)
            own = found is not None and found.get("/Subtype") == "/Type3" and "/FontMatrix" in found
            a, b, c, d = _matrix(found["/FontMatrix"])[:4] if own else (1e-3, 0.0, 0.0, 1e-3)
            self.scales[font] = max(math.hypot(a, b), math.hypot(c, d)) * 1000
        return self.scales[font]

    def components(self, name: Any) -> int:
        """How many components a colour space named by ``cs`` has, when they are gray,
        RGB or CMYK (a device space, or an ICC profile's); 0 for any other."""
        if str(name) in _SPACES:
            return _SPACES[str(name)]
        spaces = self.named_group("/ColorSpace")
        space = spaces.get(str(name)) if spaces is not None else None
        space = space.get_object() if space is not None else None
        if isinstance(space, list) and len(space) == 2 and space[0] == "/ICCBased":
            profile = _dictionary(space[1])
            count = profile.get("/N") if profile is not None else None
            return int(count) if isinstance(count, int) and count in (1, 3, 4) else 0
        return _SPACES.get(str(space), 0)

    def alpha(self, name: Any, key: str) -> float | None:
        """The constant alpha (``/ca`` fill, ``/CA`` stroke) a graphics state named by
        ``gs`` sets, or None when it sets none (or not as a number)."""
        found = self.named("/ExtGState", name)
        value = found.get(key) if found is not None else None
        return float(value) if isinstance(value, (int, float)) and math.isfinite(value) else None

    def vertical(self, font: str) -> bool:
        """Is a font written downwards (a composite font whose CMap ends in ``-V``)?"""
        if font not in self.downwards:
            found = self.named("/Font", font)
            encoding = found.get("/Encoding") if found is not None else None
            self.downwards[font] = isinstance(encoding, str) and encoding.endswith("-V")
        return self.downwards[font]

    def xobject(self, name: Any) -> Any:
        return self.named("/XObject", name)

    def layer_off(self, value: Any) -> bool:
        """Is the optional content `value` (a name in the page's ``/Properties``, or the
        group or membership dictionary itself) hidden when the document opens?"""
        if not self.off:
            return False
        reference = value
        if not hasattr(value, "idnum") and not isinstance(value, dict):
            properties = self.named_group("/Properties")
            named = properties is not None and str(value) in properties
            reference = properties.raw_get(str(value)) if named else None
        return _group_off(reference, self.off)


def _resources_of(owner: Any) -> Any:
    """The resources pypdf reads a page's or a form's text with: its own, or its
    ``/Parent``'s (a form may have one too); none where that chain loops."""
    try:
        return owner.get_inherited("/Resources")
    except Exception:  # a loop of parents: pypdf reads nothing of such a form
        return None


def _dictionary(value: Any) -> Any:
    from pypdf.generic import DictionaryObject

    value = value.get_object() if value is not None else None
    return value if isinstance(value, DictionaryObject) else None


def _key(reference: Any) -> tuple[int, int] | None:
    if hasattr(reference, "idnum"):
        return int(reference.idnum), int(reference.generation)
    return None


def _layers_off(page: PageObject) -> set[tuple[int, int]]:
    """The optional content groups off when the document opens (its default ``/D``
    configuration: ``/OFF``, or all but ``/ON`` when its ``/BaseState`` is ``/OFF``)."""
    reader = getattr(page, "pdf", None)
    root = _dictionary(reader.trailer.get("/Root")) if reader is not None else None
    properties = _dictionary(root.get("/OCProperties")) if root is not None else None
    default = _dictionary(properties.get("/D")) if properties is not None else None
    if properties is None or default is None:
        return set()
    listed = _references(properties.get("/OCGs"))
    on, off = _references(default.get("/ON")), _references(default.get("/OFF"))
    if default.get("/BaseState") == "/OFF":
        return (listed | off) - on
    return off


def _items(value: Any) -> list[Any]:
    """An array's items; none for anything else (a damaged entry)."""
    return list(value) if isinstance(value, list) else []


def _references(value: Any) -> set[tuple[int, int]]:
    value = value.get_object() if value is not None else None
    items = value if isinstance(value, list) else []
    return {key for item in items if (key := _key(item)) is not None}


def _group_off(reference: Any, off: set[tuple[int, int]]) -> bool:
    """Is a group off, or a membership dictionary's visibility policy (``/P``) false?"""
    key = _key(reference)
    if key in off:
        return True
    found = _dictionary(reference)
    if found is None or found.get("/Type") != "/OCMD":
        return False
    groups = found.raw_get("/OCGs") if "/OCGs" in found else None
    listed = groups.get_object() if groups is not None else None
    members = [groups] if _key(groups) is not None else _items(listed)
    states = [_key(member) not in off for member in members if _key(member) is not None]
    if not states:
        return False
    policy = found.get("/P", "/AnyOn")
    visible = {
        "/AllOn": all(states),
        "/AnyOff": not all(states),
        "/AllOff": not any(states),
    }.get(str(policy), any(states))
    return not visible


def _page_box(page: PageObject) -> Box:
    """What a viewer shows of the page: its crop box, within its media box (the media box
    where the crop box lies off it, as viewers show it)."""
    media, crop = _inherited_box(page, "/MediaBox"), _inherited_box(page, "/CropBox")
    shown = crop if media is None else media if crop is None else _meet(crop, media)
    if shown is None:
        return EVERYWHERE
    if crop is not None and media is not None and _area(shown) <= 0:
        shown = media
    return shown


def _inherited_box(page: PageObject, key: str) -> Box | None:
    """The page's own box or its page tree's; a page without one has no edge to be off."""
    node: Any = page
    for _ in range(64):  # a page tree deeper than this is damaged, or a loop
        if not isinstance(node, dict):
            return None
        if key in node:
            return _box(node[key])
        node = _dictionary(node.get("/Parent"))
    return None


def _rewritten(operations: list[Operation], dropped: set[int]) -> list[Operation]:
    """The operations without those in `dropped`: a shown run leaves a word gap, and
    ``'`` and ``"`` still move to the next line (and ``"`` still sets its spacing)."""
    out: list[Operation] = []
    for index, (operands, operator) in enumerate(operations):
        if index not in dropped:
            out.append((operands, operator))
        elif operator == b"'":
            out.append(([], b"T*"))
        elif operator == b'"' and len(operands) == 3:
            out.extend([([operands[0]], b"Tw"), ([operands[1]], b"Tc"), ([], b"T*")])
        elif operator in (b"Tj", b"TJ"):
            out.append(_gap())
    return out


def _gap() -> Operation:
    from pypdf.generic import ArrayObject, NumberObject

    return [ArrayObject([NumberObject(GAP[0][0])])], GAP[1]
