"""Options that several commands share, and the fetch settings they add up to."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options
from claimledger.cli.completion import complete_claims, complete_sources
from claimledger.errors import InputError
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
        help="PREFIX=REPLACEMENT: fetch URLs starting with PREFIX from REPLACEMENT instead "
        "(a mirror, an archive, a local copy); evidence stays under the ledger's URL. "
        "Repeatable; adds to the `map` of claimledger.toml.",
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


def fetch_settings(
    opts: Options, given: FetchOptions, ledger: Ledger | None
) -> tuple[FetchPolicy, UrlMap, Workspace]:
    """The run's policy and URL map (see `claimledger.services.settings`)."""
    from claimledger.services import settings

    return settings.fetch_settings(opts.ledger, given, ledger, say)


def say(line: str) -> None:
    """A note or a warning on stderr, whole on its line."""
    err.print(line, markup=False)


def check_page_urls(urls: Sequence[str], option: str, policy: FetchPolicy) -> None:
    """Each URL given on the command line is an http(s) address, and a local one only where
    the policy allows it (--allow-private, or the settings): said before anything is
    fetched, with the fix, as bad input."""
    from claimledger.urls import host_and_port, is_web_url, names_local_address

    allowed = {host_and_port(origin) for origin in policy.private_origins}
    for url in urls:
        if not is_web_url(url):
            raise InputError(f"{option}{url!r} is not an http(s) URL with a host")
        if policy.allow_private or host_and_port(url) in allowed:
            continue
        if names_local_address(url):
            raise InputError(
                f"{option}{url} is a private or local address: add --allow-private to read "
                "a mirror or a local copy"
            )


def page_settings(
    opts: Options, given: FetchOptions, ledger: Ledger, option: str = "--url "
) -> tuple[FetchPolicy, UrlMap]:
    """The policy and URL map for reading the pages `given` names, each checked first."""
    policy, url_map, _ = fetch_settings(opts, given, ledger)
    check_page_urls(given.pages, option, policy)
    return policy, url_map


NoHistory = Annotated[
    bool,
    typer.Option(
        "--no-history",
        help="Do not read the history of a quote not found as written in the docs' git "
        "repository (the source's repo, or the page's edit link). Setting: history = false.",
    ),
]
