"""The report's shortcuts say exactly what the long way says.

Rendering a big report once took seconds in a few small functions called hundreds of
thousands of times; each now has a shortcut for the usual case. These tests hold each
shortcut to the long way it stands for, on generated text full of the characters that
matter, and the sandbox's remembered answers to the sandbox's own.
"""

from __future__ import annotations

import datetime as dt
import json
import urllib.parse
from typing import Any

import jinja2
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from claimledger import urls
from claimledger.ledger import yamledit
from claimledger.ledger.vocabulary import Grade
from claimledger.ledger.yamledit import FlowMap
from claimledger.report import jsontext, markup
from claimledger.report.bidi import bidi_marked
from claimledger.report.jsontext import indented_json
from claimledger.report.markup import MarkdownText, _percent_encoded, md_escape
from claimledger.report.model import weakest
from claimledger.report.templates import Templates, templates_loader

PIECES = [
    *"aAwW.:#-+=1 \t\n\r\v\f@_*x<>&()[]`|~$\\/,'\"",
    *("\u2028", "\u2029", "\x85", "\x00", "\x7f", "\x9f", "é", "❤", "\U0001f600"),
    *("http", "HTTPS", "mailto", "XMPP", "www", "WwW", "ftp", "s:", "xhttp:", "12.", "3)"),
]
texts = st.lists(st.sampled_from(PIECES), max_size=12).map("".join)


def md_escape_the_long_way(text: Any) -> str:
    escaped = markup.one_line("" if text is None else str(text)).translate(markup._MD_ESCAPES)
    escaped = markup._WWW_DOT.sub(r"\1\\.", markup._SCHEME_COLON.sub(r"\1\\:", escaped))
    escaped = markup._EMAIL_AT.sub("&#x2060;\\\\@", escaped)
    return markup._LEADING_MARKER.sub(markup._escape_leading, escaped, count=1)


@settings(max_examples=1000, deadline=None)
@given(texts)
def test_md_escape_says_what_the_long_way_says(text: str) -> None:
    assert md_escape(text) == md_escape_the_long_way(text)


@settings(max_examples=1000, deadline=None)
@given(st.one_of(texts, st.text()))
def test_without_controls_says_what_the_long_way_says(text: str) -> None:
    long_way = bidi_marked(markup._OTHER_BREAK.sub("\n", markup._CONTROL.sub("", text)))
    assert markup.without_controls(text) == long_way


@settings(max_examples=800, deadline=None)
@given(st.one_of(texts, st.text()))
def test_a_quote_is_percent_encoded_as_urllib_does(text: str) -> None:
    assert _percent_encoded(text) == urllib.parse.quote(text, safe="")


URL_PIECES = [
    *("https://", "http://", "HTTPS://", "user:pw@", "[::1]", "docs.example", ":8080", ":99999"),
    *("/a", "/b c", "/%41", "/é", "?q=1", "?token=s3cret", "&api_key=x", "&x=", ";p", "'", '"'),
    *("<", ">", "`", "|", "\\", "{", "}", "^", "!", "$", "*", "+", ",", "=", "~", "_", ".."),
]
pages = st.lists(st.sampled_from(URL_PIECES), min_size=1, max_size=8).map("".join)


@settings(max_examples=1000, deadline=None)
@given(pages, st.one_of(texts, st.text(max_size=40)))
def test_a_quote_link_is_made_safe_as_the_whole_link_would_be(page: str, quote: str) -> None:
    """`md_url` works out a page's safe form once for all its quotes: the link it gives is
    `safe_url` of the whole link, whatever the page's address and the quote hold."""
    link = markup.text_fragment_link(page, quote)
    assert markup.md_url(link) == (urls.safe_url(link) or "")


@settings(max_examples=800, deadline=None)
@given(st.one_of(texts, st.text(max_size=60)))
@example("##[")  # a runner's mark: the JSON in the HTML report left it as written
def test_json_for_html_escapes_as_one_translation_per_kind_did(text: str) -> None:
    data = {"quote": text, "list": [text, 1]}
    whole = json.dumps(data, indent=2, ensure_ascii=False)
    by_kind = runner_marks_escaped(
        whole.translate({ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"})
        .translate({0x2028: "\\u2028", 0x2029: "\\u2029"})
        .translate(jsontext.TERMINAL_CONTROLS)
    )
    assert markup.json_for_html(data) == by_kind + "\n"
    assert json.loads(markup.json_for_html(data)) == data
    assert jsontext.without_terminal_controls(whole) == runner_marks_escaped(
        whole.translate(jsontext.TERMINAL_CONTROLS)
    )


def runner_marks_escaped(json_text: str) -> str:
    """A CI runner's command marks (`##[`, `##vso[`) with their first `#` as `\\u0023`."""
    for mark in ("##[", "##vso["):
        json_text = json_text.replace(mark, "\\u0023" + mark[1:])
    return json_text


@settings(max_examples=500, deadline=None)
@given(st.lists(st.dictionaries(st.text(max_size=8), st.one_of(texts, st.integers())), max_size=4))
def test_json_for_html_an_item_at_a_time_is_json_for_html_of_the_list(
    items: list[dict[str, Any]],
) -> None:
    assert "".join(markup.json_for_html_pieces(iter(items))) == markup.json_for_html(items)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*(str(g) for g in Grade), *Grade]), min_size=1))
