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
from typing import Any

from solitaire.shuffle import SplitMix64
from solitaire.solver import WINNABLE
from solitaire.solver.position import sample_position, solve_position, visible_cards
from solitaire.variants import find_variant
from solitaire.view import BoardView

__all__ = ["DEFAULT_MAX_NODES", "DEFAULT_SAMPLES", "Hint", "hint_for", "hint_seed", "sample_position", "visible_cards"]

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
