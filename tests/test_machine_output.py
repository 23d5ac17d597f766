"""What scripts and CI read: `refresh --format github|junit`, `check --json`, and every
JSON output's schema version, key names and JSON Schema, each checked by a real client.

GitHub's annotations are parsed by the runner's own rules (escaping as its toolkit does
it); JUnit XML is read by junitparser and validated by libxml2 against the Jenkins xUnit
plugin's junit-10.xsd (tests/data/junit-10.xsd); JSON is validated by jsonschema's Draft
2020-12 validator against the schemas shipped in the package, and queried with jq.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import tomllib
from collections.abc import Iterator
from importlib import resources
from pathlib import Path
from typing import Any

import jq
import pytest
import yaml
from jsonschema import Draft202012Validator
from junitparser import Error, Failure, JUnitXml, Skipped
from lxml import etree

from claimledger.ledger.model import parse
from claimledger.report.ci_formats import escape_data, escape_property, workflow_command, xml_text
from claimledger.report.formats import REPORT_VERSION
from claimledger.terminal.output import SCHEMA_VERSION
from cli_runner import SCRIPT, Cli, user_environment
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
from webserver import PageServer, redirect

HERE = Path(__file__).resolve().parent
JUNIT_XSD = HERE / "data" / "junit-10.xsd"
README = HERE.parent / "README.md"
SCHEMAS = resources.files("claimledger") / "data" / "schemas"


@pytest.fixture
def ledger(tmp_path: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The evidence site's ledger at ledger/claims.yaml below the working directory (a CI
    job's checkout), with its pages served as quoted."""
    monkeypatch.chdir(tmp_path)
    serve_v1(page_server)
    return write_ledger(tmp_path, page_server)


@pytest.fixture
def cli(ledger: Path) -> Cli:
    return Cli(ledger)


def drift(server: PageServer) -> None:
    """The guide now denies durability and drops the ordering sentence, the mirror is
    gone, and the alarm page rewords its sentence harmlessly."""
    server.set_page("/guide", page("An opening line.", NOT_DURABLE))
    server.set_page("/mirror", "<p>Not here</p>", status=404)
    server.set_page("/other", page(ALARM_REWORDED))


def refresh(cli: Cli, *args: str, code: int) -> str:
    return str(cli("refresh", "--allow-private", *args, code=code).stdout)


def quote_lines(ledger: Path) -> dict[tuple[str, int], int]:
    """Each quote's text line, found by PyYAML's own composer (not by the code under test)."""
    root = yaml.compose(ledger.read_text("utf-8"))
    assert isinstance(root, yaml.MappingNode)
    claims = next(value for key, value in root.value if key.value == "claims")
    lines = {}
    for claim in claims.value:
        fields = {key.value: value for key, value in claim.value}
        for index, quote in enumerate(fields["quotes"].value):
            text = next(value for key, value in quote.value if key.value == "text")
            lines[fields["id"].value, index] = text.start_mark.line + 1
    return lines


# --------------------------------------------------------------------------- GitHub

COMMAND = re.compile(r"^::(?P<level>error|warning|notice) (?P<props>[^:]*)::(?P<message>.*)$")


def unescape(value: str) -> str:
    """The runner's unescaping of a command's data and properties."""
    for escaped, plain in (("%0D", "\r"), ("%0A", "\n"), ("%3A", ":"), ("%2C", ","), ("%25", "%")):
        value = value.replace(escaped, plain)
    return value


def read_commands(stdout: str) -> list[dict[str, str]]:
    """Workflow commands as the runner reads them: one a line, each property unescaped."""
    found = []
    for line in stdout.splitlines():
        command = COMMAND.match(line)
        assert command, f"not a workflow command: {line!r}"
        props = dict(part.split("=", 1) for part in command["props"].split(","))
        found.append(
            {
                "level": command["level"],
                "message": unescape(command["message"]),
                **{key: unescape(value) for key, value in props.items()},
            }
        )
    return found


