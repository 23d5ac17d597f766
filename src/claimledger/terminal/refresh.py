"""What a refresh prints: its findings in the format asked for (text, JSON, or a CI's),
the claims that need a look, and its progress while it reads.

The command runs the refresh (`claimledger.evidence.service`); this module only says what it
found, so that the command stays a call and a print.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimledger.terminal.output import err, out, output, print_json

if TYPE_CHECKING:
    from claimledger.evidence.refresh import Reading
    from claimledger.evidence.service import RefreshOutcome, RefreshPlan
    from claimledger.ledger.model import Ledger
    from claimledger.records import CheckRecord, FetchResult, QuoteHistory


def print_refresh(
    chosen: str,
    store: Path,
    work: RefreshPlan,
    done: RefreshOutcome,
    run_checks: Callable[[], Iterable[CheckRecord]],
) -> bool:
    """What a refresh found, in the format asked for; whether anything needs a person.

    `run_checks` reads the run's checks anew from the store at each call: each view
    passes over them once, and the thousands a large refresh made are never all held."""
    from claimledger.terminal.asread import as_read_json, as_read_lines
    from claimledger.terminal.lines import (
        claim_summary,
        needs_attention,
        source_notes,
        source_rows,
        to_json,
    )
    from claimledger.terminal.recovery import after_json, after_lines
    from claimledger.urls import shown

    ledger = work.ledger
    fetches = [page.fetch for page in done.pages]
    rows = claim_summary(ledger, run_checks())
    read_then = done.as_read  # the quotes on the archive's copies of the reading day
    if chosen == "json":
        print_json(
            {
                "run": done.run_id,
                "evidence": str(store),
                "claims": rows,  # written as each is made
                "sources": source_rows(ledger, fetches),
                "checks": (
                    {**to_json(c), "run_id": done.run_id, "url": shown(c.url)} for c in run_checks()
                ),
                **after_json(done),
                "as_read": as_read_json(read_then) if read_then else None,
                **history_json(done),
            }
        )
    elif chosen == "text":
        quotes, pages = len(work.jobs), len({job.url for job in work.jobs})
        print_summary(list(rows), f"Refresh: {quotes} quote checks on {pages} sources")
        for line in [*source_notes(ledger, fetches), *history_lines(done, run_checks())]:
            out.print(line, markup=False)
        for line in after_lines(done, ledger):
            out.print(line, markup=False)
        verbose = output().verbose
        for line in as_read_lines(read_then, ledger, verbose=verbose) if read_then else ():
            out.print(line, markup=False)
    else:
        print_for_ci(chosen, work.ledger_path, ledger, list(run_checks()), fetches)
    misquoted = bool(read_then and read_then.misquoted)
    return needs_attention(ledger, run_checks(), fetches) or misquoted


def history_lines(done: RefreshOutcome, checks: Iterable[CheckRecord]) -> list[str]:
    """What the docs' repository says of each quote not found as written, a line each,
    and a line when the step stopped early or could not read a repository."""
    found = done.history
    if found is None:
        return []
    told = {(h.claim_id, h.quote_text, h.source_id) for h in found.histories}
    keys = ((c.claim_id, c.quote_text, c.source_id, c.quote_index) for c in checks)
    numbers = {key[:3]: key[3] + 1 for key in keys if key[:3] in told}
    lines = [
        f"history: {h.claim_id} #{numbers.get((h.claim_id, h.quote_text, h.source_id), '?')} "
        f"on {h.source_id}: {history_said(h)}"
        for h in found.histories
    ]
    lines += [f"history: could not read {problem}" for problem in found.problems]
    if found.stopped is not None:
        lines.append(f"history: stopped, {found.stopped}; the rest of the refresh stands")
    return lines


def history_said(history: QuoteHistory) -> str:
    """A quote's history in words: the commit that changed it, else where it stands."""
    from claimledger.report.commits import or_before, shas
    from claimledger.terminal.views import none_read

    changed = history.changed_in
    if changed is not None:
        link = history.commit_link(changed)
        return (
            f"changed on {changed.date} in “{changed.subject}”, commit {changed.sha[:7]}"
            + (f" ({link})" if link else "")
            + or_before(history.unread)
            + (f", last held in {history.held.sha[:7]}" if history.held else "")
        )
    if history.held is None:
        return f"its words are in {none_read(history, f' of {history.path}')}"
    if history.unread:
        return (
            f"last held in {history.held.sha[:7]} of {history.path}; the newer versions "
            f"could not be read ({shas(history.unread)})"
        )
    return f"still held by the newest version of {history.path} ({history.held.sha[:7]})"


def history_json(done: RefreshOutcome) -> dict[str, Any]:
    from claimledger.terminal.lines import to_json

    found = done.history
    if found is None:
        return {"histories": [], "history_problems": [], "history_stopped": None}
    return {
        "histories": to_json(list(found.histories)),
        "history_problems": list(found.problems),
        "history_stopped": found.stopped,
    }


def print_summary(rows: list[dict[str, Any]], title: str) -> None:
    """The claims that need a look, as a table; one line when none does (no empty table)."""
    from claimledger.terminal.lines import needs_a_look
    from claimledger.terminal.views import summary_table  # rich: for the table alone

    if output().plain or any(needs_a_look(row) for row in rows):
        out.print(summary_table(rows, title))
    else:
        out.print(f"{title}\n{len(rows)} of {len(rows)} claims verified on every source")


