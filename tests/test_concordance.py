"""The concordance between editions, on the real corpus (and on drafts of it)."""
from __future__ import annotations

import json
import logging
import math

import numpy as np
import pytest

from judge.compare import concordance as conc
from judge.compare.alignment import METHODS, align
from judge.compare.concordance import editions, get_concordance, load_concordance
from judge.compare.similarity import CharNgrams, block_similarity, text_similarity
from judge.compare.terminology import get_terminology
from judge.errors import JudgeError
from judge.ingest.sources import parse_document
from judge.ingest.refs import RULEBOOK_NUMBER


@pytest.fixture(scope="module")
def concordance(corpus):
    return get_concordance(corpus)


def _paragraph_starting(corpus, doc, prefix):
    found = [p for p in corpus.documents[doc].paragraphs if p.text.startswith(prefix)]
    assert len(found) >= 1, f"no {doc} paragraph starts with {prefix!r}"
    return found[0]


def test_bleed_aligns_across_the_three_editions(concordance):
    rb_s6 = concordance.alignment("rb", "s6")
    rb_vekn = concordance.alignment("rb", "vekn")
    assert [(p.new, p.method) for p in rb_s6.new_of("rb:6.1.1")] == [("s6:6.1.1", "number")]
    assert [(p.new, p.method) for p in rb_vekn.new_of("rb:6.1.1")] == [("vekn:bleed", "title")]
    found = {c.id: c for c in concordance.counterparts("rb:6.1.1")}
    assert set(found) == {"s6:6.1.1", "vekn:bleed"}
    assert found["s6:6.1.1"].confidence > found["vekn:bleed"].confidence > 0.5
    # Read from the other end, the same pairs.
    assert {c.id for c in concordance.counterparts("vekn:bleed")} >= {"rb:6.1.1", "s6:6.1.1"}


def test_bleed_paragraphs_follow_their_sections(corpus, concordance):
    # "If the action is successful, the target Methuselah burns pool": the same rule in
    # each book, though the OCR damaged the older one and the current one rewrote it.
    rb = _paragraph_starting(corpus, "rb", "To bleed a Methuselah")
    others = {c.id for c in concordance.counterparts(rb.id)}
    assert "s6:6.1.1/3" in others
    assert any(corpus.paragraphs[o].section == "vekn:bleed" and "burns an amount of pool" in corpus.paragraphs[o].text
               for o in others)


def test_nine_tenths_of_section_six_align_between_the_numbered_books(corpus, concordance):
    al = concordance.alignment("rb", "s6")
    rb_six = [p.id for p in corpus.paragraphs_of("rb:6")]
    s6_six = [p.id for p in corpus.paragraphs_of("s6:6")]
    paired_rb = {p.old for p in al.pairs if p.new in s6_six}
    paired_s6 = {p.new for p in al.pairs if p.old in rb_six}
    assert len(paired_rb) >= 0.9 * len(rb_six)
    assert len(paired_s6) >= 0.9 * len(s6_six)
    # And paired with the paragraph at the same place, not merely with some paragraph.
    same_place = [p for p in al.pairs if p.old.split(":", 1)[1] == p.new.split(":", 1)[1]]
    assert len(same_place) >= 0.9 * len(rb_six)


def test_the_section_six_book_is_an_excerpt_not_a_removal(corpus, concordance):
    al = concordance.alignment("rb", "s6")
    assert "rb:9.1/1" in al.outside  # victory points: not in a section-6 book at all
    assert not any(pid.startswith("rb:9") for pid in al.removed)
    assert all(corpus.paragraphs[pid].section.startswith(("rb:6", "rb:summary")) for pid in al.removed)


def test_outline_steps_citing_damage_resolution_link_to_its_paragraphs(corpus, concordance):
    steps = [p for p in corpus.documents["flows"].paragraphs
             if any(r.kind == RULEBOOK_NUMBER and r.spec == "6.4.6" for r in p.refs)]
    assert steps, "the outline cites [6.4.6]"
    damage_rb = {p.id for p in corpus.paragraphs_of("rb:6.4.6")}
    two_steps = _paragraph_starting(corpus, "vekn", "Damage resolution has two steps").id
    for step in steps:
        links = {link.target: link for link in concordance.outline[step.id]}
        assert links["rb:6.4.6"].via == "cites"
        assert damage_rb <= set(links), f"{step.id} misses Damage Resolution paragraphs"
        assert "s6:6.4.6/1" in links and links["s6:6.4.6/1"].via == "same-rule"
        assert two_steps in links
        assert {l.step for l in concordance.steps_citing("rb:6.4.6/1")} >= {step.id}


def test_alignment_is_deterministic(corpus):
    first = align(corpus, "s6", "vekn").to_json()
    second = align(corpus, "s6", "vekn").to_json()
    assert first == second


