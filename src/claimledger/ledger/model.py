"""The ledger: its model, and parsing claims.yaml's text into it with every problem reported.

Pure: text in, a `Ledger` or a `LedgerError` out (reading the file is `ledgerfile`'s).
Parsing is three passes over the same located data, so that one run reports every
problem at once: the YAML itself (safeyaml), the shape (the JSON Schema that
`claimledger schema` prints, so editors and the tool agree), and the meaning
(references, cycles, what each basis needs). Only a ledger with no problem becomes
a `Ledger`.

Positions cost most of that time and serve only a ledger with a problem, so a ledger is
first read without them: by the fast reader of plain block YAML (plainyaml), confirmed
as YAML by libyaml, checked by the schema compiled strictly (strictschema) and for its
meaning. Only when one of these is unsure or finds a problem is the text read again
with every position, as above, and every problem reported where it is.
"""

from __future__ import annotations

import datetime as dt
import functools
import itertools
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

from claimledger.errors import LedgerError, Problem, UnknownIdError, breaks_escaped
from claimledger.ledger.located import Located, Path_, collector_paused
from claimledger.ledger.schema import LEDGER_SCHEMA
from claimledger.ledger.shape import did_you_mean, shape_accepts, shape_problems
from claimledger.ledger.soundness import meaning_problems
from claimledger.ledger.vocabulary import Basis, Grade
from claimledger.urls import has_secrets, lower_scheme_and_host, page_key, redacted, was_redacted


@dataclass(frozen=True, slots=True)
class Section:
    id: str
    title: str
    intro: str = ""
    after: str = ""


@dataclass(frozen=True, slots=True)
class Closing:
    """A part of the essay after the graded sections: its title and the author's markdown."""

    title: str
    body: str


@dataclass(frozen=True, slots=True)
class SourceMove:
    """A source's earlier address, kept when `claimledger move` adopted a new one."""

    date: str
    moved_from: str
    by: str
    why: str | None = None


@dataclass(frozen=True, slots=True)
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
    repo: str | None = None
    """The git repository the page is built from, and the file (`path`): its history
    says when the page's words changed (`blame`)."""
    path: str | None = None
    render: str = "http"
    """How the page is read: "http", as the server sends it; "browser", once its scripts
    ran (a page built by JavaScript), after `wait_for` matched or the network went idle."""
    wait_for: str | None = None

    @property
    def independence_key(self) -> str:
        """Sources sharing this key count once toward `min_sources`."""
        return f"source:{self.id}" if self.independent else publisher_independence(self.publisher)

    @property
    def counted_as(self) -> str:
        """Who the source counts for, as a report's cross-check line names it."""
        return f"{self.publisher} (marked independent)" if self.independent else self.publisher


def publisher_key(source: Source) -> str:
    """The source's publisher as it is compared (`publisher_compared`)."""
    return publisher_compared(source.publisher)


_SITE_WRITTEN = re.compile(r"(?:https?://)?(?:[a-z0-9-]+\.)+[a-z]{2,63}\.?(?:/\S*)?", re.ASCII)
"""A publisher written as a site: `vendor.com`, `www.vendor.com`, `https://vendor.com/`,
`github.com/vendor` (not "Vendor Inc", nor "A. Writer")."""


@functools.cache
def publisher_compared(publisher: str) -> str:
    """A publisher's name as it is compared: without regard to case or to the spaces around
    and within it, so that "Vendor.com" written for one source and "vendor.com" for another
    never count as two independent publishers; nor, for a name written as a site, to its
    scheme, its `www.`, a final dot or slash ("https://www.vendor.com/" is "vendor.com"),
    so that one site's two spellings never do either."""
    name = " ".join(publisher.split()).casefold()
    if _SITE_WRITTEN.fullmatch(name) is None:
        return name
    host, slash, path = re.sub(r"^https?://", "", name).rstrip("/").partition("/")
    return host.rstrip(".").removeprefix("www.") + slash + path


