"""Where `render` writes and what it remembers: stdout for `-o -`, the format an output's
name asks for, the ClaimReview's address, and the render state kept in the evidence store
(not in a hidden file beside each report)."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import stat
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import jinja2
import pytest

from claimledger.errors import TemplateError
from claimledger.evidence.store import EvidenceStore
from claimledger.report import templates as templates_module
from claimledger.report.templates import Templates
from cli_runner import SCRIPT, Cli

FIXTURE = Path(__file__).resolve().parent / "data" / "render_fixture.yaml"
BASE = "https://example.org/teardowns/platform.html"


@pytest.fixture
def cli(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Cli:
    """The report fixture as a project of its own, run from its directory."""
    project = tmp_path / "project"
    project.mkdir()
    shutil.copyfile(FIXTURE, project / "claims.yaml")
    monkeypatch.chdir(project)
    return Cli(project / "claims.yaml")


def what_changed(markdown: str) -> str:
    return markdown.split("## What changed since the last render", 1)[1].split("\n## ", 1)[0]


# --------------------------------------------------------------------------- names


def test_an_output_name_longer_than_the_system_allows_is_refused_in_one_line(cli: Cli) -> None:
    name = "x" * 300 + ".md"
    said = cli("render", "-o", name, code=2).stderr
    assert said.count("\n") == 1 and "a name in the path is longer than this system allows" in said
    assert not [path for path in Path().iterdir() if path.name.startswith(("x", ".x"))]


def test_an_output_that_is_a_fifo_is_refused_and_left_as_it_is(cli: Cli) -> None:
    """The report was renamed over the FIFO (over a device too, as root), and said "wrote"."""
    os.mkfifo("r.md")
    said = cli("render", "-o", "r.md", code=2).stderr
    assert (
        said
        == "claimledger: error: r.md is a FIFO (a named pipe), where the report should be a file\n"
    )
    assert stat.S_ISFIFO(os.lstat("r.md").st_mode)


@pytest.mark.parametrize(
    ("output", "what"),
    [
        ("claims.yaml", "the ledger"),
        ("./hard-link.md", "the ledger"),
        (".claims.yaml.lock", "the ledger's lock"),
        ("out/evidence.sqlite3", "the evidence store"),
        ("out/evidence.sqlite3-wal", "the evidence store"),
    ],
)
def test_an_output_that_is_the_ledger_or_the_store_is_refused_and_left_as_it_is(
    cli: Cli, output: str, what: str
) -> None:
    """`render -f md -o claims.yaml` replaced the ledger with the report (and `-o` at the
    evidence store, the store), said "wrote" and exited 0: the reading was lost."""
    cli("render", "-o", "first.md")  # the store exists
    os.link("claims.yaml", "hard-link.md")
    kept = {path: path.read_bytes() for path in (Path("claims.yaml"), Path("out/evidence.sqlite3"))}
    said = cli("render", "-f", "md", "-o", output, code=2).stderr
    assert said == (
        f"claimledger: error: --output {Path(output)}: that is {what}, which a report never "
        "replaces\n"
    )
    assert {path: path.read_bytes() for path in kept} == kept
    cli("check")


def test_an_output_that_is_a_loop_of_links_is_refused_in_one_line(cli: Cli) -> None:
    Path("loop2").symlink_to("loop1")
    Path("loop1").symlink_to("loop2")
    said = cli("render", "-o", "loop1", "-f", "md", code=2).stderr
    assert said == "claimledger: error: cannot use loop1: the path is a loop of symbolic links\n"


def test_an_output_name_just_under_the_limit_is_written(cli: Cli) -> None:
    """The report's temporary, named beside it and longer than it, is shortened rather
    than failing where the report's own name does not."""
    name = "x" * 251 + ".md"
    cli("render", "-o", name)
    assert Path(name).read_text(encoding="utf-8").startswith("# Fixture teardown")
    cli("render", "-o", name)  # the second compares with the first
    assert sorted(path.name for path in Path().iterdir()) == ["claims.yaml", "out", name]


# --------------------------------------------------------------------------- stdout


