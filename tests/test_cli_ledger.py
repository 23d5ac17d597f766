"""The ledger commands through the real command line: check, schema, init, grade.

Each test runs `claimledger` as a user would (typer's CliRunner in this process, or
a subprocess where the process itself matters: `python -m`, another working
directory, the exit code of an internal error) and checks exit codes, what is
printed where, and what ends up on disk.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import subprocess
import sys
from collections import Counter
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from typer.testing import Result

from claimledger import __version__
from claimledger.errors import ExitCode
from claimledger.ledger import file as ledgerfile
from claimledger.ledger.file import load
from claimledger.ledger.vocabulary import Grade
from cli_runner import claimledger

GRADES = ["DEMONSTRATED", "CLAIMED", "SPECULATIVE", "UNKNOWN"]
BUNDLED_LEDGER = Path(__file__).parent.parent / "claims.yaml"

TWO_FACETS = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{id: main, title: Main}]
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
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}
      - {on: holds at the crash boundary, grade: UNKNOWN, basis: judgement}
"""


def run_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "claimledger", *args],
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=60,
        check=False,
    )


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "claims.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def grade_counts(path: Path) -> tuple[int, int, dict[str, int]]:
    """Claims, sources and facets per grade, counted from the raw YAML, not by the tool."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    grades = Counter(facet["grade"] for claim in data["claims"] for facet in claim["grades"])
    return len(data["claims"]), len(data["sources"]), {g: grades[g] for g in GRADES}


def assert_input_error(result: Result, *parts: str) -> None:
    """Exit 2 (the runner checked it) and one `claimledger: error:` line naming every part,
    no traceback."""
    lines = result.stderr.splitlines()
    assert len(lines) == 1, lines
    assert lines[0].startswith("claimledger: error: ")
    for part in parts:
        assert part in lines[0]
    assert "Traceback" not in result.output


class EditorYamlLoader(yaml.SafeLoader):
    """YAML as editors' language servers read it (the 1.2 core schema).

    No timestamps (a date stays text, as the schema expects) and only true/false are
    booleans, so a key such as `on` stays the word "on".
    """


_BOOL = "tag:yaml.org,2002:bool"
_TIMESTAMP = "tag:yaml.org,2002:timestamp"
EditorYamlLoader.yaml_implicit_resolvers = {
    first: [(tag, rx) for tag, rx in resolvers if tag not in (_BOOL, _TIMESTAMP)]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()
}
EditorYamlLoader.add_implicit_resolver(
    _BOOL, re.compile(r"^(?:true|True|TRUE|false|False|FALSE)$"), list("tTfF")
)


def as_an_editor_reads_it(path: Path) -> Any:
    return yaml.load(path.read_text(encoding="utf-8"), Loader=EditorYamlLoader)  # a SafeLoader


def printed_schema() -> dict[str, Any]:
    result = claimledger("schema")
    schema: dict[str, Any] = json.loads(result.stdout)
    return schema


@pytest.fixture
def scaffold(tmp_path: Path) -> Path:
    """A fresh `claimledger init` in tmp_path/project; the path of its claims.yaml."""
    claimledger("init", str(tmp_path / "project"))
    return tmp_path / "project" / "claims.yaml"


# --------------------------------------------------------------------------- check


def test_check_prints_the_counts_of_a_valid_ledger(scaffold: Path) -> None:
    result = claimledger("--ledger", str(scaffold), "check")
    claims, sources, grades = grade_counts(scaffold)
    by_grade = ", ".join(f"{n} {grade}" for grade, n in grades.items())
    facets = sum(grades.values())
    assert (claims, sources, facets) == (1, 1, 1)  # the scaffold: each counted in the singular
    assert result.stdout == f"{scaffold}: ok: 1 claim, 1 source, 1 facet ({by_grade})\n"
    assert result.stderr == ""


def test_check_json_has_the_counts_in_grade_order(scaffold: Path) -> None:
    result = claimledger("--ledger", str(scaffold), "check", "--json")
    report = json.loads(result.stdout)
    claims, sources, grades = grade_counts(scaffold)
    assert report == {
        "schema_version": 2,
        "ledger": str(scaffold),
        "valid": True,
        "problems": [],
        "claims": claims,
        "sources": sources,
        "facets": sum(grades.values()),
        "grades": grades,
    }
    assert list(report["grades"]) == GRADES


def test_check_the_bundled_ledger() -> None:
    result = claimledger("--ledger", str(BUNDLED_LEDGER), "check", "--json")
    report = json.loads(result.stdout)
    claims, sources, grades = grade_counts(BUNDLED_LEDGER)
    assert (report["claims"], report["sources"], report["grades"]) == (claims, sources, grades)
    assert claims > 0 and all(grades[g] > 0 for g in GRADES)


def test_check_a_bad_ledger_exits_2_with_its_problems(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_FACETS.replace("grade: UNKNOWN", "grade: UNKOWN"))
    result = claimledger("--ledger", str(path), "check", code=2)
    assert result.stdout == ""
    first, summary = result.stderr.splitlines()
    assert first.startswith(f"{path}:17:")
    assert "(did you mean 'UNKNOWN'?)" in first
    assert summary == "claimledger: error: 1 problem in the ledger"


ONE_VENDOR_TWO_NAMES = """\
ledger: 1
title: A reading
date_read: 2026-01-15
sections: [{id: main, title: Main}]
sources:
  docs: {url: "https://docs.vendor.com/a", title: Docs, kind: docs, publisher: Vendor docs team}
  news: {url: "https://news.other.org/a", title: News, kind: blog, publisher: other.org}
  blog: {url: BLOG_URL, title: Blog, kind: blog, publisher: BLOG_PUBLISHER}
