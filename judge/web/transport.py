"""How a request reaches the app under `judge serve`: Granian's RSGI interface,
with the request's body received in full, within a deadline and a size limit,
before the app's Python thread runs.

Under Granian's WSGI interface the app's thread reads the body itself
(`wsgi.input`), blocking until the client sends it: a client that sends the
headers of a POST and then a byte a minute held a worker's only thread for as
long as it liked, and two of them stopped a two-worker server (issue 34). Here
the body is awaited on the worker's event loop, which meanwhile answers other
requests; only once it is all there (or refused) does the WSGI app run, on a
body already in memory, so a slow client costs a coroutine, never a thread.

What a request meets here, before the app:

* a body not in within `body_seconds` of its headers: a 408 (the app's own error
  page or JSON), and the connection closed;
* a body declared (Content-Length) or sent (chunked) longer than `max_body` (the
  app's MAX_CONTENT_LENGTH, one byte over the longest body it accepts): the app is
  given what it needs to say 413 (the declared length, or the first `max_body`
  bytes) and the rest is never read; the connection is closed;
* (a request with both Content-Length and Transfer-Encoding never reaches here with
  both: Granian's HTTP layer, hyper, drops the length, reads the chunks and closes the
  connection after the answer, RFC 9112 §6.1's second way, so nothing is smuggled.)

A fault is answered by the app itself (`FAULT_KEY` in the environ, raised by
`judge.web.errors.refuse_transport_faults` before any view runs), so that it carries its error page,
its JSON under /api/ and its security headers. Headers keep Granian's own limit
(`HEADER_SECONDS`, HTTP/1's header read timeout). The settings are `judge serve`'s
`--body-timeout` (docs/web.md, "Serving it").
"""
from __future__ import annotations

import asyncio
import io
import logging
import sys
from concurrent.futures import ThreadPoolExecutor
from typing import Callable, Optional

from judge.web.security import HEADERS as SECURITY_HEADERS

_log = logging.getLogger(__name__)
_FAULT_BODY = b"judge: the server could not answer this request; the fault has been logged.\n"
BODY_SECONDS = 10.0  # a request's whole body, from its headers on: a 465 KB scenario at 50 KB/s
HEADER_SECONDS = 10  # a request's headers (Granian's HTTP/1 header read timeout)
FAULT_KEY = "judge.transport_fault"  # environ key: (status, message) the app answers instead of the view

_BASE_ENVIRON = {
    "SCRIPT_NAME": "",
    "SERVER_SOFTWARE": "judge (Granian RSGI)",
    "wsgi.version": (1, 0),
    "wsgi.errors": sys.stderr,
    "wsgi.multithread": False,
    "wsgi.multiprocess": True,
    "wsgi.run_once": False,
    "wsgi.input_terminated": True,  # the body given is whole (werkzeug reads it without a length)
}
_SPECIAL_HEADERS = {"content-type": "CONTENT_TYPE", "content-length": "CONTENT_LENGTH"}


class _StartResponse:
    __slots__ = ("status", "headers")

    def __init__(self):
        self.status, self.headers = 500, []

    def __call__(self, status: str, headers: list, exc_info=None):
        self.status = int(status.split(" ", 1)[0])
        self.headers = headers
        return _no_write


def _no_write(data: bytes) -> None:
    raise RuntimeError("judge's transport takes the answer's body as returned, not written")


def environ_of(scope) -> dict:
    """The WSGI environ of an RSGI request scope (PEP 3333: the path percent-decoded, as Latin-1 text
    of its bytes; repeated headers joined with commas)."""
    environ = dict(_BASE_ENVIRON)
    server_host, _, server_port = scope.server.rpartition(":")
    client_host, _, client_port = scope.client.rpartition(":")
    environ.update({
        "REQUEST_METHOD": scope.method,
        "PATH_INFO": scope.path.encode("utf-8", "surrogateescape").decode("latin-1"),
        "QUERY_STRING": scope.query_string,
        "SERVER_NAME": server_host.strip("[]"),
        "SERVER_PORT": server_port,
        "SERVER_PROTOCOL": f"HTTP/{scope.http_version}",
        "REMOTE_ADDR": client_host.strip("[]"),
        "REMOTE_PORT": client_port,
        "wsgi.url_scheme": scope.scheme,
    })
    for name, value in scope.headers.items():
        key = _SPECIAL_HEADERS.get(name) or "HTTP_" + name.upper().replace("-", "_")
        if key in environ and key.startswith("HTTP_"):
            environ[key] += ("; " if key == "HTTP_COOKIE" else ", ") + value
        else:
            environ[key] = value
    return environ


