"""The OpenAPI 3.1 document of the JSON API, served at /api/openapi.json.

Schemas are JSON Schema 2020-12 (as OpenAPI 3.1 has them). The tests validate
every API answer against the schema declared here and check that each API
route is described, so this document cannot drift from the code unnoticed.
"""
from __future__ import annotations

from typing import Any

from judge.engine.limits import DEFAULT as DEFAULT_LIMITS
from judge.lookup import MAX_QUERY
from judge.model import KINDS
from judge.web.permalinks import permalink_characters
from judge.web.params import MAX_VALUES, PATH_END_CHARS

S = dict[str, Any]


def _ref(name: str) -> S:
    return {"$ref": f"#/components/schemas/{name}"}


def _nullable(kind: str) -> S:
    return {"type": [kind, "null"]}


def _array(items: S) -> S:
    return {"type": "array", "items": items}


def _object(required: dict[str, S], optional: dict[str, S] | None = None) -> S:
    return {"type": "object", "required": list(required), "properties": {**required, **(optional or {})}}


_STR, _INT, _NUM, _BOOL = {"type": "string"}, {"type": "integer"}, {"type": "number"}, {"type": "boolean"}
_NODE = {"id": _STR, "kind": _STR, "label": _STR, "doc": _nullable("string")}

SCHEMAS: dict[str, S] = {
    "Error": _object({"error": _STR, "status": _INT}, {"suggestions": _array(_STR)}),
    "Edition": _object({"id": _STR, "doc": _STR, "label": _STR, "matched": _BOOL}),
    "Hit": _object({"id": _STR, "doc": _STR, "label": _STR, "text": _STR, "score": _NUM,
                    "snippet": {"type": "string", "description": "HTML: the text escaped, matched words in <mark>"},
                    "snippet_runs": {**_array({"type": "array", "prefixItems": [_STR, _BOOL], "items": False,
                                               "minItems": 2}),
                                     "description": "the snippet as data: its runs of text in order, each [text, "
                                                    "marked], marked when the query matched it; the text as it "
                                                    "is, not escaped"}},
                   {"kind": {"enum": [*KINDS, "ruling"], "description": "a paragraph's kind, or \"ruling\" for a "
                                                                     "ruling the query's words match (doc \"rulings\")"},
                    "cards": _array(_object({"id": _STR, "name": _STR, "slug": _STR})),
                    "references": {**_array(_STR), "description": "a ruling's sources"},
                    "section": _STR, "section_title": _STR,
                    "editions": _array(_ref("Edition")), "game": _STR,
                    "in_force": {**_BOOL, "description": "from the book in force of its game, not an older edition"},
                    "ocr": {**_BOOL, "description": "from a text read by OCR"}}),
    "SearchResult": _object(
        {"query": _STR, "hits": _array(_ref("Hit"))},
        {"total": _INT,
         "facets": _object({"doc": {"type": "object", "additionalProperties": _INT},
                            "kind": {"type": "object", "additionalProperties": _INT}}),
         "did_you_mean": _nullable("string"),
         "direct": {"oneOf": [{"type": "null"},
                              _object({"id": _STR, "how": _STR, "note": _nullable("string"),
                                       "also": _array(_STR)})]},
         "message": _nullable("string"),
         "notes": _array(_STR),
         "game": {"type": "string", "description": "the game searched (a game id, or all)"},
         "game_from": {"enum": ["filter", "query", "default"]},
         "other_game": {"oneOf": [{"type": "null"}, _object({"game": _STR, "total": _INT})]},
         "cards": {"oneOf": [{"type": "null"}, _ref("CardAnswer")]},
         "in": _array({"enum": ["rules", "cards", "rulings"]}),
         "try": {**_array(_object({"say": _STR, "q": _nullable("string"),
                                   "in": {"oneOf": [{"type": "null"}, _array({"enum": ["rules", "cards", "rulings"]})]},
                                   "cards": _nullable("string")})),
                 "description": "when nothing answers the question: what might (other words `q`, other places `in`, "
                                "or the card list searched for `cards`); empty when something answers"}}),
    "Paragraph": _object(
        {"id": _STR, "doc": _STR, "label": _STR, "kind": _STR, "text": _STR,
         "section": _array(_object({"id": _STR, "title": _STR, "label": _STR})),
         "refs_out": _array(_object({"raw": _STR, "status": _STR, "target": _nullable("string"),
                                     "reason": _nullable("string")})),
         "refs_in": _array(_object({"source": _STR, "raw": _STR, "status": _STR})),
         "resolved_from": _object({"query": _STR, "how": _STR, "note": _nullable("string"),
                                   "also": _array(_STR)})},
        {"title": _STR, "paragraphs": _array(_STR), "subsections": _array(_STR),
         "in_force": _array(_object({"id": _STR, "label": _STR, "confidence": _NUM})),
         "scan": _object({"text": _STR, "repairs": _array(_object({"original": _STR, "repaired": _STR,
                                                                     "how": {"enum": ["aligned", "current", "split", "spelling"]}}))}),
         "citation": _object({"label": _STR, "url": {**_STR, "description": "the permalink at the site's public "
                                                     "address (judge serve --public-url)"},
                              "vekn_url": {**_nullable("string"), "description": "the rule on vekn.net (the "
                                                                                 "current book only)"},
                              "plain": _STR, "markdown": _STR, "chat": _STR,
                              "local": {**_BOOL, "description": "no public address is configured: `url` is this "
                                                                "server's own, and the copied forms of a current "
                                                                "rule lead with vekn.net"}})}),
    "Document": _object({"id": _STR, "title": _STR, "game": _STR, "edition": _STR, "source": _STR,
                         "sections": _INT, "paragraphs": _INT}),
    "TocEntry": _object({"id": _STR, "number": _nullable("string"), "title": _STR, "label": _STR,
                         "paragraphs": _INT, "children": _array(_ref("TocEntry"))}),
    "GlossaryEntry": _object({"term": _STR, "doc": _STR, "id": _STR, "label": _STR, "text": _STR}),
    "Finding": _object({"doc": _STR, "code": _STR, "severity": {"enum": ["error", "warning", "info"]},
                        "line": _INT, "message": _STR, "paragraph": _nullable("string")},
                       {"file": _nullable("string"), "location": {**_STR, "description": "line N of the file"}}),
    "Node": _object(_NODE),
    "Hop": _object({"from": _STR, "to": _STR, "kind": _STR, "reverse": _BOOL, "text": _STR}),
    "Backlink": _object({**_NODE, "cites": _STR, "relation": {"enum": ["direct", "inside", "enclosing"]},
                         "link": _STR, "direct": _BOOL, "count": _INT, "text": _STR}),
    "Related": _object({**_NODE, "score": _NUM, "path": _array(_ref("Hop")), "same_rule": _array(_STR),
                        "reason": {**_STR, "description": "why it is related, in words"},
                        "relation": {**_STR, "description": "the link that relates it: cites, cites-reverse, uses, "
                                                            "next-step, previous-step, together, same-section…"}}),
    "Editions": _object({**_NODE,
                         "editions": _array(_object({**_NODE, "confidence": _NUM, "method": _STR})),
                         "outline_steps": _array(_object({**_NODE, "confidence": _NUM, "via": _STR}))}),
    "Neighbourhood": _object({"center": _STR, "radius": _INT,
                              "nodes": _array(_object({**_NODE, "distance": _INT})),
                              "edges": _array(_object({"source": _STR, "target": _STR, "kind": _STR}))}),
    "Path": _object({"from": _ref("Node"), "to": _ref("Node"), "cost": _NUM, "nodes": _array(_ref("Node")),
                     "hops": _array(_ref("Hop"))}),
}


