"""The command line's frame: the typer app, the global options, and errors to exit codes.

Every command is a function that parses its arguments, calls the core, prints, and
returns an `ExitCode`; `command` registers it and is the one place where whatever it
raises becomes one line on stderr and an exit status (see `claimledger.errors`).
The global options (--ledger, --evidence, --debug, and how to print: --plain, --quiet,
--verbose) live in typer's context as an `Options`, never in module state, so a command
run twice in one process (the demo, the tests) sees only its own; the consoles read how
to print from `output()`, which `command` sets for the command's run and no longer.
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime as dt
import functools
import inspect
import re
import sys
import traceback
from collections.abc import Callable, Iterator, Mapping, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Concatenate, ParamSpec, TypeVar

import typer
from typer import _click as click
from typer.core import TyperArgument, TyperGroup, TyperOption
from typer.main import get_command_from_info
from typer.models import CommandInfo

from claimledger import __version__
from claimledger.cli.pipes import closed_pipe, closed_pipe_exits, output_writable, unwritable_output
from claimledger.errors import (
    ClaimledgerError,
    ExitCode,
    InputError,
    LedgerError,
    breaks_escaped,
    unusable_path,
)
from claimledger.ledger.atomicfile import refuse_all_but_a_file, refuse_links
from claimledger.terminal.output import Output, err, output, printing, warn

if TYPE_CHECKING:  # the core loads where a command uses it: --help and --version stay quick
    from claimledger.evidence.store import EvidenceStore
    from claimledger.ledger.model import Ledger

_PYTHON_TYPES = {"str": "TEXT", "int": "N", "float": "NUMBER", "path": "PATH"}
_PYTHON_TYPE = re.compile(r"<(?:list\[)?(str|int|float|path)\]?>")


def _shown_metavar(option: TyperOption, ctx: typer.Context) -> str:
    """What help prints beside an option. typer writes Python types (`<float>`,
    `<list[str]>`); a reader is told in words: TEXT, N, NUMBER, PATH."""
    return _PYTHON_TYPE.sub(_word_for, _typer_metavar(option, ctx))


def _word_for(match: re.Match[str]) -> str:
    return _PYTHON_TYPES[match.group(1)]


_typer_metavar = TyperOption.make_metavar
TyperOption.make_metavar = _shown_metavar  # type: ignore[assignment,method-assign]


def _argument_metavar(argument: TyperArgument, ctx: typer.Context, *, usage: bool = False) -> str:
    """An argument as every other placeholder is written: its name in capitals, in
    brackets when it may be left out, and `...` when it repeats (typer writes a required
    one in braces, and an unnamed one in lower case)."""
    name = (argument.metavar or argument.name or "").strip("[]{}").upper()
    if argument.nargs != 1:
        name += "..."
    return f"[{name}]" if usage and not argument.required else name


TyperArgument.make_metavar = _argument_metavar  # type: ignore[assignment,method-assign]

TASKS: dict[str, tuple[str, ...]] = {
    "Start": ("demo", "init"),
    "Write the ledger": (
        "add", "quote", "edit", "section", "scope", "facet", "set", "source", "move", "remove",
        "check", "schema",
    ),
    "Gather evidence": (
        "verify", "refresh", "status", "claims", "diff", "history", "snapshot", "blame",
    ),
    "Grade": ("regrade", "explain", "accept", "review", "grade", "refute"),
    "Publish": ("render",),
    "Workspace": ("trust",),
}  # fmt: skip
"""The commands by task, in the order of the loop, as `claimledger --help` lists them."""


COMMANDS: dict[str, CommandInfo] = {}
"""Every command as registered, by name (aliases too), in the order written."""


class BuiltWhenAsked(MutableMapping[str, click.Command]):
    """The group's commands, each made into a click command the first time it is asked
    for: typer makes every command's options at each start (some 20 ms, a tenth of a
    command's start, and each time the command line runs in one process), where a run
    needs only its own. Click reads a group's commands through this mapping (click's
    "lazily loading subcommands")."""

    def __init__(self, infos: Mapping[str, CommandInfo]) -> None:
        self._commands: dict[str, CommandInfo | click.Command] = dict(infos)

    def __getitem__(self, name: str) -> click.Command:
        command = self._commands[name]
        if isinstance(command, CommandInfo):
            command = self._commands[name] = get_command_from_info(
                command,
                pretty_exceptions_short=app.pretty_exceptions_short,
                rich_markup_mode=app.rich_markup_mode,
            )
        return command

    def __setitem__(self, name: str, command: click.Command) -> None:
        self._commands[name] = command

    def __delitem__(self, name: str) -> None:
        del self._commands[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._commands)

    def __len__(self) -> int:
        return len(self._commands)


class TaskGroup(TyperGroup):
    """The command list in sections by task (`TASKS`); a command no task names is listed
    last, under Other, so a new one is never hidden. A closed pipe met while the options
    are read (`--help | head -1`, `--version | true`) ends it as one met in a command does:
    click would exit 1, as if something had been found. A usage error is one line, as
    every other error is (`usage_on_one_line`). Each command is made when it is asked for
    (`BuiltWhenAsked`)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.commands = BuiltWhenAsked(COMMANDS)

    def make_context(self, *args: Any, **kwargs: Any) -> click.Context:
        with closed_pipe_exits(), usage_on_one_line():
            return super().make_context(*args, **kwargs)

    def invoke(self, ctx: click.Context) -> Any:
        with closed_pipe_exits(), usage_on_one_line():
            return super().invoke(ctx)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        shown = {
            name: command
            for name in self.list_commands(ctx)
            if (command := self.get_command(ctx, name)) is not None and not command.hidden
        }
        if not shown:
            return
        limit = formatter.width - 6 - max(len(name) for name in shown)
        named = {name for names in TASKS.values() for name in names}
        others = tuple(name for name in shown if name not in named)
        for task, names in [*TASKS.items(), ("Other", others)]:
            rows = [(n, shown[n].get_short_help_str(limit)) for n in names if n in shown]
            if rows:
                with formatter.section(task):
                    formatter.write_dl(rows)


