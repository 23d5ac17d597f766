"""How fast hostile input is refused: an alias bomb, an endless file, a lock held by another;
and how long the matcher takes over text made to be costly to compare.

`python tests/benchmarks/bench_hostile.py` prints, for each, the seconds it took to give
the user its one-line error (the tests assert the error; the time is measured here), and
the seconds `judge` takes on: two passages of 700 random capitalised words (each tried
as an acronym the other may spell out), a word of 300 letters broken by accents (once
tried as a name shortened in every way it could be cut), an address of a thousand parts
against a dotted name (once deeper than Python's stack), and hundreds of names or of
acronyms of one initial each side (once paired one by one); and the seconds `locate` takes
to find a cell reworded in a table of 60,000 cells on one line (once walked for each
unit it weighed), first with no history, then with the page as read; and to read again
a quote found missing on a page of one word said over and over, cut into 2,000 pieces
(once compared piece by piece with every piece of the page as read). And the seconds
a hostile site's pages take to read, each once in time that grew with the square of its
size or worse: a page of unclosed `<meta `, a robots.txt of thousands of agents over
thousands of rules, nested content roots, links in nested `<sup>`s, nested headings,
Hugo shortcodes never closed, and PDFs of a line of many runs or of small lines amid the
body.
"""

from __future__ import annotations

import random
import string
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from claimledger.errors import LedgerError
from claimledger.ledger.model import parse
from claimledger.reading.match import FoundMissing, judge, locate, normalize, prepare


def billion_laughs(levels: int = 9, width: int = 9) -> str:
    rows = [f"a0: &a0 [{', '.join(['lol'] * width)}]"]
    rows += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * width)}]" for i in range(1, levels + 1)]
    return "\n".join(rows) + "\n"


def timed(label: str, run: object) -> None:
    started = time.perf_counter()
    assert callable(run)
    run()
    print(f"{label:<44} {time.perf_counter() - started:7.3f} s")


def parse_bomb() -> None:
    try:
        parse(billion_laughs())
    except LedgerError:
        return
    raise SystemExit("the alias bomb was not refused")


def command(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", *args], capture_output=True, check=False
    )
    if done.returncode != 2:
        raise SystemExit(f"claimledger {' '.join(args)}: exit {done.returncode}, expected 2")


def capitals(seed: int, count: int = 700) -> str:
    """Words of two or three capitals, some plural: every one of them an acronym."""
    rng = random.Random(seed)
    letters = string.ascii_uppercase
    return " ".join(
        "".join(rng.choice(letters) for _ in range(rng.randint(2, 3)))
        + ("s" if rng.random() < 0.2 else "")
        for _ in range(count)
    )


COSTLY_TO_COMPARE = {
    "700 capitalised words each side": (capitals(1), capitals(2)),
    "a 300-letter word broken by accents": (
        "Set " + "a" * 300 + " now.",
        "Set " + "".join("a\u0301" if i % 7 == 3 else "a" for i in range(300)) + " now.",
    ),
    "an address of a thousand parts": (
        "https://example.com/" + "a/" * 990,
        "a." * 999 + "a ``https://example.com/" + "a/" * 488 + "a",
    ),
    "350 names each put for another": (
        " ".join(f"qz{n:04d}" for n in range(350)),
        " ".join(f"vk{n:04d}" for n in range(350)),
    ),
    "250 acronyms of one initial each side": (
        " ".join(f"A{a}{b}" for a in string.ascii_uppercase for b in string.ascii_uppercase[:10]),
        " ".join(f"A{b}{a}" for a in string.ascii_uppercase for b in string.ascii_uppercase[:10]),
    ),
}


def one_line_table(cells: int) -> tuple[str, str, str]:
    """A quote of one row, the table as read with it, and the table now with it reworded."""
    rng = random.Random(11)
    words = ["Node", "Zone", "Replica", "Leader", "Shard", "Region", "Disk", "Queue"]
    row = [f"{rng.choice(words)}{rng.randrange(999)}" for _ in range(cells)]
    half = cells // 2
    quote, now = "Replicas | Three | Cluster", "Replicas | Five | Cluster"
    return (
        quote,
        " | ".join([*row[:half], quote, *row[half:]]),
        " | ".join([*row[:half], now, *row[half:]]),
    )


