"""How many times a thing is done, said in words: "twice" is "two times" and "2 times", and
"twice" -> "once" is a number changed; but "twice" is no number where nothing on the other
side counts times ("think twice" -> "think carefully", "twice the delay" -> "double the
delay"), nor is "once" that opens a condition ("once the job ends")."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Failed uploads are retried twice.",
            "Failed uploads are retried two times.",
            id="two-times",
        ),
        pytest.param(
            "Failed uploads are retried twice.", "Failed uploads are retried 2 times.", id="2-times"
        ),
        pytest.param("Each file is read once.", "Each file is read one time.", id="one-time"),
        pytest.param(
            "Think twice before deleting a bucket.",
            "Think carefully before deleting a bucket.",
            id="think-twice",
        ),
        pytest.param(
            "The backoff waits twice the delay.", "The backoff waits double the delay.", id="double"
        ),
        pytest.param(
            "Once the job ends, it is retried twice.",
            "When the job ends, it is retried twice.",
            id="once-opens",
        ),
        pytest.param(
            "It is retried twice once the job ends.",
            "It is retried twice when the job ends.",
            id="once-mid",
        ),
    ],
)
def test_a_count_of_times_said_another_way_is_no_number_changed(quote: str, passage: str) -> None:
    assert "number changed" not in judged(quote, passage).kinds
    if "twice" not in passage and "double" not in passage and "carefully" not in passage:
        assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Failed uploads are retried twice.", "Failed uploads are retried once.", id="once"
        ),
        pytest.param(
            "Failed uploads are retried twice in a row.",
            "Failed uploads are retried once in a row.",
            id="once-in-a-row",
        ),
        pytest.param(
            "Failed uploads are retried 2 times.",
            "Failed uploads are retried 3 times.",
            id="3-times",
        ),
        pytest.param(
            "The backoff waits twice the delay.",
            "The backoff waits three times the delay.",
            id="three-times",
        ),
        pytest.param("Each file is read twice.", "Each file is read one time.", id="one-time"),
    ],
)
def test_a_count_of_times_changed_is_a_number_changed(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run twice a day on every node.",
            id="twice-a-day",
        ),
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run twice per day on every node.",
            id="twice-per-day",
        ),
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run two times a day on every node.",
            id="two-times-a-day",
        ),
        pytest.param(
            "Backups run three times daily.", "Backups run three times a day.", id="three-times"
        ),
        pytest.param("Backups run 3 times daily.", "Backups run three times per day.", id="3"),
        pytest.param("Backups run once daily.", "Backups run once a day.", id="once-daily"),
        pytest.param(
            "Backups run twice every day on every node.",
            "Backups run twice a day on every node.",
            id="every-as-a-with-another-every-kept",
        ),
        pytest.param(
            "Backups run daily on every node.",
            "Backups run every 24 hours on every node.",
            id="daily-as-every-24-hours-beside-another-every",
        ),
        pytest.param(
            "Backups run twice daily.", "Backups run twice a day.", id="at-the-sentences-end"
        ),
        pytest.param(
            "The index is rebuilt twice weekly.", "The index is rebuilt twice a week.", id="week"
        ),
        pytest.param(
            "Backups run twice daily.",
            "Backups run two times a day.",
            id="two-times-a-day-at-the-sentences-end",
        ),
        pytest.param(
            "Backups run twice daily.", "Backups run 2 times per day.", id="2-times-per-day-at-end"
        ),
    ],
)
def test_a_count_of_times_a_period_said_another_way_is_no_change(quote: str, passage: str) -> None:
    """ "Twice daily" is "twice a day": "daily" after a count of times says the period it
    is counted in, as "a day" there does, not "every day"."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run once a day on every node.",
            id="once-a-day",
        ),
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run twice a week on every node.",
            id="twice-a-week",
        ),
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run three times a day on every node.",
            id="three-times-a-day",
        ),
        pytest.param(
            "Backups run twice daily.", "Backups run three times a day.", id="three-times-at-end"
        ),
        pytest.param(
            "Backups run twice daily.",
            "Backups run two times a week.",
            id="two-times-a-week-at-end",
        ),
    ],
)
def test_a_count_of_times_a_period_changed_is_a_number_changed(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)
    assert "number changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Twice daily, backups run.", "Twice a day, backups run.", id="twice"),
        pytest.param(
            "Three times daily, backups run.", "Three times a day, backups run.", id="times"
        ),
        pytest.param(
            "Twice daily backups are kept.", "Twice a day backups are kept.", id="no-comma"
        ),
    ],
)
def test_a_count_of_times_daily_at_a_sentences_start_is_a_period(quote: str, passage: str) -> None:
    """ "Twice daily, ...": the comma is no word, and "daily" before "backups" read as a
    kind of backups ("daily backups"); after a count of times it says how often."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Twice daily, backups run.", "Twice a week, backups run.", id="week"),
        pytest.param("Twice daily, backups run.", "Once a day, backups run.", id="once"),
    ],
)
def test_a_count_of_times_daily_at_a_sentences_start_changed_is_a_number_changed(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Backups run once daily.", "Backups run 1 time a day.", id="at-the-end"),
        pytest.param("Backups run once daily.", "Backups run one time per day.", id="per"),
        pytest.param(
            "Backups run once daily on the host.",
            "Backups run 1 time a day on the host.",
            id="mid-sentence",
        ),
    ],
)
def test_one_time_a_period_is_once_a_period(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Backups run once daily.", "Backups run 1 time a week.", id="week"),
        pytest.param("Backups run once daily.", "Backups run 2 times a day.", id="twice"),
    ],
)
def test_one_time_another_period_is_a_number_changed(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Backups run twice daily on weekdays.",
            "Backups run daily on weekdays.",
            id="twice-daily-to-daily-mid-sentence",
        ),
        pytest.param(
            "Backups run twice daily on every node.",
            "Backups run daily on every node.",
            id="beside-another-every",
        ),
        pytest.param(
            "Backups run daily on weekdays.",
            "Backups run twice daily on weekdays.",
            id="daily-to-twice-daily",
        ),
        pytest.param(
            "Backups run twice daily on weekdays",
            "Backups run daily on weekdays",
            id="mid-page",
        ),
        pytest.param(
            "Logs rotate daily at midnight.",
            "Logs rotate twice a day at midnight.",
            id="twice-a-day",
        ),
    ],
)
def test_daily_mid_sentence_is_once_a_day(quote: str, passage: str) -> None:
    """ "daily" said of a doing is "every day" wherever it stands, not only at the end of
    a sentence: "twice daily" -> "daily" halves how often."""
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Backups run daily on weekdays.", "Backups run every day on weekdays.", id="every-day"
        ),
        pytest.param(
            "Backups run daily on weekdays.", "Backups run once a day on weekdays.", id="once"
        ),
        pytest.param(
            "Logs rotate daily at midnight.", "Logs rotate every day at midnight.", id="at"
        ),
        pytest.param(
            "The daily limit is 100 requests.",
            "The limit is 100 requests a day.",
            id="a-daily-limit",
        ),
        pytest.param(
            "Daily builds are slow on weekdays.",
            "Builds are slow on weekdays.",
            id="daily-builds",
        ),
    ],
)
def test_daily_said_another_way_or_of_a_kind_of_thing_is_no_number_changed(
    quote: str, passage: str
) -> None:
    """ "the daily limit" and "daily builds" name a kind of thing: "daily" there counts
    no times."""
    assert "number changed" not in judged(quote, passage).kinds, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At one time daily builds were slow",
            "At one point daily builds were slow",
            id="daily-builds",
        ),
        pytest.param("At one time builds were slow.", "At one point builds were slow.", id="point"),
        pytest.param("At one time builds were slow.", "At one stage builds were slow.", id="stage"),
        pytest.param(
            "At one time 5 builds were slow.", "At one point 5 builds were slow.", id="a-figure"
        ),
        pytest.param("Jobs run at one time.", "Jobs run at once.", id="at-once"),
        pytest.param(
            "Only one job runs at one time.", "Only one job runs at a time.", id="at-a-time"
        ),
    ],
)
def test_at_one_time_is_a_moment_and_no_count(quote: str, passage: str) -> None:
    """ "At one time" and "at one point" say when, or all at once: their "one" counts
    nothing, and one said for the other is no number changed."""
    assert not judged(quote, passage).meaning_changed, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At one time 5 builds were slow.", "At one point 6 builds were slow.", id="a-figure"
        ),
        pytest.param(
            "At one point builds were slow.", "At two points builds were slow.", id="two-points"
        ),
        pytest.param("Only one job runs at one time.", "Only two jobs run at one time.", id="jobs"),
    ],
)
def test_a_count_beside_at_one_time_changed_is_a_number_changed(quote: str, passage: str) -> None:
    assert "number changed" in judged(quote, passage).kinds, judged(quote, passage)


@pytest.mark.parametrize(
    "passage",
    [
        pytest.param("The fee is charged at two times.", id="two-times"),
        pytest.param("The fee is charged at three times.", id="three-times"),
        pytest.param("The fee is charged twice.", id="twice"),
    ],
)
def test_at_one_time_said_as_another_count_of_times_is_a_number_changed(passage: str) -> None:
    """ "At one time" says a moment, and it is once: "at two times" and "twice" are
    another count."""
    found = judged("The fee is charged at one time.", passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At one point the server restarts.", "At some point the server restarts.", id="point"
        ),
        pytest.param(
            "At some point the server restarts.", "At one point the server restarts.", id="back"
        ),
        pytest.param(
            "At one point, builds were slow.", "At some point, builds were slow.", id="a-comma"
        ),
        pytest.param(
            "At one time, builds were slow.", "At some time, builds were slow.", id="time"
        ),
        pytest.param("At one stage the job fails.", "At some stage the job fails.", id="stage"),
        pytest.param(
            "At some later point, the lease expires.",
            "At a later point, the lease expires.",
            id="a-word-before-the-moment",
        ),
    ],
)
def test_at_some_point_is_the_moment_at_one_point_says(quote: str, passage: str) -> None:
    """ "Some" of "at some point" names a moment, as "one" there does: no share of things."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At one point the server restarts.", "At every point the server restarts.", id="every"
        ),
        pytest.param(
            "At some point the server restarts.", "At any point the server restarts.", id="any"
        ),
        pytest.param(
            "At one point the server restarts.", "At any point the server restarts.", id="one-any"
        ),
        pytest.param("You can cancel at any time.", "You can cancel at some point.", id="cancel"),
        pytest.param(
            "At any later point, the lease expires.",
            "At some later point, the lease expires.",
            id="any-later",
        ),
        pytest.param(
            "At some moment the lock is released.",
            "At any moment the lock is released.",
            id="moment",
        ),
        pytest.param(
            "Some nodes restart at some point.",
            "All nodes restart at some point.",
            id="some-of-the-things",
        ),
        pytest.param(
            "Look at some points in the chart.",
            "Look at all points in the chart.",
            id="some-points",
        ),
    ],
)
def test_at_any_or_every_moment_for_one_is_a_quantifier_changed(quote: str, passage: str) -> None:
    """Whichever moment, or every one, is not one moment; and "some" of the things is
    still a share."""
    found = judged(quote, passage)
    assert found.meaning_changed and "quantifier changed" in found.kinds, found.kinds


