"""The two levels of a meaning flag, rule by rule, on constructed sentences.

`meaning_changed` (shown MEANING CHANGED, refused by `accept --all-drifted`) only on strong
evidence: a number or unit, a negation, a modal across the must/should/may line, a
quantifier or a scope, a guarantee term, two terms swapped in place. Any other content
word changed that no harmless form explains is `meaning_uncertain`; a rewording every
changed word of which is explained (grammar, inflection, hyphenation, abbreviation, a
number as a word, a split sentence) is neither.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from claimledger.meanings import changed_words_said, said_once
from claimledger.reading.match import locate, prepare
from claimledger.reading.match.explain import explained, same_stem
from claimledger.reading.match.verdict import Match
from cli_runner import Cli
from evidence_site import page
from meaning_levels import judged, level
from webserver import PageServer


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "The lock is released after 30 seconds.",
            "The lock is released after 30 minutes.",
            "number changed",
            id="unit-of-time-changed",
        ),
        pytest.param(
            "The timeout is 10s.", "The timeout is 10 minutes.", "number changed", id="unit-glued"
        ),
        pytest.param(
            "The default limit is 64 KiB.",
            "The default limit is 64 KB.",
            "number changed",
            id="binary-unit-for-decimal",
        ),
        pytest.param(
            "Writes are never lost.", "Writes are lost.", "negation removed", id="negation-removed"
        ),
        pytest.param(
            "The leader retries the write.",
            "The leader does not retry the write.",
            "negation added",
            id="negation-added",
        ),
        pytest.param(
            "Writes must be acknowledged by a quorum.",
            "Writes should be acknowledged by a quorum.",
            "modal weakened",
            id="must-to-should",
        ),
        pytest.param(
            "The leader is not elected again, and the followers retry the write.",
            "The leader is elected again, and the followers do not retry the write.",
            "negation moved to another clause",
            id="negation-moved-to-deny-another-thing",
        ),
        pytest.param(
            "Clients may cache the token.",
            "Clients must cache the token.",
            "modal strengthened",
            id="may-to-must",
        ),
        pytest.param(
            "Every node keeps a copy.",
            "Some nodes keep a copy.",
            "quantifier changed",
            id="quantifier-narrowed",
        ),
        pytest.param(
            "Writes are durable.",
            "Writes are durable only when fsync is enabled.",
            "qualifier added",
            id="scope-narrowed-by-a-two-word-qualifier",
        ),
        pytest.param(
            "All keys except leases are replicated.",
            "All keys are replicated.",
            "qualifier removed",
            id="scope-widened",
        ),
        pytest.param(
            "Each message gets exactly-once delivery semantics within a region.",
            "Each message gets delivery semantics within a region.",
            "guarantee term changed",
            id="term-dropped-from-a-guarantee",
        ),
        pytest.param(
            "Messages are delivered at least once.",
            "Messages are delivered exactly once.",
            "guarantee term changed",
            id="guarantee-in-words-swapped",
        ),
        pytest.param(
            "Replication is synchronous.",
            "Replication is asynchronous.",
            "guarantee term changed",
            id="synchronous-asynchronous",
        ),
        pytest.param(
            "Retries are enabled by default.",
            "Retries are disabled by default.",
            "negation added",  # "disabled" denies: not enabled
            id="a-setting-turned-to-its-opposite",
        ),
        pytest.param(
            "Deleting a bucket is irreversible.",
            "Deleting a bucket is reversible.",
            "negation removed",
            id="a-negating-prefix-ir-dropped",
        ),
        pytest.param(
            "Exactly-Once Delivery for Kafka Streams",
            "At-Least-Once Delivery for Kafka Streams",
            "guarantee term changed",
            id="a-title-keeps-its-guarantee-terms",
        ),
        pytest.param(
            "Durable Objects are strongly consistent across regions.",
            "Durable Objects are eventually consistent across regions.",
            "guarantee term changed",
            id="a-guarantee-said-of-a-product-named-with-a-guarantee-word",
        ),
        pytest.param(
            "The leader forwards every write to the follower.",
            "The follower forwards every write to the leader.",
            "words swapped",
            id="two-nouns-swapped",
        ),
        pytest.param(
            "The client sends the request to the server before the timeout.",
            "The server sends the request to the client before the timeout.",
            "words swapped",
            id="two-nouns-swapped-further-apart",
        ),
        pytest.param(
            "It supports gzip, zstd and brotli compression.",
            "It supports gzip and brotli compression.",
            "list changed",
            id="item-dropped-from-a-list",
        ),
    ],
)
def test_strong_evidence_says_the_meaning_changed(quote: str, passage: str, kind: str) -> None:
    found = judged(quote, passage)
    assert kind in found.kinds, found.kinds
    assert found.meaning_changed and not found.meaning_uncertain


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "By default all plugin commands are blocked.",
            "By default all potentially dangerous plugin commands are blocked.",
            id="two-word-modifier-put-before-a-noun",
        ),
        pytest.param(
            "Requests are handled by that instance.",
            "Requests are processed by that instance.",
            id="a-verb-for-another",
        ),
        pytest.param(
            "Celery can use the pyOpenSSL library to sign messages.",
            "Celery can use the cryptography library to sign messages.",
            id="a-name-for-another",
        ),
        pytest.param(
            "The API is served over HTTP.",
            "The API is served over HTTPS.",
            id="an-acronym-with-a-letter-put-after",
        ),
        pytest.param("Clients connect with TLS.", "Clients connect with MTLS.", id="letter-before"),
        pytest.param(
            "Requests are sent over http to the origin server.",
            "Requests are sent over https to the origin server.",
            id="a-protocol-secured-in-small-letters",
        ),
        pytest.param(
            "Requests are sent over https to the origin server.",
            "Requests are sent over http to the origin server.",
            id="a-protocol-unsecured-in-small-letters",
        ),
        pytest.param("Uploads use ftp by default.", "Uploads use ftps by default.", id="ftps"),
        pytest.param(
            "The broker listens for mqtt clients.",
            "The broker listens for mqtts clients.",
            id="mqtts",
        ),
        pytest.param(
            "Connect over Http to the broker.", "Connect over Https to the broker.", id="titled"
        ),
        pytest.param(
            "Images are signed with SHA before upload.",
            "Images are signed with SHA256 before upload.",
            id="an-acronym-made-one-of-its-family",
        ),
        pytest.param(
            "Images are signed with SHA256 before upload.",
            "Images are signed with SHA before upload.",
            id="an-acronym-made-its-family",
        ),
        pytest.param(
            "Keys are encrypted with AES at rest.",
            "Keys are encrypted with AES-256 at rest.",
            id="an-acronym-with-a-size-put-after",
        ),
        pytest.param(
            "Requests are sent over HTTP to the origin.",
            "Requests are sent over HTTP2 to the origin.",
            id="an-acronym-with-a-version-put-after",
        ),
        pytest.param(
            "Writes are acknowledged once they are persisted.",
            "Writes are acknowledged once they are persisted on the leader.",
            id="a-phrase-put-after",
        ),
        pytest.param(
            "No events are delivered to a Durable Object except storage completions.",
            "No events are delivered to the object except storage completions.",
            id="a-product-named-with-a-guarantee-word-said-otherwise",
        ),
    ],
)
def test_other_content_changes_may_have_changed_the_meaning(quote: str, passage: str) -> None:
    """A content word put in, taken out or replaced that no harmless form explains: never
    silently harmless, never shouted. A modifier before a noun narrows a claim as often
    as it only elaborates one, so it is not strong evidence (unless the noun names a fault
    or a guarantee: see `test_a_fault_or_a_guarantee_named_otherwise_changes_the_claim`)."""
    assert level(quote, passage) == "uncertain"


def test_a_link_to_the_secured_protocol_may_have_changed_the_meaning() -> None:
    """The same address over another protocol: `https://` is no abbreviation's growth."""
    quote = "Fetch it from http://example.com/data first."
    assert level(quote, "Fetch it from https://example.com/data first.") == "uncertain"
    assert level(quote, "Fetch it from HTTP://example.com/data first.") == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Set max_mem_per_child to limit it.",
            "Set max_memory_per_child to limit it.",
            id="a-part-cut-short",
        ),
        pytest.param(
            "Set the maxmem option to limit it.",
            "Set the max_memory option to limit it.",
            id="parts-run-together",
        ),
    ],
)
def test_a_name_written_short_is_the_same_name(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Images are signed with SHA-256 before upload.",
            "Images are signed with SHA256 before upload.",
            id="hyphen-taken-out",
        ),
        pytest.param(
            "All etcd3 APIs are defined in gRPC services.",
            "All etcd APIs are defined in gRPC services.",
            id="a-products-version-in-small-letters",
        ),
    ],
)
def test_an_acronym_and_its_number_written_apart_are_the_same_name(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Requests are sent over http to the origin.",
            "Requests are sent over HTTP to the origin.",
            id="http-in-capitals",
        ),
        pytest.param(
            "Requests are sent over HTTPS to the origin.",
            "Requests are sent over https to the origin.",
            id="https-in-small-letters",
        ),
    ],
)
def test_a_protocol_written_in_other_letters_is_the_same_protocol(quote: str, passage: str) -> None:
    """ "https" is no plural of "http" (see above), but "http" in capitals is "http"."""
    assert level(quote, passage) == "harmless", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "You can use the Tx.Copy() function to write a consistent view.",
            "You can use the Tx.WriteTo() function to write a consistent view.",
            id="a-method",
        ),
        pytest.param(
            "Redirects are handled with the allow_redirects parameter.",
            "Redirects are handled with the follow_redirects parameter.",
            id="a-parameter",
        ),
        pytest.param(
            "Set the MAX_RETRIES variable to change it.",
            "Set the MAX_ATTEMPTS variable to change it.",
            id="an-environment-variable",
        ),
        pytest.param(
            "Set maxInflight to bound the requests.",
            "Set maxPending to bound the requests.",
            id="a-camel-case-key",
        ),
        pytest.param(
            "Permissions are read from capabilities/main.json at start.",
            "Permissions are read from capabilities/default.json at start.",
            id="a-file",
        ),
        pytest.param(
            "Set HTTP_PROXY to route the agent traffic.",
            "Set HTTPS_PROXY to route the agent traffic.",
            id="a-part-grown-by-a-letter",
        ),
        pytest.param(
            "Set http_proxy to route the agent traffic.",
            "Set https_proxy to route the agent traffic.",
            id="a-part-grown-by-a-letter-in-small-letters",
        ),
        pytest.param(
            "Export FTPS_HOST before the upload starts.",
            "Export FTP_HOST before the upload starts.",
            id="a-part-cut-by-a-letter",
        ),
    ],
)
def test_an_identifier_put_for_another_changes_the_claim(quote: str, passage: str) -> None:
    """A setting, function or file named as code and replaced by another: whoever types
    the old name now gets an error or another thing, which a word's rename never says."""
    assert level(quote, passage) == "changed"
    assert "identifier changed" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage", "expected"),
    [
        pytest.param(
            "Clients are written in JavaScript.",
            "Clients are written in TypeScript.",
            "uncertain",
            id="a-product-s-capitals-are-no-code",
        ),
        pytest.param(
            "Set the Prev_Kv field to get the old value.",
            "Set the prev_kv field to get the old value.",
            "harmless",
            id="respelled",
        ),
        pytest.param(
            "Set CELERYD_MAX_MEMORY_PER_CHILD to bound a worker.",
            "Set worker_max_memory_per_child to bound a worker.",
            "harmless",
            id="the-same-setting-in-another-namespace",
        ),
        pytest.param(
            "See https://example.com/guide/a for the steps.",
            "See https://example.com/guide/b for the steps.",
            "harmless",
            id="a-link-is-no-identifier",
        ),
    ],
)
def test_a_name_respelled_or_not_code_is_no_identifier_changed(
    quote: str, passage: str, expected: str
) -> None:
    assert level(quote, passage) == expected


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "The sidecar opens outbound connections only.",
            "The sidecar only opens outbound connections.",
            "qualifier moved",
            id="only-moved",
        ),
        pytest.param(
            "Retries are not sent to the followers of the shard.",
            "Retries are sent to the followers of the shard, not to the leader.",
            "negation moved to other words",
            id="negation-moved-on-to-other-words",
        ),
        pytest.param(
            "Sentry creates a root certificate, unless one was provided by the user.",
            "Unless you provided one, Sentry creates a root certificate.",
            "qualifier moved",
            id="condition-reworded-and-moved-to-the-front",
        ),
    ],
)
def test_a_moved_condition_or_negation_may_have_changed_the_meaning(
    quote: str, passage: str, kind: str
) -> None:
    """A condition or a negation taken out of one place of a clause and put in another may
    now bind other words, or nothing new: the meaning may have changed, and the reason says
    how."""
    found = judged(quote, passage)

    assert level(quote, passage) == "uncertain"
    assert kind in found.kinds


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "The cluster tolerates crash faults of a minority of its nodes.",
            "The cluster tolerates faults of a minority of its nodes.",
            "qualifier removed",
            id="adjective-dropped-from-a-fault-model",
        ),
        pytest.param(
            "The log stays available during a transient network partition between racks.",
            "The log stays available during a network partition between racks.",
            "qualifier removed",
            id="adjective-dropped-before-a-compound-fault",
        ),
        pytest.param(
            "Acknowledged writes survive an outage of the disk.",
            "Acknowledged writes survive a brief outage of the disk.",
            "qualifier added",
            id="adjective-put-before-a-fault",
        ),
        pytest.param(
            "Transactions run with snapshot isolation by default.",
            "Transactions run with isolation by default.",
            "guarantee term changed",
            id="term-dropped-from-a-guarantee-name",
        ),
        pytest.param(
            "Consumers get per-partition ordering guarantees for messages of one key.",
            "Consumers get ordering guarantees for messages of one key.",
            "guarantee term changed",
            id="scope-dropped-from-a-guarantee-name",
        ),
        pytest.param(
            "The database guarantees serializability for all transactions.",
            "The database guarantees strict serializability for all transactions.",
            "guarantee term changed",
            id="term-put-in-a-guarantee-name",
        ),
    ],
)
def test_a_fault_or_a_guarantee_named_otherwise_changes_the_claim(
    quote: str, passage: str, kind: str
) -> None:
    """Which faults a guarantee holds through, and which guarantee is given, is the claim:
    a word taken out of or put in their name says another thing."""
    found = judged(quote, passage)
    assert found.meaning_changed, found.kinds
    assert kind in found.kinds


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        pytest.param(
            "Nodes are restarted one at a time during a rolling upgrade.",
            "Nodes are restarted one at a time during an upgrade.",
            "qualifier removed",
            id="manner-taken-out",
        ),
        pytest.param(
            "Reads are served during an upgrade.",
            "Reads are served during a rolling upgrade.",
            "qualifier added",
            id="manner-put-in",
        ),
        pytest.param(
            "After a graceful restart, in-flight requests complete.",
            "After a forced restart, in-flight requests complete.",
            "manner changed",
            id="manner-for-another",
        ),
        pytest.param(
            "Take a full backup of the volume every night.",
            "Take an incremental backup of the volume every night.",
            "manner changed",
            id="full-to-incremental",
        ),
    ],
)
def test_the_manner_of_an_operation_changed_changes_the_claim(
    quote: str, passage: str, kind: str
) -> None:
    """A rolling upgrade keeps the cluster serving where an upgrade need not: how an
    operation is done is what a claim about it holds through."""
    found = judged(quote, passage)
    assert found.meaning_changed, found.kinds
    assert kind in found.kinds