def _param(name: str, where: str, description: str, schema: S, required: bool = False) -> S:
    return {"name": name, "in": where, "description": description, "required": required or where == "path",
            "schema": schema}


_ID = _param("ident", "path", "An ID (rb:6.4.6/2), a label, a vekn.net URL, a section or outline number; "
             "IDs contain ':' and '/' and are sent as they are.", _STR)
_DOCS = _param("doc", "query", "Only these documents (repeat the parameter for several).", _array(_STR))
_ERRORS = {
    "400": {"description": "A parameter is missing or wrong; the message says which and why.",
            "content": {"application/json": {"schema": _ref("Error")}}},
    "404": {"description": "Nothing answers to that ID; `suggestions` lists close IDs.",
            "content": {"application/json": {"schema": _ref("Error")}}},
    "414": {"description": "The address is longer than the server reads (judge.web.errors.MAX_TARGET characters "
                           "of path and query).",
            "content": {"application/json": {"schema": _ref("Error")}}},
}


def _get(summary: str, schema: S, parameters: list[S] = (), description: str = "") -> S:
    op = {"summary": summary, "parameters": list(parameters),
          "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": schema}}},
                        **_ERRORS}}
    if description:
        op["description"] = description
    return {"get": op}


def _text(max_length: int, required: bool = False) -> S:
    """A text parameter as judge.web.params.text checks it: at most `max_length` characters, no NUL; a required one
    holds something besides spaces."""
    return {"type": "string", "maxLength": max_length,
            **({"minLength": 1, "pattern": "^[^\\x00]*[^\\x00\\s][^\\x00]*$"} if required
               else {"pattern": "^[^\\x00]*$"})}