claims:
  - id: purge
    section: main
    title: Purge
    kind: guarantee
    statement: Deleted data is purged.
    quotes:
      - {text: "Deleted data is purged.", sources: [docs, news, blog]}
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
"""


def test_check_warns_of_two_publishers_on_one_domain(tmp_path: Path) -> None:
    """One vendor's docs and blog, written as two publishers, would count as two
    independent sources: `check` says so where the second is, and still exits 0."""
    text = ONE_VENDOR_TWO_NAMES.replace("BLOG_URL", '"https://blog.vendor.com/a"')
    path = write(tmp_path, text.replace("BLOG_PUBLISHER", "Vendor blog team"))
    result = claimledger("--ledger", str(path), "check")
    assert result.stdout.startswith(f"{path}: ok: 1 claim, 3 sources")
    [warning] = result.stderr.splitlines()
    assert warning.startswith(f"{path}:8:3: warning: source blog (publisher 'Vendor blog team')")
    assert "and source docs (publisher 'Vendor docs team') are both on vendor.com" in warning
    assert "`claimledger source blog --publisher 'Vendor docs team'`" in warning


@pytest.mark.parametrize(
    ("url", "publisher"),
    [
        ("https://blog.vendor.com/a", "VENDOR DOCS TEAM"),
        ("https://blog.vendor.com/a", "Vendor blog team, independent: true"),
        ("https://blog.vendor.example/a", "Vendor blog team"),
        ("https://blog.vendor.org/a", "Vendor blog team"),
        ("http://127.0.0.1:8000/a", "Vendor blog team"),
    ],
)
def test_check_is_silent_of_one_publisher_or_one_marked_independent(
    tmp_path: Path, url: str, publisher: str
) -> None:
    """One name in two cases is one publisher; `independent: true` is the author's word;
    another domain is another publisher's; a special-use or local address says nothing of
    who publishes."""
    text = ONE_VENDOR_TWO_NAMES.replace("BLOG_URL", f'"{url}"')
    path = write(tmp_path, text.replace("BLOG_PUBLISHER", publisher))
    assert claimledger("--ledger", str(path), "check").stderr == ""


def test_ledger_given_from_another_working_directory(tmp_path: Path) -> None:
    project = tmp_path / "some" / "dir"
    project.mkdir(parents=True)
    write(project, TWO_FACETS)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    done = run_process("--ledger", "../some/dir/claims.yaml", "check", cwd=elsewhere)
    assert done.returncode == ExitCode.OK, done.stderr
    assert done.stdout.startswith("../some/dir/claims.yaml: ok: 1 claim")
    graded = run_process(
        "--ledger", "../some/dir/claims.yaml", "grade", "input-gate", "CLAIMED",
        "--because", "from elsewhere", cwd=elsewhere,
    )  # fmt: skip
    assert graded.returncode == ExitCode.OK, graded.stderr
    assert load(project / "claims.yaml").claim("input-gate").history[0].why == "from elsewhere"
    assert list(elsewhere.iterdir()) == [], "nothing may be written where the command ran"
    assert ledgerfile.lock_path(project / "claims.yaml").exists()


def test_the_default_ledger_is_claims_yaml_here(
    scaffold: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(scaffold.parent)
    result = claimledger("check")
    assert result.stdout.startswith("claims.yaml: ok: ")


# --------------------------------------------------------------------------- schema


def test_schema_prints_a_valid_json_schema() -> None:
    schema = printed_schema()
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    jsonschema.Draft202012Validator.check_schema(schema)
    assert set(schema["required"]) >= {"ledger", "title", "date_read", "sources", "claims"}


@pytest.mark.parametrize("which", ["scaffold", "bundled"])
def test_schema_accepts_the_scaffold_and_the_bundled_ledger(scaffold: Path, which: str) -> None:
    path = scaffold if which == "scaffold" else BUNDLED_LEDGER
    jsonschema.Draft202012Validator(printed_schema()).validate(as_an_editor_reads_it(path))


@pytest.mark.parametrize(
    ("mistake", "replacement"),
    [
        ("grade: DEMONSTRATED", "grade: DEMONSTRATD"),
        ("kind: guarantee", "kind: promise"),
        ("url: https://www.rfc-editor.org/", "url: ftp://www.rfc-editor.org/"),
        ("date_read: TODAY", "date_read: 15/01/2026"),
        ("date_read: TODAY", "date_read: 2026-02-30"),
        ("date_read: TODAY", "date_read: 2100-02-29"),
        ("    statement:", "    statment:"),
    ],
)
def test_schema_rejects_what_the_loader_rejects(
    scaffold: Path, mistake: str, replacement: str
) -> None:
    text = scaffold.read_text(encoding="utf-8")
    mistake = mistake.replace("TODAY", dt.date.today().isoformat())  # init dates it today
    assert mistake in text
    scaffold.write_text(text.replace(mistake, replacement), encoding="utf-8")
    validator = jsonschema.Draft202012Validator(printed_schema())
    assert not validator.is_valid(as_an_editor_reads_it(scaffold))
    claimledger("--ledger", str(scaffold), "check", code=2)


def test_a_quote_longer_than_a_passage_is_refused_in_one_line(scaffold: Path) -> None:
    """A quote of a page, not a passage, would hold every refresh in the matcher's word
    by word weighing (its time grows with the square of the quote's words where they
    repeat): check refuses it where it stands, in one line that does not repeat it."""
    text = scaffold.read_text(encoding="utf-8")
    quoted = "      - text: 'This word,"
    assert quoted in text
    long = " ".join(["ba"] * 1400)  # 4,199 characters
    scaffold.write_text(text.replace(quoted, f"      - text: '{long} This word,"), "utf-8")
    assert not jsonschema.Draft202012Validator(printed_schema()).is_valid(
        as_an_editor_reads_it(scaffold)
    )

    said = claimledger("--ledger", str(scaffold), "check", code=2).stderr.splitlines()

    assert len(said) == 2 and "ba ba ba" not in said[0], said
    line = text[: text.index(quoted)].count("\n") + 1
    assert re.search(
        rf":{line}:15: text of 4,3\d\d characters is more than a passage: at most 4,000", said[0]
    )


def test_a_falsified_date_the_calendar_has_not_is_refused(scaffold: Path) -> None:
    """The schema refuses `falsified: {date: 2026-02-30}` and leaves why to `check`, which
    read no such date: it passed, and the report said "Refuted on 2026-02-30"."""
    text = scaffold.read_text(encoding="utf-8")
    statement = re.search(r"^    statement: .*$", text, re.MULTILINE)
    assert statement is not None
    at = statement.end()
    scaffold.write_text(
        text[:at] + "\n    falsified: {date: 2026-02-30, why: it was}" + text[at:], "utf-8"
    )

    said = claimledger("--ledger", str(scaffold), "check", code=2).stderr.splitlines()

    assert len(said) == 2 and "date '2026-02-30' is not a real date: " in said[0], said


@pytest.mark.parametrize("day", ["2026-02-30", "2026-04-31", "2026-13-01", "0000-01-01"])
def test_a_day_the_calendar_has_not_is_said_once(scaffold: Path, day: str) -> None:
    """The schema refuses it too now: `check` says it once, with why, not twice."""
    text = scaffold.read_text(encoding="utf-8")
    scaffold.write_text(
        re.sub(r"date_read: \S+", f"date_read: {day}", text, count=1), encoding="utf-8"
    )
    said = claimledger("--ledger", str(scaffold), "check", code=2).stderr.splitlines()
    assert len(said) == 2 and said[-1] == "claimledger: error: 1 problem in the ledger"
    assert f"date_read '{day}' is not a real date: " in said[0], said


def test_the_bundled_ledgers_schema_file_is_the_one_schema_prints() -> None:
    """The bundled claims.yaml names ledger.schema.json beside it for editors: one left
    behind by the loader's schema flags what check accepts (a source's `render`, `repo`)."""
    beside = json.loads((BUNDLED_LEDGER.parent / "ledger.schema.json").read_text("utf-8"))
    assert beside == printed_schema()


@pytest.mark.parametrize("which", ["scaffold", "bundled"])
def test_ledgers_name_their_schema_for_editors(scaffold: Path, which: str) -> None:
    path = scaffold if which == "scaffold" else BUNDLED_LEDGER
    first_line = path.read_text(encoding="utf-8").splitlines()[0]
    assert first_line.startswith("# yaml-language-server: $schema=")


# --------------------------------------------------------------------------- init


def bundled_templates() -> dict[str, bytes]:
    folder = resources.files("claimledger").joinpath("data/templates")
    if not folder.is_dir():
        return {}
    return {t.name: t.read_bytes() for t in folder.iterdir() if t.name.endswith(".j2")}


def test_init_creates_a_valid_ledger_and_uses_the_packaged_templates(tmp_path: Path) -> None:
    target = tmp_path / "new" / "project"
    result = claimledger("init", str(target))
    assert f"created {target / 'claims.yaml'}" in result.stdout
    assert not (target / "templates").exists()  # an upgrade's template fixes reach it
    ledger = load(target / "claims.yaml")
    assert len(ledger.claims) == 1
    claimledger("--ledger", str(target / "claims.yaml"), "check")
    # editors validate the scaffold against the schema written beside it
    first_line = (target / "claims.yaml").read_text(encoding="utf-8").splitlines()[0]
    assert first_line == "# yaml-language-server: $schema=ledger.schema.json"
    assert json.loads((target / "ledger.schema.json").read_text()) == json.loads(
        claimledger("schema").stdout
    )


def test_init_with_no_directory_uses_the_current_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    claimledger("init")
    assert (tmp_path / "claims.yaml").is_file()


def test_init_templates_copies_them_and_a_render_says_when_the_package_moved_on(
    tmp_path: Path,
) -> None:
    claimledger("init", str(tmp_path), "--templates")
    copies = tmp_path / "templates"
    copied = {p.name: p.read_bytes() for p in copies.iterdir() if p.suffix == ".j2"}
    assert copied == bundled_templates()
    ledger = str(tmp_path / "claims.yaml")

    def notes() -> list[str]:
        claimledger("--ledger", ledger, "trust")  # the author's own edits: theirs to allow
        said = claimledger("--ledger", ledger, "render", "-o", "-").stderr.splitlines()
        return [line for line in said if line.startswith("claimledger: note: templates/")]

    assert notes() == []  # the copies are the package's own
    record = json.loads((copies / ".packaged.json").read_text(encoding="utf-8"))
    assert sorted(record["templates"]) == sorted(bundled_templates())

    older = "{# the report as an older release laid it out #}\n"
    record["templates"]["report.md.j2"] = hashlib.sha256(older.encode()).hexdigest()
    (copies / ".packaged.json").write_text(json.dumps(record), encoding="utf-8")
    (copies / "report.md.j2").write_text(older, encoding="utf-8")
    assert notes() == [
        "claimledger: note: templates/report.md.j2 is an unedited copy of an older packaged "
        "template: delete it to use the package's own"
    ]
    (copies / "report.md.j2").write_text(older + "{# and my edit #}\n", encoding="utf-8")
    assert notes() == [
        "claimledger: note: templates/report.md.j2 was copied from an older packaged "
        "template, which has changed since: compare yours with `claimledger init "
        "--templates DIR`"
    ]


def test_init_never_overwrites_a_ledger(scaffold: Path) -> None:
    scaffold.write_text(scaffold.read_text(encoding="utf-8") + "# my own notes\n", "utf-8")
    before = scaffold.read_bytes()
    result = claimledger("init", str(scaffold.parent), code=2)
    assert_input_error(result, str(scaffold), "already exists; init never overwrites")
    assert scaffold.read_bytes() == before


def test_init_never_overwrites_a_template(tmp_path: Path) -> None:
    names = sorted(bundled_templates())
    if not names:
        pytest.skip("no templates are bundled")
    mine = tmp_path / "templates" / names[0]
    mine.parent.mkdir()
    mine.write_text("{# my own report #}\n", encoding="utf-8")
    result = claimledger("init", str(tmp_path), "--templates", code=2)
    assert_input_error(result, str(mine), "already exists")
    assert mine.read_text(encoding="utf-8") == "{# my own report #}\n"
    assert not (tmp_path / "claims.yaml").exists()


def test_init_templates_beside_a_ledger_copies_only_them_trusted_as_a_new_ledgers(
    scaffold: Path,
) -> None:
    """`init --templates` on a reading begun without them refused, the ledger being there:
    the templates are copied beside it, the ledger left as it was, and trusted as a new
    ledger's are: with the workspace's own trusted asks kept, never past them."""
    ledger, home = str(scaffold), scaffold.parent
    scaffold.write_text(scaffold.read_text(encoding="utf-8") + "# my own notes\n", "utf-8")
    (home / "claimledger.toml").write_text('user_agent = "mine/1"\n', encoding="utf-8")
    claimledger("--ledger", ledger, "trust")
    before = {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()}

    done = claimledger("init", str(home), "--templates")
    assert done.stdout.startswith(f"created {home / 'templates'}/ beside {scaffold}")
    assert done.stderr == ""
    assert {p.name: p.read_bytes() for p in home.iterdir() if p.is_file()} == before
    copied = {p.name: p.read_bytes() for p in (home / "templates").iterdir() if p.suffix == ".j2"}
    assert copied == bundled_templates()
    standing = claimledger("--ledger", ledger, "trust", "--list").stdout
    assert "user_agent = mine/1" in standing and "templates/" in standing
    assert standing.startswith("trusted: settings: ")  # one consent: its asks and the templates

    again = claimledger("init", str(home), "--templates", code=2)
    assert "already exists; init never overwrites" in again.stderr
    assert claimledger("init", str(home), "--templates", "--author", "X", code=2).stdout == ""


@pytest.mark.parametrize("why", ["untrusted settings", "a file of templates/"])
def test_init_templates_beside_a_ledger_never_trusts_more_than_a_new_ledgers(
    scaffold: Path, why: str
) -> None:
    """Templates copied where the workspace's settings are not trusted, or into a folder
    that held a file (a clone's), vouch for none of it: the render sets them aside."""
    ledger, home = str(scaffold), scaffold.parent
    if why == "untrusted settings":
        (home / "claimledger.toml").write_text('user_agent = "theirs/1"\n', encoding="utf-8")
    else:
        (home / "templates").mkdir()
        (home / "templates" / "macros.j2").write_text("{# a clone's #}\n", encoding="utf-8")
    done = claimledger("init", str(home), "--templates")
    assert done.stderr.startswith("claimledger: note: templates/ not trusted yet: "), done.stderr
    standing = claimledger("--ledger", ledger, "trust", "--list").stdout
    assert standing.startswith("untrusted: settings: "), standing


ARTIFACT_LEDGER = """\
ledger: 1
title: A
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources: {}
claims:
  - id: toy
    section: s
    title: T
    kind: artifact
    statement: S.
    artifact: {run: [echo, ok], expect: "ok\\n"}
    grades: [{on: measured, grade: DEMONSTRATED, basis: artifact}]
"""


def test_init_templates_beside_a_ledger_keeps_its_artifacts_allowed(tmp_path: Path) -> None:
    """An artifact's consent holds for its folder as it was; the copies are files
    claimledger wrote, and left it "changed", to run again only after another `trust`."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ARTIFACT_LEDGER, encoding="utf-8")
    claimledger("--ledger", str(ledger), "trust")
    claimledger("init", str(tmp_path), "--templates")
    standing = claimledger("--ledger", str(ledger), "trust", "--list").stdout
    assert "trusted: toy: echo ok" in standing, standing


def test_init_templates_beside_a_ledger_renews_no_consent_over_a_change_made_meanwhile(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A pull that lands while the templates are copied changes the folder an artifact's
    consent was given on: that consent is not carried over the change, which it would
    then approve unseen."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ARTIFACT_LEDGER, encoding="utf-8")
    claimledger("--ledger", str(ledger), "trust")
    copying = ledgerfile.scaffold

    def pulled_meanwhile(home: Path, files: dict[str, str]) -> list[Path]:
        (home / "tool.py").write_text("print('changed by a pull')\n", encoding="utf-8")
        return copying(home, files)

    monkeypatch.setattr(ledgerfile, "scaffold", pulled_meanwhile)
    claimledger("init", str(tmp_path), "--templates")
    standing = claimledger("--ledger", str(ledger), "trust", "--list").stdout
    assert "changed: toy: echo ok" in standing, standing


def test_a_file_made_whole_that_another_made_first_is_named_as_asked(tmp_path: Path) -> None:
    """The refusal named the temporary the bytes were written to, a name the user never
    gave and which is gone."""
    from claimledger.ledger.atomicfile import create_whole

    (tmp_path / "a.txt").write_text("theirs", encoding="utf-8")
    with pytest.raises(FileExistsError) as refused:
        create_whole(tmp_path / "a.txt", b"ours")
    assert refused.value.filename == str(tmp_path / "a.txt")
    assert [p.name for p in tmp_path.iterdir()] == ["a.txt"]
    assert (tmp_path / "a.txt").read_text(encoding="utf-8") == "theirs"


def test_init_templates_that_cannot_be_written_leave_no_folder_and_no_trust_changed(
    scaffold: Path,
) -> None:
    """A write that fails (here past a file size limit) took back the copies and left an
    empty templates/, which withdrew the trust of the workspace's settings."""
    home = scaffold.parent
    (home / "claimledger.toml").write_text('user_agent = "mine/1"\n', encoding="utf-8")
    claimledger("--ledger", str(scaffold), "trust")

    def small_files() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))

    run = [sys.executable, "-m", "claimledger", "init", str(home), "--templates"]
    done = subprocess.run(run, capture_output=True, text=True, preexec_fn=small_files)
    assert done.returncode == 2, done.stderr
    assert "File too large" in done.stderr and str(home / "templates") in done.stderr
    assert not (home / "templates").exists()
    standing = claimledger("--ledger", str(scaffold), "trust", "--list").stdout
    assert standing.startswith("trusted: settings: "), standing


