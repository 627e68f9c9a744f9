"""``/solitaire challenge``: the public challenge message, its buttons, and the private attempts.

The challenge service (:class:`bot.compete.challenges.ChallengeService`) decides everything; this mixin turns
its snapshots into one public message and its refusals into private answers. Attempts are played on the
ordinary game boards, sent privately.
"""

from __future__ import annotations

import contextlib
import logging
import sqlite3
from typing import Any, Literal

import aiohttp
import discord
from discord import app_commands

from bot import errors
from bot.compete.challenges import (
    DEFAULT_HOURS,
    MAX_HOURS,
    MIN_HOURS,
    ChallengeSnapshot,
    Line,
    OpponentsError,
)
from bot.compete.ratings import PROVISIONAL_RACES, rating_change_text
from bot.compete.words import format_time, variant_title
from bot.outbox.announcements import Announcement, Delivery
from bot.play.clicks import ChallengeAction, ChallengeClick, Owner
from bot.runtime.client import UNEXPECTED
from cogs.base import SolitaireCogBase
from cogs.buttons import ChallengeButton, origin_of
from cogs.errors import answer_privately, refusals
from cogs.game_commands import VARIANT_CHOICES
from cogs.public_messages import check_channel, show_results
from cogs.speaking import speaking_publicly
from solitaire.speech import N_, _
from solitaire.variants import DEFAULT_VARIANT
from solitaire.words import number

log = logging.getLogger(__name__)

_COLOUR = discord.Colour.dark_gold()
_MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
_ENDINGS = {
    # Translators: how a challenger's game ended.
    "won": N_("✅ won"),
    # Translators: how a challenger's game ended: they ended it.
    "ended": N_("ended"),
    # Translators: how a challenger's game ended: no move was left.
    "stuck": N_("stuck"),
    # Translators: how a challenger's game ended: the clock ran out.
    "expired": N_("⏱ time up"),
}
_STATES = {
    # Translators: where a member named in a challenge stands: the member who challenged.
    "challenger": N_("challenger · not played yet"),
    "invited": N_("invited · no answer yet"),
    "accepted": N_("accepted · not played yet"),
    "declined": N_("declined"),
    "playing": N_("playing now"),
    "played": N_("✅ played"),
}


