"""Running a claim's executable evidence (the neutral toy) and saying what it did.

The command comes from the ledger, the author's own file, and runs beside it with a
timeout; without `shell: true` it is an argument list and no shell sees it. A run is
recorded whole (`ArtifactRun`): how it ended, what it printed against what is expected,
how long it took, and which program ran it, since a changed interpreter is the first
suspect when the output changes.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import difflib
import fnmatch
import os
import re
import selectors
import shlex
import shutil
import signal
import subprocess
import threading
import time
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from claimledger.grading.rules import ArtifactOutcome
from claimledger.ledger.model import Artifact
from claimledger.records import ArtifactRun
from claimledger.urls import redact_urls

MAX_OUTPUT = 1024 * 1024
CHUNK = 65536
POLL_SECONDS = 0.05
"""How often a running artifact is looked at, to see whether it has ended."""
DRAIN_SECONDS = 1.0
"""How long what a run printed as it ended is read once it is over."""
SHELL_COULD_NOT_RUN = frozenset({126, 127})
"""A shell's "not executable" and "command not found": like a missing program, no evidence."""
SHELL = "/bin/sh"
"""The shell `shell: true` runs the command with (subprocess's on POSIX)."""
INTERPRETERS = ("python*", "node", "deno", "bun", "ruby", "perl", "bash", "sh")
"""Programs whose `--version` is asked for the record; no other program is run for it."""
VERSION_TIMEOUT = 5.0


def command_line(artifact: Artifact) -> str:
    """The artifact's command on one line, as the store and the report show it."""
    return artifact.run if isinstance(artifact.run, str) else shlex.join(artifact.run)


def execute(claim_id: str, artifact: Artifact, cwd: Path, ran_at: dt.datetime) -> ArtifactRun:
    """Run the artifact once in `cwd` and record what it did (`ran_at`: when it started)."""
    command, program = _command(artifact)
    ended = _run(command, program, artifact, cwd)
    return ArtifactRun(
        claim_id=claim_id,
        ran_at=ran_at,
        command=command_line(artifact),
        started=ended.started,
        exit_status=ended.status,
        matched=ended.status == 0 and _lines(ended.output) == _lines(artifact.expect),
        output=masked(ended.output, os.environ, cut=ended.status is None or _at_cap(ended.output)),
        expected=artifact.expect,
        error=ended.error,
        seconds=ended.seconds,
        runner=describe_runner(program, cwd),
    )


@dataclass(frozen=True)
class _Ended:
    """How one run ended: whether the program started, its exit status (None: it did not
    finish), what it printed, what went wrong, and how long it took."""

    started: bool
    status: int | None
    output: str
    error: str | None
    seconds: float


def _command(artifact: Artifact) -> tuple[str | list[str], str]:
    """What to hand subprocess, and the program that will run it (the shell, with `shell`)."""
    if artifact.shell:
        return command_line(artifact), SHELL
    argv = shlex.split(artifact.run) if isinstance(artifact.run, str) else list(artifact.run)
    return argv, argv[0] if argv else ""


SECRET_PARTS = (
    "PASSWORD", "PASSWD", "PASSPHRASE", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATEKEY", "APIKEY",
    "ACCESSKEY",
)  # fmt: skip
"""What a variable's name holds, its words run together, when it holds a secret
(PGPASSWORD, GITHUB_TOKEN, AWS_SECRET_ACCESS_KEY, OPENAI_API_KEY, githubToken)."""
SHORTEST_SECRET = 8
"""A shorter value ("1", "true") is no secret, and would be masked wherever it is printed."""


def secret_named(name: str) -> bool:
    """Whether a variable's name says it holds a secret: a part of `SECRET_PARTS`, or the
    word AUTH (REDISCLI_AUTH, DOCKER_AUTH_CONFIG), not SSH_AUTH_SOCK's socket. Neither
    GIT_AUTHOR_EMAIL nor XAUTHORITY is one (masking them falsified a run's output)."""
    words = [word for word in re.split(r"[^A-Z0-9]+", name.upper()) if word]
    run_together = "".join(words)
    named = any(part in run_together for part in SECRET_PARTS)
    return named or ("AUTH" in words and words[-1] != "SOCK")


