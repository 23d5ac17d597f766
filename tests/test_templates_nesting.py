"""A template that nests past Python's limits is the template's error, not the tool's.

An include loop, a macro calling itself, blocks within blocks or an expression nested
hundreds deep all run into Python's recursion limit or the nesting its compiler allows;
a checkout's `templates/` can hold any of them, so `render` says which template, in one
line, and exits 2 (never 70, which is a bug of ours).
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from cli_runner import AuthorCli, Cli
from test_render import FIXTURE


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    shutil.copyfile(FIXTURE, project / "claims.yaml")
    return AuthorCli(project / "claims.yaml")  # the author's own templates/ are tested


def nested(opening: str, closing: str, depth: int) -> str:
    return opening * depth + "x" + closing * depth


TOO_DEEP = {
    "an include of itself": '{% include "report.md.j2" %}',
    "a macro that calls itself": "{% macro f(n) %}{{ f(n + 1) }}{% endmacro %}{{ f(0) }}",
    "a recursive loop": "{% for x in [1] recursive %}{{ loop([1]) }}{% endfor %}",
    "ifs within ifs": nested("{% if true %}", "{% endif %}", 2000),
    "loops within loops": nested("{% for i in [1] %}", "{% endfor %}", 30),
    "loops past Python's indentation": nested("{% for i in [1] %}", "{% endfor %}", 120),
    "brackets within brackets": "{{ " + nested("[", "]", 400) + " }}",
    "a long sum": "{{ 1" + " + 1" * 5000 + " }}",
}


@pytest.mark.parametrize("template", TOO_DEEP.values(), ids=TOO_DEEP.keys())
def test_a_template_nested_too_deeply_is_one_line_and_exit_2(
    cli: Cli, tmp_path: Path, template: str
) -> None:
    (cli.ledger.parent / "templates" / "report.md.j2").write_text(template, "utf-8")
    (line,) = cli("render", "-o", "-", code=2).stderr.splitlines()
    assert line.startswith("claimledger: error: "), line
    assert "report.md.j2" in line and "nests too deeply" in line, line


def test_an_include_loop_between_two_templates_names_them(cli: Cli) -> None:
    templates = cli.ledger.parent / "templates"
    (templates / "report.md.j2").write_text('{% include "other.md.j2" %}', "utf-8")
    (templates / "other.md.j2").write_text('text\n{% include "report.md.j2" %}', "utf-8")
    (line,) = cli("render", "-o", "-", code=2).stderr.splitlines()
    assert "nests too deeply" in line and ".md.j2:" in line, line
