"""The lint report page through Flask's test client on the real corpus."""
from __future__ import annotations

import re




from web_pages import page


def test_lint_report_shows_every_finding(client, corpus):
    from judge.lint import lint
    tree = page(client.get("/lint"))
    assert len(tree.find_all("li", class_="finding")) == len(lint(corpus))
    flows = page(client.get("/lint?doc=flows"))
    assert len(flows.find_all("li", class_="finding")) == len(lint(corpus, ["flows"]))
    assert client.get("/lint?doc=nope").status_code == 400


# -- issue 25: locations that say what they are, no internal markers --------------------------------
def test_lint_locations_read_as_a_line_of_a_file_and_a_paragraph_link(client, corpus):
    from web_pages import page
    tree = page(client.get("/lint"))
    findings = tree.find_all("li", class_="finding")
    assert len(findings) > 20
    files = {d.meta.source for d in corpus.documents.values()}
    for f in findings:
        where = f.find_all("span", class_="where")[0].full_text()
        assert re.search(r", line \d+ of ", where) and any(where.endswith(name) for name in files), where
        assert not re.search(r"\b[a-z0-9]+:\d+\b", where), where  # nothing like "vekn:434"
    linked = [f for f in findings if f.find_all("p", class_="in-paragraph")]
    assert linked and all(f.find_all("p", class_="in-paragraph")[0].find_all("a") for f in linked)


def test_no_finding_shows_a_source_file_s_internal_marker(client):
    for finding in client.get("/api/lint").get_json():
        assert "<|" not in finding["message"] and "|>" not in finding["message"], finding
        assert finding["location"] == f"line {finding['line']} of {finding['file']}"
