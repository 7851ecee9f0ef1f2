"""The posting table answers every query as Whoosh itself would
(judge/search/postings.py): the same paragraphs, the same scores, the same
order, on the real index, for the queries judges type and for random ones."""
from __future__ import annotations

import io
import math
import random
import re
from collections import Counter

import numpy as np
import pytest
from whoosh import query as wq

from judge.search import Search
from bench.search_eval import load_gold
from judge.search.expansion import PREFIX_WORDS, build_query
from judge.search.postings import POSITION_BITS, PostingTable, whoosh_matches
from judge.search.searcher import filter_query


@pytest.fixture(scope="module")
def searcher(corpus, tmp_path_factory):
    return Search(corpus, root=tmp_path_factory.mktemp("postings-index"))


@pytest.fixture(scope="module")
def built(searcher):
    return searcher.built


@pytest.fixture(scope="module")
def whoosh(built, corpus):
    with built.whoosh_searcher(corpus) as s:
        yield s


def compiled(searcher, text: str):
    expansion = searcher.expansion_of(text)
    return None if expansion.empty else build_query(expansion)[0]


def same_answer(table: PostingTable, whoosh, query, filter=None) -> None:
    expected = whoosh_matches(whoosh, query, filter)
    docnums, scores = table.evaluate(query, filter)
    got = list(zip(docnums.tolist(), scores.tolist()))
    assert len(got) == len(expected), (query, filter)
    assert {d for d, _ in got} == {d for d, _ in expected}, (query, filter)
    for (doc, score), (want_doc, want_score) in zip(got, expected):
        # Sums in another order may differ in the last bit; equal scores may then swap.
        assert math.isclose(score, want_score, rel_tol=1e-9), (query, filter, doc, want_doc)
        assert doc == want_doc or math.isclose(score, dict(expected)[doc], rel_tol=1e-9)


def query_texts(corpus) -> list[str]:
    """The gold questions, and random queries of every shape the search builds:
    words (known, misspelt, OCR-damaged), phrases, prefixes, numbers, synonyms,
    games and documents named."""
    rng = random.Random(11)
    words = sorted({w.lower() for p in corpus.paragraphs.values() for w in re.findall(r"[A-Za-z]{3,}", p.text)})

    def word() -> str:
        w = rng.choice(words)
        if rng.random() < 0.2 and len(w) > 4:  # a typo: two letters swapped or one dropped
            i = rng.randrange(len(w) - 1)
            w = w[:i] + w[i + 1] + w[i] + w[i + 2:] if rng.random() < 0.5 else w[:i] + w[i + 1:]
        return w

    texts = [g.query for g in load_gold(corpus)]
    texts += [" ".join(word() for _ in range(rng.randint(1, 6))) for _ in range(250)]
    texts += [f'"{word()} {word()}" {word()}' for _ in range(40)]
    texts += [f"{rng.choice(words)[:rng.randint(3, 5)]}* {word()}" for _ in range(40)]
    texts += ["tap bleed in rivals", '"blood hunt" diablerize', "followers of set", "damage 6.4.6 combat",
              '"the action" "is blocked"', "vekn torpor rescue", "untap exhaust rivals", "con* act*"]
    # Quoted runs of real text, so that phrases match.
    for pid in rng.sample(sorted(corpus.paragraphs), 30):
        tokens = re.findall(r"[A-Za-z]+", corpus.paragraphs[pid].text)
        if len(tokens) > 4:
            start = rng.randrange(len(tokens) - 3)
            texts.append(f'"{" ".join(tokens[start:start + 3])}" {word()}')
    return texts


def test_the_table_answers_as_whoosh_does(corpus, searcher, built, whoosh):
    filters = [None, filter_query({"doc": ["rb"]}), filter_query({"game": ["vtes"], "kind": ["rule", "example"]})]
    checked = phrases_matched = 0
    for n, text in enumerate(query_texts(corpus)):
        query = compiled(searcher, text)
        if query is None:
            continue
        same_answer(built.postings, whoosh, query, filters[n % len(filters)])
        checked += 1
        if '"' in text and built.postings.evaluate(query)[0].size:
            phrases_matched += 1
    assert checked > 450
    assert phrases_matched > 25  # the phrase logic was exercised on matches, not only on misses (29 since the scan repair)


