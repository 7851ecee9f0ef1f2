"""A question's card answer from the saved tables alone, when the question surely names no card.

Every question is asked of the rulings too (their words may answer it: judge.cards.ruling_search), so a command
that answers one question (`judge search` in a shell) used to read the whole card base (~33,000 objects decoded,
most of a warm command's time) even for a rules question naming no card. What such an answer needs is saved beside
the card base (judge.cards.saved_tables): the card names (judge.cards.load.card_names) and their forms
(judge.cards.mentions.NameForms) tell that no card is named, the rulings' index finds the rulings the words match and
holds what their hits show (judge.cards.ruling_search.RulingsShown).

`quick_answer` gives the answer `judge.cards.query.card_answer` gives, or None whenever it cannot be sure of it
without the card base: a name may be there (a whole name, a part, a nickname, a typo), rulings are asked of a name
(the closest names are offered), or a table is missing, stale or damaged. tests/test_cards_quick.py holds it to the
card base's answer over the question sets.
"""
from __future__ import annotations

from typing import Callable

from judge.memo import Memo

# (corpus digest, card data folder) -> the tables read (a process asking line after line reads them once)
_TABLES: Memo = Memo("cards.quick_tables", 4)


class _CardsOnDemand:
    """The name forms' `cards` (judge.cards.mentions.NameForms): which IDs are cards from the names alone; a card
    itself (asked only where a name was found followed by a version's mark) from the card base, read then."""

    def __init__(self, ids: frozenset[str], corpus):
        self._ids, self._corpus = ids, corpus

    def __contains__(self, card_id: object) -> bool:
        return card_id in self._ids

    def __getitem__(self, card_id: str):
        from judge.cards import get_cards
        return get_cards(self._corpus).cards[card_id]


def _tables(corpus):
    """(card names, name forms, rulings' index) saved for the card base the corpus and the card data give; None when
    one of them is not saved for it (the card base's first read writes them)."""
    from judge.cards import load, saved_tables, source
    from judge.cards.mentions import NameForms, keep_name_forms
    from judge.cards.ruling_search import RulingIndex, keep_ruling_index
    if not getattr(corpus, "digest", None):
        return None
    # Once per process for a corpus and a card data folder, as judge.cards.load.get_cards reads the card base once:
    # `judge search --stdin` asks line after line.
    key = (corpus.digest, str(source.default_folder()))
    found = _TABLES.recall(key)
    if found is not None:
        return found
    digest = load.cards_digest(source.read_files(), corpus)  # (reading the card data's files: once)
    names = load.card_names(corpus, digest)
    if names is None:
        return None
    forms = saved_tables.read_saved(saved_tables.FORMS_FILE, digest, corpus, "the cards' name forms",
                                    lambda data: NameForms.from_data(data, _CardsOnDemand(names.ids, corpus)))
    if forms is None:
        return None
    index = saved_tables.read_saved(saved_tables.RULINGS_FILE, digest, corpus, "the rulings' index",
                                    lambda data: RulingIndex.from_data(data, None))
    if index is None:
        return None
    keep_name_forms(digest, corpus, forms)  # a question the card base must answer reads them no more
    keep_ruling_index(digest, corpus, index)
    return _TABLES.remember(key, (names, forms, index))


def quick_answer(corpus, query: str, searched: tuple[str, ...], expansion: Callable[[str], object]):
    """(`card_answer(base, query, searched, Context(corpus, expansion))`, what its ruling hits show) without the card
    base, for a question that surely names no card; None when the card base must answer (see the module)."""
    from judge.cards.names import name_key
    from judge.cards.query import (MAX_QUERY, RULING_HITS, UNNAMED_RULING_SHARE, _RULING_WORDS, Context, _asked,
                                   _question_units, no_card_answer)
    from judge.cards.ruling_search import RulingHit
    tables = _tables(corpus)
    if tables is None:
        return None
    names, forms, index = tables
    q = " ".join(query.split())[:MAX_QUERY]
    searched = tuple(s for s in ("cards", "rulings") if s in searched)
    answer = no_card_answer(names, q, searched)  # no whole name, part of one, or misspelt one
    if answer is None or not searched:
        return None
    _, name = _asked(q, searched)
    if forms.find(q).mentions or (name and forms.find(name).mentions):
        return None  # a name inside the question (a part, a nickname, a typo): the card base answers
    if answer.asked_rulings and _RULING_WORDS.search(q) and len(name_key(name)) >= 3:
        return None  # "rulings of X" naming no card: the closest names are offered, from the card base
    answer.show_cards = "cards" in searched
    if "rulings" in searched:
        units = _question_units(Context(corpus, expansion), q, set())
        if units:
            answer.ruling_hits = [h if h.by_name else RulingHit(h.id, h.score * UNNAMED_RULING_SHARE)
                                  for h in index.top(units, RULING_HITS)]
    return answer, index.shown
