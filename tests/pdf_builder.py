"""Real PDFs for tests, written byte by byte: a catalog, a page tree, pages whose content
streams draw text lines in Helvetica, and a cross-reference table with true offsets.

    pdf = build_pdf([["First line of page one,", "its second line."], ["Page two."]])

Each inner list is a page, each string a line laid out as a PDF lays lines out (its own
text-showing operator, one line below the last), so an extractor has layout to undo.
And documents as a real layout engine makes them (`laid_out`: reportlab's columns,
running heads and feet, paragraphs that break across pages).
"""

from __future__ import annotations

import zlib
from io import BytesIO

from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import getSampleStyleSheet
from reportlab.lib.units import cm
from reportlab.pdfgen.canvas import Canvas
from reportlab.platypus import (
    BaseDocTemplate,
    Flowable,
    Frame,
    PageTemplate,
    Paragraph,
    Spacer,
    Table,
)


def _escaped(line: str) -> bytes:
    text = line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")
    return text.encode("latin-1")


def _content(lines: list[str]) -> bytes:
    shown = b"".join(b"(" + _escaped(line) + b") Tj T*\n" for line in lines)
    return b"BT /F1 11 Tf 14 TL 72 720 Td\n" + shown + b"ET\n"


def _stream(data: bytes, *, compress: bool) -> bytes:
    if compress:
        data = zlib.compress(data)
        head = b"<< /Length %d /Filter /FlateDecode >>" % len(data)
    else:
        head = b"<< /Length %d >>" % len(data)
    return head + b"\nstream\n" + data + b"\nendstream"


def build_pdf(
    pages: list[list[str]],
    *,
    compress: bool = False,
    font: bytes = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
) -> bytes:
    """A PDF of `pages`, each a list of text lines, in order (drawn in `font`)."""
    objects: list[bytes] = [b"<< /Type /Catalog /Pages 2 0 R >>", b"", font]
    kids = []
    for lines in pages:
        content_number = len(objects) + 1
        objects.append(_stream(_content(lines), compress=compress))
        kids.append(len(objects) + 1)
        objects.append(
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
            b"/Resources << /Font << /F1 3 0 R >> >> /Contents %d 0 R >>" % content_number
        )
    references = b" ".join(b"%d 0 R" % kid for kid in kids)
    objects[1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (references, len(kids))
    return _file(objects)


def drawn(
    content: bytes,
    *,
    font: bytes = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    stream_keys: bytes = b"",
    more: tuple[bytes, ...] = (),
    trailer: bytes = b"",
    resources: bytes = b"",
    catalog: bytes = b"",
    box: bytes = b"0 0 612 792",
) -> bytes:
    """A one-page PDF whose content stream is `content`, drawn in Helvetica as /F1; or
    with another `font`, more keys in the stream's dictionary (a /Filter), `more`
    objects (numbered from 6), more keys in the trailer (an /Encrypt), in the page's
    resources (an /XObject, /Properties) and in the catalog (/OCProperties); on a
    page of another media `box`."""
    head = b"<< /Length %d%s >>" % (len(content), stream_keys)
    return _file(
        [
            b"<< /Type /Catalog /Pages 2 0 R%s >>" % catalog,
            b"<< /Type /Pages /Kids [5 0 R] /Count 1 >>",
            font,
            head + b"\nstream\n" + content + b"\nendstream",
            b"<< /Type /Page /Parent 2 0 R /MediaBox [%s] "
            b"/Resources << /Font << /F1 3 0 R >>%s >> /Contents 4 0 R >>" % (box, resources),
            *more,
        ],
        trailer=trailer,
    )


def form_xobject(
    content: bytes,
    *,
    keys: bytes = b"",
    resources: bytes = b"/Font << /F1 3 0 R >>",
    box: bytes = b"0 0 612 792",
) -> bytes:
    """A form XObject (an object for `drawn`'s `more`) drawing `content`, with Helvetica
    as /F1 and more `resources` (another form's /XObject), more `keys` (a /Matrix, an
    /OC) and its bounding `box`."""
    return b"<< /Type /XObject /Subtype /Form /BBox [%s]%s /Resources << %s >> " % (
        box,
        keys,
        resources,
    ) + b"/Length %d >>\nstream\n%s\nendstream" % (len(content), content)


def _file(objects: list[bytes], *, trailer: bytes = b"") -> bytes:
    out = BytesIO()
    out.write(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, start=1):
        offsets.append(out.tell())
        out.write(b"%d 0 obj\n" % number + body + b"\nendobj\n")
    table = out.tell()
    out.write(b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1))
    for offset in offsets:
        out.write(b"%010d 00000 n \n" % offset)
    out.write(b"trailer\n<< /Size %d /Root 1 0 R%s >>\n" % (len(objects) + 1, trailer))
    out.write(b"startxref\n%d\n%%%%EOF\n" % table)
    return out.getvalue()


