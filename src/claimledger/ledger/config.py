"""Settings that belong to a ledger rather than to one command: its mirrors and its manners.

A ledger read from a local mirror, or from a site that wants a particular user agent,
should not need the same options on every command. They live beside the ledger, in
`claimledger.toml`, or in the `[tool.claimledger]` table of a `pyproject.toml` there:

    map = { "https://docs.example.com/" = "http://127.0.0.1:8000/" }
    user_agent = "claimledger (+mailto:me@example.com)"
    headers = { "Accept-Language" = "en" }
    robots = true
    allow_private = false   # true: fetch private and loopback addresses (a local mirror)
    timeout = 20
    deadline = 30
    concurrency = 16
    per_host = 4
    interval = 0.05
    archive = "https://web.archive.org"   # the web archive `refresh` reads as-read copies from
    archive_window = 30                   # days from date_read a capture may be
    recover_candidates = 5                # pages of a site's sitemap read for a page gone
    history = true                        # refresh reads a quote's history in the docs' repository
    history_budget = 60                   # seconds of git a refresh may spend on it
    history_clone_mb = 500                # a larger clone is given up (and removed)

Options given on the command line win over these; `--map` rules are added to the file's.
Each number has a range (`LIMITS`), in the file and on the command line alike: a value
past it would stall a run (an interval of 1e308 seconds) or overflow a date (a window of
a billion days) rather than do anything a reader could want.
"""

from __future__ import annotations

import difflib
import math
import re
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from claimledger.errors import InputError
from claimledger.records import FetchPolicy, Header
from claimledger.urls import UrlMap, exact_origin, map_rule_problem, split, web_url_problem

CONFIG_FILE = "claimledger.toml"
DEFAULT_RECOVER_CANDIDATES = 5
"""Pages of a site's sitemap read at most for a source that went (relocate.py), unless
`recover_candidates` or --recover-candidates says otherwise."""
PYPROJECT = "pyproject.toml"
DEFAULT_HISTORY_BUDGET = 60.0
"""Seconds of git one refresh spends on quotes' histories, unless `history_budget` says."""
DEFAULT_HISTORY_CLONE_MB = 500
"""The size a docs repository's clone may reach, unless `history_clone_mb` says."""


@dataclass(frozen=True)
class Limit:
    """The range a numeric setting may take, from `least` (excluded when `above`) to `most`."""

    least: float
    most: float
    whole: bool = False
    unit: str = ""
    above: bool = False

    def problem(self, value: object) -> str | None:
        """What is wrong with `value` as this setting, or None when it is in range."""
        kind = (int,) if self.whole else (int, float)
        fits = (
            isinstance(value, kind)
            and not isinstance(value, bool)
            and not (isinstance(value, float) and not math.isfinite(value))
            and self._within(value)
        )
        return None if fits else f"must be {self.described()}"

    def _within(self, value: float) -> bool:
        low_ok = value > self.least if self.above else value >= self.least
        return low_ok and value <= self.most

    def described(self) -> str:
        """The range in words, as an error message says it (`LIMITS` shows each)."""
        noun = "a whole number" if self.whole else "a number"
        unit = f" of {self.unit}" if self.unit else ""
        low = f"more than {self.least:g}" if self.above else f"at least {self.least:g}"
        joint = ", " if self.unit else " of "
        return f"{noun}{unit}{joint}{low} and at most {self.most:g}"


LIMITS: Mapping[str, Limit] = {
    "timeout": Limit(0, 600, unit="seconds", above=True),
    "deadline": Limit(0, 3600, unit="seconds", above=True),
    "interval": Limit(0, 60, unit="seconds"),
    "concurrency": Limit(1, 256, whole=True),
    "per_host": Limit(1, 64, whole=True),
    "recover_candidates": Limit(1, 50, whole=True),  # relocate.py
    "archive_window": Limit(0, 3650, whole=True, unit="days"),  # as read (archive.py)
    "history_budget": Limit(0, 3600, unit="seconds", above=True),  # gitrepo.py
    "history_clone_mb": Limit(1, 100_000, whole=True, unit="megabytes"),
}
"""Every numeric setting's range: generous for any real site, and small enough that no
value stalls a run, overflows a date, or opens more connections than a machine has."""

