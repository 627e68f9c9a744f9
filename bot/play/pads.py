"""Each family's board buttons without Discord: which buttons a board shows and what a click means.

A pad is a family's button layout as data (:class:`ButtonSpec`, turned into Discord buttons by
``cogs/board.py``) plus the meaning of its clicks (:meth:`Pad.resolve`). :data:`PADS` registers
one pad per family; nothing else in the bot asks which family a board shows.
"""

from __future__ import annotations

import functools
from abc import ABC, abstractmethod
from collections.abc import Hashable
from dataclasses import dataclass
from typing import ClassVar, Literal, NamedTuple, cast

from solitaire import DRAW, END, UNDO, IllegalMoveError, Move, MoveKind, find_variant
from solitaire.cards import SUIT_SYMBOLS, Card
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS, PILES
from solitaire.speech import N_, _, spoken
from solitaire.variants import Family
from solitaire.view import BoardView

TO_FOUNDATION = "f"
"""The "to foundation" button: the selected card up, or every card that can go up."""
CHOOSE = "pick"
"""The Choose button: the next press on a pile or the waste selects it, even a card that would go up."""
CHOOSING = "ch"
"""The selection a board shows after Choose (in its ids' selected field): no source yet, the next press selects."""
# Translators: **Choose** is a board button's label: write it as you translated that.
CHOOSING_TEXT = N_(
    "Choose: click the card to move (a pile or the waste): it is selected even if it could go up. "
    "**Choose** again cancels."
)
"""The board's line while it waits for the card Choose selects (marked: say it with ``_(CHOOSING_TEXT)``)."""
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


PLAY_HERE_ROW = 4
"""The button row no pad lays out (nor its Hint): **Play here**, which opens the Activity, goes there."""


class Pad(ABC):
    """A family's buttons: their actions, which of them select a source, the layout and the clicks."""

    actions: ClassVar[frozenset[str]]
    """Every action of this family's buttons besides :data:`COMMANDS`."""
    sources: ClassVar[frozenset[str]]
    """Actions that select a move source (a board id may carry one of them as its selection)."""
    selections: ClassVar[frozenset[str]]
    """What a board id may carry as its selection: the sources, and any state of the pad's own (:data:`CHOOSING`)."""
    hint_row: ClassVar[int]
    """The button row with room for Hint (beside End game)."""
    how_to_words: ClassVar[str]
    """How a move is made with these buttons (marked with ``N_``; :attr:`how_to` says it)."""
    first_tip_words: ClassVar[str]
    """The one-line tip on a player's first board (marked with ``N_``; :attr:`first_tip` says it)."""

    @property
    def how_to(self) -> str:
        """How a move is made with these buttons, for ``/solitaire help`` (Markdown, a few lines)."""
        return _(self.how_to_words)

    @property
    def first_tip(self) -> str:
        """The one-line tip on a player's first board."""
        return _(self.first_tip_words)

    @abstractmethod
    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """The buttons of a running game showing ``view`` with ``selected`` highlighted (<= 5 rows of 5)."""

    @abstractmethod
    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """What clicking ``action`` (not a command) means; :raises IllegalMoveError: if nothing."""

    @abstractmethod
    def tap(self, view: BoardView, source: str) -> Click:
        """What a tap on the card at ``source`` means where cards are touched (the Activity's page).

        A tap does what a press of that card's button does: up, its one place, or a choice of places
        (:class:`Select`). :raises IllegalMoveError: the card cannot move.
        """


