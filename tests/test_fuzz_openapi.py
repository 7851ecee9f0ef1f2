"""A bounded schemathesis run over the API's OpenAPI document (/api/openapi.json), through Flask's WSGI interface
(judge.web.app.create_app): every operation, its parameters and bodies generated from the document, positive and
negative. Any 5xx, or any answer (status, content type, body) the document does not declare, fails.

The body of POST /api/check is described by the scenario's own JSON Schema, so schemathesis writes scenarios;
`map_case` then gives them real names: the players the scenario lists (de-duplicated, at most the limit) sit at
the table, and wherever the schema asks for a player's or minion's name (turn, edge, controller, every name an
event gives) one of them or of the scenario's minions is used, so that the replay goes past the reading.
"""
from __future__ import annotations

import zlib

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from schemathesis import GenerationMode
from schemathesis.config import SchemathesisConfig
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (content_type_conformance, negative_data_rejection,
                                               response_schema_conformance, status_code_conformance)

from judge.engine.limits import DEFAULT
from judge.engine.vtes.scenario import SCHEMA
from judge.web.app import create_app

CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_schema_conformance,
          negative_data_rejection]
# Name-valued keys of the table (the others are the events', found through their forms below).
PLAYER_KEYS = ("turn", "edge")
PER_PLAYER = ("pool", "vp", "hand", "hand_size", "library", "crypt")
FORM_NAME_KEYS = {key: [k for k, v in form["properties"].items() if v.get("$ref") == "#/$defs/name"
                        or v.get("items", {}).get("$ref") == "#/$defs/name"
                        or any(a.get("$ref") == "#/$defs/name" for a in v.get("anyOf", []))]
                  for key, form in SCHEMA.forms.items()}


# A body judge does not read is refused with 413 (too long), a scenario over a replay limit with 422: both are
# the rejections of data the document does not allow, beside schemathesis's defaults.
CONFIG = SchemathesisConfig.from_dict({"checks": {"negative_data_rejection": {
    "expected-statuses": ["400", "404", "405", "413", "414", "415", "422"]}}})


@pytest.fixture(scope="module")
def api(corpus):
    return schemathesis.openapi.from_wsgi("/api/openapi.json", create_app(corpus), config=CONFIG)


def run(strategy, max_examples: int) -> None:
    """Call and check `max_examples` cases of `strategy`. (schemathesis's own pytest plumbing, `parametrize`,
    fails under pytest 9: it sets a test item's `_nodeid`, which pytest 9 no longer has.)"""
    @given(case=strategy)
    @settings(max_examples=max_examples, deadline=None, suppress_health_check=list(HealthCheck), database=None)
    def call_and_check(case):
        case.call_and_validate(checks=CHECKS)

    call_and_check()


def _pick(value, names: list[str]):
    """One of `names`, the same for the same generated value (so that a scenario keeps naming the same one)."""
    if not names or not isinstance(value, str):
        return value
    return names[zlib.crc32(value.encode("utf-8", "surrogatepass")) % len(names)]


@schemathesis.hook
def map_case(context, case):
    """A positive case whose body is a scenario, with real names (see the module's docstring); any other as
    generated."""
    negative = case.meta is not None and case.meta.generation.mode.is_negative
    if isinstance(case.body, dict) and not negative:  # a body made to break the schema is sent as made
        case.body = with_real_names(case.body)
    return case


def with_real_names(body: dict) -> dict:
    if not isinstance(body.get("players"), list):
        return body
    players = list(dict.fromkeys(p for p in body["players"] if isinstance(p, str) and p))[:DEFAULT.players]
    players += [p for p in ("Sarah", "Alexis") if p not in players][:max(0, 2 - len(players))]
    body["players"] = players
    minions = [m for m in body.get("minions") or [] if isinstance(m, dict)]
    taken = set(players)
    for m in minions[:DEFAULT.minions]:
        if isinstance(m.get("name"), str) and m["name"] in taken:
            m["name"] = f"{m['name']} {len(taken)}"
        taken.add(m.get("name"))
        m["controller"] = _pick(m.get("controller"), players)
    everyone = players + [m["name"] for m in minions if isinstance(m.get("name"), str)]
    for key in PLAYER_KEYS:
        body[key] = _pick(body.get(key), players)
    for key in PER_PLAYER:
        if isinstance(body.get(key), dict):
            body[key] = {_pick(k, players): v for k, v in body[key].items()}
    for event in body.get("events") or []:
        if isinstance(event, dict):
            form = next((k for k in event if k in FORM_NAME_KEYS), None)
            for key in FORM_NAME_KEYS.get(form, ()):
                if isinstance(event.get(key), list):
                    event[key] = [_pick(v, everyone) for v in event[key]]
                elif key in event:
                    event[key] = _pick(event[key], everyone)
    return body


def both(operation) -> st.SearchStrategy:
    return st.one_of(operation.as_strategy(GenerationMode.POSITIVE), operation.as_strategy(GenerationMode.NEGATIVE))


def test_every_operation_answers_as_the_openapi_document_declares(api):
    run(both(api), 300)


def test_generated_scenarios_are_answered_as_the_openapi_document_declares(api):
    run(both(api["/api/check"]["POST"]), 300)


def test_the_coverage_phase_finds_every_limit_declared_and_allow_on_every_405(corpus):
    """schemathesis's coverage phase (the values at and past each declared bound, each undeclared method) with
    the checks of issue 34: a request the document allows is accepted (`positive_data_acceptance`: every limit the
    server enforces is declared), a method not listed gets a 405 with `Allow` (`unsupported_method`), one the
    document forbids is refused, and no 5xx. A scenario the schema allows may still be malformed (a name nobody
    at the table has) or over a replay limit, and two editions the schema allows may be one edition twice or of
    two games: for /api/check and /api/diff, 400 and 422 are acceptances of well-formed data too."""
    from schemathesis.engine import events, from_schema

    config = SchemathesisConfig.from_dict({
        "phases": {"examples": {"enabled": False}, "fuzzing": {"enabled": False}, "stateful": {"enabled": False},
                   "coverage": {"enabled": True}},
        "checks": {"enabled": False, "not_a_server_error": {"enabled": True},
                   "unsupported_method": {"enabled": True},
                   "positive_data_acceptance": {"enabled": True, "expected-statuses": ["2xx", "404"]},
                   "negative_data_rejection": {"enabled": True,
                                               "expected-statuses": ["400", "404", "405", "413", "414", "415",
                                                                     "422"]}},
        "operations": [{"include-path-regex": "^/api/(check|diff)$", "checks": {"positive_data_acceptance": {
            "expected-statuses": ["2xx", "400", "404", "422"]}}}],
    })
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", create_app(corpus), config=config)
    operations, failures = 0, []
    for event in from_schema(schema).execute():
        if isinstance(event, (events.NonFatalError, events.FatalError)):
            failures.append(repr(event))
        if isinstance(event, events.ScenarioFinished):
            operations += 1
            failures += [f"{event.recorder.label}: {check.name}: {check.failure_info.failure}"
                         for checks in event.recorder.checks.values() for check in checks
                         if check.status.name == "FAILURE"]
    assert operations >= 17 and failures == [], failures[:5]
