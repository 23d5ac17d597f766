"""How right is the verdict on real documentation drift? The matcher beside two baselines.

    python tests/benchmarks/bench_drift.py [--with-peers] [--cases] [--per-case FILE] [CORPUS ...]

Runs every case of the real-drift corpus (tests/corpus/, built with its build.py) the
way a refresh would: the quote is first located on the page as it was read (so its
neighbourhood is recorded, as a refresh records it), then on the page as it is now.
The same extracted text goes to two baselines: the fuzzy-anchoring rule web annotators
use to re-anchor highlights (exact, else the best passage within an edit distance of
half the quote's length, else gone; edlib's infix alignment) and, with --with-peers,
quotecheck 0.1.0 from PyPI (installed into tests/benchmarks/.peers).

Prints, per corpus and overall: the status confusion matrix, status accuracy, the
current wording right on drifted cases, meaning-change recall and precision, harmless
rewordings left unflagged, drifted or missing quotes called verified, and false drift
on stable quotes; then how often a recorded neighbourhood hurts or helps, and how many
drifted and missing verdicts a third read keeps after an edit elsewhere on the page.
--cases lists every case the matcher got wrong; --per-case FILE writes the matcher's
verdict on every case, one a line, to compare two versions case by case.
"""

from __future__ import annotations

import argparse
import importlib
import re
import subprocess
import sys
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from types import ModuleType

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "corpus"))

import edlib  # noqa: E402

from claimledger.reading.match import (  # noqa: E402
    DEFAULT_THRESHOLDS,
    FoundMissing,
    PreparedText,
    TextKind,
    Thresholds,
    locate,
    normalize,
    prepare,
)
from claimledger.reading.match.candidate import Candidate  # noqa: E402
from claimledger.reading.match.locator import candidates, decide, quote_forms  # noqa: E402
from claimledger.reading.match.place import QuoteWords, scope_of  # noqa: E402
from corpus import Case, corpus_names, is_built, load, page_text  # noqa: E402

STATUSES = ("verified", "drifted", "missing", "ambiguous")


@dataclass(frozen=True)
class Verdict:
    status: str
    current: str | None
    meaning_changed: bool
    meaning_uncertain: bool = False
    runner_up: str | None = None  # a close call: the other passage shown
    near_miss: bool = False  # missing, but the closest passage nearly passes: a close call


DESIGNED_ON = frozenset(
    {"bbolt", "celery", "dbos", "etcd", "git", "httpx", "tauri", "dapr", "pydantic"}
)
"""The corpora the matcher's rules and thresholds were written and tuned on, or read to
choose a rule (dapr and pydantic chose which kinds of change are strong evidence): their
figures are in-sample. Every other corpus was added after, and never read while changing
a rule: its figures are held out."""


Matcher = Callable[[Case], Verdict]


# --------------------------------------------------------------------------- the matchers


def claimledger_matcher(
    thresholds: Thresholds = DEFAULT_THRESHOLDS, *, recorded: bool = True
) -> Matcher:
    """The matcher as a refresh runs it: with the neighbourhood recorded when the quote was
    read (or, `recorded=False`, as a one-off `verify` of a quote never seen before)."""

    def run(case: Case) -> Verdict:
        kind = load(case.corpus).pages[case.page].kind
        context = old = None
        if recorded:
            old = prepare(page_text(case.corpus, case.page, "old"), kind=kind)
            context = locate(case.quote, old).context
        new = prepare(page_text(case.corpus, case.page, "new"), kind=kind)
        found = locate(case.quote, new, context=context, thresholds=thresholds, previous=old)
        runner_up = found.closest if found.status == "drifted" else None
        return Verdict(
            found.status,
            found.current,
            found.meaning_changed,
            found.meaning_uncertain,
            runner_up,
            found.near_miss,
        )

    return run


_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")


