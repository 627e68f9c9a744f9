"""A signed-in page's player as every desk sees it, and what the desks share: the variants' menu names."""

from __future__ import annotations

from dataclasses import dataclass

from bot import errors
from bot.activity.verified import Player
from bot.compete.starts import Place
from solitaire.speech import _
from solitaire.variants import variant_menu


@dataclass(frozen=True)
class Seat:
    """A verified player at the table: where their games are kept, and whether the server has the bot."""

    player: Player
    ranked: bool
    """The bot is in the player's server (or it is a DM): casual and daily games; else practice only."""

    @property
    def place(self) -> Place:
        """Where this player's games start."""
        return Place(self.player.guild_id, self.player.channel_id, self.player.user_id)


class PracticeOnlyError(errors.BotError):
    """A ranked game asked for where the bot is not in the server: only practice deals are played here."""

    def __init__(self) -> None:
        super().__init__(
            _(
                "The bot is not in this server, so its games are not ranked here: play a practice deal "
                "(or ask an admin to add the bot)."
            )
        )


def variant_menu_names() -> list[tuple[str, str]]:
    """Every variant as ``(name, title)``, in the menu's order."""
    return [(value, name) for name, value in variant_menu()]
