"""robots.txt: each origin's rules, read once per run (once a day, where a memory keeps
them), and whether they let us request a URL (RFC 9309).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import re
from dataclasses import replace
from typing import Protocol

from protego import Protego

from claimledger.reading.decoding import charset_of, decode, media_type_of
from claimledger.records import FetchPolicy
from claimledger.urls import origin, redirect_refusal, resolve, site_of
from claimledger.web.exchange import Client, Outcome, Redirect, request
from claimledger.web.pacing import Gates

ROBOTS_KEPT_FOR = dt.timedelta(hours=24)
"""How long a site's robots.txt, once read, serves the runs after (RFC 9309 section 2.4: a
crawler may keep a copy, and should not use it for more than a day)."""


ROBOTS_REDIRECTS = 5
"""Redirects followed to a site's robots.txt: RFC 9309 asks for at least five."""


class RobotsMemory(Protocol):
    """The robots.txt texts read in earlier runs, by origin (the evidence store keeps them):
    a text read within `within` is used instead of asking the site again."""

    def recall(self, origin: str, within: dt.timedelta) -> str | None: ...
    def keep(self, origin: str, text: str) -> None: ...


class Robots:
    """robots.txt of each origin, read once per run and shared by every URL on it, however
    it spells its host; read once a day at most when a `memory` keeps what was read.

    RFC 9309: a robots.txt that does not exist (4xx) allows everything; a longer one than
    `max_robots_body` is read up to it (its whole lines); one the server
    cannot serve (5xx, 429, no connection) allows nothing for now, since its rules are
    unknown: the page is then reported as the robots.txt request failed (unreachable,
    refused), and asked again on the next attempt (and never kept). A Crawl-delay spaces
    the requests to that host (up to a cap).
    """

    def __init__(
        self,
        client: Client,
        policy: FetchPolicy,
        gates: Gates,
        memory: RobotsMemory | None = None,
    ) -> None:
        self._client = client
        self._policy = policy
        self._gates = gates
        self._memory = memory
        self._rules: dict[str, asyncio.Task[Protego | Outcome]] = {}

    @property
    def tasks(self) -> list[asyncio.Task[Protego | Outcome]]:
        return list(self._rules.values())

    def cancel(self) -> None:
        for task in self._rules.values():
            task.cancel()

    async def refusal(self, url: str) -> Outcome | None:
        """Why `url` may not be fetched (as an outcome to report), or None when it may."""
        if not self._policy.respect_robots:
            return None
        site, written = site_of(url) or origin(url), origin(url)
        if site not in self._rules:
            self._rules[site] = asyncio.create_task(self._load(site))
        rules = await asyncio.shield(self._rules[site])
        if isinstance(rules, Outcome):
            if rules.retryable:
                self._rules.pop(site, None)  # the next attempt asks again
            return rules
        if not rules.can_fetch(url, self._policy.user_agent):
            why = f"blocked by robots.txt ({written}/robots.txt disallows it for our user agent)"
            return Outcome(None, "refused", why)
        return None

    async def _load(self, site: str) -> Protego | Outcome:
        """The rules of `site` (`site_of`: one key for every spelling of its host), kept
        under it and read there, in the spelling its server answers to: never at the
        spelling the first page asked happens to write (`docs.example.`, which a server
        may answer as another site), so which of two pages comes first changes nothing."""
        kept = None if self._memory is None else self._memory.recall(site, ROBOTS_KEPT_FOR)
        if kept is not None:
            return self._parsed(site, kept)
        text = await self._read(site)
        if isinstance(text, Outcome):
            return text
        if self._memory is not None:
            self._memory.keep(site, text)
        return self._parsed(site, text)

    async def _read(self, origin: str) -> str | Outcome:
        """The rules as the site serves them ("" for none), or why they cannot be had."""
        url, seen = f"{origin}/robots.txt", set()
        small = replace(
            self._policy, max_body=self._policy.max_robots_body, raw=True, cut_long_body=True
        )
        for _ in range(1 + ROBOTS_REDIRECTS):  # the first answer, then each redirect
            seen.add(url)
            async with self._gates.slot(url):
                step = await request(url, self._client, {}, small)
            if isinstance(step, Redirect):
                target = resolve(url, step.location)
                if target in seen:
                    break  # a loop: as if there were none, as more than five redirects are
                refused = redirect_refusal(url, target, seen, 0, ROBOTS_REDIRECTS)
                if refused is not None:
                    return _unknown(origin, Outcome(None, "refused", refused))
                url = target
                continue
            return self._text_of(origin, step)
        return ""  # RFC 9309: past five redirects, the rules may be taken as unavailable

    @staticmethod
    def _text_of(origin: str, outcome: Outcome) -> str | Outcome:
        """The rules of a robots.txt answered whatever its Content-Type (RFC 9309 names
        none: one served as `application/octet-stream` was read as no rules at all), or
        why they are unknown: a server error, or an answer that cannot be read (a body
        that cannot be decoded, a part of one, a redirect naming no address), which says
        nothing of what the site allows. Only a 4xx says there are none."""
        status = outcome.http_status
        if outcome.body is not None:
            return decode(
                outcome.body, media_type_of(outcome.content_type), charset_of(outcome.content_type)
            )
        if status is None:  # the host itself did not answer: say why, not robots.txt
            return outcome
        if status == 429 or status >= 500 or outcome.source_status == "unreadable":
            return _unknown(origin, outcome)
        return ""  # 4xx: no rules

    def _parsed(self, origin: str, text: str) -> Protego:
        rules = Protego.parse(as_we_read_it(text, self._policy.user_agent))
        delay = rules.crawl_delay(self._policy.user_agent)
        if delay:
            self._gates.host(origin).space_at_least(min(delay, self._policy.max_crawl_delay))
        return rules