def _repeated(values: list[str]) -> S:
    """A repeated parameter as judge.web.params.choices checks it: each value one of `values` (or empty, which
    filters nothing: a form's "any"), given at most MAX_VALUES times."""
    return {"type": "array", "items": {"enum": [*values, ""]}, "maxItems": MAX_VALUES}


def openapi_document(corpus=None) -> S:
    """The document; with `corpus` (the served one), its documents' IDs are the enumerations of the parameters
    naming them, as the server checks them."""
    documents = list(corpus.documents) if corpus is not None else None
    games = sorted({d.meta.game for d in corpus.documents.values()}) if corpus is not None else None
    glossaries = [d.id for d in corpus.documents.values() if d.glossary] if corpus is not None else None
    docs_param = _DOCS if documents is None else {**_DOCS, "schema": _repeated(documents)}
    return {
        "openapi": "3.1.0",
        "info": {"title": "judge", "version": _version(),
                 "description": "The V:TES and VTM Rivals rulebooks: search, paragraphs, glossary, lint and the rule "
                                "graph. Shapes mirror the `judge` command line's --json (docs/cli.md)."},
        "paths": {
            "/api/search": _get(
                "Search the rulebooks", _ref("SearchResult"),
                [_param("q", "query", "Words, \"phrases\", a section number, an ID; filters doc:, kind:, game:.",
                        _text(MAX_QUERY, required=True), required=True),
                 docs_param,
                 _param("kind", "query", "Only these kinds of paragraph (repeatable).", _repeated(list(KINDS))),
                 _param("in", "query", "What to search (repeatable; all by default): rules (the hits), cards (the "
                        "card the query names, in `cards`), rulings (that card's rulings; given alone, shown without "
                        "the word \"ruling\" in the query). Without rules, `hits` is empty and `total` 0.",
                        _repeated(["rules", "cards", "rulings"])),
                 _param("game", "query", "This game only (vtes, rivals), or all; without it, the game the query "
                        "names or uses words of, else vtes.", {"enum": [*games, "all"]} if games else _STR),
                 _param("limit", "query", "Hits returned.", {"type": "integer", "minimum": 1, "maximum": 100,
                                                             "default": 10})],
                "The same rule in several editions is one hit; its other editions are in `editions`."),
            "/api/paragraph/{ident}": _get("A paragraph or section, as `judge show --json`", _ref("Paragraph"), [_ID]),
            "/api/docs": _get("The documents of the corpus", _array(_ref("Document"))),
            "/api/toc/{doc_id}": _get("A document's table of contents", _array(_ref("TocEntry")),
                                      [_param("doc_id", "path", "A document id (vekn, s6, rb, flows, rivals).", _STR)]),
            "/api/glossary": _get("Glossary entries", _array(_ref("GlossaryEntry")),
                                  [_DOCS if glossaries is None else {**_DOCS, "schema": _repeated(glossaries)}]),
            "/api/lint": _get("The editor's lint report", _array(_ref("Finding")), [docs_param]),
            "/api/graph/backlinks/{ident}": _get("What cites a rule (each link explained)", _array(_ref("Backlink")),
                                                 [_ID]),
            "/api/graph/related/{ident}": _get(
                "The most related rules, each with the path that relates them", _array(_ref("Related")),
                [_ID, _param("k", "query", "How many.", {"type": "integer", "minimum": 1, "maximum": 50,
                                                          "default": 10})]),
            "/api/graph/editions/{ident}": _get("The same rule in the other editions, and outline steps citing it",
                                                _ref("Editions"), [_ID]),
            "/api/graph/neighbourhood/{ident}": _get(
                "Nodes within a few links, and the edges among them", _ref("Neighbourhood"),
                [_ID, _param("radius", "query", "Links out.", {"type": "integer", "minimum": 0, "maximum": 3,
                                                               "default": 1})]),
            "/api/graph/path": _get(
                "The strongest chain of links between two rules", _ref("Path"),
                [_param("from", "query", "Where the path starts (ID, label, number).", _text(PATH_END_CHARS, True),
                        required=True),
                 _param("to", "query", "Where it ends.", _text(PATH_END_CHARS, True), required=True)]),
            "/api/openapi.json": {"get": {"summary": "This document", "responses": {
                "200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}},
                "414": _ERRORS["414"]}}},
            **_tool_paths(corpus),
            **_card_paths(),
        },
        "components": {"schemas": {**SCHEMAS, **_tool_schemas(), **_card_schemas()}},
    }


