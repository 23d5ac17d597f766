"""A source read another way since the last refresh (a new `select:`, `render: browser`)
gives other text than its checks were made on: its quotes are never checked as they now
read, and no gate passes on them until a refresh reads the page so. Each case is reached
the way an author reaches it: a real loopback page refreshed, then the ledger edited.
"""

from __future__ import annotations

import json
from pathlib import Path

from cli_runner import Cli
from webserver import PageServer

QUOTE = "The alarm handler runs at least once for every scheduled alarm time."
TICK = "Every tick of the clock is counted once, and only once, by the scheduler."

LEDGER = """\
ledger: 1
title: Read as now read
date_read: 2026-08-23
sections:
  - id: main
    title: Main
sources:
  doc:
    url: "{url}/alarms"
    title: Doc
    kind: docs
    publisher: p
  other: {{url: "{url}/ticks", title: Other, kind: docs, publisher: q}}
claims:
  - id: alarms
    section: main
    title: Alarms fire
    kind: guarantee
    statement: Every alarm runs.
    quotes:
      - text: "{quote}"
        sources: [doc]
    grades:
      - {{on: wording, grade: CLAIMED, basis: quotes}}
  - id: ticks
    section: main
    title: Ticks count
    kind: guarantee
    statement: Every tick counts.
    quotes:
      - text: "{tick}"
        sources: [other]
    grades:
      - {{on: wording, grade: CLAIMED, basis: quotes}}
"""


def page(text: str) -> str:
    return f"<html><body><main><h1>Doc</h1><p>{text} More prose follows.</p></main></body></html>"


UNCHECKED = "1 claim has never been checked as it now reads (alarms)"


def refreshed(tmp_path: Path, page_server: PageServer) -> Cli:
    """A ledger whose two quotes a refresh found verified on their pages, read as sent."""
    page_server.set_page("/alarms", page(QUOTE))
    page_server.set_page("/ticks", page(TICK))
    ledger = tmp_path / "claims.yaml"
    url = page_server.url("").rstrip("/")
    ledger.write_text(LEDGER.format(url=url, quote=QUOTE, tick=TICK), encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    cli("regrade", "--check", code=0)
    return cli


def read_otherwise(cli: Cli, line: str) -> None:
    """The author's edit: the source read another way from now on."""
    text = cli.ledger.read_text(encoding="utf-8")
    cli.ledger.write_text(text.replace("    publisher: p\n", f"    publisher: p\n{line}\n"))


def assert_never_checked_as_it_now_reads(cli: Cli) -> None:
    """status, the gate, explain and the report: none takes the quote for verified."""
    status = cli("status", code=1)
    gate = cli("regrade", "--check", code=3)
    assert UNCHECKED in " ".join(status.stderr.split())
    assert UNCHECKED in " ".join(gate.stderr.split())
    assert "1 of 2 claims verified" in status.stdout
    assert cli.json("status", code=1)["unchecked_claims"] == ["alarms"]
    assert "rule quotes: no evidence yet" in cli("explain", "alarms", code=0).stdout
    report = json.loads(cli("render", "-o", "-", "--format", "json", code=0).stdout)
    assert (report["summary"]["verified_quotes"], report["summary"]["unchecked_quotes"]) == (1, 1)
    (claim,) = [c for s in report["sections"] for c in s["claims"] if c["id"] == "alarms"]
    assert [s["status"] for q in claim["quotes"] for s in q["sources"]] == ["unchecked"]


def test_a_selector_set_since_the_refresh_leaves_the_quote_unchecked(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli = refreshed(tmp_path, page_server)
    read_otherwise(cli, '    select: "h1"')  # the quote is outside the part now read

    assert_never_checked_as_it_now_reads(cli)
    cli("refresh", "--allow-private", "--no-as-read", code=1)  # read so, it is gone
    assert cli.json("status", code=1)["unchecked_claims"] == []


def test_the_gate_over_a_ledger_read_otherwise_since_says_its_store_holds_evidence(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli = refreshed(tmp_path, page_server)
    text = cli.ledger.read_text(encoding="utf-8")
    cli.ledger.write_text(text.replace("publisher: q}", 'publisher: q, select: "h1"}'))
    read_otherwise(cli, '    select: "h1"')  # no quote is checked as the ledger now reads

    status = cli("status", code=1)
    gate = cli("regrade", "--check", code=3)

    said = "no quote has been checked as the ledger now reads it"
    assert said in " ".join(status.stderr.split())
    assert said in " ".join(gate.stderr.split())
    assert "no evidence yet" not in gate.stdout + gate.stderr  # the store holds a refresh
    assert "nothing to propose: no quote checked as the ledger now reads it" in gate.stdout


def test_a_page_now_read_in_a_browser_is_unchecked_until_a_browser_reads_it(
    tmp_path: Path, page_server: PageServer
) -> None:
    cli = refreshed(tmp_path, page_server)
    read_otherwise(cli, "    render: browser")  # no refresh: nothing is read by a browser

    assert_never_checked_as_it_now_reads(cli)
