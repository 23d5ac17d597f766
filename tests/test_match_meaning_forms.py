"""Forms real documentation edits take, read as what they say: an idiom that holds a
quantifier or a negation but says neither, a pointer to where a thing is, a rate, a
quantity written with a hyphen, a condition put before the sentence, one modal put for
another. Each harmless form beside a change of the same shape that must still be told.
Last, text made to be costly to compare (a long name, hundreds of names or acronyms),
told as a sentence is."""

from __future__ import annotations

import string

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Batching is not only faster but also avoids lock contention.",
            "Batching is faster and, most of all, avoids lock contention.",
            id="not-only-but-also",
        ),
        pytest.param(
            "The checker does not write to the cluster at all.",
            "The checker does not write to the cluster.",
            id="at-all",
        ),
        pytest.param("It is not at all slow.", "It is not slow.", id="not-at-all-before-a-word"),
        pytest.param("No data is lost at all.", "No data is lost.", id="no-data-at-all"),
        pytest.param(
            "Logs are kept at all levels.", "Logs are kept at every level.", id="at-all-levels"
        ),
        pytest.param(
            "Avoid data loss at all costs.", "Avoid data loss at any cost.", id="at-all-costs"
        ),
        pytest.param(
            "Logs are kept at all levels.", "Logs are kept at all log levels.", id="a-word-added"
        ),
        pytest.param(
            "Logs are kept at all supported levels.",
            "Logs are kept at every supported level.",
            id="at-all-supported-levels",
        ),
        pytest.param(
            "Data is checked at all network boundaries.",
            "Data is checked at every network boundary.",
            id="at-all-network-boundaries",
        ),
        pytest.param(
            "Uploads must not exceed a 5-MB limit per file.",
            "Uploads must not exceed a limit of 5 MB per file.",
            id="hyphenated-abbreviated-unit",
        ),
        pytest.param(
            "Jobs must not exceed a 10-hour window per run.",
            "Jobs must not exceed a window of 10 hours per run.",
            id="denied-words-in-another-order",
        ),
        pytest.param(
            "Instances are billed per hour of uptime.",
            "Instances are billed for every hour of uptime.",
            id="per-hour-every-hour",
        ),
        pytest.param(
            "It does not help at all, users say.",
            "It does not help, users say.",
            id="at-all-before-a-comma",
        ),
        pytest.param(
            "Nothing is retried at all; clients must retry.",
            "Nothing is retried; clients must retry.",
            id="at-all-before-a-semicolon",
        ),
    ],
)
def test_a_form_that_says_the_same_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The reference lists every single flag of the CLI.",
            "The reference lists every flag of the CLI.",
            id="every-single",
        ),
        pytest.param(
            "The complete configuration can be found in the examples repository.",
            "The complete configuration is available in the examples repository.",
            id="can-be-found-is-available",
        ),
    ],
)
def test_an_intensifier_or_a_pointer_said_otherwise_is_no_strong_change(
    quote: str, passage: str
) -> None:
    """Words the rewording changed are still shown ("may have changed"), but "every
    single" is "every", and "can be found" binds and stands as "is available" does."""
    assert level(quote, passage) == "uncertain", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The admin API is not only for operators.",
            "The admin API is only for operators.",
            id="not-only-with-no-but-denies",
        ),
        pytest.param(
            "Traffic is routed to the primary, not to the replica.",
            "Traffic is routed to the replica, not to the primary.",
            id="a-denial-traded",
        ),
        pytest.param(
            "The log is flushed to disk on every commit.",
            "The log is flushed to disk once per second.",
            id="every-commit-once-per-second",
        ),
        pytest.param(
            "The agent probes one random member every second.",
            "The agent probes one random member every five seconds.",
            id="every-second-every-five-seconds",
        ),
        pytest.param(
            "Compaction runs on the first day of every month.",
            "Compaction runs every hour on the first day of every month.",
            id="a-rate-put-in",
        ),
        pytest.param(
            "The retry limit must be reset after an error.",
            "Prior to API version 610, the retry limit must be reset after an error.",
            id="a-version-put-before",
        ),
        pytest.param(
            "Reads should be retried, and writes should be queued.",
            "Reads should be retried, and writes will be queued.",
            id="one-modal-put-for-another",
        ),
        pytest.param(
            "The exporter is experimental.",
            "The exporter is available.",
            id="a-status-for-another",
        ),
    ],
)
def test_the_same_shape_with_a_change_still_changes_the_claim(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        (
            "The source must be configured to use disk buffers.",
            "The sink must be configured to use disk buffers.",
        ),
        (
            "A cold resize requires the machine to be stopped.",
            "A hot resize requires the machine to be stopped.",
        ),
        ("The producer retries the write.", "The consumer retries the write."),
        ("Values above the maximum are rejected.", "Values above the minimum are rejected."),
    ],
)
def test_a_term_put_for_its_counterpart_reverses_the_claim(quote: str, passage: str) -> None:
    """Source and sink, producer and consumer, hot and cold: the other end of one
    relation, not a rename."""
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "To enable logging, you must download the agent.",
            "To enable logging, download the agent.",
            id="you-must-as-imperative",
        ),
        pytest.param(
            "Use the sample lines to test the parser.",
            "You can use the sample lines to test the parser.",
            id="imperative-as-you-can",
        ),
        pytest.param(
            "You will need to restart the node after an upgrade.",
            "Restart the node after an upgrade.",
            id="you-will-need-to-as-imperative",
        ),
    ],
)
def test_an_instruction_given_as_an_imperative_binds_as_its_modal(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "You must download the agent.",
            "You can download the agent.",
            "changed",
            id="two-modals-said-to-you",
        ),
        pytest.param(
            "The team supports the 3 most recent major releases.",
            "The team supports the last 3 major releases.",
            "uncertain",
            id="a-superlative-is-no-quantifier",
        ),
        pytest.param(
            "Most users run a single node.",
            "All users run a single node.",
            "changed",
            id="most-as-a-quantifier",
        ),
    ],
)
def test_a_modal_or_most_read_for_what_it_is(quote: str, passage: str, said: str) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "The proxy does not cache the request nor the response.",
            "The proxy does not cache the request or the response.",
            "harmless",
            id="not-a-nor-b-is-not-a-or-b",
        ),
        pytest.param(
            "Neither the primary nor any of its replicas accept writes during the window.",
            "During the window, no writes are accepted by the primary or any of its replicas.",
            "harmless",
            id="neither-nor-said-with-no",
        ),
        pytest.param(
            "Users have the ability to export reports.",
            "Users can export reports.",
            "harmless",
            id="have-the-ability-to-is-can",
        ),
        pytest.param(
            "Neither the primary nor the replica accepts writes.",
            "The primary and the replica accept writes.",
            "changed",
            id="neither-nor-taken-out",
        ),
        pytest.param(
            "The proxy does not cache the request nor the response.",
            "The proxy does not cache the request and the response.",
            "changed",
            id="nor-turned-and",
        ),
    ],
)
def test_nor_after_a_negation_denies_nothing_more(quote: str, passage: str, said: str) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


