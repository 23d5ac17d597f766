"""Small promises about what the tool writes: permissions, links and secrets."""

from __future__ import annotations

import os
from pathlib import Path

import lxml.html
import markdown
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from markdown_it import MarkdownIt

from claimledger.grading.artifact import run_artifact
from claimledger.ledger.atomicfile import replace_atomically
from claimledger.ledger.model import Artifact
from claimledger.report.markup import author_html, author_markdown
from claimledger.urls import has_secrets, redact_urls, safe_url


def test_a_new_file_follows_the_umask_and_a_replaced_one_keeps_its_mode(tmp_path: Path) -> None:
    old = os.umask(0o077)
    try:
        replace_atomically(tmp_path / "new.md", b"x")
    finally:
        os.umask(old)
    assert (tmp_path / "new.md").stat().st_mode & 0o777 == 0o600
    kept = tmp_path / "kept.md"
    kept.write_bytes(b"x")
    kept.chmod(0o640)
    replace_atomically(kept, b"y")
    assert kept.stat().st_mode & 0o777 == 0o640 and kept.read_bytes() == b"y"


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0, reason="needs root")
def test_a_replaced_file_keeps_its_owner_and_group(tmp_path: Path) -> None:
    """Root writing a user's ledger or report (`sudo`, a container on a mounted checkout)
    left the file root's, and its user could no longer write it."""
    kept = tmp_path / "claims.yaml"
    kept.write_bytes(b"x")
    kept.chmod(0o664)
    os.chown(kept, 65534, 65534)
    replace_atomically(kept, b"y")
    status = kept.stat()
    assert (status.st_uid, status.st_gid, status.st_mode & 0o777) == (65534, 65534, 0o664)
    assert kept.read_bytes() == b"y"


def test_an_author_link_with_parentheses_keeps_its_destination() -> None:
    link = "[p](https://en.wikipedia.org/wiki/Consistency_(database_systems))"
    rendered = MarkdownIt("commonmark").render(author_markdown(link))
    assert 'href="https://en.wikipedia.org/wiki/Consistency_(database_systems)"' in rendered


# --------------------------------------------------------------------------- the author's Markdown

PIECES = [
    "`", "``", "```", "~~~", "\\", "*", "_", "**", "[", "]", "(", ")", "](", "]: ", "<", ">",
    "&", "&lt;", "#", "- ", "1. ", "> ", "    ", "\n", "\n\n", " ", "word", "!", "@",
    "<img src=x onerror=alert(1)>", "<script>alert(1)</script>", "<a href='javascript:x'>",
    "[x](javascript:alert(1))", "[y]: javascript:alert(2)", "[ok](https://ok.example/)",
    "![i](https://tracker.example/pixel.png)", "<https://a.example/?token=s3cr3t>",
    "[t](https://me:pw@x.example/?api_key=k)", "javascript:", "data:text/html,x", "\x1b[31m",
    "<!-- c -->", "<div>", "</div>", '"', "'", "=", "onerror", "|", "---",
]  # fmt: skip
AUTHOR_TEXT = st.lists(st.sampled_from(PIECES), max_size=40).map("".join)
ALLOWED_TAGS = {
    "p", "em", "strong", "code", "pre", "a", "ul", "ol", "li", "blockquote", "hr", "br",
    "h1", "h2", "h3", "h4", "h5", "h6",
}  # fmt: skip
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
RAW_HTML_RENDERER = MarkdownIt("commonmark", {"html": True})
"""A renderer that lets raw HTML through, as GitHub's does before it sanitises."""


def python_markdown(text: str) -> str:
    """Python-Markdown with MkDocs' own extensions, as MkDocs renders a report: raw HTML
    through, and `\\<` no escape."""
    return markdown.markdown(text, extensions=["fenced_code", "tables", "toc"])


def assert_only_markup_the_author_could_write(html: str) -> None:
    """Every element is one Markdown makes, every link goes to http(s) or an anchor, no
    attribute but href (an ordered list's start, a code fence's language), no secret shown."""
    root = lxml.html.fragment_fromstring(html or "<p></p>", create_parent="div")
    for element in root.iter():
        if element is root or not isinstance(element.tag, str):
            continue
        assert element.tag in ALLOWED_TAGS, (element.tag, html)
        allowed = {"a": {"href"}, "ol": {"start"}, "code": {"class"}}.get(element.tag, set())
        if element.tag in HEADINGS:
            allowed = {"id"}  # the anchor MkDocs' table of contents gives a heading
        assert set(element.attrib) <= allowed, (element.tag, dict(element.attrib), html)
        assert element.get("class", "language-").startswith("language-"), html  # a fence's info
        href = element.get("href")
        if href is not None:
            assert href == "" or href.startswith(("https://", "http://", "#")), html  # "": itself
    assert "s3cr3t" not in html and "pw@" not in html and "=k" not in html, html


