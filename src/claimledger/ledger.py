"""The ledger: its model, and parsing claims.yaml's text into it with every problem reported.

Pure: text in, a `Ledger` or a `LedgerError` out (reading the file is `ledgerfile`'s).
Parsing is three passes over the same located data, so that one run reports every
problem at once: the YAML itself (safeyaml), the shape (the JSON Schema that
`claimledger schema` prints, so editors and the tool agree), and the meaning
(references, cycles, what each basis needs). Only a ledger with no problem becomes
a `Ledger`.
"""

from __future__ import annotations

import datetime as dt
import functools
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from claimledger.errors import LedgerError, Problem, UnknownIdError
from claimledger.safeyaml import Located, Path_, load_located
from claimledger.schema import LEDGER_SCHEMA
from claimledger.shape import Finding, did_you_mean, shape_problems
from claimledger.urls import is_web_url
from claimledger.vocabulary import Basis, Grade


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    intro: str = ""
    after: str = ""


@dataclass(frozen=True)
class Closing:
    """A part of the essay after the graded sections: its title and the author's markdown."""

    title: str
    body: str


@dataclass(frozen=True)
class SourceMove:
    """A source's earlier address, kept when `claimledger move` adopted a new one."""

    date: str
    moved_from: str
    by: str
    why: str | None = None


@dataclass(frozen=True)
class Source:
    id: str
    url: str
    title: str
    kind: str
    publisher: str
    independent: bool = False
    select: str | None = None
    archived: str | None = None
    note: str | None = None
    accept_status: frozenset[int] = frozenset()
    allow_private: bool = False
    history: tuple[SourceMove, ...] = ()
    author: str | None = None

    @property
    def independence_key(self) -> str:
        """Sources sharing this key count once toward `min_sources`."""
        return f"source:{self.id}" if self.independent else f"publisher:{self.publisher}"


@dataclass(frozen=True)
class Quote:
    """Exact words, the sources they are checked on, and whose words they are: the
    subject's own (read on its pages), or a third party's report of them (`reported_by`,
    the report's source; `via`, the primary it cites)."""

    text: str
    sources: tuple[str, ...]
    note: str | None = None
    reported_by: str | None = None
    via: str | None = None
    under: str | None = None


@dataclass(frozen=True)
class Facet:
    on: str
    grade: Grade
    basis: Basis
    why: str = ""
    min_sources: int = 1
    depends_on: tuple[str, ...] | None = None
    """The premises this facet rests on; None: the claim's."""


@dataclass(frozen=True)
class Refutation:
    """The falsifier was met: when, why, and who said so."""

    date: str
    why: str
    by: str = "person"


@dataclass(frozen=True)
class Artifact:
    run: tuple[str, ...] | str
    expect: str
    shell: bool = False
    timeout: float = 60.0
    language: str | None = None
    code: str | None = None


@dataclass(frozen=True)
class HistoryEntry:
    date: str
    by: str
    on: str | None = None
    from_grade: Grade | None = None
    to_grade: Grade | None = None
    quote_was: str | None = None
    quote_now: str | None = None
    why: str | None = None

    def describe(self) -> str:
        """The entry on one line, as every table and the report show it."""
        parts = [self.date]
        if self.on:
            parts.append(f"on {self.on}")
        if self.from_grade is not None or self.to_grade is not None:
            parts.append(f"{self.from_grade or '?'} → {self.to_grade or '?'}")
        if self.quote_was is not None or self.quote_now is not None:
            parts.append(f"wording was “{self.quote_was or ''}”, now “{self.quote_now or ''}”")
        parts.append(f"by {self.by}")
        line = ", ".join(parts)
        return f"{line}: {self.why}" if self.why else line


