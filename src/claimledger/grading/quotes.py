"""The quotes rule: a quote-based facet held, lowered or restored from the latest checks of
its claim's quotes, on every source, and their verdicts on the reading day's copies. Pure."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from typing import NamedTuple

from claimledger.grading.verdicts import (
    STALE,
    Check,
    Evidence,
    Verdict,
    baseline_of,
    fall,
    weaker,
)
from claimledger.ledger.model import Claim, Facet, Ledger, Quote, publisher_independence
from claimledger.ledger.vocabulary import Grade
from claimledger.records import (
    CARRIED,
    AsReadCheck,
    FetchRecord,
    Standing,
    classify,
    meaning_uncertain,
)
from claimledger.sites import other_publisher, publisher_of
from claimledger.urls import page_key_either_scheme, redacted


class _QuoteState(NamedTuple):
    """What the latest evidence says of one quote across its sources (a named tuple: a
    regrade makes one a quote, and a frozen dataclass costs four times as much to make)."""

    quote: Quote
    carried_by: frozenset[str]  # independence keys of sources where it is verified
    drifted: tuple[Check, ...]  # harmless drift: the words moved, the meaning did not
    reversed: tuple[Check, ...]  # drift that changed a meaning-carrying word
    not_carried: tuple[Check, ...]  # read, and the words are not there (or the page is gone)
    unread: frozenset[str]  # independence keys of sources not read (or never checked)
    checks: tuple[Check, ...]
    misquoted: tuple[AsReadCheck, ...] = ()  # not on the copy of the reading day, as quoted
    told: tuple[Evidence, ...] = ()  # the evidence line of each of `checks`
    reworded_by: frozenset[str] = frozenset()  # independence keys of `drifted`'s sources
    doubted_by: frozenset[str] = frozenset()  # of those whose meaning may have changed

    @property
    def read(self) -> bool:
        return bool(
            self.carried_by or self.drifted or self.reversed or self.not_carried or self.misquoted
        )

    @property
    def present(self) -> bool:
        """Some read source still carries the words or a harmless rewording of them."""
        return bool(self.carried_by or self.drifted)

    @property
    def possible_sources(self) -> int:
        """Independent sources that carry the quote, or a harmless rewording of it, or might:
        an unread page is no evidence, so it lowers nothing."""
        return independent_count(self.carried_by | self.reworded_by | self.unread)

    @property
    def confirmed_sources(self) -> int:
        """Independent sources read that carry the quote or a harmless rewording of it: an
        unread page is no evidence, so it raises nothing either, nor does a rewording that
        may have changed the meaning (adopted, it would hold the claim for review)."""
        return independent_count(self.carried_by | (self.reworded_by - self.doubted_by))


def _quote_state(
    claim: Claim,
    quote: Quote,
    latest: Latest,
    read_then: Mapping[tuple[str, str, str], AsReadCheck],
) -> _QuoteState:
    carried: set[str] = set()
    reworded_by: set[str] = set()
    doubted_by: set[str] = set()  # reworded where the meaning may have changed
    harmless: set[str] = set()  # reworded, plainly harmlessly
    drifted: list[Check] = []
    reversed_: list[Check] = []
    missing: list[Check] = []
    unread: set[str] = set()
    checks: list[Check] = []
    misquoted: list[AsReadCheck] = []
    told: list[Evidence] = []
    found = [
        (source_id, latest.get((claim.id, quote.text, source_id))) for source_id in quote.sources
    ]
    independence = as_cited(quote, latest.independence.__getitem__, latest.copies)
    keys = counted_keys(found, independence, latest.read_at, latest.cited_before)
    for source_id, check in found:
        place = (claim.id, quote.text, source_id)
        key = keys[source_id]
        then = read_then.get(place) if read_then else None
        standing = None
        if check is not None:
            standing = classify(check)
            checks.append(check)
            told.append(_evidence(check, standing))
        # Misquoted then, in the words quoted now (an adopted rewording was read later, on
        # the live page, so the copy of the reading day is no evidence against it).
        if then is not None and then.misquoted and then.wording == quote.text:
            misquoted.append(then)
            continue
        if check is None:
            unread.add(key)
            continue
        if standing in ("missing", "gone"):
            missing.append(check)
        elif standing == "unread":
            unread.add(key)
        elif standing in CARRIED:  # ambiguous: the words are there, the place is not certain
            carried.add(key)
        elif standing == "changed":
            reversed_.append(check)
        else:
            drifted.append(check)
            reworded_by.add(key)
            (doubted_by if meaning_uncertain(check) else harmless).add(key)
    return _QuoteState(
        quote,
        frozenset(carried),
        tuple(drifted),
        tuple(reversed_),
        tuple(missing),
        frozenset(unread - carried),
        tuple(checks),
        tuple(misquoted),
        tuple(told),
        frozenset(reworded_by),
        frozenset(doubted_by - carried - harmless),
    )


COPY = "\x00a mirror"
"""What a mirror counts as toward `min_sources` (`as_cited`): no publisher's key, since a
copy's words are some other page's."""


def independent_count(keys: Collection[str]) -> int:
    """How many independent sources a quote's counted `keys` make: a mirror's (`COPY`) adds
    one only where no other source's key is among them, whichever the quote names first,
    since it copies one of theirs."""
    return len(keys) - (COPY in keys and len(keys) > 1)


def independent_names(named: Mapping[str, str]) -> list[str]:
    """The names, by counted key, of a quote's independent sources: a mirror's (`COPY`) left
    out where another source is named, as `independent_count` leaves it uncounted."""
    return [name for key, name in named.items() if key != COPY or len(named) == 1]


def independence_keys(ledger: Ledger) -> dict[str, str]:
    """Each source's independence key, as its `independent` and `publisher` say (one page
    cited as two sources is joined per quote, `pages_cited_before`)."""
    return {source_id: source.independence_key for source_id, source in ledger.sources.items()}


def pages_cited_before(ledger: Ledger) -> dict[str, str]:
    """The sources whose page (`one_page`) an earlier source cites, each with that first
    source's independence key: one page is one text, which a second reading (a counter, a
    date beside the words) does not make two, so it counts for both sources' keys, as one
    (`counted_keys`), never for the first's alone, which would part its own publisher's
    other pages from it."""
    first: dict[str, str] = {}
    found: dict[str, str] = {}
    for source_id, source in ledger.sources.items():
        page = first.setdefault(one_page(source.url), source_id)
        if page != source_id:
            found[source_id] = ledger.sources[page].independence_key
    return found


def one_page(url: str) -> str:
    """A page however its address is written: http or https, `www.` or not, a trailing
    slash or a fragment (`page_key_either_scheme`), as the web archive finds its captures;
    and whatever lines it names (`#L1-L5`, `#L10-L20`): two ranges of one file are one
    document of one publisher, though each quote is checked in its own."""
    key, _lines = page_key_either_scheme(url)
    scheme, slashes, rest = key.partition("://")
    return scheme + slashes + rest.removeprefix("www.")


def as_cited(
    quote: Quote, key_of: Callable[[str], str], copies: Collection[str] = ()
) -> dict[str, str]:
    """The independence key of each of a quote's sources (`key_of`), a third party's report
    of it (`reported_by`) counted as the primary source it cites (`via`): the report's words
    are that source's, copied, so the two are one confirmation, as one text read at two
    addresses is, however many publishers carry them. A mirror (`copies`: `Ledger.copies`),
    and a report that cites one, counts as `COPY`: a copy of some page confirms nothing the
    quote's other sources do not, whichever of them it copies (`independent_count`);
    alone, or with other mirrors, it is one source."""
    cites = quote.via if quote.reported_by in quote.sources else None
    keys: dict[str, str] = {}
    for source_id in quote.sources:
        whose = cites if cites is not None and source_id == quote.reported_by else source_id
        keys[source_id] = COPY if whose in copies else key_of(whose)
    return keys


def counted_keys(
    checks: Iterable[tuple[str, Check | None]],
    independence: Mapping[str, str],
    read_at: Mapping[str, Collection[str]] | None = None,
    cited_before: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """What each of a quote's sources counts as toward `min_sources`, from its latest check
    (in the quote's order): its independence key, unless the text read there was read at
    another of them too (a redirect, a mirror: one text at two addresses), then one key
    for both, so that one reading is one source. The keys so joined stay joined, whatever
    the order the quote names its sources in: a mirror of one publisher's page, read
    first, does not part that publisher's pages. A source read on another publisher's site
    (`read_at`, `read_elsewhere`) counts for both publishers, as one source, and so does a
    page an earlier source cites (`cited_before`, `pages_cited_before`). The grading and
    the report count by this."""
    checks = list(checks)
    joined: dict[str, str] = {}  # a key, to the key it counts as (one text read under both)
    first_reader: dict[str, str] = {}  # each text read, by its hash: its first reader's key

    def counted(key: str) -> str:
        while key in joined:
            key = joined[key]
        return key

    for source_id, _ in checks:
        if independence[source_id] == COPY:  # a mirror's words are another's
            continue
        for elsewhere in (read_at or {}).get(source_id, ()):
            own, other = counted(independence[source_id]), counted(elsewhere)
            if own != other:
                joined[other] = own
    for source_id, _ in checks:
        first = (cited_before or {}).get(source_id)
        if first is not None and independence[source_id] != COPY:
            own, other = counted(independence[source_id]), counted(first)
            if own != other:
                joined[other] = own
    for source_id, check in checks:
        if check is not None and check.snapshot_hash and independence[source_id] != COPY:
            key = counted(independence[source_id])
            reader = counted(first_reader.setdefault(check.snapshot_hash, key))
            if reader != key:
                joined[key] = reader
    return {source_id: counted(independence[source_id]) for source_id, _ in checks}


def read_elsewhere(
    ledger: Ledger, fetches: Mapping[str, FetchRecord]
) -> dict[str, tuple[str, ...]]:
    """The sources last read on another publisher's site than their address names (a
    redirect to another registrable domain), each with that publisher's independence keys:
    its domain's, and each name the ledger's own sources on that site go by
    (`_publishers_named`). Whose words they are is in doubt while it is read there (`move`
    adopts the address): such a source counts for all of them, as one (`counted_keys`),
    never as one more. `fetches`: each page's latest, by its address as the store keeps it."""
    found: dict[str, tuple[str, ...]] = {}
    named: dict[str, tuple[str, ...]] | None = None
    for source_id, source in ledger.sources.items():
        fetch = fetches.get(redacted(source.url))
        elsewhere = other_publisher(source.url, fetch.final_url if fetch else None)
        if elsewhere is not None:
            named = _publishers_named(ledger) if named is None else named
            found[source_id] = (publisher_independence(elsewhere), *named.get(elsewhere, ()))
    return found


