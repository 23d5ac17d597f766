"""A quantity written with signs is judged as its words are: a comparison sign before a
figure is the bound it says ("<10 ms" is "less than 10 ms", "≥ 3" is "at least 3"), so a
bound reversed is a limit changed, and one said in words instead no change; and the case
of a unit tells bits ("Mb", "Gbps") from bytes ("MB")."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Latency is <10 ms.", "Latency is >10 ms.", id="less-more"),
        pytest.param("Latency is < 10 ms.", "Latency is > 10 ms.", id="spaced"),
        pytest.param("Latency is ≤ 10 ms.", "Latency is ≥ 10 ms.", id="at-most-at-least"),
        pytest.param("Latency is <= 10 ms.", "Latency is >= 10 ms.", id="ascii"),
        pytest.param("Latency is <10 ms.", "Latency is 10 ms.", id="sign-taken-out"),
        pytest.param("Latency is under 10 ms.", "Latency is 10 ms.", id="under-taken-out"),
        pytest.param("Latency is under 10 ms.", "Latency is over 10 ms.", id="under-over"),
        pytest.param("Files larger than 5 GB are split.", "Files of 5 GB are split.", id="larger"),
    ],
)
def test_a_comparison_sign_reversed_is_a_limit_changed(quote: str, passage: str) -> None:
    assert "limit changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Latency is ≤ 10 ms.", "Latency is at most 10 ms.", id="at-most"),
        pytest.param("Latency is < 10 ms.", "Latency is less than 10 ms.", id="less-than"),
        pytest.param("Keep >= 3 replicas.", "Keep at least 3 replicas.", id="at-least"),
        pytest.param("Latency is <10 ms.", "Latency is under 10 ms.", id="under"),
        pytest.param("Latency is <10 ms.", "Latency is below 10 ms.", id="below"),
        pytest.param("Latency is >10 ms.", "Latency is over 10 ms.", id="over"),
        pytest.param("Latency is >10 ms.", "Latency is above 10 ms.", id="above"),
        pytest.param("Use < 5 nodes.", "Use fewer than 5 nodes.", id="fewer-than"),
    ],
)
def test_a_comparison_sign_said_in_words_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_an_arrow_before_a_figure_is_no_bound() -> None:
    """ "=>" maps a key to a value ("a => 5"), as "->" does; it says no "at least"."""
    assert level("Map a => 5 in the config.", "Map a -> 5 in the config.") == "harmless"


def test_a_quoted_line_marker_before_an_address_is_no_bound() -> None:
    """ "> `0.0.0.0`" in raw Markdown quotes a line; it bounds no figure."""
    quote = "Bind to 0.0.0.0 as a convenience."
    assert level(quote, "Bind to > 0.0.0.0 as a convenience.") == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The cache holds 100 MB.", "The cache holds 100 Mb.", id="MB-Mb"),
        pytest.param("The limit is 10 KB.", "The limit is 10 Kb.", id="KB-Kb"),
        pytest.param("The link carries 10 GB/s.", "The link carries 10 Gb/s.", id="GB/s-Gb/s"),
        pytest.param("The link is 10 Mbps.", "The link is 10 MBps.", id="Mbps-MBps"),
    ],
)
def test_bits_for_bytes_is_a_number_changed(quote: str, passage: str) -> None:
    """A small "b" after a capital prefix is a bit, a capital "B" a byte: eight times it."""
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The link is 10 Mbps.", "The link is 10 Mbit/s.", id="Mbit/s"),
        pytest.param("The link is 1 Gbps.", "The link is 1000 Mbps.", id="1000-Mbps"),
        pytest.param("The link is 10 Gbps.", "The link is 10 gigabits per second.", id="gigabits"),
        pytest.param("The cache holds 100 MB.", "The cache holds 100 megabytes.", id="bytes"),
    ],
)
def test_bits_said_another_way_are_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Errors stay below 10^-6.", "Errors stay below 10^6.", id="caret-sign"),
        pytest.param("Errors stay below 10⁻⁶.", "Errors stay below 10⁶.", id="superscript-sign"),
        pytest.param("Errors stay below 10⁻⁶.", "Errors stay below 10⁻⁵.", id="exponent"),
        pytest.param("Errors stay below 10-6.", "Errors stay below 10-5.", id="caret-lost"),
        pytest.param("It holds 2^32 keys.", "It holds 2^64 keys.", id="base-two"),
    ],
)
def test_a_power_changed_is_a_number_changed(quote: str, passage: str) -> None:
    """The sign of an exponent is no punctuation: 10^-6 is a millionth, 10^6 a million."""
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Errors stay below 10⁻⁶.", "Errors stay below 10^-6.", id="superscript"),
        pytest.param("Errors stay below 1e-6.", "Errors stay below 10^-6.", id="scientific"),
        pytest.param("It holds 2^32 keys.", "It holds 4294967296 keys.", id="written-out"),
        pytest.param("It serves 10^6 users.", "It serves 1 million users.", id="a-million"),
    ],
)
def test_a_power_written_another_way_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param("Use 1-5 replicas.", "Use 1-6 replicas.", "changed", id="range-changed"),
        pytest.param("Use 10–20 GB.", "Use 10–30 GB.", "changed", id="en-dash"),
        pytest.param("Use 1-5 replicas.", "Use 1 to 5 replicas.", "harmless", id="to"),
        pytest.param("It takes 5-10 s.", "It takes 5 to 10 s.", "harmless", id="with-unit"),
    ],
)
def test_a_range_joined_by_a_dash_is_its_figures(quote: str, passage: str, said: str) -> None:
    """ "1-5" is 1 to 5: another end is a number changed (not a name), "to" no change."""
    assert level(quote, passage) == said, judged(quote, passage)
    assert said == "harmless" or "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param("Keep 3+ copies.", "Keep 3 copies.", "changed", id="plus-taken-out"),
        pytest.param("Keep 3+ copies.", "Keep at least 3 copies.", "harmless", id="at-least"),
        pytest.param("Keep 3+ copies.", "Keep 3 or more copies.", "harmless", id="or-more"),
    ],
)
def test_a_plus_after_a_figure_is_its_lower_bound(quote: str, passage: str, said: str) -> None:
    """ "3+ copies" is at least three: the plus taken out is a limit changed."""
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param("It costs $5 a month.", "It costs €5 a month.", "changed", id="euros"),
        pytest.param("It costs £5 a month.", "It costs 5 euros a month.", "changed", id="pounds"),
        pytest.param(
            "It costs $5 a month.", "It costs CAD 5 a month.", "changed", id="not-every-dollar"
        ),
        pytest.param("It costs $5 a month.", "It costs EUR 5 a month.", "changed", id="eur"),
        pytest.param("It costs USD 5 a month.", "It costs USD 6 a month.", "changed", id="usd"),
        pytest.param("It costs £5 a month.", "It costs 5 EUR a month.", "changed", id="gbp-eur"),
    ],
)
def test_a_currency_sign_is_its_unit(quote: str, passage: str, said: str) -> None:
    """ "$5" -> "€5" is another sum, though its figure did not change; so is "$5" -> "CAD
    5", the sign read as the dollar."""
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("It raised $5 million.", "It raised $5 billion.", id="a-sums-magnitude"),
        pytest.param("It raised $5 million.", "It raised $5.", id="its-magnitude-dropped"),
        pytest.param("It costs €5 million.", "It costs €5 billion.", id="in-euros"),
        pytest.param("It has 3+ million users.", "It has 3+ billion users.", id="after-a-plus"),
        pytest.param("The box weighs 5 pounds.", "The box weighs 5 GBP.", id="pounds-of-weight"),
        pytest.param("Use a 5m cable.", "Use a 300s cable.", id="metres-not-minutes"),
        pytest.param(
            "The team won 10-2 last night.", "The team won 0.01 last night.", id="a-score"
        ),
    ],
)
def test_a_sign_read_as_words_never_makes_a_change_harmless(quote: str, passage: str) -> None:
    """Reading signs as words parted "$5 million" into "5 dollars million" (its magnitude
    then lost), made a pound of weight a pound sterling, "5m" always minutes and any
    "10-2" ten to the minus two: each a change then judged harmless or only reworded."""
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The link is 128 Kbps.", "The link is 128 kbps.", id="si-kilo"),
        pytest.param("It costs $5 million.", "It costs 5 million dollars.", id="sign-or-word"),
    ],
)
def test_a_unit_written_otherwise_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Latency is ~10 ms.", "Latency is 10 ms.", id="tilde"),
        pytest.param("Latency is 10 ms.", "Latency is ≈ 10 ms.", id="almost-equal"),
    ],
)
def test_a_sign_of_approximation_taken_out_or_put_in_is_a_degree_changed(
    quote: str, passage: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "degree changed" in found.kinds, found.kinds


def test_a_sign_of_approximation_said_in_words_is_no_change() -> None:
    assert level("Latency is ~10 ms.", "Latency is about 10 ms.") == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "It costs $5 per month for each seat.",
            "It costs USD 5 per month for each seat.",
            id="code-before",
        ),
        pytest.param("It costs $5 a month.", "It costs 5 USD a month.", id="code-after"),
        pytest.param("It costs $5 a month.", "It costs US$5 a month.", id="us-dollar-sign"),
        pytest.param("It costs $5 a month.", "It costs $5 USD a month.", id="sign-and-code"),
        pytest.param("It costs $5 million.", "It costs USD 5 million.", id="with-a-magnitude"),
        pytest.param("It costs €5 a month.", "It costs EUR 5 a month.", id="eur"),
        pytest.param("It costs £5 a month.", "It costs GBP 5 a month.", id="gbp"),
        pytest.param("It costs ¥500 a month.", "It costs 500 JPY a month.", id="jpy"),
        pytest.param("It costs 5 dollars a month.", "It costs USD 5 a month.", id="dollars"),
        pytest.param(
            "It costs £5 a month.", "It costs 5 pounds sterling a month.", id="pounds-sterling"
        ),
        pytest.param("It costs GBP 5 a month.", "It costs 5 pound sterling a month.", id="pound"),
    ],
)
def test_a_currencys_code_is_its_sign(quote: str, passage: str) -> None:
    """ "USD 5" is "$5", as "5 dollars" is; "EUR", "GBP" and "JPY" are "€", "£" and "¥"."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_a_currency_sign_after_its_sum_is_its_unit() -> None:
    """ "5€" is "€5"; "5€" -> "£5" is another sum."""
    assert level("It costs 5€.", "It costs €5.") == "harmless"
    assert level("It costs 5 €.", "It costs €5.") == "harmless"
    assert "number changed" in judged("It costs 5€.", "It costs £5.").kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The rate is computed over 5 minutes.",
            "The rate is computed for more than 5 minutes.",
            id="over-a-span",
        ),
        pytest.param(
            "Data is replicated over 3 nodes.",
            "Data is replicated to more than 3 nodes.",
            id="over-a-number-of-places",
        ),
        pytest.param(
            "Resources are grouped under 3 namespaces.",
            "Resources are grouped in fewer than 3 namespaces.",
            id="under-a-grouping",
        ),
    ],
)
def test_over_or_under_placing_a_thing_is_no_bound(quote: str, passage: str) -> None:
    """After a verb that places a thing, "over 3 nodes" says where, not how many: a
    bound said instead is another claim."""
    assert level(quote, passage) == "changed", judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The price is £5 per seat.", "The price is 5 pounds per seat.", id="sign"),
        pytest.param("It costs GBP 5 a month.", "It costs 5 pounds a month.", id="code"),
        pytest.param("It costs 5 pounds a month.", "It costs £5 a month.", id="the-other-way"),
    ],
)
def test_a_sum_in_sterling_said_in_pounds_may_have_changed(quote: str, passage: str) -> None:
    """ "Pounds" alone may weigh, but beside a sum in sterling, with nothing said of
    weight, they are as likely the same sum: no strong evidence either way."""
    assert level(quote, passage) == "uncertain", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The box is 5 pounds (weight) each.", "The box is 5 GBP each.", id="weight"),
        pytest.param("The box weighs 5 pounds each.", "The box weighs £5 each.", id="weighs"),
        pytest.param("It costs £5 a month.", "It costs 6 pounds a month.", id="another-figure"),
    ],
)
def test_pounds_of_weight_or_another_figure_are_another_sum(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The price is $5 per seat.", "The price is $5 CAD per seat.", id="cad"),
        pytest.param("The price is $5 USD per seat.", "The price is $5 AUD per seat.", id="aud"),
        pytest.param("The price is $5 CAD per seat.", "The price is $5 NZD per seat.", id="nzd"),
        pytest.param("The price is USD 5 per seat.", "The price is 5 SGD per seat.", id="sgd"),
    ],
)
def test_a_code_after_a_dollar_sum_says_which_dollar(quote: str, passage: str) -> None:
    """ "$" is written by many currencies; a code after the sum says which one, and
    another code is another sum, whichever currency it names."""
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The price is $5 CAD per seat.", "The price is CAD 5 per seat.", id="before"),
        pytest.param("The price is $5 CAD per seat.", "The price is 5 CAD per seat.", id="after"),
    ],
)
def test_a_dollar_sum_with_its_code_is_the_code_s_sum(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_the_rupee_sign_is_the_rupee_s_code() -> None:
    quote = "At a rate of $1.00 = ₹82.42, it costs ₹8242."
    assert level(quote, "At a rate of 1.00 USD = 82.42 INR, it costs 8242 INR.") == "harmless"
    assert level(quote, "At a rate of 1.00 USD = 82.42 INR, it costs 8242 CAD.") == "changed"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The price is $5 per seat.", "The price is 5 USD cents per seat.", id="usd"),
        pytest.param("The price is $5 per seat.", "The price is 5 cents per seat.", id="cents"),
        pytest.param("The fee is 5 cents a call.", "The fee is 5 euros a call.", id="euros"),
    ],
)
def test_cents_are_another_sum(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


def test_per_cent_is_no_sum() -> None:
    assert level("Fees rise 10 per cent a year.", "Fees rise 10 per cent each year.") == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The fee is 10 cents a call.", "The fee is 10¢ a call.", id="joined"),
        pytest.param("The fee is 10 cents a call.", "The fee is 10 ¢ a call.", id="apart"),
        pytest.param("The fee is 10 cents.", "The fee is 10¢.", id="at-the-end"),
    ],
)
def test_the_sign_of_a_cent_says_cents(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    "passage",
    [
        pytest.param("The fee is $10 a call.", id="dollars"),
        pytest.param("The fee is 20¢ a call.", id="another-figure"),
        pytest.param("The fee is 10 a call.", id="no-unit"),
    ],
)
def test_a_sum_in_cents_put_otherwise_is_another_sum(passage: str) -> None:
    quote = "The fee is 10¢ a call."
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    "passage",
    [
        pytest.param("The fee is 5 USD cents per seat.", id="usd"),
        pytest.param("The fee is 5 US cents per seat.", id="us"),
    ],
)
def test_the_dollar_s_code_before_cents_names_cents(passage: str) -> None:
    quote = "The fee is 5 cents per seat."
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_dollars_put_as_cents_at_the_end_of_a_sentence_are_another_sum() -> None:
    quote, passage = "The price is $5.", "The price is 5 USD cents."
    assert level(quote, passage) == "changed", judged(quote, passage)
