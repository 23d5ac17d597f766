"""Words that narrow or widen what a claim covers without a word of its own for it: a
modifier of a guarantee or of a fault ("snapshot isolation" -> "isolation", "a clean
shutdown" -> "a shutdown"), which names which guarantee is given or which faults it holds
through; the manner of an operation ("a rolling upgrade" -> "an upgrade", "a graceful
restart" -> "a forced restart"); and a scope put in ("on Linux", "in production", "for
paid plans"), where or when it holds. Either way the claim covers another thing.

Pure. Judged on the lower-cased words of a quote and its span.
"""

from __future__ import annotations

from claimledger.reading.match.lexicon import STOPWORDS, is_content_word, lemma
from claimledger.reading.match.span import Opcode

GUARANTEES = frozenset(
    {"consistency", "isolation", "serializability", "linearizability", "atomicity"}
    | {"durability", "ordering", "idempotency", "idempotence", "staleness", "at-least-once"}
    | {"at-most-once", "exactly-once", "effectively-once"}
)
"""The nouns that name a guarantee (not "guarantees" itself, which any list of them has)."""

FAULTS = frozenset(
    {"crash", "failure", "outage", "partition", "shutdown", "loss", "fault", "disconnection"}
    | {"interruption", "corruption", "termination", "eviction"}
)
"""The nouns that name a fault a guarantee holds through."""

OPERATIONS = frozenset(
    {"restart", "upgrade", "shutdown", "failover", "migration", "resize", "reindex", "backup"}
    | {"restore", "rollout", "reboot", "switchover", "rebalance", "deployment", "update"}
)
"""The nouns that name an operation on a system, which a manner changes: a rolling upgrade
keeps the cluster up where a full one does not."""

_MANNER_NAMES = """
graceful clean controlled soft
forced forceful hard unclean
online hot live zero-downtime non-disruptive
offline cold disruptive
rolling
in-place
full
incremental
partial
manual
automatic
"""
MANNERS = {
    word: line.split()[0] for line in _MANNER_NAMES.strip().splitlines() for word in line.split()
}
"""Modifiers that say how an operation is done, each with the manner it names ("hot",
"online" and "live" one manner), and with it what a claim about the operation holds
through ("during a rolling upgrade", "after a forced failover"); any other modifier of an
operation ("a quick restart") is judged as a word."""

_WHAT = frozenset({"data", "message", "record", "event", "write", "entry", "key", "object"})
"""Modifiers that name what a guarantee or a fault is about, which it is about anyway."""

_MODIFIER_WORDS = 2
"""At most this many content words put in or taken out modify the head after them."""

_HEAD_REACH = 2
"""The head stands right after the modifier, or after one more noun ("a transient network
partition")."""


def modifier_changed(
    op: Opcode, q_low: list[str], p_low: list[str], breaks: tuple[list[bool], list[bool]]
) -> str | None:
    """The kind of a change that put a modifier before a guarantee, a fault or an
    operation, or took one out: words inserted or deleted (or "a temporary" -> "an")
    right before the head, which the other side has before the same head in no form.
    `breaks`: the clause breaks before each word of the quote and of its span."""
    _, i1, i2, j1, j2 = op
    taken, put = q_low[i1:i2], p_low[j1:j2]
    taken_content, put_content = _content(taken), _content(put)
    if taken_content and put_content:
        return _manner_changed(taken_content, put_content, q_low, breaks[0], i2)
    changed = taken_content or put_content
    if not changed or len(changed) > _MODIFIER_WORDS:
        return None
    head_at = i2 if taken_content else j2
    around, around_breaks = (q_low, breaks[0]) if taken_content else (p_low, breaks[1])
    other = p_low if taken_content else q_low
    if any(lemma(w) in {lemma(c) for c in changed} for w in other):
        return None  # the modifier is still there, elsewhere or in another form
    if {lemma(c) for c in changed} <= _WHAT:
        return None  # "data loss", "message ordering": what is kept, not which guarantee
    heads = _heads(around, head_at)
    if heads & GUARANTEES:
        return "guarantee term changed"
    manner = set(changed) & MANNERS.keys()
    if heads & FAULTS or (manner and _operation_at(around, around_breaks, head_at)):
        return "qualifier removed" if taken_content else "qualifier added"
    return None


def _heads(words: list[str], at: int) -> set[str]:
    """The words a modifier ending at `at` may modify, as written and as lemmas."""
    following = words[at : at + _HEAD_REACH]
    return {*following, *(lemma(w) for w in following)}


def _operation_at(words: list[str], breaks: list[bool], at: int) -> bool:
    """Is the word at `at` an operation, and the head of its phrase: a clause break, a
    word of grammar or the end after it ("a full backup of the volume", "a graceful
    restart, in-flight ..."), not a noun it names ("the full backup size", "the upgrade
    notes"), nor a place in the docs a few words on ("the full backup and restore
    documentation")."""
    if at >= len(words) or lemma(words[at]) not in OPERATIONS:
        return False
    ends = at + 1 >= len(words) or breaks[at + 1] or words[at + 1] in STOPWORDS
    return ends and not {lemma(w) for w in words[at + 1 : at + 1 + _PLACE_REACH]} & _PLACES


_PLACE_REACH = 3