class Transport:
    """An RSGI app (`__rsgi__`) running the WSGI app `wsgi_app` on bodies received in full (see the module's
    docstring). `threads` > 1 runs the app in a pool of that many threads; 1 runs it on the event loop's own
    thread, as one WSGI thread would."""

    def __init__(self, wsgi_app: Callable, max_body: int, body_seconds: float = BODY_SECONDS, threads: int = 1):
        self.wsgi_app = wsgi_app
        self.max_body = max_body
        self.body_seconds = body_seconds
        self._pool = ThreadPoolExecutor(threads, thread_name_prefix="judge-app") if threads > 1 else None

    async def __rsgi__(self, scope, protocol) -> None:
        if scope.proto != "http":  # websockets are turned off; nothing else reaches here
            return
        environ = environ_of(scope)
        body, fault, close = b"", None, False
        declared = environ.get("CONTENT_LENGTH")
        chunked = "HTTP_TRANSFER_ENCODING" in environ
        if chunked or (declared not in (None, "", "0")):
            length = _length(declared)
            if length is not None and length > self.max_body:
                close = True  # the app says 413 from the declared length; the body is never read
            else:
                try:
                    body, whole = await asyncio.wait_for(self._read(protocol), self.body_seconds)
                except asyncio.TimeoutError:
                    fault, close = (408, f"the request's body did not arrive within {self.body_seconds:g} "
                                         f"seconds; send it again"), True
                except Exception:  # noqa: BLE001 - the client went away or broke the protocol: nobody to answer
                    return
                else:
                    close = not whole
        environ["wsgi.input"] = io.BytesIO(body)
        if chunked and fault is None:
            del environ["HTTP_TRANSFER_ENCODING"]  # what the app reads is whole (or cut, and then refused)
            if not close:  # whole: its length as received (cut, the app is told no length: "more than ...")
                environ["CONTENT_LENGTH"] = str(len(body))
        if fault is not None:
            environ[FAULT_KEY] = fault
        if self._pool is None:
            status, headers, answer = self._call(environ)
        else:
            status, headers, answer = await asyncio.get_running_loop().run_in_executor(self._pool, self._call,
                                                                                      environ)
        if close:
            headers = [h for h in headers if h[0].lower() != "connection"] + [("connection", "close")]
        protocol.response_bytes(status, headers, answer)

    async def _read(self, protocol) -> tuple[bytes, bool]:
        """The body and True; or, when it is longer than `max_body`, its first `max_body` bytes (which the app,
        whose own maximum is one byte under, refuses as too long) and False: the rest is never read."""
        parts, size = [], 0
        async for chunk in protocol:
            parts.append(chunk)
            size += len(chunk)
            if size > self.max_body:
                return b"".join(parts)[:self.max_body], False
        return b"".join(parts), True

    def _call(self, environ: dict) -> tuple[int, list, bytes]:
        start = _StartResponse()
        try:
            result = self.wsgi_app(environ, start)
            try:
                answer = b"".join(result)
            finally:
                close = getattr(result, "close", None)
                if close is not None:
                    close()
        except Exception:  # noqa: BLE001 - the app's own handlers answer its faults; this is a fault around them
            _log.exception("%s %s failed outside the app's error handling", environ.get("REQUEST_METHOD"),
                           environ.get("PATH_INFO"))
            return 500, [("Content-Type", "text/plain; charset=utf-8"), *SECURITY_HEADERS.items()], _FAULT_BODY
        return start.status, [(str(k), str(v)) for k, v in start.headers], answer


def _length(value: Optional[str]) -> Optional[int]:
    try:
        return int(value) if value is not None else None
    except ValueError:
        return None
