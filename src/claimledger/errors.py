"""The one exception tree of claimledger, and the exit code each branch means.

    ClaimledgerError            anything the tool reports as one line
    ├── InputError              the user's input is wrong: exit 2
    │   ├── LedgerError         claims.yaml is invalid: every problem, each file:line:col
    │   ├── UnknownIdError      a claim or facet named on the command line is not there
    │   ├── ConflictError       an edit no longer applies to the file as it is on disk now
    │   └── render.TemplateError  a report template is broken: its file and line
    └── StoreError              the evidence store cannot be used: exit 2
        ├── evidence.EvidenceError  not a store, damaged, or from a newer version
        └── StoreBusyError      another refresh is writing to it

Anything else that escapes is a bug: the CLI prints it as one line and exits 70.
"""

from __future__ import annotations

from dataclasses import dataclass


class ClaimledgerError(Exception):
    """An error the user can act on; its message is one line."""

    exit_code = 2


class InputError(ClaimledgerError):
    """The user's files or arguments are wrong."""


class UnknownIdError(InputError):
    """An id given on the command line names nothing in the ledger."""


class ConflictError(InputError):
    """The file changed under us so that the edit no longer applies."""


class StoreError(ClaimledgerError):
    """The evidence store is missing, corrupt, or from a newer version."""


class StoreBusyError(StoreError):
    """Another process holds the evidence store's writer lock."""


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
