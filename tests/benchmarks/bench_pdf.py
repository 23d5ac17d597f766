"""Which PDF reader finds a quote in the layouts reviewers quote from: pypdf (what
claimledger uses) beside pdfminer.six, on PDFs that reportlab lays out as documents are
laid out, with each library's text made ready the same way (`reading.pdf`: running heads
and feet left out, a line a page, hyphenated words whole again) and each quote looked
for by the matcher.

Layouts: one column with a running header and footer (page numbers) and footnotes; two
columns with a header and footer; a table of settings; paragraphs of thirty sentences, so
that a sentence runs from one page (or column) to the next across the footer and the
header. Every quote is a sentence of the body that runs over one or more line breaks.
Prints, per layout and reader, the quotes verified, those found only reworded (the
reader interleaved or dropped words), and the seconds the reader took (reportlab and
pdfminer.six are test dependencies, not the product's).

Then the same on real PDFs (tests/data/pdf: a WordPerfect summary, a three-column Federal
Register page, a two-column groff document), with the quotes tests/test_pdf_real.py
verifies (among them two that run on to the next page past a footnote), and the
running heads and feet it must not find: "furniture" counts those that were found
(verified or reworded). Three readers: pypdf's text as it comes, the same made ready as
claimledger reads it (`reading.pdf.pdf_text`: word spacing, footnote marks and
footnotes), and
pdfminer.six.

    python tests/benchmarks/bench_pdf.py
"""

from __future__ import annotations

import io
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the PDFs' maker

from claimledger.reading.match import locate
from claimledger.reading.pdf import carried, flowed, pdf_text, without_running_lines
from pdf_builder import laid_out
from test_pdf_real import DATA, FOUND, RUNNING

WORDS = (
    *("the", "service", "replicates", "each", "write", "to", "three", "zones", "before", "it"),
    *("acknowledges", "a", "request", "so", "that", "committed", "survives", "loss", "of"),
    *("one", "zone", "while", "reads", "follow", "observe", "and", "backups", "are", "taken"),
    *("every", "hour", "kept", "for", "thirty", "days", "in", "another", "region", "where"),
    *("keys", "rotated", "on", "schedule", "operator", "sets"),
)


def sentences(count: int, seed: int) -> list[str]:
    rng = random.Random(seed)
    made = []
    for n in range(count):
        words = [rng.choice(WORDS) for _ in range(rng.randint(18, 34))]
        made.append(f"Clause {n + 1}: " + " ".join(words) + ".")
    return made


def pypdf_pages(data: bytes) -> list[str]:
    from pypdf import PdfReader

    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def pdfminer_pages(data: bytes) -> list[str]:
    from pdfminer.high_level import extract_text
    from pdfminer.pdfpage import PDFPage

    count = sum(1 for _ in PDFPage.get_pages(io.BytesIO(data)))
    return [extract_text(io.BytesIO(data), page_numbers=[n]) for n in range(count)]


READERS: dict[str, Callable[[bytes], list[str]]] = {
    "pypdf": pypdf_pages,
    "pdfminer.six": pdfminer_pages,
}


def claimledger_text(data: bytes) -> str:
    return pdf_text(carried(data))


def made_ready(read: Callable[[bytes], list[str]]) -> Callable[[bytes], str]:
    return lambda data: "\n".join(flowed(page) for page in without_running_lines(read(data)))


TEXTS: dict[str, Callable[[bytes], str]] = {
    "pypdf": made_ready(pypdf_pages),
    "claimledger": claimledger_text,
    "pdfminer.six": made_ready(pdfminer_pages),
}


def real_files() -> None:
    """Each real PDF: its quotes verified or not, and its running lines found or not."""
    quotes: dict[str, list[str]] = {}
    for param in FOUND:
        name, quote = param.values
        quotes.setdefault(str(name), []).append(str(quote))
    furniture: dict[str, list[str]] = {}
    for name, line in RUNNING:
        furniture.setdefault(name, []).append(line)
    heads = f"{'verified':>9} {'reworded':>9} {'missing':>8} {'furniture':>10} {'seconds':>8}"
    print(f"\n{'real file':<40} {'reader':<13} {heads}")
    for name, said in quotes.items():
        data = (DATA / name).read_bytes()
        for reader, read in TEXTS.items():
            started = time.perf_counter()
            text = read(data)
            took = time.perf_counter() - started
            found = [locate(quote, text).status for quote in said]
            shown = [locate(line, text).status != "missing" for line in furniture.get(name, [])]
            print(
                f"{name[:40]:<40} {reader:<13} {found.count('verified'):>5}/{len(said)} "
                f"{len(said) - found.count('verified') - found.count('missing'):>9} "
                f"{found.count('missing'):>8} {sum(shown):>6}/{len(shown)} {took:8.2f}"
            )


def main() -> None:
    body = sentences(60, seed=7)
    paragraphs = [" ".join(body[n : n + 30]) for n in range(0, len(body), 30)]
    layouts = {
        "one column, header, footer, footnotes": laid_out(body, columns=1),
        "two columns, header, footer": laid_out(body, columns=2),
        "one column and a table": laid_out(body, columns=1, table=True),
        "long paragraphs, across pages": laid_out(paragraphs, columns=1),
        "long paragraphs, two columns": laid_out(paragraphs, columns=2),
    }
    heads = f"{'verified':>9} {'reworded':>9} {'missing':>8} {'seconds':>8}"
    print(f"{'layout':<40} {'reader':<13} {heads}")
    for layout, data in layouts.items():
        for name, read in READERS.items():
            started = time.perf_counter()
            text = "\n".join(flowed(page) for page in without_running_lines(read(data)))
            took = time.perf_counter() - started
            said = [locate(quote, text).status for quote in body]
            print(
                f"{layout:<40} {name:<13} {said.count('verified'):>5}/{len(body)} "
                f"{said.count('drifted') + said.count('ambiguous'):>9} {said.count('missing'):>8} "
                f"{took:8.2f}"
            )
    real_files()


if __name__ == "__main__":
    main()
