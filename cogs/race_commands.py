"""``/solitaire race`` and ``/solitaire ratings``: the public race message, its buttons, and the rating boards.

The race service (:class:`bot.compete.race.RaceService`) decides everything; this mixin turns
its snapshots into one public message (lobby, live standings, final results) and its
refusals into private answers. Boards are the ordinary game boards, sent privately.
"""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import discord
from discord import app_commands

from bot import errors
from bot.compete.race import MAX_RACERS, MIN_RACERS, RaceResult, RaceSnapshot, Standing
from bot.compete.ratings import PROVISIONAL_RACES, Skill, rating_change_text
from bot.compete.standings import Standings
from bot.compete.words import format_time, variant_title
from bot.outbox.announcements import Announcement, Delivery
from bot.play.clicks import Owner, RaceAction, RaceClick
from bot.runtime.client import UNEXPECTED
from bot.storage.races import RatingRecord
from cogs.base import SolitaireCogBase
from cogs.buttons import RaceButton, origin_of
from cogs.errors import answer_privately, refusals
from cogs.game_commands import VARIANT_CHOICES
from cogs.public_messages import check_channel, show_results
from cogs.speaking import speaking_publicly
from solitaire.speech import N_, _, n_
from solitaire.variants import DEFAULT_VARIANT
from solitaire.words import number

log = logging.getLogger(__name__)

_VARIANTS = VARIANT_CHOICES
_COLOUR = discord.Colour.dark_green()
_MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
_BOARD_SIZE = 10
LEAVE_QUESTION = N_(
    "Leave the race? Your game ends now and you are ranked after everyone who stays (your score is kept). "
    "Dismiss this message to stay."
)


