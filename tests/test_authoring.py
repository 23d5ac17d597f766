"""Writing a whole ledger from the command line: no step needs the YAML edited by hand.

Each test drives the real command line on a ledger file and then reads the file back
two ways: with the tool's loader (is it valid, does it say what was asked) and as
text (did everything the command had no business touching stay byte for byte).
"""

from __future__ import annotations

import datetime as dt
import difflib
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from claimledger.cli.app import LEDGER_VARIABLE
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.file import load
from claimledger.ledger.vocabulary import Basis, Grade
from cli_runner import Cli, claimledger, typed_on_terminal, with_closed

LEDGER = """\
# yaml-language-server: $schema=ledger.schema.json
ledger: 1
title: A reading
date_read: 2026-01-15  # the day the pages were read

sections:
  - id: main
    title: Main
  - id: limits
    title: Limits

sources:
  docs: {url: "https://example.com/docs", title: Docs, kind: docs, publisher: example}

claims:
  - id: input-gate
    section: main
    title: The input gate
    kind: guarantee
    statement: The docs say storage calls hold other events back.
    quotes:
      - {text: "One thing holds.", sources: [docs]}
      - {text: "Another thing holds.", sources: [docs]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}
      - {on: holds at the crash boundary, grade: UNKNOWN, basis: judgement}

  # the claim below rests on the one above
  - id: safe-pattern
    section: main
    title: The documented pattern is safe
    kind: consequence
    statement: Read, check and write with no await between them is safe.
    depends_on: [input-gate]
    grades:
      - {on: follows from the gate, grade: CLAIMED, basis: premises}

scope:
  did_not: [Run anything.]
"""

