"""Independence means a different publisher: by default a source's publisher is its
registrable domain (the Public Suffix List the package ships), and the author sets it,
with its title and kind, from the command line."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
import yaml

from claimledger.errors import InputError
from claimledger.ledger.edits import source_fields
from claimledger.sites import other_publisher, publisher_of
from cli_runner import Cli
from webserver import PageServer, redirect


@pytest.mark.parametrize(
    ("url", "publisher"),
    [
        ("https://docs.example.com/guide", "example.com"),
        ("https://example.com/blog/post", "example.com"),
        ("https://www.example.co.uk/a", "example.co.uk"),
        ("https://vendor.github.io/docs", "github.com/vendor"),
        ("https://Vendor.GitLab.io/handbook/", "gitlab.com/vendor"),
        ("https://github.io/", "github.io"),
        ("https://github.com/Vendor/project/blob/main/README.md", "github.com/vendor"),
        ("https://github.com/", "github.com"),
        ("https://raw.githubusercontent.com/Vendor/project/main/README.md", "github.com/vendor"),
        ("https://gist.githubusercontent.com/vendor/1a2b/raw/notes.md", "github.com/vendor"),
        ("https://gist.github.com/vendor/1a2b", "github.com/vendor"),
        ("https://raw.github.com/Vendor/project/main/README.md", "github.com/vendor"),
        ("https://codeload.github.com/vendor/project/zip/main", "github.com/vendor"),
        ("https://docs.github.com/en/actions", "github.com"),
        ("https://docs.github.com/ja/actions", "github.com"),
        ("https://docs.gitlab.com/ee/ci/", "gitlab.com"),
        ("https://github.com/orgs/Vendor/discussions/12", "github.com/vendor"),
        ("https://github.com/users/alice/projects/1", "github.com/alice"),
        ("https://gitlab.com/groups/vendor/-/epics/3", "gitlab.com/vendor"),
        ("https://bitbucket.org/users/repo", "bitbucket.org/users"),  # an owner named so
        ("https://codeberg.org/groups/docs", "codeberg.org/groups"),
        ("http://127.0.0.1:8000/a", "127.0.0.1"),
        ("http://[::1]:8000/a", "::1"),
        ("http://intranet/a", "intranet"),
    ],
)
def test_a_publisher_is_the_registrable_domain(url: str, publisher: str) -> None:
    assert publisher_of(url) == publisher


@pytest.mark.parametrize(
    ("first", "second"),
    [
        (
            "https://github.com/vendor/docs",
            "https://raw.githubusercontent.com/vendor/docs/main/x.md",
        ),
        ("https://docs.github.com/en/limits", "https://docs.github.com/ja/limits"),
        ("https://github.com/orgs/vendor/discussions/12", "https://github.com/vendor/docs"),
        ("https://vendor.github.io/docs/limits", "https://github.com/vendor/docs"),
    ],
)
def test_one_organisation_s_pages_on_a_code_host_are_one_publisher(
    tmp_path: Path, page_server: PageServer, first: str, second: str
) -> None:
    """A vendor's repository page and the raw copy of its file, or the code host's own docs
    in two languages, were added as two publishers (raw.githubusercontent.com; github.com/en
    and github.com/ja), and an organisation's discussions (github.com/orgs), and its Pages
    site (vendor.github.io), so one organisation's words counted as two independent
    sources."""
    body = "<html><body><main><p>A message may be up to 256 KB.</p></main></body></html>"
    page_server.set_page("/one", body)
    page_server.set_page("/two", body.replace("<p>", "<h1>Two</h1><p>"))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.split("sources:")[0] + "sources: {}\nclaims: []\n", "utf-8")
    cli = Cli(ledger)
    maps = ["--map", f"{first}={page_server.url('/one')}"]
    maps += ["--map", f"{second}={page_server.url('/two')}"]
    quote = "A message may be up to 256 KB."
    cli("add", "size", "--url", first, "--url", second, "--quote", quote, "--allow-private", *maps)

    publishers = {
        s["publisher"] for s in yaml.safe_load(ledger.read_text("utf-8"))["sources"].values()
    }
    assert len(publishers) == 1, publishers
    assert "2 sources of one publisher" in cli("render", "-o", "-").stdout


def test_a_page_added_on_a_vendor_s_site_counts_for_the_publisher_the_author_named(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The ledger named the vendor's docs "Vendor Inc"; a quote added on its blog got the
    blog's domain, vendor.com, for publisher: two independent sources of one vendor."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/blog", f"<html><body><main><p>{quote}</p></main></body></html>")
    ledger = tmp_path / "claims.yaml"
    docs = "{url: https://docs.vendor.com/limits, title: Limits, kind: docs, publisher: Vendor Inc}"
    ledger.write_text(f"{LEDGER.split('sources:')[0]}sources:\n  docs: {docs}\nclaims: []\n")
    cli = Cli(ledger)
    blog = "https://blog.vendor.com/post"
    maps = ["--map", f"{blog}={page_server.url('/blog')}", "--allow-private"]

    cli("add", "size", "--url", blog, "--quote", quote, *maps)

    publishers = [
        s["publisher"] for s in yaml.safe_load(ledger.read_text("utf-8"))["sources"].values()
    ]
    assert publishers == ["Vendor Inc", "Vendor Inc"]
    assert "count as two independent" not in cli("check").stderr


@pytest.mark.parametrize(
    "url",
    [
        "https://docs.xn--bcher-kva.de/guide",
        "https://blog.b\u00fccher.de/post",
        "https://DOCS.B\u00dcCHER.DE/guide",
        "https://docs.b\u00fccher\u3002de/guide",
        "https://docs.b\u00fccher\uff0ede./guide",
        "https://\uff44ocs.b\u00fccher.de/guide",
        "https://web.archive.org/web/20260801000000/https://docs.b\u00fccher.de/guide",
        "https://web.archive.org/web/20260801000000id_/https://docs.xn--bcher-kva.de/guide",
        "https://web.archive.org/web/2026/blog.xn--bcher-kva.de/post?page=2",
    ],
)
def test_one_host_in_any_spelling_or_archived_is_one_publisher(url: str) -> None:
    """Unicode or Punycode, full-width letters, an ideographic full stop, a web archive's
    capture of the page: one vendor's words, so one publisher (in the form DNS resolves)."""
    assert publisher_of(url) == "xn--bcher-kva.de"


