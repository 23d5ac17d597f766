"""A redirect that ends somewhere other than the page asked: the page read there is not
the source's, and what it lacks is no evidence against the source's quotes. A sign-in
page, or the home page or a section's a temporary redirect sends readers to, leaves every
quote unread and every grade standing; a page the redirect truly leads to is read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from cli_runner import Cli
from dns_server import NameServer
from evidence_site import ALARM, DURABLE, page, serve_v1, write_ledger
from webserver import PageServer, redirect

SIGN_IN_PAGE = page(
    "Sign in to your account with your work email address to read the documentation.",
    "Forgot your password? Reset it here, or sign up for an account today.",
)


@pytest.fixture
def cli(tmp_path: Path, page_server: PageServer) -> Cli:
    return Cli(write_ledger(tmp_path, page_server))


def other_source(cli: Cli) -> dict[str, Any]:
    report = cli.json("status", code=1)
    return next(s for s in report["sources"] if s["source_id"] == "other")


def alarms_row(cli: Cli) -> dict[str, Any]:
    report = cli.json("status", code=1)
    return next(row for row in report["claims"] if row["claim_id"] == "alarms")


@pytest.mark.parametrize(
    ("location", "status"),
    [
        ("/login?next=/docs/other", 302),  # the site's sign-in page, sending the reader back
        ("/account/sign-in", 307),
        ("/", 302),  # home, for now
        ("/docs/", 302),  # a section's page
        ("/docs/index.html", 302),  # the same, by its index page's address
        ("/index.html", 307),
    ],
)
def test_a_page_a_redirect_only_stands_in_for_leaves_the_quotes_unread(
    cli: Cli, page_server: PageServer, location: str, status: int
) -> None:
    serve_v1(page_server)
    for path in ("/login", "/account/sign-in", "/", "/docs/", "/docs/index.html", "/index.html"):
        page_server.set_page(path, SIGN_IN_PAGE)
    page_server.set_handler("/docs/other", redirect(location, status))
    cli.ledger.write_text(
        cli.ledger.read_text(encoding="utf-8").replace("/other", "/docs/other"),
        encoding="utf-8",
    )

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    other = other_source(cli)
    assert other["source_status"] in ("refused", "unreadable"), other
    assert "not the page asked" in other["error"]
    assert (alarms_row(cli)["missing"], alarms_row(cli)["unread"]) == (0, 1)
    assert "alarms" not in cli("regrade", "--check", code=3).output


def test_a_temporary_redirect_to_the_page_itself_is_still_read(
    cli: Cli, page_server: PageServer
) -> None:
    """A site that sends its readers on with a 302 (a version's prefix, as Read the Docs
    does) is read where it sends them: a quote gone there is missing."""
    serve_v1(page_server)
    page_server.set_handler("/other", redirect("/en/latest/other", 302))
    page_server.set_page("/en/latest/other", page("The alarm handler was removed."))

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    assert other_source(cli)["source_status"] == "ok"
    assert alarms_row(cli)["missing"] == 1


def test_a_redirect_to_another_page_is_not_called_the_same_page(
    cli: Cli, page_server: PageServer
) -> None:
    """Only a trailing slash or http to https is "the same page at a tidier address"; a
    temporary redirect elsewhere is said as one, its address standing."""
    serve_v1(page_server)
    page_server.set_handler("/other", redirect("/en/latest/other", 302))
    page_server.set_page("/en/latest/other", page(ALARM))

    text = " ".join(cli("refresh", "--allow-private", "--no-as-read", code=0).stdout.split())

    assert "tidier address" not in text
    assert "where a temporary redirect (HTTP 302) sends it" in text


def test_a_page_read_on_another_publishers_site_is_said_so(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A vendor's page moved, or sent for now, to another registrable domain is read there,
    and the refresh says whose site that is: its words are not the vendor's by right."""
    vendor, other = "https://docs.vendor.example", "https://blog.other.example"
    with PageServer() as elsewhere:
        elsewhere.set_page("/copy", page(ALARM))
        elsewhere.set_page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
        serve_v1(page_server)
        page_server.set_handler("/other", redirect(f"{other}/copy", 301))
        page_server.set_handler("/mirror", redirect(f"{other}/copy", 302))
        ledger = write_ledger(tmp_path, page_server)
        ledger.write_text(
            ledger.read_text(encoding="utf-8").replace(page_server.url(""), vendor),
            encoding="utf-8",
        )
        maps = (f"{vendor}/={page_server.url('/')}", f"{other}/={elsewhere.url('/')}")
        args = [arg for rule in maps for arg in ("--map", rule)]

        text = Cli(ledger)("refresh", *args, "--allow-private", "--no-as-read", code=1).stdout

    said = " ".join(text.split())
    assert f"moved to {other}/copy, another publisher's site (other.example)" in said
    assert f"read from {other}/copy, another publisher's site (other.example)" in said
    report = json.loads(Cli(ledger)("render", "-f", "json", "-o", "-").stdout)  # so does the report
    labels = {source["id"]: source["label"] for source in report["sources"]}
    assert labels["other"].endswith(", to another publisher's site (other.example)")
    assert labels["mirror"].endswith(
        f", read at {other}/copy, another publisher's site (other.example)"
    )


