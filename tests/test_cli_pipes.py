"""Output a pipe and a script can use, and shell completion, as a user meets them.

A table on a terminal is fitted to it; to a pipe it prints every id and value whole on
its row; with --plain it is TSV. -q prints nothing but errors, -v says more (refresh:
each page and check). Completion is typer's own, run here as the shells run it: the
installed `claimledger` script with the completion variables set, and in a real bash
with the script `--show-completion` prints.
"""

from __future__ import annotations

import ast
import io
import json
import os
import re
import shlex
import shutil
import string
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from rich.table import Table
from rich.text import Text

from claimledger.terminal.console import tsv_lines
from cli_runner import ANSI, SCRIPT, Cli, claimledger, on_terminal
from cli_runner import user_environment as environment
from evidence_site import DURABLE, NOT_DURABLE, ORDERED, page
from webserver import PageServer

LONG_ID = "a-claim-whose-id-runs-past-the-right-edge-of-an-eighty-column-terminal-and-on-beyond-it"
assert len(LONG_ID) > 80

LEDGER = string.Template("""\
# yaml-language-server: $$schema=ledger.schema.json
ledger: 1
title: Pipes
date_read: 2026-08-23

sections:
  - id: main
    title: Main

sources:
  guide: {url: "$guide", title: The guide, kind: docs, publisher: p}
  mirror-of-the-guide:
    url: "$mirror"
    title: "A mirror: the same words"
    kind: mirror
    publisher: q

claims:
  - id: $long
    section: main
    title: A claim with a long id
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - text: "$durable"
        sources: [guide, mirror-of-the-guide]
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}

  - id: ordered
    section: main
    title: 'Ordered delivery'  # a comment
    kind: guarantee
    statement: One sender's messages arrive in order.
    quotes:
      - text: "$ordered"
        sources: [guide]
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}
""")

BOX = re.compile(r"[│┃━─┏┓┗┛┡┩└┘╇]")


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    """The ledger, its pages served with the long claim's quote negated on the guide."""
    path = tmp_path / "reading" / "claims.yaml"
    path.parent.mkdir()
    path.write_text(
        LEDGER.substitute(
            guide=page_server.url("/guide"),
            mirror=page_server.url("/mirror"),
            long=LONG_ID,
            durable=DURABLE,
            ordered=ORDERED,
        ),
        encoding="utf-8",
    )
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE, ORDERED))
    page_server.set_page("/mirror", page(DURABLE), headers={"ETag": '"m1"'})
    return path


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


@pytest.fixture
def refreshed(cli: Cli) -> Cli:
    cli("refresh", "--allow-private", code=1)
    return cli


def run(*args: str, cwd: Path, code: int = 0, **env: str) -> subprocess.CompletedProcess[str]:
    """The installed `claimledger ARGS`, its stdout a pipe; asserts its exit status."""
    return run_with(args, cwd=cwd, code=code, env=env)


