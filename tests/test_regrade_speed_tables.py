"""A table printed to a pipe: the quick layout of plain tables is byte for byte rich's own.

Rich lays every table out the long way; `TerminalConsole` writes down the layout of a
table of printable ASCII itself. Random tables, plain and not, are printed both ways
and must come out the same, and the tables `regrade` prints must take the quick way.
"""

from __future__ import annotations

import io
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich import box
from rich.errors import MarkupError
from rich.table import Table
from rich.text import Text

from claimledger.grading.rules import Notice, Proposal, Regrade
from claimledger.ledger.vocabulary import Grade
from claimledger.terminal import console as console_module
from claimledger.terminal.console import TerminalConsole
from claimledger.terminal.views import notices_table, proposals_table, summary_table

PLAIN = "abc XYZ 019 -_/'`()[]:\\.,;!?\n"
"""Printable ASCII and line breaks, with console markup and emoji codes among them."""

ODD = PLAIN + "\t\x1b\x07é日\u0301"
"""And what only rich lays out: a tab, controls, a wide and a combining letter."""


def _piped_console(width: int) -> TerminalConsole:
    """A console as the commands make one, writing to a pipe."""
    return TerminalConsole(
        file=io.StringIO(),
        width=width,
        force_terminal=False,
        soft_wrap=True,
        highlight=False,
        emoji=False,
    )


def _printed(table: Table, width: int, *, by_rich: bool) -> str:
    """What the table prints as, or the markup error it raises (a string cell is markup)."""
    console = _piped_console(width)
    try:
        if by_rich:
            with mock.patch.object(console_module, "_laid_out", return_value=None):
                console.print(table)
        else:
            console.print(table)
    except MarkupError as error:
        return f"MarkupError: {error}"
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def _mostly(usual: Any, *others: Any) -> st.SearchStrategy[Any]:
    """The usual value nine times in ten, else one of the others."""
    return st.sampled_from([usual] * 9 * len(others) + list(others))


def _cell(alphabet: str) -> st.SearchStrategy[Any]:
    words = st.text(alphabet, max_size=24)
    text = st.builds(
        lambda plain, style, justify: Text(plain, style=style, justify=justify),
        words,
        st.sampled_from(["", "bold"]),
        _mostly(None, "left", "right", "center", "full"),
    )
    return st.one_of(words, text)


@st.composite
def tables(draw: st.DrawFn, alphabet: str) -> Table:
    table = Table(
        title=draw(st.one_of(st.none(), _cell(alphabet))),
        title_justify=draw(st.sampled_from(["left", "center", "right"])),
        caption=draw(st.one_of(st.none(), _cell(alphabet))),
        caption_justify=draw(st.sampled_from(["left", "center", "right"])),
        box=draw(_mostly(box.HEAVY_HEAD, box.ROUNDED, box.ASCII, box.SIMPLE, None)),
        show_lines=draw(_mostly(False, True)),
        expand=draw(_mostly(False, True)),
    )
    for _ in range(draw(st.integers(1, 4))):
        justify = draw(_mostly("left", "right", "center"))
        table.add_column(draw(_cell(alphabet)), justify=justify, no_wrap=draw(st.booleans()))
    for _ in range(draw(st.integers(0, 5))):
        table.add_row(*draw(st.lists(_cell(alphabet), max_size=len(table.columns))))
    return table


@settings(max_examples=400, deadline=None)
@given(tables(PLAIN), st.integers(10, 200))
def test_a_plain_table_is_laid_out_as_rich_lays_it_out(table: Table, width: int) -> None:
    assert _printed(table, width, by_rich=False) == _printed(table, width, by_rich=True)


@st.composite
def aligned_tables(draw: st.DrawFn) -> Table:
    """Plain tables with right-aligned columns: cells of words, spaces and line breaks."""
    words = st.text("ab 7\n", max_size=12)
    table = Table(
        title=draw(st.one_of(st.none(), words)), caption=draw(st.one_of(st.none(), words))
    )
    for _ in range(draw(st.integers(1, 4))):
        table.add_column(draw(words), justify=draw(st.sampled_from(["left", "right", "right"])))
    for _ in range(draw(st.integers(0, 5))):
        cells = draw(
            st.lists(st.one_of(words, st.builds(Text, words)), max_size=len(table.columns))
        )
        table.add_row(*cells)
    return table


@settings(max_examples=300, deadline=None)
@given(aligned_tables(), st.integers(10, 200))
def test_a_right_aligned_column_is_laid_out_as_rich_lays_it_out(table: Table, width: int) -> None:
    assert console_module._laid_out(_piped_console(width), table) is not None
    assert _printed(table, width, by_rich=False) == _printed(table, width, by_rich=True)


@settings(max_examples=200, deadline=None)
@given(tables(ODD), st.integers(10, 200))
def test_any_other_table_is_rich_s_own(table: Table, width: int) -> None:
    assert _printed(table, width, by_rich=False) == _printed(table, width, by_rich=True)


@pytest.mark.parametrize("note", ["\x07", "\x07\x07", " \x07"])
def test_a_title_or_caption_of_controls_alone_is_the_line_rich_prints(note: str) -> None:
    for table in (Table(caption=note), Table(title=note, caption=note)):
        table.add_column("")
        assert _printed(table, 10, by_rich=False) == _printed(table, 10, by_rich=True)


def test_a_cell_s_bad_markup_is_found_before_the_title_s_as_rich_finds_it() -> None:
    table = Table(title="[/title]")
    table.add_column("id")
    table.add_row("[/cell]")
    printed = _printed(table, 80, by_rich=False)
    assert printed == _printed(table, 80, by_rich=True)
    assert printed.startswith("MarkupError: closing tag '[/cell]'")


def test_the_tables_of_regrade_and_refresh_are_laid_out_the_quick_way() -> None:
    proposal = Proposal("c1", "wording", Grade.DEMONSTRATED, Grade.UNKNOWN, "quotes-gone", "gone")
    notice = Notice("c2", "wording", "stale", "a quote was reworded on its page (harmless)")
    result = Regrade(proposals=(proposal,), notices=(notice,), traces=(), has_evidence=True)
    counts = {"verified": 1, "drifted": 12, "missing": 0, "ambiguous": 0, "unread": 3}
    rows = [
        {"claim_id": "c1", **counts, "failing_sources": ["guide", "api"]},
        {
            "claim_id": "c2",
            **counts,
            "verified": 2,
            "drifted": 0,
            "unread": 0,
            "failing_sources": [],
        },
    ]
    refreshed = summary_table(rows, "Refresh: 19 quote checks on 2 sources")
    console = _piped_console(80)
    for table in (proposals_table(result), notices_table(result), refreshed):
        laid = console_module._laid_out(console, table)
        assert laid is not None
        assert laid.text == _printed(table, 80, by_rich=True)
