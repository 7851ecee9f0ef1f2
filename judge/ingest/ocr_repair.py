"""The scans repaired: words an OCR'd book garbled, corrected where the evidence is sure, every repair recorded.

The older book (`rb`, `ocr: true`) was scanned from a two-column print: words fused where the columns met
("hasa" for "has a"), letters misread ("availabte"), debris inside words ("sé#ments"). judge quoted that damage
to its users (`judge show rb:6.4.6/2` printed "damageemtégon"), and the version comparer flagged it as edits.

This step runs when a corpus is assembled (judge.corpus.assemble_corpus), before references are resolved, on
every paragraph of an OCR document. A word is **damaged** when it is in no English dictionary (symspellpy's
frequency dictionary, read from the installed package), in no clean book of its game, and not one the book itself
writes whole three times or more (the `Lexicon`). Each
damaged word is repaired by the first of these that is sure, and otherwise kept as it is:

1. **aligned**: the paragraph's twin in a clean edition (the section-6 book keeps the older book's numbering:
   `rb:6.2.2/9` is `s6:6.2.2/9`), when the two texts are alike. The word diff of the two puts the damaged words
   against the clean words that stand in their place; those are taken when their letters match the damage
   (rapidfuzz ratio >= ALIGNED_MIN_RATIO), mapped back to the older book's terms ("locks" -> "taps", from
   judge/data/terminology.yaml), never across a pronoun the older book wrote otherwise ("they" for "he").
   When the paragraph has no twin of its number, its **current** counterpart stands in: the current book's
   paragraph most alike by its words (rapidfuzz ratio >= NEAREST_MIN_SIMILARITY), whose words are taken only
   when they match the damage's letters closer (CURRENT_MIN_RATIO): the current book was reworded since.
2. **split**: a fused word cut into words of the game's books ("hasa" -> "has a"), by SymSpell's word
   segmentation without any edit, every piece a known word.
3. **spelling**: the one word of the game's books within one edit (two for a word of 8 letters or more), by
   SymSpell's look-up; a tie leaves the word as it is.

Where the paragraph has a twin, only the twin repairs it: a word it does not put in the damaged word's place is a
guess ("actidg" read as "acting" where the twin says "action only").

Nothing else changes: a word inside a reference, a number, a known word, punctuation and spacing stay as the
scan has them. Each repair is a `Repair` on its paragraph (its place in the repaired text, the original, and
which of the three made it), so the original text is always there (`Paragraph.scanned_text`), shown on
request (`judge show ID --as-scanned`, `scan` in its JSON, the rule page's "As scanned"). `scan_figures` counts the words found in no dictionary
and in no book's vocabulary, per book, before and after: the figures `bench/ocr_repair.py` prints.
"""
from __future__ import annotations

import dataclasses
import difflib
import importlib.resources
import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable, Optional

from judge.model import Document, Paragraph, Repair

ALIGNED_MIN_SIMILARITY = 60  # a twin paragraph this alike (rapidfuzz ratio of the texts) is the same text
NEAREST_MIN_SIMILARITY = 75  # a current paragraph this alike, found by its words alone, is the same text
ALIGNED_MIN_RATIO = 55  # the clean words taken for damaged ones must match their letters this well
# ... and when the clean text is the current book's (reworded since): damage hiding a real edit ("mxy" for a
# "may" the current book made "must") must not take the current words.
CURRENT_MIN_RATIO = 70
ALIGNED_MAX_WORDS = 4  # a damaged passage longer than this is not repaired from the twin
MAX_SPLIT_PIECES = 3
SPLIT_MIN_USES = 3
OWN_MIN_USES = 3
SPELL_PREFIX = 5  # SymSpell's prefix length: the books' 1,700 words take a third of the time of 7, same repairs  # an OCR'd book's own word, written whole this often, is a word (its vocabulary)  # each piece of a split word is one the clean books write in lower case this often
_TOKEN = re.compile(r"\S+")
_EDGE = "\"'“”‘’()[].,;:!?-–—/*"
_LETTERS = re.compile(r"[^\W\d_]", re.UNICODE)
_PLAIN_WORD = re.compile(r"[A-Za-z]+")
# A run of non-spaces that is one plain word between edge punctuation ("(untap," but not "un@tap").
_WHOLE_PLAIN_WORD = re.compile(r"(?<!\S)[\"'“”‘’(\[]*([A-Za-z]+)[\"'“”‘’)\].,;:!?]*(?!\S)")
_NUMBERISH = re.compile(r"[\d.,/%+±×x-]+")