def run_with(
    args: Sequence[str], *, cwd: Path, code: int, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [str(SCRIPT), *args],
        cwd=cwd,
        env=environment(**env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == code, f"exit {done.returncode}\n{done.stdout}\n{done.stderr}"
    return done


def test_the_script_is_installed_beside_the_interpreter() -> None:
    assert SCRIPT.is_file(), f"no {SCRIPT}: install the project (pip install -e .)"


# --------------------------------------------------------------------------- pipes


def test_a_pipe_gets_every_id_and_value_whole_on_its_row(refreshed: Cli, ledger: Path) -> None:
    status = run("status", cwd=ledger.parent, code=1)
    history = run("history", LONG_ID, cwd=ledger.parent)

    for printed in (status.stdout, history.stdout):
        rows = [line for line in printed.splitlines() if LONG_ID in line]  # what grep finds
        assert rows, printed
        assert "…" not in printed
    assert any(NOT_DURABLE in line and LONG_ID in line for line in history.stdout.splitlines())
    assert BOX.search(status.stdout), "a pipe keeps the table's look, only wider"


def test_force_color_colours_a_pipes_table_and_keeps_it_whole(refreshed: Cli, ledger: Path) -> None:
    """FORCE_COLOR (a CI log in colour) made rich take the pipe for a terminal: the table
    was fitted to COLUMNS as a terminal's is, its ids folded and its columns of counts
    left out. It is coloured, and whole, as every pipe's table is."""
    status = run("status", cwd=ledger.parent, code=1, FORCE_COLOR="1")

    assert "\x1b[" in status.stdout, "coloured, as asked"
    plain = ANSI.sub("", status.stdout)
    assert any(LONG_ID in line for line in plain.splitlines()), plain
    assert "verified" in plain.splitlines()[2] and "…" not in plain, plain


def test_the_refresh_table_is_whole_in_a_pipe_too(cli: Cli, ledger: Path) -> None:
    done = run("refresh", "--allow-private", cwd=ledger.parent, code=1)
    assert any(LONG_ID in line for line in done.stdout.splitlines()), done.stdout


def test_a_terminal_keeps_the_table_fitted_to_its_width(refreshed: Cli, ledger: Path) -> None:
    shown = on_terminal("status", cwd=ledger.parent)

    assert BOX.search(shown)
    lines = shown.splitlines()
    assert all(len(line) <= 80 for line in lines), shown
    assert not any(LONG_ID in line for line in lines), "folded to fit 80 columns"
    assert LONG_ID[:8] in shown


def test_history_on_an_80_column_terminal_keeps_every_id_and_date_whole(
    refreshed: Cli, ledger: Path
) -> None:
    """Each row's date, claim, quote number and source id are whole."""
    shown = on_terminal("history", "ordered", cwd=ledger.parent)
    lines = shown.splitlines()
    assert all(len(line) <= 80 for line in lines), shown
    rows = [line for line in lines if line.startswith("│") and "#" in line]
    whole = re.compile(r"│ \d{4}-\d{2}-\d{2} +│ ordered +│ #\d+ +│ guide +│")
    assert rows and all(whole.search(row) for row in rows), shown
    assert "…" not in "".join(rows)


def test_a_pipe_at_80_columns_in_process_too(
    refreshed: Cli, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "80")
    listed = refreshed("history", LONG_ID).stdout
    rows = [line for line in listed.splitlines() if line.startswith("│")]
    assert sum(LONG_ID in row for row in rows) == 2  # a row a check, each whole


# --------------------------------------------------------------------------- --plain


STATUS_HEADER = [
    "claim",
    "verified",
    "drifted",
    "missing",
    "ambiguous",
    "unread",
    "sources failing",
]


def tsv_tables(printed: str) -> list[list[list[str]]]:
    """The TSV tables of a --plain output: blank lines between them."""
    blocks = [block for block in printed.split("\n\n") if block.strip()]
    return [[line.split("\t") for line in block.splitlines()] for block in blocks]


def test_plain_prints_each_table_as_tsv_with_every_row(refreshed: Cli) -> None:
    printed = refreshed("status", "--plain", code=1).stdout

    assert not BOX.search(printed) and "\x1b" not in printed
    claims, sources = tsv_tables(printed)[:2]
    assert claims[0] == STATUS_HEADER
    assert {row[0] for row in claims[1:]} == {LONG_ID, "ordered"}, "the fine rows too"
    by_claim = {row[0]: row for row in claims[1:]}
    assert by_claim[LONG_ID][1:6] == ["1", "1", "0", "0", "0"]
    assert by_claim["ordered"][1:6] == ["1", "0", "0", "0", "0"]
    assert sources[0] == ["source", "url", "status", "http", "note"]
    assert all(len(row) == 5 for row in sources)
    assert sorted(row[3] for row in sources[1:]) == ["200", "200"]
    assert sorted(row[0] for row in sources[1:]) == ["guide", "mirror-of-the-guide"]


def test_plain_is_the_same_before_the_command(refreshed: Cli) -> None:
    before = claimledger("--plain", "--ledger", str(refreshed.ledger), "status", code=1)
    assert before.stdout == refreshed("status", "--plain", code=1).stdout


def test_plain_history_and_regrade_have_a_column_a_fact(
    refreshed: Cli, page_server: PageServer
) -> None:
    history = tsv_tables(refreshed("history", LONG_ID, "--plain").stdout)[0]
    assert history[0] == [
        "checked",
        "claim",
        "quote",
        "source",
        "status",
        "similarity",
        "page now says",
    ]
    assert {tuple(row[1:5]) for row in history[1:]} == {
        (LONG_ID, "#1", "guide", "drifted, meaning changed"),
        (LONG_ID, "#1", "mirror-of-the-guide", "verified"),
    }

    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE))  # ORDERED gone
    refreshed("refresh", "--allow-private", code=1)
    regrade = tsv_tables(refreshed("regrade", "--plain", code=1).stdout)[0]
    assert regrade[0] == ["claim", "facet", "from", "to", "rule", "why"]
    assert all(len(row) == 6 and all(row) for row in regrade[1:]), regrade
    assert ["ordered", "wording", "CLAIMED", "UNKNOWN"] in [row[:4] for row in regrade[1:]]


