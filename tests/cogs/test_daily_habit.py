"""The daily habit on (simulated) Discord: the champion role, streak reminders, milestones and the stats card."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta

import discord
import pytest
from PIL import Image
from simcord.actors import MemberActor
from simcord.backend.models import Overwrite
from simcord.enums import OverwriteType

import bot.outbox.announcements
import cogs.competition_commands
import cogs.habit
from bot.storage import champions as champions_db
from bot.storage import competition as competition_db
from bot.storage import players as players_db
from tests.support.competition import advance_to, daily, end, instant_daily_solver, public

__all__ = ["instant_daily_solver"]  # the command tests' instant daily solver, used here too

pytestmark = pytest.mark.usefixtures("no_error_logs")

DAY_2 = datetime(2026, 1, 2, tzinfo=UTC)
DAY_3 = datetime(2026, 1, 3, tzinfo=UTC)


def holders(env, guild, role) -> set[int]:
    """The members who have ``role`` now (Discord's own record, not the bot's)."""
    server = env.backend.get_guild(guild.id)
    return {user_id for user_id, member in server.members.items() if role.id in member.role_ids}


def role_calls(env, role) -> list[tuple[str, int]]:
    """The bot's requests that gave or took back ``role``: ``(method, member id)``, in order."""
    return [
        (entry.method, int(entry.path.split("/")[4]))
        for entry in env.http_requests
        if entry.path.endswith(f"/roles/{role.id}") and "/members/" in entry.path
    ]


async def play(actor, channel, variant: str = "draw3", *, score: bool = False) -> None:
    """Play today's daily: score some points (all up on the easy deal) or none, then end it."""
    board = await daily(actor, channel, variant)
    if score:
        await actor.click(board, label="All up")
    await end(actor, channel)


