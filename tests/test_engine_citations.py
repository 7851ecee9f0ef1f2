"""Every citation in the engine is found in the books: exactly one existing paragraph containing its quote."""
from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace

import pytest

from judge.engine import citations as C
from judge.engine.vtes import rules as R
from judge.model import Paragraph, Section

ENGINE = Path(R.__file__).resolve().parent
RULES = R.all_rules()
CITES = [(rule, ed, cite) for rule in RULES for ed in C.RULES_EDITIONS for cite in rule.cites(ed)]


def test_there_are_rules_and_each_names_paragraphs():
    assert len(RULES) >= 90
    for rule in RULES:
        assert rule.current or rule.older, rule.name
        assert rule.what, rule.name


@pytest.mark.parametrize("rule, ed, cite", CITES, ids=[f"{r.name}-{e}-{i}" for i, (r, e, c) in enumerate(CITES)])
def test_every_cite_locates_one_paragraph_containing_its_quote(rule, ed, cite, corpus):
    pid = C.locate(cite, corpus)
    para = corpus.paragraphs[pid]
    assert para.doc == cite.doc == ("vekn" if ed == C.CURRENT else "rb")
    assert C.normalize(cite.quote) in C.normalize(para.text)
    # The paragraph is in the cited section or one of its subsections.
    path = [s.id for s in corpus.section_path(pid)]
    assert cite.section_id in path, (pid, path)
    # Unique: no other paragraph of that section's own level contains the quote.
    section = corpus.sections[cite.section_id]
    own = [p for p in section.paragraphs if C.normalize(cite.quote) in C.normalize(corpus.paragraphs[p].text)]
    assert len(own) <= 1


def test_edition_specific_rules():
    assert R.WITHDRAW_VP.exists_in(C.CURRENT) and R.WITHDRAW_VP.exists_in(C.OLDER)
    assert R.BLEED_LIMITED.exists_in(C.CURRENT) and not R.BLEED_LIMITED.exists_in(C.OLDER)
    assert R.INFLUENCE_ANY_TIME.exists_in(C.CURRENT) and not R.INFLUENCE_ANY_TIME.exists_in(C.OLDER)
    assert R.INFLUENCE_AT_END.exists_in(C.OLDER) and not R.INFLUENCE_AT_END.exists_in(C.CURRENT)
    assert "0.5" in R.WITHDRAW_VP.current[0].quote and "one" in R.WITHDRAW_VP.older[0].quote
    assert C.rules_edition("vekn") == C.CURRENT and C.rules_edition("RB") == C.OLDER
    with pytest.raises(KeyError):
        C.rules_edition("fifth")


CITATION_FILES = ("citations.py", "rules.py")


def test_cites_live_only_in_rules_py():
    """The engine names Rules; paragraphs are data in rules.py (built with citations.py's V and RB), so this test
    sees them all."""
    for path in ENGINE.glob("*.py"):
        if path.name in CITATION_FILES:
            continue
        text = path.read_text()
        assert not re.search(r"\b(Cite|V|RB)\(", text), f"{path.name} builds a citation outside rules.py"


def test_every_rule_the_engine_names_exists():
    names = {r.name for r in RULES}
    used = set()
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        used |= set(re.findall(r"\bR\.([A-Z][A-Z_]+)\b", text))
        for group in re.findall(r"rules=\(([^)]*)\)", text):
            used |= set(re.findall(r'"([A-Z_]+)"', group))
    used -= {"WITHDRAW_POINTS", "ANARCH_NEW_SECT"}
    assert used <= names, used - names
    # and every rule is applied somewhere
    assert names == used, names - used


def _fake_corpus():
    def para(pid, sec, text):
        return Paragraph(id=pid, doc="x", section=sec, key=pid[-1], label=pid, kind="rule", text=text, lines=(1, 1))

    paragraphs = {p.id: p for p in [para("x:a/1", "x:a", "The cost is **1 pool**."),
                                    para("x:a/2", "x:a", "Another rule."),
                                    para("x:a.b/1", "x:a.b", "Deep rule: the  Edge moves."),
                                    para("x:a.b/2", "x:a.b", "The Edge moves again.")]}
    sections = {
        "x:a": Section(id="x:a", doc="x", key="a", title="A", level=1, label="A", children=["x:a.b"],
                       paragraphs=["x:a/1", "x:a/2"]),
        "x:a.b": Section(id="x:a.b", doc="x", key="a.b", title="B", level=2, label="B", parent="x:a",
                         paragraphs=["x:a.b/1", "x:a.b/2"]),
    }
    return SimpleNamespace(paragraphs=paragraphs, sections=sections)


def test_how_a_cite_is_located():
    corpus = _fake_corpus()
    assert C.locate(C.Cite("x", "a", "cost is 1 POOL"), corpus) == "x:a/1"  # case, markup
    assert C.locate(C.Cite("x", "a", "deep rule: the edge"), corpus) == "x:a.b/1"  # whitespace, subsection
    with pytest.raises(C.CiteError, match="2 paragraphs"):
        C.locate(C.Cite("x", "a", "edge moves"), corpus)
    with pytest.raises(C.CiteError, match="not found"):
        C.locate(C.Cite("x", "a", "no such words"), corpus)
    with pytest.raises(C.CiteError, match="no section"):
        C.locate(C.Cite("x", "zz", "rule"), corpus)
    assert C.CiteLocator(corpus).id(C.Cite("x", "a", "nothing here")) is None