def main() -> None:
    judge(normalize("warm up"), normalize("warm the lemmas up"))
    for label, (quote, passage) in COSTLY_TO_COMPARE.items():
        timed(f"judge: {label}", lambda q=quote, p=passage: judge(normalize(q), normalize(p)))
    quote, was, now = one_line_table(60_000)
    timed("locate: a table of 60,000 cells on one line", lambda: locate(quote, prepare(now)))
    read = prepare(was)
    context = locate(quote, read).context
    timed(
        "locate: the same, with the page as read",
        lambda: locate(quote, prepare(now), context=context, previous=read),
    )
    filler = " ".join(["data"] * 99_000)
    quote = " ".join(["data"] * 15 + ["is", "kept."])
    then = prepare(f"{filler} {filler}")
    missing = FoundMissing(locate(quote, then).closest)
    again = prepare(f"{filler} {quote[:-6]} lost. {filler}")
    timed(
        "locate: found missing, read again (one word)",
        lambda: locate(quote, again, previous=then, was_missing=missing),
    )
    hostile_pages()
    with tempfile.TemporaryDirectory() as folder:
        bomb = Path(folder) / "claims.yaml"
        bomb.write_text(billion_laughs(), encoding="utf-8")
        timed("alias bomb, parse()", parse_bomb)
        timed(
            "alias bomb, `claimledger check` (a process)",
            lambda: command("--ledger", str(bomb), "check"),
        )
        if Path("/dev/zero").exists():
            timed(
                "/dev/zero as the ledger (a process)",
                lambda: command("--ledger", "/dev/zero", "check"),
            )


def hostile_partials() -> None:
    """What a hostile docs repository can write in a partial and the include cutting it."""
    from claimledger.reading.clips import clipped

    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/: the cuts
    from test_includes_cut import hostile_cuts

    for label, text, clip in hostile_cuts():
        timed(f"cut: {label}", lambda text=text, clip=clip: clipped(text, clip))


def hostile_pages() -> None:
    """What a hostile site can serve: each once cost the square of its size or more."""
    from protego import Protego

    from claimledger.reading.decoding import decode
    from claimledger.reading.extract import extract_text
    from claimledger.reading.includes import expanded, includes_of
    from claimledger.reading.pdf import carried, pdf_text
    from claimledger.reading.sections import html_headings
    from claimledger.records import FetchPolicy
    from claimledger.web.robots import as_we_read_it

    flood = b"<meta " * 1_000_000 + b"\xff"
    timed("decode: 6 MB of unclosed <meta, not UTF-8", lambda: decode(flood, "text/html", None))
    agents = "".join(f"User-agent: b*o*t{i}\n" for i in range(2_000))
    robots = agents + "".join(f"Allow: /q{i}$\n" for i in range(2_000))
    ours = FetchPolicy().user_agent
    timed(
        "robots.txt: 2,000 agents over 2,000 rules",
        lambda: Protego.parse(as_we_read_it(robots, ours)),
    )
    stack = "<article>w" * 1_900 + "</article>" * 1_900
    timed("extract: 2 MB of nested <article>s", lambda: extract_text(stack * 52, "text/html"))
    sups = "<sup>" * 1_000 + '<a href="/x">w</a>' * 110_000
    timed("extract: 2 MB of links in 1,000 nested <sup>s", lambda: extract_text(sups, "text/html"))
    headings = ("<h2>w" * 1_900 + "</h2>" * 1_900) * 52
    timed("headings: 1 MB of nested <h2>s", lambda: html_headings(headings))
    hugo = '{{< include "a.md" x\n' * 10_000
    timed("includes: 200 KB of Hugo shortcodes never closed", lambda: includes_of(hugo, "a.md"))
    myst = "```{include} a.md\n---\n" * 10_000 + "start-after: x\n" * 100_000
    timed("includes: 10,000 MyST option blocks never closed", lambda: includes_of(myst, "a.md"))
    block = "--8<--\n" + "a.md:1:9\n" * 200_000 + "--8<--\n" * 100_000
    timed("includes: a snippet block of 200,000 files", lambda: includes_of(block, "a.md"))
    options = ".. include:: a.rst\n" + "   :start-after: x\n" * 100_000
    timed(
        "includes: a Sphinx include of 100,000 options, read and replaced",
        lambda: expanded(options, includes_of(options, "i.rst"), {"a.rst": "x"}),
    )
    hostile_partials()
    runs = b"".join(b"/F1 %d Tf (w%d ) Tj " % (11 + n % 2, n) for n in range(50_000))
    line = _one_page_pdf(b"BT 72 700 Td " + runs + b"ET")
    timed("PDF: a line drawn in 50,000 runs", lambda: pdf_text(carried(line)))
    small = b"".join(
        b"/F1 12 Tf 0 -14 Td (Body line.) Tj /F1 6 Tf 0 -14 Td (1 note) Tj " for _ in range(20_000)
    )
    notes = _one_page_pdf(b"BT 72 700 Td " + small + b"ET")
    timed("PDF: 20,000 small lines amid the body", lambda: pdf_text(carried(notes)))


def _one_page_pdf(content: bytes) -> bytes:
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    from pdf_builder import drawn

    return drawn(content)


if __name__ == "__main__":
    main()
