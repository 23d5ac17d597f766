"""Changes an author or a rule makes to a ledger, as edits of its text.

Each function takes the file's text and the ledger parsed from it and returns the new
text: a grade replaced where it stands, a history entry as one new line under its claim,
a new claim as a block after the last one. Everything else, comments, key order,
quoting and blank lines, stays byte for byte (see `claimledger.yamledit`).
"""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from claimledger.accept import Adoption
from claimledger.errors import ConflictError
from claimledger.ledger import Grade, Ledger
from claimledger.urls import shown
from claimledger.yamledit import (
    Edit,
    FlowList,
    FlowMap,
    add_key,
    add_key_edit,
    append_block_item,
    append_item,
    append_items_edit,
    apply_edits,
    compose,
    has_key,
    node_at,
    scalar_edit,
    set_scalar,
    tree_of,
)


def claim_index(ledger: Ledger, claim_id: str) -> int:
    return ledger.position(claim_id)  # raises with a did-you-mean when it is not there


def append_history(text: str, ledger: Ledger, claim_id: str, entry: Mapping[str, Any]) -> str:
    """Append one entry to a claim's history, creating the list when it has none."""
    root = tree_of(text, ledger)
    return apply_edits(text, [_history_edit(text, root, claim_index(ledger, claim_id), [entry])])


def _history_edit(
    text: str, root: yaml.Node, index: int, entries: Sequence[Mapping[str, Any]]
) -> Edit:
    """New entries at the end of claim `index`'s history, creating the list if it has none."""
    claim = node_at(root, ("claims", index))
    if has_key(root, ("claims", index), "history"):
        return append_items_edit(text, node_at(claim, ("history",)), [dict(e) for e in entries])
    return add_key_edit(text, claim, "history", [FlowMap(entry) for entry in entries])


def history_entry(
    *,
    date: dt.date,
    by: str,
    why: str,
    on: str | None = None,
    from_grade: Grade | None = None,
    to_grade: Grade | None = None,
    quote_was: str | None = None,
    quote_now: str | None = None,
) -> dict[str, Any]:
    """A history entry in the ledger's key order, without empty fields."""
    entry: dict[str, Any] = {
        "date": date,
        "on": on,
        "from": str(from_grade) if from_grade else None,
        "to": str(to_grade) if to_grade else None,
        "quote_was": quote_was,
        "quote_now": quote_now,
        "by": by,
        "why": why,
    }
    return {key: value for key, value in entry.items() if value is not None}


@dataclass(frozen=True)
class GradeChange:
    """A facet's new grade, who changed it and why (a rule's proposal, or a person)."""

    claim_id: str
    on: str | None
    to_grade: Grade
    by: str
    why: str


def set_grades(text: str, ledger: Ledger, changes: Sequence[GradeChange], *, date: dt.date) -> str:
    """Change facets' grades and record each change in its claim's history, in one pass
    over the text, however many there are."""
    root = tree_of(text, ledger)
    edits: list[Edit] = []
    entries: dict[int, list[dict[str, Any]]] = {}
    for change in changes:
        claim = ledger.claim(change.claim_id)  # a did-you-mean when it is not there
        facet = claim.facet(change.on)
        index = ledger.position(claim.id)
        path = ("claims", index, "grades", claim.grades.index(facet), "grade")
        edits.append(scalar_edit(text, node_at(root, path), str(change.to_grade)))
        entry = history_entry(
            date=date,
            on=facet.on,
            from_grade=facet.grade,
            to_grade=change.to_grade,
            by=change.by,
            why=change.why,
        )
        entries.setdefault(index, []).append(entry)
    edits += [_history_edit(text, root, index, new) for index, new in entries.items()]
    return apply_edits(text, edits)


def set_grade(
    text: str,
    ledger: Ledger,
    claim_id: str,
    on: str | None,
    grade: Grade,
    *,
    by: str,
    why: str,
    date: dt.date,
) -> str:
    """Change one facet's grade and record the change in the claim's history."""
    return set_grades(text, ledger, [GradeChange(claim_id, on, grade, by, why)], date=date)


