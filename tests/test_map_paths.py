"""A `--map` prefix takes a page by what its address means, never by how it is spelt: its
path with `.` and `..` resolved, as the client resolves them before it asks, and an
escaped letter or digit read as itself (`/v%31/` is `/v1/`). A page whose path leaves the
prefix's folder is read where it is, or at the mirror of the rule that does hold it."""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.urls import UrlMap
from cli_runner import Cli, claimledger
from dns_server import NameServer
from evidence_site import DURABLE, page
from webserver import PageServer

SITE = "https://docs.example"
UNREACHABLE = "not checked: source unreachable"

LEDGER = """\
ledger: 1
title: Mirrored pages
date_read: 2026-08-23
sections:
  - {{id: main, title: Main}}
sources:
  guide: {{url: "{site}/guide", title: Guide, kind: docs, publisher: docs.example}}
  old: {{url: "{site}/old", title: Old, kind: docs, publisher: docs.example}}
claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - text: "{quote}"
        sources: [guide, old]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


@pytest.mark.parametrize(
    ("url", "rules", "read_at"),
    [
        pytest.param(
            f"{SITE}/v1/../v2/guide", [f"{SITE}/v1=/copy/v1"], None, id="dot-dot-leaves-the-prefix"
        ),
        pytest.param(
            f"{SITE}/v1/%2e%2E/v2/guide",
            [f"{SITE}/v1=/copy/v1"],
            None,
            id="escaped-dot-dot-leaves-the-prefix",
        ),
        pytest.param(
            f"{SITE}/v1/../v2/guide",
            [f"{SITE}/v1=/copy/v1", f"{SITE}/=/all/"],
            "/all/v2/guide",
            id="dot-dot-into-another-rule",
        ),
        pytest.param(
            f"{SITE}/v1/./a/../guide", [f"{SITE}/v1=/copy/v1"], "/copy/v1/guide", id="dot-stays"
        ),
        pytest.param(
            f"{SITE}/v%31/guide", [f"{SITE}/v1=/copy/v1"], "/copy/v1/guide", id="escaped-page"
        ),
        pytest.param(
            f"{SITE}/v1/guide", [f"{SITE}/v%31=/copy/v1"], "/copy/v1/guide", id="escaped-prefix"
        ),
    ],
)
def test_a_prefix_takes_a_page_by_what_its_path_means(
    page_server: PageServer,
    system_dns: NameServer,
    url: str,
    rules: list[str],
    read_at: str | None,
) -> None:
    """The mirror's copy of v1 holds a page where `/v1/../v2/guide`, read as text, would
    send it (`/copy/v1/../v2/guide`, which the client asks as `/copy/v2/guide`): it is no
    copy of v2's guide, so it is never read as it. Where the page is under a rule, it is
    read at that rule's mirror and verified, however its path is spelt."""
    for path in ("/copy/v2/guide", "/copy/v1/guide", "/all/v2/guide"):
        page_server.set_page(path, page(DURABLE))
    mapping = [f"--map={rule.replace('=', '=' + page_server.url(''), 1)}" for rule in rules]

    said = claimledger(
        "verify", "--allow-private", url, DURABLE, *mapping, code=0 if read_at else 1
    )

    pages = [request.path for request in page_server.page_requests]
    if read_at is None:
        assert UNREACHABLE in said.stdout
        assert pages == []
        assert system_dns.asked("docs.example") >= 1
    else:
        assert UNREACHABLE not in said.stdout
        assert pages == [read_at]
        assert system_dns.asked("docs.example") == 0


@pytest.mark.parametrize(
    ("prefix", "mirror"),
    [
        pytest.param(f"{SITE}/", "", id="mirror-without-its-slash"),
        pytest.param(SITE, "/copy/", id="prefix-without-its-slash"),
        pytest.param(f"{SITE}/", "/copy", id="folder-without-its-slash"),
    ],
)
def test_a_prefix_and_its_mirror_meet_at_one_slash_whichever_writes_it(
    tmp_path: Path, page_server: PageServer, system_dns: NameServer, prefix: str, mirror: str
) -> None:
    """`https://docs.example/=http://127.0.0.1:8000` read `/guide` at the port `8000guide`,
    and `https://docs.example=…/copy/` at `/copy//guide`; a move the mirror names is named
    back on the site at one slash too (not `https://docs.examplenew`)."""
    copy = mirror.rstrip("/")
    page_server.set_page(f"{copy}/guide", page(DURABLE))
    page_server.set_page(f"{copy}/old", "", status=301, headers={"Location": f"{copy}/new"})
    page_server.set_page(f"{copy}/new", page(DURABLE))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(site=SITE, quote=DURABLE), encoding="utf-8")
    rule = f"{prefix}={page_server.url(mirror)}"

    report = Cli(ledger).json("refresh", "--allow-private", "--no-as-read", "--map", rule, code=1)

    sources = {source["url"]: source for source in report["sources"]}
    assert sources[f"{SITE}/guide"]["source_status"] == "ok"
    assert sources[f"{SITE}/old"]["source_status"] == "moved"
    assert sources[f"{SITE}/old"]["moved_to"] == f"{SITE}/new"
    assert sorted(r.path for r in page_server.page_requests) == [
        f"{copy}/guide",
        f"{copy}/new",
        f"{copy}/old",
    ]
    assert system_dns.asked("docs.example") == 0