def encrypted(pdf: bytes, password: str) -> bytes:
    """`pdf` encrypted so that it opens only with `password` (RC4, which pypdf writes
    without any cryptography package)."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(BytesIO(pdf)))
    writer.encrypt(user_password=password, owner_password=password + "-owner", algorithm="RC4-128")
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def owner_locked(pdf: bytes) -> bytes:
    """`pdf` encrypted for its owner alone: any reader opens it with the empty password."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(BytesIO(pdf)))
    writer.encrypt(user_password="", owner_password="owner", algorithm="RC4-128")
    out = BytesIO()
    writer.write(out)
    return out.getvalue()


def bomb(megabytes: int = 64) -> bytes:
    """A small PDF whose one content stream inflates far past what a reader allows
    (zeros compress a thousandfold)."""
    objects: list[bytes] = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [4 0 R] /Count 1 >>",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] "
        b"/Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>",
    ]
    inflater = zlib.compressobj(9)
    data = inflater.compress(b"BT /F1 11 Tf 72 720 Td (boom) Tj ET\n")
    zeros = b" " * (1024 * 1024)
    for _ in range(megabytes):
        data += inflater.compress(zeros)
    data += inflater.flush()
    objects.append(b"<< /Length %d /Filter /FlateDecode >>\nstream\n" % len(data) + data)
    objects[-1] += b"\nendstream"
    return _file(objects)


# ------------------------------------------------------------------- laid out by a real tool


def _decorations(canvas: Canvas, doc: BaseDocTemplate) -> None:
    """A running head (the title) and foot (the page number) on every page."""
    canvas.saveState()
    canvas.setFont("Helvetica", 8)
    canvas.drawString(2 * cm, A4[1] - 1.2 * cm, "Storage Service Whitepaper - Confidential draft")
    canvas.drawString(A4[0] / 2, 1 * cm, f"Page {doc.page}")
    canvas.restoreState()


def laid_out(body: list[str], *, columns: int, table: bool = False) -> bytes:
    """A document as reportlab lays it out: `body` as paragraphs in `columns` columns under
    a running head and foot, a footnote-like aside every seventh paragraph, and with
    `table`, a table of settings at the end."""
    out = BytesIO()
    doc = BaseDocTemplate(out, pagesize=A4)
    width = (doc.width - (columns - 1) * 0.6 * cm) / columns
    frames = [
        Frame(doc.leftMargin + i * (width + 0.6 * cm), doc.bottomMargin, width, doc.height)
        for i in range(columns)
    ]
    doc.addPageTemplates([PageTemplate(frames=frames, onPage=_decorations)])
    style = getSampleStyleSheet()
    story: list[Flowable] = []
    for n, text in enumerate(body):
        story.append(Paragraph(text, style["BodyText"]))
        if n % 7 == 6:  # a footnote-like aside between paragraphs
            story.append(
                Paragraph(f"<font size=7>{n + 1}. See the appendix.</font>", style["BodyText"])
            )
        story.append(Spacer(1, 4))
    if table:
        rows = [["Setting", "Default", "Meaning"]] + [
            [f"retention_{n}", f"{n + 1} days", "How long a message is kept."] for n in range(12)
        ]
        story.append(Table(rows))
    doc.build(story)
    return out.getvalue()
