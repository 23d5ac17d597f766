"""A user's template cannot fill the memory: whatever way it grows a string or a list, it is
stopped at the size a report may have, printed or not.

Each template below doubles a value forty times without printing it (2^40 characters: a
terabyte), the way a hostile checkout's `templates/` could, and must end in a
TemplateError at the report's cap; the same operations at a sane size print as Jinja's
own sandbox prints them.
"""

from __future__ import annotations

import jinja2
import pytest
from jinja2.sandbox import ImmutableSandboxedEnvironment

from claimledger.errors import TemplateError
from claimledger.report import Templates
from claimledger.report import templates as templates_module

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
    monkeypatch.setattr(templates_module, "MAX_OUTPUT", CAP)
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
    monkeypatch.setattr(templates_module, "MAX_OUTPUT", CAP)
    source = "{% set s = 'abcdefghij' * 40 %}{% set t = s.replace('', s) %}done"
    templates = Templates(jinja2.DictLoader({"report.md.j2": source}))
    with pytest.raises(TemplateError, match="asks for 160,800 characters"):
        templates.render("report.md.j2")


SANE = [
    "{{ ('<i>'|safe) ~ '<b>' }} {{ 'a' ~ 1 ~ none }}",
    "{% autoescape false %}{{ ('<i>'|safe) ~ '<b>' }}{% endautoescape %}{{ '<' ~ 'b' }}",
    "{{ [1] + [2] }} {{ 7 % 3 }} {{ 'a%sb' % 1 }} {{ 'x'.replace('x', 'yy', 1) }}",
    "{% set s %}<{{ 'b' }}>{% endset %}{{ s }} {{ ['a', 'b']|join('<') }}",
]


@pytest.mark.parametrize("autoescape", [True, False])
@pytest.mark.parametrize("source", SANE)
def test_bounded_operations_print_what_jinjas_sandbox_prints(source: str, autoescape: bool) -> None:
    ours = templates_module._BoundedSandbox(autoescape=autoescape)
    theirs = ImmutableSandboxedEnvironment(autoescape=autoescape)
    assert ours.from_string(source).render() == theirs.from_string(source).render()
