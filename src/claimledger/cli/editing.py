"""Commands that shape the ledger without reading a page: section, facet, set, remove,
refute. Each is one locked, compared, atomic edit (see `claimledger.ledger.file`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import command, existing_store, found_if, options, standard_input, today
from claimledger.cli.completion import complete_claims, complete_sources, one_of
from claimledger.cli.options import (
    BASES,
    GRADES,
    ClaimId,
    Premises,
    SourceId,
    parse_basis,
    parse_grade,
)
from claimledger.errors import ExitCode, InputError
from claimledger.ledger.vocabulary import (
    LEDGER_FIELDS,
    RENDERINGS,
    SCOPE_PARTS,
    SOURCE_KINDS,
    Basis,
    Grade,
)
from claimledger.terminal.output import out, warn

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.model import Ledger, Section


@command("section")
def section_command(
    ctx: typer.Context,
    section_id: Annotated[str, typer.Argument(metavar="ID", help="The section's id.")],
    title: Annotated[
        str | None,
        typer.Argument(metavar="[TITLE]", help="Its heading (needed to add a section)."),
    ] = None,
    intro: Annotated[
        str | None,
        typer.Option(
            "--intro",
            metavar="MARKDOWN",
            help="What the section is about; '-' reads it from standard input, '' removes it.",
        ),
    ] = None,
    editor: Annotated[
        bool, typer.Option("--editor", help="Write the intro in $EDITOR (long prose).")
    ] = False,
) -> ExitCode:
    """Add a section to the report, or retitle one and rewrite its intro.

    Claims join a section with `add --section ID` or `edit CLAIM --section ID`.

    Example: claimledger section limits "What the limits are" --intro "Each documented cap."
    """
    from claimledger.cli.revising import unchanged_while_open, written_in_editor
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    opts = options(ctx)
    known = {section.id: section for section in opts.load().sections}
    exists = section_id in known
    if editor:
        intro = written_in_editor(known[section_id].intro if exists else "")
    elif intro == "-":
        intro = standard_input(f"the intro of section {section_id}")
    if title is not None and not title.strip():
        raise InputError("TITLE must not be empty")
    if exists and title is None and intro is None:  # else "revised", and nothing was
        raise InputError(f"section {section_id!r} exists: say what to change: TITLE, --intro")
    words = intro.strip() if intro is not None else None

    def change(text: str, ledger: Ledger) -> str:
        if editor and exists:
            was = known[section_id].intro  # a section removed since: revise_section says
            now = next((s.intro for s in ledger.sections if s.id == section_id), was)
            unchanged_while_open(f"section {section_id}: its intro", was, now, words or "")
        if exists:
            return edits.revise_section(text, ledger, section_id, title=title, intro=words)
        if title is None:
            return edits.revise_section(text, ledger, section_id, title=None, intro=None)
        return edits.add_section(text, ledger, section_id, title, words or "")

    written = ledgerfile.update(opts.ledger, change)
    if exists and _section(written, section_id) == known[section_id]:
        out.print(f"section {section_id} unchanged: it is already so", markup=False)
        return ExitCode.OK
    done = "revised" if exists else "added"
    out.print(f"{done} section {section_id}" + (f": {title}" if title else ""), markup=False)
    return ExitCode.OK


def _section(ledger: Ledger, section_id: str) -> Section:
    """The section of that id, as the ledger now holds it."""
    return next(section for section in ledger.sections if section.id == section_id)


@command("scope")
def scope_command(
    ctx: typer.Context,
    part: Annotated[
        str | None,
        typer.Argument(
            metavar="[PART]",
            help="did-not or could-not-see (none: show the scope).",
            autocompletion=one_of(SCOPE_PARTS),
        ),
    ] = None,
    words: Annotated[
        str | None, typer.Argument(metavar="[TEXT]", help="What to add to that list.")
    ] = None,
    remove: Annotated[
        int | None, typer.Option("--remove", metavar="N", help="Remove item N (1 for the first).")
    ] = None,
) -> ExitCode:
    """Show or change the scope: what the reading did not do, and what it could not see.

    Example: claimledger scope did-not "Run the failover tests ourselves."
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    opts = options(ctx)
    if part is None and remove is not None:
        raise InputError(f"--remove needs the PART it removes from: {' or '.join(SCOPE_PARTS)}")
    if part is None:
        print_scope(opts.load())
        return ExitCode.OK
    if part not in SCOPE_PARTS:
        raise InputError(f"PART {part!r}: one of {', '.join(SCOPE_PARTS)}")
    if words is not None and remove is not None:
        raise InputError(f"scope {part}: TEXT to add or --remove N, not both")
    if words is None and remove is None:
        raise InputError(f"scope {part}: give the TEXT to add, or --remove N")
    if words is not None and not words.strip():
        raise InputError("TEXT must not be empty")

    def change(text: str, ledger: Ledger) -> str:
        if remove is not None:
            return edits.remove_from_scope(text, ledger, part, remove)
        return edits.add_to_scope(text, ledger, part, " ".join(str(words).split()))

    print_scope(ledgerfile.update(opts.ledger, change))
    return ExitCode.OK


