"""Variants are behaviour, not branches: a family lives in its own modules and is registered once.

What a new game needs (``docs/variants.md``):

* a variant of a known family: one :class:`~solitaire.variants.Rules` entry in ``VARIANTS`` (plus sample
  seeds in ``render/samples.py`` for its pictures);
* a new family: its :class:`~solitaire.game.Game` subclass (board, notation, view pieces, words, texts)
  registered in ``solitaire.games.ENGINES``, and one entry in each layer's table below it (solver search and
  position, rendered table, greedy sample player, button pad).

The AST test below holds the rest of the code to that: outside the allow-listed family and registry modules,
nothing names a family member, imports a family module, spells a variant name or mentions a family by name.
"""

from __future__ import annotations

import ast
import inspect
import re
from pathlib import Path

import pytest

from bot.play.pads import PADS, Pad
from bot.play.rules_text import rules_text as bot_rules_text
from cogs.board import board_buttons
from render import render_board
from render.board import _LAYOUTS
from render.samples import PRIORITIES, SEEDS, STUCK_SEEDS, WON_SEEDS
from solitaire import VARIANTS, Family, Rules, new_game, view_of
from solitaire.alt_text import describe_board
from solitaire.game import Game
from solitaire.games import ENGINES
from solitaire.guide import help_text, rules_text, stock_rule
from solitaire.hint import hint_for
from solitaire.knowledge import knowledge_of
from solitaire.solver import SEARCHES, solve
from solitaire.solver.position import POSITIONS
from solitaire.textboard import draw_board
from solitaire.variants import variant_menu

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("solitaire", "render", "bot", "cogs")
ALLOWED = {
    "solitaire/variants.py": "the variant registry: each variant's Rules, by name",
    "solitaire/klondike.py": "the Klondike family (draw 1, draw 3, Gold Rush)",
    "solitaire/friday13.py": "the Friday 13 family",
    "solitaire/games.py": "ENGINES: registers each family's game class",
    "solitaire/moves.py": "the public notation names every family's places (FOUNDATION_SOURCES, FRIDAY13_LABELS)",
    "solitaire/scoring.py": "the points of every family in one table (FRIDAY13_CARD_POINTS beside REVEAL_POINTS)",
    "solitaire/solver/": "one search per family (solver/klondike/, solver/friday13.py), registered in "
    "SEARCHES and POSITIONS",
    "render/board.py": "each family's table drawing, registered in _LAYOUTS",
    "render/samples.py": "sample seeds per variant and the greedy player's ranking per family (PRIORITIES)",
    "bot/play/pads.py": "each family's board buttons, registered in PADS",
}
FAMILY_MODULES = {"solitaire.klondike", "solitaire.friday13", "solitaire.solver.klondike", "solitaire.solver.friday13"}
FAMILY_WORDS = re.compile(r"klondike|friday|gold_?rush", re.IGNORECASE)


def _modules() -> list[Path]:
    return sorted(path for layer in LAYERS for path in (ROOT / layer).rglob("*.py"))


def _allowed(path: Path) -> bool:
    name = path.relative_to(ROOT).as_posix()
    return any(name == allowed or (allowed.endswith("/") and name.startswith(allowed)) for allowed in ALLOWED)


def _docstrings(tree: ast.AST) -> set[int]:
    """ids of the string constants that are docstrings (examples there may name variants)."""
    found = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list):
            for statement in body:
                if isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant):
                    found.add(id(statement.value))
    return found