def replace_quotes(
    text: str, ledger: Ledger, adoptions: Sequence[Adoption], *, date: dt.date
) -> str:
    """Adopt pages' current wordings for quotes, keeping each old wording in its claim's
    history, in one pass over the text."""
    root = tree_of(text, ledger)
    edits: list[Edit] = []
    entries: dict[int, list[dict[str, Any]]] = {}
    for adoption in adoptions:
        index = ledger.position(adoption.claim_id)
        quotes = ledger.claims[index].quotes
        if adoption.quote_index >= len(quotes) or quotes[adoption.quote_index].text != adoption.old:
            raise ConflictError(
                f"{adoption.claim_id}: quote #{adoption.quote_index + 1} changed since it was "
                "read; refresh and accept again"
            )
        path = ("claims", index, "quotes", adoption.quote_index, "text")
        edits.append(scalar_edit(text, node_at(root, path), adoption.new))
        why = "adopted the page's current wording"
        if adoption.meaning_changed:
            why += " although the change touched a meaning-carrying word"
        entry = history_entry(
            date=date, quote_was=adoption.old, quote_now=adoption.new, by="accept", why=why
        )
        entries.setdefault(index, []).append(entry)
    edits += [_history_edit(text, root, index, new) for index, new in entries.items()]
    return apply_edits(text, edits)


def replace_quote(text: str, ledger: Ledger, adoption: Adoption, *, date: dt.date) -> str:
    """Adopt a page's current wording for a quote, keeping the old wording in history."""
    return replace_quotes(text, ledger, [adoption], date=date)


@dataclass(frozen=True)
class NewClaim:
    """What `claimledger add` records: a claim, its quotes and the pages they are on."""

    id: str
    section: str | None
    title: str
    statement: str
    kind: str
    quotes: tuple[str, ...]
    urls: tuple[str, ...]
    grade: Grade
    on: str
    depends_on: tuple[str, ...] = ()
    publisher: str | None = None
    titles: Mapping[str, str | None] = field(default_factory=dict)


def add_claim(text: str, ledger: Ledger, draft: NewClaim) -> str:
    """Append a new claim, adding a source for each URL the ledger does not know yet."""
    if draft.id in ledger.claim_ids:
        raise ConflictError(f"claim '{draft.id}' already exists")
    known = {source.url: source.id for source in ledger.sources.values()}
    taken = set(ledger.sources)
    source_ids = []
    for url in draft.urls:
        if url not in known:
            known[url] = _source_id_for(url, taken)
            taken.add(known[url])
            host = urllib.parse.urlsplit(url).hostname or "unknown"
            source = {
                "url": url,
                "title": draft.titles.get(url) or shown(url),
                "kind": "docs",
                "publisher": draft.publisher or host,
            }
            text = add_key(text, ("sources",), known[url], source)
        source_ids.append(known[url])
    claim: dict[str, Any] = {
        "id": draft.id,
        "section": draft.section or ledger.sections[0].id,
        "title": draft.title,
        "kind": draft.kind,
        "statement": draft.statement,
        "quotes": [{"text": quote, "sources": FlowList(source_ids)} for quote in draft.quotes],
        "grades": [{"on": draft.on, "grade": str(draft.grade), "basis": "quotes"}],
    }
    if draft.depends_on:
        claim["depends_on"] = FlowList(draft.depends_on)
    return append_block_item(text, ("claims",), claim)


def _source_id_for(url: str, taken: set[str]) -> str:
    """A readable, unused id from the URL: its last path segment, else its host."""
    parts = urllib.parse.urlsplit(url)
    segments = [s for s in parts.path.split("/") if s]
    stem = segments[-1].rsplit(".", 1)[0] if segments else (parts.hostname or "source")
    base = re.sub(r"[^a-z0-9]+", "-", stem.lower()).strip("-") or "source"
    candidate, number = base, 2
    while candidate in taken:
        candidate, number = f"{base}-{number}", number + 1
    return candidate


def move_source(
    text: str, ledger: Ledger, source_id: str, new_url: str, *, date: dt.date, why: str
) -> str:
    """Point a source at its new address, keeping the old one in the source's history."""
    source = ledger.source(source_id)
    text = set_scalar(text, ("sources", source_id, "url"), new_url)
    entry = {"date": date, "moved_from": source.url, "by": "move", "why": why}
    if has_key(compose(text), ("sources", source_id), "history"):
        return append_item(text, ("sources", source_id, "history"), entry)
    return add_key(text, ("sources", source_id), "history", [FlowMap(entry)])
