""" "e.g." and "for example" (or "for instance") say one thing: trading one for the other is
no change; the example itself changed, or the list made a rule, still is told."""

from __future__ import annotations

import pytest

from meaning_levels import judged, level


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Use a flag, e.g. --verbose, to see more.",
            "Use a flag, for example --verbose, to see more.",
            id="for-example",
        ),
        pytest.param(
            "Use a flag, for example --verbose, to see more.",
            "Use a flag, e.g. --verbose, to see more.",
            id="e.g.",
        ),
        pytest.param(
            "Use a flag, for instance --verbose.", "Use a flag, e.g. --verbose.", id="for-instance"
        ),
    ],
)
def test_an_example_said_another_way_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Use a flag, e.g. --verbose.", "Use a flag, for example --quiet.", id="another-example"
        ),
        pytest.param(
            "All formats, for example JSON, are supported.",
            "All formats except JSON are supported.",
            id="except",
        ),
    ],
)
def test_an_example_changed_is_still_told(quote: str, passage: str) -> None:
    assert level(quote, passage) != "harmless", judged(quote, passage)