def test_another_modifier_of_an_operation_is_only_a_word() -> None:
    """A modifier that says nothing of how the operation is done may have changed the
    claim, no more."""
    assert (
        level("After a restart, the cache is empty.", "After a quick restart, the cache is empty.")
        == "uncertain"
    )


def test_the_same_modifier_kept_or_said_in_another_form_is_no_change_of_a_fault() -> None:
    """The modifier still there, moved or inflected, and a modifier of something that is
    neither a fault nor a guarantee, say nothing of either."""
    assert (
        level(
            "The log tolerates transient partitions and brief outages.",
            "The log tolerates partitions that are transient and brief outages.",
        )
        == "harmless"
    )
    assert (
        level(
            "Retries are spread over a jittered backoff window.",
            "Retries are spread over a backoff window.",
        )
        == "uncertain"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The storage engine uses direct I/O for data files to bypass the page cache.",
            "The storage engine uses direct I/O for data files on Linux to bypass the page cache.",
            id="a-platform",
        ),
        pytest.param(
            "Debug logging should be disabled because it writes request bodies to the log.",
            "Debug logging should be disabled in production because it writes request bodies"
            " to the log.",
            id="an-environment",
        ),
        pytest.param(
            "The balancer migrates chunks between shards whenever the load is uneven.",
            "The balancer migrates chunks between shards during the maintenance window"
            " whenever the load is uneven.",
            id="a-time",
        ),
    ],
)
def test_a_scope_put_inside_a_claim_says_the_meaning_changed(quote: str, passage: str) -> None:
    """A place, an environment, a time or an edition put inside the claim: it now holds
    only there."""
    found = judged(quote, passage)
    assert found.meaning_changed and "qualifier added" in found.kinds, found.kinds


def test_where_the_reader_does_it_is_no_scope() -> None:
    """ "In your code" says where the reader acts, not where the claim holds."""
    assert (
        level(
            "Use a retry policy to compensate for conflicts when using ETags.",
            "Use a retry policy in your code to compensate for conflicts when using ETags.",
        )
        == "uncertain"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The sidecar proxies traffic from the application container to the rest of the mesh.",
            "The sidecar proxies traffic from the rest of the mesh to the application container.",
            id="from-and-to",
        ),
        pytest.param(
            "Each write is appended to the commit log before it is applied to the memtable.",
            "Each write is applied to the memtable before it is appended to the commit log.",
            id="before",
        ),
        pytest.param(
            "The consumer commits the offset only after it has finished processing the message.",
            "The consumer finishes processing the message only after it has committed the offset.",
            id="after",
        ),
    ],
)
def test_phrases_that_traded_sides_of_a_link_reverse_the_claim(quote: str, passage: str) -> None:
    """The same words on both sides, the two ends of "from … to" or "before" traded: the
    relation goes the other way."""
    found = judged(quote, passage)
    assert found.meaning_changed and "words swapped" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "After a crash, the node replays the log.",
            "The node replays the log after a crash.",
            id="a-phrase-moved-with-its-link",
        ),
        pytest.param(
            "Clients send requests to the leader.",
            "Requests are sent to the leader by clients.",
            id="a-passive",
        ),
        pytest.param(
            "The checkpoint is written before the log is truncated.",
            "The log is truncated after the checkpoint is written.",
            id="before-said-as-after",
        ),
    ],
)
def test_the_same_relation_said_another_way_is_no_reversal(quote: str, passage: str) -> None:
    assert "words swapped" not in judged(quote, passage).kinds


def test_the_same_denial_in_another_clause_is_no_negation_moved() -> None:
    """Whatever the clauses, "run here, and not by a worker" and "not run by a worker, but
    here" deny the same thing."""
    found = judged(
        "The task is executed in the current process, and not by a worker.",
        "The task is not executed by a worker, but in the current process instead.",
    )

    assert "negation moved to another clause" not in found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "This removes the dependency and, as a result, makes the service portable.",
            "This removes the dependency and makes the service portable.",
            id="connective-dropped",
        ),
        pytest.param(
            "They mount the secret holding the certs and use those to secure the server.",
            "They mount and use the secret holding the certs to secure the server.",
            id="verb-moved-forward",
        ),
    ],
)
def test_no_list_item_is_added_or_dropped_by_a_connective_or_a_move(
    quote: str, passage: str
) -> None:
    """A connective ("as a result") joins a clause to what came before, and a verb moved
    forward is still there: neither adds nor drops an item of an enumeration."""
    assert "list changed" not in judged(quote, passage).kinds


