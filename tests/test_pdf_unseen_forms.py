"""Text a form XObject draws where no reader sees it is not read (README, "PDF sources
are read as text"): a form draws in the state its ``Do`` draws it in (a rendering mode,
a clip, a transparency, a scale set before it), with its own operators, placed by its
/Matrix and clipped by its /BBox, and its text is judged so each time it is drawn.

Each page draws a sentence a reader sees and, through a form, the quote in some way no
viewer shows it; the same page with the form drawn plainly verifies both.
"""

from __future__ import annotations

import pytest

from claimledger.errors import PageUnreadable
from claimledger.reading import pdfforms
from claimledger.reading.match import locate
from claimledger.reading.pdf import carried, pdf_text
from claimledger.reading.pdfforms import MAX_DEPTH
from pdf_builder import drawn, form_xobject
from test_pdf_unseen import (
    DRAFT_OFF,
    IMAGE,
    LAYERS,
    OCR,
    PLAIN,
    PROPERTIES,
    SEEN,
    SHOWN,
    SHOWN_SEEN,
    statuses,
)

NAMES = b"/XObject << /Fm 6 0 R /Inner 7 0 R /Scan 8 0 R >>"
CLEAR = b" /ExtGState << /Clear << /ca 0 >> >>"
FORM_NAMES = b"/Font << /F1 3 0 R >> " + NAMES + CLEAR
"""What the page and each form name: the forms /Fm and /Inner, an image /Scan, and a
graphics state /Clear that paints transparently."""


def page(
    drawing: bytes, fm: bytes = PLAIN, *, keys: bytes = b"", box: bytes = b"0 0 612 792"
) -> bytes:
    """A page drawing SEEN, then `drawing`; its form /Fm draws `fm` (with more `keys`,
    in its bounding `box`), /Inner draws the quote plainly."""
    fm_form = form_xobject(fm, keys=keys, resources=FORM_NAMES, box=box)
    inner = form_xobject(PLAIN, resources=FORM_NAMES)
    return drawn(SHOWN_SEEN + drawing, resources=b" " + NAMES + CLEAR, more=(fm_form, inner, IMAGE))


UNSEEN = {
    "its-own-invisible-mode": (
        b"/Fm Do",
        b"BT 3 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
        b"",
        b"",
    ),
    "an-invisible-mode-at-its-do": (b"q 3 Tr /Fm Do Q", PLAIN, b"", b""),
    "a-clipping-mode-at-its-do": (b"q 7 Tr /Fm Do Q", PLAIN, b"", b""),
    "transparent-at-its-do": (b"q /Clear gs /Fm Do Q", PLAIN, b"", b""),
    "size-zero-at-its-do": (b"BT /F1 0 Tf ET /Fm Do", b"BT 72 700 Td " + SHOWN + b" ET", b"", b""),
    "scaled-to-nothing-at-its-do": (b"q 0.01 0 0 0.01 0 0 cm /Fm Do Q", PLAIN, b"", b""),
    "its-matrix-moves-its-text-off": (
        b"/Fm Do",
        PLAIN,
        b" /Matrix [1 0 0 1 0 -750]",
        b"0 0 612 1600",
    ),
    "its-box-clips-it-away": (b"/Fm Do", PLAIN, b"", b"0 0 50 50"),
    "its-box-of-nothing": (b"/Fm Do", PLAIN, b"", b"0 0 1 1"),
    "a-form-in-it-drawn-invisibly": (b"/Fm Do", b"q 3 Tr /Inner Do Q", b"", b""),
    "in-a-form-drawn-invisibly": (b"q 3 Tr /Fm Do Q", b"/Inner Do", b"", b""),
    "drawing-itself-invisibly": (b"q 3 Tr /Fm Do Q", PLAIN + b" /Fm Do", b"", b""),
}


@pytest.mark.parametrize(("drawing", "fm", "keys", "box"), UNSEEN.values(), ids=UNSEEN.keys())
def test_text_a_form_draws_where_no_reader_sees_it_does_not_verify(
    drawing: bytes, fm: bytes, keys: bytes, box: bytes
) -> None:
    """Each verified the quote: a form's own stream was read as if drawn plainly."""
    assert statuses(page(drawing, fm, keys=keys, box=box or b"0 0 612 792")) == (
        "verified",
        "missing",
    )


