"""A small docs site and the ledger that quotes it, shared by the CLI tests.

Three pages (`/guide`, `/mirror`, `/other`) on a `PageServer`, and a ledger of three
claims quoting them, with comments that every write must keep.
"""

from __future__ import annotations

import string
from pathlib import Path

from webserver import PageServer

DURABLE = "Storage writes are durable before the response is sent to the client."
NOT_DURABLE = "Storage writes are not durable before the response is sent to the client."
ORDERED = "Messages from one sender are delivered in the order they were sent."
ALARM = "The alarm handler runs at least once for every scheduled alarm time."
ALARM_REWORDED = "The alarm handler runs at least once for every scheduled alarm moment."

LEDGER = string.Template("""\
# A small ledger for the evidence commands: this comment must survive every write.
ledger: 1
title: Evidence commands
date_read: 2026-08-23

sections:
  - id: main
    title: Main  # an inline comment

sources:
  guide: {url: "$guide", title: Guide, kind: docs, publisher: p}
  mirror: {url: "$mirror", title: Mirror, kind: mirror, publisher: q}
  other: {url: "$other", title: Other, kind: docs, publisher: p}

claims:
  - id: durable
    section: main
    title: Durable writes
    kind: guarantee
    statement: Writes are durable before the reply.
    quotes:
      - text: "$durable"
        sources: [guide, mirror]
      - text: "$ordered"
        sources: [guide]
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}
      - {on: holds under crashes, grade: UNKNOWN, basis: judgement, why: nobody tested it}

  - id: ordered
    section: main
    title: Ordered delivery
    kind: guarantee
    statement: One sender's messages arrive in order.
    quotes:
      - text: "$ordered"
        sources: [guide]
    grades:
      - {on: wording, grade: CLAIMED, basis: quotes}

  - id: alarms
    section: main
    title: Alarms fire
    kind: guarantee
    statement: Every alarm runs.
    quotes:
      - text: "$alarm"
        sources: [other]
    grades:
      - {on: wording, grade: DEMONSTRATED, basis: quotes}  # graded by hand once
""")


def page(*sentences: str) -> str:
    """A docs-like page: navigation and footer around a main region holding `sentences`."""
    nav = "<nav><a href='/'>Home</a> <a href='/guide'>Guide</a></nav>"
    body = "".join(f"<p>{s} Some neighbouring prose follows here.</p>" for s in sentences)
    return f"<html><body>{nav}<main><h1>Doc</h1>{body}</main><footer>2026</footer></body></html>"


def serve_v1(server: PageServer, *, etags: bool = False) -> None:
    """Every quote verbatim; with `etags`, each page carries a validator for a 304 next time."""

    def headers(tag: str) -> dict[str, str]:
        return {"ETag": f'"{tag}"'} if etags else {}

    server.set_page("/guide", page("An opening line.", DURABLE, ORDERED), headers=headers("g1"))
    server.set_page("/mirror", page(DURABLE), headers=headers("m1"))
    server.set_page("/other", page(ALARM), headers=headers("o1"))


def write_ledger(directory: Path, server: PageServer) -> Path:
    """The ledger, quoting the pages of `server`, at `directory/ledger/claims.yaml`."""
    path = directory / "ledger" / "claims.yaml"
    path.parent.mkdir()
    path.write_text(
        LEDGER.substitute(
            guide=server.url("/guide"),
            mirror=server.url("/mirror"),
            other=server.url("/other"),
            durable=DURABLE,
            ordered=ORDERED,
            alarm=ALARM,
        ),
        encoding="utf-8",
    )
    return path
