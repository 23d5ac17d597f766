"""The `claimledger` command line: parse, call, print, and map errors to exit codes.

Exit codes: 0 ok; 1 the run worked and found something (drift, pending proposals,
unreachable sources); 2 bad input or usage; 70 an internal error (one line, the
traceback with --debug); 130 interrupted. `_exit_codes` is the one place that maps
exceptions to them.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime as dt
import functools
import json
import shutil
import sqlite3
import sys
import time
import traceback
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Annotated, Any, NoReturn, ParamSpec, TypeVar, cast

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from claimledger import __version__, ledgerfile
from claimledger.accept import accept_plan
from claimledger.artifact import run_artifact
from claimledger.atomicfile import replace_atomically
from claimledger.config import FetchOptions, fetch_policy, read_config, url_map
from claimledger.demo import demo_data, demo_url_map, prepare_demo_directory, serve_pages
from claimledger.errors import ClaimledgerError, InputError, LedgerError
from claimledger.evidence import CheckRecord, EvidenceStore
from claimledger.fetch import (
    DEFAULT_POLICY,
    FetchPolicy,
    FetchResult,
    make_client,
)
from claimledger.grade import ArtifactOutcome, Regrade, current_checks, regrade
from claimledger.ledger import CLAIM_ID, CLAIM_KINDS, Grade, Ledger, ledger_schema, load, parse
from claimledger.match import Match
from claimledger.refresh import (
    Page,
    QuoteJob,
    RefreshResult,
    check_page,
    page_title,
    plan,
    read_pages,
    refresh,
)
from claimledger.render import Format, build_report, make_environment, render, report_state
from claimledger.urlmap import UrlMap
from claimledger.urls import is_web_url, shown
from claimledger.views import (
    checks_table,
    claim_summary,
    diff_text,
    evidence_line,
    fetch_json,
    is_accepted,
    needs_attention,
    notices_table,
    pages_table,
    proposals_table,
    source_notes,
    summary_table,
    to_json,
)

EXIT_OK = 0
EXIT_FOUND = 1
EXIT_INPUT = 2
EXIT_INTERNAL = 70
EXIT_INTERRUPTED = 130

app = typer.Typer(
    name="claimledger",
    help="Keep a teardown's quoted evidence alive: refresh quotes from docs, "
    "regrade claims, render the report.",
    epilog="First time: claimledger demo (offline), or claimledger init. The loop: "
    "claimledger refresh, then regrade --write, then render. Exit codes: 0 ok, 1 found "
    "drift or pending changes, 2 bad input, 70 internal error, 130 interrupted.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
    rich_markup_mode=None,
    context_settings={"help_option_names": ["-h", "--help"]},
)

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)


@dataclass
class Settings:
    """What the global options say, for the command that runs after them."""

    ledger: Path = Path("claims.yaml")
    evidence: Path | None = None
    debug: bool = False

    @property
    def home(self) -> Path:
        """The ledger's directory: templates/ and out/ are relative to it."""
        return self.ledger.parent

    @property
    def store(self) -> Path:
        """The evidence store: --evidence, else out/evidence.sqlite3 beside the ledger."""
        return self.evidence or self.home / "out" / "evidence.sqlite3"


settings = Settings()


def _version(value: bool) -> None:
    if value:
        out.print(f"claimledger {__version__}", markup=False)
        raise typer.Exit()


@app.callback()
def global_options(
    ledger: Annotated[
        Path,
        typer.Option("--ledger", "-l", help="The claims ledger to work on.", show_default=True),
    ] = Path("claims.yaml"),
    evidence: Annotated[
        Path | None,
        typer.Option(
            "--evidence",
            help="The evidence store (default: out/evidence.sqlite3 beside the ledger).",
        ),
    ] = None,
    debug: Annotated[
        bool, typer.Option("--debug", help="Show the traceback of an internal error.")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version", callback=_version, is_eager=True, help="Print the version and exit."
        ),
    ] = False,
) -> None:
    """Keep a teardown's quoted evidence alive.

    Refresh quotes from the docs they came from, regrade the claims that rest on
    them, and render the teardown report.
    """
    settings.ledger = ledger
    settings.evidence = evidence
    settings.debug = debug


# --------------------------------------------------------------------------- errors

P = ParamSpec("P")
R = TypeVar("R")


@contextlib.contextmanager
def _exit_codes() -> Iterator[None]:
    """Turn whatever a command raises into one line on stderr and an exit code."""
    try:
        yield
    except typer.Exit:
        raise
    except LedgerError as error:
        for problem in error.problems:
            err.print(str(problem), markup=False)
        count = len(error.problems)
        noun = "problem" if count == 1 else "problems"
        err.print(f"claimledger: error: {count} {noun} in the ledger", markup=False)
        raise typer.Exit(error.exit_code) from None
    except ClaimledgerError as error:
        err.print(f"claimledger: error: {error}", markup=False)
        raise typer.Exit(error.exit_code) from None
    except sqlite3.DatabaseError as error:  # only the evidence store is a database
        if isinstance(error, sqlite3.OperationalError):  # a query of ours failed: a bug
            _internal_error(error)
        err.print(
            f"claimledger: error: the evidence store {settings.store} cannot be read ({error}): "
            "move it aside and refresh again",
            markup=False,
        )
        raise typer.Exit(EXIT_INPUT) from None
    except KeyboardInterrupt:
        err.print("claimledger: interrupted", markup=False)
        raise typer.Exit(EXIT_INTERRUPTED) from None
    except Exception as error:
        _internal_error(error)


