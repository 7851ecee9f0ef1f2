"""judge.search on the real corpus: what it finds, how it reads queries, how its
index is built and swapped, and that no query can make it fail."""
from __future__ import annotations

import html
import json
import os
import re
import threading

import pytest

import judge.search.index as search_index
import judge.search.searcher as search
from judge import memo
from judge.web.warmup import warm_searcher
from judge.errors import SourceError
from judge.search import Search, get_searcher
from judge.search.snippets import snippet, snippet_text
from judge.search.query import parse_query
from judge.search.synonyms import load_synonyms


@pytest.fixture(scope="module")
def searcher(corpus, tmp_path_factory):
    """A searcher with its own index directory (the tests never touch index/search-*)."""
    return Search(corpus, root=tmp_path_factory.mktemp("search-index"))


def ids(result) -> list[str]:
    return [h.id for h in result.hits]


def shown(result) -> set[str]:
    """Every paragraph a result shows: the hits and the counterparts beside them."""
    return {h.id for h in result.hits} | {e.id for h in result.hits for e in h.counterparts}


# -- finding things --------------------------------------------------------------------

def test_a_plain_question_finds_the_rule(searcher, corpus):
    result = searcher.search("who can block an undirected action", limit=5)
    texts = [corpus.paragraphs[i].text for i in shown(result)]
    assert any("can be blocked by the acting Methuselah's prey or predator" in t for t in texts)
    assert result.total >= len(result.hits) and result.facets["doc"]


def test_older_terms_find_the_current_wording(searcher, corpus):
    # "untap" is the older book's word; the current book says "unlock".
    result = searcher.search("untap phase", limit=5, doc="vekn")
    assert result.hits, result.message
    assert any("unlock phase" in corpus.paragraphs[i].text.lower() for i in ids(result))
    # Assamite is only named as Banu Haqim's older name; Banu Haqim finds both.
    assert "Assamite" in searcher.search("Banu Haqim", limit=3).hits[0].text


def test_game_scoped_synonyms_stay_in_their_game(searcher):
    # Rivals "exhaust" is V:TES "lock"; asked inside V:TES, "exhaust" finds no Rivals rule
    # through the synonym, and "tap" inside Rivals finds exhausting.
    rivals = searcher.search("tap", game="rivals", limit=5)
    assert rivals.hits and all(h.doc == "rivals" for h in rivals.hits)
    assert any("exhaust" in h.text.lower() for h in rivals.hits)
    vtes = searcher.search("tap", game="vtes", limit=10)
    assert not any("exhaust" in h.text.lower() for h in vtes.hits)


def test_typos_are_corrected(searcher):
    result = searcher.search("intercetp equal to stealth", limit=5)
    assert result.did_you_mean == "intercept equal to stealth"
    assert "intercept" in result.hits[0].text.lower()
    assert searcher.search("diablery", limit=3).hits  # one letter from "diablerie"


def test_ocr_damaged_words_repaired_are_found_as_spelt(searcher, corpus):
    # The older book's OCR turned "magaji" into "magaiji" in the one paragraph of
    # that book saying the magaji title is not unique (RB §10.3 ¶2); the repair
    # (judge/ingest/ocr_repair.py) spells it again. Asked with the right spelling,
    # inside that book, it comes first, found by that word (marked in the snippet).
    damaged = [p for p in corpus.documents["rb"].paragraphs if "magaiji title is not unique" in p.scanned_text]
    assert len(damaged) == 1 and "magaji title is not unique" in damaged[0].text
    result = searcher.search("is the magaji title unique", doc="rb", limit=5)
    assert result.hits[0].id == damaged[0].id
    assert ("magaji", True) in result.hits[0].snippet


