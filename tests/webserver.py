"""A scriptable HTTP server on 127.0.0.1 for tests: real sockets, real redirects, real resets.

`PageServer` serves pages that tests set and swap between runs (`set_page`), and
routes scripted by hand (`set_handler`) for what a WSGI server cannot do: a body
that trickles past a timeout, a connection reset mid-body, a declared length that
never arrives. Static pages answer conditional requests like a real server does,
so a second run against unchanged pages sees 304s.

    with PageServer() as server:
        server.set_page("/doc", "<p>hello</p>", headers={"ETag": '"v1"'})
        url = server.url("/doc")
"""

from __future__ import annotations

import contextlib
import gzip
import socket
import ssl
import struct
import sys
import threading
import time
import zlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any

Handler = Callable[["Exchange"], None]


@dataclass(frozen=True)
class RecordedRequest:
    """A request as the server saw it, for asserting what the client sent."""

    path: str
    headers: dict[str, str]
    at: float


@dataclass(frozen=True)
class Page:
    """A static response; conditional requests are answered from its ETag / Last-Modified."""

    body: bytes
    status: int = 200
    headers: Mapping[str, str] = field(default_factory=dict)

    def __call__(self, exchange: Exchange) -> None:
        if self.status == 200 and _not_modified(exchange.request_headers, self.headers):
            exchange.respond(304, b"", _validator_headers(self.headers))
            return
        exchange.respond(self.status, self.body, self.headers)


def _validator_headers(headers: Mapping[str, str]) -> dict[str, str]:
    keep = {"etag", "last-modified", "cache-control"}
    return {name: value for name, value in headers.items() if name.lower() in keep}


def _not_modified(request: Mapping[str, str], page: Mapping[str, str]) -> bool:
    page_lower = {name.lower(): value for name, value in page.items()}
    etag = page_lower.get("etag")
    if_none_match = request.get("if-none-match")
    if etag is not None and if_none_match is not None:
        return etag in [tag.strip() for tag in if_none_match.split(",")] or if_none_match == "*"
    modified = page_lower.get("last-modified")
    since = request.get("if-modified-since")
    if modified is None or since is None:
        return False
    try:
        return parsedate_to_datetime(modified) <= parsedate_to_datetime(since)
    except (TypeError, ValueError):
        return False


class Exchange:
    """One request being answered: what a route handler reads and writes."""

    def __init__(self, handler: _RequestHandler, server: _Server) -> None:
        self._handler = handler
        self._server = server
        self.path = handler.path
        self.request_headers = {name.lower(): value for name, value in handler.headers.items()}

    def respond(
        self, status: int, body: bytes = b"", headers: Mapping[str, str] | None = None
    ) -> None:
        """A complete response with a Content-Length."""
        self.start(status, {"Content-Length": str(len(body)), **(headers or {})})
        self.write(body)

    def start(self, status: int, headers: Mapping[str, str]) -> None:
        """Status line and headers only; the handler writes (or withholds) the body."""
        self._handler.send_response(status)
        for name, value in headers.items():
            self._handler.send_header(name, value)
        self._handler.end_headers()

    def write(self, data: bytes) -> None:
        self._handler.wfile.write(data)
        self._handler.wfile.flush()

    def pause(self, seconds: float) -> None:
        """Sleep, but wake at once when the server stops, so shutdown never waits on us."""
        self._server.stopping.wait(seconds)

    def reset(self) -> None:
        """Abort the connection with a TCP RST (SO_LINGER 0), as a crashing server would."""
        connection = self._handler.connection
        connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        connection.close()
        self._handler.close_connection = True


# --- Route builders -----------------------------------------------------------------------


def redirect(location: str, status: int = 302) -> Handler:
    """A redirect to `location` (absolute, relative, or another scheme entirely)."""
    return Page(b"", status, {"Location": location})