@pytest.mark.parametrize("url", ["https://127.1/", "https://2130706433/a", "https://0x7f.0.0.1/"])
def test_one_address_in_any_spelling_is_one_publisher(url: str) -> None:
    assert publisher_of(url) == publisher_of("https://127.0.0.1/") == "127.0.0.1"


def test_the_web_archive_s_own_pages_are_its_own() -> None:
    assert publisher_of("https://web.archive.org/") == "archive.org"
    assert publisher_of("https://web.archive.org/web/*/docs.example.com*") == "archive.org"


LEDGER = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  docs:
    {url: "https://docs.example.com/limits", title: Limits, kind: docs, publisher: docs.example.com}
  blog: {url: "https://example.com/blog/limits", title: Blog, kind: docs, publisher: example.com}
claims:
  - id: size
    section: s
    title: Size
    kind: guarantee
    statement: S.
    quotes:
      - text: "A message may be up to 256 KB."
        sources: [docs, blog]
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}
"""


def test_the_author_sets_a_sources_publisher_title_and_kind(tmp_path: Path) -> None:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER, encoding="utf-8")
    cli = Cli(ledger)
    before = cli("render", "-o", "-").stdout
    assert (
        "cited on 2 sources, 2 independent: docs.example.com, example.com; none read yet" in before
    )

    said = cli("source", "docs", "--publisher", "example.com", "--title", "Limits page")
    assert said.stdout.splitlines() == [
        "docs: publisher is now example.com",
        "docs: title is now Limits page",
    ]
    cli("source", "blog", "--kind", "blog")
    source = yaml.safe_load(ledger.read_text("utf-8"))["sources"]
    assert source["docs"]["publisher"] == "example.com" and source["blog"]["kind"] == "blog"
    after = cli("render", "-o", "-").stdout
    assert "cited on 2 sources of one publisher, example.com; none read yet" in after

    assert "one of docs, blog" in cli("source", "blog", "--kind", "tweet", code=2).stderr
    assert "say what to set" in cli("source", "blog", code=2).stderr
    assert "did you mean" in cli("source", "blgo", "--title", "x", code=2).stderr


@pytest.mark.parametrize(
    ("given", "said"),
    [
        ({"title": None}, "say what to set: --publisher, --title, --kind"),
        ({"title": "  ", "publisher": "x"}, "--title must not be empty"),
        ({"kind": "tweet"}, "--kind 'tweet': one of docs, blog"),
        ({"render": "pdf"}, "--render 'pdf': one of http, browser"),
    ],
)
def test_a_source_s_fields_are_checked_before_anything_is_written(
    given: dict[str, str | None], said: str
) -> None:
    with pytest.raises(InputError, match=re.escape(said)):
        source_fields(given)


def test_a_source_s_fields_are_set_as_given_less_the_spaces_around_them() -> None:
    given = {"publisher": " example.com ", "kind": "blog", "render": None}
    assert source_fields(given) == {"publisher": "example.com", "kind": "blog"}


TWO_ADDRESSES = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  one: {url: "URL_ONE", title: One, kind: docs, publisher: one.example}
  two: {url: "URL_TWO", title: Two, kind: docs, publisher: two.example}
claims:
  - id: size
    section: s
    title: Size
    kind: guarantee
    statement: S.
    quotes:
      - text: "A message may be up to 256 KB."
        sources: [one, two]
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
"""


def two_addresses(one: str, two: str) -> str:
    """The ledger of one claim quoting the pages at `one` and `two` (`TWO_ADDRESSES`)."""
    return TWO_ADDRESSES.replace("URL_ONE", one).replace("URL_TWO", two)


