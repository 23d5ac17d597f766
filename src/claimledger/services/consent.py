"""The user's consent to a workspace, as `trust` gives, shows and withdraws it: the
artifact commands it may run, the settings that widen what it may reach, and a folder
another user owns."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.errors import InputError

if TYPE_CHECKING:
    from claimledger.ledger.model import Artifact, Ledger
    from claimledger.workspace.trust import Consent, Standing


@dataclass(frozen=True)
class WorkspaceStanding:
    """What the workspace asks and where each ask stands with the user."""

    artifacts: list[Standing]
    asks: list[str]
    """What its settings (and its templates, its private sources) ask beyond the defaults."""
    settings: Consent
    owner: int | None
    """Another user who owns the ledger's folder, or None."""
    owner_consent: Consent


def give(
    ledger_path: Path, ledger: Ledger, claim_ids: Sequence[str], *, show: bool
) -> WorkspaceStanding:
    """Trust the workspace as it is now (with `claim_ids`, only those claims' artifact
    commands), unless only `show`n; then where everything stands."""
    from claimledger.workspace import trust

    picked = _artifacts(ledger, claim_ids)
    asks = _asks_of(ledger_path, ledger)
    if not show:
        trust.trust(ledger_path, picked, None if claim_ids else asks)
    owner = trust.foreign_owner(ledger_path)
    allowed = owner is not None and trust.owner_allowed(ledger_path, owner)
    return WorkspaceStanding(
        artifacts=trust.standings(ledger_path, picked),
        asks=asks,
        settings=trust.settings_consent(ledger_path, asks),
        owner=owner,
        owner_consent=trust.Consent.TRUSTED if allowed else trust.Consent.UNTRUSTED,
    )


def withdraw(ledger_path: Path, ledger: Ledger, claim_ids: Sequence[str]) -> list[str]:
    """Withdraw the trust in `claim_ids`' artifact commands, or (none named) in the whole
    workspace; what was withdrawn."""
    from claimledger.workspace.trust import revoke

    _artifacts(ledger, claim_ids)  # each named claim has one
    return revoke(ledger_path, set(claim_ids) if claim_ids else None)


def _artifacts(ledger: Ledger, claim_ids: Sequence[str]) -> dict[str, Artifact]:
    """The artifacts of `claim_ids` (each must have one), or every artifact."""
    from claimledger.services.latest import artifacts_of

    artifacts = artifacts_of(ledger)
    for claim_id in claim_ids:
        if claim_id not in artifacts:
            raise InputError(f"{claim_id}: has no artifact to trust")
    return {c: a for c, a in artifacts.items() if not claim_ids or c in claim_ids}


def _asks_of(ledger_path: Path, ledger: Ledger) -> list[str]:
    """What the workspace's files ask beyond the defaults (see `workspace.trust.asks_of`)."""
    from claimledger.ledger.config import read_config
    from claimledger.workspace import trust

    return trust.asks_of(read_config(ledger_path.parent), ledger, ledger_path.parent)