def _tool_paths(corpus=None) -> dict[str, S]:
    """Routes of the tools pages: the editions diff and the scenario check."""
    out: dict[str, S] = {}
    if corpus is not None:
        from judge.web.editions import comparable_ids
        edition = {"enum": comparable_ids(corpus)}
    else:
        edition = _STR
    out["/api/diff"] = _get(
        "What changed between two editions, as `judge diff --json`", _ref("Diff"),
        [_param("old", "query", "The older document id (an edition of the same game as new).", edition,
                required=True),
         _param("new", "query", "The newer document id.", edition, required=True)],
        description="Pairs come meaning first, each meaning change ranked by what it changes (`importance`: "
                    "amounts, then permission, then who and when, ahead of rewording); pairs the comparer cannot "
                    "stand behind are listed as removed and added.")
    out["/api/history/{ident}"] = _get(
        "One paragraph through every edition of its game, oldest first, as `judge history --json`",
        _ref("History"), [_ID])
    limits = _scenario_limits()
    out["/api/check"] = {"post": {
        "summary": "Replay a scenario and return its cited trace, as `judge check --json`",
        "description": "Under the replay's limits, the same as `judge check`'s (docs/scenarios.md, Limits): "
                       + ", ".join(f"{name} {value:g}" if isinstance(value, float) else f"{name} {value:,}"
                                   for name, value in limits.items())
                       + ". A body over the character limit is refused (413), however it is sent.",
        "parameters": [_param("rules", "query", "Replay under this edition instead of the scenario's own (a V:TES "
                                                "scenario: current or older; a Rivals scenario: rivals).",
                              {"enum": list(_editions())})],
        "requestBody": {"required": True, "description": "The scenario: YAML (or JSON, which is YAML). A scenario "
                                                         "is of V:TES (`Scenario`) unless it says `game: rivals` "
                                                         "(`RivalsScenario`, docs/rivals.md).",
                        "content": {"text/yaml": {"schema": {"type": "string", "maxLength": limits["characters"]}},
                                    "application/json": {"schema": {"oneOf": [_ref("Scenario"),
                                                                              _ref(RIVALS_PREFIX)]}}}},
        "responses": {"200": {"description": "The replay", "content": {"application/json": {
            "schema": _ref("CheckRun")}}},
            "400": {"description": "A malformed scenario (with its line) or a bad parameter.",
                    "content": {"application/json": {"schema": _ref("CheckError")}}},
            "413": {"description": "The body, or the scenario in it, is longer than the limit 'characters' "
                                   "allows (chunked bodies included: refused, never cut).",
                    "content": {"application/json": {"schema": _ref("CheckError")}}},
            "414": _ERRORS["414"],
            "415": {"description": "A form (multipart/form-data or urlencoded) was sent: the body must be the "
                                   "scenario itself, as text/yaml or application/json (the form is /check's).",
                    "content": {"application/json": {"schema": _ref("Error")}}},
            "422": {"description": "The scenario is over one of the replay's limits (players, events, turns, "
                                   "steps, ...): `limit` names it, `maximum` gives its value, `line` says where.",
                    "content": {"application/json": {"schema": _ref("CheckError")}}}}}}
    out["/api/check"]["get"] = {
        "summary": "Replay a permalink's scenario, as POSTing its YAML does",
        "description": "`s` is the `s=` of the scenario's permalink, /check?s=... (docs/scenarios.md, Permalinks): "
                       "compact (`~1` then its YAML deflated with judge's dictionary, in url-safe base64) or plain "
                       "(its YAML, UTF-8, in url-safe base64, padding optional). The same limits apply.",
        "parameters": [_param("s", "query", "The scenario's permalink value, compact or plain.",
                              {"type": "string", "minLength": 1, "maxLength": permalink_characters(DEFAULT_LIMITS),
                               "pattern": "^\\s*(~1[A-Za-z0-9_-]+|[A-Za-z0-9_-]*[A-Za-z0-9_-]={0,2})\\s*$"}, required=True),
                       _param("rules", "query", "Replay under this edition instead of the scenario's own.",
                              {"enum": list(_editions())})],
        "responses": {"200": {"description": "The replay", "content": {"application/json": {
            "schema": _ref("CheckRun")}}},
            "400": {"description": "`s` missing, not url-safe base64, not UTF-8, or a malformed scenario.",
                    "content": {"application/json": {"schema": _ref("CheckError")}}},
            "413": {"description": "`s`, or the scenario in it, is longer than the limit 'characters' allows.",
                    "content": {"application/json": {"schema": _ref("CheckError")}}},
            "414": _ERRORS["414"],
            "422": {"description": "The scenario is over one of the replay's limits.",
                    "content": {"application/json": {"schema": _ref("CheckError")}}}}}
    return out


