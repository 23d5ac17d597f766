"""extract_text: the text a reader sees, content only, one line per block."""

from __future__ import annotations

import random
import re
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lxml import etree

from claimledger.errors import PageUnreadable
from claimledger.reading import extract as extract_module
from claimledger.reading.extract import compiled_selector, extract_text, narrow_lines, text_kind
from claimledger.reading.sections import html_headings


def html(body: str) -> str:
    return f"<!doctype html><html><head><title>T</title></head><body>{body}</body></html>"


def text_of(body: str, **kwargs: str) -> str:
    return extract_text(html(body), "text/html; charset=utf-8", **kwargs)


# --- content root -----------------------------------------------------------


@pytest.mark.parametrize(
    "container",
    [
        '<div class="sl-markdown-content">',
        '<article class="markdown-body entry-content">',
        '<div class="theme-doc-markdown markdown">',
        '<div class="md-content" data-md-component="content">',
        '<div class="body" role="main">',
        "<article>",
        '<div role="main">',
        "<main>",
    ],
)
def test_known_content_roots_win_over_the_rest_of_the_page(container: str) -> None:
    tag = container[1:].split()[0].rstrip(">")
    page = f'<div class="sidebar">Sidebar links</div>{container}<p>The content.</p></{tag}>'
    page += "<div>Related pages</div>"

    assert text_of(page) == "The content."


def test_docs_container_beats_main_and_article() -> None:
    page = (
        "<main><div class='breadcrumbs'>Docs / Agents</div><article>"
        "<div class='toc'>On this page</div>"
        "<div class='sl-markdown-content'><p>Body text.</p></div></article></main>"
    )
    assert text_of(page) == "Body text."


def test_class_match_is_by_whole_class_name() -> None:
    page = "<div class='md-content__button'>Edit</div><main><p>Main text.</p></main>"
    assert text_of(page) == "Main text."


def test_every_article_is_kept_in_order() -> None:
    page = "<nav>Menu</nav><article><p>Release 2.</p></article><article><p>Release 1.</p></article>"
    assert text_of(page) == "Release 2.\nRelease 1."


def test_body_is_the_fallback_root() -> None:
    assert text_of("<div><p>One.</p><p>Two.</p></div>") == "One.\nTwo."


@pytest.mark.parametrize("end", ["</body>", "</body></html>", "</HTML >"])
def test_words_after_the_end_of_the_body_are_read_as_a_browser_shows_them(end: str) -> None:
    """A browser shows what follows `</body>` or `</html>` at the body's end: it is read,
    never lost, so a quote standing there is not missing."""
    page = f"<!doctype html><html><body><p>One.</p>{end}<p>Two.</p>"
    assert extract_text(page, "text/html") == "One.\nTwo."


def test_an_empty_container_falls_back_to_the_next_kind() -> None:
    page = "<div class='markdown-body'></div><main><p>Rendered elsewhere.</p></main>"
    assert text_of(page) == "Rendered elsewhere."


def test_a_container_inside_boilerplate_is_not_the_root() -> None:
    page = "<nav><article><p>Teaser.</p></article></nav><main><p>Real text.</p></main>"
    assert text_of(page) == "Real text."


@pytest.mark.parametrize(
    "hidden",
    [
        "<article hidden><p>Old text.</p></article>",
        "<main style='display: none'><p>Old text.</p></main>",
        "<div class='markdown-body' aria-hidden='true'><p>Old text.</p></div>",
    ],
)
def test_a_hidden_container_is_not_the_root(hidden: str) -> None:
    """A content container no reader sees is not read as the page, nor does it hide the
    text the page shows."""
    page = f"{hidden}<div><p>Real text.</p></div>"
    assert text_of(page) == "Real text."


# --- the aside rule ---------------------------------------------------------


def test_aside_inside_the_content_root_is_kept() -> None:
    page = (
        "<aside class='toc'>On this page</aside><main><p>Before.</p>"
        "<aside class='starlight-aside'><p>Caution: a 30 second timeout.</p></aside>"
        "<p>After.</p></main>"
    )
    assert text_of(page) == "Before.\nCaution: a 30 second timeout.\nAfter."


def test_aside_is_dropped_when_the_body_is_the_root() -> None:
    assert text_of("<aside>Sidebar</aside><div><p>Text.</p></div>") == "Text."