def _whole_sentences(text: str, start: int, end: int) -> str:
    """The span grown to the sentences it touches: the baselines' "current wording"."""
    begin = max((m.end() for m in _SENTENCE_END.finditer(text, 0, start)), default=0)
    after = _SENTENCE_END.search(text, max(end - 1, begin))
    return text[begin : after.end() if after else len(text)].strip()


def fuzzy_anchor_matcher(case: Case) -> Verdict:
    """Exact after whitespace folding, else the best infix within half the quote's length."""
    text = " ".join(page_text(case.corpus, case.page, "new").split())
    quote = " ".join(case.quote.split())
    if quote in text:
        return Verdict("verified", quote, False)
    found = edlib.align(quote, text, mode="HW", task="locations")
    distance = found["editDistance"]
    if distance < 0 or distance > len(quote) // 2 or not found["locations"]:
        return Verdict("missing", None, False)
    start, last = found["locations"][0]
    return Verdict("drifted", _whole_sentences(text, start, (last or start) + 1), False)


def quotecheck_matcher(peer: ModuleType) -> Matcher:
    def run(case: Case) -> Verdict:
        text = page_text(case.corpus, case.page, "new")
        found = peer.check(case.quote, text)
        status = {"found": "verified", "interleaved": "verified", "drift": "drifted"}
        verdict = status.get(found.status, "missing")
        current = None
        if verdict != "missing" and found.offset >= 0:
            current = _whole_sentences(text, found.offset, found.offset + len(case.quote))
        return Verdict(verdict, current, False)

    return run


def load_quotecheck() -> ModuleType:
    peers = HERE / ".peers"
    if not (peers / "quotecheck").exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(peers),
             "quotecheck==0.1.0"],
            check=True,
        )  # fmt: skip
    sys.path.insert(0, str(peers))
    return importlib.import_module("quotecheck.find")


# --------------------------------------------------------------------------- scoring


@dataclass
class Score:
    confusion: Counter[tuple[str, str]]
    cases: int = 0
    right: int = 0
    drifted: int = 0
    current_right: int = 0
    changed: int = 0
    changed_flagged: int = 0
    flagged: int = 0
    flagged_right: int = 0
    changed_either: int = 0
    changed_passed: int = 0
    changed_missing: int = 0
    same: int = 0
    same_unflagged: int = 0
    same_plain: int = 0
    false_verified: int = 0
    stable: int = 0
    stable_drift: int = 0
    sure: int = 0
    sure_right: int = 0
    close_calls: int = 0
    close_chosen_right: int = 0
    close_other_right: int = 0
    near_misses: int = 0
    near_misses_reworded: int = 0

    def add(self, case: Case, verdict: Verdict) -> bool:
        self.cases += 1
        self.confusion[(case.label, verdict.status)] += 1
        correct = verdict.status == case.label
        self.right += correct
        flagged = verdict.status == "drifted" and verdict.meaning_changed
        uncertain = verdict.status == "drifted" and verdict.meaning_uncertain
        if case.label == "drifted":
            self.drifted += 1
            kind = load(case.corpus).pages[case.page].kind
            current_ok = correct and _same_text(verdict.current, case.current, kind)
            self.current_right += current_ok
            correct = correct and current_ok
            if case.meaning == "changed":
                self.changed += 1
                self.changed_flagged += flagged
                self.changed_either += flagged or uncertain
                shown = verdict.status in ("drifted", "ambiguous")
                quiet = not verdict.meaning_changed and not verdict.meaning_uncertain
                self.changed_passed += shown and quiet
                self.changed_missing += verdict.status == "missing"
                correct = correct and (flagged or uncertain)
            else:
                self.same += 1
                self.same_unflagged += not flagged
                self.same_plain += not flagged and not uncertain
                correct = correct and not flagged
        if flagged:
            self.flagged += 1
            self.flagged_right += case.label == "drifted" and case.meaning == "changed"
        if case.label != "verified" and verdict.status == "verified":
            self.false_verified += 1
        if case.label == "verified":
            self.stable += 1
            self.stable_drift += verdict.status != "verified"
        if verdict.runner_up is not None:
            self._add_close_call(case, verdict)
        elif verdict.near_miss:
            self.near_misses += 1
            self.near_misses_reworded += case.label == "drifted"
        elif verdict.status != "ambiguous" and not uncertain:  # a verdict the tool is sure of
            self.sure += 1
            self.sure_right += correct
        return correct

    def _add_close_call(self, case: Case, verdict: Verdict) -> None:
        """A drifted verdict shown with its runner-up: which of the two was the successor."""
        kind = load(case.corpus).pages[case.page].kind
        self.close_calls += 1
        if case.label == "drifted":
            self.close_chosen_right += _same_text(verdict.current, case.current, kind)
            self.close_other_right += _same_text(verdict.runner_up, case.current, kind)


