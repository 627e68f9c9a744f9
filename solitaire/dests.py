"""Where each card may go, by place on the board: the legal moves as (source slot, target slot) pairs.

A renderer draws slots (a pile, the waste, one foundation each); the notation names a Klondike foundation
target by ``f`` alone (the moving card's suit decides which). Here every move is keyed by the two slots it
joins, so a page can light the targets of a source and play a drop without reading the notation.
"""

from __future__ import annotations

from solitaire.moves import FOUNDATION_SOURCES, MoveKind
from solitaire.view import BoardView, FoundationView

WASTE = "w"
"""The waste's slot id (its source in notation)."""
_SUIT_SLOTS = {suit: slot for slot, suit in FOUNDATION_SOURCES.items()}


def foundation_slot(foundation: FoundationView) -> str:
    """A foundation's slot id: a suit's source in notation (``fs``), else its label (Friday 13's ``J``, ``10``).

    >>> foundation_slot(FoundationView("H", None, 0)), foundation_slot(FoundationView("10", None, 0))
    ('fh', '10')
    """
    return _SUIT_SLOTS.get(foundation.label, foundation.label)


def pile_slot(index: int) -> str:
    """The slot id of tableau pile ``index`` (from 0): its number in notation."""
    return str(index + 1)


def move_dests(view: BoardView) -> dict[str, dict[str, str]]:
    """For each source slot, each slot its card (or run) may go to now and the move (notation) that takes it there.

    A target ``f`` becomes the foundation of the moving card's suit; no face-down card is read.
    """
    dests: dict[str, dict[str, str]] = {}
    for move in view.legal_moves:
        if move.kind is MoveKind.PLAY:
            target = _suit_foundation(view, move.source) if move.target == "f" else move.target
            dests.setdefault(move.source, {})[target] = str(move)
    return dests


def drop_move(view: BoardView, source: str, target: str) -> str | None:
    """The move (notation) a drop of ``source``'s card on ``target`` asks for; ``None``: no such source or slot.

    A legal drop is named as :func:`move_dests` names it; any other names the move the engine refuses in its own
    words (onto the waste too). The stock is no target: it is no place in the notation. The name depends on the
    two slots alone, so a drop sent again at a later version is named as it was.

    >>> from solitaire import new_game, view_of
    >>> view = view_of(new_game("draw3", seed=1))
    >>> drop_move(view, "3", "5"), drop_move(view, "1", "fh"), drop_move(view, "1", "stock")
    ('3-5', '1-f', None)
    """
    if source not in _sources(view):
        return None
    names = {WASTE: WASTE} | {pile_slot(i): pile_slot(i) for i in range(len(view.tableau))}
    names |= {foundation_slot(f): "f" if f.label in _SUIT_SLOTS else f.label for f in view.foundations}
    if target not in names or target == source:
        return None
    return move_dests(view).get(source, {}).get(target, f"{source}-{names[target]}")


def _sources(view: BoardView) -> set[str]:
    """The slots holding a card that may be picked up: the waste, a pile with cards, a suit's foundation with one."""
    sources = {WASTE} if view.waste_fan else set()
    sources |= {pile_slot(i) for i, pile in enumerate(view.tableau) if pile.cards}
    return sources | {foundation_slot(f) for f in view.foundations if f.top and f.label in _SUIT_SLOTS}


def _suit_foundation(view: BoardView, source: str) -> str:
    """The foundation slot the top card of ``source`` (the waste or a pile) goes up to."""
    cards = view.waste_fan if source == WASTE else view.tableau[int(source) - 1].cards
    return _SUIT_SLOTS[cards[-1].suit]
