"""A checkout's template cannot fill the memory, however it grows what it makes.

Capping each value at what a report may hold does not bound a loop that keeps a million
values, each under the cap, nor one step that makes a billion characters at once. Each
template below did one or the other (15 GB and more before); `render` now refuses each
with one line naming the template's line, exit 2, having built no more than its
allowance (MAX_MEMORY) or a report's size in any one step. Templates that build a
report's worth render as before.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from claimledger.report.allowance import MAX_MEMORY
from claimledger.report.sandbox import MAX_OUTPUT
from cli_runner import AuthorCli, Cli
from test_render import FIXTURE

OVER_ALLOWANCE = f"asks for more than {MAX_MEMORY:,} bytes of memory to lay out"
OVER_A_REPORT = f"a report holds at most {MAX_OUTPUT:,}"
NS = "{% set ns = namespace(s='x', l=[], d={}, n=10) %}"
LOOP = "{% for i in range(100000) %}"


@pytest.fixture
def cli(tmp_path: Path) -> Cli:
    project = tmp_path / "project"
    (project / "templates").mkdir(parents=True)
    shutil.copyfile(FIXTURE, project / "claims.yaml")
    return AuthorCli(project / "claims.yaml")  # the author's own templates/ are tested


def refused(cli: Cli, template: str, says: str) -> None:
    """`render` of `template` is one line naming its line, saying `says`, exit 2."""
    (cli.ledger.parent / "templates" / "report.md.j2").write_text(template, "utf-8")
    result = cli("render", code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "report.md.j2:1" in line, line
    assert says in line, line
    assert not (cli.ledger.parent / "out" / "report.md").exists()


GROWN = {
    "a list added an item under the cap at a time": (
        f"{NS}{LOOP}{{% set ns.l = ns.l + ['x' * 1000000] %}}{{% endfor %}}"
    ),
    "a dict grown a key at a time": (
        f"{NS}{LOOP}{{% set ns.d = dict(ns.d, **{{('k' ~ i): 'x' * 1000000}}) %}}{{% endfor %}}"
    ),
    "a list added to itself": "{% set ns = namespace(l=[1]) %}"
    "{% for i in range(40) %}{% set ns.l = ns.l + ns.l %}{% endfor %}",
    "lists written out, each holding the last": (
        f"{NS}{LOOP}{LOOP}{{% set ns.l = [ns.l{', 0' * 500}] %}}{{% endfor %}}{{% endfor %}}"
    ),
    "slices of one string kept": (
        f"{{% set s = 'x' * 1000000 %}}{NS}{LOOP}{{% set ns.l = ns.l + [s[i:]] %}}{{% endfor %}}"
    ),
    "blocks captured and kept": (
        "{% set s = 'x' * 1000000 %}"
        f"{NS}{LOOP}{{% set b %}}{{{{ s }}}}{{{{ i }}}}{{% endset %}}"
        "{% set ns.l = ns.l + [b] %}{% endfor %}"
    ),
    "numbers grown and kept": (  # a new number of 41 KB each round: -big is a copy
        f"{{% set big = 10 ** 100000 %}}{NS}{LOOP}{{% set ns.l = ns.l + [-big] %}}{{% endfor %}}"
    ),
    "a number raised to a billion": "{{ 10 ** 1000000000 }}",
    "a long string's letters listed": "{{ ('€' * 30000000)|list|length }}",
    "a long string split": "{{ ('ab ' * 20000000).split()|length }}",
    "what a filter makes drawn by a loop's length": (
        "{% for c in ('€' * 30000000)|map('upper') %}{{ loop.length }}{% endfor %}"
    ),
    "what a filter makes spread into a call": "{{ '{}'.format(*(('€' * 30000000)|map('upper'))) }}",
    "a batch filled to a hundred million": "{{ [1]|batch(60000000, 'x')|list|length }}",
}


@pytest.mark.parametrize("template", GROWN.values(), ids=GROWN.keys())
def test_what_a_template_builds_in_all_is_bounded(cli: Cli, template: str) -> None:
    refused(cli, template, OVER_ALLOWANCE)


AT_ONCE = {
    "a string doubled": (
        f"{NS}{{% for i in range(40) %}}{{% set ns.s = ns.s ~ ns.s %}}{{% endfor %}}"
    ),
    "a list of one big string joined": "{% set s = 'x' * 60000000 %}{{ ([s] * 1000)|join }}",
    "a list of one big string printed": "{% set s = 'x' * 60000000 %}{{ [s] * 1000 }}",
    "a list of one big string joined by ~": "{% set s = 'x' * 60000000 %}{{ ([s] * 1000) ~ '' }}",
    "a namespace holding it formatted": (
        "{% set s = 'x' * 60000000 %}{% set ns = namespace(a=[s] * 1000) %}"
        "{{ '{a}'.format_map({'a': ns}) }}"
    ),
    "padding with %": "{{ '%02000000000d' % 1 }}",
    "padding with format": "{{ '{:>2000000000}'.format(1) }}",
    "padding with the format filter": "{{ '%*d'|format(60000000, 1) ~ '%*d'|format(60000000, 1) }}",
    "a replace that puts a string between every letter": (
        "{% set s = 'x' * 100000 %}{{ s|replace('', s)|length }}"
    ),
    "an indent of every line": "{{ ('x\\n' * 10000)|indent(60000000)|length }}",
    "tabs expanded": "{{ ('\t' * 10000).expandtabs(60000000)|length }}",
    "paragraphs of placeholder text": "{{ lipsum(6000000)|length }}",
    "a word wrapped a letter a line": "{{ ('x' * 30000000)|wordwrap(1, wrapstring='<br>') }}",
    "links with a long target": "{{ ('a.com ' * 1000000)|urlize(target='x' * 10000) }}",
    "JSON indented deep": (
        "{% set ns = namespace(l=1) %}{% for i in range(200) %}{% set ns.l = [ns.l, ns.l] %}"
        "{% endfor %}{{ ns.l|tojson(indent=100) }}"
    ),
}


@pytest.mark.parametrize("template", AT_ONCE.values(), ids=AT_ONCE.keys())
def test_no_one_step_makes_more_than_a_report(cli: Cli, template: str) -> None:
    refused(cli, template, OVER_A_REPORT)


def test_templates_imported_and_kept_are_counted(cli: Cli) -> None:
    """An import keeps the imported template's text, here escaped for HTML anew each time."""
    templates = cli.ledger.parent / "templates"
    (templates / "part.html.j2").write_text("{{ s }}", "utf-8")
    (templates / "report.html.j2").write_text(
        "{% set s = '<' * 10000000 %}"
        f"{NS}{{% for i in range(1000) %}}{{% import 'part.html.j2' as part with context %}}"
        "{% set ns.l = ns.l + [part] %}{% endfor %}",
        "utf-8",
    )
    lines = cli("render", "-o", "-", "-f", "html", code=2).stderr.splitlines()
    (line,) = [line for line in lines if not line.startswith("claimledger: note:")]
    assert "report.html.j2:1" in line and OVER_ALLOWANCE in line, line


def test_bytes_are_not_handed_to_a_template(cli: Cli) -> None:
    """`encode` would hand a template bytes, which `*` would then repeat unchecked."""
    refused(cli, "{{ 'x'.encode() * 2000000000 }}", "'encode' of 'str' object is unsafe")


def test_a_template_that_builds_a_reports_worth_renders(cli: Cli) -> None:
    """A template that builds lists, joins and strings of a few megabytes in all is well
    within its allowance: the bounds stop growth, not work."""
    template = (
        NS + "{% for i in range(2000) %}{% set ns.l = ns.l + ['claim ' ~ i ~ ' ' ~ ('x' * 500)] %}"
        "{% endfor %}{{ ns.l|length }} {{ (ns.l|join(', '))|length }} "
        "{{ ns.l|map('upper')|select('ne', '')|list|length }}\n"
    )
    (cli.ledger.parent / "templates" / "report.md.j2").write_text(template, "utf-8")
    joined = len(", ".join(f"claim {i} {'x' * 500}" for i in range(2000)))
    assert cli("render", "-o", "-").stdout == f"2000 {joined} 2000\n"