def test_may_have_changed_names_the_words_on_both_sides() -> None:
    found = judged(
        "Requests are handled by that instance.", "Requests are processed by that instance."
    )
    assert changed_words_said(found.changes) == "handled -> processed (wording changed)"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "It doesn't retry the write.", "It does not retry the write.", id="contraction"
        ),
        pytest.param(
            "It is a rate-limited client.", "It is a rate limited client.", id="hyphen-to-space"
        ),
        pytest.param("Use the config file.", "Use the configuration file.", id="abbreviation"),
        pytest.param(
            "Data goes to three nodes, i.e. a majority.",
            "Data goes to three nodes, that is, a majority.",
            id="latin-abbreviation-written-out",
        ),
        pytest.param(
            "The default timeout is five seconds.",
            "The default timeout is 5 seconds.",
            id="number-as-a-word",
        ),
        pytest.param("The timeout is 10s.", "The timeout is 10 seconds.", id="unit-written-out"),
        pytest.param("The timeout is 10 s.", "The timeout is 10 sec.", id="unit-abbreviated"),
        pytest.param(
            "Messages are delivered at-least-once.",
            "Messages are delivered at least once.",
            id="guarantee-hyphenated-or-not",
        ),
        pytest.param(
            "The server restarts, then it reloads the file.",
            "The server restarts. Then it reloads the file.",
            id="sentence-split",
        ),
        pytest.param("The primary handles writes.", "The Primary handles writes.", id="casing"),
        pytest.param(
            "The data is persisted to disk.",
            "The data persists to disk.",
            id="inflection-and-derivation",
        ),
        pytest.param(
            "Since the lock is held, the write waits.",
            "Because the lock is held, the write waits.",
            id="conjunction-for-another",
        ),
        pytest.param(
            "Writes must be flushed.", "Writes shall be flushed.", id="modal-of-the-same-strength"
        ),
        pytest.param(
            "You have to restart the node.",
            "You must restart the node.",
            id="have-to-is-must",
        ),
        pytest.param(
            "The server first checks the token.",
            "First, the server checks the token.",
            id="sequencing-ordinal-moved",
        ),
        pytest.param(
            "A retry is not unusual here.", "A retry is usual here.", id="double-negation"
        ),
    ],
)
def test_explained_changes_are_plainly_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_an_ordinal_that_orders_steps_is_no_number() -> None:
    """ "it first checks" orders steps; "the first compaction" numbers one."""
    assert (
        "number changed"
        not in judged("The server first checks the token.", "The server checks the token.").kinds
    )
    assert (
        "number changed"
        in judged("It waits for the first compaction.", "It waits for the second compaction.").kinds
    )


def test_a_verb_of_permission_binds_as_can() -> None:
    """ "allows clients to set" says what "clients can set" says: no modal changed (the verb
    taken out is still a content word, so the recast may have changed the meaning)."""
    assert (
        "modal strengthened"
        not in judged(
            "The API allows clients to set a deadline.", "Clients can set a deadline with the API."
        ).kinds
    )


def test_a_repeated_modal_is_no_change_of_strength() -> None:
    """One "can" more in a recast sentence binds no more than one "can" did."""
    assert level(
        "To limit which application can publish, Dapr provides topic scoping.",
        "You can limit which application can publish with Dapr topic scoping.",
    ) in {"harmless", "uncertain"}


def test_will_binds_as_the_plain_verb_beside_another_modal() -> None:
    """ "would be" -> "are" beside a "can" that stays weakens nothing: "will" and "would"
    say what the verb alone says. Between "can" and "will" the strength still changes."""
    kinds = judged(
        "Your application can use features that would be hard to build yourself.",
        "Your application can use features that are hard to build yourself.",
    ).kinds
    assert not {"modal weakened", "modal strengthened"} & set(kinds)
    assert "modal strengthened" in judged("The queue can retry.", "The queue will retry.").kinds
    assert (
        "modal weakened"
        in judged(
            "The client must retry and will back off.", "The client will retry and back off."
        ).kinds
    )


def test_a_negation_put_before_a_quote_in_its_clause_may_have_changed_it() -> None:
    """ "Not all multi-key transactions are ...": never a harmless rewording. A negation in
    a clause before the quote's, or an answer ("No, ..."), says nothing of its words."""
    assert (
        level(
            "Multi-key transactions are serializable.",
            "Not all multi-key transactions are serializable.",
        )
        == "uncertain"
    )
    assert (
        "negation put before it"
        in judged(
            "Customer data is shared with partners.", "No customer data is shared with partners."
        ).kinds
    )
    assert (
        level(
            "Pass the -q option to git pack-objects.",
            "Show no progress on standard error and pass the -q option to git pack-objects.",
        )
        == "harmless"
    )
    assert (
        "negation put before it"
        not in judged(
            "Although using RabbitMQ is recommended you can also use Redis.",
            "No, although using RabbitMQ is recommended you can also use Redis, SQS, or Qpid.",
        ).kinds
    )


def test_a_unit_changed_is_a_number_changed_on_its_words_and_a_separator_is_no_change() -> None:
    """ "256 KB" -> "256 MB" is marked `!` on the words that changed (it was a name, `?`);
    "3,000" -> "3000" is the same number."""
    found = judged("Messages of up to 256 KB.", "Messages of up to 256 MB.")
    assert [(c.quote, c.page, c.kind) for c in found.changes if c.meaningful] == [
        ("KB", "MB", "number changed")
    ]
    assert level("Up to 3,000 messages per second.", "Up to 3000 messages per second.") == (
        "harmless"
    )
    assert level("Up to 3,000 messages per second.", "Up to 300 messages per second.") == (
        "changed"
    )


def test_a_hyphen_taken_out_of_a_quotes_first_word_is_harmless() -> None:
    """The page's sentence starts with the word split in two: no name changed to "ahead"."""
    assert level("Write-ahead logs are fsynced.", "Write ahead logs are fsynced.") == "harmless"


def test_what_was_denied_now_asserted_and_the_reverse_is_a_swap() -> None:
    """ "to A, not back to B" -> "to B, not back to A": the same words, the reverse claim."""
    found = judged(
        "Failed messages move to the dead-letter queue, not back to the source queue.",
        "Failed messages move to the source queue, not back to the dead-letter queue.",
    )
    assert found.meaning_changed and "words swapped" in found.kinds
    assert level(
        "Tasks are executed by the scheduler, not by a worker.",
        "Tasks are not executed by a worker, but by the scheduler.",
    ) in {"harmless", "uncertain"}  # the same denial, said the other way round


@pytest.mark.parametrize(
    ("word", "other", "counterpart", "expected"),
    [
        ("certs", ["root", "certificates"], ["certificates"], True),
        ("persisted", ["data", "persists"], ["persists"], True),
        ("10s", ["10", "seconds"], ["10", "seconds"], True),
        ("two", ["2", "replicas"], ["2"], True),
        ("git-checkout", ["use", "git", "git-restore"], ["git-restore"], False),
        ("thread", ["async", "task"], ["async", "task"], False),
    ],
)
def test_a_harmless_form_of_a_word(
    word: str, other: list[str], counterpart: list[str], expected: bool
) -> None:
    assert explained(word, other, counterpart) is expected


def test_a_stem_is_never_shared_with_a_negation_or_a_different_word() -> None:
    assert same_stem("persist", "persistent")
    assert not same_stem("synchronous", "asynchronous")
    assert not same_stem("read", "thread")


def test_a_located_swap_says_the_meaning_changed() -> None:
    quote = "The leader forwards every write to the follower."
    found = locate(quote, prepare("<p>The follower forwards every write to the leader.</p>"))
    assert found.status == "drifted"
    assert found.meaning_changed and "words swapped" in found.change_kinds


LEADER = "The leader forwards every write to the follower."
SWAPPED = "The follower forwards every write to the leader."


def test_accept_all_drifted_refuses_a_swap_that_reverses_the_claim(
    tmp_path: Path, page_server: PageServer
) -> None:
    page_server.set_page("/replication", page("Replication.", LEADER))
    ledger = tmp_path / "claims.yaml"
    ledger.write_text(
        f"""\
ledger: 1
title: A store
date_read: 2026-08-23
sections: [{{id: s, title: S}}]
sources:
  docs: {{url: "{page_server.url("/replication")}", title: Replication, kind: docs, \
publisher: vendor}}
claims:
  - id: leader-forwards
    section: s
    title: The leader forwards writes
    kind: guarantee
    statement: Writes go from the leader to the follower.
    quotes:
      - text: "{LEADER}"
        sources: [docs]
    grades:
      - {{on: wording, grade: DEMONSTRATED, basis: quotes}}
""",
        encoding="utf-8",
    )
    cli = Cli(ledger)
    cli("refresh", "--allow-private", "--no-as-read", code=0)
    page_server.set_page("/replication", page("Replication.", SWAPPED))
    cli("refresh", "--allow-private", "--no-as-read", code=1)
    refused = cli("accept", "--all-drifted", code=1)
    assert "changed its meaning" in refused.stderr
    assert LEADER in ledger.read_text(encoding="utf-8")


def test_every_kind_a_verdict_names_is_shown_on_the_words_that_carry_it() -> None:
    """ "do not" -> "may" removes a negation and weakens a modal: the change is listed once
    for each, and `diff` says both on its one line of words."""
    found = judged(
        "SQLite storage operations do not yield the event loop.",
        "SQLite storage operations may yield the event loop.",
    )
    carried = {c.kind for c in found.changes if c.meaningful}
    assert set(found.kinds) <= carried, (found.kinds, carried)
    assert [(c.quote, c.page, kinds) for c, kinds in said_once(found.changes)] == [
        ("do not", "may", "negation removed; modal weakened")
    ]


def test_the_same_words_put_in_twice_are_said_with_their_kind_once() -> None:
    """ "never" put in before both words: `diff` said "added: never (negation moved to
    another clause; negation moved to another clause)"."""
    found = judged("Writes are durable and ordered.", "Writes are never durable and never ordered.")
    assert [(c.op, c.page, kinds) for c, kinds in said_once(found.changes)] == [
        ("insert", "never", "negation moved to another clause")
    ]


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param("Keys must not be shared.", "Keys need not be shared.", id="need-not"),
        pytest.param(
            "You must configure a key.", "You do not need to configure a key.", id="do-not-need"
        ),
        pytest.param(
            "You must configure a key.", "You don't have to configure a key.", id="dont-have-to"
        ),
        pytest.param("A key is required.", "A key is not required.", id="not-required"),
    ],
)
def test_an_obligation_a_negation_lifts_is_a_modal_weakened(quote: str, passage: str) -> None:
    """ "must not" forbids and "need not" permits: the same negation, the opposite claim."""
    found = judged(quote, passage)
    assert found.meaning_changed and "modal weakened" in found.kinds, found
    assert "modal weakened" in {c.kind for c in found.changes if c.meaningful}


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("A key is not required.", "A key is optional."),
        ("You do not need to restart.", "You don't have to restart."),
        ("Restarting is not necessary.", "Restarting is optional."),
    ],
)
def test_an_obligation_lifted_in_other_words_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless"


