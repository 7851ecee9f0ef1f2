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


# -- issue 25: a diff for editors ------------------------------------------------------------------
def test_only_editions_of_one_game_are_offered_and_a_bad_pair_is_told_with_the_form(client, corpus):
    tree = page(client.get("/diff"))
    offered = [h for h in links(tree) if h.startswith("/diff?old=")]
    assert offered
    for href in offered:
        old, new = (part.split("=", 1)[1] for part in href.split("?", 1)[1].split("&")[:2])
        assert old != new and corpus.documents[old].meta.game == corpus.documents[new].meta.game, href
    for query, said in (("old=rivals&new=vekn", "different games"), ("old=vekn&new=vekn", "two different")):
        response = client.get("/diff?" + query)
        assert response.status_code == 400
        tree = page(response)
        assert said in tree.find_all("p", class_="error")[0].full_text()
        assert tree.find_all("form", class_="diff-form"), "the form is gone"
    assert client.get("/api/diff?old=rivals&new=vekn").status_code == 400


def test_changes_run_rules_first_and_introduction_and_flavour_last(app, corpus):
    from judge.compare.comparison import KIND_IMPORTANCE
    comparison = app.extensions["judge"].comparison("rb", "vekn")
    meaning = [c for c in comparison.pairs if c.change == "meaning"]
    kinds = [c.new[0].kind for c in meaning]
    assert kinds[0] == "rule"
    ranks = [min(KIND_IMPORTANCE.get(p.kind, 1) for p in c.new) for c in meaning]
    preface = [i for i, c in enumerate(meaning)
               if "introduction" in corpus.section_path(c.new[0].id)[0].title.lower()]
    last_rule = max(i for i, c in enumerate(meaning) if ranks[i] == 0 and i not in preface)
    assert all(i > last_rule for i in preface)
    flavour = [i for i, k in enumerate(kinds) if k == "flavor"]
    assert all(i > last_rule for i in flavour)


def test_the_diff_has_a_table_of_contents_and_links_each_change_to_both_rules(client):
    tree = page(client.get("/diff?old=rb&new=vekn"))
    contents = tree.find_all("details", class_="diff-contents")[0]
    chapters = links(contents)
    assert len(chapters) >= 5 and all("#pair-" in h for h in chapters)
    for change in tree.find_all("article", class_="change")[:5]:
        hrefs = links(change.find_all("p", class_="change-links")[0])
        assert len([h for h in hrefs if h.startswith("/p/rb:")]) == 1
        assert len([h for h in hrefs if h.startswith("/p/vekn:")]) == 1
        assert len([h for h in hrefs if h.startswith("/history/vekn:")]) == 1


def test_history_page_follows_a_rule_through_three_editions(client):
    tree = page(client.get("/history/s6:6.2.2/9"))
    entries = tree.find_all("li", class_="history-entry")
    assert [e.attrs["id"] for e in entries] == ["edition-rb", "edition-s6", "edition-vekn"]
    hrefs = [links(e) for e in entries]
    assert item_url("rb:6.2.2/9") in hrefs[0] and item_url("s6:6.2.2/9") in hrefs[1]
    assert item_url("vekn:stealth-and-intercept/8") in hrefs[2]
    assert "only by scan damage" in entries[1].full_text()  # rb -> s6: the scan's damage, not an edit
    # Linked from the rule's page and from the diff; a label or number leads to the rule's own history.
    assert "/history/s6:6.2.2/9" in links(page(client.get(item_url("s6:6.2.2/9"))))
    moved = client.get("/history/RB 6.2.2")
    assert moved.status_code in (302, 404)
    assert client.get("/history/no-such-rule").status_code == 404
    assert client.get("/history/" + "x" * 5000).status_code == 404
    edited = page(client.get("/history/vekn:ending-the-game/12"))
    vekn = edited.find_all("li", class_="history-entry")[-1]
    assert vekn.find_all("del") and vekn.find_all("ins") and "1 -> 0.5" in vekn.full_text()
    api = client.get("/api/history/vekn:ending-the-game/12").get_json()
    assert [e["doc"] for e in api["editions"]] == ["rb", "s6", "vekn"]


def test_history_of_a_rule_of_a_single_edition_game_is_not_offered(client):
    tree = page(client.get(item_url("rivals:glossary/1")))
    assert not [h for h in links(tree) if h.startswith("/history/")]
