"""``/solitaire forget-me`` and ``/solitaire moderate remove-results``: forget a member, remove a cheater's results.

Both answer privately and act only when the caller confirms with a button; the work is
:class:`bot.compete.moderation.Moderation`'s, the rules are written in docs/admin.md.
"""

from __future__ import annotations

import logging
import math
import secrets
from collections.abc import Awaitable, Callable

import discord
from discord import app_commands

from bot.errors import fit_reply
from bot.play.clicks import ConfirmClick
from bot.storage.moderation import AlreadyDoneError, LogEntry
from bot.storage.privacy import Forgotten, StillInPlayError
from cogs.base import SolitaireCogBase
from cogs.competition_commands import NO_PINGS, manager_guild
from cogs.errors import refusals
from languages.formats import listing
from solitaire.speech import N_, _, n_, speak, speaking, spoken

log = logging.getLogger(__name__)

CONFIRM_SECONDS = 120.0
"""How long the confirmation buttons wait for a click."""
NOTHING_CHANGED = N_("Nothing was changed.")
NOT_ANSWERED = N_("Nothing was changed: no answer within 2 minutes.")
EXPIRED = N_("That question has expired (I was restarted since): nothing was changed. Run the command again.")
ALREADY_DONE = N_("Already done: this question was answered by your first click. Nothing was done twice.")
LOG_LINES = 10
NO_LOG = N_("Nothing was moderated in this server yet.")
NOT_MODERATOR = N_("Only members with the **Manage Server** permission can moderate this server's results.")
FORGET_ME_ASK = N_(
    "This deletes everything I keep about you, in every server: your games, results, stats, streaks, ratings, "
    "settings and reminders. Your places in finished races and challenges stay, without your name, so others' "
    "places do not change. This cannot be undone."
)
REASON_LENGTH = 300


Action = Callable[[str], Awaitable[str]]
"""What a confirmation does, given its nonce (the service acts once per nonce); its answer replaces the ask."""


class Confirmation(discord.ui.View):
    """Private Confirm and Cancel buttons for one member; ``action`` runs on Confirm and its answer replaces the ask.

    Its buttons' ids name a nonce kept in ``asked_here`` (the cog's, for this run); a click on the buttons of
    a question asked before a restart is answered by :meth:`ModerationCommands.handle_confirm_click` instead.
    The question is answered once: the first click takes it before anything is awaited, and the view stays
    until its timeout to tell a second click (a double click, the client not redrawn yet) it was done.
    Its buttons and answers speak the language the question was asked in (the asking member's).
    """

    def __init__(self, asked: discord.Interaction, label: str, action: Action, asked_here: set[str]) -> None:
        super().__init__(timeout=CONFIRM_SECONDS)
        self.asked = asked
        self.owner_id = asked.user.id
        self.action = action
        self.answered = False
        self.catalogue = spoken()
        nonce = secrets.token_hex(8)
        self.nonce = nonce
        asked_here.add(nonce)
        confirm: discord.ui.Button[Confirmation] = discord.ui.Button(
            label=label, style=discord.ButtonStyle.danger, custom_id=ConfirmClick(nonce, "yes").custom_id
        )
        cancel: discord.ui.Button[Confirmation] = discord.ui.Button(
            label=_("Cancel"), style=discord.ButtonStyle.secondary, custom_id=ConfirmClick(nonce, "no").custom_id
        )
        confirm.callback = self._confirm  # type: ignore[method-assign]
        cancel.callback = self._cancel  # type: ignore[method-assign]
        self.add_item(confirm)
        self.add_item(cancel)

    async def interaction_check(self, interaction: discord.Interaction, /) -> bool:
        """Only the member who asked may answer; the answer is said in the question's language."""
        speak(self.catalogue)
        return interaction.user.id == self.owner_id

    async def on_timeout(self) -> None:
        """Take the buttons away once nobody answered: nothing changes."""
        if self.answered:
            return
        try:
            with speaking(self.catalogue):
                text = _(NOT_ANSWERED)
            await self.asked.edit_original_response(content=text, view=None)
        except discord.HTTPException as error:
            log.warning("could not close a confirmation: %s", error)

    def _take(self) -> bool:
        """Take the question for this click (no await before it); ``False`` when an earlier click took it."""
        first, self.answered = not self.answered, True
        return first

    async def _confirm(self, interaction: discord.Interaction) -> None:
        """Run the action once and show its answer in place of the buttons; tell a second click it was done."""
        if not self._take():
            await already_done(interaction)
            return
        try:
            text = await self.action(self.nonce)
        except AlreadyDoneError:  # another process (or a click this one never saw) used it
            await already_done(interaction)
            return
        await interaction.response.edit_message(content=fit_reply(text), view=None, allowed_mentions=NO_PINGS)

    async def _cancel(self, interaction: discord.Interaction) -> None:
        """Change nothing (unless an earlier click answered the question: then say so)."""
        if not self._take():
            await already_done(interaction)
            return
        await interaction.response.edit_message(content=_(NOTHING_CHANGED), view=None)


