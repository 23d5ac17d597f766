"""Help a reader can scan: commands grouped by task, one placeholder style, and the global
options said once rather than under every command. Read from the real binary."""

from __future__ import annotations

import re

import pytest

from claimledger.cli.app import COMMANDS as REGISTERED
from claimledger.cli.app import GLOBAL_OPTIONS_SAID, TASKS
from cli_runner import claimledger

COMMANDS = sorted(name for name, info in REGISTERED.items() if not info.hidden)


def test_every_command_is_listed_once_under_its_task_in_the_order_of_the_loop() -> None:
    shown = claimledger("--help").stdout
    headings = [line[:-1] for line in shown.splitlines() if line.endswith(":") and line[0] != " "]
    tasks = [heading for heading in headings if heading in TASKS]
    assert tasks == list(TASKS)
    listed = re.findall(r"^  ([a-z]+)  ", shown, flags=re.MULTILINE)
    assert sorted(listed) == COMMANDS  # each once; none left out of a task
    assert "Other:" not in shown


def test_each_command_is_summed_up_in_whole_sentences() -> None:
    """The list of commands gives each its first paragraph, never a cut one: a summary
    that ended where a docstring's line happened to end read "... (`move` changes its"."""
    listed = claimledger("--help").stdout
    entries = re.findall(r"^  ([a-z]+) +(.+(?:\n {6,}\S.*)*)", listed, flags=re.MULTILINE)
    summaries = {name: " ".join(text.split()) for name, text in entries if name in COMMANDS}
    assert sorted(summaries) == COMMANDS
    cut = {name: said for name, said in summaries.items() if not said.endswith((".", ".)"))}
    assert cut == {}


@pytest.mark.parametrize(
    ("typed", "meant"),
    [("stauts", "'status'"), ("regrdae", "'regrade', 'grade', 'render'"), ("rendr", "'render'")],
)
def test_a_mistyped_command_is_told_the_commands_it_is_close_to(typed: str, meant: str) -> None:
    """Each command is made only when it runs, so the names to suggest come from the
    registry, not from the commands made so far (none, before the one that runs)."""
    said = claimledger(typed, code=2).stderr
    assert said == f"claimledger: error: No such command '{typed}'. Did you mean {meant}?" + (
        " (see `claimledger -h`)\n"
    )


def test_an_alias_runs_its_command_and_is_listed_by_its_command_only() -> None:
    aliases = {name for name, info in REGISTERED.items() if info.hidden}
    assert aliases  # the registry holds them, made into commands when typed
    listed = claimledger("--help").stdout
    for alias in aliases:
        assert not re.search(rf"^  {alias} ", listed, flags=re.MULTILINE)
        assert "Usage: claimledger " in claimledger(alias, "--help").stdout


@pytest.mark.parametrize("name", COMMANDS)
def test_a_commands_help_has_one_placeholder_style_and_no_repeated_global_options(
    name: str,
) -> None:
    shown = claimledger(name, "--help").stdout
    (usage,) = [line for line in shown.splitlines() if line.startswith("Usage:")]
    placeholders = usage.split("[OPTIONS]")[1].split()
    for placeholder in placeholders:
        assert re.fullmatch(r"\[?[A-Z_]+(\.\.\.)?\]?", placeholder), (name, usage)
    metavars = re.findall(r"^  --?[a-z-]+(?:, --?[a-z-]+)? ([^ ]+)  ", shown, re.MULTILINE)
    for metavar in metavars:
        assert re.fullmatch(r"[A-Z_]+", metavar), (name, metavar)
    options = shown.split("Options:")[1]
    for option in ("--plain ", "--quiet ", "--verbose ", "--ledger "):
        assert f"  {option}" not in options and f", {option}" not in options, (name, option)
    assert " ".join(GLOBAL_OPTIONS_SAID.split()) in " ".join(shown.split())


FETCHING = {
    "--map", "--timeout", "--deadline", "--concurrency", "--per-host", "--interval",
    "--user-agent", "--header", "--header-for", "--ignore-robots", "--allow-private",
    "--browser",
}  # fmt: skip
PAGES = {"--map", "--timeout", "--user-agent", "--header", "--header-for"}
PAGES |= {"--allow-private", "--browser"}


@pytest.mark.parametrize(
    ("name", "options"),
    [
        ("add", PAGES),
        ("quote", PAGES),
        ("verify", PAGES | {"--deadline", "--ignore-robots"}),
        ("refresh", FETCHING),
        ("blame", {"--map", "--allow-private"}),
        ("status", set()),
    ],
)
def test_a_command_offers_the_fetch_options_it_names_and_no_other(
    name: str, options: set[str]
) -> None:
    shown = claimledger(name, "--help").stdout.split("Options:")[1]
    offered = set(re.findall(r"^  (--[a-z-]+)", shown, re.MULTILINE)) & FETCHING
    assert offered == options