FLOW_STYLE = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{id: main, title: Main}]
sources: {}
claims: []
"""


@pytest.fixture
def ledger(tmp_path: Path) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_text(LEDGER, encoding="utf-8")
    return path


def changed_lines(before: str, after: str) -> tuple[list[str], list[str]]:
    """The lines removed and the lines added, as a line diff sees them."""
    removed, added = [], []
    for line in difflib.ndiff(before.splitlines(), after.splitlines()):
        if line.startswith("- "):
            removed.append(line[2:])
        elif line.startswith("+ "):
            added.append(line[2:])
    return removed, added


def assert_one_line_error(stderr: str, *parts: str) -> None:
    lines = stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("claimledger: error: "), lines
    for part in parts:
        assert part in lines[0], lines[0]


# --------------------------------------------------------------------------- sections


def test_section_adds_a_section_claims_can_join(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("section", "later", "What changed later", "--intro", "Two lines\nof intro.")
    cli(
        "add",
        "judged",
        "--basis",
        "judgement",
        "--grade",
        "CLAIMED",
        "--why",
        "read so",
        "--section",
        "later",
    )
    read = load(ledger)
    assert [s.id for s in read.sections] == ["main", "limits", "later"]
    assert read.sections[2].intro == "Two lines\nof intro.\n" or read.sections[2].intro == (
        "Two lines\nof intro."
    )
    assert read.claim("judged").section == "later"
    removed, added = changed_lines(LEDGER, ledger.read_text(encoding="utf-8"))
    assert removed == []
    assert added[:4] == [
        "  - id: later",
        "    title: What changed later",
        "    intro: |-",
        "      Two lines",
    ]


def test_an_existing_section_is_retitled_and_its_intro_rewritten_in_place(ledger: Path) -> None:
    cli = Cli(ledger)
    assert cli("section", "limits", "What the limits are").stdout.startswith("revised section")
    cli("section", "limits", "--intro", "Each documented cap.")
    removed, added = changed_lines(LEDGER, ledger.read_text(encoding="utf-8"))
    assert removed == ["    title: Limits"]
    assert added == ["    title: What the limits are", "    intro: Each documented cap."]
    cli("section", "limits", "--intro", "-", stdin="First.\n\nSecond.\n")
    assert load(ledger).sections[1].intro.strip() == "First.\n\nSecond."
    cli("section", "limits", "--intro", "")
    removed, added = changed_lines(LEDGER, ledger.read_text(encoding="utf-8"))
    assert (removed, added) == (["    title: Limits"], ["    title: What the limits are"])


def test_a_section_is_added_only_with_a_title(ledger: Path) -> None:
    result = Cli(ledger)("section", "limit", "--intro", "Caps.", code=2)
    assert_one_line_error(result.stderr, "no section 'limit'", "did you mean", "give a TITLE")
    assert ledger.read_text(encoding="utf-8") == LEDGER


def test_an_existing_section_named_alone_is_an_error_not_a_revision(ledger: Path) -> None:
    """`section limits` with no TITLE and no --intro once said "revised section limits"
    and changed nothing."""
    result = Cli(ledger)("section", "limits", code=2)
    assert_one_line_error(result.stderr, "section 'limits' exists", "TITLE, --intro")
    assert result.stdout == ""
    assert ledger.read_text(encoding="utf-8") == LEDGER


@pytest.mark.parametrize("given", [["Limits"], ["--intro", ""]], ids=["same-title", "no-intro"])
def test_a_section_given_what_it_already_says_is_said_unchanged(
    ledger: Path, given: list[str]
) -> None:
    """A TITLE equal to the section's, or an empty --intro for one with none, changed
    nothing and said "revised section limits"."""
    result = Cli(ledger)("section", "limits", *given, code=0)
    assert result.stdout == "section limits unchanged: it is already so\n"
    assert ledger.read_text(encoding="utf-8") == LEDGER


def test_a_sections_intro_is_written_in_the_users_editor(ledger: Path, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text('#!/bin/sh\nprintf "Written at length.\\n" > "$1"\n', encoding="utf-8")
    editor.chmod(0o755)
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": ""}
    command = [str(Path(sys.executable).with_name("claimledger")), "--ledger", str(ledger)]
    done = subprocess.run(
        [*command, "section", "main", "--editor"], env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert load(ledger).sections[0].intro == "Written at length."


# --------------------------------------------------------------------------- scope


def test_scope_lists_gain_and_lose_items_numbered_as_shown(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("scope", "did-not", "Read  the   source.")
    shown = cli("scope", "could-not-see", "The managed service's internals.").stdout
    assert shown.splitlines() == [
        "did-not:",
        "  1. Run anything.",
        "  2. Read the source.",
        "could-not-see:",
        "  1. The managed service's internals.",
    ]
    removed, added = changed_lines(LEDGER, ledger.read_text(encoding="utf-8"))
    assert removed == ["  did_not: [Run anything.]"]
    assert added == [
        "  did_not: [Run anything., Read the source.]",
        "  could_not_see:",
        "    - The managed service's internals.",
    ]
    cli("scope", "did-not", "--remove", "1")
    assert load(ledger).scope.did_not == ("Read the source.",)
    assert cli("scope").stdout.splitlines()[:2] == ["did-not:", "  1. Read the source."]


def test_a_ledger_without_a_scope_gains_one(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    path.write_text(FLOW_STYLE, encoding="utf-8")
    Cli(path)("scope", "could-not-see", "The private runbooks.")
    assert load(path).scope.could_not_see == ("The private runbooks.",)
    assert path.read_text(encoding="utf-8").startswith(FLOW_STYLE)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("did-not", "--remove", "2"), "has items 1-1, not item 2"),
        (("could-not-see", "--remove", "1"), "has no items, not item 1"),
        (("did_not", "Run it."), "one of did-not, could-not-see"),
        (("did-not",), "give the TEXT to add, or --remove N"),
        (("did-not", " "), "TEXT must not be empty"),
        (("--remove", "1"), "--remove needs the PART it removes from: did-not or could-not-see"),
        (("did-not", "Run it.", "--remove", "1"), "TEXT to add or --remove N, not both"),
    ],
)
def test_a_wrong_scope_edit_is_refused_and_nothing_is_written(
    ledger: Path, args: tuple[str, ...], said: str
) -> None:
    result = Cli(ledger)("scope", *args, code=2)
    assert_one_line_error(result.stderr, said)
    assert ledger.read_text(encoding="utf-8") == LEDGER


# --------------------------------------------------------------------------- facets


def test_facet_adds_a_graded_facet_with_its_basis_and_why(ledger: Path) -> None:
    cli = Cli(ledger)
    cli(
        "facet", "input-gate", "holds under load", "--grade", "speculative",
        "--basis", "judgement", "--why", "no page measures it",
    )  # fmt: skip
    claim = load(ledger).claim("input-gate")
    facet = claim.facet("holds under load")
    assert (facet.grade, facet.basis, facet.why) == (
        Grade.SPECULATIVE,
        Basis.JUDGEMENT,
        "no page measures it",
    )
    assert claim.history[-1].on == "holds under load"
    assert claim.history[-1].to_grade is Grade.SPECULATIVE
    # and `grade --on` now finds it
    cli("grade", "input-gate", "UNKNOWN", "--on", "holds under load", "--because", "re-read")
    assert load(ledger).claim("input-gate").facet("holds under load").grade is Grade.UNKNOWN


def test_a_facet_on_its_own_premises_caps_only_itself(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("add", "weak", "--basis", "judgement", "--grade", "SPECULATIVE", "--why", "a guess")
    before = cli.json("regrade", code=1)["proposals"]
    cli(
        "facet", "safe-pattern", "holds at scale", "--grade", "CLAIMED",
        "--basis", "premises", "--depends-on", "weak", "--why", "rests on the guess",
    )  # fmt: skip
    after = cli.json("regrade", code=1)["proposals"]
    new = [p for p in after if p not in before]
    assert [(p["claim_id"], p["on"], p["to_grade"]) for p in new] == [
        ("safe-pattern", "holds at scale", "SPECULATIVE")
    ]
    assert "premise 'weak'" in new[0]["why"]
    assert all("weak" not in p["why"] for p in after if p["on"] == "follows from the gate")


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["input-gate", "wording", "--grade", "CLAIMED", "--why", "w"], ["already has a facet"]),
        (["input-gate", "wording ", "--grade", "CLAIMED", "--why", "w"],
         ["already has a facet 'wording'"]),
        (["input-gate", " WORDING", "--grade", "CLAIMED", "--why", "w"],
         ["already has a facet 'wording'"]),
        (["input-gate", "  ", "--grade", "CLAIMED", "--why", "w"], ["FACET must say what"]),
        (["input-gat", "x", "--grade", "CLAIMED", "--why", "w"], ["did you mean 'input-gate'"]),
        (["input-gate", "x", "--grade", "CLAIM", "--why", "w"], ["not a grade", "CLAIMED"]),
        (["input-gate", "x", "--grade", "CLAIMED", "--why", "w", "--basis", "quote"],
         ["not a basis", "did you mean 'quotes'"]),
        (["input-gate", "x", "--grade", "CLAIMED", "--why", " "], ["--why must say why"]),
        (["input-gate", "x", "--grade", "CLAIMED", "--why", "w", "--depends-on", "nope"],
         ["no claim 'nope'"]),
    ],
)  # fmt: skip
def test_facet_refuses_what_it_cannot_write(
    ledger: Path, args: list[str], parts: list[str]
) -> None:
    result = Cli(ledger)("facet", *args, code=2)
    assert_one_line_error(result.stderr, *parts)
    assert ledger.read_text(encoding="utf-8") == LEDGER


# --------------------------------------------------------------------------- add


def test_add_a_claim_with_no_quote_of_its_own(ledger: Path) -> None:
    cli = Cli(ledger)
    cli(
        "add", "derived", "--basis", "premises", "--depends-on", "safe-pattern",
        "--grade", "claimed", "--why", "follows from the pattern", "--kind", "Consequence",
        "--title", "Derived", "--section", "limits",
    )  # fmt: skip
    claim = load(ledger).claim("derived")
    assert claim.quotes == ()
    assert claim.depends_on == ("safe-pattern",)
    assert claim.kind == "consequence"
    assert (claim.grades[0].basis, claim.grades[0].why) == (
        Basis.PREMISES,
        "follows from the pattern",
    )
    assert claim.history[0].by == "add"
    assert claim.history[0].date == dt.date.today().isoformat()
    removed, _ = changed_lines(LEDGER, ledger.read_text(encoding="utf-8"))
    assert removed == []


def test_add_keeps_a_title_a_statement_and_a_facet_as_edit_keeps_them(ledger: Path) -> None:
    """`add` wrote a title of two lines (and a facet with the spaces typed around it) as
    given, where `edit` keeps a title on one line: the heading came out of the report on
    two."""
    Cli(ledger)(
        "add", "x", "--basis", "judgement", "--grade", "CLAIMED", "--why", "w",
        "--title", "Two\nlines  here ",
        "--statement", " First  line.\n\n\nSecond. ", "--on", " holds  at a crash ",
    )  # fmt: skip
    claim = load(ledger).claim("x")
    assert (claim.title, claim.statement) == ("Two lines here", "First line.\n\nSecond.")
    assert [facet.on for facet in claim.grades] == ["holds at a crash"]


@pytest.mark.parametrize(
    ("args", "on"),
    [
        (["--basis", "judgement", "--grade", "SPECULATIVE", "--why", "a guess"],
         "the author's judgement"),
        (["--basis", "premises", "--depends-on", "input-gate", "--grade", "CLAIMED"],
         "the author's inference from its premises"),
    ],
)  # fmt: skip
def test_a_claim_on_premises_or_judgement_says_whose_reasoning_its_grade_is(
    ledger: Path, args: list[str], on: str
) -> None:
    cli = Cli(ledger)
    cli("add", "reasoned", *args)
    assert [facet.on for facet in load(ledger).claim("reasoned").grades] == [on]
    report = cli("render", "-o", "-").stdout.split("### reasoned", 1)[1]
    assert f"**Grade on {on}:" in report
    assert "the documentation says this" not in report


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["x"], ["no --quote needs --basis premises"]),
        (["x", "--basis", "premises"], ["--depends-on"]),
        (["x", "--basis", "artifact"], ["artifact"]),
        (["x", "--quote", "words"], ["--quote needs --url"]),
        (["x", "--url", "https://example.com/"], ["--url needs --quote"]),
        (["x", "--basis", "judgement", "--section", "limit"],
         ["not a section", "did you mean 'limits'", "main, limits"]),
        (["x", "--basis", "judgement", "--kind", "guarante"],
         ["not a kind", "did you mean 'guarantee'", "mechanism"]),
        (["Bad Id", "--basis", "judgement"], ["lowercase id"]),
        (["input-gate", "--basis", "judgement"], ["already exists"]),
        (["x", "--url", "https://example.com/a", "--quote", "Same words.", "--quote",
          "Same words."], ["--quote 'Same words.' is given twice"]),
        (["x", "--url", "https://example.com/a", "--quote", ""], ["--quote must not be empty"]),
        (["x", "--url", "https://example.com/a", "--quote", "Words.", "--quote", " \t"],
         ["--quote must not be empty"]),
        (["x", "--basis", "judgement", "--title", "  "], ["--title must not be empty"]),
        (["x", "--basis", "judgement", "--statement", " "], ["--statement must not be empty"]),
        (["x", "--basis", "judgement", "--on", "\t"], ["--on must not be empty"]),
        (["x", "--basis", "judgement", "--why", "w"], ["--basis judgement needs --grade"]),
        (["x", "--basis", "premises", "--depends-on", "input-gate"],
         ["--basis premises needs --grade"]),
    ],
)  # fmt: skip
def test_add_refuses_before_fetching_or_writing(
    ledger: Path, args: list[str], parts: list[str]
) -> None:
    result = Cli(ledger)("add", *args, code=2)
    assert_one_line_error(result.stderr, *parts)
    assert ledger.read_text(encoding="utf-8") == LEDGER


def test_add_into_a_ledger_written_in_flow_style(tmp_path: Path) -> None:
    path = tmp_path / "claims.yaml"
    path.write_text(FLOW_STYLE, encoding="utf-8")
    Cli(path)("add", "first", "--basis", "judgement", "--grade", "CLAIMED", "--why", "read so")
    Cli(path)("section", "second", "Second")
    read = load(path)
    assert read.claim_ids == ["first"]
    assert [s.id for s in read.sections] == ["main", "second"]


# --------------------------------------------------------------------------- remove


def test_remove_a_claim_keeps_the_rest_byte_for_byte(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("add", "spare", "--basis", "judgement", "--grade", "CLAIMED", "--why", "w")
    cli("remove", "spare")
    assert ledger.read_text(encoding="utf-8") == LEDGER
    cli("remove", "safe-pattern")
    after = ledger.read_text(encoding="utf-8")
    assert load(ledger).claim_ids == ["input-gate"]
    removed, added = changed_lines(LEDGER, after)
    assert added == []
    assert removed[0] == "  - id: safe-pattern"
    assert "  # the claim below rests on the one above" in after  # a comment is the author's
    assert after.endswith("      - {on: holds at the crash boundary, grade: UNKNOWN, basis: "
                          "judgement}\n\n  # the claim below rests on the one above\n\n"
                          "scope:\n  did_not: [Run anything.]\n")  # fmt: skip


def test_a_premise_is_not_removed_from_under_its_claim(ledger: Path) -> None:
    result = Cli(ledger)("remove", "input-gate", code=2)
    assert_one_line_error(result.stderr, "premise of safe-pattern")
    assert ledger.read_text(encoding="utf-8") == LEDGER


def test_remove_a_quote_and_a_facet_noting_each_in_history(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("remove", "input-gate", "--quote", "2")
    cli("remove", "input-gate", "--facet", "holds at the crash boundary")
    claim = load(ledger).claim("input-gate")
    assert [q.text for q in claim.quotes] == ["One thing holds."]
    assert [f.on for f in claim.grades] == ["wording"]
    assert [(h.quote_was, h.on) for h in claim.history] == [
        ("Another thing holds.", None),
        (None, "holds at the crash boundary"),
    ]
    said = claim.history[0].describe()  # as the report and `history` show it
    assert "quote removed: “Another thing holds.”" in said and "“”" not in said


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["input-gate", "--quote", "3"], ["quotes 1-2, not quote 3"]),
        (["input-gate", "--facet", "wordin"], ["did you mean 'wording'"]),
        (["safe-pattern", "--facet", "follows from the gate"], ["only facet"]),
        (["input-gate", "--quote", "1", "--facet", "wording"], ["not both"]),
        (["nowhere"], ["no claim 'nowhere'"]),
    ],
)
def test_remove_refuses_what_would_break_the_ledger(
    ledger: Path, args: list[str], parts: list[str]
) -> None:
    result = Cli(ledger)("remove", *args, code=2)
    assert_one_line_error(result.stderr, *parts)
    assert ledger.read_text(encoding="utf-8") == LEDGER


def test_removing_the_only_quote_a_quotes_facet_needs_is_refused(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("remove", "input-gate", "--quote", "2")
    before = ledger.read_text(encoding="utf-8")
    result = cli("remove", "input-gate", "--quote", "1", code=2)
    assert_one_line_error(result.stderr, "would leave the ledger invalid")
    assert ledger.read_text(encoding="utf-8") == before


# --------------------------------------------------------------------------- set


@pytest.mark.parametrize(
    "command", [("set", "about", "-"), ("section", "reading2", "T", "--intro", "-")]
)
def test_a_value_read_from_a_closed_standard_input_is_refused_in_one_line(
    ledger: Path, command: tuple[str, ...]
) -> None:
    """`claimledger set about - <&-`: Python has no sys.stdin to read; refused as input (2),
    never an internal error, and the ledger is as it was."""
    before = ledger.read_bytes()
    done = with_closed("stdin", "--ledger", str(ledger), *command, cwd=ledger.parent)
    assert (done.returncode, done.stderr) == (
        2,
        "claimledger: error: standard input is closed, and `-` reads the value from it\n",
    )
    assert ledger.read_bytes() == before


def test_a_value_typed_at_the_terminal_is_asked_for_and_ended_with_ctrl_d(ledger: Path) -> None:
    """`set about -` on a terminal waited without a word, as if it had hung: the user is
    told what is read there and how to end it."""
    code, shown = typed_on_terminal(
        "--ledger", str(ledger), "set", "about", "-",
        cwd=ledger.parent,
        keys=[("(Ctrl-C writes nothing)", b"Typed at the terminal.\n\x04")],
    )  # fmt: skip
    assert code == 0, shown
    assert shown.splitlines()[0] == (
        "claimledger: reading about from the terminal: end it with Ctrl-D on a line of its"
        " own (Ctrl-C writes nothing)"
    )
    assert load(ledger).about == "Typed at the terminal.\n"


@pytest.mark.parametrize(
    "command", [("set", "about", "-"), ("section", "reading2", "T", "--intro", "-")]
)
def test_ctrl_c_while_a_value_is_typed_says_so_on_a_line_of_its_own(
    ledger: Path, command: tuple[str, ...]
) -> None:
    """Ctrl-C while the value was being typed said "claimledger: interrupted" where the
    typing stopped, after the terminal's `^C` ("half a line^Cclaimledger: interrupted").
    It is said on a line of its own, and nothing is written."""
    before = ledger.read_bytes()
    code, shown = typed_on_terminal(
        "--ledger", str(ledger), *command,
        cwd=ledger.parent,
        keys=[("(Ctrl-C writes nothing)", b"half a line"), ("half a line", b"\x03")],
    )  # fmt: skip
    assert code == 130, shown
    assert shown.splitlines()[-2:] == ["half a line^C", "claimledger: interrupted"], shown
    assert ledger.read_bytes() == before


def test_set_the_readings_own_fields(ledger: Path) -> None:
    cli = Cli(ledger)
    cli("set", "title", "A second reading")
    cli("set", "date_read", "2026-08-23")
    cli("set", "subject", "The platform's storage")
    claimledger("--ledger", str(ledger), "set", "about", "-", stdin="Line one.\nLine two.\n")
    read = load(ledger)
    assert (read.title, read.date_read, read.subject) == (
        "A second reading",
        dt.date(2026, 8, 23),
        "The platform's storage",
    )
    assert read.about == "Line one.\nLine two.\n"
    text = ledger.read_text(encoding="utf-8")
    assert "date_read: 2026-08-23  # the day the pages were read\n" in text  # comment kept
    lines = text.splitlines()
    assert lines.index("subject: The platform's storage") < lines.index("about: |")
    assert lines.index("about: |") < lines.index("sections:")


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        (["titel", "x"], ["did you mean 'title'"]),
        (["date_read", "yesterday"], ["would leave the ledger invalid", "date"]),
        (["title", "  "], ["needs a value"]),
        (["date_read", "2999-01-01"], ["date_read 2999-01-01 is later than today"]),
    ],
)
def test_set_refuses_bad_values(ledger: Path, args: list[str], parts: list[str]) -> None:
    result = Cli(ledger)("set", *args, code=2)
    assert_one_line_error(result.stderr, *parts)
    assert ledger.read_text(encoding="utf-8") == LEDGER


# --------------------------------------------------------------------------- refute


def test_refute_records_the_falsifier_and_caps_what_rests_on_it(ledger: Path) -> None:
    cli = Cli(ledger)
    said = cli("refute", "input-gate", "--because", "the page now says events interleave")
    assert said.stdout.startswith("input-gate: refuted; 1 rest on it (safe-pattern); next: ")
    claim = load(ledger).claim("input-gate")
    assert claim.falsified is not None
    assert claim.falsified.why == "the page now says events interleave"
    assert claim.falsified.date == dt.date.today().isoformat()
    assert claim.history[-1].why == "refuted: the page now says events interleave"
    proposals = cli.json("regrade", code=1)["proposals"]
    capped = {(p["claim_id"], p["on"]): p for p in proposals}
    assert capped[("safe-pattern", "follows from the gate")]["to_grade"] == "UNKNOWN"
    assert capped[("safe-pattern", "follows from the gate")]["rule"] == "premises-refuted"
    result = cli("refute", "input-gate", "--because", "again", code=2)
    assert_one_line_error(result.stderr, "already refuted")
    alone = cli("refute", "safe-pattern", "--because", "nothing rests on this one")
    assert alone.stdout == "safe-pattern: refuted; no claim rests on it; next: claimledger render\n"


RESTING = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{id: main, title: Main}]
sources:
  docs: {url: "https://example.com/docs", title: Docs, kind: docs, publisher: example}
claims:
  - id: base
    section: main
    title: Base
    kind: guarantee
    statement: S.
    quotes: [{text: "The base holds.", sources: [docs]}]
    grades: [{on: wording, grade: DEMONSTRATED, basis: quotes}]
  - id: on-premises
    section: main
    title: On premises
    kind: consequence
    statement: S.
    depends_on: [base]
    grades: [{on: follows, grade: CLAIMED, basis: premises}]
  - id: on-quotes
    section: main
    title: On its quotes
    kind: guarantee
    statement: S.
    depends_on: [base]
    quotes: [{text: "Its own words.", sources: [docs]}]
    grades: [{on: wording, grade: DEMONSTRATED, basis: quotes}]
"""


