"""A source that answers with a PDF is read as text: `claimledger verify` on real PDFs
served from a loopback server, through the real command line.

The PDFs are written byte by byte (tests/pdf_builder.py), their lines laid out as a PDF
lays them out, so the reader has layout to undo; the encrypted ones are pypdf's own.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from claimledger.reading.match import locate
from claimledger.reading.pdf import carried, pdf_text
from cli_runner import claimledger
from pdf_builder import bomb, build_pdf, drawn, encrypted, laid_out, owner_locked
from webserver import PageServer

REPLICATION = (
    "The service replicates every write to three zones before it acknowledges the "
    "request, so a committed write survives the loss of a zone."
)
WHITEPAPER = [
    [
        "Storage Whitepaper, section 2",
        "The service replicates every write to three zones before it",
        "acknowledges the request, so a committed write survives the loss of a",
        "zone. Reads that follow a committed write observe it: reads are synchro-",
        "nous and strongly consistent within a region.",
    ],
    ["Backups are taken every hour and kept for thirty days."],
]


def verify(url: str, quote: str, code: int = 0) -> Any:
    result = claimledger("verify", "--allow-private", url, quote, "--json", code=code)
    return json.loads(result.stdout)


@pytest.mark.parametrize("compress", [False, True], ids=["plain", "flate"])
def test_a_quote_from_a_pdf_verifies(page_server: PageServer, compress: bool) -> None:
    page_server.set_page(
        "/whitepaper", build_pdf(WHITEPAPER, compress=compress), content_type="application/pdf"
    )

    payload = verify(page_server.url("/whitepaper"), REPLICATION)

    assert (payload["source_status"], payload["status"]) == ("ok", "verified")
    assert payload["current"] == REPLICATION


def test_a_quote_across_a_hyphenated_line_break_verifies(page_server: PageServer) -> None:
    page_server.set_page("/paper.pdf", build_pdf(WHITEPAPER), content_type="application/pdf")
    quote = "reads are synchronous and strongly consistent within a region."

    payload = verify(page_server.url("/paper.pdf"), quote)

    assert payload["status"] == "verified"
    assert payload["current"] == quote
    assert payload["context"]["before"].endswith("Reads that follow a committed write observe it: ")


HYPHEN_AT_173 = {
    "soft-hyphen": b"/WinAnsiEncoding",
    "unicode-hyphen": b"<< /BaseEncoding /WinAnsiEncoding /Differences [173 /uni2010] >>",
}
"""Fonts whose code 173 is a soft hyphen (U+00AD, a word processor's discretionary
hyphen) or the Unicode hyphen (U+2010)."""


@pytest.mark.parametrize("encoding", HYPHEN_AT_173.values(), ids=HYPHEN_AT_173.keys())
def test_a_word_broken_with_a_soft_or_unicode_hyphen_is_whole_again(
    page_server: PageServer, encoding: bytes
) -> None:
    """At a line's end and at a page's end, as a word broken with ``-`` is."""
    font = b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding %s >>" % encoding
    lines = b"BT /F1 12 Tf 14 TL 72 700 Td (Reads are synchro\\255) Tj T* (nous here.) Tj ET"
    page_server.set_page("/line.pdf", drawn(lines, font=font), content_type="application/pdf")
    pages = [["The first page opens here.", "We offer a strong guaran\xad"], ["tee of uptime."]]
    page_server.set_page("/page.pdf", build_pdf(pages, font=font), content_type="application/pdf")

    line = verify(page_server.url("/line.pdf"), "Reads are synchronous here.")
    page = verify(page_server.url("/page.pdf"), "We offer a strong guarantee of uptime.")

    assert (line["status"], line["current"]) == ("verified", "Reads are synchronous here.")
    assert (page["status"], page["pdf_page"]) == ("verified", 1)


@pytest.mark.parametrize(
    ("end", "start", "quote"),
    [
        ("We offer a strong guaran-", "tee of uptime.", "We offer a strong guarantee of uptime."),
        ("We build on TLS-", "1.3 for every call.", "We build on TLS-1.3 for every call."),
    ],
    ids=["hyphenated", "compound"],
)
def test_a_word_broken_at_a_page_break_is_whole_again(
    page_server: PageServer, end: str, start: str, quote: str
) -> None:
    """As at a line's end: the quote verifies verbatim, and is on the page it starts on."""
    pages = [["The first page opens here.", end], [start, "The second page ends here."]]
    page_server.set_page("/paper.pdf", build_pdf(pages), content_type="application/pdf")

    payload = verify(page_server.url("/paper.pdf"), quote)

    assert (payload["status"], payload["match"], payload["pdf_page"]) == ("verified", "exact", 1)
    assert pdf_text(carried(build_pdf(pages))).count("\n") == 1  # still one line a page


