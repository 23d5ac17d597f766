"""Bidirectional controls are shown, never obeyed: a right-to-left override in a page's
wording or in a ledger's text would make a terminal, a browser or GitHub draw the words
after it backwards ("acknowledged ‮ton‬" read as "acknowledged not"). Every output
claimledger writes shows each such control as a visible marker (`⟨U+202E⟩`), or in JSON
as its `\\u202e` escape (the same value), wherever the text came from.

A loopback page words a quote with an override in it; the ledger's own title, a claim's
title and a quote carry them too. The real command line prints and renders them.
"""

from __future__ import annotations

import json
import re
import string
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
from lxml import html as lxml_html

from claimledger.report.bidi import BIDI_CONTROLS
from cli_runner import Cli
from evidence_site import page
from webserver import PageServer

RLO, PDF, RLI, PDI, LRM = "\u202e", "\u202c", "\u2067", "\u2069", "\u200e"
QUOTE = "Every write is acknowledged after it reaches two replicas."
WORDING = f"Every write is acknowledged {RLO}ton{PDF} after it reaches two replicas."
SHOWN_WORDING = "acknowledged ⟨U+202E⟩ton⟨U+202C⟩ after"

LEDGER = string.Template("""\
ledger: 1
title: "Replicas $rli(a reading)$pdi"
date_read: 2026-08-23
about: "Read with care: $rlo.sdrow desrever$pdf"

sections:
  - id: main
    title: Main

sources:
  docs: {url: "$docs", title: Docs, kind: docs, publisher: p}

claims:
  - id: replicas
    section: main
    title: "Two $lrm replicas"
    kind: guarantee
    statement: A write is on two replicas before it is acknowledged.
    quotes:
      - text: "$quote"
        sources: [docs]
    grades:
      - {on: "the documentation $lrm says this", grade: DEMONSTRATED, basis: quotes}
""")


@pytest.fixture
def cli(tmp_path: Path, page_server: PageServer) -> Cli:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        LEDGER.substitute(
            docs=page_server.url("/docs"), quote=QUOTE, rlo=RLO, pdf=PDF, rli=RLI, pdi=PDI,
            lrm=LRM,
        ),
        encoding="utf-8",
    )  # fmt: skip
    page_server.set_page("/docs", page(WORDING))
    return Cli(ledger)


def no_control(text: str) -> bool:
    return not BIDI_CONTROLS & set(text)


def docs_url(cli: Cli) -> str:
    return cli.ledger.read_text("utf-8").split('url: "', 1)[1].split('"', 1)[0]


def refreshed(cli: Cli, *more: str) -> str:
    return cli("refresh", "--allow-private", "--no-as-read", *more, code=1).stdout


# --------------------------------------------------------------------------- the terminal


def test_the_terminal_shows_each_control_of_a_pages_wording_as_its_marker(cli: Cli) -> None:
    refreshed(cli)
    outputs = {
        "diff": cli("diff", code=1).stdout,
        "diff --plain": cli("--plain", "diff", code=1).stdout,
        "status": cli("status", code=1).stdout,
        "history": cli("history", "replicas").stdout,
        "snapshot": cli("snapshot", docs_url(cli)).stdout,
        "refresh --verbose": cli("-v", "refresh", "--allow-private", "--no-as-read", code=1).stdout,
    }
    for name, text in outputs.items():
        assert no_control(text), name
    flat = {name: " ".join(text.split()) for name, text in outputs.items()}
    assert SHOWN_WORDING in flat["diff"] and SHOWN_WORDING in flat["diff --plain"]
    assert SHOWN_WORDING in flat["snapshot"]
    assert "⟨U+202E⟩ton⟨U+202C⟩" in flat["history"]


def test_a_ledgers_text_is_shown_with_markers_too(cli: Cli) -> None:
    refreshed(cli)
    explained = cli("explain", "replicas").stdout
    assert no_control(explained) and "the documentation ⟨U+200E⟩ says this" in explained


def test_json_writes_each_control_as_its_escape_the_same_value(cli: Cli) -> None:
    refreshed(cli)
    for command in (("diff", "--json"), ("status", "--json"), ("history", "replicas", "--json")):
        text = cli(*command, code=1 if command[0] != "history" else 0).stdout
        assert no_control(text), command
    text = cli("diff", "--json", code=1).stdout
    assert "\\u202eton\\u202c" in text
    (check,) = json.loads(text)["checks"]
    assert check["current"] == WORDING  # the value itself is the page's, unchanged


