"""What a refresh's after-steps are shown as: each search for a source that went, and
what the web archive said of each page it was asked to save."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from claimledger.evidence.service import RefreshOutcome, Saves
    from claimledger.ledger.model import Ledger


def after_lines(outcome: RefreshOutcome, ledger: Ledger) -> list[str]:
    """Each search for a source that went, then what the archive said of each save."""
    found = []
    if outcome.relocations:  # the sitemap reader loads where a search was made
        from claimledger.evidence.relocate import relocation_line

        found = [relocation_line(r, ledger.adopting_move) for r in outcome.relocations]
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
