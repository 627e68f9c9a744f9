"""Each family's board buttons without Discord: which buttons a board shows and what a click means.

A pad is a family's button layout as data (:class:`ButtonSpec`, turned into Discord buttons by
``cogs/board.py``) plus the meaning of its clicks (:meth:`Pad.resolve`). :data:`PADS` registers
one pad per family; nothing else in the bot asks which family a board shows.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import ClassVar, Literal, NamedTuple

from solitaire import DRAW, END, UNDO, IllegalMoveError, Move, MoveKind, find_variant
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS, PILES
from solitaire.variants import Family
from solitaire.view import BoardView

TO_FOUNDATION = "f"
"""The "to foundation" button: the selected card up, or every card that can go up."""
COMMANDS = {"draw": DRAW, "undo": UNDO, "end": END}
Style = Literal["primary", "secondary", "success", "danger"]


class ButtonSpec(NamedTuple):
    """One board button: the action in its custom id, its label, row, colour and whether it is off.

    A tuple, not a dataclass: a board lays out up to 19 of them on every click.
    """

    action: str
    label: str
    row: int
    style: Style = "secondary"
    disabled: bool = False


@dataclass(frozen=True)
class Select:
    """The click (de)selects a move source: redraw the board with ``source`` highlighted."""

    source: str | None


@dataclass(frozen=True)
class Play:
    """The click completes a command: push ``move`` (the selection is then cleared)."""

    move: Move


@dataclass(frozen=True)
class AllUp:
    """The click asks to play every card that can go to a foundation."""


Click = Select | Play | AllUp


class Pad(ABC):
    """A family's buttons: their actions, which of them select a source, the layout and the clicks."""

    actions: ClassVar[frozenset[str]]
    """Every action of this family's buttons besides :data:`COMMANDS`."""
    sources: ClassVar[frozenset[str]]
    """Actions that select a move source (a board id may carry one of them as its selection)."""
    hint_row: ClassVar[int]
    """The button row with room for Hint (beside End game)."""
    how_to: ClassVar[str]
    """How a move is made with these buttons, for ``/solitaire help`` (Markdown, a few lines)."""
    first_tip: ClassVar[str]
    """The one-line tip on a player's first board."""

    @abstractmethod
    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """The buttons of a running game showing ``view`` with ``selected`` highlighted (<= 5 rows of 5)."""

    @abstractmethod
    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """What clicking ``action`` (not a command) means; :raises IllegalMoveError: if nothing."""


class KlondikePad(Pad):
    """Piles, waste and suit foundations select; a second click names the target."""

    actions = frozenset((*PILES, "w", *FOUNDATION_SOURCES, TO_FOUNDATION))
    sources = frozenset((*PILES, "w", *FOUNDATION_SOURCES))
    hint_row = 3
    how_to = (
        "A move is two clicks: the card to move (**Pile 1**..**Pile 7**, **Waste**, or a suit button to take a card "
        "back down), then where it goes (a pile, or a suit button for its foundation); click the first one again "
        "to cancel. **All up** plays every card that can go up to the foundations (with a card selected: "
        "**Selected card up**). **Draw** turns the stock, **Undo** takes a move back, **End game** stops the clock."
    )
    first_tip = (
        "💡 First game? Click a pile (or **Waste**), then the pile or suit where it goes; "
        "**All up** plays every card that can go up. More: `/solitaire help`"
    )

    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """Piles 1-7, Waste Draw Undo, the four suits and (All|Selected card) up, End game."""
        return _klondike_layout(view.can_undo, selected)

    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """Select a source, cancel it, or complete ``source-target`` (a suit button means ``f``)."""
        if action == TO_FOUNDATION:
            if selected is None:
                return AllUp()
            if selected in FOUNDATION_SOURCES:
                raise IllegalMoveError(f"{selected}-f: that card is already on a foundation")
            return Play(Move.play(selected, "f"))
        if action not in self.sources:
            raise IllegalMoveError(f"{action}: not a Klondike button")
        if selected == action:
            return Select(None)
        if selected is None or action == "w" or (action in FOUNDATION_SOURCES and selected in FOUNDATION_SOURCES):
            return Select(_check_source(view, action))
        return Play(Move.play(selected, "f" if action in FOUNDATION_SOURCES else action))


