"""A quantity written another way is the same quantity: "a week" and "7 days", "daily" and
"every 24 hours", "10k" and "10,000", "1M" and "1 million", "half a second" and "0.5
seconds". Beside each, the same form with the quantity changed, which is still a number
changed."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Logs are kept for 7 days.", "Logs are kept for a week.", id="a-week"),
        pytest.param("Logs are kept for a week.", "Logs are kept for 7 days.", id="7-days"),
        pytest.param(
            "Wait an hour before retrying.", "Wait 60 minutes before retrying.", id="an-hour"
        ),
        pytest.param("The job runs every 24 hours.", "The job runs daily.", id="daily"),
        pytest.param("The job runs daily.", "The job runs every 24 hours.", id="every-24-hours"),
        pytest.param("The job runs daily.", "The job runs every day.", id="every-day"),
        pytest.param("Stats are sent every 60 minutes.", "Stats are sent hourly.", id="hourly"),
        pytest.param(
            "It handles 10k requests per second.",
            "It handles 10,000 requests per second.",
            id="10k",
        ),
        pytest.param(
            "It handles 10K requests per second.",
            "It handles 10 000 requests per second.",
            id="10K",
        ),
        pytest.param(
            "It handles 1M requests per second.",
            "It handles 1 million requests per second.",
            id="1M",
        ),
        pytest.param(
            "The timeout is 0.5 seconds.", "The timeout is half a second.", id="half-a-second"
        ),
        pytest.param("The timeout is half a second.", "The timeout is 500 ms.", id="500-ms"),
        pytest.param(
            "Scrapes are sent per second.", "Scrapes are sent every second.", id="per-second"
        ),
        pytest.param(
            "Backups run weekly on Sundays.",
            "Backups run every week on Sundays.",
            id="weekly-and-on",
        ),
        pytest.param(
            "Backups run daily at noon.", "Backups run every day at noon.", id="daily-and-on"
        ),
        pytest.param("Limits are 100 per minute.", "Limits are 100 a minute.", id="100-a-minute"),
    ],
)
def test_a_quantity_written_another_way_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Logs are kept for a week.", "Logs are kept for two weeks.", id="two-weeks"),
        pytest.param("Logs are kept for a week.", "Logs are kept for 8 days.", id="8-days"),
        pytest.param(
            "Wait a minute before retrying.", "Wait an hour before retrying.", id="an-hour"
        ),
        pytest.param("The job runs daily.", "The job runs hourly.", id="hourly"),
        pytest.param("The job runs daily.", "The job runs every 12 hours.", id="every-12-hours"),
        pytest.param("The job runs every day.", "The job runs every week.", id="every-week"),
        pytest.param("It handles 10k requests.", "It handles 100k requests.", id="100k"),
        pytest.param("It handles 1M requests.", "It handles 10 million requests.", id="10-million"),
        pytest.param("The timeout is 1M.", "The timeout is 1 minute.", id="1M-is-no-minute"),
        pytest.param("The timeout is half a second.", "The timeout is a second.", id="a-second"),
        pytest.param(
            "Add a second replica for safety.", "Add a third replica for safety.", id="ordinal"
        ),
    ],
)
def test_a_quantity_changed_is_a_number_changed(quote: str, passage: str) -> None:
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("It is a minute detail.", "It is a tiny detail.", id="minute-as-tiny"),
        pytest.param(
            "Wait a second before retrying.", "Wait a moment before retrying.", id="a-moment"
        ),
        pytest.param("Changes apply in a minute.", "Changes apply shortly.", id="shortly"),
        pytest.param(
            "The daily limit is 100 requests.",
            "The limit is 100 requests a day.",
            id="a-daily-limit",
        ),
    ],
)
def test_a_moment_said_with_a_unit_is_no_quantity(quote: str, passage: str) -> None:
    """ "a second", "a minute" say a moment or a small thing as often as one of the unit,
    and "the daily limit" a kind of limit: with no quantity on the other side, no number
    changed."""
    assert "number changed" not in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Wait a minute before retrying.", "Wait 60 seconds before retrying.", id="60-s"
        ),
        pytest.param(
            "Wait a minute before retrying.", "Wait one minute before retrying.", id="one"
        ),
        pytest.param("Retry after 60 seconds.", "Retry after a minute.", id="a-minute"),
        pytest.param(
            "Wait a second before retrying.", "Wait 1000 ms before retrying.", id="1000-ms"
        ),
    ],
)
def test_a_moment_beside_a_duration_is_one_of_its_unit(quote: str, passage: str) -> None:
    """ "a minute" where the other side counts time in figures is one minute: "wait a
    minute" -> "wait 60 seconds" is the same wait."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Wait a minute before retrying.", "Wait 30 seconds before retrying.", id="30-s"
        ),
        pytest.param("Wait a second before retrying.", "Wait 100 ms before retrying.", id="100-ms"),
    ],
)
def test_a_moment_beside_another_duration_is_a_number_changed(quote: str, passage: str) -> None:
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The job runs once a day.", "The job runs daily.", id="daily"),
        pytest.param("The job runs daily.", "The job runs once a day.", id="once-a-day"),
        pytest.param("The job runs once per hour.", "The job runs hourly.", id="once-per-hour"),
        pytest.param(
            "The job runs once an hour.", "The job runs every 60 minutes.", id="every-60-minutes"
        ),
    ],
)
def test_once_a_period_is_every_period(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("The job runs once a day.", "The job runs twice a day.", id="twice"),
        pytest.param("The job runs daily.", "The job runs twice a day.", id="daily-twice"),
        pytest.param("The job runs once a week.", "The job runs daily.", id="weekly"),
    ],
)
def test_another_count_a_period_is_a_number_changed(quote: str, passage: str) -> None:
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param("It reduces memory by 30%.", "It reduces memory to 30%.", "changed", id="to"),
        pytest.param("Memory grows to 30%.", "Memory grows by 30%.", "changed", id="by"),
        pytest.param("Costs fell by 30%.", "Costs fell 30%.", "harmless", id="by-dropped"),
        pytest.param(
            "Set the threshold to 30%.", "Set the threshold at 30%.", "harmless", id="no-change"
        ),
        pytest.param(
            "It reduces memory by up to 30%.",
            "It reduces memory up to 30%.",
            "harmless",
            id="up-to",
        ),
        pytest.param(
            "It reduces memory by 30%.", "It reduces memory by 30 percent.", "harmless", id="same"
        ),
    ],
)
def test_a_share_changed_by_or_to_is_another_amount(quote: str, passage: str, said: str) -> None:
    """ "reduced by 30%" leaves 70%, "reduced to 30%" leaves 30%."""
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Latency is about 10 ms.", "Latency is 10 ms.", id="about-dropped"),
        pytest.param("Latency is 10 ms.", "Latency is around 10 ms.", id="around-added"),
        pytest.param("It holds roughly 5 GB.", "It holds 5 GB.", id="roughly-dropped"),
    ],
)
def test_a_figure_said_to_be_approximate_or_no_longer_is_a_degree_changed(
    quote: str, passage: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "degree changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "It takes about 10 ms and exactly 5 s.",
            "It takes exactly 10 ms and about 5 s.",
            id="about-moved",
        ),
        pytest.param("It takes ~10 ms and 5 s.", "It takes 10 ms and ~5 s.", id="tilde-moved"),
    ],
)
def test_an_approximation_moved_to_another_figure_is_a_degree_changed(
    quote: str, passage: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "degree changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Learn about 3 ways to scale.", "Learn 3 ways to scale.", id="learn"),
        pytest.param("Read about 2 options.", "Read the 2 options.", id="read"),
        pytest.param("It handles 8K connections.", "It handles 8,000 connections.", id="8K"),
        pytest.param("It handles 8K connections.", "It handles 8k connections.", id="8k"),
    ],
)
def test_about_a_topic_and_thousands_with_a_capital_are_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage).kinds


def test_one_word_of_approximation_for_another_is_no_degree_changed() -> None:
    assert not judged("It holds roughly 5 GB.", "It holds approximately 5 GB.").meaning_changed
