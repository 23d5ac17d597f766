"""The terminal: rich consoles that show a page's control characters rather than obey them,
and print as the command was asked to (`claimledger.terminal.output.output`).

A table is printed in one of three ways, here and nowhere else:

* on a terminal, fitted to the terminal's width (`fitted`): an id column (`no_wrap` and
  `overflow="fold"`) is never cut or wrapped, so long as the ids alone fit (else they
  fold); a column of long text (`overflow="ellipsis"`) gives each line of a cell one line,
  cut with an ellipsis, never folded a word a line; a column a ScriptTable says may give
  way is left out while the table cannot fit otherwise; the other columns shrink; on a
  terminal too narrow for even that, each row is a record instead (`Records`), a line
  for each of its cells, so that no value is cut short and no column left out;
* to a pipe or a file, at the width its cells need, so every id and value is whole on
  its row (`claimledger claims | grep state-summary` finds the claim);
* with --plain, as TSV: a header row, then one line a row, cells split by tabs, no
  borders and no colour; a tab or newline inside a cell, and any other control
  character, is shown as its picture (␉, ␊, ␛); a blank line between two tables.

With --quiet, nothing but errors is printed: a line in the house error form
(`claimledger: error: ...`) or one given to `error`.
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from rich.cells import cell_len
from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import StyleType
from rich.table import Column, Table
from rich.text import Text

from claimledger.terminal.output import (
    ERROR_LINES,
    SHOWN_CONTROLS,
    Output,
    output,
    visible_controls,
)

_WIDEST = 1_000_000
"""Room enough to measure any table at its natural width."""


class ScriptTable(Table):
    """A table whose TSV form (--plain) is given apart from what the screen shows: rows the
    screen leaves out for brevity, or columns the screen stacks to fit 80 columns; and the
    columns a narrow terminal may leave out (`give_way`), last first."""

    def __init__(self, *args: Any, tsv_header: Sequence[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tsv_header = tuple(tsv_header)
        self.tsv_rows: list[tuple[str, ...]] = []
        self.gives_way: list[int] = []

    def add_tsv_row(self, *cells: str) -> None:
        self.tsv_rows.append(cells)

    def give_way(self, index: int) -> None:
        """Column `index` may be left out on a terminal too narrow for the table with it
        (a column of zeros, or one that repeats the title)."""
        self.gives_way.append(index)


class TerminalConsole(Console):
    """A rich Console that prints every piece of text with its control characters made
    visible; rich's own styling is added after, so colours still work (but not in --plain)."""

    _tsv_run: Output | None = None  # the command run that printed the last TSV table

    @property
    def on_a_terminal(self) -> bool:
        """Whether this prints to a terminal. Rich's `is_terminal` says so of a pipe or a
        file too under FORCE_COLOR, which asks for colour, not for a terminal: a pipe then
        still gets each table whole, and no progress bar."""
        isatty = getattr(self.file, "isatty", None)
        return self.is_terminal and callable(isatty) and bool(isatty())

    def on_broken_pipe(self) -> None:
        """The reader went away: raised on, so the command ends as on any closed pipe
        (`claimledger.cli.pipes`: 141, quietly); rich's own way exits 1, as if drift was found."""
        self.quiet = True
        raise BrokenPipeError

    def render(
        self, renderable: RenderableType, options: ConsoleOptions | None = None
    ) -> Iterable[Segment]:
        """The segments as rich renders them, once it is clear that they hold no control
        character (with --plain, no style): rich renders a table's every cell through here,
        then the table, so one look at all the text costs less than one a segment."""
        segments = list(super().render(renderable, options))
        plain = output().plain
        text = "".join(segment.text for segment in segments if not segment.control)
        if not plain and visible_controls(text) == text:
            return segments
        return [
            segment
            if segment.control
            else Segment(visible_controls(segment.text), None if plain else segment.style)
            for segment in segments
        ]

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
            elif self.on_a_terminal:
                super().print(shown_at(_pictured(thing), self.width), **kwargs)
            else:
                self._print_whole(_pictured(thing), **kwargs)

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
        the pipe's COLUMNS says it is. A table that does not expand is as wide as its cells
        at any width above theirs, so it is laid out at one no table reaches, and measured
        once, as it is rendered; a plain one is laid out here (`_laid_out`)."""
        laid = None if kwargs else _laid_out(self, table)
        if laid is not None:
            super().print(laid)
            return
        saved = self._width
        if not table.expand:
            self._width = _WIDEST
            table = self._unwrapped(table)
        else:
            measured = Measurement.get(self, self.options.update_width(_WIDEST), table)
            wanted = max(measured.maximum, 1)
            if wanted > self.width:
                self._width = wanted
        try:
            super().print(table, **kwargs)
        finally:
            self._width = saved

    def _unwrapped(self, table: Table) -> Table:
        """The table with no column wrapped whose every cell is lines of printable ASCII: at
        the width its cells need such a column has nothing to wrap (rich's measure of each
        line and its wrapping agree), and rich is spared looking for places to."""
        unwrapped = copy.copy(table)
        unwrapped.columns = [
            dataclasses.replace(column, no_wrap=True) if self._is_printable(column) else column
            for column in table.columns
        ]
        return unwrapped

    def _is_printable(self, column: Column) -> bool:
        cells = (column.header, column.footer, *column.cells)
        texts = [self.render_str(cell) if isinstance(cell, str) else cell for cell in cells]
        return all(
            isinstance(text, Text)
            and text.plain.isascii()
            and text.plain.replace("\n", "").isprintable()
            for text in texts
        )

    def _print_tsv(self, table: Table) -> None:
        """Straight to the file (rich would turn the tabs into spaces); a blank line before
        each table after the command's first (`status` prints two)."""
        run = output()
        gap = "\n" if self._tsv_run is run else ""
        self._tsv_run = run
        self.file.write(gap + "".join(f"{line}\n" for line in tsv_lines(table)))
        self.file.flush()