def print_scope(ledger: Ledger) -> None:
    """Both lists, numbered as `--remove` counts them."""
    for part, key in SCOPE_PARTS.items():
        items = getattr(ledger.scope, key)
        out.print(f"{part}:" + ("" if items else " (nothing)"), markup=False)
        for number, item in enumerate(items, start=1):
            out.print(f"  {number}. {item}", markup=False)


@command("facet")
def facet_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    on: Annotated[str, typer.Argument(metavar="FACET", help="What is graded, in words.")],
    grade: Annotated[
        str,
        typer.Option(
            "--grade", metavar="GRADE", help=f"One of {GRADES}.", autocompletion=one_of(Grade)
        ),
    ],
    why: Annotated[str, typer.Option("--why", metavar="TEXT", help="Why it has that grade.")],
    basis: Annotated[
        str,
        typer.Option(
            "--basis",
            metavar="BASIS",
            help=f"What it rests on: {BASES}.",
            autocompletion=one_of(Basis),
        ),
    ] = "quotes",
    depends_on: Premises = None,
) -> ExitCode:
    """Add a graded facet to a claim ("the page says X" and "X holds at runtime" are two).

    A facet on basis premises rests on --depends-on claims (default: the claim's own).

    Example: claimledger facet input-gate "holds across a crash" --grade UNKNOWN
    --basis judgement --why "no page says what happens to a gate at a crash"
    """

    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    if not why.strip():
        raise InputError("--why must say why")
    on = on.strip()  # a space typed at either end would make the facet read as another
    if not on:
        raise InputError("FACET must say what is graded")
    facet = edits.NewFacet(
        on=on,
        grade=parse_grade(grade),
        basis=parse_basis(basis),
        why=why,
        depends_on=tuple(depends_on or ()),
    )
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        return edits.add_facet(text, ledger, claim_id, facet, date=day)

    ledgerfile.update(options(ctx).ledger, change)
    out.print(f"{claim_id}: added facet {on!r} ({facet.grade})", markup=False)
    return ExitCode.OK


@command("set")
def set_command(
    ctx: typer.Context,
    name: Annotated[
        str,
        typer.Argument(
            metavar="FIELD",
            help=f"One of {', '.join(LEDGER_FIELDS)}.",
            autocompletion=one_of(LEDGER_FIELDS),
        ),
    ],
    value: Annotated[
        str,
        typer.Argument(
            metavar="VALUE", help="The new value; '-' reads it from standard input (for about)."
        ),
    ],
) -> ExitCode:
    """Set the reading's own title, subject, author, date read (YYYY-MM-DD) or about.

    Example: claimledger set date_read 2026-08-23
    """

    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    text = standard_input(name) if value == "-" else value
    if not text.strip():
        raise InputError(f"{name} needs a value")
    if name == "date_read":
        edits.check_reading_day(text, today())

    def change(old: str, ledger: Ledger) -> str:
        return edits.set_field(old, ledger, name, text)

    ledgerfile.update(options(ctx).ledger, change)
    shown = text if "\n" not in text.strip() else f"{len(text.splitlines())} lines"
    out.print(f"{name}: {shown.strip()}", markup=False)
    return ExitCode.OK


@command("remove")
def remove_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    quote: Annotated[
        int | None,
        typer.Option("--quote", metavar="N", min=1, help="Remove only its Nth quote (1: first)."),
    ] = None,
    facet: Annotated[
        str | None, typer.Option("--facet", metavar="FACET", help="Remove only this facet.")
    ] = None,
) -> ExitCode:
    """Remove a claim, or one of its quotes or facets (noted in the claim's history).

    A claim another claim rests on is refused until that one no longer names it.

    Example: claimledger remove output-gate --quote 2
    """

    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    if quote is not None and facet is not None:
        raise InputError("give --quote or --facet, not both")
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        if quote is not None:
            return edits.remove_quote(text, ledger, claim_id, quote, date=day)
        if facet is not None:
            return edits.remove_facet(text, ledger, claim_id, facet, date=day)
        return edits.remove_claim(text, ledger, claim_id)

    ledgerfile.update(options(ctx).ledger, change)
    what = f"quote {quote} of " if quote else f"facet {facet!r} of " if facet else ""
    out.print(f"removed {what}{claim_id}", markup=False)
    return ExitCode.OK


