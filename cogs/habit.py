"""The daily habit's Discord calls: giving and taking back the champion role, sending streak reminders.

A mixin of :class:`cogs.solitaire.Solitaire`. When and to whom is decided in ``bot/`` (the daily
service's :class:`~bot.compete.champions.ChampionRoles` and :class:`~bot.compete.reminders.Reminders`, which deliver
them once through the announcements); this module only makes the calls and says how each went, and
describes a role to the cosmetic rule (:func:`bot.compete.champions.champion_role_refusals`), and has the
service check the role again when a channel's or a role's permissions change. It also
tells a member whose reminders a closed DM turned off, privately, after their next command.
"""

from __future__ import annotations

import logging

import aiohttp
import discord
from discord.ext import commands

from bot.compete.champions import ChannelFacts, Overwrite, RoleChange, RoleFacts, RolePort, ServerRole, Setter
from bot.compete.reminders import DmOutcome, Reminder
from bot.compete.words import reminder_text
from bot.storage import StorageError
from cogs.base import SolitaireCogBase
from cogs.quoting import quoted
from cogs.speaking import speaking_to
from solitaire.speech import N_, _

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
UNKNOWN_ROLE = 10011
"""Discord's error code for a role that does not exist (any other 404 here: the member is not in the server)."""
REMINDERS_REFUSED = N_(
    "Your streak reminders are now **off**: Discord refused my direct message (your DMs are closed to me). "
    "To get them again, allow direct messages from this server's members (the server's Privacy Settings), "
    "then use `/solitaire settings reminders: True`."
)


