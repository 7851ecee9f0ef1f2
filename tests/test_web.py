"""The web reference browser through Flask's test client, on the real corpus:
every page and API route, their 400 and 404 answers, hostile input, headers,
and the OpenAPI document against what the API really returns."""
from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import socket
import time
import urllib.request
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import parse_qs, quote, urlsplit

import pytest
from jsonschema import Draft202012Validator

from judge import lookup
from judge.model import RESOLVED
from judge.web import create_app
from judge.web.security import HEADERS

from conftest import start_judge_serve

ROOT = Path(__file__).resolve().parent.parent
XSS = "<script>alert(1)</script>\"'><img src=x onerror=alert(2)>"


@pytest.fixture(scope="module")
def app(corpus):
    return create_app(corpus)


@pytest.fixture(scope="module")
def client(app):
    return app.test_client()


class Node:
    def __init__(self, tag: str, attrs: dict, parent=None):
        self.tag, self.attrs, self.parent, self.children, self.text = tag, attrs, parent, [], ""

    def iter(self):
        yield self
        for child in self.children:
            yield from child.iter()

    def find_all(self, tag: str, **attrs) -> list[Node]:
        return [n for n in self.iter() if n.tag == tag and all(
            (v in n.attrs.get(k.rstrip("_"), "").split()) if k == "class_" else n.attrs.get(k) == v
            for k, v in attrs.items())]

    def full_text(self) -> str:
        return self.text + "".join(c.full_text() for c in self.children)


class _TreeBuilder(HTMLParser):
    VOID = frozenset({"meta", "link", "input", "br", "img", "hr", "source"})

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.root = self.current = Node("#root", {})

    def handle_starttag(self, tag, attrs):
        node = Node(tag, {k: v or "" for k, v in attrs}, self.current)
        self.current.children.append(node)
        if tag not in self.VOID:
            self.current = node

    def handle_endtag(self, tag):
        node = self.current
        while node is not None and node.tag != tag:
            node = node.parent
        if node is not None and node.parent is not None:
            self.current = node.parent

    def handle_data(self, data):
        text = Node("#text", {}, self.current)
        text.text = data
        self.current.children.append(text)


def page(response) -> Node:
    builder = _TreeBuilder()
    builder.feed(response.get_data(as_text=True))
    return builder.root


def links(node: Node) -> list[str]:
    return [a.attrs.get("href", "") for a in node.find_all("a")]


def section(tree: Node, heading_id: str) -> Node:
    """The <section> labelled by a heading id (aria-labelledby)."""
    found = [s for s in tree.find_all("section") if s.attrs.get("aria-labelledby") == heading_id]
    assert found, f"no section labelled {heading_id}"
    return found[0]


def item_url(ident: str) -> str:
    return "/p/" + quote(ident, safe="/:")


def schema_validator(client, name: str) -> Draft202012Validator:
    document = client.get("/api/openapi.json").get_json()
    return Draft202012Validator({"$ref": f"#/components/schemas/{name}", "components": document["components"]})


# -- home and search ------------------------------------------------------------------------
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
    site, client = app.extensions["judge"], app.test_client()
    calls = []
    search = site.searcher.search
    site.searcher.search = lambda *a, **k: calls.append(a) or search(*a, **k)
    try:
        page_hits = [li.find_all("a")[0].attrs["href"] for li in page(client.get("/search?q=torpor&fragment=1"))
                     .find_all("li", class_="hit")]
        client.get("/search?q=torpor")
        api_hits = [item_url(h["id"]) for h in client.get("/api/search?q=torpor").get_json()["hits"]]
    finally:
        del site.searcher.search
    assert len(calls) == 1 and page_hits == api_hits


def test_api_search_requires_a_query(client):
    response = client.get("/api/search")
    assert response.status_code == 400 and "'q'" in response.get_json()["error"]


def test_an_empty_search_page_shows_the_form(client):
    tree = page(client.get("/search"))
    assert tree.find_all("input", id="q") and not tree.find_all("li", class_="hit")


# -- hostile input -------------------------------------------------------------------------------
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


def test_the_search_box_keeps_a_hostile_query_as_text(client):
    tree = page(client.get("/search?q=" + quote(XSS)))
    assert tree.find_all("input", id="q")[0].attrs["value"] == XSS
    assert not tree.find_all("script", src="") and all(s.attrs["src"].startswith("/static/")
                                                         for s in tree.find_all("script"))