# --- boilerplate and hidden elements ----------------------------------------


@pytest.mark.parametrize(
    "junk",
    [
        "<nav>Navigation</nav>",
        "<footer>Last updated 2026-11-29</footer>",
        "<script>var text = 'Script';</script>",
        "<style>p { color: red }</style>",
        "<noscript>Enable JavaScript</noscript>",
        "<template><p>Template</p></template>",
        "<svg><text>Vector</text></svg>",
        "<form><label>Search</label><input value='q'></form>",
        "<button>Copy</button>",
        "<p hidden>Hidden</p>",
        "<p aria-hidden='true'>Icon text</p>",
        "<p style='display: none'>Not displayed</p>",
        "<p style='visibility:hidden'>Invisible</p>",
        "<p style='visibility: collapse'>Collapsed</p>",
        "<video src='a.mp4'><p>Your browser cannot play this video.</p></video>",
        "<audio src='a.ogg'>Your browser cannot play this audio.</audio>",
        "<noframes>Your browser does not show frames.</noframes>",
        "<noembed>Your browser does not show embeds.</noembed>",
        "<math><semantics><annotation encoding='text/x-tex'>x</annotation></semantics></math>",
        "<div role='navigation'>Role nav</div>",
        "<a href='#content'>Skip to content</a>",
    ],
)
def test_boilerplate_is_dropped(junk: str) -> None:
    assert text_of(f"<main>{junk}<p>Kept.</p>{junk}</main>") == "Kept."


@pytest.mark.parametrize(
    "banner",
    [
        "<div class='cookie-notice'>We use cookies</div>",
        "<div id='consent-dialog'>Consent</div>",
        "<div class='site-banner'>Banner</div>",
        "<div class='js-cookie-banner fixed'>Accept all cookies?</div>",
        "<div id='onetrust-consent-sdk'><p>Privacy preference center</p></div>",
        "<div class='cc-window'>This website uses cookies</div>",
        "<div id='CybotCookiebotDialog'>Cookiebot</div>",
        "<section class='consent'>Manage consent</section>",
        "<div class='banner'>Try the new dashboard</div>",
    ],
)
def test_banners_are_dropped_outside_the_content_root(banner: str) -> None:
    assert text_of(f"{banner}<div><p>Kept.</p></div>{banner}") == "Kept."


COOKIE_DOCS = (
    "<section id='cookie-attributes'><h2>Cookie attributes</h2>"
    "<p>The Secure attribute sends the cookie over HTTPS only.</p></section>"
    "<div class='cookie-example consent'><p>Set-Cookie: id=a3fWa; Max-Age=2592000</p></div>"
)
COOKIE_TEXT = (
    "Cookie attributes\nThe Secure attribute sends the cookie over HTTPS only.\n"
    "Set-Cookie: id=a3fWa; Max-Age=2592000"
)


def test_banner_names_inside_the_content_root_are_content() -> None:
    assert text_of(f"<main>{COOKIE_DOCS}</main>") == COOKIE_TEXT


def test_banner_names_inside_a_select_are_content() -> None:
    page = html(f"<div id='docs'>{COOKIE_DOCS}</div><div class='cookie-banner'>Accept?</div>")
    assert extract_text(page, "text/html", select="#docs") == COOKIE_TEXT
    assert extract_text(page, "text/html", select="#cookie-attributes") == (
        "Cookie attributes\nThe Secure attribute sends the cookie over HTTPS only."
    )


def test_only_whole_banner_names_are_dropped_when_the_body_is_the_root() -> None:
    page = (
        "<div class='cookie-banner'>Accept?</div><section id='cookie-attributes'>"
        "<p>Cookies carry attributes.</p></section><div class='bannerless consent-log'>"
        "<p>Consent is logged.</p></div>"
    )
    assert text_of(page) == "Cookies carry attributes.\nConsent is logged."


def test_a_content_root_inside_a_cookie_banner_is_not_the_root() -> None:
    page = (
        "<div id='cookie-consent'><article><p>We use cookies.</p></article></div>"
        "<article><p>Real text.</p></article>"
    )
    assert text_of(page) == "Real text."


def test_tails_of_dropped_elements_stay() -> None:
    assert text_of("<main><p>Press <button>Copy</button> then paste.</p></main>") == (
        "Press then paste."
    )


