"""What a command prints, and how: the consoles on stdout and stderr (opened on first
use), the page's control characters shown rather than obeyed, JSON written as it comes,
and the way this command was asked to print (`output`: --plain, --quiet, --verbose),
which the command line sets for a command's run and no longer.
"""

from __future__ import annotations

import contextlib
import os
import re
import sys
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from claimledger.report.bidi import BIDI_CLASS, BIDI_MARKERS
from claimledger.report.cimarks import text_marks_broken

SHOWN_CONTROLS = re.compile(f"[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029{BIDI_CLASS}]")
"""The characters `visible_controls` shows as pictures or markers."""

_MARKERS = {**BIDI_MARKERS, 0x2028: "⟨U+2028⟩", 0x2029: "⟨U+2029⟩"}
"""The bidirectional controls' markers, and the line and paragraph separators'."""


def visible_controls(text: str) -> str:
    """Control characters shown as their Unicode pictures (ESC as ␛, NUL as ␀; C1 as �),
    one character each, so a page cannot drive the reader's terminal (retitle it, recolour
    it, move the cursor) through text we print; each bidirectional control as its marker
    (`⟨U+202E⟩`, see `claimledger.report.bidi`), so none can reorder what is shown; and the
    line and paragraph separators (U+2028, U+2029) as theirs, so that a line we print,
    which a terminal or a log viewer may break there, stays one line. Nor can it drive a
    CI runner that reads our output (`no_runner_commands`)."""
    return no_runner_commands(SHOWN_CONTROLS.sub(_picture, text))


def runner_reads_output() -> bool:
    """Whether a CI runner that takes commands from a job's output reads ours: GitHub
    Actions (`GITHUB_ACTIONS=true`) or Azure Pipelines (`TF_BUILD`)."""
    return os.environ.get("GITHUB_ACTIONS") == "true" or bool(os.environ.get("TF_BUILD"))


def no_runner_commands(text: str) -> str:
    """`text` with each `##[` (`##vso[`), and each `::` that begins a line, broken by a
    zero-width space while a CI runner reads our output: a page's or a ledger's words we
    print in a job (a heading, a facet's name) could otherwise give the runner a command
    (`##[stop-commands]` silences every annotation after it, `::add-mask::` hides what
    follows). The text reads the same; elsewhere it is left exactly as it is (a Haskell
    `::`, a reStructuredText `::` paragraph, a snapshot printed for a script)."""
    return text_marks_broken(text) if runner_reads_output() else text


def _picture(match: re.Match[str]) -> str:
    char = match.group()
    code = ord(char)
    if code >= 0x600:
        return _MARKERS[code]
    return chr(0x2400 + code) if code < 0x20 else "\u2421" if code == 0x7F else "\ufffd"


ERROR_LINES = ("claimledger: error:", "claimledger: internal error:", "claimledger: interrupted")
"""How an error's line begins (see `exit_status`): kept under --quiet."""


class _Terminal:
    """A console opened on its first use, so a command that prints nothing (`--version`,
    `--help`) never loads rich; see `claimledger.terminal.console`. A line of plain text to a
    pipe or a file is written without it."""

    def __init__(self, *, stderr: bool) -> None:
        self._stderr = stderr
        self._console: Any = None

    def print(self, *objects: Any, **kwargs: Any) -> None:
        """Print as the console prints; a printable line given with markup=False and sent
        to a pipe or a file is written here as it is, as rich would write it (no markup,
        no style, no wrapping, nothing to picture), without loading rich to do so: a
        refresh prints a line a page."""
        stream = sys.stderr if self._stderr else sys.stdout
        line = objects[0] if len(objects) == 1 else None
        if (
            self._console is None
            and type(line) is str
            and kwargs == {"markup": False}
            and line.isprintable()
            and not stream.isatty()
        ):
            if not output().quiet or (self._stderr and line.startswith(ERROR_LINES)):
                stream.write(no_runner_commands(line) + "\n")
            return
        self._opened().print(*objects, **kwargs)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._opened(), name)

    def __enter__(self) -> Any:
        """The console's own `with`, which Python looks up on the type, never through
        `__getattr__`: rich's live display (a refresh's progress bar) holds the console
        so while it redraws."""
        return self._opened().__enter__()

    def __exit__(self, *raised: object) -> None:
        self._opened().__exit__(*raised)

    def _opened(self) -> Any:
        if self._console is None:
            from claimledger.terminal.console import TerminalConsole

            self._console = TerminalConsole(
                stderr=self._stderr, highlight=False, soft_wrap=True, emoji=False
            )  # no `:warning:` in a page's text becomes a picture
        return self._console