@contextlib.contextmanager
def usage_on_one_line() -> Iterator[None]:
    """A usage error (an unknown option or command, a missing argument, a value of the
    wrong type) as one line and exit 2: click writes the usage, a hint and the error on
    three, which a CI log or a script reading stderr takes for three problems. The line
    names where the usage is shown. Help asked for by giving no arguments is shown as
    ever."""
    try:
        yield
    except click.exceptions.NoArgsIsHelpError:
        raise
    except click.exceptions.UsageError as error:
        said = breaks_escaped(error.format_message()).rstrip(".")
        err.error(f"claimledger: error: {said}{_see(error)}")
        raise typer.Exit(ExitCode.INPUT) from None


def _see(error: click.exceptions.UsageError) -> str:
    """Where the command's usage is shown: ` (see `claimledger set -h`)`."""
    ctx = error.ctx
    if ctx is None or ctx.command.get_help_option(ctx) is None:
        return ""
    return f" (see `{ctx.command_path} {ctx.help_option_names[0]}`)"


app = typer.Typer(
    name="claimledger",
    cls=TaskGroup,
    help="Keep a teardown's quoted evidence alive: refresh quotes from docs, "
    "regrade claims, render the report.",
    epilog="First time: claimledger demo (offline), or claimledger init. The loop: "
    "claimledger refresh, then regrade --write, then render. Exit codes: 0 ok, 1 found "
    "drift or pending changes, 2 bad input, 3 regrade --check: evidence incomplete, 70 "
    "internal error, 130 interrupted, 141 output pipe closed.",
    no_args_is_help=True,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)


