"""Draw docs/images/board-selection-phone.png: a Klondike board with a selection and its lit targets, 400 px wide.

Run: .venv/bin/python docs/board_images.py. The position is the first on the solver's winning line of
public draw-3 deal 900000 where a pile's cards can go to several places, one of them up: a press would
send the card up, so the pile is selected as **Choose** then the pile selects it. The text line, the
picture and the buttons are the bot's real ones (``cogs.board``), drawn as a phone shows the message (the
picture is the last move's: a selection uploads none).
"""

from __future__ import annotations

import io
import sys
from pathlib import Path

from PIL import Image, ImageDraw

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from embed_pictures import T0, WIDTH, _font, _plain, _wrap, draw_buttons

from bot.play.pads import targets_of
from bot.storage.games import GameRecord
from cogs.board import board_content, running_buttons
from render import render_board
from solitaire import Game, MoveKind, new_game, view_of
from solitaire.deals import numbered_deal

DEAL = 900_000


def position() -> tuple[Game, str]:
    """The game at the first line move whose pile source has several destinations, and that pile."""
    deal = numbered_deal("draw3", DEAL)
    game = new_game("draw3", deck=deal.deck)
    for text in deal.solution:
        move = game.parse_move(text)
        if move.kind is MoveKind.PLAY and move.source.isdigit() and len(targets_of(view_of(game), move.source)) > 1:
            return game, move.source
        game.push(move, seconds=2 * game.version)
    raise SystemExit("no selection on the line")


def main() -> None:
    """Write the picture."""
    game, source = position()
    view = view_of(game)
    time_left = 300 - 2 * game.version
    record = GameRecord(
        id=1, guild_id=1, channel_id=1, user_id=1, variant="draw3", mode="casual", deal_number=None,
        daily_date=None, state="{}", status="playing", score=view.score, seconds_used=None, started_at=T0,
        deadline=T0 + 40 + time_left, finished_at=None, message_id=1, webhook_token=None, version=game.version,
    )  # fmt: skip
    board = Image.open(io.BytesIO(render_board(view, time_left=time_left))).convert("RGB")
    board = board.resize((WIDTH - 24, round(board.height * (WIDTH - 24) / board.width)), Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", (WIDTH, 1400), "#313338")
    pen = ImageDraw.Draw(canvas)
    pen.text((12, 10), "Solitaire Rush  BOT", font=_font(True, 13), fill="#f2f3f5")
    y = 34
    for line in _wrap(pen, _plain(board_content(record, view, selected=source)), _font(False, 13), WIDTH - 24):
        pen.text((12, y), line, font=_font(False, 13), fill="#dbdee1")
        y += 18
    canvas.paste(board, (12, y + 6))
    bottom = draw_buttons(pen, running_buttons(record, game.version, view, source), y + board.height + 16)
    out = Path(__file__).resolve().parent / "images" / "board-selection-phone.png"
    canvas.crop((0, 0, WIDTH, bottom + 4)).save(out, optimize=True)
    print(out.name, f"pile {source}:", ", ".join(targets_of(view, source)))


if __name__ == "__main__":
    main()
