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
    PAGE_OPTIONS,
    ClaimId,
    Premises,
    SourceId,
    fetch_options,
    page_settings,
    parse_basis,
    parse_grade,
    parse_kind,
)
from claimledger.errors import ExitCode, InputError, LedgerError, breaks_escaped
from claimledger.ledger.vocabulary import CLAIM_KINDS, DEFAULT_FACETS, Basis, Grade
from claimledger.terminal.output import err, out, print_json

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Ledger


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
    each one's file, line, col and message). The settings beside it (claimledger.toml)
    are checked too, every wrong setting on one line.
    """
    opts = options(ctx)
    try:
        ledger = opts.load()
    except LedgerError as error:
        if as_json:
            from claimledger.urls import redacted_text

            problems = [
                dataclasses.asdict(problem) | {"message": redacted_text(problem.message)}
                for problem in error.problems
            ]
            print_json({"ledger": str(opts.ledger), "valid": False, "problems": problems})
        raise  # and on stderr, one line each, with the exit status of an invalid ledger
    from claimledger.ledger.config import read_config

    read_config(opts.ledger.parent)  # its settings too: a refresh would refuse them
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
    _warn_of_publishers_sharing_a_domain(opts.ledger, ledger)
    _warn_of_one_page_twice(opts.ledger, ledger)
    out.print(
        f"{opts.ledger}: ok: {_counted(len(ledger.claims), 'claim')}, "
        f"{_counted(len(ledger.sources), 'source')}, {_counted(facets, 'facet')} ({grades})",
        markup=False,
    )
    return ExitCode.OK


def _warn_of_publishers_sharing_a_domain(path: Path, ledger: Ledger) -> None:
    """A warning at each source written for another publisher than an earlier source on its
    registrable domain: they count as independent, which one vendor's pages are not, unless
    the author says so (`independent: true`) or names one publisher for both."""
    import shlex

    from claimledger.ledger.publishers import publishers_sharing_a_domain

    for shared in publishers_sharing_a_domain(ledger):
        source, earlier = shared.source, shared.earlier
        line, col = ledger.source_place(source.id) or (1, 1)
        setting = shlex.quote(earlier.publisher)
        said = (
            f"source {source.id} (publisher {source.publisher!r}) and source {earlier.id} "
            f"(publisher {earlier.publisher!r}) are both on {shared.domain}, yet count as two "
            f"independent sources: give them one publisher (`claimledger source {source.id} "
            f"--publisher {setting}`), or write `independent: true` on {source.id} if it is "
            "independent"
        )
        err.print(
            f"{path}:{line}:{col}: warning: {breaks_escaped(said)}", markup=False, soft_wrap=True
        )


def _warn_of_one_page_twice(path: Path, ledger: Ledger) -> None:
    """A warning at each source written for a page an earlier source has, however it is
    spelt (`/x` and `/x/`, or http and https of one host and path): a page is one source,
    and two would read it twice and say its every change twice."""
    from claimledger.urls import page_key_either_scheme, shown

    earlier: dict[tuple[str, tuple[int, int] | None], str] = {}
    for source in ledger.sources.values():
        first = earlier.setdefault(page_key_either_scheme(source.url), source.id)
        if first == source.id:
            continue
        line, col = ledger.source_place(source.id) or (1, 1)
        said = (
            f"source {source.id} ({shown(source.url)}) is the page of source {first} "
            f"({shown(ledger.sources[first].url)}): make the two one with "
            f"`claimledger source {source.id} --merge-into {first}`"
        )
        err.print(
            f"{path}:{line}:{col}: warning: {breaks_escaped(said)}", markup=False, soft_wrap=True
        )


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
    templates are copied too (beside a ledger already there, only they are), and a render
    says when the package's have changed since. Refuses to overwrite anything already
    there; an init stopped between two of its files is finished by the next, when each
    file it left is as it wrote it.
    """
    from claimledger.services.scaffold import scaffold

    if author is not None and not author.strip():
        raise InputError("--author needs a name")
    made = scaffold(directory, day=today(), author=author, templates=copy_templates)
    if made.beside:
        beside = f"created {directory / 'templates'}/ beside {made.ledger}, left as it was"
        out.print(beside, markup=False)
        _say_untrusted(made.trust_problem)
        return ExitCode.OK
    what = [str(made.ledger), str(directory / "ledger.schema.json")]
    what += [f"{directory / 'templates'}/"] if copy_templates else []
    out.print(f"created {', '.join(what[:-1])} and {what[-1]}", markup=False)
    if made.finished:
        names = ", ".join(made.finished)
        out.print(f"note: an earlier init stopped before {names}: made now", markup=False)
    _say_untrusted(made.trust_problem)
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


