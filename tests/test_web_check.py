"""The scenario check page and its API route through Flask's test client (their limits:
tests/test_web_check_limits.py)."""
from __future__ import annotations




from web_pages import ROOT, item_url, links, page, schema_validator


def test_check_page_replays_a_scenario_with_linked_citations(client):
    text = (
        "players: [Sarah, Alexis, Bob, Carol, Dave]\nturn: Sarah\nphase: minion\nrules: older\n"
        "minions:\n  - {name: Ira, controller: Sarah, capacity: 6, blood: 2}\n"
        "events:\n  - Ira hunts\n  - Alexis declines to block\n")
    response = client.post("/check", data={"scenario": text, "rules": "file"})
    assert response.status_code == 200
    trace = page(response).find_all("ol", class_="trace")[0]
    cited = [h for h in links(trace) if h.startswith("/p/")]
    assert cited and all(client.get(h).status_code == 200 for h in cited[:5])
    api = client.post("/api/check", data=text, content_type="text/yaml")
    assert api.status_code == 200
    assert [item_url(c) for s in api.get_json()["steps"] for c in s["cites"]][:len(cited)] == cited
    schema_validator(client, "CheckRun").validate(api.get_json())


def test_check_page_writes_expectations_in_words(client):
    text = (ROOT / "scenarios/combat/additional_strikes_before_first_pair.yaml").read_text()
    tree = page(client.post("/check", data={"scenario": text, "rules": "older"}))
    expectations = tree.find_all("ul", class_="expectations")[0]
    words = " ".join(expectations.full_text().split())
    assert "{" not in words and "'" not in words  # no Python dict
    assert "a refusal at event 4 saying “only after the first pair”, citing RB §6.4.3" in words
    assert item_url("rb:6.4.3") in links(expectations)
    error = tree.find_all("div", class_="warning")[0].full_text()
    assert "Not allowed" in error and "refused:" not in error  # said once


def test_a_malformed_scenario_is_400_naming_the_line(client):
    response = client.post("/check", data={"scenario": "players: [a, b]\nturn: a\nphase: minion\nevents: 7\n"})
    assert response.status_code == 400 and b"Line 4" in response.data
    api = client.post("/api/check", data="players: [a, b]\nturn: a\nphase: minion\nevents: 7\n")
    assert api.status_code == 400 and api.get_json()["line"] == 4
    assert client.post("/check", data={"scenario": "  "}).status_code == 400
    assert client.post("/api/check?rules=tomorrow", data="players: [a]").status_code == 400
