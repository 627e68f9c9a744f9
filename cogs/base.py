"""The typed base of the ``/solitaire`` cog's mixins: the services the cog hands them."""

from __future__ import annotations

from typing import TYPE_CHECKING

from discord.ext import commands

from bot.client import SolitaireBot
from bot.daily import DailyService
from bot.deal_bank import Deal, DealBank
from bot.sessions import SessionManager
from bot.settings import Settings
from bot.storage import Database

if TYPE_CHECKING:
    _Base = commands.Cog
else:
    _Base = object


class SolitaireCogBase(_Base):
    """Base of ``GameCommands`` and ``CompetitionCommands``: a plain class at run time.

    (Typed as a :class:`commands.Cog` for mypy only, so ``@app_commands.command`` accepts
    methods defined here; the real cog is :class:`cogs.solitaire.Solitaire`.)
    """

    bot: SolitaireBot
    settings: Settings
    db: Database
    sessions: SessionManager
    deals: DealBank[Deal]
    daily: DailyService
