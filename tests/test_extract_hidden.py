"""extract_text leaves out text a reader of the page is not shown, and keeps all they are:
the page read whole and through a source's `select` alike."""

from __future__ import annotations

import json

import pytest

from claimledger.errors import PageUnreadable
from claimledger.reading.extract import extract_text
from cli_runner import claimledger
from webserver import PageServer

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
        '<svg><g opacity="0"><text id="quoted">Never drawn.</text></g></svg>',
        '<svg><g fill="none"><text id="quoted">Never drawn.</text></g></svg>',
    ],
    ids=[
        "svg", "svg-desc", "canvas", "iframe", "display", "visibility", "defs", "metadata",
        "opacity", "fill",
    ],
)  # fmt: skip
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


@pytest.mark.parametrize(
    "undrawn",
    [
        '<text opacity="0">Never drawn.</text>',
        '<text opacity="0%">Never drawn.</text>',
        '<text opacity="-0.5">Never drawn.</text>',  # a browser clamps it to 0
        '<text style="opacity: 0">Never drawn.</text>',
        '<g opacity="0"><text>Never drawn.</text><text opacity="1">Never drawn.</text></g>',
        '<text fill="none">Never drawn.</text>',
        '<text fill="none" stroke="none">Never drawn.</text>',
        '<text style="fill: none">Never drawn.</text>',
        '<text fill="transparent">Never drawn.</text>',
        '<text fill-opacity="0">Never drawn.</text>',
        '<g fill="none"><text>Never drawn.<tspan>Never drawn.</tspan></text></g>',
        '<g fill-opacity="0"><text fill="black">Never drawn.</text></g>',
        '<text fill="red" style="fill: none">Never drawn.</text>',  # the style wins
        '<text style="fill: none;' + " a: b;" * 1000 + '">Never drawn.</text>',  # too long
    ],
)
def test_the_words_an_svg_draws_invisibly_are_not_read_through_a_select(undrawn: str) -> None:
    """Text of opacity 0, or with no fill and no stroke, is drawn as nothing."""
    body = f'<svg id="quoted">{undrawn}<text>Drawn.</text></svg>'
    assert selected(body) == "Drawn."


@pytest.mark.parametrize(
    "drawn",
    [
        '<text opacity="0.5">Drawn.</text>',
        '<text fill="none" stroke="black">Drawn.</text>',
        '<text fill-opacity="0" style="stroke: #000">Drawn.</text>',
        '<g fill="none"><text fill="black">Drawn.</text></g>',
        '<g fill-opacity="0"><text fill-opacity="1">Drawn.</text></g>',
        '<g fill="none"><text fill="inherit" style="fill: initial">Drawn.</text></g>',
        '<text fill="none" style="fill: black">Drawn.</text>',
        '<foreignObject fill="none"><p>Drawn.</p></foreignObject>',  # HTML, drawn as a page
    ],
)
def test_the_words_an_svg_paints_are_read_through_a_select(drawn: str) -> None:
    assert selected(f'<svg id="quoted">{drawn}</svg>') == "Drawn."


def test_verify_with_a_select_reads_the_words_an_svg_paints_and_none_it_draws_invisibly(
    page_server: PageServer,
) -> None:
    drawn = "Throughput peaks at 40,000 writes a second."
    invisible = "Latency stays under a millisecond at every load."
    chart = (
        f'<svg id="chart"><text>{drawn}</text><g opacity="0"><text>{invisible}</text></g>'
        f'<text fill="none">{invisible}</text></svg>'
    )
    page_server.set_page("/chart", html(chart))
    url = page_server.url("/chart")

    found = claimledger("verify", "--allow-private", "--select", "#chart", url, drawn, "--json")
    assert json.loads(found.stdout)["status"] == "verified"
    unseen = claimledger(
        "verify", "--allow-private", "--select", "#chart", url, invisible, "--json", code=1
    )
    assert json.loads(unseen.stdout)["status"] == "missing"


# --- visibility: inherited, and set again inside ------------------------------------------

