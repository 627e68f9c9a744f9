"""Cards, their notation (``TH``, ``10h``, ``as``) and the standard 52-card deck."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from typing import NamedTuple

from solitaire.errors import InvalidCardError, InvalidDeckError

RANKS = "A23456789TJQK"
SUITS = "CDHS"
SUIT_SYMBOLS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
WHITE_SUIT_SYMBOLS = {"C": "\u2667", "D": "\u2662", "H": "\u2661", "S": "\u2664"}
SYMBOL_SUITS = {symbol: suit for symbols in (SUIT_SYMBOLS, WHITE_SUIT_SYMBOLS) for suit, symbol in symbols.items()}
"""Suit letters of the symbols the game prints (``♦``), and of their white forms (``♢``)."""
VARIATION_SELECTORS = str.maketrans("", "", "\ufe0e\ufe0f")
"""Removes the marks that ask for a text or an emoji form of a symbol (``♦️`` is ``♦`` and one)."""
ACE, JACK, QUEEN, KING = 1, 11, 12, 13


class Card(NamedTuple):
    """A playing card: ``rank`` 1 (ace) .. 13 (king) and ``suit`` one of ``CDHS``.

    >>> Card.parse("10h")
    Card(rank=10, suit='H')
    >>> str(Card.parse("as")), Card.parse("TH").label, str(Card.parse("10♦")), str(Card.parse("Q\u2660\ufe0f"))
    ('AS', '10♥', 'TD', 'QS')
    """

    rank: int
    suit: str

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse ``TH``, ``10h``, ``as`` or ``10♥`` (as the game prints it); :raises InvalidCardError: otherwise."""
        cleaned = text.translate(VARIATION_SELECTORS).strip().upper()
        rank_text, suit = cleaned[:-1], SYMBOL_SUITS.get(cleaned[-1:], cleaned[-1:])
        if rank_text == "10":
            rank_text = "T"
        if len(rank_text) != 1 or rank_text not in RANKS or not suit or suit not in SUITS:
            raise InvalidCardError(f"invalid card: {text!r} (use rank A23456789TJQK or 10, suit CDHS or ♣♦♥♠)")
        return cls(RANKS.index(rank_text) + 1, suit)

    @property
    def is_red(self) -> bool:
        """Whether the card is a diamond or a heart."""
        return self.suit in "DH"

    @property
    def rank_name(self) -> str:
        """The rank as players write it: ``A``, ``2`` .. ``10``, ``J``, ``Q``, ``K``."""
        return "10" if self.rank == 10 else RANKS[self.rank - 1]

    @property
    def label(self) -> str:
        """The card with its suit symbol, e.g. ``10♥``."""
        return f"{self.rank_name}{SUIT_SYMBOLS[self.suit]}"

    @property
    def number(self) -> int:
        """A number 0..51, suit-major in ``CDHS`` order."""
        return SUITS.index(self.suit) * 13 + self.rank - 1

    def __str__(self) -> str:
        return f"{RANKS[self.rank - 1]}{self.suit}"


FULL_DECK: tuple[Card, ...] = tuple(Card(rank, suit) for suit in SUITS for rank in range(1, 14))
"""The 52 cards in the documented base order: AC..KC, AD..KD, AH..KH, AS..KS."""
NOTATION: dict[Card, str] = {card: str(card) for card in FULL_DECK}
"""Each card's notation (``str(card)``), looked up where many cards are written at once (a view, a layout key)."""


CODES: dict[Card, int] = {card: code for code, card in enumerate(FULL_DECK)}
"""Each card's place in :data:`FULL_DECK`: what a saved board holds instead of the card."""


def pack(cards: Iterable[Card]) -> bytes:
    """The cards as their codes, for a board kept aside (undo): one byte a card, in one object the garbage
    collector never walks (a tuple of cards, a tuple subclass, it walks at every full collection).

    >>> list(pack([Card(1, "C"), Card(13, "S")])), unpack(bytes((0, 51)))
    ([0, 51], [Card(rank=1, suit='C'), Card(rank=13, suit='S')])
    """
    return bytes(map(CODES.__getitem__, cards))


def unpack(codes: Iterable[int]) -> list[Card]:
    """The cards of :func:`pack`'s codes, in order."""
    return list(map(FULL_DECK.__getitem__, codes))


PILE_BREAK = b"\xff"
"""Between two piles in :func:`pack_piles` (no card's code)."""


def pack_piles(piles: Iterable[Iterable[Card]]) -> bytes:
    """Several piles as one object of codes, the piles apart by :data:`PILE_BREAK` (a few dozen bytes a board).

    >>> unpack_piles(pack_piles([[Card(1, "C")], [], [Card(2, "C"), Card(3, "C")]]))
    [[Card(rank=1, suit='C')], [], [Card(rank=2, suit='C'), Card(rank=3, suit='C')]]
    """
    return PILE_BREAK.join(map(pack, piles))


def unpack_piles(packed: bytes) -> list[list[Card]]:
    """The piles of :func:`pack_piles`, in order."""
    return [unpack(pile) for pile in packed.split(PILE_BREAK)]


def notation(cards: Iterable[Card]) -> list[str]:
    """The cards in notation, in order (``str`` of each).

    >>> notation([Card(10, "H"), Card(1, "S")])
    ['TH', 'AS']
    """
    return list(map(NOTATION.__getitem__, cards))


def parse_deck(text: str | Iterable[str]) -> tuple[Card, ...]:
    """Parse 52 distinct card names (a string split on whitespace or commas, or a list).

    :raises InvalidDeckError: unless exactly the 52 cards each appear once.
    """
    names = text.replace(",", " ").split() if isinstance(text, str) else list(text)
    try:
        cards = tuple(Card.parse(name) for name in names)
    except InvalidCardError as error:
        raise InvalidDeckError(f"invalid deck: {error}") from None
    return check_deck(cards)


def check_deck(cards: Sequence[Card]) -> tuple[Card, ...]:
    """Return the cards as a tuple if they are the 52 distinct cards; :raises InvalidDeckError:."""
    if len(cards) != 52 or len(set(cards)) != 52:
        raise InvalidDeckError(f"a deck needs 52 distinct cards, got {len(cards)} ({_deck_problems(cards)})")
    return tuple(cards)


def _deck_problems(cards: Sequence[Card]) -> str:
    """Name the duplicated and the missing cards of a bad deck, e.g. ``duplicated AS; missing 2C``."""
    counts = Counter(cards)
    duplicated = [card for card in FULL_DECK if counts[card] > 1]
    missing = [card for card in FULL_DECK if not counts[card]]
    parts = [
        f"{label} {' '.join(map(str, group[:12]))}" + (f" and {len(group) - 12} more" if len(group) > 12 else "")
        for label, group in (("duplicated", duplicated), ("missing", missing))
        if group
    ]
    return "; ".join(parts)


def format_deck(cards: Iterable[Card]) -> str:
    """Write cards in notation separated by spaces (the inverse of :func:`parse_deck`)."""
    return " ".join(str(card) for card in cards)