def test_a_move_to_another_publishers_site_says_whose_site_it_is(tmp_path: Path) -> None:
    """`move` keeps the source's publisher; onto another registrable domain it warns that
    the other site's words would count as the vendor's, and how to say whose they are."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        "ledger: 1\ntitle: T\ndate_read: 2026-08-23\nsections: [{id: main, title: Main}]\n"
        "sources:\n  guide: {url: 'https://docs.vendor.example/guide', title: Guide, "
        "kind: docs, publisher: vendor.example}\nclaims: []\n",
        encoding="utf-8",
    )
    cli = Cli(ledger)

    same = cli("move", "guide", "https://www.vendor.example/guide")
    other = cli("move", "guide", "https://blog.other.example/guide")

    assert "warning" not in same.stderr
    said = " ".join(other.stderr.split())
    assert "now on another publisher's site (other.example)" in said
    assert "claimledger source guide --publisher other.example" in said
    cli("move", "guide", "https://docs.vendor.example/guide")
    cli("source", "guide", "--publisher", "Other.example")  # the author said whose it is
    again = cli("move", "guide", "https://blog.other.example/guide")
    assert "warning" not in again.stderr


def test_the_reason_a_page_was_not_read_reaches_the_report_without_its_secrets(
    cli: Cli, page_server: PageServer
) -> None:
    """The report gives the reason the refresh gave, with any address in it redacted as
    everywhere else (a sign-in page's address may carry a token)."""
    serve_v1(page_server)
    page_server.set_page("/login", SIGN_IN_PAGE)
    page_server.set_handler("/other", redirect("/login?next=/other&token=s3cr3tvalue", 302))
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    report = json.loads(cli("render", "-f", "json", "-o", "-").stdout)

    label = next(s["label"] for s in report["sources"] if s["id"] == "other")
    assert "a sign-in page, not the page asked" in label
    assert "s3cr3tvalue" not in label and "token=REDACTED" in label


@pytest.mark.parametrize("status", [301, 302])
@pytest.mark.parametrize("path", ["/other", "/web/2/other"])  # a docs path, no capture's
def test_a_page_sent_on_to_a_web_archives_copy_leaves_its_quotes_unread(
    cli: Cli, page_server: PageServer, system_dns: NameServer, status: int, path: str
) -> None:
    """A retired page that its site sends on to the Wayback Machine's copy, for good or
    for now, was read there as the live page: the copy's words, of the day it was taken,
    verified the quote and the gate passed (0). They say nothing of the page as it
    stands: its quotes are unread, no move to the copy is proposed, and the gate says 3."""
    for name in ("docs.vendor.test", "web.archive.org"):
        system_dns.script(name, ["127.0.0.1"], cycle=True)
    serve_v1(page_server)
    live = page_server.url(path, host="docs.vendor.test")
    capture = f"/web/20200101000000/{live}"
    page_server.set_page(capture, page(ALARM))
    page_server.set_handler(path, redirect(page_server.url(capture, "web.archive.org"), status))
    text = cli.ledger.read_text(encoding="utf-8")
    cli.ledger.write_text(text.replace(page_server.url("/other"), live), encoding="utf-8")

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    other = other_source(cli)
    assert (other["source_status"], other["moved_to"]) == ("unreadable", None)
    assert "a web archive's copy of it, not the page asked" in other["error"]
    assert (alarms_row(cli)["verified"], alarms_row(cli)["unread"]) == (0, 1)
    gate = " ".join(cli("regrade", "--check", code=3).stderr.split())
    assert f"source other ({live}) could not be read (unreadable: redirected to" in gate


@pytest.mark.parametrize(
    ("where", "status"),
    [("/web/*/{live}", 301), ("/web/2020*/{live}", 302), ("/", 302)],  # calendars, home
)
def test_a_page_sent_on_to_another_page_of_the_web_archive_leaves_its_quotes_unread(
    cli: Cli, page_server: PageServer, system_dns: NameServer, where: str, status: int
) -> None:
    """A retired page its site sends on to the Wayback Machine's calendar of its captures,
    or to the archive's home page, was read there as a page of its own: the archive's
    words, the quote missing (the gate said 1), and a redirect for good proposed as a
    move to the calendar. They are the archive's, no evidence of the page as it stands,
    as its capture's are: its quotes are unread, no move is proposed, the gate says 3."""
    for name in ("docs.vendor.test", "web.archive.org"):
        system_dns.script(name, ["127.0.0.1"], cycle=True)
    serve_v1(page_server)
    live = page_server.url("/other", host="docs.vendor.test")
    archive_page = where.format(live=live)
    page_server.set_page(archive_page, page("Search the Wayback Machine for its captures."))
    page_server.set_handler(
        "/other", redirect(page_server.url(archive_page, "web.archive.org"), status)
    )
    text = cli.ledger.read_text(encoding="utf-8")
    cli.ledger.write_text(text.replace(page_server.url("/other"), live), encoding="utf-8")

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    other = other_source(cli)
    assert (other["source_status"], other["moved_to"]) == ("unreadable", None), other
    assert "a web archive's page of its own, not the page asked" in other["error"]
    assert (alarms_row(cli)["missing"], alarms_row(cli)["unread"]) == (0, 1)
    cli("regrade", "--check", code=3)


@pytest.mark.parametrize("prefix", ["", "/web.archive.org"])
def test_a_capture_cited_as_a_source_is_read_through_a_mirror_of_the_archive(
    cli: Cli, page_server: PageServer, system_dns: NameServer, prefix: str
) -> None:
    """A source that is itself the Wayback Machine's capture, read through `--map` from a
    mirror of the archive (at its root, or below a folder of its own), which passes on the
    archive's redirect to the capture's exact timestamp: the address asked was the
    mirror's, no address of the archive's, so the capture was taken for a live page sent
    on to its copy, and left unread. It is the archive's own redirect, and is read."""
    for name in ("mirror.test", "web.archive.org"):
        system_dns.script(name, ["127.0.0.1"], cycle=True)
    serve_v1(page_server)
    live = "https://docs.vendor.test/other"
    exact = f"/web/20200101000000/{live}"
    page_server.set_page(exact, page(ALARM))
    mirrored = page_server.url(exact, "web.archive.org")  # the archive's Location, as sent
    page_server.set_handler(f"{prefix}/web/2020/{live}", redirect(mirrored, 302))
    text = cli.ledger.read_text(encoding="utf-8")
    source = f"https://web.archive.org/web/2020/{live}"
    cli.ledger.write_text(text.replace(page_server.url("/other"), source), encoding="utf-8")
    mirror = f"https://web.archive.org={page_server.url(prefix, 'mirror.test')}"

    cli("refresh", "--map", mirror, "--allow-private", "--no-as-read", "--no-history", code=0)

    report = cli.json("status")
    other = next(s for s in report["sources"] if s["source_id"] == "other")
    assert (other["source_status"], other["error"]) == ("ok", None), other
    alarms = next(row for row in report["claims"] if row["claim_id"] == "alarms")
    assert (alarms["verified"], alarms["unread"]) == (1, 0)


def test_a_page_moved_for_good_to_one_named_login_is_a_move(
    cli: Cli, page_server: PageServer
) -> None:
    """A docs page may document a `login` command: a permanent move to it is read there
    (only a query sending the reader back makes a moved-to page a sign-in page)."""
    serve_v1(page_server)
    page_server.set_handler("/other", redirect("/cli/login", 301))
    page_server.set_page("/cli/login", page(ALARM))

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)  # 1: it moved

    assert other_source(cli)["source_status"] == "moved"
    assert (alarms_row(cli)["verified"], alarms_row(cli)["unread"]) == (1, 0)


