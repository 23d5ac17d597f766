"""A teardown of a fictional message queue's docs, written from scratch with the command
line as a new user writes one, then read again after the vendor changed its pages: a
number, a cipher, a deleted sentence, a moved page, a page that now answers 403, one that
answers 503 and a status site whose name no longer resolves.

Everything runs through the real commands against a real loopback site, mapped from the
vendor's own addresses (docs.acmequeue.example, www.acmequeue.example/blog) by the
workspace's claimledger.toml; what the report then says is read from its Markdown and
its HTML.
"""

from __future__ import annotations

import re
from datetime import date
from pathlib import Path

import lxml.etree
import lxml.html
import pytest

from cli_runner import Cli, claimledger
from dns_server import NameServer
from evidence_site import page
from webserver import PageServer

DOCS = "https://docs.acmequeue.example"
BLOG = "https://www.acmequeue.example/blog"
STATUS = "https://status.acmequeue.invalid"

SIZE, SMALLER = "A message may be up to 256 KB.", "A message may be up to 128 KB."
CIPHER, WEAKER = (
    "Data at rest is encrypted with AES-256.",
    "Data at rest is encrypted with AES-128.",
)
ORDER = "Messages from one producer are delivered in order."
ACKS = "A message is redelivered until a consumer acknowledges it."
RETENTION = "Unacknowledged messages are kept for 14 days."
FENCED = "A partition has exactly one leader at a time."
UPTIME = "The service is available 99.95% of the time."

FINDING = re.compile(r"^- \*\*(\d+) (.*?):\*\* (.*)\.$")
CLAIMS_SAID = re.compile(r"(?:\bon|\bof|, quoted by) (\d+) claims?\b")


@pytest.fixture
def vendor(page_server: PageServer) -> PageServer:
    """The vendor's docs and blog as they read on the day of reading."""
    page_server.set_page("/docs/limits", page("Limits.", SIZE))
    page_server.set_page("/docs/security", page("Security.", CIPHER))
    page_server.set_page("/docs/delivery", page("Delivery.", ORDER, ACKS, RETENTION))
    page_server.set_page("/docs/leaders", page("Leaders.", FENCED))
    page_server.set_page("/blog/ordering", page("How we built ordering.", ORDER))
    page_server.set_page("/docs/sla", page("SLA.", UPTIME))
    page_server.set_page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    return page_server


def change_the_pages(site: PageServer) -> None:
    """Months later: a number and a cipher changed, a sentence deleted, a page moved, one
    page closed to crawlers and one failing."""
    site.set_page("/docs/limits", page("Limits.", SMALLER))
    site.set_page("/docs/security", page("Security.", WEAKER))
    site.set_page("/docs/delivery", page("Delivery.", ORDER, ACKS))
    site.set_page("/docs/leaders", "", status=301, headers={"Location": f"{DOCS}/concepts/leaders"})
    site.set_page("/docs/concepts/leaders", page("Leaders.", FENCED))
    site.set_page("/blog/ordering", "Forbidden", status=403)
    site.set_page("/docs/sla", "Service Unavailable", status=503, headers={"Retry-After": "0"})


@pytest.fixture
def teardown(tmp_path: Path, vendor: PageServer, system_dns: NameServer) -> Cli:
    """The teardown written from scratch: init, its title and subject set, the scaffold's
    example taken out, the workspace's map trusted, then one `add` a claim, each quote
    verified on its pages before it is written."""
    claimledger("init", str(tmp_path), "--author", "Ada Reviewer")
    (tmp_path / "claimledger.toml").write_text(
        f'allow_private = true\nmap = ["{DOCS}/={vendor.url("/docs/")}", '
        f'"{BLOG}/={vendor.url("/blog/")}"]\n',
        encoding="utf-8",
    )
    cli = Cli(tmp_path / "claims.yaml")
    cli("trust")
    cli("set", "title", "What AcmeQueue's documentation promises")
    cli("set", "subject", "AcmeQueue, a hosted message queue")
    scaffold = load_first_claim(cli)
    cli("remove", scaffold)
    for claim, url, quote in [
        ("message-size", f"{DOCS}/limits", SIZE),
        ("encryption", f"{DOCS}/security", CIPHER),
        ("retention", f"{DOCS}/delivery", RETENTION),
        ("one-leader", f"{DOCS}/leaders", FENCED),
        ("availability", f"{DOCS}/sla", UPTIME),
    ]:
        cli("add", claim, "--url", url, "--quote", quote, "--title", quote.rstrip("."))
    cli("add", "ordering", "--url", f"{DOCS}/delivery", "--url", f"{BLOG}/ordering",
        "--quote", ORDER, "--title", "Ordered per producer")  # fmt: skip
    cli("source", "rfc2119", "--remove")  # the scaffold's page, now that others are cited
    text = cli.ledger.read_text(encoding="utf-8")  # the status site, cited by hand
    status = f'  status: {{url: "{STATUS}/", title: Status, kind: docs, publisher: x.invalid}}\n'
    text = text.replace("sources:\n", f"sources:\n{status}", 1)
    cli.ledger.write_text(text.replace("sources: [sla]", "sources: [sla, status]"), "utf-8")
    return cli