SHOWN = "Shown text."
HIDDEN_AROUND = (
    '<div id="around" style="visibility:hidden">Hidden own words.'
    '<p id="quoted" style="visibility:{inside}">{words}</p><p>Hidden sibling.</p>Hidden tail.'
    "</div>"
)


@pytest.mark.parametrize("inside", ["visible", "VISIBLE !important", "initial"])
def test_words_visible_inside_a_hidden_element_are_read_and_its_own_are_not(
    inside: str,
) -> None:
    """A browser draws them: `visibility` is inherited, and an element may set it again."""
    body = HIDDEN_AROUND.format(inside=inside, words=SHOWN)
    assert whole(body) == f"{LEAD}\n{SHOWN}"
    assert selected(body) == SHOWN
    around = extract_text(html(body), "text/html", select="#around")
    assert around == SHOWN


@pytest.mark.parametrize("inside", ["collapse", "hidden", "inherit", "unset", "visible visible"])
def test_words_inside_a_hidden_element_that_do_not_say_visible_stay_unread(inside: str) -> None:
    body = HIDDEN_AROUND.format(inside=inside, words="Never shown.")
    assert whole(body) == LEAD
    with pytest.raises(PageUnreadable, match="matched only text no reader sees"):
        extract_text(html(body), "text/html", select="#around")


@pytest.mark.parametrize(
    "around",
    [
        '<div hidden="hidden">{}</div>',
        '<div style="display: none">{}</div>',
        '<div style="display: none; visibility: visible">{}</div>',
        '<div style="content-visibility: hidden">{}</div>',
        '<div style="visibility: hidden;' + " a: b;" * 1000 + '">{}</div>',  # read as hiding
    ],
    ids=["hidden-attribute", "display-none", "display-none-visible", "content", "long-style"],
)
def test_no_element_inside_undoes_what_hides_all_it_holds(around: str) -> None:
    body = around.format('<p id="quoted" style="visibility: visible">Never shown.</p>')
    assert whole(body) == LEAD
    assert selected(body) == ""


def test_a_style_too_long_to_read_shows_nothing_its_element_inherits_hidden() -> None:
    """A style over the length read is taken to hide, if it may, and to show nothing."""
    long_visible = "visibility: visible;" + " a: b;" * 1000
    body = HIDDEN_AROUND.format(inside=long_visible, words="Never shown.")
    assert whole(body) == LEAD


def test_a_hidden_row_is_no_line_unless_a_cell_in_it_is_shown() -> None:
    table = (
        '<table><tr style="visibility:hidden"><td>Hidden row.</td></tr><tr><td>Shown row.</td>'
        '</tr><tr style="visibility:hidden"><td>Hidden cell.</td>'
        '<td style="visibility:visible">Shown cell.</td></tr></table><p>After.</p>'
    )
    assert whole(table) == f"{LEAD}\nShown row.\nShown cell.\nAfter."
    marks = '<div style="visibility:hidden"><pre>code</pre><p>x<sup>2</sup></p></div><p>After.</p>'
    assert whole(marks) == f"{LEAD}\nAfter."  # no line of a hidden `<pre>`, no "^" of a `<sup>`


def test_a_hidden_block_keeps_its_place_between_the_words_around_it() -> None:
    """Hidden, a block still breaks the line (a browser lays it out, unseen); left out
    (`display: none`) it does not."""
    body = '<div>Before<p style="visibility:hidden">Unseen.</p>after</div>'
    assert whole(body) == f"{LEAD}\nBefore\nafter"
    assert whole(body.replace("visibility:hidden", "display:none")) == f"{LEAD}\nBeforeafter"


def test_a_tab_panel_hidden_by_visibility_is_read_as_one_hidden_otherwise_is() -> None:
    body = '<div role="tabpanel" id="quoted" style="visibility:hidden"><p>A tab.</p></div>'
    assert whole(body) == f"{LEAD}\nA tab."
    assert selected(body) == "A tab."