class KlondikePad(Pad):
    """A press sends a card up if it can go; else it moves a card with one place to go, or selects it.

    The Rush rules' double-tap sends a card to its foundation, so a press does too, even where the card
    could also go onto a pile: the move a player wants most is one press. **Choose** then a card selects
    it whatever its places, for the rarer move of a card that could go up onto a pile instead.
    """

    actions = frozenset((*PILES, "w", *FOUNDATION_SOURCES, TO_FOUNDATION, CHOOSE))
    sources = frozenset((*PILES, "w", *FOUNDATION_SOURCES))
    selections = sources | {CHOOSING}
    hint_row = 3
    # Translators: the bold words are the board's button labels: write them as you translated those.
    how_to_words = N_(
        "Click the card to move (**Pile 1**..**Pile 7** or **Waste**): if it can go up to its foundation, it goes "
        "up at once; else if it can go to only one place, it goes there. If it can go to several, the places it "
        "may go light up green: click one (or the selected button again to cancel). To put a card that could go "
        "up somewhere else, click **Choose**, then the card, then a lit place. A suit button takes that "
        "foundation's card back down (then click the pile). **All up** plays every card that can go up to the "
        "foundations. **Draw** turns the stock, **Undo** takes a move back, **End game** stops the clock."
    )
    # Translators: the bold words are the board's button labels: write them as you translated those.
    first_tip_words = N_(
        "💡 First game? Click a pile (or **Waste**): a card that can go up goes up, one with one place to go "
        "moves there; with several, click a lit button. **Choose** first to put a card elsewhere than up. "
        "More: `/solitaire help`"
    )

    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """Piles 1-7, Waste Draw Undo, the suits, (All|Selected card) up, Choose, End game; lit targets."""
        return _klondike_layout(view.can_undo, selected, _lit_targets(view, selected), _speaking())

    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """Complete ``selected-target``, cancel the selection, or press a source afresh (a suit button means ``f``).

        Choose with nothing selected waits for a source (:data:`CHOOSING`), and with anything selected cancels.
        """
        if action not in self.actions:
            raise IllegalMoveError(_("{action}: not a Klondike button", action=action))
        if action == CHOOSE:
            return Select(CHOOSING if selected is None else None)
        if selected is None or selected == CHOOSING:
            if action == TO_FOUNDATION:
                return AllUp()
            return _press(view, action, choosing=selected == CHOOSING)
        if action == selected:
            return Select(None)
        if action == TO_FOUNDATION:
            if selected in FOUNDATION_SOURCES:
                move = f"{selected}-f"
                raise IllegalMoveError(_("{move}: that card is already on a foundation", move=move))
            return Play(Move.play(selected, "f"))
        if action == "w" or (action in FOUNDATION_SOURCES and selected in FOUNDATION_SOURCES):
            return _press(view, action)
        return Play(Move.play(selected, "f" if action in FOUNDATION_SOURCES else action))

    def tap(self, view: BoardView, source: str) -> Click:
        """A tap is a press of the card's button (``1``..``7``, ``w``, a foundation's ``fs``..``fc``)."""
        if source not in self.sources:
            raise IllegalMoveError(f"{source}: not a card of this board")
        return _press(view, source)

    def presses(self, view: BoardView, move: Move) -> tuple[str, ...]:
        """The fewest presses that play ``move`` on a board showing ``view`` with nothing selected.

        The source alone, the source then the target, or Choose, the source and the target: each tried
        through :meth:`resolve`, as the buttons would be pressed.

        :raises IllegalMoveError: if no presses play it.
        """
        if move.kind is not MoveKind.PLAY:
            return (str(move),)
        target = TO_FOUNDATION if move.target == "f" else move.target
        for presses in ((move.source,), (move.source, target), (CHOOSE, move.source, target)):
            if self._pressed(view, presses) == Play(move):
                return presses
        raise IllegalMoveError(f"{move}: no presses play it")

    def _pressed(self, view: BoardView, presses: tuple[str, ...]) -> Click | None:
        """What the last of ``presses`` means if each before it selects (``None`` if one plays or is refused)."""
        selected: str | None = None
        for action in presses[:-1]:
            try:
                click = self.resolve(view, selected, action)
            except IllegalMoveError:
                return None
            if not isinstance(click, Select):
                return None
            selected = click.source
        try:
            return self.resolve(view, selected, presses[-1])
        except IllegalMoveError:
            return None


