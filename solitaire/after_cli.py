"""The ``analyze`` and ``hint`` subcommands of ``python -m solitaire`` (public contracts)."""

from __future__ import annotations

import argparse
import json
from typing import TextIO

from solitaire.analysis import DEFAULT_BUDGET_MS, analyze
from solitaire.game import Game
from solitaire.games import new_game
from solitaire.hint import DEFAULT_SAMPLES, hint_for
from solitaire.knowledge import knowledge_of
from solitaire.scoring import HINT_PENALTY


def analyze_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``analyze``'s own arguments (the deal's are declared by the caller)."""
    parser.add_argument("--moves", default="", help="the game's moves, undos included")
    parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="solving time per position")
    parser.add_argument("--max-nodes", type=int, default=None, help="positions searched per solve at most")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")


def hint_arguments(parser: argparse.ArgumentParser) -> None:
    """Declare ``hint``'s own arguments (the deal's are declared by the caller)."""
    parser.add_argument("--moves", default="", help="the moves played so far")
    parser.add_argument("--rng", type=int, default=0, help="salt for sampling the hidden cards")
    parser.add_argument("--number", type=int, default=1, help="which hint of the game this is (from 1)")
    parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="hidden-card samples solved")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")


def run_analyze(args: argparse.Namespace, out: TextIO) -> int:
    """Print where the game was lost, as one JSON object."""
    game = new_game(args.variant, seed=args.seed, deck=args.deck)
    result = analyze(game.rules, game.deck, args.moves.split(), budget_ms=args.budget_ms, max_nodes=args.max_nodes)
    out.write(json.dumps(result.to_dict()) + "\n")
    return 0


def run_hint(args: argparse.Namespace, out: TextIO) -> int:
    """Print a fair hint for the position after ``--moves``, as one JSON object."""
    game = new_game(args.variant, seed=args.seed, deck=args.deck)
    for text in args.moves.split():
        game.play(text)
    result = hint_for(knowledge_of(game), number=args.number, salt=args.rng, samples=args.samples)
    out.write(json.dumps(result.to_dict()) + "\n")
    return 0


def terminal_hint(game: Game, *, seconds: float, out: TextIO) -> None:
    """Suggest a move in ``play`` and charge it through the engine (nothing is charged without a move)."""
    hint = hint_for(knowledge_of(game), number=game.hints + 1)
    if hint.move is None:
        out.write(f"no hint: {hint.why} (nothing charged)\n")
        return
    game.play("hint", seconds=seconds)
    charged = f"-{HINT_PENALTY} points: score {game.score}"
    out.write(f"hint: {hint.move} ({hint.why}; {charged})\n")