def _publishers_named(ledger: Ledger) -> dict[str, tuple[str, ...]]:
    """The independence keys the ledger gives each site it cites (by `publisher_of` its
    pages), as its sources there that are neither copies nor marked independent say: a
    page read on a site the ledger names "B Vendor Inc" counts for B Vendor Inc, not for
    the domain alone, which no source's key is; on a site it names two ways, for both."""
    named: dict[str, dict[str, None]] = {}
    for source_id, source in ledger.sources.items():
        if not source.independent and source_id not in ledger.copies:
            named.setdefault(publisher_of(source.url), {})[source.independence_key] = None
    return {site: tuple(keys) for site, keys in named.items()}


class _Reading(NamedTuple):
    """What the latest evidence says of all of a claim's quotes, in its quote order, and the
    evidence it shows: the same for each of the claim's facets (made once a claim, so a
    named tuple, like `_QuoteState`)."""

    states: tuple[_QuoteState, ...]
    evidence: tuple[Evidence, ...]
    read: bool  # some source of some quote was read
    lost: tuple[_QuoteState, ...]  # no source carries them any more, though every one was read
    weighed: tuple[_QuoteState, ...]  # read: their sources are counted
    disagreeing: bool  # a meaning changed on one source while another still carries the words
    partly_gone: tuple[Check, ...]  # gone from a source while another still carries the words
    reversed_unconfirmed: tuple[Check, ...]  # meaning changed where read; another source unread
    reworded: bool  # a quote was reworded (harmlessly) on its page
    uncertain: tuple[Check, ...]  # reworded, and its meaning may have changed
    fall: tuple[str, str] | None  # the rule and the reason a lost quote gives, for every facet
    fewest: int  # the fewest possible sources of a weighed quote (0: none is weighed)


