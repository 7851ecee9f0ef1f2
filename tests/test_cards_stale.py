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
