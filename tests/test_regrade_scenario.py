"""The regrade loop end to end: the real CLI against a real local server whose pages change.

v1: every quote verbatim -> nothing to propose.
v2: one sentence reworded harmlessly, one negated, one removed, one page 404s, one
    page answers 429 -> the right proposals, a premise pulling its dependent down,
    the 429 ignored; accept takes the harmless rewording and refuses the negation.
v3: the removed sentence is back -> the grades it cost come back.
The author's comments survive every write.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.ledger.file import load
from claimledger.ledger.vocabulary import Grade
from cli_runner import Cli
from webserver import PageServer

HARMLESS = "Each object runs in exactly one location at any given time, handling all requests."
NEGATED = "Storage writes are durable before the response is sent to the client."
REMOVED = "The alarm handler runs at least once for every scheduled alarm time."
ON_404 = "A paused workflow keeps its state for up to one year without charges."
ON_429 = "Every object has a globally unique name chosen by the developer."

LEDGER = """\
# The author's ledger: these comments must survive every write.
ledger: 1
title: Scenario
date_read: 2026-08-23

sections:
  - id: main
    title: Main  # an inline comment

sources:
  a: {{url: "{a}", title: A, kind: docs, publisher: p}}
  b: {{url: "{b}", title: B, kind: docs, publisher: p}}
  c: {{url: "{c}", title: C, kind: docs, publisher: p}}
  d: {{url: "{d}", title: D, kind: docs, publisher: p}}
  e: {{url: "{e}", title: E, kind: docs, publisher: p}}

claims:
  # --- quoted guarantees
  - id: harmless
    section: main
    title: Harmless
    kind: guarantee
    statement: One location.
    quotes:
      - text: "{harmless}"
        sources: [a]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}

  - id: negated
    section: main
    title: Negated
    kind: guarantee
    statement: Durable first.
    quotes:
      - text: "{negated}"
        sources: [b]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}

  - id: removed
    section: main
    title: Removed
    kind: guarantee
    statement: Alarms fire.
    quotes:
      - text: "{removed}"
        sources: [c]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}

  - id: gone
    section: main
    title: Gone
    kind: guarantee
    statement: Paused for a year.
    quotes:
      - text: "{on_404}"
        sources: [d]
    grades:
      - {{on: wording, grade: CLAIMED, basis: quotes}}

  - id: limited
    section: main
    title: Limited
    kind: guarantee
    statement: Unique names.
    quotes:
      - text: "{on_429}"
        sources: [e]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}

  # --- resting on a premise
  - id: dependent
    section: main
    title: Dependent
    kind: consequence
    statement: Follows from the alarm guarantee.
    depends_on: [removed]
    grades:
      - {{on: follows, grade: DEMONSTRATED, basis: premises}}

  - id: judged
    section: main
    title: Judged
    kind: question
    statement: Only a person grades this.
    grades:
      - {{on: answer, grade: UNKNOWN, basis: judgement}}  # stays as it is
"""


def page(*sentences: str) -> str:
    nav = "<nav><a href='/'>Home</a> <a href='/x'>Other</a></nav>"
    body = "".join(f"<p>{s} Some neighbouring prose follows here.</p>" for s in sentences)
    return f"<html><body>{nav}<main><h1>Doc</h1>{body}</main><footer>2026</footer></body></html>"


def serve_v1(server: PageServer) -> None:
    server.set_page("/a", page(HARMLESS))
    server.set_page("/b", page(NEGATED))
    server.set_page("/c", page("An unrelated opening sentence about alarms.", REMOVED))
    server.set_page("/d", page(ON_404))
    server.set_page("/e", page(ON_429))


def serve_v2(server: PageServer) -> None:
    server.set_page(
        "/a",
        page("Each object runs in exactly one location at any given time, handling every request."),
    )
    server.set_page(
        "/b", page("Storage writes are not durable before the response is sent to the client.")
    )
    server.set_page("/c", page("An unrelated opening sentence about alarms."))
    server.remove("/d")
    server.set_page("/e", "slow down", status=429, headers={"Retry-After": "0"})


def grade_of(ledger: Path, claim_id: str) -> Grade:
    return load(ledger).claim(claim_id).grades[0].grade


@pytest.mark.slow
def test_refresh_regrade_accept_restore(tmp_path: Path, page_server: PageServer) -> None:
    urls = {key: page_server.url(f"/{key}") for key in "abcde"}
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        LEDGER.format(
            **urls,
            harmless=HARMLESS,
            negated=NEGATED,
            removed=REMOVED,
            on_404=ON_404,
            on_429=ON_429,
        )
    )
    cli = Cli(ledger)
    fast = ("--timeout", "2")

    serve_v1(page_server)
    cli("refresh", "--allow-private", *fast, code=0)
    assert cli.json("regrade", code=0)["proposals"] == []

    serve_v2(page_server)
    cli("refresh", "--allow-private", *fast, code=1)
    report = cli.json("regrade", code=1)
    proposed = {(p["claim_id"], p["to_grade"], p["rule"]) for p in report["proposals"]}
    assert proposed == {
        ("negated", "UNKNOWN", "quotes-meaning-changed"),
        ("removed", "UNKNOWN", "quotes-gone"),
        ("gone", "UNKNOWN", "quotes-gone"),
        ("dependent", "UNKNOWN", "premises-capped"),
    }
    assert [n["claim_id"] for n in report["stale"]] == ["harmless"]
    cli("regrade", "--check", code=1)

    accepted = cli("accept", "harmless", "negated", code=1)
    assert "accepted harmless #1" in accepted.stdout
    assert "negated #1: the rewording changed its meaning" in accepted.stderr
    quote = load(ledger).claim("harmless").quotes[0].text
    assert (
        quote
        == "Each object runs in exactly one location at any given time, handling every request."
    )
    assert load(ledger).claim("negated").quotes[0].text == NEGATED

    cli("regrade", "--write", code=0)
    assert {cid: grade_of(ledger, cid) for cid in ("negated", "removed", "gone", "dependent")} == {
        "negated": Grade.UNKNOWN,
        "removed": Grade.UNKNOWN,
        "gone": Grade.UNKNOWN,
        "dependent": Grade.UNKNOWN,
    }
    assert grade_of(ledger, "limited") is Grade.DEMONSTRATED  # a 429 is no evidence
    assert grade_of(ledger, "judged") is Grade.UNKNOWN
    history = load(ledger).claim("dependent").history
    assert [(h.from_grade, h.to_grade, h.by) for h in history] == [
        (Grade.DEMONSTRATED, Grade.UNKNOWN, "rule:premises-capped")
    ]
    assert cli.json("regrade", code=0)["proposals"] == []  # applying then regrading: idempotent

    page_server.set_page("/c", page("An unrelated opening sentence about alarms.", REMOVED))
    cli("refresh", "--allow-private", *fast, code=1)
    restored = cli.json("regrade", code=1)
    assert {(p["claim_id"], p["to_grade"], p["rule"]) for p in restored["proposals"]} == {
        ("removed", "DEMONSTRATED", "quotes-restored"),
        ("dependent", "DEMONSTRATED", "premises-recovered"),
    }
    cli("regrade", "--write", code=0)
    assert grade_of(ledger, "removed") is Grade.DEMONSTRATED
    assert grade_of(ledger, "dependent") is Grade.DEMONSTRATED

    text = ledger.read_text()
    for comment in (
        "# The author's ledger: these comments must survive every write.",
        "  # --- quoted guarantees",
        "  # --- resting on a premise",
        "title: Main  # an inline comment",
        "# stays as it is",
    ):
        assert comment in text
