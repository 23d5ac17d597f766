"""How far a verb's denial reaches a word of all after it: to the end of its clause, but
not out of a relative clause it stands in ("requests that do not match are all
dropped") nor into a clause a subordinator opens after it ("not retried when all
workers are busy"). Moving such a clause, or the word of all, denies nothing new."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "All requests that do not match are dropped.",
            "Requests that do not match are all dropped.",
            id="denial-in-a-relative-clause",
        ),
        pytest.param(
            "All nodes that are not healthy are removed.",
            "Nodes that are not healthy are all removed.",
            id="that-are-not",
        ),
        pytest.param(
            "All users who do not log in are removed.",
            "Users who do not log in are all removed.",
            id="who",
        ),
        pytest.param(
            "Requests that do not match any rule are dropped in all cases.",
            "In all cases, requests that do not match any rule are dropped.",
            id="relative-clause-and-a-phrase-put-first",
        ),
        pytest.param(
            "Requests are not retried when all workers are busy.",
            "When all workers are busy, requests are not retried.",
            id="when-clause-put-first",
        ),
        pytest.param(
            "It does not stop until all jobs finish.",
            "Until all jobs finish, it does not stop.",
            id="until",
        ),
        pytest.param(
            "It never deletes data unless all replicas agree.",
            "Unless all replicas agree, it never deletes data.",
            id="unless",
        ),
        pytest.param(
            "Files that the job did not write are all deleted.",
            "All files that the job did not write are deleted.",
            id="a-relative-clause-of-its-object",
        ),
        pytest.param(
            "All keys that you do not need are removed.",
            "Keys that you do not need are all removed.",
            id="a-pronoun-its-subject",
        ),
        pytest.param(
            "Files that our nightly backup job never wrote are all deleted.",
            "All files that our nightly backup job never wrote are deleted.",
            id="a-longer-subject",
        ),
        pytest.param(
            "Backups do not run while all nodes are busy.",
            "While all nodes are busy, backups do not run.",
            id="while",
        ),
    ],
)
def test_a_denial_reaches_no_word_of_all_past_its_own_clause(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "It does not retry in all cases.",
            "In all cases, it does not retry.",
            id="main-clause",
        ),
        pytest.param(
            "Requests that do not match are not dropped in all cases.",
            "In all cases, requests that do not match are not dropped.",
            id="main-clause-after-a-relative-one",
        ),
        pytest.param(
            "Data that is old is not kept in all regions.",
            "In all regions, data that is old is not kept.",
            id="main-clause-after-a-relative-clause-of-its-subject",
        ),
        pytest.param(
            "The job did not write all files that it read.",
            "All files that it read, the job did not write.",
            id="a-relative-clause-after-the-word-of-all",
        ),
        pytest.param(
            "When a job fails, it does not retry in all cases.",
            "When a job fails, in all cases it does not retry.",
            id="inside-a-subordinate-clause",
        ),
        pytest.param(
            "Note that the server does not retry all requests.",
            "Note that all requests are not retried by the server.",
            id="a-clause-of-what-is-said-with-its-object",
        ),
        pytest.param(
            "Ensure that it never deletes all files.",
            "Ensure that all files are never deleted.",
            id="a-pronoun-its-subject-and-its-object-after-the-verb",
        ),
    ],
)
def test_a_denial_still_reaches_a_word_of_all_in_its_own_clause(quote: str, passage: str) -> None:
    """The main clause's own denial still reaches a word of all later in it, a relative
    clause before it or not."""
    assert "quantifier changed" in judged(quote, passage).kinds