def test_dash_writes_the_report_to_stdout_and_no_file(cli: Cli) -> None:
    result = cli("render", "-o", "-")
    assert result.stdout.startswith("# Fixture teardown")
    assert "wrote" not in result.stdout
    assert not Path("-").exists()
    reviews = json.loads(cli("render", "-o", "-", "-f", "claimreview").stdout)
    assert reviews and all(review["@type"] == "ClaimReview" for review in reviews)


def test_a_file_called_dash_is_still_possible(cli: Cli) -> None:
    cli("render", "-o", "./-", code=2)  # its name asks for no format
    result = cli("render", "-o", "./-", "-f", "md")
    assert Path("-").read_text(encoding="utf-8").startswith("# Fixture teardown")
    assert "wrote -" in result.stdout


# --------------------------------------------------------------------------- the format


@pytest.mark.parametrize(
    ("name", "starts"),
    [
        ("r.md", "# Fixture"),
        ("r.markdown", "# Fixture"),
        ("r.html", "<!DOCTYPE html>"),
        ("R.HTM", "<!DOCTYPE html>"),
        ("r.json", "{"),
        ("r.claimreview.json", "["),
    ],
)
def test_the_format_follows_the_outputs_name(cli: Cli, name: str, starts: str) -> None:
    cli("render", "-o", name)
    assert Path(name).read_text(encoding="utf-8").startswith(starts)


def test_an_explicit_format_wins_over_the_name(cli: Cli) -> None:
    cli("render", "-o", "r.html", "--format", "md")
    assert Path("r.html").read_text(encoding="utf-8").startswith("# Fixture")


def test_a_name_that_asks_for_no_format_is_refused(cli: Cli) -> None:
    result = cli("render", "-o", "report.txt", code=2)
    (line,) = result.stderr.splitlines()
    assert line.startswith("claimledger: error: --output report.txt: its name does not say")
    for word in (".md", ".html", ".json", ".claimreview.json", "md, html, json, claimreview"):
        assert word in line
    assert not Path("report.txt").exists()


# --------------------------------------------------------------------------- ClaimReview's url


def test_without_a_base_url_the_reviews_have_no_url_and_stderr_says_so_once(cli: Cli) -> None:
    result = cli("render", "-f", "claimreview", "-o", "-")
    (note,) = result.stderr.splitlines()
    assert note.startswith("claimledger: note: no --base-url")
    assert not [review for review in json.loads(result.stdout) if "url" in review]
    assert cli("render", "-f", "md").stderr == ""  # Markdown carries no ClaimReview


def test_a_base_url_makes_every_review_absolute(cli: Cli) -> None:
    result = cli("render", "-f", "html", "-o", "r.html", "--base-url", BASE)
    assert result.stderr == ""
    reviews = json.loads(cli("render", "-f", "claimreview", "-o", "-", "--base-url", BASE).stdout)
    assert {review["url"].split("#")[0] for review in reviews} == {BASE}
    assert all(review["@id"] == review["url"] for review in reviews)
    assert f'"url": "{BASE}#claim-' in Path("r.html").read_text(encoding="utf-8")


def test_a_claim_with_a_blank_statement_is_reviewed_under_its_title(cli: Cli) -> None:
    """A statement left blank in the ledger was the review's `claimReviewed` as it was,
    "", which a reader of ClaimReview takes for the field missing."""
    ledger = Path("claims.yaml")
    text = ledger.read_text(encoding="utf-8")
    blank = "    statement: Each object has exactly one writer at any one time.\n"
    ledger.write_text(text.replace(blank, '    statement: "  "\n'), encoding="utf-8")
    reviews = json.loads(cli("render", "-f", "claimreview", "-o", "-", "--base-url", BASE).stdout)
    assert all(review["claimReviewed"] for review in reviews)
    (review,) = [r for r in reviews if r["@id"].endswith("#claim-verified-two")]
    assert review["claimReviewed"] == "One writer at a time"


def test_a_base_url_with_a_password_is_refused_without_showing_it(cli: Cli) -> None:
    result = cli("render", "--base-url", "https://me:hunter2@example.org/r.html", code=2)
    assert "hunter2" not in result.stderr and "--base-url" in result.stderr


