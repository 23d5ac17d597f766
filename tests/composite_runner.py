"""A composite GitHub Action run on this machine, step by step, as the runner runs it.

Each `run:` step is written to a file and run in its shell as GitHub runs it (`bash
--noprofile --norc -eo pipefail FILE`, `python FILE`), with the `${{ }}` expressions of
its `env:`, `with:` and `if:` evaluated from the `inputs`, `steps`, `github` and
`runner` contexts, and GITHUB_OUTPUT, GITHUB_STEP_SUMMARY, GITHUB_ENV and GITHUB_PATH
as files. A step whose `if:` names no status function runs only while every step
before it succeeded, and a failed step fails the action; the steps after it still
run where their `if:` says so (`always()`).

The `uses:` steps are played by stand-ins, since their real code runs on GitHub's
side: setup-python does nothing (the `python` on PATH is this environment's),
`actions/cache/restore` and `actions/cache/save` keep folders in a `FakeCache` with
GitHub's key rules (an exact key, else the newest entry under a restore-keys
prefix; a key is saved once), and `actions/upload-artifact` copies the file it is
given, failing when it is not there.

The expression language is the subset actions use: context paths (with hyphens),
'strings', numbers, true/false/null, == != && || ! and parentheses, and the status
functions; comparison of text ignores case, as GitHub's does.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from claimledger.ledger.safeyaml import load_located

STEP_TIMEOUT = 120  # seconds; a step only runs claimledger on a loopback site
SHELLS = {
    "bash": ["bash", "--noprofile", "--norc", "-eo", "pipefail", "{0}"],
    "python": ["python", "{0}"],
}
STATUS_FUNCTIONS = ("success", "failure", "always", "cancelled")
EXPRESSION = re.compile(r"\$\{\{\s*(.*?)\s*\}\}", re.S)
TOKEN = re.compile(
    r"""\s*(?:
      (?P<string>'(?:[^']|'')*')
    | (?P<number>\d+(?:\.\d+)?)
    | (?P<op>==|!=|&&|\|\||!|\(|\))
    | (?P<call>[A-Za-z_]\w*)\s*\(
    | (?P<path>[A-Za-z_][\w-]*(?:\.[A-Za-z_][\w-]*)*)
    )""",
    re.X,
)


def load_yaml(path: Path) -> Any:
    """YAML as GitHub reads it (the 1.2 core schema: `on` stays a word)."""
    located, problems = load_located(path.read_text(encoding="utf-8"))
    assert located is not None and not problems, problems
    return located.data


# --------------------------------------------------------------------------- expressions


def text_of(value: Any) -> str:
    """How GitHub turns a value into text: null is empty, booleans are lower case."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float) and value.is_integer():
        return str(int(value))
    return str(value)


class Value:
    """A value in an expression: truthy as GitHub has it, equal to another ignoring case."""

    raw: Any

    def __init__(self, raw: Any) -> None:
        self.raw = raw.raw if isinstance(raw, Value) else raw

    def __bool__(self) -> bool:
        return self.raw not in (None, False, "", 0)

    def __eq__(self, other: object) -> bool:
        other_raw = other.raw if isinstance(other, Value) else other
        return text_of(self.raw).casefold() == text_of(other_raw).casefold()

    def __hash__(self) -> int:
        return hash(text_of(self.raw).casefold())


def _translate(expression: str) -> str:
    """The expression as Python over `_V` values, `_ctx` lookups and `_f` functions."""
    python: list[str] = []
    position = 0
    while position < len(expression.rstrip()):
        match = TOKEN.match(expression, position)
        assert match, f"cannot read the expression at {expression[position:]!r}"
        position = match.end()
        if match["string"] is not None:
            python.append(f"_V({match['string'][1:-1].replace(chr(39) * 2, chr(39))!r})")
        elif match["number"] is not None:
            python.append(f"_V({match['number']})")
        elif match["op"] is not None:
            python.append({"&&": " and ", "||": " or ", "!": " not "}.get(match["op"], match["op"]))
        elif match["call"] is not None:
            assert match["call"] in STATUS_FUNCTIONS, f"unsupported function {match['call']}()"
            python.append(f"_f[{match['call']!r}](")
        else:
            name = match["path"]
            words = {"true": "_V(True)", "false": "_V(False)", "null": "_V(None)"}
            python.append(words.get(name, f"_ctx({name!r})"))
    return "".join(python)


