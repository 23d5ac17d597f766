"""URL policy, in one place: which URLs the tool fetches and links, what a ledger URL is
fetched as, how redirects may go, how mirrors rewrite addresses, and how any URL is shown.

* Only http and https with a host and a well-formed port are web URLs (the ledger's
  check and the fetcher use this same test).
* A GitHub `blob/` page is read as its raw file; a `#L10-L40` anchor narrows the lines.
* A redirect never goes to another scheme, from https down to http, round a loop, or on
  past the budget; a trailing slash or http->https on one host is no move.
* `--map PREFIX=REPLACEMENT` reads a ledger's pages from a mirror or a local copy.
* A URL is shown without credentials and with secret-looking query values redacted, so
  a report, a table or a JSON listing never republishes a token that sat in a ledger or
  a redirect.
"""

from __future__ import annotations

import functools
import re
import urllib.parse
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Literal
from urllib.parse import SplitResult, urljoin, urlsplit, urlunsplit

from claimledger.addresses import address_named, is_public, names_an_address
from claimledger.errors import InputError
from claimledger.records import Hop

WEB_SCHEMES = frozenset({"http", "https"})

_SECRET_PARAMETER = re.compile(
    r"(token|secret|passw(or)?d|pwd|api[-_]?key|access[-_]?key|signature|credential|"
    r"session|sessid|jwt|hmac|ticket|verifier|passcode|passphrase|auth[-_]?key|otp|"
    r"^auth$|^sig$|^key$|^pass$|^sid$|^code$|^nonce$)",
    re.IGNORECASE,
)
_URL_SAFE = ":/?#[]@!$&*+,;=%-._~"
"""Characters left as they are in a URL; everything else is percent-encoded, so that a URL
is safe in a Markdown link destination and in an HTML attribute."""


_NOT_WEB_URL = "is not an http(s) URL with a host"


def is_web_url(url: str) -> bool:
    """http(s), with a host that is a name or an address, and a well-formed port."""
    return web_url_problem(url) is None


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*(?=:)")
"""A URL's scheme as written, up to its colon (RFC 3986 §3.1)."""


def lower_scheme(url: str) -> str:
    """`url` with its scheme in lower case, the one spelling a URL is kept, compared and
    fetched in: case is no part of a scheme (RFC 3986 §3.1), so `HTTPS://host/` is the
    page `https://host/` is, and a test of the scheme as text must see it so."""
    return _SCHEME.sub(lambda written: written[0].lower(), url, count=1)


_AUTHORITY = re.compile(r"^(?P<scheme>[A-Za-z][A-Za-z0-9+.-]*://)(?P<authority>[^/?#]*)")
"""A URL's scheme and authority as written, up to its path, query or fragment."""


def lower_scheme_and_host(url: str) -> str:
    """`url` with its scheme and host in lower case (`HTTPS://Docs.Example/A` is
    `https://docs.example/A`), its path as written: the one spelling an address is taken
    in, from the ledger, the command line, a redirect or a sitemap, and so kept, compared
    and fetched in. Case is no part of a scheme or a host (RFC 3986 §3.1, §3.2.2), so
    either in capitals names the same page, robots.txt and `--map` prefix."""
    written = _AUTHORITY.match(url)
    if written is None:
        return lower_scheme(url)
    userinfo, at, host = written["authority"].rpartition("@")
    authority = userinfo + at + host.lower()
    return written["scheme"].lower() + authority + url[written.end() :]


def web_url_problem(url: str) -> str | None:
    """Why `url` is no web URL (said after it: "'…' is not an http(s) URL with a host"),
    or None if it is one."""
    parts = split(url)
    if parts is None or parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        return _NOT_WEB_URL
    bad = next((label for label in parts.hostname.split(".") if not _decodes(label)), None)
    if bad is not None:
        return f"names a host whose label {bad!r} is not a valid internationalised name"
    return None


def _decodes(label: str) -> bool:
    """A label written in Punycode ("xn--…") must decode to a name IDNA allows: the HTTP
    client cannot name a host whose label does not, and a page or a redirect may give one."""
    if not label.lower().startswith("xn--"):
        return True
    import idna  # the HTTP client's own; loaded only for a host written in Punycode

    try:
        idna.decode(label)
    except (idna.IDNAError, UnicodeError, ValueError):
        return False
    return True


