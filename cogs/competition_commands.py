"""``/solitaire daily|leaderboard|stats|config`` and the competition's public posts.

A mixin of :class:`cogs.solitaire.Solitaire`: the runtime (deals, rollovers, podiums, retries) is
:class:`bot.compete.daily.DailyService`, the rules :mod:`bot.compete` (its words: :mod:`bot.compete.words`), the boards
and stats :class:`bot.compete.standings.Standings`; this module only translates commands and posts messages.
"""

from __future__ import annotations

import io
import logging
from datetime import date, datetime, timedelta

import aiohttp
import discord
from discord import app_commands
from discord.ext import commands

from bot import errors
from bot.compete.champions import champion_role_refusals
from bot.compete.onboarding import champion_warning, outbox_warning
from bot.compete.starts import DailyPlayedError
from bot.compete.words import leaderboard_lines, stats_lines, variant_title
from bot.errors import fit_reply
from bot.invite import permission_name
from bot.outbox.announcements import Announcement, Delivery
from bot.rules.calendar import InvalidTimezoneError, Period, validate_timezone, zone_suggestions
from bot.storage import StorageError
from bot.storage.competition import GuildConfig
from bot.storage.games import GameRecord, Mode
from cogs.base import SolitaireCogBase
from cogs.buttons import offer_view
from cogs.errors import answer_privately, refusals
from cogs.game_commands import VARIANT_CHOICES, place_of
from cogs.habit import server_role, setter_of
from cogs.quoting import quoted
from cogs.race_commands import race_stats_lines, rating_board_of
from cogs.settings_commands import chosen_language, language_choices
from cogs.speaking import public_language, speaking_publicly
from languages import Language, formats
from render.stats_data import describe_stats_card
from solitaire.speech import N_, _
from solitaire.variants import DEFAULT_VARIANT

log = logging.getLogger(__name__)

NO_PINGS = discord.AllowedMentions.none()
ZONE_CHOICES = 25
POST_PERMISSIONS = ("view_channel", "send_messages")
"""What the bot needs in the competition channel: its posts are plain text (mentions never ping)."""

PERIOD_CHOICES = [
    app_commands.Choice(name="Today", value="today"),
    app_commands.Choice(name="This week (from Monday)", value="week"),
    app_commands.Choice(name="All time", value="all"),
]
GAMES_CHOICES = [
    app_commands.Choice(name="Daily competition", value="daily"),
    app_commands.Choice(name="Casual games", value="casual"),
    app_commands.Choice(name="Race ratings", value="ratings"),
]
PERIOD_NOT_FOR_RATINGS = N_("Ratings count every race ever played here: `period:` does not apply to them.")
NOT_MANAGER = N_("Only members with the **Manage Server** permission can change the competition settings.")
SERVER_LANGUAGE_NOT_SAVED = N_(
    "The server's language was not saved (a storage problem on my side): nothing changed, please try again."
)
MODES = {
    # Translators: the kind of games a leaderboard ranks, in its title: "Klondike · daily · today (2026-11-29)".
    "daily": N_("daily"),
    # Translators: the kind of games a leaderboard ranks, in its title: "Klondike · casual · all time".
    "casual": N_("casual"),
}
STATS_PICTURE = "stats.png"
ALT_TEXT_LIMIT = 1024
"""Discord's limit on an attachment's description (its alt text)."""


def require_guild(interaction: discord.Interaction) -> int:
    """The server the command was used in; :raises NotInServerError: in DMs."""
    if interaction.guild_id is None:
        raise errors.NotInServerError()
    return interaction.guild_id


async def manager_guild(interaction: discord.Interaction, refusal: str) -> int | None:
    """The guild id if the caller has Manage Server there; otherwise answer privately with ``refusal``."""
    guild_id = require_guild(interaction)
    if not interaction.permissions.manage_guild:
        await answer_privately(interaction, _(refusal))
        return None
    return guild_id