def test_and_traded_for_or_between_things_says_the_meaning_changed() -> None:
    """Both, now either; a list of examples ("such as A, B, or C") stands for a kind."""
    found = judged(
        "Data is encrypted at rest and in transit.", "Data is encrypted at rest or in transit."
    )
    assert [(c.quote, c.page, c.kind) for c in found.changes if c.meaningful] == [
        ("and", "or", "conjunction changed")
    ]
    assert found.meaning_changed
    assert (
        level(
            "It supports stores such as Redis, Postgres, and MySQL.",
            "It supports stores such as Redis, Postgres, or MySQL.",
        )
        == "harmless"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        (
            "The gateway rejects the request if the token expired or its signature is invalid.",
            "The gateway rejects the request if the token expired and its signature is invalid.",
        ),
        (
            "Messages are dead-lettered once they have expired and have not been acknowledged.",
            "Messages are dead-lettered once they have expired or have not been acknowledged.",
        ),
        (
            "The job is retried when it times out and it has attempts left.",
            "The job is retried when it times out or it has attempts left.",
        ),
    ],
)
def test_and_traded_for_or_between_the_clauses_of_a_condition_changes_it(
    quote: str, passage: str
) -> None:
    """Both cases, now either: the condition holds in other cases."""
    found = judged(quote, passage)
    assert found.meaning_changed and "conjunction changed" in found.kinds, found


def test_a_name_put_in_or_taken_out_may_have_changed_the_meaning() -> None:
    """A name beside a noun narrows what is spoken of as often as it only names it better
    ("the pub/sub building block" -> "the pub/sub API building block"): no strong evidence."""
    for quote, passage in [
        ("It enumerates the KV API guarantees.", "It enumerates the API guarantees."),
        (
            "The pub/sub building block provides several features.",
            "The pub/sub API building block provides several features.",
        ),
    ]:
        assert level(quote, passage) == "uncertain", (quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Reads from a follower are faster.", "Reads from a follower are slower."),
        (
            "A larger batch reduces the number of requests.",
            "A larger batch increases the number of requests.",
        ),
        ("Compression halves the storage cost.", "Compression doubles the storage cost."),
        ("Reads are twice as fast as writes.", "Reads are half as fast as writes."),
        ("It needs double the memory.", "It needs half the memory."),
        ("Use more replicas for reads.", "Use fewer replicas for reads."),
        ("Latency went up by 10%.", "Latency went down by 10%."),
        ("Writes complete within 10 ms.", "Writes complete after 10 ms."),
        ("It sets a lower bound on replicas.", "It sets an upper bound on replicas."),
        ("Recovery is opt-in for each table.", "Recovery is opt-out for each table."),
        ("Ingress traffic is free of charge.", "Egress traffic is free of charge."),
        (
            "Ports 1024 to 2048 inclusive are reserved.",
            "Ports 1024 to 2048 exclusive are reserved.",
        ),
    ],
)
def test_a_word_traded_for_its_opposite_reverses_the_claim(quote: str, passage: str) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and "direction reversed" in found.kinds, found


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        (
            "Authenticated requests are accepted.",
            "Unauthenticated requests are accepted.",
            "negation added",
        ),
        (
            "A partial write is impossible here.",
            "A partial write is possible here.",
            "negation removed",
        ),
        ("The old endpoint is insecure.", "The old endpoint is secure.", "negation removed"),
        (
            "If the leader fails to replicate it, the write is rolled back.",
            "If the leader replicates it, the write is rolled back.",
            "negation removed",
        ),
    ],
)
def test_a_negating_prefix_or_fails_to_is_a_negation(quote: str, passage: str, kind: str) -> None:
    """Whether or not the dictionary knows the stem ("unauthenticated")."""
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found
    assert level(
        "A partial write is not impossible here.", "A partial write is possible here."
    ) == ("harmless")


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Backups are taken every 24 hours.", "Backups are taken every twenty-four hours."),
        ("Sessions are purged every thirty days.", "Sessions are purged every 30 days."),
        (
            "It accepts up to 1,000 records per call.",
            "It accepts up to one thousand records per call.",
        ),
        ("Snapshots are retained for 7 days.", "Snapshots are retained for one week."),
        ("The token is valid for 24 hours.", "The token is valid for one day."),
        ("Idle workers stop after 60 minutes.", "Idle workers stop after 1 hour."),
        ("Backups are kept for one year.", "Backups are kept for 12 months."),
        ("The limit is 1 GiB.", "The limit is 1024 MiB."),
        ("It stores at most 100 entries.", "It stores no more than 100 entries."),
        ("A table holds up to 100000 rows.", "A table holds up to 100 000 rows."),
        ("A batch can hold at most 5 messages.", "A batch cannot exceed 5 messages."),
        ("A batch can hold up to 5 messages.", "A batch must not exceed 5 messages."),
        ("Values must not exceed 16 MB.", "Values are limited to 16 MB."),
        ("A cluster needs at least 3 nodes.", "A cluster needs no fewer than 3 nodes."),
        ("A cluster needs at least 3 nodes.", "A cluster needs 3 nodes or more."),
        ("The retention must be at least 24 hours.", "The retention must be 24 hours or longer."),
        ("A resource can have a maximum of 50 tags.", "A resource cannot have more than 50 tags."),
        (
            "The timeout cannot be greater than 300 seconds.",
            "The timeout can be at most 300 seconds.",
        ),
        ("The page size must not exceed 1000.", "The page size is capped at 1000."),
        ("A table holds up to 1,000,000 rows.", "A table holds up to 1 000 000 rows."),
        ("Writes go to an append only log.", "Writes go to an append-only log."),
        ("Clients must not reuse a nonce.", "A nonce must not be reused by clients."),
        ("It first waits 10-hour for a compaction.", "It first waits 10 hours for a compaction."),
        ("It keeps a 7-day history of runs.", "It keeps 7 days of history of runs."),
        ("The 10-hour window closes at noon.", "The 10h window closes at noon."),
        ("Use a 30-second timeout.", "Use a timeout of 30 seconds."),
        ("Keys are stored as 64-bit integers.", "Keys are stored as integers of 64 bits."),
        ("Use the --force flag.", "Use the flag --force."),
    ],
)
def test_the_same_quantity_bound_or_claim_said_another_way_is_harmless(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Audit logs are kept for 30 days.", "Audit logs are kept for one month."),
        ("The token is valid for 24 hours.", "The token is valid for 48 hours."),
        ("It stores at most 100 entries.", "It stores more than 100 entries."),
        ("A table holds up to 100000 rows.", "A table holds up to 200 000 rows."),
        ("Values must not exceed 16 MB.", "Values must exceed 16 MB."),
        ("Payloads cannot exceed 1 MB.", "Payloads can exceed 1 MB."),
        ("A cluster needs 3 nodes or more.", "A cluster needs 3 nodes or fewer."),
        ("The value cannot be more than 10.", "The value can be more than 10."),
        ("Requests larger than 1 MB are rejected.", "Requests smaller than 1 MB are rejected."),
        ("A batch can hold at most 5 messages.", "A batch can hold at least 5 messages."),
        ("The heap must not exceed the limit.", "The heap should not exceed the limit."),
        ("The wait is 5 seconds.", "The wait is 5 000 seconds."),
        ("Tables open in read only mode.", "Tables open in read-write mode."),
        ("It keeps a 7-day history of runs.", "It keeps 8 days of history of runs."),
        ("It keeps a 7-day history of runs.", "It keeps a 7-week history of runs."),
        ("Keys are stored as 64-bit integers.", "Keys are stored as 32-bit integers."),
        ("Use a 30-second timeout.", "Use a timeout of 60 seconds."),
        ("Use a 30-second timeout.", "Use a timeout of 30 milliseconds."),
        ("Keys are deleted after 7 days.", "Keys are deleted after 8 days, and logs after 7 days."),
    ],
)
def test_another_quantity_or_bound_still_says_the_meaning_changed(quote: str, passage: str) -> None:
    """A month is no fixed number of days."""
    assert level(quote, passage) == "changed"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        (
            "The load balancer terminates TLS and forwards plain HTTP.",
            "The load balancer terminates Transport Layer Security (TLS) and forwards plain HTTP.",
        ),
        (
            "Set the time-to-live (TTL) for each key.",
            "Set the TTL for each key.",
        ),
        (
            "If the output file does not exist, the command creates it.",
            "If the output file is missing, the command creates it.",
        ),
        ("The diagram illustrates the flow.", "The diagram shows the flow."),
        (
            "Deploy keys reach one repository, so they are safer than tokens.",
            "Deploy keys reach one repository. For this reason, they are safer than tokens.",
        ),
    ],
)
def test_a_gloss_a_privative_or_a_cause_said_another_way_is_no_change(
    quote: str, passage: str
) -> None:
    """A term glossed with its acronym, "is missing" for "does not exist", "For this
    reason" for "so": the same claim."""
    assert not judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Requests that lack a signature are rejected.", "Requests with a signature are rejected."),
        ("The command fails if the file is missing.", "The command fails if the file exists."),
    ],
)
def test_a_privative_taken_out_still_changes_the_claim(quote: str, passage: str) -> None:
    assert judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The payload must not exceed 1 MB.", "The payload must never exceed 1 MB.", id="never"
        ),
        pytest.param(
            "The value must not be greater than 300.",
            "The value must be no greater than 300.",
            id="no-greater",
        ),
        pytest.param(
            "The payload must not exceed 1 MB.", "The payload must be at most 1 MB.", id="at-most"
        ),
        pytest.param(
            "Valid values are 128, 256 and 512.",
            "Valid values are 256, 128 and 512.",
            id="figures-apart",
        ),
        pytest.param(
            "Up to 5 100 MB files can be uploaded.",
            "Up to five 100 MB files can be uploaded.",
            id="a-count-then-a-size",
        ),
        pytest.param(
            "After a forced shutdown, the log is replayed.",
            "After a forceful shutdown, the log is replayed.",
            id="the-same-manner",
        ),
        pytest.param(
            "Follow the full upgrade guide before you begin.",
            "Follow the upgrade guide before you begin.",
            id="an-operation-naming-a-guide",
        ),
        pytest.param(
            "See https://docs.example.com/guide/install for details.",
            "See https://example.com/docs/guide/install for details.",
            id="a-link",
        ),
        pytest.param("It runs on macOS only.", "It runs on iPadOS only.", id="a-product"),
        pytest.param(
            "Requires Python 3.8 or higher.", "Requires Python 3.8 or later.", id="a-version"
        ),
        pytest.param(
            "Use a columnar codec, for instance snappy or lz4.",
            "Use a columnar codec, for instance snappy, lz4 or zstd.",
            id="examples",
        ),
    ],
)
def test_a_limit_a_figure_a_manner_or_a_name_said_alike_is_not_shouted(
    quote: str, passage: str
) -> None:
    """Each was MEANING CHANGED by a first reading of its rule."""
    assert not judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "A failover may take more than 30 seconds.",
            "A failover takes more than 30 seconds.",
            id="a-possibility-is-no-limit",
        ),
        pytest.param(
            "The server does not accept more than 100 connections.",
            "The server accepts more than 100 connections.",
            id="a-denied-comparison",
        ),
        pytest.param(
            "Reads are not cached and writes are buffered; the codec is none or gzip.",
            "Reads are cached and writes are not buffered; the codec is none or gzip.",
            id="none-among-values-beside-a-moved-negation",
        ),
        pytest.param(
            "Like the v1 API, v2 rejects a request if the token expired or is malformed.",
            "Like the v1 API, v2 rejects a request if the token expired and is malformed.",
            id="a-like-far-from-the-condition",
        ),
    ],
)
def test_a_change_a_first_reading_of_a_rule_passed_is_still_shouted(
    quote: str, passage: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed
    assert any(change.meaningful for change in found.changes)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Retries happen every minute.", "Retries happen each minute.", id="every-each"
        ),
        pytest.param(
            "Files larger than 5 GB are uploaded in parts.",
            "Files over 5 GB are uploaded in parts.",
            id="a-comparison-in-other-words",
        ),
        pytest.param(
            "Requires Python 3.8 or greater.", "Requires Python 3.8 or later.", id="or-greater"
        ),
        pytest.param(
            "The default timeout is 30 seconds.",
            "The default timeout is 30 seconds, or more precisely 30000 ms.",
            id="or-more-precisely",
        ),
        pytest.param(
            "It supports gzip, zstd and brotli.",
            "It supports gzip, zstd, brotli and others.",
            id="and-others",
        ),
        pytest.param(
            "Use a store such as Amazon S3, Google Cloud Storage, Azure Blob Storage, or MinIO.",
            "Use a store such as Amazon S3, Google Cloud Storage, Azure Blob Storage, and MinIO.",
            id="a-long-list-of-examples",
        ),
        pytest.param(
            "Review the full upgrade notes before you start.",
            "Review the upgrade notes before you start.",
            id="an-operation-naming-notes",
        ),
        pytest.param(
            "Create an array with np.array.",
            "Create an array with numpy.array.",
            id="a-module-imported-under-another-name",
        ),
        pytest.param(
            "TLS 1.2 is required; clients that do not support TLS are rejected.",
            "Transport Layer Security (TLS) 1.2 is required; clients that do not support TLS "
            "are rejected.",
            id="a-gloss-where-the-quote-stands",
        ),
    ],
)
def test_what_a_second_reading_of_the_rules_found_shouted_is_not(quote: str, passage: str) -> None:
    assert not judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "If replication is not enabled, more than one node can accept writes.",
            "If replication is not enabled, at most one node can accept writes.",
            id="a-negation-in-a-condition-before-a-comparison",
        ),
        pytest.param(
            "When the lock is not held, more than one writer can commit.",
            "When the lock is not held, at most one writer can commit.",
            id="a-participle-between",
        ),
        pytest.param(
            "Take a full backup of the log volume.",
            "Take a backup of the log volume.",
            id="a-manner-before-a-word-of-grammar",
        ),
    ],
)
def test_what_a_second_reading_of_the_rules_found_passed_is_shouted(
    quote: str, passage: str
) -> None:
    assert judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    "passage",
    [
        "In case of a network partition, the agent restarts the service.",
        "On other platforms, the agent restarts the service.",
    ],
)
def test_a_case_put_before_a_claim_is_no_connective(passage: str) -> None:
    assert level("The agent restarts the service.", passage) == "uncertain"


