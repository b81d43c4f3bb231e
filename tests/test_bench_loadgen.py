"""bench/loadgen.py, the benches' single-threaded HTTP client, against a tiny local server: the
framings an answer can have (Content-Length, chunked, read to the close), gzip, connections
kept alive or closed, a refused connection counted as an error, the bound on requests in
flight. No timing is asserted: the benches measure time, this checks what they count."""

from __future__ import annotations

import gzip
import socket
import socketserver
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.support import bench_module

loadgen = bench_module("loadgen")

PAGE = b"<!doctype html><title>t</title><p>" + b"x" * 70_000 + b"</p></html>"


def _answer_for(path: str) -> tuple[list[bytes], bool]:
    """(the pieces the server writes, whether it closes afterwards) for a request's path."""
    if path == "/length":
        return [b'HTTP/1.1 200 OK\r\nContent-Length: 5\r\nETag: "v1"\r\n\r\nhello'], False
    if path == "/big":
        big = f"HTTP/1.1 200 OK\r\nContent-Length: {len(PAGE)}\r\n\r\n".encode()
        return [big, PAGE[:1000], PAGE[1000:]], False
    if path == "/chunked":
        return [
            b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n",
            b"4;note=first\r\nWiki\r\n",
            b"5\r\npedia\r\n",
            b"E\r\n in\r\n\r\nchunks.\r\n",
            b"0\r\nExpires: never\r\n\r\n",
        ], False
    if path == "/gzip":
        body = gzip.compress(PAGE)
        head = f"HTTP/1.1 200 OK\r\nContent-Encoding: gzip\r\nContent-Length: {len(body)}\r\n\r\n"
        return [head.encode(), body], False
    if path == "/close":
        return [b"HTTP/1.0 200 OK\r\nContent-Type: text/plain\r\n\r\n", b"until the ", b"end"], True
    if path == "/sync-worker":  # gunicorn's sync worker: says so, then closes
        return [b"HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok"], True
    if path == "/drops-idle":  # keeps nothing, says nothing: an idle connection closed
        return [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"], True
    if path == "/not-modified":
        return [b'HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\n\r\n'], False
    if path == "/cut-short":
        return [b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\nonly this"], True
    return [b"HTTP/1.1 404 Not Found\r\nContent-Length: 9\r\n\r\nnot found"], False


class _Handler(socketserver.BaseRequestHandler):
    server: _Server

    def handle(self) -> None:
        self.server.connections.append(self.client_address)
        pending = b""
        while True:
            while b"\r\n\r\n" not in pending:
                data = self.request.recv(4096)
                if not data:
                    return
                pending += data
            head, _, pending = pending.partition(b"\r\n\r\n")
            lines = head.decode("latin-1").split("\r\n")
            path = lines[0].split(" ")[1]
            self.server.seen.append((path, lines[1:]))
            pieces, closes = _answer_for(path)
            for piece in pieces:
                self.request.sendall(piece)
            if closes:
                return


class _Server(socketserver.ThreadingTCPServer):
    daemon_threads = True
    allow_reuse_address = True

    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.connections: list[Any] = []
        self.seen: list[tuple[str, list[str]]] = []


@pytest.fixture
def server() -> Iterator[_Server]:
    srv = _Server()
    # A short poll: shutdown() waits for serve_forever's next look (0.5 s by default).
    thread = threading.Thread(target=srv.serve_forever, args=(0.02,), daemon=True)
    thread.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()


def _ok(answer: Any) -> str | None:
    return None if answer.status in (200, 304) else f"status {answer.status}"


def _run(
    port: int,
    paths: list[str],
    clients: int = 4,
    check: Callable[[Any], str | None] = _ok,
    one_at_a_time: object | None = None,
) -> tuple[Any, list[Any]]:
    """Every path due at once; (the run, the answers' copies in the order they came)."""
    answers: list[Any] = []

    def keep(answer: Any) -> str | None:
        answers.append((answer.status, answer.body, answer.size, answer.wire, answer.etag))
        return check(answer)

    requests = [
        loadgen.Request(0.0, path, loadgen.encode_get(port, path, {"Accept": "*/*"}), keep)
        for path in paths
    ]
    if one_at_a_time is not None:
        for request in requests:
            request.one_at_a_time = one_at_a_time
    run = loadgen.Run(deadline=float("inf"))
    loadgen.OpenLoop(port, clients, timeout=10).run(requests, run)
    return run, answers


def test_a_content_length_answer_is_read_whole_with_its_etag(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/length", "/big"], clients=1)
    assert [a[:2] for a in answers] == [(200, b"hello"), (200, PAGE)]
    assert answers[0][4] == '"v1"'
    assert [h.ok for h in run.hits] == [True, True]
    assert run.unexpected == {}


def test_a_chunked_answer_is_joined_and_its_extensions_and_trailer_skipped(
    server: _Server,
) -> None:
    run, answers = _run(server.server_address[1], ["/chunked", "/length"], clients=1)
    assert [a[:2] for a in answers] == [(200, b"Wikipedia in\r\n\r\nchunks."), (200, b"hello")]
    # The trailer was read to its end: the connection, kept alive, served the next request.
    assert len(server.connections) == 1


def test_a_gzip_answer_is_decoded_when_read_and_sized_from_its_trailer(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/gzip"])
    status, body, size, wire, _ = answers[0]
    assert status == 200 and body == PAGE
    assert size == len(PAGE) and wire == len(gzip.compress(PAGE)) < size
    assert run.hits[0].size == len(PAGE)


def test_an_answer_read_to_the_close_and_a_closing_server_are_served(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/close", "/sync-worker", "/close"], clients=1)
    assert [a[:2] for a in answers] == [
        (200, b"until the end"),
        (200, b"ok"),
        (200, b"until the end"),
    ]
    assert len(server.connections) == 3  # none of them could be reused


def test_kept_alive_connections_are_reused(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/length"] * 5 + ["/not-modified"], clients=1)
    assert [a[0] for a in answers] == [200] * 5 + [304]
    assert len(server.connections) == 1
    assert all(h.ok for h in run.hits)


def test_a_kept_connection_the_server_dropped_is_reopened_once(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/drops-idle"] * 3, clients=1)
    assert [a[:2] for a in answers] == [(200, b"ok")] * 3
    assert all(h.ok for h in run.hits)
    assert len(server.connections) == 3


def test_a_refused_connection_is_an_error_with_its_name() -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    # Nobody listens on the port now: the connection is refused.
    run, answers = _run(port, ["/length", "/length"])
    assert [h.status for h in run.hits] == ["ConnectionRefusedError"] * 2
    assert [h.ok for h in run.hits] == [False, False]
    assert run.unexpected == {"/length ConnectionRefusedError: status ConnectionRefusedError": 2}


def test_an_answer_cut_short_is_an_error(server: _Server) -> None:
    run, _ = _run(server.server_address[1], ["/cut-short"])
    assert [h.status for h in run.hits] == ["IncompleteRead"]
    assert not run.hits[0].ok


def test_a_failed_check_is_counted_with_what_it_said(server: _Server) -> None:
    run, _ = _run(server.server_address[1], ["/length", "/nowhere"], clients=1)
    assert [h.ok for h in run.hits] == [True, False]
    assert run.unexpected == {"/nowhere 404: status 404": 1}


def test_requests_in_flight_stay_within_the_bound(server: _Server) -> None:
    run, answers = _run(server.server_address[1], ["/big"] * 12, clients=3)
    assert len(answers) == 12 and all(a[1] == PAGE for a in answers)
    assert 1 <= run.most_in_flight <= 3
    assert len(run.picked_late) == 12


def test_requests_of_one_phone_wait_for_each_other(server: _Server) -> None:
    run, _ = _run(server.server_address[1], ["/length"] * 4, clients=4, one_at_a_time="phone")
    assert run.most_in_flight == 1
    assert len(run.hits) == 4 and all(h.ok for h in run.hits)


def test_nothing_is_sent_after_the_deadline(server: _Server) -> None:
    port = server.server_address[1]
    request = loadgen.Request(0.0, "late", loadgen.encode_get(port, "/length", {}), _ok)
    run = loadgen.Run(deadline=0.0)  # perf_counter is past it
    loadgen.OpenLoop(port, 2).run([request, request], run)
    assert run.not_sent == 2 and run.hits == []
    assert server.seen == []


def test_the_encoded_request_carries_the_host_and_headers() -> None:
    data = loadgen.encode_get(8000, "/api/x/?a=1", {"Accept": "application/json"})
    assert data == (
        b"GET /api/x/?a=1 HTTP/1.1\r\nHost: 127.0.0.1:8000\r\nAccept: application/json\r\n\r\n"
    )


def test_fetch_one_answers_a_single_request(server: _Server) -> None:
    port = server.server_address[1]
    hit = loadgen.fetch_one(port, "one", loadgen.encode_get(port, "/gzip", {}), _ok)
    assert hit.ok and hit.status == 200 and hit.size == len(PAGE)


def test_a_check_left_for_after_the_run_counts_when_it_is_made(server: _Server) -> None:
    port = server.server_address[1]

    def later(answer: Any) -> Any:
        kept = answer.kept()  # the buffer is reused once the check returns
        return lambda: None if kept.body == PAGE else "not the page"

    requests = [
        loadgen.Request(0.0, path, loadgen.encode_get(port, path, {}), later)
        for path in ("/gzip", "/length", "/big")
    ]
    run = loadgen.Run(deadline=float("inf"))
    loadgen.OpenLoop(port, 1).run(requests, run)
    assert [h.ok for h in run.hits] == [True, True, True]  # not yet checked
    assert run.check_later() == 3
    assert [h.ok for h in run.hits] == [True, False, True]
    assert run.unexpected == {"/length 200: not the page": 1}


def test_fetch_one_counts_into_a_run_it_is_given(server: _Server) -> None:
    port = server.server_address[1]
    run = loadgen.Run(0.0)
    for path in ("/length", "/nowhere", "/length"):
        loadgen.fetch_one(port, path, loadgen.encode_get(port, path, {}), _ok, run)
    assert [h.ok for h in run.hits] == [True, False, True]
    assert run.unexpected == {"/nowhere 404: status 404": 1}