def _read_quotes(states: Iterable[_QuoteState], evidence: Iterable[Evidence]) -> _Reading:
    """A claim's reading, from its quotes' states and the evidence they show: one pass over
    the states (a regrade reads every claim, most of them of one or two quotes)."""
    states = tuple(states)
    lost: list[_QuoteState] = []
    weighed: list[_QuoteState] = []
    read = disagreeing = reworded = False
    uncertain: list[Check] = []
    partly_gone: list[Check] = []
    reversed_unconfirmed: list[Check] = []
    fewest: int | None = None
    for state in states:
        if not state.read:
            continue
        read = True
        present = state.present
        if not present and not state.unread:  # every source read, none carries the words
            lost.append(state)
        if state.reversed and present:
            disagreeing = True
        if state.not_carried and present:
            partly_gone += state.not_carried
        if state.reversed and not present and state.unread:
            reversed_unconfirmed += state.reversed
        if state.drifted:  # a stale notice; its sources are still counted, below
            reworded = True
            uncertain += [check for check in state.drifted if meaning_uncertain(check)]
        weighed.append(state)
        possible = state.possible_sources
        fewest = possible if fewest is None else min(fewest, possible)
    return _Reading(
        states,
        tuple(evidence),
        read=read,
        lost=tuple(lost),
        weighed=tuple(weighed),
        disagreeing=disagreeing,
        partly_gone=tuple(partly_gone),
        reversed_unconfirmed=tuple(reversed_unconfirmed),
        reworded=reworded,
        uncertain=tuple(uncertain),
        fall=_fall_of(lost) if lost else None,
        fewest=fewest or 0,
    )