class ChallengeCommands(SolitaireCogBase):
    """The challenge part of the ``/solitaire`` group (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    async def load_challenge_commands(self) -> None:
        """Show the challenge service's updates and results on the challenge messages."""
        self.bot.challenges.publish = self.publish_challenge
        self.bot.challenges.announcements.add_listener(self.post_challenge_results, kinds=("challenge",))

    async def unload_challenge_commands(self) -> None:
        """Forget the challenge messages."""
        self.bot.challenges.publish = None
        self.bot.challenges.announcements.remove_listener(self.post_challenge_results)

    @app_commands.command(name="challenge", description="Challenge friends to the same deal: each plays it once")
    @app_commands.describe(
        variant="Which game (default: draw 3)",
        opponent="A member to challenge",
        opponent2="Another member (optional)",
        opponent3="Another member (optional)",
        opponent4="Another member (optional)",
        opponent5="Another member (optional)",
        opponent6="Another member (optional)",
        opponent7="Another member (optional)",
        hours=f"When it closes at the latest, in hours (default {DEFAULT_HOURS})",
        open="Show the scores as they come; an open challenge is not rated (default: hidden until it closes)",
    )
    @app_commands.choices(variant=VARIANT_CHOICES)
    async def challenge(
        self,
        interaction: discord.Interaction,
        opponent: discord.Member,
        variant: str = DEFAULT_VARIANT,
        opponent2: discord.Member | None = None,
        opponent3: discord.Member | None = None,
        opponent4: discord.Member | None = None,
        opponent5: discord.Member | None = None,
        opponent6: discord.Member | None = None,
        opponent7: discord.Member | None = None,
        hours: app_commands.Range[int, MIN_HOURS, MAX_HOURS] = DEFAULT_HOURS,
        open: bool = False,
    ) -> None:
        """Open a public challenge: the named members accept or decline, everyone in plays the same deal once."""
        async with refusals(interaction):
            if interaction.guild_id is None:
                raise errors.NotInServerError("Challenges")
            check_channel(interaction, "challenge")
            named = [m for m in (opponent, opponent2, opponent3, opponent4, opponent5, opponent6, opponent7) if m]
            if any(member.bot for member in named):
                raise OpponentsError(_("Bots do not play solitaire: name members of this server."))
            snapshot = await self.bot.challenges.open(
                guild_id=interaction.guild_id,
                channel_id=interaction.channel_id or 0,
                challenger_id=interaction.user.id,
                variant=variant,
                opponents=[member.id for member in named],
                hours=hours,
                show_scores=open,
                on_solve=lambda: interaction.response.defer(thinking=True),  # a solve may outlast Discord's 3 s
            )
            await self._show_new_challenge(interaction, snapshot)

    async def _show_new_challenge(self, interaction: discord.Interaction, snapshot: ChallengeSnapshot) -> None:
        """Post the new challenge's message and store its id; if either fails, cancel the challenge and say so."""
        challenge_id = snapshot.challenge.id
        async with speaking_publicly(self.bot, interaction.guild_id):  # the challenge is the channel's
            shown = challenge_message(snapshot)
        try:
            message = await _post(interaction, shown)
        except DISCORD_FAILURES as error:  # e.g. the interaction expired: nobody sees the challenge
            log.warning("challenge %s: its message could not be posted, so it is cancelled: %s", challenge_id, error)
            await self._cancel_new_challenge(interaction, snapshot, None, NOT_POSTED)
            return
        try:
            await self.bot.challenges.set_message(challenge_id, message.id)
        except sqlite3.OperationalError as error:
            log.warning("challenge %s: its message id not stored, so it is cancelled: %s", challenge_id, error)
            await self._cancel_new_challenge(interaction, snapshot, message, NOT_SAVED)

    async def _cancel_new_challenge(
        self, interaction: discord.Interaction, snapshot: ChallengeSnapshot, message: discord.Message | None, why: str
    ) -> None:
        """Cancel a challenge nobody can play, show it cancelled where its message may be, and tell its creator."""
        await self.bot.challenges.cancel(snapshot.challenge.id)
        async with speaking_publicly(self.bot, interaction.guild_id):
            cancelled = cancelled_message(snapshot)
        try:
            if message is not None:
                await message.edit(**cancelled)
            else:  # it may have been posted after all (a timeout), or never (the interaction expired)
                await interaction.edit_original_response(**cancelled)
        except DISCORD_FAILURES as error:
            log.info("challenge %s: no message to mark cancelled: %s", snapshot.challenge.id, error)
        with contextlib.suppress(*DISCORD_FAILURES):  # the interaction may be gone too
            await answer_privately(interaction, _(why))

    # -- buttons ---------------------------------------------------------------------------
    async def handle_challenge_click(self, interaction: discord.Interaction, click: ChallengeClick | None) -> None:
        """Answer a challenge button: accept, decline, or play one's attempt privately."""
        try:
            async with refusals(interaction):
                await self._challenge_click(interaction, click)
        except Exception:
            log.exception("challenge click %s failed", click)
            await answer_privately(interaction, _(UNEXPECTED))

    async def _challenge_click(self, interaction: discord.Interaction, click: ChallengeClick | None) -> None:
        if click is None:
            raise errors.BadChallengeClickError()
        service, user = self.bot.challenges, interaction.user.id
        stored = Owner(message_id=await service.message_of(click.challenge_id))
        click.check(origin_of(interaction, click.custom_id), stored)  # not a challenge id pasted elsewhere
        if click.action == "play":
            async with self.sessions.reserve_start(interaction.guild_id or 0, user):
                session = await service.play(click.challenge_id, user)
            await self.send_board(interaction, session, ephemeral=True)
            return
        reply: Literal["accepted", "declined"] = "accepted" if click.action == "accept" else "declined"
        snapshot = await service.answer(click.challenge_id, user, reply)
        async with speaking_publicly(self.bot, snapshot.challenge.guild_id):
            shown = challenge_message(snapshot)
        try:
            await interaction.response.edit_message(**shown)  # the click first
        finally:
            await service.close_if_over(click.challenge_id)  # then the close, and its results post

    async def publish_challenge(self, snapshot: ChallengeSnapshot) -> None:
        """Show a snapshot on the public challenge message (failures are logged)."""
        challenge = snapshot.challenge
        if challenge.message_id is None:
            return
        channel = self.bot.get_partial_messageable(challenge.channel_id)
        async with speaking_publicly(self.bot, challenge.guild_id):
            shown = challenge_message(snapshot)
        try:
            await channel.get_partial_message(challenge.message_id).edit(**shown)
        except discord.HTTPException as error:
            log.warning("could not update challenge %s: %s", challenge.id, error)

    async def post_challenge_results(self, announcement: Announcement) -> Delivery:
        """Show a closed challenge's results on its message (a new message if that one is gone)."""
        snapshot = announcement.payload
        if not isinstance(snapshot, ChallengeSnapshot):
            return Delivery.FAILED
        challenge = snapshot.challenge
        async with speaking_publicly(self.bot, challenge.guild_id):
            shown = challenge_message(snapshot)
        return await show_results(
            self.bot, challenge.channel_id, challenge.message_id, shown, what=f"challenge {challenge.id}"
        )


