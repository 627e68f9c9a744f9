"""``python -m solitaire``: replay, deal, solve and play from the command line (a public contract).

Each subcommand is one handler registered with :func:`command`, next to the function that declares
its arguments; :func:`build_parser` collects them.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from solitaire import after_cli
from solitaire.cards import format_deck
from solitaire.console import (
    BAD_ARGUMENTS,
    OneLineParser,
    abbreviated,
    lower_case,
    package_version,
    shorten_values,
    until_the_reader_leaves,
)
from solitaire.deals import MAX_DEAL_NUMBER, numbered_deal
from solitaire.errors import SolitaireError
from solitaire.game import Game
from solitaire.games import new_game
from solitaire.solver import solve
from solitaire.terminal import INTERRUPTED, fitted, play_loop, stream_reader, terminal_reader, wants_colour
from solitaire.variants import VARIANTS
from solitaire.view import view_of

__all__ = ["build_parser", "command", "game_from_args", "main", "play_loop", "replay_result"]

Command = Callable[[argparse.Namespace, TextIO], int]
Arguments = Callable[[argparse.ArgumentParser], None]


@dataclass(frozen=True)
class Subcommand:
    """A registered subcommand: its one-line help, its arguments and its handler."""

    help: str
    arguments: Arguments
    run: Command


_COMMANDS: dict[str, Subcommand] = {}
DEFAULT_SOLVE_NODES = 200_000
"""``solve``'s node budget when neither ``--budget-ms`` nor ``--max-nodes`` is given (a few seconds at most)."""
MAX_BUDGET_MS = 3_600_000
"""The longest ``solve --budget-ms`` accepted (an hour)."""


class CliError(Exception):
    """A command-line value is out of range; the message is one line."""


def _no_arguments(_parser: argparse.ArgumentParser) -> None:
    """Declare no arguments."""


def command(name: str, help: str = "", arguments: Arguments = _no_arguments) -> Callable[[Command], Command]:
    """Register a subcommand handler under ``name``, with its help and its argument declarations."""

    def register(handler: Command) -> Command:
        _COMMANDS[name] = Subcommand(help, arguments, handler)
        return handler

    return register


DESCRIPTION = (
    "Play and study solitaire deals from the command line: replay moves, print or solve a deal, "
    "analyze a lost game, get a hint, or play in the terminal."
)


def program_name(argv0: str) -> str:
    """How the user started us, for the usage line: ``solitaire`` (the installed command) or ``python -m solitaire``.

    >>> program_name("/srv/app/.venv/bin/solitaire"), program_name("/srv/app/solitaire/__main__.py")
    ('solitaire', 'python -m solitaire')
    """
    name = Path(argv0).name
    return "python -m solitaire" if name in ("__main__.py", "") else name


def build_parser(prog: str | None = None) -> argparse.ArgumentParser:
    """Return the argument parser for every registered subcommand (``prog``: the name in the usage line)."""
    epilog = f"Variants: {', '.join(VARIANTS)}. A bad value or deck: one 'error:' line on stderr, exit status 2."
    parser = OneLineParser(prog=prog or program_name(sys.argv[0]), description=DESCRIPTION, epilog=epilog)
    parser.add_argument("--version", action="version", version=f"%(prog)s {package_version()}")
    sub = parser.add_subparsers(dest="command", required=True)
    for name, subcommand in _COMMANDS.items():
        subcommand.arguments(sub.add_parser(name, help=subcommand.help))
    return parser


def _add_variant_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--variant", required=True, type=lower_case, choices=sorted(VARIANTS))


def _add_deal_arguments(parser: argparse.ArgumentParser) -> None:
    _add_variant_argument(parser)
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int)
    source.add_argument("--deck", help="52 cards in notation (AS, 10h or 10♥), first dealt first")


def game_from_args(args: argparse.Namespace) -> Game:
    """Start the game named by ``--variant`` and ``--seed``/``--deck``."""
    return new_game(args.variant, seed=args.seed, deck=args.deck)


def _finite(value: float | None, name: str, *, low: float, high: float = math.inf) -> None:
    """:raises CliError: unless ``value`` is ``None`` or a number in ``low..high``."""
    if value is not None and not low <= value <= high:
        allowed = f"at least {low:,.10g}" if high == math.inf else f"a number from {low:,.10g} to {high:,.10g}"
        raise CliError(f"{name} must be {allowed}, got {value}")


# -- replay ---------------------------------------------------------------------------
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


def _replay_arguments(parser: argparse.ArgumentParser) -> None:
    _add_deal_arguments(parser)
    parser.add_argument("--moves", default="", help='space-separated moves, e.g. "draw 3-5 w-f"')
    parser.add_argument("--seconds", type=float, default=0, help="clock reading for every move (0..300)")
    parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")


@command("replay", "apply moves to a deal and print the result", _replay_arguments)
def _replay(args: argparse.Namespace, out: TextIO) -> int:
    _finite(args.seconds, "--seconds", low=0, high=VARIANTS[args.variant].time_limit)
    game = game_from_args(args)
    result = replay_result(game, args.moves.split(), args.seconds)
    out.write(json.dumps(result) + "\n")
    return 0