def test_tsv_cells_show_tabs_newlines_and_controls_as_pictures() -> None:
    table = Table("a\tb", "c")
    table.add_row(Text("one\ttwo\nthree"), "\x1b]0;owned\x07 and \x9b")
    table.add_row("", None)

    assert tsv_lines(table) == [
        "a\u2409b\tc",
        "one\u2409two\u240athree\t\u241b]0;owned\u2407 and \ufffd",
        "\t",
    ]


def test_a_pipe_gets_wide_and_control_characters_whole_on_their_row() -> None:
    """Columns of printable ASCII are laid out without wrapping; one holding a tab, a
    control character or wide and combining letters the long way: all whole, on one row."""
    from claimledger.terminal.console import TerminalConsole

    piped = io.StringIO()
    console = TerminalConsole(file=piped, width=20, force_terminal=False, color_system=None)
    table = Table("id", "text")
    cells = [
        ("an-id-longer-than-the-pipe-is-wide", "日本語のテキストは幅が広い文字で書かれている"),
        ("tab", "one\ttwo three four five six"),
        ("control", "\x1b]0;owned\x07 and more words than fit"),
        ("combining", "e\u0301te\u0301 a\u0300 la plage, and more words"),
    ]
    for row in cells:
        table.add_row(*row)
    console.print(table)

    lines = piped.getvalue().splitlines()
    assert len(lines) == 3 + len(cells) + 1  # borders, header, one line a row
    shown = "\n".join(lines)
    assert "an-id-longer-than-the-pipe-is-wide" in shown
    assert "日本語のテキストは幅が広い文字で書かれている" in shown
    assert "\x1b" not in shown and "\u241b]0;owned\u2407 and more words than fit" in shown
    assert "e\u0301te\u0301 a\u0300 la plage, and more words" in shown


def test_a_control_character_in_the_widest_cell_costs_no_letter() -> None:
    """Its picture is in the cell before rich lays the table out: rich gives an ESC no
    width and the picture one, and the last letter once fell out of the column."""
    from claimledger.terminal.console import TerminalConsole

    for terminal in (False, True):
        piped = io.StringIO()
        console = TerminalConsole(file=piped, width=120, force_terminal=terminal, color_system=None)
        table = Table("id", "text")
        table.add_row("control", "\x1b[31mred words\x1b[0m end")
        table.add_row("plain", Text("short \x1b text"))
        console.print(table)
        shown = piped.getvalue()
        assert "\u241b[31mred words\u241b[0m end │" in shown
        assert "short \u241b text" in shown


# --------------------------------------------------------------------------- -q and -v


def test_quiet_prints_nothing_and_keeps_the_exit_status(refreshed: Cli) -> None:
    loud = refreshed("status", code=1)
    quiet = refreshed("status", "-q", code=1)
    assert loud.stdout and (quiet.stdout, quiet.stderr) == ("", "")

    before = claimledger("-q", "--ledger", str(refreshed.ledger), "regrade", code=1)
    assert (before.stdout, before.stderr) == ("", "")


def test_quiet_keeps_the_data_asked_for(refreshed: Cli) -> None:
    data = json.loads(refreshed("status", "--quiet", "--json", code=1).stdout)
    assert isinstance(data, dict) and data
    snapshot_url = refreshed.json("status", code=1)["sources"][0]["url"]
    taken = refreshed("snapshot", snapshot_url, "-q")
    assert taken.stdout.strip() and taken.stderr == ""