def test_a_sentence_split_before_the_span_is_judged_with_it() -> None:
    """The first half of a split sentence ("Results are not enabled by default.") stood
    before the span the quote lines up with; judged apart, its negation read as taken
    out. And "enabled by default. To keep ..." is no permission ("enables you to")."""
    quote = "But this is not enabled by default, and you have to configure a result backend first."
    passage = (
        "Results are not enabled by default. To keep task results, you will need to "
        "configure a result backend first."
    )
    assert level(quote, passage) == "uncertain", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "Read replicas can be promoted to standalone instances.",
            "Read replicas in the same region as the primary can be promoted to standalone "
            "instances.",
            "changed",
            id="a-scope-inside-the-sentence-still-narrows",
        ),
        pytest.param(
            "Many tools in the ecosystem are configured by one file.",
            "Some tools in the ecosystem are configured by one file.",
            "changed",
            id="many-some",
        ),
    ],
)
def test_what_the_span_takes_in_still_changes_the_claim(
    quote: str, passage: str, said: str
) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "Requests that exceed the limit are rejected.",
            "If requests exceed the limit, they are rejected.",
            "harmless",
            id="a-restriction-said-as-a-condition",
        ),
        pytest.param(
            "Requests that exceed the limit are rejected.",
            "If the account is new, requests that exceed the limit are rejected.",
            "changed",
            id="a-new-condition-put-before",
        ),
        pytest.param(
            "Requests are rejected.",
            "If the limit is exceeded, requests are rejected.",
            "changed",
            id="a-condition-put-before-a-plain-claim",
        ),
    ],
)
def test_a_condition_said_as_a_restriction_is_the_same_condition(
    quote: str, passage: str, said: str
) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "The sample rate is set by the knob TRACE_RATE.",
            "The sample rate is set by the TRACE_RATE knob.",
            "harmless",
            id="two-words-side-by-side",
        ),
        pytest.param(
            "In this example we set the interval to one minute.",
            "In this example, with the interval set to one minute.",
            "harmless",
            id="an-article-between",
        ),
        pytest.param(
            "Data is copied from the primary to the replica.",
            "Data is copied from the replica to the primary.",
            "changed",
            id="a-relation-between",
        ),
    ],
)
def test_words_side_by_side_trade_no_roles(quote: str, passage: str, said: str) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "The table grows whenever you ingest data.",
            "The table grows every time you ingest data.",
            "harmless",
            id="every-time-is-whenever",
        ),
        pytest.param(
            "Several replicas may lag.", "A few replicas may lag.", "harmless", id="a-few"
        ),
        pytest.param("Few replicas lag.", "Many replicas lag.", "changed", id="few-many"),
    ],
)
def test_every_time_and_a_few_say_no_other_quantity(quote: str, passage: str, said: str) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "Writes are acknowledged only only after all three replicas store them.",
            "Writes are acknowledged only after all three replicas store them.",
            "harmless",
            id="doubled-qualifier-mended",
        ),
        pytest.param(
            "Writes are acknowledged only after all three replicas store them.",
            "Writes are acknowledged only only after all three replicas store them.",
            "harmless",
            id="doubled-qualifier-made",
        ),
        pytest.param(
            "Writes are acknowledged only after all three replicas store them.",
            "Writes are acknowledged after all three replicas store them.",
            "changed",
            id="the-only-qualifier-taken-out",
        ),
        pytest.param(
            "Writes are acknowledged only after the replicas store them.",
            "Writes are acknowledged only after the replicas only store them.",
            "changed",
            id="a-second-qualifier-elsewhere",
        ),
    ],
)
def test_a_doubled_word_mended_is_no_change(quote: str, passage: str, said: str) -> None:
    assert level(quote, passage) == said, judged(quote, passage)


