"""What changed since the last render: grades, quote statuses and sources.

Each render leaves its state (`report_state`) beside the report; the next render reads
it back and lists the differences. A state that is missing, damaged or of another
version only means there is nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from claimledger.ledger.model import Claim
from claimledger.report.adoptions import reworded_since
from claimledger.report.markup import anchor, excerpt
from claimledger.report.model import (
    ChangesView,
    ChangeView,
    ClaimView,
    Report,
    SourceView,
    WordChangeView,
)

STATE_VERSION = 1
"""Version of `report_state`'s shape, which the next render reads back."""


def report_state(report: Report) -> dict[str, Any]:
    """What the next render compares against: grades, quote statuses and sources, as JSON data.

    Shape (version 1)::

        {"claimledger_render_state": 1, "generated_on": "YYYY-MM-DD",
         "titles":  {claim_id: title},
         "grades":  {claim_id: {facet_on: GRADE}},
         "quotes":  {claim_id: {quote_text: {source_id: status}}},
         "sources": {source_id: {"url": url, "status": status}},
         "refuted": {claim_id: "YYYY-MM-DD"}}

    A state kept before `refuted` was written has no such key: its refutations are not
    known, so none is listed as new against it.
    """
    return state_of(report.claims, report.sources, report.generated_on)


def state_of(
    claims: Sequence[ClaimView], sources: Sequence[SourceView], generated_on: str
) -> dict[str, Any]:
    return {
        "claimledger_render_state": STATE_VERSION,
        "generated_on": generated_on,
        "titles": {claim.id: claim.title for claim in claims},
        "grades": {claim.id: {f.on: f.grade for f in claim.facets} for claim in claims},
        "quotes": {
            claim.id: {q.text: {s.source_id: s.status for s in q.sources} for q in claim.quotes}
            for claim in claims
        },
        "sources": {s.id: {"url": s.url or "", "status": s.status} for s in sources},
        "refuted": {claim.id: claim.refuted_on for claim in claims if claim.refuted_on},
    }


def state_day(previous: Mapping[str, Any] | None) -> str | None:
    """The day of the render a state was kept by (None: no render yet)."""
    day = previous.get("generated_on") if previous else None
    return day if isinstance(day, str) else None


def adoption_words(
    meaning: str | None, kinds: Sequence[str], changes: Sequence[WordChangeView]
) -> str:
    """How an adopted rewording changed a quote, named: whether its meaning changed, and
    the words on both sides ("its meaning changed: “256” → “128” (number changed)")."""
    words = "; ".join(change.label for change in changes)
    if meaning == "changed":
        said = "its meaning changed"
        named = ", ".join(kinds) or "a meaning-carrying word changed"
    elif meaning == "uncertain":
        said = "its meaning may have changed"
        named = ", ".join(kinds) or "content words changed"
    else:
        said, named = "its meaning kept", "a rewording"
    return f"{said}: {words}" if words else f"{said} ({named})"


def changes_since(
    state: Mapping[str, Any],
    previous: Mapping[str, Any] | None,
    claims: Mapping[str, Claim] | None = None,
) -> ChangesView:
    """The differences between this render's state and the last one's (None: first render);
    `claims`, the ledger's by id, tell by their histories which new quote is an adopted
    rewording of one the last render showed, and how it changed."""
    if previous is None:
        return ChangesView(True, None, "First render: there is nothing to compare with", ())
    if previous.get("claimledger_render_state") != STATE_VERSION:
        return ChangesView(
            False,
            None,
            "The last render's state is not one this version reads; nothing compared",
            (),
        )
    since = _text(previous.get("generated_on")) or None
    items = [
        *_grade_changes(state, previous),
        *_refutations(state, previous),
        *_quote_changes(state, previous, claims or {}),
        *_first_checks(state, previous),
        *_source_changes(state, previous),
    ]
    when = f"the render of {since}" if since else "the last render"
    count = "One change" if len(items) == 1 else f"{len(items)} changes"
    note = f"{count} since {when}" if items else f"Nothing changed since {when}"
    return ChangesView(False, since, note, tuple(items))


