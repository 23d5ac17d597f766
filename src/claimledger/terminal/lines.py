"""The lines and JSON payloads the commands print, built from plain data: no rich is
loaded for them (the tables are `claimledger.terminal.views`), so a command that says only
lines, or only JSON, never loads it.

Every URL is shown without its secrets.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import functools
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypeAlias

from claimledger.meanings import changed_words_said
from claimledger.records import (
    READ_STATUSES,
    ArtifactRun,
    CheckRecord,
    FetchRecord,
    FetchResult,
    RunRecord,
    WordChange,
    classify,
)
from claimledger.sites import other_publisher
from claimledger.urls import (
    PERMANENT_REDIRECTS,
    fetch_target,
    is_trivial_move,
    redact_urls,
    redacted,
    shown,
)

if TYPE_CHECKING:  # the core loads with the command that runs it
    from pathlib import Path

    from claimledger.evidence.refresh import Reading
    from claimledger.grading.rules import Check, Evidence, Regrade, Trace
    from claimledger.grading.verdicts import Notice, Proposal
    from claimledger.ledger.model import Claim, HistoryEntry, Ledger
    from claimledger.reading.match import Match

CHECK_COLUMNS = ("verified", "drifted", "missing", "ambiguous", "unread")


def check_bucket(check: CheckRecord) -> str:
    """Which summary column a check counts in: its status; `missing` on a page that is
    gone (as the rules count it); `unread` when the page could not be read."""
    standing = classify(check)
    if standing in ("reworded", "changed"):
        return "drifted"
    return "missing" if standing == "gone" else standing


def claim_summary(
    ledger: Ledger,
    checks: Iterable[CheckRecord],
    *,
    every: bool = False,
    unchecked: Mapping[str, int] | None = None,
    fetches: Mapping[str, FetchRecord] | None = None,
) -> Iterator[dict[str, Any]]:
    """Per claim: how many quote checks fell in each column, which sources failed, its
    grades and its standing (`claim_row`); the claims checked, or `every` claim (a script
    reading `status --json` finds each claim's grades, checked or not). A quote on a source
    never checked as it now reads (`unchecked`, by claim) counts as unread, and makes the
    claim "not checked": nothing is known of it. A source failed at a check older than its
    page's latest read (`fetches`, by address: a refresh of other claims read it since)
    is dated, and said read since: the claim's row is not the page's news.

    The checks are counted at once; the rows are made one at a time, so that JSON output
    writes each as it is made and a ledger's thousands are never all held."""
    by_claim: dict[str, Counter[str]] = {
        claim_id: Counter({"unread": count, "not checked": count})
        for claim_id, count in (unchecked or {}).items()
    }
    failing: dict[str, set[str]] = {}
    for check in checks:
        by_claim.setdefault(check.claim_id, Counter())[check_bucket(check)] += 1
        if check.source_status not in READ_STATUSES:
            failing.setdefault(check.claim_id, set()).add(_failed(check, fetches or {}))

    def rows() -> Iterator[dict[str, Any]]:
        for claim in ledger.claims:
            if claim.id not in by_claim and not every:
                continue
            counts = by_claim.get(claim.id, Counter())
            yield {
                **claim_row(claim, standing(claim, set(counts))),
                **{c: counts[c] for c in CHECK_COLUMNS},
                "failing_sources": sorted(failing.get(claim.id, set())),
            }

    return rows()


def _failed(check: CheckRecord, fetches: Mapping[str, FetchRecord]) -> str:
    """A source as a claim's row names it failing: "docs (gone)", or "docs (gone
    2026-12-05, read since)" where a later refresh read its page for other claims."""
    since = fetches.get(check.url)
    read_since = (
        since is not None
        and since.source_status in READ_STATUSES
        and (since.run_id or 0) > (check.run_id or 0)
    )
    when = f" {check.checked_at:%Y-%m-%d}, read since" if read_since else ""
    return f"{check.source_id} ({check.source_status}{when})"


STANDINGS = (
    "refuted",
    "needs review",
    "no quote",
    "not checked",
    "missing",
    "drifted",
    "ambiguous",
    "unread",
    "verified",
)
"""What a claim's row says of it before its grade, worst first (`standing`)."""


def claim_standings(
    ledger: Ledger, checks: Iterable[CheckRecord], unchecked: Collection[str] = ()
) -> dict[str, str]:
    """Each claim's standing (`standing`) by its id, from the latest checks: "not checked"
    for a claim of `unchecked`, a quote of which on one of its sources was never checked as
    it now reads, as `status` counts it."""
    buckets: dict[str, set[str]] = {claim_id: {"not checked"} for claim_id in unchecked}
    for check in checks:
        buckets.setdefault(check.claim_id, set()).add(check_bucket(check))
    return {claim.id: standing(claim, buckets.get(claim.id, set())) for claim in ledger.claims}


def standing(claim: Claim, buckets: Iterable[str]) -> str:
    """What a reader must know of a claim before its grade, worst first: refuted; needs
    review (its evidence changed meaning); no quote (it rests on premises, judgement or
    an artifact); not checked; else the worst its quotes' latest checks say (`buckets`:
    their `check_bucket`s)."""
    if claim.falsified is not None:
        return "refuted"
    if claim.review is not None:
        return "needs review"
    if not claim.quotes:
        return "no quote"
    found = set(buckets)
    return next((word for word in STANDINGS[3:] if word in found), "not checked")


def claim_row(claim: Claim, said: str) -> dict[str, Any]:
    """A claim as a listing's row: its ids, its grade on each facet, its quotes and its
    standing (`said`)."""
    return {
        "claim_id": claim.id,
        "section": claim.section,
        "title": claim.title,
        "grades": [{"on": facet.on, "grade": str(facet.grade)} for facet in claim.grades],
        "quotes": len(claim.quotes),
        "standing": said,
    }


def unread_sources(
    ledger: Ledger, checks: Iterable[Check], fetches: Mapping[str, FetchRecord] | None = None
) -> list[str]:
    """One line per source whose latest reading said nothing of the quotes it carries
    (unreachable, refused, blocked by robots.txt, unreadable, rate-limited) or found its
    page gone (404, 410: its quotes count as missing), with its cause
    as its last fetch told it (`fetches`, by URL): a gate must not pass on a page it could
    not read, and "unreachable" alone does not say whether to wait or to fix an address."""
    failed: dict[str, str] = {}
    for check in checks:
        if check.source_status not in READ_STATUSES and check.source_id not in failed:
            failed[check.source_id] = check.source_status
    lines = []
    for source_id, status in failed.items():
        source = ledger.sources.get(source_id)
        where = f" ({shown(source.url)})" if source is not None else ""
        fetch = (fetches or {}).get(redacted(source.url)) if source is not None else None
        cause = _unread_cause(status, fetch)
        if status == "gone":  # the page is no more: as the rules count it, so is each quote
            seen = cause.removeprefix("gone").removeprefix(": ")
            said = f"source {source_id}{where} is gone{f' ({seen})' if seen else ''}"
            lines.append(f"{said}: its quotes count as missing")
        else:
            lines.append(f"source {source_id}{where} could not be read ({cause}): nothing is known")
    return lines


def _unread_cause(status: str, fetch: FetchRecord | None) -> str:
    """ "unreachable: HTTP 503 Service Unavailable; gave up after 4 attempts", "refused:
    HTTP 403", "unreachable: cannot resolve …": the status, and what the fetch saw."""
    if fetch is None or fetch.source_status != status:
        return status
    detail = fetch.error or (f"HTTP {fetch.http_status}" if fetch.http_status else "")
    return f"{status}: {redact_urls(' '.join(detail.split()))}" if detail else status


def evidence_gaps(
    last: RunRecord | None,
    unchecked: Sequence[str],
    ledger: Ledger | None = None,
    checked: Collection[str] = (),
) -> list[str]:
    """What the evidence does not cover: a refresh that did not finish, claims not checked
    as they now read: never, not since a quote was adopted or a source moved, or with a
    quote or a source put in by hand since (a claim of `checked`, which has other checks)."""
    lines = []
    if last is not None and last.finished_at is None:
        when = last.started_at.strftime("%Y-%m-%d %H:%M UTC")
        lines.append(
            f"a refresh (started {when}) did not finish, and not every quote has been checked "
            "since: it was interrupted, or is still running; its evidence is partial"
        )
    partly = [c for c in unchecked if c in checked]
    changed = [
        c
        for c in unchecked
        if c not in partly and ledger is not None and _changed_since_read(ledger, c)
    ]
    never = [c for c in unchecked if c not in changed and c not in partly]
    if never:  # or checked only as it read before (another `select`, `render`, address)
        count, reads = (
            ("1 claim has", "it now reads")
            if len(never) == 1
            else (f"{len(never)} claims have", "they now read")
        )
        lines.append(
            f"{count} never been checked as {reads} ({few_of(never)}): run `claimledger refresh`"
        )
    if changed:
        count = "1 claim has" if len(changed) == 1 else f"{len(changed)} claims have"
        lines.append(
            f"{count} a quote adopted or a source moved since the last check "
            f"({few_of(changed)}): run `claimledger refresh`"
        )
    if partly:
        count = "1 claim has" if len(partly) == 1 else f"{len(partly)} claims have"
        lines.append(
            f"{count} a quote never checked as it now reads (added, reworded or given a "
            f"source since the last refresh: {few_of(partly)}): run `claimledger refresh`"
        )
    return lines


STRANGER_STORE = (
    "the evidence store came with the checkout, not from a refresh of yours: what it says "
    "was checked is its word, and every refresh reads each page in full, until one reads "
    "every source into it while it keeps no archive answer, history, save, artifact run "
    "or search of the checkout's (move it aside to start a store of your own)"
)
"""Said by `status` and `render` of a store this user's claimledger did not make."""


def few_of(ids: Sequence[str]) -> str:
    """Up to five ids, then how many more: a line names the first few, never thousands."""
    return ", ".join(ids[:5]) + (f" and {len(ids) - 5} more" if len(ids) > 5 else "")


def _changed_since_read(ledger: Ledger, claim_id: str) -> bool:
    """Was a quote of the claim adopted, or one of its sources moved, by its author? Then
    its checks are of words or an address it no longer has."""
    claim = ledger.claim(claim_id)
    if any(entry.by == "accept" for entry in claim.history):
        return True
    sources = {source for quote in claim.quotes for source in quote.sources}
    return any(ledger.sources[s].history for s in sources if s in ledger.sources)


def no_evidence_line(store: Path) -> str:
    """What a command that reads evidence says before the first refresh made any."""
    return f"no evidence yet in {store}: run `claimledger refresh`"


def nothing_checked_line(store: Path, refreshed: bool) -> str:
    """What `status` says when no quote was checked as the ledger now reads: before any
    refresh, or since the quotes were adopted, added or their sources changed (then the
    store holds evidence, of the ledger as it was)."""
    if not refreshed:
        return no_evidence_line(store)
    return (
        "no quote has been checked as the ledger now reads it (adopted, added or moved "
        "since the last refresh): run `claimledger refresh`"
    )


def needs_a_look(row: Mapping[str, Any]) -> bool:
    """A claim summary row with a quote not verified or a source failing."""
    unsettled = any(row[column] for column in CHECK_COLUMNS if column != "verified")
    return unsettled or bool(row["failing_sources"])


Fetched: TypeAlias = FetchRecord | FetchResult


def is_accepted(ledger: Ledger, fetch: Fetched) -> bool:
    """Did the page answer a status its source lists in `accept_status` (a 403 for bots)
    and so go unread? A page that was read is evidence whatever it answered: an
    `accept_status: [200]` must not hide a quote that drifted on it."""
    status = fetch.http_status
    return (
        status is not None
        and fetch.source_status not in READ_STATUSES
        and any(status in source.accept_status for source in ledger.sources_at(fetch.url))
    )


def needs_attention(
    ledger: Ledger, checks: Iterable[CheckRecord], fetches: Iterable[Fetched]
) -> bool:
    """Exit 1 or 0: a quote not verified (on a source that did not answer as it is known
    to), or a source that moved."""
    fetches = list(fetches)
    accepted = {fetch.url for fetch in fetches if is_accepted(ledger, fetch)}
    unverified = any(c.status != "verified" and c.url not in accepted for c in checks)
    return unverified or any(fetch.source_status == "moved" for fetch in fetches)


def fetch_note(ledger: Ledger, fetch: Fetched) -> str:
    """What happened to one page, in a few words (empty when it was simply read)."""
    if fetch.source_status == "moved":
        return f"moved to {shown(fetch.moved_to)}{_elsewhere(fetch.url, fetch.moved_to)}"
    if fetch.source_status != "ok" and is_accepted(ledger, fetch):
        return f"HTTP {fetch.http_status}, which its source accepts: no evidence either way"
    if fetch.source_status != "ok":
        return fetch.error or ""
    notes = []
    if fetch.not_modified:
        notes.append(_unchanged_note(fetch.final_url))
    elif fetch.redirects:
        notes.append(_redirect_note(fetch))
    if fetch.canonical:
        notes.append(f"names {shown(fetch.canonical)} as its canonical address (not followed)")
    if isinstance(fetch, FetchRecord) and fetch.misread:
        notes.append("this reading reused another address's text: no evidence; refresh again")
    return "; ".join(notes)


def _redirect_note(fetch: Fetched) -> str:
    """Where a redirect that is no move led: the same page at a tidier address, or a page
    a temporary redirect sends readers to for now (the ledger's address stands), whose
    words are not the same page's by that alone, and may be another publisher's."""
    final = shown(fetch.final_url)
    if is_trivial_move(fetch_target(fetch.url)[0], fetch.final_url):
        return f"read from {final} (the same page at a tidier address)"
    temporary = [hop.status for hop in fetch.redirects if hop.status not in PERMANENT_REDIRECTS]
    how = f" (HTTP {temporary[0]})" if temporary else ""
    elsewhere = _elsewhere(fetch.url, fetch.final_url)
    return f"read from {final}{elsewhere}, where a temporary redirect{how} sends it"


def _elsewhere(url: str, read_at: str | None) -> str:
    """ ", another publisher's site (NAME)" when the page read is on another registrable
    domain than the ledger's address: its words are that site's, not the source's by
    right."""
    elsewhere = other_publisher(url, read_at)
    return f", another publisher's site ({elsewhere})" if elsewhere else ""


def _unchanged_note(url: str) -> str:
    return f"unchanged (304) since the last full read of {shown(url)}"


def source_notes(ledger: Ledger, fetches: Iterable[Fetched]) -> list[str]:
    """One line per page that needs a word after a refresh: moved, failed, redirected,
    or naming another canonical address; with the way to adopt a move. The pages that
    answered 304 at their own address, and nothing else, are counted on one line."""
    lines = []
    unchanged = 0
    for fetch in {fetch.url: fetch for fetch in fetches}.values():
        note = fetch_note(ledger, fetch)
        if note == _unchanged_note(fetch.url):
            unchanged += 1
            continue
        if not note:
            continue
        lines.append(_source_line(ledger, fetch, note))
    if unchanged:
        pages = "source" if unchanged == 1 else "sources"
        lines.append(f"{unchanged} {pages} unchanged (304) since the last full read")
    return lines


def move_lines(ledger: Ledger, fetches: Iterable[Fetched]) -> list[str]:
    """A line per page found moved, with the command that adopts the move: `status` says
    it as the refresh did, for a reader who comes back after the refresh's output is gone."""
    moved = {fetch.url: fetch for fetch in fetches if fetch.source_status == "moved"}
    return [_source_line(ledger, fetch, fetch_note(ledger, fetch)) for fetch in moved.values()]


def _source_line(ledger: Ledger, fetch: Fetched, note: str) -> str:
    """ "source STATUS: ID (URL): NOTE", and for a page that moved, how to adopt it."""
    ids = sorted(source.id for source in ledger.sources_at(fetch.url))
    who = f"{', '.join(ids)} ({shown(fetch.url)})" if ids else shown(fetch.url)
    redirected = fetch.source_status == "ok" and fetch.redirects
    status = "redirected" if redirected else fetch.source_status
    line = f"source {status}: {who}: {note}"
    if fetch.source_status == "moved" and ids:
        moved_to = fetch.moved_to or fetch.final_url
        line += f"; adopt it with {ledger.adopting_move(ids[0], moved_to)}"
    return line


def reading_lines(reading: Reading, *, verbose: bool = False) -> list[str]:
    """A page as a refresh reads it, for the lines on stderr: its status and address; with
    `verbose`, how it answered, its size and the time it took, and a line per check."""
    fetch = reading.fetch
    line = f"{fetch.source_status:<11} {shown(fetch.url)}"
    if not verbose:
        return [line]
    answered = [f"HTTP {fetch.http_status}" if fetch.http_status else "no answer"]
    if fetch.not_modified:
        answered.append("unchanged since the last read")
    elif reading.body_bytes is not None:
        answered.append(f"{reading.body_bytes:,} bytes")
    if fetch.attempts > 1:
        answered.append(f"{fetch.attempts} attempts")
    answered.append(f"{fetch.elapsed:.2f} s")
    if fetch.error:
        answered.append(fetch.error)
    lines = [f"{line}: {', '.join(answered)}"]
    for check in reading.checks:
        where = f"  {check.claim_id} #{check.quote_index + 1} on {check.source_id}: "
        if check.status is None:
            lines.append(f"{where}not checked (the source is {check.source_status})")
            continue
        how: list[str] = [check.match_kind] if check.match_kind else []
        if check.similarity is not None:
            how.append(f"similarity {check.similarity:.2f}")
        verdict = check.status + (f" ({', '.join(how)})" if how else "")
        if check.meaning_changed:
            verdict += ", meaning changed"
        if check.moved_within:
            verdict += f", moved within the page: {check.moved_within}"
        lines.append(where + verdict + _words_that_may_change(check))
    return lines


def _words_that_may_change(check: CheckRecord) -> str:
    """What a change that may have changed the meaning changed, said last on its line as
    `verify` and `diff` say it ("meaning may have changed: handled -> processed (wording
    changed)"): in brackets, the kinds each change carries would sit in brackets inside
    brackets."""
    if check.meaning_changed or not check.meaning_uncertain:
        return ""
    said = changed_words_said(check.changed_words) or ", ".join(check.change_kinds)
    return f", meaning may have changed: {said}" if said else ", meaning may have changed"


MOVED_READ = "on the page it moved to"
"""What a check read through a permanent redirect says beside its status: it is a finding of
its own (the page is at another address until `move` adopts it), never one more "verified"
of a run it does not belong to."""


def evidence_line(evidence: Evidence) -> str:
    """One piece of evidence as `explain` prints it: a quote found away from its place on
    the page says where, and one read on the page its source moved to says so, in the words
    `refresh -v` and `history` use. Evidence of no source (a premise's grade, an artifact's
    output) is its status, then what it is of: "DEMONSTRATED: premise x (wording)"."""
    if evidence.source_id is None:
        return f"{evidence.status}: {evidence.detail}" if evidence.detail else evidence.status
    parts = [evidence.status + (f" ({MOVED_READ})" if evidence.page_moved else "")]
    if evidence.source_id:
        parts.append(f"on {evidence.source_id}")
    if evidence.when:
        parts.append(evidence.when.strftime("%Y-%m-%d"))
    if evidence.moved_within:
        parts[-1] += f", moved within the page: {evidence.moved_within}"
    if evidence.detail:
        parts.append(evidence.detail)
    return " ".join(parts)


# --------------------------------------------------------------------------- verify


def verification_payload(
    fetched: FetchResult, found: Match | None, pdf_page: int | None = None
) -> dict[str, Any]:
    """The one JSON object `verify --json` prints (`pdf_page`: on a PDF, the page the quote
    or its successor stands on, from 1)."""
    return {
        "url": shown(fetched.url),
        "final_url": shown(fetched.final_url),
        "http_status": fetched.http_status,
        "source_status": fetched.source_status,
        "error": fetched.error,
        "status": found.status if found else None,
        "match": found.match if found else None,
        "similarity": round(found.similarity, 4) if found else None,
        "current": found.current if found else None,
        "meaning_changed": found.meaning_changed if found else False,
        "meaning_uncertain": found.meaning_uncertain if found else False,
        "change_kinds": list(found.change_kinds) if found else [],
        "changed_words": to_json(found.changed_words) if found else [],
        "closest": found.closest if found else None,
        "closest_kinds": list(found.closest_kinds) if found else [],
        "near_miss": found.near_miss if found else False,
        "occurrences": found.occurrences if found else 0,
        "pdf_page": pdf_page,
        "moved_to": shown(fetched.moved_to) if fetched.moved_to else None,
        "canonical": shown(fetched.canonical) if fetched.canonical else None,
        "context": to_json(found.context) if found and found.context else None,
    }


NEAR_MISS_SAID = "a close call: it is nearly alike enough to be the quote reworded; read it"
"""Said of a quote called missing whose closest passage nearly passes for its rewording."""


def verification_lines(payload: Mapping[str, Any]) -> list[str]:
    """`verify` in words: the verdict, where the page was read, what it says now."""
    status = payload["status"] or f"not checked: source {payload['source_status']}"
    kind = f" ({payload['match']})" if payload["match"] else ""
    lines = [f"{status}{kind}  similarity {payload['similarity'] or 0:.2f}"]
    if payload["moved_to"]:
        lines.append(f"the page moved to {payload['moved_to']}")
    elif payload["final_url"] != payload["url"]:
        lines.append(f"read from {payload['final_url']}")
    if payload["canonical"]:
        lines.append(f"the page names {payload['canonical']} as its canonical address")
    if payload["error"]:
        lines.append(f"error: {payload['error']}")
    if payload["current"] and payload["status"] != "verified":
        lines.append(f"the page says: {payload['current']}")
    elif payload["closest"]:
        lines.append(f"the page now says (closest passage): {payload['closest']}")
        kinds = ", ".join(payload["closest_kinds"])
        lines.append(
            f"it contradicts the quote: {kinds}" if kinds else "it does not contradict the quote"
        )
        if payload["near_miss"]:
            lines.append(NEAR_MISS_SAID)
    said = changed_words_said(WordChange(**c) for c in payload["changed_words"])
    said = said or ", ".join(payload["change_kinds"])  # kinds that no words carry
    if payload["meaning_changed"]:
        lines.append(f"meaning changed: {said}")
    elif payload["meaning_uncertain"]:
        lines.append(f"meaning may have changed: {said}")
    if payload["current"] and payload["closest"]:
        lines.append(f"a close call: the page also says, almost as alike: {payload['closest']}")
    if payload["occurrences"] > 1:
        lines.append(f"occurs {payload['occurrences']} times on the page")
    if payload["pdf_page"] is not None:
        lines.append(f"on page {payload['pdf_page']} of the PDF")
    return lines


# --------------------------------------------------------------------------- grades


def regrade_note(
    result: Regrade, *, incomplete: bool = False, refreshed: bool = False
) -> str | None:
    """The closing line of `regrade` when nothing is pending: never "every grade agrees"
    over evidence with gaps in it, nor "no evidence yet" once the ledger was `refreshed`."""
    if result.pending:
        return None
    if not result.has_evidence:
        if refreshed:
            return "nothing to propose: no quote checked as the ledger now reads it"
        return "nothing to propose: no evidence yet"
    if incomplete:
        return "nothing to propose on the evidence there is, but it is incomplete (below)"
    return "nothing to propose: every grade agrees with its evidence"


def explain_lines(
    claim: Claim,
    traces: Sequence[Trace],
    proposals: Sequence[Proposal] = (),
    notices: Sequence[Notice] = (),
) -> list[str]:
    """Why each facet of a claim has its grade: the author's why, the grade a rule asks for
    instead and what the author must look at (as `regrade` says them), the rule's verdict
    and the evidence behind it (newest first), then the facet's history (newest first)."""
    lines = []
    if claim.falsified is not None:
        lines.append(f"{claim.id}: refuted on {claim.falsified.date}: {claim.falsified.why}")
    for facet in claim.grades:
        lines.append(f"{claim.id} / {facet.on}: {facet.grade} (basis {facet.basis})")
        if facet.why:
            lines.append(f"  author: {facet.why}")
        if facet.depends_on is not None:
            lines.append(f"  rests on: {', '.join(facet.depends_on) or 'no premise'}")
        for proposal in (p for p in proposals if p.on == facet.on):
            lines.append(
                f"  proposed: {proposal.from_grade} -> {proposal.to_grade} by rule "
                f"{proposal.rule}: {proposal.why} (claimledger regrade --write)"
            )
        lines += [f"  {n.kind}: {n.why}" for n in notices if n.on == facet.on]
        for trace in (t for t in traces if t.on == facet.on):
            lines.append(f"  rule {trace.rule}: {trace.outcome}")
            newest_first = sorted(
                trace.evidence,
                key=lambda e: e.when or dt.datetime.min.replace(tzinfo=dt.UTC),
                reverse=True,
            )
            said = (evidence_line(evidence) for evidence in newest_first)  # a diff: lines
            lines += ["    " + line.replace("\n", "\n      ") for line in said]  # under its first
        lines += [f"  {entry.describe()}" for entry in reversed(facet_history(claim, facet.on))]
    return lines


def facet_history(claim: Claim, on: str) -> list[HistoryEntry]:
    return [entry for entry in claim.history if entry.on == on]


# --------------------------------------------------------------------------- JSON


def source_rows(ledger: Ledger, fetches: Iterable[Fetched]) -> Iterator[dict[str, Any]]:
    """Each source of the ledger with its page's fetch (`fetch_json`), by source id: a row
    for each source read, its `source_id` first, so a script names it as `claimledger
    source ID` does (two sources of one page share its fetch)."""
    by_url = {fetch.url: fetch for fetch in fetches}  # kept as `urls.redacted` keeps it
    for source_id, source in sorted(ledger.sources.items()):
        if (fetch := by_url.get(redacted(source.url))) is not None:
            yield {"source_id": source_id, **fetch_json(fetch)}


def fetch_json(fetch: Fetched) -> dict[str, Any]:
    """A fetch as JSON for a listing: no page text, and no URL with its secrets."""
    data: dict[str, Any] = to_json(fetch)
    data.pop("text", None)
    data.pop("body", None)  # a raw fetch's bytes (a sitemap's), never a listing's
    return data


def quote_number(index: int) -> int:
    """A quote's place in its claim as every output numbers it: from 1, as `#1` and
    `--quote 1` say it (the store and the model count from 0)."""
    return index + 1


URL_FIELDS = frozenset({"url", "final_url", "moved_to", "canonical", "moved_from"})
"""Fields that hold a URL: JSON shows each as `urls.redacted` keeps it, never a secret."""


def to_json(value: Any) -> Any:
    """Dataclasses, tuples, dates and enums as plain JSON values, URLs redacted, and a
    `quote_index` numbered from 1 (`quote_number`)."""
    if value is None or isinstance(value, str | int | float):  # enums too: str and int
        return value
    kind: type = type(value)
    names = _field_names(kind)
    if names is not None:
        fields = {name: _field_json(name, getattr(value, name)) for name in names}
        if isinstance(fields.get("quote_index"), int):
            fields["quote_index"] = quote_number(fields["quote_index"])
        return fields
    if isinstance(value, Mapping):
        return {str(k): _field_json(str(k), v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [to_json(v) for v in value]
    if isinstance(value, dt.date | dt.datetime):
        return value.isoformat()
    if hasattr(value, "_asdict"):
        return to_json(value._asdict())
    return value


@functools.cache
def _field_names(kind: type) -> tuple[str, ...] | None:
    """A dataclass's field names, and the properties it names in JSON_PROPERTIES (None for
    any other type), looked up once a class."""
    if not dataclasses.is_dataclass(kind):
        return None
    derived: tuple[str, ...] = getattr(kind, "JSON_PROPERTIES", ())
    return (*(field.name for field in dataclasses.fields(kind)), *derived)


def _field_json(name: str, value: Any) -> Any:
    if name in URL_FIELDS and isinstance(value, str):
        return redacted(value)
    return to_json(value)


# --------------------------------------------------------------------------- artifacts


def artifact_run_line(run: ArtifactRun) -> str:
    """The last run of a claim's artifact on one line: when, how it ended, how long it took,
    what ran it, and whether it printed what is expected."""
    when = run.ran_at.astimezone(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    ended = run.error or f"exit status {run.exit_status}"
    verdict = "output matches" if run.matched else "output differs" if run.ran else "no output"
    runner = run.runner or "no such program"
    took = f"{run.seconds:.2f} s"
    return f"{run.claim_id}: artifact last ran {when}: {ended}, {took}, {runner}; {verdict}"