def test_json_answers_are_json_even_for_hostile_input(client):
    response = client.get("/api/paragraph/" + quote(XSS))
    assert response.status_code == 404 and response.mimetype == "application/json"
    assert response.get_json()["error"].startswith("no paragraph or section")


@pytest.mark.parametrize("url", ["/static/../pyproject.toml", "/static/%2e%2e/%2e%2e/pyproject.toml",
                                 "/p/../../pyproject.toml", "/doc/..%2f..%2fpyproject.toml",
                                 "/static/../../rules/manifest.yaml"])
def test_nothing_in_a_url_reaches_the_filesystem(client, url):
    response = client.get(url)
    assert response.status_code == 404
    assert b"build-system" not in response.data and b"documents:" not in response.data


# -- a paragraph, a section -----------------------------------------------------------------------
def test_paragraph_page_has_breadcrumb_text_citation_and_neighbours(client, corpus):
    para = corpus.paragraphs["rb:6.4.6/2"]
    tree = page(client.get(item_url(para.id)))
    crumbs = links(tree.find_all("nav", class_="breadcrumb")[0])
    assert crumbs == ["/doc/rb"] + [item_url(s.id) for s in corpus.section_path(para.id)]
    assert tree.find_all("h1")[0].full_text() == para.label
    assert tree.find_all("p", class_="cite-text")[0].full_text() == f"{para.label} — http://localhost/p/rb:6.4.6/2"
    copy = tree.find_all("button", class_="copy")[0]
    assert "hidden" in copy.attrs and copy.attrs["data-copy"].startswith(para.label)  # shown by the script
    nav = links(tree.find_all("nav", class_="prev-next")[0])
    assert nav == [item_url("rb:6.4.6/1"), item_url("rb:6.4.6/3")]


def test_headings_shouted_in_capitals_read_as_the_labels_write_them(client, corpus):
    para = corpus.paragraphs["vekn:torpor/3"]
    shouted = [s for s in corpus.section_path(para.id) if s.title.isupper()]
    assert shouted  # "3. MINION PHASE"
    crumbs = [a.full_text() for a in page(client.get(item_url(para.id))).find_all("nav", class_="breadcrumb")[0]
              .find_all("a")]
    for sec in shouted:
        assert sec.title not in crumbs and sec.label.split(" › ")[-1] in crumbs  # "3. Minion Phase"
    heading = page(client.get(item_url(shouted[0].id))).find_all("h1")[0].full_text()
    assert heading == shouted[0].label.split(" › ")[-1]


def test_glossary_terms_carry_their_definition(client, corpus):
    pid = next(p for p, spans in corpus.term_links.items() if len(spans) >= 3 and p.startswith("vekn:"))
    tree = page(client.get(item_url(pid)))
    terms = tree.find_all("div", class_="text")[0].find_all("a", class_="term")
    assert terms
    for term in terms:
        target = term.attrs["href"][len("/p/"):]
        definition = corpus.paragraphs[target].text
        assert term.attrs["title"].rstrip(" …")[:40] in definition


def test_resolved_references_are_links_to_their_targets(client, corpus):
    checked = 0
    for ref in corpus.references():
        if ref.status != RESOLVED or ref.source not in corpus.paragraphs or ref.span == (0, 0):
            continue
        tree = page(client.get(item_url(ref.source)))
        xrefs = [a.attrs["href"] for a in tree.find_all("div", class_="text")[0].find_all("a", class_="xref")]
        assert item_url(ref.target) in xrefs, (ref.source, ref.raw)
        assert not any("vekn.net" in h for h in xrefs)
        checked += 1
        if checked == 25:
            break
    assert checked == 25


def test_cited_by_lists_the_citing_paragraphs(client, corpus):
    refs = [r for r in corpus.references() if r.status == RESOLVED and r.target in corpus.paragraphs
            and r.source in corpus.paragraphs][:10]
    assert refs
    for ref in refs:
        tree = page(client.get(item_url(ref.target)))
        assert item_url(ref.source) in links(section(tree, "cited-by-h")), (ref.source, ref.target)


def test_same_rule_in_other_editions_and_related_rules(client):
    tree = page(client.get("/p/rb:6.4.6/2"))
    assert "/p/s6:6.4.6/2" in links(section(tree, "editions-h"))
    related = links(section(tree, "related-h"))
    assert any(h.startswith("/p/") for h in related) and "/graph/rb:6.4.6/2" in related