def load_first_claim(cli: Cli) -> str:
    from claimledger.ledger.file import load

    return load(cli.ledger).claims[0].id


def test_the_report_tells_what_the_evidence_says_and_no_more(
    teardown: Cli, vendor: PageServer, system_dns: NameServer
) -> None:
    cli = teardown
    cli("refresh", "--no-as-read", code=1)  # the status site never resolved
    report = cli("render", "-o", "-").stdout
    ordering = block(report, "### Ordered per producer")
    assert "cross-checked on 2 sources of one publisher, acmequeue.example" in ordering
    # the docs and the blog are one publisher: counted once, as the grade line says
    assert "2 independent" not in ordering and "independent sources" not in ordering
    assert "cross-checked on 2 sources, 1 independent, verified" in ordering
    assert "\nOrdered per producer.\n" not in ordering  # a statement that is the title again

    change_the_pages(vendor)
    cli("refresh", "--no-as-read", code=1)
    gate = cli("regrade", "--check", code=1)  # drift found, and three pages unread said
    causes = unread_causes(gate.stderr)
    assert sorted(causes) == ["ordering", "sla", "status"]  # one line a page, its cause said
    assert causes["ordering"] == "refused: HTTP 403 Forbidden"
    assert causes["sla"].startswith("unreachable: HTTP 503 Service Unavailable; gave up after")
    assert causes["status"].startswith("unreachable: cannot resolve status.acmequeue.invalid")

    cli("regrade", "--write", code=0)
    refused = cli("accept", "--all-drifted", code=1)
    assert "changed its meaning" in refused.stderr  # AES-256 -> AES-128 is never adopted blind
    cli("accept", "message-size", "--even-if-meaning-changed", code=0)
    cli("move", "leaders")
    cli("refresh", "--no-as-read", code=1)

    proposals = cli.json("regrade", code=1)["proposals"]
    assert not [p for p in proposals if raises(p)]  # nothing laundered upward, AES least of all
    assert grades_of(cli, "encryption") == ["UNKNOWN"]

    markdown = cli("render", "-o", "-").stdout
    html = cli("render", "-f", "html", "-o", "-").stdout
    text = html_text(html)

    size_claim = block(markdown, "### A message may be up to 256 KB")
    assert "**Needs review:**" in size_claim and "the claim itself says “256”" in size_claim
    assert "the claim itself says “256”" in text
    for said in (markdown, text):
        assert not harmless_lines_naming(said, "A message may be up to 256 KB")
        assert not harmless_lines_naming(said, "Data at rest is encrypted with AES-256")
    changed = block(markdown, "## What changed since the last render")
    assert "quote reworded, its meaning changed: “256” → “128” (number changed)" in changed

    findings = block(markdown, "## Findings")
    assert "claim needs review" in findings
    assert "quote reworded so that its meaning changed:** [Data at rest" in findings
    assert "quote no longer on its page:** [Unacknowledged messages" in findings
    assert "3 pages that could not be read, quoted by 2 claims" in findings
    moved = (
        f"page moved on {date.today().isoformat()} from https\\://docs.acmequeue.example/leaders"
    )
    assert f"{moved}, the move adopted" in findings  # (the address escaped, so no link)
    assert_counts_match_links(markdown, html)

    churn = block(markdown, "## Documentation churn")
    assert "moved on" in churn and "docs.acmequeue.example/leaders" in churn
    leader = block(markdown, "### A partition has exactly one leader at a time")
    assert "page leaders moved from https\\://docs.acmequeue.example/leaders to" in leader
    questions = block(markdown, "## Open questions")
    assert "(withdrawn: the page no longer says what was quoted)" in questions
    assert "(in review: a wording adopted since the reading changed" in questions

    ids = [
        str(element.get("id")) for element in lxml.html.fromstring(html).iter() if element.get("id")
    ]
    assert len(ids) == len(set(ids))
    assert "by add" not in markdown and "by person" not in markdown
    assert "recorded:" not in markdown and "by Ada Reviewer" in markdown

    cli("regrade", "--write", code=1)  # written; the claim in review stays pending
    cli("review", "message-size", "--confirm", "--because", "128 KB is still enough for us")
    restored = cli.json("regrade", code=1)["proposals"]  # confirmed: its grade may come back
    assert [(p["claim_id"], p["rule"]) for p in restored] == [("message-size", "quotes-restored")]
    cli("regrade", "--write", code=0)
    closed = cli("regrade", "--check", "--no-artifacts", code=3)  # nothing drifts: still unread
    assert set(unread_causes(closed.stderr)) == {"ordering", "sla", "status"}  # one a cause

    after = cli("render", "-o", "-").stdout
    confirmed = block(after, "### A message may be up to 256 KB")
    assert "confirmed as it stands after its evidence changed meaning: 128 KB" in confirmed
    assert "**Needs review:**" not in confirmed
    assert not harmless_lines_naming(after, "A message may be up to 256 KB")
    assert_counts_match_links(after, cli("render", "-f", "html", "-o", "-").stdout)


