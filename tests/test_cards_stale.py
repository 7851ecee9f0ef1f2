"""The editions' dates the staleness check reads (rules/manifest.yaml's in_force_from)."""
from __future__ import annotations

import pytest

from judge.ingest.manifest import load_manifest


def test_in_force_from_is_read_as_an_iso_date_and_a_wrong_one_is_reported(rules_copy):
    metas, errors = load_manifest(rules_copy)
    assert {m.id: m.in_force_from for m in metas}["vekn"] == "2020-11-30" and not errors
    manifest = rules_copy / "manifest.yaml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace("in_force_from: 2020-11-30",
                                                                     "in_force_from: last year"), encoding="utf-8")
    metas, errors = load_manifest(rules_copy)
    assert "vekn" not in {m.id for m in metas} and len(metas) == 4
    assert "in_force_from must be a date" in str(errors[0]) and "manifest.yaml" in str(errors[0])


# A ruling as the Rules Team wrote them before the Anarch change (the current book makes Anarch what
# a vampire is, where the older book said "Anarch is not a sect itself ... Independent"): it
# speaks of what changed, and is dated before the older book was in force, so surely before the
# change. krcg's rulings hold none such (docs/cards.md: the sample read), so it is added to a copy.
SECT_RULING = ("  - Anarch is not a sect, and an Anarch vampire counts as Independent for effects "
               "naming a sect. [LSJ 20030607]\n")


@pytest.fixture(scope="module")
def flaggable(corpus, tmp_path_factory):
    from judge.cards import build_cards
    from test_cards_broken import copy_data, edit
    folder = copy_data(tmp_path_factory.mktemp("stale"))
    line = edit(folder, "rulings.yaml", "100231|Body of Sun:\n", SECT_RULING + "100231|Body of Sun:\n")
    return folder, build_cards(corpus, folder=folder), line


def _sect_ruling(base):
    found = [r for r in base.rulings.values() if r.text.startswith("Anarch is not a sect, and an Anarch")]
    assert len(found) == 1
    return found[0]


def test_a_ruling_speaking_of_a_rule_whose_meaning_changed_after_it_is_flagged_with_both_texts(corpus, flaggable):
    from judge.cards.stale import StaleCheck
    _, base, line = flaggable
    ruling = _sect_ruling(base)
    assert ruling.line == line
    stale = StaleCheck(base, corpus).of(ruling.id)
    assert stale is not None and stale.date == "2003-06-07" and stale.edition == "rb"
    change = stale.changes[0]
    assert (change.rule, change.old, change.via) == ("vekn:vampire-sects/6", ["rb:10.5/1"], "template:anarch")
    assert change.keywords == ["anarch"] and "Anarch is not a sect" in change.changed[0][0]
    # the change dated by the older book still saying the old rule: in force from 2005-11-14
    assert stale.changed_after == corpus.documents["rb"].meta.in_force_from == "2005-11-14"
    for shown in ("vekn:vampire-sects/6", "rb:10.5/1", '"Anarch is not a sect', "template 'anarch'", "2003-06-07",
                  "2005-11-14"):
        assert shown in stale.note


def test_the_same_ruling_made_after_the_older_book_came_in_force_is_not_flagged(corpus, tmp_path):
    # 2008: the older book held "not a sect" from 2005, the current one from 2020: the change came
    # somewhere between, so the ruling may already follow the current rule (issue 35: a 2018 ruling
    # was read against the 2005 book)
    from judge.cards import build_cards
    from judge.cards.stale import StaleCheck
    from test_cards_broken import copy_data, edit
    folder = copy_data(tmp_path)
    edit(folder, "rulings.yaml", "100231|Body of Sun:\n", SECT_RULING.replace("LSJ 20030607", "LSJ 20080603")
         + "100231|Body of Sun:\n")
    base = build_cards(corpus, folder=folder)
    assert StaleCheck(base, corpus).of(_sect_ruling(base).id) is None


