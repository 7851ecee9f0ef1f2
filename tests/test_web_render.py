"""Rendering a paragraph: the book's Markdown through the markdown library, with
references and glossary terms (spans of the clean text) placed into it."""
from __future__ import annotations

import re
from dataclasses import replace

import pytest

from judge.model import RESOLVED
from judge.web.render import ParagraphRenderer, align


@pytest.fixture(scope="module")
def renderer(corpus):
    return ParagraphRenderer(corpus, lambda ident: f"/p/{ident}")


def test_almost_every_reference_and_term_finds_its_place(corpus, renderer):
    placed = wanted = 0
    for para in corpus.paragraphs.values():
        out = renderer.render(para)
        placed += out.placed
        wanted += out.wanted
    assert wanted > 3000
    assert placed / wanted > 0.995, f"{wanted - placed} of {wanted} spans could not be placed"


def test_each_resolved_reference_links_to_its_target(corpus, renderer):
    for para in corpus.paragraphs.values():
        html = str(renderer.render(para).html)
        for ref in para.refs:
            if ref.status == RESOLVED and ref.span != (0, 0):
                assert f'href="/p/{ref.target}"' in html, (para.id, ref.raw)


def test_vekn_links_become_links_inside_the_browser(corpus, renderer):
    para = corpus.paragraphs["vekn:crypt-cards/3"]
    html = str(renderer.render(para).html)
    target = next(r.target for r in para.refs if r.raw.startswith("https://www.vekn.net"))
    assert f'<a class="xref" href="/p/{target}"' in html and "vekn.net" not in html
    assert "<strong>Contested Cards</strong></a>" in html  # the Markdown's bold survives


def test_the_books_own_angle_brackets_are_text(corpus, renderer):
    para = next(p for p in corpus.paragraphs.values() if "<INSERT" in p.markdown)
    html = str(renderer.render(para).html)
    assert "&lt;INSERT" in html and "<INSERT" not in html


def test_numbered_items_keep_their_number(corpus, renderer):
    para = next(p for p in corpus.paragraphs.values() if re.match(r"2\. \S", p.markdown))
    assert '<ol start="2">' in str(renderer.render(para).html)


def test_hostile_markdown_is_neutralised(corpus, renderer):
    base = corpus.paragraphs["rb:6.4.6/2"]
    hostile = ("[click](javascript:alert(1)) <script>alert(2)</script> ![x](http://evil.example/x.png) "
               "[site](https://example.org/a) <b onmouseover=alert(3)>bold</b>")
    para = replace(base, id="test:hostile/1", markdown=hostile, text=hostile, refs=[])
    html = str(renderer.render(para).html)
    assert "javascript:" not in html and "<script" not in html and "<img" not in html and "<b " not in html
    assert '<a class="external" href="https://example.org/a" rel="noopener noreferrer nofollow">' in html


def test_a_term_becomes_a_link_with_its_definition(corpus, renderer):
    pid, spans = next((p, s) for p, s in corpus.term_links.items() if p.startswith("rb:"))
    html = str(renderer.render(corpus.paragraphs[pid]).html)
    term, _, _, target = spans[0]
    found = re.search(rf'<a class="term" href="/p/{re.escape(target)}" title="([^"]*)">{re.escape(term)}</a>', html)
    assert found
    assert found.group(1).replace("&#x27;", "'").replace("&quot;", '"').rstrip(" …")[:30] in corpus.paragraphs[target].text


def test_alignment_skips_markup_and_link_targets():
    source = "See [**Influence Phase**](https://www.vekn.net/rulebook#influence-phase) and *tap* it."
    text = "See Influence Phase and tap it."
    positions = align(text, source)
    assert "".join(source[p] for p in positions) == text
    assert source[positions[text.index("and")]:].startswith("and")