def _internal_error(error: Exception) -> NoReturn:
    """A bug: one line, and the traceback with --debug."""
    if settings.debug:
        traceback.print_exception(error)
    where = "" if settings.debug else " (run with --debug for the traceback)"
    err.print(f"claimledger: internal error: {type(error).__name__}: {error}{where}", markup=False)
    raise typer.Exit(EXIT_INTERNAL) from None


def command(*names: str, **kwargs: Any) -> Callable[[Callable[P, R]], Callable[P, R]]:
    """Register a command whose errors go through `_exit_codes`."""

    def register(func: Callable[P, R]) -> Callable[P, R]:
        @functools.wraps(func)
        def run(*args: P.args, **kw: P.kwargs) -> R:
            with _exit_codes():
                return func(*args, **kw)

        app.command(*names, **kwargs)(run)
        return run

    return register


def _load() -> Ledger:
    return load(settings.ledger)


def _today() -> dt.date:
    return dt.date.today()


def _print_json(value: Any) -> None:
    """JSON goes straight to stdout: no console styling or wrapping may touch it."""
    sys.stdout.write(json.dumps(value, indent=2, ensure_ascii=False) + "\n")


# --------------------------------------------------------------------------- commands


@command("check")
def check_command(
    as_json: Annotated[bool, typer.Option("--json", help="Print the counts as JSON.")] = False,
) -> None:
    """Validate the ledger; print its counts of claims, facets and grades.

    Every problem is reported at once, as FILE:LINE:COL: message; exit 2 when there
    is any.
    """
    ledger = _load()
    counts = ledger.grade_counts()
    facets = sum(counts.values())
    if as_json:
        _print_json(
            {
                "ledger": str(settings.ledger),
                "claims": len(ledger.claims),
                "sources": len(ledger.sources),
                "facets": facets,
                "grades": {str(grade): n for grade, n in counts.items()},
            }
        )
        return
    grades = ", ".join(f"{n} {grade}" for grade, n in counts.items())
    out.print(
        f"{settings.ledger}: ok: {len(ledger.claims)} claims, {len(ledger.sources)} sources, "
        f"{facets} facets ({grades})",
        markup=False,
    )


@command("schema")
def schema_command() -> None:
    """Print the JSON Schema of the ledger (for editors: validation and completion)."""
    _print_json(ledger_schema())


@command("init")
def init_command(
    directory: Annotated[
        Path, typer.Argument(help="Where to create claims.yaml and templates/.")
    ] = Path(),
) -> None:
    """Scaffold a small valid claims.yaml, its JSON Schema and the default report templates.

    The ledger's first line points editors at ledger.schema.json beside it, for
    validation and completion. Refuses to overwrite anything that is already there.
    """
    ledger_path = directory / "claims.yaml"
    schema_path = directory / "ledger.schema.json"
    templates = directory / "templates"
    template_names = [t.name for t in _default_templates()]
    wanted = [ledger_path, schema_path, *(templates / name for name in template_names)]
    existing = [path for path in wanted if path.exists()]
    if existing:
        names = ", ".join(str(p) for p in existing)
        raise ClaimledgerError(f"{names}: already exists; init never overwrites")
    try:
        directory.mkdir(parents=True, exist_ok=True)
        scaffold = resources.files("claimledger").joinpath("data/init/claims.yaml")
        ledger_path.write_text(scaffold.read_text("utf-8"), encoding="utf-8")
        schema_path.write_text(json.dumps(ledger_schema(), indent=2) + "\n", encoding="utf-8")
        templates.mkdir(exist_ok=True)
        for template in _default_templates():
            with resources.as_file(template) as source:
                shutil.copyfile(source, templates / template.name)
    except OSError as error:  # a file where the directory should be, no permission, ...
        where = error.filename or directory
        raise ClaimledgerError(f"cannot create {where}: {error.strerror}") from None
    out.print(f"created {ledger_path}, {schema_path} and {templates}/", markup=False)
    out.print(f"next: claimledger --ledger {ledger_path} check", markup=False)


def _default_templates() -> list[Any]:
    folder = resources.files("claimledger").joinpath("data/templates")
    if not folder.is_dir():
        return []
    return sorted((t for t in folder.iterdir() if t.name.endswith(".j2")), key=lambda t: t.name)


@command("grade")
def grade_command(
    claim_id: Annotated[str, typer.Argument(metavar="CLAIM", help="The claim's id.")],
    grade: Annotated[
        Grade,
        typer.Argument(help="DEMONSTRATED, CLAIMED, SPECULATIVE or UNKNOWN.", case_sensitive=False),
    ],
    because: Annotated[
        str, typer.Option("--because", help="Why; recorded in the claim's history.")
    ],
    on: Annotated[
        str | None,
        typer.Option("--on", help="The facet to grade (default: the claim's first facet)."),
    ] = None,
) -> None:
    """Grade one facet of a claim by hand, recording who and why in its history.

    Example: claimledger grade input-gate UNKNOWN --on "holds at the crash boundary"
    --because "the runtime docs no longer say"
    """
    if not because.strip():
        raise ClaimledgerError("--because must say why")
    today = _today()

    def change(text: str, ledger: Ledger) -> str:
        return ledgerfile.set_grade(
            text, ledger, claim_id, on, grade, by="person", why=because, date=today
        )

    ledger = ledgerfile.update(settings.ledger, change)
    facet = ledger.claim(claim_id).facet(on)
    out.print(f"{claim_id}: {facet.on}: now {facet.grade}", markup=False)