# -- the champion role -----------------------------------------------------------------------------
async def test_the_champion_role_goes_to_each_winner_and_back_across_a_day_and_a_restart(
    simcord_env, guild, channel, admin, alice, bob, members, make_bot
):
    carol, dave = members["carol"], members["dave"]
    champion = guild.create_role("Champion")
    simcord_env.backend.add_member_role(guild.id, dave.id, champion.id)  # an admin's doing: never the bot's to take
    done = await admin.slash(channel, "solitaire config champion_role", role=champion)
    assert done.response.ephemeral and f"gets <@&{champion.id}> when the day's podium is due" in done.response.content
    await play(alice, channel, score=True)
    await play(carol, channel)
    await play(bob, channel, "draw1")  # the only draw 1 player: that variant's winner
    await advance_to(simcord_env, DAY_2 - timedelta(seconds=1))
    assert holders(simcord_env, guild, champion) == {dave.id}  # nothing before the day ends

    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {alice.id, bob.id, dave.id}
    await simcord_env.restart_bot(make_bot())
    await play(carol, channel, score=True)  # 2 January: carol wins the draw 3 daily, nobody plays draw 1
    await advance_to(simcord_env, DAY_3 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {carol.id, dave.id}
    await simcord_env.restart_bot(make_bot())
    await advance_to(simcord_env, DAY_3 + timedelta(hours=12))  # restarts and rounds change nothing more
    assert sorted(role_calls(simcord_env, champion)) == sorted(
        [("PUT", alice.id), ("PUT", bob.id), ("DELETE", alice.id), ("DELETE", bob.id), ("PUT", carol.id)]
    )

    off = await admin.slash(channel, "solitaire config champion_role")
    assert off.response.ephemeral and "No champion role any more" in off.response.content
    await simcord_env.advance_time(1)
    assert holders(simcord_env, guild, champion) == {dave.id}  # taken back from carol only
    assert await champions_db.holders(simcord_env.bot.db, guild.id) == []


async def test_the_day_after_a_day_nobody_played_the_champions_keep_the_role(simcord_env, guild, channel, admin, alice):
    champion = guild.create_role("Champion")
    await admin.slash(channel, "solitaire config champion_role", role=champion)
    await play(alice, channel)
    await advance_to(simcord_env, DAY_3 + timedelta(hours=1))  # 2 January had no daily: no podium that day
    assert holders(simcord_env, guild, champion) == {alice.id}
    assert role_calls(simcord_env, champion) == [("PUT", alice.id)]


async def test_a_member_who_had_the_role_already_keeps_it_when_they_stop_winning(
    simcord_env, guild, channel, admin, alice, bob
):
    champion = guild.create_role("Champion")
    simcord_env.backend.add_member_role(guild.id, alice.id, champion.id)
    await admin.slash(channel, "solitaire config champion_role", role=champion)
    await play(alice, channel)
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    await play(bob, channel)
    await advance_to(simcord_env, DAY_3 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {alice.id, bob.id}  # alice's role was not the bot's to take
    assert ("PUT", alice.id) not in role_calls(simcord_env, champion)


async def test_a_role_the_bot_cannot_give_is_refused_naming_what_is_missing(simcord_env, guild, channel, admin):
    above = guild.create_role("Legend", position=50)  # above the bot's own role
    refused = await admin.slash(channel, "solitaire config champion_role", role=above)
    assert refused.response.ephemeral
    assert f"<@&{above.id}> is not below my highest role" in refused.response.content
    assert "Manage Roles" not in refused.response.content  # the bot has it: only the order is wrong

    server = simcord_env.backend.get_guild(guild.id)
    bot_role = next(role for role in server.roles.values() if role.managed)
    allowed = discord.Permissions(bot_role.permissions)
    allowed.manage_roles = False
    simcord_env.backend.edit_role(guild.id, bot_role.id, {"permissions": allowed.value})
    below = guild.create_role("Champion")
    await simcord_env.settle()
    missing = await admin.slash(channel, "solitaire config champion_role", role=below)
    assert "I lack the **Manage Roles** permission" in missing.response.content
    everyone = await admin.slash(channel, "solitaire config champion_role", role=guild.default_role)
    assert f"<@&{guild.id}> is everyone's role" in everyone.response.content
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).champion_role_id is None


async def test_config_champion_role_is_for_managers_only(simcord_env, guild, channel, bob):
    refused = await bob.slash(channel, "solitaire config champion_role", role=guild.create_role("Champion"))
    assert refused.response.ephemeral and refused.response.content == cogs.competition_commands.NOT_MANAGER


async def test_a_refused_change_is_reported_at_the_next_config_and_tried_again(
    simcord_env, guild, channel, admin, alice
):
    champion = guild.create_role("Champion")
    await admin.slash(channel, "solitaire config champion_role", role=champion)
    await play(alice, channel)
    simcord_env.inject_error(
        "PUT",
        f"/guilds/{guild.id}/members/*/roles/{champion.id}",
        status=403,
        code=50013,
        message="Missing Permissions",
    )
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == set()
    shown = await admin.slash(channel, "solitaire config timezone", timezone="UTC")
    assert shown.response.ephemeral
    assert f"could not give or take back the champion role <@&{champion.id}>" in shown.response.content
    assert "Manage Roles" in shown.response.content
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(0) + 1)  # the fault was once: the retry works
    assert holders(simcord_env, guild, champion) == {alice.id}
    again = await admin.slash(channel, "solitaire config timezone", timezone="UTC")
    assert "champion role" not in again.response.content


@pytest.mark.parametrize(
    ("grants", "named"),
    [
        (discord.Permissions(administrator=True), "**Administrator**"),
        (discord.Permissions(manage_guild=True), "**Manage Server**"),
        (discord.Permissions(manage_roles=True, kick_members=True), "**Kick Members**, **Manage Roles**"),
        (discord.Permissions(mention_everyone=True), "**Mention Everyone**"),
        (discord.Permissions(manage_messages=True), "**Manage Messages**"),
    ],
)
async def test_a_role_that_grants_a_permission_is_refused_as_the_champion_role(
    simcord_env, guild, channel, admin, grants, named
):
    mods = guild.create_role("Mods", permissions=grants)  # below the admin's own role and the bot's
    refused = await admin.slash(channel, "solitaire config champion_role", role=mods)
    assert refused.response.ephemeral
    assert f"I can't make <@&{mods.id}> the champion role: <@&{mods.id}> grants {named} beyond" in (
        refused.response.content
    )
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).champion_role_id is None