def test_a_word_list_ending_the_quote_never_breaks_the_judge() -> None:
    """The break after the last word is kept, which a deleted list at the end reads."""
    assert judged("Use main.json a.b.c or more", "Use main.json").kinds
    assert judged("--flag or --other", "").kinds


@pytest.mark.parametrize(
    "passage",
    [
        "For clusters with more than five nodes, the storage engine uses direct I/O.",
        "In v2, the storage engine uses direct I/O.",
    ],
)
def test_a_scope_is_no_connective_for_a_word_inside_it(passage: str) -> None:
    assert "scope put before it" in judged("The storage engine uses direct I/O.", passage).kinds


def test_a_comparison_with_no_figure_is_no_bound() -> None:
    """ "longer than the timeout" compares with a thing, where "longer than 30 seconds"
    bounds a figure: said another way it is a rewording, no limit changed."""
    found = judged("Connecting takes longer than the timeout.", "Connecting exceeds the timeout.")
    assert "limit changed" not in found.kinds and not found.meaning_changed


def test_two_words_traded_across_clauses_with_other_words_may_have_changed_the_meaning() -> None:
    """Across two clauses, with other words changed too, the clauses may only be said in
    another order: the meaning may have changed."""
    across = judged(
        "The client encrypts the payload and the server stores the key.",
        "The server encrypts the payload, and the client keeps the key.",
    )
    assert "words swapped across clauses" in across.kinds
    assert level(
        "The primary forwards writes to the replica.", "The replica forwards writes to the primary."
    ) == ("changed")


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The client encrypts the payload and the server stores the key.",
            "The server encrypts the payload and the client stores the key.",
            id="roles-across-clauses",
        ),
        pytest.param(
            "The application writes to the primary and reads from the replica.",
            "The application reads from the primary and writes to the replica.",
            id="verbs-with-their-prepositions",
        ),
        pytest.param(
            "Traffic moves from the blue environment to the green one after the checks pass.",
            "Traffic moves from the green environment to the blue one after the checks pass.",
            id="from-to",
        ),
        pytest.param(
            "Writes with `consistency=QUORUM` wait for a majority, whereas writes with "
            "`consistency=ONE` wait for a single replica.",
            "Writes with `consistency=ONE` wait for a majority, whereas writes with "
            "`consistency=QUORUM` wait for a single replica.",
            id="far-apart-settings",
        ),
        pytest.param(
            "Back up the data, then upgrade the cluster.",
            "Upgrade the cluster, then back up the data.",
            id="steps-in-order",
        ),
        pytest.param(
            "Stop the service and then delete its data.",
            "Delete its data and then stop the service.",
            id="and-then",
        ),
        pytest.param(
            "The subscriber filters incoming messages by topic, not by key.",
            "The subscriber filters incoming messages by key, not by topic.",
            id="each-after-the-same-relation",
        ),
        pytest.param(
            "The gauge can go up, not down, during a run.",
            "The gauge can go down, not up, during a run.",
            id="small-opposites-around-a-denial",
        ),
        pytest.param(
            "Set it on for reads and off for writes.",
            "Set it off for reads and on for writes.",
            id="small-opposites-across-clauses",
        ),
        pytest.param(
            "Values above the limit are kept and below it are dropped.",
            "Values below the limit are kept and above it are dropped.",
            id="small-opposites-of-place",
        ),
    ],
)
def test_two_runs_traded_every_other_word_in_place_is_a_reversal(quote: str, passage: str) -> None:
    """However far apart: the same sentence, with two things in each other's place."""
    found = judged(quote, passage)
    assert found.meaning_changed and "words swapped" in found.kinds, found


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Version 2.x and version 3.x of the SDK can be installed side by side.",
            "Version 3.x and version 2.x of the SDK can be installed side by side.",
            id="items-told-apart-by-a-figure",
        ),
        pytest.param(
            "The agent collects CPU, memory, and disk usage from each host.",
            "The agent collects disk, memory, and CPU usage from each host.",
            id="first-and-last-of-three",
        ),
        pytest.param(
            "Snapshots are stored in object storage, while logs are kept on local disk.",
            "Logs are kept on local disk, while snapshots are stored in object storage.",
            id="clauses-around-while",
        ),
        pytest.param(
            "You can copy objects from the staging bucket to the archive bucket.",
            "You can copy objects to the archive bucket from the staging bucket.",
            id="phrases-with-their-relations",
        ),
        pytest.param(
            "The limit is 100 requests per minute per user.",
            "The limit is 100 requests per user per minute.",
            id="one-rate",
        ),
        pytest.param(
            "Once a consumer commits an offset, the broker persists it.",
            "The broker persists an offset once a consumer commits it.",
            id="a-clause-with-its-conjunction",
        ),
        pytest.param(
            "The gauge can go up and down during a run.",
            "The gauge can go down and up during a run.",
            id="opposites-joined-by-and",
        ),
        pytest.param(
            "The gauge can go up or down during a run.",
            "The gauge can go down or up during a run.",
            id="opposites-joined-by-or",
        ),
        pytest.param("Turn it on and off again.", "Turn it off and on again.", id="on-and-off"),
    ],
)
def test_items_or_phrases_said_in_another_order_are_no_reversal(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless"


def test_verify_names_a_kind_that_no_words_carry() -> None:
    """A meaning change counted over the whole span, with no one change of words to show it
    on, is still named: "meaning changed: " with nothing after it says nothing."""
    from claimledger.terminal.lines import verification_lines

    payload = {
        "status": "drifted", "source_status": "ok", "match": None, "similarity": 0.9,
        "moved_to": None, "final_url": "u", "url": "u", "canonical": None, "error": None,
        "current": "Keys must not be shared.", "closest": None, "closest_kinds": [],
        "near_miss": False, "changed_words": [], "change_kinds": ["words swapped"],
        "meaning_changed": True, "meaning_uncertain": False, "occurrences": 0, "pdf_page": None,
    }  # fmt: skip
    assert "meaning changed: words swapped" in verification_lines(payload)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Values are serialised as JSON.", "Values are serialized as JSON."),
        ("Authorisation headers are stripped.", "Authorization headers are stripped."),
        ("The log is analysed nightly.", "The log is analyzed nightly."),
        ("Clients must send a token.", "Clients are required to send a token."),
        ("Clients should send a token.", "Clients are recommended to send a token."),
        ("Clients can send a token.", "Clients are able to send a token."),
    ],
)
def test_a_spelling_or_a_modal_said_in_other_words_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless"


def test_a_condition_taken_out_says_the_meaning_changed() -> None:
    """ "... if versioning is enabled" taken out widens the claim: no longer a default."""
    found = judged(
        "Objects are replicated to the bucket if versioning is enabled.",
        "Objects are replicated to the bucket.",
    )
    assert found.meaning_changed and "qualifier removed" in found.kinds
    assert level("Clients must send a token.", "Clients are recommended to send a token.") == (
        "changed"
    )