# --------------------------------------------------------------------------- evidence


def _now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


@contextlib.contextmanager
def _existing_store() -> Iterator[EvidenceStore | None]:
    """The evidence store for reading, or None when no refresh has created it yet."""
    if not settings.store.exists():
        yield None
        return
    with EvidenceStore.open(settings.store) as store:
        yield store


def _latest_checks(ledger: Ledger) -> list[CheckRecord]:
    with _existing_store() as store:
        return current_checks(ledger, store.latest_checks() if store else [])


def _no_evidence_note() -> None:
    err.print(f"no evidence yet in {settings.store}: run `claimledger refresh`", markup=False)


Timeout = Annotated[
    float | None,
    typer.Option("--timeout", help="Seconds per request (default 20).", show_default=False),
]
Deadline = Annotated[
    float | None,
    typer.Option(
        "--deadline",
        help="Seconds for one URL in all: its redirects, retries and waits (default 30).",
        show_default=False,
    ),
]
Concurrency = Annotated[
    int | None, typer.Option("--concurrency", help="Requests at once, in all (default 16).")
]
PerHost = Annotated[
    int | None, typer.Option("--per-host", help="Requests at once to one host (default 4).")
]
Interval = Annotated[
    float | None,
    typer.Option("--interval", help="Seconds between request starts to one host (default 0.05)."),
]
Maps = Annotated[
    list[str] | None,
    typer.Option(
        "--map",
        metavar="PREFIX=REPLACEMENT",
        help="Fetch URLs starting with PREFIX from REPLACEMENT instead (a mirror, an archive, "
        "a local copy); evidence stays under the ledger's URL. Repeatable; adds to the "
        "`map` of claimledger.toml.",
    ),
]
UserAgent = Annotated[
    str | None, typer.Option("--user-agent", metavar="TEXT", help="The User-Agent to send.")
]
Headers = Annotated[
    list[str] | None,
    typer.Option("--header", metavar="'NAME: VALUE'", help="An extra request header. Repeatable."),
]
IgnoreRobots = Annotated[
    bool,
    typer.Option(
        "--ignore-robots",
        help="Fetch pages that robots.txt disallows for us (only for a site you may read so).",
    ),
]


def _fetch_options(
    *,
    timeout: float | None = None,
    deadline: float | None = None,
    concurrency: int | None = None,
    per_host: int | None = None,
    interval: float | None = None,
    user_agent: str | None = None,
    headers: list[str] | None = None,
    maps: list[str] | None = None,
    ignore_robots: bool = False,
) -> tuple[FetchPolicy, UrlMap]:
    """The run's policy and URL map: these options, then claimledger.toml beside the ledger."""
    config = read_config(settings.home)
    options = FetchOptions(
        timeout=timeout,
        deadline=deadline,
        concurrency=concurrency,
        per_host=per_host,
        interval=interval,
        user_agent=user_agent,
        headers=tuple(headers or ()),
        maps=tuple(maps or ()),
        ignore_robots=ignore_robots,
    )
    policy = fetch_policy(config, options, DEFAULT_POLICY)
    if not policy.respect_robots:
        where = "--ignore-robots" if ignore_robots else f"robots = false in {config.path}"
        err.print(
            f"claimledger: warning: robots.txt is not respected ({where}): read only sites "
            "whose owners allow it",
            markup=False,
        )
    return policy, url_map(config, options)


AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
ClaimIds = Annotated[
    list[str] | None, typer.Argument(metavar="CLAIM", help="Claims (default: all).")
]


@command("verify")
def verify_command(
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
) -> None:
    """One-off: is QUOTE on the page at URL? Status, similarity, the page's own wording.

    Exit 0 when verified, 1 otherwise, 2 on bad input.

    Example: claimledger verify https://www.rfc-editor.org/rfc/rfc2119.txt "absolute requirement"
    """
    if not quote.strip():
        raise InputError("QUOTE is empty")
    if not is_web_url(url):
        raise InputError(f"{url!r} is not an http(s) URL with a host")
    policy, url_map = _fetch_options(
        timeout=timeout,
        deadline=deadline,
        user_agent=user_agent,
        headers=headers,
        maps=maps,
        ignore_robots=ignore_robots,
    )
    page = asyncio.run(_read_pages([url], policy, url_map, select))[url]
    payload = verification_payload(page.fetch, check_page(quote, page))
    if as_json:
        _print_json(payload)
    else:
        _print_verification(payload)
    raise typer.Exit(EXIT_OK if payload["status"] == "verified" else EXIT_FOUND)


async def _read_pages(
    urls: list[str], policy: FetchPolicy, url_map: UrlMap, select: str | None = None
) -> dict[str, Page]:
    async with make_client(policy) as client:
        return await read_pages(urls, client=client, policy=policy, url_map=url_map, select=select)