@pytest.mark.parametrize(
    ("asked", "hops", "read", "code"),
    [
        # the page itself, however the site spells its address or a version's prefix
        ("/docs/cli/login", [("/docs/cli/login", "/docs/cli/login/", 301)], True, 0),
        ("/docs/cli/login", [("/docs/cli/login", "/docs/v2/cli/login", 302)], True, 0),
        ("/docs/index.html", [("/docs/index.html", "/docs/", 302)], True, 0),
        ("/docs/page", [("/docs/page", "/new/page?from=/docs/page", 301)], True, 1),
        # a move, then a sign-in page for now: the last redirect says what the page is
        ("/docs/page", [("/docs/page", "/b", 301), ("/b", "/login", 302)], False, 1),
        ("/docs/a/page", [("/docs/a/page", "/b/page", 301), ("/b/page", "/b/", 302)], False, 1),
        ("/docs/page", [("/docs/page", "/?lang=en", 302)], False, 1),  # home, for now
    ],
)  # fmt: skip
def test_what_a_redirect_chain_ends_at_is_judged_by_its_last_redirect(
    cli: Cli,
    page_server: PageServer,
    asked: str,
    hops: list[tuple[str, str, int]],
    read: bool,
    code: int,
) -> None:
    serve_v1(page_server)
    for path, location, status in hops:
        page_server.set_handler(path, redirect(location, status))
    final = hops[-1][1].split("?")[0]
    page_server.set_page(final, page(ALARM) if read else SIGN_IN_PAGE)
    cli.ledger.write_text(
        cli.ledger.read_text(encoding="utf-8").replace(
            f'{page_server.url("/other")}"', f'{page_server.url(asked)}"'
        ),
        encoding="utf-8",
    )

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=code)

    status = cli.json("status", code=code)
    row = next(row for row in status["claims"] if row["claim_id"] == "alarms")
    assert (row["verified"], row["missing"]) == ((1, 0) if read else (0, 0)), row
    assert read or "not the page asked" in other_source(cli)["error"]