class CompetitionCommands(SolitaireCogBase):
    """The competition half of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    config = app_commands.Group(
        name="config",
        description="Competition settings for this server (Manage Server permission)",
        default_permissions=discord.Permissions(manage_guild=True),  # a hint only: Discord ignores it on subgroups
    )

    # -- lifecycle ---------------------------------------------------------------------
    async def load_competition_commands(self) -> None:
        """Post the daily service's announcements."""
        self.daily.add_listener(self._post)

    async def unload_competition_commands(self) -> None:
        """Stop posting the daily service's announcements."""
        self.daily.remove_listener(self._post)

    # -- /solitaire daily ----------------------------------------------------------------
    @app_commands.command(name="daily", description="Play today's server deal: one ranked try per day")
    @app_commands.describe(variant="Which game (default: draw 3)")
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def daily_command(self, interaction: discord.Interaction, variant: str = DEFAULT_VARIANT) -> None:
        """Start today's daily deal privately, or show the result of today's attempt."""
        async with refusals(interaction):
            require_guild(interaction)
            place = place_of(interaction)
            if (played := await self.bot.starts.daily_played(place, variant)) is not None:
                await answer_privately(interaction, str(played))
                return
            running = self.sessions.active_for(place.guild_id, place.user_id)
            if running is not None:
                await interaction.response.send_message(
                    _(
                        "You already have a **{title}** game running here (time runs out <t:{deadline}:R>): "
                        "finish it first.",
                        title=running.game.rules.title,
                        deadline=int(running.deadline),
                    ),
                    view=offer_view(running.id),
                    ephemeral=True,
                )
                return

            async def waiting() -> None:
                await interaction.response.defer(ephemeral=True, thinking=True)

            try:
                session = await self.bot.starts.daily_game(place, variant, waiting=waiting)
            except DailyPlayedError as played:  # a second try raced the first
                await answer_privately(interaction, str(played))
                return
            await self.send_board(interaction, session, ephemeral=True)

    # -- /solitaire leaderboard and stats ----------------------------------------------------
    @app_commands.command(name="leaderboard", description="This server's best results")
    @app_commands.describe(
        variant="Which game",
        period="Which days (default: today; not for ratings)",
        games="Daily competition, casual games or race ratings",
    )
    @app_commands.choices(variant=VARIANT_CHOICES, period=PERIOD_CHOICES, games=GAMES_CHOICES)
    async def leaderboard(
        self,
        interaction: discord.Interaction,
        variant: str = DEFAULT_VARIANT,
        period: str | None = None,
        games: str = "daily",
    ) -> None:
        """Show the top 10 and the caller's own rank (race ratings: every race, whatever the period)."""
        async with refusals(interaction):
            guild_id = require_guild(interaction)
            if games == "ratings":
                async with speaking_publicly(self.bot, guild_id):  # the channel sees it
                    note = _(PERIOD_NOT_FOR_RATINGS) if period is not None else ""
                    embed = await rating_board_of(self.bot.standings, guild_id, variant, interaction.user.id, note=note)
                await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)
                return
            config = await self.daily.server_config(guild_id)
            now = self.daily.moment()
            today = config.clock.date_at(now)
            mode: Mode = "casual" if games == "casual" else "daily"
            board = await self.bot.standings.leaderboard(
                guild_id=guild_id,
                variant=variant,
                mode=mode,
                period=Period(period or "today"),
                today=today,
                timezone=config.clock.zone_at(now),
                caller_id=interaction.user.id,
            )
            async with speaking_publicly(self.bot, guild_id):  # the channel sees it
                embed = discord.Embed(
                    title=f"{variant_title(variant)} · {_(MODES[mode])} · {_period_words(board.period, today)}",
                    description="\n".join(leaderboard_lines(board, interaction.user.id)),
                )
            await interaction.response.send_message(embed=embed, allowed_mentions=NO_PINGS)

    @app_commands.command(name="stats", description="Games, wins, scores and daily streaks, with a picture")
    @app_commands.describe(member="Whose stats (default: yours)")
    async def stats(self, interaction: discord.Interaction, member: discord.User | None = None) -> None:
        """Show a player's stats in this server with their card (any user: former members keep their results)."""
        async with refusals(interaction):
            guild_id = require_guild(interaction)
            who = member or interaction.user
            today = await self.daily.today(guild_id)
            found = await self.bot.standings.member_stats(guild_id, who.id, today)
            ratings = await self.bot.standings.member_ratings(guild_id, who.id)
            async with speaking_publicly(self.bot, guild_id):  # the channel sees it: its words, its picture's
                lines = (
                    stats_lines(found)
                    if found.games
                    else [_("<@{member}> has not finished a game here yet.", member=who.id)]
                )
                lines += race_stats_lines(*ratings)
                embed = discord.Embed(
                    title=_("Solitaire stats: {name}", name=quoted(who.display_name)), description="\n".join(lines)
                )
                card = await self.bot.standings.stats_card(guild_id, found, name=who.display_name, today=today)
                png = await self.bot.renders.render(card)
                alt = fit_reply(describe_stats_card(card), ALT_TEXT_LIMIT)
            embed.set_image(url=f"attachment://{STATS_PICTURE}")
            await interaction.response.send_message(
                embed=embed,
                file=discord.File(io.BytesIO(png), filename=STATS_PICTURE, description=alt),
                allowed_mentions=NO_PINGS,
            )

    # -- /solitaire config ---------------------------------------------------------------------
    @config.command(name="channel", description="Where the daily results and podiums are posted (empty: nowhere)")
    @app_commands.describe(channel="The competition channel (leave empty to stop posting podiums)")
    async def config_channel(
        self, interaction: discord.Interaction, channel: discord.TextChannel | None = None
    ) -> None:
        """Set or clear the server's competition channel (Manage Server only), if the bot may post there."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            if channel is not None and (missing := self._missing_permissions(interaction, channel)):
                names = ", ".join(f"**{permission_name(flag)}**" for flag in missing)
                await answer_privately(
                    interaction,
                    _(
                        "I can't post in {channel}: I lack the {permissions} permission there. "
                        "Give it to me (or my role) in that channel's settings, or choose another channel.",
                        channel=channel.mention,
                        permissions=names,
                    ),
                )
                return
            config, now, yesterday = await self._config_now(guild_id)
            await self.daily.set_channel(guild_id, channel.id if channel else None, podium_after=yesterday)
            if channel is None:
                text = _("Daily podiums will no longer be posted.")
            else:
                text = _(
                    "Daily results and podiums will be posted in {channel}: the next podium once the day ends "
                    "<t:{rollover}:R> and its last daily is over.",
                    channel=channel.mention,
                    rollover=_next_rollover(config, now),
                )
            config = await self.daily.server_config(guild_id)
            await interaction.response.send_message(text + _champion_warning(config), ephemeral=True)

    def _missing_permissions(self, interaction: discord.Interaction, channel: discord.TextChannel) -> list[str]:
        """The permissions the bot lacks in ``channel`` to post there (all of them if it cannot see it)."""
        guild = interaction.guild
        cached = guild.get_channel(channel.id) if guild is not None else None
        if guild is None or guild.me is None or not isinstance(cached, discord.abc.GuildChannel):
            return list(POST_PERMISSIONS)
        granted = cached.permissions_for(guild.me)
        return [flag for flag in POST_PERMISSIONS if not getattr(granted, flag)]

    @config.command(name="timezone", description="The server's time zone: the day rolls over at 00:00 there")
    @app_commands.describe(timezone="An IANA time zone such as Europe/Paris or America/New_York")
    async def config_timezone(self, interaction: discord.Interaction, timezone: str) -> None:
        """Set the server's time zone from the next day on (Manage Server only); unknown names get a suggestion."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            try:
                zone = validate_timezone(timezone)
            except InvalidTimezoneError as error:
                await answer_privately(interaction, f"{error}.")
                return
            clock = await self.daily.change_zone(guild_id, zone)
            now = self.daily.moment()
            rollover = int(clock.next_rollover(now).timestamp())
            if clock.next_zone is None:
                text = _(
                    "Time zone set to **{zone}**: the day rolls over at 00:00 there (next <t:{rollover}:R>).",
                    zone=zone,
                    rollover=rollover,
                )
            else:
                text = _(
                    "Time zone set to **{zone}** from the next day: today ends at 00:00 {today_zone} "
                    "(<t:{rollover}:R>), so everyone keeps today's try and nobody gets a second one; "
                    "after that the day rolls over at 00:00 {zone}.",
                    zone=zone,
                    today_zone=clock.zone,
                    rollover=rollover,
                )
            config = await self.daily.server_config(guild_id)
            await interaction.response.send_message(text + config_warnings(config), ephemeral=True)

    @config_timezone.autocomplete("timezone")
    async def _zone_choices(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=zone, value=zone) for zone in zone_suggestions(current, ZONE_CHOICES)]

    @config.command(name="champion_role", description="The role each day's daily winners get (empty: none)")
    @app_commands.describe(role="The champion role (leave empty to stop giving it and take it back)")
    async def config_champion_role(self, interaction: discord.Interaction, role: discord.Role | None = None) -> None:
        """Set or clear the champion role (Manage Server only): cosmetic, theirs to choose, the bot's to give."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            if role is not None and (problem := champion_role_problem(interaction, role)):
                await answer_privately(interaction, problem)
                return
            config, now, yesterday = await self._config_now(guild_id)
            await self.daily.set_champion_role(guild_id, role.id if role else None, podium_after=yesterday)
            if role is None:
                text = _("No champion role any more: I take it back from the members I gave it to.")
            else:
                text = _(
                    "Each variant's daily winner gets {role} when the day's podium is due (next once the day ends "
                    "<t:{rollover}:R> and its last daily is over), and the members I gave it to for an earlier day "
                    "lose it: I never touch members I did not give it to. The winners of the last day with a "
                    "podium, if any, get it now.",
                    role=role.mention,
                    rollover=_next_rollover(config, now),
                )
            config = await self.daily.server_config(guild_id)
            await interaction.response.send_message(text + _channel_warning(config), ephemeral=True)

    @config.command(name="language", description="The language of this server's public posts (empty: show it)")
    @app_commands.describe(language="The language of the races, challenges and results posted in this server")
    @app_commands.choices(language=language_choices("Automatic (the server's language)"))
    async def config_language(self, interaction: discord.Interaction, language: str | None = None) -> None:
        """Show or set the language of the server's public posts (Manage Server only); the answer is the admin's."""
        async with refusals(interaction):
            guild_id = await self._manager_guild(interaction)
            if guild_id is None:
                return
            if language is not None:
                try:
                    await self.bot.speakers.choose_for_server(guild_id, chosen_language(language))
                except StorageError as error:
                    log.warning("could not store the language of server %s: %s", guild_id, error)
                    await answer_privately(interaction, _(SERVER_LANGUAGE_NOT_SAVED))
                    return
            chosen = await self.bot.speakers.server_choice(guild_id)
            text = server_language_text(chosen, await public_language(self.bot, guild_id), changed=language is not None)
            await interaction.response.send_message(text, ephemeral=True)

    async def _config_now(self, guild_id: int) -> tuple[GuildConfig, datetime, str]:
        """The server's settings, the moment, and yesterday (a first podium comes for a day after it)."""
        config = await self.daily.server_config(guild_id)
        now = self.daily.moment()
        return config, now, (config.clock.date_at(now) - timedelta(days=1)).isoformat()

    async def _manager_guild(self, interaction: discord.Interaction) -> int | None:
        """The guild id if the caller may change its settings; otherwise answer with the refusal."""
        return await manager_guild(interaction, NOT_MANAGER)

    # -- the public posts -------------------------------------------------------------------------
    @commands.Cog.listener("on_solitaire_game_finished")
    async def _daily_finished(self, record: GameRecord) -> None:
        """Hand a finished game to the daily service (it queues and posts a daily's public line)."""
        await self.daily.game_finished(record)

    async def _post(self, announcement: Announcement) -> Delivery:
        """Post one announcement of the daily service; say how it went."""
        channel = self.bot.get_partial_messageable(announcement.channel_id)
        try:
            await channel.send(announcement.text, allowed_mentions=NO_PINGS)
        except (discord.Forbidden, discord.NotFound) as error:
            log.warning("may not post the %s in channel %s: %s", announcement.kind, announcement.channel_id, error)
            return Delivery.FORBIDDEN
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not post the %s in channel %s: %s", announcement.kind, announcement.channel_id, error)
            return Delivery.FAILED
        return Delivery.POSTED


