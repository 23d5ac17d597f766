"""A name server on 127.0.0.1 for tests: real DNS messages over real UDP, answers scripted
name by name, and a resolver that asks it (what `make_client(resolver=...)` takes, and what
a test puts in place of the system's resolver for a whole command).

    with NameServer() as dns:
        dns.script("docs.rebind.dev", "SERVFAIL", ["127.0.0.1"])
        client = make_client(policy, resolver=dns.resolve)

The n-th query of a name gets its n-th answer, the last one every query after (or, with
`cycle=True`, the answers over again): an answer is the addresses to give, or a failure
("SERVFAIL", "NXDOMAIN"). A name with no script is NXDOMAIN.
"""

from __future__ import annotations

import asyncio
import ipaddress
import itertools
import socketserver
import threading
from collections import Counter
from collections.abc import Iterator, Sequence
from types import TracebackType

from dnslib import AAAA, QTYPE, RCODE, RR, A, DNSRecord

from claimledger.addresses import Address
from claimledger.errors import Unresolvable

Answer = str | Sequence[str]
"""A failure's name ("SERVFAIL", "NXDOMAIN"), or the addresses of a name."""


class _Handler(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        data, sock = self.request
        question = DNSRecord.parse(data)
        reply = self.server.owner.reply_to(question)
        sock.sendto(reply.pack(), self.client_address)


class _Server(socketserver.ThreadingUDPServer):
    daemon_threads = True

    def __init__(self, owner: NameServer) -> None:
        self.owner = owner
        super().__init__(("127.0.0.1", 0), _Handler)


class NameServer:
    """A scripted authoritative name server on 127.0.0.1, and its own client."""

    def __init__(self) -> None:
        self._scripts: dict[str, Iterator[Answer]] = {}
        self._asked: Counter[str] = Counter()
        self._lock = threading.Lock()
        self._server: _Server | None = None

    def script(self, name: str, *answers: Answer, cycle: bool = False) -> None:
        """What the queries of `name` are answered, in turn."""
        steps: Iterator[Answer] = (
            itertools.cycle(answers)
            if cycle
            else itertools.chain(answers, itertools.repeat(answers[-1]))
        )
        with self._lock:
            self._scripts[name.lower().rstrip(".")] = steps

    def asked(self, name: str) -> int:
        """How many queries of `name` were answered."""
        with self._lock:
            return self._asked[name.lower().rstrip(".")]

    # the server

    def reply_to(self, question: DNSRecord) -> DNSRecord:
        name = str(question.q.qname).lower().rstrip(".")
        with self._lock:
            self._asked[name] += 1
            steps = self._scripts.get(name)
            answer: Answer = next(steps) if steps is not None else "NXDOMAIN"
        reply = question.reply()
        if isinstance(answer, str):
            reply.header.rcode = getattr(RCODE, answer)
            return reply
        for text in answer:
            address = ipaddress.ip_address(text)
            record = A(text) if address.version == 4 else AAAA(text)
            kind = QTYPE.A if address.version == 4 else QTYPE.AAAA
            reply.add_answer(RR(question.q.qname, kind, rdata=record, ttl=0))
        return reply

    @property
    def port(self) -> int:
        assert self._server is not None, "start the name server first"
        return int(self._server.server_address[1])

    def __enter__(self) -> NameServer:
        self._server = _Server(self)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # the client

    async def resolve(self, host: str, port: int) -> list[Address]:
        """`host`'s addresses as this server answers one query for them (type ANY), or
        Unresolvable with its failure's name, as the system's resolver would fail (SERVFAIL
        as a temporary failure, EAI_AGAIN; any other as a lasting one, EAI_NONAME)."""
        query = DNSRecord.question(host, "ANY")
        packet = await asyncio.to_thread(query.send, "127.0.0.1", self.port, timeout=5)
        reply = DNSRecord.parse(packet)
        if reply.header.rcode != RCODE.NOERROR:  # a failing server may answer next time
            failed = reply.header.rcode == RCODE.SERVFAIL
            raise Unresolvable(
                f"cannot resolve {host}: {RCODE[reply.header.rcode]}", temporary=failed
            )
        return [
            ipaddress.ip_address(str(record.rdata))
            for record in reply.rr
            if record.rtype in (QTYPE.A, QTYPE.AAAA)
        ]