def test_section_page_shows_every_paragraph_with_a_permalink(client, corpus):
    sec = corpus.sections["vekn:bleed"]
    tree = page(client.get("/p/vekn:bleed"))
    shown = {d.attrs["id"] for d in tree.find_all("div", class_="para")}
    assert {p.id for p in corpus.paragraphs_of(sec.id)} == shown
    permalinks = {a.attrs["href"] for a in tree.find_all("a", class_="permalink")}
    assert {item_url(p) for p in sec.paragraphs} <= permalinks


def test_a_label_number_or_url_redirects_to_the_permalink(client, corpus):
    response = client.get("/p/" + quote("RB §6.4.6 ¶2"))
    assert response.status_code == 302 and response.headers["Location"] == "/p/rb:6.4.6/2"
    response = client.get("/p/6.4.6")
    assert response.status_code == 302
    target = client.get(response.headers["Location"])
    assert target.status_code == 200 and b'href="/p/rb:6.4.6"' in target.data  # "also names RB §6.4.6"
    url = "https://www.vekn.net/rulebook/4-detailed-turn-sequence#influence-phase"
    response = client.get("/p/" + quote(url, safe="/:"))  # a browser sends the '#' of a pasted URL as %23
    assert response.status_code == 302 and response.headers["Location"] == "/p/vekn:influence-phase"


def test_an_unknown_id_is_a_404_with_close_matches(client, corpus):
    wanted = "rb:6.4.7/9"
    expected = lookup.suggest(corpus, wanted)
    assert expected
    response = client.get("/p/" + wanted)
    assert response.status_code == 404
    assert [item_url(s) for s in expected] == [h for h in links(page(response)) if h in
                                               {item_url(s) for s in expected}]
    api = client.get("/api/paragraph/" + wanted)
    assert api.status_code == 404 and api.get_json()["suggestions"] == expected


@pytest.mark.parametrize("url, location", [
    ("/doc/VEKN", "/doc/vekn"), ("/doc/Rb", "/doc/rb"), ("/doc/S6", "/doc/s6"),
    ("/p/VEKN", "/doc/vekn"), ("/p/flows", "/doc/flows"),  # a book's name as an item: its contents
    ("/p/VEKN:BLEED/2", "/p/vekn:bleed/2"), ("/p/RB:6.4.6/2", "/p/rb:6.4.6/2"),
])
def test_ids_and_book_names_in_any_case_redirect_to_the_permalink(client, url, location):
    response = client.get(url)
    assert response.status_code == 302 and response.headers["Location"] == location
    assert client.get(location).status_code == 200


def test_the_api_reads_book_names_in_any_case(client):
    assert client.get("/api/toc/VEKN").get_json() == client.get("/api/toc/vekn").get_json()


def test_an_unknown_id_in_capitals_gets_close_matches(client, corpus):
    response = client.get("/p/VEKN:BLEED/99")
    assert response.status_code == 404
    suggested = [h for h in links(page(response)) if h.startswith("/p/vekn:bleed")]
    assert suggested and set(suggested) <= {item_url(i) for i in corpus.paragraphs}
    response = client.get("/doc/VEKNN")
    assert response.status_code == 404 and 'href="/doc/vekn"' in response.get_data(as_text=True)


def test_unknown_document_and_route_are_404(client):
    response = client.get("/doc/rbb")
    assert response.status_code == 404 and b'href="/doc/rb"' in response.data
    assert client.get("/no/such/page").status_code == 404
    assert client.get("/api/no/such/route").get_json()["status"] == 404


# -- table of contents, glossary, lint, graph ---------------------------------------------------------
def test_table_of_contents_links_every_section(client, corpus):
    for doc in corpus.documents.values():
        hrefs = set(links(page(client.get(f"/doc/{doc.id}")).find_all("nav", class_="toc")[0]))
        assert {item_url(s.id) for s in doc.sections} == hrefs