DISCORD_FAILURES = (discord.HTTPException, TimeoutError, aiohttp.ClientError)
"""What a call to Discord raises when it fails (refused, expired, timed out, connection lost)."""
NOT_POSTED = N_("Discord did not take your challenge's message, so it is cancelled: try `/solitaire challenge` again.")
NOT_SAVED = N_(
    "Your challenge could not be saved (the bot's database is busy), so it is cancelled and its message says so. "
    "Nothing was played: try `/solitaire challenge` again in a moment."
)


async def _post(interaction: discord.Interaction, shown: dict[str, Any]) -> discord.Message:
    """Answer the command with the public message (filling the deferred answer, if deferred); return it."""
    if interaction.response.is_done():
        return await interaction.edit_original_response(**shown)
    callback = await interaction.response.send_message(**shown)
    message = callback.resource if isinstance(callback.resource, discord.Message) else None
    return message if message is not None else await interaction.original_response()


# -- the challenge message --------------------------------------------------------------------
def challenge_message(snapshot: ChallengeSnapshot) -> dict[str, Any]:
    """Keyword arguments for the challenge message as the snapshot stands (embed and buttons)."""
    embed = results_embed(snapshot) if snapshot.closed else open_embed(snapshot)
    view = _view(snapshot.challenge.id) if snapshot.taking_attempts else None
    return {"content": None, "embed": embed, "view": view, "allowed_mentions": discord.AllowedMentions.none()}


def open_embed(snapshot: ChallengeSnapshot) -> discord.Embed:
    """An open challenge: who is in, who has played (scores only if the challenger chose so), when it closes."""
    challenge = snapshot.challenge
    others = ", ".join(f"<@{line.user_id}>" for line in snapshot.lines if line.user_id != challenge.challenger_id)
    deadline = int(challenge.deadline)
    if snapshot.taking_attempts:
        closes = _(
            "Closes <t:{deadline}:R> (<t:{deadline}:f>), or once everyone named has answered and played.",
            deadline=deadline,
        )
    else:
        closes = _("No more attempts: it closes once the attempts still running end.")
    if challenge.show_scores:
        scores = _("Scores show as they come, so it is not rated.")
    else:
        scores = _("Scores stay hidden until it closes.")
    lines = [
        _(
            "<@{challenger}> challenges {others}: one try each at the same deal, five minutes from the moment you "
            "open your board (**Play**).",
            challenger=challenge.challenger_id,
            others=others,
        ),
        f"{closes} {scores}",
        "",
    ]
    lines += [_line(line, challenger=challenge.challenger_id) for line in snapshot.lines]
    return discord.Embed(
        title=_("⚔️ Challenge · {variant}", variant=variant_title(challenge.variant)),
        description="\n".join(lines),
        colour=_COLOUR,
    )