_SPECIAL_USE = (
    "localhost", "local", "test", "example", "invalid", "internal", "home.arpa",
    "example.com", "example.net", "example.org",
)  # fmt: skip
"""Names that never stand for a public site (RFC 2606, 6761, 6762, 8375; ICANN's .internal)."""


def names_public_site(url: str) -> bool:
    """Does `url` name a public site: a host that is not a loopback, private or otherwise
    non-global address, nor a special-use name (localhost, .test, example.com, ...)?
    Read from the URL alone: nothing is resolved."""
    parts = split(url)
    host = (parts.hostname or "").rstrip(".").lower() if parts is not None else ""
    if not host:
        return False
    if names_an_address(host):
        address = address_named(host)
        return address is not None and is_public(address)
    return not any(host == name or host.endswith(f".{name}") for name in _SPECIAL_USE)


def names_local_repository(repo: str) -> bool:
    """Does a source's `repo` name a git repository on this machine (a path, or a file://
    address) rather than one on the web? Reading it is the user's to allow."""
    return "://" not in repo or repo.startswith("file://")


def names_local_address(url: str) -> bool:
    """Does `url` name loopback, a private range or another non-global address as such (an
    IP literal or localhost)? Read from the URL alone: a name that resolves there is only
    known when it is resolved."""
    parts = split(url)
    host = (parts.hostname or "").rstrip(".").lower() if parts is not None else ""
    if host == "localhost" or host.endswith(".localhost"):
        return True
    address = address_named(host) if names_an_address(host) else None
    return address is not None and not is_public(address)


def safe_url(url: str | None) -> str | None:
    """`url` fit to print and to link: http(s) with a host, no `user:pass@`, secret-looking
    query values replaced by REDACTED, unsafe characters percent-encoded; else None."""
    if not url or not is_web_url(url.strip()):
        return None
    parts = urllib.parse.urlsplit(url.strip())
    host = parts.hostname or ""
    netloc = f"[{host}]" if ":" in host else host
    if parts.port is not None:
        netloc += f":{parts.port}"
    query = _redact_pairs(parts.query)
    clean = urllib.parse.urlunsplit((parts.scheme.lower(), netloc, parts.path, query, ""))
    shown = urllib.parse.quote(clean, safe=_URL_SAFE)
    if parts.fragment or url.rstrip().endswith("#"):
        fragment = _redact_pairs(parts.fragment)  # `#access_token=…` is a secret too
        shown += "#" + urllib.parse.quote(fragment, safe=_FRAGMENT_SAFE)
    return shown


_FRAGMENT_SAFE = _URL_SAFE.replace("#", "")
"""A fragment's characters left as they are: a `#` in it is encoded (RFC 3986 has none
there), so no shown URL holds `##[`, which a GitHub Actions runner obeys as a workflow
command wherever a line of its log holds it (`##[stop-commands]…` would silence every
annotation after it)."""


def encoded_url(url: str) -> str | None:
    """`url` with each character a URL may not hold as it is (a quote, a space, an angle
    bracket, a control, any non-ASCII) percent-encoded: the form an address from elsewhere
    (an archive's answer) is kept, linked and fetched in. None when even that is no web URL."""
    encoded = urllib.parse.quote(url.strip(), safe=_URL_SAFE)
    return encoded if is_web_url(encoded) else None


def has_secrets(url: str) -> bool:
    """Whether showing `url` as written would show credentials or a secret-looking value."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return False
    redacted = (_redact_pairs(parts.query), _redact_pairs(parts.fragment))
    return "@" in parts.netloc or redacted != (parts.query, parts.fragment)


def was_redacted(url: str) -> bool:
    """Whether `url` is the safe form `redacted` made of one with a secret (a secret-named
    value that reads REDACTED): the evidence store keeps only that form, and it is no page's
    address, so none to write into a ledger."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return False
    pairs = (pair.partition("=") for pair in f"{parts.query}&{parts.fragment}".split("&"))
    return any(
        value == "REDACTED" and _SECRET_PARAMETER.search(urllib.parse.unquote_plus(name))
        for name, _, value in pairs
    )


