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


def move_names(view: BoardView) -> dict[str, dict[str, str]]:
    """For each slot holding a card that may be picked up, the move (notation) a drop of it on each other slot asks for.

    The legal ones are :func:`move_dests`'s; the others (onto the waste too) name the move the engine refuses
    in its own words. The stock is no target: it is no place in the notation.
    """
    legal = move_dests(view)
    targets = {WASTE: WASTE} | {pile_slot(i): pile_slot(i) for i in range(len(view.tableau))}
    targets |= {foundation_slot(f): "f" if f.label in _SUIT_SLOTS else f.label for f in view.foundations}
    sources = [WASTE] if view.waste_fan else []
    sources += [pile_slot(i) for i, pile in enumerate(view.tableau) if pile.cards]
    sources += [foundation_slot(f) for f in view.foundations if f.top and f.label in _SUIT_SLOTS]
    return {
        source: {
            slot: legal.get(source, {}).get(slot, f"{source}-{target}")
            for slot, target in targets.items()
            if slot != source
        }
        for source in sources
    }


def _suit_foundation(view: BoardView, source: str) -> str:
    """The foundation slot the top card of ``source`` (the waste or a pile) goes up to."""
    cards = view.waste_fan if source == WASTE else view.tableau[int(source) - 1].cards
    return _SUIT_SLOTS[cards[-1].suit]
