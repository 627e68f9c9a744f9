"""A game's board message: text line, PNG (rendered off the event loop) and buttons."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass
from typing import Any

import discord

from bot.clicks import TO_FOUNDATION, BoardClick, source_name
from bot.render_pool import BoardPicture, RenderPool
from bot.sessions import Session
from bot.storage.games import GameRecord
from cogs.after_game_buttons import add_hint_button, finished_buttons
from cogs.buttons import BoardButton
from solitaire import MoveKind, Status
from solitaire.alt_text import describe_board
from solitaire.cards import SUIT_SYMBOLS
from solitaire.moves import FOUNDATION_SOURCES, FRIDAY13_LABELS, PILES
from solitaire.variants import Family
from solitaire.view import BoardView
from solitaire.words import plural

log = logging.getLogger(__name__)

FILENAME = "board.png"
TOKEN_LIFETIME = 14 * 60
"""Seconds an interaction token is trusted for edits (Discord's limit is 15 minutes)."""
NO_MENTIONS = discord.AllowedMentions.none()
_ENDINGS = {
    Status.WON: "**won**",
    Status.ENDED: "ended",
    Status.STUCK: "stuck: no move left",
    Status.EXPIRED: "**time is up**",
}


@dataclass(frozen=True)
class Board:
    """Everything a board message shows."""

    content: str
    png: bytes
    view: discord.ui.View | None
    alt: str | None = None
    """The picture's alt text (what a screen reader says): only what the player can see."""

    def file(self) -> discord.File:
        """A fresh attachment of the picture (a ``discord.File`` can be sent only once)."""
        return discord.File(io.BytesIO(self.png), filename=FILENAME, description=self.alt)

    def send_kwargs(self) -> dict[str, Any]:
        """Keyword arguments for a new message."""
        kwargs: dict[str, Any] = {"content": self.content, "file": self.file(), "allowed_mentions": NO_MENTIONS}
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict[str, Any]:
        """Keyword arguments to replace a message's content, picture and buttons."""
        return {"content": self.content, "attachments": [self.file()], "view": self.view}


async def build_board(
    record: GameRecord,
    view: BoardView,
    version: int,
    *,
    now: float,
    renders: RenderPool,
    selected: str | None = None,
    four_colour: bool = False,
) -> Board:
    """Draw the board of game ``record`` as ``view`` shows it (at ``version``), rendering off the event loop.

    ``four_colour`` draws clubs green and diamonds blue (the player's setting, see ``Session.four_colour``).
    """
    playing = view.status is Status.PLAYING
    time_left = max(record.deadline - now, 0.0) if playing else None
    picture = BoardPicture(view, time_left=time_left, selected=selected if playing else None, four_colour=four_colour)
    png = await renders.render(picture)
    buttons = board_buttons(record.id, version, view, selected) if playing else finished_buttons(record)
    if playing:
        add_hint_button(buttons, record, version, view.family)
    content = board_content(record, view, selected=selected if playing else None)
    return Board(content, png, buttons, describe_board(view))


def board_content(record: GameRecord, view: BoardView, *, selected: str | None = None) -> str:
    """The line above the picture: player, game, deal, deadline or result."""
    if record.mode == "daily":
        deal = f"daily {record.daily_date}"
    else:
        deal = f"deal #{record.deal_number}" if record.deal_number is not None else "custom deal"
    head = f"<@{record.user_id}> · **{view.title}** · {deal}"
    if view.status is Status.PLAYING:
        line = f"{head} · score {view.score} · time runs out <t:{int(record.deadline)}:R>"
        if selected:
            line += f"\nSelected **{source_name(selected)}**: click where it goes (click it again to cancel)."
        return line
    used = view.seconds_used if view.seconds_used is not None else 0
    sheet = " · ".join(f"{label} {points:+d}" for label, points in view.sheet.lines())
    ending = _ENDINGS.get(view.status, view.status.value)
    result = f"{head} · {ending} · **{plural(view.score, 'point')}** in {used // 60}:{used % 60:02d}"
    return f"{result}\n{sheet}" if sheet else result


def board_buttons(game_id: int, version: int, view: BoardView, selected: str | None) -> discord.ui.View:
    """The buttons of a running game (at most 5 rows of 5)."""
    buttons = discord.ui.View(timeout=None)
    if view.family is Family.FRIDAY13:
        _friday13_buttons(buttons, game_id, version, view)
    else:
        _klondike_buttons(buttons, game_id, version, view, selected)
    return buttons


def _button(
    click: BoardClick,
    label: str,
    row: int,
    *,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    disabled: bool = False,
) -> BoardButton:
    return BoardButton(click, discord.ui.Button(label=label, style=style, row=row, disabled=disabled))


def _klondike_buttons(
    buttons: discord.ui.View, game_id: int, version: int, view: BoardView, selected: str | None
) -> None:
    def click(action: str) -> BoardClick:
        return BoardClick(game_id, version, selected, action)

    def source_style(source: str) -> discord.ButtonStyle:
        return discord.ButtonStyle.success if source == selected else discord.ButtonStyle.secondary

    for index, pile in enumerate(PILES):
        buttons.add_item(_button(click(pile), f"Pile {pile}", index // 5, style=source_style(pile)))
    buttons.add_item(_button(click("w"), "Waste", 1, style=source_style("w")))
    buttons.add_item(_button(click("draw"), "Draw", 1, style=discord.ButtonStyle.primary))
    buttons.add_item(_button(click("undo"), "Undo", 1, disabled=not view.can_undo))
    for source, suit in FOUNDATION_SOURCES.items():
        buttons.add_item(_button(click(source), SUIT_SYMBOLS[suit], 2, style=source_style(source)))
    up = "Selected card up" if selected and selected not in FOUNDATION_SOURCES else "All up"
    buttons.add_item(_button(click(TO_FOUNDATION), up, 2, style=discord.ButtonStyle.primary))
    buttons.add_item(_button(click("end"), "End game", 3, style=discord.ButtonStyle.danger))


def _friday13_buttons(buttons: discord.ui.View, game_id: int, version: int, view: BoardView) -> None:
    legal = _friday13_targets(view)
    buttons.add_item(_button(BoardClick(game_id, version, None, "draw"), "Draw", 0, style=discord.ButtonStyle.primary))
    buttons.add_item(_button(BoardClick(game_id, version, None, "undo"), "Undo", 0, disabled=not view.can_undo))
    buttons.add_item(
        _button(BoardClick(game_id, version, None, "end"), "End game", 0, style=discord.ButtonStyle.danger)
    )
    for index, label in enumerate(FRIDAY13_LABELS):
        action = f"t{label}"
        buttons.add_item(
            _button(
                BoardClick(game_id, version, None, action),
                f"→ {label}",
                1 + index // 5,
                style=discord.ButtonStyle.success if label in legal else discord.ButtonStyle.secondary,
                disabled=label not in legal,
            )
        )


def _friday13_targets(view: BoardView) -> set[str]:
    """Labels of the foundations the waste top may go on now, as the engine says."""
    return {move.target for move in view.legal_moves if move.kind is MoveKind.PLAY}


async def edit_stored_board(client: discord.Client, session: Session, board: Board, *, now: float) -> bool:
    """Replace the stored board message of ``session`` (through its interaction token while fresh).

    Returns whether an edit went through; failures are logged, never raised.
    """
    record = session.record
    if record.message_id is None:
        return False
    try:
        if record.webhook_token and now - record.started_at < TOKEN_LIFETIME and client.application_id:
            webhook = discord.Webhook.partial(client.application_id, record.webhook_token, client=client)
            await webhook.edit_message(record.message_id, **board.edit_kwargs())
        else:
            channel = client.get_partial_messageable(record.channel_id)
            await channel.get_partial_message(record.message_id).edit(**board.edit_kwargs())
    except discord.HTTPException as error:
        log.warning("could not update the board of game %s: %s", record.id, error)
        return False
    return True