def _line(line: Line, *, challenger: int) -> str:
    # Translators: the member who made a challenge, in its list of members.
    who = _("<@{member}> (challenger)", member=line.user_id) if line.user_id == challenger else f"<@{line.user_id}>"
    if line.state == "played" and line.score is not None:
        return _(
            "{member} · **{score}** pts · {time} · {ending}",
            member=who,
            score=number(line.score),
            time=format_time(line.seconds_used),
            ending=_ending(line.status),
        )
    state = _("not played yet") if line.state == "challenger" else _(_STATES[line.state])
    return f"{who} · {state}"


def _ending(status: str | None) -> str:
    """How a challenger's game ended, said in the spoken language (an unknown status as it is)."""
    ending = _ENDINGS.get(status or "")
    return _(ending) if ending is not None else status or ""


def results_embed(snapshot: ChallengeSnapshot) -> discord.Embed:
    """A closed challenge: places, scores, rating changes, who did not play, and the deal for practice."""
    challenge = snapshot.challenge
    placed = sorted((line for line in snapshot.lines if line.place is not None), key=lambda line: line.place or 0)
    lines = [_result_line(line) for line in placed] or [_("Nobody played.")]
    absent = [f"<@{line.user_id}>" for line in snapshot.lines if line.place is None and line.state != "declined"]
    declined = [f"<@{line.user_id}>" for line in snapshot.lines if line.state == "declined"]
    if absent:
        lines.append(_("Did not play: {members}", members=", ".join(absent)))
    if declined:
        lines.append(_("Declined: {members}", members=", ".join(declined)))
    if challenge.unrated_reason is not None and placed:
        lines += ["", _("Not rated: {reason}.", reason=challenge.unrated_reason)]
    lines += [
        "",
        _(
            "Replay this deal for practice: `/solitaire start variant:{variant} seed:{seed}`",
            variant=challenge.variant,
            seed=challenge.deal_seed,
        ),
    ]
    embed = discord.Embed(
        title=_("🏆 Challenge results · {variant}", variant=variant_title(challenge.variant)),
        description="\n".join(lines),
        colour=_COLOUR,
    )
    embed.set_footer(
        text=_(
            "ranked as the dailies: points, then time used; equal results share a place · "
            "? = provisional (under {races} races)",
            races=PROVISIONAL_RACES,
        )
    )
    return embed


def cancelled_message(snapshot: ChallengeSnapshot) -> dict[str, Any]:
    """Keyword arguments for the message of a challenge cancelled before anyone could play it."""
    challenge = snapshot.challenge
    embed = discord.Embed(
        title=_("⚔️ Challenge cancelled · {variant}", variant=variant_title(challenge.variant)),
        description=_(
            "<@{challenger}>'s challenge could not be set up, so it is cancelled: nobody played it. "
            "Start a new one with `/solitaire challenge`.",
            challenger=challenge.challenger_id,
        ),
        colour=discord.Colour.light_grey(),
    )
    return {"content": None, "embed": embed, "view": None, "allowed_mentions": discord.AllowedMentions.none()}


def _result_line(line: Line) -> str:
    fields = {
        "place": _MEDALS.get(line.place or 0, f"`{line.place}.`"),
        "member": line.user_id,
        "score": number(line.score or 0),
        "time": format_time(line.seconds_used),
        "ending": _ending(line.status),
    }
    if line.rating_after is None or line.rating_before is None:
        return _("{place} <@{member}> · **{score}** pts · {time} · {ending} · not rated", **fields)
    rating = rating_change_text(line.rating_before, line.rating_after, provisional=line.provisional)
    # Translators: {rating} is the rating after the challenge and its change: "1156? (+124)".
    return _("{place} <@{member}> · **{score}** pts · {time} · {ending} · {rating}", rating=rating, **fields)


_LABELS: dict[ChallengeAction, tuple[str, discord.ButtonStyle]] = {
    # Translators: a challenge's button: open your board and play your attempt.
    "play": (N_("Play"), discord.ButtonStyle.primary),
    # Translators: a challenge's button.
    "accept": (N_("Accept"), discord.ButtonStyle.success),
    # Translators: a challenge's button.
    "decline": (N_("Decline"), discord.ButtonStyle.secondary),
}


def _view(challenge_id: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    for action, (label, style) in _LABELS.items():
        view.add_item(
            ChallengeButton(ChallengeClick(challenge_id, action), discord.ui.Button(label=_(label), style=style))
        )
    return view
