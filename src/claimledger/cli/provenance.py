"""The command that reads the docs' own history: blame."""

from __future__ import annotations

import dataclasses
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import command, now, options, writable_store
from claimledger.cli.options import AsJson, ClaimId, fetch_options, fetch_settings, say
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import out, print_json

if TYPE_CHECKING:
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Source
    from claimledger.records import FetchPolicy
    from claimledger.services.history import Where
    from claimledger.urls import UrlMap


@command("blame")
@fetch_options("maps", "allow_private")
def blame_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    quote_number: Annotated[
        int | None,
        typer.Option("--quote", metavar="N", help="Only quote N (1 is the first)."),
    ] = None,
    repo: Annotated[
        str | None,
        typer.Option("--repo", metavar="URL", help="The repository the pages are built from."),
    ] = None,
    path: Annotated[
        str | None, typer.Option("--path", metavar="PATH", help="The page's file in --repo.")
    ] = None,
    as_json: AsJson = False,
    *,
    fetching: FetchOptions,
) -> ExitCode:
    """When and in which commit the docs changed a quote's words, from the git history of
    the page's source file.

    The file is the source's `repo` and `path` (`claimledger source ID --repo URL --path
    PATH`), else what the page's "Edit this page" link names. The clone is kept in your
    cache directory. For each quote: the last commit that held its words, the commit that
    dropped them, and the first that held the page's current wording.

    Example: claimledger blame sync-sqlite --quote 1
    """
    from claimledger.services.history import Where, blame_claim, where_of
    from claimledger.terminal.provenance import blame_lines

    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    if (repo is None) != (path is None):
        raise InputError("--repo and --path go together")
    numbers = _quote_numbers(len(claim.quotes), quote_number)
    given = Where(repo, path, "HEAD", "--repo and --path") if repo and path else None

    def settings_for(source: Source) -> tuple[FetchPolicy, UrlMap]:
        return fetch_settings(opts, dataclasses.replace(fetching, pages=(source.url,)), ledger)[:2]

    def where(source: Source) -> Where | None:
        return given or where_of(opts.ledger, ledger, source, settings_for, say)

    with writable_store(opts) as store:  # evidence: shown by diff and the report from now on
        rows = blame_claim(ledger, claim_id, numbers, where, store, now)
    if as_json:
        print_json({"claim_id": claim_id, "quotes": rows})
    else:
        for line in blame_lines(rows):
            out.print(line, markup=False)
    return ExitCode.OK


def _quote_numbers(count: int, wanted: int | None) -> list[int]:
    if count == 0:
        raise InputError("the claim has no quote: nothing to look for in the docs' history")
    if wanted is None:
        return list(range(1, count + 1))
    if not 1 <= wanted <= count:
        raise InputError(f"--quote {wanted}: the claim has quotes 1 to {count}")
    return [wanted]