@pytest.mark.parametrize("before", ["scope[]=read&", "a=(b)&", "x='y'&"])
def test_a_sign_in_pages_token_is_never_shown(
    cli: Cli, page_server: PageServer, before: str
) -> None:
    """The address a sign-in page is reached at is said redacted, whatever its query holds
    before the token (brackets, parentheses, quotes end a URL found in free text)."""
    serve_v1(page_server)
    page_server.set_page("/login", SIGN_IN_PAGE)
    location = f"/login?next=/other&{before}token=s3cr3tvalue"
    page_server.set_handler("/other", redirect(location, 302))

    done = cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)
    status = cli("status", "--json", code=1)
    report = cli("render", "-f", "json", "-o", "-")

    for text in (done.stdout, done.stderr, status.stdout, report.stdout):
        assert "s3cr3tvalue" not in text
    assert "a sign-in page, not the page asked" in other_source(cli)["error"]


@pytest.mark.parametrize(
    ("asked", "location", "moved"),
    [
        ("/docs/guide/other", "/", False),  # the site's home page
        ("/docs/guide/other", "/docs/", False),  # the section's page
        ("/docs/guide/other", "/docs/index.html", False),
        ("/docs/v2/guide/other", "/docs/v3/", False),  # a version's root of the docs
        ("/docs/config/logging", "/docs/config#logging", True),  # merged into its section's
        ("/docs/main/other", "/docs/next/other", True),  # `main`, `next`: words, no versions
    ],
)  # fmt: skip
def test_a_page_moved_for_good_only_where_its_quotes_are(
    cli: Cli, page_server: PageServer, asked: str, location: str, moved: bool
) -> None:
    """A permanent redirect to a page without the quote (a landing page) is the page gone,
    not moved there: the sitemap is searched and `move` adopts what it found; a page merged
    into its section's page, its quote there, is a move."""
    serve_v1(page_server)
    cli.ledger.write_text(
        cli.ledger.read_text(encoding="utf-8").replace(
            f'{page_server.url("/other")}"', f'{page_server.url(asked)}"'
        ),
        encoding="utf-8",
    )
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)  # not there yet
    target, new = location.split("#")[0], "/docs/reference/other"
    page_server.set_handler(asked, redirect(location, 301))
    landing = page("Welcome to the docs.", "Pick a topic to start.")
    page_server.set_page(target, page("Intro.", ALARM) if moved else landing)
    page_server.set_page(new, page(ALARM))
    sitemap = f"Sitemap: {page_server.url('/sitemap.txt')}\n"
    page_server.set_page("/robots.txt", sitemap, content_type="text/plain")
    listed = "\n".join(page_server.url(path) for path in (target, new))
    page_server.set_page("/sitemap.txt", listed, content_type="text/plain")

    done = cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    other = other_source(cli)
    if moved:
        moved_to = page_server.url(location)  # with the fragment the server named
        assert (other["source_status"], other["moved_to"]) == ("moved", moved_to)
        assert alarms_row(cli)["verified"] == 1
    else:
        assert (other["source_status"], other["moved_to"]) == ("gone", None), other
        assert "the page is gone" in other["error"]
        assert f"found at {page_server.url(new)}" in done.stdout
        assert alarms_row(cli)["missing"] == 1
        report = " ".join(cli("render", "-o", "-", "--format", "md").stdout.split())
        assert "page gone (redirected for good to a page without its quotes)" in report
        assert "(HTTP 200)" not in report  # a page that is there, as it read
    adopted = cli("move", "other").stdout
    assert f"-> {page_server.url(target if moved else new)}" in adopted