def verification_payload(fetched: FetchResult, found: Match | None) -> dict[str, Any]:
    """The one JSON object `verify --json` prints."""
    return {
        "url": shown(fetched.url),
        "final_url": shown(fetched.final_url),
        "http_status": fetched.http_status,
        "source_status": fetched.source_status,
        "error": fetched.error,
        "status": found.status if found else None,
        "match": found.match if found else None,
        "similarity": round(found.similarity, 4) if found else None,
        "current": found.current if found else None,
        "meaning_changed": found.meaning_changed if found else False,
        "change_kinds": list(found.change_kinds) if found else [],
        "changed_words": [
            {
                "op": c.op,
                "quote": c.quote,
                "page": c.page,
                "meaningful": c.meaningful,
                "kind": c.kind,
            }
            for c in (found.changed_words if found else ())
        ],
        "closest": found.closest if found else None,
        "closest_kinds": list(found.closest_kinds) if found else [],
        "occurrences": found.occurrences if found else 0,
        "moved_to": shown(fetched.moved_to) if fetched.moved_to else None,
        "canonical": shown(fetched.canonical) if fetched.canonical else None,
        "context": (
            {"before": found.context.before, "after": found.context.after}
            if found and found.context
            else None
        ),
    }


def _print_verification(payload: dict[str, Any]) -> None:
    status = payload["status"] or f"not checked: source {payload['source_status']}"
    kind = f" ({payload['match']})" if payload["match"] else ""
    out.print(f"{status}{kind}  similarity {payload['similarity'] or 0:.2f}", markup=False)
    if payload["moved_to"]:
        out.print(f"the page moved to {payload['moved_to']}", markup=False)
    elif payload["final_url"] != payload["url"]:
        out.print(f"read from {payload['final_url']}", markup=False)
    if payload["canonical"]:
        out.print(f"the page names {payload['canonical']} as its canonical address", markup=False)
    if payload["error"]:
        out.print(f"error: {payload['error']}", markup=False)
    if payload["current"] and payload["status"] != "verified":
        out.print(f"the page says: {payload['current']}", markup=False)
    elif payload["closest"]:
        out.print(f"the page now says (closest passage): {payload['closest']}", markup=False)
        kinds = ", ".join(payload["closest_kinds"])
        out.print(
            f"it contradicts the quote: {kinds}" if kinds else "it does not contradict the quote",
            markup=False,
        )
    if payload["meaning_changed"]:
        words = "; ".join(
            f"{c['kind'] + ': ' if c['kind'] else ''}{c['quote'] or '-'} -> {c['page'] or '-'}"
            for c in payload["changed_words"]
            if c["meaningful"]
        )
        out.print(f"meaning changed: {words}", markup=False)
    if payload["occurrences"] > 1:
        out.print(f"occurs {payload['occurrences']} times on the page", markup=False)


@command("refresh")
def refresh_command(
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
) -> None:
    """Fetch every source once, find every quote on it, and record the evidence.

    Exit 0 when every quote is verified on every source, 1 otherwise (a source that
    moved, or answered a status it does not list in its accept_status, counts too).

    Example: claimledger refresh input-gate output-gate
    """
    ledger = _load()
    jobs = plan(ledger, claim_ids or ())
    policy, url_map = _fetch_options(
        timeout=timeout,
        deadline=deadline,
        concurrency=concurrency,
        per_host=per_host,
        interval=interval,
        user_agent=user_agent,
        headers=headers,
        maps=maps,
        ignore_robots=ignore_robots,
    )
    urls = {job.url for job in jobs}
    readings = {(job.url, job.select) for job in jobs}
    with (
        EvidenceStore.open(settings.store) as store,
        _progress(len(readings), quiet=as_json) as tick,
    ):
        result = asyncio.run(_refresh(jobs, store, policy, url_map, tick))
    fetches = [page.fetch for page in result.pages]
    rows = claim_summary(ledger, result.checks)
    if as_json:
        _print_json(
            {
                "run": result.run_id,
                "evidence": str(settings.store),
                "claims": rows,
                "sources": [fetch_json(fetch) for fetch in fetches],
                "checks": [{**to_json(c), "url": shown(c.url)} for c in result.checks],
            }
        )
    else:
        out.print(summary_table(rows, f"Refresh: {len(jobs)} quote checks on {len(urls)} sources"))
        for line in source_notes(ledger, fetches):
            out.print(line, markup=False)
    raise typer.Exit(EXIT_FOUND if needs_attention(ledger, result.checks, fetches) else EXIT_OK)


async def _refresh(
    jobs: list[QuoteJob],
    store: EvidenceStore,
    policy: FetchPolicy,
    url_map: UrlMap,
    tick: Callable[[str], None],
) -> RefreshResult:
    async with make_client(policy) as client:
        return await refresh(
            jobs,
            client=client,
            store=store,
            ledger_path=str(settings.ledger),
            now=_now,
            policy=policy,
            url_map=url_map,
            on_page=lambda page: tick(f"{page.fetch.source_status:<11} {shown(page.fetch.url)}"),
        )


