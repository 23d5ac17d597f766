"""A change is shown in the words the quote and the page wrote, not as the matcher read
them: a page that changed "$5" to "€5" is shown saying "€5", not "euros", and one that
changed "10^-6" to "10^6" saying "10^6", not "1000000"."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cli_runner import Cli
from meaning_levels import judged
from webserver import PageServer


@pytest.mark.parametrize(
    ("quote", "passage", "was", "now"),
    [
        pytest.param("The plan costs $5 a month.", "The plan costs €5 a month.", "$5", "€5"),
        pytest.param("Errors stay below 10^-6.", "Errors stay below 10^6.", "10^-6", "10^6"),
        pytest.param("It costs $5 million.", "It costs €5 million.", "$5", "€5"),
        pytest.param("Keep >= 3 replicas.", "Keep <= 3 replicas.", ">= 3", "<= 3"),
        pytest.param("Links run at 5 Mbps.", "Links run at 5 MBps.", "Mbps", "MBps"),
        pytest.param("Writes are durable.", "Writes are not durable.", "", "not"),
    ],
)
def test_a_change_names_the_words_as_written(quote: str, passage: str, was: str, now: str) -> None:
    changes = [(c.quote, c.page) for c in judged(quote, passage).changes if c.meaningful]
    assert changes == [(was, now)]


@pytest.mark.parametrize(
    ("quote", "passage", "shown"),
    [
        pytest.param(
            "The fee is $5 and the tax is $5.",
            "The fee is $5 and the tax is €5.",
            [("$5", "€5")],
            id="a-sum-said-twice",
        ),
        pytest.param("10^-6 and 10^-6", "10^-6 and 10^6", [("10^-6", "10^6")], id="a-power-twice"),
        pytest.param(
            "The limit is 5 € and 10 £.",
            "The limit is 5 £ and 10 €.",
            [
                ("5 €", "5 £"),
                ("10 £", "10 €"),
                ("5 € 10 £", "5 £ 10 €"),
                ("5 € … 10 £", "5 £ … 10 €"),
            ],
            id="swapped",
        ),
    ],
)
def test_a_run_read_in_several_places_or_swapped_is_shown_as_written(
    quote: str, passage: str, shown: list[tuple[str, str]]
) -> None:
    """Words the reading made, said twice or swapped, were left as read: one line said
    `"dollars" -> "€5"`, mixing the two."""
    assert [(c.quote, c.page) for c in judged(quote, passage).changes] == shown


@pytest.mark.parametrize(
    ("quote", "passage", "shown"),
    [
        pytest.param(
            "Plans cost $5, $6 or $7 a month.",
            "Plans cost $5, €6 or $7 a month.",
            ("dollars", "euros"),
            id="read-from-three-sums",
        ),
        pytest.param(
            "Fees are in dollars: $5 a month.",
            "Fees are in dollars: €5 a month.",
            ("dollars", "euros"),
            id="a-word-the-quote-also-writes",
        ),
        pytest.param(
            "$5 per month is the fee.",
            "5 per month is the fee.",
            ("dollars", ""),
            id="sign-dropped",
        ),
    ],
)
def test_a_change_that_cannot_be_traced_to_one_place_is_shown_as_read_on_both_sides(
    quote: str, passage: str, shown: tuple[str, str]
) -> None:
    """Traced where it could not be told, a line said `"dollars" -> "$5, €6"` (a sum that
    did not change), `"dollars" -> "€5"` (half as read), or that "$5" was taken out where
    only its sign was: such a change is shown as the matcher read it, whole."""
    assert [(c.quote, c.page) for c in judged(quote, passage).changes] == [shown]


def test_the_words_a_change_touches_are_counted_as_read_not_as_shown() -> None:
    """The locator weighs two passages by how many words their changes touch; counted on
    the words shown, a sign written "<10" (one word, read "less than 10") would weigh a
    passage lighter than the same change written out, and could change which is judged."""
    judgement = judged("Latency stays <10 ms.", "Latency stays 11 ms.")
    assert [(c.quote, c.page) for c in judgement.changes] == [("<10", "11")]
    assert judgement.touched == 4  # "less than 10" and "11"
    written_out = judged("Latency stays less than 10 ms.", "Latency stays 11 ms.")
    assert (written_out.touched, written_out.kinds) == (4, judgement.kinds)


def page(said: str) -> str:
    return f"<html><body><main><h1>Pricing</h1><p>{said}</p></main></body></html>"


def test_every_output_shows_the_pages_own_words(tmp_path: Path) -> None:
    with PageServer() as server:
        server.set_page("/p", page("The plan costs $5 per month."))
        ledger = tmp_path / "claims.yaml"
        ledger.write_text(
            "ledger: 1\ntitle: T\ndate_read: 2026-08-23\nsections: [{id: s, title: S}]\n"
            f"sources:\n  a: {{url: '{server.url('/p')}', title: A, kind: docs, publisher: a}}\n"
            "claims:\n  - id: price\n    section: s\n    title: Price\n    kind: guarantee\n"
            "    statement: Five dollars.\n"
            "    quotes: [{text: 'The plan costs $5 per month.', sources: [a]}]\n"
            "    grades: [{on: the documentation says this, grade: CLAIMED, basis: quotes}]\n",
            "utf-8",
        )
        cli = Cli(ledger)
        refresh = ("refresh", "--allow-private", "--no-as-read", "--no-recover", "--no-history")
        cli(*refresh)
        server.set_page("/p", page("The plan costs €5 per month."))
        cli(*refresh, code=1)
    said = {
        "diff": cli("diff", code=1).stdout,
        "explain": cli("explain", "price").stdout,
        "markdown": cli("render", "-o", "-", "--format", "md").stdout,
        "html": cli("render", "-o", "-", "--format", "html").stdout,
    }
    for name, text in said.items():
        assert "€5" in text, name
        assert "euros" not in text and "dollars" not in text.replace("Five dollars", ""), name
    checks = json.loads(cli("render", "-o", "-", "--format", "json").stdout)
    assert "euros" not in json.dumps(checks, ensure_ascii=False)