def written(tmp_path: Path, text: str) -> Cli:
    """`text` written as the ledger in `tmp_path`, and the command line on it."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(text, encoding="utf-8")
    return Cli(ledger)


@pytest.mark.parametrize(("second", "counted"), [("its own page", 2), ("a redirect", 1)])
def test_one_page_read_at_two_addresses_is_one_source(
    tmp_path: Path, page_server: PageServer, second: str, counted: int
) -> None:
    """Two publishers' addresses that lead to one page (a redirect, a mirror of its text)
    are one reading of one text, so they count once toward `min_sources`, and the report
    counts them as the grading does."""
    body = "<html><body><main><p>A message may be up to 256 KB.</p></main></body></html>"
    page_server.set_page("/one", body)
    if second == "a redirect":
        page_server.set_handler("/two", redirect("/one", 301))
    else:
        page_server.set_page("/two", body.replace("<p>", "<h1>Two</h1><p>"))
    cli = written(tmp_path, two_addresses(page_server.url("/one"), page_server.url("/two")))
    cli("refresh", "--allow-private", code=0 if counted == 2 else 1)  # 1: a source moved

    proposed = cli.json("regrade", code=0 if counted == 2 else 1)["proposals"]

    lowered = [(p["claim_id"], p["to_grade"]) for p in proposed]
    assert lowered == ([] if counted == 2 else [("size", "CLAIMED")]), proposed
    report = cli("render", "-o", "-").stdout
    named = "one.example, two.example" if counted == 2 else "one.example"
    assert f"cross-checked on 2 sources, {counted} independent: {named}." in report
    facet = "2 independent sources" if counted == 2 else "2 sources, 1 independent"
    assert f"DEMONSTRATED** — cross-checked on {facet}, verified" in report


@pytest.mark.parametrize(
    ("first", "second"),
    [
        ("vendor.example", "Vendor.example"),
        ("vendor.example", "  VENDOR.example "),
        ("vendor.example", "vendor.EXAMPLE"),
        ("vendor.com", "www.vendor.com"),
        ("vendor.com", "https://vendor.com/"),
        ("vendor.com", "HTTP://WWW.Vendor.com./"),
    ],
)
def test_one_publisher_written_two_ways_counts_once(
    tmp_path: Path, page_server: PageServer, first: str, second: str
) -> None:
    """A publisher's name is compared without regard to case or the spaces around it, and
    one written as a site as the publisher of that site: the docs as "vendor.com" and a
    copy hosted elsewhere as "www.vendor.com" counted as two independent publishers,
    "cross-checked on 2 sources, 2 independent: vendor.com, www.vendor.com", and kept
    DEMONSTRATED on `min_sources: 2`."""
    body = "<html><body><main><p>A message may be up to 256 KB.</p></main></body></html>"
    page_server.set_page("/one", body)
    page_server.set_page("/two", body.replace("<p>", "<h1>Two</h1><p>"))
    text = two_addresses(page_server.url("/one"), page_server.url("/two"))
    text = text.replace("publisher: one.example", f"publisher: {first}")
    cli = written(tmp_path, text.replace("publisher: two.example", f'publisher: "{second}"'))
    cli("refresh", "--allow-private")

    proposed = cli.json("regrade", code=1)["proposals"]
    report = cli("render", "-o", "-").stdout

    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    assert f"cross-checked on 2 sources of one publisher, {first}" in report


def refreshed_with_the_blog_down(tmp_path: Path, page_server: PageServer, docs: str) -> Cli:
    """The ledger's two sources served here, the docs saying `docs`, the blog answering
    503; refreshed once."""
    page_server.set_page("/docs", f"<html><body><main><p>{docs}</p>")
    page_server.set_page("/blog", "busy", status=503)
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        LEDGER.replace("https://docs.example.com/limits", page_server.url("/docs")).replace(
            "https://example.com/blog/limits", page_server.url("/blog")
        ),
        encoding="utf-8",
    )
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", "--deadline", "2", code=1)
    return cli


def test_a_source_that_could_not_be_read_is_never_counted_as_cross_checking(
    tmp_path: Path, page_server: PageServer
) -> None:
    """One of two independent sources answered 503: the report said "cross-checked on 2
    sources, 2 independent" beside a grade line counting one."""
    cli = refreshed_with_the_blog_down(tmp_path, page_server, "A message may be up to 256 KB.")

    report = cli("render", "-o", "-").stdout

    assert "cross-checked" not in report
    assert "cited on 2 sources, 2 independent: docs.example.com, example.com; " in report
    assert "not read at the last check: blog" in report


def test_a_reversal_read_against_a_source_unread_is_rated_unknown_where_published(
    tmp_path: Path, page_server: PageServer
) -> None:
    """One source reverses the quote and the other cannot be read: the ledger holds the
    grade where it stands (an unread page moves none, down or up), the gate fails on the
    notice, and the ClaimReview, which a machine reads without the notice, says UNKNOWN
    and why, never the grade the only page read contradicts."""
    cli = refreshed_with_the_blog_down(tmp_path, page_server, "A message may never be 256 KB.")

    regrade = cli.json("regrade", code=1)
    (review,) = json.loads(cli("render", "-o", "-", "--format", "claimreview").stdout)

    assert regrade["proposals"] == []
    assert [n["kind"] for n in regrade["stale"]] == ["sources-disagree"]
    assert review["reviewRating"]["alternateName"] == "UNKNOWN"
    assert "Its sources disagree: a quote's meaning changed on docs" in review["reviewBody"]
    assert "and its meaning changed" in review["reviewBody"]


