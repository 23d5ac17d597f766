"""A user's template cannot fill the memory: whatever way it grows a string or a list, it is
stopped at the size a report may have, printed or not.

Each template below doubles a value forty times without printing it (2^40 characters: a
terabyte), the way a hostile checkout's `templates/` could, and must end in a
TemplateError at the report's cap; the same operations at a sane size print as Jinja's
own sandbox prints them.
"""

from __future__ import annotations

from pathlib import Path

import jinja2
import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from claimledger.errors import TemplateError
from claimledger.ledger.file import load
from claimledger.report import allowance
from claimledger.report import sandbox as sandbox_module
from claimledger.report import templates as templates_module
from claimledger.report.formats import format_for
from claimledger.report.templates import Templates, packaged_templates, templates_loader

CAP = 10_000

DOUBLING = {
    "concatenated": "{% set ns.s = ns.s ~ ns.s %}",
    "added": "{% set ns.s = ns.s + ns.s %}",
    "formatted with %": "{% set ns.s = '%s%s' % (ns.s, ns.s) %}",
    "formatted with str.format": "{% set ns.s = '{}{}'.format(ns.s, ns.s) %}",
    "joined": "{% set ns.s = [ns.s, ns.s]|join %}",
    "captured by a block": "{% set s2 %}{{ ns.s }}{{ ns.s }}{% endset %}{% set ns.s = s2 %}",
    "returned by a macro": "{% set ns.s = twice(ns.s) %}",
    "a list added to itself": "{% set ns.l = ns.l + ns.l %}",
}


@pytest.mark.parametrize("growth", DOUBLING.values(), ids=DOUBLING.keys())
def test_a_value_doubled_unprinted_is_stopped_at_the_cap(
    monkeypatch: pytest.MonkeyPatch, growth: str
) -> None:
    monkeypatch.setattr(sandbox_module, "MAX_OUTPUT", CAP)
    source = (
        "{% macro twice(x) %}{{ x }}{{ x }}{% endmacro %}"
        "{% set ns = namespace(s='ab', l=[1, 2]) %}"
        f"{{% for i in range(40) %}}{growth}{{% endfor %}}done"
    )
    templates = Templates(jinja2.DictLoader({"report.md.j2": source}))
    with pytest.raises(TemplateError, match=f"a report holds at most {CAP:,}"):
        templates.render("report.md.j2")


