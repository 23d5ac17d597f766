"""robots.txt as our user agent reads it: the rules that apply to us, the same as the
whole file gives, in time in step with its size (`web.robots.as_we_read_it`).

protego copies a group's every rule to each agent the group names; a file of thousands of
agents over thousands of rules cost the square of its size. Every User-agent line that
cannot be ours is renamed to one agent that cannot match us: a differential test holds
protego's answers for us on the renamed file to its answers on the file as served.
"""

from __future__ import annotations

import random

import pytest
from protego import Protego

from claimledger.records import FetchPolicy
from claimledger.web.robots import as_we_read_it
from webserver import PageServer

OURS = FetchPolicy().user_agent

AGENTS = [
    "*", "claimledger", "ClaimLedger", "claimledger/0.1.0", "claim*ledger", "claim", "ledger",
    "otherbot", "bot", "b*o*t", "googlebot", "github.com", "com", "0.1.0", "**", "+https",
    "xclaimledger", "claimledgers",
]  # fmt: skip
"""Agents a site may name: ours in whole or in part, at a word's start or not, with
wildcards protego drops, and others."""

FIELDS = ["User-agent:", "user-agent:", "USER-AGENT :", "Useragent:", "User agent:",
          "User-agent", "User  agent:", "u\u017fer-agent:"]  # fmt: skip
"""The forms protego reads a User-agent line in, and two it does not (a long s that only
folds to an s; two spaces)."""

RULES = ["Disallow: /", "Disallow: /private", "Allow: /private/open", "Disallow: /*.pdf$",
         "Allow: /*?lang=", "Disallow:", "Crawl-delay: 3", "Crawl-delay: 7",
         "Sitemap: https://a.test/s.xml", "# a comment", "", "Disallow: /docs # why"]  # fmt: skip

PATHS = ["/", "/private", "/private/open/x", "/doc.pdf", "/doc.pdf?x", "/a?lang=en", "/docs",
         "/docs/page", "/robots.txt"]  # fmt: skip


def a_robots_txt(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(1, 6)):
        for _ in range(rng.randint(1, 4)):
            agent = rng.choice(AGENTS)
            lines.append(f"{rng.choice(FIELDS)} {agent}" + rng.choice(["", " # note", "  "]))
        lines += rng.choices(RULES, k=rng.randint(0, 5))
    return rng.choice(["\n", "\r\n", "\r"]).join(lines)


@pytest.mark.parametrize("seed", range(40))
def test_the_rules_for_us_are_those_of_the_whole_file(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(50):
        text = a_robots_txt(rng)
        served, read = Protego.parse(text), Protego.parse(as_we_read_it(text, OURS))
        for path in PATHS:
            url = f"https://a.test{path}"
            assert read.can_fetch(url, OURS) == served.can_fetch(url, OURS), (text, path)
        assert read.crawl_delay(OURS) == served.crawl_delay(OURS), text


def test_a_file_whose_agents_all_fit_us_best_is_read_as_it_is() -> None:
    text = "User-agent: claimledger\nDisallow: /private\n\nUser-agent: ClaimLedger\nAllow: /\n"
    assert as_we_read_it(text, OURS) is text


def test_an_agent_that_fits_us_less_than_another_is_renamed() -> None:
    """protego reads a robot's rules from the one agent that fits it best (its longest
    name in ours): "*" here is not ours, once "claimledger" is named."""
    text = "User-agent: *\nDisallow: /\n\nUser-agent: claimledger\nAllow: /\n"
    nobody = "User-agent: " + "x" * (len(OURS) + 1)
    assert as_we_read_it(text, OURS).splitlines()[0] == nobody


def test_thousands_of_agents_over_thousands_of_rules_keep_one_copy_of_each_rule() -> None:
    """2,000 agents that are not ours, then 2,000 rules, and us named with them: our rule
    set holds each rule once, and every other agent is one that cannot match us."""
    agents = "".join(f"User-agent: b*o*t{i}\n" for i in range(2_000))
    rules = "".join(f"Allow: /q{i}$\n" for i in range(2_000)) + "Disallow: /\n"
    text = agents + "User-agent: claimledger\n" + rules

    read = as_we_read_it(text, OURS)
    named = {line for line in read.splitlines() if line.startswith("User-agent:")}

    assert named == {"User-agent: claimledger", "User-agent: " + "x" * (len(OURS) + 1)}
    parsed = Protego.parse(read)
    assert parsed.can_fetch("https://a.test/q1999", OURS)
    assert not parsed.can_fetch("https://a.test/q1999/more", OURS)


def test_a_page_behind_a_robots_txt_of_thousands_of_agents_is_read_by_its_rules(
    page_server: PageServer,
) -> None:
    from test_fetch import PAGE, fetch_one, robots

    agents = "".join(f"User-agent: bot{i}\n" for i in range(3_000))
    text = agents + "".join(f"Disallow: /p{i}\n" for i in range(3_000))
    text += "\nUser-agent: claimledger\nDisallow: /private\n"
    page_server.set_handler("/robots.txt", robots(text))
    page_server.set_page("/p7", PAGE)
    page_server.set_page("/private/doc", PAGE)

    assert fetch_one(page_server.url("/p7")).source_status == "ok"
    blocked = fetch_one(page_server.url("/private/doc"))
    assert blocked.source_status == "refused"
    assert "blocked by robots.txt" in (blocked.error or "")