def test_a_number_raised_after_ten_or_two_is_its_power_and_after_another_figure_a_mark(
    page_server: PageServer,
) -> None:
    """10 set with a small raised 9 is ten to the ninth: it was read "10", and a quote of
    "10 requests" verified on it. It reads "10^9", as a quote written 10⁹ does; a raised
    number after a year, a table's or a chapter's number, or a word, is a note's mark."""
    raised = b"(%s) Tj /F1 7 Tf 0 5 Td (%s) Tj /F1 12 Tf 0 -5 Td ( %s) Tj"
    content = b"BT /F1 12 Tf 14 TL 72 700 Td %s T* %s T* %s T* %s T* %s T* %s T* %s ET" % (
        raised % (b"The service handles up to 10", b"9", b"requests a day."),
        raised % (b"It is required by", b"1", b"law."),
        raised % (b"The limit was raised in 2019", b"2", b"to 500."),
        raised % (b"As Table 2", b"3", b"shows, writes wait."),
        raised % (b"See chapter 10", b"4", b"for the rest."),
        raised % (b"IPv4 has 2", b"32", b"addresses."),
        raised % (b"Tier 2", b"1", b"support answers."),
    )
    page_server.set_page("/limits.pdf", drawn(content), content_type="application/pdf")
    url = page_server.url("/limits.pdf")

    power = verify(url, "The service handles up to 10 requests a day.", code=1)
    written = verify(url, "The service handles up to 10\u2079 requests a day.")

    assert power["status"] == "drifted"
    assert power["current"] == "The service handles up to 10^9 requests a day."
    assert written["status"] == "verified"  # 10⁹ and 10^9 are one number
    assert verify(url, "IPv4 has 2 addresses.", code=1)["current"] == "IPv4 has 2^32 addresses."
    marked = ("It is required by law.", "The limit was raised in 2019 to 500.")
    labels = ("As Table 2 shows, writes wait.", "See chapter 10 for the rest.")
    for quote in (*marked, *labels, "Tier 2 support answers."):
        assert (verify(url, quote)["status"], verify(url, quote)["match"]) == ("verified", "exact")


def test_pages_are_read_in_order(page_server: PageServer) -> None:
    page_server.set_page("/paper", build_pdf(WHITEPAPER), content_type="application/pdf")

    payload = verify(page_server.url("/paper"), "Backups are taken every hour.", code=1)

    assert payload["status"] == "drifted"
    assert payload["current"] == "Backups are taken every hour and kept for thirty days."
    assert payload["context"]["before"].endswith("strongly consistent within a region.\n")


def test_a_pdf_address_served_as_octet_stream_is_read_by_its_header(
    page_server: PageServer,
) -> None:
    page_server.set_page(
        "/files/report.pdf", build_pdf(WHITEPAPER), content_type="application/octet-stream"
    )
    page_server.set_page(
        "/files/report.bin", build_pdf(WHITEPAPER), content_type="application/octet-stream"
    )
    page_server.set_page(
        "/files/fake.pdf", b"\x89PNG\r\n\x1a\n not a pdf", content_type="application/octet-stream"
    )

    assert verify(page_server.url("/files/report.pdf"), REPLICATION)["status"] == "verified"
    not_pdf = verify(page_server.url("/files/report.bin"), REPLICATION, code=1)
    fake = verify(page_server.url("/files/fake.pdf"), REPLICATION, code=1)

    for payload in (not_pdf, fake):
        assert payload["source_status"] == "unreadable"
        assert payload["error"] == "content type application/octet-stream is not text we can read"


