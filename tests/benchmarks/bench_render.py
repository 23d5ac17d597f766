"""Render benchmark: a generated ledger of 500 claims with evidence, to Markdown and HTML.

Each claim has two facets and two quotes on two of 50 sources; a tenth of the checks
are reworded, a twentieth not found, some pages refused. Prints the seconds spent
building the report and rendering each format (best of five, templates already
compiled, as in one `claimledger render`), and the first render with a cold
environment. Target: build + Markdown + HTML within one second.

    python tests/benchmarks/bench_render.py
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from datetime import UTC, date, datetime

from claimledger.grading.rules import regrade
from claimledger.ledger.model import Claim, Facet, Ledger, Quote, Section, Source
from claimledger.ledger.vocabulary import Basis, Grade
from claimledger.records import CheckRecord, CheckStatus, FetchRecord, WordChange
from claimledger.report.build import build_report
from claimledger.report.formats import format_for
from claimledger.report.model import Report
from claimledger.report.templates import Templates, templates_loader

CLAIMS = 500
SOURCES = 50
SECTIONS = 10
WHEN = datetime(2026, 11, 29, 9, 0, tzinfo=UTC)
WORDS = [
    *("object", "request", "storage", "gate", "write", "read", "state", "event", "await"),
    *("message", "delivered", "consistent", "durable", "instance", "cache", "workflow"),
    *("step", "retry", "approval", "limit"),
]


def sentence(rng: random.Random, words: int = 14) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(words)).capitalize() + "."


def generated_ledger(rng: random.Random) -> Ledger:
    sources = {
        f"s{i}": Source(
            f"s{i}", f"https://docs.example.com/page/{i}", f"Page {i}", "docs", f"p{i % 7}"
        )
        for i in range(SOURCES)
    }
    sections = tuple(Section(f"sec{i}", f"Section {i}", sentence(rng, 40)) for i in range(SECTIONS))
    claims = []
    for n in range(CLAIMS):
        quotes = tuple(
            Quote(sentence(rng), (f"s{rng.randrange(SOURCES)}", f"s{rng.randrange(SOURCES)}"))
            for _ in range(2)
        )
        quotes = tuple(Quote(q.text, tuple(dict.fromkeys(q.sources))) for q in quotes)
        premises = (f"c{rng.randrange(n)}",) if n > 10 and n % 3 == 0 else ()
        facets: tuple[Facet, ...] = (
            Facet("the documentation says this", Grade.DEMONSTRATED, Basis.QUOTES, "read"),
            Facet("it holds", rng.choice(list(Grade)), Basis.JUDGEMENT, sentence(rng, 8)),
        )
        if premises:
            facets += (Facet("follows", Grade.SPECULATIVE, Basis.PREMISES, "inference"),)
        claims.append(
            Claim(
                id=f"c{n}",
                section=f"sec{n % SECTIONS}",
                title=f"Claim {n}: {sentence(rng, 6)}",
                statement=sentence(rng, 30),
                kind="question" if n % 25 == 0 else "guarantee",
                grades=facets,
                quotes=quotes,
                depends_on=premises,
                falsified_if=sentence(rng, 10),
            )
        )
    return Ledger(
        title="Generated",
        date_read=date(2026, 8, 23),
        sections=sections,
        sources=sources,
        claims=tuple(claims),
    )


def evidence(
    rng: random.Random, ledger: Ledger
) -> tuple[list[CheckRecord], dict[str, FetchRecord]]:
    refused = {f"s{i}" for i in range(0, SOURCES, 17)}
    checks = []
    for claim in ledger.claims:
        for index, quote in enumerate(claim.quotes):
            for source_id in quote.sources:
                roll = rng.random()
                status: CheckStatus | None = (
                    "verified" if roll > 0.15 else ("drifted" if roll > 0.05 else "missing")
                )
                if source_id in refused:
                    status = None
                checks.append(
                    CheckRecord(
                        claim.id,
                        index,
                        quote.text,
                        source_id,
                        ledger.sources[source_id].url,
                        "refused" if source_id in refused else "ok",
                        status,
                        "exact" if status == "verified" else None,
                        0.9,
                        quote.text.replace(" the ", " a ") if status == "drifted" else None,
                        status == "drifted" and roll < 0.08,
                        (WordChange("replace", "the", "a", False),) if status == "drifted" else (),
                        1,
                        None,
                        None,
                        None,
                        WHEN,
                    )
                )
    fetches = {
        source.url: FetchRecord(
            1,
            source.url,
            source.url,
            429 if sid in refused else 200,
            "refused" if sid in refused else "ok",
            (),
            None,
            None,
            None,
            "text/html",
            None,
            False,
            1,
            0.1,
            None,
            WHEN,
        )
        for sid, source in ledger.sources.items()
    }
    return checks, fetches


def best_of(runs: int, work: Callable[[], object]) -> float:
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def render(report: Report, fmt: str, templates: Templates) -> str:
    return format_for(fmt, templates).render(report)


def main() -> None:
    rng = random.Random(5)
    ledger = generated_ledger(rng)
    checks, fetches = evidence(rng, ledger)
    graded = regrade(ledger, checks)

    def build() -> Report:
        return build_report(
            ledger,
            checks,
            fetches,
            graded,
            generated_on=date(2026, 12, 1),
            last_refresh=WHEN,
            previous=None,
        )

    start = time.perf_counter()
    report = build()
    cold_templates = Templates(templates_loader(None))
    cold = {fmt: len(render(report, fmt, cold_templates)) for fmt in ("md", "html")}
    first = time.perf_counter() - start

    templates = Templates(templates_loader(None))
    render(report, "md", templates), render(report, "html", templates)  # compile them once
    seconds = {
        "build": best_of(5, build),
        "md": best_of(5, lambda: render(report, "md", templates)),
        "html": best_of(5, lambda: render(report, "html", templates)),
    }
    total = sum(seconds.values())
    quotes = sum(len(c.quotes) for c in ledger.claims)
    print(f"claims: {CLAIMS}, quotes: {quotes}, checks: {len(checks)}, sources: {SOURCES}")
    print(f"output: markdown {cold['md'] / 1e6:.1f} MB, html {cold['html'] / 1e6:.1f} MB")
    for step, spent in seconds.items():
        print(f"{step:>6}: {spent:.3f} s")
    print(f" total: {total:.3f} s (target <= 1 s: {'met' if total <= 1 else 'MISSED'})")
    print(f"first render, cold templates, build + md + html: {first:.3f} s")


if __name__ == "__main__":
    main()