class _LaidOut:
    """A table's text, laid out already: printed as it is, in one segment."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        yield Segment(self.text)


def _laid_out(console: Console, table: Table) -> _LaidOut | None:
    """The table as rich prints it at the width its cells need, or None for a table that
    only rich lays out.

    Rich lays a table out cell by cell (padding, measuring, wrapping and cropping each):
    half a second for the thousand rows of a large `regrade` or `refresh`. Printed with no
    colour, a table whose every cell, title and caption is lines of printable ASCII, in a
    box with rich's default padding, has a layout simple enough to write down: each column
    as wide as its widest line, each line padded to it on the right (on the left in a
    right-aligned column). These are rich's bytes exactly
    (the tests hold the two together over random tables); any other table is rich's.
    """
    if not (console.soft_wrap and console.color_system is None and _is_simple(table)):
        return None
    columns = [
        [_as_text(console, cell) for cell in (column.header, *column.cells)]
        for column in table.columns
    ]
    # the title and caption are read after the cells, as rich reads them
    title = _as_text(console, table.title) if table.title else None
    caption = _as_text(console, table.caption) if table.caption else None
    notes = [*([title] if table.title else []), *([caption] if table.caption else [])]
    aligned = all(
        _is_plain(text, column.justify)
        for texts, column in zip(columns, table.columns, strict=True)
        for text in texts
    )
    if not (aligned and all(_is_plain(text) for text in notes)):
        return None
    widths, cells = zip(
        *(_column_lines([text for text in column if text is not None]) for column in columns),
        strict=True,
    )
    rights = [column.justify == "right" for column in table.columns]
    assert table.box is not None
    safe = console.safe_box if table.safe_box is None else table.safe_box
    box = table.box.substitute(console.options, safe=safe)
    rows = list(zip(*cells, strict=True))
    printed = [title.plain + title.end] if title is not None else []  # "" prints a line too
    printed.append(box.get_top(widths) + "\n")
    for index, row in enumerate(rows):
        if index == 0:
            edges = (box.head_left, box.head_vertical, box.head_right)
        elif index == len(rows) - 1:
            edges = (box.foot_left, box.foot_vertical, box.foot_right)
        else:
            edges = (box.mid_left, box.mid_vertical, box.mid_right)
        printed += _row_lines(row, widths, rights, edges, header=index == 0)
        if index == 0:
            printed.append(box.get_row(widths, "head") + "\n")
    printed.append(box.get_bottom(widths) + "\n")
    if caption is not None:  # a caption of controls alone is an empty line, as rich has it
        printed.append(caption.plain + caption.end)
    return _LaidOut("".join(printed))


def _is_simple(table: Table) -> bool:
    """A table in rich's default layout: a box and a header, no footer or lines between
    rows, one space either side of a cell, columns left or right aligned and top aligned,
    sized by their cells (a title and a caption are printed as they are, unjustified: the
    console wraps no line)."""
    return (
        bool(table.columns)
        and table.box is not None
        and not table.expand
        and table.min_width is None
        and table.show_header
        and table.show_edge
        and not table.show_footer
        and not table.show_lines
        and not table.leading
        and table.padding == (0, 1, 0, 1)
        and table.pad_edge
        and not table.collapse_padding
        and not any(row.end_section for row in table.rows)
        and all(
            column.justify in ("left", "right")
            and column.vertical == "top"
            and column.overflow != "ignore"
            and column.width is None
            and column.min_width is None
            and column.max_width is None
            for column in table.columns
        )
    )


def _as_text(console: Console, cell: Any) -> Text | None:
    """A cell as rich reads it (a string as console markup), if it is text."""
    if isinstance(cell, str):
        return console.render_str(cell)
    return cell if type(cell) is Text else None


def _is_plain(text: Text | None, justify: str = "left") -> bool:
    """Lines of printable ASCII, in its column's alignment (`justify`) and the default ending."""
    alignments = (None, "right") if justify == "right" else (None, "left", "default")
    return (
        text is not None
        and text.plain.isascii()
        and text.plain.replace("\n", "").isprintable()
        and text.justify in alignments
        and text.overflow is None
        and text.end == "\n"
    )


