"""The command that reads the docs' own history: blame."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any

import typer

from claimledger.cli.app import Options, command, now, options, read_latest, writable_store
from claimledger.cli.options import AllowPrivate, AsJson, ClaimId, Maps, fetch_settings
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:
    from claimledger.ledger.model import Ledger, Source
    from claimledger.reading.editlinks import SourceFile
    from claimledger.reading.provenance import FileGone
    from claimledger.records import Commit, QuoteHistory


@dataclass(frozen=True)
class Where:
    """A source's page, as a file of a repository, and how that was learnt."""

    repo: str
    path: str
    ref: str
    said_by: str


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
    opts = options(ctx)
    ledger = opts.load()
    claim = ledger.claim(claim_id)
    if (repo is None) != (path is None):
        raise InputError("--repo and --path go together")
    numbers = _quote_numbers(len(claim.quotes), quote_number)
    currents = _current_wordings(opts, ledger, claim_id)
    rows, histories = [], []
    for number in numbers:
        quote = claim.quotes[number - 1]
        for source_id in quote.sources:
            source = ledger.source(source_id)
            given = Where(repo, path, "HEAD", "--repo and --path") if repo and path else None
            where = given or _where(opts, ledger, source, maps, allow_private)
            row, found = _blamed(claim_id, number, source, quote.text, where, currents)
            rows.append(row)
            histories += [found] if found is not None else []
    with writable_store(opts) as store:  # evidence: shown by diff and the report from now on
        for history in histories:
            store.record_quote_history(history)
    if as_json:
        print_json({"claim_id": claim_id, "quotes": rows})
    else:
        for row in rows:
            out.print(_line(row), markup=False)
    return ExitCode.OK


def _quote_numbers(count: int, wanted: int | None) -> list[int]:
    if count == 0:
        raise InputError("the claim has no quote: nothing to look for in the docs' history")
    if wanted is None:
        return list(range(1, count + 1))
    if not 1 <= wanted <= count:
        raise InputError(f"--quote {wanted}: the claim has quotes 1 to {count}")
    return [wanted]


def _current_wordings(opts: Options, ledger: Ledger, claim_id: str) -> dict[tuple[int, str], str]:
    """The page's own wording of each quote that drifted, by (quote number, source)."""
    from claimledger.services import latest

    return {
        (check.quote_index + 1, check.source_id): check.current
        for check in read_latest(opts, latest.checks, ledger)
        if check.claim_id == claim_id and check.current and check.status == "drifted"
    }


def _where(
    opts: Options, ledger: Ledger, source: Source, maps: list[str] | None, allow_private: bool
) -> Where | None:
    """The ledger's `repo` and `path` for the source, else the page's edit link. A
    repository the ledger (a checkout's file) or the page names is cloned only from a
    public https address."""
    from claimledger.services.history import local_repository
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

    given = FetchOptions(pages=(source.url,), maps=tuple(maps or ()), allow_private=allow_private)
    policy, url_map, _ = fetch_settings(opts, given, ledger)
    page = read_pages_once([source.url], policy, url_map)[source.url]
    body = page.fetch.text
    named: SourceFile | None = source_file_of(body, source.url) if body else None
    if named is None:
        return None
    return Where(named.repo, named.path, named.ref, "the page's edit link")


def _blamed(
    claim_id: str,
    number: int,
    source: Source,
    quote: str,
    where: Where | None,
    currents: dict[tuple[int, str], str],
) -> tuple[dict[str, Any], QuoteHistory | None]:
    """The quote's history as `blame --json` shows it, and as the store keeps it."""
    from claimledger.services.history import file_gone, quote_history

    source_id, url = source.id, source.url
    row: dict[str, Any] = {"claim_id": claim_id, "quote": number, "source_id": source_id}
    if where is None:
        return {**row, "repo": None, "path": None, "found": None}, None
    current = currents.get((number, source_id))
    found = quote_history(
        claim_id, quote, source_id, repo=where.repo, path=where.path, ref=where.ref,
        current=current, now=now(),
    )  # fmt: skip
    shown = {
        **row,
        "repo": where.repo,
        "path": where.path,
        "named_by": where.said_by,
        "versions_read": found.versions,
        "current": current,
        "found": {
            "last_held_in": _commit_json(found.held),
            "dropped_in": _commit_json(found.dropped),
            "current_wording_since": _commit_json(found.current_since),
        },
        "file_gone": _gone_json(file_gone(where.repo, where.path, where.ref), url),
    }
    return shown, found


def _gone_json(gone: FileGone | None, url: str) -> dict[str, Any] | None:
    """The file's fate when it is no longer in the repository: the commit, and where a
    rename most likely took its page (a move to propose: `claimledger move`)."""
    from claimledger.reading.provenance import page_after_rename

    if gone is None:
        return None
    renamed = gone.renamed_to
    page = page_after_rename(url, gone.commit.path, renamed) if renamed else None
    return {"in": _commit_json(gone.commit), "renamed_to": renamed, "page_now": page}


def _commit_json(commit: Commit | None) -> dict[str, Any] | None:
    if commit is None:
        return None
    return {
        "sha": commit.sha,
        "date": commit.date,
        "author": commit.author,
        "subject": commit.subject,
        "pull_request": commit.pull_request,
        "path": commit.path,
    }


def _line(row: dict[str, Any]) -> str:
    head = f"{row['claim_id']} #{row['quote']} on {row['source_id']}"
    found = row["found"]
    if found is None:
        return f"{head}: no repository known (give it: claimledger source ID --repo --path)"
    parts = [f"{head} ({row['path']} in {row['repo']}, {row['versions_read']} versions read)"]
    held, dropped, since = (found[k] for k in found)
    if held is None:
        parts.append("  its words are in no version of the file")
    else:
        parts.append(f"  last held in {_commit_line(held)}")
        parts.append(
            f"  reworded or dropped in {_commit_line(dropped)}"
            if dropped
            else "  still held by the newest version"
        )
    if since is not None:
        parts.append(f"  the current wording since {_commit_line(since)}")
    gone = row["file_gone"]
    if gone is not None and gone["renamed_to"]:
        parts.append(f"  its file became {gone['renamed_to']} in {_commit_line(gone['in'])}")
        if gone["page_now"]:
            move = f"claimledger move {row['source_id']} {gone['page_now']}"
            parts.append(f"  its page is likely {gone['page_now']} (`{move}`)")
    elif gone is not None:
        parts.append(f"  its file was deleted in {_commit_line(gone['in'])}")
    return "\n".join(parts)


def _commit_line(commit: dict[str, Any]) -> str:
    return f"{commit['sha'][:7]} on {commit['date']} by {commit['author']}: {commit['subject']}"
