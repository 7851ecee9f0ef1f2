"""/check and /api/check under the replay's limits, through Flask's test client and a real `judge serve`:
the same character limit on both routes whatever the encoding, 413 for a body too long (chunked included:
refused, never cut), 422 for a scenario over another limit, 400 for a malformed one, each in judge's words
naming the limit (or the line), and every answer as the OpenAPI document declares it."""
from __future__ import annotations

import http.client
import json
import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from jsonschema import Draft202012Validator

import scenario_samples as samples
from conftest import start_judge_serve
from judge.engine.limits import DEFAULT
from judge.web.app import create_app

HEAD = "players: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nevents: []\n"
TAIL = "expect: {pool.Alexis: 5}\n"  # false (Alexis has 30): it shows that the end of the text was read
BODY_BYTES = DEFAULT.body_bytes()
FORM = "multipart/form-data"  # what the check page's form sends


@pytest.fixture(scope="module")
def client(corpus):
    return create_app(corpus).test_client()


@pytest.fixture(scope="module")
def openapi(client):
    return client.get("/api/openapi.json").get_json()


def conforms(openapi: dict, response, status: int) -> dict:
    """The JSON answer, once checked against the schema the OpenAPI document declares for this status."""
    assert response.status_code == status, response.data[:300]
    declared = openapi["paths"]["/api/check"]["post"]["responses"][str(status)]["content"]["application/json"]
    body = response.get_json()
    Draft202012Validator({**declared["schema"], "components": openapi["components"]}).validate(body)
    return body


def padded(chars: int, filler: str = "x") -> str:
    """A scenario of exactly `chars` characters: HEAD, a comment of `filler`, TAIL."""
    return HEAD + "# " + filler * (chars - len(HEAD) - len(TAIL) - 3) + "\n" + TAIL


def shown_error(response) -> tuple[str, str]:
    """The check page's error: its heading and its message."""
    html = response.data.decode()
    section = re.search(r'<section class="notice warning" role="alert">(.*?)</section>', html, re.S).group(1)
    heading = re.search(r"<h2>(.*?)</h2>", section, re.S).group(1)
    return unescape(heading), unescape(re.sub(r"<[^>]+>", "", section.split("</h2>", 1)[1])).strip()


@pytest.mark.parametrize("filler", ["x", "é", "€"])  # 1, 2 and 3 bytes a character
def test_both_routes_take_a_scenario_of_the_longest_allowed_whatever_its_characters(client, openapi, filler):
    text = padded(DEFAULT.characters, filler)
    api = conforms(openapi, client.post("/api/check", data=text.encode(), content_type="text/yaml"), 200)
    assert api["expectations"] == [{"path": "pool.Alexis", "expected": 5, "actual": 30, "ok": False}]
    page = client.post("/check", data={"scenario": text, "rules": "file"}, content_type=FORM)  # as the page sends it
    assert page.status_code == 200 and "pool.Alexis" in page.data.decode()


def test_both_routes_refuse_one_character_more_naming_the_limit(client, openapi):
    text = padded(DEFAULT.characters + 1, "é")
    words = "the scenario is 100,001 characters long; the limit 'characters' is 100,000 characters"
    api = conforms(openapi, client.post("/api/check", data=text.encode(), content_type="text/yaml"), 413)
    # The line named is where the text went over the limit (the 100,001st character is on it).
    over_at = text.count("\n", 0, DEFAULT.characters) + 1
    assert (api["error"], api["limit"], api["maximum"], api["line"]) == (words, "characters", 100_000, over_at)
    page = client.post("/check", data={"scenario": text}, content_type=FORM)
    assert page.status_code == 413 and shown_error(page) == ("The scenario is too long", f"Line {over_at}: {words}")


def test_a_body_over_the_limit_is_413_in_judges_words(client, openapi):
    body = b"#" * (BODY_BYTES + 1)
    api = conforms(openapi, client.post("/api/check", data=body, content_type="text/yaml"), 413)
    assert api["error"] == (f"the request's body is {BODY_BYTES + 1:,} bytes; judge reads at most {BODY_BYTES:,} "
                            f"bytes, enough for a scenario of 100,000 characters (the limit 'characters')")
    page = client.post("/check", data={"scenario": "#" * (BODY_BYTES + 1)}, content_type=FORM)
    assert page.status_code == 413
    heading, message = shown_error(page)
    assert heading == "The scenario is too long" and "judge reads at most" in message