def test_quiet_refresh_prints_no_progress(cli: Cli) -> None:
    done = cli("refresh", "--allow-private", "-q", code=1)
    assert (done.stdout, done.stderr) == ("", "")


def test_quiet_still_prints_errors(tmp_path: Path) -> None:
    broken = tmp_path / "claims.yaml"
    broken.write_text("ledger: 1\ntitle: [unclosed\n", encoding="utf-8")
    done = claimledger("-q", "--ledger", str(broken), "check", code=2)
    assert "claimledger: error: 1 problem in the ledger" in done.stderr
    assert f"{broken}:" in done.stderr

    missing = claimledger("--ledger", str(tmp_path / "none.yaml"), "status", "-q", code=2)
    assert missing.stderr.startswith("claimledger: error:")


def test_quiet_and_verbose_exclude_each_other(cli: Cli) -> None:
    done = cli("status", "-q", "-v", code=2)
    assert "--quiet and --verbose exclude each other" in done.stderr


def test_verbose_refresh_says_each_page_and_each_check(cli: Cli, page_server: PageServer) -> None:
    first = cli("refresh", "--allow-private", "-v", code=1).stderr
    guide, mirror = page_server.url("/guide"), page_server.url("/mirror")
    page_line = r"ok {10}%s: HTTP 200, [\d,]+ bytes, \d+\.\d\d s$"
    assert re.search(page_line % re.escape(guide), first, re.M), first
    assert re.search(page_line % re.escape(mirror), first, re.M), first
    assert f"  {LONG_ID} #1 on guide: drifted (similarity" in first
    assert f"  {LONG_ID} #1 on mirror-of-the-guide: verified (exact, similarity 1.00)" in first
    assert "  ordered #1 on guide: verified (exact, similarity 1.00)" in first

    again = cli("refresh", "--allow-private", "--verbose", code=1).stderr
    assert re.search(rf"{re.escape(mirror)}: HTTP 304, unchanged since the last read", again)

    plain = cli("refresh", "--allow-private", code=1).stderr
    assert "bytes" not in plain and "#1 on" not in plain, "a line a page without -v"


BUGGY = """
import sys
from claimledger.ledger import model as ledger
from claimledger.cli import main

def broken(*args, **kwargs):
    raise KeyError("a bug of ours")

ledger.ledger_schema = broken
sys.argv = ["claimledger", *sys.argv[1:]]
main()
"""