SEEN_STILL = {
    "drawn-plainly": (b"/Fm Do", PLAIN, b"", b""),
    "drawn-twice-once-unseen": (b"q 3 Tr /Fm Do Q /Fm Do", PLAIN, b"", b""),
    "drawn-twice-once-seen-first": (b"/Fm Do q 3 Tr /Fm Do Q", PLAIN, b"", b""),
    "the-mode-restored-before-its-do": (b"q 3 Tr Q /Fm Do", PLAIN, b"", b""),
    "its-own-mode-resets-the-inherited": (
        b"q 3 Tr /Fm Do Q",
        b"BT 0 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
        b"",
        b"",
    ),
    "its-box-around-its-text": (b"/Fm Do", PLAIN, b"", b"60 690 460 720"),
    "its-matrix-moves-it-on-the-page": (b"/Fm Do", PLAIN, b" /Matrix [1 0 0 1 0 -100]", b""),
    "a-form-in-it-drawn-plainly": (b"/Fm Do", b"/Inner Do", b"", b""),
    "drawing-itself": (b"/Fm Do", PLAIN + b" /Fm Do", b"", b""),
    "its-ocr-over-a-scan": (b"q 612 0 0 792 0 0 cm /Scan Do Q /Fm Do", OCR, b"", b""),
}


@pytest.mark.parametrize(
    ("drawing", "fm", "keys", "box"), SEEN_STILL.values(), ids=SEEN_STILL.keys()
)
def test_text_a_form_draws_where_a_reader_sees_it_still_verifies(
    drawing: bytes, fm: bytes, keys: bytes, box: bytes
) -> None:
    """A form drawn once unseen and once seen is seen; so is the OCR a scan's form draws."""
    assert statuses(page(drawing, fm, keys=keys, box=box or b"0 0 612 792")) == (
        "verified",
        "verified",
    )


def test_a_scan_drawn_by_a_form_makes_the_page_a_scan() -> None:
    """The page's invisible text over a scan its form draws is the scan's OCR."""
    scan_form = b"q 612 0 0 792 0 0 cm /Scan Do Q"
    assert statuses(page(b"/Fm Do " + OCR, scan_form)) == ("verified", "verified")


def test_a_form_hiding_text_leaves_what_it_shows_and_the_page_as_they_were() -> None:
    fm = b"BT /F1 12 Tf 72 600 Td (Shown by the form.) Tj 3 Tr 0 -20 Td " + SHOWN + b" ET"

    assert pdf_text(carried(page(b"/Fm Do", fm))) == f"{SEEN} Shown by the form."


def chain(length: int, draws: bytes) -> bytes:
    """A page drawing form 6, which draws form 7 (`draws` times), and so on for `length`
    forms, the last drawing the quote plainly."""
    forms = [
        form_xobject(
            draws % ((n + 7,) * draws.count(b"%d")),
            resources=b"/XObject << /F%d %d 0 R >>" % ((n + 7,) * 2),
        )
        for n in range(length - 1)
    ]
    forms.append(form_xobject(PLAIN))
    return drawn(SHOWN_SEEN + b"/F6 Do", resources=b" /XObject << /F6 6 0 R >>", more=tuple(forms))


def test_forms_nested_past_the_most_read_are_left_out() -> None:
    assert statuses(chain(MAX_DEPTH, b"/F%d Do")) == ("verified", "verified")
    assert statuses(chain(MAX_DEPTH + 2, b"/F%d Do")) == ("verified", "missing")


def test_forms_drawing_each_other_twice_over_are_read_within_bounds() -> None:
    """Thirty forms, each drawing the next twice, draw the last a billion times: pypdf
    stops at its count of forms drawn, and so does the judging of them."""
    assert locate(SEEN, pdf_text(carried(chain(30, b"/F%d Do /F%d Do")))).status == "verified"


def test_a_form_of_twenty_thousand_nested_states_is_read() -> None:
    nested = b"q " * 20_000 + PLAIN + b" Q" * 20_000
    assert statuses(page(b"q 3 Tr /Fm Do Q", nested)) == ("verified", "missing")


