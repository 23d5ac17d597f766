"""The README tells the truth: every command is in it, its quick start is what CI runs,
and its example ledger is one the tool accepts.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
import typer

from claimledger.cli import app
from claimledger.ledger.file import load
from cli_runner import claimledger, piped

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
CI_SCRIPT = ROOT / ".ci" / "run"

VENV = "python3 -m venv .venv && . .venv/bin/activate"
"""How the quick start installs: into a virtual environment, which a stock Debian or
Ubuntu Python requires (PEP 668 refuses `pip install` outside one)."""

QUICK_START = [
    f"{VENV} && pip install . && claimledger demo",
    f"{VENV} && pip install -e '.[test]' && pytest",
]


def steps(command: str) -> list[str]:
    return [part.strip() for part in command.split("&&")]


def section(markdown: str, heading: str) -> str:
    """The text under a `## heading`, up to the next heading of the same level."""
    parts = re.split(rf"^## {re.escape(heading)}[ \t]*$", markdown, maxsplit=1, flags=re.M)
    assert len(parts) == 2, f"README has no '## {heading}' section"
    return re.split(r"^## ", parts[1], maxsplit=1, flags=re.M)[0]


def fenced_blocks(markdown: str, language: str = r"\w*") -> list[str]:
    return re.findall(rf"^```{language}[ \t]*\n(.*?)^```[ \t]*$", markdown, flags=re.M | re.S)


def commands(block: str) -> list[str]:
    """The shell commands of a block: its non-blank lines without comments."""
    lines = (line.split(" #", 1)[0].strip() for line in block.splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def cli_commands() -> list[str]:
    group = typer.main.get_command(app)
    with typer.Context(group) as context:
        names = group.list_commands(context)  # type: ignore[attr-defined]
        listed = [n for n in names if not group.get_command(context, n).hidden]  # type: ignore[attr-defined]
    return sorted(listed)  # an alias (ls) is its command's row


@pytest.fixture(scope="module")
def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_the_cli_has_the_commands_the_design_names() -> None:
    """Guards the introspection below: an empty list would make the next test pass vacuously."""
    assert {"check", "verify", "refresh", "regrade", "render", "demo"} <= set(cli_commands())


@pytest.mark.parametrize("name", cli_commands())
def test_every_command_is_in_the_readme_command_table(readme: str, name: str) -> None:
    table = section(readme, "Commands")
    assert re.search(rf"^\| `{re.escape(name)}[ `]", table, flags=re.M), (
        f"`claimledger {name}` has no row in the README's command table"
    )


def test_quick_start_is_two_commands_in_two_blocks(readme: str) -> None:
    blocks = fenced_blocks(section(readme, "Quick start"))

    assert [commands(block) for block in blocks] == [[command] for command in QUICK_START]


def test_each_quick_start_command_installs_into_a_virtual_environment_first() -> None:
    """pip runs only once a virtual environment is active, never against the system's
    Python, and the same environment serves the command that follows."""
    for command in QUICK_START:
        parts = steps(command)
        install = next(i for i, part in enumerate(parts) if "pip install" in part)
        assert parts[:install] == steps(VENV), command
        assert shlex.split(parts[install])[0] == "pip", command  # the venv's own pip
        assert install == len(parts) - 2, command


def test_the_readme_names_pipx_for_everyday_use(readme: str) -> None:
    assert "`pipx install .`" in section(readme, "Quick start")


def test_ci_runs_what_the_quick_start_says() -> None:
    lines = commands(CI_SCRIPT.read_text(encoding="utf-8"))
    project_installs = [line for line in lines if "pip install" in line and ".[test]" in line]
    *_, quick_install, quick_test = steps(QUICK_START[1])
    venvs = [line for line in lines if line.split()[:3] == ["python3", "-m", "venv"]]
    activations = [line for line in lines if line.startswith(". ") and "bin/activate" in line]

    assert len(project_installs) == 1, project_installs
    assert shlex.split(project_installs[0])[-2:] == shlex.split(quick_install)[-2:]
    assert len(venvs) == 1 and len(activations) == 1, (venvs, activations)
    assert lines.index(venvs[0]) < lines.index(activations[0])
    assert lines.index(activations[0]) < lines.index(project_installs[0])
    assert quick_test in lines
    assert lines.index(quick_test) > lines.index(project_installs[0])


def test_bundled_ledger_is_the_demo_ledger() -> None:
    bundled = (ROOT / "claims.yaml").read_bytes()
    packaged = (ROOT / "src" / "claimledger" / "data" / "demo" / "claims.yaml").read_bytes()
    assert bundled == packaged


def test_readme_example_ledger_passes_check(readme: str, tmp_path: Path) -> None:
    blocks = fenced_blocks(section(readme, "The ledger"), "yaml")
    assert len(blocks) == 1, "the ledger section should hold one ```yaml example"
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(blocks[0], encoding="utf-8")

    result = claimledger("--ledger", str(ledger), "check", code=0)

    assert ": ok: 1 claim, 2 sources, 2 facets" in result.stdout


def test_the_writing_walkthrough_runs_as_written(
    readme: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each line of "Writing a ledger", run in order where a user would run it."""
    [block] = fenced_blocks(section(readme, "Writing a ledger"), "sh")
    monkeypatch.chdir(tmp_path)
    for line in commands(block):
        for step in line.split("&&"):
            words = shlex.split(step)
            if words[0] == "cd":
                monkeypatch.chdir(Path.cwd() / words[1])
                continue
            assert words[0] == "claimledger", step
            claimledger(*words[1:])
    written = load(tmp_path / "reading" / "claims.yaml")
    assert written.title == "What the keywords oblige"
    assert [s.id for s in written.sections][-1] == "readings"
    assert written.claim("should-is-weaker").falsified is not None
    assert "builds-on" not in written.claim_ids
    assert written.claim("must-is-absolute").facet("holds in every RFC since").why == "not checked"