@dataclass
class Contexts:
    """What expressions can see, and how the run has gone so far (for the status functions)."""

    inputs: dict[str, str]
    github: dict[str, str]
    runner: dict[str, str]
    steps: dict[str, dict[str, Any]] = field(default_factory=dict)
    failed: bool = False
    cancelled: bool = False
    """The run was cancelled: then, as on GitHub, neither success() nor failure() holds."""

    def lookup(self, path: str) -> Value:
        head, *rest = path.split(".")
        node: Any = {
            "inputs": self.inputs,
            "github": self.github,
            "runner": self.runner,
            "steps": self.steps,
        }[head]
        for key in rest:
            node = node.get(key) if isinstance(node, Mapping) else None
        return Value(node)

    def evaluate(self, expression: str) -> Any:
        functions = {
            "success": lambda: not self.failed and not self.cancelled,
            "failure": lambda: self.failed and not self.cancelled,
            "always": lambda: True,
            "cancelled": lambda: self.cancelled,
        }
        namespace = {"_V": Value, "_ctx": self.lookup, "_f": functions, "__builtins__": {}}
        result = eval(_translate(expression), namespace)  # our own translation, of our files
        return result.raw if isinstance(result, Value) else result

    def substitute(self, text: Any) -> str:
        """A `with:` or `env:` value with each `${{ }}` replaced by its value's text."""
        if not isinstance(text, str):
            return text_of(text)
        return EXPRESSION.sub(lambda match: text_of(self.evaluate(match[1])), text)

    def condition(self, step: Mapping[str, Any]) -> bool:
        """A step's `if:`, with GitHub's implicit success() when it names no status function."""
        written = step.get("if")
        if written is None:
            return not self.failed and not self.cancelled
        expression = str(written).strip()
        whole = EXPRESSION.fullmatch(expression)
        expression = whole[1] if whole else expression
        if not re.search(rf"\b(?:{'|'.join(STATUS_FUNCTIONS)})\s*\(", expression):
            expression = f"success() && ({expression})"
        return Value(self.evaluate(expression)).__bool__()


# --------------------------------------------------------------------------- stand-ins


@dataclass
class FakeCache:
    """GitHub's cache for one repository and branch: entries by key, in the order saved."""

    root: Path
    entries: list[str] = field(default_factory=list)

    def restore(self, path: Path, key: str, restore_keys: list[str]) -> str | None:
        """Restore the exact key, else the newest entry under the first prefix that has one."""
        if key in self.entries:
            matched: str | None = key
        else:
            matched = next(
                (
                    entry
                    for prefix in restore_keys
                    for entry in reversed(self.entries)
                    if entry.startswith(prefix)
                ),
                None,
            )
        if matched is not None:
            shutil.copytree(self._folder(matched), path, dirs_exist_ok=True)
        return matched

    def save(self, path: Path, key: str) -> bool:
        """Save `path` under `key`, unless the key is taken (GitHub warns and saves nothing)."""
        if key in self.entries or not path.exists():
            return False
        shutil.copytree(path, self._folder(key))
        self.entries.append(key)
        return True

    def _folder(self, key: str) -> Path:
        """Entries are kept in numbered folders; a key not saved yet gets the next number."""
        number = self.entries.index(key) if key in self.entries else len(self.entries)
        return self.root / str(number)


@dataclass
class StepResult:
    name: str
    id: str | None
    status: str  # success, failure or skipped
    code: int | None = None
    stdout: str = ""
    stderr: str = ""
    outputs: dict[str, str] = field(default_factory=dict)
    uses: str | None = None
    given: dict[str, str] = field(default_factory=dict)  # its `with:` or `env:`, evaluated


@dataclass
class ActionRun:
    steps: list[StepResult]
    outputs: dict[str, str]
    summary: str

    @property
    def failed(self) -> bool:
        return any(step.status == "failure" for step in self.steps)

    @property
    def stdout(self) -> str:
        return "".join(step.stdout for step in self.steps)

    def step(self, name_or_id: str) -> StepResult:
        (found,) = (s for s in self.steps if name_or_id in (s.id, s.name))
        return found


def read_outputs(path: Path) -> dict[str, str]:
    """GITHUB_OUTPUT's two forms: `name=value` lines and `name<<DELIMITER` blocks."""
    outputs: dict[str, str] = {}
    lines = iter(path.read_text(encoding="utf-8").splitlines())
    for line in lines:
        if "<<" in line and ("=" not in line or line.index("<<") < line.index("=")):
            name, delimiter = line.split("<<", 1)
            block: list[str] = []
            for inner in lines:
                if inner == delimiter:
                    break
                block.append(inner)
            outputs[name] = "\n".join(block)
        elif "=" in line:
            name, value = line.split("=", 1)
            outputs[name] = value
    return outputs


# --------------------------------------------------------------------------- the runner


