"""The command that reads the docs' own history: blame."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options, command, now, options, writable_store
from claimledger.cli.options import AllowPrivate, AsJson, ClaimId, Maps, fetch_settings
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.editlinks import SourceFile
    from claimledger.services.history import Where


@command("blame")
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
    maps: Maps = None,
    allow_private: AllowPrivate = False,
) -> ExitCode:
    """When and in which commit the docs changed a quote's words, from the git history of
    the page's source file.

    The file is the source's `repo` and `path` (`claimledger source ID --repo URL --path
    PATH`), else what the page's "Edit this page" link names. The clone is kept in your
    cache directory. For each quote: the last commit that held its words, the commit that
    dropped them, and the first that held the page's current wording.

    Example: claimledger blame sync-sqlite --quote 1
    """
    from claimledger.services.history import Where, blame_claim
    from claimledger.terminal.provenance import blame_lines

    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    if (repo is None) != (path is None):
        raise InputError("--repo and --path go together")
    numbers = _quote_numbers(len(claim.quotes), quote_number)
    given = Where(repo, path, "HEAD", "--repo and --path") if repo and path else None

    def where_of(source: Source) -> Where | None:
        return given or _where(opts, ledger, source, maps, allow_private)

    with writable_store(opts) as store:  # evidence: shown by diff and the report from now on
        rows = blame_claim(ledger, claim_id, numbers, where_of, store, now)
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


def _where(
    opts: Options, ledger: Ledger, source: Source, maps: list[str] | None, allow_private: bool
) -> Where | None:
    """The ledger's `repo` and `path` for the source, else the page's edit link. A
    repository the ledger (a checkout's file) or the page names is cloned only from a
    public https address."""
    from claimledger.services.history import Where, local_repository
    from claimledger.urls import names_local_repository, names_public_site

    if source.repo and source.path and names_local_repository(source.repo):
        folder = local_repository(opts.ledger, ledger, source.id, err.print)
        return Where(folder, source.path, "HEAD", "the ledger")
    if source.repo and source.path:
        found: Where | None = Where(source.repo, source.path, "HEAD", "the ledger")
    else:
        found = _from_edit_link(opts, ledger, source, maps, allow_private)
    if found is not None and not (
        found.repo.startswith("https://") and names_public_site(found.repo)
    ):
        raise InputError(
            f"{found.said_by} names {found.repo!r}, not a public https address: give "
            "the repository with --repo and --path to read it"
        )
    return found


def _from_edit_link(
    opts: Options, ledger: Ledger, source: Source, maps: list[str] | None, allow_private: bool
) -> Where | None:
    from claimledger.evidence.service import read_pages_once
    from claimledger.ledger.config import FetchOptions
    from claimledger.reading.editlinks import source_file_of
    from claimledger.services.history import Where

    given = FetchOptions(pages=(source.url,), maps=tuple(maps or ()), allow_private=allow_private)
    policy, url_map, _ = fetch_settings(opts, given, ledger)
    page = read_pages_once([source.url], policy, url_map)[source.url]
    body = page.fetch.text
    named: SourceFile | None = source_file_of(body, source.url) if body else None
    if named is None:
        return None
    return Where(named.repo, named.path, named.ref, "the page's edit link")
