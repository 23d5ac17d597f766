"""Text in a form XObject as a viewer shows it: a form is drawn in the graphics state at
the ``Do`` that draws it, so its text is judged in that state, once each time it is drawn.

A form's stream is an object of its own, which pypdf reads as if drawn plainly wherever
a ``Do`` names it. But a form draws in the state it inherits: an invisible rendering
mode, a clip, a transparent fill, a scale to nothing, a layer that is off, all set on
the page before its ``Do``; and its own ``3 Tr``, its ``/Matrix`` (which places it) and
its ``/BBox`` (which clips it). So each form a stream draws is read, as `pdfseen` reads
the page, in the state of its ``Do``; and a ``Do`` whose form shows text no one sees
names, instead, a copy of the form without that text (in memory, under a name of its
own in a copy of the resources). A form drawn once where it is seen and once where it
is not is read once; an ordinary page, all of whose forms are seen, is not rewritten.

Bounded, as a stranger's PDF must be: a form that draws itself (within itself) is
drawn as nothing, as pypdf draws it; forms nested deeper than `MAX_DEPTH`, or drawn
past pypdf's own count of form invocations on a page (it reads no further either), are
left out, not read unjudged; a page whose forms would have more than `FORM_WORK`
operations read in all is `PageUnreadable`, as a PDF too large to read whole is, and so
is one holding a form too large for pypdf to parse. A form that shows no text, drawn once
the page has painted (a chart, a map drawn four times over), has nothing left to tell,
and is not read.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from claimledger.errors import PageUnreadable
from claimledger.reading.pdfseen import (
    _SHOWS,
    Box,
    Operation,
    Resources,
    _bounds,
    _box,
    _corners,
    _dictionary,
    _matrix,
    _meet,
    _page_box,
    _Reader,
    _resources_of,
    _rewritten,
    _State,
    _times,
    subtype_of,
)

if TYPE_CHECKING:
    from pypdf import PageObject

MAX_DEPTH = 32
"""The most forms nested one in another that are read (no real PDF nests a tenth so)."""
FORM_WORK = 4_000_000
"""The most operations read in a page's forms, over all the times they are drawn."""
_ENCODED = frozenset({"/Length", "/Filter", "/DecodeParms"})
"""A form's keys that say how its bytes are stored: a copy's operations are not stored."""


class _Work:
    """What a page's forms have cost so far, and each form's operations, parsed once."""

    def __init__(self, pdf: Any) -> None:
        from pypdf import get_configuration

        self.pdf = pdf
        self.entered = 0
        self.most = get_configuration().xform_maximum_invocations_per_extraction
        self.read = 0
        self.parsed: dict[int, tuple[Any, list[Operation] | None, bool]] = {}

    def parse(self, form: Any) -> tuple[Any, list[Operation] | None, bool]:
        """The form, its operations (as pypdf parses them to read it; None for a form that
        cannot be parsed, whose text pypdf does not read either), and whether any of them
        shows text or draws another XObject; parsed once. A form past pypdf's limits is
        `PageUnreadable`, as such a page is: read as empty, its quotes would be missing."""
        from pypdf.errors import LimitReachedError
        from pypdf.generic import ContentStream

        if id(form) not in self.parsed:  # the form is kept, so its id is not reused
            try:
                found: list[Operation] | None = ContentStream(form, self.pdf, "bytes").operations
            except LimitReachedError as error:
                raise PageUnreadable(f"a form of the PDF is too large to read: {error}") from None
            except Exception:  # damage of any kind: pypdf skips such a form
                found = None
            texty = any(op in _SHOWS or op == b"Do" for _, op in found or [])
            self.parsed[id(form)] = (form, found, texty)
        return self.parsed[id(form)]

    def shows_text(self, form: Any) -> bool:
        """Can the form show text, itself or through what it draws?"""
        return self.parse(form)[2]

    def operations(self, form: Any) -> list[Operation] | None:
        """The form's operations, counted against the page's `FORM_WORK`."""
        operations = self.parse(form)[1]
        self.read += len(operations or [])
        if self.read > FORM_WORK:
            raise PageUnreadable(
                f"the PDF's forms on one page have more than {FORM_WORK} operations to read"
            )
        return operations


