"""Commands that revise what a ledger already holds: quote (one more quote for a claim)
and edit (a claim's words, its section, its falsifier)."""

from __future__ import annotations

import contextlib
import dataclasses
import os
import shlex
import signal
import subprocess  # the user's own editor, as the user named it
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import command, existing_store, options, today, utf8_text
from claimledger.cli.options import (
    PAGE_OPTIONS,
    ClaimId,
    fetch_options,
    page_settings,
)
from claimledger.errors import ConflictError, ExitCode, InputError
from claimledger.terminal.output import out

if TYPE_CHECKING:
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Ledger


@command("quote")
@fetch_options(*PAGE_OPTIONS)
def quote_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    quote: Annotated[str, typer.Argument(metavar="QUOTE", help="The exact words.")],
    urls: Annotated[
        list[str],
        typer.Option("--url", metavar="URL", help="A page that carries them (repeatable)."),
    ],
    publisher: Annotated[
        str | None,
        typer.Option("--publisher", metavar="NAME", help="Who publishes a new source."),
    ] = None,
    *,
    fetching: FetchOptions,
) -> ExitCode:
    """Add a quote to a claim, verified on every --url before anything is written.

    A page the ledger already has (with or without its #fragment or trailing slash) is
    its source again; a new page becomes a new source, its kind guessed and said.

    Example: claimledger quote output-gate "until the write has completed" --url URL
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.services.authoring import (
        moved_sources,
        new_sources_said,
        pages_given,
        read_as_verified,
        read_otherwise_said,
        verified_on_pages,
    )

    if not quote.strip():
        raise InputError("QUOTE is empty")
    urls = pages_given(urls)
    opts = options(ctx)
    ledger = opts.load()
    ledger.claim(claim_id)  # a did-you-mean before anything is fetched
    given = dataclasses.replace(fetching, pages=tuple(urls))
    with existing_store(opts) as store:
        moved = moved_sources(store, ledger)
    verified = verified_on_pages(urls, [quote], *page_settings(opts, given, ledger), ledger, moved)
    recorded, titles = verified.recorded(urls), verified.titles

    def change(text: str, fresh: Ledger) -> str:
        added = edits.add_quote(
            text, fresh, claim_id, quote, recorded, titles=titles, publisher=publisher, date=today()
        )
        return read_as_verified(added, fresh, fetching.browser)

    after = ledgerfile.update(opts.ledger, change)
    number = len(after.claim(claim_id).quotes)
    out.print(f"{claim_id} #{number}: verified on {len(urls)} page(s); added", markup=False)
    new_quote = after.claim(claim_id).quotes[-1:]
    joined = read_otherwise_said(ledger, after, new_quote, fetching.browser)
    for line in [*verified.said, *new_sources_said(ledger, after), *joined]:
        out.print(line, markup=False)
    return ExitCode.OK


EDITABLE = {"title": "title", "statement": "statement", "falsifier": "falsified_if"}
"""What `edit --editor PART` opens, by the name the command line gives it."""


@command("edit")
def edit_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Its heading.")
    ] = None,
    statement: Annotated[
        str | None, typer.Option("--statement", metavar="TEXT", help="What it says.")
    ] = None,
    section: Annotated[
        str | None, typer.Option("--section", metavar="SECTION", help="The section it is in.")
    ] = None,
    falsifier: Annotated[
        str | None,
        typer.Option("--falsifier", metavar="TEXT", help="What would show the claim false."),
    ] = None,
    editor: Annotated[
        str | None,
        typer.Option(
            "--editor",
            metavar="PART",
            help="Write the title, statement or falsifier in $EDITOR (long prose).",
        ),
    ] = None,
) -> ExitCode:
    """Reword a claim, move it to another section, or set its falsifier.

    The ledger is changed in place, its history says which parts were revised, and a
    claim that was in review leaves it (revising the claim is its author's answer).

    Example: claimledger edit message-size --statement "A message may be up to 128 KB."
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.model import tidied

    given = {"title": title, "statement": statement, "section": section}
    fields = {name: value for name, value in given.items() if value is not None}
    if falsifier is not None:
        fields["falsified_if"] = falsifier
    opts = options(ctx)
    opened: dict[str, str] = {}  # what the editor was opened on, by part
    if editor is not None:
        part = _editable(editor)
        opened[part] = getattr(opts.load().claim(claim_id), part) or ""
        fields[part] = written_in_editor(opened[part])
    if not fields:
        raise InputError("say what to change: --title, --statement, --section, --falsifier")
    empty = [name for name, value in fields.items() if not value.strip()]
    if empty:
        raise InputError(f"{', '.join(empty)} must not be empty")
    before = opts.load().claim(claim_id)
    clean = {
        name: tidied(name, value)
        for name, value in fields.items()
        if tidied(name, value) != tidied(name, getattr(before, name) or "")
    }

    def change(text: str, fresh: Ledger) -> str:
        for part, was in opened.items():
            now = getattr(fresh.claim(claim_id), part) or ""
            unchanged_while_open(f"{claim_id}: its {part}", was, now, fields[part])
        return edits.set_claim_fields(text, fresh, claim_id, clean, date=today())

    if clean:
        ledgerfile.update(opts.ledger, change)
    said = ", ".join(clean) if clean else "nothing (it already says that)"
    out.print(f"{claim_id}: revised {said}", markup=False)
    return ExitCode.OK


def _editable(part: str) -> str:
    if part not in EDITABLE:
        raise InputError(f"--editor {part!r}: one of {', '.join(EDITABLE)}")
    return EDITABLE[part]


def unchanged_while_open(what: str, opened: str, now: str, written: str) -> None:
    """Refuse to write what was written in the editor over a change another command made
    while it was open (the editor does not hold the ledger's lock): it was written on the
    old text, and would silently undo the other. What the user wrote is printed, not lost."""
    if now == opened:
        return
    out.print(written, markup=False)
    raise ConflictError(
        f"{what} was changed by another command while it was open in the editor; nothing "
        "written (what you wrote is printed above): open it again"
    )


def written_in_editor(text: str) -> str:
    """The text after the user edits it in $VISUAL or $EDITOR, as git runs it (a missing
    editor, one that cannot be read as a command, one that fails, one that leaves no file
    to read where it was opened, or one that saves what is not UTF-8, is bad input:
    nothing is written; one that Ctrl-C ends is an interrupt, and nothing is written)."""
    command = os.environ.get("VISUAL") or os.environ.get("EDITOR")
    if not command:
        raise InputError("--editor: set $EDITOR (or $VISUAL) to the editor to open")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "claimledger-edit.txt"
        path.write_text(text + "\n", encoding="utf-8")
        try:
            editing = subprocess.Popen([*shlex.split(command), str(path)])
        except OSError as error:
            raise InputError(f"--editor: cannot run {command!r}: {error.strerror}") from None
        except ValueError as error:  # shlex: a quote left open
            raise InputError(f"--editor: cannot read {command!r} as a command: {error}") from None
        with keys_left_to_the_editor():
            returncode = editing.wait()
        if returncode == -signal.SIGINT:  # the editor took Ctrl-C as the end of it
            raise KeyboardInterrupt
        if returncode != 0:
            raise InputError(f"--editor: {command!r} exited {returncode}; nothing written")
        return utf8_text(_saved(path, command), f"--editor: what {command!r} saved").strip()


@contextlib.contextmanager
def keys_left_to_the_editor() -> Iterator[None]:
    """Ctrl-C and Ctrl-\\ left to the editor while it runs, as git leaves them: the terminal
    sends them to every process of the command, and an editor that takes them as keys of
    its own (ed's `?`) would else see us stop and kill it under the user's unsaved text.
    Ignored here only once the editor has started, so that it keeps its own handling."""
    kept = {sig: signal.signal(sig, signal.SIG_IGN) for sig in (signal.SIGINT, signal.SIGQUIT)}
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)


def _saved(path: Path, command: str) -> bytes:
    """What the editor left at `path`: an editor may delete the file it was given, or put
    a folder in its place, and that is the editor's doing, not a bug of ours."""
    try:
        return path.read_bytes()
    except OSError as error:
        raise InputError(
            f"--editor: {command!r} left no file to read ({error.strerror}); nothing written"
        ) from None
