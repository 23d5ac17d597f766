"""Commands that write or check the ledger itself: check, schema, init, grade, add, move."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import command, existing_store, options, today
from claimledger.cli.completion import one_of
from claimledger.cli.options import (
    BASES,
    GRADES,
    KINDS,
    AllowPrivate,
    Browser,
    ClaimId,
    Headers,
    HeadersFor,
    Maps,
    Premises,
    SourceId,
    Timeout,
    UserAgent,
    check_page_urls,
    fetch_settings,
    parse_basis,
    parse_grade,
    parse_kind,
)
from claimledger.errors import ExitCode, InputError, LedgerError
from claimledger.ledger.vocabulary import CLAIM_ID, CLAIM_KINDS, DEFAULT_FACETS, Basis, Grade
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:  # the core loads where a command uses it
    from collections.abc import Sequence

    from claimledger.cli.app import Options
    from claimledger.evidence.refresh import Page
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Ledger
    from claimledger.records import FetchRecord, Relocation


@command("check")
def check_command(
    ctx: typer.Context,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the counts, or every problem, as JSON.")
    ] = False,
) -> ExitCode:
    """Validate the ledger; print its counts of claims, facets and grades.

    Every problem is reported at once, as FILE:LINE:COL: message; exit 2 when there
    is any. With --json they are also printed as JSON (`valid`, and `problems` with
    each one's file, line, col and message).
    """
    opts = options(ctx)
    try:
        ledger = opts.load()
    except LedgerError as error:
        if as_json:
            problems = [dataclasses.asdict(problem) for problem in error.problems]
            print_json({"ledger": str(opts.ledger), "valid": False, "problems": problems})
        raise  # and on stderr, one line each, with the exit status of an invalid ledger
    counts = ledger.grade_counts()
    facets = sum(counts.values())
    if as_json:
        print_json(
            {
                "ledger": str(opts.ledger),
                "valid": True,
                "problems": [],
                "claims": len(ledger.claims),
                "sources": len(ledger.sources),
                "facets": facets,
                "grades": {str(grade): n for grade, n in counts.items()},
            }
        )
        return ExitCode.OK
    from claimledger.ledger.edits import unused_sources

    grades = ", ".join(f"{n} {grade}" for grade, n in counts.items())
    for source_id in unused_sources(ledger):
        err.print(
            f"claimledger: warning: source {source_id} is quoted by no claim: remove it with "
            f"`claimledger source {source_id} --remove`",
            markup=False,
        )
    out.print(
        f"{opts.ledger}: ok: {_counted(len(ledger.claims), 'claim')}, "
        f"{_counted(len(ledger.sources), 'source')}, {_counted(facets, 'facet')} ({grades})",
        markup=False,
    )
    return ExitCode.OK


@command("schema")
def schema_command(ctx: typer.Context) -> ExitCode:
    """Print the JSON Schema of the ledger (for editors: validation and completion)."""
    from claimledger.ledger.model import ledger_schema

    print_json(ledger_schema(), versioned=False)
    return ExitCode.OK


@command("init")
def init_command(
    ctx: typer.Context,
    directory: Annotated[
        Path, typer.Argument(help="Where to create claims.yaml and templates/.")
    ] = Path(),
    author: Annotated[
        str | None,
        typer.Option(
            "--author",
            metavar="NAME",
            help="Who reads and grades: the report's author, and its ClaimReview's.",
        ),
    ] = None,
    copy_templates: Annotated[
        bool,
        typer.Option(
            "--templates",
            help="Also copy the report templates into templates/ to edit (by default the "
            "package's own are used, and improve with each release).",
        ),
    ] = False,
) -> ExitCode:
    """Scaffold a small valid claims.yaml and its JSON Schema.

    The ledger's first line points editors at ledger.schema.json beside it, for
    validation and completion; its date read is today, its author --author; a .gitignore
    keeps out/ and the lock file out of the repository. With --templates, the report
    templates are copied too, and a render says when the package's have changed since.
    Refuses to overwrite anything already there.
    """
    from claimledger.services.scaffold import scaffold

    if author is not None and not author.strip():
        raise InputError("--author needs a name")
    made = scaffold(directory, day=today(), author=author, templates=copy_templates)
    what = [str(made.ledger), str(directory / "ledger.schema.json")]
    what += [f"{directory / 'templates'}/"] if copy_templates else []
    out.print(f"created {', '.join(what[:-1])} and {what[-1]}", markup=False)
    if made.trust_problem:
        err.print(
            f"claimledger: note: templates/ not trusted yet: {made.trust_problem}", markup=False
        )
    if made.ignore_lines:
        lines = " and ".join(made.ignore_lines)
        out.print(f"note: {directory / '.gitignore'} exists; add {lines} to it", markup=False)
    if author is None:
        out.print(
            "note: no --author: name who reads and grades with "
            f"claimledger --ledger {made.ledger} set author NAME",
            markup=False,
        )
    out.print(f"next: claimledger --ledger {made.ledger} check", markup=False)
    return ExitCode.OK


@command("grade")
def grade_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    grade_name: Annotated[
        str,
        typer.Argument(metavar="GRADE", help=f"One of {GRADES}.", autocompletion=one_of(Grade)),
    ],
    because: Annotated[
        str,
        typer.Option("--because", metavar="TEXT", help="Why; recorded in the claim's history."),
    ],
    on: Annotated[
        str | None,
        typer.Option(
            "--on",
            metavar="FACET",
            help="The facet to grade (default: the claim's first; add one with `facet`).",
        ),
    ] = None,
) -> ExitCode:
    """Grade one facet of a claim by hand, recording who and why in its history.

    Example: claimledger grade input-gate UNKNOWN --on "holds at the crash boundary"
    --because "the runtime docs no longer say"
    """

    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    if not because.strip():
        raise InputError("--because must say why")
    grade = parse_grade(grade_name)
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        return edits.set_grade(
            text, ledger, claim_id, on, grade, by="person", why=because, date=day
        )

    ledger = ledgerfile.update(options(ctx).ledger, change)
    facet = ledger.claim(claim_id).facet(on)
    out.print(f"{claim_id}: {facet.on}: now {facet.grade}", markup=False)
    return ExitCode.OK


@command("move")
def move_command(
    ctx: typer.Context,
    source_id: SourceId,
    new_url: Annotated[
        str | None,
        typer.Argument(
            metavar="NEW_URL", help="Its new address (default: where the last refresh found it)."
        ),
    ] = None,
    why: Annotated[
        str | None, typer.Option("--why", help="Recorded in the source's history.")
    ] = None,
) -> ExitCode:
    """Adopt a source's new address: the ledger's URL changes, the old one goes to history.

    Without NEW_URL, takes the address the last refresh was redirected to, else the page
    a refresh found carrying its quotes on its site's sitemap (a page gone without a
    redirect). The next refresh checks every quote of the source at its new address.

    Example: claimledger move agents-store-sync
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.urls import is_web_url, shown

    opts = options(ctx)
    source = opts.load().source(source_id)
    target, found = (new_url, "moved") if new_url else _where_it_moved(ctx, source.id, source.url)
    if not is_web_url(target):
        raise InputError(f"{target!r} is not an http(s) URL with a host")
    if target == source.url:
        raise InputError(f"source '{source_id}' is already at {shown(target)}")
    day = today()
    reason = why or found

    def change(text: str, fresh: Ledger) -> str:
        return edits.move_source(text, fresh, source_id, target, date=day, why=reason)

    ledgerfile.update(opts.ledger, change)
    out.print(f"moved {source_id}: {shown(source.url)} -> {shown(target)}", markup=False)
    out.print("next: claimledger refresh, to check its quotes there", markup=False)
    return ExitCode.OK


