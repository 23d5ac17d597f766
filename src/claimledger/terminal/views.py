"""The tables and styled text the commands print, built from plain data with rich (the
plain lines and JSON payloads are `claimledger.terminal.lines`, which loads no rich).

The commands do the printing; here is only what they print. Page text is always added
as plain `Text`, never parsed as console markup, so a quote that contains `[bold]`
prints exactly as written; every URL is shown without its secrets.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from rich.table import Table
from rich.text import Text

from claimledger.meanings import (
    REWRITTEN_IN_PLACE,
    changed_words_said,
    is_strong,
    mark,
    said_once,
)
from claimledger.records import (
    CheckRecord,
    FetchRecord,
    QuoteHistory,
    WordChange,
)
from claimledger.terminal.console import ScriptTable
from claimledger.terminal.lines import (
    CHECK_COLUMNS,
    MOVED_READ,
    NEAR_MISS_SAID,
    fetch_note,
    needs_a_look,
    quote_number,
)
from claimledger.urls import shown

if TYPE_CHECKING:  # the core loads with the command that runs it
    from claimledger.grading.rules import Regrade
    from claimledger.ledger.model import Ledger

STATUS_STYLE = {
    "verified": "green",
    "drifted": "yellow",
    "missing": "red",
    "gone": "red",
    "ambiguous": "magenta",
    None: "dim",
}


def summary_table(rows: Sequence[Mapping[str, Any]], title: str) -> Table:
    """The claims that need a look (a quote not verified, a source failing), one row each,
    and how many claims verified on every source: a refresh of a thousand claims prints
    the few that changed, not a thousand rows (`--json` has them all, and so has the TSV
    of --plain: a script reads every claim's row)."""
    attention = [row for row in rows if needs_a_look(row)]
    fine = len(rows) - len(attention)
    caption = f"{fine} of {len(rows)} claims verified on every source"
    table = ScriptTable(
        title=title,
        title_justify="left",
        caption=caption,
        caption_justify="left",
        tsv_header=("claim", *CHECK_COLUMNS, "sources failing"),
    )
    table.add_column("claim", no_wrap=True, overflow="fold")  # an id: never cut
    for position, column in enumerate(CHECK_COLUMNS, start=1):
        table.add_column(column, justify="right", no_wrap=True)
        if not any(row[column] for row in attention):  # zeros: a narrow terminal does without
            table.give_way(position)
    table.add_column("sources failing", overflow="fold")  # wrapped between ids, never in one
    for row in attention:
        cells = [Text(row["claim_id"])]
        for column in CHECK_COLUMNS:
            count = row[column]
            style = STATUS_STYLE.get(column if column != "unread" else None, "") if count else "dim"
            cells.append(Text(str(count), style=style))
        cells.append(Text(", ".join(row["failing_sources"])))
        table.add_row(*cells)
    for row in rows:
        counts = (str(row[column]) for column in CHECK_COLUMNS)
        table.add_tsv_row(row["claim_id"], *counts, ", ".join(row["failing_sources"]))
    return table


def pages_table(ledger: Ledger, fetches: Iterable[FetchRecord]) -> Table:
    """Each page read, by the ids of its sources: the ids never cut (`claimledger source ID`
    takes them), the address and the note cut short on a narrow terminal (whole in a pipe,
    with --plain and in --json)."""
    table = Table(title="Sources", title_justify="left")
    table.add_column("source", no_wrap=True, overflow="fold")
    table.add_column("url", overflow="ellipsis")
    table.add_column("status", no_wrap=True)
    table.add_column("http", no_wrap=True)
    table.add_column("note", overflow="ellipsis")
    for fetch in sorted(fetches, key=lambda f: f.url):
        ids = sorted(source.id for source in ledger.sources_at(fetch.url))
        table.add_row(
            Text(", ".join(ids)),
            Text(shown(fetch.url)),
            Text(fetch.source_status, style="green" if fetch.source_status == "ok" else "yellow"),
            Text(http_said(fetch)),
            Text(fetch_note(ledger, fetch)),
        )
    return table


def http_said(fetch: FetchRecord) -> str:
    """The statuses the page answered with on the way, redirects first ("301 -> 304": it
    moved, and has not changed since): the last alone would hide the move."""
    hops = [str(hop.status) for hop in fetch.redirects if hop.via == "http"]
    return " -> ".join([*hops, str(fetch.http_status)]) if fetch.http_status else ""


def checks_table(
    checks: Sequence[CheckRecord], title: str, *, removed: Collection[str] = ()
) -> Table:
    """A claim's checks: each quote on each source down the page, oldest first, a run of
    checks in a row that found the same (a page unchanged from one refresh to the next)
    one row with its count, dated by its first. Dates, quote numbers and source ids are
    never cut; the page's wording is cut short with an ellipsis (`diff` shows it whole);
    on a narrow terminal the similarity gives way, then the claim's id (the title's
    already). The TSV of --plain has a line for every check, in the order they were
    made, with its time. A check of a quote the claim no longer holds (its wording among
    `removed`) is said so where its number was, after the quotes it holds: that number
    is another quote's now."""
    table = ScriptTable(
        title=title,
        title_justify="left",
        tsv_header=("checked", "claim", "quote", "source", "status", "similarity", "page now says"),
    )  # the screen's "sim." is the TSV's "similarity", for scripts
    table.add_column("checked", no_wrap=True)
    table.add_column("claim", no_wrap=True, overflow="fold")
    table.give_way(1)
    table.add_column("quote", no_wrap=True)
    table.add_column("source", no_wrap=True, overflow="fold")
    table.add_column("status", overflow="fold")
    table.add_column("sim.", no_wrap=True)
    table.give_way(5)
    table.add_column("page now says", overflow="ellipsis")
    runs = _runs(sorted(checks, key=lambda check: _track(check, removed)), removed)
    for check, times in runs:
        day = check.checked_at.strftime("%Y-%m-%d")
        shown = _check_cells(check, removed)
        table.add_row(Text(day + (f" ×{times}" if times > 1 else "")), *shown)
    for check in checks:
        cells = [cell.plain for cell in _check_cells(check, removed)]
        wording = check.current or "" if check.status != "verified" else ""
        table.add_tsv_row(check.checked_at.strftime("%Y-%m-%d %H:%M"), *cells[:-1], wording)
    if any(times > 1 for _, times in runs):
        table.caption = "×N: N checks in a row found the same, the first on that day"
        table.caption_justify = "left"
    return table


def _check_cells(check: CheckRecord, removed: Collection[str] = ()) -> list[Text]:
    """A check's claim, quote number (or "removed"), source, status, similarity and the
    page's wording."""
    status = check.status or _not_read(check)
    if check.meaning_changed:
        status += ", meaning changed"
    elif check.meaning_uncertain:
        status += ", meaning may have changed"
    if REWRITTEN_IN_PLACE in check.change_kinds:
        status += f" ({REWRITTEN_IN_PLACE})"
    if check.misread:
        status += " (on another address's text: no evidence)"
    if check.moved_within:
        status += f", moved within the page: {check.moved_within}"
    if check.source_status == "moved":
        status += f" ({MOVED_READ})"
    return [
        Text(check.claim_id),
        Text("removed" if check.quote_text in removed else f"#{quote_number(check.quote_index)}"),
        Text(check.source_id),
        Text(status, style=STATUS_STYLE.get(check.status or _not_read(check), "dim")),
        Text("" if check.similarity is None else f"{check.similarity:.2f}"),
        Text(check.current or "" if check.status != "verified" else ""),
    ]


def _not_read(check: CheckRecord) -> str:
    """What a check that read no text found: on a page that is gone, "gone", evidence of
    absence (`status` counts its quote missing, `diff` says "gone"); else "unread" and why,
    which is no evidence either way."""
    return "gone" if check.source_status == "gone" else f"unread ({check.source_status})"


def _track(check: CheckRecord, removed: Collection[str]) -> tuple[bool, int, str]:
    """Which quote on which source a check is of: the rows of one track go together, a
    removed quote's after those the claim holds."""
    return check.quote_text in removed, check.quote_index, check.source_id


def _runs(checks: Sequence[CheckRecord], removed: Collection[str]) -> list[tuple[CheckRecord, int]]:
    """The checks with each run of consecutive ones that found the same collapsed into its
    first, and how many it stands for."""
    runs: list[tuple[CheckRecord, int]] = []
    for check in checks:
        if runs and _same_finding(runs[-1][0], check, removed):
            runs[-1] = (runs[-1][0], runs[-1][1] + 1)
        else:
            runs.append((check, 1))
    return runs


def _same_finding(one: CheckRecord, other: CheckRecord, removed: Collection[str]) -> bool:
    """Whether two checks of one quote on one source found the same, so that the first's
    row stands for both: the same verdict on a page answering alike, and a row that reads
    the same (a quote found moved within its page, where the check before found it in its
    place, is a finding of its own)."""
    fields = ("claim_id", "quote_index", "source_id", "status", "source_status", "current")
    alike = all(getattr(one, f) == getattr(other, f) for f in fields)
    return alike and _shown(one, removed) == _shown(other, removed)


def _shown(check: CheckRecord, removed: Collection[str]) -> list[str]:
    """A check's row as it reads, but for its date."""
    return [cell.plain for cell in _check_cells(check, removed)]


def diff_text(check: CheckRecord, *, page: str = "page:  ", said: str | None = None) -> Text:
    """The quote against the page's current wording, every word that changed, and what
    each change does to the meaning; for a quote gone, the closest passage left. `page`
    labels the page's wording (an archived copy's: "then:  "); `said`, the status said in
    its place (the status now beside the status then)."""
    text = Text()
    number = quote_number(check.quote_index)
    text.append(f"{check.claim_id} #{number} on {check.source_id}: ", style="bold")
    status = said or check.status or check.source_status
    text.append(status, style=STATUS_STYLE.get(check.status, "dim"))
    if check.meaning_changed:
        kinds = ", ".join(check.change_kinds) or "meaning changed"
        text.append(f"  MEANING CHANGED: {kinds}", style="bold red")
    elif check.meaning_uncertain:
        text.append(
            f"  meaning may have changed: {changed_words_said(check.changed_words)}",
            style="yellow",
        )
    if REWRITTEN_IN_PLACE in check.change_kinds:
        text.append(
            f"\n  {REWRITTEN_IN_PLACE}: only its place tells this is the quote reworded",
            style="yellow",
        )
    text.append("\n  quote: ")
    text.append(check.quote_text)
    if check.current:
        text.append(f"\n  {page}")
        text.append(check.current)
    elif check.closest:
        text.append("\n  the page now says (closest passage): ")
        text.append(check.closest)
        contradicts = ", ".join(check.closest_kinds)
        text.append(
            f"\n  it contradicts the quote: {contradicts}"
            if contradicts
            else "\n  it does not contradict the quote; it says other things",
            style="bold red" if contradicts else "dim",
        )
        if check.near_miss:
            text.append(f"\n  {NEAR_MISS_SAID}", style="yellow")
    elif check.source_status == "gone":
        text.append(f"\n  {page}")
        text.append("(the page is gone: the quote counts as missing)", style="dim")
    else:
        text.append(f"\n  {page}")
        text.append("(no similar passage on the page)", style="dim")
    for change, carried in said_once(check.changed_words):
        op, quote, page = change.op, change.quote, change.page
        text.append("\n    ")
        text.append(*word_mark(change))
        if op == "replace":
            text.append(quote, style="red strike")
            text.append(" -> ")
            text.append(page, style="green")
        elif op == "delete":
            text.append("removed: ")
            text.append(quote, style="red strike")
        else:
            text.append("added: ")
            text.append(page, style="green")
        if carried:
            text.append(f"  ({carried})", style="red" if is_strong(change) else "yellow")
    if check.current and check.closest:
        text.append("\n  a close call: the page also says, almost as alike: ", style="yellow")
        text.append(check.closest)
    return text


def word_mark(change: WordChange) -> tuple[str, str]:
    """`!` before a change that is strong evidence the meaning changed, `?` before one
    that may have changed it, nothing before the rest; and its style."""
    said = mark(change)
    return f"{said or ' '} ", _MARK_STYLE[said]


_MARK_STYLE = {"!": "bold red", "?": "bold yellow", "": ""}


def changed_in_lines(history: QuoteHistory | None, check: CheckRecord) -> list[str]:
    """When and in which commit of the docs' repository the quote's words changed, as
    `claimledger blame` read it for this wording (nothing when it did not)."""
    from claimledger.report.commits import changed_in

    commit = changed_in(history, check)
    if commit is None:
        return []
    return [f"  in the docs' history: {commit.said}" + (f" ({commit.link})" if commit.link else "")]


def history_line(number: int, history: QuoteHistory) -> str:
    """What the docs' repository said of quote `number` (from 1) on one source, on one
    line (`explain`): which quote, for a claim with more than one."""
    from claimledger.report.commits import or_before, shas

    where = f"in the docs' history ({history.path}): quote {number} on {history.source_id}"
    if history.held is None:
        return f"{where}: its words are in {none_read(history)}"
    if history.dropped is None and history.unread:
        return (
            f"{where}: last held in {history.held.sha[:7]}; the newer versions could not be "
            f"read ({shas(history.unread)})"
        )
    if history.dropped is None:
        return f"{where}: still held by the newest version"
    dropped = history.dropped
    return (
        f"{where}: changed on {dropped.date} in “{dropped.subject}”, commit "
        f"{dropped.sha[:7]}{or_before(history.unread)} (last held in {history.held.sha[:7]})"
    )


def none_read(history: QuoteHistory, of: str = "") -> str:
    """The versions read (`of` a file), none of which holds the quote: those that could
    not be read are not among them, and are named (one may hold it)."""
    from claimledger.report.commits import shas

    read = f"none of the {history.versions - len(history.unread)} versions{of} read"
    return read + (f" ({shas(history.unread)} could not be read)" if history.unread else "")


def proposals_table(result: Regrade) -> Table:
    """One row a proposal; `claimledger explain CLAIM` shows the evidence behind it.

    Three columns, each stacking two facts, so the facet and the reason stay readable
    in an 80-column terminal (five side by side left them no room at all); the TSV of
    --plain has a column for each fact.
    """
    table = ScriptTable(
        title="Proposed grade changes",
        title_justify="left",
        tsv_header=("claim", "facet", "from", "to", "rule", "why"),
    )
    table.add_column("claim / facet")
    table.add_column("change", no_wrap=True)
    table.add_column("rule / why")
    for p in result.proposals:
        claim = Text(p.claim_id, style="bold")
        claim.append(f"\n{p.on}")
        change = Text(f"{p.from_grade} ->\n")
        change.append(str(p.to_grade), style="bold")
        rule = Text(p.rule, style="bold")
        rule.append(f"\n{p.why}")
        table.add_row(claim, change, rule)
        table.add_tsv_row(p.claim_id, p.on, str(p.from_grade), str(p.to_grade), p.rule, p.why)
    return table


_NOTICE_ADVICE = {
    "stale": "a stale one: read the diff, then `claimledger accept`",
    "sources-disagree": "sources that disagree: read each page's wording",
    "needs-review": "a claim under review: `claimledger review` it",
}
"""What the author does about each kind of notice, as the heading of the table says it."""


def notices_table(result: Regrade) -> Table:
    """What the author must look at: the heading says what to do about each kind listed
    (a claim under review was accepted already: `accept` is no answer to it)."""
    kinds = dict.fromkeys(n.kind for n in result.notices)
    if set(kinds) <= {"stale"}:
        title = "Stale facets (run `claimledger accept` after reading the diff)"
    else:
        advice = "; ".join(_NOTICE_ADVICE.get(kind, kind) for kind in kinds)
        title = f"Facets to look at ({advice})"
    table = Table(title=title, title_justify="left")
    for column in ("claim", "facet", "why"):
        table.add_column(column)
    for n in result.notices:
        table.add_row(Text(n.claim_id), Text(n.on), Text(n.why))
    return table


def claims_table(rows: Sequence[Mapping[str, Any]]) -> Table:
    """Every claim listed by `claims`: its id never cut, its grades in facet order (words
    never split). On a narrow terminal the facets they are on give way, then the section
    (`--section` picks one); a pipe has them whole, and the TSV of --plain each grade by
    its facet."""

    table = ScriptTable(
        title=f"{len(rows)} claim{'s' if len(rows) != 1 else ''}",
        title_justify="left",
        tsv_header=("claim", "section", "grades", "quotes", "standing"),
    )
    table.add_column("claim", no_wrap=True, overflow="fold")
    table.add_column("section", no_wrap=True, overflow="fold")
    table.add_column("grades", overflow="fold")
    table.add_column("on", overflow="ellipsis")
    table.give_way(1)
    table.give_way(3)
    table.add_column("quotes", justify="right", no_wrap=True)
    table.add_column("standing", no_wrap=True)
    for row in rows:
        grades = ", ".join(g["grade"] for g in row["grades"])
        facets = "; ".join(g["on"] for g in row["grades"])
        cells = (row["claim_id"], row["section"], grades, facets, str(row["quotes"]))
        style = STATUS_STYLE.get(row["standing"], "bold" if row["standing"] != "verified" else "")
        table.add_row(*(Text(cell) for cell in cells), Text(row["standing"], style=style))
        tsv = (row["claim_id"], row["section"], grade_cell(row["grades"]), str(row["quotes"]))
        table.add_tsv_row(*tsv, row["standing"])
    return table


def grade_cell(grades: Sequence[Mapping[str, str]]) -> str:
    """The facets' grades in one cell: a single facet's grade, else each by its facet."""
    if len(grades) == 1:
        return grades[0]["grade"]
    return "; ".join(f"{g['grade']} ({g['on']})" for g in grades)