# --------------------------------------------------------------------------- reports


def test_the_markdown_report_shows_markers_that_github_renders_as_text(cli: Cli) -> None:
    refreshed(cli)
    text = cli("render", "--output", "-").stdout
    assert no_control(text)
    assert "⟨U+2067⟩(a reading)⟨U+2069⟩" in text  # the ledger's title
    assert "⟨U+202E⟩.sdrow desrever⟨U+202C⟩" in text  # its about, the author's Markdown
    assert "⟨U+202E⟩ton⟨U+202C⟩" in text  # the page's wording
    rendered = cmarkgfm.github_flavored_markdown_to_html(text)
    assert no_control(rendered) and "⟨U+202E⟩ton⟨U+202C⟩" in rendered


def test_the_html_report_shows_markers_in_its_text_and_escapes_in_its_data(cli: Cli) -> None:
    refreshed(cli)
    report = cli.ledger.parent / "report.html"
    cli("render", "--format", "html", "--output", str(report))
    text = report.read_text("utf-8")
    assert no_control(text)
    document: Any = lxml_html.fromstring(text)
    shown = " ".join(document.text_content().split())
    assert "⟨U+2067⟩(a reading)⟨U+2069⟩" in shown and "⟨U+202E⟩ton⟨U+202C⟩" in shown
    assert "⟨U+202E⟩.sdrow desrever⟨U+202C⟩" in shown
    data = [
        str(script) for script in document.xpath("//script[@type='application/ld+json']/text()")
    ]
    assert data
    for json_ld in data:
        assert no_control(json_ld) and LRM in json.dumps(json.loads(json_ld), ensure_ascii=False)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_a_control_the_authors_markdown_writes_as_a_character_reference_is_shown_too(
    cli: Cli, fmt: str
) -> None:
    """`&#x202e;` is a right-to-left override to every Markdown reader: written so in the
    about or an intro, it is shown as its marker as the character itself is."""
    about = 'Read with care: &#x202e;.sdrow desrever&#8236; [see](https://e.example/ "&#x2067;t")'
    about += ' [twice](https://e.example/ "&amp;#x202e;x")'  # a reference once decoded
    cli("set", "about", about)
    text = cli("render", "--format", fmt, "--output", "-").stdout
    assert no_control(text)
    assert "⟨U+202E⟩.sdrow desrever⟨U+202C⟩" in text and "⟨U+2067⟩t" in text
    if fmt == "md":
        assert no_control(cmarkgfm.github_flavored_markdown_to_html(text))


@pytest.mark.parametrize("fmt", ["json", "claimreview"])
def test_the_json_reports_write_each_control_as_its_escape(cli: Cli, fmt: str) -> None:
    refreshed(cli)
    text = cli("render", "--format", fmt, "--output", "-").stdout
    assert no_control(text) and "Two \\u200e replicas" in text  # a claim's title
    assert LRM in json.dumps(json.loads(text), ensure_ascii=False)


# --------------------------------------------------------------------------- CI


def test_the_ci_formats_show_markers(cli: Cli) -> None:
    github = refreshed(cli, "--format", "github")
    junit = refreshed(cli, "--format", "junit")
    assert no_control(github) and "⟨U+202E⟩ton⟨U+202C⟩" in github
    assert no_control(junit) and "⟨U+202E⟩ton⟨U+202C⟩" in junit


def test_the_drift_list_shows_markers_in_its_code_blocks() -> None:
    from claimledger.report.ci_formats import drift_list

    check = {"claim_id": "replicas", "status": "drifted", "meaning_changed": False}
    check |= {"url": "https://docs.example/a", "quote_text": QUOTE, "current": WORDING}
    text, count, _ = drift_list("claims.yaml", [check], [], "https://github.com/o/r/actions/runs/1")
    rendered = cmarkgfm.github_flavored_markdown_to_html(text)
    assert count == 1 and no_control(text) and no_control(rendered)
    assert re.search(r"now: Every write is acknowledged ⟨U\+202E⟩ton⟨U\+202C⟩ after", rendered)
