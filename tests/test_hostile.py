"""A hostile checkout, a hostile page, a full disk: nothing overwritten, no secret shown, no
script run, no control of the reader's terminal, one plain line and exit 2.

Each test runs the real command line on real files, against pages a loopback server
serves; the disk-full case runs the command in a process of its own under a file-size
limit, so the operating system itself refuses the write.
"""

from __future__ import annotations

import json
import resource
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from claimledger.evidence.pageread import title_cut
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.file import load
from cli_runner import Cli, claimledger
from evidence_site import ALARM, DURABLE, NOT_DURABLE, page, serve_v1, write_ledger
from webserver import PageServer, redirect

SECRET = "s3cr3t-value"
VICTIM_TEXT = "ssh-ed25519 AAAAC3Nza mine@laptop\n"


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer) -> Path:
    serve_v1(page_server)
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


@pytest.fixture
def victim(tmp_path: Path) -> Path:
    """A file outside the checkout that a planted link points at."""
    path = tmp_path / "home" / "authorized_keys"
    path.parent.mkdir()
    path.write_text(VICTIM_TEXT, encoding="utf-8")
    return path


def refused_link(result_stderr: str, link: Path) -> None:
    (line,) = result_stderr.splitlines()
    assert line.startswith(f"claimledger: error: {link} is a symbolic link"), line
    assert "does not write through a link it was not given" in line


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "http://127.0.0.1:9/", b"See \xffonly for the cache settings."],
        ["add", "new-claim", "--url", "http://127.0.0.1:9/", "--quote", b"caf\xe9 au lait"],
    ],
    ids=["verify-quote", "add-quote"],
)
def test_an_argument_that_is_not_utf8_is_bad_input_and_the_ledger_is_kept(
    ledger: Path, args: list[str | bytes]
) -> None:
    """A shell hands over bytes; one that is not UTF-8 (a Latin-1 terminal, a stray byte)
    is refused by name before any command runs, where it reached the page reader or the
    ledger's writer and ended as an internal error."""
    before = ledger.read_bytes()

    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(ledger), *args],
        capture_output=True,
        check=False,
    )

    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.decode("utf-8").splitlines()
    assert line.startswith("claimledger: error: argument ") and "is not UTF-8 text (byte 0x" in line
    assert ledger.read_bytes() == before


# --------------------------------------------------------------------------- planted links


def test_render_refuses_a_planted_link_at_its_default_report(
    cli: Cli, ledger: Path, victim: Path
) -> None:
    report = ledger.parent / "out" / "report.md"
    report.parent.mkdir()
    report.symlink_to(victim)
    refused_link(cli("render", code=2).stderr, report)
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    report.unlink()
    report.symlink_to(victim.parent / "absent")  # a dangling one is refused as well
    refused_link(cli("render", code=2).stderr, report)
    assert not (victim.parent / "absent").exists()


def test_render_refuses_a_planted_out_directory(cli: Cli, ledger: Path, victim: Path) -> None:
    (ledger.parent / "out").symlink_to(victim.parent, target_is_directory=True)
    refused_link(cli("render", code=2).stderr, ledger.parent / "out")
    assert sorted(p.name for p in victim.parent.iterdir()) == ["authorized_keys"]


def test_a_report_path_the_user_names_is_theirs_and_no_state_file_is_written_beside_it(
    cli: Cli, ledger: Path, tmp_path: Path, victim: Path
) -> None:
    elsewhere = tmp_path / "published"
    elsewhere.mkdir()
    mine = elsewhere / "report.md"
    (ledger.parent / "my-report.md").symlink_to(mine)
    state = ledger.parent / ".my-report.md.state.json"  # where earlier versions kept it
    state.symlink_to(victim)
    for _ in range(2):
        cli("render", "-o", str(ledger.parent / "my-report.md"))
    assert mine.read_text(encoding="utf-8").startswith("# ")  # written where the link points
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT
    assert sorted(p.name for p in elsewhere.iterdir()) == ["report.md"]


@pytest.mark.parametrize("sidecar", ["evidence.sqlite3", "evidence.sqlite3-wal"])
def test_refresh_refuses_a_planted_link_at_the_store(
    cli: Cli, ledger: Path, victim: Path, sidecar: str
) -> None:
    link = ledger.parent / "out" / sidecar
    link.parent.mkdir()
    link.symlink_to(victim)
    refused_link(cli("refresh", "--allow-private", code=2).stderr, link)
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT


