"""The terminal: rich consoles that show a page's control characters rather than obey them,
and print as the command was asked to (`claimledger.cli.app.output`).

A table is printed in one of three ways, here and nowhere else:

* on a terminal, as rich lays it out to the terminal's width (a long cell is cut or
  folded to fit);
* to a pipe or a file, at the width its cells need, so every id and value is whole on
  its row (`claimledger status | grep state-summary` finds the claim);
* with --plain, as TSV: a header row, then one line a row, cells split by tabs, no
  borders and no colour; a tab or newline inside a cell, and any other control
  character, is shown as its picture (␉, ␊, ␛); a blank line between two tables.

With --quiet, nothing but errors is printed: a line in the house error form
(`claimledger: error: ...`) or one given to `error`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.table import Table
from rich.text import Text

from claimledger.cli.app import Output, output, visible_controls

ERROR_LINES = ("claimledger: error:", "claimledger: internal error:", "claimledger: interrupted")
"""How an error's line begins (see `claimledger.cli.app.exit_status`): kept under --quiet."""

_WIDEST = 1_000_000
"""Room enough to measure any table at its natural width."""


class ScriptTable(Table):
    """A table whose TSV form (--plain) is given apart from what the screen shows: rows the
    screen leaves out for brevity, or columns the screen stacks to fit 80 columns."""

    def __init__(self, *args: Any, tsv_header: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tsv_header = tuple(tsv_header)
        self.tsv_rows: list[tuple[str, ...]] = []

    def add_tsv_row(self, *cells: str) -> None:
        self.tsv_rows.append(cells)


class TerminalConsole(Console):
    """A rich Console that prints every piece of text with its control characters made
    visible; rich's own styling is added after, so colours still work (but not in --plain)."""

    _tsv_run: Output | None = None  # the command run that printed the last TSV table

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        plain = output().plain
        for segment in super().render(renderable, options):
            if segment.control:
                yield segment
            else:
                yield Segment(visible_controls(segment.text), None if plain else segment.style)

    def print(self, *objects: Any, **kwargs: Any) -> None:
        how = output()
        if how.quiet and not (self.stderr and _is_error_line(objects)):
            return
        if not any(isinstance(thing, Table) for thing in objects):
            super().print(*objects, **kwargs)
            return
        for thing in objects:
            if not isinstance(thing, Table):
                super().print(thing, **kwargs)
            elif how.plain:
                self._print_tsv(thing)
            elif self.is_terminal:
                super().print(thing, **kwargs)
            else:
                self._print_whole(thing, **kwargs)

    def rule(self, title: Any = "", *args: Any, **kwargs: Any) -> None:
        """A titled rule (the demo's steps); its title alone with --plain, none with -q."""
        how = output()
        if how.quiet:
            return
        if how.plain:
            if title:
                super().print(str(title), markup=False, emoji=False, highlight=False)
            return
        super().rule(title, *args, **kwargs)

    def error(self, line: str) -> None:
        """One line of an error: printed under --quiet too."""
        super().print(line, markup=False, emoji=False, highlight=False)

    def _print_whole(self, table: Table, **kwargs: Any) -> None:
        """The table at the width its cells need (no cell cut or folded), however narrow
        the pipe's COLUMNS says it is."""
        measured = Measurement.get(self, self.options.update_width(_WIDEST), table)
        wanted = max(measured.maximum, 1)
        saved = self._width
        if wanted > self.width:
            self._width = wanted
        try:
            super().print(table, **kwargs)
        finally:
            self._width = saved

    def _print_tsv(self, table: Table) -> None:
        """Straight to the file (rich would turn the tabs into spaces); a blank line before
        each table after the command's first (`status` prints two)."""
        run = output()
        gap = "\n" if self._tsv_run is run else ""
        self._tsv_run = run
        self.file.write(gap + "".join(f"{line}\n" for line in tsv_lines(table)))
        self.file.flush()


def tsv_lines(table: Table) -> list[str]:
    """A table as TSV: its header row and a line for each row."""
    if isinstance(table, ScriptTable):
        header, rows = list(table.tsv_header), [list(row) for row in table.tsv_rows]
    else:
        header = [_plain(column.header) for column in table.columns]
        columns = [[_plain(cell) for cell in column.cells] for column in table.columns]
        rows = [list(row) for row in zip(*columns, strict=True)] if columns else []
    return ["\t".join(tsv_cell(cell) for cell in row) for row in [header, *rows]]


def tsv_cell(text: str) -> str:
    """A cell's text on one line with no tab in it: tabs and newlines (and every other
    control character) shown as their pictures."""
    return visible_controls(text.replace("\t", "\u2409").replace("\n", "\u240a"))


def _plain(cell: Any) -> str:
    if isinstance(cell, Text):
        return cell.plain
    return cell if isinstance(cell, str) else str(cell)


def _is_error_line(objects: Sequence[Any]) -> bool:
    first = objects[0] if objects else None
    text = first.plain if isinstance(first, Text) else first
    return isinstance(text, str) and text.startswith(ERROR_LINES)