@pytest.mark.parametrize(
    ("url", "read_at", "other"),
    [
        # a GitHub page is read as its raw file: the same publisher's words
        (
            "https://github.com/vendor/repo/blob/main/docs/x.md",
            "https://raw.githubusercontent.com/vendor/repo/main/docs/x.md",
            None,
        ),
        ("https://docs.vendor.example/a", "https://www.vendor.example/b", None),
        ("https://docs.vendor.example/a", "https://blog.other.example/b", "other.example"),
        ("https://docs.vendor.example/a", None, None),
    ],
)
def test_a_page_read_elsewhere_is_another_publishers_only_off_the_sources_own_sites(
    url: str, read_at: str | None, other: str | None
) -> None:
    assert other_publisher(url, read_at) == other


REPORTED = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  blog: {url: "URL_BLOG", title: A blog, kind: blog, publisher: ablog.example, author: A. Writer}
  docs: {url: "URL_DOCS", title: Limits, kind: docs, publisher: vendor.example}
claims:
  - id: size
    section: s
    title: Size
    kind: guarantee
    statement: S.
    quotes:
      - text: "A message may be up to 256 KB."
        sources: [blog, docs]
        reported_by: blog
        via: docs
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
"""


@pytest.mark.parametrize("cited", [True, False])
def test_a_third_party_s_report_counts_once_with_the_source_it_cites(
    tmp_path: Path, page_server: PageServer, cited: bool
) -> None:
    """A blog that quotes the vendor's docs (`reported_by: blog`, `via: docs`) carries the
    docs' words, copied: it counted as a second independent source, and the report said
    "A. Writer reports, citing Limits" above "cross-checked on 2 sources, 2 independent",
    keeping DEMONSTRATED on `min_sources: 2`. A report that names no primary still counts
    on its own."""
    page_server.set_page("/docs", "<html><body><main><p>A message may be up to 256 KB.</p>")
    page_server.set_page(
        "/blog",
        "<html><body><main><h1>On limits</h1><p>The docs say:</p>"
        "<blockquote>A message may be up to 256 KB.</blockquote><p>Untested.</p>",
    )
    text = REPORTED.replace("URL_BLOG", page_server.url("/blog"))
    text = text.replace("URL_DOCS", page_server.url("/docs"))
    cli = written(tmp_path, text if cited else text.replace("        via: docs\n", ""))
    cli("refresh", "--allow-private", "--no-as-read", "--no-history")

    proposed = cli.json("regrade", code=1 if cited else 0)["proposals"]
    report = cli("render", "-o", "-").stdout

    lowered = [(p["claim_id"], p["to_grade"]) for p in proposed]
    assert lowered == ([("size", "CLAIMED")] if cited else []), proposed
    counted = "1 independent: vendor.example" if cited else "2 independent: ablog.example, vendor"
    assert f"cross-checked on 2 sources, {counted}" in report
    facet = "2 sources, 1 independent" if cited else "2 independent sources"
    assert f"DEMONSTRATED** — cross-checked on {facet}, verified" in report


def test_a_source_read_on_another_publishers_site_counts_for_it_too(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A vendor's page sent by a redirect to another publisher's site (a rebrand, a page
    handed over) carries that site's words: counted as the ledger's publisher alone, it
    made a second independent confirmation of that very site's other page, and the claim
    kept DEMONSTRATED on `min_sources: 2`. It counts for both publishers, as one source."""
    quote = "A message may be up to 256 KB."
    page_server.set_handler("/a/doc", redirect("/b/other", 302))
    page_server.set_page("/b/other", f"<html><body><main><h1>Other</h1><p>{quote}</p></main>")
    page_server.set_page("/b/page", f"<html><body><main><h1>Page</h1><p>{quote}</p></main>")
    first, second = "https://docs.a-vendor.example/doc", "https://b-vendor.example/page"
    text = two_addresses(first, second).replace("one.example", "a-vendor.example")
    cli = written(tmp_path, text.replace("two.example", "b-vendor.example"))
    maps = ["--map", f"https://docs.a-vendor.example/={page_server.url('/a/')}"]
    maps += ["--map", f"https://b-vendor.example/={page_server.url('/b/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", code=0)

    proposed = cli.json("regrade", code=1)["proposals"]
    explained = " ".join(str(t["outcome"]) for t in cli.json("explain", "size")["traces"])
    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    assert "fewer than 2 independent sources" in explained
    assert "cross-checked on 2 sources, 1 independent:" in report