def test_glossary_lists_every_term_with_its_definition(client, corpus):
    tree = page(client.get("/glossary"))
    entries = {d.attrs["id"] for d in tree.find_all("div", class_="entry")}
    assert {pid for d in corpus.documents.values() for pid in d.glossary.values()} == entries
    # Each term is the entry's heading, not repeated at the start of its definition.
    for entry in tree.find_all("div", class_="entry"):
        term = entry.find_all("dt")[0].full_text().strip()
        definition = entry.find_all("dd")[0].full_text().strip()
        para = corpus.paragraphs[entry.attrs["id"]]
        if para.id in ("rb:1.1/1", "rb:world-of-darkness-glossary/18"):  # "1. Term: ..." and a fused "TermDefinition"
            continue
        head, colon, rest = para.text.partition(":")
        assert colon and term == head.strip() and not definition.startswith(f"{term}:"), (term, definition[:60])
        assert " ".join(definition.split())[:40] == " ".join(rest.split())[:40]
    only = page(client.get("/glossary?doc=rb"))
    assert all(d.attrs["id"].startswith("rb:") for d in only.find_all("div", class_="entry"))
    assert client.get("/glossary?doc=flows").status_code == 400  # no glossary there


def test_lint_report_shows_every_finding(client, corpus):
    from judge.lint import lint
    tree = page(client.get("/lint"))
    assert len(tree.find_all("li", class_="finding")) == len(lint(corpus))
    flows = page(client.get("/lint?doc=flows"))
    assert len(flows.find_all("li", class_="finding")) == len(lint(corpus, ["flows"]))
    assert client.get("/lint?doc=nope").status_code == 400


def test_graph_page_draws_the_neighbourhood(client, corpus):
    from judge.graph import get_graph, neighbourhood
    hood = neighbourhood(get_graph(corpus), "rb:6.4.6/2", 1)
    tree = page(client.get("/graph/rb:6.4.6/2"))
    svg = tree.find_all("svg", class_="graph")[0]
    drawn = {a.attrs["href"] for a in svg.find_all("a")}
    expected = {item_url(n["id"]) for n in hood["nodes"] if n["kind"] != "term"}
    assert expected <= drawn
    assert len(svg.find_all("circle")) == len(hood["nodes"])
    box = [float(v) for v in svg.attrs["viewbox"].split()]
    for text in svg.find_all("text"):  # every label inside the picture
        assert box[0] <= float(text.attrs["x"]) <= box[0] + box[2] and box[1] <= float(text.attrs["y"]) <= box[1] + box[3]
    assert client.get("/graph/rb:6.4.6/2?radius=9").status_code == 400
    assert client.get("/graph/rb:9.9.9/9").status_code == 404


# -- diff and scenario check ------------------------------------------------------------------------
def test_diff_page_puts_meaning_changes_first_with_word_marks(client):
    tree = page(client.get("/diff?old=rb&new=vekn&change=meaning&change=wording"))
    changes = [a.attrs["class"].split()[1] for a in tree.find_all("article", class_="change")]
    assert changes and changes == sorted(changes, key=["change-meaning", "change-wording"].index)
    first = tree.find_all("article", class_="change")[0]
    assert first.find_all("del") or first.find_all("ins")
    sides = [links(s) for s in first.find_all("div", class_="side")]
    assert sides[0][0].startswith("/p/rb:") and sides[1][0].startswith("/p/vekn:")


def test_diff_page_lists_every_moved_paragraph_with_links(client, corpus):
    from judge.compare.comparison import compare
    comparison = compare(corpus, "rb", "vekn")
    assert comparison.moved and any(p.pure_move for p in comparison.moved)
    tree = page(client.get("/diff?old=rb&new=vekn"))
    panel = next(d for d in tree.find_all("details") if d.attrs.get("id") == "moved")
    rows = panel.find_all("li")
    assert len(rows) == len(comparison.moved)
    for row, pair in zip(rows, comparison.moved):
        hrefs = links(row)
        assert item_url(pair.old[0].id) in hrefs and item_url(pair.new[0].id) in hrefs
        assert item_url(pair.moved.new_section) in hrefs
        text = row.full_text()
        assert ("text unchanged" in text) == pair.pure_move
    change_links = [h for h in links(panel) if h.startswith("/diff?")]
    assert change_links and all("#pair-" in h for h in change_links)
    assert "#moved" in links(tree)  # the summary's "66 moved" leads to the panel


@pytest.mark.parametrize("query", ["old=rb&new=rb", "old=rb", "old=vekn&new=rivals", "old=flows&new=vekn",
                                   "old=rb&new=vekn&page=0", "old=rb&new=vekn&change=big"])