@pytest.mark.parametrize(
    "base",
    [
        "https://example.org:99999/r.html",
        "https://example.org:x/r.html",
        "https://example.org/\u202er.html",
    ],
)
def test_a_base_url_no_client_can_use_is_refused_and_nothing_is_written(
    cli: Cli, base: str
) -> None:
    """A port out of range or not a number, or a right-to-left override, was taken as the
    address and written into every review's `@id` and `url`, which no reader can resolve."""
    said = cli(
        "render", "-f", "claimreview", "-o", "r.claimreview.json", "--base-url", base, code=2
    )
    (line,) = said.stderr.splitlines()
    assert (
        line.startswith("claimledger: error: --base-url ")
        and not Path("r.claimreview.json").exists()
    )


# --------------------------------------------------------------------------- the render state


def test_the_render_state_is_kept_in_the_evidence_store(cli: Cli) -> None:
    store = Path("out/evidence.sqlite3")
    assert not store.exists()
    first = cli("render")  # no store yet: render makes one
    assert "First render" in what_changed(Path("out/report.md").read_text(encoding="utf-8"))
    assert store.exists() and first.stdout.rstrip().endswith("out/report.md")
    cli("render")
    assert "Nothing changed since the render of" in what_changed(
        Path("out/report.md").read_text(encoding="utf-8")
    )
    assert "First render" in what_changed(cli("render", "-o", "-").stdout)  # an output of its own
    assert not list(Path().rglob(".*.state.json"))
    with EvidenceStore.open(store, readonly=True) as evidence:
        kept = evidence.last_render_state("md", "out/report.md")
        assert kept is not None and kept["claimledger_render_state"] == 1
        assert evidence.last_render_state("md", "-") is not None
        assert evidence.last_render_state("html", "out/report.md") is None


def test_a_state_file_an_earlier_version_left_is_read_once(cli: Cli) -> None:
    hidden = Path("out/.report.md.state.json")
    hidden.parent.mkdir()
    earlier = {"claimledger_render_state": 1, "generated_on": "2026-09-01", "grades": {}}
    hidden.write_text(json.dumps(earlier), encoding="utf-8")
    cli("render")
    since = what_changed(Path("out/report.md").read_text(encoding="utf-8"))
    assert "since the render of 2026-09-01" in since and "new claim" in since
    cli("render")
    assert "Nothing changed" in what_changed(Path("out/report.md").read_text(encoding="utf-8"))
    assert json.loads(hidden.read_text(encoding="utf-8")) == earlier  # read, never rewritten


def test_a_store_that_cannot_be_written_still_gives_the_report(cli: Cli) -> None:
    Path("blocker").write_text("a file where the store's directory would be", encoding="utf-8")
    result = cli("--evidence", "blocker/evidence.sqlite3", "render")
    assert "claimledger: warning: " in result.stderr
    assert "the next render cannot say what changed" in result.stderr
    assert Path("out/report.md").read_text(encoding="utf-8").startswith("# Fixture")


@pytest.mark.parametrize("fmt", ["json", "claimreview"])
def test_json_on_stdout_cannot_drive_the_terminal(cli: Cli, fmt: str) -> None:
    text = cli.ledger.read_text(encoding="utf-8")
    hostile = 'statement: "Each object has \\x9b31m\\x7f exactly one writer at any one time."'
    cli.ledger.write_text(
        text.replace("statement: Each object has exactly one writer at any one time.", hostile),
        encoding="utf-8",
    )
    shown = cli("render", "-o", "-", "-f", fmt).stdout
    assert "\x9b" not in shown and "\x7f" not in shown
    assert "\\u009b31m\\u007f exactly" in shown  # the same JSON value, escaped