def _grade_changes(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    titles: Mapping[str, Any] = state["titles"]
    old_titles = _mapping(previous.get("titles"))
    old_grades = _mapping(previous.get("grades"))
    items: list[ChangeView] = []
    for claim_id, facets in state["grades"].items():
        link, title = anchor("claim", claim_id), titles[claim_id]
        if claim_id not in old_grades:
            items.append(ChangeView("claim", title, link, "new claim"))
            continue
        old = _mapping(old_grades[claim_id])
        for on, grade in facets.items():
            was = _text(old.get(on))
            if not was:
                items.append(ChangeView("grade", title, link, f"new facet “{on}”: {grade}"))
            elif was != grade:
                items.append(ChangeView("grade", title, link, f"{on}: {was} → {grade}"))
        for on in sorted(set(old) - set(facets)):
            items.append(ChangeView("grade", title, link, f"facet “{on}” removed"))
    for claim_id in sorted(set(old_grades) - set(state["grades"])):
        title = _text(old_titles.get(claim_id)) or claim_id
        items.append(ChangeView("claim", title, None, f"claim '{claim_id}' removed"))
    return items


def _refutations(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    """Claims refuted since the last render, and refutations taken back: a refutation
    moves no grade of the claim's own, so without this line it would not be listed."""
    if "refuted" not in previous:
        return []  # kept before refutations were: nothing to compare with
    old = _mapping(previous.get("refuted"))
    now: Mapping[str, str] = state["refuted"]
    items: list[ChangeView] = []
    for claim_id, day in now.items():
        if claim_id in state["titles"] and _text(old.get(claim_id)) != day:
            title = state["titles"][claim_id]
            items.append(ChangeView("claim", title, anchor("claim", claim_id), f"refuted on {day}"))
    for claim_id in sorted(set(old) - set(now)):
        if claim_id in state["titles"]:
            title = state["titles"][claim_id]
            items.append(
                ChangeView("claim", title, anchor("claim", claim_id), "refutation withdrawn")
            )
    return items


def _quote_changes(
    state: Mapping[str, Any],
    previous: Mapping[str, Any],
    claims: Mapping[str, Claim],
) -> list[ChangeView]:
    old_quotes = _mapping(previous.get("quotes"))
    items: list[ChangeView] = []
    for claim_id, quotes in state["quotes"].items():
        if claim_id not in old_quotes:
            continue  # a new claim, said once under grades
        link, title = anchor("claim", claim_id), state["titles"][claim_id]
        old = _mapping(old_quotes[claim_id])
        claim = claims.get(claim_id)
        replaced = _reworded(claim, old, quotes) if claim else {}
        for text, statuses in quotes.items():
            if claim and text in replaced:
                said = _reworded_words(claim, replaced[text], text)
                items.append(ChangeView("quote", title, link, said))
                continue
            if text not in old:
                items.append(ChangeView("quote", title, link, f"quote added: “{excerpt(text)}”"))
                continue
            was = _mapping(old[text])
            for source_id, status in statuses.items():
                before = _text(was.get(source_id))
                if before and before != status and not _first_good_check(before, status):
                    items.append(
                        ChangeView(
                            "quote",
                            title,
                            link,
                            f"“{excerpt(text)}” on {source_id}: {before} → {status}",
                        )
                    )
        for text in sorted(set(old) - set(quotes) - set(replaced.values())):
            items.append(ChangeView("quote", title, link, f"quote removed: “{excerpt(text)}”"))
    return items


def _reworded_words(claim: Claim, was: str, now: str) -> str:
    """One reworded quote, the change from the last render's words named: "quote reworded,
    its meaning changed: “256” → “128” (number changed); the page's words adopted: “…” →
    “…”"."""
    named = adoption_words(*reworded_since(claim, now, was))
    return f"quote reworded, {named}; the page's words adopted: “{excerpt(was)}” → “{excerpt(now)}”"


def _reworded(claim: Claim, old: Mapping[str, Any], quotes: Mapping[str, Any]) -> dict[str, str]:
    """Each quote new since the last render that is an adopted rewording of one the last
    render had (and this one has not), paired with those words: one quote reworded, not
    one added and one gone. Its adoptions are followed back from the newest, so a quote
    adopted again since is paired with the words the last render showed, whichever
    adoption brought them."""
    replaced: dict[str, str] = {}
    for now in quotes:
        if now in old:
            continue
        earlier = (entry.quote_was for entry in claim.adoptions(now))
        was = next((w for w in earlier if w and w in old and w not in quotes), None)
        if was is not None:
            replaced[now] = was
    return replaced


def _source_changes(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    old_sources = _mapping(previous.get("sources"))
    items: list[ChangeView] = []
    for source_id, now in state["sources"].items():
        if source_id not in old_sources:
            items.append(ChangeView("source", source_id, None, "new source"))
            continue
        was = _mapping(old_sources[source_id])
        if (before_url := _text(was.get("url"))) != now["url"]:
            moved = f": {before_url or 'none'} → {now['url'] or 'none'}"
            items.append(
                ChangeView("source", source_id, None, f"address changed in the ledger{moved}")
            )
        before = _text(was.get("status"))
        if before and before != now["status"] and not _first_good_check(before, now["status"]):
            items.append(ChangeView("source", source_id, None, f"{before} → {now['status']}"))
    for source_id in sorted(set(old_sources) - set(state["sources"])):
        items.append(ChangeView("source", source_id, None, "source removed"))
    return items


def _first_good_check(before: str, now: str) -> bool:
    """A first check that found all well: counted in one line, not listed one by one."""
    return before == "unchecked" and now in ("verified", "ambiguous", "ok")


def _first_checks(state: Mapping[str, Any], previous: Mapping[str, Any]) -> list[ChangeView]:
    old_quotes = _mapping(previous.get("quotes"))
    count = 0
    for claim_id, quotes in state["quotes"].items():
        old = _mapping(old_quotes.get(claim_id))
        for text, statuses in quotes.items():
            was = _mapping(old.get(text))
            count += sum(
                1 for sid, now in statuses.items() if _first_good_check(_text(was.get(sid)), now)
            )
    if not count:
        return []
    checks = "one quote" if count == 1 else f"{count} quote checks"
    return [ChangeView("quote", "first checks", None, f"{checks} verified for the first time")]


def _mapping(value: Any) -> Mapping[str, Any]:
    """A mapping read back from a state file, or an empty one if it is not a mapping."""
    return value if isinstance(value, Mapping) else {}


def _text(value: Any) -> str:
    return value if isinstance(value, str) else ""