@pytest.mark.parametrize("how", [["-v"], ["-q"], ["--verbose"]])
def test_verbose_and_quiet_leave_the_traceback_to_debug(how: list[str]) -> None:
    done = subprocess.run(
        [sys.executable, "-c", BUGGY, *how, "schema"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 70
    assert done.stderr.splitlines() == [
        "claimledger: internal error: KeyError: 'a bug of ours' (run with --debug for the "
        "traceback)"
    ]


# --------------------------------------------------------------------------- completion


def complete_bash(*words: str, cwd: Path, **env: str) -> list[str]:
    """What bash would offer for the command line `words` (the last one being typed), by
    the protocol of the script `--show-completion bash` prints."""
    variables = {
        "_CLAIMLEDGER_COMPLETE": "complete_bash",
        "COMP_WORDS": " ".join(["claimledger", *words]),
        "COMP_CWORD": str(len(words)),
    }
    done = run_with((), cwd=cwd, code=0, env={**variables, **env})
    assert done.stderr == ""
    return done.stdout.split()


def test_commands_and_options_complete(tmp_path: Path) -> None:
    assert complete_bash("hist", cwd=tmp_path) == ["history"]
    assert {"refresh", "regrade", "render", "refute", "remove"} <= set(
        complete_bash("re", cwd=tmp_path)
    )
    assert complete_bash("--pl", cwd=tmp_path) == ["--plain"]
    assert {"--quiet", "--verbose", "--plain", "--ledger"} <= set(complete_bash("--", cwd=tmp_path))


def test_every_closed_set_of_values_completes(tmp_path: Path) -> None:
    assert complete_bash("grade", "x", "", cwd=tmp_path) == [
        "DEMONSTRATED", "CLAIMED", "SPECULATIVE", "UNKNOWN",
    ]  # fmt: skip
    assert complete_bash("add", "x", "--grade", "S", cwd=tmp_path) == ["SPECULATIVE"]
    assert complete_bash("add", "x", "--basis", "p", cwd=tmp_path) == ["premises"]
    assert "guarantee" in complete_bash("add", "x", "--kind", "", cwd=tmp_path)
    assert complete_bash("source", "x", "--kind", "b", cwd=tmp_path) == ["blog"]
    assert complete_bash("set", "da", cwd=tmp_path) == ["date_read"]
    assert complete_bash("render", "--format", "c", cwd=tmp_path) == ["claimreview"]
    assert complete_bash("refresh", "--format", "j", cwd=tmp_path) == ["json", "junit"]


def test_claim_ids_complete_from_the_ledger_that_would_be_found(
    ledger: Path, tmp_path: Path
) -> None:
    below = ledger.parent / "notes" / "deeper"
    below.mkdir(parents=True)

    assert complete_bash("history", "", cwd=ledger.parent) == [LONG_ID, "ordered"]
    assert complete_bash("explain", "or", cwd=below) == ["ordered"]  # found above, like git
    assert complete_bash("--ledger", str(ledger), "diff", "a-", cwd=tmp_path) == [LONG_ID]
    assert complete_bash("diff", "--ledger", str(ledger), "o", cwd=tmp_path) == ["ordered"]
    assert complete_bash("grade", "", cwd=tmp_path, CLAIMLEDGER_LEDGER=str(ledger)) == [
        LONG_ID,
        "ordered",
    ]
    assert complete_bash("refresh", "ordered", "", cwd=ledger.parent) == [LONG_ID], (
        "a claim already named is not offered again"
    )
    assert complete_bash("add", "x", "--depends-on", "", cwd=ledger.parent) == [
        LONG_ID,
        "ordered",
    ]


def test_source_ids_complete_for_move(ledger: Path) -> None:
    assert complete_bash("move", "", cwd=ledger.parent) == ["guide", "mirror-of-the-guide"]
    assert complete_bash("move", "mi", cwd=ledger.parent) == ["mirror-of-the-guide"]


def test_zsh_and_fish_show_each_id_with_its_title(ledger: Path) -> None:
    zsh = run(
        cwd=ledger.parent,
        _CLAIMLEDGER_COMPLETE="complete_zsh",
        _TYPER_COMPLETE_ARGS="claimledger move mi",
    )
    assert '"mirror-of-the-guide":"A mirror' in zsh.stdout and "the same words" in zsh.stdout
    fish = run(
        cwd=ledger.parent,
        _CLAIMLEDGER_COMPLETE="complete_fish",
        _TYPER_COMPLETE_FISH_ACTION="get-args",
        _TYPER_COMPLETE_ARGS="claimledger explain ",
    )
    assert fish.stdout.splitlines() == [
        f"{LONG_ID}\tA claim with a long id",
        "ordered\tOrdered delivery",
    ]


HOSTILE_TITLES = """\
claims:
  - id: gate
    title: 'Gate\\" <(touch {marker}) \\"'
"""
"""A cloned ledger's claim title that leaves zsh's quotes by its backslash, then runs a
command by process substitution."""

ZSH_ARGUMENTS = r"""
_arguments() {  # the words as zsh's own _arguments makes them of a ((value:description)) list
  local action=${1#*: :}
  local -a ws
  eval ws\=\( "${action[3,-3]}" \)
  print -rl -- $ws
}
eval $(claimledger)
"""


def test_a_title_gives_zsh_no_backslash_to_leave_its_quotes(tmp_path: Path) -> None:
    (tmp_path / "claims.yaml").write_text(HOSTILE_TITLES.format(marker="x"), encoding="utf-8")
    zsh = run(
        cwd=tmp_path,
        _CLAIMLEDGER_COMPLETE="complete_zsh",
        _TYPER_COMPLETE_ARGS="claimledger explain ",
    )
    assert '"gate":"Gate' in zsh.stdout and "\\" not in zsh.stdout


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh on this machine")
def test_a_real_zsh_runs_nothing_a_title_holds(tmp_path: Path) -> None:
    marker = tmp_path / "ran"
    (tmp_path / "claims.yaml").write_text(HOSTILE_TITLES.format(marker=marker), encoding="utf-8")
    done = subprocess.run(
        ["zsh", "-f", "-c", ZSH_ARGUMENTS],
        cwd=tmp_path,
        env=environment(
            PATH=f"{SCRIPT.parent}{os.pathsep}{os.environ.get('PATH', '')}",
            _CLAIMLEDGER_COMPLETE="complete_zsh",
            _TYPER_COMPLETE_ARGS="claimledger explain ",
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert not marker.exists()
    assert done.stdout.splitlines() == [f"gate:Gate <(touch {marker}) "], done.stderr  # one word


@pytest.mark.parametrize(
    ("shell", "offered"),
    [("zsh", '"gate":"Gate [/b] [red]x[/red] [1]"'), ("fish", "gate\tGate [/b] [red]x[/red] [1]")],
)
def test_a_title_is_offered_as_written_never_read_as_markup(
    tmp_path: Path, shell: str, offered: str
) -> None:
    (tmp_path / "claims.yaml").write_text(
        "claims:\n  - id: gate\n    title: 'Gate [/b] [red]x[/red] [1]'\n", encoding="utf-8"
    )
    done = run(
        cwd=tmp_path,
        _CLAIMLEDGER_COMPLETE=f"complete_{shell}",
        _TYPER_COMPLETE_FISH_ACTION="get-args",
        _TYPER_COMPLETE_ARGS="claimledger explain ",
    )
    assert offered in done.stdout and done.stderr == ""


@pytest.mark.parametrize(
    ("shell", "offered"),
    [
        ("zsh", '"gate":"Gate \u241b]0;pwned\u2407 \u241b[2J \ufffd2J"'),
        ("fish", "gate\tGate \u241b]0;pwned\u2407 \u241b[2J \ufffd2J"),
    ],
)
def test_a_title_gives_the_terminal_no_control_character_by_completion(
    tmp_path: Path, shell: str, offered: str
) -> None:
    """zsh and fish print each id's title beside it when Tab lists the ids: a cloned
    ledger's title holding a terminal's escapes (retitle the window, clear the screen, a
    C1 CSI) reached the terminal as it was, though the ledger itself refuses it, since
    completion skims the file rather than reading it as YAML. They are offered as their
    pictures."""
    (tmp_path / "claims.yaml").write_text(
        "claims:\n  - id: gate\n    title: Gate \x1b]0;pwned\x07 \x1b[2J \x9b2J\n", encoding="utf-8"
    )
    done = run(
        cwd=tmp_path,
        _CLAIMLEDGER_COMPLETE=f"complete_{shell}",
        _TYPER_COMPLETE_FISH_ACTION="get-args",
        _TYPER_COMPLETE_ARGS="claimledger explain ",
    )
    assert offered in done.stdout, done.stdout
    assert not any(
        0x80 <= ord(c) <= 0x9F or (ord(c) < 0x20 and c not in "\t\n") for c in done.stdout
    )


@pytest.mark.parametrize(
    "written",
    [
        None,
        b"",
        b"\x00\xff\xfe binary \x89PNG",
        b"claims: [unclosed\n  - id: {\n",
        b"claims:\n\t- id: tabbed\n",
        b"- just a list\n",
    ],
    ids=["no-ledger", "empty", "binary", "broken-yaml", "tabs", "a-list"],
)
def test_completion_of_a_missing_or_invalid_ledger_is_nothing_and_silent(
    tmp_path: Path, written: bytes | None
) -> None:
    if written is not None:
        (tmp_path / "claims.yaml").write_bytes(written)
    assert complete_bash("history", "", cwd=tmp_path) == []
    assert complete_bash("move", "", cwd=tmp_path) == []


def test_completion_of_a_ledger_that_is_a_directory_or_unreadable(tmp_path: Path) -> None:
    (tmp_path / "claims.yaml").mkdir()
    assert complete_bash("history", "", cwd=tmp_path) == []
    nowhere = tmp_path / "nowhere" / "claims.yaml"
    assert complete_bash("--ledger", str(nowhere), "history", "", cwd=tmp_path) == []


def test_completion_loads_no_heavy_library(ledger: Path) -> None:
    probe = (
        "import atexit, sys\n"
        "atexit.register(lambda: sys.stderr.write(repr(sorted({m.split('.')[0] "
        "for m in sys.modules}))))\n"
        "from claimledger.cli import main\n"
        "sys.argv = ['claimledger']\n"
        "main()\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe],
        cwd=ledger.parent,
        env=environment(
            _CLAIMLEDGER_COMPLETE="complete_bash",
            COMP_WORDS="claimledger history ",
            COMP_CWORD="2",
        ),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.stdout.split() == [LONG_ID, "ordered"]
    loaded = set(ast.literal_eval(done.stderr))
    heavy = {"yaml", "fastjsonschema", "rich", "httpx", "sqlite3", "jinja2", "rapidfuzz", "lxml"}
    assert loaded & heavy == set()


@pytest.mark.parametrize(
    ("shell", "expected"),
    [
        ("bash", "complete -o default -F _claimledger_completion claimledger"),
        ("zsh", "compdef _claimledger_completion claimledger"),
        ("fish", "complete --command claimledger"),
    ],
)
def test_show_completion_prints_the_shells_script(
    tmp_path: Path, shell: str, expected: str
) -> None:
    done = run(
        "--show-completion", shell, cwd=tmp_path, _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1"
    )
    assert expected in done.stdout
    assert "_CLAIMLEDGER_COMPLETE" in done.stdout


def test_install_completion_writes_the_script_for_bash(tmp_path: Path) -> None:
    home = tmp_path / "home"
    home.mkdir()
    run(
        "--install-completion",
        "bash",
        cwd=tmp_path,
        HOME=str(home),
        _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1",
    )
    script = home / ".bash_completions" / "claimledger.sh"
    assert "_CLAIMLEDGER_COMPLETE=complete_bash" in script.read_text(encoding="utf-8")
    assert str(script) in (home / ".bashrc").read_text(encoding="utf-8")


INSTALLED = {
    "bash": (".bash_completions/claimledger.sh", ".bashrc"),
    "zsh": (".zfunc/_claimledger", ".zshrc"),
    "fish": (".config/fish/completions/claimledger.fish", None),
}


def in_shell(shell: str, line: str, *, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """`line` run by `shell -c` as its child (`; true` keeps the shell from exec'ing it, so
    the shell is the parent typer looks for), with the installed script on the PATH."""
    path = f"{SCRIPT.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    return subprocess.run(
        [shell, "-c", f"{line}; true"],
        cwd=cwd,
        env=environment(PATH=path, **env),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


@pytest.mark.parametrize("shell", sorted(INSTALLED))
def test_each_shell_is_told_apart_and_its_completion_installed(tmp_path: Path, shell: str) -> None:
    if shutil.which(shell) is None:
        pytest.skip(f"no {shell} on this machine")
    home = tmp_path / "home"
    home.mkdir()
    shown = in_shell(shell, "claimledger --show-completion", cwd=tmp_path, HOME=str(home))
    installed = in_shell(shell, "claimledger --install-completion", cwd=tmp_path, HOME=str(home))

    assert f"_CLAIMLEDGER_COMPLETE=complete_{shell}" in shown.stdout, shown.stderr
    assert f"{shell} completion installed in" in installed.stdout, installed.stderr
    script, startup = INSTALLED[shell]
    assert (home / script).read_text(encoding="utf-8").strip() == shown.stdout.strip()
    if startup is not None:
        assert (home / startup).is_file()


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish on this machine")
def test_a_real_fish_completes_with_the_sourced_script(ledger: Path) -> None:
    shown = in_shell("fish", "claimledger --show-completion", cwd=ledger.parent)
    script = ledger.parent.parent / "completion.fish"
    script.write_text(shown.stdout, encoding="utf-8")
    ids = in_shell(
        "fish", f"source {script}; complete -C 'claimledger history or'", cwd=ledger.parent
    )
    commands = in_shell("fish", f"source {script}; complete -C 'claimledger mo'", cwd=ledger.parent)
    sources = in_shell(
        "fish", f"source {script}; complete -C 'claimledger move g'", cwd=ledger.parent
    )

    assert ids.stdout.splitlines() == ["ordered\tOrdered delivery"]
    assert [line.split("\t")[0] for line in commands.stdout.splitlines()] == ["move"]
    assert sources.stdout.splitlines() == ["guide\tThe guide"]
    assert "Traceback" not in ids.stderr + commands.stderr + sources.stderr


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash on this machine")
def test_a_real_bash_completes_with_the_sourced_script(ledger: Path) -> None:
    shown = run(
        "--show-completion",
        "bash",
        cwd=ledger.parent,
        _TYPER_COMPLETE_TEST_DISABLE_SHELL_DETECTION="1",
    )
    script = ledger.parent.parent / "completion.bash"
    script.write_text(shown.stdout, encoding="utf-8")
    session = (
        f"source {script}\n"
        "complete -p claimledger\n"
        "COMP_WORDS=(claimledger history or); COMP_CWORD=2\n"
        "_claimledger_completion claimledger\n"
        'echo "offered: ${COMPREPLY[*]}"\n'
        "COMP_WORDS=(claimledger mo); COMP_CWORD=1\n"
        "_claimledger_completion claimledger\n"
        'echo "offered: ${COMPREPLY[*]}"\n'
    )
    done = subprocess.run(
        ["bash", "--norc", "--noprofile", "-i"],
        input=session,
        cwd=ledger.parent,
        env=environment(PATH=f"{SCRIPT.parent}{os.pathsep}{os.environ.get('PATH', '')}"),
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert "complete -o default -F _claimledger_completion claimledger" in done.stdout
    assert "offered: ordered" in done.stdout.splitlines()
    assert "offered: move" in done.stdout.splitlines()
    assert "Traceback" not in done.stderr


# --------------------------------------------------------------------------- a closed pipe


@pytest.mark.parametrize(
    "command", [("render", "-o", "-"), ("render", "-f", "json", "-o", "-"), ("schema",)]
)
def test_a_reader_that_stops_early_ends_the_command_quietly(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    """A reader that stops early (`| head`, `| true`) closes the pipe long before a big
    report is written: the command stops
    there with 141 (as one killed by SIGPIPE does) and says nothing, never an internal
    error. 141 lets `set -o pipefail` tell it from a failure of the command's own."""
    sys.path.insert(0, str(Path(__file__).parent / "benchmarks"))
    from bench_scale import ledger_text

    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ledger_text(1_000), encoding="utf-8")
    line = " ".join([shlex.quote(str(SCRIPT)), "--ledger", str(ledger), *command])
    script = f"{line} | true; echo ${{PIPESTATUS[0]}}"  # a reader that reads nothing
    done = subprocess.run(
        ["bash", "-c", script], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip() in ("141", "0")  # 0 only where all of it fit the pipe
    assert done.stderr == ""
    if command[0] == "render":  # hundreds of kB: more than a pipe holds
        assert done.stdout.strip() == "141"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [("check",), ("status", "--json"), ("schema",)])
def test_an_output_the_disk_refuses_is_one_line_and_exit_2(
    command: tuple[str, ...], tmp_path: Path
) -> None:
    """`> report.xml` on a full disk: one line saying so, never a traceback or exit 120."""
    claimledger("init", str(tmp_path / "reading"))
    ledger = tmp_path / "reading" / "claims.yaml"
    with Path("/dev/full").open("w", encoding="utf-8") as full:
        done = subprocess.run(
            [str(SCRIPT), "--ledger", str(ledger), *command],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            timeout=60,
            env=environment(),
        )
    said = done.stderr.strip().splitlines()
    assert done.returncode == 2
    assert (
        said[-1] == "claimledger: error: the output could not be written: No space left on device"
    )
    assert "Traceback" not in done.stderr and "Exception ignored" not in done.stderr
