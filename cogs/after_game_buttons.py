"""The after-game buttons on a board: Analyze, Share replay and Hint.

Their state is in the custom id (``solag:<game>:<action>[:<version>]``, see :mod:`bot.play.clicks`), so they
work after restarts; like every button (:mod:`cogs.buttons`), they hand a click to the cog, whose
:mod:`cogs.after_game` mixin answers it.
"""

from __future__ import annotations

import discord

from bot.play.after_game import hints_allowed
from bot.play.clicks import AfterGameClick
from bot.play.pads import pad_for
from bot.storage.games import GameRecord
from cogs.buttons import AfterGameButton
from solitaire.scoring import HINT_PENALTY
from solitaire.speech import _
from solitaire.variants import Family


def finished_buttons(record: GameRecord) -> discord.ui.View:
    """Analyze and Share replay for a finished game's board."""
    view = discord.ui.View(timeout=None)
    analyze = discord.ui.Button[discord.ui.View](label=_("Analyze"), style=discord.ButtonStyle.primary)
    share = discord.ui.Button[discord.ui.View](label=_("Share replay"), style=discord.ButtonStyle.secondary)
    view.add_item(AfterGameButton(AfterGameClick(record.id, "analyze"), analyze))
    view.add_item(AfterGameButton(AfterGameClick(record.id, "replay"), share))
    return view


def add_hint_button(buttons: discord.ui.View, record: GameRecord, version: int, family: Family) -> None:
    """Add the Hint button to a running casual game's board (never in dailies or races)."""
    if not hints_allowed(record):
        return
    # Translators: the Hint button; {penalty} is the points a hint costs.
    label = _("Hint (−{penalty})", penalty=HINT_PENALTY)
    button = discord.ui.Button[discord.ui.View](label=label, style=discord.ButtonStyle.secondary)
    button.row = pad_for(family).hint_row
    buttons.add_item(AfterGameButton(AfterGameClick(record.id, "hint", version), button))
