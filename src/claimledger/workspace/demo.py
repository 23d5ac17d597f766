"""Serve the bundled demo pages on 127.0.0.1, as they read on two dates.

The offline demo runs the whole pipeline against documentation pages that behave
like a real docs site, without the internet: `serve_pages` starts a small HTTP
server that answers for every source host of the example ledger under one local
address, and `demo_url_map` writes the `--map` rules that send the ledger's URLs
there.

The pages live in package data, `data/demo/<version>/<host>/<path>`, one tree per
version (`read`: as on the ledger's date_read; `later`: the same pages after some
realistic drift). `data/demo/routes.yaml` says, per version, which paths answer
with a redirect or an error instead of a file, the Last-Modified date of the
pages, and extra headers. The server behaves as a careful static host does:

* a directory serves its `index.html`; the Content-Type follows the extension;
* every file carries an ETag (a hash of its bytes) and a Last-Modified date, and
  a conditional request for an unchanged file is answered 304, so a second
  refresh shows what conditional requests save;
* a GitHub `blob/` path answers with the file from `raw.githubusercontent.com`,
  so a ledger URL mapped as it stands and one already rewritten by the fetcher
  reach the same file;
* a path that could climb out of the version's tree (`..`, `.`, a backslash, a
  NUL, once or percent-encoded) is refused with 400;
* nothing is logged; a handler failure is kept in `PageServer.errors`.

`PageServer.switch` changes version without a restart, so the same URL map keeps
working from the first refresh to the second.

The same server is the demo's web archive, under `/web.archive.org/`: the Wayback
Machine's CDX, availability and `id_` endpoints over one capture of every page, as the
`archive` part of routes.yaml says (`DemoArchive`), so the refresh checks each quote on
the copy of the reading day too, offline.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from html import escape
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from importlib.resources import files
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any, cast
from urllib.parse import parse_qs, unquote, urlsplit

import yaml

from claimledger.errors import DemoDataError, InputError
from claimledger.ledger.model import ledger_schema

ROUTES_FILE = "routes.yaml"
LOOPBACK = "127.0.0.1"
REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
ERROR_STATUSES = frozenset({400, 403, 404, 410, 429, 500, 503})
CONTENT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".ts": "text/plain; charset=utf-8",
    ".md": "text/markdown; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".json": "application/json",
}
DEFAULT_CONTENT_TYPE = "application/octet-stream"
HTML = "text/html; charset=utf-8"

Root = Traversable | Path


def demo_data() -> Traversable:
    """The root of the bundled demo pages, wherever the package is installed."""
    return files("claimledger") / "data" / "demo"


@dataclass(frozen=True)
class DemoStep:
    """One command of the demo's story: its heading (empty: no heading of its own), the
    version of the pages to serve first (None: as they are), its arguments, and what it
    shows and where to look (printed under the heading)."""

    title: str
    version: str | None
    args: tuple[str, ...]
    says: str = ""


ARCHIVE_HOST = "web.archive.org"
"""The host the demo's web archive answers for (under its path on the local server)."""


def demo_steps(date_read: str, maps: Iterable[str]) -> list[DemoStep]:
    """The whole loop, twice: the pages as read, then as they are later (served on this
    machine's loopback address, so fetched with --allow-private and without the pause
    between requests that a real site is owed), each quote checked on the web
    archive's copy nearest the reading day too (that archive mapped there as well). No
    docs repository comes with the demo, so no quote's git history is asked for: the
    pages' edit links name one on GitHub, and the demo reaches no host but its own."""
    mapped = (
        *(arg for spec in maps for arg in ("--map", spec)),
        "--allow-private",
        "--archive",
        f"https://{ARCHIVE_HOST}",
        "--no-history",
        "--interval",
        "0",
    )
    return [
        DemoStep(
            f"1. refresh against the pages as read on {date_read}",
            None,
            ("refresh", *mapped),
            "Every quote is looked for on its page as it read the day the teardown was "
            "written, and on the web archive's copy nearest that day. All verify on the "
            "pages; the archive's copy of one blog post does not carry its quote in the "
            "ledger's words: see the last line.",
        ),
        DemoStep(
            "2. the pages change: refresh again",
            "later",
            ("refresh", *mapped),
            "Months later: one sentence reworded (that same -> the same), one guarantee "
            "reversed (synchronous -> asynchronous), one paragraph removed, one page moved "
            "(301) and one gone (404), and boilerplate changed everywhere. The table lists "
            "the claims that need a look; the notes under it say what happened to each page.",
        ),
        DemoStep(
            "3. what drifted, word by word",
            None,
            ("diff",),
            "Each quote that is not verified against the page's own words. A `!` marks a "
            "word that changes the meaning, a `?` one that may; MEANING CHANGED is never "
            "adopted without you.",
        ),
        DemoStep(
            "4. allow the ledger's artifact command to run (a program: read it first)",
            None,
            ("trust",),
            "A cloned teardown's programs never run until you allow them, exactly as they are.",
        ),
        DemoStep(
            "5. what the evidence does to the grades",
            None,
            ("regrade",),
            "Named rules propose each grade change, and why; a claim that rests on one "
            "that falls is capped with it. Nothing is written yet.",
        ),
        DemoStep(
            "6. apply the grade changes",
            None,
            ("regrade", "--write"),
            "The proposals written to claims.yaml, each in its claim's history.",
        ),
        DemoStep(
            "7. accept the harmless rewordings (a reversed one is refused)",
            None,
            ("accept", "--all-drifted"),
            "The reworded quote takes the page's words; the reversed guarantee is refused "
            "and stays for you to judge (`accept CLAIM --even-if-meaning-changed`).",
        ),
        DemoStep(
            "8. refresh once more: the adopted wording now verifies",
            None,
            ("refresh", *mapped),
        ),
        DemoStep(
            "9. render the report",
            None,
            ("render",),
            "The teardown as a reader sees it: findings first, then every claim with its "
            "grade, quotes and how well each is cross-checked.",
        ),
        DemoStep("", None, ("render", "--format", "html")),
    ]