def test_every_pair_is_well_formed(corpus, concordance):
    for al in concordance.alignments:
        old, new = corpus.documents[al.old_doc], corpus.documents[al.new_doc]
        assert old.meta.game == new.meta.game and old.meta.edition_order <= new.meta.edition_order
        for pair in al.pairs:
            assert pair.old in corpus.paragraphs and pair.new in corpus.paragraphs
            assert pair.method in METHODS and 0 < pair.confidence <= 1 and 0 <= pair.similarity <= 1
        for pair in al.section_pairs:
            assert pair.old in corpus.sections and pair.new in corpus.sections
        paired_old = {p.old for p in al.pairs}
        # every old paragraph is exactly one of: paired, removed, outside the excerpt
        assert {p.id for p in old.paragraphs} == paired_old | set(al.removed) | (
            set(al.outside) & {p.id for p in old.paragraphs})
        assert not paired_old & set(al.removed)
    assert not any(al.old_doc == "flows" or al.new_doc == "flows" for al in concordance.alignments)
    assert not any("rivals" in (al.old_doc, al.new_doc) for al in concordance.alignments)


def test_a_draft_that_is_not_in_the_corpus(corpus, rules_copy):
    """The comparer's case: an edited copy of the current book, parsed from its file."""
    meta = corpus.documents["vekn"].meta
    source = rules_copy / meta.source
    text = source.read_text(encoding="utf-8")
    reworded = "A bleed can be made with an action card"
    assert text.count(reworded) == 1
    text = text.replace(reworded, "A bleed can be made using an action card")
    dropped = "Each event card may only be played once each game."
    assert text.count(dropped) == 1
    text = text.replace(dropped, "")
    source.write_text(text, encoding="utf-8")
    draft = parse_document(meta, rules_copy)
    al = align(corpus, "vekn", draft)
    by_old = {p.old: p for p in al.pairs}
    old_bleed = _paragraph_starting(corpus, "vekn", reworded)
    assert by_old[old_bleed.id].new == old_bleed.id and by_old[old_bleed.id].confidence > 0.8
    assert by_old[old_bleed.id].similarity < 1
    gone = _paragraph_starting(corpus, "vekn", dropped)
    assert al.removed == [gone.id] and al.added == []
    untouched = [p for p in al.pairs if p.old != old_bleed.id]
    assert all(p.old == p.new and p.similarity == 1 for p in untouched)


def test_alignment_refuses_two_games(corpus):
    with pytest.raises(JudgeError, match="different games"):
        align(corpus, "vekn", "rivals")
    with pytest.raises(JudgeError, match="no document 'nope'"):
        align(corpus, "nope", "vekn")


def test_inverted_alignment_reads_backwards(concordance):
    forward = concordance.alignment("s6", "vekn")
    backward = concordance.alignment("vekn", "s6")
    assert backward.old_doc == "vekn" and backward.added == forward.removed
    assert {(p.new, p.old) for p in backward.pairs} == {(p.old, p.new) for p in forward.pairs}


def test_cache_is_written_reused_and_rebuilt_when_damaged(corpus, tmp_path, monkeypatch):
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path))
    built = load_concordance(corpus)
    path = tmp_path / conc.CACHE_NAME
    stored = json.loads(path.read_text(encoding="utf-8"))
    assert stored["key"] == conc.cache_key(corpus)
    written = path.stat()
    again = load_concordance(corpus)
    assert again.to_json() == built.to_json()
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == (written.st_ino, written.st_mtime_ns)  # read, not rebuilt
    path.write_text("{not json", encoding="utf-8")
    rebuilt = load_concordance(corpus)
    assert rebuilt.to_json() == built.to_json()
    assert json.loads(path.read_text(encoding="utf-8"))["key"] == stored["key"]  # repaired on disk


def _wrong_confidence(data):
    data["alignments"][0]["pairs"][0]["confidence"] = "high"


def _unknown_paragraph(data):
    data["alignments"][1]["pairs"][2]["new"] = "vekn:no-such-rule/1"


def _missing_field(data):
    del data["alignments"][0]["section_pairs"][0]["method"]


def _outline_not_a_mapping(data):
    data["outline"] = [1, 2]


@pytest.mark.parametrize("damage, reason", [
    (_wrong_confidence, "alignments[0].pairs[0].confidence: expected a number, found 'high'"),
    (_unknown_paragraph, "the alignment of s6 and vekn names 'vekn:no-such-rule/1', which the corpus does not have"),
    (_missing_field, "alignments[0].section_pairs[0]: a Pair missing method"),
    (_outline_not_a_mapping, "outline: expected a mapping, found list"),
], ids=["a value of the wrong type", "a paragraph the corpus lacks", "a field missing", "the wrong shape"])
def test_a_well_formed_cache_holding_the_wrong_data_is_logged_and_rebuilt(corpus, tmp_path, monkeypatch, caplog,
                                                                          damage, reason):
    """JSON that parses, with the right key, but not what judge writes: a traceback on
    every run if trusted; it is logged with where it is wrong, and rebuilt."""
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path))
    built = load_concordance(corpus)
    path = tmp_path / conc.CACHE_NAME
    data = json.loads(path.read_text(encoding="utf-8"))
    damage(data)
    path.write_text(json.dumps(data), encoding="utf-8")
    with caplog.at_level(logging.WARNING, logger="judge.compare.concordance"):
        rebuilt = load_concordance(corpus)
    assert rebuilt.to_json() == built.to_json()
    assert f"the cache {path} is damaged: {reason}" in caplog.text and "rebuilding it" in caplog.text
    assert json.loads(path.read_text(encoding="utf-8")) == built.to_json()  # repaired on disk


