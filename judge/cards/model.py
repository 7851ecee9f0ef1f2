"""The card base's model: cards, rulings, the references rulings cite, card groups,
the rules a card or ruling relies on, and the problems found while loading.

Every class is plain data (cached through `judge.cachefile`, which checks each
field's type on the way back in). IDs are described in docs/cards.md.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Optional

CRYPT = "crypt"
LIBRARY = "library"

# Reference statuses, as judge.model's: a reference is `resolved` (to a rulebook
# paragraph or section), `external` (a ruling on a forum or a mailing list: a URL,
# nothing to resolve in the corpus) or `broken` (with the reason).
RESOLVED = "resolved"
EXTERNAL = "external"
BROKEN = "broken"

# Kinds of text runs (`Run.kind`).
RUN_TEXT = "text"
RUN_CARD = "card"  # a {Card} link: `target` is the card ID, or None when the name is unknown
RUN_SYMBOL = "symbol"  # [pot], [ACTION MODIFIER]: `target` is the symbol's meaning
RUN_REFERENCE = "reference"  # [LSJ 19980302-2]: `target` is the reference ID


@dataclass
class Run:
    """One piece of a rendered text: what a template shows, and what it links to."""

    kind: str
    text: str  # the words shown ("Ex Nihilo", "pot", "LSJ 20090411")
    target: Optional[str] = None  # card ID, reference ID, or a symbol's meaning ("Potence, superior")


@dataclass
class Discipline:
    code: str  # "pot"; virtues have theirs ("jud")
    name: str  # "Potence"
    level: Optional[str] = None  # "inferior" | "superior" for a crypt card; None for a library card's requirement


@dataclass
class Printing:
    """One set a card was printed in: "CE:PTo3" is set CE, "PTo3" (precon Toreador, 3 copies)."""

    set: str  # the set's abbreviation ("CE", "Promo-20150213"): a key of CardBase.sets when known
    detail: str  # rarity or precon ("C", "PTo3"), "" when none


@dataclass
class CardSet:
    abbrev: str
    name: str
    date: Optional[str] = None  # its release date, ISO (YYYY-MM-DD)


@dataclass
class RuleTemplate:
    """A template of card_templates.yaml as the card base keeps it: what it is and the rules it names."""

    id: str  # "stealth"
    description: str
    rules: list[str]  # the rule paragraphs (or sections) a card or ruling using it relies on
    # The words a meaning change of its rules must touch to make a ruling using it "may predate a
    # rules change" (judge/cards/stale.py). Empty for a card kind, a card field or a template marked
    # broad: those tie too many rulings to too general a rule to be evidence.
    keywords: list[str] = field(default_factory=list)


@dataclass
class RuleUse:
    """A card's or ruling's use of a rule template: it relies on the template's rules."""

    template: str  # the template's ID ("stealth"); CardBase.templates holds its rules
    matched: list[str]  # what matched: words of the text ("+1 stealth"), or "type: Equipment"


@dataclass
class Card:
    id: str  # "card:100001"
    vekn_id: int
    name: str  # as read: "The Rack", "Theo Bell"
    vekn_name: str  # as in the VEKN list: "Rack, The"
    slug: str  # unique: "the-rack", "theo-bell-adv", "theo-bell-g6"
    kind: str  # CRYPT | LIBRARY
    types: list[str]  # ["Action Modifier", "Reaction"], ["Vampire"], ["Imbued"]
    text: str
    file: str
    line: int
    aka: list[str] = field(default_factory=list)
    pool_cost: Optional[str] = None  # "2", "X"
    blood_cost: Optional[str] = None
    conviction_cost: Optional[str] = None
    disciplines: list[Discipline] = field(default_factory=list)  # a vampire's, or what a library card requires
    disciplines_all: bool = False  # a library card requiring all its disciplines ("Potence & Presence")
    clans: list[str] = field(default_factory=list)  # a vampire's clan, or those a library card requires (current names)
    former_clans: list[str] = field(default_factory=list)  # the names the card list gives them that are no more
    # The text as runs (text, changed by errata), where the card list marks what errata changed ({...}; an empty
    # run changed marks a passage removed); [] when it marks nothing. `text` is the text read clean.
    errata: list[tuple[str, bool]] = field(default_factory=list)
    sect: Optional[str] = None  # a crypt card's sect from its text; None where the text states none
    title: Optional[str] = None
    capacity: Optional[str] = None  # a vampire's "6"; a library card's "+1"
    group: Optional[str] = None  # "2", "ANY"
    path: Optional[str] = None
    advanced: bool = False
    banned: Optional[str] = None  # the year it was banned
    sets: list[Printing] = field(default_factory=list)
    burn_option: bool = False
    artists: list[str] = field(default_factory=list)
    requirements: list[str] = field(default_factory=list)  # from vteslibmeta.csv: "sabbat", "non-sterile"
    groups: list[str] = field(default_factory=list)  # IDs of the card groups holding it
    uses: dict[str, list[str]] = field(default_factory=dict)  # template ID -> what matched: the rules it relies on

    @property
    def rules(self) -> list[RuleUse]:
        """The rule templates it uses (CardBase.rules_of gives each one's rules)."""
        return [RuleUse(t, m) for t, m in self.uses.items()]

    def to_json(self) -> dict:
        return {
            "id": self.id, "name": self.name, "slug": self.slug, "kind": self.kind, "types": self.types,
            "text": self.text, "aka": self.aka,
            "cost": {"pool": self.pool_cost, "blood": self.blood_cost, "conviction": self.conviction_cost},
            "disciplines": [{"code": d.code, "name": d.name, "level": d.level} for d in self.disciplines],
            "errata": [{"text": t, "changed": changed} for t, changed in self.errata],
            "disciplines_all": self.disciplines_all, "clans": self.clans, "former_clans": self.former_clans,
            "sect": self.sect,
            "title": self.title, "capacity": self.capacity, "group": self.group, "path": self.path,
            "advanced": self.advanced, "banned": self.banned,
            "sets": [{"set": p.set, "detail": p.detail} for p in self.sets],
            "burn_option": self.burn_option, "artists": self.artists, "requirements": self.requirements,
            "groups": self.groups,
            "rules": [{"template": u.template, "matched": u.matched} for u in self.rules],
        }


