"""Questions about cards: does a judge's question find the ruling that answers it? Beside SQLite FTS5 bm25 over
the rulings, in one run.

    python bench/rulings_quality.py [--misses] [--holdout]

The question set is tests/rulings_gold.yaml (issue 35): questions as judges and players ask them about cards
(many naming the card loosely: misspelt, partial, its name before the comma, an abbreviation), each naming the
ruling that answers it (or the card itself, when its own text does); and card look-ups typed as people type them.
Every third entry is held out: its figures are printed with `--holdout` only, for the closing report, never while
tuning.

Each question is asked as `judge search --json QUESTION` asks it (and again with `--in rulings`), and a ruling
counts at its place among what the answer shows: the card panel's rulings first, then the hits that are rulings
(a card answers at the panel card's place). Printed: recall@1, recall@5 and MRR (over the first 10 places) for
the tuned and the held-out parts, in both scopes, beside FTS5 bm25 over every ruling's text prefixed by the names
of the cards it applies to (the question's words OR-ed). The look-ups count the intended card first in `judge
card` and in the search's card panel. Targets on the held-out part (issue 35): R@5 >= 0.95, MRR >= 0.85;
look-ups 29 of 30.
"""
from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from dataclasses import dataclass
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

GOLD_FILE = ROOT / "tests" / "rulings_gold.yaml"
PLACES = 10
TARGETS = {"R@5": 0.95, "MRR": 0.85}


@dataclass(frozen=True)
class Question:
    q: str
    card: str
    name_form: str
    answer: str  # a ruling ID or a card ID
    holdout: bool


@dataclass(frozen=True)
class Lookup:
    typed: str
    card: str
    form: str
    holdout: bool


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip().casefold()


def load(base) -> tuple[list[Question], list[Lookup]]:
    """The question set, each answer checked against the card base: a ruling ID that no longer names a ruling is
    found again by its `contains` words among its card's rulings (a renamed ruling does not rot the set); one
    found nowhere is an error."""
    data = yaml.safe_load(GOLD_FILE.read_text(encoding="utf-8"))
    questions, problems = [], []
    for n, raw in enumerate(data["questions"], 1):
        answer = raw["answer"]
        if answer.startswith("ruling:") and answer not in base.rulings:
            needle = _flat(raw["contains"])
            found = [r.id for r in base.rulings.values() if needle in _flat(r.text)]
            if len(found) != 1:
                problems.append(f"question {n}: {answer} is no ruling, and {len(found)} rulings hold its words")
                continue
            answer = found[0]
        elif answer.startswith("card:") and answer not in base.cards:
            problems.append(f"question {n}: {answer} is no card")
            continue
        questions.append(Question(raw["q"], raw["card"], raw["name_form"], answer, bool(raw["holdout"])))
    lookups = [Lookup(raw["typed"], raw["card"], raw["form"], bool(raw["holdout"])) for raw in data["lookups"]]
    if problems:
        sys.exit("the question set does not fit the card base:\n  " + "\n  ".join(problems))
    return questions, lookups


def intended(base, name: str):
    """The card a gold `card` names: the card-list name, with the rulings' mark for a version ("Theo Bell (G6)")."""
    card = base.card(name)
    if card is None:
        sys.exit(f"the question set names {name!r}, which is no card")
    return card


def places_in_answer(data: dict, answer: str) -> list[str]:
    """What a search's JSON shows, in order, as IDs: for a ruling, the card panel's rulings, then the hits that
    are rulings; for a card (its own text answers), the card panel's cards."""
    cards = data.get("cards") or {}
    if answer.startswith("card:"):
        return [c["id"] for c in cards.get("cards") or []]
    shown = [r["id"] for r in cards.get("rulings") or []]
    shown += [h["id"] for h in data.get("hits") or [] if h.get("kind") == "ruling"]
    return list(dict.fromkeys(shown))


class Fts5Rulings:
    """SQLite FTS5 over every ruling's text, prefixed by the names of the cards it applies to; bm25 order, the
    query's words OR-ed (the issue's baseline)."""

    def __init__(self, base):
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE r USING fts5(id UNINDEXED, text, tokenize='porter unicode61')")
        rows = []
        for ruling in base.rulings.values():
            names = " ".join(base.cards[c].name for c in ruling.cards if c in base.cards)
            rows.append((ruling.id, f"{names} {ruling.text}"))
        self.db.executemany("INSERT INTO r(id, text) VALUES (?, ?)", rows)

    def search(self, query: str) -> list[str]:
        words = re.findall(r"\w+", query)
        if not words:
            return []
        match = " OR ".join('"' + w.replace('"', '""') + '"' for w in words)
        return [row[0] for row in self.db.execute("SELECT id FROM r WHERE r MATCH ? ORDER BY bm25(r) LIMIT ?",
                                                  (match, PLACES))]


