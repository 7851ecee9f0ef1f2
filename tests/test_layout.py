"""judge's layout, read from its source with `ast` (imports inside functions and under TYPE_CHECKING
included): the stages below (README's layout table), each importing only from itself and the stages before it, no import
cycle anywhere inside judge/, and a top level a newcomer can take in (each module saying its job)."""
from __future__ import annotations

import ast
import shutil
from pathlib import Path

import networkx as nx
from import_walk import ROOT, cycles, imports, module_of

# The stages, earliest first; a module belongs to the first entry naming it or a package holding it.
STAGES = (
    ("foundations", ("judge", "judge.errors", "judge.paths", "judge.memo", "judge.datafile", "judge.cachefile")),
    ("model", ("judge.model",)),
    ("ingest", ("judge.ingest",)),
    ("corpus", ("judge.xref", "judge.corpus", "judge.lookup", "judge.served")),
    ("services", ("judge.compare", "judge.graph", "judge.search", "judge.lint", "judge.engine", "judge.cards")),
    ("shapes", ("judge.shapes",)),
    ("front ends", ("judge.commands", "judge.web")),
    ("entry", ("judge.cli",)),
)
TOP_LEVEL_MODULES_AT_MOST = 14  # "about a dozen": past it, a new module belongs in a package


def stage_of(module: str) -> int | None:
    best = None
    for number, (_, names) in enumerate(STAGES):
        for name in names:
            if (module == name or (name != "judge" and module.startswith(name + "."))) and (
                    best is None or len(name) > len(best[1])):
                best = (number, name)
    return best[0] if best else None


def judge_graph(root: Path = ROOT) -> nx.DiGraph:
    """judge's modules under `root` (a checkout) and the judge modules each imports (edges carry the line).
    Importing judge.p.x from outside the package p runs judge/p/__init__.py first: that counts as importing
    judge.p too (from inside p, p is already being imported)."""
    graph = nx.DiGraph()
    for path in sorted((root / "judge").rglob("*.py")):
        module = module_of(path, root)
        graph.add_node(module)
        for target, line in imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", root):
            if target.split(".")[0] != "judge":
                continue
            parts = target.split(".")
            targets = [target] + [".".join(parts[:n]) for n in range(2, len(parts))
                                  if not (module + ".").startswith(".".join(parts[:n]) + ".")]
            for t in targets:
                if t != module and not graph.has_edge(module, t):
                    graph.add_edge(module, t, line=line)
    return graph


def backward_imports(graph: nx.DiGraph) -> list[str]:
    """Each import from a stage to a later one, as "a (stage) imports b (later stage) (line n)"."""
    out = []
    for a, b, data in graph.edges(data=True):
        if stage_of(a) is not None and stage_of(b) is not None and stage_of(b) > stage_of(a):
            out.append(f"{a} ({STAGES[stage_of(a)][0]}) imports {b} ({STAGES[stage_of(b)][0]}) "
                       f"(line {data['line']})")
    return sorted(out)


def test_every_module_of_judge_has_a_stage():
    graph = judge_graph()
    assert graph.number_of_nodes() > 80 and graph.number_of_edges() > 300  # the walk found judge
    assert [m for m in graph if stage_of(m) is None] == []


def test_no_import_cycle_inside_judge():
    assert cycles(judge_graph()) == []


def test_no_import_goes_from_a_stage_to_a_later_one():
    assert backward_imports(judge_graph()) == []


def test_the_checks_name_the_pair_on_a_backward_import_and_on_a_cycle(tmp_path):
    """A copy of judge, changed the way a regression would change it: the corpus importing a command's helper
    inside a function, and the model importing the corpus, which imports the model."""
    shutil.copytree(ROOT / "judge", tmp_path / "judge", ignore=shutil.ignore_patterns("*.so", "__pycache__"))
    corpus = tmp_path / "judge" / "corpus.py"
    text = corpus.read_text(encoding="utf-8") + "\n\ndef _later():\n    from judge.commands.shared import load\n"
    corpus.write_text(text, encoding="utf-8")
    model = tmp_path / "judge" / "model.py"
    model.write_text(model.read_text(encoding="utf-8") + "\n\ndef _again():\n    import judge.corpus\n",
                     encoding="utf-8")
    graph = judge_graph(tmp_path)
    backward = backward_imports(graph)
    assert (f"judge.corpus (corpus) imports judge.commands.shared (front ends) (line {len(text.splitlines())})"
            in backward)
    assert any(line.startswith("judge.model (model) imports judge.corpus (corpus)") for line in backward)
    assert any("judge.corpus" in c and "judge.model" in c for c in cycles(graph))


def test_the_top_level_is_a_short_list_of_modules_each_saying_its_job():
    modules = sorted(p for p in (ROOT / "judge").glob("*.py") if p.name != "__init__.py")
    assert len(modules) <= TOP_LEVEL_MODULES_AT_MOST, [p.name for p in modules]
    for path in modules:
        doc = ast.get_docstring(ast.parse(path.read_text(encoding="utf-8")))
        assert doc and doc.splitlines()[0].strip().endswith((".", ":")), path.name


def test_the_readme_layout_table_names_every_top_level_module_and_package():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = readme[readme.index("| `judge/"):]
    for path in sorted((ROOT / "judge").iterdir()):
        if path.name.startswith(("_", ".")) or path.name in ("data",) or path.suffix not in (".py", ""):
            continue
        if path.is_dir() and not (path / "__init__.py").is_file():
            continue
        name = f"`judge/{path.name}/`" if path.is_dir() else f"`judge/{path.name}`"
        assert name in table, f"README's layout table does not name {name}"