@pytest.mark.parametrize(
    ("quote", "passage", "kind"),
    [
        ("The v1 API is supported.", "The v1 API is deprecated.", "support status changed"),
        ("The flag is deprecated.", "The flag has been removed.", "support status changed"),
        (
            "It stays read-only until the promotion.",
            "It stays read-only after the promotion.",
            "direction reversed",
        ),
        (
            "Metrics are kept since version 2.0.",
            "Metrics are kept until version 2.0.",
            "direction reversed",
        ),
        (
            "Lag is usually under one second.",
            "Lag is usually over one second.",
            "direction reversed",
        ),
        (
            "Hash indexes are better for lookups.",
            "Hash indexes are worse for lookups.",
            "direction reversed",
        ),
    ],
)
def test_a_status_or_a_time_or_a_bound_reversed_says_the_meaning_changed(
    quote: str, passage: str, kind: str
) -> None:
    found = judged(quote, passage)
    assert found.meaning_changed and kind in found.kinds, found


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("A message is not removed from the queue.", "A message does not leave the queue."),
        ("It is available to both approaches.", "Both approaches can use it."),
    ],
)
def test_a_status_word_said_of_something_else_is_no_status(quote: str, passage: str) -> None:
    """ "removed from the queue" says what happens to a message, not that a feature went."""
    assert "support status changed" not in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Failover typically completes in seconds.", "Failover usually completes in seconds."),
        ("You can export snapshots.", "You are able to export snapshots."),
        ("Ordering holds within a single partition.", "Ordering holds within one partition."),
        ("The limit applies to each namespace.", "The limit applies per namespace."),
        (
            "The limit is 100 requests per minute per user.",
            "The limit is 100 requests per user per minute.",
        ),
    ],
)
def test_a_hedge_a_count_or_a_rate_said_another_way_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless"


def test_roles_traded_across_clauses_despite_their_articles_may_have_changed_it() -> None:
    found = judged(
        "If the leader fails, a follower is promoted.",
        "If a follower fails, the leader is promoted.",
    )
    assert "words swapped across clauses" in found.kinds


def test_a_sentence_laid_out_as_a_list_keeps_its_last_item() -> None:
    """ "Supported engines are: / RocksDB, / LMDB, and / SQLite." is the quote a line an
    item: its current wording holds SQLite, and no item is said to be gone."""
    from claimledger.reading.extract import extract_text

    html = (
        "<main><p>Supported engines are:</p><ul><li>RocksDB,</li><li>LMDB, and</li>"
        "<li>SQLite.</li></ul><p>Other text here.</p></main>"
    )
    page = prepare(extract_text(html, "text/html"), kind="text")
    found = locate("Supported engines are RocksDB, LMDB and SQLite.", page)
    assert found.status == "drifted" and found.current is not None
    assert found.current.endswith("SQLite.") and not found.change_kinds


def test_a_quote_that_begins_with_a_figure_is_no_sentence_start() -> None:
    """ "000 001 002 Zebrafinch …" was cut from a sentence: the words before it on the page
    ("000000 unAErs") were there when it was quoted, and are no negation put before it."""
    found = judged("000 001 002 Zebrafinch 0000 00000", "000000 unAErs 000 001 002 AAA 0000 00000")
    assert "negation put before it" not in found.kinds


def _refreshed(was: str, now: str, quote: str) -> Match:
    """The quote located on `was`, then on `now` with what was recorded, as a refresh does."""
    before, after = prepare(was), prepare(now)
    return locate(quote, after, context=locate(quote, before).context, previous=before)


def test_words_that_stood_before_a_quote_cut_from_its_sentence_were_not_put_before_it() -> None:
    """A quote recorded in the middle of its sentence had the words before it then: "no"
    there denies nothing new, though the quote begins with a capital."""
    found = _refreshed(
        "Writes touch no Index Pages while Compaction runs in the background. Reads are fast.",
        "Writes touch no Index Pages while Merging runs in the background. Reads are fast.",
        "Index Pages while Compaction runs in the background.",
    )
    assert found.status == "drifted"
    assert [(c.op, c.quote, c.page) for c in found.changed_words] == [
        ("replace", "Compaction", "Merging")
    ]


@pytest.mark.parametrize(
    ("was", "now", "quote"),
    [
        pytest.param(
            "## Durability\n\n- Writes are fsynced before they are acknowledged.\n",
            "## Durability\n\n- On Linux, writes are fsynced before they are acknowledged.\n",
            "Writes are fsynced before they are acknowledged.",
            id="a-bullet",
        ),
        pytest.param(
            "// Copy writes the whole database to w.\nfunc x",
            "// On Windows, copy writes the whole database to w.\nfunc x",
            "Copy writes the whole database to w.",
            id="a-comment-at-the-top-of-a-file",
        ),
        pytest.param(
            "// Copies the data.\n// Copy writes exactly n bytes into the writer.\nfunc x",
            "// Copies the data.\n// If err is nil then exactly n bytes are written.\nfunc x",
            "Copy writes exactly n bytes into the writer.",
            id="a-comment-line",
        ),
        pytest.param(
            "On Linux, PostgreSQL fsyncs every commit before it is acknowledged.",
            "Except on Linux, PostgreSQL fsyncs each commit before it is acknowledged.",
            "PostgreSQL fsyncs every commit before it is acknowledged.",
            id="other-words-before-a-quote-cut-from-its-sentence",
        ),
    ],
)
def test_words_the_page_put_before_a_quote_since_it_was_recorded_are_judged(
    was: str, now: str, quote: str
) -> None:
    """After a bullet or a comment marker, or where the words before a quote cut from its
    sentence are no longer those recorded, what the page put there narrows the claim."""
    assert "qualifier added" in _refreshed(was, now, quote).change_kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Currently, each stream can be divided into at most 16 partitions.",
            "Each stream can be divided into at most 16 partitions.",
            id="currently",
        ),
        pytest.param(
            "At the moment, TLS 1.3 is the only protocol version accepted.",
            "TLS 1.3 is the only protocol version accepted.",
            id="at-the-moment",
        ),
        pytest.param(
            "For now, schema migrations have to be applied by hand.",
            "Schema migrations have to be applied by hand.",
            id="for-now",
        ),
        pytest.param(
            "Secondary indexes are rebuilt when the node restarts; this behavior may change"
            " in a future release.",
            "Secondary indexes are rebuilt when the node restarts.",
            id="may-change-in-a-future-release",
        ),
        pytest.param(
            "The export format is JSON and is subject to change.",
            "The export format is JSON.",
            id="subject-to-change",
        ),
        pytest.param(
            "The driver retries a failed read once.",
            "The driver currently retries a failed read once.",
            id="a-hedge-put-in",
        ),
    ],
)
def test_a_hedge_about_time_put_in_or_taken_out_is_harmless(quote: str, passage: str) -> None:
    """Docs drop "currently" when a feature settles: the claim is the same, and the "may"
    of "this may change" is not the claim's modal."""
    assert level(quote, passage) == "harmless", judged(quote, passage).kinds


def test_a_claim_that_may_change_is_still_a_claim() -> None:
    """ "The leader may change" is said of the thing, not of the statement: no hedge."""
    changes = "The leader changes during an election."
    assert level(changes, "The leader may change during an election.") == "changed"
    assert level("Hedged claims hold.", "Currently, hedged claims do not hold.") == "changed"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Each key can have a TTL after which it expires.",
            "Each key can have a time-to-live after which it expires.",
            id="hyphenated",
        ),
        pytest.param(
            "The WAL is archived every minute.",
            "The write-ahead log is archived every minute.",
            id="a-hyphenated-word-and-another",
        ),
        pytest.param(
            "Services authenticate each other using mTLS certificates.",
            "Services authenticate each other using mutual TLS certificates.",
            id="an-acronym-inside",
        ),
        pytest.param(
            "RBAC rules decide which users may create topics.",
            "Role-based access control rules decide which users may create topics.",
            id="before-the-head",
        ),
        pytest.param(
            "The process is stopped by the out-of-memory killer.",
            "The process is stopped by the OOM killer.",
            id="abbreviated-on-the-page",
        ),
        pytest.param(
            "The gateway forwards the JSON Web Token to the upstream service.",
            "The gateway forwards the JWT to the upstream service.",
            id="a-term-that-begins-with-an-acronym",
        ),
        pytest.param(
            "The API server authenticates users via OIDC.",
            "The API server authenticates users via OpenID Connect.",
            id="a-capital-inside-a-word",
        ),
        pytest.param(
            "Dapr supports optimistic concurrency control (OCC) using ETags.",
            "Dapr supports Optimistic Concurrency Control (OCC) using ETags.",
            id="said-both-ways-on-both-sides",
        ),
    ],
)
def test_an_abbreviation_spelled_out_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage).kinds


def test_words_that_only_share_initials_with_an_acronym_are_another_term() -> None:
    """A run spells an acronym only with every letter in order: "access list" is no ACL,
    and a term the page spells out beside the acronym it still has is no abbreviation."""
    assert level("Edit the ACL of the bucket.", "Edit the access list of the bucket.") != "harmless"
    assert (
        level(
            "Certificate Authority (CA) signs the requests.",
            "Certificate Authority (CA)/Identity Provider signs the requests.",
        )
        != "harmless"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Each batch holds up to 500 messages.", "Each batch holds at most 500 messages."),
        ("A key keeps up to 100 versions.", "A key keeps no more than 100 versions."),
        (
            "Bucket names have at least 3 characters.",
            "Bucket names have a minimum of 3 characters.",
        ),
        ("A request carries a maximum of 100 keys.", "A request carries up to 100 keys."),
        ("A key holds not more than 5 versions.", "A key holds at most 5 versions."),
        ("A key keeps as many as 100 versions.", "A key keeps at most 100 versions."),
    ],
)
def test_an_upper_bound_said_another_way_is_harmless(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage).kinds


def test_a_modal_dropped_beside_one_that_stays_is_named_by_what_went() -> None:
    """ "should" turned "may" beside a "can" that stays weakens the span, though the average
    of its strengths ties."""
    found = judged(
        "Clients should retry and can back off between attempts.",
        "Clients may retry and can back off between attempts.",
    )
    assert "modal weakened" in found.kinds, found.kinds


def test_holding_is_keeping_not_waiting() -> None:
    """ "stores" -> "holds" is no change of effect; "waits for" -> "holds" is."""
    assert (
        "effect changed"
        not in judged(
            "The buffer stores the last 100 events.", "The buffer holds the last 100 events."
        ).kinds
    )


def test_a_bound_said_the_other_way_round_still_says_the_meaning_changed() -> None:
    assert (
        level(
            "A request carries a maximum of 100 keys.", "A request carries a minimum of 100 keys."
        )
        == "changed"
    )


def test_a_british_agent_noun_is_the_american_one() -> None:
    assert (
        level(
            "The analyser normalises tokens before indexing.",
            "The analyzer normalizes tokens before indexing.",
        )
        == "harmless"
    )


