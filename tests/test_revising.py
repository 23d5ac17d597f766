"""Every part of a ledger edited from the command line, through the real binary: a quote
added to a claim, a claim's words and section, a source removed or merged, one source
per page, and the kind a new source is given said out loud."""

from __future__ import annotations

import os
import shlex
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from claimledger.ledger.file import load
from claimledger.urls import kind_of_page, page_key
from cli_runner import Cli, typed_on_terminal
from evidence_site import ALARM, DURABLE, ORDERED, page, serve_v1, write_ledger
from webserver import PageServer

CONSOLE_SCRIPT = Path(sys.executable).with_name("claimledger")
EXTRA = "Each write is acknowledged once two replicas hold it."


@pytest.fixture
def site(tmp_path: Path, page_server: PageServer) -> Cli:
    serve_v1(page_server)
    page_server.set_page("/guide", page("An opening line.", DURABLE, ORDERED, EXTRA))
    page_server.set_page("/blog/2026/replication", page(EXTRA))
    return Cli(write_ledger(tmp_path, page_server))


def test_a_quote_is_added_to_a_claim_on_the_pages_source_whatever_its_fragment(
    site: Cli, page_server: PageServer
) -> None:
    before = site.ledger.read_text(encoding="utf-8")
    said = site(
        "quote", "durable", EXTRA, "--url", page_server.url("/guide#replication"),
        "--allow-private",
    ).stdout  # fmt: skip
    assert said.splitlines() == ["durable #3: verified on 1 page(s); added"]  # no new source
    ledger = load(site.ledger)
    assert ledger.claim("durable").quotes[-1].text == EXTRA
    assert ledger.claim("durable").quotes[-1].sources == ("guide",)
    assert ledger.claim("durable").history[-1].why == "quote added, verified on 1 source"
    after = site.ledger.read_text(encoding="utf-8")
    assert after.startswith(before.split("claims:")[0])  # sources and comments untouched
    assert "# A small ledger for the evidence commands" in after


def test_a_quote_not_on_its_page_writes_nothing(site: Cli, page_server: PageServer) -> None:
    before = site.ledger.read_bytes()
    refused = site(
        "quote", "durable", "Writes are never lost.", "--url", page_server.url("/other"),
        "--allow-private", code=2,
    )  # fmt: skip
    assert "nothing written" in refused.stderr
    assert site.ledger.read_bytes() == before


@pytest.mark.parametrize("command", ["quote", "add"])
def test_a_quote_outside_its_sources_select_is_refused_as_a_refresh_would_miss_it(
    site: Cli, page_server: PageServer, command: str
) -> None:
    """The guide is read within its `#kept` region, as each refresh reads it: words on the
    page outside it would be missing at the next refresh, so they are not verified now."""
    kept = "Reads see every acknowledged write."
    page_server.set_page(
        "/guide", f"<main><div id='kept'><p>{kept}</p></div><div><p>{EXTRA}</p></div></main>"
    )
    text = site.ledger.read_text(encoding="utf-8")
    site.ledger.write_text(
        text.replace("title: Guide,", "title: Guide, select: '#kept',"), encoding="utf-8"
    )
    before = site.ledger.read_bytes()
    url = page_server.url("/guide#top")

    def run(words: str, code: int = 0) -> str:
        args = ["durable", words] if command == "quote" else ["new-claim", "--quote", words]
        return site(command, *args, "--url", url, "--allow-private", code=code).stderr

    refused = run(EXTRA, code=2)
    assert "nothing written" in refused and "is missing" in refused
    assert site.ledger.read_bytes() == before
    run(kept)  # within it: verified, and added to the guide
    assert load(site.ledger).claims[-1 if command == "add" else 0].quotes[-1].sources == ("guide",)


def test_a_claim_added_on_one_page_spelled_three_ways_says_one_source(
    site: Cli, page_server: PageServer
) -> None:
    page_server.set_page("/blog/2026/replication/", page(EXTRA))  # one page, as a site serves it
    urls = [page_server.url(path) for path in ("/blog/2026/replication", "/blog/2026/replication/")]
    urls.append(page_server.url("/blog/2026/replication#top"))
    args = [arg for url in urls for arg in ("--url", url)]
    said = site("add", "replicated", "--quote", EXTRA, *args, "--allow-private").stdout
    assert said.splitlines()[0] == "added replicated: 1 quote verified on 1 source"
    claim = load(site.ledger).claim("replicated")
    assert claim.quotes[0].sources == ("replication",)
    assert claim.history[0].why == "recorded: 1 quote verified on 1 source"


