"""Shares and sums written another way: "per cent" is "percent" and "%", "50 cents" is
"$0.50", and a currency's code before the thing it names ("5 CAD files") is no sum.
Beside each, the same form with the amount changed, which is still a number changed."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The load is 100 per cent", "The load is 100 percent", id="percent"),
        pytest.param("The load is 100 per cent", "The load is 100%", id="sign"),
        pytest.param("The load is 100 per cent.", "The load is 100%.", id="sign-at-the-end"),
        pytest.param(
            "Fees rise 10 per cent a year.", "Fees rise 10 percent every year.", id="a-rate-after"
        ),
        pytest.param("At 90 per cent of its quota", "At 90% of its quota", id="of"),
    ],
)
def test_per_cent_is_percent(quote: str, passage: str) -> None:
    """ "per" of "per cent" is no quantifier: "100 per cent" -> "100%" says the same."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The load is 100 per cent.", "The load is 50 percent.", id="another-share"),
        pytest.param("Fees rise 10 per cent a year.", "Fees rise 10 cents a year.", id="cents"),
        pytest.param("The load is 100 per cent.", "The load is 1000 per cent.", id="per-cent"),
    ],
)
def test_per_cent_changed_is_a_number_changed(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The load is 100%", "The load is 100", id="percent-sign"),
        pytest.param("The load is 100% today.", "The load is 100 today.", id="mid-sentence"),
        pytest.param("The load is 100 percent", "The load is 100", id="percent-word"),
        pytest.param("The load is 100 per cent.", "The load is 100.", id="per-cent"),
        pytest.param("It guarantees 99.9% uptime.", "It guarantees 99.9 uptime.", id="decimal"),
        pytest.param("Set the threshold to 80%.", "Set the threshold to 80.", id="to"),
        pytest.param("Up to 10% of nodes fail.", "Up to 10 nodes fail.", id="a-count-now"),
        pytest.param("The fee is £5.", "The fee is 5.", id="sterling"),
        pytest.param("The fee is ¥500.", "The fee is 500.", id="yen-sign"),
        pytest.param("The fee is 500 yen.", "The fee is 500.", id="yen-word"),
    ],
)
def test_a_share_or_sum_that_lost_its_unit_is_a_number_changed(quote: str, passage: str) -> None:
    """ "100%" -> "100" says another number, as "10 seconds" -> "10" and "$5" -> "5" do:
    a percent, a pound sterling or a yen dropped is no word of style."""
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The load is 100%", "The load is 100 percent", id="percent"),
        pytest.param("Keep 10% free.", "Keep ten percent free.", id="in-words"),
        pytest.param("The load is at 100%.", "The load is 100%.", id="at"),
        pytest.param("The fee is £5.", "The fee is 5 GBP.", id="sterling"),
        pytest.param("The fee is ¥500.", "The fee is 500 yen.", id="yen"),
    ],
)
def test_a_share_or_sum_with_its_unit_said_otherwise_is_the_same(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Each call costs 50 cents.", "Each call costs $0.50.", id="sign"),
        pytest.param(
            "The fee for each API call is 50 cents", "The fee for each API call is $0.50", id="mid"
        ),
        pytest.param("Each call costs 50 cents.", "Each call costs 0.50 USD.", id="code"),
        pytest.param("Each call costs 125 cents.", "Each call costs $1.25.", id="over-a-dollar"),
        pytest.param("Each call costs 10¢.", "Each call costs $0.10.", id="cent-sign"),
        pytest.param(
            "It costs €1 and 50 cents a call.", "It costs €1 and €0.50 a call.", id="euro-cents"
        ),
    ],
)
def test_a_sum_in_cents_is_the_same_sum_in_dollars(quote: str, passage: str) -> None:
    assert "number changed" not in judged(quote, passage).kinds
    if "€" not in quote:
        assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("It costs 1 cent per call.", "It costs $0.01 per call.", id="figure"),
        pytest.param("It costs one cent per call.", "It costs $0.01 per call.", id="word"),
        pytest.param("It costs a cent per call.", "It costs $0.01 per call.", id="a"),
        pytest.param("Each call costs 1 cent.", "Each call costs $0.01.", id="at-the-end"),
        pytest.param("It costs 1 cent per call.", "It costs 1¢ per call.", id="cent-sign"),
        pytest.param("It costs 1 cent per call.", "It costs 0.01 USD per call.", id="code"),
        pytest.param("It costs a cent per call.", "It costs one cent per call.", id="a-or-one"),
        pytest.param(
            "It costs under one cent per call.", "It costs under $0.01 per call.", id="bound"
        ),
    ],
)
def test_one_cent_is_the_same_sum_in_dollars(quote: str, passage: str) -> None:
    """ "Cent" alone is no unit, so that "per cent" is no rate; after a count of one it
    is one cent, as "50 cents" is fifty."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("It costs 1 cent per call.", "It costs $0.02 per call.", id="two-cents"),
        pytest.param("It costs 1 cent per call.", "It costs $1 per call.", id="a-dollar"),
        pytest.param("It costs a cent per call.", "It costs a percent per call.", id="a-share"),
        pytest.param("It grew 1 per cent last year.", "It grew 1 cent last year.", id="per-cent"),
        pytest.param("It grew 1 cent last year.", "It grew 1 per cent last year.", id="reverse"),
        pytest.param("Rates rose by one per cent.", "Rates rose by one cent.", id="one-per-cent"),
    ],
)
def test_one_cent_put_as_another_amount_is_a_number_changed(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


def test_one_per_cent_is_still_one_percent() -> None:
    quote, passage = "Rates rose by one per cent.", "Rates rose by 1 percent."
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    "passage",
    [
        pytest.param("Each call costs $50.", id="dollars"),
        pytest.param("Each call costs $0.05.", id="five-cents"),
        pytest.param("Each call costs €0.50.", id="euros"),
        pytest.param("Each call costs 50 euros.", id="fifty-euros"),
    ],
)
def test_a_sum_in_cents_put_as_another_sum_is_a_number_changed(passage: str) -> None:
    found = judged("Each call costs 50 cents.", passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Export 5 CAD files", "Export 5 files in CAD format", id="format"),
        pytest.param("Export 5 CAD files.", "Export 5 files in CAD format.", id="at-the-end"),
        pytest.param("Export 5 CAD files.", "Export five CAD files.", id="in-words"),
    ],
)
def test_a_currency_s_code_before_a_noun_is_no_sum(quote: str, passage: str) -> None:
    """ "5 CAD files" are five drawings, not five Canadian dollars of files: no number
    changed when the code moves off its figure."""
    assert "number changed" not in judged(quote, passage).kinds, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Export 5 CAD files.", "Export 6 files in CAD format.", id="another-count"),
        pytest.param("The plan costs 5 CAD.", "The plan costs 5 USD.", id="at-the-end"),
        pytest.param("The plan costs 5 CAD per seat.", "The plan costs 5 AUD per seat.", id="per"),
        pytest.param(
            "The plan costs 5 CAD monthly.", "The plan costs 5 AUD monthly.", id="a-word-follows"
        ),
        pytest.param("A fee of 5 CAD applies.", "A fee of 5 AUD applies.", id="a-fee"),
        pytest.param("Upgrades are 10 CAD.", "Upgrades are 10 AUD.", id="no-money-word"),
    ],
)
def test_a_sum_with_its_code_changed_is_a_number_changed(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("100% of requests are retried.", "All requests are retried.", id="sign"),
        pytest.param("All requests are retried.", "100% of requests are retried.", id="back"),
        pytest.param(
            "100 percent of requests are retried.", "All requests are retried.", id="word"
        ),
        pytest.param(
            "100 per cent of requests are retried.", "All requests are retried.", id="per-cent"
        ),
        pytest.param(
            "Retries cover 100% of the requests.", "Retries cover all the requests.", id="the"
        ),
    ],
)
def test_a_hundred_percent_of_the_things_is_all_of_them(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "99% of requests are retried.",
            "All requests are retried.",
            "number changed",
            id="99-percent",
        ),
        pytest.param(
            "All requests are retried.",
            "99% of requests are retried.",
            "quantifier changed",
            id="99-percent-back",
        ),
        pytest.param(
            "100% of requests are retried.",
            "Some requests are retried.",
            "quantifier changed",
            id="some",
        ),
        pytest.param(
            "100% of requests are retried.",
            "100 requests are retried.",
            "number changed",
            id="a-count",
        ),
        pytest.param(
            "The load is 100% of the quota.",
            "The load is 50% of the quota.",
            "number changed",
            id="another-share",
        ),
    ],
)
def test_another_share_for_all_is_still_a_strong_change(
    quote: str, passage: str, kind: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("It costs 5 dollars per call.", "It costs 5 dollars a call.", id="dollars"),
        pytest.param("It costs $5 per call.", "It costs $5 a call.", id="sign"),
        pytest.param("It costs $5 a call.", "It costs $5 per call.", id="back"),
        pytest.param(
            "Each user may send 5 requests per call.",
            "Each user may send 5 requests a call.",
            id="a-count",
        ),
        pytest.param("It costs a dollar.", "It costs 1 dollar.", id="a-dollar"),
        pytest.param("It costs a dollar.", "It costs $1.", id="a-dollar-sign"),
        pytest.param("It costs a euro a call.", "It costs €1 per call.", id="a-euro"),
        pytest.param(
            "Keep 3 replicas per region.", "Keep 3 replicas in each region.", id="each-region"
        ),
        pytest.param("Jobs run 3 times per day.", "Jobs run 3 times a day.", id="a-day"),
        pytest.param(
            "In version 2 a flag was added.",
            "In version 2 the flag was added.",
            id="a-after-a-figure-alone",
        ),
    ],
)
def test_a_sum_per_thing_said_with_a_is_the_same(quote: str, passage: str) -> None:
    """ "Per" after a sum makes a rate, as it does before a unit: "5 dollars a call" says
    it too, and is no quantifier taken out; and "a dollar" is one dollar."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "It costs 5 dollars per call.",
            "It costs 6 dollars a call.",
            "number changed",
            id="another-sum",
        ),
        pytest.param(
            "It costs 5 dollars per call.",
            "It costs 5 dollars for some calls.",
            "quantifier changed",
            id="some-calls",
        ),
        pytest.param(
            "It costs 5 dollars a call.",
            "It costs 5 dollars for some calls.",
            "quantifier changed",
            id="a-call-some-calls",
        ),
        pytest.param(
            "Jobs run 3 times a day.", "Jobs run 3 times a week.", "number changed", id="a-week"
        ),
        pytest.param("It costs a dollar.", "It costs 2 dollars.", "number changed", id="two"),
        pytest.param("It costs a dollar.", "It costs 1 euro.", "number changed", id="a-euro"),
        pytest.param("It costs a euro.", "It costs $1.", "number changed", id="euro-dollar"),
    ],
)
def test_a_sum_per_thing_changed_is_still_a_strong_change(
    quote: str, passage: str, kind: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found.kinds


def test_cents_before_any_sum_in_euros_are_a_dollar_s() -> None:
    """A sum in cents takes the currency named before it ("€1 and 50 cents"): euros named
    only after it are another sum's."""
    quote = "50 cents in the US and €1 in Europe"
    passage = "$0.50 in the US and €1 in Europe"
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "50 cents in the US and €1 in Europe",
            "€0.50 in the US and €1 in Europe",
            id="the-us-sum-in-euros",
        ),
        pytest.param(
            "It costs €1 and 50 cents a call.",
            "It costs €1 and $0.50 a call.",
            id="euro-cents-in-dollars",
        ),
    ],
)
def test_cents_put_in_another_currency_are_a_number_changed(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "All requests are sampled.", "Under 100% of requests are sampled.", id="under"
        ),
        pytest.param("Below 100% of capacity is used.", "All capacity is used.", id="below"),
        pytest.param(
            "All requests are sampled.", "About 100% of requests are sampled.", id="about"
        ),
        pytest.param(
            "Around 100% of requests are retried.", "All requests are retried.", id="around"
        ),
        pytest.param("~100% of requests are retried.", "All requests are retried.", id="tilde"),
    ],
)
def test_a_hundred_percent_bounded_or_approximated_is_not_all(quote: str, passage: str) -> None:
    """ "Under 100%" is less than all and "about 100%" not quite all: a word said of the
    figure leaves it a figure, not the "all" that "100% of" alone says."""
    found = judged(quote, passage)
    assert found.meaning_changed, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Nearly 100% of requests are retried.",
            "Nearly all requests are retried.",
            id="nearly",
        ),
        pytest.param(
            "Sampling applies to 100% of requests.",
            "Sampling applies to all requests.",
            id="after-a-preposition",
        ),
    ],
)
def test_a_hundred_percent_after_other_words_is_still_all(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "After 5 failures a circuit breaker opens.",
            "After 5 failures the circuit breaker opens.",
            id="after-failures",
        ),
        pytest.param(
            "After 5 failures, a circuit breaker opens.",
            "After 5 failures, the circuit breaker opens.",
            id="after-a-comma",
        ),
        pytest.param("Version 2 adds a flag.", "Version 2 adds the flag.", id="a-verb"),
        pytest.param(
            "The first 10 requests a client sends are free.",
            "The first 10 requests the client sends are free.",
            id="a-clause",
        ),
        pytest.param(
            "With 3 nodes a cluster tolerates one failure.",
            "With 3 nodes the cluster tolerates one failure.",
            id="with-nodes",
        ),
    ],
)
def test_an_article_after_a_count_that_says_no_rate_is_an_article(quote: str, passage: str) -> None:
    """ "a" after a count and a plural opens a phrase of its own as often as it says a
    rate: where the other side says no rate there, "a" -> "the" is an article traded."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Give 5 users a license.", "Give 5 users per license.", id="give"),
        pytest.param("Give 5 users per license.", "Give 5 users a license.", id="back"),
        pytest.param("Assign 3 users a role.", "Assign 3 users per role.", id="assign"),
    ],
)
def test_an_article_after_the_ones_given_a_thing_is_no_rate(quote: str, passage: str) -> None:
    """ "Give 5 users a license" gives each of them one; "5 users per license" shares one
    among them."""
    found = judged(quote, passage)
    assert found.meaning_changed and "quantifier changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Prefix the variable with a dollar sign.",
            "Prefix the variable with the dollar sign.",
            id="dollar-sign",
        ),
        pytest.param(
            "Type a pound sign to start a comment.",
            "Type the pound sign to start a comment.",
            id="pound-sign",
        ),
        pytest.param("Enter a dollar amount.", "Enter the dollar amount.", id="dollar-amount"),
        pytest.param("Open a euro account.", "Open the euro account.", id="euro-account"),
    ],
)
def test_a_currency_said_of_a_noun_after_a_is_no_sum(quote: str, passage: str) -> None:
    """ "a dollar sign" is one sign, not one dollar: "a" -> "the" there is no number."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "It costs a dollar more per call.", "It costs 1 dollar more per call.", id="more"
        ),
        pytest.param("It costs a dollar monthly.", "It costs $1 monthly.", id="monthly"),
    ],
)
def test_a_currency_after_a_before_a_word_said_of_the_sum_is_one(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_cents_before_euros_no_sum_of_its_own_names_are_euro_cents() -> None:
    """ "billed in euros" names the currency of the sums around it, where "€1 in Europe" is
    a sum of its own: the cents are euro cents, and in dollars another sum."""
    quote = "It costs 50 cents per call, billed in euros."
    found = judged(quote, "It costs $0.50 per call, billed in euros.")
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds
    assert level(quote, "It costs €0.50 per call, billed in euros.") != "changed"


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "100 requests are sampled.",
            "Under 100 requests are sampled.",
            "limit changed",
            id="under",
        ),
        pytest.param(
            "100 requests are sampled.",
            "Up to 100 requests are sampled.",
            "limit changed",
            id="up-to",
        ),
        pytest.param(
            "100 requests are sampled.",
            "About 100 requests are sampled.",
            "degree changed",
            id="about",
        ),
    ],
)
def test_a_bound_put_before_the_figure_a_quote_opens_with_is_the_figure_s(
    quote: str, passage: str, kind: str
) -> None:
    """A bound or an approximation the page put right before the figure the quote begins
    with is said of that figure, as "or more" right after it is: no words put before the
    quote that leave it as it was."""
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found.kinds


@pytest.mark.parametrize(
    "passage",
    [
        pytest.param("Then 100 requests are sampled.", id="then"),
        pytest.param("The trial is over. 100 requests are sampled.", id="another-sentence"),
        pytest.param("The trial is over; 100 requests are sampled.", id="another-clause"),
        pytest.param("Read about it: 100 requests are sampled.", id="about-it"),
    ],
)
def test_a_word_before_the_figure_a_quote_opens_with_that_says_nothing_of_it(passage: str) -> None:
    """ "over" that ends the sentence before, or "about" that names what is told of, is
    no bound or approximation of the figure after it."""
    quote = "100 requests are sampled."
    assert level(quote, passage) == "harmless", judged(quote, passage)