@pytest.mark.parametrize("fmt", ["md", "html", "json", "claimreview"])
def test_no_line_break_of_a_title_but_a_newline_reaches_the_terminal(cli: Cli, fmt: str) -> None:
    """A carriage return in the ledger's title or a claim's was printed raw in the HTML
    report's <title> and headings: on a terminal it sent the cursor back, to overwrite
    what came before it. A vertical tab, a form feed or NEL, no character of a page."""
    text = cli.ledger.read_text(encoding="utf-8")
    titled = text.replace(
        'title: "Fixture teardown: gates', 'title: "Fixture\\rteardown\\v\\f\\x85: gates', 1
    ).replace("    title: The seam", '    title: "The\\r\\nseam\\rbelow"', 1)
    assert titled.count("\\r") == 3
    # the author's Markdown too (the about, intros, claims' words)
    titled, found = re.subn(
        r"^about: \|\n(?:(?:  .*)?\n)+(?=\S)",
        lambda _: 'about: "Ruled\\vby\\fthe\\x85gate."\n',
        titled,
        count=1,
        flags=re.MULTILINE,
    )
    assert found == 1
    cli.ledger.write_text(titled, encoding="utf-8")

    shown = cli("render", "-o", "-", "-f", fmt).stdout_bytes.decode("utf-8")

    assert not [char for char in shown if char in "\r\v\f\x85"]
    if fmt == "html":
        assert "<title>Fixture\nteardown\n\n\n: gates" in shown
        assert ">The\nseam\nbelow</h2>" in shown


# --------------------------------------------------------------------------- written as it comes

WRITES_THEN_FAILS = (
    "{% for claim in report.claims %}{{ claim.title }}\n{% endfor %}"
    "{{ 'padding ' * 20000 }}{{ no_such_name }}"
)


def test_a_template_that_fails_halfway_leaves_the_last_report_as_it_was(
    cli: Cli, tmp_path: Path
) -> None:
    """The report is written to its file as the template lays it out: a template that
    fails after writing much of it leaves the report of the last render, whole, and no
    temporary file beside it."""
    cli("render", "-o", "out/report.md")
    before = Path("out/report.md").read_bytes()
    listing = sorted(path.name for path in Path("out").iterdir())
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "report.md.j2").write_text(WRITES_THEN_FAILS, encoding="utf-8")

    failed = cli("render", "-o", "out/report.md", "--templates", str(templates), code=2)

    assert failed.stderr.count("\n") == 1 and "no_such_name" in failed.stderr
    assert Path("out/report.md").read_bytes() == before
    assert sorted(path.name for path in Path("out").iterdir()) == listing