@pytest.mark.parametrize(
    "passage",
    [
        "On Linux, the storage engine uses direct I/O for commit log writes.",
        "For Enterprise subscriptions, the storage engine uses direct I/O for commit log writes.",
    ],
)
def test_a_scope_put_before_a_claim_says_the_meaning_changed(passage: str) -> None:
    found = judged("The storage engine uses direct I/O for commit log writes.", passage)
    assert found.meaning_changed and "qualifier added" in found.kinds, found.kinds


@pytest.mark.parametrize(
    "passage",
    [
        "In addition, the storage engine uses direct I/O for commit log writes.",
        "In this case, the storage engine uses direct I/O for commit log writes.",
        "In your deployment, the storage engine uses direct I/O for commit log writes.",
    ],
)
def test_a_connective_put_before_a_claim_is_no_scope(passage: str) -> None:
    found = judged("The storage engine uses direct I/O for commit log writes.", passage)
    assert "qualifier added" not in found.kinds


@pytest.mark.parametrize(
    "passage",
    [
        "On BlueStore volumes, the storage engine uses direct I/O for commit log writes.",
        "For tables with a primary key, the storage engine uses direct I/O for commit log writes.",
    ],
)
def test_a_phrase_that_may_scope_a_claim_is_never_silently_harmless(passage: str) -> None:
    """No scope word names the case, so it may only set the scene: the meaning may have
    changed, no more."""
    quote = "The storage engine uses direct I/O for commit log writes."
    assert level(quote, passage) == "uncertain"
    assert "scope put before it" in judged(quote, passage).kinds


@pytest.mark.parametrize(
    "passage",
    [
        "In addition, the storage engine uses direct I/O for commit log writes.",
        "For example, the storage engine uses direct I/O for commit log writes.",
        "In practice, the storage engine uses direct I/O for commit log writes.",
    ],
)
def test_a_connective_put_before_a_claim_leaves_it_harmless(passage: str) -> None:
    assert level("The storage engine uses direct I/O for commit log writes.", passage) == "harmless"


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        (
            "The connector does not support ARRAY or JSONB columns.",
            "The connector does not support ARRAY, JSONB or HSTORE columns.",
        ),
        (
            "The agent is available only for Linux and Windows hosts.",
            "The agent is available only for Linux, Windows and macOS hosts.",
        ),
        (
            "compression.type must be one of gzip, snappy or lz4.",
            "compression.type must be one of gzip, snappy, lz4 or zstd.",
        ),
    ],
)
def test_an_item_the_diff_pairs_with_another_is_still_an_item_added(
    quote: str, passage: str
) -> None:
    """ "ARRAY or JSONB" -> "ARRAY, JSONB or HSTORE" reads, word by word, as a name
    replaced; every other word kept, the list has one item more."""
    found = judged(quote, passage)
    assert found.meaning_changed and "list changed" in found.kinds, found


def test_examples_or_values_said_in_another_order_change_no_list() -> None:
    """A list of examples stands for a kind however many it names; "none" among values
    is a value, not a negation."""
    assert not judged(
        "Encodings such as gzip, deflate, or brotli are not decoded.",
        "Encodings such as gzip, deflate, brotli, or zstd are not decoded.",
    ).meaning_changed
    assert (
        level("Valid values are none, gzip and zstd.", "Valid values are gzip, zstd and none.")
        == "harmless"
    )


def test_a_word_put_to_an_item_adds_no_item() -> None:
    """ "concurrency and consistency" -> "concurrency control and consistency": still two
    things joined; a new thing joined is still a list changed."""
    quote = "The store offers optimistic concurrency and strong consistency per key."
    longer = "The store offers optimistic concurrency control and strong consistency per key."
    more = "The store offers optimistic concurrency, batching and strong consistency per key."
    assert "list changed" not in judged(quote, longer).kinds
    assert "list changed" in judged(quote, more).kinds


def test_a_modal_that_came_or_went_with_a_clause_of_its_own_binds_nothing_kept() -> None:
    """ "that can be enabled per model" dropped takes its "can" with it: the claim that is
    left binds as it did. A modal changed in a clause both sides keep is still one."""
    quote = "The library provides a strict mode that can be enabled per model or per field."
    assert not {"modal weakened", "modal strengthened"} & set(
        judged(quote, "The library provides a strict mode.").kinds
    )
    assert (
        "modal weakened"
        in judged(
            "Writes must be acknowledged by a quorum that can span regions.",
            "Writes should be acknowledged by a quorum.",
        ).kinds
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The bucket is private.",
            "The bucket is public, but access is limited by IP.",
            id="words-of-grammar-spell-no-acronym",
        ),
        pytest.param(
            "Push is only supported on Android.",
            "Push is supported on Android and iOS.",
            id="a-run-with-only-in-it",
        ),
        pytest.param(
            "The client may change the name of the topic.",
            "The client MAY NOT change the name of the topic.",
            id="words-written-loud-are-no-acronyms",
        ),
        pytest.param(
            "Encryption is disabled by default.",
            "Encryption is enabled by default for each ID.",
            id="a-run-that-begins-with-is",
        ),
        pytest.param(
            "Writes go to the leader. Replicas apply them later.",
            "Writes go to the LRA later.",
            id="a-run-across-a-full-stop",
        ),
    ],
)
def test_words_whose_initials_spell_an_acronym_are_no_term_spelled_out(
    quote: str, passage: str
) -> None:
    """Initials alone make no term: a run that holds words of grammar, crosses a clause
    break, or meets capitals that spell an English word is judged as written."""
    assert level(quote, passage) != "harmless"
    assert judged(quote, passage).meaning_changed or "LRA" in passage


def test_a_term_the_quote_has_in_its_own_words_is_no_acronym_spelled_out() -> None:
    """ "the latest security" spells TLS, but those words are no expansion of it."""
    assert (
        level("Encrypt traffic with TLS.", "Encrypt traffic with the latest security.")
        != "harmless"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Enabling this option may change the output format.",
            "Enabling this option changes the output format.",
            id="may-change-with-an-object",
        ),
        pytest.param(
            "This setting can be changed at any time.",
            "This setting is fixed once the cluster is created.",
            id="can-be-changed",
        ),
        pytest.param(
            "The leader may change at any time.", "The leader is fixed.", id="a-thing-that-changes"
        ),
    ],
)
def test_what_may_change_is_a_claim_when_said_of_a_thing(quote: str, passage: str) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage).kinds


def test_a_hedge_takes_no_word_of_the_clause_before_it() -> None:
    found = judged(
        "Compression is off by default and may change in a future release.",
        "Compression is off and may change in a future release.",
    )
    assert "default changed" in found.kinds


@pytest.mark.parametrize(
    "passage",
    [
        "Set replicas to 3 in the config file to tolerate one failure.",
        "Set replicas to 3 in milliseconds to tolerate one failure.",
        "Set replicas to 3 for example to tolerate one failure.",
    ],
)
def test_a_place_in_the_docs_a_unit_or_a_connective_is_no_scope(passage: str) -> None:
    assert (
        "qualifier added" not in judged("Set replicas to 3 to tolerate one failure.", passage).kinds
    )


def test_what_a_guarantee_or_a_fault_is_about_names_no_other_one() -> None:
    assert not judged("The engine prevents loss.", "The engine prevents data loss.").meaning_changed
    assert not judged(
        "The broker guarantees ordering per partition.",
        "The broker guarantees message ordering per partition.",
    ).meaning_changed


def test_items_reordered_around_a_link_inside_one_are_no_reversal() -> None:
    quote = "The agent collects logs, forwards metrics to Prometheus, and traces requests."
    passage = "The agent traces requests, forwards metrics to Prometheus, and collects logs."
    assert "words swapped" not in judged(quote, passage).kinds


def test_two_bounds_traded_between_their_numbers_say_the_meaning_changed() -> None:
    assert (
        level(
            "Pools hold at most 10 connections and at least 2 idle ones.",
            "Pools hold at least 10 connections and at most 2 idle ones.",
        )
        == "changed"
    )


def test_max_is_a_bound_only_before_a_number() -> None:
    assert level("The max is 10 connections.", "The maximum is 10 connections.") != "changed"


def test_a_status_word_before_a_condition_is_said_of_something_else() -> None:
    assert (
        "support status changed"
        not in judged(
            "Messages are removed when they are acknowledged.",
            "Messages are deleted when they are acknowledged.",
        ).kinds
    )


def test_a_scope_put_after_a_claims_full_stop_says_the_meaning_changed() -> None:
    """ "… for 90 days on Enterprise plans.": the sentence now goes on to say where the
    claim holds. "… on the leader" names no platform, environment, edition or window."""
    found = judged(
        "Audit logs are retained for 90 days.",
        "Audit logs are retained for 90 days on Enterprise plans.",
    )
    assert found.meaning_changed and "qualifier added" in found.kinds
    assert (
        level(
            "Writes are acknowledged once they are persisted.",
            "Writes are acknowledged once they are persisted on the leader.",
        )
        == "uncertain"
    )


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("The certificate authority signs each certificate.", "The CA signs each certificate."),
        ("The feature is now in general availability.", "The feature is now in GA."),
        ("Requests per second are capped at the proxy.", "RPS are capped at the proxy."),
        ("Enable bring your own key encryption.", "Enable BYOK encryption."),
        ("Clients connect with mTLS and TLS 1.3.", "Clients connect with mutual TLS and TLS 1.3."),
        ("Tokens are JWTs.", "Tokens are JSON Web Tokens."),
    ],
)
def test_an_acronym_that_is_also_a_word_or_holds_small_words_is_spelled_out(
    quote: str, passage: str
) -> None:
    """ "CA" and "GA" are words too, "per" and "your" belong to terms, and a term may share
    a word with the quote ("TLS" beside "mutual TLS")."""
    assert level(quote, passage) == "harmless", judged(quote, passage).kinds


def test_a_feature_said_to_be_new_may_change_as_a_hedge() -> None:
    assert (
        level("This API is experimental and may change.", "This API is experimental.") == "harmless"
    )


def test_what_may_change_without_notice_is_a_claim_of_a_thing() -> None:
    assert (
        level(
            "The service's IP addresses may change without notice.",
            "The service's IP addresses are static.",
        )
        == "changed"
    )


def test_a_scope_word_in_a_place_of_the_docs_is_no_scope() -> None:
    quote = "Set the flag to enable compression."
    for place in ("in the upgrade guide", "on the Linux page", "in the Windows registry"):
        passage = f"Set the flag {place} to enable compression."
        assert "qualifier added" not in judged(quote, passage).kinds, place


def test_a_bound_written_a_max_of_is_at_most() -> None:
    assert level("A request carries at most 10 GB.", "A request carries a max of 10 GB.") == (
        "harmless"
    )


