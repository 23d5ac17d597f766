"""The evidence commands end to end: the real CLI, in-process, against a real loopback server.

verify, refresh, status, diff, history, snapshot, add, explain, accept, regrade and
render are driven as a user drives them, on a small ledger whose pages a
`PageServer` serves and changes between runs. Nothing is mocked: every fetch is a
real HTTP request to 127.0.0.1, every write a real file.
"""

from __future__ import annotations

import datetime as dt
import json
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.parse
from datetime import date
from pathlib import Path
from typing import Any

import pytest
import yaml

from claimledger.ledger import edits
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.file import load
from claimledger.ledger.vocabulary import Grade
from cli_runner import Cli, claimledger
from evidence_site import (
    ALARM,
    ALARM_REWORDED,
    DURABLE,
    NOT_DURABLE,
    ORDERED,
    page,
    serve_v1,
    write_ledger,
)
from webserver import (
    Exchange,
    Page,
    PageServer,
    redirect,
    stall_after_headers,
    trickle,
    unused_port,
)

ROOT = Path(__file__).resolve().parent.parent
BUNDLED_LEDGER = ROOT / "claims.yaml"

EXPECTED_VERIFY_KEYS = {
    "schema_version",
    "url",
    "final_url",
    "moved_to",
    "canonical",
    "change_kinds",
    "closest",
    "closest_kinds",
    "near_miss",
    "pdf_page",
    "http_status",
    "source_status",
    "status",
    "match",
    "similarity",
    "current",
    "meaning_changed",
    "meaning_uncertain",
    "changed_words",
    "occurrences",
    "context",
    "error",
}


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def checks_by_claim(report: dict[str, Any]) -> dict[tuple[str, str], str | None]:
    """(claim, source) -> status, from `refresh --json`."""
    return {(c["claim_id"], c["source_id"]): c["status"] for c in report["checks"]}


# --------------------------------------------------------------------------- verify


def test_verify_json_prints_exactly_one_object_for_a_verified_quote(
    page_server: PageServer,
) -> None:
    page_server.set_page("/doc", page("An opening line.", DURABLE))
    url = page_server.url("/doc")

    result = claimledger("verify", "--allow-private", url, DURABLE, "--json", code=0)

    payload = json.loads(result.stdout)  # raises on anything printed after the object
    assert set(payload) == EXPECTED_VERIFY_KEYS
    assert payload["url"] == payload["final_url"] == url
    assert (payload["http_status"], payload["source_status"]) == (200, "ok")
    assert (payload["status"], payload["match"]) == ("verified", "exact")
    assert payload["similarity"] == 1.0
    assert payload["current"] == DURABLE
    assert payload["meaning_changed"] is False
    assert payload["changed_words"] == []
    assert payload["occurrences"] == 1
    assert payload["context"]["after"].startswith(" Some neighbouring prose")
    assert payload["error"] is None


def test_verify_reports_an_inserted_negation_as_a_meaning_change(page_server: PageServer) -> None:
    page_server.set_page("/doc", page(NOT_DURABLE))

    result = claimledger(
        "verify", "--allow-private", page_server.url("/doc"), DURABLE, "--json", code=1
    )

    payload = json.loads(result.stdout)
    assert payload["status"] == "drifted"
    assert payload["meaning_changed"] is True
    assert payload["current"] == NOT_DURABLE
    assert {
        "op": "insert",
        "quote": "",
        "page": "not",
        "meaningful": True,
        "kind": "negation added",
    } in payload["changed_words"]


@pytest.mark.parametrize(
    ("path", "quote", "source_status", "status"),
    [
        (
            "/doc",
            "Penguins huddle together on the ice floes through the polar winter.",
            "ok",
            "missing",
        ),
        ("/nowhere", DURABLE, "gone", None),
    ],
    ids=["missing-quote", "page-404"],
)
def test_verify_exits_1_when_the_quote_is_not_verified(
    page_server: PageServer, path: str, quote: str, source_status: str, status: str | None
) -> None:
    page_server.set_page("/doc", page(DURABLE))

    result = claimledger(
        "verify", "--allow-private", page_server.url(path), quote, "--json", code=1
    )

    payload = json.loads(result.stdout)
    assert (payload["source_status"], payload["status"]) == (source_status, status)
    assert payload["current"] is None


@pytest.mark.parametrize(
    ("url", "quote", "message"),
    [
        ("file:///etc/passwd", "root", "not an http(s) URL"),
        ("ftp://x", "anything at all", "not an http(s) URL"),
        ("http://127.0.0.1:9/", "   ", "QUOTE is empty"),
        ("http://xn--a.example/", "x", "label 'xn--a' is not a valid internationalised name"),
    ],
    ids=["file-url", "ftp-url", "empty-quote", "bad-punycode-host"],
)
def test_verify_refuses_bad_input_with_exit_2(url: str, quote: str, message: str) -> None:
    result = claimledger("verify", "--allow-private", url, quote, "--json", code=2)

    assert result.stdout == ""
    assert result.stderr.startswith("claimledger: error: ")
    assert message in result.stderr


@pytest.mark.parametrize(
    ("on_page", "quoted"),
    [
        (
            "Write [bold]x[/bold] to make the word x bold in the console.",
            "Write [bold]x[/bold] to make the word x bold in the terminal.",
        ),
        (
            "Tag the image :latest: and watch for :warning: lines in the log.",
            "Tag the image :latest: and watch for :warning: lines in the build log.",
        ),
    ],
    ids=["console-markup", "emoji-shortcodes"],
)
def test_verify_prints_page_text_verbatim(
    page_server: PageServer, on_page: str, quoted: str
) -> None:
    """`[bold]` and `:warning:` on a page are its text: the console neither styles them nor
    puts a picture in their place."""
    page_server.set_page("/doc", page(on_page))

    result = claimledger("verify", "--allow-private", page_server.url("/doc"), quoted, code=1)

    assert f"the page says: {on_page}" in result.stdout
    assert "\u26a0" not in result.stdout


# --------------------------------------------------------------------------- refresh


