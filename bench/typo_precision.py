"""The typo corrector's precision and recall on a list of its own, written apart
from the gold set and never used to tune the search or the table talk.

    python bench/typo_precision.py [--list]

Each entry is a word as typed, alone as a query (`judge search --json` asks it
so), and what the search should make of it: the book's word it misspells, or
nothing (a real English word, a word of the books, a word players say: never
rewritten). A word counts as corrected when the search offers `did_you_mean`.

  precision: of the words the search corrected, the share corrected to the right word
  recall:    of the misspellings, the share corrected to the right word
  kept:      of the real words, the share left as typed
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from judge.corpus import load_corpus  # noqa: E402
from judge.search import Search  # noqa: E402

# Misspellings of the games' words (vampire names aside) as players type them on a
# phone: a letter dropped, doubled, swapped or mistaken; none of them is in the table
# talk's own misspelling entries.
MISSPELT = {
    "intercpet": "intercept", "stealht": "stealth", "recation": "reaction", "aggravatd": "aggravated",
    "equpiment": "equipment", "retaner": "retainer", "camarrilla": "camarilla", "sabbatt": "sabbat",
    "polticial": "political", "refrendum": "referendum", "referendun": "referendum", "torpro": "torpor",
    "bloood": "blood", "capactiy": "capacity", "discpline": "discipline", "disciplne": "discipline",
    "libarary": "library", "crpyt": "crypt", "influece": "influence", "transfr": "transfer",
    "predaotr": "predator", "combta": "combat", "strke": "strike", "manuevers": "maneuvers",
    "intercet": "intercept", "dodeg": "dodge", "aditional": "additional", "mininon": "minion",
    "minon": "minion", "unlcok": "unlock", "justicaar": "justicar", "primogin": "primogen",
    "archbisop": "archbishop", "imbeud": "imbued", "tilte": "title", "conteset": "contest",
    "ballott": "ballot", "methuslah": "methuselah", "wonded": "wounded", "prestgie": "prestige",
    "agneda": "agenda", "coterrie": "coterie", "attachement": "attachment", "diablerst": "diablerist",
    "amaranht": "amaranth", "recruitt": "recruit", "vampier": "vampire", "vampries": "vampires",
    "pefrorm": "perform", "ousetd": "ousted", "thaumaturgey": "thaumaturgy", "sequencng": "sequencing",
    "blokc": "block",
}

# Real words: English words the books may not use, the books' own words, and words
# players say (slang, abbreviations, older terms). None of them is to be rewritten.
REAL = [
    # English
    "sweep", "standing", "went", "gun", "split", "shuffle", "bluff", "cheat", "judge", "legal", "allowed",
    "opponent", "whatever", "please", "yeah", "combo", "stolen", "drew", "bled", "fought", "brought",
    "lunge", "wake", "ping", "poke", "stealthy", "blocker", "nerf", "cycle", "toss", "ditch", "refill",
    "knocked", "sneaky", "shot", "punch", "dies", "killed", "swap", "steal", "forward", "push",
    # the books' words
    "diablerie", "diablerise", "methuselah", "torpor", "referendum", "prestige", "coterie", "haven",
    "maneuver", "intercept", "retainer", "antitribu", "justicar", "primogen", "kholo", "magaji", "imbued",
    "gehenna", "baali", "ashur", "laibon", "inconnu", "amaranth", "capacity", "unlock", "unhosted",
    # words players say
    "untap", "untapped", "tapped", "diablerize", "diablerized", "vamp", "torp", "diab", "agg", "uncon",
    "xfer", "reax", "cammy", "grandprey", "mpa", "dpa", "unblockable", "bloat", "rush", "bounce", "wall",
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--list", action="store_true", help="list every word the search got wrong")
    args = parser.parse_args()
    corpus = load_corpus()
    with tempfile.TemporaryDirectory() as tmp:
        searcher = Search(corpus, root=Path(tmp))
        made = {w: searcher.search(w, limit=1).did_you_mean for w in [*MISSPELT, *REAL]}
    right = [w for w, want in MISSPELT.items() if made[w] == want]
    corrected = [w for w, got in made.items() if got]
    kept = [w for w in REAL if not made[w]]
    print(f"{len(MISSPELT)} misspellings, {len(REAL)} real words")
    print(f"  precision {len(right) / max(1, len(corrected)):.3f}  ({len(right)} of {len(corrected)} corrections right)")
    print(f"  recall    {len(right) / len(MISSPELT):.3f}  ({len(right)} of {len(MISSPELT)} misspellings)")
    print(f"  kept      {len(kept) / len(REAL):.3f}  ({len(kept)} of {len(REAL)} real words left as typed)")
    if args.list:
        for w, want in MISSPELT.items():
            if made[w] != want:
                print(f"  misspelling {w!r}: {made[w]!r}, not {want!r}")
        for w in REAL:
            if made[w]:
                print(f"  real word {w!r} rewritten: {made[w]!r}")


if __name__ == "__main__":
    main()
