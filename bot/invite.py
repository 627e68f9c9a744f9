"""What the bot asks for when a server invites it: the OAuth2 scopes and each permission, with why.

One definition: the invite links logged at start (``bot/runtime/client.py`` builds them with discord.py's
``oauth_url``), ``/solitaire help`` and the permission table of ``docs/deploy.md`` (a test holds the
doc to this list) all read :data:`PERMISSIONS`. A permission marked ``optional`` is not in the
plain invite link; it gets a second link of its own, with the reason, so a server can choose it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from solitaire.speech import N_, _

SCOPES = ("bot", "applications.commands")
"""``bot`` adds the bot user to the server; ``applications.commands`` lets its slash commands appear there."""
DISCORD_NAMES = {
    "manage_guild": "Manage Server",
    "moderate_members": "Timeout Members",
    "read_messages": "View Channel",
}
"""The permissions whose name in Discord's settings is not their flag's."""
SAID_NAMES = {
    # Translators: a Discord permission's name (as are the next ones): write it as Discord's settings show it.
    "view_channel": N_("View Channel"),
    "read_messages": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
    "attach_files": N_("Attach Files"),
    "manage_roles": N_("Manage Roles"),
    "manage_guild": N_("Manage Server"),
    "moderate_members": N_("Timeout Members"),
    "read_message_history": N_("Read Message History"),
    "use_external_emojis": N_("Use External Emojis"),
    "add_reactions": N_("Add Reactions"),
    "manage_messages": N_("Manage Messages"),
    "manage_channels": N_("Manage Channels"),
    "administrator": N_("Administrator"),
    "mention_everyone": N_("Mention Everyone"),
    "kick_members": N_("Kick Members"),
    "ban_members": N_("Ban Members"),
}
"""The permissions the bot may name to a member, in the catalogue (each as Discord's settings name it)."""


def permission_name(flag: str) -> str:
    """Return a permission's name as Discord's settings show it (in the language spoken: Discord's own words).

    >>> permission_name("send_messages"), permission_name("manage_guild"), permission_name("read_messages")
    ('Send Messages', 'Manage Server', 'View Channel')
    """
    said = SAID_NAMES.get(flag)
    if said is not None:
        return _(said)
    return DISCORD_NAMES.get(flag) or flag.replace("_", " ").title()


@dataclass(frozen=True)
class Permission:
    """One server permission the bot uses: discord.py's flag name and the reason the bot needs it."""

    flag: str
    """The attribute of ``discord.Permissions``, e.g. ``send_messages``."""
    why: str
    optional: bool = False
    """Only for a feature a server may do without: offered as a separate invite link."""

    @property
    def name(self) -> str:
        """The permission as Discord's settings name it.

        >>> Permission("send_messages", "").name
        'Send Messages'
        """
        return permission_name(self.flag)


PERMISSIONS: tuple[Permission, ...] = (
    Permission(
        "view_channel", "see the competition channel, and the channels whose boards and race messages it updates"
    ),
    Permission("send_messages", "post the daily results and podiums in the competition channel"),
    Permission("embed_links", "show the race lobby, standings and results (embeds) when it updates a race message"),
    Permission("attach_files", "redraw a board's picture in its channel once the interaction's 15 minutes are over"),
    Permission(
        "manage_roles",
        "give each day's daily winners the champion role a server chooses with /solitaire config champion_role",
        optional=True,
    ),
)
"""Everything the bot uses in a server. Slash commands and their private answers need no permission of the bot's."""

InviteUrl = Callable[[Sequence[Permission]], str]
"""Builds the invite link that asks for these permissions (``bot/runtime/client.py``: discord.py's ``oauth_url``)."""


def required() -> tuple[Permission, ...]:
    """The permissions of the plain invite link."""
    return tuple(permission for permission in PERMISSIONS if not permission.optional)


def invite_lines(url: InviteUrl) -> list[str]:
    """What the bot logs to be invited: the plain link with its permissions, then one link per optional extra."""
    base = required()
    names = ", ".join(permission.name for permission in base)
    lines = [f"invite me to a server: {url(base)} (permissions: {names}; docs/deploy.md says why)"]
    for extra in (permission for permission in PERMISSIONS if permission.optional):
        lines.append(f"or, with the optional {extra.name} (to {extra.why}): {url((*base, extra))}")
    return lines