def test_forms_with_more_to_read_than_the_most_read_make_the_pdf_unreadable(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A small form drawn again and again is read each time it is drawn: past the most
    read on one page, the PDF is unreadable rather than read unjudged."""
    monkeypatch.setattr(pdfforms, "FORM_WORK", 10_000)
    shown = b"BT /F1 12 Tf 72 700 Td " + b"(x) Tj " * 1000 + b"ET"
    with pytest.raises(PageUnreadable, match="forms"):
        pdf_text(carried(page(b"/Fm Do " * 11, shown)))
    assert locate(SEEN, pdf_text(carried(page(b"/Fm Do " * 9, shown)))).status == "verified"


def test_a_figure_drawn_again_on_a_painted_page_adds_nothing_to_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A form that shows no text (a chart, a map) drawn on a page that has painted already
    has nothing left to tell: a 4-up page of one large figure made the whole PDF
    unreadable, its every drawing counted against the most read on one page."""
    monkeypatch.setattr(pdfforms, "FORM_WORK", 10_000)
    figure = b"0 0 1 rg 0 0 600 700 re f " + b"1 1 m 2 2 l S " * 3000
    drawing = b"0 0 0 rg 0 0 20 20 re f " + b"/Fm Do " * 10
    assert statuses(page(drawing, figure)) == ("verified", "missing")


def test_a_form_past_pypdfs_parsing_limit_makes_the_pdf_unreadable() -> None:
    """Read as empty, as pypdf skips it, its quotes would read missing: a page too large to
    parse is unreadable, and so is such a form."""
    from pypdf import apply_configuration

    large = PLAIN + b" 1 1 m 2 2 l S" * 2_000
    with (
        apply_configuration(stream_parsing_work_maximum_count=2_000),
        pytest.raises(PageUnreadable, match="too large to read"),
    ):
        pdf_text(carried(page(b"/Fm Do", large)))


def test_a_form_whose_resources_are_its_parents_is_judged_with_them() -> None:
    """pypdf looks a form's resources up in its /Parent too: a form drawn through them,
    in an invisible mode, verified the quote."""
    content = b"q 3 Tr /In Do Q"
    orphan = (
        b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792] /Parent << /Resources << "
        b"/Font << /F1 3 0 R >> /XObject << /In 7 0 R >> >> >> /Length %d >>\nstream\n%s\n"
        b"endstream" % (len(content), content)
    )
    more = (orphan, form_xobject(PLAIN))
    page = drawn(SHOWN_SEEN + b"/Fm Do", resources=b" /XObject << /Fm 6 0 R >>", more=more)

    assert statuses(page) == ("verified", "missing")


@pytest.mark.parametrize(("layer", "expected"), [(b"/Draft", "missing"), (b"/Print", "verified")])
def test_text_in_a_layer_off_inside_a_form_is_not_read(layer: bytes, expected: str) -> None:
    """A form's own marked content names a layer in its own /Properties."""
    content = b"/OC " + layer + b" BDC " + PLAIN + b" EMC"
    fm = form_xobject(content, resources=b"/Font << /F1 3 0 R >>" + PROPERTIES)
    more = (*LAYERS, fm)
    resources = b" /XObject << /Fm 10 0 R >>"
    page = drawn(SHOWN_SEEN + b"/Fm Do", catalog=DRAFT_OFF, resources=resources, more=more)

    assert statuses(page) == ("verified", expected)


WHITE = {
    "white-in-a-form": (b"/Fm Do", b"1 g " + PLAIN, "missing"),
    "white-at-its-do": (b"1 g /Fm Do", PLAIN, "missing"),
    "white-in-a-form-in-a-form": (b"/Fm Do", b"1 g /Inner Do", "missing"),
    "white-on-a-banner-in-the-form": (
        b"/Fm Do",
        b"0 0 .5 rg 0 690 612 30 re f 1 g " + PLAIN,
        "verified",
    ),
    "white-over-a-banner-a-form-paints": (
        b"/Fm Do 1 g " + PLAIN,
        b"0 0 .5 rg 0 690 612 30 re f",
        "verified",
    ),
    "white-over-a-picture-in-a-form": (
        b"/Fm Do",
        b"q 200 0 0 50 60 690 cm /Scan Do Q 1 g " + PLAIN,
        "verified",
    ),
}


@pytest.mark.parametrize(("drawing", "fm", "expected"), WHITE.values(), ids=WHITE.keys())
def test_white_text_a_form_draws_is_judged_by_what_the_page_paints(
    drawing: bytes, fm: bytes, expected: str
) -> None:
    """A form that draws only text paints nothing under white text: the page was taken
    to paint something whenever it drew a form, and white text in one verified."""
    assert statuses(page(drawing, fm)) == ("verified", expected)


@pytest.mark.parametrize("subtype", [b"/PS", b"/Drawing"])
def test_text_in_an_xobject_no_viewer_draws_is_not_read(subtype: bytes) -> None:
    """pypdf reads the text of any XObject but an image as a form's; a viewer draws a
    PostScript XObject, or one of a subtype it does not know, as nothing."""
    xobject = form_xobject(PLAIN).replace(b"/Subtype /Form", b"/Subtype " + subtype)
    resources = b" /XObject << /Fm 6 0 R >>"
    page = drawn(SHOWN_SEEN + b"/Fm Do", resources=resources, more=(xobject,))

    assert statuses(page) == ("verified", "missing")


def test_a_form_whose_subtype_is_an_indirect_object_is_read() -> None:
    """`/Subtype 9 0 R` (an object holding `/Form`) was read as a subtype no viewer draws,
    and the form's visible text was left out; every viewer resolves it and draws it."""
    form = form_xobject(PLAIN).replace(b"/Subtype /Form", b"/Subtype 7 0 R")
    page = drawn(
        SHOWN_SEEN + b"/Fm Do", resources=b" /XObject << /Fm 6 0 R >>", more=(form, b"/Form")
    )

    assert statuses(page) == ("verified", "verified")
