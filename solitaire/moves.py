"""Move notation (a public contract): ``draw``, ``undo``, ``end``, ``3-5``, ``w-f``, ``fh-2``, ``w-J``.

The commands are common to every family; each game class checks its own card moves
(:meth:`solitaire.game.Game.parse_play`), and :func:`solitaire.parse_move` picks the class.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum

from solitaire.errors import InvalidMoveError
from solitaire.speech import _

PILES = tuple(str(number) for number in range(1, 8))
FOUNDATION_SOURCES = {"fs": "S", "fh": "H", "fd": "D", "fc": "C"}
"""Move-notation source of each Klondike foundation and its suit, in view order (S H D C)."""
FRIDAY13_LABELS = ("J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")


class MoveKind(Enum):
    """What a move does."""

    DRAW = "draw"
    UNDO = "undo"
    END = "end"
    PLAY = "play"
    HINT = "hint"
    """A hint was taken: it costs points and marks the game as hinted (no card moves)."""


@dataclass(frozen=True)
class Move:
    """One command in notation form; ``source``/``target`` are set for ``PLAY`` only."""

    kind: MoveKind
    source: str = ""
    target: str = ""

    def __str__(self) -> str:
        if self.kind is MoveKind.PLAY:
            return f"{self.source}-{self.target}"
        return str(self.kind.value)

    @classmethod
    def play(cls, source: str, target: str) -> Move:
        """Build a card move, e.g. ``Move.play("w", "f")``."""
        return cls(MoveKind.PLAY, source, target)


DRAW = Move(MoveKind.DRAW)
UNDO = Move(MoveKind.UNDO)
END = Move(MoveKind.END)
HINT = Move(MoveKind.HINT)
_COMMANDS = {"draw": DRAW, "d": DRAW, "undo": UNDO, "u": UNDO, "end": END, "hint": HINT}


def is_card_move(text: str) -> bool:
    """Whether a logged command (notation) moves a card: ``source-target``, not a draw, undo, end, hint or expiry.

    >>> [is_card_move(text) for text in ("3-5", "w-f", "fh-2", "w-J", "draw", "undo", "end", "hint", "expire")]
    [True, True, True, True, False, False, False, False, False]
    """
    return "-" in text


PlayParser = Callable[[str, str, str], Move]
"""Checks a card move: ``(text, source, target) -> Move``; :raises InvalidMoveError:."""


def parse_notation(text: str, notation_help: str, parse_play: PlayParser) -> Move:
    """Parse a command or hand a ``source-target`` card move to ``parse_play``; :raises InvalidMoveError:.

    ``notation_help`` is English marked with ``N_``: a refusal says it in the spoken language.
    """
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        # Translators: {help} is a whole sentence saying how to write a move ("use draw, undo, end or ...")
        raise InvalidMoveError(_("empty move: {help}", help=_(notation_help)))
    if cleaned in _COMMANDS:
        return _COMMANDS[cleaned]
    source, dash, target = cleaned.partition("-")
    if not dash or not source or not target:
        # Translators: {text} is what the player typed, quoted; {help} says how to write a move
        raise InvalidMoveError(_("unknown move {text}: {help}", text=repr(text), help=_(notation_help)))
    return parse_play(text, source, target)