def test_a_replace_that_would_multiply_the_text_is_refused_before_it_is_made(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`s.replace('', s)` puts `s` between every letter of it: len(s) squared in one step."""
    monkeypatch.setattr(sandbox_module, "MAX_OUTPUT", CAP)
    source = "{% set s = 'abcdefghij' * 40 %}{% set t = s.replace('', s) %}done"
    templates = Templates(jinja2.DictLoader({"report.md.j2": source}))
    with pytest.raises(TemplateError, match="asks for 160,800 characters"):
        templates.render("report.md.j2")


SANE = [
    "{{ ('<i>'|safe) ~ '<b>' }} {{ 'a' ~ 1 ~ none }}",
    "{% autoescape false %}{{ ('<i>'|safe) ~ '<b>' }}{% endautoescape %}{{ '<' ~ 'b' }}",
    "{{ [1] + [2] }} {{ 7 % 3 }} {{ 'a%sb' % 1 }} {{ 'x'.replace('x', 'yy', 1) }}",
    "{% set s %}<{{ 'b' }}>{% endset %}{{ s }} {{ ['a', 'b']|join('<') }}",
    "{{ '{0}-{x}'.format(1, x='<') }} {{ '{a}'.format_map({'a': 3}) }} {{ [1, 2, 3][1:] }}",
    "{{ (1, 2) }} {{ {'a': [1, '<']} }} {{ 2 ** 10 }} {{ -3 }} {{ 7 // 2 }} {{ 7 / 2 }}",
    "{% for x in [3, 1, 2]|sort|map('string') %}{{ loop.length }}{{ x }}{% endfor %}",
    "{{ 'ab'|reverse }} {{ [1, 2]|reverse|list }} {{ 'abc'|list }} {{ 'a,b'.split(',') }}",
    "{{ '-'.join(['x', 'y']) }} {{ 'x'.center(5) }}| {{ [1, 2, 3]|batch(2, 0)|list }}",
    "{{ '%s%s' % ('a', 'b') }} {{ dict(a=1)|dictsort }} {{ range(3)|sum }} {{ [1]|slice(2)|list }}",
    "{% macro m() %}{{ varargs|length }}{% endmacro %}{{ m(*[1, 2]) }} {{ 'a b'.title() }}",
    "{{ ['b', 'a']|unique|join }} {{ [{'k': 1}]|groupby('k')|list }} {{ 'a'|indent(2, true) }}",
    "{{ {'a': '<'}|tojson }} {{ {'x': '<'}|xmlattr }} {{ 'see a.com'|urlize }}",
    "{{ 'ab'|wordwrap(1) }} {{ 'a'|e|length }}",
]


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("source", SANE)
def test_bounded_operations_print_what_jinjas_sandbox_prints(source: str, autoescape: bool) -> None:
    ours = sandbox_module.BoundedSandbox(autoescape=autoescape)
    theirs = ImmutableSandboxedEnvironment(autoescape=autoescape)
    assert ours.from_string(source).render() == theirs.from_string(source).render()


def test_every_filter_a_sandboxed_template_is_given_is_sized() -> None:
    """The sandbox's filters are a closed list: each is one that makes no more than it is
    given, one that goes through its value's items (which are drawn and counted), or one
    with a rule for what it makes; one that no rule can size is not given at all. A
    filter Jinja or the report adds later is refused here until it is sorted."""
    sorted_out = allowance.TEXT_FILTERS.keys() | allowance.FILTERS.keys()
    sorted_out |= allowance.ITERATED | allowance.SMALL
    given = set(Templates(jinja2.DictLoader({})).environment.filters)
    assert given - sorted_out == set()
    assert given & allowance.REFUSED == set()
    every = set(jinja2.Environment().filters) | set(templates_module.FILTERS)
    assert every - sorted_out == allowance.REFUSED


def test_our_templates_cap_grows_with_the_ledger_a_users_does_not(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A 50,000-claim ledger's report is past the cap a user's template is held to; ours
    writes in proportion to the ledger, so their cap is scaled by its claims."""
    from test_render import FIXTURE, build, fixture_checks

    ledger = load(FIXTURE)
    report = build(ledger, fixture_checks(ledger))
    whole = len(format_for("html", Templates(templates_loader(None))).render(report))
    monkeypatch.setattr(sandbox_module, "MAX_OUTPUT", whole // 2)  # as if the ledger were big
    ours = format_for("html", Templates(templates_loader(None))).render(report)
    assert len(ours) == whole
    copy = tmp_path / "templates"
    copy.mkdir()
    for name in packaged_templates():
        mine = Templates(templates_loader(None)).source(name) + "{# edited #}\n"
        (copy / name).write_text(mine, "utf-8")
    with pytest.raises(TemplateError, match="a report holds at most"):
        format_for("html", Templates(templates_loader(copy))).render(report)


SPINNING = {
    "loops in loops": "{% for a in range(100000) %}{% for b in range(100000) %}{% endfor %}"
    "{% endfor %}",
    "a macro calling itself twice": "{% macro f(n) %}{% if n < 30 %}{{ f(n+1) }}{{ f(n+1) }}"
    "{% endif %}{% endmacro %}{{ f(0) }}",
    "loops over filters' generators": "{% for a in range(99999)|select %}"
    "{% for b in range(99999)|select %}{% endfor %}{% endfor %}",
}


@pytest.mark.parametrize("spin", SPINNING.values(), ids=SPINNING.keys())
def test_a_template_that_spins_printing_nothing_is_stopped_by_its_steps(spin: str) -> None:
    """Nothing printed, nothing held: memory does not bound it, and 10^10 empty rounds
    ran until killed (2^30 calls, 24 s until memory ran out). Each loop round is a step
    and each call ten; a render may take `MAX_STEPS`."""
    templates = Templates(jinja2.DictLoader({"report.md.j2": spin + "done"}))
    with pytest.raises(TemplateError, match=f"takes more than {allowance.MAX_STEPS:,} steps"):
        templates.render("report.md.j2")


def test_a_loop_still_knows_its_length_and_arguments_are_still_spread() -> None:
    source = (
        "{% macro three(a, b, c) %}{{ a }}{{ b }}{{ c }}{% endmacro %}"
        "{% for x in items %}{{ loop.index }}/{{ loop.length }}:{{ x }}"
        "{{ loop.revindex }} {% endfor %}{{ three(*items) }}"
    )
    templates = Templates(jinja2.DictLoader({"report.md.j2": source}))
    assert templates.render("report.md.j2", items=["a", "b", "c"]) == "1/3:a3 2/3:b2 3/3:c1 abc\n"


def test_a_python_error_met_by_a_template_is_named_by_its_type() -> None:
    """Iterating `self` asks it for item 0, and the KeyError says only "0": the message
    said "report.md.j2:1: 0"."""
    templates = Templates(jinja2.DictLoader({"report.md.j2": "{% for k in self %}{% endfor %}"}))
    with pytest.raises(TemplateError, match=r":1: KeyError: 0 \(fix the template\)$"):
        templates.render("report.md.j2")
