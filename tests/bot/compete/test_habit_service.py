"""The champion role and the streak reminders without Discord: the daily service, a plain clock, stand-in calls."""

from __future__ import annotations

import doctest
from dataclasses import dataclass, field
from datetime import date, timedelta

import pytest

import bot.compete.champions
import bot.storage.reminders
from bot.compete.champions import ChannelFacts, Overwrite, RoleChange, RoleFacts, RolePort, ServerRole
from bot.compete.daily import DailyService
from bot.compete.reminders import REMIND_BEFORE, DmOutcome, Reminder
from bot.outbox.announcements import Announcements, retry_delay
from bot.shards import ONE_PROCESS, Ownership
from bot.storage import Database, claims
from bot.storage import champions as champions_db
from bot.storage import competition as competition_db
from bot.storage import players as players_db
from tests.conftest import make_deal_bank
from tests.support.daily import GUILD, Channel, Clock, db, finish, make_service, solve, start_daily, utc

__all__ = ["db"]

ROLE = 900
EVERYONE = frozenset({"view_channel", "send_messages"})
DAY = date(2026, 1, 1)


def test_doctests_pass() -> None:
    assert doctest.testmod(bot.compete.champions).failed == 0
    assert doctest.testmod(bot.storage.reminders).failed == 0


@dataclass
class Roles:
    """Stands in for Discord's roles: who has which role, every call made, and scripted answers."""

    has: set[tuple[int, int]] = field(default_factory=set)
    calls: list[tuple[str, int, int]] = field(default_factory=list)
    script: list[RoleChange] = field(default_factory=list)
    crash_after_giving: bool = False
    grants: frozenset[str] = frozenset()
    """What the role grants (the champion role's permissions can change after it was set)."""
    channels: tuple[ChannelFacts, ...] = ()
    """Its channels' settings (a channel can be made private after the role was set)."""

    async def give(self, guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
        self.calls.append(("give", user_id, role_id))
        if self.script:
            return self.script.pop(0)
        if (user_id, role_id) in self.has:
            return RoleChange.HAD_IT
        self.has.add((user_id, role_id))
        if self.crash_after_giving:
            self.crash_after_giving = False
            raise RuntimeError("the process died before it heard Discord's answer")
        return RoleChange.DONE

    async def take(self, guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
        self.calls.append(("take", user_id, role_id))
        if self.script:
            return self.script.pop(0)
        self.has.discard((user_id, role_id))
        return RoleChange.DONE

    async def look(self, guild_id: int, role_id: int) -> ServerRole:
        return ServerRole(RoleFacts(role_id, 1, self.grants, channels=self.channels), EVERYONE)

    def port(self) -> RolePort:
        return RolePort(self.give, self.take, self.look)


async def champion_service(db: Database, clock: Clock, roles: Roles) -> DailyService:
    service = make_service(db, clock, Channel())
    await champions_db.set_champion_role(db, GUILD, ROLE, podium_after="2000-01-01", now=clock())
    service.champions.use(roles.port())
    return service


async def results(db: Database, service: DailyService, day: date, scores: dict[int, int]) -> None:
    """Members finish ``day``'s draw 3 daily with these scores, at noon."""
    noon = utc(day.year, day.month, day.day, 12)
    for user, score in scores.items():
        await finish(db, service, await start_daily(db, user, day, noon), score, noon + timedelta(seconds=30))


async def next_day(service: DailyService, clock: Clock, day: date) -> None:
    clock.at = utc(day.year, day.month, day.day) + timedelta(days=1, seconds=1)
    await service.run_once()


async def with_a_champion(db: Database, roles: Roles) -> tuple[Clock, DailyService]:
    """Member 1 won 1 January's daily; the clock is just past midnight, the podium's change made."""
    clock = Clock(utc(2026, 1, 1, 8))
    service = await champion_service(db, clock, roles)
    await results(db, service, DAY, {1: 100})
    await next_day(service, clock, DAY)
    return clock, service


# -- the champion role ------------------------------------------------------------------------------
async def test_the_winner_gets_the_role_when_the_podium_is_due_and_loses_it_the_next_day_once(db):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles()
    service = await champion_service(db, clock, roles)
    await service.run_once()
    assert roles.calls == []  # no podium yet: nobody holds the role
    await results(db, service, DAY, {1: 100, 2: 50})
    await next_day(service, clock, DAY)
    assert roles.has == {(1, ROLE)}
    await results(db, service, DAY + timedelta(days=1), {2: 70})
    await next_day(service, clock, DAY + timedelta(days=1))
    await service.run_once()
    assert roles.has == {(2, ROLE)}
    assert roles.calls == [("give", 1, ROLE), ("take", 1, ROLE), ("give", 2, ROLE)]
    [holder] = await champions_db.holders(db, GUILD)
    assert (holder.user_id, holder.daily_date, holder.given_at is not None) == (2, "2026-01-02", True)


async def test_a_crash_after_discord_gave_the_role_forgets_nobody(db):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles(crash_after_giving=True)
    service = await champion_service(db, clock, roles)
    await results(db, service, DAY, {1: 100})
    await next_day(service, clock, DAY)  # Discord gave it, the bot never heard: the change is retried
    assert roles.has == {(1, ROLE)}
    [written] = await champions_db.holders(db, GUILD)
    assert written.given_at is None
    clock.at += timedelta(seconds=retry_delay(0))
    await service.run_once()  # the member has it now, and the bot's note says it was giving it: it is the bot's
    assert (await champions_db.holders(db, GUILD))[0].given_at is not None
    await results(db, service, DAY + timedelta(days=1), {2: 10})
    await next_day(service, clock, DAY + timedelta(days=1))
    assert roles.has == {(2, ROLE)}  # so it is taken back when they stop winning


async def test_a_winner_who_had_the_role_already_is_never_written_down(db):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles(has={(1, ROLE)})
    service = await champion_service(db, clock, roles)
    await results(db, service, DAY, {1: 100})
    await next_day(service, clock, DAY)
    assert await champions_db.holders(db, GUILD) == []
    await results(db, service, DAY + timedelta(days=1), {2: 10})
    await next_day(service, clock, DAY + timedelta(days=1))
    assert roles.has == {(1, ROLE), (2, ROLE)}  # not the bot's to take


async def test_a_refusal_is_noted_for_the_admins_until_a_change_goes_through(db):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles(script=[RoleChange.REFUSED])
    service = await champion_service(db, clock, roles)
    await results(db, service, DAY, {1: 100})
    await next_day(service, clock, DAY)
    config = await competition_db.guild_config(db, GUILD)
    assert config.champion_problem == bot.compete.champions.PROBLEMS[RoleChange.REFUSED]
    assert config.champion_problem_at == clock() and roles.has == set()
    assert await champions_db.holders(db, GUILD) == []  # never given: not written down
    clock.at += timedelta(seconds=retry_delay(0))
    await service.run_once()
    assert roles.has == {(1, ROLE)}
    assert (await competition_db.guild_config(db, GUILD)).champion_problem is None


async def test_the_holders_of_a_deleted_role_are_forgotten_when_the_role_is_cleared(db):
    roles = Roles()
    clock, service = await with_a_champion(db, roles)
    await champions_db.set_champion_role(db, GUILD, None, podium_after="2000-01-01", now=clock())
    roles.script = [RoleChange.NO_ROLE]  # an admin deleted the role meanwhile
    await service.run_once()
    assert await champions_db.holders(db, GUILD) == []
    assert (await competition_db.guild_config(db, GUILD)).champion_problem is None


async def test_a_changed_role_moves_the_champions_to_the_new_role(db):
    roles = Roles()
    clock, service = await with_a_champion(db, roles)
    await champions_db.set_champion_role(db, GUILD, ROLE + 1, podium_after="2000-01-01", now=clock())
    await service.run_once()
    assert roles.has == {(1, ROLE + 1)}


async def test_a_champion_who_lost_the_role_meanwhile_gets_it_back_when_winning_again(db):
    roles = Roles()
    clock, service = await with_a_champion(db, roles)
    roles.has.discard((1, ROLE))  # an admin took it off by hand (or the member left and came back)
    await results(db, service, DAY + timedelta(days=1), {1: 100})
    await next_day(service, clock, DAY + timedelta(days=1))
    assert roles.has == {(1, ROLE)}
    assert roles.calls == [("give", 1, ROLE), ("give", 1, ROLE)]
    [holder] = await champions_db.holders(db, GUILD)
    assert (holder.daily_date, holder.given_at is not None) == ("2026-01-02", True)


async def test_a_role_that_came_to_grant_a_permission_is_given_to_nobody_and_the_problem_noted_once(db):
    roles = Roles()
    clock, service = await with_a_champion(db, roles)
    roles.grants = frozenset({"administrator", "view_channel"})  # an admin edited the role after setting it
    await results(db, service, DAY + timedelta(days=1), {2: 100})
    await next_day(service, clock, DAY + timedelta(days=1))
    assert roles.calls == [("give", 1, ROLE), ("take", 1, ROLE)]  # taken back from yesterday's, given to nobody
    assert roles.has == set()
    config = await competition_db.guild_config(db, GUILD)
    assert config.champion_problem is not None and "**Administrator**" in config.champion_problem
    assert "View Channel" not in config.champion_problem  # @everyone has it
    began = config.champion_problem_at
    clock.at += timedelta(seconds=retry_delay(0))
    await service.run_once()  # tried again: still refused, the problem is the same one (its first time kept)
    assert roles.has == set() and (await competition_db.guild_config(db, GUILD)).champion_problem_at == began
    roles.grants = frozenset()
    clock.at += timedelta(seconds=retry_delay(1))
    await service.run_once()
    assert roles.has == {(2, ROLE)}
    assert (await competition_db.guild_config(db, GUILD)).champion_problem is None


VIEW = frozenset({"view_channel"})
PRIVATE_LOUNGE = ChannelFacts(11, Overwrite(allow=VIEW), Overwrite(deny=VIEW))
"""A channel made private, which the role still lets its members into."""


async def test_a_check_after_a_channel_change_takes_the_role_back_while_it_fails_and_gives_it_after(db):
    roles = Roles()
    clock, service = await with_a_champion(db, roles)
    roles.channels = (PRIVATE_LOUNGE,)
    await service.champions.recheck(GUILD)
    await service.run_once()
    assert roles.has == set() and roles.calls == [("give", 1, ROLE), ("take", 1, ROLE)]
    config = await competition_db.guild_config(db, GUILD)
    assert config.champion_problem is not None and "allows **View Channel** in <#11>" in config.champion_problem
    clock.at += timedelta(minutes=5)
    await service.champions.recheck(GUILD)  # the same refusal: nothing new (its first time kept)
    assert (await competition_db.guild_config(db, GUILD)).champion_problem_at == config.champion_problem_at

    roles.channels = ()  # the lounge opened to all again
    await service.champions.recheck(GUILD)
    assert (await competition_db.guild_config(db, GUILD)).champion_problem is None
    await service.run_once()
    assert roles.has == {(1, ROLE)}


async def test_a_check_leaves_a_problem_of_discords_to_the_next_delivery(db):
    roles = Roles(script=[RoleChange.REFUSED])
    _, service = await with_a_champion(db, roles)
    await service.champions.recheck(GUILD)  # the role passes the rule: Discord's refusal is not the rule's to clear
    config = await competition_db.guild_config(db, GUILD)
    assert config.champion_problem == bot.compete.champions.PROBLEMS[RoleChange.REFUSED]


# -- streak reminders --------------------------------------------------------------------------------
@dataclass
class Inbox:
    """Stands in for direct messages: what was sent, and scripted answers."""

    sent: list[Reminder] = field(default_factory=list)
    script: list[DmOutcome] = field(default_factory=list)

    async def __call__(self, reminder: Reminder) -> DmOutcome:
        outcome = self.script.pop(0) if self.script else DmOutcome.SENT
        if outcome is DmOutcome.SENT:
            self.sent.append(reminder)
        return outcome


async def reminder_service(
    db: Database, clock: Clock, inbox: Inbox, ownership: Ownership = ONE_PROCESS
) -> DailyService:
    service = DailyService(
        db,
        make_deal_bank(),
        announcements=Announcements(db, now=clock, ownership=ownership),
        now=clock,
        secret=lambda: "s3cret",
        solve=solve,
        ownership=ownership,
    )
    service.add_listener(Channel())
    service.reminders.use(inbox)
    return service


async def played(db: Database, service: DailyService, user: int, *days: date) -> None:
    for day in days:
        await results(db, service, day, {user: 10})


THIRD = DAY + timedelta(days=2)
REMIND_AT = utc(2026, 1, 4) - REMIND_BEFORE


async def streak_of_two(db: Database, inbox: Inbox) -> tuple[Clock, DailyService]:
    """Member 1, reminders on, played 1 and 2 January; the clock is at the reminder time on the 3rd."""
    clock = Clock(utc(2026, 1, 3, 8))
    service = await reminder_service(db, clock, inbox)
    await players_db.set_reminders(db, 1, True)
    await played(db, service, 1, DAY, DAY + timedelta(days=1))
    clock.at = REMIND_AT
    return clock, service


async def test_a_reminder_goes_once_four_hours_before_the_day_ends_to_a_streak_of_two_with_reminders_on(db):
    clock, inbox = Clock(utc(2026, 1, 3, 8)), Inbox()
    service = await reminder_service(db, clock, inbox)
    for user in (1, 2, 3, 4):
        await players_db.set_reminders(db, user, True)
    await played(db, service, 1, DAY, DAY + timedelta(days=1))  # a streak of 2: reminded
    await played(db, service, 2, DAY + timedelta(days=1))  # a streak of 1: not reminded
    await played(db, service, 3, DAY, DAY + timedelta(days=1), THIRD)  # played today: not reminded
    await played(db, service, 5, DAY, DAY + timedelta(days=1))  # reminders off: not reminded
    clock.at = REMIND_AT - timedelta(minutes=1)
    assert await service.run_once() == pytest.approx(60.0)
    assert inbox.sent == []
    clock.at = REMIND_AT
    await service.run_once()
    assert inbox.sent == [Reminder(GUILD, 1, 2, THIRD.isoformat(), utc(2026, 1, 4).timestamp())]
    await service.run_once()
    restarted = await reminder_service(db, clock, inbox)  # a restart, or a second process
    clock.at += timedelta(minutes=30)
    await restarted.run_once()
    assert len(inbox.sent) == 1
    rows = await db.fetchall("SELECT subject, state FROM announcements WHERE kind = 'reminder'")
    assert [(row["subject"], row["state"]) for row in rows] == [(f"1:{THIRD.isoformat()}", "posted")]


async def test_a_reminder_is_checked_again_when_it_is_tried_again(db):
    inbox = Inbox(script=[DmOutcome.FAILED])
    clock, service = await streak_of_two(db, inbox)
    await service.run_once()
    await played(db, service, 1, THIRD)  # played before the retry: nothing to remind
    clock.at += timedelta(seconds=retry_delay(0))
    await service.run_once()
    assert inbox.sent == []


async def test_a_reminder_still_failing_when_the_day_ends_is_dropped(db):
    inbox = Inbox(script=[DmOutcome.FAILED] * 100)
    clock, service = await streak_of_two(db, inbox)
    while clock.at < utc(2026, 1, 4, 1):
        await service.run_once()
        clock.at += timedelta(minutes=10)
    assert inbox.sent == []
    rows = await db.fetchall("SELECT state FROM announcements WHERE kind = 'reminder'")
    assert [row["state"] for row in rows] == ["dropped"]


async def test_a_closed_dm_turns_the_reminders_off_and_is_not_tried_again(db):
    inbox = Inbox(script=[DmOutcome.CLOSED])
    clock, service = await streak_of_two(db, inbox)
    await service.run_once()
    clock.at += timedelta(hours=1)
    await service.run_once()
    assert inbox.sent == [] and inbox.script == []
    assert not (await players_db.player_settings(db, 1)).reminders
    assert await players_db.refusal_waiting(db, 1)
    assert await players_db.take_refusal(db, 1) and not await players_db.take_refusal(db, 1)  # told once


async def test_a_reminder_to_a_member_who_left_the_server_is_settled_without_a_message(db):
    inbox = Inbox(script=[DmOutcome.NOT_MEMBER])
    clock, service = await streak_of_two(db, inbox)
    for _ in range(8):  # rounds until the day ends
        await service.run_once()
        clock.at += timedelta(minutes=30)
    assert inbox.sent == [] and inbox.script == []  # asked once, never again
    rows = await db.fetchall("SELECT state FROM announcements WHERE kind = 'reminder'")
    assert [row["state"] for row in rows] == ["dropped"]
    assert (await players_db.player_settings(db, 1)).reminders  # their reminders elsewhere go on


async def test_a_cluster_process_reminds_only_the_members_of_its_own_servers(db):
    clock, inbox = Clock(utc(2026, 1, 3, 8)), Inbox()
    service = await reminder_service(db, clock, inbox, Ownership(2, (1,)))  # GUILD 7 is on shard 0
    await players_db.set_reminders(db, 1, True)
    await played(db, service, 1, DAY, DAY + timedelta(days=1))
    clock.at = REMIND_AT
    await service.run_once()
    assert inbox.sent == []
    assert await db.fetchall("SELECT id FROM announcements WHERE kind = 'reminder'") == []


async def test_a_change_asked_for_while_one_is_being_made_is_made_after_it(db):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles()
    service = await champion_service(db, clock, roles)
    await results(db, service, DAY, {1: 100})
    give = roles.give

    async def give_while_an_admin_clears_the_role(guild_id: int, user_id: int, role_id: int, reason: str) -> RoleChange:
        await champions_db.set_champion_role(db, GUILD, None, podium_after="2000-01-01", now=clock() + 1)
        return await give(guild_id, user_id, role_id, reason)

    service.champions.use(RolePort(give_while_an_admin_clears_the_role, roles.take, roles.look))
    await next_day(service, clock, DAY)
    assert roles.has == {(1, ROLE)}  # the change begun before the admin's is made ...
    [row] = await db.fetchall("SELECT state, claimed_by FROM announcements WHERE kind = 'champion'")
    assert (row["state"], row["claimed_by"]) == ("waiting", None)  # ... and not marked done: it is due again
    service.champions.use(roles.port())
    clock.at += timedelta(seconds=2)
    await service.run_once()
    assert roles.has == set() and await champions_db.holders(db, GUILD) == []
    [row] = await db.fetchall("SELECT state FROM announcements WHERE kind = 'champion'")
    assert row["state"] == "posted"


async def test_a_change_queued_again_before_the_delivery_read_the_settings_is_delivered_once(db, monkeypatch):
    clock, roles = Clock(utc(2026, 1, 1, 8)), Roles()
    service = make_service(db, clock, Channel())
    service.champions.use(roles.port())
    await results(db, service, DAY, {1: 100})
    clock.at = utc(2026, 1, 2, 0, 0, 1)
    await champions_db.set_champion_role(db, GUILD, ROLE, podium_after="2000-01-01", now=clock())  # queued
    claim = claims.claim

    async def claim_as_the_day_closes(database: Database, announcement_id: int, holder: str, **lease: float) -> bool:
        won = await claim(database, announcement_id, holder, **lease)
        if won:  # another process's round closes the day just after the claim: the change is queued again
            await competition_db.claim_podium(db, GUILD, DAY.isoformat(), clock())
        return won

    monkeypatch.setattr(claims, "claim", claim_as_the_day_closes)
    for _ in range(3):
        await service.announcements.deliver_due()
    assert roles.calls == [("give", 1, ROLE)]  # the delivery read the closed day: it was the day's one change
    [row] = await db.fetchall("SELECT state, claimed_by FROM announcements WHERE kind = 'champion'")
    assert (row["state"], row["claimed_by"]) == ("posted", None)
