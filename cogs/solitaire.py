"""The one ``/solitaire`` command group: the game commands and the competition commands as mixins."""

from __future__ import annotations

from typing import cast

from discord.ext import commands

from bot.runtime.client import SolitaireBot
from cogs.activity import ActivityCommands
from cogs.after_game import AfterGameCommands
from cogs.buttons import BUTTON_TYPES
from cogs.challenge_commands import ChallengeCommands
from cogs.competition_commands import CompetitionCommands
from cogs.game_commands import GameCommands
from cogs.habit import HabitCommands
from cogs.help_commands import HelpCommands
from cogs.moderation_commands import ModerationCommands
from cogs.race_commands import RaceCommands
from cogs.settings_commands import SettingsCommands


class Solitaire(
    RaceCommands,
    ChallengeCommands,
    GameCommands,
    AfterGameCommands,
    CompetitionCommands,
    SettingsCommands,
    HelpCommands,
    HabitCommands,
    ModerationCommands,
    ActivityCommands,
    commands.GroupCog,
    group_name="solitaire",
    group_description="Timed solitaire games and daily server competitions",
):
    """``/solitaire …``: every slash command, listener and button of the bot."""

    def __init__(self, bot: SolitaireBot) -> None:
        self.bot = bot
        self.settings = bot.settings
        self.sessions = bot.sessions
        self.deals = bot.deals
        self.daily = bot.daily
        self.onboarding = bot.onboarding
        super().__init__()

    async def cog_load(self) -> None:
        """Register the persistent buttons and the board refresh of finished games; post the daily announcements.

        Also make the daily service's champion role changes and streak reminders through this cog.
        """
        self.bot.add_dynamic_items(*BUTTON_TYPES)
        await self.load_game_commands()
        await self.load_competition_commands()
        await self.load_race_commands()
        await self.load_challenge_commands()
        await self.load_habit()
        await self.load_moderation_commands()

    async def cog_unload(self) -> None:
        """Forget the persistent buttons; stop posting the daily announcements."""
        self.bot.remove_dynamic_items(*BUTTON_TYPES)
        await self.unload_game_commands()
        await self.unload_competition_commands()
        await self.unload_race_commands()
        await self.unload_challenge_commands()
        await self.unload_habit()
        await self.unload_moderation_commands()


async def setup(bot: commands.Bot) -> None:
    """Add the cog (``bot`` is a :class:`SolitaireBot` whose services are open)."""
    await bot.add_cog(Solitaire(cast(SolitaireBot, bot)))
