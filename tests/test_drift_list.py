"""The drift list the GitHub Action posts (the job summary, the drift issue's body),
rendered by GitHub's own Markdown parser (cmark-gfm, with its autolink extension and
raw HTML kept, as GitHub keeps what its sanitizer allows): nothing that came from a page,
a redirect's Location or a cloned ledger becomes a link, an image, HTML or a mention.
"""

from __future__ import annotations

import re
from typing import Any

import cmarkgfm
import pytest
from cmarkgfm.cmark import Options
from lxml import html as lxml_html

from claimledger.report.ci_formats import drift_list, gfm_block, gfm_code, gfm_url

RUN = "https://github.com/owner/repo/actions/runs/7"

HOSTILE = [
    '<img src=x onerror="alert(1)">',
    "<a href='https://evil.example'>click</a>",
    "[click](https://evil.example/phish) ![pixel](https://evil.example/p.png)",
    "@octocat and @github/security, me@evil.example",
    "https://evil.example/x and www.evil.example and http://evil.example",
    "``` and ```` and `code` and ~~~",
    "<!-- a comment --> <details open><summary>x</summary>y</details>",
    "line one\nline two\r\n# a heading\n- a list\n> a quote",
    "*emphasis* _under_ **strong** | a | table |",
    "&lt;entity&gt; &#x40;octocat",
]


def on_github(markdown: str) -> Any:
    """The HTML GitHub's parser makes of `markdown` (raw HTML kept), as a tree."""
    rendered = cmarkgfm.github_flavored_markdown_to_html(markdown, options=Options.CMARK_OPT_UNSAFE)
    return lxml_html.fragment_fromstring(rendered, create_parent="div")


def untrusted_entries(text: str) -> list[dict[str, Any]]:
    return [
        {
            "claim_id": "replicas",
            "status": "drifted",
            "meaning_changed": True,
            "url": f"https://docs.example/a?{text}",
            "quote_text": text,
            "current": f"now {text}",
        }
    ]


def sources_of(text: str) -> list[dict[str, Any]]:
    return [
        {
            "url": f"https://docs.example/b{text}",
            "source_status": "moved",
            "http_status": 301,
            "moved_to": f"https://evil.example/{text}",
        },
        {"url": "https://docs.example/c", "source_status": "gone", "http_status": "<b>404</b>"},
    ]


def text_outside_code(tree: Any) -> str:
    """What a reader sees outside code spans and blocks (where GitHub links and mentions)."""
    parts = []
    for node in tree.iter():
        inside = node.tag in ("code", "pre") or any(
            a.tag in ("code", "pre") for a in node.iterancestors()
        )
        if not inside:
            parts.append(node.text or "")
        if not any(a.tag in ("code", "pre") for a in node.iterancestors()):
            parts.append(node.tail or "")
    return " ".join(parts)


@pytest.mark.parametrize("text", HOSTILE)
def test_no_link_image_html_or_mention_comes_from_untrusted_text(text: str) -> None:
    markdown, count, _ = drift_list(
        "ledger/claims.yaml", untrusted_entries(text), sources_of(text), RUN
    )
    tree = on_github(markdown)

    assert count == 3
    assert [a.get("href") for a in tree.iter("a")] == [RUN]  # the run, and nothing else
    tags = {node.tag for node in tree.iter()}
    assert tags <= {"div", "p", "ul", "li", "code", "pre", "a"}, tags
    outside = text_outside_code(tree)
    assert not re.search(r"@\w", outside), outside  # a mention only inside code
    assert "evil.example" not in outside and "octocat" not in outside
    items = tree.findall(".//li")
    assert len(items) == 3 and all(item.find(".//code") is not None for item in items)


def test_the_wording_is_shown_whole_on_its_lines() -> None:
    text = "We ``never`` lose a write.\nNot even <one>."
    markdown, _, _ = drift_list("claims.yaml", untrusted_entries(text), [], RUN)
    (block,) = on_github(markdown).iter("pre")
    assert block.text_content() == (
        f"was: We ``never`` lose a write. Not even <one>.\nnow: now {' '.join(text.split())}\n"
    )


def test_a_moved_address_is_shown_percent_encoded_in_a_code_span() -> None:
    location = "https://evil.example/a b<img src=x>`x`"
    moved = {"url": "https://docs.example/b", "source_status": "moved", "moved_to": location}
    markdown, _, _ = drift_list("claims.yaml", [], [moved], RUN)
    codes = [code.text for code in on_github(markdown).iter("code")]
    assert "https://evil.example/a%20b%3Cimg%20src=x%3E%60x%60" in codes


def test_gfm_helpers_hold_any_text_literally() -> None:
    assert gfm_code("a `b` c") == "``a `b` c``"
    assert gfm_code("`x`") == "`` `x` ``"
    assert gfm_url("javascript:alert(1)") == "`(not an http(s) URL)`"
    assert gfm_url("https://user:pw@docs.example/?token=s3cr3t") == (
        "`https://docs.example/?token=REDACTED`"
    )
    assert gfm_block(["a ```` b"], indent="  ") == ["  `````text", "  a ```` b", "  `````"]


def test_a_page_gone_by_a_redirect_to_a_landing_page_is_said_so_not_http_200() -> None:
    """The job summary and the drift issue said "gone (HTTP 200)", which reads as a page
    that is there; the report says why it is gone."""
    gone = {"url": "https://docs.example.com/a", "source_status": "gone", "http_status": 200}
    text, _, _ = drift_list("claims.yaml", [], [gone], "https://github.com/o/r/actions/runs/1")
    assert "gone (redirected for good to a page without its quotes)" in text
    assert "HTTP 200" not in text