def scores(ranks: list[int]) -> dict[str, float]:
    n = len(ranks) or 1
    return {"R@1": sum(r == 1 for r in ranks) / n, "R@5": sum(0 < r <= 5 for r in ranks) / n,
            "MRR": sum(1 / r for r in ranks if 0 < r <= PLACES) / n}


def rank_of(answer: str, shown: list[str]) -> int:
    return shown.index(answer) + 1 if answer in shown[:PLACES] else 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--misses", action="store_true", help="list the tuned questions not answered first")
    parser.add_argument("--holdout", action="store_true", help="also score the held-out part (closing report only)")
    args = parser.parse_args()

    from click.testing import CliRunner

    from judge.cards import get_cards
    from judge.cli import cli
    from judge.corpus import get_corpus
    corpus = get_corpus()
    base = get_cards(corpus)
    questions, lookups = load(base)
    runner = CliRunner()
    fts = Fts5Rulings(base)

    def searched(query: str, *extra: str) -> dict:
        result = runner.invoke(cli, ["search", query, "--json", *extra])
        if result.exit_code not in (0, 1):
            sys.exit(f"judge search {query!r} failed: {result.output[-500:]}")
        return json.loads(result.stdout)

    parts = {"tuned": [q for q in questions if not q.holdout]}
    if args.holdout:
        parts["held-out"] = [q for q in questions if q.holdout]
    misses = []
    print(f"question set: {len(questions)} questions ({sum(q.holdout for q in questions)} held out, "
          f"{sum(q.name_form not in ('exact', 'case') for q in questions)} naming the card loosely), "
          f"{len(lookups)} look-ups; {len(base.rulings):,} rulings")
    for part, chosen in parts.items():
        ranks = {"judge": [], "judge --in rulings": [], "FTS5 bm25": []}
        for q in chosen:
            default = places_in_answer(searched(q.q), q.answer)
            ranks["judge"].append(rank_of(q.answer, default))
            ranks["judge --in rulings"].append(rank_of(q.answer, places_in_answer(searched(q.q, "--in", "rulings"),
                                                                                  q.answer)))
            ranks["FTS5 bm25"].append(rank_of(q.answer, fts.search(q.q)))
            if part == "tuned" and ranks["judge"][-1] != 1:
                misses.append((ranks["judge"][-1], q, default[:4]))
        print(f"\n{part} ({len(chosen)} questions)")
        print(f"  {'':<8}" + "".join(f"{name:>22}" for name in ranks))
        for measure in ("R@1", "R@5", "MRR"):
            figures = {name: scores(r)[measure] for name, r in ranks.items()}
            mark = ""
            if part == "held-out" and measure in TARGETS:
                mark = f"   target >= {TARGETS[measure]:.2f}: {'met' if figures['judge'] >= TARGETS[measure] else 'NOT met'}"
            print(f"  {measure:<8}" + "".join(f"{figures[name]:>22.3f}" for name in ranks) + mark)
    for part in parts:
        chosen = [lk for lk in lookups if lk.holdout == (part == "held-out")]
        card_first = search_first = 0
        for lk in chosen:
            want = intended(base, lk.card).id
            found = runner.invoke(cli, ["card", lk.typed, "--json"])
            if found.exit_code == 0 and json.loads(found.stdout).get("id") == want:
                card_first += 1
            panel = (searched(lk.typed).get("cards") or {}).get("cards") or []
            if panel and panel[0]["id"] == want:
                search_first += 1
        print(f"\nlook-ups, {part} ({len(chosen)}): intended card first in `judge card` {card_first}, "
              f"in `judge search` {search_first}")
    if args.misses:
        print("\ntuned questions not answered first (rank 0: not in the first 10; what was shown first):")
        for rank, q, shown in misses:
            print(f"  {rank:>2}  [{q.name_form}] {q.q}\n        want {q.answer}; shown {', '.join(shown)}")


if __name__ == "__main__":
    main()
