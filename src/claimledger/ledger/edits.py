"""Changes an author or a rule makes to a ledger, as edits of its text.

Each function takes the file's text and the ledger parsed from it and returns the new
text: a grade replaced where it stands, a history entry as one new line under its claim,
a new claim as a block after the last one. Everything else, comments, key order,
quoting and blank lines, stays byte for byte (see `claimledger.ledger.yamledit`).
"""

from __future__ import annotations

import datetime as dt
import re
import urllib.parse
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import yaml

from claimledger.errors import ConflictError, InputError, LedgerError
from claimledger.ledger.model import REFUTED, REVIEWED, REVISED, Ledger, facet_key, parse
from claimledger.ledger.publishers import default_publisher
from claimledger.ledger.safeyaml import compose
from claimledger.ledger.shape import did_you_mean
from claimledger.ledger.vocabulary import (
    CLAIM_ID,
    LEDGER_FIELDS,
    RENDERINGS,
    SCOPE_PARTS,
    SOURCE_KINDS,
    Basis,
    Grade,
)
from claimledger.ledger.yamledit import (
    Edit,
    FlowList,
    FlowMap,
    NodePath,
    add_key,
    add_key_edit,
    append_block_item,
    append_item,
    append_items_edit,
    apply_edits,
    has_key,
    node_at,
    remove_item,
    remove_key,
    scalar_edit,
    set_scalar,
    tree_of,
)
from claimledger.records import Adoption
from claimledger.urls import kind_of_page, page_key, redacted, shown


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
    meaning: str | None = None,
) -> dict[str, Any]:
    """A history entry in the ledger's key order, without empty fields."""
    entry: dict[str, Any] = {
        "date": date,
        "on": on,
        "from": str(from_grade) if from_grade else None,
        "to": str(to_grade) if to_grade else None,
        "quote_was": quote_was,
        "quote_now": quote_now,
        "meaning": meaning,
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
        if adoption.meaning is not None:
            why += f" although its meaning {'may have ' if adoption.meaning == 'uncertain' else ''}"
            why += "changed: the claim needs review"
        entry = history_entry(
            date=date,
            quote_was=adoption.old,
            quote_now=adoption.new,
            meaning=adoption.meaning,
            by="accept",
            why=why,
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
    basis: Basis = Basis.QUOTES
    why: str | None = None
    date: dt.date | None = None
    """The day it is recorded: its history's first entry."""


def add_claim(text: str, ledger: Ledger, draft: NewClaim) -> str:
    """Append a new claim, adding a source for each page the ledger does not know yet; the
    author's error when the file no longer has its premises or section (taken away since)."""
    if draft.id in ledger.claim_ids:
        raise ConflictError(f"claim '{draft.id}' already exists")
    text, source_ids = _sources_for(text, ledger, draft.urls, draft.titles, draft.publisher)
    claim: dict[str, Any] = {
        "id": draft.id,
        "section": draft.section or ledger.sections[0].id,
        "title": draft.title,
        "kind": draft.kind,
        "statement": draft.statement,
    }
    if draft.depends_on:
        claim["depends_on"] = FlowList(draft.depends_on)
    if draft.quotes:
        claim["quotes"] = [
            {"text": quote, "sources": FlowList(source_ids)} for quote in draft.quotes
        ]
    facet = {"on": draft.on, "grade": str(draft.grade), "basis": str(draft.basis)}
    claim["grades"] = [facet | ({"why": draft.why} if draft.why else {})]
    if draft.date is not None:
        entry = history_entry(date=draft.date, by="add", why=_creation(draft, len(source_ids)))
        claim["history"] = [FlowMap(entry)]
    return _still_valid(append_block_item(text, ("claims",), claim), "adding the claim")


def _sources_for(
    text: str,
    ledger: Ledger,
    urls: Sequence[str],
    titles: Mapping[str, str | None],
    publisher: str | None,
) -> tuple[str, list[str]]:
    """The source id of each URL: the ledger's source for that page (its fragment or a
    trailing slash make no second source), else a new one added with its kind guessed."""
    known = {page_key(source.url): source.id for source in ledger.sources.values()}
    taken = set(ledger.sources)
    source_ids = []
    for url in urls:
        key = page_key(url)
        if key not in known:
            known[key] = _source_id_for(url, taken)
            taken.add(known[key])
            source = {
                "url": url,
                "title": titles.get(url) or shown(url),
                "kind": kind_of_page(url),
                "publisher": publisher or default_publisher(ledger, url),
            }
            text = add_key(text, ("sources",), known[key], source)
        if known[key] not in source_ids:
            source_ids.append(known[key])
    return text, source_ids


def add_quote(
    text: str,
    ledger: Ledger,
    claim_id: str,
    quote: str,
    urls: Sequence[str],
    *,
    titles: Mapping[str, str | None],
    publisher: str | None,
    date: dt.date,
) -> str:
    """Add a quote, verified on `urls`, to an existing claim (new pages become sources)."""
    claim = ledger.claim(claim_id)
    if any(existing.text.split() == quote.split() for existing in claim.quotes):  # spacing aside
        raise ConflictError(f"claim '{claim_id}' already quotes {quote!r}")
    text, source_ids = _sources_for(text, ledger, urls, titles, publisher)
    index = claim_index(ledger, claim_id)
    item = {"text": quote, "sources": FlowList(source_ids)}
    if claim.quotes:
        text = append_item(text, ("claims", index, "quotes"), item)
    else:
        claim_node = node_at(compose(text), ("claims", index))
        text = apply_edits(text, [add_key_edit(text, claim_node, "quotes", [item])])
    why = f"quote added, verified on {len(source_ids)} source{'s' if len(source_ids) != 1 else ''}"
    entry = history_entry(date=date, by="person", why=why, quote_now=quote)
    return _with_history(_still_valid(text, "adding the quote"), claim_id, entry)


CLAIM_TEXT_FIELDS = ("title", "statement", "section", "falsified_if")
"""The parts of a claim its author words: `edit` sets them in place."""


def set_claim_fields(
    text: str, ledger: Ledger, claim_id: str, fields: Mapping[str, str], *, date: dt.date
) -> str:
    """Reword a claim or move it to another section, in place; the claim's history says
    which parts changed (a new title or statement answers a review: `Claim.review`)."""
    claim = ledger.claim(claim_id)
    index = claim_index(ledger, claim_id)
    if "section" in fields:
        ledger.require_section(fields["section"])
    changed = [name for name, value in fields.items() if getattr(claim, name) != value]
    for name in changed:
        root = compose(text)
        if has_key(root, ("claims", index), name):
            text = set_scalar(text, ("claims", index, name), fields[name])
        else:
            node = node_at(root, ("claims", index))
            text = apply_edits(text, [add_key_edit(text, node, name, fields[name])])
    if not changed:
        return text
    entry = history_entry(date=date, by="person", why=REVISED + ", ".join(changed))
    return _with_history(_still_valid(text, "revising the claim"), claim_id, entry)


def remove_source(text: str, ledger: Ledger, source_id: str) -> str:
    """Remove a source no quote rests on (one that a quote names is refused: remove or
    move the quotes first)."""
    ledger.source(source_id)
    users = sorted(
        {claim.id for claim in ledger.claims for q in claim.quotes if source_id in q.sources}
    )
    if users:
        raise ConflictError(
            f"source '{source_id}' is quoted by {', '.join(users)}: remove those quotes first, "
            f"or merge it into another source with `source {source_id} --merge-into OTHER`"
        )
    return _still_valid(remove_key(text, ("sources",), source_id), "removing the source")


def merge_source(text: str, ledger: Ledger, source_id: str, into: str) -> str:
    """Let every quote on `source_id` rest on `into` instead, and remove `source_id`: two
    entries for one page become one."""
    ledger.source(source_id)
    ledger.source(into)
    if into == source_id:
        raise InputError("a source cannot be merged into itself")
    for index, claim in enumerate(ledger.claims):
        for number, quote in enumerate(claim.quotes):
            if source_id not in quote.sources:
                continue
            path = ("claims", index, "quotes", number, "sources")
            at = quote.sources.index(source_id)
            if into in quote.sources:  # it rests on both already: once is enough
                text = remove_item(text, path, at)
            else:
                text = set_scalar(text, (*path, at), into)
    fresh = parse(text)
    return remove_source(text, fresh, source_id)


def unused_sources(ledger: Ledger) -> list[str]:
    """Sources no quote rests on, nor cites (`via`): left behind by `remove`, listed by `check`."""
    used = {s for c in ledger.claims for q in c.quotes for s in (*q.sources, q.via) if s}
    return sorted(set(ledger.sources) - used)


def _creation(draft: NewClaim, sources: int) -> str:
    if draft.quotes:
        quotes = len(draft.quotes)
        return (
            f"recorded: {quotes} quote{'s' if quotes != 1 else ''} verified on {sources} "
            f"source{'s' if sources != 1 else ''}"
        )
    return f"recorded on {draft.basis} ({draft.grade})"


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
    """Point a source at its new address, keeping the old one in the source's history
    (without the password an older ledger may have held in it). A page is one source: an
    address another source already has is refused, with the merge that makes the two one."""
    source = ledger.source(source_id)
    other = ledger.other_source_at(new_url, source_id)
    if other is not None:
        merge = ledger.adopting_move(source_id, new_url)
        raise InputError(f"{new_url} is already source '{other}': make the two one with {merge}")
    text = set_scalar(text, ("sources", source_id, "url"), new_url)
    entry = {"date": date, "moved_from": redacted(source.url), "by": "move", "why": why}
    if has_key(compose(text), ("sources", source_id), "history"):
        return append_item(text, ("sources", source_id, "history"), entry)
    return add_key(text, ("sources", source_id), "history", [FlowMap(entry)])


SOURCE_FIELDS = ("publisher", "title", "kind", "repo", "path", "render", "wait_for")
"""What `source` sets, by its option's name less the dashes."""


def source_fields(given: Mapping[str, str | None]) -> dict[str, str]:
    """The fields the options set (None: not given), stripped and checked before anything
    is written: at least one, none empty, a kind and a rendering the ledger knows."""
    fields = {name: value.strip() for name, value in given.items() if value is not None}
    if not fields:
        options = ", ".join(f"--{name.replace('_', '-')}" for name in SOURCE_FIELDS)
        raise InputError(f"say what to set: {options}")
    empty = [f"--{name.replace('_', '-')}" for name, value in fields.items() if not value]
    if empty:
        raise InputError(f"{', '.join(empty)} must not be empty")
    for name, known in (("kind", SOURCE_KINDS), ("render", RENDERINGS)):
        if name in fields and fields[name] not in known:
            raise InputError(f"--{name} {given[name]!r}: one of {', '.join(known)}")
    return fields


def set_source_fields(text: str, ledger: Ledger, source_id: str, fields: Mapping[str, str]) -> str:
    """Change a source's publisher, title or kind, in place: who publishes decides which
    sources count as independent, so it must be the author's to set."""
    ledger.source(source_id)  # a did-you-mean when it is not there
    for name, value in fields.items():
        root = compose(text)
        if has_key(root, ("sources", source_id), name):
            text = set_scalar(text, ("sources", source_id, name), value)
        else:  # repo and path are added where the source has none yet
            node = node_at(root, ("sources", source_id))
            text = apply_edits(text, [add_key_edit(text, node, name, value)])
    return _still_valid(text, "setting the source's fields")


def set_archived(text: str, ledger: Ledger, archived: Mapping[str, str]) -> str:
    """Fill each named source's `archived` with its archived copy's address, where the
    source has none (an address the author gave is never replaced), in one pass."""
    root = tree_of(text, ledger)
    edits: list[Edit] = []
    for source_id, url in archived.items():
        if ledger.source(source_id).archived:
            continue
        if has_key(root, ("sources", source_id), "archived"):  # `archived:` left empty
            node = node_at(root, ("sources", source_id, "archived"))
            edits.append(scalar_edit(text, node, url))
        else:
            source = node_at(root, ("sources", source_id))
            edits.append(add_key_edit(text, source, "archived", url, after=_BEFORE_ARCHIVED))
    return _still_valid(apply_edits(text, edits), "filling archived") if edits else text


_BEFORE_ARCHIVED = (
    "url", "title", "kind", "publisher", "author", "independent", "select", "render", "wait_for",
)  # fmt: skip
"""The keys a source's `archived` goes after, as the schema lists them."""


# --------------------------------------------------------------------------- authoring


def add_section(text: str, ledger: Ledger, section_id: str, title: str, intro: str = "") -> str:
    """Append a section (its claims are added with `add --section`)."""
    _check_new_id(section_id, "section", [section.id for section in ledger.sections])
    section: dict[str, Any] = {"id": section_id, "title": title}
    if intro:
        section["intro"] = intro
    return append_block_item(text, ("sections",), section, gap=False)


def revise_section(
    text: str, ledger: Ledger, section_id: str, *, title: str | None, intro: str | None
) -> str:
    """Retitle a section or rewrite its intro in place (an empty intro removes it)."""
    ids = [section.id for section in ledger.sections]
    if section_id not in ids:
        raise InputError(
            f"no section {section_id!r}{did_you_mean(section_id, ids)}; give a TITLE to add it"
        )
    path = ("sections", ids.index(section_id))
    if title is not None:
        text = set_scalar(text, (*path, "title"), title)
    if intro is not None:
        text = _set_or_drop(text, path, "intro", intro)
    return _still_valid(text, f"revising section {section_id!r}")


def _set_or_drop(text: str, path: NodePath, key: str, value: str) -> str:
    """`key: value` in the mapping at `path`, replaced where it stands or added; an empty
    value removes the key (an empty intro is no intro)."""
    present = has_key(compose(text), path, key)
    if not value:
        return remove_key(text, path, key) if present else text
    if present:
        return set_scalar(text, (*path, key), value)
    return add_key(text, path, key, value)


def add_to_scope(text: str, ledger: Ledger, part: str, words: str) -> str:
    """Append what the reading did not do (or could not see) to the scope."""
    key = SCOPE_PARTS[part]
    root = tree_of(text, ledger)
    if not has_key(root, (), "scope"):
        return _still_valid(add_key(text, (), "scope", {key: [words]}), "adding to the scope")
    if not has_key(root, ("scope",), key) or not getattr(ledger.scope, key):
        if has_key(root, ("scope",), key):
            text = remove_key(text, ("scope",), key)
        return _still_valid(add_key(text, ("scope",), key, [words]), "adding to the scope")
    return _still_valid(append_item(text, ("scope", key), words), "adding to the scope")


def remove_from_scope(text: str, ledger: Ledger, part: str, number: int) -> str:
    """Remove item `number` (1 for the first) of one of the scope's lists."""
    key = SCOPE_PARTS[part]
    items = getattr(ledger.scope, key)
    if not 1 <= number <= len(items):
        held = f"items 1-{len(items)}" if items else "no items"
        raise InputError(f"the scope's {part} has {held}, not item {number}")
    return _still_valid(remove_item(text, ("scope", key), number - 1), "removing from the scope")


def _check_new_id(new_id: str, noun: str, taken: Sequence[str]) -> None:
    if not CLAIM_ID.fullmatch(new_id):
        raise InputError(f"{new_id!r} must be a lowercase id (letters a-z, digits, '.', '_', '-')")
    if new_id in taken:
        raise InputError(f"{noun} '{new_id}' already exists")


@dataclass(frozen=True)
class NewFacet:
    """A facet an author adds to a claim: what is graded, its grade and on what basis."""

    on: str
    grade: Grade
    basis: Basis
    why: str
    depends_on: tuple[str, ...] = ()


def add_facet(text: str, ledger: Ledger, claim_id: str, facet: NewFacet, *, date: dt.date) -> str:
    """Append a facet to a claim, and say so in its history."""
    claim = ledger.claim(claim_id)
    named = [f.on for f in claim.grades if facet_key(f.on) == facet_key(facet.on)]
    if named:
        raise InputError(f"claim '{claim_id}' already has a facet {named[0]!r}")
    for premise in facet.depends_on:
        ledger.claim(premise)  # a did-you-mean when it is not there
    entry: dict[str, Any] = {
        "on": facet.on,
        "grade": str(facet.grade),
        "basis": str(facet.basis),
        "why": facet.why,
    }
    if facet.depends_on:
        entry["depends_on"] = FlowList(facet.depends_on)
    index = ledger.position(claim_id)
    text = append_block_item(text, ("claims", index, "grades"), entry, gap=False)
    note = history_entry(date=date, on=facet.on, to_grade=facet.grade, by="person", why=facet.why)
    return _with_history(_still_valid(text, "adding the facet"), claim_id, note)


def remove_claim(text: str, ledger: Ledger, claim_id: str) -> str:
    """Remove a claim, refused while another claim or facet rests on it."""
    index = ledger.position(claim_id)
    resting = [
        claim.id
        for claim in ledger.claims
        if any(claim_id in claim.premises_of(facet) for facet in claim.grades)
        or claim_id in claim.depends_on
    ]
    if resting:
        raise InputError(
            f"claim '{claim_id}' is a premise of {', '.join(resting)}: remove it from their "
            "depends_on first"
        )
    return _still_valid(remove_item(text, ("claims",), index), f"removing '{claim_id}'")


def remove_quote(text: str, ledger: Ledger, claim_id: str, number: int, *, date: dt.date) -> str:
    """Remove a claim's quote `number` (1 for its first), and say so in its history."""
    claim = ledger.claim(claim_id)
    if not 1 <= number <= len(claim.quotes):
        held = f"quotes 1-{len(claim.quotes)}" if claim.quotes else "no quotes"
        raise InputError(f"claim '{claim_id}' has {held}, not quote {number}")
    index = ledger.position(claim_id)
    quote = claim.quotes[number - 1]
    text = remove_item(text, ("claims", index, "quotes"), number - 1)
    note = history_entry(date=date, quote_was=quote.text, by="person", why="removed")
    return _with_history(_still_valid(text, "removing the quote"), claim_id, note)


def remove_facet(text: str, ledger: Ledger, claim_id: str, on: str, *, date: dt.date) -> str:
    """Remove one facet of a claim (a claim keeps at least one), noting it in history."""
    claim = ledger.claim(claim_id)
    facet = claim.facet(on)  # a did-you-mean when it is not there
    if len(claim.grades) == 1:
        raise InputError(
            f"{facet.on!r} is the only facet of '{claim_id}'; remove the claim instead"
        )
    index = ledger.position(claim_id)
    text = remove_item(text, ("claims", index, "grades"), claim.grades.index(facet))
    note = history_entry(date=date, on=facet.on, from_grade=facet.grade, by="person", why="removed")
    return _with_history(_still_valid(text, "removing the facet"), claim_id, note)


def set_field(text: str, ledger: Ledger, name: str, value: str) -> str:
    """Set one of the ledger's own fields, replacing it where it stands or adding it."""
    if name not in LEDGER_FIELDS:
        raise InputError(
            f"{name!r} is not one of {', '.join(LEDGER_FIELDS)}{did_you_mean(name, LEDGER_FIELDS)}"
        )
    root = tree_of(text, ledger)
    is_date = name == "date_read" and _is_date(value)
    if has_key(root, (), name):
        node = node_at(root, (name,))
        edit = scalar_edit(text, node, value)
        new = apply_edits(text, [(edit[0], edit[1], value) if is_date else edit])
    else:
        stored: Any = dt.date.fromisoformat(value) if is_date else value
        placed_after = LEDGER_FIELDS[: LEDGER_FIELDS.index(name)]
        new = apply_edits(text, [add_key_edit(text, root, name, stored, after=placed_after)])
    return _still_valid(new, f"setting {name}")


def check_reading_day(value: str, today: dt.date) -> None:
    """A reading is dated the day it was made, never later than today (a day's grace for
    a reader ahead of UTC): a later date_read would date every change since as before it."""
    if _is_date(value) and dt.date.fromisoformat(value) > today + dt.timedelta(days=1):
        raise InputError(f"date_read {value} is later than today ({today.isoformat()})")


def _is_date(value: str) -> bool:
    try:
        dt.date.fromisoformat(value)
    except ValueError:
        return False
    return True


def refute(text: str, ledger: Ledger, claim_id: str, *, why: str, by: str, date: dt.date) -> str:
    """Record that a claim's falsifier fired: when, why and who saw it. The claim is then
    shown as refuted, and what rests on it is capped on the next regrade."""
    claim = ledger.claim(claim_id)
    if claim.falsified is not None:
        raise InputError(
            f"claim '{claim_id}' was already refuted on {claim.falsified.date}: "
            f"{claim.falsified.why}"
        )
    index = ledger.position(claim_id)
    refutation = FlowMap({"date": date, "why": why, "by": by})
    text = apply_edits(
        text,
        [
            add_key_edit(
                text, node_at(tree_of(text, ledger), ("claims", index)), "falsified", refutation
            )
        ],
    )
    note = history_entry(date=date, by=by, why=REFUTED + why)
    return _with_history(text, claim_id, note)


def confirm_review(text: str, ledger: Ledger, claim_id: str, *, why: str, date: dt.date) -> str:
    """Record that the author re-read a claim whose evidence changed meaning and stands by
    it as written: the rules may raise its grades again."""
    claim = ledger.claim(claim_id)
    if claim.review is None:
        raise InputError(f"claim '{claim_id}' needs no review: no adopted wording changed meaning")
    return _with_history(text, claim_id, history_entry(date=date, by=REVIEWED, why=why))


def _with_history(text: str, claim_id: str, entry: Mapping[str, Any]) -> str:
    """The text of a valid ledger, with one more entry in a claim's history."""
    return append_history(text, parse(text), claim_id, entry)


def _still_valid(text: str, what: str) -> str:
    """The edited text, or the author's error when the edit would leave the ledger invalid
    (a premise removed that another claim names, a quote that a facet's basis needs)."""
    try:
        parse(text)
    except LedgerError as error:
        raise InputError(
            f"{what} would leave the ledger invalid: {error.problems[0].message}"
        ) from None
    return text
