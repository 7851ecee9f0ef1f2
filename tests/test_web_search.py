"""The search page, its live results fragment and the search API, through Flask's test client
on the real corpus: hits, marks, facets, did-you-mean, direct answers, bad parameters."""
from __future__ import annotations

import os
import re
from itertools import product
from html import unescape
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from flask import get_template_attribute
from markupsafe import Markup

from judge import memo
from judge.web.app import create_app
from judge.web.pages import hit_frame
from judge.web.warmup import warm_search_pages

from web_pages import XSS, item_url, links, page


def test_home_focuses_the_search_box_and_lists_every_book(client, corpus):
    tree = page(client.get("/"))
    box = [i for i in tree.find_all("input") if i.attrs.get("name") == "q"]
    assert len(box) == 1 and "autofocus" in box[0].attrs
    form = box[0].parent
    while form.tag != "form":
        form = form.parent
    assert form.attrs["action"] == "/search" and form.attrs["method"] == "get"
    assert {f"/doc/{d}" for d in corpus.documents} <= set(links(tree))


def test_search_marks_the_matched_words_and_links_each_hit(client):
    tree = page(client.get("/search?q=bleed"))
    hits = tree.find_all("li", class_="hit")
    assert len(hits) >= 5
    for hit in hits:
        assert hit.find_all("a")[0].attrs["href"].startswith("/p/")
    marks = [m.full_text().lower() for m in tree.find_all("mark")]
    assert marks and all(m.startswith(("bleed", "bled")) for m in marks)  # bleed, bleeding, bled


def test_search_facets_count_and_filter_by_document_and_kind(client, corpus):
    tree = page(client.get("/search?q=bleed"))
    facets = {a.attrs["href"]: a.full_text() for a in tree.find_all("a", class_="facet")}
    by_doc = {parse_qs(urlsplit(h).query)["doc"][0]: t for h, t in facets.items() if "doc=" in h}
    assert set(by_doc) <= set(corpus.documents) and len(by_doc) >= 2
    filtered = page(client.get("/search?q=bleed&doc=rb"))
    hrefs = [h.find_all("a")[0].attrs["href"] for h in filtered.find_all("li", class_="hit")]
    assert hrefs and all(h.startswith("/p/rb:") for h in hrefs)
    active = filtered.find_all("a", class_="active")
    assert any("doc=rb" not in a.attrs["href"] for a in active)  # the active facet's link removes it
    examples = page(client.get("/search?q=bleed&kind=example"))
    assert all("kind-example" in h.attrs["class"] for h in examples.find_all("li", class_="hit"))


def test_search_offers_did_you_mean_for_a_typo(client):
    tree = page(client.get("/search?q=blok+an+acton"))
    suggestion = tree.find_all("p", class_="did-you-mean")
    assert suggestion
    href = suggestion[0].find_all("a")[0].attrs["href"]
    assert parse_qs(urlsplit(href).query)["q"] == ["block an action"]


def test_search_for_a_section_number_goes_straight_to_it(client):
    tree = page(client.get("/search?q=6.4.6"))
    direct = tree.find_all("p", class_="direct")
    assert direct
    assert {"/p/s6:6.4.6", "/p/rb:6.4.6"} <= set(links(direct[0]))


def test_search_groups_the_same_rule_in_other_editions(client):
    data = client.get("/api/search?q=damage+prevention+cards+one+at+a+time&limit=10").get_json()
    grouped = [h for h in data["hits"] if h["editions"]]
    assert grouped
    tree = page(client.get("/search?q=damage+prevention+cards+one+at+a+time&limit=10"))
    also = [a.attrs["href"] for p in tree.find_all("p", class_="editions") for a in p.find_all("a")]
    assert item_url(grouped[0]["editions"][0]["id"]) in also


def test_results_as_you_type_get_a_fragment_of_the_same_results(client):
    full = page(client.get("/search?q=torpor"))
    fragment = client.get("/search?q=torpor&fragment=1").get_data(as_text=True)
    assert "<html" not in fragment and "<form" not in fragment
    first = full.find_all("li", class_="hit")[0].find_all("a")[0].attrs["href"]
    assert f'href="{first}"' in fragment


@pytest.mark.parametrize("query, parameter", [
    ("q=bleed&limit=abc", "limit"), ("q=bleed&limit=0", "limit"), ("q=bleed&limit=101", "limit"),
    ("q=bleed&doc=nosuchbook", "doc"), ("q=bleed&kind=poem", "kind"), ("q=bleed&game=chess", "game"),
    ("q=" + "a" * 501, "q"),
])
def test_bad_search_parameters_are_400_with_a_message(client, query, parameter):
    for url in (f"/search?{query}", f"/api/search?{query}"):
        response = client.get(url)
        assert response.status_code == 400
        message = response.get_json()["error"] if url.startswith("/api/") else unescape(response.get_data(as_text=True))
        assert f"parameter '{parameter}'" in message


def test_the_page_its_live_fragment_and_the_api_share_one_search(corpus):
    app = create_app(corpus, {"RESPONSE_CACHE_BYTES": 0})
    client = app.test_client()
    before = memo.statistics().get("web.searches", {"misses": 0})["misses"]
    page_hits = [li.find_all("a")[0].attrs["href"] for li in page(client.get("/search?q=torpor+unique&fragment=1"))
                 .find_all("li", class_="hit")]
    client.get("/search?q=torpor+unique")
    api_hits = [item_url(h["id"]) for h in client.get("/api/search?q=torpor+unique").get_json()["hits"]]
    assert page_hits == api_hits
    assert memo.statistics()["web.searches"]["misses"] == before + 1  # one search answered all three


