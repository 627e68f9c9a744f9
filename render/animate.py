"""A whole game as an animated GIF: one frame per command, a longer hold on the last (with the score sheet).

Frames are the renderer's own boards (:func:`render.board.draw_board`), so they show only what
the player saw. Every board shares one palette, so frames go into the GIF unquantised, and
Pillow stores each as the rectangle that changed. A long game is capped: at most
:data:`MAX_FRAMES` frames (every n-th command, the deal and the last board always), and a GIF
still over :data:`MAX_BYTES` is drawn again smaller.
"""

from __future__ import annotations

import io
import math
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TypeVar

from PIL import Image

from render import palette as pal
from render.board import draw_board
from render.sprites import LOCK
from solitaire.cards import Card
from solitaire.console import BAD_ARGUMENTS, OneLineParser, lower_case, shorten_values
from solitaire.errors import SolitaireError
from solitaire.game import EXPIRE
from solitaire.games import new_game
from solitaire.variants import VARIANTS, Rules
from solitaire.view import BoardView, view_of

V = TypeVar("V")

FRAME_MS = 180
"""How long each move shows."""
HOLD_MS = 4_000
"""How long the last board (with the score sheet when the game is over) shows."""
SCALE = 0.5
"""Frames are drawn at full size and shrunk by this factor (a phone-width GIF, far smaller)."""
MAX_BYTES = 8_000_000
"""The GIF stays below this (under 8 MiB, well within Discord's upload limit)."""
MAX_FRAMES = 400
"""Frames at most: every command of a 5-minute game (about 270 on average); a longer game shows every n-th."""
MIN_SCALE = 0.2
"""The smallest frames are drawn to fit :data:`MAX_BYTES`; below it, frames are dropped instead."""


@dataclass(frozen=True)
class Animation:
    """A finished GIF, its frame count and the share of the board picture's size it was drawn at."""

    data: bytes
    frames: int
    scale: float = SCALE


def game_views(rules: Rules, deck: Sequence[Card], log: Sequence[tuple[str, int]]) -> Iterator[BoardView]:
    """Yield the player's view of the deal and after each logged command (``expire`` ends the clock)."""
    game = new_game(rules, deck=deck)
    yield view_of(game)
    for text, seconds in log:
        if game.is_over:
            return
        if text == EXPIRE:
            game.expire()
        else:
            game.play(text, seconds=seconds)
        yield view_of(game)


def animate(
    rules: Rules,
    deck: Sequence[Card],
    log: Sequence[tuple[str, int]],
    *,
    frame_ms: int = FRAME_MS,
    hold_ms: int = HOLD_MS,
    scale: float = SCALE,
    four_colour: bool = False,
    max_frames: int = MAX_FRAMES,
    max_bytes: int = MAX_BYTES,
) -> Animation:
    """Draw the game whose move log (``(move, clock seconds)``, as ``Game.log``) is ``log`` as GIF bytes.

    At most ``max_frames`` frames (evenly sampled), under ``max_bytes`` (drawn smaller, then with
    fewer frames, until it fits). Blocking (about a second for 300 moves): the bot runs it in a worker.

    :raises SolitaireError: if the engine refuses a move.
    """
    views = sample(list(game_views(rules, deck, log)), max_frames)
    while True:
        data = _gif([_frame(view, scale, four_colour) for view in views], frame_ms, hold_ms)
        if len(data) < max_bytes or len(views) <= 2:
            return Animation(data, len(views), scale)
        if scale > MIN_SCALE:
            scale = max(MIN_SCALE, scale * math.sqrt(max_bytes / len(data)) * 0.9)
        else:
            views = sample(views, len(views) // 2)


def sample(views: Sequence[V], count: int) -> list[V]:
    """``count`` of ``views``, evenly spread, the first and the last always among them.

    >>> sample("abcdefghij", 4)
    ['a', 'd', 'g', 'j']
    """
    if len(views) <= count:
        return list(views)
    last = len(views) - 1
    return [views[round(index * last / (count - 1))] for index in range(max(count, 2))]


def _gif(frames: list[Image.Image], frame_ms: int, hold_ms: int) -> bytes:
    """The frames as one looping GIF, each padded to the tallest, the last held ``hold_ms``."""
    frames = _same_size(frames)
    durations = [frame_ms] * (len(frames) - 1) + [hold_ms]
    buffer = io.BytesIO()
    frames[0].save(
        buffer,
        format="GIF",
        save_all=True,
        append_images=frames[1:],
        duration=durations,
        loop=0,
        optimize=False,
        disposal=1,
    )
    return buffer.getvalue()


def _frame(view: BoardView, scale: float, four_colour: bool) -> Image.Image:
    """One board, shrunk to ``scale`` on the shared palette."""
    with LOCK:
        canvas = draw_board(view, four_colour=four_colour)
    if scale == 1:
        return canvas
    size = (round(canvas.width * scale), round(canvas.height * scale))
    return canvas.resize(size, Image.Resampling.NEAREST)


def _same_size(frames: list[Image.Image]) -> list[Image.Image]:
    """Pad every frame with felt to the tallest one (a board's height follows its piles; a GIF's does not)."""
    height = max(frame.height for frame in frames)
    felt = pal.index(pal.FELT)
    padded = []
    for frame in frames:
        if frame.height < height:
            canvas = Image.new("P", (frame.width, height), felt)
            canvas.putpalette(frame.getpalette() or [])
            canvas.paste(frame, (0, 0))
            frame = canvas
        padded.append(frame)
    return padded


def main(argv: Sequence[str]) -> int:
    """``python -m render animate --variant V (--seed N | --deck "..") --moves "..." --out FILE.gif``."""
    parser = OneLineParser(prog="python -m render animate", description="write a game as an animated GIF")
    parser.add_argument("--variant", required=True, type=lower_case, choices=sorted(VARIANTS))
    source = parser.add_mutually_exclusive_group(required=True)
    source.add_argument("--seed", type=int)
    source.add_argument("--deck", help="52 cards in notation, first dealt first")
    parser.add_argument("--moves", default="", help='space-separated moves, e.g. "draw 3-5 w-f"')
    parser.add_argument("--out", required=True, help="the GIF file to write")
    parser.add_argument("--scale", type=float, default=SCALE, help="frame size as a share of the board picture")
    parser.add_argument("--four-colour", action="store_true", help="draw clubs green and diamonds blue")
    args = parser.parse_args(list(argv))
    try:
        game = new_game(args.variant, seed=args.seed, deck=args.deck)
    except SolitaireError as error:
        print(f"error: {shorten_values(str(error))}", file=sys.stderr)
        return BAD_ARGUMENTS
    log = [(text, 0) for text in args.moves.split()]
    animation = animate(game.rules, game.deck, log, scale=args.scale, four_colour=args.four_colour)
    with open(args.out, "wb") as out:
        out.write(animation.data)
    print(f"{args.out} {animation.frames} frames {len(animation.data)} bytes")
    return 0
