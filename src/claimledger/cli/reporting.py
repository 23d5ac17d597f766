"""The command that writes the teardown report: render.

The format is --format's, else what the output's name ends in (`-o report.html`), else
Markdown. `-o -` writes the report to stdout. What the report showed is kept in the
evidence store, by format and output, for the next render to say what changed since.
"""

from __future__ import annotations

from pathlib import Path, PurePath
from typing import Annotated

import typer

from claimledger.cli.app import Options, command, existing_store, now, options, today
from claimledger.cli.completion import one_of
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, warn

STDOUT = "-"


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
    from claimledger.ledger.located import collector_paused
    from claimledger.report.formats import WITH_CLAIMREVIEW, format_for, published_at
    from claimledger.report.templates import Templates, templates_loader
    from claimledger.services.rendering import render
    from claimledger.services.stores import for_render_states
    from claimledger.terminal.output import output as printing  # `output` is the option here

    opts = options(ctx)
    if templates is not None and not templates.is_dir():
        raise InputError(f"--templates {templates}: not a directory")
    loader = templates_loader(templates or _workspace_templates(opts))
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
    path = None if output == STDOUT else _output_path(opts, report_format.suffix, output)
    with collector_paused():  # what is read stays till the end: no collection walks it
        render(
            opts.load(),
            report_format,
            name,
            path,
            home=opts.home,
            states=for_render_states(opts.store, warn),
            evidence=lambda: existing_store(opts),
            today=today(),
            now=now,
        )
    if path is not None:
        out.print(f"wrote {path}", markup=False)
    return ExitCode.OK


def _workspace_templates(opts: Options) -> Path | None:
    """templates/ beside the ledger, when there is one and the user trusted the workspace:
    a cloned checkout's templates could lay out a report that says what they like."""
    from claimledger.cli.options import say
    from claimledger.services.settings import workspace

    folder = opts.home / "templates"
    if not folder.is_dir():
        return None
    if not workspace(opts.ledger, opts.load(), say, templates=True).trusted:
        return None
    from claimledger.services.rendering import stale_copies

    for line in stale_copies(folder):
        err.print(f"claimledger: note: {line}", markup=False)
    return folder


def format_named_by(output: str | None) -> str:
    """The format an output's name asks for: md for stdout or the default file; a name
    that names no format is an error rather than Markdown in a file called report.txt."""
    from claimledger.report.formats import FORMAT_NAMES, SUFFIXES, format_name_for

    if output is None or output == STDOUT:
        return "md"
    name = format_name_for(PurePath(output))
    if name is None:
        raise InputError(
            f"--output {output}: its name does not say which format to write: end it in "
            f"{', '.join(SUFFIXES)}, or name one with --format ({', '.join(FORMAT_NAMES)})"
        )
    return name


def _output_path(opts: Options, suffix: str, output: str | None) -> Path:
    from claimledger.ledger.atomicfile import refuse_links

    if output is not None:
        return Path(output)
    path = opts.home / "out" / f"report{suffix}"
    refuse_links(path, below=opts.home)  # a default path: never through a planted link
    return path