@pytest.mark.parametrize(
    ("struck", "expected"),
    [
        ("<p><del>Deleted objects can be restored within 14 days.</del></p>", "Intro."),
        (
            "<p>Restored within <del>14</del><ins>7</ins> days.</p>",
            "Intro.\nRestored within 7 days.",
        ),
        ("<p>Writes are <s>not</s> acknowledged.</p>", "Intro.\nWrites are acknowledged."),
        ("<p><strike>Uploads are retried.</strike> Uploads fail.</p>", "Intro.\nUploads fail."),
    ],
)
def test_struck_out_words_are_not_the_pages_words(struck: str, expected: str) -> None:
    """`<del>`, `<s>` and `<strike>` are words the page says no longer hold: a quote
    found only there is not on the page, and what replaced them is read in their place."""
    assert text_of(f"<main><p>Intro.</p>{struck}</main>") == expected


def test_a_cookie_class_on_body_does_not_drop_the_page() -> None:
    page = "<html><body class='cookie-consent-given'><p>Page text.</p></body></html>"
    assert extract_text(page, "text/html") == "Page text."


def test_boilerplate_changes_do_not_change_the_text() -> None:
    content = "<main><p>State is colocated wherever the Agent is running.</p></main>"
    old = (
        f"<nav>Home | Docs</nav><div class='cookie-bar'>Accept?</div>{content}<footer>2025</footer>"
    )
    new = f"<nav>Home | Docs | Blog</nav>{content}<footer>Last updated 2026-11-29</footer>"

    assert text_of(old) == text_of(new) == "State is colocated wherever the Agent is running."


# --- lines, inline joins, tables, pre, sup ----------------------------------


def test_inline_elements_join_without_invented_spaces() -> None:
    page = "<main><p>Read <code>this.state</code>.score or <em>un</em>changed <b>bold</b> text.</p>"
    assert text_of(page) == "Read this.state.score or unchanged bold text."


def test_a_nul_in_the_page_is_left_out_of_its_words() -> None:
    """A browser's parser leaves a NUL out of the text it shows; libxml2 made it a U+FFFD
    inside the words, and a quote a reader sees whole read as reworded."""
    page = "<p>Writes are\x00 durable.</p>\x00<pre>a\x00b</pre>"
    assert text_of(page) == "Writes are durable.\nab"


def test_blocks_and_br_break_lines_and_whitespace_collapses() -> None:
    page = "<main><h2>Title</h2><p>One\n   two\tthree<br>four</p><div>five</div>six</main>"
    assert text_of(page) == "Title\nOne two three\nfour\nfive\nsix"


def test_nbsp_is_kept_for_the_matcher() -> None:
    assert text_of("<main><p>a&nbsp;b</p></main>") == "a\u00a0b"


def test_list_items_each_on_their_own_line() -> None:
    page = (
        "<main><ul><li>Persistent</li><li><p>Synchronized</p></li></ul><ol><li>One</li></ol></main>"
    )
    assert text_of(page) == "Persistent\nSynchronized\nOne"


def test_table_rows_are_cells_joined_by_pipes() -> None:
    page = (
        "<main><table><caption>State API</caption>"
        "<thead><tr><th>Method</th><th>Signature</th><th>Description</th></tr></thead>"
        "<tbody><tr><td><code>setState</code></td><td><code>(state: State) =&gt; void</code></td>"
        "<td><p>Update state,</p><p>persist, and broadcast</p></td></tr></tbody></table></main>"
    )
    assert text_of(page) == (
        "State API\nMethod | Signature | Description\n"
        "setState | (state: State) => void | Update state, persist, and broadcast"
    )


def test_pre_keeps_its_lines_and_indentation() -> None:
    page = "<main><pre><code>if (x) {\n  y();\n}\n</code></pre><p>After.</p></main>"
    assert text_of(page) == "if (x) {\n  y();\n}\nAfter."


def test_pre_with_a_block_per_line() -> None:
    page = "<main><pre><div>const a = 1;</div><div>const b = 2;</div></pre></main>"
    assert text_of(page) == "const a = 1;\nconst b = 2;"


def test_sup_renders_with_a_caret() -> None:
    assert text_of("<main><p>10<sup>2</sup> requests</p></main>") == "10^2 requests"


def test_blank_line_runs_collapse() -> None:
    page = "<main><pre>a\n\n\n\nb</pre></main>"
    assert text_of(page) == "a\n\nb"


