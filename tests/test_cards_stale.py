"""The editions' dates the staleness check reads (rules/manifest.yaml's in_force_from)."""
from __future__ import annotations

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


def test_a_ruling_made_under_the_current_book_is_never_stale(corpus):
    from judge.cards import get_cards
    from judge.cards.stale import get_stale_check, ruling_date
    base = get_cards(corpus)
    check = get_stale_check(base, corpus)
    current = corpus.documents["vekn"].meta.in_force_from
    flagged = check.all()
    assert flagged
    for rid, stale in flagged.items():
        assert ruling_date(base, base.rulings[rid]) == stale.date < current
        assert stale.edition in ("rb", "s6") and stale.changes


def _flagged(corpus):
    from judge.cards import get_cards
    from judge.cards.stale import get_stale_check
    base = get_cards(corpus)
    return base, get_stale_check(base, corpus).all()


def test_the_anarch_sect_change_flags_a_ruling_with_both_paragraphs_and_the_words(corpus):
    # The older book: "Anarch is not a sect itself"; the current one makes Anarch a sect.
    base, flagged = _flagged(corpus)
    stale = flagged["ruling:G00037/lsj-20080603"]  # "Counts as requiring an Anarch"
    change = stale.changes[0]
    assert (change.rule, change.old, change.via) == ("vekn:vampire-sects/6", ["rb:10.5/1"], "template:anarch")
    assert change.keywords == ["anarch"] and "Anarch is not a sect" in change.changed[0][0]
    for shown in ("vekn:vampire-sects/6", "rb:10.5/1", '"Anarch is not a sect', "template 'anarch'", "2008-06-03"):
        assert shown in stale.note


def test_a_flag_needs_a_cited_paragraph_or_a_specific_template_whose_words_changed(corpus):
    base, flagged = _flagged(corpus)
    assert 0 < len(flagged) <= len(base.rulings) // 10  # a list an editor can read, not half the rulings
    for stale in flagged.values():
        for change in stale.changes:
            assert change.changed and change.signals
            if change.via == "cites":
                continue
            template = base.templates[change.via.split(":", 1)[1]]
            assert template.keywords, f"{stale.ruling}: {template.id} is a card kind, field or broad template"
            assert any(k in f"{old} {new}".lower() for old, new in change.changed for k in change.keywords)
    # card kinds and broad templates never flag: "every Equipment", locking, "during X"
    assert not {t for s in flagged.values() for c in s.changes for t in [c.via.split(":", 1)[-1]]} & \
        {"equipment", "ally", "vampire", "locking", "during-x-do-y", "requirement-in-text"}


def test_a_sentence_the_current_book_moved_is_no_change(corpus):
    # s6 "The equip action has a default +1 stealth" -> current "There is no limit to the number
    # of equipment cards": both sentences are in the other edition, elsewhere (a reorganisation)
    base, flagged = _flagged(corpus)
    assert "equip" in base.rulings["ruling:100323/rtr-19950509"].uses
    assert "ruling:100323/rtr-19950509" not in flagged
    assert not any(c.rule == "vekn:equip/2" for s in flagged.values() for c in s.changes)


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


def test_each_ruling_worked_out_alone_is_what_checking_them_all_says(corpus):
    """A page asks for one ruling's staleness (`of`), before anything checked them all: the
    same answer, note included, as `all` gives; and no answer for a ruling not there."""
    from judge.cards import get_cards
    from judge.cards.stale import StaleCheck
    base = get_cards(corpus)
    flagged = StaleCheck(base, corpus).all()
    alone = StaleCheck(base, corpus)
    assert {rid: alone.of(rid) for rid in base.rulings if alone.of(rid) is not None} == flagged
    assert {s.edition for s in flagged.values()} == {"rb", "s6"}  # both older editions stood on
    assert alone.of("ruling:no-such") is None and len(alone.all()) == len(flagged)
