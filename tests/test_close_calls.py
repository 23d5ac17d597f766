"""A close call said as one: when two passages of a page are almost equally like a reworded
quote, the verdict shows both (the one chosen and the runner-up) in `verify`, `diff`, the
report and the JSON, instead of one confident answer that is as likely wrong as right."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from claimledger import versions
from claimledger.grading.accept import accept_plan
from claimledger.ledger.model import parse
from claimledger.meanings import REWRITTEN_IN_PLACE
from claimledger.reading.match import locate
from claimledger.reading.match.verdict import DEFAULT_THRESHOLDS
from claimledger.records import NEAR_MISS, WordChange
from cli_runner import Cli, claimledger
from test_refresh import one_quote_ledger
from test_render import check as recorded_check
from webserver import PageServer

QUOTE = "Messages are kept for seven days on the standard plan before they are deleted."
STANDARD = "Messages are kept for seven days on the standard plan before deletion."
PREMIUM = "Messages are kept for seven days on the premium plan before they are deleted."
CLEAR = "Messages are kept for seven days on the standard plan until they are deleted."
BASIC = "Messages are kept for seven days on the basic plan before they are deleted."


def page(*paragraphs: str) -> str:
    body = "".join(f"<p>{p}</p>" for p in paragraphs)
    return f"<html><body><main><h1>Retention</h1>{body}</main></body></html>"


def test_two_passages_almost_as_alike_are_both_shown() -> None:
    found = locate(QUOTE, f"Retention\n\n{STANDARD}\n\n{PREMIUM}\n")
    assert found.status == "drifted"
    assert {found.current, found.closest} == {STANDARD, PREMIUM}


def test_a_clear_winner_is_shown_alone() -> None:
    found = locate(QUOTE, f"Retention\n\n{BASIC}\n\n{CLEAR}\n")
    assert (found.status, found.current, found.closest) == ("drifted", CLEAR, None)


def test_verify_says_the_close_call_and_its_json_names_the_runner_up(
    page_server: PageServer,
) -> None:
    page_server.set_page("/retention", page(STANDARD, PREMIUM))
    url = page_server.url("/retention")

    said = claimledger("verify", "--allow-private", url, QUOTE, code=1).stdout
    payload = json.loads(
        claimledger("verify", "--allow-private", url, QUOTE, "--json", code=1).stdout
    )

    assert payload["status"] == "drifted"
    assert {payload["current"], payload["closest"]} == {STANDARD, PREMIUM}
    assert f"a close call: the page also says, almost as alike: {payload['closest']}" in said


def test_a_refreshed_close_call_is_in_the_diff_and_the_report(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/retention", page(QUOTE, "Other plans differ."))
    cli = _ledger_quoting(tmp_path, page_server.url("/retention"), "retention", QUOTE)
    page_server.set_page("/retention", page(STANDARD, PREMIUM))
    cli("refresh", "--allow-private", code=1)

    diff = cli("diff", "retention", code=1).stdout
    report = tmp_path / "report.md"
    cli("render", "-o", str(report))
    html = tmp_path / "report.html"
    cli("render", "-o", str(html))

    assert "a close call: the page also says, almost as alike:" in " ".join(diff.split())
    markdown = report.read_text(encoding="utf-8")
    assert markdown.count("a close call: the page also says, almost as alike:") == 2
    assert STANDARD in markdown and PREMIUM in markdown
    assert "A close call: the page also says, almost as alike:" in html.read_text(encoding="utf-8")


# A quote called missing whose closest passage nearly passes for it reworded

RETRIES = (
    "Retries are attempted three times with an exponential backoff before the message is dropped."
)
NEARLY = "Retries are attempted with a fixed delay before the message is parked."
FAR = "After three failed attempts the message moves to the dead-letter queue."
AROUND = ("Consumers read from partitions in order.", "Offsets are committed every five seconds.")


def test_a_missing_quote_whose_closest_passage_nearly_passes_is_a_near_miss() -> None:
    near = locate(RETRIES, f"{AROUND[0]}\n\n{NEARLY}\n\n{AROUND[1]}\n")
    far = locate(RETRIES, f"{AROUND[0]}\n\n{FAR}\n\n{AROUND[1]}\n")

    assert (near.status, near.closest, near.near_miss) == ("missing", NEARLY, True)
    assert NEAR_MISS <= near.similarity < DEFAULT_THRESHOLDS.unplaced
    assert (far.status, far.closest, far.near_miss) == ("missing", FAR, False)


def test_a_closest_passage_between_040_and_045_alike_is_a_near_miss_too() -> None:
    """In that band a quote called missing had in fact been reworded as often as not."""
    parked = "Retries are attempted with a fixed delay before a message is parked in cold storage."
    near = locate(RETRIES, f"{AROUND[0]}\n\n{parked}\n\n{AROUND[1]}\n")

    assert (near.status, near.closest, near.near_miss) == ("missing", parked, True)
    assert NEAR_MISS <= near.similarity < 0.45


def test_verify_says_a_near_miss_and_its_json_flags_it(page_server: PageServer) -> None:
    page_server.set_page("/retries", page(AROUND[0], NEARLY, AROUND[1]))
    url = page_server.url("/retries")

    said = claimledger("verify", "--allow-private", url, RETRIES, code=1).stdout
    payload = json.loads(
        claimledger("verify", "--allow-private", url, RETRIES, "--json", code=1).stdout
    )

    assert (payload["status"], payload["closest"], payload["near_miss"]) == (
        "missing",
        NEARLY,
        True,
    )
    assert "a close call: it is nearly alike enough to be the quote reworded" in said


def test_a_refreshed_near_miss_is_said_in_the_diff_the_report_and_the_ci_formats(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/retries", page(AROUND[0], RETRIES, AROUND[1]))
    cli = _ledger_quoting(tmp_path, page_server.url("/retries"), "retries", RETRIES)
    page_server.set_page("/retries", page(*AROUND, "Partitions are rebalanced hourly.", NEARLY))
    checks = json.loads(cli("refresh", "--allow-private", "--json", code=1).stdout)["checks"]
    github = cli("refresh", "--allow-private", "--format", "github", code=1).stdout

    diff = cli("diff", "retries", code=1).stdout
    cli("render", "-o", str(tmp_path / "report.md"))
    cli("render", "-o", str(tmp_path / "report.html"))

    mine = [c for c in checks if c["claim_id"] == "retries"]
    assert [(c["status"], c["closest"], c["near_miss"]) for c in mine] == [
        ("missing", NEARLY, True)
    ]
    said = "a close call: it is nearly alike enough to be the quote reworded"
    assert said in " ".join(diff.split())
    assert said in github
    assert said in (tmp_path / "report.md").read_text(encoding="utf-8")
    assert said in (tmp_path / "report.html").read_text(encoding="utf-8")


KEPT_BEFORE = "Installation takes a few minutes on most machines."
KEPT_AFTER = "Monitoring is covered in the next chapter."
REDELIVERY = "Unacknowledged messages are redelivered to another consumer after thirty seconds."
IN_ITS_PLACE = (
    "When a consumer does not confirm a message within thirty seconds,"
    " the broker hands it to someone else."
)


def test_a_refresh_finds_a_sentence_rewritten_where_it_stood_by_the_page_as_read(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The quote and both its neighbours were rewritten: only the page as read, kept in
    the store, tells where the quote stood. The refresh names what stands there now and
    says its meaning may have changed; a first `verify` of the page, which has no page as
    read, calls the quote missing with that sentence as the closest."""
    cli = _rewritten_where_it_stood(tmp_path, page_server)
    url = page_server.url("/delivery")

    refreshed = json.loads(cli("refresh", "--allow-private", "--json", code=1).stdout)
    diff = " ".join(cli("diff", "redelivery", code=1).stdout.split())
    first = json.loads(
        claimledger("verify", "--allow-private", url, REDELIVERY, "--json", code=1).stdout
    )

    [check] = [c for c in refreshed["checks"] if c["claim_id"] == "redelivery"]
    assert (check["status"], check["current"]) == ("drifted", IN_ITS_PLACE)
    assert check["meaning_uncertain"] and not check["meaning_changed"]
    assert "rewritten where it stood" in check["change_kinds"]
    assert "may have changed" in diff and IN_ITS_PLACE in diff
    assert "rewritten where it stood: only its place tells this is the quote reworded" in diff
    history = " ".join(cli("history", "redelivery").stdout.split())
    assert "meaning may have changed (rewritten where it stood)" in history
    assert (first["status"], first["closest"]) == ("missing", IN_ITS_PLACE)


