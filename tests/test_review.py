"""A report never launders a change: a claim whose quote was adopted with a changed meaning
goes back to review, and no rule raises its grades until its author revises or confirms it.

The scenario end to end through the real command line, on a real loopback site: a
message queue's docs say 256 KB, then 128 KB; the author accepts the new wording anyway.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from claimledger.ledger.file import load
from cli_runner import Cli
from evidence_site import page
from webserver import PageServer

SIZE = "A message may be up to 256 KB in size."
SMALLER = "A message may be up to 128 KB in size."
CIPHER = "Data at rest is encrypted with AES-256."
WEAKER = "Data at rest is encrypted with AES-128."


def ledger_text(url: str) -> str:
    return f"""\
ledger: 1
title: A queue
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  docs: {{url: "{url}", title: Limits, kind: docs, publisher: vendor}}
claims:
  - id: message-size
    section: s
    title: Messages of up to 256 KB
    kind: guarantee
    statement: The queue accepts a message of up to 256 KB.
    quotes:
      - text: "{SIZE}"
        sources: [docs]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
  - id: encryption
    section: s
    title: Data at rest is encrypted with AES-256
    kind: guarantee
    statement: Stored data is encrypted with AES-256.
    quotes:
      - text: "{CIPHER}"
        sources: [docs]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
"""


@pytest.fixture
def site(tmp_path: Path, page_server: PageServer) -> Cli:
    page_server.set_page("/limits", page("Limits.", SIZE, CIPHER))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ledger_text(page_server.url("/limits")), encoding="utf-8")
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    page_server.set_page("/limits", page("Limits.", SMALLER, WEAKER))
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    return cli


def test_a_meaning_change_adopted_sends_the_claim_to_review(site: Cli) -> None:
    refused = site("accept", "--all-drifted", code=1)
    assert "changed its meaning" in refused.stderr
    site("regrade", "--write", code=0)  # both fall to UNKNOWN: their meaning changed
    accepted = site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)
    assert "message-size needs review" in accepted.stdout
    site("refresh", "--allow-private", "--no-as-read", code=0)  # the adopted wording verifies

    regrade = site.json("regrade", code=1)
    assert regrade["proposals"] == []  # never back to DEMONSTRATED by quotes-restored
    kinds = {(n["claim_id"], n["kind"]) for n in regrade["stale"]}
    assert kinds == {("message-size", "needs-review"), ("encryption", "needs-review")}
    why = next(n["why"] for n in regrade["stale"] if n["claim_id"] == "encryption")
    assert "AES-128" in why and "the claim itself says “AES-256”" in why
    site("regrade", "--check", "--no-artifacts", code=1)
    status = site.json("status", code=1)
    assert status["needs_review"] == ["message-size", "encryption"]
    said = " ".join(site("regrade", code=1).stdout.split())
    assert "a claim under review: `claimledger review` it" in said and "Stale facets" not in said
    traces = site.json("explain", "encryption")["traces"]  # the review's reason, its rule's name
    assert [(t["rule"], "AES-128" in t["outcome"]) for t in traces] == [("needs-review", True)]

    report = site("render", "-o", "-").stdout
    assert "2 claims need review" in report
    assert "**Needs review:**" in report and "the claim itself says “256”" in report
    assert "harmless rewording" not in report
    assert "rewordings adopted although their meaning changed or may have" in report


def test_a_reversal_adopted_before_any_regrade_lowers_the_claim_all_the_same(
    site: Cli, tmp_path: Path
) -> None:
    """Adopted first, the reversed words verify where they stand, and the claim kept the
    grade it had on the old ones: the same evidence in the other order lowered it. The
    grade is UNKNOWN either way until the author answers, and the report rates it so."""
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=0)

    proposals = site.json("regrade", code=1)["proposals"]

    assert sorted((p["claim_id"], p["to_grade"], p["rule"]) for p in proposals) == [
        ("encryption", "UNKNOWN", "quotes-meaning-changed"),
        ("message-size", "UNKNOWN", "quotes-meaning-changed"),
    ]
    site("regrade", "--write", code=1)
    reviews = json.loads(site("render", "-o", "-", "--format", "claimreview").stdout)
    assert {r["reviewRating"]["alternateName"] for r in reviews} == {"UNKNOWN"}
    site("review", "encryption", "--confirm", "--because", "AES-128 meets our bar", code=0)
    raised = site.json("regrade", code=1)["proposals"]
    assert [(p["claim_id"], p["to_grade"]) for p in raised] == [("encryption", "DEMONSTRATED")]


def test_a_lowering_proposed_and_not_written_is_the_rating_published(site: Cli) -> None:
    """The ledger still says DEMONSTRATED until someone writes the rules' proposal, but the
    ClaimReview, read by machines that see no proposal, rates what the evidence holds up."""
    assert [p["to_grade"] for p in site.json("regrade", code=1)["proposals"]] == ["UNKNOWN"] * 2

    reviews = json.loads(site("render", "-o", "-", "--format", "claimreview").stdout)

    assert {r["reviewRating"]["alternateName"] for r in reviews} == {"UNKNOWN"}
    assert all("ratingValue" not in r["reviewRating"] for r in reviews)
    assert all("not yet written: UNKNOWN" in r["reviewBody"] for r in reviews)


def test_the_claimreview_of_a_claim_in_review_says_it_needs_review(site: Cli) -> None:
    """The report said "Needs review" on the claim, while the JSON-LD's review body said
    only "cross-checked …, verified": a reader of it took the claim's evidence as holding."""
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=0)

    reviews = json.loads(site("render", "-o", "-", "--format", "claimreview").stdout)

    body = {r["name"]: r["reviewBody"] for r in reviews}["Messages of up to 256 KB"]
    assert body.startswith(f"Needs review: its quote now says “{SMALLER}” (was “{SIZE}”)")
    assert "Grade on wording:" in body