@contextlib.contextmanager
def _progress(total: int, *, quiet: bool) -> Iterator[Callable[[str], None]]:
    """A progress bar on a terminal, a plain line per source otherwise (on stderr)."""
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
def status_command(as_json: AsJson = False) -> None:
    """What the latest evidence says, per claim and per source.

    Exit 1 when any quote is not verified or any source failed.
    """
    ledger = _load()
    checks = _latest_checks(ledger)
    with _existing_store() as store:
        fetches = store.latest_fetches() if store else {}
        last = store.last_run() if store else None
    urls = {source.url for source in ledger.sources.values()}
    fetches = {url: fetch for url, fetch in fetches.items() if url in urls}
    rows = claim_summary(ledger, checks)
    if as_json:
        _print_json(
            {
                "last_refresh": to_json(last.started_at) if last else None,
                "claims": rows,
                "sources": [fetch_json(f) for f in sorted(fetches.values(), key=lambda f: f.url)],
            }
        )
    elif not checks:
        _no_evidence_note()
    else:
        when = last.started_at.strftime("%Y-%m-%d %H:%M UTC") if last else "never"
        out.print(summary_table(rows, f"Evidence (last refresh {when})"))
        out.print(pages_table(ledger, fetches.values()))
    failing = any(f.source_status != "ok" and not is_accepted(ledger, f) for f in fetches.values())
    attention = needs_attention(ledger, checks, fetches.values()) or failing
    raise typer.Exit(EXIT_FOUND if attention else EXIT_OK)  # no evidence yet: nothing found


@command("diff")
def diff_command(claim_ids: ClaimIds = None, as_json: AsJson = False) -> None:
    """Each drifted or missing quote against the page's current wording, word by word.

    Words that carry meaning (negations, modals, numbers, quantifiers, consistency
    terms) are marked with '!'. Exit 1 when anything differs.
    """
    ledger = _load()
    chosen = set(claim_ids or ledger.claim_ids)
    for claim_id in chosen:
        ledger.claim(claim_id)
    checked = [c for c in _latest_checks(ledger) if c.claim_id in chosen]
    checks = [c for c in checked if c.status in ("drifted", "missing", "ambiguous")]
    if as_json:
        _print_json(to_json(checks))
    elif not checked:
        _no_evidence_note()
    elif not checks:
        out.print("no drift: every checked quote reads as written", markup=False)
    for check in checks if not as_json else ():
        out.print(diff_text(check))
    raise typer.Exit(EXIT_FOUND if checks else EXIT_OK)


@command("history")
def history_command(
    claim_id: Annotated[str, typer.Argument(metavar="CLAIM")], as_json: AsJson = False
) -> None:
    """Every check of a claim's quotes over time, and its grade history."""
    ledger = _load()
    claim = ledger.claim(claim_id)
    with _existing_store() as store:
        checks = store.checks_for_claim(claim_id) if store else []
    if as_json:
        _print_json({"checks": to_json(checks), "grades": to_json(claim.history)})
        return
    if checks:
        out.print(checks_table(checks, f"Checks of {claim_id}'s quotes", with_time=True))
    else:
        _no_evidence_note()
    for entry in claim.history:
        change = (
            f"{entry.on}: {entry.from_grade} -> {entry.to_grade}"
            if entry.to_grade
            else "quote reworded"
        )
        out.print(f"{entry.date} {change} by {entry.by}: {entry.why or ''}".rstrip(), markup=False)


@command("snapshot")
def snapshot_command(
    url: Annotated[str, typer.Argument(help="A source URL of the ledger.")],
    at: Annotated[
        str | None,
        typer.Option("--at", help="A date (YYYY-MM-DD) or time (ISO 8601); default: latest."),
    ] = None,
) -> None:
    """Print the text we extracted from a page, as it was at a date."""
    moment = _parse_moment(at) if at else None
    with _existing_store() as store:
        if store is None:
            raise InputError(f"no evidence yet in {settings.store}: run `claimledger refresh`")
        found = store.snapshot_at(url, moment)
    if found is None:
        raise InputError(f"no snapshot of {url}" + (f" at or before {at}" if at else ""))
    taken, text = found
    err.print(f"snapshot of {shown(url)} taken {taken.isoformat()}", markup=False)
    out.print(text, markup=False)


def _parse_moment(value: str) -> dt.datetime:
    try:
        if len(value) == 10:
            day = dt.date.fromisoformat(value)
            return dt.datetime.combine(day, dt.time.max, tzinfo=dt.UTC)
        moment = dt.datetime.fromisoformat(value)
    except ValueError:
        raise InputError(f"--at {value!r}: expected YYYY-MM-DD or an ISO 8601 time") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=dt.UTC)


# --------------------------------------------------------------------------- grades


@command("regrade")
def regrade_command(
    write: Annotated[
        bool, typer.Option("--write", help="Apply the proposals to the ledger.")
    ] = False,
    check: Annotated[
        bool, typer.Option("--check", help="Change nothing; exit 1 if anything is pending (CI).")
    ] = False,
    run_artifacts: Annotated[
        bool, typer.Option("--run-artifacts", help="Re-run artifact claims' commands first.")
    ] = False,
    as_json: AsJson = False,
) -> None:
    """Propose grade changes from the latest evidence, by named rules.

    Exit 1 when a proposal or a stale facet is pending (after --write: only what is
    left), 0 when nothing is.
    """
    if write and check:
        raise InputError("--write and --check exclude each other")
    ledger = _load()
    checks = _latest_checks(ledger)
    artifacts = _run_artifacts(ledger) if run_artifacts else {}
    result = regrade(ledger, checks, artifacts)
    if write and result.proposals:
        today = _today()

        def change(text: str, fresh: Ledger) -> str:
            again = regrade(fresh, checks, artifacts)  # applied to the file as it is now
            for p in again.proposals:
                text = ledgerfile.set_grade(
                    text,
                    parse(text),
                    p.claim_id,
                    p.on,
                    p.to_grade,
                    by=p.by,
                    why=p.why,
                    date=today,
                )
            return text

        written = ledgerfile.update(settings.ledger, change)
        applied = result
        result = regrade(written, checks, artifacts)
        err.print(
            f"applied {len(applied.proposals)} grade change(s) to {settings.ledger}", markup=False
        )
    if as_json:
        _print_json(
            {
                "has_evidence": result.has_evidence,
                "proposals": to_json(result.proposals),
                "stale": to_json(result.notices),
            }
        )
    else:
        _print_regrade(result)
    raise typer.Exit(EXIT_FOUND if result.pending else EXIT_OK)