@functools.lru_cache(maxsize=8192)
def redacted(url: str) -> str:
    """`url` as it may be kept and compared: as written, unless showing it would show a
    secret (`user:pass@`, a token in the query), then its safe form. The evidence store
    keeps only this form, so every lookup of a URL in it goes through this function
    (remembered: a refresh compares each page's address with every source's)."""
    return (safe_url(url) or url) if has_secrets(url) else url


@functools.lru_cache(maxsize=8192)
def shown(url: str | None) -> str:
    """A URL as printed for a person: its safe form, or a placeholder for one we won't show
    (remembered: a refresh's output shows each page's address for every quote on it)."""
    if url is None:
        return ""
    return safe_url(url) or "(not an http(s) URL)"


_URL_IN_TEXT = re.compile(
    r"(?:https?://|(?<![\w.@/:-])//(?=\w)|(?<![\w.@/-])www\.)[^\s<>\"'`()\[\]]+", re.IGNORECASE
)
"""An http(s) URL in free text, or one with no scheme a reader follows all the same: `//host/`
(its page's scheme), `www.example.org/?api_key=…` (GitHub's Markdown links it)."""


def redact_urls(text: str) -> str:
    """Free text with every http(s) URL in it that would show a secret shown redacted
    (the others stay exactly as written)."""

    def redacted(match: re.Match[str]) -> str:
        url = match.group(0)
        added = "http:" if url.startswith("//") else "http://" if url[:4].lower() == "www." else ""
        whole = f"{added}{url}"
        if not has_secrets(whole):
            return url
        safe = safe_url(whole) or _unparsed_redacted(whole)  # a port past 65535 parses not
        return safe.removeprefix(added)

    return _URL_IN_TEXT.sub(redacted, text)


def redacted_text(text: str) -> str:
    """A message fit to print: each http(s) URL in it as `redact_urls` shows it, and the
    `user:pass@` of an address of any other scheme (`ssh://`, a URL too broken to parse)
    left out. An error names what the user typed or what the ledger holds, and either may
    carry a password."""
    return _USERINFO.sub("", redact_urls(text))


def has_credentials(url: str) -> bool:
    """Whether `url` names a user or a password before its host (`user:pass@host`)."""
    try:
        return "@" in urllib.parse.urlsplit(url.strip()).netloc
    except ValueError:
        return "@" in url.partition("://")[2].split("/", 1)[0]


_WITHOUT_CREDENTIALS = {
    "url": "give the address without them, and send them as a header when the page is read "
    "(--header 'Authorization: Basic ...', with --header-for ORIGIN)",
    "repo": "give the address of a repository that needs none (git runs with no prompt and "
    "no credential helper)",
}


def refuse_credentials(option: str, value: str, *, kind: Literal["url", "repo"] = "url") -> None:
    """A URL written into the ledger holds no user name or password: the ledger is the
    file people commit and publish, so whoever reads it would have them. Refused before
    anything is fetched or written, naming the way to give them that keeps them out."""
    if not has_credentials(value):
        return
    where = shown(value) if is_web_url(value) else shown_raw(value)
    raise InputError(
        f"{option} {where} holds a user name or password, and the ledger is a file people "
        f"commit: {_WITHOUT_CREDENTIALS[kind]}"
    )


def _unparsed_redacted(url: str) -> str:
    """An address no parser takes, without its `user:pass@` (up to the last `@` before its
    path, as a parser reads it) or the values of its secret-looking parameters, in its
    query or its fragment, whatever else is wrong with it."""
    scheme, sep, rest = url.partition("://")
    end = min((i for i in map(rest.find, "/?#") if i >= 0), default=len(rest))
    rest, hash_, fragment = rest[end:].partition("#")
    path, mark, query = rest.partition("?")
    host = url[len(scheme) + len(sep) :][:end].rpartition("@")[2]
    tail = f"{mark}{_redact_pairs(query)}{hash_}{_redact_pairs(fragment)}"
    return f"{scheme}{sep}{host}{path}{tail}"


def _redact_pairs(pairs: str) -> str:
    return "&".join(_redact(pair) for pair in pairs.split("&")) if pairs else ""


def _redact(pair: str) -> str:
    name, equals, _value = pair.partition("=")
    if equals and _SECRET_PARAMETER.search(urllib.parse.unquote_plus(name)):
        return f"{name}=REDACTED"
    return pair


