"""Error responses: a page for people, JSON under /api/, never a traceback.

An unknown ID is a 404 that offers close matches (`judge.lookup.suggest`); a bad
parameter is a 400 that says which parameter and why. A fault of the server's
own files (`judge.errors.OwnFileError`: a rulebook, a data file, the index) is a
500 logged with its file, line and reason, and anything unexpected a 500 logged
with its traceback; the visitor is told neither, nor any path of the server.
"""
from __future__ import annotations

from flask import Flask, current_app, jsonify, render_template, request, url_for
from werkzeug.exceptions import (BadRequest, HTTPException, InternalServerError, NotFound, RequestTimeout,
                                 RequestURITooLarge)

from judge.errors import JudgeError, OwnFileError, UnknownIdError
from judge.web.transport import FAULT_KEY


class UnknownItem(NotFound):
    """No paragraph, section or document answers to what was asked; carries close matches."""

    def __init__(self, wanted: str, suggestions: list[str], what: str = "paragraph or section"):
        self.wanted = wanted[:80]
        self.suggestions = suggestions
        self.what = what
        super().__init__(f"no {what} {self.wanted!r}")


def wants_json() -> bool:
    return request.path.startswith("/api/")


def _json_error(exc: HTTPException, **extra):
    body = {"error": exc.description, "status": exc.code, **extra}
    return jsonify(body), exc.code, _protocol_headers(exc)


def _protocol_headers(exc: HTTPException) -> list[tuple[str, str]]:
    """The headers HTTP asks of this error (a 405's Allow, a 401's WWW-Authenticate...), as werkzeug gives them;
    its Content-Type is the page's or the JSON's own."""
    return [(name, value) for name, value in exc.get_headers() if name.lower() != "content-type"]


def handle_http(exc: HTTPException):
    extra = {}
    if isinstance(exc, UnknownItem):
        extra = {"suggestions": exc.suggestions}
    if wants_json():
        return _json_error(exc, **extra)
    site = None
    try:
        from judge.web.site import current_site
        site = current_site()
    except RuntimeError:
        pass
    suggestions = []  # (url, label, id)
    if isinstance(exc, UnknownItem) and site is not None:
        if exc.what == "document":
            suggestions = [(url_for("pages.toc", doc_id=s), site.corpus.documents[s].meta.title, s)
                           for s in exc.suggestions if s in site.corpus.documents]
        else:
            suggestions = [(url_for("pages.item", ident=s), site.label(s), s) for s in exc.suggestions]
    return render_template("error.html", error=exc, suggestions=suggestions,
                           wanted=getattr(exc, "wanted", None)), exc.code, _protocol_headers(exc)


def handle_unknown_id(exc: UnknownIdError):
    return handle_http(UnknownItem(exc.wanted, exc.suggestions))


def handle_judge_error(exc: JudgeError):
    # The services' own checks ("radius must be between 0 and 3"): the request was wrong.
    return handle_http(BadRequest(str(exc)))


def handle_own_file_error(exc: OwnFileError):
    # The server's files failed it, not the visitor: the cause (file, line, reason) goes
    # to the log, the visitor gets a 500 that names none of it.
    current_app.logger.error("%s %s failed on a fault of the server's files: %s", request.method, request.path, exc)
    return handle_http(InternalServerError("the server could not answer: one of its own files is damaged or "
                                           "missing; the fault has been logged"))


def handle_unexpected(exc: Exception):
    if isinstance(exc, HTTPException):
        return handle_http(exc)
    current_app.logger.exception("unexpected error on %s", request.path)
    return handle_http(InternalServerError("something went wrong on the server; the error has been logged"))


# The longest request target (path and query) the app reads: its longest link is a scenario's permalink, which
# is offered only up to this length (judge.web.permalinks.MAX_PERMALINK); Granian's HTTP side refuses a request
# line somewhat longer itself, with an empty 414 (docs/web.md, "Limits").
MAX_TARGET = 32 * 1024
_TRANSPORT_FAULTS = {408: RequestTimeout}


def refuse_transport_faults() -> None:
    """Before any view: a fault `judge.web.transport` found in the request (a body too slow) answered as the app
    answers errors, and a request target over MAX_TARGET as a 414."""
    environ = request.environ
    fault = environ.get(FAULT_KEY)
    if fault is not None:
        status, message = fault
        raise _TRANSPORT_FAULTS[status](message)
    target = len(environ.get("PATH_INFO", "")) + len(environ.get("QUERY_STRING", ""))
    if target > MAX_TARGET:
        raise RequestURITooLarge(f"the address is {target:,} characters long; judge reads addresses of at most "
                                 f"{MAX_TARGET:,} (a scenario too long for a link is sent with the form, or as "
                                 f"a file)")


def install(app: Flask) -> None:
    app.before_request(refuse_transport_faults)
    app.register_error_handler(HTTPException, handle_http)
    app.register_error_handler(UnknownIdError, handle_unknown_id)
    app.register_error_handler(JudgeError, handle_judge_error)
    app.register_error_handler(OwnFileError, handle_own_file_error)
    app.register_error_handler(Exception, handle_unexpected)