def _fall_of(lost: Sequence[_QuoteState]) -> tuple[str, str]:
    """The rule and the reason that take a claim's quote facets to UNKNOWN, from the quotes
    no source carries: misquoted at reading time, else reversed in meaning, else gone."""
    misquoted = [s for s in lost if s.misquoted]
    if misquoted:
        return MISQUOTED, _misquoted_why(misquoted, "no source carries")
    reversed_ = [s for s in lost if s.reversed]
    if reversed_:
        kinds = _kinds(check for state in reversed_ for check in state.reversed)
        return (
            "quotes-meaning-changed",
            f"the page's wording changes the meaning of {_quotes(len(reversed_))}"
            f"{f' ({kinds})' if kinds else ''}: re-read it",
        )
    return "quotes-gone", f"no source carries {_quotes(len(lost))} any more"


class Latest(dict[tuple[str, str, str], Check]):
    """The latest checks by key, and what they say of each claim's quotes, worked out once
    for all of the claim's facets (and each source's independence key, once for all of
    its checks)."""

    def __init__(
        self,
        checks: Mapping[tuple[str, str, str], Check],
        ledger: Ledger,
        read_at: Mapping[str, tuple[str, ...]] | None = None,
    ) -> None:
        super().__init__(checks)
        self.readings: dict[str, _Reading] = {}
        self.independence = independence_keys(ledger)
        self.cited_before = pages_cited_before(ledger)
        self.copies = ledger.copies
        self.read_at = read_at or {}
        """Sources read on another publisher's site (`read_elsewhere`)."""


def _reading(
    ledger: Ledger,
    claim: Claim,
    latest: Mapping[tuple[str, str, str], Check],
    read_then: Mapping[tuple[str, str, str], AsReadCheck],
) -> _Reading:
    """Each quote's state, and the evidence they show (the same for every facet of one
    regrade, so worked out once per claim)."""
    if not isinstance(latest, Latest):
        latest = Latest(latest, ledger)
    known = latest.readings
    if claim.id not in known:
        states = [_quote_state(claim, quote, latest, read_then) for quote in claim.quotes]
        told = [line for state in states for line in state.told]
        told += [_as_read_evidence(then) for state in states for then in state.misquoted]
        known[claim.id] = _read_quotes(states, told)
    return known[claim.id]


