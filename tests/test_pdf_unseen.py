"""Text a PDF draws where no reader sees it is not read: a quote found only there is
missing, never verified (README, "PDF sources are read as text").

Each page draws a sentence a reader sees and the quote in some way no viewer shows it;
the same page with the quote drawn plainly verifies both, so it is the hiding alone
that the quote goes missing by. Ordinary PDFs read exactly as they did.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimledger.reading import pdf
from claimledger.reading.match import locate
from claimledger.reading.pdf import carried, pdf_text
from cli_runner import claimledger
from pdf_builder import drawn, laid_out
from webserver import PageServer

SEEN = "Backups are kept for thirty days."
QUOTE = "The service has never lost a customer's data."
SHOWN_SEEN = b"BT /F1 12 Tf 72 740 Td (" + SEEN.encode() + b") Tj ET\n"
SHOWN = b"(The service has never lost a customer's data.) Tj"
PLAIN = b"BT /F1 12 Tf 72 700 Td " + SHOWN + b" ET"


def statuses(page: bytes) -> tuple[str, str]:
    """How the sentence a reader sees, and the quote, are found on the page."""
    text = pdf_text(carried(page))
    return locate(SEEN, text).status, locate(QUOTE, text).status


def test_the_quote_drawn_plainly_verifies() -> None:
    assert statuses(drawn(SHOWN_SEEN + PLAIN)) == ("verified", "verified")


HIDDEN = {
    "invisible-mode": b"BT 3 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "clip-mode": b"BT 7 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "size-zero": b"BT /F1 0 Tf 72 700 Td " + SHOWN + b" ET",
    "size-near-zero": b"BT /F1 0.01 Tf 72 700 Td " + SHOWN + b" ET",
    "scaled-to-nothing": b"q 0.01 0 0 0.01 72 700 cm BT /F1 12 Tf " + SHOWN + b" ET Q",
    "horizontal-scaling-zero": b"BT 0 Tz /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "above-the-page": b"BT /F1 12 Tf 5000 5000 Td " + SHOWN + b" ET",
    "left-of-the-page": b"BT /F1 12 Tf -3000 700 Td " + SHOWN + b" ET",
    "moved-off-by-matrix": b"BT /F1 12 Tf 1 0 0 1 72 -900 Tm " + SHOWN + b" ET",
    "clipped-to-nothing": b"q 0 0 1 1 re W n BT /F1 12 Tf 72 700 Td " + SHOWN + b" ET Q",
    "clipped-elsewhere": b"q 0 0 100 100 re W n BT /F1 12 Tf 72 700 Td " + SHOWN + b" ET Q",
    "raised-off-the-page": b"BT /F1 12 Tf 72 700 Td 5000 Ts " + SHOWN + b" ET",
    "transparent": b"q /Clear gs " + PLAIN + b" Q",
}
STATES = b" /ExtGState << /Clear << /ca 0 >> /Faint << /ca 0.3 >> /Opaque << /ca 1 >> >>"


@pytest.mark.parametrize("content", HIDDEN.values(), ids=HIDDEN.keys())
def test_text_no_reader_sees_does_not_verify_a_quote(content: bytes) -> None:
    assert statuses(drawn(SHOWN_SEEN + content, resources=STATES)) == ("verified", "missing")


SEEN_STILL = {
    "restored-after-Q": b"q 3 Tr 0 0 1 1 re W n Q BT /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "mode-reset": b"BT 3 Tr 0 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "small-print": b"BT /F1 4 Tf 72 700 Td " + SHOWN + b" ET",
    "sized-by-matrix": b"BT /F1 1 Tf 12 0 0 12 72 700 Tm " + SHOWN + b" ET",
    "running-off-the-edge": b"BT /F1 12 Tf 500 700 Td " + SHOWN + b" ET",
    "starting-left-of-the-edge": b"BT /F1 12 Tf -40 700 Td " + SHOWN + b" ET",
    "clipped-around-it": b"q 60 690 400 30 re W n BT /F1 12 Tf 72 700 Td " + SHOWN + b" ET Q",
    "size-not-a-number": b"BT /F1 /Big Tf 72 700 Td " + SHOWN + b" ET",
    "matrix-not-numbers": b"q (a) (b) (c) (d) (e) (f) cm " + PLAIN + b" Q",
    "clip-not-numbers": b"q /a /b /c /d re W n " + PLAIN + b" Q",
    "raised-a-little": b"BT /F1 12 Tf 72 700 Td 6 Ts " + SHOWN + b" ET",
    "faint": b"q /Faint gs " + PLAIN + b" Q",
    "opaque-again": b"q /Clear gs /Opaque gs " + PLAIN + b" Q",
    "transparent-restored": b"q /Clear gs Q " + PLAIN,
}


@pytest.mark.parametrize("content", SEEN_STILL.values(), ids=SEEN_STILL.keys())
def test_text_a_reader_sees_still_verifies(content: bytes) -> None:
    """Small print, text that runs over the page's edge or a clip's, and a damaged size
    are read: only text surely unseen is left out."""
    assert statuses(drawn(SHOWN_SEEN + content, resources=STATES)) == ("verified", "verified")


def test_a_run_left_out_of_a_line_leaves_a_word_gap() -> None:
    """pypdf joins the runs of one baseline: the hidden one goes, its neighbours do not
    join into one word."""
    content = b"BT /F1 12 Tf 72 700 Td (alpha) Tj 3 Tr (hidden) Tj 0 Tr (omega) Tj ET"

    assert pdf_text(carried(drawn(content))) == "alpha omega"


def test_a_line_left_out_by_its_quote_operator_still_moves_to_the_next_line() -> None:
    content = b"BT /F1 12 Tf 14 TL 72 700 Td (one) Tj 3 Tr (hidden) ' 0 Tr (two) ' ET"

    assert pdf_text(carried(drawn(content))) == "one two"


LAYERS = (
    b"<< /Type /OCG /Name (Draft) >>",  # 6 0 R
    b"<< /Type /OCG /Name (Print) >>",  # 7 0 R
    b"<< /Type /OCMD /OCGs [6 0 R 7 0 R] /P /AllOn >>",  # 8 0 R
    b"<< /Type /OCMD /OCGs [6 0 R 7 0 R] /P /AnyOn >>",  # 9 0 R
)
PROPERTIES = b" /Properties << /Draft 6 0 R /Print 7 0 R /AllOn 8 0 R /AnyOn 9 0 R >>"
DRAFT_OFF = b" /OCProperties << /OCGs [6 0 R 7 0 R] /D << /OFF [6 0 R] >> >>"
ALL_OFF_BUT_DRAFT = b" /OCProperties << /OCGs [6 0 R 7 0 R] /D << /BaseState /OFF /ON [6 0 R] >> >>"


@pytest.mark.parametrize(
    ("catalog", "layer", "expected"),
    [
        (DRAFT_OFF, b"/Draft", "missing"),
        (DRAFT_OFF, b"/Print", "verified"),
        (DRAFT_OFF, b"/AllOn", "missing"),
        (DRAFT_OFF, b"/AnyOn", "verified"),
        (ALL_OFF_BUT_DRAFT, b"/Print", "missing"),
        (ALL_OFF_BUT_DRAFT, b"/Draft", "verified"),
    ],
    ids=["off", "on", "all-on-of-one-off", "any-on", "base-state-off", "on-over-base-state"],
)
def test_text_in_a_layer_off_when_the_document_opens_is_not_read(
    catalog: bytes, layer: bytes, expected: str
) -> None:
    content = SHOWN_SEEN + b"/OC " + layer + b" BDC " + PLAIN + b" EMC"
    page = drawn(content, catalog=catalog, resources=PROPERTIES, more=LAYERS)

    assert statuses(page) == ("verified", expected)


IMAGE = (
    b"<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray "
    b"/BitsPerComponent 8 /Length 1 >>\nstream\n\x80\nendstream"
)
OCR = b"BT 3 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET"
TRANSPARENT_OCR = b"q /Clear gs " + PLAIN + b" Q"


@pytest.mark.parametrize("ocr", [OCR, TRANSPARENT_OCR], ids=["invisible", "transparent"])
@pytest.mark.parametrize(
    ("placed", "expected"),
    [(b"612 0 0 792 0 0", "verified"), (b"10 0 0 10 0 0", "missing")],
    ids=["scan-over-the-page", "a-small-picture"],
)
def test_invisible_text_over_a_scan_is_its_ocr_and_read(
    placed: bytes, expected: str, ocr: bytes
) -> None:
    """A scanned page made searchable draws the scan and its recognised text invisibly
    over it: an image over half the page or more makes it a scan, read; a small picture
    does not make invisible text seen."""
    content = b"q " + placed + b" cm /Scan Do Q " + ocr
    page = drawn(content, resources=b" /XObject << /Scan 6 0 R >>" + STATES, more=(IMAGE,))

    assert locate(QUOTE, pdf_text(carried(page))).status == expected


def form(content: bytes, keys: bytes = b"") -> bytes:
    return b"<< /Type /XObject /Subtype /Form /BBox [0 0 612 792]%s " % keys + (
        b"/Resources << /Font << /F1 3 0 R >> >> /Length %d >>\nstream\n%s\nendstream"
        % (len(content), content)
    )


@pytest.mark.parametrize(
    ("drawing", "keys", "expected"),
    [
        (b"/Fm Do", b"", "verified"),
        (b"q 1 0 0 1 5000 0 cm /Fm Do Q", b"", "missing"),
        (b"/OC /Draft BDC /Fm Do EMC", b"", "missing"),
        (b"/Fm Do", b" /OC 6 0 R", "missing"),
    ],
    ids=["drawn", "off-the-page", "in-a-layer-off", "its-own-layer-off"],
)
def test_text_in_a_form_is_read_where_the_form_is_seen(
    drawing: bytes, keys: bytes, expected: str
) -> None:
    page = drawn(
        SHOWN_SEEN + drawing,
        catalog=DRAFT_OFF,
        resources=PROPERTIES + b" /XObject << /Fm 10 0 R >>",
        more=(*LAYERS, form(PLAIN, keys)),
    )

    assert statuses(page) == ("verified", expected)


def test_a_pdf_with_hidden_text_is_missing_through_the_command_line(
    page_server: PageServer,
) -> None:
    page_server.set_page("/hidden.pdf", drawn(SHOWN_SEEN + OCR), content_type="application/pdf")

    result = claimledger(
        "verify", "--allow-private", page_server.url("/hidden.pdf"), QUOTE, "--json", code=1
    )

    payload = json.loads(result.stdout)
    assert (payload["source_status"], payload["status"]) == ("ok", "missing")


REAL = sorted((Path(__file__).parent / "data" / "pdf").glob("*.pdf"))
BODY = [f"Paragraph {n}: the service keeps {n} copies, in {n} zones." * 4 for n in range(30)]


@pytest.mark.parametrize(
    "document",
    [*(path.read_bytes() for path in REAL), laid_out(BODY, columns=2, table=True)],
    ids=[*(path.stem for path in REAL), "reportlab"],
)
def test_an_ordinary_pdf_reads_as_it_did(document: bytes, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every word of an ordinary PDF a reader sees is read: its text is the same, read
    whole, but for the Federal Register's production slug at its foot, set in white on a
    page that paints nothing but its rules (lines too thin for white text to show on)."""
    read = pdf_text(carried(document))
    monkeypatch.setattr(pdf, "without_unseen_text", lambda page: page)
    whole = pdf_text(carried(document))

    slug = "VerDate Sep<11>2014 16:21 Aug 05, 2020 Jkt 250001 PO 00000 Frm 00001"
    if slug in whole:
        assert whole.startswith(read) and whole[len(read) :].startswith(slug)
        assert whole[len(read) :].endswith("jbell on DSKJLSW7X2PROD with PROPOSALS")
    else:
        assert read == whole