def _say_untrusted(problem: str | None) -> None:
    """Why the templates `init` copied are not trusted as the user's own yet, if so."""
    if problem:
        err.print(f"claimledger: note: templates/ not trusted yet: {problem}", markup=False)


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
    from claimledger.services.authoring import unwritable, where_it_moved
    from claimledger.urls import lower_scheme_and_host, refuse_credentials, shown

    opts = options(ctx)
    source = opts.load().source(source_id)
    target, found = lower_scheme_and_host(new_url or ""), "moved"
    if new_url is None:
        with existing_store(opts) as store:
            target, found = where_it_moved(store, source.id, source.url)
    if (problem := unwritable(target)) is not None:
        raise InputError(f"{target!r} {problem}")
    refuse_credentials("NEW_URL", target)
    if target == source.url:
        raise InputError(f"source '{source_id}' is already at {shown(target)}")
    day, reason = today(), why or found

    def change(text: str, fresh: Ledger) -> str:
        return edits.move_source(text, fresh, source_id, target, date=day, why=reason)

    ledgerfile.update(opts.ledger, change)
    out.print(f"moved {source_id}: {shown(source.url)} -> {shown(target)}", markup=False)
    _warn_of_another_publisher(source_id, source.url, source.publisher, target)
    out.print("next: claimledger refresh, to check its quotes there", markup=False)
    return ExitCode.OK


def _warn_of_another_publisher(source_id: str, old: str, publisher: str, new: str) -> None:
    """A warning when the new address is on another registrable domain than the old one:
    the source keeps its publisher, so the other site's words would count as the vendor's
    (and never as independent of it) unless the author says whose they are."""
    import shlex

    from claimledger.ledger.model import publisher_compared
    from claimledger.sites import publisher_of

    if publisher_of(new) in (publisher_of(old), publisher_compared(publisher)):
        return  # the same site's, or the publisher the author already named
    err.print(
        f"claimledger: warning: {source_id} is now on another publisher's site "
        f"({publisher_of(new)}), and still counts as publisher {publisher!r}: if the page is "
        f"theirs, say so with `claimledger source {source_id} --publisher "
        f"{shlex.quote(publisher_of(new))}`",
        markup=False,
        soft_wrap=True,
    )


@command("add")
@fetch_options(*PAGE_OPTIONS)
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
        str | None,
        typer.Option(
            "--grade",
            metavar="GRADE",
            help=f"One of {GRADES} (default, for quotes verified now: DEMONSTRATED).",
            autocompletion=one_of(Grade),
            show_default=False,
        ),
    ] = None,
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
    *,
    fetching: FetchOptions,
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
    from claimledger.services.authoring import (
        check_evidence,
        check_new_claim,
        default_grade,
        moved_sources,
        new_sources_said,
        pages_given,
        read_as_verified,
        read_otherwise_said,
        verified_on_pages,
        worded,
    )

    urls, quotes = urls or [], quotes or []
    title, statement = worded("title", title), worded("statement", statement)
    on = worded("on", on)
    basis, kind = parse_basis(basis_name), parse_kind(kind_name)
    given_grade = None if grade_name is None else parse_grade(grade_name)
    opts = options(ctx)
    ledger = opts.load()
    check_new_claim(ledger, claim_id, section, depends_on or [])
    check_evidence(urls, quotes, basis, depends_on or [])
    grade = given_grade or default_grade(basis)
    urls = pages_given(urls)
    given = dataclasses.replace(fetching, pages=tuple(urls))
    with existing_store(opts) as store:
        moved = moved_sources(store, ledger)
    verified = verified_on_pages(urls, quotes, *page_settings(opts, given, ledger), ledger, moved)
    draft = edits.NewClaim(
        id=claim_id,
        section=section,
        title=title or claim_id,
        statement=statement or (title or claim_id),
        kind=kind,
        quotes=tuple(quotes),
        urls=verified.recorded(urls),
        grade=grade,
        on=on or DEFAULT_FACETS[basis],
        depends_on=tuple(depends_on or ()),
        publisher=publisher,
        titles=verified.titles,
        basis=basis,
        why=why,
        date=today(),
    )

    def change(text: str, fresh: Ledger) -> str:
        return read_as_verified(edits.add_claim(text, fresh, draft), fresh, fetching.browser)

    after = ledgerfile.update(opts.ledger, change)
    sources = len(after.claim(claim_id).quotes[0].sources) if quotes else 0  # one a page
    checked = f"{_counted(len(quotes), 'quote')} verified on {_counted(sources, 'source')}"
    out.print(f"added {claim_id}: {checked if quotes else f'on {basis}'}", markup=False)
    joined = read_otherwise_said(ledger, after, after.claim(claim_id).quotes, fetching.browser)
    for line in [*verified.said, *new_sources_said(ledger, after), *joined]:
        out.print(line, markup=False)
    return ExitCode.OK


def _counted(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"
