"""The first phase: read krcg's card lists and rulings database into the model.

Nothing is looked up across files here: card keys, {Card} links, groups and
references are checked by `judge.cards.resolve`. A row
or entry that cannot be read becomes a `Problem` (file, line, reason) and the
rest loads; a value of the wrong form is reported and left empty, its card kept.
"""
from __future__ import annotations

import csv
import datetime
import io
import re
from dataclasses import dataclass, field
from typing import Iterator, Optional

import yaml

from judge.engine.vtes.clans import CLANS
import judge.cards.names as names
import judge.cards.source as source
import judge.cards.symbols as symbols
from judge.cards.model import (BROKEN, CRYPT, EXTERNAL, LIBRARY, RUN_CARD, RUN_REFERENCE, RUN_SYMBOL, RUN_TEXT,
                               Card, CardGroup, CardSet, Discipline, GroupMember, Printing, Problem, Reference, Ruling,
                               Run)
from judge.cards.yamlnodes import line_of, scalar, top_entries

SECTS = ("Camarilla", "Sabbat", "Anarch", "Independent", "Laibon")
# "Camarilla Prince of Paris: ...", "Advanced, Sabbat: ...", "{Anarch}: ..." (braces mark errata)
_SECT_RE = re.compile(r"^(?:Advanced,\s*)?\{?(?P<sect>" + "|".join(SECTS) + r")\b")
_COST_RE = re.compile(r"^(?:\d+|X)$")
_CAPACITY_RE = re.compile(r"^[+-]?\d+$")
_GROUP_RE = re.compile(r"^(?:\d+|ANY)$")
_YEAR_RE = re.compile(r"^\d{4}$")
# A reference: a Rules Director's or the Rules Team's ruling, by date ("LSJ 19980302-2"), or the rulebook.
REFERENCE_RE = re.compile(r"^(?P<source>[A-Z]{3}) (?P<date>\d{8})(?:-[0-9A-Za-z]+)*$|^RBK (?P<anchor>\S+)$")
_MARKUP_RE = re.compile(r"\{(?P<card>[^{}\n]+)\}|\[(?P<bracket>[^\[\]\n]+)\]")
_OWNER_RE = re.compile(r"^(?:(?P<card>\d+)|(?P<group>G\d+))$")


@dataclass
class Parsed:
    """What the first phase read: the model with its cross-file links still unchecked."""

    cards: list[Card] = field(default_factory=list)
    sets: dict[str, CardSet] = field(default_factory=dict)
    rulings: list[Ruling] = field(default_factory=list)
    references: list[Reference] = field(default_factory=list)
    groups: list[CardGroup] = field(default_factory=list)
    # the rulings' and groups' keys, checked by resolve: (file, key as written, line, owner)
    owner_keys: list[tuple[str, str, int, str]] = field(default_factory=list)
    requirements: list[tuple[int, str, list[str], int]] = field(default_factory=list)  # (vekn id, name, reqs, line)
    problems: list[Problem] = field(default_factory=list)


def parse(files: source.DataFiles) -> Parsed:
    out = Parsed()
    out.sets = _read_sets(files, out.problems)
    for name, kind in ((source.CRYPT_FILE, CRYPT), (source.LIBRARY_FILE, LIBRARY)):
        text = files.text(name)
        if text is not None:
            out.cards.extend(_read_cards(text, name, kind, out.problems))
    text = files.text(source.LIBRARY_META_FILE)
    if text is not None:
        out.requirements = _read_requirements(text, out.problems)
    text = files.text(source.REFERENCES_FILE)
    if text is not None:
        out.references = _read_references(text, out.problems)
    text = files.text(source.GROUPS_FILE)
    if text is not None:
        out.groups = _read_groups(text, out)
    text = files.text(source.RULINGS_FILE)
    if text is not None:
        out.rulings = _read_rulings(text, out)
    out.problems = files.problems + out.problems  # files.text() adds to them as it reads
    return out


# -- CSV ---------------------------------------------------------------------------------