SHOWN = b"BT /F1 12 Tf 72 700 Td (The replication factor is three.) Tj ET"
FOREIGN_LOCK = b"<< /Filter /Adobe.PubSec /V 4 /R 4 /Length 128 >>"
"""An /Encrypt of a security handler other than the standard one pypdf knows."""
WIDE_CID = (
    b"<< /Type /Font /Subtype /Type0 /BaseFont /X /Encoding /Identity-H /DescendantFonts [6 0 R] >>"
)
WIDTHS_PAST_INT = (
    b"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /X /CIDSystemInfo << /Registry (Adobe) "
    b"/Ordering (Identity) /Supplement 0 >> /W [99999999999 [500]] >>"
)
"""A CID font whose widths start at a character code past any C int."""
OVERFLOW = "the PDF could not be read: OverflowError: "
"""Damage pypdf lets surface as one of Python's own errors, named."""


@pytest.mark.parametrize(
    ("body", "reason"),
    [
        (build_pdf(WHITEPAPER)[:300], "the PDF could not be read: "),
        (b"%PDF-1.7\n" + bytes(range(256)) * 8, "the PDF could not be read: "),
        (b"<html><body>Not found</body></html>", "not a PDF: no %PDF- header"),
        (encrypted(build_pdf(WHITEPAPER), "s3cret"), "the PDF is encrypted: it needs a password"),
        (bomb(), "the PDF could not be read: Limit reached while decompressing"),
        (drawn(SHOWN, stream_keys=b" /Filter /NoSuchDecode"), "the PDF cannot be read here: "),
        (
            drawn(SHOWN, more=(FOREIGN_LOCK,), trailer=b" /Encrypt 6 0 R /ID [<0011> <0011>]"),
            "the PDF cannot be read here: ",
        ),
        (drawn(b"BT /F1 12 Tf 72 700 Td [1 0 R] TJ ET"), "the PDF could not be read: Assertion"),
        (drawn(b"BT /F1 12 Tf <0041> Tj ET", font=WIDE_CID, more=(WIDTHS_PAST_INT,)), OVERFLOW),
        (build_pdf(WHITEPAPER).replace(b"startxref\n", b"startxref\n1" + b"0" * 20), OVERFLOW),
    ],
    ids=[
        "truncated", "garbage", "not-a-pdf", "encrypted", "decompression-bomb",
        "unknown-filter", "foreign-encryption", "reference-in-text", "widths-past-int",
        "startxref-past-int",
    ],
)  # fmt: skip
def test_a_pdf_that_cannot_be_read_is_unreadable_with_one_line_why(
    page_server: PageServer, body: bytes, reason: str
) -> None:
    page_server.set_page("/doc.pdf", body, content_type="application/pdf")

    payload = verify(page_server.url("/doc.pdf"), REPLICATION, code=1)

    assert (payload["source_status"], payload["status"]) == ("unreadable", None)
    assert payload["error"].startswith(reason)
    assert "\n" not in payload["error"]


def test_a_pdf_locked_for_its_owner_alone_is_read(page_server: PageServer) -> None:
    """Encrypted with an empty user password, as many published reports are: every viewer
    opens it, and so does the reader."""
    locked = owner_locked(build_pdf(WHITEPAPER))
    page_server.set_page("/report", locked, content_type="application/pdf")

    assert verify(page_server.url("/report"), REPLICATION)["status"] == "verified"


def test_a_pdf_of_more_pages_than_are_read_is_unreadable(page_server: PageServer) -> None:
    from claimledger.reading.pdf import MAX_PAGES

    pages = [["A page of a very long report."]] * (MAX_PAGES + 1)
    page_server.set_page("/long.pdf", build_pdf(pages), content_type="application/pdf")

    payload = verify(page_server.url("/long.pdf"), REPLICATION, code=1)

    assert payload["source_status"] == "unreadable"
    assert payload["error"] == f"the PDF has {MAX_PAGES + 1} pages, more than the {MAX_PAGES} read"


def test_a_refresh_reads_a_pdf_source_and_its_304(page_server: PageServer, tmp_path: Any) -> None:
    """In a ledger: the PDF's text is the snapshot, so a second run answered 304 verifies
    from the store without reading the PDF again."""
    page_server.set_page(
        "/whitepaper.pdf",
        build_pdf(WHITEPAPER),
        content_type="application/pdf",
        headers={"ETag": '"w1"'},
    )
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        LEDGER.format(url=page_server.url("/whitepaper.pdf"), quote=REPLICATION), "utf-8"
    )
    refresh = ("--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read", "--json")

    first = json.loads(claimledger(*refresh).stdout)
    second = json.loads(claimledger(*refresh).stdout)

    for run in (first, second):
        assert [check["status"] for check in run["checks"]] == ["verified"]
    asked = [r.headers.get("if-none-match") for r in page_server.page_requests]
    assert asked == [None, '"w1"']


