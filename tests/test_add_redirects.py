"""`add` and `quote --url` given an address that redirects: a page that moved for good is
recorded where it now is, and says so, so that the very next refresh does not call the
page just added "moved"; a temporary redirect records the address given; a redirect onto
a source the ledger has joins that source."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.ledger.file import load
from claimledger.records import FetchResult, Hop
from claimledger.services.authoring import recorded_at
from cli_runner import Cli
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import PageServer, redirect

NEW = "Every alarm is retried with exponential backoff until it succeeds."


@pytest.fixture
def cli(tmp_path: Path, page_server: PageServer) -> Cli:
    serve_v1(page_server)
    page_server.set_page("/docs/alarms", page(NEW))
    return Cli(write_ledger(tmp_path, page_server))


def said(text: str) -> str:
    return " ".join(text.split())


def test_a_line_range_given_is_kept_where_a_redirect_names_a_fragment(
    cli: Cli, page_server: PageServer
) -> None:
    """`add --url /g.txt#L4-L4` where `/g.txt` is sent for good to `/new.txt#top` was
    recorded at `/new.txt#top`: the source read the whole file, and a quote of any other
    line of it verified."""
    lines = "line one\nline two says alarms are retried.\nline three\nline four says not.\n"
    page_server.set_page("/new.txt", lines, content_type="text/plain; charset=utf-8")
    page_server.set_handler("/g.txt", redirect("/new.txt#top", 301))

    cli("add", "four", "--url", page_server.url("/g.txt#L4-L4"), "--quote",
        "line four says not.", "--allow-private")  # fmt: skip
    refused = cli("quote", "four", "line two says alarms are retried.", "--url",
                  page_server.url("/new.txt#L4-L4"), "--allow-private", code=2)  # fmt: skip

    recorded = [s.url for s in load(cli.ledger).sources.values() if "new.txt" in s.url]
    assert recorded == [page_server.url("/new.txt#L4-L4")]
    assert "missing" in refused.stderr + refused.stdout


@pytest.mark.parametrize(
    "route",
    [
        {"/old": redirect("/docs/alarms", 301)},
        {"/old": redirect("/docs/alarms", 308)},
        {"/old": redirect("/older", 301), "/older": redirect("/docs/alarms", 308)},
        {"/old": (page("Moved."), "<meta http-equiv='refresh' content='0; url=/docs/alarms'>")},
    ],
    ids=["301", "308", "chain", "alias-page"],
)
def test_a_page_moved_for_good_is_recorded_where_it_now_is(
    cli: Cli, page_server: PageServer, route: dict[str, object]
) -> None:
    for path, handler in route.items():
        if isinstance(handler, tuple):
            body, head = handler
            page_server.set_page(path, body.replace("<html>", f"<html><head>{head}</head>"))
        else:
            page_server.set_handler(path, handler)  # type: ignore[arg-type]
    old, new = page_server.url("/old"), page_server.url("/docs/alarms")

    added = cli("add", "retried", "--url", old, "--quote", NEW, "--allow-private", code=0)

    assert f"recorded at {new}: {old} redirects there for good" in said(added.stdout)
    sources = load(cli.ledger).sources
    assert sources["alarms"].url == new  # its id from where it is, too
    assert all(source.url != old for source in sources.values())
    cli("refresh", "--allow-private", "--no-as-read", "retried", code=0)  # nothing moved


@pytest.mark.parametrize(
    "route",
    [
        {"/old": redirect("/docs/alarms", 302)},
        {"/old": redirect("/docs/alarms", 307)},
        {"/old": redirect("/older", 302), "/older": redirect("/docs/alarms", 301)},
    ],
    ids=["302", "307", "temporary-then-permanent"],
)
def test_a_temporary_redirect_records_the_address_given(
    cli: Cli, page_server: PageServer, route: dict[str, object]
) -> None:
    for path, handler in route.items():
        page_server.set_handler(path, handler)  # type: ignore[arg-type]
    old = page_server.url("/old")

    added = cli("add", "retried", "--url", old, "--quote", NEW, "--allow-private", code=0)

    assert "recorded at" not in added.stdout
    assert load(cli.ledger).sources["old"].url == old


def test_a_redirect_to_an_address_the_ledger_refuses_records_the_address_given(
    cli: Cli, page_server: PageServer
) -> None:
    """A server's Location holding a space: the add failed, "adding the claim would leave
    the ledger invalid"."""
    page_server.set_handler("/old", redirect("/docs/alarms?a=x y", 301))
    page_server.set_page("/docs/alarms", page(NEW))
    old = page_server.url("/old")

    cli("add", "retried", "--url", old, "--quote", NEW, "--allow-private", code=0)

    assert load(cli.ledger).sources["old"].url == old