def test_words_a_claim_quotes_already_are_refused_however_they_are_spaced(
    site: Cli, page_server: PageServer
) -> None:
    """The page is read without regard to spacing, so " EXTRA " or EXTRA with a double
    space was verified and added beside EXTRA: the claim quoted one sentence twice."""
    url = page_server.url("/guide")
    site("quote", "durable", EXTRA, "--url", url, "--allow-private")
    before = site.ledger.read_bytes()
    for spaced in (f" {EXTRA} ", EXTRA.replace(" ", "  ", 1)):
        refused = site("quote", "durable", spaced, "--url", url, "--allow-private", code=2)
        assert "claim 'durable' already quotes" in refused.stderr
    assert site.ledger.read_bytes() == before
    given = ["--quote", EXTRA, "--quote", EXTRA.replace(" ", "\n", 1), "--url", url]
    twice = site("add", "twice", *given, "--allow-private", code=2)
    assert "is given twice: a claim quotes words once" in twice.stderr
    assert site.ledger.read_bytes() == before


def test_a_new_page_becomes_a_source_with_its_kind_guessed_and_said(
    site: Cli, page_server: PageServer
) -> None:
    url = page_server.url("/blog/2026/replication")
    said = site("quote", "durable", EXTRA, "--url", url, "--allow-private").stdout.splitlines()
    assert said[1] == (
        "new source replication: kind blog, publisher 127.0.0.1 (set either with "
        "`claimledger source replication --kind KIND --publisher NAME`)"
    )
    assert load(site.ledger).sources["replication"].kind == "blog"


def test_edit_rewords_a_claim_and_moves_it_in_place(site: Cli) -> None:
    site("section", "later", "Later")
    said = site("edit", "ordered", "--statement", "One sender's messages arrive in order.",
                "--title", "In order", "--section", "later").stdout  # fmt: skip
    assert said == "ordered: revised title, section\n"  # the statement said that already
    claim = load(site.ledger).claim("ordered")
    assert (claim.title, claim.section) == ("In order", "later")
    assert claim.history[-1].why == "revised: title, section"
    wrong = site("edit", "ordered", "--section", "latr", code=2)
    assert "did you mean 'later'" in wrong.stderr
    site("edit", "ordered", "--falsifier", "a reordered delivery is observed")
    assert load(site.ledger).claim("ordered").falsified_if == "a reordered delivery is observed"


def edit_in(site: Cli, editor: str, *args: str) -> subprocess.CompletedProcess[str]:
    """`claimledger edit` as a real process, with $EDITOR set to `editor`."""
    command = [str(CONSOLE_SCRIPT), "--ledger", str(site.ledger), "edit", *args]
    env = {**os.environ, "EDITOR": editor, "VISUAL": ""}
    return subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)


def test_edit_opens_the_users_editor_for_long_prose(site: Cli, tmp_path: Path) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text(
        '#!/bin/sh\ngrep -q "Every alarm runs." "$1" && printf "Written at length.\\n" > "$1"\n'
    )
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    done = edit_in(site, str(editor), "alarms", "--editor", "statement")
    assert done.returncode == 0, done.stderr
    assert load(site.ledger).claim("alarms").statement == "Written at length."
    before = site.ledger.read_bytes()
    failed = edit_in(site, "false", "alarms", "--editor", "statement")
    assert failed.returncode == 2 and "exited 1; nothing written" in failed.stderr
    assert site.ledger.read_bytes() == before


def test_an_editor_that_saves_what_is_not_utf8_is_refused_and_nothing_written(
    site: Cli, tmp_path: Path
) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text("#!/bin/sh\nprintf 'ok\\377\\376bad' > \"$1\"\n")
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    before = site.ledger.read_bytes()
    done = edit_in(site, str(editor), "alarms", "--editor", "title")
    assert (done.returncode, done.stderr) == (
        2,
        f"claimledger: error: --editor: what {str(editor)!r} saved is not UTF-8 text (byte"
        " 0xff at byte 3)\n",
    )
    nul = tmp_path / "nul.sh"
    nul.write_text("#!/bin/sh\nprintf 'ok\\000bad' > \"$1\"\n")
    nul.chmod(nul.stat().st_mode | stat.S_IEXEC)
    held = edit_in(site, str(nul), "alarms", "--editor", "title")
    assert (held.returncode, held.stderr) == (
        2,
        f"claimledger: error: --editor: what {str(nul)!r} saved holds a control character"
        " (U+0000 at character 3)\n",
    )
    unquoted = edit_in(site, "vi '", "alarms", "--editor", "title")
    assert (unquoted.returncode, unquoted.stderr) == (
        2,
        'claimledger: error: --editor: cannot read "vi \'" as a command: No closing quotation\n',
    )
    assert site.ledger.read_bytes() == before


