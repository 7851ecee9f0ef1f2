"""How much of the card pool the engine reads (issue 37): for every library and crypt card, whether every
sentence of its text is read (applied or checked by the engine), or which sentence is not.

    python bench/card_coverage.py [--unread N]

A library card's text is read as a scenario playing it reads it (`judge.engine.vtes.cards.modelled`), line by
line (a card with Discipline lines is fully read when every line is, at its level); a crypt card's as a
vampire named by it gets it (`judge.engine.vtes.card_text.read_crypt_text`). Figures by card type, for the
300 cards with the most rulings, and for the "Only usable ..." conditions across the pool. `--unread N`
lists the N commonest sentences not read (digits as N): where the next forms to read are.

Targets (issue 37): library cards fully read >= 80%, crypt card texts >= 80%, "Only usable" conditions
100% read.
"""
from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.cards import get_cards  # noqa: E402
from judge.corpus import get_corpus  # noqa: E402
from judge.engine.vtes.card_text import read_crypt_text  # noqa: E402
from judge.engine.vtes.cards import Catalog, modelled  # noqa: E402

TARGETS = {"library": 0.80, "crypt": 0.80, "only usable": 1.0}


def unread_of(facts, catalog: Catalog) -> list[str]:
    """The sentences of a card's text the engine does not read (empty: fully read)."""
    if facts.kind == "crypt":  # an advanced vampire unmerged and merged (its "[MERGED]" lines and its base card's
        # text, as `merged: true` reads it): both must be read
        base = catalog.base_of(facts) if facts.advanced else None
        readings = [read_crypt_text(facts.text, facts.sect, facts.title, facts.name)]
        if facts.advanced:
            readings.append(read_crypt_text(facts.text, facts.sect, facts.title, facts.name, merged=True,
                                            base_text=base.text if base else None))
        return list(dict.fromkeys(s for r in readings for s in r.unread)) + (
            ["(merged: no one base card in the card base)"] if facts.advanced and base is None else [])
    # every Discipline line, each at its level (a card whose lines name other Disciplines is read line by line)
    lines = [(line.level, n) for n, line in enumerate(facts.discipline_lines())] or [(None, None)]
    out: list[str] = []
    for level, number in lines:
        for sentence in modelled(facts, level, number).rest:
            if sentence not in out:
                out.append(sentence)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--unread", type=int, default=0, help="list the N commonest sentences not read")
    args = parser.parse_args()
    base = get_cards(get_corpus())
    catalog = Catalog(base)
    by_type: dict[str, list[int]] = {}  # type -> [cards, fully read]
    kinds: dict[str, list[int]] = {"library": [0, 0], "crypt": [0, 0]}
    only = [0, 0]  # "Only usable ..." sentences: [seen, read]
    unread_sentences: Counter = Counter()
    full: dict[str, bool] = {}
    for card in base.cards.values():
        facts = catalog.facts_of(card)  # the version itself, not the first of its name
        unread = unread_of(facts, catalog)
        full[card.id] = not unread
        kind = facts.kind
        kinds[kind][0] += 1
        kinds[kind][1] += not unread
        for t in facts.types:
            row = by_type.setdefault(t if kind == "library" else f"crypt: {t}", [0, 0])
            row[0] += 1
            row[1] += not unread
        sentences = re.findall(r"Only usable[^.]*\.", facts.text)
        only[0] += len(sentences)
        only[1] += sum(1 for s in sentences if not any(s.rstrip(".") in u for u in unread))
        for s in unread:
            unread_sentences[re.sub(r"\d", "N", s)] += 1
    ruled = sorted(base.cards, key=lambda i: -len(base.by_card.get(i, ())))[:300]
    print(f"{len(base.cards)} cards; a card is fully read when the engine reads every sentence of its text")
    print(f"  {'':<34}{'cards':>7}{'fully read':>12}{'share':>8}   target")
    for label, (n, ok) in (("library cards", kinds["library"]), ("crypt cards", kinds["crypt"])):
        target = TARGETS["library" if label.startswith("library") else "crypt"]
        share = ok / (n or 1)
        print(f"  {label:<34}{n:>7}{ok:>12}{share:>8.1%}   >= {target:.0%}: {'met' if share >= target else 'NOT met'}")
    share = only[1] / (only[0] or 1)
    label = '"Only usable ..." conditions'
    print(f"  {label:<34}{only[0]:>7}{only[1]:>12}{share:>8.1%}   100%: {'met' if share >= 1 else 'NOT met'}")
    top = sum(full[i] for i in ruled)
    print(f"  {'the 300 cards with most rulings':<34}{300:>7}{top:>12}{top / 300:>8.1%}")
    print("\nby card type")
    for t, (n, ok) in sorted(by_type.items(), key=lambda kv: -kv[1][0]):
        print(f"  {t:<34}{n:>7}{ok:>12}{ok / n:>8.1%}")
    if args.unread:
        print(f"\nthe {args.unread} commonest sentences not read")
        for s, n in unread_sentences.most_common(args.unread):
            print(f"  {n:>5}  {s[:110]}")


if __name__ == "__main__":
    main()
