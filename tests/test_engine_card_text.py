"""Cards played as printed (issue 37): crypt texts read into the minion, what is not read never silently
defaulted, a card's permission over a rule's prohibition citing both; on the real card list."""
from __future__ import annotations

import re

from pathlib import Path

import pytest
from card_catalog import card_catalog

from judge.engine import citations as C
from judge.engine import scenario as sc
from judge.engine.vtes.card_text import ability_of, read_crypt_text

ROOT = Path(__file__).resolve().parents[1] / "scenarios" / "cards"


@pytest.fixture(scope="module")
def locator(corpus):
    return C.CiteLocator(corpus)


def text_of(name: str):
    card = card_catalog().lookup(name)  # the engine's facts of the card, as a scenario naming it gets them
    assert card is not None, name
    return read_crypt_text(card.text, card.sect, card.title, card.name)


def test_a_crypt_texts_bonuses_traits_and_master_phase_actions_are_read():
    assert text_of("Sheila Mezarin").bonus == {"bleed": 1} and not text_of("Sheila Mezarin").unread
    anson = text_of("Anson")
    assert (anson.master_actions, anson.master_when, anson.unread) == (1, "ready", [])
    cybele = text_of("Cybele")
    assert (cybele.master_actions, cybele.master_when) == (1, "unlocked") and "infernal" in cybele.traits
    assert [a.kind for a in cybele.abilities] == ["bleed action"] and not cybele.unread  # "She can bleed with +2 ..."
    alex = text_of("Alex Wilkins")  # what may follow his bleed is not read: it is named
    assert alex.unread == ["If Alex successfully bleeds, the target Methuselah can burn 1 additional pool to steal him "
                           "after resolution."]


def test_a_sentence_not_read_is_kept_as_printed():
    lille = text_of("Lille Haake")
    assert lille.bonus == {} and lille.unread == [
        "During your master phase, you may use a master phase action to discard a card from your hand."]


def test_a_bonus_that_holds_at_some_times_is_read_with_when_it_holds():
    """"<the vampire> gets +N stealth, bleed, intercept or strength <when>" is read into the actions, block attempts
    or combats it holds in, and the minions it names; a subject other than the vampire itself, or a "when" of
    another form, stays unread."""
    (lille,) = text_of("Lille Haake").bonuses
    assert (lille.stat, lille.amount, lille.on, set(lille.kinds), lille.ready) == ("bleed", 1, "action", {"bleed"}, True)
    assert [(g.kind, g.name) for g in lille.groups] == [("sect", "Sabbat")]
    (abiku,) = text_of("Abiku").bonuses
    assert (abiku.stat, set(abiku.kinds), abiku.groups) == ("stealth", {"hunt"}, ())
    (dowager,) = text_of("The Dowager").bonuses
    assert (dowager.stat, dowager.on, dowager.directed, set(dowager.kinds)) == ("intercept", "block", True, set())
    (adri,) = text_of("Adri, The Seeker").bonuses  # "against Followers of Set": the acting minion's clan
    assert [(g.kind, g.name) for g in adri.groups] == [("clan", "Follower of Set")] and adri.on == "block"
    (mickey,) = text_of("Mickey Wheeler").bonuses
    assert mickey.on == "combat" and [g.kind for g in mickey.groups] == ["older"]
    (francis,) = text_of("Francis Milliner").bonuses  # "a Toreador or Toreador antitribu"
    assert [g.name for g in francis.groups] == ["Toreador", "Toreador antitribu"]
    for name, words in (("Azucena", "against younger Lasombra and -1 intercept"),
                        ("Luanda Magere", "for each Orun"), ("Kemintiri", "+1 bleed and +1 stealth")):
        assert not text_of(name).bonuses and any(words in s for s in text_of(name).unread), name


