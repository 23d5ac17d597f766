"""Edits of ledgers written in forms the tool does not write itself: flow mappings and
lists, a key opening a sequence item (`- statement: |-`), CRLF line ends; and values
whose YAML needs care (commas and brackets inside a flow, blank lines kept at the end,
line breaks only YAML counts).

Each edit either lands exactly (the value reads back as given, the rest of the file is
as it was) or is refused with exit 2; none may split a value, fold it, or end in an
internal error.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from claimledger.ledger.file import load
from cli_runner import Cli

GRADES = "grades: [{on: w, grade: UNKNOWN, basis: judgement, why: j}]"

FLOW = f"""\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{{id: main, title: Main, intro: Hi}}]
sources: {{docs: {{url: "https://example.com/docs", title: Docs, kind: docs, publisher: ex}}}}
claims:
  - {{id: c1, section: main, title: C, kind: guarantee, statement: S., {GRADES}}}
scope: {{did_not: [Run anything.], could_not_see: [x]}}
"""


def ledger(tmp_path: Path, text: str) -> Cli:
    path = tmp_path / "claims.yaml"
    path.write_bytes(text.encode("utf-8"))
    return Cli(path)


def started(tmp_path: Path) -> Cli:
    """The ledger `init` writes (block style, an `about: |` block, one claim)."""
    cli = Cli(tmp_path / "claims.yaml")
    cli("init", str(tmp_path))
    return cli


@pytest.mark.parametrize(
    "words", ["Deploy, or load-test, anything", "the config]", "a} b", "{x", "x: y", "#x"]
)
def test_a_scope_item_added_to_a_flow_list_is_one_item_as_given(tmp_path: Path, words: str) -> None:
    """A comma ends a plain scalar inside a flow list: "Deploy, or load-test, anything"
    became three items, and "the config]" a YAML error."""
    cli = ledger(tmp_path, FLOW)
    cli("scope", "did-not", words)
    assert load(cli.ledger).scope.did_not == ("Run anything.", words)


def test_a_key_added_to_a_flow_mapping_keeps_a_value_with_commas(tmp_path: Path) -> None:
    cli = ledger(tmp_path, FLOW.replace(", intro: Hi", ""))
    cli("section", "main", "--intro", "Reads, then writes, then ends}")
    assert load(cli.ledger).sections[0].intro == "Reads, then writes, then ends}"


def test_an_emptied_intro_leaves_a_flow_mapping_with_its_comma(tmp_path: Path) -> None:
    """Removing a key assumed a block mapping: an internal error (exit 70)."""
    cli = ledger(tmp_path, FLOW)
    cli("section", "main", "--intro", "")
    assert "sections: [{id: main, title: Main}]\n" in cli.ledger.read_text()
    assert load(cli.ledger).sections[0].intro == ""


def test_an_empty_flow_list_in_a_flow_mapping_gains_its_first_item(tmp_path: Path) -> None:
    cli = ledger(tmp_path, FLOW.replace("could_not_see: [x]", "could_not_see: []"))
    cli("scope", "could-not-see", "X")
    assert load(cli.ledger).scope.could_not_see == ("X",)


def test_the_only_source_leaves_a_flow_mapping(tmp_path: Path) -> None:
    cli = ledger(tmp_path, FLOW)
    cli("source", "docs", "--remove")
    assert "\nsources: {}\n" in cli.ledger.read_text()
    assert dict(load(cli.ledger).sources) == {}


COMPACT = f"""\
ledger: 1
title: A reading
date_read: 2026-01-15
sections:
- intro: |
    First key is a block.
  id: main
  title: Main
sources: {{}}
claims:
- statement: |-
    Block statement first.
  id: c1
  section: main
  title: C one
  kind: guarantee
  {GRADES}