class RaceCommands(SolitaireCogBase):
    """The race part of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def load_race_commands(self) -> None:
        """Show the race service's updates and results on the race messages."""
        self.bot.races.publish = self.publish_race
        self.bot.races.post_message = self.post_race_message
        self.bot.races.announcements.add_listener(self.post_race_results, kinds=("race",))

    async def unload_race_commands(self) -> None:
        """Forget the race messages."""
        self.bot.races.publish = None
        self.bot.races.post_message = None
        self.bot.races.announcements.remove_listener(self.post_race_results)

    @app_commands.command(name="race", description="Race friends on the same deal: 2 to 8 racers, 5 minutes")
    @app_commands.describe(
        variant="Which game (default: draw 3)", players="How many racers; the race starts by itself when full (2-8)"
    )
    @app_commands.choices(variant=_VARIANTS)
    async def race(
        self,
        interaction: discord.Interaction,
        variant: str = DEFAULT_VARIANT,
        players: app_commands.Range[int, MIN_RACERS, MAX_RACERS] = MAX_RACERS,
    ) -> None:
        """Open a public race lobby in this channel."""
        async with refusals(interaction):
            if interaction.guild_id is None:
                raise errors.NotInServerError("Races")
            check_channel(interaction, "race")
            snapshot = await self.bot.races.open(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                host_id=interaction.user.id,
                variant=variant,
                capacity=players,
            )
            async with speaking_publicly(self.bot, interaction.guild_id):  # the lobby is the channel's
                shown = race_message(snapshot, now=self.bot.now())
            callback = await interaction.response.send_message(**shown)
            message = callback.resource if isinstance(callback.resource, discord.Message) else None
            if message is None:
                message = await interaction.original_response()
            await self.bot.races.set_message(snapshot.race.id, message.id)

    @app_commands.command(name="ratings", description="Race ratings: a server's board, or a member's ratings")
    @app_commands.describe(variant="Which game's board (default: draw 3)", member="Show this member's ratings instead")
    @app_commands.choices(variant=_VARIANTS)
    async def ratings(
        self, interaction: discord.Interaction, variant: str = DEFAULT_VARIANT, member: discord.User | None = None
    ) -> None:
        """Show the rating board of a variant, or one member's ratings and races."""
        async with refusals(interaction):
            if interaction.guild_id is None:
                raise errors.NotInServerError("Races")
            async with speaking_publicly(self.bot, interaction.guild_id):  # the channel sees it
                if member is not None:
                    rows, wins = await self.bot.standings.member_ratings(interaction.guild_id, member.id)
                    embed = member_ratings_embed(member.id, rows, wins)
                else:
                    embed = await rating_board_of(
                        self.bot.standings, interaction.guild_id, variant, interaction.user.id
                    )
            await interaction.response.send_message(embed=embed, allowed_mentions=discord.AllowedMentions.none())

    # -- buttons -------------------------------------------------------------------------
    async def handle_race_click(self, interaction: discord.Interaction, click: RaceClick | None) -> None:
        """Answer a race button: join, leave, start, cancel, or open the racer's private board."""
        try:
            async with refusals(interaction):
                await self._race_click(interaction, click)
        except Exception:
            log.exception("race click %s failed", click)
            await answer_privately(interaction, _(UNEXPECTED))

    async def _race_click(self, interaction: discord.Interaction, click: RaceClick | None) -> None:
        if click is None:
            raise errors.BadRaceClickError()
        races, user = self.bot.races, interaction.user.id
        if click.action == "board":
            session = await races.board(click.race_id, user)
            await self.send_board(interaction, session, ephemeral=True)
            return
        stored = Owner(message_id=await races.message_of(click.race_id)) if click.on_race_message else Owner()
        click.check(origin_of(interaction, click.custom_id), stored)
        if click.action == "quit":  # the confirmation, always a private message of its own
            await races.leave_running(click.race_id, user)
            await interaction.response.edit_message(
                content=_("You left the race: you are ranked after everyone who stayed, with your score."), view=None
            )
            return
        if click.action == "leave" and await races.leaving_ends_a_game(click.race_id, user):
            await interaction.response.send_message(
                _(LEAVE_QUESTION), view=_view(click.race_id, "quit"), ephemeral=True
            )
            return
        if click.action in ("join", "start") and await races.may_solve(click.race_id, user, click.action):
            await interaction.response.defer()
        if click.action == "join":
            snapshot = await races.join(click.race_id, user)
        elif click.action == "start":
            snapshot = await races.start(click.race_id, user)
        elif click.action == "cancel":
            snapshot = await races.cancel(click.race_id, user)
        else:
            snapshot = await races.leave(click.race_id, user)
        async with speaking_publicly(self.bot, snapshot.race.guild_id):
            shown = race_message(snapshot, now=self.bot.now())
        if interaction.response.is_done():
            await interaction.edit_original_response(**shown)
        else:
            await interaction.response.edit_message(**shown)

    async def publish_race(self, snapshot: RaceSnapshot) -> None:
        """Show a snapshot on the public race message (failures are logged)."""
        race = snapshot.race
        if race.message_id is None:
            return
        channel = self.bot.get_partial_messageable(race.channel_id)
        async with speaking_publicly(self.bot, race.guild_id):
            shown = race_message(snapshot, now=self.bot.now())
        try:
            await channel.get_partial_message(race.message_id).edit(**shown)
        except discord.HTTPException as error:
            log.warning("could not update race %s: %s", race.id, error)

    async def post_race_message(self, snapshot: RaceSnapshot) -> int | None:
        """Post the race message of a race opened in the Activity; its id (``None``: Discord refused it, logged)."""
        race = snapshot.race
        channel = self.bot.get_partial_messageable(race.channel_id)
        async with speaking_publicly(self.bot, race.guild_id):
            shown = race_message(snapshot, now=self.bot.now())
        try:
            message = await channel.send(**shown)
        except (TimeoutError, discord.HTTPException, aiohttp.ClientError) as error:
            log.warning("could not post the message of race %s: %s", race.id, error)
            return None
        return message.id

    async def post_race_results(self, announcement: Announcement) -> Delivery:
        """Show a finished race's results on its message (a new message if that one is gone); say how it went."""
        snapshot = announcement.payload
        if not isinstance(snapshot, RaceSnapshot):
            return Delivery.FAILED
        race = snapshot.race
        async with speaking_publicly(self.bot, race.guild_id):
            shown = race_message(snapshot, now=self.bot.now())
        return await show_results(self.bot, race.channel_id, race.message_id, shown, what=f"race {race.id}")


# -- the race message ------------------------------------------------------------------
def race_message(snapshot: RaceSnapshot, *, now: float) -> dict[str, Any]:
    """Keyword arguments for the race message as the snapshot stands (embed and buttons)."""
    race = snapshot.race
    if race.status == "lobby":
        embed, buttons = lobby_embed(snapshot), _view(race.id, "join", "leave", "start", "cancel")
    elif race.status == "running":
        embed, buttons = standings_embed(snapshot, now=now), _view(race.id, "board", "leave")
    elif race.status == "finished":
        embed, buttons = results_embed(snapshot), None
    else:
        embed, buttons = closed_embed(snapshot), None
    return {"content": None, "embed": embed, "view": buttons, "allowed_mentions": discord.AllowedMentions.none()}


_LABELS = {
    # Translators: a race lobby's button.
    "join": (N_("Join"), discord.ButtonStyle.success),
    # Translators: a race lobby's button.
    "leave": (N_("Leave"), discord.ButtonStyle.secondary),
    # Translators: a race lobby's button, for its host only.
    "start": (N_("Start (host)"), discord.ButtonStyle.primary),
    # Translators: a race lobby's button, for its host only.
    "cancel": (N_("Cancel (host)"), discord.ButtonStyle.danger),
    "board": (N_("Open my board"), discord.ButtonStyle.primary),
    "quit": (N_("Leave the race"), discord.ButtonStyle.danger),
}
LEAVE_RUNNING = N_("Leave race")
"""The Leave button of a running race (its lobby's says ``Leave``)."""


