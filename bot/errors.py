"""Errors the bot shows to players: each message is one short sentence, safe to send as is."""

from __future__ import annotations


class BotError(Exception):
    """Base class: a refusal the cog answers privately with ``str(error)``."""


class NoActiveGameError(BotError):
    """The player has no game running in this server."""

    def __init__(self) -> None:
        super().__init__("You have no game running here: start one with `/solitaire start`.")


class ActiveGameError(BotError):
    """The player already has a game running in this server."""

    def __init__(self, game_id: int) -> None:
        super().__init__("You already have a game running here: resume it or end it first.")
        self.game_id = game_id


class AlreadyPlayedError(BotError):
    """The player already played this daily game."""

    def __init__(self, variant: str, daily_date: str) -> None:
        super().__init__(f"You already played the {variant} daily for {daily_date}: one try per day.")
        self.variant = variant
        self.daily_date = daily_date


class UnknownGameError(BotError):
    """A button or command names a game that is not running (or never existed)."""

    def __init__(self) -> None:
        super().__init__("That game is not running any more.")


class NotYourGameError(BotError):
    """Someone clicked another player's board."""

    def __init__(self, owner_id: int) -> None:
        super().__init__(f"This is <@{owner_id}>'s game: start your own with `/solitaire start`.")
        self.owner_id = owner_id


class StaleBoardError(BotError):
    """A click on a board that no longer shows the game as it is."""

    def __init__(self) -> None:
        super().__init__("That board is out of date: use the latest one (your click changed nothing).")


class GameOverError(BotError):
    """A command for a game that has ended."""

    def __init__(self, status: str) -> None:
        super().__init__(f"That game is over ({status}).")
        self.status = status


class TimeUpError(BotError):
    """A move arrived after the deadline: the game expired instead."""

    def __init__(self) -> None:
        super().__init__("Time is up: the game has ended.")


class BadClickError(BotError):
    """A button custom id the bot cannot read (malformed or from another bot version)."""

    def __init__(self) -> None:
        super().__init__("That button is not one I understand any more: start a new game.")


class NotInServerError(BotError):
    """A competition command was used outside a server (in DMs)."""

    def __init__(self) -> None:
        super().__init__("Daily competitions belong to a server: use this command in one.")
