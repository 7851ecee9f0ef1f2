"""Answers from the rules in force (issue 20), on the real corpus: the current book
stands for each rule, the answering paragraph above mentions, one game at a time,
the words players use, direct jumps."""
from __future__ import annotations

import json

import pytest
import yaml

from judge.commands.browse import show
from judge.errors import SourceError
from judge.commands.search import search as search_command
from judge.search import Search
from judge.search.index import stemming_analyzer
from judge.search.synonyms import load_table_talk, table_talk_file

from web_pages import item_url, links, page


@pytest.fixture(scope="module")
def searcher(corpus, tmp_path_factory):
    return Search(corpus, root=tmp_path_factory.mktemp("search-in-force"))


def test_each_older_paragraph_is_shown_as_its_surest_direct_counterpart_in_force(searcher, corpus):
    """The face of an older edition's paragraph (the paragraph in force shown, and weighed,
    in its place): of its direct counterparts (`ServedCounterparts.direct`, newest first),
    the surest in the book in force that is no draft, if at least FACE_CONFIDENCE sure;
    none for a paragraph in force. (The searcher reads them from the groups' links.) An older
    paragraph with no such counterpart may have a face by meaning (the next test)."""
    from judge.search.counterparts import ServedCounterparts
    from judge.search.searcher import FACE_CONFIDENCE

    built = searcher.built
    newest = {}
    for doc in corpus.documents.values():
        newest[doc.meta.game] = max(newest.get(doc.meta.game, 0), doc.meta.edition_order)
    in_force = {d.id for d in corpus.documents.values() if d.meta.edition_order == newest[d.meta.game]}
    direct = ServedCounterparts(built.counterparts, lambda pid, confidence: (pid, confidence),
                                lambda pid: corpus.documents[corpus.paragraphs[pid].doc].meta.edition_order).direct
    expected = {}
    for members in built.counterparts.members:
        for pid in members:
            best = [(other, confidence) for other, confidence in direct(pid) if confidence >= FACE_CONFIDENCE
                    and corpus.paragraphs[other].doc in in_force and corpus.paragraphs[other].kind != "draft"]
            if best and corpus.paragraphs[pid].doc not in in_force:
                expected[pid] = max(best, key=lambda found: found[1])[0]
    assert len(expected) > 300
    faces = searcher._current.faces
    assert {pid: faces.get(pid) for pid in expected} == expected
    for pid, face in faces.items():
        if pid not in expected:  # a face by meaning: an older paragraph of the same game, a rule in force
            older, current = corpus.paragraphs[pid], corpus.paragraphs[face]
            assert older.doc not in in_force and current.doc in in_force and current.kind != "draft"
            assert corpus.documents[older.doc].meta.game == corpus.documents[current.doc].meta.game


def test_an_older_paragraph_aligned_with_a_draft_only_is_shown_as_the_rule_in_force_saying_it(searcher, corpus):
    """Issue 36's torpor case: the older book's "A vampire in torpor can take no action except..."
    (S6 §6.5.1 ¶3) is aligned with the current book's draft of the Torpor section only, so it used
    to show as itself, above the rule in force. The current book states it in Important Terms ¶12,
    in other words, and its written questions ask what the older paragraph answers: that is its face.
    A flows step (an outline in force beside the book) is never folded so."""
    faces = searcher._current.faces
    assert faces["s6:6.5.1/3"] == "vekn:important-terms-in-the-game/12"
    assert not any(pid.startswith("flows:") for pid in faces)
    result = searcher.search("can a vampire in torpor take actions")
    ids = [h.id for h in result.hits]
    assert "s6:6.5.1/3" not in ids and "rb:6.5.1/3" not in ids
    assert all(h.in_force for h in result.hits[:5]), ids
    rule = next(h for h in result.hits if h.id == "vekn:important-terms-in-the-game/12")
    assert ids.index(rule.id) < 2
    assert any(c.id == "s6:6.5.1/3" and c.matched for c in rule.counterparts)


@pytest.mark.parametrize("query", ["how much does it cost to contest a title", "what happens when a player is ousted"])
def test_the_current_book_stands_for_a_rule_the_older_ocr_book_also_states(searcher, query):
    result = searcher.search(query)
    top = result.hits[0]
    assert top.doc == "vekn" and top.in_force and not top.ocr, top
    # The older editions' paragraphs do not show as hits of their own above it, nor at all
    # when the current book states the same rule: they are listed under it.
    for hit in result.hits[:5]:
        assert hit.doc != "rb", [h.id for h in result.hits]


