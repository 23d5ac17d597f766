"""Quotes from real PDFs, made by real publishing tools, verified through the command line
from a loopback server: a WordPerfect summary of the U.S. Copyright Office, a page of the
Federal Register set by the Government Publishing Office, and a two-column document set
by groff (tests/data/pdf/README.md says where each comes from and what it is made of).

Each quote is chosen for what a reader of that layout gets wrong: a word hyphenated at a
line's end, a sentence in a later column, on a later page, over a footnote mark or past a
footnote, a ligature, a compound broken at an en dash; and running heads and feet must
not be found.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from claimledger.reading.pdf import carried, pdf_text
from cli_runner import claimledger
from pdf_builder import drawn
from webserver import PageServer

DATA = Path(__file__).parent / "data" / "pdf"
DMCA = "dmca-summary-1998.pdf"
REGISTER = "federal-register-2020-08-06-p47698.pdf"
TERMS = "service-terms-groff.pdf"


@pytest.fixture
def pdfs(page_server: PageServer) -> PageServer:
    for path in DATA.glob("*.pdf"):
        page_server.set_page(f"/{path.name}", path.read_bytes(), content_type="application/pdf")
    return page_server


def verify(server: PageServer, name: str, quote: str, code: int = 0) -> Any:
    url = server.url(f"/{name}")
    result = claimledger("verify", "--allow-private", url, quote, "--json", code=code)
    return json.loads(result.stdout)


FOUND = [
    pytest.param(
        DMCA,
        "In 1995 this obligation was implemented in the Uruguay Round Agreements Act, "
        "creating a new section 104A in the Copyright Act to restore protection to works "
        "from Berne or WTO member countries that are still protected in the country of "
        "origin, but fell into the public domain in the United States in the past because "
        "of a failure to comply with formalities that then existed in U.S. law, or due to "
        "a lack of treaty relations.",
        id="wordperfect-hyphenated-and-justified",
    ),
    pytest.param(
        DMCA,
        "The Digital Millennium Copyright Act (DMCA) was signed into law by President "
        "Clinton on October 28, 1998.",
        id="wordperfect-over-a-footnote-mark",
    ),
    pytest.param(
        DMCA,
        "Section 1201 divides technological measures into two categories: measures that "
        "prevent unauthorized access to a copyrighted work and measures that prevent "
        "unauthorized copying of a copyrighted work.",
        id="wordperfect-across-a-page-past-a-note-drawn-before-the-body",
    ),
    pytest.param(
        DMCA,
        "“Copying” is used in this context as a short-hand for the exercise of any of the "
        "exclusive rights of an author under section 106 of the Copyright Act.",
        id="wordperfect-a-footnote-hyphenated-by-its-mark",
    ),
    pytest.param(
        REGISTER,
        "Since AD 2018–23–51 was issued, the agency has determined that final corrective "
        "action is necessary to address the unsafe condition.",
        id="register-en-dash-at-a-line-end",
    ),
    pytest.param(
        REGISTER,
        "Comments will be available in the AD docket shortly after receipt.",
        id="register-second-column",
    ),
    pytest.param(
        REGISTER,
        "Under the Freedom of Information Act (FOIA) (5 U.S.C. 552), CBI is exempt from "
        "public disclosure.",
        id="register-third-column",
    ),
    pytest.param(
        REGISTER,
        "SUPPLEMENTARY INFORMATION: Comments Invited The FAA invites you to participate in "
        "this rulemaking by submitting written comments, data, or views about this proposal.",
        id="register-small-heading-low-in-a-column-is-no-footnote",
    ),
    pytest.param(
        TERMS,
        "In these terms the office means the team that operates the storage service and "
        "answers for its availability, its durability and the confidentiality of the data "
        "that customers entrust to it.",
        id="groff-ligatures-and-hyphenation",
    ),
    pytest.param(
        TERMS,
        "Every object is written synchronously to three affiliated regions before the "
        "service acknowledges the request, so that the loss of a whole region does not "
        "lose any acknowledged object.",
        id="groff-second-column",
    ),
    pytest.param(
        TERMS,
        "The office affirms that no acknowledged write has been lost since the service was "
        "first offered to customers, and it publishes the figures for each quarter in a "
        "report that any customer may download without charge.",
        id="groff-before-a-footnote-mark",
    ),
    pytest.param(
        TERMS,
        "After the end of the agreement the customer has thirty days to retrieve its "
        "objects, during which the service stays available for reading but refuses new "
        "writes;",
        id="groff-across-a-page-past-a-note-at-its-foot",
    ),
]


@pytest.mark.parametrize(("name", "quote"), FOUND)
def test_a_quote_from_a_real_pdf_verifies(pdfs: PageServer, name: str, quote: str) -> None:
    payload = verify(pdfs, name, quote)

    assert (payload["source_status"], payload["status"]) == ("ok", "verified")
    assert " ".join(payload["current"].split()) == quote  # a page break is a line break


RUNNING = [
    (DMCA, "Copyright Office Summary December 1998 Page 4"),
    (DMCA, "Copyright Office Summary December 1998 Page 17"),
    (TERMS, "Storage Service Terms Version 3, March 2024"),
    (TERMS, "Public domain sample Page 2"),
]


@pytest.mark.parametrize(
    ("name", "quote"),
    RUNNING,
    ids=["wordperfect-foot-among-notes", "wordperfect-foot", "groff-head", "groff-foot"],
)
def test_a_running_head_or_foot_is_not_found(pdfs: PageServer, name: str, quote: str) -> None:
    """A running line is furniture, not what the document says: a quote of it is missing,
    and it does not stand inside the sentence that runs on to the next page."""
    payload = verify(pdfs, name, quote, code=1)

    assert payload["source_status"] == "ok"
    assert payload["status"] == "missing"


CONSUMER = (
    "Nothing in these terms limits a right that the law grants to a consumer and that "
    "cannot be waived by agreement."
)
FAIR_USE = (
    "This distinction was employed to assure that the public will have the continued "
    "ability to make fair use of copyrighted works."
)
LEDGER = """\
ledger: 1
title: A reading of real PDFs
subject: Published documents
date_read: 2026-08-23
sections:
  - id: terms
    title: Terms
