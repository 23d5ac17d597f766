"""A sentence split into a lead-in and a list: the items say the rest of the quote.

Docs often turn "the key is stored in X and is only readable by Y" into "the key is:"
and a bulleted list. The lead-in is the quote's current wording, and the items that carry
the rest of its words are judged with it: what they keep is no change, what they change
is one.
"""

from __future__ import annotations

from claimledger.reading.extract import extract_text
from claimledger.reading.match import PreparedText, locate, prepare
from claimledger.reading.match.verdict import Match

LEAD = "In a Kubernetes deployment, the secret that holds the root signing key of the cluster is:"
QUOTE = (
    "In a Kubernetes deployment, the secret that holds the root signing key of the cluster "
    "is scoped to the namespace of the control services and is only readable by the system pods."
)


def _page(body: str) -> PreparedText:
    html = (
        "<main><h2>Keys</h2><p>Keys are made when the cluster starts.</p>"
        f"{body}<h2>Rotation</h2><p>Keys are rotated every day by the operator.</p></main>"
    )
    return prepare(extract_text(html, "text/html"), kind="text")


def _located(quote: str, *items: str, lead: str = LEAD) -> Match:
    """The quote found on the page as it was, then refreshed on the page split into a list."""
    was = _page(f"<p>{quote}</p>")
    now = _page(f"<p>{lead}</p><ul>{''.join(f'<li>{item}</li>' for item in items)}</ul>")
    return locate(quote, now, context=locate(quote, was).context, previous=was)


def test_items_that_say_the_rest_of_the_quote_change_nothing() -> None:
    found = _located(
        QUOTE,
        "Scoped to the namespace of the control services.",
        "Only readable by the system pods.",
    )
    assert found.status == "drifted" and found.current == LEAD
    assert not found.meaning_changed


def test_an_item_that_says_it_otherwise_is_a_change() -> None:
    found = _located(
        QUOTE,
        "Scoped to the namespace of the control services.",
        "Readable by all pods.",
    )
    assert found.status == "drifted" and found.meaning_changed


def test_the_list_is_read_only_as_far_as_it_holds_the_quotes_words() -> None:
    """An item about something else ends what is read: its words are no words put in."""
    found = _located(
        QUOTE,
        "Scoped to the namespace of the control services.",
        "Only readable by the system pods.",
        "Audited once a month by an external firm.",
    )
    assert not found.meaning_changed
    assert not any("audited" in change.page.lower() for change in found.changed_words)


def test_a_list_about_other_things_leaves_the_rest_of_the_quote_gone() -> None:
    found = _located(
        "In a Kubernetes deployment, the secret that holds the root signing key of the cluster "
        "is only readable by the system pods.",
        "Rotated every day.",
        "Backed up to object storage.",
    )
    assert found.status == "drifted" and found.meaning_changed


def test_a_quote_that_was_a_lead_in_is_judged_as_one() -> None:
    found = _located(
        "In a Kubernetes deployment, the secret that holds the root signing key of the cluster "
        "is always:",
        "Scoped to the namespace of the control services.",
    )
    assert found.status == "drifted" and found.meaning_changed


def test_a_short_lead_in_and_the_item_found_are_judged_with_the_whole_list() -> None:
    """ "The pool:" holds few of the quote's words, so an item is the passage found; the
    item alone would lose "after five minutes" (a number changed), the list keeps it."""
    quote = (
        "The connection pool closes idle connections after five minutes and retries "
        "failed handshakes up to three times before reporting an error."
    )
    found = _located(
        quote,
        "Closes idle connections after five minutes.",
        "Retries failed handshakes up to three times before reporting an error.",
        lead="The connection pool:",
    )
    assert found.status == "drifted" and not found.meaning_changed


def test_an_item_quoted_whole_is_judged_as_itself() -> None:
    """A quote that was one item of a list ("Recovery: ...") is no sentence split: the
    other items are not read into it."""
    quote = "Recovery: the scheduler restarts every interrupted job on a healthy executor."
    found = _located(
        quote,
        "Recovery: the scheduler restarts each interrupted job on another healthy executor.",
        "Retries: the scheduler restarts each failed job on a healthy executor in 50 seconds.",
        lead="The scheduler provides:",
    )
    assert found.status == "drifted"
    assert not any("50" in change.page for change in found.changed_words)
