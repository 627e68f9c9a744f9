"""Move notation (a public contract): ``draw``, ``undo``, ``end``, ``3-5``, ``w-f``, ``fh-2``, ``w-J``.

>>> parse_move("W-F", Family.KLONDIKE)
Move(kind=<MoveKind.PLAY: 'play'>, source='w', target='f')
>>> str(parse_move("w-10", Family.FRIDAY13))
'w-10'
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from solitaire.errors import InvalidMoveError
from solitaire.variants import Family

PILES = tuple(str(number) for number in range(1, 8))
FOUNDATION_SOURCES = {"fs": "S", "fh": "H", "fd": "D", "fc": "C"}
"""Move-notation source of each Klondike foundation and its suit, in view order (S H D C)."""
FRIDAY13_LABELS = ("J", "Q", "K", "A", "2", "3", "4", "5", "6", "7", "8", "9", "10")
_LABEL_ALIASES = {"T": "10", "11": "J", "12": "Q", "13": "K", "1": "A"}
_KLONDIKE_HELP = "use draw, undo, end or SRC-DST with SRC 1-7, w, fs, fh, fd, fc and DST 1-7 or f (e.g. 3-5, w-f)"
_FRIDAY13_HELP = "use draw, undo, end or w-LABEL with LABEL one of " + " ".join(FRIDAY13_LABELS)


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


def parse_move(text: str, family: Family) -> Move:
    """Parse one move for a variant family; :raises InvalidMoveError: with the reason."""
    cleaned = text.strip().lower().replace(" ", "")
    if not cleaned:
        raise InvalidMoveError(f"empty move: {_help(family)}")
    if cleaned in _COMMANDS:
        return _COMMANDS[cleaned]
    source, dash, target = cleaned.partition("-")
    if not dash or not source or not target:
        raise InvalidMoveError(f"unknown move {text!r}: {_help(family)}")
    if family is Family.FRIDAY13:
        return _parse_friday13(text, source, target)
    return _parse_klondike(text, source, target)


def _help(family: Family) -> str:
    return _FRIDAY13_HELP if family is Family.FRIDAY13 else _KLONDIKE_HELP


def _parse_klondike(text: str, source: str, target: str) -> Move:
    if source == "f":
        raise InvalidMoveError(f"say which foundation in {text!r}: fs, fh, fd or fc")
    if source not in PILES and source != "w" and source not in FOUNDATION_SOURCES:
        raise InvalidMoveError(f"unknown source {source!r} in {text!r}: {_KLONDIKE_HELP}")
    if target == "w":
        raise InvalidMoveError(f"cards never move onto the waste: {text!r}")
    if target in FOUNDATION_SOURCES:
        target = "f"
    if target not in PILES and target != "f":
        raise InvalidMoveError(f"unknown target {target!r} in {text!r}: {_KLONDIKE_HELP}")
    if source == target:
        raise InvalidMoveError(f"a move needs two different places: {text!r}")
    if source in FOUNDATION_SOURCES and target == "f":
        raise InvalidMoveError(f"a foundation card can only go to a tableau pile: {text!r}")
    return Move.play(source, target)


def _parse_friday13(text: str, source: str, target: str) -> Move:
    if source != "w":
        raise InvalidMoveError(f"only the waste plays in Friday 13: {text!r}; {_FRIDAY13_HELP}")
    label = target.upper()
    label = _LABEL_ALIASES.get(label, label)
    if label not in FRIDAY13_LABELS:
        raise InvalidMoveError(f"no foundation labelled {target!r} in {text!r}; {_FRIDAY13_HELP}")
    return Move.play("w", label)
