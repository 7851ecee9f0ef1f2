"""The cards and rulings pages, their API and the search's card answer, through Flask's test client."""
from __future__ import annotations


def test_card_page_by_name_redirects_to_its_permalink_and_shows_rules_and_rulings(client):
    r = client.get("/card/Govern the Unaligned")
    assert r.status_code == 302 and r.headers["Location"].endswith("/card/govern-the-unaligned")
    page = client.get("/card/govern-the-unaligned").get_data(as_text=True)
    assert "Rules it relies on" in page and "/p/vekn:stealth-and-intercept/3" in page
    assert "You do not reveal the target vampire" in page and "LSJ 20010108" in page
    assert 'data-copy="' in page  # the copy button, for the card and each ruling


def test_unknown_card_is_a_404_with_suggestions(client):
    r = client.get("/card/Govern the Unalgned Zzz")
    assert r.status_code in (302, 404)
    r = client.get("/api/card/Qwertyuiop Zxcvbnm")
    assert r.status_code == 404 and r.json["status"] == 404 and "suggestions" in r.json
    page = client.get("/card/" + "x" * 5000)
    assert page.status_code == 404 and "Traceback" not in page.get_data(as_text=True)


def test_a_ruling_citing_who_may_attempt_to_block_is_on_that_paragraph_page(client):
    page = client.get("/p/vekn:resolve-any-block-attempts/2").get_data(as_text=True)
    assert "Rulings that cite this paragraph" in page and "RBK who-may-attempt-to-block" in page
    assert "Cards that use this rule" in page


def test_api_card_and_rulings_match_the_cli_shape(client, runner):
    import json

    from judge.cli import cli
    api = client.get("/api/card/govern-the-unaligned").json
    cli_data = json.loads(runner.invoke(cli, ["card", "govern-the-unaligned", "--json"]).stdout)
    assert api == cli_data
    rulings = client.get("/api/rulings?cites=vekn:resolve-any-block-attempts/2").json
    assert rulings["total"] >= 1 and all(r["references"] for r in rulings["rulings"])
    assert client.get("/api/rulings?cites=no-such-rule-zz").status_code == 404


def test_cards_index_filters_and_stale_page(client):
    page = client.get("/cards?type=Master&q=govern").get_data(as_text=True)
    assert "Govern the Unaligned" not in page  # an Action, not a Master
    page = client.get("/cards?q=govern").get_data(as_text=True)
    assert "Govern the Unaligned" in page
    assert client.get("/cards?kind=nonsense").status_code == 400
    stale = client.get("/rulings/stale").get_data(as_text=True)
    assert "No ruling is flagged" in stale and "/rulings" in stale  # what is checked, and where the rest are


def test_search_shows_the_card_above_the_rules_only_when_a_card_is_named(client):
    page = client.get("/search?q=govrn+the+unalined").get_data(as_text=True)
    # In #results (the live results replace it as one types), above any rule hit.
    hits_at = page.find('<ol class="hits">')
    assert page.index('id="results"') < page.index('class="cards-answer"') < (hits_at if hits_at >= 0 else len(page))
    rules = client.get("/search?q=who+may+block").get_data(as_text=True)
    assert 'class="cards-answer"' not in rules
    api = client.get("/api/search?q=Govern+the+Unaligned+rulings").json
    assert api["cards"]["cards"][0]["id"] == "card:100845" and api["cards"]["rulings"]
    assert client.get("/api/search?q=who+may+block").json["cards"]["cards"] == []


def test_card_api_answers_match_the_openapi_document(client):
    from test_web_api import schema_validator
    for url, schema in (("/api/card/govern-the-unaligned", "Card"), ("/api/search?q=govrn+the+unalined", "SearchResult")):
        schema_validator(client, schema).validate(client.get(url).get_json())
    rulings = client.get("/api/rulings?card=Body+Bag&limit=20").get_json()
    validator = schema_validator(client, "Ruling")
    assert rulings["rulings"]
    for r in rulings["rulings"]:
        validator.validate(r)