@pytest.mark.parametrize("make, limit, line, words", [
    (samples.crafted, "players", 1, "the scenario has 1,000 players; the limit 'players' is 10 players"),
    (lambda: samples.turns(4), "turns", 69, "the replay began 40 turns by event 4; the limit 'turns' is 30 turns"),
    (lambda: samples.fights(40), "steps", 105, "the replay took 509 steps by event 40; the limit 'steps' is 500 steps"),
])
def test_a_scenario_over_a_replay_limit_is_422_naming_the_limit_and_the_line(client, openapi, make, limit, line, words):
    text = make()
    api = conforms(openapi, client.post("/api/check", data=text, content_type="text/yaml"), 422)
    assert (api["limit"], api["maximum"], api["line"]) == (limit, getattr(DEFAULT, limit), line)
    assert api["error"].startswith(words)
    page = client.post("/check", data={"scenario": text, "rules": "file"})
    assert page.status_code == 422
    assert shown_error(page) == ("The scenario asks for more than a replay may do", f"Line {line}: {api['error']}")
    assert "<textarea" in page.data.decode() and text.splitlines()[0][:40] in unescape(page.data.decode())


def test_a_scenario_at_every_limit_is_answered_on_both_routes(client, openapi):
    text = samples.at_limits()
    api = conforms(openapi, client.post("/api/check", data=text, content_type="text/yaml"), 200)
    assert api["ok"] and api["error"] is None and len(api["steps"]) == 271
    page = client.post("/check", data={"scenario": text, "rules": "file"})
    assert page.status_code == 200 and page.data.decode().count('<li class="expect-ok">') == DEFAULT.expectations


def test_a_list_as_a_key_is_400_naming_the_line_on_both_routes(client, openapi):
    text = HEAD + "? [x, y]\n: 1\n"
    api = conforms(openapi, client.post("/api/check", data=text, content_type="text/yaml"), 400)
    assert api["line"] == 5 and api["error"].startswith("a list used as a mapping key; keys must be plain names")
    page = client.post("/check", data={"scenario": text})
    assert page.status_code == 400 and shown_error(page)[1].startswith("Line 5: a list used as a mapping key")
    number = HEAD + "expect: {pool.Alexis: " + "9" * 400 + "}\n"
    api = conforms(openapi, client.post("/api/check", data=number, content_type="text/yaml"), 400)
    assert api["line"] == 5 and "numbers in a scenario are between -1,000 and 1,000" in api["error"]


def test_the_openapi_document_lists_the_refusals_and_describes_the_body(openapi):
    post = openapi["paths"]["/api/check"]["post"]
    assert set(post["responses"]) == {"200", "400", "413", "414", "415", "422"}
    assert post["requestBody"]["content"]["text/yaml"]["schema"]["maxLength"] == DEFAULT.characters
    scenario = {"$ref": "#/components/schemas/Scenario", "components": openapi["components"]}
    validator = Draft202012Validator(scenario)
    assert validator.is_valid(json.loads(json.dumps(__import__("yaml").safe_load(samples.at_limits()))))
    assert not validator.is_valid({"players": ["Sarah"], "turn": "Sarah", "phase": "minion", "events": []})
    for name in ("players", "events", "turns", "steps", "seconds", "answer_bytes"):
        assert name in post["description"]


# -- a real server: a body sent in chunks, without its length ---------------------------------------------------
@pytest.fixture(scope="module")
def server():
    proc, url, _ = start_judge_serve("--workers", "1")
    yield urlsplit(url)
    proc.terminate()
    proc.wait(timeout=30)


def chunked(server, path: str, body: bytes, content_type: str) -> tuple[int, bytes]:
    """POST `body` in 64 KiB chunks (Transfer-Encoding: chunked, no Content-Length)."""
    conn = http.client.HTTPConnection(server.hostname, server.port, timeout=60)
    try:
        conn.putrequest("POST", path)
        conn.putheader("Content-Type", content_type)
        conn.putheader("Transfer-Encoding", "chunked")
        conn.endheaders()
        for i in range(0, len(body), 65536):
            part = body[i:i + 65536]
            conn.send(b"%x\r\n%s\r\n" % (len(part), part))
        conn.send(b"0\r\n\r\n")
        response = conn.getresponse()
        return response.status, response.read()
    finally:
        conn.close()


