"""Draw a competition message (an embed and its buttons) as a phone shows it, 400 px wide, for the docs.

The embeds and buttons are the bot's real ones; mentions and timestamps are written out as Discord shows
them (names from :data:`NAMES`, times relative to :data:`T0`), and the picture is a plain approximation of
Discord's dark theme. Emoji are written as words (the font has none).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import discord
from PIL import Image, ImageDraw, ImageFont

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
    text = re.sub(r"<t:(\d+):f>", lambda m: "25 November 2026 21:00", text)
    emoji_words = {"🏁 ": "", "🏆 ": "", "⚔️ ": "", "🥇": "1.", "🥈": "2.", "🥉": "3.", "✅ ": "", "⏱ ": ""}
    for emoji, words in emoji_words.items():
        text = text.replace(emoji, words)
    return text.replace("**", "").replace("`", "")


def _relative(at: int) -> str:
    seconds = at - int(T0 + 40)
    if seconds > 2 * 3600:
        return f"in {round(seconds / 3600)} hours"
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
    """Draw one message (embed and buttons) to ``path``."""
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
    bottom = draw_buttons(pen2, view, y) if view is not None else y
    canvas2.crop((0, 0, WIDTH, bottom + 4)).save(path, optimize=True)


COLOURS = {
    discord.ButtonStyle.success: "#248046",
    discord.ButtonStyle.primary: "#5865f2",
    discord.ButtonStyle.danger: "#da373c",
    discord.ButtonStyle.secondary: "#4e5058",
}
"""Discord's button colours (dark theme)."""


def draw_buttons(pen: ImageDraw.ImageDraw, view: discord.ui.View, y: int, left: int = 12) -> int:
    """Draw ``view``'s buttons from ``y`` (a new line for each row, wrapped at the width); return the bottom."""
    font = _font(False, 13)
    x, row = left, None
    for item in view.children:
        button = getattr(item, "item", item)
        label = button.label or ""
        width = int(pen.textlength(label, font=font)) + 24
        if x + width > WIDTH - 12 or (row is not None and item.row != row):
            x, y = left, y + 38
        row = item.row
        fill = COLOURS.get(button.style, "#4e5058")
        pen.rounded_rectangle((x, y, x + width, y + 30), 4, fill=fill if not button.disabled else "#3a3c42")
        pen.text((x + 12, y + 7), label, font=font, fill="white" if not button.disabled else "#80848e")
        x += width + 8
    return y + 42