def is_trivial_move(old: str, new: str) -> bool:
    """The same page at a tidier address: a trailing slash added or dropped, or http upgraded
    to https on the same host. Such a redirect is shown, but it is no move of the page."""
    try:
        a, b = urllib.parse.urlsplit(old), urllib.parse.urlsplit(new)
        a_port = a.port or DEFAULT_PORTS.get(a.scheme.lower())
        b_port = b.port or DEFAULT_PORTS.get(b.scheme.lower())
    except ValueError:
        return False
    schemes = (a.scheme.lower(), b.scheme.lower())
    if schemes[0] != schemes[1] and schemes != ("http", "https"):
        return False
    if schemes[0] == schemes[1] and a_port != b_port:
        return False
    if schemes == ("http", "https") and (a.port or b.port) and a.port != b.port:
        return False
    same_host = (a.hostname or "").lower() == (b.hostname or "").lower()
    same_path = (a.path.rstrip("/") or "/") == (b.path.rstrip("/") or "/")
    return same_host and same_path and a.query == b.query and old != new


# --------------------------------------------------------------------------- fetching

_GITHUB_HOSTS = frozenset({"github.com", "www.github.com"})
_GITHUB_BLOB = re.compile(r"^/(?P<owner>[^/]+)/(?P<repo>[^/]+)/blob/(?P<rest>.+)$")
_LINE_ANCHOR = re.compile(r"^L(?P<first>\d+)(?:-L?(?P<last>\d+))?$")


def fetch_target(url: str) -> tuple[str, tuple[int, int] | None]:
    """Map a ledger URL to the URL to request, and the line range its anchor names.

    A GitHub `blob/` page is an HTML viewer around the file; its raw form is the file
    itself, which is what a quote from source code was taken from. A `#L10-L40` (or
    `#L10`) anchor names the lines a quote lives in, on any host; other fragments are
    dropped because servers never see them.
    """
    base, _, fragment = url.partition("#")
    line_range = line_range_of(fragment)
    parts = split(base)
    if parts is None:
        return base, line_range
    blob = _GITHUB_BLOB.match(parts.path)
    if parts.scheme in WEB_SCHEMES and (parts.hostname or "") in _GITHUB_HOSTS and blob:
        raw = f"https://raw.githubusercontent.com/{blob['owner']}/{blob['repo']}/{blob['rest']}"
        return raw, line_range
    return base, line_range


def page_key(url: str) -> tuple[str, tuple[int, int] | None]:
    """What makes two ledger URLs one source: the page fetched (a fragment other than a
    line range, and a trailing slash, change nothing) and the lines it names."""
    target, lines = fetch_target(url)
    parts = urlsplit(target)
    path = parts.path.rstrip("/") or "/"
    key = urlunsplit((parts.scheme.lower(), _server_of(parts), path, parts.query, ""))
    return key, lines


def page_key_either_scheme(url: str) -> tuple[str, tuple[int, int] | None]:
    """`page_key`, http and https of one host and path on their default ports alike: a
    site serves one page at both, or sends one to the other (a port named keeps them
    apart: one port serves one scheme)."""
    key, lines = page_key(url)
    if key.startswith("http://") and urlsplit(key).port is None:
        key = "https://" + key.removeprefix("http://")
    return key, lines


def _server_of(parts: SplitResult) -> str:
    """The host and port of a page in the one spelling its server answers to: the host as
    DNS resolves it (`ascii_host`: lowercase, Punycode, no final dot) and the port only
    when it is not the scheme's default, so `https://bücher.example:443/a` and
    `https://xn--bcher-kva.example/a` are one page, not two sources of one publisher."""
    try:
        port = parts.port
    except ValueError:  # not a web URL: kept as written
        return parts.netloc.lower()
    host = ascii_host(parts.hostname or "")
    host = f"[{host}]" if ":" in host else host
    return host if port in (None, DEFAULT_PORTS.get(parts.scheme.lower())) else f"{host}:{port}"


_CODE_SUFFIXES = (".py", ".rs", ".go", ".ts", ".tsx", ".js", ".java", ".c", ".h", ".cc", ".rb")