@dataclass
class Lexicon:
    """What counts as a word: the English dictionary, and the words of the game's clean books (and the older
    terms the terminology map knows, "untap" among them); `game_words` are the only repairs offered."""

    dictionary: frozenset[str]
    game_words: dict[str, int]  # lowercase word -> how often the clean books use it
    # The game's words a repair may write: those the books write in lower case at least once (a name such as
    # "Ryan" is no repair of "ryantap").
    common_words: dict[str, int]
    to_older: dict[str, str]  # a current term -> the older book's ("locks" -> "taps")
    to_newer: dict[str, str]  # an older term -> the current one, word for word ("tapped" -> "locked")
    pronouns: frozenset[str]  # current forms the older book wrote otherwise ("they": he or she)

    def known(self, word: str) -> bool:
        """Is `word` (as written, edge punctuation stripped) a word, not damage?"""
        parts = [p for p in re.split(r"['’/().-]", word.lower()) if p]
        if not parts:
            return True
        for part in parts:
            if part in self.game_words or part in self.dictionary:
                continue
            if part in ("s", "t", "ll", "re", "ve", "d", "m"):  # the end of "don't", "player's"
                continue
            return False
        return True


@lru_cache(maxsize=1)
def english_words() -> frozenset[str]:
    """symspellpy's English frequency dictionary (82,765 words), as a set: read from the installed package."""
    data = importlib.resources.files("symspellpy") / "frequency_dictionary_en_82_765.txt"
    with data.open("r", encoding="utf-8") as fh:
        return frozenset(line.split(" ", 1)[0] for line in fh if line.strip())


@lru_cache(maxsize=1)
def _terminology_forms() -> tuple[tuple[str, str, str, str], ...]:
    """(game, kind, older form, current form) of every entry of judge/data/terminology.yaml. Read here, not
    through judge.compare.terminology: ingest comes before the services (tests/test_layout.py)."""
    from judge import paths
    from judge.datafile import read_yaml
    data, _ = read_yaml(paths.data_dir() / "terminology.yaml", "the edition terminology")
    out = []
    for entry in (data or {}).get("entries") or ():
        if isinstance(entry, dict) and isinstance(entry.get("forms"), dict):
            for old, new in entry["forms"].items():
                out.append((str(entry.get("game", "")), str(entry.get("kind", "")), str(old).lower(),
                            str(new).lower()))
    return tuple(out)


def lexicon_of(documents: Iterable[Document], game: str, leave_out: str = "",
               own: Optional[Document] = None) -> Lexicon:
    """The lexicon of `game` from its clean (non-OCR) books among `documents` (but `leave_out`); with `own`, an
    OCR'd book, also the words it writes whole at least OWN_MIN_USES times (its own vocabulary: damage is rarely
    the same twice)."""
    from collections import Counter
    written: Counter = Counter()  # each word as written, of the clean books (one C pass per book)
    for doc in documents:
        if doc.meta.game != game or doc.meta.ocr or doc.id == leave_out:
            continue
        written.update(_PLAIN_WORD.findall("\n".join(p.text for p in doc.paragraphs)))
    if own is not None:
        whole = Counter(_WHOLE_PLAIN_WORD.findall("\n".join(p.text for p in own.paragraphs)))
        written.update({word: uses for word, uses in whole.items() if uses >= OWN_MIN_USES})
    counts: dict[str, int] = {}
    common: dict[str, int] = {}
    for word, uses in written.items():
        key = word.lower()
        counts[key] = counts.get(key, 0) + uses
        if word[0].islower():
            common[key] = common.get(key, 0) + uses
    to_older: dict[str, str] = {}
    to_newer: dict[str, str] = {}
    pronouns: set[str] = set()
    for entry_game, kind, old, new in _terminology_forms():
        if entry_game != game:
            continue
        for word in old.split():
            counts.setdefault(word, 1)  # "untap" is the older book's word, not damage
            common.setdefault(word, 1)
        if kind == "pronoun":
            pronouns.update(new.split())
        elif " " not in old and " " not in new:
            to_older.setdefault(new, old)
            to_newer.setdefault(old, new)
    return Lexicon(english_words(), counts, common, to_older, to_newer, frozenset(pronouns))


