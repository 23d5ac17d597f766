"""The JSON Schema of a ledger: the shape `claimledger schema` prints and the loader checks.

Data, kept as Python so the pure core needs no file to validate a ledger. Editors get it
from `claimledger schema` (or the `ledger.schema.json` that `init` writes beside a new
ledger); the loader checks the same dict, so the tool and its editors never disagree.
"""

from __future__ import annotations

from typing import Any

_LEAP_YEAR = "(?:[0-9]{2}(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)"
CALENDAR_DAY = (
    "^(?!0000)(?:[0-9]{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])"
    "|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))"
    f"|{_LEAP_YEAR}-02-29)$"
)
"""A day the calendar has, as `check` reads a date: an editor validating against the
schema refuses `2026-02-30` too (a pattern, since few validators check `format`)."""

WEB_URL = "^[Hh][Tt][Tt][Pp][Ss]?://[^\\s]+$"
"""A page's address: http or https, its scheme in any case (RFC 3986 §3.1: `HTTPS://` is
`https://`; the model keeps it in lower case), and no space. A pattern has no flag for
case, so each letter names both of its cases."""

REPO = "^([Hh][Tt][Tt][Pp][Ss]://[^\\s/]+/\\S+|[Ff][Ii][Ll][Ee]:///.+|(?!\\S*://)[^\\n]+)$"
"""A docs repository: a public https address, a file:// one (each scheme in any case, as
`WEB_URL`'s), or the path of a folder (no other scheme)."""

QUOTE_CHARS = 4000
"""The longest quote: a passage that bears a claim, not a page. The matcher weighs a quote
reworded word by word against the passage that replaced it, in time that grows with the
square of its words where they repeat (a quote of 4,000 words of two kinds took 18 s):
a cloned ledger's quote of a page would hold every refresh."""

