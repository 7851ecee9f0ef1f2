"""The second phase: check and link what the first phase read.

Card keys (`<id>|<name>`) against the card lists, groups' cards, `{Card}` links
in rulings (the exact name, then the name with any case, accents or "The"; the
"(ADV)"/"(G4)" marks choose a version), the references rulings cite against
references.yaml, the rulebook references against the corpus's current book, and
the rule templates against every card and ruling. Each failure is a `Problem`
with its file, line and reason; nothing that loaded is dropped.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional

from rapidfuzz import fuzz, process

import judge.cards.source as source
from judge.cards.base import CardBase
from judge.cards.model import BROKEN, RESOLVED, RUN_CARD, Card, Problem
from judge.cards.names import name_key, slugify, split_marks
from judge.cards.parse import Parsed
from judge.cards.rulebook import BookAnchors
from judge.cards.templates import Matcher, Template, check_types

if TYPE_CHECKING:
    from judge.corpus import Corpus


class NameIndex:
    """Card names as rulings write them, to card IDs."""

    def __init__(self, cards: dict[str, Card]):
        self.cards = cards
        self.exact: dict[str, list[str]] = {}
        self.keyed: dict[str, list[str]] = {}
        for card in cards.values():
            for name in {card.name, card.vekn_name, *card.aka}:
                self.exact.setdefault(name, []).append(card.id)
                self.keyed.setdefault(name_key(name), []).append(card.id)

    def find(self, written: str) -> tuple[Optional[str], Optional[str]]:
        """(card ID, None), or (None, why not)."""
        base, advanced, group = split_marks(written)
        ids = self.exact.get(base) or self.keyed.get(name_key(base), [])
        if not ids:
            best = process.extractOne(name_key(base), list(self.keyed), scorer=fuzz.WRatio, score_cutoff=85)
            hint = f" (closest: '{self.cards[self.keyed[best[0]][0]].name}')" if best else ""
            return None, f"no card is named '{written}'{hint}"
        chosen = [i for i in ids if (not advanced or self.cards[i].advanced)
                  and (group is None or self.cards[i].group == group)]
        if not chosen:
            mark = "advanced " if advanced else ""
            mark += f"group {group} " if group else ""
            return None, f"no {mark}version of '{base}' (there are: " + ", ".join(
                sorted(self.cards[i].slug for i in ids)) + ")"
        # Unmarked, a name shared by several versions means the first printed.
        return min(chosen, key=lambda i: (self.cards[i].advanced, self.cards[i].vekn_id)), None


def resolve(parsed: Parsed, corpus: "Corpus", templates: list[Template],
            template_problems: list[Problem]) -> CardBase:
    problems = list(parsed.problems)
    cards = {c.id: c for c in parsed.cards}
    assign_slugs(parsed.cards)
    _requirements(parsed, cards, problems)
    groups = {g.id: g for g in parsed.groups}
    names = NameIndex(cards)
    _owner_keys(parsed, cards, groups, problems)
    for group in groups.values():
        for member in group.members:
            if member.card:
                cards[member.card].groups.append(group.id)
    references = {r.id: r for r in parsed.references}
    for ruling in parsed.rulings:
        if ruling.owner in cards:
            ruling.cards = [ruling.owner]
        elif ruling.owner in groups:
            ruling.cards = list(dict.fromkeys(groups[ruling.owner].cards))
        mentions = []
        for run in ruling.parts:
            if run.kind != RUN_CARD:
                continue
            run.target, why = names.find(run.text)
            if run.target is None:
                problems.append(Problem(source.RULINGS_FILE, ruling.line, "unknown-card", f"{{{run.text}}}: {why}",
                                        ruling.id))
            elif run.target != ruling.owner:
                mentions.append(run.target)
        ruling.mentions = list(dict.fromkeys(mentions))
        for ref in ruling.references:
            if ref not in references:
                problems.append(Problem(source.RULINGS_FILE, ruling.line, "unknown-reference",
                                        f"[{ref}] is not in {source.REFERENCES_FILE}", ruling.id))
    anchors = BookAnchors(corpus)
    for ref in references.values():
        if ref.source != "RBK" or ref.status == BROKEN:
            continue
        outcome = anchors.resolve(ref.url)
        ref.resolves_to, ref.reason = outcome.target, outcome.reason
        ref.status = RESOLVED if outcome.target else BROKEN
        if outcome.target is None:
            problems.append(Problem(ref.file, ref.line, "rbk-unresolved", f"{ref.id}: {outcome.reason}", ref.id))
    cited = CitedParagraphs(corpus, anchors.book)
    for ruling in parsed.rulings:
        ruling.cites = {ref: cited.of(ruling, references[ref].resolves_to) for ref in ruling.references
                        if ref in references and references[ref].resolves_to}
    problems.extend(template_problems)
    problems.extend(check_types(templates, {t for c in parsed.cards for t in c.types}))
    matcher = Matcher(templates)
    for card in parsed.cards:
        card.uses = {u.template: u.matched for u in matcher.card_uses(card)}
    for ruling in parsed.rulings:
        ruling.uses = {u.template: u.matched for u in matcher.text_uses(ruling.own_words)}
    return CardBase(cards=cards, rulings={r.id: r for r in parsed.rulings}, references=references, groups=groups,
                    templates={t.id: t.kept() for t in templates}, sets=parsed.sets, problems=problems,
                    book=anchors.book.id if anchors.book else None)


def assign_slugs(cards: list[Card]) -> None:
    """Unique slugs: the name's for its first printed version; the others qualified
    by what sets them apart ("theo-bell-adv", "theo-bell-g6"), by ID as a last resort."""
    by_base: dict[str, list[Card]] = {}
    for card in cards:
        by_base.setdefault(slugify(card.name), []).append(card)
    taken: set[str] = set()
    firsts = {base: min(versions, key=lambda c: (c.advanced, c.vekn_id)) for base, versions in by_base.items()}
    for base, first in firsts.items():
        first.slug = base
        taken.add(base)
    for base, versions in sorted(by_base.items()):
        first = firsts[base]
        for card in sorted(versions, key=lambda c: c.vekn_id):
            if card is first:
                continue
            slug = base + ("-adv" if card.advanced else "")
            if card.group and card.group != first.group:
                slug += f"-g{card.group.lower()}"
            if slug in taken:
                slug = f"{base}-{card.vekn_id}"
            card.slug = slug
            taken.add(slug)


def _requirements(parsed: Parsed, cards: dict[str, Card], problems: list[Problem]) -> None:
    for vekn_id, name, reqs, line in parsed.requirements:
        card = cards.get(f"card:{vekn_id}")
        if card is None:
            problems.append(Problem(source.LIBRARY_META_FILE, line, "unknown-card",
                                    f"no card has the ID {vekn_id} ('{name}')", f"card:{vekn_id}"))
            continue
        if name != card.vekn_name:
            problems.append(Problem(source.LIBRARY_META_FILE, line, "name-mismatch",
                                    f"card {vekn_id} is '{card.vekn_name}', not '{name}'", card.id))
        card.requirements = reqs


def _owner_keys(parsed: Parsed, cards: dict[str, Card], groups: dict, problems: list[Problem]) -> None:
    members = {(g.id, m.key): m for g in groups.values() for m in g.members}
    for file, key, line, owner in parsed.owner_keys:
        ident, _, name = key.partition("|")
        ident, name = ident.strip(), name.strip()
        if file == source.RULINGS_FILE and owner.startswith("group:"):
            if owner not in groups:
                problems.append(Problem(file, line, "unknown-group", f"{key!r}: no group {ident} in "
                                                                     f"{source.GROUPS_FILE}", owner))
            elif groups[owner].name != name:
                problems.append(Problem(file, line, "name-mismatch", f"group {ident} is '{groups[owner].name}', "
                                                                     f"not '{name}'", owner))
            continue
        card_id = f"card:{ident}" if ident.isdigit() else None
        card = cards.get(card_id) if card_id else None
        if card is None:
            named = [c for c in cards.values() if c.vekn_name == name]
            hint = f"; '{name}' is {named[0].id}" if named else ""
            problems.append(Problem(file, line, "unknown-card", f"{key!r}: no card has the ID {ident!r}{hint}",
                                    owner))
            continue
        if name not in (card.vekn_name, card.name):
            problems.append(Problem(file, line, "name-mismatch", f"{key!r}: card {ident} is '{card.vekn_name}', "
                                                                 f"not '{name}'", owner))
        if file == source.GROUPS_FILE:
            member = members.get((owner, key))
            if member is not None:
                member.card = card.id


# Paragraphs of a section a ruling's words may pick one of: the rules and the terms they define, not examples,
# drafts or lore.
_CITABLE = ("rule", "glossary", "advanced", "tournament", "reminder")
_PICKED_BY = 1.5  # the paragraph picked scores at least this many times the next one: else the section stands


class CitedParagraphs:
    """The paragraph a ruling relies on where its reference names a whole section ("RBK wording-templates": twelve
    templates; a chapter heading with no text of its own): the section's rule whose words the ruling's share most,
    weighed by how rare each word is in the book (idf), when one stands out (`_PICKED_BY`); else the section."""

    def __init__(self, corpus, book):
        import math
        from whoosh.analysis import StemmingAnalyzer
        self.corpus = corpus
        self.analyzer = StemmingAnalyzer()
        self.words: dict[str, frozenset[str]] = {}
        frequency: dict[str, int] = {}
        paragraphs = book.paragraphs if book is not None else []
        for para in paragraphs:
            words = self._words(para.text)
            self.words[para.id] = words
            for w in words:
                frequency[w] = frequency.get(w, 0) + 1
        count = max(1, len(paragraphs))
        self.idf = {w: math.log(count / n) + 1 for w, n in frequency.items()}

    def _words(self, text: str) -> frozenset[str]:
        return frozenset(t.text for t in self.analyzer(text) if len(t.text) > 2)

    def of(self, ruling, target: str) -> str:
        if target not in self.corpus.sections:
            return target
        inside = [p for p in self.corpus.paragraphs_of(target, deep=True)
                  if p.kind in _CITABLE and p.id in self.words]
        if not inside:
            return target
        said = self._words(ruling.text)
        scored = sorted(((sum(self.idf.get(w, 0.0) for w in said & self.words[p.id]), p.id) for p in inside),
                        reverse=True)
        best = scored[0][0]
        second = scored[1][0] if len(scored) > 1 else 0.0
        if best > 0 and (len(inside) == 1 or best >= _PICKED_BY * second):
            return scored[0][1]
        return target