@pytest.mark.parametrize(
    ("url", "read_at"),
    [
        (f"{SITE}/limits/", "http://mirror.test/limits"),
        (f"{SITE}/limits/?tab=2", "http://mirror.test/limits?tab=2"),
        (f"{SITE}/limits/a", "http://mirror.test/limits/a"),
        (f"{SITE}/limits", None),
    ],
)
def test_a_folder_s_own_page_is_read_at_its_mirror_as_written(
    url: str, read_at: str | None
) -> None:
    """`…/limits/=…/limits`: the folder's page is the mirror's page as the rule writes it,
    a page in it is the mirror's page of that name, at one slash."""
    mirrored = UrlMap.parse([f"{SITE}/limits/=http://mirror.test/limits"]).apply(url)
    assert mirrored == (read_at or url)


@pytest.mark.parametrize(
    ("prefix", "url", "read_at"),
    [
        (f"{SITE}/v1#top", f"{SITE}/v1#top", "/v1.html"),
        (f"{SITE}/v1#top", f"{SITE}/v1#top/guide", None),
        (f"{SITE}/v1#top", f"{SITE}/v1", None),
        (f"{SITE}/page?print", f"{SITE}/page?print", "/v1.html"),
        (f"{SITE}/page?print", f"{SITE}/page?print#L2", "/v1.html#L2"),
        (f"{SITE}/page?print", f"{SITE}/page?print/guide", None),
        (f"{SITE}/page?print", f"{SITE}/page?printing", None),
    ],
)
def test_a_prefix_with_a_query_or_a_fragment_takes_that_one_page(
    prefix: str, url: str, read_at: str | None
) -> None:
    """A fragment never reaches a server, and a query names no folder: `…/v1#top/guide` is
    the page `/v1`, which a mirror's `/v1.html/guide` is not."""
    mirrored = UrlMap.parse([f"{prefix}=http://mirror.test/v1.html"]).apply(url)
    assert mirrored == (f"http://mirror.test{read_at}" if read_at else url)


@pytest.mark.parametrize(
    ("prefix", "mirror", "location", "moved_to"),
    [
        pytest.param(f"{SITE}/v1", "/v1", "/v10/new", None, id="out-of-the-copy"),
        pytest.param(f"{SITE}/v1", "/v1", "/v1/new", f"{SITE}/v1/new", id="within-the-copy"),
        pytest.param(f"{SITE}/", "/", "/v10/new", f"{SITE}/v10/new", id="a-copy-of-the-site"),
    ],
)
def test_a_mirror_s_redirect_to_a_page_it_does_not_copy_is_no_move(
    tmp_path: Path,
    page_server: PageServer,
    system_dns: NameServer,
    prefix: str,
    mirror: str,
    location: str,
    moved_to: str | None,
) -> None:
    """The mirror of `/v1` sends `/v1/old` to its own `/v10/new`, which no rule names on
    the site: that page was read and believed, and the source said moved to the mirror's
    loopback address, which `move` wrote into the ledger. The redirect is refused, and
    nothing moves; one within what the rules copy is the move it was."""
    page_server.set_page("/v1/old", "", status=301, headers={"Location": location})
    page_server.set_page(location, page(DURABLE))
    page_server.set_page("/v1/guide", page(DURABLE))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(LEDGER.format(site=f"{SITE}/v1", quote=DURABLE), encoding="utf-8")
    cli = Cli(ledger)
    rule = f"{prefix}={page_server.url(mirror)}"

    report = cli.json("refresh", "--allow-private", "--no-as-read", "--map", rule, code=1)
    cli("move", "old", code=0 if moved_to else 2)

    (old,) = [source for source in report["sources"] if source["url"] == f"{SITE}/v1/old"]
    assert old["moved_to"] == moved_to
    if moved_to is None:
        assert old["source_status"] == "refused"
        assert f"sends it to {page_server.url(location)}, a page of the mirror" in old["error"]
        assert page_server.hits(location) == 0
        assert page_server.url("") not in ledger.read_text("utf-8")
    else:
        assert f'url: "{moved_to}"' in ledger.read_text("utf-8")
    assert system_dns.asked("docs.example") == 0
