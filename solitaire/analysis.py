"""Where a game was lost: the last position the player kept that was still winnable, and the move after it.

Undos are folded: the positions judged are the line the player kept. Each position is solved
with every card known (the game is over) within a budget; an answer the budget could not
reach is "undecided", never a guess. Winnability only gets lost along a line, so a binary
search needs a handful of solves, not one per move.

>>> from solitaire import new_game
>>> game = new_game("draw1", seed=3)
>>> result = analyze(game.rules, game.deck, ["draw", "end"], max_nodes=20_000)
>>> result.winnable_at_start, result.last_winnable, result.lost_by, result.decided
(True, 1, None, True)
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from solitaire.cards import Card
from solitaire.errors import SolitaireError
from solitaire.game import EXPIRE, Game
from solitaire.games import new_game
from solitaire.moves import MoveKind
from solitaire.solver import UNKNOWN, UNWINNABLE, WINNABLE, SolveResult
from solitaire.solver.position import Position, position_of, solve_position
from solitaire.speech import _
from solitaire.status import Status
from solitaire.variants import Rules

log = logging.getLogger(__name__)

DEFAULT_BUDGET_MS = 350.0
"""Solving time per position when no budget is given."""
DEFAULT_MAX_SOLVES = 12
"""Positions solved at most per analysis (the binary search needs about log2(moves) + 2)."""


@dataclass(frozen=True)
class KeptPosition:
    """A position of the kept line: ``applied`` moves of the list lead to it; the next kept move follows."""

    applied: int
    position: Position
    next_move: str | None
    """The kept move played from here (``None`` for the final position)."""


@dataclass(frozen=True)
class Verdict:
    """One position's solve: ``winnable`` (with a line checked by the engine), ``unwinnable`` or ``unknown``."""

    result: str
    line: tuple[str, ...]
    nodes: int
    ms: float


@dataclass(frozen=True)
class Analysis:
    """The answer to "where was it lost?" (the ``analyze --json`` object)."""

    variant: str
    winnable_at_start: bool | None
    last_winnable: int | None
    """Moves of the list applied when the position was last proven winnable (``None``: never proven)."""
    lost_by: str | None
    """The move played from that position after which no win was possible (``None`` if not proven)."""
    line: tuple[str, ...]
    """Moves that win from the ``last_winnable`` position."""
    decided: bool
    """Whether every answer above is proven (``False``: a budget ran out somewhere)."""
    status: str
    kept_moves: int
    """Moves of the kept line (undos folded)."""
    solved: dict[int, str] = field(default_factory=dict)
    """Each position solved, by moves applied: ``winnable`` / ``unwinnable`` / ``unknown``."""
    nodes: int = 0
    ms: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        """The analysis as JSON-ready data."""
        return {
            "variant": self.variant,
            "status": self.status,
            "winnable_at_start": self.winnable_at_start,
            "last_winnable": self.last_winnable,
            "lost_by": self.lost_by,
            "line": list(self.line),
            "decided": self.decided,
            "kept_moves": self.kept_moves,
            "solved": {str(index): result for index, result in sorted(self.solved.items())},
            "nodes": self.nodes,
            "ms": round(self.ms, 3),
        }


def kept_line(rules: Rules, deck: Sequence[Card], moves: Sequence[str]) -> tuple[list[KeptPosition], Game]:
    """Replay ``moves`` (undos folded) and return the kept positions, first to last, and the final game.

    The list stops at ``end``, ``expire`` or the end of the game.

    :raises SolitaireError: for a move the engine refuses, quoting its index.
    """
    game = new_game(rules, deck=deck)
    stack: list[KeptPosition] = []
    applied = len(moves)
    for index, text in enumerate(moves):
        if text == EXPIRE or game.is_over:
            applied = index
            game.expire()
            break
        try:
            move = game.parse_move(text)
            if move.kind is MoveKind.END:
                applied = index
                game.push(move)
                break
            before = position_of(game)
            game.push(move)
        except SolitaireError as refusal:
            raise SolitaireError(
                # Translators: {number} is the move's place in the game (1, 2 ...), {text} the move, {refusal} the
                # rules' refusal ("3-5: 7♥ does not go on 9♠")
                _("move {number} ({text}) refused: {refusal}", number=index + 1, text=repr(text), refusal=refusal)
            ) from None
        if move.kind is MoveKind.UNDO:
            stack.pop()
        elif move.kind is not MoveKind.HINT:
            stack.append(KeptPosition(index, before, str(move)))
    stack.append(KeptPosition(applied, position_of(game), None))
    return stack, game


