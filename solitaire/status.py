"""Where a game stands: playing, or how it ended (the engine sets it, a view shows it)."""

from __future__ import annotations

from enum import Enum

from solitaire.speech import N_, _


class Status(Enum):
    """Where a game stands: its ``value`` is its name in JSON and storage, its :attr:`words` what a player reads."""

    PLAYING = "playing"
    WON = "won"
    ENDED = "ended"
    STUCK = "stuck"
    EXPIRED = "expired"

    @property
    def words(self) -> str:
        """How the game stands, in the spoken language (``playing``, ``won`` ... in English)."""
        return _(_WORDS[self])


_WORDS = {
    # Translators: how a game stands (an adjective), e.g. in a board picture's description
    Status.PLAYING: N_("playing"),
    # Translators: how a game stands: the player won it
    Status.WON: N_("won"),
    # Translators: how a game stands: the player ended it early (with the `end` command)
    Status.ENDED: N_("ended"),
    # Translators: how a game stands: no useful move was left
    Status.STUCK: N_("stuck"),
    # Translators: how a game stands: its clock ran out
    Status.EXPIRED: N_("expired"),
}