# --- select -----------------------------------------------------------------

SELECT_PAGE = html(
    "<div id='intro' class='content lead'><p>Intro.</p></div>"
    "<section class='api'><h2>API</h2><div class='content'><p>Method table.</p></div></section>"
    "<section class='api deprecated'><div class='content' data-v='old'><p>Old API.</p></div>"
    "</section>"
    "<nav class='content'><p>Menu.</p></nav>"
)


@pytest.mark.parametrize(
    ("select", "expected"),
    [
        ("#intro", "Intro."),
        (".lead", "Intro."),
        ("section.api > .content", "Method table.\nOld API."),
        ("section .content[data-v='old']", "Old API."),
        ("[data-v^=ol]", "Old API."),
        ("#intro, section h2", "Intro.\nAPI"),
        ("h2 + div", "Method table."),
        ("section:not(.deprecated) .content", "Method table."),
        ("section:nth-of-type(2) p", "Old API."),
        ("nav", "Menu."),
        ("div:not(.lead)", "Method table.\nOld API."),
    ],
)
def test_select_overrides_the_content_root(select: str, expected: str) -> None:
    assert extract_text(SELECT_PAGE, "text/html", select=select) == expected


def test_select_matching_nothing_is_an_error() -> None:
    with pytest.raises(PageUnreadable, match="matched nothing"):
        extract_text(SELECT_PAGE, "text/html", select="main article")


HIDDEN_SELECT_PAGE = """<html><body><main><p>Shown words.</p>
<div style="display: none"><div class="q"><p>Hidden by style.</p></div></div>
<div hidden><p class="h">Hidden by attribute.</p></div>
<template><p class="t">In a template.</p></template>
<p class="d"><del>Struck out.</del></p>
<div role="tabpanel" hidden><p class="tab">A tab not shown yet.</p></div>
<footer><p class="f">Footer words.</p></footer>
</main></body></html>"""


@pytest.mark.parametrize(
    ("select", "expected"),
    [
        ("p", "Shown words.\nA tab not shown yet.\nFooter words."),
        ("main", "Shown words.\nA tab not shown yet."),  # a footer inside is boilerplate
        (".tab", "A tab not shown yet."),  # one click away: a reader reads it
        ("footer", "Footer words."),  # named by the source: a reader sees a footer
        (".q, .f", "Footer words."),
    ],
)
def test_select_reads_only_what_a_reader_sees(select: str, expected: str) -> None:
    assert extract_text(HIDDEN_SELECT_PAGE, "text/html", select=select) == expected


@pytest.mark.parametrize("hidden", ['style="visibility:hidden"', 'style="display: none"', "hidden"])
def test_select_reads_a_page_its_script_reveals_as_the_page_read_whole_is(hidden: str) -> None:
    """A page that hides its body until its script shows it (against a flash of unstyled
    content) was read whole, and unreadable through any selector."""
    page = f"<html><body {hidden}><main><article><p>The budget was approved.</p></article>"
    page += "</main></body></html>"
    assert extract_text(page, "text/html", select="article") == "The budget was approved."
    assert extract_text(page, "text/html") == "The budget was approved."


def test_select_leaves_out_a_closed_dialog_and_reads_an_open_one() -> None:
    page = "<html><body><main><p>Shown.</p><dialog><p class=x>Closed words.</p></dialog>"
    page += "<dialog open><p class=y>Open words.</p></dialog></main></body></html>"
    with pytest.raises(PageUnreadable, match="matched only text no reader sees"):
        extract_text(page, "text/html", select=".x")
    assert extract_text(page, "text/html", select=".y") == "Open words."


@pytest.mark.parametrize("select", [".q", ".q p", ".h", "div[style] p", ".t", ".d del"])
def test_select_naming_only_hidden_text_is_an_error(select: str) -> None:
    with pytest.raises(PageUnreadable, match="matched only text no reader sees"):
        extract_text(HIDDEN_SELECT_PAGE, "text/html", select=select)


@pytest.mark.parametrize("select", ["div[", "..x", "a >> b", "p:unknown-pseudo"])
def test_invalid_select_is_an_error(select: str) -> None:
    message = f"select {select!r} is not a valid CSS selector"
    with pytest.raises(PageUnreadable, match=re.escape(message)):
        extract_text(SELECT_PAGE, "text/html", select=select)
    with pytest.raises(PageUnreadable, match=re.escape(message)):
        compiled_selector(select)


