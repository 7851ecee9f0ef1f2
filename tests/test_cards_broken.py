"""Broken card data, in a modified copy of krcg's files: each fault is reported with
its file, line and reason, and everything else loads. And ruling IDs survive
edits of the rulings' texts."""
from __future__ import annotations

import shutil

import pytest

from judge.cards import build_cards, source
from judge.cards.model import BROKEN


def copy_data(tmp_path):
    folder = tmp_path / "cards"
    folder.mkdir()
    for name in source.FILES:
        shutil.copy(source.default_folder() / name, folder / name)
    return folder


def edit(folder, name: str, old: str, new: str) -> int:
    """Replace `old` (once) by `new` in a data file; the line where it starts."""
    path = folder / name
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return text[: text.index(old)].count("\n") + 1


@pytest.fixture(scope="module")
def intact(corpus):
    return build_cards(corpus)


@pytest.fixture(scope="module")
def broken(corpus, tmp_path_factory):
    folder = copy_data(tmp_path_factory.mktemp("broken"))
    lines = {
        "unknown card": edit(folder, source.RULINGS_FILE, "  - Provides only one maneuver each combat, even if the bearer "
                             "changes.", "  - Provides only one maneuver each combat, even with {No Such Card Ever}."),
        "yaml": edit(folder, source.RULINGS_FILE, "Flesh:\n  - Cannot be played when burned as a result of a Blood Hunt",
                     "Flesh:\n  - Cannot be played: when burned: as a result of a Blood Hunt") + 1,
        "no url": edit(folder, source.REFERENCES_FILE, "ANK 20170105: https://www.vekn.net/forum/rules-questions/"
                       "75512-raptor-obedience#80020", "ANK 20170105:"),
        "rbk": edit(folder, source.REFERENCES_FILE, "RBK bleed: https://www.vekn.net/rulebook#bleed\n",
                    "RBK bleed: https://www.vekn.net/rulebook#no-such-anchor-here\n"),
        "csv": edit(folder, source.LIBRARY_FILE, '"100002","419 Operation","","Action","Osebo","","","","",""',
                    '"100002","419 Operation","","Action","Osebo","","","",""'),
    }
    return build_cards(corpus, folder=folder), lines


def problems_of(base, code: str):
    return [p for p in base.problems if p.code == code]


def test_a_ruling_naming_an_unknown_card(broken):
    base, lines = broken
    found = [p for p in problems_of(base, "unknown-card") if "No Such Card Ever" in p.message]
    assert [(p.file, p.line) for p in found] == [("rulings.yaml", lines["unknown card"])]
    assert "no card is named 'No Such Card Ever'" in found[0].message
    ruling = base.rulings[found[0].subject]
    assert ruling.owner == "card:100001" and ruling.cards == ["card:100001"]  # still loaded, on its card
    link = next(run for run in ruling.parts if run.kind == "card")
    assert (link.text, link.target) == ("No Such Card Ever", None)


def test_a_yaml_error_costs_only_its_entry(broken, intact):
    base, lines = broken
    [found] = problems_of(base, "yaml")
    assert (found.file, found.line) == ("rulings.yaml", lines["yaml"])
    assert "not valid YAML" in found.message and "100005|Abandoning the Flesh" in found.message
    lost = [r for r in intact.rulings.values() if r.owner == "card:100005"]
    assert len(lost) == 2
    assert len(base.rulings) == len(intact.rulings) - len(lost)
    assert not [r for r in base.rulings.values() if r.owner == "card:100005"]
    assert base.rulings.keys() | {r.id for r in lost} == intact.rulings.keys()


def test_a_reference_with_no_url(broken):
    base, lines = broken
    [found] = problems_of(base, "no-url")
    assert (found.file, found.line, found.subject) == ("references.yaml", lines["no url"], "ANK 20170105")
    assert "has no URL" in found.message
    ref = base.references["ANK 20170105"]
    assert ref.status == BROKEN and ref.url is None and ref.reason
    assert any("ANK 20170105" in r.references for r in base.rulings.values())  # its rulings still load


def test_a_rulebook_anchor_that_does_not_resolve(broken):
    base, lines = broken
    found = [p for p in problems_of(base, "rbk-unresolved") if p.subject == "RBK bleed"]
    assert [(p.file, p.line) for p in found] == [("references.yaml", lines["rbk"])]
    assert "no heading, labelled paragraph or glossary term anchored '#no-such-anchor-here'" in found[0].message
    ref = base.references["RBK bleed"]
    assert ref.status == BROKEN and ref.resolves_to is None and ref.reason in found[0].message


def test_a_malformed_csv_row(broken, intact):
    base, lines = broken
    [found] = problems_of(base, "csv-row")
    assert (found.file, found.line) == ("vteslib.csv", lines["csv"])
    assert "the row has 16 fields where the header has 17" in found.message
    assert "card:100002" not in base.cards
    assert len(base.cards) == len(intact.cards) - 1
    # the rulings filed under it still load, reported as naming no card
    orphan = [p for p in problems_of(base, "unknown-card") if "100002|419 Operation" in p.message]
    assert orphan and orphan[0].file == "rulings.yaml" and orphan[0].line > 0
    assert [r.cards for r in base.rulings.values() if r.owner == "card:100002"] == [[]]


