"""Refresh benchmark: 200 docs-like pages, 1,000 labelled quotes, a real loopback server.

Pages are ~100 KiB of HTML each (a large nav sidebar, inline scripts and styles,
tables, code) served with 50 ms latency and ETags. `claimledger refresh` runs in a
subprocess twice: cold, then warm (every page answers 304). Prints wall times,
throughput, peak RSS of the refresh process, and the status accuracy against the
labels (60% verbatim, 20% reworded of which half change meaning, 20% removed).

    python tests/benchmarks/bench_refresh.py
"""

from __future__ import annotations

import json
import random
import resource
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from webserver import PageServer

PAGES = 200
QUOTES_PER_PAGE = 5
LATENCY = 0.05
SYLLABLES = [
    "ka",
    "lo",
    "mi",
    "ne",
    "su",
    "ra",
    "ti",
    "vo",
    "pe",
    "da",
    "gu",
    "bi",
    "ze",
    "fo",
    "ly",
    "ch",
    "an",
    "ex",
    "st",
    "or",
]
STOPWORDS = [
    "the",
    "a",
    "of",
    "to",
    "in",
    "and",
    "is",
    "for",
    "on",
    "with",
    "as",
    "by",
    "that",
    "this",
    "from",
    "at",
]


def vocabulary(rng: random.Random, size: int = 3000) -> list[str]:
    words: set[str] = set()
    while len(words) < size:
        words.add("".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 4))))
    return sorted(words)


def sentence(rng: random.Random, vocab: list[str], words: int) -> list[str]:
    out = []
    for _ in range(words):
        out.append(rng.choice(STOPWORDS) if rng.random() < 0.3 else rng.choice(vocab))
    out[0] = out[0].capitalize()
    return out


def text(words: list[str]) -> str:
    return " ".join(words) + "."


def harmless(rng: random.Random, vocab: list[str], words: list[str]) -> list[str]:
    changed = list(words)
    content = [i for i, w in enumerate(changed) if w.lower() not in STOPWORDS and i > 0]
    changed[rng.choice(content)] = rng.choice(vocab)
    return changed


def negated(words: list[str]) -> list[str]:
    return [*words[:3], "not", *words[3:]]


def boilerplate(rng: random.Random, vocab: list[str]) -> tuple[str, str, str]:
    nav = "".join(
        f"<li><a href='/docs/{rng.choice(vocab)}/'>{rng.choice(vocab)} {rng.choice(vocab)}</a></li>"
        for _ in range(1000)
    )
    script = "var config = " + json.dumps({rng.choice(vocab): rng.random() for _ in range(900)})
    style = "".join(f".c{i} {{ margin: {i}px; color: #{i:06x}; }}\n" for i in range(600))
    return f"<nav><ul>{nav}</ul></nav>", f"<script>{script}</script>", f"<style>{style}</style>"


def page_html(
    rng: random.Random, vocab: list[str], sentences: list[str], chrome: tuple[str, str, str]
) -> str:
    nav, script, style = chrome
    paragraphs = []
    for s in sentences:
        filler = " ".join(text(sentence(rng, vocab, rng.randint(10, 18))) for _ in range(3))
        paragraphs.append(f"<p>{filler} {s} {filler}</p>")
    rows = "".join(
        f"<tr><td>{rng.choice(vocab)}</td><td>{rng.randint(1, 99)} ms</td></tr>" for _ in range(30)
    )
    code = "\n".join(f"const {rng.choice(vocab)} = {rng.randint(0, 999)};" for _ in range(40))
    return (
        f"<!doctype html><html><head><title>Doc</title>{style}{script}</head><body>"
        f"<header>Docs</header>{nav}<main><article><h1>{rng.choice(vocab)}</h1>"
        f"{''.join(paragraphs)}<table>{rows}</table><pre><code>{code}</code></pre>"
        f"</article></main><footer>Last updated 2026</footer></body></html>"
    )