def test_init_where_a_file_stands_in_the_way(tmp_path: Path) -> None:
    in_the_way = tmp_path / "project"
    in_the_way.write_text("not a directory", encoding="utf-8")
    result = claimledger("init", str(in_the_way), code=2)
    assert_input_error(result, "cannot create", str(in_the_way))


def test_init_into_a_name_longer_than_the_system_allows_is_refused_in_one_line(
    tmp_path: Path,
) -> None:
    too_long = tmp_path / ("d" * 300)
    result = claimledger("init", str(too_long), code=2)
    assert_input_error(result, f"cannot use {too_long}", "longer than this system allows")
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize(
    "command",
    [("check",), ("set", "title", "x"), ("add", "x1", "--basis", "judgement", "--why", "x")],
)
def test_a_ledger_path_that_is_a_loop_of_links_is_named_as_one(
    tmp_path: Path, command: tuple[str, ...]
) -> None:
    """`check` said "no such file", and a command that writes exited 70."""
    (tmp_path / "loop2").symlink_to("loop1")
    (tmp_path / "loop1").symlink_to("loop2")
    loop = tmp_path / "loop1"
    result = claimledger("--ledger", str(loop), *command, code=2)
    assert_input_error(result, f"cannot use {loop}: the path is a loop of symbolic links")