# -- finding the damage --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class _Token:
    start: int  # of the word, edge punctuation excluded
    end: int
    word: str


_EDGE_CLASS = "[" + re.escape(_EDGE) + "]"
# A run of non-spaces: its edge punctuation either side, and the word between (group 1).
_WORD_IN_TOKEN = re.compile(rf"{_EDGE_CLASS}*((?:(?!{_EDGE_CLASS}*(?:\s|$))\S)+){_EDGE_CLASS}*")


def _tokens(text: str) -> list[_Token]:
    """Each run of non-spaces of `text` as its word without edge punctuation (a run of punctuation alone is none)."""
    return [_Token(m.start(1), m.end(1), m.group(1)) for m in _WORD_IN_TOKEN.finditer(text)]


def is_damaged(word: str, lexicon: Lexicon) -> bool:
    """A word no dictionary and no book of the game knows (numbers and symbols aside)."""
    if not _LETTERS.search(word) or _NUMBERISH.fullmatch(word):
        return False
    return not lexicon.known(word)


def damaged_words(text: str, lexicon: Lexicon) -> list[str]:
    return [t.word for t in _tokens(text) if is_damaged(t.word, lexicon)]


# -- repairing ------------------------------------------------------------------------------------------------
class _Speller:
    """SymSpell over the game's words: segmentation of fused words, and look-up of misread ones."""

    def __init__(self, lexicon: Lexicon):
        from symspellpy import SymSpell
        self.lexicon = lexicon
        self.sym = SymSpell(max_dictionary_edit_distance=2, prefix_length=SPELL_PREFIX)
        for word, count in lexicon.common_words.items():
            self.sym.create_dictionary_entry(word, count)

    def split(self, word: str) -> Optional[str]:
        if not _PLAIN_WORD.fullmatch(word) or len(word) < 3:
            return None
        found = self.sym.word_segmentation(word.lower(), max_edit_distance=0)
        pieces = found.corrected_string.split()
        if not 1 < len(pieces) <= MAX_SPLIT_PIECES or "".join(pieces) != word.lower():
            return None
        if any(self.lexicon.common_words.get(p, 0) < SPLIT_MIN_USES or (len(p) == 1 and p not in ("a", "i"))
               for p in pieces):
            return None
        out, at = [], 0  # the scan's own letters, cut: "aRed" -> "a Red"
        for piece in pieces:
            out.append(word[at:at + len(piece)])
            at += len(piece)
        return " ".join(out)

    def spell(self, word: str) -> Optional[str]:
        from symspellpy import Verbosity
        letters = re.sub(r"[^A-Za-z]", "", word)
        if len(letters) < 4:
            return None
        distance = 2 if len(letters) >= 8 else 1
        found = self.sym.lookup(word.lower(), Verbosity.CLOSEST, max_edit_distance=distance,
                                transfer_casing=False)
        if not found or (len(found) > 1 and found[0].distance == found[1].distance):
            return None
        return _case_like(word, found[0].term)


def _case_like(original: str, word: str) -> str:
    if original[:1].isupper():
        return word[:1].upper() + word[1:]
    return word


def _twin(para: Paragraph, clean: dict[str, Paragraph], books: list[str]) -> Optional[Paragraph]:
    """The same paragraph in a clean edition that kept the older book's numbering (`books`), when its text is
    alike."""
    from rapidfuzz import fuzz
    tail = para.id.split(":", 1)[1]
    for book in books:
        other = clean.get(f"{book}:{tail}")
        if other is not None and fuzz.ratio(para.text.lower(), other.text.lower()) >= ALIGNED_MIN_SIMILARITY:
            return other
    return None


