"""The Rivals engine (judge/engine/rivals/, docs/rivals.md): every Rivals scenario replays and meets its
expectations, the book's worked examples are all there, every rule's citation resolves to the one paragraph
holding its quote, every step cites Rivals paragraphs, random play keeps the book's invariants, and the
command line and the web say which game a scenario is in."""
from __future__ import annotations

import json
import random
import re
from collections import Counter
from pathlib import Path

import jsonschema
import pytest
import yaml
from click.testing import CliRunner

from judge.engine import citations as C
from judge.engine import scenario as sc
from judge.engine import trace
from judge.engine.errors import ScenarioError
from judge.engine.rivals import play, randomplay
from judge.engine.rivals import rules as R
from judge.engine.rivals import scenario as rsc

ROOT = Path(__file__).resolve().parents[1]
FOLDER = ROOT / "scenarios" / "rivals"
FILES = sorted(FOLDER.rglob("*.yaml"))
EXAMPLE = (FOLDER / "examples" / "keeper_of_elysium_title.yaml").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def locator(corpus):
    return C.CiteLocator(corpus)


@pytest.mark.parametrize("path", FILES, ids=[str(p.relative_to(FOLDER)) for p in FILES])
def test_rivals_scenario_passes(path, locator):
    scenario = sc.load(path)
    assert scenario.game == C.RIVALS
    result = sc.run(scenario, locator=locator)
    assert result.ok, trace.run_text(result, locator)
    assert result.checks, f"{path.name} has no expectations: a scenario is also a test"


def test_every_rivals_stop_quotes_first_the_sentence_that_decides_it(locator):
    """Issue 37: a refusal's first quote is the paragraph its scenario names first under `cites:` (the rule
    that decides, never a paragraph of context before it)."""
    checked = 0
    for path in FILES:
        expect = yaml.safe_load(path.read_text(encoding="utf-8")).get("expect") or {}
        spec = expect.get("refused") or expect.get("not_modelled")
        if not isinstance(spec, dict) or not spec.get("cites"):
            continue
        result = sc.run(sc.load(path), locator=locator)
        quotes = trace.quotes_json(result.stop.rules, result.edition, locator)
        assert quotes and quotes[0]["id"] == spec["cites"][0], (path.name, [q["id"] for q in quotes])
        checked += 1
    assert checked >= 50


def test_the_worked_examples_of_the_rivals_book_are_scenarios():
    names = {p.stem for p in (FOLDER / "examples").glob("*.yaml")}
    assert {"typical_attack_muhammad_hydra", "skunk_lixue_attack_sequence", "free_money_scheme",
            "keeper_of_elysium_title", "lost_glory_conspiracy", "rare_end_of_game_tiebreak",
            "setup_four_players"} <= names


def test_at_least_60_rivals_scenarios_with_15_illegal_moves_refused_with_their_citation(locator):
    assert len(FILES) >= 60
    refused = []
    for path in FILES:
        expect = yaml.safe_load(path.read_text())["expect"]
        spec = expect.get("refused")
        if isinstance(spec, dict) and spec.get("cites"):
            result = sc.run(sc.load(path), locator=locator)
            assert result.stop is not None and result.stop.kind == "refused", path.name
            refused.append(path.name)
    assert len(refused) >= 15, refused


def test_every_rivals_rule_cites_exactly_one_paragraph_holding_its_quote(corpus):
    assert len(R.RULES) > 80
    for rule in R.RULES:
        assert rule.book, rule.name
        for cite in rule.book:
            pid = C.locate(cite, corpus)  # CiteError when none or several hold it
            assert pid.startswith("rivals:"), (rule.name, pid)
            assert C.normalize(cite.quote) in C.normalize(corpus.paragraphs[pid].text), (rule.name, pid)


def test_every_step_and_stop_cites_rivals_paragraphs_that_resolve(locator):
    for path in FILES:
        result = sc.run(sc.load(path), locator=locator)
        for step in result.steps:
            assert step.rules, (path.name, step.text)
            for rule in step.rules:
                for cite in rule.cites(C.RIVALS):
                    assert locator.id(cite) is not None and locator.id(cite).startswith("rivals:"), (path.name, cite)
        if result.stop is not None:
            assert result.stop.rules and all(locator.id(c) for r in result.stop.rules for c in r.cites(C.RIVALS))


