"""bot/compete/ holds the competitions' rules only: no SQL text (it lives in bot/storage/), no ``eval``,
and Discord markup in its words module alone."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
COMPETE = ROOT / "bot" / "compete"
WORDS = COMPETE / "words.py"
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


def compete_modules() -> list[Path]:
    modules = sorted(COMPETE.glob("*.py"))
    assert WORDS in modules, "bot/compete/ holds the competitions' rules and their words"
    return modules


def test_no_module_of_the_bot_or_the_cogs_evaluates_code() -> None:
    calls = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("bot", "cogs")
        for path in sorted((ROOT / folder).rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in {"eval", "exec"}
    ]
    assert calls == []


def test_the_competition_rules_write_no_sql() -> None:
    found = [f"{path.name}: {text!r}" for path in compete_modules() for text in code_strings(path) if SQL.search(text)]
    assert found == []


def test_only_the_words_module_writes_discord_markup() -> None:
    found = [
        f"{path.name}: {text!r}"
        for path in compete_modules()
        if path != WORDS
        for text in code_strings(path)
        if MARKUP.search(text)
    ]
    assert found == []
    assert any(MARKUP.search(text) for text in code_strings(WORDS))
