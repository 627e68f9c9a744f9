"""Seeded sample games in every state (fresh, mid-game, won, ended, stuck, expired) and stats cards."""

from __future__ import annotations

import random
from collections.abc import Callable
from datetime import date, timedelta
from typing import cast

from render.stats_data import DailyScore, RatingSeries, StatsCard, VariantRecord
from solitaire.friday13 import Friday13Game
from solitaire.game import Game
from solitaire.games import new_game
from solitaire.klondike import KlondikeGame
from solitaire.moves import FRIDAY13_LABELS, PILES, Move, MoveKind
from solitaire.status import Status
from solitaire.variants import Family

SEEDS = {"draw1": 11, "draw3": 12, "goldrush": 13, "friday13": 11}
"""The deals the fresh, mid-game, ended and expired samples start from, per variant."""
WON_SEEDS = {"draw1": 6, "draw3": 23, "goldrush": 51, "friday13": 0}
"""Deals the greedy player below wins, per variant (found with ``find_seed``)."""
STUCK_SEEDS = {"draw1": 532, "draw3": 14, "goldrush": 11, "friday13": 3}
"""Deals on which the greedy player gets stuck, per variant."""
MID_MOVES = 24
STATES = ("fresh", "mid", "won", "ended", "stuck", "expired")
SECONDS_PER_MOVE = 1


def _klondike_priority(played: Game, move: Move) -> int:
    """Rank a Klondike move for the greedy player (higher first; 0 = never)."""
    game = cast(KlondikeGame, played)
    if move.kind is MoveKind.DRAW:
        return 1
    if move.source.startswith("f") and move.source != "f":
        return 0
    if move.target == "f":
        return 5
    if move.source == "w":
        return 3
    pile = PILES.index(move.source)
    run = len(game.face_up(pile))
    moves_whole_run = game.fits_pile(game.face_up(pile)[0], PILES.index(move.target)) if run else False
    return 4 if moves_whole_run and game.hidden[pile] else 0


def _friday13_priority(played: Game, move: Move) -> int:
    """Rank a Friday 13 move for the greedy player: start foundations, then build, then draw."""
    game = cast(Friday13Game, played)
    if move.kind is MoveKind.DRAW:
        return 1
    return 3 if not game.foundations[FRIDAY13_LABELS.index(move.target)] else 2


PRIORITIES: dict[Family, Callable[[Game, Move], int]] = {
    Family.KLONDIKE: _klondike_priority,
    Family.FRIDAY13: _friday13_priority,
}
"""The greedy player's move ranking for every family (the sample pictures' one registration point)."""


def greedy_move(game: Game) -> Move | None:
    """Return the greedy player's next move, or ``None`` when it would rather stop."""
    rank = PRIORITIES[game.family]
    scored = [(rank(game, move), i, move) for i, move in enumerate(game.legal_moves())]
    scored = [entry for entry in scored if entry[0] > 0]
    return max(scored, key=lambda entry: (entry[0], -entry[1]))[2] if scored else None


def play_greedy(game: Game, moves: int, *, clock: int = 0) -> int:
    """Play up to ``moves`` greedy moves (1 s apart from ``clock``); return the clock after them."""
    for _ in range(moves):
        move = greedy_move(game)
        if game.is_over or move is None:
            break
        clock = min(clock + SECONDS_PER_MOVE, game.rules.time_limit - 1)
        game.push(move, seconds=clock)
    return clock


def find_seed(variant: str, status: Status, start: int = 0, tries: int = 200, moves: int = 600) -> int | None:
    """Return the first seed from ``start`` on which the greedy player reaches ``status``."""
    for seed in range(start, start + tries):
        game = new_game(variant, seed=seed)
        play_greedy(game, moves)
        if game.status is status:
            return seed
    return None


def sample_game(variant: str, state: str) -> Game:
    """Return a seeded game of ``variant`` in ``state`` (one of :data:`STATES`)."""
    if state not in STATES:
        raise ValueError(f"unknown sample state {state!r}: choose one of {', '.join(STATES)}")
    seeds = {"won": WON_SEEDS, "stuck": STUCK_SEEDS}.get(state, SEEDS)
    game = new_game(variant, seed=seeds[variant])
    if state == "fresh":
        return game
    clock = play_greedy(game, 600 if state in ("won", "stuck") else MID_MOVES)
    if state == "ended" and not game.is_over:
        game.play("end", seconds=clock + 1)
    elif state == "expired":
        game.expire()
    return game


CARDS = ("new", "veteran")
CARD_DAY = date(2026, 3, 12)
"""The sample cards' server date (a Thursday: the calendar's last week is part-way through)."""


def sample_stats_card(kind: str, today: date = CARD_DAY, *, seed: int = 7) -> StatsCard:
    """Return a stats card: ``"new"`` (a member with no game yet) or ``"veteran"`` (months of play from ``seed``)."""
    if kind == "new":
        return StatsCard(name="newcomer", today=today)
    if kind != "veteran":
        raise ValueError(f"unknown sample card {kind!r}: choose one of {', '.join(CARDS)}")
    rng = random.Random(seed)
    variants = ("draw3", "goldrush", "draw1", "friday13")
    played = {today - timedelta(days=n) for n in range(9)}  # the current streak: 9 days
    played |= {today - timedelta(days=n) for n in range(10, 120) if rng.random() < 0.7}
    won = {day for day in sorted(played) if rng.random() < 0.35}
    scores = []
    for day in sorted(played):
        variant = rng.choice(variants)
        top = 900 if variant == "friday13" else 2400
        scores.append(DailyScore(day, variant, rng.randrange(top // 5, top), day in won))
    records = tuple(
        VariantRecord(v, games, wins, max((s.score for s in scores if s.variant == v), default=0))
        for v, games, wins in (("draw3", 61, 23), ("goldrush", 17, 4), ("draw1", 12, 6), ("friday13", 9, 2))
    )
    ratings = []
    for variant, races in (("draw3", 28), ("goldrush", 9)):
        rating, points = 1000.0, [1000.0]
        for _ in range(races):
            rating += rng.uniform(-18, 30)
            points.append(round(rating, 1))
        ratings.append(RatingSeries(variant, tuple(points)))
    return StatsCard(
        name="Ada the Unbeatable",
        today=today,
        scores=tuple(scores),
        played=frozenset(played),
        won=frozenset(won),
        streak=9,
        best_streak=17,
        variants=records,
        ratings=tuple(ratings),
    )