async def test_a_channel_setting_that_grants_a_permission_counts_too(simcord_env, guild, channel, admin):
    helpers = guild.create_role("Helpers")
    help_desk = guild.create_text_channel(
        "help-desk", overwrites={helpers: discord.PermissionOverwrite(manage_messages=True)}
    )
    await simcord_env.settle()
    refused = await admin.slash(channel, "solitaire config champion_role", role=helpers)
    expected = f"allows **Manage Messages** in <#{help_desk.id}> beyond what @everyone has there"
    assert expected in refused.response.content


def set_overwrite(env, channel, target, overwrite: discord.PermissionOverwrite) -> None:
    """Change a channel's permission setting for a role, as an admin would in Discord (the bot sees the update)."""
    allow, deny = overwrite.pair()
    env.backend.set_overwrite(channel.id, Overwrite(target.id, OverwriteType.ROLE, allow.value, deny.value))


HIDE = discord.PermissionOverwrite(view_channel=False)
LET_IN = discord.PermissionOverwrite(view_channel=True, send_messages=True)


@pytest.mark.parametrize("kind", ["text channel", "category"])
async def test_a_role_that_opens_a_private_channel_is_refused_as_the_champion_role(
    simcord_env, guild, channel, admin, kind
):
    insiders = guild.create_role("Insiders")  # no permission of its own
    if kind == "text channel":
        staff = guild.create_text_channel("staff", overwrites={guild.default_role: HIDE, insiders: LET_IN})
    else:
        staff = guild.create_category("Staff")
        set_overwrite(simcord_env, staff, guild.default_role, HIDE)
        set_overwrite(simcord_env, staff, insiders, LET_IN)
    await simcord_env.settle()
    refused = await admin.slash(channel, "solitaire config champion_role", role=insiders)
    assert refused.response.ephemeral
    assert (
        f"I can't make <@&{insiders.id}> the champion role: <@&{insiders.id}> allows **View Channel** in "
        f"<#{staff.id}> beyond what @everyone has there"
    ) in refused.response.content
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).champion_role_id is None


@pytest.mark.both_backends  # its statements run on PostgreSQL nowhere else
async def test_a_channel_made_private_after_the_role_was_set_stops_the_grant_and_the_admins_are_told_once(
    simcord_env, guild, channel, admin, alice, bob
):
    champion = guild.create_role("Champion")
    lounge = guild.create_text_channel("lounge", overwrites={champion: LET_IN})  # open to all: harmless
    await simcord_env.settle()
    done = await admin.slash(channel, "solitaire config champion_role", role=champion)
    assert f"gets <@&{champion.id}> when the day's podium is due" in done.response.content
    await play(alice, channel, score=True)
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {alice.id}

    set_overwrite(simcord_env, lounge, guild.default_role, HIDE)  # the lounge made private: champions only
    await simcord_env.settle()
    assert holders(simcord_env, guild, champion) == set()  # taken back at once from the champion inside
    await play(bob, channel, score=True)
    await advance_to(simcord_env, DAY_3 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == set()  # given to nobody
    assert ("PUT", bob.id) not in role_calls(simcord_env, champion)

    [note] = champion_notes(await admin.slash(channel, "solitaire stats"))
    assert f"the champion role <@&{champion.id}>" in note
    assert f"allows **View Channel** in <#{lounge.id}> beyond what @everyone has there" in note
    assert champion_notes(await admin.slash(channel, "solitaire stats")) == []  # once
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(1) + 1)  # tried again: still refused
    assert holders(simcord_env, guild, champion) == set()
    assert champion_notes(await admin.slash(channel, "solitaire stats")) == []

    set_overwrite(simcord_env, lounge, guild.default_role, discord.PermissionOverwrite())  # open again
    await simcord_env.settle()
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(2) + 1)
    assert holders(simcord_env, guild, champion) == {bob.id}
    shown = await admin.slash(channel, "solitaire config timezone", timezone="UTC")
    assert "champion role" not in shown.response.content