def raises(proposal: dict[str, str]) -> bool:
    order = ["UNKNOWN", "SPECULATIVE", "CLAIMED", "DEMONSTRATED"]
    return order.index(proposal["to_grade"]) > order.index(proposal["from_grade"])


def grades_of(cli: Cli, claim_id: str) -> list[str]:
    from claimledger.ledger.file import load

    return [str(facet.grade) for facet in load(cli.ledger).claim(claim_id).grades]


def unread_causes(stderr: str) -> dict[str, str]:
    """Each source the gate says could not be read, and the cause it gives."""
    found = re.findall(r"^source (\S+) \(\S+\) could not be read \((.*)\): nothing", stderr, re.M)
    assert len(dict(found)) == len(found)  # one line a source
    return dict(found)


def harmless_lines_naming(text: str, title: str) -> list[str]:
    """The lines that call something harmless, or a rewording that kept its meaning, and
    name the claim titled `title`."""
    kept = ("harmless", "meaning kept", "keeps the meaning", "Reworded and adopted")
    return [line for line in text.splitlines() if title in line and any(k in line for k in kept)]


def assert_counts_match_links(markdown: str, html: str) -> None:
    """Each finding's number is the count of the claims it links, or it says how many
    claims it links; in the Markdown and in the HTML alike."""
    lines = [found.groups() for line in markdown.splitlines() if (found := FINDING.match(line))]
    assert lines
    for count, said, listed in lines:
        links = len(re.findall(r"\]\(#claim-", listed))
        claims = CLAIMS_SAID.search(said)
        assert links == (int(claims.group(1)) if claims else int(count)), said
    items = lxml.html.fromstring(html).cssselect("ul.findings > li")
    assert len(items) == len(lines)
    for item, (count, _, _) in zip(items, lines, strict=True):
        strong = item.find("strong")
        assert strong is not None
        said = "".join(str(piece) for piece in strong.itertext())
        assert said.startswith(f"{count} "), said
        named = CLAIMS_SAID.search(said)
        assert len(item.findall("a")) == (int(named.group(1)) if named else int(count)), said


def html_text(html: str) -> str:
    """The HTML's text, a line a block, as a reader sees it."""
    tree = lxml.html.fromstring(html)
    lxml.etree.strip_elements(tree, "script", "style", with_tail=False)  # not what is read
    for element in tree.iter("li", "p", "h2", "h3", "blockquote"):
        element.tail = f"\n{element.tail or ''}"
    return "".join(str(piece) for piece in tree.itertext())


def block(markdown: str, heading: str) -> str:
    """The text under `heading`, up to the next heading of any level."""
    return re.split(r"\n#{1,6} ", markdown.split(heading, 1)[1], maxsplit=1)[0]