def test_a_render_killed_while_it_writes_leaves_the_last_report_whole(
    cli: Cli, tmp_path: Path
) -> None:
    cli("render", "-o", "out/report.md")
    before = Path("out/report.md").read_bytes()
    listing = sorted(path.name for path in Path("out").iterdir())
    templates = tmp_path / "templates"
    templates.mkdir()
    (templates / "report.md.j2").write_text(
        "{% for i in range(100000) %}{% for j in range(100) %}{{ j }} {% endfor %}{% endfor %}",
        encoding="utf-8",
    )
    command = [str(SCRIPT), "--ledger", str(cli.ledger), "render", "-o", "out/report.md"]
    render = subprocess.Popen(
        [*command, "--templates", str(templates)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        written = _wait_for_a_file_being_written(render.pid, at_least=1 << 20)
    finally:
        render.send_signal(signal.SIGKILL)
        render.wait()

    assert written  # it was killed while the new report was half written
    assert Path("out/report.md").read_bytes() == before
    left = sorted(p.name for p in Path("out").iterdir() if not p.name.startswith("evidence."))
    assert left == [name for name in listing if not name.startswith("evidence.")]


def _wait_for_a_file_being_written(pid: int, *, at_least: int) -> bool:
    """Whether process `pid` came to hold a regular file of `at_least` bytes open for
    writing, other than the evidence store (watched through /proc until it exits)."""
    fds = Path(f"/proc/{pid}/fd")
    while fds.exists():
        for fd in list(fds.iterdir()) if fds.exists() else []:
            try:
                target, size = str(fd.readlink()), fd.stat().st_size
            except OSError:
                continue
            if "evidence.sqlite3" not in target and "/out" in target and size >= at_least:
                return True
        if _exited(pid):
            return False
    return False


def _exited(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return True
    return state in ("Z", "X")


def test_a_report_is_handed_on_in_pieces_that_make_the_whole() -> None:
    source = "{% for i in range(20000) %}line {{ i }}\n{% endfor %}"
    templates = Templates(jinja2.DictLoader({"report.md.j2": source}))

    pieces = list(templates.chunks("report.md.j2"))

    assert len(pieces) > 1
    assert "".join(pieces) == templates.render("report.md.j2")
    assert "".join(pieces).endswith("line 19999\n")


def test_the_reports_json_made_a_claim_at_a_time_is_the_json_made_whole(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A report's JSON is written as its sections and claims are walked, in pieces cut
    anywhere; joined, they are the JSON of the whole report's data, escaped alike."""
    from claimledger.ledger.file import load
    from claimledger.report import formats
    from test_render import build, fixture_checks, fixture_previous

    ledger = load(FIXTURE)
    report = build(ledger, fixture_checks(ledger), fixture_previous(ledger))
    monkeypatch.setattr(formats, "PIECE", 7)

    pieces = list(formats.JsonFormat().chunks(report))

    assert len(pieces) > 100
    assert "".join(pieces) == formats.JsonFormat().render(report)
    assert json.loads("".join(pieces)) == json.loads(json.dumps(formats.report_data(report)))


def test_a_template_past_its_time_is_stopped_with_one_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(templates_module, "MAX_SECONDS", 0.2)
    slow = "{% for i in range(100000) %}{% for j in range(100000) %}{{ j }}{% endfor %}{% endfor %}"
    templates = Templates(jinja2.DictLoader({"report.md.j2": slow}))

    with pytest.raises(TemplateError, match=r"report.md.j2: the report took longer than 0 s"):
        for _ in templates.chunks("report.md.j2"):
            pass


@pytest.fixture
def small_disk(tmp_path: Path) -> Iterator[Path]:
    """A tmpfs of its own, which a test may remount read-only (root only)."""
    disk = tmp_path / "disk"
    disk.mkdir()
    mounted = subprocess.run(
        ["mount", "-t", "tmpfs", "-o", "size=16m", "tmpfs", str(disk)], capture_output=True
    )
    if mounted.returncode != 0:
        pytest.skip("mounting a tmpfs needs root")
    try:
        yield disk
    finally:
        subprocess.run(["umount", "-l", str(disk)], check=True)


LEAVE_A_LOG = """
import datetime as dt, os, sys
from claimledger.evidence.store import EvidenceStore
store = EvidenceStore.open(sys.argv[1])
store.record_render_state("md", "x", {"claimledger_render_state": 1}, dt.datetime.now(dt.UTC))
os._exit(0)  # as a killed run ends: the write-ahead log left, never checkpointed
"""


def test_a_store_on_a_read_only_disk_a_killed_run_left_a_log_to_gives_the_report(
    small_disk: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SQLite opens such a store, for reading only: keeping the render's state failed as
    a write, and the report to stdout ended in an error (exit 2)."""
    shutil.copyfile(FIXTURE, small_disk / "claims.yaml")
    monkeypatch.chdir(small_disk)
    cli = Cli(small_disk / "claims.yaml")
    cli("render", "-o", "-")
    subprocess.run([sys.executable, "-c", LEAVE_A_LOG, "out/evidence.sqlite3"], check=True)
    assert Path("out/evidence.sqlite3-wal").stat().st_size > 0
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)
    result = cli("render", "-o", "-")
    assert result.stdout.startswith("# Fixture teardown")
    assert (
        "read-only" in result.stderr and "the next render cannot say what changed" in result.stderr
    )


def test_a_report_refused_by_a_read_only_disk_is_named_as_asked(small_disk: Path) -> None:
    """The error names the report, not the temporary written beside it first."""
    shutil.copyfile(FIXTURE, small_disk / "claims.yaml")
    (small_disk / "out").mkdir()
    subprocess.run(["mount", "-o", "remount,ro", str(small_disk)], check=True)

    result = Cli(small_disk / "claims.yaml")(
        "render", "-o", str(small_disk / "out/report.md"), code=2
    )

    error = [line for line in result.stderr.splitlines() if "error:" in line]
    assert len(error) == 1 and "out/report.md: the file system is read-only" in error[0]
    assert ".tmp" not in result.stderr, result.stderr
