"""What the commands that show evidence print of the as-read step (run by
`claimledger.evidence.service`): its options, its lines and its JSON, and the latest
verdicts for `status`, `diff`, `regrade` and `render`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

if TYPE_CHECKING:  # the core loads where a command uses it
    pass

NoAsRead = Annotated[
    bool,
    typer.Option(
        "--no-as-read",
        help="Do not check the quotes on the web archive's copies of the reading day "
        "(date_read). By default they are, once per page: the archive's answer is kept.",
    ),
]
ArchiveWindow = Annotated[
    int | None,
    typer.Option(
        "--archive-window",
        metavar="DAYS",
        help="How many days from date_read a capture may be (default 30).",
    ),
]


# --------------------------------------------------------------------------- what is shown