DEMO_NEXT = (
    "next: open {report} in a browser; then try `claimledger --ledger {ledger} status`, "
    "`... explain sync-sqlite` (why a grade is what it is) and `... history one-instance`; "
    "to start your own teardown: `claimledger init my-teardown`"
)
"""What the demo says last: where to look, and what to run next."""


def demo_url_map(base_url: str, hosts: Iterable[str]) -> list[str]:
    """The `--map PREFIX=REPLACEMENT` specs that send each host's pages to the local server."""
    base = base_url.rstrip("/")
    return [f"https://{host}/={base}/{host}/" for host in sorted(set(hosts))]


# --- routes.yaml --------------------------------------------------------------------------


@dataclass(frozen=True)
class Route:
    """What one site path answers instead of (or in addition to) its file."""

    status: int | None = None
    location: str | None = None
    last_modified: str | None = None


@dataclass(frozen=True)
class SiteVersion:
    """One version of the demo site: its page tree and how the server answers for it."""

    name: str
    pages: Root
    last_modified: str
    headers: Mapping[str, str] = field(default_factory=dict)
    routes: Mapping[str, Route] = field(default_factory=dict)


def load_version(root: Root, version: str) -> SiteVersion:
    """Read routes.yaml for `version` and check that its page tree exists."""
    pages = root.joinpath(version)
    if not pages.is_dir():
        raise DemoDataError(f"no demo pages for version {version!r} under {root}")
    document = yaml.safe_load(root.joinpath(ROUTES_FILE).read_text(encoding="utf-8"))
    versions = _mapping(document, ROUTES_FILE)
    spec = _mapping(versions.get(version, {}), f"{ROUTES_FILE}: {version}")
    where = f"{ROUTES_FILE}: {version}"
    last_modified = _http_date(spec.get("last_modified"), f"{where}: last_modified")
    headers = {
        str(name): str(value)
        for name, value in _mapping(spec.get("headers", {}), f"{where}: headers").items()
    }
    routes = {
        str(path): _route(str(path), entry, f"{where}: {path}")
        for path, entry in _mapping(spec.get("routes", {}), f"{where}: routes").items()
    }
    return SiteVersion(version, pages, last_modified, headers, routes)


def _mapping(value: Any, where: str) -> dict[str, Any]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise DemoDataError(f"{where}: expected a mapping, found {type(value).__name__}")
    return value


def _http_date(value: Any, where: str) -> str:
    try:
        parsedate_to_datetime(str(value))
    except (TypeError, ValueError):
        raise DemoDataError(f"{where}: {value!r} is not an HTTP date") from None
    return str(value)


def _route(path: str, entry: Any, where: str) -> Route:
    spec = _mapping(entry, where)
    if not path.startswith("/"):
        raise DemoDataError(f"{where}: a route is a site path starting with '/'")
    status = spec.get("status")
    location = spec.get("location")
    if status is not None and status not in REDIRECT_STATUSES | ERROR_STATUSES:
        raise DemoDataError(f"{where}: status {status!r} is not a redirect or an error")
    if (status in REDIRECT_STATUSES) != (location is not None):
        raise DemoDataError(f"{where}: a redirect needs a location, and only a redirect has one")
    if location is not None and not str(location).startswith("/"):
        raise DemoDataError(f"{where}: location {location!r} must be a site path")
    modified = spec.get("last_modified")
    return Route(
        status=status,
        location=None if location is None else str(location),
        last_modified=None if modified is None else _http_date(modified, where),
    )


