"""A local mirror follows the site's moves: a redirect or an alias page (a meta refresh)
that names the real site's absolute address is read at the mirror too, robots.txt
included, and the ledger hears of it under the real address. A redirect to a site the
map does not name is never sent into the mirror."""

from __future__ import annotations

from pathlib import Path

import pytest

from cli_runner import Cli
from evidence_site import DURABLE, page
from webserver import PageServer

SITE = "https://docs.acmequeue.example"

LEDGER = """\
ledger: 1
title: Mirror moves
date_read: 2026-08-23
sections:
  - {{id: main, title: Main}}
sources:
  alias: {{url: "{site}/old/", title: Old, kind: docs, publisher: acmequeue.example}}
  redirected: {{url: "{site}/moved", title: Moved, kind: docs, publisher: acmequeue.example}}
  elsewhere: {{url: "{site}/away", title: Away, kind: docs, publisher: acmequeue.example}}
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - text: "{quote}"
        sources: [alias, redirected]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
  - id: away
    section: main
    title: Away
    kind: guarantee
    statement: Writes are durable.
    quotes:
      - text: "{quote}"
        sources: [elsewhere]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


@pytest.fixture
def mirror(page_server: PageServer) -> PageServer:
    """The docs site as a static mirror serves it: Hugo's alias page for an old address,
    a 301 written with the site's own absolute address, and a canonical link to it."""
    new = f"{SITE}/new/"
    alias = f'<html><head><meta http-equiv="refresh" content="0; url={new}"></head></html>'
    page_server.set_page("/old/", alias)
    page_server.set_page("/moved", "", status=301, headers={"Location": new})
    page_server.set_page("/away", "", status=302, headers={"Location": "https://other.example/x"})
    head = f'<head><link rel="canonical" href="{new}"></head>'
    page_server.set_page("/new/", page(DURABLE).replace("<html>", f"<html>{head}"))
    page_server.set_page("/robots.txt", "User-agent: *\nAllow: /\n", content_type="text/plain")
    return page_server


def test_a_mirrors_alias_pages_and_redirects_lead_to_the_mirrors_new_page(
    tmp_path: Path, mirror: PageServer
) -> None:
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(site=SITE, quote=DURABLE), encoding="utf-8")
    cli = Cli(ledger)
    mapping = f"{SITE}/={mirror.url('/')}"
    result = cli.json("refresh", "--map", mapping, "--allow-private", "--no-as-read", code=1)

    sources = {s["url"]: s for s in result["sources"]}
    for old in (f"{SITE}/old/", f"{SITE}/moved"):
        assert sources[old]["source_status"] == "moved", sources[old]
        assert sources[old]["moved_to"] == f"{SITE}/new/"  # the ledger's side of the map
        assert sources[old]["canonical"] is None  # it names itself, as the real site does
    checks = {(c["claim_id"], c["source_id"]): c["status"] for c in result["checks"]}
    assert checks[("durable", "alias")] == checks[("durable", "redirected")] == "verified"

    assert mirror.hits("/new/") >= 1 and mirror.hits("/robots.txt") >= 1
    assert mirror.hits("/x") == 0  # the other site's address never went into the mirror
    assert sources[f"{SITE}/away"]["source_status"] != "ok"
    assert checks[("away", "elsewhere")] != "verified"
    text = cli("refresh", "--map", mapping, "--allow-private", "--no-as-read", code=1).stdout
    assert "as its canonical address" not in text


GONE = """\
ledger: 1
title: Mirror moves
date_read: 2026-08-23
sections:
  - {{id: main, title: Main}}
sources:
  gone: {{url: "{site}/docs/gone", title: Gone, kind: docs, publisher: acmequeue.example}}
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - text: "{quote}"
        sources: [gone]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


@pytest.mark.parametrize(
    ("listed", "said"),
    [
        (None, "no sitemap on {site} via its mirror {mirror} ("),
        (
            "https://other.example/docs/x",
            "1 sitemap read on {site} via its mirror {mirror}, listing no other page of the site",
        ),
    ],
    ids=["no-sitemap", "a-sitemap-of-another-site"],
)
def test_the_search_for_a_page_gone_names_the_site_the_ledger_cites_not_only_its_mirror(
    tmp_path: Path, mirror: PageServer, listed: str | None, said: str
) -> None:
    """A page gone from a site read through `--map` was said to have "no sitemap on
    http://127.0.0.1:…", an address the reader never cited: the note names the site, and
    the mirror it was read at after it."""
    if listed is not None:
        urlset = f"<urlset><url><loc>{listed}</loc></url></urlset>"
        mirror.set_page("/sitemap.xml", urlset, content_type="application/xml")
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(GONE.format(site=SITE, quote=DURABLE), encoding="utf-8")
    cli = Cli(ledger)
    mapping = f"{SITE}/={mirror.url('/')}"

    refreshed = cli("refresh", "--map", mapping, "--allow-private", "--no-as-read", code=1)
    (relocation,) = cli.json("status", code=1)["relocations"]

    note = said.format(site=SITE, mirror=mirror.url(""))
    assert note in relocation["note"], relocation["note"]
    assert note in " ".join(refreshed.stdout.split())