def _edited_around(successor: str, *after: str) -> str:
    """The page with the quote's neighbours rewritten, `successor` in its place, and
    paragraphs `after` added at its end."""
    return page(
        KEPT_BEFORE,
        "Queues are declared by the application that first uses them.",
        successor,
        "Permissions are granted per virtual host.",
        KEPT_AFTER,
        *after,
    )


def _ledger_quoting(tmp_path: Path, url: str, claim_id: str, quote: str) -> Cli:
    """A new ledger with one claim quoting the page at `url`, and nothing else: the
    starter's example claim and its public page go, so that no refresh asks the internet."""
    claimledger("init", str(tmp_path / "reading"))
    cli = Cli(tmp_path / "reading" / "claims.yaml")
    cli(
        "add", claim_id, "--url", url, "--quote", quote,
        "--why", "the page says so", "--allow-private",
    )  # fmt: skip
    cli("remove", "must-is-absolute")
    cli("source", "rfc2119", "--remove")
    return cli


def _rewritten_where_it_stood(
    tmp_path: Path, page_server: PageServer, successor: str = IN_ITS_PLACE
) -> Cli:
    """A ledger quoting a page, refreshed once; then the quote and both its neighbours
    rewritten on the page, `successor` in the quote's place."""
    page_server.set_page(
        "/delivery",
        page(
            KEPT_BEFORE,
            "The broker keeps every message on disk until it is acknowledged.",
            REDELIVERY,
            "Consumers may prefetch up to ten messages at a time.",
            KEPT_AFTER,
        ),
    )
    cli = _ledger_quoting(tmp_path, page_server.url("/delivery"), "redelivery", REDELIVERY)
    cli("refresh", "--allow-private", code=0)
    page_server.set_page("/delivery", _edited_around(successor))
    return cli