def test_an_unknown_card_api_404_offers_the_closest_names(client):
    r = client.get("/api/card/Govern the Unaligned Qwertyuiop Zxcvbnm Asdfgh")
    assert r.status_code == 404 and all(isinstance(s, str) for s in r.json["suggestions"])


def test_search_in_rules_cards_rulings_as_chips_and_in_the_api(client):
    import html
    import re

    def page(url):
        r = client.get(url)
        assert r.status_code == 200
        return r.get_data(as_text=True)

    everything = page("/search?q=Govern+the+Unaligned")
    chips = dict(re.findall(r'<a class="in-chip[^"]*" href="([^"]*)"[^>]*>(Rules|Cards|Rulings)</a>', everything))
    assert set(chips.values()) == {"Rules", "Cards", "Rulings"}
    assert 'class="card-hit"' in everything and 'class="hit' in everything
    # following the "Rules" chip turns rules off: the card stays, no rule hit, the rulings matched listed (links
    # only, no script)
    no_rules = page(html.unescape(next(h for h, label in chips.items() if label == "Rules")))
    assert 'class="card-hit"' in no_rules and "Rules not searched" in no_rules
    assert 'class="hit kind-ruling"' in no_rules and 'class="hit kind-rule' not in no_rules.replace("kind-ruling", "")
    only_rulings = page("/search?q=Govern+the+Unaligned&in=rulings")
    assert 'class="card-hit"' not in only_rulings and "Rulings on Govern the Unaligned" in only_rulings
    only_rules = page("/search?q=Govern+the+Unaligned&in=rules")
    assert 'class="card-hit"' not in only_rules and 'class="hit' in only_rules
    assert page("/search?q=Govern+the+Unaligned&kind=rule&in=cards")  # kind= keeps its meaning beside in=

    api = client.get("/api/search?q=Govern+the+Unaligned").json
    assert api["in"] == ["rules", "cards", "rulings"] and api["hits"] and api["cards"]["cards"]
    cards_only = client.get("/api/search?q=Govern+the+Unaligned&in=cards").json
    assert cards_only["hits"] == [] and cards_only["total"] == 0 and cards_only["cards"]["rulings"] == []
    rulings = client.get("/api/search?q=Govern+the+Unaligned&in=rulings").json["cards"]
    assert rulings["rulings"] and rulings["rulings_total"] >= len(rulings["rulings"])
    bad = client.get("/api/search?q=x&in=everything")
    assert bad.status_code == 400 and "'in'" in bad.json["error"]


def test_a_ruling_copied_from_a_rule_page_carries_its_sources_urls_as_on_the_card_page(client):
    import html
    import re
    page = client.get("/p/vekn:resolve-any-block-attempts/2").get_data(as_text=True)
    panel = page[page.index('id="rule-rulings-h"'):]
    copied = [html.unescape(c) for c in re.findall(r'data-copy="([^"]*)"[^>]*>Copy ruling<', panel)]
    assert copied and all(" — " in c and "<https://" in c for c in copied)
    cited = next(c for c in copied if "RBK who-may-attempt-to-block <https://www.vekn.net/" in c)
    # the same ruling's copy text on its card's page (through /rulings?cites=) is the same text
    listed = client.get("/rulings?cites=vekn:resolve-any-block-attempts/2").get_data(as_text=True)
    assert cited in [html.unescape(c) for c in re.findall(r'data-copy="([^"]*)"', listed)]


def test_the_card_api_refuses_an_empty_number_naming_it(client):
    for url in ("/api/cards?limit=", "/api/rulings?offset=", "/api/cards?kind="):
        r = client.get(url)
        assert r.status_code == 400 and "is empty" in r.json["error"], url
    assert client.get("/api/cards?limit=3").json["cards"].__len__() == 3


