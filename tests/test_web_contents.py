"""The tables of contents and the glossary pages through Flask's test client on the real corpus."""
from __future__ import annotations




from web_pages import item_url, links, page


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
