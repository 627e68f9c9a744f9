"""The terminal game behind ``python -m solitaire play``: line editing, colour, the clock announced on time."""

from __future__ import annotations

import io
import os
import re
import signal
import textwrap
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import TextIO

from solitaire.after_cli import terminal_hint
from solitaire.errors import SolitaireError
from solitaire.game import Game
from solitaire.guide import help_text, rules_text
from solitaire.status import Status
from solitaire.textboard import LEGEND, draw_board
from solitaire.view import view_of

Reader = Callable[[str], "str | None"]
"""Reads one line after showing a prompt; ``None`` at the end of input."""
QUIT = frozenset({"quit", "exit", "q"})
ARROWS = ("\u2192", "->")
"""Arrow forms of the move dash, as the Discord autocomplete writes them (``3 → f``)."""
INTERRUPTED = 130
"""Exit status after Ctrl-C (128 + SIGINT)."""
COLUMNS = 80
"""The terminal width everything the game prints fits in (suit symbols are one column each)."""
TIP = "(the waste's playable card is in [brackets]; type help or rules)"
"""The line under the first board."""
_DESCRIPTION_COLUMN = re.compile(r" *\S.*? {2,}")


class ClockRanOutError(Exception):
    """The game's clock ran out while the player was typing."""


def fitted(text: str, width: int = COLUMNS) -> str:
    """``text`` with every line longer than ``width`` wrapped at spaces, continued under its own text.

    A continuation lines up with the line's description column (after a run of two spaces, as in
    the command list) or its indent.

    >>> print(fitted("  undo (or u)   take back the last move (not one that showed you a new card)", 50))
      undo (or u)   take back the last move (not one
                    that showed you a new card)
    """
    return "\n".join(_fitted_line(line, width) for line in text.split("\n"))


def _fitted_line(line: str, width: int) -> str:
    """One line, wrapped to ``width`` columns if longer."""
    if len(line) <= width:
        return line
    column = _DESCRIPTION_COLUMN.match(line)
    indent = " " * (column.end() if column and column.end() <= width // 2 else len(line) - len(line.lstrip()))
    return "\n".join(textwrap.wrap(line, width, subsequent_indent=indent, break_on_hyphens=False))


def normalise(line: str) -> str:
    """Turn a typed line into move notation: lower case, arrows as dashes, spaces and any ``: words`` dropped.

    >>> normalise("3 → 5: 7♥ onto 8♠"), normalise("W->F"), normalise("  ")
    ('3-5', 'w-f', '')
    """
    text = line.split(":", 1)[0].strip().lower()
    for arrow in ARROWS:
        text = text.replace(arrow, "-")
    return text.replace(" ", "")


def wants_colour(stream: TextIO) -> bool:
    """Whether to print red suits in colour: ``stream`` is a terminal, ``NO_COLOR`` unset, ``TERM`` not dumb."""
    is_tty = getattr(stream, "isatty", lambda: False)()
    return bool(is_tty) and not os.environ.get("NO_COLOR") and os.environ.get("TERM") != "dumb"


def stream_reader(stdin: TextIO, out: TextIO) -> Reader:
    """Return a reader over a plain stream (a pipe, a file, a test's ``StringIO``)."""

    def read(prompt: str) -> str | None:
        out.write(prompt)
        out.flush()
        line = stdin.readline()
        return line if line else None

    return read


def terminal_reader() -> Reader:
    """Return a reader with line editing and history (``readline``, where the platform has it)."""
    with suppress(ImportError):  # platforms without readline still play, without editing
        import readline  # noqa: F401  (importing it gives input() editing and history)

    def read(prompt: str) -> str | None:
        try:
            return input(prompt)
        except EOFError:
            return None

    return read


@contextmanager
def alarm_after(seconds: float, enabled: bool) -> Iterator[None]:
    """Raise :class:`ClockRanOutError` in the main thread after ``seconds`` (if ``enabled`` and signals allow)."""
    usable = enabled and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def ring(_signum: int, _frame: FrameType | None) -> None:
        raise ClockRanOutError

    previous = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, max(seconds, 0.001))
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def play_loop(
    game: Game,
    stdin: TextIO,
    out: TextIO,
    *,
    reader: Reader | None = None,
    clock: Callable[[], float] = time.monotonic,
    colour: bool = False,
    alarm: bool = False,
) -> int:
    """Play ``game`` with lines from ``reader`` (default: ``stdin``) until it ends or the player quits.

    ``alarm`` announces the end of the clock the moment it comes, even while a line is being typed.
    Return the exit status: 0, or :data:`INTERRUPTED` after Ctrl-C.
    """
    read = reader or stream_reader(stdin, out)
    start = clock()
    limit = game.rules.time_limit

    def left() -> float:
        return limit - (clock() - start)

    def show() -> None:
        out.write(draw_board(view_of(game), time_left=left(), colour=colour) + "\n")

    show()
    out.write(f"{LEGEND}\n{TIP}\n")
    try:
        while not game.is_over:
            try:
                with alarm_after(left(), alarm):
                    line = read("> ") if left() > 0 else ""
            except ClockRanOutError:
                line = ""
            if line is None or normalise(line) in QUIT:
                out.write("Left the game unfinished.\n")
                return 0
            if left() > 0:
                _answer(game, line, out, show, clock() - start)
            if left() <= 0 and game.status in (Status.PLAYING, Status.EXPIRED):
                game.expire()
                out.write("\nTime's up: the game expired.\n")
                break
    except KeyboardInterrupt:
        out.write("\nLeft the game unfinished.\n")
        return INTERRUPTED
    _summary(game, out)
    return 0


def refusal_line(refusal: SolitaireError, typed: str, game: Game) -> str:
    """The engine's refusal in one short line: the move quoted as typed, the notation summary left to ``help``.

    >>> from solitaire import new_game
    >>> game = new_game("draw3", seed=1)
    >>> try:
    ...     game.play(normalise("foo bar"))
    ... except SolitaireError as refusal:
    ...     print(refusal_line(refusal, "foo bar", game))
    unknown move 'foo bar' (type help for the moves)
    """
    message = str(refusal).replace(repr(normalise(typed)), repr(typed.strip()))
    for joint in (": ", "; "):
        summary = joint + game.notation_help
        if message.endswith(summary):
            return message.removesuffix(summary) + " (type help for the moves)"
    return message


def _answer(game: Game, line: str, out: TextIO, show: Callable[[], None], seconds: float) -> None:
    """Answer one typed line: a command or a move (an empty line does nothing)."""
    text = normalise(line)
    if not text:
        return
    if text in ("help", "?", "h"):
        out.write(fitted(help_text(game.rules)))
    elif text == "rules":
        out.write(fitted(rules_text(game.rules)))
    elif text == "moves":
        out.write(fitted(" ".join(str(move) for move in game.legal_moves())) + "\n")
    elif text == "board":
        show()
    elif text == "hint":
        answer = io.StringIO()
        terminal_hint(game, seconds=seconds, out=answer)
        out.write(fitted(answer.getvalue()))
    else:
        try:
            game.play(text, seconds=seconds)
        except SolitaireError as refusal:
            if game.status is not Status.EXPIRED:  # the clock's end is announced by the caller
                out.write(fitted(f"! {refusal_line(refusal, line, game)}") + "\n")
            return
        show()


def _summary(game: Game, out: TextIO) -> None:
    """Write the outcome and the score sheet."""
    out.write(f"Game {game.status.value}: score {game.score}\n")
    for label, points in game.sheet.lines():
        out.write(f"  {label:<22}{points:>6}\n")