# --- The web archive ----------------------------------------------------------------------


@dataclass(frozen=True)
class DemoArchive:
    """One capture of every page of the `pages` tree, taken at `timestamp`; a `reworded`
    page (by site path) has other words in its capture: (the page's words, the capture's)."""

    timestamp: str
    pages: Root
    reworded: Mapping[str, tuple[str, str]] = field(default_factory=dict)


def load_archive(root: Root) -> DemoArchive | None:
    """The `archive` part of routes.yaml (None when it has none)."""
    document = _mapping(yaml.safe_load(root.joinpath(ROUTES_FILE).read_text("utf-8")), ROUTES_FILE)
    spec = _mapping(document.get("archive"), f"{ROUTES_FILE}: archive")
    if not spec:
        return None
    timestamp = str(spec.get("timestamp", ""))
    if len(timestamp) != 14 or not timestamp.isdigit():
        raise DemoDataError(f"{ROUTES_FILE}: archive: timestamp {timestamp!r} is not 14 digits")
    reworded = {}
    for path, words in _mapping(spec.get("reworded"), f"{ROUTES_FILE}: archive: reworded").items():
        if not isinstance(words, list) or len(words) != 2:
            raise DemoDataError(f"{ROUTES_FILE}: archive: {path}: expected [page's, capture's]")
        reworded[str(path)] = (str(words[0]), str(words[1]))
    return DemoArchive(timestamp, root.joinpath(str(spec.get("pages", "read"))), reworded)


def archive_answer(archive: DemoArchive, target: str) -> Reply:
    """How the archive answers a GET for `target` (below `/web.archive.org`)."""
    parts = urlsplit(target)
    query = {name: values[-1] for name, values in parse_qs(parts.query).items()}
    path = unquote(parts.path)
    if path == "/cdx/search/cdx":
        url, low, high = query.get("url", ""), query.get("from", ""), query.get("to", "")
        ts = archive.timestamp
        held = _captured(archive, url) is not None
        held = held and (low + "0" * 14)[:14] <= ts <= (high + "9" * 14)[:14]
        rows = [["timestamp", "original", "statuscode"], [ts, url, "200"]] if held else []
        return Reply(200, {"Content-Type": "application/json"}, json.dumps(rows).encode())
    if path == "/wayback/available":
        url = query.get("url", "")
        closest = {
            "available": True,
            "status": "200",
            "timestamp": archive.timestamp,
            "url": f"https://{ARCHIVE_HOST}/web/{archive.timestamp}/{url}",
        }
        held = _captured(archive, url) is not None
        said = {"url": url, "archived_snapshots": {"closest": closest} if held else {}}
        return Reply(200, {"Content-Type": "application/json"}, json.dumps(said).encode())
    stamp, _, original = target.removeprefix("/web/").partition("/")
    found = _captured(archive, original) if stamp.removesuffix("id_") == archive.timestamp else None
    if not target.startswith("/web/") or found is None:
        return Reply(404, {"Content-Type": HTML}, b"<!doctype html><title>Not archived</title>\n")
    name, body = found
    content_type = CONTENT_TYPES.get(_extension(name), DEFAULT_CONTENT_TYPE)
    return Reply(200, {"Content-Type": content_type}, body)


def _captured(archive: DemoArchive, url: str) -> tuple[str, bytes] | None:
    """The file the archive holds for `url` (its name and its captured bytes), if any."""
    parts = urlsplit(url)
    path = f"/{parts.hostname or ''}{parts.path or '/'}"
    segments = _safe_segments(path)
    found = None if segments is None else _find_file(archive.pages, _raw_github(segments))
    if found is None:
        return None
    body = found.read_bytes()
    if path in archive.reworded:
        was, now = (words.encode("utf-8") for words in archive.reworded[path])
        if body.count(was) != 1:
            raise DemoDataError(f"{ROUTES_FILE}: archive: {path}: {was!r} is not once on the page")
        body = body.replace(was, now)
    return found.name, body


# --- Answering one request ----------------------------------------------------------------


@dataclass(frozen=True)
class Reply:
    """A complete response: status, headers and body (empty for HEAD and 304)."""

    status: int
    headers: dict[str, str]
    body: bytes = b""