def sequence(*handlers: Handler) -> Handler:
    """The n-th request gets the n-th handler; the last one answers every request after."""
    lock = threading.Lock()
    served = 0

    def handle(exchange: Exchange) -> None:
        nonlocal served
        with lock:
            chosen = handlers[min(served, len(handlers) - 1)]
            served += 1
        chosen(exchange)

    return handle


def trickle(body: bytes, *, every: float, chunk: int = 1) -> Handler:
    """Send `body` a few bytes at a time, with a pause between, under a true Content-Length."""

    def handle(exchange: Exchange) -> None:
        exchange.start(200, {"Content-Type": "text/plain", "Content-Length": str(len(body))})
        for start in range(0, len(body), chunk):
            exchange.write(body[start : start + chunk])
            exchange.pause(every)

    return handle


def reset_mid_body(prefix: bytes, declared: int) -> Handler:
    """Promise `declared` bytes, send `prefix`, then reset the connection."""

    def handle(exchange: Exchange) -> None:
        exchange.start(200, {"Content-Type": "text/plain", "Content-Length": str(declared)})
        exchange.write(prefix)
        exchange.reset()

    return handle


def stall_after_headers(declared: int, *, for_seconds: float = 30.0) -> Handler:
    """Promise a body of `declared` bytes and send none: only a client that reads it waits."""

    def handle(exchange: Exchange) -> None:
        exchange.start(200, {"Content-Type": "text/plain", "Content-Length": str(declared)})
        exchange.write(b"x" * 1024)
        exchange.pause(for_seconds)

    return handle


def chunked(pieces: Iterable[bytes], headers: Mapping[str, str] | None = None) -> Handler:
    """Stream `pieces` with chunked transfer encoding: no Content-Length to refuse early."""

    def handle(exchange: Exchange) -> None:
        exchange.start(200, {"Transfer-Encoding": "chunked", **(headers or {})})
        for piece in pieces:
            if piece:
                exchange.write(b"%x\r\n%s\r\n" % (len(piece), piece))
        exchange.write(b"0\r\n\r\n")

    return handle


