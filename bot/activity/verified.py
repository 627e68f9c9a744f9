"""What Discord vouches for about a page (a player, an instance, a token's holder), and the ways it does not."""

from __future__ import annotations

from dataclasses import dataclass


class VerificationError(Exception):
    """Discord did not vouch for the page's player or instance: the reason is shown to the page."""


class SignInRefusedError(VerificationError):
    """Discord refused the player's token or sign-in code: the page must sign in again."""


class DiscordUnavailableError(VerificationError):
    """Discord could not be asked (it answered 5xx or not at all, or the budget is spent): the page may try again."""


@dataclass(frozen=True)
class Player:
    """A verified player: who (from their token) and where (from the instance): server 0 for a DM or group DM."""

    user_id: int
    name: str
    guild_id: int
    channel_id: int
    instance_id: str
    locale: str | None = None
    """The locale Discord says the player's client is in (one of Discord's), if it says one."""


@dataclass(frozen=True)
class Instance:
    """An Activity instance as Discord describes it."""

    guild_id: int
    channel_id: int
    users: frozenset[int]


@dataclass(frozen=True)
class Holder:
    """Whom a token was given to, as Discord says: the user, their name, and their client's locale if it says one."""

    user_id: int
    name: str
    locale: str | None = None