def test_status_after_every_quote_was_adopted_says_what_is_unchecked(site: Cli) -> None:
    """The store holds two refreshes: "no evidence yet" was not so; the quotes as the
    ledger now reads them are what no refresh has checked."""
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)

    said = " ".join(site("status", code=1).stderr.split())

    assert "no evidence yet" not in said
    assert "no quote has been checked as the ledger now reads it" in said


def test_a_confirmed_claim_may_be_raised_again(site: Cli) -> None:
    site("regrade", "--write", code=0)
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=0)
    shown = site("review", code=1).stdout
    assert "message-size: needs review" in shown and "encryption: needs review" in shown

    site("review", "encryption", "--confirm", code=2)  # a reason is required
    site("review", "encryption", "--confirm", "--because", "AES-128 meets our bar", code=0)
    site("review", "encryption", "--confirm", "--because", "again", code=2)  # nothing to confirm
    proposals = site.json("regrade", code=1)["proposals"]
    assert [(p["claim_id"], p["to_grade"]) for p in proposals] == [("encryption", "DEMONSTRATED")]
    assert "nothing to review" not in site("review", code=1).stdout


def test_an_adopted_quote_is_said_changed_since_its_check_not_never_checked(site: Cli) -> None:
    site("regrade", "--write", code=0)
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)
    gap = site("regrade", code=1).stderr
    assert "never been checked" not in gap
    assert (
        "2 claims have a quote adopted or a source moved since the last check "
        "(message-size, encryption): run `claimledger refresh`"
    ) in gap


def test_a_lowering_of_a_claim_in_review_is_recorded_with_its_own_cause(
    site: Cli, page_server: PageServer
) -> None:
    """The page goes while the claim awaits review: its history says the page went, not the
    review's reason, which `review` and the notice still say."""
    site("accept", "--all-drifted", "--even-if-meaning-changed", code=0)  # still DEMONSTRATED
    page_server.set_page("/limits", "<p>Not here</p>", status=404)
    site("refresh", "--allow-private", "--no-as-read", code=1)

    (lowered,) = [
        p for p in site.json("regrade", code=1)["proposals"] if p["claim_id"] == "encryption"
    ]
    assert (lowered["rule"], lowered["to_grade"]) == ("quotes-gone", "UNKNOWN")
    assert lowered["why"].startswith("no source carries 1 quote")
    site("regrade", "--write", code=1)  # written; the review is still pending
    history = site("history", "encryption").stdout
    assert "no source carries 1 quote" in " ".join(history.split())
    assert "encryption: needs review" in site("review", code=1).stdout


def test_a_grade_set_by_hand_ends_the_review(site: Cli) -> None:
    site("regrade", "--write", code=0)
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    site("grade", "message-size", "CLAIMED", "--because", "now 128 KB: revised", code=0)
    assert site.json("status", code=1)["needs_review"] == []


def test_acts_that_do_not_answer_the_change_leave_the_claim_in_review(site: Cli) -> None:
    """Moving the claim, giving it a judgement facet or another quote, or grading that
    facet says nothing of whether it still holds: the review stands until the author
    rewords the claim, grades what rests on the quote, removes that quote, or confirms."""
    site("regrade", "--write", code=0)
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    site("section", "later", "Later", code=0)
    site("edit", "message-size", "--section", "later", code=0)
    site(
        "facet", "message-size", "keeps order", "--grade", "UNKNOWN", "--basis", "judgement",
        "--why", "not read",
    )  # fmt: skip
    site("grade", "message-size", "SPECULATIVE", "--on", "keeps order", "--because", "a guess")
    assert site.json("status", code=1)["needs_review"] == ["message-size"]
    history = site("history", "message-size").stdout
    assert "graded UNKNOWN" in history and "?" not in history  # the facet added, said so

    site("edit", "message-size", "--statement", "The queue accepts a message of up to 128 KB.")
    assert site.json("status", code=1)["needs_review"] == []