def _view(race_id: int, *actions: RaceAction) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action in actions:
        label, style = _LABELS[action]
        if action == "leave" and "board" in actions:
            label = LEAVE_RUNNING
        view.add_item(RaceButton(RaceClick(race_id, action), discord.ui.Button(label=_(label), style=style)))
    return view


def _title(snapshot: RaceSnapshot, prefix: str) -> str:
    return f"{prefix} · {variant_title(snapshot.race.variant)}"


def lobby_embed(snapshot: RaceSnapshot) -> discord.Embed:
    """The lobby: host, variant, racers and when it expires."""
    race = snapshot.race
    lines = [
        # Translators: {capacity} is 2 to 8.
        _(
            "Host <@{host}> · {joined}/{capacity} racers · starts by itself when full",
            host=race.host_id,
            joined=len(snapshot.racers),
            capacity=race.capacity,
        ),
        _(
            "Same deal, same 5 minutes, private boards. Lobby closes <t:{closes}:R>.",
            closes=int(race.lobby_deadline),
        ),
        "",
    ]
    lines += [
        _("`{place}.` <@{racer}> (host)", place=n, racer=user) if user == race.host_id else f"`{n}.` <@{user}>"
        for n, user in enumerate(snapshot.racers, 1)
    ]
    return discord.Embed(title=_title(snapshot, _("🏁 Race lobby")), description="\n".join(lines), colour=_COLOUR)


def standings_embed(snapshot: RaceSnapshot, *, now: float) -> discord.Embed:
    """The live standings: cards home, score, playing or finished."""
    race = snapshot.race
    start, end = int(race.start_at or 0), int(race.end_at or 0)
    if now < (race.start_at or 0):
        head = _(
            "**Starts <t:{start}:R>** (<t:{start}:T>): open your board then. Ends <t:{end}:T>.", start=start, end=end
        )
    else:
        head = _(
            "Started <t:{start}:T> · **ends <t:{end}:R>** · its deal is shown when the race is over",
            start=start,
            end=end,
        )
    lines = [head, ""] + [_standing_line(n, s) for n, s in enumerate(snapshot.standings, 1)]
    return discord.Embed(title=_title(snapshot, _("🏁 Race")), description="\n".join(lines), colour=_COLOUR)


_STATES = {
    # Translators: a racer's state in a race's live standings: waiting for the start.
    "waiting": N_("ready"),
    # Translators: a racer's state in a race's live standings.
    "playing": N_("playing"),
    # Translators: a racer's state in a race's live standings: they left the race.
    "left": N_("left"),
}


def _standing_line(place: int, standing: Standing) -> str:
    if standing.status in _STATES:
        state = _(_STATES[standing.status])
    else:
        # Translators: how a racer's game ended, and in how long: "✅ won in 3:07".
        state = _("{ending} in {time}", ending=_ending(standing.status), time=format_time(standing.seconds_used))
    return n_(
        "`{place}.` <@{racer}> · **{score}** pts · {count} card home · {state}",
        "`{place}.` <@{racer}> · **{score}** pts · {count} cards home · {state}",
        standing.placed,
        place=place,
        racer=standing.user_id,
        score=number(standing.score),
        state=state,
    )


_ENDINGS = {
    # Translators: how a racer's game ended.
    "won": N_("✅ won"),
    # Translators: how a racer's game ended: they ended it.
    "ended": N_("ended"),
    # Translators: how a racer's game ended: no move was left.
    "stuck": N_("stuck"),
    # Translators: how a racer's game ended: the clock ran out.
    "expired": N_("⏱ time up"),
    # Translators: how a racer's race ended: they left it.
    "left": N_("left"),
}


def _ending(status: str) -> str:
    """How a racer's game ended, said in the spoken language (an unknown status as it is)."""
    ending = _ENDINGS.get(status)
    return _(ending) if ending is not None else status


def results_embed(snapshot: RaceSnapshot) -> discord.Embed:
    """The final standings: rank, score, time and rating change."""
    race = snapshot.race
    lines = [_result_line(result) for result in snapshot.results]
    if race.unrated_reason is not None:
        lines += ["", _("Not rated: {reason}.", reason=race.unrated_reason)]
    if race.deal_seed is not None:
        lines += [
            "",
            _(
                "Replay this deal for practice: `/solitaire start variant:{variant} seed:{seed}`",
                variant=race.variant,
                seed=race.deal_seed,
            ),
        ]
    embed = discord.Embed(
        title=_title(snapshot, _("🏆 Race results")), description="\n".join(lines) or _("Nobody raced."), colour=_COLOUR
    )
    if race.deal_number is not None:
        footer = _(
            "Deal #{deal} · ties: time used; equal results share a place · only racers who moved a card are rated · "
            "? = provisional (under {races} races)",
            deal=race.deal_number,
            races=PROVISIONAL_RACES,
        )
    else:
        footer = _(
            "ties: time used; equal results share a place · only racers who moved a card are rated · "
            "? = provisional (under {races} races)",
            races=PROVISIONAL_RACES,
        )
    embed.set_footer(text=footer)
    return embed