def _where_it_moved(ctx: typer.Context, source_id: str, url: str) -> tuple[str, str]:
    """The address the last refresh of `url` ended at, when that is a move; else, for a
    page still gone, the page its site's sitemap proposed. With why, in words."""
    from claimledger.urls import has_secrets, shown

    with existing_store(options(ctx)) as store:
        fetch = (store.latest_fetches() if store else {}).get(url)
        search = store.latest_relocations().get(source_id) if store else None
    if fetch is None:
        raise InputError(
            f"source '{source_id}' has not been fetched yet: run `claimledger refresh` or give "
            "NEW_URL"
        )
    if fetch.moved_to is None:
        return _proposed(source_id, url, fetch, search)
    if has_secrets(fetch.moved_to):
        raise InputError(
            f"source '{source_id}' moved to an address with a secret in it, which the store "
            f"keeps redacted ({shown(fetch.moved_to)}): give NEW_URL"
        )
    return fetch.moved_to, "followed the redirect the last refresh found"


def _proposed(
    source_id: str, url: str, fetch: FetchRecord, search: Relocation | None
) -> tuple[str, str]:
    """The page a refresh proposed for a source still gone (or emptied), found on its
    site's sitemap carrying its quotes; why there is none, as an InputError, otherwise."""
    from claimledger.evidence.relocate import LOST_REASONS
    from claimledger.records import lost_reason
    from claimledger.urls import has_secrets, redacted, shown

    lost = lost_reason(fetch) is not None
    if not lost or search is None or search.url != redacted(url) or search.found_at is None:
        why = f"; its site's sitemap: {search.note}" if lost and search and search.note else ""
        raise InputError(
            f"source '{source_id}' did not move at the last refresh ({fetch.source_status}"
            f"{why}): give NEW_URL"
        )
    if has_secrets(search.found_at):
        raise InputError(
            f"source '{source_id}' was found at an address with a secret in it, which the "
            f"store keeps redacted ({shown(search.found_at)}): give NEW_URL"
        )
    when = f" on {search.recorded_at:%Y-%m-%d}" if search.recorded_at else ""
    gone = LOST_REASONS.get(search.reason, search.reason)
    return search.found_at, (
        f"{gone} without a redirect; found on its site's sitemap{when}, carrying "
        f"{search.found} of {search.total} of its quotes"
    )