def kind_of_page(url: str) -> str:
    """What a source probably is, from its address: a blog post, a changelog or release
    notes, a source file, else the docs (`add` says what it chose; `source --kind` sets it)."""
    parts = urlsplit(url)
    host, path = (parts.hostname or "").lower(), parts.path.lower()
    segments = [segment for segment in path.split("/") if segment]
    if host.startswith("blog.") or "blog" in segments or "posts" in segments:
        return "blog"
    if any(word in path for word in ("changelog", "release-notes", "releases", "news.md")):
        return "changelog"
    if path.endswith(_CODE_SUFFIXES):
        return "source"
    return "docs"


def line_range_of(fragment: str) -> tuple[int, int] | None:
    """The lines a `L10-L40` (or `L10`) fragment names, first to last."""
    anchor = _LINE_ANCHOR.match(fragment)
    if anchor is None:
        return None
    first = int(anchor["first"])
    last = int(anchor["last"] or first)
    if min(first, last) < 1:
        return None
    return min(first, last), max(first, last)


def split(url: str) -> SplitResult | None:
    """urlsplit, or None for a URL it cannot parse (such as an unclosed `[` IPv6 host)."""
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- parsing the port is what validates it
    except ValueError:
        return None
    return parts


def resolve(url: str, location: str) -> str:
    """The absolute URL a Location header (or a page's head) points to, its scheme and
    host in lower case as every address is kept (left as is if it cannot be joined)."""
    try:
        return lower_scheme_and_host(urljoin(url, location).partition("#")[0])
    except ValueError:
        return location


def redirect_refusal(
    current: str, target: str, seen: set[str], hops: int, limit: int
) -> str | None:
    """Why a redirect from `current` to `target` must not be followed, or None if it may."""
    parts = split(target)
    if parts is None or parts.scheme not in WEB_SCHEMES:
        return f"redirect to a non-http(s) URL refused: {shown_raw(target)}"
    if not parts.hostname:
        return f"redirect to a URL without a host refused: {shown_raw(target)}"
    if (problem := web_url_problem(target)) is not None:
        return f"redirect refused: {shown_raw(target)} {problem}"
    if lower_scheme(current).startswith("https:") and parts.scheme == "http":
        return f"redirect from https down to http refused: {shown(target)}"
    if target in seen:
        return f"redirect loop: {shown(target)} was already visited"
    if hops > limit:
        return f"more than {limit} redirects"
    return None


_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@|(?<![\w/.:@-])[\w.~%!$&*+,;=-]+:[^/?#@\s']*@")
"""A URL's `user:pass@` after its scheme, or one written with no scheme (`user:pw@host`,
which is no web URL, and is said so with the words as typed)."""


def shown_raw(text: str) -> str:
    """A string that is not a web URL, fit to print in a message: one line, cut short,
    without the `user:pass@` it may carry (a redirect to `ftp://user:pw@host/`)."""
    flat = _USERINFO.sub("", " ".join(text.split()))
    return flat if len(flat) <= 80 else flat[:79] + "…"


def origin(url: str) -> str:
    """scheme://host[:port] of a URL, without credentials, its host in lower case and
    otherwise as written: the site as a note names it (`site_of` is what it is)."""
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc.rpartition('@')[2].lower()}"


def site_of(url: str) -> str | None:
    """scheme://host[:port] of a web URL in the one spelling its server answers to, as
    `page_key` has it (`ascii_host`, no port when it is the scheme's own): every spelling
    of one site (`bücher.example`, `xn--bcher-kva.example`, `docs.example.`, `:443`) is one
    site, with one robots.txt and one set of `--map` prefixes. None for any other URL."""
    parts = split(url)
    if parts is None or parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        return None
    return f"{parts.scheme.lower()}://{_server_of(parts)}"


DEFAULT_PORTS = {"http": 80, "https": 443}
"""The port a scheme's address means when it names none (`http://host:80/` is `http://host/`)."""


def host_and_port(url: str) -> tuple[str, int] | None:
    """The host (in the one spelling DNS resolves, `ascii_host`; an IPv6 one unbracketed)
    and the port (the scheme's own when none is written) an http(s) URL connects to; None
    for any other. Every spelling of one host is one place, as it is one site (`site_of`),
    to the private-address guard and to the headers given for it."""
    parts = split(url)
    if parts is None or parts.scheme.lower() not in WEB_SCHEMES or not parts.hostname:
        return None
    return ascii_host(parts.hostname), parts.port or DEFAULT_PORTS[parts.scheme.lower()]