def _print_regrade(result: Regrade) -> None:
    if not result.has_evidence:
        _no_evidence_note()
    if result.proposals:
        out.print(proposals_table(result))
    if result.notices:
        out.print(notices_table(result))
    if not result.pending:
        why = (
            "no evidence yet" if not result.has_evidence else "every grade agrees with its evidence"
        )
        out.print(f"nothing to propose: {why}", markup=False)


def _run_artifacts(ledger: Ledger) -> dict[str, ArtifactOutcome]:
    return {
        claim.id: run_artifact(claim.id, claim.artifact, settings.home)
        for claim in ledger.claims
        if claim.artifact is not None
    }


@command("explain")
def explain_command(
    claim_id: Annotated[str, typer.Argument(metavar="CLAIM")], as_json: AsJson = False
) -> None:
    """Why each facet of a claim has its grade: the rule, its verdict, the evidence."""
    ledger = _load()
    claim = ledger.claim(claim_id)
    result = regrade(ledger, _latest_checks(ledger))
    traces = [t for t in result.traces if t.claim_id == claim_id]
    if as_json:
        _print_json({"traces": to_json(traces), "history": to_json(claim.history)})
        return
    for facet in claim.grades:
        out.print(f"{claim.id} / {facet.on}: {facet.grade} (basis {facet.basis})", markup=False)
        if facet.why:
            out.print(f"  author: {facet.why}", markup=False)
        for trace in (t for t in traces if t.on == facet.on):
            out.print(f"  rule {trace.rule}: {trace.outcome}", markup=False)
            newest_first = sorted(
                trace.evidence,
                key=lambda e: e.when or dt.datetime.min.replace(tzinfo=dt.UTC),
                reverse=True,
            )
            for evidence in newest_first:
                out.print(f"    {evidence_line(evidence)}", markup=False)
        for entry in reversed([h for h in claim.history if h.on == facet.on]):
            change = f"{entry.from_grade} -> {entry.to_grade}"
            out.print(f"  {entry.date}: {change} by {entry.by}: {entry.why or ''}", markup=False)


@command("accept")
def accept_command(
    claim_ids: ClaimIds = None,
    all_drifted: Annotated[
        bool, typer.Option("--all-drifted", help="Every claim with a drifted quote.")
    ] = False,
    even_if_meaning_changed: Annotated[
        bool,
        typer.Option(
            "--even-if-meaning-changed",
            help="Also adopt wording whose change touched a meaning-carrying word.",
        ),
    ] = False,
) -> None:
    """Adopt the page's current wording for drifted quotes; the old one goes to history.

    A drift that changed meaning (a negation, a modal, a number...) is refused unless
    --even-if-meaning-changed: a reversed guarantee must be re-read, not rubber-stamped.
    """
    if not claim_ids and not all_drifted:
        raise InputError("name the claims to accept, or pass --all-drifted")
    ledger = _load()
    for claim_id in claim_ids or ():
        ledger.claim(claim_id)
    checks = _latest_checks(ledger)
    chosen = set(claim_ids or ledger.claim_ids)
    plan_ = accept_plan(ledger, checks, chosen, even_if_meaning_changed=even_if_meaning_changed)
    for refusal in plan_.refused:
        err.print(f"refused: {refusal}", markup=False)
    if plan_.adoptions:
        today = _today()

        def change(text: str, fresh: Ledger) -> str:
            for adoption in plan_.adoptions:
                text = ledgerfile.replace_quote(text, parse(text), adoption, date=today)
            return text

        ledgerfile.update(settings.ledger, change)
    for adoption in plan_.adoptions:
        out.print(
            f"accepted {adoption.claim_id} #{adoption.quote_index + 1}: {adoption.new}",
            markup=False,
        )
    if not plan_.adoptions and not plan_.refused:
        out.print("nothing to accept: no drifted quote among the chosen claims", markup=False)
    raise typer.Exit(EXIT_FOUND if plan_.refused else EXIT_OK)