def test_a_quote_verified_on_one_source_and_never_checked_on_another_is_not_verified(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A source cited since the last refresh says nothing of the quote yet: the headline
    counted the quote "verified" (the best any source said), while `status` said "not
    checked" and the fidelity row "not read at the last check". It is counted apart, by
    the grade line too (it said "single-source, verified")."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/one", f"<html><body><main><p>{quote}</p></main></body></html>")
    text = two_addresses(page_server.url("/one"), page_server.url("/two"))
    cli = written(tmp_path, text.replace("sources: [one, two]", "sources: [one]"))
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    written(tmp_path, text)

    summary = json.loads(cli("render", "-f", "json", "-o", "-").stdout)["summary"]
    headline = " ".join(cli("render", "-o", "-").stdout.split())

    assert (summary["verified_quotes"], summary["partly_read_quotes"]) == (0, 1)
    assert "; 0 verified, 1 verified on one source, not read on another, 0 reworded" in headline
    assert "— its quote is verified on one source, not read on another." in headline  # grade line


@pytest.mark.parametrize(
    ("second", "apart"),
    [
        ("<p>A message may be up to 128 KB.</p>", 1),
        ("<p>Messages have no size limit.</p>", 1),
        ("<p>A message can be up to 256 KB.</p>", 0),  # harmlessly: no disagreement
        ("<p>A message may be up to 256 KB on the leader.</p>", 0),  # may have: as regrade has it
    ],
)
def test_a_quote_one_page_carries_and_another_lacks_is_not_called_verified(
    tmp_path: Path, page_server: PageServer, second: str, apart: int
) -> None:
    """The headline counted each quote by the best any page says of it: one verified on
    one page and reworded to say otherwise (or gone) on another was "verified", while
    the findings and `status` said otherwise. It is counted on its own."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/one", f"<html><body><main><p>{quote}</p></main></body></html>")
    page_server.set_page("/two", f"<html><body><main><h1>Two</h1>{second}</main></body></html>")
    cli = written(tmp_path, two_addresses(page_server.url("/one"), page_server.url("/two")))
    cli("refresh", "--allow-private", "--no-as-read", code=1)

    summary = json.loads(cli("render", "-f", "json", "-o", "-").stdout)["summary"]
    headline = " ".join(cli("render", "-o", "-").stdout.split())

    assert (summary["verified_quotes"], summary["disagreeing_quotes"]) == (1 - apart, apart)
    said = "; 0 verified, 1 verified on one source, changed or gone on another, 0 reworded"
    assert (said in headline) == bool(apart)


@pytest.mark.parametrize(("marked", "counted"), [("", 1), (", independent: true", 2)])
def test_a_mirror_adds_no_independent_source_unless_marked_so(
    tmp_path: Path, page_server: PageServer, marked: str, counted: int
) -> None:
    """A source the ledger calls a mirror (`kind: mirror`) is a copy of some page: on
    another publisher's site (a syndicated copy, a community mirror) it counted as a
    second independent confirmation of the page it copies, and the claim kept
    DEMONSTRATED on `min_sources: 2`. It counts with the quote's other source, unless the
    author marks it `independent: true`."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/one", f"<html><body><main><p>{quote}</p></main></body></html>")
    page_server.set_page("/two", f"<html><body><main><h1>Copy</h1><p>{quote}</p></main>")
    text = two_addresses(page_server.url("/one"), page_server.url("/two"))
    mirror = f"kind: mirror, publisher: two.example{marked}"
    cli = written(tmp_path, text.replace("kind: docs, publisher: two.example", mirror))
    cli("refresh", "--allow-private", "--no-as-read", code=0)

    proposed = cli.json("regrade", code=0 if counted == 2 else 1)["proposals"]
    report = " ".join(cli("render", "-o", "-").stdout.split())

    lowered = [(p["claim_id"], p["to_grade"]) for p in proposed]
    assert lowered == ([] if counted == 2 else [("size", "CLAIMED")])
    assert f"cross-checked on 2 sources, {counted} independent:" in report


REPORT_VIA_MIRROR = """\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{id: s, title: S}]
sources:
  docs: {url: "https://docs.vendor.example/limits", title: Limits, kind: docs,
         publisher: vendor.example}
  copy: {url: "https://mirror.example/limits", title: Copy, kind: mirror, publisher: mirror.example}
  blog: {url: "https://ablog.example/post", title: Post, kind: blog, publisher: ablog.example}
claims:
  - id: size
    section: s
    title: Size
    kind: guarantee
    statement: S.
    quotes:
      - text: "A message may be up to 256 KB."
        sources: [docs, copy, blog]
        reported_by: blog
        via: copy
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes, min_sources: 2}
"""