def test_a_section_number_goes_straight_to_the_section(searcher):
    result = searcher.search("6.4.6")
    assert result.direct is not None and result.direct.id == "s6:6.4.6"
    assert "rb:6.4.6" in result.direct.also
    assert all(h.section == "s6:6.4.6" for h in result.hits)
    # the older book's same paragraph is beside each hit
    assert any(e.id.startswith("rb:6.4.6/") for e in result.hits[0].counterparts)
    outline = searcher.search("IV.D.2")
    assert outline.direct is not None and outline.direct.id.startswith("flows:IV.D.2")
    assert searcher.search("sec. 6.5.5").direct.id == "s6:6.5.5"
    assert searcher.search("rb 9.2").direct.id == "rb:9.2"


def test_a_number_among_words_ranks_its_section_first(searcher):
    result = searcher.search("damage resolution 6.4.6 wounded", limit=3)
    assert result.direct is None
    assert result.hits[0].section in ("s6:6.4.6", "rb:6.4.6")


def test_a_bare_small_number_is_a_word_not_a_section(searcher):
    assert searcher.search("13 agenda points", limit=3).direct is None


def test_quoted_phrases_are_required(searcher):
    result = searcher.search('"wild hunt"', limit=10)
    assert result.hits
    assert all("wild hunt" in h.text.lower() for h in result.hits)


def test_prefix_search(searcher):
    result = searcher.search("diabler*", limit=5)
    assert result.hits and all("diabler" in h.text.lower() for h in result.hits)


def test_filters(searcher):
    assert {h.doc for h in searcher.search("torpor doc:rb", limit=10).hits} == {"rb"}
    assert {h.doc for h in searcher.search("torpor", doc=["rb", "s6"], limit=10).hits} <= {"rb", "s6"}
    assert {h.doc for h in searcher.search("torpor game:rivals", limit=10).hits} == {"rivals"}
    assert {h.kind for h in searcher.search("torpor kind:glossary", limit=10).hits} == {"glossary"}
    assert {h.doc for h in searcher.search("torpor doc:RB", limit=5).hits} == {"rb"}  # the label prefix works
    unknown = searcher.search("torpor doc:nope")
    assert not unknown.hits and "unknown doc 'nope'" in unknown.message and "vekn" in unknown.message


def test_the_limit(searcher):
    assert len(searcher.search("vampire", limit=3).hits) == 3
    assert len(searcher.search("vampire", limit=1000).hits) <= 100


def test_the_same_rule_in_several_editions_is_one_hit(searcher):
    # S6 and RB both have §6.5.6 "wild hunt"; they show as one hit with the other beside it.
    result = searcher.search("wild hunt interchangeable", limit=10)
    top = result.hits[0]
    assert top.section in ("s6:6.5.6", "rb:6.5.6")
    other = next(e for e in top.counterparts if e.id.split(":")[0] != top.doc and e.id.startswith(("s6:", "rb:")))
    assert other.matched is True
    assert other.id not in ids(result)


def test_a_paragraph_as_a_hit_of_no_query_shows_what_a_search_shows_of_it(searcher):
    top = searcher.search("wild hunt interchangeable", limit=10).hits[0]
    plain = searcher.paragraph_hit(top.id)
    assert (plain.id, plain.label, plain.kind, plain.section) == (top.id, top.label, top.kind, top.section)
    assert [e.id for e in plain.counterparts] == [e.id for e in top.counterparts]
    assert not any(e.matched for e in plain.counterparts) and any(e.matched for e in top.counterparts)
    assert not any(marked for _, marked in plain.snippet)
    assert top.text.startswith(snippet_text(plain.snippet).removesuffix(" …"))

def test_nothing_found_says_so_and_suggests(searcher):
    result = searcher.search("xqzzyv")
    assert not result.hits and result.message == "no paragraph matches this query"
    # one edit more than the search itself tolerates: no hit, but a suggestion
    near = searcher.search("bleeeeed")
    assert not near.hits and near.did_you_mean == "bleed"


# -- snippets -----------------------------------------------------------------------------