def test_a_wording_known_only_by_its_place_stays_so_at_the_next_refresh(
    tmp_path: Path, page_server: PageServer
) -> None:
    """The next refresh finds the same sentence at the neighbourhood recorded for it, which
    says no more of whose rewording it is: after an edit elsewhere on the page it is still
    "rewritten where it stood" (it was called missing)."""
    cli = _rewritten_where_it_stood(tmp_path, page_server)
    cli("refresh", "--allow-private", code=1)
    page_server.set_page(
        "/delivery", _edited_around(IN_ITS_PLACE, "Metrics are exported every minute.")
    )

    refreshed = json.loads(cli("refresh", "--allow-private", "--json", code=1).stdout)

    [check] = [c for c in refreshed["checks"] if c["claim_id"] == "redelivery"]
    assert (check["status"], check["current"]) == ("drifted", IN_ITS_PLACE)
    assert "rewritten where it stood" in check["change_kinds"]


def test_a_wording_known_only_by_its_place_reworded_again_stays_so(
    tmp_path: Path, page_server: PageServer
) -> None:
    """Reworded a little more, and found at the neighbourhood recorded for it, it is still
    known only by its place (no likelier to pass on its words): "rewritten where it stood",
    and `accept --all-drifted` still leaves it alone."""
    cli = _rewritten_where_it_stood(tmp_path, page_server)
    cli("refresh", "--allow-private", code=1)
    again = IN_ITS_PLACE.replace("someone else", "some other consumer")
    page_server.set_page("/delivery", _edited_around(again))

    refreshed = json.loads(cli("refresh", "--allow-private", "--json", code=1).stdout)

    [check] = [c for c in refreshed["checks"] if c["claim_id"] == "redelivery"]
    assert (check["status"], check["current"]) == ("drifted", again)
    assert "rewritten where it stood" in check["change_kinds"]
    assert "only its place tells" in cli("accept", "--all-drifted", code=1).stderr


