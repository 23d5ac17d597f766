"""Locate micro-benchmark: how long finding one quote takes on realistic page texts.

Run: ``python tests/benchmarks/bench_match.py``. Prints figures; asserts nothing.

* 1,000 quotes on 100 generated docs-like texts of ~100 KiB each (60% verbatim,
  20% reworded with half of those changing meaning, 20% removed from the page):
  time to prepare a page, p50/p99 time to locate a quote on a prepared page,
  and how many statuses match the labels.
* A 1 MB text: time to locate a reworded quote, prepared once and from a string.
* Passages full of signs (`$5`, `<5`, `5%`) rewritten in every clause: time to judge
  one, beside the same judging with the tracing of each change to the words the texts
  wrote (`reading/match/written.py`) left out.
"""

from __future__ import annotations

import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial

from claimledger.reading.match import Match, locate, prepare
from claimledger.records import WordChange

SEED = 20261129
PAGES = 100
QUOTES_PER_PAGE = 10
PAGE_BYTES = 100 * 1024
BIG_BYTES = 1024 * 1024


def words(text: str) -> list[str]:
    return text.split()


NOUNS = words(
    """request object instance storage operation event gate worker queue message consumer
producer binding namespace database table row column index query transaction step workflow agent
state client server connection socket session cache region location replica snapshot bookmark
alarm callback handler method function module runtime deployment version route zone account token
secret variable limit timeout retry backoff batch payload header body stream response error
exception log trace metric dashboard quota plan invocation isolate container schema migration
key value namespace bucket file upload download tenant user group role permission policy"""
)
VERBS = words(
    """handles stores returns sends receives creates deletes updates reads writes routes
processes delivers retries schedules blocks resumes persists replicates forwards validates
serializes caches evicts restores acquires releases commits rolls emits records"""
)
ADJECTIVES = words(
    """single global local durable persistent transient internal external remote
primary secondary default custom new existing previous current pending active idle static
dynamic private public shared isolated regional automatic manual"""
)
GLUE = words("the a an of to in for on with by from at as and or that this each")
SYNONYMS = {"handles": "processes", "stores": "keeps", "sends": "dispatches", "creates": "makes"}


def sentence(rng: random.Random) -> str:
    """A docs-like sentence: subject, verb, object, a trailing phrase or two."""
    words = [rng.choice(GLUE[:3]), rng.choice(ADJECTIVES), rng.choice(NOUNS), rng.choice(VERBS)]
    for _ in range(rng.randint(2, 6)):
        words += [rng.choice(GLUE), rng.choice(ADJECTIVES + NOUNS), rng.choice(NOUNS)]
    if rng.random() < 0.3:
        words += ["within", str(rng.randint(1, 900)), rng.choice(["ms", "seconds", "MB"])]
    return " ".join(words).capitalize() + "."


def page_lines(rng: random.Random, size: int) -> list[str]:
    """Headings, paragraphs, table rows and code lines until the text reaches ``size``."""
    lines: list[str] = []
    total = 0
    while total < size:
        roll = rng.random()
        if roll < 0.08:
            line = " ".join(rng.choice(NOUNS) for _ in range(rng.randint(1, 4))).title()
        elif roll < 0.18:
            line = " | ".join([rng.choice(NOUNS), f"({rng.choice(NOUNS)}: string) => void"])
            line += " | " + sentence(rng)
        elif roll < 0.28:
            line = f"  const {rng.choice(NOUNS)} = await env.{rng.choice(NOUNS).upper()}.get(id);"
        else:
            line = " ".join(sentence(rng) for _ in range(rng.randint(2, 5)))
        lines.append(line)
        total += len(line) + 1
    return lines


@dataclass
class Quote:
    text: str
    label: str  # verified | drifted | missing
    meaning: bool = False


def reword(text: str, rng: random.Random, *, meaning: bool) -> str:
    """A harmless synonym swap, or a negation / number change that alters meaning."""
    words = text.split(" ")
    if meaning:
        numbers = [i for i, w in enumerate(words) if w.isdigit()]
        if numbers:
            words[numbers[0]] = str(int(words[numbers[0]]) + 7)
        else:
            verb = next(i for i, w in enumerate(words) if w in VERBS)
            words.insert(verb, "never")
        return " ".join(words)
    swaps = [i for i, w in enumerate(words) if w in SYNONYMS]
    if swaps:
        words[swaps[0]] = SYNONYMS[words[swaps[0]]]
    else:
        verb = next(i for i, w in enumerate(words) if w in VERBS)
        words.insert(verb + 1, "quietly")
    return " ".join(words)


def build_page(rng: random.Random) -> tuple[str, list[Quote]]:
    """A page text and its labelled quotes (the page already carries rewordings and removals)."""
    lines = page_lines(rng, PAGE_BYTES)
    prose = [i for i, line in enumerate(lines) if line.endswith(".") and "|" not in line]
    chosen = rng.sample(prose, QUOTES_PER_PAGE)
    quotes: list[Quote] = []
    for n, index in enumerate(chosen):
        sentences = lines[index].split(". ")
        original = sentences[0].rstrip(".") + "."
        if n < 6:
            quotes.append(Quote(original, "verified"))
            continue
        if n < 8:
            meaning = n == 7
            sentences[0] = reword(original, rng, meaning=meaning).rstrip(".")
            quotes.append(Quote(original, "drifted", meaning))
        else:
            sentences[0] = ""
            quotes.append(Quote(original, "missing"))
        lines[index] = ". ".join(s for s in sentences if s).strip()
    return "\n".join(lines), quotes


