"""Commands that gather and show evidence: verify, refresh, status, diff, history, snapshot."""

from __future__ import annotations

import contextlib
import datetime as dt
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import (
    Options,
    command,
    err,
    existing_store,
    found_if,
    latest_artifact_runs,
    latest_checks,
    latest_fetches,
    no_evidence_note,
    now,
    options,
    out,
    print_json,
    run_async,
)
from claimledger.cli.options import (
    AllowPrivate,
    AsJson,
    ClaimId,
    ClaimIds,
    Concurrency,
    Deadline,
    Headers,
    IgnoreRobots,
    Interval,
    Maps,
    PerHost,
    Timeout,
    UserAgent,
    fetch_settings,
    with_private_sources,
)
from claimledger.errors import ExitCode, InputError

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.records import FetchPolicy
    from claimledger.refresh import Page, QuoteJob, Reading
    from claimledger.store import EvidenceStore
    from claimledger.urls import UrlMap


@command("verify")
def verify_command(
    ctx: typer.Context,
    url: Annotated[str, typer.Argument(help="The page, http(s) only.")],
    quote: Annotated[str, typer.Argument(help="The exact words to look for.")],
    select: Annotated[
        str | None, typer.Option("--select", help="CSS selector of the content region.")
    ] = None,
    as_json: AsJson = False,
    maps: Maps = None,
    timeout: Timeout = None,
    deadline: Deadline = None,
    user_agent: UserAgent = None,
    headers: Headers = None,
    ignore_robots: IgnoreRobots = False,
    allow_private: AllowPrivate = False,
) -> ExitCode:
    """One-off: is QUOTE on the page at URL? Status, similarity, the page's own wording.

    Exit 0 when verified, 1 otherwise, 2 on bad input.

    Example: claimledger verify https://www.rfc-editor.org/rfc/rfc2119.txt "absolute requirement"
    """
    from claimledger.cli.views import verification_lines, verification_payload
    from claimledger.config import FetchOptions
    from claimledger.refresh import check_page
    from claimledger.urls import is_web_url

    if not quote.strip():
        raise InputError("QUOTE is empty")
    if not is_web_url(url):
        raise InputError(f"{url!r} is not an http(s) URL with a host")
    given = FetchOptions(
        timeout=timeout,
        deadline=deadline,
        user_agent=user_agent,
        headers=tuple(headers or ()),
        maps=tuple(maps or ()),
        ignore_robots=ignore_robots,
        allow_private=allow_private,
    )
    policy, url_map = fetch_settings(options(ctx), given)
    page = run_async(read_pages_once([url], policy, url_map, select))[url]
    payload = verification_payload(page.fetch, check_page(quote, page))
    if as_json:
        print_json(payload)
    else:
        for line in verification_lines(payload):
            out.print(line, markup=False)
    return found_if(payload["status"] != "verified")


async def read_pages_once(
    urls: Sequence[str], policy: FetchPolicy, url_map: UrlMap, select: str | None = None
) -> dict[str, Page]:
    """Fetch and read pages outside a refresh (for `verify` and `add`), nothing recorded."""
    from claimledger.fetch import make_client
    from claimledger.refresh import read_pages

    async with make_client(policy) as client:
        return await read_pages(urls, client=client, policy=policy, url_map=url_map, select=select)