def _tool_schemas() -> dict[str, S]:
    from judge.compare.importance import WHAT_RANK
    from judge.compare.text import CHANGES
    out: dict[str, S] = {}
    para = _object({"id": _STR, "label": _STR, "kind": _STR, "section": _STR, "text": _STR})
    out["Diff"] = _object({
        "old": _STR, "new": _STR, "old_title": _STR, "new_title": _STR,
        "summary": {"type": "object", "additionalProperties": _INT},
        "pairs": _array(_object({
            "old": _STR, "new": _STR, "old_label": _STR, "new_label": _STR,
            "change": {"enum": list(CHANGES)},
            "signals": _array(_object({"signal": _STR, "old": _array(_STR), "new": _array(_STR),
                                       "explain": _STR})),
            "diff": _array(_object({"op": _STR, "old": _STR, "new": _STR})),
            "moved": {"oneOf": [{"type": "null"}, {"type": "object"}]},
            "method": _STR, "confidence": _NUM},
            {"importance": _object({"what": {"enum": list(WHAT_RANK)}, "label": _STR, "rank": _INT,
                                    "why": _nullable("string"), "edit_words": _INT})})),
        "added": _array(para), "removed": _array(para), "moved": _array({"type": "object"}),
        "sections": _object({"added": _array({"type": "object"}), "removed": _array({"type": "object"})})})
    out["History"] = _object({"id": _STR, "label": _STR, "editions": _array(_object({
        "doc": _STR, "edition": _STR, "edition_order": _INT, "event": _STR, "ids": _array(_STR),
        "labels": _array(_STR), "text": _nullable("string"), "since": _nullable("string"),
        "change": {"enum": [None, *CHANGES]}, "signals": _array({"type": "object"}),
        "diff": _array({"type": "object"}), "moved": {"oneOf": [{"type": "null"}, {"type": "object"}]}}))})
    out["CheckRun"] = _object({
        "file": _STR, "game": {"enum": ["vtes", "rivals"]}, "rules": _nullable("string"), "ok": _BOOL,
        "verdict": {"enum": ["as expected", "not as expected", "replayed", "stopped", "not read"]},
        "steps": _array(_object({"n": _INT, "event": _STR, "text": _STR, "cites": _array(_STR)},
                                {"quotes": _array(_object({"id": _STR, "quote": _STR}))})),
        "state": {"type": ["object", "null"]},
        "expectations": _array(_object({"path": _STR, "ok": _BOOL}, {"expected": {}, "actual": {}})),
        "error": {"oneOf": [{"type": "null"},
                            _object({"message": _STR}, {"line": _nullable("integer"), "kind": _STR,
                                                        "event": _nullable("integer"), "cites": _array(_STR),
                                                        "event_text": _nullable("string"),
                                                        "quotes": _array(_object({"id": _STR, "quote": _STR}))})]}})
    out["CheckError"] = _object({"error": _STR, "status": _INT},
                                {"line": _nullable("integer"), "limit": {"enum": list(_scenario_limits())},
                                 "maximum": _NUM})
    out.update(_scenario_schemas())
    out.update(_scenario_schemas(RIVALS_PREFIX))
    return out


