"""The graph page (a rule's neighbourhood, drawn and listed) through Flask's test client."""
from __future__ import annotations




from web_pages import item_url, page


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


# -- issue 25: the graph's entry page ---------------------------------------------------------------
def test_the_graph_entry_page_lists_hubs_and_orphans_and_starts_from_a_rule(client, corpus):
    from judge import graph as G
    from web_pages import links, page
    response = client.get("/graph")
    assert response.status_code == 200
    tree = page(response)
    hubs = links([s for s in tree.find_all("section") if "hubs" in s.attrs.get("class", "")][0])
    top = G.hubs(G.get_graph(corpus), 1)[0]["id"]
    assert f"/graph/{top}" in hubs
    orphans = [s for s in tree.find_all("section") if "orphans" in s.attrs.get("class", "")][0]
    assert len(orphans.find_all("li")) > 5
    assert client.get("/graph?start=rb:6.4.6/2").headers["Location"] == "/graph/rb:6.4.6/2"
    assert client.get("/graph?start=6.4.6").status_code == 302
    missing = client.get("/graph?start=zzqqxxvv")
    assert missing.status_code == 404 and "no rule matches" in missing.get_data(as_text=True)
    assert page(missing).find_all("form", class_="graph-start")
    # reachable from every page's footer
    assert "/graph" in links(page(client.get("/glossary")).find_all("footer")[0])
