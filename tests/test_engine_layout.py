"""The engine's layout, read from its source with `ast` (imports inside functions included): no import cycle
among judge/engine's modules, nothing imported from the parts that stand on the engine or on the books (the
corpus, the search, the web, the commands: the engine is given a citation locator instead), two games on one
core (judge/engine/vtes/ and judge/engine/rivals/ each stand on the shared modules of judge/engine/ alone, and
the shared modules know of a game only where they hand a scenario to it), and every event has its handler and
its place in the flow."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
from import_walk import ROOT, cycles, imports, module_of

from judge.engine.vtes import combat, events, phases, registry, stages, state

ENGINE = "judge.engine"
# What the engine may import from judge besides itself: the foundations every part stands on.
FOUNDATIONS = ("judge.errors", "judge.paths", "judge.memo", "judge.datafile", "judge.cachefile")


def import_graph(root: Path = ROOT) -> nx.DiGraph:
    """The modules of judge/engine under `root` (a checkout) and what each imports (edges carry the line).
    Importing judge.engine.x runs judge/engine/__init__.py first, so it counts as importing the package too."""
    graph = nx.DiGraph()
    for path in sorted((root / "judge" / "engine").rglob("*.py")):
        module = module_of(path, root)
        graph.add_node(module, path=path)
        for target, line in imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", root):
            targets = [target]
            if target.startswith(ENGINE + "."):
                targets.append(ENGINE)
            for t in targets:
                if t != module and not graph.has_edge(module, t):
                    graph.add_edge(module, t, line=line)
    return graph


def outside_imports(graph: nx.DiGraph) -> list[str]:
    """Imports of judge's other parts from the engine, each as "a imports b (line n)"."""
    return [f"{a} imports {b} (line {data['line']})" for a, b, data in graph.edges(data=True)
            if a.startswith(ENGINE) and b.split(".")[0] == "judge" and not (b == ENGINE or b.startswith(ENGINE + "."))
            and not any(b == f or b.startswith(f + ".") for f in FOUNDATIONS)]


def test_no_import_cycle_inside_the_engine():
    graph = import_graph()
    assert graph.number_of_edges() > 50  # the walk found the engine's imports
    assert cycles(graph) == []


def test_the_engine_imports_nothing_of_the_corpus_search_web_or_commands():
    assert outside_imports(import_graph()) == []


def test_the_walk_sees_imports_inside_functions_and_names_the_pair(tmp_path):
    """The checks above fail, naming the modules, on a cycle made by an import inside a function and on an
    import of the corpus (a copy of the engine, changed the way a regression would change it)."""
    engine = copy_of_the_engine(tmp_path)
    helpers = engine / "vtes" / "helpers.py"
    text = helpers.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine.vtes import registry\n"
    corpus_line = len(text.splitlines()) + 1
    helpers.write_text(text + "    from judge.corpus import get_corpus\n", encoding="utf-8")
    graph = import_graph(tmp_path)
    found = cycles(graph)
    assert len(found) == 1 and "judge.engine.vtes.helpers imports judge.engine.vtes.registry" in found[0], found
    assert outside_imports(graph) == [f"judge.engine.vtes.helpers imports judge.corpus (line {corpus_line})"]


def test_relative_and_package_imports_are_resolved():
    assert imports("from . import rules\nfrom ..citations import Rule\n", "judge.engine.vtes.core") == [
        ("judge.engine.vtes.rules", 1), ("judge.engine.citations", 2)]
    assert imports("from judge.engine.vtes import rules as R\nfrom judge.engine import limits\nimport judge.corpus\n",
                   "judge.engine.x") == [("judge.engine.vtes.rules", 1), ("judge.engine.limits", 2), ("judge.corpus", 3)]


def test_every_event_has_a_handler_and_every_stage_admits_only_handled_events():
    kinds = {v for v in vars(events).values()
             if isinstance(v, type) and issubclass(v, events.Event) and v is not events.Event}
    assert kinds == set(registry.HANDLERS), kinds ^ set(registry.HANDLERS)
    for stage in stages.STAGES:
        assert stage.admits <= set(registry.HANDLERS), stage.name
        assert stage.admits_during_block_attempt <= set(registry.HANDLERS), stage.name


