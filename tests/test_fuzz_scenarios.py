"""Property-based fuzzing of scenarios (hypothesis) through judge's public entry points: `judge check` (click's
CliRunner), /api/check and /check (Flask's test client).

Two kinds of input: scenarios built from the engine's own forms at a table whose players and minions are the ones
the forms' examples name (so that sentences, structured events and expectations name real players and minions
and the replay goes past the reading), and the files of scenarios/ with a few random edits. Whatever the text:
no traceback and no 500; the CLI and the API give the same verdict in judge's words; every refusal says what and
where (a line, or the limit) and every API answer is as the OpenAPI document declares it. Each test is bounded
by its number of examples (a few seconds each on the 2-core CI machine).
"""
from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from judge.engine.vtes import expect as X
from judge.commands.check import check
from judge.engine.vtes.forms import NUM, PRON
from judge.engine.vtes.grammar import STRUCTURED, WORDING
from judge.engine.limits import DEFAULT as DEFAULT_LIMITS
from judge.engine.vtes.scenario import SCHEMA
from judge.web.app import create_app

ROOT = Path(__file__).resolve().parents[1]
FILES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "scenarios").rglob("*.yaml"))]  # both games
VTES_FILES = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "scenarios").rglob("*.yaml"))
              if "rivals" not in p.relative_to(ROOT / "scenarios").parts]  # what V:TES events are spliced into
# The names the examples of the sentence and structured forms use (judge.engine.vtes.grammar): at a table of these,
# every example names someone who is there.
PLAYERS = ["Sarah", "Alexis", "Bob", "Steve", "Nora"]
MINIONS = ["Belinde", "Carna", "Lucinde", "Ira", "The Dowager", "Krid", "Quentin", "Eugenio", "Alexa Draper",
           "Sybren van Oosten", "Ayelech", "Colette", "Wauneka", "Flávio Gonçalves", "Chrysanthemum", "Ryan"]
CARDS = ["Blood Doll", ".44 Magnum", "Raven", "Computer Hacking", "Parity Shift", "Confusion", "Skin of Marble",
         "Roundhouse", "Bum's Rush", "Kine Resources Contested", "Voter Captivation", "Underbridge Stray", "Tariq"]
STATUSES = {200, 400, 413, 422}
NO_WALL_TIME = 120  # seconds: see `entry_points`
EXAMPLES = dict(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                         HealthCheck.data_too_large])

# -- the scenarios built from the engine's forms ---------------------------------------------------------------
names = st.sampled_from(PLAYERS + MINIONS)
small = st.one_of([st.integers(0, 12)] * 4 + [st.integers(-1_100, 1_100)])  # mostly plausible, sometimes not
text = st.sampled_from(CARDS) | st.text(st.characters(codec="utf-8", exclude_categories=("Cs",)), max_size=12)


def from_schema(sub: dict, who: st.SearchStrategy = names) -> st.SearchStrategy:
    """Values of a fragment of the scenario's schema, with the names `who` draws where it asks for a name."""
    ref = sub.get("$ref", "")
    if ref == "#/$defs/name":
        return who
    if ref in ("#/$defs/text", "#/$defs/eventText"):
        return text
    if ref:
        return from_schema(SCHEMA.document["$defs"][ref.rsplit("/", 1)[1]], who)
    if "const" in sub:
        return st.just(sub["const"])
    if "enum" in sub:
        return st.sampled_from(sub["enum"])
    for key in ("anyOf", "oneOf"):
        if key in sub:
            return st.one_of([from_schema(s, who) for s in sub[key]])
    kind = sub.get("type")
    if isinstance(kind, list):
        return st.one_of([from_schema({**sub, "type": k}, who) for k in kind])
    if kind == "integer":
        return small
    if kind == "number":
        return small | st.sampled_from([0.5, 1.5])
    if kind == "boolean":
        return st.booleans()
    if kind == "string":
        return st.from_regex(sub["pattern"], fullmatch=True) if "pattern" in sub else text
    if kind == "array":
        return st.lists(from_schema(sub.get("items", {}), who), max_size=3)
    if kind == "object" and "properties" in sub:
        required = {k: from_schema(v, who) for k, v in sub["properties"].items() if k in sub.get("required", ())}
        optional = {k: from_schema(v, who) for k, v in sub["properties"].items() if k not in required}
        return st.fixed_dictionaries(required, optional=optional)
    if kind == "object":
        return st.dictionaries(who, from_schema(sub.get("additionalProperties") or {"type": "integer"}, who),
                               max_size=3)
    return st.none() | small | text


