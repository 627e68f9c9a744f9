"""The ``analyze`` and ``hint`` subcommands of ``python -m solitaire`` (public contracts)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from typing import TextIO

from solitaire.analysis import DEFAULT_BUDGET_MS, analyze
from solitaire.game import Game
from solitaire.games import new_game
from solitaire.hint import DEFAULT_SAMPLES, hint_for
from solitaire.view import view_of

Handler = Callable[[argparse.Namespace, TextIO], int]


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser], deal_args: Callable[..., None]) -> None:
    """Add ``analyze`` and ``hint`` to the subcommand parsers (``deal_args`` adds --variant/--seed/--deck)."""
    analyze_parser = sub.add_parser("analyze", help="where a game was lost, with a winning line from there")
    deal_args(analyze_parser)
    analyze_parser.add_argument("--moves", default="", help="the game's moves, undos included")
    analyze_parser.add_argument("--budget-ms", type=float, default=DEFAULT_BUDGET_MS, help="solving time per position")
    analyze_parser.add_argument("--max-nodes", type=int, default=None, help="positions searched per solve at most")
    analyze_parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")
    hint_parser = sub.add_parser("hint", help="suggest one move from what the player can see")
    deal_args(hint_parser)
    hint_parser.add_argument("--moves", default="", help="the moves played so far")
    hint_parser.add_argument("--rng", type=int, default=0, help="salt for sampling the hidden cards")
    hint_parser.add_argument("--number", type=int, default=1, help="which hint of the game this is (from 1)")
    hint_parser.add_argument("--samples", type=int, default=DEFAULT_SAMPLES, help="hidden-card samples solved")
    hint_parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")


def _analyze(args: argparse.Namespace, out: TextIO) -> int:
    game = new_game(args.variant, seed=args.seed, deck=args.deck)
    result = analyze(game.rules, game.deck, args.moves.split(), budget_ms=args.budget_ms, max_nodes=args.max_nodes)
    out.write(json.dumps(result.to_dict()) + "\n")
    return 0


def _hint(args: argparse.Namespace, out: TextIO) -> int:
    game = new_game(args.variant, seed=args.seed, deck=args.deck)
    for text in args.moves.split():
        game.play(text)
    result = hint_for(view_of(game), number=args.number, salt=args.rng, samples=args.samples)
    out.write(json.dumps(result.to_dict()) + "\n")
    return 0


def terminal_hint(game: Game, *, seconds: float, out: TextIO) -> None:
    """Suggest a move in ``play`` and charge it through the engine (nothing is charged without a move)."""
    hint = hint_for(view_of(game), number=game.hints + 1)
    if hint.move is None:
        out.write("no hint: no move I tried wins from what you can see (nothing charged)\n")
        return
    game.play("hint", seconds=seconds)
    out.write(f"hint: {hint.move} (won {hint.wins} of {hint.samples} samples; -50 points)\n")


COMMANDS: dict[str, Handler] = {"analyze": _analyze, "hint": _hint}