LINE_EDITOR = """#!/bin/sh
trap 'echo "?"' INT
until grep -q '^SigIgn:.*[2367abef]$' /proc/$PPID/status; do sleep 0.01; done
echo "editing $1"
until IFS= read -r line; do :; done
printf '%s\\n' "$line" > "$1"
"""
"""An editor of one line that takes Ctrl-C as a key of its own, as ed does (`?`). It says
it is editing once claimledger has left Ctrl-C to it (SIGINT in its parent's ignored set),
so that the test types no key in the instant between the editor's start and that."""


def test_ctrl_c_in_an_editor_that_takes_it_as_a_key_leaves_the_edit_to_the_editor(
    site: Cli, tmp_path: Path
) -> None:
    """Ctrl-C typed in the editor reached claimledger too (the terminal sends it to every
    process of the command): it stopped, "interrupted", and killed the editor with what
    was being typed in it. The editor keeps its keys, as under git, and what it saves is
    written."""
    editor = tmp_path / "ed.sh"
    editor.write_text(LINE_EDITOR)
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    code, shown = typed_on_terminal(
        "--ledger", str(site.ledger), "edit", "alarms", "--editor", "statement",
        cwd=tmp_path,
        environment={"EDITOR": str(editor), "VISUAL": ""},
        keys=[("editing", b"\x03"), ("?", b"Written after a Ctrl-C.\n")],
    )  # fmt: skip
    assert code == 0, shown
    assert "interrupted" not in shown
    assert load(site.ledger).claim("alarms").statement == "Written after a Ctrl-C."


def test_an_editor_that_ctrl_c_ends_ends_the_edit_and_writes_nothing(
    site: Cli, tmp_path: Path
) -> None:
    editor = tmp_path / "editor.sh"
    editor.write_text(LINE_EDITOR.replace("trap 'echo \"?\"' INT\n", ""))
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    before = site.ledger.read_bytes()
    code, shown = typed_on_terminal(
        "--ledger", str(site.ledger), "section", "main", "--editor",
        cwd=tmp_path,
        environment={"EDITOR": str(editor), "VISUAL": ""},
        keys=[("editing", b"half a line"), ("half a line", b"\x03")],
    )  # fmt: skip
    assert code == 130, shown
    assert shown.endswith("claimledger: interrupted\n"), shown
    assert site.ledger.read_bytes() == before


@pytest.mark.parametrize(
    ("leaves", "why"),
    [('rm "$1"', "No such file or directory"), ('rm "$1" && mkdir "$1"', "Is a directory")],
)
def test_an_editor_that_leaves_no_file_is_refused_and_nothing_written(
    site: Cli, tmp_path: Path, leaves: str, why: str
) -> None:
    """An editor that deletes the file it was opened on, or puts a folder in its place,
    is bad input (one line, exit 2), not an internal error."""
    editor = tmp_path / "editor.sh"
    editor.write_text(f"#!/bin/sh\n{leaves}\n")
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    before = site.ledger.read_bytes()
    done = edit_in(site, str(editor), "alarms", "--editor", "statement")
    assert (done.returncode, done.stderr) == (
        2,
        f"claimledger: error: --editor: {str(editor)!r} left no file to read ({why}); nothing"
        " written\n",
    )
    assert site.ledger.read_bytes() == before


def test_prose_keeps_its_paragraphs_and_an_unchanged_buffer_writes_nothing(
    site: Cli, tmp_path: Path
) -> None:
    """A statement written at length keeps its paragraphs and its list; opening it in the
    editor and closing it unchanged revises nothing, and says so."""
    site("edit", "alarms", "--statement", "First paragraph.\n\n\n- item one\n-  item two  ")
    assert load(site.ledger).claim("alarms").statement == (
        "First paragraph.\n\n- item one\n- item two"
    )
    before = site.ledger.read_bytes()
    untouched = edit_in(site, "true", "alarms", "--editor", "statement")
    assert untouched.stdout == "alarms: revised nothing (it already says that)\n"
    assert site.ledger.read_bytes() == before
    said = site("edit", "alarms", "--title", "Alarms   fire  again").stdout
    assert said == "alarms: revised title\n"
    assert load(site.ledger).claim("alarms").title == "Alarms fire again"  # a title: one line


