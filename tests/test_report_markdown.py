"""The Markdown report through the clients that read it: GitHub's own parser (cmark-gfm)
and a Markdown linter (pymarkdown, markdownlint's rules).

The fixture ledger is hostile on purpose (page text with addresses, HTML, Markdown
syntax); the bundled ledger is the report a reader meets first. Both must render on
GitHub with no link the author did not write, and lint clean.
"""

from __future__ import annotations

import re
from datetime import UTC, date, datetime
from pathlib import Path

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from pymarkdown.api import PyMarkdownApi

from claimledger.grading.rules import regrade
from claimledger.ledger.file import load
from claimledger.report.build import build_report
from claimledger.report.formats import format_for
from claimledger.report.templates import Templates, templates_loader
from test_render import FIXTURE, fixture_checks, fixture_fetches, fixture_previous

BUNDLED = Path(__file__).resolve().parent.parent / "claims.yaml"
GENERATED_ON = date(2026, 12, 1)

LINT_RULES_OFF = {
    "md013": "line length: a generated line holds a whole sentence or table row",
}


def markdown_of(ledger_path: Path, *, with_evidence: bool) -> str:
    ledger = load(ledger_path)
    checks = fixture_checks(ledger) if with_evidence else []
    report = build_report(
        ledger,
        checks,
        fixture_fetches(ledger) if with_evidence else {},
        regrade(ledger, checks),
        generated_on=GENERATED_ON,
        last_refresh=datetime(2026, 11, 29, 9, 30, tzinfo=UTC) if with_evidence else None,
        previous=fixture_previous(ledger) if with_evidence else None,
    )
    return format_for("md", Templates(templates_loader(None))).render(report)


@pytest.fixture(scope="module")
def reports() -> dict[str, str]:
    return {
        "fixture": markdown_of(FIXTURE, with_evidence=True),
        "bundled": markdown_of(BUNDLED, with_evidence=False),
    }


def on_github(markdown: str) -> str:
    """The HTML GitHub's parser makes of it (raw HTML kept, as GitHub keeps `<a id>`)."""
    html: str = cmarkgfm.github_flavored_markdown_to_html(
        markdown, options=Options.CMARK_OPT_UNSAFE
    )
    return html


@pytest.mark.parametrize("which", ["fixture", "bundled"])
def test_the_markdown_lints_clean(reports: dict[str, str], which: str) -> None:
    api = PyMarkdownApi()
    for rule in LINT_RULES_OFF:
        api = api.disable_rule_by_identifier(rule)
    api = api.set_string_property("plugins.md033.allowed_elements", "a")
    failures = api.scan_string(reports[which]).scan_failures
    assert [
        f"{f.line_number}: {f.rule_id} {f.rule_description} {f.extra_error_information or ''}"
        for f in failures
    ] == []


@pytest.mark.parametrize("which", ["fixture", "bundled"])
def test_on_github_every_link_is_one_the_report_made(reports: dict[str, str], which: str) -> None:
    html = on_github(reports[which])
    ids = set(re.findall(r'<a id="([^"]+)"', html))
    targets = re.findall(r'href="([^"]*)"', html)
    assert targets, "the report links its claims and sources"
    for target in targets:
        if target.startswith("#"):
            assert target[1:] in ids, f"a link to a missing anchor: {target}"
        else:
            assert target.startswith("https://"), f"a link the report did not make: {target}"


def test_on_github_page_text_never_becomes_a_link_or_markup(reports: dict[str, str]) -> None:
    html = on_github(reports["fixture"])
    assert "evil.example" in html  # the hostile quote is shown...
    assert not re.search(r'href="(?:https?:)?//[^/"]*evil\.example', html)  # ...never a link
    assert "mailto:" not in html
    assert not re.search(r"<(script|img)\b", html)
    assert html.count("<h1>") == 1  # the report's title; the injected heading stays text
    assert "onerror" not in re.sub(r"&lt;img[^&]*onerror", "", html)


@pytest.mark.parametrize("which", ["fixture", "bundled"])
def test_every_code_block_names_its_language(reports: dict[str, str], which: str) -> None:
    html = on_github(reports[which])
    blocks = re.findall(r"<pre(?: lang=\"([^\"]+)\")?>", html)
    assert all(blocks), f"code blocks without a language: {blocks.count('')} of {len(blocks)}"


def test_no_colon_is_escaped_where_github_would_not_link(reports: dict[str, str]) -> None:
    text = reports["fixture"]
    assert "rule:premises-capped" in text
    stray = re.findall(r"\b(?!https?\\:|mailto\\:|xmpp\\:)\w+\\:", text)
    assert stray == []
