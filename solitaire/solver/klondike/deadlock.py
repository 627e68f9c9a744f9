"""A sound test on the deal: cards buried for good make it unwinnable before any search."""

from __future__ import annotations

from collections.abc import Sequence

from solitaire.cards import KING
from solitaire.solver.klondike.tables import PARENTS


def buried_deadlock(piles: Sequence[Sequence[int]]) -> bool:
    """Whether some dealt cards can never leave their places, so the deal is unwinnable.

    Start from every card other than a king that covers a face-down card, and drop each
    one unless both cards it could be built on and a lower card of its own suit lie under
    a card still in the set, in any pile. If a set survives, none of it can ever move: each
    card leaves only as the head of a run, and the first to leave would need a parent on
    top of a pile (both covered), its foundation (a lower card of its suit is covered) or
    an empty pile (not a king). The covered lower cards then never get home. Sound wherever
    every card under a pile's top lies face down, as in the deal.
    """
    stuck = {
        (i, height) for i, pile in enumerate(piles) for height, card in enumerate(pile) if height and card >> 2 != KING
    }
    while stuck:
        depth = [0] * len(piles)
        for i, height in stuck:
            depth[i] = max(depth[i], height)
        covered = {card for i, pile in enumerate(piles) for card in pile[: depth[i]]}
        kept = {(i, height) for i, height in stuck if _cannot_leave(piles[i][height], covered)}
        if kept == stuck:
            return True
        stuck = kept
    return False


def _cannot_leave(card: int, covered: set[int]) -> bool:
    """Whether ``card`` has both parents and a lower card of its suit among ``covered``."""
    return all(parent in covered for parent in PARENTS[card]) and any(
        lower in covered for lower in range(4 + (card & 3), card, 4)
    )
