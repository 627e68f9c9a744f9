"""What the ``/solitaire`` cog's mixins share, declared once: the services and the methods they call on each other."""

from __future__ import annotations

from abc import ABC, ABCMeta, abstractmethod

import discord
from discord.ext import commands

from bot.compete.daily import DailyService
from bot.compete.onboarding import Onboarding
from bot.play.deal_bank import Deal, DealBank
from bot.play.session import Session
from bot.play.sessions import SessionManager
from bot.runtime.client import SolitaireBot
from bot.runtime.settings import Settings
from bot.storage.games import GameRecord
from solitaire.variants import Family


class CompositeMetaClass(commands.CogMeta, ABCMeta):
    """A cog's metaclass that also refuses to build a cog with an abstract method left unimplemented."""


class SolitaireCogBase(commands.Cog, ABC, metaclass=CompositeMetaClass):
    """Base of the mixins of :class:`cogs.solitaire.Solitaire`, the one cog that composes and constructs them."""

    bot: SolitaireBot
    settings: Settings
    sessions: SessionManager
    deals: DealBank[Deal]
    daily: DailyService
    onboarding: Onboarding

    @property
    def play_here(self) -> bool:
        """Whether the boards and the help offer **Play here**: this process serves the Activity."""
        return self.settings.serves_activity

    @abstractmethod
    async def send_board(
        self, interaction: discord.Interaction, session: Session, *, ephemeral: bool, followup: bool = False
    ) -> None:
        """Answer with the board of ``session`` and remember the message (``GameCommands``)."""

    @abstractmethod
    async def refresh_board(self, session: Session, record: GameRecord | None = None) -> bool:
        """Redraw the stored board message of ``session`` (``GameCommands``)."""

    @abstractmethod
    async def first_board_tip(self, user_id: int, family: Family) -> str | None:
        """The one-line tip for the player's first board, once (``HelpCommands``)."""
