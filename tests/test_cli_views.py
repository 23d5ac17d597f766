"""The command line a reviewer lives in, run as a user runs it: the installed script, its
output read through a real shell pipe (`| head`), or shown on an 80-column terminal.

`claims` lists every claim with its grades; `status` says one line where nothing needs a
look; every JSON row carries its ids and numbers quotes as the command line does (from
1); a table fits 80 columns without cutting or splitting an id (a closed pipe:
test_cli_closed_pipe.py).
"""

from __future__ import annotations

import json
import re
import string
from importlib import resources
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from cli_runner import Cli, installed, on_terminal, piped
from evidence_site import ALARM, DURABLE, NOT_DURABLE, ORDERED, page
from webserver import PageServer

SCHEMAS = resources.files("claimledger") / "data" / "schemas"

LEDGER = string.Template("""\
ledger: 1
title: Views
date_read: 2026-08-23
sections:
  - {id: guarantees, title: Guarantees}
  - {id: limits-and-quotas, title: Limits and quotas}
sources:
  storage-api-reference: {url: "$storage", title: Storage API, kind: docs, publisher: p}
  consistency-model-guide: {url: "$consistency", title: Consistency, kind: docs, publisher: q}
  changelog-2026: {url: "$changelog", title: Changelog, kind: changelog, publisher: p}
claims:
  - id: writes-are-durable-first
    section: guarantees
    title: Durable writes
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - {text: "$durable", sources: [storage-api-reference, consistency-model-guide]}
      - {text: "$ordered", sources: [consistency-model-guide]}
    grades:
      - {on: the documentation says this, grade: DEMONSTRATED, basis: quotes}
      - {on: holds under crashes, grade: UNKNOWN, basis: judgement, why: nobody tested it}
  - id: delivery-is-ordered
    section: guarantees
    title: Ordered delivery
    kind: guarantee
    statement: One sender's messages arrive in order.
    quotes:
      - {text: "$ordered", sources: [consistency-model-guide]}
    grades:
      - {on: the documentation says this, grade: CLAIMED, basis: quotes}
  - id: alarms-fire-at-least-once
    section: limits-and-quotas
    title: Alarms fire
    kind: guarantee
    statement: Every alarm runs.
    quotes:
      - {text: "$alarm", sources: [changelog-2026]}
    grades:
      - {on: the documentation says this, grade: DEMONSTRATED, basis: quotes}
  - id: retries-are-safe
    section: limits-and-quotas
    title: Retries are safe
    kind: consequence
    statement: A retried write lands once.
    grades:
      - {on: our reading, grade: SPECULATIVE, basis: judgement, why: inferred}
""")

CLAIM_IDS = [
    "writes-are-durable-first",
    "delivery-is-ordered",
    "alarms-fire-at-least-once",
    "retries-are-safe",
]


def serve(server: PageServer, *, storage: str = DURABLE) -> None:
    server.set_page("/storage", page("An opening line.", storage))
    server.set_page("/consistency", page(DURABLE, ORDERED))
    server.set_page("/changelog", page(ALARM))


@pytest.fixture
def home(tmp_path: Path, page_server: PageServer) -> Path:
    """A reading's directory: its ledger, its pages served as quoted."""
    (tmp_path / "claims.yaml").write_text(
        LEDGER.substitute(
            storage=page_server.url("/storage"),
            consistency=page_server.url("/consistency"),
            changelog=page_server.url("/changelog"),
            durable=DURABLE,
            ordered=ORDERED,
            alarm=ALARM,
        ),
        encoding="utf-8",
    )
    serve(page_server)
    return tmp_path


def refresh(home: Path, *, code: int) -> None:
    installed("refresh", "--allow-private", "--no-as-read", cwd=home, code=code)


def drift(home: Path, server: PageServer) -> None:
    """The storage page now denies durability; the claim resting on it drifts."""
    serve(server, storage=NOT_DURABLE)
    refresh(home, code=1)


def matches_schema(name: str, document: Any) -> None:
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    errors = [e.message for e in Draft202012Validator(schema).iter_errors(document)]
    assert errors == [], errors


def rows_of(printed: str) -> dict[str, list[str]]:
    """A table printed to a pipe, by the id in its first column: each row's cells."""
    cells = (
        [cell.strip() for cell in line.strip("│").split("│")]
        for line in printed.splitlines()
        if line.startswith("│")
    )
    return {row[0]: row[1:] for row in cells if row[0]}


# --------------------------------------------------------------------------- claims


def test_claims_lists_every_claim_with_its_section_grades_quotes_and_standing(
    home: Path, page_server: PageServer
) -> None:
    before = rows_of(installed("claims", cwd=home).stdout)
    assert list(before) == CLAIM_IDS
    assert before["writes-are-durable-first"] == [
        "guarantees",
        "DEMONSTRATED, UNKNOWN",
        "the documentation says this; holds under crashes",
        "2",
        "not checked",
    ]
    assert before["retries-are-safe"][-1] == "no quote"

    refresh(home, code=0)
    drift(home, page_server)
    standing = {claim: row[-1] for claim, row in rows_of(installed("ls", cwd=home).stdout).items()}
    assert standing == {
        "writes-are-durable-first": "drifted",
        "delivery-is-ordered": "verified",
        "alarms-fire-at-least-once": "verified",
        "retries-are-safe": "no quote",
    }