def test_snippets_are_runs_of_the_text_the_matched_words_marked(searcher):
    result = searcher.search("insert icon", limit=10)
    hit = next(h for h in result.hits if "<INSERT POLITICAL ACTION ICON>" in h.text)
    runs = list(hit.snippet)  # the text as it is, "<" and ">" too: escaping is the front ends' job
    at = runs.index(("INSERT", True))
    assert runs[at - 1:at + 4] == [(" <", False), ("INSERT", True), (" POLITICAL ACTION ", False), ("ICON", True),
                                   (">.", False)]
    assert snippet_text(hit.snippet).removeprefix("… ") in hit.text and all(text for text, _ in hit.snippet)


def test_the_json_gives_the_snippet_as_escaped_html_and_as_runs(searcher):
    """`snippet` stays the HTML it always was (the text escaped, the matched words in
    <mark>) for the API's clients; `snippet_runs` is the same as data."""
    result = searcher.search("insert icon", limit=10)
    hit = next(h for h in result.hits if "<INSERT POLITICAL ACTION ICON>" in h.text).to_json()
    assert "&lt;<mark>INSERT</mark> POLITICAL ACTION <mark>ICON</mark>&gt;" in hit["snippet"]
    assert re.sub(r"</?mark>", "", hit["snippet"]).count("<") == 0
    runs = json.loads(json.dumps(hit["snippet_runs"]))  # as a client reads them: [[text, marked], ...]
    assert ["INSERT", True] in runs and all(len(run) == 2 for run in runs)
    rebuilt = "".join(f"<mark>{html.escape(text, quote=False)}</mark>" if marked else html.escape(text, quote=False)
                      for text, marked in runs)
    assert rebuilt == hit["snippet"]


def test_snippet_cuts_around_the_matches():
    text = "word " * 100 + "the needle is here " + "word " * 100
    cut = snippet(text, {"needl"})
    assert ("needle", True) in cut and cut[0][0].startswith("… ") and cut[-1][0].endswith(" …")
    assert [marked for _, marked in cut] == [False, True, False]
    assert len(snippet_text(cut)) < 260


# -- hostile queries ---------------------------------------------------------------------

HOSTILE = ['"unbalanced quote', "AND OR NOT", "x" * 10_000, "bleed " * 2000, "<script>alert(1)</script>",
           "*", "?", "* ? *", "doc:", "kind:nonsense", "((((", "\x00\x01bleed", "bleed\u202e", "🩸🩸",
           "title:bleed", "body:*", "id:vekn:bleed/1", "NOT bleed", "-bleed", "'", "\\", "%s %d {}",
           "", "   ", "6.4.6.9.9.9", "IV.Z.99", "rb:nope/99", "a" * 50, "𝕓𝕝𝕖𝕖𝕕"]


@pytest.mark.parametrize("query", HOSTILE, ids=lambda q: repr(q[:20]))
def test_hostile_queries_give_results_or_a_message(searcher, query):
    result = searcher.search(query)
    assert result.hits or result.message, query
    data = json.loads(json.dumps(result.to_json()))
    assert set(data) >= {"query", "hits"}
    for hit in data["hits"]:
        assert "<script" not in hit["snippet"]


def test_hostile_query_notes(searcher):
    assert "unbalanced quote ignored" in searcher.search('"blood hunt').notes
    assert any("AND/OR/NOT" in n for n in searcher.search("AND OR NOT").notes)
    assert any("shortened" in n for n in searcher.search("bleed " * 2000).notes)
    assert searcher.search("*").message.startswith("nothing to search for")