async def already_done(interaction: discord.Interaction) -> None:
    """Tell a second click of a confirmation, privately, that the question was answered already."""
    await interaction.response.send_message(_(ALREADY_DONE), ephemeral=True)


def not_now(busy: StillInPlayError) -> str:
    """The refusal while the member still plays, with when it should be over if that is known.

    >>> not_now(StillInPlayError(["a game in progress"]))
    'Not now: you still have a game in progress. Ask again once it is over: nothing was deleted.'
    >>> not_now(StillInPlayError(["an open challenge"], 1767225900.5))
    'Not now: you still have an open challenge. Ask again once it is over (<t:1767225901:R>): nothing was deleted.'
    """
    # Translators: {what} lists what is not over: "a game in progress", "an open challenge", ...
    what = listing([_(thing) for thing in busy.what])
    if busy.until is None:
        return _("Not now: you still have {what}. Ask again once it is over: nothing was deleted.", what=what)
    return _(
        "Not now: you still have {what}. Ask again once it is over (<t:{until}:R>): nothing was deleted.",
        what=what,
        until=math.ceil(busy.until),
    )


def forgotten_text(done: Forgotten) -> str:
    """The answer once a member is forgotten."""
    # Translators: the English writes "game(s)" whatever the count; write your language's forms.
    text = n_(
        "Done: I deleted your {count} game(s) and everything else I kept about you.",
        "Done: I deleted your {count} game(s) and everything else I kept about you.",
        done.games,
    )
    if not done.entries:
        return text
    # Translators: the English writes "place(s)" whatever the count; write your language's forms.
    kept = n_(
        "{count} race or challenge place(s) stay, without your name.",
        "{count} race or challenge place(s) stay, without your name.",
        done.entries,
    )
    return f"{text} {kept}"


def log_line(entry: LogEntry) -> str:
    """One moderation action as the log command shows it (a forgotten member shows as such).

    >>> log_line(LogEntry(1, 7, None, "remove-results", "used a solver", 3, 0.0))
    '<t:0:d> a forgotten member removed 3 result(s) of <@7>: used a solver'
    """
    fields = {
        "when": int(entry.created_at),
        "moderator": entry.moderator_id,
        "member": entry.user_id,
        "reason": entry.reason,
    }
    if entry.moderator_id is not None and entry.user_id is not None:
        # Translators: a line of the moderation log; the English writes "result(s)" whatever the count.
        return n_(
            "<t:{when}:d> <@{moderator}> removed {count} result(s) of <@{member}>: {reason}",
            "<t:{when}:d> <@{moderator}> removed {count} result(s) of <@{member}>: {reason}",
            entry.results,
            **fields,
        )
    if entry.user_id is not None:
        # Translators: a line of the moderation log; the moderator has since asked to be forgotten.
        return n_(
            "<t:{when}:d> a forgotten member removed {count} result(s) of <@{member}>: {reason}",
            "<t:{when}:d> a forgotten member removed {count} result(s) of <@{member}>: {reason}",
            entry.results,
            **fields,
        )
    if entry.moderator_id is not None:
        # Translators: a line of the moderation log; the member whose results were removed has since been forgotten.
        return n_(
            "<t:{when}:d> <@{moderator}> removed {count} result(s) of a forgotten member: {reason}",
            "<t:{when}:d> <@{moderator}> removed {count} result(s) of a forgotten member: {reason}",
            entry.results,
            **fields,
        )
    return n_(
        "<t:{when}:d> a forgotten member removed {count} result(s) of a forgotten member: {reason}",
        "<t:{when}:d> a forgotten member removed {count} result(s) of a forgotten member: {reason}",
        entry.results,
        **fields,
    )