def champion_role_problem(interaction: discord.Interaction, role: discord.Role) -> str | None:
    """Why ``role`` may not be the champion role, set by this member and given by the bot, or ``None`` if it may."""
    facts = server_role(role)
    refusals = champion_role_refusals(facts.role, facts.everyone, setter_of(interaction.user))
    if role.is_default() or role.managed:
        return _(
            "I can't make {role} the champion role: {reason}. Choose another role.",
            role=role.mention,
            reason=refusals[0],
        )
    me = role.guild.me
    if me is None:
        return _("I cannot see my own roles in this server yet: try again in a minute.")
    if not me.guild_permissions.manage_roles:
        # Translators: one reason a role can't be the champion role, in a list of reasons.
        refusals.append(_("I lack the **Manage Roles** permission: give it to my role in Server Settings → Roles"))
    if role >= me.top_role:
        refusals.append(
            # Translators: one reason a role can't be the champion role, in a list of reasons.
            _(
                "{role} is not below my highest role ({top}): drag my role above it in Server Settings → Roles",
                role=role.mention,
                top=me.top_role.mention,
            )
        )
    if not refusals:
        return None
    # Translators: joins the reasons a role can't be the champion role: "reason one; and reason two".
    reasons = _("; and ").join(refusals)
    return _(
        "I can't make {role} the champion role: {reasons}. Fix it or choose another role.",
        role=role.mention,
        reasons=reasons,
    )