def masked(output: str, environment: Mapping[str, str], *, cut: bool = False) -> str:
    """`output` with the value of each secret-named variable of the `environment` the
    command ran in shown as REDACTED, and an address's password too: a command that prints
    its settings put a token in the store, and from there in every report. The output is
    compared with `expect` first; one `cut` (at its cap, or its timeout) ends with no piece
    of one."""
    secrets = {
        value
        for name, value in environment.items()
        if secret_named(name) and len(value) >= SHORTEST_SECRET
    }
    for secret in sorted(secrets, key=len, reverse=True):  # a longer one holding a shorter
        output = output.replace(secret, "REDACTED")
        if cut:  # a piece of it at the end: cut at the cap, or where the run was stopped
            whole = output.rstrip("\ufffd")  # a character cut inside
            piece = next(
                (n for n in range(len(secret) - 1, 3, -1) if whole.endswith(secret[:n])), 0
            )
            output = whole[: len(whole) - piece] + "REDACTED" if piece else output
    return _PASSWORD_IN_ADDRESS.sub(r"\1:REDACTED@", redact_urls(output))


_PASSWORD_IN_ADDRESS = re.compile(r"(?<=://)([^/?#@\s:]+):[^/?#\s]+@")
"""The password of an address of any scheme (`postgres://app:pw@db/app`): a user name alone,
`ssh://git@host`, is no secret, and `python:3.12@sha256` is no address."""


def _at_cap(output: str) -> bool:
    """Whether the output kept was cut at MAX_OUTPUT (its last character may be a piece)."""
    return len(output.encode("utf-8")) >= MAX_OUTPUT - 3


def _environment() -> dict[str, str]:
    """The user's environment, with Python told not to import from the folder it runs in
    (a file dropped beside the ledger, an `asyncio.py` that `python3 -c 'import asyncio'`
    would load), nor to write its bytecode there: consent covers every file of the
    ledger's directory, and a `__pycache__` a run left would make it read as changed."""
    return {**os.environ, "PYTHONSAFEPATH": "1", "PYTHONDONTWRITEBYTECODE": "1"}


def _run(command: str | list[str], program: str, artifact: Artifact, cwd: Path) -> _Ended:
    if not program:
        return _Ended(False, None, "", "there is no command to run", 0.0)
    began = time.monotonic()
    try:
        process = subprocess.Popen(
            command,
            cwd=cwd,
            shell=artifact.shell,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=_environment(),
            start_new_session=True,
        )
    except OSError as problem:
        error = f"cannot start {program}: {problem.strerror or problem}"
        return _Ended(False, None, "", error, time.monotonic() - began)
    with process:
        printed, status = _watch(process, artifact.timeout)
    seconds = time.monotonic() - began
    output = _text(printed)
    if status is None:  # killed; what it printed so far is kept
        return _Ended(True, None, output, f"timed out after {artifact.timeout:g} s", seconds)
    if artifact.shell and status in SHELL_COULD_NOT_RUN:
        error = f"the shell could not run it (status {status})"
        return _Ended(False, status, output, error, seconds)
    return _Ended(True, status, output, _how_it_failed(status), seconds)


def _how_it_failed(status: int) -> str | None:
    """Why a run that ended failed, in words: a negative status is the signal that ended
    it (SIGKILL from the kernel short of memory, or from a person), no exit of its own."""
    if status >= 0:
        return None if status == 0 else f"exited with status {status}"
    try:
        name = signal.Signals(-status).name
    except ValueError:
        name = "an unknown signal"
    return f"killed by signal {-status} ({name})"


def _watch(process: subprocess.Popen[bytes], timeout: float) -> tuple[bytes, int | None]:
    """What the program printed (its first MAX_OUTPUT bytes) and its exit status, None
    when it outran `timeout`. It runs in a session of its own, and when it ends, times out
    or the user interrupts, every process it started is killed: a `sleep 1000 &` left
    holding its output would otherwise hold the run until the timeout, and outlive it.
    Output past the cap is read and dropped, never kept: `yes` must not fill the memory
    before its timeout."""
    assert process.stdout is not None
    pipe, kept = process.stdout.fileno(), bytearray()
    with selectors.DefaultSelector() as selector:
        selector.register(pipe, selectors.EVENT_READ)
        try:
            with _ended_with_us(process):
                status = _until_it_ends(process, selector, kept, time.monotonic() + timeout)
        finally:
            _kill_session(process)
        if status is None:
            process.wait()
        drained = time.monotonic() + DRAIN_SECONDS  # what it printed as it ended
        while selector.get_map() and selector.select(max(0.0, drained - time.monotonic())):
            if not _read_into(kept, pipe):
                break
    return bytes(kept), status