def test_a_ledger_whose_name_is_just_under_the_limit_is_edited_like_any(scaffold: Path) -> None:
    """Its lock and its temporary are named beside it, longer than it: they are shortened
    rather than failing where the ledger's own name does not."""
    ledger = scaffold.with_name("y" * 245 + ".yaml")
    scaffold.rename(ledger)
    claimledger("--ledger", str(ledger), "set", "title", "A long name")
    assert load(ledger).title == "A long name"
    assert not [path for path in ledger.parent.iterdir() if path.name.endswith(".tmp")]


# --------------------------------------------------------------------------- grade


def history(path: Path) -> list[dict[str, Any]]:
    """The claim's history entries as written in the file."""
    data = as_an_editor_reads_it(path)
    entries: list[dict[str, Any]] = data["claims"][0].get("history", [])
    return entries


def test_grade_records_who_what_and_why(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_FACETS)
    first_day = dt.date.today()
    result = claimledger(
        "--ledger", str(path), "grade", "input-gate", "CLAIMED", "--because", "re-read"
    )
    assert result.stdout == "input-gate: wording: now CLAIMED\n"
    (entry,) = history(path)
    assert first_day <= dt.date.fromisoformat(entry.pop("date")) <= dt.date.today()
    assert entry == {
        "on": "wording",
        "from": "DEMONSTRATED",
        "to": "CLAIMED",
        "by": "person",
        "why": "re-read",
    }
    facets = load(path).claim("input-gate").grades
    assert [f.grade for f in facets] == [Grade.CLAIMED, Grade.UNKNOWN]


