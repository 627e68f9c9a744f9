"""``/solitaire start|move|draw|undo|end|rules`` and the board buttons: playing your own game."""

from __future__ import annotations

import logging

import discord
from discord import app_commands

from bot import errors
from bot.compete.starts import Place
from bot.errors import fit_reply
from bot.play.clicks import BoardClick, OfferClick, Owner
from bot.play.move_words import describe_move
from bot.play.rules_text import rules_text
from bot.play.session import BoardPress, FinishSource, Outcome, Pressed, Selection, Session
from bot.rules.modes import mode_of
from bot.runtime.client import UNEXPECTED
from bot.storage import StorageError
from bot.storage.games import GameRecord
from cogs.base import SolitaireCogBase
from cogs.board import Board, build_board, edit_stored_board, ending_word, selection_edit
from cogs.buttons import offer_view, origin_of
from cogs.errors import answer_privately, refusals
from cogs.speaking import speaking_to
from solitaire import END
from solitaire.deals import MAX_DEAL_NUMBER
from solitaire.speech import N_, _, n_
from solitaire.variants import DEFAULT_VARIANT, variant_menu
from solitaire.words import number

log = logging.getLogger(__name__)

VARIANT_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in variant_menu()]
MAX_CHOICES = 25
MAX_SEED_TEXT = 20
"""A deal seed is below 2**64: at most 20 digits."""
MAX_SEED_INPUT = 40
"""What the ``seed:`` option takes (room for spaces and separators a player pastes)."""
MAX_MOVE_TEXT = 40
"""Longer ``/solitaire move`` text is refused before parsing (and quoted back as an excerpt)."""
RESUMED = N_("Resumed: your board is below.")


def guild_key(interaction: discord.Interaction) -> int:
    """The guild id games are kept under (0 in DMs)."""
    return interaction.guild_id or 0


def place_of(interaction: discord.Interaction) -> Place:
    """Where ``interaction``'s member starts a game (server 0 and channel 0 where Discord names none)."""
    return Place(guild_key(interaction), interaction.channel_id or 0, interaction.user.id)


