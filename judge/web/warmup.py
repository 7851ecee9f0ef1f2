"""The warm-up: everything a server computes before its first visitor, in one place.

`judge serve` calls `warm(app)` once, then forks its workers, which share what
was computed. Without it each worker would compute the same things visitor by
visitor: a rule page never seen would cost several times more, and a new
server's first thousands of search pages would each meet a word, a hit or a
panel for the first time. What must be covered, and the test holding each
(docs/performance.md, "The warm-up"):

* the data files judge cannot do without, read and checked first, so that a
  broken one stops the start with its line instead of failing a visitor;
* the searcher: every paragraph's words placed for the snippets, and every word
  of the books worked out as a query of it would (its near spellings, query
  leaves, postings and paragraphs);
* the rule pages: every permalink and excerpt, and the graph the side panels
  are computed from (a paragraph's text is rendered at its page's first visit
  and kept, `web.rendered_paragraphs`: rendering them all here grew the start
  with the books; docs/scale.md);
* the search pages: every paragraph's hit frame, from which each form a
  results list shows it in is composed (`judge.web.pages.hit_frame`);
* the card base and the cards' names (a ruling's staleness is worked out where a page
  first shows it: `judge.cards.stale.StaleCheck.of`);
* one request of each common kind, which compiles the templates and sets up
  what Flask, the searcher and numpy do on first use.

Nothing here may grow faster than the number of items (paragraphs, sections,
words), or the server stops starting as books are added (issue 21: the forms of
a hit for every subset of its editions, and a walk of the whole graph for every
rule's related rules, were exponential and quadratic). A rule page's side panels
(what cites it, its other editions, its related rules) are computed at its first
visit and kept (`web.cited_by`, `web.editions`, `web.related`, `web.panels`).
"""
from __future__ import annotations

from flask import Flask

from judge.search.snippets import prepare_snippets
from judge.search.expansion import english_word, lemma_stem
from judge.search.synonyms import current_synonyms
from judge.compare.terminology import get_terminology
from judge.web.cards import warm_cards
from judge.web.pages import render_hit_frames
from judge.web.site import Site

# One request of each kind a visitor starts with.
FIRST_REQUESTS = ("/", "/search?q=warm+up", "/api/search?q=warm+up", "/search?q=warm+up&fragment=1")


def warm(app: Flask) -> None:
    """Compute before the first visitor everything the module's docstring lists."""
    # The data files, before anything else: a broken one stops the start (SourceError,
    # naming its line). The terminology map is then kept for the process; the synonyms
    # are read again when they change (their last good copy kept).
    current_synonyms()
    get_terminology()
    site: Site = app.extensions["judge"]
    warm_searcher(site.searcher)
    warm_site(site)
    warm_cards(site)
    with app.test_request_context("/"):
        warm_search_pages(site)
    with app.test_client() as client:
        for url in FIRST_REQUESTS:
            client.get(url)


def warm_searcher(searcher) -> None:
    """Every paragraph's words placed for the snippets, and every word of the books
    worked out once as a query of it would be (`Search.prepare`): a word met for the
    first time costs its query more, and a server's first thousands of queries meet many."""
    prepare_snippets(para.text for para in searcher.corpus.paragraphs.values())
    for word in searcher.vocabulary.frequency:
        searcher.prepare(word)
    english_word("judge")  # wordfreq's English list read once (~0.6 s), before the workers fork
    lemma_stem("went")  # simplemma's English dictionary too (~0.15 s)


def warm_site(site: Site) -> None:
    """What the rule pages and the search pages show for every paragraph and section
    (links and excerpts), and the rule graph."""
    corpus = site.corpus
    site.graph.walk  # builds the weighted view and the matrix the walks run on
    for para in list(corpus.paragraphs.values())[:1]:  # (the order of them all, computed once)
        site.prev_next(para)
    for ident in [*corpus.paragraphs, *corpus.sections]:
        site.href(ident)
        site.excerpt(ident)


def warm_search_pages(site: Site) -> int:
    """Every paragraph's hit frame (in a request context of the app): a new server's first
    thousand new queries rendered some 600 of them one by one, in each worker. Returns
    how many frames there are."""
    return render_hit_frames(site.searcher)
