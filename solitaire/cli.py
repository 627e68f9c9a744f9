"""``python -m solitaire``: replay, deal and play from the command line (a public contract)."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any, TextIO

from solitaire import after_cli
from solitaire.cards import format_deck
from solitaire.errors import SolitaireError
from solitaire.game import Game
from solitaire.games import new_game
from solitaire.solver import solve
from solitaire.textboard import LEGEND, draw_board
from solitaire.variants import VARIANTS
from solitaire.view import view_of

Command = Callable[[argparse.Namespace, TextIO], int]
_COMMANDS: dict[str, Command] = {}


def command(name: str) -> Callable[[Command], Command]:
    """Register a subcommand handler under ``name``."""

    def register(handler: Command) -> Command:
        _COMMANDS[name] = handler
        return handler

    return register


def build_parser() -> argparse.ArgumentParser:
    """Return the argument parser for every subcommand."""
    parser = argparse.ArgumentParser(prog="python -m solitaire", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    replay = sub.add_parser("replay", help="apply moves to a deal and print the result")
    _add_deal_arguments(replay)
    replay.add_argument("--moves", default="", help='space-separated moves, e.g. "draw 3-5 w-f"')
    replay.add_argument("--seconds", type=float, default=0, help="clock reading for every move (0..300)")
    replay.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")
    deal = sub.add_parser("deal", help="print a seeded deck")
    deal.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    deal.add_argument("--seed", type=int, required=True)
    play = sub.add_parser("play", help="play in the terminal")
    play.add_argument("variant", choices=sorted(VARIANTS))
    play.add_argument("--seed", type=int, default=None)
    solve = sub.add_parser("solve", help="solve a deal (every card known) and print the solution")
    _add_deal_arguments(solve)
    solve.add_argument("--budget-ms", type=float, default=None, help="give up after this many milliseconds")
    solve.add_argument("--max-nodes", type=int, default=None, help="give up after this many positions")
    solve.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")
    after_cli.add_parsers(sub, _add_deal_arguments)
    return parser


def _add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, choices=sorted(VARIANTS))
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int)
    source.add_argument("--deck", help="52 cards in notation, first dealt first")


def game_from_args(args: argparse.Namespace) -> Game:
    """Start the game named by ``--variant`` and ``--seed``/``--deck``."""
    return new_game(args.variant, seed=args.seed, deck=args.deck)


def replay_result(game: Game, moves: Sequence[str], seconds: float) -> dict[str, Any]:
    """Apply ``moves`` until one is refused; return the replay's JSON object."""
    error: dict[str, Any] | None = None
    applied = 0
    for index, text in enumerate(moves):
        try:
            game.play(text, seconds=seconds)
        except SolitaireError as refusal:
            error = {"index": index, "move": text, "message": str(refusal)}
            break
        applied += 1
    view = view_of(game)
    return {
        "variant": game.rules.name,
        "status": game.status.value,
        "score": game.score,
        "score_sheet": game.sheet.to_dict(),
        "foundation_count": game.placed_count(),
        "moves_applied": applied,
        "error": error,
        "board": view.to_dict(),
    }


@command("replay")
def _replay(args: argparse.Namespace, out: TextIO) -> int:
    game = game_from_args(args)
    result = replay_result(game, args.moves.split(), args.seconds)
    out.write(json.dumps(result) + "\n")
    return 0


@command("deal")
def _deal(args: argparse.Namespace, out: TextIO) -> int:
    out.write(format_deck(new_game(args.variant, seed=args.seed).deck) + "\n")
    return 0


@command("play")
def _play(args: argparse.Namespace, out: TextIO) -> int:
    seed = args.seed if args.seed is not None else int.from_bytes(os.urandom(4), "big")
    game = new_game(args.variant, seed=seed)
    out.write(f"{game.rules.title}, deal {seed}. Type help for commands.\n")
    return play_loop(game, sys.stdin, out)


@command("solve")
def _solve(args: argparse.Namespace, out: TextIO) -> int:
    game = game_from_args(args)
    result = solve(game.rules, game.deck, budget_ms=args.budget_ms, max_nodes=args.max_nodes)
    answer = {"result": result.result, "moves": list(result.moves), "nodes": result.nodes, "ms": round(result.ms, 3)}
    out.write(json.dumps(answer) + "\n")
    return 0


HELP = """commands:
  draw (or d)     turn cards from the stock (turns the waste over when the stock is empty)
  SRC-DST         move cards: 3-5, w-2, 4-f, w-f, fh-6 (Friday 13: w-J, w-10, ...)
  undo (or u)     take back the last move (not one that revealed a card)
  moves           list the legal moves
  hint            suggest a move from what you can see (costs 50 points)
  end             end the game and take the time bonus
  quit            leave without ending
"""


def play_loop(game: Game, stdin: TextIO, out: TextIO) -> int:
    """Read moves from ``stdin`` until the game ends or the player quits."""
    start = time.monotonic()
    limit = game.rules.time_limit
    out.write(draw_board(view_of(game), time_left=limit) + "\n" + LEGEND + "\n")
    while not game.is_over:
        out.write("> ")
        out.flush()
        line = stdin.readline()
        text = line.strip().lower()
        if not line or text == "quit":
            return 0
        if text in ("help", "?"):
            out.write(HELP)
            continue
        if text == "hint":
            after_cli.terminal_hint(game, seconds=time.monotonic() - start, out=out)
            continue
        if text == "moves":
            out.write(" ".join(str(move) for move in game.legal_moves()) + "\n")
            continue
        try:
            game.play(text, seconds=time.monotonic() - start)
        except SolitaireError as refusal:
            out.write(f"! {refusal}\n")
            continue
        out.write(draw_board(view_of(game), time_left=limit - (time.monotonic() - start)) + "\n")
    out.write(f"Game {game.status.value}: score {game.score}\n")
    for label, points in game.sheet.lines():
        out.write(f"  {label:<22}{points:>6}\n")
    return 0


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; return the exit status."""
    args = build_parser().parse_args(argv)
    stream = out or sys.stdout
    try:
        return {**_COMMANDS, **after_cli.COMMANDS}[args.command](args, stream)
    except SolitaireError as error:
        sys.stderr.write(f"error: {error}\n")
        return 2