@dataclass(frozen=True)
class Options:
    """What the global options say, for the command that runs after them."""

    ledger: Path = Path("claims.yaml")
    evidence: Path | None = None
    debug: bool = False
    plain: bool = False
    quiet: bool = False
    verbose: bool = False

    @property
    def output(self) -> Output:
        return Output(plain=self.plain, quiet=self.quiet, verbose=self.verbose)

    @property
    def home(self) -> Path:
        """The ledger's directory: templates/, out/ and claimledger.toml are relative to it."""
        return self.ledger.parent

    @property
    def store(self) -> Path:
        """The evidence store: --evidence, else out/evidence.sqlite3 beside the ledger (and
        then never through a symbolic link in the checkout: see `refuse_links`); refused
        where a directory (`--evidence ''` names the current one), a FIFO or a device
        stands, before anything opens it."""
        if self.evidence is not None:
            path = self.evidence
            refuse_the_ledger_as_store(path, self.ledger)
        else:
            path = self.home / "out" / "evidence.sqlite3"
            refuse_links(path, below=self.home)
        refuse_all_but_a_file(path, "the evidence store")
        return path

    def load(self, *, any_owner: bool = False) -> Ledger:
        """The ledger; refused in a folder another user owns unless the user allowed it
        (`any_owner`: for `trust`, which does)."""
        from claimledger.ledger.file import load
        from claimledger.workspace.trust import refuse_foreign

        if not any_owner:
            refuse_foreign(self.ledger)
        return load(self.ledger)


def refuse_the_ledger_as_store(path: Path, ledger: Path) -> None:
    """`--evidence claims.yaml` is a slip of the hand: read as a store, the ledger is "no
    evidence store", and the advice to move it aside and refresh would lose the reading."""
    from claimledger.services.rendering import same_file

    if same_file(path, ledger):
        raise InputError(f"--evidence {path}: that is the ledger, not an evidence store")


def options(ctx: typer.Context) -> Options:
    """The global options of this invocation."""
    found = ctx.find_root().obj
    return found if isinstance(found, Options) else Options()


LEDGER_NAME = "claims.yaml"
LEDGER_VARIABLE = "CLAIMLEDGER_LEDGER"


def find_ledger(start: Path) -> Path:
    """The ledger the way git finds its repository: claims.yaml in `start` or the nearest
    directory above it that has one; else claims.yaml in `start` (which `init` creates)."""
    here = start.absolute()
    for directory in (here, *here.parents):
        candidate = directory / LEDGER_NAME
        if candidate.is_file():
            return candidate if directory != here else Path(LEDGER_NAME)
    return Path(LEDGER_NAME)


_PLAIN_HELP = "Tables as tab-separated lines with a header row, for scripts: no borders, no colour."
_QUIET_HELP = "Print nothing but errors (the exit status says the rest; --json still prints)."
_VERBOSE_HELP = "Say more where a command has more to say (refresh: each page and check)."


def _version(value: bool) -> None:
    if value:  # plain stdout: printing the version loads no console
        sys.stdout.write(f"claimledger {__version__}\n")
        sys.stdout.flush()  # now, while a closed pipe is still ours to tell (cli.pipes)
        raise typer.Exit()


@app.callback()
def global_options(
    ctx: typer.Context,
    ledger: Annotated[
        Path | None,
        typer.Option(
            "--ledger",
            "-l",
            envvar=LEDGER_VARIABLE,
            help="The claims ledger to work on (default: claims.yaml here or in the nearest "
            "directory above). Also accepted after the command.",
        ),
    ] = None,
    evidence: Annotated[
        Path | None,
        typer.Option(
            "--evidence",
            help="The evidence store (default: out/evidence.sqlite3 beside the ledger).",
        ),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an internal error.")
    ] = False,
    plain: Annotated[bool, typer.Option("--plain", help=_PLAIN_HELP)] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help=_QUIET_HELP)] = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help=_VERBOSE_HELP)] = False,
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
    ctx.obj = Options(
        ledger=ledger or find_ledger(Path()),
        evidence=evidence,
        debug=debug,
        plain=plain,
        quiet=quiet,
        verbose=verbose,
    )


# --------------------------------------------------------------------------- errors

P = ParamSpec("P")
T = TypeVar("T")
Command = Callable[Concatenate[typer.Context, P], ExitCode]