def test_warming_works_out_every_word_of_the_books(searcher):
    """After `warm`, a query of any word the books use finds all it needs kept: its
    near spellings, query parts, postings, paragraphs and snippets. No memo of the
    search computes anything more. (A paragraph's counterparts are worked out when it is first
    shown, by any query, and kept: every paragraph's, at warm-up, grew with paragraphs x editions.)"""
    def misses() -> dict[str, int]:
        return {name: kept["misses"] for name, kept in memo.statistics().items()
                if name.startswith("search.") and name != "search.counterparts"}

    warm_searcher(searcher)
    before = misses()
    for word in sorted(searcher.vocabulary.frequency)[::7]:
        assert searcher.search(word).total >= 0
    assert misses() == before
    # A word the books do not use is worked out at its first search, and kept.
    assert searcher.search("zqxjkv").total == 0
    after = misses()
    assert after["search.unit_paragraphs"] == before["search.unit_paragraphs"] + 1
    assert searcher.search("zqxjkv").total == 0 and misses() == after


def test_query_parsing():
    q = parse_query('"blood hunt" doc:rb,s6 kind:rule diabler* 6.4.6 AND torpor')
    assert q.phrases == ["blood hunt"] and q.prefixes == ["diabler"]
    assert q.filters == {"doc": ["rb", "s6"], "kind": ["rule"]}
    assert q.words == ["6.4.6", "torpor"] and q.numbers == ["6.4.6"]
    assert parse_query("section 6.4.6").lookup_text == "6.4.6"



def test_queries_are_read_word_by_word_as_the_index_reads_whole_texts(corpus):
    """The searcher analyses a query one typed word at a time (cached); that must
    give the tokens and stems the index's own analyzers give the whole text."""
    from judge.search.expansion import _plain_tokens, porter_stem

    plain_an, stem_an = search_index.plain_analyzer(), search_index.stemming_analyzer()
    texts = [p.text for p in corpus.paragraphs.values()] + ["Ça coûte 2.5 pool; l'Ancien bleeds … tap/untap"]
    for text in texts:
        words = parse_query(text).words
        joined = " ".join(words)
        plain = [token for word in words for token in _plain_tokens(word)]
        assert plain == [t.text for t in plain_an(joined)], text
        assert [porter_stem(t) for t in plain] == [t.text for t in stem_an(joined)], text

# -- the synonyms file -------------------------------------------------------------------

def test_the_synonyms_file_is_valid_and_covers_the_older_terms():
    data = load_synonyms()
    terms = {t.lower() for g in data.groups for t in g.terms}
    assert {"tap", "untap", "diablerize", "assamite", "followers of set"} <= terms
    assert "how" in data.question_words


def test_a_malformed_synonyms_file_names_the_line(tmp_path):
    bad = tmp_path / "synonyms.yaml"
    bad.write_text("version: 1\ngroups:\n  - terms: [lock, tap]\n  - terms: [alone]\n", encoding="utf-8")
    with pytest.raises(SourceError, match=r"synonyms.yaml:4: group 2"):
        load_synonyms(bad)
    bad.write_text("groups: [\n", encoding="utf-8")
    with pytest.raises(SourceError, match="not valid YAML"):
        load_synonyms(bad)


# -- the index: atomic builds, rebuilds, concurrent searches -----------------------------

def test_the_index_rebuilds_when_a_rulebook_changes(rules_copy):
    from judge.corpus import load_corpus

    before = load_corpus()
    old = get_searcher(before)
    assert not old.search("zanzibarquux").hits
    book = rules_copy / before.documents["vekn"].meta.source
    book.write_text(book.read_text(encoding="utf-8") + "\n\nA zanzibarquux may bleed twice.\n", encoding="utf-8")
    after = load_corpus()
    assert after.digest != before.digest
    new = get_searcher(after)
    assert new is not old
    assert new.search("zanzibarquux").hits[0].doc == "vekn"
    root = search_index.paths.index_dir()
    assert search_index.current_name(root).startswith(search_index.index_key(after))
    # the previous build is gone from disk, but a searcher on it searches what it read
    assert not old.search("zanzibarquux").hits and old.search("bleed").hits
    assert get_searcher(after) is new  # one searcher per corpus and process