def test_refute_names_only_the_claims_whose_grades_it_caps(tmp_path: Path) -> None:
    """A facet graded on its own quotes rests on them, whatever its claim's depends_on: the
    regrade caps only the facet that rests on premises, and `refute` said both rest on it."""
    path = tmp_path / "claims.yaml"
    path.write_text(RESTING, encoding="utf-8")
    cli = Cli(path)
    said = cli("refute", "base", "--because", "shown false")
    assert said.stdout.startswith("base: refuted; 1 rest on it (on-premises); next: ")
    capped = {p["claim_id"] for p in cli.json("regrade", code=1)["proposals"]}
    assert capped == {"on-premises"}


# --------------------------------------------------------------------------- init


def test_init_dates_the_reading_today_and_keeps_evidence_out_of_git(tmp_path: Path) -> None:
    claimledger("init", str(tmp_path))
    read = load(tmp_path / "claims.yaml")
    assert read.date_read == dt.date.today()
    assert read.about.strip()
    ignored = (tmp_path / ".gitignore").read_text(encoding="utf-8").splitlines()
    assert "out/" in ignored
    assert ledgerfile.lock_path(tmp_path / "claims.yaml").name in ignored


def test_init_names_the_author_given_and_asks_for_one_otherwise(tmp_path: Path) -> None:
    named = 'Ada O\'Brien: "two" #1'
    result = claimledger("init", str(tmp_path / "named"), "--author", named)
    assert load(tmp_path / "named" / "claims.yaml").author == named
    assert "--author" not in result.stdout
    result = claimledger("init", str(tmp_path / "unnamed"))
    assert load(tmp_path / "unnamed" / "claims.yaml").author == ""
    assert "note: no --author" in result.stdout and "set author NAME" in result.stdout
    claimledger("init", str(tmp_path / "blank"), "--author", " ", code=2)
    assert not (tmp_path / "blank").exists()