_SWITCHES = ("robots", "allow_private", "history")
_KEYS = sorted({"map", "user_agent", "headers", "archive", *_SWITCHES} | set(LIMITS))


def check_option(key: str, value: float | None) -> None:
    """A numeric command-line option against its setting's range (None: not given)."""
    problem = None if value is None else LIMITS[key].problem(value)
    if problem is not None:
        raise InputError(f"--{key.replace('_', '-')} {value}: {problem}")


@dataclass(frozen=True)
class Config:
    """What the ledger's settings file says; None where it says nothing."""

    path: Path | None = None
    maps: tuple[str, ...] = ()
    user_agent: str | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    robots: bool | None = None
    allow_private: bool | None = None
    timeout: float | None = None
    deadline: float | None = None
    concurrency: int | None = None
    per_host: int | None = None
    interval: float | None = None
    archive: str | None = None
    archive_window: int | None = None
    recover_candidates: int | None = None
    history: bool | None = None
    history_budget: float | None = None
    history_clone_mb: int | None = None


def read_config(directory: Path) -> Config:
    """The settings beside a ledger: claimledger.toml, else pyproject.toml's table, else none."""
    own = directory / CONFIG_FILE
    if own.is_file():
        return _parse(own, _load(own))
    pyproject = directory / PYPROJECT
    if pyproject.is_file():
        tool = _load(pyproject).get("tool")  # another tool's file: read, never judged
        table = tool.get("claimledger") if isinstance(tool, dict) else None
        if isinstance(table, dict):
            return _parse(pyproject, table, prefix="tool.claimledger.")
    return Config()


def _load(path: Path) -> dict[str, Any]:
    try:
        return tomllib.loads(path.read_text("utf-8"))
    except OSError as error:
        raise InputError(f"{path}: cannot be read: {error.strerror}") from None
    except UnicodeDecodeError as error:
        raise InputError(f"{path}: not UTF-8 text (byte {error.start})") from None
    except tomllib.TOMLDecodeError as error:
        raise InputError(_located(path, str(error))) from None
    except ValueError as error:  # a number past the digits Python converts
        raise InputError(
            f"{path}: cannot be read as TOML: {' '.join(str(error).split())}"
        ) from None
    except RecursionError:
        raise InputError(f"{path}: cannot be read as TOML: nested too deeply") from None


_AT = re.compile(
    r"^(?P<what>.*?) \(at (?:line (?P<line>\d+), column (?P<col>\d+)|end of document)\)$"
)


def _located(path: Path, message: str) -> str:
    """tomllib's "Invalid value (at line 3, column 9)" as "FILE:3:9: invalid value"."""
    found = _AT.match(message)
    if found is None:
        return f"{path}: {message}"
    what = found["what"][:1].lower() + found["what"][1:]
    if found["line"] is None:  # "at end of document": the last line
        lines = path.read_text("utf-8").splitlines() or [""]
        return f"{path}:{len(lines)}:{len(lines[-1]) + 1}: {what} at the end of the file"
    return f"{path}:{found['line']}:{found['col']}: {what}"


def _parse(path: Path, table: Mapping[str, Any], prefix: str = "") -> Config:
    """The settings of `table`, or an error naming every setting that is wrong (one line:
    a user fixing the file sees them all at once, not one a run)."""
    values: dict[str, Any] = {}
    problems: list[str] = []
    for key, value in table.items():
        name = f"{prefix}{key}"
        if key not in _KEYS:
            close = difflib.get_close_matches(key, _KEYS, n=1)
            hint = f" (did you mean '{close[0]}'?)" if close else ""
            shown = name if name.isprintable() else repr(name)  # a key may hold a line break
            problems.append(f"{shown}: unknown setting{hint}")
            continue
        try:
            values["maps" if key == "map" else key] = _value(f"{path}: {name}", key, value)
        except InputError as error:
            problems.append(str(error).removeprefix(f"{path}: "))
    if problems:
        known = f"; settings: {', '.join(_KEYS)}" if any("unknown" in p for p in problems) else ""
        raise InputError(f"{path}: {'; '.join(problems)}{known}")
    return Config(path=path, **values)