def publisher_independence(publisher: str) -> str:
    """The independence key of the sources `publisher` publishes (`Source.independence_key`)."""
    return f"publisher:{publisher_compared(publisher)}"


def _worded_since(adopted: str, later: Iterable[HistoryEntry]) -> set[str]:
    """The words an adopted quote has had since its adoption: the adopted ones, and each
    rewording adopted on top of them in turn, so that removing the quote in its latest
    words answers the adoption as removing it at once did."""
    words = {adopted}
    for entry in later:
        if entry.quote_was in words and entry.quote_now is not None:
            words.add(entry.quote_now)
    return words


def facet_key(on: str) -> str:
    """A facet's name as two facets of one claim are told apart: without regard to case
    or spaces, so that "Holds at a crash" and "holds at a crash " are one facet named
    twice, never two that read alike in the report."""
    return " ".join(on.split()).casefold()


@dataclass(frozen=True, slots=True)
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


@dataclass(frozen=True, slots=True)
class Facet:
    on: str
    grade: Grade
    basis: Basis
    why: str = ""
    min_sources: int = 1
    depends_on: tuple[str, ...] | None = None
    """The premises this facet rests on; None: the claim's."""


@dataclass(frozen=True, slots=True)
class Refutation:
    """The falsifier was met: when, why, and who said so."""

    date: str
    why: str
    by: str = "person"


@dataclass(frozen=True, slots=True)
class Artifact:
    run: tuple[str, ...] | str
    expect: str
    shell: bool = False
    timeout: float = 60.0
    language: str | None = None
    code: str | None = None


REVIEWED = "review"
"""Who a history entry is by when the author confirmed a claim under review."""
REVISED = "revised: "
"""How a history entry begins when the author reworded parts of a claim (then named)."""
REFUTED = "refuted: "
"""How a history entry begins when the author recorded that the claim's falsifier was met."""


@dataclass(frozen=True, slots=True)
class HistoryEntry:
    date: str
    by: str
    on: str | None = None
    from_grade: Grade | None = None
    to_grade: Grade | None = None
    quote_was: str | None = None
    quote_now: str | None = None
    why: str | None = None
    meaning: str | None = None
    """On an adoption: "changed" or "uncertain", when the wording adopted changed, or may
    have changed, what the quote meant (the claim then needs its author's review)."""

    def describe(self) -> str:
        """The entry on one line, as every table and the report show it."""
        parts = [self.date]
        if self.on:
            parts.append(f"on {self.on}")
        if self.from_grade is not None and self.to_grade is not None:
            parts.append(f"{self.from_grade} → {self.to_grade}")
        elif self.to_grade is not None:
            parts.append(f"graded {self.to_grade}")  # a facet added
        elif self.from_grade is not None:
            parts.append(f"was {self.from_grade}")  # a facet removed
        if self.quote_was and self.quote_now:
            parts.append(f"wording was “{self.quote_was}”, now “{self.quote_now}”")
        elif self.quote_now:
            parts.append(f"quote added: “{self.quote_now}”")
        elif self.quote_was:
            parts.append(f"quote removed: “{self.quote_was}”")
        if self.meaning:
            parts.append(f"meaning {'may have ' if self.meaning == 'uncertain' else ''}changed")
        parts.append(f"by {self.by}")
        line = ", ".join(parts)
        return f"{line}: {self.why}" if self.why else line


_PROSE = frozenset({"statement", "falsified_if"})
"""The parts written as prose, whose paragraphs and list lines are kept."""


def tidied(name: str, value: str) -> str:
    """A part as the ledger keeps it: a title or a section on one line; prose with its
    lines (paragraphs, a list) kept, each line's spacing tidied, at most one blank line
    between paragraphs."""
    if name not in _PROSE:
        return " ".join(value.split())
    lines = [" ".join(line.split()) for line in value.strip().splitlines()]
    kept = [line for i, line in enumerate(lines) if line or (i and lines[i - 1])]
    return "\n".join(kept)