def test_page_unreadable_is_a_value_error() -> None:
    assert issubclass(PageUnreadable, ValueError)
    assert not hasattr(extract_module, "ExtractError")


# --- other content types, odd input -----------------------------------------


def test_plain_text_passes_through_with_newlines_normalised() -> None:
    body = "line one\r\nline  two\rline three\n<p>not html</p>"
    assert extract_text(body, "text/plain") == "line one\nline  two\nline three\n<p>not html</p>"


def test_json_and_source_pass_through() -> None:
    assert extract_text('{"a": "<b>x</b>"}', "application/json") == '{"a": "<b>x</b>"}'
    assert extract_text("// a\nconst b = 1;", "application/javascript") == "// a\nconst b = 1;"


def test_html_without_a_content_type_is_sniffed() -> None:
    assert extract_text("<!DOCTYPE html><p>Hi.</p>", "") == "Hi."
    assert extract_text("just text", "") == "just text"


def test_xhtml_with_an_xml_declaration() -> None:
    body = "<?xml version='1.0' encoding='utf-8'?><html><body><p>Caf\u00e9.</p></body></html>"
    assert extract_text(body, "application/xhtml+xml") == "Caf\u00e9."


def test_empty_and_whitespace_pages_give_empty_text() -> None:
    assert extract_text("", "text/html") == ""
    assert extract_text("  \n ", "text/html") == ""


@pytest.mark.parametrize(
    "garbage",
    [
        "<<<>>><</p>&&&;<div",
        "\x00\x01\x02<p>\udcff</p>",
        "</html></body><p>after end</p>",
        "<table><td>cell<tr>row</table></td>",
    ],
)
def test_garbage_html_does_not_crash(garbage: str) -> None:
    assert isinstance(extract_text(garbage, "text/html"), str)


@pytest.mark.parametrize(
    ("select", "why"),
    [
        ("ns|p", "Undefined namespace prefix"),
        ("svg|*", "Undefined namespace prefix"),
        ("p[a='\x01']", "All strings must be XML compatible"),
        ("p[a='\\1']", "All strings must be XML compatible"),
        ("\ufffe", "All strings must be XML compatible"),
    ],
)
def test_a_select_that_parses_but_cannot_be_applied_is_an_error(select: str, why: str) -> None:
    """A namespace prefix names none, a control character (or its CSS escape) is no XML:
    lxml raised its own errors as the selector ran, an internal error from `verify`."""
    message = f"select {select!r} cannot be applied: {why}"
    with pytest.raises(PageUnreadable, match=re.escape(message)):
        extract_text(SELECT_PAGE, "text/html", select=select)


def test_a_select_with_contains_reads_page_after_page() -> None:
    """lxml 6.2 fails on an XPath holding its CSS functions once it is applied to a
    second document; the selector is compiled for each page."""
    pages = [SELECT_PAGE.replace("Method table.", f"Method table {n}.") for n in range(4)]
    read = [extract_text(page, "text/html", select="div:contains('method')") for page in pages]
    assert [text.splitlines()[0] for text in read] == [f"Method table {n}." for n in range(4)]


def test_lone_surrogates_do_not_crash_a_select() -> None:
    page = "<div><p>ok\udcff</p></div>"
    assert extract_text(page, "text/html", select="div:first-child") == "ok?"


def test_deep_nesting_keeps_its_text() -> None:
    assert "deep" in extract_text("<div>" * 1500 + "deep", "text/html")


@pytest.mark.parametrize(
    "page",
    [
        "<div>" * 5000 + "deep" + "</div>" * 10,
        "<html><body>" + "<div>" * 5000 + "<p>Deep text.</p></body></html>",
        "<main>" + "<span>" * 3000 + "Deep text." + "</span>" * 3000 + "</main>",
        "<main><p>Before.</p>" + "<div>" * 2500 + "<p>After.</p></main>",
    ],
    ids=["unclosed", "body", "main", "text-before-the-depth"],
)
def test_a_page_nested_too_deeply_to_read_is_an_error_not_an_empty_page(page: str) -> None:
    with pytest.raises(PageUnreadable, match="could not be extracted"):
        extract_text(page, "text/html")