# -- deal -------------------------------------------------------------------------------
def _deal_arguments(parser: argparse.ArgumentParser) -> None:
    _add_variant_argument(parser)
    parser.add_argument("--seed", type=int, required=True)


@command("deal", "print a seeded deck", _deal_arguments)
def _deal(args: argparse.Namespace, out: TextIO) -> int:
    out.write(format_deck(new_game(args.variant, seed=args.seed).deck) + "\n")
    return 0


# -- play -------------------------------------------------------------------------------
def _play_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", type=lower_case, choices=sorted(VARIANTS))
    source = parser.add_mutually_exclusive_group()
    source.add_argument(
        "--deal", type=int, default=None, help="proven-winnable deal number N (the same as /solitaire start deal:N)"
    )
    source.add_argument("--seed", type=int, default=None, help="the raw shuffle N (may be unwinnable)")


@command("play", "play in the terminal (a proven-winnable deal unless --seed)", _play_arguments)
def _play(args: argparse.Namespace, out: TextIO) -> int:
    if args.seed is not None:
        seed = abbreviated(str(args.seed))
        game, name = new_game(args.variant, seed=args.seed), f"seed {seed} (not checked for a win)"
    else:
        number = args.deal if args.deal is not None else random.SystemRandom().randint(1, MAX_DEAL_NUMBER)
        _finite(number, "--deal", low=1, high=MAX_DEAL_NUMBER)
        out.write("Finding a proven-winnable deal...\n")
        out.flush()
        proven = numbered_deal(args.variant, number)
        game, name = new_game(args.variant, deck=proven.deck), f"deal {number} (proven winnable)"
    out.write(fitted(f"{game.rules.title}, {name}. Type help for commands.") + "\n")
    interactive = sys.stdin.isatty()
    reader = terminal_reader() if interactive else stream_reader(sys.stdin, out)
    return play_loop(game, sys.stdin, out, reader=reader, colour=wants_colour(out), alarm=interactive)


# -- solve ------------------------------------------------------------------------------
def _solve_arguments(parser: argparse.ArgumentParser) -> None:
    _add_deal_arguments(parser)
    parser.add_argument("--budget-ms", type=float, default=None, help="give up after this many milliseconds")
    parser.add_argument(
        "--max-nodes",
        type=int,
        default=None,
        help=f"give up after this many positions (default {DEFAULT_SOLVE_NODES:,} when no budget is given)",
    )
    parser.add_argument("--json", action="store_true", help="print one JSON object (the only output form)")


@command("solve", "solve a deal (every card known) and print the solution", _solve_arguments)
def _solve(args: argparse.Namespace, out: TextIO) -> int:
    _finite(args.budget_ms, "--budget-ms", low=1, high=MAX_BUDGET_MS)
    _finite(args.max_nodes, "--max-nodes", low=1)
    max_nodes = args.max_nodes
    if max_nodes is None and args.budget_ms is None:
        max_nodes = DEFAULT_SOLVE_NODES
    game = game_from_args(args)
    result = solve(game.rules, game.deck, budget_ms=args.budget_ms, max_nodes=max_nodes)
    answer = {"result": result.result, "moves": list(result.moves), "nodes": result.nodes, "ms": round(result.ms, 3)}
    out.write(json.dumps(answer) + "\n")
    return 0


# -- analyze and hint (solitaire/after_cli.py) --------------------------------------------
def _analyze_arguments(parser: argparse.ArgumentParser) -> None:
    _add_deal_arguments(parser)
    after_cli.analyze_arguments(parser)


@command("analyze", "where a game was lost, with a winning line from there", _analyze_arguments)
def _analyze(args: argparse.Namespace, out: TextIO) -> int:
    _finite(args.budget_ms, "--budget-ms", low=1, high=MAX_BUDGET_MS)
    _finite(args.max_nodes, "--max-nodes", low=1)
    return after_cli.run_analyze(args, out)


def _hint_arguments(parser: argparse.ArgumentParser) -> None:
    _add_deal_arguments(parser)
    after_cli.hint_arguments(parser)


@command("hint", "suggest one move from what the player can see", _hint_arguments)
def _hint(args: argparse.Namespace, out: TextIO) -> int:
    _finite(args.number, "--number", low=1)
    _finite(args.samples, "--samples", low=1, high=1000)
    return after_cli.run_hint(args, out)


def main(argv: Sequence[str] | None = None, out: TextIO | None = None) -> int:
    """Run the command line; return the exit status (a bad value or deal: one ``error:`` line, status 2)."""
    args = build_parser().parse_args(argv)
    return until_the_reader_leaves(lambda: _run(args, out or sys.stdout))


def _run(args: argparse.Namespace, stream: TextIO) -> int:
    """Run the chosen subcommand; a bad value or deal is one ``error:`` line and status 2."""
    try:
        return _COMMANDS[args.command].run(args, stream)
    except (SolitaireError, CliError) as error:
        sys.stderr.write(f"error: {shorten_values(str(error))}\n")
        return BAD_ARGUMENTS
    except KeyboardInterrupt:
        sys.stderr.write("interrupted\n")
        return INTERRUPTED
