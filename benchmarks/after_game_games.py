"""Seeded lost games for the after-game benchmarks: proven deals played by a greedy player who sometimes errs."""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from render.samples import greedy_move  # noqa: E402
from solitaire import Game, new_game  # noqa: E402
from solitaire.deals import numbered_deal  # noqa: E402

ERROR_RATE = 0.25
"""Share of moves picked at random among the legal ones (else the greedy move)."""


def played_game(variant: str, number: int, moves: int) -> Game:
    """Deal ``number`` of ``variant`` played for up to ``moves`` moves (seeded by the deal number)."""
    rng = random.Random(number)
    game = new_game(variant, deck=numbered_deal(variant, number).deck)
    while game.move_count < moves and not game.is_over:
        legal = game.legal_moves()
        if not legal:
            break
        move = rng.choice(legal) if rng.random() < ERROR_RATE else greedy_move(game)
        game.push(move if move is not None else legal[0])
    return game
