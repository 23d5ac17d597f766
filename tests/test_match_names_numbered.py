"""A name and its number written together or apart are one name: "ISO 8601" is
"ISO8601", "HTTP/2" is "HTTP2", "SHA256" is "SHA 256". Another number, or a number put
to a name that had none, is still a number changed."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Dates use ISO 8601 format.", "Dates use ISO8601 format.", id="iso"),
        pytest.param("The server speaks HTTP 2 only.", "The server speaks HTTP2 only.", id="http"),
        pytest.param("Hashes use SHA256 always.", "Hashes use SHA 256 always.", id="apart"),
        pytest.param("The server speaks HTTP/2 only.", "The server speaks HTTP2 only.", id="slash"),
        pytest.param("Use TLS 1.3 only.", "Use TLS1.3 only.", id="a-version"),
    ],
)
def test_a_name_and_its_number_written_together_or_apart_are_one(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The server speaks HTTP 2 only.", "The server speaks HTTP3 only.", id="another"
        ),
        pytest.param("Hashes use SHA256 always.", "Hashes use SHA 512 always.", id="apart"),
        pytest.param("Hashes use SHA always.", "Hashes use SHA 256 always.", id="put-to-it"),
    ],
)
def test_another_number_of_a_name_is_a_number_changed(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "number changed" in found.kinds, found.kinds