class Friday13Pad(Pad):
    """Draw, Undo, End game, and one button per foundation that plays the waste top there."""

    actions = frozenset(f"t{label}" for label in FRIDAY13_LABELS)
    sources = frozenset()
    selections = frozenset()
    hint_row = 0
    # Translators: the bold words are the board's button labels: write them as you translated those.
    how_to_words = N_(
        "**Draw** turns the next card; the buttons **→ J** .. **→ 10** light up where that card may go, and one "
        "click plays it there. **Undo** takes a move back, **End game** stops the clock."
    )
    # Translators: the bold words are the board's button labels: write them as you translated those.
    first_tip_words = N_(
        "💡 First game? **Draw** a card, then click a lit **→** button to play it there. More: `/solitaire help`"
    )

    def layout(self, view: BoardView, selected: str | None) -> tuple[ButtonSpec, ...]:
        """Row 0: Draw, Undo, End game; rows 1-3: ``→ J`` .. ``→ 10``, lit where the waste top goes."""
        legal = frozenset(move.target for move in view.legal_moves if move.kind is MoveKind.PLAY)
        return _friday13_layout(view.can_undo, legal, _speaking())

    def resolve(self, view: BoardView, selected: str | None, action: str) -> Click:
        """``tJ`` plays the waste top onto the J foundation."""
        if action.startswith("t") and action[1:] in FRIDAY13_LABELS:
            return Play(Move.play("w", action[1:]))
        raise IllegalMoveError(_("{action}: not a Friday 13 button", action=action))

    def tap(self, view: BoardView, source: str) -> Click:
        """Only the waste's card moves: to its one foundation, or a choice of the foundations it fits."""
        if source != "w":
            raise IllegalMoveError(_("{source}: only the waste's top card moves in Friday 13", source=source))
        if not view.waste_count:
            raise IllegalMoveError(_(_EMPTY_WASTE))
        targets = targets_of(view, source)
        if not targets:
            # Translators: "w:" names the waste in move notation: keep it as it is.
            raise IllegalMoveError(_("w: the waste card fits on no foundation now: draw"))
        return Play(Move.play(source, targets[0])) if len(targets) == 1 else Select(source)


