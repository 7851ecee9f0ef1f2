"""The lint report page through Flask's test client on the real corpus."""
from __future__ import annotations

import re




from web_pages import links, page


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
        where = " ".join(f.find_all("span", class_="where")[0].full_text().split())
        # Book and section first (issue 38), then the line of the source file.
        assert re.fullmatch(r"(VEKN|S6|RB|Flows|Rivals)\b[^()]* \(line \d+ of \S+\)", where), where
        assert any(where.endswith(f" of {name})") for name in files), where
        assert not re.search(r"\b[a-z0-9]+:\d+\b", where), where  # nothing like "vekn:434"
    located = [f for f in findings if f.find_all("span", class_="where")[0].find_all("a")]
    assert len(located) > 20 and all(links(f)[0].startswith("/p/") for f in located)
    linked = [f for f in findings if f.find_all("p", class_="in-paragraph")]
    assert linked and all(f.find_all("p", class_="in-paragraph")[0].find_all("a") for f in linked)


def test_no_finding_shows_a_source_file_s_internal_marker(client):
    for finding in client.get("/api/lint").get_json():
        assert "<|" not in finding["message"] and "|>" not in finding["message"], finding
        line = f"line {finding['line']} of {finding['file']}"
        assert finding["location"] in (line, f"{finding['section_label']}, {line}")
        if finding["section"]:
            assert finding["section_label"].split()[0] in ("VEKN", "S6", "RB", "Flows", "Rivals")


# -- issue 38: a draft linted on the web -------------------------------------------------------------------------
def _draft_of_the_current_book() -> str:
    from web_pages import ROOT
    text = (ROOT / "rules" / "000_24de3990c1110259.txt").read_text(encoding="utf-8")
    assert text.count("you receive **0.5** victory points") == 1 and text.count("#Contested-cards)") == 1
    return text.replace("you receive **0.5** victory points", "you receive **1** victory points") \
        .replace("#Contested-cards)", "#no-such-anchor)")


def test_a_draft_uploaded_to_lint_shows_its_changes_and_findings_by_book_and_section(client):
    import io
    r = client.post("/lint", data={"doc": "vekn", "file": (io.BytesIO(_draft_of_the_current_book().encode()),
                                                           "vekn-2027.md")}, content_type="multipart/form-data")
    assert r.status_code == 200
    tree = page(r)
    assert "Lint of vekn-2027.md" in tree.find_all("h1")[0].full_text()
    changes = tree.find_all("article", class_="change")
    assert [a.attrs["id"] for a in changes] == ["pair-vekn:ending-the-game/12", "pair-vekn:crypt-cards/3"]
    assert "0.5 -> 1" in changes[0].full_text() and changes[0].find_all("del") and changes[0].find_all("ins")
    broken = [f for f in tree.find_all("li", class_="finding") if "#no-such-anchor" in f.full_text()]
    assert len(broken) == 1
    where = " ".join(broken[0].find_all("span", class_="where")[0].full_text().split())
    assert where == "VEKN › 2. Card Types › Crypt Cards (line 98)"


def test_a_pasted_draft_is_linted_and_kept_in_the_form_on_an_error(client):
    pasted = "6.1. Actions\n\n6.1.1. Bleed\n\nA minion can bleed [insert link here].\n"
    r = client.post("/lint", data={"doc": "s6", "draft": pasted})
    assert r.status_code == 200
    tree = page(r)
    assert "Lint of the pasted draft" in tree.full_text() and "placeholder" in tree.full_text()
    refused = client.post("/lint", data={"doc": "vekn", "draft": "just words, no heading"})
    assert refused.status_code == 400
    assert "cannot read it as a draft of VEKN" in refused.get_data(as_text=True)
    assert page(refused).find_all("textarea")[0].full_text() == "just words, no heading"


def test_bad_drafts_are_clear_errors(client):
    import io
    cases = [({"doc": "vekn", "draft": "  "}, 400, "is empty"),
             ({"doc": "flows", "draft": "x"}, 400, "choose the book the draft is of"),
             ({"doc": "vekn", "file": (io.BytesIO(b"\xff\xfe\x00"), "scan.pdf")}, 400, "scan.pdf: byte 0 is not UTF-8"),
             ({"doc": "vekn", "draft": "# A\n\x00"}, 400, "NUL character"),
             ({"doc": "vekn", "draft": "x" * (2 * 1024 * 1024)}, 413, "reads a draft of at most 1,048,576 bytes")]
    for data, status, words in cases:
        r = client.post("/lint", data=data, content_type="multipart/form-data")
        assert r.status_code == status and words in " ".join(page(r).full_text().split()), words