def test_an_older_edition_is_the_face_when_asked_for(searcher):
    asked = searcher.search("contest a title", doc="rb")
    assert asked.hits and all(h.doc == "rb" and not h.in_force and h.ocr for h in asked.hits)


def test_an_editors_draft_never_ranks_above_the_official_rule(searcher):
    result = searcher.search("can a vampire in torpor vote")
    kinds = [h.kind for h in result.hits]
    assert kinds[0] != "draft", [h.id for h in result.hits]
    if "draft" in kinds:
        assert kinds.index("rule") < kinds.index("draft")


@pytest.mark.parametrize("query", ["diablerie", "how does a vampire hunt"])
def test_lore_entries_do_not_lead_a_rules_question(searcher, query):
    top = searcher.search(query).hits[0]
    assert "world-of-darkness" not in top.id, top.id


def test_a_tied_referendum_is_answered_in_vtes_only(searcher):
    result = searcher.search("what happens on a tied referendum")
    assert result.game == "vtes" and result.game_from == "default"
    assert result.hits and all(h.game == "vtes" for h in result.hits)
    assert result.other_game and result.other_game["game"] == "rivals"  # said, not shown
    both = searcher.search("what happens on a tied referendum", game="all")
    assert both.game == "all" and {h.game for h in both.hits} <= {"vtes", "rivals"}


@pytest.mark.parametrize("query", ["how many agenda points do I need to win", "what is blood potency",
                                   "can I attack a vampire in its haven"])
def test_a_rivals_question_naming_no_game_finds_rivals(searcher, query):
    result = searcher.search(query)
    assert result.game == "rivals" and result.game_from == "query"
    assert result.hits and all(h.doc == "rivals" for h in result.hits)


def test_naming_a_game_picks_it(searcher):
    assert searcher.search("torpor in rivals").game == "rivals"
    assert searcher.search("torpor", game="rivals").game_from == "filter"


@pytest.mark.parametrize("word, book_word", [("tapped", "lock"), ("untapped", "unlock"), ("untapping", "unlock")])
def test_old_terms_in_every_inflection_find_the_current_words(searcher, word, book_word):
    result = searcher.search(f"can a {word} vampire block")
    marked = {text.lower() for h in result.hits for text, mark in h.snippet if mark}
    assert any(m.startswith(book_word) for m in marked), marked
    assert result.hits[0].in_force  # old wording is vocabulary, not a request for the old book


@pytest.mark.parametrize("word", ["sweep", "standing", "went", "rush", "bounce"])
def test_real_words_and_table_talk_are_never_corrected(searcher, word):
    expansion = searcher.expansion_of(f"{word} torpor")
    assert all(unit.corrected is None for unit in expansion.units), [(u.typed, u.corrected) for u in expansion.units]
    assert searcher.search(f"{word} torpor").did_you_mean is None


def test_a_typo_is_still_corrected(searcher):
    assert searcher.search("blok intercetp").did_you_mean == "block intercept"


@pytest.mark.parametrize("query, wanted", [("rush a vampire", "combat"), ("how many MPAs do I get", "master phase"),
                                           ("table sweep", "oust"), ("can I deck out", "library"),
                                           ("cards in my graveyard", "ash heap"), ("xfers per turn", "transfer")])
def test_table_talk_finds_the_books_words(searcher, query, wanted):
    texts = " ".join(h.text.lower() for h in searcher.search(query).hits[:5])
    assert wanted in texts


def test_the_table_talk_file_says_what_each_word_means_in_the_books_words(corpus):
    data = yaml.safe_load(table_talk_file().read_text(encoding="utf-8"))
    assert len(data["talk"]) > 100
    assert load_table_talk().groups  # it reads and checks
    analyse = stemming_analyzer()
    books = [" " + " ".join(t.text for t in analyse(p.text)) + " " for p in corpus.paragraphs.values()]
    missing = []
    for entry in data["talk"]:
        assert entry["note"].strip()
        for term in entry["means"]:
            phrase = " ".join(t.text for t in analyse(term))
            if not any(f" {phrase} " in text for text in books):
                missing.append(term)
    assert not missing, f"terms the books never use: {missing}"


