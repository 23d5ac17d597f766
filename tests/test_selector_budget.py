"""A source's CSS selector cannot burn minutes of CPU: one that chains sibling steps is
refused when the ledger is checked (file:line:col, exit 2), and any other is applied in
a process of its own within what the URL's deadline left, so a page it would take too
long to read is `unreadable` ("took too long to read") rather than a refresh that hangs.

A page past 256 KiB is read in such a process too, selector or none: one tag of
100,000 attributes keeps libxml2 busy for minutes.

The big page is real (100,000 paragraphs on a loopback server); `p ~ p` passes the
ledger's check and still asks libxml2 for every paragraph after every paragraph. The
tests assert what the run says, never how long it took.
"""

from __future__ import annotations

import json
import string
from pathlib import Path

import pytest

from claimledger.reading.selectors import selector_problem
from cli_runner import Cli, claimledger
from webserver import PageServer

QUOTE = "The quoted sentence stands at the very end."
PATHOLOGICAL = "p:nth-last-child(2n+1) ~ p ~ p ~ p"

LEDGER = string.Template("""\
ledger: 1
title: Selectors
date_read: 2026-08-23
sections:
  - id: main
    title: Main
sources:
  docs: {url: "$url", title: Docs, kind: docs, publisher: p, select: "$select"}
claims:
  - id: end
    section: main
    title: The end
    kind: guarantee
    statement: It ends.
    quotes:
      - text: "$quote"
        sources: [docs]
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}
""")


def big_page(paragraphs: int) -> str:
    filler = "<p>Some words of no consequence.</p>" * paragraphs
    return f"<html><body><main><div>{filler}<p>{QUOTE}</p></div></main></body></html>"


def ledger_at(folder: Path, url: str, select: str) -> Path:
    path = folder / "claims.yaml"
    path.write_text(LEDGER.substitute(url=url, select=select, quote=QUOTE), encoding="utf-8")
    return path


# --------------------------------------------------------------------------- the ledger's check


@pytest.mark.parametrize(
    ("select", "message"),
    [
        (PATHOLOGICAL, "is too costly to apply: 4 sibling steps"),
        ("h2 + p + p + p", "is too costly to apply: 3 sibling steps"),
        ("p:not(.a ~ .b ~ .c ~ .d)", "is too costly to apply: 3 sibling steps"),
        ("p:has(~ .a ~ .b ~ .c)", "is too costly to apply: 3 sibling steps"),
        ("p:has(+ .a):has(+ .b):has(~ .c)", "is too costly to apply: 3 sibling steps"),
        ("a b c d e f g h i j", "is too costly to apply: 9 combinators"),
        ("main article[", "is not a valid CSS selector"),
        ("svg|rect", "cannot be applied: Undefined namespace prefix"),
    ],
)
def test_a_selector_too_costly_to_apply_is_refused_where_it_is_written(
    tmp_path: Path, select: str, message: str
) -> None:
    ledger = ledger_at(tmp_path, "https://docs.example/a", select)
    column = ledger.read_text("utf-8").splitlines()[7].index("select: ") + len("select: ") + 1
    for command in (("check",), ("refresh",), ("status",)):
        lines = claimledger("--ledger", str(ledger), *command, code=2).stderr.splitlines()
        assert lines[0].startswith(f"{ledger}:8:{column}: select {select!r} {message}")
        assert lines[1:] == ["claimledger: error: 1 problem in the ledger"]


@pytest.mark.parametrize(
    ("wait_for", "message"),
    [
        ("p[[[", "is not a valid CSS selector"),
        ("//main/p", "is not a valid CSS selector"),
        ("text=The end", "is not a valid CSS selector"),
        ("p:has-text('The end')", "is not a valid CSS selector"),
        ("svg|rect", "names a namespace (|), which a page's querySelector refuses"),
        ("main p:contains('end')", "is not a selector Chromium reads: ':contains('"),
        ("p[class!=note]", "is not a selector Chromium reads: '!='"),
        ("a:local-link", "is not a selector Chromium reads: ':local-link'"),
        ("video:paused", "is not a selector Chromium reads: ':paused'"),
        ("p::before", "names a pseudo-element, which no querySelector finds"),
    ],
)
def test_a_wait_for_that_is_not_css_is_refused_where_it_is_written(
    tmp_path: Path, wait_for: str, message: str
) -> None:
    """Chromium's driver read it only once a refresh read the page, and the source was
    `unreadable`; `check` said the ledger was fine. One CSS can parse but not apply was
    named a `select`, a field the source does not have."""
    text = LEDGER.substitute(url="https://docs.example/a", select="main", quote=QUOTE)
    text = text.replace('select: "main"', f'render: browser, wait_for: "{wait_for}"')
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(text, encoding="utf-8")
    lines = claimledger("--ledger", str(ledger), "check", code=2).stderr.splitlines()
    assert f": wait_for {wait_for!r} {message}" in lines[0]
    assert lines[0].startswith(f"{ledger}:8:")


