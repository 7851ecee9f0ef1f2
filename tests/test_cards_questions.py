"""Issue 35 on the real card data: a card recognised inside a question however people type its name, its
rulings found by the question's words, the card list shown as it means, rulings linked to the paragraph they
rely on, and the JSON shapes the CLI and the API share."""
from __future__ import annotations

import json
import re
from collections import Counter

import pytest

from judge.cards import get_cards
from judge.cards.names import name_key
from judge.cards.query import look_up
from judge.cli import cli


@pytest.fixture(scope="module")
def base(corpus):
    return get_cards(corpus)


def search_json(runner, *args) -> dict:
    result = runner.invoke(cli, ["search", *args, "--json"])
    assert result.exit_code in (0, 1), result.output
    return json.loads(result.stdout)


# -- a card named inside a question ---------------------------------------------------------------------------

def test_a_card_named_inside_a_question_is_recognised(runner):
    data = search_json(runner, "can Govern the Unaligned be blocked")
    assert [c["id"] for c in data["cards"]["cards"]] == ["card:100845"]
    assert data["cards"]["rulings"][0]["id"] == "ruling:100845/lsj-20010108"


def test_every_name_before_its_comma_finds_its_card_when_no_other_card_shares_it(base, corpus):
    """224 cards are a name and a title ("Smiling Jack, The Anarch"): players say the name alone."""
    heads = Counter(name_key(c.name.split(",")[0]) for c in base.cards.values())
    tried = wrong = 0
    for card in base.cards.values():
        head = card.name.split(",")[0]
        if "," not in card.name or heads[name_key(head)] > 1:
            continue
        tried += 1
        found = look_up(base, corpus, head)
        wrong += found.card is None or found.card.name != card.name
    assert tried >= 200 and wrong == 0


@pytest.mark.parametrize("typed, name", [
    ("Vykos", "Sascha Vykos, The Angel of Caine"),  # a nickname (card_nicknames.yaml)
    ("Heidelberg", "Heidelberg Castle, Germany"),  # a part that picks one card
    ("Sacre-Coeur", "Sacré-Cœur Cathedral, France"),  # accents and the ligature
    ("An Anarch Manifesto", "Anarch Manifesto, An"),  # as printed, where the list puts the article last
    ("GtU", "Govern the Unaligned"), ("KRC", "Kine Resources Contested"),  # abbreviations players use
    ("The Rumor Mill", "The Rumor Mill, Tabloid Newspaper"),  # the article before the comma
])
def test_names_as_people_type_them(base, corpus, runner, typed, name):
    found = look_up(base, corpus, typed)
    assert found.card is not None and found.card.name == name
    assert search_json(runner, f"{typed} rulings")["cards"]["cards"][0]["name"] == name


@pytest.mark.parametrize("question, names", [
    ("does ground fighting stop a maneuver", ["Groundfighting"]),  # a name printed as one word, typed as two
    ("can I call delaying tactic on my own referendum", ["Delaying Tactics"]),  # everyday words, a letter off
    ("is Smiling Jack's damage aggravated", ["Smiling Jack, The Anarch"]),  # a possessive
    ("petra's resonance against an imbued", ["Petra Resonance"]),  # a possessive inside the name
    ("Govern the Unaligned then Telepathic Misdirecton", ["Govern the Unaligned", "Telepathic Misdirection"]),
])
def test_names_inside_questions_as_people_type_them(runner, question, names):
    """A name typed loosely among a question's words: split or joined, a letter off though every word is an
    everyday one, as a possessive, or misspelt beside another name found whole."""
    assert [c["name"] for c in search_json(runner, question)["cards"]["cards"]] == names


@pytest.mark.parametrize("question", [
    "where do I place the shared deck", "the part of a referendum where ballots go in",
    "torpor vampire at full blood returns to haven ready",
])
def test_everyday_words_near_a_name_stay_words(runner, question):
    """"the shared" is a letter from The Shard, "the part of" from The Art of Love: a rules question names no
    card."""
    assert search_json(runner, question)["cards"]["cards"] == []


