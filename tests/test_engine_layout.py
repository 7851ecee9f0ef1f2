"""The engine's layout, read from its source with `ast` (imports inside functions included): no import cycle
among judge/engine's modules, nothing imported from the parts that stand on the engine or on the books (the
corpus, the search, the web, the commands: the engine is given a citation locator instead), and every event
has its handler and its place in the flow."""
from __future__ import annotations

from pathlib import Path

import networkx as nx
from import_walk import ROOT, cycles, imports, module_of

from judge.engine import combat, events, phases, registry, stages, state

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
    engine = tmp_path / "judge" / "engine"
    engine.mkdir(parents=True)
    for path in (ROOT / "judge" / "engine").glob("*.py"):
        (engine / path.name).write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    helpers = engine / "helpers.py"
    text = helpers.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine import registry\n"
    corpus_line = len(text.splitlines()) + 1
    helpers.write_text(text + "    from judge.corpus import get_corpus\n", encoding="utf-8")
    graph = import_graph(tmp_path)
    found = cycles(graph)
    assert len(found) == 1 and "judge.engine.helpers imports judge.engine.registry" in found[0], found
    assert outside_imports(graph) == [f"judge.engine.helpers imports judge.corpus (line {corpus_line})"]


def test_relative_and_package_imports_are_resolved():
    assert imports("from . import rules\nfrom .citations import Rule\n", "judge.engine.core") == [
        ("judge.engine.rules", 1), ("judge.engine.citations", 2)]
    assert imports("from judge.engine import rules as R, limits\nimport judge.corpus\n", "judge.engine.x") == [
        ("judge.engine.rules", 1), ("judge.engine.limits", 1), ("judge.corpus", 2)]


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


# -- the Rivals part (judge/engine/rivals/) -------------------------------------------------------------------
RIVALS = ENGINE + ".rivals"
# The machinery both games share; the Rivals part imports nothing else of judge/engine (not the V:TES rules).
SHARED = {f"{ENGINE}.{m}" for m in ("citations", "errors", "expect", "limits", "runs", "validation", "yamlfile")}
# The only V:TES modules that know of Rivals: they hand a `game: rivals` scenario, its run and its report on.
DISPATCH = {f"{ENGINE}.scenario", f"{ENGINE}.trace"}


def rivals_layout_problems(graph: nx.DiGraph) -> list[str]:
    out = []
    for a, b, data in graph.edges(data=True):
        inside_a, inside_b = a.startswith(RIVALS), b == RIVALS or b.startswith(RIVALS + ".")
        if inside_a and b.startswith(ENGINE + ".") and not inside_b and b not in SHARED:
            out.append(f"{a} imports {b} (line {data['line']}), which is V:TES's, not shared")
        if inside_b and not inside_a and a not in DISPATCH:
            out.append(f"{a} imports {b} (line {data['line']}): only {', '.join(sorted(DISPATCH))} dispatch to Rivals")
    return sorted(out)


def test_the_rivals_part_stands_on_the_shared_machinery_only():
    graph = import_graph()
    assert any(m.startswith(RIVALS + ".") for m in graph)  # the walk found the Rivals part
    assert rivals_layout_problems(graph) == []


def test_the_rivals_check_names_a_rivals_module_importing_a_vtes_rule_module(tmp_path):
    engine = tmp_path / "judge" / "engine"
    (engine / "rivals").mkdir(parents=True)
    for path in (ROOT / "judge" / "engine").rglob("*.py"):
        target = engine / path.relative_to(ROOT / "judge" / "engine")
        target.write_text(path.read_text(encoding="utf-8"), encoding="utf-8")
    play = engine / "rivals" / "play.py"
    text = play.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.engine import combat\n"
    play.write_text(text, encoding="utf-8")
    problems = rivals_layout_problems(import_graph(tmp_path))
    assert problems == [f"judge.engine.rivals.play imports judge.engine.combat (line {len(text.splitlines())}), "
                        f"which is V:TES's, not shared"]