def test_github_annotations_sit_on_each_quote_line_of_the_ledger(
    cli: Cli, ledger: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    assert refresh(cli, "--format", "github", code=0) == ""  # all verified: nothing to say
    drift(page_server)
    found = read_commands(refresh(cli, "--format", "github", code=1))

    lines = quote_lines(ledger)
    got = {
        (a["level"], a["message"].split(":", 1)[0], int(a["line"]), int(a["col"])) for a in found
    }
    assert {(level, where, line) for level, where, line, _ in got} == {
        ("error", "durable quote 1 on guide", lines["durable", 0]),  # meaning changed
        ("error", "durable quote 1 on mirror", lines["durable", 0]),  # the page is gone
        ("error", "durable quote 2 on guide", lines["durable", 1]),  # missing
        ("error", "ordered quote 1 on guide", lines["ordered", 0]),  # missing
        ("warning", "alarms quote 1 on other", lines["alarms", 0]),  # reworded
    }
    text = ledger.read_text("utf-8").splitlines()
    for a in found:
        assert a["file"] == "ledger/claims.yaml"  # relative to the working directory
        assert text[int(a["line"]) - 1][int(a["col"]) - 1 :].startswith('"')  # the quote's text
        assert a["title"].startswith("claimledger: ")
    by_where = {a["message"].split(":", 1)[0]: a for a in found}
    changed = by_where["durable quote 1 on guide"]
    assert "meaning changed (negation added)" in changed["message"]
    assert NOT_DURABLE in changed["message"]  # the page's current wording
    assert "gone" in by_where["durable quote 1 on mirror"]["message"]
    assert "404" in by_where["durable quote 1 on mirror"]["message"]
    assert "missing" in by_where["ordered quote 1 on guide"]["message"]
    reworded = by_where["alarms quote 1 on other"]
    assert "drifted" in reworded["message"] and ALARM_REWORDED in reworded["message"]


def test_github_annotations_for_sources_that_moved_or_failed(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    page_server.set_handler("/other", redirect("/alarms/", 301))
    page_server.set_page("/alarms/", page(ALARM))
    page_server.set_page("/mirror", "Are you a robot?", status=403)
    found = read_commands(refresh(cli, "--format", "github", code=1))

    text = ledger.read_text("utf-8").splitlines()
    assert [(a["level"], a["title"]) for a in found] == [
        ("warning", "claimledger: source mirror refused"),
        ("warning", "claimledger: source other moved"),
    ]  # no annotation a quote: the mirror's one unread check is said on its source
    for a in found:
        source_id = a["title"].split()[2]
        assert text[int(a["line"]) - 1].strip().startswith(f"{source_id}:")
    assert "claimledger move other" in found[1]["message"]
    assert "1 quote check is unread" in found[0]["message"]

    accepted = ledger.read_text("utf-8").replace(
        "mirror: {url: ", "mirror: {accept_status: [403], url: "
    )
    ledger.write_text(accepted, encoding="utf-8")
    page_server.set_page("/other", page(ALARM))
    assert refresh(cli, "--format", "github", code=0) == ""  # an accepted 403 is no failure


def test_github_annotations_name_the_file_from_the_checkout_the_runner_names(
    cli: Cli, ledger: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A step with `working-directory:` runs deeper than the checkout, but the runner reads
    `file=` from the checkout (GITHUB_WORKSPACE): the path is the ledger's from there."""
    checkout = ledger.parent.parent
    monkeypatch.setenv("GITHUB_WORKSPACE", str(checkout))
    monkeypatch.chdir(ledger.parent)
    drift(page_server)

    found = read_commands(refresh(cli, "--format", "github", code=1))

    assert found and {a["file"] for a in found} == {f"{ledger.parent.name}/claims.yaml"}


def test_github_values_are_escaped_by_the_runners_rules(
    tmp_path: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ledger under `a,b:c%/` and a page whose wording holds `%`, `::`, `,` and ESC: every
    annotation stays one command on one line, and reads back as written."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "a,b:c%").mkdir()
    ledger = write_ledger(tmp_path / "a,b:c%", page_server)
    serve_v1(page_server)
    hostile = (
        "Storage writes are durable before the response is sent to 100%:: of clients, \x1b[31m."
    )
    page_server.set_page("/guide", page("An opening line.", hostile, ORDERED))
    stdout = refresh(Cli(ledger), "--format", "github", code=1)

    assert "\x1b" not in stdout and "\r" not in stdout
    (found,) = read_commands(stdout)
    assert found["file"] == "a,b:c%/ledger/claims.yaml"
    assert "file=a%2Cb%3Ac%25/ledger/claims.yaml," in stdout
    assert "100%:: of clients, ␛[31m." in found["message"]  # ESC shown as its picture
    assert "100%25:: of clients" in stdout


def test_no_line_of_a_refresh_gives_the_runner_a_command_from_the_ledger(
    cli: Cli, ledger: Path, page_server: PageServer
) -> None:
    """The runner obeys `##[command]data` anywhere in a line of stdout or stderr (its older
    syntax, still read): a source whose address ends `#top##[stop-commands]token` would
    stop it at the refresh's progress line, before every annotation after it."""
    text = ledger.read_text("utf-8")
    guide = re.search(r'url: "(http[^"]*/guide)"', text)
    assert guide
    hostile = guide[1] + "#top##[stop-commands]token"
    ledger.write_text(text.replace(guide[1], hostile), encoding="utf-8")
    drift(page_server)

    done = cli("refresh", "--allow-private", "--format", "github", code=1)

    assert read_commands(done.stdout)
    assert "/guide#top%23%23[stop-commands]token" in done.stderr
    assert "##[" not in done.stdout + done.stderr


def test_no_annotation_gives_the_runner_a_command_from_a_pages_words(
    cli: Cli, page_server: PageServer
) -> None:
    """The annotations are lines the runner reads: a page that words a quote with
    `##[stop-commands]` in it would stop it reading every annotation after that one. Its
    words are shown, each `##[` (`##vso[`) broken by a zero-width space."""
    drift(page_server)
    hostile = "The alarm handler runs at least once ##[stop-commands]tok ##vso[task.complete] for"
    page_server.set_page(
        "/other", page(ALARM.replace("The alarm handler runs at least once for", hostile))
    )

    done = cli("refresh", "--allow-private", "--format", "github", code=1)

    commands = read_commands(done.stdout)
    assert "##[" not in done.stdout and "##vso[" not in done.stdout
    said = [c["message"].replace("\u200b", "") for c in commands]
    assert any("##[stop-commands]tok ##vso[task.complete]" in message for message in said)


def test_workflow_command_escaping_is_the_toolkits() -> None:
    assert escape_data("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext: a, b"
    assert escape_property("100% done\r\nnext: a, b") == "100%25 done%0D%0Anext%3A a%2C b"
    line = workflow_command("error", "50% off: now", "x,y.yaml", 3, 7, "t: a, b")
    assert line == "::error file=x%2Cy.yaml,line=3,col=7,title=t%3A a%2C b::50%25 off: now"
    # A message is one line whatever it holds: no page can start a command of its own.
    assert workflow_command("warning", "a\n::error::b", "f", 1, 1, "t").count("\n") == 0
    # A checkout's file name gives the runner no command either.
    assert "##[" not in workflow_command("error", "m", "d/##[stop-commands]x/c.yaml", 1, 1, "t")
    # A file's name is its name, a line break in it escaped, not made a space.
    assert "file=a%0A%3A%3Aerror.yaml," in workflow_command(
        "error", "m", "a\n::error.yaml", 1, 1, "t"
    )


# --------------------------------------------------------------------------- JUnit


@pytest.fixture(scope="module")
def junit_schema() -> etree.XMLSchema:
    return etree.XMLSchema(etree.parse(str(JUNIT_XSD)))


def read_junit(xml: str, schema: etree.XMLSchema) -> JUnitXml:
    """The report, validated against junit-10.xsd and read by junitparser."""
    document = etree.fromstring(xml.encode("utf-8"))
    schema.assertValid(document)
    parsed = JUnitXml.fromstring(xml.encode("utf-8"))  # as a CI reads the file: bytes
    assert isinstance(parsed, JUnitXml)
    return parsed


def outcome(case: Any) -> str:
    """passed, or the one kind of result a test case holds."""
    kinds = {type(result) for result in case.result}
    assert len(kinds) <= 1
    names: dict[type, str] = {Failure: "failure", Error: "error", Skipped: "skipped"}
    return names[kinds.pop()] if kinds else "passed"


def test_junit_has_a_case_per_quote_check_and_consistent_counts(
    cli: Cli, page_server: PageServer, junit_schema: etree.XMLSchema
) -> None:
    drift(page_server)
    page_server.set_page("/other", "Are you a robot?", status=403)
    xml = refresh(cli, "--format", "junit", code=1)
    report = read_junit(xml, junit_schema)

    cases = {
        (suite.name, case.classname, case.name): outcome(case) for suite in report for case in suite
    }
    assert cases == {
        ("guide", "durable", "quote 1 on guide"): "failure",
        ("guide", "durable", "quote 2 on guide"): "failure",
        ("guide", "ordered", "quote 1 on guide"): "failure",
        ("mirror", "durable", "quote 1 on mirror"): "failure",
        ("other", "alarms", "quote 1 on other"): "error",  # refused: the check could not be made
    }
    for suite in report:
        outcomes = [outcome(case) for case in suite]
        assert (suite.tests, suite.failures, suite.errors, suite.skipped) == (
            len(outcomes),
            outcomes.count("failure"),
            outcomes.count("error"),
            outcomes.count("skipped"),
        )
    assert (report.tests, report.failures, report.errors) == (5, 4, 1)

    (changed,) = [
        case
        for suite in report
        for case in suite
        if (case.classname, case.name) == ("durable", "quote 1 on guide")
    ]
    (failure,) = changed.result
    assert failure.type == "drifted"
    assert "meaning changed (negation added)" in (failure.message or "")
    assert DURABLE in (failure.text or "") and NOT_DURABLE in (failure.text or "")
    assert "ledger/claims.yaml:" in (failure.text or "")


def test_junit_marks_strong_evidence_with_a_bang_and_a_may_have_changed_with_a_question(
    cli: Cli, page_server: PageServer, junit_schema: etree.XMLSchema
) -> None:
    drift(page_server)
    report = read_junit(refresh(cli, "--format", "junit", code=1), junit_schema)
    texts = {
        (case.classname, case.name): "".join(r.text or "" for r in case.result)
        for suite in report
        for case in suite
    }

    assert "! added: “not” (negation added)" in texts["durable", "quote 1 on guide"]
    assert "? “time” -> “moment” (wording changed)" in texts["alarms", "quote 1 on other"]


def test_junit_skips_an_answer_its_source_accepts(
    cli: Cli, ledger: Path, page_server: PageServer, junit_schema: etree.XMLSchema
) -> None:
    text = ledger.read_text("utf-8").replace("other: {url: ", "other: {accept_status: [403], url: ")
    ledger.write_text(text, encoding="utf-8")
    page_server.set_page("/other", "Are you a robot?", status=403)
    report = read_junit(refresh(cli, "--format", "junit", code=0), junit_schema)
    outcomes = {case.name: outcome(case) for suite in report for case in suite}
    assert outcomes["quote 1 on other"] == "skipped"
    assert {o for name, o in outcomes.items() if name != "quote 1 on other"} == {"passed"}
    (other,) = [suite for suite in report if suite.name == "other"]
    assert (other.tests, other.skipped, other.failures, other.errors) == (1, 1, 0, 0)


def test_junit_holds_hostile_quotes_as_well_formed_xml(
    tmp_path: Path,
    page_server: PageServer,
    monkeypatch: pytest.MonkeyPatch,
    junit_schema: etree.XMLSchema,
) -> None:
    """Quote text that XML 1.0 cannot carry as it is (ESC, U+0001), markup, `]]>` and
    quotes, in the ledger and on the page: the report parses, validates and says it."""
    monkeypatch.chdir(tmp_path)
    ledger = write_ledger(tmp_path, page_server)
    hostile = 'Writes <b>&amp;</b> \\"flush\\" ]]> \\e[2J \\x01 stay durable'  # YAML escapes
    text = ledger.read_text("utf-8").replace(f'"{ALARM}"', f'"{hostile}"')
    ledger.write_text(text, encoding="utf-8")
    serve_v1(page_server)
    page_server.set_page(
        "/other", page('Writes <b>&amp;</b> "flush" ]]&gt; \x1b[2J stay durable now.')
    )
    report = read_junit(refresh(Cli(ledger), "--format", "junit", code=1), junit_schema)

    (case,) = [case for suite in report for case in suite if case.classname == "alarms"]
    (result,) = case.result
    body = result.text or ""
    assert 'quote: Writes <b>&amp;</b> "flush" ]]> ␛[2J ␁ stay durable' in body
    assert "\x1b" not in body and "\x01" not in body


@pytest.mark.parametrize("encoding", ["cp1252", "ascii"])
def test_junit_is_the_utf8_it_says_whatever_stdouts_encoding(
    ledger: Path, page_server: PageServer, junit_schema: etree.XMLSchema, encoding: str
) -> None:
    """`refresh --format junit > junit.xml` where stdout is not UTF-8 (a Windows runner's
    cp1252, an ASCII locale): the file is the UTF-8 its XML declaration names."""
    page_server.set_page("/other", page(ALARM_REWORDED.replace("moment", "momént")))
    done = subprocess.run(
        [str(SCRIPT), "--ledger", str(ledger), "refresh", "--allow-private", "--format", "junit"],
        env=user_environment(PYTHONIOENCODING=encoding),
        capture_output=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    report = read_junit(done.stdout.decode("utf-8"), junit_schema)
    (case,) = [case for suite in report for case in suite if case.classname == "alarms"]
    assert "the page now says: “" in case.result[0].message
    assert "momént" in case.result[0].message


def test_xml_text_keeps_what_xml_can_hold() -> None:
    assert xml_text("tab\tline\nend") == "tab\tline\nend"
    assert xml_text("\x00\x1b\x7f\x85\ufffe\uffff\ud800") == "␀␛␡\ufffd\ufffd\ufffd\ufffd"


# --------------------------------------------------------------------------- exit status


@pytest.mark.parametrize("fmt", ["text", "json", "github", "junit"])
def test_the_exit_status_is_the_formats_own_business_never(
    cli: Cli, page_server: PageServer, fmt: str
) -> None:
    refresh(cli, "--format", fmt, code=0)
    drift(page_server)
    refresh(cli, "--format", fmt, code=1)


def test_bad_input_and_internal_errors_keep_their_codes(
    cli: Cli, ledger: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert (
        "use one of text, json, github, junit" in cli("refresh", "--format", "xml", code=2).stderr
    )
    assert "--json is --format json" in cli("refresh", "--json", "--format", "junit", code=2).stderr
    refresh(cli, "--json", "--format", "json", code=0)

    def broken(self: object, result: object) -> str:
        raise RuntimeError("a bug in a formatter")

    monkeypatch.setattr("claimledger.report.ci_formats.GithubFormat.format", broken)
    crashed = cli("refresh", "--allow-private", "--format", "github", code=70)
    assert "internal error: RuntimeError: a bug in a formatter" in crashed.stderr

    ledger.write_text(
        ledger.read_text("utf-8").replace("section: main", "section: nowhere"), "utf-8"
    )
    result = cli("refresh", "--allow-private", "--format", "github", code=2)
    assert result.stdout == "" and "unknown section 'nowhere'" in result.stderr


# --------------------------------------------------------------------------- check --json


def test_check_json_lists_every_problem_where_it_is(cli: Cli, ledger: Path) -> None:
    valid = cli.json("check", code=0)
    assert valid["valid"] is True and valid["problems"] == [] and valid["claims"] == 3

    text = ledger.read_text("utf-8").replace("section: main", "section: mian", 1)
    ledger.write_text(text.replace("grade: CLAIMED", "grade: CLAMED"), encoding="utf-8")
    result = cli("check", "--json", code=2)
    report = json.loads(result.stdout)
    assert report["valid"] is False and report["ledger"] == str(ledger)
    assert [(p["line"], p["message"].split(" (")[0]) for p in report["problems"]] == [
        (17, "unknown section 'mian'"),
        (39, "grade 'CLAMED' is not one of DEMONSTRATED, CLAIMED, SPECULATIVE, UNKNOWN"),
    ]
    for problem in report["problems"]:  # the same problems as the lines on stderr
        where = f"{problem['file']}:{problem['line']}:{problem['col']}: {problem['message']}"
        assert where in result.stderr.splitlines()
    validate("check", report)


# --------------------------------------------------------------------------- JSON Schemas


def schema_of(name: str) -> dict[str, Any]:
    schema: dict[str, Any] = json.loads((SCHEMAS / f"{name}.schema.json").read_text("utf-8"))
    return schema


def closed(node: Any) -> Any:
    """The schema with no room for an undocumented key: every object that lists its
    properties gets `additionalProperties: false` (the shipped schemas stay open, since
    new keys may be added within a version)."""
    if isinstance(node, list):
        return [closed(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: closed(value) for key, value in node.items()}
    if node.get("type") == "object" and "properties" in node:
        node.setdefault("additionalProperties", False)
    return node


def validate(name: str, output: Any) -> None:
    """`output` against the shipped schema, and against its closed form, which fails on a
    key the schema does not document (add it to src/claimledger/data/schemas/NAME)."""
    schema = schema_of(name)
    Draft202012Validator.check_schema(schema)
    for form in (schema, closed(schema)):
        validator = Draft202012Validator(form, format_checker=Draft202012Validator.FORMAT_CHECKER)
        errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(output)]
        assert errors == [], f"{name} output does not match {name}.schema.json: {errors[:5]}"


@pytest.fixture
def outputs(cli: Cli, page_server: PageServer) -> dict[str, Any]:
    """Every JSON output of a ledger after a refresh that found drift."""
    refresh(cli, code=0)
    drift(page_server)
    return {
        "refresh": cli.json("refresh", "--allow-private", code=1),
        "status": cli.json("status", code=1),
        "diff": cli.json("diff", code=1),
        "history": cli.json("history", "durable", code=0),
        "explain": cli.json("explain", "durable", code=0),
        "regrade": cli.json("regrade", code=1),
        "check": cli.json("check", code=0),
        "trust": cli.json("trust", "--list", code=0),
        "claims": cli.json("claims", code=0),
        "verify": cli.json("verify", "--allow-private", page_server.url("/guide"), DURABLE, code=1),
        "report": json.loads(cli("render", "--format", "json", "-o", "-", code=0).stdout),
    }


def test_every_json_output_opens_with_its_schema_version(outputs: dict[str, Any]) -> None:
    for name, output in outputs.items():
        assert next(iter(output)) == "schema_version", name
        assert output["schema_version"] == (REPORT_VERSION if name == "report" else SCHEMA_VERSION)
    assert (SCHEMA_VERSION, REPORT_VERSION) == (2, 2), "quote_index and index count from 1"


def test_every_json_output_matches_its_shipped_schema(outputs: dict[str, Any]) -> None:
    shipped = {path.name.removesuffix(".schema.json") for path in SCHEMAS.iterdir()}
    assert set(outputs) | {"blame"} == shipped  # blame reads a docs repository: test_blame.py
    for name, output in outputs.items():
        validate(name, output)


def test_a_key_the_schema_does_not_document_is_caught(outputs: dict[str, Any]) -> None:
    """The closed form is no formality: an extra key in a check fails it."""
    changed = copy.deepcopy(outputs["diff"])
    changed["checks"][0]["surprise"] = True
    with pytest.raises(AssertionError, match="surprise"):
        validate("diff", changed)


def keys(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            yield from keys(item)
    elif isinstance(value, list):
        for item in value:
            yield from keys(item)


def test_a_claim_is_named_claim_id_in_every_output(outputs: dict[str, Any]) -> None:
    for name, output in outputs.items():
        assert "claim" not in set(keys(output)), f"{name} names a claim `claim`, not `claim_id`"
    assert [row["claim_id"] for row in outputs["status"]["claims"]] == [
        "durable",
        "ordered",
        "alarms",
    ]


def test_jq_finds_what_needs_a_look(outputs: dict[str, Any]) -> None:
    """The kind of pipe a CI step writes: `claimledger status --json | jq …`, the README's
    own first."""
    text = README.read_text("utf-8").split("## Machine-readable output", 1)[1]
    readme_filter = re.search(r"claimledger status --json \| jq -r '([^']+)'", text)
    assert readme_filter, "the README's machine-readable section has no jq example"
    found = jq.compile(readme_filter[1]).input_value(outputs["status"]).all()
    assert found == ["durable", "ordered", "alarms"]
    needs_a_look = jq.compile(
        ".claims[] | select(.drifted + .missing + .ambiguous + .unread > 0) | .claim_id"
    )
    assert needs_a_look.input_value(outputs["status"]).all() == ["durable", "ordered", "alarms"]
    meaning = jq.compile(
        '[.checks[] | select(.meaning_changed) | "\\(.claim_id) #\\(.quote_index)"]'
    )
    assert meaning.input_value(outputs["refresh"]).first() == ["durable #1"]  # as diff says
    version = jq.compile(".schema_version")
    assert {version.input_value(o).first() for o in outputs.values()} == {2}


def test_the_schemas_are_package_data_each_with_its_own_id() -> None:
    names = sorted(path.name for path in SCHEMAS.iterdir())
    ids = [schema_of(name.removesuffix(".schema.json"))["$id"] for name in names]
    assert len(set(ids)) == len(ids) == 12
    package_data = tomllib.loads((HERE.parent / "pyproject.toml").read_text("utf-8"))
    patterns = package_data["tool"]["setuptools"]["package-data"]["claimledger"]
    assert "data/**/*" in patterns  # data/schemas/*.json is in the wheel and the sdist


def test_a_definition_shared_by_schemas_is_written_the_same_in_each() -> None:
    seen: dict[str, tuple[str, Any]] = {}
    for path in SCHEMAS.iterdir():
        for name, definition in json.loads(path.read_text("utf-8")).get("$defs", {}).items():
            first = seen.setdefault(name, (path.name, definition))
            assert definition == first[1], f"$defs/{name} differs in {path.name} and {first[0]}"


def test_the_readme_lists_every_schema() -> None:
    text = README.read_text("utf-8")
    section = text.split("## Machine-readable output", 1)[1].split("\n## ", 1)[0]
    for path in SCHEMAS.iterdir():
        assert f"`{path.name}`" in section, f"README's machine-readable section misses {path.name}"


# --------------------------------------------------------------------------- the ledger's places


def test_a_ledger_knows_where_each_quote_and_source_is_written() -> None:
    text = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  a: {url: "https://example.org/a", title: A, kind: docs, publisher: p}
claims:
  - id: c
    section: s
    title: C
    kind: guarantee
    statement: S.
    quotes:
      - {text: "flow style", sources: [a]}
      - text: >-
          a folded
          block
        sources: [a]
    grades: [{on: w, grade: CLAIMED, basis: quotes}]
"""
    ledger = parse(text)
    assert ledger.quote_place("c", 0) == (14, 16)
    assert ledger.quote_place("c", 1) == (15, 15)
    assert ledger.source_place("a") == (6, 3)
    assert ledger.quote_place("c", 2) is None and ledger.quote_place("nope", 0) is None
    assert ledger.source_place("nope") is None


DOCUMENTS = [
    {"run": 7, "checks": [], "sources": [{"url": "https://e.org/a", "notes": []}]},
    {"claims": [{"claim_id": "c", "quotes": [{"text": 'a "quoted"\n\u0085line\u007f'}]}]},
    {"nested": {"deeper": [[1, 2], {"x": None, "y": True}], "empty": {}}, "n": 1.5},
    {"ünïcode": ["ä", "\u2028"], "checks": [1], "last": []},
]


@pytest.mark.parametrize("document", DOCUMENTS)
def test_json_written_as_it_streams_reads_as_json_dumps_writes_it(
    document: dict[str, Any], capsys: pytest.CaptureFixture[str]
) -> None:
    """A list given as an iterator is written an item at a time, and the text is the one a
    whole document makes: same indentation, separators and escapes."""
    from claimledger.terminal.output import print_json

    print_json(document, versioned=False)
    whole = capsys.readouterr().out
    print_json(
        {key: iter(value) if isinstance(value, list) else value for key, value in document.items()},
        versioned=False,
    )
    streamed = capsys.readouterr().out
    assert streamed == whole
    assert json.loads(streamed) == document
    expected = json.dumps(document, indent=2, ensure_ascii=False)
    assert whole == expected.replace("\u0085", "\\u0085").replace("\u007f", "\\u007f") + "\n"


QUOTE_NUMBERS = {(DURABLE, "durable"): 1, (ORDERED, "durable"): 2, (ORDERED, "ordered"): 1}
"""Each quote's number in its claim, as `durable #2` and `--quote 2` say it."""


def test_every_check_names_its_claim_quote_source_and_run(outputs: dict[str, Any]) -> None:
    """A check's `quote_index` is the number the command line gives the quote (from 1),
    and every check carries the ids a script needs to name it back."""
    refreshed = outputs["refresh"]
    assert refreshed["checks"] and all(c["run_id"] == refreshed["run"] for c in refreshed["checks"])
    checks = [c for name in ("refresh", "diff", "history") for c in outputs[name]["checks"]]
    checks += outputs["status"]["as_read"]["checks"] + outputs["diff"]["as_read"]
    numbered = [c for c in checks if (c["quote_text"], c["claim_id"]) in QUOTE_NUMBERS]
    assert len(numbered) >= 6
    for check in numbered:
        assert check["quote_index"] == QUOTE_NUMBERS[check["quote_text"], check["claim_id"]]
        assert check["source_id"] in ("guide", "mirror"), check
    assert all("quote" not in check for check in checks), "one number a quote: quote_index"
    history = outputs["history"]["checks"]
    assert all(isinstance(check["run_id"], int) for check in history)
    claims = [claim for section in outputs["report"]["sections"] for claim in section["claims"]]
    numbers = {claim["id"]: [quote["index"] for quote in claim["quotes"]] for claim in claims}
    assert numbers == {"durable": [1, 2], "ordered": [1], "alarms": [1]}  # the report's too


def test_every_source_row_is_one_source_by_its_id(outputs: dict[str, Any]) -> None:
    """A row a source (a page two sources share is in each one's row), sorted by id."""
    for name in ("refresh", "status"):
        rows = {row["source_id"]: row["url"] for row in outputs[name]["sources"]}
        assert list(rows) == ["guide", "mirror", "other"], name
        assert rows["guide"].endswith("/guide") and rows["other"].endswith("/other"), name


def test_status_lists_every_claim_with_its_grades_and_standing(outputs: dict[str, Any]) -> None:
    rows = {row["claim_id"]: row for row in outputs["status"]["claims"]}
    assert list(rows) == ["durable", "ordered", "alarms"]
    assert rows["durable"]["grades"] == [
        {"on": "wording", "grade": "DEMONSTRATED"},
        {"on": "holds under crashes", "grade": "UNKNOWN"},
    ]
    assert {claim: row["standing"] for claim, row in rows.items()} == {
        "durable": "missing",
        "ordered": "missing",
        "alarms": "drifted",
    }
    assert (rows["durable"]["quotes"], rows["durable"]["section"]) == (2, "main")
    assert rows == {row["claim_id"]: row for row in outputs["refresh"]["claims"]}


@pytest.mark.parametrize("runner", ["GITHUB_ACTIONS", "TF_BUILD", None])
def test_no_view_gives_the_runner_a_command_from_the_ledgers_words(
    cli: Cli, page_server: PageServer, monkeypatch: pytest.MonkeyPatch, runner: str | None
) -> None:
    """A claim's words (a cloned ledger's, a page's heading) printed in a CI job's log
    could give its runner a command: `##[` (`##vso[`) anywhere in a line, `::` at a
    line's start. Under a runner every view prints them broken (the text reads the
    same); JSON escapes them always (the same document); elsewhere text views print
    them exactly as written."""
    for name in ("GITHUB_ACTIONS", "TF_BUILD"):
        monkeypatch.delenv(name, raising=False)
    if runner is not None:
        monkeypatch.setenv(runner, "true" if runner == "GITHUB_ACTIONS" else "True")
    hostile = "wording\n::error::fake ##[stop-commands]tok ##vso[task.complete]\n  ::add-mask::x"
    text = cli.ledger.read_text(encoding="utf-8")
    graded = "- {on: wording, grade: DEMONSTRATED, basis: quotes}  # graded by hand once"
    assert graded in text
    facet = graded.replace("on: wording", f"on: {json.dumps(hostile)}")
    cli.ledger.write_text(text.replace(graded, facet), encoding="utf-8")
    refresh(cli, code=0)

    texts = [
        cli("explain", "alarms"),
        cli("claims", "--plain"),
        cli("regrade", "--check", code=0),
    ]
    data = [
        cli("status", "--json"),
        cli("render", "-f", "json", "-o", "-"),
    ]

    for view in (texts if runner else []) + data:
        for line in (view.stdout + view.stderr).splitlines():
            assert "##[" not in line and "##vso[" not in line, line
            assert not line.lstrip().startswith("::"), line
    said = "\n".join(view.stdout for view in texts)
    assert ("\u200b" in said) == (runner is not None)
    assert "::error::fake ##[stop-commands]tok" in said.replace("\u200b", "")
    assert hostile in strings_in(json.loads(data[1].stdout))  # the same words, escaped


def strings_in(value: Any) -> set[str]:
    """Every string a JSON document holds, at any depth."""
    if isinstance(value, str):
        return {value}
    inner = value.values() if isinstance(value, dict) else value if isinstance(value, list) else ()
    return {text for item in inner for text in strings_in(item)}


def test_junit_gives_no_runner_a_command_and_is_the_same_document() -> None:
    """A page's words in a JUnit message (its closest wording, over several lines) are
    written with character references where a runner would read a command."""
    from claimledger.report.cimarks import xml_marks_escaped

    xml = '<a m="q ##[r">t ##vso[x]\n::add-mask::y\n  ::e a::b</a>'
    safe = xml_marks_escaped(xml)

    assert "##[" not in safe and "##vso[" not in safe
    assert not any(line.lstrip().startswith("::") for line in safe.splitlines())
    before, after = etree.fromstring(xml), etree.fromstring(safe)
    assert (before.text, before.get("m")) == (after.text, after.get("m"))