def _rows(text: str, name: str, required: tuple[str, ...], problems: list[Problem]) -> Iterator[tuple[int, dict]]:
    """(line, row) of each well-formed row; malformed rows are reported and skipped."""
    reader = csv.reader(io.StringIO(text, newline=""))
    try:
        header = next(reader, None)
    except csv.Error as exc:
        problems.append(Problem(name, 1, "csv-row", f"the header does not parse ({exc}); nothing of it is loaded"))
        return
    if not header:
        problems.append(Problem(name, 1, "csv-row", "the file is empty"))
        return
    header = [h.strip() for h in header]
    missing = [c for c in required if c not in header]
    if missing:
        problems.append(Problem(name, 1, "csv-row", f"the header has no column {', '.join(missing)}; "
                                                    "nothing of the file is loaded"))
        return
    last = reader.line_num
    while True:
        try:
            row = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            problems.append(Problem(name, last + 1, "csv-row", f"the row does not parse ({exc}); it is not loaded"))
            last = reader.line_num
            continue
        line, last = last + 1, reader.line_num
        if not row or (len(row) == 1 and not row[0].strip()):
            continue
        if len(row) != len(header):
            problems.append(Problem(name, line, "csv-row", f"the row has {len(row)} fields where the header has "
                                                           f"{len(header)} (a quote or comma out of place?); "
                                                           "it is not loaded"))
            continue
        yield line, dict(zip(header, row))


def _read_sets(files: source.DataFiles, problems: list[Problem]) -> dict[str, CardSet]:
    text = files.text(source.SETS_FILE)
    out: dict[str, CardSet] = {}
    if text is None:
        return out
    for line, row in _rows(text, source.SETS_FILE, ("Abbrev", "Release Date", "Full Name"), problems):
        date = _iso_date(row["Release Date"].strip())
        if row["Release Date"].strip() and date is None:
            problems.append(Problem(source.SETS_FILE, line, "bad-value",
                                    f"release date {row['Release Date']!r} is not a date (YYYYMMDD)"))
        out[row["Abbrev"].strip()] = CardSet(row["Abbrev"].strip(), row["Full Name"].strip(), date)
    return out


def _iso_date(digits: str) -> Optional[str]:
    if not re.fullmatch(r"\d{8}", digits):
        return None
    try:
        return datetime.date(int(digits[:4]), int(digits[4:6]), int(digits[6:])).isoformat()
    except ValueError:
        return None


_CARD_COLUMNS = ("Id", "Name", "Type", "Card Text")


def _read_cards(text: str, name: str, kind: str, problems: list[Problem]) -> list[Card]:
    cards, seen = [], {}
    for line, row in _rows(text, name, _CARD_COLUMNS, problems):
        ident, card_name = row["Id"].strip(), row["Name"].strip()
        if not ident.isdigit() or not card_name:
            what = f"ID {ident!r} is not a number" if not ident.isdigit() else "the card has no name"
            problems.append(Problem(name, line, "csv-row", f"{what}; the row is not loaded"))
            continue
        if ident in seen:
            problems.append(Problem(name, line, "duplicate", f"card {ident} is listed again (first at line "
                                                             f"{seen[ident]}); this row is not loaded", f"card:{ident}"))
            continue
        seen[ident] = line
        cards.append(_card(row, int(ident), card_name, kind, name, line, problems))
    return cards


def errata_runs(listed: str) -> tuple[str, list[tuple[str, bool]]]:
    """A card's text as the card list means it: the list marks what errata changed in braces ("{The bearer gets +1
    hunt.}"; "{}" where a passage was removed; marks may nest: "{at the start ..., you get {+1} transfer}").
    (the text read clean, its runs: (text, changed by errata)); the runs are [] when nothing is marked. A brace
    left open, or one closing nothing, is read as text."""
    if "{" not in listed:
        return listed, []
    opened: list[int] = []
    pairs: dict[int, int] = {}  # an opening brace's place -> its closing brace's
    for pos, char in enumerate(listed):
        if char == "{":
            opened.append(pos)
        elif char == "}" and opened:
            pairs[opened.pop()] = pos
    closing = set(pairs.values())
    runs: list[tuple[str, bool]] = []
    run: list[str] = []
    run_changed, depth = False, 0
    for pos, char in enumerate(listed):
        if pos in pairs or pos in closing:
            if pairs.get(pos) == pos + 1:  # "{}": a passage removed
                if run:
                    runs.append(("".join(run), run_changed))
                    run = []
                runs.append(("", True))
            depth += 1 if pos in pairs else -1
            continue
        if (depth > 0) != run_changed and run:
            runs.append(("".join(run), run_changed))
            run = []
        run_changed = depth > 0
        run.append(char)
    if run:
        runs.append(("".join(run), run_changed))
    if not any(changed for _, changed in runs):
        return listed, []
    return "".join(text for text, _ in runs), runs