@dataclass(frozen=True)
class Claim:
    id: str
    section: str
    title: str
    statement: str
    kind: str
    grades: tuple[Facet, ...]
    quotes: tuple[Quote, ...] = ()
    depends_on: tuple[str, ...] = ()
    falsified_if: str | None = None
    falsified: Refutation | None = None
    artifact: Artifact | None = None
    history: tuple[HistoryEntry, ...] = ()
    body: str = ""
    line: int = 0

    def premises_of(self, facet: Facet) -> tuple[str, ...]:
        """The claims a facet rests on: its own premises, else the claim's."""
        return facet.depends_on if facet.depends_on is not None else self.depends_on

    def facet(self, on: str | None) -> Facet:
        """The facet named `on`, or the first one when `on` is None."""
        if on is None:
            return self.grades[0]
        for facet in self.grades:
            if facet.on == on:
                return facet
        names = [f.on for f in self.grades]
        raise UnknownIdError(
            f"claim '{self.id}' has no facet {on!r}{did_you_mean(on, names)}; "
            f"its facets are {', '.join(map(repr, names))}"
        )


@dataclass(frozen=True)
class Scope:
    did_not: tuple[str, ...] = ()
    could_not_see: tuple[str, ...] = ()


@dataclass(frozen=True)
class ParsedText:
    """A ledger's text and the YAML node tree it parsed to: an edit of this very text can
    find its places in the tree without reading the text again."""

    text: str
    tree: Any


@dataclass(frozen=True)
class Ledger:
    title: str
    date_read: dt.date
    sections: tuple[Section, ...]
    sources: Mapping[str, Source]
    claims: tuple[Claim, ...]
    subject: str = ""
    author: str = ""
    about: str = ""
    closing: tuple[Closing, ...] = ()
    scope: Scope = field(default_factory=Scope)
    parsed_from: ParsedText | None = field(default=None, compare=False, repr=False)
    """The text this ledger was parsed from, and its YAML tree (for edits of that text)."""

    def claim(self, claim_id: str) -> Claim:
        found = self._claims_by_id.get(claim_id)
        if found is not None:
            return found
        raise UnknownIdError(
            f"no claim '{claim_id}' in the ledger{did_you_mean(claim_id, self.claim_ids)}"
        )

    @functools.cached_property
    def _claims_by_id(self) -> dict[str, Claim]:
        return {claim.id: claim for claim in self.claims}

    def position(self, claim_id: str) -> int:
        """Where a claim stands in the ledger's list of claims (0 for the first)."""
        return self._positions[self.claim(claim_id).id]

    @functools.cached_property
    def _positions(self) -> dict[str, int]:
        return {claim.id: index for index, claim in enumerate(self.claims)}

    def source(self, source_id: str) -> Source:
        if source_id in self.sources:
            return self.sources[source_id]
        raise UnknownIdError(
            f"no source '{source_id}' in the ledger{did_you_mean(source_id, self.sources)}"
        )

    @property
    def claim_ids(self) -> list[str]:
        return [claim.id for claim in self.claims]

    def grade_counts(self) -> dict[Grade, int]:
        """How many facets carry each grade, in grade order."""
        counts = dict.fromkeys(Grade, 0)
        for claim in self.claims:
            for facet in claim.grades:
                counts[facet.grade] += 1
        return counts


# --------------------------------------------------------------------------- loading


def parse(text: str, filename: str = "claims.yaml") -> Ledger:
    """Build a ledger from its text; `filename` is only used in messages."""
    located, yaml_problems = load_located(text)
    problems = [Problem(filename, p.line, p.col, _one_line(p.message)) for p in yaml_problems]
    if located is None:
        raise LedgerError(problems)
    if not isinstance(located.data, dict):
        problems.append(
            Problem(filename, 1, 1, "the top level must be a mapping (ledger: 1, title: …)")
        )
        raise LedgerError(problems)
    unreadable = {(p.line, p.col) for p in yaml_problems}  # already said; not again as shape
    findings = [*shape_problems(located), *_meaning_problems(located)]
    problems += [
        Problem(filename, *where, _one_line(message))
        for where, message in findings
        if where not in unreadable
    ]
    if problems:
        raise LedgerError(problems)
    return replace(_build(located.data), parsed_from=ParsedText(text, located.tree))


def _one_line(message: str) -> str:
    """A value quoted in a message may hold line breaks; a problem is one line."""
    return message.replace("\r", "\\r").replace("\n", "\\n")


# --------------------------------------------------------------------------- shape


def ledger_schema() -> dict[str, Any]:
    """The JSON Schema of a ledger, shared by `claimledger schema` and the loader."""
    return LEDGER_SCHEMA


# --------------------------------------------------------------------------- meaning