def test_grade_on_chooses_the_facet(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_FACETS)
    result = claimledger(
        "--ledger", str(path), "grade", "input-gate", "SPECULATIVE",
        "--on", "holds at the crash boundary", "--because", "an inference",
    )  # fmt: skip
    assert result.stdout == "input-gate: holds at the crash boundary: now SPECULATIVE\n"
    (entry,) = history(path)
    assert (entry["on"], entry["from"], entry["to"]) == (
        "holds at the crash boundary",
        "UNKNOWN",
        "SPECULATIVE",
    )
    facets = load(path).claim("input-gate").grades
    assert [f.grade for f in facets] == [Grade.DEMONSTRATED, Grade.SPECULATIVE]


def test_grade_takes_a_grade_in_any_case(tmp_path: Path) -> None:
    path = write(tmp_path, TWO_FACETS)
    claimledger("--ledger", str(path), "grade", "input-gate", "unknown", "--because", "gone")
    assert history(path)[0]["to"] == "UNKNOWN"
    assert load(path).claim("input-gate").grades[0].grade is Grade.UNKNOWN


@pytest.mark.parametrize(
    ("args", "parts"),
    [
        pytest.param(
            ["input-gates", "CLAIMED"],
            ["no claim 'input-gates'", "(did you mean 'input-gate'?)"],
            id="unknown-claim",
        ),
        pytest.param(
            ["input-gate", "CLAIMED", "--on", "wordin"],
            ["no facet 'wordin'", "(did you mean 'wording'?)", "'holds at the crash boundary'"],
            id="unknown-facet",
        ),
    ],
)
def test_grade_names_what_is_not_there(tmp_path: Path, args: list[str], parts: list[str]) -> None:
    path = write(tmp_path, TWO_FACETS)
    result = claimledger("--ledger", str(path), "grade", *args, "--because", "x", code=2)
    assert_input_error(result, *parts)
    assert path.read_text(encoding="utf-8") == TWO_FACETS