def test_claims_filters_by_grade_section_and_review(home: Path) -> None:
    unknown = installed("claims", "--grade", "UNKNOWN", cwd=home).stdout
    assert list(rows_of(unknown)) == ["writes-are-durable-first"]  # its second facet
    limits = installed("claims", "--section", "limits-and-quotas", cwd=home).stdout
    assert list(rows_of(limits)) == ["alarms-fire-at-least-once", "retries-are-safe"]
    assert installed("claims", "--needs-review", cwd=home).stdout == "no claim matches\n"
    wrong = installed("claims", "--section", "limits", cwd=home, code=2)
    (line,) = wrong.stderr.splitlines()
    assert line.startswith("claimledger: error: --section 'limits' is not a section; ")
    assert "limits-and-quotas" in line  # among the sections it names
    assert installed("claims", "--grade", "GOOD", cwd=home, code=2).stderr.count("\n") == 1


def test_claims_json_is_every_claim_by_its_schema(home: Path) -> None:
    listed = json.loads(installed("claims", "--json", cwd=home).stdout)
    matches_schema("claims", listed)
    assert [row["claim_id"] for row in listed["claims"]] == CLAIM_IDS
    assert listed["claims"][0]["grades"] == [
        {"on": "the documentation says this", "grade": "DEMONSTRATED"},
        {"on": "holds under crashes", "grade": "UNKNOWN"},
    ]
    assert [row["quotes"] for row in listed["claims"]] == [2, 1, 1, 0]


def test_claims_through_a_shell_pipe_is_found_by_grep(home: Path) -> None:
    found = piped("claims", reader="grep alarms-fire", cwd=home)
    assert (found.status, found.stderr) == (0, "")
    (line,) = found.read.splitlines()
    assert re.search(r"│ alarms-fire-at-least-once +│ limits-and-quotas +│ DEMONSTRATED +│", line)


# --------------------------------------------------------------------------- status


def test_status_of_a_clean_ledger_is_one_line_not_an_empty_table(home: Path) -> None:
    refresh(home, code=0)
    printed = installed("status", cwd=home).stdout.splitlines()
    assert printed[1] == "3 of 3 claims verified on every source"  # the three with quotes
    assert not any(line.startswith("┃ claim") for line in printed), "no empty claims table"
    assert not any(line.startswith("│ writes-are-durable-first") for line in printed)


def test_status_json_carries_every_claims_grades_and_standing(
    home: Path, page_server: PageServer
) -> None:
    refresh(home, code=0)
    drift(home, page_server)
    status = json.loads(installed("status", "--json", cwd=home, code=1).stdout)
    matches_schema("status", status)
    rows = {row["claim_id"]: row for row in status["claims"]}
    assert list(rows) == CLAIM_IDS, "every claim, checked or not"
    assert rows["retries-are-safe"]["grades"] == [{"on": "our reading", "grade": "SPECULATIVE"}]
    assert rows["retries-are-safe"]["standing"] == "no quote"
    drifts = {claim: row["drifted"] for claim, row in rows.items()}
    assert drifts == dict.fromkeys(CLAIM_IDS, 0) | {"writes-are-durable-first": 1}
    whole = piped("status", "--json", reader="head -c 1000000", cwd=home)
    assert (whole.status, json.loads(whole.read)) == (1, status)  # a reader that reads it all


# --------------------------------------------------------------------------- JSON ids


def test_every_check_and_source_row_names_itself_as_the_command_line_does(
    home: Path, page_server: PageServer
) -> None:
    """`writes-are-durable-first #2` is `quote_index: 2`; each source row is one source by
    its id; each check names its claim, quote, source and run."""
    refresh(home, code=0)
    drift(home, page_server)
    read = piped(
        "history", "writes-are-durable-first", "--json", reader="head -c 1000000", cwd=home
    )
    assert (read.status, read.stderr) == (0, "")
    checks = json.loads(read.read)["checks"]
    numbers = {(c["quote_text"], c["source_id"]): c["quote_index"] for c in checks}
    assert numbers == {
        (DURABLE, "storage-api-reference"): 1,
        (DURABLE, "consistency-model-guide"): 1,
        (ORDERED, "consistency-model-guide"): 2,
    }
    assert {c["run_id"] for c in checks} == {1, 2}
    diff = installed("diff", cwd=home, code=1).stdout
    (drifted,) = json.loads(installed("diff", "--json", cwd=home, code=1).stdout)["checks"]
    assert f"{drifted['claim_id']} #{drifted['quote_index']} on {drifted['source_id']}" in diff
    status = json.loads(installed("status", "--json", cwd=home, code=1).stdout)
    assert [row["source_id"] for row in status["sources"]] == [
        "changelog-2026",
        "consistency-model-guide",
        "storage-api-reference",
    ]


