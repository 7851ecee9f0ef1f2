"""How requests reach the app under a real `judge serve` (judge/web/transport.py): a body is received in full,
within its deadline, before the app's thread runs, so slow clients hold no thread; a body too slow is a 408 and
the connection closed; a request with both Content-Length and Transfer-Encoding is a 400; an address too long is
the app's own 414 page; every one of these answers carries the security headers."""
from __future__ import annotations

import json
import socket
from html import unescape
import threading
import time
import urllib.request
from urllib.parse import urlsplit

import pytest

from conftest import start_judge_serve
from judge.web.errors import MAX_TARGET

BODY_SECONDS = 2.0  # the deadline the server under test is given (--body-timeout)


@pytest.fixture(scope="module")
def server():
    # One worker, one thread: before issue 34 a single slow client stopped it entirely.
    proc, url, _ = start_judge_serve("--workers", "1", "--body-timeout", str(BODY_SECONDS))
    yield urlsplit(url)
    proc.terminate()
    proc.wait(timeout=30)


def raw_exchange(server, request: bytes, trickle: bytes = b"", every: float = 0.5, timeout: float = 30
                 ) -> tuple[bytes, float, bool]:
    """Send `request`, then `trickle` a byte every `every` seconds until the server answers; (its answer as read
    until it closes or 64 KB, seconds from the request to the answer's first bytes, whether it closed)."""
    sock = socket.create_connection((server.hostname, server.port), timeout=timeout)
    try:
        sock.sendall(request)
        started = time.monotonic()
        sock.settimeout(every)
        answer, first = b"", None
        pending = list(trickle)
        deadline = started + timeout
        while time.monotonic() < deadline:
            try:
                chunk = sock.recv(65536)
            except socket.timeout:
                if pending and first is None:
                    sock.sendall(bytes([pending.pop(0)]))
                continue
            if first is None:
                first = time.monotonic() - started
            if not chunk:
                return answer, first, True
            answer += chunk
            if len(answer) > 65536:
                break
        return answer, first if first is not None else float("inf"), False
    finally:
        sock.close()


def status_of(answer: bytes) -> int:
    return int(answer.split(b" ", 2)[1])


def headers_of(answer: bytes) -> dict[str, str]:
    head = answer.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")[1:]
    return {k.strip().lower(): v.strip() for k, v in (line.split(":", 1) for line in head)}


def body_of(answer: bytes) -> bytes:
    return answer.split(b"\r\n\r\n", 1)[1]


def slow_post(server, path: str, content_type: str) -> tuple[bytes, float, bool]:
    request = (f"POST {path} HTTP/1.1\r\nHost: {server.hostname}\r\nContent-Type: {content_type}\r\n"
               f"Content-Length: 5000\r\n\r\n").encode()
    return raw_exchange(server, request, trickle=b"players: [A, B]\n" * 20, every=0.5)


def test_slow_bodies_hold_no_thread_and_get_a_408_at_their_deadline(server):
    results: dict[str, tuple] = {}
    slow = [threading.Thread(target=lambda p=p, t=t: results.__setitem__(p, slow_post(server, p, t)))
            for p, t in (("/api/check", "text/yaml"), ("/check", "application/x-www-form-urlencoded"))]
    for thread in slow:
        thread.start()
    time.sleep(0.5)
    # Meanwhile the one worker answers everyone else at once.
    started = time.monotonic()
    for q in ("bleed", "torpor", "block"):
        with urllib.request.urlopen(f"{server.geturl()}search?q={q}", timeout=10) as answer:
            assert answer.status == 200
    assert time.monotonic() - started < BODY_SECONDS
    for thread in slow:
        thread.join()
    for path, (answer, seconds, closed) in results.items():
        assert status_of(answer) == 408, path
        assert BODY_SECONDS - 0.1 <= seconds <= BODY_SECONDS + 1.5, (path, seconds)
        assert closed and headers_of(answer)["connection"] == "close", path
        assert headers_of(answer)["content-security-policy"].startswith("default-src 'none'")
        words = f"the request's body did not arrive within {BODY_SECONDS:g} seconds"
        if path.startswith("/api/"):
            assert json.loads(body_of(answer)) == {"error": f"{words}; send it again", "status": 408}
        else:
            assert words in unescape(body_of(answer).decode())


def test_a_request_with_both_a_length_and_chunks_smuggles_nothing(server):
    """Granian's HTTP layer (hyper) reads such a request by its chunks alone and closes the connection after the
    answer (RFC 9112 §6.1's second way): the Content-Length never reaches the app, and a request hidden after the
    body is never answered."""
    hidden = b"GET /p/vekn:bleed/2 HTTP/1.1\r\nHost: x\r\n\r\n"
    request = (b"POST /api/check HTTP/1.1\r\nHost: x\r\nContent-Type: text/yaml\r\nContent-Length: 5\r\n"
               b"Transfer-Encoding: chunked\r\n\r\n5\r\nhello\r\n0\r\n\r\n" + hidden)
    answer, _, closed = raw_exchange(server, request)
    assert closed and answer.count(b"HTTP/1.1 ") == 1 and status_of(answer) == 400
    assert json.loads(body_of(answer))["error"] == "a scenario is a mapping with players, turn, phase and events"


def test_an_address_too_long_is_the_apps_own_414(server):
    for path in ("/search?q=", "/api/search?q="):
        # Connection: close, so the answer ends when the server has said it (not at its keep-alive timeout)
        request = f"GET {path}{'a' * MAX_TARGET} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n".encode()
        answer, _, _ = raw_exchange(server, request)
        assert status_of(answer) == 414, path
        assert headers_of(answer)["x-frame-options"] == "DENY"
        assert f"judge reads addresses of at most {MAX_TARGET:,}" in body_of(answer).decode()


def test_the_server_still_answers_after_all_that(server):
    with urllib.request.urlopen(f"{server.geturl()}p/vekn:bleed/2", timeout=10) as answer:
        assert answer.status == 200
