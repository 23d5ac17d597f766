"""Which URLs the tool fetches and links (http and https with a host), and how any URL is
shown: without credentials and with secret-looking query values redacted, so a report, a
table or a JSON listing never republishes a token that sat in a ledger or a redirect."""

from __future__ import annotations

import re
import urllib.parse

WEB_SCHEMES = frozenset({"http", "https"})

_SECRET_PARAMETER = re.compile(
    r"(token|secret|passw(or)?d|pwd|api[-_]?key|access[-_]?key|signature|credential|"
    r"session|^auth$|^sig$|^key$)",
    re.IGNORECASE,
)
_URL_SAFE = ":/?#[]@!$&*+,;=%-._~"
"""Characters left as they are in a URL; everything else is percent-encoded, so that a URL
is safe in a Markdown link destination and in an HTML attribute."""


def is_web_url(url: str) -> bool:
    """http(s), with a host and a well-formed port."""
    try:
        parts = urllib.parse.urlsplit(url)
        parts.port  # noqa: B018 -- parsing the port is what validates it
    except ValueError:
        return False
    return parts.scheme.lower() in WEB_SCHEMES and bool(parts.hostname)


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
    if parts.fragment or url.rstrip().endswith("#"):
        clean += "#" + _redact_pairs(parts.fragment)  # `#access_token=…` is a secret too
    return urllib.parse.quote(clean, safe=_URL_SAFE)


def has_secrets(url: str) -> bool:
    """Whether showing `url` as written would show credentials or a secret-looking value."""
    try:
        parts = urllib.parse.urlsplit(url.strip())
    except ValueError:
        return False
    redacted = (_redact_pairs(parts.query), _redact_pairs(parts.fragment))
    return "@" in parts.netloc or redacted != (parts.query, parts.fragment)


def shown(url: str | None) -> str:
    """A URL as printed for a person: its safe form, or a placeholder for one we won't show."""
    if url is None:
        return ""
    return safe_url(url) or "(not an http(s) URL)"


def _redact_pairs(pairs: str) -> str:
    return "&".join(_redact(pair) for pair in pairs.split("&")) if pairs else ""


def _redact(pair: str) -> str:
    name, equals, _value = pair.partition("=")
    if equals and _SECRET_PARAMETER.search(urllib.parse.unquote_plus(name)):
        return f"{name}=REDACTED"
    return pair


_DEFAULT_PORTS = {"http": 80, "https": 443}


def is_trivial_move(old: str, new: str) -> bool:
    """The same page at a tidier address: a trailing slash added or dropped, or http upgraded
    to https on the same host. Such a redirect is shown, but it is no move of the page."""
    try:
        a, b = urllib.parse.urlsplit(old), urllib.parse.urlsplit(new)
        a_port = a.port or _DEFAULT_PORTS.get(a.scheme.lower())
        b_port = b.port or _DEFAULT_PORTS.get(b.scheme.lower())
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