WHITE = {
    "gray": b"1 g",
    "rgb": b"1 1 1 rg",
    "cmyk": b"0 0 0 0 k",
    "colour-space": b"/DeviceRGB cs 1 1 1 sc",
    "icc-profile": b"/Profile cs 1 1 1 scn",
}
PROFILE = b"<< /N 3 /Length 0 >>\nstream\n\nendstream"


@pytest.mark.parametrize("colour", WHITE.values(), ids=WHITE.keys())
def test_white_text_on_a_page_that_paints_nothing_else_is_not_read(colour: bytes) -> None:
    """Nothing but the white paper is under it."""
    content = SHOWN_SEEN + b"q " + colour + b" " + PLAIN + b" Q"
    page = drawn(
        content, resources=b" /ColorSpace << /Profile [/ICCBased 6 0 R] >>", more=(PROFILE,)
    )

    assert statuses(page) == ("verified", "missing")


PAINTED_UNSEEN = {
    "a-fill-of-no-area": b"0 0 0 rg 0 0 0 0 re f",
    "a-fill-off-the-page": b"0 0 0 rg -100 -100 10 10 re f",
    "a-white-fill": b"1 g 0 690 612 30 re f",
    "a-hairline": b"0 0 0 RG 72 680 m 540 680 l S",
    "a-clip-alone": b"q 0 690 612 30 re W n Q",
    "a-picture-off-the-page": b"q 200 0 0 50 -900 -900 cm /Picture Do Q",
}