def test_api_search_requires_a_query(client):
    response = client.get("/api/search")
    assert response.status_code == 400 and "'q'" in response.get_json()["error"]


def test_an_empty_search_page_shows_the_form(client):
    tree = page(client.get("/search"))
    assert tree.find_all("input", id="q") and not tree.find_all("li", class_="hit")


def test_the_search_box_keeps_a_hostile_query_as_text(client):
    tree = page(client.get("/search?q=" + quote(XSS)))
    assert tree.find_all("input", id="q")[0].attrs["value"] == XSS
    assert not tree.find_all("script", src="") and all(s.attrs["src"].startswith("/static/")
                                                         for s in tree.find_all("script"))


def test_api_search_mirrors_the_cli_shape(client):
    data = client.get("/api/search?q=torpor&limit=3").get_json()
    assert data["query"] == "torpor" and len(data["hits"]) == 3
    assert {"id", "doc", "label", "text", "score", "snippet"} <= set(data["hits"][0])


def test_the_snippet_marks_the_matched_words_and_escapes_the_rest(client):
    body = client.get("/search?q=insert+icon&limit=20").get_data(as_text=True)
    assert "&lt;<mark>INSERT</mark> POLITICAL ACTION <mark>ICON</mark>&gt;" in body
    for snippet in re.findall(r'<p class="snippet">(.*?)</p>', body, re.S):
        assert re.sub(r"</?mark>", "", snippet).count("<") == 0


def test_the_warm_up_renders_each_hit_frame_once_and_searches_compose_the_rest(corpus):
    """The warm-up renders each paragraph's hit frame once (its game said or not) and its link
    as another edition's hit lists it (matched or not), not each form a hit can take (each set
    of its counterparts matching the query too: 2^editions): each form is joined from those,
    equal to the macro rendered for it; searches then, whose hits fold counterparts in,
    render nothing of their own."""
    app = create_app(corpus)
    site = app.extensions["judge"]

    def misses() -> tuple[int, int]:
        # this site's own memos: `memo.statistics()` sums every site alive, and an earlier
        # test's site collected meanwhile took its misses out of the sum
        return site.hit_frames.misses, site.edition_links.misses

    before = misses()
    with app.test_request_context("/"):
        frames = warm_search_pages(site)
        assert frames == 2 * len(corpus.paragraphs)
        assert misses() == (before[0] + frames, before[1] + 2 * len(corpus.paragraphs))
        warmed = misses()
        macro, link = (get_template_attribute("_macros.html", name) for name in ("hit", "edition_link"))
        forms = 0
        for pid in corpus.paragraphs:
            hit = site.searcher.paragraph_hit(pid)
            plain = hit.counterparts
            for marks in product((False, True), repeat=len(plain)):
                hit.counterparts = tuple(c._replace(matched=m) for c, m in zip(plain, marks))
                links = [link(c.id, c.label, c.edition, c.matched) for c in hit.counterparts]
                for show_game in (False, True):
                    start, end = hit_frame(hit, show_game=show_game)
                    rendered = str(macro(hit.id, hit.label, hit.kind, links, snippet=Markup("SNIPPET"),
                                         game=show_game and hit.game, older=not hit.in_force, ocr=hit.ocr))
                    assert start + "SNIPPET" + end == rendered, (pid, marks, show_game)
                    forms += 1
        assert forms > frames  # hits with counterparts, in each of their forms
        assert misses() == warmed
    client = app.test_client()
    matched = 0
    for q in ("bleed", "blood hunt", "torpor", "diablerie", "combat damage", "master phase", "vote", "hunt",
              "political action", "transfer", "influence", "contested"):
        for game in ("", "all"):
            page = client.get("/search", query_string={"q": q, "game": game})
            assert page.status_code == 200
            matched += page.data.count(b'class="matched" title="also matches the query"')
    assert matched > 0  # hits with counterparts matched were shown
    assert misses() == warmed


def test_an_edited_synonyms_file_changes_the_answers_kept_before(corpus, data_copy, monkeypatch):
    """The synonyms file is read again when it changes: an answer kept from before (by the
    response cache, by the site's last searches) is not given for the same URL after."""
    import judge.search.synonyms as synonyms
    monkeypatch.setattr(synonyms, "SYNONYMS_CHECK_SECONDS", 0)  # every search looks at the file
    client = create_app(corpus).test_client()
    path = data_copy / "synonyms.yaml"
    url = "/api/search?q=zorp+a+minion"

    def marked_words() -> set[str]:
        return {text.lower() for hit in client.get(url).json["hits"] for text, marked in hit["snippet_runs"] if marked}

    assert "lock" not in marked_words()  # "zorp" is no word of the books
    path.write_text(path.read_text(encoding="utf-8").replace("- terms: [lock, tap]", "- terms: [lock, tap, zorp]"),
                    encoding="utf-8")
    os.utime(path, ns=(0, 10**18))  # a new date, whatever the file system's clock resolution
    assert "lock" in marked_words()  # "zorp" now finds "lock"