def _value(name: str, key: str, value: Any) -> Any:
    if key == "map":
        return _maps(name, value)
    if key == "headers":
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise InputError(f"{name}: must be a table of header names and text values")
        return dict(_header(f"{name}: {header!r}", header, text) for header, text in value.items())
    if key in _SWITCHES:
        if not isinstance(value, bool):
            raise InputError(f"{name}: must be true or false")
        return value
    if key == "user_agent":
        if not isinstance(value, str) or not value.strip():
            raise InputError(f"{name}: must be a non-empty string")
        return _header_value(name, value)
    if key == "archive":
        return _archive(name, value)
    limit = LIMITS[key]
    problem = limit.problem(value)
    if problem is not None:
        raise InputError(f"{name}: {problem}")
    return value if limit.whole else float(value)


def _archive(name: str, value: Any) -> str:
    """The archive's base URL, a web URL: said here, as `check` reads the file, not first by
    the refresh that would ask it, as an `--archive` the user never typed."""
    if not isinstance(value, str) or not value.strip():
        raise InputError(f"{name}: must be the archive's base URL")
    if (problem := web_url_problem(value.strip())) is not None:
        raise InputError(f"{name}: {value.strip()!r} {problem}")
    return value.strip()


def _maps(name: str, value: Any) -> tuple[str, ...]:
    """`map` as a table of prefix = replacement, or a list of "PREFIX=REPLACEMENT"; each
    side a web URL, said here (as `check` reads the file), not first by the run that
    would fetch through it."""
    if isinstance(value, dict) and all(isinstance(v, str) for v in value.values()):
        rules = tuple(f"{prefix}={replacement}" for prefix, replacement in value.items())
    elif isinstance(value, list) and all(isinstance(v, str) for v in value):
        rules = tuple(value)
    else:
        raise InputError(f'{name}: must be a table of "prefix" = "replacement"')
    for rule in rules:
        if (problem := map_rule_problem(rule)) is not None:
            raise InputError(f"{name}: {rule!r}: {problem}")
    return rules


# --------------------------------------------------------------------------- with the options


@dataclass(frozen=True)
class FetchOptions:
    """What a command's options say about fetching; None (or empty) where they say nothing."""

    timeout: float | None = None
    deadline: float | None = None
    concurrency: int | None = None
    per_host: int | None = None
    interval: float | None = None
    user_agent: str | None = None
    headers: tuple[str, ...] = ()
    header_origins: tuple[str, ...] = ()
    """--header-for: the origins the --header values go to."""
    pages: tuple[str, ...] = ()
    """The pages the command reads, as the ledger (or the command line) names them: the
    sites the settings' headers go to, and --header's when --header-for names none."""
    maps: tuple[str, ...] = ()
    ignore_robots: bool = False
    allow_private: bool = False
    browser: bool = False
    """--browser: read every page in a browser, once its scripts ran."""


def fetch_policy(config: Config, options: FetchOptions, base: FetchPolicy) -> FetchPolicy:
    """The policy of a run: the options, then the ledger's settings, then `base`."""
    check_option("timeout", options.timeout)
    check_option("deadline", options.deadline)
    check_option("concurrency", options.concurrency)
    check_option("per_host", options.per_host)
    check_option("interval", options.interval)

    def pick(option: Any, setting: Any, default: Any) -> Any:
        return option if option is not None else setting if setting is not None else default

    policy = replace(
        base,
        timeout=pick(options.timeout, config.timeout, base.timeout),
        deadline=pick(options.deadline, config.deadline, base.deadline),
        concurrency=pick(options.concurrency, config.concurrency, base.concurrency),
        per_host=pick(options.per_host, config.per_host, base.per_host),
        per_host_interval=pick(options.interval, config.interval, base.per_host_interval),
        user_agent=pick(options.user_agent, config.user_agent, base.user_agent),
        headers=_scoped_headers(config, options),
        respect_robots=not options.ignore_robots and config.robots is not False,
        allow_private=options.allow_private or config.allow_private is True,
        browser_all=options.browser,
    )
    if not policy.user_agent.strip():
        raise InputError("--user-agent must not be empty")
    if options.user_agent is not None:
        _header_value("--user-agent", options.user_agent)
    return policy