def test_a_redirect_onto_a_source_of_the_ledger_joins_it(cli: Cli, page_server: PageServer) -> None:
    page_server.set_handler("/old-other", redirect("/other", 301))
    old = page_server.url("/old-other")

    cli("add", "fires", "--url", old, "--quote", ALARM, "--allow-private", code=0)
    cli("quote", "durable", ALARM, "--url", old, "--allow-private", code=0)

    ledger = load(cli.ledger)
    assert sorted(ledger.sources) == ["guide", "mirror", "other"]  # no second source
    assert ledger.claim("fires").quotes[0].sources == ("other",)
    assert ledger.claim("durable").quotes[-1].sources == ("other",)


def test_a_redirect_onto_a_source_is_read_through_its_select(
    cli: Cli, page_server: PageServer
) -> None:
    """A quote outside the `select` of the source a redirect leads to would be missing at
    the next refresh: refused, as on the source's own address."""
    text = cli.ledger.read_text("utf-8").replace(
        "title: Other, kind: docs,", "title: Other, kind: docs, select: '#alarms',"
    )
    cli.ledger.write_text(text, "utf-8")
    outside = "This sentence sits outside the region the source selects."
    page_server.set_page(
        "/other",
        f"<html><body><main><section id='alarms'><p>{ALARM}</p></section>"
        f"<section><p>{outside}</p></section></main></body></html>",
    )
    page_server.set_handler("/old-other", redirect("/other", 301))
    old = page_server.url("/old-other")

    refused = cli("add", "aside", "--url", old, "--quote", outside, "--allow-private", code=2)

    assert "nothing written" in refused.stderr
    assert "aside" not in cli.ledger.read_text("utf-8")


def test_a_move_to_another_publishers_site_is_said_so(
    tmp_path: Path, page_server: PageServer
) -> None:
    vendor, other = "https://docs.vendor.example", "https://blog.other.example"
    with PageServer() as elsewhere:
        elsewhere.set_page("/copy", page(DURABLE))
        serve_v1(page_server)
        page_server.set_handler("/moved", redirect(f"{other}/copy", 301))
        maps = (f"{vendor}/={page_server.url('/')}", f"{other}/={elsewhere.url('/')}")
        args = [arg for rule in maps for arg in ("--map", rule)]
        cli = Cli(write_ledger(tmp_path, page_server))

        added = cli(
            "add", "copied", "--url", f"{vendor}/moved", "--quote", DURABLE,
            *args, "--allow-private", code=0,
        )  # fmt: skip

    assert (
        f"recorded at {other}/copy: {vendor}/moved redirects there for good, another "
        "publisher's site (other.example)"
    ) in said(added.stdout)
    source = load(cli.ledger).sources["copy"]
    assert (source.url, source.publisher) == (f"{other}/copy", "other.example")


@pytest.mark.parametrize("command", ["add", "quote"])
def test_an_address_with_a_space_is_refused_before_it_is_fetched(
    cli: Cli, page_server: PageServer, command: str
) -> None:
    """The ledger cannot hold it: the page was read, then the edit refused it."""
    url = page_server.url("/docs/alarms") + "?page=a b"
    before = cli.ledger.read_bytes()
    page_server.clear_requests()

    args = ["retried", "--url", url, "--quote", NEW]
    if command == "quote":
        args = ["durable", NEW, "--url", url]
    refused = cli(command, *args, "--allow-private", code=2)

    assert "has a space in it" in said(refused.stderr)
    assert page_server.requests == []
    assert cli.ledger.read_bytes() == before