@pytest.mark.parametrize(
    "args",
    [
        pytest.param(["input-gate", "DEMONSTRATD", "--because", "x"], id="misspelt-grade"),
        pytest.param(["input-gate", "PROVEN", "--because", "x"], id="no-such-grade"),
        pytest.param(["input-gate", "CLAIMED"], id="no-because"),
        pytest.param(["input-gate", "CLAIMED", "--because", "  "], id="blank-because"),
        pytest.param(["CLAIMED", "--because", "x"], id="no-claim"),
    ],
)
def test_grade_refuses_bad_arguments(tmp_path: Path, args: list[str]) -> None:
    path = write(tmp_path, TWO_FACETS)
    result = claimledger("--ledger", str(path), "grade", *args, code=2)
    assert "Traceback" not in result.output
    assert path.read_text(encoding="utf-8") == TWO_FACETS


def test_grade_refuses_an_invalid_ledger_and_writes_nothing(tmp_path: Path) -> None:
    broken = TWO_FACETS.replace("sources: [docs]", "sources: [doc]")
    path = write(tmp_path, broken)
    result = claimledger(
        "--ledger", str(path), "grade", "input-gate", "CLAIMED", "--because", "x", code=2
    )
    assert "unknown source 'doc' (did you mean 'docs'?)" in result.stderr
    assert path.read_text(encoding="utf-8") == broken