LONG_PATH = "https://example.com/" + "a/" * 990
DOTTED = "a." * 999 + "a ``https://example.com/" + "a/" * 488 + "a"
ACCENTED = "".join("a\u0301" if i % 7 == 3 else "a" for i in range(300))


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "The --maxtasksperchild option is used for tasks that leak.",
            "The --max-tasks-per-child option is used for tasks that leak.",
            "harmless",
            id="a-name-written-short",
        ),
        pytest.param(LONG_PATH, DOTTED, "uncertain", id="many-parts"),
        pytest.param(
            f"Set {'a' * 300} now.", f"Set {ACCENTED} now.", "uncertain", id="a-long-word"
        ),
    ],
)
def test_whether_a_name_is_another_written_short_is_asked_of_names_only(
    quote: str, passage: str, said: str
) -> None:
    """A word of hundreds of letters, or a name of a thousand parts, is weighed as a name
    like any other: it once exhausted the stack, or searched every way of cutting it."""
    assert level(quote, passage) == said, judged(quote, passage)


CODES = [f"qz{n:04d}" for n in range(350)]
ACRONYMS = ["A" + a + b for a in string.ascii_uppercase for b in string.ascii_uppercase]


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            " ".join(CODES),
            " ".join(c.replace("qz", "vk") for c in CODES),
            "uncertain",
            id="hundreds-of-names-each-put-for-another",
        ),
        pytest.param(
            " ".join(CODES), " ".join(CODES) + " too", "harmless", id="hundreds-of-names-kept"
        ),
        pytest.param(
            " ".join(ACRONYMS[:250]),
            " ".join(ACRONYMS[::-1][:250]),
            "uncertain",
            id="hundreds-of-acronyms",
        ),
    ],
)
def test_a_passage_of_hundreds_of_names_is_told_as_a_sentence_is(
    quote: str, passage: str, said: str
) -> None:
    """Past the number of names or acronyms a sentence holds, they are no longer paired
    one by one (which took seconds): names kept are still kept, names put for others
    still differ."""
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "kind", "not_kind"),
    [
        pytest.param(
            "The old API will be removed in version 3.",
            "The old API will be removed in May 2027 in version 3.",
            None,
            "modal weakened",
            id="a-date-put-in-is-no-modal",
        ),
        pytest.param(
            "Keys must be rotated by 1 May 2027.",
            "Keys must be rotated by 1 June 2027.",
            "number changed",
            "modal strengthened",
            id="the-month-changed",
        ),
        pytest.param(
            "You can cancel until May 2027.",
            "You can cancel until March 2027.",
            "number changed",
            None,
            id="the-month-changed-without-a-day",
        ),
        pytest.param(
            "Keys may be rotated by June 2027.",
            "Keys are rotated by May 2027.",
            "modal strengthened",
            None,
            id="the-modal-taken-out-beside-a-month",
        ),
        pytest.param(
            "You may use the cache.",
            "You must use the cache.",
            "modal strengthened",
            None,
            id="the-modal-may-is-still-one",
        ),
    ],
)
def test_may_beside_a_day_or_a_year_is_the_month(
    quote: str, passage: str, kind: str | None, not_kind: str | None
) -> None:
    """ "1 May 2027", "May 1, 2027", "May 2027": the month, which binds nothing, and which
    another month put for it changes as a day put for another does."""
    found = judged(quote, passage)
    assert kind is None or (kind in found.kinds and found.meaning_changed), found.kinds
    assert not_kind is None or not_kind not in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The key is valid until 1 May 2027.",
            "The key is valid until May 1, 2027.",
            id="day-month-year-as-month-day-year",
        ),
        pytest.param(
            "You can cancel until 31 May 2027.", "You can cancel until May 31, 2027.", id="last-day"
        ),
    ],
)
def test_a_date_written_the_other_way_round_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "Throughput is 100 MB/s.", "Throughput is 100 MB per second.", "harmless", id="mb-per-s"
        ),
        pytest.param(
            "It handles 10,000 requests per second.",
            "It handles 10,000 requests/second.",
            "harmless",
            id="requests-slash-second",
        ),
        pytest.param(
            "Throughput is 100 MB/s.", "Throughput is 100 MB/min.", "changed", id="per-minute"
        ),
        pytest.param(
            "It handles 100 requests/s.", "It handles 100 requests/min.", "changed", id="req-min"
        ),
        pytest.param(
            "See https://example.org/s for details.",
            "See https://example.org/s for the details.",
            "harmless",
            id="an-address-is-no-rate",
        ),
    ],
)
def test_a_rate_written_with_a_slash_is_a_rate(quote: str, passage: str, said: str) -> None:
    """ "100 MB/s" says "100 MB per second": the same rate, whose unit changed changes it."""
    assert level(quote, passage) == said, judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage", "said"),
    [
        pytest.param(
            "The old API is removed on 1 May 2027.",
            "On May 1, 2027, the old API is removed.",
            "harmless",
            id="the-day-put-first",
        ),
        pytest.param(
            "The old API is removed on June 1, 2027.",
            "The old API is deprecated on June 1, 2027.",
            "changed",
            id="removed-to-deprecated-on-a-day",
        ),
        pytest.param(
            "The old API is removed on 2027-05-01.",
            "On 2027-05-01, the old API is removed.",
            "harmless",
            id="the-whole-day-put-first",
        ),
    ],
)
def test_a_status_said_with_its_day_is_a_status(quote: str, passage: str, said: str) -> None:
    """ "removed on 1 May 2027" says the feature is removed, as "removed in 3.0" does: the
    day put before the sentence leaves the status as it was."""
    assert level(quote, passage) == said, judged(quote, passage)