@pytest.mark.parametrize("paint", PAINTED_UNSEEN.values(), ids=PAINTED_UNSEEN.keys())
def test_a_paint_no_reader_sees_makes_no_ground_for_white_text(paint: bytes) -> None:
    """Any paint at all made a page on which white text was read: one of no size, off the
    page, in white, or a hairline rule shows no ground white text could be seen on."""
    content = SHOWN_SEEN + paint + b" q 1 g " + PLAIN + b" Q"
    page = drawn(content, resources=b" /XObject << /Picture 6 0 R >>", more=(IMAGE,))

    assert statuses(page) == ("verified", "missing")


WHITE_SEEN = {
    "on-a-banner": b"0 0 0.5 rg 0 690 612 30 re f 1 1 1 rg " + PLAIN,
    "a-banner-drawn-after": b"1 1 1 rg " + PLAIN + b" 0 0 0.5 rg 0 690 612 30 re f",
    "over-a-picture": b"q 200 0 0 50 60 690 cm /Picture Do Q 1 g " + PLAIN,
    "light-gray": b"0.9 g " + PLAIN,
    "white-outline-only-filled": b"1 1 1 RG BT 0 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
    "color-restored": b"q 1 g Q " + PLAIN,
    "an-indexed-colour": b"/Palette cs 1 sc " + PLAIN,
}


