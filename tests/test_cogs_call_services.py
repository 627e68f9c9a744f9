"""Cogs call services and use value types: no cog imports a storage module, a storage function or the database.

All SQL lives in ``bot/storage``, and the services of ``bot/`` call it. A cog may import a storage module's
value types (records such as ``GameRecord``, exceptions such as ``StorageError``, enums, type aliases and
constants), never a storage module, one of its functions, a handle on the database (``Database``,
``StoredDeals``), nor reach for the bot's ``db``.
"""

from __future__ import annotations

import ast
import dataclasses
import enum
import importlib
import inspect
import typing
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
COGS = sorted((ROOT / "cogs").glob("*.py"))
STORAGE = "bot.storage"


def _is_storage(module: str) -> bool:
    """Whether ``module`` is the storage package or one of its modules."""
    return module == STORAGE or module.startswith(f"{STORAGE}.")


def is_value_type(module: str, name: str) -> bool:
    """Whether ``module.name`` is a value (a record, an exception, an enum, a type alias, a constant)."""
    if not name[:1].isupper():
        return False
    value = getattr(importlib.import_module(module), name)
    if inspect.isclass(value):
        return issubclass(value, BaseException | enum.Enum | tuple) or dataclasses.is_dataclass(value)
    if typing.get_origin(value) is not None:
        return True
    return not callable(value) and not inspect.ismodule(value)


def storage_uses(source: str) -> list[str]:
    """What ``source`` takes from storage other than value types, and where it reaches the database: ``line: what``."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [f"{node.lineno}: import {alias.name}" for alias in node.names if _is_storage(alias.name)]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            if node.module == "bot":
                names = [alias.name for alias in node.names if alias.name == "storage"]
            elif _is_storage(node.module):
                names = [alias.name for alias in node.names if not is_value_type(node.module, alias.name)]
            else:
                names = []
            found += [f"{node.lineno}: from {node.module} import {name}" for name in names]
        elif isinstance(node, ast.Attribute) and node.attr == "db":
            found.append(f"{node.lineno}: .db")
    return found


def test_the_check_sees_storage_modules_functions_and_the_database():
    source = (
        "import bot.storage.games\n"
        "from bot import storage\n"
        "from bot.storage import games as games_db\n"
        "from bot.storage.games import get_game\n"
        "from bot.storage import Database\n"
        "from bot.storage.deals import StoredDeals\n"
        "record = self.bot.db\n"
    )
    assert storage_uses(source) == [
        "1: import bot.storage.games",
        "2: from bot import storage",
        "3: from bot.storage import games",
        "4: from bot.storage.games import get_game",
        "5: from bot.storage import Database",
        "6: from bot.storage.deals import StoredDeals",
        "7: .db",
    ]


def test_the_check_lets_value_types_through():
    source = (
        "from bot.storage import StorageError\n"
        "from bot.storage.games import GameRecord, Mode\n"
        "from bot.storage.privacy import Forgotten, StillInPlayError\n"
        "from bot.storage.onboarding import FIRST_BOARD\n"
    )
    assert storage_uses(source) == []


@pytest.mark.parametrize("path", COGS, ids=lambda path: path.name)
def test_the_cog_calls_services_never_storage(path: Path):
    assert storage_uses(path.read_text(encoding="utf-8")) == []