@dataclass
class CompositeAction:
    """action.yml, run in `workspace` with the given `inputs`, as the runner would."""

    metadata: dict[str, Any]
    action_path: Path
    cache: FakeCache
    uploads: Path
    path_first: tuple[Path, ...] = ()  # stand-in commands, ahead of this environment's
    environment: dict[str, str] = field(default_factory=dict)

    def run(self, workspace: Path, inputs: Mapping[str, Any], *, run_id: int) -> ActionRun:
        declared = self.metadata["inputs"]
        unknown = set(inputs) - set(declared)
        assert not unknown, f"inputs the action does not declare: {sorted(unknown)}"
        temp = workspace.parent / f"runner-temp-{run_id}"
        temp.mkdir()
        github = {
            "action_path": str(self.action_path),
            "workspace": str(workspace),
            "server_url": "https://github.example",
            "repository": "teardowns/durable-objects",
            "run_id": str(run_id),
            "run_attempt": "1",
            "token": "not-a-real-token",
        }
        contexts = Contexts(
            inputs={},
            github=github,
            runner={"os": "Linux", "temp": str(temp)},
        )
        contexts.inputs = {
            name: contexts.substitute(inputs.get(name, spec.get("default", "")))
            for name, spec in declared.items()
        }
        files = {
            name: temp / name.lower()
            for name in ("GITHUB_STEP_SUMMARY", "GITHUB_ENV", "GITHUB_PATH")
        }
        for path in files.values():
            path.touch()
        base = {
            key: value
            for key, value in os.environ.items()
            if not key.startswith(("GITHUB_", "RUNNER_", "CLAIMLEDGER_", "INPUT_"))
        }
        base.update(
            {
                "PATH": os.pathsep.join(
                    [*map(str, self.path_first), str(Path(sys.executable).parent), base["PATH"]]
                ),
                "CI": "true",
                "GITHUB_ACTIONS": "true",
                "GITHUB_ACTION_PATH": str(self.action_path),
                "GITHUB_WORKSPACE": str(workspace),
                "GITHUB_REPOSITORY": github["repository"],
                "GITHUB_SERVER_URL": github["server_url"],
                "GITHUB_RUN_ID": github["run_id"],
                "GITHUB_RUN_ATTEMPT": github["run_attempt"],
                "RUNNER_OS": "Linux",
                "RUNNER_TEMP": str(temp),
                **{name: str(path) for name, path in files.items()},
                **self.environment,
            }
        )
        results = []
        for index, step in enumerate(self.metadata["runs"]["steps"]):
            result = self._step(index, step, contexts, base, workspace, temp)
            results.append(result)
            contexts.failed = contexts.failed or result.status == "failure"
            if result.id:
                outcome = result.status
                contexts.steps[result.id] = {
                    "outputs": result.outputs,
                    "outcome": outcome,
                    "conclusion": outcome,
                }
        outputs = {
            name: contexts.substitute(spec["value"])
            for name, spec in self.metadata.get("outputs", {}).items()
        }
        summary = files["GITHUB_STEP_SUMMARY"].read_text(encoding="utf-8")
        return ActionRun(results, outputs, summary)

    def _step(
        self,
        index: int,
        step: Mapping[str, Any],
        contexts: Contexts,
        base: dict[str, str],
        workspace: Path,
        temp: Path,
    ) -> StepResult:
        name = str(step.get("name") or step.get("uses") or f"step {index}")
        result = StepResult(name, step.get("id"), "skipped", uses=step.get("uses"))
        if not contexts.condition(step):
            return result
        if "uses" in step:
            given = {k: contexts.substitute(v) for k, v in (step.get("with") or {}).items()}
            result.given = given
            self._stand_in(result, given, workspace)
            return result
        env = {k: contexts.substitute(v) for k, v in (step.get("env") or {}).items()}
        result.given = env
        script = temp / f"step-{index}.{'py' if step['shell'] == 'python' else 'sh'}"
        script.write_text(step["run"], encoding="utf-8")
        output = temp / f"output-{index}"
        output.touch()
        command = [part.replace("{0}", str(script)) for part in SHELLS[step["shell"]]]
        done = subprocess.run(
            command,
            cwd=workspace,
            env={**base, **env, "GITHUB_OUTPUT": str(output)},
            capture_output=True,
            text=True,
            timeout=STEP_TIMEOUT,
            check=False,
        )
        result.status = "success" if done.returncode == 0 else "failure"
        result.code, result.stdout, result.stderr = done.returncode, done.stdout, done.stderr
        result.outputs = read_outputs(output)
        return result

    def _stand_in(self, result: StepResult, given: dict[str, str], workspace: Path) -> None:
        action = (result.uses or "").split("@", 1)[0]
        result.status = "success"
        if action == "actions/setup-python":
            return
        if action == "actions/cache/restore":
            restore_keys = [k for k in given.get("restore-keys", "").splitlines() if k.strip()]
            matched = self.cache.restore(workspace / given["path"], given["key"], restore_keys)
            result.outputs = {
                "cache-primary-key": given["key"],
                "cache-matched-key": matched or "",
                "cache-hit": text_of(matched == given["key"]),
            }
        elif action == "actions/cache/save":
            saved = self.cache.save(workspace / given["path"], given["key"])
            result.outputs = {"saved": text_of(saved)}
        elif action == "actions/upload-artifact":
            source = workspace / given["path"]
            target = self.uploads / given["name"]
            if not source.is_file() or target.exists():
                result.status, result.stderr = "failure", f"cannot upload {source} as {target.name}"
                return
            target.mkdir(parents=True)
            shutil.copy2(source, target / source.name)
        else:
            raise AssertionError(f"no stand-in for {result.uses}")
