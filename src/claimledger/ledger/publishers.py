"""Publishers the ledger names that its addresses contradict: two sources on one vendor's
registrable domain, or on sites of one name (vendor.com and vendor.readthedocs.io, or
vendor.de, or github.com/vendor), written as two publishers ("Vendor docs team", "Vendor
blog team"), count as two independent sources, and nothing in the grading can tell;
`check` says so.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from claimledger.ledger.model import Ledger, Source, publisher_compared, publisher_key
from claimledger.urls import archived_original, ascii_host, names_public_site, publisher_of, split

DOCS_PLATFORMS = frozenset(
    {
        "readme.io",
        "mintlify.app",
        "mintlify.dev",
        "statuspage.io",
        "zendesk.com",
        "atlassian.net",
        "document360.io",
        "helpscoutdocs.com",
        "intercom.help",
    }
)
"""Sites that host many vendors' docs, help centres or status pages, each on a host of
its own (vendor.readme.io) that the Public Suffix List does not tell apart: the label
below the site's domain names the vendor."""


NEWSWIRES = frozenset(
    {
        "prnewswire.com",
        "businesswire.com",
        "globenewswire.com",
        "accesswire.com",
        "newswire.com",
        "einpresswire.com",
        "prweb.com",
        "newsfilecorp.com",
    }
)
"""Wire services: they publish the press releases companies send them, in the company's
own words."""


@dataclass(frozen=True)
class SharedDomain:
    """A source whose publisher differs from that of an earlier source on its domain, or
    on a site of the same name (`Site`)."""

    source: Source
    earlier: Source
    domain: str
    earlier_domain: str
    name: str


class Site(NamedTuple):
    """A page's site as far as who publishes it goes: its publisher's domain (`publisher_of`),
    the name it goes by, and whether it is a plain domain under a generic top-level one
    (`site_of`)."""

    domain: str
    name: str
    generic: bool

    def is_one_vendors_with(self, other: Site) -> bool:
        """One registrable domain, or one name where either is not a plain generic domain:
        vendor.com and vendor.org may well be two organisations'; vendor.com and vendor.de,
        vendor.readthedocs.io or github.com/vendor are most likely one's."""
        if self.domain == other.domain:
            return True
        return self.name == other.name and not (self.generic and other.generic)


def site_of(url: str) -> Site:
    """The site of a page: named "vendor", and generic, for docs.vendor.com; named "vendor",
    and not, for vendor.de, vendor.co.uk, vendor.readthedocs.io, vendor.readme.io and
    github.com/vendor, a vendor's country site or its docs hosted elsewhere."""
    original = archived_original(url) or url
    publisher = publisher_of(original)
    domain, _, owner = publisher.partition("/")
    if owner:  # an owner's pages on a code host, its Pages site among them
        return Site(publisher, owner, False)
    parts = split(original)
    host = ascii_host(parts.hostname or "") if parts is not None else ""
    tenant = host.removesuffix(f".{domain}").rsplit(".", 1)[-1] if domain in DOCS_PLATFORMS else ""
    if tenant and tenant not in (host, "www"):
        return Site(publisher, tenant, False)
    name, _, suffix = domain.partition(".")
    return Site(publisher, name, "." not in suffix and len(suffix) > 2)


def publishers_sharing_a_domain(ledger: Ledger) -> list[SharedDomain]:
    """Each source named for another publisher than an earlier one on the same registrable
    domain (as `publisher_of` gives it), or on a site of the same name where either is
    not a plain generic domain (`Site.is_one_vendors_with`), in the ledger's order. A
    source marked `independent` is the author's word that it is, and an address that names
    no public site (a local mirror, example.com) says nothing of who publishes, so neither
    is told."""
    earlier_by_name: dict[str, list[tuple[Source, Site]]] = {}
    shared: list[SharedDomain] = []
    for source in ledger.sources.values():
        if source.independent or not names_public_site(source.url):
            continue
        site = site_of(source.url)
        earlier = earlier_by_name.setdefault(site.name, [])
        related = [(first, on) for first, on in earlier if on.is_one_vendors_with(site)]
        if related and publisher_key(source) not in {publisher_key(s) for s, _ in related}:
            first, on = related[0]
            shared.append(SharedDomain(source, first, site.domain, on.domain, site.name))
        earlier.append((source, site))
    return shared


def default_publisher(ledger: Ledger, url: str) -> str:
    """The publisher a page added to the ledger counts for when the author names none: that
    of the ledger's first source on its registrable domain, as the author wrote it ("Vendor
    Inc"), else of its first source on a site of one vendor's (`Site.is_one_vendors_with`:
    vendor.de, vendor.readthedocs.io), else the domain itself. The domain alone would part
    the new page from the vendor's other pages, as two independent publishers the author
    never said they were."""
    site = site_of(url)
    if not names_public_site(url):  # a local mirror's address says nothing of who publishes
        return site.domain
    known = [
        (source, site_of(source.url))
        for source in ledger.sources.values()
        if not source.independent and names_public_site(source.url)
    ]
    same_domain = (source for source, on in known if on.domain == site.domain)
    same_vendor = (source for source, on in known if on.is_one_vendors_with(site))
    found = next(same_domain, None) or next(same_vendor, None)
    return found.publisher if found is not None else site.domain


def wire_releases(ledger: Ledger) -> list[Source]:
    """The sources on a wire service (`NEWSWIRES`) that count for the wire itself: a press
    release is the words of the company that issued it, so counted as the wire's it would
    confirm that company's own pages as an independent publisher. One the author named
    another publisher for, or marked `independent`, is the author's word."""
    return [
        source
        for source in ledger.sources.values()
        if not source.independent
        and (wire := publisher_of(source.url)) in NEWSWIRES
        and publisher_key(source) == publisher_compared(wire)
    ]
