"""What changed since the last render: grades, quote statuses and sources.

Each render leaves its state (`report_state`) beside the report; the next render reads
it back and lists the differences. A state that is missing, damaged or of another
version only means there is nothing to compare with.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from claimledger.report.markup import anchor, excerpt
from claimledger.report.model import (
    ChangesView,
    ChangeView,
    ClaimView,
    QuoteView,
    Report,
    SourceView,
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
         "sources": {source_id: {"url": url, "status": status}}}
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
        "adopted": {  # each adopted wording and the words it replaced, for "reworded"
            claim.id: {q.text: q.as_read for q in claim.quotes if q.as_read}
            for claim in claims
            if any(q.as_read for q in claim.quotes)
        },
        "sources": {s.id: {"url": s.url or "", "status": s.status} for s in sources},
    }


def state_day(previous: Mapping[str, Any] | None) -> str | None:
    """The day of the render a state was kept by (None: no render yet)."""
    day = previous.get("generated_on") if previous else None
    return day if isinstance(day, str) else None


def adoption_words(quote: QuoteView) -> str:
    """How an adopted rewording changed a quote, named: whether its meaning changed, and
    the words on both sides ("its meaning changed: “256” → “128” (number changed)")."""
    words = "; ".join(change.label for change in quote.adopted_changes)
    if quote.adopted_meaning == "changed":
        said = "its meaning changed"
        kinds = ", ".join(quote.adopted_kinds) or "a meaning-carrying word changed"
    elif quote.adopted_meaning == "uncertain":
        said = "its meaning may have changed"
        kinds = ", ".join(quote.adopted_kinds) or "content words changed"
    else:
        said, kinds = "its meaning kept", "a rewording"
    return f"{said}: {words}" if words else f"{said} ({kinds})"


def adoptions_said(claims: Sequence[ClaimView]) -> dict[str, dict[str, str]]:
    """Each adopted wording of each claim, and how it changed the quote (`adoption_words`)."""
    return {
        claim.id: {quote.text: adoption_words(quote) for quote in claim.quotes if quote.as_read}
        for claim in claims
        if any(quote.as_read for quote in claim.quotes)
    }


def changes_since(
    state: Mapping[str, Any],
    previous: Mapping[str, Any] | None,
    adoptions: Mapping[str, Mapping[str, str]] | None = None,
) -> ChangesView:
    """The differences between this render's state and the last one's (None: first render);
    `adoptions` names how each adopted rewording changed its quote (`adoptions_said`)."""
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
        *_quote_changes(state, previous, adoptions or {}),
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


def _quote_changes(
    state: Mapping[str, Any],
    previous: Mapping[str, Any],
    adoptions: Mapping[str, Mapping[str, str]],
) -> list[ChangeView]:
    old_quotes = _mapping(previous.get("quotes"))
    items: list[ChangeView] = []
    for claim_id, quotes in state["quotes"].items():
        if claim_id not in old_quotes:
            continue  # a new claim, said once under grades
        link, title = anchor("claim", claim_id), state["titles"][claim_id]
        old = _mapping(old_quotes[claim_id])
        replaced = _reworded(state, claim_id, old, quotes)
        how = adoptions.get(claim_id, {})
        for text, statuses in quotes.items():
            if text in replaced:
                items.append(
                    ChangeView("quote", title, link, _reworded_words(replaced[text], text, how))
                )
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


def _reworded_words(was: str, now: str, how: Mapping[str, str]) -> str:
    """One reworded quote, the change named: "quote reworded, its meaning changed: “256” →
    “128” (number changed); the page's words adopted: “…” → “…”"."""
    named = f", {how[now]}" if now in how else ""
    return f"quote reworded{named}; the page's words adopted: “{excerpt(was)}” → “{excerpt(now)}”"


def _reworded(
    state: Mapping[str, Any], claim_id: str, old: Mapping[str, Any], quotes: Mapping[str, Any]
) -> dict[str, str]:
    """Each quote new since the last render that is an adopted rewording of one the last
    render had (and this one has not): one quote reworded, not one added and one gone."""
    adopted = _mapping(_mapping(state.get("adopted")).get(claim_id))
    return {
        new: str(was)
        for new, was in adopted.items()
        if new not in old and was in old and was not in quotes
    }


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
