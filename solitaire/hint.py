"""A fair hint: one move chosen from what the player can see, never from the real hidden cards.

The hint reads only a :class:`BoardView` (face-up cards and counts). It deals the cards the
view does not show into the face-down places at random, seeded by the view itself, the hint
number and a salt, solves each sample with a node budget (so the answer is deterministic) and
suggests the first move that wins the most samples. Two games that differ only in cards the
player never saw give the same view, hence the same hint.

>>> from solitaire import new_game
>>> from solitaire.view import view_of
>>> game = new_game("draw1", seed=3)
>>> hint = hint_for(view_of(game), number=1)
>>> hint.move in [str(move) for move in view_of(game).legal_moves]
True
"""

from __future__ import annotations

import hashlib
import json
from collections import Counter
from dataclasses import dataclass
from typing import Any, TypeVar

from solitaire.cards import FULL_DECK, Card
from solitaire.friday13 import LABEL_RANKS, next_rank
from solitaire.shuffle import SplitMix64
from solitaire.solver import WINNABLE
from solitaire.solver.position import Friday13Position, KlondikePosition, Position, solve_position
from solitaire.variants import Family, find_variant
from solitaire.view import BoardView

T = TypeVar("T")

DEFAULT_SAMPLES = 10
"""Hidden-card samples solved per hint."""
DEFAULT_MAX_NODES = 2_500
"""Search budget per sample (a node budget keeps the hint deterministic)."""


@dataclass(frozen=True)
class Hint:
    """A suggested move (``None`` when no sample was won) and how many samples it won."""

    move: str | None
    wins: int
    samples: int
    votes: dict[str, int]
    """Samples won, by the first move of their winning line."""
    number: int

    def to_dict(self) -> dict[str, Any]:
        """The hint as JSON-ready data (the ``hint --json`` object)."""
        return {
            "move": self.move,
            "wins": self.wins,
            "samples": self.samples,
            "votes": dict(sorted(self.votes.items())),
            "number": self.number,
        }


def hint_seed(view: BoardView, number: int, salt: int = 0) -> int:
    """The sampling seed: 64 bits of SHA-256 over the salt, the hint number and the view's JSON."""
    text = json.dumps([view.variant, salt, number, view.to_dict()], sort_keys=True)
    return int.from_bytes(hashlib.sha256(text.encode()).digest()[:8], "big")


def visible_cards(view: BoardView) -> set[Card]:
    """Cards whose place the view shows: foundations, face-up tableau cards and the waste fan."""
    cards = {card for pile in view.tableau for card in pile.cards} | set(view.waste_fan)
    if view.family is Family.KLONDIKE:
        cards |= {Card(rank, f.label) for f in view.foundations for rank in range(1, f.count + 1)}
    return cards


def sample_position(view: BoardView, rng: SplitMix64) -> Position:
    """Deal the cards the view does not show into its face-down places at random."""
    if view.family is Family.FRIDAY13:
        return _sample_friday13(view, rng)
    unknown = _shuffled([card for card in FULL_DECK if card not in visible_cards(view)], rng)
    piles = []
    for pile in view.tableau:
        down, unknown = unknown[: pile.hidden], unknown[pile.hidden :]
        piles.append((tuple(down), pile.cards))
    under = view.waste_count - len(view.waste_fan)
    waste = tuple(unknown[:under]) + view.waste_fan
    stock = tuple(unknown[under:])
    foundations = tuple((f.label, f.count) for f in view.foundations)
    return KlondikePosition(tuple(piles), foundations, waste + stock, view.waste_count, view.pass_number - 1)


def _sample_friday13(view: BoardView, rng: SplitMix64) -> Friday13Position:
    ranks = Counter({rank: 4 for rank in range(1, 14)})
    tops = []
    for index, foundation in enumerate(view.foundations):
        rank = LABEL_RANKS[index]
        for _ in range(foundation.count):
            ranks[rank] -= 1
            rank = next_rank(rank)
        tops.append(foundation.top.rank if foundation.top else 0)
    if view.waste_fan:
        ranks[view.waste_fan[-1].rank] -= 1
    unknown = _shuffled(sorted(ranks.elements()), rng)
    under = view.waste_count - len(view.waste_fan)
    waste = tuple(unknown[:under]) + tuple(card.rank for card in view.waste_fan)
    return Friday13Position(tuple(tops), tuple(unknown[under:]), waste, view.pass_number - 1)


def _shuffled(items: list[T], rng: SplitMix64) -> list[T]:
    """Fisher-Yates from the end, as :func:`solitaire.shuffle.shuffled_deck` does."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items


def hint_for(
    view: BoardView, *, number: int, salt: int = 0, samples: int = DEFAULT_SAMPLES, max_nodes: int = DEFAULT_MAX_NODES
) -> Hint:
    """Suggest the legal move that starts a win in the most samples of the hidden cards."""
    legal = [str(move) for move in view.legal_moves]
    rules = find_variant(view.variant)
    rng = SplitMix64(hint_seed(view, number, salt))
    votes: Counter[str] = Counter()
    if legal and not view.is_over:
        for _ in range(samples):
            result = solve_position(rules, sample_position(view, rng), max_nodes=max_nodes)
            if result.result == WINNABLE and result.moves and result.moves[0] in legal:
                votes[result.moves[0]] += 1
    if not votes:
        return Hint(None, 0, samples, {}, number)
    move = max(legal, key=lambda text: (votes[text], -legal.index(text)))
    return Hint(move, votes[move], samples, dict(votes), number)