class HabitCommands(SolitaireCogBase):
    """The Discord side of the champion role and the streak reminders (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def load_habit(self) -> None:
        """Make the daily service's role changes and reminders through this cog."""
        self.daily.champions.use(RolePort(give=self._give_role, take=self._take_role, look=self._look_role))
        self.daily.reminders.use(self._send_reminder)

    async def unload_habit(self) -> None:
        """Stop making them (they wait in the database and are tried again)."""
        self.daily.champions.use(None)
        self.daily.reminders.use(None)

    @commands.Cog.listener("on_guild_channel_update")
    async def _channel_changed(self, before: discord.abc.GuildChannel, after: discord.abc.GuildChannel) -> None:
        """Check the champion role again when a channel's permission settings change (made private, say)."""
        if before.overwrites != after.overwrites:
            await self._recheck_champion_role(after.guild.id)

    @commands.Cog.listener("on_guild_channel_create")
    @commands.Cog.listener("on_guild_channel_delete")
    async def _channel_added_or_removed(self, channel: discord.abc.GuildChannel) -> None:
        """Check the champion role again when a channel comes (with its settings) or goes."""
        await self._recheck_champion_role(channel.guild.id)

    @commands.Cog.listener("on_guild_role_update")
    async def _role_changed(self, before: discord.Role, after: discord.Role) -> None:
        """Check the champion role again when a role's permissions change (the role's own, or @everyone's)."""
        if before.permissions != after.permissions:
            await self._recheck_champion_role(after.guild.id)

    async def _recheck_champion_role(self, guild_id: int) -> None:
        """Have the service check the server's champion role against the rule as the server is now."""
        try:
            await self.daily.champions.recheck(guild_id)
        except StorageError as error:
            log.warning("could not check the champion role of server %s again: %s", guild_id, error)

    async def _give_role(self, guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
        return await self._change_role(guild_id, user_id, role_id, reason, give=True)

    async def _take_role(self, guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
        return await self._change_role(guild_id, user_id, role_id, reason, give=False)

    async def _look_role(self, guild_id: int, role_id: int) -> ServerRole | None:
        """The role as it is now (the bot's cache, kept by Discord's role events), for the check before a grant."""
        guild = self.bot.get_guild(guild_id)
        role = guild.get_role(role_id) if guild is not None else None
        return server_role(role) if role is not None else None

    async def _change_role(self, guild_id: int, user_id: int, role_id: int, reason: str, *, give: bool) -> RoleChange:
        """Give (or take back) a role; a member who already has it from someone else is left alone."""
        guild = self.bot.get_guild(guild_id)
        if guild is None:
            return RoleChange.GONE  # the bot left the server
        role = guild.get_role(role_id)
        if role is None:
            return RoleChange.NO_ROLE
        try:
            member = await guild.fetch_member(user_id)  # no member cache (no members intent): its roles, fresh
            if give and role in member.roles:
                return RoleChange.HAD_IT
            if give:
                await member.add_roles(role, reason=f"Solitaire Rush: {reason}")
            elif role in member.roles:
                await member.remove_roles(role, reason=f"Solitaire Rush: {reason}")
        except discord.NotFound as error:
            return RoleChange.NO_ROLE if error.code == UNKNOWN_ROLE else RoleChange.GONE
        except discord.Forbidden as error:
            log.warning("may not change role %s of a member of server %s: %s", role_id, guild_id, error)
            return RoleChange.REFUSED
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not change role %s of a member of server %s: %s", role_id, guild_id, error)
            return RoleChange.FAILED
        return RoleChange.DONE

    async def _send_reminder(self, reminder: Reminder) -> DmOutcome:
        """Send one streak reminder by direct message, only to a member of the server (not one who left)."""
        guild = self.bot.get_guild(reminder.guild_id)
        if guild is None:
            return DmOutcome.FAILED  # not connected to the server now: tried again (until its day ends)
        async with speaking_to(self.bot, reminder.user_id):  # a direct message: the member's own language
            text = reminder_text(reminder.streak, quoted(guild.name), reminder.ends_at)
        try:
            await guild.fetch_member(reminder.user_id)  # no member cache: ask Discord whether they are still in
        except discord.NotFound:
            return DmOutcome.NOT_MEMBER
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not check that user %s is in server %s: %s", reminder.user_id, guild.id, error)
            return DmOutcome.FAILED
        try:
            channel = await self.bot.create_dm(discord.Object(id=reminder.user_id))
            await channel.send(text, allowed_mentions=NO_PINGS)
        except (discord.Forbidden, discord.NotFound) as error:
            log.info("may not send user %s a reminder: %s", reminder.user_id, error)
            return DmOutcome.CLOSED
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not send user %s a reminder: %s", reminder.user_id, error)
            return DmOutcome.FAILED
        return DmOutcome.SENT

    @commands.Cog.listener("on_app_command_completion")
    async def _reminders_refused_note(self, interaction: discord.Interaction, command: object) -> None:
        """After a member's command, tell them once, privately, if a closed DM turned their reminders off."""
        if not interaction.response.is_done():
            return
        user_id = interaction.user.id
        try:
            if not await self.daily.reminders.take_refusal(user_id):
                return
            try:
                await interaction.followup.send(_(REMINDERS_REFUSED), ephemeral=True)
            except discord.HTTPException as error:
                log.warning("could not tell user %s their reminders are off: %s", user_id, error)
                await self.daily.reminders.restore_refusal(user_id)
        except StorageError as error:
            log.warning("could not check the reminders of user %s: %s", user_id, error)


def flags(permissions: discord.Permissions) -> frozenset[str]:
    """The names of the permissions set in ``permissions``."""
    return frozenset(flag for flag, on in permissions if on)


def overwrite(channel: discord.abc.GuildChannel, target: discord.Role) -> Overwrite:
    """``channel``'s permission setting for ``target``: what it allows and denies there."""
    allow, deny = channel.overwrites_for(target).pair()
    return Overwrite(flags(allow), flags(deny))


def channel_facts(role: discord.Role) -> tuple[ChannelFacts, ...]:
    """``role``'s setting in each channel and category of its server that allows something, with @everyone's."""
    everyone = role.guild.default_role
    return tuple(
        ChannelFacts(channel.id, overwrite(channel, role), overwrite(channel, everyone))
        for channel in role.guild.channels
        if channel.overwrites_for(role).pair()[0].value
    )


def role_facts(role: discord.Role) -> RoleFacts:
    """What the champion-role rule reads of ``role``: its place, what it grants, and its channels' settings."""
    return RoleFacts(
        role.id,
        role.position,
        flags(role.permissions),
        managed=role.managed,
        everyone=role.is_default(),
        channels=channel_facts(role),
    )


def server_role(role: discord.Role) -> ServerRole:
    """``role`` and what @everyone has in its server."""
    return ServerRole(role_facts(role), flags(role.guild.default_role.permissions))


def setter_of(member: discord.Member | discord.User) -> Setter:
    """The member setting the champion role: their highest role, and whether they own the server."""
    if not isinstance(member, discord.Member):
        return Setter(top_position=0)
    return Setter(member.top_role.position, owner=member.guild.owner_id == member.id)
