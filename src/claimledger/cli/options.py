"""Options that several commands share, and the fetch settings they add up to."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Annotated

import typer

from claimledger.cli.app import Options, refuse_foreign
from claimledger.cli.completion import complete_claims, complete_sources
from claimledger.errors import InputError
from claimledger.ledger.vocabulary import CLAIM_KINDS, Basis, Grade
from claimledger.terminal.output import err

if TYPE_CHECKING:  # the core loads where a command uses it
    from claimledger.ledger.config import Config, FetchOptions
    from claimledger.ledger.model import Ledger
    from claimledger.records import FetchPolicy
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
IgnoreRobots = Annotated[
    bool,
    typer.Option(
        "--ignore-robots",
        help="Fetch pages that robots.txt disallows for us (only for a site you may read so).",
    ),
]


@dataclass(frozen=True)
class Workspace:
    """The ledger's settings as this run honours them: `trusted` when what the checkout
    asks beyond the defaults is honoured (the user trusted it, or it asks nothing)."""

    config: Config
    trusted: bool


def workspace(opts: Options, ledger: Ledger | None, *, templates: bool = False) -> Workspace:
    """claimledger.toml beside the ledger, and the ledger's own marks: what widens what
    claimledger may reach (private addresses, a map, another archive, robots.txt set
    aside) or what it renders with (templates/) is honoured only once the user trusted
    it (`claimledger trust`), since a cloned checkout is somebody else's. What this use
    (`templates`, else fetching) loses for want of trust is said."""
    from claimledger.ledger.config import read_config
    from claimledger.urls import UrlMap
    from claimledger.workspace.trust import (
        TEMPLATES,
        Consent,
        asks_of,
        settings_consent,
        without_asks,
    )

    config = read_config(opts.home)
    if config.path is not None:
        refuse_foreign(config.path)
    UrlMap.parse(list(config.maps))  # a setting in error is said, trusted or not
    asks = asks_of(config, ledger, opts.home)
    consent = settings_consent(opts.ledger, asks)
    if consent is Consent.TRUSTED:
        return Workspace(config, trusted=True)
    lost = [ask for ask in asks if ask.startswith(f"{TEMPLATES}/") == templates]
    if lost:
        why = "changed since you trusted it" if consent is Consent.CHANGED else "not trusted"
        err.print(
            f"claimledger: note: this workspace is {why}, so not honoured: {'; '.join(lost)} "
            "(`claimledger trust --list` shows what it asks; `claimledger trust` allows it)",
            markup=False,
        )
    return Workspace(without_asks(config), trusted=False)


def fetch_settings(
    opts: Options, given: FetchOptions, ledger: Ledger | None
) -> tuple[FetchPolicy, UrlMap, Workspace]:
    """The run's policy and URL map: the command's options, then claimledger.toml beside
    the ledger as far as it is honoured (see `workspace`), then the defaults. Not
    respecting robots.txt is said out loud. A command that asks for them fetches next:
    the CA bundle begins to be read."""
    from claimledger.ledger.config import fetch_policy, url_map
    from claimledger.records import DEFAULT_POLICY
    from claimledger.web.exchange import read_trust_soon

    read_trust_soon()
    honoured = workspace(opts, ledger)
    config = honoured.config
    policy = fetch_policy(config, given, DEFAULT_POLICY)
    if not policy.respect_robots:
        where = "--ignore-robots" if given.ignore_robots else f"robots = false in {config.path}"
        warn(f"robots.txt is not respected ({where}): read only sites whose owners allow it")
    mapped = url_map(config, given)
    if ledger is not None and honoured.trusted:
        policy = _with_private_sources(ledger, policy, mapped)
    return replace(policy, maps=mapped.rules), mapped, honoured


def _with_private_sources(ledger: Ledger, policy: FetchPolicy, url_map: UrlMap) -> FetchPolicy:
    """The policy, letting each source marked `allow_private` be fetched where it is (or
    where --map sends it)."""
    from claimledger.urls import origin

    marked = sorted(source.id for source in ledger.sources.values() if source.allow_private)
    if not marked or policy.allow_private:
        return policy
    origins = {origin(url_map.apply(ledger.sources[sid].url)) for sid in marked}
    return replace(policy, private_origins=policy.private_origins | origins)


def warn(message: str) -> None:
    err.print(f"claimledger: warning: {message}", markup=False)


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
