"""The command that writes the teardown report: render.

The format is --format's, else what the output's name ends in (`-o report.html`), else
Markdown. `-o -` writes the report to stdout. What the report showed is kept in the
evidence store, by format and output, for the next render to say what changed since.
"""

from __future__ import annotations

import contextlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path, PurePath
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claimledger.cli.app import (
    Options,
    command,
    damage_said,
    existing_store,
    now,
    options,
    today,
)
from claimledger.cli.completion import one_of
from claimledger.errors import EnvironmentProblem, ExitCode, InputError, TemplateError
from claimledger.terminal.output import err, out

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.evidence.store import EvidenceStore


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
    from claimledger.services.rendering import remember_render, report_of
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
    target = STDOUT if path is None else _target(path, opts.home)
    with collector_paused():  # what is read stays till the end: no collection walks it
        ledger = opts.load()
        with _state_store(opts) as store:
            previous = None if store is None else store.last_render_state(name, target)
            if previous is None and path is not None:
                previous = _hidden_state(path)  # kept beside the report by earlier versions
            with existing_store(opts) as evidence:
                report = report_of(ledger, evidence, previous, today())
            if path is None:  # whole or not at all: a template's error prints nothing
                sys.stdout.write(report_format.render(report))
                sys.stdout.flush()
            else:
                _write_file(path, report_format.chunks(report))
            if store is not None:
                remember_render(store, name, target, report, now())
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
    for line in _stale_copies(folder):
        err.print(f"claimledger: note: {line}", markup=False)
    return folder


def _stale_copies(folder: Path) -> list[str]:
    """The copies in `folder` whose packaged originals changed since `init --templates`."""
    from claimledger.report.templatecopies import COPIES_FILE, copied_fingerprints, stale_copies
    from claimledger.report.templatefiles import read_template
    from claimledger.report.templates import Templates, packaged_templates, templates_loader

    try:
        copied = copied_fingerprints(read_template(folder, [COPIES_FILE]))
    except (FileNotFoundError, TemplateError):
        return []  # copied by hand, or the record is gone: nothing to compare
    packaged = Templates(templates_loader(None))
    copies, originals = {}, {}
    ours = set(packaged_templates())  # the record is the checkout's: only our names are read
    for name in copied.keys() & ours:
        try:
            copies[name] = read_template(folder, name.split("/"))
            originals[name] = packaged.source(name)
        except (FileNotFoundError, TemplateError, LookupError):
            continue  # deleted or renamed: the package's own, or not a template of ours
    return stale_copies(copied, copies, originals)


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


def _target(path: Path, home: Path) -> str:
    """How the store names an output: relative to the ledger's directory when below it
    (so a checkout moved elsewhere keeps its states), else its absolute path."""
    absolute, root = Path(os.path.normpath(path.absolute())), home.absolute()
    return (absolute.relative_to(root) if absolute.is_relative_to(root) else absolute).as_posix()


@contextlib.contextmanager
def _state_store(opts: Options) -> Iterator[EvidenceStore | None]:
    """The evidence store, opened (created when there is none yet) to keep render states;
    None where it cannot be written, said once: the report is still written."""
    from claimledger.evidence.store import EvidenceStore

    try:
        store = EvidenceStore.open(opts.store)
    except EnvironmentProblem as problem:
        err.print(
            f"claimledger: warning: {problem}; the next render cannot say what changed",
            markup=False,
        )
        yield None
        return
    with store, damage_said(store):
        yield store


def _hidden_state(report: Path) -> dict[str, Any] | None:
    """The state an earlier version left beside the report (`.NAME.state.json`), read once
    so the first render after an upgrade still compares; never read through a link."""
    path = report.with_name(f".{report.name}.state.json")
    if path.is_symlink():
        return None
    try:
        state = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write_file(path: Path, chunks: Iterator[str]) -> None:
    """Replace `path` atomically as the report is made, so that a reader never sees half a
    report and the whole is never held in memory (a template's error, or a kill, leaves
    the old report as it was)."""
    from claimledger.ledger.atomicfile import replace_atomically

    path = path.resolve()  # a symlinked report is updated where it points, not replaced
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, (chunk.encode("utf-8") for chunk in chunks))
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None
