"""Imports read from judge's source with `ast` (imports inside functions included), for the layout tests."""
from __future__ import annotations

import ast
from pathlib import Path

import networkx as nx

import judge

ROOT = Path(judge.__file__).resolve().parent.parent


def _is_module(name: str, root: Path) -> bool:
    path = root.joinpath(*name.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def module_of(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(source: str, module: str, is_package: bool = False, root: Path = ROOT) -> list[tuple[str, int]]:
    """(module imported, line) for every import in `source`, wherever it stands: `from a import b` counts as
    importing the module a.b when there is one, else a; relative imports are made absolute."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(alias.name, node.lineno) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module if is_package else module.rpartition(".")[0]
                for _ in range(node.level - 1):
                    package = package.rpartition(".")[0]
                base = f"{package}.{base}" if base else package
            for alias in node.names:
                candidate = f"{base}.{alias.name}"
                found.append((candidate if _is_module(candidate, root) else base, node.lineno))
    return found


def cycles(graph: nx.DiGraph) -> list[str]:
    """Each group of modules that import each other (directly or through others), with one loop through it
    spelled out: "a imports b (line n), b imports a (line m)"."""
    out = []
    for group in nx.strongly_connected_components(graph):
        if len(group) < 2:
            continue
        loop = nx.find_cycle(graph.subgraph(group))
        steps = ", ".join(f"{a} imports {b} (line {graph.edges[a, b]['line']})" for a, b in loop)
        out.append(f"{', '.join(sorted(group))} import each other; for one: {steps}")
    return out