def test_removing_the_adopted_quote_ends_the_review_and_removing_another_does_not(
    site: Cli,
) -> None:
    site("regrade", "--write", code=0)
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    url = load(site.ledger).sources["docs"].url
    site("quote", "message-size", "Limits.", "--url", url, "--allow-private", code=0)
    site("remove", "message-size", "--quote", "2", code=0)
    assert site.json("status", code=1)["needs_review"] == ["message-size"]

    site("quote", "message-size", "Limits.", "--url", url, "--allow-private", code=0)
    site("remove", "message-size", "--quote", "1", code=0)
    assert site.json("status", code=1)["needs_review"] == []


def test_removing_the_adopted_quote_in_words_adopted_since_ends_the_review(
    site: Cli, page_server: PageServer
) -> None:
    """The adopted quote, reworded again and that wording adopted too, was removed: the
    claim stayed in review for words it no longer quoted."""
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    page_server.set_page("/limits", page("Limits.", SMALLER.replace("size", "length"), WEAKER))
    site("refresh", "--allow-private", "--no-as-read", code=1)
    site("accept", "message-size", code=0)
    url = load(site.ledger).sources["docs"].url
    site("quote", "message-size", "Limits.", "--url", url, "--allow-private", code=0)

    site("remove", "message-size", "--quote", "1", code=0)

    assert "message-size" not in site.json("status", code=1)["needs_review"]


# --------------------------------------------------------------------------- the gate


def test_the_gate_fails_closed_when_nothing_could_be_read(
    tmp_path: Path, page_server: PageServer
) -> None:
    """A docs site that blocks CI runners (403), or that cannot be resolved, never turns
    the gate green: exit 3, one line per source, and no drift for the Action to file."""
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(ledger_text(page_server.url("/limits")), encoding="utf-8")
    cli = Cli(ledger)
    never = cli("regrade", "--check", code=3)
    assert "2 claims have never been checked" in never.stderr

    page_server.set_page("/limits", "Forbidden", status=403)
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    blocked = cli("regrade", "--check", code=3)
    (line,) = [ln for ln in blocked.stderr.splitlines() if "could not be read" in ln]
    assert line.startswith("source docs (") and "nothing is known" in line
    assert cli.json("regrade", code=0)["proposals"] == []  # unread is no evidence of drift

    page_server.set_page("/limits", page("Limits.", SIZE, CIPHER))
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    cli("regrade", "--check", code=0)


def test_an_adopted_rewording_is_one_reworded_quote_in_what_changed(site: Cli) -> None:
    site("render", "-o", "-")  # the state the next render compares with
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=1)
    changed = site("render", "-o", "-").stdout.split("## What changed", 1)[1]
    changed = changed.split("\n## ", 1)[0]
    reworded = "quote reworded, its meaning changed: “256” → “128” (number changed); "
    assert f"{reworded}the page's words adopted: “{SIZE}” → “{SMALLER}”" in changed
    assert "quote added" not in changed and "quote removed" not in changed


def test_a_second_adopted_rewording_is_one_reworded_quote_from_the_last_render(
    site: Cli, page_server: PageServer
) -> None:
    """256 KB became 128 KB, adopted and rendered; then 128 KB became 64 KB, adopted too:
    the next render says one quote reworded from the words it last showed, the change
    named, in the Markdown and in the JSON alike."""
    smallest = "A message may be up to 64 KB in size."
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=1)
    site("render", "-o", "-")
    site("render", "-o", "-", "--format", "json")
    page_server.set_page("/limits", page("Limits.", smallest, WEAKER))
    site("refresh", "--allow-private", "--no-as-read", code=1)
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    site("refresh", "--allow-private", "--no-as-read", code=1)

    changed = site("render", "-o", "-").stdout.split("## What changed", 1)[1]
    changed = changed.split("\n## ", 1)[0]
    items = json.loads(site("render", "-o", "-", "--format", "json").stdout)["changes"]["items"]

    reworded = (
        "quote reworded, its meaning changed: “128” → “64” (number changed); "
        f"the page's words adopted: “{SMALLER}” → “{smallest}”"
    )
    assert reworded in changed
    assert "quote added" not in changed and "quote removed" not in changed
    assert [item["text"] for item in items if item["area"] == "quote"] == [reworded]


def test_a_claim_in_review_whose_adopted_words_drift_again_still_says_it_needs_review(
    site: Cli, page_server: PageServer
) -> None:
    """A harmless rewording of the adopted words is a stale notice, which hid the review's:
    the claim under review was listed only as stale, `accept` its advice, while adopting
    the new words answers nothing of the change its author must still re-read."""
    site("regrade", "--write", code=0)
    site("accept", "message-size", "--even-if-meaning-changed", code=0)
    reflowed = "Messages may be up to 128 KB in size."
    page_server.set_page("/limits", page("Limits.", reflowed, WEAKER))
    site("refresh", "--allow-private", "--no-as-read", code=1)

    regrade = site.json("regrade", code=1)
    (notice,) = [n for n in regrade["stale"] if n["claim_id"] == "message-size"]
    assert notice["kind"] == "needs-review"
    assert "its meaning changed" in notice["why"]
    assert "Also, a quote was reworded on its page (harmless)" in notice["why"]
    assert site.json("status", code=1)["needs_review"] == ["message-size"]