# --------------------------------------------------------------------------- the program


def test_python_dash_m_shows_the_help() -> None:
    done = run_process("--help")
    assert done.returncode == ExitCode.OK, done.stderr
    assert done.stdout.startswith("Usage: ")
    for name in ["check", "init", "schema", "grade"]:
        assert re.search(rf"^\s+{name}\s", done.stdout, re.MULTILINE), name
    assert "--ledger" in done.stdout and "--debug" in done.stdout


def test_version() -> None:
    result = claimledger("--version")
    assert result.stdout == f"claimledger {__version__}\n"


def test_a_ledger_lock_that_cannot_be_made_is_a_plain_error(tmp_path: Path) -> None:
    """A directory where the ledger's lock goes: exit 2, one line, the ledger untouched."""
    path = write(tmp_path, TWO_FACETS)
    ledgerfile.lock_path(path).mkdir()
    done = run_process("--ledger", str(path), "grade", "input-gate", "CLAIMED", "--because", "x")
    assert done.returncode == ExitCode.INPUT
    assert done.stdout == ""
    (line,) = done.stderr.splitlines()
    assert line == (
        f"claimledger: error: cannot write {ledgerfile.lock_path(path)}: a directory stands "
        "where the file should be; nothing was written"
    )
    assert load(path).claim("input-gate").history == ()