def _result_line(result: RaceResult) -> str:
    fields = {
        "place": _MEDALS.get(result.place, f"`{result.place}.`"),
        "racer": result.user_id,
        "score": number(result.score),
        "time": format_time(result.seconds_used),
        "ending": _ending(result.status),
    }
    if result.rating_after is None:
        return _("{place} <@{racer}> · **{score}** pts · {time} · {ending} · not rated", **fields)
    rating = rating_change_text(result.rating_before, result.rating_after, provisional=result.provisional)
    # Translators: {rating} is the rating after the race and its change: "1156? (+124)".
    return _("{place} <@{racer}> · **{score}** pts · {time} · {ending} · {rating}", rating=rating, **fields)


_CLOSED = {
    "cancelled": N_("Cancelled."),
    "expired": N_("Expired: nobody started it within 10 minutes."),
}
"""Why a race lobby closed without a race."""


def closed_embed(snapshot: RaceSnapshot) -> discord.Embed:
    """A lobby that was cancelled or expired."""
    why = _CLOSED.get(snapshot.race.status)
    return discord.Embed(
        title=_title(snapshot, _("🏁 Race lobby closed")),
        description=_(why) if why is not None else snapshot.race.status,
        colour=discord.Colour.light_grey(),
    )


async def rating_board_of(
    standings: Standings, guild_id: int, variant: str, caller: int, *, note: str = ""
) -> discord.Embed:
    """The rating board of a variant, as ``/solitaire ratings`` and ``leaderboard games: ratings`` show it."""
    return rating_board_embed(variant, await standings.rating_board(guild_id, variant), caller, note=note)


def rating_board_embed(variant: str, board: list[RatingRecord], caller: int, *, note: str = "") -> discord.Embed:
    """The best displayed ratings of a server and variant (provisional ones marked), then the caller's rank."""
    ranked = sorted(board, key=lambda r: (-Skill(r.mu, r.sigma, r.races).display, r.user_id))
    lines = []
    for n, row in enumerate(ranked, 1):
        if n <= _BOARD_SIZE or row.user_id == caller:
            lines += ["…"] if n > _BOARD_SIZE else []
            lines.append(
                n_(
                    "`{place}.` <@{member}> · {rating} · {count} race",
                    "`{place}.` <@{member}> · {rating} · {count} races",
                    row.races,
                    place=n,
                    member=row.user_id,
                    rating=_rating_text(row),
                )
            )
    if ranked and all(row.user_id != caller for row in ranked):
        lines.append(_("<@{member}> has no rating here yet: race with `/solitaire race`.", member=caller))
    embed = discord.Embed(
        title=_("🏁 Race ratings · {variant}", variant=variant_title(variant)),
        description="\n".join(
            ([note, ""] if note else []) + (lines or [_("No races yet: start one with `/solitaire race`.")])
        ),
        colour=_COLOUR,
    )
    footer = n_(
        "{count} member rated · ? = provisional (under {races} races)",
        "{count} members rated · ? = provisional (under {races} races)",
        len(ranked),
        races=PROVISIONAL_RACES,
    )
    embed.set_footer(text=footer)
    return embed


def member_ratings_embed(user_id: int, rows: list[RatingRecord], wins: dict[str, int]) -> discord.Embed:
    """One member's rating, races and first places per variant."""
    return discord.Embed(
        title=_("🏁 Race ratings"),
        description=f"<@{user_id}>\n" + ("\n".join(race_stats_lines(rows, wins)) or _("No races yet.")),
        colour=_COLOUR,
    )


def race_stats_lines(rows: list[RatingRecord], wins: dict[str, int]) -> list[str]:
    """A member's race lines for ``/solitaire stats``: a heading, then rating, races and first places per variant."""
    if not rows:
        return []
    lines = [_("**Races** (rating; ? = provisional, under {races} races)", races=PROVISIONAL_RACES)]
    for row in rows:
        lines.append(
            n_(
                "{variant}: rating {rating} · {count} race, {won} won",
                "{variant}: rating {rating} · {count} races, {won} won",
                row.races,
                variant=variant_title(row.variant),
                rating=_rating_text(row),
                won=number(wins.get(row.variant, 0)),
            )
        )
    return lines


def _rating_text(row: RatingRecord) -> str:
    return Skill(row.mu, row.sigma, row.races).text