@command("add")
def add_command(
    ctx: typer.Context,
    claim_id: Annotated[str, typer.Argument(metavar="ID", help="The new claim's id.")],
    urls: Annotated[
        list[str] | None,
        typer.Option("--url", metavar="URL", help="A source page of the quotes (repeatable)."),
    ] = None,
    quotes: Annotated[
        list[str] | None,
        typer.Option("--quote", metavar="TEXT", help="Exact words on every --url (repeatable)."),
    ] = None,
    grade_name: Annotated[
        str,
        typer.Option(
            "--grade", metavar="GRADE", help=f"One of {GRADES}.", autocompletion=one_of(Grade)
        ),
    ] = "DEMONSTRATED",
    on: Annotated[
        str | None,
        typer.Option(
            "--on",
            metavar="FACET",
            help="What the grade is on, in words (default: what its basis makes it: "
            f"{', '.join(DEFAULT_FACETS.values())}).",
            show_default=False,
        ),
    ] = None,
    basis_name: Annotated[
        str,
        typer.Option(
            "--basis",
            autocompletion=one_of(Basis),
            metavar="BASIS",
            help=f"What the grade rests on: {BASES} (quotes needs --url and --quote).",
        ),
    ] = "quotes",
    why: Annotated[
        str | None, typer.Option("--why", metavar="TEXT", help="Why it has that grade.")
    ] = None,
    section: Annotated[
        str | None,
        typer.Option("--section", metavar="SECTION", help="Its section (default: the first)."),
    ] = None,
    title: Annotated[
        str | None, typer.Option("--title", metavar="TEXT", help="Its heading (default: ID).")
    ] = None,
    statement: Annotated[
        str | None,
        typer.Option("--statement", metavar="TEXT", help="What it says (default: the title)."),
    ] = None,
    kind_name: Annotated[
        str,
        typer.Option(
            "--kind", metavar="KIND", help=f"One of {KINDS}.", autocompletion=one_of(CLAIM_KINDS)
        ),
    ] = "guarantee",
    depends_on: Premises = None,
    publisher: Annotated[
        str | None,
        typer.Option(
            "--publisher",
            metavar="NAME",
            help="Who publishes new sources (default: the registrable domain, example.com; "
            "on a code host, its organisation).",
        ),
    ] = None,
    maps: Maps = None,
    timeout: Timeout = None,
    user_agent: UserAgent = None,
    headers: Headers = None,
    header_for: HeadersFor = None,
    allow_private: AllowPrivate = False,
    browser: Browser = False,
) -> ExitCode:
    """Record a new claim; every quote is verified on every URL before anything is written.

    A quote that is not on a page is refused, with the page's closest wording. A claim
    with no quote of its own rests on --basis premises (its --depends-on claims) or
    judgement (say why with --why).

    Example: claimledger add output-gate --url https://developers.cloudflare.com/durable-objects/reference/glossary/
    --quote "any new outgoing network messages will be held back" --section guarantees
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.ledger.config import FetchOptions

    urls, quotes = urls or [], quotes or []
    grade, basis, kind = parse_grade(grade_name), parse_basis(basis_name), parse_kind(kind_name)
    opts = options(ctx)
    ledger = opts.load()
    _check_new_claim(ledger, claim_id, section, depends_on or [])
    _check_evidence(urls, quotes, basis, depends_on or [])
    given = FetchOptions(
        timeout=timeout,
        user_agent=user_agent,
        headers=tuple(headers or ()),
        header_origins=tuple(header_for or ()),
        pages=tuple(urls),
        maps=tuple(maps or ()),
        allow_private=allow_private,
        browser=browser,
    )
    titles = verified_on_pages(opts, ledger, given, quotes)
    draft = edits.NewClaim(
        id=claim_id,
        section=section,
        title=title or claim_id,
        statement=statement or (title or claim_id),
        kind=kind,
        quotes=tuple(quotes),
        urls=tuple(urls),
        grade=grade,
        on=on or DEFAULT_FACETS[basis],
        depends_on=tuple(depends_on or ()),
        publisher=publisher,
        titles=titles,
        basis=basis,
        why=why,
        date=today(),
    )
    after = ledgerfile.update(opts.ledger, lambda text, fresh: edits.add_claim(text, fresh, draft))
    verified = f"{_counted(len(quotes), 'quote')} verified on {_counted(len(urls), 'source')}"
    out.print(f"added {claim_id}: {verified if quotes else f'on {basis}'}", markup=False)
    for line in new_sources_said(ledger, after):
        out.print(line, markup=False)
    return ExitCode.OK


def new_sources_said(before: Ledger, after: Ledger) -> list[str]:
    """Each source a command added, with the kind and publisher it was given, so that a
    wrong guess is seen and set right (a blog post is not the docs)."""
    return [
        f"new source {source.id}: kind {source.kind}, publisher {source.publisher} (set "
        f"either with `claimledger source {source.id} --kind KIND --publisher NAME`)"
        for source in after.sources.values()
        if source.id not in before.sources
    ]


def verified_on_pages(
    opts: Options, ledger: Ledger, given: FetchOptions, quotes: Sequence[str]
) -> dict[str, str | None]:
    """Read each page of `given` once and find every quote on each; nothing may be written
    unless every one is verified (InputError with each page's closest wording otherwise).
    The pages' titles, for the sources they become."""
    from claimledger.evidence.pageread import check_page, page_title
    from claimledger.evidence.service import read_pages_once
    from claimledger.urls import shown

    urls = list(given.pages)
    policy, url_map, _ = fetch_settings(opts, given, ledger)
    check_page_urls(urls, "--url ", policy)
    pages: dict[str, Page] = read_pages_once(urls, policy, url_map)
    problems = []
    for url in urls:
        page = pages[url]
        for quote in quotes:
            found = check_page(quote, page)
            if found is None:
                problems.append(
                    f"{shown(url)}: could not be read "
                    f"({page.fetch.source_status}: {page.fetch.error})"
                )
            elif found.status != "verified":
                closest = f"; closest wording: {found.current!r}" if found.current else ""
                problems.append(f"{shown(url)}: quote {quote!r} is {found.status}{closest}")
    if problems:
        raise InputError("nothing written: " + " | ".join(dict.fromkeys(problems)))
    return {url: page_title(pages[url]) for url in urls}


def _check_new_claim(
    ledger: Ledger, claim_id: str, section: str | None, premises: list[str]
) -> None:
    """Refuse what the ledger would refuse, before fetching anything."""
    from claimledger.ledger.shape import did_you_mean

    if claim_id in ledger.claim_ids:
        raise InputError(f"claim '{claim_id}' already exists")
    if not CLAIM_ID.fullmatch(claim_id):
        raise InputError(
            f"{claim_id!r} must be a lowercase id (letters a-z, digits, '.', '_', '-')"
        )
    sections = [s.id for s in ledger.sections]
    if section is not None and section not in sections:
        raise InputError(
            f"--section {section!r} is not a section{did_you_mean(section, sections)}; the "
            f"sections are {', '.join(sections)} (add one with `claimledger section`)"
        )
    for premise in premises:
        ledger.claim(premise)


def _check_evidence(urls: list[str], quotes: list[str], basis: Basis, premises: list[str]) -> None:
    """A claim rests on something: quotes found on pages, its premises, or a judgement."""
    if bool(urls) != bool(quotes):
        given, missing = ("--url", "--quote") if urls else ("--quote", "--url")
        raise InputError(f"{given} needs {missing}: a quote is words on a page")
    if basis is Basis.QUOTES and not quotes:
        raise InputError(
            "a claim with no --quote needs --basis premises (with --depends-on) or judgement"
        )
    if basis is Basis.PREMISES and not premises:
        raise InputError("--basis premises needs --depends-on: the claims it rests on")
    if basis is Basis.ARTIFACT:
        raise InputError(
            "--basis artifact needs the artifact's command and expected output: add the "
            "claim on judgement, then write its `artifact:` in the ledger"
        )


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
