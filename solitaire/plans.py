"""Plans: the moves a hint has in mind, up to the next step forward, as a player would think of them.

A step forward is a card placed on a foundation, a face-down card turned up, a card out of the
stock and waste, or a stock card seen for the first time. A plan is the moves up to and including
the first such step (``draw draw w-4``: bring a card the player has seen to the waste top and play
it), so a hint never counts a move that only goes round in circles as progress, and every move of
a plan but its last depends only on cards the player has seen.

Repeats come in two strengths: a position already played in the same pass (never suggested) and
a board already seen while the player knew as much as now, in any pass (a pass that changed and
showed nothing: suggested only when nothing else is left).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence

from solitaire.errors import SolitaireError
from solitaire.game import Game
from solitaire.knowledge import Knowledge
from solitaire.moves import DRAW
from solitaire.status import Status

Plan = tuple[str, ...]
"""Moves in notation, played in order; the hint suggests the first."""

MAX_PLAN = 60
"""Moves of a solver's line read at most when looking for its first step forward."""
WAYS_LOOKED = 4_000
"""Positions :func:`ways_forward` looks at most."""
WAYS_KEPT = 12
"""Ways :func:`ways_forward` returns at most (the nearest)."""


def progress(game: Game) -> tuple[int, int, int]:
    """How far ``game`` has got: cards on foundations, face-down cards turned, cards out of the stock and waste."""
    placed = sum(home.count for home in game.view_foundations())
    hidden = sum(pile.hidden for pile in game.view_piles())
    return placed, -hidden, -(len(game.stock) + len(game.waste))


def steps_forward(before: tuple[int, int, int], seen: int, game: Game) -> bool:
    """Whether ``game`` got further than ``before`` (see :func:`progress`) or shows more than ``seen`` cards."""
    now = progress(game)
    return any(later > earlier for later, earlier in zip(now, before, strict=True)) or len(game.seen) > seen


def plan_of_line(world: Game, line: Sequence[str]) -> Plan:
    """The moves of ``line`` from ``world`` up to its first step forward (the whole line if shorter)."""
    game = world.branch()
    before, seen = progress(game), len(game.seen)
    plan: list[str] = []
    for text in line[:MAX_PLAN]:
        try:
            game.play(text)
        except SolitaireError:
            break
        plan.append(text)
        if game.is_over or steps_forward(before, seen, game):
            break
    return tuple(plan)


def play_plan(world: Game, plan: Plan) -> Game | None:
    """A branch of ``world`` after ``plan``; ``None`` if a move of it is refused."""
    game = world.branch()
    try:
        for text in plan:
            game.play(text)
    except SolitaireError:
        return None
    return game


def repeats(knowledge: Knowledge, world: Game, plan: Plan, *, strict: bool) -> bool:
    """Whether a move of ``plan`` leads back to a position played in this pass (or, if ``strict``, to a
    board seen in any pass while the player knew as much)."""
    game = world.branch()
    for text in plan:
        try:
            game.play(text)
        except SolitaireError:
            return True
        if been_here(knowledge, game, strict=strict):
            return True
        if game.is_over:
            break
    return False


def been_here(knowledge: Knowledge, game: Game, *, strict: bool) -> bool:
    """Whether ``game`` stands at a position played in this pass (or, if ``strict``, at a board seen while
    the player knew as much)."""
    last = knowledge.visited.get(game.layout_key())
    return last is not None and (last[0] == game.recycles or (strict and last[1] == game.unseen()))


def talon_plans(knowledge: Knowledge, world: Game) -> list[Plan]:
    """Draws that bring a stock or waste card the player has seen to the waste top, then each play of it.

    Drawing stops after one turn of the stock, at a board seen before or where a draw would
    show a card not seen yet.
    """
    game, draws, plans = world.branch(), 0, []
    boards = {game.layout_key()}
    while DRAW in game.legal_moves():
        turned = len(game.waste)
        game.play("draw")
        draws += 1
        key = game.layout_key()
        if key in boards or been_here(knowledge, game, strict=True):
            break
        boards.add(key)
        if any(card is None for card in knowledge.talon[turned : len(game.waste)]):
            break
        plans += [("draw",) * draws + (str(move),) for move in game.legal_moves() if move.source == "w"]
    return plans


def ways_forward(knowledge: Knowledge, world: Game, *, most: int = WAYS_KEPT, limit: int = WAYS_LOOKED) -> list[Plan]:
    """The shortest plans from ``world`` to the steps forward it can reach, nearest first.

    A breadth-first search (each board once, never through a position played in the same pass,
    never ending on a board seen while the player knew as much) that ends a plan at its first
    step forward and stops at ``most`` ways or after ``limit`` positions. Only a step
    forward can show a card, so every move of a plan but its last is the same in every guess.
    A player who follows such a plan gets one move nearer a step forward with every move: the
    rest of it is again a shortest way.
    """
    before, seen = progress(world), len(world.seen)
    boards, looked = {world.layout_key()}, 0
    plans: list[Plan] = []
    frontier: deque[tuple[Game, Plan]] = deque([(world, ())])
    while frontier and looked < limit and len(plans) < most:
        game, plan = frontier.popleft()
        for move in game.legal_moves():
            child, path = game.branch(), (*plan, str(move))
            child.push(move)
            looked += 1
            forward, key = child.is_over or steps_forward(before, seen, child), child.layout_key()
            if key in boards or been_here(knowledge, child, strict=forward):
                continue
            boards.add(key)
            if not forward:
                frontier.append((child, path))
            elif child.status in (Status.PLAYING, Status.WON):
                plans.append(path)
    return plans[:most]