@command("move")
def move_command(
    source_id: Annotated[str, typer.Argument(metavar="SOURCE", help="The source's id.")],
    new_url: Annotated[
        str | None,
        typer.Argument(
            metavar="NEW_URL", help="Its new address (default: where the last refresh found it)."
        ),
    ] = None,
    why: Annotated[
        str | None, typer.Option("--why", help="Recorded in the source's history.")
    ] = None,
) -> None:
    """Adopt a source's new address: the ledger's URL changes, the old one goes to history.

    Without NEW_URL, takes the address the last refresh was redirected to. The next
    refresh checks every quote of the source at its new address.

    Example: claimledger move agents-store-sync
    """
    ledger = _load()
    source = ledger.source(source_id)
    target = new_url or _where_it_moved(source.id, source.url)
    if not is_web_url(target):
        raise InputError(f"{target!r} is not an http(s) URL with a host")
    if target == source.url:
        raise InputError(f"source '{source_id}' is already at {shown(target)}")
    today = _today()
    reason = why or ("followed the redirect the last refresh found" if new_url is None else "moved")

    def change(text: str, fresh: Ledger) -> str:
        return ledgerfile.move_source(text, fresh, source_id, target, date=today, why=reason)

    ledgerfile.update(settings.ledger, change)
    out.print(f"moved {source_id}: {shown(source.url)} -> {shown(target)}", markup=False)
    out.print("next: claimledger refresh, to check its quotes there", markup=False)


def _where_it_moved(source_id: str, url: str) -> str:
    """The address the last refresh of `url` ended at, when that is a move."""
    with _existing_store() as store:
        fetch = (store.latest_fetches() if store else {}).get(url)
    if fetch is None:
        raise InputError(
            f"source '{source_id}' has not been fetched yet: run `claimledger refresh` or give "
            "NEW_URL"
        )
    if fetch.moved_to is None:
        raise InputError(
            f"source '{source_id}' did not move at the last refresh ({fetch.source_status}): "
            "give NEW_URL"
        )
    return fetch.moved_to


@command("add")
def add_command(
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="The new claim's id.")],
    urls: Annotated[list[str], typer.Option("--url", help="A source page (repeatable).")],
    quotes: Annotated[list[str], typer.Option("--quote", help="Exact words (repeatable).")],
    grade: Annotated[Grade, typer.Option("--grade", case_sensitive=False)] = Grade.DEMONSTRATED,
    on: Annotated[
        str, typer.Option("--on", help="The facet graded.")
    ] = "the documentation says this",
    section: Annotated[str | None, typer.Option("--section", help="Default: the first.")] = None,
    title: Annotated[str | None, typer.Option("--title")] = None,
    statement: Annotated[str | None, typer.Option("--statement")] = None,
    kind: Annotated[str, typer.Option("--kind")] = "guarantee",
    depends_on: Annotated[list[str] | None, typer.Option("--depends-on")] = None,
    publisher: Annotated[
        str | None, typer.Option("--publisher", help="For new sources (default: the host).")
    ] = None,
    maps: Maps = None,
    timeout: Timeout = None,
    user_agent: UserAgent = None,
    headers: Headers = None,
) -> None:
    """Record a new claim; every quote is verified on every URL before anything is written.

    A quote that is not on a page is refused, with the page's closest wording.

    Example: claimledger add output-gate --url https://developers.cloudflare.com/durable-objects/reference/glossary/
    --quote "any new outgoing network messages will be held back" --section guarantees
    """
    ledger = _load()
    _check_new_claim(ledger, claim_id, section, kind, depends_on or [])
    policy, url_map = _fetch_options(
        timeout=timeout, user_agent=user_agent, headers=headers, maps=maps
    )
    for url in urls:
        if not is_web_url(url):
            raise InputError(f"--url {url!r} is not an http(s) URL with a host")
    pages = asyncio.run(_read_pages(urls, policy, url_map))
    problems = []
    for url in urls:
        page = pages[url]
        for quote in quotes:
            found = check_page(quote, page)
            if found is None:
                problems.append(
                    f"{url}: could not be read ({page.fetch.source_status}: {page.fetch.error})"
                )
            elif found.status != "verified":
                closest = f"; closest wording: {found.current!r}" if found.current else ""
                problems.append(f"{url}: quote {quote!r} is {found.status}{closest}")
    if problems:
        raise InputError("nothing written: " + " | ".join(dict.fromkeys(problems)))
    draft = ledgerfile.NewClaim(
        id=claim_id,
        section=section,
        title=title or claim_id,
        statement=statement or (title or claim_id),
        kind=kind,
        quotes=tuple(quotes),
        urls=tuple(urls),
        grade=grade,
        on=on,
        depends_on=tuple(depends_on or ()),
        publisher=publisher,
        titles={url: page_title(pages[url]) for url in urls},
    )
    ledgerfile.update(settings.ledger, lambda text, fresh: ledgerfile.add_claim(text, fresh, draft))
    out.print(
        f"added {claim_id}: {len(quotes)} quote(s) verified on {len(urls)} source(s)", markup=False
    )


def _check_new_claim(
    ledger: Ledger, claim_id: str, section: str | None, kind: str, premises: list[str]
) -> None:
    """Refuse what the ledger would refuse, before fetching anything."""
    if claim_id in ledger.claim_ids:
        raise InputError(f"claim '{claim_id}' already exists")
    if not CLAIM_ID.fullmatch(claim_id):
        raise InputError(
            f"{claim_id!r} must be a lowercase id (letters a-z, digits, '.', '_', '-')"
        )
    sections = [s.id for s in ledger.sections]
    if section is not None and section not in sections:
        raise InputError(f"--section {section!r} is not one of {', '.join(sections)}")
    if kind not in CLAIM_KINDS:
        raise InputError(f"--kind {kind!r} is not one of {', '.join(CLAIM_KINDS)}")
    for premise in premises:
        ledger.claim(premise)


# --------------------------------------------------------------------------- report

