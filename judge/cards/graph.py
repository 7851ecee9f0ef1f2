"""Cards and rulings in the rule graph: their own node and edge kinds.

=================  ==========================================================
``relies-on``      card -> a rule paragraph (or section) a template it uses names
``ruling-cites``   ruling -> the paragraph or section its rulebook reference resolves to
``ruling-on``      ruling -> each card it applies to
=================  ==========================================================

They join a copy of the rule graph's directed graph; the weighted view the walks
run on (related rules, paths, neighbourhoods) stays the rules' own (shared with the
graph passed), so related rules are what they were: several thousand cards tied to
the rule for vampires would otherwise make it related to everything.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from judge.cards.base import CardBase
    from judge.graph import RuleGraph

CARD, RULING = "card", "ruling"
RELIES_ON, RULING_CITES, RULING_ON = "relies-on", "ruling-cites", "ruling-on"
EDGE_KINDS = (RELIES_ON, RULING_CITES, RULING_ON)


def with_cards(graph: "RuleGraph", base: "CardBase") -> "RuleGraph":
    """`graph` with the cards and rulings of `base` added as nodes, linked by their own
    edge kinds; the walks' view and matrix are `graph`'s."""
    import networkx as nx

    from judge.graph import RuleGraph
    g = nx.MultiDiGraph(graph.g)
    g.graph["cards"] = base.digest
    for card in base.cards.values():
        g.add_node(card.id, kind=CARD, label=card.name, doc="")
        for use in card.rules:
            for rule in base.rules_of(use):
                if rule in g and not g.has_edge(card.id, rule, key=RELIES_ON):
                    g.add_edge(card.id, rule, key=RELIES_ON, kind=RELIES_ON, template=use.template)
    for ruling in base.rulings.values():
        g.add_node(ruling.id, kind=RULING, label=ruling.id, doc="")
        for ref in ruling.references:
            target = base.references.get(ref)
            cited = ruling.cites.get(ref, target.resolves_to) if target is not None else None
            if cited in g:
                g.add_edge(ruling.id, cited, key=RULING_CITES, kind=RULING_CITES, reference=ref)
        for card in ruling.cards:
            if card in g:
                g.add_edge(ruling.id, card, key=RULING_ON, kind=RULING_ON)
    return RuleGraph(g, graph.corpus, graph.concordance, _view=graph.view, _walk=graph.walk)