def _sentence_regex(template: str, players: list[str], minions: list[str]) -> str:
    """A sentence form as a regex over a table's names, for hypothesis to write sentences of that form."""
    def alternation(items):
        return "(?:" + "|".join(re.escape(n) for n in items) + ")" if items else "(?:Nobody)"
    return (template.replace("{P}", alternation(players)).replace("{P2}", alternation(players))
            .replace("{M}", alternation(minions)).replace("{M2}", alternation(minions))
            .replace("{N}", NUM).replace("{PRON}", PRON))


# letters and signs of the forms and the names; the free text in them (card names, properties) from these too
ALPHABET = st.sampled_from(sorted(set(string.ascii_letters + string.digits + " +-().,:'" + "".join(PLAYERS + MINIONS))))


def events(players: list[str], minions: list[str]) -> st.SearchStrategy:
    """Events naming a table's players and minions: sentences of every form, structured events of every form."""
    who = st.sampled_from(players + minions)
    return st.one_of(
        st.sampled_from(WORDING).flatmap(
            lambda p: st.from_regex(_sentence_regex(p.template, players, minions), fullmatch=True, alphabet=ALPHABET)),
        st.sampled_from(sorted(SCHEMA.forms)).flatmap(lambda key: from_schema(SCHEMA.forms[key], who)),
    )


examples = st.one_of(st.sampled_from([p.example for p in WORDING]),  # the forms' own examples name this table
                     st.sampled_from([yaml.safe_load(v[2]) for v in STRUCTURED.values()]))
minion = st.fixed_dictionaries(
    {"controller": st.sampled_from(PLAYERS), "capacity": st.integers(1, 11)},
    optional={"blood": st.integers(0, 11), "region": st.sampled_from(["ready", "torpor", "uncontrolled"]),
              "locked": st.booleans(), "title": st.sampled_from(["Prince of Paris", "Justicar", "Primogen", "baron"]),
              "sect": st.sampled_from(["Camarilla", "Sabbat", "Anarch", "Independent"]), "infernal": st.booleans(),
              "equipment": st.lists(st.sampled_from(CARDS), max_size=2), "strength": st.integers(0, 4),
              "votes": st.integers(0, 3), "retainers": st.lists(st.sampled_from(["Raven", "Ghoul"]), max_size=1)})
huge = st.sampled_from([10 ** 400, -(10 ** 30), 2 ** 63, 1e300, 10 ** 4299])


def expectations(players: list[str], minions: list[str]) -> st.SearchStrategy:
    """An `expect:` block for a table: state paths naming its players and minions, each with a value of the kind
    the path holds (expect.KINDS) or, now and then, of any kind; an expected stop now and then."""
    who = st.sampled_from(players + minions)
    anything = st.one_of(st.none(), st.booleans(), small, huge, who, text, st.dates())
    kinds = {X.INT: small | huge, X.NUMBER: small | huge | st.sampled_from([0.5, 1e300]), X.BOOL: st.booleans(),
             X.TEXT: text | st.dates(), X.LIST: st.lists(who | st.dates() | huge | text, max_size=3),
             X.MAPPING: st.dictionaries(who, small | st.dates(), max_size=2), X.PLAYER: st.sampled_from(players)}

    def value(head: str) -> st.SearchStrategy:
        kind = X.KINDS.get(head, X.INT)
        choices = [kinds.get(k, st.none()) if not isinstance(k, tuple) else st.sampled_from(k)
                   for k in (kind if isinstance(kind, tuple) and (None in kind or kind[0] in kinds) else (kind,))]
        return st.one_of(*choices, anything)

    paths = ([f"{k}.{p}" for k in X.PLAYER_KEYS for p in players] + [f"{k}.{m}" for k in X.MINION_KEYS for m in minions]
             + list(X.SCALARS))
    state = st.sampled_from(paths).flatmap(lambda path: st.tuples(st.just(path), value(path.split(".")[0])))
    stop = st.tuples(st.sampled_from(["refused", "not_modelled"]), st.one_of(
        st.booleans(), text, st.fixed_dictionaries({}, optional={"event": small, "message": text | st.dates(),
                                                                 "cites": st.lists(text, max_size=2)})))
    return st.lists(state | stop, max_size=4).map(dict)


