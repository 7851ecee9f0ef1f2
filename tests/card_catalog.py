"""The real card base as the scenario reader takes it (judge check builds it the same way), loaded once for the
test session: the scenarios of scenarios/cards/ name real cards."""
from __future__ import annotations

from functools import lru_cache

from judge.cards import get_cards
from judge.corpus import get_corpus
from judge.engine.vtes.cards import Catalog


@lru_cache(maxsize=None)
def card_catalog() -> Catalog:
    return Catalog(get_cards(get_corpus()))


def library_cards(card_type: str) -> list:
    """(card facts, what the engine reads of it at its first level: cards.modelled) for every library card of the
    one type `card_type`, by name."""
    from judge.engine.vtes.cards import modelled

    catalog = card_catalog()
    every = (catalog.facts_of(card) for card in get_cards(get_corpus()).cards.values())
    out = [(facts, modelled(facts, None)) for facts in every
           if facts.kind == "library" and tuple(facts.types) == (card_type,)]
    return sorted(out, key=lambda fw: fw[0].name)
