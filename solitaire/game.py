"""The engine every variant shares: the move stack, undo lock, clock-free time bonus and JSON."""

from __future__ import annotations

import dataclasses
import hashlib
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from copy import copy
from typing import Any, ClassVar

from solitaire.cards import Card, check_deck
from solitaire.errors import GameOverError, IllegalMoveError, SolitaireError
from solitaire.moves import Move, MoveKind, parse_notation
from solitaire.scoring import HINT_PENALTY, ScoreSheet, time_bonus
from solitaire.seen import BoardView, FoundationView, Knowledge, PileView
from solitaire.shuffle import SplitMix64
from solitaire.speech import N_, _
from solitaire.status import Status
from solitaire.variants import Family, Rules

CellText = Callable[[Card | None], str]
"""Draws one card (or an empty place) as text, for :meth:`Game.text_foundations`."""

EXPIRE = "expire"
"""The log entry that records the clock running out (not a player move)."""


_Snapshot = tuple[Any, tuple[int, ...], int]
"""A move kept for undo: the board as captured, the score sheet's points per line and the move count.

Plain numbers in plain tuples only, so the garbage collector stops walking it after its first look
(a game's undo stack can hold hundreds, and a full collection walks every tracked object).
"""


class Game(ABC):
    """A game in progress; subclasses hold one family's board and rules.

    Every change goes through :meth:`push` (or :meth:`play` with notation), which
    validates, applies, scores and checks for the end, or raises a
    :class:`SolitaireError` and leaves the game exactly as it was.

    A subclass is a whole family of variants: besides the board it says how its moves are
    written, shown and worded (the class attributes and class methods below), so no caller
    asks which family it holds. ``docs/variants.md`` lists what a new family provides.
    """

    family: ClassVar[Family]
    """The family this class plays (the key it is registered under in :mod:`solitaire.games`)."""
    notation_help: ClassVar[str]
    """How to write a move, quoted by every notation error (English marked with ``N_``: the error says it)."""
    goal: ClassVar[str]
    """How the game is played, in plain text (the rules' first paragraph; a :class:`~solitaire.words.Said`)."""
    scoring_text: ClassVar[str]
    """The scoring, in plain text (``Scoring: ...``; a :class:`~solitaire.words.Said`)."""
    bonus_total: ClassVar[int]
    """The denominator of the time bonus (cards a win places)."""

    stock: list[Card]
    """Face down; the next card drawn is the last one."""
    waste: list[Card]
    """Face up; the playable card is the last one."""
    recycles: int
    """Times the waste was turned back into the stock."""
    seen: set[Card]
    """Cards the player has seen (undo never takes back a move that showed a new one)."""
    visited: dict[str, tuple[int, int]]
    """:meth:`layout_key` of every position the game has been in: the last pass there, and :meth:`unseen` then."""

    def __init__(self, rules: Rules, deck: Sequence[Card]) -> None:
        self.rules = rules
        self.deck = check_deck(deck)
        self.status = Status.PLAYING
        self.sheet = ScoreSheet()
        self.move_count = 0
        """Card moves and draws in effect (undo takes one back)."""
        self.seconds_used: int | None = None
        """Whole seconds on the clock when the game ended (frozen at a solve)."""
        self.log: list[tuple[str, int]] = []
        """Every accepted command with its clock reading, undo and end included."""
        self._stack: list[_Snapshot] = []
        self._locked = False
        self._deal()
        self.visited = {}
        self._note_visit()

    # -- what subclasses provide ---------------------------------------------
    @classmethod
    def scoring_rule(cls, rules: Rules) -> str:
        """The scoring of ``rules``' variant in plain text: :attr:`scoring_text` unless a rule trims it."""
        return cls.scoring_text

    @abstractmethod
    def _deal(self) -> None:
        """Lay out the deck."""

    @abstractmethod
    def _capture(self) -> Any:
        """Return an immutable copy of the board."""

    @abstractmethod
    def _restore(self, board: Any) -> None:
        """Put back a board from :meth:`_capture`."""

    @abstractmethod
    def _apply(self, move: Move) -> bool:
        """Apply a draw or card move, returning whether it revealed an unseen card."""

    @abstractmethod
    def legal_moves(self) -> list[Move]:
        """Every draw and card move allowed now (not undo or end)."""

    @abstractmethod
    def placed_count(self) -> int:
        """Cards counted by the time bonus (on foundations / played)."""

    @property
    @abstractmethod
    def draw_count(self) -> int:
        """Cards a draw turns now."""

    @abstractmethod
    def view_piles(self) -> tuple[PileView, ...]:
        """The tableau as the player sees it (no face-down card named)."""

    @abstractmethod
    def view_foundations(self) -> tuple[FoundationView, ...]:
        """The foundations as the player sees them, in the order they are shown."""

    @abstractmethod
    def describe_play(self, move: Move) -> str | None:
        """Say in words what the card move ``move`` would do now (``None``: nothing to add)."""

    def move_places(self, move: Move) -> tuple[str, str]:
        """Where the card move ``move`` starts and ends on a picture of the board."""
        return move.source, move.target

    @classmethod
    @abstractmethod
    def guess(cls, rules: Rules, knowledge: Knowledge, rng: SplitMix64) -> Game:
        """A game that looks exactly as ``knowledge`` says, each card the player has not seen dealt at random."""

    @classmethod
    @abstractmethod
    def parse_play(cls, text: str, source: str, target: str) -> Move:
        """Check the card move ``source-target`` (``text`` as typed, for errors); :raises InvalidMoveError:."""

    @classmethod
    @abstractmethod
    def move_help(cls, rules: Rules) -> str:
        """Return how to write a move in ``rules``' variant (the terminal's ``help``)."""

    @classmethod
    @abstractmethod
    def text_foundations(cls, view: BoardView, cell: CellText) -> list[str]:
        """The foundations of ``view`` as lines of text, each card drawn by ``cell``."""

    @classmethod
    @abstractmethod
    def foundation_words(cls, foundation: FoundationView) -> str:
        """A foundation in words for a screen reader: ``♠: ace`` or ``J: Q♠``."""

    def is_safe_play(self, move: Move) -> bool:
        """Whether the card move ``move`` can never hurt: nothing could need the card it moves (``False``: unsure)."""
        return False

    def draw_is_free(self) -> bool:
        """Whether a draw now keeps every card within reach, so drawing can lose nothing; ``False`` if unsure."""
        return False

    @classmethod
    def known_foundation_cards(cls, view: BoardView) -> set[Card]:
        """Cards the foundations of ``view`` show the place of (beyond their top cards)."""
        return set()

    def _bonus_total(self) -> int:
        """The denominator of the time bonus."""
        return self.bonus_total

    @abstractmethod
    def _is_won(self) -> bool:
        """Whether every card is home."""

    @abstractmethod
    def _is_stuck(self) -> bool:
        """Whether no useful move is left."""

    def _after_move(self) -> None:  # noqa: B027 - an optional hook, empty by default
        """Hook run after each accepted card move or draw (Klondike plays out a solved game)."""

    # -- the public engine ---------------------------------------------------
    @property
    def score(self) -> int:
        """The score so far, time bonus included once the game is over."""
        return self.sheet.total

    @property
    def is_over(self) -> bool:
        """Whether the game has ended, in any way."""
        return self.status is not Status.PLAYING

    @property
    def can_undo(self) -> bool:
        """Whether :data:`UNDO` would be accepted now."""
        return not self.is_over and bool(self._stack)

    @property
    def hints(self) -> int:
        """Hints taken in this game (each logged as ``hint``)."""
        return -self.sheet.hints // HINT_PENALTY

    @property
    def hinted(self) -> bool:
        """Whether a hint was taken (a hinted game is not ranked on casual leaderboards)."""
        return self.sheet.hints != 0

    def position(self) -> tuple[Any, ScoreSheet, int, Status]:
        """An immutable, comparable copy of the board, score sheet, move count and status."""
        return (self._capture(), self.sheet, self.move_count, self.status)

    def layout_key(self) -> str:
        """The board as the player sees it, pass aside, as a short stable digest (what a hint checks for repeats).

        In Klondike, face-down cards only ever leave their piles and the stock keeps its order,
        so within a game what the player sees (with the pass) fixes the whole position; Friday 13
        plays every card for good. Equal keys in a later pass mean a pass that changed nothing.
        """
        return hashlib.blake2b(self._layout_text().encode(), digest_size=8).hexdigest()

    def unseen(self) -> int:
        """How many cards the player has never seen (face down, or in the stock and never turned)."""
        hidden = sum(pile.hidden for pile in self.view_piles())
        return hidden + sum(card not in self.seen for card in (*self.stock, *self.waste))

    def _layout_text(self) -> str:
        """What :meth:`layout_key` digests: each pile's face-down count and face-up cards, foundations, talon."""
        piles = " ".join(f"{pile.hidden}{''.join(map(str, pile.cards))}" for pile in self.view_piles())
        homes = " ".join(f"{home.label}{home.count}" for home in self.view_foundations())
        return f"{piles}/{homes}/{len(self.stock)}/{len(self.waste)}"

    def _note_visit(self) -> None:
        """Record the position now in :attr:`visited`."""
        self.visited[self.layout_key()] = (self.recycles, self.unseen())

    def branch(self) -> Game:
        """An independent copy of the game to look ahead in (moves played on it leave this one alone)."""
        twin = copy(self)
        twin._restore(self._capture())
        twin.seen, twin.visited = set(self.seen), dict(self.visited)
        twin.log, twin._stack = list(self.log), list(self._stack)
        return twin

    @property
    def version(self) -> int:
        """How many commands were accepted: changes whenever the game does."""
        return len(self.log)

    @classmethod
    def parse_move(cls, text: str) -> Move:
        """Parse notation for this family; :raises InvalidMoveError:."""
        return parse_notation(text, cls.notation_help, cls.parse_play)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` would be accepted now."""
        if self.is_over:
            return False
        if move.kind is MoveKind.UNDO:
            return self.can_undo
        return move.kind in (MoveKind.END, MoveKind.HINT) or move in self.legal_moves()

    def play(self, text: str, *, seconds: float = 0) -> Move:
        """Parse ``text`` and :meth:`push` it; return the move."""
        move = self.parse_move(text)
        self.push(move, seconds=seconds)
        return move

    def push(self, move: Move, *, seconds: float = 0) -> None:
        """Apply ``move`` at clock reading ``seconds``.

        :raises GameOverError: if the game is over or ``seconds`` reached the limit (it expires).
        :raises IllegalMoveError: if the rules refuse the move; the game is unchanged.
        """
        clock = int(max(seconds, 0))
        if self.is_over:
            raise GameOverError(_(_OVER[self.status], move=move))
        if clock >= self.rules.time_limit:
            self.expire()
            raise GameOverError(_("{move}: time is up, the game expired", move=move))
        if move.kind is MoveKind.UNDO:
            self._undo()
        elif move.kind is MoveKind.END:
            self._finish(Status.ENDED, clock)
        elif move.kind is MoveKind.HINT:
            self._score(hints=-HINT_PENALTY)
        else:
            self._apply_and_record(move, clock)
        self.log.append((str(move), clock))

    def pop(self) -> None:
        """Take back the last move (the same as pushing ``undo``)."""
        self.push(Move(MoveKind.UNDO), seconds=0)

    def expire(self) -> None:
        """End a running game because its clock ran out (no time bonus)."""
        if not self.is_over:
            self._finish(Status.EXPIRED, self.rules.time_limit)
            self.log.append((EXPIRE, self.rules.time_limit))

    def _apply_and_record(self, move: Move, clock: int) -> None:
        board, sheet, count = self._capture(), self.sheet, self.move_count
        try:
            revealed = self._apply(move)
        except SolitaireError:
            self._restore(board)
            self.sheet = sheet
            raise
        self.move_count += 1
        if revealed:
            self._stack.clear()
            self._locked = True
        else:
            self._stack.append((board, sheet.points(), count))
        self._after_move()
        self._note_visit()
        if self._is_won():
            self._finish(Status.WON, clock)
        elif self._is_stuck():
            self._finish(Status.STUCK, clock)

    def _undo(self) -> None:
        if not self._stack:
            if self._locked:
                raise IllegalMoveError(_("undo: the last move revealed a card you had not seen, so it stands"))
            raise IllegalMoveError(_("undo: there is no move to take back"))
        board, points, self.move_count = self._stack.pop()
        self._restore(board)
        self.sheet = dataclasses.replace(ScoreSheet(*points), hints=self.sheet.hints)  # a hint taken stays paid

    def _finish(self, status: Status, clock: int) -> None:
        self.status = status
        self.seconds_used = min(clock, self.rules.time_limit)
        bonus = time_bonus(self.rules.time_limit, clock, self.placed_count(), self._bonus_total())
        self.sheet = dataclasses.replace(self.sheet, time_bonus=bonus)
        self._stack.clear()

    def _turn_waste_over(self) -> None:
        """Turn the waste back into the stock; the cards come again in the order they were drawn."""
        self.recycles += 1
        self.stock, self.waste = list(reversed(self.waste)), []

    def _turn_from_stock(self, count: int) -> bool:
        """Turn up to ``count`` cards onto the waste; return whether one had not been seen before."""
        revealed = False
        for _turn in range(min(count, len(self.stock))):
            card = self.stock.pop()
            self.waste.append(card)
            revealed |= card not in self.seen
            self.seen.add(card)
        return revealed

    def _score(self, **points: int) -> None:
        """Add points to named lines of the score sheet."""
        changes = {name: getattr(self.sheet, name) + value for name, value in points.items()}
        self.sheet = dataclasses.replace(self.sheet, **changes)

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.rules.name} {self.status.value} score={self.score}>"


_OVER = {
    # Translators: a move sent to a finished game; {move} is the move in notation (3-5, draw, undo)
    Status.WON: N_("{move}: the game is over (won)"),
    Status.ENDED: N_("{move}: the game is over (ended)"),
    Status.STUCK: N_("{move}: the game is over (stuck)"),
    Status.EXPIRED: N_("{move}: the game is over (expired)"),
}
"""What a move sent to a game that has ended is told, by how it ended (English, marked for the catalogue)."""
