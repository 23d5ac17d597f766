"""What `refresh` prints of its after-steps (`claimledger.evidence.service` runs them):
each search for a source that went (`relocate.py`) and, with `--save`, what the web
archive said of each page it was asked to snapshot (`preserve.py`); and their options.
Neither step changes the refresh's exit status.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.evidence.service import RefreshOutcome, Saves
    from claimledger.ledger.model import Ledger
    from claimledger.records import FetchRecord, Relocation


def after_lines(outcome: RefreshOutcome) -> list[str]:
    """Each search for a source that went, then what the archive said of each save."""
    found = []
    if outcome.relocations:  # the sitemap reader loads where a search was made
        from claimledger.evidence.relocate import relocation_line

        found = [relocation_line(relocation) for relocation in outcome.relocations]
    return found + (saves_lines(outcome.saves) if outcome.saves else [])


def after_json(outcome: RefreshOutcome) -> dict[str, object]:
    relocations = []
    if outcome.relocations:
        from claimledger.evidence.relocate import relocation_json

        relocations = [relocation_json(relocation) for relocation in outcome.relocations]
    saves = saves_json(outcome.saves) if outcome.saves else []
    return {"relocations": relocations, "saved": saves}


def saves_lines(saves: Saves) -> list[str]:
    from claimledger.evidence.preserve import saved_line, secret_line, withheld_line

    return [
        *(saved_line(saved) for saved in saves.asked),
        *(saved_line(saved, again=False) for saved in saves.unchanged),
        *(secret_line(url) for url in saves.secret),
        *(withheld_line(page) for page in saves.withheld),
    ]


def saves_json(saves: Saves) -> list[dict[str, object]]:
    from claimledger.evidence.preserve import saved_json, withheld_json
    from claimledger.urls import redacted

    return [
        *(saved_json(saved) for saved in saves.asked),
        *(saved_json(saved, again=False) for saved in saves.unchanged),
        *({"url": redacted(url), "asked": False, "error": "a secret"} for url in saves.secret),
        *(withheld_json(page) for page in saves.withheld),
    ]


# --------------------------------------------------------------------------- options

Save = Annotated[
    bool,
    typer.Option(
        "--save",
        help="Then ask the web archive to snapshot each page read (Save Page Now), and "
        "keep the snapshot's address; off by default.",
    ),
]
Recover = Annotated[
    bool,
    typer.Option(
        "--recover/--no-recover",
        help="Look for each source that went (404/410, or an empty page) on its site's "
        "sitemap, and propose the page that carries its quotes (default: on).",
        show_default=False,
    ),
]
RecoverCandidates = Annotated[
    int | None,
    typer.Option(
        "--recover-candidates",
        metavar="N",
        help="Pages of the sitemap read at most for each source that went (default 5; "
        "recover_candidates in claimledger.toml).",
        show_default=False,
    ),
]
Archive = Annotated[
    str | None,
    typer.Option(
        "--archive",
        metavar="URL",
        help="The web archive's base URL (default https://web.archive.org; archive in "
        "claimledger.toml).",
        show_default=False,
    ),
]
"""The web archive's base URL, as `archive.archive_settings` reads it (with the
`archive` setting of claimledger.toml): one option for every part of a refresh that asks
the archive (--save here; the as-read check may take it too)."""


def standing_searches(
    opts: Options, ledger: Ledger, fetches: Mapping[str, FetchRecord]
) -> list[Relocation]:
    """For `status`: the latest search of each source still at the address searched for,
    and still lost there at its latest fetch (`fetches`: the latest fetch of each URL)."""
    from claimledger.cli.app import existing_store
    from claimledger.evidence.relocate import standing_relocations

    with existing_store(opts) as store:
        searches = store.latest_relocations() if store else {}
    sources = {source.id: source.url for source in ledger.sources.values()}
    return standing_relocations(searches, sources, fetches)
