"""What the commands that show evidence print of the as-read step (run by
`claimledger.evidence.service`): its options, its lines and its JSON, and the latest
verdicts for `status`, `diff`, `regrade` and `render`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options, existing_store

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.model import Ledger
    from claimledger.records import ArchiveLookup, AsReadCheck

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


def latest_as_read(opts: Options, ledger: Ledger) -> list[AsReadCheck]:
    """The latest as-read check of each quote the ledger holds, for its date_read."""
    from claimledger.grading.rules import current_as_read

    with existing_store(opts) as store:
        return current_as_read(ledger, store.latest_as_read_checks() if store else [])


def latest_lookups(opts: Options, ledger: Ledger) -> list[ArchiveLookup]:
    """The archive's latest answer for each page the ledger reads, for its date_read."""
    from claimledger.urls import fetch_target, redacted

    pages = {redacted(fetch_target(source.url)[0]) for source in ledger.sources.values()}
    with existing_store(opts) as store:
        lookups = store.latest_archive_lookups() if store else {}
    return [
        lookup
        for url, lookup in sorted(lookups.items())
        if url in pages and lookup.read_on == ledger.date_read
    ]