def _next_rollover(config: GuildConfig, now: datetime) -> int:
    """When the server's day ends next (unix seconds): its next podium is due then, once its last daily is over."""
    return int(config.clock.next_rollover(now).timestamp())


def server_language_text(chosen: Language | None, spoken: Language, *, changed: bool) -> str:
    """The admin's private answer: the language of the server's public posts (just chosen, or as it stands).

    >>> from languages import ENGLISH
    >>> server_language_text(None, ENGLISH, changed=False)  # doctest: +NORMALIZE_WHITESPACE
    "This server's public posts are in its own language (now **English**). Choose one with
    `/solitaire config language`."
    """
    name = spoken.name
    if changed and chosen is not None:
        return _("This server's races, challenges and results are now posted in **{language}**.", language=name)
    if changed:
        return _(
            "This server's races, challenges and results are now posted in its own language (now **{language}**).",
            language=name,
        )
    if chosen is not None:
        return _(
            "This server's public posts are in **{language}**. Change it with `/solitaire config language`.",
            language=name,
        )
    return _(
        "This server's public posts are in its own language (now **{language}**). "
        "Choose one with `/solitaire config language`.",
        language=name,
    )


def config_warnings(config: GuildConfig) -> str:
    """The admins' warnings about refused posts and role changes, and a post given up (else nothing)."""
    given_up = outbox_warning(config)
    return _channel_warning(config) + _champion_warning(config) + (f"\n{given_up}" if given_up is not None else "")