def command(
    *names: str, aliases: tuple[str, ...] = (), **kwargs: Any
) -> Callable[[Command[P]], Command[P]]:
    """Register a command: its returned ExitCode becomes the exit status, and whatever it
    raises goes through `exit_status`. The command's first parameter is typer's context."""

    def register(func: Command[P]) -> Command[P]:
        @functools.wraps(func)
        def run(ctx: typer.Context, *args: P.args, **kw: P.kwargs) -> ExitCode:
            ledger = kw.pop(_LEDGER_HERE, None)
            _ledger_after_command(ctx, ledger if isinstance(ledger, Path) else None)
            given = {name: bool(kw.pop(here, False)) for name, here in _OUTPUT_HERE.items()}
            opts = _output_after_command(ctx, given)
            with printing(opts.output), exit_status(opts.debug):
                if opts.quiet and opts.verbose:
                    raise InputError("--quiet and --verbose exclude each other")
                refuse_control_characters(ctx, kw)
                code = func(ctx, *args, **kw)
                sys.stdout.flush()  # what is left in the buffer, while a closed pipe is 141
            if code != ExitCode.OK:
                raise typer.Exit(code)
            return code

        kwargs.setdefault("short_help", _summary(func))
        kwargs.setdefault("epilog", GLOBAL_OPTIONS_SAID)
        signature = inspect.signature(func, eval_str=True)
        run.__signature__ = _with_global_options(signature)  # type: ignore[attr-defined]
        app.command(*names, **kwargs)(run)
        for alias in aliases:  # the same command under a short name, not listed twice
            app.command(alias, **{**kwargs, "hidden": True})(run)
        while app.registered_commands:  # made into click commands when asked for, by name
            info = app.registered_commands.pop(0)
            COMMANDS[info.name or ""] = info
        return func  # the command as written; the app runs it through `run`

    return register


def _summary(func: Callable[..., Any]) -> str:
    """A command's first docstring paragraph, whole: the list of commands never cuts it,
    nor ends it where a line of the docstring happens to end."""
    return " ".join((func.__doc__ or "").strip().split("\n\n", 1)[0].split())


GLOBAL_OPTIONS_SAID = (
    "-l/--ledger, --plain, -q/--quiet and -v/--verbose work before or after any command "
    "(claimledger --help says what they do)."
)
"""Said once under each command's options, instead of the four repeated there."""

_LEDGER_HERE = "ledger_after_command"
_OUTPUT_HERE = {
    "plain": "plain_after_command",
    "quiet": "quiet_after_command",
    "verbose": "verbose_after_command",
}


def _with_global_options(signature: inspect.Signature) -> inspect.Signature:
    """The command's parameters, and a --ledger, --plain, -q and -v of its own, so that
    `claimledger check --ledger x.yaml -q` means what `claimledger --ledger x.yaml -q
    check` does."""

    def option(name: str, annotation: Any, default: Any) -> inspect.Parameter:
        return inspect.Parameter(
            name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation
        )

    ledger = Annotated[
        Path | None,
        typer.Option("--ledger", "-l", hidden=True),
    ]
    added = [
        option(_LEDGER_HERE, ledger, None),
        option(_OUTPUT_HERE["plain"], Annotated[bool, typer.Option("--plain", hidden=True)], False),
        option(
            _OUTPUT_HERE["quiet"],
            Annotated[bool, typer.Option("--quiet", "-q", hidden=True)],
            False,
        ),
        option(
            _OUTPUT_HERE["verbose"],
            Annotated[bool, typer.Option("--verbose", "-v", hidden=True)],
            False,
        ),
    ]
    return signature.replace(parameters=[*signature.parameters.values(), *added])


def _ledger_after_command(ctx: typer.Context, ledger: Path | None) -> None:
    if ledger is not None:
        ctx.find_root().obj = dataclasses.replace(options(ctx), ledger=ledger)


def _output_after_command(ctx: typer.Context, given: dict[str, bool]) -> Options:
    """The options with --plain, -q and -v given after the command added to those before."""
    opts = options(ctx)
    if any(given.values()):
        opts = dataclasses.replace(
            opts,
            plain=opts.plain or given["plain"],
            quiet=opts.quiet or given["quiet"],
            verbose=opts.verbose or given["verbose"],
        )
        ctx.find_root().obj = opts
    return opts


