"""The solver's card ints, the places a card can lie, and the tables built from them once.

Cards are ints ``rank * 4 + suit`` with suits ordered ``C D S H`` so that ``card & 1``
is the colour (1 = red) and ``card ^ 2`` is the other card of the same rank and colour.
"""

from __future__ import annotations

from solitaire.cards import KING, Card
from solitaire.shuffle import SplitMix64

SUIT_CODES = {"C": 0, "D": 1, "S": 2, "H": 3}

# What a card lies on, besides another card (4..55).
ON_EMPTY, FACE_DOWN, ON_FOUNDATION, IN_TALON = 0, 1, 2, 3
# Hash slots for the talon position and the pass (no card uses 0 or 1).
P_SLOT, R_SLOT = 0, 1

JITTER = 120
"""Search tuning: later rounds add a pseudo-random 0..JITTER-1 to each move's priority."""


def encode(card: Card) -> int:
    """Return the solver's int for ``card``."""
    return card.rank * 4 + SUIT_CODES[card.suit]


def _parents(card: int) -> tuple[int, ...]:
    """The cards ``card`` may be built on in the tableau (next rank up, other colour)."""
    rank = card >> 2
    if rank >= KING:
        return ()
    return tuple((rank + 1) * 4 + suit for suit in range(4) if (suit ^ card) & 1)


PARENTS: tuple[tuple[int, ...], ...] = tuple(_parents(card) for card in range(56))
CHILDREN: tuple[tuple[int, ...], ...] = tuple(
    tuple(child for child in range(4, 56) if card in PARENTS[child]) for card in range(56)
)
KINGS = tuple(KING * 4 + suit for suit in range(4))


def _tables() -> tuple[tuple[int, ...], tuple[tuple[int, ...], ...]]:
    """Zobrist keys (128-bit, index ``card << 6 | place``) and the rounds' jitter tables."""
    rng = SplitMix64(0x5EED_C0DE)
    keys = tuple(rng.next_u64() << 64 | rng.next_u64() for _ in range(56 << 6))
    jitters = tuple(tuple(rng.below(JITTER) for _ in range(1024)) for _ in range(16))
    return keys, jitters


ZOBRIST, JITTERS = _tables()