"""


def test_a_block_scalar_opening_a_sequence_item_takes_several_lines(tmp_path: Path) -> None:
    """The block was indented from the dash's column, not its key's, and the edit was
    refused as an error of our own."""
    cli = ledger(tmp_path, COMPACT)
    cli("edit", "c1", "--statement", "two\nlines")
    cli("section", "main", "--intro", "multi\nline")
    read = load(cli.ledger)
    assert read.claim("c1").statement == "two\nlines"
    assert read.sections[0].intro == "multi\nline"
    edited = cli.ledger.read_text()
    assert "- statement: |-\n    two\n    lines\n  id: c1\n" in edited
    assert "- intro: |-\n    multi\n    line\n  id: main\n" in edited


def test_the_only_item_removed_from_a_crlf_ledger_leaves_no_lone_carriage_return(
    tmp_path: Path,
) -> None:
    cli = started(tmp_path)
    crlf = cli.ledger.read_bytes().replace(b"\n", b"\r\n")
    cli.ledger.write_bytes(crlf)
    claims = len(load(cli.ledger).claims)
    for claim in load(cli.ledger).claims:
        cli("remove", claim.id)
    data = cli.ledger.read_bytes()
    assert b"\r" not in data.replace(b"\r\n", b"") and b"claims: []\r\n" in data
    assert claims and not load(cli.ledger).claims


def test_a_value_ending_in_a_blank_line_replaces_a_block_scalar(tmp_path: Path) -> None:
    """A literal block keeps trailing blank lines only as `|+`, which the dumper closed with
    a document end (`...`): the edit was refused as an error of our own."""
    cli = started(tmp_path)
    assert "about: |" in cli.ledger.read_text()
    cli("set", "about", "-", stdin="First.\nSecond.\n\n")
    assert load(cli.ledger).about == "First.\nSecond.\n\n"


@pytest.mark.parametrize("char", ["\x85", "\u2028", "\u2029"])
def test_a_line_break_only_yaml_counts_is_kept_in_every_new_value(
    tmp_path: Path, char: str
) -> None:
    """The dumper wrote U+0085 raw in a single-quoted value, and it read back as a break
    folded to a space ("a b")."""
    cli = started(tmp_path)
    claim = load(cli.ledger).claims[0].id
    value = f"a{char}b"
    cli("set", "author", value)
    cli("set", "title", value)  # a value replaced where it stands
    cli("facet", claim, f"f{value}", "--grade", "UNKNOWN", "--basis", "judgement", "--why", value)
    cli("grade", claim, "CLAIMED", "--on", f"f{value}", "--because", f"g{value}")
    read = load(cli.ledger)
    assert read.author == value and read.title == value
    facet = next(g for g in read.claim(claim).grades if g.on == f"f{value}")
    assert facet.why == value
    assert read.claim(claim).history[-1].why == f"g{value}"


KEPT_BLOCK = f"""\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{{id: main, title: Main}}]
sources: {{}}
claims:
  - id: c1
    section: main
    title: C one
    kind: guarantee
    statement: S.
    {GRADES}
    falsified_if: |+
      kept

  - {{id: c2, section: main, title: C two, kind: guarantee, statement: T., {GRADES}}}