def build(server: PageServer, folder: Path) -> dict[tuple[str, int], tuple[str, bool]]:
    """Serve the pages, write the ledger; return the expected (status, meaning_changed)."""
    rng = random.Random(20260823)
    vocab = vocabulary(rng)
    labels: dict[tuple[str, int], tuple[str, bool]] = {}
    sources, claims = [], []
    for p in range(PAGES):
        chrome = boilerplate(rng, vocab)
        on_page = []
        for q in range(QUOTES_PER_PAGE):
            words = sentence(rng, vocab, rng.randint(12, 20))
            quote = text(words)
            roll = (p * QUOTES_PER_PAGE + q) % 10
            if roll < 6:
                on_page.append(quote)
                labels[(f"c{p}-{q}", 0)] = ("verified", False)
            elif roll == 6:
                on_page.append(text(harmless(rng, vocab, words)))
                labels[(f"c{p}-{q}", 0)] = ("drifted", False)
            elif roll == 7:
                on_page.append(text(negated(words)))
                labels[(f"c{p}-{q}", 0)] = ("drifted", True)
            else:
                labels[(f"c{p}-{q}", 0)] = ("missing", False)
            claims.append((f"c{p}-{q}", f"s{p}", quote))
        html = page_html(rng, vocab, on_page, chrome)
        server.set_page(f"/p{p}", html, headers={"ETag": f'"v1-{p}"'})
        sources.append((f"s{p}", server.url(f"/p{p}")))
    lines = [
        "ledger: 1",
        "title: Benchmark",
        "date_read: 2026-08-23",
        "sections: [{id: main, title: Main}]",
        "sources:",
    ]
    lines += [
        f"  {sid}: {{url: '{url}', title: T, kind: docs, publisher: p{sid}}}"
        for sid, url in sources
    ]
    lines.append("claims:")
    for cid, sid, quote in claims:
        lines += [
            f"  - id: {cid}",
            "    section: main",
            "    title: T",
            "    kind: guarantee",
            "    statement: S",
            "    quotes:",
            f'      - text: "{quote}"',
            f"        sources: [{sid}]",
            "    grades: [{on: wording, grade: DEMONSTRATED, basis: quotes}]",
        ]
    (folder / "claims.yaml").write_text("\n".join(lines) + "\n")
    return labels


def refresh(folder: Path) -> tuple[float, dict[str, object]]:
    started = time.perf_counter()
    completed = subprocess.run(
        [
            sys.executable,
            "-m",
            "claimledger",
            "--ledger",
            str(folder / "claims.yaml"),
            "refresh",
            "--json",
            "--concurrency",
            "24",
            "--per-host",
            "24",
            "--interval",
            "0",
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    elapsed = time.perf_counter() - started
    if completed.returncode not in (0, 1):
        raise SystemExit(f"refresh failed: {completed.stderr}")
    return elapsed, json.loads(completed.stdout)


def main() -> None:
    with PageServer(latency=LATENCY) as server, tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        labels = build(server, folder)
        size = sum(len(server.route(f"/p{p}").body) for p in range(PAGES))  # type: ignore[attr-defined]
        cold, report = refresh(folder)
        warm, warm_report = refresh(folder)
        peak_rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
        hits = Counter(s["http_status"] for s in warm_report["sources"])  # type: ignore[index]
        checks = report["checks"]  # type: ignore[index]
        right = sum(
            1
            for c in checks
            if labels[(c["claim_id"], c["quote_index"])] == (c["status"], c["meaning_changed"])
        )
        wrong = [
            (
                c["claim_id"],
                labels[(c["claim_id"], c["quote_index"])],
                c["status"],
                c["meaning_changed"],
            )
            for c in checks
            if labels[(c["claim_id"], c["quote_index"])] != (c["status"], c["meaning_changed"])
        ]
    quotes = len(labels)
    print(
        f"pages: {PAGES} ({size / PAGES / 1024:.0f} KiB of HTML each), quotes: {quotes}, "
        f"latency {LATENCY * 1000:.0f} ms"
    )
    print(f"cold refresh: {cold:.2f} s  ({PAGES / cold:.0f} pages/s, {quotes / cold:.0f} quotes/s)")
    print(f"warm refresh: {warm:.2f} s  (HTTP statuses: {dict(hits)})")
    print(f"peak RSS of a refresh: {peak_rss:.0f} MB")
    print(f"status accuracy: {right}/{len(checks)} = {right / len(checks):.1%}")
    for miss in wrong[:10]:
        print(f"  wrong: {miss}")


if __name__ == "__main__":
    main()
