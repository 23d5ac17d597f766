"""A new user's first teardown, as they type it: what each command tells them after a page
of theirs moved, and how a typed grade is read.

The real CLI, in-process, against a real loopback server (`PageServer`): every fetch a real
HTTP request, every ledger a real file.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import Cli
from evidence_site import ALARM, page, serve_v1, write_ledger
from webserver import PageServer, redirect


@pytest.fixture
def cli(tmp_path: Path, page_server: PageServer) -> Cli:
    return Cli(write_ledger(tmp_path, page_server))


def refresh(cli: Cli, *, code: int) -> str:
    return cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=code).output


def move_other(page_server: PageServer) -> None:
    """The page of source `other` answers 301 to its new address, which carries its quote."""
    page_server.set_page("/other-new", page(ALARM))
    page_server.set_handler("/other", redirect("/other-new", 301))


def test_history_says_a_check_was_made_on_a_page_that_had_moved(
    cli: Cli, page_server: PageServer
) -> None:
    """A check read through a permanent redirect is a finding of its own: its row says the
    page moved, rather than "verified" again beside a run of "verified" it is not part of."""
    serve_v1(page_server)
    refresh(cli, code=0)
    move_other(page_server)
    refresh(cli, code=1)
    rows = cli("history", "alarms", "--plain").stdout.splitlines()[1:]
    statuses = [row.split("\t")[4] for row in rows if "\tother\t" in row]
    assert statuses == ["verified", "verified (on the page it moved to)"], rows


def test_status_says_how_to_adopt_a_page_that_moved(cli: Cli, page_server: PageServer) -> None:
    """`status`, read later than the refresh that found the move, says the command that
    adopts it, as the refresh did."""
    serve_v1(page_server)
    refresh(cli, code=0)
    move_other(page_server)
    assert "adopt it with `claimledger move other`" in refresh(cli, code=1)
    said = cli("status", code=1).stdout
    assert "source moved: other" in said
    assert "adopt it with `claimledger move other`" in said
    cli("move", "other")
    assert "claimledger move" not in cli("status", code=1).output  # adopted: nothing to do
    refresh(cli, code=0)
    assert "claimledger move" not in cli("status").output


def test_explain_says_a_quote_was_read_on_the_page_its_source_moved_to(
    cli: Cli, page_server: PageServer
) -> None:
    """`explain` weighs the check the grading reads: read through a 301 not yet adopted, it
    says so as `history` does, not only "verified on other"; adopted, it is verified again."""
    serve_v1(page_server)
    refresh(cli, code=0)
    assert "moved to" not in cli("explain", "alarms").stdout
    move_other(page_server)
    refresh(cli, code=1)
    said = cli("explain", "alarms").stdout
    assert "verified (on the page it moved to) on other " in said
    (trace,) = cli.json("explain", "alarms")["traces"]
    assert [e["page_moved"] for e in trace["evidence"]] == [True]
    cli("move", "other")
    refresh(cli, code=0)
    assert "moved to" not in cli("explain", "alarms").stdout
    (trace,) = cli.json("explain", "alarms")["traces"]
    assert [e["page_moved"] for e in trace["evidence"]] == [False]


def test_explain_says_the_premise_a_claim_rests_on_once(cli: Cli, page_server: PageServer) -> None:
    """`explain` of a claim resting on a premise said "DEMONSTRATED premise alarms
    (wording) is DEMONSTRATED": the grade, the premise and its facet, each once."""
    serve_v1(page_server)
    refresh(cli, code=0)
    cli(
        "add", "derived", "--basis", "premises", "--depends-on", "alarms", "--grade",
        "CLAIMED", "--why", "follows from the alarms", "--title", "Derived",
    )  # fmt: skip
    said = cli("explain", "derived").stdout
    assert "    DEMONSTRATED: premise alarms (wording)\n" in said
    assert said.count("DEMONSTRATED") == 2  # the rule's outcome, and its evidence
    (trace,) = cli.json("explain", "derived")["traces"]
    (evidence,) = trace["evidence"]
    assert (evidence["status"], evidence["detail"]) == ("DEMONSTRATED", "premise alarms (wording)")


@pytest.mark.parametrize("typed", ["unknown", "Unknown", "UNKNOWN"])
def test_claims_takes_a_grade_in_any_case_as_grade_and_add_do(cli: Cli, typed: str) -> None:
    """`grade durable unknown` is taken; `claims --grade unknown` lists what it graded."""
    listed = cli("claims", "--grade", typed, "--plain").stdout.splitlines()
    assert [line.split("\t")[0] for line in listed[1:]] == ["durable"]


def test_claims_says_which_grade_a_mistyped_one_meant(cli: Cli) -> None:
    said = cli("claims", "--grade", "DEMONSTRATD", code=2).stderr
    assert said.count("\n") == 1
    assert "did you mean 'DEMONSTRATED'?" in said


def test_claims_add_and_edit_refuse_a_mistyped_section_in_one_same_line(cli: Cli) -> None:
    """`add --section` and `edit --section` said which section a typo meant; `claims
    --section` named the ledger's file instead: all three say it alike."""
    said = [
        cli("claims", "--section", "mian", code=2).stderr,
        cli("add", "new-one", "--section", "mian", "--basis", "judgement", "--grade",
            "CLAIMED", "--why", "w", "--title", "New", code=2).stderr,
        cli("edit", "alarms", "--section", "mian", code=2).stderr,
    ]  # fmt: skip
    expected = (
        "claimledger: error: --section 'mian' is not a section (did you mean 'main'?); "
        "the sections are main (add one with `claimledger section`)\n"
    )
    assert said == [expected] * 3