@dataclass(frozen=True, slots=True)
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

    def as_read(self, text: str, on: str | None = None) -> tuple[str, HistoryEntry | None]:
        """The wording a quote had on the reading day, and the latest adoption that changed
        it (None when it never changed): adoptions are followed back, newest first. With
        `on` (the reading day, ISO), only those made after it: a wording adopted by then
        is the one that was read (the reading day moved past it: the page was re-read)."""
        chain = self.adoptions(text)
        if on is not None:
            chain = tuple(itertools.takewhile(lambda entry: entry.date > on, chain))
        if not chain:
            return text, None
        return chain[-1].quote_was or text, chain[0]

    def place_now(self, text: str) -> int | None:
        """The place (from 0) of the quote the claim now holds that the wording `text` is,
        or became through the wordings adopted since; None when it holds it no more (it was
        removed). A check keeps the place its quote had when it was made, which a quote
        removed before it has shifted since."""
        places = {quote.text: index for index, quote in enumerate(self.quotes)}
        for _ in range(len(self.history) + 1):  # an adoption undone later cannot loop
            if text in places:
                return places[text]
            later = (e.quote_now for e in reversed(self.history) if e.quote_was == text)
            following = next((now for now in later if now is not None), None)
            if following is None:
                return None
            text = following
        return None

    def adoptions(self, text: str) -> tuple[HistoryEntry, ...]:
        """Every adoption that led to the wording `text`, newest first: one rewording may
        have changed the meaning although the latest did not."""
        chain: list[HistoryEntry] = []
        for entry in reversed(self.history):
            if entry.quote_now == text and entry.quote_was is not None:
                chain.append(entry)
                text = entry.quote_was
        return tuple(chain)

    @property
    def review(self) -> HistoryEntry | None:
        """The newest adoption that changed, or may have changed, what a quote of this claim
        means, when its author has not answered it since: the claim's text and grades may
        no longer follow from its evidence. None when the claim needs no review."""
        for index in range(len(self.history) - 1, -1, -1):
            adoption = self.history[index]
            if adoption.meaning is None or adoption.quote_now is None:
                continue
            later = self.history[index + 1 :]
            words = _worded_since(adoption.quote_now, later)
            if not any(self._answers(act, words) for act in later):
                return adoption
        return None

    def _answers(self, act: HistoryEntry, words: set[str]) -> bool:
        """Whether a later act of the author answers an adoption: `review --confirm`, the
        claim refuted, its title or statement reworded, a grade set on a facet that rests on
        quotes, or the adopted quote removed. Moving the claim, adding a facet or another
        quote, or grading a judgement does not: none of them says the claim still holds."""
        if act.by == REVIEWED:
            return True
        if act.by != "person":
            return False
        why = act.why or ""
        if why.startswith(REFUTED):
            return True
        if why.startswith(REVISED):
            return bool({"title", "statement"} & set(why.removeprefix(REVISED).split(", ")))
        if act.quote_was is not None and act.quote_now is None:
            return act.quote_was in words  # the adopted quote removed, in any words since
        graded = act.on is not None and act.from_grade is not None and act.to_grade is not None
        facet = next((f for f in self.grades if f.on == act.on), None) if graded else None
        return facet is not None and facet.basis is Basis.QUOTES

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