# --------------------------------------------------------------------------- 80 columns


BOX_LINE = re.compile("[│┃┏┗]")


def boxed(shown: str) -> list[str]:
    return [line for line in shown.splitlines() if line.startswith("│")]


def test_status_at_80_columns_keeps_ids_whole_and_cuts_addresses(
    home: Path, page_server: PageServer
) -> None:
    refresh(home, code=0)
    drift(home, page_server)
    shown = on_terminal("status", cwd=home)
    assert all(len(line) <= 80 for line in shown.splitlines()), shown
    rows = rows_of(shown)
    assert "writes-are-durable-first" in rows, "the claim's id on one line, whole"
    for source in ("storage-api-reference", "consistency-model-guide", "changelog-2026"):
        assert source in rows, f"{source}: the sources table leads with the id, whole"
        assert rows[source][0].startswith("http://127.0.0.1") and rows[source][0].endswith("…")


def test_history_at_80_columns_is_a_row_a_finding_with_full_dates(
    home: Path, page_server: PageServer
) -> None:
    """Refreshes of an unchanged page are one row with its count; dates are whole; the
    page's wording is one line cut with an ellipsis, not a word a line."""
    refresh(home, code=0)
    refresh(home, code=0)
    drift(home, page_server)
    refresh(home, code=1)
    shown = on_terminal("history", "writes-are-durable-first", cwd=home)
    assert all(len(line) <= 80 for line in shown.splitlines()), shown
    rows = boxed(shown)
    date = r"│ \d{4}-\d{2}-\d{2}"
    on_storage = [row for row in rows if "storage-api-reference" in row]
    assert len(on_storage) == 2, shown
    assert re.match(date + r" ×2 │ #1 +│ storage-api-reference +│ verified ", on_storage[0])
    assert re.match(date + r" ×2 │ #1 +│ storage-api-reference +│ drifted, ", on_storage[1])
    assert on_storage[1].rstrip(" │").endswith("…"), "the page's wording cut, on one line"
    assert len([row for row in rows if "consistency-model-guide" in row]) == 2  # #1 and #2
    assert "×N: N checks in a row found the same" in shown
    every = installed("history", "writes-are-durable-first", "--plain", cwd=home).stdout
    assert len(every.splitlines()) == 1 + 4 * 3, "the TSV keeps a line a check"


def test_claims_at_80_columns_keep_ids_and_grades_whole(home: Path) -> None:
    shown = on_terminal("claims", cwd=home)
    assert all(len(line) <= 80 for line in shown.splitlines()), shown
    assert list(rows_of(shown)) == CLAIM_IDS
    assert "DEMONSTRATED" in rows_of(shown)["alarms-fire-at-least-once"][0]
    wide = rows_of(on_terminal("claims", cwd=home, columns=160))
    assert wide["alarms-fire-at-least-once"][0] == "limits-and-quotas", "the section, with room"


@pytest.mark.parametrize("columns", [20, 40])
def test_a_terminal_too_narrow_for_a_table_shows_each_row_as_a_record(
    home: Path, page_server: PageServer, columns: int
) -> None:
    """Where the table could not fit even with its columns given way and cut short, rich
    cut every column to its share: at 40 columns `claims` showed `writes-are-durable-fir`
    for an id, with no mark that it was cut, and at 20 it had no claim column at all.
    Each row is then a record: its first cell at the margin, each other value under its
    column's name, none cut (a line too long for the terminal is wrapped)."""
    refresh(home, code=0)
    drift(home, page_server)
    claims = on_terminal("claims", cwd=home, columns=columns)
    regrade = on_terminal("regrade", cwd=home, columns=columns)

    squeezed = "".join(claims.split())  # its words, wherever a line was wrapped or folded
    for claim in CLAIM_IDS:
        assert f"{claim}grades:" in squeezed, claims
    assert "DEMONSTRATED,UNKNOWNquotes:2standing:drifted" in squeezed, claims
    assert "standing:noquote" in squeezed, claims
    said = "".join(regrade.split())
    assert "writes-are-durable-firstfacet:thedocumentationsaysthiswhy:aquote'smeaning" in said
    for shown in (claims, regrade):
        assert all(len(line) <= columns for line in shown.splitlines()), shown
        assert not BOX_LINE.search(shown), shown


def test_a_table_through_head_in_a_shell_keeps_whole_rows(home: Path) -> None:
    refresh(home, code=0)
    first = piped("history", "delivery-is-ordered", reader="head -n 5", cwd=home)
    assert first.status in (0, 141) and first.stderr == ""  # 141 if head left before the end
    (row,) = boxed(first.read)
    assert re.match(r"│ \d{4}-\d{2}-\d{2} +│ delivery-is-ordered +│ #1 ", row)


def test_a_cli_runner_table_is_whole_too(home: Path) -> None:
    """In process (typer's runner, stdout not a terminal) the table is the pipe's: whole."""
    cli = Cli(home / "claims.yaml")
    assert list(rows_of(cli("claims").stdout)) == CLAIM_IDS