def test_everything_else_loads(broken, intact):
    base, _ = broken
    new = {(p.file, p.code, p.message) for p in base.problems} - {(p.file, p.code, p.message) for p in intact.problems}
    assert len(new) == 6, new  # the five faults, and the rulings of the lost card
    assert all(p.file and p.line > 0 and p.message for p in base.problems)
    assert len(base.references) == len(intact.references) and len(base.groups) == len(intact.groups)
    assert base.counts()["rbk_resolved"] == intact.counts()["rbk_resolved"] - 1


def test_a_data_file_missing(corpus, tmp_path):
    folder = copy_data(tmp_path)
    (folder / source.GROUPS_FILE).unlink()
    base = build_cards(corpus, folder=folder)
    assert [(p.file, p.code) for p in base.problems if p.code == "unreadable"] == [("groups.yaml", "unreadable")]
    assert base.cards and base.rulings and not base.groups
    group_rulings = [r for r in base.rulings.values() if r.owner.startswith("group:")]
    assert group_rulings and all(r.cards == [] for r in group_rulings)
    assert any(p.code == "unknown-group" for p in base.problems)


def test_ruling_ids_survive_edits_of_their_text(corpus, tmp_path, monkeypatch, intact):
    folder = copy_data(tmp_path)
    edit(folder, source.RULINGS_FILE, "This is not a diablerie. Neither {Rebirth} nor",
         "This is no diablerie at all, and neither {Rebirth} nor")
    # two rulings of Agent of Power cite the same first reference: told apart by their order
    edit(folder, source.RULINGS_FILE, "  - Is unique and provides a discipline even when it was not played",
         "  - It is unique and gives a discipline even when not played")
    monkeypatch.setenv(source.ENV_VAR, str(folder))  # the loader pointed at the copy by the environment
    edited = build_cards(corpus)
    assert edited.rulings.keys() == intact.rulings.keys()
    changed = [i for i in intact.rulings if intact.rulings[i].text != edited.rulings[i].text]
    assert sorted(changed) == ["ruling:100004/lsj-20090724", "ruling:100025/lsj-20071001-1"]
    assert edited.rulings["ruling:100004/lsj-20090724"].text.startswith("This is no diablerie at all")
    assert intact.rulings["ruling:100025/lsj-20071001-1.2"].text.startswith("If used as a placeholder")
    assert edited.rulings["ruling:100025/lsj-20071001-1.2"].text == intact.rulings[
        "ruling:100025/lsj-20071001-1.2"].text


def test_the_web_answers_on_damaged_card_data_and_lint_rulings_says_what_is_wrong(corpus, tmp_path, monkeypatch):
    from click.testing import CliRunner

    from judge.cli import cli
    from judge.web.app import create_app
    folder = copy_data(tmp_path)
    unknown = edit(folder, source.RULINGS_FILE, "  - Provides only one maneuver each combat, even if the bearer "
                   "changes.", "  - Provides only one maneuver each combat, even with {No Such Card Ever}.")
    (folder / source.GROUPS_FILE).write_bytes(b"G00001|Temporary control:\n  \xff\xfe not UTF-8\n")
    monkeypatch.setenv(source.ENV_VAR, str(folder))
    client = create_app(corpus).test_client()
    for url in ("/card/Govern the Unaligned", "/card/govern-the-unaligned", "/card/.44 Magnum", "/cards", "/rulings",
                "/rulings/stale", "/p/vekn:resolve-any-block-attempts/2", "/api/card/govern-the-unaligned",
                "/api/rulings?limit=5", "/api/cards?limit=5"):
        r = client.get(url)
        assert r.status_code in (200, 302), url
        assert "Traceback" not in r.get_data(as_text=True)
    assert "No Such Card Ever" in client.get("/card/.44 Magnum", follow_redirects=True).get_data(as_text=True)
    out = CliRunner().invoke(cli, ["lint", "rulings"])
    assert "Traceback" not in out.output
    assert f"{source.RULINGS_FILE}:{unknown}" in out.output and "No Such Card Ever" in out.output
    assert source.GROUPS_FILE in out.output and "UTF-8" in out.output


def test_a_server_side_fault_on_a_card_page_is_a_logged_500(corpus, tmp_path, caplog):
    # The server's own card template damaged (a copy of templates/ with card.html cut short):
    # the visitor gets a 500 naming none of it, the log gets the fault; the rest still answers.
    from judge import paths
    from judge.web.app import create_app
    folder = tmp_path / "templates"
    shutil.copytree(paths.templates_dir(), folder)
    (folder / "card.html").write_text("{% extends 'base.html' %}{% block content %}{% for x in %}", encoding="utf-8")
    app = create_app(corpus)
    app.jinja_loader.searchpath = [str(folder)]
    client = app.test_client()
    with caplog.at_level("ERROR"):
        r = client.get("/card/govern-the-unaligned")
    assert r.status_code == 500
    body = r.get_data(as_text=True)
    assert "has been logged" in body and "card.html" not in body and "Traceback" not in body
    assert any("/card/govern-the-unaligned" in rec.getMessage() and rec.exc_info for rec in caplog.records)
    assert client.get("/api/card/govern-the-unaligned").status_code == 200
    assert client.get("/cards").status_code == 200