def answer(site: SiteVersion, base_url: str, target: str, request: Mapping[str, str]) -> Reply:
    """How the site answers a GET for `target`; `request` headers are keyed in lower case."""
    segments = _safe_segments(target)
    if segments is None:
        return _error_page(400, "The path is not allowed.", site)
    segments = _raw_github(segments)
    path = "/" + "/".join(segments)
    route = _find_route(site, path)
    if route is not None and route.status is not None:
        if route.location is not None:
            return _redirect(route.status, base_url.rstrip("/") + route.location, site)
        return _error_page(route.status, "This page is not here.", site)
    found = _find_file(site.pages, segments)
    if found is None:
        return _error_page(404, "This page is not here.", site)
    body = found.read_bytes()
    modified = route.last_modified if route and route.last_modified else site.last_modified
    validators = {"ETag": _etag(body), "Last-Modified": modified}
    if _not_modified(request, validators):
        return Reply(304, {**site.headers, **validators})
    content_type = CONTENT_TYPES.get(_extension(found.name), DEFAULT_CONTENT_TYPE)
    return Reply(200, {**site.headers, **validators, "Content-Type": content_type}, body)


def _safe_segments(target: str) -> list[str] | None:
    """The decoded path segments of a request target, or None if any could climb out."""
    path = target.split("?", 1)[0].split("#", 1)[0]
    if not path.startswith("/"):
        return None
    try:
        segments = unquote(path, errors="strict").split("/")[1:]
    except UnicodeDecodeError:
        return None
    for index, segment in enumerate(segments):
        if segment in (".", "..") or "\\" in segment or "\x00" in segment:
            return None
        if segment == "" and index != len(segments) - 1:
            return None
    return segments


def _raw_github(segments: list[str]) -> list[str]:
    """`github.com/<owner>/<repo>/blob/<rest>` is served as the raw file, as GitHub serves
    `raw.githubusercontent.com/<owner>/<repo>/<rest>` (the fetcher asks for that one)."""
    if len(segments) >= 5 and segments[0] == "github.com" and segments[3] == "blob":
        return ["raw.githubusercontent.com", segments[1], segments[2], *segments[4:]]
    return segments


def _find_route(site: SiteVersion, path: str) -> Route | None:
    route = site.routes.get(path)
    if route is None and not path.endswith("/"):
        route = site.routes.get(path + "/")
    return route


def _find_file(pages: Root, segments: list[str]) -> Traversable | Path | None:
    names = segments[:-1] if segments and segments[-1] == "" else segments
    node: Traversable | Path = pages
    for name in names:
        node = node.joinpath(name)
    if node.is_dir():
        node = node.joinpath("index.html")
    return node if node.is_file() else None


def _extension(name: str) -> str:
    dot = name.rfind(".")
    return name[dot:].lower() if dot > 0 else ""


def _etag(body: bytes) -> str:
    return '"' + hashlib.sha256(body).hexdigest()[:20] + '"'


def _not_modified(request: Mapping[str, str], validators: Mapping[str, str]) -> bool:
    """RFC 9110: If-None-Match decides when present; If-Modified-Since only without it."""
    if_none_match = request.get("if-none-match")
    if if_none_match is not None:
        tags = {tag.strip().removeprefix("W/") for tag in if_none_match.split(",")}
        return "*" in tags or validators["ETag"] in tags
    since = request.get("if-modified-since")
    if since is None:
        return False
    try:
        return parsedate_to_datetime(validators["Last-Modified"]) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False


def _redirect(status: int, location: str, site: SiteVersion) -> Reply:
    link = escape(location, quote=True)
    body = f'<!doctype html><title>Moved</title><p>Moved to <a href="{link}">{link}</a></p>\n'
    headers = {**site.headers, "Location": location, "Content-Type": HTML}
    return Reply(status, headers, body.encode("utf-8"))


def _error_page(status: int, message: str, site: SiteVersion) -> Reply:
    phrase = HTTPStatus(status).phrase
    body = f"<!doctype html><title>{status} {phrase}</title><h1>{phrase}</h1><p>{message}</p>\n"
    return Reply(status, {**site.headers, "Content-Type": HTML}, body.encode("utf-8"))