@pytest.mark.parametrize(
    "page",
    [
        "<html><body></body></html>",
        "<html><head><title>Title only</title></head><body></body></html>",
        "<html><body><nav>Home</nav><footer>Foot</footer><script>a = 1;</script></body></html>",
        "<html><body><p hidden>Not shown.</p><!-- a comment --></body></html>",
        "<html><body><div><span>&nbsp;</span></div>\n</body></html>",
        "<!doctype html><body class='cookie-consent-given'><div id='root'></div></body>",
    ],
    ids=["empty-body", "title-only", "boilerplate-only", "hidden-only", "spaces", "spa-shell"],
)
def test_a_page_with_no_readable_text_is_empty(page: str) -> None:
    assert extract_text(page, "text/html") == ""


def test_extract_has_a_verdict_version() -> None:
    assert isinstance(extract_module.VERSION, int)
    assert extract_module.VERSION >= 1


# --- narrow_lines and text_kind ---------------------------------------------


def test_narrow_lines_is_one_based_and_inclusive() -> None:
    text = "l1\r\nl2\nl3\nl4\nl5"
    assert narrow_lines(text, 2, 4) == "l2\nl3\nl4"
    assert narrow_lines(text, 5, 5) == "l5"
    assert narrow_lines(text, 4, 40) == "l4\nl5"
    assert narrow_lines(text, 9, 12) == ""


@pytest.mark.parametrize(("first", "last"), [(0, 3), (5, 4), (-1, 2)])
def test_narrow_lines_rejects_bad_ranges(first: int, last: int) -> None:
    with pytest.raises(PageUnreadable, match="line range"):
        narrow_lines("a\nb", first, last)


@pytest.mark.parametrize(
    ("content_type", "path", "kind"),
    [
        (
            "text/plain; charset=utf-8",
            "https://x.test/cloudflare/agents/raw/main/src/index.ts",
            "code",
        ),
        ("text/plain", "worker/handlers.py", "code"),
        ("application/javascript", "", "code"),
        ("text/x-python", "", "code"),
        ("text/plain", "docs/agents/state.md", "markdown"),
        ("text/markdown", "", "markdown"),
        ("text/x-markdown", "", "markdown"),
        ("text/plain", "CHANGELOG", "text"),
        ("application/json", "data.json", "text"),
        ("text/html", "https://developers.cloudflare.com/agents/", "text"),
    ],
)
def test_text_kind(content_type: str, path: str, kind: str) -> None:
    assert text_kind(content_type, path) == kind


def test_a_header_is_the_sites_outside_the_content_and_the_pages_inside() -> None:
    """Docusaurus and others put the page's title in a <header> inside the article."""
    page = (
        "<body><header>Site header</header><main><header><h1>Durable writes</h1></header>"
        "<p>Kept.</p></main></body>"
    )
    assert text_of(page) == "Durable writes\nKept."


def test_a_tab_not_shown_yet_is_read_but_hidden_furniture_is_not() -> None:
    page = (
        "<main><div role='tabpanel'><p>npm install x</p></div>"
        "<div role='tabpanel' hidden><p>pnpm add x</p></div>"
        "<div hidden><p>Hidden furniture</p></div></main>"
    )
    assert text_of(page) == "npm install x\npnpm add x"


def test_heading_permalinks_and_footnote_marks_are_not_words() -> None:
    page = (
        "<main><h2>Worker shutdown<a class='headerlink' href='#worker-shutdown'>¶</a></h2>"
        "<h2>Timeouts<a href='#timeouts' class='anchor'>#</a></h2>"
        "<p>Writes are durable<sup><a href='#fn1' id='fnref1'>1</a></sup>.</p>"
        "<p>Footnote one.<a href='#fnref1' class='footnote-backref'>↩</a></p></main>"
    )
    assert text_of(page) == "Worker shutdown\nTimeouts\nWrites are durable.\nFootnote one."


def test_an_empty_table_cell_adds_no_separator() -> None:
    """GitHub's code view: an empty line-number cell (the number is drawn by CSS)."""
    page = (
        "<main><table><tr><td class='blob-num' data-line-number='1'></td>"
        "<td class='blob-code'>// Open creates and opens a database.</td></tr></table></main>"
    )
    assert text_of(page) == "// Open creates and opens a database."


