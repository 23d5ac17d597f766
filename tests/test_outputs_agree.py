"""Every output tells the same evidence in the same words: what `refresh` and `status` said
of a page and a quote, the report (Markdown, JSON) and its ClaimReview say too, and none
of them tells a reader less than the rules found.

The real CLI against a real local server whose pages change after the first refresh.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from cli_runner import Cli
from webserver import PageServer

LEDGER = """\
ledger: 1
title: Outputs agree
date_read: 2026-08-23
sections:
  - id: main
    title: Main
sources:
  a: {{url: "{a}", title: A, kind: docs, publisher: p}}
claims:
  - id: one
    section: main
    title: One
    kind: guarantee
    statement: The primary streams its log.
    quotes:
      - text: "{quote}"
        sources: [a]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


def page(*sentences: str) -> str:
    body = "".join(f"<p>{s} Some neighbouring prose follows here.</p>" for s in sentences)
    return f"<html><body><main><h1>Doc</h1>{body}</main></body></html>"


def read_once(tmp_path: Path, server: PageServer, quote: str) -> Cli:
    """A ledger of one quote on one page, refreshed once with the page carrying it."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(a=server.url("/a"), quote=quote), encoding="utf-8")
    server.set_page("/a", page(quote))
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--timeout", "2", code=0)
    return cli


def render(cli: Cli, tmp_path: Path, name: str) -> str:
    target = tmp_path / "out" / name
    cli("render", "-o", str(target))
    return target.read_text(encoding="utf-8")


def test_a_page_that_could_not_be_read_is_reported_for_the_reason_refresh_gave(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page left with no text is "no content" to `refresh` and `status`: the report's
    sources and churn said "not readable: content type text/html", which is no reason."""
    cli = read_once(tmp_path, page_server, "Every write is durable once the call returns.")
    page_server.set_page("/a", "<html><body></body></html>")
    cli("refresh", "--allow-private", "--timeout", "2", code=1)
    (source,) = cli.json("status", code=1)["sources"]
    reason = source["error"]
    assert source["source_status"] == "unreadable" and reason.startswith("no content")

    report: dict[str, Any] = json.loads(render(cli, tmp_path, "report.json"))
    (row,) = report["sources"]
    assert row["label"].startswith(f"not readable: {reason}")
    markdown = render(cli, tmp_path, "report.md")
    assert "content type" not in markdown
    assert markdown.count(f"not readable: {reason}") == 2  # the churn and the sources