def test_a_reversal_around_a_link_that_opens_its_clause_is_a_swap() -> None:
    found = judged(
        "The entry is appended to the log, before it is applied.",
        "The entry is applied, before it is appended to the log.",
    )
    assert found.meaning_changed and "words swapped" in found.kinds, found.kinds


def test_a_condition_moved_after_a_status_word_changes_no_status() -> None:
    """ "Unless X, fields are ignored" and "fields are ignored unless X": one status."""
    quote = "Unless `strict` is set, unknown fields are ignored."
    passage = "Unknown fields are ignored unless `strict` is set."
    assert "support status changed" not in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Local settings override the global configuration.",
            "The global configuration overrides local settings.",
            id="subject-and-object",
        ),
        pytest.param(
            "Downsampled blocks replace raw blocks after compaction.",
            "Raw blocks replace downsampled blocks after compaction.",
            id="a-word-said-twice",
        ),
    ],
)
def test_subject_and_object_traded_around_their_verb_reverse_the_claim(
    quote: str, passage: str
) -> None:
    """The same words, the same words of grammar, the roles on either side of the verb
    traded: what overrides what is the claim."""
    found = judged(quote, passage)
    assert found.meaning_changed and "words swapped" in found.kinds, found.kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        (
            "Local settings override the global configuration.",
            "The global configuration is overridden by local settings.",
        ),
        ("See this guide for a reference on the state API.", "See the state API reference guide."),
    ],
    ids=["a-passive", "a-compound-said-otherwise"],
)
def test_roles_kept_in_other_words_are_no_reversal(quote: str, passage: str) -> None:
    assert "words swapped" not in judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "When strict ordering is used, the broker delivers each message once per partition.",
            "Strict ordering: the broker delivers each message once per partition.",
            id="used",
        ),
        pytest.param(
            "If compression is enabled, every batch is written as one block.",
            "**Compression**: every batch is written as one block.",
            id="enabled-bold",
        ),
    ],
)
def test_a_condition_on_a_things_use_written_as_its_label_changes_nothing(
    quote: str, passage: str
) -> None:
    assert not judged(quote, passage).kinds


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "If TLS is disabled, clients connect in plain text.",
            "TLS: clients connect in plain text.",
            id="a-label-says-no-disabled",
        ),
        pytest.param(
            "If compression is enabled, every batch is written as one block.",
            "Compression: every batch is written as two blocks.",
            id="the-claim-changed-after-it",
        ),
        pytest.param(
            "If compression is enabled, every batch is written as one block.",
            "Compression every batch is written as one block.",
            id="no-label-without-its-colon",
        ),
    ],
)
def test_a_label_is_the_condition_only_for_a_thing_in_use_and_its_claim_unchanged(
    quote: str, passage: str
) -> None:
    assert judged(quote, passage).meaning_changed


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Compression is not enabled by default on new topics.",
            "Compression is disabled by default on new topics.",
            id="not-enabled-disabled",
        ),
        pytest.param(
            "The read replica does not allow write operations from clients.",
            "The read replica prevents write operations from clients.",
            id="not-allow-prevents",
        ),
        pytest.param(
            "The CLI does not permit deleting a bucket that still holds objects.",
            "The CLI forbids deleting a bucket that still holds objects.",
            id="not-permit-forbids",
        ),
        pytest.param(
            "The partition key cannot be changed after the table is created.",
            "The partition key is immutable after the table is created.",
            id="cannot-be-changed-immutable",
        ),
        pytest.param(
            "The scheduler does not run jobs that are marked as paused.",
            "The scheduler skips jobs that are marked as paused.",
            id="not-run-skips",
        ),
        pytest.param(
            "Disable TLS on the listener.",
            "Turn off TLS on the listener.",
            id="disable-turn-off",
        ),
        pytest.param(
            "Disabled users cannot sign in to the console.",
            "Deactivated users cannot sign in to the console.",
            id="disabled-deactivated",
        ),
        pytest.param(
            "Mutual TLS can be turned off/on by editing the configuration.",
            "Mutual TLS can be turned on/off by editing the configuration.",
            id="off-on-on-off",
        ),
        pytest.param(
            "Messages are deleted after seven days unless you configure a longer period.",
            "Messages are deleted after seven days except when you configure a longer period.",
            id="unless-except-when",
        ),
    ],
)
def test_a_denial_said_in_a_word_that_denies_is_no_negation_changed(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) != "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Administrators should rotate access keys every ninety days.",
            "We recommend that administrators rotate access keys every ninety days.",
            id="should-we-recommend-that",
        ),
        pytest.param(
            "Do not store secrets in plain text in your pipelines.",
            "You must not store secrets in plain text in your pipelines.",
            id="do-not-you-must-not",
        ),
        pytest.param(
            "Don't run the migration while the application writes.",
            "Do not run the migration while the application writes.",
            id="dont-do-not",
        ),
        pytest.param(
            "Enabling TLS for client connections is mandatory in production.",
            "You must enable TLS for client connections in production.",
            id="mandatory-you-must",
        ),
        pytest.param(
            "The primary must be reachable from the application servers at all times.",
            "The primary must always be reachable from the application servers.",
            id="at-all-times-always",
        ),
        pytest.param(
            "Most users will not need to change the default timeouts.",
            "The majority of users will not need to change the default timeouts.",
            id="most-the-majority-of",
        ),
        pytest.param(
            "The agent collects metrics, logs and traces from every host.",
            "The agent collects metrics and logs, as well as traces, from every host.",
            id="as-well-as",
        ),
        pytest.param(
            "You can attach multiple security groups to one interface.",
            "You can attach more than one security group to one interface.",
            id="multiple-more-than-one",
        ),
    ],
)
def test_a_strength_or_a_quantity_said_by_a_lead_in_or_a_phrase_is_harmless(
    quote: str, passage: str
) -> None:
    """A lead-in before the quote's sentence ("We recommend that") binds it as a modal."""
    assert level(quote, passage) != "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        ("Retries are enabled by default.", "Retries are disabled by default."),
        ("The replica allows write operations.", "The replica prevents write operations."),
        ("Enable TLS on the listener.", "Turn off TLS on the listener."),
        ("The scheduler runs paused jobs.", "The scheduler skips paused jobs."),
        ("The account is enabled after review.", "The account is deactivated after review."),
        (
            "Administrators may rotate access keys every ninety days.",
            "You must rotate access keys every ninety days.",
        ),
        ("Do not store secrets in your pipelines.", "You may store secrets in your pipelines."),
    ],
)
def test_a_word_that_denies_or_a_lead_in_that_binds_still_changes_the_claim(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) == "changed", judged(quote, passage)


def test_a_skip_list_is_no_denial() -> None:
    """ "skip" denies ("does not skip" is no negation said twice), but not in a skip list."""
    found = judged("The memtable is a skip list kept in memory.", "The memtable is kept in memory.")
    assert "negation removed" not in found.kinds, found
    flipped = judged(
        "The --force flag skips the confirmation prompt.",
        "The --force flag does not skip the confirmation prompt.",
    )
    assert flipped.meaning_changed, flipped


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "The offline installer does not contact any of the brokers.",
            "The offline installer contacts none of the brokers.",
            id="not-any-none",
        ),
        pytest.param(
            "None of the default roles grant write access to the audit log.",
            "No default role grants write access to the audit log.",
            id="none-of-no",
        ),
        pytest.param(
            "This feature is unavailable in the government regions.",
            "This feature is not available in the government regions.",
            id="unavailable-not-available",
        ),
        pytest.param(
            "If the file is malformed, the service fails to start.",
            "If the file is malformed, the service does not start.",
            id="fails-to-does-not",
        ),
        pytest.param(
            "A cluster can have only one active primary at any moment.",
            "A cluster can have just one active primary at any moment.",
            id="only-one-just-one",
        ),
    ],
)
def test_none_a_status_denied_or_fails_to_said_another_way_is_no_change(
    quote: str, passage: str
) -> None:
    assert level(quote, passage) != "changed", judged(quote, passage)


def test_a_status_denied_still_changes_the_claim() -> None:
    assert level(
        "This feature is available in the government regions.",
        "This feature is not available in the government regions.",
    ) == ("changed")


def test_a_count_of_the_items_a_list_holds_is_no_number_changed() -> None:
    """The list says how many; the count only said it again."""
    assert not judged(
        "The CLI supports three output formats: json, yaml and table.",
        "The CLI supports the json, yaml and table output formats.",
    ).meaning_changed
    for passage in (
        "The CLI supports four output formats: json, yaml, csv and table.",
        "The CLI supports two output formats: json, yaml and table.",
    ):
        found = judged("The CLI supports three output formats: json, yaml and table.", passage)
        assert "number changed" in found.kinds, found
    another_list = judged(
        "Fixes go to those three branches, depending on severity and feasibility.",
        "Fixes go to those two branches, depending on severity and feasibility.",
    )
    assert "number changed" in another_list.kinds, another_list


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "Run the migration after you deploy the new version.",
            "Before you deploy the new version, run the migration.",
            id="after-before-moved",
        ),
        pytest.param(
            "The cluster stays available because nodes restart one at a time.",
            "The cluster stays available although nodes restart one at a time.",
            id="because-although",
        ),
        pytest.param(
            "Reads are served from the nearest replica, while writes go to the primary, "
            "which adds latency for distant clients.",
            "Writes go to the primary, while reads are served from the nearest replica, "
            "which adds latency for distant clients.",
            id="what-follows-the-last-clause",
        ),
    ],
)
def test_a_relation_traded_for_its_opposite_changes_the_claim(quote: str, passage: str) -> None:
    """Wherever the clauses now stand: after / before, because / although."""
    assert level(quote, passage) == "changed", judged(quote, passage)


@pytest.mark.parametrize(
    ("quote", "passage"),
    [
        pytest.param(
            "After you deploy the new version, run the migration.",
            "Run the migration after you deploy the new version.",
            id="a-clause-moved-with-its-after",
        ),
        pytest.param(
            "Service accounts cannot sign in and, as noted above, must use a key file.",
            "Service accounts cannot sign in and must use a key file.",
            id="a-pointer-taken-out",
        ),
    ],
)
def test_a_relation_kept_or_a_pointer_dropped_is_no_change(quote: str, passage: str) -> None:
    assert level(quote, passage) == "harmless", judged(quote, passage)


def test_a_version_written_short_is_that_version() -> None:
    assert level(
        "The flag, which was added in v15, limits the WAL.",
        "The flag (added in version 15) limits the WAL.",
    ) == ("harmless")
    assert level(
        "The flag, which was added in v15, limits the WAL.",
        "The flag (added in version 16) limits the WAL.",
    ) == ("changed")