def _card(row: dict, vekn_id: int, vekn_name: str, kind: str, file: str, line: int,
          problems: list[Problem]) -> Card:
    ident = f"card:{vekn_id}"

    def value(column: str) -> str:
        return (row.get(column) or "").strip()

    def bad(column: str, why: str) -> None:
        problems.append(Problem(file, line, "bad-value", f"{vekn_name}: {column} {value(column)!r} {why}", ident))

    text, errata = errata_runs(value("Card Text"))
    card = Card(id=ident, vekn_id=vekn_id, name=names.display_name(vekn_name), vekn_name=vekn_name, slug="",
                kind=kind, types=[t.strip() for t in value("Type").split("/") if t.strip()], text=text,
                file=file, line=line, errata=errata)
    if not card.types:
        bad("Type", "is empty")
    card.aka = [a.strip() for a in value("Aka").split(";") if a.strip()]
    listed = [c.strip() for c in value("Clan").split("/") if c.strip()]
    card.clans = [names.current_clan(c) for c in listed]  # "Assamite" is Banu Haqim now, "Follower of Set" Ministry
    card.former_clans = [c for c in listed if names.current_clan(c) != c]
    card.path = value("Path") or None
    card.artists = [a.strip() for a in value("Artist").split(";") if a.strip()]
    card.sets = [Printing(*(p.strip() for p in item.partition(":")[::2]))
                 for item in value("Set").split(",") if item.strip()]
    banned = value("Banned")
    if banned:
        if _YEAR_RE.match(banned):
            card.banned = banned
        else:
            bad("Banned", "is not a year")
    capacity = value("Capacity")
    if capacity:
        if _CAPACITY_RE.match(capacity) and (kind == LIBRARY or capacity.isdigit()):
            card.capacity = capacity
        else:
            bad("Capacity", "is not a number" + (" (a clan in the capacity column?)"
                                                 if capacity in CLANS else ""))
    if kind == CRYPT:
        _crypt_fields(card, value, bad)
    else:
        _library_fields(card, value, bad)
    return card




def _crypt_fields(card: Card, value, bad) -> None:
    group = value("Group")
    if group:
        if _GROUP_RE.match(group):
            card.group = group
        else:
            bad("Group", "is neither a number nor ANY")
    adv = value("Adv")
    if adv:
        if adv == "Advanced":
            card.advanced = True
        else:
            bad("Adv", "is not 'Advanced'")
    card.title = value("Title") or None
    imbued = "Imbued" in card.types
    unknown = []
    for code in value("Disciplines").split():
        if code == "-none-":
            continue
        name = symbols.discipline_name(code)
        if name is None:
            unknown.append(code)
            continue
        level = None if imbued else ("superior" if code.isupper() else "inferior")
        card.disciplines.append(Discipline(code.lower(), name, level))
    if unknown:
        bad("Disciplines", f"holds codes that are no discipline or virtue: {', '.join(unknown)}")
    m = _SECT_RE.match(card.text)
    card.sect = m.group("sect") if m and not imbued else None


def _library_fields(card: Card, value, bad) -> None:
    for column, attr in (("Pool Cost", "pool_cost"), ("Blood Cost", "blood_cost"),
                         ("Conviction Cost", "conviction_cost")):
        cost = value(column)
        if cost:
            if _COST_RE.match(cost):
                setattr(card, attr, cost)
            else:
                bad(column, "is neither a number nor X")
    wanted = value("Discipline")
    card.disciplines_all = "&" in wanted
    unknown = []
    for name in filter(None, (n.strip() for n in re.split(r"[/&]", wanted))):
        code = symbols.discipline_code(name)
        if code is None:
            unknown.append(name)
        else:
            card.disciplines.append(Discipline(code, symbols.discipline_name(code) or name, None))
    if unknown:
        bad("Discipline", f"names no discipline or virtue: {', '.join(unknown)}")
    burn = value("Burn Option")
    if burn:
        if burn in ("Y", "Yes"):
            card.burn_option = True
        else:
            bad("Burn Option", "is not Y")


def _read_requirements(text: str, problems: list[Problem]) -> list[tuple[int, str, list[str], int]]:
    out = []
    for line, row in _rows(text, source.LIBRARY_META_FILE, ("Id", "Name", "Requirement"), problems):
        ident = row["Id"].strip()
        if not ident.isdigit():
            problems.append(Problem(source.LIBRARY_META_FILE, line, "csv-row",
                                    f"ID {ident!r} is not a number; the row is not loaded"))
            continue
        reqs = [r.strip() for r in row["Requirement"].split(",") if r.strip()]
        out.append((int(ident), row["Name"].strip(), reqs, line))
    return out


