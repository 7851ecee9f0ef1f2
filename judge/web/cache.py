"""A response cache in front of the app, as a caching reverse proxy would be.

Every page and API answer is a function of the URL, the host, the corpus and
the synonyms file (`version`), and the corpus does not change while the app
runs, so a 200 answer to a GET can be replayed byte for byte (headers
included) to the next visitor asking the same URL on the same host, until the
synonyms file changes. A judge's phone re-reading a rule, or fifty phones
asking for the same ruling, cost a dictionary look-up instead of a page render.

Only answers the app marks cacheable are kept (`mark_cacheable`, set for GET
pages and API answers; never for POSTs, errors or static files), the cache is
bounded in bytes (least recently used dropped first). The cache also gives each
such answer its ETag (a hash of the body, which it holds anyway) and
`Cache-Control: no-cache`, and answers a visitor sending that ETag in
If-None-Match with a 304, whether the answer was kept or just made. A HEAD is
answered as its GET would be, without the body (as nginx's cache does).
"""
from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterable

ENVIRON_FLAG = "judge.cacheable"
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
MAX_ENTRY_BYTES = 2 * 1024 * 1024  # bigger answers (a whole diff as JSON) are not kept
# Headers a 304 repeats (RFC 9110 §15.4.5), plus the security headers.
_NOT_MODIFIED_KEEP = {"etag", "cache-control", "content-security-policy", "x-content-type-options",
                      "x-frame-options", "referrer-policy", "cross-origin-opener-policy",
                      "cross-origin-resource-policy", "permissions-policy", "vary", "date"}


def mark_cacheable(environ: dict) -> None:
    environ[ENVIRON_FLAG] = True


def _no_write(data: bytes) -> None:
    raise RuntimeError("the response cache holds this answer's headers: the app must return its body, not write it")


# What a version function returns when what the answers depend on cannot be known now (a data file
# broken with no good copy to fall back on): the request goes to the app, uncached, and meets the
# fault there, where the app's error handlers answer it (a logged 500), rather than inside this layer.
UNKNOWN_VERSION = object()


class ResponseCache:
    """WSGI middleware: `app.wsgi_app = ResponseCache(app.wsgi_app)`."""

    def __init__(self, app: Callable, max_bytes: int = DEFAULT_MAX_BYTES,
                 version: Callable[[], Hashable] = lambda: None):
        self.app = app
        self.max_bytes = max_bytes
        # What the answers depend on besides the URL and the corpus (a data file read again
        # when it changes): part of every key, so an answer made before it changed is not replayed.
        self.version = version
        self.size = 0
        self.hits = self.misses = 0
        # key -> (status, headers, body, etag): a plain tuple of strings and bytes, which
        # Python's collector stops tracking, rather than an object, which it walks (with
        # its list of headers) in every full pass, a pause every request waiting in the
        # process shares (docs/performance.md).
        self._entries: OrderedDict[tuple, tuple] = OrderedDict()
        self._lock = threading.Lock()

    def __call__(self, environ: dict, start_response: Callable) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD", "GET")
        if method not in ("GET", "HEAD"):
            return self.app(environ, start_response)
        key = (environ.get("wsgi.url_scheme", "http"), environ.get("HTTP_HOST", ""),
               environ.get("SCRIPT_NAME", ""), environ.get("PATH_INFO", ""), environ.get("QUERY_STRING", ""),
               self.version())
        if key[-1] is UNKNOWN_VERSION:
            return self.app(environ, start_response)
        entry = None
        if self.max_bytes > 0:
            with self._lock:
                entry = self._entries.get(key)
                if entry is not None:
                    self._entries.move_to_end(key)
                    self.hits += 1
        if entry is not None:
            return self._replay(entry, environ, start_response, method)
        self.misses += 1
        return self._fill(key, environ, start_response, method)

    def _replay(self, entry: tuple, environ: dict, start_response: Callable, method: str) -> list[bytes]:
        status, headers, body, etag = entry
        wanted = environ.get("HTTP_IF_NONE_MATCH")
        if etag and wanted and etag in [t.strip() for t in wanted.split(",")]:
            start_response("304 NOT MODIFIED", [(k, v) for k, v in headers if k.lower() in _NOT_MODIFIED_KEEP])
            return []
        start_response(status, list(headers))
        return [] if method == "HEAD" else [body]

    def _fill(self, key: tuple, environ: dict, start_response: Callable, method: str) -> Iterable[bytes]:
        held: dict = {}

        def capture(status, headers, exc_info=None):
            # A cacheable answer is held until its body (and so its ETag) is known.
            if environ.get(ENVIRON_FLAG) and status.startswith("200") and exc_info is None:
                held["status"], held["headers"] = status, headers
                return _no_write
            return start_response(status, headers, exc_info)

        environ["REQUEST_METHOD"] = "GET"  # a HEAD too: its headers are the GET's
        result = self.app(environ, capture)
        if not held:
            if method == "HEAD":
                if hasattr(result, "close"):
                    result.close()
                return []
            return result
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        etag = f'"{hashlib.sha1(body).hexdigest()}"'
        headers = [*held["headers"], ("ETag", etag)]  # (name, value) tuples, as PEP 3333 has them
        if not any(name.lower() == "cache-control" for name, _ in held["headers"]):
            headers.append(("Cache-Control", "no-cache"))  # kept by browsers, but asked again each time
        entry = (held["status"], tuple(headers), body, etag)
        if 0 < len(body) <= MAX_ENTRY_BYTES and self.max_bytes > 0:
            self._store(key, entry)
        return self._replay(entry, environ, start_response, method)

    def _store(self, key: tuple, entry: tuple) -> None:
        with self._lock:
            old = self._entries.pop(key, None)
            if old is not None:
                self.size -= len(_body(old))
            self._entries[key] = entry
            self.size += len(_body(entry))
            while self.size > self.max_bytes and self._entries:
                _, dropped = self._entries.popitem(last=False)
                self.size -= len(_body(dropped))


def _body(entry: tuple) -> bytes:
    """The body of a kept answer, (status, headers, body, etag)."""
    return entry[2]