@pytest.mark.parametrize(
    ("opened", "meanwhile"),
    [
        (["edit", "alarms", "--editor", "statement"], ["edit", "alarms", "--statement", "Theirs."]),
        (["section", "main", "--editor"], ["section", "main", "--intro", "Theirs."]),
    ],
)
def test_a_change_made_while_the_editor_was_open_is_not_undone(
    site: Cli, tmp_path: Path, opened: list[str], meanwhile: list[str]
) -> None:
    """The editor holds no lock: another command that rewrites the same words while it is
    open was silently undone by the text written on the old words. It is refused, nothing
    written, and what was written in the editor printed rather than lost."""
    other = shlex.join([str(CONSOLE_SCRIPT), "--ledger", str(site.ledger), *meanwhile])
    editor = tmp_path / "editor.sh"
    editor.write_text(f'#!/bin/sh\n{other} >/dev/null && echo "Mine, at length." > "$1"\n')
    editor.chmod(editor.stat().st_mode | stat.S_IEXEC)
    command = [str(CONSOLE_SCRIPT), "--ledger", str(site.ledger), *opened]
    env = {**os.environ, "EDITOR": str(editor), "VISUAL": ""}
    done = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60)
    assert done.returncode == 2 and done.stdout == "Mine, at length.\n"
    assert done.stderr.endswith(
        "was changed by another command while it was open in the editor; nothing written (what"
        " you wrote is printed above): open it again\n"
    )
    ledger = load(site.ledger)
    kept = ledger.claim("alarms").statement if opened[0] == "edit" else ledger.sections[0].intro
    assert kept == "Theirs."


def test_a_source_no_quote_rests_on_is_warned_of_and_removed(site: Cli) -> None:
    site("remove", "alarms")
    warned = site("check")
    assert (
        "claimledger: warning: source other is quoted by no claim: remove it with "
        "`claimledger source other --remove`"
    ) in warned.stderr
    refused = site("source", "guide", "--remove", code=2)
    assert "quoted by durable, ordered" in refused.stderr
    assert site("source", "other", "--remove").stdout == "other: removed\n"
    assert "other" not in load(site.ledger).sources
    assert "warning" not in site("check").stderr


def test_a_source_a_report_cites_is_not_warned_of_as_quoted_by_no_claim(site: Cli) -> None:
    """A quote's `via` rests on its source as its `sources` do (`source --remove` refuses
    it): `check` does not tell the author to remove it with a command that fails."""
    site("remove", "alarms")
    text = site.ledger.read_text(encoding="utf-8")
    cited = "sources: [guide, mirror]\n        reported_by: mirror\n        via: other"
    site.ledger.write_text(text.replace("sources: [guide, mirror]", cited), encoding="utf-8")
    assert "warning" not in site("check").stderr
    assert "unknown source 'other'" in site("source", "other", "--remove", code=2).stderr


def test_merging_a_source_moves_its_quotes_and_keeps_each_once(site: Cli) -> None:
    said = site("source", "mirror", "--merge-into", "guide").stdout
    assert said.startswith("mirror: merged into guide (its quotes rest on guide)")
    ledger = load(site.ledger)
    assert "mirror" not in ledger.sources
    assert ledger.claim("durable").quotes[0].sources == ("guide",)  # [guide, mirror] before
    site("source", "other", "--merge-into", "other", code=2)
    assert ledger.claim("alarms").quotes[0].text == ALARM


def test_merging_two_pages_neither_led_to_is_said_on_the_merge_line(
    site: Cli, page_server: PageServer
) -> None:
    """`source --merge-into` of two different pages, neither ever redirected to the
    other, moved the quotes of one onto the other without a word: it merges (a moved
    page's merge needs it) and says so on its line."""
    merged = site("source", "mirror", "--merge-into", "guide")

    mirror, guide = page_server.url("/mirror"), page_server.url("/guide")
    assert merged.stdout == "mirror: merged into guide (its quotes rest on guide)\n"
    assert " ".join(merged.stderr.split()) == (
        f"claimledger: warning: {mirror} and {guide} are two pages, and no refresh of yours "
        "saw one lead to the other: `claimledger refresh` to see that the quotes are on the "
        "page of source guide"
    )
    assert "mirror" not in load(site.ledger).sources


