"""The `claimledger` command line: parse, call, print, and map errors to exit codes.

Exit codes: 0 ok; 1 the run worked and found something (drift, pending proposals,
unreachable sources); 2 bad input or usage; 70 an internal error (one line, the
traceback with --debug); 130 interrupted. `_exit_codes` is the one place that maps
exceptions to them.
"""

from __future__ import annotations

import contextlib
import datetime as dt
import functools
import json
import shutil
import traceback
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, ParamSpec, TypeVar

import typer
from rich.console import Console

from claimledger import __version__, ledgerfile
from claimledger.errors import ClaimledgerError, LedgerError
from claimledger.ledger import Grade, Ledger, ledger_schema, load

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="claimledger",
    help="Keep a teardown's quoted evidence alive: refresh quotes from docs, "
    "regrade claims, render the report.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


@dataclass
class Settings:
    """What the global options say, for the command that runs after them."""

    ledger: Path = Path("claims.yaml")
    debug: bool = False

    @property
    def home(self) -> Path:
        """The ledger's directory: templates/ and out/ are relative to it."""
        return self.ledger.parent


settings = Settings()


def _version(value: bool) -> None:
    if value:
        out.print(f"claimledger {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def global_options(
    ledger: Annotated[
        Path,
        typer.Option("--ledger", "-l", help="The claims ledger to work on.", show_default=True),
    ] = Path("claims.yaml"),
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an internal error.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Keep a teardown's quoted evidence alive.

    Refresh quotes from the docs they came from, regrade the claims that rest on
    them, and render the teardown report.
    """
    settings.ledger = ledger
    settings.debug = debug


# --------------------------------------------------------------------------- errors

P = ParamSpec("P")
R = TypeVar("R")


@contextlib.contextmanager
def _exit_codes() -> Iterator[None]:
    """Turn whatever a command raises into one line on stderr and an exit code."""
    try:
        yield
    except typer.Exit:
        raise
    except LedgerError as error:
        for problem in error.problems:
            err.print(str(problem), markup=False)
        count = len(error.problems)
        noun = "problem" if count == 1 else "problems"
        err.print(f"claimledger: error: {count} {noun} in the ledger", markup=False)
        raise typer.Exit(error.exit_code) from None
    except ClaimledgerError as error:
        err.print(f"claimledger: error: {error}", markup=False)
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        err.print("claimledger: interrupted", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except Exception as error:
        if settings.debug:
            traceback.print_exc()
        where = "" if settings.debug else " (run with --debug for the traceback)"
        err.print(
            f"claimledger: internal error: {type(error).__name__}: {error}{where}", markup=False
        )
        raise typer.Exit(EXIT_INTERNAL) from None


def command(*names: str, **kwargs: Any) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a command whose errors go through `_exit_codes`."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def run(*args: P.args, **kw: P.kwargs) -> R:
            with _exit_codes():
                return func(*args, **kw)

        app.command(*names, **kwargs)(run)
        return run

    return register


def _load() -> Ledger:
    return load(settings.ledger)


def _today() -> dt.date:
    return dt.date.today()


def _print_json(value: Any) -> None:
    out.print(json.dumps(value, indent=2, ensure_ascii=False, sort_keys=False), markup=False)


# --------------------------------------------------------------------------- commands


@command("check")
def check_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
) -> None:
    """Validate the ledger; print its counts of claims, facets and grades.

    Every problem is reported at once, as FILE:LINE:COL: message; exit 2 when there
    is any.
    """
    ledger = _load()
    counts = ledger.grade_counts()
    facets = sum(counts.values())
    if as_json:
        _print_json(
            {
                "ledger": str(settings.ledger),
                "claims": len(ledger.claims),
                "sources": len(ledger.sources),
                "facets": facets,
                "grades": {str(grade): n for grade, n in counts.items()},
            }
        )
        return
    grades = ", ".join(f"{n} {grade}" for grade, n in counts.items())
    out.print(
        f"{settings.ledger}: ok: {len(ledger.claims)} claims, {len(ledger.sources)} sources, "
        f"{facets} facets ({grades})",
        markup=False,
    )


@command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the ledger (for editors: validation and completion)."""
    _print_json(ledger_schema())


@command("init")
def init_command(
    directory: Annotated[
        Path, typer.Argument(help="Where to create claims.yaml and templates/.")
    ] = Path(),
) -> None:
    """Scaffold a small valid claims.yaml and the default report templates.

    Refuses to overwrite anything that is already there.
    """
    ledger_path = directory / "claims.yaml"
    templates = directory / "templates"
    template_names = [t.name for t in _default_templates()]
    existing = [ledger_path] if ledger_path.exists() else []
    existing += [templates / name for name in template_names if (templates / name).exists()]
    if existing:
        names = ", ".join(str(p) for p in existing)
        raise ClaimledgerError(f"{names}: already exists; init never overwrites")
    directory.mkdir(parents=True, exist_ok=True)
    scaffold = resources.files("claimledger").joinpath("data/init/claims.yaml")
    ledger_path.write_text(scaffold.read_text("utf-8"), encoding="utf-8")
    templates.mkdir(exist_ok=True)
    for template in _default_templates():
        with resources.as_file(template) as source:
            shutil.copyfile(source, templates / template.name)
    out.print(f"created {ledger_path} and {templates}/", markup=False)
    out.print(f"next: claimledger --ledger {ledger_path} check", markup=False)


def _default_templates() -> list[Any]:
    folder = resources.files("claimledger").joinpath("data/templates")
    if not folder.is_dir():
        return []
    return sorted((t for t in folder.iterdir() if t.name.endswith(".j2")), key=lambda t: t.name)


@command("grade")
def grade_command(
    claim_id: Annotated[str, typer.Argument(metavar="CLAIM", help="The claim's id.")],
    grade: Annotated[
        Grade,
        typer.Argument(help="DEMONSTRATED, CLAIMED, SPECULATIVE or UNKNOWN.", case_sensitive=False),
    ],
    because: Annotated[
        str, typer.Option("--because", help="Why; recorded in the claim's history.")
    ],
    on: Annotated[
        str | None,
        typer.Option("--on", help="The facet to grade (default: the claim's first facet)."),
    ] = None,
) -> None:
    """Grade one facet of a claim by hand, recording who and why in its history.

    Example: claimledger grade input-gate UNKNOWN --on "holds at the crash boundary"
    --because "the runtime docs no longer say"
    """
    if not because.strip():
        raise ClaimledgerError("--because must say why")
    today = _today()

    def change(text: str, ledger: Ledger) -> str:
        return ledgerfile.set_grade(
            text, ledger, claim_id, on, grade, by="person", why=because, date=today
        )

    ledger = ledgerfile.update(settings.ledger, change)
    facet = ledger.claim(claim_id).facet(on)
    out.print(f"{claim_id}: {facet.on}: now {facet.grade}", markup=False)


def main() -> None:
    """Entry point of the console script."""
    app(prog_name="claimledger")


if __name__ == "__main__":  # pragma: no cover
    main()
