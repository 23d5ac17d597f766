"""A line printed to a pipe: written as it is, byte for byte what rich writes, without rich.

`out` and `err` write a printable line given with markup=False straight to a pipe or a
file (a refresh prints one a page); anything else goes through the rich console. Random
lines are printed both ways and must come out the same, and commands that print only
such lines must not load rich at all.
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from claimledger.terminal.console import TerminalConsole
from claimledger.terminal.output import _Terminal
from cli_runner import claimledger
from test_architecture import loaded_by

BUNDLED = Path(__file__).resolve().parents[1] / "claims.yaml"

LETTERS = st.text(st.characters(codec="utf-8"), max_size=60)
"""Any line at all: printable or not, markup, wide letters, tabs, controls, emoji codes."""


class _Pipe(io.StringIO):
    def isatty(self) -> bool:
        return False


def _by_rich(line: str) -> str:
    console = TerminalConsole(
        file=io.StringIO(), force_terminal=False, soft_wrap=True, highlight=False, emoji=False
    )
    console.print(line, markup=False)
    file = console.file
    assert isinstance(file, io.StringIO)
    return file.getvalue()


def _by_terminal(line: str, monkeypatch: pytest.MonkeyPatch, *, stderr: bool = False) -> str:
    pipe = _Pipe()
    monkeypatch.setattr(sys, "stderr" if stderr else "stdout", pipe)
    _Terminal(stderr=stderr).print(line, markup=False)
    return pipe.getvalue()


@given(LETTERS)
def test_a_line_to_a_pipe_is_what_rich_writes(line: str) -> None:
    with pytest.MonkeyPatch.context() as monkeypatch:
        assert _by_terminal(line, monkeypatch) == _by_rich(line)


def test_a_printable_line_does_not_open_the_rich_console(monkeypatch: pytest.MonkeyPatch) -> None:
    terminal = _Terminal(stderr=True)
    pipe = _Pipe()
    monkeypatch.setattr(sys, "stderr", pipe)
    terminal.print("ok          https://example.org/a [b] :warning:", markup=False)
    assert terminal._console is None
    assert pipe.getvalue() == "ok          https://example.org/a [b] :warning:\n"
    terminal.print("a tab\there", markup=False)  # expanded by rich: the console opens
    assert terminal._console is not None


def test_quiet_keeps_only_error_lines(tmp_path: Path) -> None:
    """With -q the plain lines go unsaid, error lines are still said (on stderr)."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(BUNDLED.read_text(encoding="utf-8"))
    quiet = claimledger("-q", "--ledger", str(ledger), "render")
    assert (quiet.stdout, quiet.stderr) == ("", "")
    assert (tmp_path / "out" / "report.md").is_file()
    refused = claimledger("-q", "--ledger", str(ledger), "render", "-o", "r.txt", code=2)
    assert refused.stdout == ""
    assert refused.stderr.startswith("claimledger: error: --output r.txt: its name does not")


def test_render_to_a_file_loads_no_rich(tmp_path: Path) -> None:
    """`render` says one plain line ("wrote out/report.md"): the console is never made."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(BUNDLED.read_text(encoding="utf-8"))
    loaded = loaded_by(tmp_path, "--ledger", str(ledger), "render")
    assert (tmp_path / "out" / "report.md").is_file()
    assert "rich" not in loaded
