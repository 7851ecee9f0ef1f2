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