def test_a_planted_lock_is_never_opened(cli: Cli, ledger: Path, victim: Path) -> None:
    """Opening a lock truncates it: a link there would empty the file it names."""
    lock = ledgerfile.lock_path(ledger)
    lock.symlink_to(victim)
    result = cli("grade", "durable", "CLAIMED", "--because", "x", code=2)
    refused_link(result.stderr, lock)
    assert victim.read_text(encoding="utf-8") == VICTIM_TEXT


def test_init_refuses_a_dangling_ledger_link_and_a_linked_templates_folder(
    tmp_path: Path, victim: Path
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    (project / "claims.yaml").symlink_to(victim.parent / "new-file")
    result = claimledger("init", str(project), code=2)
    assert "claims.yaml: already exists" in result.stderr
    assert not (victim.parent / "new-file").exists()
    (project / "claims.yaml").unlink()
    (project / "templates").symlink_to(victim.parent, target_is_directory=True)
    refused = claimledger("init", str(project), "--templates", code=2)
    refused_link(refused.stderr, project / "templates")
    assert sorted(p.name for p in victim.parent.iterdir()) == ["authorized_keys"]
    assert not (project / "claims.yaml").exists()  # all or nothing


# --------------------------------------------------------------------------- secrets


def test_no_secret_of_a_source_url_is_published(tmp_path: Path, page_server: PageServer) -> None:
    """A token in the query is added as given; a password is one an older (or a cloned)
    ledger holds, since `add` refuses to write one."""
    serve_v1(page_server)
    ledger = write_ledger(tmp_path, page_server)
    cli = Cli(ledger)
    url = f"{page_server.url('/guide')}?token={SECRET}&lang=en"
    cli("add", "--allow-private", "secret-page", "--url", url, "--quote", DURABLE)
    with_password = url.replace("://", f"://reader:{SECRET}@")
    ledger.write_text(ledger.read_text("utf-8").replace(url, with_password), "utf-8")
    added = load(ledger)
    (source,) = [s for s in added.sources.values() if SECRET in s.url]
    assert SECRET not in source.title and "REDACTED" in source.title
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/guide", page(NOT_DURABLE))
    outputs = [
        cli("refresh", "--allow-private", "--json", code=1).stdout,
        cli("status", "--json", code=1).stdout,
        cli("diff", "--json", code=1).stdout,
        cli("history", "secret-page", "--json").stdout,
        cli("diff", code=1).stdout,
    ]
    for fmt in ("md", "html", "json", "claimreview"):
        cli("render", "--format", fmt)
        outputs.append((ledger.parent / "out").joinpath(_report_name(fmt)).read_text("utf-8"))
    for output in outputs:
        assert SECRET not in output
    store = (ledger.parent / "out" / "evidence.sqlite3").read_bytes()
    assert SECRET.encode() not in store
    # the source is still listed, by its id, though its address is kept only redacted
    listed = [s["source_id"] for s in cli.json("status", code=1)["sources"]]
    assert listed == sorted(added.sources)
    table = cli("--plain", "status", code=1).stdout
    assert f"{source.id}\t{page_server.url('/guide')}?token=REDACTED" in table


@pytest.mark.parametrize(
    "args",
    [
        ["verify", "http://reader:{secret}@127.0.0.1:9/page", "words"],
        ["verify", "--map", "http://reader:{secret}@docs.example/=http:///x", "http://a.b/", "w"],
        ["add", "new", "--url", "http://reader:{secret}@127.0.0.1:9/page", "--quote", "w"],
        ["quote", "durable", "words", "--url", "http://reader:{secret}@10.0.0.1/x"],
        ["add", "new", "--url", "reader:{secret}@docs.example/page", "--quote", "w"],
    ],
)
def test_an_error_never_shows_the_password_of_a_url_it_names(cli: Cli, args: list[str]) -> None:
    typed = [arg.format(secret=SECRET) for arg in args]
    (line,) = cli(*typed, code=2).stderr.splitlines()
    assert SECRET not in line and "reader" not in line
    assert line.startswith("claimledger: error: ")
    assert "http://" in line or "docs.example/page" in line  # named, without its password


def test_a_ledger_problem_never_shows_the_password_of_the_url_it_names(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    broken = f"http://reader:{SECRET}@:99999/guide"
    ledger.write_text(ledger.read_text("utf-8").replace(page_server.url("/guide"), broken), "utf-8")
    refused = cli("check", "--json", code=2)
    assert SECRET not in refused.stdout + refused.stderr
    (problem,) = json.loads(refused.stdout)["problems"]
    assert problem["message"].startswith("url 'http://:99999/guide'")


@pytest.mark.parametrize(
    ("args", "option"),
    [
        (["add", "new", "--url", "{url}", "--quote", DURABLE, "--allow-private"], "--url"),
        (["quote", "ordered", DURABLE, "--url", "{url}", "--allow-private"], "--url"),
        (["move", "other", "{url}"], "NEW_URL"),
    ],
)
def test_a_url_with_a_password_is_never_written_into_the_ledger(
    cli: Cli, ledger: Path, page_server: PageServer, args: list[str], option: str
) -> None:
    """The ledger is the file people commit: a password in it is published with it."""
    before = ledger.read_text("utf-8")
    url = page_server.url("/elsewhere").replace("://", f"://reader:{SECRET}@")
    refused = cli(*[arg.format(url=url) for arg in args], code=2)
    (line,) = refused.stderr.splitlines()
    assert line.startswith(
        f"claimledger: error: {option} {page_server.url('/elsewhere')} holds a user name or "
        "password"
    )
    assert "--header 'Authorization: Basic ...'" in line and SECRET not in line
    assert ledger.read_text("utf-8") == before
    assert page_server.requests == []


def test_a_move_away_from_an_address_with_a_password_keeps_it_out_of_the_history(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    old = page_server.url("/other")
    ledger.write_text(
        ledger.read_text("utf-8").replace(old, old.replace("://", f"://reader:{SECRET}@")),
        "utf-8",
    )
    moved = cli("move", "other", page_server.url("/elsewhere"))
    assert SECRET not in moved.stdout + ledger.read_text("utf-8")
    (entry,) = load(ledger).sources["other"].history
    assert entry.moved_from == old


def test_a_move_to_an_address_the_store_keeps_redacted_is_refused(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """The store keeps a redirect's target with its token as `token=REDACTED`: that is no
    address of the page, so `move` asks for the new one rather than write it."""
    page_server.set_page("/elsewhere", page(ALARM))
    target = f"{page_server.url('/elsewhere')}?token={SECRET}"
    page_server.set_handler("/other", redirect(target, 301))
    said = cli("refresh", "--allow-private", code=1).stdout
    assert "adopt it with `claimledger move other NEW_URL`" in said
    github = cli("refresh", "--allow-private", "--format", "github", code=1).stdout
    assert "adopt it with `claimledger move other NEW_URL`" in github
    before = ledger.read_text("utf-8")
    (line,) = cli("move", "other", code=2).stderr.splitlines()
    assert "moved to an address with a secret in it" in line and "give NEW_URL" in line
    assert "token=REDACTED" in line and SECRET not in line
    assert ledger.read_text("utf-8") == before


def _report_name(fmt: str) -> str:
    return "report.claimreview.json" if fmt == "claimreview" else f"report.{fmt}"


def test_a_token_in_an_authors_link_is_redacted_in_every_format(cli: Cli, ledger: Path) -> None:
    text = ledger.read_text(encoding="utf-8").replace(
        "date_read: 2026-08-23",
        f'date_read: 2026-08-23\nabout: "See [the console](https://console.example/?api_key={SECRET})."',
    )
    ledger.write_text(text, encoding="utf-8")
    for fmt in ("md", "html", "json"):
        cli("render", "--format", fmt)
        assert SECRET not in (ledger.parent / "out" / f"report.{fmt}").read_text("utf-8")


def test_a_redirect_error_never_shows_the_credentials_of_its_target(
    cli: Cli, page_server: PageServer
) -> None:
    page_server.set_handler(
        "/guide",
        lambda exchange: exchange.respond(
            302, b"", {"Location": f"ftp://reader:{SECRET}@files.example/guide"}
        ),
    )
    report = cli.json("refresh", "--allow-private", code=1)
    errors = [s["error"] for s in report["sources"] if s["error"]]
    assert errors and all(SECRET not in e for e in errors)
    assert any("ftp://files.example/guide" in e for e in errors)


# --------------------------------------------------------------------------- scripts, terminals


def test_claimreview_can_be_embedded_in_a_page_as_it_is(cli: Cli, ledger: Path) -> None:
    hostile = "</script><script>alert(1)</script><!--"
    text = ledger.read_text(encoding="utf-8")
    ledger.write_text(
        text.replace("statement: Every alarm runs.", f'statement: "{hostile}"'), "utf-8"
    )
    cli("render", "--format", "claimreview")
    written = (ledger.parent / "out" / "report.claimreview.json").read_text("utf-8")
    assert "<" not in written and ">" not in written and "&" not in written
    (review,) = [r for r in json.loads(written) if r["claimReviewed"] == hostile]
    assert review["@type"] == "ClaimReview"


TERMINAL_TRICKS = "\x1b]0;owned\x07\x1b[2J\x1b[31mred\x9b31m"


def test_page_text_cannot_drive_the_readers_terminal(page_server: PageServer) -> None:
    page_server.set_page(
        "/plain",
        f"Storage writes are durable before the {TERMINAL_TRICKS} reply reaches anyone.\n",
        content_type="text/plain; charset=utf-8",
    )
    quote = "Storage writes are durable before the reply reaches anyone."
    url = page_server.url("/plain")
    shown = claimledger("verify", "--allow-private", url, quote, code=1).stdout
    assert "\x1b" not in shown and "\x07" not in shown and "\x9b" not in shown
    assert "␛]0;owned" in shown and "␛[2J" in shown  # shown as what it is, not obeyed
    as_json = claimledger("verify", "--allow-private", url, quote, "--json", code=1).stdout
    assert "\x1b" not in as_json and "\x9b" not in as_json
    assert "\\u001b]0;owned" in as_json and "\\u009b" in as_json


@pytest.mark.parametrize(
    "title", ["https://docs.trusted.example/guide", "Sign in: www.trusted.example"]
)
def test_a_page_title_naming_an_address_never_becomes_the_text_of_its_link(
    cli: Cli, ledger: Path, page_server: PageServer, title: str
) -> None:
    """A source's title is its link's text in the report: a page titled with another
    address would make that link read as one to it. The source is titled by its own."""
    page_server.set_page(
        "/spoof", f"<html><head><title>{title}</title></head><body><main><p>{DURABLE}</p></main>"
    )
    url = page_server.url("/spoof")
    cli("add", "--allow-private", "spoofed", "--url", url, "--quote", DURABLE)
    (source,) = [s for s in load(ledger).sources.values() if s.url == url]
    assert source.title == url
    for fmt in ("md", "html"):
        cli("render", "--format", fmt)
        assert "trusted" not in (ledger.parent / "out" / f"report.{fmt}").read_text("utf-8")


def test_a_page_title_of_any_length_is_cut_at_a_word_for_its_source(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """A title of 140 KB went whole into claims.yaml."""
    title = "Limits " * 20_000
    page_server.set_page(
        "/long", f"<html><head><title>{title}</title></head><body><main><p>{DURABLE}</p></main>"
    )
    url = page_server.url("/long")
    cli("add", "--allow-private", "long", "--url", url, "--quote", DURABLE)
    (source,) = [s for s in load(ledger).sources.values() if s.url == url]
    assert len(source.title) <= 201 and source.title.endswith("Limits…"), source.title
    assert ledger.stat().st_size < 20_000
    assert title_cut("ab " * 100) == "ab " * 66 + "ab…"  # a word ending at the cut is kept


@pytest.mark.parametrize("separator", ["\u2028", "\u2029"])
def test_a_line_separator_in_what_we_print_is_shown_not_obeyed(cli: Cli, separator: str) -> None:
    """A terminal or a log viewer may break a line at U+2028 or U+2029: an error line
    naming what the user typed stays one line, the separator shown as its marker."""
    said = cli("explain", f"x{separator}y", code=2).stderr
    assert separator not in said
    assert f"no claim 'x⟨U+{ord(separator):04X}⟩y'" in said


def test_a_template_that_asks_for_too_much_is_a_template_error(cli: Cli, ledger: Path) -> None:
    templates = ledger.parent / "templates"
    templates.mkdir()
    (templates / "report.md.j2").write_text("{{ 'x' * 10**10 }}\n", encoding="utf-8")
    cli("trust")
    (line,) = cli("render", code=2).stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "report.md.j2:1" in line
    assert "asks for 10,000,000,000 characters" in line
    assert not (ledger.parent / "out" / "report.md").exists()


# --------------------------------------------------------------------------- damage and disks


def test_a_damaged_row_is_skipped_with_a_warning(cli: Cli, ledger: Path) -> None:
    cli("refresh", "--allow-private", code=0)
    store = ledger.parent / "out" / "evidence.sqlite3"
    with sqlite3.connect(store) as db:  # a row no version of claimledger writes
        row = db.execute("SELECT * FROM checks ORDER BY id LIMIT 1").fetchone()
        columns = [d[0] for d in db.execute("SELECT * FROM checks LIMIT 0").description]
        values = dict(zip(columns, row, strict=True))
        values.update(id=None, changed_json="{not json", checked_at="2999-01-01T00:00:00+00:00")
        marks = ", ".join("?" for _ in columns)
        db.execute(
            f"INSERT INTO checks ({', '.join(columns)}) VALUES ({marks})", list(values.values())
        )
    result = cli("status", code=1)  # the quote's latest check cannot be read: not checked
    assert "1 damaged row of" in result.stderr and "skipped" in result.stderr
    assert cli.json("diff", code=0)["checks"] == []


def _limit_file_size(limit: int) -> None:
    """In the child: files may not grow past `limit` bytes, and passing it is an error
    (EFBIG), not a signal, as a full disk is an error (ENOSPC)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
def test_a_disk_that_refuses_the_write_is_a_plain_error_and_the_ledger_is_kept(
    ledger: Path,
) -> None:
    before = ledger.read_bytes()
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "grade", "durable",
         "CLAIMED", "--because", "a full disk"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: _limit_file_size(len(before) - 1),
        check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("claimledger: error: cannot write ")
    assert "larger than this system allows" in line and "nothing was written" in line
    assert ledger.read_bytes() == before


@pytest.mark.skipif(not hasattr(resource, "RLIMIT_FSIZE"), reason="needs RLIMIT_FSIZE")
def test_a_disk_that_fills_while_the_store_is_made_is_no_damaged_store(ledger: Path) -> None:
    """The disk fills as a new store's tables are written: SQLite rolls the transaction
    back itself, and the command said "cannot rollback - no transaction is active ...
    move it aside", blaming a store that is only unfinished, for the error it hid."""
    done = subprocess.run(
        [sys.executable, "-m", "claimledger", "--ledger", str(ledger), "refresh",
         "--allow-private"],
        capture_output=True,
        text=True,
        timeout=60,
        preexec_fn=lambda: _limit_file_size(64 * 1024),
        check=False,
    )  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = done.stderr.splitlines()
    assert line.startswith("claimledger: error: ") and "cannot be opened or written" in line
    assert "rollback" not in line and "move it aside" not in line
    claimledger("--ledger", str(ledger), "refresh", "--allow-private", code=0)  # room again


@pytest.mark.skipif(not Path("/sys").is_dir(), reason="needs a /sys that refuses new files")
def test_a_store_where_nothing_may_be_written_is_a_plain_error(cli: Cli) -> None:
    result = claimledger(
        "--ledger", str(cli.ledger), "--evidence", "/sys/claimledger-test/evidence.sqlite3",
        "refresh", "--allow-private", code=2,
    )  # fmt: skip
    (line,) = result.stderr.splitlines()
    assert line.startswith("claimledger: error: cannot open /sys/claimledger-test/")


def test_a_second_regrade_write_says_it_applied_nothing(cli: Cli, page_server: PageServer) -> None:
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/guide", page("An opening line."))
    page_server.set_page("/mirror", page("Nothing here now."))
    cli("refresh", "--allow-private", code=1)
    first = cli("regrade", "--write", code=0)
    assert "applied 2 grade changes" in first.stderr
    second = cli("regrade", "--write", code=0)  # what this run applied: nothing
    assert "applied" not in second.stderr
