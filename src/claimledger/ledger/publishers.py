"""Publishers the ledger names that its addresses contradict: two sources on one vendor's
registrable domain, written as two publishers ("Vendor docs team", "Vendor blog team"),
count as two independent sources, and nothing in the grading can tell; `check` says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from claimledger.ledger.model import Ledger, Source, publisher_key
from claimledger.sites import publisher_of
from claimledger.urls import names_public_site


@dataclass(frozen=True)
class SharedDomain:
    """A source whose publisher differs from that of an earlier source on its domain."""

    source: Source
    earlier: Source
    domain: str


def publishers_sharing_a_domain(ledger: Ledger) -> list[SharedDomain]:
    """Each source named for another publisher than an earlier one on the same registrable
    domain (as `publisher_of` gives it), in the ledger's order. A source marked
    `independent` is the author's word that it is, and an address that names no public
    site (a local mirror, example.com) says nothing of who publishes, so neither is told."""
    first_by_domain: dict[str, dict[str, Source]] = {}
    shared: list[SharedDomain] = []
    for source in ledger.sources.values():
        if source.independent or not names_public_site(source.url):
            continue
        domain = publisher_of(source.url)
        publishers = first_by_domain.setdefault(domain, {})
        if publishers and publisher_key(source) not in publishers:
            shared.append(SharedDomain(source, next(iter(publishers.values())), domain))
        publishers.setdefault(publisher_key(source), source)
    return shared


def default_publisher(ledger: Ledger, url: str) -> str:
    """The publisher a page added to the ledger counts for when the author names none: that
    of the ledger's first source on its registrable domain, as the author wrote it ("Vendor
    Inc"), else the domain itself. The domain alone would part the new page from the
    vendor's other pages, as two independent publishers the author never said they were."""
    domain = publisher_of(url)
    if not names_public_site(url):  # a local mirror's address says nothing of who publishes
        return domain
    for source in ledger.sources.values():
        if source.independent or not names_public_site(source.url):
            continue
        if publisher_of(source.url) == domain:
            return source.publisher
    return domain