@settings(max_examples=800, deadline=None)
@given(st.text(alphabet=st.sampled_from(" \t\n\r\f\v\xa0\u2009ab."), max_size=40))
def test_a_line_needing_no_collapse_is_told_apart_without_changing_a_letter(line: str) -> None:
    """The quick test for single spaces gives exactly what the substitution gives, a
    no-break or thin space kept as the page wrote it."""
    assert extract_module._collapsed(line) == re.sub(r"[ \t\n\r\f\v]+", " ", line).strip()


def test_the_built_in_content_roots_need_no_css_compiler() -> None:
    """`article` and `main` are found as cssselect would find them, without loading it: a
    one-off `verify` of a page should not pay for compiling CSS nobody wrote."""
    probe = (
        "import sys\n"
        "from claimledger.reading.extract import extract_text\n"
        "page = '<body><nav>Menu</nav><main><p>Kept.</p></main><article>Too.</article></body>'\n"
        "print(repr(extract_text(page, 'text/html')), 'cssselect' in sys.modules)"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.split() == ["'Too.'", "False"]


# --------------------------------------------------------------------------- deep pages


def _tree(seed: int) -> tuple[etree._Element, list[etree._Element]]:
    """A random page of nested elements, some of them content roots, with its elements."""
    rng = random.Random(seed)
    root = etree.Element("html")
    elements = [root]
    for _ in range(rng.randint(1, 120)):
        parent = rng.choice(elements)
        tag = rng.choice(["div", "article", "main", "aside", "section", "nav"])
        elements.append(etree.SubElement(parent, tag))
    return root, elements


@pytest.mark.parametrize("seed", range(30))
def test_under_any_is_any_ancestor_marked(seed: int) -> None:
    """Each ancestor is judged once for all the elements (a thousand nested roots once
    cost the square of their depth); the answer is still whether any ancestor is marked."""
    _, elements = _tree(seed)
    marked = {el for el in elements if el.tag in ("aside", "article")}
    asked = elements[::2]

    found = extract_module._under_any(asked, marked.__contains__)

    assert found == [any(a in marked for a in el.iterancestors()) for el in asked]


def test_nested_content_roots_read_as_their_outermost() -> None:
    depth = 1_900
    page = "<html><body>" + "<article>w " * depth + "</article>" * depth + "</body></html>"
    assert extract_text(page, "text/html").split() == ["w"] * depth


def test_a_heading_inside_a_heading_is_a_heading_of_its_own() -> None:
    """No valid page nests headings, but the parser keeps them nested: each is read as
    its own words, the outer one's without the inner one's (a thousand nested once each
    joined all the text below it)."""
    page = "<h1>Intro <a href='#x'>to <code>x</code></a> tail</h1><h2>B<h3>inner</h3> after</h2>"
    assert html_headings(page) == [
        (1, "Intro to x tail"),
        (2, "B after"),
        (3, "inner"),
    ]


@given(
    st.lists(
        st.sampled_from(
            ["w ", "<b>", "</b>", "<a href='#a'>", "</a>", "<code>", "</code>", "<em>x</em>"]
        ),
        max_size=30,
    )
)
@settings(max_examples=150, deadline=None)
def test_a_headings_words_are_its_text(parts: list[str]) -> None:
    """Without a heading inside it, a heading's words are all of its text, as lxml's
    itertext gives them."""
    page = "<html><body><h2>" + "".join(parts) + "</h2></body></html>"
    root = etree.fromstring(page.encode(), etree.HTMLParser())
    (heading,) = root.iter("h2")
    expected = " ".join("".join(t for t in heading.itertext() if isinstance(t, str)).split())
    found = html_headings(page)
    assert found == ([(2, expected)] if expected else [])


def test_a_sup_of_many_links_is_no_footnote_mark() -> None:
    """A footnote mark's `<sup>` holds a link or a few: one whose first eight links are
    none is read as text (each of a thousand nested `<sup>`s once read every link below)."""
    links = "".join(f'<a href="/p{n}">p{n}</a> ' for n in range(8))
    page = f'<main><p>See<sup>{links}<a href="#fn1">1</a></sup> here.</p></main>'
    assert "p7" in extract_text(page, "text/html")
    assert "1" not in extract_text(
        '<main><p>See<sup><a href="#fn1">1</a></sup> here.</p></main>', "text/html"
    )