def _branches(path: Path, root: Path = ROOT) -> list[str]:
    """Every place in ``path`` that asks which variant or family it holds."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    docs, found = _docstrings(tree), []
    for node in ast.walk(tree):
        where = f"{path.relative_to(root)}:{getattr(node, 'lineno', '?')}"
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Family":
            found.append(f"{where} Family.{node.attr}")
        elif isinstance(node, ast.ImportFrom) and node.module in FAMILY_MODULES:
            found.append(f"{where} imports {node.module}")
        elif isinstance(node, ast.Constant) and id(node) not in docs and node.value in VARIANTS:
            found.append(f"{where} spells the variant {node.value!r}")
        elif isinstance(node, ast.Name | ast.alias | ast.FunctionDef | ast.ClassDef):
            name = node.id if isinstance(node, ast.Name) else node.name
            if FAMILY_WORDS.search(name):
                found.append(f"{where} names {name}")
    return found


def test_no_module_outside_the_family_and_registry_modules_branches_on_the_variant():
    modules = [path for path in _modules() if not _allowed(path)]
    assert len(modules) > 50  # the check reads the whole code base, not an empty list
    branches = [branch for path in modules for branch in _branches(path)]
    assert branches == []


def test_the_check_finds_a_branch_on_the_family(tmp_path):
    sample = tmp_path / "sample.py"
    sample.write_text(
        "from solitaire.klondike import KlondikeGame\n"
        "def f(view, game):\n"
        "    if view.family is Family.FRIDAY13 or view.variant == 'goldrush':\n"
        "        return isinstance(game, KlondikeGame)\n"
    )
    found = _branches(sample, tmp_path)
    assert len(found) == 5, found  # the import, Family.FRIDAY13, 'goldrush', KlondikeGame twice


@pytest.mark.parametrize("family", list(Family))
def test_every_family_is_registered_in_every_layer(family):
    engine = ENGINES[family]
    assert engine.family is family and not inspect.isabstract(engine)
    assert engine.notation_help and engine.goal and engine.scoring_text.startswith("Scoring:")
    assert engine.bonus_total in (48, 52)
    assert family in SEARCHES and family in POSITIONS and family in _LAYOUTS and family in PRIORITIES
    assert isinstance(PADS[family], Pad) and not inspect.isabstract(type(PADS[family]))


@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_every_variant_provides_every_piece(variant):
    rules = VARIANTS[variant]
    assert variant in SEEDS and variant in WON_SEEDS and variant in STUCK_SEEDS
    assert (rules.menu_name or rules.title, variant) in variant_menu()
    assert stock_rule(rules) and rules.title in rules_text(rules) and rules.title in help_text(rules)
    assert rules.title in bot_rules_text(variant)


RUSH_DRAW2 = Rules(
    name="draw2",
    title="Solitaire Rush (draw 2)",
    family=Family.KLONDIKE,
    draw_counts=(2,),
    max_passes=None,
    free_recycles=1,
    recycle_penalty=50,
    stuck_when_only_futile_draws=True,
)


def test_a_fifth_game_of_a_known_family_is_one_registration(monkeypatch):
    monkeypatch.setitem(VARIANTS, RUSH_DRAW2.name, RUSH_DRAW2)
    game = new_game("draw2", seed=4)
    game.play("draw")
    view = view_of(game)
    assert len(view.waste_fan) == 2 and view.draw_count == 2
    assert "Draw turns 2 cards; the stock can be turned over without limit, -50 from the second time on." in (
        " ".join(rules_text(RUSH_DRAW2).split())  # wrapped to the terminal's width
    )
    assert "\u221250 from the second time on" in bot_rules_text("draw2")
    assert "draw 2" in draw_board(view) and describe_board(view).startswith("Solitaire Rush (draw 2), playing")
    assert render_board(view).startswith(b"\x89PNG")
    assert len(board_buttons(1, game.version, view, None).children) == 17  # 7 piles, 3 + 4 suits, up, choose, end
    hint = hint_for(knowledge_of(game), number=1, samples=2, max_nodes=500)
    assert hint.move in [str(move) for move in view.legal_moves]
    assert solve(RUSH_DRAW2, game.deck, max_nodes=2_000).nodes > 0


def test_a_game_class_declares_everything_a_family_provides():
    provided = {name for name, value in vars(Game).items() if getattr(value, "__isabstractmethod__", False)}
    assert {"view_piles", "view_foundations", "describe_play", "parse_play", "move_help"} <= provided
    assert {"text_foundations", "foundation_words", "draw_count", "legal_moves"} <= provided