async def test_a_role_at_or_above_the_setters_highest_role_is_refused_unless_they_own_the_server(
    simcord_env, guild, channel, admin
):
    server = simcord_env.backend.get_guild(guild.id)
    bot_role = next(role for role in server.roles.values() if role.managed)
    admins = next(role for role in server.roles.values() if role.name == "Admins")
    legend = guild.create_role("Legend")
    simcord_env.backend.reorder_roles(
        guild.id,
        [{"id": bot_role.id, "position": 10}, {"id": legend.id, "position": 5}, {"id": admins.id, "position": 4}],
    )
    await simcord_env.settle()
    refused = await admin.slash(channel, "solitaire config champion_role", role=legend)
    assert f"<@&{legend.id}> is not below your highest role" in refused.response.content
    assert "below my highest role" not in refused.response.content  # the bot could give it
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).champion_role_id is None

    owner = MemberActor(simcord_env, guild, guild.owner)
    done = await owner.slash(channel, "solitaire config champion_role", role=legend)
    assert f"gets <@&{legend.id}> when the day's podium is due" in done.response.content
    assert (await competition_db.guild_config(simcord_env.bot.db, guild.id)).champion_role_id == legend.id


def champion_notes(result) -> list[str]:
    return [followup.content for followup in result.followups if "champion role" in followup.content]


async def test_a_role_given_a_permission_after_it_was_set_is_given_to_nobody_and_the_admins_told_once(
    simcord_env, guild, channel, admin, alice
):
    champion = guild.create_role("Champion")
    await admin.slash(channel, "solitaire config champion_role", role=champion)
    await play(alice, channel)
    simcord_env.backend.edit_role(guild.id, champion.id, {"permissions": discord.Permissions(administrator=True).value})
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == set() and role_calls(simcord_env, champion) == []

    [note] = champion_notes(await admin.slash(channel, "solitaire stats"))
    assert f"the champion role <@&{champion.id}>" in note and "grants **Administrator** beyond" in note
    assert champion_notes(await admin.slash(channel, "solitaire stats")) == []  # once
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(0) + 1)  # tried again: still refused
    assert holders(simcord_env, guild, champion) == set()
    assert champion_notes(await admin.slash(channel, "solitaire stats")) == []  # the same problem: not again

    simcord_env.backend.edit_role(guild.id, champion.id, {"permissions": 0})
    await simcord_env.advance_time(bot.outbox.announcements.retry_delay(1) + 1)
    assert holders(simcord_env, guild, champion) == {alice.id}
    assert (
        "champion role"
        not in (await admin.slash(channel, "solitaire config timezone", timezone="UTC")).response.content
    )


async def test_a_champion_who_lost_the_role_meanwhile_gets_it_back_when_winning_again(
    simcord_env, guild, channel, admin, alice, bob
):
    champion = guild.create_role("Champion")
    await admin.slash(channel, "solitaire config champion_role", role=champion)
    await play(alice, channel, score=True)
    await play(bob, channel, "draw1")
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {alice.id, bob.id}
    simcord_env.backend.remove_member_role(guild.id, alice.id, champion.id)  # taken off by hand
    guild.remove_member(bob)  # bob leaves, and comes back without his roles
    bob = guild.add_member(bob.user)
    await simcord_env.settle()
    await play(alice, channel, score=True)
    await play(bob, channel, "draw1")
    await advance_to(simcord_env, DAY_3 + timedelta(seconds=5))
    assert holders(simcord_env, guild, champion) == {alice.id, bob.id}


# -- streak reminders ------------------------------------------------------------------------------
def dms(user) -> list[str]:
    return [message.content for message in user.user.dm_channel.history()]


async def streak_of_two(env, channel, *players) -> None:
    """Each player plays the dailies of 1 and 2 January; the clock ends on 3 January at 00:00:05."""
    for day in (None, DAY_2):
        if day is not None:
            await advance_to(env, day + timedelta(seconds=5))
        for player in players:
            await play(player, channel)
    await advance_to(env, DAY_3 + timedelta(seconds=5))


