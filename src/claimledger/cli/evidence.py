"""Commands that gather and show evidence: verify, refresh, status, diff, history, snapshot."""

from __future__ import annotations

import dataclasses
import functools
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import (
    command,
    existing_store,
    found_if,
    no_evidence_note,
    now,
    options,
    read_latest,
    say_if_the_checkouts,
    writable_store,
)
from claimledger.cli.completion import complete_sources, one_of
from claimledger.cli.options import (
    PAGE_OPTIONS,
    Archive,
    ArchiveWindow,
    AsJson,
    ClaimId,
    ClaimIds,
    NoAsRead,
    NoHistory,
    Recover,
    RecoverCandidates,
    Save,
    fetch_options,
    fetch_settings,
    page_settings,
)
from claimledger.errors import ExitCode, InputError
from claimledger.terminal.output import err, out, print_json, print_text

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Claim
    from claimledger.records import CheckRecord


@command("verify")
@fetch_options(*PAGE_OPTIONS, "deadline", "ignore_robots")
def verify_command(
    ctx: typer.Context,
    url: Annotated[str, typer.Argument(help="The page, http(s) only.")],
    quote: Annotated[str, typer.Argument(help="The exact words to look for.")],
    select: Annotated[
        str | None,
        typer.Option("--select", metavar="SELECTOR", help="CSS selector of the content region."),
    ] = None,
    as_json: AsJson = False,
    *,
    fetching: FetchOptions,
) -> ExitCode:
    """One-off: is QUOTE on the page at URL? Status, similarity, the page's own wording.

    Exit 0 when verified, 1 otherwise, 2 on bad input.

    Example: claimledger verify https://www.rfc-editor.org/rfc/rfc2119.txt "absolute requirement"
    """
    from claimledger.evidence.pageread import check_page
    from claimledger.evidence.refresh import pdf_page_of
    from claimledger.evidence.service import read_pages_once
    from claimledger.reading.selectors import selector_problem
    from claimledger.terminal.lines import verification_lines, verification_payload
    from claimledger.urls import lower_scheme_and_host, web_url_problem

    if not quote.strip():
        raise InputError("QUOTE is empty")
    if (problem := web_url_problem(url)) is not None:
        raise InputError(f"{url!r} {problem}")
    url = lower_scheme_and_host(url)
    if select is not None and (problem := selector_problem(select)) is not None:
        raise InputError(f"--{problem}")
    given = dataclasses.replace(fetching, pages=(url,))
    policy, url_map = page_settings(options(ctx), given, None, option="")
    page = read_pages_once([url], policy, url_map, select)[url]
    found = check_page(quote, page)
    payload = verification_payload(page.fetch, found, pdf_page_of(page, found))
    if as_json:
        print_json(payload)
    else:
        for line in verification_lines(payload):
            out.print(line, markup=False)
    return found_if(payload["status"] != "verified")


REFRESH_FORMATS = ("text", "json", "github", "junit")

RefreshFormat = Annotated[
    str,
    typer.Option(
        "--format",
        "-f",
        metavar="FORMAT",
        autocompletion=one_of(REFRESH_FORMATS),
        help="text, json, github (workflow annotations on the ledger's lines) or junit "
        "(JUnit XML, a test case per quote check). --json is --format json.",
    ),
]


@command("refresh")
@fetch_options(*PAGE_OPTIONS, "deadline", "concurrency", "per_host", "interval", "ignore_robots")
def refresh_command(
    ctx: typer.Context,
    claim_ids: ClaimIds = None,
    as_json: AsJson = False,
    fmt: RefreshFormat = "text",
    save: Save = False,
    recover: Recover = True,
    recover_candidates: RecoverCandidates = None,
    archive: Archive = None,
    no_as_read: NoAsRead = False,
    archive_window: ArchiveWindow = None,
    no_history: NoHistory = False,
    *,
    fetching: FetchOptions,
) -> ExitCode:
    """Fetch every source once, find every quote on it, and record the evidence.

    Exit 0 when every quote is verified on every source, 1 otherwise (a source that
    moved, or answered a status it does not list in its accept_status, counts too),
    whatever the --format: github prints an annotation per quote that needs a look,
    junit a test case per quote check.

    Example: claimledger refresh input-gate output-gate
    """
    from claimledger.evidence.history import refuse_untrusted_repositories
    from claimledger.evidence.refresh import plan
    from claimledger.evidence.service import RefreshPlan, afterwards, refresh_ledger
    from claimledger.terminal.asread import archived_lines
    from claimledger.terminal.refresh import print_refresh, progress, say

    chosen = _refresh_format(fmt, as_json)
    opts = options(ctx)
    ledger = opts.load()
    jobs = plan(ledger, claim_ids or ())
    given = dataclasses.replace(fetching, pages=tuple(job.url for job in jobs))
    policy, url_map, honoured = fetch_settings(opts, given, ledger)
    steps = afterwards(
        honoured.config,
        recover=recover,
        candidates=recover_candidates,
        save=save,
        archive=archive,
        as_read=not no_as_read,
        window=archive_window,
        history=not no_history,
    )
    if steps.history is not None:
        sources = (job.source_id for job in jobs)
        refuse_untrusted_repositories(ledger, opts.ledger, sources, honoured.trusted)
    work = RefreshPlan(ledger, opts.ledger, jobs, policy, url_map, steps)
    pages = [url for url, _ in dict.fromkeys((job.url, job.select) for job in jobs)]
    with writable_store(opts) as store:
        with progress(pages, quiet=chosen in ("json", "junit")) as tick:
            done = refresh_ledger(work, store, now=now, on_page=tick)
        say(archived_lines(done))
        checks = functools.partial(store.run_checks, done.run_id)
        return found_if(print_refresh(chosen, opts.store, work, done, checks))