@command("refute")
def refute_command(
    ctx: typer.Context,
    claim_id: ClaimId,
    because: Annotated[
        str,
        typer.Option("--because", metavar="TEXT", help="What was seen: the falsifier met."),
    ],
) -> ExitCode:
    """Record that a claim's falsifier fired: the report shows the claim refuted.

    The next regrade caps every facet that rests on it at UNKNOWN.

    Example: claimledger refute output-gate --because "the glossary now says messages may
    leave before the write is durable"
    """

    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    if not because.strip():
        raise InputError("--because must say why")
    day = today()

    def change(text: str, ledger: Ledger) -> str:
        return edits.refute(text, ledger, claim_id, why=because, by="person", date=day)

    after = ledgerfile.update(options(ctx).ledger, change)
    out.print(f"{claim_id}: refuted; {_after_refuting(after, claim_id)}", markup=False)
    return ExitCode.OK


def _after_refuting(ledger: Ledger, claim_id: str) -> str:
    """What to run next: a regrade where a facet of another claim rests on the refuted one
    (basis premises: it caps them), else the report (which shows the refutation as it is).
    A facet graded on its own quotes rests on them, whatever its claim's `depends_on`."""
    resting = sorted(
        claim.id
        for claim in ledger.claims
        if any(
            facet.basis is Basis.PREMISES and claim_id in claim.premises_of(facet)
            for facet in claim.grades
        )
    )
    if not resting:
        return "no claim rests on it; next: claimledger render"
    names = ", ".join(resting[:5]) + (f" and {len(resting) - 5} more" if len(resting) > 5 else "")
    return f"{len(resting)} rest on it ({names}); next: claimledger regrade --write"


@command("review")
def review_command(
    ctx: typer.Context,
    claim_ids: Annotated[
        list[str] | None,
        typer.Argument(
            metavar="CLAIM",
            help="Claims to show (default: every claim that needs review), or to confirm.",
            autocompletion=complete_claims,
        ),
    ] = None,
    confirm: Annotated[
        bool,
        typer.Option("--confirm", help="Confirm CLAIM as it stands, with --because."),
    ] = False,
    because: Annotated[
        str | None,
        typer.Option("--because", metavar="TEXT", help="Why the claim still holds as written."),
    ] = None,
) -> ExitCode:
    """Claims whose evidence changed meaning since they were graded, and what changed.

    An adopted wording that changed (or may have changed) a quote's meaning puts its
    claim in review: no rule raises its grades, `regrade --check` fails, and the report
    says so, until you revise the claim (a grade set, the quote removed) or confirm it
    as it stands. Exit 1 when a claim shown needs review.

    Example: claimledger review message-size --confirm --because "the limit is per batch"
    """
    from claimledger.grading.review import review_reason
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    opts = options(ctx)
    ledger = opts.load()
    chosen = [ledger.claim(claim_id) for claim_id in claim_ids or ()]
    if confirm:
        if len(chosen) != 1 or not (because or "").strip():
            raise InputError("--confirm takes one CLAIM and --because saying why it holds")
        day = today()
        why = (because or "").strip()

        def change(text: str, fresh: Ledger) -> str:
            return edits.confirm_review(text, fresh, chosen[0].id, why=why, date=day)

        ledgerfile.update(opts.ledger, change)
        out.print(
            f"{chosen[0].id}: confirmed as it stands; next: claimledger regrade", markup=False
        )
        return ExitCode.OK
    if because is not None:
        raise InputError("--because goes with --confirm")
    pending = [c for c in (chosen or ledger.claims) if c.review is not None]
    for claim in pending:
        assert claim.review is not None
        out.print(f"{claim.id}: needs review: {review_reason(claim, claim.review)}", markup=False)
    if not pending:
        out.print(
            "nothing to review: no claim adopted a rewording that changed, or may have "
            "changed, its meaning since its author last acted on it",
            markup=False,
        )
    return found_if(bool(pending))


