"""The command that writes the teardown report: render.

The format is --format's, else what the output's name ends in (`-o report.html`), else
Markdown. `-o -` writes the report to stdout. What the report showed is kept in the
evidence store, by format and output, for the next render to say what changed since.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from claimledger.cli.app import command, existing_store, now, options, today
from claimledger.cli.completion import one_of
from claimledger.errors import ExitCode
from claimledger.terminal.output import err, out, warn

FORMATS_SAID = "md, html, json, claimreview"
"""The formats, as the help says them (the report package loads only when a report is
written; a test holds this to its FORMAT_NAMES)."""


@command("render")
def render_command(
    ctx: typer.Context,
    fmt: Annotated[
        str | None,
        typer.Option(
            "--format",
            "-f",
            metavar="FORMAT",
            autocompletion=one_of(FORMATS_SAID.split(", ")),
            help=f"{FORMATS_SAID} (default: what --output's name ends in, else md).",
            show_default=False,
        ),
    ] = None,
    output: Annotated[
        str | None,
        typer.Option(
            "--output",
            "-o",
            help="The file to write, or - for stdout (default: out/report.<format>).",
            metavar="PATH",
        ),
    ] = None,
    base_url: Annotated[
        str | None,
        typer.Option(
            "--base-url",
            help="The address the report will be published at: the ClaimReview's ids and "
            "urls are this address and each claim's anchor.",
            metavar="URL",
        ),
    ] = None,
    templates: Annotated[
        Path | None,
        typer.Option("--templates", help="Your templates (default: templates/ beside the ledger)."),
    ] = None,
) -> ExitCode:
    """Write the teardown report from the ledger and the latest evidence.

    Example: claimledger render -o out/report.html --base-url https://example.org/teardown.html
    """
    from claimledger.cli.options import say
    from claimledger.ledger.located import collector_paused
    from claimledger.report.formats import (
        STDOUT,
        WITH_CLAIMREVIEW,
        format_for,
        format_named_by,
        published_at,
    )
    from claimledger.report.templates import Templates, templates_loader
    from claimledger.services.rendering import render, report_path, templates_folder
    from claimledger.services.stores import for_render_states
    from claimledger.terminal.lines import STRANGER_STORE
    from claimledger.terminal.output import output as printing  # `output` is the option here

    opts = options(ctx)
    loader = templates_loader(templates_folder(templates, opts.ledger, opts.load, say))
    name = fmt or format_named_by(output)
    base = None if base_url is None else published_at(base_url)
    report_format = format_for(name, Templates(loader), base)
    said = name == "claimreview" or (name in WITH_CLAIMREVIEW and printing().verbose)
    if base is None and said:
        err.print(
            "claimledger: note: no --base-url, so no ClaimReview has a url (search engines "
            "ask for one): pass the address the report will be published at",
            markup=False,
        )
    path = (
        None
        if output == STDOUT
        else report_path(
            output, opts.home, report_format.suffix, ledger=opts.ledger, store=opts.store
        )
    )
    with collector_paused():  # what is read stays till the end: no collection walks it
        report = render(
            opts.load(),
            report_format,
            name,
            path,
            ledger_path=opts.ledger,
            states=for_render_states(opts.store, warn),
            evidence=lambda: existing_store(opts),
            today=today(),
            now=now,
            warn=warn,
        )
    if path is not None:
        out.print(f"wrote {path}", markup=False)
    if not report.evidence_made_here:
        err.print(f"claimledger: note: {STRANGER_STORE}", markup=False)
    if report.last_refresh_finished is False:
        err.print(
            f"claimledger: note: a refresh (started {report.last_refresh}) did not "
            "finish, and the report says so: the pages it did not reach show their earlier "
            "checks; run `claimledger refresh`",
            markup=False,
        )
    return ExitCode.OK