def undecodable_argument(arguments: Sequence[str]) -> str | None:
    """What is wrong with the first argument that is not UTF-8 text, if one is: Python
    keeps an undecodable byte of the command line as a lone surrogate, which no file,
    page or report of the tool can hold, so it is refused before any command runs."""
    for number, argument in enumerate(arguments, start=1):
        for at, char in enumerate(argument, start=1):
            if "\ud800" <= char <= "\udfff":
                byte = ord(char) - 0xDC00
                what = f"byte 0x{byte:02x}" if 0x80 <= byte <= 0xFF else "a lone surrogate"
                return f"argument {number} is not UTF-8 text ({what} at character {at})"
    return None


CONTROL_CHARACTER = re.compile("[\x00-\x08\x0e-\x1b\x1f\x7f-\x84\x86-\x9f]")
"""The control characters no text of the ledger is given on purpose (all but the tab and
what the matcher reads as line breaks, a form feed from a PDF's page break among them):
typed or pasted as an option's value (a terminal's escape, a NUL read from standard input
or an editor's file), one would be kept, escaped, in claims.yaml."""


def control_character_problem(text: str, what: str) -> str | None:
    """What is wrong with `text`, given as `what`, if it holds a control character."""
    found = CONTROL_CHARACTER.search(text)
    if found is None:
        return None
    code = ord(found.group())
    return f"{what} holds a control character (U+{code:04X} at character {found.start() + 1})"


def refuse_control_characters(ctx: typer.Context, given: dict[str, Any]) -> None:
    """Refuse a command's text argument or option (`given`, by parameter) that holds a
    control character, naming it as typed: a parameter typed as a path is left to the
    file system."""
    for param in ctx.command.params:
        shown = param.opts[0] if isinstance(param, TyperOption) else param.human_readable_name
        for text in _texts(given.get(param.name or "")):
            if (problem := control_character_problem(text, shown)) is not None:
                raise InputError(problem)


def _texts(value: object) -> list[str]:
    """The text a parameter's value holds: itself, or each text of a repeated option."""
    if isinstance(value, str):
        return [value]
    return [x for x in value if isinstance(x, str)] if isinstance(value, list | tuple) else []


def standard_input(what: str) -> str:
    """Standard input as text (`what` it gives), its line ends as Python reads text:
    UTF-8, as an argument must be; other bytes are refused here, not left to become a
    lone surrogate that the ledger's YAML then cannot hold. A standard input closed before
    the start (`<&-`) has nothing to give: Python then has no sys.stdin, and it is refused
    as input. One that is the terminal is typed at (`typed_at_the_terminal`)."""
    if sys.stdin is None:
        raise InputError("standard input is closed, and `-` reads the value from it")
    with typed_at_the_terminal(what):
        data = sys.stdin.buffer.read()
    return utf8_text(data, "standard input")


@contextlib.contextmanager
def typed_at_the_terminal(what: str) -> Iterator[None]:
    """Where standard input is the terminal, the user is told what to type there and how
    to end it, as gpg tells them: else the command waits without a word, as if it hung.
    Ctrl-C ends the line being typed before the interruption is said on a line of its
    own (the terminal leaves its `^C` where the typing stopped)."""
    typing = sys.stdin.isatty() and sys.stderr.isatty()
    told = typing and not output().quiet
    try:
        if told:  # written whole at once: Ctrl-C amid rich's print would print it twice
            sys.stderr.write(
                f"claimledger: reading {what} from the terminal: end it with Ctrl-D on a line"
                " of its own (Ctrl-C writes nothing)\n"
            )
            sys.stderr.flush()
        yield
    except KeyboardInterrupt:
        if typing:
            sys.stderr.write("\n")
        raise


