"""Which templates the sandbox checks: every template but our own.

A template the loader finds that is, character for character, one of ours (a user's
copy from `init` that was never edited) is our code, and is rendered without the
sandbox's checks, to the very same text. Anything else a user's directory holds is
rendered in the sandbox, which refuses to hand a template the insides of Python.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jinja2
import pytest

from claimledger.errors import TemplateError
from claimledger.ledger.file import load
from claimledger.report import sandbox as sandbox_module
from claimledger.report import templates as templates_module
from claimledger.report.formats import claim_reviews, each_claim_review
from claimledger.report.model import Report
from claimledger.report.templates import Templates, packaged_templates, templates_loader
from test_render import FIXTURE, build, fixture_checks, fixture_previous

EDITED = "{# edited: a comment prints nothing #}"
"""What a user might add to a copy of ours that leaves its output as it was."""


@pytest.fixture(scope="module")
def report() -> Report:
    ledger = load(FIXTURE)
    return build(ledger, fixture_checks(ledger), fixture_previous(ledger))


@pytest.fixture
def sandbox_reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The attributes the sandbox is asked for, as they are asked."""
    asked: list[str] = []
    sandbox = sandbox_module.BoundedSandbox
    original = sandbox.getattr

    def counting(self: Any, obj: Any, attribute: str) -> Any:
        asked.append(attribute)
        return original(self, obj, attribute)

    monkeypatch.setattr(sandbox, "getattr", counting)
    yield asked


def ours(name: str) -> str:
    return Templates(templates_loader(None)).source(name)


def render(templates: Templates, name: str, report: Report) -> str:
    return templates.render(
        name, report=report, claimreview=claim_reviews(report, "https://e.org/")
    )


@pytest.mark.parametrize("name", packaged_templates())
def test_an_unedited_copy_of_ours_is_rendered_as_ours_outside_the_sandbox(
    tmp_path: Path, report: Report, sandbox_reads: list[str], name: str
) -> None:
    (tmp_path / name).write_text(ours(name), "utf-8")
    copied = render(Templates(templates_loader(tmp_path)), name, report)
    packaged = render(Templates(templates_loader(None)), name, report)
    assert copied == packaged
    assert sandbox_reads == []


@pytest.mark.parametrize("name", packaged_templates())
def test_our_templates_say_the_same_in_the_sandbox(
    tmp_path: Path, report: Report, sandbox_reads: list[str], name: str
) -> None:
    """The shortcut gives exactly what the sandbox gives: a copy that differs from ours
    by a comment alone is the user's, rendered in the sandbox, to the same text."""
    (tmp_path / name).write_text(ours(name) + EDITED, "utf-8")
    in_sandbox = render(Templates(templates_loader(tmp_path)), name, report)
    assert sandbox_reads, "an edited copy is the user's template: the sandbox renders it"
    assert in_sandbox == render(Templates(templates_loader(None)), name, report)


def test_the_claimreview_written_a_review_at_a_time_is_the_whole_list_written_at_once(
    tmp_path: Path, report: Report
) -> None:
    """Our HTML template writes the ClaimReview a review at a time, each made as it is
    written; a user's template that writes the whole list with `json_script` gets the
    very same page."""
    name, streamed = "report.html.j2", "{% for piece in claimreview|json_script_pieces %}"
    whole = ours(name).replace(
        f"{streamed}{{{{ piece }}}}{{% endfor %}}", "{{ claimreview|json_script }}"
    )
    assert whole != ours(name)
    (tmp_path / name).write_text(whole, "utf-8")
    reviews = list(each_claim_review(report, "https://e.org/"))

    assert len(reviews) == len(report.claims) > 1
    assert render(Templates(templates_loader(tmp_path)), name, report) == render(
        Templates(templates_loader(None)), name, report
    )