# -- YAML --------------------------------------------------------------------------------

def _read_references(text: str, problems: list[Problem]) -> list[Reference]:
    name = source.REFERENCES_FILE
    out, seen = [], {}
    for entry in top_entries(text, name, problems):
        m = REFERENCE_RE.match(entry.key)
        if entry.key in seen:
            problems.append(Problem(name, entry.line, "duplicate", f"reference {entry.key!r} is listed again (first "
                                                                   f"at line {seen[entry.key]}); this one is ignored",
                                    entry.key))
            continue
        seen[entry.key] = entry.line
        url = scalar(entry.value)
        url = url.strip() if url else None
        ref = Reference(id=entry.key, source=entry.key.split(" ", 1)[0], date=None, url=url or None, file=name,
                        line=entry.line)
        if m is None:
            problems.append(Problem(name, entry.line, "bad-value", f"reference ID {entry.key!r} is neither "
                                                                   "'XXX YYYYMMDD[-n]' nor 'RBK anchor'", entry.key))
        elif m.group("date"):
            ref.date = _iso_date(m.group("date"))
            if ref.date is None:
                problems.append(Problem(name, entry.line, "bad-value",
                                        f"reference {entry.key!r}: {m.group('date')} is not a date", entry.key))
        if not ref.url:
            what = "is not a URL" if not isinstance(entry.value, yaml.ScalarNode) else "has no URL"
            ref.status, ref.reason = BROKEN, f"the reference {what}"
            problems.append(Problem(name, entry.line, "no-url", f"reference {entry.key!r} {what}", entry.key))
        elif not re.match(r"^https?://\S+$", ref.url):
            ref.status, ref.reason = BROKEN, f"{ref.url!r} is not a URL"
            problems.append(Problem(name, entry.line, "no-url", f"reference {entry.key!r}: {ref.url!r} is not a URL",
                                    entry.key))
        else:
            ref.status = EXTERNAL
        out.append(ref)
    return out


def _read_groups(text: str, out: Parsed) -> list[CardGroup]:
    name = source.GROUPS_FILE
    groups: dict[str, CardGroup] = {}
    for entry in top_entries(text, name, out.problems):
        ident, _, group_name = entry.key.partition("|")
        if not re.fullmatch(r"G\d+", ident):
            out.problems.append(Problem(name, entry.line, "bad-entry", f"group key {entry.key!r} is not "
                                                                       "'G<number>|<name>'; the group is not loaded"))
            continue
        gid = f"group:{ident}"
        if gid in groups:
            out.problems.append(Problem(name, entry.line, "duplicate", f"group {ident} is listed again (first at line "
                                                                       f"{groups[gid].line}); its cards are added to it",
                                        gid))
            group = groups[gid]
        else:
            group = groups[gid] = CardGroup(gid, group_name.strip(), name, entry.line)
        value = entry.value
        if scalar(value) is None and isinstance(value, yaml.ScalarNode):
            continue  # an empty group
        if not isinstance(value, yaml.MappingNode):
            out.problems.append(Problem(name, entry.line, "bad-entry", f"group {ident} is not a mapping of "
                                                                       "'<card id>|<card name>: symbols'", gid))
            continue
        for key_node, note_node in value.value:
            key = scalar(key_node)
            if key is None:
                out.problems.append(Problem(name, line_of(key_node), "bad-entry", f"a card of group {ident} is not "
                                                                                  "text", gid))
                continue
            group.members.append(GroupMember(None, key.strip(), (scalar(note_node) or "").strip()))
            out.owner_keys.append((name, key.strip(), line_of(key_node), gid))
    return list(groups.values())