def test_refresh_fetches_each_url_once_and_prints_its_json(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)

    report = cli.json("refresh", "--allow-private", code=0)

    assert set(report) >= {"run", "evidence", "claims", "sources", "checks"}
    assert (report["relocations"], report["saved"]) == ([], [])  # nothing went; no --save
    assert report["evidence"] == str(ledger.parent / "out" / "evidence.sqlite3")
    # guide carries three quote checks (two claims) and is still fetched once
    assert [page_server.hits(p) for p in ("/guide", "/mirror", "/other")] == [1, 1, 1]
    assert checks_by_claim(report) == {
        ("durable", "guide"): "verified",
        ("durable", "mirror"): "verified",
        ("ordered", "guide"): "verified",
        ("alarms", "other"): "verified",
    }
    assert len(report["checks"]) == 5
    assert [row["claim_id"] for row in report["claims"]] == ["durable", "ordered", "alarms"]
    assert report["claims"][0]["verified"] == 3
    assert {s["url"]: s["source_status"] for s in report["sources"]} == {
        page_server.url("/guide"): "ok",
        page_server.url("/mirror"): "ok",
        page_server.url("/other"): "ok",
    }
    assert all("text" not in s for s in report["sources"])  # listings never carry page text


def test_refresh_second_run_reuses_snapshots_on_304(cli: Cli, page_server: PageServer) -> None:
    serve_v1(page_server, etags=True)
    cli("refresh", "--allow-private", code=0)
    page_server.clear_requests()

    report = cli.json("refresh", "--allow-private", code=0)

    conditional = {r.path: r.headers.get("if-none-match") for r in page_server.page_requests}
    assert conditional == {"/guide": '"g1"', "/mirror": '"m1"', "/other": '"o1"'}
    assert all(s["not_modified"] and s["http_status"] == 304 for s in report["sources"])
    assert set(checks_by_claim(report).values()) == {"verified"}
    assert len(report["checks"]) == 5


def test_refresh_counts_the_pages_that_answered_304_on_one_line(
    cli: Cli, page_server: PageServer
) -> None:
    """A page unchanged at its own address needs no word of its own; a gone one does."""
    serve_v1(page_server, etags=True)
    cli("refresh", "--allow-private", code=0)
    page_server.set_handler("/other", Page(b"gone", 404, {}))

    lines = cli("refresh", "--allow-private", code=1).stdout.splitlines()

    assert "2 sources unchanged (304) since the last full read" in lines
    assert not [line for line in lines if line.startswith("source ok:")]
    assert [line for line in lines if line.startswith("source ") and "/other" in line]


def test_refresh_exits_1_and_prints_a_summary_when_a_quote_drifted(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(ALARM_REWORDED))

    result = cli("refresh", "--allow-private", code=1)

    assert "Refresh: 5 quote checks on 3 sources" in result.stdout
    assert re.search(r"alarms\s*│\s*0\s*│\s*1\s*│", result.stdout), result.stdout


def test_refresh_named_claim_checks_only_its_quotes(cli: Cli, page_server: PageServer) -> None:
    serve_v1(page_server)

    report = cli.json("refresh", "--allow-private", "alarms", code=0)

    assert checks_by_claim(report) == {("alarms", "other"): "verified"}
    assert [page_server.hits(p) for p in ("/guide", "/mirror", "/other")] == [0, 0, 1]


