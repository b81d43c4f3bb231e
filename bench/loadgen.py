"""An open-loop HTTP/1.1 load generator on one thread, for the benches that drive gunicorn on the
machine they measure (bench/publish_spike.py; the others may use it too).

The server, PostgreSQL, Redis and the load generator share the machine's cores, so what the
generator burns is taken from the server it measures. A pool of 128 threads each doing
blocking ``http.client`` requests used several times the CPU of this (docs/operations.md,
"The load generator"); here one thread drives every connection through ``selectors`` (epoll
on Linux): requests are encoded once, before the run, connections are opened non-blocking,
the answer's head is parsed for the few headers a check needs, and bodies are read with
``recv_into`` into buffers that are kept from one request to the next. A connection the server keeps alive
(gunicorn's gthread worker) is reused; gunicorn's sync workers close after every answer.

The schedule is open: every request is due at its own moment, is sent then unless
``clients`` requests are already waiting for answers (the bound on requests in flight), and
is timed from when it was due, so a generator (or a server) that fell behind shows in the
figures. Each answer is handed to its request's ``check``, which says what is wrong with it
(or None), in this thread, as soon as it is whole; the answer's bytes live in a buffer that
is reused for a later request, so a check that keeps something copies it (``Answer.kept``,
``Answer.raw``, ``Answer.body`` and ``Answer.etag`` are copies). A check that costs CPU
(parsing a 1 MB round) returns a function instead, called with the others after the run
(``Run.check_later``): the phone that parses an answer does it on its own CPU, not on the
cores the server is measured on. Loopback only: the generator is plain HTTP.
tests/test_bench_loadgen.py tests it against a local server.
"""

from __future__ import annotations

import contextlib
import errno
import gzip
import os
import selectors
import socket
import time
from collections import Counter, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import cached_property

REQUEST_TIMEOUT_S = 30.0
FIRST_BUFFER = 64 * 1024  # grown (replaced, never resized in place) for larger answers
TIMEOUT_SCAN_S = 0.25  # how often requests are looked at for a server gone silent
HEAD_END = b"\r\n\r\n"
NO_BODY = frozenset({204, 304})