def test_a_page_moved_as_deep_and_rewritten_is_moved_its_quote_missing_there(
    cli: Cli, page_server: PageServer
) -> None:
    """Only a page higher in the site (the home page, a section's, a version's root) is a
    landing page: one moved to an address as deep and rewritten past its quote was called
    gone, its new address lost from `move` and its closest wording from the evidence."""
    serve_v1(page_server)
    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=0)
    page_server.set_handler("/other", redirect("/v2/other", 301))
    page_server.set_page("/v2/other", page("Alarms are delivered on a best-effort basis."))

    cli("refresh", "--allow-private", "--no-as-read", "--no-history", code=1)

    assert other_source(cli)["source_status"] == "moved"
    assert alarms_row(cli)["missing"] == 1
    assert f"-> {page_server.url('/v2/other')}" in cli("move", "other").stdout


@pytest.mark.parametrize("claims", [("ordered",), ("ordered",) * 5], ids=["once", "five-times"])
def test_a_refresh_of_some_claims_judges_no_move_on_the_quotes_it_did_not_read(
    cli: Cli, page_server: PageServer, claims: tuple[str, ...]
) -> None:
    """A page two claims quote, merged into its section's page with one claim's quote: a
    refresh of the other claim alone called it gone, and the next full refresh moved (one
    claim named five times has as many checks as the whole ledger here)."""
    serve_v1(page_server)
    text = cli.ledger.read_text(encoding="utf-8")
    guide = page_server.url("/docs/config/guide")
    cli.ledger.write_text(text.replace(f'{page_server.url("/guide")}"', f'{guide}"'), "utf-8")
    page_server.set_handler("/docs/config/guide", redirect("/docs/config", 301))
    page_server.set_page("/docs/config", page(DURABLE))

    cli("refresh", *claims, "--allow-private", "--no-as-read", "--no-history", code=1)

    guide = next(s for s in cli.json("status", code=1)["sources"] if s["source_id"] == "guide")
    assert guide["source_status"] == "moved"