def _until_it_ends(
    process: subprocess.Popen[bytes],
    selector: selectors.BaseSelector,
    kept: bytearray,
    deadline: float,
) -> int | None:
    """Read the program's output while it runs; its exit status, or None at `deadline`."""
    assert process.stdout is not None
    pipe = process.stdout.fileno()
    while (status := process.poll()) is None and time.monotonic() < deadline:
        left = max(0.0, deadline - time.monotonic())
        if selector.select(min(POLL_SECONDS, left)) and not _read_into(kept, pipe):
            selector.unregister(pipe)  # it closed its output and runs on
            try:
                return process.wait(max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                return None
    return status


ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
"""The signals that end claimledger where it stands, running no `finally`: a CI job
cancelled, `timeout`, `kill`, the terminal closed."""


@contextlib.contextmanager
def _ended_with_us(process: subprocess.Popen[bytes]) -> Iterator[None]:
    """While the run goes on, a signal that ends claimledger kills the run's session
    first: in a session of its own, no signal sent to claimledger reaches it, and it
    would run on for ever. claimledger then ends of the signal, as it would have. A
    signal someone else handles or ignores, or a run off the main thread, is left be."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    taken = [n for n in ENDING_SIGNALS if signal.getsignal(n) is signal.SIG_DFL]

    def end(signum: int, frame: object) -> None:
        _kill_session(process)
        signal.signal(signum, signal.SIG_DFL)
        os.kill(os.getpid(), signum)

    for signum in taken:
        signal.signal(signum, end)
    try:
        yield
    finally:
        for signum in taken:
            signal.signal(signum, signal.SIG_DFL)


def _read_into(kept: bytearray, pipe: int) -> bool:
    """Read what is ready on `pipe`, keeping no more than MAX_OUTPUT bytes in all; False
    at its end."""
    chunk = os.read(pipe, CHUNK)
    kept += chunk[: max(0, MAX_OUTPUT - len(kept))]
    return bool(chunk)


def _kill_session(process: subprocess.Popen[bytes]) -> None:
    """Kill the run's whole session: the program if it still runs, and all it started."""
    with contextlib.suppress(ProcessLookupError):  # nothing of it is left
        os.killpg(process.pid, signal.SIGKILL)


def outcome_of(run: ArtifactRun, *, recorded: bool = False) -> ArtifactOutcome:
    """What the artifact rule weighs of a run: nothing unless it ran; else whether its
    output matched, and how it differs (`recorded`: a run this regrade did not make)."""
    if not run.ran:
        return ArtifactOutcome(run.claim_id, False, error=run.error, ran=False, recorded=recorded)
    diff = "" if run.matched else _diff(run.expected, run.output)
    return ArtifactOutcome(run.claim_id, run.matched, diff, run.error, recorded=recorded)


def run_artifact(claim_id: str, artifact: Artifact, cwd: Path) -> ArtifactOutcome:
    """Run the artifact and say whether its standard output still matches `expect`."""
    return outcome_of(execute(claim_id, artifact, cwd, dt.datetime.now(dt.UTC)))


def describe_runner(program: str, cwd: Path) -> str:
    """The executable `program` resolves to (as the run in `cwd` finds it), with the version
    line of a known interpreter; "" when there is no such program."""
    path = _resolved(program, cwd)
    if path is None:
        return ""
    version = _version_line(path, cwd) if _is_interpreter(path) else None
    return f"{path} ({version})" if version else path


def _resolved(program: str, cwd: Path) -> str | None:
    """The absolute path of `program`: a path is relative to `cwd`, where it runs; a name
    is looked up on PATH."""
    if not program:
        return None
    found = shutil.which(str(cwd / program) if os.sep in program else program)
    return None if found is None else str(Path(found).absolute())


def _is_interpreter(path: str) -> bool:
    name = Path(path).name
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in INTERPRETERS)


def _version_line(path: str, cwd: Path) -> str | None:
    """The first line `EXE --version` prints (in `cwd`: a version manager's shim picks the
    interpreter by directory), or None when it fails or takes too long."""
    try:
        done = subprocess.run(
            [path, "--version"],
            cwd=cwd,
            capture_output=True,
            timeout=VERSION_TIMEOUT,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    for stream in (done.stdout, done.stderr):  # Python 2 printed its version on stderr
        lines = _text(stream[:4096]).strip().splitlines()
        if lines:
            return lines[0].strip()
    return None


def _text(output: bytes | None) -> str:
    """Standard output as text, capped at MAX_OUTPUT bytes."""
    return (output or b"")[:MAX_OUTPUT].decode("utf-8", errors="replace")


def _lines(text: str) -> list[str]:
    """Output compared line by line, ignoring trailing spaces and trailing blank lines."""
    return [line.rstrip() for line in text.rstrip().splitlines()]


def _diff(expected: str, actual: str) -> str:
    return "\n".join(
        difflib.unified_diff(_lines(expected), _lines(actual), "expected", "actual", lineterm="")
    )