def gzip_bomb(decompressed: int, content_type: str = "text/plain") -> Handler:
    """A small gzip body that inflates to `decompressed` bytes (built without holding them)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, 16 + zlib.MAX_WBITS)
    block = b"a" * (1024 * 1024)
    parts = [packer.compress(block) for _ in range(decompressed // len(block))]
    body = b"".join(parts) + packer.flush()
    return Page(body, 200, {"Content-Type": content_type, "Content-Encoding": "gzip"})


def gzipped(text: str, content_type: str = "text/html; charset=utf-8") -> Handler:
    """A page served with Content-Encoding: gzip."""
    body = gzip.compress(text.encode("utf-8"))
    return Page(body, 200, {"Content-Type": content_type, "Content-Encoding": "gzip"})


# --- The server ---------------------------------------------------------------------------


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = True
    request_queue_size = 128  # the default 5 drops bursts of connects (a 1 s SYN retry)

    def __init__(self, owner: PageServer) -> None:
        self.owner = owner
        self.stopping = threading.Event()
        self.connections: set[socket.socket] = set()
        self.connections_lock = threading.Lock()
        super().__init__((owner.host, owner.bind_port), _RequestHandler)

    def handle_error(self, request: Any, client_address: Any) -> None:
        """A client hanging up is normal here; any other handler error is kept for the test."""
        error = sys.exc_info()[1]
        if not isinstance(error, ConnectionError | TimeoutError | ValueError):
            self.owner.errors.append(repr(error))


class _RequestHandler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server: _Server

    def setup(self) -> None:
        super().setup()
        with self.server.connections_lock:
            self.server.connections.add(self.connection)
            self.server.owner.connections_opened += 1

    def finish(self) -> None:
        with self.server.connections_lock:
            self.server.connections.discard(self.connection)
        with contextlib.suppress(OSError):
            super().finish()

    def do_GET(self) -> None:
        owner = self.server.owner
        exchange = Exchange(self, self.server)
        owner.record(RecordedRequest(self.path, exchange.request_headers, time.monotonic()))
        if owner.latency:
            exchange.pause(owner.latency)
        owner.route(self.path)(exchange)

    def log_message(self, format: str, *args: Any) -> None:
        """Tests read assertions, not access logs."""


def _not_found(exchange: Exchange) -> None:
    exchange.respond(404, b"no such page", {"Content-Type": "text/plain"})


class PageServer:
    """A threaded HTTP/1.1 server on 127.0.0.1 with an ephemeral port and swappable routes
    (or on another loopback address, and a port of the test's choosing)."""

    def __init__(
        self,
        *,
        latency: float = 0.0,
        tls: ssl.SSLContext | None = None,
        host: str = "127.0.0.1",
        port: int = 0,
    ) -> None:
        self.latency = latency
        self.tls = tls
        self.host = host
        self.bind_port = port
        self.errors: list[str] = []
        self.connections_opened = 0
        self._routes: dict[str, Handler] = {}
        self._requests: list[RecordedRequest] = []
        self._lock = threading.Lock()
        self._server: _Server | None = None
        self._thread: threading.Thread | None = None

    # lifecycle

    def start(self) -> PageServer:
        self._server = _Server(self)
        if self.tls is not None:
            self._server.socket = self.tls.wrap_socket(self._server.socket, server_side=True)
        self._thread = threading.Thread(
            target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True
        )
        self._thread.start()
        return self

    def stop(self) -> None:
        """Stop serving, wake paused handlers, cut open connections, join every thread."""
        server, self._server = self._server, None
        if server is None:
            return
        server.stopping.set()
        server.shutdown()
        with server.connections_lock:
            for connection in list(server.connections):
                with contextlib.suppress(OSError):
                    connection.shutdown(socket.SHUT_RDWR)
        server.server_close()
        if self._thread is not None:
            self._thread.join()

    def __enter__(self) -> PageServer:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()

    # routes

    @property
    def port(self) -> int:
        assert self._server is not None, "start the server first"
        return int(self._server.server_address[1])

    def url(self, path: str, host: str | None = None) -> str:
        """An absolute URL for `path`; pass host="localhost" to look like a second host."""
        scheme = "https" if self.tls is not None else "http"
        return f"{scheme}://{host or self.host}:{self.port}{path}"

    def set_page(
        self,
        path: str,
        body: str | bytes,
        *,
        status: int = 200,
        headers: Mapping[str, str] | None = None,
        content_type: str | None = "text/html; charset=utf-8",
    ) -> None:
        """Serve `body` at `path` (replacing what was there); str bodies are sent as UTF-8."""
        raw = body.encode("utf-8") if isinstance(body, str) else body
        all_headers = {"Content-Type": content_type} if content_type else {}
        all_headers.update(headers or {})
        self.set_handler(path, Page(raw, status, all_headers))

    def set_handler(self, path: str, handler: Handler) -> None:
        with self._lock:
            self._routes[path] = handler

    def remove(self, path: str) -> None:
        """Take a page down (it answers 404 from now on)."""
        with self._lock:
            self._routes.pop(path, None)

    def route(self, path: str) -> Handler:
        with self._lock:
            return self._routes.get(path) or self._routes.get(path.split("?")[0]) or _not_found

    # what was asked

    def record(self, request: RecordedRequest) -> None:
        with self._lock:
            self._requests.append(request)

    @property
    def requests(self) -> list[RecordedRequest]:
        with self._lock:
            return list(self._requests)

    @property
    def page_requests(self) -> list[RecordedRequest]:
        """The requests for pages: every request but the fetcher's robots.txt look-ups."""
        return [request for request in self.requests if request.path != "/robots.txt"]

    def hits(self, path: str) -> int:
        return sum(1 for request in self.requests if request.path == path)

    def clear_requests(self) -> None:
        with self._lock:
            self._requests.clear()


def unused_port() -> int:
    """A port nothing listens on (bound, then released), for connection-refused cases."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])
