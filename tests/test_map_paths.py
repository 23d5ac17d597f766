"""A `--map` prefix takes a page by what its address means, never by how it is spelt: its
path with `.` and `..` resolved, as the client resolves them before it asks, and an
escaped letter or digit read as itself (`/v%31/` is `/v1/`). A page whose path leaves the
prefix's folder is read where it is, or at the mirror of the rule that does hold it."""

from __future__ import annotations

import pytest

from cli_runner import claimledger
from dns_server import NameServer
from evidence_site import DURABLE, page
from webserver import PageServer

SITE = "https://docs.example"
UNREACHABLE = "not checked: source unreachable"


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