"""


@pytest.mark.parametrize("after", ["", "\nscope: {did_not: [Run anything.]}\n"])
def test_removing_the_last_claim_leaves_the_kept_block_before_it_as_it_was(
    tmp_path: Path, after: str
) -> None:
    """The blank lines before the last item went with it, but after a `|+` block they are
    that block's value: removing c2 changed c1's falsifier. With more YAML after the
    list, the blank lines after c2 must go instead, or the block takes them for its own."""
    cli = ledger(tmp_path, KEPT_BLOCK + after)
    assert load(cli.ledger).claim("c1").falsified_if == "kept\n\n"
    cli("remove", "c2")
    read = load(cli.ledger)
    assert read.claim("c1").falsified_if == "kept\n\n"
    assert read.scope.did_not == (("Run anything.",) if after else ())


def test_a_refusal_quoting_a_reason_of_several_lines_is_one_line(tmp_path: Path) -> None:
    cli = started(tmp_path)
    claim = load(cli.ledger).claims[0].id
    cli("refute", claim, "--because", "first line\nsecond line")
    said = cli("refute", claim, "--because", "again", code=2).stderr
    assert said.count("\n") == 1 and "first line\\nsecond line" in said


def test_a_value_on_standard_input_that_is_not_utf8_is_refused_as_such(tmp_path: Path) -> None:
    cli = started(tmp_path)
    before = cli.ledger.read_bytes()
    said = cli("set", "about", "-", stdin=b"a\xffb", code=2).stderr
    assert "standard input is not UTF-8 text (byte 0xff at byte 2)" in said
    assert cli.ledger.read_bytes() == before


@pytest.mark.parametrize(
    ("args", "stdin", "named"),
    [
        (["edit", "{claim}", "--title", "a\x01b"], None, "--title"),
        (["edit", "{claim}", "--statement", "kept\x1b[31m red"], None, "--statement"),
        (["add", "new-one", "--basis", "judgement", "--why", "x\x7fy"], None, "--why"),
        (["refute", "{claim}", "--because", "x\x9by"], None, "--because"),
        (["set", "about", "-"], b"a\0b", "standard input"),
    ],
)
def test_a_control_character_given_as_text_is_refused_and_nothing_written(
    tmp_path: Path, args: list[str], stdin: bytes | None, named: str
) -> None:
    """A NUL on standard input or a terminal's escape pasted into an option was kept in
    claims.yaml, escaped; a tab and line breaks are text, and stay so."""
    cli = started(tmp_path)
    claim = load(cli.ledger).claims[0].id
    before = cli.ledger.read_bytes()
    typed = [arg.replace("{claim}", claim) for arg in args]
    (line,) = cli(*typed, stdin=stdin, code=2).stderr.splitlines()
    assert line.startswith(f"claimledger: error: {named} holds a control character (U+"), line
    assert cli.ledger.read_bytes() == before
    cli("edit", claim, "--statement", "one\ttwo\r\nthree\x0cfour")  # a PDF's page break
    assert load(cli.ledger).claim(claim).statement == "one two\nthree\nfour"


def test_the_only_item_of_a_flow_list_goes_with_the_comma_left_after_it(tmp_path: Path) -> None:
    """`[x,]` is YAML; removing x left `[,]`, which is not."""
    trailing = (
        FLOW.replace("could_not_see: [x]", "could_not_see: [x,]")
        .replace("claims:\n  - {id: c1", "claims: [\n  {id: c1")
        .replace(f"{GRADES}}}\n", f"{GRADES}}},\n]\n", 1)
    )
    cli = ledger(tmp_path, trailing)
    cli("check")
    cli("scope", "could-not-see", "--remove", "1")
    cli("remove", "c1")
    read = load(cli.ledger)
    assert read.scope.could_not_see == () and read.claims == ()


@pytest.mark.parametrize("words", ["Reads, then writes", "a} b", "[x"])
def test_a_value_replaced_inside_a_flow_mapping_stays_one_value(tmp_path: Path, words: str) -> None:
    """`edit --title "x, y"` on a claim written as a flow mapping was refused, or worse,
    read back as the title "x" and a key "y"."""
    cli = ledger(tmp_path, FLOW)
    cli("edit", "c1", "--title", words)
    assert load(cli.ledger).claim("c1").title == words


def test_a_value_of_several_lines_replacing_a_single_quoted_one_stays_under_its_key(
    tmp_path: Path,
) -> None:
    """A single-quoted statement given two lines (`edit --statement`, or in the editor)
    was written on two, its second at the file's left edge: PyYAML read it, but YAML 1.2
    (an editor's language server) read the rest of the claim as broken keys."""
    cli = started(tmp_path)
    text = cli.ledger.read_text(encoding="utf-8")
    claim = load(cli.ledger).claims[0].id
    written = re.sub(r"(?m)^    statement: .*$", "    statement: 'It''s absolute.'", text)
    cli.ledger.write_text(written, encoding="utf-8")
    cli("edit", claim, "--statement", "two\nlines")
    edited = cli.ledger.read_text(encoding="utf-8")
    assert load(cli.ledger).claim(claim).statement == "two\nlines"
    claims = edited[edited.index("\nclaims:\n") + len("\nclaims:\n") : edited.index("\nscope:")]
    under = [line for line in claims.splitlines() if line.strip() and not line.startswith("  - ")]
    assert all(line.startswith("    ") for line in under), claims