LEDGER_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "$id": "https://claimledger.dev/schema/ledger-1.json",
    "title": "claimledger ledger (claims.yaml)",
    "description": "A teardown's claims, their exact quotes, their sources and their graded "
    "facets.",
    "type": "object",
    "required": ["ledger", "title", "date_read", "sections", "sources", "claims"],
    "additionalProperties": False,
    "properties": {
        "ledger": {"const": 1, "description": "Schema version of this file."},
        "title": {"type": "string", "minLength": 1},
        "subject": {"type": "string", "description": "What is being read."},
        "author": {"type": "string"},
        "date_read": {"$ref": "#/$defs/date", "description": "The day the sources were read."},
        "about": {"type": "string", "description": "Markdown: what this reading is and is not."},
        "sections": {
            "type": "array",
            "minItems": 1,
            "description": "The report's order.",
            "items": {
                "type": "object",
                "required": ["id", "title"],
                "additionalProperties": False,
                "properties": {
                    "id": {"$ref": "#/$defs/id"},
                    "title": {"type": "string", "minLength": 1},
                    "intro": {
                        "type": "string",
                        "description": "The author's markdown, before the section's claims.",
                    },
                    "after": {
                        "type": "string",
                        "description": "The author's markdown, after the section's claims.",
                    },
                },
            },
        },
        "closing": {
            "type": "array",
            "description": "Parts of the essay after the graded sections (what is not "
            "proposed, the conclusion): a title and the author's markdown each.",
            "items": {
                "type": "object",
                "required": ["title", "body"],
                "additionalProperties": False,
                "properties": {
                    "title": {"type": "string", "minLength": 1},
                    "body": {"type": "string", "minLength": 1},
                },
            },
        },
        "sources": {
            "type": "object",
            "description": "Each source once, referred to by id.",
            "propertyNames": {"$ref": "#/$defs/id"},
            "additionalProperties": {"$ref": "#/$defs/source"},
        },
        "claims": {"type": "array", "items": {"$ref": "#/$defs/claim"}},
        "scope": {
            "type": "object",
            "additionalProperties": False,
            "properties": {
                "did_not": {"type": "array", "items": {"type": "string"}},
                "could_not_see": {"type": "array", "items": {"type": "string"}},
            },
        },
    },
    "$defs": {
        "id": {"type": "string", "pattern": "^[a-z0-9][a-z0-9._-]*$"},
        "date": {
            "type": "string",
            "pattern": CALENDAR_DAY,
            "description": "A day of the calendar, YYYY-MM-DD (2026-02-30 is none).",
        },
        "url": {"type": "string", "pattern": WEB_URL},
        "grade": {"enum": ["DEMONSTRATED", "CLAIMED", "SPECULATIVE", "UNKNOWN"]},
        "source": {
            "type": "object",
            "required": ["url", "title", "kind", "publisher"],
            "additionalProperties": False,
            "properties": {
                "url": {"$ref": "#/$defs/url"},
                "title": {"type": "string", "minLength": 1},
                "kind": {"enum": ["docs", "blog", "changelog", "source", "mirror", "other"]},
                "publisher": {
                    "type": "string",
                    "minLength": 1,
                    "description": "Two sources of one publisher are not independent.",
                },
                "author": {
                    "type": "string",
                    "minLength": 1,
                    "description": 'Who wrote it, as the report names them: "X reports that '
                    '…" for a quote it reports.',
                },
                "independent": {
                    "type": "boolean",
                    "description": "Count as independent even when the publisher is shared.",
                },
                "select": {
                    "type": "string",
                    "minLength": 1,
                    "description": "CSS selector of the content region.",
                },
                "render": {
                    "enum": ["http", "browser"],
                    "description": "How its page is read: as the server sends it (http, the "
                    "default) or in a browser once its scripts ran (browser: a page built "
                    "by JavaScript).",
                },
                "wait_for": {
                    "type": "string",
                    "minLength": 1,
                    "description": "With render: browser, the CSS selector to wait for before "
                    "reading (default: until the network is idle).",
                },
                "archived": {"$ref": "#/$defs/url", "description": "An archived copy of the page."},
                "repo": {
                    "type": "string",
                    "pattern": REPO,
                    "description": "The git repository the page is built from: a public "
                    "https address, or a local clone's path (from the ledger's folder; used "
                    "once you trust the workspace), for `claimledger blame` and `refresh`: "
                    "when and in which commit its words changed.",
                },
                "path": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The page's source file in `repo`.",
                },
                "note": {"type": "string"},
                "allow_private": {
                    "type": "boolean",
                    "description": "Its page is on a private or loopback address (a mirror, "
                    "a local copy) and may be fetched there.",
                },
                "accept_status": {
                    "type": "array",
                    "items": {"type": "integer", "minimum": 100, "maximum": 599},
                    "description": "HTTP statuses this site "
                    "is known to answer us "
                    "with (a 403 for bots): "
                    "not a failure, and no "
                    "evidence either way.",
                },
                "history": {
                    "type": "array",
                    "description": "Appended by the tool: where this source lived before.",
                    "items": {
                        "type": "object",
                        "required": ["date", "moved_from", "by"],
                        "additionalProperties": False,
                        "properties": {
                            "date": {"$ref": "#/$defs/date"},
                            "moved_from": {"$ref": "#/$defs/url"},
                            "by": {"type": "string", "minLength": 1},
                            "why": {"type": "string"},
                        },
                    },
                },
            },
        },
        "quote": {
            "type": "object",
            "required": ["text", "sources"],
            "additionalProperties": False,
            "properties": {
                "text": {
                    "type": "string",
                    "minLength": 1,
                    "maxLength": QUOTE_CHARS,
                    "description": "The words quoted, as the page says them: a passage, "
                    f"at most {QUOTE_CHARS:,} characters.",
                },
                "sources": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/id"}},
                "note": {"type": "string"},
                "reported_by": {
                    "$ref": "#/$defs/id",
                    "description": "A source whose author reports these words (a third "
                    "party's article, a practitioner's measurement): the report says they "
                    "report it, not that the subject says it.",
                },
                "via": {
                    "$ref": "#/$defs/id",
                    "description": "The source of the primary statement the report cites.",
                },
                "under": {
                    "type": "string",
                    "minLength": 1,
                    "description": "The heading the quote sits under (a changelog entry, a "
                    "section): looked for there first, wherever the section has moved.",
                },
            },
        },
        "facet": {
            "type": "object",
            "required": ["on", "grade", "basis"],
            "additionalProperties": False,
            "properties": {
                "on": {"type": "string", "minLength": 1, "description": "What the grade is on."},
                "grade": {"$ref": "#/$defs/grade"},
                "basis": {"enum": ["quotes", "premises", "artifact", "judgement"]},
                "why": {"type": "string"},
                "min_sources": {"type": "integer", "minimum": 1},
                "depends_on": {
                    "type": "array",
                    "items": {"$ref": "#/$defs/id"},
                    "description": "The premises this facet rests on (basis premises); "
                    "default: the claim's depends_on.",
                },
            },
        },
        "artifact": {
            "type": "object",
            "required": ["run", "expect"],
            "additionalProperties": False,
            "properties": {
                "run": {
                    "oneOf": [
                        {"type": "array", "minItems": 1, "items": {"type": "string"}},
                        {"type": "string", "minLength": 1},
                    ]
                },
                "shell": {
                    "type": "boolean",
                    "description": "Run `run` through the shell (off by default).",
                },
                "expect": {"type": "string"},
                "timeout": {"type": "number", "exclusiveMinimum": 0},
                "language": {
                    "type": "string",
                    "pattern": "^[A-Za-z0-9_+#.-]+$",
                    "description": "The language of its code, for the report's code block "
                    "(python, js, sh).",
                },
                "code": {
                    "type": "string",
                    "description": "The program the report shows, when `run` is not it "
                    "(run: [python3, toy.py]; code: the text of toy.py). Default: the script "
                    "of an `-c`/`-e` run, else the command.",
                },
            },
        },
        "history_entry": {
            "type": "object",
            "required": ["date", "by"],
            "additionalProperties": False,
            "properties": {
                "date": {"$ref": "#/$defs/date"},
                "by": {
                    "type": "string",
                    "minLength": 1,
                    "description": "person, or rule:<name>, or accept",
                },
                "on": {"type": "string"},
                "from": {"$ref": "#/$defs/grade"},
                "to": {"$ref": "#/$defs/grade"},
                "quote_was": {"type": "string"},
                "quote_now": {"type": "string"},
                "why": {"type": "string"},
                "meaning": {
                    "enum": ["changed", "uncertain"],
                    "description": "an adoption whose wording changed, or may have changed, "
                    "the quote's meaning: the claim needs review",
                },
            },
        },
        "claim": {
            "type": "object",
            "required": ["id", "section", "title", "statement", "kind", "grades"],
            "additionalProperties": False,
            "properties": {
                "id": {"$ref": "#/$defs/id"},
                "section": {"$ref": "#/$defs/id"},
                "title": {"type": "string", "minLength": 1},
                "statement": {"type": "string", "minLength": 1},
                "kind": {
                    "enum": [
                        "guarantee",
                        "mechanism",
                        "consequence",
                        "question",
                        "strength",
                        "artifact",
                    ]
                },
                "quotes": {"type": "array", "items": {"$ref": "#/$defs/quote"}},
                "grades": {"type": "array", "minItems": 1, "items": {"$ref": "#/$defs/facet"}},
                "depends_on": {"type": "array", "items": {"$ref": "#/$defs/id"}},
                "falsified_if": {"type": "string"},
                "falsified": {
                    "type": "object",
                    "required": ["date", "why"],
                    "additionalProperties": False,
                    "description": "The falsifier was met: the claim is refuted, and what "
                    "rests on it is capped.",
                    "properties": {
                        "date": {"$ref": "#/$defs/date"},
                        "why": {"type": "string", "minLength": 1},
                        "by": {"type": "string", "minLength": 1},
                    },
                },
                "body": {
                    "type": "string",
                    "description": "The author's markdown about the claim: the mechanism, "
                    "the argument; shown after its statement.",
                },
                "artifact": {"$ref": "#/$defs/artifact"},
                "history": {"type": "array", "items": {"$ref": "#/$defs/history_entry"}},
            },
        },
    },
}