async def test_a_reminder_is_sent_once_four_hours_before_the_day_ends(
    simcord_env, guild, channel, alice, bob, members, make_bot
):
    carol = members["carol"]
    for player in (alice, carol):
        turned = await player.slash(channel, "solitaire settings", reminders=True)
        assert turned.response.ephemeral and "Streak reminders are now **on**" in turned.response.content
    await streak_of_two(simcord_env, channel, alice, bob, carol)  # bob never asked for reminders
    await play(carol, channel)  # carol played 3 January's daily: no reminder for her
    await advance_to(simcord_env, DAY_3 + timedelta(hours=19, minutes=59))
    assert dms(alice) == []
    await advance_to(simcord_env, DAY_3 + timedelta(hours=20, seconds=1))
    [reminder] = dms(alice)
    assert "Your 2-day daily streak in **Solitaire Club** ends" in reminder and "`/solitaire daily`" in reminder
    assert f"<t:{int((DAY_3 + timedelta(days=1)).timestamp())}:R>" in reminder
    assert dms(bob) == [] and dms(carol) == []
    await simcord_env.restart_bot(make_bot())
    await advance_to(simcord_env, DAY_3 + timedelta(hours=23))
    assert len(dms(alice)) == 1  # once, whatever the restarts


async def test_reminders_are_off_by_default_and_come_four_hours_before_the_servers_own_midnight(
    simcord_env, guild, channel, admin, alice
):
    assert "Streak reminders are **off**" in (await alice.slash(channel, "solitaire settings")).response.content
    await alice.slash(channel, "solitaire settings", reminders=True)
    await admin.slash(channel, "solitaire config timezone", timezone="America/New_York")  # from the next day
    await play(alice, channel)  # 1 January (UTC, until 00:00 UTC)
    await advance_to(simcord_env, DAY_2 + timedelta(hours=1))
    await play(alice, channel)  # 2 January: New York's, until 05:00 UTC on 3 January
    new_york_midnight = DAY_3 + timedelta(days=1, hours=5)  # 3 January ends there at 05:00 UTC on the 4th
    await advance_to(simcord_env, DAY_3 + timedelta(hours=20, minutes=1))
    assert dms(alice) == []  # 20:00 UTC is no reminder time for this server
    await advance_to(simcord_env, new_york_midnight - timedelta(hours=4, minutes=1))
    assert dms(alice) == []
    await advance_to(simcord_env, new_york_midnight - timedelta(hours=4) + timedelta(seconds=1))
    [reminder] = dms(alice)
    assert f"2-day daily streak in **Solitaire Club** ends <t:{int(new_york_midnight.timestamp())}:R>" in reminder


async def test_a_closed_dm_turns_reminders_off_and_the_member_is_told_once_at_their_next_command(
    simcord_env, guild, channel, alice
):
    await alice.slash(channel, "solitaire settings", reminders=True)
    simcord_env.inject_error(
        "POST",
        f"/channels/{alice.user.dm_channel.id}/messages",
        status=403,
        code=50007,
        message="Cannot send messages to this user",
        times=None,
    )
    await streak_of_two(simcord_env, channel, alice)
    await advance_to(simcord_env, DAY_3 + timedelta(hours=20, minutes=1))
    assert dms(alice) == []
    assert not (await players_db.player_settings(simcord_env.bot.db, alice.id)).reminders
    rows = await simcord_env.bot.db.fetchall("SELECT state FROM announcements WHERE kind = 'reminder'")
    assert [row["state"] for row in rows] == ["dropped"]  # never tried again

    stats = await alice.slash(channel, "solitaire stats")
    [note] = stats.followups
    assert note.ephemeral and note.content == cogs.habit.REMINDERS_REFUSED
    again = await alice.slash(channel, "solitaire settings")
    assert again.followups == [] and "Streak reminders are **off**" in again.response.content