def test_a_broken_table_talk_file_names_its_line(tmp_path):
    bad = tmp_path / "table_talk.yaml"
    bad.write_text("talk:\n  - say: [rush]\n    means: [enter combat]\n  - say: [bounce]\n    means: []\n    note: x\n")
    with pytest.raises(SourceError) as caught:
        load_table_talk(bad)
    assert "table_talk.yaml" in str(caught.value) and "entry 1: 'note'" in str(caught.value)


def test_no_hits_suggests_the_other_game_or_fewer_words(searcher):
    result = searcher.search("bluff")  # a word only Rivals paragraphs have, but not one that marks a Rivals question
    assert result.game == "vtes" and not result.hits
    assert "game:rivals" in result.message and result.other_game == {"game": "rivals", "total": result.other_game["total"]}
    assert "fewer words" in searcher.search("bluff xqzzv wvvkq").message


def test_no_hits_suggests_dropping_the_quotes_or_the_filters_and_offers_a_spelling(searcher):
    phrase = searcher.search('"bleed the prey xqzzv"')
    assert not phrase.hits and "without the quotes" in phrase.message
    filtered = searcher.search('"block attempt" doc:rivals')
    assert not filtered.hits and "without the filters" in filtered.message
    misspelt = searcher.search("torpr")
    assert misspelt.did_you_mean == "torpor"


# -- direct jumps -------------------------------------------------------------------------
def test_a_unique_place_typed_in_the_search_box_redirects_there(client):
    for typed, target in (("rb:6.4.6/2", "/p/rb:6.4.6/2"), ("IV.D.2", "/p/flows:IV.D.2"),
                          ("rescue-a-vampire-from-torpor", "/p/vekn:rescue-a-vampire-from-torpor")):
        answer = client.get("/search", query_string={"q": typed})
        assert answer.status_code == 302, typed
        assert answer.headers["Location"].startswith(target), (typed, answer.headers["Location"])


def test_an_ambiguous_number_lists_the_books_it_is_in(client):
    answer = client.get("/search", query_string={"q": "6.4.6"})
    assert answer.status_code == 200
    direct = page(answer).find_all("p", class_="direct")
    assert direct and "S6" in direct[0].full_text() and "RB" in direct[0].full_text()


def test_judge_show_opens_a_section_by_its_slug_and_points_to_the_book_in_force(runner):
    torpor = runner.invoke(show, ["torpor"])
    assert torpor.exit_code == 0, torpor.output
    assert "[vekn:torpor]" in torpor.output
    older = runner.invoke(show, ["6.4.6"])
    assert older.exit_code == 0 and "in the book in force: " in older.output and "[vekn:" in older.output
    data = json.loads(runner.invoke(show, ["rb:4.2/2", "--json"]).output)
    assert data["in_force"] and all(c["id"].startswith("vekn:") for c in data["in_force"])
    assert json.loads(runner.invoke(show, ["vekn:bleed", "--json"]).output)["in_force"] == []


# -- the web: game switch, badges ---------------------------------------------------------
def test_the_results_page_has_a_game_switch_of_plain_links(client):
    tree = page(client.get("/search", query_string={"q": "torpor"}))
    switch = tree.find_all("nav", class_="game-switch")
    assert switch
    links = {a.full_text(): a.attrs for a in switch[0].find_all("a")}
    assert set(links) == {"V:TES", "Rivals", "Both"}
    assert "aria-current" in links["V:TES"] and "game=rivals" in links["Rivals"]["href"]
    both = page(client.get(links["Both"]["href"].replace("&amp;", "&")))
    games = {b.full_text() for b in both.find_all("span", class_="game")}
    assert games == {"V:TES", "Rivals"}  # with both games shown, each hit says its own
    rivals = page(client.get("/search", query_string={"q": "torpor", "game": "rivals"}))
    assert all("rivals" in a.attrs["href"] for a in rivals.find_all("a", class_="hit-label"))


def test_older_and_ocr_hits_carry_badges(client):
    tree = page(client.get("/search", query_string={"q": "contest a title doc:rb"}))
    hits = tree.find_all("li", class_="hit")
    assert hits and all(h.find_all("span", class_="older") and h.find_all("span", class_="ocr") for h in hits)


