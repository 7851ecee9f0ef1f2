"""The diff page (two editions side by side) through Flask's test client on the real corpus."""
from __future__ import annotations


import pytest


from web_pages import item_url, links, page


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