@pytest.mark.parametrize(
    ("asked", "hops", "recorded"),
    [
        ("http://docs.example.com/alarms", (301,), "https://docs.example.com/alarms"),
        ("http://docs.example.com/alarms#x", (308,), "https://docs.example.com/alarms#x"),
        ("http://docs.example.com/alarms", (302,), "http://docs.example.com/alarms"),
        ("http://docs.example.com/limits", (301,), "http://docs.example.com/limits"),
    ],
    ids=["301", "with-its-fragment", "temporary", "no-source-there"],
)
def test_an_http_address_sent_for_good_to_a_source_s_https_one_is_that_source(
    cli: Cli, asked: str, hops: tuple[int, ...], recorded: str
) -> None:
    """`add --url http://…` of a page the ledger has at https, the one redirecting to the
    other, made a second source of the page."""
    text = cli.ledger.read_text("utf-8")
    cli.ledger.write_text(
        text.replace(cli_url(text, "other"), "https://docs.example.com/alarms"), "utf-8"
    )
    page = asked.partition("#")[0]
    fetched = FetchResult(
        url=asked,
        final_url=page.replace("http:", "https:"),
        http_status=200,
        source_status="ok",
        redirects=tuple(Hop(page, status) for status in hops),
        moved_to=None,
        etag=None,
        last_modified=None,
        content_type="text/html",
        text="",
        not_modified=False,
        error=None,
        attempts=1,
        elapsed=0.0,
        line_range=None,
    )

    assert recorded_at(load(cli.ledger), asked, fetched) == recorded


def cli_url(text: str, source_id: str) -> str:
    """The url written for `source_id` in the ledger's text."""
    line = next(line for line in text.splitlines() if line.strip().startswith(f"{source_id}:"))
    return line.split('url: "')[1].split('"')[0]


@pytest.mark.parametrize("command", ["add", "quote"])
def test_the_page_a_source_now_redirects_to_joins_that_source(
    cli: Cli, page_server: PageServer, command: str
) -> None:
    """`/other` redirects for good to `/docs/other`; `add --url` of `/docs/other` made a
    second source of the page its first source already quotes."""
    page_server.set_handler("/other", redirect("/docs/other", 301))
    page_server.set_page("/docs/other", page(ALARM))
    cli("refresh", "--allow-private", "--no-as-read", code=1)  # moved

    args = ["fires", "--url", page_server.url("/docs/other"), "--quote", ALARM]
    if command == "quote":
        args = ["durable", ALARM, "--url", page_server.url("/docs/other")]
    added = cli(command, *args, "--allow-private")

    ledger = load(cli.ledger)
    assert sorted(ledger.sources) == ["guide", "mirror", "other"]
    claim = ledger.claim("fires" if command == "add" else "durable")
    assert claim.quotes[-1].sources == ("other",)
    assert "adopt it with `claimledger move other`" in said(added.stdout)


def test_the_page_a_source_now_redirects_to_on_another_publishers_site_is_its_own_source(
    cli: Cli, page_server: PageServer
) -> None:
    """`/other` sent for good to another site's page: `add --url` of that page joined the
    source, and its words counted for the source's publisher without a word."""
    elsewhere = page_server.url("/vendor").replace("127.0.0.1", "localhost")
    page_server.set_handler("/other", redirect(elsewhere, 301))
    page_server.set_page("/vendor", page(ALARM))
    cli("refresh", "--allow-private", "--no-as-read", code=1)  # moved, to another publisher

    cli("add", "fires", "--url", elsewhere, "--quote", ALARM, "--allow-private")

    ledger = load(cli.ledger)
    (source,) = ledger.claim("fires").quotes[0].sources
    assert source != "other" and ledger.sources[source].url == elsewhere


def test_a_quote_not_on_the_region_the_joined_source_reads_names_that_source(
    cli: Cli, page_server: PageServer
) -> None:
    """Joined to the source whose address now leads to it, the page given is read through
    that source's `select`: a quote outside it was refused naming an address never typed."""
    text = cli.ledger.read_text(encoding="utf-8")
    cli.ledger.write_text(
        text.replace("  other: {", '  other: {select: "#a", ', 1), encoding="utf-8"
    )
    page_server.set_handler("/other", redirect("/docs/other", 301))
    page_server.set_page(
        "/docs/other", f"<html><body><div id=a><p>{ALARM}</p></div><p>{NEW}</p></body></html>"
    )
    cli("refresh", "--allow-private", "--no-as-read", code=1)  # moved

    refused = cli("add", "fires", "--url", page_server.url("/docs/other"), "--quote", NEW,
                  "--allow-private", code=2)  # fmt: skip

    assert "the page given is the page of source other, read as that source reads it" in said(
        refused.stderr
    )
