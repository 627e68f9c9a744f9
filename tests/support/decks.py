"""Decks with known outcomes for the bot's tests (no solver needed)."""

from __future__ import annotations

from solitaire import Card, shuffled_deck
from solitaire.cards import FULL_DECK

_LOW = [Card(rank, suit) for rank in range(1, 8) for suit in "SHDC"]
_HIGH = [Card(rank, suit) for rank in range(8, 14) for suit in "SHDC"]


def _easy_klondike() -> tuple[Card, ...]:
    """A Klondike deck won by "everything to the foundations", then 8 x (draw 3, to foundations).

    The 28 tableau cards are the A..7 of every suit, each pile holding them so the
    one on top is always the next needed; the stock deals 8..K three at a time,
    each triple landing with its lowest card on top.
    """
    tableau: list[Card] = []
    start = 0
    for size in range(1, 8):
        tableau += reversed(_LOW[start : start + size])
        start += size
    stock: list[Card] = []
    for i in range(0, len(_HIGH), 3):
        stock += reversed(_HIGH[i : i + 3])
    deck = tuple(tableau + stock)
    assert sorted(deck) == sorted(FULL_DECK)
    return deck


EASY_KLONDIKE = _easy_klondike()
"""Won in draw3 by: ``to foundations`` then 8 x (``draw``, ``to foundations``)."""
EASY_NUMBER = 777
"""The deal number the test solver maps to :data:`EASY_KLONDIKE` (draw3)."""


def seeded(number: int) -> tuple[Card, ...]:
    """The plain shuffle of ``number`` (not proven winnable)."""
    return shuffled_deck(number)