class Friday13Pad(Pad):
    """Draw, Undo, End game, and one button per foundation that plays the waste top there."""

    actions = frozenset(f"t{label}" for label in FRIDAY13_LABELS)
    sources = frozenset()
    hint_row = 0
    how_to = (
        "**Draw** turns the next card; the buttons **→ J** .. **→ 10** light up where that card may go, and one "
        "click plays it there. **Undo** takes a move back, **End game** stops the clock."
    )
    first_tip = (
        "💡 First game? **Draw** a card, then click a lit **→** button to play it there. More: `/solitaire help`"
    )

    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """Row 0: Draw, Undo, End game; rows 1-3: ``→ J`` .. ``→ 10``, lit where the waste top goes."""
        legal = frozenset(move.target for move in view.legal_moves if move.kind is MoveKind.PLAY)
        return _friday13_layout(view.can_undo, legal)

    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """``tJ`` plays the waste top onto the J foundation."""
        if action.startswith("t") and action[1:] in FRIDAY13_LABELS:
            return Play(Move.play("w", action[1:]))
        raise IllegalMoveError(f"{action}: not a Friday 13 button")


@functools.lru_cache(maxsize=64)
def _klondike_layout(can_undo: bool, selected: str | None) -> tuple[ButtonSpec, ...]:
    """The Klondike buttons (a few dozen layouts in all, so each is built once)."""

    def source(action: str, label: str, row: int) -> ButtonSpec:
        return ButtonSpec(action, label, row, "success" if action == selected else "secondary")

    specs = [source(pile, f"Pile {pile}", index // 5) for index, pile in enumerate(PILES)]
    specs += [
        source("w", "Waste", 1),
        ButtonSpec("draw", "Draw", 1, "primary"),
        ButtonSpec("undo", "Undo", 1, disabled=not can_undo),
    ]
    specs += [source(action, SUIT_SYMBOLS[suit], 2) for action, suit in FOUNDATION_SOURCES.items()]
    up = "Selected card up" if selected and selected not in FOUNDATION_SOURCES else "All up"
    specs += [ButtonSpec(TO_FOUNDATION, up, 2, "primary"), ButtonSpec("end", "End game", 3, "danger")]
    return tuple(specs)


@functools.lru_cache(maxsize=256)
def _friday13_layout(can_undo: bool, legal: frozenset[str]) -> tuple[ButtonSpec, ...]:
    """The Friday 13 buttons for the foundations the waste top may go on (``legal``)."""
    specs = [
        ButtonSpec("draw", "Draw", 0, "primary"),
        ButtonSpec("undo", "Undo", 0, disabled=not can_undo),
        ButtonSpec("end", "End game", 0, "danger"),
    ]
    for index, label in enumerate(FRIDAY13_LABELS):
        style: Style = "success" if label in legal else "secondary"
        specs.append(ButtonSpec(f"t{label}", f"→ {label}", 1 + index // 5, style, disabled=label not in legal))
    return tuple(specs)


PADS: dict[Family, Pad] = {Family.KLONDIKE: KlondikePad(), Family.FRIDAY13: Friday13Pad()}
"""The buttons of every family: the bot's one registration point for a new family."""
ACTIONS = {family: pad.actions | frozenset(COMMANDS) for family, pad in PADS.items()}
"""Every action a board button of each family may carry (its pad's and the commands)."""
ALL_ACTIONS = frozenset().union(*ACTIONS.values())
"""Every action a board button may carry, whatever its family."""


def _after_selection() -> dict[str, frozenset[str]]:
    allowed: dict[str, frozenset[str]] = {}
    for family, pad in PADS.items():
        for source in pad.sources:
            allowed[source] = allowed.get(source, frozenset()) | ACTIONS[family]
    return allowed


AFTER_SELECTION = _after_selection()
"""For each source a board may show selected, the actions its buttons may then carry."""
KLONDIKE_ACTIONS = ACTIONS[Family.KLONDIKE]
FRIDAY13_ACTIONS = ACTIONS[Family.FRIDAY13]


def pad_for(family: Family) -> Pad:
    """The buttons of ``family``'s boards."""
    return PADS[family]


def _check_source(view: BoardView, source: str) -> str:
    """Return ``source`` if it has a card that could move; :raises IllegalMoveError: otherwise."""
    if source == "w":
        if not view.waste_count:
            raise IllegalMoveError("w: the waste is empty: draw first")
    elif source in FOUNDATION_SOURCES:
        suit = FOUNDATION_SOURCES[source]
        if not find_variant(view.variant).foundation_to_tableau:
            raise IllegalMoveError(f"{source}: cards never leave the foundations in {view.title}")
        if not any(f.label == suit and f.count for f in view.foundations):
            raise IllegalMoveError(f"{source}: that foundation is empty")
    elif not view.tableau[int(source) - 1].cards:
        raise IllegalMoveError(f"{source}: pile {source} has no face-up card to move")
    return source
