"""The ids of the report's parts and claims, kept clear of the ids its headings take where
the Markdown is read.

GitHub gives every heading of a Markdown file the id of its words, next to the ids the
report writes itself (`<a id="claim-b">`): an author's section titled "Sources", or an
intro's "## Findings", would take `sources` or `findings` before the report's own part
of that name, and a claim titled "Claim b" `claim-b` before the claim `b`; the contents,
or a link to `b`, would lead there. Pure.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Mapping
from dataclasses import fields
from typing import Any

from claimledger.report.markup import author_headings, heading_ids
from claimledger.report.model import OwnAnchors, Report


def with_clear_anchors(report: Report) -> Report:
    """`report` with its own parts' ids, and each section's, claim's and closing part's,
    clear of every id a heading of the author's words takes where the Markdown is read
    (numbered among themselves as GitHub numbers them: where the report's own headings
    push one further, to `findings-1`, that is no id the report writes)."""
    taken = frozenset(heading_ids(list(_authors_headings(report))))
    usual = OwnAnchors()
    own = {part.name: _clear_of(taken, getattr(usual, part.name)) for part in fields(usual)}
    written = [s.anchor for s in report.sections] + [c.anchor for c in report.claims]
    written += [part.anchor for part in report.closing]
    renamed = {name: _clear_of(taken, name) for name in written if name in taken}
    cleared = dataclasses.replace(report, anchors=OwnAnchors(**own))
    return _renamed(cleared, renamed) if renamed else cleared


def _authors_headings(report: Report) -> Iterator[str]:
    """Every heading the author's words make in the Markdown report, in order: the title,
    the about's, each section's title and its intro's, each claim's title and its words',
    each closing part's."""
    yield report.title
    yield from author_headings(report.about)
    for section in report.sections:
        yield section.title
        yield from author_headings(section.intro)
        for claim in section.claims:
            yield claim.title
            yield from author_headings(claim.body)
        yield from author_headings(section.after)
    for part in report.closing:
        yield part.title
        yield from author_headings(part.body)


def _clear_of(taken: frozenset[str], name: str) -> str:
    """`name`, or `report-name` (numbered past any taken) when a heading takes `name`."""
    if name not in taken:
        return name
    candidate, number = f"report-{name}", 1
    while candidate in taken:
        number += 1
        candidate = f"report-{name}-{number}"
    return candidate


def _renamed(value: Any, renamed: Mapping[str, str]) -> Any:
    """`value` with every `anchor` it holds, however deep, that `renamed` names renamed: a
    claim is linked from its premises, findings, questions, sources and changes alike."""
    if isinstance(value, tuple):
        return tuple(_renamed(item, renamed) for item in value)
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    changes = {field.name: _renamed(getattr(value, field.name), renamed) for field in fields(value)}
    anchor = changes.get("anchor")
    if isinstance(anchor, str) and anchor in renamed:
        changes["anchor"] = renamed[anchor]
    return dataclasses.replace(value, **changes)