def test_a_question_naming_two_cards_leads_with_the_ruling_where_they_meet(runner, base):
    """A ruling of one card that names the other answers how they meet, even when the question says nothing
    more."""
    data = search_json(runner, "Illusions of the Kindred against Telepathic Tracking")["cards"]
    first = base.rulings[data["rulings"][0]["id"]]
    named = {c["id"] for c in data["cards"]}
    assert len(named) == 2
    assert set(first.mentions) & named and set(first.cards) & named


def test_the_panel_puts_the_card_s_own_ruling_before_its_groups(runner, base):
    """White Lily's one ruling of her own ("only when she is in combat herself") comes before the rulings of the
    groups she is in (equipping outside an action) for a question on her ability."""
    data = search_json(runner, "can White Lily use her ability to equip during another minion's combat")["cards"]
    assert data["rulings"][0]["id"] == "ruling:201467/ank-20221021"


def test_a_version_mark_typed_after_the_name_picks_that_version_and_versions_are_told_apart(base, corpus, runner):
    assert look_up(base, corpus, "Theo Bell adv").card.advanced
    data = json.loads(runner.invoke(cli, ["card", "theo bell", "--json"]).stdout)
    labels = [data["label"], *(v["label"] for v in data["versions"])]
    assert len(labels) == 3 and len(set(labels)) == 3  # the three boxes no longer carry one label
    assert all(label.startswith("Theo Bell (") for label in labels)


def test_a_word_several_cards_share_names_none_and_says_so(runner):
    data = search_json(runner, "can Sforza block this action")["cards"]  # Adana de Sforza, Tommaso Sforza
    assert data["cards"] == [] and data["ambiguous"][0]["typed"] == "sforza"
    assert {c["name"] for c in data["ambiguous"][0]["cards"]} == {"Adana de Sforza", "Tommaso Sforza"}
    result = runner.invoke(cli, ["card", "Sforza"])
    assert result.exit_code == 1 and "names several cards" in result.output


