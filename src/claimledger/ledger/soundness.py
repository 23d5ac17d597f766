"""The checks of a ledger's meaning that its JSON Schema cannot express: every id
referred to exists (with a did-you-mean), no claim depends on itself or on a cycle of
premises, each basis has what it needs, an artifact's timeout is finite, URLs are
http(s) with a host, dates are real, and each source's selector is CSS that can be
applied to a large page in good time.

Each finding is told where it is (`Located`), so a problem reads as file:line:col.
"""

from __future__ import annotations

import datetime as dt
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from claimledger.ledger.located import Located, Path_
from claimledger.ledger.shape import Finding, did_you_mean
from claimledger.urls import lower_scheme, web_url_problem


def meaning_problems(located: Located) -> Iterator[Finding]:
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
    yield from _selector_problems(located, sources if isinstance(sources, dict) else {})
    yield from _duplicate_ids(located, "sections", sections)
    yield from _duplicate_ids(located, "claims", claims)
    section_ids = [s["id"] for _, s in sections if isinstance(s.get("id"), str)]
    claim_ids = [c["id"] for _, c in claims if isinstance(c.get("id"), str)]
    known_sections, known_claims = set(section_ids), set(claim_ids)  # the lists, for hints
    known_sources = _Known(source_ids)
    for index, claim in claims:
        at: Path_ = ("claims", index)
        section = claim.get("section")
        if isinstance(section, str) and section_ids and section not in known_sections:
            yield _unknown(located, (*at, "section"), "section", section, section_ids)
        quotes = claim.get("quotes")
        if quotes:
            for q_index, quote in _records(quotes):
                yield from _quote_problems(located, (*at, "quotes", q_index), quote, known_sources)
        premise_lists = [(*at, "depends_on")]
        premise_lists += [
            (*at, "grades", f, "depends_on")
            for f, facet in _records(claim.get("grades"))
            if "depends_on" in facet
        ]
        for where in premise_lists:
            for d_index, premise in _texts(_value_at(data, where)):
                path = (*where, d_index)
                if premise == claim.get("id"):
                    yield located.where(path), f"claim '{premise}' depends on itself"
                elif premise not in known_claims:
                    yield _unknown(located, path, "claim", premise, claim_ids)
        yield from _basis_problems(located, at, claim)
        yield from _timeout_problems(located, at, claim)
    yield from _cycle_problems(located, claims)


class _Known(list[str]):
    """Ids in the ledger's order (for a did-you-mean), and a set of them to look in."""

    def __init__(self, ids: Sequence[str]) -> None:
        super().__init__(ids)
        self.set = frozenset(ids)

    def __contains__(self, item: object) -> bool:
        return item in self.set


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
    yield from _via_problems(located, at, quote)


def _via_problems(located: Located, at: Path_, quote: dict[str, Any]) -> Iterator[Finding]:
    """A `via` names the primary a report (`reported_by`) cites, another source than the
    report: one that cites itself, or no report, would count the report's copy of the
    primary's words as a confirmation of its own."""
    via, reporter = quote.get("via"), quote.get("reported_by")
    if not isinstance(via, str):
        return
    if via == reporter:
        yield (
            located.where((*at, "via")),
            f"via '{via}' is the report itself (reported_by): name the source whose words it cites",
        )
    elif reporter is None:
        yield (
            located.where((*at, "via")),
            f"via '{via}' names what a report cites, but no reported_by names the report",
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
            if not isinstance(url, str) or not lower_scheme(url).startswith(
                ("http://", "https://")
            ):
                continue  # missing, or reported by the schema
            if (problem := web_url_problem(url)) is not None:
                yield located.where(path), f"{path[-1]} {url!r} {problem}"


_DATE_SHAPE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")


def _selector_problems(located: Located, sources: dict[str, Any]) -> Iterator[Finding]:
    """Each source's `select` and `wait_for` are CSS, and none that could take minutes on a
    large page (a `wait_for` that is not CSS failed only once a refresh read the page)."""
    for source_id, source in sources.items():
        for name in ("select", "wait_for"):
            value = source.get(name) if isinstance(source, dict) else None
            if isinstance(value, str):  # anything else: reported by the schema
                from claimledger.reading.selectors import selector_problem

                problem = selector_problem(value, name)
                if problem is not None:
                    yield located.where(("sources", source_id, name)), problem


def _date_problems(
    located: Located, claims: list[tuple[int, dict[str, Any]]], sources: dict[str, Any]
) -> Iterator[Finding]:
    """Dates the schema's pattern lets through but the calendar does not (2026-13-45)."""
    dated: list[tuple[Path_, Any]] = [(("date_read",), located.data.get("date_read"))]
    for index, claim in claims:
        falsified = claim.get("falsified")
        if isinstance(falsified, dict):
            dated.append((("claims", index, "falsified", "date"), falsified.get("date")))
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
        if needed == "depends_on" and facet.get("depends_on") == []:
            yield (
                located.where((*at, "grades", f_index, "depends_on")),
                f"facet '{facet.get('on')}' has basis 'premises' but its depends_on names no "
                "claim (leave it out to rest on the claim's own)",
            )
        name = facet.get("on")
        if isinstance(name, str) and name in names:
            yield (
                located.where((*at, "grades", f_index, "on")),
                f"duplicate facet '{name}' in claim '{claim.get('id')}'",
            )
        names.append(str(name))


def _timeout_problems(located: Located, at: Path_, claim: dict[str, Any]) -> Iterator[Finding]:
    """An artifact's timeout is a finite number of seconds, which the schema cannot say:
    `.inf` would let a command that never ends hold `regrade` for ever, and `.nan`, of
    which no comparison holds, passed its minimum and then timed the run out at once."""
    artifact = claim.get("artifact")
    timeout = artifact.get("timeout") if isinstance(artifact, dict) else None
    if isinstance(timeout, int | float) and not isinstance(timeout, bool) and not _finite(timeout):
        where = located.where((*at, "artifact", "timeout"))
        said = repr(timeout) if isinstance(timeout, float) else f"{len(str(timeout))} digits long"
        yield where, f"timeout must be a finite number of seconds, not {said}"


def _finite(number: float) -> bool:
    """Whether `number` is a finite float: a whole number past a float's range is not."""
    try:
        return math.isfinite(float(number))
    except OverflowError:
        return False


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