def wins_from(rules: Rules, deck: Sequence[Card], moves: Sequence[str], line: Sequence[str]) -> tuple[str, ...]:
    """Replay ``moves`` then ``line``; return the prefix of ``line`` that wins, or ``()`` if it does not."""
    game = new_game(rules, deck=deck)
    try:
        for text in moves:
            game.play(text)
        if game.is_over:
            return ()
        for index, text in enumerate(line):
            game.play(text)
            if game.status is Status.WON:
                return tuple(line[: index + 1])
    except SolitaireError as error:
        log.error("analysis: %s line refused after %d moves: %s", rules.name, len(moves), error)
    return ()


def analyze(
    rules: Rules,
    deck: Sequence[Card],
    moves: Sequence[str],
    *,
    budget_ms: float | None = DEFAULT_BUDGET_MS,
    max_nodes: int | None = None,
    max_solves: int = DEFAULT_MAX_SOLVES,
) -> Analysis:
    """Find the last kept position proven winnable and the move that lost the game.

    :raises SolitaireError: for a move the engine refuses.
    """
    positions, final = kept_line(rules, deck, moves)
    verdicts: dict[int, Verdict] = {}

    def judge(k: int) -> Verdict:
        if k not in verdicts:
            verdicts[k] = _judge(rules, deck, moves, positions[k], budget_ms, max_nodes)
        return verdicts[k]

    last = len(positions) - 1
    lo, hi, decided = _search(judge, last, final.status is Status.WON, max_solves)
    start = verdicts[0].result if 0 in verdicts else WINNABLE  # a won game needs no solve
    winnable_at_start = True if lo is not None else {WINNABLE: True, UNWINNABLE: False}.get(start)
    line = verdicts[lo].line if lo is not None and lo in verdicts else ()
    lost_by = positions[lo].next_move if decided and lo is not None and hi is not None else None
    return Analysis(
        variant=rules.name,
        winnable_at_start=winnable_at_start,
        last_winnable=positions[lo].applied if lo is not None else None,
        lost_by=lost_by,
        line=line,
        decided=decided,
        status=final.status.value,
        kept_moves=last,
        solved={positions[k].applied: verdict.result for k, verdict in verdicts.items()},
        nodes=sum(verdict.nodes for verdict in verdicts.values()),
        ms=sum(verdict.ms for verdict in verdicts.values()),
    )


def _search(
    judge: Callable[[int], Verdict], last: int, won: bool, max_solves: int
) -> tuple[int | None, int | None, bool]:
    """Binary search the kept line: return (last proven winnable, first proven unwinnable after it, decided).

    A position after a winnable one may be lost, never the reverse, so one proven winnable
    position proves every earlier one (the start included) and one unwinnable proves every later one.
    """
    if won:
        return last, None, True
    start = judge(0).result
    if start == UNWINNABLE:
        return None, 0, True
    end = judge(last).result
    if end == WINNABLE:
        return last, None, True
    lo = 0 if start == WINNABLE else -1
    hi = last if end == UNWINNABLE else None
    untried = set(range(1, last))
    solves = 2
    while solves < max_solves:
        top = hi if hi is not None else last
        candidates = [k for k in untried if lo < k < top]
        if not candidates:
            break
        middle = (max(lo, 0) + top) / 2
        k = min(candidates, key=lambda c: (abs(c - middle), c))
        untried.discard(k)
        solves += 1
        result = judge(k).result
        if result == WINNABLE:
            lo = k
        elif result == UNWINNABLE:
            hi = k
    found = lo if lo >= 0 else None
    return found, hi, found is not None and hi is not None and hi - lo == 1


def _judge(
    rules: Rules,
    deck: Sequence[Card],
    moves: Sequence[str],
    kept: KeptPosition,
    budget_ms: float | None,
    max_nodes: int | None,
) -> Verdict:
    """Solve one kept position; a line the engine does not confirm counts as undecided."""
    result: SolveResult = solve_position(rules, kept.position, budget_ms=budget_ms, max_nodes=max_nodes)
    if result.result != WINNABLE:
        return Verdict(result.result, (), result.nodes, result.ms)
    line = wins_from(rules, deck, moves[: kept.applied], result.moves)
    return Verdict(WINNABLE if line else UNKNOWN, line, result.nodes, result.ms)
