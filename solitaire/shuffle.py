"""Reproducible seeded shuffles on a PRNG of our own (never :mod:`random`).

The algorithm is part of the public contract, so a seed gives the same deal on
every machine and Python version:

* the generator is SplitMix64 seeded with ``seed mod 2**64``;
* a bounded draw in ``[0, n)`` takes the next 64-bit output ``x`` and rejects it
  while ``x >= 2**64 - (2**64 mod n)``, then returns ``x mod n``;
* the shuffle is Fisher-Yates from the end: for ``i`` from 51 down to 1, swap
  ``deck[i]`` with ``deck[draw(i + 1)]``, starting from :data:`FULL_DECK`.
"""

from __future__ import annotations

from typing import TypeVar

from solitaire.cards import FULL_DECK, Card

MASK64 = (1 << 64) - 1


class SplitMix64:
    """The SplitMix64 generator (Steele, Lea and Flood), 64-bit outputs."""

    def __init__(self, seed: int) -> None:
        self.state = seed & MASK64

    def next_u64(self) -> int:
        """Return the next 64-bit output."""
        self.state = (self.state + 0x9E3779B97F4A7C15) & MASK64
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        """Return an unbiased integer in ``[0, bound)``."""
        limit = (1 << 64) - ((1 << 64) % bound)
        while True:
            value = self.next_u64()
            if value < limit:
                return value % bound


def shuffled_deck(seed: int) -> tuple[Card, ...]:
    """Return the 52 cards shuffled by ``seed``.

    >>> " ".join(map(str, shuffled_deck(1)[:5])) == " ".join(map(str, shuffled_deck(1)[:5]))
    True
    """
    rng = SplitMix64(seed)
    deck = list(FULL_DECK)
    for i in range(len(deck) - 1, 0, -1):
        j = rng.below(i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


T = TypeVar("T")


def shuffle_in_place(items: list[T], rng: SplitMix64) -> list[T]:
    """Shuffle ``items`` Fisher-Yates from the end, as :func:`shuffled_deck` does; return them."""
    for i in range(len(items) - 1, 0, -1):
        j = rng.below(i + 1)
        items[i], items[j] = items[j], items[i]
    return items