@pytest.mark.parametrize(
    "template",
    [
        "{{ ''.__class__ }}",
        "{{ report.__class__.__init__.__globals__ }}",
        "{{ '{0.__class__.__mro__}'.format(report) }}",
        "{{ '{0.__init__.__globals__}'.format(report) }}",
    ],
)
def test_a_users_template_is_still_refused_the_insides_of_python(
    tmp_path: Path, report: Report, template: str
) -> None:
    (tmp_path / "report.md.j2").write_text(template + "\n", "utf-8")
    with pytest.raises(TemplateError, match="is unsafe"):
        render(Templates(templates_loader(tmp_path)), "report.md.j2", report)


def test_a_copy_of_ours_beside_a_users_template_leaves_that_one_sandboxed(
    tmp_path: Path, report: Report
) -> None:
    (tmp_path / "report.html.j2").write_text(ours("report.html.j2"), "utf-8")
    (tmp_path / "report.md.j2").write_text("{{ ''.__class__ }}\n", "utf-8")
    templates = Templates(templates_loader(tmp_path))
    assert render(templates, "report.html.j2", report).startswith("<!DOCTYPE html>")
    with pytest.raises(TemplateError, match="is unsafe"):
        render(templates, "report.md.j2", report)


def test_a_template_that_brings_in_another_is_the_users_even_when_alike(
    sandbox_reads: list[str],
) -> None:
    """Ours bring in no other template; one that does may bring in a file of the user's,
    so a template that does is never taken for ours."""
    loader = jinja2.DictLoader({"a.md.j2": '{% include "b.md.j2" %}', "b.md.j2": "{{ x.real }}"})
    templates = Templates(loader)
    templates._ours = templates_module._report_environment(jinja2.Environment, loader)
    templates._packaged = loader
    assert templates.render("a.md.j2", x=3) == "3\n"
    assert sandbox_reads == ["real"]


def test_the_output_cap_holds_for_our_templates_too(
    monkeypatch: pytest.MonkeyPatch, report: Report
) -> None:
    """Ours is held to the cap plus an allowance for each claim of the ledger."""
    monkeypatch.setattr(sandbox_module, "MAX_OUTPUT", 10_000)
    monkeypatch.setattr(templates_module, "OURS_PER_CLAIM", 10)
    cap = 10_000 + 10 * len(report.claims)
    with pytest.raises(TemplateError, match=f"a report holds at most {cap:,}"):
        render(Templates(templates_loader(None)), "report.md.j2", report)


@pytest.mark.parametrize("per_check", [1, 4096])
def test_big_pieces_are_joined_a_few_at_a_time(
    monkeypatch: pytest.MonkeyPatch, per_check: int
) -> None:
    """A chunk holds a few thousand small pieces, but not a few thousand big ones (a
    claim's whole section): those are joined once they hold `_JOINED` characters, so
    that a chunk is never a second copy of much of the report."""
    monkeypatch.setattr(sandbox_module, "_JOINED", 1000)
    pieces = ["x" * 300] * 40

    chunks = list(sandbox_module.bounded_chunks(iter(pieces), per_check, cap=100_000))

    assert "".join(chunks) == "".join(pieces)
    assert {len(chunk) for chunk in chunks} == {1200}


@pytest.mark.parametrize("per_check", [1, 2, 3, 4096])
def test_pieces_are_joined_and_counted_whatever_the_chunk(
    monkeypatch: pytest.MonkeyPatch, per_check: int
) -> None:
    pieces = ["a", "", "bc", "def", "g" * 10, "h"]
    assert sandbox_module.bounded_text(iter(pieces), per_check) == "".join(pieces)
    monkeypatch.setattr(sandbox_module, "MAX_OUTPUT", 16)
    with pytest.raises(jinja2.exceptions.SecurityError, match="at most 16"):
        sandbox_module.bounded_text(iter(pieces), per_check)
    assert sandbox_module.bounded_text(iter(pieces[:4]), per_check) == "abcdef"