# --- The server ---------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    """Answers GET and HEAD from the server's current site version; logs nothing."""

    protocol_version = "HTTP/1.1"
    server_version = "claimledger-demo"
    sys_version = ""
    timeout = 5.0  # an idle keep-alive connection is closed after this many seconds

    def do_GET(self) -> None:
        self._reply(with_body=True)

    def do_HEAD(self) -> None:
        self._reply(with_body=False)

    def _reply(self, *, with_body: bool) -> None:
        pages = cast(_HTTPServer, self.server).pages
        request = {name.lower(): value for name, value in self.headers.items()}
        archive = pages.archive if self.path.startswith(f"/{ARCHIVE_HOST}/") else None
        if archive is not None:
            reply = archive_answer(archive, self.path.removeprefix(f"/{ARCHIVE_HOST}"))
        else:
            reply = answer(pages.site, pages.base_url, self.path, request)
        self.send_response(reply.status)
        for name, value in reply.headers.items():
            self.send_header(name, value)
        self.send_header("Content-Length", str(len(reply.body)))
        self.end_headers()
        if with_body and reply.body:
            self.wfile.write(reply.body)

    def log_message(self, format: str, *args: Any) -> None:
        """The demo prints its own tables; request lines would only clutter them."""


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, pages: PageServer) -> None:
        self.pages = pages
        super().__init__((LOOPBACK, 0), _Handler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """Keep a handler failure for the caller instead of printing a traceback."""
        error = sys.exc_info()[1]
        if isinstance(error, ConnectionError):
            return  # the client went away; nothing to report
        self.pages.errors.append(f"{type(error).__name__}: {error}")


class PageServer:
    """The running demo site: its address, the version it serves, and handler failures."""

    def __init__(self, root: Root, version: str) -> None:
        self._root = root
        self.site = load_version(root, version)
        self.archive = load_archive(root)
        self.errors: list[str] = []
        self._httpd = _HTTPServer(self)
        host, port = self._httpd.server_address[:2]
        self.base_url = f"http://{host!s}:{port}"

    @property
    def version(self) -> str:
        return self.site.name

    def switch(self, version: str) -> None:
        """Serve `version` from now on; the address, and so the URL map, stay the same."""
        self.site = load_version(self._root, version)

    def url(self, host: str, path: str = "/") -> str:
        """The local URL of `https://<host><path>`."""
        return f"{self.base_url}/{host}{path}"

    def _start(self) -> threading.Thread:
        thread = threading.Thread(
            target=self._httpd.serve_forever,
            kwargs={"poll_interval": 0.05},  # so that leaving the block is quick
            name="claimledger-demo-pages",
            daemon=True,
        )
        thread.start()
        return thread

    def _stop(self, thread: threading.Thread) -> None:
        self._httpd.shutdown()
        self._httpd.server_close()
        thread.join()


@contextmanager
def serve_pages(root: Root, version: str) -> Iterator[PageServer]:
    """Serve `root/<version>` on 127.0.0.1 (a free port) for the life of the block."""
    server = PageServer(root, version)
    thread = server._start()
    try:
        yield server
    finally:
        server._stop(thread)


SCHEMA_COMMENT = "# yaml-language-server: $schema="


def schema_comment_target(ledger_text: str) -> str:
    """The file beside the ledger that its first line points editors at: the demo writes the
    schema there, so the comment resolves in the copy (a URL or a path that leaves the
    folder would not)."""
    first = ledger_text.partition("\n")[0]
    target = first.removeprefix(SCHEMA_COMMENT).strip() if first.startswith(SCHEMA_COMMENT) else ""
    if target in ("", ".", "..") or any(mark in target for mark in "/\\:"):
        raise DemoDataError(
            f"the bundled ledger's first line must be {SCHEMA_COMMENT}<file beside it>, "
            f"not {first!r}"
        )
    return target


def prepare_demo_directory(directory: Path) -> Path:
    """A fresh copy of the bundled ledger in `directory`; a previous demo there is replaced."""
    marker = directory / ".claimledger-demo"
    try:
        if directory.is_symlink() or (directory.exists() and not directory.is_dir()):
            raise InputError(f"{directory}: not a directory; choose another DIR")
        if directory.exists() and any(directory.iterdir()):
            if not marker.exists():
                raise InputError(
                    f"{directory}: exists and is not a claimledger demo; choose another DIR"
                )
            shutil.rmtree(directory)
        directory.mkdir(parents=True, exist_ok=True)
        marker.write_text("made by `claimledger demo`; safe to delete\n", encoding="utf-8")
        ledger_path = directory / "claims.yaml"
        bundled = demo_data().joinpath("claims.yaml").read_text("utf-8")
        ledger_path.write_text(bundled, encoding="utf-8")
        schema = json.dumps(ledger_schema(), indent=2) + "\n"
        (directory / schema_comment_target(bundled)).write_text(schema, encoding="utf-8")
    except OSError as error:
        raise InputError(f"{directory}: cannot prepare the demo there: {error.strerror}") from None
    return ledger_path
