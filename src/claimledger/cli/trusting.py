"""The command that gives, shows and withdraws the user's consent to a workspace: trust."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options, command, options, writable_store
from claimledger.cli.completion import complete_claims
from claimledger.cli.options import AsJson
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import out, print_json

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.workspace.trust import Standing


@command("trust")
def trust_command(
    ctx: typer.Context,
    claim_ids: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="CLAIM",
            help="Trust only these claims' artifact commands (default: the whole workspace).",
            autocompletion=complete_claims,
        ),
    ] = None,
    show: Annotated[
        bool, typer.Option("--list", help="Change nothing: show what it asks and its standing.")
    ] = False,
    revoke: Annotated[
        bool, typer.Option("--revoke", help="Withdraw the trust instead of giving it.")
    ] = False,
    own_store: Annotated[
        bool,
        typer.Option(
            "--store",
            help="Instead: take the evidence store as yours (one you made with an older "
            "claimledger), never one a clone brought.",
        ),
    ] = False,
    as_json: AsJson = False,
) -> ExitCode:
    """Allow this workspace what a cloned one may not do, exactly as it is now.

    That is: `regrade` running the ledger's artifact commands; the settings that widen
    what claimledger may reach (claimledger.toml's map, allow_private, archive and
    robots = false; sources marked allow_private); the report templates in templates/;
    and a folder another user owns. Read them first (--list). Consent is kept in your own
    config by the ledger's path; a command, a file of its directory, or a setting that changes
    needs your word again. With CLAIMs, only those artifact commands are trusted.
    """
    from claimledger.services import consent

    if show and revoke:
        raise InputError("--list and --revoke exclude each other")
    opts = options(ctx)
    if own_store:
        if show or revoke or claim_ids or as_json:
            raise InputError("--store takes no CLAIM, --list, --revoke or --json")
        return _take_store(opts)
    ledger = opts.load(any_owner=True)  # trusting it is how the user says to use it
    chosen = [ledger.claim(claim_id).id for claim_id in claim_ids or ()]
    if revoke:
        gone = consent.withdraw(opts.ledger, ledger, chosen)
        for what in gone:
            out.print(f"no longer trusted: {what}", markup=False)
        if not gone:
            out.print("nothing to revoke: nothing of these was trusted", markup=False)
        return ExitCode.OK
    found = consent.give(opts.ledger, ledger, chosen, show=show)
    if as_json:
        print_json(
            {
                "artifacts": [standing_json(s) for s in found.artifacts],
                "settings": {"consent": str(found.settings), "asks": found.asks},
                "foreign_owner": found.owner,
            }
        )
        return ExitCode.OK
    for standing in found.artifacts:
        out.print(f"{standing.consent}: {standing.claim_id}: {standing.command}", markup=False)
    if found.asks:
        out.print(f"{found.settings}: settings: {'; '.join(found.asks)}", markup=False)
    if found.owner is not None:
        out.print(f"{found.owner_consent}: folder owned by uid {found.owner}", markup=False)
    if not found.artifacts and not found.asks and found.owner is None:
        out.print("nothing to trust: no artifact command and no setting asks for more")
    return ExitCode.OK


def standing_json(standing: Standing) -> dict[str, str]:
    """An artifact's standing as `trust --json` and `regrade --json` print it."""
    return {
        "claim_id": standing.claim_id,
        "command": standing.command,
        "consent": str(standing.consent),
    }


def _take_store(opts: Options) -> ExitCode:
    """Record the evidence store as this user's: a store an older claimledger made carries
    no mark of its user, so it reads as one a clone brought (the checkout's word) for
    good once it holds the web archive's answers or artifact runs. Only its user can say
    it is theirs; what it holds is then believed as their own refreshes' is."""
    from claimledger.services.latest import store_made_here

    if not opts.store.is_file():
        raise InputError(f"there is no evidence store at {opts.store}: nothing to take")
    with writable_store(opts) as store:
        if store_made_here(store):
            out.print(f"the evidence store {opts.store} is yours already", markup=False)
            return ExitCode.OK
        store.adopt()
        if not store_made_here(store):
            raise InputError("no private config directory (XDG_CONFIG_HOME) to record it in")
    out.print(f"the evidence store {opts.store} is yours now", markup=False)
    return ExitCode.OK
