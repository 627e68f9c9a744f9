"""The channel rule of the public competition messages (a race's, a challenge's): what the bot needs there.

Every surface asks it before opening a competition in a channel: a command with the interaction's
permissions, the Activity with what the bot's cache says of the instance's channel.
"""

from __future__ import annotations

from collections.abc import Callable

from bot.errors import BotError
from bot.invite import permission_name
from languages.formats import listing
from solitaire.speech import _

CHANNEL_PERMISSIONS = ("view_channel", "send_messages", "embed_links")
"""What the bot needs in a channel to run a public competition message there: the message (an embed) is edited
past the interaction's own token, and its results are posted anew if it was deleted."""


class ChannelPermissionsError(BotError):
    """The bot lacks what it needs in the channel to run a public competition message there."""

    def __init__(self, what: str, missing: list[str]) -> None:
        names = listing([f"**{permission_name(flag)}**" for flag in missing])
        if what == "challenge":
            # Translators: {permissions} are Discord's names of permissions, in bold.
            text = _(
                "I can't run a challenge in this channel: I lack the {permissions} permission here (its message is "
                "updated as it goes and gets the results). Give it to me (or my role), or use another channel.",
                permissions=names,
            )
        else:
            # Translators: {permissions} are Discord's names of permissions, in bold.
            text = _(
                "I can't run a race in this channel: I lack the {permissions} permission here (its message is "
                "updated as it goes and gets the results). Give it to me (or my role), or use another channel.",
                permissions=names,
            )
        super().__init__(text)


def check_channel_permissions(what: str, granted: Callable[[str], bool]) -> None:
    """:raises ChannelPermissionsError: ``granted`` says the bot lacks one of :data:`CHANNEL_PERMISSIONS`.

    >>> check_channel_permissions("race", lambda flag: True)
    >>> try:
    ...     check_channel_permissions("race", lambda flag: flag != "embed_links")
    ... except ChannelPermissionsError as error:
    ...     print(str(error)[:60])
    I can't run a race in this channel: I lack the **Embed Links
    """
    if missing := [flag for flag in CHANNEL_PERMISSIONS if not granted(flag)]:
        raise ChannelPermissionsError(what, missing)