def test_a_status_word_before_a_figure_that_is_no_day_says_no_status() -> None:
    """ "ignored on 2 retries" says what happens on a retry, not that the feature is
    ignored: only "removed on" a day is a status with its day."""
    kinds = judged(
        "The flag is ignored on 2 retries.", "After 2 retries the flag has no effect."
    ).kinds

    assert "support status changed" not in kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Files are not always deleted.", "Files are always not deleted.", id="not-always"
        ),
        pytest.param(
            "Not all nodes reply to the ping.",
            "All nodes do not reply to the ping.",
            id="not-all",
        ),
        pytest.param(
            "Not every request is logged.",
            "Every request is not logged.",
            id="not-every",
        ),
        pytest.param(
            "It does not retry in all cases after a failure.",
            "In all cases, it does not retry after a failure.",
            id="all-later-in-its-clause",
        ),
        pytest.param(
            "The cache is not flushed after every write.",
            "After every write, the cache is not flushed.",
            id="every-clause-put-first",
        ),
        pytest.param(
            "Requests are never retried on all replicas.",
            "On all replicas, requests are never retried.",
            id="never",
        ),
        pytest.param(
            "In all cases, it does not retry after a failure.",
            "It does not retry after a failure in all cases.",
            id="all-put-after-the-denial",
        ),
    ],
)
def test_a_negation_moved_off_a_word_of_all_changes_the_claim(quote: str, passage: str) -> None:
    """ "Not all" says some are not; "all ... not" says none are: the same words and the
    same count of negations, and another claim. A verb's denial reaches a word of all
    later in its clause ("does not retry in all cases": not in all of them)."""
    found = judged(quote, passage)
    assert found.meaning_changed, found.kinds
    assert "quantifier changed" in found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Files are not always deleted.", "Files aren't always deleted.", id="contracted"
        ),
        pytest.param(
            "Not all nodes reply to the ping.",
            "Not all of the nodes reply to the ping.",
            id="of-the",
        ),
        pytest.param(
            "It is not only fast but also safe.", "It is not just fast but also safe.", id="only"
        ),
        pytest.param(
            "It is not always retried after a failure.",
            "After a failure, it is not always retried.",
            id="not-always-with-a-clause-moved",
        ),
        pytest.param(
            "It does not retry after a failure in some cases.",
            "In some cases, it does not retry after a failure.",
            id="no-word-of-all",
        ),
        pytest.param(
            "It runs without plugins in all cases.",
            "In all cases, it runs without plugins.",
            id="without-denies-no-verb",
        ),
        pytest.param(
            "It does not retry, and all requests fail.",
            "All requests fail, and it does not retry.",
            id="all-in-another-clause",
        ),
    ],
)
def test_a_negation_kept_on_its_word_of_all_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("This is not always needed.", "This is not really always needed.", id="ly"),
        pytest.param(
            "This is not always the case.",
            "This is not, however, always the case.",
            id="however",
        ),
        pytest.param("Not all nodes reply.", "Not quite all nodes reply.", id="quite"),
    ],
)
def test_an_aside_between_a_negation_and_a_word_of_all_moves_no_negation(
    quote: str, passage: str
) -> None:
    assert "quantifier changed" not in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "At one point the server restarts.",
            "At all points the server restarts.",
            id="one-point-all-points",
        ),
        pytest.param(
            "At some point, the lease expires.", "At all points, the lease expires.", id="some"
        ),
        pytest.param("Logs are kept at all levels.", "Logs are kept at some levels.", id="levels"),
        pytest.param("At all stages, logs are kept.", "At some stage, logs are kept.", id="stage"),
        pytest.param(
            "Logs are kept at all log levels.",
            "Logs are kept at some log levels.",
            id="a-word-before-the-plural",
        ),
        pytest.param(
            "It does not help at all users.", "It does not help users.", id="no-comma-between"
        ),
        pytest.param(
            "It does not help at all users, they say.",
            "It does not help users, they say.",
            id="a-comma-after-the-things",
        ),
    ],
)
def test_at_all_before_the_things_it_counts_is_every_one(quote: str, passage: str) -> None:
    """ "At all points" is every point, not the stress of "not at all"."""
    found = judged(quote, passage)
    assert found.meaning_changed and "quantifier changed" in found.kinds, found.kinds
