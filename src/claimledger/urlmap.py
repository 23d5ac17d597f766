"""Rewriting source URLs: read a ledger's pages from a mirror, an archive or a local copy.

`--map PREFIX=REPLACEMENT` sends every URL that starts with PREFIX to REPLACEMENT
instead. Evidence is still recorded under the ledger's own URL, and a redirect
found at the replacement is mapped back, so a moved page is reported where the
reader would find it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from claimledger.errors import InputError
from claimledger.urls import is_web_url


@dataclass(frozen=True)
class UrlMap:
    """Prefix rewrites, the longest matching prefix first."""

    rules: tuple[tuple[str, str], ...] = ()

    @classmethod
    def parse(cls, specs: Iterable[str]) -> UrlMap:
        rules = []
        for spec in specs:
            prefix, sep, replacement = spec.partition("=")
            if not sep or not prefix or not replacement:
                raise InputError(f"--map {spec!r}: expected PREFIX=REPLACEMENT")
            for url in (prefix, replacement):
                if not is_web_url(url):
                    raise InputError(f"--map {spec!r}: {url!r} is not an http(s) URL with a host")
            rules.append((prefix, replacement))
        return cls(tuple(sorted(rules, key=lambda rule: -len(rule[0]))))

    def apply(self, url: str) -> str:
        """Where to fetch `url` from."""
        return _rewrite(url, self.rules)

    def reverse(self, url: str) -> str:
        """The ledger-side name of a fetched URL (for redirects found at a replacement)."""
        flipped = tuple(sorted(((r, p) for p, r in self.rules), key=lambda rule: -len(rule[0])))
        return _rewrite(url, flipped)


def _rewrite(url: str, rules: tuple[tuple[str, str], ...]) -> str:
    for prefix, replacement in rules:
        if url.startswith(prefix):
            return replacement + url[len(prefix) :]
    return url