def url_map(config: Config, options: FetchOptions) -> UrlMap:
    """The `--map` rules of the command line and of the ledger's settings."""
    return UrlMap.parse([*options.maps, *config.maps])


_HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
_HEADER_VALUE = re.compile(r"[\t\x20-\x7e]*")
_FETCHERS_OWN = frozenset(
    {
        "accept-encoding", "connection", "content-length", "host", "if-modified-since",
        "if-none-match", "keep-alive", "te", "trailer", "transfer-encoding", "upgrade",
    }
)  # fmt: skip
"""Headers the fetcher sets itself (the encodings it decodes, the validators of the very URL
asked, the message's framing): one given from outside would make it misread the answer."""


def _scoped_headers(config: Config, options: FetchOptions) -> tuple[Header, ...]:
    """Each extra header, with the only origins it goes to. The settings' go to the sites of
    the pages the command reads, as named (not a mirror `map` reads them from). --header's
    go to the origins --header-for names, else to the one site the pages are on: with
    pages on several sites, a header that may be a credential for one is refused rather
    than sent to them all."""
    sites = frozenset(site for site in map(exact_origin, options.pages) if site is not None)
    given = _headers(options.headers)
    named = frozenset(_origin(text) for text in options.header_origins)
    if named and not given:
        raise InputError("--header-for names where the --header values go: give a --header")
    if given and not named and len(sites) > 1:
        listed = ", ".join(sorted(sites)[:3]) + (", …" if len(sites) > 3 else "")
        raise InputError(
            f"--header would go to {len(sites)} sites ({listed}): name the one it is for "
            "with --header-for ORIGIN"
        )
    return (
        *(Header(name, value, sites) for name, value in config.headers.items()),
        *(Header(name, value, named or sites) for name, value in given.items()),
    )


def unmatched_header_origins(options: FetchOptions) -> list[str]:
    """Each origin --header-for names that no page the command reads is on: its headers go
    nowhere, and a user who mistyped the site (or named the mirror a `--map` reads it from)
    would think their token was sent."""
    sites = {site for site in map(exact_origin, options.pages) if site is not None}
    named = dict.fromkeys(_origin(text) for text in options.header_origins)
    return [site for site in named if site not in sites]


def _headers(specs: tuple[str, ...]) -> dict[str, str]:
    """The --header values by name. An error names the header, never its value: that is
    most often a token, and an error line is printed to a terminal or a CI job's log."""
    headers: dict[str, str] = {}
    for spec in specs:
        name, colon, value = spec.partition(":")
        if not colon or not _HEADER_NAME.fullmatch(name.strip()):
            raise InputError("--header: expected 'Name: value' (what was given is not shown)")
        where = f"--header '{name.strip()}: …'"
        headers.update([_header(where, name.strip(), value.strip())])
    return headers


def _header(where: str, name: str, value: str) -> tuple[str, str]:
    """A header as given, if it can be sent as it is (else a one-line error naming `where`)."""
    if not _HEADER_NAME.fullmatch(name):
        raise InputError(f"{where}: {name!r} is not a header name")
    _header_value(where, value)
    if name.lower() in _FETCHERS_OWN:
        raise InputError(f"{where}: {name} is the fetcher's own to set")
    return name, value


def _header_value(where: str, value: str) -> str:
    """`value` if a header can carry it as it is (the User-Agent too): printable ASCII on
    one line. Anything else is refused as input, naming `where`, before a page is asked
    for: sent, it would fail every fetch as a refused source."""
    if not _HEADER_VALUE.fullmatch(value):
        raise InputError(f"{where}: the value must be printable ASCII on one line")
    return value


def _origin(text: str) -> str:
    """An origin as --header-for takes it: `https://host[:port]`, `http://…`, or a bare
    `host[:port]`, which means https."""
    url = text.strip() if "://" in text else f"https://{text.strip()}"
    parts = split(url)
    site = exact_origin(url)
    if (
        parts is None
        or site is None
        or parts.path not in ("", "/")
        or parts.query
        or parts.fragment
        or "@" in parts.netloc
    ):
        raise InputError(
            f"--header-for {text!r}: expected an origin, such as https://docs.example.com "
            "or docs.example.com:8443"
        )
    return site