def test_a_report_citing_a_mirror_counts_once_with_the_page_the_mirror_copies(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A blog that quotes a mirror of the vendor's docs (`reported_by: blog`, `via: copy`)
    carries the docs' words, copied twice: it counted as the mirror's own publisher, a
    second independent source, and the claim kept DEMONSTRATED on `min_sources: 2`."""
    quote = "A message may be up to 256 KB."
    for site in ("docs", "copy", "blog"):
        page_server.set_page(f"/{site}/", f"<html><body><main><h1>{site}</h1><p>{quote}</p>")
    cli = written(tmp_path, REPORT_VIA_MIRROR)
    maps = ["--map", f"https://docs.vendor.example/limits={page_server.url('/docs/')}"]
    maps += ["--map", f"https://mirror.example/limits={page_server.url('/copy/')}"]
    maps += ["--map", f"https://ablog.example/post={page_server.url('/blog/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    proposed = cli.json("regrade", code=1)["proposals"]
    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    assert "cross-checked on 3 sources, 1 independent: vendor.example" in report
    assert "DEMONSTRATED** — cross-checked on 3 sources, 1 independent, verified" in report


def test_two_mirrors_with_no_other_source_count_as_one(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A quote whose only sources are two copies (`kind: mirror`) of some page counted each
    as itself, two independent confirmations, and the claim kept DEMONSTRATED on
    `min_sources: 2`: copies of one text confirm it once."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/one", f"<html><body><main><h1>One</h1><p>{quote}</p></main>")
    page_server.set_page("/two", f"<html><body><main><h1>Two</h1><p>{quote}</p></main>")
    text = two_addresses(page_server.url("/one"), page_server.url("/two"))
    cli = written(tmp_path, text.replace("kind: docs", "kind: mirror"))
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=0)

    proposed = cli.json("regrade", code=1)["proposals"]
    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    assert "cross-checked on 2 sources, 1 independent: one.example" in report


THREE_ADDRESSES = TWO_ADDRESSES.replace(
    "claims:",
    '  copy: {url: "URL_COPY", title: Copy, kind: mirror, publisher: copy.example}\nclaims:',
)


@pytest.mark.parametrize("order", ["one, two, copy", "two, one, copy"])
def test_a_mirror_lends_no_confirmation_to_a_source_that_lacks_the_quote(
    tmp_path: Path, page_server: PageServer, order: str
) -> None:
    """A mirror counted as the quote's first other source: that source's page no longer
    saying the words, the mirror's copy of them counted in its stead, a second independent
    source, and the claim kept DEMONSTRATED on `min_sources: 2`; named second, that source
    made the claim CLAIMED. A copy confirms nothing the other sources do not."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/one", "<html><body><main><h1>One</h1><p>No limit is set.</p>")
    page_server.set_page("/two", f"<html><body><main><h1>Two</h1><p>{quote}</p></main>")
    page_server.set_page("/copy", f"<html><body><main><h1>Copy</h1><p>{quote}</p></main>")
    text = THREE_ADDRESSES.replace("sources: [one, two]", f"sources: [{order}]")
    for name in ("one", "two", "copy"):
        text = text.replace(f"URL_{name.upper()}", page_server.url(f"/{name}"))
    cli = written(tmp_path, text)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    assert lowered_and_counted(cli) == (2, 1)  # pages carrying the quote, independent


@pytest.mark.parametrize(
    ("one", "two", "warned"),
    [
        ("https://docs.example.com/limits", "http://docs.example.com/limits", True),
        ("http://docs.example.com/limits", "https://docs.example.com/limits/", True),
        ("https://docs.example.com/limits", "https://docs.example.com/limits/#top", True),
        ("https://docs.example.com/limits", "https://docs.example.com/quotas", False),
        ("http://docs.example.com:8080/limits", "https://docs.example.com:8080/limits", False),
        ("http://docs.example.com:80/limits", "https://docs.example.com/limits", True),
    ],
    ids=["http-and-https", "and-a-slash", "a-fragment", "two-pages", "a-port-named", "port-80"],
)
def test_check_warns_of_two_sources_written_for_one_page(
    tmp_path: Path, one: str, two: str, warned: bool
) -> None:
    """http and https of one host and path were two sources, and `check` said nothing."""
    cli = written(tmp_path, two_addresses(one, two))

    checked = cli("check")

    warning = "source two (" in checked.stderr and "is the page of source one" in checked.stderr
    assert warning == warned, checked.stderr
    if warned:
        assert "`claimledger source two --merge-into one`" in " ".join(checked.stderr.split())