def test_bad_diff_parameters_are_400(client, query):
    assert client.get(f"/diff?{query}").status_code == 400
    if "page" not in query and "change" not in query:  # the API has no pages nor filters
        assert client.get(f"/api/diff?{query}").status_code == 400


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
    assert "Refused" in error and "refused:" not in error  # said once


def test_a_malformed_scenario_is_400_naming_the_line(client):
    response = client.post("/check", data={"scenario": "players: [a, b]\nturn: a\nphase: minion\nevents: 7\n"})
    assert response.status_code == 400 and b"Line 4" in response.data
    api = client.post("/api/check", data="players: [a, b]\nturn: a\nphase: minion\nevents: 7\n")
    assert api.status_code == 400 and api.get_json()["line"] == 4
    assert client.post("/check", data={"scenario": "  "}).status_code == 400
    assert client.post("/api/check?rules=tomorrow", data="players: [a]").status_code == 400


# -- the JSON API and its OpenAPI document -------------------------------------------------------------
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
    from judge.shapes import show_data
    for ident in ("rb:6.4.6/2", "vekn:bleed", "IV.D.2"):
        assert client.get("/api/paragraph/" + ident).get_json() == show_data(corpus, ident)


def test_api_search_mirrors_the_cli_shape(client):
    data = client.get("/api/search?q=torpor&limit=3").get_json()
    assert data["query"] == "torpor" and len(data["hits"]) == 3
    assert {"id", "doc", "label", "text", "score", "snippet"} <= set(data["hits"][0])


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


# -- headers, caching, assets, errors ---------------------------------------------------------------------
@pytest.mark.parametrize("url", ["/", "/p/rb:6.4.6/2", "/api/search?q=bleed", "/p/nope", "/static/judge.css"])
def test_security_headers_on_every_response(client, url):
    response = client.get(url)
    for name, value in HEADERS.items():
        assert response.headers.get(name) == value
    assert "script-src 'self'" in response.headers["Content-Security-Policy"]


@pytest.mark.parametrize("snippet, html", [
    ("a <mark>bleed</mark> &amp; <mark>b</mark>", "a <mark>bleed</mark> &amp; <mark>b</mark>"),
    ("no marks &lt;here&gt;", "no marks &lt;here&gt;"),
    ("<mark>x</mark><script>y</script>", "&lt;mark&gt;x&lt;/mark&gt;&lt;script&gt;y&lt;/script&gt;"),
    ("<mark x>y</mark>", "&lt;mark x&gt;y&lt;/mark&gt;"),
    ("</mark><markup>", "&lt;/mark&gt;&lt;markup&gt;"),
])
def test_the_snippet_filter_lets_through_only_marks(snippet, html):
    from judge.web.pages import snippet_html
    assert str(snippet_html(snippet)) == html


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