def test_render_says_a_missing_templates_folder_first(scaffold: Path, tmp_path: Path) -> None:
    """The first thing wrong with render's options is the one said, in the order they are
    read: --templates, then the output's name, then the ledger."""
    missing = tmp_path / "no-such-templates"
    said = claimledger(
        "--ledger", str(tmp_path / "none.yaml"), "render", "--templates", str(missing),
        "-o", "report.txt", code=2,
    ).stderr  # fmt: skip
    assert said.strip() == f"claimledger: error: --templates {missing}: not a directory"
    named = claimledger("--ledger", str(scaffold), "render", "-o", "report.txt", code=2).stderr
    assert "--output report.txt: its name does not say which format to write" in named


def test_a_ledger_written_with_lone_carriage_returns_is_refused_and_kept(
    scaffold: Path,
) -> None:
    """Valid, and read by every command, but edited in place wrongly: old Mac line ends.
    The edit is refused, exit 2, one line, the file byte for byte as it was (it once ended
    in an internal error, exit 70)."""
    text = scaffold.read_text(encoding="utf-8").replace("\n", "\r")
    scaffold.write_bytes(text.encode("utf-8"))
    claimledger("--ledger", str(scaffold), "check")

    result = claimledger(
        "--ledger", str(scaffold), "grade", "must-is-absolute", "CLAIMED", "--because", "x", code=2
    )

    (line,) = result.stderr.splitlines()
    assert line == (
        f"claimledger: error: {scaffold}: cannot be edited in place: it is written with line "
        "ends of a lone carriage return; write it without, or make the change by hand (the "
        "file is left as it was)"
    )
    assert scaffold.read_bytes() == text.encode("utf-8")


ALIASED_FACET = """\
  - id: second
    section: guarantees
    title: A second claim
    kind: guarantee
    statement: Another.
    quotes:
      - {text: "absolute requirement of the specification", sources: [rfc2119]}
    grades:
      - *facet
"""


@pytest.mark.parametrize(
    "edit",
    [
        ("grade", "second", "UNKNOWN", "--because", "x"),
        ("remove", "second"),
        ("set", "title", "Another title"),
        ("grade", "must-is-absolute", "CLAIMED", "--because", "x"),
    ],
)
def test_a_ledger_written_with_anchors_is_refused_where_the_first_stands(
    scaffold: Path, edit: tuple[str, ...]
) -> None:
    """An alias is its anchor's very node: grading the second claim once rewrote the first
    claim's grade and history, and removing it said "removed" and left it. Every edit is
    refused before it is made: exit 2, one line at the anchor, the file as it was."""
    text = scaffold.read_text(encoding="utf-8")
    text = text.replace("    grades:\n      - on:", "    grades:\n      - &facet\n        on:")
    text = text.replace("\nscope:", f"{ALIASED_FACET}\nscope:")
    scaffold.write_bytes(text.encode("utf-8"))
    claimledger("--ledger", str(scaffold), "check")
    anchor = next(n for n, line in enumerate(text.splitlines(), 1) if "&facet" in line)

    result = claimledger("--ledger", str(scaffold), *edit, code=2)

    (line,) = result.stderr.splitlines()
    assert line == (
        f"claimledger: error: {scaffold}:{anchor}:9: cannot be edited in place: it uses YAML "
        "anchors and aliases (&name, *name), which an edit cannot keep; write it without them, "
        "or make the change by hand (the file is left as it was)"
    )
    assert scaffold.read_bytes() == text.encode("utf-8")


def test_an_edit_of_a_ledger_written_with_crlf_keeps_it_crlf(scaffold: Path) -> None:
    """The history lines an edit adds came with LF, and left a CRLF file of two kinds."""
    text = scaffold.read_text(encoding="utf-8").replace("\n", "\r\n")
    scaffold.write_bytes(text.encode("utf-8"))

    claimledger("--ledger", str(scaffold), "grade", "must-is-absolute", "CLAIMED", "--because", "x")

    edited = scaffold.read_bytes()
    assert b"grade: CLAIMED\r\n" in edited
    assert b"\n" not in edited.replace(b"\r\n", b"")
    claimledger("--ledger", str(scaffold), "check")