def _champion_warning(config: GuildConfig) -> str:
    """A warning for the admins when the last change of the champion role failed (else nothing)."""
    warning = champion_warning(config)
    return f"\n{warning}" if warning is not None else ""


def _channel_warning(config: GuildConfig) -> str:
    """A warning for the admins when the competition channel refused the bot's last post (else nothing)."""
    if config.channel_id is None or config.channel_problem is None:
        return ""
    fields = {"channel": config.channel_id, "problem": config.channel_problem}
    if config.channel_problem_at is None:
        warning = _(
            "⚠️ I could not post in <#{channel}> ({problem}): results and podiums wait there. Give me "
            "**View Channel** and **Send Messages** in it, or choose another channel with `/solitaire config channel`.",
            **fields,
        )
    else:
        warning = _(
            "⚠️ I could not post in <#{channel}> <t:{since}:R> ({problem}): results and podiums wait there. Give me "
            "**View Channel** and **Send Messages** in it, or choose another channel with `/solitaire config channel`.",
            since=int(config.channel_problem_at),
            **fields,
        )
    return f"\n{warning}"


def _period_words(period: Period, today: date) -> str:
    days = period.days(today)
    if period is Period.TODAY:
        # Translators: a leaderboard's days, in its title.
        return _("today ({day})", day=formats.day(today))
    if days is not None:
        # Translators: a leaderboard's days, in its title.
        return _("this week (since Monday {day})", day=formats.day(days[0]))
    # Translators: a leaderboard's days, in its title.
    return _("all time")