def _same_text(found: str | None, expected: str | None, kind: TextKind) -> bool:
    if found is None or expected is None:
        return False
    return normalize(found, kind=kind) == normalize(expected, kind=kind)


def _pct(part: int, whole: int) -> str:
    return f"{100 * part / whole:5.1f}% ({part}/{whole})" if whole else "    n/a"


def print_score(name: str, score: Score) -> None:
    print(f"  {name}")
    print(f"    status accuracy          {_pct(score.right, score.cases)}")
    print(f"    current wording, drifted {_pct(score.current_right, score.drifted)}")
    print(f"    meaning changes flagged  {_pct(score.changed_flagged, score.changed)}")
    print(f"      changed or uncertain   {_pct(score.changed_either, score.changed)}")
    print(f"      passed as harmless     {_pct(score.changed_passed, score.changed)}")
    print(f"      called missing         {_pct(score.changed_missing, score.changed)}")
    print(f"    flags that were right    {_pct(score.flagged_right, score.flagged)}")
    print(f"    rewordings unflagged     {_pct(score.same_unflagged, score.same)}")
    print(f"      nor uncertain          {_pct(score.same_plain, score.same)}")
    print(f"    sure verdicts right      {_pct(score.sure_right, score.sure)}")
    print(
        f"    close calls shown        {score.close_calls}: the chosen passage right "
        f"{score.close_chosen_right}, the runner-up right {score.close_other_right}"
    )
    print(
        f"    near misses shown        {score.near_misses}: in fact reworded "
        f"{score.near_misses_reworded}"
    )
    print(f"    drifted/missing verified {score.false_verified}")
    print(f"    false drift, stable      {score.stable_drift} of {score.stable}")


def print_confusion(score: Score) -> None:
    print("    label \\ said    " + "".join(f"{s:>10}" for s in STATUSES))
    for label in STATUSES[:3]:
        row = "".join(f"{score.confusion[(label, s)]:>10}" for s in STATUSES)
        print(f"    {label:<16}{row}")


# --------------------------------------------------------------------------- main


def run(
    matchers: dict[str, Matcher],
    names: Sequence[str],
    show_cases: bool,
    per_case: list[str] | None = None,
) -> dict[str, dict[str, Score]]:
    scores: dict[str, dict[str, Score]] = defaultdict(dict)
    wrong: list[str] = []
    for name in names:
        corpus = load(name)
        for matcher_name, matcher in matchers.items():
            score = scores[matcher_name].setdefault(name, Score(Counter()))
            group = IN_SAMPLE if name in DESIGNED_ON else HELD_OUT
            totals = [scores[matcher_name].setdefault(g, Score(Counter())) for g in ("all", group)]
            for case in corpus.cases:
                verdict = matcher(case)
                right = score.add(case, verdict)
                for total in totals:
                    total.add(case, verdict)
                if matcher_name == "claimledger" and not right:
                    wrong.append(_describe(case, verdict))
                if matcher_name == "claimledger" and per_case is not None:
                    per_case.append(_per_case_line(case, verdict, right))
    if show_cases:
        print("\n".join(wrong))
    return scores


