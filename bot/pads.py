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
from solitaire.cards import SUIT_SYMBOLS, Card
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
    """A press on a card with one place to go moves it; with several it selects, and a lit target completes it."""

    actions = frozenset((*PILES, "w", *FOUNDATION_SOURCES, TO_FOUNDATION))
    sources = frozenset((*PILES, "w", *FOUNDATION_SOURCES))
    hint_row = 3
    how_to = (
        "Click the card to move (**Pile 1**..**Pile 7** or **Waste**): if it can go to only one place, it goes "
        "there at once. If it can go to several, the places it may go light up green: click one (or the "
        "selected button again to cancel). A suit button takes that foundation's card back down (then click the "
        "pile). **All up** plays every card that can go up to the foundations. **Draw** turns the stock, "
        "**Undo** takes a move back, **End game** stops the clock."
    )
    first_tip = (
        "💡 First game? Click a pile (or **Waste**): a card with one place to go moves there; with several, "
        "click a lit button. **All up** plays every card that can go up. More: `/solitaire help`"
    )

    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """Piles 1-7, Waste Draw Undo, the suits, (All|Selected card) up, End game; a selection lights its targets."""
        return _klondike_layout(view.can_undo, selected, _lit_targets(view, selected))

    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """Complete ``selected-target``, cancel the selection, or press a source afresh (a suit button means ``f``)."""
        if action not in self.actions:
            raise IllegalMoveError(f"{action}: not a Klondike button")
        if selected is None:
            return AllUp() if action == TO_FOUNDATION else _press(view, action)
        if action == selected:
            return Select(None)
        if action == TO_FOUNDATION:
            if selected in FOUNDATION_SOURCES:
                raise IllegalMoveError(f"{selected}-f: that card is already on a foundation")
            return Play(Move.play(selected, "f"))
        if action == "w" or (action in FOUNDATION_SOURCES and selected in FOUNDATION_SOURCES):
            return _press(view, action)
        return Play(Move.play(selected, "f" if action in FOUNDATION_SOURCES else action))

    def presses(self, view: BoardView, move: Move) -> tuple[str, ...]:
        """The presses that play ``move`` on a board showing ``view`` with nothing selected (found by :meth:`resolve`).

        :raises IllegalMoveError: if no presses play it.
        """
        if move.kind is not MoveKind.PLAY:
            return (str(move),)
        if self.resolve(view, None, move.source) == Play(move):
            return (move.source,)
        target = TO_FOUNDATION if move.target == "f" else move.target
        if self.resolve(view, move.source, target) != Play(move):
            raise IllegalMoveError(f"{move}: no presses play it")
        return move.source, target


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


@functools.lru_cache(maxsize=512)
def _klondike_layout(can_undo: bool, selected: str | None, lit: frozenset[str]) -> tuple[ButtonSpec, ...]:
    """The Klondike buttons (a few hundred layouts in all, so each is built once).

    With a selection, the selected button is blue, the ``lit`` targets green and the other
    source buttons off; Draw, Undo, All up (then "Selected card up") and End game stay as they are.
    """

    def source(action: str, label: str, row: int) -> ButtonSpec:
        if selected is None:
            return ButtonSpec(action, label, row)
        if action == selected:
            return ButtonSpec(action, label, row, "primary")
        return ButtonSpec(action, label, row, "success" if action in lit else "secondary", action not in lit)

    specs = [source(pile, f"Pile {pile}", index // 5) for index, pile in enumerate(PILES)]
    specs += [
        source("w", "Waste", 1),
        ButtonSpec("draw", "Draw", 1, "primary"),
        ButtonSpec("undo", "Undo", 1, disabled=not can_undo),
    ]
    specs += [source(action, SUIT_SYMBOLS[suit], 2) for action, suit in FOUNDATION_SOURCES.items()]
    if selected is None:
        up = ButtonSpec(TO_FOUNDATION, "All up", 2, "primary")
    else:
        lit_up = TO_FOUNDATION in lit
        up = ButtonSpec(TO_FOUNDATION, "Selected card up", 2, "success" if lit_up else "secondary", not lit_up)
    specs += [up, ButtonSpec("end", "End game", 3, "danger")]
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


def targets_of(view: BoardView, source: str) -> tuple[str, ...]:
    """Where the card (or a run) at ``source`` may go now, in move notation (``"f"``: its foundation)."""
    return tuple(move.target for move in view.legal_moves if move.kind is MoveKind.PLAY and move.source == source)


def _press(view: BoardView, source: str) -> Click:
    """A press on ``source`` with nothing selected: its one move, or a selection; :raises IllegalMoveError:."""
    targets = targets_of(view, _check_source(view, source))
    if not targets:
        raise IllegalMoveError(f"{source}: {_NOWHERE.get(source, 'no card of that pile can move now')}")
    if len(targets) == 1 and source not in FOUNDATION_SOURCES:
        return Play(Move.play(source, targets[0]))
    return Select(source)


_NOWHERE = {"w": "the waste card fits nowhere now"} | dict.fromkeys(
    FOUNDATION_SOURCES, "that foundation's card fits on no pile now"
)
"""Why a press on a source with cards has no move (a pile's reason is the default)."""


def _lit_targets(view: BoardView, selected: str | None) -> frozenset[str]:
    """The buttons that complete a move from ``selected``: target piles, and for ``f`` its suit and All up."""
    if selected is None:
        return frozenset()
    lit = set(targets_of(view, selected)) - {"f"}
    if len(lit) < len(targets_of(view, selected)):
        lit |= {TO_FOUNDATION, _SUIT_BUTTONS[_top_card(view, selected).suit]}
    return frozenset(lit)


_SUIT_BUTTONS = {suit: action for action, suit in FOUNDATION_SOURCES.items()}


def _top_card(view: BoardView, source: str) -> Card:
    """The card a pile or the waste would send up (a source with a move to ``f`` has one)."""
    return view.waste_fan[-1] if source == "w" else view.tableau[int(source) - 1].cards[-1]


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