def test_the_turn_and_the_combat_round_are_tables_in_the_books_order():
    assert tuple(phase.name for phase in phases.TURN) == state.PHASES == (
        "unlock", "master", "minion", "influence", "discard")
    assert tuple(combat.STEPS) == state.COMBAT_STEPS
    assert [s.name for s in stages.STAGES] == ["combat", "chance", "referendum", "action"]  # innermost first


# -- two games on one core --------------------------------------------------------------------------------------
GAMES = {"vtes": ENGINE + ".vtes", "rivals": ENGINE + ".rivals"}
# The machinery both games share: judge/engine's own modules.
SHARED = {f"{ENGINE}.{m}" for m in ("citations", "errors", "expect", "limits", "runs", "scenario", "trace",
                                     "validation", "yamlfile")}
# The only shared module that knows of the games: it hands each scenario to its game's package.
DISPATCH = {f"{ENGINE}.scenario"}


def game_of_module(module: str) -> str | None:
    return next((g for g, package in GAMES.items() if module == package or module.startswith(package + ".")), None)


def layout_problems(graph: nx.DiGraph) -> list[str]:
    """Imports that break the layout: a game's module importing the other game's or a shared module that
    dispatches (which would make a cycle), a shared module other than the dispatcher importing a game's."""
    out = []
    for a, b, data in graph.edges(data=True):
        if not b.startswith(ENGINE + "."):
            continue
        game_a, game_b = game_of_module(a), game_of_module(b)
        at = f"{a} imports {b} (line {data['line']})"
        if game_a and game_b and game_a != game_b:
            out.append(f"{at}, which is {game_b}'s, not shared")
        elif game_a and not game_b and b in DISPATCH:
            out.append(f"{at}, which hands scenarios to the games")
        elif not game_a and game_b and a not in DISPATCH:
            out.append(f"{at}: only {', '.join(sorted(DISPATCH))} hands a scenario to a game")
    return sorted(out)


def copy_of_the_engine(tmp_path: Path) -> Path:
    engine = tmp_path / "judge" / "engine"
    for path in (ROOT / "judge" / "engine").rglob("*.py"):
        target = engine / path.relative_to(ROOT / "judge" / "engine")
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    return engine


def reach_problems(graph: nx.DiGraph) -> list[str]:
    """A game's module whose imports reach the other game's modules through shared ones (a Rivals module importing
    trace, which imports scenario, which imports V:TES): "a reaches b"."""
    out = []
    for a in graph:
        game = game_of_module(a)
        if game is None:
            continue
        other = {m for m in nx.descendants(graph, a) if game_of_module(m) not in (None, game)}
        if other:
            out.append(f"{a} reaches {sorted(other)[0]}")
    return sorted(out)


def test_each_game_stands_on_the_shared_modules_alone():
    """Imports are read from the source: an import done by importlib at run time would not be seen."""
    graph = import_graph()
    modules = {m for m in graph if m.startswith(ENGINE + ".")}
    assert {game_of_module(m) for m in modules} == {"vtes", "rivals", None}  # the walk found both games
    assert {m for m in modules if game_of_module(m) is None} == SHARED  # every other module is a game's
    assert layout_problems(graph) == []
    assert reach_problems(graph) == []


def test_the_reach_check_names_a_game_module_reaching_the_other_game_through_a_shared_one(tmp_path):
    engine = copy_of_the_engine(tmp_path)
    random_play = engine / "rivals" / "randomplay.py"
    random_play.write_text(random_play.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine import "
                           "trace\n", encoding="utf-8")
    found = reach_problems(import_graph(tmp_path))
    assert found and all(p.startswith("judge.engine.rivals.randomplay reaches judge.engine.vtes.") for p in found)


def test_the_layout_check_names_a_game_importing_the_other_and_a_shared_module_importing_a_game(tmp_path):
    engine = copy_of_the_engine(tmp_path)
    play = engine / "rivals" / "play.py"
    text = play.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine.vtes import combat\n"
    play.write_text(text, encoding="utf-8")
    limits = engine / "limits.py"
    shared = limits.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine.vtes import state\n"
    limits.write_text(shared, encoding="utf-8")
    assert layout_problems(import_graph(tmp_path)) == [
        f"judge.engine.limits imports judge.engine.vtes.state (line {len(shared.splitlines())}): only "
        f"judge.engine.scenario hands a scenario to a game",
        f"judge.engine.rivals.play imports judge.engine.vtes.combat (line {len(text.splitlines())}), which is vtes's, "
        f"not shared"]