def _manner_changed(
    taken: list[str], put: list[str], words: list[str], breaks: list[bool], at: int
) -> str | None:
    """One manner of an operation put for another ("a graceful restart" -> "a forced
    restart"): another operation. The same manner in other words ("hot" / "online") and
    any other modifier replaced are no change of manner."""
    was = {MANNERS[w] for w in taken if w in MANNERS}
    now = {MANNERS[w] for w in put if w in MANNERS}
    if not was or not now or not _operation_at(words, breaks, at):
        return None
    return MANNER_CHANGED if was != now else None


MANNER_CHANGED = "manner changed"


_SCOPING = frozenset(
    {"on", "in", "during", "for", "under", "within", "outside", "except"}
    | {"prior", "before", "after", "since", "until"}
)
"""Prepositions that put a condition of place, time or edition on a claim ("on Linux",
"in production", "during the maintenance window", "prior to version 6.1")."""


SCOPES = frozenset(
    {"linux", "windows", "macos", "kubernetes", "docker", "arm", "arm64", "x86", "android"}
    | {"ios", "aws", "azure", "gcp", "production", "staging", "development", "enterprise"}
    | {"community", "free", "paid", "pro", "premium", "serverless", "dedicated", "tier"}
    | {"plan", "plans", "edition", "editions", "subscription", "subscriptions", "region"}
    | {"regions", "self-hosted", "self-managed", "cloud", "maintenance", "beta", "preview"}
    | {"upgrade", "upgrades", "rebalance", "failover", "startup", "mode", "version"}
    | {"environment", "environments", "test", "on-premises"}
)
"""Words that name where or when a claim holds: a platform, an environment, an edition or
a plan, a region, a window of time or of operation ("on Linux", "in production", "for
paid plans", "during the maintenance window", "in compliance mode"). A preposition before
other words names a place in the docs or a tool ("in the config file", "on the page"),
or a unit ("in milliseconds"), as often as a scope."""


def scope_put_in(op: Opcode, q_low: list[str], p_low: list[str]) -> str | None:
    """A phrase of a scoping preposition and one to three new content words, one naming a
    scope (see `SCOPES`), put inside the span ("uses direct I/O on Linux", "should be
    disabled in production"): the claim now holds only there."""
    tag, _, _, j1, j2 = op
    if tag != "insert" or j1 == 0 or j2 >= len(p_low):
        return None
    return "qualifier added" if names_a_scope(p_low[j1:j2], q_low) else None


def scope_before(head: list[str], quote: list[str]) -> bool:
    """Did the page put a scope before a quote that began a sentence ("On Linux, the
    engine ...", "For Enterprise plans, backups ..."), as `scope_put_in` reads one?"""
    return names_a_scope([w.lower() for w in head], [w.lower() for w in quote])


def may_scope(head: list[str], quote: list[str]) -> bool:
    """Did the page put a phrase of a scoping preposition and new content words before a
    quote that began a sentence, which names no scope `SCOPES` knows ("On BlueStore OSDs,
    ...", "For tables with a primary key, ...")? It may tie the claim to a case, or only set
    the scene; a connective ("In addition, ...", "For example, ...") does neither."""
    low = [w.lower() for w in head]
    if not low or low[0] not in _SCOPING or _opens_a_connective(low[1:]):
        return False
    said = {lemma(w.lower()) for w in quote}
    new = [w for w in _content(low[1:]) if lemma(w) not in said]
    return 1 <= len(new) <= _SCOPE_WORDS


_SCOPE_WORDS = 5
"""At most this many new content words before a quote make a phrase that may scope it."""


def _opens_a_connective(words: list[str]) -> bool:
    """The words after the preposition begin a phrase that joins a sentence to what came
    before ("In addition", "For more information", "On the other hand", "For this
    reason"), not a case of the claim ("In case of a partition", "On other platforms")."""
    content = [w for w in words if w not in _ARTICLES_AND_POINTERS]
    return bool(content) and (content[0] in _CONNECTIVE or tuple(content[:2]) in _CONNECTIVE_PAIRS)


_ARTICLES_AND_POINTERS = frozenset({"a", "an", "the", "this", "that", "these", "those"})

_CONNECTIVE = frozenset(
    {"addition", "example", "instance", "general", "particular", "short", "fact", "practice"}
    | {"contrast", "summary", "brief", "turn", "information", "details", "detail", "reason"}
    | {"reasons", "hood", "meantime"}
)
_CONNECTIVE_PAIRS = frozenset(
    {("other", "words"), ("other", "hand"), ("more", "information"), ("more", "details")}
)
"""First words of the phrases that join a sentence to what came before ("In addition",
"For example", "In practice", "For more information", "In other words", "Under the
hood"): no case of the claim."""


def names_a_scope(phrase: list[str], quote: list[str]) -> bool:
    """A scoping preposition, then one to three content words the quote does not have, one
    of them naming a scope (lower-cased words)."""
    content = _content(phrase[1:])
    if not phrase or phrase[0] not in _SCOPING or not 1 <= len(content) <= 3:
        return False
    said = {lemma(w) for w in quote}
    if any(lemma(w) in said for w in content):
        return False
    return any(w in SCOPES for w in content) and content[-1] not in _PLACES


_PLACES = frozenset(
    {"guide", "page", "pages", "section", "docs", "documentation", "file", "files", "dialog"}
    | {"pane", "tab", "menu", "registry", "manifest", "script", "config", "console", "notes"}
    | {"screen", "table", "chart", "example", "tutorial"}
)
"""Places in the docs or a tool ("in the upgrade guide", "on the Linux page", "in the
Windows registry"): where something is said or done, not where the claim holds."""


def _content(words: list[str]) -> list[str]:
    return [w for w in words if is_content_word(w)]
