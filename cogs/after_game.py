"""What the after-game buttons do: Analyze (private), Share replay (public GIF), Hint (private, charged).

A mixin of the ``/solitaire`` cog (:class:`AfterGameCommands`): the buttons themselves are in
:mod:`cogs.after_game_buttons` and hand their clicks to the cog. Each action is one heavy job
(:mod:`bot.heavy`) at its priority, owned by the member (one at a time: a second click is refused
privately, or joins the same request) and keyed by what it asks (a finished analysis is reused).
A game's replay is posted publicly once (stored, so also after a restart); a second Share replay
answers privately with a link to it.
"""

from __future__ import annotations

import io
import logging

import discord

from bot import errors
from bot.heavy import Priority
from bot.heavy.jobs import in_spoken_language
from bot.play.after_game import analysis_reply, replay_of
from bot.play.clicks import AfterGameClick
from bot.runtime.client import UNEXPECTED
from bot.storage.games import GameRecord
from cogs.base import SolitaireCogBase
from cogs.board import build_board, edit_stored_board, ending_word
from cogs.errors import answer_privately, refusals
from cogs.speaking import public_language
from languages import speaking_language
from solitaire.speech import _, n_
from solitaire.words import number

log = logging.getLogger(__name__)


class AfterGameCommands(SolitaireCogBase):
    """Analyze, Share replay and Hint (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def handle_after_game_click(self, interaction: discord.Interaction, click: AfterGameClick | None) -> None:
        """Answer an after-game button (refusals privately; ``None``: unreadable id)."""
        try:
            async with refusals(interaction):
                if click is None:
                    raise errors.BadClickError()
                if click.action == "analyze":
                    await self._analyze(interaction, click)
                elif click.action == "replay":
                    await self._replay(interaction, click)
                else:
                    await self._hint(interaction, click)
        except Exception:
            log.exception("after-game click %s failed", click)
            await answer_privately(interaction, _(UNEXPECTED))

    async def _analyze(self, interaction: discord.Interaction, click: AfterGameClick) -> None:
        record = await self.bot.finished.own(click.game_id, interaction.user.id, "Analysis")
        solving = self.bot.jobs.submit(
            analysis_reply,
            record.state,
            priority=Priority.ANALYSIS,
            owner=interaction.user.id,
            key=("analysis", record.id),
            keep=True,
        )
        await interaction.response.defer(ephemeral=True, thinking=True)
        reply = await solving
        picture = discord.File(io.BytesIO(reply.png), filename="analysis.png", description=reply.alt)
        await interaction.edit_original_response(content=reply.text, attachments=[picture])

    async def _replay(self, interaction: discord.Interaction, click: AfterGameClick) -> None:
        record = await self.bot.finished.own(click.game_id, interaction.user.id, "The replay")

        async def post() -> int:
            return (await self._post_replay(interaction, record)).id

        await self.bot.finished.share_replay(
            record, guild_id=interaction.guild_id or 0, channel_id=interaction.channel_id or 0, post=post
        )

    async def _post_replay(self, interaction: discord.Interaction, record: GameRecord) -> discord.Message:
        """Draw the replay GIF in a worker and post it in the channel with the score line.

        The channel shares it, so its words (the GIF's too) are the server's; a refusal to draw it, the member's.
        """
        public = await public_language(self.bot, interaction.guild_id)
        with speaking_language(public):
            draw = in_spoken_language(replay_of)
        drawing = self.bot.jobs.submit(
            draw, record.state, priority=Priority.REPLAY, owner=interaction.user.id, key=("replay", record.id)
        )
        await interaction.response.defer(thinking=True)
        replay = await drawing
        with speaking_language(public):
            moves = n_("{count} move", "{count} moves", replay.moves)
            # Translators: a shared replay's line; {status} is how the game ended ("won"), {moves} "25 moves".
            line = n_(
                "<@{player}>'s **{title}** replay: {status}, **{count} point** in {moves}",
                "<@{player}>'s **{title}** replay: {status}, **{count} points** in {moves}",
                replay.score,
                player=record.user_id,
                title=replay.title,
                status=ending_word(replay.status),
                moves=moves,
            )
            description = _(
                "An animation of a whole {title} game, move by move; final score {score}.",
                title=replay.title,
                score=number(replay.score),
            )
        gif = discord.File(io.BytesIO(replay.gif), filename="replay.gif", description=description)
        return await interaction.edit_original_response(
            content=line, attachments=[gif], allowed_mentions=discord.AllowedMentions.none()
        )

    async def _hint(self, interaction: discord.Interaction, click: AfterGameClick) -> None:
        session = self.sessions.require_playable(click.game_id, interaction.user.id, click.version)

        async def waiting() -> None:
            await interaction.response.defer(ephemeral=True, thinking=True)

        answer = await self.bot.hints.hint(session, click.version, interaction.user.id, waiting=waiting)
        await interaction.edit_original_response(content=answer.text)
        outcome = answer.outcome
        if outcome is None:
            return
        board = await build_board(
            session.record,
            outcome.view,
            outcome.version,
            now=self.bot.now(),
            renders=self.bot.renders,
            four_colour=session.four_colour,
            play_here=self.play_here,
        )
        await edit_stored_board(self.bot, session, board, now=self.bot.now())
