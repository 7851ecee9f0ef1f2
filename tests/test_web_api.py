"""The JSON API through Flask's test client: every route's answer against the OpenAPI
document, its errors as JSON, and the document itself."""
from __future__ import annotations

import re
from urllib.parse import quote

import pytest
from jsonschema import Draft202012Validator


from web_pages import XSS, schema_validator


API_CASES = [
    ("/api/search?q=bleed", "SearchResult"),
    ("/api/search?q=6.4.6", "SearchResult"),
    ("/api/paragraph/rb:6.4.6/2", "Paragraph"),
    ("/api/paragraph/vekn:bleed", "Paragraph"),
    ("/api/toc/flows", "TocEntry[]"),
    ("/api/docs", "Document[]"),
    ("/api/glossary?doc=vekn", "GlossaryEntry[]"),
    ("/api/lint?doc=rb", "Finding[]"),
    ("/api/graph/backlinks/rb:6.4.6", "Backlink[]"),
    ("/api/graph/related/rb:6.4.6/2?k=5", "Related[]"),
    ("/api/graph/editions/rb:6.4.6/2", "Editions"),
    ("/api/graph/neighbourhood/rb:6.4.6/2?radius=1", "Neighbourhood"),
    ("/api/graph/path?from=flows:II.D.1/a&to=rb:6.4.6", "Path"),
    ("/api/diff?old=s6&new=vekn", "Diff"),
]


@pytest.mark.parametrize("url, schema", API_CASES)
def test_api_answers_match_the_openapi_document(client, url, schema):
    response = client.get(url)
    assert response.status_code == 200 and response.mimetype == "application/json"
    data = response.get_json()
    if schema.endswith("[]"):
        assert isinstance(data, list) and data
        validator = schema_validator(client, schema[:-2])
        for row in data:
            validator.validate(row)
    else:
        schema_validator(client, schema).validate(data)


def test_api_paragraph_is_the_show_json(client, corpus):
    """`judge show --json`, and the citation the site gives (its public address is the web's alone)."""
    from judge.shapes import show_data
    for ident in ("rb:6.4.6/2", "vekn:bleed", "IV.D.2"):
        answer = client.get("/api/paragraph/" + ident).get_json()
        citation = answer.pop("citation")
        assert answer == show_data(corpus, ident)
        assert citation["url"] == "http://localhost/p/" + answer["id"]


def test_the_api_reads_book_names_in_any_case(client):
    assert client.get("/api/toc/VEKN").get_json() == client.get("/api/toc/vekn").get_json()


def test_openapi_describes_every_api_route(app, client):
    document = client.get("/api/openapi.json").get_json()
    assert document["openapi"].startswith("3.1")
    routes = set()
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            routes.add(re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule))
    assert routes == set(document["paths"])
    for schema in document["components"]["schemas"].values():
        Draft202012Validator.check_schema(schema)


@pytest.mark.parametrize("url, status", [
    ("/api/graph/related/rb:6.4.6/2?k=0", 400), ("/api/graph/neighbourhood/rb:6.4.6/2?radius=4", 400),
    ("/api/graph/related/rb:0.0/0", 404), ("/api/graph/path?from=rb:6.4.6", 400), ("/api/toc/nope", 404),
    ("/api/graph/editions/vekn", 400),  # a document is not a rule
])
def test_api_errors_are_json_with_a_message(client, url, status):
    response = client.get(url)
    assert response.status_code == status
    body = response.get_json()
    assert body["status"] == status and body["error"]
    schema_validator(client, "Error").validate(body)


@pytest.mark.parametrize("url, parameter", [
    ("/api/search?q=dodge&limit=", "limit"), ("/api/search?q=dodge&game=", "game"),
    ("/api/graph/related/rb:6.4.6/2?k=", "k"), ("/api/graph/neighbourhood/rb:6.4.6/2?radius=", "radius"),
    ("/api/cards?limit=", "limit"), ("/api/check?s=AA&rules=", "rules"),
])
def test_an_api_parameter_given_empty_is_refused_by_name(client, url, parameter):
    """The OpenAPI document says these are integers or one of a list: `limit=` sent empty by a program is a 400
    naming the parameter, not the default (the pages' forms may send a field empty, and there it means "not
    given")."""
    response = client.get(url)
    assert response.status_code == 400, url
    assert f"parameter {parameter!r}: is empty" in response.get_json()["error"]


def test_a_page_form_sending_a_field_empty_means_not_given(client):
    response = client.get("/search?q=dodge&limit=&game=")
    assert response.status_code == 200
    assert "Dodge" in response.get_data(as_text=True)


def test_json_answers_are_json_even_for_hostile_input(client):
    response = client.get("/api/paragraph/" + quote(XSS))
    assert response.status_code == 404 and response.mimetype == "application/json"
    assert response.get_json()["error"].startswith("no paragraph or section")


def test_the_api_json_has_the_values_flasks_own_encoder_gives(app, client):
    """The API's JSON is written by orjson (judge.web.json_provider): each kind of value an
    answer may hold reads back as Flask's own provider writes it, and a value orjson refuses
    (an integer beyond 64 bits) is still written; a real search answer too."""
    import collections
    import dataclasses
    import datetime
    import json

    from flask.json.provider import DefaultJSONProvider
    from markupsafe import Markup

    @dataclasses.dataclass
    class Shown:
        id: str
        score: float

    Pair = collections.namedtuple("Pair", "old new")
    values = {"date": datetime.date(2026, 11, 27), "when": datetime.datetime(2026, 11, 27, 6, 30),
              "dataclass": Shown("rb:6.4.6/2", 0.25), "named": [Pair("a", "b")], "tuple": ("x", 1, True),
              "markup": Markup("<mark>bleed</mark>"), "big": 2 ** 70, "keys": {1: "one", None: "none"},
              "text": "Rötschreck — “quoted” \u2028", "float": 1e16, "nested": [{"a": [None, 0.1]}]}
    reference = DefaultJSONProvider(app)
    reference.sort_keys = reference.ensure_ascii = False  # as the app had it set
    for name, value in values.items():
        assert json.loads(app.json.dumps({name: value})) == json.loads(reference.dumps({name: value})), name
    answer = client.get("/api/search?q=can+a+vampire+in+torpor+vote")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    assert json.loads(answer.get_data(as_text=True))["hits"]