def test_init_leaves_an_existing_gitignore_alone(tmp_path: Path) -> None:
    (tmp_path / ".gitignore").write_text("node_modules/\n", encoding="utf-8")
    result = claimledger("init", str(tmp_path))
    assert (tmp_path / ".gitignore").read_text(encoding="utf-8") == "node_modules/\n"
    assert "add out/ and .claims.yaml.lock to it" in result.stdout


KILL_AS_THE_LEDGER_IS_WRITTEN = """
import io, os, signal
_open, _write = io.open, os.write
def _open_then_die(file, mode="r", *args, **kwargs):
    opened = _open(file, mode, *args, **kwargs)
    if "x" in mode and str(file).endswith("claims.yaml"):
        os.kill(os.getpid(), signal.SIGKILL)
    return opened
def _write_half_then_die(fd, data):
    if b"ledger: 1" in bytes(data):
        _write(fd, bytes(data[: len(data) // 2]))
        os.kill(os.getpid(), signal.SIGKILL)
    return _write(fd, data)
io.open, os.write = _open_then_die, _write_half_then_die
import runpy, sys
sys.argv = ["claimledger", "init", sys.argv[1]]
runpy.run_module("claimledger", run_name="__main__")
"""


def test_init_killed_as_it_writes_the_ledger_leaves_none_to_refuse_the_next(
    tmp_path: Path,
) -> None:
    """Killed once the ledger's file was made and before its bytes were all in it, init
    left an empty or cut claims.yaml: not a ledger, yet the next init refused it as
    already there. A file is named only once it is whole."""
    reading = tmp_path / "reading"
    done = subprocess.run(
        [sys.executable, "-c", KILL_AS_THE_LEDGER_IS_WRITTEN, str(reading)],
        capture_output=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == -signal.SIGKILL
    assert [p.name for p in reading.iterdir() if not p.name.endswith(".tmp")] == []
    claimledger("init", str(reading))
    assert load(reading / "claims.yaml").date_read == dt.date.today()


# --------------------------------------------------------------------------- finding it


def run_in(cwd: Path, *args: str, env: dict[str, str] | None = None) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, **(env or {})},
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_the_ledger_is_found_in_a_parent_directory(ledger: Path) -> None:
    deep = ledger.parent / "notes" / "drafts"
    deep.mkdir(parents=True)
    assert run_in(deep, "check").startswith(f"{ledger}: ok: 2 claims")
    run_in(deep, "set", "subject", "From below")
    assert load(ledger).subject == "From below"
    assert sorted(p.name for p in deep.iterdir()) == []