def test_a_quote_found_on_a_304_links_to_its_pdf_page(
    page_server: PageServer, tmp_path: Any
) -> None:
    """A 304 need not repeat the Content-Type: a quote new to the ledger, found in the
    stored text of a PDF at an address without `.pdf`, is still on its page."""
    page_server.set_page(
        "/whitepaper", build_pdf(WHITEPAPER), content_type="application/pdf",
        headers={"ETag": '"w1"'},
    )  # fmt: skip
    url = page_server.url("/whitepaper")
    backups = "Backups are taken every hour and kept for thirty days."
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=url, quote=REPLICATION), "utf-8")
    refresh = ("--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read", "--json")
    claimledger(*refresh)
    ledger.write_text(LEDGER.format(url=url, quote=backups), "utf-8")

    run = json.loads(claimledger(*refresh).stdout)
    claimledger("--ledger", str(ledger), "render", "-o", str(tmp_path / "report.md"))

    assert [r.headers.get("if-none-match") for r in page_server.page_requests] == [None, '"w1"']
    assert [check["status"] for check in run["checks"]] == ["verified"]
    assert f"({url}#page=2)" in (tmp_path / "report.md").read_text(encoding="utf-8")


LEDGER = """\
ledger: 1
title: A reading of a whitepaper
subject: A storage service
date_read: 2026-08-23
sections:
  - id: guarantees
    title: Guarantees
sources:
  paper:
    url: {url}
    title: Storage whitepaper
    kind: docs
    publisher: example.com
claims:
  - id: three-zones
    section: guarantees
    title: Three zones
    kind: guarantee
    statement: A committed write survives a zone.
    quotes:
      - text: "{quote}"
        sources: [paper]
    grades:
      - on: the documentation says this
        grade: CLAIMED
        basis: quotes
        why: the whitepaper says so
"""


def test_the_reports_link_opens_the_pdf_at_the_quotes_page(
    page_server: PageServer, tmp_path: Any
) -> None:
    """A text fragment means nothing to a PDF viewer: the link names the page instead."""
    page_server.set_page("/whitepaper.pdf", build_pdf(WHITEPAPER), content_type="application/pdf")
    backups = "Backups are taken every hour and kept for thirty days."
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(url=page_server.url("/whitepaper.pdf"), quote=backups), "utf-8")
    claimledger("--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read")
    report = tmp_path / "report.md"
    claimledger("--ledger", str(ledger), "render", "-o", str(report))

    markdown = report.read_text(encoding="utf-8")
    url = page_server.url("/whitepaper.pdf")
    assert f"({url}#page=2)" in markdown
    assert f"{url}#:~:text=" not in markdown


def test_a_sentence_running_across_a_page_break_under_running_heads_verifies() -> None:
    """A document laid out by reportlab in two columns, a title on top of every page and
    its number at the foot: every sentence reads whole, those that run on to the next
    column or page too, since the running lines are left out of the text."""
    words = [
        "write",
        "zone",
        "copy",
        "region",
        "key",
        "backup",
        "replica",
        "request",
        "log",
        "snapshot",
        "lease",
    ]
    rng = random.Random(2119)
    sentences = [
        f"Clause {n}: " + " ".join(rng.choice(words) for _ in range(rng.randint(14, 30))) + "."
        for n in range(1, 80)
    ]
    paragraphs = [" ".join(sentences[n : n + 40]) for n in range(0, len(sentences), 40)]
    text = pdf_text(carried(laid_out(paragraphs, columns=2)))

    pages = text.split("\n")
    crossing = [s for s in sentences if not any(s in page for page in pages)]
    assert len(pages) >= 2 and crossing  # some sentence does run on to the next page
    assert [locate(sentence, text).status for sentence in sentences] == ["verified"] * 79
    assert "Confidential draft" not in text and "Page 1" not in text
