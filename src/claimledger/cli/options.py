"""Options that several commands share, and the fetch settings they add up to."""

from __future__ import annotations

from typing import Annotated

import typer

from claimledger.cli.app import Options, err
from claimledger.config import FetchOptions, fetch_policy, read_config, url_map
from claimledger.records import DEFAULT_POLICY, FetchPolicy
from claimledger.urls import UrlMap

AsJson = Annotated[bool, typer.Option("--json", help="Print JSON instead of tables.")]
ClaimIds = Annotated[
    list[str] | None, typer.Argument(metavar="CLAIM", help="Claims (default: all).")
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


def fetch_settings(opts: Options, given: FetchOptions) -> tuple[FetchPolicy, UrlMap]:
    """The run's policy and URL map: the command's options, then claimledger.toml beside
    the ledger, then the defaults. Not respecting robots.txt is said out loud."""
    config = read_config(opts.home)
    policy = fetch_policy(config, given, DEFAULT_POLICY)
    if not policy.respect_robots:
        where = "--ignore-robots" if given.ignore_robots else f"robots = false in {config.path}"
        err.print(
            f"claimledger: warning: robots.txt is not respected ({where}): read only sites "
            "whose owners allow it",
            markup=False,
        )
    return policy, url_map(config, given)