def test_the_worked_examples_end_as_the_book_says(locator):
    def final(stem):
        return sc.run(sc.load(FOLDER / "examples" / f"{stem}.yaml"), locator=locator)

    skunk = final("skunk_lixue_attack_sequence")
    assert skunk.state.vampires["Lixue Chen"].blood == 4  # "leaving her at 4"
    texts = " ".join(s.text for s in skunk.steps)
    assert "4 Physical damage toward Lixue Chen" in texts and "protect Bella Forte only" in texts
    money = final("free_money_scheme")
    assert "7 for YES, 7 for NO" in " ".join(s.text for s in money.steps)
    tie = final("rare_end_of_game_tiebreak")
    assert tie.state.result.winner == "Player 4" and any(R.TIEBREAKERS in s.rules for s in tie.steps)


def test_rivals_scenarios_validate_against_the_published_rivals_schema():
    schema = json.loads(rsc.SCHEMA_PATH.read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    for path in FILES:
        errors = list(validator.iter_errors(yaml.safe_load(path.read_text())))
        assert not errors, (path.name, errors[0].message)


def test_every_event_kind_has_its_handler_and_its_structured_form():
    assert set(play.HANDLERS) == set(rsc.forms())
    for stage, kinds in play.ADMITS.items():
        assert kinds <= set(play.HANDLERS), stage
    for form in rsc.forms().values():  # each form's example is itself a valid event of that form
        example = yaml.safe_load(form["examples"][0])
        assert not list(jsonschema.Draft202012Validator(dict(form, **{"$defs": rsc.schema()["$defs"]}))
                        .iter_errors(example)), example


# -- malformed and mismatched ----------------------------------------------------------------------
@pytest.mark.parametrize("text, line, words", [
    ("game: chess\nplayers: [A, B]\nturn: A\nphase: action\nevents: []\n", 1, "unknown game 'chess'"),
    ("players: [A, B]\ngame: {rivals: 1}\nevents: []\n", 2, "game: expected a name"),  # not looked up: no crash
    ("players: [A, B]\ngame: [rivals]\nevents: []\n", 2, "got a list"),
    ("game: rivals\nplayers: [A, B]\nvampires:\n  - {name: X, controller: A, bp: 3}\n"
     "  - {name: Y, controller: B, bp: 3}\nevents:\n  - {attack: X, target: Z, type: physical}\n", 7,
     "unknown name 'Z'"),
    ("game: rivals\nplayers: [A, B]\nvampires:\n  - {name: X, controller: A, bp: 3}\n"
     "  - {name: Y, controller: B, bp: 3}\nevents:\n  - {attack: X, target: Y, type: psychic}\n", 7,
     "'attack' event: type"),
    ("game: rivals\nplayers: [A, B]\nvampires:\n  - {name: X, controller: A, bp: 3, blood: 5}\n"
     "  - {name: Y, controller: B, bp: 3}\nevents: []\n", 4, "from 0 to its Blood Potency"),
    ("game: rivals\nplayers: [A, B]\nvampires:\n  - {name: X, controller: A, bp: 3}\n"
     "  - {name: Y, controller: B, bp: 3}\nevents:\n  - X bleeds B\n", 7, "cannot read the event"),
    ("game: rivals\nplayers: [A, B]\nvampires:\n  - {name: X, controller: A, bp: 3}\n"
     "  - {name: Y, controller: B, bp: 3}\nevents: []\nexpect:\n  prestige.C: 3\n", 8, "unknown player 'C'"),
])
def test_a_malformed_rivals_scenario_names_its_line(text, line, words):
    with pytest.raises(ScenarioError) as info:
        sc.parse(text)
    assert info.value.line == line and words in info.value.message, (info.value.line, info.value.message)


def test_a_scenario_is_replayed_only_under_its_own_games_rules():
    rivals = sc.parse(EXAMPLE)
    with pytest.raises(ScenarioError, match="is a Rivals scenario"):
        sc.run(rivals, "current")
    vtes = sc.load(ROOT / "scenarios" / "examples" / "krid_pug.yaml")
    with pytest.raises(ScenarioError, match="is a V:TES scenario"):
        sc.run(vtes, "rivals")


# -- random play ------------------------------------------------------------------------------------------------
def test_thousands_of_random_rivals_games_keep_the_books_invariants():
    reports = randomplay.play_many(2000, seed=2024, max_events=40)
    violations = [v for r in reports for v in r.violations]
    assert not violations, violations[:10]
    assert sum(r.events for r in reports) > 50_000
    endings = Counter(r.ended_by for r in reports)
    assert endings["game over"] > 200 and endings["limit"] > 200, endings
    totals = {k: sum(getattr(r, k) for r in reports) for k in ("attacks", "torpor", "knockouts", "schemes")}
    assert totals["attacks"] > 1000 and totals["torpor"] > 100 and totals["knockouts"] > 100, totals
    assert totals["schemes"] > 500, totals


def test_random_rivals_play_is_deterministic():
    a = [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(20, seed=5)]
    assert a == [(r.events, r.refused, r.ended_by) for r in randomplay.play_many(20, seed=5)]


def test_the_invariants_catch_a_broken_table():
    st = randomplay.random_table(random.Random(1))
    assert randomplay.violations(st) == []
    v = next(iter(st.vampires.values()))
    v.blood = v.bp + 1
    assert any("Blood Potency" in x for x in randomplay.violations(st))
    v.blood = v.bp
    p = st.players[st.seating[0]]
    p.knocked_out, p.agenda = True, 3
    assert any("knocked out with 3 Agenda" in x for x in randomplay.violations(st))
    p.knocked_out, p.agenda = False, 0
    st.result.winner = st.seating[0]
    assert any("winner before the game is over" in x for x in randomplay.violations(st))


# -- the command line and the web say which game --------------------------------------------------------------------
def test_judge_check_says_the_game():
    from judge.commands.check import check

    path = str(FOLDER / "examples" / "keeper_of_elysium_title.yaml")
    out = CliRunner().invoke(check, [path])
    assert out.exit_code == 0, out.output
    assert "Vampire: The Masquerade – Rivals, rules: rivals" in out.output
    assert "rivals:example-of-playing-a-title/1" not in out.output  # it cites the rules, not the example
    assert "rivals:titles/2" in out.output
    obj = json.loads(CliRunner().invoke(check, [path, "--json"]).output)
    assert obj["game"] == "rivals" and obj["rules"] == "rivals" and obj["ok"] is True
    assert obj["state"]["vampires"]["Velvet"]["title"] == "Keeper of Elysium"
    compared = CliRunner().invoke(check, [path, "--compare", "current,older"])
    assert compared.exit_code == 0 and "a Rivals scenario, replayed under its own rules" in compared.output
    assert "rules: rivals" in compared.output and "comparing" not in compared.output


def test_the_check_page_and_api_take_a_rivals_scenario():
    from judge.web.app import create_app

    client = create_app().test_client()
    answer = client.post("/api/check", data=EXAMPLE.encode(), content_type="text/yaml")
    assert answer.status_code == 200, answer.get_data(as_text=True)
    assert answer.json["game"] == "rivals" and answer.json["ok"] is True
    assert any(c.startswith("rivals:titles/") for s in answer.json["steps"] for c in s["cites"])
    wrong = client.post("/api/check?rules=current", data=EXAMPLE.encode(), content_type="text/yaml")
    assert wrong.status_code == 400 and "Rivals scenario" in wrong.json["error"]
    page = client.post("/check", data={"scenario": EXAMPLE, "rules": "file"})
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert "Replay of a Rivals scenario" in html and "Keeper of Elysium" in html
    spec = client.get("/api/openapi.json").json
    body = spec["paths"]["/api/check"]["post"]["requestBody"]["content"]["application/json"]["schema"]
    assert {"$ref": "#/components/schemas/RivalsScenario"} in body["oneOf"]
    assert "RivalsScenario_event_attack" in spec["components"]["schemas"]


# -- docs/rivals.md: its examples are tested ------------------------------------------------------------------------
DOC = (ROOT / "docs" / "rivals.md").read_text(encoding="utf-8")


def _table_rows(heading: str) -> list[list[str]]:
    """The rows of the tables under `heading` (up to the next heading of the same or a higher level)."""
    level = heading.split()[0]
    part = DOC.split(heading + "\n", 1)[1]
    part = re.split(rf"\n#{{1,{len(level)}}} ", part, maxsplit=1)[0]
    return [[c.strip() for c in line.strip().strip("|").split("|")] for line in part.splitlines()
            if line.startswith("|") and not line.startswith("|---")][1:]


def _code(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_the_docs_example_scenario_replays_as_shown(locator):
    block = DOC.split("```yaml\n", 1)[1].split("```", 1)[0]
    result = sc.run(sc.parse(block, "scenario.yaml"), locator=locator)
    assert result.ok, trace.run_text(result, locator)
    text = trace.run_text(result, locator)
    shown = DOC.split("```\n$ judge check scenario.yaml\n", 1)[1].split("```", 1)[0]
    for line in shown.splitlines():
        if line.strip() and line.strip() != "...":
            assert line in text, line


def test_every_documented_sentence_reads_as_the_structured_event_beside_it():
    rows = _table_rows("### Sentences")
    assert len(rows) >= 10
    for sentences, structured in rows:
        (form,) = _code(structured)
        expected = yaml.safe_load(form)
        kind = next(iter(expected))
        for sentence in _code(sentences):
            event = rsc.parse_sentence(sentence)
            assert event.kind == kind, (sentence, event.kind)
            if kind in ("block", "claim_prince", "mend", "turn", "draw_action"):  # the name each one says
                assert event.args[kind] == expected[kind], sentence


def test_every_structured_form_is_documented_with_a_valid_example():
    documented = {}
    for heading in ("### The turn", "### Actions and the Action Phase", "### Attacks",
                    "### Influence: Schemes, Titles, Conspiracies", "### The End Phase", "### Card text"):
        for row in _table_rows(heading):
            for form in _code(row[-1]):
                data = yaml.safe_load(form)
                documented.setdefault(next(iter(data)), []).append(data)
    assert set(documented) == set(rsc.forms()), set(documented) ^ set(rsc.forms())
    for key, examples in documented.items():
        validator = jsonschema.Draft202012Validator(dict(rsc.forms()[key], **{"$defs": rsc.schema()["$defs"]}))
        for data in examples:
            assert not list(validator.iter_errors(data)), data


def test_a_structured_event_is_read_by_the_key_naming_its_form_wherever_it_stands(locator):
    """Both games check a structured event the same way (judge/engine/validation.py): its form is the key that
    names one, not the first key written; a mapping naming no form is refused with the forms listed."""
    text = (FOLDER / "examples" / "rare_end_of_game_tiebreak.yaml").read_text(encoding="utf-8")
    written = "{attack: Brute, target: Last Stand, type: physical"
    assert written in text
    reordered = sc.parse(text.replace(written, "{target: Last Stand, type: physical, attack: Brute"))
    original = sc.parse(text)
    assert [(e.kind, e.args) for e in reordered.events] == [(e.kind, e.args) for e in original.events]
    assert sc.run(reordered, locator=locator).ok
    with pytest.raises(ScenarioError, match=r"a structured event needs one of the keys .*attack.*; found target, "
                                            r"type") as caught:
        sc.parse(text.replace(written + ", on_defeat: {agenda: {Player 1: 1}}", "{target: Last Stand, type: physical"))
    assert caught.value.line == next(n for n, line in enumerate(text.splitlines(), 1) if written in line)


@pytest.mark.parametrize("stop, words", [
    ("refused: 5", "expect.refused is true, a fragment of the message, or {event, message, cites}"),
    ("refused: {foo: 1}", "expect.refused: unknown key 'foo'"),
    ("refused: {message: 5}", "expect.refused.message is a fragment of the message (text)"),
    ("not_modelled: {event: 99}", "expect.not_modelled.event is the number of the event"),
    ("refused: {cites: 5}", "such as rivals:action-attack/1"),
    ("refused: {cites: ['vekn:bleed/3']}", "'vekn:bleed/3' is not from the Rivals book"),
])
def test_a_rivals_expected_stop_that_could_never_be_met_is_malformed_at_its_line(stop, words):
    """Rivals scenarios read their expected stops with the shared check (judge/engine/expect.py `read_stop`)."""
    text = EXAMPLE.split("expect:")[0] + f"expect:\n  {stop}\n"
    with pytest.raises(ScenarioError) as caught:
        sc.parse(text)
    assert words in caught.value.message and caught.value.line == len(text.splitlines())


def test_a_misspelt_key_of_a_form_that_holds_another_form_key_is_named():
    """{scheme: ..., effect: ..., carf: ...}: "effect" names a form too, but the scheme form holds it, so the
    misspelt key is the scheme event's error, at its line, not "write two events"."""
    text = (FOLDER / "examples" / "free_money_scheme.yaml").read_text(encoding="utf-8")
    event = "  - {scheme: Cassius, card: Free Money, effect: {prestige: {each: 3}}}"
    assert event in text
    with pytest.raises(ScenarioError, match=r"a 'scheme' event: unknown key 'carf'") as caught:
        sc.parse(text.replace(event, event[:-1] + ", carf: typo}"))
    assert caught.value.line == text.splitlines().index(event) + 1


def test_every_table_key_is_documented():
    documented = {k for row in _table_rows("## The table") for k in _code(row[0])}  # its three tables
    assert set(rsc.schema()["properties"]) <= documented, set(rsc.schema()["properties"]) - documented
    assert set(rsc.schema()["$defs"]["vampire"]["properties"]) <= documented
    player = rsc.schema()["$defs"]["player"]["oneOf"][1]["properties"]
    assert set(player) <= documented, set(player) - documented
    expectations = DOC.split("## Expectations", 1)[1].split("\n## ", 1)[0]
    for key in rsc.PLAYER_KEYS:
        assert f"`{key}.P`" in expectations, key
    for key in rsc.VAMPIRE_KEYS:
        assert f"`{key}.V`" in expectations, key
    for key in rsc.SCALARS:
        assert f"`{key}`" in expectations, key