def encode_get(port: int, path: str, headers: dict[str, str]) -> bytes:
    """A GET on loopback as bytes, with the Host header http.client would send."""
    lines = [f"GET {path} HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


class Answer:
    """One answer. ``status`` is the HTTP status, or the name of what went wrong instead
    (``ConnectionRefusedError``, ``TimeoutError``, ``IncompleteRead``, ``bad gzip``...). The
    body is a view of the generator's buffer, valid while the check runs."""

    __slots__ = ("__dict__", "etag", "gzipped", "status", "view", "wire")

    def __init__(
        self,
        status: int | str,
        view: memoryview | bytes = b"",
        etag: str = "",
        gzipped: bool = False,
    ) -> None:
        self.status = status
        self.view = memoryview(view)
        self.wire = len(self.view)  # body bytes as received
        self.etag = etag
        self.gzipped = gzipped

    @cached_property
    def raw(self) -> bytes:
        """The body as received, copied out of the buffer."""
        return bytes(self.view)

    @cached_property
    def body(self) -> bytes:
        """Decoded when a check reads it: a phone decodes on its own CPU, and decoding a 1 MB
        round for every answer would take CPU from the server being measured."""
        if not self.gzipped:
            return self.raw
        try:
            return gzip.decompress(self.view)
        except (OSError, EOFError):
            return b"bad gzip"

    def kept(self) -> Answer:
        """A copy that outlives the buffer, for a check made after the run."""
        return Answer(self.status, self.raw, self.etag, self.gzipped)

    @property
    def size(self) -> int:
        """Decoded size; for gzip, the trailer's ISIZE (RFC 1952: the size mod 2**32)."""
        if self.gzipped:
            return int.from_bytes(self.view[-4:], "little") if self.wire >= 18 else 0
        return self.wire


# What a check says: the problem, None (nothing wrong), or a function saying it after the run.
Verdict = str | None | Callable[[], str | None]


@dataclass(slots=True)
class Request:
    """A GET due ``at`` seconds after the run starts. ``data``: the request's bytes, or a
    function giving them when it is sent (a poller's If-None-Match). ``check``: what is wrong
    with the answer, or None, or a function that says it after the run. ``one_at_a_time``: requests with the same key wait for each
    other (a phone waits for its answer before polling again); None: independent."""

    at: float
    kind: str
    data: bytes | Callable[[], bytes]
    check: Callable[[Answer], Verdict]
    one_at_a_time: object | None = None


@dataclass(slots=True)
class Hit:
    kind: str
    status: int | str
    seconds: float  # from when it was due to the last byte
    late: float  # from when it was due to when it was sent
    wire: int  # body bytes as received
    size: int  # body bytes decoded
    done_at: float  # perf_counter
    ok: bool


@dataclass
class Run:
    """What a run measured. ``deadline`` (perf_counter): nothing is sent after it, so a run
    stays bounded when the server stalls; requests still due then count in ``not_sent``."""

    deadline: float
    hits: list[Hit] = field(default_factory=list)
    unexpected: Counter[str] = field(default_factory=Counter)
    picked_late: list[float] = field(default_factory=list)  # due -> seen due by the loop, s
    most_in_flight: int = 0
    not_sent: int = 0
    later: list[tuple[int, Callable[[], str | None]]] = field(default_factory=list)  # hit, check

    def problem(self, hit: Hit, problem: str) -> None:
        hit.ok = False
        self.unexpected[f"{hit.kind} {hit.status}: {problem[:160]}"] += 1

    def check_later(self) -> int:
        """The checks the run left for after it (their answers were counted ok until now);
        how many there were."""
        for index, check in self.later:
            problem = check()
            if problem is not None:
                self.problem(self.hits[index], problem)
        done = len(self.later)
        self.later.clear()
        return done


def _error_name(code: int) -> str:
    """The exception class http.client would have raised for an errno."""
    return type(OSError(code, os.strerror(code))).__name__


class _Exchange:
    """One request on one connection, and the buffer its answer is read into (kept, with the
    exchange, for a later request)."""

    __slots__ = (
        "body_end",
        "body_start",
        "buf",
        "chunk_at",
        "chunks",
        "data",
        "due",
        "etag",
        "framing",
        "got",
        "gzipped",
        "keep_alive",
        "last_progress",
        "request",
        "retried",
        "reused",
        "sent",
        "sent_at",
        "sock",
        "status",
    )
    sock: socket.socket  # set when connected
    reused: bool  # the connection served an earlier request

    def __init__(self) -> None:
        self.buf = bytearray(FIRST_BUFFER)

    def start(self, request: Request, due: float, data: bytes, now: float) -> None:
        self.request, self.due, self.data, self.sent_at = request, due, data, now
        self.retried = False
        self.reset(now)

    def reset(self, now: float) -> None:
        """Ready to (re)send on a connection: nothing sent, nothing received."""
        self.sent = self.got = 0
        self.status: int | str = 0
        self.framing = ""  # "" head not whole yet; "length", "chunked" or "close"
        self.body_start = self.body_end = self.chunk_at = 0
        self.chunks: list[tuple[int, int]] = []
        self.etag, self.gzipped, self.keep_alive = "", False, False
        self.last_progress = now

    def room(self, needed: int) -> None:
        """At least `needed` bytes of buffer, keeping what was received. Replaced rather than
        resized: a check may still hold a view of the old one."""
        if needed > len(self.buf):
            bigger = bytearray(max(needed, 2 * len(self.buf)))
            bigger[: self.got] = self.buf[: self.got]
            self.buf = bigger

    def parse_head(self, end: int) -> None:
        """The status line and the headers a check or the framing needs."""
        lines = bytes(self.buf[:end]).split(b"\r\n")
        version, _, rest = lines[0].partition(b" ")
        self.status = int(rest[:3])
        length = -1
        chunked = False
        connection = b""
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            name = name.strip().lower()
            if name == b"content-length":
                length = int(value)
            elif name == b"transfer-encoding":
                chunked = b"chunked" in value.lower()
            elif name == b"connection":
                connection = value.strip().lower()
            elif name == b"content-encoding":
                self.gzipped = value.strip().lower() == b"gzip"
            elif name == b"etag":
                self.etag = value.strip().decode("latin-1")
        self.body_start = end + len(HEAD_END)
        if version == b"HTTP/1.1":
            self.keep_alive = connection != b"close"
        else:
            self.keep_alive = connection == b"keep-alive"
        if self.status in NO_BODY or 100 <= self.status < 200:
            self.framing, self.body_end = "length", self.body_start
        elif chunked:
            self.framing, self.chunk_at = "chunked", self.body_start
        elif length >= 0:
            self.framing, self.body_end = "length", self.body_start + length
            self.room(self.body_end)
        else:
            self.framing, self.keep_alive = "close", False

    def whole(self) -> bool:
        """Whether the answer is complete with what has been received."""
        if not self.framing:
            end = self.buf.find(HEAD_END, 0, self.got)
            if end < 0:
                return False
            self.parse_head(end)
        if self.framing == "length":
            return self.got >= self.body_end
        if self.framing == "chunked":
            return self.chunks_whole()
        return False  # "close": whole when the server closes

    def chunks_whole(self) -> bool:
        """Walks the chunks received so far (RFC 9112 7.1); True at the last one."""
        while True:
            line_end = self.buf.find(b"\r\n", self.chunk_at, self.got)
            if line_end < 0:
                return False
            size = int(bytes(self.buf[self.chunk_at : line_end]).split(b";")[0], 16)
            data_at = line_end + 2
            if size == 0:
                trailer_end = self.buf.find(b"\r\n", data_at, self.got)
                while trailer_end > data_at:  # trailer fields, ignored
                    data_at = trailer_end + 2
                    trailer_end = self.buf.find(b"\r\n", data_at, self.got)
                if trailer_end != data_at:
                    return False
                self.body_end = data_at + 2  # where the answer ends: keep-alive needs it
                return True
            if self.got < data_at + size + 2:
                return False
            self.chunks.append((data_at, data_at + size))
            self.chunk_at = data_at + size + 2

    def answer(self) -> Answer:
        view = memoryview(self.buf)
        if self.framing == "chunked":
            body: memoryview | bytes = b"".join(view[a:b] for a, b in self.chunks)
        elif self.framing == "close":
            body = view[self.body_start : self.got]
        else:
            body = view[self.body_start : self.body_end]
        if self.gzipped and bytes(body[:2]) != b"\x1f\x8b":
            return Answer("bad gzip", body)
        return Answer(self.status, body, self.etag, self.gzipped)


class OpenLoop:
    """Sends `requests` to 127.0.0.1:`port` on their schedule with at most `clients` in
    flight; see the module's docstring."""

    def __init__(self, port: int, clients: int, timeout: float = REQUEST_TIMEOUT_S) -> None:
        self.port = port
        self.clients = clients
        self.timeout = timeout
        self.spare: list[_Exchange] = []
        self.idle: list[socket.socket] = []  # kept-alive connections, ready for a request

    def run(self, requests: Iterable[Request], run: Run) -> float:
        """Every request sent when due (or as soon as a slot frees); the seconds from the start
        to the last answer."""
        schedule = deque(sorted(requests, key=lambda r: r.at))
        selector = selectors.DefaultSelector()
        ready: deque[tuple[Request, float]] = deque()
        waiting: dict[object, deque[tuple[Request, float]]] = {}  # one_at_a_time -> queued
        in_flight: dict[socket.socket, _Exchange] = {}
        t0 = time.perf_counter()
        next_scan = t0 + TIMEOUT_SCAN_S

        def finish(ex: _Exchange, answer: Answer, now: float) -> None:
            verdict = ex.request.check(answer)
            hit = Hit(
                ex.request.kind,
                answer.status,
                now - ex.due,
                ex.sent_at - ex.due,
                answer.wire,
                answer.size,
                now,
                True,
            )
            if callable(verdict):
                run.later.append((len(run.hits), verdict))
            elif verdict is not None:
                run.problem(hit, verdict)
            run.hits.append(hit)
            next_in_line(ex.request)
            self.spare.append(ex)

        def next_in_line(request: Request) -> None:
            """The next request of the same one_at_a_time key (already due) goes first."""
            key = request.one_at_a_time
            if key is not None:
                queued = waiting[key]
                if queued:
                    ready.appendleft(queued.popleft())
                else:
                    del waiting[key]

        def close(sock: socket.socket) -> None:
            with contextlib.suppress(KeyError):  # not registered when its first send failed
                selector.unregister(sock)
            del in_flight[sock]
            sock.close()

        def connect(ex: _Exchange, now: float) -> None:
            if self.idle:
                sock, ex.reused = self.idle.pop(), True
            else:
                sock, ex.reused = socket.socket(socket.AF_INET, socket.SOCK_STREAM), False
                sock.setblocking(False)
                code = sock.connect_ex(("127.0.0.1", self.port))
                if code not in (0, errno.EINPROGRESS):
                    sock.close()
                    finish(ex, Answer(_error_name(code)), now)
                    return
            ex.sock = sock
            ex.reset(now)
            in_flight[sock] = ex
            # On loopback the handshake is usually over when connect_ex returns: sent at once,
            # without waiting to hear the socket is writable.
            try:
                ex.sent = sock.send(ex.data)
            except BlockingIOError:
                pass  # still connecting: writable once connected (or refused: the send says)
            except OSError as exc:
                fail(ex, type(exc).__name__, now)
                return
            sent = ex.sent >= len(ex.data)
            selector.register(sock, selectors.EVENT_READ if sent else selectors.EVENT_WRITE, ex)

        def fail(ex: _Exchange, name: str, now: float) -> None:
            """A connection the server closed while it was idle in our pool: once more on a
            new one (as the threads' http.client retry did); anything else is the answer."""
            close(ex.sock)
            nothing_back = ex.got == 0
            if ex.reused and nothing_back and not ex.retried:
                ex.retried = True
                connect(ex, now)
                return
            finish(ex, Answer(name), now)

        def send(ex: _Exchange, now: float) -> None:
            try:
                ex.sent += ex.sock.send(ex.data[ex.sent :] if ex.sent else ex.data)
            except BlockingIOError:
                return
            except OSError as exc:
                fail(ex, type(exc).__name__, now)
                return
            ex.last_progress = now
            if ex.sent >= len(ex.data):
                selector.modify(ex.sock, selectors.EVENT_READ, ex)

        def receive(ex: _Exchange, now: float) -> None:
            # Room for the whole of an answer of known length: the buffer grows once, if at all.
            ex.room(ex.body_end if ex.framing == "length" else ex.got + 16 * 1024)
            try:
                n = ex.sock.recv_into(memoryview(ex.buf)[ex.got :])
            except BlockingIOError:
                return
            except OSError as exc:
                fail(ex, type(exc).__name__, now)
                return
            ex.last_progress = now
            if n == 0:
                if ex.framing == "close":
                    close(ex.sock)
                    finish(ex, ex.answer(), now)
                else:
                    fail(ex, "RemoteDisconnected" if ex.got == 0 else "IncompleteRead", now)
                return
            ex.got += n
            try:
                done = ex.whole()
            except ValueError:
                fail(ex, "BadStatusLine", now)
                return
            if not done:
                return
            sock = ex.sock
            if ex.keep_alive and ex.got == ex.body_end:
                selector.unregister(sock)
                del in_flight[sock]
                self.idle.append(sock)
            else:
                close(sock)
            finish(ex, ex.answer(), now)

        def take(now: float) -> None:
            """Requests now due into the line; from the line, as many as there are slots."""
            while schedule and t0 + schedule[0].at <= now:
                request = schedule.popleft()
                due = t0 + request.at
                run.picked_late.append(now - due)
                key = request.one_at_a_time
                if key is not None and key in waiting:
                    waiting[key].append((request, due))
                    continue
                if key is not None:
                    waiting[key] = deque()
                ready.append((request, due))
            while ready and len(in_flight) < self.clients:
                request, due = ready.popleft()
                if now >= run.deadline:
                    run.not_sent += 1
                    next_in_line(request)
                    continue
                ex = self.spare.pop() if self.spare else _Exchange()
                data = request.data if isinstance(request.data, bytes) else request.data()
                ex.start(request, due, data, now)
                connect(ex, now)
                run.most_in_flight = max(run.most_in_flight, len(in_flight))

        try:
            while schedule or ready or in_flight:
                now = time.perf_counter()
                take(now)
                if ready and len(in_flight) < self.clients:
                    wait = 0.0
                elif schedule:
                    wait = max(0.0, t0 + schedule[0].at - now)
                else:
                    wait = TIMEOUT_SCAN_S
                if in_flight:
                    wait = min(wait, TIMEOUT_SCAN_S)
                    events = selector.select(wait)
                else:
                    time.sleep(wait)  # nothing to watch: epoll would only sleep too
                    events = []
                now = time.perf_counter()
                for key, mask in events:
                    ex = key.data
                    if ex.sock is not key.fileobj or key.fileobj not in in_flight:
                        continue  # closed and reused by an earlier event of this batch
                    if mask & selectors.EVENT_WRITE:
                        send(ex, now)
                    else:
                        receive(ex, now)
                if now >= next_scan:
                    next_scan = now + TIMEOUT_SCAN_S
                    for ex in [
                        e for e in in_flight.values() if now - e.last_progress > self.timeout
                    ]:
                        close(ex.sock)
                        finish(ex, Answer("TimeoutError"), now)
        finally:
            for sock in list(in_flight):
                close(sock)
            for sock in self.idle:
                sock.close()
            self.idle.clear()
            selector.close()
        last = max((h.done_at for h in run.hits), default=time.perf_counter())
        return last - t0


def fetch_one(
    port: int, kind: str, data: bytes, check: Callable[[Answer], Verdict], run: Run | None = None
) -> Hit:
    """One request, sent now and timed from now (a request alone, without a queue), its
    check made; counted in `run` when given."""
    if run is None:
        run = Run(0.0)
    run.deadline = time.perf_counter() + 2 * REQUEST_TIMEOUT_S
    OpenLoop(port, 1).run([Request(0.0, kind, data, check)], run)
    run.check_later()
    return run.hits[-1]
