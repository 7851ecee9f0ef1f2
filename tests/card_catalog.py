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
