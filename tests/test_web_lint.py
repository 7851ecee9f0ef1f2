"""The lint report page through Flask's test client on the real corpus."""
from __future__ import annotations




from web_pages import page


def test_lint_report_shows_every_finding(client, corpus):
    from judge.lint import lint
    tree = page(client.get("/lint"))
    assert len(tree.find_all("li", class_="finding")) == len(lint(corpus))
    flows = page(client.get("/lint?doc=flows"))
    assert len(flows.find_all("li", class_="finding")) == len(lint(corpus, ["flows"]))
    assert client.get("/lint?doc=nope").status_code == 400