@st.composite
def built(draw) -> str:
    """A scenario made of the engine's forms, at the examples' table (each field a plausible value or not)."""
    players = draw(st.permutations(PLAYERS))[:draw(st.sampled_from([5, 5, 5, 4, 3, 2]))]
    doc = {"players": players, "turn": draw(st.sampled_from(players)),
           "phase": draw(st.sampled_from(["minion", "minion", "minion", "unlock", "master", "influence", "discard"])),
           "minions": [{"name": m, **draw(minion)} for m in MINIONS]}
    for key in draw(st.lists(st.sampled_from(["rules", "edge", "pool", "turn_number", "transfers", "library"]),
                             unique=True, max_size=3)):
        doc[key] = draw(from_schema(SCHEMA.document["properties"][key], st.sampled_from(players)))
    doc["events"] = draw(st.lists(examples | events(players, MINIONS), max_size=10))
    expected = draw(expectations(players, MINIONS))
    if expected:
        doc["expect"] = expected
    for m in doc["minions"]:  # keep the table readable: a controller who sits at it, blood within capacity
        if m["controller"] not in players:
            m["controller"] = players[0]
        m["blood"] = min(m.get("blood", 0), m["capacity"])
    if not doc.get("expect"):
        doc.pop("expect", None)
    return yaml.dump(doc, Dumper=_Plain, allow_unicode=True, sort_keys=False, width=1000)


class _Plain(yaml.SafeDumper):
    """Writes a value met twice twice (hypothesis may draw the same one), not as an alias, which judge refuses."""

    def ignore_aliases(self, data) -> bool:
        return True


@st.composite
def spliced(draw) -> str:
    """A V:TES file of scenarios/ with events of any form, naming its own players and minions, put among its own."""
    doc = yaml.safe_load(draw(st.sampled_from(VTES_FILES)))
    players = [str(p) for p in doc["players"]]
    minions = [str(m["name"]) for m in doc.get("minions") or []]
    own = list(doc.get("events") or [])
    for _ in range(draw(st.integers(1, 3))):
        own.insert(draw(st.integers(0, len(own))), draw(events(players, minions)))
    doc["events"] = own
    doc["expect"] = {**(doc.get("expect") or {}), **draw(expectations(players, minions))}
    return yaml.dump(doc, Dumper=_Plain, allow_unicode=True, sort_keys=False, width=1000)


# -- the repository's scenarios, edited ---------------------------------------------------------------------------
TOKENS = ["? [x, y]\n: 1", "? {a: 1}\n: 2", "9" * 400, "9" * 5_000, "1001", "-1001", ".inf", ".nan", "0x7fffffff",
          "2001-01-01", "[2001-01-01]", "{a: 2001-01-01}", "!!binary aGk=", "[!!binary aGk=]", "!!set {a, b}", "*a",
          "&a x", "<<: {a: 1}", "=", "~", "[]", "{}", "'", '"', "\t", ":", "- ", "? ", "#", "x" * 1_200, "\\0",
          '"\\0\\x00m0\\x00 hunts"', "Sarah", "Belinde", "all", "-1", "0", "1000", "Sarah's next turn",
          "nobody blocks"]
KEYS = ["[x, y]", "{a: 1}", "[Sarah]", "{}", "[]"]  # a list or mapping as a key: `? [x, y]` then `: 1`


@st.composite
def edited(draw) -> str:
    """A file of scenarios/ with one to four edits: a value replaced, a token inserted, a line dropped, doubled,
    re-indented or taken from another file."""
    lines = draw(st.sampled_from(FILES)).split("\n")
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(lines) - 1))
        op = draw(st.sampled_from(["value", "insert", "key", "drop", "double", "indent", "other"]))
        line = lines[i]
        indent = line[:len(line) - len(line.lstrip(" -"))].replace("-", " ")
        if op == "key":  # at the indentation of a line of the mapping it is in
            lines[i:i] = [f"{indent}? {draw(st.sampled_from(KEYS))}", f"{indent}: {draw(st.sampled_from(TOKENS[6:9]))}"]
        elif op == "value" and ":" in line:
            lines[i] = line[:line.index(":") + 1] + " " + draw(st.sampled_from(TOKENS))
        elif op == "insert":
            at = draw(st.integers(0, len(line)))
            lines[i] = line[:at] + draw(st.sampled_from(TOKENS)) + line[at:]
        elif op == "drop" and len(lines) > 1:
            del lines[i]
        elif op == "double":
            lines.insert(i, line)
        elif op == "indent":
            lines[i] = draw(st.sampled_from(["", " ", "  ", "    "])) + line.lstrip()
        else:
            lines.insert(i, draw(st.sampled_from(draw(st.sampled_from(FILES)).split("\n"))))
    return "\n".join(lines)


# -- the properties ---------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def entry_points(corpus, tmp_path_factory):
    # The wall-time limit is a backstop whose verdict depends on the machine's load, not on the scenario: the
    # three entry points are compared on the others (tests/test_engine_limits.py tests the wall time itself).
    app = create_app(corpus, {"SCENARIO_LIMITS": DEFAULT_LIMITS.with_override(f"seconds={NO_WALL_TIME}")})
    client = app.test_client()
    document = client.get("/api/openapi.json").get_json()
    responses = document["paths"]["/api/check"]["post"]["responses"]
    validators = {int(code): Draft202012Validator({**r["content"]["application/json"]["schema"],
                                                   "components": document["components"]})
                  for code, r in responses.items()}
    return client, validators, tmp_path_factory.mktemp("fuzz") / "scenario.yaml", CliRunner()