def test_a_drawing_visible_inside_a_hidden_group_is_read() -> None:
    """An SVG's `visibility` attribute is inherited, and set again, as the style is."""
    body = (
        '<svg id="quoted"><g visibility="hidden"><text>Not drawn.</text>'
        '<text visibility="visible">Drawn.</text>'
        '<text style="visibility:hidden" visibility="visible">Styled hidden.</text></g></svg>'
    )
    assert selected(body) == "Drawn."


def test_a_page_hidden_until_its_script_shows_it_is_read_with_its_visible_words() -> None:
    """`<body style="visibility:hidden">` (against a flash of unstyled content) is read as
    shown, and so are the words in it."""
    page = (
        '<html><body style="visibility:hidden"><main><p>Page words.</p>'
        '<div style="visibility:hidden"><p>Unseen.</p></div></main></body></html>'
    )
    assert extract_text(page, "text/html") == "Page words."


def test_verify_finds_a_quote_visible_inside_a_hidden_element_and_not_its_hidden_sibling(
    page_server: PageServer,
) -> None:
    quote = "Every write is fsynced before the call returns."
    sibling = "Reads are served from any replica without a quorum."
    body = (
        f'<div style="visibility: hidden"><p>{sibling}</p>'
        f'<p style="visibility: visible">{quote}</p></div>'
    )
    page_server.set_page("/doc", html(body))
    url = page_server.url("/doc")

    shown = json.loads(claimledger("verify", "--allow-private", url, quote, "--json").stdout)
    assert (shown["status"], shown["match"]) == ("verified", "exact")
    unseen = claimledger("verify", "--allow-private", url, sibling, "--json", code=1)
    assert json.loads(unseen.stdout)["status"] == "missing"


@pytest.mark.parametrize(
    "region",
    [
        '<article style="visibility:hidden"><p style="visibility:visible">{}</p></article>',
        '<div style="visibility:hidden"><article><p style="visibility:visible">{}</p></article>'
        "</div>",
    ],
    ids=["hidden-article", "article-in-hidden"],
)
def test_an_article_whose_own_words_are_hidden_is_no_content_root(region: str) -> None:
    """Read as the content root, it left out the page's shown words around it."""
    body = region.format(SHOWN) + "<p>After.</p>"
    assert whole(body) == f"{LEAD}\n{SHOWN}\nAfter."


def test_an_article_hidden_beside_a_shown_one_keeps_its_visible_words() -> None:
    body = (
        "<article><p>One.</p></article>"
        f'<article style="visibility:hidden"><p style="visibility:visible">{SHOWN}</p></article>'
    )
    assert whole(body) == f"One.\n{SHOWN}"


def test_verify_finds_the_page_words_beside_a_hidden_article_with_visible_words(
    page_server: PageServer,
) -> None:
    body = (
        '<article style="visibility:hidden"><p>Draft notes.</p>'
        f'<p style="visibility:visible">{SHOWN}</p></article>'
    )
    page_server.set_page("/doc", html(body))
    found = claimledger("verify", "--allow-private", page_server.url("/doc"), LEAD, "--json")
    assert json.loads(found.stdout)["status"] == "verified"


def test_styles_that_cannot_turn_what_an_element_inherits_are_not_parsed() -> None:
    """Each distinct style parsed cost a page of 60,000 of them seconds: one that names no
    word turning the visibility an element inherits (`hidden` where it is visible,
    `visible` where it is hidden) is read without parsing, and the text is the same."""
    from claimledger.reading.inlinestyle import style_declared

    spans = "".join(f'<i style="display:inline-block;width:{n}px">w{n} </i>' for n in range(50))
    shown = "".join(f'<span style="visibility:visible;left:{n}px">v{n} </span>' for n in range(50))
    hidden = "".join(f'<b style="visibility:inherit;top:{n}px">h{n}</b>' for n in range(50))
    body = f'<p>{spans}{shown}</p><div style="visibility:hidden">{hidden}</div>'
    style_declared.cache_clear()
    text = whole(body)
    assert text.startswith(f"{LEAD}\nw0 w1 ") and text.endswith("v48 v49")
    assert "h0" not in text
    assert style_declared.cache_info().currsize == 1  # the hidden `<div>`'s own style