def test_a_ruling_using_a_changed_rule_for_something_else_is_not_flagged(corpus, flaggable):
    # Body Bag's own ruling (2003) uses the anarch template but says nothing of sects: no flag
    from judge.cards.stale import StaleCheck
    _, base, _ = flaggable
    body_bag = base.rulings["ruling:100229/lsj-20030607"]
    assert "anarch" in body_bag.uses and body_bag.text.startswith("Can be equipped by a non-Anarch")
    assert StaleCheck(base, corpus).of(body_bag.id) is None


def test_no_ruling_of_the_card_data_is_flagged_for_rewording_or_scan_damage(corpus):
    """The 34 rulings the date rule alone flags, all read (docs/cards.md): dodge and press reworded,
    "a each" -> "any", the scan's "combatp @nd combat", a leave-torpor sentence moved. None is
    outdated, and none is flagged."""
    from judge.cards import get_cards
    from judge.cards.stale import get_stale_check
    base = get_cards(corpus)
    check = get_stale_check(base, corpus)
    for rid in ("ruling:100066/lsj-20011210-2", "ruling:100423/rtr-20030519", "ruling:200501/rbk-gaining-votes",
                "ruling:101062/rbk-leave-torpor", "ruling:101139/rtr-19950509", "ruling:G00096/tom-19960521"):
        assert rid in base.rulings and check.of(rid) is None
    assert check.all() == {}


def test_the_cli_lists_a_flagged_ruling_and_says_why_when_none_is(runner, corpus, flaggable, monkeypatch):
    import json

    from judge.cli import cli
    result = runner.invoke(cli, ["rulings", "--stale"])
    assert result.exit_code == 1 and "0 rulings" in result.stderr and "rules change" in result.stderr
    folder, base, _ = flaggable
    monkeypatch.setenv("JUDGE_CARDS_DIR", str(folder))
    result = runner.invoke(cli, ["rulings", "--stale", "--json"])
    assert result.exit_code == 0, result.output
    listed = json.loads(result.stdout)
    assert [r["id"] for r in listed] == [_sect_ruling(base).id]
    stale = listed[0]["stale"]
    assert stale["changed_after"] == "2005-11-14" and stale["changes"][0]["rule"] == "vekn:vampire-sects/6"


def test_a_template_marked_broad_or_given_keywords_is_read(corpus, tmp_path):
    from judge.cards.templates import load_templates
    path = tmp_path / "t.yaml"
    path.write_text("templates:\n"
                    "  - {id: a, description: A, rules: [vekn:combat/1], patterns: ['\\bstrikes?\\b'], broad: yes-ish}\n"
                    "  - {id: b, description: B, rules: [vekn:combat/1], patterns: ['\\bcancel\\b'], keywords: [Cancel]}\n"
                    "  - {id: c, description: C, rules: [vekn:combat/1], patterns: ['[+-]\\d stealth'], broad: true}\n"
                    "  - {id: d, description: D, rules: [vekn:combat/1], patterns: ['[+-]\\d stealth']}\n",
                    encoding="utf-8")
    templates, problems = load_templates(path, corpus)
    kept = {t.id: t.kept().keywords for t in templates}
    assert kept == {"a": ["strike"], "b": ["cancel"], "c": [], "d": ["stealth"]}
    assert ["'broad' must be true or false" in p.message for p in problems] == [True]


def test_each_ruling_worked_out_alone_is_what_checking_them_all_says(corpus, flaggable):
    """A page asks for one ruling's staleness (`of`), before anything checked them all: the
    same answer, note included, as `all` gives; and no answer for a ruling not there."""
    from judge.cards.stale import StaleCheck
    _, base, _ = flaggable
    flagged = StaleCheck(base, corpus).all()
    alone = StaleCheck(base, corpus)
    assert {rid: alone.of(rid) for rid in base.rulings if alone.of(rid) is not None} == flagged
    assert list(flagged) == [_sect_ruling(base).id]
    assert alone.of("ruling:no-such") is None and len(alone.all()) == len(flagged)


def test_a_flag_is_the_shape_the_openapi_document_declares(corpus, flaggable, client):
    from judge.cards.stale import StaleCheck
    from web_pages import schema_validator
    _, base, _ = flaggable
    stale = StaleCheck(base, corpus).of(_sect_ruling(base).id)
    schema_validator(client, "Stale").validate(stale.to_json())
