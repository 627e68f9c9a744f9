"""A game's board message: text line, PNG (rendered off the event loop) and buttons."""

from __future__ import annotations

import io
import logging
from dataclasses import dataclass, replace
from typing import Any

import discord

from bot.play.clicks import BoardClick, source_name
from bot.play.deal_words import deal_words
from bot.play.pads import CHOOSING, CHOOSING_TEXT, PLAY_HERE_ROW, ButtonSpec, pad_for
from bot.play.render_pool import BoardPicture, Pictures
from bot.play.session import Session
from bot.rules.modes import mode_of
from bot.storage.games import GameRecord
from cogs.after_game_buttons import add_hint_button, finished_buttons
from cogs.buttons import BoardButton, ClickButton, add_play_here
from solitaire import Status
from solitaire.alt_text import describe_board
from solitaire.speech import N_, _, n_
from solitaire.view import BoardView
from solitaire.words import number

log = logging.getLogger(__name__)

FILENAME = "board.png"
TOKEN_LIFETIME = 14 * 60
"""Seconds an interaction token is trusted for edits (Discord's limit is 15 minutes)."""
NO_MENTIONS = discord.AllowedMentions.none()
_ENDINGS = {
    # Translators: a finished board's result, between "·" separators: "<player> · Klondike · won · 540 points".
    Status.WON: N_("**won**"),
    # Translators: a finished board's result: the player ended the game.
    Status.ENDED: N_("ended"),
    # Translators: a finished board's result: no move was left.
    Status.STUCK: N_("stuck: no move left"),
    # Translators: a finished board's result: the clock ran out.
    Status.EXPIRED: N_("**time is up**"),
}


ENDING_WORDS = {
    # Translators: how a game ended, shown inside a sentence: "The game is over (won)".
    Status.WON: N_("won"),
    # Translators: how a game ended: the player ended it.
    Status.ENDED: N_("ended"),
    # Translators: how a game ended: no move was left.
    Status.STUCK: N_("stuck"),
    # Translators: how a game ended: its time ran out.
    Status.EXPIRED: N_("expired"),
}


def ending_word(status: Status | str) -> str:
    """How a game ended (a status or its value), one word in the spoken language: ``won``, ``ended``, ``stuck``..."""
    try:
        return _(ENDING_WORDS[Status(status)])
    except (ValueError, KeyError):  # playing, or a status this bot does not know
        return str(getattr(status, "value", status))


@dataclass(frozen=True)
class Board:
    """Everything a board message shows."""

    content: str
    png: bytes
    view: discord.ui.View | None
    alt: str | None = None
    """The picture's alt text (what a screen reader says): only what the player can see."""

    def with_tip(self, tip: str) -> Board:
        """The same board with a one-line ``tip`` above its text line (a player's first board)."""
        return replace(self, content=f"{tip}\n{self.content}")

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
    renders: Pictures,
    selected: str | None = None,
    four_colour: bool = False,
    play_here: bool = False,
) -> Board:
    """Draw the board of game ``record`` as ``view`` shows it (at ``version``), rendering off the event loop.

    ``four_colour`` draws clubs green and diamonds blue (the player's setting, see ``Session.four_colour``);
    ``play_here``: the Activity is served, so a running game the Activity plays too offers **Play here**.
    """
    playing = view.status is Status.PLAYING
    time_left = max(record.deadline - now, 0.0) if playing else None
    picture = BoardPicture(view, time_left=time_left, selected=selected if playing else None, four_colour=four_colour)
    png = await renders.render(picture)
    buttons = (
        running_buttons(record, version, view, selected, play_here=play_here) if playing else finished_buttons(record)
    )
    content = board_content(record, view, selected=selected if playing else None)
    return Board(content, png, buttons, describe_board(view))


def selection_edit(
    record: GameRecord, view: BoardView, version: int, selected: str | None, *, play_here: bool = False
) -> dict[str, Any]:
    """Keyword arguments to show (or cancel) a selection: the text line and buttons change, the picture stays.

    No ``attachments`` key: Discord keeps a message's attachments when an edit leaves them out,
    so a selection uploads no picture (the board has not changed since the last one).
    """
    return {
        "content": board_content(record, view, selected=selected),
        "view": running_buttons(record, version, view, selected, play_here=play_here),
    }


def running_buttons(
    record: GameRecord, version: int, view: BoardView, selected: str | None, *, play_here: bool = False
) -> discord.ui.View:
    """The buttons of a running game's board, with Hint where hints are allowed and Play here where the Activity
    is served (``play_here``) and plays this kind of game."""
    buttons = board_buttons(record.id, version, view, selected)
    add_hint_button(buttons, record, version, view.family)
    if play_here and mode_of(record.mode).offers_play_here:
        add_play_here(buttons, PLAY_HERE_ROW)
    return buttons


def board_content(record: GameRecord, view: BoardView, *, selected: str | None = None) -> str:
    """The line above the picture: player, game, deal, deadline or result."""
    deal = deal_words(record, over=view.status is not Status.PLAYING)
    head = f"<@{record.user_id}> · **{view.title}** · {deal}"
    if view.status is Status.PLAYING:
        line = _(
            "{head} · score {score} · time runs out <t:{deadline}:R>",
            head=head,
            score=number(view.score),
            deadline=int(record.deadline),
        )
        if selected == CHOOSING:
            line += f"\n{_(CHOOSING_TEXT)}"
        elif selected:
            line += "\n" + _(
                "Selected **{source}**: click a green button where it goes (or it, to cancel).",
                source=source_name(selected),
            )
        return line
    used = view.seconds_used if view.seconds_used is not None else 0
    sheet = " · ".join(f"{label} {points:+d}" for label, points in view.sheet.lines())
    ending = _ENDINGS.get(view.status)
    # Translators: a finished board's line: {head} is the player, the game and its deal; {ending} its result.
    result = n_(
        "{head} · {ending} · **{count} point** in {time}",
        "{head} · {ending} · **{count} points** in {time}",
        view.score,
        head=head,
        ending=_(ending) if ending is not None else view.status.value,
        time=f"{used // 60}:{used % 60:02d}",
    )
    return f"{result}\n{sheet}" if sheet else result


def board_buttons(game_id: int, version: int, view: BoardView, selected: str | None) -> discord.ui.View:
    """The buttons of a running game (at most 5 rows of 5), as the family's pad lays them out."""
    pad = pad_for(view.family)
    selected = selected if pad.sources else None
    buttons = discord.ui.View(timeout=None)
    for spec in pad.layout(view, selected):
        buttons.add_item(_button(BoardClick(game_id, version, selected, spec.action), spec))
    return buttons


_STYLES = {style.name: style for style in discord.ButtonStyle}
"""A pad's colour names (``primary``, ``success`` ...) as Discord button styles."""


def _button(click: BoardClick, spec: ButtonSpec) -> ClickButton[BoardClick]:
    item: discord.ui.Button[discord.ui.View] = discord.ui.Button(
        label=spec.label, style=_STYLES[spec.style], row=spec.row, disabled=spec.disabled
    )
    return BoardButton(click, item)


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