@pytest.mark.parametrize("content", WHITE_SEEN.values(), ids=WHITE_SEEN.keys())
def test_white_text_over_something_painted_is_read(content: bytes) -> None:
    """A vendor's white text on a coloured banner or a picture: what is under it is not
    worked out, so on a page that paints anything white text is read; and text not
    surely white (light gray, an indexed colour, white only where it is not painted)."""
    resources = (
        b" /XObject << /Picture 6 0 R >>"
        b" /ColorSpace << /Palette [/Indexed /DeviceRGB 1 <000000FFFFFF>] >>"
    )
    page = drawn(SHOWN_SEEN + content, resources=resources, more=(IMAGE,))

    assert statuses(page) == ("verified", "verified")


SEEN_ON_ODD_PAGES = {
    "clip-turned-45-degrees": (
        b"q .7071 .7071 -.7071 .7071 300 300 cm 0 0 400 400 re W n "
        b"BT /F1 10 Tf 10 100 Td " + SHOWN + b" ET Q",
        b"0 0 612 792",
    ),
    "mode-out-of-range": (b"BT 8 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET", b"0 0 612 792"),
    "media-box-damaged": (PLAIN, b"0 0 612 /x"),
    "large-user-unit": (b"BT /F1 0.8 Tf 7.2 70 Td " + SHOWN + b" ET", b"0 0 61 79] /UserUnit [10"),
    "small-user-unit": (PLAIN, b"0 0 612 792] /UserUnit [0.05"),
}