def test_an_amount_question_puts_the_paragraph_stating_the_amount_first(searcher):
    # Both paragraphs of the influence phase share the words; the one stating the cost answers.
    hits = searcher.search("how much does it cost to move a new vampire from the crypt to my uncontrolled region").hits
    assert hits[0].id == "vekn:influence-phase/7"  # "Spend 4 transfers and burn 1 pool to move a vampire ..."
    shown = [h.id for h in searcher.search("how much blood to leave torpor").hits[:2]]
    assert "vekn:leave-torpor-see-torpor/2" in shown  # "Default Cost: 2 blood."


@pytest.mark.parametrize("query, section", [("equip default stealth", "vekn:equip"),
                                            ("recruit ally stealth", "vekn:recruit-ally"),
                                            ("leave torpor stealth", "vekn:leave-torpor-see-torpor")])
def test_a_rule_shown_by_its_current_paragraph_ranks_by_that_paragraphs_own_words(searcher, query, section):
    # The older books state each action in one paragraph (its stealth among the rest); the
    # current book in several. The older paragraph is shown as the current one it is paired
    # with (the action's effect), which must not rank on the older paragraph's words.
    result = searcher.search(query)
    top = result.hits[0]
    assert top.section == section and top.text.startswith("Default stealth:"), [h.id for h in result.hits]
    if query == "leave torpor stealth":  # the older wording still counts, folded under its face
        folded = {c.id for h in result.hits for c in h.counterparts if c.matched}
        assert "s6:6.5.2/2" in folded, folded


def test_a_words_synonyms_count_once_in_a_paragraph(searcher):
    # "block" also asks for "blocker", "block attempt", "try to block": a paragraph on block
    # attempts has them all, but they are one word of the question, not four; the paragraph
    # saying allies block answers. (Since issue 36 it shares the top with the rule of who blocks
    # an undirected action, whose written question asks who blocks a recruit ally.)
    hits = searcher.search("can an ally block").hits
    ids = [h.id for h in hits]
    assert "vekn:recruit-ally/2" in ids[:2], ids
    assert "blocking" in hits[ids.index("vekn:recruit-ally/2")].text
    assert ids.index("vekn:recruit-ally/2") < ids.index("vekn:resolve-any-block-attempts/1"), ids


def test_the_section_a_question_names_answers_before_a_mention_elsewhere(searcher):
    # A worked example elsewhere says "bleed" and "pool" more often; the question names the
    # Bleed action, whose effect states how much pool is burned.
    top = searcher.search("bleed how much pool").hits[0]
    assert top.section == "vekn:bleed" and "burns an amount of pool" in top.text, top.id


def test_a_drafts_page_explains_the_draft_and_points_to_the_official_paragraph(client):
    def draft_note(pid):
        return page(client.get(item_url(pid))).find_all("aside", class_="draft-note")

    # vekn:torpor/3 is the editors' folded copy of the torpor rule vekn:important-terms-in-the-game/12.
    note = draft_note("vekn:torpor/3")
    assert note and "not the official rule" in note[0].full_text()
    assert links(note[0]) == [item_url("vekn:important-terms-in-the-game/12")]
    # A draft that repeats no official paragraph points to its section instead.
    alone = draft_note("vekn:minion-phase/14")
    assert alone and links(alone[0]) == [item_url("vekn:minion-phase")]
    # An official paragraph has no such note.
    assert not draft_note("vekn:important-terms-in-the-game/12")


def test_the_filters_are_behind_one_control(client):
    tree = page(client.get("/search", query_string={"q": "bleed"}))
    filters = tree.find_all("details", class_="filters")
    assert filters and "open" not in filters[0].attrs
    assert filters[0].find_all("nav", class_="facets")


def test_the_api_takes_and_says_the_game(client):
    data = client.get("/api/search", query_string={"q": "torpor", "game": "all"}).get_json()
    assert data["game"] == "all" and data["game_from"] == "filter"
    assert {"game", "in_force", "ocr"} <= set(data["hits"][0])
    assert client.get("/api/search", query_string={"q": "torpor", "game": "chess"}).status_code == 400


