"""Hostile input, errors and headers on every page: visitors' strings escaped, nothing in a
URL reaching the file system, the security headers, only the app's own assets, 500s
without tracebacks (faults of the server's own files: tests/test_web_faults.py)."""
from __future__ import annotations

import random
import string
from urllib.parse import quote

import pytest

from judge.web.app import create_app
from judge.web.security import HEADERS

from web_pages import XSS, page


@pytest.mark.parametrize("url", [
    "/search?q=" + quote(XSS),
    "/search?q=" + quote(XSS) + "&fragment=1",
    "/search?q=bleed&doc=" + quote(XSS),
    "/p/" + quote(XSS),
    "/doc/" + quote(XSS, safe=""),
    "/graph/" + quote(XSS),
    "/glossary?doc=" + quote(XSS),
    "/nowhere/" + quote(XSS),
])
def test_user_strings_are_escaped_everywhere(client, url):
    response = client.get(url)
    body = response.get_data(as_text=True)
    assert response.status_code in (200, 400, 404)
    assert "<script>alert" not in body and "<img src=x" not in body


@pytest.mark.parametrize("url", ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
                                 "/p/../../pyproject.toml", "/doc/..%2f..%2fpyproject.toml",
                                 "/static/../../rules/manifest.yaml"])
def test_nothing_in_a_url_reaches_the_filesystem(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b"build-system" not in response.data and b"documents:" not in response.data


@pytest.mark.parametrize("url", ["/", "/p/rb:6.4.6/2", "/api/search?q=bleed", "/p/nope", "/static/judge.css"])
def test_security_headers_on_every_response(client, url):
    response = client.get(url)
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


def test_security_headers_over_https_and_a_views_own_header_kept(corpus):
    app = create_app(corpus)

    @app.get("/framed")
    def framed():
        return "ok", 200, {"X-Frame-Options": "SAMEORIGIN"}
    client = app.test_client()
    plain = client.get("/p/rb:6.4.6/2")
    assert "Strict-Transport-Security" not in plain.headers
    secure = client.get("/p/rb:6.4.6/2", base_url="https://judge.example")
    assert secure.headers["Strict-Transport-Security"].startswith("max-age=")
    own = client.get("/framed")
    assert own.headers.getlist("X-Frame-Options") == ["SAMEORIGIN"]
    assert own.headers["Content-Security-Policy"] == HEADERS["Content-Security-Policy"]


def test_pages_load_only_the_apps_own_assets(client):
    for url in ("/", "/search?q=bleed", "/p/rb:6.4.6/2", "/graph/rb:6.4.6/2", "/diff?old=s6&new=vekn"):
        tree = page(client.get(url))
        assets = [s.attrs["src"] for s in tree.find_all("script")] + \
                 [lk.attrs["href"] for lk in tree.find_all("link")]
        assert assets and all(a.startswith("/static/") for a in assets)
        assert not tree.find_all("style") and not any("style" in n.attrs for n in tree.iter())
        assert not any(s.full_text().strip() for s in tree.find_all("script"))  # no inline script
    for name, kind in (("judge.css", "text/css"), ("judge.js", "text/javascript"), ("favicon.svg", "image/svg+xml")):
        response = client.get(f"/static/{name}")
        assert response.status_code == 200 and response.mimetype == kind


def test_an_unexpected_error_is_a_500_page_without_traceback(corpus):
    app = create_app(corpus)

    def broken():
        raise RuntimeError("secret internal detail")
    app.add_url_rule("/broken", "broken", broken)
    response = app.test_client().get("/broken")
    assert response.status_code == 500
    assert b"Traceback" not in response.data and b"secret internal detail" not in response.data
    assert b"something went wrong" in response.data


def test_a_form_sent_to_the_check_api_is_told_the_body_it_wants(client):
    """issue 25: a multipart form is not a malformed YAML scenario: 415, naming the content types."""
    from io import BytesIO
    response = client.post("/api/check", data={"file": (BytesIO(b"players: [A, B]\n"), "s.yaml")},
                           content_type="multipart/form-data")
    assert response.status_code == 415
    error = response.get_json()["error"]
    assert "text/yaml" in error and "application/json" in error and "/check" in error
    response = client.post("/api/check", data={"scenario": "players: [A, B]"})
    assert response.status_code == 415


@pytest.mark.parametrize("method, url, allowed", [
    ("DELETE", "/search?q=bleed", "GET, HEAD, OPTIONS"), ("POST", "/p/vekn:bleed/2", "GET, HEAD, OPTIONS"),
    ("PUT", "/api/check", "GET, HEAD, OPTIONS, POST"), ("PATCH", "/api/search?q=x", "GET, HEAD, OPTIONS"),
    ("DELETE", "/check", "GET, HEAD, OPTIONS, POST")])
def test_a_method_not_allowed_says_which_are_in_allow(client, method, url, allowed):
    """RFC 9110 §15.5.6: a 405 carries Allow (issue 34: none did), on pages and in the API alike."""
    response = client.open(url, method=method)
    assert response.status_code == 405
    assert ", ".join(sorted(m.strip() for m in response.headers["Allow"].split(","))) == allowed
    assert response.headers["Content-Security-Policy"].startswith("default-src 'none'")
    if url.startswith("/api/"):
        assert response.get_json()["status"] == 405


def test_a_scenario_too_long_for_a_link_is_offered_as_a_download_not_a_permalink(client):
    """A permalink longer than the server reads in an address (judge.web.errors.MAX_TARGET) is not offered: the
    scenario's YAML is downloaded by a POST instead."""
    from judge.web.permalinks import MAX_PERMALINK
    from judge.web.permalinks import permalink
    noise = random.Random(38)  # comments that do not compress: the compact link stays as long as the text
    events = "".join(f"  - Sarah's turn # {''.join(noise.choices(string.ascii_letters, k=600))}\n" for _ in range(60))
    text = f"players: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nevents:\n{events}"
    assert len(permalink(text)) > MAX_PERMALINK
    shown = client.post("/check", data={"scenario": text, "rules": "file"}, content_type="multipart/form-data")
    html = shown.data.decode()
    assert shown.status_code == 200 and 'id="permalink"' not in html and 'id="no-permalink"' in html
    saved = client.post("/check/scenario.yaml", data={"scenario": text})
    assert saved.status_code == 200 and saved.data.decode() == text
    assert saved.headers["Content-Disposition"] == 'attachment; filename="scenario.yaml"'
    short = client.post("/check", data={"scenario": text[:300].rsplit("\n", 1)[0] + "\n", "rules": "file"},
                        content_type="multipart/form-data")
    assert 'id="permalink"' in short.data.decode()