def test_text_similarity_is_tf_idf_over_character_ngrams_inside_words():
    # Each word padded with spaces, cut into 3- to 5-grams; a word no longer than n counts once whole.
    ngrams = CharNgrams()
    ngrams.counts(["ab abcd"])
    short = {" ab", "ab ", " ab "}  # "ab": its 3-grams, then itself whole
    longer = {" ab", "abc", "bcd", "cd ", " abc", "abcd", "bcd ", " abcd", "abcd "}  # "abcd": 3-, 4-, 5-grams
    assert set(ngrams.vocabulary) == short | longer
    # Worked by hand over the three texts: the three n-grams of "ab" are in two of them
    # (idf 1 + ln(4/3)), those of "cd" in one (idf 1 + ln(4/2)); each counts once (tf 1).
    common, rare = 1 + math.log(4 / 3), 1 + math.log(2)
    expected = 100 * 3 * common ** 2 / (math.sqrt(3 * common ** 2 + 3 * rare ** 2) * math.sqrt(3 * common ** 2))
    sim = text_similarity(["ab cd", "zz"], ["ab"])
    assert sim.shape == (2, 1) and sim[0, 0] == pytest.approx(expected, abs=1e-4) and sim[1, 0] == 0
    # Repeated n-grams weigh 1 + ln(count); the same text is 100 whatever its repetitions.
    assert text_similarity(["ab ab cd"], ["ab ab cd"])[0, 0] == pytest.approx(100, abs=1e-4)
    assert text_similarity(["", "x"], ["y"]).tolist() == [[0.0], [0.0]]  # no shared n-gram, no similarity
    assert text_similarity([], ["y"]).shape == (0, 1)


def test_text_similarity_equals_scikit_learns_tf_idf_on_the_corpus(corpus):
    # The reference: scikit-learn's TfidfVectorizer, as the concordance configured it
    # before computing the TF-IDF itself, fitted on both sides' texts. The texts are
    # those the concordance aligns (each edition's normalised paragraphs), counted as
    # it counts them: one n-gram vocabulary for every book.
    from sklearn.feature_extraction.text import TfidfVectorizer

    terminology = get_terminology()
    books = editions(corpus, "vtes")
    assert len(books) == 3
    texts = {b.id: [terminology.normalise(p.text, "vtes", punctuation=False) for p in b.paragraphs] for b in books}
    ngrams = CharNgrams()
    counted = {b.id: ngrams.counts(texts[b.id]) for b in books}
    for n, old in enumerate(books):
        for new in books[n + 1:]:
            a, b = texts[old.id], texts[new.id]
            reference = TfidfVectorizer(analyzer="char_wb", ngram_range=(3, 5), sublinear_tf=True,
                                        dtype=np.float32).fit(a + b)
            expected = (reference.transform(a) @ reference.transform(b).T).toarray() * 100
            assert expected.shape == (len(a), len(b)) and expected.max() > 99
            np.testing.assert_allclose(text_similarity(counted[old.id], counted[new.id]), expected,
                                       rtol=0, atol=1e-4, err_msg=f"{old.id} -> {new.id}")
    # Any block of the matrix (the outline's links ask for each outline's steps and cited
    # paragraphs only) holds its very figures, to the last bit.
    a, b = counted["rb"], counted["vekn"]
    whole = text_similarity(a, b)
    asked = [(list(range(0, a.texts, 3)), list(range(1, b.texts, 5))), ([a.texts - 1, 2], [7]),
             (range(a.texts), range(b.texts))]
    for (rows, columns), block in zip(asked, block_similarity(a, b, asked)):
        assert block.dtype == whole.dtype and block.tobytes() == whole[np.ix_(list(rows), list(columns))].tobytes()


def test_ocr_damage_costs_little_similarity(corpus):
    damaged = _paragraph_starting(corpus, "rb", "To bleed a Methuselah")  # the scan's "beed", repaired from the section-6 book
    same = corpus.paragraphs["s6:6.1.1/3"]
    other = corpus.paragraphs["s6:6.4.6/1"]
    sim = text_similarity([damaged.text.lower()], [same.text.lower(), other.text.lower()])
    assert sim[0, 0] > 75 and sim[0, 1] < 15


def test_one_vocabulary_serves_every_book_and_two_do_not_mix():
    ngrams = CharNgrams()
    a, b = ngrams.counts(["tap the minion"]), ngrams.counts(["lock the minion", "tap"])
    assert text_similarity(a, b).tolist() == text_similarity(["tap the minion"], ["lock the minion", "tap"]).tolist()
    with pytest.raises(ValueError, match="different n-gram vocabularies"):
        text_similarity(a, CharNgrams().counts(["tap"]))