def exact_origin(url: str) -> str | None:
    """`scheme://host:port` of an http(s) URL in one spelling (the host as `host_and_port`
    has it, the port always written), so that two spellings of one origin compare equal,
    as `site_of` has them (`https://bücher.example` is `https://xn--bcher-kva.example:443`);
    None for any other URL."""
    place = host_and_port(url)
    if place is None:
        return None
    host, port = place
    return f"{urlsplit(url).scheme.lower()}://{f'[{host}]' if ':' in host else host}:{port}"


# --------------------------------------------------------------------------- mirrors


@dataclass(frozen=True)
class UrlMap:
    """`--map` prefix rewrites, the deepest matching prefix first.

    A prefix holds the pages of its site (`site_of`: its host however it is spelt) whose
    path goes on from its own at a `/`: `https://docs.example/v1` holds `/v1`, `/v1/x` and
    `/v1?x`, never `/v10/` nor `https://docs.example.com/`, whose pages the mirror does
    not copy. Evidence is still recorded under the ledger's own URL, and a redirect found
    at the replacement is mapped back, so a moved page is reported where the reader would
    find it.
    """

    rules: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, specs: Iterable[str]) -> UrlMap:
        rules = []
        for spec in specs:
            if (problem := map_rule_problem(spec)) is not None:
                raise InputError(f"--map {spec!r}: {problem}")
            prefix, _, replacement = spec.partition("=")
            rules.append((lower_scheme_and_host(prefix), lower_scheme_and_host(replacement)))
        return cls(_deepest_first(rules))

    def apply(self, url: str) -> str:
        """Where to fetch `url` from."""
        return _rewrite(url, self.rules)

    def reverse(self, url: str) -> str:
        """The ledger-side name of a fetched URL (for redirects found at a replacement)."""
        return _rewrite(url, _deepest_first((r, p) for p, r in self.rules))

    def strays(self, source: str, target: str) -> bool:
        """Does a redirect the mirror gave at `source`, its copy of a page, go to another
        page of that mirror that no rule copies (the copy of `/v1` sending to its `/v10/`)?
        No address of the site the ledger cites names that page, so its words are no
        page of that site, and its mirror's address no place to move a source to. A site
        some rule reads from is a real one: its pages are read where they are."""
        site = site_of(target)
        if site is None or site != site_of(source) or self.reverse(source) == source:
            return False
        real = {site_of(prefix) for prefix, _ in self.rules}
        return site not in real and self.reverse(target) == target


def map_rule_problem(spec: str) -> str | None:
    """What is wrong with a mirror rule "PREFIX=REPLACEMENT", or None: both sides web URLs."""
    prefix, sep, replacement = spec.partition("=")
    if not sep or not prefix or not replacement:
        return "expected PREFIX=REPLACEMENT"
    for url in (prefix, replacement):
        if (problem := web_url_problem(url)) is not None:
            return f"{url!r} {problem}"
    return None


