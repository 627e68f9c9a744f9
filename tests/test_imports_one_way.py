"""Imports run one way: from the cogs down through the bot's floors to the game, never back up.

The floors, top to bottom: ``cogs`` (Discord commands and views), ``bot.runtime`` (the client and the
composition root; ``bot/__main__.py`` is its entry), ``bot.activity`` (the Activity's web server: a surface
like the cogs, built by the composition root), ``bot.compete`` (dailies, races, challenges),
``bot.play`` (sessions, clicks, pads, deals), ``bot.heavy`` (the worker processes), ``bot.outbox`` (the
stored posts), ``bot.storage`` (all SQL), ``bot.rules`` (the pure rules of competing: modes, days,
ranking), the bot's basics left at its top (errors, background tasks, shards, the invite's permissions,
the version), then ``render`` and ``solitaire``. A module may import its own floor and the floors below
it. The cogs call services and take value types from storage (records, errors), never a storage module
or function (``tests/test_cogs_call_services.py`` holds that).
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
    "bot.storage",
    "bot.rules",
    "bot",
    "render",
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