def _column_lines(texts: Sequence[Text]) -> tuple[int, list[list[str]]]:
    """A column's width (its widest line, a space either side) and each cell's lines; a
    column of empty cells has no lines at all (rich renders nothing where there is no room)."""
    cells = [text.plain.split("\n") for text in texts]
    width = max(len(line) for lines in cells for line in lines)
    return width + 2, cells if width else [[] for _ in cells]


def _row_lines(
    row: Sequence[list[str]],
    widths: Sequence[int],
    rights: Sequence[bool],
    edges: tuple[str, str, str],
    *,
    header: bool,
) -> list[str]:
    """A row's lines between its edges: cells top-aligned, the header's bottom-aligned; in a
    right-aligned column each line loses its trailing spaces first, as rich's do."""
    height = max(1, *(len(lines) for lines in row))
    left, divider, right = edges
    aligned = [
        ([""] * (height - len(lines)) + lines) if header else (lines + [""] * (height - len(lines)))
        for lines in row
    ]
    columns = list(zip(aligned, widths, rights, strict=True))
    return [
        left
        + divider.join(
            f" {cell[n].rstrip().rjust(width - 2) if flush else cell[n].ljust(width - 2)} "
            for cell, width, flush in columns
        )
        + right
        + "\n"
        for n in range(height)
    ]


SHORTEST_TEXT = 12
"""The narrowest a column of long text is counted as needing when a table is fitted: room
for the start of a sentence or an address, cut with an ellipsis."""


