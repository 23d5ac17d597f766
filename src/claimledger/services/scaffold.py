"""A new reading's files, as `init` writes them: a small valid ledger read today, its
JSON Schema for editors, a .gitignore that keeps the evidence and the lock out of the
repository, and, when asked, the report templates to edit (trusted as the user's own)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

GITIGNORE = """\
# claimledger: the evidence store and rendered reports, and the ledger's lock
out/
{lock}
"""


@dataclass(frozen=True)
class Scaffold:
    """What `init` wrote: the ledger's path, and the lines a .gitignore that was there
    already should gain (empty when ours was written)."""

    ledger: Path
    ignore_lines: tuple[str, ...]
    trust_problem: str | None
    beside: bool = False
    """Only the templates were written, beside a ledger that was there (left as it was)."""
    finished: tuple[str, ...] = ()
    """The files made to finish what an earlier init, stopped between two files, began
    (templates/ once for all of its); empty when it all began here."""


def scaffold(directory: Path, *, day: dt.date, author: str | None, templates: bool) -> Scaffold:
    """Write a new reading's files in `directory`, refusing to overwrite any (with
    `templates` beside a ledger that is there, only the templates). Those an earlier init
    stopped between two files left, each as it wrote it, are taken as its own: the rest
    are made, and the reading is as one init would have left it. The folder is this
    init's alone meanwhile: another's files, half made, are no stopped init's."""
    from claimledger.ledger import file as ledgerfile

    with ledgerfile.folder_held(directory):
        return _scaffold_held(directory, day=day, author=author, templates=templates)


def _scaffold_held(
    directory: Path, *, day: dt.date, author: str | None, templates: bool
) -> Scaffold:
    from claimledger.errors import EnvironmentProblem, InputError
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.model import ledger_schema

    ledger_path = directory / "claims.yaml"
    ignored = GITIGNORE.format(lock=ledgerfile.lock_path(ledger_path).name)
    keep_out = ignored if ledgerfile.ours_or_none(directory / ".gitignore", ignored) else ""
    files = {
        "claims.yaml": starter(day, author),
        "ledger.schema.json": json.dumps(ledger_schema(), indent=2) + "\n",
        **({".gitignore": keep_out} if keep_out else {}),
    }
    every = {**files, **(template_copies() if templates else {})}
    begun = ledger_path.exists() or ledger_path.is_symlink()
    if templates and begun and not _init_unfinished(directory, files, every):
        if author is not None:
            raise InputError(
                f"{ledger_path} exists: --author names who reads a new ledger (`claimledger "
                "set author NAME` changes this one's)"
            )
        return templates_beside(ledger_path)
    made = ledgerfile.scaffold(directory, every)
    problem = None
    if templates:
        try:
            trust_what_init_made(ledger_path)
        except EnvironmentProblem as error:
            problem = str(error)
    lines = () if keep_out else tuple(x for x in ignored.splitlines() if not x.startswith("#"))
    finished = _named(directory, made) if len(made) < len(every) else ()
    return Scaffold(ledger_path, lines, problem, finished=finished)


def _init_unfinished(directory: Path, ledgers: dict[str, str], every: dict[str, str]) -> bool:
    """Did an `init --templates` stop partway here: before the ledger's files were all
    made, or once it had begun the templates? A ledger whole, and no template, is a
    reading begun without them (`init --templates` copies them beside it, as ever)."""
    from claimledger.ledger import file as ledgerfile

    if ledgerfile.unfinished(directory, ledgers):
        return True
    templates = [directory / name for name in every if name not in ledgers]
    begun = any(path.exists() or path.is_symlink() for path in templates)
    return begun and ledgerfile.unfinished(directory, every)


def _named(directory: Path, made: list[Path]) -> tuple[str, ...]:
    """The files made, as a line names them: templates/ once for all of its."""
    folder = directory / "templates"
    return tuple(dict.fromkeys(f"{folder}/" if folder in p.parents else str(p) for p in made))


def templates_beside(ledger_path: Path) -> Scaffold:
    """The templates copied beside a ledger that was there, which is left as it was.

    They are trusted as a new ledger's are, and no more: only where the workspace as it
    was (its settings, its marks, any file templates/ held) was trusted already, or asks
    nothing; the consent then covers the same asks and templates/ with the copies. An
    artifact allowed to run on the folder as it was stays so on the folder with the
    copies (files claimledger wrote), as a trusted run's own output does (`renew`), unless
    something else in the folder changed meanwhile (a pull), which it must be asked of."""
    from claimledger.errors import EnvironmentProblem
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.config import read_config
    from claimledger.services.latest import artifacts_of
    from claimledger.workspace.trust import (
        TEMPLATES,
        Consent,
        asks_of,
        digest_but,
        refuse_foreign,
        renew,
        settings_consent,
        standings,
    )

    refuse_foreign(ledger_path)
    home = ledger_path.parent
    ledger = ledgerfile.load(ledger_path)
    asks = asks_of(read_config(home), ledger, home)
    trusted = settings_consent(ledger_path, asks) is Consent.TRUSTED
    artifacts = artifacts_of(ledger)
    allowed = {
        s.claim_id for s in standings(ledger_path, artifacts) if s.consent is Consent.TRUSTED
    }
    before = digest_but(ledger_path, TEMPLATES) if allowed else ""
    ledgerfile.scaffold(home, template_copies())
    if allowed and digest_but(ledger_path, TEMPLATES) == before:  # nothing else changed
        renew(ledger_path, {claim_id: artifacts[claim_id] for claim_id in allowed})
    problem = None
    if not trusted:
        problem = "the rest of the workspace is not (`claimledger trust --list`)"
    else:
        try:
            ours = [ask for ask in asks if not ask.startswith(f"{TEMPLATES}/")]  # as it was
            trust_what_init_made(ledger_path, ours)
        except EnvironmentProblem as error:
            problem = str(error)
    return Scaffold(ledger_path, (), problem, beside=True)


def trust_what_init_made(ledger: Path, asks: list[str] | None = None) -> None:
    """The templates `init` just wrote are the user's own: they need no `trust` (nothing
    else, such as a claimledger.toml that was there before, is trusted with them; `asks`:
    the workspace's own, which the user trusted already, keep that consent)."""
    from claimledger.ledger.config import Config
    from claimledger.workspace.trust import asks_of, trust

    trust(ledger, {}, [*(asks or []), *asks_of(Config(), None, ledger.parent)])


def template_copies() -> dict[str, str]:
    """The packaged templates as files of templates/, and the record of what each was."""
    from claimledger import __version__
    from claimledger.report.templatecopies import COPIES_FILE, copies_record
    from claimledger.report.templates import Templates, packaged_templates, templates_loader

    templates = Templates(templates_loader(None))
    packaged = {name: templates.source(name) for name in packaged_templates()}
    return {
        **{f"templates/{name}": text for name, text in packaged.items()},
        f"templates/{COPIES_FILE}": copies_record(packaged, __version__),
    }


def starter(day: dt.date, author: str | None) -> str:
    """The starter ledger, read today (its date_read is the day `init` runs) by `author`."""
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.model import parse

    text = ledgerfile.starter_ledger()
    text = edits.set_field(text, parse(text), "date_read", day.isoformat())
    return text if author is None else edits.set_field(text, parse(text), "author", author.strip())
