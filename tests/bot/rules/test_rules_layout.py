"""The rules of competing (bot/rules/) are pure: no SQL text (all SQL lives in bot/storage/), no Discord
markup (the competitions' words are bot/compete/words.py), and no module of the bot evaluates code."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RULES = ROOT / "bot" / "rules"
WORDS = ROOT / "bot" / "compete" / "words.py"
SQL = re.compile(r"\b(SELECT|INSERT|UPDATE|DELETE|ORDER BY|WHERE|DESC|ASC)\b")
MARKUP = re.compile(r"<@|<t:|\*\*|__")


def code_strings(path: Path) -> list[str]:
    """The string constants of a module's code (docstrings left out: they may quote anything)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    return [
        node.value
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
    ]


def outside_storage() -> list[Path]:
    """Every module of the bot but its storage."""
    return [path for path in sorted((ROOT / "bot").rglob("*.py")) if "storage" not in path.parts]


def test_no_module_of_the_bot_or_the_cogs_evaluates_code() -> None:
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"eval", "exec"}
    ]
    assert calls == []


def test_no_module_outside_storage_writes_sql() -> None:
    found = [f"{path.name}: {text!r}" for path in outside_storage() for text in code_strings(path) if SQL.search(text)]
    assert found == []


def test_the_rules_write_no_discord_markup_and_the_words_do() -> None:
    found = [
        f"{path.name}: {text!r}"
        for path in sorted(RULES.glob("*.py"))
        for text in code_strings(path)
        if MARKUP.search(text)
    ]
    assert found == []
    assert any(MARKUP.search(text) for text in code_strings(WORDS))
