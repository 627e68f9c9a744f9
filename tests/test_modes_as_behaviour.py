"""Modes are behaviour, not branches: outside ``bot/rules/`` (the modes' package) no code compares a mode with a name.

A question about a kind of game (ranked? hints? is its board private? when does its analysis open?) is asked
of its :class:`bot.rules.modes.GameMode`; a missed string check was a leak. Storage's SQL may still name the
daily mode in its queries of the daily tables; the conditions shared with Python come from :func:`sql_modes`.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from bot.rules.modes import CASUAL, CHALLENGE, DAILY, MODES, RACE, mode_of
from bot.storage.conditions import sql_modes

ROOT = Path(__file__).resolve().parent.parent
SOURCES = sorted(path for folder in ("bot", "cogs") for path in (ROOT / folder).rglob("*.py"))
HOME = ROOT / "bot" / "rules"


def _names_a_mode(node: ast.expr) -> bool:
    """Whether ``node`` is a mode's name, or a tuple, list or set of them."""
    if isinstance(node, ast.Constant):
        return node.value in MODES
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return any(_names_a_mode(element) for element in node.elts)
    return False


def _reads_a_mode(node: ast.expr) -> bool:
    """Whether ``node`` is ``mode`` or ``something.mode``."""
    return (isinstance(node, ast.Name) and node.id == "mode") or (
        isinstance(node, ast.Attribute) and node.attr == "mode"
    )


def mode_comparisons(source: str) -> list[int]:
    """The lines of ``source`` that compare a mode with a mode's name."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
            if any(_reads_a_mode(side) for side in sides) and any(_names_a_mode(side) for side in sides):
                lines.append(node.lineno)
    return lines


def test_the_check_sees_a_mode_string_comparison():
    assert mode_comparisons('if record.mode == "race":\n    pass\n') == [1]
    assert mode_comparisons('ok = mode not in ("daily", "casual")\n') == [1]
    assert mode_comparisons("if mode_of(record.mode) is RACE:\n    pass\n") == []


@pytest.mark.parametrize(
    "path", [path for path in SOURCES if path.parent != HOME], ids=lambda path: str(path.relative_to(ROOT))
)
def test_no_code_outside_the_modes_compares_a_mode_name(path: Path):
    assert mode_comparisons(path.read_text(encoding="utf-8")) == []


def test_each_mode_answers_for_itself():
    assert [mode.name for mode in (CASUAL, DAILY, RACE, CHALLENGE)] == list(MODES)
    assert [mode.name for mode in MODES.values() if mode.on_boards] == ["casual", "daily"]
    assert [mode.name for mode in MODES.values() if mode.event] == ["race", "challenge"]
    assert [mode.name for mode in MODES.values() if not mode.credits_clock] == ["race"]
    assert [mode.name for mode in MODES.values() if mode.hints] == ["casual"]
    assert all(mode.private_board == (mode is not CASUAL) for mode in MODES.values())
    assert all((mode.opens_when is None) == (mode is CASUAL) for mode in MODES.values())
    assert sql_modes(lambda mode: mode.event) == "mode IN ('race', 'challenge')"
    with pytest.raises(ValueError, match="unknown game mode 'practice'"):
        mode_of("practice")
