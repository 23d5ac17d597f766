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


def scaffold(directory: Path, *, day: dt.date, author: str | None, templates: bool) -> Scaffold:
    """Write a new reading's files in `directory`, refusing to overwrite any."""
    from claimledger.errors import EnvironmentProblem
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.model import ledger_schema

    ledger_path = directory / "claims.yaml"
    ignored = GITIGNORE.format(lock=ledgerfile.lock_path(ledger_path).name)
    keep_out = "" if (directory / ".gitignore").exists() else ignored
    files = {
        "claims.yaml": starter(day, author),
        "ledger.schema.json": json.dumps(ledger_schema(), indent=2) + "\n",
        **({".gitignore": keep_out} if keep_out else {}),
        **(template_copies() if templates else {}),
    }
    ledgerfile.scaffold(directory, files)
    problem = None
    if templates:
        try:
            trust_what_init_made(ledger_path)
        except EnvironmentProblem as error:
            problem = str(error)
    lines = () if keep_out else tuple(x for x in ignored.splitlines() if not x.startswith("#"))
    return Scaffold(ledger_path, lines, problem)


def trust_what_init_made(ledger: Path) -> None:
    """The templates `init` just wrote are the user's own: they need no `trust` (nothing
    else, such as a claimledger.toml that was there before, is trusted with them)."""
    from claimledger.ledger.config import Config
    from claimledger.workspace.trust import asks_of, trust

    trust(ledger, {}, asks_of(Config(), None, ledger.parent))


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