def test_search_stdin_json_answers_one_line_per_query(runner, rules_copy):
    answer = runner.invoke(search_command, ["--stdin"], input="contest a title\nagenda points\n\n")
    lines = [json.loads(line) for line in answer.output.splitlines()]
    assert len(lines) == 3
    assert lines[0]["hits"][0]["doc"] == "vekn" and lines[1]["game"] == "rivals" and lines[2]["message"]


def test_players_words_typos_and_question_frames_through_the_command_line(searcher):
    """Issue 20's vocabulary, as `judge search --stdin --json` answers it."""
    from click.testing import CliRunner

    typos = {"Methusaleh": "methuselah", "inflence": "influence", "torpur": "torpor",
             "referendom": "referendum", "diablery": "diablerie", "discpline": "discipline"}
    words = ["lunge", "wake", "ping", "sweep", "untapped"]
    lines = [*typos, *words, "prestiege", "is it legal to bleed my grand prey"]
    out = CliRunner().invoke(search_command, ["--stdin", "--json"], input="\n".join(lines) + "\n")
    assert out.exit_code == 0, out.output
    results = dict(zip(lines, (json.loads(line) for line in out.output.splitlines() if line.strip())))
    for typed, meant in typos.items():  # the game's words misspelt are corrected
        assert results[typed]["did_you_mean"] == meant, (typed, results[typed]["did_you_mean"])
    for word in words:  # real words and words players say never are
        assert results[word]["did_you_mean"] is None, (word, results[word]["did_you_mean"])
    assert results["lunge"]["hits"]  # ... and find what they mean (enter combat)
    # A misspelt word only Rivals has makes a Rivals question.
    assert results["prestiege"]["game"] == "rivals" and results["prestiege"]["hits"]
    # A question frame is not searched for; "can't" keeps its negation as the books write it.
    legal = searcher.expansion_of("is it legal to bleed my grand prey")
    assert "legal" not in {u.typed for u in legal.units}
    assert "cannot" in {u.typed for u in searcher.expansion_of("why can't a vampire in torpor block").units}
    # A talk phrase that is one word once its stop words drop ("have to hunt") does not
    # widen that word: "hunt" asks for hunting, not for every mandatory action.
    hunt = searcher.expansion_of("hunt").units[0]
    assert all("mandatori" not in alt.tokens for alt in hunt.alternatives), hunt.alternatives
    # ... while said with its stop words, as typed, it means what it says ("go on": continue).
    go_on = searcher.expansion_of("does combat go on").units
    assert any(("continu",) in {alt.tokens for alt in u.alternatives} for u in go_on), go_on
    # An irregular form finds its word, which the stemmer does not join to it.
    for form, word in (("went", "go"), ("took", "take"), ("stole", "steal")):
        assert (word,) in {alt.tokens for alt in searcher.expansion_of(form).units[0].alternatives}, form


def test_the_search_builds_counterparts_are_the_concordances(searcher, corpus):
    """Where an older paragraph's rule is in force (`judge show`) is read from the search
    build's rule groups when there is one: for every paragraph of every older edition,
    the concordance's counterparts (confidences to 3 places), and the same ones in force,
    in the same order."""
    from judge.compare.concordance import counterparts
    from judge.shapes import IN_FORCE_CONFIDENCE

    newest = {}
    for d in corpus.documents.values():
        newest[d.meta.game] = max(newest.get(d.meta.game, 0), d.meta.edition_order)
    in_force = {d.id for d in corpus.documents.values() if d.meta.edition_order == newest[d.meta.game]}
    older = [p for p in corpus.paragraphs.values() if p.doc not in in_force]
    assert len(older) > 500

    def shown(found):  # as `judge.shapes.in_force_counterparts` lists them
        return sorted([(pid, c) for pid, c in found if corpus.paragraphs[pid].doc in in_force
                       and c >= IN_FORCE_CONFIDENCE], key=lambda item: -item[1])

    for para in older:
        from_groups = [(c.id, c.confidence) for c in searcher.counterparts(para.id)]
        from_concordance = [(pid, round(confidence, 3)) for pid, confidence in counterparts(corpus, para.id)]
        assert sorted(from_groups) == sorted(from_concordance), para.id
        assert shown(from_groups) == shown(from_concordance), para.id