if TYPE_CHECKING:
    from claimledger.terminal.console import TerminalConsole

    out: TerminalConsole
    err: TerminalConsole
else:
    out = _Terminal(stderr=False)
    err = _Terminal(stderr=True)


@dataclass(frozen=True)
class Output:
    """How a command prints: `plain` tables as TSV for scripts, `quiet` nothing but errors
    (data asked for with --json stays), `verbose` the detail a command has (refresh: each
    page and check)."""

    plain: bool = False
    quiet: bool = False
    verbose: bool = False


_OUTPUT: ContextVar[Output] = ContextVar("claimledger_output")
_AS_USUAL = Output()


def output() -> Output:
    """How the command running now prints (as usual outside a command)."""
    return _OUTPUT.get(_AS_USUAL)


@contextlib.contextmanager
def printing(how: Output) -> Iterator[None]:
    """`output()` is `how` while the command runs. A command run inside another (the demo's
    steps) prints as the outer one was asked to as well: `demo -q` is quiet throughout."""
    outer = output()
    token = _OUTPUT.set(
        Output(
            plain=how.plain or outer.plain,
            quiet=how.quiet or outer.quiet,
            verbose=how.verbose or outer.verbose,
        )
    )
    try:
        yield
    finally:
        _OUTPUT.reset(token)


def warn(line: str) -> None:
    """A warning on stderr, whole on its line however wide the terminal, each URL in it
    redacted (a warning may name a source's address, and that may hold a password)."""
    from claimledger.urls import redacted_text

    err.print(f"claimledger: warning: {redacted_text(line)}", markup=False, soft_wrap=True)


def print_text(text: str) -> None:
    """Text a command exists to print (a snapshot's), on stdout as it is: printed under
    --quiet too, like --json, with its control characters made visible."""
    sys.stdout.write(visible_controls(text) + "\n")


SCHEMA_VERSION = 2
"""The version of every command's JSON shape, its first key `schema_version` (the shapes
are JSON Schemas in claimledger/data/schemas/); bumped only when a key changes meaning or
goes, never for a key added. 2: a quote's `quote_index` counts from 1, as `#1` and
`--quote 1` do; a source row is one source's (`source_id`), a claim row each claim's."""


def print_json(value: Any, *, versioned: bool = True) -> None:
    """JSON goes straight to stdout: no console styling or wrapping may touch it. JSON
    escapes C0 controls itself; DEL and the C1 controls are escaped too, for a terminal.

    A command's output is an object that opens with `schema_version`; `versioned=False`
    prints a document of another shape as it is (the ledger's JSON Schema). A value of
    the object given as an iterator (a refresh's checks) is written an item at a time,
    so a long list is never whole in memory, as text or as objects; the text is what
    `json.dumps(indent=2)` makes of the same document with lists (see `indented_json`)."""
    from claimledger.report.jsontext import without_terminal_controls

    if versioned:
        value = {"schema_version": SCHEMA_VERSION, **value}
    pieces = _json_pieces(value) if isinstance(value, dict) and value else [_dumps(value)]
    for piece in pieces:
        sys.stdout.write(without_terminal_controls(piece))
    sys.stdout.write("\n")


def _json_pieces(document: dict[str, Any]) -> Iterator[str]:
    for n, (key, value) in enumerate(document.items()):
        yield ("{" if n == 0 else ",") + "\n  " + _dumps(key) + ": "
        if isinstance(value, Iterator):
            yield from _json_items(value)
        else:
            yield _nested(value, depth=1)
    yield "\n}"


def _json_items(items: Iterator[Any]) -> Iterator[str]:
    """A list one level down, written as its items come."""
    empty = True
    for item in items:
        yield ("[" if empty else ",") + "\n    " + _nested(item, depth=2)
        empty = False
    yield "[]" if empty else "\n  ]"


def _nested(value: Any, *, depth: int) -> str:
    """`value` as it reads `depth` levels into a document (JSON strings hold no newline)."""
    return _dumps(value).replace("\n", "\n" + "  " * depth)


def _dumps(value: Any) -> str:
    from claimledger.report.jsontext import indented_json

    return indented_json(value)