def _nearest(paragraphs: list[Paragraph], current: Document, lexicon: Lexicon) -> dict[str, Paragraph]:
    """For paragraphs with no twin of the same number, the current book's paragraph that says the same, when one
    is as alike as a twin must be (NEAREST_MIN_SIMILARITY, on the texts in the current terms): the aligned current
    text the damage is read against."""
    from rapidfuzz import fuzz, process

    def key(text: str) -> str:
        return " ".join(lexicon.to_newer.get(w, w) for w in _PLAIN_WORD.findall(text.lower()))
    choices = [key(p.text) for p in current.paragraphs]
    out = {}
    for para in paragraphs:
        found = process.extractOne(key(para.text), choices, scorer=fuzz.ratio, score_cutoff=NEAREST_MIN_SIMILARITY)
        if found is not None:
            out[para.id] = current.paragraphs[found[2]]
    return out


def _aligned(tokens: list[_Token], damaged: list[bool], twin: Paragraph, lexicon: Lexicon,
             min_ratio: int = ALIGNED_MIN_RATIO) -> dict[int, tuple[int, str]]:
    """Repairs from the twin: {first token index: (tokens replaced, the words)}."""
    from rapidfuzz import fuzz
    theirs = _tokens(twin.text)
    mine_keys = [lexicon.to_newer.get(t.word.lower(), t.word.lower()) for t in tokens]
    their_keys = [t.word.lower() for t in theirs]
    out: dict[int, tuple[int, str]] = {}
    matcher = difflib.SequenceMatcher(None, mine_keys, their_keys, autojunk=False)
    for op, i1, i2, j1, j2 in matcher.get_opcodes():
        if op != "replace" or i2 - i1 > ALIGNED_MAX_WORDS or j2 - j1 > ALIGNED_MAX_WORDS + 2:
            continue
        if not all(damaged[i1:i2]):
            continue
        words = [t.word for t in theirs[j1:j2]]
        if any(w.lower() in lexicon.pronouns for w in _PLAIN_WORD.findall(" ".join(words))):
            continue
        # The clean text as written between its first and last word (its commas and brackets too), each word
        # in the older book's terms.
        span = _PLAIN_WORD.sub(lambda m: _older(m.group(), lexicon), twin.text[theirs[j1].start:theirs[j2 - 1].end])
        damage = " ".join(t.word for t in tokens[i1:i2])
        if fuzz.ratio(_letters_of(damage), _letters_of(span)) < min_ratio:
            continue
        out[i1] = (i2 - i1, span)
    return out


def _older(word: str, lexicon: Lexicon) -> str:
    older = lexicon.to_older.get(word.lower())
    return word if older is None else _case_like(word, older)


def _letters_of(text: str) -> str:
    return "".join(ch for ch in text.lower() if ch.isalpha() or ch == " ")