class ModerationCommands(SolitaireCogBase):
    """``forget-me`` and the ``moderate`` group of ``/solitaire`` (a mixin of :class:`cogs.solitaire.Solitaire`)."""

    asked_here: set[str]
    """The nonces of the confirmations this run asked (a few a day, kept for the run)."""

    async def load_moderation_commands(self) -> None:
        """Start this run's record of the questions asked."""
        self.asked_here = set()

    async def unload_moderation_commands(self) -> None:
        """Nothing to undo: the confirmation buttons are the cog's (:mod:`cogs.buttons`)."""

    async def handle_confirm_click(self, interaction: discord.Interaction, click: ConfirmClick | None) -> None:
        """Answer a question of an earlier run privately; a question of this run is its live view's to answer."""
        if click is None or click.nonce in self.asked_here:
            return
        await interaction.response.edit_message(content=_(EXPIRED), view=None)

    moderate = app_commands.Group(
        name="moderate",
        description="Moderate this server's results (Manage Server permission)",
        default_permissions=discord.Permissions(manage_guild=True),  # a hint only: Discord ignores it on subgroups
    )

    @app_commands.command(name="forget-me", description="Delete everything the bot keeps about you (asks first)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        """Ask the member to confirm, then forget them in every server."""
        user_id = interaction.user.id

        async def forget(confirmation: str) -> str:
            try:
                done = await self.bot.moderation.forget_member(user_id)
            except StillInPlayError as busy:
                return not_now(busy)
            log.info("forgot member %s at their request: %s", user_id, done)
            return forgotten_text(done)

        view = Confirmation(interaction, _("Forget me"), forget, self.asked_here)
        await interaction.response.send_message(_(FORGET_ME_ASK), view=view, ephemeral=True)

    @moderate.command(name="remove-results", description="Take a member's results off this server's leaderboards")
    @app_commands.describe(member="Whose results to remove", reason="Why (kept in the moderation log)")
    async def remove_results(
        self,
        interaction: discord.Interaction,
        member: discord.User,
        reason: app_commands.Range[str, 1, REASON_LENGTH],
    ) -> None:
        """Ask the admin to confirm, then remove the member's results from the server's boards and log why."""
        async with refusals(interaction):
            guild_id = await manager_guild(interaction, NOT_MODERATOR)
            if guild_id is None:
                return
            moderator_id = interaction.user.id

            async def remove(confirmation: str) -> str:
                removed = await self.bot.moderation.remove_results(
                    guild_id, member.id, moderator_id=moderator_id, reason=reason, confirmation=confirmation
                )
                log.info(
                    "server %s: moderator %s removed %s results of member %s: %s",
                    guild_id,
                    moderator_id,
                    removed,
                    member.id,
                    reason,
                )
                # Translators: the English writes "result(s)" whatever the count; write your language's forms.
                return n_(
                    "Removed {count} result(s) of {member} from this server's leaderboards; their race ratings here "
                    "start again. Logged with your reason.",
                    "Removed {count} result(s) of {member} from this server's leaderboards; their race ratings here "
                    "start again. Logged with your reason.",
                    removed,
                    member=member.mention,
                )

            ask = _(
                "Remove every result of {member} from this server's leaderboards, and their race ratings here? "
                "Their games stay stored; their places in races and challenges stay. Reason: {reason}",
                member=member.mention,
                reason=reason,
            )
            view = Confirmation(interaction, _("Remove results"), remove, self.asked_here)
            await interaction.response.send_message(
                fit_reply(ask), view=view, ephemeral=True, allowed_mentions=NO_PINGS
            )

    @moderate.command(name="log", description="The last moderation actions in this server, with their reasons")
    async def moderation_log(self, interaction: discord.Interaction) -> None:
        """Show the server's latest moderation actions privately."""
        async with refusals(interaction):
            guild_id = await manager_guild(interaction, NOT_MODERATOR)
            if guild_id is None:
                return
            entries = await self.bot.moderation.log(guild_id, limit=LOG_LINES)
            text = "\n".join(log_line(entry) for entry in entries) or _(NO_LOG)
            await interaction.response.send_message(fit_reply(text), ephemeral=True, allowed_mentions=NO_PINGS)
