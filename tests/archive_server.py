"""A web archive on 127.0.0.1 for tests: the Wayback Machine's availability, CDX and `id_`
endpoints over captures a test adds, on a `PageServer` (real sockets, real 429s).

    archive = WebArchive(server)
    archive.add("https://docs.example.com/a", "20260821093000", "<p>as captured</p>")
    archive.base   # what --archive is given

A capture is served raw at `/web/<timestamp>id_/<url>` and, at `/web/<timestamp>/<url>`,
inside a toolbar that holds words of its own (a client that read that form would match
the toolbar). `throttle` makes the next CDX answers 429 with a Retry-After; `answer_cdx`
gives the CDX answer for a page as a test writes it (an archive's odd answer). Save Page
Now, `/save/<url>`, takes a snapshot of each page `take_saves` names (a redirect to it),
and `saves_asked` lists every address it was asked to save, taken or not.
"""

from __future__ import annotations

import datetime as dt
import json
import threading
from dataclasses import dataclass
from urllib.parse import parse_qs, urlsplit

from webserver import Exchange, Page, PageServer, redirect

TOOLBAR = (
    "<div id='wm-ipp-base'><p>Wayback Machine toolbar: {words}</p></div>"
    "<!-- END WAYBACK TOOLBAR INSERT -->"
)


@dataclass(frozen=True)
class Capture:
    url: str
    timestamp: str
    body: str
    content_type: str
    status: int