def test_ledger_after_the_command_and_from_the_environment(ledger: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    assert run_in(elsewhere, "check", "--ledger", str(ledger)).startswith(f"{ledger}: ok: ")
    assert run_in(elsewhere, "check", "-l", str(ledger)).startswith(f"{ledger}: ok: ")
    through_env = run_in(elsewhere, "check", env={LEDGER_VARIABLE: str(ledger)})
    assert through_env.startswith(f"{ledger}: ok: ")


def test_with_no_ledger_anywhere_the_error_says_how_to_make_one(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "check"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr == (
        "claimledger: error: claims.yaml: no such file (create one with `claimledger init`)\n"
    )


# --------------------------------------------------------------------------- help


COMMANDS = [
    "add", "facet", "section", "set", "remove", "refute", "grade", "move", "check", "init",
    "refresh", "status", "diff", "verify", "regrade", "accept", "explain", "render",
    "history",
]  # fmt: skip


@pytest.mark.parametrize("command", COMMANDS)
def test_help_names_what_to_type_not_python_types(command: str) -> None:
    text = claimledger(command, "--help").stdout
    for python_type in ("<str>", "<list[", "<int>", "<float>", "<path>", "<bool>"):
        assert python_type not in text, f"{command} --help shows {python_type}"
    assert "demonstrated|" not in text  # grades are written in capitals everywhere


@pytest.mark.parametrize("command", COMMANDS)
def test_every_option_and_argument_has_help(command: str) -> None:
    from typer.main import get_command

    group = get_command(__import__("claimledger.cli", fromlist=["app"]).app)
    found = group.commands[command]  # type: ignore[attr-defined]
    for param in found.params:
        if not getattr(param, "hidden", False):
            assert getattr(param, "help", None), f"{command} {param.opts} has no help"


def test_regrade_of_a_long_premise_chain(tmp_path: Path) -> None:
    """1,200 claims, each resting on the one before: sorted by graphlib, never recursed."""
    lines = [
        "ledger: 1", "title: T", "date_read: 2026-08-23",
        "sections: [{id: s, title: S}]", "sources: {}", "claims:",
        "  - {id: c0, section: s, title: A, kind: guarantee, statement: s,"
        " grades: [{on: x, grade: SPECULATIVE, basis: judgement}]}",
    ]  # fmt: skip
    lines += [
        f"  - {{id: c{i}, section: s, title: A, kind: guarantee, statement: s, "
        f"depends_on: [c{i - 1}], grades: [{{on: x, grade: CLAIMED, basis: premises}}]}}"
        for i in range(1, 1200)
    ]
    path = tmp_path / "claims.yaml"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    proposals = Cli(path).json("regrade", code=1)["proposals"]
    assert len(proposals) == 1199  # every CLAIMED facet capped by the SPECULATIVE root
    assert yaml.safe_load(path.read_text(encoding="utf-8"))["claims"][1199]["id"] == "c1199"