def test_answers_carry_an_etag_and_a_revisit_gets_304(client):
    first = client.get("/p/rb:6.4.6/2")
    etag = first.headers["ETag"]
    assert first.headers["Cache-Control"] == "no-cache"
    again = client.get("/p/rb:6.4.6/2", headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.data
    assert again.headers["ETag"] == etag and again.headers["Content-Security-Policy"]
    assert client.get("/p/rb:6.4.6/2", headers={"If-None-Match": '"other"'}).status_code == 200


@pytest.mark.parametrize("cache_bytes", [0, 1_000_000], ids=["no cache", "cache"])
def test_etags_and_head_requests_with_and_without_the_cache(corpus, cache_bytes):
    """The ETag, the 304 on its first revisit and HEAD answers hold whether the
    cache keeps answers or not; a HEAD's headers are its GET's."""
    client = create_app(corpus, {"RESPONSE_CACHE_BYTES": cache_bytes}).test_client()
    url = "/search?q=" + quote("blood hunt") + "&kind=rule"
    head = client.head(url)  # asked first: nothing kept yet
    assert head.status_code == 200 and head.data == b""
    get = client.get(url)
    assert get.data and head.headers["ETag"] == get.headers["ETag"]
    assert int(head.headers["Content-Length"]) == len(get.data)
    assert client.get(url, headers={"If-None-Match": get.headers["ETag"]}).status_code == 304
    other = "/api/search?q=torpor"  # a revisit first seen with its ETag: no page in between
    etag = create_app(corpus).test_client().get(other).headers["ETag"]
    assert client.get(other, headers={"If-None-Match": etag}).status_code == 304
    assert client.head("/p/rb:0.0/0").status_code == 404 and "ETag" not in client.get("/p/rb:0.0/0").headers


def test_an_unexpected_error_is_a_500_page_without_traceback(corpus):
    app = create_app(corpus)

    def broken():
        raise RuntimeError("secret internal detail")
    app.add_url_rule("/broken", "broken", broken)
    response = app.test_client().get("/broken")
    assert response.status_code == 500
    assert b"Traceback" not in response.data and b"secret internal detail" not in response.data
    assert b"something went wrong" in response.data


# -- judge serve ---------------------------------------------------------------------------------
def test_serve_refuses_the_debugger_on_a_network_address():
    from click.testing import CliRunner

    from judge.commands.serve import serve
    result = CliRunner().invoke(serve, ["--debug", "--host", "0.0.0.0"])
    assert result.exit_code == 2 and "127.0.0.1 only" in result.output


@pytest.fixture
def busy_port():
    with socket.create_server(("127.0.0.1", 0)) as sock:
        yield sock.getsockname()[1]


@pytest.mark.parametrize("args, reason", [
    (["--port", "{busy}"], "already in use"),
    (["--host", "nosuch.invalid"], "unknown address"),
    (["--host", "999.1.1.1"], "unknown address"),
    (["--host", "192.0.2.1"], "no such address"),  # TEST-NET-1: never this machine's
])
def test_serve_says_why_it_cannot_listen_before_loading_anything(busy_port, args, reason):
    from click.testing import CliRunner

    from judge.commands.serve import serve
    started = time.monotonic()
    result = CliRunner().invoke(serve, [a.format(busy=busy_port) for a in args])
    assert result.exit_code == 2 and not isinstance(result.exception, OSError)
    lines = result.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: cannot listen on ") and reason in lines[0]
    assert "Traceback" not in result.output
    assert time.monotonic() - started < 5  # told before the corpus and the index are loaded


def test_serve_answers_at_once_on_the_port_it_chose_and_stops_on_ctrl_c():
    """`judge serve --port 0`: the port it names is the one it serves, each
    worker listening there on a socket of its own (the kernel spreads the
    connections); it says so once they all listen, so a request sent at once
    is answered; Ctrl-C (SIGINT to every process of the group) stops them all,
    a worker Granian fails to stop killed after WORKER_STOP_SECONDS."""
    from judge.commands.serve import WORKER_STOP_SECONDS
    proc, url, line = start_judge_serve("--workers", "2", new_session=True)
    workers = []
    try:
        assert "(2 processes × 1 thread;" in line
        port = int(url.rstrip("/").rsplit(":", 1)[1])
        assert port != 0 and listeners(port) == 2
        with urllib.request.urlopen(url + "p/rb:6.4.6/2", timeout=30) as answer:  # asked at once
            assert answer.status == 200 and "RB §6.4.6 ¶2".encode() in answer.read()
            assert answer.headers["Content-Security-Policy"].startswith("default-src 'none'")
        with urllib.request.urlopen(url + "api/search?q=torper", timeout=30) as answer:
            assert json.loads(answer.read())["did_you_mean"] == "torpor"
        workers = children_of(proc.pid)
        assert len(workers) == 2
        # Every thread of each worker, Granian's own included, runs as batch work
        # (batch_scheduling); the process that forked them does not.
        for pid in workers:
            assert scheduling_policies(pid) == {os.SCHED_BATCH}, pid
        assert os.sched_getscheduler(proc.pid) == os.SCHED_OTHER
        os.killpg(proc.pid, signal.SIGINT)
        proc.wait(timeout=WORKER_STOP_SECONDS + 10)
        time.sleep(0.5)
        assert not [pid for pid in workers if running(pid)]
    finally:
        if proc.poll() is None or any(running(pid) for pid in workers):
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)


def running(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def scheduling_policies(pid: int) -> set[int]:
    """The scheduling policies of a process's threads (those still running when asked)."""
    found = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):  # a thread that ended meanwhile
            found.add(os.sched_getscheduler(int(task.name)))
    return found


def listeners(port: int) -> int:
    from judge.commands.serve import _listeners
    return _listeners(port)


def children_of(pid: int) -> list[int]:
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == pid:
                found.append(int(stat.parent.name))
        except (OSError, ValueError, IndexError):
            pass
    return found


