"""Draw docs/images/race-*.png: the race message's embeds as a phone shows them (400 px wide).

Run: .venv/bin/python docs/race_images.py. The embeds and buttons are the real ones
(``cogs.race_commands.race_message``); mentions and timestamps are written out as Discord
shows them, and the picture is a plain approximation of Discord's dark theme.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from PIL import Image, ImageDraw, ImageFont

from bot.race import RaceResult, RaceSnapshot, Standing
from bot.storage.races import RaceRecord
from cogs.race_commands import race_message

WIDTH = 400
FONTS = Path(__file__).resolve().parent.parent / "render" / "fonts"
NAMES = {1: "alice", 2: "bob", 3: "carol", 4: "dave"}
T0 = 1_767_225_600.0


def _font(bold: bool, size: int) -> ImageFont.FreeTypeFont:
    return ImageFont.truetype(str(FONTS / ("DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")), size)


def _plain(text: str) -> str:
    text = re.sub(r"<@(\d+)>", lambda m: "@" + NAMES.get(int(m[1]), m[1]), text)
    text = re.sub(r"<t:(\d+):R>", lambda m: _relative(int(m[1])), text)
    text = re.sub(r"<t:(\d+):T>", lambda m: "21:" + f"{(int(m[1]) - int(T0)) // 60:02d}:{int(m[1]) % 60:02d}", text)
    for emoji, words in {"🏁 ": "", "🏆 ": "", "🥇": "1.", "🥈": "2.", "🥉": "3.", "✅ ": "", "⏱ ": ""}.items():
        text = text.replace(emoji, words)
    return text.replace("**", "").replace("`", "")


def _relative(at: int) -> str:
    seconds = at - int(T0 + 40)
    return f"in {seconds // 60} minutes" if seconds > 90 else f"in {seconds} seconds"


def _wrap(draw: ImageDraw.ImageDraw, text: str, font: ImageFont.FreeTypeFont, width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            trial = f"{line} {word}".strip()
            if draw.textlength(trial, font=font) <= width or not line:
                line = trial
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def draw(message: dict[str, Any], path: Path) -> None:
    """Draw one race message (embed and buttons) to ``path``."""
    embed: discord.Embed = message["embed"]
    view: discord.ui.View | None = message["view"]
    title_font, body_font, small = _font(True, 15), _font(False, 13), _font(False, 11)
    canvas = Image.new("RGB", (WIDTH, 900), "#313338")
    pen = ImageDraw.Draw(canvas)
    pen.text((12, 10), "Solitaire Rush  BOT", font=_font(True, 13), fill="#f2f3f5")
    left, inner = 12, WIDTH - 24 - 20
    y = 36
    top = y
    y += 10
    for line in _wrap(pen, _plain(embed.title or ""), title_font, inner):
        pen.text((left + 14, y), line, font=title_font, fill="#f2f3f5")
        y += 20
    y += 4
    for line in _wrap(pen, _plain(embed.description or ""), body_font, inner):
        pen.text((left + 14, y), line, font=body_font, fill="#dbdee1")
        y += 18
    if embed.footer.text:
        y += 4
        for line in _wrap(pen, _plain(embed.footer.text), small, inner):
            pen.text((left + 14, y), line, font=small, fill="#b5bac1")
            y += 15
    y += 8
    pen.rounded_rectangle((left, top, WIDTH - 12, y), 4, fill="#2b2d31")
    pen.rectangle((left, top, left + 3, y), fill=str(embed.colour or "#1f8b4c"))
    # draw the text again on top of the card
    canvas2 = canvas.copy()
    pen2 = ImageDraw.Draw(canvas2)
    yy = top + 10
    for line in _wrap(pen, _plain(embed.title or ""), title_font, inner):
        pen2.text((left + 14, yy), line, font=title_font, fill="#f2f3f5")
        yy += 20
    yy += 4
    for line in _wrap(pen, _plain(embed.description or ""), body_font, inner):
        pen2.text((left + 14, yy), line, font=body_font, fill="#dbdee1")
        yy += 18
    if embed.footer.text:
        yy += 4
        for line in _wrap(pen, _plain(embed.footer.text), small, inner):
            pen2.text((left + 14, yy), line, font=small, fill="#b5bac1")
            yy += 15
    y += 10
    colours = {
        discord.ButtonStyle.success: "#248046",
        discord.ButtonStyle.primary: "#5865f2",
        discord.ButtonStyle.danger: "#da373c",
        discord.ButtonStyle.secondary: "#4e5058",
    }
    x = left
    for item in view.children if view is not None else []:
        button = getattr(item, "item", item)
        label = button.label or ""
        width = int(pen2.textlength(label, font=body_font)) + 24
        if x + width > WIDTH - 12:
            x, y = left, y + 38
        pen2.rounded_rectangle((x, y, x + width, y + 30), 4, fill=colours.get(button.style, "#4e5058"))
        pen2.text((x + 12, y + 7), label, font=body_font, fill="white")
        x += width + 8
    bottom = y + (42 if view is not None else 0)
    canvas2.crop((0, 0, WIDTH, bottom + 4)).save(path, optimize=True)


def _race(status: str, **changes: Any) -> RaceRecord:
    base = dict(
        id=7,
        guild_id=1,
        channel_id=1,
        message_id=1,
        host_id=1,
        variant="draw3",
        capacity=4,
        status=status,
        created_at=T0,
        lobby_deadline=T0 + 600,
        start_at=T0 + 50,
        end_at=T0 + 350,
        deal_number=None,
        finished_at=None,
        results_posted_at=None,
        deal_seed="13411853262911466821",
    )
    base.update(changes)
    return RaceRecord(**base)  # type: ignore[arg-type]


def main() -> None:
    """Write the three pictures."""
    out = Path(__file__).resolve().parent / "images"
    lobby = RaceSnapshot(_race("lobby", start_at=None, end_at=None), (1, 2, 3))
    live = RaceSnapshot(
        _race("running"),
        (1, 2, 3, 4),
        standings=(
            Standing(2, "won", 52, 1762, seconds_used=148),
            Standing(1, "playing", 31, 905, moves=88),
            Standing(4, "playing", 17, 420, moves=40),
            Standing(3, "playing", 0, 0),
        ),
    )
    final = RaceSnapshot(
        _race("finished"),
        (1, 2, 3, 4),
        results=(
            RaceResult(1, 2, 1762, 148, "won", 1000.0, 1137.5, 1, True),
            RaceResult(2, 1, 1215, 300, "expired", 1042.0, 1061.0, 6, False),
            RaceResult(3, 4, 610, 300, "expired", 1000.0, 990.0, 1, True),
            RaceResult(4, 3, 0, 300, "expired", 1000.0, None, 0, True),  # never moved a card: not rated
        ),
    )
    draw(race_message(lobby, now=T0 + 40), out / "race-lobby.png")
    draw(race_message(live, now=T0 + 200), out / "race-standings.png")
    draw(race_message(final, now=T0 + 400), out / "race-results.png")


if __name__ == "__main__":
    main()