def test_the_live_results_show_the_card_panel_as_a_submitted_search_does(client):
    """The as-you-type fragment (?fragment=1, what replaces #results) holds the same card
    panel as the submitted search page, the in= facet included; a rules question has none."""
    import re

    def panel(url):
        html = client.get(url).get_data(as_text=True)
        found = re.search(r'<section class="cards-answer".*?</section>', html, re.S)
        return found.group(0) if found else None

    for query in ("govrn+the+unalined", "Govern+the+Unaligned+rulings"):
        live = panel(f"/search?q={query}&fragment=1")
        assert live is not None and 'href="/card/govern-the-unaligned"' in live
        assert live == panel(f"/search?q={query}")
    assert "Rulings on Govern the Unaligned" in panel("/search?q=Govern+the+Unaligned+rulings&fragment=1")
    assert panel("/search?q=who+may+block+an+action&fragment=1") is None
    live = client.get("/search?q=Govern+the+Unaligned&in=rulings&fragment=1").get_data(as_text=True)
    assert 'class="search-in"' in live and "Rulings on Govern the Unaligned" in live
    assert 'class="hit kind-rule' not in live.replace("kind-ruling", "")  # in=rulings: no rule hit, as on the page
    # The page's form keeps the in= facet, so the next query typed (live or submitted) keeps it.
    page = client.get("/search?q=Govern+the+Unaligned&in=cards").get_data(as_text=True)
    assert '<input type="hidden" name="in" value="cards">' in page
    assert 'name="in"' not in client.get("/search?q=Govern+the+Unaligned").get_data(as_text=True)


def test_a_search_with_no_answer_says_what_might_find_one(client, runner):
    """Rulings asked of a name no card has offer the closest cards' rulings; nothing found at all offers the
    places left out and the card list; an answered question offers nothing."""
    from judge.cli import cli
    data = client.get("/api/search?q=rulings+of+Blood+Hunter+Zq&in=rulings").get_json()
    assert data["cards"]["cards"] == [] and [c["name"] for c in data["cards"]["closest"]][:1] == ["Blood Hunt"]
    assert data["try"][0] == {"say": "the rulings of Blood Hunt", "q": "Blood Hunt rulings", "in": None, "cards": None}
    assert {"say": "search the rules and the cards too", "q": None, "in": ["rules", "cards", "rulings"],
            "cards": None} in data["try"]
    nothing = client.get("/api/search?q=xyzzy+plugh+frobnicate").get_json()
    assert nothing["hits"] == [] and [t["cards"] for t in nothing["try"]] == [""]  # the card list
    assert client.get("/api/search?q=can+Govern+the+Unaligned+be+blocked").get_json()["try"] == []
    page = client.get("/search?q=rulings+of+Blood+Hunter+Zq").get_data(as_text=True)
    assert "No card is named “Blood Hunter Zq”" in page and "q=Blood+Hunt+rulings" in page
    result = runner.invoke(cli, ["search", "rulings of Nonexistent Cardname Zzq", "--in", "rulings"])
    assert result.exit_code == 1
    assert "no card is named 'Nonexistent Cardname Zzq'" in result.stderr and "try: the card list" in result.stderr


def test_a_ruling_hit_marks_each_search_s_own_words_around_the_same_link(client):
    """A ruling hit's HTML is kept once per ruling around its snippet (judge.web.pages.ruling_frame): the same
    ruling found by two searches links to its card page at its anchor both times, each with its own snippet (the
    API's, marking that search's words), never the other search's."""
    import re

    def shown(q):
        r = client.get("/search", query_string={"q": q, "in": "rulings"})
        assert r.status_code == 200
        page = dict(re.findall(r'<li class="hit kind-ruling">\s*<a class="hit-label" href="/card/[^"#]+#([^"]+)">'
                               r'.*?<p class="snippet">(.*?)</p>', r.get_data(as_text=True), re.S))
        api = client.get("/api/search", query_string={"q": q, "in": "rulings"}).get_json()
        return page, {h["id"]: h["snippet"] for h in api["hits"] if h["kind"] == "ruling"}

    (damage, damage_api), (strike, strike_api) = shown("dodge damage"), shown("dodge strike")
    assert damage == damage_api and strike == strike_api
    both = set(damage) & set(strike)
    assert any(damage[rid] != strike[rid] for rid in both), "a ruling should answer both, marked differently"
    assert all("<mark>strike" not in damage[rid].lower() for rid in both)