def _meaning_problems(located: Located) -> Iterator[Finding]:
    """What the schema cannot say: references, uniqueness, cycles, what a basis needs.

    Runs even when the shape is wrong, looking only at the parts that are well formed,
    so one run reports every problem.
    """
    data = located.data
    sources = data.get("sources")
    source_ids = [k for k in sources if isinstance(k, str)] if isinstance(sources, dict) else []
    sections = _records(data.get("sections"))
    claims = _records(data.get("claims"))
    yield from _url_problems(located, sources if isinstance(sources, dict) else {})
    yield from _date_problems(located, claims, sources if isinstance(sources, dict) else {})
    yield from _duplicate_ids(located, "sections", sections)
    yield from _duplicate_ids(located, "claims", claims)
    section_ids = [s["id"] for _, s in sections if isinstance(s.get("id"), str)]
    claim_ids = [c["id"] for _, c in claims if isinstance(c.get("id"), str)]
    for index, claim in claims:
        at: Path_ = ("claims", index)
        section = claim.get("section")
        if isinstance(section, str) and section_ids and section not in section_ids:
            yield _unknown(located, (*at, "section"), "section", section, section_ids)
        for q_index, quote in _records(claim.get("quotes")):
            yield from _quote_problems(located, (*at, "quotes", q_index), quote, source_ids)
        premise_lists = [(*at, "depends_on")]
        premise_lists += [
            (*at, "grades", f, "depends_on") for f, _ in _records(claim.get("grades"))
        ]
        for where in premise_lists:
            for d_index, premise in _texts(_value_at(data, where)):
                path = (*where, d_index)
                if premise == claim.get("id"):
                    yield located.where(path), f"claim '{premise}' depends on itself"
                elif premise not in claim_ids:
                    yield _unknown(located, path, "claim", premise, claim_ids)
        yield from _basis_problems(located, at, claim)
    yield from _cycle_problems(located, claims)


def _quote_problems(
    located: Located, at: Path_, quote: dict[str, Any], source_ids: Sequence[str]
) -> Iterator[Finding]:
    """Each source a quote names exists; the report that carries it is one of them."""
    cited = [source_id for _, source_id in _texts(quote.get("sources"))]
    for s_index, source_id in _texts(quote.get("sources")):
        if source_ids and source_id not in source_ids:
            yield _unknown(located, (*at, "sources", s_index), "source", source_id, source_ids)
    for key in ("reported_by", "via"):
        named = quote.get(key)
        if isinstance(named, str) and source_ids and named not in source_ids:
            yield _unknown(located, (*at, key), "source", named, source_ids)
    reporter = quote.get("reported_by")
    if isinstance(reporter, str) and reporter in source_ids and cited and reporter not in cited:
        yield (
            located.where((*at, "reported_by")),
            f"reported_by '{reporter}' must be one of the quote's sources: the words are "
            "checked in the report that carries them",
        )


def _value_at(data: Any, path: Path_) -> Any:
    for part in path:
        if isinstance(part, int):
            data = data[part] if isinstance(data, list) and part < len(data) else None
        else:
            data = data.get(part) if isinstance(data, dict) else None
    return data


def _records(value: Any) -> list[tuple[int, dict[str, Any]]]:
    """The mappings of a list, with their indexes; anything else was reported as shape."""
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, dict)]


def _texts(value: Any) -> list[tuple[int, str]]:
    """The strings of a list, with their indexes."""
    if not isinstance(value, list):
        return []
    return [(i, item) for i, item in enumerate(value) if isinstance(item, str)]


def _url_problems(located: Located, sources: dict[str, Any]) -> Iterator[Finding]:
    """URLs the schema's pattern lets through but that name no host (http:///x)."""
    for source_id, source in sources.items():
        if not isinstance(source, dict):
            continue
        places: list[tuple[Path_, Any]] = [
            (("sources", source_id, key), source.get(key)) for key in ("url", "archived")
        ]
        places += [
            (("sources", source_id, "history", index, "moved_from"), entry.get("moved_from"))
            for index, entry in _records(source.get("history"))
        ]
        for path, url in places:
            if not isinstance(url, str) or not url.startswith(("http://", "https://")):
                continue  # missing, or reported by the schema
            if not is_web_url(url):
                yield located.where(path), f"{path[-1]} {url!r} is not an http(s) URL with a host"