def _editions() -> list[str]:
    from judge.engine.citations import EDITION_NAMES
    return list(EDITION_NAMES)


def _scenario_limits() -> dict[str, float]:
    from dataclasses import asdict
    return asdict(DEFAULT_LIMITS)


SCENARIO_PREFIX = "Scenario"
RIVALS_PREFIX = "RivalsScenario"


def _scenario_schemas(prefix: str = SCENARIO_PREFIX) -> dict[str, S]:
    """A scenario's JSON Schema as components: V:TES's (judge/engine/vtes/scenario.schema.json) as `Scenario`, and each
    of its `$defs` as `Scenario_<name>`; Rivals' (judge/engine/rivals/scenario.schema.json) the same under
    `RivalsScenario` (an OpenAPI tool resolves references against the document's components)."""
    from judge.engine.rivals.scenario import SCHEMA as RIVALS_SCHEMA
    from judge.engine.vtes.scenario import SCHEMA as VTES_SCHEMA
    schema = (RIVALS_SCHEMA if prefix == RIVALS_PREFIX else VTES_SCHEMA).document

    from judge.engine import limits as L

    def moved(node):
        if isinstance(node, list):
            return [moved(x) for x in node]
        if not isinstance(node, dict):
            return node
        out = {k: moved(v) for k, v in node.items() if k not in ("$defs", "$schema", "$id")}
        if isinstance(out.get("$ref"), str) and out["$ref"].startswith("#/$defs/"):
            out["$ref"] = f"#/components/schemas/{prefix}_{out['$ref'][len('#/$defs/'):]}"
        # The format's bounds (judge/engine/limits.py), which the file's schema leaves to the loader.
        if out.get("type") in ("integer", "number"):
            out["minimum"] = max(out.get("minimum", -L.NUMBER_BOUND), -L.NUMBER_BOUND)
            out["maximum"] = min(out.get("maximum", L.NUMBER_BOUND), L.NUMBER_BOUND)
        elif out.get("type") == "string" and "enum" not in out:
            out["maxLength"] = L.TEXT_CHARS
        return out

    doc = schema
    out = {prefix: moved(doc), **{f"{prefix}_{name}": moved(sub) for name, sub in doc["$defs"].items()}}
    out[f"{prefix}_name"]["maxLength"] = L.NAME_CHARS
    table = out[prefix]["properties"]
    for key in ("players", "minions", "vampires", "events"):
        if key in table:
            table[key]["maxItems"] = getattr(DEFAULT_LIMITS, "minions" if key == "vampires" else key)
    return out


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version
    try:
        return version("judge")
    except PackageNotFoundError:  # running from a checkout that was never installed
        return "0"