def test_facets_count_the_matches_most_first_ties_in_rank_order(corpus, searcher, built):
    """A result's facets: every match of the game searched counted by document and by
    kind, the values with most matches first, equal counts in the order their first match ranks."""
    checked = ties = 0
    for text in query_texts(corpus)[:300]:
        result, query = searcher.search(text), compiled(searcher, text)
        if query is None or result.direct or not result.total:
            continue
        ranked = [corpus.paragraphs[built.ids[d]] for d in built.postings.evaluate(query)[0].tolist()]
        ranked = [p for p in ranked if result.game == "all" or corpus.documents[p.doc].meta.game == result.game]
        for facet, value_of in (("doc", lambda p: p.doc), ("kind", lambda p: p.kind)):
            values = [value_of(p) for p in ranked]
            counts, first = Counter(values), {}
            for rank, value in enumerate(values):
                first.setdefault(value, rank)
            expected = sorted(counts, key=lambda v: (-counts[v], first[v]))
            assert list(result.facets[facet].items()) == [(v, counts[v]) for v in expected], (text, facet)
            ties += len(set(counts.values())) < len(counts)
        checked += 1
    assert checked > 200 and ties > 50  # the order of equal counts was exercised


@pytest.mark.parametrize("slop", [1, 2, 3, 5])
def test_phrases_with_slop_match_as_whoosh_does(corpus, built, whoosh, slop):
    rng = random.Random(slop)
    matched = 0
    for pid in rng.sample(sorted(corpus.paragraphs), 40):
        words = [w.lower() for w in re.findall(r"[A-Za-z]{4,}", corpus.paragraphs[pid].text)]
        if len(words) < 4:
            continue
        start = rng.randrange(len(words) - 3)
        picked = [words[start], words[start + rng.randint(1, 2)], words[start + 3]]
        for field in ("body_plain", "title"):
            same_answer(built.postings, whoosh, wq.Phrase(field, picked, slop=slop, boost=1.5))
        same_answer(built.postings, whoosh, wq.Phrase("body_plain", picked[::-1], slop=slop))
        matched += int(pid in {built.ids[d] for d in built.postings.evaluate(wq.Phrase("body_plain", picked,
                                                                                        slop=slop))[0]})
    assert matched >= (20 if slop >= 3 else 0)  # with slop 3 each picked run matches its own paragraph


def test_what_is_kept_never_changes_an_answer(corpus, searcher):
    """Every memo of the search is keyed by all its answer depends on: a searcher whose
    memos were filled by a warm-up and by other queries answers each query exactly as
    one that computes everything afresh, whatever order the queries come in."""
    from judge import memo
    from judge.web.warmup import warm_searcher

    texts = query_texts(corpus)[:200]
    warm_searcher(searcher)
    kept = [searcher.search(text).to_json() for text in texts]
    memo.forget_all()
    fresh = Search(corpus, root=searcher.root)
    afresh = [fresh.search(text).to_json() for text in reversed(texts)][::-1]
    assert afresh == kept


def test_boosted_postings_are_kept_and_read_only(built):
    table = PostingTable.from_bytes(built.postings.to_bytes())  # a table of its own: its memo starts empty
    docnums, base = table.postings("body", "bleed")
    kept = table.boosted("body", "bleed", 0.4)
    assert kept is table.boosted("body", "bleed", 0.4)
    assert np.array_equal(kept[0], docnums) and np.array_equal(kept[1], base * 0.4)
    assert np.array_equal(table.boosted("body", "bleed", 1.0)[1], base)
    with pytest.raises(ValueError):
        kept[1][0] = 1.0  # shared by every search: none may write


def test_an_or_of_words_the_index_lacks_matches_nothing(built, whoosh):
    for query in (wq.Or([wq.Term("body", "zzqx"), wq.Term("title", "qxzz"), wq.Phrase("body", ["zzqx", "bleed"])]),
                  wq.Or([wq.Term("body", "zzqx"), wq.Term("title", "qxzz"), wq.Term("body", "bleed")])):
        same_answer(built.postings, whoosh, query)


def test_query_shapes_it_was_not_checked_on_are_refused(built):
    with pytest.raises(TypeError, match="Prefix"):
        built.postings.evaluate(wq.Prefix("body_plain", "diabler"))
    with pytest.raises(TypeError, match="DisjunctionMax"):
        built.postings.evaluate(wq.DisjunctionMax([wq.Term("body", "bleed")]))


def test_the_table_survives_saving_and_loading(built):
    table = PostingTable.from_bytes(built.postings.to_bytes())
    query = wq.Or([wq.Term("body", "bleed"), wq.Phrase("body", ["block", "attempt"])])
    for a, b in zip(table.evaluate(query), built.postings.evaluate(query)):
        assert np.array_equal(a, b)
    assert table.positions("body", "bleed").max() >> POSITION_BITS < table.doc_count
    # Read as views of the stored archive, or by numpy from a compressed one: the same table.
    with np.load(io.BytesIO(built.postings.to_bytes()), allow_pickle=False) as arrays:
        compressed = io.BytesIO()
        np.savez_compressed(compressed, **{name: arrays[name] for name in arrays.files})
    assert PostingTable.from_bytes(compressed.getvalue()).to_bytes() == table.to_bytes() == built.postings.to_bytes()


