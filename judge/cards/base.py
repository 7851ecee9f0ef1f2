"""The card base: every card, ruling, reference and card group of one load, with
the look-ups the search, the web and the command line make on it."""
from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Iterable, Optional, Union

from rapidfuzz import fuzz, process

from judge.cards.model import (BROKEN, CRYPT, LIBRARY, RESOLVED, Card, CardGroup, CardSet, Problem, Reference,
                               RuleTemplate, RuleUse, Ruling)
from judge.cards.names import name_key, split_marks

MAX_QUERY = 200  # longer than any card name ("Carlton Van Wyk (Hunter)" is 24)
FUZZY_MIN = 80  # a name this similar (rapidfuzz WRatio) to what was typed is offered


@dataclass
class CardMatch:
    card: Card
    how: str  # "id", "slug", "name", "folded", "partial", "fuzzy"
    score: float = 100.0


@dataclass
class CardBase:
    cards: dict[str, Card]
    rulings: dict[str, Ruling]
    references: dict[str, Reference]
    groups: dict[str, CardGroup]
    templates: dict[str, RuleTemplate] = field(default_factory=dict)
    sets: dict[str, CardSet] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    book: Optional[str] = None  # the rulebook RBK references resolve in ("vekn")
    digest: str = ""
    # look-up tables, rebuilt from the above (never cached)
    by_slug: dict[str, str] = field(default_factory=dict, init=False, repr=False)
    by_name: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)  # name_key -> card IDs
    by_exact: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    by_card: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)  # card -> ruling IDs
    by_mention: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)
    by_citation: dict[str, list[str]] = field(default_factory=dict, init=False, repr=False)  # rule ID -> rulings
    cards_by_rule: dict[str, list[tuple[str, RuleUse]]] = field(default_factory=dict, init=False, repr=False)
    rulings_by_rule: dict[str, list[tuple[str, RuleUse]]] = field(default_factory=dict, init=False, repr=False)
    template_users: dict[str, int] = field(default_factory=dict, init=False, repr=False)  # template -> cards using it

    def __post_init__(self) -> None:
        self.reindex()

    def reindex(self) -> None:
        self.by_slug = {c.slug: c.id for c in self.cards.values()}
        self.by_name, self.by_exact = {}, {}
        for card in self.cards.values():
            for name in {card.name, card.vekn_name, *card.aka}:
                self.by_exact.setdefault(name, []).append(card.id)
                self.by_name.setdefault(name_key(name), []).append(card.id)
        self.by_card, self.by_mention, self.by_citation = {}, {}, {}
        self.rulings_by_rule, self.cards_by_rule, self.template_users = {}, {}, {}
        for ruling in self.rulings.values():
            for card in ruling.cards:
                self.by_card.setdefault(card, []).append(ruling.id)
            for card in ruling.mentions:
                self.by_mention.setdefault(card, []).append(ruling.id)
            for ref in ruling.references:
                target = self.references.get(ref)
                if target is not None and target.resolves_to:
                    # The paragraph the ruling's words picked in the section its reference names, else that.
                    self.by_citation.setdefault(ruling.cites.get(ref, target.resolves_to), []).append(ruling.id)
            for use in ruling.rules:
                for rule in self.rules_of(use):
                    self.rulings_by_rule.setdefault(rule, []).append((ruling.id, use))
        for card in self.cards.values():
            for use in card.rules:
                self.template_users[use.template] = self.template_users.get(use.template, 0) + 1
                for rule in self.rules_of(use):
                    self.cards_by_rule.setdefault(rule, []).append((card.id, use))

    def rules_of(self, use: RuleUse) -> list[str]:
        """The rule paragraphs (or sections) a use of a template relies on."""
        template = self.templates.get(use.template)
        return template.rules if template else []

    def set_of(self, abbrev: str) -> Optional[CardSet]:
        """A set by its abbreviation; a promotional card's "Promo-20150213" by its date."""
        found = self.sets.get(abbrev)
        if found is None and abbrev.startswith("Promo-") and len(abbrev) == 14 and abbrev[6:].isdigit():
            d = abbrev[6:]
            found = CardSet(abbrev, "Promo", f"{d[:4]}-{d[4:6]}-{d[6:]}")
        return found

    # -- cards -------------------------------------------------------------------------
    def card(self, query: str) -> Optional[Card]:
        """The card an ID ("card:100001", "100001"), a slug or a name names (any case or
        accents; "(ADV)"/"(G4)" marks read); where versions share the name, the first
        printed. None when nothing is named exactly."""
        found = self._named_exactly(" ".join(query.split())[:MAX_QUERY], 1)
        return found[0].card if found else None

    def _named_exactly(self, q: str, limit: int) -> list[CardMatch]:
        """`find`'s first steps: an ID, a slug, the name, the name in any case or accents; [] when none is."""
        if not q:
            return []
        if q in self.cards:
            return [CardMatch(self.cards[q], "id")]
        if q.isdigit() and f"card:{q}" in self.cards:
            return [CardMatch(self.cards[f"card:{q}"], "id")]
        low = q.casefold()
        if low in self.by_slug:
            return [CardMatch(self.cards[self.by_slug[low]], "slug")]
        base, advanced, group = split_marks(q)
        for how, ids in (("name", self.by_exact.get(base, [])), ("folded", self.by_name.get(name_key(base), []))):
            chosen = self._marked(ids, advanced, group)
            if chosen:
                return [CardMatch(self.cards[c], how) for c in chosen][:limit]
        return []

    def find(self, query: str, limit: int = 10) -> list[CardMatch]:
        """Cards for what a person typed, best first: by ID or slug, the exact name,
        the name with any case, accents and "The", then names holding the words
        typed (partial), then names spelt alike (fuzzy)."""
        q = " ".join(query.split())[:MAX_QUERY]
        if not q:
            return []
        exactly = self._named_exactly(q, limit)
        if exactly:
            return exactly
        base, advanced, group = split_marks(q)
        key = name_key(base)
        if not key:
            return []
        out: list[CardMatch] = []
        seen: set[str] = set()
        partial = [(k, ids) for k, ids in self.by_name.items() if key in k]
        partial.sort(key=lambda kv: (not kv[0].startswith(key), len(kv[0]), kv[0]))
        for k, ids in partial:
            for c in self._marked(ids, advanced, group):
                if c not in seen:
                    seen.add(c)
                    out.append(CardMatch(self.cards[c], "partial", 100.0 * len(key) / len(k)))
        if len(out) < limit:
            for k, score, _ in process.extract(key, list(self.by_name), scorer=fuzz.WRatio, limit=limit,
                                               score_cutoff=FUZZY_MIN):
                for c in self._marked(self.by_name[k], advanced, group):
                    if c not in seen:
                        seen.add(c)
                        out.append(CardMatch(self.cards[c], "fuzzy", score))
        return out[:limit]

    def _marked(self, ids: list[str], advanced: bool, group: Optional[str]) -> list[str]:
        """`ids` narrowed by the marks typed; unmarked, every version, first printed first."""
        chosen = [i for i in dict.fromkeys(ids)
                  if (not advanced or self.cards[i].advanced) and (group is None or self.cards[i].group == group)]
        return sorted(chosen, key=lambda i: (self.cards[i].advanced, self.cards[i].vekn_id))

    # -- rulings -----------------------------------------------------------------------
    def rulings_of(self, card_id: str) -> list[Ruling]:
        """The rulings that apply to a card: its own, and its groups'."""
        return [self.rulings[r] for r in self.by_card.get(card_id, [])]

    def rulings_mentioning(self, card_id: str) -> list[Ruling]:
        return [self.rulings[r] for r in self.by_mention.get(card_id, [])]

    def rulings_citing(self, ids: Union[str, Iterable[str]]) -> list[Ruling]:
        """Rulings whose rulebook references resolve to one of `ids` (a paragraph or
        section ID; pass a section's inner IDs to include what it holds)."""
        wanted = [ids] if isinstance(ids, str) else list(ids)
        found = dict.fromkeys(r for i in wanted for r in self.by_citation.get(i, []))
        return [self.rulings[r] for r in found]

    def cards_using(self, rule_id: str) -> list[tuple[Card, RuleUse]]:
        """The cards relying on a rule paragraph (or section), with what matched."""
        return [(self.cards[c], use) for c, use in self.cards_by_rule.get(rule_id, [])]

    def cards_using_ranked(self, rule_ids: Iterable[str]) -> list[tuple[Card, RuleUse]]:
        """The cards relying on any of `rule_ids`, most directly first: a card whose own text says what the rule is
        about ("(D)", "+1 stealth") before one that uses it by its type alone ("type: Action"), a rule few cards
        call on before one hundreds do; then the cards most ruled on; then by name."""
        found: dict[str, tuple[float, Card, RuleUse]] = {}
        users = self.template_users
        for rule_id in rule_ids:
            for card, use in self.cards_using(rule_id):
                in_text = any(not m.startswith("type:") for m in use.matched)
                score = (2.0 if in_text else 1.0) / math.log(2 + users.get(use.template, 1))
                if card.id not in found or score > found[card.id][0]:
                    found[card.id] = (score, card, use)
        ranked = sorted(found.values(), key=lambda f: (-f[0], -len(self.by_card.get(f[1].id, ())),
                                                        f[1].name.casefold()))
        return [(card, use) for _, card, use in ranked]

    def rulings_using(self, rule_id: str) -> list[tuple[Ruling, RuleUse]]:
        return [(self.rulings[r], use) for r, use in self.rulings_by_rule.get(rule_id, [])]

    def counts(self) -> dict:
        rbk = [r for r in self.references.values() if r.source == "RBK"]
        cited = [ref for ruling in self.rulings.values() for ref in ruling.references if ref.startswith("RBK ")]
        resolved_cited = [ref for ref in cited if ref in self.references and
                          self.references[ref].status == RESOLVED]
        return {
            "cards": len(self.cards),
            "crypt": sum(c.kind == CRYPT for c in self.cards.values()),
            "library": sum(c.kind == LIBRARY for c in self.cards.values()),
            "rulings": len(self.rulings),
            "cards_with_rulings": len({c for r in self.rulings.values() for c in r.cards}),
            "groups": len(self.groups),
            "references": len(self.references),
            "rbk_references": len(rbk),
            "rbk_resolved": sum(r.status == RESOLVED for r in rbk),
            "rbk_broken": sum(r.status == BROKEN for r in rbk),
            "rbk_citations": len(cited),
            "rbk_citations_resolved": len(resolved_cited),
            "cards_relying_on_a_rule": sum(bool(c.uses) for c in self.cards.values()),
            "rulings_relying_on_a_rule": sum(bool(r.uses) for r in self.rulings.values()),
            "problems": len(self.problems),
        }