def test_a_wording_known_only_by_its_place_is_accepted_by_name_never_in_bulk(
    tmp_path: Path, page_server: PageServer
) -> None:
    """`accept --all-drifted` adopts what it is sure is the quote reworded; a sentence that
    only stands where the quote stood may be another sentence altogether."""
    cli = _rewritten_where_it_stood(tmp_path, page_server)
    cli("refresh", "--allow-private", code=1)
    ledger = cli.ledger.read_text(encoding="utf-8")

    bulk = cli("accept", "--all-drifted", code=1)

    assert "redelivery #1: only its place tells" in " ".join(bulk.stderr.split())
    assert cli.ledger.read_text(encoding="utf-8") == ledger
    named = cli("accept", "redelivery").stdout
    assert f"accepted redelivery #1: {IN_ITS_PLACE}" in " ".join(named.split())
    assert IN_ITS_PLACE in cli.ledger.read_text(encoding="utf-8")


def test_a_negation_known_only_by_its_place_is_adopted_as_a_changed_meaning_is(
    tmp_path: Path, page_server: PageServer
) -> None:
    """Its verdict is "may have changed" (it may be another sentence altogether), but its
    words changed as a changed meaning's do: `accept CLAIM` wants
    `--even-if-meaning-changed` for it, as for a negation found any other way."""
    negated = "Messages that are not acknowledged are never handed to a different consumer."
    cli = _rewritten_where_it_stood(tmp_path, page_server, negated)
    cli("refresh", "--allow-private", code=1)

    refused = cli("accept", "redelivery", code=1)
    said = " ".join(refused.stderr.split())
    assert "redelivery #1: what now stands where it stood may change its meaning (negation" in said
    assert negated not in cli.ledger.read_text(encoding="utf-8")
    cli("accept", "redelivery", "--even-if-meaning-changed")
    assert negated in cli.ledger.read_text(encoding="utf-8")


def test_a_strong_kind_no_word_carries_is_still_a_changed_meaning_to_accept() -> None:
    """Two words swapped is named for the passage, not for any one changed word: a wording
    known only by its place that swapped them wants `--even-if-meaning-changed` too."""
    ledger = one_quote_ledger("https://docs.example/delivery", REDELIVERY)
    word = WordChange("replace", "another", "someone", True, "wording changed")
    swapped = replace(
        recorded_check(
            ledger, "merge", 0, "log", status="drifted", current=IN_ITS_PLACE, changes=[word]
        ),
        change_kinds=("wording changed", "words swapped", REWRITTEN_IN_PLACE),
    )

    plan = accept_plan(ledger, [swapped], {"merge"})
    insisted = accept_plan(ledger, [swapped], {"merge"}, even_if_meaning_changed=True)

    assert not plan.adoptions and "may change its meaning (words swapped)" in plan.refused[0]
    assert [a.meaning for a in insisted.adoptions] == ["uncertain"]


def test_a_source_still_carrying_the_old_words_twice_refuses_the_new_wording() -> None:
    """Reworded on the docs, the quote is on the blog still, in two places (ambiguous):
    adopting the docs' words took the quote from the blog, where the new words are not,
    and cost the claim its second source. Refused, as when the blog has it once."""
    ledger = parse(f"""\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  log: {{url: "https://docs.example/retention", title: Log, kind: docs, publisher: p}}
  blog: {{url: "https://blog.example/retention", title: Blog, kind: blog, publisher: b}}
claims:
  - id: merge
    section: s
    title: Merge
    kind: mechanism
    statement: S.
    quotes:
      - {{text: "{QUOTE}", sources: [log, blog]}}
    grades: [{{on: w, grade: DEMONSTRATED, basis: quotes, min_sources: 2}}]
""")
    reworded = recorded_check(ledger, "merge", 0, "log", status="drifted", current=CLEAR)
    for carried in ("verified", "ambiguous"):
        still = recorded_check(ledger, "merge", 0, "blog", status=carried)
        plan = accept_plan(ledger, [reworded, still], {"merge"})
        assert not plan.adoptions, carried
        assert plan.refused == (
            "merge #1: still verbatim on blog but reworded on log; split the quote per source",
        )