def shown_at(table: Table, width: int) -> RenderableType:
    """The table as a terminal `width` columns wide shows it: fitted to it (`fitted`); or,
    where even that would leave a column less than it needs (`least_width`), so that rich
    would cut a value short (an id too) or leave a column out, each row as a record."""
    narrowed = given_way(table, width)
    ids_fit = _ids_width(narrowed) <= width
    if least_width(narrowed, ids_fit=ids_fit) > width:
        return Records(narrowed)
    return fitted(table, width)


def fitted(table: Table, width: int) -> Table:
    """The table as a terminal `width` columns wide shows it (see the module's docstring):
    the columns that may give way left out, rightmost first, while the table needs more than
    `width`; its ids folded only when they alone cannot fit; each cell of long text on one
    line a line, cut with an ellipsis."""
    shown = given_way(table, width)
    ids_fit = _ids_width(shown) <= width
    shown.columns = [
        _column_fitted(column, position, ids_fit=ids_fit)
        for position, column in enumerate(shown.columns)
    ]
    return shown


def given_way(table: Table, width: int) -> Table:
    """The table without the columns that may give way, rightmost first, while it needs
    more than `width`."""
    shown = copy.copy(table)
    shown.columns = list(table.columns)
    for index in sorted(table.gives_way if isinstance(table, ScriptTable) else [], reverse=True):
        if needed_width(shown) <= width:
            break
        del shown.columns[index]
    return shown


def least_width(table: Table, *, ids_fit: bool) -> int:
    """The width the table needs at the least (`needed_width`), its ids whole where they
    fit (`ids_fit`), else folded `SHORTEST_TEXT` of them a line."""
    if ids_fit:
        return needed_width(table)
    return _borders(table) + sum(
        min(_widest(column, _lines), SHORTEST_TEXT) + 2 if _is_id(column) else _column_needs(column)
        for column in table.columns
    )


def needed_width(table: Table) -> int:
    """The width the table needs with each column that does not wrap whole, each column
    that wraps as wide as its longest word, and each of long text `SHORTEST_TEXT` wide
    (or as wide as its cells, when they are narrower)."""
    return _borders(table) + sum(_column_needs(column) for column in table.columns)


def _column_needs(column: Column) -> int:
    widest = _widest(column, _lines)
    if column.no_wrap:
        return widest + 2
    if column.overflow == "ellipsis":
        return min(widest, SHORTEST_TEXT) + 2
    return min(widest, _widest(column, str.split)) + 2


def _ids_width(table: Table) -> int:
    """What the table needs for its ids whole, and a cell's padding for each other column."""
    ids = [column for column in table.columns if _is_id(column)]
    return _borders(table) + sum(_widest(c, _lines) for c in ids) + 2 * len(table.columns)


def _borders(table: Table) -> int:
    if table.box is None:
        return 0
    return len(table.columns) + 1 if table.show_edge else max(len(table.columns) - 1, 0)


def _widest(column: Column, pieces: Any) -> int:
    """The widest piece of any of the column's cells, its header's too (`pieces`: how a
    cell's text is cut into pieces: lines, or words)."""
    texts = (_plain(cell) for cell in (column.header, *column.cells))
    return max((cell_len(piece) for text in texts for piece in pieces(text)), default=0)


def _lines(text: str) -> list[str]:
    return text.split("\n")


def _is_id(column: Column) -> bool:
    return column.no_wrap and column.overflow == "fold"


def _column_fitted(column: Column, position: int, *, ids_fit: bool) -> Column:
    """The column renumbered to its place (a column left out before it), its ids folded
    when they cannot all fit, its long text one line a line."""
    if _is_id(column) and not ids_fit:
        return dataclasses.replace(column, _index=position, no_wrap=False)
    if column.overflow == "ellipsis" and not column.no_wrap:
        cells = [_one_line_a_line(cell) for cell in column.cells]
        return dataclasses.replace(column, _index=position, _cells=cells)
    return dataclasses.replace(column, _index=position)


