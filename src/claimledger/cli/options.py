"""Options that several commands share, the fetch settings they add up to, and the
options of the steps a refresh runs after reading its pages."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any, TypeVar, cast

import typer

from claimledger.cli.app import Options
from claimledger.cli.completion import complete_claims, complete_sources
from claimledger.errors import ExitCode, InputError
from claimledger.ledger.vocabulary import CLAIM_KINDS, Basis, Grade
from claimledger.terminal.output import err

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.config import FetchOptions
    from claimledger.ledger.model import Ledger
    from claimledger.records import FetchPolicy
    from claimledger.services.settings import Workspace
    from claimledger.urls import UrlMap


GRADES = ", ".join(Grade)
BASES = ", ".join(Basis)
KINDS = ", ".join(CLAIM_KINDS)

Premises = Annotated[
    list[str] | None,
    typer.Option(
        "--depends-on",
        metavar="CLAIM",
        help="A claim this rests on (a premise). Repeatable.",
        autocompletion=complete_claims,
    ),
]


def parse_grade(value: str) -> Grade:
    """A grade as typed, in any case: `claimed` is CLAIMED."""
    return Grade(_choice(value.upper(), list(Grade), "grade"))


def parse_basis(value: str) -> Basis:
    return Basis(_choice(value.lower(), list(Basis), "basis"))


def parse_kind(value: str) -> str:
    return _choice(value.lower(), CLAIM_KINDS, "kind")


def _choice(value: str, choices: list[str] | tuple[str, ...], noun: str) -> str:
    from claimledger.ledger.shape import did_you_mean

    if value in choices:
        return value
    raise InputError(
        f"{value!r} is not a {noun}{did_you_mean(value, choices)}; the {noun}s are "
        f"{', '.join(choices)}"
    )


AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
ClaimId = Annotated[
    str, typer.Argument(metavar="CLAIM", help="The claim's id.", autocompletion=complete_claims)
]
ClaimIds = Annotated[
    list[str] | None,
    typer.Argument(metavar="CLAIM", help="Claims (default: all).", autocompletion=complete_claims),
]
SourceId = Annotated[
    str, typer.Argument(metavar="SOURCE", help="The source's id.", autocompletion=complete_sources)
]
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
        metavar="MAP",
        help="PREFIX=REPLACEMENT: fetch the pages under PREFIX (on its site, its path going "
        "on at a /) from REPLACEMENT instead (a mirror, an archive, a local copy); evidence "
        "stays under the ledger's URL. Repeatable; adds to the `map` of claimledger.toml.",
    ),
]
UserAgent = Annotated[
    str | None, typer.Option("--user-agent", metavar="TEXT", help="The User-Agent to send.")
]
Headers = Annotated[
    list[str] | None,
    typer.Option(
        "--header",
        metavar="HEADER",
        help="An extra request header, written 'Name: value', sent only to the site of the "
        "pages read (as named, not a --map mirror's, not across a redirect to another "
        "site). Repeatable.",
    ),
]
HeadersFor = Annotated[
    list[str] | None,
    typer.Option(
        "--header-for",
        metavar="ORIGIN",
        help="Send the --header values to ORIGIN (https://host[:port]; a bare host means "
        "https) and nowhere else; needed when the pages are on more than one site. "
        "Repeatable.",
    ),
]
AllowPrivate = Annotated[
    bool,
    typer.Option(
        "--allow-private",
        help="Also fetch private and loopback addresses (a local mirror); by default a page "
        "that resolves or redirects there is refused.",
    ),
]
Browser = Annotated[
    bool,
    typer.Option(
        "--browser",
        help="Read each page in a browser once its scripts ran (a page built by JavaScript); "
        "needs claimledger[browser] and Chromium. A source may ask it with `render: browser`.",
    ),
]
IgnoreRobots = Annotated[
    bool,
    typer.Option(
        "--ignore-robots",
        help="Fetch pages that robots.txt disallows for us (only for a site you may read so).",
    ),
]


FETCH_OPTIONS: dict[str, tuple[Any, Any]] = {
    "timeout": (Timeout, None),
    "deadline": (Deadline, None),
    "concurrency": (Concurrency, None),
    "per_host": (PerHost, None),
    "interval": (Interval, None),
    "user_agent": (UserAgent, None),
    "headers": (Headers, None),
    "header_origins": (HeadersFor, None),
    "maps": (Maps, None),
    "ignore_robots": (IgnoreRobots, False),
    "allow_private": (AllowPrivate, False),
    "browser": (Browser, False),
}
"""Each fetch option by its `FetchOptions` field: its declaration and its default."""

Command = TypeVar("Command", bound=Callable[..., ExitCode])


def fetch_options(*names: str) -> Callable[[Command], Command]:
    """Give a command the fetch options `names` (see `FETCH_OPTIONS`), declared once here
    and handed to it together as its `fetching` parameter, a `FetchOptions`."""

    def with_options(func: Command) -> Command:
        unloaded = {"FetchOptions": None}  # the type of `fetching`, dropped below: not loaded
        own = inspect.signature(func, locals=unloaded, eval_str=True)
        if clash := set(names) & set(own.parameters):
            raise TypeError(f"{func.__name__} has parameters named as fetch options: {clash}")
        kept = [p for name, p in own.parameters.items() if name != "fetching"]
        added = [
            inspect.Parameter(
                name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=kind
            )
            for name in names
            for kind, default in [FETCH_OPTIONS[name]]
        ]

        @functools.wraps(func)
        def run(*args: Any, **kwargs: Any) -> ExitCode:
            from claimledger.ledger.config import FetchOptions

            given = {name: kwargs.pop(name) for name in names}
            given |= {name: tuple(given[name] or ()) for name in LISTS if name in given}
            return func(*args, fetching=FetchOptions(**given), **kwargs)

        shown = [*kept, *added]
        run.__signature__ = own.replace(parameters=shown)  # type: ignore[attr-defined]
        run.__annotations__ = {p.name: p.annotation for p in shown}  # as typer reads them
        return cast("Command", run)

    return with_options


PAGE_OPTIONS = (
    "maps",
    "timeout",
    "user_agent",
    "headers",
    "header_origins",
    "allow_private",
    "browser",
)
"""The fetch options of every command that reads pages: verify, refresh, add and quote."""

LISTS = ("headers", "header_origins", "maps")
"""The repeatable fetch options: lists on the command line, tuples in `FetchOptions`."""


def page_settings(
    opts: Options, given: FetchOptions, ledger: Ledger | None, option: str = "--url "
) -> tuple[FetchPolicy, UrlMap]:
    """The policy and URL map for reading the pages `given` names, each checked first."""
    from claimledger.services import settings

    return settings.page_settings(opts.ledger, given, ledger, say, option)


def fetch_settings(
    opts: Options, given: FetchOptions, ledger: Ledger | None
) -> tuple[FetchPolicy, UrlMap, Workspace]:
    """The run's policy and URL map (see `claimledger.services.settings`)."""
    from claimledger.services import settings

    return settings.fetch_settings(opts.ledger, given, ledger, say)


