"""The report as one call: the ledger and its latest evidence built into the report's
views, compared with the last render of the same output, whose state is kept for the next.
The command line only chooses the format and where the text goes."""

from __future__ import annotations

import contextlib
import datetime as dt
import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from claimledger.errors import EnvironmentProblem, InputError, TemplateError
from claimledger.services.stores import UNKEPT, Warn

if TYPE_CHECKING:
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger
    from claimledger.report.formats import ReportFormat
    from claimledger.report.model import Report


OpenStore = Callable[[], contextlib.AbstractContextManager["EvidenceStore | None"]]


def render(
    ledger: Ledger,
    report_format: ReportFormat,
    name: str,
    path: Path | None,
    *,
    ledger_path: Path,
    states: contextlib.AbstractContextManager[EvidenceStore | None],
    evidence: OpenStore,
    today: dt.date,
    now: Callable[[], dt.datetime],
    warn: Warn,
) -> Report:
    """Write the report of `ledger` to `path` (None: standard output) in `report_format`,
    compared with the last render of the same format to the same output, whose state
    `states` (the store opened for writing, or None where it cannot be) keeps for the
    next; return what it showed. A template's error writes nothing: the old report stays
    as it was. A state the store refuses to keep is warned of: SQLite opens a store on a
    read-only file system for reading only when a killed run left its write-ahead log."""
    target = "-" if path is None else output_name(path, ledger_path.parent)
    with states as store:
        previous = None if store is None else store.last_render_state(name, target)
        if previous is None and path is not None:
            previous = hidden_state(path)  # kept beside the report by earlier versions
        with evidence() as read:
            report = report_of(ledger, ledger_path, read, previous, today)
        if path is None:  # whole or not at all
            sys.stdout.write(report_format.render(report))
            sys.stdout.flush()
        else:
            write_report(path, report_format.chunks(report))
        if store is not None:
            try:
                remember_render(store, name, target, report, now())
            except EnvironmentProblem as problem:  # opened, yet for reading only
                warn(f"{problem}; {UNKEPT}")
    return report


def report_of(
    ledger: Ledger,
    ledger_path: Path,
    store: EvidenceStore | None,
    previous: dict[str, Any] | None,
    today: dt.date,
) -> Report:
    """The report of `ledger` (read from `ledger_path`) and the latest evidence, compared
    with the `previous` render."""
    from claimledger.grading.quotes import read_elsewhere
    from claimledger.grading.rules import regrade
    from claimledger.report.build import build_report
    from claimledger.services.latest import standing
    from claimledger.services.regrading import weighed_runs

    latest = standing(store, ledger, path=ledger_path)
    checks, fetches, last, runs = latest.checks, latest.fetches, latest.last, latest.runs
    outcomes = weighed_runs(runs, {}, made_here=latest.made_here)  # as `regrade` weighs them
    as_read = latest.read_then  # the quotes on the reading day's copies
    read_at = read_elsewhere(ledger, fetches)
    return build_report(
        ledger,
        checks,
        fetches,
        regrade(ledger, checks, outcomes, as_read, read_at),
        generated_on=today,
        last_refresh=last.started_at if last else None,
        last_refresh_finished=None if last is None else not latest.incomplete,
        evidence_made_here=latest.made_here,
        previous=previous,
        artifact_runs=runs,
        as_read=as_read,
        histories=latest.histories,
    )


def remember_render(
    store: EvidenceStore, name: str, target: str, report: Report, now: dt.datetime
) -> None:
    """What this render showed, kept for the next render of `name` to `target` to say
    what changed since."""
    from claimledger.report.changes import report_state

    store.record_render_state(name, target, report_state(report), now)


def output_name(path: Path, home: Path) -> str:
    """How the store names an output: relative to the ledger's directory when below it
    (so a checkout moved elsewhere keeps its states), else its absolute path."""
    absolute, root = Path(os.path.normpath(path.absolute())), home.absolute()
    return (absolute.relative_to(root) if absolute.is_relative_to(root) else absolute).as_posix()