@functools.lru_cache(maxsize=2048)
def _klondike_layout(
    can_undo: bool, selected: str | None, lit: frozenset[str], speaking: Hashable
) -> tuple[ButtonSpec, ...]:
    """The Klondike buttons (a few hundred layouts in all, so each is built once).

    With a selection, the selected button is blue, the ``lit`` targets green and the other
    source buttons off; Draw, Undo, All up (then "Selected card up"), Choose and End game stay as they are.
    While Choose waits for a source (:data:`CHOOSING`), Choose is blue and every other button as with none.
    ``speaking`` (the catalogue spoken) only keys the cache: each language's labels are built once.
    """
    choosing = selected == CHOOSING
    if choosing:
        selected = None

    def source(action: str, label: str, row: int) -> ButtonSpec:
        if selected is None:
            return ButtonSpec(action, label, row)
        if action == selected:
            return ButtonSpec(action, label, row, "primary")
        return ButtonSpec(action, label, row, "success" if action in lit else "secondary", action not in lit)

    # Translators: a board button: the tableau pile of that number.
    specs = [source(pile, _("Pile {number}", number=pile), index // 5) for index, pile in enumerate(PILES)]
    specs += [
        # Translators: a board button: the waste pile (the cards turned from the stock).
        source("w", _("Waste"), 1),
        # Translators: a board button: turn cards from the stock.
        ButtonSpec("draw", _("Draw"), 1, "primary"),
        # Translators: a board button: take the last move back.
        ButtonSpec("undo", _("Undo"), 1, disabled=not can_undo),
    ]
    specs += [source(action, SUIT_SYMBOLS[suit], 2) for action, suit in FOUNDATION_SOURCES.items()]
    if selected is None:
        # Translators: a board button: send every card that can go to the foundations up.
        up = ButtonSpec(TO_FOUNDATION, _("All up"), 2, "primary")
    else:
        lit_up = TO_FOUNDATION in lit
        # Translators: a board button: send the selected card up to its foundation.
        up_label = _("Selected card up")
        up = ButtonSpec(TO_FOUNDATION, up_label, 2, "success" if lit_up else "secondary", not lit_up)
    # Translators: a board button: the next press selects a card, even one that could go up.
    choose = ButtonSpec(CHOOSE, _("Choose"), 3, "primary" if choosing else "secondary")
    # Translators: a board button: stop the game (and its clock) now.
    specs += [up, choose, ButtonSpec("end", _("End game"), 3, "danger")]
    return tuple(specs)


@functools.lru_cache(maxsize=1024)
def _friday13_layout(can_undo: bool, legal: frozenset[str], speaking: Hashable) -> tuple[ButtonSpec, ...]:
    """The Friday 13 buttons for the foundations the waste top may go on (``legal``; ``speaking`` keys the cache)."""
    specs = [
        ButtonSpec("draw", _("Draw"), 0, "primary"),
        ButtonSpec("undo", _("Undo"), 0, disabled=not can_undo),
        ButtonSpec("end", _("End game"), 0, "danger"),
    ]
    for index, label in enumerate(FRIDAY13_LABELS):
        style: Style = "success" if label in legal else "secondary"
        specs.append(ButtonSpec(f"t{label}", f"→ {label}", 1 + index // 5, style, disabled=label not in legal))
    return tuple(specs)


def _speaking() -> Hashable:
    """The catalogue spoken now, as a key of the layouts' caches (each language's labels are built once)."""
    return cast(Hashable, spoken())


PADS: dict[Family, Pad] = {Family.KLONDIKE: KlondikePad(), Family.FRIDAY13: Friday13Pad()}
"""The buttons of every family: the bot's one registration point for a new family."""
ACTIONS = {family: pad.actions | frozenset(COMMANDS) for family, pad in PADS.items()}
"""Every action a board button of each family may carry (its pad's and the commands)."""
ALL_ACTIONS = frozenset().union(*ACTIONS.values())
"""Every action a board button may carry, whatever its family."""


def _after_selection() -> dict[str, frozenset[str]]:
    allowed: dict[str, frozenset[str]] = {}
    for family, pad in PADS.items():
        for selection in pad.selections:
            allowed[selection] = allowed.get(selection, frozenset()) | ACTIONS[family]
    return allowed


AFTER_SELECTION = _after_selection()
"""For each selection a board may show (a source, or Choose waiting for one), the actions its buttons may then carry."""
KLONDIKE_ACTIONS = ACTIONS[Family.KLONDIKE]
FRIDAY13_ACTIONS = ACTIONS[Family.FRIDAY13]


def pad_for(family: Family) -> Pad:
    """The buttons of ``family``'s boards."""
    return PADS[family]


def targets_of(view: BoardView, source: str) -> tuple[str, ...]:
    """Where the card (or a run) at ``source`` may go now, in move notation (``"f"``: its foundation)."""
    return tuple(move.target for move in view.legal_moves if move.kind is MoveKind.PLAY and move.source == source)


def _press(view: BoardView, source: str, *, choosing: bool = False) -> Click:
    """A press on ``source`` with nothing selected: up, its one move, or a selection; :raises IllegalMoveError:.

    A card that can go up goes up (the Rush double-tap); a foundation's card, or any source after
    Choose (``choosing``), is always selected.
    """
    targets = targets_of(view, _check_source(view, source))
    if not targets:
        raise IllegalMoveError(_(_NOWHERE.get(source, _NO_PILE_MOVE), source=source))
    if choosing or source in FOUNDATION_SOURCES:
        return Select(source)
    if "f" in targets:
        return Play(Move.play(source, "f"))
    if len(targets) == 1:
        return Play(Move.play(source, targets[0]))
    return Select(source)


_NO_PILE_MOVE = N_("{source}: no card of that pile can move now")
_NOWHERE = {"w": N_("{source}: the waste card fits nowhere now")} | dict.fromkeys(
    FOUNDATION_SOURCES, N_("{source}: that foundation's card fits on no pile now")
)
"""Why a press on a source with cards has no move (a pile's reason is the default); ``{source}`` is its notation."""
_EMPTY_WASTE = N_("w: the waste is empty: draw first")
"""A press on the empty waste (``w`` is the waste in move notation)."""


def _lit_targets(view: BoardView, selected: str | None) -> frozenset[str]:
    """The buttons that complete a move from ``selected``: target piles, and for ``f`` its suit and All up."""
    if selected is None or selected == CHOOSING:
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
            raise IllegalMoveError(_(_EMPTY_WASTE))
    elif source in FOUNDATION_SOURCES:
        suit = FOUNDATION_SOURCES[source]
        if not find_variant(view.variant).foundation_to_tableau:
            raise IllegalMoveError(
                _("{source}: cards never leave the foundations in {variant}", source=source, variant=view.title)
            )
        if not any(f.label == suit and f.count for f in view.foundations):
            raise IllegalMoveError(_("{source}: that foundation is empty", source=source))
    elif not view.tableau[int(source) - 1].cards:
        raise IllegalMoveError(_("{source}: pile {source} has no face-up card to move", source=source))
    return source