sources:
  terms:
    url: {terms}
    title: Storage service terms
    kind: docs
    publisher: example.com
  dmca:
    url: {dmca}
    title: DMCA summary
    kind: docs
    publisher: copyright.gov
claims:
  - id: consumers
    section: terms
    title: Consumer rights stand
    kind: guarantee
    statement: The terms do not limit a consumer's rights.
    quotes:
      - text: "{consumer}"
        sources: [terms]
    grades:
      - on: the documentation says this
        grade: CLAIMED
        basis: quotes
        why: the terms say so
  - id: fair-use
    section: terms
    title: Fair use kept
    kind: guarantee
    statement: Copying for fair use is not prohibited.
    quotes:
      - text: "{fair_use}"
        sources: [dmca]
    grades:
      - on: the documentation says this
        grade: CLAIMED
        basis: quotes
        why: the summary says so
"""


def test_a_quote_on_a_later_page_links_to_its_page(pdfs: PageServer, tmp_path: Path) -> None:
    """Refreshed in a ledger, each quote is located to its page, and the report's link
    opens the PDF there."""
    terms, dmca = pdfs.url(f"/{TERMS}"), pdfs.url(f"/{DMCA}")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        LEDGER.format(terms=terms, dmca=dmca, consumer=CONSUMER, fair_use=FAIR_USE), "utf-8"
    )

    refreshed = claimledger(
        "--ledger", str(ledger), "refresh", "--allow-private", "--no-as-read", "--json"
    )
    report = tmp_path / "report.md"
    claimledger("--ledger", str(ledger), "render", "-o", str(report))

    checks = json.loads(refreshed.stdout)["checks"]
    assert [check["status"] for check in checks] == ["verified", "verified"]
    assert sorted(check.get("pdf_page") for check in checks) == [3, 4]
    markdown = report.read_text(encoding="utf-8")
    assert f"({terms}#page=3)" in markdown
    assert f"({dmca}#page=4)" in markdown


@pytest.mark.parametrize(
    "content",
    [
        b"BT /F1 10 Tf 72 720 Td /Wide Tw (the office) Tj ET",
        b"BT /F1 /Big Tf 72 720 Td 20 Tw (the office) Tj ET",
        b"BT /F1 10 Tf 72 720 Td 20 Tw 7 Tj (the office) Tj ET",
        b"BT /F1 10 Tf 72 720 Td 20 Tw (the ) 5 TJ [(off) -50 (ice)] TJ ET",
    ],
    ids=["spacing-not-a-number", "size-not-a-number", "a-number-shown", "TJ-of-a-string"],
)
def test_a_damaged_text_operator_leaves_the_text_readable(content: bytes) -> None:
    """Word spacing is redrawn from the operators' operands: one that is not a number, or
    text shown as a number, rewrites nothing and fails nothing."""
    assert "office" in pdf_text(carried(drawn(content))).replace(" ", "")


def test_small_lines_amid_the_body_are_notes_only_below_most_of_it() -> None:
    """A page of 500 body lines, each followed by a small line opening with a note's
    number: a small line is a note once at least 80% of the body's lines stand above it
    (the 101 from the 399th on), read after the page's last sentence; the rest stay
    where they stand. The count above each is made by bisection over the body's sorted
    baselines, where it was once a sum over all of them for every small line. The page
    is tall enough for them all: text below its foot is not drawn, and not read."""
    shown = b"".join(
        b"/F1 12 Tf 0 -14 Td (Body line %d.) Tj /F1 6 Tf 0 -14 Td (1 note) Tj " % line
        for line in range(500)
    )
    page = drawn(b"BT 72 14500 Td " + shown + b"ET", box=b"0 0 612 14600")
    text = pdf_text(carried(page))

    last_sentence = text.index("Body line 499.")
    assert text.count("Body line ") == 500
    assert text[:last_sentence].count("1 note") == 399
    assert text[last_sentence:].count("1 note") == 101


def test_a_line_of_many_runs_is_one_line_in_their_order() -> None:
    """A baseline drawn in 20,000 runs, the font switched between each: one line, every
    run in its place (its pieces are joined once the line ends, not copied run by run)."""
    runs = b"".join(b"/F1 %d Tf (w%d ) Tj " % (11 + line % 2, line) for line in range(20_000))
    text = pdf_text(carried(drawn(b"BT 72 700 Td " + runs + b"ET")))

    assert text.split() == [f"w{line}" for line in range(20_000)]


def test_verify_names_the_pdf_page_the_quote_stands_on(pdfs: PageServer) -> None:
    quote = "After the end of the agreement the customer has thirty days to retrieve its objects"
    payload = verify(pdfs, TERMS, quote)
    said = claimledger("verify", "--allow-private", pdfs.url(f"/{TERMS}"), quote).stdout

    assert payload["status"] == "verified"
    assert payload["pdf_page"] == _page_holding(TERMS, quote.split(" the customer")[0])
    assert f"on page {payload['pdf_page']} of the PDF" in said


def test_verify_names_no_pdf_page_on_a_web_page(page_server: PageServer) -> None:
    page_server.set_page(
        "/terms", "<html><body><main><p>Objects are kept.</p></main></body></html>"
    )
    payload = verify(page_server, "terms", "Objects are kept.")

    assert (payload["status"], payload["pdf_page"]) == ("verified", None)


def _page_holding(name: str, words: str) -> int:
    """The page (from 1) whose text, as pypdf reads it with every space dropped, holds
    `words`: told apart from the reader under test."""
    wanted = "".join(words.split())
    pages = PdfReader(DATA / name).pages
    return next(
        n for n, page in enumerate(pages, 1) if wanted in "".join(page.extract_text().split())
    )