def print_for_ci(
    name: str,
    ledger_file: Path,
    ledger: Ledger,
    checks: Sequence[CheckRecord],
    fetches: Sequence[FetchResult],
) -> None:
    """A refresh's results as a CI reads them (see `claimledger.report.ci_formats`), written as
    they are: no console may wrap, style or picture them (the format did that)."""
    from claimledger.report.ci_formats import FORMATS, RefreshResult
    from claimledger.terminal.lines import is_accepted

    ledger_path = os.path.relpath(ledger_file.absolute(), _checkout_root())
    result = RefreshResult(
        ledger=Path(ledger_path).as_posix(),
        checks=checks,
        fetches=fetches,
        accepted=frozenset(fetch.url for fetch in fetches if is_accepted(ledger, fetch)),
        quote_places={
            (c.claim_id, c.quote_index): place
            for c in checks
            if (place := ledger.quote_place(c.claim_id, c.quote_index)) is not None
        },
        source_places={
            source_id: place
            for source_id in {c.source_id for c in checks}
            if (place := ledger.source_place(source_id)) is not None
        },
    )
    text = FORMATS[name].format(result)
    if name == "junit":
        write_utf8(text)
    else:
        sys.stdout.write(text)


def write_utf8(text: str) -> None:
    """`text` on stdout as UTF-8 bytes, whatever stdout's own encoding: JUnit XML says it is
    UTF-8, and a stdout in cp1252 (a Windows runner's `> junit.xml`) or ASCII would write
    its “ as a byte no UTF-8 reader takes, or as a `\\u201c` that is no XML escape."""
    raw = getattr(sys.stdout, "buffer", None)
    if raw is None:  # a stream of text alone (a caller's own): it decides the bytes
        sys.stdout.write(text)
        return
    sys.stdout.flush()
    raw.write(text.encode("utf-8"))
    raw.flush()


def _checkout_root() -> Path:
    """Where a CI resolves a file named in its annotations and test reports: the checkout
    the runner names (GitHub's GITHUB_WORKSPACE, whatever step's folder the command runs
    in), else the folder the command runs in."""
    workspace = os.environ.get("GITHUB_WORKSPACE")
    return Path(workspace).absolute() if workspace else Path.cwd().absolute()


class InLedgerOrder:
    """The lines of the pages read, in the ledger's order whichever answers first, each
    page's let through as soon as every page before it is read: a refresh's lines then
    read alike run to run (a log, the demo's), and come as the pages do where they answer
    in order. `pages`: the address of each reading to come (one per selector a page is
    read with). Only the lines are held, never a reading: it carries its page's text,
    and a slow first page would keep every later page's in memory, where the fetches
    keep only a window of pages ahead (`Admission`)."""

    def __init__(self, pages: Sequence[str]) -> None:
        self._order = list(dict.fromkeys(pages))
        self._expected = Counter(pages)
        self._held: dict[str, list[list[str]]] = {}
        self._next = 0

    def add(self, url: str, lines: list[str]) -> list[str]:
        """The `lines` of a reading of `url` held, and those now let through, in order."""
        self._held.setdefault(url, []).append(lines)
        let: list[str] = []
        while self._next < len(self._order):
            page = self._order[self._next]
            if len(self._held.get(page, ())) < self._expected[page]:
                break
            let += [line for held in self._held.pop(page) for line in held]
            self._next += 1
        return let

    def rest(self) -> list[str]:
        """Those still held (a run stopped early), in order: they were read all the same."""
        held = [self._held.pop(url) for url in self._order if url in self._held]
        held += self._held.values()  # a page no job named: never held back for good
        self._held = {}
        return [line for readings in held for lines in readings for line in lines]


@contextlib.contextmanager
def progress(pages: Sequence[str], *, quiet: bool) -> Iterator[Callable[[Reading], None]]:
    """A progress bar on a terminal that can redraw one (`bar_drawn`), a plain line per
    source otherwise (on stderr), nothing with --quiet; with --verbose a line per page
    (status, size, time) and per check. The lines come in the ledger's order of `pages`
    (`InLedgerOrder`); the bar as pages answer."""
    from claimledger.terminal.lines import reading_lines

    verbose = output().verbose
    if quiet or output().quiet:
        yield lambda reading: None
        return
    ordered = InLedgerOrder(pages)

    def said(reading: Reading) -> None:
        say(ordered.add(reading.fetch.url, reading_lines(reading, verbose=verbose)))

    if not bar_drawn():
        try:
            yield said
        finally:
            say(ordered.rest())
        return
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    with Progress(
        TextColumn("fetching"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("fetch", total=len(pages))

        def tick(reading: Reading) -> None:
            if verbose:
                said(reading)
            progress.advance(task)

        try:
            yield tick
        finally:
            say(ordered.rest())


def bar_drawn() -> bool:
    """Whether stderr is a terminal that redraws a progress bar: a real one, not a file
    or a pipe that FORCE_COLOR (which asks for colour, not for a terminal) has rich take
    for one, where each of the bar's frames would be written, a CI log's hundreds of
    lines; nor a dumb one (TERM=dumb: an editor's shell buffer), where the bar showed
    nothing and left a blank line."""
    return bool(err.on_a_terminal and err.is_interactive)


def say(lines: Sequence[str]) -> None:
    for line in lines:
        err.print(line, markup=False)