class _Drawing(_Reader):
    """A pass over a page's (or a form's) operations that reads each form drawn in the
    state its ``Do`` draws it in, its findings kept by the index of that ``Do``."""

    def __init__(
        self,
        page: Box,
        resources: Resources,
        work: _Work,
        state: _State | None = None,
        within: tuple[int, ...] = (),
    ) -> None:
        super().__init__(page, resources, state)
        self.work, self.within = work, within
        self.forms: dict[int, tuple[Any, list[Operation], _Drawing]] = {}

    def operation(self, index: int, operands: list[Any], operator: bytes) -> None:
        painted = self.painted
        super().operation(index, operands, operator)
        if index in self.forms:  # a form read paints only what it paints (text alone: none)
            self.painted = painted or self.forms[index][2].painted

    def placed(self, index: int, name: Any) -> None:
        painted = self.painted
        super().placed(index, name)
        form = self.resources.xobject(name)
        if index in self.unseen or form is None or subtype_of(form) != "/Form":
            return
        if painted and not self.work.shows_text(form):  # nothing in it left to tell
            return
        operations = self.work.operations(form) if self.enters(form) else None
        if operations is None:  # not judged: drawn as nothing, as pypdf reads it
            self.unseen.add(index)
            return
        inner = _Drawing(
            self.page,
            Resources(form, self.resources.off),
            self.work,
            _inherited(self.state, form),
            (*self.within, id(form)),
        )
        inner.imaged = self.imaged  # one page: a scan a form draws is the page's
        inner.read(operations)
        self.forms[index] = (form, operations, inner)

    def enters(self, form: Any) -> bool:
        """Is the form read here: not one that draws itself, not nested too deep, not
        past pypdf's count of forms drawn (each counted as pypdf counts it)?"""
        within = id(form) in self.within or len(self.within) >= MAX_DEPTH
        if within or self.work.entered >= self.work.most:
            return False
        self.work.entered += 1
        return True


def _inherited(state: _State, form: Any) -> _State:
    """The state a form's operations start in: the ``Do``'s, its matrix placing it, and
    its bounding box clipping it."""
    inner = state.copy()
    inner.ctm = _times(_matrix(form.get("/Matrix")), state.ctm)
    box = _box(form.get("/BBox"))
    if box is not None:
        inner.clip = _meet(inner.clip, _bounds(_corners(box), inner.ctm))
    return inner


def without_unseen_text(page: PageObject) -> PageObject:
    """The page with the text no viewer shows left out of its own content stream and out
    of the forms it draws."""
    from pypdf.generic import ContentStream, NameObject

    contents = page.get("/Contents")
    if contents is None:
        return page
    stream = ContentStream(contents.get_object(), page.pdf, "bytes")
    drawing = _Drawing(_page_box(page), Resources(page), _Work(page.pdf))
    drawing.read(stream.operations)
    redrawn = _redrawn(drawing, stream.operations, page.pdf, drawing.painted)
    if redrawn is not None:
        stream.operations, copies = redrawn
        page[NameObject("/Contents")] = stream
        if copies:
            page[NameObject("/Resources")] = _with_forms(_resources_of(page), copies)
    return page


def _redrawn(
    drawing: _Drawing, operations: list[Operation], pdf: Any, painted: bool
) -> tuple[list[Operation], dict[str, Any]] | None:
    """The operations without what no one sees, each ``Do`` of a form that shows some
    naming a copy of it without that; and the copies by their names. None when all of
    it is seen (the stream is read as it is). `painted`: has the page, forms and all,
    painted anything but text (white text is then read, in a form as on the page)?"""
    from pypdf.generic import NameObject

    drawing.painted = painted
    dropped = drawing.left_out()
    out, copies = list(operations), {}
    group = drawing.resources.named_group("/XObject")
    taken = set(group) if group is not None else set()
    for index, (form, inner_operations, inner) in drawing.forms.items():
        redrawn = None if index in dropped else _redrawn(inner, inner_operations, pdf, painted)
        if redrawn is not None:
            name = _fresh(taken)
            copies[name] = _copy(form, *redrawn, pdf)
            out[index] = ([NameObject(name)], b"Do")
    if not dropped and not copies:
        return None
    return _rewritten(out, dropped), copies


def _fresh(taken: set[str]) -> str:
    """A name for a copy that names nothing else in its resources."""
    number = len(taken)
    while f"/Seen{number}" in taken:
        number += 1
    taken.add(f"/Seen{number}")
    return f"/Seen{number}"


def _copy(form: Any, operations: list[Operation], copies: dict[str, Any], pdf: Any) -> Any:
    """A form with other operations (and the copies they name added to its resources)."""
    from pypdf.generic import ContentStream, NameObject

    copy = ContentStream(None, pdf)
    for key, value in form.items():
        if key not in _ENCODED:
            copy[NameObject(key)] = value
    if copies:
        copy[NameObject("/Resources")] = _with_forms(_resources_of(form), copies)
    copy.operations = operations
    return copy


def _with_forms(resources: Any, copies: dict[str, Any]) -> Any:
    """A copy of `resources` whose XObjects are also `copies` (the original is shared)."""
    from pypdf.generic import DictionaryObject, NameObject

    found = _dictionary(resources)
    out = DictionaryObject(found) if found is not None else DictionaryObject()
    group = _dictionary(out.get("/XObject"))
    forms = DictionaryObject(group) if group is not None else DictionaryObject()
    forms.update({NameObject(name): copy for name, copy in copies.items()})
    out[NameObject("/XObject")] = forms
    return out