def _one_line_a_line(cell: Any) -> Any:
    """A cell of text that is never wrapped: each of its lines cut with an ellipsis."""
    if isinstance(cell, str):
        return Text(cell, no_wrap=True, overflow="ellipsis")
    if isinstance(cell, Text):
        cut = cell.copy()
        cut.no_wrap, cut.overflow = True, "ellipsis"
        return cut
    return cell


class Records:
    """A table's rows as a terminal too narrow for the table shows them: each row a
    record, its first cell at the margin, then each other cell that holds anything under
    its column's header (`status: drifted`), indented; a cell of many lines keeps them,
    indented again. Its title comes first and its caption last, as the table has them.
    A line too long for the terminal is wrapped, at a space where it has one, and goes
    on at its own indent."""

    def __init__(self, table: Table) -> None:
        self.table = table

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        for indent, line in self._lines(console):
            for part in line.wrap(console, max(options.max_width - indent, 1), overflow="fold"):
                part.rstrip()
                yield Segment(" " * indent)
                yield from part.render(console, end="")
                yield Segment.line()

    def _lines(self, console: Console) -> Iterator[tuple[int, Text]]:
        table = self.table
        if table.title:
            yield 0, _styled(_as_text(console, table.title), table.title_style or "table.title")
        headers = [_plain(column.header) for column in table.columns]
        for row in zip(*(list(column.cells) for column in table.columns), strict=True):
            cells = zip(row, table.columns, strict=True)
            texts = [_styled(_as_text(console, cell), column.style) for cell, column in cells]
            yield from _record(texts, headers)
        if table.caption:
            caption = _as_text(console, table.caption)
            yield 0, _styled(caption, table.caption_style or "table.caption")


def _styled(text: Text | None, style: StyleType | None) -> Text:
    """A cell's (or title's) text in its column's (or the table's) style."""
    return Text(style=style or "").append_text(text or Text())


def _record(cells: Sequence[Text], headers: Sequence[str]) -> Iterator[tuple[int, Text]]:
    """A row's lines, each with its indent: the first cell's at the margin, each other
    cell's under its header, indented."""
    first, *others = cells
    head, *rest = first.split("\n", allow_blank=True)
    yield 0, head
    yield from ((2, line) for line in rest)
    for header, cell in zip(headers[1:], others, strict=True):
        if cell.plain.strip():
            top, *more = cell.split("\n", allow_blank=True)
            yield 2, Text.assemble((f"{header}:", "table.header"), " ", top)
            yield from ((4, line) for line in more)


def _pictured(table: Table) -> Table:
    """The table with its cells' control characters shown as their pictures before rich
    lays it out: rich gives an ESC no width and its picture one, so a picture put in after
    the layout would push the last letter of the widest cell out of its column."""
    shown = copy.copy(table)
    shown.columns = [
        dataclasses.replace(column, _cells=[_pictured_cell(cell) for cell in column.cells])
        for column in table.columns
    ]
    return shown


def _pictured_cell(cell: Any) -> Any:
    if isinstance(cell, str):
        return visible_controls(cell)
    if isinstance(cell, Text) and visible_controls(cell.plain) != cell.plain:
        return pictured_text(cell)
    return cell


def pictured_text(text: Text) -> Text:
    """`text` with its controls shown (`visible_controls`), each picture or marker styled as
    the character it stands for. A bidirectional control's marker (`⟨U+202E⟩`) is longer
    than the character, so the text is cut at each control and put together again, its
    spans moving with the pieces, rather than given new characters under the old spans."""
    cuts = [edge for found in SHOWN_CONTROLS.finditer(text.plain) for edge in found.span()]
    pictured = text.blank_copy()
    for piece in text.divide(cuts):
        if len(piece.plain) != 1 or not SHOWN_CONTROLS.match(piece.plain):
            pictured.append_text(piece)
            continue
        shown = Text(visible_controls(piece.plain), style=piece.style)
        for span in piece.spans:
            shown.stylize(span.style, 0, len(shown.plain))
        pictured.append_text(shown)
    return pictured


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
