"""The cogs import one another without a circle, late imports inside functions included."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parents[2] / "cogs"


def imported_cogs(path: Path) -> set[str]:
    """The ``cogs.*`` modules that ``path`` imports anywhere in its code."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        elif isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        else:
            continue
        found |= {name for name in names if name.startswith("cogs.") and (COGS / f"{name[5:]}.py").exists()}
    return found


def test_the_cogs_import_no_circle():
    graph = {f"cogs.{path.stem}": imported_cogs(path) for path in COGS.glob("*.py")}
    visiting: list[str] = []
    done: set[str] = set()

    def visit(module: str) -> None:
        assert module not in visiting, " -> ".join([*visiting[visiting.index(module) :], module])
        if module in done:
            return
        visiting.append(module)
        for imported in sorted(graph.get(module, ())):
            visit(imported)
        visiting.pop()
        done.add(module)

    for module in sorted(graph):
        visit(module)
