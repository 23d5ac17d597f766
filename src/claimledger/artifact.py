"""Re-running a claim's executable evidence (the neutral toy) and comparing its output.

The command comes from the ledger, the author's own file, and runs beside it with a
timeout; without `shell: true` it is an argument list and no shell sees it.
"""

from __future__ import annotations

import difflib
import shlex
import subprocess
from pathlib import Path

from claimledger.grade import ArtifactOutcome
from claimledger.ledger import Artifact

MAX_OUTPUT = 1024 * 1024
SHELL_COULD_NOT_RUN = frozenset({126, 127})
"""A shell's "not executable" and "command not found": like a missing program, no evidence."""


def run_artifact(claim_id: str, artifact: Artifact, cwd: Path) -> ArtifactOutcome:
    """Run the artifact and say whether its standard output still matches `expect`."""
    command: str | list[str]
    if artifact.shell:
        command = artifact.run if isinstance(artifact.run, str) else shlex.join(artifact.run)
    else:
        command = shlex.split(artifact.run) if isinstance(artifact.run, str) else list(artifact.run)
    try:
        completed = subprocess.run(
            command,
            cwd=cwd,
            shell=artifact.shell,
            capture_output=True,
            timeout=artifact.timeout,
            check=False,
            stdin=subprocess.DEVNULL,
        )
    except subprocess.TimeoutExpired:
        error = f"timed out after {artifact.timeout:g} s"
        return ArtifactOutcome(claim_id, False, error=error, ran=False)
    except OSError as problem:
        return ArtifactOutcome(
            claim_id, False, error=f"could not start: {problem.strerror}", ran=False
        )
    output = completed.stdout[:MAX_OUTPUT].decode("utf-8", errors="replace")
    if artifact.shell and completed.returncode in SHELL_COULD_NOT_RUN:
        error = f"the shell could not run it (status {completed.returncode})"
        return ArtifactOutcome(claim_id, False, error=error, ran=False)
    if completed.returncode != 0:
        return ArtifactOutcome(
            claim_id,
            False,
            diff=_diff(artifact.expect, output),
            error=f"exited with status {completed.returncode}",
        )
    matched = _lines(output) == _lines(artifact.expect)
    return ArtifactOutcome(
        claim_id, matched, diff="" if matched else _diff(artifact.expect, output)
    )


def _lines(text: str) -> list[str]:
    """Output compared line by line, ignoring trailing spaces and trailing blank lines."""
    return [line.rstrip() for line in text.rstrip().splitlines()]


def _diff(expected: str, actual: str) -> str:
    return "\n".join(
        difflib.unified_diff(_lines(expected), _lines(actual), "expected", "actual", lineterm="")
    )