def test_a_merge_beside_a_store_that_cannot_be_read_is_written_whole_and_warned_of(
    site: Cli, page_server: PageServer
) -> None:
    """The store was opened, for the warning, after the merge was written: a damaged one
    ended the command with exit 2 and the merge on disk, unsaid, and a retry failed."""
    store = site.ledger.parent / "out" / "evidence.sqlite3"
    store.parent.mkdir(exist_ok=True)
    store.write_text("not a database", encoding="utf-8")

    merged = site("source", "mirror", "--merge-into", "guide")

    assert merged.stdout == "mirror: merged into guide (its quotes rest on guide)\n"
    assert "are two pages" in merged.stderr
    assert "mirror" not in load(site.ledger).sources


@pytest.mark.parametrize(
    ("one", "other"),
    [
        ("https://docs.example.com/delivery/#durability", "https://docs.example.com/delivery"),
        ("HTTPS://Docs.Example.com/delivery/", "https://docs.example.com/delivery#top"),
        ("https://docs.example.com:443/delivery", "https://docs.example.com/delivery"),
        ("http://docs.example.com:80/delivery", "http://docs.example.com/delivery"),
        ("https://bücher.example/delivery", "https://xn--bcher-kva.example/delivery"),
        ("https://docs.example.com./delivery", "https://docs.example.com/delivery"),
        ("http://[::1]:80/delivery", "http://[::1]/delivery"),
    ],
)
def test_one_page_is_one_source_whatever_its_fragment_or_trailing_slash(
    one: str, other: str
) -> None:
    assert page_key(one) == page_key(other)


def test_line_ranges_and_queries_stay_distinct_sources() -> None:
    blob = "https://github.com/o/r/blob/main/src/lib.rs"
    assert page_key(f"{blob}#L1-L9") != page_key(f"{blob}#L10-L20")
    assert page_key("https://d.example/a?v=1") != page_key("https://d.example/a?v=2")
    assert page_key("https://d.example:8443/a") != page_key("https://d.example/a")
    assert page_key("http://d.example:443/a") != page_key("http://d.example/a")


@pytest.mark.parametrize(
    ("url", "kind"),
    [
        ("https://blog.example.com/2024/05/durability", "blog"),
        ("https://example.com/blog/durability", "blog"),
        ("https://docs.example.com/changelog/", "changelog"),
        ("https://github.com/o/r/releases/tag/v1.2", "changelog"),
        ("https://github.com/o/r/blob/main/src/queue.rs", "source"),
        ("https://docs.example.com/concepts/delivery/", "docs"),
    ],
)
def test_a_new_sources_kind_is_guessed_from_its_address(url: str, kind: str) -> None:
    assert kind_of_page(url) == kind


def test_the_published_history_keeps_the_authors_acts_not_the_bookkeeping(
    site: Cli, page_server: PageServer
) -> None:
    site("add", "replicated", "--url", page_server.url("/guide"), "--quote", EXTRA,
         "--allow-private")  # fmt: skip
    site("edit", "replicated", "--statement", "Two replicas hold each acknowledged write.")
    report = site("render", "-o", "-").stdout
    replicated = report.split("Two replicas hold each acknowledged write.", 1)[1]
    assert "revised: statement" in replicated and "by the author" in replicated
    assert "by add" not in report and "recorded:" not in report and "by person" not in report
    site("set", "author", "Ada Reviewer")
    assert "revised: statement by Ada Reviewer" not in site("render", "-o", "-").stdout
    assert "by Ada Reviewer: revised: statement" in site("render", "-o", "-").stdout


def test_claims_lists_every_claim_with_its_grades_and_standing(
    site: Cli, page_server: PageServer
) -> None:
    listed = site.json("claims")["claims"]
    assert [row["claim_id"] for row in listed] == ["durable", "ordered", "alarms"]
    assert {row["standing"] for row in listed} == {"not checked"}
    site("refresh", "--allow-private", "--no-as-read")
    page_server.set_page("/other", page("Alarms are gone."))
    site("refresh", "--allow-private", "--no-as-read", code=1)
    standing = {row["claim_id"]: row["standing"] for row in site.json("claims")["claims"]}
    assert standing == {"durable": "verified", "ordered": "verified", "alarms": "missing"}
    unknown = site.json("claims", "--grade", "UNKNOWN")["claims"]
    assert [row["claim_id"] for row in unknown] == ["durable"]  # its second facet
    assert unknown[0]["grades"][1] == {"on": "holds under crashes", "grade": "UNKNOWN"}
    assert (
        site("ls", "--plain").stdout.splitlines()[0] == "claim\tsection\tgrades\tquotes\tstanding"
    )
    assert "alarms\tmain\tDEMONSTRATED\t1\tmissing" in site("claims", "--plain").stdout
    assert site("claims", "--needs-review").stdout == "no claim matches\n"
    site("claims", "--grade", "GREAT", code=2)