FORMAT_SUFFIX = {"md": "md", "html": "html", "json": "json", "claimreview": "claimreview.json"}


@command("render")
def render_command(
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="md, html, json or claimreview.")
    ] = "md",
    output: Annotated[
        Path | None, typer.Option("--output", "-o", help="Default: out/report.<format>.")
    ] = None,
    templates: Annotated[
        Path | None,
        typer.Option("--templates", help="Your templates (default: templates/ beside the ledger)."),
    ] = None,
) -> None:
    """Write the teardown report from the ledger and the latest evidence.

    Example: claimledger render --format html -o out/report.html
    """
    if fmt not in FORMAT_SUFFIX:
        raise InputError(f"--format {fmt!r} is not one of {', '.join(FORMAT_SUFFIX)}")
    ledger = _load()
    checks = _latest_checks(ledger)
    with _existing_store() as store:
        fetches = store.latest_fetches() if store else {}
        last = store.last_run() if store else None
    urls = {source.url for source in ledger.sources.values()}
    path = output or settings.home / "out" / f"report.{FORMAT_SUFFIX[fmt]}"
    state_path = path.with_name(f".{path.name}.state.json")
    report = build_report(
        ledger,
        checks,
        {url: fetch for url, fetch in fetches.items() if url in urls},
        regrade(ledger, checks),
        generated_on=_today(),
        last_refresh=last.started_at if last else None,
        previous=_read_state(state_path),
    )
    user_templates = templates or settings.home / "templates"
    if templates is not None and not templates.is_dir():
        raise InputError(f"--templates {templates}: not a directory")
    env = make_environment(user_templates if user_templates.is_dir() else None)
    text = render(report, cast(Format, fmt), env)
    _write_file(path, text)
    _write_file(state_path, json.dumps(report_state(report), indent=1, sort_keys=True) + "\n")
    out.print(f"wrote {path}", markup=False)


def _read_state(path: Path) -> dict[str, Any] | None:
    """What the last render saw; a missing or damaged state only means "first render"."""
    try:
        state = json.loads(path.read_text("utf-8"))
    except (OSError, ValueError):
        return None
    return state if isinstance(state, dict) else None


def _write_file(path: Path, text: str) -> None:
    """Replace `path` atomically, so a reader never sees half a report."""
    path = path.resolve()  # a symlinked report is updated where it points, not replaced
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        replace_atomically(path, text.encode("utf-8"))
    except OSError as error:
        raise InputError(f"cannot write {path}: {error.strerror or error}") from None


# --------------------------------------------------------------------------- demo


@command("demo")
def demo_command(
    directory: Annotated[
        Path, typer.Argument(help="Where to put the demo's ledger, evidence and reports.")
    ] = Path("out/demo"),
) -> None:
    """The whole loop offline, on the bundled example and local copies of its pages.

    Copies the model teardown's ledger into DIR, serves its pages on 127.0.0.1 as they
    were on the day they were read, refreshes (everything verified), serves them as
    they are later (a rewording, a negated guarantee, a removed paragraph, a moved
    page, a 404), refreshes again, regrades, accepts the harmless rewording, and
    renders the report in Markdown and HTML.
    """
    started = time.perf_counter()
    ledger_path = prepare_demo_directory(directory)
    ledger = load(ledger_path)
    hosts = sorted({urllib.parse.urlsplit(s.url).hostname or "" for s in ledger.sources.values()})
    with serve_pages(demo_data(), "read") as server:
        maps: list[str] = []
        for spec in demo_url_map(server.base_url, hosts):
            maps += ["--map", spec]
        steps = [
            (
                f"1. refresh against the pages as read on {ledger.date_read}",
                None,
                ["refresh", *maps],
            ),
            ("2. the pages change: refresh again", "later", ["refresh", *maps]),
            ("3. what drifted, word by word", None, ["diff"]),
            ("4. what the evidence does to the grades", None, ["regrade"]),
            ("5. apply the grade changes", None, ["regrade", "--write"]),
            (
                "6. accept the harmless rewordings (a reversed one is refused)",
                None,
                ["accept", "--all-drifted"],
            ),
            ("7. refresh once more: the adopted wording now verifies", None, ["refresh", *maps]),
            ("8. render the report", None, ["render"]),
            ("", None, ["render", "--format", "html"]),
        ]
        for title, version, args in steps:
            if version is not None:
                server.switch(version)
            if title:
                out.rule(title, align="left", style="bold")
            _run_step(ledger_path, args)
    elapsed = time.perf_counter() - started
    report = ledger_path.parent / "out" / "report.md"
    out.print(
        f"\ndemo finished in {elapsed:.1f} s; the report is {report} (and report.html beside it);"
        f" the ledger is {ledger_path}",
        markup=False,
    )


def _run_step(ledger_path: Path, args: list[str]) -> None:
    """Run one real command of the loop; its exit code 1 (drift found) is part of the story,
    any other failure ends the demo with that command's exit code."""
    try:
        code = app(
            ["--ledger", str(ledger_path), *args], prog_name="claimledger", standalone_mode=False
        )
    except typer.Exit as done:
        code = done.exit_code
    if code not in (None, EXIT_OK, EXIT_FOUND):
        raise typer.Exit(code)


def main() -> None:
    """Entry point of the console script."""
    app(prog_name="claimledger")


if __name__ == "__main__":  # pragma: no cover
    main()