@dataclass
class GroupMember:
    card: Optional[str]  # the card's ID; None when the key names no card (reported)
    key: str  # as written: "101215|Puppet Master"
    note: str = ""  # as written: "[DOM]" (the group holds the card only when played so)


@dataclass
class CardGroup:
    """A group of cards sharing rulings ("Temporary control")."""

    id: str  # "group:G00001"
    name: str
    file: str
    line: int
    members: list[GroupMember] = field(default_factory=list)

    @property
    def cards(self) -> list[str]:
        return [m.card for m in self.members if m.card]


@dataclass
class Reference:
    """A source a ruling cites: a Rules Director's or the Rules Team's ruling, or the rulebook."""

    id: str  # "LSJ 19980302-2", "RBK who-may-attempt-to-block"
    source: str  # "LSJ", "ANK", "PIB", "RTR", "RBK", ...
    date: Optional[str]  # ISO date; None for the rulebook (RBK)
    url: Optional[str]
    file: str
    line: int
    status: str = EXTERNAL  # RESOLVED | EXTERNAL | BROKEN
    resolves_to: Optional[str] = None  # a paragraph or section ID of the current book
    reason: Optional[str] = None  # why it is broken, or how it was resolved when not literally

    def to_json(self) -> dict:
        return {"id": self.id, "source": self.source, "date": self.date, "url": self.url, "status": self.status,
                "resolves_to": self.resolves_to, "reason": self.reason}


@dataclass
class Ruling:
    id: str  # "ruling:100001/lsj-19980302-2" (see docs/cards.md)
    owner: str  # the card ("card:100001") or group ("group:G00001") it is filed under
    text: str  # readable text: card names without braces, symbols as [POT], no trailing references
    raw: str  # as written in rulings.yaml
    file: str
    line: int
    parts: list[Run] = field(default_factory=list)  # `text` as runs (a card link, a symbol, plain words)
    references: list[str] = field(default_factory=list)  # reference IDs, in the order cited
    cards: list[str] = field(default_factory=list)  # the cards it applies to (the owner, or the group's)
    mentions: list[str] = field(default_factory=list)  # other cards its text links to
    uses: dict[str, list[str]] = field(default_factory=dict)  # template ID -> what matched
    # Its rulebook references -> the paragraph each relies on, chosen from the ruling's own words where the reference
    # names a whole section (judge.cards.resolve.cited_paragraphs); the reference's own target where it names one
    cites: dict[str, str] = field(default_factory=dict)

    @property
    def rules(self) -> list[RuleUse]:
        return [RuleUse(t, m) for t, m in self.uses.items()]

    @property
    def own_words(self) -> str:
        """Its text with the card names it links left out ("…"): what the rule templates read, as a card it names
        ("Anarch Revolt") says nothing of the rules the ruling relies on."""
        return "".join("…" if run.kind == RUN_CARD else run.text for run in self.parts) or self.text

    @property
    def group(self) -> Optional[str]:
        return self.owner if self.owner.startswith("group:") else None

    def to_json(self) -> dict:
        return {"id": self.id, "owner": self.owner, "text": self.text, "cards": self.cards,
                "group": self.group, "mentions": self.mentions, "references": self.references,
                "parts": [{"kind": r.kind, "text": r.text, "target": r.target} for r in self.parts],
                "rules": [{"template": u.template, "matched": u.matched} for u in self.rules]}


@dataclass
class Problem:
    """Something wrong in the data, kept for `judge lint rulings`; the rest loads."""

    file: str  # "rulings.yaml", "vteslib.csv", "card_templates.yaml"
    line: int  # 1-based; 0 when the whole file is concerned
    code: str  # see PROBLEM_CODES
    message: str
    subject: Optional[str] = None  # the card, ruling, reference or template concerned

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}"

    def to_json(self) -> dict:
        return {"file": self.file, "line": self.line, "code": self.code, "message": self.message,
                "subject": self.subject}


PROBLEM_CODES = {
    "unreadable": "a data file is missing or cannot be read",
    "yaml": "a YAML file (or one entry of it) does not parse",
    "csv-row": "a row of a card list that cannot be read (wrong number of fields, no ID)",
    "bad-value": "a field whose value is not of the expected form",
    "duplicate": "an ID given twice",
    "bad-entry": "a YAML entry of the wrong shape",
    "unknown-card": "a card key or {Card} link naming no card",
    "name-mismatch": "a card key whose name is not the card's",
    "unknown-group": "a group key naming no group",
    "unknown-reference": "a ruling citing a reference not in references.yaml",
    "no-url": "a reference with no URL",
    "no-reference": "a ruling citing no reference",
    "unknown-symbol": "a [symbol] that is neither a discipline, a card type nor a reference",
    "rbk-unresolved": "a rulebook (RBK) reference that does not resolve to the current book",
    "template": "a rule template that is malformed or names a rule the corpus does not hold",
}