def repair_paragraph(para: Paragraph, lexicon: Lexicon, speller: _Speller,
                     twin: Optional[Paragraph] = None, current: bool = False) -> Paragraph:
    """`para` with its damaged words repaired (a new Paragraph; `para` itself unchanged), its references'
    places moved with the text; the same paragraph when nothing is repaired. `twin` is the clean text it is read
    against: the same rule in an edition that kept its number, or (`current`) the current book's paragraph most
    alike."""
    if para.markdown and para.markdown != para.text:
        return para  # its rendering is not the text: repairs would have to be made twice
    tokens = _tokens(para.text)
    damaged = [is_damaged(t.word, lexicon) for t in tokens]
    if not any(damaged):
        return para
    protected = [r.span for r in para.refs]
    inside_ref = [any(s <= t.start < e or s < t.end <= e for s, e in protected) for t in tokens]
    plans: dict[int, tuple[int, str, str]] = {}  # first token -> (tokens, replacement, how)
    # A twin of the same number (the section-6 book) is the same text: it alone repairs. The current book's
    # paragraph found by its words is reworded: it repairs what it surely says, the spelling the rest.
    if twin is not None:
        found = _aligned(tokens, damaged, twin, lexicon, CURRENT_MIN_RATIO if current else ALIGNED_MIN_RATIO)
        for first, (count, words) in found.items():
            plans[first] = (count, words, "current" if current else "aligned")
    covered = {i for first, (count, _, _) in plans.items() for i in range(first, first + count)}
    # Where the same rule is there in clean text, the twin is the evidence: a word it does not put in the damaged
    # word's place is no repair ("Maga" is "Mazz", not "Mage"; "actidg" is "action only", not "acting").
    for i, token in enumerate(tokens):
        if (twin is not None and not current) or not damaged[i] or i in covered:
            continue
        fixed = speller.split(token.word)
        how = "split"
        if fixed is None:
            fixed, how = speller.spell(token.word), "spelling"
        if fixed is None or fixed == token.word:
            continue
        plans[i] = (1, fixed, how)
    plans = {i: p for i, p in plans.items() if not any(inside_ref[i:i + p[0]])}
    if not plans:
        return para
    text, repairs, cursor, shift = [], [], 0, []
    out_len = 0
    for first in sorted(plans):
        count, words, how = plans[first]
        start, end = tokens[first].start, tokens[first + count - 1].end
        text.append(para.text[cursor:start])
        out_len += start - cursor
        repairs.append(Repair(out_len, out_len + len(words), para.text[start:end], how))
        text.append(words)
        out_len += len(words)
        shift.append((end, len(words) - (end - start)))
        cursor = end
    text.append(para.text[cursor:])
    new_text = "".join(text)

    def moved(position: int) -> int:
        return position + sum(delta for end, delta in shift if end <= position)
    refs = [dataclasses.replace(r, span=(moved(r.span[0]), moved(r.span[1]))) for r in para.refs]
    return dataclasses.replace(para, text=new_text, markdown=new_text if para.markdown else "", refs=refs,
                               repairs=repairs)


def repair_documents(documents: dict[str, Document]) -> dict[str, Document]:
    """Every OCR document of `documents` with its paragraphs repaired (the others as they are)."""
    ocr = [d for d in documents.values() if d.meta.ocr]
    if not ocr:
        return documents
    out = dict(documents)
    for doc in ocr:
        lexicon = lexicon_of(documents.values(), doc.meta.game, own=doc)
        speller = _Speller(lexicon)
        books = [d for d in documents.values() if d.meta.game == doc.meta.game and not d.meta.ocr
                 and d.meta.format != "outline"]
        clean = {p.id: p for d in books for p in d.paragraphs}
        ids = sorted(d.id for d in books)
        twins = {p.id: _twin(p, clean, ids) for p in doc.paragraphs}
        newest = max(books, key=lambda d: d.meta.edition_order, default=None)
        nearest = _nearest([p for p in doc.paragraphs if twins[p.id] is None], newest, lexicon) if newest else {}
        paragraphs = [repair_paragraph(p, lexicon, speller, twins[p.id] or nearest.get(p.id), p.id in nearest)
                      for p in doc.paragraphs]
        out[doc.id] = dataclasses.replace(doc, paragraphs=paragraphs)
    return out


def scan_figures(documents: dict[str, Document]) -> dict[str, dict[str, int]]:
    """Per book: its words, and those found in no dictionary and in no book's vocabulary, as the corpus has
    them (`unknown`) and as the source had them before repair (`unknown_before`); the repairs made."""
    out = {}
    for doc in documents.values():
        lexicon = lexicon_of(documents.values(), doc.meta.game, leave_out=doc.id)  # a book does not vouch for itself
        words = unknown = before = 0
        for para in doc.paragraphs:
            tokens = _tokens(para.text)
            words += len(tokens)
            unknown += sum(1 for t in tokens if is_damaged(t.word, lexicon))
            before += len(damaged_words(para.scanned_text, lexicon)) if para.repairs else \
                sum(1 for t in tokens if is_damaged(t.word, lexicon))
        out[doc.id] = {"words": words, "unknown_before": before, "unknown": unknown,
                       "repairs": sum(len(p.repairs) for p in doc.paragraphs)}
    return out