IN_SAMPLE = "in sample (the corpora the rules were written on)"
HELD_OUT = "held out (corpora never read while a rule was written)"


def history_effect(names: Sequence[str]) -> tuple[int, int, int]:
    """Cases whose status a recorded neighbourhood (from the old page) makes wrong where a
    first verify is right, those it makes right where a first verify is wrong, and all
    cases: a recorded neighbourhood must only help."""
    first, recorded = claimledger_matcher(recorded=False), claimledger_matcher()
    hurt = helped = total = 0
    for name in names:
        for case in load(name).cases:
            total += 1
            alone, placed = first(case).status == case.label, recorded(case).status == case.label
            hurt += alone and not placed
            helped += placed and not alone
    return hurt, helped, total


LATER_EDIT = "A closing paragraph added later, about something else entirely."
"""Appended to the page now for a third read: an edit elsewhere on the page."""


def kept_at_next_read(names: Sequence[str]) -> dict[str, tuple[int, int]]:
    """Of the quotes a refresh found drifted, and of those it found missing, how many keep
    their verdict (status, and current wording or, when missing, the closest passage) at
    the next refresh after an edit elsewhere on the page, read as a refresh reads it:
    with the neighbourhood recorded (none for a missing quote), the page as then read and
    the verdict then made. An edit that does not touch the quote must not change what is
    said of it."""
    counts = {"drifted": [0, 0], "missing": [0, 0]}
    for name in names:
        corpus = load(name)
        for case in corpus.cases:
            kind = corpus.pages[case.page].kind
            old = prepare(page_text(name, case.page, "old"), kind=kind)
            new_text = page_text(name, case.page, "new")
            new = prepare(new_text, kind=kind)
            context = locate(case.quote, old).context
            found = locate(case.quote, new, context=context, previous=old)
            if found.status not in counts:
                continue
            later = prepare(f"{new_text}\n\n{LATER_EDIT}\n", kind=kind)
            again = locate(
                case.quote,
                later,
                context=found.context,  # as a refresh records it: none for a missing quote
                previous=new,
                last_found=found.current if found.status == "drifted" else None,
                was_missing=FoundMissing(found.closest) if found.status == "missing" else None,
            )
            counts[found.status][1] += 1
            said = (found.status, found.current or found.closest)  # its closest, if missing
            counts[found.status][0] += (again.status, again.current or again.closest) == said
    return {status: (kept, total) for status, (kept, total) in counts.items()}


def _per_case_line(case: Case, verdict: Verdict, right: bool) -> str:
    """One case's label and verdict, tab-separated: `corpus/id label meaning said right`."""
    meaning = f"{case.meaning}:{case.change}" if case.label == "drifted" else "-"
    said = verdict.status + (
        ":changed" if verdict.meaning_changed else ":uncertain" if verdict.meaning_uncertain else ""
    )
    return "\t".join((f"{case.corpus}/{case.id}", case.label, meaning, said, str(int(right))))


def _describe(case: Case, verdict: Verdict) -> str:
    expect: str = case.label
    if case.label == "drifted":
        expect += f" ({case.meaning}, {case.change})"
    said = verdict.status + (
        " MEANING" if verdict.meaning_changed else " UNCERTAIN" if verdict.meaning_uncertain else ""
    )
    lines = [
        f"- {case.corpus}/{case.id}: labelled {expect}, said {said}",
        f"    quote:    {case.quote}",
    ]
    if case.current:
        lines.append(f"    expected: {case.current}")
    if verdict.current and verdict.status != "verified":
        lines.append(f"    found:    {verdict.current}")
    return "\n".join(lines)


# --------------------------------------------------------------------------- calibration

GRID = {
    "at_place": [0.20, 0.25, 0.30, 0.35, 0.40],
    "elsewhere": [0.45, 0.50, 0.55, 0.60, 0.65],
    "place_bonus": [0.0, 0.1, 0.15, 0.2, 0.3],
    "whole_bonus": [0.0, 0.05, 0.1, 0.2],
}


