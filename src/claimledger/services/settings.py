"""A run's settings: the command's options, then claimledger.toml beside the ledger as far
as the workspace is trusted, then the defaults. A cloned checkout is somebody else's:
what it asks beyond the defaults (private addresses, a map, another archive, robots.txt
set aside, its own templates) is honoured only once the user trusted it."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from claimledger.errors import InputError

if TYPE_CHECKING:
    from claimledger.ledger.config import Config, FetchOptions
    from claimledger.ledger.model import Ledger, Source
    from claimledger.records import FetchPolicy
    from claimledger.urls import UrlMap

Say = Callable[[str], None]
"""Where a setting set aside, or a rule relaxed, is said (the command line's stderr)."""


@dataclass(frozen=True)
class Workspace:
    """The ledger's settings as this run honours them: `trusted` when what the checkout
    asks beyond the defaults is honoured (the user trusted it, or it asks nothing)."""

    config: Config
    trusted: bool


def workspace(
    ledger_path: Path, ledger: Ledger | None, say: Say, *, templates: bool = False
) -> Workspace:
    """claimledger.toml beside the ledger, and the ledger's own marks, as far as the user
    trusted them (`claimledger trust`); what this use (`templates`, else fetching) loses
    for want of trust is said."""
    from claimledger.ledger.config import read_config
    from claimledger.urls import UrlMap
    from claimledger.workspace.trust import (
        LOCAL_FOLDER,
        TEMPLATES,
        Consent,
        asks_of,
        refuse_foreign,
        settings_consent,
        without_asks,
    )

    home = ledger_path.parent
    config = read_config(home)
    if config.path is not None:
        refuse_foreign(config.path)
    UrlMap.parse(list(config.maps))  # a setting in error is said, trusted or not
    asks = asks_of(config, ledger, home)
    consent = settings_consent(ledger_path, asks)
    if consent is Consent.TRUSTED:
        return Workspace(config, trusted=True)
    lost = [  # (a local repository is refused where it would be read, not dropped)
        ask
        for ask in asks
        if ask.startswith(f"{TEMPLATES}/") == templates and not ask.endswith(LOCAL_FOLDER)
    ]
    if lost:
        why = {
            Consent.CHANGED: "changed since you trusted it",
            Consent.OLDER: "trusted with an older claimledger, which kept your word in "
            "another form, and asked again",
        }.get(consent, "not trusted")
        say(
            f"claimledger: note: this workspace is {why}, so not honoured: {'; '.join(lost)} "
            "(`claimledger trust --list` shows what it asks; `claimledger trust` allows it)"
        )
    return Workspace(without_asks(config), trusted=False)


def fetch_settings(
    ledger_path: Path, given: FetchOptions, ledger: Ledger | None, say: Say
) -> tuple[FetchPolicy, UrlMap, Workspace]:
    """The run's policy and URL map (see the module). Not respecting robots.txt is said
    out loud. A command that asks for them fetches next: the CA bundle begins to be read."""
    from claimledger.ledger.config import fetch_policy, unmatched_header_origins, url_map
    from claimledger.records import DEFAULT_POLICY
    from claimledger.web.exchange import read_trust_soon

    read_trust_soon()
    honoured = workspace(ledger_path, ledger, say)
    config = honoured.config
    policy = fetch_policy(config, given, DEFAULT_POLICY)
    for site in unmatched_header_origins(given):
        say(
            f"claimledger: warning: --header-for {site} is the site of no page this command "
            "reads: its --header goes there only if a page redirects there"
        )
    if not policy.respect_robots:
        where = "--ignore-robots" if given.ignore_robots else f"robots = false in {config.path}"
        say(
            f"claimledger: warning: robots.txt is not respected ({where}): read only sites "
            "whose owners allow it"
        )
    mapped = url_map(config, given)
    if ledger is not None and honoured.trusted:
        policy = _with_private_sources(ledger, policy, mapped)
    if ledger is not None:
        policy = _with_browser_pages(ledger, policy, mapped)
    if policy.browser_all or policy.browser_pages:
        from claimledger.web.browser import browser_missing

        if (missing := browser_missing()) is not None:
            raise InputError(missing)
    return replace(policy, maps=mapped.rules), mapped, honoured


def page_settings(
    ledger_path: Path, given: FetchOptions, ledger: Ledger | None, say: Say, option: str
) -> tuple[FetchPolicy, UrlMap]:
    """The policy and URL map for reading the pages `given` names, each checked first."""
    policy, url_map, _ = fetch_settings(ledger_path, given, ledger, say)
    _check_page_urls(given.pages, option, policy)
    return policy, url_map


def _check_page_urls(urls: Sequence[str], option: str, policy: FetchPolicy) -> None:
    """Each URL given on the command line is an http(s) address, and a local one only where
    the policy allows it (--allow-private, or the settings): said before anything is
    fetched, with the fix, as bad input."""
    from claimledger.urls import host_and_port, names_local_address, web_url_problem

    allowed = {host_and_port(origin) for origin in policy.private_origins}
    for url in urls:
        if (problem := web_url_problem(url)) is not None:
            raise InputError(f"{option}{url!r} {problem}")
        if policy.allow_private or host_and_port(url) in allowed:
            continue
        if names_local_address(url):
            raise InputError(
                f"{option}{url} is a private or local address: add --allow-private to read "
                "a mirror or a local copy"
            )


def _with_browser_pages(ledger: Ledger, policy: FetchPolicy, url_map: UrlMap) -> FetchPolicy:
    """The policy, reading each source marked `render: browser` in a browser (at the
    address it is fetched from), waiting for its `wait_for` selector if it names one; and
    any other source naming a `wait_for`, where `--browser` reads every page; and the
    `select` each page is read through, whose region alone must settle there."""
    from claimledger.urls import fetch_target

    def fetched_at(source: Source) -> str:
        return fetch_target(url_map.apply(source.url))[0]

    sources = ledger.sources.values()
    pages = tuple((fetched_at(s), s.wait_for) for s in sources if s.render == "browser")
    waits = tuple(
        (fetched_at(s), s.wait_for) for s in sources if s.render != "browser" and s.wait_for
    )  # `--browser` reads them too, and waits as they say
    selects = (
        tuple((fetched_at(s), s.select or "") for s in sources)
        if any(s.select is not None for s in sources)
        else ()
    )  # "": a source reads the whole page, all of whose text must settle
    if not pages and not waits and not selects:
        return policy
    return replace(policy, browser_pages=pages, browser_waits=waits, browser_selects=selects)


def _with_private_sources(ledger: Ledger, policy: FetchPolicy, url_map: UrlMap) -> FetchPolicy:
    """The policy, letting each source marked `allow_private` be fetched where it is (or
    where --map sends it)."""
    from claimledger.urls import origin

    marked = sorted(source.id for source in ledger.sources.values() if source.allow_private)
    if not marked or policy.allow_private:
        return policy
    origins = {origin(url_map.apply(ledger.sources[sid].url)) for sid in marked}
    return replace(policy, private_origins=policy.private_origins | origins)