_DATE_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _date_problems(
    located: Located, claims: list[tuple[int, dict[str, Any]]], sources: dict[str, Any]
) -> Iterator[Finding]:
    """Dates the schema's pattern lets through but the calendar does not (2026-13-45)."""
    dated: list[tuple[Path_, Any]] = [(("date_read",), located.data.get("date_read"))]
    for index, claim in claims:
        for h_index, entry in _records(claim.get("history")):
            dated.append((("claims", index, "history", h_index, "date"), entry.get("date")))
    for source_id, source in sources.items():
        if isinstance(source, dict):
            for h_index, entry in _records(source.get("history")):
                dated.append(
                    (("sources", source_id, "history", h_index, "date"), entry.get("date"))
                )
    for path, value in dated:
        if not isinstance(value, str) or not _DATE_SHAPE.fullmatch(value):
            continue  # missing, or reported by the schema
        try:
            dt.date.fromisoformat(value)
        except ValueError as err:
            yield located.where(path), f"{path[-1]} {value!r} is not a real date: {err}"


def _duplicate_ids(
    located: Located, key: str, items: list[tuple[int, dict[str, Any]]]
) -> Iterator[Finding]:
    """Report each id that repeats one earlier in the list."""
    seen: dict[str, int] = {}
    for index, item in items:
        item_id = item.get("id")
        if not isinstance(item_id, str):
            continue
        if item_id in seen:
            line = located.where((key, seen[item_id], "id"))[0]
            noun = key.rstrip("s")
            yield (
                located.where((key, index, "id")),
                f"duplicate {noun} id '{item_id}' (first at line {line})",
            )
        else:
            seen[item_id] = index


def _unknown(located: Located, path: Path_, noun: str, value: str, known: Sequence[str]) -> Finding:
    return located.where(path), f"unknown {noun} '{value}'{did_you_mean(value, known)}"


_BASIS_NEEDS = {"quotes": "quotes", "premises": "depends_on", "artifact": "artifact"}


def _basis_problems(located: Located, at: Path_, claim: dict[str, Any]) -> Iterator[Finding]:
    names: list[str] = []
    for f_index, facet in _records(claim.get("grades")):
        needed = _BASIS_NEEDS.get(str(facet.get("basis")))
        own = needed == "depends_on" and facet.get("depends_on")  # the facet's own premises
        if needed and not claim.get(needed) and not own:
            yield (
                located.where((*at, "grades", f_index, "basis")),
                f"facet '{facet.get('on')}' has basis '{facet['basis']}' but claim "
                f"'{claim.get('id')}' has no {needed}",
            )
        name = facet.get("on")
        if isinstance(name, str) and name in names:
            yield (
                located.where((*at, "grades", f_index, "on")),
                f"duplicate facet '{name}' in claim '{claim.get('id')}'",
            )
        names.append(str(name))


def _cycle_problems(
    located: Located, claims: list[tuple[int, dict[str, Any]]]
) -> Iterator[Finding]:
    premises: dict[str, list[str]] = {}
    index_of: dict[str, int] = {}
    for index, claim in claims:
        if isinstance(claim.get("id"), str):
            named = [p for _, p in _texts(claim.get("depends_on"))]
            for _, facet in _records(claim.get("grades")):
                named += [p for _, p in _texts(facet.get("depends_on"))]
            premises.setdefault(claim["id"], list(dict.fromkeys(named)))
            index_of.setdefault(claim["id"], index)
    for cycle in find_cycles(premises):
        chain = " -> ".join([*cycle, cycle[0]])
        yield (
            located.where(("claims", index_of[cycle[0]], "depends_on")),
            f"depends_on cycle: {chain}",
        )