def say(line: str) -> None:
    """A note or a warning on stderr, whole on its line, each URL in it redacted (a note
    may name a mirror of the settings, or a source's address)."""
    from claimledger.urls import redacted_text

    err.print(redacted_text(line), markup=False)


NoHistory = Annotated[
    bool,
    typer.Option(
        "--no-history",
        help="Do not read the history of a quote not found as written in the docs' git "
        "repository (the source's repo, or the page's edit link). Setting: history = false.",
    ),
]


# --------------------------------------------------------------------------- after-steps
# (run by `claimledger.evidence.service`; none changes the refresh's exit status)

Save = Annotated[
    bool,
    typer.Option(
        "--save",
        help="Then ask the web archive to snapshot each page read (Save Page Now), and "
        "keep the snapshot's address; off by default.",
    ),
]
Recover = Annotated[
    bool,
    typer.Option(
        "--recover/--no-recover",
        help="Look for each source that went (404/410, or an empty page) on its site's "
        "sitemap, and propose the page that carries its quotes (default: on).",
        show_default=False,
    ),
]
RecoverCandidates = Annotated[
    int | None,
    typer.Option(
        "--recover-candidates",
        metavar="N",
        help="Pages of the sitemap read at most for each source that went (default 5; "
        "recover_candidates in claimledger.toml).",
        show_default=False,
    ),
]
Archive = Annotated[
    str | None,
    typer.Option(
        "--archive",
        metavar="URL",
        help="The web archive's base URL (default https://web.archive.org; archive in "
        "claimledger.toml).",
        show_default=False,
    ),
]
"""The web archive's base URL, as `archive.archive_settings` reads it (with the
`archive` setting of claimledger.toml): one option for every part of a refresh that asks
the archive (--save here; the as-read check may take it too)."""
NoAsRead = Annotated[
    bool,
    typer.Option(
        "--no-as-read",
        help="Do not check the quotes on the web archive's copies nearest the reading day "
        "(date_read). By default they are, once per page: the archive's answer is kept.",
    ),
]
ArchiveWindow = Annotated[
    int | None,
    typer.Option(
        "--archive-window",
        metavar="DAYS",
        help="How many days from date_read a capture may be (default 30).",
    ),
]