@dataclass(frozen=True, slots=True)
class Scope:
    did_not: tuple[str, ...] = ()
    could_not_see: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class ParsedText:
    """A ledger's text and the YAML node tree it parsed to: an edit of this very text can
    find its places in the tree without reading the text again."""

    text: str
    tree: Any
    """None when the text was read without one (the fast reader): an edit composes it."""


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

    def require_section(self, section_id: str) -> None:
        """Refuse a `--section` the ledger has not, as every command taking one does."""
        ids = [section.id for section in self.sections]
        if section_id not in ids:
            raise UnknownIdError(
                f"--section {section_id!r} is not a section{did_you_mean(section_id, ids)}; "
                f"the sections are {', '.join(ids)} (add one with `claimledger section`)"
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

    def sources_at(self, url: str) -> tuple[Source, ...]:
        """The sources at `url`, as `urls.redacted` shows both: how a fetch is matched to
        the sources it answers for."""
        return self._sources_by_url.get(redacted(url), ())

    def other_source_at(self, url: str, source_id: str | None = None) -> str | None:
        """Another source than `source_id` (any, where None) already at `url`'s page: a page
        is one source, whatever its fragment, trailing slash or spelling of host and port
        (`page_key`, as `add` finds the source of a page)."""
        key = page_key(url)
        others = (s for s in self.sources.values() if s.id != source_id)
        return next((s.id for s in others if page_key(s.url) == key), None)

    def adopting_move(self, source_id: str, new_url: str) -> str:
        """The command that adopts a source's move: `move`, or, where another source is
        already at the new address, the merge that makes the two one (`move` refuses); with
        the address given, where it holds a secret (`move` refuses to write it as kept)."""
        if has_secrets(new_url) or was_redacted(new_url):
            return f"`claimledger move {source_id} NEW_URL`"
        other = self.other_source_at(new_url, source_id)
        if other is not None:
            return f"`claimledger source {source_id} --merge-into {other}`"
        return f"`claimledger move {source_id}`"

    @functools.cached_property
    def copies(self) -> frozenset[str]:
        """The sources marked `kind: mirror` and not `independent`: copies of a page, whose
        words add no confirmation of their own to the quote's other sources."""
        return frozenset(
            sid for sid, s in self.sources.items() if s.kind == "mirror" and not s.independent
        )

    @functools.cached_property
    def _sources_by_url(self) -> dict[str, tuple[Source, ...]]:
        found: dict[str, tuple[Source, ...]] = {}
        for source in self.sources.values():
            url = redacted(source.url)
            found[url] = (*found.get(url, ()), source)
        return found

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

    def quote_place(self, claim_id: str, quote_index: int) -> tuple[int, int] | None:
        """Line and column (1-based) of a quote's text in the file this ledger was read
        from; None for a ledger not parsed from text, or a quote it no longer holds."""
        index = self._positions.get(claim_id)
        if index is None:
            return None
        return self._place(("claims", index, "quotes", quote_index, "text"))

    def source_place(self, source_id: str) -> tuple[int, int] | None:
        """Line and column (1-based) of a source's id in the file; None as for quotes."""
        return self._place(("sources", source_id), key=True)

    @functools.cached_property
    def _tree(self) -> Any:
        """The node tree of the text read: kept when it was read with positions, composed
        here the first time a place is asked of a ledger read by the fast reader."""
        from claimledger.ledger.safeyaml import compose

        parsed = self.parsed_from
        if parsed is None:
            return None
        return parsed.tree if parsed.tree is not None else compose(parsed.text)

    def _place(self, path: Path_, *, key: bool = False) -> tuple[int, int] | None:
        """Where the value at `path` (or its key) starts, from the node tree kept in
        `parsed_from`: nothing is parsed again, and loading keeps no table for it."""
        node = self._tree
        for depth, part in enumerate(path):
            items = getattr(node, "value", None)
            if isinstance(part, int):
                node = items[part] if isinstance(items, list) and 0 <= part < len(items) else None
                continue
            pairs = [pair for pair in items or () if isinstance(pair, tuple)]
            found = next((pair for pair in pairs if getattr(pair[0], "value", None) == part), None)
            if found is None:
                return None
            node = found[0] if key and depth == len(path) - 1 else found[1]
        mark = getattr(node, "start_mark", None)
        return None if mark is None else (mark.line + 1, mark.column + 1)


# --------------------------------------------------------------------------- loading


def parse(text: str, filename: str = "claims.yaml") -> Ledger:
    """Build a ledger from its text; `filename` is only used in messages.

    A ledger in plain block YAML (almost every one) is read by the fast reader and
    checked without positions; one it gives up on, and every ledger with a problem, is
    read again with every value's position, so that each problem is told where it is.
    (What the fast path buys a command: tests/benchmarks/README.md.)

    The YAML readers load here, not with the module: a command that reads no ledger
    (`--help`, `schema`) does not load them.
    """
    from claimledger.ledger.plainyaml import is_yaml, read_plain

    with collector_paused():
        data = read_plain(text)
        if data is not None and is_yaml(text) and _is_sound(data):
            return _build(data, ParsedText(text, None))
        return _parse_located(text, filename)


def _is_sound(data: dict[str, Any]) -> bool:
    """Whether plain data is a ledger with no problem of shape or meaning."""
    return shape_accepts(data) and next(meaning_problems(Located(data)), None) is None


def _parse_located(text: str, filename: str) -> Ledger:
    """Read with every value's position, and report each problem where it is."""
    from claimledger.ledger.safeyaml import load_located

    located, yaml_problems = load_located(text)
    problems = [Problem(filename, p.line, p.col, breaks_escaped(p.message)) for p in yaml_problems]
    if located is None:
        raise LedgerError(problems)
    if not isinstance(located.data, dict):
        problems.append(
            Problem(filename, 1, 1, "the top level must be a mapping (ledger: 1, title: …)")
        )
        raise LedgerError(problems)
    unreadable = {(p.line, p.col) for p in yaml_problems}  # already said; not again as shape
    findings = [*shape_problems(located), *meaning_problems(located)]
    problems += [
        Problem(filename, *where, breaks_escaped(message))
        for where, message in findings
        if where not in unreadable
    ]
    if problems:
        raise LedgerError(problems)
    return _build(located.data, ParsedText(text, located.tree))


# --------------------------------------------------------------------------- shape


def ledger_schema() -> dict[str, Any]:
    """The JSON Schema of a ledger, shared by `claimledger schema` and the loader."""
    return LEDGER_SCHEMA


# --------------------------------------------------------------------------- building


_GRADES = {grade.value: grade for grade in Grade}
_BASES = {basis.value: basis for basis in Basis}
"""The members by their names, as the schema has checked them (an Enum call costs more)."""


def _build(data: dict[str, Any], parsed_from: ParsedText | None = None) -> Ledger:
    return Ledger(
        parsed_from=parsed_from,
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
    """A source as the ledger names it, each address with its scheme and host in lower
    case (the schema takes `HTTPS://Docs.Example/`): every lookup, key and test of a scheme
    or a host then sees one spelling, while the file keeps the one its author wrote."""
    return Source(
        id=source_id,
        url=lower_scheme_and_host(s["url"]),
        title=s["title"],
        kind=s["kind"],
        publisher=s["publisher"],
        independent=s.get("independent", False),
        select=s.get("select"),
        render=s.get("render", "http"),
        wait_for=s.get("wait_for"),
        archived=lower_scheme_and_host(s["archived"]) if "archived" in s else None,
        note=s.get("note"),
        accept_status=frozenset(s.get("accept_status", [])),
        allow_private=s.get("allow_private", False),
        author=s.get("author"),
        repo=lower_scheme_and_host(s["repo"]) if "://" in s.get("repo", "") else s.get("repo"),
        path=s.get("path"),
        history=tuple(
            SourceMove(h["date"], lower_scheme_and_host(h["moved_from"]), h["by"], h.get("why"))
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
                _GRADES[f["grade"]],
                _BASES[f["basis"]],
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
        from_grade=_GRADES[h["from"]] if "from" in h else None,
        to_grade=_GRADES[h["to"]] if "to" in h else None,
        quote_was=h.get("quote_was"),
        quote_now=h.get("quote_now"),
        why=h.get("why"),
        meaning=h.get("meaning"),
    )