@command("source")
def source_command(
    ctx: typer.Context,
    source_id: SourceId,
    publisher: Annotated[
        str | None,
        typer.Option("--publisher", metavar="NAME", help="Who publishes it (one per vendor)."),
    ] = None,
    title: Annotated[str | None, typer.Option("--title", metavar="TEXT", help="Its title.")] = None,
    kind: Annotated[
        str | None,
        typer.Option(
            "--kind",
            metavar="KIND",
            help=f"One of {', '.join(SOURCE_KINDS)}.",
            autocompletion=one_of(SOURCE_KINDS),
        ),
    ] = None,
    repo: Annotated[
        str | None,
        typer.Option(
            "--repo",
            metavar="URL",
            help="The git repository its page is built from (https, or a local clone's "
            "folder), for `blame` and the refresh's history step.",
        ),
    ] = None,
    path: Annotated[
        str | None,
        typer.Option("--path", metavar="PATH", help="The page's source file in --repo."),
    ] = None,
    render: Annotated[
        str | None,
        typer.Option(
            "--render",
            metavar="HOW",
            help="http (as the server sends it) or browser (once its scripts ran).",
            autocompletion=one_of(RENDERINGS),
        ),
    ] = None,
    wait_for: Annotated[
        str | None,
        typer.Option(
            "--wait-for", metavar="SELECTOR", help="In a browser, read once this CSS matches."
        ),
    ] = None,
    remove: Annotated[
        bool, typer.Option("--remove", help="Remove it (only when no quote rests on it).")
    ] = False,
    merge_into: Annotated[
        str | None,
        typer.Option(
            "--merge-into",
            metavar="SOURCE",
            help="Let its quotes rest on SOURCE instead, and remove it (one page, one source).",
            autocompletion=complete_sources,
        ),
    ] = None,
) -> ExitCode:
    """Set a source's publisher, title or kind, or remove or merge it (`move` changes its
    address).

    Two sources of one publisher count once toward a claim's independent sources: a
    vendor's docs and its blog are one publisher, whatever their hosts.

    Example: claimledger source engineering-blog --kind blog --publisher example.com
    """
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile
    from claimledger.urls import redacted_text, refuse_credentials

    if remove or merge_into is not None:
        if remove and merge_into is not None:
            raise InputError("--remove and --merge-into exclude each other")
        if any(v is not None for v in (publisher, title, kind, repo, path, render, wait_for)):
            raise InputError("remove or merge a source, or set its fields: not both at once")
        return _source_goes(ctx, source_id, merge_into)
    given = edits.source_fields(
        {"publisher": publisher, "title": title, "kind": kind, "repo": repo, "path": path}
        | {"render": render, "wait_for": wait_for}
    )
    refuse_credentials("--repo", given.get("repo", ""), kind="repo")

    def change(text: str, ledger: Ledger) -> str:
        return edits.set_source_fields(text, ledger, source_id, given)

    ledgerfile.update(options(ctx).ledger, change)
    for name, value in given.items():
        out.print(f"{source_id}: {name} is now {redacted_text(value)}", markup=False)
    return ExitCode.OK


def _source_goes(ctx: typer.Context, source_id: str, into: str | None) -> ExitCode:
    """Remove a source no quote rests on, or merge it into another (saying so where they
    were two pages: see `_two_pages_said`)."""
    from claimledger.ledger import edits
    from claimledger.ledger import file as ledgerfile

    warning: list[str] = []

    def change(text: str, ledger: Ledger) -> str:
        if into is None:
            return edits.remove_source(text, ledger, source_id)
        merged = edits.merge_source(text, ledger, source_id, into)
        warning[:] = [_two_pages_said(ctx, ledger, source_id, into)]
        return merged

    ledgerfile.update(options(ctx).ledger, change)
    said = "removed" if into is None else f"merged into {into} (its quotes rest on {into})"
    out.print(f"{source_id}: {said}", markup=False)
    for line in filter(None, warning):
        warn(line)
    return ExitCode.OK


def _two_pages_said(ctx: typer.Context, ledger: Ledger, source_id: str, into: str) -> str:
    """The warning a merge of two pages gets, neither of which led to the other in a
    refresh made here: their quotes were merged onto a page nothing read says carries
    them ("" where one did). Worked out before the merge is written: a store that cannot
    be read is no word either way, never a merge half done."""
    from claimledger.errors import StoreError
    from claimledger.services.latest import one_page
    from claimledger.urls import shown

    try:
        with existing_store(options(ctx)) as store:
            if one_page(store, ledger, source_id, into):
                return ""
    except StoreError:
        pass  # nothing read says they are one page
    old, new = shown(ledger.source(source_id).url), shown(ledger.source(into).url)
    return (
        f"{old} and {new} are two pages, and no refresh of yours saw one lead to the other: "
        f"`claimledger refresh` to see that the quotes are on the page of source {into}"
    )