Pool = tuple[QuoteWords, list[Candidate], PreparedText, bool]
"""The quote's words, its candidate passages, the page as it is now, and whether the quote's
neighbourhood was recorded."""


@dataclass(frozen=True)
class Prepared:
    """A case reduced to what the thresholds decide between: its candidate passages."""

    case: Case
    exact: bool
    pool: Pool | None  # None for a quote found verbatim
    right: frozenset[tuple[int, int]]  # candidate spans whose wording is the expected one


def _prepare_case(case: Case, *, recorded: bool = True) -> Prepared:
    kind = load(case.corpus).pages[case.page].kind
    old: PreparedText | None = prepare(page_text(case.corpus, case.page, "old"), kind=kind)
    context = locate(case.quote, old).context if old is not None else None
    if not recorded:
        old = context = None
    new = prepare(page_text(case.corpus, case.page, "new"), kind=kind)
    forms = quote_forms(case.quote, kind)
    if any(new.occurrences(form) for form in forms):
        return Prepared(case, True, None, frozenset())
    quote, found = candidates(forms[0], new, context, scope_of(case.quote, context), old)
    right = frozenset(
        (c.first, c.last)
        for c in found
        if case.current is not None
        and _same_text(new.text[slice(*c.original_span(new))], case.current, kind)
    )
    return Prepared(case, False, (quote, found, new, recorded), right)


def _right(prepared: Prepared, thresholds: Thresholds) -> bool:
    case = prepared.case
    if prepared.exact:
        return case.label == "verified"
    assert prepared.pool is not None
    quote, found, new, placed = prepared.pool
    successor, _closest = decide(quote, found, new, thresholds, placed=placed)
    if successor is None:
        return case.label == "missing"
    return case.label == "drifted" and (successor.first, successor.last) in prepared.right


def _all_thresholds() -> list[Thresholds]:
    import itertools

    return [
        Thresholds(
            at_place=a,
            elsewhere=e,
            closest=DEFAULT_THRESHOLDS.closest,
            place_bonus=p,
            whole_bonus=w,
        )
        for a, e, p, w in itertools.product(*GRID.values())
        if a <= e
    ]


def calibrate(names: Sequence[str]) -> int:
    """Leave one repository out: choose the thresholds on the others, score the one left out;
    once as a refresh runs (the neighbourhood recorded), once as a first `verify` (not).
    Then the group split: chosen on the in-sample corpora alone, scored on the held-out
    ones, beside the shipped thresholds on the same held-out cases."""
    chosen = _calibrate(names, _all_thresholds(), recorded=True, label="recorded neighbourhood")
    alone = [replace(chosen, unplaced=u) for u in GRID_UNPLACED]
    _calibrate(names, alone, recorded=False, label="no neighbourhood (a first verify)")
    _by_group(names, _all_thresholds())
    return 0


def _by_group(names: Sequence[str], options: list[Thresholds]) -> None:
    inside = [n for n in names if n in DESIGNED_ON]
    outside = [n for n in names if n not in DESIGNED_ON]
    if not inside or not outside:
        return
    cases = {n: [_prepare_case(c, recorded=True) for c in load(n).cases] for n in names}
    candidates = [*options, DEFAULT_THRESHOLDS]
    inside_scores = [sum(_right(p, t) for n in inside for p in cases[n]) for t in candidates]
    best = max(range(len(options)), key=lambda i: inside_scores[i])
    held = [p for n in outside for p in cases[n]]
    for label, thresholds in (
        ("chosen in sample", candidates[best]),
        ("shipped", DEFAULT_THRESHOLDS),
    ):
        right = sum(_right(p, thresholds) for p in held)
        score = _pct(right, len(held))
        print(f"  held out ({', '.join(outside)}), {label}: {score} with {thresholds}")


GRID_UNPLACED = [0.30, 0.35, 0.40, 0.45, 0.50, 0.55, 0.60]


