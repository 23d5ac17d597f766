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


# --------------------------------------------------------------------------- ids on GitHub

SHADOWED = """\
ledger: 1
title: Sources
date_read: 2026-08-23
sections: [{id: s, title: S}, {id: t, title: Sources}]
sources: {}
claims:
"""
"""A ledger whose titles take, on GitHub, the ids the report gives its own parts and its
claims: its title "Sources" takes `sources`; "Claim b" takes claim b's `claim-b`; "Foo",
"Foo-1" and "Foo" are `foo`, `foo-1` and `foo-2`; a section "Sources" takes `sources-1`,
and "Report sources" twice, "Report sources-1" between, every `report-sources-N` to 2."""

SHADOWING_TITLES = [
    ("a", "Claim b"),
    ("b", "Bee"),
    ("c", "Foo"),
    ("d", "Foo-1"),
    ("e", "Foo"),
    ("f", "Foo 1"),
    ("g", "Report sources"),
    ("h", "Report sources-1"),
    ("i", "Report sources"),
]


def github_ids(html: str) -> list[tuple[str, str | None]]:
    """Each id of GitHub's page in order, with the heading's text where it is a heading's:
    a heading's id is its slug, numbered past every id taken before (github-slugger)."""
    taken: dict[str, int] = {}
    found: list[tuple[str, str | None]] = []
    for match in re.finditer(r'<a id="([^"]+)"></a>|<h[1-6]>(.*?)</h[1-6]>', html):
        if match.group(1):
            found.append((match.group(1), None))
            continue
        text = re.sub(r"<[^>]+>", "", match.group(2)).replace("&amp;", "&")
        slug = wanted = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        while slug in taken:
            taken[wanted] += 1
            slug = f"{wanted}-{taken[wanted]}"
        taken[slug] = 0
        found.append((slug, text))
    return found


def test_on_github_every_link_in_the_page_lands_on_its_own_heading(tmp_path: Path) -> None:
    """A title that is another claim's anchor in words ("Claim b"), or that GitHub numbers
    into one ("Foo-1" after two "Foo"), or the ledger's title "Sources", took the id a
    link leads to before the part or claim it names: the link landed on the wrong one."""
    claims = "".join(
        f"  - {{id: {ident}, section: s, title: '{title}', kind: question, statement: Q?,\n"
        "     grades: [{on: x, grade: UNKNOWN, basis: judgement, why: open}]}\n"
        for ident, title in SHADOWING_TITLES
    )
    (tmp_path / "claims.yaml").write_text(SHADOWED + claims, encoding="utf-8")

    html = on_github(markdown_of(tmp_path / "claims.yaml", with_evidence=False))

    ids = github_ids(html)
    for link, words in re.findall(r'<a href="#([^"]+)">(.*?)</a>', html):
        first = next(n for n, (name, _) in enumerate(ids) if name == link)
        heading = next(text for _, text in ids[first:] if text is not None)
        assert ids[first][1] is None, f"#{link} ({words}) lands on the heading {heading}"
        assert heading == words, f"#{link} ({words}) lands on {heading}"
