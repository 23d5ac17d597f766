"""The command that writes the teardown report: render."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from claimledger.artifact import outcome_of
from claimledger.atomicfile import refuse_links, replace_atomically
from claimledger.cli.app import (
    command,
    latest_artifact_runs,
    latest_checks,
    latest_fetches,
    options,
    out,
    today,
)
from claimledger.errors import EnvironmentProblem, ExitCode, InputError
from claimledger.grade import regrade
from claimledger.report import (
    FORMAT_NAMES,
    Templates,
    build_report,
    format_for,
    format_name_for,
    report_state,
    templates_loader,
)


@command("render")
def render_command(
    ctx: typer.Context,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            help=f"{', '.join(FORMAT_NAMES)} (default: what --output's suffix names, else md).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Default: out/report.<format>.")
    ] = None,
    templates: Annotated[
        Path | None,
        typer.Option("--templates", help="Your templates (default: templates/ beside the ledger)."),
    ] = None,
) -> ExitCode:
    """Write the teardown report from the ledger and the latest evidence.

    Example: claimledger render -o out/report.html
    """
    opts = options(ctx)
    if templates is not None and not templates.is_dir():
        raise InputError(f"--templates {templates}: not a directory")
    user_templates = templates or opts.home / "templates"
    loader = templates_loader(user_templates if user_templates.is_dir() else None)
    name = fmt or (format_name_for(output) if output else None) or "md"
    report_format = format_for(name, Templates(loader))
    ledger = opts.load()
    checks = latest_checks(opts, ledger)
    fetches, last = latest_fetches(opts, ledger)
    runs = latest_artifact_runs(opts, ledger)
    outcomes = {claim_id: outcome_of(run) for claim_id, run in runs.items()}
    path = output or opts.home / "out" / f"report{report_format.suffix}"
    state_path = path.with_name(f".{path.name}.state.json")
    if output is None:
        refuse_links(path, below=opts.home)  # a default path: never through a planted link
    refuse_links(state_path)  # never named by the user
    report = build_report(
        ledger,
        checks,
        fetches,
        regrade(ledger, checks, outcomes),
        generated_on=today(),
        last_refresh=last.started_at if last else None,
        previous=_read_state(state_path),
        artifact_runs=runs,
    )
    _write_file(path, report_format.render(report))
    _write_file(state_path, json.dumps(report_state(report), indent=1, sort_keys=True) + "\n")
    out.print(f"wrote {path}", markup=False)
    return ExitCode.OK


def _read_state(path: Path) -> dict[str, Any] | None:
    """What the last render saw; a missing or damaged state only means "first render"."""
    try:
        state = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write_file(path: Path, text: str) -> None:
    """Replace `path` atomically, so a reader never sees half a report."""
    path = path.resolve()  # a symlinked report is updated where it points, not replaced
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, text.encode("utf-8"))
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None