# -- cards and rulings (judge/web/cards.py, docs/cards.md) ------------------------------------------
def _card_paths() -> dict[str, S]:
    page = [_param("limit", "query", "How many.", {"type": "integer", "minimum": 1, "maximum": 500}),
            _param("offset", "query", "From which.", {"type": "integer", "minimum": 0, "maximum": 100000})]
    return {
        "/api/card/{ident}": _get("A card, as `judge card NAME --json`: text, rules it relies on, rulings, groups",
                                  _ref("Card"), [_param("ident", "path", "A card ID, slug or name (any case or "
                                                                          "accents; a misspelling's closest).",
                                                        _STR, required=True)]),
        "/api/cards": _get("The cards index, filtered", _object({"total": _INT, "offset": _INT, "cards": _array(
            _object({"id": _STR, "name": _STR, "slug": _STR, "kind": _STR, "types": _array(_STR)}))}),
            [_param("q", "query", "Words of the name.", _text(100)), _param("kind", "query", "crypt or library.",
                                                                             {"enum": ["crypt", "library"]}),
             _param("type", "query", "A card type.", _text(40)), _param("clan", "query", "A clan.", _text(40)),
             _param("discipline", "query", "A discipline code or name.", _text(20)), *page]),
        "/api/rulings": _get("Rulings, as `judge rulings --json` (a page of them)",
                             _object({"total": _INT, "offset": _INT, "rulings": _array(_ref("Ruling"))}),
                             [_param("card", "query", "Only this card's (and its groups').", _text(200)),
                              _param("cites", "query", "Only those citing this paragraph or section (or an RBK "
                                                       "reference's).", _text(200)),
                              _param("stale", "query", "1, true or yes: only those that may predate a rules "
                                                       "change.", _text(5)),
                              *page]),
    }


def _card_schemas() -> dict[str, S]:
    rule = _object({"id": _STR, "label": _STR})
    use = _object({"template": _STR, "matched": _array(_STR), "rules": _array(rule)}, {"description": _STR})
    named = _object({"id": _STR, "name": _STR}, {"slug": _STR})
    return {
        "CardReference": _object({"id": _STR, "date": _nullable("string"), "url": _nullable("string"),
                                  "resolves_to": _nullable("string"), "reason": _nullable("string")},
                                 {"source": _STR, "status": _STR, "label": _nullable("string")}),
        "Stale": _object({"date": _STR, "edition": _STR, "current": _STR, "changed_after": _STR, "note": _STR,
                          "changes": _array(_object({"rule": _STR, "label": _STR, "old": _array(_STR),
                                                     "old_label": _STR, "via": _STR, "signals": _array(_STR)},
                                                    {"changed": _array(_object({"old": _STR, "new": _STR})),
                                                     "keywords": _array(_STR)}))},
                         {"edition_title": _STR}),
        "Ruling": _object({"id": _STR, "text": _STR, "cards": _array(named),
                           "references": _array(_ref("CardReference")),
                           "stale": {"oneOf": [{"type": "null"}, _ref("Stale")]}},
                          {"owner": _STR, "group": _nullable("string"), "date": _nullable("string"),
                           "rules": _array(use), "mentions": _array(_STR), "parts": _array({"type": "object"})}),
        "Card": _object({"id": _STR, "name": _STR, "text": _STR, "types": _array(_STR),
                         "disciplines": _array(_object({"code": _STR, "name": _STR,
                                                        "level": _nullable("string")})),
                         "rulings": _array(_ref("Ruling")), "rules": _array(use)},
                        {"slug": _STR, "kind": _STR, "groups": _array(_object({"id": _STR, "name": _STR,
                                                                                "cards": _array(named)}))}),
        "CardAnswer": _object({"cards": _array(_object({"id": _STR, "name": _STR, "how": _STR},
                                                       {"slug": _STR, "types": _array(_STR), "text": _STR,
                                                        "score": {"type": "number"},
                                                        "label": {**_STR, "description": "the name with its version's "
                                                                                         "marks when versions share it"}})),
                               "rulings": {**_array(_object({"id": _STR, "text": _STR, "references": _array(_STR)},
                                                            {"cards": _array(_STR), "card": _nullable("string")})),
                                           "description": "the named cards' rulings, best first for what the query "
                                                          "asks"}},
                              {"rulings_total": _INT, "asked_rulings": {"type": "boolean"},
                               "ambiguous": {**_array(_object({"typed": _STR, "cards": _array(named)})),
                                             "description": "words naming several cards, with them"},
                               "closest": {**_array(named), "description": "rulings asked of a name no card has: "
                                                                           "the cards spelt most like it"}}),
    }