def test_a_nickname_naming_no_card_or_two_fails_with_its_line(base, tmp_path):
    from judge.cards.nicknames import load_nicknames
    from judge.errors import SourceError
    path = tmp_path / "card_nicknames.yaml"
    path.write_text("- name: Govern the Unaligned\n  aka: [GtU]\n- name: No Such Card Zz\n  aka: [NSC]\n",
                    encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_nicknames(base, path)
    assert caught.value.line == 3 and "No Such Card Zz" in str(caught.value)
    path.write_text("- name: Govern the Unaligned\n  aka: [GtU]\n- name: Kine Resources Contested\n"
                    "  aka: [gtu]\n", encoding="utf-8")
    with pytest.raises(SourceError) as caught:
        load_nicknames(base, path)
    assert caught.value.line == 3 and "also given to" in str(caught.value)
    assert load_nicknames(base)["Govern the Unaligned"]  # the project's own file loads


# -- rulings searched by their words ---------------------------------------------------------------------------

def test_rulings_are_searched_by_their_words_and_listed_as_ruling_hits(runner):
    data = search_json(runner, "damage inflicted against a dodge", "--in", "rulings")
    first = data["hits"][0]
    assert first["kind"] == "ruling" and "inflicted even against a dodge" in first["text"]
    assert {"id", "text", "cards", "references"} <= set(first) and first["cards"] and first["references"]
    mixed = search_json(runner, "can Govern the Unaligned be blocked")  # a card named: its rulings count more
    assert {h["kind"] for h in mixed["hits"]} >= {"ruling", "rule"}  # mixed with the paragraphs by score
    scores = [h["score"] for h in mixed["hits"]]
    assert scores == sorted(scores, reverse=True)


def test_the_panel_ranks_a_card_s_rulings_by_the_question(runner):
    """Concealed Weapon has 12 rulings (its own and its groups'); the question picks the one about strength,
    second in the file."""
    data = search_json(runner, "does my vampire's extra strength count toward the Concealed Weapon damage "
                               "limit")["cards"]
    assert data["rulings_total"] == 12 and len(data["rulings"]) == 8  # the best 8 shown, all counted
    assert data["rulings"][0]["id"] == "ruling:100392/lsj-20020821"
    plain = search_json(runner, "Concealed Weapon rulings")["cards"]
    assert plain["rulings_total"] == 12 and plain["rulings"][0]["id"] != "ruling:100392/lsj-20020821"


def test_a_card_whose_rulings_are_all_on_another_version_shows_them(base, corpus):
    from judge.shapes import card_data
    card = look_up(base, corpus, "Sascha Vykos, The Angel of Caine").card
    data = card_data(base, card, corpus)
    assert not data["rulings"] and any(v["rulings"] for v in data["version_rulings"])


def test_a_question_naming_a_card_without_its_version_asks_of_every_version(runner):
    data = search_json(runner, "Sascha Vykos, The Angel of Caine rulings")["cards"]
    assert data["rulings"] and all(r["card"] != data["cards"][0]["id"] for r in data["rulings"])


# -- the card list as it means ---------------------------------------------------------------------------------

def test_no_card_text_shows_the_lists_change_marks_and_the_errata_are_kept_as_runs(base):
    assert not [c.name for c in base.cards.values() if "{" in c.text or "}" in c.text]
    marked = [c for c in base.cards.values() if c.errata]
    assert len(marked) >= 200
    for card in marked:
        assert "".join(t for t, _ in card.errata) == card.text and any(changed for _, changed in card.errata)
    tarbaby = next(c for c in base.cards.values() if c.name == "Tarbaby Jack")  # marks nested in the list
    assert "you get +1 transfer" in tarbaby.text


def test_clans_have_their_current_names_and_the_old_ones_still_find_them(base, client):
    assert not [c.name for c in base.cards.values() if {"Assamite", "Follower of Set"} & set(c.clans)]
    former = [c for c in base.cards.values() if c.former_clans]
    assert len(former) >= 200
    assert all(set(c.clans) & {"Banu Haqim", "Ministry"} for c in former)
    page = client.get("/cards?clan=Assamite").get_data(as_text=True)
    assert client.get("/cards?clan=Assamite").status_code == 200 and "Banu Haqim" in page


def test_a_group_ruling_keeps_its_note_about_which_version_it_is_about(base, corpus):
    from judge.shapes import ruling_data
    noted = [(g, m) for g in base.groups.values() for m in g.members if m.note]
    assert len(noted) >= 200
    group, member = noted[0]
    ruling = next(r for r in base.rulings.values() if r.group == group.id)
    assert ruling_data(base, ruling, corpus, card_id=member.card)["note"] == member.note


def test_no_ruling_text_shows_its_source_tag(base):
    tag = re.compile(r"\b(?:LSJ|ANK|RTR|PIB|TOM|RBK) \d{8}(?:-\w+)?[\"'.]?\s*$")
    assert not [r.id for r in base.rulings.values() if tag.search(r.text)]


# -- rulings and rules at paragraph precision -----------------------------------------------------------------

def test_the_rulebook_links_the_rulings_use_open_in_judge_show(base, runner):
    urls = sorted({r.url for r in base.references.values() if r.url and "vekn.net/rulebook" in r.url})
    opened = [u for u in urls if runner.invoke(cli, ["show", u, "--json"]).exit_code == 0]
    assert len(urls) >= 140 and len(opened) >= 138
    bare = [u for u in urls if re.search(r"/rulebook#", u)]
    assert "https://www.vekn.net/rulebook#leave-torpor" in bare and \
        "https://www.vekn.net/rulebook#leave-torpor" in opened  # a bare anchor, derived from a title


def test_a_ruling_citing_a_section_links_the_paragraph_its_words_pick(base):
    ruling = base.rulings["ruling:101062/rbk-leave-torpor"]  # "...no opportunity to diablerize the acting vampire"
    assert base.references["RBK leave-torpor"].resolves_to == "vekn:leave-torpor-see-torpor"
    assert ruling.cites["RBK leave-torpor"] == "vekn:leave-torpor-see-torpor/5"
    assert "ruling:101062/rbk-leave-torpor" in base.by_citation["vekn:leave-torpor-see-torpor/5"]


def test_a_rule_page_lists_the_rulings_relying_on_it(client):
    page = client.get("/p/vekn:leave-torpor-see-torpor/5").get_data(as_text=True)
    assert "no opportunity to diablerize the acting vampire" in page


def test_cards_using_a_rule_come_most_directly_first(base):
    """Of one template, a card whose text says it ("+1 stealth") comes before one using it by its type alone."""
    checked = 0
    for rule in ("vekn:resolve-any-block-attempts/2", "vekn:minion-cards/7", "vekn:combat/7", "vekn:minion-cards/11"):
        ranked = base.cards_using_ranked([rule])
        for template in {u.template for _, u in ranked}:
            order = [any(not m.startswith("type:") for m in u.matched) for _, u in ranked if u.template == template]
            if True in order and False in order:
                checked += 1
                assert order.index(False) > len(order) - 1 - order[::-1].index(True)
    users = base.cards_using_ranked(["vekn:resolve-any-block-attempts/2"])
    assert users and any(not m.startswith("type:") for m in users[0][1].matched)
    assert checked  # some template there is used both ways


def test_the_saved_tables_read_back_as_they_were_made(base, corpus):
    """judge.cards.saved_tables: the name forms and the rulings' index read from their files answer as made."""
    import numpy as np

    from judge.cards.mentions import NameForms, book_words
    from judge.cards.nicknames import load_nicknames
    from judge.cards.ruling_search import RulingIndex
    made = NameForms(base, load_nicknames(base), book_words(corpus))
    read = NameForms.from_data(json.loads(json.dumps(made.to_data())), base.cards)
    assert (read.families, read.exact, read.partial) == (made.families, made.exact, made.partial)
    assert (read.fuzzy_forms, read.rare_name_words) == (made.fuzzy_forms, made.rare_name_words)
    for q in ("can gtu be blocked", "telepathic misdirecton on a bleed", "sforza", "torn sign post", "13th"):
        assert read.find(q) == made.find(q) and read.common(q.split()[0]) == made.common(q.split()[0])
    assert list(read.exact) == list(made.exact) and list(read.families) == list(made.families)
    from judge.cachefile import Mismatch
    for name, damage in (("exact_hows", lambda v: v[:-1]), ("family_cards", lambda v: ["card:0", *v[1:]]),
                         ("exact_families", lambda v: ["no such name", *v[1:]]),
                         ("partial_families", lambda v: [*v[:-1], "no such name"]),
                         ("exact_hows", lambda v: ["typo", *v[1:]]), ("partial_forms", lambda v: ["", *v[1:]]),
                         ("book", lambda v: [1, *v[1:]])):
        broken = made.to_data()
        broken[name] = damage(broken[name])
        with pytest.raises(Mismatch):
            NameForms.from_data(broken, base.cards)
    index = RulingIndex(base, corpus)
    again = RulingIndex.from_data(json.loads(json.dumps(index.to_data())), base)
    assert again.telling == index.telling and again.ids == index.ids
    # what its hits show, read without the card base (judge.cards.quick), as the card base has it
    alone = RulingIndex.from_data(json.loads(json.dumps(index.to_data())), None)
    assert alone.shown.rulings == index.shown.rulings and alone.shown.cards == index.shown.cards
    assert alone.shown.groups == index.shown.groups and len(alone.shown.rulings) == len(base.rulings)
    for rid in list(base.rulings)[::97]:
        ruling, shown = base.rulings[rid], alone.shown.rulings[rid]
        assert (shown.text, shown.cards, shown.group, shown.references) == \
            (ruling.text, ruling.cards, ruling.group, ruling.references)
    for name, field in index.postings.items():
        assert field.keys() == again.postings[name].keys()
        assert all(np.array_equal(n, again.postings[name][s][0]) and np.array_equal(w, again.postings[name][s][1])
                   for s, (n, w) in field.items())
    from judge.cachefile import Mismatch
    broken = index.to_data()
    broken["ids"] = broken["ids"][1:]
    with pytest.raises(Mismatch):
        RulingIndex.from_data(broken, base)
    with pytest.raises(Mismatch):
        RulingIndex.from_data(broken, None)
    for part, damage in (("offsets", lambda v: v[:-1] + [v[-1] + 1]), ("numbers", lambda v: [len(base.rulings), *v[1:]]),
                         ("weights", lambda v: ["x", *v[1:]]), ("offsets", lambda v: [v[1], v[0], *v[2:]])):
        broken = index.to_data()
        broken["postings"]["text"][part] = damage(broken["postings"]["text"][part])
        with pytest.raises(Mismatch):
            RulingIndex.from_data(broken, base)