def test_templates_see_every_global_of_the_environment(app, client):
    """Template globals are a plain copy of the environment's (judge.web._TemplateEnvironment)."""
    assert client.get("/search?q=bleed").status_code == 200  # templates loaded
    env = app.jinja_env
    for name in ("base.html", "search.html", "_results.html", "_macros.html"):
        template = env.get_template(name)
        assert type(template.globals) is dict and template.globals == env.globals
    assert {"site", "site_links", "url_for"} <= set(env.globals)


def test_templates_come_from_the_configured_folder(app):
    from judge import paths
    assert app.jinja_loader.searchpath == [str(paths.templates_dir())]
    assert (paths.templates_dir() / "base.html").is_file()


def test_every_form_of_a_search_hit_is_rendered_before_the_first_search(corpus):
    """`render_hit_forms` (part of `warm`) renders each paragraph's parts of a hit with
    every set of its other editions marked as matched; searches afterwards, whose hits
    fold editions in, render none of their own."""
    from judge.web.pages import render_hit_forms
    app = create_app(corpus)
    site = app.extensions["judge"]
    with app.test_request_context("/"):
        forms = render_hit_forms(site)
    editions = site.searcher._current.editions
    assert forms == sum(2 ** len(editions.get(pid, ())) for pid in corpus.paragraphs) > len(corpus.paragraphs)
    kept = len(site._kept_for_good)
    client = app.test_client()
    matched = 0
    for q in ("bleed", "blood hunt", "torpor", "diablerie", "combat damage", "master phase", "vote", "hunt",
              "political action", "transfer", "influence", "contested"):
        page = client.get("/search", query_string={"q": q})
        assert page.status_code == 200
        matched += page.data.count(b'class="matched" title="also matches the query"')
    assert matched > 0  # hits with other editions matched were shown
    assert len(site._kept_for_good) == kept


# -- the response cache ------------------------------------------------------------------------------
def test_a_repeated_page_is_replayed_from_the_cache(corpus):
    app = create_app(corpus)
    cache, client = app.wsgi_app, app.test_client()
    first = client.get("/p/rb:6.4.6/2")
    hits = cache.hits
    again = client.get("/p/rb:6.4.6/2")
    assert cache.hits == hits + 1
    assert again.data == first.data and again.headers["ETag"] == first.headers["ETag"]
    assert again.headers["Content-Security-Policy"] == first.headers["Content-Security-Policy"]
    # The citation names the host the page was asked on: another host is another entry.
    other = client.get("/p/rb:6.4.6/2", headers={"Host": "judge.example"})
    assert b"http://judge.example/p/rb:6.4.6/2" in other.data and cache.hits == hits + 1


def test_errors_and_posts_are_never_cached(corpus):
    app = create_app(corpus)
    cache, client = app.wsgi_app, app.test_client()
    for _ in range(2):
        assert client.get("/p/rb:0.0/0").status_code == 404
        assert client.get("/search?q=bleed&limit=abc").status_code == 400
        client.post("/check", data={"scenario": "players: [a]"})
    assert cache.hits == 0 and cache.size == 0


def test_kept_answers_are_not_walked_by_the_garbage_collector(corpus):
    # Thousands of kept answers walked in every full collection made its pauses
    # (every waiting request's) ~15 ms longer: they are kept as plain tuples of strings
    # and bytes, which the collector stops tracking.
    import gc
    app = create_app(corpus)
    client = app.test_client()
    for url in ("/p/rb:6.4.6/2", "/search?q=bleed", "/api/search?q=bleed"):
        assert client.get(url).status_code == 200
    # A pass untracks a tuple once nothing in it is tracked, and may look at an answer
    # before its headers and those before their pairs: one level a pass at worst, as
    # the passes of a running server do. An object would stay tracked however many.
    for _ in range(3):
        gc.collect()
    entries = list(app.wsgi_app._entries.values())
    assert len(entries) == 3
    assert not any(gc.is_tracked(entry) for entry in entries)


def test_the_cache_stays_within_its_size(corpus):
    app = create_app(corpus, {"RESPONSE_CACHE_BYTES": 50_000})
    client = app.test_client()
    for ident in list(corpus.paragraphs)[:40]:
        assert client.get(item_url(ident)).status_code == 200
    assert 0 < app.wsgi_app.size <= 50_000