@pytest.mark.parametrize(
    "second",
    [
        "http://vendor.example/limits",
        "https://vendor.example/limits/",
        "https://www.vendor.example/limits",
        "https://vendor.example/limits/#top",
    ],
    ids=["http-and-https", "and-a-slash", "and-www", "a-fragment"],
)
def test_one_page_cited_as_two_sources_counts_once_however_it_reads(
    tmp_path: Path, page_server: PageServer, second: str
) -> None:
    """One page written as two sources (http and https, a trailing slash, `www.`), the
    second marked `independent: true`, counted twice toward `min_sources: 2` whenever its
    two readings differed anywhere (a counter, a date, an advertisement beside the words),
    and the claim kept DEMONSTRATED: one page is one source, whatever it said each time."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/a/", f"<html><body><main><h1>Read 1</h1><p>{quote}</p></main>")
    page_server.set_page("/b/", f"<html><body><main><h1>Read 2</h1><p>{quote}</p></main>")
    text = two_addresses("https://vendor.example/limits", second)
    text = text.replace("publisher: one.example", "publisher: vendor.example")
    cli = written(tmp_path, text.replace("two.example", "vendor.example, independent: true"))
    maps = ["--map", f"https://vendor.example/limits={page_server.url('/a/')}"]
    maps += ["--map", f"{second.partition('#')[0]}={page_server.url('/b/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    assert lowered_and_counted(cli) == (2, 1)  # pages carrying the quote, independent


def test_a_source_read_on_another_publishers_site_counts_for_it_by_the_name_it_goes_by(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page sent by a redirect to a site the ledger cites under a publisher's own name
    ("B Vendor Inc", not its domain) counted for that domain's key alone: the site's own
    page, under its name, made a second independent source, and the claim kept
    DEMONSTRATED on `min_sources: 2`. It counts for the publisher the ledger names there."""
    quote = "A message may be up to 256 KB."
    page_server.set_handler("/a/doc", redirect("/b/other", 302))
    page_server.set_page("/b/other", f"<html><body><main><h1>Other</h1><p>{quote}</p></main>")
    page_server.set_page("/b/page", f"<html><body><main><h1>Page</h1><p>{quote}</p></main>")
    first, second = "https://docs.a-vendor.example/doc", "https://b-vendor.example/page"
    text = two_addresses(first, second).replace("one.example", "A Vendor")
    cli = written(tmp_path, text.replace("two.example", "B Vendor Inc"))
    maps = ["--map", f"https://docs.a-vendor.example/={page_server.url('/a/')}"]
    maps += ["--map", f"https://b-vendor.example/={page_server.url('/b/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    proposed = cli.json("regrade", code=1)["proposals"]
    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    assert "cross-checked on 2 sources, 1 independent:" in report


@pytest.mark.parametrize(
    ("cited", "said"),
    [
        ("        reported_by: blog\n        via: blog\n", "via 'blog' is the report itself"),
        ("        via: docs\n", "via 'docs' names what a report cites, but no reported_by"),
    ],
    ids=["the-report-itself", "no-report"],
)
def test_a_via_that_names_no_other_primary_is_refused(
    tmp_path: Path, cited: str, said: str
) -> None:
    """A report said to cite itself (`via` its own `reported_by`), or a `via` with no
    report, was taken without a word and counted the blog's copy of the docs' words as a
    second independent source: `regrade` kept DEMONSTRATED on `min_sources: 2`."""
    text = REPORTED.replace("        reported_by: blog\n        via: docs\n", cited)
    text = text.replace("URL_BLOG", "https://ablog.example/post")
    cli = written(tmp_path, text.replace("URL_DOCS", "https://docs.vendor.example/limits"))

    checked = cli("check", code=2)
    regraded = cli("regrade", code=2)

    assert said in checked.stderr and said in regraded.stderr
    assert "Traceback" not in checked.stderr + regraded.stderr
    assert len(regraded.stderr.strip().splitlines()) == 2, regraded.stderr  # the line, the count


@pytest.mark.parametrize(
    "first",
    [
        "{url: 'https://www.vendor.example/limits', title: L, kind: docs, independent: true,"
        " publisher: A. Guest}",
        "{url: 'https://www.vendor.example/limits', title: L, kind: docs, publisher: Vendor Inc}",
    ],
    ids=["marked-independent", "another-name"],
)
def test_one_page_cited_twice_never_parts_a_publisher_s_two_pages(
    tmp_path: Path, page_server: PageServer, first: str
) -> None:
    """A page cited first as a source marked independent (or under another publisher's
    name), then again as `http://…/` by a quote beside another page of its site: the
    second source counted for the first's key alone, so vendor.example's two pages counted
    as two independent sources and the claim kept DEMONSTRATED on `min_sources: 2`. One
    page is one text: it counts for both its sources' keys, as one, never as one more."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/limits", f"<html><body><main><h1>L</h1><p>{quote}</p></main>")
    page_server.set_page("/quotas", f"<html><body><main><h1>Q</h1><p>{quote}</p></main>")
    text = two_addresses("http://vendor.example/limits/", "https://vendor.example/quotas")
    text = text.replace("one.example", "vendor.example").replace("two.example", "vendor.example")
    cli = written(tmp_path, text.replace("sources:\n", f"sources:\n  guest: {first}\n", 1))
    maps = ["--map", f"https://www.vendor.example/limits={page_server.url('/limits')}"]
    maps += ["--map", f"http://vendor.example/limits/={page_server.url('/limits')}"]
    maps += ["--map", f"https://vendor.example/quotas={page_server.url('/quotas')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    assert lowered_and_counted(cli) == (2, 1)  # pages carrying the quote, independent


def test_a_source_read_on_a_site_the_ledger_names_two_ways_counts_for_each_name(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A page sent by a redirect to a site whose first source the ledger names "B Vendor
    Inc", and another `b-vendor.example`, counted for the first name alone: the page read
    there and the site's other page made two independent sources, where they had made one,
    and the claim kept DEMONSTRATED on `min_sources: 2`. It counts for every name the
    ledger gives that site, and for its domain, as one."""
    quote = "A message may be up to 256 KB."
    page_server.set_handler("/a/doc", redirect("/b/other", 302))
    page_server.set_page("/b/other", f"<html><body><main><h1>Other</h1><p>{quote}</p></main>")
    page_server.set_page("/b/page", f"<html><body><main><h1>Page</h1><p>{quote}</p></main>")
    page_server.set_page("/b/about", "<html><body><main><p>About us.</p></main>")
    first, second = "https://docs.a-vendor.example/doc", "https://b-vendor.example/page"
    text = two_addresses(first, second).replace("one.example", "A Vendor")
    text = text.replace("two.example", "b-vendor.example")
    named = "{url: 'https://b-vendor.example/about', title: About, kind: docs, publisher: B Inc}"
    cli = written(tmp_path, text.replace("sources:\n", f"sources:\n  about: {named}\n", 1))
    maps = ["--map", f"https://docs.a-vendor.example/={page_server.url('/a/')}"]
    maps += ["--map", f"https://b-vendor.example/={page_server.url('/b/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    assert lowered_and_counted(cli) == (2, 1)  # pages carrying the quote, independent


def test_one_page_cited_as_two_sources_is_said_to_be_of_one_publisher(
    tmp_path: Path, page_server: PageServer
) -> None:
    """One page cited as two sources (http and https), the second marked `independent:
    true`, counts once, and the report said "cross-checked on 2 sources, 1 independent:
    vendor.example", as of two publishers' pages one of which copies the other: they are
    one publisher's one page."""
    quote = "A message may be up to 256 KB."
    page_server.set_page("/a/", f"<html><body><main><h1>Read 1</h1><p>{quote}</p></main>")
    page_server.set_page("/b/", f"<html><body><main><h1>Read 2</h1><p>{quote}</p></main>")
    second = "http://vendor.example/limits"
    text = two_addresses("https://vendor.example/limits", second)
    text = text.replace("publisher: one.example", "publisher: vendor.example")
    cli = written(tmp_path, text.replace("two.example", "vendor.example, independent: true"))
    maps = ["--map", f"https://vendor.example/limits={page_server.url('/a/')}"]
    maps += ["--map", f"{second}={page_server.url('/b/')}"]
    cli("refresh", *maps, "--allow-private", "--no-as-read", "--no-history", code=0)

    report = " ".join(cli("render", "-o", "-").stdout.split())

    assert "cross-checked on 2 sources of one publisher, vendor.example." in report


def test_two_line_ranges_of_one_file_count_as_one_source_in_every_output(
    tmp_path: Path, page_server: PageServer
) -> None:
    """One file cited as two sources on two of its line ranges (`#L1-L5`, `#L10-L20`), the
    second marked `independent: true`, stayed two pages: one document of one publisher
    counted as two independent sources, and the claim kept DEMONSTRATED on `min_sources:
    2`. Its ranges are one page toward independence, though each is checked in its own."""
    lines = [f"Line {n} of the notes." for n in range(1, 31)]
    lines[2] = lines[12] = "A message may be up to 256 KB."
    page_server.set_page("/x.md", "\n".join(lines) + "\n", content_type="text/plain")
    blob = "https://github.com/o/r/blob/main/x.md"
    text = two_addresses(f"{blob}#L1-L5", f"{blob}#L10-L20").replace("one.example", "github.com/o")
    cli = written(tmp_path, text.replace("two.example", "github.com/o, independent: true"))
    cli("refresh", "--map", f"{blob}={page_server.url('/x.md')}", "--allow-private",
        "--no-as-read", "--no-history", code=0)  # fmt: skip

    assert lowered_and_counted(cli) == (2, 1)  # pages carrying the quote, independent
    report = json.loads(cli("render", "-f", "json", "-o", "-").stdout)
    (quoted,) = report["sections"][0]["claims"][0]["quotes"]
    assert [(s["status"], s["moved_within"]) for s in quoted["sources"]] == [("verified", None)] * 2
    said = " ".join(cli("render", "-o", "-").stdout.split())
    assert "cross-checked on 2 sources of one publisher, github.com/o." in said
    assert "verified on fewer than 2 independent sources" in cli("explain", "size").stdout
    cli("regrade", "--write", code=0)
    (claim,) = cli.json("status")["claims"]
    assert claim["grades"] == [{"on": "wording", "grade": "CLAIMED"}]


def lowered_and_counted(cli: Cli) -> tuple[int, int]:
    """`regrade` proposes the claim `size` no more than CLAIMED; how many pages carry its
    quote in the report, and how many of them count as independent."""
    proposed = cli.json("regrade", code=1)["proposals"]
    assert [(p["claim_id"], p["to_grade"]) for p in proposed] == [("size", "CLAIMED")]
    report = json.loads(cli("render", "-f", "json", "-o", "-").stdout)
    (quoted,) = report["sections"][0]["claims"][0]["quotes"]
    return quoted["carried_by"], quoted["independent"]
