"""What a player may see and know of a game, as plain values: the board's view and :class:`Knowledge`.

No face-down or unseen card's identity is in them. The engine (:mod:`solitaire.game` and each family's)
names these types; :func:`solitaire.view.view_of` and :func:`solitaire.knowledge.knowledge_of` build them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solitaire.cards import Card, notation
from solitaire.moves import Move
from solitaire.scoring import ScoreSheet
from solitaire.status import Status
from solitaire.variants import Family


@dataclass(frozen=True)
class PileView:
    """A tableau pile: how many cards lie face down, and the face-up cards bottom to top."""

    hidden: int
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class FoundationView:
    """A foundation: its label (suit letter or Friday 13 rank), top card and size."""

    label: str
    top: Card | None
    count: int
    takes: str | None = None
    """The rank that may go on next (``"Q"``); ``None`` where nothing may go: a locked or a full foundation."""


@dataclass(frozen=True)
class BoardView:
    """Everything a renderer or a player may know about a game at one moment."""

    variant: str
    title: str
    family: Family
    status: Status
    sheet: ScoreSheet
    move_count: int
    tableau: tuple[PileView, ...]
    foundations: tuple[FoundationView, ...]
    stock_count: int
    waste_count: int
    waste_fan: tuple[Card, ...]
    """The waste's visible top cards, bottom to top (up to this pass's draw count)."""
    draw_count: int
    pass_number: int
    """The current pass through the stock, from 1."""
    max_passes: int | None
    can_undo: bool
    seconds_used: int | None
    legal_moves: tuple[Move, ...]
    """Every draw and card move allowed now (they depend only on visible cards)."""

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.status is not Status.PLAYING

    @property
    def score(self) -> int:
        """The score shown to the player."""
        return self.sheet.total

    @property
    def placed(self) -> int:
        """Cards on the foundations (Friday 13: counting the four starters)."""
        return sum(foundation.count for foundation in self.foundations)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (cards in notation)."""
        return {
            "tableau": [{"hidden": p.hidden, "up": notation(p.cards)} for p in self.tableau],
            "foundations": [
                {"label": f.label, "top": str(f.top) if f.top else None, "count": f.count} for f in self.foundations
            ],
            "stock": self.stock_count,
            "waste": notation(self.waste_fan),
            "waste_count": self.waste_count,
            "pass": self.pass_number,
            "max_passes": self.max_passes,
            "can_undo": self.can_undo,
            "legal_moves": [str(move) for move in self.legal_moves],
        }


@dataclass(frozen=True)
class Knowledge:
    """Everything a player has seen of a game."""

    view: BoardView
    talon: tuple[Card | None, ...]
    """The waste bottom to top, then the stock in draw order: each card the player saw there, else ``None``."""
    visited: dict[str, tuple[int, int]]
    """:meth:`Game.layout_key` of every position the game has been in: the last pass it was seen in, and
    how many cards the player had not seen then."""

    @property
    def known_talon(self) -> set[Card]:
        """The stock and waste cards the player has seen."""
        return {card for card in self.talon if card is not None}

    def to_dict(self) -> dict[str, Any]:
        """The knowledge as JSON-ready data (the view's, plus the talon with ``null`` for unseen cards)."""
        return {
            **self.view.to_dict(),
            "talon": [str(card) if card else None for card in self.talon],
            "visited": dict(sorted(self.visited.items())),
        }
