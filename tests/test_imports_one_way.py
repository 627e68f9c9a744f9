"""Imports run one way: from the cogs down through the bot's floors to the game, never back up.

The floors, top to bottom: ``cogs`` (Discord commands and views), ``bot.runtime`` (the client and the
composition root; ``bot/__main__.py`` is its entry), ``bot.activity`` (the Activity's web server: a surface
like the cogs, built by the composition root), ``bot.compete`` (dailies, races, challenges),
``bot.play`` (sessions, clicks, pads, deals), ``bot.heavy`` (the worker processes), ``bot.outbox`` (the
stored posts), ``bot.speakers`` (who reads which language), ``bot.storage`` (all SQL), ``bot.rules`` (the
pure rules of competing: modes, days, ranking), the bot's basics left at its top (errors, background tasks,
shards, the invite's permissions, the version), then ``render``, ``languages`` (the catalogues) and
``solitaire``. A module may import its own floor and the floors below it. The cogs call services and take
value types from storage (records, errors), never a storage module or function
(``tests/test_cogs_call_services.py`` holds that). Within the game core (``solitaire``) the modules import one
another in one direction too: no circle, not even through an import made only for type checking.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
FLOORS = (
    "cogs",
    "bot.runtime",
    "bot.activity",
    "bot.compete",
    "bot.play",
    "bot.heavy",
    "bot.outbox",
    "bot.speakers",
    "bot.storage",
    "bot.rules",
    "bot",
    "render",
    "languages",
    "solitaire",
)
"""Top to bottom; ``bot`` is the basics left at the package's top (errors, background, shards, ...)."""
ENTRY = "bot.__main__"
"""``python -m bot``: the runtime's entry, on the runtime's floor."""
BASICS = [
    "__init__.py",
    "__main__.py",
    "background.py",
    "coalesce.py",
    "errors.py",
    "invite.py",
    "shards.py",
    "speakers.py",
    "version.py",
]
SOURCES = sorted(path for folder in ("bot", "cogs") for path in (ROOT / folder).rglob("*.py"))


def module_name(path: Path) -> str:
    """The dotted name of a source file (a package by its folder)."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def floor_of(module: str) -> int:
    """The floor of a module of this house (0 is the top)."""
    if module == ENTRY:
        return FLOORS.index("bot.runtime")
    for index, floor in enumerate(FLOORS):
        if module == floor or module.startswith(floor + "."):
            return index
    raise ValueError(f"{module} stands on no floor")


def imported(source: str, package: str) -> list[tuple[int, str, list[str]]]:
    """Every import of this house's modules in ``source`` of ``package``: (line, module, the names taken)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            module = node.module or ""
            if node.level:
                parent = package.split(".")[: len(package.split(".")) - node.level + 1]
                module = ".".join([*parent, module]).strip(".")
            found.append((node.lineno, module, [alias.name for alias in node.names]))
    return [(line, module, names) for line, module, names in found if module.split(".")[0] in FLOORS]


def import_graph(files: dict[str, str]) -> dict[str, set[str]]:
    """Which of the modules ``files`` (name to source) each one imports, wherever the import stands."""
    graph: dict[str, set[str]] = {}
    for own, source in files.items():
        is_package = any(name.startswith(own + ".") for name in files)
        package = own if is_package else own.rpartition(".")[0]
        names = {module for _, module, _ in imported(source, package)}
        names |= {f"{module}.{name}" for _, module, taken in imported(source, package) for name in taken}
        graph[own] = {name for name in names if name in files and name != own}
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of ``graph``: each group of modules that reach one another, sorted."""
    found: list[list[str]] = []
    placed: set[str] = set()
    for start in sorted(graph):
        if start in placed:
            continue
        ahead = _reach(graph, start)
        group = sorted(module for module in ahead if start in _reach(graph, module))
        if start in ahead:
            found.append(group)
            placed.update(group)
    return found


def _reach(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module ``start`` imports, directly or through others."""
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += graph[module]
    return seen


def upward_imports(source: str, own: str, *, package: bool = False) -> list[str]:
    """The imports in ``source`` of module ``own`` that reach a floor above its own."""
    wrong = []
    for line, module, names in imported(source, own if package else own.rpartition(".")[0]):
        targets = [f"bot.{name}" for name in names] if module == "bot" else [module]  # `from bot import errors`
        wrong += [f"line {line}: {own} imports {target}" for target in targets if floor_of(target) < floor_of(own)]
    return wrong


def test_the_floors_stand_in_order():
    assert floor_of("bot.storage.games") > floor_of("bot.play.sessions") > floor_of("bot.compete.daily")
    assert floor_of("bot.errors") > floor_of("bot.rules.visibility") > floor_of("bot.storage")
    assert floor_of(ENTRY) == floor_of("bot.runtime.client")


def test_the_check_sees_an_import_that_runs_up():
    source = "from bot.play.sessions import Session\nfrom bot import errors\nfrom ..play import pads\n"
    assert upward_imports(source, "bot.storage.games") == [
        "line 1: bot.storage.games imports bot.play.sessions",
        "line 3: bot.storage.games imports bot.play",
    ]


@pytest.mark.parametrize("path", SOURCES, ids=lambda path: str(path.relative_to(ROOT)))
def test_every_import_runs_down(path: Path):
    source = path.read_text(encoding="utf-8")
    assert upward_imports(source, module_name(path), package=path.name == "__init__.py") == []


def test_the_bot_keeps_only_its_basics_at_its_top():
    assert sorted(path.name for path in (ROOT / "bot").glob("*.py")) == BASICS


def test_the_circle_check_sees_a_circle_through_a_type_only_import():
    files = {
        "solitaire.game": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from solitaire.view import V\n",
        "solitaire.view": "from solitaire.game import Game\n",
        "solitaire.cards": "",
    }
    assert circles(import_graph(files)) == [["solitaire.game", "solitaire.view"]]


def test_the_game_core_imports_in_one_direction():
    paths = sorted((ROOT / "solitaire").rglob("*.py"))
    graph = import_graph({module_name(path): path.read_text(encoding="utf-8") for path in paths})
    assert circles(graph) == []