def test_the_render_help_names_every_format() -> None:
    """The help names the formats without loading the report package: held to its list."""
    from claimledger.cli.reporting import FORMATS_SAID
    from claimledger.report.formats import FORMAT_NAMES

    assert ", ".join(FORMAT_NAMES) == FORMATS_SAID


# --------------------------------------------------------------------------- the tour


@pytest.fixture(scope="module")
def demo_output(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[str], Path]:
    """What `claimledger demo` prints, line by line, and where it left its ledger."""
    directory = tmp_path_factory.mktemp("tour") / "demo"
    with pytest.MonkeyPatch.context() as patch:  # one user's, whichever test asks first
        patch.setenv("XDG_CONFIG_HOME", str(_demo_users_config(directory)))
        printed = claimledger("demo", str(directory)).stdout
    return printed.splitlines(), directory / "claims.yaml"


def _demo_users_config(demo: Path) -> Path:
    """The config of the user who ran the demo: the store it made is theirs (a store made
    by another user's claimledger is the checkout's word, and every view says so)."""
    return demo.parent / "config"


def cells(line: str) -> tuple[str, ...]:
    """A table row as its cells' text (the README may show a row at another width)."""
    return tuple(cell.strip() for cell in line.strip().strip("│┃").split("│"))


def test_the_tours_output_is_what_the_demo_prints(
    readme: str, demo_output: tuple[list[str], Path]
) -> None:
    printed, _ = demo_output
    rows = {cells(line) for line in printed if line.startswith("│")}
    blocks = fenced_blocks(section(readme, "A tour"), "text")
    assert len(blocks) >= 4
    for line in (line for block in blocks for line in block.splitlines()):
        if line.startswith("│"):
            assert cells(line) in rows, line
        elif line.startswith(("┏", "┃", "┡", "└")):
            continue  # borders and headings: their width is the terminal's
        else:
            assert line in printed, line


def test_the_readmes_grep_finds_its_claim_in_the_demo(
    readme: str, demo_output: tuple[list[str], Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`claimledger claims | grep state-summary`, as the README says it, run in a shell in
    the demo's folder by the user who ran the demo, finds the claim's row: its section,
    grades, quotes and standing."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(_demo_users_config(demo_output[1].parent)))
    said = re.search(r"`claimledger (\w+) \| grep ([\w-]+)`", readme)
    assert said is not None, "the README's grep example is gone"
    command, claim = said.groups()
    found = piped(command, reader=f"grep {shlex.quote(claim)}", cwd=demo_output[1].parent)
    assert (found.status, found.stderr) == (0, "")
    (row,) = found.read.splitlines()
    assert cells(row) == (
        claim,
        "guarantees",
        "DEMONSTRATED, CLAIMED",
        "the documentation says this; the runtime provides these properties",
        "7",
        "verified",
    )


def test_the_tours_counts_are_the_bundled_ledgers(
    readme: str, demo_output: tuple[list[str], Path]
) -> None:
    ledger = load(demo_output[1])
    said = re.search(r"(\d+)\s+claims, (\d+) sources\)", section(readme, "A tour"))
    assert said is not None
    assert (int(said.group(1)), int(said.group(2))) == (len(ledger.claims), len(ledger.sources))