def timed(action: Callable[[], object]) -> float:
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def correct(result: Match, quote: Quote) -> bool:
    if result.status != quote.label:
        return False
    return quote.label != "drifted" or result.meaning_changed == quote.meaning


def bench_pages(rng: random.Random) -> None:
    prepare_times: list[float] = []
    locate_times: list[float] = []
    right = total = 0
    wrong: list[str] = []
    for _ in range(PAGES):
        text, quotes = build_page(rng)
        start = time.perf_counter()
        prepared = prepare(text)
        prepare_times.append(time.perf_counter() - start)
        for quote in quotes:
            start = time.perf_counter()
            result = locate(quote.text, prepared)
            locate_times.append(time.perf_counter() - start)
            total += 1
            if correct(result, quote):
                right += 1
            elif len(wrong) < 5:
                wrong.append(f"{quote.label}/{quote.meaning} -> {result.status}: {quote.text!r}")
    size = len(text.encode())
    ms = 1000.0
    print(f"pages: {PAGES} texts of ~{size / 1024:.0f} KiB, {total} quotes")
    print(
        f"prepare: p50 {statistics.median(prepare_times) * ms:.2f} ms, "
        f"p99 {percentile(prepare_times, 0.99) * ms:.2f} ms per page"
    )
    print(
        f"locate:  p50 {statistics.median(locate_times) * ms:.3f} ms, "
        f"p99 {percentile(locate_times, 0.99) * ms:.3f} ms, "
        f"max {max(locate_times) * ms:.3f} ms per quote (prepared page)"
    )
    print(f"total: {(sum(prepare_times) + sum(locate_times)):.2f} s for prepare + locate")
    print(f"accuracy against labels: {right}/{total} ({100.0 * right / total:.1f}%)")
    for line in wrong:
        print("  wrong:", line)


def bench_big_page(rng: random.Random) -> None:
    lines = page_lines(rng, BIG_BYTES)
    prose = [i for i, line in enumerate(lines) if line.endswith(".") and "|" not in line]
    index = prose[len(prose) // 2]
    original = lines[index].split(". ")[0].rstrip(".") + "."
    reworded = reword(original, rng, meaning=False)
    lines[index] = lines[index].replace(original.rstrip("."), reworded.rstrip("."), 1)
    text = "\n".join(lines)
    prepare_times = [timed(lambda: prepare(text)) for _ in range(5)]
    prepared = prepare(text)
    cold = [timed(lambda: locate(original, prepare(text))) for _ in range(5)]
    first = timed(lambda: locate(original, prepared))
    warm = [timed(lambda: locate(original, prepared)) for _ in range(5)]
    verbatim = lines[prose[len(prose) // 3]].split(". ")[0]
    exact = [timed(lambda: locate(verbatim, prepared)) for _ in range(5)]
    result = locate(original, prepared)
    ms = 1000.0
    print(f"1 MB text ({len(text.encode()) / 1024 / 1024:.2f} MiB):")
    print(f"  prepare: median {statistics.median(prepare_times) * ms:.1f} ms")
    print(
        f"  reworded quote, prepare + locate: median {statistics.median(cold) * ms:.1f} ms"
        f" -> {result.status}, meaning_changed={result.meaning_changed}"
    )
    print(
        f"  reworded quote on the prepared text: first {first * ms:.1f} ms (builds sentences), "
        f"then median {statistics.median(warm) * ms:.1f} ms"
    )
    print(f"  verbatim quote on the prepared text: median {statistics.median(exact) * ms:.2f} ms")


def untraced(changes: tuple[WordChange, ...], *texts: tuple[str, str]) -> tuple[WordChange, ...]:
    """The changes as the matcher read them: judging without `changes_as_written`."""
    return changes


def bench_signs() -> None:
    from claimledger.reading.match import diff, written

    print("judging passages full of signs (median of 3), with the words written / without:")
    for clauses in (10, 50, 150):
        quote = " ".join(
            f"Plan {i} costs ${i} a month, <{i} seats, {i}% off." for i in range(clauses)
        )
        page = " ".join(
            f"Plan {i} costs €{i + 1} a month, >{i} seats, {i + 2}% off." for i in range(clauses)
        )
        times = []
        for tracing in (written.changes_as_written, untraced):
            diff.__dict__["changes_as_written"] = tracing
            times.append(
                statistics.median(timed(partial(diff.judge, quote, page)) for _ in range(3))
            )
        diff.__dict__["changes_as_written"] = written.changes_as_written
        print(f"  {len(page.split())} words: {times[0]:.2f} s / {times[1]:.2f} s")


def main() -> None:
    rng = random.Random(SEED)
    bench_pages(rng)
    bench_big_page(rng)
    bench_signs()


if __name__ == "__main__":
    main()