@pytest.mark.parametrize("data", [b"", b"not a zip archive", b"PK\x03\x04" + b"\x00" * 40])
def test_a_table_that_is_not_one_is_refused(data):
    with pytest.raises(ValueError, match="not a posting table"):
        PostingTable.from_bytes(data)


def _saved(built, **changed) -> bytes:
    """The build's table saved with some of its arrays replaced."""
    with np.load(io.BytesIO(built.postings.to_bytes()), allow_pickle=False) as arrays:
        parts = {name: arrays[name] for name in arrays.files}
    parts.update(changed)
    out = io.BytesIO()
    np.savez(out, **parts)
    return out.getvalue()


def test_a_table_whose_arrays_do_not_fit_is_refused(built):
    with np.load(io.BytesIO(built.postings.to_bytes()), allow_pickle=False) as saved:  # the table as saved
        keys, docnums, offsets, scores = (saved[name] for name in ("keys", "docnums", "offsets", "scores"))
    docnums = docnums.copy()
    docnums[5] = built.postings.doc_count  # a paragraph the index does not have
    broken = {"keys out of order": {"keys": keys[::-1]},
              "a document number out of range": {"docnums": docnums},
              "offsets as text": {"offsets": np.array(["0"] * len(offsets))},
              "a score that is not a number": {"scores": np.full(len(scores), np.nan)},
              "positions as objects": {"positions": np.array([None, 1], dtype=object)}}
    for what, change in broken.items():
        with pytest.raises(ValueError, match="not a posting table"):
            PostingTable.from_bytes(_saved(built, **change))
    assert PostingTable.from_bytes(_saved(built)).doc_count == built.postings.doc_count


def test_the_vocabulary_is_whoosh_lexicon(searcher, built, whoosh):
    """What search reads instead of Whoosh's files is what Whoosh has: its lexicons
    and document frequencies (the table's keys and counts), and each document's
    paragraph ID and field lengths (documents.json)."""
    from judge.search.expansion import FIELD_WEIGHTS
    from judge.search.index import RANKED_FIELDS

    reader = whoosh.reader()
    vocabulary = searcher.vocabulary
    assert vocabulary.documents == reader.doc_count_all() == len(built.ids)
    assert vocabulary.words == [b.decode("utf-8") for b in reader.lexicon("body_plain")]
    assert vocabulary.frequency == {w: reader.doc_frequency("body_plain", w) for w in vocabulary.words}
    # (the rulings' words, evidence about the rules, are not the books' vocabulary)
    assert vocabulary.stems == {b.decode("utf-8") for name in (*FIELD_WEIGHTS, "glossary") if name != "rulings"
                                for b in reader.lexicon(name)}
    assert built.ids == [reader.stored_fields(n)["id"] for n in range(reader.doc_count_all())]
    assert built.lengths == {f: [reader.doc_field_length(n, f, 0) for n in range(reader.doc_count_all())]
                             for f in RANKED_FIELDS}


def test_the_build_writes_the_table_whoosh_would(built, whoosh):
    """A build analyses the paragraphs itself and never writes Whoosh's segment
    (judge.search.index.AnalysedCorpus); its table is, array by array and to the
    last bit, the one read out of Whoosh's index of the same corpus with Whoosh's scorer."""
    assert not [p.name for p in built.path.iterdir() if p.suffix in (".seg", ".toc")]
    reference = PostingTable.compute(whoosh)  # `whoosh` scores as the build's table claims to
    with np.load(io.BytesIO(reference.to_bytes())) as want, np.load(io.BytesIO(built.postings.to_bytes())) as got:
        assert sorted(want.files) == sorted(got.files)
        for name in want.files:
            assert want[name].dtype == got[name].dtype and np.array_equal(want[name], got[name]), name


def test_a_prefix_stands_for_its_commonest_words(searcher, built):
    vocabulary = searcher.vocabulary
    short = vocabulary.starting("con")
    assert len(short) == PREFIX_WORDS < len([w for w in vocabulary.words if w.startswith("con")])
    assert "control" in short and all(w.startswith("con") for w in short)
    assert vocabulary.starting("diabler") == sorted(w for w in vocabulary.words if w.startswith("diabler"))
    # A prefix scores each of its words as the word itself.
    docnums, scores = built.postings.evaluate(compiled(searcher, "diablerie*"))
    alone, alone_scores = built.postings.evaluate(wq.Term("body_plain", "diablerie"))
    assert set(alone.tolist()) <= set(docnums.tolist())