def _deepest_first(rules: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The rules, the one with the longest path first (in the order given otherwise: the
    command line's before the settings'), however each spells its host."""
    return tuple(sorted(rules, key=lambda rule: -len(_normal_tail(rule[0]))))


def _rewrite(url: str, rules: tuple[tuple[str, str], ...]) -> str:
    """`url` rewritten by the first rule it is under; as it is when it is under none."""
    for prefix, replacement in rules:
        rest = _under(url, prefix)
        if rest is not None:
            return _joined(replacement, rest)
    return url


def _joined(replacement: str, rest: str) -> str:
    """`replacement` and the rest of a path under its prefix, at one `/` whichever of the
    two sides writes it: `https://docs.example/=http://127.0.0.1:8000` reads `/a` at
    `http://127.0.0.1:8000/a`, never at the port `8000a`, nor at `/copy//a` where the
    mirror is written `…/copy/`."""
    if rest.startswith("/") and replacement.endswith("/"):
        return replacement[:-1] + rest
    return replacement + rest


def _under(url: str, prefix: str) -> str | None:
    """What follows `prefix` in `url` when `url` is a page under it, else None: on its site,
    its path, as it names a page (`_normal_tail`), going on at a `/` (an empty path is the
    site's root, `/`). The rest of a page in a folder (a prefix ending in `/`) begins with
    its `/`; the prefix's own page is the replacement as written. A prefix with a query
    or a fragment names one page, never a folder: `…/page?print` takes no
    `…/page?print/x`, nor `…/v1#top` the page `…/v1` at the fragment `top/x`."""
    site = site_of(prefix)
    if site is None or site_of(url) != site:
        return None
    base, path = _normal_tail(prefix), _normal_tail(url)
    if base and not path.startswith("/"):
        path = f"/{path}"
    if not path.startswith(base):
        return None
    rest = path[len(base) :]
    if "?" in base or "#" in base:  # one page's address: that page alone, at any fragment
        return rest if rest == "" or (rest[:1] == "#" and "#" not in base) else None
    if base.endswith("/"):
        return f"/{rest}" if rest[:1] not in ("", "?", "#") else rest
    return rest if not base or rest[:1] in ("", "/", "?", "#") else None


def _after_host(url: str) -> str:
    """A URL's path, query and fragment as written."""
    written = _AUTHORITY.match(url)
    return url[written.end() :] if written is not None else ""


def _normal_tail(url: str) -> str:
    """A URL's path as the page it names, its query and fragment as written: a client
    resolves `.` and `..` before it asks (`/v1/../v2/` is `/v2/`), and an escaped letter,
    digit or `-._~` is that character (`/v%31/` is `/v1/`; RFC 3986 6.2.2), so a prefix
    takes a page by what its address means, never by how it is spelt."""
    tail = _after_host(url)
    cut = min((at for at in (tail.find("?"), tail.find("#")) if at >= 0), default=len(tail))
    path = _UNRESERVED_ESCAPE.sub(lambda escape: chr(int(escape[1], 16)), tail[:cut])
    return _without_dot_segments(path) + tail[cut:]


_UNRESERVED_ESCAPE = re.compile(r"%(2[DdEe]|3[0-9]|[46][1-9A-Fa-f]|[57][0-9Aa]|5[Ff]|7[Ee])")
"""A percent-escape of a character that needs none (RFC 3986 2.3: a letter, a digit, `-._~`)."""


def _without_dot_segments(path: str) -> str:
    """`path` with its `.` and `..` segments resolved (RFC 3986 5.2.4): never above the root."""
    segments = path.split("/")
    kept: list[str] = []
    for segment in segments:
        if segment == "..":
            kept = kept[:-1] or kept  # the root's empty segment stays
        elif segment != ".":
            kept.append(segment)
    if segments[-1] in (".", ".."):
        kept.append("")  # `/a/b/..` is the folder `/a/`
    return "/".join(kept)


PERMANENT_REDIRECTS = frozenset({301, 308})


def permanently_moved_to(url: str, hops: tuple[Hop, ...], final_url: str) -> str | None:
    """Where the permanent redirects at the head of the chain lead, if that is a new address.

    Only a chain that *starts* permanent (301, 308, or an alias page's meta refresh)
    says the ledger's URL itself moved; a permanent hop after a temporary one moved
    some intermediate URL instead. A trailing slash added or dropped, or http
    upgraded to https on the same host, is the same page at a tidier address.
    """
    moved_to = permanently_led_to(hops, final_url)
    return None if moved_to is None or is_trivial_move(url, moved_to) else moved_to


def permanently_led_to(hops: tuple[Hop, ...], final_url: str) -> str | None:
    """Where the permanent redirects at the head of the chain lead, a tidier spelling of
    the address asked or not; None when the chain does not start permanent."""
    permanent = 0
    while permanent < len(hops) and (
        hops[permanent].status in PERMANENT_REDIRECTS or hops[permanent].via == "meta-refresh"
    ):
        permanent += 1
    if permanent == 0:
        return None
    return hops[permanent].url if permanent < len(hops) else final_url


def ascii_host(host: str) -> str:
    """A host name in the one spelling DNS resolves: lowercase, Punycode for each label
    not in ASCII, full-width letters and ideographic full stops mapped (UTS #46), no final
    dot. Punycode rather than Unicode, as a report shows it, because a look-alike letter
    from another script then never reads as the name it imitates. A name IDNA refuses
    (an underscore in a label) is kept as written, lowercase."""
    import idna  # the HTTP client's own, as for `web_url_problem`

    name = host.rstrip(".")
    try:
        return idna.encode(name, uts46=True).decode("ascii").lower()
    except (idna.IDNAError, UnicodeError, ValueError):
        return name.lower()
