"""A claim's artifact as the report shows it: its program, the output it must print, and
its last run, with what a published report must not carry (the runner's path on the
author's machine, an output past a report's share) left out. Pure.
"""

from __future__ import annotations

import shlex
from collections.abc import Mapping

from claimledger.grading.rules import NO_RUN
from claimledger.grading.verdicts import Trace
from claimledger.ledger.model import Artifact, Claim
from claimledger.records import ArtifactRun
from claimledger.report.model import ArtifactRunView, ArtifactView
from claimledger.report.overview import day


def _command(run: tuple[str, ...] | str) -> str:
    return run if isinstance(run, str) else shlex.join(run)


def artifacts_ran(runs: Mapping[str, ArtifactRun]) -> bool:
    """Whether an artifact's last run finished, so that its output is evidence, as `regrade`
    counts it: the report then has evidence, though no quote may have been checked (which
    its quote sentences say on their own flag, `quotes_checked`)."""
    return any(run.ran for run in runs.values())


def artifact_view(claim: Claim, run: ArtifactRun | None) -> ArtifactView | None:
    """The claim's program, the output it must print, and its last run (`run`) when it has
    one."""
    if claim.artifact is None:
        return None
    artifact = claim.artifact
    last_run = None if run is None else _artifact_run_view(run)
    return ArtifactView(
        _command(artifact.run),
        artifact.expect,
        last_run,
        language=artifact.language or "",
        code=_shown_code(artifact),
        run_as=_run_as(artifact),
    )


def weighed_run(run: ArtifactRun | None, trace: Trace | None) -> str:
    """What an artifact facet's grade was weighed on, for its grade line: the rule's words,
    after the day of the run they weigh. A report runs no artifact, and a run of before
    said "at the last regrade: the artifact's output matches" read as a fresh check, though
    no regrade since may have run it (not trusted since, `--no-artifacts`, files changed)."""
    if trace is None:
        return ""
    if run is None or trace.outcome == NO_RUN:  # a checkout's own run is not weighed
        return f"; {trace.outcome}"
    when = "last run" if run.ran else "last tried"  # a program that never started ran not
    return f"; {when} {day(run.ran_at)}, not re-run for this report: {trace.outcome}"


_INLINE_SCRIPT = frozenset({"-c", "-e", "--eval"})
"""How interpreters take a program on the command line (python -c, node -e, ruby -e)."""


def _run_as(artifact: Artifact) -> str:
    """The command with an inline program named rather than printed a second time."""
    run = artifact.run
    inline = isinstance(run, tuple) and len(run) == 3 and run[1] in _INLINE_SCRIPT
    if artifact.code is None and inline:
        return f"{run[0]} {run[1]} PROGRAM  # the program above"
    return _command(run)


def _shown_code(artifact: Artifact) -> str:
    """The program a reader reads: the ledger's `code`, else the script of an inline run
    (`python3 -c SCRIPT`), else nothing (the command says it all)."""
    if artifact.code is not None:
        return artifact.code
    run = artifact.run
    if isinstance(run, tuple) and len(run) == 3 and run[1] in _INLINE_SCRIPT:
        return run[2]
    return ""


REPORTED_OUTPUT = 10_000
"""Characters of an artifact's output the report shows; the store keeps the rest."""


def _artifact_run_view(run: ArtifactRun) -> ArtifactRunView:
    return ArtifactRunView(
        ran_on=day(run.ran_at),
        exit_status=run.exit_status,
        error=run.error,
        seconds=round(run.seconds, 3),
        runner=published_runner(run.runner),
        matched=run.matched,
        output=_reported_output(run.output),
        label=_artifact_run_words(run),
    )


def published_runner(runner: str) -> str:
    """The program by its name and version (`python3 (Python 3.12.3)`): where it lives on
    the author's machine (`/home/alice/...`) is the store's to keep, not a report's."""
    path, _, version = runner.partition(" (")
    name = path.replace("\\", "/").rsplit("/", 1)[-1]
    return f"{name} ({version}" if version else name


def _artifact_run_words(run: ArtifactRun) -> str:
    """The last run in a sentence: "ran 2026-11-29: exit status 0 in 0.05 s, by …; …"."""
    ended = run.error or f"exit status {run.exit_status}"
    runner = f"by {published_runner(run.runner)}" if run.runner else "no such program was found"
    if run.matched:
        verdict = "it printed what is expected"
    elif run.ran:
        verdict = "it did not print what is expected"
    else:
        verdict = "no evidence either way"
    return f"ran {day(run.ran_at)}: {ended} in {run.seconds:.2f} s, {runner}; {verdict}"


def _reported_output(output: str) -> str:
    if len(output) <= REPORTED_OUTPUT:
        return output
    rest = len(output) - REPORTED_OUTPUT
    return f"{output[:REPORTED_OUTPUT]}\n… ({rest:,} more characters not shown)"
