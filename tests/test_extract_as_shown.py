"""extract_text reads what a browser shows: an element `hidden` that its style gives a box,
words running on in a line through elements a browser lays out inline (an SVG's `<tspan>`,
a custom element, one no browser knows), an SVG's words only where a `<text>` draws them
in a paint that shows, and a superscript's mark where its words are shown.

Each expected text is what Chromium shows of the same markup: its `innerText` (the reader
writes a superscript's raised words after a "^"), and for paint, whether it draws any
pixel. Those checks run where Playwright and a Chromium are installed, and are skipped,
with the reason, where not; the reader's own checks run everywhere."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import TYPE_CHECKING

import pytest

from claimledger.errors import PageUnreadable
from claimledger.reading.extract import extract_text
from claimledger.web.browser import chromium_path, sandboxed
from cli_runner import claimledger
from webserver import PageServer

if TYPE_CHECKING:
    from playwright.sync_api import Page

LEAD = "The page's own words."


def page(body: str) -> str:
    return (
        "<!doctype html><html><head><title>T</title></head>"
        f'<body><main><p>{LEAD}</p><div id="quoted">{body}</div></main></body></html>'
    )


def whole(body: str) -> str:
    return extract_text(page(body), "text/html; charset=utf-8")


def selected(body: str, select: str = "#quoted") -> str:
    """The text of what `select` names, "" where the reader says no reader sees any of it."""
    try:
        return extract_text(page(body), "text/html; charset=utf-8", select=select)
    except PageUnreadable:
        return ""


END, NEXT = "Retries stop at the end of the list", "Next the queue drains"


def apart(tag: str, first: str, second: str) -> tuple[str, str]:
    """END and NEXT in two `tag`s styled `first` and `second`, run together in the markup;
    and the two lines a browser shows of them, each laid out as a block."""
    return (
        f'<{tag} style="{first}">{END}</{tag}><{tag} style="{second}">{NEXT}</{tag}>',
        f"{END}\n{NEXT}",
    )


UNKNOWN_DISPLAYS = (
    '<b hidden style="display:-ms-flexbox">x</b><b hidden style="display: run-in">y</b>'
)
"""Elements hidden, whose style names a `display` no browser in use knows: they stay hidden."""
IN_THE_LINE = (
    '<div style="display:inline">10</div><div style="display:contents">00</div>'
    '<li style="display:inline">'
)
SHOWN_SUP = '<sup style="{}"><span style="visibility:visible">6</span></sup>'

ON_A_PAGE = {
    "hidden-display-block": ('<div hidden style="display:block">Quote here.</div>', "Quote here."),
    "hidden-display-inline": ('<p>A<b hidden style="display: inline">x</b>B</p>', "AxB"),
    "hidden-display-contents": ('<p>A<b hidden style="display:contents">x</b>B</p>', "AxB"),
    "hidden-display-revert": ('<p>A<b hidden style="display:revert">x</b>B</p>', "AxB"),
    "hidden-display-revert-layer": ('<p>A<b hidden style="display:revert-layer">x</b>B</p>', "AB"),
    "hidden": ("<p>A<b hidden>x</b>B</p>", "AB"),
    "hidden-none-last": ('<p>A<b hidden style="display:flex;display:none">x</b>B</p>', "AB"),
    "hidden-content-hidden": ('<p hidden style="display:flex;content-visibility:hidden">x</p>', ""),
    "tspan": ("<p>Up to <tspan>64</tspan> MiB</p>", "Up to 64 MiB"),
    "custom-element": ("<p>Set <my-knob>retries</my-knob> to <x-n>3</x-n></p>", "Set retries to 3"),
    "unknown-element": ("<p>Limit: <foo>10</foo><bar>00</bar> rows</p>", "Limit: 1000 rows"),
    "output": ("<p>Total: <output>42</output> items</p>", "Total: 42 items"),
    "sup": ("<p>10<sup>6</sup> requests</p>", "10^6 requests"),
    "sup-display-none": (f"<p>10{SHOWN_SUP.format('display:none')} requests</p>", "10 requests"),
    "sup-hidden": (f"<p>10{SHOWN_SUP.format('visibility:hidden')} requests</p>", "10^6 requests"),
    "sup-hidden-pre": (f"<pre>10{SHOWN_SUP.format('visibility:hidden')} rows</pre>", "10^6 rows"),
    "sup-space-hidden": ('<p>10<sup> <i style="visibility:hidden">6</i></sup>rows</p>', "10 rows"),
    "span-display-block": apart("span", "display:block", "display: flex"),
    "custom-display-block": apart("my-card", "display:block", "display:block"),
    "custom-display-list-item": apart("x-li", "display:list-item", "display:table"),
    "span-display-escaped": apart("i", "DISPLAY:\\62 lock", "display:-webkit-box"),
    "hidden-block-inline-tag": ('<p>A<b hidden style="display:block">x</b>B</p>', "A\nx\nB"),
    "hidden-display-unknown": (f"<p>A{UNKNOWN_DISPLAYS}B</p>", "AB"),
    "none-then-display-unknown": ('<p>A<b style="display:none;display:-moz-box">x</b>B</p>', "AB"),
    "div-display-inline": (f"<p>Limit:</p>{IN_THE_LINE} rows</li>", "Limit:\n1000 rows"),
    "pre-span-display-block": ('<pre>a<span style="display:block">b</span>c</pre>', "a\nb\nc"),
    "meter": ('<p>Used:<meter value="0.6">60%</meter> 6 GiB</p>', "Used: 6 GiB"),
    "progress": ('<p>Done:<progress max="10">70%</progress> 7 of 10</p>', "Done: 7 of 10"),
    "datalist": ("<p>Pick a size<datalist>small, large</datalist>.</p>", "Pick a size."),
    "ruby-brackets": ("<p><ruby>漢<rp>(</rp><rt>kan</rt><rp>)</rp></ruby>字</p>", "漢kan字"),
}  # fmt: skip
"""Markup on a page, and the text a reader is shown of it."""

IN_A_DRAWING = {
    "svg-group": ("<svg><g>Loose words.</g><text>Drawn.</text></svg>", "Drawn."),
    "svg-root": ("<svg>Loose words.<text>Drawn.</text></svg>", "Drawn."),
    "svg-link": ("<svg><a>Loose words.</a><a><text>Drawn.</text></a></svg>", "Drawn."),
    "svg-tspan": ("<svg><text>Up to <tspan>64</tspan> MiB</text></svg>", "Up to 64 MiB"),
    "svg-text-path": ("<svg><text>On <textPath>a path</textPath>.</text></svg>", "On a path."),
    "svg-group-in-text": ("<svg><text>A<g>Not drawn.</g>B<text>Nor.</text>C</text></svg>", "ABC"),
    "svg-foreign-object": ("<svg><foreignObject><p>Drawn.</p></foreignObject>No.</svg>", "Drawn."),
}  # fmt: skip
"""Markup of a drawing (which the page read whole leaves out), and the words it draws."""


def lines(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


@pytest.mark.parametrize(("body", "shown"), ON_A_PAGE.values(), ids=ON_A_PAGE.keys())
def test_the_page_reads_as_a_browser_shows_it(body: str, shown: str) -> None:
    assert whole(body) == f"{LEAD}\n{shown}".strip()
    assert selected(body) == shown


@pytest.mark.parametrize(("body", "drawn"), IN_A_DRAWING.values(), ids=IN_A_DRAWING.keys())
def test_a_drawing_reads_only_the_words_its_text_draws(body: str, drawn: str) -> None:
    assert selected(body, "#quoted > svg") == drawn
    assert whole(body) == LEAD  # a drawing is no part of the page read whole


def test_an_element_laid_out_as_a_block_still_breaks_the_line() -> None:
    body = "<p>One<div>Two</div><li>Three</li><h2>Four</h2><my-card><p>Five</p></my-card></p>"
    assert selected(body) == "One\nTwo\nThree\nFour\nFive"


def test_a_block_made_a_box_in_the_line_keeps_its_words_apart() -> None:
    """innerText runs `<div style="display:inline-block">`s together, whose boxes set their
    words apart on the page; a line broken costs a quote across it nothing."""
    body = apart("div", "display:inline-block", "display: inline flex")[0]
    assert selected(body) == f"{END}\n{NEXT}"


LABEL = (
    '<svg width="600" height="90"><text x="0" y="20">'
    f'<tspan x="0" dy="1.2em">{END}</tspan><tspan x="0" dy="1.2em">{NEXT}</tspan>'
    '<tspan dy="4">,</tspan><tspan> in order</tspan></text></svg>'
)
"""A drawing's label of two lines, each a `<tspan>` set at a place of its own (as drawing
tools write one), and words run on after the second."""


def test_a_tspan_set_at_a_place_of_its_own_starts_a_line() -> None:
    assert selected(LABEL, "#quoted > svg") == f"{END}\n{NEXT}, in order"


def test_verify_finds_a_quote_in_an_element_hidden_that_its_style_shows(
    page_server: PageServer,
) -> None:
    quote = "Snapshots are kept for thirty days."
    unseen = "Every node in the cluster votes on each write."
    body = f'<div hidden style="display: block">{quote}</div><div hidden>{unseen}</div>'
    page_server.set_page("/doc", page(body))
    url = page_server.url("/doc")

    found = json.loads(claimledger("verify", "--allow-private", url, quote, "--json").stdout)
    assert (found["status"], found["match"]) == ("verified", "exact")
    hidden = claimledger("verify", "--allow-private", url, unseen, "--json", code=1)
    assert json.loads(hidden.stdout)["status"] == "missing"


def test_verify_finds_a_quote_that_ends_where_an_element_styled_a_block_does(
    page_server: PageServer,
) -> None:
    """The next block's first word, run on to the quote's last, read the quote `missing`."""
    body, _ = apart("docs-note", "display:block", "display:block")
    page_server.set_page("/doc", page(body))
    url = page_server.url("/doc")

    for quote in (END, NEXT):
        found = json.loads(claimledger("verify", "--allow-private", url, quote, "--json").stdout)
        assert (found["status"], found["match"]) == ("verified", "exact")


# --- paint: a drawing's words in a colour that shows nothing ------------------------------


def text(attributes: str) -> str:
    return f'<text x="5" y="40" {attributes}>Words</text>'


UNPAINTED = {
    "rgba": text('fill="rgba(0,0,0,0)"'),
    "hex4": text('fill="#0000"'),
    "hex8": text('fill="#00000000"'),
    "hsl": text('fill="hsl(0 0% 0% / 0)"'),
    "style-rgb": text('style="fill: rgb(0 0 0 / 0%)"'),
    "stroke-opacity": text('fill="none" stroke="black" stroke-opacity="0"'),
    "style-stroke-opacity": text('fill="none" stroke="black" style="stroke-opacity: 0%"'),
    "stroke-rgba": text('fill="none" stroke="rgba(0,0,0,0)"'),
    "stroke-width": text('fill="none" stroke="black" stroke-width="0"'),
    "group-stroke-opacity": '<g stroke-opacity="0">' + text('fill="none" stroke="black"') + "</g>",
    "group-paint": '<g fill="#0000" stroke="black" stroke-width="0px">'
    + text('stroke-opacity="1"')
    + "</g>",
}
PAINTED = {
    "plain": text(""),
    "stroke-opacity-filled": text('stroke-opacity="0"'),  # filled black
    "half": text('fill="rgba(0,0,0,0.5)"'),
    "stroke": text('fill="none" stroke="black"'),
    "stroke-width": text('fill="none" stroke="black" stroke-width="0.5"'),
    "stroke-opacity-again": '<g stroke-opacity="0">'
    + text('fill="none" stroke="black" stroke-opacity="1"')
    + "</g>",
    "stroke-width-again": '<g stroke-width="0">'
    + text('fill="#0000" stroke="black" stroke-width="1"')
    + "</g>",
}


@pytest.mark.parametrize("drawing", UNPAINTED.values(), ids=UNPAINTED.keys())
def test_words_in_a_paint_that_shows_nothing_are_not_read(drawing: str) -> None:
    assert selected(f"<svg>{drawing}<text>Drawn.</text></svg>", "svg") == "Drawn."


@pytest.mark.parametrize("drawing", PAINTED.values(), ids=PAINTED.keys())
def test_words_in_a_paint_that_shows_are_read(drawing: str) -> None:
    assert selected(f"<svg>{drawing}</svg>", "svg") == "Words"


# --- what Chromium shows ----------------------------------------------------------------


@pytest.fixture(scope="module")
def chromium() -> Iterator[Page]:
    sync_api = pytest.importorskip("playwright.sync_api", reason="Playwright is not installed")
    executable = chromium_path()
    if executable is None:
        pytest.skip("no Chromium on PATH (Debian's `chromium` package)")
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable, chromium_sandbox=sandboxed()
        )
        yield browser.new_context(offline=True).new_page()
        browser.close()


def inner_text(tab: Page, body: str) -> str:
    tab.set_content(page(body))
    return str(tab.evaluate("document.getElementById('quoted').innerText"))


PIXELS_DRAWN = """async (svg) => {
  const image = new Image();
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(svg);
  await image.decode();
  const canvas = document.createElement("canvas");
  canvas.width = 300; canvas.height = 60;
  const context = canvas.getContext("2d");
  context.fillStyle = "#fff"; context.fillRect(0, 0, 300, 60); context.drawImage(image, 0, 0);
  const data = context.getImageData(0, 0, 300, 60).data;
  let drawn = 0;
  for (let i = 0; i < data.length; i += 4) {
    if (Math.min(data[i], data[i + 1], data[i + 2]) < 250) drawn++;
  }
  return drawn;
}"""


def pixels_drawn(tab: Page, drawing: str) -> int:
    svg = (
        '<svg xmlns="http://www.w3.org/2000/svg" width="300" height="60" font-size="30">'
        f"{drawing}</svg>"
    )
    tab.set_content("<!doctype html><html><body></body></html>")
    return int(tab.evaluate(PIXELS_DRAWN, svg))


@pytest.mark.parametrize(
    ("body", "shown"), (ON_A_PAGE | IN_A_DRAWING).values(), ids=(ON_A_PAGE | IN_A_DRAWING).keys()
)
def test_chromium_shows_what_the_reader_reads(chromium: Page, body: str, shown: str) -> None:
    assert lines(inner_text(chromium, body)) == lines(shown.replace("^", ""))


def test_chromium_draws_nothing_of_the_words_the_reader_leaves_out(chromium: Page) -> None:
    unpainted = {name: pixels_drawn(chromium, drawing) for name, drawing in UNPAINTED.items()}
    assert unpainted == dict.fromkeys(UNPAINTED, 0)
    painted = {name: pixels_drawn(chromium, drawing) for name, drawing in PAINTED.items()}
    assert all(painted.values()), painted


def test_chromium_sets_a_tspan_at_a_place_of_its_own_on_a_line_below(chromium: Page) -> None:
    """innerText runs a drawing's words on whatever their place; where each is drawn shows
    the label's lines."""
    chromium.set_content(page(LABEL))
    last, first = chromium.evaluate(
        """(at) => {
          const text = document.querySelector("#quoted text");
          return [text.getEndPositionOfChar(at - 1).y, text.getStartPositionOfChar(at).y];
        }""",
        len(END),
    )
    assert first > last