def find_cycles(graph: Mapping[str, Sequence[str]]) -> list[list[str]]:
    """Each elementary cycle once, found by depth-first search, starting at its least id.

    The search keeps its own stack, so a long chain of premises cannot exhaust
    Python's recursion limit.
    """
    cycles: list[list[str]] = []
    seen: set[tuple[str, ...]] = set()
    state: dict[str, int] = {}
    for root in sorted(graph):
        if root in state:
            continue
        state[root] = 1
        stack = [root]
        pending = [iter(graph.get(root, []))]
        while pending:
            nxt = next(pending[-1], None)
            if nxt is None:
                pending.pop()
                state[stack.pop()] = 2
            elif nxt not in graph or nxt == stack[-1]:
                continue
            elif state.get(nxt) == 1:
                cycle = stack[stack.index(nxt) :]
                start = cycle.index(min(cycle))
                canonical = tuple(cycle[start:] + cycle[:start])
                if canonical not in seen:
                    seen.add(canonical)
                    cycles.append(list(canonical))
            elif nxt not in state:
                state[nxt] = 1
                stack.append(nxt)
                pending.append(iter(graph.get(nxt, [])))
    return cycles


# --------------------------------------------------------------------------- building


def _build(data: dict[str, Any]) -> Ledger:
    return Ledger(
        title=data["title"],
        subject=data.get("subject", ""),
        author=data.get("author", ""),
        about=data.get("about", ""),
        date_read=dt.date.fromisoformat(data["date_read"]),
        sections=tuple(
            Section(s["id"], s["title"], s.get("intro", ""), s.get("after", ""))
            for s in data["sections"]
        ),
        closing=tuple(Closing(part["title"], part["body"]) for part in data.get("closing", [])),
        sources={sid: _build_source(sid, s) for sid, s in data["sources"].items()},
        claims=tuple(_build_claim(c) for c in data["claims"]),
        scope=Scope(
            did_not=tuple(data.get("scope", {}).get("did_not", [])),
            could_not_see=tuple(data.get("scope", {}).get("could_not_see", [])),
        ),
    )


def _build_source(source_id: str, s: dict[str, Any]) -> Source:
    return Source(
        id=source_id,
        url=s["url"],
        title=s["title"],
        kind=s["kind"],
        publisher=s["publisher"],
        independent=s.get("independent", False),
        select=s.get("select"),
        archived=s.get("archived"),
        note=s.get("note"),
        accept_status=frozenset(s.get("accept_status", [])),
        allow_private=s.get("allow_private", False),
        author=s.get("author"),
        history=tuple(
            SourceMove(h["date"], h["moved_from"], h["by"], h.get("why"))
            for h in s.get("history", [])
        ),
    )


def _build_claim(c: dict[str, Any]) -> Claim:
    artifact = c.get("artifact")
    return Claim(
        id=c["id"],
        section=c["section"],
        title=c["title"],
        statement=c["statement"],
        kind=c["kind"],
        grades=tuple(
            Facet(
                f["on"],
                Grade(f["grade"]),
                Basis(f["basis"]),
                f.get("why", ""),
                f.get("min_sources", 1),
                tuple(f["depends_on"]) if "depends_on" in f else None,
            )
            for f in c["grades"]
        ),
        quotes=tuple(
            Quote(
                q["text"],
                tuple(q["sources"]),
                q.get("note"),
                q.get("reported_by"),
                q.get("via"),
                q.get("under"),
            )
            for q in c.get("quotes", [])
        ),
        depends_on=tuple(c.get("depends_on", [])),
        falsified_if=c.get("falsified_if"),
        falsified=None
        if "falsified" not in c
        else Refutation(
            c["falsified"]["date"], c["falsified"]["why"], c["falsified"].get("by", "person")
        ),
        artifact=None
        if artifact is None
        else Artifact(
            run=tuple(artifact["run"]) if isinstance(artifact["run"], list) else artifact["run"],
            expect=artifact["expect"],
            shell=artifact.get("shell", False),
            timeout=float(artifact.get("timeout", 60.0)),
            language=artifact.get("language"),
            code=artifact.get("code"),
        ),
        history=tuple(_build_history(h) for h in c.get("history", [])),
        body=c.get("body", ""),
    )


def _build_history(h: dict[str, Any]) -> HistoryEntry:
    return HistoryEntry(
        date=h["date"],
        by=h["by"],
        on=h.get("on"),
        from_grade=Grade(h["from"]) if "from" in h else None,
        to_grade=Grade(h["to"]) if "to" in h else None,
        quote_was=h.get("quote_was"),
        quote_now=h.get("quote_now"),
        why=h.get("why"),
    )