@command("refresh")
def refresh_command(
    ctx: typer.Context,
    claim_ids: ClaimIds = None,
    as_json: AsJson = False,
    maps: Maps = None,
    timeout: Timeout = None,
    deadline: Deadline = None,
    concurrency: Concurrency = None,
    per_host: PerHost = None,
    interval: Interval = None,
    user_agent: UserAgent = None,
    headers: Headers = None,
    ignore_robots: IgnoreRobots = False,
    allow_private: AllowPrivate = False,
) -> ExitCode:
    """Fetch every source once, find every quote on it, and record the evidence.

    Exit 0 when every quote is verified on every source, 1 otherwise (a source that
    moved, or answered a status it does not list in its accept_status, counts too).

    Example: claimledger refresh input-gate output-gate
    """
    from claimledger.cli.views import (
        claim_summary,
        fetch_json,
        needs_attention,
        source_notes,
        summary_table,
        to_json,
    )
    from claimledger.config import FetchOptions
    from claimledger.refresh import plan
    from claimledger.store import EvidenceStore
    from claimledger.urls import shown

    opts = options(ctx)
    ledger = opts.load()
    jobs = plan(ledger, claim_ids or ())
    given = FetchOptions(
        timeout=timeout,
        deadline=deadline,
        concurrency=concurrency,
        per_host=per_host,
        interval=interval,
        user_agent=user_agent,
        headers=tuple(headers or ()),
        maps=tuple(maps or ()),
        ignore_robots=ignore_robots,
        allow_private=allow_private,
    )
    policy, url_map = fetch_settings(opts, given)
    policy = with_private_sources(ledger, policy, url_map)
    pages = {(job.url, job.select) for job in jobs}
    with (
        EvidenceStore.open(opts.store) as store,
        _progress(len(pages), quiet=as_json) as tick,
    ):
        run_id, readings = run_async(_record_refresh(opts, jobs, store, policy, url_map, tick))
    fetches = [reading.fetch for reading in readings]
    checks = [check for reading in readings for check in reading.checks]
    rows = claim_summary(ledger, checks)
    if as_json:
        print_json(
            {
                "run": run_id,
                "evidence": str(opts.store),
                "claims": rows,
                "sources": [fetch_json(fetch) for fetch in fetches],
                "checks": [{**to_json(c), "url": shown(c.url)} for c in checks],
            }
        )
    else:
        urls = {job.url for job in jobs}
        out.print(summary_table(rows, f"Refresh: {len(jobs)} quote checks on {len(urls)} sources"))
        for line in source_notes(ledger, fetches):
            out.print(line, markup=False)
    return found_if(needs_attention(ledger, checks, fetches))


async def _record_refresh(
    opts: Options,
    jobs: Sequence[QuoteJob],
    store: EvidenceStore,
    policy: FetchPolicy,
    url_map: UrlMap,
    tick: Callable[[str], None],
) -> tuple[int, list[Reading]]:
    """Run the refresh loop, recording each page (and its checks) in one commit as it is read.

    An interrupted run keeps every page it recorded; it stays unfinished in the store.
    """
    from claimledger.fetch import make_client
    from claimledger.refresh import refresh
    from claimledger.urls import shown

    run_id = store.begin_run(now(), str(opts.ledger))
    readings: list[Reading] = []
    async with make_client(policy) as client:
        loop = refresh(jobs, client=client, earlier=store, now=now, policy=policy, url_map=url_map)
        async for reading in loop:
            store.record_page(
                run_id,
                reading.fetch,
                snapshot_hash=reading.snapshot_hash,
                new_snapshot=reading.new_snapshot,
                recipe=reading.recipe,
                checks=reading.checks,
                now=now(),
            )
            readings.append(replace(reading, new_snapshot=None))  # recorded: keep no text
            tick(f"{reading.fetch.source_status:<11} {shown(reading.fetch.url)}")
    store.finish_run(run_id, now())
    return run_id, readings