@pytest.mark.parametrize(("content", "box"), SEEN_ON_ODD_PAGES.values(), ids=SEEN_ON_ODD_PAGES)
def test_text_a_reader_sees_on_an_odd_page_still_verifies(content: bytes, box: bytes) -> None:
    """A clip turned by its matrix was taken for a sliver of it, a rendering mode out of
    range for an invisible one, a media box with a word in it for an empty page, and a
    page of large user units (8 pt glyphs set at 0.8) for print too small to see."""
    text = pdf_text(carried(drawn(content, box=box.replace(b"] /UserUnit [", b"] /UserUnit "))))
    assert locate(QUOTE, text).status == "verified"


def test_a_crop_box_off_the_media_box_shows_the_media_box() -> None:
    page = drawn(PLAIN, box=b"0 0 612 792] /CropBox [1000 1000 1612 1792")
    assert locate(QUOTE, pdf_text(carried(page))).status == "verified"


def test_a_scan_stored_in_bands_is_a_scan() -> None:
    """Ten bands of a scanned page, each a tenth of it: its OCR was left out, as no one
    image covered half the page."""
    bands = b"".join(b"q 612 0 0 79.2 0 %d cm /Scan Do Q " % (79 * n) for n in range(10))
    page = drawn(bands + OCR, resources=b" /XObject << /Scan 6 0 R >>", more=(IMAGE,))
    assert locate(QUOTE, pdf_text(carried(page))).status == "verified"


def test_a_damaged_membership_dictionary_hides_nothing_and_reads() -> None:
    """A layer's membership dictionary whose groups are a number made the whole PDF
    unreadable ("could not be read: TypeError")."""
    catalog = b" /OCProperties << /OCGs [6 0 R] /D << /OFF [6 0 R] >> >>"
    content = SHOWN_SEEN + b"/OC /MC0 BDC " + PLAIN + b" EMC"
    page = drawn(
        content,
        catalog=catalog,
        more=(b"<< /Type /OCG /Name (L) >>", b"<< /Type /OCMD /OCGs 5 >>"),
        resources=b" /Properties << /MC0 7 0 R >>",
    )
    assert locate(SEEN, pdf_text(carried(page))).status == "verified"


HIDDEN_ON_ODD_PAGES = {
    "huge-user-unit": (
        b"BT /F1 0.0002 Tf 7.2 70 Td " + SHOWN + b" ET",
        b"0 0 61 79] /UserUnit [75000",
    ),
    "mode-truncated-to-invisible": (
        b"BT 7.9 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
        b"0 0 612 792",
    ),
    "mode-past-seven-invisible": (
        b"BT 11 Tr /F1 12 Tf 72 700 Td " + SHOWN + b" ET",
        b"0 0 612 792",
    ),
}


@pytest.mark.parametrize(("content", "box"), HIDDEN_ON_ODD_PAGES.values(), ids=HIDDEN_ON_ODD_PAGES)
def test_text_no_reader_sees_on_an_odd_page_does_not_verify(content: bytes, box: bytes) -> None:
    """A glyph is judged against the page a viewer fits to the screen, not its user
    unit; a mode past 7 is read as viewers read it (11 is 3, invisible; 7.9 is 7)."""
    text = pdf_text(carried(drawn(content, box=box.replace(b"] /UserUnit [", b"] /UserUnit "))))
    assert locate(QUOTE, text).status == "missing"


def test_one_small_picture_drawn_again_and_again_is_no_scan() -> None:
    """Images' shares of the page were added up: a picture of 1% drawn sixty times on one
    spot made a "scan", and the invisible text on the page was read as its OCR."""
    stacked = b"q 61.2 0 0 79.2 0 0 cm /Scan Do Q " * 60
    page = drawn(stacked + OCR, resources=b" /XObject << /Scan 6 0 R >>", more=(IMAGE,))
    assert locate(QUOTE, pdf_text(carried(page))).status == "missing"