def _evidence(check: Check, standing: Standing) -> Evidence:
    """One line of evidence: the quote's status on a page that was read, else the page's."""
    read = standing not in ("unread", "gone")
    status = check.status if read and check.status else check.source_status
    detail = ""
    if check.status == "drifted" and check.current:
        detail = f"page now says: {check.current}"
        if check.change_kinds:
            detail += f" ({', '.join(check.change_kinds)})"
    elif not read:
        detail = f"source {check.source_status}"
    return Evidence(
        check.quote_text,
        check.source_id,
        status,
        check.checked_at,
        detail,
        check.moved_within,
        page_moved=check.source_status == "moved",
    )


def quotes_rule(
    ledger: Ledger,
    claim: Claim,
    facet: Facet,
    latest: Mapping[tuple[str, str, str], Check],
    read_then: Mapping[tuple[str, str, str], AsReadCheck] | None = None,
) -> Verdict:
    """Hold, lower or restore a quote-based facet from the latest checks of its quotes (and
    their verdicts on the archived copies of the reading day)."""
    reading = _reading(ledger, claim, latest, read_then or {})
    evidence = reading.evidence
    if not reading.read:
        why = "no evidence yet" if not evidence else "no source could be read: no evidence"
        return Verdict(None, "quotes", why, evidence)
    if reading.fall is not None:
        return fall(facet, *reading.fall, evidence)
    short = _short(reading, facet.min_sources)
    verdict = restore_or_hold(claim, facet, short, evidence, reading.states)
    if short and any(state.misquoted for state in short):
        verdict.rule = MISQUOTED
        fewer = f"fewer than {facet.min_sources} independent sources carry"
        verdict.why = _misquoted_why(short, fewer)
    if reading.disagreeing:
        verdict = _held_while_disagreeing(facet, verdict)
        verdict.notice = "sources-disagree"
        verdict.why = (
            "a quote's meaning changed on one source but not on another: "
            "re-read both and split the quote per source"
        )
    elif reading.partly_gone:
        verdict.notice = "sources-disagree"
        gone = reading.partly_gone
        where = ", ".join(dict.fromkeys(check.source_id for check in gone))
        count = len({check.quote_text for check in gone})
        verb, it = ("is", "it") if count == 1 else ("are", "them")
        verdict.why = (
            f"{_quotes(count)} {verb} no longer on {where}, though another source still "
            f"carries {it}: drop that source from the quote's sources in the ledger, or quote "
            "its new words there"
        )
    elif reading.reversed_unconfirmed:
        verdict.notice = "sources-disagree"
        where = ", ".join(dict.fromkeys(c.source_id for c in reading.reversed_unconfirmed))
        kinds = _kinds(reading.reversed_unconfirmed)
        verdict.why = (
            f"a quote's meaning changed on {where}{f' ({kinds})' if kinds else ''}, and no "
            "other source of it could be read: re-read it before trusting the grade"
        )
    elif reading.uncertain:
        verdict.notice = STALE
        verdict.why = (
            "a quote was reworded on its page and its meaning may have changed "
            f"({_kinds(reading.uncertain)}): re-read it, then `claimledger accept`"
        )
    elif reading.reworded:
        verdict.notice = STALE
        verdict.why = "a quote was reworded on its page (harmless): run `claimledger accept`"
    return verdict


def _held_while_disagreeing(facet: Facet, verdict: Verdict) -> Verdict:
    """A page read says the reverse of a quote another still carries: that lowers nothing
    (the quote should be split per source) and raises nothing either, since the evidence
    holds up no more than UNKNOWN until the author re-reads both (as the report rates it)."""
    new = verdict.to_grade
    if new is None or new.strength <= facet.grade.strength:
        return verdict
    return Verdict(None, "quotes-unconfirmed", verdict.why, verdict.evidence)


def _short(reading: _Reading, min_sources: int) -> list[_QuoteState]:
    """The weighed quotes that fewer than `min_sources` independent sources may carry (none
    when even the fewest-sourced one has enough, as it mostly has)."""
    if min_sources <= reading.fewest:
        return []
    return [state for state in reading.weighed if state.possible_sources < min_sources]