def hidden_state(report: Path) -> dict[str, Any] | None:
    """The state an earlier version left beside the report (`.NAME.state.json`), read once
    so the first render after an upgrade still compares; never read through a link. Its
    name is longer than the report's: where it is over the system's limit (a report's
    name of 240 characters or more), no version could have written it, and there is none."""
    path = report.with_name(f".{report.name}.state.json")
    try:
        if path.is_symlink():
            return None
        state = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def write_report(path: Path, chunks: Iterator[str]) -> None:
    """Replace `path` atomically as the report is made, so that a reader never sees half a
    report and the whole is never held in memory (a template's error, or a kill, leaves
    the old report as it was)."""
    from claimledger.ledger.atomicfile import followed, replace_atomically

    path = followed(path)  # a symlinked report is updated where it points, not replaced
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, (chunk.encode("utf-8") for chunk in chunks))
    except OSError as error:
        raise EnvironmentProblem.of(error, path) from None


def templates_folder(
    given: Path | None, ledger_path: Path, load: Callable[[], Ledger], say: Callable[[str], None]
) -> Path | None:
    """The templates a report is laid out with: --templates, else templates/ beside the
    ledger when the user trusted the workspace (a cloned checkout's templates could lay
    out a report that says what they like: the ledger is `load`ed to ask), its copies gone
    stale said; None: ours."""
    from claimledger.services.settings import workspace

    if given is not None:
        if not given.is_dir():
            raise InputError(f"--templates {given}: not a directory")
        return given
    folder = ledger_path.parent / "templates"
    if not folder.is_dir() or not workspace(ledger_path, load(), say, templates=True).trusted:
        return None
    for line in stale_copies(folder):
        say(f"claimledger: note: {line}")
    return folder


def report_path(output: str | None, home: Path, suffix: str, *, ledger: Path, store: Path) -> Path:
    """Where the report goes: --output, else out/report.<suffix> beside the ledger, never
    through a link planted in the checkout; refused, before anything is rendered, where a
    FIFO, a device or a directory stands (the report would replace it, or wait for ever),
    or where it would replace the ledger or the evidence store it is made from."""
    from claimledger.ledger.atomicfile import refuse_all_but_a_file, refuse_links

    if output is not None:
        path = Path(output)
    else:
        path = home / "out" / f"report{suffix}"
        refuse_links(path, below=home)
    refuse_all_but_a_file(path, "the report")
    refuse_own_files(path, ledger=ledger, store=store)
    return path


STORE_FILES = ("", "-wal", "-shm", "-journal", ".lock")
"""The endings of the evidence store's own files: the database, SQLite's write-ahead log,
shared memory and journal beside it, and the lock the tool takes on it."""


def refuse_own_files(path: Path, *, ledger: Path, store: Path) -> None:
    """Refuse a report at `path` that would replace the ledger, its lock or a file of the
    evidence store (`-f md -o claims.yaml` is a slip of the hand, and replacing either with
    the report loses the user's reading, or every check since it, for good; a lock
    replaced while held lets a second writer in)."""
    from claimledger.ledger.atomicfile import followed
    from claimledger.ledger.file import lock_path

    owned = {
        "the ledger": [ledger],
        "the ledger's lock": [lock_path(followed(ledger))],
        "the evidence store": [Path(f"{store}{end}") for end in STORE_FILES],
    }
    for what, files in owned.items():
        if any(same_file(path, file) for file in files):
            raise InputError(f"--output {path}: that is {what}, which a report never replaces")


def same_file(path: Path, other: Path) -> bool:
    """Whether `path` and `other` name one file: by their links followed, or, where both
    exist, by the file they are (a hard link of the ledger is the ledger)."""
    from claimledger.ledger.atomicfile import followed

    if followed(path) == followed(other):
        return True
    try:
        return path.samefile(other)
    except OSError:
        return False


def stale_copies(folder: Path) -> list[str]:
    """The copies in `folder` whose packaged originals changed since `init --templates`."""
    from claimledger.report.templatecopies import COPIES_FILE, copied_fingerprints
    from claimledger.report.templatecopies import stale_copies as stale
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
    return stale(copied, copies, originals)
