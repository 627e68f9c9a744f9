"""A fair hint: the plan that keeps a win in the most guesses of the cards the player has not seen.

The hint reads only a :class:`~solitaire.knowledge.Knowledge` (the view, every stock card the
player has turned, the positions already played through), never the deal. It deals the unseen
cards at random into their places (a *guess*), seeded by the knowledge, the hint number and a
salt, and solves each guess with a node budget, so the answer is deterministic. Then:

1. Each won guess's winning line gives its first *plan* (:mod:`solitaire.plans`: the moves up
   to its first step forward). The candidates are those plans, every legal move that steps
   forward by itself, and the draws that bring a seen stock card up to play it (when a guess's
   line plays it or the play is safe). A move back to a position already played is never one.
   When there are none (every line wanders back through a position already played) and passes
   are unlimited, the candidates are the shortest ways to each step forward in reach
   (:func:`~solitaire.plans.ways_forward`), so following the hints never turns the stock round
   for nothing; with none of those either, the hint says it sees no way forward.
2. Every candidate is judged in every won guess (the same guesses for all): is a win left after
   it? A guess's own plan counts without a search. While plans stay close to the best (within
   one guess plus a quarter of the won guesses: a few guesses cannot tell a 70% plan from a
   90% one), more guesses are dealt, up to three rounds, and only the close plans are judged
   on them.
3. The plan that keeps a win in the most guesses is chosen (ties: a safe play, a draw that
   shows a stock card not seen yet, the plan most lines start with, the shorter, the first
   listed); the hint is its first move.

Before judging, two moves that cannot lose are taken at once: a safe play (a card sent home
that nothing could need) and, while drawing is free, a draw that shows stock cards not seen
yet (a player who goes through the stock first decides the rest knowing it). When no guess is
won within the budget the hint still names the move that gets furthest, and says so; it gives
none when every guess is lost, every move repeats a position, or no guess is won in time and
no move steps forward (so a player is never sent round in circles).

>>> from solitaire import new_game
>>> from solitaire.knowledge import knowledge_of
>>> game = new_game("draw1", seed=3)
>>> hint = hint_for(knowledge_of(game), number=1, samples=4, max_nodes=500)
>>> hint.move in [str(move) for move in game.legal_moves()]
True
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from solitaire.game import Game
from solitaire.knowledge import Knowledge, guess
from solitaire.moves import DRAW, MoveKind
from solitaire.plans import (
    Plan,
    plan_of_line,
    play_plan,
    progress,
    repeats,
    steps_forward,
    talon_plans,
    ways_forward,
)
from solitaire.shuffle import SplitMix64
from solitaire.solver import UNWINNABLE, WINNABLE
from solitaire.solver.position import position_of, solve_position
from solitaire.speech import _, n_
from solitaire.status import Status

__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_SAMPLES", "Hint", "hint_for", "hint_seed"]

DEFAULT_SAMPLES = 10
"""Guesses of the hidden cards dealt first (as many again for each round a close call gets)."""
DEFAULT_MAX_NODES = 2_000
"""Search budget of one solve; a hint spends :data:`BUDGET_SOLVES` times this at most (nodes keep it deterministic)."""
BUDGET_SOLVES = 30
CLOSE_ROUNDS = 3
"""Rounds of more guesses (as many as were dealt first) a close call gets at most, judging only the close plans."""
CLOSE_SHARE = 0.25
"""A plan is close to the best when it keeps a win in at most one guess plus this share of the won guesses fewer."""
RETRY_FACTOR = 3
"""When under :data:`MIN_WON` guesses are won, new guesses get this many times the nodes (within half the budget)."""
MIN_WON = 3
SPELLED = 3
"""A plan's moves named one by one in the answer at most (a longer plan's are counted)."""

SAFE, EXPLORE, BEST, GUESS = "safe", "explore", "best", "guess"
LOST, STUCK, REPEAT, OVER = "lost", "stuck", "repeat", "over"


@dataclass(frozen=True)
class Hint:
    """A suggested move (``None``: no hint), the plan it starts, and in how many guesses of the hidden cards it wins."""

    move: str | None
    wins: int
    """Guesses in which a win is left after the plan."""
    samples: int
    """Guesses the plan was judged on (won or not)."""
    votes: dict[str, int]
    """Won guesses, by the first plan of their winning line (moves joined by spaces)."""
    number: int
    plan: tuple[str, ...] = ()
    """The moves the hint has in mind, the first being :attr:`move`."""
    reason: str = BEST
    """``safe``, ``explore``, ``best`` or ``guess`` with a move; ``lost``, ``stuck``, ``repeat`` or ``over`` without."""
    why: str = ""
    """What the hint found, in words for the player (the plan's later moves and the guesses won), said in the
    language spoken where the hint was found."""
    searched: int = field(default=0, compare=False)
    """Search nodes spent."""

    def to_dict(self) -> dict[str, Any]:
        """The hint as JSON-ready data (the ``hint --json`` object)."""
        return {
            "move": self.move,
            "wins": self.wins,
            "samples": self.samples,
            "votes": dict(sorted(self.votes.items())),
            "number": self.number,
            "plan": list(self.plan),
            "reason": self.reason,
            "why": self.why,
        }


def hint_seed(knowledge: Knowledge, number: int, salt: int = 0) -> int:
    """The dealing seed: 64 bits of SHA-256 over the salt, the hint number and the knowledge's JSON."""
    text = json.dumps([knowledge.view.variant, salt, number, knowledge.to_dict()], sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def hint_for(
    knowledge: Knowledge,
    *,
    number: int,
    salt: int = 0,
    samples: int | None = None,
    max_nodes: int | None = None,
) -> Hint:
    """Suggest the first move of the plan that keeps a win in the most guesses of the hidden cards.

    Its :attr:`Hint.why` is said in the language spoken here: a worker process speaks English unless told otherwise.
    """
    if knowledge.view.is_over or not knowledge.view.legal_moves:
        return Hint(None, 0, 0, {}, number, reason=OVER, why=_("the game is over"))
    return _Hinter(knowledge, number, salt, samples or DEFAULT_SAMPLES, max_nodes or DEFAULT_MAX_NODES).hint()


class _Hinter:
    """One hint's guesses, their solves and the judging of the plans, within one node budget."""

    def __init__(self, knowledge: Knowledge, number: int, salt: int, samples: int, max_nodes: int) -> None:
        self.knowledge, self.number, self.samples, self.max_nodes = knowledge, number, samples, max_nodes
        self.rng = SplitMix64(hint_seed(knowledge, number, salt))
        self.budget = BUDGET_SOLVES * max_nodes
        self.spent = 0
        self.won: list[tuple[Game, Plan]] = []
        """Won guesses with the first plan of their line, in the order dealt."""
        self.results: list[str] = []
        """Every guess's verdict, in the order dealt."""
        self.votes: Counter[Plan] = Counter()
        self.here = guess(knowledge, self.rng)
        """A guess to try moves on: moves on seen cards play out the same in every guess."""

    # -- the hint ---------------------------------------------------------------------------
    def hint(self) -> Hint:
        """Deal, solve, judge and choose."""
        moves = self._moves()
        if not moves:
            return self._none(REPEAT, _("every move left goes back to a position already played"))
        self.deal(self.samples, self.max_nodes)
        if len(self.won) < MIN_WON and self.results.count(UNWINNABLE) < len(self.results):
            self.deal(self.samples, RETRY_FACTOR * self.max_nodes, until=MIN_WON, within=self.budget // 2)
        sure = next((plan for plan in moves + self._talon() if self._safe(plan)), None)
        if sure is not None:
            return self._answer(sure, SAFE, len(self.won), len(self.results))
        if self._explores(moves):
            return self._answer(("draw",), EXPLORE, len(self.won), len(self.results))
        if not self.won:
            dealt = len(self.results)
            if self.results.count(UNWINNABLE) == dealt:
                # Translators: {count} random deals of the cards the player has not seen, every one lost
                lost = n_(
                    "all {count} guesses of the hidden cards are lost from here",
                    "all {count} guesses of the hidden cards are lost from here",
                    dealt,
                )
                return self._none(LOST, lost)
            forward = [plan for plan in moves if self._forward(plan)] + self._talon()
            if not forward:
                # Translators: {count} random deals of the cards the player has not seen
                stuck = n_(
                    "no win found in {count} guesses of the hidden cards and no move gets further",
                    "no win found in {count} guesses of the hidden cards and no move gets further",
                    dealt,
                )
                return self._none(STUCK, stuck)
            return self._answer(max(forward, key=self._promise), GUESS, 0, len(self.results))
        return self._best(moves)

    def _best(self, moves: list[Plan]) -> Hint:
        """Judge the candidates in every won guess, deal more guesses for a close call, choose."""
        candidates = self._candidates(moves)
        if not candidates:
            return self._none(STUCK, _("no way forward seen, every move left only goes round in circles"))
        scores = self.judge(candidates, self.won) or dict.fromkeys(candidates, 0)
        judged = len(self.results)
        for _round in range(CLOSE_ROUNDS):
            close = self._close(candidates, scores)
            if len(close) < 2 or self.spent >= self.budget:
                break
            seen = len(self.won)
            self.deal(self.samples, self.max_nodes)
            more = self.judge(close, self.won[seen:])
            if not more:
                break
            judged = len(self.results)
            candidates, scores = close, {plan: scores[plan] + more[plan] for plan in close}
        best = max(candidates, key=lambda plan: self._rank(plan, scores))
        return self._answer(best, BEST, scores[best], judged)

    def _close(self, candidates: list[Plan], scores: dict[Plan, int]) -> list[Plan]:
        """The plans whose score is near enough the best's for more guesses to change the choice."""
        top = max(scores[plan] for plan in candidates)
        margin = 1 + CLOSE_SHARE * len(self.won)
        return [plan for plan in candidates if top - scores[plan] <= margin]

    def _rank(self, plan: Plan, scores: dict[Plan, int]) -> tuple[int, bool, bool, int, int]:
        return scores[plan], self._safe(plan), self._shows_stock(plan), self.votes[plan], -len(plan)

    # -- guesses ----------------------------------------------------------------------------
    def deal(self, count: int, nodes: int, *, until: int | None = None, within: int | None = None) -> None:
        """Deal ``count`` guesses and solve each with ``nodes`` (stopping at ``until`` won or ``within`` spent)."""
        cap = self.budget if within is None else within
        for _guess in range(count):
            if (until is not None and len(self.won) >= until) or self.spent >= cap:
                return
            world = guess(self.knowledge, self.rng)
            result = solve_position(world.rules, position_of(world), max_nodes=nodes)
            self.spent += result.nodes
            self.results.append(result.result)
            if result.result == WINNABLE:
                plan = plan_of_line(world, result.moves)
                if plan:
                    self.won.append((world, plan))
                    self.votes[plan] += 1

    def judge(self, plans: list[Plan], worlds: list[tuple[Game, Plan]]) -> dict[Plan, int]:
        """In how many of ``worlds`` a win is left after each plan: all judged on the same guesses.

        Guesses are judged whole while the budget lasts; a plan that can no longer catch up with
        the best is dropped.
        """
        scores = dict.fromkeys(plans, 0)
        alive = list(plans)
        for done, (world, own) in enumerate(worlds):
            verdicts = {}
            for plan in alive:
                verdicts[plan] = plan == own or self._wins_after(world, plan)
                if self.spent >= self.budget:
                    return scores if done else {}
            for plan, won in verdicts.items():
                scores[plan] += won
            left = len(worlds) - done - 1
            best = max(scores[plan] for plan in alive)
            alive = [plan for plan in alive if scores[plan] + left >= best]
        return scores

    def _wins_after(self, world: Game, plan: Plan) -> bool:
        game = play_plan(world, plan)
        if game is None or game.is_over:
            return game is not None and game.status is Status.WON
        result = solve_position(game.rules, position_of(game), max_nodes=self.max_nodes)
        self.spent += result.nodes
        return result.result == WINNABLE

    # -- candidates -------------------------------------------------------------------------
    def _moves(self) -> list[Plan]:
        """The legal moves that repeat no board (or, if none, no position of this pass)."""
        moves: list[Plan] = [(str(move),) for move in self.knowledge.view.legal_moves]
        fresh = [plan for plan in moves if not repeats(self.knowledge, self.here, plan, strict=True)]
        return fresh or [plan for plan in moves if not repeats(self.knowledge, self.here, plan, strict=False)]

    def _talon(self) -> list[Plan]:
        return [plan for plan in talon_plans(self.knowledge, self.here) if not self._repeats(plan)]

    def _candidates(self, moves: list[Plan]) -> list[Plan]:
        """Moves that step forward, talon plans some line plays or that are safe, and the lines' own plans.

        When there are none (every line goes back to a position already played) and the stock
        can be turned round for good (no pass limit), the shortest ways to each step forward in
        reach: moves that step nowhere would only go round in circles. With a pass limit, every
        move (the limit ends any circling).
        """
        forward = [plan for plan in moves if self._forward(plan)]
        talon = [plan for plan in self._talon() if self.votes[plan] or self._safe(plan)]
        lines = [plan for plan in self.votes if not self._repeats(plan)]
        found = _unique(forward + talon + lines)
        if found or self.here.rules.max_passes is not None:
            return found or moves
        return ways_forward(self.knowledge, self.here)

    def _repeats(self, plan: Plan) -> bool:
        return repeats(self.knowledge, self.here, plan, strict=len(plan) > 1)

    def _forward(self, plan: Plan) -> bool:
        game = play_plan(self.here, plan)
        return game is not None and steps_forward(progress(self.here), len(self.here.seen), game)

    def _safe(self, plan: Plan) -> bool:
        """A safe play, after draws that are all free (draw 1: a safe stock card's whole plan is free)."""
        game = self.here.branch()
        for text in plan[:-1]:
            if text != str(DRAW) or not game.draw_is_free():
                return False
            game.play(text)
        return game.is_safe_play(game.parse_move(plan[-1]))

    def _shows_stock(self, plan: Plan) -> bool:
        """Whether the plan is a draw that shows a stock card not seen yet (a choice made later knows it)."""
        if plan != ("draw",):
            return False
        game = play_plan(self.here, plan)
        return game is not None and len(game.seen) > len(self.here.seen)

    def _explores(self, moves: list[Plan]) -> bool:
        """Whether drawing is free now and shows a stock card not seen yet."""
        view = self.knowledge.view
        turned = self.knowledge.talon[view.waste_count : view.waste_count + view.draw_count]
        unseen = any(card is None for card in turned)
        return ("draw",) in moves and view.stock_count > 0 and unseen and self.here.draw_is_free()

    def _promise(self, plan: Plan) -> tuple[bool, bool]:
        """With no guess won, among the steps forward: a safe play, then a move that needs no draw."""
        return self._safe(plan), plan[0] != str(DRAW)

    # -- answers ----------------------------------------------------------------------------
    def _answer(self, plan: Plan, reason: str, wins: int, samples: int) -> Hint:
        votes = {" ".join(line): count for line, count in self.votes.items()}
        why = _why(reason, wins, samples, self._rest(plan))
        return Hint(plan[0], wins, samples, votes, self.number, plan, reason, why, self.spent)

    def _none(self, reason: str, why: str) -> Hint:
        votes = {" ".join(line): count for line, count in self.votes.items()}
        return Hint(None, 0, len(self.results), votes, self.number, (), reason, why, self.spent)

    def _rest(self, plan: Plan) -> str:
        """The plan's moves after the first, in words: ``2 more draws, then w-4: 7♥ onto 8♠``."""
        if len(plan) < 2:
            return ""
        game = self.here.branch()
        for text in plan[:-1]:
            game.play(text)
        last = game.parse_move(plan[-1])
        words = game.describe_play(last) if last.kind is MoveKind.PLAY else None
        # Translators: a move in notation (w-4), then what it does ("7♥ onto 8♠")
        play = _("{move}: {words}", move=last, words=words) if words else str(last)
        middle = plan[1:-1]
        if middle and all(text == str(DRAW) for text in middle):
            # Translators: the rest of a hint's plan: {count} draws, then {play}: a move and what it does
            return n_("{count} more draw, then {play}", "{count} more draws, then {play}", len(middle), play=play)
        if len(middle) > SPELLED:
            # Translators: the rest of a hint's plan: {count} moves, then {play}: a move and what it does
            return n_("{count} more move, then {play}", "{count} more moves, then {play}", len(middle), play=play)
        return ", ".join([*middle, play])


def _why(reason: str, wins: int, samples: int, rest: str) -> str:
    """What a hint found, in words: one sentence (``rest``: the plan's later moves, in words, or empty)."""
    if reason == SAFE and rest:
        # Translators: a hint's reason; {rest} is the rest of its plan ("2 more draws, then w-4: 7♥ onto 8♠"); {wins}
        # of {count} random deals of the cards the player has not seen are won after it
        return n_(
            "then {rest}; a safe play, nothing can need that card any more; "
            "wins in {wins} of {count} guesses of the hidden cards",
            "then {rest}; a safe play, nothing can need that card any more; "
            "wins in {wins} of {count} guesses of the hidden cards",
            samples,
            rest=rest,
            wins=wins,
        )
    if reason == SAFE:
        # Translators: a hint's reason; {wins} of {count} random deals of the cards the player has not seen are won
        return n_(
            "a safe play, nothing can need that card any more; wins in {wins} of {count} guesses of the hidden cards",
            "a safe play, nothing can need that card any more; wins in {wins} of {count} guesses of the hidden cards",
            samples,
            wins=wins,
        )
    if reason == EXPLORE:
        # Translators: a hint's reason (drawing); {wins} of {count} random deals of the unseen cards are won
        return n_(
            "see the rest of the stock first, drawing now loses nothing; "
            "wins in {wins} of {count} guesses of the hidden cards",
            "see the rest of the stock first, drawing now loses nothing; "
            "wins in {wins} of {count} guesses of the hidden cards",
            samples,
            wins=wins,
        )
    if reason == GUESS:
        # Translators: a hint's reason: none of {count} random deals of the unseen cards was won in time
        return n_(
            "no win found in time in {count} guesses of the hidden cards; this move gets furthest",
            "no win found in time in {count} guesses of the hidden cards; this move gets furthest",
            samples,
        )
    if rest:
        # Translators: a hint's reason; {rest} is the rest of its plan ("2 more draws, then w-4: 7♥ onto 8♠")
        return n_(
            "then {rest}; wins in {wins} of {count} guesses of the hidden cards",
            "then {rest}; wins in {wins} of {count} guesses of the hidden cards",
            samples,
            rest=rest,
            wins=wins,
        )
    # Translators: a hint's reason; {wins} of {count} random deals of the cards the player has not seen are won
    return n_(
        "wins in {wins} of {count} guesses of the hidden cards",
        "wins in {wins} of {count} guesses of the hidden cards",
        samples,
        wins=wins,
    )


def _unique(plans: Iterable[Plan]) -> list[Plan]:
    return list(dict.fromkeys(plans))