_USER_AGENT_LINE = re.compile(
    r"(?:user-agent|useragent|user agent)\s*:(.*)", re.IGNORECASE | re.ASCII
)
"""A User-agent line in its usual form, as protego reads it: the field, a colon, the value
(its other forms, and a field in letters that only fold to these, are left as they are)."""


def as_we_read_it(text: str, user_agent: str) -> str:
    """The robots.txt with every User-agent line that names no agent our `user_agent`
    answers to (or one less fitting than another that does) renamed to one agent that
    cannot be ours: the rules that apply to us are the same, read in time in step with
    the file.

    protego keeps a copy of a group's every rule for each agent the group names, so a
    group of thousands of agents over thousands of rules cost the square of its size
    (72 KB: 5 s; with wildcards 43 s). Each line stays a line, and each User-agent line a
    User-agent line, so the groups are the same; an agent renamed can never match us,
    being longer than our whole user agent; the agent protego chooses for us (the most
    fitting one) and its rules are untouched.
    """
    robot = user_agent.strip().lower()
    lines = text.splitlines()
    fits = [_fit(line, robot) for line in lines]
    best = max((fit for fit in fits if fit is not None), default=0)
    kept = [fit is None or fit == best > 0 for fit in fits]
    if all(kept):
        return text
    nobody = "User-agent: " + "x" * (len(robot) + 1)
    return "\n".join(line if keep else nobody for line, keep in zip(lines, kept, strict=True))


def _fit(line: str, robot: str) -> int | None:
    """How well a User-agent line fits our agent, as protego scores it (0: not at all); None
    for any other line, or one this does not read as surely as protego does."""
    found = _USER_AGENT_LINE.fullmatch(line.partition("#")[0].strip())
    agent = found.group(1).strip().lower() if found else ""
    if not agent:
        return None  # not a User-agent line, or one naming no agent: left as it is
    variants = [agent, agent.replace("*", "")] if agent != "*" and "*" in agent else [agent]
    return max(_agent_fit(variant, robot) for variant in variants if variant)


def _agent_fit(agent: str, robot: str) -> int:
    """protego's score of one agent for a robot: 1 for "*", its length where it stands in
    the robot's name at a word's start, else 0."""
    if agent == "*":
        return 1
    at = robot.find(agent)
    while at != -1:
        if at == 0 or not (robot[at - 1].isalnum() or robot[at - 1] in "-_"):
            return len(agent)
        at = robot.find(agent, at + 1)
    return 0


def _unknown(origin: str, outcome: Outcome) -> Outcome:
    """The site's rules are unknown (a server error, a body that cannot be decoded, a
    redirect we may not follow: to http from https, a private address, another scheme):
    nothing on the site is fetched until they can be read, as RFC 9309 asks of a robots.txt
    that cannot be reached."""
    error = (
        f"{origin}/robots.txt could not be read ({outcome.error}): nothing on the site may "
        "be fetched until it can"
    )
    return replace(outcome, error=error)