@pytest.mark.parametrize("leave", ["left", "banned"])
async def test_a_member_who_left_or_was_banned_gets_no_reminder_and_it_is_not_tried_again(
    simcord_env, guild, channel, alice, leave
):
    await alice.slash(channel, "solitaire settings", reminders=True)
    await streak_of_two(simcord_env, channel, alice)
    if leave == "left":
        guild.remove_member(alice)
    else:
        simcord_env.backend.apply_ban(guild.id, alice.id, "spam")
    await advance_to(simcord_env, DAY_3 + timedelta(hours=23))
    assert alice.user.dm_channel.history() == []
    rows = await simcord_env.bot.db.fetchall("SELECT state, attempts FROM announcements WHERE kind = 'reminder'")
    assert [(row["state"], row["attempts"]) for row in rows] == [("dropped", 0)]
    assert (await players_db.player_settings(simcord_env.bot.db, alice.id)).reminders  # still on elsewhere


HOSTILE = "[Solitaire Support](https://phish.example/login)"


async def test_a_server_name_made_of_markdown_shows_as_text_in_the_reminder(simcord_env, guild, channel, alice):
    simcord_env.backend.edit_guild(guild.id, {"name": HOSTILE})
    await alice.slash(channel, "solitaire settings", reminders=True)
    await streak_of_two(simcord_env, channel, alice)
    await advance_to(simcord_env, DAY_3 + timedelta(hours=20, seconds=1))
    [reminder] = dms(alice)
    assert "streak in **\\[Solitaire Support](https://phish.example/login)** ends" in reminder
    assert "**[Solitaire Support]" not in reminder  # no masked link


async def test_a_member_name_made_of_markdown_never_shows_raw_in_results_podiums_or_stats(
    simcord_env, guild, channel, admin, alice
):
    mallory = guild.add_member(simcord_env.create_user("mallory"), nick=f"**@everyone** {HOSTILE}")
    await admin.slash(channel, "solitaire config channel", channel=channel)
    await play(mallory, channel, score=True)
    await play(alice, channel)
    await advance_to(simcord_env, DAY_2 + timedelta(seconds=5))
    posts = public(channel)
    assert any(f"<@{mallory.id}> scored" in post for post in posts)  # the result line: a mention
    assert any(f"<@{mallory.id}> — **" in post for post in posts)  # the podium: a mention
    assert not any("phish.example" in post or "@everyone" in post for post in posts)

    shown = await alice.slash(channel, "solitaire stats", member=mallory)
    title = shown.response.embeds[0].title
    assert title == "Solitaire stats: \\*\\*@\u200beveryone\\*\\* \\[Solitaire Support](https://phish.example/login)"


# -- milestones --------------------------------------------------------------------------------------
async def test_a_seven_day_streak_is_named_in_that_days_public_line_once(simcord_env, guild, channel, alice):
    for n in range(7):
        await advance_to(simcord_env, datetime(2026, 1, 1 + n, 1, 0, tzinfo=UTC))
        await play(alice, channel)
    await play(alice, channel, "draw1")  # the same day's second daily does not name it again
    lines = [line for line in public(channel) if line.startswith(f"<@{alice.id}> scored")]
    assert len(lines) == 8
    assert [line.endswith("· 🔥 7-day streak!") for line in lines] == [False] * 6 + [True, False]


# -- the stats card ----------------------------------------------------------------------------------
def picture(env, response) -> Image.Image:
    [attachment] = response.attachments
    assert attachment.filename == "stats.png"
    assert response.embeds[0].image.url == "attachment://stats.png"
    return Image.open(io.BytesIO(env.backend.cdn.get(attachment.url)))


async def test_stats_answer_with_a_card_and_its_alt_text(simcord_env, guild, channel, alice, bob):
    await play(alice, channel, score=True)
    shown = await bob.slash(channel, "solitaire stats", member=alice)
    card = picture(simcord_env, shown.response)
    assert card.width == 800 and card.height > 800
    [attachment] = shown.response.attachments
    assert attachment.description.startswith("Stats card of alice. Daily streak 1 day (best 1 day)")
    assert "Rush draw 3: 1 game" in attachment.description
    mine = await bob.slash(channel, "solitaire stats")
    assert "No daily finished yet." in mine.response.attachments[0].description
    assert picture(simcord_env, mine.response).height <= card.height
