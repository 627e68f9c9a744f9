"""What the after-game buttons do: Analyze (private), Share replay (public GIF), Hint (private, charged).

The buttons themselves are in :mod:`cogs.after_game_buttons`.
"""

from __future__ import annotations

import asyncio
import io
import json
import logging
from typing import cast

import discord

from bot import errors
from bot.after_game import (
    AfterGameClick,
    analyze_state,
    check_after_game,
    check_hints_allowed,
    hint_of,
)
from bot.client import UNEXPECTED, SolitaireBot
from bot.move_words import describe_move, move_places
from bot.render_pool import BoardPicture
from bot.storage import games as games_db
from bot.storage.games import GameRecord
from cogs.board import build_board, edit_stored_board
from cogs.errors import answer_privately, refusals
from render.animate import animate
from solitaire import Game, game_from_json, new_game
from solitaire.alt_text import describe_board
from solitaire.analysis import Analysis
from solitaire.knowledge import knowledge_of
from solitaire.scoring import HINT_PENALTY
from solitaire.view import view_of
from solitaire.words import plural

log = logging.getLogger(__name__)

MAX_CONTENT = 1900
"""Room left in a 2000-character message for the analysis text."""


# -- the actions --------------------------------------------------------------------------
async def _finished_game(bot: SolitaireBot, interaction: discord.Interaction, game_id: int, what: str) -> GameRecord:
    """The player's own finished game, once nobody can gain from ``what`` any more."""
    record = await games_db.get_game(bot.db, game_id)
    if record is None:
        raise errors.UnknownGameError()
    if record.user_id != interaction.user.id:
        raise errors.NotYourGameError(record.user_id)
    check_after_game(record, what, over=await bot.competition_over(record))
    return record


async def _analyze(bot: SolitaireBot, interaction: discord.Interaction, click: AfterGameClick) -> None:
    record = await _finished_game(bot, interaction, click.game_id, "Analysis")
    await interaction.response.defer(ephemeral=True, thinking=True)
    analysis = await bot.deals.run(analyze_state, record.state, urgent=True)
    game = game_from_json(json.loads(record.state))
    kept = _game_after(game, analysis.last_winnable or 0)
    text = analysis_text(analysis, kept)
    source, target = move_places(kept, kept.parse_move(analysis.lost_by)) if analysis.lost_by else (None, None)
    png = await bot.renders.render(BoardPicture(view_of(kept), selected=source, target=target))
    picture = discord.File(io.BytesIO(png), filename="analysis.png", description=describe_board(view_of(kept)))
    await interaction.edit_original_response(content=text, attachments=[picture])


async def _replay(bot: SolitaireBot, interaction: discord.Interaction, click: AfterGameClick) -> None:
    record = await _finished_game(bot, interaction, click.game_id, "The replay")
    await interaction.response.defer(thinking=True)
    game = game_from_json(json.loads(record.state))
    animation = await asyncio.to_thread(animate, game.rules, game.deck, game.log)
    final = view_of(game)
    line = (
        f"<@{record.user_id}>'s **{game.rules.title}** replay: {final.status.value}, **{plural(final.score, 'point')}**"
    )
    line += f" in {plural(final.move_count, 'move')}"
    description = f"An animation of a whole {game.rules.title} game, move by move; final score {final.score}."
    gif = discord.File(io.BytesIO(animation.data), filename="replay.gif", description=description)
    await interaction.edit_original_response(
        content=line, attachments=[gif], allowed_mentions=discord.AllowedMentions.none()
    )


async def _hint(bot: SolitaireBot, interaction: discord.Interaction, click: AfterGameClick) -> None:
    session = bot.sessions.require_playable(click.game_id, interaction.user.id, click.version)
    check_hints_allowed(session.record)
    await interaction.response.defer(ephemeral=True, thinking=True)
    hint = await bot.deals.run(hint_of, knowledge_of(session.game), session.game.hints + 1, session.id, urgent=True)
    if hint.move is None:
        await interaction.edit_original_response(content=f"No hint: {hint.why}. No points taken.")
        return
    words = describe_move(session.game, session.game.parse_move(hint.move))
    outcome = await bot.sessions.take_hint(session, version=click.version)
    text = (
        f"Hint: **{words}** — {hint.why}.\n"
        f"−{HINT_PENALTY} points; this game is now hinted, so it is not ranked on the casual leaderboards."
    )
    await interaction.edit_original_response(content=text)
    board = await build_board(
        session.record,
        outcome.view,
        outcome.version,
        now=bot.now(),
        renders=bot.renders,
        four_colour=session.four_colour,
    )
    await edit_stored_board(bot, session, board, now=bot.now())


_ACTIONS = {"analyze": _analyze, "replay": _replay, "hint": _hint}


async def handle_after_game_click(interaction: discord.Interaction, click: AfterGameClick | None) -> None:
    """Answer an after-game button (refusals privately; ``None``: unreadable id)."""
    bot = cast(SolitaireBot, interaction.client)
    try:
        async with refusals(interaction):
            if click is None:
                raise errors.BadClickError()
            await _ACTIONS[click.action](bot, interaction, click)
    except Exception:
        log.exception("after-game click %s failed", click)
        await answer_privately(interaction, UNEXPECTED)


# -- words --------------------------------------------------------------------------------
def _game_after(game: Game, applied: int) -> Game:
    """The game after the first ``applied`` logged commands."""
    kept = new_game(game.rules, deck=game.deck)
    for text, seconds in game.log[:applied]:
        kept.play(text, seconds=seconds)
    return kept


def analysis_text(analysis: Analysis, kept: Game) -> str:
    """The private answer: winnable or not, the last winnable move, the losing move and a winning line in words."""
    lines = ["**Analysis** (solved with every card known, now that the game is over)"]
    start = {True: "The deal was winnable.", False: "The deal could not be won.", None: "Undecided whether the deal"}
    lines.append(start[analysis.winnable_at_start] + (" could be won." if analysis.winnable_at_start is None else ""))
    if analysis.status == "won":
        lines.append("You won it: nothing was lost.")
        return "\n".join(lines)
    if analysis.last_winnable is None:
        return "\n".join(lines)
    where = f"after move {analysis.last_winnable}" if analysis.last_winnable else "at the start"
    if analysis.lost_by is not None:
        lost = describe_move(kept, kept.parse_move(analysis.lost_by))
        lines.append(f"It was still winnable {where} (the picture); **{lost}** lost it.")
    elif analysis.decided:
        lines.append(f"It was still winnable {where}, when the game ended.")
    else:
        lines.append(f"It was proven winnable {where}; after that my search ran out of time (undecided).")
    lines.append(_line_words(kept, analysis.line))
    return "\n".join(lines)


def _line_words(kept: Game, line: tuple[str, ...]) -> str:
    """A winning line in the move autocomplete's words, cut to fit a message."""
    if not line:
        return ""
    game = new_game(kept.rules, deck=kept.deck)
    for text, seconds in kept.log:
        game.play(text, seconds=seconds)
    head = f"A winning line from there ({plural(len(line), 'move')}): "
    words: list[str] = []
    used = len(head)
    for index, text in enumerate(line):
        said = describe_move(game, game.parse_move(text))
        if used + len(said) + 3 > MAX_CONTENT - 400:
            words.append(f"… and {len(line) - index} more")
            break
        words.append(said)
        used += len(said) + 3
        game.play(text)
    return head + " · ".join(words)
