"""Cards and rulings: the VEKN card lists and the rulings database (krcg's data
files), linked to the rule paragraphs of the corpus they rely on (docs/cards.md).

    base = load_cards(corpus)            # cached; build_cards(corpus) skips the cache
    base.card("Govern the Unaligned")    # by ID, slug or name
    base.find("govern unaligned")        # exact, accent-insensitive, partial, fuzzy
    base.rulings_of(card.id), base.rulings_citing("vekn:..."), base.cards_using("vekn:...")
    base.problems, base.counts()
"""
from judge.cards.base import CardBase, CardMatch
from judge.cards.load import build_cards, get_cards, load_cards
from judge.cards.model import Card, CardGroup, Problem, Reference, RuleUse, Ruling, Run

__all__ = ["CardBase", "CardMatch", "build_cards", "get_cards", "load_cards", "Card", "CardGroup", "Problem",
           "Reference", "RuleUse", "Ruling", "Run"]