def utf8_text(data: bytes, what: str) -> str:
    """`data` as text, its line ends as Python reads text: UTF-8, as the ledger is; other
    bytes are refused as `what`'s, at the first that is not, before they could become a
    lone surrogate (or a traceback)."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        byte = data[error.start]
        raise InputError(
            f"{what} is not UTF-8 text (byte 0x{byte:02x} at byte {error.start + 1})"
        ) from None
    if (problem := control_character_problem(text, what)) is not None:
        raise InputError(problem)
    return text.replace("\r\n", "\n").replace("\r", "\n")


@contextlib.contextmanager
def exit_status(debug: bool) -> Iterator[None]:
    """Turn whatever a command raises into one line on stderr and its exit code:

    a ledger's problems, each as FILE:LINE:COL, then a count (2); any other error of the
    tree, its message (its class's code: 2); a path no call can use (a name too long, a
    loop of links: `unusable_path`), wherever it is met (2); an interrupt (130); anything
    else is a bug: one line, the traceback with --debug (70). Each line is shown with the
    credentials of any URL it names left out (`shown_error`).
    """
    try:
        yield
    except typer.Exit:
        raise
    except LedgerError as error:
        for problem in error.problems:
            err.error(shown_error(str(problem)))
        count = len(error.problems)
        noun = "problem" if count == 1 else "problems"
        err.error(f"claimledger: error: {count} {noun} in the ledger")
        raise typer.Exit(error.exit_code) from None
    except ClaimledgerError as error:
        err.error(f"claimledger: error: {shown_error(str(error))}")
        raise typer.Exit(error.exit_code) from None
    except KeyboardInterrupt:
        err.error("claimledger: interrupted")
        raise typer.Exit(ExitCode.INTERRUPTED) from None
    except BrokenPipeError:
        raise typer.Exit(closed_pipe()) from None
    except Exception as error:
        if isinstance(error, OSError) and (refused := unusable_path(error)) is not None:
            err.error(f"claimledger: error: {shown_error(str(refused))}")
            raise typer.Exit(refused.exit_code) from None
        if isinstance(error, OSError) and not output_writable():
            raise typer.Exit(unwritable_output(error)) from None
        if debug:
            traceback.print_exception(error)
        where = "" if debug else " (run with --debug for the traceback)"
        said = shown_error(str(error))
        err.error(f"claimledger: internal error: {type(error).__name__}: {said}{where}")
        raise typer.Exit(ExitCode.INTERNAL) from None


def shown_error(message: str) -> str:
    """An error's message on one line, each URL in it redacted: a message names the URL
    typed (`--url`, `--map`, `move`) or a value of the ledger (a source's `url`, `repo`),
    and either may hold a password that must not reach the terminal or a CI log."""
    from claimledger.urls import redacted_text

    return breaks_escaped(redacted_text(message))


# --------------------------------------------------------------------------- shared steps


def found_if(condition: bool) -> ExitCode:
    """1 when the run found something that needs a person, else 0."""
    return ExitCode.FOUND if condition else ExitCode.OK


def today() -> dt.date:
    return dt.date.today()


def now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


def existing_store(opts: Options) -> contextlib.AbstractContextManager[EvidenceStore | None]:
    """The evidence store for reading, or None when no refresh has created it yet."""
    from claimledger.services.stores import for_reading

    return for_reading(opts.store, warn)


def writable_store(opts: Options) -> contextlib.AbstractContextManager[EvidenceStore]:
    """The evidence store for a command that records (created when there is none yet)."""
    from claimledger.services.stores import for_recording

    return for_recording(opts.store, warn)


def read_latest(
    opts: Options,
    read: Callable[[EvidenceStore | None, Ledger], T],
    ledger: Ledger,
    *,
    say_whose: bool = True,
) -> T:
    """One kind of latest evidence (a function of `claimledger.services.latest`), read from
    the store opened for reading (none yet: no evidence); said to be the checkout's word
    when it is, unless the command says so itself (`say_whose=False`)."""
    with existing_store(opts) as store:
        if say_whose:
            say_if_the_checkouts(store)
        return read(store, ledger)


def say_if_the_checkouts(store: EvidenceStore | None) -> None:
    """Say, on stderr, when the store came with the checkout: a view that shows what it
    holds ("verified", a page's words) shows another's word of what was read."""
    from claimledger.services.latest import store_made_here
    from claimledger.terminal.lines import STRANGER_STORE

    if not store_made_here(store):
        err.print(f"claimledger: note: {STRANGER_STORE}", markup=False)


def no_evidence_note(opts: Options) -> None:
    from claimledger.terminal.lines import no_evidence_line

    err.print(no_evidence_line(opts.store), markup=False)
