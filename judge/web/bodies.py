"""A request's body read under the scenario's limits (judge/engine/limits.py), for every route that reads one:
the scenario check's forms and API, and a draft sent to /lint. A body longer than allowed is refused with 413
whether its length was given or it was streamed, never cut."""
from __future__ import annotations

from flask import current_app, request
from werkzeug.exceptions import RequestEntityTooLarge


def limits():
    """The replay's limits this app applies (`SCENARIO_LIMITS` in its config; judge/engine/limits.py's
    defaults unless the app was made with others)."""
    return current_app.config["SCENARIO_LIMITS"]


class BodyTooLarge(RequestEntityTooLarge):
    """413: the request's body is over what a scenario of the longest allowed can need."""

    def __init__(self, size: str):
        super().__init__(f"the request's body is {size} bytes; judge reads at most {limits().body_bytes():,} bytes, "
                         f"enough for a scenario of {limits().characters:,} characters (the limit 'characters')")


def read_body() -> bytes:
    """The request's body, read whole and kept for the form parser; 413 beyond limits().body_bytes(), whether the
    client gave its length or streamed it (chunked). Werkzeug stops reading a stream at the app's maximum without
    saying that it went on, so that maximum is at least one byte over ours (judge.web.app.create_app): a body over ours
    is longer than allowed, and refused, never cut."""
    try:
        data = request.get_data(cache=True)
    except RequestEntityTooLarge:  # a Content-Length over the maximum: nothing was read
        raise BodyTooLarge(f"{request.content_length:,}") from None
    if len(data) > limits().body_bytes():
        length = request.content_length
        raise BodyTooLarge(f"{length:,}" if length is not None else f"more than {limits().body_bytes():,}")
    return data