def _read_rulings(text: str, out: Parsed) -> list[Ruling]:
    name = source.RULINGS_FILE
    rulings: list[Ruling] = []
    ids: set[str] = set()
    first_line: dict[str, int] = {}
    for entry in top_entries(text, name, out.problems):
        ident, _, _ = entry.key.partition("|")
        m = _OWNER_RE.match(ident.strip())
        if "|" not in entry.key or m is None:
            out.problems.append(Problem(name, entry.line, "bad-entry", f"key {entry.key!r} is not '<card id>|<name>' "
                                                                       "nor '<G group id>|<name>'; its rulings are not "
                                                                       "loaded"))
            continue
        owner = f"card:{m.group('card')}" if m.group("card") else f"group:{m.group('group')}"
        if entry.key in first_line:
            out.problems.append(Problem(name, entry.line, "duplicate", f"{entry.key!r} is listed again (first at line "
                                                                       f"{first_line[entry.key]}); its rulings are "
                                                                       "added to the first", owner))
        else:
            first_line[entry.key] = entry.line
            out.owner_keys.append((name, entry.key, entry.line, owner))
        if not isinstance(entry.value, yaml.SequenceNode):
            out.problems.append(Problem(name, entry.line, "bad-entry", f"the rulings of {entry.key!r} are not a list",
                                        owner))
            continue
        for item in entry.value.value:
            raw = scalar(item)
            if raw is None or not raw.strip():
                out.problems.append(Problem(name, line_of(item), "bad-entry", f"a ruling of {entry.key!r} is not text",
                                            owner))
                continue
            ruling = parse_ruling(raw, owner, line_of(item), out.problems)
            ruling.id = _ruling_id(owner, ruling.references, ids)
            ids.add(ruling.id)
            rulings.append(ruling)
    return rulings


def _ruling_id(owner: str, references: list[str], taken: set[str]) -> str:
    """`ruling:<card or group>/<first reference>`: its text can change, its sources
    rarely do. Rulings of one card citing the same first reference are numbered in
    file order: the second is `.../lsj-19980302.2`."""
    first = references[0] if references else "unsourced"
    base = f"ruling:{owner.split(':', 1)[1]}/" + "-".join(first.lower().split())
    ident, n = base, 1
    while ident in taken:
        n += 1
        ident = f"{base}.{n}"
    return ident


def parse_ruling(raw: str, owner: str, line: int, problems: list[Problem]) -> Ruling:
    """A ruling's runs, its references and its readable text (`text` is the runs
    joined; the references closing it are not part of it)."""
    raw = raw.strip()
    runs: list[Run] = []
    references: list[str] = []
    pos = 0
    for m in _MARKUP_RE.finditer(raw):
        if m.start() > pos:
            runs.append(Run(RUN_TEXT, raw[pos:m.start()]))
        pos = m.end()
        if m.group("card") is not None:
            runs.append(Run(RUN_CARD, m.group("card").strip()))
            continue
        body = " ".join(m.group("bracket").split())
        if REFERENCE_RE.match(body):
            references.append(body)
            runs.append(Run(RUN_REFERENCE, body, body))
            continue
        meaning = symbols.symbol_meaning(body)
        if meaning is None:
            problems.append(Problem(source.RULINGS_FILE, line, "unknown-symbol",
                                    f"[{body}] is neither a discipline or card-type symbol nor a reference", owner))
            runs.append(Run(RUN_TEXT, m.group(0)))
        else:
            runs.append(Run(RUN_SYMBOL, f"[{body}]", meaning))
    if pos < len(raw):
        runs.append(Run(RUN_TEXT, raw[pos:]))
    # The references closing the ruling are its sources, not its text; a stray quote after them (a slip of the
    # YAML: `... [LSJ 20090324]"`) is neither.
    while runs and (runs[-1].kind == RUN_REFERENCE or (runs[-1].kind == RUN_TEXT and not runs[-1].text.strip(_STRAY))):
        runs.pop()
    if runs and runs[-1].kind == RUN_TEXT:
        runs[-1].text = runs[-1].text.rstrip()
    runs = _merged(runs)
    if not references:
        problems.append(Problem(source.RULINGS_FILE, line, "no-reference",
                                f"the ruling cites no reference: '{raw[:60]}…'", owner))
    return Ruling(id="", owner=owner, text="".join(r.text for r in runs), raw=raw, file=source.RULINGS_FILE,
                  line=line, parts=runs, references=list(dict.fromkeys(references)))


_STRAY = " \t\n\"'."  # what may stand after a ruling's closing references and is no text of it (a quote, a full stop)


def _merged(runs: list[Run]) -> list[Run]:
    out: list[Run] = []
    for run in runs:
        if run.kind == RUN_TEXT and out and out[-1].kind == RUN_TEXT:
            out[-1] = Run(RUN_TEXT, out[-1].text + run.text)
        else:
            out.append(run)
    return out