def test_refresh_unknown_claim_is_exit_2_with_a_suggestion(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    result = cli("refresh", "--allow-private", "alarm", code=2)

    assert "no claim 'alarm'" in result.stderr
    assert "did you mean 'alarms'?" in result.stderr
    assert page_server.requests == []
    assert not (ledger.parent / "out" / "evidence.sqlite3").exists()


@pytest.mark.slow
def test_refresh_429_and_timeout_never_mark_a_quote_missing(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    before = ledger.read_bytes()
    page_server.set_page("/guide", "slow down", status=429, headers={"Retry-After": "0"})
    page_server.set_handler("/other", trickle(page(ALARM).encode(), every=0.2, chunk=8))

    report = cli.json("refresh", "--allow-private", "--timeout", "0.3", code=1)

    unread = {(c["claim_id"], c["source_id"]): c for c in report["checks"] if c["status"] is None}
    assert {key: c["source_status"] for key, c in unread.items()} == {
        ("durable", "guide"): "refused",
        ("ordered", "guide"): "refused",
        ("alarms", "other"): "unreachable",
    }
    assert all(c["status"] != "missing" for c in report["checks"])
    regrade = cli.json("regrade", code=0)
    assert (regrade["proposals"], regrade["stale"]) == ([], [])
    assert ledger.read_bytes() == before


# --------------------------------------------------------------------------- no evidence yet


@pytest.mark.parametrize(
    ("args", "code"),
    [
        (("status",), 1),  # nothing checked yet: a gate must not pass
        (("diff",), 0),
        (("history", "durable"), 0),
        (("snapshot", "http://127.0.0.1:9/guide"), 2),
    ],
    ids=["status", "diff", "history", "snapshot"],
)
def test_reading_commands_say_no_evidence_yet_on_a_fresh_ledger(
    cli: Cli, ledger: Path, args: tuple[str, ...], code: int
) -> None:
    result = cli(*args, code=code)

    assert "no evidence yet" in result.stderr
    assert "run `claimledger refresh`" in result.stderr
    assert "Traceback" not in result.output
    assert not (ledger.parent / "out").exists()  # reading never creates the store


def test_a_quote_put_in_by_hand_since_the_last_refresh_is_not_checked_and_no_gate_passes(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    text = ledger.read_text(encoding="utf-8")
    quote = '      - text: "Words on no page at all."\n        sources: [other]\n'
    added = "        sources: [other]\n" + quote
    ledger.write_text(text.replace("        sources: [other]\n", added, 1), encoding="utf-8")

    status = cli("status", code=1)
    report = cli.json("status", code=1)
    gate = cli("regrade", "--check", code=3)

    row = next(row for row in report["claims"] if row["claim_id"] == "alarms")
    assert (row["standing"], row["verified"], row["unread"]) == ("not checked", 1, 1)
    assert report["unchecked_claims"] == ["alarms"]
    said = "1 claim has a quote never checked as it now reads"
    assert said in " ".join(status.stderr.split()) and said in " ".join(gate.stderr.split())
    listed = cli.json("claims", code=0)["claims"]
    assert next(r["standing"] for r in listed if r["claim_id"] == "alarms") == "not checked"


def test_a_refresh_cut_short_is_said_by_claims_and_by_every_report(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    """The pages a killed refresh did not reach keep their earlier checks: every view that
    shows them says the last refresh did not finish."""
    from claimledger.evidence.store import EvidenceStore

    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    with EvidenceStore.open(ledger.parent / "out" / "evidence.sqlite3") as store:
        store.begin_run(dt.datetime.now(dt.UTC), str(ledger))  # then killed

    listed = cli("claims", code=0)
    status = cli("status", code=1)
    markdown = cli("render", "-o", "-", "--format", "md", code=0)
    data = json.loads(cli("render", "-o", "-", "--format", "json", code=0).stdout)

    assert "did not finish" in " ".join(listed.stderr.split())
    assert status.stdout.startswith("Evidence (last refresh ")  # the headline says it
    assert status.stdout.splitlines()[0].endswith(" UTC, did not finish)")
    assert "did not finish" in " ".join(markdown.stderr.split())
    assert "(did not finish: it was interrupted" in markdown.stdout
    assert data["last_refresh_finished"] is False
    cli("refresh", "--allow-private", code=0)
    again = cli("render", "-o", "-", "--format", "json", code=0)
    assert json.loads(again.stdout)["last_refresh_finished"] is True
    assert "did not finish" not in cli("claims", code=0).stderr


def interrupted_refresh(home: Path, page_server: PageServer) -> None:
    """A real `claimledger refresh`, run in `home`, stopped by Ctrl-C while /other stalls."""
    command = [sys.executable, "-m", "claimledger", "refresh", "--allow-private", "--no-as-read"]
    page_server.set_handler("/other", stall_after_headers(4096, for_seconds=60))
    with subprocess.Popen(command, cwd=home, stderr=subprocess.PIPE, text=True) as process:
        deadline = time.monotonic() + 60
        while page_server.hits("/other") < 2:
            assert time.monotonic() < deadline, "the refresh never asked for /other"
            time.sleep(0.02)
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=30)
    assert process.returncode == 130, stderr


def cut_short(ledger: Path) -> None:
    """A refresh of `ledger` begun in its evidence store and never finished (killed)."""
    from claimledger.evidence.store import EvidenceStore

    with EvidenceStore.open(ledger.parent / "out" / "evidence.sqlite3") as store:
        store.begin_run(dt.datetime.now(dt.UTC), str(ledger))


def test_a_refresh_cut_short_stands_until_finished_refreshes_check_every_quote_again(
    cli: Cli, page_server: PageServer
) -> None:
    """A refresh of other claims after one cut short leaves the cut-short run's pages
    unread: the gate stays shut until each quote has been checked again."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    cut_short(cli.ledger)
    page_server.set_page("/other", page(ALARM_REWORDED))  # what the cut run may have met

    cli("refresh", "--allow-private", "durable", "ordered", code=0)
    status = cli("status", code=1)
    gate = cli("regrade", "--check", code=3)

    assert "did not finish" in " ".join(status.stderr.split())
    assert "did not finish" in " ".join(gate.stderr.split())
    assert cli.json("status", code=1)["last_refresh_finished"] is False
    cli("refresh", "--allow-private", "alarms", code=1)  # the last quote, drifted
    again = cli("regrade", "--check", code=1)
    assert "did not finish" not in again.stderr
    assert "alarms" in again.output


@pytest.mark.slow
def test_a_refresh_cut_short_in_the_ledgers_folder_stands_seen_from_any_folder(
    cli: Cli, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A refresh run in the ledger's folder, as `claimledger refresh` there runs it, named
    its ledger `claims.yaml`, which read from another folder names another file: cut
    short there, then followed by a refresh of some claims from a folder below, it was no
    run of the ledger's, and `regrade --check` there passed (0) while in the ledger's
    folder it failed (3). Every run names its ledger wherever it is run from."""
    serve_v1(page_server)
    home = cli.ledger.parent
    monkeypatch.chdir(home)
    claimledger("refresh", "--allow-private", "--no-as-read", code=0)
    interrupted_refresh(home, page_server)
    below = home / "notes"
    below.mkdir()
    monkeypatch.chdir(below)

    claimledger("refresh", "--allow-private", "--no-as-read", "durable", "ordered", code=0)
    gate = claimledger("regrade", "--check", code=3)

    assert "did not finish" in " ".join(gate.stderr.split())
    monkeypatch.chdir(home)
    assert "did not finish" in " ".join(claimledger("regrade", "--check", code=3).stderr.split())


@pytest.mark.slow
def test_a_refresh_cut_short_stands_in_a_checkout_moved_whole_with_its_store(
    cli: Cli, page_server: PageServer, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A refresh named its ledger by its path from the root, which names the old place
    once the checkout is moved (or cloned, or restored in CI) whole with its store: there
    a refresh of some claims after one cut short was the only run of the ledger's, and
    `regrade --check` passed (0) where before the move it failed (3). A run names its
    ledger from the store's folder, which a checkout moved whole keeps."""
    serve_v1(page_server)
    home = cli.ledger.parent
    claimledger("--ledger", str(cli.ledger), "refresh", "--allow-private", "--no-as-read")
    interrupted_refresh(home, page_server)
    moved = tmp_path / "elsewhere" / "teardown"
    moved.parent.mkdir()
    shutil.move(home, moved)
    monkeypatch.chdir(moved)

    claimledger("refresh", "--allow-private", "--no-as-read", "durable", "ordered", code=0)
    gate = claimledger("regrade", "--check", code=3)

    assert "did not finish" in " ".join(gate.stderr.split())


def test_a_wording_adopted_after_a_cut_refresh_was_put_by_is_said_unchecked_not_cut(
    cli: Cli, page_server: PageServer
) -> None:
    """Full refreshes put a cut-short one by; an `accept` then adopts a wording no run has
    checked. `status` said the old run "did not finish ... its evidence is partial" again:
    it names the real gap, the adopted wording, and how to check it."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    cut_short(cli.ledger)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)
    cli("accept", "alarms")

    said = " ".join(cli("status", code=1).stderr.split())
    gate = " ".join(cli("regrade", "--check", code=1).stderr.split())  # under review
    for told in (said, gate):
        assert "did not finish" not in told
        assert "1 claim has a quote adopted or a source moved since the last check (alarms)" in (
            told
        )
    assert "did not finish" not in cli("claims").stderr
    assert cli.json("status", code=1)["last_refresh_finished"] is True


def test_the_gate_says_1_for_a_claim_under_review_over_3_for_a_quote_never_checked(
    cli: Cli, page_server: PageServer
) -> None:
    """`regrade --check` fails on both; what needs the author wins (README, Exit codes: 3
    is "nothing is pending, but the evidence is incomplete"), and the gap is still said."""
    serve_v1(page_server)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)
    cli("accept", "alarms")  # the meaning may have changed: the claim goes to review
    page_server.set_page("/gates", page("Incoming events wait while a write is executing."))
    cli("add", "--allow-private", "gates", "--url", page_server.url("/gates"), "--quote",
        "Incoming events wait while a write is executing.")  # fmt: skip

    gate = " ".join(cli("regrade", "--check", code=1).stderr.split())
    assert "1 claim has never been checked as it now reads (gates)" in gate
    assert cli.json("regrade", "--check", code=1)["evidence_gaps"]
    cli("review", "alarms", "--confirm", "--because", "the same guarantee, reworded")
    cli("regrade", "--check", code=3)


def test_a_refresh_of_another_ledger_sharing_the_store_neither_clears_nor_sets_a_cut(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    """Two ledgers in one folder share out/evidence.sqlite3: a refresh of one, finished or
    cut short, says nothing of whether the other's last refresh finished."""
    serve_v1(page_server)
    other = ledger.with_name("other.yaml")
    other.write_text(ledger.read_text(encoding="utf-8"), encoding="utf-8")  # the same claims
    cli("refresh", "--allow-private", code=0)
    cut_short(ledger)

    Cli(other)("refresh", "--allow-private", code=0)
    gate = cli("regrade", "--check", code=3)
    assert "did not finish" in " ".join(gate.stderr.split())

    cli("refresh", "--allow-private", code=0)
    cut_short(other)
    assert "did not finish" not in cli("regrade", "--check", code=0).stderr
    assert cli.json("status", code=0)["last_refresh_finished"] is True
    assert "did not finish" in " ".join(Cli(other)("regrade", "--check", code=3).stderr.split())


def test_a_refresh_of_another_ledger_puts_by_no_cut_of_quotes_this_one_never_checked(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    """This ledger's first refresh is cut short before it checked a quote; another ledger
    sharing the store checks them all; this one refreshes one claim. The cut was put by on
    the other ledger's checks, and `regrade --check` passed (0): it stands until this
    ledger's own finished refreshes check every quote."""
    serve_v1(page_server)
    other = ledger.with_name("other.yaml")
    other.write_text(ledger.read_text(encoding="utf-8"), encoding="utf-8")  # the same claims
    cut_short(ledger)
    Cli(other)("refresh", "--allow-private", code=0)

    cli("refresh", "--allow-private", "durable", code=0)
    assert "did not finish" in " ".join(cli("regrade", "--check", code=3).stderr.split())
    assert cli.json("status", code=1)["last_refresh_finished"] is False

    cli("refresh", "--allow-private", "ordered", "alarms", code=0)
    assert "did not finish" not in cli("regrade", "--check", code=0).stderr


def test_a_page_sent_to_its_sites_home_page_is_gone_not_moved(
    cli: Cli, page_server: PageServer
) -> None:
    """A 301 from a deep page to "/" is a page removed (a soft 404): its quotes count as
    missing, and no `move` to the home page is proposed."""
    serve_v1(page_server)
    page_server.set_page("/", page("Welcome to the docs."))
    page_server.set_handler("/other", redirect("/", 301))

    result = cli("refresh", "--allow-private", "--no-as-read", code=1)
    report = cli.json("status", code=1)

    other = next(s for s in report["sources"] if s["source_id"] == "other")
    assert (other["source_status"], other["moved_to"]) == ("gone", None)
    assert "redirected to the site's home page" in other["error"]
    assert "claimledger move other" not in result.output
    alarms = next(row for row in report["claims"] if row["claim_id"] == "alarms")
    assert alarms["missing"] == 1


def test_the_report_says_cross_checked_only_while_every_source_read_carries_the_quote(
    cli: Cli, page_server: PageServer, tmp_path: Path
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    report = tmp_path / "before.md"
    cli("render", "-o", str(report))
    assert "cross-checked on 2 sources, 1 independent" in report.read_text(encoding="utf-8")

    page_server.set_page("/mirror", "<p>Not here</p>", status=404)
    cli("refresh", "--allow-private", code=1)
    cli("render", "-o", str(report))

    text = " ".join(report.read_text(encoding="utf-8").split())
    assert "cited on 2 sources, 1 independent: p; not carried now by mirror" in text
    assert "cross-checked on 2 sources" not in text


def test_diff_marks_a_change_that_may_have_changed_the_meaning_with_a_question(
    cli: Cli, page_server: PageServer
) -> None:
    """`!` is kept for strong evidence (a negation, a number, ...): a word replaced by
    another that no rule explains is `?`, as its check is "may have changed"."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)

    diff = cli("diff", "alarms", code=1)

    assert "alarms #1 on other: drifted  meaning may have changed" in diff.stdout
    assert "? time -> moment  (wording changed)" in diff.stdout
    assert "! " not in diff.stdout


def test_a_quote_on_a_page_gone_is_in_diff_and_counted_missing_in_regrade_s_words(
    cli: Cli, page_server: PageServer
) -> None:
    """`status` and the rules count a quote whose page answers 404 as missing: `diff`
    shows it too, and `regrade` says so, not that nothing is known of it."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", "<p>Not here</p>", status=404)
    cli("refresh", "--allow-private", code=1)

    diff = cli("diff", "alarms", code=1).stdout
    listed = cli.json("diff", "alarms", code=1)["checks"]
    regrade = cli("regrade", code=1).output

    assert "alarms #1 on other: gone" in diff
    assert "page:  (the page is gone: the quote counts as missing)" in diff
    assert [(c["claim_id"], c["source_status"]) for c in listed] == [("alarms", "gone")]
    assert "is gone (HTTP 404 Not Found): its quotes count as missing" in " ".join(regrade.split())
    assert "nothing is known" not in regrade


def test_a_wording_adopted_since_the_last_refresh_is_said_adopted_not_unread(
    cli: Cli, page_server: PageServer
) -> None:
    """Right after `accept`, no check of the new wording exists yet, but its page was
    read: the report says where the words came from, never that nothing was read."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)
    cli("accept", "alarms", code=0)

    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert f"adopted from its page on {date.today().isoformat()}, not checked since" in report
    assert "none read yet" not in report


def test_status_diff_and_history_after_a_negation(cli: Cli, page_server: PageServer) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE, ORDERED))
    cli("refresh", "--allow-private", code=1)

    status = cli("status", code=1)
    assert "Evidence (last refresh" in status.stdout
    assert page_server.url("/guide") in status.stdout
    listed = {claim["claim_id"] for claim in cli.json("status", code=1)["claims"]}
    shown = {c for c in listed if re.search(rf"^│ {re.escape(c)} ", status.stdout, re.M)}
    assert shown == {"durable"}, "the table names the claims that need a look, no others"
    assert f"{len(listed) - 1} of {len(listed)} claims verified on every source" in status.stdout

    diff = cli("diff", "durable", code=1)
    assert "durable #1 on guide: drifted  MEANING CHANGED" in diff.stdout
    assert f"quote: {DURABLE}" in diff.stdout
    assert f"page:  {NOT_DURABLE}" in diff.stdout
    assert "! added: not" in diff.stdout
    assert cli.json("diff", "alarms", code=0)["checks"] == []

    history = cli.json("history", "durable", code=0)
    on_guide = [c for c in history["checks"] if c["source_id"] == "guide" and c["quote_index"] == 1]
    assert [c["status"] for c in on_guide] == ["verified", "drifted"]
    assert on_guide[0]["checked_at"] < on_guide[1]["checked_at"]


def test_history_numbers_each_check_as_its_quote_is_numbered_now(
    cli: Cli, page_server: PageServer
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    cli("remove", "durable", "--quote", "1", code=0)  # the ordering quote is #1 from now on
    cli("refresh", "--allow-private", code=0)

    checks = cli.json("history", "durable", code=0)["checks"]
    numbered = {(c["quote_text"], c["quote_index"], c.get("quote_removed", False)) for c in checks}
    assert numbered == {(ORDERED, 1, False), (DURABLE, 1, True)}
    rows = [line.split("\t") for line in cli("--plain", "history", "durable").stdout.splitlines()]
    quote_cells = {(row[3], row[2]) for row in rows[1:] if len(row) == 7}
    assert quote_cells == {("guide", "#1"), ("guide", "removed"), ("mirror", "removed")}


def test_snapshot_at_prints_the_page_as_it_was_then(cli: Cli, page_server: PageServer) -> None:
    url = page_server.url("/other")
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    between = dt.datetime.now(dt.UTC)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)

    then = cli("snapshot", url, "--at", between.isoformat(), code=0)
    latest = cli("snapshot", url, code=0)
    today = cli("snapshot", url, "--at", between.date().isoformat(), code=0)
    day_before = (between - dt.timedelta(days=1)).date().isoformat()
    before = cli("snapshot", url, "--at", day_before, code=2)

    assert ALARM in then.stdout and ALARM_REWORDED not in then.stdout
    assert ALARM_REWORDED in latest.stdout
    assert ALARM_REWORDED in today.stdout  # a date means the end of that day
    assert f"snapshot of {url} taken " in then.stderr
    assert "no snapshot of" in before.stderr
    by_id = cli("snapshot", source_of(cli, url), code=0)  # as every other command names it
    assert by_id.stdout == latest.stdout
    unknown = cli("snapshot", "no-such-source", code=2)
    assert "no source 'no-such-source'" in unknown.stderr


def test_snapshot_says_a_bad_moment_before_it_looks_for_evidence(cli: Cli) -> None:
    url = "https://docs.example.com/guide"
    bad = cli("snapshot", url, "--at", "last tuesday", code=2)
    assert "--at 'last tuesday': expected YYYY-MM-DD or an ISO 8601 time" in bad.stderr
    nothing = cli("snapshot", url, "--at", "", code=2)  # an empty moment is the latest
    assert "no evidence yet" in nothing.stderr


def test_snapshot_at_takes_a_day_in_iso_basic_form_as_all_of_it(
    cli: Cli, page_server: PageServer
) -> None:
    url = page_server.url("/other")
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    basic = dt.datetime.now(dt.UTC).date().strftime("%Y%m%d")  # ISO 8601's basic form

    assert ALARM in cli("snapshot", url, "--at", basic, code=0).stdout


@pytest.mark.parametrize("moment", ["9999-12-31T23:59:59-05:00", "0001-01-01T00:00+05:00"])
def test_snapshot_at_a_time_past_the_calendar_in_utc_is_bad_input(
    cli: Cli, page_server: PageServer, moment: str
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    bad = cli("snapshot", page_server.url("/other"), "--at", moment, code=2)
    assert f"--at '{moment}': expected YYYY-MM-DD or an ISO 8601 time" in bad.stderr


def source_of(cli: Cli, url: str) -> str:
    """The id the ledger gives the source at `url`."""
    sources = yaml.safe_load(cli.ledger.read_text(encoding="utf-8"))["sources"]
    (found,) = [sid for sid, source in sources.items() if source["url"] == url]
    return str(found)


# --------------------------------------------------------------------------- add


def test_add_refuses_a_quote_that_is_not_on_the_page(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    page_server.set_page(
        "/gates", page("Outgoing messages are held back until the write has completed.")
    )
    before = ledger.read_bytes()

    result = cli(
        "add",
        "--allow-private",
        "output-gate",
        "--url",
        page_server.url("/gates"),
        "--quote",
        "Outgoing messages are held back until the write has finished.",
        code=2,
    )

    assert "nothing written" in result.stderr
    assert (
        "closest wording: 'Outgoing messages are held back until the write has completed.'"
        in result.stderr
    )
    assert ledger.read_bytes() == before


def test_add_writes_a_verified_claim_and_reuses_its_new_source(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    first = "Outgoing messages are held back until the write has completed."
    second = "Incoming events wait while a storage operation is executing."
    page_server.set_page("/docs/output-gate.html", page(first, second))
    url = page_server.url("/docs/output-gate.html")

    cli(
        "add",
        "--allow-private",
        "output-gate",
        "--url",
        url,
        "--quote",
        first,
        "--section",
        "main",
        code=0,
    )
    cli(
        "add",
        "--allow-private",
        "input-gate",
        "--url",
        url,
        "--quote",
        second,
        "--grade",
        "claimed",
        code=0,
    )

    text = ledger.read_text(encoding="utf-8")
    for comment in (
        "# A small ledger for the evidence commands: this comment must survive every write.",
        "title: Main  # an inline comment",
        "# graded by hand once",
    ):
        assert comment in text
    written = load(ledger)
    assert written.sources["output-gate"].url == url
    assert [s for s in written.sources if written.sources[s].url == url] == ["output-gate"]
    assert len(written.sources) == 4
    added = written.claim("output-gate")
    assert [(q.text, q.sources) for q in added.quotes] == [(first, ("output-gate",))]
    assert added.grades[0].grade is Grade.DEMONSTRATED
    again = written.claim("input-gate")
    assert [q.sources for q in again.quotes] == [("output-gate",)]
    assert again.grades[0].grade is Grade.CLAIMED
    cli("check", code=0)


def test_add_whose_premise_goes_while_its_page_is_read_is_refused_in_one_line(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    """Another command removes the premise while `add` reads its page: the claim, added
    to the file as it is now, would name a claim gone, and that was an internal error."""
    first = "Outgoing messages are held back until the write has completed."
    served = Page(page(first).encode("utf-8"), headers={"Content-Type": "text/html; charset=utf-8"})

    def removed_meanwhile(exchange: Exchange) -> None:
        ledgerfile.update(ledger, lambda text, fresh: edits.remove_claim(text, fresh, "ordered"))
        served(exchange)

    page_server.set_handler("/gates", removed_meanwhile)

    result = cli(
        "add", "--allow-private", "output-gate", "--url", page_server.url("/gates"),
        "--quote", first, "--depends-on", "ordered", code=2,
    )  # fmt: skip

    (line,) = result.stderr.splitlines()
    assert line.startswith("claimledger: error: adding the claim would leave the ledger invalid")
    assert "unknown claim 'ordered'" in line
    written = load(ledger)
    assert "ordered" not in written.claim_ids and "output-gate" not in written.claim_ids


# --------------------------------------------------------------------------- explain


def test_explain_prints_the_rule_and_evidence_of_each_facet(
    cli: Cli, page_server: PageServer
) -> None:
    reversed_alarm = ALARM.replace("at least once", "at most once")
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(reversed_alarm))
    cli("refresh", "--allow-private", code=1)
    today = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d")

    before_write = cli("explain", "alarms", code=0).stdout.splitlines()
    cli("regrade", "--write", code=0)
    after_write = cli("explain", "alarms", code=0).stdout.splitlines()
    judged = cli("explain", "durable", code=0).stdout.splitlines()

    why = "the page's wording changes the meaning of 1 quote (guarantee term changed): re-read it"
    assert before_write[:3] == [  # the grade the rule asks for, as `regrade` says it
        "alarms / wording: DEMONSTRATED (basis quotes)",
        f"  proposed: DEMONSTRATED -> UNKNOWN by rule quotes-meaning-changed: {why} "
        "(claimledger regrade --write)",
        f"  rule quotes-meaning-changed: {why}",
    ]
    assert (
        f"    drifted on other {today} page now says: {reversed_alarm} (guarantee term changed)"
        in (before_write)
    )
    assert len(before_write) == 4  # the latest check of each quote on each source
    assert after_write[0] == "alarms / wording: UNKNOWN (basis quotes)"
    assert not [line for line in after_write if "proposed:" in line]
    assert re.match(
        rf"  {today}, on wording, DEMONSTRATED → UNKNOWN, by rule:quotes-meaning-changed: ",
        after_write[-1],
    )
    assert "durable / holds under crashes: UNKNOWN (basis judgement)" in judged
    assert "  author: nobody tested it" in judged
    assert "  rule judgement: only a person changes a judgement (claimledger grade)" in judged
    explained = cli.json("explain", "alarms", code=0)
    traces = explained["traces"]
    assert [(t["on"], t["rule"]) for t in traces] == [("wording", "quotes-meaning-changed")]
    assert explained["proposals"] == []  # written


def test_explain_names_a_quote_on_a_source_given_since_the_last_refresh(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """The rules weigh only the checks there are: a source given to a quote since the
    last refresh is never checked there, as `status` and `claims` say, and `explain` says
    so beside "every quote verified" rather than leave it out (once, however often the
    ledger names it)."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    head, ordered = ledger.read_text(encoding="utf-8").split("  - id: ordered")
    ordered = ordered.replace("sources: [guide]", "sources: [guide, other, other]", 1)
    ledger.write_text(f"{head}  - id: ordered{ordered}", encoding="utf-8")

    said = cli("explain", "ordered", code=0).stdout.splitlines()
    explained = cli.json("explain", "ordered", code=0)

    assert "  rule quotes: every quote verified" in said
    assert (
        said.count(
            "ordered: quote 1 not checked on other as the ledger now says it, so no rule "
            "weighed it there (claimledger refresh)"
        )
        == 1
    )
    assert explained["unchecked"] == [{"quote_index": 1, "source_id": "other"}]
    assert cli.json("explain", "durable", code=0)["unchecked"] == []


# --------------------------------------------------------------------------- accept


def test_accept_needs_claims_or_all_drifted(cli: Cli) -> None:
    result = cli("accept", code=2)
    assert "name the claims to accept, or pass --all-drifted" in result.stderr


def test_accept_unknown_claim_is_exit_2(cli: Cli, ledger: Path) -> None:
    before = ledger.read_bytes()
    result = cli("accept", "alarmz", code=2)
    assert "did you mean 'alarms'?" in result.stderr
    assert ledger.read_bytes() == before


def test_accept_with_nothing_drifted_changes_nothing(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    before = ledger.read_bytes()

    result = cli("accept", "--all-drifted", code=0)

    assert "nothing to accept" in result.stdout
    assert ledger.read_bytes() == before


def test_accept_refuses_when_another_source_still_has_the_old_words(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    page_server.set_page(
        "/guide",
        page("An opening line.", DURABLE.replace("the client", "the caller"), ORDERED),
    )
    cli("refresh", "--allow-private", code=1)
    before = ledger.read_bytes()

    result = cli("accept", "durable", code=1)

    assert "durable #1: still verbatim on mirror but reworded on guide" in result.stderr
    assert "split the quote per source" in result.stderr
    assert ledger.read_bytes() == before


def test_accept_even_if_meaning_changed_adopts_and_records_the_old_words(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    page_server.set_page("/other", page(ALARM.replace("at least once", "at most once")))
    cli("refresh", "--allow-private", code=1)

    refused = cli("accept", "alarms", code=1)
    assert "alarms #1: the rewording changed its meaning" in refused.stderr
    assert load(ledger).claim("alarms").quotes[0].text == ALARM

    cli("accept", "alarms", "--even-if-meaning-changed", code=0)

    claim = load(ledger).claim("alarms")
    assert claim.quotes[0].text == ALARM.replace("at least once", "at most once")
    assert [(h.by, h.quote_was, h.quote_now) for h in claim.history] == [
        ("accept", ALARM, claim.quotes[0].text)
    ]
    assert "# graded by hand once" in ledger.read_text(encoding="utf-8")


def test_accept_names_a_source_that_could_not_be_read_and_adopts_all_the_same(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    """The guide reverses the quote while the mirror answers 503: the new words are read
    on the guide only. Adopted (a page down for a day holds up no one), and the mirror
    said unread, which the gate keeps saying until a refresh reads it."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE, ORDERED))
    page_server.set_page("/mirror", "Service Unavailable", status=503)
    cli("refresh", "--allow-private", code=1)

    accepted = cli("accept", "durable", "--even-if-meaning-changed", code=0).stdout

    assert load(ledger).claim("durable").quotes[0].text == NOT_DURABLE
    (unread,) = [line for line in accepted.splitlines() if "not read" in line]
    assert unread.startswith("  not read at the last refresh: mirror;")
    assert "unchecked there until a refresh" in unread
    gap = cli("regrade", "--check", "--no-artifacts", code=1).stderr
    assert "never checked as it now reads" in gap and "durable" in gap


# --------------------------------------------------------------------------- regrade


def test_regrade_write_and_check_exclude_each_other(cli: Cli, ledger: Path) -> None:
    before = ledger.read_bytes()
    result = cli("regrade", "--write", "--check", code=2)
    assert "--write and --check exclude each other" in result.stderr
    assert ledger.read_bytes() == before


def test_regrade_check_is_a_gate_and_json_is_stable(
    cli: Cli, page_server: PageServer, ledger: Path
) -> None:
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    cli("regrade", "--check", code=0)
    page_server.set_page("/guide", page("An opening line.", NOT_DURABLE))
    cli("refresh", "--allow-private", code=1)
    before = ledger.read_bytes()

    cli("regrade", "--check", code=1)
    first = cli("regrade", "--json", code=1).stdout
    second = cli("regrade", "--json", code=1).stdout

    assert ledger.read_bytes() == before
    assert first == second
    report = json.loads(first)
    assert set(report) == {
        "schema_version",
        "has_evidence",
        "proposals",
        "stale",
        "evidence_gaps",
        "skipped_artifacts",
    }
    assert report["has_evidence"] is True
    assert {
        (p["claim_id"], p["on"], p["from_grade"], p["to_grade"]) for p in report["proposals"]
    } >= {
        ("durable", "wording", "DEMONSTRATED", "UNKNOWN"),
        ("ordered", "wording", "CLAIMED", "UNKNOWN"),
    }
    for proposal in report["proposals"]:
        assert {"claim_id", "on", "from_grade", "to_grade", "rule", "why", "evidence"} <= set(
            proposal
        )
        assert proposal["rule"] and proposal["evidence"]


@pytest.fixture
def bundled(tmp_path: Path) -> Path:
    """A copy of the bundled example ledger, with no evidence beside it."""
    path = tmp_path / "bundled" / "claims.yaml"
    path.parent.mkdir()
    shutil.copyfile(BUNDLED_LEDGER, path)
    return path


def test_regrade_on_the_bundled_ledger_without_evidence_proposes_nothing(bundled: Path) -> None:
    cli = Cli(bundled)

    text = cli("regrade", code=0)
    report = cli.json("regrade", code=0)

    assert "nothing to propose: no evidence yet" in text.stdout
    assert "no evidence yet" in text.stderr
    assert "artifact of neutral-toy not run: you have not trusted its command" in text.stderr
    skipped = report.pop("skipped_artifacts")
    assert [(s["claim_id"], s["consent"]) for s in skipped] == [("neutral-toy", "untrusted")]
    (gap,) = report.pop("evidence_gaps")  # nothing read: said, for the gate to fail on
    assert "claims have never been checked" in gap
    assert report == {
        "schema_version": 2,
        "has_evidence": False,
        "proposals": [],
        "stale": [],
    }


QUOTES_NOTHING = (
    "ledger: 1\ntitle: T\ndate_read: 2026-01-01\nsections: [{id: g, title: G}]\n"
    "sources: {}\nclaims: []\n"
)
"""A ledger of no claim: nothing to check, nothing to run."""


@pytest.mark.slow
def test_the_gate_does_not_pass_a_ledger_with_nothing_to_check(tmp_path: Path) -> None:
    """An emptied `claims:` or a wrong --ledger must not read as every grade agreeing."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(QUOTES_NOTHING, encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", code=0)

    gate = cli("regrade", "--check", code=3)

    assert "the ledger quotes nothing and runs nothing" in gate.stderr
    assert "every grade agrees" not in gate.stdout


def test_status_of_a_ledger_that_quotes_nothing_says_so(tmp_path: Path) -> None:
    """Not "run `claimledger refresh`", nor quotes "adopted, added or moved since the last
    refresh": a refresh finds nothing to check there, before it ran or after."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(QUOTES_NOTHING, encoding="utf-8")
    cli = Cli(ledger)
    before = cli("status")
    cli("refresh")

    after = cli("status")

    for said in (before, after):
        assert "the ledger quotes nothing" in said.output
        assert "run `claimledger refresh`" not in said.output
        assert "adopted, added or moved" not in said.output


def test_regrade_after_an_unreachable_refresh_proposes_nothing(bundled: Path) -> None:
    cli = Cli(bundled)
    hosts = {urllib.parse.urlsplit(s.url).netloc for s in load(bundled).sources.values()}
    closed = f"http://127.0.0.1:{unused_port()}/"
    maps = [arg for host in sorted(hosts) for arg in ("--map", f"https://{host}/={closed}")]
    before = bundled.read_bytes()

    refreshed = cli.json(
        "refresh", "--allow-private", *maps, "--timeout", "1", "--deadline", "1", code=1
    )
    report = cli.json("regrade", "--no-artifacts", code=0)
    *unread, held = report.pop("evidence_gaps")
    assert unread and all("could not be read (unreachable: " in gap for gap in unread)  # and why
    assert held == (
        "1 artifact claim not run (--no-artifacts): neutral-toy, graded on its last recorded"
        " run, if any, not on a run of the files as they are"
    )

    assert {s["source_status"] for s in refreshed["sources"]} == {"unreachable"}
    assert {c["status"] for c in refreshed["checks"]} == {None}
    assert report == {
        "schema_version": 2,
        "has_evidence": True,
        "proposals": [],
        "stale": [],
        "skipped_artifacts": [],
    }
    gate = cli("regrade", "--check", "--no-artifacts", code=3)  # nothing read: never a pass
    unread = [line for line in gate.stderr.splitlines() if "could not be read" in line]
    assert unread and all(line.endswith("): nothing is known") for line in unread)
    assert bundled.read_bytes() == before


# --------------------------------------------------------------------------- render


def test_render_writes_beside_the_ledger_not_in_the_working_directory(
    cli: Cli, ledger: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)

    result = cli("render", code=0)

    report = ledger.parent / "out" / "report.md"
    assert f"wrote {report}" in result.stdout
    assert report.read_text(encoding="utf-8").startswith("# Evidence commands")
    assert list(elsewhere.iterdir()) == []


@pytest.mark.parametrize(
    ("fmt", "name", "looks_like"),
    [
        ("html", "report.html", "<!doctype html>"),
        ("json", "report.json", "{"),
        ("claimreview", "report.claimreview.json", "["),
    ],
)
def test_render_formats(cli: Cli, ledger: Path, fmt: str, name: str, looks_like: str) -> None:
    cli("render", "--format", fmt, code=0)

    text = (ledger.parent / "out" / name).read_text(encoding="utf-8")
    assert text.lstrip().lower().startswith(looks_like)
    if fmt != "html":
        assert "Durable writes" in json.dumps(json.loads(text))


def test_render_to_an_output_path_and_refuse_an_unwritable_one(
    cli: Cli, ledger: Path, tmp_path: Path
) -> None:
    target = tmp_path / "reports" / "teardown.md"
    cli("render", "-o", str(target), code=0)
    assert "### Durable writes" in target.read_text(encoding="utf-8")
    assert not (ledger.parent / "out" / "report.md").exists()

    result = cli("render", "-f", "md", "-o", str(tmp_path / "reports"), code=2)  # a directory
    assert "is a directory, where the report should be a file" in result.stderr
    result = cli("render", "-o", str(ledger / "report.md"), code=2)  # under a file
    assert "cannot write" in result.stderr


def test_render_what_changed_reflects_a_grade_given_by_hand(cli: Cli, ledger: Path) -> None:
    report = ledger.parent / "out" / "report.md"
    cli("render", code=0)
    assert "First render" in what_changed(report)

    cli("grade", "alarms", "UNKNOWN", "--on", "wording", "--because", "page unclear", code=0)
    cli("render", code=0)

    section = what_changed(report)
    assert "Alarms fire" in section
    assert "DEMONSTRATED" in section and "UNKNOWN" in section
    assert "Durable writes" not in section


def what_changed(report: Path) -> str:
    text = report.read_text(encoding="utf-8")
    return text.split("## What changed since the last render", 1)[1].split("\n## ", 1)[0]


def test_render_user_template_with_a_typo_names_the_file_and_line(cli: Cli, tmp_path: Path) -> None:
    templates = tmp_path / "my-templates"
    templates.mkdir()
    (templates / "report.md.j2").write_text(
        "# {{ report.title }}\n"
        "\n"
        "{% for claim in report.claims %}\n"
        "{{ claim.title }\n"  # the typo: a missing brace on line 4
        "{% endfor %}\n",
        encoding="utf-8",
    )

    result = cli("render", "--templates", str(templates), code=2)

    assert "report.md.j2:4" in result.stderr
    assert "Traceback" not in result.output


def test_an_adopted_rewording_the_page_took_back_is_one_finding(
    cli: Cli, page_server: PageServer
) -> None:
    """Adopted, then the page went back to the words first quoted: the report says so once,
    not "not yet adopted" and "adopted" of the same quote."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/other", page(ALARM_REWORDED))
    cli("refresh", "--allow-private", code=1)  # drifted: a rewording to adopt
    cli("accept", "alarms", code=0)
    page_server.set_page("/other", page(ALARM))
    cli("refresh", "--allow-private", code=1)  # the adopted words drifted back

    report = json.loads(cli("render", "-o", "-", "--format", "json", code=0).stdout)

    said = {finding["text"]: finding["claims"] for finding in report["findings"]}
    took_back = "adopted rewording the page took back: it reads as first quoted again"
    assert [c["claim_id"] for c in said[took_back]] == ["alarms"]
    assert not {"harmless rewording adopted", "harmless rewording not yet adopted"} & set(said)