def multipart(text: str, boundary: str = "judge-test-boundary") -> tuple[bytes, str]:
    body = (f"--{boundary}\r\nContent-Disposition: form-data; name=\"scenario\"\r\n\r\n{text}\r\n"
            f"--{boundary}\r\nContent-Disposition: form-data; name=\"rules\"\r\n\r\nfile\r\n--{boundary}--\r\n")
    return body.encode(), f"multipart/form-data; boundary={boundary}"


def test_a_chunked_body_is_read_whole_or_refused_never_cut(server):
    # ~600 KB of UTF-8 (over the 512 KiB Werkzeug's reading used to stop at): read to its last line
    text = padded(DEFAULT.characters - 100, "€")
    status, data = chunked(server, "/api/check", text.encode(), "text/yaml")
    assert status == 200 and json.loads(data)["expectations"][0]["actual"] == 30
    status, data = chunked(server, "/check", *multipart(text))
    assert status == 200 and "pool.Alexis" in data.decode()
    # over the limit: refused, on both routes
    # (the server receives a chunked body before the app runs, judge.web.transport: one byte over is counted,
    # a longer one is cut where the app's maximum ends and never read further)
    status, data = chunked(server, "/api/check", b"#" * (BODY_BYTES + 1), "text/yaml")
    assert status == 413 and json.loads(data)["error"].startswith(f"the request's body is {BODY_BYTES + 1:,} "
                                                                  f"bytes; judge reads at most {BODY_BYTES:,} bytes")
    # longer, but within what the app reads of any route (a draft sent to /lint is longer than a scenario): read,
    # then refused by its exact size
    status, data = chunked(server, "/api/check", b"#" * (BODY_BYTES + 100_000), "text/yaml")
    assert status == 413 and json.loads(data)["error"].startswith(f"the request's body is {BODY_BYTES + 100_000:,} "
                                                                  f"bytes; judge reads at most {BODY_BYTES:,} bytes")
    # longer than the app reads at all: cut where its maximum ends, never read further, and refused
    status, data = chunked(server, "/api/check", b"#" * (2 * 1024 * 1024), "text/yaml")
    assert status == 413 and json.loads(data)["error"].startswith(f"the request's body is more than {BODY_BYTES:,} "
                                                                  f"bytes; judge reads at most {BODY_BYTES:,} bytes")
    status, data = chunked(server, "/api/check", padded(DEFAULT.characters + 1).encode(), "text/yaml")
    assert status == 413 and json.loads(data)["limit"] == "characters"
    status, data = chunked(server, "/check", *multipart("#" * (BODY_BYTES + 1)))
    assert status == 413 and "judge reads at most" in unescape(data.decode())
    # the server goes on answering
    status, data = chunked(server, "/api/check", samples.crafted().encode(), "text/yaml")
    assert status == 422 and json.loads(data)["limit"] == "players"


def test_a_json_body_may_hold_any_character(client, openapi):
    """JSON escapes a character beyond U+FFFF as a surrogate pair, which the YAML reader refuses on its own."""
    doc = {"title": "Sarah 😀 \\ud83d", "players": ["Sarah", "Alexis"], "turn": "Sarah", "phase": "minion",
           "events": ["Sarah passes"]}
    body = json.dumps(doc)  # ensure_ascii: "\ud83d\ude00", and the backslash written "\\"
    assert "\\ud83d\\ude00" in body
    api = conforms(openapi, client.post("/api/check", data=body, content_type="application/json"), 200)
    assert api["ok"] is True
    same = client.post("/api/check", data=body.replace("Sarah passes", "Sarah dances"), content_type="application/json")
    assert conforms(openapi, same, 400)["error"].startswith("cannot read the event 'Sarah dances': no sentence form")


def test_an_app_made_with_other_limits_applies_them_on_both_routes(corpus):
    """`SCENARIO_LIMITS` in the app's config sets what both routes (and the body size they read) allow."""
    client = create_app(corpus, {"SCENARIO_LIMITS": DEFAULT.with_override("events=2")}).test_client()
    text = "players: [A, B]\nturn: A\nphase: minion\nevents:\n" + "  - A passes\n" * 3
    api = client.post("/api/check", data=text, content_type="text/yaml")
    assert api.status_code == 422 and (api.get_json()["limit"], api.get_json()["maximum"]) == ("events", 2)
    page = client.post("/check", data={"scenario": text, "rules": "file"})
    assert page.status_code == 422 and "events" in page.get_data(as_text=True)
    small = create_app(corpus, {"SCENARIO_LIMITS": DEFAULT.with_override("characters=1000")}).test_client()
    assert small.post("/api/check", data="x" * 10_000, content_type="text/yaml").status_code == 413
