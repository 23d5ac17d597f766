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

FINDING = re.compile(r"^- \*\*(\d+) (.*?)(?: \((?:quoted by )?(\d+) claims?\))?:\*\* (.*)\.$")


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
    """The teardown written from scratch: init, the workspace's map trusted, then one
    `add` a claim, each quote verified on its pages before it is written."""
    claimledger("init", str(tmp_path), "--author", "Ada Reviewer")
    (tmp_path / "claimledger.toml").write_text(
        f'allow_private = true\nmap = ["{DOCS}/={vendor.url("/docs/")}", '
        f'"{BLOG}/={vendor.url("/blog/")}"]\n',
        encoding="utf-8",
    )
    cli = Cli(tmp_path / "claims.yaml")
    cli("trust")
    cli("remove", load_first_claim(cli))  # the scaffold's example claim
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
    assert "independent" not in ordering  # the docs and the blog are one publisher

    change_the_pages(vendor)
    cli("refresh", "--no-as-read", code=1)
    gate = cli("regrade", "--check", code=1)  # drift found, and three pages unread said
    unread = sorted(line for line in gate.stderr.splitlines() if "could not be read" in line)
    assert [line.split()[1] for line in unread] == ["ordering", "sla", "status"]  # one a cause

    cli("regrade", "--write", code=0)
    refused = cli("accept", "--all-drifted", code=1)
    assert "changed its meaning" in refused.stderr  # AES-256 -> AES-128 is never adopted blind
    cli("accept", "message-size", "--even-if-meaning-changed", code=0)
    cli("move", "leaders")
    cli("refresh", "--no-as-read", code=1)

    proposals = cli.json("regrade", code=1)["proposals"]
    raised = [p for p in proposals if p["claim_id"] in ("encryption", "message-size")]
    assert all(p["to_grade"] != "DEMONSTRATED" for p in raised)  # nothing laundered upward

    markdown = cli("render", "-o", "-").stdout
    size_claim = block(markdown, "### A message may be up to 256 KB")
    assert "**Needs review:**" in size_claim and "“256”" in size_claim
    findings = block(markdown, "## Findings")
    assert "harmless rewording adopted" not in findings
    assert "claim needs review" in findings
    moved = (
        f"page moved on {date.today().isoformat()} from https\\://docs.acmequeue.example/leaders"
    )
    assert f"{moved}, the move adopted" in findings  # (the address escaped, so no link)
    churn = block(markdown, "## Documentation churn")
    assert "moved on" in churn and "docs.acmequeue.example/leaders" in churn
    for line in findings.splitlines():
        found = FINDING.match(line)
        if found is None:
            continue
        count, _, claims, listed = found.groups()
        links = len(re.findall(r"\]\(#claim-", listed))
        assert links == int(claims or count), line

    html = cli("render", "-f", "html", "-o", "-").stdout
    tree = lxml.html.fromstring(html)
    ids = [str(element.get("id")) for element in tree.iter() if element.get("id")]
    assert len(ids) == len(set(ids))
    assert "Needs review:" in "".join(str(piece) for piece in tree.itertext())
    assert "by add" not in markdown and "by person" not in markdown
    assert "by Ada Reviewer" in markdown

    cli("regrade", "--write", code=1)  # written; the claim in review stays pending
    cli("review", "message-size", "--confirm", "--because", "128 KB is still enough for us")
    restored = cli.json("regrade", code=1)["proposals"]  # confirmed: its grade may come back
    assert [(p["claim_id"], p["rule"]) for p in restored] == [("message-size", "quotes-restored")]
    cli("regrade", "--write", code=0)
    closed = cli("regrade", "--check", "--no-artifacts", code=3)  # nothing drifts: still unread
    assert len([ln for ln in closed.stderr.splitlines() if "could not be read" in ln]) == 3


def block(markdown: str, heading: str) -> str:
    """The text under `heading`, up to the next heading of any level."""
    return re.split(r"\n#{1,6} ", markdown.split(heading, 1)[1], maxsplit=1)[0]