class GameCommands(SolitaireCogBase):
    """The game half of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def load_game_commands(self) -> None:
        """Refresh the boards of games the clock ends; keep the deal bank's deals stored."""
        self.sessions.add_finish_listener(self._refresh_finished_board)

    async def unload_game_commands(self) -> None:
        """Nothing to undo: the buttons are registered by the cog (:mod:`cogs.solitaire`)."""

    # -- slash commands --------------------------------------------------------------
    @app_commands.command(name="start", description="Start a 5-minute game")
    @app_commands.describe(
        variant="Which game (default: draw 3)",
        deal="Practice a numbered deal (not ranked)",
        seed="Practice the deal of a finished game, by the seed its board shows (not ranked)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def start(
        self,
        interaction: discord.Interaction,
        variant: str = DEFAULT_VARIANT,
        deal: app_commands.Range[int, 1, MAX_DEAL_NUMBER] | None = None,
        seed: app_commands.Range[str, 1, MAX_SEED_INPUT] | None = None,
    ) -> None:
        """Deal a ranked proven-winnable game (or practice: deal number ``deal``, shuffle ``seed``); show its board."""
        await self._start(interaction, variant, deal, seed)
        await self.deliver_notices(interaction)

    async def _start(self, interaction: discord.Interaction, variant: str, deal: int | None, seed: str | None) -> None:
        async with refusals(interaction):
            if deal is not None and seed is not None:
                raise errors.DealAndSeedError()
            shuffle = parse_seed(seed) if seed is not None else None
            running = self.sessions.active_for(guild_key(interaction), interaction.user.id)
            if running is not None:
                await self._offer_running(interaction, running)
                return

            async def waiting() -> None:  # a seed may not prove winnable: wait privately, so a refusal is private
                await interaction.response.defer(ephemeral=shuffle is not None, thinking=True)

            session = await self.bot.starts.casual(
                place_of(interaction), variant, deal=deal, seed=shuffle, waiting=waiting
            )
            if shuffle is not None:
                await interaction.edit_original_response(
                    content=_("Seed `{seed}` dealt: your board is below.", seed=shuffle)
                )
            await self.send_board(interaction, session, ephemeral=False, followup=shuffle is not None)

    @app_commands.command(name="move", description="Play a move on your game, e.g. 3-5 or w-f")
    @app_commands.describe(move="A move like 3-5, w-f, fh-2 or draw (the suggestions list the legal ones)")
    async def move(self, interaction: discord.Interaction, move: str) -> None:
        """Play ``move`` (notation) on the player's running game."""
        await self._slash_play(interaction, move)

    @move.autocomplete("move")
    async def _move_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        session = self.sessions.active_for(guild_key(interaction), interaction.user.id)
        if session is None or session.game.is_over:
            return []
        typed = current.strip().lower()
        choices = []
        for legal in session.game.legal_moves():
            words = describe_move(session.game, legal)
            if not typed or typed in words.lower() or str(legal).startswith(typed):
                choices.append(app_commands.Choice(name=words[:100], value=str(legal)))
        return choices[:MAX_CHOICES]

    @app_commands.command(name="draw", description="Turn cards from the stock")
    async def draw(self, interaction: discord.Interaction) -> None:
        """Draw on the player's running game."""
        await self._slash_play(interaction, "draw")

    @app_commands.command(name="undo", description="Take back your last move")
    async def undo(self, interaction: discord.Interaction) -> None:
        """Undo on the player's running game."""
        await self._slash_play(interaction, "undo")

    @app_commands.command(name="end", description="End your game now (you keep the time bonus)")
    async def end(self, interaction: discord.Interaction) -> None:
        """End the player's running game."""
        await self._slash_play(interaction, "end")

    @app_commands.command(name="rules", description="How a game is played and scored")
    @app_commands.describe(variant="Which game (default: draw 3)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def rules(self, interaction: discord.Interaction, variant: str = DEFAULT_VARIANT) -> None:
        """Explain a variant privately."""
        async with refusals(interaction):
            await interaction.response.send_message(rules_text(variant), ephemeral=True)

    # -- boards (also used by the competition commands) ------------------------------
    async def send_board(
        self, interaction: discord.Interaction, session: Session, *, ephemeral: bool, followup: bool = False
    ) -> None:
        """Answer ``interaction`` with the board of ``session`` and remember that message as its board.

        After ``interaction.response.defer(...)`` the deferred answer becomes the board, unless
        ``followup`` (the deferred answer was private and already says something): a new message then.
        """
        board = await self._board_of(session)
        if tip := await self.first_board_tip(interaction.user.id, session.game.family):
            board = board.with_tip(tip)
        message: discord.Message | None
        if followup or interaction.response.type is discord.InteractionResponseType.message_update:
            message = await interaction.followup.send(ephemeral=ephemeral, wait=True, **board.send_kwargs())
        elif interaction.response.is_done():
            message = await interaction.edit_original_response(**board.edit_kwargs())
        else:
            callback = await interaction.response.send_message(ephemeral=ephemeral, **board.send_kwargs())
            message = callback.resource if isinstance(callback.resource, discord.Message) else None
            if message is None:
                message = await interaction.original_response()
        await self.sessions.set_board(
            session, channel_id=interaction.channel_id or 0, message_id=message.id, token=interaction.token
        )

    async def refresh_board(self, session: Session, record: GameRecord | None = None) -> bool:
        """Redraw the stored board message of ``session`` as the game stands (``record``: its final row)."""
        async with speaking_to(self.bot, session.owner_id):  # also when the clock, not the player, redraws it
            board = await self._board_of(session, record)
        return await edit_stored_board(self.bot, session, board, now=self.bot.now())

    async def _board_of(self, session: Session, record: GameRecord | None = None) -> Board:
        """The board message of ``session`` as the game stands (``record``: its final row), in the language spoken."""
        return await build_board(
            record or session.record,
            session.view(),
            session.game.version,
            now=self.bot.now(),
            renders=self.bot.renders,
            four_colour=session.four_colour,
            play_here=self.play_here,
        )

    async def _refresh_finished_board(self, session: Session, record: GameRecord, source: FinishSource) -> None:
        """Show the result on the board; if Discord refuses the edit, tell the player at their next command."""
        if source != "command" and not await self.refresh_board(session, record):
            async with speaking_to(self.bot, record.user_id):
                notice = _result_notice(session, record)
            await self.sessions.add_notice(record, notice)

    async def _offer_running(self, interaction: discord.Interaction, session: Session) -> None:
        title = session.game.rules.title
        await interaction.response.send_message(
            _(
                "You already have a **{title}** game running here (time runs out <t:{deadline}:R>).",
                title=title,
                deadline=int(session.deadline),
            ),
            view=offer_view(session.id),
            ephemeral=True,
        )

    # -- playing -----------------------------------------------------------------------
    async def _slash_play(self, interaction: discord.Interaction, text: str) -> None:
        async with refusals(interaction):
            if len(text) > MAX_MOVE_TEXT:
                raise errors.BadMoveTextError(text)
            session = self.sessions.require_active(guild_key(interaction), interaction.user.id)
            move = session.game.parse_move(text)
            outcome = await self.sessions.play(session, move)
            await interaction.response.send_message(_played_text(outcome), ephemeral=True)
            await self.refresh_board(session, outcome.finished)
        await self.deliver_notices(interaction)

    async def deliver_notices(self, interaction: discord.Interaction) -> None:
        """Tell the player, privately and once, what happened to their games while they were away."""
        guild_id, user_id = guild_key(interaction), interaction.user.id
        if not self.sessions.has_notices(guild_id, user_id):
            return
        try:
            found = await self.sessions.pending_notices(guild_id, user_id)
            if found:
                await answer_privately(interaction, fit_reply("\n".join(text for _, text in found)))
                await self.sessions.drop_notices(guild_id, user_id, [notice_id for notice_id, _ in found])
        except (discord.HTTPException, StorageError) as error:
            log.warning("could not deliver notices to user %s: %s", user_id, error)

    async def handle_board_click(self, interaction: discord.Interaction, click: BoardClick | None) -> None:
        """Hand a board button's press to the sessions in one call (counted and timed for the metrics endpoint)."""
        with self.bot.metrics.move_click(interaction.guild_id):
            try:
                async with refusals(interaction):
                    if click is None:
                        raise errors.BadClickError()
                    created = discord.utils.snowflake_time(interaction.id).timestamp()
                    press = BoardPress(click, origin_of(interaction, click.custom_id), created)
                    await self.sessions.press(press, lambda pressed: self._show_press(interaction, pressed))
            except Exception:
                log.exception("board click %s failed", click)
                await _answer_unexpected(interaction)

    async def _show_press(self, interaction: discord.Interaction, pressed: Pressed) -> float:
        """Redraw the pressed board: the selection's lit targets, or the board after the move; return when answered."""
        session = pressed.session
        if isinstance(pressed, Selection):
            edit = selection_edit(
                session.record, pressed.view, pressed.version, pressed.source, play_here=self.play_here
            )
        else:
            outcome = pressed.outcome
            board = await build_board(
                outcome.finished or session.record,
                outcome.view,
                outcome.version,
                now=self.bot.now(),
                renders=self.bot.renders,
                four_colour=session.four_colour,
                play_here=self.play_here,
            )
            edit = board.edit_kwargs()
        answered = self.bot.now()
        await interaction.response.edit_message(**edit)
        return answered

    async def handle_offer_click(self, interaction: discord.Interaction, click: OfferClick | None) -> None:
        """Answer the resume/end offer: post a fresh board, or end the running game."""
        try:
            async with refusals(interaction):
                if click is None:
                    raise errors.BadClickError()
                session = await self.sessions.playable(click.game_id, interaction.user.id)
                record = session.record
                click.check(origin_of(interaction, click.custom_id), Owner(record.user_id, record.guild_id))
                if click.action == "resume":
                    await interaction.response.edit_message(content=_(RESUMED), view=None)
                    await self.send_board(interaction, session, ephemeral=mode_of(session.record.mode).private_board)
                    return
                outcome = await self.sessions.play(session, END)
                await interaction.response.edit_message(content=_played_text(outcome), view=None)
                await self.refresh_board(session, outcome.finished)
        except Exception:
            log.exception("offer click %s failed", click)
            await _answer_unexpected(interaction)


def parse_seed(text: str) -> int:
    """Read a deal seed typed by a player (untrusted): a whole number below 2**64.

    >>> parse_seed(" 12345 ")
    12345
    """
    cleaned = text.strip().replace(",", "").replace("_", "")
    if not cleaned.isdecimal() or len(cleaned) > MAX_SEED_TEXT or int(cleaned) >= 2**64:
        raise errors.BadSeedError(text)
    return int(cleaned)


async def _answer_unexpected(interaction: discord.Interaction) -> None:
    """Tell the player something went wrong, if Discord still takes an answer."""
    try:
        await answer_privately(interaction, _(UNEXPECTED))
    except discord.HTTPException as error:
        log.warning("could not answer interaction %s: %s", interaction.id, error)


def _result_notice(session: Session, record: GameRecord) -> str:
    """A finished game's result in words, for a player whose board could not be updated."""
    view = session.view()
    return n_(
        "Your **{title}** game #{game} ended while its board could not be updated: {ending}, **{count} point**.",
        "Your **{title}** game #{game} ended while its board could not be updated: {ending}, **{count} points**.",
        record.score,
        title=view.title,
        game=record.id,
        ending=ending_word(view.status),
    )


def _played_text(outcome: Outcome) -> str:
    """The private answer to a command: what was played and where the game stands."""
    played = ", ".join(outcome.moves)
    view = outcome.view
    if outcome.finished is not None:
        return n_(
            "Played {moves}. The game is over ({ending}): **{count} point**.",
            "Played {moves}. The game is over ({ending}): **{count} points**.",
            view.score,
            moves=played,
            ending=ending_word(view.status),
        )
    return _("Played {moves}. Score {score}.", moves=played, score=number(view.score))
