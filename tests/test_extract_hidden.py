"""extract_text leaves out text a reader of the page is not shown, and keeps all they are:
the page read whole and through a source's `select` alike."""

from __future__ import annotations

import pytest

from claimledger.errors import PageUnreadable
from claimledger.reading.extract import extract_text

LEAD = "The page's own words."


def html(body: str) -> str:
    return (
        "<!doctype html><html><head><title>T</title></head>"
        f"<body><main><p>{LEAD}</p>{body}</main></body></html>"
    )


def whole(body: str) -> str:
    return extract_text(html(body), "text/html; charset=utf-8")


def selected(body: str) -> str:
    try:
        return extract_text(html(body), "text/html; charset=utf-8", select="#quoted")
    except PageUnreadable:
        return ""


# --- an inline style, read as a browser reads it ---------------------------------------


@pytest.mark.parametrize(
    "style",
    [
        "--shown-as: display:none",  # a custom property's value hides nothing
        "font-family: 'display:none'",
        "display: none; display: block",  # the later declaration wins
        "display: none-ish",  # a value no browser knows is dropped
        "visibility: hidden; visibility: visible",
        "display: none; display: inline flex",  # two words that say one box
        "content-visibility: auto",
    ],
)
def test_a_style_that_hides_nothing_keeps_the_text(style: str) -> None:
    body = f'<p id="quoted" style="{style}">Shown to every reader.</p>'
    assert "Shown to every reader." in whole(body)
    assert selected(body) == "Shown to every reader."


@pytest.mark.parametrize(
    "style",
    [
        "display:/**/none",  # a comment is nothing
        "display: non\\65",  # an escape is the character it names
        "DISPLAY : NONE !important",
        "display: none !important; display: block",  # !important wins over a later one
        "display: none; display: nonesuch",  # an unknown value leaves the earlier in force
        "display: none; display: block block",  # nor does a known word said twice
        "display: none; display: inherit block",  # nor a word said only alone
        "visibility: hidden; visibility: visible visible",
        "display: none; display: var(--d, block)",  # nor one only the browser works out
        "content-visibility: hidden",
        "display: none;" + " a: none;" * 1000,  # longer than a page needs: read as hiding
    ],
)
def test_a_style_that_hides_leaves_the_text_out(style: str) -> None:
    body = f'<p id="quoted" style="{style}">Shown to no reader.</p>'
    assert whole(body) == LEAD
    assert selected(body) == ""


# --- hidden until found ------------------------------------------------------------------


def test_a_section_hidden_until_found_is_read_as_a_closed_details_is() -> None:
    """The browser opens it for a reader who searches the page for its words."""
    body = '<div id="quoted" hidden="until-found"><p>Opened by find in page.</p></div>'
    assert whole(body) == f"{LEAD}\nOpened by find in page."
    assert selected(body) == "Opened by find in page."
    assert whole('<div hidden="hidden"><p>Hidden.</p></div>') == LEAD
    assert whole('<div hidden=" until-found"><p>Hidden.</p></div>') == LEAD  # no such state


# --- elements whose words are never drawn ------------------------------------------------


@pytest.mark.parametrize(
    "body",
    [
        '<svg id="quoted"><desc>Never drawn.</desc></svg>',
        '<svg><desc id="quoted">Never drawn.</desc></svg>',
        '<canvas id="quoted"><p>Never drawn.</p></canvas>',
        '<iframe id="quoted" src="/embedded">Never drawn.</iframe>',
        '<svg><text id="quoted" display="none">Never drawn.</text></svg>',
        '<svg><g visibility="hidden"><text id="quoted">Never drawn.</text></g></svg>',
        '<svg><defs><text id="quoted">Drawn only where used.</text></defs></svg>',
        '<svg><metadata id="quoted">Never drawn.</metadata></svg>',
    ],
    ids=["svg", "svg-desc", "canvas", "iframe", "display", "visibility", "defs", "metadata"],
)
def test_a_select_naming_words_never_drawn_reads_none_of_them(body: str) -> None:
    assert whole(body) == LEAD
    assert "Never drawn." not in selected(body)


def test_the_words_an_svg_draws_are_still_read_through_a_select() -> None:
    body = '<svg id="quoted"><title>A chart</title><text>99.9% of requests</text></svg>'
    assert selected(body) == "99.9% of requests"
    drawn = '<svg id="quoted"><text display="inline">Drawn.</text><text>Also.</text></svg>'
    assert selected(drawn) == "Drawn.\nAlso."
    hidden = '<svg id="quoted"><text display="none">Not.</text><text>Drawn.</text></svg>'
    assert selected(hidden) == "Drawn."