class WebArchive:
    """The archive's endpoints on `server`, under `prefix` (a path the base URL ends with)."""

    def __init__(self, server: PageServer, prefix: str = "/archive") -> None:
        self.server = server
        self.prefix = prefix
        self.captures: list[Capture] = []
        self._lock = threading.Lock()
        self._throttled: list[str] = []
        self._answers: dict[str, list[list[str]]] = {}
        server.set_handler(f"{prefix}/cdx/search/cdx", self._cdx)
        server.set_handler(f"{prefix}/wayback/available", self._available)

    @property
    def base(self) -> str:
        return self.server.url(self.prefix)

    def add(
        self,
        url: str,
        timestamp: str,
        body: str,
        *,
        content_type: str = "text/html; charset=utf-8",
        status: int = 200,
        toolbar_words: str = "",
    ) -> None:
        """A capture of `url` taken at `timestamp` (14 digits)."""
        with self._lock:
            self.captures.append(Capture(url, timestamp, body, content_type, status))
        raw = body.encode("utf-8")
        headers = {"Content-Type": content_type}
        self.server.set_handler(
            f"{self.prefix}/web/{timestamp}id_/{url}", Page(raw, status, headers)
        )
        shown = TOOLBAR.format(words=toolbar_words) + body
        self.server.set_handler(
            f"{self.prefix}/web/{timestamp}/{url}", Page(shown.encode("utf-8"), status, headers)
        )

    def take_saves(self, *urls: str, timestamp: str = "20260823120000") -> None:
        """Save Page Now answers for each of `urls` with a redirect to its new snapshot."""
        for url in urls:
            self.server.set_handler(
                f"{self.prefix}/save/{url}", redirect(f"{self.prefix}/web/{timestamp}/{url}")
            )

    def saves_asked(self) -> list[str]:
        """The addresses Save Page Now was asked for, in the order asked."""
        start = f"{self.prefix}/save/"
        return [r.path[len(start) :] for r in self.server.requests if r.path.startswith(start)]

    def throttle(self, times: int, retry_after: str = "2") -> None:
        """The next `times` CDX queries answer 429 with this Retry-After."""
        with self._lock:
            self._throttled = [retry_after] * times

    def answer_cdx(self, url: str, rows: list[list[str]]) -> None:
        """The CDX server answers these rows (a header row first) for `url`, as they are."""
        with self._lock:
            self._answers[url] = rows

    def break_cdx(self) -> None:
        """The CDX server answers 500 from now on (the availability API still answers)."""
        self.server.set_handler(
            f"{self.prefix}/cdx/search/cdx",
            lambda exchange: exchange.respond(500, b"down", {"Content-Type": "text/plain"}),
        )

    # what was asked

    def asked(self, kind: str) -> list[str]:
        """The requests of one kind: "cdx", "available", "id_" (a raw capture) or "toolbar"."""
        paths = [r.path for r in self.server.requests if r.path.startswith(self.prefix)]
        return [path for path in paths if _kind(path[len(self.prefix) :]) == kind]

    @property
    def hits(self) -> int:
        """Every request to the archive (its robots.txt aside)."""
        return sum(1 for r in self.server.requests if r.path.startswith(self.prefix))

    # endpoints

    def _cdx(self, exchange: Exchange) -> None:
        with self._lock:
            throttled = self._throttled.pop(0) if self._throttled else None
        if throttled is not None:
            exchange.respond(429, b"slow down", {"Retry-After": throttled})
            return
        query = _query(exchange.path)
        with self._lock:
            given = self._answers.get(query.get("url", ""))
        if given is not None:
            exchange.respond(200, json.dumps(given).encode(), {"Content-Type": "application/json"})
            return
        fields = query.get("fl", "urlkey,timestamp,original,mimetype,statuscode").split(",")
        rows = self._matching(query.get("url", ""))
        if query.get("filter") == "statuscode:200":
            rows = [c for c in rows if c.status == 200]
        low = query.get("from", "")
        high = query.get("to", "")
        rows = [c for c in rows if c.timestamp >= _pad(low, "0") and c.timestamp <= _pad(high, "9")]
        if query.get("sort") == "closest" and query.get("closest"):
            target = _moment(query["closest"])
            rows.sort(key=lambda c: abs(_moment(c.timestamp) - target))
        if "limit" in query:
            rows = rows[: int(query["limit"])]
        table = [fields, *([_field(c, f) for f in fields] for c in rows)] if rows else []
        body = json.dumps(table).encode("utf-8")
        exchange.respond(200, body, {"Content-Type": "application/json"})

    def _available(self, exchange: Exchange) -> None:
        query = _query(exchange.path)
        rows = [c for c in self._matching(query.get("url", "")) if c.status == 200]
        answer: dict[str, object] = {"url": query.get("url"), "archived_snapshots": {}}
        if rows:
            target = _moment(_pad(query.get("timestamp", "") or "2026", "0"))
            best = min(rows, key=lambda c: abs(_moment(c.timestamp) - target))
            answer["archived_snapshots"] = {
                "closest": {
                    "status": "200",
                    "available": True,
                    "url": f"http://archive.test/web/{best.timestamp}/{best.url}",
                    "timestamp": best.timestamp,
                }
            }
        body = json.dumps(answer).encode("utf-8")
        exchange.respond(200, body, {"Content-Type": "application/json"})

    def _matching(self, url: str) -> list[Capture]:
        with self._lock:
            return [c for c in self.captures if _same_page(c.url, url)]


def _field(capture: Capture, name: str) -> str:
    """One CDX field of a capture."""
    if name in ("urlkey", "original"):
        return capture.url
    if name == "mimetype":
        return capture.content_type.split(";")[0]
    return capture.timestamp if name == "timestamp" else str(capture.status)


def _query(path: str) -> dict[str, str]:
    return {name: values[-1] for name, values in parse_qs(urlsplit(path).query).items()}


def _kind(path: str) -> str:
    if path.startswith("/cdx/"):
        return "cdx"
    if path.startswith("/wayback/available"):
        return "available"
    head = path.split("/")[2] if path.startswith("/web/") else ""
    return "id_" if head.endswith("id_") else "toolbar"


def _same_page(a: str, b: str) -> bool:
    """As the archive compares addresses: the scheme aside."""
    return a.split("://", 1)[-1] == b.split("://", 1)[-1]


def _pad(stamp: str, digit: str) -> str:
    return (stamp + digit * 14)[:14] if stamp else digit * 14


def _moment(stamp: str) -> dt.datetime:
    digits = (stamp + "00000101000000"[len(stamp) :])[:14]
    return dt.datetime.strptime(digits, "%Y%m%d%H%M%S")