def test_weakest_is_the_weakest_grade(grades: list[str]) -> None:
    expected = str(min((Grade(g) for g in grades), key=lambda grade: grade.strength))
    assert weakest(grades) == expected
    assert type(weakest(iter(grades))) is str


def test_weakest_still_refuses_what_is_no_grade() -> None:
    with pytest.raises(ValueError, match="MAYBE"):
        weakest(["CLAIMED", "MAYBE"])


def json_values(numbers: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """Data as a report hands it to JSON: strings (a str subclass too), numbers, constants,
    lists, tuples and dicts, nested."""
    scalars = st.one_of(
        st.none(), st.booleans(), numbers, texts, st.text(), st.builds(MarkdownText, texts)
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=4).map(tuple),
            st.dictionaries(st.one_of(texts, st.text(max_size=8)), inner, max_size=4),
        ),
        max_leaves=20,
    )


WHOLE = st.integers(min_value=-(2**63), max_value=2**64 - 1)


@settings(max_examples=400, deadline=None)
@given(json_values(WHOLE))
def test_indented_json_is_what_json_dumps_writes(value: Any) -> None:
    assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)


@settings(max_examples=500, deadline=None)
@given(json_values(st.floats(allow_nan=False, allow_infinity=False)))
def test_indented_json_writes_the_same_numbers(value: Any) -> None:
    """A float's exponent may be written shorter (`1e-7`), never another number."""
    assert json.loads(indented_json(value)) == json.loads(json.dumps(value))


def test_what_orjson_does_not_take_is_written_by_json() -> None:
    looped: list[Any] = []
    looped.append(looped)
    for value in ({1: "an int key", None: "none"}, [2**70, -(2**70)]):
        assert indented_json(value) == json.dumps(value, indent=2, ensure_ascii=False)
    with pytest.raises(ValueError, match="Circular"):
        indented_json(looped)


# --------------------------------------------------------------------------- templates


def test_a_template_is_told_to_read_what_it_names_and_what_it_brings_in(
    tmp_path: Any,
) -> None:
    (tmp_path / "plain.md.j2").write_text("{{ report }}\n", "utf-8")
    (tmp_path / "named.md.j2").write_text("{{ claimreview|length }}\n", "utf-8")
    (tmp_path / "includer.md.j2").write_text('{% include "named.md.j2" %}\n', "utf-8")
    (tmp_path / "dynamic.md.j2").write_text("{% include report ~ '.j2' %}\n", "utf-8")
    (tmp_path / "broken.md.j2").write_text('{% if %}{% include "named.md.j2" %}\n', "utf-8")
    templates = Templates(jinja2.FileSystemLoader(str(tmp_path)))
    assert not templates.reads("plain.md.j2", "claimreview")
    assert templates.reads("named.md.j2", "claimreview")
    assert templates.reads("includer.md.j2", "claimreview")
    assert templates.reads("dynamic.md.j2", "claimreview")  # cannot be told: yes
    assert templates.reads("broken.md.j2", "claimreview")  # the render will say why
    assert templates.reads("missing.md.j2", "claimreview")
    bundled = Templates(templates_loader(None))
    assert not bundled.reads("report.md.j2", "claimreview")
    assert bundled.reads("report.html.j2", "claimreview")


class Holder:
    mro = "an attribute like any other"


def test_the_sandbox_remembers_by_type_and_still_refuses_what_it_refuses() -> None:
    templates = Templates(jinja2.DictLoader({"t.md.j2": "{{ thing.mro }}"}))
    assert templates.render("t.md.j2", thing=Holder()) == "an attribute like any other\n"
    with pytest.raises(Exception, match="mro"):  # a class's mro is not for templates
        templates.render("t.md.j2", thing=Holder)
    assert templates.render("t.md.j2", thing=Holder()) == "an attribute like any other\n"


def test_a_format_string_is_still_refused_its_attributes_once_format_was_read() -> None:
    """Attributes the sandbox found safe are read without asking again, but a method is
    handed out the long way: `str.format` reaching for `__class__` is refused every time."""
    templates = Templates(
        jinja2.DictLoader(
            {
                "plain.md.j2": "{{ pattern.format(thing) }}",
                "reach.md.j2": "{{ reach.format(thing) }}",
            }
        )
    )
    for _ in range(2):
        assert templates.render("plain.md.j2", pattern="{0.mro}", thing=Holder()) == (
            "an attribute like any other\n"
        )
        with pytest.raises(Exception, match=r"__class__|unsafe|access"):
            templates.render("reach.md.j2", reach="{0.__class__}", thing=Holder())


# --------------------------------------------------------------------------- yaml dumps


def test_history_entries_alike_are_dumped_once_and_told_apart_by_kind() -> None:
    entry = {"date": dt.date(2026, 12, 1), "on": "x", "by": "rule:quotes", "why": "gone"}
    values: list[Any] = [
        FlowMap(entry),
        entry,
        {"a": True},
        {"a": 1},
        {"a": 1.0},
        {"a": 0.0},
        {"a": -0.0},
        {"a": "2026-12-01"},
        {"a": dt.date(2026, 12, 1)},
        {"a": None},
        {"a": "line one\nline two"},
        {"history": [FlowMap(entry)]},
        {"history": [entry]},
    ]
    for _ in range(2):  # the second time, from what the first remembered
        for value in values:
            for flow in (True, False):
                assert yamledit._dumped(value, flow=flow) == yamledit._dump(value, flow=flow)
    assert yamledit._dumped(values[11], flow=False) != yamledit._dumped(values[12], flow=False)