def test_a_search_during_a_rebuild_succeeds(corpus, tmp_path, monkeypatch):
    monkeypatch.setattr(search, "POINTER_CHECK_SECONDS", 0)  # every search looks at the pointer
    reader = Search(corpus, root=tmp_path)
    first = reader.built.name
    errors, answered = [], []
    stop = threading.Event()

    def search_in_a_loop():
        while not stop.is_set():
            try:
                result = reader.search("blood hunt referendum", limit=3)
                answered.append((bool(result.hits), reader.built.name))
            except Exception as exc:  # noqa: BLE001 - any failure is what this test looks for
                errors.append(exc)
                return
            stop.wait(0.005)  # leave the builds some of the interpreter

    thread = threading.Thread(target=search_in_a_loop)
    thread.start()
    try:
        # Another searcher (as another process would) rebuilds the same corpus twice.
        writer = Search(corpus, root=tmp_path)
        names = [writer.rebuild(), writer.rebuild()]
    finally:
        stop.set()
        thread.join(timeout=30)
    assert not errors, errors
    assert len(answered) >= 10 and all(found for found, _ in answered)
    assert len({first, *names}) == 3
    # it searched on the first build and, without stopping, on a new one
    assert {first, names[0]} <= {name for _, name in answered} or {first, names[1]} <= {name for _, name in answered}
    reader.search("bleed")  # notices the pointer, and follows it in the background
    assert reader.settle(timeout=60)
    assert reader.built.name == names[-1]  # the reader followed the pointer
    kept = sorted(p.name for p in tmp_path.glob(f"{search_index.PREFIX}*") if p.is_dir())
    assert kept == [f"{search_index.PREFIX}{names[-1]}"]  # one build on disk: the current one


def test_a_rebuild_by_another_process_is_followed_after_the_check_interval(corpus, tmp_path, monkeypatch):
    """The pointer file is looked at once per POINTER_CHECK_SECONDS, not at every search."""
    reader = Search(corpus, root=tmp_path)
    first = reader.built.name
    monkeypatch.setattr(search, "POINTER_CHECK_SECONDS", 3600)
    reader.search("bleed")  # looks now, then not for an hour
    newer = Search(corpus, root=tmp_path).rebuild()  # as another process would
    assert reader.search("bleed").hits and reader.built.name == first
    monkeypatch.setattr(search, "POINTER_CHECK_SECONDS", 0)
    assert reader.search("bleed").hits  # notices the pointer, and follows it in the background
    assert reader.settle(timeout=60) and reader.built.name == newer != first


def test_an_edited_synonyms_file_is_read_again(tmp_path, monkeypatch):
    import judge.search.synonyms as search_synonyms
    path = tmp_path / "synonyms.yaml"
    path.write_text("groups:\n  - terms: [bleed, steal pool]\n", encoding="utf-8")
    monkeypatch.setattr(search_synonyms, "SYNONYMS_CHECK_SECONDS", 3600)
    assert [g.terms for g in search_synonyms.current_synonyms(path).groups] == [("bleed", "steal pool")]
    path.write_text("groups:\n  - terms: [torpor, sleep]\n", encoding="utf-8")
    os.utime(path, ns=(0, 10**18))  # a new date, whatever the file system's clock resolution
    assert [g.terms for g in search_synonyms.current_synonyms(path).groups] == [("bleed", "steal pool")]  # not yet
    monkeypatch.setattr(search_synonyms, "SYNONYMS_CHECK_SECONDS", 0)
    assert [g.terms for g in search_synonyms.current_synonyms(path).groups] == [("torpor", "sleep")]


def test_searches_from_many_threads(searcher):
    results, errors = {}, []

    def run(n):
        try:
            results[n] = ids(searcher.search(["bleed", "torpor", "prestige", "6.4.6"][n % 4], limit=3))
        except Exception as exc:  # noqa: BLE001
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(n,)) for n in range(16)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    assert all(results[n] == results[n % 4] for n in range(16))
