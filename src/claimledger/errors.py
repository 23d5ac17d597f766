"""The one exception tree of claimledger, and the exit code each branch means.

    ClaimledgerError              anything the tool reports as one line
    ├── InputError                the user's input is wrong: exit 2
    │   ├── LedgerError           claims.yaml is invalid: every problem, each file:line:col
    │   ├── UnknownIdError        a claim, facet or source named on the command line is not there
    │   ├── ConflictError         an edit no longer applies to the file as it is on disk now
    │   ├── TemplateError         a report template is broken: its file and line
    │   └── EnvironmentProblem    the disk is full, read-only, or forbids what is asked
    └── StoreError                the evidence store cannot be used: exit 2
        ├── StoreDamagedError     not a store, damaged, or from a newer version
        └── StoreBusyError        another refresh is writing to it

    PageUnreadable (ValueError)   a page's text cannot be had (a body we cannot decode, a
                                  selector that matches nothing, a tree too deep): data, not
                                  an error of the run; it becomes an `unreadable` source
    DemoDataError (ValueError)    the packaged demo pages are broken: a packaging bug
    ReadingStopped                reading a YAML document gave up part way (an alias bomb,
                                  nesting too deep); safeyaml turns it into the one problem
    Unresolvable                  a host name has no address we could learn: nothing was
                                  connected; the fetcher turns it into an outcome
    PrivateDestination            a host's address is not public and the policy does not
                                  allow it: nothing was connected; an outcome too
    OverAllowance                 a sandboxed template asked for more memory than a render
                                  may build; the render turns it into a TemplateError
    HistoryStopped                the docs' history step reached its time budget or a
                                  clone its size cap; the refresh says so in one line

An OSError that only a path's shape causes (a name longer than the system allows, a loop
of symbolic links) is input wherever it is met: `unusable_path` says it as one (2).
Anything else that escapes is a bug: the CLI prints it as one line and exits 70.
"""

from __future__ import annotations

import errno
from dataclasses import dataclass
from enum import IntEnum


class ExitCode(IntEnum):
    """What a command's exit status says (0 ok; 1 it worked and found something)."""

    OK = 0
    FOUND = 1  # drift, pending proposals, unreachable sources
    INPUT = 2  # bad input or usage, or an environment that refuses what is asked
    UNREAD = 3  # `regrade --check`: nothing drifted, but some evidence could not be read
    INTERNAL = 70  # a bug
    INTERRUPTED = 130
    CLOSED_PIPE = 141  # the reader of stdout went away (`| head`): 128 + SIGPIPE, as git


class ClaimledgerError(Exception):
    """An error the user can act on; its message is one line."""

    exit_code = ExitCode.INPUT


class InputError(ClaimledgerError):
    """The user's files or arguments are wrong."""


class UnknownIdError(InputError):
    """An id given on the command line names nothing in the ledger."""


class ConflictError(InputError):
    """The file changed under us so that the edit no longer applies."""


class TemplateError(InputError):
    """A report template is wrong: a name it uses does not exist, or it does not parse."""


class EnvironmentProblem(InputError):
    """The machine refuses what is asked: no space left, a read-only file system, no
    permission. Nothing was written; the message says which file and why."""

    @classmethod
    def of(cls, error: OSError, path: object) -> EnvironmentProblem:
        """The plain words for an OSError met while writing `path`."""
        words = _ERRNO_WORDS.get(error.errno or 0)
        reason = words or (error.strerror or str(error))
        return cls(f"cannot write {error.filename or path}: {reason}; nothing was written")


_ERRNO_WORDS = {
    errno.ENOSPC: "no space left on the device (free some and retry)",
    errno.EDQUOT: "the disk quota is used up",
    errno.EFBIG: "the file would be larger than this system allows",
    errno.EROFS: "the file system is read-only",
    errno.EACCES: "permission denied",
    errno.EPERM: "not permitted",
    errno.EISDIR: "a directory stands where the file should be",
    errno.ENOTDIR: "a file stands where a directory should be",
    errno.ENAMETOOLONG: "a name in the path is longer than this system allows",
    errno.ELOOP: "the path is a loop of symbolic links",
}

_PATH_SHAPES = (errno.ENAMETOOLONG, errno.ELOOP)
"""What the system says of a path that no call can use, whatever it is asked to do."""


def link_loop(path: object) -> InputError:
    """A path that leads round a loop of symbolic links: the input error it is."""
    return InputError(f"cannot use {path}: {_ERRNO_WORDS[errno.ELOOP]}")


def unusable_path(error: OSError) -> InputError | None:
    """The input error an OSError is when the path's shape alone caused it (a name longer
    than the system allows, a loop of symbolic links): the user, or a repository, wrote
    that path, so it is their input wherever it is met (read, written, only looked at),
    never a bug of the tool; None for any other error."""
    if error.errno not in _PATH_SHAPES:
        return None
    return InputError(f"cannot use {error.filename}: {_ERRNO_WORDS[error.errno]}")


class StoreError(ClaimledgerError):
    """The evidence store is missing, corrupt, or from a newer version."""


class StoreDamagedError(StoreError):
    """The file cannot be used as an evidence store; the message says which file and why."""


class StoreBusyError(StoreError):
    """Another process holds the evidence store's writer lock."""


class PageUnreadable(ValueError):
    """A page's text cannot be had as asked; the message says why."""


class DemoDataError(ValueError):
    """The demo data is incomplete or its routes file is malformed (a packaging bug)."""


class ReadingStopped(Exception):
    """Reading a YAML document stopped at a line and column, for the reason given."""

    def __init__(self, line: int, col: int, message: str) -> None:
        super().__init__(f"{line}:{col}: {message}")
        self.line, self.col, self.message = line, col, message


class Unresolvable(Exception):
    """A host name the resolver gave no address for (no such name, a failing name server):
    the request fails, as any unreachable page does; it never goes on unchecked. Only a
    `temporary` failure (a name server that failed to answer) is worth another attempt:
    a name that does not exist will not exist a second later."""

    def __init__(self, message: str, *, temporary: bool = False) -> None:
        super().__init__(message)
        self.temporary = temporary


class PrivateDestination(Exception):
    """A host that is, or resolves to, an address that is not public, where the run allows
    only public ones; the message names the host, the address and the way to allow it."""


class HistoryStopped(Exception):
    """The run's time budget, or a clone's size cap, was reached: the history step stops
    there and says so once; nothing else of the run is touched."""


class OverAllowance(Exception):
    """A sandboxed template would build more than `limit` bytes in one render."""

    def __init__(self, limit: int) -> None:
        super().__init__(f"asks for more than {limit:,} bytes of memory")
        self.limit = limit


class OverSteps(OverAllowance):
    """A sandboxed template would take more than `limit` steps (loop rounds and calls) in
    one render: a loop that prints nothing holds no memory, and may run for hours."""

    def __init__(self, limit: int) -> None:
        Exception.__init__(self, f"takes more than {limit:,} steps (loop rounds and calls)")
        self.limit = limit


def breaks_escaped(message: str) -> str:
    """A message on one line: a value it quotes (a reason stored in the ledger, a name
    typed) may hold line breaks, written as `\\n` and `\\r`."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


@dataclass(frozen=True, order=True)
class Problem:
    """One thing wrong with a ledger, where it is, and what is wrong."""

    file: str
    line: int
    col: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.col}: {self.message}"


class LedgerError(InputError):
    """The ledger is invalid; it carries every problem found, not just the first."""

    def __init__(self, problems: list[Problem]) -> None:
        self.problems = sorted(problems)
        super().__init__("\n".join(str(p) for p in self.problems))