def _calibrate(
    names: Sequence[str], options: list[Thresholds], *, recorded: bool, label: str
) -> Thresholds:
    cases = {
        name: [_prepare_case(case, recorded=recorded) for case in load(name).cases]
        for name in names
    }
    scores = {
        name: [sum(_right(p, t) for p in prepared) for t in options]
        for name, prepared in cases.items()
    }
    total_right = total = 0
    print(f"{label}: {len(options)} settings; the one chosen without each repository:")
    for held_out in names:
        others = [sum(scores[n][i] for n in names if n != held_out) for i in range(len(options))]
        best = max(range(len(options)), key=lambda i: (others[i], -abs(i - len(options) // 2)))
        right, count = scores[held_out][best], len(cases[held_out])
        total_right += right
        total += count
        chosen = options[best]
        print(f"  {held_out:<8} held out: {_pct(right, count)} right with {chosen}")
    overall = [sum(scores[n][i] for n in names) for i in range(len(options))]
    best = max(range(len(options)), key=lambda i: overall[i])
    print(f"  held-out overall: {_pct(total_right, total)}")
    print(f"  chosen on every repository (the shipped default): {options[best]}")
    return options[best]


def main(argv: Iterable[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("corpora", nargs="*", help="corpus names (default: every built one)")
    parser.add_argument("--with-peers", action="store_true", help="also run quotecheck 0.1.0")
    parser.add_argument("--cases", action="store_true", help="list the matcher's wrong cases")
    parser.add_argument(
        "--per-case", metavar="FILE", help="write the matcher's verdict on every case to FILE"
    )
    parser.add_argument(
        "--calibrate",
        action="store_true",
        help="choose the thresholds leave-one-repository-out and report each held-out figure",
    )
    args = parser.parse_args(list(argv) if argv is not None else None)
    unknown = sorted(set(args.corpora) - set(corpus_names()))
    if unknown:
        known = ", ".join(corpus_names())
        print(f"no such corpus: {', '.join(unknown)} (known: {known})", file=sys.stderr)
        return 2
    unbuilt = [n for n in args.corpora if not is_built(load(n))]
    if unbuilt:
        print(
            f"corpus {', '.join(unbuilt)} is not built: run python tests/corpus/build.py "
            "--repos DIR",
            file=sys.stderr,
        )
        return 1
    names = args.corpora or [n for n in corpus_names() if is_built(load(n))]
    if not names:
        print("no corpus is built: run python tests/corpus/build.py --repos DIR", file=sys.stderr)
        return 1
    if args.calibrate:
        return calibrate(names)
    matchers: dict[str, Matcher] = {
        "claimledger": claimledger_matcher(),
        "claimledger, no recorded neighbourhood (a first verify)": claimledger_matcher(
            recorded=False
        ),
        "fuzzy anchoring (edit distance <= half the quote)": fuzzy_anchor_matcher,
    }
    if args.with_peers:
        matchers["quotecheck 0.1.0"] = quotecheck_matcher(load_quotecheck())
    per_case: list[str] | None = [] if args.per_case else None
    scores = run(matchers, names, args.cases, per_case)
    if args.per_case and per_case is not None:
        Path(args.per_case).write_text("".join(f"{line}\n" for line in per_case))
    groups = [g for g in (IN_SAMPLE, HELD_OUT) if g in scores["claimledger"]]
    for corpus in [*names, *groups, "all"]:
        print(f"== {corpus}")
        for matcher_name in matchers:
            score = scores[matcher_name][corpus]
            print_score(matcher_name, score)
            if matcher_name == "claimledger":
                print_confusion(score)
    hurt, helped, total = history_effect(names)
    print(f"recorded neighbourhood wrong where a first verify is right: {hurt} of {total}")
    print(f"recorded neighbourhood right where a first verify is wrong: {helped} of {total}")
    for status, (kept, total) in kept_at_next_read(names).items():
        print(f"{status} verdicts kept at the next read, after an edit elsewhere:", end=" ")
        print(f"{kept} of {total}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