def test_every_bonus_read_from_the_card_list_is_about_the_vampire_itself_and_whole(corpus):
    """Over every crypt card: a sentence read as a bonus names the vampire (or a pronoun) as its subject; 90 or
    more are read."""
    from judge.cards import get_cards

    catalog = card_catalog()
    read = 0
    for card in get_cards(corpus).cards.values():
        if card.kind != "crypt":
            continue
        facts = catalog.facts_of(card)
        for bonus in read_crypt_text(facts.text, facts.sect, facts.title, facts.name).bonuses:
            read += 1
            subject = re.sub(r"^While you (?:have|control) [^,]+, ", "", bonus.sentence.split(" gets ")[0])  # (its condition)
            # a pronoun, the name, or a word of it ("Callihan" on Boss Callihan's card)
            assert subject.casefold() in ("he", "she", "they", "it") or re.search(
                rf"(?<!\w){re.escape(subject)}(?!\w)", facts.name.split(",")[0]), (facts.name, subject)
    assert read >= 90  # 97 when written


def steps_citing(result, locator, pid):
    return [s.text for s in result.steps if pid in sc.cite_ids(s.rules, C.CURRENT, locator)]


@pytest.mark.parametrize("stem, step_words", [
    ("wake_locked_vampire_blocks", "wakes"),
    ("cloak_the_gathering_by_another_vampire", "Cloak the Gathering"),
    ("crypt_text_two_master_phase_actions", "card text gives 1 more"),
])
def test_a_card_over_a_rule_cites_the_golden_rule_at_its_step(stem, step_words, locator):
    result = sc.run(sc.load(ROOT / f"{stem}.yaml", cards=card_catalog()), C.CURRENT, locator)
    assert result.ok and result.stop is None
    assert any(step_words in text for text in steps_citing(result, locator, "vekn:the-golden-rule-for-cards/1"))


