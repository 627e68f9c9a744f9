"""Write sample pictures: ``python -m render --out DIR`` (fresh, mid-game and won for every variant).

``--out docs/images`` regenerates the documentation's pictures; without ``--out`` they go to a new
temporary folder (never over the docs). ``--phone`` also writes each picture as a phone shows it
(``NAME-phone.png``, 400 px wide).
"""

from __future__ import annotations

import argparse
import io
import sys
import tempfile
from pathlib import Path

from PIL import Image

from render import animate
from render.board import render_board
from render.layout import PHONE_WIDTH
from render.samples import STATES, sample_game
from solitaire.console import OneLineParser, lower_case, until_the_reader_leaves
from solitaire.variants import VARIANTS
from solitaire.view import view_of


def main(argv: list[str] | None = None) -> int:
    """Render the sample states of every variant into ``--out`` (or ``animate`` a game: see render.animate)."""
    given = sys.argv[1:] if argv is None else argv
    if given[:1] == ["animate"]:
        return animate.main(given[1:])
    parser = OneLineParser(prog="python -m render", description=__doc__)
    parser.add_argument("--out", type=Path, help="the folder to write to (default: a new temporary folder)")
    parser.add_argument("--variants", nargs="+", type=lower_case, choices=list(VARIANTS), default=list(VARIANTS))
    parser.add_argument("--states", nargs="+", choices=STATES, default=["fresh", "mid", "won"])
    parser.add_argument("--four-colour", action="store_true", help="draw clubs green and diamonds blue")
    parser.add_argument("--selected", help="highlight this move source in mid-game pictures (e.g. 3, w)")
    parser.add_argument("--target", help="mark this move target in red in mid-game pictures (e.g. 2, fh, J)")
    parser.add_argument("--phone", action="store_true", help="also write each picture scaled to a phone's width")
    args = parser.parse_args(given)
    return until_the_reader_leaves(lambda: _write_samples(args))


def _write_samples(args: argparse.Namespace) -> int:
    """Write the pictures the arguments ask for, one line per file."""
    if args.out is None:
        args.out = Path(tempfile.mkdtemp(prefix="solitaire-samples-"))
        print(f"writing to {args.out} (--out DIR to choose the folder)")
    args.out.mkdir(parents=True, exist_ok=True)
    suffix = ("-4c" if args.four_colour else "") + (f"-sel{args.selected}" if args.selected else "")
    suffix += f"-to{args.target}" if args.target else ""
    for variant in args.variants:
        for state in args.states:
            game = sample_game(variant, state)
            clock = game.log[-1][1] if game.log else 0
            time_left = _time_left(game.rules.time_limit, clock, state)
            selected, target = (args.selected, args.target) if state == "mid" else (None, None)
            data = render_board(
                view_of(game), time_left=time_left, selected=selected, target=target, four_colour=args.four_colour
            )
            path = args.out / f"{variant}-{state}{suffix}.png"
            path.write_bytes(data)
            print(f"{path} {len(data)} bytes")
            if args.phone:
                phone = path.with_name(f"{path.stem}-phone.png")
                phone.write_bytes(phone_size(data))
                print(f"{phone} {phone.stat().st_size} bytes")
    return 0


def _time_left(limit: float, clock: float, state: str) -> float | None:
    """The clock a sample shows, as the bot shows it: the whole limit on a fresh board, less what was used mid-game.

    >>> _time_left(300, 0, "fresh"), _time_left(300, 24, "mid"), _time_left(300, 80, "won")
    (300, 275.5, None)
    """
    if state == "fresh":
        return limit
    return limit - clock - 0.5 if state == "mid" else None


def phone_size(data: bytes) -> bytes:
    """Return the PNG ``data`` scaled down to a phone's display width (:data:`PHONE_WIDTH` px)."""
    image = Image.open(io.BytesIO(data)).convert("RGB")
    width, height = image.size
    small = image.resize((PHONE_WIDTH, round(height * PHONE_WIDTH / width)), Image.Resampling.LANCZOS)
    buffer = io.BytesIO()
    small.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE).save(
        buffer, format="PNG", optimize=True
    )
    return buffer.getvalue()


if __name__ == "__main__":
    raise SystemExit(main())
