"""`judge card`, `judge rulings`, `judge lint rulings` and `judge search`'s card answer, on
the real data through the CLI (the JSON contract of docs/cli.md)."""
from __future__ import annotations

import json
import random
import shutil

import pytest

from judge.cards import get_cards, source
from judge.cli import cli


def run_json(runner, *args):
    result = runner.invoke(cli, [*args, "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


@pytest.fixture(scope="module")
def base(corpus):
    return get_cards(corpus)


def test_card_json_contract(runner):
    data = run_json(runner, "card", "Govern the Unaligned")
    assert data["id"] == "card:100845" and data["types"] == ["Action"]
    assert "+1 stealth" in data["text"] and [d["code"] for d in data["disciplines"]] == ["dom"]
    assert data["rulings"] and all({"id", "text", "cards", "references", "stale"} <= set(r) for r in data["rulings"])
    templates = {u["template"]: [r["id"] for r in u["rules"]] for u in data["rules"]}
    assert "vekn:stealth-and-intercept/3" in templates["stealth"]  # "+1 stealth": the stealth/intercept rule


def test_a_misspelt_or_accentless_name_finds_the_card(runner):
    assert run_json(runner, "card", "govrn the unalined")["id"] == "card:100845"
    assert run_json(runner, "card", "rotschreck")["name"] == "Rötschreck"


def test_an_unknown_card_is_a_clear_error_with_the_closest_names(runner):
    result = runner.invoke(cli, ["card", "Qwertyuiop Zxcvbnm"])
    assert result.exit_code == 1 and "no card" in result.output and "Traceback" not in result.output


def test_master_out_of_turn_card_lists_the_out_of_turn_master_rule(runner, base):
    card = next(c for c in base.cards.values() if "Master: out-of-turn" in c.text)
    data = run_json(runner, "card", card.id)
    rules = {r["id"] for u in data["rules"] for r in u["rules"]}
    assert "vekn:master-phase/7" in rules, (card.name, rules)


def test_rulings_json_contract_and_references(runner):
    data = run_json(runner, "rulings", "--cites", "RBK who-may-attempt-to-block")
    assert data and all("RBK who-may-attempt-to-block" in [ref["id"] for ref in r["references"]] for r in data)
    ref = next(ref for ref in data[0]["references"] if ref["id"] == "RBK who-may-attempt-to-block")
    assert ref["resolves_to"] == "vekn:resolve-any-block-attempts/2" and ref["url"].startswith("https://")
    assert {"id", "date", "url", "resolves_to", "reason"} <= set(ref)


def test_counts_all_cards_and_rulings_load(runner):
    counts = run_json(runner, "rulings", "--counts")
    import csv
    rows = sum(len(list(csv.reader((source.default_folder() / f).open(encoding="utf-8-sig")))) - 1
               for f in (source.CRYPT_FILE, source.LIBRARY_FILE))
    assert counts["cards"] == rows  # every row of both lists
    assert counts["rulings"] > 2200 and counts["rbk_resolved"] / counts["rbk_references"] >= 0.95


def test_a_recent_ruling_is_never_stale(runner, corpus):
    current = corpus.documents["vekn"].meta.in_force_from
    recent = [r for r in run_json(runner, "rulings") if r["date"] and r["date"] >= current]
    assert recent and all(r["stale"] is None for r in recent)


def test_a_random_sample_of_cards_each_relies_on_a_rule(base):
    sample = random.Random(22).sample(sorted(base.cards), 50)
    assert all(base.cards[c].rules and any(base.rules_of(u) for u in base.cards[c].rules) for c in sample)


def test_lint_rulings_lists_every_problem_with_file_and_line(runner, tmp_path, monkeypatch, corpus):
    folder = tmp_path / "cards"
    shutil.copytree(source.default_folder(), folder, ignore=shutil.ignore_patterns("*.py", "__pycache__"))
    refs = folder / source.REFERENCES_FILE
    text = refs.read_text(encoding="utf-8")
    refs.write_text(text.replace("ANK 20170105: https://www.vekn.net/forum/rules-questions/75512-raptor-obedience"
                                 "#80020", "ANK 20170105:"), encoding="utf-8")
    rulings = folder / source.RULINGS_FILE
    rulings.write_text(rulings.read_text(encoding="utf-8") + "\n: [unclosed\n", encoding="utf-8")
    monkeypatch.setenv("JUDGE_CARDS_DIR", str(folder))
    monkeypatch.setenv("JUDGE_INDEX_DIR", str(tmp_path / "index"))
    result = runner.invoke(cli, ["lint", "rulings"])
    assert result.exit_code == 0 and "Traceback" not in result.output
    assert "references.yaml:" in result.output and "no-url" in result.output
    assert "rulings.yaml:" in result.output and "yaml" in result.output
    assert run_json(runner, "card", "Govern the Unaligned")["id"] == "card:100845"  # the rest loads


def test_search_prints_the_card_first_and_adds_cards_to_json(runner):
    result = runner.invoke(cli, ["search", "govrn the unalined"])
    assert result.stdout.splitlines()[0].startswith("card: Govern the Unaligned")
    data = run_json(runner, "search", "Govern the Unaligned rulings")
    assert data["cards"]["cards"][0]["id"] == "card:100845" and data["cards"]["rulings"]
    assert run_json(runner, "search", "who may block an action")["cards"]["cards"] == []


def test_judge_docs_prints_the_card_counts(runner):
    counts = run_json(runner, "rulings", "--counts")
    out = runner.invoke(cli, ["docs"])
    assert out.exit_code == 0
    line = out.stdout.splitlines()[-1]
    assert line.startswith("cards ")
    for shown in (f"{counts['cards']:,} cards", f"{counts['crypt']:,} crypt", f"{counts['library']:,} library",
                  f"{counts['rulings']:,} rulings", f"{counts['references']:,} references",
                  f"RBK resolved {counts['rbk_resolved']}/{counts['rbk_references']}"):
        assert shown in line
    docs_json = json.loads(runner.invoke(cli, ["docs", "--json"]).stdout)
    assert all("cards" not in d for d in docs_json)  # the documents' shape (the API's /api/docs) is unchanged


def test_search_in_looks_where_the_web_facet_and_the_api_do(runner, client):
    """`judge search --in` is /api/search's `in=`: the same hits, cards and rulings for each choice,
    told in `in`; an unknown choice is a usage error, and finding nothing where it looked exits 1."""
    query = "Govern the Unaligned"
    for chosen in (["rules"], ["cards"], ["rulings"], ["cards", "rulings"]):
        data = run_json(runner, "search", query, "--in", ",".join(chosen))
        api = client.get("/api/search", query_string={"q": query, "in": chosen}).json
        assert data["in"] == api["in"] == chosen
        assert [h["id"] for h in data["hits"]] == [h["id"] for h in api["hits"]]
        assert data["total"] == api["total"] and data["cards"] == api["cards"]
        assert any(h["kind"] != "ruling" for h in data["hits"]) == ("rules" in chosen)
        assert any(h["kind"] == "ruling" for h in data["hits"]) == ("rulings" in chosen)
        assert (data["cards"] is None) == (chosen == ["rules"])
    assert run_json(runner, "search", query, "--in", "rulings")["cards"]["rulings"]  # rulings without asking
    assert run_json(runner, "search", query, "--in", "cards")["cards"]["rulings"] == []
    text = runner.invoke(cli, ["search", "govrn the unalined", "--in", "cards"])
    assert text.exit_code == 0 and text.stdout.splitlines() == [
        "card: Govern the Unaligned  [card:100845]  Action  (closest name)"]
    assert runner.invoke(cli, ["search", "who may block an action", "--in", "cards"]).exit_code == 1
    bad = runner.invoke(cli, ["search", query, "--in", "everything"])
    assert bad.exit_code == 2 and "known: rules, cards, rulings" in bad.output