def test_no_vampire_named_by_card_bleeds_by_a_silent_default(locator):
    """Every vampire of the card list whose text says more than the engine reads stops as not modelled
    where it acts, naming its text; one whose text is all read acts (sampled: 40 of each, across the list)."""
    from judge.cards import get_cards
    from judge.corpus import get_corpus

    catalog = card_catalog()
    unread, read = [], []
    for card in get_cards(get_corpus()).cards.values():
        if card.kind != "crypt" or "Vampire" not in card.types or '"' in card.name:
            continue
        facts = catalog.lookup(card.name)
        text = read_crypt_text(facts.text, facts.sect, facts.title, facts.name)
        (unread if text.unread else read).append((facts, text))
    assert len(read) > 200 and len(unread) > 200
    for facts, text in unread[::len(unread) // 40][:40] + read[::len(read) // 40][:40]:
        result = sc.run(sc.parse(BLEED.format(name=facts.name), cards=catalog), C.CURRENT, locator)
        if text.unread:
            assert result.stop is not None and result.stop.kind == "not-modelled", facts.name
            assert text.unread[0][:30] in result.stop.message, (facts.name, result.stop.message)
        else:
            assert result.stop is None or result.stop.kind == "refused", (facts.name, result.stop)


BLEED = """title: a bleed
rules: current
players: [Sarah, Alexis, Bob]
turn: Sarah
phase: minion
minions:
  - {{name: "{name}", controller: Sarah, blood: 1}}
events:
  - "{name} bleeds Alexis"
expect:
  phase: minion
"""


def test_what_a_vampire_may_or_may_not_do_is_read_from_its_card():
    """"cannot use cards requiring <Discipline> [code]", "cannot block <a group>" or "undirected actions", "damage
    from <its> hand strikes is aggravated", "cannot commit diablerie", "+N hunt": each read as an Ability of the
    vampire itself; the same words about another minion, or a group not read, stay unread."""
    assert ability_of("He cannot use cards requiring Celerity [cel].", "Al-Muntaquim, The Avenger").codes == ("cel",)
    navar = ability_of("Navar cannot block older vampires.", "Navar McClaren")
    assert navar.kind == "cannot block" and [g.kind for g in navar.groups] == ["older"]
    assert ability_of("Allonzo cannot block undirected actions.", "Allonzo Montoya").undirected
    assert ability_of("Damage from Basilia's hand strikes is aggravated.", "Basilia").kind == "aggravated hands"
    assert ability_of("Pedrag cannot commit diablerie.", "Pedrag Hasek").kind == "no diablerie"
    assert ability_of("+2 hunt.", "Anyone").amount == 2
    aidan = ability_of("Aidan gets 1 optional press each combat.", "Aidan Lyle")
    assert (aidan.kind, aidan.uses, aidan.first_round) == ("press", 1, False)
    assert ability_of("She gets an optional press each combat.", "Rocia").uses == 1
    anton = ability_of("Antón gets 1 optional maneuver during the first round of combat.", "Antón de Concepción")
    assert (anton.kind, anton.first_round) == ("maneuver", True)
    assert ability_of("Aiyana gets an optional press each combat when opposing a werewolf.", "Aiyana") is None
    fianna = ability_of("Allies cannot block Lord Fianna.", "Lord Fianna")  # about other minions blocking him
    assert fianna.kind == "unblockable by" and [g.kind for g in fianna.groups] == ["ally"]
    assert ability_of("Allies cannot block Carna.", "Lord Fianna") is None  # another vampire's name
    assert ability_of("Navar cannot block older vampires.", "Basilia") is None  # another vampire's name
    assert ability_of("Tariq cannot block vampires with a title he could contest.", "Tariq, The Silent") is None
    appius = text_of("Appius Claudius Corvus")
    assert appius.traits == ["black hand", "seraph"] and not appius.unread
    ilse = text_of("Ilse")  # "Torrance Circle: Sterile."
    assert "sterile" in ilse.traits and "circle (torrance)" in ilse.traits
    cardano = text_of("Cardano")  # "Camarilla Prince of Boston."
    assert not any("Prince of Boston" in s for s in cardano.unread)


def test_an_action_to_enter_combat_and_blood_burned_for_a_bonus_are_read_from_the_card():
    """"<X> can enter combat with <whom> as a (D) action" in either order, with whom it reaches; "burn N blood to get
    +N <stat>" with its scope and how often; another subject, or whom not read, stays unread."""
    dorka = ability_of("Dorka can enter combat with a minion controlled by your predator or prey as a (D) action.",
                       "Dorka")
    assert (dorka.kind, dorka.whose, [g.kind for g in dorka.groups]) == ("enter combat", "predator or prey", ["minion"])
    salinger = ability_of("As a (D) action, Salinger may enter combat with any ready Lasombra or Tzimisce controlled "
                          "by another Methuselah.", "Salinger")
    assert (salinger.state, [g.name for g in salinger.groups]) == ("ready", ["Lasombra", "Tzimisce"])
    ignazio = ability_of("Ignazio can enter combat with a vampire with capacity 6 or less controlled by your predator "
                         "or prey as a (D) action.", "Ignazio Giovanni")
    assert ignazio.groups[0].below == 7 and ignazio.target_words().startswith("vampire of capacity below 7")
    bakr = ability_of("Bakr can enter combat with a minion as a +1 stealth action that costs 1 blood.", "Bakr")
    assert (bakr.stealth, bakr.blood) == (1, 1)
    assert ability_of("Any Lasombra can enter combat with Giangaleazzo as a (D) action.", "Giangaleazzo") is None
    assert ability_of("Brunhilde can enter combat with a non-Anarch vampire as a (D) action.", "Brunhilde") is None
    chavi = ability_of("During an action, Chavi can burn 1 blood to get +1 stealth.", "Chavi Oraczko")
    assert (chavi.kind, chavi.stat, chavi.during, chavi.once, chavi.blood) == ("burn for", "stealth", "action", "", 1)
    aisha = ability_of("Once each turn, Aisha can burn 1 blood to get +1 intercept for the current action.", "Aisha")
    assert (aisha.stat, aisha.once) == ("intercept", "turn")
    assert ability_of("Once each action, Morrow may burn 2 blood to get +1 stealth.", "Morrow the Sage").blood == 2
    assert ability_of("During a bleed action, Legba can burn 1 blood to get +1 bleed.", "Papa Legba").during == "bleed"
    assert ability_of("During an action, Alex can burn 1 blood to get +1 intercept for the current action.",
                      "Alex Camille") is None  # "for the current action" goes with "once each turn" alone


def test_what_a_card_says_of_the_minions_blocking_its_vampire_is_read():
    """"<minions> cannot block <it>", "<minions> must burn N blood [or life] to attempt to block <it>", "<it> must burn
    N blood to attempt to block [<minions>]", "<minions> get +N intercept when attempting to block <it>"; capacity
    bounds read with the group; a printed "-1 intercept." and a circle heading before a sentence."""
    sha = ability_of("Vampires with capacity 3 or less cannot block Sha-Ennu.", "Sha-Ennu")
    assert (sha.kind, [(g.kind, g.below) for g in sha.groups]) == ("unblockable by", [("vampire", 4)])
    rexton = ability_of("Allies and vampires with capacity 3 or less cannot block Rexton.", "Rexton")
    assert [(g.kind, g.below) for g in rexton.groups] == [("ally", 0), ("vampire", 4)]  # the bound is the vampires'
    assert ability_of("Princes cannot block Ellison.", "Ellison Humboldt") is None  # a title, not a clan
    aisling = ability_of("Younger Tremere cannot block Aisling.", "Aisling Sturbridge")  # a clan, and younger
    assert [(g.kind, g.name, g.age) for g in aisling.groups] == [("clan", "Tremere", "younger")]
    assert ability_of("Younger Princes cannot block Aisling.", "Aisling Sturbridge") is None
    # a first word naming others is not the vampire: a sect, a clan
    assert ability_of("Anarch cannot perform political actions.", "Anarch Convert") is None
    assert ability_of("Giovanni cannot perform political actions.", "Giovanni del Georgio") is None
    ferox = ability_of("Younger vampires must burn 1 blood to attempt to block Ferox.", "Ferox, The Rock Lord")
    assert (ferox.kind, ferox.blood, ferox.itself, ferox.or_life) == ("block cost", 1, False, False)
    janet = ability_of("Janet must burn 1 blood to attempt to block.", "Janet Langer")
    assert (janet.kind, janet.itself, janet.groups) == ("block cost", True, ())
    jurgen = ability_of("Minions must burn 1 blood or life to attempt to block Jürgen.", "Jürgen, The Libertine")
    assert jurgen.or_life
    nik = ability_of("Brujah get +1 intercept when attempting to block Nik.", "Nik")
    assert (nik.kind, nik.amount, [g.name for g in nik.groups]) == ("blockers intercept", 1, ["Brujah"])
    assert ability_of("Brujah get +1 intercept when attempting to block Carna.", "Nik") is None
    antoinette = text_of("Antoinette Dubois")
    assert antoinette.bonus == {"intercept": -1} and [a.kind for a in antoinette.abilities] == ["unblockable by"]
    mark = text_of("Mark")  # "Torrance Circle: Mark gets +1 intercept when attempting to block a bleed action."
    assert "circle (torrance)" in mark.traits and mark.bonuses[0].kinds == frozenset({"bleed"})


def test_an_advanced_vampires_merged_lines_hold_only_once_merged(tmp_path):
    """"Advanced, <sect>:" is its heading; a "[MERGED]" line holds when the minion is `merged: true`, refused on a
    vampire that is not advanced, at its line."""
    lazarus = card_catalog().lookup("Lazarus (ADV)")
    unmerged = read_crypt_text(lazarus.text, lazarus.sect, lazarus.title, lazarus.name)
    merged = read_crypt_text(lazarus.text, lazarus.sect, lazarus.title, lazarus.name, merged=True)
    assert [a.kind for a in unmerged.abilities] == ["maneuver"] and not unmerged.unread
    assert [a.kind for a in merged.abilities] == ["maneuver", "press"] and merged.abilities[1].press_to == "continue"
    assert text_of("Theo Bell (ADV)").bonus == {"strength": 1}  # "Advanced, Independent: +1 strength."
    # merged, the base card's text applies too ("Lazarus may inflict 1R damage as a strike."), its heading giving way
    base = card_catalog().base_of(lazarus)
    both = read_crypt_text(lazarus.text, lazarus.sect, lazarus.title, lazarus.name, merged=True, base_text=base.text)
    assert [(a.kind, a.strike_kind, a.amount, a.ranged) for a in both.abilities][-1] == ("strike", "damage", 1, True)
    assert not both.unread
    melinda = card_catalog().lookup("Melinda Galbraith (ADV)")  # "[MERGED] Sabbat regent: +2 bleed.": a new title
    merged_melinda = read_crypt_text(melinda.text, melinda.sect, melinda.title, melinda.name, merged=True)
    assert "Sabbat regent: +2 bleed." in merged_melinda.unread and "bleed" not in merged_melinda.bonus
    bad = tmp_path / "merged.yaml"
    bad.write_text("title: t\nrules: current\nplayers: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: minion\nminions:\n"
                   "  - {name: Amadeo, controller: Sarah, blood: 3,\n     merged: true}\nevents:\n  - Amadeo hunts\n")
    with pytest.raises(sc.ScenarioError) as error:
        sc.parse(bad.read_text(), cards=card_catalog())
    assert error.value.line == 8 and "not an advanced vampire" in error.value.message


def test_a_vampire_that_cannot_commit_diablerie_blocking_a_leave_torpor_is_said_so_by_its_card(locator):
    """Pedrag Hasek's block of a vampire leaving torpor gives no diablerie chance, and the step quotes his card's
    sentence with the paragraph on crypt cards, not the Blood Cursed trait's."""
    result = sc.run(sc.load(ROOT / "crypt_ability_pedrag_hasek_blocks_a_leave_torpor.yaml", cards=card_catalog()),
                    C.CURRENT, locator)
    assert result.ok and result.stop is None
    step = next(s for s in result.steps if "attempt to leave torpor" in s.text)
    assert '"Pedrag cannot commit diablerie."' in step.text and "Blood Cursed" not in step.text
    assert any(i.startswith("vekn:crypt-cards") for i in sc.cite_ids(step.rules, C.CURRENT, locator))


def test_a_plain_bleed_refused_points_to_a_cards_own_bleed_only_when_that_bleed_would_reach(tmp_path, locator):
    """Julia Prima ("can bleed any Methuselah") bleeding Bob plainly: the refusal says to use her card's bleed;
    Rafaele ("can bleed your predator") bleeding a Methuselah who is not his predator: no such pointer, which would
    only be refused in turn; `stays_locked:` said of a vampire whose card does not keep it locked is refused."""
    def stop_of(minion: str, event: str, players: str = "[Sarah, Alexis, Bob]"):
        text = (f"title: t\nrules: current\nplayers: {players}\nturn: Sarah\nphase: minion\nminions:\n"
                f"  - {{name: {minion}, controller: Sarah, blood: 3}}\nevents:\n  - {event}\n")
        return sc.run(sc.parse(text, cards=card_catalog()), C.CURRENT, locator).stop
    assert "say 'Julia Prima bleeds Bob with its ability'" in stop_of("Julia Prima", "Julia Prima bleeds Bob").message
    rafaele = stop_of("Rafaele Giovanni", "Rafaele Giovanni bleeds Bob", "[Sarah, Alexis, Bob, Nora, Steve]")
    assert rafaele.kind == "refused" and "with its ability" not in rafaele.message
    with pytest.raises(sc.ScenarioError) as error:
        sc.parse("title: t\nrules: current\nplayers: [Sarah, Alexis]\nturn: Sarah\nphase: minion\nminions:\n"
                 "  - {name: Amadeo, controller: Sarah, blood: 3,\n     stays_locked: true}\nevents:\n  - Amadeo hunts\n",
                 cards=card_catalog())
    assert error.value.line == 8 and "stays_locked is for a vampire" in error.value.message