def test_at_any_time_written_as_one_word_is_the_same() -> None:
    quote, passage = "You can cancel at any time.", "You can cancel anytime."
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At the same time, the server retries.",
            "Simultaneously, the server retries.",
            id="simultaneously",
        ),
        pytest.param(
            "Both jobs run at the same time.", "Both jobs run simultaneously.", id="at-the-end"
        ),
        pytest.param("Both jobs run simultaneously.", "Both jobs run at the same time.", id="back"),
    ],
)
def test_at_the_same_time_is_simultaneously(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At the same time, the server retries.",
            "At some time, the server retries.",
            id="some-time",
        ),
        pytest.param(
            "Both jobs run at the same time.", "Both jobs run at some time.", id="at-the-end"
        ),
        pytest.param(
            "At the same time, the server retries.",
            "At that time, the server retries.",
            id="that-time",
        ),
        pytest.param(
            "Both jobs run simultaneously.", "Both jobs run at some time.", id="simultaneously"
        ),
    ],
)
def test_at_the_same_time_for_one_unnamed_moment_may_have_changed(quote: str, passage: str) -> None:
    """ "At the same time" is one moment the things share, read whole: word by word its
    "the same" is two function words, and "some" for them read as no change at all."""
    assert level(quote, passage) != "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At the same time, the server retries.",
            "At any time, the server retries.",
            id="any-time",
        ),
        pytest.param(
            "Both jobs run at the same time.",
            "Both jobs run at a different time.",
            id="a-different-time",
        ),
    ],
)
def test_at_the_same_time_for_any_or_another_moment_is_a_strong_change(
    quote: str, passage: str
) -> None:
    assert judged(quote, passage).meaning_changed, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("At some point the job stops.", "Eventually the job stops.", id="point"),
        pytest.param("Eventually the job stops.", "At some point the job stops.", id="back"),
        pytest.param("At some point, the job stops.", "Eventually, the job stops.", id="a-comma"),
        pytest.param("At some time the job stops.", "Eventually the job stops.", id="time"),
        pytest.param("The job stops eventually.", "The job stops at some point.", id="at-the-end"),
        pytest.param(
            "The job stops at some later point.",
            "The job stops eventually.",
            id="at-some-later-point",
        ),
    ],
)
def test_at_some_point_is_eventually(quote: str, passage: str) -> None:
    """The one moment "at some point" names, unsaid which, is what "eventually" says:
    neither a degree nor the guarantee of eventual consistency came or went."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "The job eventually stops.", "The job stops.", "degree changed", id="taken-out"
        ),
        pytest.param(
            "At any point the job stops.",
            "Eventually the job stops.",
            "quantifier changed",
            id="any-point",
        ),
        pytest.param(
            "At some point the data is consistent.",
            "The data is eventually consistent.",
            "guarantee term changed",
            id="eventually-consistent",
        ),
        pytest.param(
            "Writes are eventually consistent at some point.",
            "Writes are strongly consistent at some point.",
            "guarantee term changed",
            id="the-term-beside-the-moment",
        ),
    ],
)
def test_eventually_beside_no_moment_it_says_is_still_a_strong_change(
    quote: str, passage: str, kind: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Backups run at the same time every night.",
            "Backups run simultaneously every night.",
            id="every-night",
        ),
        pytest.param(
            "Jobs run at the same time each day.",
            "Jobs run simultaneously each day.",
            id="each-day",
        ),
        pytest.param(
            "At the same time each day, the job runs.",
            "Simultaneously each day, the job runs.",
            id="at-the-start",
        ),
        pytest.param(
            "Backups run at the same time daily.",
            "Backups run simultaneously daily.",
            id="daily",
        ),
    ],
)
def test_at_the_same_time_of_each_period_is_no_simultaneously(quote: str, passage: str) -> None:
    """ "At the same time every night" is one hour of the clock, night after night; the
    things it is said of need not run together, as "simultaneously" says they do."""
    assert level(quote, passage) != "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Both jobs run at the same time on every node.",
            "Both jobs run simultaneously on every node.",
            id="on-every-node",
        ),
        pytest.param(
            "At the same time, each node writes its log.",
            "Simultaneously, each node writes its log.",
            id="each-node",
        ),
    ],
)
def test_at_the_same_time_before_each_thing_is_still_simultaneously(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_a_phrase_cut_where_only_its_article_or_preposition_changed_says_what_it_did() -> None:
    """ "For example" -> "As an example" trades the words that introduce the example, and
    says what it said: no word a phrase says was cut off."""
    quote, passage = "For example, set a timeout.", "As an example, set a timeout."
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_a_phrase_cut_is_weighed_against_what_the_other_side_says_there() -> None:
    """ "simultaneously" said in another sentence of the other side does not say the
    moment "At some time" put in place of "At the same time"."""
    quote = "At the same time, jobs retry. Both run simultaneously."
    passage = "At some time, jobs retry. Both run simultaneously."
    assert level(quote, passage) != "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At some fixed time the job stops.", "Eventually the job stops.", id="fixed-time"
        ),
        pytest.param(
            "The job stops at some random time.", "The job stops eventually.", id="random-time"
        ),
        pytest.param(
            "At some earlier point the job stopped.",
            "Eventually the job stopped.",
            id="earlier-point",
        ),
        pytest.param(
            "At some point the cache is cleared and eventually the job stops.",
            "At some point the cache is cleared and the job stops.",
            id="its-own-moment-beside",
        ),
        pytest.param(
            "At some point the cache is cleared and the job stops.",
            "At some point the cache is cleared and eventually the job stops.",
            id="its-own-moment-beside-back",
        ),
    ],
)
def test_eventually_for_another_moment_or_beside_its_own_is_still_a_degree(
    quote: str, passage: str
) -> None:
    """ "At some fixed time" or "at some earlier point" says which moment, where
    "eventually" says only that it comes; and an "at some point" both sides say of
    another clause says nothing of an "eventually" put in or taken out."""
    found = judged(quote, passage)
    assert found.meaning_changed and "degree changed" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At some future point the job stops.", "Eventually the job stops.", id="future"
        ),
        pytest.param(
            "Eventually the job stops.", "At some later point the job stops.", id="later-put-in"
        ),
        pytest.param(
            "Eventually the job stops.", "At some future time the job stops.", id="future-put-in"
        ),
    ],
)
def test_eventually_for_a_moment_to_come_is_the_same(quote: str, passage: str) -> None:
    """ "At some later point" says of the moment only what "eventually" does: it comes."""
    assert level(quote, passage) == "harmless", judged(quote, passage)