@contextlib.contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Callable[[str], None]]:
    """A progress bar on a terminal, a plain line per source otherwise (on stderr)."""
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    if quiet:
        yield lambda line: None
        return
    if not err.is_terminal:
        yield lambda line: err.print(line, markup=False)
        return
    with Progress(
        TextColumn("fetching"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    ) as progress:
        task = progress.add_task("fetch", total=total)
        yield lambda line: progress.advance(task)


@command("status")
def status_command(ctx: typer.Context, as_json: AsJson = False) -> ExitCode:
    """What the latest evidence says, per claim, per source and per artifact.

    Exit 1 when any quote is not verified, any source failed or an artifact could not run.
    """
    from claimledger.cli.views import (
        artifact_run_line,
        claim_summary,
        evidence_gaps,
        fetch_json,
        is_accepted,
        needs_attention,
        pages_table,
        summary_table,
        to_json,
        unchecked_claims,
    )

    opts = options(ctx)
    ledger = opts.load()
    checks = latest_checks(opts, ledger)
    fetches, last = latest_fetches(opts, ledger)
    rows = claim_summary(ledger, checks)
    unchecked = unchecked_claims(ledger, checks)
    incomplete = last is not None and last.finished_at is None
    runs = latest_artifact_runs(opts, ledger)
    if as_json:
        print_json(
            {
                "last_refresh": to_json(last.started_at) if last else None,
                "last_refresh_finished": None if last is None else not incomplete,
                "unchecked_claims": unchecked,
                "claims": rows,
                "sources": [fetch_json(f) for f in sorted(fetches.values(), key=lambda f: f.url)],
                "artifact_runs": to_json(list(runs.values())),
            }
        )
    elif not checks:
        no_evidence_note(opts)
    else:
        when = last.started_at.strftime("%Y-%m-%d %H:%M UTC") if last else "never"
        out.print(summary_table(rows, f"Evidence (last refresh {when})"))
        out.print(pages_table(ledger, fetches.values()))
    if not as_json:
        for claim_id, run in runs.items():
            out.print(f"artifact of {claim_id}: {artifact_run_line(run)}", markup=False)
    for line in () if as_json else evidence_gaps(last, unchecked if checks else []):
        err.print(line, markup=False)
    failing = any(f.source_status != "ok" and not is_accepted(ledger, f) for f in fetches.values())
    failing = failing or any(not run.ran for run in runs.values())
    attention = needs_attention(ledger, checks, fetches.values()) or failing
    return found_if(attention or incomplete or bool(checks and unchecked))


@command("diff")
def diff_command(
    ctx: typer.Context, claim_ids: ClaimIds = None, as_json: AsJson = False
) -> ExitCode:
    """Each drifted or missing quote against the page's current wording, word by word.

    Words that carry meaning (negations, modals, numbers, quantifiers, consistency
    terms) are marked with '!'. Exit 1 when anything differs.
    """
    from claimledger.cli.views import diff_text, to_json

    opts = options(ctx)
    ledger = opts.load()
    chosen = set(claim_ids or ledger.claim_ids)
    for claim_id in chosen:
        ledger.claim(claim_id)
    checked = [c for c in latest_checks(opts, ledger) if c.claim_id in chosen]
    checks = [c for c in checked if c.status in ("drifted", "missing", "ambiguous")]
    if as_json:
        print_json(to_json(checks))
    elif not checked:
        no_evidence_note(opts)
    elif not checks:
        out.print("no drift: every checked quote reads as written", markup=False)
    else:
        for check in checks:
            out.print(diff_text(check))
    return found_if(bool(checks))


@command("history")
def history_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    as_json: AsJson = False,
) -> ExitCode:
    """Every check of a claim's quotes over time, and its grade history."""
    from claimledger.cli.views import checks_table, to_json

    opts = options(ctx)
    claim = opts.load().claim(claim_id)
    with existing_store(opts) as store:
        checks = store.checks_for_claim(claim_id) if store else []
    if as_json:
        print_json({"checks": to_json(checks), "grades": to_json(claim.history)})
        return ExitCode.OK
    if checks:
        out.print(checks_table(checks, f"Checks of {claim_id}'s quotes", with_time=True))
    else:
        no_evidence_note(opts)
    for entry in claim.history:
        out.print(entry.describe(), markup=False)
    return ExitCode.OK


@command("snapshot")
def snapshot_command(
    ctx: typer.Context,
    url: Annotated[str, typer.Argument(help="A source URL of the ledger.")],
    at: Annotated[
        str | None,
        typer.Option("--at", help="A date (YYYY-MM-DD) or time (ISO 8601); default: latest."),
    ] = None,
) -> ExitCode:
    """Print the text we extracted from a page, as it was at a date."""
    from claimledger.urls import shown

    opts = options(ctx)
    moment = _parse_moment(at) if at else None
    with existing_store(opts) as store:
        if store is None:
            raise InputError(f"no evidence yet in {opts.store}: run `claimledger refresh`")
        found = store.snapshot_at(url, moment)
    if found is None:
        raise InputError(f"no snapshot of {shown(url)}" + (f" at or before {at}" if at else ""))
    taken, text = found
    err.print(f"snapshot of {shown(url)} taken {taken.isoformat()}", markup=False)
    out.print(text, markup=False)
    return ExitCode.OK


def _parse_moment(value: str) -> dt.datetime:
    try:
        if len(value) == 10:
            day = dt.date.fromisoformat(value)
            return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise InputError(f"--at {value!r}: expected YYYY-MM-DD or an ISO 8601 time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)