def test_a_wording_longer_than_a_quote_holds_is_refused_and_the_others_adopted() -> None:
    """The passage a long quote's rewording stands in can be longer than a quote may be:
    adopting it made the ledger one `check` refuses, and `accept` ended in an internal
    error; it is refused as a wording the user must read, and the other adoptions go on."""
    ledger = parse(f"""\
ledger: 1
title: T
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  log: {{url: "https://docs.example/retention", title: Log, kind: docs, publisher: p}}
claims:
  - id: long
    section: s
    title: Long
    kind: mechanism
    statement: S.
    quotes:
      - {{text: "{QUOTE}", sources: [log]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
  - id: short
    section: s
    title: Short
    kind: mechanism
    statement: S.
    quotes:
      - {{text: "{BASIC}", sources: [log]}}
    grades: [{{on: w, grade: CLAIMED, basis: quotes}}]
""")
    longer = CLEAR + " Held." * 700
    checks = [
        recorded_check(ledger, "long", 0, "log", status="drifted", current=longer),
        recorded_check(ledger, "short", 0, "log", status="drifted", current=CLEAR),
    ]

    plan = accept_plan(ledger, checks, {"long", "short"})

    assert [a.claim_id for a in plan.adoptions] == ["short"]
    assert plan.refused == (
        f"long #1: the page's wording is {len(longer):,} characters, more than a quote holds "
        "(4,000); quote the words that bear the claim",
    )


_RESTART = "Restart the service after changing this setting."
_RELOAD = "Reload the service after changing this setting."
_CACHE = ("The cache size is set in megabytes.", _RELOAD, "The default is 512.")
_NETWORK = ("The listen port defaults to 8080.", _RESTART, "Ports below 1024 need root.")
_ONE_COPY_GONE = (*_CACHE, _NETWORK[0], _NETWORK[2])


def _found_missing(tmp_path: Path, page_server: PageServer) -> tuple[Cli, dict[str, Any]]:
    """A quote said twice, one copy reworded (it is found at the other), then the copy it
    was found at removed: refreshed after each step, it is missing (the reworded copy stood
    beside it); its check as that refresh printed it."""
    page_server.set_page("/settings", page(_CACHE[0], _RESTART, _CACHE[2], *_NETWORK))
    cli = _ledger_quoting(tmp_path, page_server.url("/settings"), "restart", _RESTART)
    page_server.set_page("/settings", page(*_CACHE, *_NETWORK))
    cli("refresh", "--allow-private", code=0)  # found at its other copy
    page_server.set_page("/settings", page(*_ONE_COPY_GONE))
    return cli, _check_of(cli, "restart")


def _check_of(cli: Cli, claim_id: str) -> dict[str, Any]:
    """A refresh's check of one claim's quote, as its JSON says it."""
    refreshed = json.loads(cli("refresh", "--allow-private", "--json", code=1).stdout)
    [check] = [c for c in refreshed["checks"] if c["claim_id"] == claim_id]
    found: dict[str, Any] = check
    return found


def test_a_quote_found_missing_stays_missing_when_the_page_changes_elsewhere(
    tmp_path: Path, page_server: PageServer
) -> None:
    """Found missing, it stays missing, with the same closest passage, after an edit
    elsewhere on the page: it was called drifted to the reworded copy."""
    cli, gone = _found_missing(tmp_path, page_server)
    page_server.set_page("/settings", page(*_ONE_COPY_GONE, "Ask on the forum."))

    again = _check_of(cli, "restart")

    assert (gone["status"], again["status"]) == ("missing", "missing")
    assert again["closest"] == gone["closest"]


def test_a_page_that_failed_once_is_read_as_if_it_had_not(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A refresh that could not read the page in between judged nothing: the next reads the
    page against the check before it (the page as then read, the verdict then), and the
    quote found missing stays missing (it was called drifted, that memory lost)."""
    cli, gone = _found_missing(tmp_path, page_server)
    page_server.remove("/settings")
    failed = _check_of(cli, "restart")
    page_server.set_page("/settings", page(*_ONE_COPY_GONE, "Ask on the forum."))

    again = _check_of(cli, "restart")

    assert (gone["status"], failed["status"], again["status"]) == ("missing", None, "missing")


def test_a_verdict_of_another_matcher_is_weighed_again(
    tmp_path: Path, page_server: PageServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """What a matcher of another version found missing is not taken as weighed: the next
    refresh by this one looks at every passage again (here it takes the reworded copy)."""
    cli, gone = _found_missing(tmp_path, page_server)
    monkeypatch.setattr(versions, "MATCH", versions.MATCH + 1)
    page_server.set_page("/settings", page(*_ONE_COPY_GONE, "Ask on the forum."))

    again = _check_of(cli, "restart")

    assert (gone["status"], again["status"], again["current"]) == ("missing", "drifted", _RELOAD)