@settings(max_examples=400, deadline=None)
@given(AUTHOR_TEXT)
def test_the_authors_markdown_never_becomes_markup_they_did_not_write(text: str) -> None:
    assert_only_markup_the_author_could_write(RAW_HTML_RENDERER.render(author_markdown(text)))
    assert_only_markup_the_author_could_write(python_markdown(author_markdown(text)))
    assert_only_markup_the_author_could_write(str(author_html(text)))


@pytest.mark.parametrize(
    "text",
    [
        "``<img src=x onerror=alert(1)>",
        "``[x](javascript:alert(1))",
        "`` `<img src=x onerror=alert(1)>` ``",
        "[ref][evil]\n\n[evil]: javascript:alert('ref')",
        "<https://a.example/?token=s3cr3t> and https://b.example/?secret=s3cr3t",
        "|\n|",  # no table to CommonMark, one to Python-Markdown's tables
    ],
)
def test_known_escapes_of_the_old_escaper_stay_closed(text: str) -> None:
    assert_only_markup_the_author_could_write(RAW_HTML_RENDERER.render(author_markdown(text)))
    assert_only_markup_the_author_could_write(python_markdown(author_markdown(text)))
    assert_only_markup_the_author_could_write(str(author_html(text)))


@pytest.mark.parametrize(
    "html",
    ["<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "<svg onload=alert(3)>"],
)
def test_raw_html_in_the_authors_markdown_stays_text_in_python_markdown(html: str) -> None:
    """`\\<` is an escape in CommonMark only: MkDocs' renderer kept the backslash and read
    the tag after it."""
    written = author_markdown(f"About {html} it.")
    assert "&lt;" in written
    assert_only_markup_the_author_could_write(python_markdown(written))


def test_secrets_in_a_query_or_a_fragment_are_redacted() -> None:
    assert (
        safe_url("https://x.example/a?token=s3cr3t&q=1") == "https://x.example/a?token=REDACTED&q=1"
    )
    assert (
        safe_url("https://x.example/cb#access_token=abc")
        == "https://x.example/cb#access_token=REDACTED"
    )
    assert safe_url("https://me:pw@x.example/") == "https://x.example/"
    assert has_secrets("https://x.example/a?token=1") and not has_secrets("https://x.example/a?q=1")
    for name in ("jwt", "pass", "sid", "hmac", "code", "otp"):
        assert safe_url(f"https://x.example/a?{name}=s3cr3t") == (
            f"https://x.example/a?{name}=REDACTED"
        ), name
    assert safe_url("https://x.example/a?page=2&sort=new") == "https://x.example/a?page=2&sort=new"


def test_a_secret_in_an_address_without_a_scheme_is_redacted_as_in_one_with() -> None:
    """An intro or `about` holding `www.example.org/?api_key=…` showed the key in every
    format (GitHub links such an address), while `https://…?api_key=…` was redacted."""
    said = "see www.example.org/p?api_key=s3cr3t&q=1 or WWW.example.org/#access_token=abc."
    assert redact_urls(said) == (
        "see www.example.org/p?api_key=REDACTED&q=1 or www.example.org/#access_token=REDACTED"
    )
    for plain in ("www.example.org/?q=1", "a.www.example.org/a", "mail me@www.example.org"):
        assert redact_urls(plain) == plain
    for broken, kept in [
        ("https://h.example:99999/?api_key=abc123", "https://h.example:99999/?api_key=REDACTED"),
        ("//h.example:99999/?token=abc1", "//h.example:99999/?token=REDACTED"),
        (
            "https://h.example:99999/x#access_token=abcdef",
            "https://h.example:99999/x#access_token=REDACTED",
        ),
        ("https://u:p@ss@h.example:99999/x", "https://h.example:99999/x"),
    ]:
        assert redact_urls(f"see {broken} now") == f"see {kept} now"
    relative = "a link to //www.example.org/?api_key=abc123 or // a comment, or a/b//c"
    assert redact_urls(relative) == (
        "a link to //www.example.org/?api_key=REDACTED or // a comment, or a/b//c"
    )


def test_a_command_the_shell_cannot_find_is_no_evidence(tmp_path: Path) -> None:
    outcome = run_artifact(
        "toy", Artifact(run="no-such-tool-claimledger-xyz", expect="", shell=True), tmp_path
    )
    assert not outcome.ran and not outcome.matched
    direct = run_artifact(
        "toy", Artifact(run=("no-such-tool-claimledger-xyz",), expect=""), tmp_path
    )
    assert not direct.ran