@pytest.mark.parametrize(
    "wait_for",
    [
        "main:focus-within",
        "p:not(.a, .b)",
        "li:nth-child(2 of .x)",
        "main:has(> p)",
        "[lang|=en]",
        r".a\|b",
    ],
)
def test_a_wait_for_chromium_reads_is_not_refused_for_what_cssselect_does_not(
    wait_for: str,
) -> None:
    """Chromium reads the selectors of CSS Level 4; checked as cssselect reads CSS, each
    was refused as "not a valid CSS selector"."""
    assert selector_problem(wait_for, "wait_for") is None
    assert selector_problem('p[title="a!=b|c"]', "wait_for") is None  # words in a value


@pytest.mark.parametrize("select", ["main", "div#docs > .body", "article p:first-child", "h2 ~ p"])
def test_selectors_that_name_a_content_region_pass(select: str) -> None:
    assert selector_problem(select) is None


@pytest.mark.parametrize("select", ["main p:contains('end')", "p[class!=note]"])
def test_a_select_may_use_what_cssselect_adds_to_css(select: str) -> None:
    """Applied by cssselect, not by a browser: its extensions work there."""
    assert selector_problem(select) is None


def test_verify_refuses_such_a_selector_before_asking_anything(page_server: PageServer) -> None:
    page_server.set_page("/big", big_page(10))
    result = claimledger(
        "verify", page_server.url("/big"), QUOTE, "--select", PATHOLOGICAL, "--allow-private",
        code=2,
    )  # fmt: skip
    (line,) = result.stderr.splitlines()
    assert line.startswith(f"claimledger: error: --select {PATHOLOGICAL!r} is too costly to apply")
    assert page_server.requests == []


# --------------------------------------------------------------------------- the budget


@pytest.mark.slow
def test_a_page_too_big_for_its_selector_is_unreadable_not_a_hang(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/big", big_page(100_000))
    cli = Cli(ledger_at(tmp_path, page_server.url("/big"), "p ~ p"))

    report = cli.json(
        "refresh", "--allow-private", "--no-as-read", "--no-recover", "--deadline", "2", code=1
    )

    (source,) = report["sources"]
    assert source["source_status"] == "unreadable"
    assert source["error"].startswith("took too long to read: more than 2 s of CPU")
    (check,) = report["checks"]
    assert check["status"] is None  # no evidence either way: the quote is not called gone


@pytest.mark.slow
def test_the_same_page_read_through_a_sane_selector_is_read(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/big", big_page(100_000))
    cli = Cli(ledger_at(tmp_path, page_server.url("/big"), "main > div"))

    report = cli.json("refresh", "--allow-private", "--no-as-read", "--deadline", "30", code=0)

    assert [check["status"] for check in report["checks"]] == ["verified"]


# --------------------------------------------------------------------------- large pages


@pytest.mark.slow
def test_a_large_page_that_would_keep_the_parser_busy_is_unreadable_not_a_hang(
    page_server: PageServer,
) -> None:
    """One tag of 100,000 attributes: libxml2 weighs each against all before it, minutes
    of CPU in the refresh's own process. A page past 256 KiB is read in a process of its
    own within what the URL's deadline left."""
    crowded = " ".join(f"a{n}=v" for n in range(100_000))
    page_server.set_page(
        "/crowded", f"<html><body><main><p {crowded}>{QUOTE}</p></main></body></html>"
    )

    result = claimledger(
        "verify", page_server.url("/crowded"), QUOTE, "--allow-private", "--deadline", "2",
        "--json", code=1,
    )  # fmt: skip

    payload = json.loads(result.stdout)
    assert payload["source_status"] == "unreadable"
    assert payload["error"].startswith("took too long to read: more than 2 s of CPU")


def test_a_large_page_is_read_as_a_small_one_is(page_server: PageServer) -> None:
    """A page past 256 KiB, read in a process of its own: the same text, the quote
    verified."""
    page_server.set_page("/big", big_page(10_000))

    result = claimledger(
        "verify", page_server.url("/big"), QUOTE, "--allow-private", "--json", code=0
    )

    assert json.loads(result.stdout)["status"] == "verified"


def _spin() -> None:
    while True:
        pass


def test_the_cpu_a_reading_overran_is_said_to_the_hundredth() -> None:
    """The budget is what is left of a URL's deadline: "more than 2.94 s of CPU", not the
    figure to the microsecond ("29.8009"), nor in powers of ten ("1.8e+03")."""
    from claimledger.errors import PageUnreadable
    from claimledger.evidence.budget import bounded

    with pytest.raises(PageUnreadable) as raised:
        bounded(0.123456, _spin)

    assert str(raised.value) == "took too long to read: more than 0.12 s of CPU"