def _refresh_format(fmt: str, as_json: bool) -> str:
    """The output `refresh` prints: --format's, or json for --json (which is its shorthand)."""
    if fmt not in REFRESH_FORMATS:
        raise InputError(f"--format {fmt!r}: use one of {', '.join(REFRESH_FORMATS)}")
    if as_json and fmt not in ("text", "json"):
        raise InputError(f"--json is --format json: it cannot go with --format {fmt}")
    return "json" if as_json else fmt


@command("status")
def status_command(ctx: typer.Context, as_json: AsJson = False) -> ExitCode:
    """What the latest evidence says, per claim, per source and per artifact.

    Exit 1 when any quote is not verified, any source failed or an artifact could not run
    or printed other than it should.
    """
    from claimledger.ledger.located import collector_paused
    from claimledger.services.latest import standing
    from claimledger.terminal.status import print_status

    opts = options(ctx)
    with collector_paused():  # what is read stays till the end: no collection walks it
        ledger = opts.load()
        read = functools.partial(standing, path=opts.ledger)
        latest = read_latest(opts, read, ledger, say_whose=False)  # it says so itself
        return found_if(print_status(ledger, latest, opts.store, as_json=as_json))


@command("diff")
def diff_command(
    ctx: typer.Context, claim_ids: ClaimIds = None, as_json: AsJson = False
) -> ExitCode:
    """Each drifted or missing quote against the page's current wording, word by word.

    Words that carry meaning (negations, modals, numbers, quantifiers, consistency
    terms) are marked with '!'; other content words put in, taken out or replaced with
    '?' (the meaning may have changed). Beside each, the wording on the web archive's copy
    nearest the reading day, when one was read; and each quote misquoted at reading time,
    though its page carries it now. A quote whose page is gone counts as missing, and is
    shown. Exit 1 when anything differs.
    """
    from claimledger.services.latest import quotes_of
    from claimledger.terminal.status import print_diff

    opts = options(ctx)
    ledger = opts.load()
    chosen = [ledger.claim(claim_id).id for claim_id in claim_ids or ledger.claim_ids]
    found = read_latest(opts, lambda store, whole: quotes_of(store, whole, chosen), ledger)
    differs = print_diff(
        found.checks, found.read_then, found.histories, opts.store, as_json=as_json
    )
    return found_if(differs)


@command("history")
def history_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    as_json: AsJson = False,
) -> ExitCode:
    """Every check of a claim's quotes over time, and its grade history."""
    from claimledger.terminal.lines import to_json
    from claimledger.terminal.views import checks_table

    opts = options(ctx)
    claim = opts.load().claim(claim_id)
    with existing_store(opts) as store:
        say_if_the_checkouts(store)
        checks = (
            [_numbered_now(claim, c) for c in store.checks_for_claim(claim_id)] if store else []
        )
    removed = {check.quote_text for check in checks if claim.place_now(check.quote_text) is None}
    if as_json:
        rows = to_json(checks)
        for row in rows:
            if row["quote_text"] in removed:
                row["quote_removed"] = True
        print_json({"claim_id": claim.id, "checks": rows, "grades": to_json(claim.history)})
        return ExitCode.OK
    if checks:
        out.print(checks_table(checks, f"Checks of {claim_id}'s quotes", removed=removed))
    else:
        no_evidence_note(opts)
    for entry in claim.history:
        out.print(entry.describe(), markup=False)
    return ExitCode.OK


def _numbered_now(claim: Claim, check: CheckRecord) -> CheckRecord:
    """A check numbered as its quote is now (`Claim.place_now`), not as it was when the
    check was made: `#2` is the claim's quote 2, as `--quote 2` takes it, after a quote
    before it was removed. A removed quote's check keeps its number then."""
    place = claim.place_now(check.quote_text)
    return check if place is None else dataclasses.replace(check, quote_index=place)


@command("snapshot")
def snapshot_command(
    ctx: typer.Context,
    source: Annotated[
        str,
        typer.Argument(
            metavar="SOURCE",
            help="A source of the ledger, by its id (or its URL).",
            autocompletion=complete_sources,
        ),
    ],
    at: Annotated[
        str | None,
        typer.Option("--at", help="A date (YYYY-MM-DD) or time (ISO 8601); default: latest."),
    ] = None,
) -> ExitCode:
    """Print the text we extracted from a source's page, as it was at a date.

    Example: claimledger snapshot do-glossary --at 2026-08-23
    """
    from claimledger.services.latest import moment_of, page_at
    from claimledger.terminal.lines import no_evidence_line
    from claimledger.urls import is_web_url, lower_scheme_and_host, shown

    opts = options(ctx)
    if is_web_url(source):
        url = lower_scheme_and_host(source)
    else:
        ledger = opts.load()
        if source not in ledger.sources:
            raise InputError(f"no source {source!r} in {opts.ledger} (give its id or its URL)")
        url = ledger.sources[source].url
    moment = moment_of(at) if at else None
    with existing_store(opts) as store:
        if store is None:
            raise InputError(no_evidence_line(opts.store))
        say_if_the_checkouts(store)
        taken, text = page_at(store, url, moment, at)
    err.print(f"snapshot of {shown(url)} taken {taken.isoformat()}", markup=False)
    print_text(text)
    return ExitCode.OK