MISQUOTED = "misquoted-as-read"
"""The rule's name when a quote was not on the archived copy of the reading day."""


def _misquoted_why(states: Iterable[_QuoteState], sources: str) -> str:
    """ "1 quote misquoted at reading time (not so on the archived copy of blog-2021
    nearest the reading day, 2026-08-23): no source carries it" """
    states = list(states)
    day = next(then.read_on for state in states for then in state.misquoted).isoformat()
    where = ", ".join(dict.fromkeys(t.source_id for s in states for t in s.misquoted))
    return (
        f"{_quotes(len(states))} misquoted at reading time (not so on the archived copy of "
        f"{where} nearest the reading day, {day}): {sources} it"
    )


def _as_read_evidence(then: AsReadCheck) -> Evidence:
    """One line of evidence for a quote misquoted at reading time: what the copy said."""
    said = f"; the copy says: {then.current}" if then.current else ""
    detail = f"archived copy of {then.timestamp[:8]} ({then.snapshot_url}){said}"
    return Evidence(
        then.quote_text,
        then.source_id,
        f"misquoted as read ({then.status})",
        then.checked_at,
        detail,
    )


def _kinds(checks: Iterable[Check]) -> str:
    """The kinds of meaning change, named once each: "negation removed, number changed"."""
    return ", ".join(dict.fromkeys(kind for check in checks for kind in check.change_kinds))


def _quotes(count: int) -> str:
    return "1 quote" if count == 1 else f"{count} quotes"


def restore_or_hold(
    claim: Claim,
    facet: Facet,
    short: list[_QuoteState],
    evidence: tuple[Evidence, ...],
    states: Sequence[_QuoteState],
) -> Verdict:
    """Every quote is present: back to the grade before the rules moved it, but no more
    than CLAIMED when a quote no longer reaches `min_sources` independent sources.

    A page that could not be read lowers nothing, and raises nothing: a grade goes back up
    only as far as the quotes are verified, now, on pages that were read (`states`, each
    quote's): to CLAIMED when each is on one such page, higher when each is on
    `min_sources`."""
    baseline = baseline_of(claim, facet)
    target = baseline or facet.grade
    if short:
        target = weaker(target, Grade.CLAIMED)
        rule = "quotes-under-sourced"
        why = f"verified on fewer than {facet.min_sources} independent sources"
    else:
        rule = "quotes-restored" if baseline else "quotes"
        why = "every quote verified"
        if facet.min_sources > 1:
            why += f" on {facet.min_sources} independent sources"
    unconfirmed = [state for state in states if state.confirmed_sources < facet.min_sources]
    if unconfirmed and not short:  # held by pages not read, which say nothing either way
        carried = all(state.confirmed_sources for state in states)
        said = "every quote verified on a page read" if carried else "held"
        why = f"{said}; {_unread_named(unconfirmed)} (no evidence either way)"
    if target.strength > facet.grade.strength and unconfirmed:
        confirmed = all(state.confirmed_sources for state in states)
        target = weaker(target, Grade.CLAIMED) if confirmed else facet.grade
        if target == facet.grade:
            held = f"held: {_unread_named(unconfirmed)}, and only pages read raise a grade"
            return Verdict(None, "quotes-unconfirmed", held, evidence)
    return Verdict(target if target != facet.grade else None, rule, why, evidence)


def _unread_named(states: Iterable[_QuoteState]) -> str:
    """ "s1 could not be read" for the quotes held back by pages not read (or by rewordings
    that may have changed their meaning: "the meaning may have changed on s2")."""
    states = list(states)
    unread = sorted(
        {
            check.source_id
            for state in states
            for check in state.checks
            if classify(check) == "unread"
        }
    )
    doubted = sorted(
        {check.source_id for state in states for check in state.drifted if meaning_uncertain(check)}
    )
    said = [f"{', '.join(unread)} could not be read"] if unread else []
    if doubted:
        said.append(f"the meaning may have changed on {', '.join(doubted)}")
    return "; ".join(said) or "a source of a quote has not been read"
