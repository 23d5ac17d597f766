"""The command that shows the whole loop offline: demo."""

from __future__ import annotations

import time
import urllib.parse
from pathlib import Path
from typing import Annotated

import typer

from claimledger.cli.app import app, command
from claimledger.errors import ExitCode
from claimledger.terminal.output import out


@command("demo")
def demo_command(
    ctx: typer.Context,
    directory: Annotated[
        Path, typer.Argument(help="Where to put the demo's ledger, evidence and reports.")
    ] = Path("out/demo"),
) -> ExitCode:
    """The whole loop offline, on the bundled example and local copies of its pages.

    Copies the model teardown's ledger into DIR, serves its pages on 127.0.0.1 as they
    were on the day they were read, refreshes (everything verified), serves them as
    they are later (a rewording, a negated guarantee, a removed paragraph, a moved
    page, a 404), refreshes again, regrades, accepts the harmless rewording, and
    renders the report in Markdown and HTML.
    """
    from claimledger.ledger.file import load
    from claimledger.workspace.demo import (
        ARCHIVE_HOST,
        DEMO_NEXT,
        demo_data,
        demo_steps,
        demo_url_map,
        prepare_demo_directory,
        serve_pages,
    )

    started = time.perf_counter()
    ledger_path = prepare_demo_directory(directory)
    ledger = load(ledger_path)
    hosts = sorted({urllib.parse.urlsplit(s.url).hostname or "" for s in ledger.sources.values()})
    hosts.append(ARCHIVE_HOST)  # the web archive of the reading day's copies
    with serve_pages(demo_data(), "read") as server:
        steps = demo_steps(ledger.date_read.isoformat(), demo_url_map(server.base_url, hosts))
        for step in steps:
            if step.version is not None:
                server.switch(step.version)
            if step.title:
                out.rule(step.title, align="left", style="bold")
            if step.says:
                out.print(step.says, markup=False, style="italic")
            code = _run_step(ledger_path, step.args)
            if code not in (ExitCode.OK, ExitCode.FOUND):
                return code
    elapsed = time.perf_counter() - started
    report = ledger_path.parent / "out" / "report.md"
    out.print(
        f"\ndemo finished in {elapsed:.1f} s; the report is {report} (and report.html beside it);"
        f" the ledger is {ledger_path}",
        markup=False,
    )
    html = report.with_suffix(".html")
    out.print(DEMO_NEXT.format(report=html, ledger=ledger_path), markup=False)
    return ExitCode.OK


def _run_step(ledger_path: Path, args: tuple[str, ...]) -> ExitCode:
    """Run one real command of the loop and return its exit code: 1 (drift found) is part of
    the story; any other failure ends the demo with that code."""
    try:
        ended = app(
            ["--ledger", str(ledger_path), *args], prog_name="claimledger", standalone_mode=False
        )
    except typer.Exit as done:
        return ExitCode(done.exit_code)
    return ExitCode(ended) if isinstance(ended, int) else ExitCode.OK  # typer returns an exit