def holds_everywhere(entry_points, text: str) -> None:
    client, validators, path, runner = entry_points
    # judge check: a verdict for the file, never a traceback
    path.write_text(text, encoding="utf-8")
    result = runner.invoke(check, [str(path), "--json", "--limit", f"seconds={NO_WALL_TIME}"])
    assert result.exit_code in (0, 1) and isinstance(result.exception, (SystemExit, type(None))), result.output
    cli = json.loads(result.output)
    error = cli["error"]
    assert error is None or error["kind"] in ("refused", "not-modelled", "malformed", "over-limit"), error
    if error is not None and error["kind"] in ("malformed", "over-limit"):
        assert error["message"] and (error["line"] or error.get("limit")), error  # what, and where
    # /api/check: the same verdict, as the OpenAPI document declares it
    api = client.post("/api/check", data=text.encode("utf-8"), content_type="text/yaml")
    assert api.status_code in STATUSES, api.data[:500]
    body = api.get_json()
    validators[api.status_code].validate(body)
    if api.status_code == 200:
        assert (body["ok"], body["error"]) == (cli["ok"], cli["error"])
    else:
        assert body["error"] == error["message"] and body["line"] == error["line"], (body, error)
        assert body.get("limit") == error.get("limit")
    # /check: the same, as a page
    page = client.post("/check", data={"scenario": text, "rules": "file"}, content_type="multipart/form-data")
    assert page.status_code == (api.status_code if text.strip() else 400), page.data[:500]
    html = page.data.decode("utf-8")
    assert ('class="trace-result"' in html) == (page.status_code == 200)


@given(built())
@settings(**EXAMPLES)
def test_scenarios_built_from_the_engines_forms(entry_points, text):
    holds_everywhere(entry_points, text)


@given(spliced())
@settings(**EXAMPLES)
def test_the_repositorys_scenarios_with_events_of_every_form_among_theirs(entry_points, text):
    holds_everywhere(entry_points, text)


@given(edited())
@settings(**EXAMPLES)
def test_the_repositorys_scenarios_edited_at_random(entry_points, text):
    holds_everywhere(entry_points, text)


# -- the guided builder's fields (/check's event forms), as a visitor could fill them --------------------------------
BUILDER_TABLE = ("players: [Sarah, Alexis, Bob]\nturn: Sarah\nphase: minion\nminions:\n"
                 "- {name: Belinde, controller: Sarah, capacity: 6}\n- {name: Carna, controller: Alexis, capacity: 5}\n")
YAMLISH = "[]{}:,'\"!&*#-|>%@` \n\t"
field_values = st.one_of(
    st.sampled_from(PLAYERS[:3] + ["Belinde", "Carna", "1", "true", "{blood: 1}", "[Sarah, Alexis]"] + CARDS),
    st.text(st.sampled_from(YAMLISH + "abéx19"), max_size=40),  # YAML's punctuation, mostly
    st.builds(lambda depth, inner: "[" * depth + inner + "]" * depth, st.integers(0, 400),
              st.text(st.sampled_from("ab,:{}"), max_size=8)),  # nested, as deep as issue 34's 400
    st.builds(lambda n, item: "[" + ", ".join([item] * n) + "]", st.integers(0, 3000), st.sampled_from(["a", "1"])),
    st.builds(lambda n: "9" * n, st.integers(20, 5000)),  # numbers too long to convert
    st.text(max_size=30),
)


@given(form=st.sampled_from(sorted(STRUCTURED)), values=st.data())
@settings(**{**EXAMPLES, "max_examples": 200})
def test_the_builders_event_fields_are_refused_in_words_never_a_500(entry_points, form, values):
    client = entry_points[0]
    fields = {f"ev_{key}": values.draw(field_values) for key in (form, *STRUCTURED[form].allowed)
              if key == form or values.draw(st.booleans())}
    page = client.post("/check", data={"state": BUILDER_TABLE, "do": "add_event", "event_form": form, **fields})
    assert page.status_code in STATUSES, page.data[:300]
    html = page.data.decode("utf-8")
    assert "Traceback" not in html and "something went wrong on the server" not in html
    if page.status_code != 200:  # refused: the builder says why, and keeps its state
        assert 'id="builder-error"' in html or 'class="trace-error"' in html or "notice" in html
